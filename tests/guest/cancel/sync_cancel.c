// SPDX-License-Identifier: MIT
/*
 * IORING_REGISTER_SYNC_CANCEL of a request that io-wq is running answers
 * -EALREADY internally and waits on ->cq_wait for a completion to look
 * again: a request that completes with its CQE skipped
 * (IOSQE_CQE_SKIP_SUCCESS) must wake it too, or the call sleeps to its
 * timeout, and forever with a timeout of -1. No ring with programs is
 * needed: any ring's sync cancel is concerned.
 */
#include "guest.h"

#define SC_SIZE (192U << 20)
#define SC_TIMEOUT_S 20
/* the read takes well under this on TCG; the timeout is 20 s */
#define SC_BOUND_MS 8000

IOCORO_CASE_OPTS(sync_cancel_skipped, .serial = true, .timeout = 120)
{
	struct io_uring_sync_cancel_reg reg = {
		.addr = 0x5c,
		.timeout = { .tv_sec = SC_TIMEOUT_S, .tv_nsec = 0 },
	};
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	char path[] = "/tmp/iocoro-sc-XXXXXX";
	uint64_t t0;
	double ms;
	char *buf;
	int fd, ret;

	/* a file big enough that io-wq takes a while to read it */
	fd = CHECK_SYS(mkstemp(path));
	CHECK_SYS(unlink(path));
	CHECK_SYS(ftruncate(fd, SC_SIZE));
	buf = mmap(NULL, SC_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	CHECK(buf != MAP_FAILED);
	CHECK_EQ(pread(fd, buf, SC_SIZE, 0), (ssize_t)SC_SIZE);

	uring_init(&ring, 8, 0);
	sqe = uring_sqe(&ring);
	io_uring_prep_read(sqe, fd, buf, SC_SIZE, 0);
	sqe->user_data = 0x5c;
	sqe->flags = IOSQE_ASYNC | IOSQE_CQE_SKIP_SUCCESS;
	uring_submit(&ring, 1);
	/* let an io-wq worker start on it */
	uring_sleep_ms(20);

	t0 = uring_now_ns();
	ret = io_uring_register_sync_cancel(&ring, &reg);
	ms = uring_ms_since(t0);
	printf("sync_cancel_skipped: %d after %.1f ms\n", ret, ms);
	/* cancelled while pending (0), or gone once it completed (0) */
	CHECK_EQ(ret, 0);
	if (ms > SC_BOUND_MS)
		FAIL("the sync cancel took %.0f ms: it slept to its timeout "
		     "(%u s) instead of waking with the completion", ms,
		     SC_TIMEOUT_S);
	/* no CQE but a failure's (a cancelled read posts -ECANCELED) */
	if (!uring_wait_cqe_ms(&ring, &cqe, URING_NO_CQE_MS)) {
		CHECK_EQ(cqe->user_data, 0x5c);
		CHECK(cqe->res == -ECANCELED || cqe->res == -EINTR);
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	munmap(buf, SC_SIZE);
	close(fd);
}

/*
 * The same with a request whose completion comes through the task's
 * task_work, which must wake the waiter too: an O_DIRECT read of a block
 * device (null_blk) that io-wq submits (IOSQE_ASYNC) and that completes
 * after it did. A second thread's sync cancel that finds io-wq submitting
 * it waits for a completion; the read completes with its CQE skipped: the
 * call must return with the completion, not sleep to its timeout.
 * A cancel that comes before io-wq started the read cancels it instead,
 * which proves nothing: the case then tries again, a little later.
 */
#define SA_DEV "/dev/nullb0"
#define SA_SIZE (256U << 20)
#define SA_UD 0x5d
#define SA_UD_PIPE 0xe0
#define SA_TRIES 4

struct sa_cancel {
	struct io_uring *ring;
	unsigned int delay_ms;
	int ret;
	double ms;
	int done_fd;	/* written when the call returned */
};

static void *sa_cancel_thread(void *p)
{
	struct sa_cancel *c = p;
	struct io_uring_sync_cancel_reg reg = {
		.addr = SA_UD,
		.timeout = { .tv_sec = SC_TIMEOUT_S, .tv_nsec = 0 },
	};
	uint64_t t0;

	uring_sleep_ms(c->delay_ms);
	t0 = uring_now_ns();
	c->ret = io_uring_register_sync_cancel(c->ring, &reg);
	c->ms = uring_ms_since(t0);
	CHECK_EQ(write(c->done_fd, "x", 1), 1);
	return NULL;
}

/* one try: 1 if the cancel met the read in io-wq, 0 if it came early */
static int sa_try(void *buf, int fd, unsigned int delay_ms)
{
	struct sa_cancel c = { .delay_ms = delay_ms };
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	int p[2], read_res = 1, seen_pipe = 0;
	pthread_t t;
	char byte;

	CHECK_SYS(pipe(p));
	uring_init(&ring, 8, 0);
	sqe = uring_sqe(&ring);
	io_uring_prep_read(sqe, fd, buf, SA_SIZE, 0);
	sqe->user_data = SA_UD;
	sqe->flags = IOSQE_ASYNC | IOSQE_CQE_SKIP_SUCCESS;
	/* what ends this thread's wait: the canceller's byte */
	sqe = uring_sqe(&ring);
	io_uring_prep_read(sqe, p[0], &byte, 1, 0);
	sqe->user_data = SA_UD_PIPE;
	uring_submit(&ring, 2);

	c.ring = &ring;
	c.done_fd = p[1];
	CHECK_EQ(pthread_create(&t, NULL, sa_cancel_thread, &c), 0);
	/* this thread waits in the ring: the read completes in its task_work */
	while (!seen_pipe) {
		struct __kernel_timespec ts = { .tv_sec = 3 * SC_TIMEOUT_S };

		CHECK_EQ(io_uring_wait_cqe_timeout(&ring, &cqe, &ts), 0);
		if (cqe->user_data == SA_UD)
			read_res = cqe->res;
		else
			seen_pipe = cqe->user_data == SA_UD_PIPE;
		io_uring_cqe_seen(&ring, cqe);
	}
	CHECK_EQ(pthread_join(t, NULL), 0);
	printf("sync_cancel_async_read: after %u ms: %d in %.1f ms, the read "
	       "%s\n", delay_ms, c.ret, c.ms,
	       read_res == 1 ? "completed (CQE skipped)" : "failed");
	io_uring_queue_exit(&ring);
	close(p[0]);
	close(p[1]);
	if (read_res != 1) {
		/* cancelled before io-wq ran it: no -EALREADY wait */
		CHECK(read_res == -ECANCELED || read_res == -EINTR);
		return 0;
	}
	CHECK_EQ(c.ret, 0);
	if (c.ms > SC_BOUND_MS)
		FAIL("the sync cancel took %.0f ms: it slept to its timeout "
		     "(%u s) instead of waking with the read's completion",
		     c.ms, SC_TIMEOUT_S);
	return 1;
}

IOCORO_CASE_OPTS(sync_cancel_async_read, .serial = true, .timeout = 240)
{
	unsigned int i, delay = 10;
	void *buf;
	int fd;

	fd = open(SA_DEV, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		FAIL("%s: %s (the debug kernel has CONFIG_BLK_DEV_NULL_BLK)",
		     SA_DEV, strerror(errno));
	buf = mmap(NULL, SA_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	CHECK(buf != MAP_FAILED);
	for (i = 0; i < SA_TRIES; i++, delay *= 3) {
		if (sa_try(buf, fd, delay))
			break;
	}
	if (i == SA_TRIES)
		FAIL("the cancel never met the read in io-wq (%u tries)",
		     SA_TRIES);
	munmap(buf, SA_SIZE);
	close(fd);
}
