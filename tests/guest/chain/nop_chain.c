// SPDX-License-Identifier: MIT
/*
 * A coroutine of 10,000 NOP steps, and what it costs in io_uring_enter():
 * each NOP continuing at the step's kind, or linked before a start of it
 */
#include "chain.h"

#define CHAIN_LEN 10000

/* the io_uring_enter() calls of a chain, its submission included */
static unsigned int nr_enter;

/* a wait for CQEs (io_uring_enter(2) raw), counted: the result or -errno */
static int counted_wait(int fd)
{
	long ret = syscall(__NR_io_uring_enter, fd, 0, 1,
			   IORING_ENTER_GETEVENTS, NULL, 0);

	nr_enter++;
	return ret < 0 ? -errno : (int)ret;
}

/*
 * A 10,000-step NOP chain driven by one step in one io_uring_enter(),
 * timed next to 10,000 user-space round trips of the same NOP. @linked:
 * each step queues NOP -HARDLINK-> a start of its kind; else a NOP that
 * continues at its kind.
 */
static void nop_chain_run(bool linked)
{
	struct iocoro co;
	struct io_uring *ring = &co.ring;
	struct chain_bpf *skel = setup(&co, 8);
	struct io_uring_cqe *cqe, got;
	uint64_t t0, chain_ns, loop_ns;
	unsigned int i, head, n;
	int ret;

	set_nop_chain(skel, CHAIN_LEN, linked);
	prep_nop_chain(ring, CHAIN_LEN + 1);

	/* one io_uring_enter() submits the start and waits */
	t0 = uring_now_ns();
	ret = io_uring_submit_and_wait(ring, 1);
	CHECK_EQ(ret, 1);
	nr_enter = 1;
	while (!io_uring_cq_ready(ring)) {
		if (uring_now_ns() - t0 > 120ULL * 1000000000ULL)
			FAIL("no CQE 120 s into the chain: %u runs, %u enters",
			     skel->bss->nc_runs, nr_enter);
		ret = counted_wait(ring->ring_fd);
		if (ret < 0 && ret != -EINTR)
			FAIL("io_uring_enter(GETEVENTS): %d (%s)", ret,
			     strerror(-ret));
	}
	chain_ns = uring_now_ns() - t0;

	/* exactly one CQE: the step's report of the last run */
	n = 0;
	io_uring_for_each_cqe(ring, head, cqe) {
		got = *cqe;
		n++;
	}
	io_uring_cq_advance(ring, n);
	CHECK_EQ(n, 1);
	CHECK_CQE(&got, UD_DONE, CHAIN_LEN);
	CHECK_EQ(got.flags, 0);
	uring_reap(ring, NULL, 0);

	CHECK_EQ(skel->bss->nc_runs, CHAIN_LEN);
	CHECK_EQ(skel->bss->nc_bad_prev, 0);
	CHECK_EQ(skel->bss->nc_emit_rc, 0);
	CHECK_EQ(skel->bss->nc_queue_rc, 0);
	CHECK_EQ(*ring->cq.koverflow, 0);

	/* the same NOPs, one user-space submit-and-wait each */
	t0 = uring_now_ns();
	for (i = 0; i < CHAIN_LEN; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

		CHECK(sqe != NULL);
		io_uring_prep_nop(sqe);
		sqe->user_data = i;
		ret = io_uring_submit_and_wait(ring, 1);
		if (ret != 1)
			FAIL("io_uring_submit_and_wait: %d, want 1", ret);
		CHECK_EQ(io_uring_peek_cqe(ring, &cqe), 0);
		if (cqe->user_data != i || cqe->res != 0)
			CHECK_CQE(cqe, i, 0);
		io_uring_cqe_seen(ring, cqe);
	}
	loop_ns = uring_now_ns() - t0;

	printf("chain (%s): %u steps in %.1f ms, 1 submit, %u enters; "
	       "user loop: %u round trips in %.1f ms; ratio Y/X = %.2f\n",
	       linked ? "linked starts" : "continuations", CHAIN_LEN,
	       chain_ns / 1e6, nr_enter, CHAIN_LEN,
	       loop_ns / 1e6, (double)loop_ns / (double)chain_ns);
	teardown(&co, skel);
}

IOCORO_CASE_CALL(nop_chain, nop_chain_run, false)
IOCORO_CASE_CALL(nop_chain_linked, nop_chain_run, true)
