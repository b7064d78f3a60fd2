// SPDX-License-Identifier: MIT
/*
 * Finding 8: a step whose operation completed and whose program has not
 * run yet could not be cancelled on v4 (ASYNC_CANCEL and SYNC_CANCEL
 * answered -ENOENT, the program ran later anyway). Such a request is a
 * request like any other: cancelling it completes it with -ECANCELED and
 * its step does not run. On an IORING_SETUP_DEFER_TASKRUN ring a step
 * runs only while the task waits: an IORING_OP_BPF submitted without
 * waiting stays due to run (fdinfo's BpfReady), which is where these cases
 * cancel it. A LINK_TIMEOUT covers the operation and its step as one
 * request.
 */
#include "review.h"
#include "cancel.skel.h"

#define UD_STEP 0x5
#define UD_CANCEL 0xc

/* the kinds cancel.bpf.c's steps are attached as */
enum { K_COUNT, K_READ };

/* a ring of @flags with both kinds; their links in @links */
static struct cancel_bpf *cn_setup(struct iocoro *co, unsigned int flags,
				   int links[2])
{
	struct cancel_bpf *skel;

	skel = cancel_bpf__open_and_load();
	if (!skel)
		FAIL("cancel_bpf__open_and_load: %s", strerror(errno));
	skel->bss->cn_count_kind = K_COUNT;
	rv_ring(co, 8, flags);
	links[0] = rv_kind(co, skel->progs.cn_count, K_COUNT);
	links[1] = rv_kind(co, skel->progs.cn_read, K_READ);
	return skel;
}

static void cn_teardown(struct iocoro *co, int links[2],
			struct cancel_bpf *skel)
{
	close(links[1]);
	close(links[0]);
	io_uring_queue_exit(&co->ring);
	cancel_bpf__destroy(skel);
}

#define DEFER (IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN)

/* IORING_OP_BPF on a DEFER ring, submitted without a wait: due to run */
static void cn_due(struct io_uring *ring)
{
	rv_prep_start(ring, K_COUNT, UD_STEP);
	/* liburing enters without IORING_ENTER_GETEVENTS here */
	uring_submit(ring, 1);
	CHECK(strstr(uring_fdinfo(ring), "BpfReady:\t1\n") != NULL);
}

IOCORO_CASE(cancel_async)
{
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;
	struct cancel_bpf *skel;
	struct iocoro co;
	int links[2];

	skel = cn_setup(&co, DEFER, links);
	cn_due(&co.ring);
	sqe = uring_sqe(&co.ring);
	io_uring_prep_cancel64(sqe, UD_STEP, 0);
	sqe->user_data = UD_CANCEL;
	uring_submit(&co.ring, 1);
	uring_reap(&co.ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_CANCEL, 0);
	EXPECT_CQE(cqes, 2, UD_STEP, -ECANCELED);
	CHECK_EQ(skel->bss->cn_runs, 0);
	CHECK(strstr(uring_fdinfo(&co.ring), "BpfReady:\t0\n") != NULL);
	cn_teardown(&co, links, skel);
}

IOCORO_CASE(cancel_sync)
{
	struct io_uring_sync_cancel_reg reg = {
		.addr = UD_STEP,
		.timeout = { .tv_sec = 10, .tv_nsec = 0 },
	};
	struct io_uring_cqe cqe;
	struct cancel_bpf *skel;
	struct iocoro co;
	int links[2];

	skel = cn_setup(&co, DEFER, links);
	cn_due(&co.ring);
	CHECK_EQ(io_uring_register_sync_cancel(&co.ring, &reg), 0);
	uring_reap(&co.ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_STEP, -ECANCELED);
	CHECK_EQ(skel->bss->cn_runs, 0);
	/* nothing left to cancel */
	CHECK_EQ(io_uring_register_sync_cancel(&co.ring, &reg), -ENOENT);
	cn_teardown(&co, links, skel);
}

/* not cancelled: it runs at the next wait, as it would have */
IOCORO_CASE(cancel_none)
{
	struct io_uring_cqe cqe;
	struct cancel_bpf *skel;
	struct iocoro co;
	int links[2];

	skel = cn_setup(&co, DEFER, links);
	cn_due(&co.ring);
	CHECK_EQ(skel->bss->cn_runs, 0);
	CHECK_EQ(rv_enter(&co.ring, 0, 1, IORING_ENTER_GETEVENTS), 0);
	uring_reap(&co.ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_STEP, 7);
	CHECK_EQ(skel->bss->cn_runs, 1);
	cn_teardown(&co, links, skel);
}

/*
 * A LINK_TIMEOUT after a read that carries a step: the timeout cancels
 * the read, whose step runs and sees -ECANCELED, its result the
 * request's.
 */
IOCORO_CASE(cancel_link_timeout)
{
	struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = 50000000 };
	struct io_uring_cqe cqes[3];
	struct cancel_bpf *skel;
	struct iocoro co;
	static char buf[8];
	int p[2], links[2];

	skel = cn_setup(&co, 0, links);
	CHECK_SYS(pipe2(p, O_CLOEXEC));
	skel->bss->cn_fd = p[0];
	skel->bss->cn_buf = (uintptr_t)buf;
	skel->bss->cn_ts = (uintptr_t)&ts;
	rv_prep_start(&co.ring, K_READ, UD_STEP);
	uring_submit(&co.ring, 1);
	uring_reap(&co.ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_STEP, 0);
	EXPECT_CQE(cqes, 3, 0x7173, -ETIME);
	EXPECT_CQE(cqes, 3, 0x4ead, 7);
	CHECK_EQ(skel->bss->cn_rc[0], 0);
	CHECK_EQ(skel->bss->cn_rc[1], 0);
	CHECK_EQ(skel->bss->cn_runs, 1);
	CHECK_EQ(skel->bss->cn_prev_res, -ECANCELED);
	close(p[0]);
	close(p[1]);
	cn_teardown(&co, links, skel);
}
