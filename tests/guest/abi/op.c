// SPDX-License-Identifier: MIT
/*
 * IORING_OP_BPF: the SQE that starts a coroutine at a kind, its checks,
 * its budget (sqe->len) and the rings it runs on
 */
#include "abi.h"

/* a start on a ring that has no kind -> -EBADF, whatever the kind */
IOCORO_CASE(op_no_kind)
{
	static const __u64 kinds[] = { 0, 1, MAX_KINDS - 1, MAX_KINDS, ~0ULL };
	struct io_uring ring;
	unsigned int i;

	uring_init(&ring, 8, 0);
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		int res = run_bpf(&ring, kinds[i]);

		if (res != -EBADF)
			FAIL("kind 0x%llx: res %d, want -EBADF",
			     (unsigned long long)kinds[i], res);
	}
	io_uring_queue_exit(&ring);
}

/* a ring of 8 with nothing as its kinds 0 to @n - 1: their links */
static struct abi_bpf *nothing_kinds(struct io_uring *ring, int *links,
				     unsigned int n)
{
	struct abi_bpf *skel = skel_load();
	unsigned int k;

	uring_init(ring, 8, 0);
	for (k = 0; k < n; k++)
		links[k] = kind_attach_ok(ring, skel->progs.nothing, k);
	return skel;
}

/* the end of a nothing_kinds() case: the links still open closed */
static void nothing_kinds_down(struct io_uring *ring, struct abi_bpf *skel,
			       const int *links, unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		if (links[k] >= 0)
			close(links[k]);
	abi_down(ring, skel, -1);
}

/*
 * kinds 0 and 1 attached: other kinds -> -EBADF, including kinds past
 * IORING_CORO_MAX_KINDS and values of sqe->off that truncate to 0 or 1
 */
IOCORO_CASE(op_bad_kind)
{
	static const __u64 bad[] = { 2, 3, MAX_KINDS - 1, MAX_KINDS,
				     MAX_KINDS + 1, 1ULL << 32,
				     (1ULL << 32) + 1, ~0ULL };
	struct io_uring ring;
	unsigned int i;
	int links[2];
	struct abi_bpf *skel = nothing_kinds(&ring, links, 2);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int res = run_bpf(&ring, bad[i]);

		if (res != -EBADF)
			FAIL("kind 0x%llx: res %d, want -EBADF",
			     (unsigned long long)bad[i], res);
	}
	CHECK_EQ(skel->bss->runs, 0);
	CHECK_EQ(run_bpf(&ring, 1), 0);
	CHECK_EQ(run_bpf(&ring, 0), 0);
	CHECK_EQ(skel->bss->runs, 2);
	nothing_kinds_down(&ring, skel, links, 2);
}

/* a kind between attached ones whose link went -> -EBADF, they still run */
IOCORO_CASE(op_hole)
{
	struct io_uring ring;
	int links[3];
	struct abi_bpf *skel = nothing_kinds(&ring, links, 3);

	close(links[1]);
	links[1] = -1;
	CHECK_EQ(run_bpf(&ring, 1), -EBADF);
	CHECK_EQ(skel->bss->runs, 0);
	CHECK_EQ(run_bpf(&ring, 0), 0);
	CHECK_EQ(run_bpf(&ring, 2), 0);
	CHECK_EQ(skel->bss->runs, 2);
	nothing_kinds_down(&ring, skel, links, 3);
}

enum sqe_field {
	F_NONE, F_IOPRIO, F_FD, F_ADDR, F_LEN, F_RW_FLAGS, F_RW_FLAGS_TOP,
	F_BUF_INDEX, F_FILE_INDEX, F_ADDR3, F_PAD2, F_NR
};

static const char *const field_names[F_NR] = {
	"none", "ioprio", "fd", "addr", "len past IORING_BPF_MAX_BUDGET",
	"rw_flags bit 1", "rw_flags bit 31", "buf_index", "file_index",
	"addr3", "__pad2[0]",
};

/*
 * every unused field nonzero in turn -> -EINVAL (ioprio by io_init_req(),
 * as for any opcode without ioprio), and a budget past the maximum; all
 * zero -> 0
 */
IOCORO_CASE(op_nonzero_fields)
{
	struct abi_case c;
	unsigned int f;
	int res;

	abi_up(&c, "nothing");

	/* one at a time: a failed SQE ends io_uring_enter()'s submission */
	for (f = 0; f < F_NR; f++) {
		struct io_uring_sqe *sqe = uring_prep_start(&c.ring, 0,
							    UD_BPF + f);
		int want = f == F_NONE ? 0 : -EINVAL;

		switch ((enum sqe_field)f) {
		case F_NONE: break;
		case F_IOPRIO: sqe->ioprio = 1; break;
		case F_FD: sqe->fd = 1; break;
		case F_ADDR: sqe->addr = 1; break;
		case F_LEN: sqe->len = MAX_BUDGET + 1; break;
		case F_RW_FLAGS: sqe->rw_flags |= 1U << 1; break;
		case F_RW_FLAGS_TOP: sqe->rw_flags |= 1U << 31; break;
		case F_BUF_INDEX: sqe->buf_index = 1; break;
		case F_FILE_INDEX: sqe->file_index = 1; break;
		case F_ADDR3: sqe->addr3 = 1; break;
		case F_PAD2: sqe->__pad2[0] = 1; break;
		case F_NR: break;
		}
		res = uring_submit_res(&c.ring, UD_BPF + f);
		if (res != want)
			FAIL("IORING_OP_BPF with %s nonzero: res %d, want %d",
			     field_names[f], res, want);
	}
	CHECK_EQ(c.skel->bss->runs, 1);
	abi_end(&c);
}

/*
 * sqe->len of a start from user space is its coroutine's budget: 0 (the
 * default), 1 and IORING_BPF_MAX_BUDGET run; past it, -EINVAL
 */
IOCORO_CASE(op_budget)
{
	static const struct {
		__u32 len;
		int res;
	} lens[] = {
		{ 0, 0 }, { 1, 0 }, { 2, 0 }, { IORING_BPF_DEFAULT_BUDGET, 0 },
		{ MAX_BUDGET, 0 }, { MAX_BUDGET + 1, -EINVAL },
		{ 1U << 31, -EINVAL }, { ~0U, -EINVAL },
	};
	struct abi_case c;
	unsigned int i, ran = 0;
	int res;

	abi_up(&c, "nothing");
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		res = uring_start_res(&c.ring, 0, UD_BPF + i, lens[i].len);
		if (res != lens[i].res)
			FAIL("IORING_OP_BPF with len %u: res %d, want %d",
			     lens[i].len, res, lens[i].res);
		ran += !lens[i].res;
		CHECK_EQ(c.skel->bss->runs, ran);
	}
	abi_end(&c);
}

/*
 * On an IORING_SETUP_SQE128 ring the second 64 bytes are unused too: a
 * nonzero byte there -> -EINVAL; all zero -> 0
 */
IOCORO_CASE(op_sqe128_tail)
{
	static const unsigned int offs[] = { 0, 64, 100, 127 };
	struct abi_bpf *skel = skel_load();
	struct io_uring_cqe cqe;
	struct io_uring ring;
	unsigned int i;
	int link;

	link = ring_with_kind(&ring, 8, IORING_SETUP_SQE128,
			      skel->progs.nothing);
	for (i = 0; i < ARRAY_SIZE(offs); i++) {
		struct io_uring_sqe *sqe = uring_prep_start(&ring, 0, UD_BPF + i);
		int want = offs[i] ? -EINVAL : 0;

		if (offs[i])
			((unsigned char *)sqe)[offs[i]] = 1;
		uring_submit(&ring, 1);
		uring_reap(&ring, &cqe, 1);
		CHECK_EQ_U64(cqe.user_data, UD_BPF + i);
		if (cqe.res != want)
			FAIL("IORING_OP_BPF with byte %u of its 128 nonzero: res "
			     "%d, want %d", offs[i], cqe.res, want);
	}
	CHECK_EQ(skel->bss->runs, 1);
	abi_down(&ring, skel, link);
}

/* IOSQE_FIXED_FILE -> -EINVAL */
IOCORO_CASE(op_fixed_file)
{
	struct abi_case c;
	int fd;

	abi_up(&c, "nothing");
	/* a registered file, so that index 0 would be valid otherwise */
	fd = devnull();
	CHECK_EQ(io_uring_register_files(&c.ring, &fd, 1), 0);

	uring_prep_start(&c.ring, 0, UD_BPF)->flags = IOSQE_FIXED_FILE;
	CHECK_EQ(uring_submit_res(&c.ring, UD_BPF), -EINVAL);
	CHECK_EQ(c.skel->bss->runs, 0);
	close(fd);
	abi_end(&c);
}

/*
 * a ring with @flags: no kind attaches (-EINVAL), and an IORING_OP_BPF on
 * it fails with -EINVAL
 */
static void op_refused_on(unsigned int flags)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring_cqe cqe;
	struct io_uring ring;

	uring_init(&ring, 8, flags);
	CHECK_EQ(kind_attach(ring.ring_fd, skel->progs.nothing, 0), -EINVAL);
	run_bpf_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, -EINVAL);
	CHECK_EQ(skel->bss->runs, 0);
	abi_down(&ring, skel, -1);
}

IOCORO_CASE_CALL(op_sqpoll, op_refused_on, IORING_SETUP_SQPOLL)
IOCORO_CASE_CALL(op_iopoll, op_refused_on, IORING_SETUP_IOPOLL)
IOCORO_CASE_CALL(op_cqe32, op_refused_on, IORING_SETUP_CQE32)

/* a registered personality is allowed; an unknown one fails as usual */
IOCORO_CASE(op_personality)
{
	struct abi_case c;
	int id;

	abi_up(&c, "nothing");
	id = CHECK_RET(io_uring_register_personality(&c.ring));
	CHECK(id > 0);

	uring_prep_start(&c.ring, 0, UD_BPF)->personality = (__u16)id;
	CHECK_EQ(uring_submit_res(&c.ring, UD_BPF), 0);
	CHECK_EQ(c.skel->bss->runs, 1);

	uring_prep_start(&c.ring, 0, UD_BPF2)->personality = (__u16)(id + 1);
	CHECK_EQ(uring_submit_res(&c.ring, UD_BPF2), -EINVAL);
	CHECK_EQ(c.skel->bss->runs, 1);
	abi_end(&c);
}

/*
 * pipe read (pending) -> IORING_OP_BPF start linked after it. With
 * @destroy_first the kind's link is destroyed while the start waits: it
 * fails with -EBADF when it comes to run instead of running a step that
 * is gone.
 */
static void linked_start_after_read(bool destroy_first)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	char byte = 0;
	int link, pfd[2];

	uring_init(&ring, 8, 0);
	CHECK_SYS(pipe2(pfd, O_CLOEXEC));
	link = kind_attach_ok(&ring, skel->progs.nothing, 0);

	sqe = uring_sqe(&ring);
	io_uring_prep_read(sqe, pfd[0], &byte, 1, 0);
	sqe->user_data = UD_READ;
	sqe->flags = IOSQE_IO_LINK;
	uring_prep_start(&ring, 0, UD_BPF);
	uring_submit(&ring, 2);
	expect_no_cqe(&ring);

	if (destroy_first)
		close(link);
	CHECK_EQ(CHECK_SYS(write(pfd[1], "x", 1)), 1);
	uring_reap(&ring, cqes, 2);
	CHECK_CQE(&cqes[0], UD_READ, 1);
	CHECK_CQE(&cqes[1], UD_BPF, destroy_first ? -EBADF : 0);
	CHECK_EQ(byte, 'x');
	CHECK_EQ(skel->bss->runs, destroy_first ? 0 : 1);

	if (!destroy_first)
		close(link);
	close(pfd[0]);
	close(pfd[1]);
	abi_down(&ring, skel, -1);
}

IOCORO_CASE(op_destroyed_before_run)
{
	linked_start_after_read(false); /* control: the link runs it */
	linked_start_after_read(true);
}
