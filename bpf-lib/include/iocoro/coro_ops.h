/* SPDX-License-Identifier: (LGPL-2.1 OR MIT) */
/*
 * Coroutine steps as struct_ops: the kernel's struct io_coro_ops and its
 * kfuncs, for .bpf.c files that write their steps that way.
 *
 *   #include <iocoro/coro_ops.h>
 *
 *   IOCORO_STEP(my_step)
 *   {
 *           if (step->res < 0)
 *                   return step->res;
 *           ...queue the next request with bpf_io_coro_queue_sqe_cont()...
 *           return 0;
 *   }
 *
 *   SEC(".struct_ops")
 *   struct io_coro_ops my_kind = { .step = (void *)my_step };
 *
 * A step program belongs to an io_coro_ops map of the object so that
 * libbpf loads it as that type's step; user space attaches the program to
 * a ring as a kind with iocoro_kind_attach(), which makes a map and a
 * bpf_link of its own (the object's map itself is never attached). A
 * sleepable step (to call bpf_copy_from_user()) is an
 * IOCORO_STEP_SLEEPABLE(), which iocoro_object_prepare() gives
 * BPF_F_SLEEPABLE before the load.
 *
 * struct io_coro_step is read through the kernel's BTF (CO-RE): only the
 * fields below, by name.
 */
#ifndef IOCORO_CORO_OPS_H
#define IOCORO_CORO_OPS_H

#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/io_uring.h>
#include <linux/errno.h>

#ifdef __bpf__
#include <bpf/bpf_helpers.h>
#define IOCORO__CORE __attribute__((preserve_access_index))
#define IOCORO__KSYM __ksym
#else
/*
 * Built for the host (bpf-lib's unit tests): plain structs, and the
 * kfuncs are functions the test defines.
 */
#define IOCORO__CORE
#define IOCORO__KSYM
#endif

/* what a step sees: the completion it runs for */
struct io_coro_step {
	/* the request's that carried the step: an operation, or a start */
	__u64	user_data;
	/* whose completion res is: that operation's (or, for a start linked
	 * after a request, that request's) */
	__u64	res_user_data;
	__s32	res;
	__u32	cqe_flags;
	/* 0 for an IORING_OP_BPF start linked after nothing; res is then 0 */
	__u32	has_res;
	/* the kind that runs */
	__u32	kind;
} IOCORO__CORE;

/* a kind of step; ring_fd and kind are set by iocoro_kind_attach() */
struct io_coro_ops {
	int (*step)(struct io_coro_step *step);
	int	ring_fd;
	__u32	kind;
};

/* queue @sqe (sizeof(struct io_uring_sqe)), submitted once the step returns */
extern int bpf_io_coro_queue_sqe(struct io_coro_step *step, const void *sqe,
				 __u32 sqe__sz) IOCORO__KSYM;
/* the same, and the step of @kind runs with its completion */
extern int bpf_io_coro_queue_sqe_cont(struct io_coro_step *step,
				      const void *sqe, __u32 sqe__sz,
				      __u32 kind) IOCORO__KSYM;
/* post a CQE (flags 0 or IORING_CQE_F_MORE) */
extern int bpf_io_coro_emit_cqe(struct io_coro_step *step, __u64 user_data,
				__s32 res, __u32 flags) IOCORO__KSYM;
/* post the step's result under @user_data, even with CQE_SKIP_SUCCESS */
extern int bpf_io_coro_post_result(struct io_coro_step *step,
				   __u64 user_data) IOCORO__KSYM;

/*
 * @rdonly_buf_size bytes (a constant) at @offset of registered buffer
 * @buf_index, read only, valid until the step returns; NULL when there is
 * no such buffer or the bytes are not all within it and within one of its
 * pages (or folios). Any step may call it, sleepable or not.
 */
extern const __u8 *bpf_io_coro_buf(struct io_coro_step *step, __u32 buf_index,
				   __u64 offset,
				   const __u32 rdonly_buf_size) IOCORO__KSYM;

/*
 * The sections of step programs: libbpf loads both as struct_ops
 * programs; libiocoro (iocoro_object_prepare()) makes those of the
 * second sleepable, as libbpf 1.1 knows no "struct_ops.s/" (a newer
 * libbpf's "struct_ops.s/" sections are taken as sleepable too).
 */
#define IOCORO_SEC		"struct_ops/"
#define IOCORO_SEC_SLEEPABLE	"struct_ops/sleepable/"

#define IOCORO__STEP(sec, name)                                             \
	static inline __attribute__((always_inline)) int                    \
	name##__step(struct io_coro_step *step);                            \
	SEC(sec #name)                                                      \
	int name(unsigned long long *ctx)                                   \
	{                                                                   \
		return name##__step((struct io_coro_step *)ctx[0]);         \
	}                                                                   \
	static inline __attribute__((always_inline)) int                    \
	name##__step(struct io_coro_step *step)

/*
 * A step program @name, in SEC(IOCORO_SEC "<name>"): the body that
 * follows sees the step's context as `step` and returns the request's
 * result (BPF_PROG()'s shape, without its unused ctx).
 * IOCORO_STEP_SLEEPABLE() is the same in IOCORO_SEC_SLEEPABLE.
 */
#define IOCORO_STEP(name) IOCORO__STEP(IOCORO_SEC, name)
#define IOCORO_STEP_SLEEPABLE(name) IOCORO__STEP(IOCORO_SEC_SLEEPABLE, name)

#endif
