// SPDX-License-Identifier: MIT
/*
 * IOSQE_IO_DRAIN: drain cannot account for the requests steps submit
 * (A = IORING_OP_BPF, whose step queues a NOP, and B = NOP with
 * IOSQE_IO_DRAIN in one io_uring_enter() would wait for each other), so a
 * ring that has had a kind attached refuses IOSQE_IO_DRAIN (-EOPNOTSUPP,
 * as with IOSQE_CQE_SKIP_SUCCESS), and a kind's attach is refused while
 * drained requests wait (-EBUSY). Step qbatch of kinds.bpf.c, queuing one
 * NOP.
 */
#include "kinds.h"

#define UD_B 0xb
#define UD_PROG_NOP 0xc
#define UD_LATER 0xd

/* kinds.bpf.c loaded; qbatch's batch 0 is one NOP, user_data UD_PROG_NOP */
static struct kinds_bpf *dr_load(void)
{
	struct kinds_bpf *skel = kinds_load();

	qb_nop(skel, 0, 0, 0, UD_PROG_NOP);
	return skel;
}

IOCORO_CASE(drain_after_bpf)
{
	struct kinds_bpf *skel = dr_load();
	struct iocoro co;
	struct io_uring *ring = &co.ring;
	int link = uring_co_attach(&co, 8, 0, skel->progs.qbatch, K_MAIN);
	struct io_uring_cqe cqes[3];

	prep_qbatch(ring, 0);
	uring_prep_nop(ring, UD_B, IOSQE_IO_DRAIN);
	uring_submit(ring, 2);
	/* A, its NOP, and B, refused: nothing waits for anything */
	uring_reap(ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_BPF | 0, 0);
	EXPECT_CQE(cqes, 3, UD_PROG_NOP, 0);
	EXPECT_CQE(cqes, 3, UD_B, -EOPNOTSUPP);
	CHECK_EQ(skel->bss->qb_runs, 1);
	qb_check_queued(skel, 0);

	/* the ring goes on */
	uring_prep_nop(ring, UD_LATER, 0);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 1);
	EXPECT_CQE(cqes, 1, UD_LATER, 0);
	close(link);
	io_uring_queue_exit(ring);
	kinds_bpf__destroy(skel);
}

/* a drained request still waits: no kind yet */
IOCORO_CASE(drain_attach_busy)
{
	struct kinds_bpf *skel = dr_load();
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;
	struct io_uring *ring;
	struct iocoro co;
	int p[2], link;
	char buf[8];

	uring_co_init(&co, 8, 0);
	ring = &co.ring;
	CHECK_SYS(pipe2(p, O_CLOEXEC));
	sqe = uring_sqe(ring);
	io_uring_prep_read(sqe, p[0], buf, sizeof(buf), 0);
	sqe->user_data = UD_READ;
	uring_prep_nop(ring, UD_B, IOSQE_IO_DRAIN);
	uring_submit(ring, 2);

	CHECK_EQ(iocoro_kind_attach(&co, skel->progs.qbatch, K_MAIN), -EBUSY);
	/* the drain ends, and the kind can come */
	CHECK_SYS(write(p[1], "x", 1));
	uring_reap(ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_READ, 1);
	EXPECT_CQE(cqes, 2, UD_B, 0);
	link = uring_attach(&co, skel->progs.qbatch, K_MAIN);
	/* and drain is refused from then on */
	uring_prep_nop(ring, UD_B, IOSQE_IO_DRAIN);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 1);
	EXPECT_CQE(cqes, 1, UD_B, -EOPNOTSUPP);
	/* even once the kind is gone: drain never counted its CQEs */
	close(link);
	uring_prep_nop(ring, UD_B, IOSQE_IO_DRAIN);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 1);
	EXPECT_CQE(cqes, 1, UD_B, -EOPNOTSUPP);
	close(p[0]);
	close(p[1]);
	io_uring_queue_exit(ring);
	kinds_bpf__destroy(skel);
}
