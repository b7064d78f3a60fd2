// SPDX-License-Identifier: MIT
/*
 * Guest tests of the series' hardening (issue 8): each case proves one fix
 * and fails on the series before it (v2).
 *
 *   sqe_lifetime     1: a linked IORING_OP_URING_CMD (GETSOCKOPT SO_TYPE)
 *                    queued by a program reads its own SQE, not the one the
 *                    next run wrote to the table's SQE buffer (v2: it read
 *                    the other run's SQE) nor freed memory after a detach
 *                    (v2: use-after-free, KASAN)
 *   personality      2: an OPENAT queued by a program run with
 *                    sqe->personality P gets P's -EACCES, as the same OPENAT
 *                    from user space with P does; the program sees P's
 *                    uid/gid (v2: the task's own credentials, the open works)
 *   owner            3: a task that inherited the ring fd but is neither the
 *                    attacher's euid nor CAP_BPF gets -EPERM for the budget,
 *                    detach and IORING_OP_BPF (program not run); the same
 *                    euid without capabilities may (v2: anyone could)
 *   reattach         4: a step prepared against a detached table completes
 *                    with -EBADF, also when another table is attached now
 *                    (v2: the new table's program at that index ran)
 *   retval_pointer   5: a program returning a pointer in R0 does not load
 *                    (-EINVAL, "At program exit the register R0 is not a
 *                    known value"); 32-bit scalars still do (v2: loaded)
 *   drain            6: IOSQE_IO_DRAIN after SQEs queued by programs, and on
 *                    an SQE queued by a program, waits for exactly what came
 *                    before, then runs (v2: a drained SQE waited for ever)
 *   emit_cap         7: one run looping over bpf_io_uring_emit_cqe() 1<<16
 *                    times posts IORING_BPF_MAX_CQES CQEs, the rest are
 *                    -EBUSY (v2: it posted all 65536)
 *   starvation       8: 120 endless chains of 10 ms TIMEOUT -> BPF: a 100 ms
 *                    io_uring_wait_cqe_timeout() returns -ETIME in < 200 ms
 *                    (v2: seconds, task_work never ended); so do the
 *                    submit and waits of a task with 4 chains that never
 *                    wait (NOP -> BPF; v2: never)
 *   starvation_defer 8: the same on an IORING_SETUP_DEFER_TASKRUN ring (v2:
 *                    the local-work loop of the busy chains never ended)
 *   stop             8: with 500 such chains, or 4 that never wait, SIGSTOP
 *                    stops the task within 1 s, it runs no step while
 *                    stopped, SIGCONT continues and SIGKILL ends it; normal
 *                    and DEFER_TASKRUN rings (v2: not stopped after 10 s)
 *   dropped_batch    9: when requests cannot be allocated (failslab) midway
 *                    through a run's batch of 24 NOPs, every NOP gets
 *                    exactly one CQE, -ENOMEM from the first failed one on
 *                    (v2: those after the failure got no CQE)
 *   budget_queue    10: queue_sqe() refuses (-ELOOP) an IORING_OP_BPF SQE
 *                    the budget cannot pay for, so the program finishes
 *                    cleanly with its own result (v2: the step was queued
 *                    and then failed with -ELOOP after the work was done)
 *   register_gap    issue 14: io_uring_register opcodes 31..47 (later
 *                    kernels' SEND_MSG_RING ...) are -EINVAL whatever the
 *                    fd; the BPF opcodes are 48..50 (v2: 31..33, -EBADF)
 *
 * Usage: hardening_test <case> | --list   (tests/lib/case.h)
 *
 * Every case asserts exact values and fails on the first mismatch; none
 * skips. Cases that measure print their numbers on stdout. The only timed
 * bounds are item 8's (wait < 2x its timeout, stop within 1 s); the other
 * time limits only keep a broken kernel from hanging the test. The
 * programs are in hardening.bpf.c.
 */
#define _GNU_SOURCE
#include <linux/io_uring.h> /* before liburing.h: the patched uapi wins */
#include <liburing.h>

#include <linux/bpf.h>
#include <linux/capability.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf_insn.h"
#include "case.h"
#include "check.h"
#include "uring_bpf.h"
#include "hardening.skel.h"

/* the ABI of series v3 (issue 14), as the patched uapi headers define it */
_Static_assert(IORING_ATTACH_BPF == 48, "IORING_ATTACH_BPF is 48");
_Static_assert(IORING_DETACH_BPF == 49, "IORING_DETACH_BPF is 49");
_Static_assert(IORING_REGISTER_BPF_BUDGET == 50,
	       "IORING_REGISTER_BPF_BUDGET is 50");
_Static_assert(IORING_OP_BPF == 58, "IORING_OP_BPF is 58");

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#include "hardening_progs.h" /* shared with hardening.bpf.c */

#define UD_BPF 0xb0f0000000000000ULL /* | batch (qbatch) */
#define UD_READ 0x4ead000000000001ULL
#define UD_READ2 0x4ead000000000002ULL
#define UD_CMD1 0xc0d0000000000001ULL
#define UD_CMD2 0xc0d0000000000002ULL
#define UD_NOP 0x0e0f000000000000ULL /* + i */
#define UD_OPEN 0x0be0000000000001ULL
#define UD_OPEN2 0x0be0000000000002ULL
#define UD_EMIT 0xe0e0000000000000ULL /* + i */
#define UD_TIMEOUT 0x7100000000000000ULL
#define UD_BQ 0xb9b9000000000000ULL /* low 16 bits: depth, child */

/* a guest-side bound for "must come back", not a measurement */
#define LIVE_BOUND_MS 30000

/* ---------------------------------------------------------------- helpers */

static struct hardening_bpf *skel_load_opt(bool whoami)
{
	struct hardening_bpf *skel;
	int err;

	uring_bpf_register_sec();
	skel = hardening_bpf__open();
	if (!skel)
		FAIL("hardening_bpf__open: %s", strerror(errno));
	/* whoami needs bpf_get_current_uid_gid(): only personality loads it */
	CHECK_EQ(bpf_program__set_autoload(skel->progs.whoami, whoami), 0);
	err = hardening_bpf__load(skel);
	if (err)
		FAIL("hardening_bpf__load: %d (%s)", err, strerror(-err));
	CHECK_EQ(bpf_program__type(skel->progs.qbatch), BPF_PROG_TYPE_IOURING);
	return skel;
}

static struct hardening_bpf *skel_load(void)
{
	return skel_load_opt(false);
}

/* a table of the one program @prog at index 0 */
static void attach1(struct io_uring *ring, const struct bpf_program *prog)
{
	int fd = uring_prog_fd(prog);

	CHECK_EQ(uring_attach(ring, &fd, 1), 0);
}

/* entry @i of qbatch's batch @b is @sqe; the batch has i + 1 entries */
static void qb_put(struct hardening_bpf *skel, unsigned int b, unsigned int i,
		   const struct io_uring_sqe *sqe)
{
	CHECK(b < QB_NB && i < QB_MAX);
	memcpy(skel->bss->qb_sqes[b][i], sqe, SQE_SIZE);
	skel->bss->qb_n[b] = i + 1;
	skel->bss->qb_rc[b][i] = 1;
}

static void qb_nop(struct hardening_bpf *skel, unsigned int b, unsigned int i,
		   __u8 flags, __u64 ud)
{
	struct io_uring_sqe sqe;

	memset(&sqe, 0, sizeof(sqe));
	io_uring_prep_nop(&sqe);
	sqe.flags = flags;
	sqe.user_data = ud;
	qb_put(skel, b, i, &sqe);
}

static void qb_read(struct hardening_bpf *skel, unsigned int b,
		    unsigned int i, int fd, void *buf, unsigned int len,
		    __u8 flags, __u64 ud)
{
	struct io_uring_sqe sqe;

	memset(&sqe, 0, sizeof(sqe));
	io_uring_prep_read(&sqe, fd, buf, len, 0);
	sqe.flags = flags;
	sqe.user_data = ud;
	qb_put(skel, b, i, &sqe);
}

/* every queue_sqe() of batch @b returned 0 */
static void qb_check_queued(struct hardening_bpf *skel, unsigned int b)
{
	unsigned int i;

	for (i = 0; i < skel->bss->qb_n[b]; i++)
		if (skel->bss->qb_rc[b][i])
			FAIL("queue_sqe of batch %u entry %u: %ld, want 0", b,
			     i, skel->bss->qb_rc[b][i]);
}

/* an IORING_OP_BPF request of qbatch (index 0) for batch @b */
static struct io_uring_sqe *prep_qbatch(struct io_uring *ring, unsigned int b)
{
	return uring_prep_bpf(ring, 0, UD_BPF | b);
}

/* the fdinfo of @ring has the line @line (with its '\n') exactly once */
static void check_fdinfo_line(struct io_uring *ring, const char *line)
{
	char *info = uring_fdinfo(ring);
	char *hit = strstr(info, line);

	if (!hit || strstr(hit + 1, line) || (hit != info && hit[-1] != '\n')) {
		fprintf(stderr, "fdinfo of the ring:\n%s\n", info);
		FAIL("fdinfo has not exactly once the line '%.*s'",
		     (int)strlen(line) - 1, line);
	}
}

static void check_fdinfo_budget(struct io_uring *ring, unsigned int budget)
{
	char line[64];

	snprintf(line, sizeof(line), "BpfBudget:\t%u\n", budget);
	check_fdinfo_line(ring, line);
}

static double ms_since(uint64_t t0)
{
	return (double)(uring_now_ns() - t0) / 1e6;
}

/* io_uring_enter(2) raw: the result or -errno */
static int enter(struct io_uring *ring, unsigned int to_submit,
		 unsigned int min_complete, unsigned int flags)
{
	long ret = syscall(__NR_io_uring_enter, ring->ring_fd, to_submit,
			   min_complete, flags, NULL, 0);

	return ret < 0 ? -errno : (int)ret;
}

/* capabilities: get, set (all three sets as given) */
struct caps {
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
};

static void caps_get(struct caps *c)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};

	CHECK_SYS(syscall(SYS_capget, &hdr, c->d));
}

static void caps_set(const struct caps *c)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};

	CHECK_SYS(syscall(SYS_capset, &hdr, c->d));
}

static bool caps_effective_empty(void)
{
	struct caps c;
	unsigned int i;

	caps_get(&c);
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		if (c.d[i].effective)
			return false;
	return true;
}

/* the user nobody has no capabilities and owns nothing here */
#define NOBODY 65534

/* become nobody for good (a child only): no capabilities left */
static void become_nobody(void)
{
	CHECK_SYS(setgroups(0, NULL));
	CHECK_SYS(setresgid(NOBODY, NOBODY, NOBODY));
	CHECK_SYS(setresuid(NOBODY, NOBODY, NOBODY));
	CHECK(caps_effective_empty());
}

/* ===================================================== 1. SQE lifetime */

/* an IORING_OP_URING_CMD GETSOCKOPT(SOL_SOCKET, @optname) into @val */
static void qb_getsockopt(struct hardening_bpf *skel, unsigned int b,
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
 * and rewrites the table's SQE buffer, or the table is detached (freed in
 * v2). Either way the first uring_cmd must answer SO_TYPE into val1.
 */
IOCORO_CASE(sqe_lifetime)
{
	static int val1, val2;
	static char buf[8];
	struct hardening_bpf *skel = skel_load();
	struct io_uring_cqe cqes[3];
	struct io_uring ring;
	int p[2], sock;

	uring_init(&ring, 16, 0);
	attach1(&ring, skel->progs.qbatch);
	/* a datagram socket; its SO_TYPE is SOCK_DGRAM */
	sock = CHECK_SYS(socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0));
	CHECK_SYS(pipe2(p, O_CLOEXEC));

	qb_read(skel, 0, 0, p[0], buf, sizeof(buf), IOSQE_IO_HARDLINK, UD_READ);
	qb_getsockopt(skel, 0, 1, sock, SO_TYPE, &val1, UD_CMD1);
	qb_nop(skel, 1, 0, 0, UD_NOP);
	qb_getsockopt(skel, 1, 1, sock, SO_RCVBUF, &val2, UD_CMD2);

	/* the next run overwrites the SQE buffer */
	val1 = val2 = -1;
	prep_qbatch(&ring, 0);
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 1);
	EXPECT_CQE(cqes, 1, UD_BPF | 0, 0);
	qb_check_queued(skel, 0);

	prep_qbatch(&ring, 1);
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_BPF | 1, 0);
	EXPECT_CQE(cqes, 3, UD_NOP, 0);
	EXPECT_CQE(cqes, 3, UD_CMD2, sizeof(int));
	qb_check_queued(skel, 1);
	CHECK(val2 > 0);
	CHECK_EQ(val1, -1);
	printf("sqe_lifetime: SO_RCVBUF %d\n", val2);

	val2 = -1;
	uring_write_byte(p[1], 'x');
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_READ, 1);
	EXPECT_CQE(cqes, 2, UD_CMD1, sizeof(int));
	if (val1 != SOCK_DGRAM || val2 != -1)
		FAIL("the linked uring_cmd wrote val1 %d (want SOCK_DGRAM %d), "
		     "val2 %d (want -1): it read the next run's SQE", val1,
		     SOCK_DGRAM, val2);

	/* detached before the uring_cmd is issued */
	val1 = -1;
	prep_qbatch(&ring, 0);
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 1);
	EXPECT_CQE(cqes, 1, UD_BPF | 0, 0);
	CHECK_EQ(uring_detach(&ring), 0);
	uring_write_byte(p[1], 'y');
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_READ, 1);
	EXPECT_CQE(cqes, 2, UD_CMD1, sizeof(int));
	CHECK_EQ(val1, SOCK_DGRAM);
	CHECK_EQ(val2, -1);

	close(sock);
	close(p[0]);
	close(p[1]);
	io_uring_queue_exit(&ring);
	hardening_bpf__destroy(skel);
}

/* ====================================================== 2. personality */

/*
 * Register a personality P of the credentials: real uid and gid NOBODY,
 * effective uid 0 (the attacher's, so that item 3 lets P run the table),
 * no effective capabilities. P cannot open a root-only file owned by
 * someone else; this task can.
 */
static int register_weak_personality(struct io_uring *ring)
{
	struct caps full, none;
	int id;

	caps_get(&full);
	none = full;
	for (unsigned int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		none.d[i].effective = 0;

	CHECK_SYS(setresgid(NOBODY, -1, -1));
	CHECK_SYS(setresuid(NOBODY, -1, -1));
	caps_set(&none);
	id = io_uring_register_personality(ring);
	caps_set(&full);
	CHECK_SYS(setresuid(0, -1, -1));
	CHECK_SYS(setresgid(0, -1, -1));
	if (id <= 0)
		FAIL("io_uring_register_personality: %d", id);
	CHECK_EQ(getuid(), 0);
	CHECK_EQ(getgid(), 0);
	CHECK_EQ(geteuid(), 0);
	return id;
}

static void prep_open(struct io_uring_sqe *sqe, const char *path, __u64 ud)
{
	io_uring_prep_openat(sqe, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);
	sqe->user_data = ud;
}

/* the one CQE with @ud is an open fd: close it */
static void expect_open_ok(const struct io_uring_cqe *cqes, unsigned int n,
			   __u64 ud)
{
	const struct io_uring_cqe *c = uring_find_cqe(cqes, n, ud);

	if (c->res < 0) {
		uring_dump_cqes(cqes, n);
		FAIL("OPENAT 0x%llx: %d, want an fd", (unsigned long long)ud,
		     c->res);
	}
	close(c->res);
}

IOCORO_CASE(personality)
{
	char path[] = "/tmp/iocoro-hard-XXXXXX";
	struct hardening_bpf *skel = skel_load(), *wskel;
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe sqe, *s;
	struct io_uring ring;
	int fd, pers;

	fd = CHECK_SYS(mkstemp(path));
	CHECK_SYS(fchown(fd, 1000, 1000));
	CHECK_SYS(fchmod(fd, 0600));
	close(fd);

	uring_init(&ring, 8, 0);
	attach1(&ring, skel->progs.qbatch);
	pers = register_weak_personality(&ring);

	/* from user space: with P -EACCES, without it the open works */
	s = uring_sqe(&ring);
	prep_open(s, path, UD_OPEN);
	s->personality = pers;
	s = uring_sqe(&ring);
	prep_open(s, path, UD_OPEN2);
	uring_submit(&ring, 2);
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_OPEN, -EACCES);
	expect_open_ok(cqes, 2, UD_OPEN2);

	/* the same OPENAT queued by a program run with P */
	memset(&sqe, 0, sizeof(sqe));
	prep_open(&sqe, path, UD_OPEN);
	qb_put(skel, 0, 0, &sqe);
	prep_qbatch(&ring, 0)->personality = pers;
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_BPF | 0, 0);
	if (uring_find_cqe(cqes, 2, UD_OPEN)->res >= 0)
		close(uring_find_cqe(cqes, 2, UD_OPEN)->res);
	EXPECT_CQE(cqes, 2, UD_OPEN, -EACCES);
	qb_check_queued(skel, 0);

	/* and by a program run without a personality: the task's own */
	prep_qbatch(&ring, 0);
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_BPF | 0, 0);
	expect_open_ok(cqes, 2, UD_OPEN);

	/* the program itself runs as P: bpf_get_current_uid_gid() */
	CHECK_EQ(uring_detach(&ring), 0);
	/* fails the test (log above) if the helper is not allowed */
	printf("personality: the OPENATs are as P's; now the program's "
	       "bpf_get_current_uid_gid()\n");
	wskel = skel_load_opt(true);
	attach1(&ring, wskel->progs.whoami);
	qb_put(wskel, 0, 0, &sqe);
	wskel->bss->wh_uidgid = 1;
	uring_prep_bpf(&ring, 0, UD_BPF)->personality = pers;
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_BPF, 0);
	if (uring_find_cqe(cqes, 2, UD_OPEN)->res >= 0)
		close(uring_find_cqe(cqes, 2, UD_OPEN)->res);
	EXPECT_CQE(cqes, 2, UD_OPEN, -EACCES);
	CHECK_EQ(wskel->bss->wh_runs, 1);
	CHECK_EQ_U64(wskel->bss->wh_uidgid,
		     ((__u64)NOBODY << 32) | (__u64)NOBODY);
	/* without: root */
	uring_prep_bpf(&ring, 0, UD_BPF);
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_BPF, 0);
	expect_open_ok(cqes, 2, UD_OPEN);
	CHECK_EQ_U64(wskel->bss->wh_uidgid, 0);

	CHECK_EQ(io_uring_unregister_personality(&ring, pers), 0);
	CHECK_SYS(unlink(path));
	io_uring_queue_exit(&ring);
	hardening_bpf__destroy(wskel);
	hardening_bpf__destroy(skel);
}

/* ============================================================ 3. owner */

/* the child of owner: the checks, then exit 0 (a failed CHECK exits 1) */
static void owner_child_nobody(struct io_uring *ring,
			       struct hardening_bpf *skel)
{
	struct io_uring_cqe cqe;
	struct io_uring own;
	int fd = uring_prog_fd(skel->progs.tag_a);

	become_nobody();
	CHECK_EQ(uring_set_budget(ring, 5), -EPERM);
	CHECK_EQ(uring_detach(ring), -EPERM);
	uring_prep_bpf(ring, 0, UD_BPF);
	uring_submit(ring, 1);
	uring_reap(ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, -EPERM);
	CHECK_EQ(skel->bss->ta_runs, 0);
	/* attach still needs CAP_BPF, on a ring of its own too */
	uring_init(&own, 4, 0);
	CHECK_EQ(uring_attach(&own, &fd, 1), -EPERM);
	io_uring_queue_exit(&own);
	_exit(0);
}

static void owner_child_same_euid(struct io_uring *ring,
				  struct hardening_bpf *skel)
{
	struct io_uring_cqe cqe;
	struct caps none;

	/* euid 0 like the attacher, but no capability at all */
	memset(&none, 0, sizeof(none));
	caps_set(&none);
	CHECK(caps_effective_empty());
	CHECK_EQ(uring_set_budget(ring, 77), 0);
	uring_prep_bpf(ring, 0, UD_BPF);
	uring_submit(ring, 1);
	uring_reap(ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, 77);
	CHECK_EQ(skel->bss->ta_runs, 2);
	_exit(0);
}

static void run_owner_child(struct io_uring *ring, struct hardening_bpf *skel,
			    void (*fn)(struct io_uring *,
				       struct hardening_bpf *),
			    const char *what)
{
	int p[2], status;
	pid_t pid;

	pid = uring_fork_with_pipe(p);
	if (!pid)
		fn(ring, skel);
	close(p[0]);
	if (!uring_reap_child_ms(pid, LIVE_BOUND_MS, &status)) {
		uring_dump_task(pid);
		kill(pid, SIGKILL);
		FAIL("%s: the child did not end", what);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		FAIL("%s: the child's checks failed (wait status 0x%x, above)",
		     what, status);
	uring_sync_sq(ring);
}

IOCORO_CASE(owner)
{
	struct hardening_bpf *skel = skel_load();
	struct io_uring_cqe cqe;
	struct io_uring ring;

	uring_init(&ring, 8, 0);
	attach1(&ring, skel->progs.tag_a);
	skel->bss->ta_ret = 77;

	run_owner_child(&ring, skel, owner_child_nobody, "uid nobody");
	/* nothing changed: the table, its budget; no run */
	check_fdinfo_line(&ring, "BpfProgs:\t1\n");
	check_fdinfo_budget(&ring, IORING_BPF_DEFAULT_BUDGET);
	CHECK_EQ(skel->bss->ta_runs, 0);
	uring_reap(&ring, NULL, 0);

	/* the attacher */
	uring_prep_bpf(&ring, 0, UD_BPF);
	uring_submit(&ring, 1);
	uring_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, 77);
	CHECK_EQ(skel->bss->ta_runs, 1);

	run_owner_child(&ring, skel, owner_child_same_euid,
			"euid 0 without capabilities");
	check_fdinfo_budget(&ring, 77);
	CHECK_EQ(skel->bss->ta_runs, 2);
	uring_reap(&ring, NULL, 0);

	CHECK_EQ(uring_detach(&ring), 0);
	io_uring_queue_exit(&ring);
	hardening_bpf__destroy(skel);
}

/* ========================================================= 4. reattach */

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

/* =================================================== 5. return value */

static char vlog[1 << 16];

static int load_insns(const struct bpf_insn *insns, size_t n)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = vlog,
		    .log_size = sizeof(vlog), .log_level = 1);

	vlog[0] = '\0';
	return bpf_prog_load(BPF_PROG_TYPE_IOURING, "hard_raw", "GPL", insns,
			     n, &opts);
}

#define RETVAL_MSG "At program exit the register R0 is not a known value"

static void expect_pointer_reject(const char *what,
				  const struct bpf_insn *insns, size_t n)
{
	int fd = load_insns(insns, n);

	if (fd >= 0) {
		close(fd);
		FAIL("%s: loaded, want -EINVAL \"" RETVAL_MSG "\"", what);
	}
	if (fd != -EINVAL || !strstr(vlog, RETVAL_MSG)) {
		fprintf(stderr, "verifier log:\n%s\n", vlog);
		FAIL("%s: load failed with %d (%s), want -EINVAL and \""
		     RETVAL_MSG "\" in the log (above)", what, fd,
		     iocoro_errno_name(-fd) ?: "?");
	}
}

/* @insns load, and a request of them completes with @res (+ @extra CQEs) */
static void expect_result(struct io_uring *ring, const char *what,
			  const struct bpf_insn *insns, size_t n, int res,
			  unsigned int extra)
{
	struct io_uring_cqe cqes[2];
	int fd = load_insns(insns, n);

	if (fd < 0) {
		fprintf(stderr, "verifier log:\n%s\n", vlog);
		FAIL("%s: load failed with %d (%s), want success", what, fd,
		     iocoro_errno_name(-fd) ?: "?");
	}
	CHECK_EQ(uring_attach(ring, &fd, 1), 0);
	uring_prep_bpf(ring, 0, UD_BPF);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 1 + extra);
	if (uring_find_cqe(cqes, 1 + extra, UD_BPF)->res != res)
		fprintf(stderr, "%s:\n", what);
	EXPECT_CQE(cqes, 1 + extra, UD_BPF, res);
	CHECK_EQ(uring_detach(ring), 0);
	close(fd);
}

IOCORO_CASE(retval_pointer)
{
	const struct bpf_insn ctx_ptr[] = { MOV64_REG(BPF_REG_0, BPF_REG_1),
					    EXIT() };
	const struct bpf_insn stack_ptr[] = { MOV64_REG(BPF_REG_0, BPF_REG_10),
					      EXIT() };
	const struct bpf_insn w0[] = { MOV32_IMM(BPF_REG_0, -5), EXIT() };
	const struct bpf_insn r0[] = { MOV64_IMM(BPF_REG_0, -5), EXIT() };
	/* r0 = bpf_io_uring_emit_cqe(ctx, UD_EMIT, 1, 0): an unknown scalar */
	const struct bpf_insn helper[] = {
		MOV64_IMM(BPF_REG_2, 0x1234),
		MOV64_IMM(BPF_REG_3, 1),
		MOV64_IMM(BPF_REG_4, 0),
		CALL(BPF_FUNC_io_uring_emit_cqe),
		EXIT(),
	};
	struct io_uring ring;

	uring_bpf_register_sec();
	expect_pointer_reject("r0 = ctx", ctx_ptr, ARRAY_SIZE(ctx_ptr));
	expect_pointer_reject("r0 = stack pointer", stack_ptr,
			      ARRAY_SIZE(stack_ptr));

	uring_init(&ring, 8, 0);
	expect_result(&ring, "w0 = -5", w0, ARRAY_SIZE(w0), -5, 0);
	expect_result(&ring, "r0 = -5", r0, ARRAY_SIZE(r0), -5, 0);
	expect_result(&ring, "r0 = helper result", helper, ARRAY_SIZE(helper),
		      0, 1);
	io_uring_queue_exit(&ring);
}

/* ============================================================ 6. drain */

IOCORO_CASE(drain)
{
	struct hardening_bpf *skel = skel_load();
	struct io_uring_cqe cqes[3], *cqe;
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	static char buf[8];
	int pa[2], pb[2];

	uring_init(&ring, 16, 0);
	attach1(&ring, skel->progs.qbatch);
	CHECK_SYS(pipe2(pa, O_CLOEXEC));
	CHECK_SYS(pipe2(pb, O_CLOEXEC));

	/* a user-space drain after two SQEs queued by a program */
	qb_nop(skel, 0, 0, 0, UD_NOP + 0);
	qb_nop(skel, 0, 1, 0, UD_NOP + 1);
	prep_qbatch(&ring, 0);
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_BPF | 0, 0);
	EXPECT_CQE(cqes, 3, UD_NOP + 0, 0);
	EXPECT_CQE(cqes, 3, UD_NOP + 1, 0);
	qb_check_queued(skel, 0);

	sqe = uring_sqe(&ring);
	io_uring_prep_nop(sqe);
	sqe->flags = IOSQE_IO_DRAIN;
	sqe->user_data = UD_NOP + 2;
	sqe = uring_sqe(&ring);
	io_uring_prep_nop(sqe);
	sqe->user_data = UD_NOP + 3;
	uring_submit(&ring, 2);
	/*
	 * Nothing is in flight: the drained NOP goes through task_work and
	 * the next one may pass it (as in stock 6.12); both complete.
	 */
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_NOP + 2, 0);
	EXPECT_CQE(cqes, 2, UD_NOP + 3, 0);

	/* a user-space drain waits for a READ a program queued */
	qb_read(skel, 1, 0, pa[0], buf, sizeof(buf), 0, UD_READ);
	prep_qbatch(&ring, 1);
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 1);
	EXPECT_CQE(cqes, 1, UD_BPF | 1, 0);
	qb_check_queued(skel, 1);
	sqe = uring_sqe(&ring);
	io_uring_prep_nop(sqe);
	sqe->flags = IOSQE_IO_DRAIN;
	sqe->user_data = UD_NOP + 4;
	uring_submit(&ring, 1);
	CHECK_EQ(uring_wait_cqe_ms(&ring, &cqe, URING_NO_CQE_MS), -ETIME);
	uring_write_byte(pa[1], 'x');
	uring_reap(&ring, cqes, 2);
	CHECK_CQE(&cqes[0], UD_READ, 1);
	CHECK_CQE(&cqes[1], UD_NOP + 4, 0);

	/* a drained SQE queued by a program waits for a user-space READ */
	sqe = uring_sqe(&ring);
	io_uring_prep_read(sqe, pb[0], buf, sizeof(buf), 0);
	sqe->user_data = UD_READ2;
	uring_submit(&ring, 1);
	qb_nop(skel, 2, 0, 0, UD_NOP + 5);
	qb_nop(skel, 2, 1, IOSQE_IO_DRAIN, UD_NOP + 6);
	prep_qbatch(&ring, 2);
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_BPF | 2, 0);
	EXPECT_CQE(cqes, 2, UD_NOP + 5, 0);
	qb_check_queued(skel, 2);
	uring_write_byte(pb[1], 'x');
	uring_reap(&ring, cqes, 2);
	CHECK_CQE(&cqes[0], UD_READ2, 1);
	CHECK_CQE(&cqes[1], UD_NOP + 6, 0);

	/* and the ring still drains */
	sqe = uring_sqe(&ring);
	io_uring_prep_nop(sqe);
	sqe->flags = IOSQE_IO_DRAIN;
	sqe->user_data = UD_NOP + 7;
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 1);
	CHECK_CQE(&cqes[0], UD_NOP + 7, 0);

	close(pa[0]);
	close(pa[1]);
	close(pb[0]);
	close(pb[1]);
	io_uring_queue_exit(&ring);
	hardening_bpf__destroy(skel);
}

/* ========================================================= 7. emit_cqe */

#define EMIT_LOOPS (1U << 16)

/* one run of emit_flood with @nr calls: IORING_BPF_MAX_CQES CQEs posted */
static void emit_run(struct io_uring *ring, struct hardening_bpf *skel,
		     unsigned int nr)
{
	const unsigned int want = IORING_BPF_MAX_CQES;
	struct io_uring_cqe *cqes = calloc(want + 1, sizeof(*cqes));
	uint64_t t0;
	double run_ms;
	unsigned int i;

	CHECK(cqes != NULL);
	CHECK(nr > want);
	skel->bss->ef_nr = nr;
	skel->bss->ef_base = UD_EMIT;
	skel->bss->ef_runs = 0;
	uring_prep_bpf(ring, 0, UD_BPF);
	t0 = uring_now_ns();
	/* the program runs before io_uring_submit() returns (task_work) */
	uring_submit(ring, 1);
	run_ms = ms_since(t0);
	printf("emit_cap: %u calls: %u posted, %u x -EBUSY, %u other, "
	       "run %.1f ms\n", nr, skel->bss->ef_ok, skel->bss->ef_ebusy,
	       skel->bss->ef_other, run_ms);
	CHECK_EQ(skel->bss->ef_runs, 1);
	CHECK_EQ(skel->bss->ef_ok, want);
	CHECK_EQ(skel->bss->ef_ebusy, nr - want);
	CHECK_EQ(skel->bss->ef_other, 0);
	uring_reap(ring, cqes, want + 1);
	for (i = 0; i < want; i++) {
		if (cqes[i].user_data != UD_EMIT + i || cqes[i].res != (int)i ||
		    cqes[i].flags)
			uring_dump_cqes(cqes, want + 1);
		CHECK_CQE(&cqes[i], UD_EMIT + i, i);
		CHECK_EQ(cqes[i].flags, 0);
	}
	CHECK_CQE(&cqes[want], UD_BPF, want);
	CHECK_EQ(cqes[want].flags, 0);
	CHECK_EQ(*ring->cq.koverflow, 0);
	free(cqes);
}

IOCORO_CASE(emit_cap)
{
	struct io_uring_params p = {
		.flags = IORING_SETUP_CQSIZE,
		.cq_entries = 8,
	};
	struct hardening_bpf *skel = skel_load();
	struct io_uring ring;

	/* the issue's 8-entry CQ: most CQEs go to the overflow list */
	uring_init_params(&ring, 8, &p);
	CHECK_EQ(ring.cq.ring_entries, 8);
	attach1(&ring, skel->progs.emit_flood);
	emit_run(&ring, skel, EMIT_LOOPS);
	/* the cap is per run: the next one posts as many again */
	emit_run(&ring, skel, IORING_BPF_MAX_CQES + 1);
	io_uring_queue_exit(&ring);
	hardening_bpf__destroy(skel);
}

/* ======================================================= 8. starvation */

#define ST_CHAINS 120 /* the issue's number */
#define ST_BUSY_CHAINS 4
#define ST_STEP_MS 10
#define ST_WAIT_MS 100
#define ST_WAIT_BOUND_MS (2 * ST_WAIT_MS) /* issue 8: within 2x */
#define ST_WAITS 10
#define STOP_CHAINS 500
#define STOP_BOUND_MS 1000 /* issue 8: a stopped task stops within 1 s */
#define STOP_WATCH_MS 10000 /* how long we watch, to print the time */

static struct __kernel_timespec st_ts = { 0, ST_STEP_MS * 1000000LL };

static void tick_setup(struct hardening_bpf *skel)
{
	skel->bss->tk_ts_addr = (uintptr_t)&st_ts;
	skel->bss->tk_idx = 0;
	skel->bss->tk_timeout_ud = UD_TIMEOUT;
}

/* a ring with tick attached, the largest budget, @n chains submitted */
static void tick_ring(struct io_uring *ring, struct hardening_bpf *skel,
		      unsigned int entries, unsigned int flags, unsigned int n)
{
	unsigned int i;

	uring_init(ring, entries, flags);
	attach1(ring, skel->progs.tick);
	CHECK_EQ(uring_set_budget(ring, IORING_BPF_MAX_BUDGET), 0);
	for (i = 0; i < n; i++)
		uring_prep_bpf(ring, 0, i)->flags = IOSQE_CQE_SKIP_SUCCESS;
}

/*
 * The chains saw only their timeouts and queued every step. How many of
 * the @n chains did a first step is printed, not asserted: the guest
 * cannot run as many steps as the chains ask for.
 */
static void tick_check_clean(struct hardening_bpf *skel, const char *name,
			     unsigned int n)
{
	printf("%s: %llu of %u chains did a step; -ETIME seen %llu\n", name,
	       (unsigned long long)skel->bss->tk_first, n,
	       (unsigned long long)skel->bss->tk_etime);
	CHECK(skel->bss->tk_first > 0 && skel->bss->tk_first <= n);
	CHECK(skel->bss->tk_nop ? skel->bss->tk_zero > 0 :
				  skel->bss->tk_etime > 0);
	CHECK_EQ(skel->bss->tk_other, 0);
	CHECK_EQ(skel->bss->tk_queue_err, 0);
}

/*
 * One timed wait: io_uring_wait_cqe_timeout(@ms) must return -ETIME (no
 * chain posts a CQE) within ST_WAIT_BOUND_MS. It may return early: the
 * chains' TIMEOUTs wake waiters when they fire (stock behaviour), and
 * liburing then answers -ETIME. Returns the time it took.
 */
static double timed_wait(struct io_uring *ring, const char *name,
			 unsigned int ms)
{
	struct io_uring_cqe *cqe;
	uint64_t t0 = uring_now_ns();
	int ret = uring_wait_cqe_ms(ring, &cqe, ms);
	double took = ms_since(t0);

	if (!ret)
		FAIL("%s: unexpected CQE ud 0x%llx res %d", name,
		     (unsigned long long)cqe->user_data, cqe->res);
	if (took >= ST_WAIT_BOUND_MS)
		FAIL("%s: a %u ms wait returned after %.1f ms, want < %u", name,
		     ms, took, ST_WAIT_BOUND_MS);
	return took;
}

/* @chains endless chains of ST_STEP_MS timeouts, timed waits amid them */
static void starvation_timeouts(unsigned int flags, const char *name,
				unsigned int chains)
{
	struct hardening_bpf *skel = skel_load();
	double worst = 0, worst_deadline = 0, submit_ms, ms;
	char first[64];
	uint64_t t0, runs0, runs1;
	struct io_uring ring;
	unsigned int i, n;

	tick_setup(skel);
	tick_ring(&ring, skel, 512, flags, chains);
	t0 = uring_now_ns();
	uring_submit(&ring, (int)chains);
	submit_ms = ms_since(t0);

	/* the chains run (on DEFER_TASKRUN rings only inside waits) */
	snprintf(first, sizeof(first), "%s: first waits", name);
	t0 = uring_now_ns();
	while (skel->bss->tk_runs < 2 * chains) {
		if (ms_since(t0) > LIVE_BOUND_MS)
			FAIL("%s: the chains did only %llu steps", name,
			     (unsigned long long)skel->bss->tk_runs);
		ms = timed_wait(&ring, first, ST_WAIT_MS);
		printf("%s: -ETIME after %.1f ms, %llu steps\n", first, ms,
		       (unsigned long long)skel->bss->tk_runs);
	}

	runs0 = skel->bss->tk_runs;
	t0 = uring_now_ns();
	/* single waits, as iocoro_wait() does one */
	for (i = 0; i < ST_WAITS; i++) {
		ms = timed_wait(&ring, name, ST_WAIT_MS);
		printf("%s: wait %u: -ETIME after %.1f ms\n", name, i, ms);
		if (ms > worst)
			worst = ms;
	}
	/*
	 * Measured only: waits for the time left of an application's 100 ms
	 * deadline (each of them within ST_WAIT_BOUND_MS, as any wait)
	 */
	for (i = 0; i < ST_WAITS; i++) {
		uint64_t d0 = uring_now_ns();

		for (n = 0; ms_since(d0) < ST_WAIT_MS; n++)
			timed_wait(&ring, name,
				   ST_WAIT_MS - (unsigned int)ms_since(d0));
		ms = ms_since(d0);
		printf("%s: deadline %u: %.1f ms in %u waits\n", name, i, ms,
		       n);
		if (ms > worst_deadline)
			worst_deadline = ms;
	}
	runs1 = skel->bss->tk_runs;
	printf("%s: %u chains of %u ms, submit %.1f ms; waits of %u ms: "
	       "worst %.1f ms, deadlines: worst %.1f ms; %llu steps meanwhile "
	       "(%.0f/s)\n", name, chains, ST_STEP_MS, submit_ms, ST_WAIT_MS,
	       worst, worst_deadline,
	       (unsigned long long)(runs1 - runs0),
	       (double)(runs1 - runs0) * 1000.0 / ms_since(t0));
	/* the chains kept going meanwhile */
	CHECK(runs1 > runs0);
	tick_check_clean(skel, name, chains);

	io_uring_queue_exit(&ring);
	hardening_bpf__destroy(skel);
}

/*
 * The child of starvation_busy(): ST_BUSY_CHAINS chains that never wait
 * (NOP -> BPF), then ST_WAITS timed waits amid them; exit 0 when all came
 * back in time (a failed check exits 1).
 */
static void busy_child(struct hardening_bpf *skel, unsigned int flags,
		       const char *name, int wfd)
{
	struct io_uring ring;
	uint64_t t0;
	unsigned int i;
	double ms;

	skel->bss->tk_nop = 1;
	tick_ring(&ring, skel, 8, flags, ST_BUSY_CHAINS);
	uring_write_byte(wfd, 'S');
	t0 = uring_now_ns();
	uring_submit(&ring, ST_BUSY_CHAINS);
	printf("%s: busy: back from the submit after %.1f ms, %llu steps\n",
	       name, ms_since(t0), (unsigned long long)skel->bss->tk_runs);
	for (i = 0; i < ST_WAITS; i++) {
		uint64_t r0 = skel->bss->tk_runs;

		ms = timed_wait(&ring, name, ST_WAIT_MS);
		printf("%s: busy: wait %u: -ETIME after %.1f ms, %llu steps "
		       "meanwhile\n", name, i, ms,
		       (unsigned long long)(skel->bss->tk_runs - r0));
	}
	tick_check_clean(skel, name, ST_BUSY_CHAINS);
	io_uring_queue_exit(&ring);
	_exit(0);
}

/*
 * Chains that never wait keep task_work (or the DEFER_TASKRUN local work)
 * busy for good: the child's submit and waits must still come back. The
 * child runs them so that a kernel where they do not come back fails the
 * test instead of hanging it.
 */
static void starvation_busy(unsigned int flags, const char *name)
{
	struct hardening_bpf *skel = skel_load();
	int p[2], status;
	pid_t pid;

	tick_setup(skel);
	pid = uring_fork_with_pipe(p);
	if (!pid)
		busy_child(skel, flags, name, p[1]);
	CHECK_EQ(uring_read_byte_ms(p[0], LIVE_BOUND_MS), 'S');
	if (!uring_reap_child_ms(pid, LIVE_BOUND_MS, &status)) {
		uring_dump_task(pid);
		kill(pid, SIGKILL);
		uring_reap_child_ms(pid, LIVE_BOUND_MS, &status);
		FAIL("%s: busy: %u chains that never wait: the task did not "
		     "finish %u waits of %u ms within %u ms (%llu steps)", name,
		     ST_BUSY_CHAINS, ST_WAITS, ST_WAIT_MS, LIVE_BOUND_MS,
		     (unsigned long long)skel->bss->tk_runs);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		FAIL("%s: busy: the child's checks failed (wait status 0x%x, "
		     "above)", name, status);
	close(p[0]);
	hardening_bpf__destroy(skel);
}

IOCORO_CASE_OPTS(starvation, .serial = true)
{
	starvation_timeouts(0, "starvation", ST_CHAINS);
	starvation_busy(0, "starvation");
}

IOCORO_CASE_OPTS(starvation_defer, .serial = true)
{
	const unsigned int f = IORING_SETUP_SINGLE_ISSUER |
			       IORING_SETUP_DEFER_TASKRUN;

	starvation_timeouts(f, "starvation_defer", ST_CHAINS);
	starvation_busy(f, "starvation_defer");
}

/* wait until the state of @pid is (@want) or is not (!@want) 'T' */
static double wait_state(pid_t pid, bool stopped, unsigned int bound_ms)
{
	uint64_t t0 = uring_now_ns();

	for (;;) {
		char s = uring_task_state(pid);

		if ((s == 'T') == stopped)
			return ms_since(t0);
		if (ms_since(t0) > bound_ms)
			return -1;
		uring_sleep_ms(2);
	}
}

/* @chains chains (@busy: that never wait) in a child, which is stopped */
static void stop_one(unsigned int flags, const char *name,
		     unsigned int chains, bool busy)
{
	struct hardening_bpf *skel = skel_load();
	uint64_t r1, r2, t0;
	int p[2], status;
	double ms;
	pid_t pid;

	tick_setup(skel);
	skel->bss->tk_nop = busy;
	pid = uring_fork_with_pipe(p);
	if (!pid) {
		struct io_uring ring;
		struct io_uring_cqe *cqe;

		tick_ring(&ring, skel, 512, flags, chains);
		uring_write_byte(p[1], 'S');
		uring_submit(&ring, (int)chains);
		/* the chains go on while the task waits in the ring */
		for (;;) {
			struct __kernel_timespec ts = {
				0, ST_WAIT_MS * 1000000LL
			};
			int ret = io_uring_wait_cqe_timeout(&ring, &cqe, &ts);

			/* the stop and the continue interrupt a wait */
			if (ret != -ETIME && ret != -EINTR) {
				fprintf(stderr, "%s: the child's wait: %d\n",
					name, ret);
				_exit(3);
			}
		}
	}
	CHECK_EQ(uring_read_byte_ms(p[0], LIVE_BOUND_MS), 'S');
	t0 = uring_now_ns();
	while (skel->bss->tk_runs < (busy ? 1000 : 2 * chains)) {
		if (ms_since(t0) > LIVE_BOUND_MS) {
			uring_dump_task(pid);
			kill(pid, SIGKILL);
			FAIL("%s: the chains did only %llu steps", name,
			     (unsigned long long)skel->bss->tk_runs);
		}
		uring_sleep_ms(5);
	}

	CHECK_SYS(kill(pid, SIGSTOP));
	ms = wait_state(pid, true, STOP_WATCH_MS);
	if (ms < 0)
		printf("%s: %u chains: not stopped %u ms after SIGSTOP\n", name,
		       chains, STOP_WATCH_MS);
	else
		printf("%s: %u chains: stopped %.1f ms after SIGSTOP\n", name,
		       chains, ms);
	if (ms < 0 || ms >= STOP_BOUND_MS) {
		uring_dump_task(pid);
		kill(pid, SIGKILL);
		uring_reap_child_ms(pid, LIVE_BOUND_MS, &status);
		FAIL("%s: SIGSTOP took longer than %u ms", name,
		     STOP_BOUND_MS);
	}
	/* a stopped task runs no steps */
	r1 = skel->bss->tk_runs;
	uring_sleep_ms(300);
	r2 = skel->bss->tk_runs;
	CHECK_EQ(uring_task_state(pid), 'T');
	CHECK_EQ_U64(r2, r1);

	CHECK_SYS(kill(pid, SIGCONT));
	t0 = uring_now_ns();
	while (skel->bss->tk_runs <= r2) {
		if (ms_since(t0) > LIVE_BOUND_MS) {
			uring_dump_task(pid);
			kill(pid, SIGKILL);
			FAIL("%s: the chains did not go on after SIGCONT",
			     name);
		}
		uring_sleep_ms(2);
	}
	printf("%s: steps again %.1f ms after SIGCONT\n", name, ms_since(t0));
	CHECK(uring_task_state(pid) != 'T');

	t0 = uring_now_ns();
	CHECK_SYS(kill(pid, SIGKILL));
	if (!uring_reap_child_ms(pid, LIVE_BOUND_MS, &status)) {
		uring_dump_task(pid);
		FAIL("%s: not reaped %u ms after SIGKILL", name,
		     LIVE_BOUND_MS);
	}
	printf("%s: reaped %.1f ms after SIGKILL, %llu steps in all\n", name,
	       ms_since(t0), (unsigned long long)skel->bss->tk_runs);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
		FAIL("%s: wait status 0x%x, want killed by SIGKILL", name,
		     status);
	tick_check_clean(skel, name, chains);
	/* and its chains are over */
	r1 = skel->bss->tk_runs;
	uring_sleep_ms(300);
	CHECK_EQ_U64(skel->bss->tk_runs, r1);

	close(p[0]);
	hardening_bpf__destroy(skel);
}

IOCORO_CASE_OPTS(stop, .serial = true)
{
	const unsigned int f = IORING_SETUP_SINGLE_ISSUER |
			       IORING_SETUP_DEFER_TASKRUN;

	stop_one(0, "stop", STOP_CHAINS, false);
	stop_one(f, "stop_defer", STOP_CHAINS, false);
	stop_one(0, "stop_busy", ST_BUSY_CHAINS, true);
	stop_one(f, "stop_defer_busy", ST_BUSY_CHAINS, true);
}

/* ===================================================== 9. dropped batch */

#define FAILSLAB "/sys/kernel/debug/failslab"
#define DB_NOPS 24

static void write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		FAIL("open %s: %s", path, strerror(errno));
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		FAIL("write '%s' to %s: %s", val, path, strerror(errno));
	close(fd);
}

static void failslab_setup(void)
{
	struct stat st;

	if (stat(FAILSLAB, &st) &&
	    mount("none", "/sys/kernel/debug", "debugfs", 0, NULL) &&
	    errno != EBUSY)
		FAIL("mount debugfs: %s", strerror(errno));
	if (stat(FAILSLAB, &st))
		FAIL(FAILSLAB ": %s (CONFIG_FAILSLAB, "
		     "CONFIG_FAULT_INJECTION_DEBUG_FS)", strerror(errno));
	write_file(FAILSLAB "/probability", "100");
	write_file(FAILSLAB "/interval", "1");
	write_file(FAILSLAB "/times", "-1");
	write_file(FAILSLAB "/space", "0");
	write_file(FAILSLAB "/verbose", "0");
	write_file(FAILSLAB "/task-filter", "Y");
	write_file(FAILSLAB "/ignore-gfp-wait", "N");
	write_file(FAILSLAB "/cache-filter", "N");
}

static void failslab_off(void)
{
	write_file(FAILSLAB "/probability", "0");
	write_file(FAILSLAB "/times", "1");
}

IOCORO_CASE(dropped_batch)
{
	struct hardening_bpf *skel = skel_load();
	struct io_uring_cqe cqes[DB_NOPS + 1];
	struct io_uring ring;
	unsigned int i, nr_ok = 0;
	int mif, ret;

	failslab_setup();
	mif = CHECK_SYS(open("/proc/self/make-it-fail", O_WRONLY | O_CLOEXEC));

	/* the program runs only inside io_uring_enter(GETEVENTS) */
	uring_init(&ring, 32, IORING_SETUP_SINGLE_ISSUER |
				      IORING_SETUP_DEFER_TASKRUN);
	CHECK(ring.cq.ring_entries >= DB_NOPS + 1);
	attach1(&ring, skel->progs.qbatch);
	for (i = 0; i < DB_NOPS; i++)
		qb_nop(skel, 0, i, 0, UD_NOP + i);
	prep_qbatch(&ring, 0);
	/* no GETEVENTS (and no IORING_SETUP_TASKRUN_FLAG): it is not run */
	uring_submit(&ring, 1);
	CHECK_EQ(skel->bss->qb_runs, 0);

	CHECK_EQ(CHECK_SYS(pwrite(mif, "1", 1, 0)), 1);
	ret = enter(&ring, 0, 1, IORING_ENTER_GETEVENTS);
	CHECK_EQ(CHECK_SYS(pwrite(mif, "0", 1, 0)), 1);
	failslab_off();
	close(mif);
	CHECK_EQ(ret, 0);
	CHECK_EQ(skel->bss->qb_runs, 1);
	qb_check_queued(skel, 0);

	/* one CQE each: the first ones ran, the rest -ENOMEM */
	uring_reap(&ring, cqes, DB_NOPS + 1);
	EXPECT_CQE(cqes, DB_NOPS + 1, UD_BPF | 0, -ENOMEM);
	while (nr_ok < DB_NOPS &&
	       uring_find_cqe(cqes, DB_NOPS + 1, UD_NOP + nr_ok)->res == 0)
		nr_ok++;
	printf("dropped_batch: %u of %u NOPs got a request, %u -ENOMEM\n",
	       nr_ok, DB_NOPS, DB_NOPS - nr_ok);
	for (i = 0; i < DB_NOPS; i++)
		EXPECT_CQE(cqes, DB_NOPS + 1, UD_NOP + i,
			   i < nr_ok ? 0 : -ENOMEM);
	/* failslab did fail an allocation */
	CHECK(nr_ok < DB_NOPS);

	/* the ring still works */
	prep_qbatch(&ring, 0);
	skel->bss->qb_n[0] = 1;
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_BPF | 0, 0);
	EXPECT_CQE(cqes, 2, UD_NOP + 0, 0);

	io_uring_queue_exit(&ring);
	hardening_bpf__destroy(skel);
}

/* ================================================ 10. budget at queue */

static void bq_reset(struct hardening_bpf *skel, unsigned int fan)
{
	skel->bss->bq_idx = 0;
	skel->bss->bq_fan = fan;
	skel->bss->bq_runs = 0;
	skel->bss->bq_eloop = 0;
	skel->bss->bq_nop_rc = 0;
	memset(skel->bss->bq_rc, 0x11, sizeof(skel->bss->bq_rc));
}

IOCORO_CASE(budget_queue)
{
	struct hardening_bpf *skel = skel_load();
	struct io_uring_cqe cqes[6];
	struct io_uring ring;

	uring_init(&ring, 16, 0);
	attach1(&ring, skel->progs.budget_step);

	/*
	 * Budget 2: run 1 queues NOP -HARDLINK-> BPF (ok: 1 step left after
	 * it); run 2's BPF SQE gets -ELOOP, it finishes with BQ_DONE.
	 */
	CHECK_EQ(uring_set_budget(&ring, 2), 0);
	bq_reset(skel, 1);
	uring_prep_bpf(&ring, 0, UD_BQ);
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 4);
	EXPECT_CQE(cqes, 4, UD_BQ, 0);
	EXPECT_CQE(cqes, 4, BQ_NOP_UD | 0x0000, 0);
	EXPECT_CQE(cqes, 4, UD_BQ + 1, BQ_DONE);
	EXPECT_CQE(cqes, 4, BQ_NOP_UD | 0x0001, 0);
	CHECK_EQ(skel->bss->bq_runs, 2);
	CHECK_EQ(skel->bss->bq_eloop, 1);
	CHECK_EQ(skel->bss->bq_rc[0][0], 0);
	CHECK_EQ(skel->bss->bq_rc[1][0], -ELOOP);
	CHECK_EQ(skel->bss->bq_nop_rc, 0);

	/*
	 * Budget 3, three BPF SQEs a run: the first two fit (n <= b - 1),
	 * the third gets -ELOOP; each child has one step, no more.
	 */
	CHECK_EQ(uring_set_budget(&ring, 3), 0);
	bq_reset(skel, 3);
	uring_prep_bpf(&ring, 0, UD_BQ);
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 6);
	EXPECT_CQE(cqes, 6, UD_BQ, BQ_DONE);
	EXPECT_CQE(cqes, 6, BQ_NOP_UD | 0x0000, 0);
	EXPECT_CQE(cqes, 6, UD_BQ + 1, BQ_DONE);
	EXPECT_CQE(cqes, 6, BQ_NOP_UD | 0x0001, 0);
	EXPECT_CQE(cqes, 6, (UD_BQ + 1) | 0x100, BQ_DONE);
	EXPECT_CQE(cqes, 6, BQ_NOP_UD | 0x0101, 0);
	CHECK_EQ(skel->bss->bq_runs, 3);
	CHECK_EQ(skel->bss->bq_eloop, 3);
	CHECK_EQ(skel->bss->bq_rc[0][0], 0);
	CHECK_EQ(skel->bss->bq_rc[0][1], 0);
	CHECK_EQ(skel->bss->bq_rc[0][2], -ELOOP);
	CHECK_EQ(skel->bss->bq_rc[1][0], -ELOOP);
	CHECK_EQ(skel->bss->bq_nop_rc, 0);

	io_uring_queue_exit(&ring);
	hardening_bpf__destroy(skel);
}

/* ============================================ issue 14: register numbers */

IOCORO_CASE(register_gap)
{
	struct io_uring_sqe sqe;
	struct io_uring ring;
	unsigned int op;

	memset(&sqe, 0, sizeof(sqe));
	uring_init(&ring, 4, 0);
	/* upstream liburing's msg-ring.t probe: SEND_MSG_RING is 31 */
	CHECK_EQ(uring_register(-1, 31, &sqe, 1), -EINVAL);
	for (op = 31; op < IORING_REGISTER_BPF_FIRST; op++) {
		if (uring_register(-1, op, &sqe, 1) != -EINVAL ||
		    uring_register(ring.ring_fd, op, &sqe, 1) != -EINVAL)
			FAIL("opcode %u: %d with fd -1, %d with a ring, want "
			     "-EINVAL", op, uring_register(-1, op, &sqe, 1),
			     uring_register(ring.ring_fd, op, &sqe, 1));
	}
	CHECK_EQ(uring_register(ring.ring_fd, IORING_REGISTER_LAST, NULL, 0),
		 -EINVAL);
	/* the BPF opcodes look at the fd */
	CHECK_EQ(uring_register(-1, IORING_ATTACH_BPF, NULL, 0), -EBADF);
	CHECK_EQ(uring_register(-1, IORING_DETACH_BPF, NULL, 0), -EBADF);
	CHECK_EQ(uring_register(-1, IORING_REGISTER_BPF_BUDGET, NULL, 1),
		 -EBADF);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	CHECK_EQ(uring_set_budget(&ring, 1), -ENXIO);
	io_uring_queue_exit(&ring);
}
