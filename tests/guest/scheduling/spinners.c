// SPDX-License-Identifier: MIT
/*
 * Other tasks' calls on the ring: any task's io_uring_enter() on the
 * ring, even one that submits nothing and waits for nothing, must not
 * start a pass of the steps of the task whose coroutines run there, nor
 * keep that task running them: how long a task runs steps is its own
 * business. The stepping task's timed waits must come back in time while
 * two threads spin on its ring (io_uring_enter(fd, 0, 0, 0), or a reaper
 * woken by each CQE).
 */
#include "scheduling.h"
#include "passes.skel.h"

#define OW_CHAINS 4
#define OW_WAITS 10
#define OW_WAIT_MS 100
#define OW_WAIT_BOUND_MS 200
/* how long the child may take in all (TCG + KASAN) */
#define OW_LIVE_MS 30000

static int ow_fd;
static volatile int ow_stop;

static void *ow_spin(void *arg)
{
	unsigned int flags = (unsigned int)(uintptr_t)arg;

	while (!ow_stop)
		syscall(__NR_io_uring_enter, ow_fd, 0, 0, flags, NULL, 0);
	return NULL;
}

static void ow_child(struct passes_bpf *skel, int wfd)
{
	struct __kernel_timespec ts = { 0, OW_WAIT_MS * 1000000LL };
	pthread_t spinners[2];
	struct io_uring_cqe *cqe;
	struct io_uring *ring;
	struct iocoro co;
	double ms, worst = 0;
	unsigned int i;
	int link;

	link = uring_co_attach(&co, 64, 0, skel->progs.busy, K_BUSY);
	ring = &co.ring;
	ow_fd = ring->ring_fd;
	CHECK_EQ(pthread_create(&spinners[0], NULL, ow_spin, (void *)0), 0);
	CHECK_EQ(pthread_create(&spinners[1], NULL, ow_spin,
				(void *)(uintptr_t)IORING_ENTER_GETEVENTS), 0);
	for (i = 0; i < OW_CHAINS; i++)
		uring_prep_chain(ring, K_BUSY, i);
	uring_submit(ring, OW_CHAINS);
	for (i = 0; i < OW_WAITS; i++) {
		uint64_t t0 = uring_now_ns();
		int ret = io_uring_wait_cqe_timeout(ring, &cqe, &ts);

		ms = uring_ms_since(t0);
		printf("owner: wait %u: %d after %.1f ms, %llu steps\n", i,
		       ret, ms, (unsigned long long)skel->bss->bu_total);
		CHECK_EQ(ret, -ETIME);
		if (ms > worst)
			worst = ms;
	}
	ow_stop = 1;
	pthread_join(spinners[0], NULL);
	pthread_join(spinners[1], NULL);
	CHECK_EQ(skel->bss->bu_err, 0);
	CHECK(skel->bss->bu_total > OW_CHAINS);
	if (worst > OW_WAIT_BOUND_MS)
		FAIL("a wait of %u ms took %.1f ms", OW_WAIT_MS, worst);
	uring_write_byte(wfd, 'D');
	close(link);
	io_uring_queue_exit(ring);
	_exit(0);
}

IOCORO_CASE_OPTS(spinners, .serial = true)
{
	struct passes_bpf *skel;
	int p[2], status;
	pid_t pid;

	skel = SKEL_LOAD(passes_bpf);
	pid = uring_fork_with_pipe(p);
	if (!pid)
		ow_child(skel, p[1]);
	if (uring_read_byte_ms(p[0], OW_LIVE_MS) != 'D') {
		uring_dump_task(pid);
		kill(pid, SIGKILL);
		uring_reap_child_ms(pid, OW_LIVE_MS, &status);
		FAIL("the stepping task did not finish %u waits of %u ms in "
		     "%u ms (%llu steps)", OW_WAITS, OW_WAIT_MS, OW_LIVE_MS,
		     (unsigned long long)skel->bss->bu_total);
	}
	CHECK(uring_reap_child_ms(pid, OW_LIVE_MS, &status));
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(p[0]);
	passes_bpf__destroy(skel);
}
