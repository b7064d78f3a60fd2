// SPDX-License-Identifier: GPL-2.0
/*
 * The steps of tailcall.c, struct io_coro_ops steps all three: one that
 * tail-calls through tc_progs, and two callees, one of them sleepable.
 */
#include "tailcall_progs.h"

/* tail-calls tc_progs[0] */
TAIL_CALLER(IOCORO_SEC, tc_caller, tc_progs);

/* a callee that may run where the caller runs: its step's kind + 42 */
IOCORO_STEP(tc_callee)
{
	return (int)step->kind + 42;
}

__u64 tc_addr;
char tc_buf[8];

/* sleepable: copies 8 bytes at tc_addr */
IOCORO_STEP_SLEEPABLE(tc_callee_sleepable)
{
	(void)step;
	return (int)bpf_copy_from_user(tc_buf, sizeof(tc_buf),
				       (void *)tc_addr);
}

SEC(".struct_ops")
struct io_coro_ops tc_callee_kind = { .step = (void *)tc_callee };
SEC(".struct_ops")
struct io_coro_ops tc_callee_sleepable_kind = {
	.step = (void *)tc_callee_sleepable,
};

char LICENSE[] SEC("license") = "GPL";
