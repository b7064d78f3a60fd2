// SPDX-License-Identifier: MIT
/* The hardening suite, item 4. reattach (hardening.h) */
#include "hardening.h"


/* READ of the empty pipe @rfd -HARDLINK-> BPF(0): both wait for data */
static void read_then_bpf(struct io_uring *ring, int rfd, char *buf)
{
	struct io_uring_sqe *sqe = uring_sqe(ring);
	struct io_uring_cqe *cqe;

	io_uring_prep_read(sqe, rfd, buf, 8, 0);
	sqe->flags = IOSQE_IO_HARDLINK;
	sqe->user_data = UD_READ;
	uring_prep_bpf(ring, 0, UD_BPF);
	uring_submit(ring, 2);
	CHECK_EQ(uring_wait_cqe_ms(ring, &cqe, URING_NO_CQE_MS), -ETIME);
}

IOCORO_CASE(reattach)
{
	struct hardening_bpf *skel = skel_load();
	struct io_uring_cqe cqes[2];
	struct io_uring ring;
	static char buf[8];
	int p[2];

	uring_init(&ring, 8, 0);
	CHECK_SYS(pipe2(p, O_CLOEXEC));
	skel->bss->ta_ret = 111;
	skel->bss->tb_ret = 222;

	/* prepared against table A, run after A was replaced by B */
	attach1(&ring, skel->progs.tag_a);
	read_then_bpf(&ring, p[0], buf);
	CHECK_EQ(uring_detach(&ring), 0);
	attach1(&ring, skel->progs.tag_b);
	uring_write_byte(p[1], 'x');
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_READ, 1);
	EXPECT_CQE(cqes, 2, UD_BPF, -EBADF);
	CHECK_EQ(skel->bss->ta_runs, 0);
	CHECK_EQ(skel->bss->tb_runs, 0);

	/* prepared against B, run with no table */
	read_then_bpf(&ring, p[0], buf);
	CHECK_EQ(uring_detach(&ring), 0);
	uring_write_byte(p[1], 'x');
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_READ, 1);
	EXPECT_CQE(cqes, 2, UD_BPF, -EBADF);
	CHECK_EQ(skel->bss->ta_runs, 0);
	CHECK_EQ(skel->bss->tb_runs, 0);

	/* prepared against B and run with B: runs */
	attach1(&ring, skel->progs.tag_b);
	read_then_bpf(&ring, p[0], buf);
	uring_write_byte(p[1], 'x');
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_READ, 1);
	EXPECT_CQE(cqes, 2, UD_BPF, 222);
	CHECK_EQ(skel->bss->ta_runs, 0);
	CHECK_EQ(skel->bss->tb_runs, 1);

	close(p[0]);
	close(p[1]);
	io_uring_queue_exit(&ring);
	hardening_bpf__destroy(skel);
}
