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

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, RT_MAX_COROS);
	__type(key, __u32);
	__type(value, struct rt_state);
} states SEC(".maps");

static __always_inline int queue_read(struct io_coro_step *ctx,
				      struct rt_state *st)
{
	struct io_uring_sqe sqe;

	st->first_has_prev = iocoro_ctx_has_prev(ctx);
	io_uring_prep_read(&sqe, st->fd, (void *)st->buf, st->len, 0);
	return (int)iocoro_then(ctx, &sqe, &st->step, RT_FINISH);
}

static __always_inline void record_prev(struct io_coro_step *ctx,
					struct rt_state *st)
{
	st->has_prev = iocoro_ctx_has_prev(ctx);
	st->prev_res = iocoro_ctx_prev_res(ctx);
	st->prev_user_data = iocoro_ctx_prev_user_data(ctx);
	st->kind = iocoro_step_kind(ctx);
}

IOCORO_COROUTINE(two_step, &states, struct rt_state)
{
	st->runs++;
	switch (st->step) {
	case RT_READ:
		return queue_read(ctx, st);
	case RT_FINISH:
		record_prev(ctx, st);
		return iocoro_finish(ctx, iocoro_ctx_prev_res(ctx));
	}
	return iocoro_finish(ctx, -EINVAL);
}

IOCORO_COROUTINE_SLEEPABLE(peek, &states, struct rt_state)
{
	__u64 v = 0;
	long ret;

	st->runs++;
	switch (st->step) {
	case RT_READ:
		return queue_read(ctx, st);
	case RT_FINISH:
		record_prev(ctx, st);
		if (iocoro_ctx_prev_res(ctx) < 8)
			return iocoro_finish(ctx, -EIO);
		ret = bpf_copy_from_user(&v, sizeof(v), (void *)st->buf);
		if (ret)
			return iocoro_finish(ctx, (int)ret);
		st->peeked = v;
		return iocoro_finish(ctx, (int)(v & 0xff));
	}
	return iocoro_finish(ctx, -EINVAL);
}

char LICENSE[] SEC("license") = "GPL";
