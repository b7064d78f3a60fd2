// SPDX-License-Identifier: MIT
/*
 * Rings with restrictions (IORING_REGISTER_RESTRICTIONS): they hold for
 * IORING_OP_BPF and for the SQEs a step queues (who may load, attach and
 * start a step: permissions/)
 */
#include "abi.h"

/* an R_DISABLED ring restricted to @ops SQE opcodes and ENABLE_RINGS, enabled */
static void restricted_ring(struct io_uring *ring, const __u8 *ops,
			    unsigned int nr)
{
	struct io_uring_restriction res[4];
	unsigned int i;

	CHECK(nr < ARRAY_SIZE(res));
	uring_init(ring, 8, IORING_SETUP_R_DISABLED);
	memset(res, 0, sizeof(res));
	for (i = 0; i < nr; i++) {
		res[i].opcode = IORING_RESTRICTION_SQE_OP;
		res[i].sqe_op = ops[i];
	}
	res[nr].opcode = IORING_RESTRICTION_REGISTER_OP;
	res[nr].register_op = IORING_REGISTER_ENABLE_RINGS;
	/*
	 * raw: Debian's liburing 2.3 declares io_uring_register_restrictions()
	 * and io_uring_enable_rings() but does not export them
	 */
	CHECK_EQ(uring_register(ring->ring_fd, IORING_REGISTER_RESTRICTIONS,
				res, nr + 1), 0);
	CHECK_EQ(uring_register(ring->ring_fd, IORING_REGISTER_ENABLE_RINGS,
				NULL, 0), 0);
}

/*
 * A restricted ring (NOP and BPF SQEs): the WRITE a step queues is
 * refused with -EACCES like one from user space, and the file is
 * untouched.
 */
IOCORO_CASE(restrictions)
{
	static const __u8 ops[] = { IORING_OP_NOP, IORING_OP_BPF };
	static const char orig[] = "original content\n";
	static const char evil[] = "EVIL";
	struct abi_bpf *skel = skel_load();
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	int link, file;

	file = tmp_file();
	CHECK_EQ(CHECK_SYS(write(file, orig, sizeof(orig) - 1)),
		 sizeof(orig) - 1);

	restricted_ring(&ring, ops, ARRAY_SIZE(ops));
	/* a kind is a bpf_link, no register opcode: it attaches */
	link = kind_attach_ok(&ring, skel->progs.q_write, 0);

	/* control: user space may not write */
	sqe = uring_sqe(&ring);
	io_uring_prep_write(sqe, file, evil, sizeof(evil) - 1, 0);
	sqe->user_data = UD_USER;
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 1);
	CHECK_CQE(&cqes[0], UD_USER, -EACCES);

	set_write(skel, file, evil, sizeof(evil) - 1);
	run_bpf_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_WRITE, -EACCES);
	EXPECT_CQE(cqes, 2, UD_BPF, 0);
	CHECK_EQ(skel->bss->runs, 1);
	CHECK_EQ(skel->bss->rc[0], 0);
	check_file(file, orig, sizeof(orig) - 1);

	close(file);
	abi_down(&ring, skel, link);
}

/*
 * A ring whose restrictions leave IORING_OP_BPF out: a start is refused
 * with -EACCES and its step does not run
 */
IOCORO_CASE(restrictions_no_bpf)
{
	static const __u8 ops[] = { IORING_OP_NOP };
	struct abi_bpf *skel = skel_load();
	struct io_uring_cqe cqe;
	struct io_uring ring;
	int link;

	restricted_ring(&ring, ops, ARRAY_SIZE(ops));
	link = kind_attach_ok(&ring, skel->progs.nothing, 0);
	run_bpf_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, -EACCES);
	CHECK_EQ(skel->bss->runs, 0);

	/* control: a NOP goes */
	uring_prep_nop(&ring, UD_NOP, 0);
	uring_submit(&ring, 1);
	uring_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_NOP, 0);
	abi_down(&ring, skel, link);
}
