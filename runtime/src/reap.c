// SPDX-License-Identifier: (LGPL-2.1 OR MIT)
/*
 * Reaping a ring that carries coroutines and the application's own
 * requests, a handler for each; a window of coroutine ids.
 */
#include <limits.h>
#include <stdlib.h>

#include "internal.h"

/*
 * Hand @cqe to @h: 0 or a handler's error; -ENOMSG leaves it in the CQ
 * (*consumed stays 0)
 */
static int reap_one(struct iocoro *co, const struct io_uring_cqe *cqe,
		    const struct iocoro_handlers *h, int *consumed)
{
	struct iocoro_done done;
	int ret = iocoro_cqe_done(cqe, &done);

	if (ret < 0) {
		if (!h->cqe)
			return -ENOMSG;
		*consumed = 1;
		return h->cqe(co, cqe, h->arg);
	}
	*consumed = 1;
	if (!ret)
		return 0;
	/* on a kernel without the series, the opcode was not IORING_OP_BPF */
	if (done.how == IOCORO_FAILED)
		done.res = iocoro__unsupported_or(co, done.res);
	return h->done ? h->done(co, &done, h->arg) : 0;
}

static int reap(struct iocoro *co, const struct iocoro_handlers *h)
{
	struct io_uring_cqe *cqe;
	unsigned int head, seen = 0;
	int ret = 0, consumed;

	io_uring_for_each_cqe(&co->ring, head, cqe) {
		consumed = 0;
		ret = reap_one(co, cqe, h, &consumed);
		seen += (unsigned int)consumed;
		if (ret < 0)
			break;
	}
	io_uring_cq_advance(&co->ring, seen);
	return ret < 0 ? ret : (int)seen;
}

int iocoro_reap(struct iocoro *co, const struct iocoro_handlers *h)
{
	IOCORO_ERRNO_SAVE;

	if (!co || !h)
		return -EINVAL;
	return IOCORO_ERRNO_RESTORE(reap(co, h));
}

int iocoro_submit_and_reap(struct iocoro *co, unsigned int wait_nr,
			   const struct iocoro_handlers *h)
{
	IOCORO_ERRNO_SAVE;
	int ret, n;

	if (!co || !h)
		return -EINVAL;
	ret = io_uring_submit_and_wait(&co->ring, wait_nr);
	if (ret >= 0 || ret == -EINTR || ret == -ETIME)
		return IOCORO_ERRNO_RESTORE(reap(co, h));
	if (ret != -EAGAIN && ret != -EBUSY)
		return IOCORO_ERRNO_RESTORE(ret);
	/* the kernel is short of room (the CQ ring is full): reap first */
	n = reap(co, h);
	return IOCORO_ERRNO_RESTORE(n ? n : ret);
}

int iocoro_window_init(struct iocoro_window *w, unsigned int size)
{
	IOCORO_ERRNO_SAVE;
	unsigned int i;

	if (!w || !size || size > INT_MAX)
		return -EINVAL;
	w->free = malloc(size * sizeof(*w->free));
	if (!w->free)
		return IOCORO_ERRNO_RESTORE(-ENOMEM);
	/* a stack: the lowest ids on top */
	for (i = 0; i < size; i++)
		w->free[i] = size - 1 - i;
	w->nr_free = size;
	w->size = size;
	return IOCORO_ERRNO_RESTORE(0);
}

void iocoro_window_exit(struct iocoro_window *w)
{
	if (!w)
		return;
	free(w->free);
	w->free = NULL;
	w->nr_free = 0;
	w->size = 0;
}
