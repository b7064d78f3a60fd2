// SPDX-License-Identifier: (LGPL-2.1 OR MIT)
/* Starting coroutines and reaping their ends. */
#include <bpf/libbpf.h>

#include <time.h>

#include "internal.h"

/* an SQE of @co's ring in *@sqe, submitting what is queued to make room */
static int start_sqe(struct iocoro *co, struct io_uring_sqe **sqe)
{
	int ret;

	*sqe = io_uring_get_sqe(&co->ring);
	if (*sqe)
		return 0;
	ret = io_uring_submit(&co->ring);
	if (ret < 0)
		return ret;
	*sqe = io_uring_get_sqe(&co->ring);
	return *sqe ? 0 : -EBUSY;
}

/* submit the start just queued: 0, -EAGAIN if the kernel took no SQE */
static int start_submit(struct iocoro *co)
{
	int ret = io_uring_submit(&co->ring);

	if (ret < 0)
		return ret;
	return ret ? 0 : -EAGAIN;
}

int iocoro_start(struct iocoro *co, unsigned int prog_index, uint32_t id)
{
	struct io_uring_sqe *sqe;
	int ret;

	if (!co || prog_index >= IOCORO_MAX_PROGS)
		return -EINVAL;
	ret = start_sqe(co, &sqe);
	if (ret)
		return ret;
	iocoro_prep_start(sqe, prog_index, id);
	sqe->len = co->budget;
	return start_submit(co);
}

int iocoro_start_op(struct iocoro *co, const struct io_uring_sqe *op,
		    uint32_t id)
{
	struct io_uring_sqe *sqe;
	int ret;

	if (!co || !op)
		return -EINVAL;
	ret = start_sqe(co, &sqe);
	if (ret)
		return ret;
	*sqe = *op;
	iocoro_sqe_set_first(sqe, id);
	return start_submit(co);
}

int iocoro_start_many(struct iocoro *co, unsigned int prog_index,
		      const uint32_t *ids, unsigned int nr)
{
	IOCORO_ERRNO_SAVE;
	struct io_uring_sqe *sqe;
	unsigned int i = 0;
	int ret;

	if (!co || (!ids && nr) || prog_index >= IOCORO_MAX_PROGS)
		return -EINVAL;
	while (i < nr) {
		sqe = io_uring_get_sqe(&co->ring);
		if (!sqe) {
			/* the ring is full: hand what is queued to the kernel */
			ret = io_uring_submit(&co->ring);
			if (ret < 0)
				return IOCORO_ERRNO_RESTORE(i ? (int)i : ret);
			sqe = io_uring_get_sqe(&co->ring);
			if (!sqe)
				return IOCORO_ERRNO_RESTORE((int)i);
		}
		iocoro_prep_start(sqe, prog_index, ids[i++]);
		sqe->len = co->budget;
	}
	ret = io_uring_submit(&co->ring);
	return IOCORO_ERRNO_RESTORE(ret < 0 ? ret : (int)i);
}

int iocoro_start_state(struct iocoro *co, unsigned int prog_index,
		       uint32_t id, const struct bpf_map *states,
		       const void *state, size_t size)
{
	IOCORO_ERRNO_SAVE;
	int ret;

	if (!co || !states || !state || prog_index >= IOCORO_MAX_PROGS)
		return -EINVAL;
	ret = bpf_map__update_elem(states, &id, sizeof(id), state, size,
				   BPF_ANY);
	if (ret < 0)
		return IOCORO_ERRNO_RESTORE(ret);
	return IOCORO_ERRNO_RESTORE(iocoro_start(co, prog_index, id));
}

int iocoro_state_read(const struct bpf_map *states, uint32_t id, void *state,
		      size_t size)
{
	IOCORO_ERRNO_SAVE;

	if (!states || !state)
		return -EINVAL;
	return IOCORO_ERRNO_RESTORE(bpf_map__lookup_elem(states, &id,
				    sizeof(id), state, size, 0));
}

/* CLOCK_MONOTONIC, in ns */
static uint64_t now_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec;
}

/* what is left until @deadline (now_ns()), 0 once it passed */
static void time_left(uint64_t deadline, struct __kernel_timespec *left)
{
	uint64_t t = now_ns();

	t = t < deadline ? deadline - t : 0;
	left->tv_sec = (long long)(t / 1000000000ULL);
	left->tv_nsec = (long long)(t % 1000000000ULL);
}

/*
 * Take @cqe, the CQ's head: 1 if it ended a coroutine (*done filled in,
 * CQE consumed), 0 if it was one of a coroutine's other CQEs (consumed),
 * -ENOMSG if it is not a coroutine's (left in the CQ).
 */
static int take_cqe(struct iocoro *co, struct io_uring_cqe *cqe,
		    struct iocoro_done *done)
{
	int ret = iocoro_cqe_done(cqe, done);

	if (ret < 0)
		return ret;
	io_uring_cqe_seen(&co->ring, cqe);
	/* on a kernel without the series, the opcode was not IORING_OP_BPF */
	if (ret == 1 && done->how == IOCORO_FAILED)
		done->res = iocoro__unsupported_or(co, done->res);
	return ret;
}

static int wait_one(struct iocoro *co, struct iocoro_done *done,
		    const struct __kernel_timespec *ts)
{
	struct __kernel_timespec left, *tsp = NULL;
	struct io_uring_cqe *cqe;
	uint64_t deadline = 0;
	int ret;

	if (ts) {
		deadline = now_ns() + (uint64_t)ts->tv_sec * 1000000000ULL +
			   (uint64_t)ts->tv_nsec;
		left = *ts;
		tsp = &left;
	}
	for (;;) {
		ret = io_uring_wait_cqe_timeout(&co->ring, &cqe, tsp);
		/*
		 * -ETIME before the deadline: the kernel's wait ended without
		 * a CQE, as it does when an IORING_OP_TIMEOUT fires (one that
		 * carries a coroutine's next step posts none), and liburing
		 * calls that a timeout. Wait for what is left.
		 */
		if (ret == -ETIME && tsp) {
			time_left(deadline, tsp);
			if (tsp->tv_sec || tsp->tv_nsec)
				continue;
		}
		if (ret < 0)
			return ret;
		ret = take_cqe(co, cqe, done);
		if (ret)
			return ret < 0 ? ret : 0;
		if (tsp)
			time_left(deadline, tsp);
	}
}

int iocoro_wait(struct iocoro *co, struct iocoro_done *done,
		const struct __kernel_timespec *ts)
{
	IOCORO_ERRNO_SAVE;

	if (!co || !done)
		return -EINVAL;
	return IOCORO_ERRNO_RESTORE(wait_one(co, done, ts));
}

int iocoro_wait_many(struct iocoro *co, struct iocoro_done *done,
		     unsigned int nr, const struct __kernel_timespec *ts)
{
	IOCORO_ERRNO_SAVE;
	struct io_uring_cqe *cqe;
	unsigned int n = 1;
	int ret;

	if (!co || !done || !nr)
		return -EINVAL;
	ret = wait_one(co, done, ts);
	if (ret < 0)
		return IOCORO_ERRNO_RESTORE(ret);
	while (n < nr && !io_uring_peek_cqe(&co->ring, &cqe)) {
		ret = take_cqe(co, cqe, &done[n]);
		if (ret < 0)
			break;
		n += (unsigned int)ret;
	}
	return IOCORO_ERRNO_RESTORE((int)n);
}

/* cancel every request of @co whose user_data is @ud: how many, or -errno */
static int cancel_ud(struct iocoro *co, uint64_t ud)
{
	struct io_uring_sync_cancel_reg reg = {
		.addr = ud,
		.fd = -1,
		.flags = IORING_ASYNC_CANCEL_ALL,
		.timeout = { .tv_sec = -1, .tv_nsec = -1 },
	};

	return io_uring_register(co->ring.ring_fd, IORING_REGISTER_SYNC_CANCEL,
				 &reg, 1);
}

int iocoro_cancel(struct iocoro *co, uint32_t id)
{
	static const enum iocoro_ud_kind kinds[] = {
		IOCORO_UD_STEP, IOCORO_UD_OP,
	};
	IOCORO_ERRNO_SAVE;
	unsigned int k, prog, nr_progs;
	int ret, n = 0;

	if (!co)
		return -EINVAL;
	/* a step's user_data names the kind that continues it */
	nr_progs = co->nr_progs ? co->nr_progs : IOCORO_MAX_PROGS;
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		for (prog = 0; prog < nr_progs; prog++) {
			ret = cancel_ud(co, iocoro_ud(kinds[k], prog, id));
			if (ret < 0)
				return IOCORO_ERRNO_RESTORE(ret);
			n += ret;
		}
	}
	return IOCORO_ERRNO_RESTORE(n ? n : -ENOENT);
}
