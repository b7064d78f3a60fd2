// SPDX-License-Identifier: MIT
/*
 * Personalities: an OPENAT queued by a step of a coroutine started with
 * sqe->personality P gets P's -EACCES, as the same OPENAT from user space
 * with P does, and the step sees P's uid/gid (bpf_get_current_uid_gid());
 * a queued SQE that names a personality, a stronger one or its request's
 * own, is refused (-EINVAL). Steps qbatch and whoami of kinds.bpf.c.
 */
#include "kinds.h"

/*
 * Register a personality P of the credentials: real uid and gid NOBODY,
 * effective uid 0 (the attacher's), no effective capabilities. P cannot
 * open a root-only file owned by someone else; this task can.
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

/* @path (a mkstemp() template) made a file of uid 1000, mode 0600 */
static void make_private_file(char *path)
{
	int fd = CHECK_SYS(mkstemp(path));

	CHECK_SYS(fchown(fd, 1000, 1000));
	CHECK_SYS(fchmod(fd, 0600));
	close(fd);
}

/* what the cases run on */
struct pers_case {
	char path[32];		/* a file of uid 1000, mode 0600 */
	struct kinds_bpf *skel;
	struct iocoro co;	/* qbatch attached as K_MAIN */
	int link;		/* qbatch's */
	int weak;		/* the weak personality P */
};

static void pers_up(struct pers_case *c)
{
	strcpy(c->path, "/tmp/iocoro-hard-XXXXXX");
	make_private_file(c->path);
	c->skel = kinds_load();
	c->link = uring_co_attach(&c->co, 8, 0, c->skel->progs.qbatch, K_MAIN);
	c->weak = register_weak_personality(&c->co.ring);
}

static void pers_down(struct pers_case *c)
{
	CHECK_EQ(io_uring_unregister_personality(&c->co.ring, c->weak), 0);
	CHECK_SYS(unlink(c->path));
	io_uring_queue_exit(&c->co.ring);
	close(c->link);
	kinds_bpf__destroy(c->skel);
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
	struct pers_case c;
	struct io_uring *ring = &c.co.ring;
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe sqe, *s;
	int wlink;

	pers_up(&c);

	/* from user space: with P -EACCES, without it the open works */
	s = uring_sqe(ring);
	prep_open(s, c.path, UD_OPEN);
	s->personality = c.weak;
	s = uring_sqe(ring);
	prep_open(s, c.path, UD_OPEN2);
	uring_submit(ring, 2);
	uring_reap(ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_OPEN, -EACCES);
	expect_open_ok(cqes, 2, UD_OPEN2);

	/* the same OPENAT queued by a step of a coroutine started with P */
	memset(&sqe, 0, sizeof(sqe));
	prep_open(&sqe, c.path, UD_OPEN);
	qb_put(c.skel, 0, 0, &sqe);
	prep_qbatch(ring, 0)->personality = c.weak;
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_BPF | 0, 0);
	if (uring_find_cqe(cqes, 2, UD_OPEN)->res >= 0)
		close(uring_find_cqe(cqes, 2, UD_OPEN)->res);
	EXPECT_CQE(cqes, 2, UD_OPEN, -EACCES);
	qb_check_queued(c.skel, 0);

	/* and by one started without a personality: the task's own */
	prep_qbatch(ring, 0);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_BPF | 0, 0);
	expect_open_ok(cqes, 2, UD_OPEN);

	/* the step itself runs as P: bpf_get_current_uid_gid() */
	wlink = uring_attach(&c.co, c.skel->progs.whoami, K_OTHER);
	qb_put(c.skel, 0, 0, &sqe);
	c.skel->bss->wh_uidgid = 1;
	uring_prep_start(ring, K_OTHER, UD_BPF)->personality = c.weak;
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_BPF, 0);
	if (uring_find_cqe(cqes, 2, UD_OPEN)->res >= 0)
		close(uring_find_cqe(cqes, 2, UD_OPEN)->res);
	EXPECT_CQE(cqes, 2, UD_OPEN, -EACCES);
	CHECK_EQ(c.skel->bss->wh_runs, 1);
	CHECK_EQ_U64(c.skel->bss->wh_uidgid,
		     ((__u64)NOBODY << 32) | (__u64)NOBODY);
	/* without: root */
	uring_prep_start(ring, K_OTHER, UD_BPF);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_BPF, 0);
	expect_open_ok(cqes, 2, UD_OPEN);
	CHECK_EQ_U64(c.skel->bss->wh_uidgid, 0);
	CHECK_EQ(c.skel->bss->wh_runs, 2);

	close(wlink);
	pers_down(&c);
}

/*
 * A queued SQE may not name a personality (-EINVAL): the step could
 * otherwise pick any one registered on the ring, a stronger one than its
 * own request's, or its own, which the kernel gives every queued SQE.
 */
IOCORO_CASE(personality_queued)
{
	struct pers_case c;
	struct io_uring *ring = &c.co.ring;
	struct io_uring_cqe cqe, cqes[2];
	struct io_uring_sqe sqe;
	int strong;

	pers_up(&c);
	strong = io_uring_register_personality(ring);
	if (strong <= 0)
		FAIL("io_uring_register_personality: %d", strong);

	/* started as the weak one, it names the strong one */
	memset(&sqe, 0, sizeof(sqe));
	prep_open(&sqe, c.path, UD_OPEN);
	sqe.personality = strong;
	qb_put(c.skel, 0, 0, &sqe);
	prep_qbatch(ring, 0)->personality = c.weak;
	uring_submit(ring, 1);
	uring_reap(ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF | 0, 0);
	CHECK_EQ(c.skel->bss->qb_rc[0][0], -EINVAL);

	/* started as the task, it names its start's own (none) or the weak */
	sqe.personality = c.weak;
	qb_put(c.skel, 0, 0, &sqe);
	prep_qbatch(ring, 0);
	uring_submit(ring, 1);
	uring_reap(ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF | 0, 0);
	CHECK_EQ(c.skel->bss->qb_rc[0][0], -EINVAL);

	/* without one it is queued and runs as the coroutine's start */
	sqe.personality = 0;
	qb_put(c.skel, 0, 0, &sqe);
	prep_qbatch(ring, 0)->personality = c.weak;
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_BPF | 0, 0);
	EXPECT_CQE(cqes, 2, UD_OPEN, -EACCES);
	qb_check_queued(c.skel, 0);

	CHECK_EQ(io_uring_unregister_personality(ring, strong), 0);
	pers_down(&c);
}
