// SPDX-License-Identifier: MIT
/*
 * Teardown at scale (issue 21, section 4): 100,000 coroutines in flight,
 * each waiting in a TIMEOUT its step carries (scale.bpf.c), torn down by
 * closing the ring, exit, SIGKILL and exec. The child that holds them must
 * go within a bound; the io_kiocb objects must be back to where they were
 * before (io_kiocb is SLAB_TYPESAFE_BY_RCU, which KASAN does not
 * quarantine); kmemleak and the kernel log gate of the guest runner check
 * the rest. Memory per coroutine in flight is printed.
 */
#include "chain.h"
#include "slab.h"
#include "scale.skel.h"

#define SC_COROS 100000
#define SC_SQ 32768
/* TCG + KASAN: 100,000 submissions, program runs and teardowns */
#define SC_READY_MS 240000
#define SC_GONE_MS 120000
/* what the request caches and per-cpu slabs may keep around */
#define SC_SLACK 1024

enum sc_variant { SC_CLOSE, SC_EXIT, SC_KILL, SC_EXEC };
static const char *const sc_names[] = { "close", "exit", "SIGKILL", "exec" };

/* SUnreclaim of /proc/meminfo, kB */
static long sunreclaim_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	long v = -1;

	CHECK(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "SUnreclaim: %ld kB", &v) == 1)
			break;
	}
	fclose(f);
	CHECK(v >= 0);
	return v;
}

static struct __kernel_timespec sc_hour = { .tv_sec = 3600 };

static void sc_child(struct scale_bpf *skel, enum sc_variant v, int wfd)
{
	struct io_uring_params p = { .flags = IORING_SETUP_CQSIZE,
				     .cq_entries = 2 * SC_SQ };
	struct __kernel_timespec ts = { 0, 50000000 };
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	unsigned int i, batch;

	uring_init_params(&ring, SC_SQ, &p);
	uring_attach_object(&ring, skel->obj);
	for (i = 0; i < SC_COROS; i += batch) {
		unsigned int j;

		batch = SC_COROS - i < SC_SQ ? SC_COROS - i : SC_SQ;
		for (j = 0; j < batch; j++)
			uring_prep_bpf(&ring, 0, i + j)->flags =
				IOSQE_CQE_SKIP_SUCCESS;
		uring_submit(&ring, (int)batch);
	}
	/* the first steps run in the ring's waits */
	while (__atomic_load_n(&skel->bss->sc_started, __ATOMIC_RELAXED) +
		       skel->bss->sc_queue_err < SC_COROS) {
		if (!io_uring_wait_cqe_timeout(&ring, &cqe, &ts))
			_exit(3);	/* nothing ends before the teardown */
	}
	uring_write_byte(wfd, 'R');

	switch (v) {
	case SC_CLOSE:
		io_uring_queue_exit(&ring);
		_exit(0);
	case SC_EXIT:
		exit(0);
	case SC_KILL:
		for (;;)
			pause();
	case SC_EXEC: {
		char *argv[] = { "chain_test", "--list", NULL };
		int null = open("/dev/null", O_WRONLY);

		if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
			_exit(97);
		execv("/proc/self/exe", argv);
		_exit(99);
	}
	}
	_exit(98);
}

static void scale_teardown(enum sc_variant v)
{
	struct scale_bpf *skel;
	long k0, k1, k2, s0, s1, s2;
	uint64_t t0;
	int p[2], status;
	double ms;
	pid_t pid;

	uring_bpf_register_sec();
	skel = scale_bpf__open_and_load();
	if (!skel)
		FAIL("scale_bpf__open_and_load: %s", strerror(errno));
	skel->bss->sc_ts = (uintptr_t)&sc_hour;
	k0 = test_kiocb_objects();
	s0 = sunreclaim_kb();

	pid = uring_fork_with_pipe(p);
	if (!pid)
		sc_child(skel, v, p[1]);
	if (uring_read_byte_ms(p[0], SC_READY_MS) != 'R') {
		uring_dump_task(pid);
		kill(pid, SIGKILL);
		uring_reap_child_ms(pid, SC_GONE_MS, &status);
		FAIL("%u coroutines did not all start within %u ms (%llu did, "
		     "%llu queue errors)", SC_COROS, SC_READY_MS,
		     (unsigned long long)skel->bss->sc_started,
		     (unsigned long long)skel->bss->sc_queue_err);
	}
	CHECK_EQ(skel->bss->sc_queue_err, 0);
	k1 = test_kiocb_objects();
	s1 = sunreclaim_kb();
	printf("scale %s: %u coroutines in flight: %ld io_kiocb and %ld kB "
	       "of unreclaimable slab more, %.0f bytes a coroutine\n",
	       sc_names[v], SC_COROS, k1 - k0, s1 - s0,
	       (double)(s1 - s0) * 1024 / SC_COROS);
	/* one request each, and their timeouts */
	CHECK(k1 - k0 >= SC_COROS);
	CHECK(k1 - k0 < SC_COROS + SC_COROS / 10);

	t0 = uring_now_ns();
	if (v == SC_KILL)
		CHECK_SYS(kill(pid, SIGKILL));
	if (!uring_reap_child_ms(pid, SC_GONE_MS, &status)) {
		uring_dump_task(pid);
		kill(pid, SIGKILL);
		uring_reap_child_ms(pid, SC_GONE_MS, &status);
		FAIL("teardown %s: the child was not reaped within %u ms",
		     sc_names[v], SC_GONE_MS);
	}
	ms = ms_since(t0);
	if (v == SC_KILL)
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	else
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	/* the ring goes in a workqueue after its last reference */
	t0 = uring_now_ns();
	do {
		k2 = test_kiocb_objects();
		if (k2 <= k0 + SC_SLACK)
			break;
		uring_sleep_ms(100);
	} while (ms_since(t0) < SC_GONE_MS);
	s2 = sunreclaim_kb();
	printf("scale %s: reaped in %.0f ms; io_kiocb %ld from %ld, "
	       "unreclaimable slab %+ld kB from before (KASAN keeps freed "
	       "objects in quarantine a while)\n", sc_names[v], ms, k2, k0,
	       s2 - s0);
	if (k2 > k0 + SC_SLACK)
		FAIL("teardown %s: %ld io_kiocb objects are still there, %ld "
		     "before", sc_names[v], k2, k0);
	/* the programs ran no further step for a task that is gone */
	CHECK_EQ(skel->bss->sc_ended, 0);
	close(p[0]);
	scale_bpf__destroy(skel);
}

IOCORO_CASE_OPTS(scale_close, .serial = true, .timeout = 600)
{
	scale_teardown(SC_CLOSE);
}

IOCORO_CASE_OPTS(scale_exit, .serial = true, .timeout = 600)
{
	scale_teardown(SC_EXIT);
}

IOCORO_CASE_OPTS(scale_sigkill, .serial = true, .timeout = 600)
{
	scale_teardown(SC_KILL);
}

IOCORO_CASE_OPTS(scale_exec, .serial = true, .timeout = 600)
{
	scale_teardown(SC_EXEC);
}
