// SPDX-License-Identifier: MIT
/*
 * Guest tests of the kernel series' "decisions in the kernel" patches:
 *
 *   0005 the previous completion in struct io_uring_bpf_ctx
 *   0006 the program's return value is the IORING_OP_BPF request's result
 *   0007 bpf_io_uring_emit_cqe()
 *   0008 the step budget (IORING_REGISTER_BPF_BUDGET), fatal signals
 *   0009 sleepable programs, bpf_copy_from_user()
 *
 * Usage: chain_test <case>          run one case (one ctest test each)
 *        chain_test --list          print the case names
 *        chain_test --check-list a,b,...   the given list must be exactly
 *                                   the case table (keeps CMake in sync)
 *        chain_test --exit0         exit 0 at once (exec target of the
 *                                   teardown_exec case)
 *
 * Every case asserts exact values and fails on the first mismatch; none
 * skips. The programs are in chain.bpf.c. Cases that measure (nop_chain,
 * teardown_*) print their numbers on stdout; nothing asserts on time but
 * the teardown bound (TEARDOWN_BOUND_MS).
 */
#define _GNU_SOURCE
#include <linux/io_uring.h> /* before liburing.h: the patched uapi wins */
#include <liburing.h>

#include <linux/bpf.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "uring_bpf.h"
#include "chain.skel.h"

/* the ABI of patches 0005-0009, as the patched uapi headers define it */
_Static_assert(BPF_FUNC_io_uring_emit_cqe == 213,
	       "bpf_io_uring_emit_cqe is helper 213");
_Static_assert(IORING_REGISTER_BPF_BUDGET == 50,
	       "IORING_REGISTER_BPF_BUDGET is 50");
_Static_assert(sizeof(struct io_uring_bpf_ctx) == 32,
	       "struct io_uring_bpf_ctx is 32 bytes");
_Static_assert(offsetof(struct io_uring_bpf_ctx, user_data) == 0, "layout");
_Static_assert(offsetof(struct io_uring_bpf_ctx, prev_user_data) == 8,
	       "layout");
_Static_assert(offsetof(struct io_uring_bpf_ctx, prev_res) == 16, "layout");
_Static_assert(offsetof(struct io_uring_bpf_ctx, prev_flags) == 20, "layout");
_Static_assert(offsetof(struct io_uring_bpf_ctx, has_prev) == 24, "layout");
_Static_assert(offsetof(struct io_uring_bpf_ctx, resv) == 28, "layout");

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* the uapi's limits of patch 0008 */
#define DEFAULT_BUDGET IORING_BPF_DEFAULT_BUDGET
#define MAX_BUDGET IORING_BPF_MAX_BUDGET

/* must match chain.bpf.c */
#define RC_LEN 32
#define EM_MAX 256
#define EV_MAX 4
#define FN_MAX 8

/* the programs' indices in the table attach_all() attaches */
enum {
	P_NOP_CHAIN,
	P_READ_CHECK,
	P_FAIL_ABORT,
	P_EMIT_MANY,
	P_EMIT_VALS,
	P_FAN,
	P_TICK,
	P_RET_VAL,
	P_NR
};

#define UD_BPF 0xb0f0000000000001ULL
#define UD_BPF2 0xb0f0000000000002ULL
#define UD_NOP 0x0e0e000000000001ULL
#define UD_NOP2 0x0e0e000000000002ULL
#define UD_DONE 0xd0e0000000000001ULL
#define UD_READ 0x4ead000000000001ULL
#define UD_FAN 0xfa00000000000001ULL
#define UD_EMIT 0xe0e0000000000000ULL
#define UD_TIMEOUT 0x7100000000000000ULL

/* ---------------------------------------------------------------- helpers */

static struct chain_bpf *skel_load(void)
{
	struct chain_bpf *skel;
	int err;

	uring_bpf_register_sec();
	skel = chain_bpf__open();
	if (!skel)
		FAIL("chain_bpf__open: %s", strerror(errno));
	/* read_check calls bpf_copy_from_user(): only sleepable programs may */
	CHECK_EQ(bpf_program__set_flags(skel->progs.read_check,
					bpf_program__flags(skel->progs.read_check) |
						BPF_F_SLEEPABLE),
		 0);
	err = chain_bpf__load(skel);
	if (err)
		FAIL("chain_bpf__load: %d (%s)", err, strerror(-err));
	CHECK_EQ(bpf_program__type(skel->progs.nop_chain),
		 BPF_PROG_TYPE_IOURING);
	return skel;
}

/* attach every program of the object at its P_* index */
static void attach_all(struct io_uring *ring, struct chain_bpf *skel)
{
	int fds[P_NR];

	fds[P_NOP_CHAIN] = uring_prog_fd(skel->progs.nop_chain);
	fds[P_READ_CHECK] = uring_prog_fd(skel->progs.read_check);
	fds[P_FAIL_ABORT] = uring_prog_fd(skel->progs.fail_abort);
	fds[P_EMIT_MANY] = uring_prog_fd(skel->progs.emit_many);
	fds[P_EMIT_VALS] = uring_prog_fd(skel->progs.emit_vals);
	fds[P_FAN] = uring_prog_fd(skel->progs.fan);
	fds[P_TICK] = uring_prog_fd(skel->progs.tick);
	fds[P_RET_VAL] = uring_prog_fd(skel->progs.ret_val);
	CHECK_EQ(uring_attach(ring, fds, P_NR), 0);
}

/* a loaded skeleton and a ring of @entries with all its programs */
static struct chain_bpf *setup(struct io_uring *ring, unsigned int entries)
{
	struct chain_bpf *skel = skel_load();

	uring_init(ring, entries, 0);
	attach_all(ring, skel);
	return skel;
}

static void teardown(struct io_uring *ring, struct chain_bpf *skel)
{
	io_uring_queue_exit(ring);
	chain_bpf__destroy(skel);
}

/* a temporary file in /tmp holding @len bytes of @data, unlinked at once */
static int tmp_file_with(const void *data, size_t len)
{
	char path[] = "/tmp/iocoro-chain-XXXXXX";
	int fd = CHECK_SYS(mkstemp(path));

	CHECK_SYS(unlink(path));
	CHECK_EQ(CHECK_SYS(pwrite(fd, data, len, 0)), len);
	return fd;
}

/* the fdinfo of @ring has the line @line (with its '\n') exactly once */
static void check_fdinfo_line(struct io_uring *ring, const char *line)
{
	char *info = uring_fdinfo(ring);
	char *hit = strstr(info, line);

	if (!hit || strstr(hit + 1, line)) {
		fprintf(stderr, "fdinfo of the ring:\n%s\n", info);
		FAIL("fdinfo has %s the line '%.*s'", hit ? "twice" : "not",
		     (int)strlen(line) - 1, line);
	}
	/* a whole line, not the tail of another one */
	CHECK(hit == info || hit[-1] == '\n');
}

static void check_fdinfo_budget(struct io_uring *ring, unsigned int budget)
{
	char line[64];

	snprintf(line, sizeof(line), "BpfBudget:\t%u\n", budget);
	check_fdinfo_line(ring, line);
}

static void check_fdinfo_no_budget(struct io_uring *ring)
{
	char *info = uring_fdinfo(ring);

	if (strstr(info, "BpfBudget:")) {
		fprintf(stderr, "fdinfo of the ring:\n%s\n", info);
		FAIL("fdinfo of a ring without programs has a BpfBudget line");
	}
}

static double ms_since(uint64_t t0)
{
	return (double)(uring_now_ns() - t0) / 1e6;
}

/* ===================================================== 1. the NOP chain */

#define CHAIN_LEN 10000

/* nop_chain queues @len NOPs (0: no end) after the first, then UD_DONE */
static void set_nop_chain(struct chain_bpf *skel, unsigned int len)
{
	skel->bss->nc_len = len;
	skel->bss->nc_idx = P_NOP_CHAIN;
	skel->bss->nc_nop_ud = UD_NOP;
	skel->bss->nc_done_ud = UD_DONE;
}

/* the chain's first request (UD_BPF), with no CQE unless it fails */
static void prep_nop_chain(struct io_uring *ring)
{
	uring_prep_bpf(ring, P_NOP_CHAIN, UD_BPF)->flags =
		IOSQE_CQE_SKIP_SUCCESS;
}

static unsigned int nr_enter, nr_submit_enter;

/* io_uring_enter(2) raw, counted: the result or -errno */
static int counted_enter(int fd, unsigned int to_submit,
			 unsigned int min_complete, unsigned int flags)
{
	long ret = syscall(__NR_io_uring_enter, fd, to_submit, min_complete,
			   flags, NULL, 0);

	nr_enter++;
	if (to_submit)
		nr_submit_enter++;
	return ret < 0 ? -errno : (int)ret;
}

/*
 * Publish the SQEs prepared with io_uring_get_sqe() to the kernel without
 * a syscall (what liburing does before io_uring_enter()): returns how many.
 */
static unsigned int publish_sqes(struct io_uring *ring)
{
	struct io_uring_sq *sq = &ring->sq;
	unsigned int tail = *sq->ktail;
	unsigned int n = sq->sqe_tail - tail;

	for (; tail != sq->sqe_tail; tail++)
		sq->array[tail & sq->ring_mask] = tail & sq->ring_mask;
	sq->sqe_head = sq->sqe_tail;
	io_uring_smp_store_release(sq->ktail, sq->sqe_tail);
	return n;
}

/*
 * A 10,000-step NOP chain driven by one program in one io_uring_enter(),
 * timed next to 10,000 user-space round trips of the same NOP.
 */
static void t_nop_chain(void)
{
	struct io_uring ring;
	struct chain_bpf *skel = setup(&ring, 8);
	struct io_uring_cqe *cqe, got;
	uint64_t t0, chain_ns, loop_ns;
	unsigned int i, head, n;
	int ret;

	CHECK_EQ(uring_set_budget(&ring, CHAIN_LEN + 1), 0);
	check_fdinfo_budget(&ring, CHAIN_LEN + 1);
	set_nop_chain(skel, CHAIN_LEN);

	prep_nop_chain(&ring);
	CHECK_EQ(publish_sqes(&ring), 1);

	nr_enter = nr_submit_enter = 0;
	t0 = uring_now_ns();
	ret = counted_enter(ring.ring_fd, 1, 1, IORING_ENTER_GETEVENTS);
	CHECK_EQ(ret, 1);
	while (!io_uring_cq_ready(&ring)) {
		if (uring_now_ns() - t0 > 120ULL * 1000000000ULL)
			FAIL("no CQE 120 s into the chain: %u runs, %u enters",
			     skel->bss->nc_runs, nr_enter);
		ret = counted_enter(ring.ring_fd, 0, 1, IORING_ENTER_GETEVENTS);
		if (ret < 0 && ret != -EINTR)
			FAIL("io_uring_enter(GETEVENTS): %d (%s)", ret,
			     strerror(-ret));
	}
	chain_ns = uring_now_ns() - t0;

	/* exactly one CQE: the program's report of the last step */
	n = 0;
	io_uring_for_each_cqe(&ring, head, cqe) {
		got = *cqe;
		n++;
	}
	io_uring_cq_advance(&ring, n);
	CHECK_EQ(n, 1);
	CHECK_CQE(&got, UD_DONE, CHAIN_LEN);
	CHECK_EQ(got.flags, 0);
	uring_reap(&ring, NULL, 0);

	CHECK_EQ(skel->bss->nc_runs, CHAIN_LEN);
	CHECK_EQ(skel->bss->nc_bad_prev, 0);
	CHECK_EQ(skel->bss->nc_emit_rc, 0);
	CHECK_EQ(skel->bss->nc_queue_rc, 0);
	CHECK_EQ(nr_submit_enter, 1);
	CHECK_EQ(*ring.cq.koverflow, 0);

	/* the same NOPs, one user-space submit-and-wait each */
	t0 = uring_now_ns();
	for (i = 0; i < CHAIN_LEN; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		CHECK(sqe != NULL);
		io_uring_prep_nop(sqe);
		sqe->user_data = i;
		ret = io_uring_submit_and_wait(&ring, 1);
		if (ret != 1)
			FAIL("io_uring_submit_and_wait: %d, want 1", ret);
		CHECK_EQ(io_uring_peek_cqe(&ring, &cqe), 0);
		if (cqe->user_data != i || cqe->res != 0)
			CHECK_CQE(cqe, i, 0);
		io_uring_cqe_seen(&ring, cqe);
	}
	loop_ns = uring_now_ns() - t0;

	printf("chain: %u steps in %.1f ms, %u submit, %u enters; "
	       "user loop: %u round trips in %.1f ms; ratio Y/X = %.2f\n",
	       CHAIN_LEN, chain_ns / 1e6, nr_submit_enter, nr_enter,
	       CHAIN_LEN, loop_ns / 1e6, (double)loop_ns / (double)chain_ns);
	teardown(&ring, skel);
}

/* ====================================== 2. a read, then a sleepable step */

static void set_want(struct chain_bpf *skel, const char *data)
{
	CHECK_EQ(strlen(data), RC_LEN);
	memcpy(skel->bss->rc_want, data, RC_LEN);
	memset(skel->bss->rc_got, 0, RC_LEN);
	skel->bss->rc_runs = 0;
	skel->bss->rc_copy_rc = 1;
}

/* what read_check recorded of its one run after the read */
static void check_read_seen(struct chain_bpf *skel, const char *data)
{
	CHECK_EQ(skel->bss->rc_runs, 1);
	CHECK_EQ_U64(skel->bss->rc_ud, UD_BPF);
	CHECK_EQ(skel->bss->rc_has_prev, 1);
	CHECK_EQ(skel->bss->rc_prev_res, RC_LEN);
	CHECK_EQ(skel->bss->rc_prev_flags, 0);
	CHECK_EQ_U64(skel->bss->rc_prev_ud, UD_READ);
	CHECK_EQ(skel->bss->rc_copy_rc, 0);
	if (memcmp(skel->bss->rc_got, data, RC_LEN))
		FAIL("the program copied '%.*s', want '%s'", RC_LEN,
		     skel->bss->rc_got, data);
}

/* READ (HARDLINK, @read_flags) of @fd into @buf -> read_check */
static void submit_read_check(struct io_uring *ring, int fd, char *buf,
			      unsigned int read_flags)
{
	struct io_uring_sqe *sqe = uring_sqe(ring);

	io_uring_prep_read(sqe, fd, buf, 64, 0);
	sqe->flags = IOSQE_IO_HARDLINK | read_flags;
	sqe->user_data = UD_READ;
	uring_prep_bpf(ring, P_READ_CHECK, UD_BPF);
	uring_submit(ring, 2);
}

/*
 * A read from a file, then the sleepable program: it sees prev_res == the
 * bytes read and the data, through bpf_copy_from_user(). Inline, from
 * io-wq (IOSQE_ASYNC), and with data that does not match (the program's
 * verdict reaches the CQE).
 */
static void t_read_sleepable(void)
{
	static const char d1[] = "read inline, then checked by BPF";
	static const char d2[] = "read by io-wq, checked in the tw";
	static const char d3[] = "this is not what the program wan";
	struct io_uring ring;
	struct chain_bpf *skel = setup(&ring, 8);
	struct io_uring_cqe cqes[2];
	static char buf[64];
	int fd;

	skel->bss->rc_buf = (uintptr_t)buf;

	/* inline */
	fd = tmp_file_with(d1, RC_LEN);
	set_want(skel, d1);
	memset(buf, 0, sizeof(buf));
	submit_read_check(&ring, fd, buf, 0);
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_READ, RC_LEN);
	EXPECT_CQE(cqes, 2, UD_BPF, RC_LEN);
	check_read_seen(skel, d1);
	close(fd);

	/* the read forced to io-wq */
	fd = tmp_file_with(d2, RC_LEN);
	set_want(skel, d2);
	memset(buf, 0, sizeof(buf));
	submit_read_check(&ring, fd, buf, IOSQE_ASYNC);
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_READ, RC_LEN);
	EXPECT_CQE(cqes, 2, UD_BPF, RC_LEN);
	check_read_seen(skel, d2);
	close(fd);

	/* the program finds other data than it wants: its error is the res */
	fd = tmp_file_with(d3, RC_LEN);
	set_want(skel, d1);
	memset(buf, 0, sizeof(buf));
	submit_read_check(&ring, fd, buf, 0);
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_READ, RC_LEN);
	EXPECT_CQE(cqes, 2, UD_BPF, -EBADMSG);
	check_read_seen(skel, d3);
	close(fd);

	teardown(&ring, skel);
}

/*
 * A read of an empty pipe (it waits in poll), data written afterwards by
 * user space: the program runs when the read completes and sees the data.
 */
static void t_read_pipe(void)
{
	static const char d[] = "written later, read through poll";
	struct io_uring ring;
	struct chain_bpf *skel = setup(&ring, 8);
	struct io_uring_cqe cqes[2], *cqe;
	static char buf[64];
	int p[2];

	CHECK_SYS(pipe2(p, O_CLOEXEC));
	skel->bss->rc_buf = (uintptr_t)buf;
	set_want(skel, d);
	submit_read_check(&ring, p[0], buf, 0);

	/* nothing happens before the data is there */
	CHECK_EQ(uring_wait_cqe_ms(&ring, &cqe, URING_NO_CQE_MS), -ETIME);
	CHECK_EQ(skel->bss->rc_runs, 0);

	CHECK_EQ(CHECK_SYS(write(p[1], d, RC_LEN)), RC_LEN);
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_READ, RC_LEN);
	EXPECT_CQE(cqes, 2, UD_BPF, RC_LEN);
	check_read_seen(skel, d);

	close(p[0]);
	close(p[1]);
	teardown(&ring, skel);
}

/*
 * bpf_copy_from_user() in the sleepable program from memory never touched
 * (it must fault it in: zeros) and from an unmapped page (-EFAULT, the
 * destination zeroed), next to the checked read.
 */
static void t_copy_fault(void)
{
	static const char d[] = "a good read next to a fault test";
	struct io_uring ring;
	struct chain_bpf *skel = setup(&ring, 8);
	struct io_uring_cqe cqes[2];
	static char buf[64];
	long page = sysconf(_SC_PAGESIZE);
	char *fresh, *gone;
	unsigned int i;
	int fd;

	fresh = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(fresh != MAP_FAILED);
	gone = mmap(NULL, (size_t)page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	CHECK(gone != MAP_FAILED);
	CHECK_SYS(munmap(gone, (size_t)page));

	skel->bss->rc_buf = (uintptr_t)buf;
	skel->bss->rc_fault_addr = (uintptr_t)fresh + 100;
	skel->bss->rc_bad_addr = (uintptr_t)gone;
	memset(skel->bss->rc_fault_got, 0x5a, RC_LEN);
	memset(skel->bss->rc_bad_got, 0x5a, RC_LEN);
	skel->bss->rc_fault_rc = skel->bss->rc_bad_rc = 1;

	fd = tmp_file_with(d, RC_LEN);
	set_want(skel, d);
	submit_read_check(&ring, fd, buf, 0);
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_READ, RC_LEN);
	EXPECT_CQE(cqes, 2, UD_BPF, RC_LEN);
	check_read_seen(skel, d);

	CHECK_EQ(skel->bss->rc_fault_rc, 0);
	CHECK_EQ(skel->bss->rc_bad_rc, -EFAULT);
	for (i = 0; i < RC_LEN; i++) {
		CHECK_EQ(skel->bss->rc_fault_got[i], 0);
		CHECK_EQ(skel->bss->rc_bad_got[i], 0);
	}

	close(fd);
	munmap(fresh, (size_t)page);
	teardown(&ring, skel);
}

/* ========================================= 3. a failed op, then a step */

static void reset_fa(struct chain_bpf *skel)
{
	skel->bss->fa_runs = 0;
	skel->bss->fa_has_prev = 7;
	skel->bss->fa_prev_res = 7;
	skel->bss->fa_prev_flags = 7;
	skel->bss->fa_prev_ud = 7;
	skel->bss->fa_ud = 7;
}

/*
 * READ (UD_READ) of @len bytes of @fd, linked by @link to fail_abort
 * (UD_BPF) -LINK-> NOP (UD_NOP): submit the three, reap their three CQEs
 */
static void read_abort_nop(struct io_uring *ring, int fd, void *buf,
			   unsigned int len, __u8 link,
			   struct io_uring_cqe cqes[3])
{
	struct io_uring_sqe *sqe = uring_sqe(ring);

	io_uring_prep_read(sqe, fd, buf, len, 0);
	sqe->flags = link;
	sqe->user_data = UD_READ;
	uring_prep_bpf(ring, P_FAIL_ABORT, UD_BPF)->flags = IOSQE_IO_LINK;
	sqe = uring_sqe(ring);
	io_uring_prep_nop(sqe);
	sqe->user_data = UD_NOP;
	uring_submit(ring, 3);
	uring_reap(ring, cqes, 3);
}

/*
 * READ of a bad fd -HARDLINK-> fail_abort -LINK-> NOP: the program sees
 * -EBADF, aborts with -EPROTO, the NOP is cancelled. With a soft link the
 * program does not run at all. A good read passes its result through.
 */
static void t_failed_op(void)
{
	struct io_uring ring;
	struct chain_bpf *skel = setup(&ring, 8);
	struct io_uring_cqe cqes[3];
	static char buf[64];
	int bad = uring_closed_fd(), zero;

	/* hard link: the program runs after the failure and aborts */
	reset_fa(skel);
	read_abort_nop(&ring, bad, buf, sizeof(buf), IOSQE_IO_HARDLINK, cqes);
	EXPECT_CQE(cqes, 3, UD_READ, -EBADF);
	EXPECT_CQE(cqes, 3, UD_BPF, -EPROTO);
	EXPECT_CQE(cqes, 3, UD_NOP, -ECANCELED);
	CHECK_EQ(skel->bss->fa_runs, 1);
	CHECK_EQ(skel->bss->fa_has_prev, 1);
	CHECK_EQ(skel->bss->fa_prev_res, -EBADF);
	CHECK_EQ(skel->bss->fa_prev_flags, 0);
	CHECK_EQ_U64(skel->bss->fa_prev_ud, UD_READ);
	CHECK_EQ_U64(skel->bss->fa_ud, UD_BPF);

	/* soft link: the failure cancels the BPF request, it never runs */
	reset_fa(skel);
	read_abort_nop(&ring, bad, buf, sizeof(buf), IOSQE_IO_LINK, cqes);
	EXPECT_CQE(cqes, 3, UD_READ, -EBADF);
	EXPECT_CQE(cqes, 3, UD_BPF, -ECANCELED);
	EXPECT_CQE(cqes, 3, UD_NOP, -ECANCELED);
	CHECK_EQ(skel->bss->fa_runs, 0);

	/* a good read: its result is passed on and the NOP runs */
	reset_fa(skel);
	zero = CHECK_SYS(open("/dev/zero", O_RDONLY | O_CLOEXEC));
	read_abort_nop(&ring, zero, buf, 17, IOSQE_IO_HARDLINK, cqes);
	EXPECT_CQE(cqes, 3, UD_READ, 17);
	EXPECT_CQE(cqes, 3, UD_BPF, 17);
	EXPECT_CQE(cqes, 3, UD_NOP, 0);
	CHECK_EQ(skel->bss->fa_runs, 1);
	CHECK_EQ(skel->bss->fa_has_prev, 1);
	CHECK_EQ(skel->bss->fa_prev_res, 17);
	CHECK_EQ_U64(skel->bss->fa_prev_ud, UD_READ);
	close(zero);

	teardown(&ring, skel);
}

/*
 * The previous completion of a BPF request linked after another BPF
 * request is that request's program result; a BPF request linked after
 * nothing sees all zeros (and fail_abort answers -EINVAL).
 */
static void t_prev_of_bpf(void)
{
	struct io_uring ring;
	struct chain_bpf *skel = setup(&ring, 8);
	struct io_uring_cqe cqes[2];

	skel->bss->rv_ret = 4242;
	reset_fa(skel);
	uring_prep_bpf(&ring, P_RET_VAL, UD_BPF2)->flags = IOSQE_IO_LINK;
	uring_prep_bpf(&ring, P_FAIL_ABORT, UD_BPF);
	uring_submit(&ring, 2);
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_BPF2, 4242);
	EXPECT_CQE(cqes, 2, UD_BPF, 4242);
	CHECK_EQ(skel->bss->fa_runs, 1);
	CHECK_EQ(skel->bss->fa_has_prev, 1);
	CHECK_EQ(skel->bss->fa_prev_res, 4242);
	CHECK_EQ(skel->bss->fa_prev_flags, 0);
	CHECK_EQ_U64(skel->bss->fa_prev_ud, UD_BPF2);

	/* alone */
	reset_fa(skel);
	uring_prep_bpf(&ring, P_FAIL_ABORT, UD_BPF);
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 1);
	EXPECT_CQE(cqes, 1, UD_BPF, -EINVAL);
	CHECK_EQ(skel->bss->fa_runs, 1);
	CHECK_EQ(skel->bss->fa_has_prev, 0);
	CHECK_EQ(skel->bss->fa_prev_res, 0);
	CHECK_EQ(skel->bss->fa_prev_flags, 0);
	CHECK_EQ_U64(skel->bss->fa_prev_ud, 0);
	CHECK_EQ_U64(skel->bss->fa_ud, UD_BPF);

	teardown(&ring, skel);
}

/* ======================================================= 4. emit_cqe */

/* the CQEs a program posts carry its values and come before its own */
static void t_emit_values(void)
{
	struct io_uring ring;
	struct chain_bpf *skel = setup(&ring, 8);
	struct io_uring_cqe cqes[4];
	unsigned int i;

	skel->bss->ev_n = 3;
	skel->bss->ev_ud[0] = UD_EMIT + 1;
	skel->bss->ev_res[0] = -EIO;
	skel->bss->ev_flags[0] = 0;
	skel->bss->ev_ud[1] = UD_EMIT + 2;
	skel->bss->ev_res[1] = INT_MAX;
	skel->bss->ev_flags[1] = IORING_CQE_F_MORE;
	skel->bss->ev_ud[2] = UD_EMIT + 3;
	skel->bss->ev_res[2] = 0;
	skel->bss->ev_flags[2] = 0;
	skel->bss->ev_ret = 7;
	for (i = 0; i < EV_MAX; i++)
		skel->bss->ev_rc[i] = 1;

	uring_prep_bpf(&ring, P_EMIT_VALS, UD_BPF);
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 4);
	for (i = 0; i < 3; i++) {
		CHECK_CQE(&cqes[i], skel->bss->ev_ud[i], skel->bss->ev_res[i]);
		CHECK_EQ(cqes[i].flags, skel->bss->ev_flags[i]);
		CHECK_EQ(skel->bss->ev_rc[i], 0);
	}
	CHECK_CQE(&cqes[3], UD_BPF, 7);
	CHECK_EQ(cqes[3].flags, 0);
	CHECK_EQ(skel->bss->ev_rc[3], 1);

	teardown(&ring, skel);
}

#define NR_EMIT 200

/*
 * A CQ of 4 entries, 200 CQEs posted in one run: the CQ fills, the rest
 * goes to the overflow list, nothing is dropped and the order is kept.
 */
static void t_emit_overflow(void)
{
	struct io_uring_params p = {
		.flags = IORING_SETUP_CQSIZE,
		.cq_entries = 4,
	};
	struct chain_bpf *skel = skel_load();
	struct io_uring_cqe cqes[NR_EMIT + 1];
	struct io_uring ring;
	unsigned int i;

	uring_init_params(&ring, 4, &p);
	CHECK_EQ(p.cq_entries, 4);
	CHECK_EQ(ring.cq.ring_entries, 4);
	attach_all(&ring, skel);
	skel->bss->em_nr = NR_EMIT;
	skel->bss->em_base = UD_EMIT;

	uring_prep_bpf(&ring, P_EMIT_MANY, UD_BPF);
	uring_submit(&ring, 1);
	/*
	 * The program ran before io_uring_submit() returned (task_work on the
	 * way back to user space): 4 CQEs in the ring, the rest in overflow.
	 */
	CHECK_EQ(skel->bss->em_ok, NR_EMIT);
	CHECK_EQ(skel->bss->em_err, 0);
	CHECK_EQ(io_uring_cq_ready(&ring), 4);
	CHECK(IO_URING_READ_ONCE(*ring.sq.kflags) & IORING_SQ_CQ_OVERFLOW);

	uring_reap(&ring, cqes, NR_EMIT + 1);
	for (i = 0; i < NR_EMIT; i++) {
		if (cqes[i].user_data != UD_EMIT + i || cqes[i].res != (int)i ||
		    cqes[i].flags != 0)
			uring_dump_cqes(cqes, NR_EMIT + 1);
		CHECK_CQE(&cqes[i], UD_EMIT + i, i);
		CHECK_EQ(cqes[i].flags, 0);
	}
	CHECK_CQE(&cqes[NR_EMIT], UD_BPF, NR_EMIT);
	CHECK_EQ(cqes[NR_EMIT].flags, 0);
	/* nothing dropped */
	CHECK_EQ(*ring.cq.koverflow, 0);
	CHECK(!(IO_URING_READ_ONCE(*ring.sq.kflags) & IORING_SQ_CQ_OVERFLOW));

	teardown(&ring, skel);
}

/* ========================================================= 5. budget */

/*
 * What the budget patch documents: a run of a request with budget b
 * (always >= 1) takes one step; of the n children it queues, the first
 * c = min(n, b - 1) are queued with (b - 1) / c steps each, and
 * bpf_io_uring_queue_sqe() refuses the others with -ELOOP.
 */
static void budget_expect(unsigned int b, unsigned int n, unsigned int *runs,
			  unsigned int *refused)
{
	unsigned int c = n < b - 1 ? n : b - 1;
	unsigned int r = 0, f = n - c, i;

	for (i = 0; i < c; i++) {
		unsigned int cr, cf;

		budget_expect((b - 1) / c, n, &cr, &cf);
		r += cr;
		f += cf;
	}
	*runs = 1 + r;
	*refused = f;
}

/*
 * @nr_chains user-submitted requests of fan (n children per run) with
 * the ring budget @budget (0: leave the default): the runs and the
 * children refused with -ELOOP are exactly what budget_expect() says,
 * never more runs than the budget per chain, and no CQE at all (every
 * request succeeds with CQE_SKIP_SUCCESS: the budget ends the fan-out
 * at queue time, no request fails with -ELOOP after it was queued).
 */
static void fan_run(struct io_uring *ring, struct chain_bpf *skel,
		    unsigned int budget, unsigned int n, unsigned int nr_chains)
{
	unsigned int want_runs, want_refused, i;
	uint64_t t0;

	if (budget)
		CHECK_EQ(uring_set_budget(ring, budget), 0);
	else
		budget = DEFAULT_BUDGET;
	budget_expect(budget, n, &want_runs, &want_refused);
	CHECK(want_runs <= budget);
	want_runs *= nr_chains;
	want_refused *= nr_chains;

	skel->bss->fn_n = n;
	skel->bss->fn_idx = P_FAN;
	skel->bss->fn_ud = UD_FAN;
	skel->bss->fn_runs = 0;
	skel->bss->fn_queue_err = 0;
	skel->bss->fn_queue_rc = 0;
	for (i = 0; i < nr_chains; i++)
		uring_prep_bpf(ring, P_FAN, UD_BPF)->flags =
			IOSQE_CQE_SKIP_SUCCESS;
	uring_submit(ring, (int)nr_chains);

	/* the runs post nothing: wait until they are all done */
	t0 = uring_now_ns();
	while (__atomic_load_n(&skel->bss->fn_runs, __ATOMIC_RELAXED) <
		       want_runs &&
	       ms_since(t0) < URING_CQE_TIMEOUT_MS) {
		struct io_uring_cqe *cqe;

		/* an enter: steps beyond a pass wait for one */
		if (!uring_wait_cqe_ms(ring, &cqe, 10))
			break;
	}
	uring_reap(ring, NULL, 0);
	CHECK_EQ(skel->bss->fn_runs, want_runs);
	CHECK_EQ(skel->bss->fn_queue_err, want_refused);
	CHECK_EQ(skel->bss->fn_queue_rc, want_refused ? -ELOOP : 0);
	printf("budget %u, %u per run, %u chain(s): %u runs, %u refused\n",
	       budget, n, nr_chains, want_runs, want_refused);
}

/* a runaway self-requeueing program: budget 50 -> 50 runs, then refused */
static void t_budget_self(void)
{
	struct io_uring ring;
	struct chain_bpf *skel = setup(&ring, 8);

	fan_run(&ring, skel, 50, 1, 1);
	CHECK_EQ(skel->bss->fn_runs, 50);
	/* budget 1: one run, its child is refused (-ELOOP at queue time) */
	fan_run(&ring, skel, 1, 1, 1);
	CHECK_EQ(skel->bss->fn_runs, 1);
	/* each user-submitted request gets the whole budget */
	fan_run(&ring, skel, 5, 1, 3);
	CHECK_EQ(skel->bss->fn_runs, 15);
	teardown(&ring, skel);
}

/* the default budget: 4096 runs */
static void t_budget_default(void)
{
	struct io_uring ring;
	struct chain_bpf *skel = setup(&ring, 8);

	check_fdinfo_budget(&ring, DEFAULT_BUDGET);
	fan_run(&ring, skel, 0, 1, 1);
	CHECK_EQ(skel->bss->fn_runs, DEFAULT_BUDGET);
	teardown(&ring, skel);
}

/* fan-out: the budget is shared by the requests a run queues */
static void t_budget_fanout(void)
{
	struct io_uring ring;
	struct chain_bpf *skel = setup(&ring, 256);

	fan_run(&ring, skel, 64, 2, 1);
	CHECK_EQ(skel->bss->fn_runs, 63);
	/* 9 steps for 3 children, 3 each: each queues 2 (1 step each) */
	fan_run(&ring, skel, 10, 3, 1);
	CHECK_EQ(skel->bss->fn_runs, 10);
	fan_run(&ring, skel, 100, 4, 1);
	CHECK_EQ(skel->bss->fn_runs, 85);
	fan_run(&ring, skel, 20, FN_MAX, 1);
	teardown(&ring, skel);
}

/*
 * A coroutine NOP -> BPF -> NOP -> ... that never stops: the budget
 * passes through the links, budget 50 -> 50 runs; the 50th cannot queue
 * its next step (-ELOOP from bpf_io_uring_queue_sqe()) and returns that:
 * its own request fails with -ELOOP.
 */
static void t_budget_chain(void)
{
	struct io_uring ring;
	struct chain_bpf *skel = setup(&ring, 8);
	struct io_uring_cqe cqe;

	CHECK_EQ(uring_set_budget(&ring, 50), 0);
	set_nop_chain(skel, 0);
	prep_nop_chain(&ring);
	uring_submit(&ring, 1);
	uring_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, -ELOOP);
	CHECK_EQ(cqe.flags, 0);
	CHECK_EQ(skel->bss->nc_runs, 50);
	CHECK_EQ(skel->bss->nc_bad_prev, 0);
	CHECK_EQ(skel->bss->nc_queue_rc, -ELOOP);
	teardown(&ring, skel);
}

/* IORING_REGISTER_BPF_BUDGET's errors, and the budget in fdinfo */
static void t_budget_register(void)
{
	struct chain_bpf *skel = skel_load();
	struct io_uring ring;
	unsigned int arg = 100;

	uring_init(&ring, 8, 0);
	/* no programs attached */
	CHECK_EQ(uring_set_budget(&ring, 100), -ENXIO);
	CHECK_EQ(uring_set_budget(&ring, 1), -ENXIO);
	CHECK_EQ(uring_set_budget(&ring, MAX_BUDGET), -ENXIO);
	check_fdinfo_no_budget(&ring);

	attach_all(&ring, skel);
	check_fdinfo_budget(&ring, DEFAULT_BUDGET);
	CHECK_EQ(uring_set_budget(&ring, 0), -EINVAL);
	CHECK_EQ(uring_set_budget(&ring, MAX_BUDGET + 1), -EINVAL);
	CHECK_EQ(uring_set_budget(&ring, UINT_MAX), -EINVAL);
	CHECK_EQ(uring_register(ring.ring_fd, IORING_REGISTER_BPF_BUDGET, &arg,
				100),
		 -EINVAL);
	CHECK_EQ(uring_register(ring.ring_fd, IORING_REGISTER_BPF_BUDGET, &arg,
				0),
		 -EINVAL);
	/* the failed calls changed nothing */
	check_fdinfo_budget(&ring, DEFAULT_BUDGET);

	CHECK_EQ(uring_set_budget(&ring, 1), 0);
	check_fdinfo_budget(&ring, 1);
	CHECK_EQ(uring_set_budget(&ring, MAX_BUDGET), 0);
	check_fdinfo_budget(&ring, MAX_BUDGET);
	CHECK_EQ(uring_set_budget(&ring, 77), 0);
	check_fdinfo_budget(&ring, 77);
	CHECK_EQ(uring_set_budget(&ring, 0), -EINVAL);
	check_fdinfo_budget(&ring, 77);

	/* the budget belongs to the table: gone with it, default again */
	CHECK_EQ(uring_detach(&ring), 0);
	CHECK_EQ(uring_set_budget(&ring, 100), -ENXIO);
	check_fdinfo_no_budget(&ring);
	attach_all(&ring, skel);
	check_fdinfo_budget(&ring, DEFAULT_BUDGET);

	teardown(&ring, skel);
}

/* ============================================= 6. teardown under load */

/*
 * Chains of TIMEOUT -> tick started by the child. Chain i waits
 * (1 + i % 10) * unit per step. On TCG + KASAN + lockdep the guest does
 * about 1,800 timer-driven steps per second in all; 2000 chains of 1-10 ms
 * (TD_BUSY_CHAINS) ask for ~360,000 and keep the child in task_work for
 * good: it never comes back to user space (TD_KILL_BUSY kills it there).
 * 10,000 chains of 5-50 s (TD_UNIT_MS) ask for ~360 steps/s: the chains
 * are in flight and the child still gets back to user space to close,
 * exit, exec or wait. (10,000 chains of 1-10 s ask for as many steps as
 * the guest can do, and their first steps starve.)
 */
#define TD_CHAINS 10000
#define TD_BUSY_CHAINS 2000
#define TD_UNIT_MS 5000
#define TD_BUSY_UNIT_MS 1
/* the child's time in user space with its chains before it acts */
#define TD_LIVE_MS (TD_UNIT_MS + 1000)
/* the child's ring: room for all first SQEs at once */
#define TD_ENTRIES 16384
/* how long a child may take to be reaped (TCG + KASAN) */
#define TEARDOWN_BOUND_MS 30000
/* how long the child may take to come back to user space with its chains */
#define TD_READY_MS 60000

enum td_variant { TD_CLOSE, TD_EXIT, TD_KILL, TD_EXEC, TD_KILL_BUSY };

static unsigned int td_chains(enum td_variant v)
{
	return v == TD_KILL_BUSY ? TD_BUSY_CHAINS : TD_CHAINS;
}
static const char *const td_names[] = { "close+exit", "exit", "SIGKILL",
					"exec", "SIGKILL in task_work" };

/* chain i waits td_ts[i % 10] per step (tick: tk_ts_addr) */
static struct __kernel_timespec td_ts[10];

/* the child @pid's endless nop_chain does @n steps within TD_READY_MS */
static void wait_chain_runs(struct chain_bpf *skel, pid_t pid,
			    unsigned int n)
{
	uint64_t t0 = uring_now_ns();

	while (skel->bss->nc_runs < n) {
		if (ms_since(t0) > TD_READY_MS) {
			uring_dump_task(pid);
			kill(pid, SIGKILL);
			FAIL("the chain did only %u steps in %u ms",
			     skel->bss->nc_runs, TD_READY_MS);
		}
		uring_sleep_ms(5);
	}
}

/*
 * The child: start the chains, report 'R' from user space, then end as @v
 * says. TD_KILL_BUSY reports 'S' before it submits (it is not expected
 * back) and 'R' if it ever comes back.
 */
static void td_child(struct chain_bpf *skel, enum td_variant v, int wfd)
{
	struct io_uring ring;
	unsigned int i;

	uring_init(&ring, TD_ENTRIES, 0);
	attach_all(&ring, skel);
	CHECK_EQ(uring_set_budget(&ring, MAX_BUDGET), 0);
	for (i = 0; i < td_chains(v); i++)
		uring_prep_bpf(&ring, P_TICK, i)->flags =
			IOSQE_CQE_SKIP_SUCCESS;
	if (v == TD_KILL_BUSY)
		uring_write_byte(wfd, 'S');
	uring_submit(&ring, td_chains(v));
	/*
	 * Back in user space, with the chains waiting in their timeouts. A
	 * ring runs IORING_BPF_PASS_RUNS steps per pass: wait in the ring,
	 * as an application does, until every chain took its first step.
	 */
	if (v != TD_KILL_BUSY) {
		uint64_t t0 = uring_now_ns();

		while (__atomic_load_n(&skel->bss->tk_first, __ATOMIC_RELAXED) <
			       td_chains(v) &&
		       ms_since(t0) < TD_READY_MS) {
			struct io_uring_cqe *cqe;

			if (!uring_wait_cqe_ms(&ring, &cqe, 10))
				io_uring_cqe_seen(&ring, cqe);
		}
		uring_sleep_ms(TD_LIVE_MS);
	}
	uring_write_byte(wfd, 'R');

	switch (v) {
	case TD_CLOSE:
		io_uring_queue_exit(&ring);
		_exit(0);
	case TD_EXIT:
		exit(0);
	case TD_KILL:
	case TD_KILL_BUSY:
		for (;;)
			pause();
	case TD_EXEC: {
		char *argv[] = { "chain_test", "--exit0", NULL };

		execv("/proc/self/exe", argv);
		_exit(99);
	}
	}
	_exit(98);
}

static void teardown_load(enum td_variant v)
{
	struct chain_bpf *skel = skel_load();
	uint64_t runs_ready, runs_reaped, t0;
	int p[2], status, c;
	double ms;
	pid_t pid;
	unsigned int i;

	for (i = 0; i < 10; i++) {
		long long ns = (i + 1) * 1000000LL *
			       (v == TD_KILL_BUSY ? TD_BUSY_UNIT_MS : TD_UNIT_MS);

		td_ts[i] = (struct __kernel_timespec){ ns / 1000000000LL,
						      ns % 1000000000LL };
	}
	skel->bss->tk_ts_addr = (uintptr_t)td_ts;
	skel->bss->tk_idx = P_TICK;
	skel->bss->tk_timeout_ud = UD_TIMEOUT;

	pid = uring_fork_with_pipe(p);
	if (!pid)
		td_child(skel, v, p[1]);

	if (v == TD_KILL_BUSY) {
		/* the child is in the kernel, running chains */
		CHECK_EQ(uring_read_byte_ms(p[0], TD_READY_MS), 'S');
		t0 = uring_now_ns();
		while (skel->bss->tk_runs < 2 * td_chains(v)) {
			if (ms_since(t0) > TD_READY_MS) {
				uring_dump_task(pid);
				kill(pid, SIGKILL);
				FAIL("the chains did only %llu steps in %u ms",
				     (unsigned long long)skel->bss->tk_runs,
				     TD_READY_MS);
			}
			uring_sleep_ms(5);
		}
		uring_sleep_ms(1000);
		c = uring_read_byte_ms(p[0], 0);
		printf("teardown %s: the child %s back in user space %.1f ms "
		       "after its submit\n", td_names[v],
		       c == 'R' ? "was" : "was not", ms_since(t0));
		c = 'R';
	} else {
		c = uring_read_byte_ms(p[0], TD_READY_MS);
	}
	if (c != 'R') {
		fprintf(stderr, "tick runs so far: %llu\n",
			(unsigned long long)skel->bss->tk_runs);
		uring_dump_task(pid);
		kill(pid, SIGKILL);
		uring_reap_child_ms(pid, TEARDOWN_BOUND_MS, &status);
		FAIL("the child did not come back to user space with its %u "
		     "chains within %u ms (%s)", td_chains(v), TD_READY_MS,
		     c < 0 ? "timeout or EOF" : "bad byte");
	}
	t0 = uring_now_ns();
	if (v == TD_KILL || v == TD_KILL_BUSY)
		CHECK_SYS(kill(pid, SIGKILL));
	runs_ready = skel->bss->tk_runs;

	if (!uring_reap_child_ms(pid, TEARDOWN_BOUND_MS, &status)) {
		uint64_t r0 = skel->bss->tk_runs;

		uring_dump_task(pid);
		uring_sleep_ms(1000);
		fprintf(stderr, "tick runs: %llu at the report, %llu after "
			"%u ms, %llu one second later (-ECANCELED seen %llu)\n",
			(unsigned long long)runs_ready, (unsigned long long)r0,
			TEARDOWN_BOUND_MS,
			(unsigned long long)skel->bss->tk_runs,
			(unsigned long long)skel->bss->tk_ecanceled);
		CHECK_SYS(kill(pid, SIGKILL));
		if (!uring_reap_child_ms(pid, TEARDOWN_BOUND_MS, &status))
			fprintf(stderr, "not reaped %u ms after a SIGKILL "
				"either\n", TEARDOWN_BOUND_MS);
		FAIL("teardown %s: the child with %u chains in flight was not "
		     "reaped within %u ms", td_names[v], td_chains(v),
		     TEARDOWN_BOUND_MS);
	}
	ms = ms_since(t0);
	runs_reaped = skel->bss->tk_runs;

	if (v == TD_KILL || v == TD_KILL_BUSY) {
		if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
			FAIL("child wait status 0x%x, want killed by SIGKILL",
			     status);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		FAIL("child wait status 0x%x, want exit 0", status);
	}

	printf("teardown %s: %u chains, %llu steps before, reaped in %.1f ms, "
	       "%llu steps in all (-ETIME %llu, -ECANCELED %llu)\n",
	       td_names[v], td_chains(v), (unsigned long long)runs_ready, ms,
	       (unsigned long long)runs_reaped,
	       (unsigned long long)skel->bss->tk_etime,
	       (unsigned long long)skel->bss->tk_ecanceled);

	/* the chains were live: every first step ran, timeouts fired */
	CHECK(skel->bss->tk_first == td_chains(v));
	CHECK(skel->bss->tk_etime > 0);
	CHECK_EQ(skel->bss->tk_other, 0);
	CHECK_EQ(skel->bss->tk_queue_err, 0);
	/* and are over: no program runs for a task that is gone */
	uring_sleep_ms(300);
	CHECK_EQ_U64(skel->bss->tk_runs, runs_reaped);

	close(p[0]);
	chain_bpf__destroy(skel);
}

static void t_teardown_close(void)
{
	teardown_load(TD_CLOSE);
}

static void t_teardown_exit(void)
{
	teardown_load(TD_EXIT);
}

static void t_teardown_sigkill(void)
{
	teardown_load(TD_KILL);
}

/*
 * exec() runs io_uring's cancellation of all the task's requests
 * (io_uring_task_cancel()) with the ring still open: the chains must end
 * there too, whatever the program does.
 */
static void t_teardown_exec(void)
{
	teardown_load(TD_EXEC);
}

/*
 * 2000 chains of 1-10 ms keep the child in task_work (it does not come
 * back from io_uring_submit() on TCG): SIGKILL must end them at once.
 */
static void t_teardown_sigkill_busy(void)
{
	teardown_load(TD_KILL_BUSY);
}

/*
 * A NOP chain that never stops, with the largest budget. Without the
 * series' pass limit its task never left task_work (the child never came
 * back from io_uring_submit()); now it comes back while the chain runs
 * on. SIGKILL must end it promptly, long before the budget would.
 */
static void t_teardown_taskwork(void)
{
	struct chain_bpf *skel = skel_load();
	uint64_t t0, r_kill, r_reaped;
	struct io_uring ring;
	int p[2], status;
	double ms, rate;
	pid_t pid;

	set_nop_chain(skel, 0);

	pid = uring_fork_with_pipe(p);
	if (!pid) {
		uring_init(&ring, 8, 0);
		attach_all(&ring, skel);
		CHECK_EQ(uring_set_budget(&ring, MAX_BUDGET), 0);
		prep_nop_chain(&ring);
		uring_write_byte(p[1], 'S');
		uring_submit(&ring, 1);
		/* only after MAX_BUDGET steps */
		uring_write_byte(p[1], 'B');
		for (;;)
			pause();
	}

	CHECK_EQ(uring_read_byte_ms(p[0], TD_READY_MS), 'S');
	/* the chain is running */
	wait_chain_runs(skel, pid, 2000);
	t0 = uring_now_ns();
	r_kill = skel->bss->nc_runs;
	uring_sleep_ms(500);
	rate = (double)(skel->bss->nc_runs - r_kill) / ms_since(t0);
	/*
	 * The endless chain does not keep the child in the kernel (the pass
	 * limit of the series): it came back to report, and the chain still
	 * runs while it sits in pause().
	 */
	CHECK_EQ(uring_read_byte_ms(p[0], TD_READY_MS), 'B');
	CHECK(rate > 0);

	r_kill = skel->bss->nc_runs;
	t0 = uring_now_ns();
	CHECK_SYS(kill(pid, SIGKILL));
	if (!uring_reap_child_ms(pid, TEARDOWN_BOUND_MS, &status)) {
		uring_dump_task(pid);
		FAIL("a child in an endless chain was not reaped within %u ms "
		     "of a SIGKILL (%u steps)", TEARDOWN_BOUND_MS,
		     skel->bss->nc_runs);
	}
	ms = ms_since(t0);
	r_reaped = skel->bss->nc_runs;
	printf("teardown taskwork: %llu steps at the SIGKILL (%.1f steps/ms), "
	       "reaped in %.1f ms, %llu steps in all; the budget would have "
	       "allowed %u\n",
	       (unsigned long long)r_kill, rate, ms,
	       (unsigned long long)r_reaped, MAX_BUDGET);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
		FAIL("child wait status 0x%x, want killed by SIGKILL", status);
	/* stopped by the signal, not by the budget */
	CHECK(r_reaped < MAX_BUDGET);
	CHECK_EQ(uring_read_byte_ms(p[0], 0), -1);
	CHECK_EQ(skel->bss->nc_bad_prev, 0);
	CHECK_EQ(skel->bss->nc_queue_rc, 0);
	uring_sleep_ms(200);
	CHECK_EQ(skel->bss->nc_runs, r_reaped);

	close(p[0]);
	chain_bpf__destroy(skel);
}

/*
 * The ring is the parent's, the chain the child's: the child submits an
 * endless NOP chain on the inherited ring and stays in task_work; after
 * its SIGKILL the parent finds the chain's end on the ring, one CQE of the
 * BPF request with -ECANCELED.
 */
static void t_sigkill_cqe(void)
{
	struct io_uring ring;
	struct chain_bpf *skel = setup(&ring, 8);
	struct io_uring_cqe cqe;
	int p[2], status;
	pid_t pid;

	CHECK_EQ(uring_set_budget(&ring, MAX_BUDGET), 0);
	set_nop_chain(skel, 0);

	pid = uring_fork_with_pipe(p);
	if (!pid) {
		prep_nop_chain(&ring);
		uring_write_byte(p[1], 'S');
		uring_submit(&ring, 1);
		uring_write_byte(p[1], 'B');
		for (;;)
			pause();
	}
	CHECK_EQ(uring_read_byte_ms(p[0], TD_READY_MS), 'S');
	wait_chain_runs(skel, pid, 1000);
	/* back in user space while its chain runs on */
	CHECK_EQ(uring_read_byte_ms(p[0], TD_READY_MS), 'B');
	CHECK_SYS(kill(pid, SIGKILL));
	if (!uring_reap_child_ms(pid, TEARDOWN_BOUND_MS, &status)) {
		uring_dump_task(pid);
		FAIL("not reaped within %u ms of a SIGKILL", TEARDOWN_BOUND_MS);
	}
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
		FAIL("child wait status 0x%x, want killed by SIGKILL", status);

	uring_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, -ECANCELED);
	CHECK_EQ(cqe.flags, 0);
	CHECK(skel->bss->nc_runs < MAX_BUDGET);
	CHECK_EQ(skel->bss->nc_bad_prev, 0);
	printf("sigkill_cqe: the chain ended with -ECANCELED after %u steps\n",
	       skel->bss->nc_runs);

	/*
	 * The ring still works for its owner. liburing's SQ indices are
	 * private memory: catch up with the child's submission first.
	 */
	ring.sq.sqe_head = ring.sq.sqe_tail = IO_URING_READ_ONCE(*ring.sq.ktail);
	skel->bss->rv_ret = 99;
	uring_prep_bpf(&ring, P_RET_VAL, UD_BPF2);
	uring_submit(&ring, 1);
	uring_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF2, 99);

	close(p[0]);
	teardown(&ring, skel);
}

/* ====================================================== 7. verifier */

#define INSN(c, d, s, o, i)                                                   \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s),      \
			    .off = (o), .imm = (i) })
#define MOV64_IMM(d, i) INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV64_REG(d, s) INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ADD64_IMM(d, i) INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define LDX(sz, d, s, o) INSN(BPF_LDX | BPF_MEM | (sz), d, s, o, 0)
#define STX(sz, d, s, o) INSN(BPF_STX | BPF_MEM | (sz), d, s, o, 0)
#define ST(sz, d, o, i) INSN(BPF_ST | BPF_MEM | (sz), d, 0, o, i)
#define XADD(sz, d, s, o) INSN(BPF_STX | BPF_ATOMIC | (sz), d, s, o, BPF_ADD)
#define CALL(f) INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT() INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* r0 = imm64 (two instructions) */
#define LD_IMM64(d, v)                                                        \
	INSN(BPF_LD | BPF_DW | BPF_IMM, d, 0, 0, (__s32)(__u32)(v)),          \
		INSN(0, 0, 0, 0, (__s32)(__u32)((__u64)(v) >> 32))

static char vlog[1 << 16];

/* load @n instructions as an iouring program: fd, or -errno (log in vlog) */
static int load_insns(const struct bpf_insn *insns, size_t n, __u32 flags)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = vlog,
		    .log_size = sizeof(vlog), .log_level = 1,
		    .prog_flags = flags);

	vlog[0] = '\0';
	return bpf_prog_load(BPF_PROG_TYPE_IOURING, "chain_raw", "GPL", insns,
			     n, &opts);
}

/* the load fails with -@err and the log has @msg */
static void expect_reject(const char *what, const struct bpf_insn *insns,
			  size_t n, __u32 flags, int err, const char *msg)
{
	int fd = load_insns(insns, n, flags);

	if (fd >= 0) {
		close(fd);
		FAIL("%s: loaded, want %s \"%s\"", what, iocoro_errno_name(err),
		     msg);
	}
	if (fd != -err || !strstr(vlog, msg)) {
		fprintf(stderr, "verifier log:\n%s\n", vlog);
		FAIL("%s: load failed with %d (%s), want -%s and \"%s\" in the "
		     "log (above)", what, fd, iocoro_errno_name(-fd) ?: "?",
		     iocoro_errno_name(err), msg);
	}
}

static int expect_load(const char *what, const struct bpf_insn *insns,
		       size_t n, __u32 flags)
{
	int fd = load_insns(insns, n, flags);

	if (fd < 0) {
		fprintf(stderr, "verifier log:\n%s\n", vlog);
		FAIL("%s: load failed with %d (%s), want success", what, fd,
		     iocoro_errno_name(-fd) ?: "?");
	}
	return fd;
}

struct ctx_access {
	const char *what;
	int size; /* BPF_B, BPF_H, BPF_W, BPF_DW */
	int bytes;
	short off;
};

/* every forbidden access to the context is refused at load time */
static void t_verifier_ctx(void)
{
	static const struct ctx_access reads[] = {
		{ "read of resv", BPF_W, 4, 28 },
		{ "8-byte read of has_prev+resv", BPF_DW, 8, 24 },
		{ "byte read of resv", BPF_B, 1, 28 },
		{ "read past the end", BPF_DW, 8, 32 },
		{ "4-byte read past the end", BPF_W, 4, 32 },
		{ "read far out", BPF_W, 4, 4096 },
		{ "negative offset", BPF_W, 4, -4 },
		{ "misaligned 4-byte read", BPF_W, 4, 2 },
		{ "misaligned 8-byte read", BPF_DW, 8, 12 },
		{ "misaligned 8-byte read at 4", BPF_DW, 8, 4 },
		{ "misaligned 2-byte read", BPF_H, 2, 17 },
	};
	static const struct ctx_access writes[] = {
		{ "8-byte write of user_data", BPF_DW, 8, 0 },
		{ "4-byte write of prev_res", BPF_W, 4, 16 },
		{ "byte write of has_prev", BPF_B, 1, 24 },
		{ "write of resv", BPF_W, 4, 28 },
	};
	char msg[96], what[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(reads); i++) {
		const struct bpf_insn insns[] = {
			LDX(reads[i].size, BPF_REG_0, BPF_REG_1, reads[i].off),
			EXIT(),
		};

		snprintf(msg, sizeof(msg),
			 "invalid bpf_context access off=%d size=%d",
			 reads[i].off, reads[i].bytes);
		expect_reject(reads[i].what, insns, ARRAY_SIZE(insns), 0,
			      EACCES, msg);
	}
	for (i = 0; i < ARRAY_SIZE(writes); i++) {
		const struct bpf_insn stx[] = {
			MOV64_IMM(BPF_REG_2, 0),
			STX(writes[i].size, BPF_REG_1, BPF_REG_2, writes[i].off),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT(),
		};
		const struct bpf_insn st[] = {
			ST(writes[i].size, BPF_REG_1, writes[i].off, 1),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT(),
		};

		snprintf(msg, sizeof(msg),
			 "invalid bpf_context access off=%d size=%d",
			 writes[i].off, writes[i].bytes);
		snprintf(what, sizeof(what), "%s (STX)", writes[i].what);
		expect_reject(what, stx, ARRAY_SIZE(stx), 0, EACCES, msg);
		snprintf(what, sizeof(what), "%s (ST)", writes[i].what);
		expect_reject(what, st, ARRAY_SIZE(st), 0, EACCES, msg);
	}
	/* an atomic add to the context */
	{
		const struct bpf_insn insns[] = {
			MOV64_IMM(BPF_REG_2, 1),
			XADD(BPF_W, BPF_REG_1, BPF_REG_2, 16),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT(),
		};

		expect_reject("atomic add to prev_res", insns,
			      ARRAY_SIZE(insns), 0, EACCES,
			      "BPF_ATOMIC stores into R1 ctx is not allowed");
	}
	/* also from a sleepable program */
	{
		const struct bpf_insn insns[] = {
			MOV64_IMM(BPF_REG_2, 0),
			STX(BPF_W, BPF_REG_1, BPF_REG_2, 16),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT(),
		};

		expect_reject("write of prev_res, sleepable", insns,
			      ARRAY_SIZE(insns), BPF_F_SLEEPABLE, EACCES,
			      "invalid bpf_context access off=16 size=4");
	}
}

/* what the valid reads must see: ctx of a BPF request after a write */
#define V_UD 0x1112131405060708ULL
#define V_PREV_UD 0x0a0b0c0d01020304ULL
#define V_PREV_RES 777

/*
 * Every allowed read loads, and reads what the documented layout says
 * (the program returns what it read, truncated to the int result).
 */
static void t_verifier_ctx_valid(void)
{
	static const struct {
		int size, off;
		int want;	/* after a write of V_PREV_RES bytes */
		int want_alone; /* not linked */
	} reads[] = {
		{ BPF_DW, 0, 0x05060708, 0x05060708 },
		{ BPF_W, 0, 0x05060708, 0x05060708 },
		{ BPF_W, 4, 0x11121314, 0x11121314 },
		{ BPF_H, 6, 0x1112, 0x1112 },
		{ BPF_B, 7, 0x11, 0x11 },
		{ BPF_DW, 8, 0x01020304, 0 },
		{ BPF_W, 8, 0x01020304, 0 },
		{ BPF_W, 12, 0x0a0b0c0d, 0 },
		{ BPF_W, 16, V_PREV_RES, 0 },
		{ BPF_DW, 16, V_PREV_RES, 0 },
		{ BPF_H, 16, V_PREV_RES, 0 },
		{ BPF_W, 20, 0, 0 },
		{ BPF_W, 24, 1, 0 },
		{ BPF_B, 24, 1, 0 },
		{ BPF_H, 26, 0, 0 },
		{ BPF_B, 27, 0, 0 },
	};
	static char wbuf[V_PREV_RES];
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	char what[64];
	unsigned int i;
	int devnull;

	uring_bpf_register_sec(); /* nothing to do with raw loads, harmless */
	uring_init(&ring, 8, 0);
	devnull = CHECK_SYS(open("/dev/null", O_WRONLY | O_CLOEXEC));
	for (i = 0; i < ARRAY_SIZE(reads); i++) {
		const struct bpf_insn insns[] = {
			LDX(reads[i].size, BPF_REG_0, BPF_REG_1, reads[i].off),
			EXIT(),
		};
		int fd;

		snprintf(what, sizeof(what), "read of size %d at %d",
			 reads[i].size == BPF_DW ? 8 :
			 reads[i].size == BPF_W	 ? 4 :
			 reads[i].size == BPF_H	 ? 2 :
						   1,
			 reads[i].off);
		fd = expect_load(what, insns, ARRAY_SIZE(insns), 0);
		CHECK_EQ(uring_attach(&ring, &fd, 1), 0);

		sqe = uring_sqe(&ring);
		io_uring_prep_write(sqe, devnull, wbuf, V_PREV_RES, 0);
		sqe->flags = IOSQE_IO_HARDLINK;
		sqe->user_data = V_PREV_UD;
		uring_prep_bpf(&ring, 0, V_UD);
		uring_submit(&ring, 2);
		uring_reap(&ring, cqes, 2);
		EXPECT_CQE(cqes, 2, V_PREV_UD, V_PREV_RES);
		if (cqes[1].res != reads[i].want)
			FAIL("%s after a write: res %d (0x%x), want %d (0x%x)",
			     what, cqes[1].res, cqes[1].res, reads[i].want,
			     reads[i].want);
		EXPECT_CQE(cqes, 2, V_UD, reads[i].want);

		uring_prep_bpf(&ring, 0, V_UD);
		uring_submit(&ring, 1);
		uring_reap(&ring, cqes, 1);
		if (cqes[0].res != reads[i].want_alone)
			FAIL("%s, not linked: res %d (0x%x), want %d", what,
			     cqes[0].res, cqes[0].res, reads[i].want_alone);
		EXPECT_CQE(cqes, 1, V_UD, reads[i].want_alone);

		CHECK_EQ(uring_detach(&ring), 0);
		close(fd);
	}
	close(devnull);
	io_uring_queue_exit(&ring);
}

/* bpf_copy_from_user() needs a sleepable program; the helpers need ctx */
static void t_verifier_helpers(void)
{
	const struct bpf_insn copy[] = {
		MOV64_REG(BPF_REG_1, BPF_REG_10),
		ADD64_IMM(BPF_REG_1, -8),
		MOV64_IMM(BPF_REG_2, 8),
		MOV64_IMM(BPF_REG_3, 0),
		CALL(BPF_FUNC_copy_from_user),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};
	const struct bpf_insn emit_no_ctx[] = {
		MOV64_IMM(BPF_REG_1, 0),
		MOV64_IMM(BPF_REG_2, 1),
		MOV64_IMM(BPF_REG_3, 2),
		MOV64_IMM(BPF_REG_4, 0),
		CALL(BPF_FUNC_io_uring_emit_cqe),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};
	const struct bpf_insn emit[] = {
		MOV64_IMM(BPF_REG_2, 1),
		MOV64_IMM(BPF_REG_3, 2),
		MOV64_IMM(BPF_REG_4, 0),
		CALL(BPF_FUNC_io_uring_emit_cqe),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};

	expect_reject("bpf_copy_from_user, not sleepable", copy,
		      ARRAY_SIZE(copy), 0, EINVAL,
		      "program of this type cannot use helper "
		      "bpf_copy_from_user#148");
	close(expect_load("bpf_copy_from_user, sleepable", copy,
			  ARRAY_SIZE(copy), BPF_F_SLEEPABLE));

	expect_reject("emit_cqe without the ctx", emit_no_ctx,
		      ARRAY_SIZE(emit_no_ctx), 0, EACCES,
		      "R1 type=scalar expected=ctx");
	close(expect_load("emit_cqe", emit, ARRAY_SIZE(emit), 0));
	close(expect_load("emit_cqe, sleepable", emit, ARRAY_SIZE(emit),
			  BPF_F_SLEEPABLE));
}

/* ================================================= 8. the return value */

/* BPF -LINK-> NOP with the program returning @ret */
static void ret_then_nop(struct io_uring *ring, struct chain_bpf *skel,
			 int ret, int nop_res)
{
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;

	skel->bss->rv_ret = ret;
	skel->bss->rv_runs = 0;
	uring_prep_bpf(ring, P_RET_VAL, UD_BPF)->flags = IOSQE_IO_LINK;
	sqe = uring_sqe(ring);
	io_uring_prep_nop(sqe);
	sqe->user_data = UD_NOP;
	uring_submit(ring, 2);
	uring_reap(ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_BPF, ret);
	EXPECT_CQE(cqes, 2, UD_NOP, nop_res);
	CHECK_EQ(skel->bss->rv_runs, 1);
}

static void t_retval(void)
{
	struct io_uring ring;
	struct chain_bpf *skel = setup(&ring, 8);
	struct io_uring_cqe cqe, cqes[2];
	struct io_uring_sqe *sqe;

	ret_then_nop(&ring, skel, 12345, 0);
	ret_then_nop(&ring, skel, -ENOENT, -ECANCELED);
	ret_then_nop(&ring, skel, 0, 0);
	ret_then_nop(&ring, skel, INT_MAX, 0);
	ret_then_nop(&ring, skel, INT_MIN, -ECANCELED);
	ret_then_nop(&ring, skel, -1, -ECANCELED);
	ret_then_nop(&ring, skel, -4095, -ECANCELED);

	/* a hard link goes on after a negative result */
	skel->bss->rv_ret = -ENOENT;
	uring_prep_bpf(&ring, P_RET_VAL, UD_BPF)->flags = IOSQE_IO_HARDLINK;
	sqe = uring_sqe(&ring);
	io_uring_prep_nop(sqe);
	sqe->user_data = UD_NOP;
	uring_submit(&ring, 2);
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_BPF, -ENOENT);
	EXPECT_CQE(cqes, 2, UD_NOP, 0);

	/* CQE_SKIP_SUCCESS: a positive result is a success, no CQE */
	skel->bss->rv_ret = 12345;
	uring_prep_bpf(&ring, P_RET_VAL, UD_BPF)->flags =
		IOSQE_CQE_SKIP_SUCCESS;
	uring_submit(&ring, 1);
	uring_reap(&ring, NULL, 0);
	/* and a negative one is a failure: its CQE comes */
	skel->bss->rv_ret = -ENOENT;
	uring_prep_bpf(&ring, P_RET_VAL, UD_BPF)->flags =
		IOSQE_CQE_SKIP_SUCCESS;
	uring_submit(&ring, 1);
	uring_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, -ENOENT);
	teardown(&ring, skel);
}

/* a 64-bit r0 is taken as an int: the low 32 bits */
static void t_retval_raw(void)
{
	static const struct {
		__u64 r0;
		int res;
	} vals[] = {
		{ 0x100000005ULL, 5 },
		{ 0xffffffffffffffffULL, -1 },
		{ 0x7fffffff00000000ULL, 0 },
		{ 0x00000000fffffffeULL, -2 },
	};
	struct io_uring_cqe cqe;
	struct io_uring ring;
	unsigned int i;

	uring_init(&ring, 8, 0);
	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		const struct bpf_insn insns[] = {
			LD_IMM64(BPF_REG_0, vals[i].r0),
			EXIT(),
		};
		int fd = expect_load("r0 = imm64", insns, ARRAY_SIZE(insns), 0);

		CHECK_EQ(uring_attach(&ring, &fd, 1), 0);
		uring_prep_bpf(&ring, 0, UD_BPF);
		uring_submit(&ring, 1);
		uring_reap(&ring, &cqe, 1);
		if (cqe.res != vals[i].res)
			FAIL("r0 = 0x%llx: res %d, want %d",
			     (unsigned long long)vals[i].r0, cqe.res,
			     vals[i].res);
		CHECK_CQE(&cqe, UD_BPF, vals[i].res);
		CHECK_EQ(uring_detach(&ring), 0);
		close(fd);
	}
	io_uring_queue_exit(&ring);
}

/* ================================================================ main */

struct test_case {
	const char *name;
	void (*fn)(void);
};

#define CASE(n) { #n, t_##n }

static const struct test_case cases[] = {
	CASE(nop_chain),
	CASE(read_sleepable),
	CASE(read_pipe),
	CASE(copy_fault),
	CASE(failed_op),
	CASE(prev_of_bpf),
	CASE(emit_values),
	CASE(emit_overflow),
	CASE(budget_self),
	CASE(budget_default),
	CASE(budget_fanout),
	CASE(budget_chain),
	CASE(budget_register),
	CASE(teardown_close),
	CASE(teardown_exit),
	CASE(teardown_sigkill),
	CASE(teardown_exec),
	CASE(teardown_sigkill_busy),
	CASE(teardown_taskwork),
	CASE(sigkill_cqe),
	CASE(verifier_ctx),
	CASE(verifier_ctx_valid),
	CASE(verifier_helpers),
	CASE(retval),
	CASE(retval_raw),
};

/* @list (comma-separated) names exactly the cases, in order */
static int check_list(const char *list)
{
	char *copy = strdup(list), *save = NULL, *name;
	unsigned int i = 0;

	CHECK(copy != NULL);
	for (name = strtok_r(copy, ",", &save); name;
	     name = strtok_r(NULL, ",", &save), i++) {
		if (i >= ARRAY_SIZE(cases) || strcmp(name, cases[i].name))
			FAIL("CMake's CHAIN_CASES entry %u is '%s', the case "
			     "table's is '%s'", i, name,
			     i < ARRAY_SIZE(cases) ? cases[i].name : "(none)");
	}
	if (i != ARRAY_SIZE(cases))
		FAIL("CMake's CHAIN_CASES has %u entries, the case table %zu",
		     i, ARRAY_SIZE(cases));
	free(copy);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "--exit0"))
		return 0;
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < ARRAY_SIZE(cases); i++)
			printf("%s\n", cases[i].name);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--check-list"))
		return check_list(argv[2]);
	if (argc != 2) {
		fprintf(stderr, "usage: %s <case> | --list | --check-list "
				"a,b,...\n",
			argv[0]);
		return 2;
	}
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (!strcmp(argv[1], cases[i].name)) {
			cases[i].fn();
			printf("%s: ok\n", cases[i].name);
			return 0;
		}
	}
	fprintf(stderr, "%s: no case '%s' (--list shows them)\n", argv[0],
		argv[1]);
	return 2;
}
