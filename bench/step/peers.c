// SPDX-License-Identifier: MIT
/*
 * step_bench's user-space contenders, on the step ring the coroutine
 * uses: the same decisions made by user space at queue depth 1 (loop),
 * and a static IOSQE_IO_LINK chain that makes none (link, the upper
 * bound). Every enter is a raw syscall of ring_enter(), counted.
 */
#include "step_bench.h"

/* (2) the same decisions from user space: submit, wait, check, N times */
int run_loop(struct bench *b, unsigned int n, struct run *r)
{
	struct bench_ring *br = &b->ring;
	struct io_uring *ring = &br->co.ring;
	struct io_uring_cqe *cqe;
	unsigned long nops = 0;
	unsigned int i;
	uint64_t t0;
	int ret;

	br->enters = 0;
	t0 = ticks();
	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

		io_uring_prep_nop(sqe);
		sqe->user_data = UD_LOOP + i;
		sq_publish(ring);
		ret = ring_enter(br, 1, 1);
		if (ret != 1)
			return ret < 0 ? ret : -EIO;
		ret = wait_cqe(br, &cqe);
		if (ret)
			return ret;
		/* the decision: this NOP went well, go on */
		if (cqe->user_data != UD_LOOP + i || cqe->res != 0)
			return bad_cqe("loop", cqe, "the NOP's, res 0");
		nops++;
		io_uring_cq_advance(ring, 1);
	}
	r->ticks = ticks() - t0;
	r->enters = br->enters;
	r->cqes = n;
	r->nops = nops;
	return 0;
}

/* (3) linked NOPs, no decisions: one CQE per batch, from its last NOP */
int run_link(struct bench *b, unsigned int n, struct run *r)
{
	struct bench_ring *br = &b->ring;
	struct io_uring *ring = &br->co.ring;
	unsigned int done, i, k;
	struct io_uring_cqe *cqe;
	unsigned long cqes = 0;
	uint64_t t0;
	int ret;

	br->enters = 0;
	t0 = ticks();
	for (done = 0; done < n; done += k) {
		k = n - done < b->o.link_batch ? n - done : b->o.link_batch;
		for (i = 0; i < k; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

			io_uring_prep_nop(sqe);
			sqe->user_data = UD_LINK + done + i;
			if (i + 1 < k)
				sqe->flags = IOSQE_IO_LINK |
					     IOSQE_CQE_SKIP_SUCCESS;
		}
		sq_publish(ring);
		ret = ring_enter(br, k, 1);
		if (ret != (int)k)
			return ret < 0 ? ret : -EIO;
		ret = wait_cqe(br, &cqe);
		if (ret)
			return ret;
		/* the last NOP of a link runs only after all before it */
		if (cqe->user_data != UD_LINK + done + k - 1 || cqe->res != 0)
			return bad_cqe("link", cqe, "the batch's last NOP, res 0");
		io_uring_cq_advance(ring, 1);
		cqes++;
		if (cq_peek(ring))
			return bad_cqe("link", cq_peek(ring),
				       "one CQE per batch");
	}
	r->ticks = ticks() - t0;
	r->enters = br->enters;
	r->cqes = cqes;
	r->nops = n;
	return 0;
}
