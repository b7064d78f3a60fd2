// SPDX-License-Identifier: MIT
/*
 * Steps of several tasks on one ring. A step runs in the task that
 * submitted its request; a step request made ready while another task
 * runs steps on the ring goes to its own task's task_work, and one made
 * ready while other step requests wait in task_work goes behind them
 * (io_coro_queue_step()). Eight threads each start eight K_SPIN
 * coroutines on one COOP_TASKRUN ring and enter it, waiting for nothing,
 * to run their task_work until the main thread, which only reaps, has
 * seen every coroutine end: each once, with all its steps.
 */
#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "coro_ops.h"

enum { TS_TASKS = 8, TS_EACH = 8, TS_NR = TS_TASKS * TS_EACH, TS_STEPS = 200 };

static struct iocoro ts_co;
static pthread_mutex_t ts_sq_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int ts_stop;

/* start coroutines t * TS_EACH .. + TS_EACH - 1: how many were submitted */
static int ts_start(unsigned int t)
{
	unsigned int i;
	int ret;

	pthread_mutex_lock(&ts_sq_lock);
	for (i = 0; i < TS_EACH; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ts_co.ring);

		if (!sqe)
			break;
		iocoro_prep_kind(sqe, K_SPIN);
		sqe->user_data = (__u64)(t * TS_EACH + i) << 32;
		sqe->flags = IOSQE_CQE_SKIP_SUCCESS;
	}
	ret = io_uring_submit(&ts_co.ring);
	pthread_mutex_unlock(&ts_sq_lock);
	return ret;
}

static void *ts_task(void *arg)
{
	int ret = ts_start((unsigned int)(uintptr_t)arg);

	if (ret != TS_EACH)
		return (void *)(intptr_t)(ret < 0 ? ret : -EIO);
	/* the task's steps run as its task_work, in each enter */
	while (!ts_stop)
		syscall(__NR_io_uring_enter, ts_co.ring.ring_fd, 0, 0,
			IORING_ENTER_GETEVENTS, NULL, 0);
	return NULL;
}

IOCORO_CASE_OPTS(tasks_share_ring, .serial = true)
{
	struct io_uring_cqe cqes[TS_NR];
	pthread_t tasks[TS_TASKS];
	struct coro_ops_bpf *skel;
	unsigned int i;
	void *rc;

	skel = co_load();
	co_ring(&ts_co, 128);
	co_attach(&ts_co, skel->progs.spin, K_SPIN);
	skel->bss->spin_steps = TS_STEPS;

	for (i = 0; i < TS_TASKS; i++)
		CHECK_EQ(pthread_create(&tasks[i], NULL, ts_task,
					(void *)(uintptr_t)i), 0);
	uring_reap(&ts_co.ring, cqes, TS_NR);
	ts_stop = 1;
	for (i = 0; i < TS_TASKS; i++) {
		CHECK_EQ(pthread_join(tasks[i], &rc), 0);
		CHECK_EQ((intptr_t)rc, 0);
	}
	for (i = 0; i < TS_NR; i++)
		EXPECT_CQE(cqes, TS_NR, UD_SPIN_END | (__u64)i << 32, TS_STEPS);
	CHECK_EQ(skel->bss->spin_runs, TS_NR * TS_STEPS);

	co_down(&ts_co, skel);
}
