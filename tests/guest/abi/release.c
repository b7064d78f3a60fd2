// SPDX-License-Identifier: MIT
/* The lifetime of attached programs: who releases what, in any order */
#include "abi.h"

/* ring closed with programs attached, then the program fd: prog freed */
IOCORO_CASE(release_ring_first)
{
	struct io_uring ring;
	int fd, fds[3];
	__u32 id;

	fd = load_raw_ok(BPF_PROG_TYPE_IOURING, "rel_ring");
	id = prog_id(fd);
	uring_init(&ring, 8, 0);
	fds[0] = fd;
	fds[1] = -1;
	fds[2] = fd;
	CHECK_EQ(uring_attach(&ring, fds, 3), 0);
	CHECK_EQ(run_bpf(&ring, 2), 0);
	io_uring_queue_exit(&ring);
	uring_sleep_ms(100);
	check_prog_alive(id); /* our fd */
	close(fd);
	wait_prog_gone(id);
}

/* program fd closed first: the ring's reference keeps it until the ring goes */
IOCORO_CASE(release_prog_first)
{
	struct io_uring ring;
	int fd;
	__u32 id;

	fd = load_raw_ok(BPF_PROG_TYPE_IOURING, "rel_prog");
	id = prog_id(fd);
	uring_init(&ring, 8, 0);
	CHECK_EQ(uring_attach(&ring, &fd, 1), 0);
	close(fd);
	uring_sleep_ms(200);
	check_prog_alive(id); /* held by the ring */
	CHECK_EQ(run_bpf(&ring, 0), 0);
	io_uring_queue_exit(&ring);
	wait_prog_gone(id);
}

/* DETACH drops the references at once, with the ring still open */
IOCORO_CASE(release_detach)
{
	struct io_uring ring;
	int fd, fds[2];
	__u32 id;

	fd = load_raw_ok(BPF_PROG_TYPE_IOURING, "rel_detach");
	id = prog_id(fd);
	uring_init(&ring, 8, 0);
	fds[0] = fds[1] = fd;
	CHECK_EQ(uring_attach(&ring, fds, 2), 0);
	close(fd);
	check_prog_alive(id);
	CHECK_EQ(uring_detach(&ring), 0);
	wait_prog_gone(id);
	CHECK_EQ(run_bpf(&ring, 0), -EBADF);
	io_uring_queue_exit(&ring);
}

/* a failed attach keeps no reference */
IOCORO_CASE(release_failed_attach)
{
	struct io_uring ring;
	int fd, sf, fds[3];
	__u32 id;

	fd = load_raw_ok(BPF_PROG_TYPE_IOURING, "rel_failed");
	sf = load_raw_ok(BPF_PROG_TYPE_SOCKET_FILTER, "sockfilter");
	id = prog_id(fd);
	uring_init(&ring, 8, 0);
	fds[0] = fd;
	fds[1] = fd;
	fds[2] = sf;
	CHECK_EQ(uring_attach(&ring, fds, 3), -EINVAL);
	fds[2] = uring_closed_fd();
	CHECK_EQ(uring_attach(&ring, fds, 3), -EBADF);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	close(fd);
	wait_prog_gone(id); /* with the ring still open */
	close(sf);
	io_uring_queue_exit(&ring);
}

/*
 * The ring is closed while requests are pending: a BPF request linked
 * after a pipe read, and a pipe read queued by a program. Everything is
 * cancelled and freed, the program too.
 */
IOCORO_CASE(release_pending_request)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring_cqe cqe;
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	char byte[2];
	int fd, pfd[2];
	__u32 id;

	CHECK_SYS(pipe2(pfd, O_CLOEXEC));
	uring_init(&ring, 8, 0);
	fd = uring_prog_fd(skel->progs.q_map);
	id = prog_id(fd);
	CHECK_EQ(uring_attach(&ring, &fd, 1), 0);
	io_uring_prep_read(&skel->bss->map_sqes[0], pfd[0], &byte[0], 1, 0);
	skel->bss->map_sqes[0].user_data = UD_READ;
	skel->bss->map_nr = 1;

	/* the program queues a read that stays pending */
	run_bpf_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, 0);
	CHECK_EQ(skel->bss->rc[0], 0);

	/* a BPF request waiting for a read */
	sqe = uring_sqe(&ring);
	io_uring_prep_read(sqe, pfd[0], &byte[1], 1, 0);
	sqe->user_data = UD_READ + 1;
	sqe->flags = IOSQE_IO_LINK;
	uring_prep_bpf(&ring, 0, UD_BPF2);
	uring_submit(&ring, 2);
	expect_no_cqe(&ring);

	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
	wait_prog_gone(id);
	close(pfd[0]);
	close(pfd[1]);
}
