// SPDX-License-Identifier: MIT
/* The return value of a step is the result of its request */
#include "chain.h"

/* a start of ret_val -LINK-> NOP, the step returning @ret */
static void ret_then_nop(struct io_uring *ring, struct chain_bpf *skel,
			 int ret, int nop_res)
{
	struct io_uring_cqe cqes[2];

	skel->bss->rv_ret = ret;
	skel->bss->rv_runs = 0;
	uring_prep_start(ring, K_RET_VAL, UD_BPF)->flags = IOSQE_IO_LINK;
	uring_prep_nop(ring, UD_NOP, 0);
	uring_submit(ring, 2);
	uring_reap(ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_BPF, ret);
	EXPECT_CQE(cqes, 2, UD_NOP, nop_res);
	CHECK_EQ(skel->bss->rv_runs, 1);
}

IOCORO_CASE(retval)
{
	struct iocoro co;
	struct io_uring *ring = &co.ring;
	struct chain_bpf *skel = setup(&co, 8);
	struct io_uring_cqe cqe, cqes[2];

	ret_then_nop(ring, skel, 12345, 0);
	ret_then_nop(ring, skel, -ENOENT, -ECANCELED);
	ret_then_nop(ring, skel, 0, 0);
	ret_then_nop(ring, skel, INT_MAX, 0);
	ret_then_nop(ring, skel, INT_MIN, -ECANCELED);
	ret_then_nop(ring, skel, -1, -ECANCELED);
	ret_then_nop(ring, skel, -4095, -ECANCELED);

	/* a hard link goes on after a negative result */
	skel->bss->rv_ret = -ENOENT;
	uring_prep_start(ring, K_RET_VAL, UD_BPF)->flags = IOSQE_IO_HARDLINK;
	uring_prep_nop(ring, UD_NOP, 0);
	uring_submit(ring, 2);
	uring_reap(ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_BPF, -ENOENT);
	EXPECT_CQE(cqes, 2, UD_NOP, 0);

	/* CQE_SKIP_SUCCESS: a positive result is a success, no CQE */
	skel->bss->rv_ret = 12345;
	uring_prep_start(ring, K_RET_VAL, UD_BPF)->flags =
		IOSQE_CQE_SKIP_SUCCESS;
	uring_submit(ring, 1);
	uring_reap(ring, NULL, 0);
	/* and a negative one is a failure: its CQE comes */
	skel->bss->rv_ret = -ENOENT;
	uring_prep_start(ring, K_RET_VAL, UD_BPF)->flags =
		IOSQE_CQE_SKIP_SUCCESS;
	uring_submit(ring, 1);
	uring_reap(ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, -ENOENT);
	teardown(&co, skel);
}

/* a 64-bit r0 is taken as an int: the low 32 bits */
IOCORO_CASE(retval_raw)
{
	static const struct {
		__u64 r0;
		int res;
	} vals[] = {
		{ 0x100000005ULL, 5 },
		{ 0xffffffffffffffffULL, -1 },
		{ 0x7fffffff00000000ULL, 0 },
		{ 0x00000000fffffffeULL, -2 },
	};
	struct io_uring_cqe cqe;
	struct iocoro co;
	unsigned int i;

	chain_ring(&co, 8);
	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		const struct bpf_insn insns[] = {
			LD_IMM64(BPF_REG_0, vals[i].r0),
			EXIT(),
		};
		int fd = expect_load("r0 = imm64", insns, ARRAY_SIZE(insns), 0);

		CHECK_EQ(iocoro_attach(&co, &fd, 1), 0);
		uring_prep_start(&co.ring, 0, UD_BPF);
		uring_submit(&co.ring, 1);
		uring_reap(&co.ring, &cqe, 1);
		if (cqe.res != vals[i].res)
			FAIL("r0 = 0x%llx: res %d, want %d",
			     (unsigned long long)vals[i].r0, cqe.res,
			     vals[i].res);
		CHECK_CQE(&cqe, UD_BPF, vals[i].res);
		CHECK_EQ(iocoro_detach(&co), 0);
		close(fd);
	}
	iocoro_queue_exit(&co);
}
