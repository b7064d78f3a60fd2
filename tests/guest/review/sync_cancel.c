// SPDX-License-Identifier: MIT
/*
 * Finding 5: IORING_REGISTER_SYNC_CANCEL of a request that io-wq is
 * running answers -EALREADY internally and waits on ->cq_wait for a
 * completion to look again. v4 woke ->cq_wait only for flushes that posted
 * a CQE, so a request that completed with its CQE skipped
 * (IOSQE_CQE_SKIP_SUCCESS) left the call asleep to its timeout, and
 * forever with a timeout of -1. No ring with programs is needed: any
 * ring's sync cancel was affected.
 */
#include "review.h"

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
	ms = rv_ms_since(t0);
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
