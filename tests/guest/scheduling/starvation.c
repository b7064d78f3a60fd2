// SPDX-License-Identifier: MIT
/*
 * Coroutines that never end do not starve their task: 120 endless
 * coroutines of 10 ms TIMEOUTs, each continuing at its own kind, and a
 * 100 ms io_uring_wait_cqe_timeout() returns -ETIME in < 200 ms; so do
 * the submit and waits of a task with 4 coroutines that never wait (NOP
 * continuations), on normal and IORING_SETUP_DEFER_TASKRUN rings. With
 * 500 such coroutines, or 4 that never wait, SIGSTOP stops the task
 * within 1 s, it runs no step while stopped, SIGCONT continues and
 * SIGKILL ends it. Step tick of kinds.bpf.c. The timed bounds (wait < 2x
 * its timeout, stop within 1 s) are the only ones here that measure.
 */
#include "kinds.h"

#define ST_CHAINS 120
#define ST_BUSY_CHAINS 4
#define ST_STEP_MS 10
#define ST_WAIT_MS 100
#define ST_WAIT_BOUND_MS (2 * ST_WAIT_MS) /* a wait comes back within 2x */
#define ST_WAITS 10
#define STOP_CHAINS 500
#define STOP_BOUND_MS 1000 /* a stopped task stops within 1 s */
#define STOP_WATCH_MS 10000 /* how long we watch, to print the time */

static struct __kernel_timespec st_ts = { 0, ST_STEP_MS * 1000000LL };

static void tick_setup(struct kinds_bpf *skel)
{
	skel->bss->tk_ts_addr = (uintptr_t)&st_ts;
	skel->bss->tk_kind = K_MAIN;
	skel->bss->tk_timeout_ud = UD_TIMEOUT;
}

/*
 * A ring with tick attached as K_MAIN, @n coroutines of the largest
 * budget prepared (not submitted): the link fd
 */
static int tick_ring(struct iocoro *co, struct kinds_bpf *skel,
		     unsigned int entries, unsigned int flags, unsigned int n)
{
	struct io_uring_sqe *sqe;
	unsigned int i;
	int link;

	uring_co_init(co, entries, flags);
	link = uring_attach(co, skel->progs.tick, K_MAIN);
	for (i = 0; i < n; i++) {
		sqe = uring_prep_start(&co->ring, K_MAIN, i);
		sqe->flags = IOSQE_CQE_SKIP_SUCCESS;
		sqe->len = IORING_BPF_MAX_BUDGET;
	}
	return link;
}

/*
 * The coroutines saw only their timeouts and queued every step. How many
 * of the @n did a first step is printed, not asserted: the guest cannot
 * run as many steps as they ask for.
 */
static void tick_check_clean(struct kinds_bpf *skel, const char *name,
			     unsigned int n)
{
	printf("%s: %llu of %u chains did a step; -ETIME seen %llu\n", name,
	       (unsigned long long)skel->bss->tk_first, n,
	       (unsigned long long)skel->bss->tk_etime);
	CHECK(skel->bss->tk_first > 0 && skel->bss->tk_first <= n);
	CHECK(skel->bss->tk_nop ? skel->bss->tk_zero > 0 :
				  skel->bss->tk_etime > 0);
	CHECK_EQ(skel->bss->tk_other, 0);
	CHECK_EQ(skel->bss->tk_queue_err, 0);
}

/*
 * One timed wait: io_uring_wait_cqe_timeout(@ms) must return -ETIME (no
 * chain posts a CQE) within ST_WAIT_BOUND_MS. It may return early: the
 * chains' TIMEOUTs wake waiters when they fire (stock behaviour), and
 * liburing then answers -ETIME. Returns the time it took.
 */
static double timed_wait(struct io_uring *ring, const char *name,
			 unsigned int ms)
{
	struct io_uring_cqe *cqe;
	uint64_t t0 = uring_now_ns();
	int ret = uring_wait_cqe_ms(ring, &cqe, ms);
	double took = uring_ms_since(t0);

	if (!ret)
		FAIL("%s: unexpected CQE ud 0x%llx res %d", name,
		     (unsigned long long)cqe->user_data, cqe->res);
	if (took >= ST_WAIT_BOUND_MS)
		FAIL("%s: a %u ms wait returned after %.1f ms, want < %u", name,
		     ms, took, ST_WAIT_BOUND_MS);
	return took;
}

/* @chains endless chains of ST_STEP_MS timeouts, timed waits amid them */
static void starvation_timeouts(unsigned int flags, const char *name,
				unsigned int chains)
{
	struct kinds_bpf *skel = kinds_load();
	double worst = 0, worst_deadline = 0, submit_ms, ms;
	char first[64];
	uint64_t t0, runs0, runs1;
	struct io_uring *ring;
	struct iocoro co;
	unsigned int i, n;
	int link;

	tick_setup(skel);
	link = tick_ring(&co, skel, 512, flags, chains);
	ring = &co.ring;
	t0 = uring_now_ns();
	uring_submit(ring, (int)chains);
	submit_ms = uring_ms_since(t0);

	/* the chains run (on DEFER_TASKRUN rings only inside waits) */
	snprintf(first, sizeof(first), "%s: first waits", name);
	t0 = uring_now_ns();
	while (skel->bss->tk_runs < 2 * chains) {
		if (uring_ms_since(t0) > LIVE_BOUND_MS)
			FAIL("%s: the chains did only %llu steps", name,
			     (unsigned long long)skel->bss->tk_runs);
		ms = timed_wait(ring, first, ST_WAIT_MS);
		printf("%s: -ETIME after %.1f ms, %llu steps\n", first, ms,
		       (unsigned long long)skel->bss->tk_runs);
	}

	runs0 = skel->bss->tk_runs;
	t0 = uring_now_ns();
	/* single waits, as iocoro_wait() does one */
	for (i = 0; i < ST_WAITS; i++) {
		ms = timed_wait(ring, name, ST_WAIT_MS);
		printf("%s: wait %u: -ETIME after %.1f ms\n", name, i, ms);
		if (ms > worst)
			worst = ms;
	}
	/*
	 * Measured only: waits for the time left of an application's 100 ms
	 * deadline (each of them within ST_WAIT_BOUND_MS, as any wait)
	 */
	for (i = 0; i < ST_WAITS; i++) {
		uint64_t d0 = uring_now_ns();

		for (n = 0; uring_ms_since(d0) < ST_WAIT_MS; n++)
			timed_wait(ring, name,
				   ST_WAIT_MS - (unsigned int)uring_ms_since(d0));
		ms = uring_ms_since(d0);
		printf("%s: deadline %u: %.1f ms in %u waits\n", name, i, ms,
		       n);
		if (ms > worst_deadline)
			worst_deadline = ms;
	}
	runs1 = skel->bss->tk_runs;
	printf("%s: %u chains of %u ms, submit %.1f ms; waits of %u ms: "
	       "worst %.1f ms, deadlines: worst %.1f ms; %llu steps meanwhile "
	       "(%.0f/s)\n", name, chains, ST_STEP_MS, submit_ms, ST_WAIT_MS,
	       worst, worst_deadline,
	       (unsigned long long)(runs1 - runs0),
	       (double)(runs1 - runs0) * 1000.0 / uring_ms_since(t0));
	/* the chains kept going meanwhile */
	CHECK(runs1 > runs0);
	tick_check_clean(skel, name, chains);

	io_uring_queue_exit(ring);
	close(link);
	kinds_bpf__destroy(skel);
}

/*
 * The child of starvation_busy(): ST_BUSY_CHAINS coroutines that never
 * wait (NOP continuations), then ST_WAITS timed waits amid them; exit 0
 * when all came back in time (a failed check exits 1).
 */
static void busy_child(struct kinds_bpf *skel, unsigned int flags,
		       const char *name, int wfd)
{
	struct iocoro co;
	uint64_t t0;
	unsigned int i;
	double ms;

	skel->bss->tk_nop = 1;
	tick_ring(&co, skel, 8, flags, ST_BUSY_CHAINS);
	uring_write_byte(wfd, 'S');
	t0 = uring_now_ns();
	uring_submit(&co.ring, ST_BUSY_CHAINS);
	printf("%s: busy: back from the submit after %.1f ms, %llu steps\n",
	       name, uring_ms_since(t0), (unsigned long long)skel->bss->tk_runs);
	for (i = 0; i < ST_WAITS; i++) {
		uint64_t r0 = skel->bss->tk_runs;

		ms = timed_wait(&co.ring, name, ST_WAIT_MS);
		printf("%s: busy: wait %u: -ETIME after %.1f ms, %llu steps "
		       "meanwhile\n", name, i, ms,
		       (unsigned long long)(skel->bss->tk_runs - r0));
	}
	tick_check_clean(skel, name, ST_BUSY_CHAINS);
	io_uring_queue_exit(&co.ring);
	_exit(0);
}

/*
 * Coroutines that never wait keep task_work (or the DEFER_TASKRUN local
 * work) busy for good: the child's submit and waits must still come back. The
 * child runs them so that a kernel where they do not come back fails the
 * test instead of hanging it.
 */
static void starvation_busy(unsigned int flags, const char *name)
{
	struct kinds_bpf *skel = kinds_load();
	int p[2], status;
	pid_t pid;

	tick_setup(skel);
	pid = uring_fork_with_pipe(p);
	if (!pid)
		busy_child(skel, flags, name, p[1]);
	CHECK_EQ(uring_read_byte_ms(p[0], LIVE_BOUND_MS), 'S');
	if (!uring_reap_child_ms(pid, LIVE_BOUND_MS, &status)) {
		uring_dump_task(pid);
		kill(pid, SIGKILL);
		uring_reap_child_ms(pid, LIVE_BOUND_MS, &status);
		FAIL("%s: busy: %u chains that never wait: the task did not "
		     "finish %u waits of %u ms within %u ms (%llu steps)", name,
		     ST_BUSY_CHAINS, ST_WAITS, ST_WAIT_MS, LIVE_BOUND_MS,
		     (unsigned long long)skel->bss->tk_runs);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		FAIL("%s: busy: the child's checks failed (wait status 0x%x, "
		     "above)", name, status);
	close(p[0]);
	kinds_bpf__destroy(skel);
}

IOCORO_CASE_OPTS(starvation, .serial = true)
{
	starvation_timeouts(0, "starvation", ST_CHAINS);
	starvation_busy(0, "starvation");
}

IOCORO_CASE_OPTS(starvation_defer, .serial = true)
{
	const unsigned int f = IORING_SETUP_SINGLE_ISSUER |
			       IORING_SETUP_DEFER_TASKRUN;

	starvation_timeouts(f, "starvation_defer", ST_CHAINS);
	starvation_busy(f, "starvation_defer");
}

/* wait until the state of @pid is (@want) or is not (!@want) 'T' */
static double wait_state(pid_t pid, bool stopped, unsigned int bound_ms)
{
	uint64_t t0 = uring_now_ns();

	for (;;) {
		char s = uring_task_state(pid);

		if ((s == 'T') == stopped)
			return uring_ms_since(t0);
		if (uring_ms_since(t0) > bound_ms)
			return -1;
		uring_sleep_ms(2);
	}
}

/* @chains chains (@busy: that never wait) in a child, which is stopped */
static void stop_one(unsigned int flags, const char *name,
		     unsigned int chains, bool busy)
{
	struct kinds_bpf *skel = kinds_load();
	uint64_t r1, r2, t0;
	int p[2], status;
	double ms;
	pid_t pid;

	tick_setup(skel);
	skel->bss->tk_nop = busy;
	pid = uring_fork_with_pipe(p);
	if (!pid) {
		struct io_uring_cqe *cqe;
		struct iocoro co;

		tick_ring(&co, skel, 512, flags, chains);
		uring_write_byte(p[1], 'S');
		uring_submit(&co.ring, (int)chains);
		/* the chains go on while the task waits in the ring */
		for (;;) {
			struct __kernel_timespec ts = {
				0, ST_WAIT_MS * 1000000LL
			};
			int ret = io_uring_wait_cqe_timeout(&co.ring, &cqe,
							    &ts);

			/* the stop and the continue interrupt a wait */
			if (ret != -ETIME && ret != -EINTR) {
				fprintf(stderr, "%s: the child's wait: %d\n",
					name, ret);
				_exit(3);
			}
		}
	}
	CHECK_EQ(uring_read_byte_ms(p[0], LIVE_BOUND_MS), 'S');
	t0 = uring_now_ns();
	while (skel->bss->tk_runs < (busy ? 1000 : 2 * chains)) {
		if (uring_ms_since(t0) > LIVE_BOUND_MS) {
			uring_dump_task(pid);
			kill(pid, SIGKILL);
			FAIL("%s: the chains did only %llu steps", name,
			     (unsigned long long)skel->bss->tk_runs);
		}
		uring_sleep_ms(5);
	}

	CHECK_SYS(kill(pid, SIGSTOP));
	ms = wait_state(pid, true, STOP_WATCH_MS);
	if (ms < 0)
		printf("%s: %u chains: not stopped %u ms after SIGSTOP\n", name,
		       chains, STOP_WATCH_MS);
	else
		printf("%s: %u chains: stopped %.1f ms after SIGSTOP\n", name,
		       chains, ms);
	if (ms < 0 || ms >= STOP_BOUND_MS) {
		uring_dump_task(pid);
		kill(pid, SIGKILL);
		uring_reap_child_ms(pid, LIVE_BOUND_MS, &status);
		FAIL("%s: SIGSTOP took longer than %u ms", name,
		     STOP_BOUND_MS);
	}
	/* a stopped task runs no steps */
	r1 = skel->bss->tk_runs;
	uring_sleep_ms(300);
	r2 = skel->bss->tk_runs;
	CHECK_EQ(uring_task_state(pid), 'T');
	CHECK_EQ_U64(r2, r1);

	CHECK_SYS(kill(pid, SIGCONT));
	t0 = uring_now_ns();
	while (skel->bss->tk_runs <= r2) {
		if (uring_ms_since(t0) > LIVE_BOUND_MS) {
			uring_dump_task(pid);
			kill(pid, SIGKILL);
			FAIL("%s: the chains did not go on after SIGCONT",
			     name);
		}
		uring_sleep_ms(2);
	}
	printf("%s: steps again %.1f ms after SIGCONT\n", name, uring_ms_since(t0));
	CHECK(uring_task_state(pid) != 'T');

	t0 = uring_now_ns();
	CHECK_SYS(kill(pid, SIGKILL));
	if (!uring_reap_child_ms(pid, LIVE_BOUND_MS, &status)) {
		uring_dump_task(pid);
		FAIL("%s: not reaped %u ms after SIGKILL", name,
		     LIVE_BOUND_MS);
	}
	printf("%s: reaped %.1f ms after SIGKILL, %llu steps in all\n", name,
	       uring_ms_since(t0), (unsigned long long)skel->bss->tk_runs);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
		FAIL("%s: wait status 0x%x, want killed by SIGKILL", name,
		     status);
	tick_check_clean(skel, name, chains);
	/* and its chains are over */
	r1 = skel->bss->tk_runs;
	uring_sleep_ms(300);
	CHECK_EQ_U64(skel->bss->tk_runs, r1);

	close(p[0]);
	kinds_bpf__destroy(skel);
}

IOCORO_CASE_OPTS(stop, .serial = true)
{
	const unsigned int f = IORING_SETUP_SINGLE_ISSUER |
			       IORING_SETUP_DEFER_TASKRUN;

	stop_one(0, "stop", STOP_CHAINS, false);
	stop_one(f, "stop_defer", STOP_CHAINS, false);
	stop_one(0, "stop_busy", ST_BUSY_CHAINS, true);
	stop_one(f, "stop_defer_busy", ST_BUSY_CHAINS, true);
}
