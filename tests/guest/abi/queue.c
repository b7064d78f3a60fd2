// SPDX-License-Identifier: MIT
/* bpf_io_coro_queue_sqe(): SQEs a step queues */
#include "abi.h"

/* a step queues a NOP: the NOP's CQE and the BPF request's, both 0 */
IOCORO_CASE(queue_nop)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring_cqe cqes[2];
	struct io_uring ring;
	int link;

	link = ring_with_kind(&ring, 8, 0, skel->progs.q_nop);
	skel->bss->nop_ud = UD_NOP;

	run_bpf_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_NOP, 0);
	EXPECT_CQE(cqes, 2, UD_BPF, 0);
	CHECK_EQ(skel->bss->runs, 1);
	CHECK_EQ(skel->bss->nr_rc, 1);
	CHECK_EQ(skel->bss->rc[0], 0);

	/* and again: the per-run state starts over */
	uring_prep_start(&ring, 0, UD_BPF2);
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_NOP, 0);
	EXPECT_CQE(cqes, 2, UD_BPF2, 0);
	CHECK_EQ(skel->bss->runs, 2);
	CHECK_EQ(skel->bss->rc[0], 0);
	abi_down(&ring, skel, link);
}

/* SQEs queued from a map value, prepared by user space with liburing */
IOCORO_CASE(queue_from_map)
{
	struct abi_case c;
	struct io_uring_cqe cqes[3];
	struct io_uring_sqe *s;

	abi_up(&c, "q_map");

	s = &c.skel->bss->map_sqes[0];
	io_uring_prep_nop(s);
	s->user_data = UD_NOP;
	/* the whole SQE is taken: a NOP that injects its len as result */
	s = &c.skel->bss->map_sqes[1];
	io_uring_prep_nop(s);
	s->nop_flags = IORING_NOP_INJECT_RESULT;
	s->len = 1234;
	s->user_data = UD_NOP + 1;
	c.skel->bss->map_nr = 2;

	run_bpf_reap(&c.ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_NOP, 0);
	EXPECT_CQE(cqes, 3, UD_NOP + 1, 1234);
	EXPECT_CQE(cqes, 3, UD_BPF, 0);
	/* submitted in order */
	CHECK(cqe_pos(cqes, 3, UD_NOP) < cqe_pos(cqes, 3, UD_NOP + 1));
	CHECK_EQ(c.skel->bss->nr_rc, 2);
	CHECK_EQ(c.skel->bss->rc[0], 0);
	CHECK_EQ(c.skel->bss->rc[1], 0);
	abi_end(&c);
}

static const char write_data[] = "written by a BPF-queued SQE\n";
#define WRITE_LEN (sizeof(write_data) - 1)

/* a write case: the skeleton, a ring with its step as kind 0, the file */
struct write_case {
	struct abi_bpf *skel;
	struct io_uring ring;
	int link;
	int file;
};

/* @w's ring with abi.bpf.c's step @prog, set to write write_data */
static void write_setup(struct write_case *w, const char *prog)
{
	w->skel = skel_load();
	w->link = ring_with_kind(&w->ring, 8, 0,
				 bpf_object__find_program_by_name(w->skel->obj,
								  prog));
	w->file = tmp_file();
	set_write(w->skel, w->file, write_data, WRITE_LEN);
}

/*
 * @w set up with step @prog and run once: its @n CQEs in @cqes, of which
 * the write's wrote all and the start's is 0
 */
static void write_run(struct write_case *w, const char *prog,
		      struct io_uring_cqe *cqes, unsigned int n)
{
	write_setup(w, prog);
	run_bpf_reap(&w->ring, cqes, n);
	EXPECT_CQE(cqes, n, UD_WRITE, (int)WRITE_LEN);
	EXPECT_CQE(cqes, n, UD_BPF, 0);
}

static void write_end(struct write_case *w)
{
	close(w->file);
	close(w->link);
	io_uring_queue_exit(&w->ring);
	abi_bpf__destroy(w->skel);
}

/* a step queues a write to a file in /tmp */
IOCORO_CASE(queue_write)
{
	struct io_uring_cqe cqes[2];
	struct write_case w;

	write_run(&w, "q_write", cqes, 2);
	CHECK_EQ(w.skel->bss->rc[0], 0);
	check_file(w.file, write_data, WRITE_LEN);
	write_end(&w);
}

/* a step queues write -> fsync (IOSQE_IO_LINK) */
IOCORO_CASE(queue_link_write_fsync)
{
	struct io_uring_cqe cqes[3];
	struct write_case w;
	struct abi_bpf *skel;

	write_run(&w, "q_wr_fsync", cqes, 3);
	skel = w.skel;
	EXPECT_CQE(cqes, 3, UD_FSYNC, 0);
	CHECK(cqe_pos(cqes, 3, UD_WRITE) < cqe_pos(cqes, 3, UD_FSYNC));
	CHECK_EQ(skel->bss->nr_rc, 2);
	CHECK_EQ(skel->bss->rc[0], 0);
	CHECK_EQ(skel->bss->rc[1], 0);
	check_file(w.file, write_data, WRITE_LEN);

	/* the link is real: a failing write cancels the fsync */
	set_write(skel, uring_closed_fd(), write_data, WRITE_LEN);
	run_bpf_reap(&w.ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_WRITE, -EBADF);
	EXPECT_CQE(cqes, 3, UD_FSYNC, -ECANCELED);
	EXPECT_CQE(cqes, 3, UD_BPF, 0);
	CHECK(cqe_pos(cqes, 3, UD_WRITE) < cqe_pos(cqes, 3, UD_FSYNC));
	write_end(&w);
}

/* q_len queues with len 32, 128, 64: only the ring's SQE size works */
static void queue_len(unsigned int setup_flags, const long want[3])
{
	struct abi_bpf *skel = skel_load();
	struct io_uring_cqe cqes[2];
	struct io_uring ring;
	int link;

	link = ring_with_kind(&ring, 8, setup_flags, skel->progs.q_len);
	skel->bss->nop_ud = UD_NOP;

	run_bpf_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_NOP, 0);
	EXPECT_CQE(cqes, 2, UD_BPF, 0);
	CHECK_EQ(skel->bss->nr_rc, 3);
	CHECK_EQ(skel->bss->rc[0], want[0]);
	CHECK_EQ(skel->bss->rc[1], want[1]);
	CHECK_EQ(skel->bss->rc[2], want[2]);
	abi_down(&ring, skel, link);
}

IOCORO_CASE(queue_bad_len)
{
	queue_len(0, (const long[3]){ -EINVAL, -EINVAL, 0 });
}

IOCORO_CASE(queue_bad_len_sqe128)
{
	queue_len(IORING_SETUP_SQE128, (const long[3]){ -EINVAL, 0, -EINVAL });
}

/* the 33rd queue_sqe of a run -> -EBUSY; the 32 before it are submitted */
IOCORO_CASE(queue_busy)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring_cqe cqes[MAX_QUEUED + 1];
	struct io_uring ring;
	int link;
	unsigned int i;

	link = ring_with_kind(&ring, 64, 0, skel->progs.q_many);
	skel->bss->nop_ud = UD_NOP;

	run_bpf_reap(&ring, cqes, MAX_QUEUED + 1);
	for (i = 0; i < MAX_QUEUED; i++)
		EXPECT_CQE(cqes, MAX_QUEUED + 1, UD_NOP + i, 0);
	EXPECT_CQE(cqes, MAX_QUEUED + 1, UD_BPF, 0);
	/* in order */
	for (i = 1; i < MAX_QUEUED; i++)
		CHECK(cqe_pos(cqes, MAX_QUEUED + 1, UD_NOP + i - 1) <
		      cqe_pos(cqes, MAX_QUEUED + 1, UD_NOP + i));

	CHECK_EQ(skel->bss->nr_rc, NR_MANY);
	for (i = 0; i < MAX_QUEUED; i++)
		CHECK_EQ(skel->bss->rc[i], 0);
	CHECK_EQ(skel->bss->rc[MAX_QUEUED], -EBUSY);
	abi_down(&ring, skel, link);
}

/*
 * The SQEs of map_sqes[0..3] complete with the CQEs of @want when submitted
 * from @ring: by the q_map step (@ring has it as kind 0) or, with
 * @from_user, by user space on an IORING_SETUP_SUBMIT_ALL ring.
 */
struct want_cqe {
	__u64 ud;
	int res;
};

static void prep_failing_sqes(struct io_uring_sqe sqes[4])
{
	memset(sqes, 0, 4 * sizeof(sqes[0]));
	/* an opcode the kernel does not know: fails at init */
	sqes[0].opcode = 0xff;
	sqes[0].user_data = UD_NOP;
	/* still submitted */
	sqes[1].opcode = IORING_OP_NOP;
	sqes[1].user_data = UD_NOP + 1;
	/* a link whose second member fails at init: its head is cancelled */
	sqes[2].opcode = IORING_OP_NOP;
	sqes[2].flags = IOSQE_IO_LINK;
	sqes[2].user_data = UD_NOP + 2;
	sqes[3].opcode = 0xff;
	sqes[3].user_data = UD_NOP + 3;
}

static const struct want_cqe failing_want[] = {
	{ UD_NOP, -EINVAL },
	{ UD_NOP + 1, 0 },
	{ UD_NOP + 2, -ECANCELED },
	{ UD_NOP + 3, -EINVAL },
};

/* an SQE that fails to submit gets its own CQE; the rest are submitted */
IOCORO_CASE(queue_failed_sqe)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring_sqe user_sqes[4];
	struct io_uring_cqe cqes[5];
	struct io_uring ring;
	int link;
	unsigned int i;

	/* control: user space submitting the same SQEs (SUBMIT_ALL) */
	uring_init(&ring, 8, IORING_SETUP_SUBMIT_ALL);
	prep_failing_sqes(user_sqes);
	for (i = 0; i < 4; i++)
		*uring_sqe(&ring) = user_sqes[i];
	uring_submit(&ring, 4);
	uring_reap(&ring, cqes, 4);
	for (i = 0; i < 4; i++)
		EXPECT_CQE(cqes, 4, failing_want[i].ud, failing_want[i].res);
	io_uring_queue_exit(&ring);

	link = ring_with_kind(&ring, 8, 0, skel->progs.q_map);
	prep_failing_sqes(skel->bss->map_sqes);
	skel->bss->map_nr = 4;

	run_bpf_reap(&ring, cqes, 5);
	for (i = 0; i < 4; i++)
		EXPECT_CQE(cqes, 5, failing_want[i].ud, failing_want[i].res);
	EXPECT_CQE(cqes, 5, UD_BPF, 0);
	CHECK_EQ(skel->bss->nr_rc, 4);
	for (i = 0; i < 4; i++)
		CHECK_EQ(skel->bss->rc[i], 0);
	abi_down(&ring, skel, link);
}

/*
 * a step queues an IORING_OP_BPF start of another kind, whose step queues
 * a NOP (the budgets of such starts: queue_budget.c)
 */
IOCORO_CASE(queue_chain)
{
	struct abi_case c;
	struct io_uring_cqe cqes[3];
	struct io_uring_sqe *s;
	int link2;

	abi_up(&c, "q_map");
	link2 = kind_attach_ok(&c.ring, c.skel->progs.q_nop, 1);
	s = &c.skel->bss->map_sqes[0];
	iocoro_prep_kind(s, 1);
	s->user_data = UD_BPF2;
	c.skel->bss->map_nr = 1;
	c.skel->bss->nop_ud = UD_NOP;

	run_bpf_reap(&c.ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_BPF, 0);
	EXPECT_CQE(cqes, 3, UD_BPF2, 0);
	EXPECT_CQE(cqes, 3, UD_NOP, 0);
	CHECK_EQ(c.skel->bss->runs, 2);
	CHECK_EQ(c.skel->bss->rc[0], 0);
	close(link2);
	abi_end(&c);
}

/*
 * queued SQEs may not name a personality, a registered one or not
 * (-EINVAL from the helper): they get their request's
 */
IOCORO_CASE(queue_personality)
{
	struct abi_case c;
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *s;
	int id;

	abi_up(&c, "q_map");
	id = CHECK_RET(io_uring_register_personality(&c.ring));
	CHECK(id > 0);

	s = c.skel->bss->map_sqes;
	memset(s, 0, 3 * sizeof(*s));
	s[0].opcode = IORING_OP_NOP;
	s[0].personality = (__u16)id;
	s[0].user_data = UD_NOP;
	s[1].opcode = IORING_OP_NOP;
	s[1].personality = (__u16)(id + 1); /* not registered */
	s[1].user_data = UD_NOP + 1;
	s[2].opcode = IORING_OP_NOP;
	s[2].user_data = UD_NOP + 2;
	c.skel->bss->map_nr = 3;

	run_bpf_reap(&c.ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_NOP + 2, 0);
	EXPECT_CQE(cqes, 2, UD_BPF, 0);
	CHECK_EQ(c.skel->bss->nr_rc, 3);
	CHECK_EQ(c.skel->bss->rc[0], -EINVAL);
	CHECK_EQ(c.skel->bss->rc[1], -EINVAL);
	CHECK_EQ(c.skel->bss->rc[2], 0);
	abi_end(&c);
}
