// SPDX-License-Identifier: MIT
/* The step budget: a start's sqe->len, its default and its limits */
#include "chain.h"

/*
 * How the kernel shares a coroutine's budget: a run of a request with
 * budget b (always >= 1) takes one step; of the n requests that carry a
 * step it queues, the first c = min(n, b - 1) are queued with (b - 1) / c
 * steps each, and bpf_io_coro_queue_sqe() refuses the others with -ELOOP.
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
 * @nr_chains user-submitted starts of fan (n children per run) with
 * the budget @budget in their sqe->len (0: the default): the runs and the
 * children refused with -ELOOP are exactly what budget_expect() says,
 * never more runs than the budget per chain, and no CQE at all (every
 * request succeeds with CQE_SKIP_SUCCESS: the budget ends the fan-out
 * at queue time, no request fails with -ELOOP after it was queued).
 * Returns the runs, for the caller to check against its own count.
 */
static unsigned int fan_run(struct io_uring *ring, struct chain_bpf *skel,
			    unsigned int budget, unsigned int n,
			    unsigned int nr_chains)
{
	unsigned int want_runs, want_refused, i;
	uint64_t t0;

	budget_expect(budget ?: DEFAULT_BUDGET, n, &want_runs, &want_refused);
	CHECK(want_runs <= (budget ?: DEFAULT_BUDGET));
	want_runs *= nr_chains;
	want_refused *= nr_chains;

	skel->bss->fn_n = n;
	skel->bss->fn_len = 0;
	skel->bss->fn_ud = UD_FAN;
	skel->bss->fn_runs = 0;
	skel->bss->fn_queue_err = 0;
	skel->bss->fn_queue_rc = 0;
	for (i = 0; i < nr_chains; i++) {
		struct io_uring_sqe *sqe = uring_prep_start(ring, K_FAN, UD_BPF);

		sqe->flags = IOSQE_CQE_SKIP_SUCCESS;
		sqe->len = budget;
	}
	uring_submit(ring, (int)nr_chains);

	/* the runs post nothing: wait until they are all done */
	t0 = uring_now_ns();
	while (__atomic_load_n(&skel->bss->fn_runs, __ATOMIC_RELAXED) <
		       want_runs &&
	       uring_ms_since(t0) < URING_CQE_TIMEOUT_MS) {
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
	       budget ?: DEFAULT_BUDGET, n, nr_chains, want_runs, want_refused);
	return skel->bss->fn_runs;
}

/*
 * fan_run() of each of @nr @cases on one ring of @entries: a row's runs
 * checked against its own count (0: fan_run()'s model alone)
 */
struct fan_case {
	unsigned int budget, n, nr_chains, runs;
};

static void fan_cases(unsigned int entries, const struct fan_case *cases,
		      size_t nr)
{
	struct iocoro co;
	struct chain_bpf *skel = setup(&co, entries);
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct fan_case *c = &cases[i];
		unsigned int runs = fan_run(&co.ring, skel, c->budget, c->n,
					    c->nr_chains);

		if (c->runs)
			CHECK_EQ(runs, c->runs);
	}
	teardown(&co, skel);
}

/* a runaway self-requeueing step: budget 50 -> 50 runs, then refused */
IOCORO_CASE(budget_self)
{
	static const struct fan_case cases[] = {
		{ .budget = 50, .n = 1, .nr_chains = 1, .runs = 50 },
		/* budget 1: one run, its child is refused (-ELOOP at queue) */
		{ .budget = 1, .n = 1, .nr_chains = 1, .runs = 1 },
		/* each start from user space gets the whole budget */
		{ .budget = 5, .n = 1, .nr_chains = 3, .runs = 15 },
	};

	fan_cases(8, cases, ARRAY_SIZE(cases));
}

/* the default budget (0 in sqe->len): 4096 runs */
IOCORO_CASE(budget_default)
{
	static const struct fan_case c = {
		.budget = 0, .n = 1, .nr_chains = 1, .runs = DEFAULT_BUDGET,
	};

	fan_cases(8, &c, 1);
}

/* fan-out: the budget is shared by the starts a run queues */
IOCORO_CASE(budget_fanout)
{
	static const struct fan_case cases[] = {
		{ .budget = 64, .n = 2, .nr_chains = 1, .runs = 63 },
		/* 9 steps for 3 children, 3 each: each queues 2 (1 step each) */
		{ .budget = 10, .n = 3, .nr_chains = 1, .runs = 10 },
		{ .budget = 100, .n = 4, .nr_chains = 1, .runs = 85 },
		{ .budget = 20, .n = FN_MAX, .nr_chains = 1 },
	};

	fan_cases(256, cases, ARRAY_SIZE(cases));
}

/*
 * A coroutine of NOP steps that never stops: the budget passes from step
 * to step, budget 50 -> 50 runs; the 50th cannot queue its next step
 * (-ELOOP from the queue kfunc) and returns that: its request fails with
 * -ELOOP. @linked: each NOP -HARDLINK-> a start (whose CQE that is), else
 * each NOP continuing at the step's kind (the NOP's CQE).
 */
static void budget_chain_run(bool linked)
{
	struct iocoro co;
	struct io_uring *ring = &co.ring;
	struct chain_bpf *skel = setup(&co, 8);
	struct io_uring_cqe cqe;

	set_nop_chain(skel, 0, linked);
	prep_nop_chain(ring, 50);
	uring_submit(ring, 1);
	uring_reap(ring, &cqe, 1);
	CHECK_CQE(&cqe, linked ? UD_BPF : UD_NOP, -ELOOP);
	CHECK_EQ(cqe.flags, 0);
	CHECK_EQ(skel->bss->nc_runs, 50);
	CHECK_EQ(skel->bss->nc_bad_prev, 0);
	CHECK_EQ(skel->bss->nc_queue_rc, -ELOOP);
	teardown(&co, skel);
}

IOCORO_CASE_CALL(budget_chain, budget_chain_run, false)
IOCORO_CASE_CALL(budget_chain_linked, budget_chain_run, true)

/* a start of ret_val with @len in sqe->len: its CQE's res */
static int start_len(struct io_uring *ring, unsigned int len)
{
	return uring_start_res(ring, K_RET_VAL, UD_BPF, len);
}

/*
 * The budget's limits in a start's sqe->len: 1 to MAX_BUDGET run the
 * step, above fails the start with -EINVAL before its step runs; a start
 * a step queues takes its coroutine's budget and no sqe->len of its own
 * (-EINVAL, its step never runs).
 */
IOCORO_CASE(budget_len)
{
	struct iocoro co;
	struct io_uring *ring = &co.ring;
	struct chain_bpf *skel = setup(&co, 8);
	struct io_uring_cqe cqe;

	skel->bss->rv_ret = 77;
	skel->bss->rv_runs = 0;
	CHECK_EQ(start_len(ring, MAX_BUDGET + 1), -EINVAL);
	CHECK_EQ(start_len(ring, UINT_MAX), -EINVAL);
	CHECK_EQ(start_len(ring, 1U << 31), -EINVAL);
	CHECK_EQ(skel->bss->rv_runs, 0);
	CHECK_EQ(start_len(ring, 1), 77);
	CHECK_EQ(start_len(ring, MAX_BUDGET), 77);
	CHECK_EQ(start_len(ring, 0), 77);
	CHECK_EQ(skel->bss->rv_runs, 3);

	/* fan's one child carries sqe->len 5: it fails, nothing else runs */
	skel->bss->fn_n = 1;
	skel->bss->fn_len = 5;
	skel->bss->fn_ud = UD_FAN;
	skel->bss->fn_runs = 0;
	skel->bss->fn_queue_err = 0;
	skel->bss->fn_queue_rc = 0;
	uring_prep_start(ring, K_FAN, UD_BPF)->flags = IOSQE_CQE_SKIP_SUCCESS;
	uring_submit(ring, 1);
	uring_reap(ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_FAN, -EINVAL);
	CHECK_EQ(cqe.flags, 0);
	/* the kfunc took it: the start's prep refused the length */
	CHECK_EQ(skel->bss->fn_queue_err, 0);
	CHECK_EQ(skel->bss->fn_runs, 1);
	teardown(&co, skel);
}
