// SPDX-License-Identifier: GPL-2.0
/*
 * The steps several guest suites share (kinds.h): struct io_coro_ops
 * programs, hostile or careless, that the series must contain. The tests
 * attach them to rings as kinds (iocoro_kind_attach()), drive them through
 * the globals below (set by user space through the skeleton's mmap of
 * .bss, which a forked child shares with its parent) and read back what
 * they saw and did.
 */
#include <iocoro/coro_ops.h>
#include <iocoro/bpf_prep.h>

#include "kinds_progs.h"

char LICENSE[] SEC("license") = "GPL";

/* --------------------------------------------------------------- qbatch */
/*
 * Queues batch b = (user_data & (QB_NB - 1)) of its coroutine's start:
 * the qb_n[b] (<= QB_MAX) SQEs user space wrote to qb_sqes[b], in order,
 * recording each kfunc result in qb_rc[b]; returns qb_ret[b]. User space
 * builds the SQEs with liburing, so this one step can queue anything.
 */
__u8 qb_sqes[QB_NB][QB_MAX][SQE_SIZE];
__u32 qb_n[QB_NB];
__s32 qb_ret[QB_NB];
long qb_rc[QB_NB][QB_MAX];
__u32 qb_runs;

IOCORO_STEP(qbatch)
{
	__u32 b = step->user_data & (QB_NB - 1);
	__u32 i;

	__sync_fetch_and_add(&qb_runs, 1);
	for (i = 0; i < QB_MAX; i++) {
		if (i >= qb_n[b])
			break;
		qb_rc[b][i] = bpf_io_coro_queue_sqe(step, qb_sqes[b][i],
						    SQE_SIZE);
	}
	return qb_ret[b];
}

/* --------------------------------------------------------------- whoami */
/* records bpf_get_current_uid_gid() and queues batch 0 like qbatch */
__u64 wh_uidgid;
__u32 wh_runs;

IOCORO_STEP(whoami)
{
	__u32 i;

	wh_runs++;
	wh_uidgid = bpf_get_current_uid_gid();
	for (i = 0; i < QB_MAX; i++) {
		if (i >= qb_n[0])
			break;
		qb_rc[0][i] = bpf_io_coro_queue_sqe(step, qb_sqes[0][i],
						    SQE_SIZE);
	}
	return qb_ret[0];
}

/* ---------------------------------------------------------- tag_a/tag_b */
/* return ta_ret / tb_ret and count their runs: which program ran? */
__s32 ta_ret;
__u32 ta_runs;
__s32 tb_ret;
__u32 tb_runs;

IOCORO_STEP(tag_a)
{
	(void)step;
	__sync_fetch_and_add(&ta_runs, 1);
	return ta_ret;
}

IOCORO_STEP(tag_b)
{
	(void)step;
	__sync_fetch_and_add(&tb_runs, 1);
	return tb_ret;
}

/* ----------------------------------------------------------- emit_flood */
/*
 * One run calls bpf_io_coro_emit_cqe() ef_nr times through bpf_loop
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
	struct io_coro_step *step;
};

static long ef_one(__u64 i, void *data)
{
	struct ef_loop_ctx *lc = data;
	long rc = bpf_io_coro_emit_cqe(lc->step, ef_base + i, (__s32)i, 0);

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

IOCORO_STEP(emit_flood)
{
	struct ef_loop_ctx lc = { .step = step };

	ef_runs++;
	ef_ok = ef_ebusy = ef_other = 0;
	bpf_loop(ef_nr, ef_one, &lc, 0);
	return ef_ok;
}

/* ----------------------------------------------------------------- tick */
/*
 * An endless waiting coroutine: every step queues a TIMEOUT (the timespec
 * at tk_ts_addr, or with tk_ts_n the (user_data % tk_ts_n)-th of an array
 * there; ETIME_SUCCESS, CQE_SKIP_SUCCESS, user_data tk_timeout_ud, or its
 * own when 0) that continues at kind tk_kind, whatever it saw; with tk_nop
 * a NOP instead of the TIMEOUT: a coroutine that never waits. Counts
 * steps and the completions it saw.
 */
__u64 tk_ts_addr;
__u32 tk_ts_n;
__u32 tk_kind;
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

IOCORO_STEP(tick)
{
	struct io_uring_sqe sqe;
	long rc;

	__sync_fetch_and_add(&tk_runs, 1);
	if (!step->has_res) {
		__sync_fetch_and_add(&tk_first, 1);
	} else if (step->res == -ETIME) {
		__sync_fetch_and_add(&tk_etime, 1);
	} else if (step->res == -ECANCELED) {
		__sync_fetch_and_add(&tk_ecanceled, 1);
	} else if (step->res == 0 && tk_nop) {
		__sync_fetch_and_add(&tk_zero, 1);
	} else {
		__sync_fetch_and_add(&tk_other, 1);
		tk_other_res = step->res;
	}

	if (tk_nop) {
		io_uring_prep_nop(&sqe);
	} else {
		__u64 ts = tk_ts_addr;

		if (tk_ts_n)
			ts += (step->user_data % tk_ts_n) *
			      sizeof(struct __kernel_timespec);
		io_uring_prep_timeout(&sqe, (void *)ts, 0,
				      IORING_TIMEOUT_ETIME_SUCCESS);
	}
	sqe.flags = IOSQE_CQE_SKIP_SUCCESS;
	sqe.user_data = tk_timeout_ud ? tk_timeout_ud : step->user_data;
	rc = bpf_io_coro_queue_sqe_cont(step, &sqe, SQE_SIZE, tk_kind);
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
 *   -> bq_fan IORING_OP_BPF starts of kind bq_kind (its own), the k-th
 *      with user_data (own user_data + 1) | (k << 8) (low byte: the depth)
 * and records each kfunc result of the starts in bq_rc[depth][k].
 * When one of them is refused with -ELOOP it queues no more and finishes
 * cleanly: returns BQ_DONE. Any other refusal is returned as the result.
 */
#define BQ_DEPTH 8
#define BQ_FAN 4

__u32 bq_kind;
__u32 bq_fan;
__u32 bq_runs;
__u32 bq_eloop;
long bq_nop_rc;
long bq_rc[BQ_DEPTH][BQ_FAN];

IOCORO_STEP(budget_step)
{
	__u32 depth = step->user_data & (BQ_DEPTH - 1);
	struct io_uring_sqe sqe;
	int ret = 0;
	__u32 k;
	long rc;

	__sync_fetch_and_add(&bq_runs, 1);
	io_uring_prep_nop(&sqe);
	sqe.flags = IOSQE_IO_HARDLINK;
	sqe.user_data = BQ_NOP_UD | (step->user_data & 0xffff);
	rc = bpf_io_coro_queue_sqe(step, &sqe, SQE_SIZE);
	if (rc) {
		bq_nop_rc = rc;
		return (int)rc;
	}
	for (k = 0; k < BQ_FAN; k++) {
		if (k >= bq_fan)
			break;
		iocoro_prep_kind(&sqe, bq_kind);
		sqe.user_data = (step->user_data + 1) | ((__u64)k << 8);
		rc = bpf_io_coro_queue_sqe(step, &sqe, SQE_SIZE);
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

SEC(".struct_ops")
struct io_coro_ops qbatch_ops = { .step = (void *)qbatch };
SEC(".struct_ops")
struct io_coro_ops whoami_ops = { .step = (void *)whoami };
SEC(".struct_ops")
struct io_coro_ops tag_a_ops = { .step = (void *)tag_a };
SEC(".struct_ops")
struct io_coro_ops tag_b_ops = { .step = (void *)tag_b };
SEC(".struct_ops")
struct io_coro_ops emit_flood_ops = { .step = (void *)emit_flood };
SEC(".struct_ops")
struct io_coro_ops tick_ops = { .step = (void *)tick };
SEC(".struct_ops")
struct io_coro_ops budget_step_ops = { .step = (void *)budget_step };
