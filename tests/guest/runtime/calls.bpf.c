// SPDX-License-Identifier: GPL-2.0
/*
 * Coroutines of the guest tests of libiocoro's calls for many coroutines
 * (calls.c), with their states in a BPF_F_MMAPABLE array that user space
 * maps (iocoro_map_mmap()):
 *
 *   double_it  a NOP, then out = in * 2; ends with in + 1.
 *   ticker     each step queues an operation of its own that fails (a
 *              read of fd -1: a CQE user space consumes on its way), then
 *              waits in a TIMEOUT of st->ts, until that is cancelled: it
 *              ends with -ECANCELED then.
 *   sleeper    waits in a TIMEOUT of st->ts; ends with its result when it
 *              runs again (-ECANCELED when cancelled).
 */
#include <iocoro/bpf.h>

#include "calls.h"

IOCORO_STATES(cl_states, struct cl_state, CL_MAX_COROS);

IOCORO_COROUTINE(double_it, &cl_states, struct cl_state)
{
	struct io_uring_sqe sqe;

	st->runs++;
	if (st->step == CL_NOP) {
		io_uring_prep_nop(&sqe);
		return (int)iocoro_then(ctx, &sqe, &st->step, CL_DONE);
	}
	st->out = st->in * 2;
	return iocoro_finish(ctx, (int)st->in + 1);
}

IOCORO_COROUTINE(ticker, &cl_states, struct cl_state)
{
	struct io_uring_sqe sqe;

	st->runs++;
	if (iocoro_ctx_prev_res(ctx) == -ECANCELED)
		return iocoro_finish(ctx, -ECANCELED);
	io_uring_prep_read(&sqe, -1, 0, 0, 0);
	sqe.user_data = iocoro_ud(IOCORO_UD_OP, iocoro_step_kind(ctx),
				  iocoro_id(ctx));
	if (bpf_io_coro_queue_sqe(ctx, &sqe, sizeof(sqe)))
		return iocoro_finish(ctx, -EIO);
	io_uring_prep_timeout(&sqe, (void *)st->ts, 0, 0);
	return (int)iocoro_await(ctx, &sqe);
}

IOCORO_COROUTINE(sleeper, &cl_states, struct cl_state)
{
	struct io_uring_sqe sqe;

	st->runs++;
	if (iocoro_ctx_has_prev(ctx))
		return iocoro_finish(ctx, iocoro_ctx_prev_res(ctx));
	io_uring_prep_timeout(&sqe, (void *)st->ts, 0, 0);
	return (int)iocoro_await(ctx, &sqe);
}

char LICENSE[] SEC("license") = "GPL";
