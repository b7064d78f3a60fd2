// SPDX-License-Identifier: GPL-2.0
/*
 * The program of restart.c: emits a CQE with rs_emit_res, returns
 * rs_ret, and records the result it saw.
 */
#include <iocoro/bpf.h>

__s32 rs_ret;
__s32 rs_emit_res;
__s32 rs_prev_res;
long rs_emit_rc;

SEC("iouring")
int rs_return(struct io_uring_step_ctx *ctx)
{
	rs_prev_res = iocoro_ctx_prev_res(ctx);
	rs_emit_rc = bpf_io_uring_emit_cqe(ctx, 0x5e, rs_emit_res, 0);
	return rs_ret;
}

char LICENSE[] SEC("license") = "GPL";
