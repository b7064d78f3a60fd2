// SPDX-License-Identifier: MIT
/*
 * Links changed under load: 64 coroutines of 200 steps each (12,800 steps
 * in flight across the run) while the kind's link is updated, destroyed
 * and attached again. Each coroutine ends with exactly one CQE: its step
 * count, or, where the kind was gone when its step was due, its last
 * NOP's own result, or where it was gone when a step queued the next,
 * that step's -EBADF.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "coro_ops.h"

enum { NR = 64, STEPS = 200 };

/*
 * Reap until @want coroutines more ended, each once (@ended): how many of
 * them ended orphaned.
 */
static unsigned int reap(struct iocoro *co, unsigned char *ended,
			 unsigned int want)
{
	unsigned int done = 0, orphans = 0;

	while (done < want) {
		struct io_uring_cqe *cqe;
		unsigned int id;

		CHECK_EQ(uring_wait_cqe_ms(&co->ring, &cqe, 10000), 0);
		id = cqe->user_data >> 32;
		CHECK(id < NR);
		CHECK(!ended[id]);
		ended[id] = 1;
		done++;
		if ((cqe->user_data & 0xffffffff) == UD_SPIN_END) {
			CHECK_EQ(cqe->res, STEPS);
		} else {
			/*
			 * a NOP's own result, posted for want of a step, or
			 * the -EBADF of a step whose next one had no kind
			 */
			CHECK(cqe->res == 0 || cqe->res == -EBADF);
			orphans++;
		}
		io_uring_cqe_seen(&co->ring, cqe);
	}
	return orphans;
}

IOCORO_CASE_OPTS(link_churn, .timeout = 600)
{
	struct coro_ops_bpf *skel;
	struct iocoro co;
	unsigned int round, orphans = 0;
	unsigned char ended[NR];
	int link;

	skel = co_load();
	co_ring(&co, 256);
	skel->bss->spin_steps = STEPS;

	for (round = 0; round < 4; round++) {
		memset(ended, 0, sizeof(ended));
		link = co_attach(&co, skel->progs.spin, K_SPIN);
		co_start_spin(&co, NR);
		/* a new map of the same program: nothing ends early */
		CHECK_RET(iocoro_kind_update(link, &co, skel->progs.spin,
					     K_SPIN));
		CHECK_EQ(reap(&co, ended, 4 * round), 0);
		/* then none: the rest end where they are */
		close(link);
		orphans += reap(&co, ended, NR - 4 * round);
	}
	/* attached again, every coroutine runs to its end */
	memset(ended, 0, sizeof(ended));
	link = co_attach(&co, skel->progs.spin, K_SPIN);
	co_start_spin(&co, NR);
	CHECK_EQ(reap(&co, ended, NR), 0);
	fprintf(stderr, "link_churn: %u of %u coroutines orphaned\n", orphans,
		4 * NR);
	close(link);

	co_down(&co, skel);
}
