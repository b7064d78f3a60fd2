/* SPDX-License-Identifier: MIT */
/*
 * btree-lookup: the on-disk B+tree format, and the one search routine that
 * the coroutine (btree.bpf.c) and user space (btree-file.c's walks, which
 * the benchmark peer uring_btree runs) share.
 *
 * A tree file is a run of 4 KiB nodes. Node 0 is the header; the others
 * are tree nodes, addressed by byte offset (a multiple of 4096):
 *
 *   offset 0      struct btree_header: magic, root offset, depth, ...
 *   offset 4096   the leaves, left to right, then each inner level
 *   ...           above them; the root is the last node
 *
 * Every tree node is a struct btree_node: nkeys sorted keys, each with a
 * pointer. In a leaf (level 0) ptrs[i] is the value of keys[i]. In an
 * inner node (level > 0) there are nkeys children: ptrs[i] is the offset
 * of child i and keys[i] the smallest key under it; child i holds the
 * keys k with keys[i] <= k < keys[i + 1] (child 0 also those below).
 *
 * A lookup reads the root, judges it with btree_step(), reads the child it
 * names, ... down to the leaf: each read depends on the data of the one
 * before. Every node carries its level, which must be the one the walk
 * expects (the root: depth - 1, then one less per step), so a cycle or a
 * pointer to another level is a corrupt node, and a walk takes at most
 * depth reads, never more than BTREE_MAX_DEPTH.
 *
 * The keys of a tree built with seed S are btree_key(S, i) for i < nkeys
 * (distinct: btree_mix() is a bijection), sorted; btree_key(S, i) for
 * i >= nkeys is never in it. The value of key k is btree_value(k).
 */
#ifndef BTREE_H
#define BTREE_H

#include <linux/types.h>

#define BTREE_NODE_SIZE		4096U
#define BTREE_MAGIC		0x4545525442434f49ULL	/* "IOCBTREE" */
#define BTREE_NODE_MAGIC	0x45444f4eU		/* "NODE" */
#define BTREE_VERSION		1
/* keys (and pointers) in a node: 16 + 255 * 16 = 4096 bytes */
#define BTREE_SLOTS		255U
/* children of an inner node, keys of a leaf */
#define BTREE_MIN_FANOUT	2U
#define BTREE_MAX_FANOUT	BTREE_SLOTS
#define BTREE_DEFAULT_FANOUT	BTREE_SLOTS
#define BTREE_MAX_DEPTH		16U

/* lookups in flight at once (--inflight), at most (2^n) */
#define BTREE_MAX_INFLIGHT	1024U

/*
 * The coroutine's node buffers: registered buffer BTREE_BUF_INDEX of its
 * ring (io_uring_register_buffers()), BTREE_NODE_SIZE bytes per lookup
 * in flight, page-aligned: lookup id's node at id * BTREE_NODE_SIZE
 */
#define BTREE_BUF_INDEX		0

struct btree_header {
	__u64 magic;		/* BTREE_MAGIC */
	__u32 version;		/* BTREE_VERSION */
	__u32 node_size;	/* BTREE_NODE_SIZE */
	__u64 root;		/* byte offset of the root node */
	__u32 depth;		/* levels: 1 when the root is a leaf */
	__u32 fanout;		/* children of an inner node, keys of a leaf */
	__u64 nkeys;
	__u64 nnodes;		/* tree nodes: the file is nnodes + 1 nodes */
	__u64 seed;		/* of the keys: btree_key(seed, i) */
};

struct btree_node {
	__u32 magic;		/* BTREE_NODE_MAGIC */
	__u16 level;		/* 0: a leaf */
	__u16 nkeys;		/* leaf: 0..255; inner (children): 1..255 */
	__u64 reserved;
	__u64 keys[BTREE_SLOTS];
	__u64 ptrs[BTREE_SLOTS];	/* leaf: values; inner: child offsets */
};

_Static_assert(sizeof(struct btree_node) == BTREE_NODE_SIZE,
	       "a node is one 4 KiB block");
_Static_assert(sizeof(struct btree_header) <= BTREE_NODE_SIZE,
	       "the header fits in node 0");

/* what btree_step() makes of a node */
enum btree_verdict {
	BTREE_ABSENT	= 0,	/* a leaf without the key */
	BTREE_FOUND	= 1,	/* a leaf with it: *out is the value */
	BTREE_DESCEND	= 2,	/* an inner node: read the child at *out */
	BTREE_CORRUPT	= 3,	/* not the node the walk expects */
};

/* a lookup that met a corrupt node ends with this (the CQE's res) */
#define BTREE_ECORRUPT	117	/* EUCLEAN, "Structure needs cleaning" */

/* the size of a file that holds @nnodes tree nodes and the header */
static inline __u64 btree_file_size(__u64 nnodes)
{
	return (nnodes + 1) * BTREE_NODE_SIZE;
}

/* a bijection of 64-bit words (splitmix64's finaliser) */
static inline __u64 btree_mix(__u64 x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* key number @i of the trees built with @seed */
static inline __u64 btree_key(__u64 seed, __u64 i)
{
	return btree_mix(seed * 0x9e3779b97f4a7c15ULL + i);
}

/* the value stored with @key */
static inline __u64 btree_value(__u64 key)
{
	return btree_mix(key ^ 0x5bd1e9955bd1e995ULL);
}

/* is @off the offset of a tree node of a file of @file_size bytes? */
static inline int btree_node_offset_ok(__u64 off, __u64 file_size)
{
	return off >= BTREE_NODE_SIZE && !(off & (BTREE_NODE_SIZE - 1)) &&
	       off <= file_size - BTREE_NODE_SIZE;
}

/*
 * A node's first 16 bytes, all that btree_node_check() looks at: what the
 * coroutine reads of the node before it searches it (btree.bpf.c)
 */
struct btree_node_head {
	__u32 magic;
	__u16 level;
	__u16 nkeys;
	__u64 reserved;
};

_Static_assert(sizeof(struct btree_node_head) ==
		       __builtin_offsetof(struct btree_node, keys) &&
	       __builtin_offsetof(struct btree_node_head, level) ==
		       __builtin_offsetof(struct btree_node, level) &&
	       __builtin_offsetof(struct btree_node_head, nkeys) ==
		       __builtin_offsetof(struct btree_node, nkeys),
	       "struct btree_node_head is the start of struct btree_node");

/*
 * The search in a node: a binary search for the last entry whose key is
 * <= the key looked up, in a leaf and in an inner node alike (a key below
 * them all goes to child 0). In three shared pieces: btree_node_check(),
 * then btree_search_next() and btree_search_key() per probe, at most
 * BTREE_SEARCH_PROBES of them, then btree_verdict() with the pointer of
 * the entry found. btree_step() does it all on a node in memory; the
 * coroutine runs the probes with bpf_loop(), whose callback the verifier
 * checks once for any index, and reads only the head, the keys it probes
 * and the one pointer it needs. (An open-coded binary search cost
 * the verifier 136k instructions, seconds of load on the debug kernel: its
 * indices stay precise, so no states merge.)
 *
 * Keys out of order are not detected: the search then picks some entry,
 * the same one in the coroutine and in user space.
 */
struct btree_search {
	__u64 key;		/* looked up */
	__u32 lo;		/* entries lo..hi - 1 are still to search */
	__u32 hi;
	__u32 last;		/* the last entry with keys[] <= key (0: none) */
	__u32 pad;
	__u64 last_key;		/* its key (~key: none yet) */
};

/* probes a search takes at most: 2^8 > 255 entries */
#define BTREE_SEARCH_PROBES	8U

_Static_assert((1U << BTREE_SEARCH_PROBES) > BTREE_SLOTS,
	       "a search of BTREE_SLOTS entries ends within its probes");

/*
 * 0 if node @n (its head) is one the walk may find at level @level
 * (magic, level, 1..255 entries, or 0..255 in a leaf), *@s set up for
 * the search of @key; BTREE_CORRUPT if not
 */
static inline int btree_node_check(const struct btree_node_head *n,
				   __u32 level, __u64 key,
				   struct btree_search *s)
{
	if (n->magic != BTREE_NODE_MAGIC || n->level != level ||
	    n->nkeys > BTREE_SLOTS || (level && !n->nkeys))
		return BTREE_CORRUPT;
	s->key = key;
	s->lo = 0;
	s->hi = n->nkeys;
	s->last = 0;
	s->pad = 0;
	s->last_key = ~key;
	return 0;
}

/* 0 and *@i the entry whose key to probe next; 1 when the search is over */
static inline int btree_search_next(const struct btree_search *s, __u32 *i)
{
	if (s->lo >= s->hi)
		return 1;
	*i = s->lo + (s->hi - s->lo) / 2;
	return 0;
}

/* the probe of entry @i (from btree_search_next()): its key is @k */
static inline void btree_search_key(struct btree_search *s, __u32 i, __u64 k)
{
	if (k <= s->key) {
		s->last = i;
		s->last_key = k;
		s->lo = i + 1;
	} else {
		s->hi = i;
	}
}

/*
 * After the search: does btree_verdict() need ptrs[s->last]? Not for a
 * leaf without the key (BTREE_ABSENT)
 */
static inline int btree_search_wants_ptr(const struct btree_search *s,
					 __u32 level)
{
	return level || s->last_key == s->key;
}

/*
 * The search's verdict (enum btree_verdict), @ptr the pointer of the
 * entry found (ptrs[s->last], if btree_search_wants_ptr()), *@out the
 * value (BTREE_FOUND) or the child's offset (BTREE_DESCEND): a child
 * outside the file of @file_size bytes, in the header or not aligned is
 * BTREE_CORRUPT. BTREE_DESCEND only comes from level > 0.
 */
static inline int btree_verdict(const struct btree_search *s, __u32 level,
				__u64 ptr, __u64 file_size, __u64 *out)
{
	if (level == 0) {
		if (s->last_key != s->key)
			return BTREE_ABSENT;
		*out = ptr;
		return BTREE_FOUND;
	}
	if (!btree_node_offset_ok(ptr, file_size))
		return BTREE_CORRUPT;
	*out = ptr;
	return BTREE_DESCEND;
}

/*
 * Judge node @n, which the walk expects at level @level, for @key in a
 * file of @file_size bytes: enum btree_verdict, and *@out the value
 * (BTREE_FOUND) or the child's offset (BTREE_DESCEND). A node with another
 * magic or level, no or too many entries, or a child outside the file is
 * BTREE_CORRUPT.
 */
static inline int btree_step(const struct btree_node *n, __u32 level,
			     __u64 key, __u64 file_size, __u64 *out)
{
	const struct btree_node_head head = {
		.magic = n->magic, .level = n->level, .nkeys = n->nkeys,
	};
	struct btree_search s;
	__u32 p, i;

	if (btree_node_check(&head, level, key, &s))
		return BTREE_CORRUPT;
	for (p = 0; p < BTREE_SEARCH_PROBES; p++) {
		if (btree_search_next(&s, &i))
			break;
		btree_search_key(&s, i, n->keys[i]);
	}
	return btree_verdict(&s, level, n->ptrs[s.last], file_size, out);
}

/*
 * One lookup of the coroutine (btree.bpf.c): slot id of the global array
 * btree_slots[], which user space maps (the skeleton's .bss). User space
 * sets the slot for a walk from the root (key, off, level, reads) and
 * submits the root's read into the slot's node buffer (a READ_FIXED into
 * BTREE_BUF_INDEX) carrying the coroutine's first step; each step, run
 * at a read's completion, searches the node there (the pieces of
 * btree_step(), reading in place through bpf_io_coro_buf() the head, the
 * keys probed and the pointer found) and reads the child, until the
 * leaf. Its end's res:
 * BTREE_FOUND (value set), BTREE_ABSENT, -BTREE_ECORRUPT (off: the
 * corrupt node), -EIO (a short read), -EFAULT (no node buffer registered
 * for the slot) or the read's -errno.
 */
struct btree_slot {
	__u64 key;		/* in */
	__u64 value;		/* out, when found */
	__u64 off;		/* the node read last */
	__u32 level;		/* its level */
	__u32 reads;		/* out: nodes read */
	__u32 steps;		/* out: program runs */
	__u32 pad;
};

#endif /* BTREE_H */
