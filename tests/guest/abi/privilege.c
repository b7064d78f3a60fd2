// SPDX-License-Identifier: MIT
/*
 * Privileges: loading a step needs CAP_BPF and CAP_PERFMON, attaching it
 * CAP_BPF, starting it the attacher's uid or CAP_BPF; rings with
 * restrictions (IORING_REGISTER_RESTRICTIONS) hold for IORING_OP_BPF and
 * for the SQEs a step queues
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

	close(link);
	close(file);
	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
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
	close(link);
	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
}

/*
 * without CAP_BPF and CAP_SYS_ADMIN a step cannot be loaded, nor without
 * CAP_PERFMON (struct_ops is a perfmon program type) even with CAP_BPF
 */
IOCORO_CASE(unpriv_load)
{
	int old = allow_unpriv_bpf();
	pid_t pid = fork_child();
	int status;

	if (pid == 0) {
		static const int perfmon[] = { CAP_PERFMON, CAP_SYS_ADMIN };
		int fd;

		/* control: privileged, it loads */
		fd = load_raw_step("priv");
		if (fd < 0)
			FAIL("privileged load of a step: %d (%s)", fd,
			     strerror(-fd));
		close(fd);

		drop_caps(perfmon, ARRAY_SIZE(perfmon));
		fd = load_raw_step("no_perfmon");
		if (fd >= 0)
			FAIL("a step loaded without CAP_PERFMON (fd %d)", fd);
		CHECK_EQ(fd, -EPERM);

		drop_bpf_caps();
		/* control: unprivileged BPF as such works */
		close(load_raw_ok(BPF_PROG_TYPE_SOCKET_FILTER, "unpriv_sf"));
		fd = load_raw_step("unpriv");
		if (fd >= 0)
			FAIL("unprivileged load of a step succeeded (fd %d)",
			     fd);
		CHECK_EQ(fd, -EPERM);
		exit(0);
	}
	status = reap_child(pid);
	restore_unpriv_bpf(old);
	check_child(status);
}

/*
 * without CAP_BPF and CAP_SYS_ADMIN a step loaded before dropping them
 * cannot be attached: not through libiocoro (its map needs CAP_BPF), and
 * not with a map made before (the kind's reg() checks bpf_capable())
 */
IOCORO_CASE(unpriv_attach)
{
	struct abi_bpf *skel = skel_load();
	pid_t pid = fork_child();

	if (pid == 0) {
		struct io_uring ring;
		int link, map, prog = bpf_program__fd(skel->progs.nothing);

		/* control: privileged, it attaches */
		uring_init(&ring, 8, 0);
		link = kind_attach_ok(&ring, skel->progs.nothing, 0);
		close(link);
		map = kind_map_raw(ring.ring_fd, prog, 0);
		CHECK(map >= 0);

		drop_bpf_caps();
		CHECK_EQ(kind_attach(ring.ring_fd, skel->progs.nothing, 0),
			 -EPERM);
		CHECK_EQ(kind_link_raw(map), -EPERM);
		CHECK_EQ(run_bpf(&ring, 0), -EBADF);
		CHECK_EQ(skel->bss->runs, 0);
		close(map);
		io_uring_queue_exit(&ring);
		exit(0);
	}
	wait_child(pid);
	abi_bpf__destroy(skel);
}

/*
 * A start from user space needs the kind's attacher's effective uid or
 * CAP_BPF: a task with neither is refused (-EPERM), its step not run.
 */
IOCORO_CASE(unpriv_start)
{
	struct abi_bpf *skel = skel_load();
	pid_t pid = fork_child();

	if (pid == 0) {
		struct io_uring ring;
		int link;

		/* attached as root with every capability */
		CHECK_EQ(geteuid(), 0);
		link = ring_with_kind(&ring, 8, 0, skel->progs.nothing);
		CHECK_EQ(run_bpf(&ring, 0), 0);
		CHECK_EQ(skel->bss->runs, 1);

		/* control: without CAP_BPF, as the attacher's uid */
		drop_bpf_caps();
		CHECK_EQ(run_bpf(&ring, 0), 0);
		CHECK_EQ(skel->bss->runs, 2);

		CHECK_SYS(setresgid(65534, 65534, 65534));
		CHECK_SYS(setresuid(65534, 65534, 65534));
		CHECK_EQ(run_bpf(&ring, 0), -EPERM);
		CHECK_EQ(skel->bss->runs, 2);
		close(link);
		io_uring_queue_exit(&ring);
		exit(0);
	}
	wait_child(pid);
	CHECK_EQ(skel->bss->runs, 2);
	abi_bpf__destroy(skel);
}
