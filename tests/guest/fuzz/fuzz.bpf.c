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
 * What this run queued and posted. Globals, not locals, so that the
 * verifier does not track each count through the loops (runs never
 * overlap: one ring at a time, its runs serialized by its ->uring_lock).
 */
__u32 fz_run_q;
__u32 fz_run_e;

static __always_inline void fz_count(__u64 *v)
{
	__sync_fetch_and_add(v, 1);
}

/*
 * One call site per helper, with a size the verifier knows only as
 * 1..128 (an SQE slot's size, without a branch): the loops verify in a
 * few thousand instructions, and the kernel sees every size the plans
 * give.
 */
static __always_inline int fz_run(struct io_uring_step_ctx *ctx,
				  struct fz_plan *pl)
{
	__u32 nq = pl->nq, ne = pl->ne, first = pl->first;
	__u32 len = (pl->sqe_len & 127) + 1;
	__u32 mask = pl->cont_mask, npost = pl->post_nr;
	__u64 ud = pl->cqe_ud, pud = pl->post_ud;
	__s32 res = pl->cqe_res;
	__u32 flags = pl->cqe_flags;
	__u32 want = fz_sqe128 ? 128 : 64;
	__u32 i;

	fz_run_q = 0;
	fz_run_e = 0;
	for (i = 0; i < FZ_MAX_Q; i++) {
		const __u8 *sqe = fz_sqes[(first + i) & (FZ_SLOTS - 1)];
		__u32 prog = pl->cont_prog[i & (FZ_CONT_PROGS - 1)];

		if (i >= nq)
			break;
		if ((mask >> (i & 31)) & 1) {
			if (bpf_io_uring_queue_sqe_cont(ctx, sqe, len, prog)) {
				fz_count(&fz_cont_err);
				continue;
			}
			fz_count(&fz_conts);
			if (sqe[0] == IORING_OP_BPF)
				fz_count(&fz_bad[FZ_BAD_CONT_BPF]);
			if (prog >= IORING_BPF_MAX_PROGS)
				fz_count(&fz_bad[FZ_BAD_CONT_PROG]);
		} else {
			if (bpf_io_uring_queue_sqe(ctx, sqe, len)) {
				fz_count(&fz_queue_err);
				continue;
			}
			fz_count(&fz_queued);
		}
		if (len != want)
			fz_count(&fz_bad[FZ_BAD_LEN]);
		if (++fz_run_q > IORING_BPF_MAX_SQES)
			fz_count(&fz_bad[FZ_BAD_MAX_SQES]);
	}
	for (i = 0; i < FZ_MAX_E; i++) {
		if (i >= ne)
			break;
		if (bpf_io_uring_emit_cqe(ctx, ud + i, res, flags)) {
			fz_count(&fz_emit_err);
			continue;
		}
		fz_count(&fz_emitted);
		if (flags & ~IORING_CQE_F_MORE)
			fz_count(&fz_bad[FZ_BAD_EMIT_FLAGS]);
		if (++fz_run_e > IORING_BPF_MAX_CQES)
			fz_count(&fz_bad[FZ_BAD_MAX_CQES]);
	}
	for (i = 0; i < FZ_MAX_POST; i++) {
		if (i >= npost)
			break;
		if (bpf_io_uring_post_result(ctx, pud + i))
			fz_count(&fz_bad[FZ_BAD_POST]);
		fz_count(&fz_posts);
	}
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
