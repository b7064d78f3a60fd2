// SPDX-License-Identifier: GPL-2.0
/* The program of emit_flags.c: emits one CQE with ef_flags */
#include <iocoro/bpf.h>

__u32 ef_flags;
long ef_rc;

SEC("iouring")
int ef_emit(struct io_uring_step_ctx *ctx)
{
	ef_rc = bpf_io_uring_emit_cqe(ctx, 0xef, 1, ef_flags);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
