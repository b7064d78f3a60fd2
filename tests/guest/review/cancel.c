// SPDX-License-Identifier: MIT
/*
 * Finding 8: a step whose operation completed and whose program has not
 * run yet could not be cancelled on v4 (ASYNC_CANCEL and SYNC_CANCEL
 * answered -ENOENT, the program ran later anyway). Such a request is a
 * request like any other: cancelling it completes it with -ECANCELED and
 * its program does not run. On an IORING_SETUP_DEFER_TASKRUN ring a
 * program runs only while the task waits: an IORING_OP_BPF submitted
 * without waiting stays due to run, which is where these cases cancel it.
 * A LINK_TIMEOUT covers the operation and its program as one request.
 */
#include "review.h"
#include "cancel.skel.h"

#define UD_STEP 0x5
#define UD_CANCEL 0xc

enum { P_COUNT, P_READ };

static struct cancel_bpf *cn_setup(struct io_uring *ring, unsigned int flags)
{
	struct cancel_bpf *skel;

	uring_bpf_register_sec();
	skel = cancel_bpf__open_and_load();
	if (!skel)
		FAIL("cancel_bpf__open_and_load: %s", strerror(errno));
	uring_init(ring, 8, flags);
	uring_attach_object(ring, skel->obj);
	return skel;
}

#define DEFER (IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN)

/* IORING_OP_BPF on a DEFER ring, submitted without a wait: due to run */
static void cn_due(struct io_uring *ring)
{
	uring_prep_bpf(ring, P_COUNT, UD_STEP);
	/* liburing enters without IORING_ENTER_GETEVENTS here */
	uring_submit(ring, 1);
	CHECK(strstr(uring_fdinfo(ring), "BpfReady:\t1\n") != NULL);
}

IOCORO_CASE(cancel_async)
{
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;
	struct cancel_bpf *skel;
	struct io_uring ring;

	skel = cn_setup(&ring, DEFER);
	cn_due(&ring);
	sqe = uring_sqe(&ring);
	io_uring_prep_cancel64(sqe, UD_STEP, 0);
	sqe->user_data = UD_CANCEL;
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_CANCEL, 0);
	EXPECT_CQE(cqes, 2, UD_STEP, -ECANCELED);
	CHECK_EQ(skel->bss->cn_runs, 0);
	CHECK(strstr(uring_fdinfo(&ring), "BpfReady:\t0\n") != NULL);
	io_uring_queue_exit(&ring);
	cancel_bpf__destroy(skel);
}

IOCORO_CASE(cancel_sync)
{
	struct io_uring_sync_cancel_reg reg = {
		.addr = UD_STEP,
		.timeout = { .tv_sec = 10, .tv_nsec = 0 },
	};
	struct io_uring_cqe cqe;
	struct cancel_bpf *skel;
	struct io_uring ring;

	skel = cn_setup(&ring, DEFER);
	cn_due(&ring);
	CHECK_EQ(io_uring_register_sync_cancel(&ring, &reg), 0);
	uring_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_STEP, -ECANCELED);
	CHECK_EQ(skel->bss->cn_runs, 0);
	/* nothing left to cancel */
	CHECK_EQ(io_uring_register_sync_cancel(&ring, &reg), -ENOENT);
	io_uring_queue_exit(&ring);
	cancel_bpf__destroy(skel);
}

/* not cancelled: it runs at the next wait, as it would have */
IOCORO_CASE(cancel_none)
{
	struct io_uring_cqe cqe;
	struct cancel_bpf *skel;
	struct io_uring ring;

	skel = cn_setup(&ring, DEFER);
	cn_due(&ring);
	CHECK_EQ(skel->bss->cn_runs, 0);
	CHECK_EQ(rv_enter(&ring, 0, 1, IORING_ENTER_GETEVENTS), 0);
	uring_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_STEP, 7);
	CHECK_EQ(skel->bss->cn_runs, 1);
	io_uring_queue_exit(&ring);
	cancel_bpf__destroy(skel);
}

/*
 * A LINK_TIMEOUT after a read that carries a program: the timeout cancels
 * the read, whose program runs and sees -ECANCELED, its result the
 * request's.
 */
IOCORO_CASE(cancel_link_timeout)
{
	struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = 50000000 };
	struct io_uring_cqe cqes[3];
	struct cancel_bpf *skel;
	struct io_uring ring;
	static char buf[8];
	int p[2];

	skel = cn_setup(&ring, 0);
	CHECK_SYS(pipe2(p, O_CLOEXEC));
	skel->bss->cn_fd = p[0];
	skel->bss->cn_buf = (uintptr_t)buf;
	skel->bss->cn_ts = (uintptr_t)&ts;
	uring_prep_bpf(&ring, P_READ, UD_STEP);
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_STEP, 0);
	EXPECT_CQE(cqes, 3, 0x7173, -ETIME);
	EXPECT_CQE(cqes, 3, 0x4ead, 7);
	CHECK_EQ(skel->bss->cn_rc[0], 0);
	CHECK_EQ(skel->bss->cn_rc[1], 0);
	CHECK_EQ(skel->bss->cn_runs, 1);
	CHECK_EQ(skel->bss->cn_prev_res, -ECANCELED);
	close(p[0]);
	close(p[1]);
	io_uring_queue_exit(&ring);
	cancel_bpf__destroy(skel);
}
