// SPDX-License-Identifier: MIT
/*
 * Review item N1 of v5: an operation that completed reaches user space,
 * whatever happens while its step waits. On an IORING_SETUP_DEFER_TASKRUN
 * ring a pipe read armed on an empty pipe completes in the task_work its
 * poll wakeup queued, which runs only while the task enters the ring; an
 * enter that asks for no CQE runs it once, and the read's step request it
 * makes ready waits for the next. Cancelled then, the read is not found
 * (a completed request is not cancelled) and the step runs with the real
 * result; with its kind's link destroyed, the operation's own result is
 * posted. The bytes read prove nothing was lost (v5 posted -ECANCELED,
 * the bytes gone from the pipe). The same for an IORING_OP_SOCKET linked
 * after such a read: the socket it made is either the step's result or
 * posted, and the test closes it; no fd is left over (v5 posted
 * -ECANCELED with the fd installed, leaked).
 */
#include <dirent.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coro_ops.h"

#define UD_CANCEL 0x5700ULL
#define UD_SOCK 0x5800ULL

/*
 * A DEFER_TASKRUN ring with @prog attached as @kind and seen_step as
 * K_SEEN: the link of K_SEEN
 */
static int cp_ring(struct iocoro *co, struct coro_ops_bpf *skel,
		   struct bpf_program *prog, unsigned int kind)
{
	struct io_uring_params p = {
		.flags = IORING_SETUP_SINGLE_ISSUER |
			 IORING_SETUP_DEFER_TASKRUN,
	};

	CHECK_RET(iocoro_queue_init_params(8, co, &p));
	co_attach(co, prog, kind);
	return co_attach(co, skel->progs.seen_step, K_SEEN);
}

/*
 * Start @kind, its read of the empty pipe @wfd writes to armed, wait for
 * the start's CQE, then write: the read completes in an enter that waits
 * for nothing, and the read's step waits for the next enter.
 */
static void cp_started(struct iocoro *co, struct coro_ops_bpf *skel,
		       unsigned int kind, int wfd)
{
	struct io_uring_cqe *cqe;

	co_start(co, kind, UD_START);
	/* one wait: a peek would enter the ring for the step left waiting */
	CHECK_EQ(uring_wait_cqe_ms(&co->ring, &cqe, 10000), 0);
	CHECK_CQE(cqe, UD_START, 0);
	io_uring_cqe_seen(&co->ring, cqe);
	CHECK_EQ(write(wfd, "hello", 5), 5);
	CHECK_EQ(io_uring_enter(co->ring.ring_fd, 0, 0,
				IORING_ENTER_GETEVENTS, NULL), 0);
	CHECK_EQ(io_uring_cq_ready(&co->ring), 0);
	CHECK_EQ(skel->bss->seen.runs, 0);
}

/*
 * cancel user_data @ud from user space, without a wait, and reap three
 * CQEs into @cqes: the cancel's finds nothing, the request completed
 */
static void cp_cancel(struct io_uring *ring, __u64 ud,
		      struct io_uring_cqe cqes[3])
{
	struct io_uring_sqe *sqe = uring_sqe(ring);

	io_uring_prep_cancel64(sqe, ud, 0);
	sqe->user_data = UD_CANCEL;
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_CANCEL, -ENOENT);
}

/* the pipe @p closed, co_down() */
static void cp_down(struct iocoro *co, struct coro_ops_bpf *skel, int p[2])
{
	close(p[0]);
	close(p[1]);
	co_down(co, skel);
}

/* the read's step runs with the bytes the read took */
IOCORO_CASE(completed_read_cancel)
{
	struct io_uring_cqe cqes[3];
	struct coro_ops_bpf *skel;
	static char buf[64];
	struct iocoro co;
	int p[2];

	skel = co_load();
	cp_ring(&co, skel, skel->progs.read_start, K_READ_START);
	CHECK_SYS(pipe(p));
	skel->bss->read_fd = p[0];
	skel->bss->read_buf = (__u64)(uintptr_t)buf;
	cp_started(&co, skel, K_READ_START, p[1]);
	cp_cancel(&co.ring, UD_READ, cqes);
	EXPECT_CQE(cqes, 3, UD_EMIT, 1005);
	EXPECT_CQE(cqes, 3, UD_READ, 0);
	CHECK_EQ(skel->bss->seen.res, 5);
	CHECK(!memcmp(buf, "hello", 5));
	cp_down(&co, skel, p);
}

/* the read's kind went: its CQE carries the byte count */
IOCORO_CASE(completed_read_detach)
{
	struct coro_ops_bpf *skel;
	struct io_uring_cqe cqe;
	static char buf[64];
	struct iocoro co;
	int p[2], link;

	skel = co_load();
	link = cp_ring(&co, skel, skel->progs.read_start, K_READ_START);
	CHECK_SYS(pipe(p));
	skel->bss->read_fd = p[0];
	skel->bss->read_buf = (__u64)(uintptr_t)buf;
	cp_started(&co, skel, K_READ_START, p[1]);
	CHECK_SYS(close(link));
	uring_reap(&co.ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_READ, 5);
	CHECK_EQ(skel->bss->seen.runs, 0);
	CHECK(!memcmp(buf, "hello", 5));
	cp_down(&co, skel, p);
}

/* the fds the test process has open */
static int cp_fds(void)
{
	struct dirent *d;
	DIR *dir;
	int n = 0;

	dir = opendir("/proc/self/fd");
	CHECK(dir);
	while ((d = readdir(dir)))
		n += d->d_name[0] != '.';
	closedir(dir);
	return n - 1;	/* opendir's own */
}

/*
 * K_TMPL queues a read of the empty pipe @rfd (no step) linked to an
 * IORING_OP_SOCKET that continues at K_SEEN. Once the start's CQE is in,
 * write to the pipe: an enter that asks for no CQE completes the read,
 * which queues the socket as task_work, the next issues it, and its step
 * request waits for a third. Returns @fds plus the socket's fd.
 */
static int cp_socket_started(struct iocoro *co, struct coro_ops_bpf *skel,
			     int rfd, int wfd, char *buf)
{
	struct io_uring_sqe *t = skel->bss->tmpl;
	struct io_uring_cqe *cqe;
	int i;

	memset(t, 0, 2 * sizeof(*t));
	/* all it asks for: a short read would fail the link */
	io_uring_prep_read(&t[0], rfd, buf, 5, 0);
	t[0].flags = IOSQE_IO_LINK;
	t[0].user_data = UD_READ;
	io_uring_prep_socket(&t[1], AF_UNIX, SOCK_DGRAM, 0, 0);
	t[1].user_data = UD_SOCK;
	skel->bss->tmpl_kind[0] = -1;
	skel->bss->tmpl_kind[1] = K_SEEN;
	skel->bss->tmpl_n = 2;
	co_start(co, K_TMPL, UD_START);
	CHECK_EQ(uring_wait_cqe_ms(&co->ring, &cqe, 10000), 0);
	CHECK_CQE(cqe, UD_START, 0);
	io_uring_cqe_seen(&co->ring, cqe);
	CHECK_EQ(skel->bss->tmpl_rc[0], 0);
	CHECK_EQ(skel->bss->tmpl_rc[1], 0);
	CHECK_EQ(write(wfd, "hello", 5), 5);
	for (i = 0; i < 2; i++)
		CHECK_EQ(io_uring_enter(co->ring.ring_fd, 0, 0,
					IORING_ENTER_GETEVENTS, NULL), 0);
	/* a peek, which never enters: an enter would run the step */
	CHECK_EQ(io_uring_peek_cqe(&co->ring, &cqe), 0);
	CHECK_CQE(cqe, UD_READ, 5);
	io_uring_cqe_seen(&co->ring, cqe);
	CHECK_EQ(io_uring_cq_ready(&co->ring), 0);
	CHECK_EQ(skel->bss->seen.runs, 0);
	return cp_fds();
}

/* @fd is a socket: close it */
static void cp_close_socket(int fd)
{
	struct stat st;

	CHECK_SYS(fstat(fd, &st));
	CHECK(S_ISSOCK(st.st_mode));
	CHECK_SYS(close(fd));
}

/* the socket's step runs with its fd, which the test then closes */
IOCORO_CASE(completed_socket_cancel)
{
	struct io_uring_cqe cqes[3];
	struct coro_ops_bpf *skel;
	static char buf[64];
	struct iocoro co;
	int p[2], fds;

	skel = co_load();
	cp_ring(&co, skel, skel->progs.tmpl_step, K_TMPL);
	CHECK_SYS(pipe(p));
	fds = cp_fds();
	CHECK_EQ(cp_socket_started(&co, skel, p[0], p[1], buf), fds + 1);
	cp_cancel(&co.ring, UD_SOCK, cqes);
	EXPECT_CQE(cqes, 3, UD_SOCK, 0);
	CHECK_EQ(skel->bss->seen.runs, 1);
	CHECK_EQ(skel->bss->seen.user_data, UD_SOCK);
	CHECK(skel->bss->seen.res >= 0);
	EXPECT_CQE(cqes, 3, UD_EMIT, skel->bss->seen.res + 1000);
	cp_close_socket(skel->bss->seen.res);
	CHECK_EQ(cp_fds(), fds);
	cp_down(&co, skel, p);
}

/* the socket's kind went: its CQE carries the fd, which is not lost */
IOCORO_CASE(completed_socket_detach)
{
	struct coro_ops_bpf *skel;
	struct io_uring_cqe cqe;
	static char buf[64];
	struct iocoro co;
	int p[2], fds, link;

	skel = co_load();
	link = cp_ring(&co, skel, skel->progs.tmpl_step, K_TMPL);
	CHECK_SYS(pipe(p));
	fds = cp_fds();
	CHECK_EQ(cp_socket_started(&co, skel, p[0], p[1], buf), fds + 1);
	CHECK_SYS(close(link));
	uring_reap(&co.ring, &cqe, 1);
	CHECK_EQ(cqe.user_data, UD_SOCK);
	CHECK(cqe.res >= 0);
	CHECK_EQ(skel->bss->seen.runs, 0);
	cp_close_socket(cqe.res);
	CHECK_EQ(cp_fds(), fds - 1);	/* the link's fd is closed too */
	cp_down(&co, skel, p);
}
