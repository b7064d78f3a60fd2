// SPDX-License-Identifier: GPL-2.0
/*
 * The step of restart.c: posts a CQE with rs_emit_res and returns
 * rs_ret.
 */
#include <iocoro/bpf.h>

__s32 rs_ret;
__s32 rs_emit_res;
int rs_emit_rc;

IOCORO_STEP(rs_return)
{
	rs_emit_rc = bpf_io_coro_emit_cqe(step, 0x5e, rs_emit_res, 0);
	return rs_ret;
}

SEC(".struct_ops")
struct io_coro_ops rs_return_kind = { .step = (void *)rs_return };

char LICENSE[] SEC("license") = "GPL";
