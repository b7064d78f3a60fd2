// SPDX-License-Identifier: GPL-2.0
/*
 * Programs whose verification cost cost.c bounds: what an app author
 * writes to post CQEs in a loop and count the results.
 *
 *   emit_counted   a plain loop of COST_UNROLLED CQEs that counts in a
 *                  local how many were posted and returns the count
 *   emit_bpf_loop  a bpf_loop() whose callback posts CQEs through the ctx
 *                  pointer kept in a stack struct, counts the results
 *                  there and returns how many were posted
 *   emit_unrolled  a plain loop of COST_UNROLLED CQEs with its counters in
 *                  a map value, ending in iocoro_next() to itself
 *
 * Each returns a value that comes out of its loop. A check of the return
 * value that marks R0 precise makes the verifier tell apart every count
 * at every iteration: emit_counted then has a state per count and
 * iteration and is refused after 1,000,001 instructions; without it,
 * 7,260.
 */
#include <iocoro/bpf.h>

#include "cost.h"

struct cost_counts {
	__u32 ok;
	__u32 err;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cost_counts);
} cost_counts SEC(".maps");

__u32 cost_nr;	/* CQEs emit_bpf_loop posts */

SEC("iouring")
int emit_counted(struct io_uring_step_ctx *ctx)
{
	__u32 ok = 0, i;

	for (i = 0; i < COST_UNROLLED; i++)
		if (!bpf_io_uring_emit_cqe(ctx, COST_UD + i, (__s32)i, 0))
			ok++;
	return ok;
}

struct emit_run {
	struct io_uring_step_ctx *ctx;
	__u32 ok;
	__u32 err;
};

static long emit_one(__u32 i, void *data)
{
	struct emit_run *r = data;

	if (bpf_io_uring_emit_cqe(r->ctx, COST_UD + i, (__s32)i, 0))
		r->err++;
	else
		r->ok++;
	return 0;
}

SEC("iouring")
int emit_bpf_loop(struct io_uring_step_ctx *ctx)
{
	struct emit_run r = { .ctx = ctx };

	bpf_loop(cost_nr, emit_one, &r, 0);
	return r.err ? -EIO : (int)r.ok;
}

SEC("iouring")
int emit_unrolled(struct io_uring_step_ctx *ctx)
{
	struct cost_counts *c;
	__u32 key = 0, i;

	c = bpf_map_lookup_elem(&cost_counts, &key);
	if (!c)
		return -ENOENT;
	for (i = 0; i < COST_UNROLLED; i++) {
		if (bpf_io_uring_emit_cqe(ctx, COST_UD + i, (__s32)i, 0))
			c->err++;
		else
			c->ok++;
	}
	return iocoro_next(ctx, iocoro_self(ctx));
}


char LICENSE[] SEC("license") = "GPL";
