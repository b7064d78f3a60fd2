/* SPDX-License-Identifier: (LGPL-2.1 OR MIT) */
/*
 * Accessors of the completion a step runs for: struct io_coro_step, the
 * step's context (iocoro/coro_ops.h), read through the kernel's BTF. A
 * step runs once the request that carries it completed: an operation
 * queued with the step as its continuation (iocoro_await(), or submitted
 * by user space with IOSQE_BPF_STEP), whose user_data and result it
 * sees, or an IORING_OP_BPF start, which has no operation of its own.
 * Include <iocoro/bpf.h> rather than this file.
 */
#ifndef IOCORO_BPF_CTX_H
#define IOCORO_BPF_CTX_H

#include <linux/types.h>
#include <linux/io_uring.h>

#include <iocoro/user_data.h>
#include <iocoro/coro_ops.h>

/* what a step's context is; a macro, as the kernel's struct is */
#define iocoro_ctx_t		struct io_coro_step

/* user_data of the request whose completion runs this step */
IOCORO_INLINE __u64 iocoro_ctx_user_data(const iocoro_ctx_t *ctx)
{
	return ctx->user_data;
}

/*
 * 1 if the step runs for an operation's completion: the operation that
 * carried the step (or, for an IORING_OP_BPF start that user space linked
 * after a request with IOSQE_IO_LINK, that request); 0 for a start on its
 * own
 */
IOCORO_INLINE int iocoro_ctx_has_prev(const iocoro_ctx_t *ctx)
{
	return ctx->has_res != 0;
}

/* that operation's CQE res (0 when !has_prev) */
IOCORO_INLINE __s32 iocoro_ctx_prev_res(const iocoro_ctx_t *ctx)
{
	return ctx->res;
}

/* its CQE flags (0 when !has_prev) */
IOCORO_INLINE __u32 iocoro_ctx_prev_flags(const iocoro_ctx_t *ctx)
{
	return ctx->cqe_flags;
}

/* its user_data (0 when !has_prev) */
IOCORO_INLINE __u64 iocoro_ctx_prev_user_data(const iocoro_ctx_t *ctx)
{
	return ctx->res_user_data;
}

#endif /* IOCORO_BPF_CTX_H */
