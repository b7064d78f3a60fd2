// SPDX-License-Identifier: MIT
/* What the coro_ops cases share: loading, rings, attaching, starting. */
#include <errno.h>
#include <string.h>

#include "coro_ops.h"

struct coro_ops_bpf *co_load(void)
{
	struct coro_ops_bpf *skel = coro_ops_bpf__open();

	if (!skel)
		FAIL("coro_ops_bpf__open: %s", strerror(errno));
	/* libbpf 1.1 knows no struct_ops.s: the flag says sleepable */
	CHECK_EQ(bpf_program__set_flags(skel->progs.sleepy,
					BPF_F_SLEEPABLE), 0);
	if (coro_ops_bpf__load(skel))
		FAIL("coro_ops_bpf__load: %s", strerror(errno));
	return skel;
}

void co_ring(struct iocoro *co, unsigned int entries)
{
	CHECK_RET(iocoro_queue_init(entries, co, 0));
}

struct coro_ops_bpf *co_up(struct iocoro *co)
{
	struct coro_ops_bpf *skel = co_load();

	co_ring(co, 8);
	return skel;
}

void co_down(struct iocoro *co, struct coro_ops_bpf *skel)
{
	iocoro_queue_exit(co);
	coro_ops_bpf__destroy(skel);
}

int co_attach(struct iocoro *co, struct bpf_program *prog, unsigned int kind)
{
	return CHECK_RET(iocoro_kind_attach(co, prog, kind));
}

int co_start_seen(struct iocoro *co, struct coro_ops_bpf *skel,
		  int *start_link)
{
	int link = co_attach(co, skel->progs.start, K_START);

	if (start_link)
		*start_link = link;
	return co_attach(co, skel->progs.seen_step, K_SEEN);
}

void co_start(struct iocoro *co, unsigned int kind, __u64 ud)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&co->ring);

	CHECK(sqe);
	iocoro_prep_kind(sqe, kind);
	sqe->user_data = ud;
	CHECK_EQ(io_uring_submit(&co->ring), 1);
}

void co_start_spin(struct iocoro *co, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&co->ring);

		CHECK(sqe);
		iocoro_prep_kind(sqe, K_SPIN);
		sqe->user_data = (__u64)i << 32;
		sqe->flags = IOSQE_CQE_SKIP_SUCCESS;
	}
	CHECK_EQ(io_uring_submit(&co->ring), (int)nr);
}
