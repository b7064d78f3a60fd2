// SPDX-License-Identifier: (LGPL-2.1 OR MIT)
/* Starting coroutines and reaping their ends. */
#include <bpf/libbpf.h>

#include "internal.h"

int iocoro_start(struct iocoro *co, unsigned int prog_index, uint32_t id)
{
	struct io_uring_sqe *sqe;
	int ret;

	if (!co || prog_index >= IOCORO_MAX_PROGS)
		return -EINVAL;
	sqe = io_uring_get_sqe(&co->ring);
	if (!sqe) {
		/* make room: submit what is queued */
		ret = io_uring_submit(&co->ring);
		if (ret < 0)
			return ret;
		sqe = io_uring_get_sqe(&co->ring);
		if (!sqe)
			return -EBUSY;
	}
	iocoro_prep_start(sqe, prog_index, id);
	ret = io_uring_submit(&co->ring);
	if (ret < 0)
		return ret;
	return ret ? 0 : -EAGAIN;
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

int iocoro_wait(struct iocoro *co, struct iocoro_done *done,
		const struct __kernel_timespec *ts)
{
	IOCORO_ERRNO_SAVE;
	struct io_uring_cqe *cqe;
	int ret;

	if (!co || !done)
		return -EINVAL;
	for (;;) {
		/* liburing takes a non-const ts, which it only reads */
		ret = io_uring_wait_cqe_timeout(&co->ring, &cqe,
					(struct __kernel_timespec *)ts);
		if (ret < 0)
			return IOCORO_ERRNO_RESTORE(ret);
		ret = iocoro_cqe_done(cqe, done);
		if (ret < 0)
			return IOCORO_ERRNO_RESTORE(ret);
		io_uring_cqe_seen(&co->ring, cqe);
		if (ret == 1)
			break;
	}
	/* on a kernel without the series, the opcode was not IORING_OP_BPF */
	if (done->how == IOCORO_FAILED)
		done->res = iocoro__unsupported_or(co, done->res);
	return IOCORO_ERRNO_RESTORE(0);
}
