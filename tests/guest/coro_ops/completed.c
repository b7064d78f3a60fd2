// SPDX-License-Identifier: MIT
/*
 * Review item N1 of v5: an operation that completed reaches user space,
 * whatever happens while its step waits. On an IORING_SETUP_DEFER_TASKRUN
 * ring a pipe read armed on an empty pipe completes in the task_work its
 * poll wakeup queued, which runs only while the task enters the ring; an
 * enter that asks for no CQE runs it once, and the read's step request it
 * makes ready waits for the next. Cancelled then, the read is not found
 * (a completed request is not cancelled) and the step runs with the real
 * result; with its kind's link destroyed, the operation's own result is
 * posted. The bytes read prove nothing was lost (v5 posted -ECANCELED,
 * the bytes gone from the pipe).
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "coro_ops.h"

#define UD_CANCEL 0x5700ULL

/*
 * A DEFER_TASKRUN ring with @prog attached as @kind and seen_step as
 * K_SEEN: the link of K_SEEN
 */
static int cp_ring(struct iocoro *co, struct coro_ops_bpf *skel,
		   struct bpf_program *prog, unsigned int kind)
{
	struct io_uring_params p = {
		.flags = IORING_SETUP_SINGLE_ISSUER |
			 IORING_SETUP_DEFER_TASKRUN,
	};

	CHECK_RET(iocoro_queue_init_params(8, co, &p));
	co_attach(co, prog, kind);
	return co_attach(co, skel->progs.seen_step, K_SEEN);
}

/*
 * Start @kind, its read of the empty pipe @wfd writes to armed, wait for
 * the start's CQE, then write: the read completes in an enter that waits
 * for nothing, and the read's step waits for the next enter.
 */
static void cp_started(struct iocoro *co, struct coro_ops_bpf *skel,
		       unsigned int kind, int wfd)
{
	struct io_uring_cqe *cqe;

	co_start(co, kind, UD_START);
	/* one wait: a peek would enter the ring for the step left waiting */
	CHECK_EQ(uring_wait_cqe_ms(&co->ring, &cqe, 10000), 0);
	CHECK_CQE(cqe, UD_START, 0);
	io_uring_cqe_seen(&co->ring, cqe);
	CHECK_EQ(write(wfd, "hello", 5), 5);
	CHECK_EQ(io_uring_enter(co->ring.ring_fd, 0, 0,
				IORING_ENTER_GETEVENTS, NULL), 0);
	CHECK_EQ(io_uring_cq_ready(&co->ring), 0);
	CHECK_EQ(skel->bss->seen.runs, 0);
}

/* cancel user_data @ud from user space, without a wait */
static void cp_cancel(struct io_uring *ring, __u64 ud)
{
	struct io_uring_sqe *sqe = uring_sqe(ring);

	io_uring_prep_cancel64(sqe, ud, 0);
	sqe->user_data = UD_CANCEL;
	uring_submit(ring, 1);
}

static void cp_teardown(struct iocoro *co, struct coro_ops_bpf *skel)
{
	iocoro_queue_exit(co);
	coro_ops_bpf__destroy(skel);
}

/* the read's step runs with the bytes the read took */
IOCORO_CASE(completed_read_cancel)
{
	struct io_uring_cqe cqes[3];
	struct coro_ops_bpf *skel;
	static char buf[64];
	struct iocoro co;
	int p[2];

	skel = co_load();
	cp_ring(&co, skel, skel->progs.read_start, K_READ_START);
	CHECK_SYS(pipe(p));
	skel->bss->read_fd = p[0];
	skel->bss->read_buf = (__u64)(uintptr_t)buf;
	cp_started(&co, skel, K_READ_START, p[1]);
	cp_cancel(&co.ring, UD_READ);
	uring_reap(&co.ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_CANCEL, -ENOENT);
	EXPECT_CQE(cqes, 3, UD_EMIT, 1005);
	EXPECT_CQE(cqes, 3, UD_READ, 0);
	CHECK_EQ(skel->bss->seen.res, 5);
	CHECK(!memcmp(buf, "hello", 5));
	close(p[0]);
	close(p[1]);
	cp_teardown(&co, skel);
}

/* the read's kind went: its CQE carries the byte count */
IOCORO_CASE(completed_read_detach)
{
	struct coro_ops_bpf *skel;
	struct io_uring_cqe cqe;
	static char buf[64];
	struct iocoro co;
	int p[2], link;

	skel = co_load();
	link = cp_ring(&co, skel, skel->progs.read_start, K_READ_START);
	CHECK_SYS(pipe(p));
	skel->bss->read_fd = p[0];
	skel->bss->read_buf = (__u64)(uintptr_t)buf;
	cp_started(&co, skel, K_READ_START, p[1]);
	CHECK_SYS(close(link));
	uring_reap(&co.ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_READ, 5);
	CHECK_EQ(skel->bss->seen.runs, 0);
	CHECK(!memcmp(buf, "hello", 5));
	close(p[0]);
	close(p[1]);
	cp_teardown(&co, skel);
}
