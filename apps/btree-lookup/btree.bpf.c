// SPDX-License-Identifier: GPL-2.0
/*
 * btree-lookup's coroutine: one B+tree lookup, root to leaf, each read
 * decided in the kernel from the node the read before brought in
 * (btree.h has the format, the search and struct btree_slot):
 *
 *   READ_FIXED(root) -> step: search -> READ_FIXED(child) -> step ...
 *                               leaf -> finish(FOUND / ABSENT)
 *
 * User space submits the root's read itself, carrying the step
 * (iocoro_sqe_set_first(): the coroutine of kind 0, the kernel's default
 * budget, far more than a walk's BTREE_MAX_DEPTH reads), with the slot
 * set for the walk (key, off = root, level = depth - 1, reads = 1).
 *
 * A step (IOCORO_COROUTINE_AT(), a struct_ops program of struct
 * io_coro_ops attached to the ring as a kind, its state the lookup's slot
 * in .bss) that does not sleep: the node lands in
 * the lookup's 4 KiB of the registered buffer BTREE_BUF_INDEX, and the
 * step reads it there in place through bpf_io_coro_buf(), a read-only
 * view of those bytes: the head, the keys the binary search probes (at
 * most BTREE_SEARCH_PROBES: 3 or 4 at fanout 8) and the one pointer it
 * picks, nothing copied.
 */
#include <iocoro/bpf.h>

#include "btree.h"

/* set by user space before loading */
const volatile __s32 btree_fd = -1;
const volatile __u64 btree_size;	/* the file size the header implies */
/* registered buffer BTREE_BUF_INDEX: BTREE_NODE_SIZE per lookup */
const volatile __u64 btree_bufs;

/* the lookups, indexed by coroutine id; user space maps them */
struct btree_slot btree_slots[BTREE_MAX_INFLIGHT];

/* the search of node n (a view of the registered buffer), for bpf_loop() */
struct search_ctx {
	struct btree_search s;
	const struct btree_node *n;
};

/* bpf_loop()'s callback: one probe of the binary search */
static int search_probe(__u32 probe, void *data)
{
	struct search_ctx *c = data;
	__u32 i;

	(void)probe;
	if (btree_search_next(&c->s, &i))
		return 1;
	/* never: i < nkeys <= BTREE_SLOTS; the verifier's bound */
	if (i >= BTREE_SLOTS)
		return 1;
	btree_search_key(&c->s, i, c->n->keys[i]);
	return 0;
}

/*
 * btree_step() on node @n, read in place, its probes in bpf_loop(), whose
 * callback the verifier checks once: enum btree_verdict
 */
static __always_inline int node_step(const struct btree_node *n,
				     __u32 level, __u64 key, __u64 *out)
{
	struct search_ctx c = { .n = n };
	__u64 ptr = 0;

	if (btree_node_check((const struct btree_node_head *)n, level, key,
			     &c.s))
		return BTREE_CORRUPT;
	bpf_loop(BTREE_SEARCH_PROBES, search_probe, &c, 0);
	if (btree_search_wants_ptr(&c.s, level)) {
		/* never: last < nkeys; the verifier's bound */
		if (c.s.last >= BTREE_SLOTS)
			return BTREE_CORRUPT;
		ptr = n->ptrs[c.s.last];
	}
	return btree_verdict(&c.s, level, ptr, btree_size, out);
}

/*
 * read the node at s->off into the lookup's part of the registered
 * buffer, then step again
 */
static __always_inline int read_node(iocoro_ctx_t *ctx,
				     struct btree_slot *s, __u32 id)
{
	struct io_uring_sqe sqe;
	__u64 buf = btree_bufs + (__u64)id * BTREE_NODE_SIZE;

	s->reads++;
	io_uring_prep_read_fixed(&sqe, btree_fd, (void *)buf, BTREE_NODE_SIZE,
				 s->off, BTREE_BUF_INDEX);
	return (int)iocoro_await(ctx, &sqe);
}

/* the read of s->off completed with @res: judge the node */
static __always_inline int judge(iocoro_ctx_t *ctx,
				 struct btree_slot *s, __u32 id, __s32 res)
{
	const struct btree_node *n;
	__u64 out = 0;
	int verdict;

	if (res < 0)
		return iocoro_finish(ctx, res);
	if (res != BTREE_NODE_SIZE)
		return iocoro_finish(ctx, -EIO);
	/* NULL: no buffer registered for lookup id */
	n = (const struct btree_node *)bpf_io_coro_buf(ctx, BTREE_BUF_INDEX,
			(__u64)id * BTREE_NODE_SIZE, BTREE_NODE_SIZE);
	if (!n)
		return iocoro_finish(ctx, -EFAULT);
	verdict = node_step(n, s->level, s->key, &out);
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

/*
 * A lookup's state: its slot, at its id; NULL for an id out of the
 * slots. clang turns the check into a test of the high bits, from which
 * the verifier learns no bound: the mask (which clang may not drop past
 * the barrier) gives it one.
 */
static __always_inline struct btree_slot *slot_of(iocoro_ctx_t *ctx)
{
	__u32 id = iocoro_id(ctx);

	if (id >= BTREE_MAX_INFLIGHT)
		return NULL;
	barrier_var(id);
	return &btree_slots[id & (BTREE_MAX_INFLIGHT - 1)];
}

IOCORO_COROUTINE_AT(btree_lookup, struct btree_slot, slot_of(ctx))
{
	/* every step judges a read: an IORING_OP_BPF start has none */
	if (!iocoro_ctx_has_prev(ctx))
		return iocoro_finish(ctx, -EINVAL);
	st->steps++;
	return judge(ctx, st, iocoro_id(ctx), iocoro_ctx_prev_res(ctx));
}

char LICENSE[] SEC("license") = "GPL";
