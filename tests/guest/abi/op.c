// SPDX-License-Identifier: MIT
/* 0003 IORING_OP_BPF: the SQE, its checks and the rings it runs on */
#include "abi.h"

/* io_uring_get_probe() reports IORING_OP_BPF, the last opcode */
IOCORO_CASE(probe)
{
	struct io_uring_probe *probe = io_uring_get_probe();

	CHECK(probe != NULL);
	CHECK_EQ(probe->last_op, IORING_OP_BPF);
	CHECK(io_uring_opcode_supported(probe, IORING_OP_BPF));
	CHECK(probe->ops[IORING_OP_BPF].op == IORING_OP_BPF);
	CHECK(probe->ops[IORING_OP_BPF].flags & IO_URING_OP_SUPPORTED);
	/* a sanity control: a stock opcode */
	CHECK(io_uring_opcode_supported(probe, IORING_OP_NOP));
	io_uring_free_probe(probe);
}

/* IORING_OP_BPF on a ring without a table -> -EBADF */
IOCORO_CASE(op_no_table)
{
	struct io_uring ring;

	uring_init(&ring, 8, 0);
	CHECK_EQ(run_bpf(&ring, 0), -EBADF);
	CHECK_EQ(run_bpf(&ring, 1), -EBADF);
	io_uring_queue_exit(&ring);
}

/* off beyond the table -> -EBADF, including values that truncate to 0/1 */
IOCORO_CASE(op_bad_index)
{
	static const __u64 bad[] = { 2, 3, MAX_PROGS, 1ULL << 32,
				     (1ULL << 32) + 1, ~0ULL };
	struct abi_bpf *skel = skel_load();
	struct io_uring ring;
	unsigned int i;
	int fds[2];

	uring_init(&ring, 8, 0);
	fds[0] = fds[1] = uring_prog_fd(skel->progs.nothing);
	CHECK_EQ(uring_attach(&ring, fds, 2), 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int res = run_bpf(&ring, bad[i]);

		if (res != -EBADF)
			FAIL("off 0x%llx: res %d, want -EBADF",
			     (unsigned long long)bad[i], res);
	}
	CHECK_EQ(skel->bss->runs, 0);
	CHECK_EQ(run_bpf(&ring, 1), 0);
	CHECK_EQ(skel->bss->runs, 1);
	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
}

/* a hole (-1 at attach) -> -EBADF */
IOCORO_CASE(op_hole)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring ring;
	int fds[3];

	uring_init(&ring, 8, 0);
	fds[0] = -1;
	fds[1] = uring_prog_fd(skel->progs.nothing);
	fds[2] = -1;
	CHECK_EQ(uring_attach(&ring, fds, 3), 0);
	CHECK_EQ(run_bpf(&ring, 0), -EBADF);
	CHECK_EQ(run_bpf(&ring, 2), -EBADF);
	CHECK_EQ(skel->bss->runs, 0);
	CHECK_EQ(run_bpf(&ring, 1), 0);
	CHECK_EQ(skel->bss->runs, 1);
	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
}

enum sqe_field {
	F_NONE, F_IOPRIO, F_FD, F_ADDR, F_LEN, F_RW_FLAGS, F_BUF_INDEX,
	F_FILE_INDEX, F_ADDR3, F_PAD2, F_NR
};

static const char *const field_names[F_NR] = {
	"none", "ioprio", "fd", "addr", "len", "rw_flags (undefined bits)",
	"buf_index", "file_index", "addr3", "__pad2[0]",
};

/*
 * every unused field nonzero in turn -> -EINVAL (ioprio by io_init_req(),
 * as for any opcode without ioprio); all zero -> 0
 */
IOCORO_CASE(op_nonzero_fields)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring_cqe cqe;
	struct io_uring ring;
	unsigned int f;

	ring_with_prog(&ring, 8, 0, skel->progs.nothing);

	/* one at a time: a failed SQE ends io_uring_enter()'s submission */
	for (f = 0; f < F_NR; f++) {
		struct io_uring_sqe *sqe = uring_prep_bpf(&ring, 0, UD_BPF + f);
		int want = f == F_NONE ? 0 : -EINVAL;

		switch ((enum sqe_field)f) {
		case F_NONE: break;
		case F_IOPRIO: sqe->ioprio = 1; break;
		case F_FD: sqe->fd = 1; break;
		case F_ADDR: sqe->addr = 1; break;
		case F_LEN: sqe->len = 1; break;
		case F_RW_FLAGS: sqe->rw_flags = ~IORING_BPF_START_KIND; break;
		case F_BUF_INDEX: sqe->buf_index = 1; break;
		case F_FILE_INDEX: sqe->file_index = 1; break;
		case F_ADDR3: sqe->addr3 = 1; break;
		case F_PAD2: sqe->__pad2[0] = 1; break;
		case F_NR: break;
		}
		uring_submit(&ring, 1);
		uring_reap(&ring, &cqe, 1);
		CHECK_EQ_U64(cqe.user_data, UD_BPF + f);
		if (cqe.res != want)
			FAIL("IORING_OP_BPF with %s nonzero: res %d, want %d",
			     field_names[f], cqe.res, want);
	}
	CHECK_EQ(skel->bss->runs, 1);
	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
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

	ring_with_prog(&ring, 8, IORING_SETUP_SQE128, skel->progs.nothing);
	for (i = 0; i < ARRAY_SIZE(offs); i++) {
		struct io_uring_sqe *sqe = uring_prep_bpf(&ring, 0, UD_BPF + i);
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
	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
}

/* IOSQE_FIXED_FILE -> -EINVAL */
IOCORO_CASE(op_fixed_file)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring_cqe cqe;
	struct io_uring ring;
	int fd;

	ring_with_prog(&ring, 8, 0, skel->progs.nothing);
	/* a registered file, so that index 0 would be valid otherwise */
	fd = devnull();
	CHECK_EQ(io_uring_register_files(&ring, &fd, 1), 0);

	uring_prep_bpf(&ring, 0, UD_BPF)->flags = IOSQE_FIXED_FILE;
	uring_submit(&ring, 1);
	uring_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, -EINVAL);
	CHECK_EQ(skel->bss->runs, 0);
	close(fd);
	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
}

/* an attached program, an IORING_OP_BPF on a ring with @flags -> -EINVAL */
static void op_refused_on(unsigned int flags)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring_cqe cqe;
	struct io_uring ring;

	ring_with_prog(&ring, 8, flags, skel->progs.nothing);
	run_bpf_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, -EINVAL);
	CHECK_EQ(skel->bss->runs, 0);
	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
}

IOCORO_CASE(op_sqpoll)
{
	op_refused_on(IORING_SETUP_SQPOLL);
}

IOCORO_CASE(op_iopoll)
{
	op_refused_on(IORING_SETUP_IOPOLL);
}

/* a registered personality is allowed; an unknown one fails as usual */
IOCORO_CASE(op_personality)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring_cqe cqe;
	struct io_uring ring;
	int id;

	ring_with_prog(&ring, 8, 0, skel->progs.nothing);
	id = CHECK_RET(io_uring_register_personality(&ring));
	CHECK(id > 0);

	uring_prep_bpf(&ring, 0, UD_BPF)->personality = (__u16)id;
	uring_submit(&ring, 1);
	uring_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, 0);
	CHECK_EQ(skel->bss->runs, 1);

	uring_prep_bpf(&ring, 0, UD_BPF2)->personality = (__u16)(id + 1);
	uring_submit(&ring, 1);
	uring_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF2, -EINVAL);
	CHECK_EQ(skel->bss->runs, 1);
	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
}

/*
 * pipe read (pending) -> IORING_OP_BPF linked after it. With @detach_first
 * the table is detached while the BPF request waits: it must fail with
 * -EBADF at run time instead of running a released program.
 */
static void linked_bpf_after_read(bool detach_first)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	char byte = 0;
	int fd, pfd[2];

	uring_init(&ring, 8, 0);
	CHECK_SYS(pipe2(pfd, O_CLOEXEC));
	fd = uring_prog_fd(skel->progs.nothing);
	CHECK_EQ(uring_attach(&ring, &fd, 1), 0);

	sqe = uring_sqe(&ring);
	io_uring_prep_read(sqe, pfd[0], &byte, 1, 0);
	sqe->user_data = UD_READ;
	sqe->flags = IOSQE_IO_LINK;
	uring_prep_bpf(&ring, 0, UD_BPF);
	uring_submit(&ring, 2);
	expect_no_cqe(&ring);

	if (detach_first)
		CHECK_EQ(uring_detach(&ring), 0);
	CHECK_EQ(CHECK_SYS(write(pfd[1], "x", 1)), 1);
	uring_reap(&ring, cqes, 2);
	CHECK_CQE(&cqes[0], UD_READ, 1);
	CHECK_CQE(&cqes[1], UD_BPF, detach_first ? -EBADF : 0);
	CHECK_EQ(byte, 'x');
	CHECK_EQ(skel->bss->runs, detach_first ? 0 : 1);

	close(pfd[0]);
	close(pfd[1]);
	io_uring_queue_exit(&ring);
	abi_bpf__destroy(skel);
}

IOCORO_CASE(op_detached_before_run)
{
	linked_bpf_after_read(false); /* control: the link runs it */
	linked_bpf_after_read(true);
}
