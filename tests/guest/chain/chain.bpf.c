// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_PROG_TYPE_IOURING programs for the guest tests of patches 0006-0015
 * ("decisions in the kernel"): the previous completion in the context, the
 * program's return value as the request's result, the step budget and
 * sleepable programs, those that several files of the chain suite use (a
 * feature's own programs are in its own object: emit.bpf.c,
 * sleepable.bpf.c). The suite
 * drives them through the globals below (set by user space through the
 * skeleton's mmap of .bss, which a forked child shares with its parent)
 * and reads back what they saw and did.
 *
 * Program names are kept under 16 characters (BPF_OBJ_NAME_LEN - 1).
 */
#include <linux/bpf.h>
#include <linux/errno.h>
#include <linux/io_uring.h>
#include <bpf/bpf_helpers.h>

/* the helpers of patches 0006 and 0008, by their ids in the patched uapi */
static long (*bpf_io_uring_queue_sqe)(void *ctx, const void *sqe, __u32 len) =
	(void *)BPF_FUNC_io_uring_queue_sqe;
static long (*bpf_io_uring_emit_cqe)(void *ctx, __u64 user_data, __s32 res,
				     __u32 flags) =
	(void *)BPF_FUNC_io_uring_emit_cqe;

#define SQE_SIZE 64

#include "chain_progs.h"

/* ------------------------------------------------------------ nop_chain */
/*
 * One coroutine of NOPs: every run but the last queues
 *   NOP (HARDLINK | CQE_SKIP_SUCCESS) -> IORING_OP_BPF of itself
 *   (CQE_SKIP_SUCCESS)
 * and checks that it sees the NOP's completion. Run number nc_len posts
 * (nc_done_ud, number of runs) with bpf_io_uring_emit_cqe() and stops;
 * nc_len 0 never stops (the budget or the ring's end does).
 */
__u32 nc_len;
__u32 nc_idx;		/* its own index in the attached table */
__u64 nc_nop_ud;
__u64 nc_done_ud;
__u32 nc_runs;
__u32 nc_bad_prev;	/* runs that saw something else than the NOP's CQE */
long nc_emit_rc;
long nc_queue_rc;	/* the first failed queue_sqe */

SEC("iouring")
int nop_chain(struct io_uring_step_ctx *ctx)
{
	struct io_uring_sqe sqe;
	__u32 n = ++nc_runs;
	long rc;

	if (n == 1) {
		if (ctx->has_prev || ctx->prev_res || ctx->prev_flags ||
		    ctx->prev_user_data)
			nc_bad_prev++;
	} else if (ctx->has_prev != 1 || ctx->prev_res != 0 ||
		   ctx->prev_flags != 0 || ctx->prev_user_data != nc_nop_ud) {
		nc_bad_prev++;
	}

	if (nc_len && n >= nc_len) {
		nc_emit_rc = bpf_io_uring_emit_cqe(ctx, nc_done_ud, n, 0);
		return 0;
	}

	__builtin_memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_NOP;
	sqe.flags = IOSQE_IO_HARDLINK | IOSQE_CQE_SKIP_SUCCESS;
	sqe.user_data = nc_nop_ud;
	rc = bpf_io_uring_queue_sqe(ctx, &sqe, SQE_SIZE);
	if (rc)
		goto fail;

	__builtin_memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_BPF;
	sqe.flags = IOSQE_CQE_SKIP_SUCCESS;
	sqe.off = nc_idx;
	sqe.user_data = ctx->user_data;
	rc = bpf_io_uring_queue_sqe(ctx, &sqe, SQE_SIZE);
	if (rc)
		goto fail;
	return 0;
fail:
	if (!nc_queue_rc)
		nc_queue_rc = rc;
	return (int)rc;
}

/* ----------------------------------------------------------- fail_abort */
/*
 * Run after a request that may fail: records the completion it sees and
 * aborts the chain with -EPROTO when that request failed, returns its
 * result otherwise (-EINVAL without a previous completion).
 */
__u32 fa_runs;
__u32 fa_has_prev;
__s32 fa_prev_res;
__u32 fa_prev_flags;
__u64 fa_prev_ud;
__u64 fa_ud;

SEC("iouring")
int fail_abort(struct io_uring_step_ctx *ctx)
{
	fa_runs++;
	fa_ud = ctx->user_data;
	fa_has_prev = ctx->has_prev;
	fa_prev_res = ctx->prev_res;
	fa_prev_flags = ctx->prev_flags;
	fa_prev_ud = ctx->prev_user_data;
	if (!ctx->has_prev)
		return -EINVAL;
	if (ctx->prev_res < 0)
		return -EPROTO;
	return ctx->prev_res;
}

/* ------------------------------------------------------------------ fan */
/*
 * Queues fn_n (<= FN_MAX) IORING_OP_BPF requests of itself (index fn_idx,
 * user_data fn_ud, CQE_SKIP_SUCCESS) on every run, never stopping: with
 * fn_n 1 a runaway self-requeueing coroutine, with more a fan-out. Only
 * the budget ends it.
 */
__u32 fn_n;
__u32 fn_idx;
__u64 fn_ud;
__u32 fn_runs;
__u32 fn_queue_err;
long fn_queue_rc;

SEC("iouring")
int fan(struct io_uring_step_ctx *ctx)
{
	struct io_uring_sqe sqe;
	__u32 i;

	fn_runs++;
	__builtin_memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_BPF;
	sqe.flags = IOSQE_CQE_SKIP_SUCCESS;
	sqe.off = fn_idx;
	sqe.user_data = fn_ud;
	for (i = 0; i < FN_MAX; i++) {
		long rc;

		if (i >= fn_n)
			break;
		rc = bpf_io_uring_queue_sqe(ctx, &sqe, SQE_SIZE);
		if (rc) {
			fn_queue_err++;
			fn_queue_rc = rc;
		}
	}
	return 0;
}

/* ----------------------------------------------------------------- tick */
/*
 * One step of a waiting coroutine, for the teardown tests: queues
 *   TIMEOUT (tk_ts_addr + (user_data % 10) * 16, ETIME_SUCCESS,
 *            HARDLINK | CQE_SKIP_SUCCESS) -> IORING_OP_BPF of itself
 * whatever it saw, so that only the kernel can end the chain. Counts the
 * completions it saw by kind.
 */
__u64 tk_ts_addr;
__u32 tk_idx;
__u64 tk_timeout_ud;
__u64 tk_runs;
__u64 tk_first;		/* runs without a previous completion */
__u64 tk_etime;
__u64 tk_ecanceled;
__u64 tk_other;
__s32 tk_other_res;
__u32 tk_queue_err;
long tk_queue_rc;

SEC("iouring")
int tick(struct io_uring_step_ctx *ctx)
{
	struct io_uring_sqe sqe;
	long rc;

	__sync_fetch_and_add(&tk_runs, 1);
	if (!ctx->has_prev) {
		__sync_fetch_and_add(&tk_first, 1);
	} else if (ctx->prev_res == -ETIME) {
		__sync_fetch_and_add(&tk_etime, 1);
	} else if (ctx->prev_res == -ECANCELED) {
		__sync_fetch_and_add(&tk_ecanceled, 1);
	} else {
		__sync_fetch_and_add(&tk_other, 1);
		tk_other_res = ctx->prev_res;
	}

	__builtin_memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_TIMEOUT;
	sqe.flags = IOSQE_IO_HARDLINK | IOSQE_CQE_SKIP_SUCCESS;
	sqe.addr = tk_ts_addr + (ctx->user_data % 10) * 16;
	sqe.len = 1;
	sqe.timeout_flags = IORING_TIMEOUT_ETIME_SUCCESS;
	sqe.user_data = tk_timeout_ud;
	rc = bpf_io_uring_queue_sqe(ctx, &sqe, SQE_SIZE);
	if (!rc) {
		__builtin_memset(&sqe, 0, sizeof(sqe));
		sqe.opcode = IORING_OP_BPF;
		sqe.flags = IOSQE_CQE_SKIP_SUCCESS;
		sqe.off = tk_idx;
		sqe.user_data = ctx->user_data;
		rc = bpf_io_uring_queue_sqe(ctx, &sqe, SQE_SIZE);
	}
	if (rc) {
		tk_queue_err++;
		tk_queue_rc = rc;
	}
	return 0;
}

/* -------------------------------------------------------------- ret_val */
/* returns rv_ret: the request's result */
__s32 rv_ret;
__u32 rv_runs;

SEC("iouring")
int ret_val(struct io_uring_step_ctx *ctx)
{
	(void)ctx;
	rv_runs++;
	return rv_ret;
}

char LICENSE[] SEC("license") = "GPL";
