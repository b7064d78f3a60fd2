// SPDX-License-Identifier: MIT
/*
 * libiocoro end to end on the patched kernel (ctest -L guest, one test per
 * case: runtime_<case>; tests/lib/case.h):
 *
 *   coroutine      load rt.bpf.c through iocoro_object_prepare() and the
 *                  skeleton, attach its steps as kinds (a bpf_link each),
 *                  run the two-step coroutine two_step (a read, then its
 *                  end) and get its result, check what its steps saw,
 *                  detach (the links are gone); a start after the detach
 *                  fails with -EBADF, and the kinds attach again
 *   sleepable      the same with peek, an IOCORO_COROUTINE_SLEEPABLE step
 *                  that calls bpf_copy_from_user()
 *   defer_taskrun  two_step on a SINGLE_ISSUER | DEFER_TASKRUN ring, where
 *                  steps run only while the task waits; four coroutines
 *                  at once, reaped in any order
 *   op_failure     the read fails (-EBADF): the step after it still runs
 *                  and ends the coroutine with that error
 *   budget         the budget travels in each start: iocoro_set_budget(1)
 *                  makes the second step fail with -ELOOP, 2 is enough;
 *                  two coroutines in flight at once, started with budgets
 *                  1 and 2, end each by its own; a start SQE with no
 *                  budget gets the kernel's default, one above
 *                  IOCORO_MAX_BUDGET fails with -EINVAL
 *   verifier_log   a step the verifier refuses (it writes to its ctx): the
 *                  load fails and the log reaches the caller
 *   no_support     the documented error of a ring that cannot run
 *                  IORING_OP_BPF. A kernel without the series cannot be
 *                  had in this guest, so this checks what can be: the
 *                  probe finds the series; iocoro_queue_init() refuses
 *                  SQPOLL with -EINVAL; and the kernel itself refuses a
 *                  kind on an SQPOLL ring and fails IORING_OP_BPF there
 *                  with -EINVAL, which is also what a kernel without the
 *                  series answers for the unknown opcode. The -EOPNOTSUPP
 *                  path of a kernel without the series is covered by the
 *                  unit tests and by unit_host_kernel (the host's own
 *                  kernel).
 */
#define _GNU_SOURCE
#include "iocoro.h" /* before liburing.h */

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "case.h"
#include "check.h"
#include "rt.h"
#include "rt.skel.h"
#include "rt_bad.skel.h"

#define DATA "iocoro: two steps, one result\n"
#define WAIT_S 20

static const struct __kernel_timespec wait_ts = { .tv_sec = WAIT_S };

/* a file holding DATA, open for reading */
static int data_fd(void)
{
	char path[] = "/tmp/iocoro-rt-XXXXXX";
	int fd = CHECK_SYS(mkstemp(path));

	CHECK_EQ(CHECK_SYS(write(fd, DATA, strlen(DATA))), (long)strlen(DATA));
	CHECK_SYS(unlink(path));
	return fd;
}

static struct rt_bpf *load_flags(struct iocoro *co, unsigned int flags)
{
	static char log[64 * 1024];
	struct iocoro_load_opts opts = {
		.sz = sizeof(opts), .log_buf = log, .log_size = sizeof(log),
	};
	struct rt_bpf *skel;
	int ret;

	CHECK_RET(iocoro_queue_init(8, co, flags));
	skel = SKEL_OPEN(rt_bpf);
	CHECK_EQ(CHECK_RET(iocoro_object_prepare(skel->obj, &opts)), 2);
	ret = rt_bpf__load(skel);
	if (ret)
		FAIL("rt_bpf__load: %d (%s)\n%s", ret, iocoro_strerror(ret), log);
	CHECK_EQ(bpf_program__type(skel->progs.two_step),
		 BPF_PROG_TYPE_STRUCT_OPS);
	CHECK_EQ(CHECK_RET(iocoro_attach_object(co, skel->obj)), 2);
	CHECK_EQ(co->nr_progs, 2);
	return skel;
}

/* @fd is a struct_ops bpf_link, open */
static void check_link(int fd)
{
	struct bpf_link_info info;
	__u32 len = sizeof(info);

	CHECK(fd >= 0);
	memset(&info, 0, sizeof(info));
	CHECK_RET(bpf_obj_get_info_by_fd(fd, &info, &len));
	CHECK_EQ(info.type, BPF_LINK_TYPE_STRUCT_OPS);
}

static struct rt_bpf *load(struct iocoro *co)
{
	return load_flags(co, 0);
}

/* the end of a case: @co's ring exited, @skel destroyed, @fd (>= 0) closed */
static void unload(struct iocoro *co, struct rt_bpf *skel, int fd)
{
	iocoro_queue_exit(co);
	rt_bpf__destroy(skel);
	if (fd >= 0)
		close(fd);
}

/* @st set to read data_fd() into @buf of @len */
static void read_data_into(struct rt_state *st, char *buf, size_t len)
{
	st->fd = data_fd();
	st->buf = (uintptr_t)buf;
	st->len = len;
}

static void wait_done(struct iocoro *co, struct iocoro_done *done)
{
	int ret = iocoro_wait(co, done, &wait_ts);

	if (ret)
		FAIL("iocoro_wait: %d (%s)", ret, iocoro_strerror(ret));
}

static void run(struct iocoro *co, struct rt_bpf *skel, unsigned int prog,
		uint32_t id, struct rt_state *st, struct iocoro_done *done)
{
	CHECK_RET(iocoro_start_state(co, prog, id, skel->maps.states, st,
				     sizeof(*st)));
	wait_done(co, done);
	CHECK_EQ(done->id, id);
	CHECK_EQ(done->prog, prog);
	CHECK_RET(iocoro_state_read(skel->maps.states, id, st, sizeof(*st)));
}

/* a case's coroutine that reads data_fd(): its ring, object, state, end */
struct rt_read {
	struct iocoro co;
	struct rt_bpf *skel;
	struct rt_state st;
	struct iocoro_done done;
	char buf[64];
	unsigned int idx;	/* the step's index among the object's steps */
};

/*
 * @r loaded (load()); coroutine @id of step peek (@sleepable) or two_step
 * reads data_fd() into r->buf, run to its end; the step ran as the kind
 * that is its index
 */
static void read_run(struct rt_read *r, bool sleepable, uint32_t id)
{
	const struct bpf_program *prog;

	memset(r, 0, sizeof(*r));
	r->skel = load(&r->co);
	prog = sleepable ? r->skel->progs.peek : r->skel->progs.two_step;
	r->idx = CHECK_RET(iocoro_prog_index(r->skel->obj, prog));
	read_data_into(&r->st, r->buf, sizeof(r->buf));
	run(&r->co, r->skel, r->idx, id, &r->st, &r->done);
	CHECK_EQ(r->st.kind, r->idx);
}

IOCORO_CASE(coroutine)
{
	struct rt_read r;
	int link;

	read_run(&r, false, 3);
	/* the result: the read's byte count, and the bytes */
	CHECK_EQ(r.done.how, IOCORO_FINISHED);
	CHECK_EQ(r.done.res, (int)strlen(DATA));
	CHECK(!memcmp(r.buf, DATA, strlen(DATA)));
	/* two runs; the first step had nothing before it, the second the read */
	CHECK_EQ(r.st.runs, 2);
	CHECK_EQ(r.st.step, RT_FINISH);
	CHECK_EQ(r.st.first_has_prev, 0);
	CHECK_EQ(r.st.has_prev, 1);
	CHECK_EQ(r.st.prev_res, (int)strlen(DATA));
	CHECK_EQ_U64(r.st.prev_user_data, iocoro_ud(IOCORO_UD_STEP, r.idx, 3));
	/* one CQE for the whole coroutine: nothing else is left */
	CHECK_EQ(io_uring_cq_ready(&r.co.ring), 0);

	/* a link per kind */
	check_link(r.co.links[0]);
	check_link(r.co.links[1]);
	link = r.co.links[r.idx];

	/* detached: the links are closed, and the next start fails in the
	 * kernel, with -EBADF */
	CHECK_RET(iocoro_detach(&r.co));
	CHECK_EQ(r.co.nr_progs, 0);
	CHECK(fcntl(link, F_GETFD) < 0);
	CHECK_EQ(iocoro_detach(&r.co), -ENXIO);
	r.st.step = RT_READ;
	CHECK_RET(iocoro_start_state(&r.co, r.idx, 3, r.skel->maps.states,
				     &r.st, sizeof(r.st)));
	wait_done(&r.co, &r.done);
	CHECK_EQ(r.done.how, IOCORO_FAILED);
	CHECK_EQ(r.done.res, -EBADF);

	/* the kinds are free: attached again, the coroutine runs again */
	CHECK_EQ(CHECK_RET(iocoro_attach_object(&r.co, r.skel->obj)), 2);
	r.st.step = RT_READ;
	r.st.runs = 0;
	run(&r.co, r.skel, r.idx, 3, &r.st, &r.done);
	CHECK_EQ(r.done.how, IOCORO_FINISHED);
	CHECK_EQ(r.done.res, (int)strlen(DATA));
	CHECK_EQ(r.st.runs, 2);

	unload(&r.co, r.skel, r.st.fd);
}

IOCORO_CASE(sleepable)
{
	struct rt_read r;

	read_run(&r, true, 1);
	CHECK(bpf_program__flags(r.skel->progs.peek) & BPF_F_SLEEPABLE);
	CHECK_EQ(r.done.how, IOCORO_FINISHED);
	CHECK_EQ(r.done.res, DATA[0]);
	CHECK(!memcmp(&r.st.peeked, DATA, 8));
	unload(&r.co, r.skel, r.st.fd);
}

IOCORO_CASE(defer_taskrun)
{
	char buf[4][64];
	struct rt_state st = { 0 };
	struct iocoro_done done;
	struct rt_bpf *skel;
	struct iocoro co;
	unsigned int seen = 0, i;
	int fd;

	skel = load_flags(&co, IORING_SETUP_SINGLE_ISSUER |
				IORING_SETUP_DEFER_TASKRUN);
	fd = data_fd();
	for (i = 0; i < 4; i++) {
		memset(buf[i], 0, sizeof(buf[i]));
		st.fd = fd;
		st.buf = (uintptr_t)buf[i];
		st.len = sizeof(buf[i]);
		CHECK_RET(iocoro_start_state(&co, 0, i, skel->maps.states, &st,
					     sizeof(st)));
	}
	for (i = 0; i < 4; i++) {
		wait_done(&co, &done);
		CHECK(done.id < 4);
		CHECK(!(seen & (1U << done.id)));
		seen |= 1U << done.id;
		CHECK_EQ(done.how, IOCORO_FINISHED);
		CHECK_EQ(done.res, (int)strlen(DATA));
		CHECK(!memcmp(buf[done.id], DATA, strlen(DATA)));
	}
	CHECK_EQ(seen, 0xf);
	CHECK_EQ(io_uring_cq_ready(&co.ring), 0);
	unload(&co, skel, fd);
}

IOCORO_CASE(op_failure)
{
	char buf[16];
	struct rt_state st = { .fd = -1, .len = sizeof(buf) };
	struct iocoro_done done;
	struct rt_bpf *skel;
	struct iocoro co;

	skel = load(&co);
	st.buf = (uintptr_t)buf;
	run(&co, skel, 0, 2, &st, &done);
	/* the failed read's own CQE was consumed on the way */
	CHECK_EQ(done.how, IOCORO_FINISHED);
	CHECK_EQ(done.res, -EBADF);
	CHECK_EQ(st.runs, 2);
	CHECK_EQ(st.has_prev, 1);
	CHECK_EQ(st.prev_res, -EBADF);
	CHECK_EQ(io_uring_cq_ready(&co.ring), 0);
	unload(&co, skel, -1);
}

/* start coroutine @id of two_step (kind 0) with @budget in the SQE */
static void start_raw(struct iocoro *co, struct rt_bpf *skel, uint32_t id,
		      struct rt_state *st, unsigned int budget)
{
	struct io_uring_sqe *sqe;

	CHECK_RET(bpf_map__update_elem(skel->maps.states, &id, sizeof(id), st,
				       sizeof(*st), BPF_ANY));
	sqe = io_uring_get_sqe(&co->ring);
	CHECK(sqe != NULL);
	iocoro_prep_start(sqe, 0, id);
	sqe->len = budget;
	CHECK_EQ(CHECK_RET(io_uring_submit(&co->ring)), 1);
}

IOCORO_CASE(budget)
{
	char buf[64];
	struct rt_state st = { 0 };
	struct iocoro_done done;
	struct rt_bpf *skel;
	struct iocoro co;
	unsigned int i, seen = 0;

	skel = load(&co);
	read_data_into(&st, buf, sizeof(buf));

	/* one step: the read's step has nothing left */
	CHECK_RET(iocoro_set_budget(&co, 1));
	CHECK_EQ(co.budget, 1);
	run(&co, skel, 0, 4, &st, &done);
	CHECK_EQ(done.how, IOCORO_FAILED);
	CHECK_EQ(done.res, -ELOOP);
	CHECK_EQ(st.runs, 1);
	CHECK(strstr(iocoro_strerror(done.res), "budget") != NULL);

	/* a budget of 2 is enough for two steps */
	CHECK_RET(iocoro_set_budget(&co, 2));
	st.step = RT_READ;
	st.runs = 0;
	run(&co, skel, 0, 4, &st, &done);
	CHECK_EQ(done.how, IOCORO_FINISHED);
	CHECK_EQ(done.res, (int)strlen(DATA));
	CHECK_EQ(st.runs, 2);
	CHECK_EQ(iocoro_set_budget(&co, 0), -EINVAL);
	CHECK_EQ(iocoro_set_budget(&co, IOCORO_MAX_BUDGET + 1), -EINVAL);
	CHECK_EQ(co.budget, 2);

	/* each coroutine its own: 5 with 1, 6 with 2, in flight together */
	st.step = RT_READ;
	st.runs = 0;
	CHECK_RET(iocoro_set_budget(&co, 1));
	CHECK_RET(iocoro_start_state(&co, 0, 5, skel->maps.states, &st,
				     sizeof(st)));
	CHECK_RET(iocoro_set_budget(&co, 2));
	CHECK_RET(iocoro_start_state(&co, 0, 6, skel->maps.states, &st,
				     sizeof(st)));
	for (i = 0; i < 2; i++) {
		wait_done(&co, &done);
		CHECK(done.id == 5 || done.id == 6);
		CHECK(!(seen & (1U << done.id)));
		seen |= 1U << done.id;
		if (done.id == 5) {
			CHECK_EQ(done.how, IOCORO_FAILED);
			CHECK_EQ(done.res, -ELOOP);
		} else {
			CHECK_EQ(done.how, IOCORO_FINISHED);
			CHECK_EQ(done.res, (int)strlen(DATA));
		}
	}

	/* a start SQE without a budget: the kernel's default, plenty */
	start_raw(&co, skel, 7, &st, 0);
	wait_done(&co, &done);
	CHECK_EQ(done.id, 7);
	CHECK_EQ(done.how, IOCORO_FINISHED);
	CHECK_EQ(done.res, (int)strlen(DATA));
	/* the most a start may carry, and one more */
	start_raw(&co, skel, 8, &st, IOCORO_MAX_BUDGET);
	wait_done(&co, &done);
	CHECK_EQ(done.id, 8);
	CHECK_EQ(done.how, IOCORO_FINISHED);
	start_raw(&co, skel, 9, &st, IOCORO_MAX_BUDGET + 1);
	wait_done(&co, &done);
	CHECK_EQ(done.id, 9);
	CHECK_EQ(done.how, IOCORO_FAILED);
	CHECK_EQ(done.res, -EINVAL);
	CHECK_RET(iocoro_state_read(skel->maps.states, 9, &st, sizeof(st)));
	CHECK_EQ(st.runs, 0);
	CHECK_EQ(io_uring_cq_ready(&co.ring), 0);

	unload(&co, skel, st.fd);
}

IOCORO_CASE(verifier_log)
{
	static char log[64 * 1024];
	struct iocoro_load_opts opts = {
		.sz = sizeof(opts), .log_buf = log, .log_size = sizeof(log),
	};
	struct rt_bad_bpf *skel = rt_bad_bpf__open();
	int ret;

	CHECK(skel != NULL);
	CHECK_EQ(CHECK_RET(iocoro_object_prepare(skel->obj, &opts)), 1);
	ret = rt_bad_bpf__load(skel);
	CHECK(ret == -EACCES || ret == -EINVAL);
	if (!strstr(log, "only read is supported"))
		FAIL("verifier log without the reason:\n%s", log);
	printf("verifier log (%zu bytes) ends: %s\n", strlen(log),
	       strlen(log) > 200 ? log + strlen(log) - 200 : log);
	rt_bad_bpf__destroy(skel);

	/* iocoro_object_load() reports the same */
	skel = SKEL_OPEN(rt_bad_bpf);
	log[0] = 'x';
	ret = iocoro_object_load(skel->obj, &opts);
	CHECK(ret == -EACCES || ret == -EINVAL);
	CHECK(strstr(log, "only read is supported") != NULL);
	rt_bad_bpf__destroy(skel);
}

IOCORO_CASE(no_support)
{
	struct io_uring_params p = { .flags = IORING_SETUP_SQPOLL };
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct iocoro co, sq;
	struct rt_bpf *skel;
	int fds[1];

	/* this kernel has the series */
	CHECK_EQ(iocoro_probe(), 0);

	/* the library refuses rings the feature cannot use */
	CHECK_EQ(iocoro_queue_init(8, &co, IORING_SETUP_SQPOLL), -EINVAL);
	CHECK_EQ(iocoro_queue_init(8, &co, IORING_SETUP_IOPOLL), -EINVAL);
	CHECK(strstr(iocoro_strerror(-EINVAL), "SQPOLL") != NULL);
	CHECK(strstr(iocoro_strerror(-EOPNOTSUPP), "IORING_OP_BPF") != NULL);

	/* and that is the kernel's verdict: an SQPOLL ring the application
	 * set up takes no kind, and IORING_OP_BPF fails there with -EINVAL,
	 * as an unknown opcode does on a kernel without the series */
	skel = load(&co);
	fds[0] = bpf_program__fd(skel->progs.two_step);
	memset(&sq, 0, sizeof(sq));
	CHECK_RET(io_uring_queue_init_params(4, &sq.ring, &p));
	CHECK_EQ(iocoro_attach(&sq, fds, 1), -EINVAL);
	CHECK_EQ(sq.nr_progs, 0);
	CHECK_EQ(iocoro_kind_attach(&sq, skel->progs.two_step, 0), -EINVAL);
	sqe = io_uring_get_sqe(&sq.ring);
	CHECK(sqe != NULL);
	iocoro_prep_start(sqe, 0, 1);
	io_uring_sqe_set_flags(sqe, 0);
	CHECK_EQ(CHECK_RET(io_uring_submit(&sq.ring)), 1);
	CHECK_RET(io_uring_wait_cqe(&sq.ring, &cqe));
	CHECK_CQE(cqe, iocoro_ud(IOCORO_UD_STEP, 0, 1), -EINVAL);
	io_uring_cqe_seen(&sq.ring, cqe);
	io_uring_queue_exit(&sq.ring);
	unload(&co, skel, -1);
}
