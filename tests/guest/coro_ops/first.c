// SPDX-License-Identifier: MIT
/*
 * A coroutine's first operation submitted by user space with its step
 * (IOSQE_BPF_STEP, kernel patch 0014; iocoro_start_op()): once the
 * operation completed, the step of kind 0 runs with its result, as at the
 * completion of one a step queued with a continuation, and no
 * IORING_OP_BPF is submitted. What the kernel refuses posts its own CQE
 * without doing the operation or running a step.
 */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "coro_ops.h"

#define UD_AFTER 0x5800ULL

/* @sqe, prepared (liburing clears the flags), starts a coroutine */
static void fo_first(struct io_uring_sqe *sqe, __u64 ud)
{
	sqe->user_data = ud;
	sqe->flags |= IOSQE_BPF_STEP;
}

static void fo_teardown(struct iocoro *co, struct coro_ops_bpf *skel)
{
	co_down(co, skel);
}

/* a NOP, a failing NOP, a read and an openat run kind 0's step */
IOCORO_CASE(first_op_steps)
{
	struct io_uring_sqe *sqe;
	struct io_uring_cqe cqes[2];
	struct coro_ops_bpf *skel;
	static char buf[64];
	struct iocoro co;
	int p[2];

	skel = co_up(&co);
	co_attach(&co, skel->progs.seen_step, 0);
	skel->bss->ret_val = 7;

	sqe = uring_sqe(&co.ring);
	io_uring_prep_nop(sqe);
	fo_first(sqe, UD_NOP);
	uring_submit(&co.ring, 1);
	uring_reap(&co.ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_EMIT, 1000);
	EXPECT_CQE(cqes, 2, UD_NOP, 7);
	CHECK_EQ(skel->bss->seen.runs, 1);
	CHECK_EQ(skel->bss->seen.kind, 0);
	CHECK_EQ(skel->bss->seen.has_res, 1);
	CHECK_EQ_U64(skel->bss->seen.user_data, UD_NOP);
	CHECK_EQ_U64(skel->bss->seen.res_user_data, UD_NOP);

	/* the step sees a failed operation's result */
	sqe = uring_sqe(&co.ring);
	io_uring_prep_nop(sqe);
	fo_first(sqe, UD_NOP);
	sqe->nop_flags = IORING_NOP_INJECT_RESULT;
	sqe->len = (__u32)-EIO;
	uring_submit(&co.ring, 1);
	uring_reap(&co.ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_EMIT, 1000 - EIO);
	EXPECT_CQE(cqes, 2, UD_NOP, 7);
	CHECK_EQ(skel->bss->seen.res, -EIO);

	CHECK_SYS(pipe(p));
	CHECK_EQ(write(p[1], "hello", 5), 5);
	sqe = uring_sqe(&co.ring);
	io_uring_prep_read(sqe, p[0], buf, sizeof(buf), 0);
	fo_first(sqe, UD_READ);
	uring_submit(&co.ring, 1);
	uring_reap(&co.ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_EMIT, 1005);
	EXPECT_CQE(cqes, 2, UD_READ, 7);
	CHECK(!memcmp(buf, "hello", 5));
	close(p[0]);
	close(p[1]);

	/* the article's form: the step gets the fd the openat installed */
	sqe = uring_sqe(&co.ring);
	io_uring_prep_openat(sqe, AT_FDCWD, "/", O_RDONLY,
			     0);
	fo_first(sqe, UD_START);
	uring_submit(&co.ring, 1);
	uring_reap(&co.ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_START, 7);
	CHECK(skel->bss->seen.res >= 0);
	CHECK_SYS(fcntl(skel->bss->seen.res, F_GETFD));
	CHECK_SYS(close(skel->bss->seen.res));
	CHECK_EQ(skel->bss->seen.runs, 4);
	fo_teardown(&co, skel);
}

/* iocoro_start_op(): the coroutine's id, one CQE when all goes well */
IOCORO_CASE(first_op_library)
{
	struct io_uring_sqe op;
	struct iocoro_done done;
	struct io_uring_cqe cqe, cqes[2];
	struct coro_ops_bpf *skel;
	struct iocoro co;

	skel = co_up(&co);
	co_attach(&co, skel->progs.seen_step, 0);
	memset(&op, 0, sizeof(op));
	io_uring_prep_nop(&op);
	CHECK_EQ(iocoro_start_op(&co, &op, 42), 0);
	CHECK_EQ(iocoro_start_op(NULL, &op, 42), -EINVAL);
	CHECK_EQ(iocoro_start_op(&co, NULL, 42), -EINVAL);
	/* IOSQE_CQE_SKIP_SUCCESS: the step's 0 posts nothing, its CQE does */
	uring_reap(&co.ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_EMIT, 1000);
	CHECK_EQ_U64(skel->bss->seen.user_data, iocoro_ud(IOCORO_UD_STEP, 0, 42));

	/* a failing step ends the coroutine, as a started one does */
	skel->bss->ret_val = -EXDEV;
	CHECK_EQ(iocoro_start_op(&co, &op, 43), 0);
	uring_reap(&co.ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_EMIT, 1000);
	CHECK_EQ(iocoro_cqe_done(uring_find_cqe(cqes, 2, iocoro_ud(IOCORO_UD_STEP,
								 0, 43)),
				 &done), 1);
	CHECK_EQ(done.id, 43);
	CHECK_EQ(done.res, -EXDEV);
	CHECK_EQ(done.how, IOCORO_FAILED);
	CHECK_EQ(done.prog, 0);
	fo_teardown(&co, skel);
}

/* a first NOP linked to a NOP (UD_AFTER): the three CQEs in @cqes */
static void fo_link(struct iocoro *co, struct io_uring_cqe *cqes)
{
	struct io_uring_sqe *sqe = uring_sqe(&co->ring);

	io_uring_prep_nop(sqe);
	fo_first(sqe, UD_NOP);
	sqe->flags |= IOSQE_IO_LINK;
	sqe = uring_sqe(&co->ring);
	io_uring_prep_nop(sqe);
	sqe->user_data = UD_AFTER;
	uring_submit(&co->ring, 2);
	uring_reap(&co->ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_EMIT, 1000);
}

/* the rest of a link goes on by the step's result, as for a queued one */
IOCORO_CASE(first_op_link)
{
	struct io_uring_cqe cqes[3];
	struct coro_ops_bpf *skel;
	struct iocoro co;

	skel = co_up(&co);
	co_attach(&co, skel->progs.seen_step, 0);
	fo_link(&co, cqes);
	EXPECT_CQE(cqes, 3, UD_NOP, 0);
	EXPECT_CQE(cqes, 3, UD_AFTER, 0);

	skel->bss->ret_val = -EXDEV;
	fo_link(&co, cqes);
	EXPECT_CQE(cqes, 3, UD_NOP, -EXDEV);
	EXPECT_CQE(cqes, 3, UD_AFTER, -ECANCELED);
	CHECK_EQ(skel->bss->seen.runs, 2);
	fo_teardown(&co, skel);
}

/* the coroutine has the default budget, which its steps draw from */
IOCORO_CASE(first_op_budget)
{
	struct io_uring_sqe *sqe;
	struct coro_ops_bpf *skel;
	struct io_uring_cqe cqe;
	struct iocoro co;

	skel = co_up(&co);
	/* the first step at kind 0, the others at K_SPIN */
	co_attach(&co, skel->progs.spin, 0);
	co_attach(&co, skel->progs.spin, K_SPIN);
	skel->bss->spin_steps = 2 * IORING_BPF_DEFAULT_BUDGET;
	sqe = uring_sqe(&co.ring);
	io_uring_prep_nop(sqe);
	fo_first(sqe, 0);
	sqe->flags |= IOSQE_CQE_SKIP_SUCCESS;
	uring_submit(&co.ring, 1);
	uring_reap(&co.ring, &cqe, 1);
	/* the last step could queue no continuation */
	CHECK_CQE(&cqe, IORING_BPF_DEFAULT_BUDGET - 1, -ELOOP);
	CHECK_EQ(skel->bss->spin_runs, IORING_BPF_DEFAULT_BUDGET);
	fo_teardown(&co, skel);
}

/* refused: posts its own CQE, the operation not done, no step run */
IOCORO_CASE(first_op_refused)
{
	struct io_uring_sqe *sqe;
	struct io_uring_cqe cqe;
	struct coro_ops_bpf *skel;
	static char buf[64];
	struct iocoro co;
	int p[2], sv[2];

	skel = co_up(&co);
	CHECK_SYS(pipe(p));
	CHECK_EQ(write(p[1], "hello", 5), 5);

	/* no kind 0: -EBADF, and the bytes are still in the pipe */
	co_attach(&co, skel->progs.seen_step, K_SEEN);
	sqe = uring_sqe(&co.ring);
	io_uring_prep_read(sqe, p[0], buf, sizeof(buf), 0);
	fo_first(sqe, UD_READ);
	uring_submit(&co.ring, 1);
	uring_reap(&co.ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_READ, -EBADF);

	co_attach(&co, skel->progs.seen_step, 0);
	/* a start has no operation to carry a step */
	sqe = uring_sqe(&co.ring);
	iocoro_prep_kind(sqe, K_SEEN);
	fo_first(sqe, UD_START);
	uring_submit(&co.ring, 1);
	uring_reap(&co.ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_START, -EINVAL);
	/* nor does a request that posts more than one CQE */
	CHECK_SYS(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	sqe = uring_sqe(&co.ring);
	io_uring_prep_recv_multishot(sqe, sv[0], NULL, 0, 0);
	fo_first(sqe, UD_READ);
	uring_submit(&co.ring, 1);
	uring_reap(&co.ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_READ, -EINVAL);
	sqe = uring_sqe(&co.ring);
	io_uring_prep_send_zc(sqe, sv[0], "x", 1, 0, 0);
	fo_first(sqe, UD_READ);
	uring_submit(&co.ring, 1);
	uring_reap(&co.ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_READ, -EINVAL);
	/* a request its own prep refuses runs no step */
	sqe = uring_sqe(&co.ring);
	io_uring_prep_nop(sqe);
	fo_first(sqe, UD_NOP);
	sqe->nop_flags = 1U << 31;
	uring_submit(&co.ring, 1);
	uring_reap(&co.ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_NOP, -EINVAL);
	CHECK_EQ(skel->bss->seen.runs, 0);
	CHECK_EQ(read(p[0], buf, sizeof(buf)), 5);
	CHECK(!memcmp(buf, "hello", 5));

	/* a step cannot queue an SQE with the flag */
	co_attach(&co, skel->progs.tmpl_step, K_TMPL);
	memset(&skel->bss->tmpl[0], 0, sizeof(skel->bss->tmpl[0]));
	io_uring_prep_nop(&skel->bss->tmpl[0]);
	skel->bss->tmpl[0].flags = IOSQE_BPF_STEP;
	skel->bss->tmpl_kind[0] = -1;
	skel->bss->tmpl_n = 1;
	co_start(&co, K_TMPL, UD_START);
	uring_reap(&co.ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_START, 0);
	CHECK_EQ(skel->bss->tmpl_rc[0], -EINVAL);
	skel->bss->tmpl_kind[0] = K_SEEN;
	co_start(&co, K_TMPL, UD_START);
	uring_reap(&co.ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_START, 0);
	CHECK_EQ(skel->bss->tmpl_rc[0], -EINVAL);
	CHECK_EQ(skel->bss->seen.runs, 0);

	close(sv[0]);
	close(sv[1]);
	close(p[0]);
	close(p[1]);
	fo_teardown(&co, skel);
}
