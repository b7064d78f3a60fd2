// SPDX-License-Identifier: MIT
/* The hardening suite, item 10. budget at queue (hardening.h) */
#include "hardening.h"


static void bq_reset(struct hardening_bpf *skel, unsigned int fan)
{
	skel->bss->bq_idx = 0;
	skel->bss->bq_fan = fan;
	skel->bss->bq_runs = 0;
	skel->bss->bq_eloop = 0;
	skel->bss->bq_nop_rc = 0;
	memset(skel->bss->bq_rc, 0x11, sizeof(skel->bss->bq_rc));
}

IOCORO_CASE(budget_queue)
{
	struct hardening_bpf *skel = skel_load();
	struct io_uring_cqe cqes[6];
	struct io_uring ring;

	uring_init(&ring, 16, 0);
	attach1(&ring, skel->progs.budget_step);

	/*
	 * Budget 2: run 1 queues NOP -HARDLINK-> BPF (ok: 1 step left after
	 * it); run 2's BPF SQE gets -ELOOP, it finishes with BQ_DONE.
	 */
	CHECK_EQ(uring_set_budget(&ring, 2), 0);
	bq_reset(skel, 1);
	uring_prep_bpf(&ring, 0, UD_BQ);
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 4);
	EXPECT_CQE(cqes, 4, UD_BQ, 0);
	EXPECT_CQE(cqes, 4, BQ_NOP_UD | 0x0000, 0);
	EXPECT_CQE(cqes, 4, UD_BQ + 1, BQ_DONE);
	EXPECT_CQE(cqes, 4, BQ_NOP_UD | 0x0001, 0);
	CHECK_EQ(skel->bss->bq_runs, 2);
	CHECK_EQ(skel->bss->bq_eloop, 1);
	CHECK_EQ(skel->bss->bq_rc[0][0], 0);
	CHECK_EQ(skel->bss->bq_rc[1][0], -ELOOP);
	CHECK_EQ(skel->bss->bq_nop_rc, 0);

	/*
	 * Budget 3, three BPF SQEs a run: the first two fit (n <= b - 1),
	 * the third gets -ELOOP; each child has one step, no more.
	 */
	CHECK_EQ(uring_set_budget(&ring, 3), 0);
	bq_reset(skel, 3);
	uring_prep_bpf(&ring, 0, UD_BQ);
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 6);
	EXPECT_CQE(cqes, 6, UD_BQ, BQ_DONE);
	EXPECT_CQE(cqes, 6, BQ_NOP_UD | 0x0000, 0);
	EXPECT_CQE(cqes, 6, UD_BQ + 1, BQ_DONE);
	EXPECT_CQE(cqes, 6, BQ_NOP_UD | 0x0001, 0);
	EXPECT_CQE(cqes, 6, (UD_BQ + 1) | 0x100, BQ_DONE);
	EXPECT_CQE(cqes, 6, BQ_NOP_UD | 0x0101, 0);
	CHECK_EQ(skel->bss->bq_runs, 3);
	CHECK_EQ(skel->bss->bq_eloop, 3);
	CHECK_EQ(skel->bss->bq_rc[0][0], 0);
	CHECK_EQ(skel->bss->bq_rc[0][1], 0);
	CHECK_EQ(skel->bss->bq_rc[0][2], -ELOOP);
	CHECK_EQ(skel->bss->bq_rc[1][0], -ELOOP);
	CHECK_EQ(skel->bss->bq_nop_rc, 0);

	io_uring_queue_exit(&ring);
	hardening_bpf__destroy(skel);
}
