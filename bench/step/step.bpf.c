// SPDX-License-Identifier: GPL-2.0
/*
 * The coroutines of step_bench (step.h has the picture): "step", a chain
 * of N dependent NOP steps, each decided from the previous NOP's result,
 * and "wait_step", a coroutine that waits on a timeout, so that user space
 * can hold many of them in flight and measure what they cost the kernel.
 * Both are struct_ops steps of struct io_coro_ops, each with an
 * io_coro_ops map of its own; step_bench attaches them to its rings as
 * kinds (their index among the object's steps, iocoro_prog_index()).
 */
#include <iocoro/bpf.h>

#include "step.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, STEP_MAX_CHAINS);
	__type(key, __u32);
	__type(value, struct step_state);
} step_states SEC(".maps");

/*
 * One step: the same decision the user-space loop of step_bench makes
 * after each NOP (its result is 0 and its user_data is the NOP's), then
 * the next NOP, or the end of the coroutine after N of them.
 */
IOCORO_COROUTINE(step, &step_states, struct step_state)
{
	struct io_uring_sqe sqe;
	long ret;

	st->runs++;
	if (iocoro_ctx_has_prev(ctx)) {
		if (iocoro_ctx_prev_res(ctx) != 0 ||
		    iocoro_ctx_prev_user_data(ctx) !=
			    iocoro_ud(IOCORO_UD_STEP, iocoro_step_kind(ctx),
				      iocoro_id(ctx))) {
			st->bad++;
			st->bad_res = iocoro_ctx_prev_res(ctx);
			return iocoro_finish(ctx, -EPROTO);
		}
		st->nops++;
	} else if (st->runs != 1) {
		/* only the first run comes without a NOP before it */
		st->bad++;
		return iocoro_finish(ctx, -EPROTO);
	}

	if (st->nops >= st->steps)
		return iocoro_finish(ctx, (__s32)st->nops);

	io_uring_prep_nop(&sqe);
	ret = iocoro_await(ctx, &sqe);
	if (ret && !st->queue_err)
		st->queue_err = (__s32)ret;
	return (int)ret;
}

/* ------------------------------------------------------------ wait_step */

/* user-space address of the struct __kernel_timespec every timeout waits */
__u64 wt_ts;
/* what the runs saw (atomic: all coroutines share them) */
__u64 wt_runs;
__u64 wt_started;	/* first runs: the timeout is queued */
__u64 wt_fired;		/* second runs after the timeout fired (-ETIME) */
__u64 wt_canceled;	/* second runs after it was cancelled */
__u64 wt_other;		/* anything else */
__s32 wt_other_res;
__u64 wt_queue_err;
__s32 wt_queue_rc;

/* a raw step: `step` is its context (struct io_coro_step) */
IOCORO_STEP(wait_step)
{
	struct io_uring_sqe sqe;
	long ret;

	__sync_fetch_and_add(&wt_runs, 1);
	if (iocoro_ctx_has_prev(step)) {
		__s32 res = iocoro_ctx_prev_res(step);

		if (res == -ETIME)
			__sync_fetch_and_add(&wt_fired, 1);
		else if (res == -ECANCELED)
			__sync_fetch_and_add(&wt_canceled, 1);
		else {
			__sync_fetch_and_add(&wt_other, 1);
			wt_other_res = res;
		}
		return iocoro_finish(step, res);
	}

	/* a timer only (count 0); -ETIME is a success: no CQE, link goes on */
	io_uring_prep_timeout(&sqe, (struct __kernel_timespec *)wt_ts, 0,
			      IORING_TIMEOUT_ETIME_SUCCESS);
	ret = iocoro_await(step, &sqe);
	if (ret) {
		__sync_fetch_and_add(&wt_queue_err, 1);
		wt_queue_rc = (__s32)ret;
		return (int)ret;
	}
	__sync_fetch_and_add(&wt_started, 1);
	return 0;
}

/* the io_coro_ops map that makes libbpf load wait_step as a step */
SEC(".struct_ops")
struct io_coro_ops wait_step_kind = { .step = (void *)wait_step };

char LICENSE[] SEC("license") = "GPL";
