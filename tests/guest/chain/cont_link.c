// SPDX-License-Identifier: MIT
/*
 * A request that carries a continuation, at the head of a link
 * (cont_link.bpf.c). The step's result is the request's, but a link its
 * operation broke stays broken: the rest of the link runs only if both
 * the operation and the step succeeded (or the link is hard). A failed
 * IOSQE_CQE_SKIP_SUCCESS operation skips the CQEs of the link it breaks,
 * as io_uring does. A later member of the link that fails its prep fails
 * the head unissued; its step's 0 must not get the member issued
 * unprepared (the ABI fuzzer's WARNING in io_fsync(), oops in path_init()
 * for GETXATTR).
 */
#include "chain.h"
#include "cont_link.skel.h"

#define UD_START 0x1
#define UD_A 0xa
#define UD_B 0xb

static struct cont_link_bpf *cl_setup(struct iocoro *co)
{
	struct cont_link_bpf *skel;

	chain_ring(co, 8);
	skel = SKEL_OPEN(cont_link_bpf);
	CHECK_EQ(CHECK_RET(iocoro_skel_load(co, skel->skeleton, NULL)), 2);
	skel->bss->cl_step_kind =
		CHECK_RET(iocoro_prog_index(skel->obj, skel->progs.cl_step));
	return skel;
}

static void cl_teardown(struct iocoro *co, struct cont_link_bpf *skel)
{
	iocoro_queue_exit(co);
	cont_link_bpf__destroy(skel);
}

/*
 * Start cl_start, which queues cl_sqe[0] (UD_A, continued by cl_step,
 * which returns @ret) and cl_sqe[1] (UD_B); reap @n CQEs.
 */
static void cl_run_n(struct io_uring *ring, struct cont_link_bpf *skel,
		     int ret, struct io_uring_cqe *cqes, unsigned int n)
{
	struct io_uring_cqe *cqe;
	int start;

	skel->bss->cl_sqe[0].user_data = UD_A;
	skel->bss->cl_sqe[1].user_data = UD_B;
	skel->bss->cl_rc[0] = 1;
	skel->bss->cl_rc[1] = 1;
	skel->bss->cl_runs = 0;
	skel->bss->cl_res = 7;
	skel->bss->cl_res_ud = 7;
	skel->bss->cl_ret = ret;
	start = CHECK_RET(iocoro_prog_index(skel->obj, skel->progs.cl_start));
	uring_prep_start(ring, start, UD_START);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, n);
	EXPECT_CQE(cqes, n, UD_START, 0);
	CHECK_EQ(skel->bss->cl_rc[0], 0);
	CHECK_EQ(skel->bss->cl_rc[1], 0);
	/* a step that posts nothing ran by the time the wait below ends */
	if (!skel->bss->cl_runs)
		CHECK_EQ(uring_wait_cqe_ms(ring, &cqe, 100), -ETIME);
	CHECK_EQ(skel->bss->cl_runs, 1);
	CHECK_EQ_U64(skel->bss->cl_res_ud, UD_A);
}

/* cl_run_n() of the three CQEs of UD_START, UD_A and UD_B */
static void cl_run(struct io_uring *ring, struct cont_link_bpf *skel,
		   int ret, struct io_uring_cqe cqes[3])
{
	cl_run_n(ring, skel, ret, cqes, 3);
}

/* A: a NOP with @a_flags, B: a NOP */
static void cl_nops(struct cont_link_bpf *skel, __u8 a_flags)
{
	memset(skel->bss->cl_sqe, 0, sizeof(skel->bss->cl_sqe));
	io_uring_prep_nop(&skel->bss->cl_sqe[0]);
	skel->bss->cl_sqe[0].flags = a_flags;
	io_uring_prep_nop(&skel->bss->cl_sqe[1]);
}

/* A: a READ of a closed fd with @a_flags, B: a NOP */
static void cl_bad_read(struct cont_link_bpf *skel, __u8 a_flags)
{
	static char buf[8];

	cl_nops(skel, a_flags);
	io_uring_prep_read(&skel->bss->cl_sqe[0], uring_closed_fd(), buf,
			   sizeof(buf), 0);
	skel->bss->cl_sqe[0].flags = a_flags;
}

/* cl_run() of a B that is refused (-EINVAL) before it is issued */
static void cl_run_refused(struct io_uring *ring, struct cont_link_bpf *skel,
			   struct io_uring_cqe *cqes)
{
	cl_run(ring, skel, 0, cqes);
	EXPECT_CQE(cqes, 3, UD_A, 0);
	EXPECT_CQE(cqes, 3, UD_B, -EINVAL);
}

/* B: an FSYNC of @fd whose prep refuses its non-zero addr */
static void cl_bad_fsync(struct cont_link_bpf *skel, int fd)
{
	struct io_uring_sqe *b = &skel->bss->cl_sqe[1];

	io_uring_prep_fsync(b, fd, 0);
	b->addr = 1;
}

/*
 * A later member of the link fails io_init_req() or its prep: the head
 * fails unissued (-ECANCELED, which its step sees) and the member
 * completes with its error whatever the step returns, never issued.
 * The kernel log of the case shows that nothing warned.
 */
IOCORO_CASE(cont_link_unprepared)
{
	struct io_uring_cqe cqes[3];
	struct cont_link_bpf *skel;
	struct io_uring_sqe *b;
	struct iocoro co;
	struct io_uring *ring = &co.ring;
	int fd;

	skel = cl_setup(&co);
	fd = CHECK_SYS(open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600));

	/* B: FSYNC whose prep refuses a non-zero addr */
	cl_nops(skel, IOSQE_IO_LINK);
	cl_bad_fsync(skel, fd);
	cl_run_refused(ring, skel, cqes);
	CHECK_EQ(skel->bss->cl_res, -ECANCELED);

	/* B: GETXATTR with an ioprio, refused by io_init_req() */
	cl_nops(skel, IOSQE_IO_LINK);
	b = &skel->bss->cl_sqe[1];
	memset(b, 0, sizeof(*b));
	b->opcode = IORING_OP_GETXATTR;
	b->ioprio = 1;
	cl_run_refused(ring, skel, cqes);
	CHECK_EQ(skel->bss->cl_res, -ECANCELED);

	/* a hard link is no different: B was never prepared */
	cl_nops(skel, IOSQE_IO_HARDLINK);
	cl_bad_fsync(skel, fd);
	cl_run_refused(ring, skel, cqes);

	close(fd);
	cl_teardown(&co, skel);
}

/*
 * The rest of the link runs when the operation and the step succeed (or
 * the link is hard): the step request takes the link over.
 */
IOCORO_CASE(cont_link_rules)
{
	struct io_uring_cqe cqes[3];
	struct cont_link_bpf *skel;
	struct iocoro co;
	struct io_uring *ring = &co.ring;

	skel = cl_setup(&co);

	/* both succeed: B runs */
	cl_nops(skel, IOSQE_IO_LINK);
	cl_run(ring, skel, 5, cqes);
	EXPECT_CQE(cqes, 3, UD_A, 5);
	EXPECT_CQE(cqes, 3, UD_B, 0);
	CHECK_EQ(skel->bss->cl_res, 0);

	/* the step fails: B is cancelled */
	cl_nops(skel, IOSQE_IO_LINK);
	cl_run(ring, skel, -EPROTO, cqes);
	EXPECT_CQE(cqes, 3, UD_A, -EPROTO);
	EXPECT_CQE(cqes, 3, UD_B, -ECANCELED);

	/* the operation fails, the step returns 0: B is cancelled */
	cl_bad_read(skel, IOSQE_IO_LINK);
	cl_run(ring, skel, 0, cqes);
	EXPECT_CQE(cqes, 3, UD_A, 0);
	EXPECT_CQE(cqes, 3, UD_B, -ECANCELED);
	CHECK_EQ(skel->bss->cl_res, -EBADF);

	/*
	 * with IOSQE_CQE_SKIP_SUCCESS the failed operation skips the CQEs of
	 * the link it cancels (REQ_F_SKIP_LINK_CQES), and the step's 0 posts
	 * nothing: only the start's CQE is posted
	 */
	cl_bad_read(skel, IOSQE_IO_LINK | IOSQE_CQE_SKIP_SUCCESS);
	cl_run_n(ring, skel, 0, cqes, 1);
	CHECK_EQ(skel->bss->cl_res, -EBADF);
	CHECK_EQ(io_uring_cq_ready(ring), 0);

	/* the same under a hard link: B runs */
	cl_bad_read(skel, IOSQE_IO_HARDLINK);
	cl_run(ring, skel, 0, cqes);
	EXPECT_CQE(cqes, 3, UD_A, 0);
	EXPECT_CQE(cqes, 3, UD_B, 0);
	CHECK_EQ(skel->bss->cl_res, -EBADF);

	cl_teardown(&co, skel);
}
