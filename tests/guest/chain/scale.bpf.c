// SPDX-License-Identifier: GPL-2.0
/*
 * The step of scale.c: a coroutine that waits in a TIMEOUT of sc_ts (an
 * hour: it never fires in the test) continuing at its own kind. Its
 * first run counts in sc_started; a later run, after the timeout ended,
 * counts in sc_ended and finishes with the timeout's result.
 */
#include <iocoro/bpf.h>

char LICENSE[] SEC("license") = "GPL";

__u64 sc_ts;
__u64 sc_started;
__u64 sc_ended;
__u64 sc_queue_err;

IOCORO_STEP(scale_wait)
{
	struct io_uring_sqe sqe;

	if (iocoro_ctx_has_prev(step)) {
		__sync_fetch_and_add(&sc_ended, 1);
		return iocoro_finish(step, iocoro_ctx_prev_res(step));
	}
	io_uring_prep_timeout(&sqe, (void *)sc_ts, 0, 0);
	if (iocoro_await(step, &sqe)) {
		__sync_fetch_and_add(&sc_queue_err, 1);
		return -EIO;
	}
	__sync_fetch_and_add(&sc_started, 1);
	return 0;
}

SEC(".struct_ops")
struct io_coro_ops scale_wait_kind = { .step = (void *)scale_wait };
