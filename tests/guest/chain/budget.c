// SPDX-License-Identifier: MIT
/* 0006, 0011 the step budget: IORING_REGISTER_BPF_BUDGET and its default */
#include "chain.h"

/*
 * What the budget patch documents: a run of a request with budget b
 * (always >= 1) takes one step; of the n children it queues, the first
 * c = min(n, b - 1) are queued with (b - 1) / c steps each, and
 * bpf_io_uring_queue_sqe() refuses the others with -ELOOP.
 */
static void budget_expect(unsigned int b, unsigned int n, unsigned int *runs,
			  unsigned int *refused)
{
	unsigned int c = n < b - 1 ? n : b - 1;
	unsigned int r = 0, f = n - c, i;

	for (i = 0; i < c; i++) {
		unsigned int cr, cf;

		budget_expect((b - 1) / c, n, &cr, &cf);
		r += cr;
		f += cf;
	}
	*runs = 1 + r;
	*refused = f;
}

/*
 * @nr_chains user-submitted requests of fan (n children per run) with
 * the ring budget @budget (0: leave the default): the runs and the
 * children refused with -ELOOP are exactly what budget_expect() says,
 * never more runs than the budget per chain, and no CQE at all (every
 * request succeeds with CQE_SKIP_SUCCESS: the budget ends the fan-out
 * at queue time, no request fails with -ELOOP after it was queued).
 */
static void fan_run(struct io_uring *ring, struct chain_bpf *skel,
		    unsigned int budget, unsigned int n, unsigned int nr_chains)
{
	unsigned int want_runs, want_refused, i;
	uint64_t t0;

	if (budget)
		CHECK_EQ(uring_set_budget(ring, budget), 0);
	else
		budget = DEFAULT_BUDGET;
	budget_expect(budget, n, &want_runs, &want_refused);
	CHECK(want_runs <= budget);
	want_runs *= nr_chains;
	want_refused *= nr_chains;

	skel->bss->fn_n = n;
	skel->bss->fn_idx = P_FAN;
	skel->bss->fn_ud = UD_FAN;
	skel->bss->fn_runs = 0;
	skel->bss->fn_queue_err = 0;
	skel->bss->fn_queue_rc = 0;
	for (i = 0; i < nr_chains; i++)
		uring_prep_bpf(ring, P_FAN, UD_BPF)->flags =
			IOSQE_CQE_SKIP_SUCCESS;
	uring_submit(ring, (int)nr_chains);

	/* the runs post nothing: wait until they are all done */
	t0 = uring_now_ns();
	while (__atomic_load_n(&skel->bss->fn_runs, __ATOMIC_RELAXED) <
		       want_runs &&
	       ms_since(t0) < URING_CQE_TIMEOUT_MS) {
		struct io_uring_cqe *cqe;

		/* an enter: steps left over a tick wait for one */
		if (!uring_wait_cqe_ms(ring, &cqe, 10))
			break;
	}
	uring_reap(ring, NULL, 0);
	CHECK_EQ(skel->bss->fn_runs, want_runs);
	CHECK_EQ(skel->bss->fn_queue_err, want_refused);
	CHECK_EQ(skel->bss->fn_queue_rc, want_refused ? -ELOOP : 0);
	printf("budget %u, %u per run, %u chain(s): %u runs, %u refused\n",
	       budget, n, nr_chains, want_runs, want_refused);
}

/* a runaway self-requeueing program: budget 50 -> 50 runs, then refused */
IOCORO_CASE(budget_self)
{
	struct io_uring ring;
	struct chain_bpf *skel = setup(&ring, 8);

	fan_run(&ring, skel, 50, 1, 1);
	CHECK_EQ(skel->bss->fn_runs, 50);
	/* budget 1: one run, its child is refused (-ELOOP at queue time) */
	fan_run(&ring, skel, 1, 1, 1);
	CHECK_EQ(skel->bss->fn_runs, 1);
	/* each user-submitted request gets the whole budget */
	fan_run(&ring, skel, 5, 1, 3);
	CHECK_EQ(skel->bss->fn_runs, 15);
	teardown(&ring, skel);
}

/* the default budget: 4096 runs */
IOCORO_CASE(budget_default)
{
	struct io_uring ring;
	struct chain_bpf *skel = setup(&ring, 8);

	check_fdinfo_budget(&ring, DEFAULT_BUDGET);
	fan_run(&ring, skel, 0, 1, 1);
	CHECK_EQ(skel->bss->fn_runs, DEFAULT_BUDGET);
	teardown(&ring, skel);
}

/* fan-out: the budget is shared by the requests a run queues */
IOCORO_CASE(budget_fanout)
{
	struct io_uring ring;
	struct chain_bpf *skel = setup(&ring, 256);

	fan_run(&ring, skel, 64, 2, 1);
	CHECK_EQ(skel->bss->fn_runs, 63);
	/* 9 steps for 3 children, 3 each: each queues 2 (1 step each) */
	fan_run(&ring, skel, 10, 3, 1);
	CHECK_EQ(skel->bss->fn_runs, 10);
	fan_run(&ring, skel, 100, 4, 1);
	CHECK_EQ(skel->bss->fn_runs, 85);
	fan_run(&ring, skel, 20, FN_MAX, 1);
	teardown(&ring, skel);
}

/*
 * A coroutine NOP -> BPF -> NOP -> ... that never stops: the budget
 * passes through the links, budget 50 -> 50 runs; the 50th cannot queue
 * its next step (-ELOOP from bpf_io_uring_queue_sqe()) and returns that:
 * its own request fails with -ELOOP.
 */
IOCORO_CASE(budget_chain)
{
	struct io_uring ring;
	struct chain_bpf *skel = setup(&ring, 8);
	struct io_uring_cqe cqe;

	CHECK_EQ(uring_set_budget(&ring, 50), 0);
	set_nop_chain(skel, 0);
	prep_nop_chain(&ring);
	uring_submit(&ring, 1);
	uring_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, -ELOOP);
	CHECK_EQ(cqe.flags, 0);
	CHECK_EQ(skel->bss->nc_runs, 50);
	CHECK_EQ(skel->bss->nc_bad_prev, 0);
	CHECK_EQ(skel->bss->nc_queue_rc, -ELOOP);
	teardown(&ring, skel);
}

/* IORING_REGISTER_BPF_BUDGET's errors, and the budget in fdinfo */
IOCORO_CASE(budget_register)
{
	struct chain_bpf *skel = skel_load();
	struct io_uring ring;
	unsigned int arg = 100;

	uring_init(&ring, 8, 0);
	/* no programs attached */
	CHECK_EQ(uring_set_budget(&ring, 100), -ENXIO);
	CHECK_EQ(uring_set_budget(&ring, 1), -ENXIO);
	CHECK_EQ(uring_set_budget(&ring, MAX_BUDGET), -ENXIO);
	check_fdinfo_no_budget(&ring);

	attach_all(&ring, skel);
	check_fdinfo_budget(&ring, DEFAULT_BUDGET);
	CHECK_EQ(uring_set_budget(&ring, 0), -EINVAL);
	CHECK_EQ(uring_set_budget(&ring, MAX_BUDGET + 1), -EINVAL);
	CHECK_EQ(uring_set_budget(&ring, UINT_MAX), -EINVAL);
	CHECK_EQ(uring_register(ring.ring_fd, IORING_REGISTER_BPF_BUDGET, &arg,
				100),
		 -EINVAL);
	CHECK_EQ(uring_register(ring.ring_fd, IORING_REGISTER_BPF_BUDGET, &arg,
				0),
		 -EINVAL);
	/* the failed calls changed nothing */
	check_fdinfo_budget(&ring, DEFAULT_BUDGET);

	CHECK_EQ(uring_set_budget(&ring, 1), 0);
	check_fdinfo_budget(&ring, 1);
	CHECK_EQ(uring_set_budget(&ring, MAX_BUDGET), 0);
	check_fdinfo_budget(&ring, MAX_BUDGET);
	CHECK_EQ(uring_set_budget(&ring, 77), 0);
	check_fdinfo_budget(&ring, 77);
	CHECK_EQ(uring_set_budget(&ring, 0), -EINVAL);
	check_fdinfo_budget(&ring, 77);

	/* the budget belongs to the table: gone with it, default again */
	CHECK_EQ(uring_detach(&ring), 0);
	CHECK_EQ(uring_set_budget(&ring, 100), -ENXIO);
	check_fdinfo_no_budget(&ring);
	attach_all(&ring, skel);
	check_fdinfo_budget(&ring, DEFAULT_BUDGET);

	teardown(&ring, skel);
}
