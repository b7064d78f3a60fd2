// SPDX-License-Identifier: MIT
/*
 * The per-run cap of bpf_io_coro_emit_cqe(): one step looping over it
 * 1<<16 times posts IORING_BPF_MAX_CQES CQEs, the rest are -EBUSY. Step
 * emit_flood of kinds.bpf.c.
 */
#include "kinds.h"

#define EMIT_LOOPS (1U << 16)

/* one step of emit_flood with @nr calls: IORING_BPF_MAX_CQES CQEs posted */
static void emit_run(struct io_uring *ring, struct kinds_bpf *skel,
		     unsigned int nr)
{
	const unsigned int want = IORING_BPF_MAX_CQES;
	struct io_uring_cqe *cqes = calloc(want + 1, sizeof(*cqes));
	uint64_t t0;
	double run_ms;

	CHECK(cqes != NULL);
	CHECK(nr > want);
	skel->bss->ef_nr = nr;
	skel->bss->ef_base = UD_EMIT;
	skel->bss->ef_runs = 0;
	uring_prep_start(ring, K_MAIN, UD_BPF);
	t0 = uring_now_ns();
	/* the step runs at the latest while the reap waits */
	uring_submit(ring, 1);
	uring_reap(ring, cqes, want + 1);
	run_ms = uring_ms_since(t0);
	printf("emit_cap: %u calls: %u posted, %u x -EBUSY, %u other, "
	       "submit and reap %.1f ms\n", nr, skel->bss->ef_ok,
	       skel->bss->ef_ebusy, skel->bss->ef_other, run_ms);
	CHECK_EQ(skel->bss->ef_runs, 1);
	CHECK_EQ(skel->bss->ef_ok, want);
	CHECK_EQ(skel->bss->ef_ebusy, nr - want);
	CHECK_EQ(skel->bss->ef_other, 0);
	uring_expect_emitted(cqes, want, UD_EMIT, UD_BPF);
	CHECK_EQ(*ring->cq.koverflow, 0);
	free(cqes);
}

IOCORO_CASE(emit_cap)
{
	struct io_uring_params p = {
		.flags = IORING_SETUP_CQSIZE,
		.cq_entries = 8,
	};
	struct kinds_bpf *skel = kinds_load();
	struct iocoro co;
	int link;

	/* the 8-entry CQ: most CQEs go to the overflow list */
	uring_co_init_params(&co, 8, &p);
	CHECK_EQ(co.ring.cq.ring_entries, 8);
	link = uring_attach(&co, skel->progs.emit_flood, K_MAIN);
	emit_run(&co.ring, skel, EMIT_LOOPS);
	/* the cap is per step: the next one posts as many again */
	emit_run(&co.ring, skel, IORING_BPF_MAX_CQES + 1);
	io_uring_queue_exit(&co.ring);
	close(link);
	kinds_bpf__destroy(skel);
}
