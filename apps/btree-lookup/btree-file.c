// SPDX-License-Identifier: MIT
/*
 * Building, opening and walking btree-lookup's tree files (btree.h,
 * btree-file.h).
 */
#define _GNU_SOURCE /* O_DIRECT */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "btree-file.h"

/* nodes of a level of @n entries, none of them with more than @fanout */
static uint64_t level_nodes(uint64_t n, uint32_t fanout)
{
	return n ? (n + fanout - 1) / fanout : 1;
}

uint32_t btree_shape(uint64_t nkeys, uint32_t fanout, uint64_t *nnodes)
{
	uint64_t n = level_nodes(nkeys, fanout), total = n;
	uint32_t depth = 1;

	while (n > 1) {
		n = level_nodes(n, fanout);
		total += n;
		depth++;
	}
	*nnodes = total;
	return depth;
}

static int write_block(int fd, const void *buf, uint64_t off)
{
	size_t done = 0;
	ssize_t n;

	while (done < BTREE_NODE_SIZE) {
		n = pwrite(fd, (const char *)buf + done,
			   BTREE_NODE_SIZE - done, (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		done += (size_t)n;
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * One level, bottom up: @n entries (keys with their values for the
 * leaves; the nodes of the level below, by smallest key and offset,
 * above) spread evenly over level_nodes(n) nodes written from *@off on.
 * minkey[] and offs[] are rewritten in place with the new level's nodes;
 * returns their count or -errno.
 */
static int64_t build_level(int fd, uint32_t level, uint64_t n,
			   uint32_t fanout, uint64_t *minkey, uint64_t *offs,
			   uint64_t *off)
{
	uint64_t count = level_nodes(n, fanout), j, i;
	struct btree_node node;
	int ret;

	for (j = 0; j < count; j++) {
		uint64_t lo = j * n / count, hi = (j + 1) * n / count;

		memset(&node, 0, sizeof(node));
		node.magic = BTREE_NODE_MAGIC;
		node.level = (uint16_t)level;
		for (i = lo; i < hi; i++) {
			node.keys[i - lo] = minkey[i];
			node.ptrs[i - lo] = level ? offs[i]
					   : btree_value(minkey[i]);
		}
		node.nkeys = (uint16_t)(hi - lo);
		ret = write_block(fd, &node, *off);
		if (ret < 0)
			return ret;
		/* j <= lo: entry j is no longer needed when node j is done */
		minkey[j] = hi > lo ? minkey[lo] : 0;
		offs[j] = *off;
		*off += BTREE_NODE_SIZE;
	}
	return (int64_t)count;
}

int btree_build(int fd, uint64_t nkeys, uint32_t fanout, uint64_t seed,
		struct btree_header *h)
{
	static char block[BTREE_NODE_SIZE];
	uint64_t *keys = NULL, *offs = NULL, off = BTREE_NODE_SIZE, n, i, nn;
	uint32_t depth, level;
	int64_t got;
	int ret;

	if (fanout < BTREE_MIN_FANOUT || fanout > BTREE_MAX_FANOUT)
		return -EINVAL;
	memset(h, 0, sizeof(*h));
	depth = btree_shape(nkeys, fanout, &nn);
	h->nnodes = nn;
	if (depth > BTREE_MAX_DEPTH)
		return -E2BIG;
	keys = malloc((nkeys ? nkeys : 1) * sizeof(*keys));
	offs = calloc(level_nodes(nkeys, fanout), sizeof(*offs));
	ret = -ENOMEM;
	if (!keys || !offs)
		goto out;
	for (i = 0; i < nkeys; i++)
		keys[i] = btree_key(seed, i);
	qsort(keys, nkeys, sizeof(*keys), cmp_u64);

	n = nkeys;
	for (level = 0; level < depth; level++) {
		got = build_level(fd, level, n, fanout, keys, offs, &off);
		ret = (int)got;
		if (got < 0)
			goto out;
		n = (uint64_t)got;
	}
	h->magic = BTREE_MAGIC;
	h->version = BTREE_VERSION;
	h->node_size = BTREE_NODE_SIZE;
	h->root = off - BTREE_NODE_SIZE;
	h->depth = depth;
	h->fanout = fanout;
	h->nkeys = nkeys;
	h->seed = seed;
	memset(block, 0, sizeof(block));
	memcpy(block, h, sizeof(*h));
	ret = write_block(fd, block, 0);
out:
	free(keys);
	free(offs);
	return ret;
}

int btree_header_check(const struct btree_header *h, long got,
		       uint64_t st_size)
{
	uint64_t size;

	if (got < (long)sizeof(*h) || h->magic != BTREE_MAGIC)
		return BTREE_HDR_MAGIC;
	if (h->version != BTREE_VERSION || h->node_size != BTREE_NODE_SIZE)
		return BTREE_HDR_VERSION;
	if (h->depth < 1 || h->depth > BTREE_MAX_DEPTH || !h->nnodes ||
	    h->nnodes > (UINT64_MAX / BTREE_NODE_SIZE) - 1)
		return BTREE_HDR_CORRUPT;
	size = btree_file_size(h->nnodes);
	if (!btree_node_offset_ok(h->root, size))
		return BTREE_HDR_CORRUPT;
	if (st_size < size)
		return BTREE_HDR_TRUNCATED;
	return BTREE_HDR_OK;
}

int btree_open(const char *path, struct btree_file *f, int *why)
{
	struct stat st;
	ssize_t got;
	int ret;

	*why = BTREE_HDR_OK;
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return -errno;
	ret = -errno;
	if (fstat(f->fd, &st) < 0)
		goto fail;
	ret = -EISDIR;
	if (S_ISDIR(st.st_mode))
		goto fail;
	memset(&f->h, 0, sizeof(f->h));
	got = pread(f->fd, &f->h, sizeof(f->h), 0);
	ret = -errno;
	if (got < 0)
		goto fail;
	*why = btree_header_check(&f->h, (long)got, (uint64_t)st.st_size);
	ret = -EUCLEAN;
	if (*why != BTREE_HDR_OK)
		goto fail;
	f->size = btree_file_size(f->h.nnodes);
	return 0;
fail:
	close(f->fd);
	f->fd = -1;
	return ret;
}

int btree_reopen_direct(const char *path, struct btree_file *f)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_DIRECT);

	if (fd < 0)
		return -errno;
	close(f->fd);
	f->fd = fd;
	return 0;
}

void btree_close(struct btree_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

void btree_walk_start(const struct btree_file *f, struct btree_walk *w)
{
	w->off = f->h.root;
	w->level = f->h.depth - 1;
	w->reads = 0;
}

int btree_walk_judge(const struct btree_file *f, struct btree_walk *w,
		     const struct btree_node *n, int res,
		     struct btree_result *r)
{
	__u64 out = 0;

	r->off = w->off;
	if (res < 0) {
		r->res = res;
		return 1;
	}
	if (res != BTREE_NODE_SIZE) {
		r->res = -EIO;
		return 1;
	}
	switch (btree_step(n, w->level, r->key, f->size, &out)) {
	case BTREE_FOUND:
		r->value = out;
		r->res = BTREE_FOUND;
		return 1;
	case BTREE_ABSENT:
		r->res = BTREE_ABSENT;
		return 1;
	case BTREE_DESCEND:
		if (w->level == 0)
			break;
		w->level--;
		w->off = out;
		return 0;
	}
	r->res = -BTREE_ECORRUPT;
	return 1;
}

void btree_pread_lookup(const struct btree_file *f, struct btree_node *n,
			struct btree_result *r, uint64_t *reads)
{
	struct btree_walk w;
	ssize_t got;

	btree_walk_start(f, &w);
	do {
		do {
			got = pread(f->fd, n, sizeof(*n), (off_t)w.off);
		} while (got < 0 && errno == EINTR);
		(*reads)++;
	} while (!btree_walk_judge(f, &w, n, got < 0 ? -errno : (int)got, r));
}
