// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_PROG_TYPE_IOURING programs for the hardening guest tests (issue 8):
 * hostile or careless programs that the series must contain. hardening_test.c
 * drives them through the globals below (set by user space through the
 * skeleton's mmap of .bss, which a forked child shares with its parent) and
 * reads back what they saw and did.
 *
 * Program names are kept under 16 characters (BPF_OBJ_NAME_LEN - 1).
 */
#include <linux/bpf.h>
#include <linux/errno.h>
#include <linux/io_uring.h>
#include <bpf/bpf_helpers.h>

/* the series' helpers, by their ids in the patched uapi */
static long (*bpf_io_uring_queue_sqe)(void *ctx, const void *sqe, __u32 len) =
	(void *)BPF_FUNC_io_uring_queue_sqe;
static long (*bpf_io_uring_emit_cqe)(void *ctx, __u64 user_data, __s32 res,
				     __u32 flags) =
	(void *)BPF_FUNC_io_uring_emit_cqe;

#include "hardening_progs.h"

/* --------------------------------------------------------------- qbatch */
/*
 * Queues batch b = (user_data & (QB_NB - 1)) of the IORING_OP_BPF request:
 * the qb_n[b] (<= QB_MAX) SQEs user space wrote to qb_sqes[b], in order,
 * recording each helper result in qb_rc[b]; returns qb_ret[b]. User space
 * builds the SQEs with liburing, so this one program can queue anything.
 */
__u8 qb_sqes[QB_NB][QB_MAX][SQE_SIZE];
__u32 qb_n[QB_NB];
__s32 qb_ret[QB_NB];
long qb_rc[QB_NB][QB_MAX];
__u32 qb_runs;

SEC("iouring")
int qbatch(struct io_uring_step_ctx *ctx)
{
	__u32 b = ctx->user_data & (QB_NB - 1);
	__u32 i;

	__sync_fetch_and_add(&qb_runs, 1);
	for (i = 0; i < QB_MAX; i++) {
		if (i >= qb_n[b])
			break;
		qb_rc[b][i] = bpf_io_uring_queue_sqe(ctx, qb_sqes[b][i],
						     SQE_SIZE);
	}
	return qb_ret[b];
}

/* --------------------------------------------------------------- whoami */
/*
 * Records bpf_get_current_uid_gid() and queues batch 0 like qbatch.
 * Loaded only by the personality case (the helper is new in v3: on a
 * kernel without it, only that case fails to load).
 */
__u64 wh_uidgid;
__u32 wh_runs;

SEC("iouring")
int whoami(struct io_uring_step_ctx *ctx)
{
	__u32 i;

	wh_runs++;
	wh_uidgid = bpf_get_current_uid_gid();
	for (i = 0; i < QB_MAX; i++) {
		if (i >= qb_n[0])
			break;
		qb_rc[0][i] = bpf_io_uring_queue_sqe(ctx, qb_sqes[0][i],
						     SQE_SIZE);
	}
	return qb_ret[0];
}

/* ---------------------------------------------------------- tag_a/tag_b */
/* return ta_ret / tb_ret and count their runs: which table ran? */
__s32 ta_ret;
__u32 ta_runs;
__s32 tb_ret;
__u32 tb_runs;

SEC("iouring")
int tag_a(struct io_uring_step_ctx *ctx)
{
	(void)ctx;
	__sync_fetch_and_add(&ta_runs, 1);
	return ta_ret;
}

SEC("iouring")
int tag_b(struct io_uring_step_ctx *ctx)
{
	(void)ctx;
	__sync_fetch_and_add(&tb_runs, 1);
	return tb_ret;
}

/* ----------------------------------------------------------- emit_flood */
/*
 * One run calls bpf_io_uring_emit_cqe() ef_nr times through bpf_loop
 * (CQE ef_base + i, res i) and counts the results: ef_ok, ef_ebusy,
 * ef_other (ef_other_rc the last such). Returns ef_ok.
 */
__u32 ef_nr;
__u64 ef_base;
__u32 ef_ok;
__u32 ef_ebusy;
__u32 ef_other;
long ef_other_rc;
__u32 ef_runs;

struct ef_loop_ctx {
	struct io_uring_step_ctx *ctx;
};

static long ef_one(__u64 i, void *data)
{
	struct ef_loop_ctx *lc = data;
	long rc = bpf_io_uring_emit_cqe(lc->ctx, ef_base + i, (__s32)i, 0);

	if (!rc) {
		ef_ok++;
	} else if (rc == -EBUSY) {
		ef_ebusy++;
	} else {
		ef_other++;
		ef_other_rc = rc;
	}
	return 0;
}

SEC("iouring")
int emit_flood(struct io_uring_step_ctx *ctx)
{
	struct ef_loop_ctx lc = { .ctx = ctx };

	ef_runs++;
	ef_ok = ef_ebusy = ef_other = 0;
	bpf_loop(ef_nr, ef_one, &lc, 0);
	return ef_ok;
}

/* ----------------------------------------------------------------- tick */
/*
 * An endless waiting coroutine: every run queues
 *   TIMEOUT (tk_ts_addr, ETIME_SUCCESS, HARDLINK | CQE_SKIP_SUCCESS)
 *   -> IORING_OP_BPF of itself (CQE_SKIP_SUCCESS)
 * whatever it saw; with tk_nop a NOP instead of the TIMEOUT: a coroutine
 * that never waits. Counts runs and the completions it saw.
 */
__u64 tk_ts_addr;
__u32 tk_idx;
__u64 tk_timeout_ud;
__u32 tk_nop;
__u64 tk_runs;
__u64 tk_first;
__u64 tk_etime;
__u64 tk_ecanceled;
__u64 tk_zero;
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
	} else if (ctx->prev_res == 0 && tk_nop) {
		__sync_fetch_and_add(&tk_zero, 1);
	} else {
		__sync_fetch_and_add(&tk_other, 1);
		tk_other_res = ctx->prev_res;
	}

	__builtin_memset(&sqe, 0, sizeof(sqe));
	sqe.flags = IOSQE_IO_HARDLINK | IOSQE_CQE_SKIP_SUCCESS;
	sqe.user_data = tk_timeout_ud;
	if (tk_nop) {
		sqe.opcode = IORING_OP_NOP;
	} else {
		sqe.opcode = IORING_OP_TIMEOUT;
		sqe.addr = tk_ts_addr;
		sqe.len = 1;
		sqe.timeout_flags = IORING_TIMEOUT_ETIME_SUCCESS;
	}
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
		__sync_fetch_and_add(&tk_queue_err, 1);
		tk_queue_rc = rc;
	}
	return 0;
}

/* ---------------------------------------------------------- budget_step */
/*
 * One step of a coroutine that wants to go on forever: queues
 *   NOP (user_data BQ_NOP_UD | (own user_data & 0xffff), HARDLINK)
 *   -> bq_fan IORING_OP_BPF SQEs of itself, the k-th with user_data
 *      (own user_data + 1) | (k << 8) (low byte: the depth)
 * and records each queue_sqe result of the BPF SQEs in bq_rc[depth][k].
 * When one of them is refused with -ELOOP it queues no more and finishes
 * cleanly: returns BQ_DONE. Any other refusal is returned as the result.
 */
#define BQ_DEPTH 8
#define BQ_FAN 4

__u32 bq_idx;
__u32 bq_fan;
__u32 bq_runs;
__u32 bq_eloop;
long bq_nop_rc;
long bq_rc[BQ_DEPTH][BQ_FAN];

SEC("iouring")
int budget_step(struct io_uring_step_ctx *ctx)
{
	__u32 depth = ctx->user_data & (BQ_DEPTH - 1);
	struct io_uring_sqe sqe;
	int ret = 0;
	__u32 k;
	long rc;

	__sync_fetch_and_add(&bq_runs, 1);
	__builtin_memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_NOP;
	sqe.flags = IOSQE_IO_HARDLINK;
	sqe.user_data = BQ_NOP_UD | (ctx->user_data & 0xffff);
	rc = bpf_io_uring_queue_sqe(ctx, &sqe, SQE_SIZE);
	if (rc) {
		bq_nop_rc = rc;
		return (int)rc;
	}
	for (k = 0; k < BQ_FAN; k++) {
		if (k >= bq_fan)
			break;
		__builtin_memset(&sqe, 0, sizeof(sqe));
		sqe.opcode = IORING_OP_BPF;
		sqe.off = bq_idx;
		sqe.user_data = (ctx->user_data + 1) | ((__u64)k << 8);
		rc = bpf_io_uring_queue_sqe(ctx, &sqe, SQE_SIZE);
		bq_rc[depth][k] = rc;
		if (rc == -ELOOP) {
			__sync_fetch_and_add(&bq_eloop, 1);
			ret = BQ_DONE;
			break;
		} else if (rc) {
			return (int)rc;
		}
	}
	return ret;
}

char LICENSE[] SEC("license") = "GPL";
