// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's steps (fuzz_test.c), struct io_coro_ops programs that the
 * fuzzer attaches as kinds: they queue the SQEs (some with a continuation
 * at a kind, bpf_io_coro_queue_sqe_cont()) and post the CQEs user space
 * wrote to the globals below, random data made safe to run (fuzz_test.c
 * says how), and post their result under another user_data now and then.
 * Each run follows plan (run number ^ user_data ^ res) % FZ_PLANS
 * (struct fz_plan, fuzz.h), and checks the kfuncs' ABI rules as it goes
 * (fz_bad[]).
 */
#include <iocoro/coro_ops.h>

#include "fuzz.h"

char LICENSE[] SEC("license") = "GPL";

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
	struct io_coro_step *step;
	struct fz_plan *pl;
	__u32 len;	/* the SQE size the kfuncs see, 1..128 */
	__u32 want;	/* the ring's SQE size */
	__u32 nq;	/* SQEs queued so far */
	__u32 ne;	/* CQEs posted so far */
};

static __always_inline void fz_count(__u64 *v)
{
	__sync_fetch_and_add(v, 1);
}

/*
 * One call site per kfunc, with a size the verifier knows only as
 * 1..128 (an SQE slot's size, without a branch): the kernel sees every
 * size the plans give.
 */
static long fz_queue_one(__u32 i, void *data)
{
	struct fz_state *r = data;
	struct fz_plan *pl = r->pl;
	const __u8 *sqe = fz_sqes[(pl->first + i) & (FZ_SLOTS - 1)];
	__u32 kind = pl->cont_kind[i & (FZ_CONT_KINDS - 1)];
	__u32 len = r->len & 127;

	if ((pl->cont_mask >> (i & 31)) & 1) {
		if (bpf_io_coro_queue_sqe_cont(r->step, sqe, len + 1, kind)) {
			fz_count(&fz_cont_err);
			return 0;
		}
		fz_count(&fz_conts);
		if (sqe[0] == IORING_OP_BPF)
			fz_count(&fz_bad[FZ_BAD_CONT_BPF]);
		if (kind >= IORING_CORO_MAX_KINDS)
			fz_count(&fz_bad[FZ_BAD_CONT_KIND]);
	} else {
		if (bpf_io_coro_queue_sqe(r->step, sqe, len + 1)) {
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

	if (bpf_io_coro_emit_cqe(r->step, pl->cqe_ud + i, pl->cqe_res, flags)) {
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

	if (bpf_io_coro_post_result(r->step, r->pl->post_ud + i))
		fz_count(&fz_bad[FZ_BAD_POST]);
	fz_count(&fz_posts);
	return 0;
}

static __always_inline __u32 fz_min(__u32 a, __u32 b)
{
	return a < b ? a : b;
}

static __always_inline int fz_run(struct io_coro_step *step,
				  struct fz_plan *pl)
{
	struct fz_state r = {
		.step = step,
		.pl = pl,
		.len = pl->sqe_len,
		.want = fz_sqe128 ? 128 : 64,
	};

	bpf_loop(fz_min(pl->nq, FZ_MAX_Q), fz_queue_one, &r, 0);
	bpf_loop(fz_min(pl->ne, FZ_MAX_E), fz_emit_one, &r, 0);
	bpf_loop(fz_min(pl->post_nr, FZ_MAX_POST), fz_post_one, &r, 0);
	return pl->ret;
}

static __always_inline struct fz_plan *fz_plan(struct io_coro_step *step)
{
	__u64 run = __sync_fetch_and_add(&fz_runs, 1);

	return &fz_plans[(run ^ step->user_data ^ (__u32)step->res) &
			 (FZ_PLANS - 1)];
}

IOCORO_STEP(fuzz)
{
	return fz_run(step, fz_plan(step));
}

/* sleepable: bpf_copy_from_user() */
IOCORO_STEP_SLEEPABLE(fuzz_s)
{
	struct fz_plan *pl = fz_plan(step);
	__u8 buf[64];

	/* reads user memory only: any address the plan has is fine */
	if (!bpf_copy_from_user(buf, sizeof(buf), (void *)pl->copy_addr))
		__sync_fetch_and_add(&fz_copied, 1);
	return fz_run(step, pl);
}

SEC(".struct_ops")
struct io_coro_ops fuzz_ops = { .step = (void *)fuzz };
SEC(".struct_ops")
struct io_coro_ops fuzz_s_ops = { .step = (void *)fuzz_s };
