// SPDX-License-Identifier: MIT
/*
 * Verification cost: programs that post CQEs in a loop and return what
 * they counted (cost.bpf.c) load within COST_MAX_INSNS processed
 * instructions each, a tenth of the verifier's limit, and run.
 *
 * The bound is on the verifier's own count (BPF_LOG_STATS), which does
 * not depend on the machine's speed. The programs are struct io_coro_ops
 * steps that post with the bpf_io_coro_emit_cqe() kfunc, attached as the
 * kinds of a ring by libiocoro.
 *
 *   cost_load  the three programs load within the bound; the statistics
 *              of each are printed
 *   cost_run   emit_bpf_loop and emit_counted post their CQEs and return
 *              their count
 */
#include <linux/io_uring.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iocoro.h"
#include <liburing.h>

#include "case.h"
#include "check.h"

#include "cost.h"
#include "cost.skel.h"

/* the verifier's statistics only (BPF_LOG_STATS, linux/bpf_verifier.h) */
#define COST_LOG_STATS 4

/* a tenth of BPF_COMPLEXITY_LIMIT_INSNS */
#define COST_MAX_INSNS 100000

/* the steps of cost.bpf.c, at their kind: their order in the object */
enum cost_prog {
	P_EMIT_COUNTED,
	P_EMIT_BPF_LOOP,
	P_EMIT_UNROLLED,
};

#define COST_LOG_SIZE (1 << 16)

struct cost_logs {
	char counted[COST_LOG_SIZE];
	char bpf_loop[COST_LOG_SIZE];
	char unrolled[COST_LOG_SIZE];
};

/* "processed N insns" of a verifier log at BPF_LOG_STATS, or -1 */
static long processed_insns(const char *log)
{
	const char *p = strstr(log, "processed ");
	long n;

	if (!p || sscanf(p, "processed %ld insns", &n) != 1)
		return -1;
	return n;
}

static void stats_log(struct bpf_program *prog, char *buf)
{
	buf[0] = '\0';
	CHECK_EQ(bpf_program__set_log_buf(prog, buf, COST_LOG_SIZE), 0);
	CHECK_EQ(bpf_program__set_log_level(prog, COST_LOG_STATS), 0);
}

/* the program's processed instructions are within the bound */
static void check_cost(const char *name, const char *log)
{
	const char *p = strstr(log, "processed ");
	long n = processed_insns(log);

	if (n < 0) {
		fprintf(stderr, "verifier log:\n%s\n", log);
		FAIL("%s: no instruction count in the verifier log (above)",
		     name);
	}
	printf("%s: %.*s\n", name, (int)strcspn(p, "\n"), p);
	if (n > COST_MAX_INSNS)
		FAIL("%s: the verifier processed %ld instructions, more than "
		     "%d", name, n, COST_MAX_INSNS);
}

/* cost.bpf.c loaded with the statistics of each program in @logs */
static struct cost_bpf *cost_load(struct cost_logs *logs)
{
	struct cost_bpf *skel;
	int ret;

	skel = SKEL_OPEN(cost_bpf);
	stats_log(skel->progs.emit_bpf_loop, logs->bpf_loop);
	stats_log(skel->progs.emit_unrolled, logs->unrolled);
	stats_log(skel->progs.emit_counted, logs->counted);
	ret = cost_bpf__load(skel);
	if (ret) {
		fprintf(stderr, "emit_counted:\n%s\nemit_bpf_loop:\n%s\n"
			"emit_unrolled:\n%s\n", logs->counted, logs->bpf_loop,
			logs->unrolled);
		FAIL("cost_bpf__load: %d (%s)", ret,
		     iocoro_errno_name(-ret) ?: "?");
	}
	return skel;
}

IOCORO_CASE(cost_load)
{
	static struct cost_logs logs;
	struct cost_bpf *skel = cost_load(&logs);

	check_cost("emit_counted", logs.counted);
	check_cost("emit_bpf_loop", logs.bpf_loop);
	check_cost("emit_unrolled", logs.unrolled);
	cost_bpf__destroy(skel);
}

#define COST_RUN_NR 5
#define UD_COST_BPF 0xc0570001ULL

/* one run of step @prog: its @nr CQEs (COST_UD + i, res i), then its own */
static void run_emits(struct iocoro *co, enum cost_prog prog, unsigned int nr)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&co->ring);
	struct io_uring_cqe *cqe;
	unsigned int i;

	CHECK(sqe);
	iocoro_prep_kind(sqe, prog);
	sqe->user_data = UD_COST_BPF;
	CHECK_EQ(io_uring_submit(&co->ring), 1);
	for (i = 0; i <= nr; i++) {
		CHECK_EQ(io_uring_wait_cqe(&co->ring, &cqe), 0);
		if (i < nr)
			CHECK_CQE(cqe, COST_UD + i, (int)i);
		else
			CHECK_CQE(cqe, UD_COST_BPF, (int)nr);
		io_uring_cqe_seen(&co->ring, cqe);
	}
}

IOCORO_CASE(cost_run)
{
	static struct cost_logs logs;
	struct cost_bpf *skel = cost_load(&logs);
	struct io_uring_params p = { .flags = IORING_SETUP_CQSIZE,
				     .cq_entries = 2 * COST_UNROLLED };
	struct iocoro co;

	CHECK_RET(iocoro_queue_init_params(8, &co, &p));
	CHECK_EQ(iocoro_attach_object(&co, skel->obj), 3);
	CHECK_EQ(iocoro_prog_index(skel->obj, skel->progs.emit_bpf_loop),
		 P_EMIT_BPF_LOOP);
	skel->bss->cost_nr = COST_RUN_NR;
	run_emits(&co, P_EMIT_BPF_LOOP, COST_RUN_NR);
	run_emits(&co, P_EMIT_COUNTED, COST_UNROLLED);
	iocoro_queue_exit(&co);
	cost_bpf__destroy(skel);
}
