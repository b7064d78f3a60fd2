// SPDX-License-Identifier: MIT
/*
 * Steps do not interrupt a COOP_TASKRUN ring's task (kernel patches 0005
 * and 0007): they are task_work, which runs when the task returns to user
 * space, and the steps past a round wait for its next io_uring_enter().
 * 32 coroutines of 1,000 steps each outlast the submission's round; the
 * task then sits in epoll_wait() on nothing, three times for 200 ms: it
 * must time out each time, never see EINTR, and TASKRUN_FLAG shows the
 * work waiting.
 */
#include <errno.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "coro_ops.h"

enum { NR = 32, STEPS = 1000, WAITS = 3 };

IOCORO_CASE_OPTS(notify_coop_no_eintr, .timeout = 300)
{
	struct io_uring_params p = { .flags = IORING_SETUP_TASKRUN_FLAG };
	struct io_uring_cqe cqes[NR];
	struct epoll_event ev;
	struct coro_ops_bpf *skel;
	unsigned int i, eintr = 0, taskrun;
	struct iocoro co;
	int epfd;

	skel = co_load();
	CHECK_RET(iocoro_queue_init_params(64, &co, &p));
	CHECK(co.ring.flags & IORING_SETUP_COOP_TASKRUN);
	co_attach(&co, skel->progs.spin, K_SPIN);
	skel->bss->spin_steps = STEPS;
	epfd = epoll_create1(EPOLL_CLOEXEC);
	CHECK(epfd >= 0);

	co_start_spin(&co, NR);
	/* the submission's round ended with steps left, and says so */
	CHECK(skel->bss->spin_runs < NR * STEPS);
	taskrun = IO_URING_READ_ONCE(*co.ring.sq.kflags) & IORING_SQ_TASKRUN;

	for (i = 0; i < WAITS; i++) {
		int n = epoll_wait(epfd, &ev, 1, 200);

		if (n < 0 && errno == EINTR)
			eintr++;
		else
			CHECK_EQ(n, 0);
	}
	fprintf(stderr, "notify_coop_no_eintr: %u of %u epoll_wait() EINTR, "
		"%u steps ran meanwhile\n", eintr, WAITS, skel->bss->spin_runs);
	CHECK_EQ(eintr, 0);
	CHECK(taskrun);

	/* the rest run while the task waits for the ends */
	uring_reap(&co.ring, cqes, NR);
	for (i = 0; i < NR; i++)
		EXPECT_CQE(cqes, NR, UD_SPIN_END | (__u64)i << 32, STEPS);

	close(epfd);
	co_down(&co, skel);
}
