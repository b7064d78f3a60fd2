/* SPDX-License-Identifier: (LGPL-2.1 OR MIT) */
/*
 * Accessors of struct io_uring_step_ctx, the read-only context of a
 * BPF_PROG_TYPE_IOURING program: the user_data of its own IORING_OP_BPF
 * request and, when that request was linked after another one, how the
 * other one completed (the "previous completion").
 *
 * Each accessor is one aligned load of one field, the only ctx access the
 * verifier accepts. Include <iocoro/bpf.h> rather than this file.
 */
#ifndef IOCORO_BPF_CTX_H
#define IOCORO_BPF_CTX_H

#include <linux/types.h>
#include <linux/io_uring.h>

#include <iocoro/user_data.h>

/* user_data of the IORING_OP_BPF request running this program */
IOCORO_INLINE __u64 iocoro_ctx_user_data(const struct io_uring_step_ctx *ctx)
{
	return ctx->user_data;
}

/* 1 if the request was linked after another that completed, else 0 */
IOCORO_INLINE int iocoro_ctx_has_prev(const struct io_uring_step_ctx *ctx)
{
	return ctx->has_prev != 0;
}

/* that request's CQE res (0 when !has_prev) */
IOCORO_INLINE __s32 iocoro_ctx_prev_res(const struct io_uring_step_ctx *ctx)
{
	return ctx->prev_res;
}

/* its CQE flags (0 when !has_prev) */
IOCORO_INLINE __u32 iocoro_ctx_prev_flags(const struct io_uring_step_ctx *ctx)
{
	return ctx->prev_flags;
}

/* its user_data (0 when !has_prev) */
IOCORO_INLINE __u64
iocoro_ctx_prev_user_data(const struct io_uring_step_ctx *ctx)
{
	return ctx->prev_user_data;
}

#endif /* IOCORO_BPF_CTX_H */
