// SPDX-License-Identifier: MIT
/*
 * A continuation whose kind goes while its operation waits: the
 * operation's own result is posted, its bytes not lost; an update in
 * that time runs the new program instead.
 */
#include <stdint.h>
#include <unistd.h>

#include "coro_ops.h"

/* co_up(), K_READ_START and K_SEEN attached; K_SEEN's link in *link */
static struct coro_ops_bpf *orphan_up(struct iocoro *co, int *link)
{
	struct coro_ops_bpf *skel = co_up(co);

	co_attach(co, skel->progs.read_start, K_READ_START);
	*link = co_attach(co, skel->progs.seen_step, K_SEEN);
	return skel;
}

static void orphan_down(struct coro_ops_bpf *skel, struct iocoro *co,
			int *pipefd)
{
	close(pipefd[0]);
	close(pipefd[1]);
	co_down(co, skel);
}

/* a READ on an empty pipe continuing at K_SEEN, started */
static void start_read(struct coro_ops_bpf *skel, struct iocoro *co,
		       int *pipefd)
{
	struct io_uring_cqe cqe;

	static char buf[64];

	CHECK_EQ(pipe(pipefd), 0);
	skel->bss->read_fd = pipefd[0];
	skel->bss->read_buf = (__u64)(uintptr_t)buf;
	co_start(co, K_READ_START, UD_START);
	uring_reap(&co->ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_START, 0);
}

IOCORO_CASE(orphan_read)
{
	struct coro_ops_bpf *skel;
	struct io_uring_cqe cqe;
	struct iocoro co;
	int pipefd[2], link;

	skel = orphan_up(&co, &link);
	start_read(skel, &co, pipefd);

	close(link);
	CHECK_EQ(write(pipefd[1], "hello", 5), 5);
	uring_reap(&co.ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_READ, 5);
	CHECK_EQ(skel->bss->seen.runs, 0);

	orphan_down(skel, &co, pipefd);
}

IOCORO_CASE(orphan_update)
{
	struct io_uring_cqe cqes[2];
	struct coro_ops_bpf *skel;
	struct iocoro co;
	int pipefd[2], link;

	skel = orphan_up(&co, &link);
	skel->bss->ret_val = 9;
	start_read(skel, &co, pipefd);

	CHECK_RET(iocoro_kind_update(link, &co, skel->progs.alt_step, K_SEEN));
	CHECK_EQ(write(pipefd[1], "hello", 5), 5);
	uring_reap(&co.ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_EMIT, 2005);
	EXPECT_CQE(cqes, 2, UD_READ, 9);
	CHECK_EQ(skel->bss->seen.runs, 1);
	CHECK_EQ(skel->bss->seen.res, 5);

	close(link);
	orphan_down(skel, &co, pipefd);
}
