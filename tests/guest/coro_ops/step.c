// SPDX-License-Identifier: MIT
/* The step's context and its kfuncs (coro_ops.bpf.c: start, seen_step, sleepy) */
#include <errno.h>
#include <unistd.h>

#include "coro_ops.h"

/*
 * IORING_OP_BPF starts kind K_START, whose step queues a NOP continuing
 * at K_SEEN: that step sees the NOP's completion, posts a CQE, and its
 * return value is posted as the NOP's result.
 */
IOCORO_CASE(step_chain)
{
	struct io_uring_cqe cqes[3];
	struct coro_ops_bpf *skel;
	struct iocoro co;
	int l0, l1;

	skel = co_up(&co);
	l1 = co_start_seen(&co, skel, &l0);
	skel->bss->ret_val = 42;

	co_start(&co, K_START, UD_START);
	uring_reap(&co.ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_START, 0);
	EXPECT_CQE(cqes, 3, UD_EMIT, 1000);
	EXPECT_CQE(cqes, 3, UD_NOP, 42);
	CHECK_EQ(skel->bss->seen.runs, 1);
	CHECK_EQ_U64(skel->bss->seen.user_data, UD_NOP);
	CHECK_EQ_U64(skel->bss->seen.res_user_data, UD_NOP);
	CHECK_EQ(skel->bss->seen.res, 0);
	CHECK_EQ(skel->bss->seen.has_res, 1);
	CHECK_EQ(skel->bss->seen.kind, K_SEEN);
	CHECK_EQ(skel->bss->seen.emit_rc, 0);

	close(l1);
	close(l0);
	co_down(&co, skel);
}

/* a negative return value fails the request: its CQE says so */
IOCORO_CASE(step_error)
{
	struct io_uring_cqe cqes[3];
	struct coro_ops_bpf *skel;
	struct iocoro co;

	skel = co_up(&co);
	co_start_seen(&co, skel, NULL);
	skel->bss->ret_val = -ENOSPC;

	co_start(&co, K_START, UD_START);
	uring_reap(&co.ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_START, 0);
	EXPECT_CQE(cqes, 3, UD_EMIT, 1000);
	EXPECT_CQE(cqes, 3, UD_NOP, -ENOSPC);

	co_down(&co, skel);
}

/* a sleepable step reads the test's memory with bpf_copy_from_user() */
IOCORO_CASE(step_sleepable)
{
	static volatile int value = 4711;
	struct io_uring_cqe cqe;
	struct coro_ops_bpf *skel;
	struct iocoro co;

	skel = co_up(&co);
	co_attach(&co, skel->progs.sleepy, K_SLEEPY);
	skel->bss->user_addr = (__u64)(uintptr_t)&value;

	co_start(&co, K_SLEEPY, UD_START);
	uring_reap(&co.ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_START, 4711);

	co_down(&co, skel);
}

/*
 * 64 coroutines of 100 NOP steps each, every step a continuation of its
 * own kind: each ends with one CQE, its step count.
 */
IOCORO_CASE(step_spin)
{
	enum { NR = 64, STEPS = 100 };
	struct io_uring_cqe cqes[NR];
	struct coro_ops_bpf *skel;
	struct iocoro co;
	unsigned int i;

	skel = co_load();
	co_ring(&co, 128);
	co_attach(&co, skel->progs.spin, K_SPIN);
	skel->bss->spin_steps = STEPS;

	co_start_spin(&co, NR);
	uring_reap(&co.ring, cqes, NR);
	for (i = 0; i < NR; i++)
		EXPECT_CQE(cqes, NR, UD_SPIN_END | (__u64)i << 32, STEPS);
	CHECK_EQ(skel->bss->spin_runs, NR * STEPS);

	co_down(&co, skel);
}
