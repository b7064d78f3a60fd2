// SPDX-License-Identifier: GPL-2.0
/*
 * A step the verifier refuses (runtime_guest.c, case verifier_log;
 * calls.c, case calls_refused): it writes to its context, struct
 * io_coro_step, which steps may only read ("only read is supported").
 */
#include <iocoro/bpf.h>

IOCORO_STEP(bad_ctx)
{
	step->res = step->res + 1;
	return step->res;
}

SEC(".struct_ops")
struct io_coro_ops bad_ctx_kind = { .step = (void *)bad_ctx };

char LICENSE[] SEC("license") = "GPL";
