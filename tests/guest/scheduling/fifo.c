// SPDX-License-Identifier: MIT
/*
 * The order steps run in: oldest completion first, so that under a steady
 * stream of fresh work an old step never waits for good. A chain of 10 ms
 * timeouts shares the task with 32 chains that never wait while the task
 * keeps entering the ring with fresh work: it still does most of its
 * steps.
 */
#include "scheduling.h"
#include "passes.skel.h"

#define FF_BUSY 32
#define FF_MS 3000
#define FF_TICK_MS 10

IOCORO_CASE_OPTS(fifo_oldest_first, .serial = true)
{
	struct __kernel_timespec ts = { 0, FF_TICK_MS * 1000000LL };
	struct io_uring_cqe *cqe;
	struct passes_bpf *skel;
	struct io_uring *ring;
	struct iocoro co;
	uint64_t t0, enters = 0;
	double ms, want;
	unsigned int i;
	int links[2];

	skel = SKEL_LOAD(passes_bpf);
	skel->bss->tk_ts = (uintptr_t)&ts;
	uring_co_init(&co, 64, 0);
	ring = &co.ring;
	links[0] = uring_attach(&co, skel->progs.busy, K_BUSY);
	links[1] = uring_attach(&co, skel->progs.tick, K_TICK);
	uring_prep_chain(ring, K_TICK, 63);
	for (i = 0; i < FF_BUSY; i++)
		uring_prep_chain(ring, K_BUSY, i);
	uring_submit(ring, FF_BUSY + 1);

	/* fresh work at every enter: a NOP, submitted and reaped */
	t0 = uring_now_ns();
	while (uring_ms_since(t0) < FF_MS) {
		struct io_uring_sqe *sqe = uring_sqe(ring);

		io_uring_prep_nop(sqe);
		sqe->user_data = 0xf0;
		uring_submit(ring, 1);
		enters++;
		while (!io_uring_peek_cqe(ring, &cqe)) {
			CHECK_EQ(cqe->user_data, 0xf0);
			io_uring_cqe_seen(ring, cqe);
		}
	}
	ms = uring_ms_since(t0);
	want = ms / FF_TICK_MS;
	printf("fifo: %.0f ms, %llu enters: the tick chain did %llu of %.0f "
	       "steps, the %u busy chains %llu\n", ms,
	       (unsigned long long)enters,
	       (unsigned long long)skel->bss->tk_runs, want, FF_BUSY,
	       (unsigned long long)skel->bss->bu_total);
	CHECK_EQ(skel->bss->bu_err, 0);
	/* each busy chain went on too */
	for (i = 0; i < FF_BUSY; i++)
		CHECK(skel->bss->bu_runs[i] > 1);
	/* a timeout's step waits behind at most the steps due before it */
	if ((double)skel->bss->tk_runs < want / 2)
		FAIL("the tick chain did %llu steps of %.0f: overtaken",
		     (unsigned long long)skel->bss->tk_runs, want);
	close(links[1]);
	close(links[0]);
	io_uring_queue_exit(ring);
	passes_bpf__destroy(skel);
}

/*
 * The same with fresh steps: every io_uring_enter() submits half a round
 * of IORING_OP_BPF starts (a task runs 32 steps a round). A chain that
 * never waits, started before them, must go on, not be parked behind each
 * enter's fresh steps for good. More fresh steps an enter than a round
 * runs would grow a backlog that any first-come order makes the chain
 * wait behind.
 */
#define FS_FRESH 16
#define FS_ENTERS 40

IOCORO_CASE_OPTS(fifo_fresh_steps, .serial = true)
{
	struct passes_bpf *skel;
	struct io_uring *ring;
	struct iocoro co;
	uint64_t a0, a1, f1;
	unsigned int e, i;
	int links[2];

	skel = SKEL_LOAD(passes_bpf);
	uring_co_init(&co, 2 * FS_FRESH, 0);
	ring = &co.ring;
	links[0] = uring_attach(&co, skel->progs.busy, K_BUSY);
	links[1] = uring_attach(&co, skel->progs.fresh, K_FRESH);
	uring_prep_chain(ring, K_BUSY, 0);
	uring_submit(ring, 1);
	a0 = skel->bss->bu_runs[0];

	for (e = 0; e < FS_ENTERS; e++) {
		for (i = 0; i < FS_FRESH; i++)
			uring_prep_start(ring, K_FRESH, 100 + i)->flags =
				IOSQE_CQE_SKIP_SUCCESS;
		uring_submit(ring, FS_FRESH);
	}
	a1 = skel->bss->bu_runs[0];
	f1 = skel->bss->fr_runs;
	printf("fifo_fresh: %u enters of %u fresh steps: the chain did %llu "
	       "steps meanwhile, %llu fresh steps ran\n", FS_ENTERS, FS_FRESH,
	       (unsigned long long)(a1 - a0), (unsigned long long)f1);
	CHECK_EQ(skel->bss->bu_err, 0);
	/* a step of it at least every other enter */
	if (a1 - a0 < FS_ENTERS / 2)
		FAIL("the chain did %llu steps in %u enters: overtaken by "
		     "fresh steps", (unsigned long long)(a1 - a0), FS_ENTERS);
	close(links[1]);
	close(links[0]);
	io_uring_queue_exit(ring);
	passes_bpf__destroy(skel);
}
