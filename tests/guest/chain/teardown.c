// SPDX-License-Identifier: MIT
/* Teardown under load: close, exit, exec and SIGKILL with chains in flight */
#include "chain.h"
#include "kinds.skel.h"

/*
 * Coroutines of TIMEOUTs continuing at tick, started by the child. Chain i
 * waits (1 + i % 10) * unit per step. On TCG + KASAN + lockdep the guest does
 * about 1,800 timer-driven steps per second in all; 2000 chains of 1-10 ms
 * (TD_BUSY_CHAINS) ask for ~360,000: the child runs steps in every pass of
 * its wait, a round at a time, and TD_KILL_BUSY kills it there. 10,000
 * chains of 5-50 s (TD_UNIT_MS) ask for ~360 steps/s: the chains are in
 * flight and the child still gets back to user space to close, exit,
 * exec or wait. (10,000 chains of 1-10 s ask for as many steps as the
 * guest can do, and their first steps starve.)
 */
#define TD_CHAINS 10000
#define TD_BUSY_CHAINS 2000
#define TD_UNIT_MS 5000
#define TD_BUSY_UNIT_MS 1
/* the child's time in user space with its chains before it acts */
#define TD_LIVE_MS (TD_UNIT_MS + 1000)
/* the child's ring: room for all first SQEs at once */
#define TD_ENTRIES 16384
/* how long a child may take to be reaped (TCG + KASAN) */
#define TEARDOWN_BOUND_MS 30000
/* how long the child may take to come back to user space with its chains */
#define TD_READY_MS 60000

enum td_variant { TD_CLOSE, TD_EXIT, TD_KILL, TD_EXEC, TD_KILL_BUSY };

static unsigned int td_chains(enum td_variant v)
{
	return v == TD_KILL_BUSY ? TD_BUSY_CHAINS : TD_CHAINS;
}
static const char *const td_names[] = { "close+exit", "exit", "SIGKILL",
					"exec", "SIGKILL in a busy wait" };

/* coroutine i waits td_ts[i % 10] per step (tick: tk_ts_addr) */
static struct __kernel_timespec td_ts[10];

/* the child @pid's endless nop_chain does @n steps within TD_READY_MS */
static void wait_chain_runs(struct chain_bpf *skel, pid_t pid,
			    unsigned int n)
{
	uint64_t t0 = uring_now_ns();

	while (skel->bss->nc_runs < n) {
		if (uring_ms_since(t0) > TD_READY_MS) {
			uring_dump_task(pid);
			kill(pid, SIGKILL);
			FAIL("the chain did only %u steps in %u ms",
			     skel->bss->nc_runs, TD_READY_MS);
		}
		uring_sleep_ms(5);
	}
}

/*
 * The child: start the chains, report 'R' from user space, then end as @v
 * says. TD_KILL_BUSY reports 'S' before it submits and 'R' once back from
 * the submission, then waits in the ring.
 */
static void td_child(struct kinds_bpf *skel, enum td_variant v, int wfd)
{
	struct iocoro co;
	struct io_uring *ring = &co.ring;
	unsigned int i;

	chain_ring(&co, TD_ENTRIES);
	uring_attach(&co, skel->progs.tick, K_TICK);
	for (i = 0; i < td_chains(v); i++) {
		struct io_uring_sqe *sqe = uring_prep_start(ring, K_TICK, i);

		sqe->flags = IOSQE_CQE_SKIP_SUCCESS;
		sqe->len = MAX_BUDGET;
	}
	if (v == TD_KILL_BUSY)
		uring_write_byte(wfd, 'S');
	uring_submit(ring, td_chains(v));
	/*
	 * Back in user space, with the chains waiting in their timeouts. A
	 * task runs its steps a tick at a time: wait in the ring,
	 * as an application does, until every chain took its first step.
	 */
	if (v != TD_KILL_BUSY) {
		uint64_t t0 = uring_now_ns();

		while (__atomic_load_n(&skel->bss->tk_first, __ATOMIC_RELAXED) <
			       td_chains(v) &&
		       uring_ms_since(t0) < TD_READY_MS) {
			struct io_uring_cqe *cqe;

			if (!uring_wait_cqe_ms(ring, &cqe, 10))
				io_uring_cqe_seen(ring, cqe);
		}
		uring_sleep_ms(TD_LIVE_MS);
	}
	uring_write_byte(wfd, 'R');

	switch (v) {
	case TD_CLOSE:
		/* the ring goes with its kinds; the links go at _exit() */
		io_uring_queue_exit(ring);
		_exit(0);
	case TD_EXIT:
		exit(0);
	case TD_KILL:
		for (;;)
			pause();
	case TD_KILL_BUSY:
		/* a task runs its steps a round at a time in a wait */
		for (;;) {
			struct io_uring_cqe *cqe;

			if (!uring_wait_cqe_ms(ring, &cqe, 100))
				io_uring_cqe_seen(ring, cqe);
		}
	case TD_EXEC:
		exec_list();
	}
	_exit(98);
}

static void teardown_load(enum td_variant v)
{
	struct kinds_bpf *skel = kinds_bpf__open_and_load();
	uint64_t runs_ready, runs_reaped, t0;
	int p[2], status, c;
	double ms;
	pid_t pid;
	unsigned int i;

	for (i = 0; i < 10; i++) {
		long long ns = (i + 1) * 1000000LL *
			       (v == TD_KILL_BUSY ? TD_BUSY_UNIT_MS : TD_UNIT_MS);

		td_ts[i] = (struct __kernel_timespec){ ns / 1000000000LL,
						      ns % 1000000000LL };
	}
	skel->bss->tk_ts_addr = (uintptr_t)td_ts;
	skel->bss->tk_ts_n = ARRAY_SIZE(td_ts);
	skel->bss->tk_kind = K_TICK;

	pid = uring_fork_with_pipe(p);
	if (!pid)
		td_child(skel, v, p[1]);

	if (v == TD_KILL_BUSY) {
		/* the child is in the kernel, running chains */
		CHECK_EQ(uring_read_byte_ms(p[0], TD_READY_MS), 'S');
		t0 = uring_now_ns();
		while (skel->bss->tk_runs < 2 * td_chains(v)) {
			if (uring_ms_since(t0) > TD_READY_MS) {
				uring_dump_task(pid);
				kill(pid, SIGKILL);
				FAIL("the chains did only %llu steps in %u ms",
				     (unsigned long long)skel->bss->tk_runs,
				     TD_READY_MS);
			}
			uring_sleep_ms(5);
		}
		uring_sleep_ms(1000);
		c = uring_read_byte_ms(p[0], 0);
		printf("teardown %s: the child %s back in user space %.1f ms "
		       "after its submit\n", td_names[v],
		       c == 'R' ? "was" : "was not", uring_ms_since(t0));
		c = 'R';
	} else {
		c = uring_read_byte_ms(p[0], TD_READY_MS);
	}
	if (c != 'R') {
		fprintf(stderr, "tick runs so far: %llu\n",
			(unsigned long long)skel->bss->tk_runs);
		uring_dump_task(pid);
		kill(pid, SIGKILL);
		uring_reap_child_ms(pid, TEARDOWN_BOUND_MS, &status);
		FAIL("the child did not come back to user space with its %u "
		     "chains within %u ms (%s)", td_chains(v), TD_READY_MS,
		     c < 0 ? "timeout or EOF" : "bad byte");
	}
	t0 = uring_now_ns();
	if (v == TD_KILL || v == TD_KILL_BUSY)
		CHECK_SYS(kill(pid, SIGKILL));
	runs_ready = skel->bss->tk_runs;

	if (!uring_reap_child_ms(pid, TEARDOWN_BOUND_MS, &status)) {
		uint64_t r0 = skel->bss->tk_runs;

		uring_dump_task(pid);
		uring_sleep_ms(1000);
		fprintf(stderr, "tick runs: %llu at the report, %llu after "
			"%u ms, %llu one second later (-ECANCELED seen %llu)\n",
			(unsigned long long)runs_ready, (unsigned long long)r0,
			TEARDOWN_BOUND_MS,
			(unsigned long long)skel->bss->tk_runs,
			(unsigned long long)skel->bss->tk_ecanceled);
		CHECK_SYS(kill(pid, SIGKILL));
		if (!uring_reap_child_ms(pid, TEARDOWN_BOUND_MS, &status))
			fprintf(stderr, "not reaped %u ms after a SIGKILL "
				"either\n", TEARDOWN_BOUND_MS);
		FAIL("teardown %s: the child with %u chains in flight was not "
		     "reaped within %u ms", td_names[v], td_chains(v),
		     TEARDOWN_BOUND_MS);
	}
	ms = uring_ms_since(t0);
	runs_reaped = skel->bss->tk_runs;

	if (v == TD_KILL || v == TD_KILL_BUSY) {
		if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
			FAIL("child wait status 0x%x, want killed by SIGKILL",
			     status);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		FAIL("child wait status 0x%x, want exit 0", status);
	}

	printf("teardown %s: %u chains, %llu steps before, reaped in %.1f ms, "
	       "%llu steps in all (-ETIME %llu, -ECANCELED %llu)\n",
	       td_names[v], td_chains(v), (unsigned long long)runs_ready, ms,
	       (unsigned long long)runs_reaped,
	       (unsigned long long)skel->bss->tk_etime,
	       (unsigned long long)skel->bss->tk_ecanceled);

	/* the chains were live: every first step ran, timeouts fired */
	CHECK(skel->bss->tk_first == td_chains(v));
	CHECK(skel->bss->tk_etime > 0);
	CHECK_EQ(skel->bss->tk_other, 0);
	CHECK_EQ(skel->bss->tk_queue_err, 0);
	/* a timeout the teardown cancelled ran no step */
	CHECK_EQ_U64(skel->bss->tk_ecanceled, 0);
	/* and are over: no step runs for a task that is gone */
	uring_sleep_ms(300);
	CHECK_EQ_U64(skel->bss->tk_runs, runs_reaped);

	close(p[0]);
	kinds_bpf__destroy(skel);
}

IOCORO_CASE_CALL(teardown_close, teardown_load, TD_CLOSE, .serial = true)
IOCORO_CASE_CALL(teardown_exit, teardown_load, TD_EXIT, .serial = true)
IOCORO_CASE_CALL(teardown_sigkill, teardown_load, TD_KILL, .serial = true)

/*
 * exec() runs io_uring's cancellation of all the task's requests
 * (io_uring_task_cancel()) with the ring still open: the chains must end
 * there too, whatever the step does.
 */
IOCORO_CASE_CALL(teardown_exec, teardown_load, TD_EXEC, .serial = true)

/*
 * 2000 chains of 1-10 ms, run a round at a time while the child waits in
 * the ring: SIGKILL must end them at once.
 */
IOCORO_CASE_CALL(teardown_sigkill_busy, teardown_load, TD_KILL_BUSY, .serial = true)

/*
 * A NOP chain that never stops, with the largest budget: the task comes
 * back from io_uring_submit() after a round of steps, and the chain runs
 * on while it waits in the ring. SIGKILL must end it promptly, long before the budget
 * would.
 */
IOCORO_CASE_OPTS(teardown_taskwork, .serial = true)
{
	struct chain_bpf *skel = skel_load();
	uint64_t t0, r_kill, r_reaped;
	struct iocoro co;
	int p[2], status;
	double ms, rate;
	pid_t pid;

	set_nop_chain(skel, 0, false);

	pid = uring_fork_with_pipe(p);
	if (!pid) {
		chain_ring(&co, 8);
		attach_all(&co, skel);
		prep_nop_chain(&co.ring, MAX_BUDGET);
		uring_write_byte(p[1], 'S');
		uring_submit(&co.ring, 1);
		/* after a round of steps at most */
		uring_write_byte(p[1], 'B');
		/* the chain goes on while the task waits in the ring */
		for (;;) {
			struct io_uring_cqe *cqe;

			if (!uring_wait_cqe_ms(&co.ring, &cqe, 100))
				io_uring_cqe_seen(&co.ring, cqe);
		}
	}

	CHECK_EQ(uring_read_byte_ms(p[0], TD_READY_MS), 'S');
	/* the chain is running */
	wait_chain_runs(skel, pid, 2000);
	t0 = uring_now_ns();
	r_kill = skel->bss->nc_runs;
	uring_sleep_ms(500);
	rate = (double)(skel->bss->nc_runs - r_kill) / uring_ms_since(t0);
	/*
	 * The endless chain does not keep the child in the kernel (the round
	 * of steps of the series): it came back to report, and the chain
	 * still runs while it waits in the ring.
	 */
	CHECK_EQ(uring_read_byte_ms(p[0], TD_READY_MS), 'B');
	CHECK(rate > 0);

	r_kill = skel->bss->nc_runs;
	t0 = uring_now_ns();
	CHECK_SYS(kill(pid, SIGKILL));
	if (!uring_reap_child_ms(pid, TEARDOWN_BOUND_MS, &status)) {
		uring_dump_task(pid);
		FAIL("a child in an endless chain was not reaped within %u ms "
		     "of a SIGKILL (%u steps)", TEARDOWN_BOUND_MS,
		     skel->bss->nc_runs);
	}
	ms = uring_ms_since(t0);
	r_reaped = skel->bss->nc_runs;
	printf("teardown taskwork: %llu steps at the SIGKILL (%.1f steps/ms), "
	       "reaped in %.1f ms, %llu steps in all; the budget would have "
	       "allowed %u\n",
	       (unsigned long long)r_kill, rate, ms,
	       (unsigned long long)r_reaped, MAX_BUDGET);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
		FAIL("child wait status 0x%x, want killed by SIGKILL", status);
	/* stopped by the signal, not by the budget */
	CHECK(r_reaped < MAX_BUDGET);
	CHECK_EQ(uring_read_byte_ms(p[0], 0), -1);
	CHECK_EQ(skel->bss->nc_bad_prev, 0);
	CHECK_EQ(skel->bss->nc_queue_rc, 0);
	uring_sleep_ms(200);
	CHECK_EQ(skel->bss->nc_runs, r_reaped);

	close(p[0]);
	chain_bpf__destroy(skel);
}

/*
 * The ring and its kinds are the parent's, the chain the child's: the
 * child starts an endless NOP chain on the inherited ring and stays in
 * it; after its SIGKILL the parent finds the chain's end on the ring, one
 * CQE of the request whose step had not run: @linked, the start linked
 * after a NOP, fails with -ECANCELED; else the NOP that continues at the
 * kind posts its own result (0) under its own user_data.
 */
static void sigkill_cqe_run(bool linked)
{
	struct iocoro co;
	struct io_uring *ring = &co.ring;
	struct chain_bpf *skel = setup(&co, 8);
	struct io_uring_cqe cqe;
	int p[2], status;
	pid_t pid;

	set_nop_chain(skel, 0, linked);

	pid = uring_fork_with_pipe(p);
	if (!pid) {
		prep_nop_chain(ring, MAX_BUDGET);
		uring_write_byte(p[1], 'S');
		uring_submit(ring, 1);
		uring_write_byte(p[1], 'B');
		/* the chain goes on while the task waits in the ring */
		for (;;) {
			struct io_uring_cqe *cqe;

			if (!uring_wait_cqe_ms(ring, &cqe, 100))
				io_uring_cqe_seen(ring, cqe);
		}
	}
	CHECK_EQ(uring_read_byte_ms(p[0], TD_READY_MS), 'S');
	wait_chain_runs(skel, pid, 1000);
	/* back in user space while its chain runs on */
	CHECK_EQ(uring_read_byte_ms(p[0], TD_READY_MS), 'B');
	CHECK_SYS(kill(pid, SIGKILL));
	if (!uring_reap_child_ms(pid, TEARDOWN_BOUND_MS, &status)) {
		uring_dump_task(pid);
		FAIL("not reaped within %u ms of a SIGKILL", TEARDOWN_BOUND_MS);
	}
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
		FAIL("child wait status 0x%x, want killed by SIGKILL", status);

	uring_reap(ring, &cqe, 1);
	if (linked)
		CHECK_CQE(&cqe, UD_BPF, -ECANCELED);
	else
		CHECK_CQE(&cqe, UD_NOP, 0);
	CHECK_EQ(cqe.flags, 0);
	CHECK(skel->bss->nc_runs < MAX_BUDGET);
	CHECK_EQ(skel->bss->nc_bad_prev, 0);
	CHECK_EQ(skel->bss->nc_queue_rc, 0);
	printf("sigkill_cqe (%s): the chain ended with res %d after %u "
	       "steps\n", linked ? "linked starts" : "continuations", cqe.res,
	       skel->bss->nc_runs);

	/*
	 * The ring still works for its owner. liburing's SQ indices are
	 * private memory: catch up with the child's submission first.
	 */
	uring_sync_sq(ring);
	skel->bss->rv_ret = 99;
	uring_prep_start(ring, K_RET_VAL, UD_BPF2);
	uring_submit(ring, 1);
	uring_reap(ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF2, 99);

	close(p[0]);
	teardown(&co, skel);
}

IOCORO_CASE_CALL(sigkill_cqe, sigkill_cqe_run, false, .serial = true)
IOCORO_CASE_CALL(sigkill_cqe_linked, sigkill_cqe_run, true, .serial = true)
