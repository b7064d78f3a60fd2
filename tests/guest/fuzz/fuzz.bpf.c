// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's programs (fuzz_test.c): they queue the SQEs (some with a
 * continuation, bpf_io_uring_queue_sqe_cont()) and post the CQEs user
 * space wrote to the globals below, random data made safe to run
 * (fuzz_test.c says how), and post their result under another user_data
 * now and then. Each run follows plan
 * (run number ^ user_data ^ prev_res) % FZ_PLANS (struct fz_plan,
 * fuzz.h), and checks the helpers' ABI rules as it goes (fz_bad[]).
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
static long (*bpf_io_uring_queue_sqe_cont)(void *ctx, const void *sqe,
					   __u32 len, __u32 prog) =
	(void *)BPF_FUNC_io_uring_queue_sqe_cont;
static long (*bpf_io_uring_post_result)(void *ctx, __u64 user_data) =
	(void *)BPF_FUNC_io_uring_post_result;

__u8 fz_sqes[FZ_SLOTS][128];
struct fz_plan fz_plans[FZ_PLANS];
__u32 fz_sqe128;

/* what the runs did, read back by user space */
__u64 fz_runs;
__u64 fz_queued;
__u64 fz_queue_err;
__u64 fz_conts;
__u64 fz_cont_err;
__u64 fz_emitted;
__u64 fz_emit_err;
__u64 fz_posts;
__u64 fz_copied;
__u64 fz_bad[FZ_BAD_NR];
/*
 * A run's state, shared by the bpf_loop() callbacks below. The loops are
 * bpf_loop() calls, not bounded loops: the verifier checks each callback
 * once instead of every iteration of a loop it cannot prove short
 * (FZ_MAX_E is past IORING_BPF_MAX_CQES), which took the debug kernel
 * two minutes under TCG.
 */
struct fz_state {
	struct io_uring_step_ctx *ctx;
	struct fz_plan *pl;
	__u32 len;	/* the SQE size the helpers see, 1..128 */
	__u32 want;	/* the ring's SQE size */
	__u32 nq;	/* SQEs queued so far */
	__u32 ne;	/* CQEs posted so far */
};

static __always_inline void fz_count(__u64 *v)
{
	__sync_fetch_and_add(v, 1);
}

/*
 * One call site per helper, with a size the verifier knows only as
 * 1..128 (an SQE slot's size, without a branch): the kernel sees every
 * size the plans give.
 */
static long fz_queue_one(__u32 i, void *data)
{
	struct fz_state *r = data;
	struct fz_plan *pl = r->pl;
	const __u8 *sqe = fz_sqes[(pl->first + i) & (FZ_SLOTS - 1)];
	__u32 prog = pl->cont_prog[i & (FZ_CONT_PROGS - 1)];
	__u32 len = r->len & 127;

	if ((pl->cont_mask >> (i & 31)) & 1) {
		if (bpf_io_uring_queue_sqe_cont(r->ctx, sqe, len + 1, prog)) {
			fz_count(&fz_cont_err);
			return 0;
		}
		fz_count(&fz_conts);
		if (sqe[0] == IORING_OP_BPF)
			fz_count(&fz_bad[FZ_BAD_CONT_BPF]);
		if (prog >= IORING_BPF_MAX_PROGS)
			fz_count(&fz_bad[FZ_BAD_CONT_PROG]);
	} else {
		if (bpf_io_uring_queue_sqe(r->ctx, sqe, len + 1)) {
			fz_count(&fz_queue_err);
			return 0;
		}
		fz_count(&fz_queued);
	}
	if (len + 1 != r->want)
		fz_count(&fz_bad[FZ_BAD_LEN]);
	if (((const struct io_uring_sqe *)sqe)->personality)
		fz_count(&fz_bad[FZ_BAD_PERSONALITY]);
	if (++r->nq > IORING_BPF_MAX_SQES)
		fz_count(&fz_bad[FZ_BAD_MAX_SQES]);
	return 0;
}

static long fz_emit_one(__u32 i, void *data)
{
	struct fz_state *r = data;
	struct fz_plan *pl = r->pl;
	__u32 flags = pl->cqe_flags;

	if (bpf_io_uring_emit_cqe(r->ctx, pl->cqe_ud + i, pl->cqe_res,
				  flags)) {
		fz_count(&fz_emit_err);
		return 0;
	}
	fz_count(&fz_emitted);
	if (flags & ~IORING_CQE_F_MORE)
		fz_count(&fz_bad[FZ_BAD_EMIT_FLAGS]);
	if (++r->ne > IORING_BPF_MAX_CQES)
		fz_count(&fz_bad[FZ_BAD_MAX_CQES]);
	return 0;
}

static long fz_post_one(__u32 i, void *data)
{
	struct fz_state *r = data;

	if (bpf_io_uring_post_result(r->ctx, r->pl->post_ud + i))
		fz_count(&fz_bad[FZ_BAD_POST]);
	fz_count(&fz_posts);
	return 0;
}

static __always_inline __u32 fz_min(__u32 a, __u32 b)
{
	return a < b ? a : b;
}

static __always_inline int fz_run(struct io_uring_step_ctx *ctx,
				  struct fz_plan *pl)
{
	struct fz_state r = {
		.ctx = ctx,
		.pl = pl,
		.len = pl->sqe_len,
		.want = fz_sqe128 ? 128 : 64,
	};

	bpf_loop(fz_min(pl->nq, FZ_MAX_Q), fz_queue_one, &r, 0);
	bpf_loop(fz_min(pl->ne, FZ_MAX_E), fz_emit_one, &r, 0);
	bpf_loop(fz_min(pl->post_nr, FZ_MAX_POST), fz_post_one, &r, 0);
	return pl->ret;
}

static __always_inline struct fz_plan *fz_plan(struct io_uring_step_ctx *ctx)
{
	__u64 run = __sync_fetch_and_add(&fz_runs, 1);

	return &fz_plans[(run ^ ctx->user_data ^ (__u32)ctx->prev_res) &
			 (FZ_PLANS - 1)];
}

SEC("iouring")
int fuzz(struct io_uring_step_ctx *ctx)
{
	return fz_run(ctx, fz_plan(ctx));
}

/* sleepable: fuzz_test.c sets BPF_F_SLEEPABLE */
SEC("iouring")
int fuzz_s(struct io_uring_step_ctx *ctx)
{
	struct fz_plan *pl = fz_plan(ctx);
	__u8 buf[64];

	/* reads user memory only: any address the plan has is fine */
	if (!bpf_copy_from_user(buf, sizeof(buf), (void *)pl->copy_addr))
		__sync_fetch_and_add(&fz_copied, 1);
	return fz_run(ctx, pl);
}

char LICENSE[] SEC("license") = "GPL";
