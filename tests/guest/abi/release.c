// SPDX-License-Identifier: MIT
/*
 * The lifetime of kinds: the link holds its step, the ring holds neither;
 * who releases what, in any order
 */
#include "abi.h"

/* @c on abi.bpf.c's nothing: the program's id */
static __u32 nothing_up(struct abi_case *c)
{
	abi_up(c, "nothing");
	return prog_id(bpf_program__fd(c->skel->progs.nothing));
}

/* ring closed with a kind attached, then the program fds, then the link */
IOCORO_CASE(release_ring_first)
{
	struct abi_case c;
	struct iocoro co;
	__u32 id = nothing_up(&c);

	CHECK_EQ(run_bpf(&c.ring, 0), 0);
	abi_down(&c.ring, c.skel, -1);
	uring_sleep_ms(100);
	check_prog_alive(id); /* the link's */

	/* the link outlives its ring, detached: no update */
	c.skel = skel_load();
	memset(&co, 0, sizeof(co));
	co.ring.ring_fd = -1;
	CHECK_EQ(iocoro_kind_update(c.link, &co, c.skel->progs.nothing, 0),
		 -ENOLINK);
	abi_bpf__destroy(c.skel);
	check_prog_alive(id);
	close(c.link);
	wait_prog_gone(id);
}

/* program fds closed first: the link keeps the step, which still runs */
IOCORO_CASE(release_prog_first)
{
	struct abi_case c;
	__u32 id = nothing_up(&c);

	/* the counter is in the object's .bss, which goes with it: not read */
	abi_bpf__destroy(c.skel);
	uring_sleep_ms(200);
	check_prog_alive(id); /* held by the link */
	CHECK_EQ(run_bpf(&c.ring, 0), 0);
	close(c.link);
	wait_prog_gone(id); /* with the ring still open */
	CHECK_EQ(run_bpf(&c.ring, 0), -EBADF);
	io_uring_queue_exit(&c.ring);
}

/* the link closed first: the kind is free at once, the step is the fd's */
IOCORO_CASE(release_link_first)
{
	struct abi_case c;
	__u32 id = nothing_up(&c);

	close(c.link);
	CHECK_EQ(run_bpf(&c.ring, 0), -EBADF);
	CHECK_EQ(c.skel->bss->runs, 0);
	check_prog_alive(id);
	abi_bpf__destroy(c.skel);
	wait_prog_gone(id); /* with the ring still open */
	io_uring_queue_exit(&c.ring);
}

/* failed attaches keep no reference */
IOCORO_CASE(release_failed_attach)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring ring;
	int link, fd;
	__u32 id;

	fd = load_raw_step("rel_failed");
	CHECK(fd >= 0);
	id = prog_id(fd);
	link = ring_with_kind(&ring, 8, 0, skel->progs.nothing);
	/* a taken kind, no ring, a kind out of range */
	CHECK_EQ(kind_attach_raw(ring.ring_fd, fd, 0), -EBUSY);
	CHECK_EQ(kind_attach_raw(uring_closed_fd(), fd, 1), -EBADF);
	CHECK_EQ(kind_attach_raw(ring.ring_fd, fd, MAX_KINDS), -E2BIG);
	close(fd);
	wait_prog_gone(id); /* with the ring and the other kind still there */
	CHECK_EQ(run_bpf(&ring, 0), 0);
	CHECK_EQ(skel->bss->runs, 1);
	abi_down(&ring, skel, link);
}

/*
 * The ring is closed while requests are pending: a start linked after a
 * pipe read, and a pipe read queued by a step. Everything is cancelled
 * and freed, the step too once its link and fds go.
 */
IOCORO_CASE(release_pending_request)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring_cqe cqe;
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	char byte[2];
	int link, pfd[2];
	__u32 id;

	CHECK_SYS(pipe2(pfd, O_CLOEXEC));
	id = prog_id(bpf_program__fd(skel->progs.q_map));
	link = ring_with_kind(&ring, 8, 0, skel->progs.q_map);
	io_uring_prep_read(&skel->bss->map_sqes[0], pfd[0], &byte[0], 1, 0);
	skel->bss->map_sqes[0].user_data = UD_READ;
	skel->bss->map_nr = 1;

	/* the step queues a read that stays pending */
	run_bpf_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, 0);
	CHECK_EQ(skel->bss->rc[0], 0);

	/* a start waiting for a read */
	sqe = uring_sqe(&ring);
	io_uring_prep_read(sqe, pfd[0], &byte[1], 1, 0);
	sqe->user_data = UD_READ + 1;
	sqe->flags = IOSQE_IO_LINK;
	uring_prep_start(&ring, 0, UD_BPF2);
	uring_submit(&ring, 2);
	expect_no_cqe(&ring);

	io_uring_queue_exit(&ring);
	uring_sleep_ms(100);
	check_prog_alive(id); /* the link's and the object's */
	close(link);
	abi_bpf__destroy(skel);
	wait_prog_gone(id);
	close(pfd[0]);
	close(pfd[1]);
}
