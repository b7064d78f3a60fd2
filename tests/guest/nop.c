// SPDX-License-Identifier: MIT
/*
 * The simplest round trip through io_uring: one NOP with a user_data, which
 * must come back as exactly one CQE with that user_data and res == 0.
 */
#include <linux/io_uring.h> /* before liburing.h: the patched uapi wins */
#include <liburing.h>

#include "check.h"

#define NOP_USER_DATA 0x10c0c0de00000001ULL

int main(void)
{
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct io_uring ring;

	CHECK_RET(io_uring_queue_init(4, &ring, 0));

	sqe = io_uring_get_sqe(&ring);
	CHECK(sqe != NULL);
	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data64(sqe, NOP_USER_DATA);
	CHECK_EQ(CHECK_RET(io_uring_submit(&ring)), 1);

	CHECK_RET(io_uring_wait_cqe(&ring, &cqe));
	CHECK_CQE(cqe, NOP_USER_DATA, 0);
	CHECK_EQ(cqe->flags, 0);
	io_uring_cqe_seen(&ring, cqe);

	/* one request, one completion */
	CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), -EAGAIN);

	io_uring_queue_exit(&ring);
	printf("nop: ok\n");
	return 0;
}
