// SPDX-License-Identifier: MIT
/*
 * A kind replaced or detached under a waiting start: a start waiting in a
 * link whose kind's link is destroyed completes with -EBADF, its step not
 * run; BPF_LINK_UPDATE, or a new link of the kind, while it waits runs
 * the kind's program then attached. Steps tag_a and tag_b of kinds.bpf.c.
 */
#include "kinds.h"

/* READ of the empty pipe @rfd -HARDLINK-> a start of K_MAIN: both wait */
static void read_then_start(struct io_uring *ring, int rfd, char *buf)
{
	struct io_uring_sqe *sqe = uring_sqe(ring);
	struct io_uring_cqe *cqe;

	io_uring_prep_read(sqe, rfd, buf, 8, 0);
	sqe->flags = IOSQE_IO_HARDLINK;
	sqe->user_data = UD_READ;
	uring_prep_start(ring, K_MAIN, UD_BPF);
	uring_submit(ring, 2);
	CHECK_EQ(uring_wait_cqe_ms(ring, &cqe, URING_NO_CQE_MS), -ETIME);
}

/*
 * the pipe gets a byte: the READ's CQE and the start's with @res; tag_a
 * and tag_b have run @ta and @tb times in all
 */
static void release(struct io_uring *ring, struct kinds_bpf *skel, int wfd,
		    int res, int ta, int tb)
{
	struct io_uring_cqe cqes[2];

	uring_write_byte(wfd, 'x');
	uring_reap(ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_READ, 1);
	EXPECT_CQE(cqes, 2, UD_BPF, res);
	CHECK_EQ(skel->bss->ta_runs, ta);
	CHECK_EQ(skel->bss->tb_runs, tb);
}

/*
 * A start needs its kind attached when it is submitted; once the READ it
 * is linked after completed, it runs the kind's program attached then:
 * none (the link destroyed: -EBADF, nothing runs), the one
 * BPF_LINK_UPDATE put in its place, or that of a new link of the kind.
 */
IOCORO_CASE(reattach)
{
	struct kinds_bpf *skel = kinds_load();
	struct io_uring *ring;
	static char buf[8];
	struct iocoro co;
	int p[2], la, lb;

	uring_co_init(&co, 8, 0);
	ring = &co.ring;
	CHECK_SYS(pipe2(p, O_CLOEXEC));
	skel->bss->ta_ret = 111;
	skel->bss->tb_ret = 222;

	/* prepared against tag_a, its link destroyed: no kind K_MAIN */
	la = uring_attach(&co, skel->progs.tag_a, K_MAIN);
	read_then_start(ring, p[0], buf);
	CHECK_SYS(close(la));
	release(ring, skel, p[1], -EBADF, 0, 0);

	/* BPF_LINK_DETACH with the fd still open: the same */
	la = uring_attach(&co, skel->progs.tag_a, K_MAIN);
	read_then_start(ring, p[0], buf);
	CHECK_EQ(bpf_link_detach(la), 0);
	release(ring, skel, p[1], -EBADF, 0, 0);
	CHECK_SYS(close(la));

	/* prepared against tag_a, its link updated to tag_b: tag_b runs */
	la = uring_attach(&co, skel->progs.tag_a, K_MAIN);
	read_then_start(ring, p[0], buf);
	CHECK_RET(iocoro_kind_update(la, &co, skel->progs.tag_b, K_MAIN));
	release(ring, skel, p[1], 222, 0, 1);
	CHECK_SYS(close(la));

	/* prepared against tag_a, then a new link of tag_b as K_MAIN */
	la = uring_attach(&co, skel->progs.tag_a, K_MAIN);
	read_then_start(ring, p[0], buf);
	CHECK_SYS(close(la));
	lb = uring_attach(&co, skel->progs.tag_b, K_MAIN);
	release(ring, skel, p[1], 222, 0, 2);

	/* prepared against tag_b and run with it */
	read_then_start(ring, p[0], buf);
	release(ring, skel, p[1], 222, 0, 3);

	/* and the kind's program still runs after all that */
	CHECK_SYS(close(lb));
	la = uring_attach(&co, skel->progs.tag_a, K_MAIN);
	read_then_start(ring, p[0], buf);
	release(ring, skel, p[1], 111, 1, 3);

	CHECK_SYS(close(la));
	close(p[0]);
	close(p[1]);
	io_uring_queue_exit(ring);
	kinds_bpf__destroy(skel);
}
