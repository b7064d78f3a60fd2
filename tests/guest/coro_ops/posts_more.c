// SPDX-License-Identifier: MIT
/*
 * A request that posts more than one CQE (multishot, or a notification
 * besides its result) cannot carry a step: queueing it with a
 * continuation answers -EINVAL (kernel patch 0009); without one it is
 * any request.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>

#include "coro_ops.h"

/* K_TMPL queues tmpl[0] with a continuation at K_SEEN: the kfunc's answer */
static int queue_cont(struct coro_ops_bpf *skel, struct iocoro *co,
		      const struct io_uring_sqe *sqe, unsigned int nr_cqes)
{
	struct io_uring_cqe cqes[2];

	skel->bss->tmpl[0] = *sqe;
	skel->bss->tmpl_kind[0] = K_SEEN;
	skel->bss->tmpl_n = 1;
	skel->bss->tmpl_rc[0] = 1;
	co_start(co, K_TMPL, UD_START);
	uring_reap(&co->ring, cqes, nr_cqes);
	EXPECT_CQE(cqes, nr_cqes, UD_START, 0);
	return skel->bss->tmpl_rc[0];
}

IOCORO_CASE(posts_more_refused)
{
	struct coro_ops_bpf *skel;
	struct io_uring_sqe sqe;
	struct iocoro co;

	skel = co_up(&co);
	co_attach(&co, skel->progs.tmpl_step, K_TMPL);
	co_attach(&co, skel->progs.seen_step, K_SEEN);

	/* a NOP may carry one: its step posts UD_EMIT, and the NOP's CQE */
	memset(&sqe, 0, sizeof(sqe));
	io_uring_prep_nop(&sqe);
	sqe.user_data = UD_NOP;
	CHECK_EQ(queue_cont(skel, &co, &sqe, 3), 0);

	io_uring_prep_send_zc(&sqe, 0, NULL, 0, 0, 0);
	CHECK_EQ(queue_cont(skel, &co, &sqe, 1), -EINVAL);
	io_uring_prep_sendmsg_zc(&sqe, 0, NULL, 0);
	CHECK_EQ(queue_cont(skel, &co, &sqe, 1), -EINVAL);
	io_uring_prep_recv_multishot(&sqe, 0, NULL, 0, 0);
	CHECK_EQ(queue_cont(skel, &co, &sqe, 1), -EINVAL);
	io_uring_prep_recvmsg_multishot(&sqe, 0, NULL, 0);
	CHECK_EQ(queue_cont(skel, &co, &sqe, 1), -EINVAL);
	io_uring_prep_multishot_accept(&sqe, 0, NULL, NULL, 0);
	CHECK_EQ(queue_cont(skel, &co, &sqe, 1), -EINVAL);
	io_uring_prep_poll_multishot(&sqe, 0, POLLIN);
	CHECK_EQ(queue_cont(skel, &co, &sqe, 1), -EINVAL);
	memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_READ_MULTISHOT;
	CHECK_EQ(queue_cont(skel, &co, &sqe, 1), -EINVAL);
	io_uring_prep_timeout(&sqe, NULL, 0, IORING_TIMEOUT_MULTISHOT);
	CHECK_EQ(queue_cont(skel, &co, &sqe, 1), -EINVAL);
	/* one step ran, the NOP's */
	CHECK_EQ(skel->bss->seen.runs, 1);

	co_down(&co, skel);
}
