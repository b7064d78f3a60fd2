// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's programs (fuzz_test.c): they queue the SQEs and post the
 * CQEs user space wrote to the globals below, random data made safe to
 * run (fuzz_test.c says how). Each run follows plan
 * (run number ^ user_data ^ prev_res) % FZ_PLANS (struct fz_plan,
 * fuzz.h).
 *
 * Program names are kept under 16 characters (BPF_OBJ_NAME_LEN - 1).
 */
#include <linux/bpf.h>
#include <linux/errno.h>
#include <linux/io_uring.h>
#include <bpf/bpf_helpers.h>

#include "fuzz.h"

/* the series' helpers, by their ids in the patched uapi */
static long (*bpf_io_uring_queue_sqe)(void *ctx, const void *sqe, __u32 len) =
	(void *)BPF_FUNC_io_uring_queue_sqe;
static long (*bpf_io_uring_emit_cqe)(void *ctx, __u64 user_data, __s32 res,
				     __u32 flags) =
	(void *)BPF_FUNC_io_uring_emit_cqe;

__u8 fz_sqes[FZ_SLOTS][128];
struct fz_plan fz_plans[FZ_PLANS];
__u32 fz_sqe128;

/* what the runs did, read back by user space */
__u64 fz_runs;
__u64 fz_queued;
__u64 fz_queue_err;
__u64 fz_emitted;
__u64 fz_emit_err;
__u64 fz_copied;

static __always_inline long fz_queue(void *ctx, const void *sqe, __u32 kind)
{
	switch (kind & 3) {
	case 0:
		return bpf_io_uring_queue_sqe(ctx, sqe, 64);
	case 1:
		return bpf_io_uring_queue_sqe(ctx, sqe, 128);
	case 2:
		return bpf_io_uring_queue_sqe(ctx, sqe, 32);
	default:
		if (fz_sqe128)
			return bpf_io_uring_queue_sqe(ctx, sqe, 128);
		return bpf_io_uring_queue_sqe(ctx, sqe, 64);
	}
}

static __always_inline int fz_run(struct io_uring_bpf_ctx *ctx,
				  struct fz_plan *pl)
{
	__u32 nq = pl->nq, ne = pl->ne, first = pl->first, kind = pl->len_kind;
	__u64 ud = pl->cqe_ud;
	__s32 res = pl->cqe_res;
	__u32 flags = pl->cqe_flags;
	__u32 i;

	for (i = 0; i < FZ_MAX_Q; i++) {
		if (i >= nq)
			break;
		if (fz_queue(ctx, fz_sqes[(first + i) & (FZ_SLOTS - 1)], kind))
			__sync_fetch_and_add(&fz_queue_err, 1);
		else
			__sync_fetch_and_add(&fz_queued, 1);
	}
	for (i = 0; i < FZ_MAX_E; i++) {
		if (i >= ne)
			break;
		if (bpf_io_uring_emit_cqe(ctx, ud + i, res, flags))
			__sync_fetch_and_add(&fz_emit_err, 1);
		else
			__sync_fetch_and_add(&fz_emitted, 1);
	}
	return pl->ret;
}

static __always_inline struct fz_plan *fz_plan(struct io_uring_bpf_ctx *ctx)
{
	__u64 run = __sync_fetch_and_add(&fz_runs, 1);

	return &fz_plans[(run ^ ctx->user_data ^ (__u32)ctx->prev_res) &
			 (FZ_PLANS - 1)];
}

SEC("iouring")
int fuzz(struct io_uring_bpf_ctx *ctx)
{
	return fz_run(ctx, fz_plan(ctx));
}

/* sleepable: fuzz_test.c sets BPF_F_SLEEPABLE */
SEC("iouring")
int fuzz_s(struct io_uring_bpf_ctx *ctx)
{
	struct fz_plan *pl = fz_plan(ctx);
	__u8 buf[64];

	/* reads user memory only: any address the plan has is fine */
	if (!bpf_copy_from_user(buf, sizeof(buf), (void *)pl->copy_addr))
		__sync_fetch_and_add(&fz_copied, 1);
	return fz_run(ctx, pl);
}

char LICENSE[] SEC("license") = "GPL";
