// SPDX-License-Identifier: MIT
/* 0001 BPF_PROG_TYPE_IOURING needs CAP_BPF; rings with restrictions */
#include "abi.h"

/*
 * A restricted ring (NOP and BPF SQEs; ATTACH_BPF and ENABLE_RINGS): the
 * WRITE a program queues is refused with -EACCES like one from user space,
 * and the file is untouched.
 */
IOCORO_CASE(restrictions)
{
	static const char orig[] = "original content\n";
	static const char evil[] = "EVIL";
	struct io_uring_restriction res[4];
	struct abi_bpf *skel = skel_load();
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	int fd, file;

	file = tmp_file();
	CHECK_EQ(CHECK_SYS(write(file, orig, sizeof(orig) - 1)),
		 sizeof(orig) - 1);

	uring_init(&ring, 8, IORING_SETUP_R_DISABLED);
	memset(res, 0, sizeof(res));
	res[0].opcode = IORING_RESTRICTION_SQE_OP;
	res[0].sqe_op = IORING_OP_NOP;
	res[1].opcode = IORING_RESTRICTION_SQE_OP;
	res[1].sqe_op = IORING_OP_BPF;
	res[2].opcode = IORING_RESTRICTION_REGISTER_OP;
	res[2].register_op = IORING_ATTACH_BPF;
	res[3].opcode = IORING_RESTRICTION_REGISTER_OP;
	res[3].register_op = IORING_REGISTER_ENABLE_RINGS;
	/*
	 * raw: Debian's liburing 2.3 declares io_uring_register_restrictions()
	 * and io_uring_enable_rings() but does not export them
	 */
	CHECK_EQ(uring_register(ring.ring_fd, IORING_REGISTER_RESTRICTIONS,
				res, 4), 0);
	CHECK_EQ(uring_register(ring.ring_fd, IORING_REGISTER_ENABLE_RINGS,
				NULL, 0), 0);

	/* register ops are restricted now: ATTACH allowed, DETACH not */
	fd = uring_prog_fd(skel->progs.q_write);
	CHECK_EQ(uring_attach(&ring, &fd, 1), 0);
	CHECK_EQ(uring_detach(&ring), -EACCES);

	/* control: user space may not write either */
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
	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
}

/* without CAP_BPF and CAP_SYS_ADMIN an iouring program cannot be loaded */
IOCORO_CASE(unpriv_load)
{
	int old = allow_unpriv_bpf();
	pid_t pid = fork_child();
	int status;

	if (pid == 0) {
		int fd;

		/* control: privileged, it loads */
		close(load_raw_ok(BPF_PROG_TYPE_IOURING, "priv"));

		drop_bpf_caps();
		/* control: unprivileged BPF as such works */
		close(load_raw_ok(BPF_PROG_TYPE_SOCKET_FILTER, "unpriv_sf"));
		fd = load_raw(BPF_PROG_TYPE_IOURING, "unpriv");
		if (fd >= 0)
			FAIL("unprivileged load of an iouring program "
			     "succeeded (fd %d)", fd);
		CHECK_EQ(fd, -EPERM);
		exit(0);
	}
	status = reap_child(pid);
	restore_unpriv_bpf(old);
	check_child(status);
}

/*
 * without CAP_BPF and CAP_SYS_ADMIN a program loaded before dropping them
 * cannot be attached
 */
IOCORO_CASE(unpriv_attach)
{
	struct abi_bpf *skel = skel_load();
	pid_t pid = fork_child();

	if (pid == 0) {
		struct io_uring ring;
		int fd = uring_prog_fd(skel->progs.nothing);

		/* control: privileged, it attaches */
		uring_init(&ring, 8, 0);
		CHECK_EQ(uring_attach(&ring, &fd, 1), 0);
		io_uring_queue_exit(&ring);

		drop_bpf_caps();
		uring_init(&ring, 8, 0);
		CHECK_EQ(uring_attach(&ring, &fd, 1), -EPERM);
		CHECK_EQ(uring_detach(&ring), -ENXIO);
		CHECK_EQ(run_bpf(&ring, 0), -EBADF);
		io_uring_queue_exit(&ring);
		exit(0);
	}
	wait_child(pid);
	abi_bpf__destroy(skel);
}
