// SPDX-License-Identifier: GPL-2.0
/*
 * Coroutines of the runtime guest tests (runtime_guest.c, requests.c),
 * written with bpf-lib: two steps each, a read and then the end. Kinds,
 * in object order: two_step 0, peek 1.
 *
 *   two_step (IOCORO_COROUTINE): read st->len bytes of st->fd into
 *            st->buf, then finish with the read's result.
 *   peek     (IOCORO_COROUTINE_SLEEPABLE): the same read, then copy the
 *            first 8 bytes from the user buffer with bpf_copy_from_user(),
 *            which only sleepable steps may call, and finish with the
 *            first byte.
 */
#include <iocoro/bpf.h>

#include "rt.h"

IOCORO_STATES(states, struct rt_state, RT_MAX_COROS);

/*
 * What both coroutines do first at each step: count the run; at RT_READ
 * queue the read and return 1 with the step's result in *@ret; at
 * RT_FINISH record what the read did and return 0 (the coroutine
 * ends as it will); at any other step return 1, *@ret the end with
 * -EINVAL.
 */
static __always_inline int rt_read_first(struct io_coro_step *ctx,
					  struct rt_state *st, int *ret)
{
	struct io_uring_sqe sqe;

	st->runs++;
	switch (st->step) {
	case RT_READ:
		st->first_has_prev = iocoro_ctx_has_prev(ctx);
		io_uring_prep_read(&sqe, st->fd, (void *)st->buf, st->len, 0);
		*ret = (int)iocoro_then(ctx, &sqe, &st->step, RT_FINISH);
		return 1;
	case RT_FINISH:
		st->has_prev = iocoro_ctx_has_prev(ctx);
		st->prev_res = iocoro_ctx_prev_res(ctx);
		st->prev_user_data = iocoro_ctx_prev_user_data(ctx);
		st->kind = iocoro_step_kind(ctx);
		return 0;
	}
	*ret = iocoro_finish(ctx, -EINVAL);
	return 1;
}

IOCORO_COROUTINE(two_step, &states, struct rt_state)
{
	int ret;

	if (rt_read_first(ctx, st, &ret))
		return ret;
	return iocoro_finish(ctx, iocoro_ctx_prev_res(ctx));
}

IOCORO_COROUTINE_SLEEPABLE(peek, &states, struct rt_state)
{
	__u64 v = 0;
	long err;
	int ret;

	if (rt_read_first(ctx, st, &ret))
		return ret;
	if (iocoro_ctx_prev_res(ctx) < 8)
		return iocoro_finish(ctx, -EIO);
	err = bpf_copy_from_user(&v, sizeof(v), (void *)st->buf);
	if (err)
		return iocoro_finish(ctx, (int)err);
	st->peeked = v;
	return iocoro_finish(ctx, (int)(v & 0xff));
}

char LICENSE[] SEC("license") = "GPL";
