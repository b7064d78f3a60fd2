// SPDX-License-Identifier: MIT
/* A failed op, then a step linked after it: the step sees the failure */
#include "chain.h"

static void reset_fa(struct chain_bpf *skel)
{
	skel->bss->fa_seen.runs = 0;
	skel->bss->fa_seen.has_res = 7;
	skel->bss->fa_seen.res = 7;
	skel->bss->fa_seen.cqe_flags = 7;
	skel->bss->fa_seen.res_ud = 7;
	skel->bss->fa_seen.ud = 7;
}

/*
 * READ (UD_READ) of @len bytes of @fd, linked by @link to fail_abort
 * (UD_BPF) -LINK-> NOP (UD_NOP), fail_abort's record reset first: submit
 * the three, reap their CQEs, which carry res[0], res[1] and res[2]
 */
static void read_abort_nop(struct chain_bpf *skel, struct io_uring *ring,
			   int fd, void *buf, unsigned int len, __u8 link,
			   const int res[3])
{
	struct io_uring_sqe *sqe;
	struct io_uring_cqe cqes[3];

	reset_fa(skel);
	sqe = uring_sqe(ring);
	io_uring_prep_read(sqe, fd, buf, len, 0);
	sqe->flags = link;
	sqe->user_data = UD_READ;
	uring_prep_start(ring, K_FAIL_ABORT, UD_BPF)->flags = IOSQE_IO_LINK;
	uring_prep_nop(ring, UD_NOP, 0);
	uring_submit(ring, 3);
	uring_reap(ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_READ, res[0]);
	EXPECT_CQE(cqes, 3, UD_BPF, res[1]);
	EXPECT_CQE(cqes, 3, UD_NOP, res[2]);
}

/*
 * READ of a bad fd -HARDLINK-> fail_abort -LINK-> NOP: the step sees
 * -EBADF, aborts with -EPROTO, the NOP is cancelled. With a soft link the
 * step does not run at all. A good read passes its result through.
 */
IOCORO_CASE(failed_op)
{
	struct iocoro co;
	struct io_uring *ring = &co.ring;
	struct chain_bpf *skel = setup(&co, 8);
	static char buf[64];
	int bad = uring_closed_fd(), zero;

	/* hard link: the step runs after the failure and aborts */
	read_abort_nop(skel, ring, bad, buf, sizeof(buf), IOSQE_IO_HARDLINK,
		       (const int[3]){ -EBADF, -EPROTO, -ECANCELED });
	CHECK_EQ(skel->bss->fa_seen.runs, 1);
	CHECK_EQ(skel->bss->fa_seen.has_res, 1);
	CHECK_EQ(skel->bss->fa_seen.res, -EBADF);
	CHECK_EQ(skel->bss->fa_seen.cqe_flags, 0);
	CHECK_EQ_U64(skel->bss->fa_seen.res_ud, UD_READ);
	CHECK_EQ_U64(skel->bss->fa_seen.ud, UD_BPF);

	/* soft link: the failure cancels the start, its step never runs */
	read_abort_nop(skel, ring, bad, buf, sizeof(buf), IOSQE_IO_LINK,
		       (const int[3]){ -EBADF, -ECANCELED, -ECANCELED });
	CHECK_EQ(skel->bss->fa_seen.runs, 0);

	/* a good read: its result is passed on and the NOP runs */
	zero = CHECK_SYS(open("/dev/zero", O_RDONLY | O_CLOEXEC));
	read_abort_nop(skel, ring, zero, buf, 17, IOSQE_IO_HARDLINK,
		       (const int[3]){ 17, 17, 0 });
	CHECK_EQ(skel->bss->fa_seen.runs, 1);
	CHECK_EQ(skel->bss->fa_seen.has_res, 1);
	CHECK_EQ(skel->bss->fa_seen.res, 17);
	CHECK_EQ_U64(skel->bss->fa_seen.res_ud, UD_READ);
	close(zero);

	teardown(&co, skel);
}

/*
 * The completion a start linked after another start sees is that
 * request's step result; a start linked after nothing sees all zeros
 * (and fail_abort answers -EINVAL).
 */
IOCORO_CASE(prev_of_bpf)
{
	struct iocoro co;
	struct io_uring *ring = &co.ring;
	struct chain_bpf *skel = setup(&co, 8);
	struct io_uring_cqe cqes[2];

	skel->bss->rv_ret = 4242;
	reset_fa(skel);
	uring_prep_start(ring, K_RET_VAL, UD_BPF2)->flags = IOSQE_IO_LINK;
	uring_prep_start(ring, K_FAIL_ABORT, UD_BPF);
	uring_submit(ring, 2);
	uring_reap(ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_BPF2, 4242);
	EXPECT_CQE(cqes, 2, UD_BPF, 4242);
	CHECK_EQ(skel->bss->fa_seen.runs, 1);
	CHECK_EQ(skel->bss->fa_seen.has_res, 1);
	CHECK_EQ(skel->bss->fa_seen.res, 4242);
	CHECK_EQ(skel->bss->fa_seen.cqe_flags, 0);
	CHECK_EQ_U64(skel->bss->fa_seen.res_ud, UD_BPF2);

	/* alone */
	reset_fa(skel);
	uring_prep_start(ring, K_FAIL_ABORT, UD_BPF);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 1);
	EXPECT_CQE(cqes, 1, UD_BPF, -EINVAL);
	CHECK_EQ(skel->bss->fa_seen.runs, 1);
	CHECK_EQ(skel->bss->fa_seen.has_res, 0);
	CHECK_EQ(skel->bss->fa_seen.res, 0);
	CHECK_EQ(skel->bss->fa_seen.cqe_flags, 0);
	CHECK_EQ_U64(skel->bss->fa_seen.res_ud, 0);
	CHECK_EQ_U64(skel->bss->fa_seen.ud, UD_BPF);

	teardown(&co, skel);
}
