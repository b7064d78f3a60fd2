// SPDX-License-Identifier: GPL-2.0
/* The step of emit_flags.c: posts one CQE with ef_flags */
#include <iocoro/bpf.h>

__u32 ef_flags;
int ef_rc;

IOCORO_STEP(ef_emit)
{
	ef_rc = bpf_io_coro_emit_cqe(step, 0xef, 1, ef_flags);
	return 0;
}

SEC(".struct_ops")
struct io_coro_ops ef_emit_kind = { .step = (void *)ef_emit };

char LICENSE[] SEC("license") = "GPL";
