// SPDX-License-Identifier: GPL-2.0
/*
 * Toolchain smoke test for iocoro_bpf_skeleton(): a stock program type, so
 * it builds against any kernel headers. Opened (not loaded) by
 * bpf_skeleton_test.c.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* read-only data and a map, so the skeleton has both */
const volatile __u32 smoke_verdict = 0;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} smoke_count SEC(".maps");

SEC("socket")
int smoke_prog(struct __sk_buff *skb)
{
	__u32 key = 0;
	__u64 *n = bpf_map_lookup_elem(&smoke_count, &key);

	(void)skb;
	if (n)
		__sync_fetch_and_add(n, 1);
	return smoke_verdict;
}

char LICENSE[] SEC("license") = "GPL";
