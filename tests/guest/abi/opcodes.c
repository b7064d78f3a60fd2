// SPDX-License-Identifier: MIT
/*
 * Opcode numbers: IORING_OP_BPF is past upstream's opcodes
 * (tests/unit/upstream-uapi.txt, held against the headers on the host), so
 * that no application takes this kernel for one that has a later
 * kernel's opcode (upstream's 58 is IORING_OP_RECV_ZC). Here the running
 * kernel: later kernels' opcodes are unknown, as on a stock 6.12, and
 * IORING_OP_BPF is there. The steps' kfuncs are found by name in the
 * kernel's BTF: they have no numbers to clash.
 */
#include "guest.h"

/* upstream's numbers, which this kernel must not know */
#define OP_RECV_ZC 58
#define OP_LAST_UPSTREAM 65

/* the probe: IORING_OP_BPF is the last opcode, past upstream's */
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
	CHECK(probe->ops[IORING_OP_BPF].op == IORING_OP_BPF);
	CHECK(probe->ops[IORING_OP_BPF].flags & IO_URING_OP_SUPPORTED);
	CHECK(!io_uring_opcode_supported(probe, OP_RECV_ZC));
	/* a sanity control: a stock opcode */
	CHECK(io_uring_opcode_supported(probe, IORING_OP_NOP));
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
