// SPDX-License-Identifier: GPL-2.0
/*
 * btree-lookup's coroutine: one B+tree lookup, root to leaf, each read
 * decided in the kernel from the node the read before brought in
 * (btree.h has the format, the search and struct btree_slot):
 *
 *   start -> READ(root) -> step: search -> READ(child) -> step ...
 *                                 leaf -> finish(FOUND / ABSENT)
 *
 * Sleepable (SEC("iouring.s")): the node lands in the lookup's user
 * buffer, and only a sleepable program may bpf_copy_from_user() from it.
 * A step copies in what the search needs, not the 4 KiB node: its head
 * (16 bytes), the keys the binary search probes (8 bytes each, at most
 * BTREE_SEARCH_PROBES: 3 or 4 at fanout 8) and the one pointer it picks,
 * each to the stack.
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

/* the search of the node in the user buffer at buf, for bpf_loop() */
struct search_ctx {
	struct btree_search s;
	__u64 buf;
	int err;		/* -EFAULT: a key could not be copied in */
};

/* bpf_loop()'s callback: one probe of the binary search */
static int search_probe(__u32 probe, void *data)
{
	struct search_ctx *c = data;
	__u64 k;
	__u32 i;

	(void)probe;
	if (btree_search_next(&c->s, &i))
		return 1;
	if (bpf_copy_from_user(&k, sizeof(k), (void *)(c->buf +
			__builtin_offsetof(struct btree_node, keys) +
			(__u64)i * sizeof(k)))) {
		c->err = -EFAULT;
		return 1;
	}
	btree_search_key(&c->s, i, k);
	return 0;
}

/*
 * btree_step() on the node in the user buffer at @buf, its probes in
 * bpf_loop(), whose callback the verifier checks once: enum
 * btree_verdict, or -EFAULT when the buffer cannot be read
 */
static __always_inline int step(__u64 buf, __u32 level, __u64 key,
				__u64 *out)
{
	struct search_ctx c = { .buf = buf };
	struct btree_node_head head;
	__u64 ptr = 0;

	if (bpf_copy_from_user(&head, sizeof(head), (void *)buf))
		return -EFAULT;
	if (btree_node_check(&head, level, key, &c.s))
		return BTREE_CORRUPT;
	bpf_loop(BTREE_SEARCH_PROBES, search_probe, &c, 0);
	if (c.err)
		return c.err;
	if (btree_search_wants_ptr(&c.s, level) &&
	    bpf_copy_from_user(&ptr, sizeof(ptr), (void *)(buf +
			__builtin_offsetof(struct btree_node, ptrs) +
			(__u64)c.s.last * sizeof(ptr))))
		return -EFAULT;
	return btree_verdict(&c.s, level, ptr, btree_size, out);
}

/* read the node at s->off into the lookup's buffer, then step again */
static __always_inline int read_node(struct io_uring_step_ctx *ctx,
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
static __always_inline int judge(struct io_uring_step_ctx *ctx,
				 struct btree_slot *s, __u32 id, __s32 res)
{
	__u64 buf = btree_bufs + (__u64)id * BTREE_NODE_SIZE, out = 0;
	int verdict;

	if (res < 0)
		return iocoro_finish(ctx, res);
	if (res != BTREE_NODE_SIZE)
		return iocoro_finish(ctx, -EIO);
	verdict = step(buf, s->level, s->key, &out);
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
	case -EFAULT:
		return iocoro_finish(ctx, -EFAULT);
	}
	return iocoro_finish(ctx, -BTREE_ECORRUPT);
}

SEC("iouring.s")
int btree_lookup(struct io_uring_step_ctx *ctx)
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
