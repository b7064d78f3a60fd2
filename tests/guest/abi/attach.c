// SPDX-License-Identifier: MIT
/* 0002 IORING_ATTACH_BPF / IORING_DETACH_BPF and the ring's fdinfo */
#include "abi.h"

/* nr 0 -> EINVAL, nothing attached */
IOCORO_CASE(attach_nr_zero)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring ring;
	int fds[1];

	uring_init(&ring, 8, 0);
	fds[0] = uring_prog_fd(skel->progs.nothing);
	CHECK_EQ(uring_attach(&ring, fds, 0), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	check_fdinfo(&ring, 0, NULL, 0);
	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
}

/* nr 65 and nr UINT_MAX -> EINVAL, nothing attached */
IOCORO_CASE(attach_nr_too_big)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring ring;
	int fds[MAX_PROGS + 1];
	unsigned int i;

	uring_init(&ring, 8, 0);
	for (i = 0; i < ARRAY_SIZE(fds); i++)
		fds[i] = uring_prog_fd(skel->progs.nothing);
	CHECK_EQ(uring_attach(&ring, fds, MAX_PROGS + 1), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	CHECK_EQ(uring_attach(&ring, fds, ~0U), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
}

/* nr 64 works; every slot runs; index 64 is out of the table */
IOCORO_CASE(attach_nr_max)
{
	struct abi_bpf *skel = skel_load();
	struct fdinfo_prog progs[MAX_PROGS];
	int fds[MAX_PROGS];
	struct io_uring ring;
	__u32 id;
	unsigned int i;

	uring_init(&ring, 8, 0);
	id = prog_id(uring_prog_fd(skel->progs.nothing));
	for (i = 0; i < MAX_PROGS; i++) {
		fds[i] = uring_prog_fd(skel->progs.nothing);
		progs[i] = (struct fdinfo_prog){ i, id, "nothing" };
	}
	CHECK_EQ(uring_attach(&ring, fds, MAX_PROGS), 0);
	check_fdinfo(&ring, MAX_PROGS, progs, MAX_PROGS);

	CHECK_EQ(run_bpf(&ring, 0), 0);
	CHECK_EQ(run_bpf(&ring, MAX_PROGS - 1), 0);
	CHECK_EQ(skel->bss->runs, 2);
	CHECK_EQ(run_bpf(&ring, MAX_PROGS), -EBADF);
	CHECK_EQ(skel->bss->runs, 2);

	CHECK_EQ(uring_detach(&ring), 0);
	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
}

/* arg NULL -> EINVAL, nothing attached */
IOCORO_CASE(attach_null_arg)
{
	struct io_uring ring;

	uring_init(&ring, 8, 0);
	CHECK_EQ(uring_attach(&ring, NULL, 1), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	CHECK_EQ(uring_attach(&ring, NULL, 0), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	io_uring_queue_exit(&ring);
}

/* a program of another type (socket filter) -> EINVAL */
IOCORO_CASE(attach_wrong_type)
{
	struct io_uring ring;
	int fd;

	uring_init(&ring, 8, 0);
	fd = load_raw_ok(BPF_PROG_TYPE_SOCKET_FILTER, "sockfilter");
	CHECK_EQ(uring_attach(&ring, &fd, 1), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	close(fd);

	/* the same program as an iouring one is accepted (control) */
	fd = load_raw_ok(BPF_PROG_TYPE_IOURING, "raw_iouring");
	CHECK_EQ(uring_attach(&ring, &fd, 1), 0);
	CHECK_EQ(uring_detach(&ring), 0);
	close(fd);
	io_uring_queue_exit(&ring);
}

/*
 * An open fd that is not a BPF program -> EINVAL, as everywhere in
 * bpf(2) (__bpf_prog_get(): EBADF only for an fd that is not open).
 */
IOCORO_CASE(attach_not_bpf_fd)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring ring;
	int fd;

	uring_init(&ring, 8, 0);
	fd = devnull();
	CHECK_EQ(uring_attach(&ring, &fd, 1), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	close(fd);

	/* a BPF fd, but a map's */
	fd = bpf_map__fd(skel->maps.bss);
	CHECK(fd >= 0);
	CHECK_EQ(uring_attach(&ring, &fd, 1), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);

	/* the ring's own fd */
	CHECK_EQ(uring_attach(&ring, &ring.ring_fd, 1), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
}

/* closed fds and negative fds other than -1 -> EBADF */
IOCORO_CASE(attach_bad_fd)
{
	struct io_uring ring;
	int fd;

	uring_init(&ring, 8, 0);
	fd = uring_closed_fd();
	CHECK_EQ(uring_attach(&ring, &fd, 1), -EBADF);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	fd = -2;
	CHECK_EQ(uring_attach(&ring, &fd, 1), -EBADF);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	fd = 1 << 20;
	CHECK_EQ(uring_attach(&ring, &fd, 1), -EBADF);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	io_uring_queue_exit(&ring);
}

/* a failure at index 1 after a good index 0 leaves nothing attached */
IOCORO_CASE(attach_partial_failure)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring ring;
	int sf, fds[3];

	uring_init(&ring, 8, 0);
	sf = load_raw_ok(BPF_PROG_TYPE_SOCKET_FILTER, "sockfilter");

	fds[0] = uring_prog_fd(skel->progs.nothing);
	fds[1] = sf;
	CHECK_EQ(uring_attach(&ring, fds, 2), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	check_fdinfo(&ring, 0, NULL, 0);
	CHECK_EQ(run_bpf(&ring, 0), -EBADF);

	fds[1] = uring_closed_fd();
	CHECK_EQ(uring_attach(&ring, fds, 2), -EBADF);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	CHECK_EQ(run_bpf(&ring, 0), -EBADF);

	/* after a hole */
	fds[1] = -1;
	fds[2] = sf;
	CHECK_EQ(uring_attach(&ring, fds, 3), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	CHECK_EQ(run_bpf(&ring, 0), -EBADF);
	CHECK_EQ(skel->bss->runs, 0);

	/* the ring is still usable: a good attach works */
	CHECK_EQ(uring_attach(&ring, fds, 2), 0);
	CHECK_EQ(run_bpf(&ring, 0), 0);
	CHECK_EQ(skel->bss->runs, 1);

	close(sf);
	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
}

/* attaching twice -> EBUSY, the first table stays */
IOCORO_CASE(attach_busy)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring ring;
	int fd;

	ring_with_prog(&ring, 8, 0, skel->progs.nothing);
	fd = uring_prog_fd(skel->progs.q_nop);
	CHECK_EQ(uring_attach(&ring, &fd, 1), -EBUSY);

	check_fdinfo(&ring, 1,
		     &(struct fdinfo_prog){
			     0, prog_id(uring_prog_fd(skel->progs.nothing)),
			     "nothing" },
		     1);
	/* index 0 is still "nothing": it runs and queues no NOP */
	skel->bss->nop_ud = UD_NOP;
	CHECK_EQ(run_bpf(&ring, 0), 0);
	CHECK_EQ(skel->bss->runs, 1);
	CHECK_EQ(skel->bss->nr_rc, 0);

	/* after a detach, attaching works again */
	CHECK_EQ(uring_detach(&ring), 0);
	CHECK_EQ(uring_attach(&ring, &fd, 1), 0);
	CHECK_EQ(uring_detach(&ring), 0);
	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
}

/* DETACH with an arg or nr -> EINVAL and the table stays */
IOCORO_CASE(detach_args)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring ring;
	int fd;

	uring_init(&ring, 8, 0);
	fd = uring_prog_fd(skel->progs.nothing);
	CHECK_EQ(uring_attach(&ring, &fd, 1), 0);

	CHECK_EQ(uring_register(ring.ring_fd, IORING_DETACH_BPF, &fd, 0),
		 -EINVAL);
	CHECK_EQ(uring_register(ring.ring_fd, IORING_DETACH_BPF, NULL, 1),
		 -EINVAL);
	CHECK_EQ(uring_register(ring.ring_fd, IORING_DETACH_BPF, &fd, 1),
		 -EINVAL);
	CHECK_EQ(run_bpf(&ring, 0), 0);
	CHECK_EQ(skel->bss->runs, 1);

	CHECK_EQ(uring_detach(&ring), 0);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	CHECK_EQ(run_bpf(&ring, 0), -EBADF);
	CHECK_EQ(skel->bss->runs, 1);
	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
}

/* DETACH on a ring that never had a table -> ENXIO */
IOCORO_CASE(detach_none)
{
	struct io_uring ring;

	uring_init(&ring, 8, 0);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	io_uring_queue_exit(&ring);
}

/* fdinfo: BpfProgs and one line per program, holes left out */
IOCORO_CASE(fdinfo)
{
	struct abi_bpf *skel = skel_load();
	struct fdinfo_prog progs[2];
	struct io_uring ring;
	int fds[3];

	uring_init(&ring, 8, 0);
	check_fdinfo(&ring, 0, NULL, 0);

	fds[0] = uring_prog_fd(skel->progs.nothing);
	fds[1] = -1;
	fds[2] = uring_prog_fd(skel->progs.q_wr_fsync);
	progs[0] = (struct fdinfo_prog){ 0, prog_id(fds[0]), "nothing" };
	progs[1] = (struct fdinfo_prog){ 2, prog_id(fds[2]), "q_wr_fsync" };
	CHECK(progs[0].id != progs[1].id);
	CHECK_EQ(uring_attach(&ring, fds, 3), 0);
	check_fdinfo(&ring, 3, progs, 2);

	CHECK_EQ(uring_detach(&ring), 0);
	check_fdinfo(&ring, 0, NULL, 0);
	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
}
