// SPDX-License-Identifier: GPL-2.0
/*
 * catchain's coroutine: open a file, read it chunk by chunk into the
 * slot's buffers, posting each filled buffer to user space, and close
 * it, deciding every next operation in the kernel from the result of the
 * one before (catchain.h has the picture and the back pressure).
 */
#include <iocoro/bpf.h>

#include "catchain.h"

/* a file's coroutine state at its slot; user space writes it directly */
IOCORO_STATES(cat_states, struct catchain_state, CAT_MAX_JOBS);

/* close the file, then end with st->error (0: all went well) */
static __always_inline int cat_close(iocoro_ctx_t *ctx,
				     struct catchain_state *st)
{
	struct io_uring_sqe sqe;

	io_uring_prep_close(&sqe, st->fd);
	return iocoro_then(ctx, &sqe, &st->step, CAT_CLOSE_DONE);
}

/* the first error of @op is @res; close what is open */
static __always_inline int cat_fail(iocoro_ctx_t *ctx,
				    struct catchain_state *st, __u32 op,
				    __s32 res)
{
	if (!st->error) {
		st->failed_op = op;
		st->error = res;
	}
	if (op == CAT_OP_OPEN || op == CAT_OP_CLOSE)
		return iocoro_finish(ctx, st->error);
	return cat_close(ctx, st);
}

/* read the next chunk into buffer st->next % CAT_NBUFS */
static __always_inline int cat_read(iocoro_ctx_t *ctx,
				    struct catchain_state *st)
{
	__u64 buf = st->bufs + (__u64)(st->next % CAT_NBUFS) * st->chunk;
	struct io_uring_sqe sqe;

	io_uring_prep_read(&sqe, st->fd, (void *)buf, st->chunk, (__u64)-1);
	return iocoro_then(ctx, &sqe, &st->step, CAT_READ_DONE);
}

/* the buffer of read st->next is written out (user space's count) */
static __always_inline int cat_buf_free(struct catchain_state *st)
{
	return st->next - *(volatile __u32 *)&st->released < CAT_NBUFS;
}

/*
 * The next read once its buffer is free; else wait for user space to
 * write it out, on the slot's eventfd (catchain.h: the flag, a full
 * barrier, a second look; user space: the count, a barrier, the flag)
 */
static __always_inline int cat_next(iocoro_ctx_t *ctx,
				    struct catchain_state *st)
{
	struct io_uring_sqe sqe;

	/* the budget runs out: a new coroutine reads on (RESUME) */
	if (st->steps_max && st->steps >= st->steps_max) {
		st->step = CAT_RESUME;
		return iocoro_finish(ctx, CAT_MORE);
	}
	if (cat_buf_free(st))
		return cat_read(ctx, st);
	__sync_fetch_and_add(&st->waiting, 1);
	if (cat_buf_free(st)) {
		st->waiting = 0;
		return cat_read(ctx, st);
	}
	io_uring_prep_read(&sqe, st->credit_fd, (void *)st->scratch, 8, 0);
	return iocoro_then(ctx, &sqe, &st->step, CAT_CREDIT_DONE);
}

/* a buffer is full: post it, go on with the next */
static __always_inline int cat_data(iocoro_ctx_t *ctx,
				    struct catchain_state *st, __s32 res)
{
	__u32 slot = iocoro_id(ctx);
	int ret;

	if ((__u32)res > st->chunk)
		return cat_fail(ctx, st, CAT_OP_BAD, -EIO);
	ret = bpf_io_coro_emit_cqe(ctx,
				   CAT_UD_DATA(slot, st->next % CAT_NBUFS),
				   res, 0);
	if (ret)
		return cat_fail(ctx, st, CAT_OP_READ, ret);
	st->bytes += (__u32)res;
	st->next++;
	return cat_next(ctx, st);
}

IOCORO_COROUTINE(catchain, &cat_states, struct catchain_state)
{
	/* the result of the operation the previous step queued */
	__s32 res = iocoro_ctx_prev_res(ctx);

	st->steps++;
	switch (st->step) {
	case CAT_OPEN_DONE:
		if (res < 0)
			return cat_fail(ctx, st, CAT_OP_OPEN, res);
		st->fd = res;
		return cat_read(ctx, st);	/* buffer 0 is free */
	case CAT_READ_DONE:
		if (res < 0)
			return cat_fail(ctx, st, CAT_OP_READ, res);
		if (res == 0)			/* end of file */
			return cat_close(ctx, st);
		return cat_data(ctx, st, res);
	case CAT_CLOSE_DONE:
		if (res < 0)
			return cat_fail(ctx, st, CAT_OP_CLOSE, res);
		return iocoro_finish(ctx, st->error);
	case CAT_RESUME:
		return cat_next(ctx, st);
	case CAT_CREDIT_DONE:
		if (res < 0)
			return cat_fail(ctx, st, CAT_OP_READ, res);
		st->waits++;
		st->waiting = 0;
		return cat_next(ctx, st);
	}
	return iocoro_finish(ctx, -EINVAL);
}

char LICENSE[] SEC("license") = "GPL";
