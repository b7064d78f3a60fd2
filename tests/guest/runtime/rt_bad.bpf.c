// SPDX-License-Identifier: GPL-2.0
/*
 * A program the verifier refuses (runtime_guest.c, case verifier_log):
 * it reads io_uring_step_ctx.resv, past the fields programs may read.
 */
#include <iocoro/bpf.h>

SEC("iouring")
int bad_ctx(struct io_uring_step_ctx *ctx)
{
	return (int)ctx->resv;
}

char LICENSE[] SEC("license") = "GPL";
