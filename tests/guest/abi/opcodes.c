// SPDX-License-Identifier: MIT
/*
 * Finding 10: numbers that later kernels give to other things. v4's
 * IORING_OP_BPF was 58, upstream's IORING_OP_RECV_ZC (6.15): the probe
 * reported 58 as supported, and zero-copy receive applications took the
 * kernel for one that has it. IORING_OP_BPF is now past upstream's
 * opcodes (tests/unit/upstream-uapi.txt, held against the headers on the
 * host); here the running kernel: later kernels' opcodes are unknown, as
 * on a stock 6.12, and IORING_OP_BPF is there. The steps' kfuncs are
 * found by name in the kernel's BTF: they have no numbers to clash.
 */
#include "guest.h"

/* upstream's numbers, which this kernel must not know */
#define OP_RECV_ZC 58
#define OP_LAST_UPSTREAM 65

IOCORO_CASE(opcodes_probe)
{
	struct io_uring_probe *probe;
	struct io_uring ring;
	unsigned int op;

	uring_init(&ring, 8, 0);
	probe = io_uring_get_probe_ring(&ring);
	CHECK(probe != NULL);
	CHECK_EQ(probe->last_op, IORING_OP_BPF);
	CHECK(io_uring_opcode_supported(probe, IORING_OP_LISTEN));
	for (op = IORING_OP_LISTEN + 1; op < IORING_OP_BPF; op++) {
		if (io_uring_opcode_supported(probe, (int)op))
			FAIL("opcode %u probes as supported", op);
	}
	CHECK(io_uring_opcode_supported(probe, IORING_OP_BPF));
	CHECK(!io_uring_opcode_supported(probe, OP_RECV_ZC));
	io_uring_free_probe(probe);
	io_uring_queue_exit(&ring);
}

/* an SQE of a later kernel's opcode fails as any unknown one: -EINVAL */
IOCORO_CASE(opcodes_unknown)
{
	struct io_uring_cqe cqe;
	struct io_uring ring;
	unsigned int op;

	uring_init(&ring, 8, 0);
	for (op = IORING_OP_LISTEN + 1; op <= OP_LAST_UPSTREAM; op++) {
		struct io_uring_sqe *sqe = uring_sqe(&ring);

		sqe->opcode = (__u8)op;
		sqe->user_data = op;
		uring_submit(&ring, 1);
		uring_reap(&ring, &cqe, 1);
		if (cqe.res != -EINVAL)
			FAIL("opcode %u: %d, want -EINVAL", op, cqe.res);
	}
	io_uring_queue_exit(&ring);
}
