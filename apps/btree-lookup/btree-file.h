/* SPDX-License-Identifier: MIT */
/*
 * btree-lookup's user-space half of the format (btree.h): building a tree
 * file, checking its header, and walking it in user space (the peers of
 * bench/btree/uring_btree.c, --pread and --uring, judge each node exactly
 * as the coroutine does, with btree_step()). Functions return 0 or -errno and never set errno.
 */
#ifndef BTREE_FILE_H
#define BTREE_FILE_H

#include <stdint.h>

#include "btree.h"

/* a tree file opened for lookups */
struct btree_file {
	int fd;
	struct btree_header h;
	uint64_t size;		/* what the header implies: btree_file_size() */
};

/* the outcome of one lookup */
struct btree_result {
	uint64_t key;
	uint64_t value;		/* res == BTREE_FOUND */
	uint64_t off;		/* the node judged last (the corrupt one) */
	int res;		/* BTREE_FOUND, BTREE_ABSENT or -errno */
};

/* a lookup in user space: where its walk is */
struct btree_walk {
	uint64_t off;		/* the node to read next */
	uint32_t level;		/* its expected level */
	uint32_t reads;
};

/*
 * Levels of a tree of @nkeys keys with @fanout (BTREE_MIN_FANOUT ..
 * BTREE_MAX_FANOUT); *@nnodes its node count. Every level's nodes share
 * its entries evenly (the last one is never a stub).
 */
uint32_t btree_shape(uint64_t nkeys, uint32_t fanout, uint64_t *nnodes);

/*
 * Write the tree of keys btree_key(@seed, 0 .. @nkeys - 1) with @fanout
 * to @fd (at offset 0, which must be an empty regular file), the header
 * last. *@h gets the header. -EINVAL (fanout out of range), -E2BIG (more
 * than BTREE_MAX_DEPTH levels), -ENOMEM, or the write's -errno (-EIO for
 * a write that wrote nothing).
 */
int btree_build(int fd, uint64_t nkeys, uint32_t fanout, uint64_t seed,
		struct btree_header *h);

/* why btree_header_check() refused a header */
enum btree_header_error {
	BTREE_HDR_OK,
	BTREE_HDR_MAGIC,	/* not a btree file */
	BTREE_HDR_VERSION,	/* another version or node size */
	BTREE_HDR_CORRUPT,	/* depth, root or node count impossible */
	BTREE_HDR_TRUNCATED,	/* the file is shorter than the header says */
};

/*
 * Check header @h (@got bytes of it read) of a file of @st_size bytes:
 * enum btree_header_error.
 */
int btree_header_check(const struct btree_header *h, long got,
		       uint64_t st_size);

/*
 * Open @path and check its header: 0, -errno of open/fstat/pread, or
 * -EUCLEAN with *@why (enum btree_header_error) set.
 */
int btree_open(const char *path, struct btree_file *f, int *why);

/*
 * Read @f's nodes with O_DIRECT from now on (@f opened from @path): 0, or
 * -errno of open (-EINVAL: the file system has no O_DIRECT). Nodes are
 * BTREE_NODE_SIZE at multiples of it, so a page-aligned buffer will do.
 */
int btree_reopen_direct(const char *path, struct btree_file *f);
void btree_close(struct btree_file *f);

/* start @w at the root of @f */
void btree_walk_start(const struct btree_file *f, struct btree_walk *w);

/*
 * The read of w->off into @n completed with @res: 0 when the walk goes
 * on (w->off: the next node to read), 1 when it ended (r->res set:
 * BTREE_FOUND with r->value, BTREE_ABSENT, -BTREE_ECORRUPT, -EIO for a
 * short read, or the read's error). r->key must be set; r->off is the
 * node judged. What the coroutine's steps decide, step for step.
 */
int btree_walk_judge(const struct btree_file *f, struct btree_walk *w,
		     const struct btree_node *n, int res,
		     struct btree_result *r);

/* look r->key up with pread(); *@reads counts the reads */
void btree_pread_lookup(const struct btree_file *f, struct btree_node *n,
			struct btree_result *r, uint64_t *reads);

#endif /* BTREE_FILE_H */
