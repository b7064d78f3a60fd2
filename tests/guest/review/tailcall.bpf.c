// SPDX-License-Identifier: GPL-2.0
/*
 * The programs of tailcall.c: a non-sleepable program that tail-calls
 * through tc_progs, and two callees, one of them loaded sleepable.
 */
#include <linux/bpf.h>
#include <linux/errno.h>
#include <linux/io_uring.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} tc_progs SEC(".maps");

/* tail-calls tc_progs[0]; -ENOENT when there is nothing to call */
SEC("iouring")
int tc_caller(void *ctx)
{
	bpf_tail_call(ctx, &tc_progs, 0);
	return -ENOENT;
}

/* a callee that may run where the caller runs */
SEC("iouring")
int tc_callee(void *ctx)
{
	(void)ctx;
	return 42;
}

__u64 tc_addr;
char tc_buf[8];

/* loaded sleepable (tailcall.c): copies 8 bytes at tc_addr */
SEC("iouring")
int tc_callee_sleepable(void *ctx)
{
	(void)ctx;
	return (int)bpf_copy_from_user(tc_buf, sizeof(tc_buf),
				       (void *)tc_addr);
}

char LICENSE[] SEC("license") = "GPL";
