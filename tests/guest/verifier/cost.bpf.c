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
 *                  a map value, ending in iocoro_jump() to itself
 *
 * Each is a struct io_coro_ops step that posts with the
 * bpf_io_coro_emit_cqe() kfunc and returns a value that comes out of its
 * loop; each has an io_coro_ops map of its own (cost_kinds below).
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

IOCORO_STEP(emit_counted)
{
	__u32 ok = 0, i;

	for (i = 0; i < COST_UNROLLED; i++)
		if (!bpf_io_coro_emit_cqe(step, COST_UD + i, (__s32)i, 0))
			ok++;
	return ok;
}

struct emit_run {
	struct io_coro_step *step;
	__u32 ok;
	__u32 err;
};

static long emit_one(__u32 i, void *data)
{
	struct emit_run *r = data;

	if (bpf_io_coro_emit_cqe(r->step, COST_UD + i, (__s32)i, 0))
		r->err++;
	else
		r->ok++;
	return 0;
}

IOCORO_STEP(emit_bpf_loop)
{
	struct emit_run r = { .step = step };

	bpf_loop(cost_nr, emit_one, &r, 0);
	return r.err ? -EIO : (int)r.ok;
}

IOCORO_STEP(emit_unrolled)
{
	struct cost_counts *c;
	__u32 key = 0, i;

	c = bpf_map_lookup_elem(&cost_counts, &key);
	if (!c)
		return -ENOENT;
	for (i = 0; i < COST_UNROLLED; i++) {
		if (bpf_io_coro_emit_cqe(step, COST_UD + i, (__s32)i, 0))
			c->err++;
		else
			c->ok++;
	}
	return iocoro_jump(step, iocoro_step_kind(step));
}

/* in the programs' order: kinds 0, 1, 2 (enum cost_prog of cost.c) */
SEC(".struct_ops") struct io_coro_ops counted_kind = {
	.step = (void *)emit_counted,
};
SEC(".struct_ops") struct io_coro_ops bpf_loop_kind = {
	.step = (void *)emit_bpf_loop,
};
SEC(".struct_ops") struct io_coro_ops unrolled_kind = {
	.step = (void *)emit_unrolled,
};

char LICENSE[] SEC("license") = "GPL";
