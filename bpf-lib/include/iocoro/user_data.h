/* SPDX-License-Identifier: (LGPL-2.1 OR MIT) */
/*
 * The user_data of a coroutine's requests and CQEs, shared by both halves
 * of iocoro: BPF steps (iocoro/bpf.h) build it, user space (iocoro.h)
 * reads it back. The same words mean the same thing on both sides.
 *
 *   bits 63..48  IOCORO_UD_MAGIC: the CQE belongs to a coroutine
 *   bits 47..40  request type (enum iocoro_ud_kind)
 *   bits 39..32  the kind whose step continues the coroutine
 *   bits 31..0   coroutine id, chosen by user space at iocoro_start()
 *
 * Every request of a coroutine carries its id: its steps (IOCORO_UD_STEP),
 * the requests that carry the step that continues the coroutine once
 * they completed (an operation, or IORING_OP_BPF), the operations a step
 * queues without one (IOCORO_UD_OP), and the CQE that reports its end
 * (IOCORO_UD_END), which the last step's request posts.
 */
#ifndef IOCORO_USER_DATA_H
#define IOCORO_USER_DATA_H

#include <linux/types.h>
#include <linux/io_uring.h> /* the patched uapi: IORING_BPF_* limits */

#ifdef __bpf__
#define IOCORO_INLINE static inline __attribute__((always_inline))
#else
#define IOCORO_INLINE static inline
#endif

#define IOCORO_UD_MAGIC		0xc0c0ULL
#define IOCORO_UD_MAGIC_SHIFT	48
#define IOCORO_UD_KIND_SHIFT	40
#define IOCORO_UD_PROG_SHIFT	32

/* the kernel's limits (<linux/io_uring.h>), under iocoro's names */
/* the most kinds iocoro_attach() attaches: all those a ring holds */
#define IOCORO_MAX_PROGS	IORING_CORO_MAX_KINDS
/* the most SQEs one step may queue */
#define IOCORO_MAX_QUEUED_SQES	IORING_BPF_MAX_SQES
/* the most CQEs one step may post */
#define IOCORO_MAX_EMITTED_CQES	IORING_BPF_MAX_CQES
/* step budget of a coroutine: kernel default and maximum */
#define IOCORO_DEFAULT_BUDGET	IORING_BPF_DEFAULT_BUDGET
#define IOCORO_MAX_BUDGET	IORING_BPF_MAX_BUDGET

enum iocoro_ud_kind {
	/* a step; its CQE only when it failed: res, the coroutine's error */
	IOCORO_UD_STEP	= 1,
	/* an operation a step queued on its own; CQE only on failure */
	IOCORO_UD_OP	= 2,
	/* the end of the coroutine (iocoro_finish()); res: its result */
	IOCORO_UD_END	= 3,
};

IOCORO_INLINE __u64 iocoro_ud(enum iocoro_ud_kind kind, __u32 prog, __u32 id)
{
	return (IOCORO_UD_MAGIC << IOCORO_UD_MAGIC_SHIFT) |
	       ((__u64)(kind & 0xff) << IOCORO_UD_KIND_SHIFT) |
	       ((__u64)(prog & 0xff) << IOCORO_UD_PROG_SHIFT) | id;
}

/* does this user_data belong to a coroutine? */
IOCORO_INLINE int iocoro_ud_is_coro(__u64 ud)
{
	return (ud >> IOCORO_UD_MAGIC_SHIFT) == IOCORO_UD_MAGIC;
}

IOCORO_INLINE enum iocoro_ud_kind iocoro_ud_kind(__u64 ud)
{
	return (enum iocoro_ud_kind)((ud >> IOCORO_UD_KIND_SHIFT) & 0xff);
}

IOCORO_INLINE __u32 iocoro_ud_prog(__u64 ud)
{
	return (__u32)((ud >> IOCORO_UD_PROG_SHIFT) & 0xff);
}

IOCORO_INLINE __u32 iocoro_ud_id(__u64 ud)
{
	return (__u32)ud;
}

#endif /* IOCORO_USER_DATA_H */
