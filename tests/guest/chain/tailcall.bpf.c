// SPDX-License-Identifier: GPL-2.0
/*
 * The steps of tailcall.c, struct io_coro_ops steps all three: one that
 * tail-calls through tc_progs, and two callees, one of them sleepable.
 */
#include <iocoro/bpf.h>

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} tc_progs SEC(".maps");

/*
 * tail-calls tc_progs[0]; -ENOENT when there is nothing to call. Written
 * out, not IOCORO_STEP(): bpf_tail_call() takes the program's own ctx.
 */
SEC(IOCORO_SEC "tc_caller")
int tc_caller(unsigned long long *ctx)
{
	bpf_tail_call(ctx, &tc_progs, 0);
	return -ENOENT;
}

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
struct io_coro_ops tc_caller_kind = { .step = (void *)tc_caller };
SEC(".struct_ops")
struct io_coro_ops tc_callee_kind = { .step = (void *)tc_callee };
SEC(".struct_ops")
struct io_coro_ops tc_callee_sleepable_kind = {
	.step = (void *)tc_callee_sleepable,
};

char LICENSE[] SEC("license") = "GPL";
