// SPDX-License-Identifier: MIT
/*
 * A queued SQE is the request's own: a linked IORING_OP_URING_CMD
 * (GETSOCKOPT SO_TYPE) queued by a step reads its own SQE, not the one
 * the next step wrote to the ring's SQE buffer, nor freed memory after
 * its kind's link was destroyed (KASAN). Step qbatch of kinds.bpf.c.
 */
#include "kinds.h"

/* an IORING_OP_URING_CMD GETSOCKOPT(SOL_SOCKET, @optname) into @val */
static void qb_getsockopt(struct kinds_bpf *skel, unsigned int b,
			  unsigned int i, int sock, int optname, int *val,
			  __u64 ud)
{
	struct io_uring_sqe sqe;

	memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_URING_CMD;
	sqe.fd = sock;
	sqe.cmd_op = SOCKET_URING_OP_GETSOCKOPT;
	sqe.level = SOL_SOCKET;
	sqe.optname = (__u32)optname;
	sqe.optlen = sizeof(int);
	sqe.optval = (uintptr_t)val;
	sqe.user_data = ud;
	qb_put(skel, b, i, &sqe);
}

/*
 * Batch 0: READ of an empty pipe -HARDLINK-> GETSOCKOPT(SO_TYPE) into
 * val1, so the uring_cmd is prepared at once and issued only when the pipe
 * has data. Meanwhile batch 1 (NOP, GETSOCKOPT(SO_RCVBUF) into val2) runs
 * and rewrites the ring's SQE buffer of steps, or the kind's link is
 * destroyed. Either way the first uring_cmd must answer SO_TYPE into val1.
 */
IOCORO_CASE(sqe_lifetime)
{
	static int val1, val2;
	static char buf[8];
	struct kinds_bpf *skel = kinds_load();
	struct io_uring_cqe cqes[3];
	struct io_uring *ring;
	struct iocoro co;
	int p[2], sock, link;

	link = uring_co_attach(&co, 16, 0, skel->progs.qbatch, K_MAIN);
	ring = &co.ring;
	/* a datagram socket; its SO_TYPE is SOCK_DGRAM */
	sock = CHECK_SYS(socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0));
	CHECK_SYS(pipe2(p, O_CLOEXEC));

	qb_read(skel, 0, 0, p[0], buf, sizeof(buf), IOSQE_IO_HARDLINK, UD_READ);
	qb_getsockopt(skel, 0, 1, sock, SO_TYPE, &val1, UD_CMD1);
	qb_nop(skel, 1, 0, 0, UD_NOP);
	qb_getsockopt(skel, 1, 1, sock, SO_RCVBUF, &val2, UD_CMD2);

	/* the next step overwrites the SQE buffer */
	val1 = val2 = -1;
	prep_qbatch(ring, 0);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 1);
	EXPECT_CQE(cqes, 1, UD_BPF | 0, 0);
	qb_check_queued(skel, 0);

	prep_qbatch(ring, 1);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_BPF | 1, 0);
	EXPECT_CQE(cqes, 3, UD_NOP, 0);
	EXPECT_CQE(cqes, 3, UD_CMD2, sizeof(int));
	qb_check_queued(skel, 1);
	CHECK(val2 > 0);
	CHECK_EQ(val1, -1);
	printf("sqe_lifetime: SO_RCVBUF %d\n", val2);

	val2 = -1;
	uring_write_byte(p[1], 'x');
	uring_reap(ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_READ, 1);
	EXPECT_CQE(cqes, 2, UD_CMD1, sizeof(int));
	if (val1 != SOCK_DGRAM || val2 != -1)
		FAIL("the linked uring_cmd wrote val1 %d (want SOCK_DGRAM %d), "
		     "val2 %d (want -1): it read the next step's SQE", val1,
		     SOCK_DGRAM, val2);

	/* the link destroyed before the uring_cmd is issued */
	val1 = -1;
	prep_qbatch(ring, 0);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 1);
	EXPECT_CQE(cqes, 1, UD_BPF | 0, 0);
	CHECK_SYS(close(link));
	uring_write_byte(p[1], 'y');
	uring_reap(ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_READ, 1);
	EXPECT_CQE(cqes, 2, UD_CMD1, sizeof(int));
	CHECK_EQ(val1, SOCK_DGRAM);
	CHECK_EQ(val2, -1);

	close(sock);
	close(p[0]);
	close(p[1]);
	io_uring_queue_exit(&co.ring);
	kinds_bpf__destroy(skel);
}
