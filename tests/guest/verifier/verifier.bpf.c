// SPDX-License-Identifier: GPL-2.0
/*
 * Programs the verifier must refuse (verifier_test.c): one per case,
 * loaded alone (the others' autoload off), each for one reason.
 *
 * Program names are kept under 16 characters (BPF_OBJ_NAME_LEN - 1).
 */
#include <linux/bpf.h>
#include <linux/errno.h>
#include <linux/io_uring.h>
#include <bpf/bpf_helpers.h>

static long (*bpf_io_uring_queue_sqe)(void *ctx, const void *sqe, __u32 len) =
	(void *)BPF_FUNC_io_uring_queue_sqe;

/* the context is read only */
SEC("iouring")
int ctx_write(struct io_uring_step_ctx *ctx)
{
	ctx->prev_res = 1;
	return 0;
}

/* past the end of struct io_uring_step_ctx (32 bytes) */
SEC("iouring")
int ctx_oob(struct io_uring_step_ctx *ctx)
{
	return *(volatile __u32 *)((char *)ctx + 32);
}

/* a 4-byte read at offset 2 */
SEC("iouring")
int ctx_misaligned(struct io_uring_step_ctx *ctx)
{
	return *(volatile __u32 *)((char *)ctx + 2);
}

/* bpf_io_uring_queue_sqe() takes the ctx first, not the SQE */
SEC("iouring")
int queue_not_ctx(struct io_uring_step_ctx *ctx __attribute__((unused)))
{
	struct io_uring_sqe sqe = {};

	return bpf_io_uring_queue_sqe(&sqe, &sqe, sizeof(sqe));
}

/* only sleepable programs may call bpf_copy_from_user() */
SEC("iouring")
int copy_user(struct io_uring_step_ctx *ctx)
{
	__u64 v = 0;

	bpf_copy_from_user(&v, sizeof(v), (void *)ctx->user_data);
	return v;
}

/* a helper of socket filters */
SEC("iouring")
int skb_helper(struct io_uring_step_ctx *ctx)
{
	__u32 v = 0;

	bpf_skb_load_bytes(ctx, 0, &v, sizeof(v));
	return v;
}

/* a loop that never ends */
SEC("iouring")
int endless(struct io_uring_step_ctx *ctx __attribute__((unused)))
{
	for (;;)
		;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
