// SPDX-License-Identifier: MIT
/*
 * Cancelling what carries a step. A request whose operation completed is
 * not cancelled, as io_uring cancels no completed request: its step runs
 * with the real result, and what the operation did is not lost. An
 * IORING_OP_BPF completes at once, so on an IORING_SETUP_DEFER_TASKRUN
 * ring submitted without a wait, its step waits as task_work for the
 * task's next wait: cancelling it finds nothing. An operation still in
 * flight is cancelled as any request, and its step sees -ECANCELED: a
 * LINK_TIMEOUT races a read. One that completed in io-wq disarms its
 * LINK_TIMEOUT; one whose LINK_TIMEOUT fired, found nothing to cancel and
 * put its last reference still hands the rest of its link to its step.
 */
#include "guest.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "cancel.skel.h"

#define UD_STEP 0x5
#define UD_CANCEL 0xc
#define UD_READ 0x4ead
#define UD_TIMEOUT 0x7173
#define UD_OPEN 0x0be4
#define UD_NOP 0x40b

/* the kinds cancel.bpf.c's steps are attached as */
enum { K_COUNT, K_READ };

/* a ring of @flags with both kinds; their links in @links */
static struct cancel_bpf *cn_setup(struct iocoro *co, unsigned int flags,
				   int links[2])
{
	struct cancel_bpf *skel;

	skel = SKEL_LOAD(cancel_bpf);
	skel->bss->cn_count_kind = K_COUNT;
	uring_co_init(co, 8, flags);
	links[0] = uring_attach(co, skel->progs.cn_count, K_COUNT);
	links[1] = uring_attach(co, skel->progs.cn_read, K_READ);
	return skel;
}

static void cn_teardown(struct iocoro *co, int links[2],
			struct cancel_bpf *skel)
{
	close(links[1]);
	close(links[0]);
	io_uring_queue_exit(&co->ring);
	cancel_bpf__destroy(skel);
}

/*
 * cn_read's steps read the pipe it makes in @p, into a buffer of 8 bytes,
 * with a LINK_TIMEOUT of @ts
 */
static void cn_read_pipe(struct cancel_bpf *skel, int p[2],
			 const struct __kernel_timespec *ts)
{
	static char buf[8];

	CHECK_SYS(pipe2(p, O_CLOEXEC));
	skel->bss->cn_fd = p[0];
	skel->bss->cn_buf = (uintptr_t)buf;
	skel->bss->cn_ts = (uintptr_t)ts;
}

#define DEFER (IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN)

/* IORING_OP_BPF on a DEFER ring, submitted without a wait: it completed */
static void cn_due(struct io_uring *ring)
{
	uring_prep_start(ring, K_COUNT, UD_STEP);
	/* liburing enters without IORING_ENTER_GETEVENTS here */
	uring_submit(ring, 1);
	CHECK(strstr(uring_fdinfo(ring), "BpfParked:\t0\n") != NULL);
}

/* its step ran at the wait, with nothing cancelled */
static void cn_ran(struct io_uring *ring, struct cancel_bpf *skel)
{
	struct io_uring_cqe cqe;

	uring_reap(ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_STEP, 7);
	CHECK_EQ(skel->bss->cn_runs, 1);
}

IOCORO_CASE(async)
{
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;
	struct cancel_bpf *skel;
	struct iocoro co;
	int links[2];

	skel = cn_setup(&co, DEFER, links);
	cn_due(&co.ring);
	sqe = uring_sqe(&co.ring);
	io_uring_prep_cancel64(sqe, UD_STEP, 0);
	sqe->user_data = UD_CANCEL;
	uring_submit(&co.ring, 1);
	CHECK_EQ(skel->bss->cn_runs, 0);
	/* nothing to cancel: the step runs at the wait */
	uring_reap(&co.ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_CANCEL, -ENOENT);
	EXPECT_CQE(cqes, 2, UD_STEP, 7);
	CHECK_EQ(skel->bss->cn_runs, 1);
	cn_teardown(&co, links, skel);
}

IOCORO_CASE(sync)
{
	struct io_uring_sync_cancel_reg reg = {
		.addr = UD_STEP,
		.timeout = { .tv_sec = 10, .tv_nsec = 0 },
	};
	struct cancel_bpf *skel;
	struct iocoro co;
	int links[2];

	skel = cn_setup(&co, DEFER, links);
	cn_due(&co.ring);
	CHECK_EQ(io_uring_register_sync_cancel(&co.ring, &reg), -ENOENT);
	cn_ran(&co.ring, skel);
	cn_teardown(&co, links, skel);
}

/* not cancelled: it runs at the next wait */
IOCORO_CASE(none)
{
	struct cancel_bpf *skel;
	struct iocoro co;
	int links[2];

	skel = cn_setup(&co, DEFER, links);
	cn_due(&co.ring);
	CHECK_EQ(skel->bss->cn_runs, 0);
	CHECK_EQ(uring_enter(&co.ring, 0, 1, IORING_ENTER_GETEVENTS), 0);
	cn_ran(&co.ring, skel);
	cn_teardown(&co, links, skel);
}

/*
 * A LINK_TIMEOUT after a read that carries a step: the timeout cancels
 * the read, whose step runs and sees -ECANCELED, its result the
 * request's.
 */
IOCORO_CASE(link_timeout)
{
	struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = 50000000 };
	struct io_uring_cqe cqes[3];
	struct cancel_bpf *skel;
	struct iocoro co;
	int p[2], links[2];

	skel = cn_setup(&co, 0, links);
	cn_read_pipe(skel, p, &ts);
	uring_prep_start(&co.ring, K_READ, UD_STEP);
	uring_submit(&co.ring, 1);
	uring_reap(&co.ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_STEP, 0);
	EXPECT_CQE(cqes, 3, UD_TIMEOUT, -ETIME);
	EXPECT_CQE(cqes, 3, UD_READ, 7);
	CHECK_EQ(skel->bss->cn_rc[0], 0);
	CHECK_EQ(skel->bss->cn_rc[1], 0);
	CHECK_EQ(skel->bss->cn_runs, 1);
	CHECK_EQ(skel->bss->cn_prev_res, -ECANCELED);
	close(p[0]);
	close(p[1]);
	cn_teardown(&co, links, skel);
}

/*
 * The same, the read sent to io-wq (IOSQE_ASYNC) with a byte already in
 * its pipe: io-wq completes it at once and puts its last reference while
 * the task that runs its step sleeps in vfork(), a killable wait in which
 * no task_work runs, past the LINK_TIMEOUT's 50 ms. The completion
 * disarms the timeout (-ECANCELED): it does not fire for a read that
 * completed in time (-ETIME), nor find the freed read by its link (a
 * WARN on the debug kernel).
 */
IOCORO_CASE(link_timeout_iowq)
{
	struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = 50000000 };
	struct io_uring_cqe cqes[3];
	struct cancel_bpf *skel;
	struct iocoro co;
	int p[2], links[2];
	pid_t pid;

	skel = cn_setup(&co, 0, links);
	cn_read_pipe(skel, p, &ts);
	CHECK_SYS(write(p[1], "x", 1));
	skel->bss->cn_read_flags = IOSQE_ASYNC;
	/* the start's step runs as the submit returns: the read is queued */
	uring_prep_start(&co.ring, K_READ, UD_STEP);
	uring_submit(&co.ring, 1);
	pid = vfork();
	if (pid == 0) {
		struct timespec nap = { .tv_sec = 0, .tv_nsec = 300000000 };

		nanosleep(&nap, NULL);
		_exit(0);
	}
	CHECK_SYS(pid);
	CHECK_SYS(waitpid(pid, NULL, 0));
	uring_reap(&co.ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_STEP, 0);
	EXPECT_CQE(cqes, 3, UD_READ, 7);
	EXPECT_CQE(cqes, 3, UD_TIMEOUT, -ECANCELED);
	CHECK_EQ(skel->bss->cn_runs, 1);
	CHECK_EQ(skel->bss->cn_prev_res, 1);
	close(p[0]);
	close(p[1]);
	cn_teardown(&co, links, skel);
}

/*
 * The LINK_TIMEOUT of an operation that carries a step fires while the
 * operation blocks in io-wq, and a NOP is linked after the timeout. The
 * operation: an openat() of a FIFO by its /proc/self/fd link, which
 * io_uring's inline try cannot resolve from the dcache alone (-EAGAIN:
 * the timeout is armed as that first issue returns), so it waits in
 * io-wq for a writer, which opens the FIFO at 100 ms. The task that runs
 * task_work sleeps in vfork() until 300 ms: the timeout's task_work then
 * finds nothing to cancel (-ENOENT) and puts the last reference of the
 * openat. The rest of the link goes on by the step's result, as after
 * any request that carries a step: the NOP's CQE comes after the step's
 * (@step_res), and it is -ECANCELED if the step failed.
 */
static void cn_last_ref(int step_res, int nop_res)
{
	struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = 50000000 };
	char dir[] = "/tmp/cancel-fifo-XXXXXX", fifo[64], path[64];
	const struct io_uring_cqe *opened, *nop;
	struct io_uring_cqe cqes[3];
	struct io_uring_sqe *sqe;
	struct cancel_bpf *skel;
	struct iocoro co;
	int links[2], status, rfd;
	pid_t pid;

	skel = cn_setup(&co, 0, links);
	skel->bss->cn_ret = step_res;
	CHECK(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	CHECK_SYS(mkfifo(fifo, 0600));
	/* a reader that does not wait: the openat's path, not its FIFO */
	rfd = CHECK_SYS(open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", rfd);
	sqe = uring_sqe(&co.ring);
	io_uring_prep_openat(sqe, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);
	sqe->flags |= IOSQE_BPF_STEP | IOSQE_IO_LINK;
	sqe->user_data = UD_OPEN;
	sqe = uring_sqe(&co.ring);
	io_uring_prep_link_timeout(sqe, &ts, 0);
	sqe->flags |= IOSQE_IO_LINK;
	sqe->user_data = UD_TIMEOUT;
	sqe = uring_sqe(&co.ring);
	io_uring_prep_nop(sqe);
	sqe->user_data = UD_NOP;
	uring_submit(&co.ring, 3);
	pid = vfork();
	if (pid == 0) {
		struct timespec nap = { .tv_sec = 0, .tv_nsec = 100000000 };
		int fd;

		nanosleep(&nap, NULL);
		fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		nap.tv_nsec = 200000000;
		nanosleep(&nap, NULL);
		_exit(fd < 0);
	}
	CHECK_SYS(pid);
	CHECK_SYS(waitpid(pid, &status, 0));
	/* the writer opened the FIFO */
	CHECK_EQ(status, 0);
	uring_reap(&co.ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_TIMEOUT, -ENOENT);
	EXPECT_CQE(cqes, 3, UD_OPEN, step_res);
	EXPECT_CQE(cqes, 3, UD_NOP, nop_res);
	opened = uring_find_cqe(cqes, 3, UD_OPEN);
	nop = uring_find_cqe(cqes, 3, UD_NOP);
	if (opened > nop)
		uring_dump_cqes(cqes, 3);
	CHECK(opened < nop);
	CHECK_EQ(skel->bss->cn_runs, 1);
	CHECK(skel->bss->cn_prev_res >= 0);
	CHECK_SYS(close(skel->bss->cn_prev_res));
	CHECK_SYS(close(rfd));
	CHECK_SYS(unlink(fifo));
	CHECK_SYS(rmdir(dir));
	cn_teardown(&co, links, skel);
}

IOCORO_CASE(link_timeout_last_ref)
{
	cn_last_ref(7, 0);
}

IOCORO_CASE(link_timeout_last_ref_fail)
{
	cn_last_ref(-EIO, -ECANCELED);
}

/*
 * A completion and its LINK_TIMEOUT race. A read
 * of a pipe that carries a step, with a 1 ms LINK_TIMEOUT, while a thread
 * writes a byte after 0.5 to 1.5 ms, CN_RACES times. Whichever wins, each
 * request posts exactly one CQE (the step's 7 for the read), the step
 * sees the read's real result, and the byte is either read (result 1) or
 * still in the pipe (-ECANCELED). A reference of the read taken back
 * from zero for the step would race the timeout's inc_not_zero; on the
 * debug kernel, refcount checking and the log scan catch that.
 */
#define CN_RACES 300 /* in CI; IOCORO_RACES=10000 by hand */

struct cn_race {
	int go[2];	/* the test tells the writer to write */
	int done[2];	/* the writer says it wrote */
	int wfd;	/* the pipe it writes to */
	/* LINK_TIMEOUT results: -ETIME, -ECANCELED, either of the others */
	unsigned int timeout_res[3];
};

static void *cn_writer(void *arg)
{
	struct cn_race *r = arg;
	unsigned int seed = 1;
	char c;

	while (read(r->go[0], &c, 1) == 1 && c == 'w') {
		struct timespec ts = {
			0, 500000 + (long)(rand_r(&seed) % 1000000)
		};

		nanosleep(&ts, NULL);
		if (write(r->wfd, "x", 1) != 1 || write(r->done[1], "d", 1) != 1)
			break;
	}
	return NULL;
}

/* one race: returns true if the read got the byte */
static bool cn_race_once(struct io_uring *ring, struct cancel_bpf *skel,
			 struct cn_race *r, int rfd)
{
	struct io_uring_cqe cqes[3];
	int left = -1, res;
	char c;

	skel->bss->cn_runs = 0;
	CHECK_SYS(write(r->go[1], "w", 1));
	uring_prep_start(ring, K_READ, UD_STEP);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_STEP, 0);
	EXPECT_CQE(cqes, 3, UD_READ, 7);
	/*
	 * the timeout fired (-ETIME), was disarmed by the completion
	 * (-ECANCELED), or fired as the read completed and found nothing
	 * left to cancel (-ENOENT, -EALREADY)
	 */
	res = uring_find_cqe(cqes, 3, UD_TIMEOUT)->res;
	if (res != -ETIME && res != -ECANCELED && res != -ENOENT &&
	    res != -EALREADY)
		FAIL("the LINK_TIMEOUT's result: %d", res);
	r->timeout_res[res == -ETIME ? 0 : res == -ECANCELED ? 1 : 2]++;
	CHECK_EQ(skel->bss->cn_runs, 1);
	CHECK(skel->bss->cn_prev_res == 1 ||
	      skel->bss->cn_prev_res == -ECANCELED);
	CHECK_EQ(uring_read_byte_ms(r->done[0], 10000), 'd');
	CHECK_SYS(ioctl(rfd, FIONREAD, &left));
	if (skel->bss->cn_prev_res == 1) {
		CHECK_EQ(left, 0);
		return true;
	}
	CHECK_EQ(left, 1);
	CHECK_SYS(read(rfd, &c, 1));
	return false;
}

IOCORO_CASE_OPTS(link_timeout_race, .timeout = 900)
{
	struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = 1000000 };
	unsigned int i, races, got = 0;
	struct cancel_bpf *skel;
	struct cn_race r = { 0 };
	struct iocoro co;
	int p[2], links[2];
	pthread_t thr;

	skel = cn_setup(&co, 0, links);
	cn_read_pipe(skel, p, &ts);
	CHECK_SYS(pipe2(r.go, O_CLOEXEC));
	CHECK_SYS(pipe2(r.done, O_CLOEXEC));
	r.wfd = p[1];
	races = getenv("IOCORO_RACES") ? atoi(getenv("IOCORO_RACES")) :
					  CN_RACES;
	CHECK_EQ(pthread_create(&thr, NULL, cn_writer, &r), 0);
	for (i = 0; i < races; i++) {
		got += cn_race_once(&co.ring, skel, &r, p[0]);
		if (!((i + 1) % 1000))
			fprintf(stderr, "cancel_link_timeout_race: %u races\n",
				i + 1);
	}
	CHECK_SYS(write(r.go[1], "q", 1));
	CHECK_EQ(pthread_join(thr, NULL), 0);
	printf("cancel_link_timeout_race: the read got the byte %u of %u times; "
	       "the timeout: -ETIME %u, -ECANCELED %u, found nothing %u\n",
	       got, races, r.timeout_res[0], r.timeout_res[1],
	       r.timeout_res[2]);
	CHECK_EQ(io_uring_cq_ready(&co.ring), 0);
	close(p[0]);
	close(p[1]);
	cn_teardown(&co, links, skel);
}
