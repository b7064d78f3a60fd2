/* SPDX-License-Identifier: (LGPL-2.1 OR MIT) */
/*
 * Coroutines in BPF: a coroutine is a chain of IORING_OP_BPF requests, its
 * steps, each hard-linked after the operation the step before queued. A
 * step sees that operation's result in its ctx, decides, and either awaits
 * the next operation or finishes. Its state lives in a map slot indexed by
 * the coroutine's id, which every request of the coroutine carries in its
 * user_data (iocoro/user_data.h).
 *
 *   struct cat_state { __u32 step; __s32 fd; __u64 buf; };
 *   enum { CAT_OPEN, CAT_READ, CAT_CLOSE };
 *
 *   struct {
 *           __uint(type, BPF_MAP_TYPE_ARRAY);
 *           __uint(max_entries, 16);
 *           __type(key, __u32);
 *           __type(value, struct cat_state);
 *   } states SEC(".maps");
 *
 *   IOCORO_COROUTINE(cat, states, struct cat_state)
 *   {
 *           struct io_uring_sqe sqe;
 *
 *           switch (st->step) {
 *           case CAT_OPEN:
 *                   io_uring_prep_openat(&sqe, AT_FDCWD, path, O_RDONLY, 0);
 *                   return iocoro_then(ctx, &sqe, &st->step, CAT_READ);
 *           case CAT_READ:
 *                   if (iocoro_ctx_prev_res(ctx) < 0)
 *                           return iocoro_finish(ctx, iocoro_ctx_prev_res(ctx));
 *                   ...
 *           }
 *           return iocoro_finish(ctx, -EINVAL);
 *   }
 *
 * CQEs: the step and operation requests are queued with
 * IOSQE_CQE_SKIP_SUCCESS, so a coroutine that goes well posts exactly one
 * CQE, its end (iocoro_finish()). A failed operation posts its CQE (user
 * space skips it) and the step after it still runs: it is hard-linked. A
 * step that returns a negative value fails its request, whose CQE then
 * ends the coroutine with that error; so do the kernel's own errors
 * (-ELOOP when the step budget is spent, -ECANCELED when the task or the
 * ring goes away, -EBADF when the program is no longer attached).
 *
 * Everything here is always inlined and loop-free: the verifier sees one
 * straight function per program. Include <iocoro/bpf.h> rather than this
 * file.
 */
#ifndef IOCORO_BPF_CORO_H
#define IOCORO_BPF_CORO_H

#include <linux/types.h>
#include <linux/io_uring.h>
#include <linux/errno.h>

#include <iocoro/bpf_io_uring_helpers.h>
#include <iocoro/bpf_prep.h>
#include <iocoro/bpf_ctx.h>
#include <iocoro/user_data.h>

/* the id of the coroutine this step belongs to */
IOCORO_INLINE __u32 iocoro_id(const struct io_uring_bpf_ctx *ctx)
{
	return iocoro_ud_id(ctx->user_data);
}

/* the index of the program running this step (its own table slot) */
IOCORO_INLINE __u32 iocoro_self(const struct io_uring_bpf_ctx *ctx)
{
	return iocoro_ud_prog(ctx->user_data);
}

/*
 * The coroutine's state: the value of array (or hash) map @map at the
 * coroutine's id, or NULL. Use: st = iocoro_state(&states, ctx);
 */
#define iocoro_state(map, ctx)                                              \
	({                                                                  \
		__u32 iocoro_key_ = iocoro_id(ctx);                         \
		bpf_map_lookup_elem((map), &iocoro_key_);                   \
	})

/*
 * Queue the step that continues the coroutine, run by program @prog,
 * hard-linked after whatever this run queued last with IOSQE_IO_HARDLINK
 * (or on its own). Returns 0 or the helper's error.
 */
IOCORO_INLINE long iocoro_next(struct io_uring_bpf_ctx *ctx, __u32 prog)
{
	struct io_uring_sqe step;

	io_uring_prep_bpf(&step, prog);
	step.user_data = iocoro_ud(IOCORO_UD_STEP, prog, iocoro_id(ctx));
	step.flags = IOSQE_CQE_SKIP_SUCCESS;
	return bpf_io_uring_queue_sqe(ctx, &step, sizeof(step));
}

/*
 * Queue the operation @sqe (prepared with an io_uring_prep_*() helper)
 * and, hard-linked after it, the next step, run by program @prog: that
 * step finds the operation's result in iocoro_ctx_prev_res(). @sqe's
 * user_data and its IOSQE_IO_HARDLINK and IOSQE_CQE_SKIP_SUCCESS flags
 * are set here; other flags are kept.
 *
 * Returns 0, or the helper's error (-EBUSY when the run already queued
 * IOCORO_MAX_QUEUED_SQES SQEs, -ELOOP when the coroutine's step budget
 * cannot pay for the next step). Return that error from the program: the
 * coroutine then ends with it. When only the operation could be queued,
 * it still runs, but nothing follows it.
 */
IOCORO_INLINE long iocoro_await_prog(struct io_uring_bpf_ctx *ctx,
				     struct io_uring_sqe *sqe, __u32 prog)
{
	long ret;

	sqe->user_data = iocoro_ud(IOCORO_UD_OP, prog, iocoro_id(ctx));
	sqe->flags |= IOSQE_IO_HARDLINK | IOSQE_CQE_SKIP_SUCCESS;
	ret = bpf_io_uring_queue_sqe(ctx, sqe, sizeof(*sqe));
	if (ret)
		return ret;
	return iocoro_next(ctx, prog);
}

/* iocoro_await_prog() with this program as the next step */
IOCORO_INLINE long iocoro_await(struct io_uring_bpf_ctx *ctx,
				struct io_uring_sqe *sqe)
{
	return iocoro_await_prog(ctx, sqe, iocoro_self(ctx));
}

/*
 * State-machine step: record that the coroutine continues at state @next
 * (stored in *@step, a field of the coroutine's state), then await @sqe.
 * Returns what iocoro_await() returns: return it from the program.
 */
IOCORO_INLINE long iocoro_then(struct io_uring_bpf_ctx *ctx,
			       struct io_uring_sqe *sqe, __u32 *step,
			       __u32 next)
{
	*step = next;
	return iocoro_await(ctx, sqe);
}

/*
 * End the coroutine with result @res: post its end CQE (IOCORO_UD_END,
 * res = @res), which user space's iocoro_wait() returns. Returns 0, or the
 * helper's error (-ECANCELED: the ring is going away; -ENOMEM: the CQE
 * was lost). Use: return iocoro_finish(ctx, res);
 */
IOCORO_INLINE int iocoro_finish(struct io_uring_bpf_ctx *ctx, __s32 res)
{
	return (int)bpf_io_uring_emit_cqe(ctx,
		iocoro_ud(IOCORO_UD_END, iocoro_self(ctx), iocoro_id(ctx)),
		res, 0);
}

/*
 * Define a coroutine program @name in SEC("iouring") whose state is the
 * value of type @type in map @map at the coroutine's id. The body that
 * follows sees `struct io_uring_bpf_ctx *ctx` and `@type *st` (never
 * NULL: a coroutine without a slot ends with -ENOENT) and returns the
 * program's result, usually from iocoro_then() or iocoro_finish().
 * IOCORO_COROUTINE_SLEEPABLE is the same in SEC("iouring.s").
 */
#define IOCORO_COROUTINE_SEC_(sec, name, map, type)                         \
	static inline __attribute__((always_inline)) int                    \
	name##_step(struct io_uring_bpf_ctx *ctx, type *st);                \
	SEC(sec) int name(struct io_uring_bpf_ctx *ctx)                     \
	{                                                                   \
		type *st = iocoro_state(&(map), ctx);                       \
                                                                            \
		if (!st)                                                    \
			return iocoro_finish(ctx, -ENOENT);                 \
		return name##_step(ctx, st);                                \
	}                                                                   \
	static inline __attribute__((always_inline)) int                    \
	name##_step(struct io_uring_bpf_ctx *ctx, type *st)

#define IOCORO_COROUTINE(name, map, type)                                   \
	IOCORO_COROUTINE_SEC_("iouring", name, map, type)
#define IOCORO_COROUTINE_SLEEPABLE(name, map, type)                         \
	IOCORO_COROUTINE_SEC_("iouring.s", name, map, type)

#endif /* IOCORO_BPF_CORO_H */
