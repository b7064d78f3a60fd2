// SPDX-License-Identifier: MIT
/*
 * Steps and the audit bracket. io_issue_sqe() brackets each request not
 * audit_skip with audit_uring_entry(op) / audit_uring_exit(): the entry
 * sets the task's ctx->uring_op, the exit logs a URINGOP record (type
 * 1336, "uring_op=N") if an io_uring exit rule matches it and, outside a
 * syscall, resets the context. IORING_OP_BPF is audit_skip, and steps run
 * from the ring's ready list once their request completed, never inside
 * io_issue_sqe(): what a step queues is issued in a bracket of its own. A
 * step run inside another request's bracket would log its op twice in a
 * syscall, and outside one (task_work) leave the outer exit an unused
 * context: BUG().
 *
 * The test is the audit daemon (AUDIT_SET pid: records come to its
 * NETLINK_AUDIT socket, not to the kernel log), enables audit, adds a rule
 * for ops 0 (NOP, audit_skip: only a reset context, or SQPOLL's thread
 * start, says 0), 18 and IORING_OP_BPF, and counts the URINGOP records of
 * forked children (a task has an audit context only if audit was enabled
 * before its fork). One OPENAT from user space, the rule's own check, must
 * give exactly one, uring_op=18, and so must a step that queues one.
 * Audit is off again and the rule gone at the end, even on failure.
 */
#include "scheduling.h"
#include "audit.skel.h"

#include <linux/audit.h>
#include <linux/netlink.h>
#include <poll.h>
#include <sys/socket.h>

#define UD_FIRST 0xa
#define UD_BPF 0xb
#define UD_OPEN 0xc
#define AU_MARK "iocoro review audit sync"
#define AU_MS 10000

enum au_way { AU_DIRECT, AU_SUBMIT, AU_LINK, AU_TASK_WORK, AU_WAIT };

static const char au_path[] = "/dev/null";
static const unsigned int au_ops[] = { 0, IORING_OP_OPENAT, IORING_OP_BPF };

static struct {
	int fd;
	pid_t owner;		/* the test's process: the audit daemon */
	uint32_t seq;
	bool on, ruled;
	int err;		/* of the ack of seq */
	pid_t pid;		/* whose records count */
	unsigned int nr, nr_open, acks, marks, offs;
} au = { .fd = -1 };

/* one record from the kernel (text: NUL-terminated) */
static void au_record(int type, const char *text)
{
	const char *p = strstr(text, " pid=");

	if (type == AUDIT_USER && strstr(text, AU_MARK))
		au.marks++;
	if (type == AUDIT_CONFIG_CHANGE && strstr(text, " audit_enabled=0 "))
		au.offs++;
	if (!p || atoi(p + 5) != au.pid)
		return;
	printf("audit: type=%d %s\n", type, text);
	if (type != AUDIT_URINGOP)
		return;
	au.nr++;
	p = strstr(text, "uring_op=");
	if (p && atoi(p + 9) == IORING_OP_OPENAT)
		au.nr_open++;
}

/* what came within @ms: 0, -ETIME, or -errno */
static int au_read(int ms)
{
	static char buf[16384] __attribute__((aligned(8)));
	struct pollfd pfd = { .fd = au.fd, .events = POLLIN };
	struct nlmsghdr *nh = (void *)buf;
	ssize_t len;

	if (poll(&pfd, 1, ms) <= 0)
		return -ETIME;
	/* one message a datagram; records' nlmsg_len leaves out the header */
	len = recv(au.fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	if (len < 0)
		return -errno;
	if (len < NLMSG_HDRLEN)
		return 0;
	if (nh->nlmsg_type == NLMSG_ERROR) {
		struct nlmsgerr *e = NLMSG_DATA(nh);

		if (nh->nlmsg_seq == au.seq) {
			au.err = e->error;
			au.acks++;
		}
		return 0;
	}
	buf[len] = '\0';
	au_record(nh->nlmsg_type, buf + NLMSG_HDRLEN);
	return 0;
}

/* read until *@count moves on from @from: 0, -ETIME or -errno */
static int au_wait(unsigned int *count, unsigned int from)
{
	uint64_t t0 = uring_now_ns();

	while (*count == from) {
		int ret = au_read(100);

		if (ret && ret != -ETIME)
			return ret;
		if (uring_ms_since(t0) > AU_MS)
			return -ETIME;
	}
	return 0;
}

/* a request of @type and its ack: 0 or -errno */
static int au_send(int type, const void *data, size_t len)
{
	static char buf[NLMSG_SPACE(sizeof(struct audit_rule_data))]
		__attribute__((aligned(8)));
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct nlmsghdr *nh = (void *)buf;
	unsigned int acks = au.acks;

	memset(buf, 0, sizeof(buf));
	nh->nlmsg_len = NLMSG_LENGTH(len);
	nh->nlmsg_type = type;
	nh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nh->nlmsg_seq = ++au.seq;
	memcpy(NLMSG_DATA(nh), data, len);
	if (sendto(au.fd, buf, nh->nlmsg_len, 0, (void *)&sa, sizeof(sa)) < 0)
		return -errno;
	return au_wait(&au.acks, acks) ?: au.err;
}

static int au_set(uint32_t mask, uint32_t val)
{
	struct audit_status s = { .mask = mask };

	if (mask == AUDIT_STATUS_PID)
		s.pid = val;
	else
		s.enabled = val;
	return au_send(AUDIT_SET, &s, sizeof(s));
}

/* AUDIT_ADD_RULE or AUDIT_DEL_RULE of the rule: 0 or -errno */
static int au_rule(int type)
{
	struct audit_rule_data r = {
		.flags = AUDIT_FILTER_URING_EXIT,
		.action = AUDIT_ALWAYS,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(au_ops); i++)
		r.mask[AUDIT_WORD(au_ops[i])] |= AUDIT_BIT(au_ops[i]);
	return au_send(type, &r, sizeof(r));
}

/* audit off, rule gone, no daemon; atexit() too: a CHECK may exit */
static void au_stop(void)
{
	unsigned int offs = au.offs;

	if (au.fd < 0 || getpid() != au.owner)
		return;
	if (au.ruled && au_rule(AUDIT_DEL_RULE))
		fprintf(stderr, "audit: the rule stays\n");
	au.ruled = false;
	/* its record is ours: nothing left queued for the kernel log */
	if (au.on && (au_set(AUDIT_STATUS_ENABLED, 0) ||
		      au_wait(&au.offs, offs)))
		fprintf(stderr, "audit: not disabled\n");
	au.on = false;
	au_set(AUDIT_STATUS_PID, 0);
	close(au.fd);
	au.fd = -1;
}

static void au_start(void)
{
	int sz = 1 << 20;

	au.fd = CHECK_SYS(socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
				 NETLINK_AUDIT));
	au.owner = getpid();
	atexit(au_stop);
	CHECK_SYS(setsockopt(au.fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz)));
	/* the daemon first: audit_enabled=1 is then not logged to the kernel */
	CHECK_EQ(au_set(AUDIT_STATUS_PID, getpid()), 0);
	CHECK_EQ(au_set(AUDIT_STATUS_ENABLED, 1), 0);
	au.on = true;
	CHECK_EQ(au_rule(AUDIT_ADD_RULE), 0);
	au.ruled = true;
}

static void *au_writer(void *arg)
{
	int fd = (int)(intptr_t)arg;

	/* the main thread waits for CQEs */
	while (uring_task_state(getpid()) != 'S')
		uring_sleep_ms(1);
	uring_sleep_ms(20);
	CHECK_EQ(write(fd, "x", 1), 1);
	return NULL;
}

/* in a child: one OPENAT, from user space or from the step */
static void au_child(struct audit_bpf *skel, enum au_way way)
{
	struct io_uring_cqe cqes[3];
	struct io_uring_sqe *sqe;
	struct io_uring *ring;
	struct iocoro co;
	unsigned int n = 3;
	pthread_t thr;
	uint64_t t0;
	char buf[1];
	int p[2];

	uring_co_init(&co, 8, 0);
	ring = &co.ring;
	CHECK_SYS(pipe2(p, O_CLOEXEC));
	if (way == AU_DIRECT) {
		sqe = uring_sqe(ring);
		io_uring_prep_openat(sqe, AT_FDCWD, au_path, O_RDONLY | O_CLOEXEC,
				     0);
		sqe->user_data = UD_OPEN;
		CHECK_EQ(io_uring_submit_and_wait(ring, 1), 1);
		n = 1;
	} else if (way == AU_SUBMIT) {
		uring_attach(&co, skel->progs.au_open, 0);
		uring_prep_start(ring, 0, UD_BPF);
		CHECK_EQ(io_uring_submit_and_wait(ring, 1), 1);
		n = 2;
	} else {
		uring_attach(&co, skel->progs.au_open, 0);
		sqe = uring_sqe(ring);
		if (way == AU_LINK)
			io_uring_prep_nop(sqe);
		else
			io_uring_prep_read(sqe, p[0], buf, 1, 0);
		sqe->user_data = UD_FIRST;
		sqe->flags = IOSQE_IO_LINK;
		uring_prep_start(ring, 0, UD_BPF);
		uring_submit(ring, 2);
	}
	printf("audit: way %d: %u runs after the submission\n", way,
	       skel->bss->au_runs);
	if (way == AU_TASK_WORK) {
		/* the READ completes: task_work on the way out of write(2) */
		CHECK_EQ(skel->bss->au_runs, 0);
		CHECK_EQ(write(p[1], "x", 1), 1);
		for (t0 = uring_now_ns(); !skel->bss->au_runs;)
			if (uring_ms_since(t0) > AU_MS)
				FAIL("the step did not run");
	} else if (way == AU_WAIT) {
		CHECK_EQ(skel->bss->au_runs, 0);
		CHECK_EQ(pthread_create(&thr, NULL, au_writer,
					(void *)(intptr_t)p[1]), 0);
	}
	uring_reap(ring, cqes, n);
	if (way == AU_WAIT)
		CHECK_EQ(pthread_join(thr, NULL), 0);
	if (n > 1) {
		EXPECT_CQE(cqes, n, UD_BPF, 0);
		CHECK_EQ(skel->bss->au_runs, 1);
		CHECK_EQ(skel->bss->au_rc, 0);
	}
	if (n > 2)
		EXPECT_CQE(cqes, n, UD_FIRST, way == AU_LINK ? 0 : 1);
	CHECK_RET(uring_find_cqe(cqes, n, UD_OPEN)->res);
	close(uring_find_cqe(cqes, n, UD_OPEN)->res);
	/* the kind's link goes with the child */
	io_uring_queue_exit(ring);
	fflush(stdout);
	_exit(0);
}

/* a child does @way: exactly one URINGOP record, uring_op=18 */
static void au_one(struct audit_bpf *skel, enum au_way way)
{
	unsigned int marks = au.marks;
	int status;
	pid_t pid;

	skel->bss->au_runs = 0;
	au.nr = au.nr_open = 0;
	fflush(stdout);
	fflush(stderr);
	pid = CHECK_SYS(fork());
	if (!pid)
		au_child(skel, way);
	au.pid = pid;
	if (!uring_reap_child_ms(pid, 3 * AU_MS, &status)) {
		kill(pid, SIGKILL);
		FAIL("way %d: the child did not finish", way);
	}
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* the marker is logged after every record of the child */
	CHECK_EQ(au_send(AUDIT_USER, AU_MARK, sizeof(AU_MARK)), 0);
	CHECK_EQ(au_wait(&au.marks, marks), 0);
	printf("audit: way %d: %u URINGOP records, %u uring_op=%d\n", way,
	       au.nr, au.nr_open, IORING_OP_OPENAT);
	CHECK_EQ(au.nr_open, 1);
	CHECK_EQ(au.nr, 1);
}

static void au_case(enum au_way way)
{
	struct audit_bpf *skel;

	skel = SKEL_LOAD(audit_bpf);
	skel->bss->au_path = (uintptr_t)au_path;
	skel->bss->au_oflags = O_RDONLY | O_CLOEXEC;
	skel->bss->au_ud = UD_OPEN;
	au_start();
	au_one(skel, AU_DIRECT);
	au_one(skel, way);
	au_stop();
	audit_bpf__destroy(skel);
}

/* the step runs right after the io_uring_enter() submission */
IOCORO_CASE_CALL(audit_submit, au_case, AU_SUBMIT, .serial = true)

/* linked after a NOP: from task_work, on the way out of io_uring_enter() */
IOCORO_CASE_CALL(audit_link, au_case, AU_LINK, .serial = true)

/* linked after a READ that write(2) completes: task_work on its way out */
IOCORO_CASE_CALL(audit_task_work, au_case, AU_TASK_WORK, .serial = true)

/* linked after a READ that another thread completes: in the wait */
IOCORO_CASE_CALL(audit_wait, au_case, AU_WAIT, .serial = true)
