// SPDX-License-Identifier: MIT
/*
 * The capabilities a step needs: loading it needs CAP_BPF and CAP_PERFMON
 * (struct_ops is a perfmon program type), attaching it CAP_BPF (who may
 * start it: owner.c). Step tag_a of kinds.bpf.c.
 */
#include "kinds.h"

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
	struct kinds_bpf *skel = kinds_load();
	pid_t pid = fork_child();

	if (pid == 0) {
		int link, map, btf, prog = bpf_program__fd(skel->progs.tag_a);
		struct io_uring_cqe cqe;
		struct iocoro co;

		/* control: privileged, it attaches */
		link = uring_co_attach(&co, 8, 0, skel->progs.tag_a, K_MAIN);
		close(link);
		btf = CHECK_RET(uring_kind_btf());
		map = CHECK_RET(uring_kind_map("perm_kind", btf, prog,
					       co.ring.ring_fd, K_MAIN));

		drop_bpf_caps();
		CHECK_EQ(iocoro_kind_attach(&co, skel->progs.tag_a, K_MAIN),
			 -EPERM);
		CHECK_EQ(uring_kind_link(map), -EPERM);
		uring_prep_start(&co.ring, K_MAIN, UD_BPF);
		uring_submit(&co.ring, 1);
		uring_reap(&co.ring, &cqe, 1);
		CHECK_CQE(&cqe, UD_BPF, -EBADF);
		CHECK_EQ(skel->bss->ta_runs, 0);
		close(map);
		close(btf);
		io_uring_queue_exit(&co.ring);
		exit(0);
	}
	wait_child(pid);
	kinds_bpf__destroy(skel);
}
