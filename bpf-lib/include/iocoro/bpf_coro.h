/* SPDX-License-Identifier: (LGPL-2.1 OR MIT) */
/*
 * Coroutines in BPF: a coroutine is a chain of requests, each of which
 * carries the step that continues the coroutine once it completed: the
 * kernel runs that step, a struct_ops program of struct io_coro_ops
 * attached to the ring as a coroutine kind, at the operation's
 * completion, with the result in its context, and the step decides and
 * either awaits the next operation or finishes. One request a step: the
 * operation is the step. The coroutine starts with an IORING_OP_BPF
 * request (user space's iocoro_start()), whose step runs as soon as it
 * is issued. Its state lives in a map slot indexed by the coroutine's id,
 * which every request of the coroutine carries in its user_data
 * (iocoro/user_data.h). A step names the step that continues it by its
 * kind: its index among the object's steps (iocoro_step_kind() is its own).
 *
 *   #include <linux/fcntl.h>   // AT_FDCWD, O_RDONLY
 *
 *   struct cat_state { __u32 step; __s32 fd; __u64 buf; __u64 path; };
 *   enum { CAT_OPEN, CAT_READ, CAT_CLOSE };
 *
 *   struct {
 *           __uint(type, BPF_MAP_TYPE_ARRAY);
 *           __uint(max_entries, 16);
 *           __type(key, __u32);
 *           __type(value, struct cat_state);
 *   } states SEC(".maps");
 *
 *   IOCORO_COROUTINE(cat, &states, struct cat_state)
 *   {
 *           struct io_uring_sqe sqe;
 *
 *           switch (st->step) {
 *           case CAT_OPEN:
 *                   io_uring_prep_openat(&sqe, AT_FDCWD,
 *                                        (const char *)st->path, O_RDONLY, 0);
 *                   return iocoro_then(ctx, &sqe, &st->step, CAT_READ);
 *           case CAT_READ:
 *                   if (iocoro_ctx_prev_res(ctx) < 0)
 *                           return iocoro_finish(ctx, iocoro_ctx_prev_res(ctx));
 *                   ...
 *           }
 *           return iocoro_finish(ctx, -EINVAL);
 *   }
 *
 * CQEs: steps are queued with IOSQE_CQE_SKIP_SUCCESS, so a coroutine that
 * goes well posts exactly one CQE, its end: the CQE of the step that
 * called iocoro_finish() (user_data IOCORO_UD_END, res the result
 * it returned). A failed operation posts nothing: its step runs and sees
 * the error. A step that returns a negative value without iocoro_finish()
 * fails its request, whose CQE (IOCORO_UD_STEP) then ends the coroutine
 * with that error; so do the kernel's own errors (-ELOOP when the step
 * budget is spent, -ECANCELED when the task or the ring goes away or the
 * step is cancelled, -EBADF when no step is attached as its kind any more).
 *
 * A step that returns >= 0 without awaiting, spawning or finishing ends
 * its coroutine with no CQE at all: user space waits for an end that never
 * comes. Built with IOCORO_DEBUG defined (before including <iocoro/bpf.h>),
 * the IOCORO_COROUTINE() wrapper catches it: such a step fails with
 * -EPROTO, which ends the coroutine IOCORO_FAILED, -EPROTO, with the
 * step's kind. A coroutine that ends without a CQE on purpose (a
 * lane whose parent reports the work) says so with iocoro_leave(). A step
 * that queues its continuation with the raw kfuncs leaves no mark: build
 * it without IOCORO_DEBUG, or queue with the helpers here.
 *
 * Everything here is always inlined and loop-free: the verifier sees one
 * straight function per step. Include <iocoro/bpf.h> rather than this
 * file.
 */
#ifndef IOCORO_BPF_CORO_H
#define IOCORO_BPF_CORO_H

#include <linux/types.h>
#include <linux/io_uring.h>
#include <linux/errno.h>

#include <iocoro/bpf_prep.h>
#include <iocoro/bpf_ctx.h>
#include <iocoro/user_data.h>

#ifdef IOCORO_DEBUG
/* per CPU: steps' actions (awaits, spawns, finishes, leaves) so far */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} iocoro__acts SEC(".maps");

IOCORO_INLINE __u64 iocoro__acts_now(void)
{
	__u32 k = 0;
	__u64 *n = bpf_map_lookup_elem(&iocoro__acts, &k);

	return n ? *n : 0;
}

/* internal: this step acted, it queued its coroutine's next request */
IOCORO_INLINE void iocoro__acted(void)
{
	__u32 k = 0;
	__u64 *n = bpf_map_lookup_elem(&iocoro__acts, &k);

	if (n)
		(*n)++;
}

/*
 * A step that acted made the count move (never back: another run
 * interleaved on this CPU can only hide a missing action, never invent
 * one); one that did not and returned >= 0 ends its coroutine silently.
 */
#define IOCORO__DEBUG_BEGIN __u64 iocoro__a0 = iocoro__acts_now()
#define IOCORO__DEBUG_END(ret)                                              \
	((ret) >= 0 && iocoro__acts_now() == iocoro__a0 ? -EPROTO : (ret))
#else
IOCORO_INLINE void iocoro__acted(void)
{
}
#define IOCORO__DEBUG_BEGIN do { } while (0)
#define IOCORO__DEBUG_END(ret) (ret)
#endif

/* the id of the coroutine this step belongs to */
IOCORO_INLINE __u32 iocoro_id(const iocoro_ctx_t *ctx)
{
	return iocoro_ud_id(ctx->user_data);
}

/* the kind running this step (its index among the object's steps) */
IOCORO_INLINE __u32 iocoro_step_kind(const iocoro_ctx_t *ctx)
{
	return ctx->kind;
}

/*
 * Define @name, an array map of @n coroutine states of type @value_type,
 * one at each coroutine id, that user space maps into its memory
 * (BPF_F_MMAPABLE: iocoro_map_mmap()) and writes before a start:
 *
 *   IOCORO_STATES(states, struct my_state, 64);
 *   IOCORO_COROUTINE(my_step, &states, struct my_state) { ... }
 */
#define IOCORO_STATES(name, value_type, n)                                  \
	struct {                                                            \
		__uint(type, BPF_MAP_TYPE_ARRAY);                           \
		__uint(map_flags, BPF_F_MMAPABLE);                          \
		__uint(max_entries, (n));                                   \
		__type(key, __u32);                                         \
		__type(value, value_type);                                  \
	} name SEC(".maps")

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
 * Queue a step of coroutine @id that does nothing but run the step of kind
 * @kind: an IORING_OP_BPF request, whose step runs as soon as it is issued,
 * with no operation result in its ctx. How a step starts another
 * coroutine (give it its own id and state slot) without an operation.
 * Returns 0 or the kfunc's error (-EBUSY, -ELOOP as iocoro_await()).
 */
IOCORO_INLINE int iocoro_spawn(iocoro_ctx_t *ctx, __u32 kind,
			       __u32 id)
{
	struct io_uring_sqe step;

	long ret;

	iocoro_prep_kind(&step, kind);
	step.user_data = iocoro_ud(IOCORO_UD_STEP, kind, id);
	step.flags = IOSQE_CQE_SKIP_SUCCESS;
	ret = bpf_io_coro_queue_sqe(ctx, &step, sizeof(step));
	if (!ret)
		iocoro__acted();
	return (int)ret;
}

/*
 * Continue this coroutine at kind @kind's step without an operation
 * (iocoro_spawn() of this coroutine's id): its next step is @kind's
 */
IOCORO_INLINE int iocoro_jump(iocoro_ctx_t *ctx, __u32 kind)
{
	return iocoro_spawn(ctx, kind, iocoro_id(ctx));
}

/*
 * Queue the operation @sqe (prepared with an io_uring_prep_*() helper) as
 * a step of coroutine @id: once it completed, the step of kind @kind runs
 * and finds its result in iocoro_ctx_prev_res(). @sqe's user_data and its
 * IOSQE_CQE_SKIP_SUCCESS flag are set here; other flags are kept. One
 * request: the operation carries its continuation
 * (bpf_io_coro_queue_sqe_cont()).
 *
 * Returns 0, or the kfunc's error (-EBUSY when the run already queued
 * IOCORO_MAX_QUEUED_SQES SQEs, -ELOOP when the coroutine's step budget
 * cannot pay for the next step, -EBADF when @kind is not attached). Return
 * that error from the step: the coroutine then ends with it. Nothing
 * was queued then.
 */
IOCORO_INLINE int iocoro_await_as(iocoro_ctx_t *ctx,
				  struct io_uring_sqe *sqe, __u32 kind,
				  __u32 id)
{
	long ret;

	sqe->user_data = iocoro_ud(IOCORO_UD_STEP, kind, id);
	sqe->flags |= IOSQE_CQE_SKIP_SUCCESS;
	ret = bpf_io_coro_queue_sqe_cont(ctx, sqe, sizeof(*sqe), kind);
	if (!ret)
		iocoro__acted();
	return (int)ret;
}

/* iocoro_await_as() of this coroutine, continued by kind @kind */
IOCORO_INLINE int iocoro_await_kind(iocoro_ctx_t *ctx,
				    struct io_uring_sqe *sqe, __u32 kind)
{
	return iocoro_await_as(ctx, sqe, kind, iocoro_id(ctx));
}

/* iocoro_await_kind() with this step's kind as the next step */
IOCORO_INLINE int iocoro_await(iocoro_ctx_t *ctx,
			       struct io_uring_sqe *sqe)
{
	return iocoro_await_kind(ctx, sqe, iocoro_step_kind(ctx));
}

/*
 * State-machine step: record that the coroutine continues at state @next
 * (stored in *@step, a field of the coroutine's state), then await @sqe.
 * Returns what iocoro_await() returns: return it from the step.
 */
IOCORO_INLINE int iocoro_then(iocoro_ctx_t *ctx,
			      struct io_uring_sqe *sqe, __u32 *step,
			      __u32 next)
{
	*step = next;
	return iocoro_await(ctx, sqe);
}

/*
 * iocoro_then() for coroutine @id continued by kind @kind: record that it
 * continues at state @next (*@step), then iocoro_await_as() @sqe. For a
 * step that runs on behalf of another coroutine (a parent's state, a
 * file's coroutine continued from its lane). Returns what
 * iocoro_await_as() returns: return it from the step.
 */
IOCORO_INLINE int iocoro_then_as(iocoro_ctx_t *ctx,
				 struct io_uring_sqe *sqe, __u32 *step,
				 __u32 next, __u32 kind, __u32 id)
{
	*step = next;
	return iocoro_await_as(ctx, sqe, kind, id);
}

/*
 * Name @sqe, an operation this step queues on its own (no step continues
 * it: bpf_io_coro_queue_sqe()), as one of this coroutine's: user_data
 * IOCORO_UD_OP with the step's kind and the coroutine's id, so that user
 * space's reaping takes its failure for the coroutine's (iocoro_cqe_done()
 * returns 0) and iocoro_cancel() finds it.
 */
IOCORO_INLINE void iocoro_sqe_set_op(iocoro_ctx_t *ctx,
				     struct io_uring_sqe *sqe)
{
	sqe->user_data = iocoro_ud(IOCORO_UD_OP, iocoro_step_kind(ctx),
				   iocoro_id(ctx));
}

/*
 * End the coroutine with result @res: this step's request posts its CQE
 * with user_data IOCORO_UD_END and res @res once the step returned it,
 * which user space's iocoro_wait() returns. It is the request's own CQE,
 * never dropped and counted against no limit of the run. Returns @res,
 * for: return iocoro_finish(ctx, res);
 */
IOCORO_INLINE int iocoro_finish(iocoro_ctx_t *ctx, __s32 res)
{
	bpf_io_coro_post_result(ctx,
		iocoro_ud(IOCORO_UD_END, iocoro_step_kind(ctx), iocoro_id(ctx)));
	iocoro__acted();
	return res;
}

/*
 * End the coroutine without an end CQE, on purpose: for a coroutine whose
 * work another one reports (copychain's lanes; the last lane to leave
 * ends the file's coroutine). Without IOCORO_DEBUG it is `return 0`; with
 * it, it keeps the debug check from taking the silent end for a bug.
 * Returns 0, for: return iocoro_leave(ctx);
 */
IOCORO_INLINE int iocoro_leave(iocoro_ctx_t *ctx)
{
	(void)ctx;
	iocoro__acted();
	return 0;
}

/*
 * Define a coroutine step @name whose state is the value of type @type in
 * map @map (a pointer, as iocoro_state() and the map helpers take it:
 * &states) at the coroutine's id. The body that follows sees
 * `iocoro_ctx_t *ctx` (struct io_coro_step) and `@type *st` (never NULL:
 * a coroutine without a slot ends with -ENOENT) and returns the step's
 * result, usually from iocoro_then() or iocoro_finish().
 *
 * The step is a struct_ops program (IOCORO_SEC) with an io_coro_ops map
 * of its own, @name##_kind, which is how libbpf loads it; libiocoro
 * attaches it as the kind that is its index among the object's steps
 * (iocoro_prog_index()). IOCORO_COROUTINE_SLEEPABLE makes a sleepable
 * one (IOCORO_SEC_SLEEPABLE), which may call bpf_copy_from_user().
 */
#define IOCORO__COROUTINE(sec, name, map, type)                             \
	IOCORO__COROUTINE_AT(sec, name, type, iocoro_state(map, ctx))
#define IOCORO__COROUTINE_AT(sec, name, type, where)                        \
	static inline __attribute__((always_inline)) int                    \
	name##_step(iocoro_ctx_t *ctx, type *st);                            \
	IOCORO__STEP_FN(sec, name)                                           \
	{                                                                   \
		type *st = (where);                                         \
		int iocoro__ret;                                            \
		IOCORO__DEBUG_BEGIN;                                        \
                                                                            \
		if (!st)                                                    \
			return iocoro_finish(ctx, -ENOENT);                 \
		iocoro__ret = name##_step(ctx, st);                         \
		return IOCORO__DEBUG_END(iocoro__ret);                      \
	}                                                                   \
	IOCORO__STEP_KIND(name)                                              \
	static inline __attribute__((always_inline)) int                    \
	name##_step(iocoro_ctx_t *ctx, type *st)

/* struct_ops programs take their arguments as an array of u64 */
#define IOCORO__STEP_FN(sec, name)                                           \
	static inline __attribute__((always_inline)) int                    \
	name##__run(iocoro_ctx_t *ctx);                                      \
	SEC(sec) int name(unsigned long long *iocoro__args)                  \
	{                                                                   \
		return name##__run((iocoro_ctx_t *)iocoro__args[0]);        \
	}                                                                   \
	static inline __attribute__((always_inline)) int                    \
	name##__run(iocoro_ctx_t *ctx)
#define IOCORO__STEP_KIND(name)                                              \
	SEC(".struct_ops") struct io_coro_ops name##_kind = {               \
		.step = (void *)name,                                        \
	};
/*
 * IOCORO_COROUTINE() for state that lives elsewhere than a map slot at
 * the coroutine's id: @where, an expression of `ctx` evaluated at each
 * step, gives the `@type *st` (NULL: the coroutine ends with -ENOENT),
 * e.g. &slots[iocoro_id(ctx) & (N - 1)] in .bss, or a parent's state in a
 * map at another key. The same debug check.
 */
#define IOCORO_COROUTINE_AT(name, type, where)                              \
	IOCORO__COROUTINE_AT(IOCORO_SEC #name, name, type, where)
#define IOCORO_COROUTINE_AT_SLEEPABLE(name, type, where)                    \
	IOCORO__COROUTINE_AT(IOCORO_SEC_SLEEPABLE #name, name, type, where)

#define IOCORO_COROUTINE(name, map, type)                                   \
	IOCORO__COROUTINE(IOCORO_SEC #name, name, map, type)
#define IOCORO_COROUTINE_SLEEPABLE(name, map, type)                         \
	IOCORO__COROUTINE(IOCORO_SEC_SLEEPABLE #name, name, map, type)

#endif /* IOCORO_BPF_CORO_H */
