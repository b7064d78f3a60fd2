// SPDX-License-Identifier: GPL-2.0
/*
 * btree-lookup's coroutine: one B+tree lookup, root to leaf, each read
 * decided in the kernel from the node the read before brought in
 * (btree.h has the format and struct btree_slot):
 *
 *   start -> READ(root) -> step: copy in, judge -> READ(child) -> step ...
 *                                 leaf -> finish(FOUND / ABSENT)
 *
 * Sleepable (SEC("iouring.s")): the node lands in the lookup's user
 * buffer, and only a sleepable program may bpf_copy_from_user() it into
 * its scratch slot to search it.
 */
#include <iocoro/bpf.h>

#include "btree.h"

/* set by user space before loading */
const volatile __s32 btree_fd = -1;
const volatile __u64 btree_root;
const volatile __u32 btree_depth;
const volatile __u64 btree_size;	/* the file size the header implies */
const volatile __u64 btree_bufs;	/* user buffers, BTREE_NODE_SIZE each */

/* the lookups, indexed by coroutine id; user space maps them */
struct btree_slot btree_slots[BTREE_MAX_INFLIGHT];

/*
 * Where a step searches its node. One for all lookups: the steps of a
 * ring run one at a time, under its ->uring_lock, in the one task that
 * submits (btree-lookup has one ring), and no step keeps the node past
 * its run.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct btree_node);
} btree_nodes SEC(".maps");

/* bpf_loop()'s callback: entry @i of the node in btree_nodes */
static int scan_entry(__u32 i, void *data)
{
	struct btree_scan *sc = data;
	const struct btree_node *n;
	__u32 zero = 0;

	n = bpf_map_lookup_elem(&btree_nodes, &zero);
	if (!n)
		return 1;
	return btree_scan_entry(n, i, sc);
}

/* btree_step(), its scan in bpf_loop() */
static __always_inline int step(const struct btree_node *n, __u32 level,
				__u64 key, __u64 *out)
{
	struct btree_scan sc;

	if (btree_node_check(n, level, key, &sc))
		return BTREE_CORRUPT;
	bpf_loop(BTREE_SLOTS, scan_entry, &sc, 0);
	return btree_verdict(&sc, level, btree_size, out);
}

/* read the node at s->off into the lookup's buffer, then step again */
static __always_inline int read_node(struct io_uring_bpf_ctx *ctx,
				     struct btree_slot *s, __u32 id)
{
	struct io_uring_sqe sqe;
	__u64 buf = btree_bufs + (__u64)id * BTREE_NODE_SIZE;

	s->reads++;
	io_uring_prep_read(&sqe, btree_fd, (void *)buf, BTREE_NODE_SIZE,
			   s->off);
	return (int)iocoro_await(ctx, &sqe);
}

/* the read of s->off completed with @res: judge the node */
static __always_inline int judge(struct io_uring_bpf_ctx *ctx,
				 struct btree_slot *s, __u32 id, __s32 res)
{
	__u64 buf = btree_bufs + (__u64)id * BTREE_NODE_SIZE, out = 0;
	struct btree_node *n;
	__u32 zero = 0;
	int verdict;

	if (res < 0)
		return iocoro_finish(ctx, res);
	if (res != BTREE_NODE_SIZE)
		return iocoro_finish(ctx, -EIO);
	n = bpf_map_lookup_elem(&btree_nodes, &zero);
	if (!n)
		return iocoro_finish(ctx, -ENOENT);
	if (bpf_copy_from_user(n, sizeof(*n), (void *)buf))
		return iocoro_finish(ctx, -EFAULT);
	verdict = step(n, s->level, s->key, &out);
	switch (verdict) {
	case BTREE_FOUND:
		s->value = out;
		return iocoro_finish(ctx, BTREE_FOUND);
	case BTREE_ABSENT:
		return iocoro_finish(ctx, BTREE_ABSENT);
	case BTREE_DESCEND:
		/* btree_step() descends from level > 0 only: s->level falls */
		if (s->level == 0)
			break;
		s->level--;
		s->off = out;
		return read_node(ctx, s, id);
	}
	return iocoro_finish(ctx, -BTREE_ECORRUPT);
}

SEC("iouring.s")
int btree_lookup(struct io_uring_bpf_ctx *ctx)
{
	__u32 id = iocoro_id(ctx);
	struct btree_slot *s;

	if (id >= BTREE_MAX_INFLIGHT)
		return iocoro_finish(ctx, -ENOENT);
	/*
	 * clang turns the check into a test of the high bits, from which the
	 * verifier learns no bound: the mask (which clang may not drop past
	 * the barrier) gives it one
	 */
	barrier_var(id);
	s = &btree_slots[id & (BTREE_MAX_INFLIGHT - 1)];
	if (!iocoro_ctx_has_prev(ctx)) {
		/* the start, from user space: a fresh walk from the root */
		s->steps = 1;
		s->reads = 0;
		s->value = 0;
		s->off = btree_root;
		s->level = btree_depth - 1;
		if (btree_depth < 1 || btree_depth > BTREE_MAX_DEPTH)
			return iocoro_finish(ctx, -BTREE_ECORRUPT);
		return read_node(ctx, s, id);
	}
	s->steps++;
	return judge(ctx, s, id, iocoro_ctx_prev_res(ctx));
}

char LICENSE[] SEC("license") = "GPL";
