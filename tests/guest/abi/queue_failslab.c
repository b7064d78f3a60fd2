// SPDX-License-Identifier: MIT
/*
 * A queued batch when requests cannot be allocated: with failslab failing
 * midway through a step's batch of 24 NOPs, every NOP gets exactly one
 * CQE, -ENOMEM from the first failed one on. Step qbatch of kinds.bpf.c.
 */
#include "kinds.h"

#define FAILSLAB "/sys/kernel/debug/failslab"
#define DB_NOPS 24

static void write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		FAIL("open %s: %s", path, strerror(errno));
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		FAIL("write '%s' to %s: %s", val, path, strerror(errno));
	close(fd);
}

static void failslab_setup(void)
{
	struct stat st;

	if (stat(FAILSLAB, &st) &&
	    mount("none", "/sys/kernel/debug", "debugfs", 0, NULL) &&
	    errno != EBUSY)
		FAIL("mount debugfs: %s", strerror(errno));
	if (stat(FAILSLAB, &st))
		FAIL(FAILSLAB ": %s (CONFIG_FAILSLAB, "
		     "CONFIG_FAULT_INJECTION_DEBUG_FS)", strerror(errno));
	/*
	 * The filter and the quiet first, the probability last: in between,
	 * every task's allocations could fail, and print a stack, tests
	 * running beside this one included
	 */
	write_file(FAILSLAB "/task-filter", "Y");
	write_file(FAILSLAB "/verbose", "0");
	write_file(FAILSLAB "/interval", "1");
	write_file(FAILSLAB "/times", "-1");
	write_file(FAILSLAB "/space", "0");
	write_file(FAILSLAB "/ignore-gfp-wait", "N");
	write_file(FAILSLAB "/cache-filter", "N");
	write_file(FAILSLAB "/probability", "100");
}

static void failslab_off(void)
{
	write_file(FAILSLAB "/probability", "0");
	write_file(FAILSLAB "/times", "1");
}

IOCORO_CASE(dropped_batch)
{
	struct kinds_bpf *skel = kinds_load();
	struct io_uring_cqe cqes[DB_NOPS + 1];
	struct io_uring *ring;
	unsigned int i, nr_ok = 0;
	struct iocoro co;
	int mif, ret, link;

	failslab_setup();
	mif = CHECK_SYS(open("/proc/self/make-it-fail", O_WRONLY | O_CLOEXEC));

	/* the step runs only inside io_uring_enter(GETEVENTS) */
	uring_co_init(&co, 32, IORING_SETUP_SINGLE_ISSUER |
				   IORING_SETUP_DEFER_TASKRUN);
	ring = &co.ring;
	CHECK(ring->cq.ring_entries >= DB_NOPS + 1);
	link = uring_attach(&co, skel->progs.qbatch, K_MAIN);
	for (i = 0; i < DB_NOPS; i++)
		qb_nop(skel, 0, i, 0, UD_NOP + i);
	prep_qbatch(ring, 0);
	/* no GETEVENTS (and no IORING_SETUP_TASKRUN_FLAG): it is not run */
	uring_submit(ring, 1);
	CHECK_EQ(skel->bss->qb_runs, 0);

	CHECK_EQ(CHECK_SYS(pwrite(mif, "1", 1, 0)), 1);
	ret = uring_enter(ring, 0, 1, IORING_ENTER_GETEVENTS);
	CHECK_EQ(CHECK_SYS(pwrite(mif, "0", 1, 0)), 1);
	failslab_off();
	close(mif);
	CHECK_EQ(ret, 0);
	CHECK_EQ(skel->bss->qb_runs, 1);
	qb_check_queued(skel, 0);

	/* one CQE each: the first ones ran, the rest -ENOMEM */
	uring_reap(ring, cqes, DB_NOPS + 1);
	EXPECT_CQE(cqes, DB_NOPS + 1, UD_BPF | 0, -ENOMEM);
	while (nr_ok < DB_NOPS &&
	       uring_find_cqe(cqes, DB_NOPS + 1, UD_NOP + nr_ok)->res == 0)
		nr_ok++;
	printf("dropped_batch: %u of %u NOPs got a request, %u -ENOMEM\n",
	       nr_ok, DB_NOPS, DB_NOPS - nr_ok);
	for (i = 0; i < DB_NOPS; i++)
		EXPECT_CQE(cqes, DB_NOPS + 1, UD_NOP + i,
			   i < nr_ok ? 0 : -ENOMEM);
	/* failslab did fail an allocation */
	CHECK(nr_ok < DB_NOPS);

	/* the ring still works */
	prep_qbatch(ring, 0);
	skel->bss->qb_n[0] = 1;
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_BPF | 0, 0);
	EXPECT_CQE(cqes, 2, UD_NOP + 0, 0);

	io_uring_queue_exit(&co.ring);
	close(link);
	kinds_bpf__destroy(skel);
}
