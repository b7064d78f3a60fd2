// SPDX-License-Identifier: GPL-2.0
/*
 * The program of scale.c: a coroutine that waits in a TIMEOUT of sc_ts
 * (an hour: it never fires in the test), carrying itself. Its first run
 * counts in sc_started; a later run, after the timeout ended, counts in
 * sc_ended and finishes with the timeout's result.
 */
#include <iocoro/bpf.h>

__u64 sc_ts;
__u64 sc_started;
__u64 sc_ended;
__u64 sc_queue_err;

SEC("iouring")
int scale_wait(struct io_uring_step_ctx *ctx)
{
	struct io_uring_sqe sqe;

	if (iocoro_ctx_has_prev(ctx)) {
		__sync_fetch_and_add(&sc_ended, 1);
		return iocoro_finish(ctx, iocoro_ctx_prev_res(ctx));
	}
	io_uring_prep_timeout(&sqe, (void *)sc_ts, 0, 0);
	if (iocoro_await(ctx, &sqe)) {
		__sync_fetch_and_add(&sc_queue_err, 1);
		return -EIO;
	}
	__sync_fetch_and_add(&sc_started, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
