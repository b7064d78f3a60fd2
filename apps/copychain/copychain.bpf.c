// SPDX-License-Identifier: GPL-2.0
/*
 * copychain's coroutine: copy src_fd to dst_fd through one user buffer,
 * chunk by chunk, deciding every next read, write or fsync in the kernel
 * from the result of the one before (copychain.h has the picture).
 */
#include <iocoro/bpf.h>

#include "copychain.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, CC_MAX);
	__type(key, __u32);
	__type(value, struct copychain_state);
} cc_states SEC(".maps");

/* end the coroutine with @op's error @res */
static __always_inline int cc_fail(struct io_uring_bpf_ctx *ctx,
				   struct copychain_state *st, __u32 op,
				   __s32 res)
{
	st->failed_op = op;
	st->error = res;
	return iocoro_finish(ctx, res);
}

/* the extent is copied: fsync if it was the last, else done */
static __always_inline int cc_extent_done(struct io_uring_bpf_ctx *ctx,
					  struct copychain_state *st)
{
	struct io_uring_sqe sqe;

	if (!st->sync)
		return iocoro_finish(ctx, 0);
	io_uring_prep_fsync(&sqe, st->dst_fd, 0);
	return iocoro_then(ctx, &sqe, &st->step, CC_FSYNC_DONE);
}

/* read the chunk at st->off, no further than st->end */
static __always_inline int cc_read(struct io_uring_bpf_ctx *ctx,
				   struct copychain_state *st)
{
	struct io_uring_sqe sqe;
	__u64 left = st->end - st->off;
	__u32 n = left < st->chunk ? (__u32)left : st->chunk;

	if (st->off >= st->end)
		return cc_extent_done(ctx, st);
	io_uring_prep_read(&sqe, st->src_fd, (void *)st->buf, n, st->off);
	return iocoro_then(ctx, &sqe, &st->step, CC_READ_DONE);
}

/* write what is left of the chunk read at st->off */
static __always_inline int cc_write(struct io_uring_bpf_ctx *ctx,
				    struct copychain_state *st)
{
	struct io_uring_sqe sqe;

	io_uring_prep_write(&sqe, st->dst_fd, (void *)(st->buf + st->done),
			    st->len - st->done, st->off + st->done);
	return iocoro_then(ctx, &sqe, &st->step, CC_WRITE_DONE);
}

IOCORO_COROUTINE(copychain, cc_states, struct copychain_state)
{
	/* the result of the operation the previous step queued */
	__s32 res = iocoro_ctx_prev_res(ctx);

	st->steps++;
	switch (st->step) {
	case CC_START:
		return cc_read(ctx, st);
	case CC_READ_DONE:
		if (res < 0)
			return cc_fail(ctx, st, CC_OP_READ, res);
		if (res == 0)			/* end of file */
			return cc_extent_done(ctx, st);
		if ((__u32)res > st->chunk)
			return cc_fail(ctx, st, CC_OP_BAD, -EIO);
		st->len = (__u32)res;
		st->done = 0;
		return cc_write(ctx, st);
	case CC_WRITE_DONE:
		if (res < 0)
			return cc_fail(ctx, st, CC_OP_WRITE, res);
		/* a write that makes no progress would loop: refuse it */
		if (res == 0 || (__u32)res > st->len - st->done)
			return cc_fail(ctx, st, CC_OP_BAD, -EIO);
		st->done += (__u32)res;
		st->copied += (__u32)res;
		if (st->done < st->len) {	/* short write: the rest */
			st->short_writes++;
			return cc_write(ctx, st);
		}
		st->off += st->len;
		return cc_read(ctx, st);
	case CC_FSYNC_DONE:
		if (res < 0)
			return cc_fail(ctx, st, CC_OP_FSYNC, res);
		return iocoro_finish(ctx, 0);
	}
	return cc_fail(ctx, st, CC_OP_BAD, -EINVAL);
}

char LICENSE[] SEC("license") = "GPL";
