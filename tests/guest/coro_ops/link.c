// SPDX-License-Identifier: MIT
/*
 * Kinds attached by bpf_link: errors, BPF_LINK_UPDATE, destroying and
 * detaching links, the same map registered again, one program on two
 * rings, the ring going first, and a forked child's copies of the links
 * (churn.c: with steps in flight).
 */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "coro_ops.h"

static void run_start(struct iocoro *co, int emit_res, int nop_res)
{
	struct io_uring_cqe cqes[3];

	co_start(co, K_START, UD_START);
	uring_reap(&co->ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_START, 0);
	EXPECT_CQE(cqes, 3, UD_EMIT, emit_res);
	EXPECT_CQE(cqes, 3, UD_NOP, nop_res);
}

/*
 * co_up(), start and seen_step attached (co_start_seen(): K_SEEN's link
 * in *@seen, K_START's in *@start unless NULL), one start run through
 * them: the skeleton
 */
static struct coro_ops_bpf *seen_up(struct iocoro *co, int *seen, int *start)
{
	struct coro_ops_bpf *skel = co_up(co);

	*seen = co_start_seen(co, skel, start);
	run_start(co, 1000, 0);
	return skel;
}

/* what the kernel and the library refuse */
IOCORO_CASE(link_errors)
{
	static const __u32 flags[] = { 1, 2, 1U << 31 };
	struct io_uring_params p = { .flags = IORING_SETUP_SQPOLL };
	struct io_uring_sqe *sqe;
	struct io_uring_cqe cqe;
	unsigned int i;
	struct coro_ops_bpf *skel;
	struct iocoro co, sq;

	skel = co_up(&co);
	co_attach(&co, skel->progs.start, K_START);
	CHECK_EQ(iocoro_kind_attach(&co, skel->progs.seen_step, K_START),
		 -EBUSY);
	CHECK_EQ(iocoro_kind_attach(&co, skel->progs.seen_step,
				    IOCORO_MAX_KINDS), -EINVAL);
	CHECK_EQ(iocoro_kind_attach(&co, NULL, K_SEEN), -EINVAL);

	/* a kind nothing is attached as, one out of range, any rw_flags */
	co_start(&co, K_SEEN, UD_START);
	uring_reap(&co.ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_START, -EBADF);
	co_start(&co, 200, UD_START);
	uring_reap(&co.ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_START, -EBADF);
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		sqe = io_uring_get_sqe(&co.ring);
		iocoro_prep_kind(sqe, K_START);
		sqe->rw_flags = flags[i];
		sqe->user_data = UD_START;
		CHECK_EQ(io_uring_submit(&co.ring), 1);
		uring_reap(&co.ring, &cqe, 1);
		CHECK_CQE(&cqe, UD_START, -EINVAL);
	}

	/* steps run in the submitter's task: never on SQPOLL rings */
	memset(&sq, 0, sizeof(sq));
	CHECK_RET(io_uring_queue_init_params(8, &sq.ring, &p));
	CHECK_EQ(iocoro_kind_attach(&sq, skel->progs.start, K_START), -EINVAL);
	io_uring_queue_exit(&sq.ring);

	co_down(&co, skel);
}

/* BPF_LINK_UPDATE puts another program in the kind's place */
IOCORO_CASE(link_update)
{
	struct coro_ops_bpf *skel;
	struct iocoro co, other;
	int link;

	skel = seen_up(&co, &link, NULL);
	co_ring(&other, 8);
	CHECK_RET(iocoro_kind_update(link, &co, skel->progs.alt_step, K_SEEN));
	run_start(&co, 2000, 0);
	/* same ring and kind, or nothing */
	CHECK_EQ(iocoro_kind_update(link, &co, skel->progs.seen_step, K_SPIN),
		 -EINVAL);
	CHECK_EQ(iocoro_kind_update(link, &other, skel->progs.seen_step,
				    K_SEEN), -EINVAL);
	run_start(&co, 2000, 0);
	CHECK_EQ(skel->bss->seen.runs, 3);

	close(link);
	iocoro_queue_exit(&other);
	co_down(&co, skel);
}

/*
 * Closing the link, or BPF_LINK_DETACH with the fd still open, frees the
 * kind: a step that queues a continuation to it is told so (-EBADF, its
 * result here), and the kind can be attached again. (orphan.c: a
 * continuation queued before its kind went.)
 */
IOCORO_CASE(link_destroy)
{
	struct coro_ops_bpf *skel;
	struct io_uring_cqe cqe;
	struct iocoro co;
	int link;

	skel = seen_up(&co, &link, NULL);
	close(link);

	co_start(&co, K_START, UD_START);
	uring_reap(&co.ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_START, -EBADF);
	CHECK_EQ(skel->bss->seen.runs, 1);

	link = co_attach(&co, skel->progs.alt_step, K_SEEN);
	run_start(&co, 2000, 0);
	CHECK_EQ(bpf_link_detach(link), 0);
	CHECK_EQ(iocoro_kind_update(link, &co, skel->progs.seen_step, K_SEEN),
		 -ENOLINK);
	co_attach(&co, skel->progs.seen_step, K_SEEN);
	run_start(&co, 1000, 0);
	close(link);

	co_down(&co, skel);
}

/* the struct_ops map behind @link */
static int link_map_fd(int link)
{
	struct bpf_link_info info;
	__u32 len = sizeof(info);
	int fd;

	memset(&info, 0, sizeof(info));
	CHECK_EQ(bpf_obj_get_info_by_fd(link, &info, &len), 0);
	CHECK_EQ(info.type, BPF_LINK_TYPE_STRUCT_OPS);
	fd = bpf_map_get_fd_by_id(struct_ops_link_info_map_id(&info));
	CHECK(fd >= 0);
	return fd;
}

/*
 * The same map under a second link while the first holds it: -EBUSY;
 * once the first is detached, the map registers again, and runs.
 */
IOCORO_CASE(link_same_map)
{
	struct coro_ops_bpf *skel;
	struct iocoro co;
	int first, map, second;

	skel = co_up(&co);
	first = co_start_seen(&co, skel, NULL);
	map = link_map_fd(first);
	CHECK_EQ(uring_kind_link(map), -EBUSY);
	run_start(&co, 1000, 0);

	CHECK_EQ(bpf_link_detach(first), 0);
	second = uring_kind_link(map);
	CHECK(second >= 0);
	run_start(&co, 1000, 0);
	CHECK_EQ(skel->bss->seen.runs, 2);
	/* the detached link stays detached; closing either detaches once */
	close(first);
	run_start(&co, 1000, 0);
	close(second);
	close(map);

	co_down(&co, skel);
}

/* one loaded program serves two rings; each ring's links are its own */
IOCORO_CASE(link_two_rings)
{
	struct coro_ops_bpf *skel;
	struct iocoro a, b;
	int la0, la1;

	skel = seen_up(&a, &la1, &la0);
	co_ring(&b, 8);
	co_start_seen(&b, skel, NULL);
	run_start(&b, 1000, 0);
	close(la0);
	close(la1);
	run_start(&b, 1000, 0);
	CHECK_EQ(skel->bss->seen.runs, 3);

	iocoro_queue_exit(&a);
	co_down(&b, skel);
}

/*
 * The ring goes first: its links stay, on no ring (an update answers
 * -ENOLINK), until they are closed.
 */
IOCORO_CASE(link_ring_first)
{
	struct coro_ops_bpf *skel;
	struct iocoro co, again;
	int l0, l1;

	skel = seen_up(&co, &l1, &l0);
	iocoro_queue_exit(&co);

	/* the ring's teardown runs in a worker: give it time */
	for (int i = 0; i < 100; i++) {
		co_ring(&again, 8);
		if (iocoro_kind_update(l1, &again, skel->progs.alt_step,
				       K_SEEN) == -ENOLINK)
			break;
		iocoro_queue_exit(&again);
		usleep(10000);
	}
	CHECK_EQ(iocoro_kind_update(l1, &again, skel->progs.alt_step, K_SEEN),
		 -ENOLINK);
	close(l0);
	close(l1);
	co_down(&again, skel);
}

/*
 * A forked child holds copies of the link fds: its closing them, and its
 * exit, detach nothing; the parent's kinds still run.
 */
IOCORO_CASE(link_fork)
{
	struct coro_ops_bpf *skel;
	struct iocoro co;
	int l0, l1, status;
	pid_t pid;

	skel = co_up(&co);
	l1 = co_start_seen(&co, skel, &l0);

	pid = fork();
	CHECK(pid >= 0);
	if (!pid) {
		close(l0);
		close(l1);
		close(co.ring.ring_fd);
		_exit(0);
	}
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	run_start(&co, 1000, 0);

	co_down(&co, skel);
}
