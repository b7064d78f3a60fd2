/* SPDX-License-Identifier: (LGPL-2.1 OR MIT) */
/*
 * Accessors of the completion a step runs for: struct io_coro_step, the
 * step's context (iocoro/coro_ops.h), read through the kernel's BTF. The
 * user_data of the step's own request and, when that request was an
 * operation (or an IORING_OP_BPF linked after one), how it completed.
 *
 * With IOCORO_BPF_V5 defined, the same accessors read the program-table
 * interface's struct io_uring_step_ctx instead. Include <iocoro/bpf.h>
 * rather than this file.
 */
#ifndef IOCORO_BPF_CTX_H
#define IOCORO_BPF_CTX_H

#include <linux/types.h>
#include <linux/io_uring.h>

#include <iocoro/user_data.h>

#ifdef IOCORO_BPF_V5
/* the context of a BPF_PROG_TYPE_IOURING program: one aligned load each */
#define iocoro_ctx_t		struct io_uring_step_ctx
#define IOCORO__CTX_UD(c)	((c)->user_data)
#define IOCORO__CTX_HAS(c)	((c)->has_prev)
#define IOCORO__CTX_RES(c)	((c)->prev_res)
#define IOCORO__CTX_FLAGS(c)	((c)->prev_flags)
#define IOCORO__CTX_RES_UD(c)	((c)->prev_user_data)
#else
#include <iocoro/coro_ops.h>
/* what a step's context is; a macro, as the kernel's struct is */
#define iocoro_ctx_t		struct io_coro_step
#define IOCORO__CTX_UD(c)	((c)->user_data)
#define IOCORO__CTX_HAS(c)	((c)->has_res)
#define IOCORO__CTX_RES(c)	((c)->res)
#define IOCORO__CTX_FLAGS(c)	((c)->cqe_flags)
#define IOCORO__CTX_RES_UD(c)	((c)->res_user_data)
#endif

/* user_data of the request whose completion runs this step */
IOCORO_INLINE __u64 iocoro_ctx_user_data(const iocoro_ctx_t *ctx)
{
	return IOCORO__CTX_UD(ctx);
}

/*
 * 1 if the step runs for an operation's completion (its own request's,
 * or that of the request an IORING_OP_BPF was linked after), else 0: an
 * IORING_OP_BPF started on its own
 */
IOCORO_INLINE int iocoro_ctx_has_prev(const iocoro_ctx_t *ctx)
{
	return IOCORO__CTX_HAS(ctx) != 0;
}

/* that operation's CQE res (0 when !has_prev) */
IOCORO_INLINE __s32 iocoro_ctx_prev_res(const iocoro_ctx_t *ctx)
{
	return IOCORO__CTX_RES(ctx);
}

/* its CQE flags (0 when !has_prev) */
IOCORO_INLINE __u32 iocoro_ctx_prev_flags(const iocoro_ctx_t *ctx)
{
	return IOCORO__CTX_FLAGS(ctx);
}

/* its user_data (0 when !has_prev) */
IOCORO_INLINE __u64 iocoro_ctx_prev_user_data(const iocoro_ctx_t *ctx)
{
	return IOCORO__CTX_RES_UD(ctx);
}

#endif /* IOCORO_BPF_CTX_H */
