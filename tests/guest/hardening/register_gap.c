// SPDX-License-Identifier: MIT
/* The hardening suite, item issue 14: register numbers (hardening.h) */
#include "hardening.h"


IOCORO_CASE(register_gap)
{
	struct io_uring_sqe sqe;
	struct io_uring ring;
	unsigned int op;

	memset(&sqe, 0, sizeof(sqe));
	uring_init(&ring, 4, 0);
	/* upstream liburing's msg-ring.t probe: SEND_MSG_RING is 31 */
	CHECK_EQ(uring_register(-1, 31, &sqe, 1), -EINVAL);
	for (op = 31; op < IORING_REGISTER_BPF_FIRST; op++) {
		if (uring_register(-1, op, &sqe, 1) != -EINVAL ||
		    uring_register(ring.ring_fd, op, &sqe, 1) != -EINVAL)
			FAIL("opcode %u: %d with fd -1, %d with a ring, want "
			     "-EINVAL", op, uring_register(-1, op, &sqe, 1),
			     uring_register(ring.ring_fd, op, &sqe, 1));
	}
	CHECK_EQ(uring_register(ring.ring_fd, IORING_REGISTER_LAST, NULL, 0),
		 -EINVAL);
	/* the BPF opcodes look at the fd */
	CHECK_EQ(uring_register(-1, IORING_ATTACH_BPF, NULL, 0), -EBADF);
	CHECK_EQ(uring_register(-1, IORING_DETACH_BPF, NULL, 0), -EBADF);
	CHECK_EQ(uring_register(-1, IORING_REGISTER_BPF_BUDGET, NULL, 1),
		 -EBADF);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	CHECK_EQ(uring_set_budget(&ring, 1), -ENXIO);
	io_uring_queue_exit(&ring);
}
