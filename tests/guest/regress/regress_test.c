// SPDX-License-Identifier: MIT
/*
 * io_uring regression tests of the kernel series on rings that never attach
 * a coroutine kind: what stock 6.12 does there, the series must do too
 * (issue 14, where upstream liburing's msg-ring.t and multicqes_drain.t
 * passed on stock 6.12 and failed on the patched kernel). The series adds
 * no io_uring_register opcode, and one io_uring opcode, IORING_OP_BPF
 * (128).
 *
 *   register_reserved_blind    opcodes 31..255 (later kernels' SEND_MSG_RING
 *                              = 31 and on, and all above) with fd -1:
 *                              -EINVAL, not -EBADF (the opcode is checked
 *                              before the fd)
 *   register_reserved_ring     the same on a real ring fd
 *   register_reserved_notring  the same on an fd that is not a ring
 *   register_reserved_registered  the same with
 *                              IORING_REGISTER_USE_REGISTERED_RING and a
 *                              registered ring index
 *   register_past_last         opcodes >= IORING_REGISTER_LAST: -EINVAL on
 *                              every kind of fd, with and without the flag
 *   register_bounds            the neighbours of the gap are real opcodes:
 *                              30 looks at the fd (-EBADF with -1),
 *                              IORING_REGISTER_PROBE works on the ring, by
 *                              fd and by registered index, and has stock
 *                              6.12's opcodes
 *   probe_op_bpf               the probe's last opcode is IORING_OP_BPF
 *                              (128), supported, and none between 6.12's
 *                              last and it is (patched kernel only: stock
 *                              has no IORING_OP_BPF)
 *   msg_ring_sync              io_uring_register(-1, 31, sqe, 1) == -EINVAL
 *                              with a MSG_RING SQE, exactly the probe of
 *                              liburing's io_uring_register_sync_msg() that
 *                              msg-ring.t takes as "not supported"
 *   drain_simple               multicqes_drain.t's test_simple_drain, five
 *                              rounds on one ring: multishot poll + poll,
 *                              their events, then POLL_REMOVE + a drained
 *                              NOP, which must complete last
 *   drain_simple_defer         the same on a SINGLE_ISSUER|DEFER_TASKRUN ring
 *   wait_skipped_timeout       a thread waiting for one CQE returns 0, with
 *                              the CQ empty, once another thread's TIMEOUT
 *                              with IORING_TIMEOUT_ETIME_SUCCESS and
 *                              IOSQE_CQE_SKIP_SUCCESS fired: a fired timeout
 *                              ends waits even without a CQE (the series
 *                              skips the wake up of flushes that post no
 *                              CQE, but not for timeouts)
 *   wait_skipped_then_cqe      a thread waiting for one CQE gets it when the
 *                              last of a link of CQE-skipping NOPs posts it
 *
 * Usage: regress_test <case> | --list   (tests/lib/case.h)
 *
 * Every case asserts exact values and fails on the first mismatch; none
 * skips. Nothing waits without a bound: a CQE that does not come within
 * URING_CQE_TIMEOUT_MS fails the case.
 */
#define _GNU_SOURCE
#include <linux/io_uring.h> /* before liburing.h: the patched uapi wins */
#include <liburing.h>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <stdbool.h>
#include <unistd.h>

#include "case.h"
#include "check.h"
#include "uring_bpf.h"

/* the register opcodes 6.12 does not know: later kernels' (issue 14) */
#define REG_GAP_FIRST 31 /* IORING_REGISTER_SEND_MSG_RING of 6.13+ */
#define REG_GAP_END 256	 /* and everything up to here */
#define REG_SEND_MSG_RING 31

_Static_assert(IORING_REGISTER_CLONE_BUFFERS == REG_GAP_FIRST - 1,
	       "the last stock 6.12 opcode is 30");
_Static_assert(IORING_REGISTER_LAST == REG_GAP_FIRST,
	       "the series adds no register opcode");
_Static_assert(IORING_OP_BPF == 128 && IORING_OP_LAST == IORING_OP_BPF + 1,
	       "the series' one opcode, IORING_OP_BPF, is 128 and the last");

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------- register opcodes */

/* io_uring_register(@fd, @op, @arg, @nr) must return @want */
static void expect_reg(const char *what, int fd, unsigned int op,
		       const void *arg, unsigned int nr, int want)
{
	int ret = uring_register(fd, op, arg, nr);

	if (ret != want)
		FAIL("%s: io_uring_register(%d, %u%s, %p, %u) = %d (%s), "
		     "want %d (%s)", what, fd,
		     op & ~IORING_REGISTER_USE_REGISTERED_RING,
		     op & IORING_REGISTER_USE_REGISTERED_RING ?
			     " | USE_REGISTERED_RING" : "",
		     arg, nr, ret, ret < 0 ? strerror(-ret) : "ok", want,
		     want < 0 ? strerror(-want) : "ok");
}

/*
 * Every gap opcode with the argument shapes callers use: none, a
 * zeroed buffer with nr 1 (SEND_MSG_RING's shape), and nr 0 with a buffer.
 */
static void expect_gap_einval(const char *what, int fd, unsigned int flag)
{
	struct io_uring_sqe sqe;
	unsigned int op;

	memset(&sqe, 0, sizeof(sqe));
	for (op = REG_GAP_FIRST; op < REG_GAP_END; op++) {
		expect_reg(what, fd, op | flag, NULL, 0, -EINVAL);
		expect_reg(what, fd, op | flag, &sqe, 1, -EINVAL);
		expect_reg(what, fd, op | flag, &sqe, 0, -EINVAL);
	}
}

IOCORO_CASE(register_reserved_blind)
{
	expect_gap_einval("fd -1", -1, 0);
}

IOCORO_CASE(register_reserved_ring)
{
	struct io_uring ring;

	uring_init(&ring, 4, 0);
	expect_gap_einval("ring fd", ring.ring_fd, 0);
	io_uring_queue_exit(&ring);
}

IOCORO_CASE(register_reserved_notring)
{
	int fd = CHECK_SYS(open("/dev/null", O_RDWR | O_CLOEXEC));

	expect_gap_einval("/dev/null", fd, 0);
	/* a real opcode on that fd: stock answers -EOPNOTSUPP */
	expect_reg("/dev/null", fd, IORING_REGISTER_PROBE, NULL, 0,
		   -EOPNOTSUPP);
	CHECK_SYS(close(fd));
}

IOCORO_CASE(register_reserved_registered)
{
	struct io_uring ring;

	uring_init(&ring, 4, 0);
	CHECK_EQ(CHECK_RET(io_uring_register_ring_fd(&ring)), 1);
	expect_gap_einval("registered ring index", ring.enter_ring_fd,
			  IORING_REGISTER_USE_REGISTERED_RING);
	/* an index that is not registered: the opcode still comes first */
	expect_gap_einval("unregistered index 7", 7,
			  IORING_REGISTER_USE_REGISTERED_RING);
	CHECK_EQ(CHECK_RET(io_uring_unregister_ring_fd(&ring)), 1);
	io_uring_queue_exit(&ring);
}

IOCORO_CASE(register_past_last)
{
	static const unsigned int ops[] = {
		IORING_REGISTER_LAST, IORING_REGISTER_LAST + 1, 63, 64, 255,
		256, 4096, 0x7fffffffU,
	};
	struct io_uring_sqe sqe;
	struct io_uring ring;
	unsigned int i;
	int null_fd;

	memset(&sqe, 0, sizeof(sqe));
	uring_init(&ring, 4, 0);
	null_fd = CHECK_SYS(open("/dev/null", O_RDWR | O_CLOEXEC));
	CHECK_EQ(CHECK_RET(io_uring_register_ring_fd(&ring)), 1);
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		expect_reg("fd -1", -1, ops[i], NULL, 0, -EINVAL);
		expect_reg("fd -1", -1, ops[i], &sqe, 1, -EINVAL);
		expect_reg("ring fd", ring.ring_fd, ops[i], NULL, 0, -EINVAL);
		expect_reg("ring fd", ring.ring_fd, ops[i], &sqe, 1, -EINVAL);
		expect_reg("/dev/null", null_fd, ops[i], NULL, 0, -EINVAL);
		expect_reg("registered ring index", ring.enter_ring_fd,
			   ops[i] | IORING_REGISTER_USE_REGISTERED_RING, NULL, 0,
			   -EINVAL);
		expect_reg("fd -1", -1,
			   ops[i] | IORING_REGISTER_USE_REGISTERED_RING, NULL, 0,
			   -EINVAL);
	}
	CHECK_EQ(CHECK_RET(io_uring_unregister_ring_fd(&ring)), 1);
	CHECK_SYS(close(null_fd));
	io_uring_queue_exit(&ring);
}

IOCORO_CASE(register_bounds)
{
	struct io_uring_probe *probe;
	struct io_uring ring;
	size_t len = sizeof(*probe) + 256 * sizeof(struct io_uring_probe_op);
	unsigned int last_op;

	/* real opcodes look at the fd first: -EBADF with fd -1 */
	expect_reg("fd -1", -1, IORING_REGISTER_CLONE_BUFFERS, NULL, 0,
		   -EBADF);
	/* and the first past it does not */
	expect_reg("fd -1", -1, REG_GAP_FIRST, NULL, 0, -EINVAL);

	uring_init(&ring, 4, 0);
	probe = calloc(1, len);
	CHECK(probe != NULL);
	expect_reg("ring fd", ring.ring_fd, IORING_REGISTER_PROBE, probe, 256,
		   0);
	/* 6.12's opcodes, NOP to LISTEN, are there */
	CHECK(probe->last_op >= IORING_OP_LISTEN);
	CHECK(probe->ops_len == probe->last_op + 1);
	CHECK(probe->ops[IORING_OP_NOP].flags & IO_URING_OP_SUPPORTED);
	CHECK(probe->ops[IORING_OP_LISTEN].flags & IO_URING_OP_SUPPORTED);
	last_op = probe->last_op;
	CHECK_EQ(CHECK_RET(io_uring_register_ring_fd(&ring)), 1);
	memset(probe, 0, len);
	expect_reg("registered ring index", ring.enter_ring_fd,
		   IORING_REGISTER_PROBE | IORING_REGISTER_USE_REGISTERED_RING,
		   probe, 256, 0);
	CHECK_EQ(probe->last_op, last_op);
	/* a real opcode with an empty slot: the index is looked at */
	expect_reg("unregistered index 7", 7,
		   IORING_REGISTER_PROBE | IORING_REGISTER_USE_REGISTERED_RING,
		   probe, 256, -EBADF);
	CHECK_EQ(CHECK_RET(io_uring_unregister_ring_fd(&ring)), 1);
	free(probe);
	io_uring_queue_exit(&ring);
}

IOCORO_CASE(probe_op_bpf)
{
	struct io_uring_probe *probe;
	struct io_uring ring;
	size_t len = sizeof(*probe) + 256 * sizeof(struct io_uring_probe_op);
	unsigned int op;

	uring_init(&ring, 4, 0);
	probe = calloc(1, len);
	CHECK(probe != NULL);
	expect_reg("ring fd", ring.ring_fd, IORING_REGISTER_PROBE, probe, 256,
		   0);
	CHECK_EQ(probe->last_op, IORING_OP_BPF);
	CHECK_EQ(probe->ops_len, IORING_OP_BPF + 1);
	CHECK_EQ(probe->ops[IORING_OP_BPF].op, IORING_OP_BPF);
	CHECK(probe->ops[IORING_OP_BPF].flags & IO_URING_OP_SUPPORTED);
	/* the opcodes later kernels take are not the series' */
	for (op = IORING_OP_LISTEN + 1; op < IORING_OP_BPF; op++) {
		if (probe->ops[op].flags & IO_URING_OP_SUPPORTED)
			FAIL("opcode %u is supported", op);
	}
	free(probe);
	io_uring_queue_exit(&ring);
}

IOCORO_CASE(msg_ring_sync)
{
	struct io_uring_sqe sqe;
	struct io_uring ring;

	uring_init(&ring, 4, 0);
	/* as msg-ring.t's test_remote() / test_invalid() build it */
	memset(&sqe, 0, sizeof(sqe));
	io_uring_prep_msg_ring(&sqe, ring.ring_fd, 0x10, 0x1234, 0);
	sqe.user_data = 1;
	/* liburing 2.8+: io_uring_register_sync_msg(&sqe) */
	expect_reg("io_uring_register_sync_msg", -1, REG_SEND_MSG_RING, &sqe,
		   1, -EINVAL);
	/* and nothing arrived on the ring */
	{
		struct io_uring_cqe *cqe;

		CHECK_EQ(uring_wait_cqe_ms(&ring, &cqe, URING_NO_CQE_MS),
			 -ETIME);
	}
	io_uring_queue_exit(&ring);
}

/* ------------------------------------------------------------------ drain */

#define UD_MULTI 0 /* user_data as in multicqes_drain.c */
#define UD_SINGLE 1
#define UD_REMOVE 2
#define UD_DRAIN 3
#define DRAIN_ROUNDS 5

/* the next CQE, within URING_CQE_TIMEOUT_MS, copied to @out and consumed */
static void next_cqe(struct io_uring *ring, struct io_uring_cqe *out,
		     const char *what)
{
	struct io_uring_cqe *cqe;

	if (uring_wait_cqe_ms(ring, &cqe, URING_CQE_TIMEOUT_MS))
		FAIL("no CQE within %d ms, waiting for %s",
		     URING_CQE_TIMEOUT_MS, what);
	*out = *cqe;
	io_uring_cqe_seen(ring, cqe);
}

static void expect_cqe(const struct io_uring_cqe *c, uint64_t ud, int res,
		       unsigned int flags, int round, const char *what)
{
	char buf[IOCORO_CQE_STR_MAX];

	if (c->user_data == ud && c->res == res && c->flags == flags)
		return;
	iocoro_cqe_str(buf, sizeof(buf), c);
	FAIL("round %d, %s: got %s, want user_data=%" PRIu64
	     " res=%d flags=0x%x", round, what, buf, ud, res, flags);
}

/*
 * Make @p readable, take the one CQE of @ud that says so, drain @p. The
 * event is consumed only after its CQE came, so a poll armed late (in
 * io-wq, see below) still sees it: no 1 ms race as in multicqes_drain.c.
 */
static void trigger(struct io_uring *ring, int p[2], uint64_t ud,
		    unsigned int flags, int round, const char *what)
{
	struct io_uring_cqe c;
	char buf[4];

	CHECK_EQ(CHECK_SYS(write(p[1], "foo", 3)), 3);
	next_cqe(ring, &c, what);
	expect_cqe(&c, ud, POLLIN, flags, round, what);
	CHECK_EQ(CHECK_SYS(read(p[0], buf, sizeof(buf))), 3);
}

/*
 * One round of test_simple_drain. From the second round on, the ring is
 * still in drain mode (ctx->drain_active stays set after a drained request
 * had to be deferred), so every SQE is forced async and the polls are armed
 * by io-wq workers: the path that made upstream's test lose its events.
 */
static void drain_round(struct io_uring *ring, int round)
{
	struct io_uring_cqe c[3];
	struct io_uring_sqe *sqe;
	int p1[2], p2[2];
	int i;
	bool remove_first;

	CHECK_SYS(pipe2(p1, O_CLOEXEC));
	CHECK_SYS(pipe2(p2, O_CLOEXEC));

	sqe = uring_sqe(ring);
	io_uring_prep_poll_multishot(sqe, p1[0], POLLIN);
	sqe->user_data = UD_MULTI;
	sqe = uring_sqe(ring);
	io_uring_prep_poll_add(sqe, p2[0], POLLIN);
	sqe->user_data = UD_SINGLE;
	CHECK_EQ(CHECK_RET(io_uring_submit_and_get_events(ring)), 2);

	/* the multishot poll posts one CQE per event and stays armed */
	for (i = 0; i < 2; i++)
		trigger(ring, p1, UD_MULTI, IORING_CQE_F_MORE, round,
			"multishot poll event");
	/* the single poll posts one CQE and is done */
	trigger(ring, p2, UD_SINGLE, 0, round, "single poll event");

	sqe = uring_sqe(ring);
	io_uring_prep_poll_remove(sqe, UD_MULTI);
	sqe->user_data = UD_REMOVE;
	sqe = uring_sqe(ring);
	io_uring_prep_nop(sqe);
	sqe->flags |= IOSQE_IO_DRAIN;
	sqe->user_data = UD_DRAIN;
	CHECK_EQ(CHECK_RET(io_uring_submit(ring)), 2);

	for (i = 0; i < 3; i++)
		next_cqe(ring, &c[i], "remove, cancelled poll, drained NOP");
	/*
	 * POLL_REMOVE's own CQE and the cancelled poll's may come in either
	 * order (the cancellation is completed by task_work, and a remove
	 * forced to io-wq completes there), but the drained NOP must be last.
	 */
	remove_first = c[0].user_data == UD_REMOVE;
	expect_cqe(&c[remove_first ? 0 : 1], UD_REMOVE, 0, 0, round,
		   "POLL_REMOVE");
	expect_cqe(&c[remove_first ? 1 : 0], UD_MULTI, -ECANCELED, 0, round,
		   "removed multishot poll");
	expect_cqe(&c[2], UD_DRAIN, 0, 0, round, "drained NOP (must be last)");
	{
		struct io_uring_cqe *extra;

		if (!uring_wait_cqe_ms(ring, &extra, URING_NO_CQE_MS)) {
			char buf[IOCORO_CQE_STR_MAX];

			iocoro_cqe_str(buf, sizeof(buf), extra);
			FAIL("round %d: unexpected CQE %s", round, buf);
		}
	}

	CHECK_SYS(close(p1[0]));
	CHECK_SYS(close(p1[1]));
	CHECK_SYS(close(p2[0]));
	CHECK_SYS(close(p2[1]));
}

static void drain_rounds(unsigned int flags)
{
	struct io_uring ring;
	int round;

	/* 1024 entries as multicqes_drain.c */
	uring_init(&ring, 1024, flags);
	for (round = 0; round < DRAIN_ROUNDS; round++)
		drain_round(&ring, round);
	/* a drained request on an idle ring runs at once */
	{
		struct io_uring_sqe *sqe = uring_sqe(&ring);
		struct io_uring_cqe c;

		io_uring_prep_nop(sqe);
		sqe->flags |= IOSQE_IO_DRAIN;
		sqe->user_data = UD_DRAIN;
		CHECK_EQ(CHECK_RET(io_uring_submit(&ring)), 1);
		next_cqe(&ring, &c, "drained NOP on an idle ring");
		expect_cqe(&c, UD_DRAIN, 0, 0, DRAIN_ROUNDS, "idle drain");
	}
	io_uring_queue_exit(&ring);
}

IOCORO_CASE(drain_simple)
{
	drain_rounds(0);
}

IOCORO_CASE(drain_simple_defer)
{
	drain_rounds(IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
}

/* ------------------------------------------------ wake ups of waiters */

#define WAIT_BOUND_MS 5000	/* the waiter's own timeout */
#define WAIT_FIRE_MS 100	/* when the other thread's timeout fires */
#define WAIT_LATE_MS 2500	/* a wake up later than this was missed */

struct waiter {
	struct io_uring *ring;
	int ret;		/* of io_uring_enter() */
	uint64_t ms;		/* it took */
};

/* io_uring_enter(GETEVENTS, min_complete 1), bounded by WAIT_BOUND_MS */
static void *waiter_fn(void *arg)
{
	struct waiter *w = arg;
	struct __kernel_timespec ts = { .tv_sec = WAIT_BOUND_MS / 1000 };
	struct io_uring_getevents_arg ga = { .ts = (uintptr_t)&ts };
	uint64_t t0 = uring_now_ns();
	long ret;

	ret = syscall(__NR_io_uring_enter, w->ring->ring_fd, 0, 1,
		      IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG, &ga,
		      sizeof(ga));
	w->ret = ret < 0 ? -errno : (int)ret;
	w->ms = (uring_now_ns() - t0) / 1000000;
	return NULL;
}

static void start_waiter(struct waiter *w, pthread_t *th)
{
	CHECK_EQ(pthread_create(th, NULL, waiter_fn, w), 0);
	/* let it go to sleep in the ring first */
	uring_sleep_ms(300);
}

IOCORO_CASE_OPTS(wait_skipped_timeout, .serial = true)
{
	struct __kernel_timespec ts = { .tv_nsec = WAIT_FIRE_MS * 1000000L };
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct waiter w = { .ring = &ring };
	pthread_t th;

	CHECK_EQ(io_uring_queue_init(8, &ring, 0), 0);
	start_waiter(&w, &th);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_timeout(sqe, &ts, 0, IORING_TIMEOUT_ETIME_SUCCESS);
	sqe->flags |= IOSQE_CQE_SKIP_SUCCESS;
	sqe->user_data = 1;
	CHECK_EQ(io_uring_submit(&ring), 1);
	/* this thread runs the timeout's task_work while it sleeps here */
	uring_sleep_ms(WAIT_LATE_MS + 500);
	CHECK_EQ(pthread_join(th, NULL), 0);
	if (w.ret != 0 || w.ms > WAIT_LATE_MS)
		FAIL("the waiter returned %d after %llu ms, want 0 within %u ms "
		     "of a timeout firing at %u ms", w.ret,
		     (unsigned long long)w.ms, WAIT_LATE_MS, WAIT_FIRE_MS);
	CHECK_EQ(io_uring_cq_ready(&ring), 0);
	io_uring_queue_exit(&ring);
}

IOCORO_CASE_OPTS(wait_skipped_then_cqe, .serial = true)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	struct waiter w = { .ring = &ring };
	pthread_t th;
	unsigned int i;

	CHECK_EQ(io_uring_queue_init(8, &ring, 0), 0);
	start_waiter(&w, &th);
	for (i = 0; i < 4; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		io_uring_prep_nop(sqe);
		sqe->user_data = 10 + i;
		if (i < 3)
			sqe->flags = IOSQE_IO_LINK | IOSQE_CQE_SKIP_SUCCESS;
	}
	CHECK_EQ(io_uring_submit(&ring), 4);
	CHECK_EQ(pthread_join(th, NULL), 0);
	if (w.ret != 0 || w.ms > WAIT_LATE_MS)
		FAIL("the waiter returned %d after %llu ms, want 0 at once",
		     w.ret, (unsigned long long)w.ms);
	CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), 0);
	CHECK_EQ(cqe->user_data, 13);
	CHECK_EQ(cqe->res, 0);
	io_uring_cqe_seen(&ring, cqe);
	CHECK_EQ(io_uring_cq_ready(&ring), 0);
	io_uring_queue_exit(&ring);
}
