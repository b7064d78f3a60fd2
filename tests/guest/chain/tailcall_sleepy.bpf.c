// SPDX-License-Identifier: GPL-2.0
/*
 * The step of tailcall.c's tailcall_sleepable_caller: a sleepable step
 * that tail-calls through ts_progs, which the verifier must refuse.
 */
#include <iocoro/bpf.h>

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} ts_progs SEC(".maps");

SEC(IOCORO_SEC_SLEEPABLE "ts_caller")
int ts_caller(unsigned long long *ctx)
{
	bpf_tail_call(ctx, &ts_progs, 0);
	return -ENOENT;
}

SEC(".struct_ops")
struct io_coro_ops ts_caller_kind = { .step = (void *)ts_caller };

char LICENSE[] SEC("license") = "GPL";
