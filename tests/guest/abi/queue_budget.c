// SPDX-License-Identifier: MIT
/*
 * Budgets of queued starts: bpf_io_coro_queue_sqe() refuses (-ELOOP) an
 * IORING_OP_BPF start the coroutine's budget (its start's sqe->len)
 * cannot pay for, so the step finishes cleanly with its own result
 * (budget_queue); only a start from user space names a budget: above
 * IORING_BPF_MAX_BUDGET it fails (-EINVAL); a start a step queues that
 * names one fails (-EINVAL), without it runs on its coroutine's budget,
 * -ELOOP when none is left (budget_start). Steps budget_step, qbatch and
 * tag_a of kinds.bpf.c.
 */
#include "kinds.h"

static void bq_reset(struct kinds_bpf *skel, unsigned int fan)
{
	skel->bss->bq_kind = K_MAIN;
	skel->bss->bq_fan = fan;
	skel->bss->bq_runs = 0;
	skel->bss->bq_eloop = 0;
	skel->bss->bq_nop_rc = 0;
	memset(skel->bss->bq_rc, 0x11, sizeof(skel->bss->bq_rc));
}

IOCORO_CASE(budget_queue)
{
	struct kinds_bpf *skel = kinds_load();
	struct io_uring_cqe cqes[6];
	struct io_uring *ring;
	struct iocoro co;
	int link;

	link = uring_co_attach(&co, 16, 0, skel->progs.budget_step, K_MAIN);
	ring = &co.ring;

	/*
	 * Budget 2 (the start's sqe->len): step 1 queues NOP -HARDLINK-> BPF
	 * (ok: 1 step left after it); step 2's start gets -ELOOP, it finishes
	 * with BQ_DONE.
	 */
	bq_reset(skel, 1);
	uring_prep_start(ring, K_MAIN, UD_BQ)->len = 2;
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 4);
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
	 * Budget 3, three starts a step: the first two fit (n <= b - 1),
	 * the third gets -ELOOP; each child has one step, no more.
	 */
	bq_reset(skel, 3);
	uring_prep_start(ring, K_MAIN, UD_BQ)->len = 3;
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 6);
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

	io_uring_queue_exit(ring);
	close(link);
	kinds_bpf__destroy(skel);
}

/*
 * qbatch (batch 0), with a budget of 2, queues @sqe alone: its CQE's
 * res is @res, qbatch's own 0
 */
static void qbatch_of_2(struct io_uring *ring, struct kinds_bpf *skel,
			const struct io_uring_sqe *sqe, int res)
{
	struct io_uring_cqe cqes[2];

	qb_put(skel, 0, 0, sqe);
	prep_qbatch(ring, 0)->len = 2;
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_BPF | 0, 0);
	EXPECT_CQE(cqes, 2, UD_BQ, res);
	qb_check_queued(skel, 0);
}

/*
 * The budget is the start's from user space, and only its: above
 * IORING_BPF_MAX_BUDGET the start fails (-EINVAL, no step runs); a start
 * a step queues draws from its coroutine's budget and fails when it
 * names one of its own, so a step cannot hand a child more than it has.
 */
IOCORO_CASE(budget_start)
{
	struct kinds_bpf *skel = kinds_load();
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe sqe;
	struct io_uring *ring;
	struct iocoro co;
	int lq, lt;

	lq = uring_co_attach(&co, 8, 0, skel->progs.qbatch, K_MAIN);
	ring = &co.ring;
	lt = uring_attach(&co, skel->progs.tag_a, K_OTHER);
	skel->bss->ta_ret = 55;

	uring_prep_start(ring, K_OTHER, UD_BPF)->len = IORING_BPF_MAX_BUDGET + 1;
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 1);
	CHECK_CQE(&cqes[0], UD_BPF, -EINVAL);
	uring_prep_start(ring, K_OTHER, UD_BPF)->len = IORING_BPF_MAX_BUDGET;
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 1);
	CHECK_CQE(&cqes[0], UD_BPF, 55);
	CHECK_EQ(skel->bss->ta_runs, 1);

	/* qbatch, with a budget of 2, queues a start of tag_a naming 7 */
	memset(&sqe, 0, sizeof(sqe));
	iocoro_prep_kind(&sqe, K_OTHER);
	sqe.user_data = UD_BQ;
	sqe.len = 7;
	qbatch_of_2(ring, skel, &sqe, -EINVAL);
	CHECK_EQ(skel->bss->ta_runs, 1);

	/* without one it runs, on what is left of qbatch's */
	sqe.len = 0;
	qbatch_of_2(ring, skel, &sqe, 55);
	CHECK_EQ(skel->bss->ta_runs, 2);

	/* with a budget of 1 it has no step left for one: -ELOOP */
	qb_put(skel, 0, 0, &sqe);
	prep_qbatch(ring, 0)->len = 1;
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 1);
	CHECK_CQE(&cqes[0], UD_BPF | 0, 0);
	CHECK_EQ(skel->bss->qb_rc[0][0], -ELOOP);
	CHECK_EQ(skel->bss->ta_runs, 2);

	io_uring_queue_exit(ring);
	close(lt);
	close(lq);
	kinds_bpf__destroy(skel);
}
