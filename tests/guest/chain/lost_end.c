// SPDX-License-Identifier: MIT
/*
 * A coroutine's end is not lost to the per-run CQE cap: the end is the
 * step's own CQE (bpf_io_coro_post_result()), which counts against no
 * limit, so a run that posted its IORING_BPF_MAX_CQES CQEs still ends its
 * coroutine with its result, not -EBUSY.
 */
#include "guest.h"
#include "lost_end.skel.h"

IOCORO_CASE(lost_end)
{
	struct io_uring_params p = { .flags = IORING_SETUP_CQSIZE,
				     .cq_entries = 1024 };
	struct io_uring_cqe *cqes;
	struct io_uring_sqe *sqe;
	struct lost_end_bpf *skel;
	struct iocoro_done done;
	struct iocoro co;
	unsigned int i, n = IORING_BPF_MAX_CQES + 1, ends = 0;
	int link;

	skel = SKEL_LOAD(lost_end_bpf);
	memset(&co, 0, sizeof(co));
	uring_init_params(&co.ring, 8, &p);
	link = uring_attach(&co, skel->progs.le_step, 0);
	skel->bss->le_nr = IORING_BPF_MAX_CQES + 10;
	skel->bss->le_res = 4242;

	sqe = uring_sqe(&co.ring);
	/* coroutine 9 starts at kind 0 */
	iocoro_prep_start(sqe, 0, 9);
	uring_submit(&co.ring, 1);
	cqes = calloc(n, sizeof(*cqes));
	CHECK(cqes != NULL);
	uring_reap(&co.ring, cqes, n);
	CHECK_EQ(skel->bss->le_ok, IORING_BPF_MAX_CQES);
	CHECK_EQ(skel->bss->le_busy, 10);
	for (i = 0; i < n; i++) {
		if (iocoro_cqe_done(&cqes[i], &done) != 1)
			continue;
		ends++;
		CHECK_EQ(done.how, IOCORO_FINISHED);
		CHECK_EQ(done.id, 9);
		CHECK_EQ(done.res, 4242);
	}
	CHECK_EQ(ends, 1);
	free(cqes);
	close(link);
	io_uring_queue_exit(&co.ring);
	lost_end_bpf__destroy(skel);
}
