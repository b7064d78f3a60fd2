// SPDX-License-Identifier: MIT
/*
 * libiocoro's calls for many coroutines end to end (ctest
 * runtime_<case>), with the coroutines of calls.bpf.c:
 *
 *   calls_many      iocoro_skel_load(), states written in place through
 *                   iocoro_map_mmap(), 300 coroutines started with
 *                   iocoro_start_many() on a 64-entry ring, reaped with
 *                   iocoro_wait_many(); results and states checked
 *   calls_cancel    iocoro_cancel() of one of two sleeping coroutines: its
 *                   TIMEOUT ends with -ECANCELED, its next step sees that
 *                   and ends the coroutine with it; the other sleeps on
 *                   until it is cancelled too; an id with nothing in
 *                   flight is -ENOENT
 *   calls_deadline  iocoro_wait()'s timeout bounds the whole call while a
 *                   coroutine keeps posting CQEs that end nothing (a wait
 *                   whose timeout each CQE restarted would never end)
 *   calls_budget    iocoro_start_many() gives every start the budget of
 *                   iocoro_set_budget(): with 1, each coroutine ends with
 *                   -ELOOP at its second step
 *   calls_refused   iocoro_skel_load() of a step the verifier refuses:
 *                   the error, the log, and no kind attached
 */
#define _GNU_SOURCE
#include "iocoro.h" /* before liburing.h */

#include <bpf/libbpf.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "case.h"
#include "check.h"
#include "calls.h"
#include "calls.skel.h"
#include "rt_bad.skel.h"

#define CL_MANY 300
#define CL_RING 64

static const struct __kernel_timespec cl_wait = { .tv_sec = 20 };

static double cl_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

struct cl {
	struct iocoro co;
	struct calls_bpf *skel;
	struct cl_state *st;	/* cl_states, mmap()ed */
	size_t st_len;
	int idx_double, idx_ticker, idx_sleeper;
};

static void cl_up(struct cl *c, unsigned int entries)
{
	static char log[64 * 1024];
	struct iocoro_load_opts opts = {
		.sz = sizeof(opts), .log_buf = log, .log_size = sizeof(log),
	};
	int ret;

	CHECK_RET(iocoro_queue_init(entries, &c->co, 0));
	c->skel = SKEL_OPEN(calls_bpf);
	ret = iocoro_skel_load(&c->co, c->skel->skeleton, &opts);
	if (ret < 0)
		FAIL("iocoro_skel_load: %d (%s)\n%s", ret, iocoro_strerror(ret),
		     log);
	/* loaded and attached: three steps, three kinds, a link each */
	CHECK_EQ(ret, 3);
	CHECK_EQ(c->co.nr_progs, 3);
	CHECK(c->co.links[0] >= 0 && c->co.links[1] >= 0 &&
	      c->co.links[2] >= 0);
	CHECK_EQ(bpf_program__type(c->skel->progs.ticker),
		 BPF_PROG_TYPE_STRUCT_OPS);
	c->idx_double = CHECK_RET(iocoro_prog_index(c->skel->obj,
						    c->skel->progs.double_it));
	c->idx_ticker = CHECK_RET(iocoro_prog_index(c->skel->obj,
						    c->skel->progs.ticker));
	c->idx_sleeper = CHECK_RET(iocoro_prog_index(c->skel->obj,
						     c->skel->progs.sleeper));
	CHECK_RET(iocoro_map_mmap(c->skel->maps.cl_states, (void **)&c->st,
				  &c->st_len));
	CHECK(c->st_len >= CL_MAX_COROS * sizeof(struct cl_state));
}

static void cl_down(struct cl *c)
{
	iocoro_map_munmap(c->st, c->st_len);
	iocoro_queue_exit(&c->co);
	calls_bpf__destroy(c->skel);
}

static void cl_expect_end(struct cl *c, uint32_t id, enum iocoro_how how,
			  int res)
{
	struct iocoro_done done;
	int ret = iocoro_wait(&c->co, &done, &cl_wait);

	if (ret)
		FAIL("iocoro_wait: %d (%s)", ret, iocoro_strerror(ret));
	CHECK_EQ(done.id, id);
	CHECK_EQ(done.how, how);
	CHECK_EQ(done.res, res);
}

/* nothing ends within @ms; the steps that are due run meanwhile */
static void cl_expect_none(struct cl *c, long ms)
{
	struct __kernel_timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
	struct iocoro_done done;
	int ret = iocoro_wait(&c->co, &done, &ts);

	if (ret != -ETIME)
		FAIL("iocoro_wait: %d, want -ETIME (coroutine %u ended, %d)",
		     ret, done.id, done.res);
}

IOCORO_CASE(calls_many)
{
	struct iocoro_done done[32];
	uint32_t ids[CL_MANY];
	unsigned int i, reaped = 0, calls = 0;
	struct cl c;

	cl_up(&c, CL_RING);
	for (i = 0; i < CL_MANY; i++) {
		ids[i] = i;
		c.st[i] = (struct cl_state){ .step = CL_NOP, .in = 1000 + i };
	}
	CHECK_EQ(CHECK_RET(iocoro_start_many(&c.co,
					     (unsigned int)c.idx_double, ids,
					     CL_MANY)), CL_MANY);
	while (reaped < CL_MANY) {
		int n = iocoro_wait_many(&c.co, done, 32, &cl_wait);

		if (n < 0)
			FAIL("iocoro_wait_many after %u ends: %d (%s)", reaped,
			     n, iocoro_strerror(n));
		CHECK(n >= 1 && n <= 32);
		for (i = 0; i < (unsigned int)n; i++) {
			uint32_t id = done[i].id;

			CHECK(id < CL_MANY);
			CHECK_EQ(done[i].how, IOCORO_FINISHED);
			CHECK_EQ(done[i].res, (int)(1000 + id + 1));
			/* each id ends once */
			CHECK_EQ(c.st[id].step, CL_DONE);
			c.st[id].step = 0xdead;
		}
		reaped += (unsigned int)n;
		calls++;
	}
	printf("calls_many: %u coroutines reaped in %u calls\n", reaped, calls);
	for (i = 0; i < CL_MANY; i++) {
		/* what the program wrote, read in place */
		CHECK_EQ(c.st[i].out, 2 * (1000 + i));
		CHECK_EQ(c.st[i].runs, 2);
	}
	CHECK_EQ(io_uring_cq_ready(&c.co.ring), 0);
	cl_down(&c);
}

IOCORO_CASE(calls_cancel)
{
	static struct __kernel_timespec hour = { .tv_sec = 3600 };
	uint32_t ids[] = { 1, 2 };
	struct cl c;

	cl_up(&c, 8);
	c.st[1] = (struct cl_state){ .ts = (uintptr_t)&hour };
	c.st[2] = c.st[1];
	CHECK_EQ(CHECK_RET(iocoro_start_many(&c.co,
					     (unsigned int)c.idx_sleeper, ids,
					     2)), 2);
	cl_expect_none(&c, 100);
	CHECK_EQ(c.st[1].runs, 1);
	CHECK_EQ(c.st[2].runs, 1);

	/* its TIMEOUT, which carries its next step */
	CHECK_EQ(CHECK_RET(iocoro_cancel(&c.co, 1)), 1);
	cl_expect_end(&c, 1, IOCORO_FINISHED, -ECANCELED);
	/* the step after the TIMEOUT saw the cancel */
	CHECK_EQ(c.st[1].runs, 2);
	CHECK_EQ(iocoro_cancel(&c.co, 1), -ENOENT);
	CHECK_EQ(iocoro_cancel(&c.co, 99), -ENOENT);

	/* the other one sleeps on */
	cl_expect_none(&c, 200);
	CHECK_EQ(c.st[2].runs, 1);
	CHECK_EQ(CHECK_RET(iocoro_cancel(&c.co, 2)), 1);
	cl_expect_end(&c, 2, IOCORO_FINISHED, -ECANCELED);
	CHECK_EQ(c.st[2].runs, 2);
	CHECK_EQ(io_uring_cq_ready(&c.co.ring), 0);
	cl_down(&c);
}

static void cl_alarm(int sig)
{
	(void)sig;
}

IOCORO_CASE(calls_deadline)
{
	static struct __kernel_timespec tick = { .tv_nsec = 20 * 1000000 };
	struct __kernel_timespec ts = { .tv_nsec = 300 * 1000000 };
	struct sigaction sa = { .sa_handler = cl_alarm };
	struct iocoro_done done;
	uint32_t id = 5;
	double t0, ms;
	int ret;

	struct cl c;

	cl_up(&c, 8);
	c.st[id] = (struct cl_state){ .ts = (uintptr_t)&tick };
	CHECK_EQ(CHECK_RET(iocoro_start_many(&c.co,
					     (unsigned int)c.idx_ticker, &id,
					     1)), 1);
	/* a wait that never returns is cut short by SIGALRM: -EINTR */
	CHECK_SYS(sigaction(SIGALRM, &sa, NULL));
	alarm(10);
	t0 = cl_now_ms();
	ret = iocoro_wait(&c.co, &done, &ts);
	ms = cl_now_ms() - t0;
	alarm(0);
	printf("calls_deadline: %d after %.0f ms, %u steps\n", ret, ms,
	       c.st[id].runs);
	if (ret != -ETIME)
		FAIL("iocoro_wait: %d (%s) after %.0f ms, want -ETIME after "
		     "300 ms", ret, iocoro_strerror(ret), ms);
	CHECK(ms >= 290);
	CHECK(ms < 5000);
	/* CQEs kept coming meanwhile: steps ran and posted */
	CHECK(c.st[id].runs >= 3);

	CHECK(iocoro_cancel(&c.co, id) >= 1);
	cl_expect_end(&c, id, IOCORO_FINISHED, -ECANCELED);
	cl_down(&c);
}

IOCORO_CASE(calls_budget)
{
	uint32_t ids[8];
	struct iocoro_done done[8];
	unsigned int i, reaped = 0;
	struct cl c;

	cl_up(&c, 16);
	for (i = 0; i < 8; i++) {
		ids[i] = i;
		c.st[i] = (struct cl_state){ .step = CL_NOP, .in = i };
	}
	CHECK_RET(iocoro_set_budget(&c.co, 1));
	CHECK_EQ(CHECK_RET(iocoro_start_many(&c.co,
					     (unsigned int)c.idx_double, ids,
					     8)), 8);
	while (reaped < 8) {
		int n = iocoro_wait_many(&c.co, done, 8, &cl_wait);

		if (n < 0)
			FAIL("iocoro_wait_many after %u ends: %d (%s)", reaped,
			     n, iocoro_strerror(n));
		for (i = 0; i < (unsigned int)n; i++) {
			CHECK(done[i].id < 8);
			CHECK_EQ(done[i].how, IOCORO_FAILED);
			CHECK_EQ(done[i].res, -ELOOP);
		}
		reaped += (unsigned int)n;
	}
	/* the first step of each ran, the NOP's step did not */
	for (i = 0; i < 8; i++) {
		CHECK_EQ(c.st[i].runs, 1);
		CHECK_EQ(c.st[i].out, 0);
	}
	CHECK_EQ(io_uring_cq_ready(&c.co.ring), 0);
	cl_down(&c);
}

IOCORO_CASE(calls_refused)
{
	static char log[64 * 1024];
	struct iocoro_load_opts opts = {
		.sz = sizeof(opts), .log_buf = log, .log_size = sizeof(log),
	};
	struct rt_bad_bpf *skel;
	struct iocoro co;
	int ret;

	CHECK_RET(iocoro_queue_init(8, &co, 0));
	skel = SKEL_OPEN(rt_bad_bpf);
	ret = iocoro_skel_load(&co, skel->skeleton, &opts);
	printf("calls_refused: %d (%s)\n", ret, iocoro_strerror(ret));
	CHECK(ret == -EACCES || ret == -EINVAL);
	CHECK(strstr(log, "only read is supported") != NULL);
	CHECK_EQ(co.nr_progs, 0);
	/* no kind attached */
	CHECK_EQ(iocoro_detach(&co), -ENXIO);
	iocoro_queue_exit(&co);
	rt_bad_bpf__destroy(skel);
}
