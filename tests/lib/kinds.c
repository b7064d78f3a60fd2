// SPDX-License-Identifier: MIT
/* Helpers of the steps and rings several guest suites share: kinds.h */
#include "kinds.h"

struct kinds_bpf *kinds_load(void)
{
	return SKEL_LOAD(kinds_bpf);
}

void qb_put(struct kinds_bpf *skel, unsigned int b, unsigned int i,
	    const struct io_uring_sqe *sqe)
{
	CHECK(b < QB_NB && i < QB_MAX);
	memcpy(skel->bss->qb_sqes[b][i], sqe, SQE_SIZE);
	skel->bss->qb_n[b] = i + 1;
	skel->bss->qb_rc[b][i] = 1;
}

void qb_nop(struct kinds_bpf *skel, unsigned int b, unsigned int i,
	    __u8 flags, __u64 ud)
{
	struct io_uring_sqe sqe;

	memset(&sqe, 0, sizeof(sqe));
	io_uring_prep_nop(&sqe);
	sqe.flags = flags;
	sqe.user_data = ud;
	qb_put(skel, b, i, &sqe);
}

void qb_read(struct kinds_bpf *skel, unsigned int b, unsigned int i,
	     int fd, void *buf, unsigned int len, __u8 flags, __u64 ud)
{
	struct io_uring_sqe sqe;

	memset(&sqe, 0, sizeof(sqe));
	io_uring_prep_read(&sqe, fd, buf, len, 0);
	sqe.flags = flags;
	sqe.user_data = ud;
	qb_put(skel, b, i, &sqe);
}

void qb_check_queued(struct kinds_bpf *skel, unsigned int b)
{
	unsigned int i;

	for (i = 0; i < skel->bss->qb_n[b]; i++)
		if (skel->bss->qb_rc[b][i])
			FAIL("queue_sqe of batch %u entry %u: %ld, want 0", b,
			     i, skel->bss->qb_rc[b][i]);
}

struct io_uring_sqe *prep_qbatch(struct io_uring *ring, unsigned int b)
{
	return uring_prep_start(ring, K_MAIN, UD_BPF | b);
}
