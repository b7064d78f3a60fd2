// SPDX-License-Identifier: MIT
/*
 * Unit tests of bpf-lib (bpf-lib/include/iocoro/), on the host: its
 * headers are compiled for the host in bpf_side.c, with mocks for the
 * kfuncs (bpf_side.h).
 *
 * The prep helpers must build exactly the SQEs liburing's functions of the
 * same names build (liburing is the reference: same words, same meaning
 * on both sides). The coroutine helpers must queue what the runtime
 * expects (iocoro/user_data.h, IOSQE_CQE_SKIP_SUCCESS, the kind that
 * continues a coroutine), and steps must be struct_ops programs as the
 * kernel calls them (the step's ctx in args[0]) with an io_coro_ops map.
 */
#define _GNU_SOURCE /* struct statx */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <netinet/in.h>

#include <cmocka.h>

#include "iocoro.h"
#include "bpf_side.h"
#include "unit_main.h"

/* liburing's SQE and bpf-lib's, from slots full of garbage */
static struct io_uring_sqe lib, side;

static int reset(void **state)
{
	(void)state;
	memset(&bm, 0, sizeof(bm));
	memset(&lib, 0, sizeof(lib));
	memset(&side, 0x5a, sizeof(side));
	return 0;
}

#define assert_sqe_equal(a, b) assert_memory_equal(&(a), &(b), sizeof(a))

/*
 * liburing's io_uring_prep_@op() and bpf-lib's, same arguments, on SQEs
 * reset(): same SQE
 */
#define PREP_BOTH(op, ...)                                              \
	do {                                                            \
		reset(NULL);                                            \
		io_uring_prep_##op(&lib, ##__VA_ARGS__);                \
		bpf_side_prep_##op(&side, ##__VA_ARGS__);               \
		assert_sqe_equal(lib, side);                            \
	} while (0)

static void test_prep_nop(void **state)
{
	(void)state;
	PREP_BOTH(nop);
}

static void test_prep_read(void **state)
{
	char buf[8];

	(void)state;
	PREP_BOTH(read, 7, buf, sizeof(buf), 4096);
	assert_int_equal(side.opcode, IORING_OP_READ);
}

static void test_prep_write(void **state)
{
	const char buf[] = "data";

	(void)state;
	PREP_BOTH(write, 3, buf, 4, (__u64)-1);
}

static void test_prep_readv(void **state)
{
	struct iovec iov[2] = { 0 };

	(void)state;
	PREP_BOTH(readv, 7, iov, 2, 8192);
	assert_int_equal(side.opcode, IORING_OP_READV);
}

static void test_prep_writev(void **state)
{
	struct iovec iov[3] = { 0 };

	(void)state;
	PREP_BOTH(writev, 6, iov, 3, (__u64)-1);
	assert_int_equal(side.opcode, IORING_OP_WRITEV);
}

static void test_prep_read_fixed(void **state)
{
	char buf[16];

	(void)state;
	PREP_BOTH(read_fixed, 5, buf, sizeof(buf), 512, 3);
	assert_int_equal(side.buf_index, 3);
}

static void test_prep_write_fixed(void **state)
{
	const char buf[] = "fixed";

	(void)state;
	PREP_BOTH(write_fixed, 4, buf, 5, 1024, 9);
	assert_int_equal(side.buf_index, 9);
}

static void test_prep_openat(void **state)
{
	(void)state;
	/* liburing 2.3 keeps file_index as the SQE had it: zeroed above */
	PREP_BOTH(openat, AT_FDCWD, "/etc/passwd", O_RDONLY | O_CLOEXEC, 0644);
	assert_int_equal(side.open_flags, O_RDONLY | O_CLOEXEC);
}

static void test_prep_close(void **state)
{
	(void)state;
	PREP_BOTH(close, 9);
}

static void test_prep_fsync(void **state)
{
	(void)state;
	PREP_BOTH(fsync, 4, IORING_FSYNC_DATASYNC);
}

static void test_prep_fallocate(void **state)
{
	(void)state;
	PREP_BOTH(fallocate, 3, FALLOC_FL_KEEP_SIZE, 4096, 1 << 20);
	/* len travels in addr, mode in len */
	assert_true(side.addr == 1 << 20);
	assert_int_equal(side.len, FALLOC_FL_KEEP_SIZE);
}

static void test_prep_splice(void **state)
{
	(void)state;
	PREP_BOTH(splice, 3, -1, 4, 8192, 65536, SPLICE_F_MOVE);
	assert_int_equal(side.splice_fd_in, 3);
	assert_int_equal(side.fd, 4);
}

static void test_prep_statx(void **state)
{
	struct statx stx;

	(void)state;
	PREP_BOTH(statx, AT_FDCWD, "f", AT_SYMLINK_NOFOLLOW, STATX_SIZE, &stx);
}

/* the directory entry ops, each with its flags where it has some */
static void test_prep_dirent_ops(void **state)
{
	(void)state;
	PREP_BOTH(renameat, 3, "old", 5, "new", RENAME_NOREPLACE);
	assert_int_equal(side.rename_flags, RENAME_NOREPLACE);
	PREP_BOTH(unlinkat, 8, "dir", AT_REMOVEDIR);
	assert_int_equal(side.unlink_flags, AT_REMOVEDIR);
	PREP_BOTH(linkat, 4, "from", 6, "to", AT_SYMLINK_FOLLOW);
	assert_int_equal(side.hardlink_flags, AT_SYMLINK_FOLLOW);
	PREP_BOTH(mkdirat, 5, "d", 0750);
}

static void test_prep_send(void **state)
{
	const char buf[] = "hello";

	(void)state;
	PREP_BOTH(send, 9, buf, 5, MSG_NOSIGNAL | MSG_DONTWAIT);
	assert_int_equal(side.msg_flags, MSG_NOSIGNAL | MSG_DONTWAIT);
}

static void test_prep_recv(void **state)
{
	char buf[32];

	(void)state;
	PREP_BOTH(recv, 10, buf, sizeof(buf), MSG_WAITALL);
}

static void test_prep_accept(void **state)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);

	(void)state;
	io_uring_prep_accept(&lib, 4, (struct sockaddr *)&sa, &len,
			     SOCK_CLOEXEC);
	bpf_side_prep_accept(&side, 4, &sa, &len, SOCK_CLOEXEC);
	assert_sqe_equal(lib, side);
	/* addrlen in addr2 (off), as liburing puts it */
	assert_true(side.addr2 == (__u64)(uintptr_t)&len);
}

static void test_prep_connect(void **state)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };

	(void)state;
	io_uring_prep_connect(&lib, 11, (struct sockaddr *)&sa, sizeof(sa));
	bpf_side_prep_connect(&side, 11, &sa, sizeof(sa));
	assert_sqe_equal(lib, side);
	assert_true(side.off == sizeof(sa));
}

/* a timeout, its removal, a linked timeout */
static void test_prep_timeouts(void **state)
{
	struct __kernel_timespec ts = { .tv_sec = 1 };
	struct __kernel_timespec lts = { .tv_nsec = 500 };

	(void)state;
	PREP_BOTH(timeout, &ts, 2, IORING_TIMEOUT_ABS);
	PREP_BOTH(timeout_remove, 0xdeadbeefcafef00dULL, IORING_TIMEOUT_ABS);
	assert_true(side.addr == 0xdeadbeefcafef00dULL);
	PREP_BOTH(link_timeout, &lts, IORING_TIMEOUT_BOOTTIME);
	assert_int_equal(side.opcode, IORING_OP_LINK_TIMEOUT);
}

/* a cancel by user_data, one by fd */
static void test_prep_cancels(void **state)
{
	(void)state;
	PREP_BOTH(cancel64, 0x1122334455667788ULL, IORING_ASYNC_CANCEL_ALL);
	assert_true(side.addr == 0x1122334455667788ULL);
	PREP_BOTH(cancel_fd, 6, IORING_ASYNC_CANCEL_ALL);
	assert_int_equal(side.cancel_flags,
			 IORING_ASYNC_CANCEL_ALL | IORING_ASYNC_CANCEL_FD);
}

static void test_prep_kind(void **state)
{
	struct io_uring_sqe zero;

	(void)state;
	/* user space's start of a kind (iocoro.h) and a step's are the same */
	iocoro_prep_kind(&lib, 9);
	bpf_side_prep_kind(&side, 9);
	assert_sqe_equal(lib, side);
	assert_int_equal(side.opcode, IORING_OP_BPF);
	assert_int_equal(side.off, 9);
	/* no flags: the kernel takes none in rw_flags */
	assert_int_equal(side.rw_flags, 0);
	/* no budget in len: a start a step queues may not carry one */
	assert_int_equal(side.len, 0);
	/* and zero everywhere else, as the kernel requires */
	memset(&zero, 0, sizeof(zero));
	side.opcode = 0;
	side.off = 0;
	assert_sqe_equal(zero, side);
}

static void test_user_data(void **state)
{
	__u64 ud = iocoro_ud(IOCORO_UD_OP, 63, 0xfedcba98);

	(void)state;
	assert_true(iocoro_ud_is_coro(ud));
	assert_int_equal(iocoro_ud_kind(ud), IOCORO_UD_OP);
	assert_int_equal(iocoro_ud_prog(ud), 63);
	assert_int_equal(iocoro_ud_id(ud), 0xfedcba98);
	assert_true(ud >> 48 == IOCORO_UD_MAGIC);
	/* the fields do not bleed into each other */
	ud = iocoro_ud(IOCORO_UD_END, 0, UINT32_MAX);
	assert_int_equal(iocoro_ud_prog(ud), 0);
	assert_int_equal(iocoro_ud_kind(ud), IOCORO_UD_END);
	assert_false(iocoro_ud_is_coro(0));
	assert_false(iocoro_ud_is_coro(UINT64_MAX));
	assert_false(iocoro_ud_is_coro(0x1234));
	/* every kind fits */
	assert_int_equal(iocoro_ud_prog(iocoro_ud(IOCORO_UD_STEP,
						  IOCORO_MAX_PROGS - 1, 0)),
			 IOCORO_MAX_PROGS - 1);
}

static void test_ctx_accessors(void **state)
{
	struct io_coro_step ctx = {
		.user_data = 0x1111222233334444ULL,
		.res_user_data = 0x5555666677778888ULL,
		.res = -ENOENT,
		.cqe_flags = IORING_CQE_F_MORE,
		.has_res = 1,
		.kind = 3,
	};

	(void)state;
	assert_true(bpf_side_ctx_user_data(&ctx) == ctx.user_data);
	assert_true(bpf_side_ctx_prev_user_data(&ctx) == ctx.res_user_data);
	assert_int_equal(bpf_side_ctx_prev_res(&ctx), -ENOENT);
	assert_int_equal(bpf_side_ctx_prev_flags(&ctx), IORING_CQE_F_MORE);
	assert_int_equal(bpf_side_ctx_has_prev(&ctx), 1);
	/* any non-zero has_res is a yes */
	ctx.has_res = 7;
	assert_int_equal(bpf_side_ctx_has_prev(&ctx), 1);
	ctx.has_res = 0;
	assert_int_equal(bpf_side_ctx_has_prev(&ctx), 0);
}

static void test_id_self(void **state)
{
	struct io_coro_step ctx = {
		.user_data = iocoro_ud(IOCORO_UD_STEP, 7, 42),
		.kind = 5,
	};

	(void)state;
	assert_int_equal(bpf_side_id(&ctx), 42);
	/* the kind that runs, as the kernel says, not what user_data names */
	assert_int_equal(bpf_side_self(&ctx), 5);
}

static void test_await(void **state)
{
	struct io_coro_step ctx = {
		.user_data = iocoro_ud(IOCORO_UD_STEP, 3, 9),
		.kind = 3,
	};
	struct io_uring_sqe op;
	char buf[4];

	(void)state;
	bpf_side_prep_read(&op, 5, buf, sizeof(buf), 0);
	op.flags = IOSQE_ASYNC;
	assert_int_equal(bpf_side_await(&ctx, &op), 0);
	/* one request: the operation, which carries this kind, queued with
	 * the step's own ctx */
	assert_ptr_equal(bm.step, &ctx);
	assert_int_equal(bm.nr_queued, 1);
	assert_int_equal(bm.queued_kind[0], 3);
	/* silent on success, the caller's flags kept, not linked, the
	 * coroutine's user_data as a step's */
	assert_int_equal(bm.queued[0].opcode, IORING_OP_READ);
	assert_int_equal(bm.queued[0].flags,
			 IOSQE_ASYNC | IOSQE_CQE_SKIP_SUCCESS);
	assert_true(bm.queued[0].user_data == iocoro_ud(IOCORO_UD_STEP, 3, 9));
	assert_int_equal(bm.queued_len[0], sizeof(struct io_uring_sqe));
	assert_int_equal(bm.queued[0].fd, 5);
	assert_int_equal(bm.queued[0].len, sizeof(buf));
}

/*
 * A continuation other than the step's own kind: iocoro_await_kind()
 * names the kind, iocoro_await_as() the kind and the coroutine
 */
static void test_await_other(void **state)
{
	struct io_coro_step ctx = {
		.user_data = iocoro_ud(IOCORO_UD_STEP, 3, 9),
		.kind = 3,
	};
	struct io_uring_sqe op;

	(void)state;
	bpf_side_prep_nop(&op);
	assert_int_equal(bpf_side_await_prog(&ctx, &op, 12), 0);
	/* kind 12 continues it, which its user_data names */
	assert_int_equal(bm.nr_queued, 1);
	assert_int_equal(bm.queued_kind[0], 12);
	assert_true(bm.queued[0].user_data == iocoro_ud(IOCORO_UD_STEP, 12, 9));

	/* a step of another coroutine, id 40, continued by kind 5 */
	reset(NULL);
	bpf_side_prep_nop(&op);
	assert_int_equal(bpf_side_await_as(&ctx, &op, 5, 40), 0);
	assert_int_equal(bm.nr_queued, 1);
	assert_int_equal(bm.queued_kind[0], 5);
	assert_true(bm.queued[0].user_data == iocoro_ud(IOCORO_UD_STEP, 5, 40));
}

static void test_await_errors(void **state)
{
	struct io_coro_step ctx = {
		.user_data = iocoro_ud(IOCORO_UD_STEP, 0, 1),
	};
	struct io_uring_sqe op;

	(void)state;
	/* the helper's error comes back, whichever it is */
	bm.queue_ret[0] = -EBUSY;
	bpf_side_prep_nop(&op);
	assert_int_equal(bpf_side_await(&ctx, &op), -EBUSY);
	assert_int_equal(bm.nr_queued, 1);
	memset(&bm, 0, sizeof(bm));
	bm.queue_ret[0] = -ELOOP;
	bpf_side_prep_nop(&op);
	assert_int_equal(bpf_side_await(&ctx, &op), -ELOOP);
	assert_int_equal(bm.nr_queued, 1);
}

static void test_next(void **state)
{
	struct io_coro_step ctx = {
		.user_data = iocoro_ud(IOCORO_UD_STEP, 1, 77),
		.kind = 1,
	};

	(void)state;
	assert_int_equal(bpf_side_next(&ctx, 2), 0);
	assert_int_equal(bm.nr_queued, 1);
	assert_ptr_equal(bm.step, &ctx);
	/* a start of kind 2, which draws from this coroutine's budget:
	 * no budget of its own in len */
	assert_int_equal(bm.queued[0].opcode, IORING_OP_BPF);
	assert_int_equal(bm.queued[0].off, 2);
	assert_int_equal(bm.queued[0].rw_flags, 0);
	assert_int_equal(bm.queued[0].len, 0);
	assert_int_equal(bm.queued[0].flags, IOSQE_CQE_SKIP_SUCCESS);
	assert_true(bm.queued[0].user_data == iocoro_ud(IOCORO_UD_STEP, 2, 77));
	assert_int_equal(bm.queued_kind[0], -1);
}

static void test_spawn(void **state)
{
	struct io_coro_step ctx = {
		.user_data = iocoro_ud(IOCORO_UD_STEP, 1, 77),
		.kind = 1,
	};

	(void)state;
	/* another coroutine, 78, whose first step runs kind 4 */
	assert_int_equal(bpf_side_spawn(&ctx, 4, 78), 0);
	assert_int_equal(bm.nr_queued, 1);
	assert_int_equal(bm.queued[0].opcode, IORING_OP_BPF);
	assert_int_equal(bm.queued[0].off, 4);
	assert_int_equal(bm.queued[0].rw_flags, 0);
	assert_int_equal(bm.queued[0].len, 0);
	assert_int_equal(bm.queued[0].flags, IOSQE_CQE_SKIP_SUCCESS);
	/* a start is not a continuation: plain queue_sqe */
	assert_int_equal(bm.queued_kind[0], -1);
	assert_true(bm.queued[0].user_data == iocoro_ud(IOCORO_UD_STEP, 4, 78));
}

static void test_then(void **state)
{
	struct io_coro_step ctx = {
		.user_data = iocoro_ud(IOCORO_UD_STEP, 0, 1),
	};
	struct io_uring_sqe op;
	__u32 step = 0;

	(void)state;
	bpf_side_prep_nop(&op);
	assert_int_equal(bpf_side_then(&ctx, &op, &step, 4), 0);
	assert_int_equal(step, 4);
	assert_int_equal(bm.nr_queued, 1);
	assert_int_equal(bm.queued_kind[0], 0);
}

static void test_finish(void **state)
{
	struct io_coro_step ctx = {
		.user_data = iocoro_ud(IOCORO_UD_STEP, 6, 31),
		.kind = 6,
	};
	struct io_uring_cqe cqe = { 0 };
	struct iocoro_done done;

	(void)state;
	/* the program returns the result, its request posts it */
	assert_int_equal(bpf_side_finish(&ctx, -ENOENT), -ENOENT);
	assert_int_equal(bm.nr_posted, 1);
	assert_ptr_equal(bm.step, &ctx);
	/* the CQE posted is, for user space, the coroutine's end */
	cqe.user_data = bm.post_user_data;
	cqe.res = -ENOENT;
	assert_int_equal(iocoro_cqe_done(&cqe, &done), 1);
	assert_int_equal(done.how, IOCORO_FINISHED);
	assert_int_equal(done.id, 31);
	assert_int_equal(done.prog, 6);
	assert_int_equal(done.res, -ENOENT);
	assert_int_equal(bpf_side_finish(&ctx, 77), 77);
	assert_int_equal(bm.nr_posted, 2);
}

static void test_coroutine_steps(void **state)
{
	struct side_state st = { 0 };
	struct io_coro_step ctx = {
		.user_data = iocoro_ud(IOCORO_UD_STEP, 2, 3),
		.kind = 2,
	};

	(void)state;
	bm.lookup_value = &st;
	/* first run: state slot 3 is looked up, the NOP awaited */
	assert_int_equal(bpf_side_run(side_coro, &ctx), 0);
	assert_int_equal(bm.lookup_key, 3);
	assert_int_equal(st.step, 1);
	assert_int_equal(bm.nr_queued, 1);
	assert_int_equal(bm.queued_kind[0], 2);
	/* the ctx the kernel passed in args[0] reached the kfunc */
	assert_ptr_equal(bm.step, &ctx);
	assert_int_equal(bm.nr_posted, 0);
	/* second run, after the NOP: the end */
	ctx.has_res = 1;
	ctx.res = 5;
	assert_int_equal(bpf_side_run(side_coro, &ctx), 105);
	assert_int_equal(st.runs, 2);
	assert_int_equal(bm.nr_posted, 1);
	assert_true(bm.post_user_data == iocoro_ud(IOCORO_UD_END, 2, 3));
	/* an unknown state ends it with -EINVAL */
	st.step = 9;
	assert_int_equal(bpf_side_run(side_coro, &ctx), -EINVAL);
	assert_int_equal(bm.nr_posted, 2);
}

/* IOCORO_COROUTINE() gives its program an io_coro_ops map to load it by */
static void test_coroutine_kind_map(void **state)
{
	(void)state;
	assert_ptr_equal((void *)side_coro_kind.step, (void *)side_coro);
	/* the ring and kind are iocoro_kind_attach()'s to fill */
	assert_int_equal(side_coro_kind.ring_fd, 0);
	assert_int_equal(side_coro_kind.kind, 0);
}

/* IOCORO_STEP(): the body sees the ctx as `step` */
static void test_raw_step(void **state)
{
	struct io_coro_step step = { .res = 41, .has_res = 1 };

	(void)state;
	assert_int_equal(bpf_side_run(side_raw, &step), 0);
	assert_ptr_equal(bm.step, &step);
	assert_int_equal(bm.nr_emitted, 1);
	assert_true(bm.emit_user_data == 0x5eed);
	assert_int_equal(bm.emit_res, 42);
	assert_int_equal(bm.emit_flags, 0);
}

static void test_coroutine_no_state(void **state)
{
	struct io_coro_step ctx = {
		.user_data = iocoro_ud(IOCORO_UD_STEP, 0, 99),
	};

	(void)state;
	bm.lookup_value = NULL;
	assert_int_equal(bpf_side_run(side_coro, &ctx), -ENOENT);
	assert_int_equal(bm.lookup_key, 99);
	assert_int_equal(bm.nr_queued, 0);
	assert_int_equal(bm.nr_posted, 1);
	assert_true(bm.post_user_data == iocoro_ud(IOCORO_UD_END, 0, 99));
}

/* IOCORO_DEBUG: a step that acted passes; one that ended silently fails */
static int run_dbg(enum dbg_mode mode, long queue_ret)
{
	struct dbg_state st = { .mode = mode };
	struct io_coro_step ctx = {
		.user_data = iocoro_ud(IOCORO_UD_STEP, 0, 2),
	};

	memset(&bm, 0, sizeof(bm));
	bm.lookup_value = &st;
	bm.queue_ret[0] = queue_ret;
	return bpf_side_run(dbg_coro, &ctx);
}

static void test_debug_catches_a_silent_end(void **state)
{
	(void)state;
	assert_int_equal(run_dbg(DBG_VANISH, 0), -EPROTO);
	assert_int_equal(run_dbg(DBG_AWAIT_FAILED, -EBUSY), -EPROTO);
	/* the await that failed queued nothing */
	assert_int_equal(bm.nr_queued, 1);
}

static void test_debug_lets_acting_steps_be(void **state)
{
	(void)state;
	assert_int_equal(run_dbg(DBG_AWAIT, 0), 0);
	assert_int_equal(bm.acts, 1);
	assert_int_equal(run_dbg(DBG_FINISH, 0), 7);
	assert_int_equal(bm.nr_posted, 1);
	assert_int_equal(run_dbg(DBG_LEAVE, 0), 0);
	assert_int_equal(run_dbg(DBG_SPAWN, 0), 0);
	assert_int_equal(run_dbg(DBG_RAW_ACTED, 0), 0);
	/* an error is the step's own: passed on as it is */
	assert_int_equal(run_dbg(DBG_ERROR, 0), -EIO);
	/* a failed await whose error the step returns: that error */
	assert_int_equal(run_dbg(DBG_AWAIT, -ELOOP), -ELOOP);
}

static void test_debug_off_costs_nothing(void **state)
{
	struct side_state st = { 0 };
	struct io_coro_step ctx = { 0 };

	(void)state;
	/* without IOCORO_DEBUG: the state's lookup, and no other */
	bm.lookup_value = &st;
	assert_int_equal(bpf_side_run(side_coro, &ctx), 0);
	assert_int_equal(bm.nr_lookups, 1);
	assert_int_equal(bm.acts, 0);
}

UNIT_MAIN("bpf_lib",
	  T(test_prep_nop),
	  T(test_prep_read),
	  T(test_prep_write),
	  T(test_prep_readv),
	  T(test_prep_writev),
	  T(test_prep_read_fixed),
	  T(test_prep_write_fixed),
	  T(test_prep_openat),
	  T(test_prep_close),
	  T(test_prep_fsync),
	  T(test_prep_fallocate),
	  T(test_prep_splice),
	  T(test_prep_statx),
	  T(test_prep_dirent_ops),
	  T(test_prep_send),
	  T(test_prep_recv),
	  T(test_prep_accept),
	  T(test_prep_connect),
	  T(test_prep_timeouts),
	  T(test_prep_cancels),
	  T(test_prep_kind),
	  T(test_user_data),
	  T(test_ctx_accessors),
	  T(test_id_self),
	  T(test_await),
	  T(test_await_other),
	  T(test_spawn),
	  T(test_await_errors),
	  T(test_next),
	  T(test_then),
	  T(test_finish),
	  T(test_coroutine_steps),
	  T(test_coroutine_no_state),
	  T(test_coroutine_kind_map),
	  T(test_raw_step),
	  T(test_debug_catches_a_silent_end),
	  T(test_debug_lets_acting_steps_be),
	  T(test_debug_off_costs_nothing))
