// SPDX-License-Identifier: GPL-2.0
/*
 * The struct io_coro_ops steps several files of the chain suite use (a
 * feature's own steps are in its own object: emit.bpf.c, sleepable.bpf.c,
 * cont_link.bpf.c, scale.bpf.c): the completion in the step's context,
 * the step's return value as its request's result and the CQE it posts
 * beside it, the step budget. Each
 * step has an io_coro_ops map of its own, so that libbpf loads it; the
 * suite attaches them as the kinds of chain_progs.h (attach_all()). The
 * suite drives them through the globals below (set by user space through
 * the skeleton's mmap of .bss, which a forked child shares with its
 * parent) and reads back what they saw and did.
 */
#include <iocoro/coro_ops.h>
#include <iocoro/bpf_prep.h>

#include "chain_progs.h"

char LICENSE[] SEC("license") = "GPL";

/* ------------------------------------------------------------ nop_chain */
/*
 * One coroutine of NOP steps, in one of two shapes:
 *   nc_linked 0: every run but the last queues a NOP (CQE_SKIP_SUCCESS)
 *                that continues at its own kind;
 *   nc_linked 1: every run but the last queues
 *                NOP (HARDLINK | CQE_SKIP_SUCCESS) -> IORING_OP_BPF start
 *                of its own kind (CQE_SKIP_SUCCESS, user_data its own)
 * and checks that it sees the NOP's completion. Run number nc_len posts
 * (nc_done_ud, number of runs) with bpf_io_coro_emit_cqe() and returns 0;
 * nc_len 0 never stops (the budget or the ring's end does).
 */
__u32 nc_len;
__u32 nc_linked;
__u64 nc_nop_ud;
__u64 nc_done_ud;
__u64 nc_start_ud;	/* the user_data of the first run */
__u32 nc_runs;
__u32 nc_bad_prev;	/* runs that saw something else than the NOP's CQE */
int nc_emit_rc;
int nc_queue_rc;	/* the first failed queue */

IOCORO_STEP(nop_chain)
{
	struct io_uring_sqe sqe = {};
	__u32 n = ++nc_runs;
	__u64 want_ud;
	int rc;

	if (n == 1) {
		nc_start_ud = step->user_data;
		if (step->has_res || step->res || step->cqe_flags ||
		    step->res_user_data)
			nc_bad_prev++;
	} else {
		/* a continuation runs as the NOP, a linked start as itself */
		want_ud = nc_linked ? nc_start_ud : nc_nop_ud;
		if (step->has_res != 1 || step->res != 0 ||
		    step->cqe_flags != 0 ||
		    step->res_user_data != nc_nop_ud ||
		    step->user_data != want_ud)
			nc_bad_prev++;
	}
	if (step->kind != K_NOP_CHAIN)
		nc_bad_prev++;

	if (nc_len && n >= nc_len) {
		nc_emit_rc = bpf_io_coro_emit_cqe(step, nc_done_ud, n, 0);
		return 0;
	}

	io_uring_prep_nop(&sqe);
	sqe.user_data = nc_nop_ud;
	if (!nc_linked) {
		sqe.flags = IOSQE_CQE_SKIP_SUCCESS;
		rc = bpf_io_coro_queue_sqe_cont(step, &sqe, sizeof(sqe),
						step->kind);
		if (rc)
			goto fail;
		return 0;
	}
	sqe.flags = IOSQE_IO_HARDLINK | IOSQE_CQE_SKIP_SUCCESS;
	rc = bpf_io_coro_queue_sqe(step, &sqe, sizeof(sqe));
	if (rc)
		goto fail;

	__builtin_memset(&sqe, 0, sizeof(sqe));
	iocoro_prep_kind(&sqe, step->kind);
	sqe.flags = IOSQE_CQE_SKIP_SUCCESS;
	sqe.user_data = step->user_data;
	rc = bpf_io_coro_queue_sqe(step, &sqe, sizeof(sqe));
	if (rc)
		goto fail;
	return 0;
fail:
	if (!nc_queue_rc)
		nc_queue_rc = rc;
	return rc;
}

/* ----------------------------------------------------------- fail_abort */
/*
 * Run after a request that may fail: records the completion it sees and
 * aborts the chain with -EPROTO when that request failed, returns its
 * result otherwise (-EINVAL without a completion to see).
 */
struct step_seen fa_seen;

IOCORO_STEP(fail_abort)
{
	SEEN_RECORD(fa_seen, step);
	if (!step->has_res)
		return -EINVAL;
	if (step->res < 0)
		return -EPROTO;
	return step->res;
}

/* ------------------------------------------------------------------ fan */
/*
 * Queues fn_n (<= FN_MAX) IORING_OP_BPF starts of its own kind (user_data
 * fn_ud, CQE_SKIP_SUCCESS, sqe->len fn_len) on every run, never stopping:
 * with fn_n 1 a runaway self-requeueing coroutine, with more a fan-out.
 * Only the budget ends it.
 */
__u32 fn_n;
__u32 fn_len;
__u64 fn_ud;
__u32 fn_runs;
__u32 fn_queue_err;
int fn_queue_rc;

IOCORO_STEP(fan)
{
	struct io_uring_sqe sqe = {};
	__u32 i;

	__sync_fetch_and_add(&fn_runs, 1);
	iocoro_prep_kind(&sqe, step->kind);
	sqe.flags = IOSQE_CQE_SKIP_SUCCESS;
	sqe.len = fn_len;
	sqe.user_data = fn_ud;
	for (i = 0; i < FN_MAX; i++) {
		int rc;

		if (i >= fn_n)
			break;
		rc = bpf_io_coro_queue_sqe(step, &sqe, sizeof(sqe));
		if (rc) {
			fn_queue_err++;
			fn_queue_rc = rc;
		}
	}
	return 0;
}

/* -------------------------------------------------------------- ret_val */
/*
 * Returns rv_ret: the request's result. With rv_emit set it first posts
 * one CQE (rv_emit_ud, rv_emit_res, rv_emit_flags) by
 * bpf_io_coro_emit_cqe(), whose result goes to rv_emit_rc.
 */
__s32 rv_ret;
__u32 rv_runs;
__u32 rv_emit;
__u64 rv_emit_ud;
__s32 rv_emit_res;
__u32 rv_emit_flags;
int rv_emit_rc;

IOCORO_STEP(ret_val)
{
	rv_runs++;
	if (rv_emit)
		rv_emit_rc = bpf_io_coro_emit_cqe(step, rv_emit_ud,
						  rv_emit_res, rv_emit_flags);
	return rv_ret;
}

SEC(".struct_ops")
struct io_coro_ops nop_chain_kind = { .step = (void *)nop_chain };
SEC(".struct_ops")
struct io_coro_ops fail_abort_kind = { .step = (void *)fail_abort };
SEC(".struct_ops")
struct io_coro_ops fan_kind = { .step = (void *)fan };
SEC(".struct_ops")
struct io_coro_ops ret_val_kind = { .step = (void *)ret_val };
