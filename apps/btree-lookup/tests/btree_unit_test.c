// SPDX-License-Identifier: MIT
/*
 * Unit tests of btree-lookup's format (btree.h, btree-file.c), on the host:
 * tree shapes, built files checked node by node against the keys they
 * must hold, the shared binary search (btree_step(), and its pieces as
 * the coroutine runs them) against a plain count, corrupt nodes and
 * headers, and the pread() walk on good,
 * cyclic and short files. Random sizes come from test_seed("btree_unit")
 * (IOCORO_SEED replays them).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "btree-file.h"
#include "seed.h"

static struct test_rng rng;

/* a fresh empty file (memfd) */
static int new_file(void)
{
	int fd = memfd_create("btree", MFD_CLOEXEC);

	assert_true(fd >= 0);
	return fd;
}

static struct btree_node *node_at(const char *img, uint64_t off)
{
	return (struct btree_node *)(void *)(img + off);
}

static char *slurp(int fd, uint64_t size)
{
	char *img = malloc(size);

	assert_non_null(img);
	assert_int_equal(pread(fd, img, size, 0), (ssize_t)size);
	return img;
}

/*
 * Walk the subtree at @off (level @level) in key order, checking every
 * node: magic, level, entries within the fanout, an inner key equal to
 * its child's smallest key, keys sorted; the leaves' keys go to keys[*n].
 */
static uint64_t check_subtree(const char *img, const struct btree_header *h,
			      uint64_t off, uint32_t level, uint64_t *keys,
			      uint64_t *n)
{
	const struct btree_node *nd = node_at(img, off);
	uint64_t first = 0, min;
	uint32_t i;

	assert_true(btree_node_offset_ok(off, btree_file_size(h->nnodes)));
	assert_int_equal(nd->magic, BTREE_NODE_MAGIC);
	assert_int_equal(nd->level, level);
	if (level == 0) {
		assert_true(nd->nkeys <= h->fanout);
		for (i = 0; i < nd->nkeys; i++) {
			assert_true(*n < h->nkeys);
			assert_true(i == 0 || nd->keys[i - 1] < nd->keys[i]);
			assert_true(nd->ptrs[i] == btree_value(nd->keys[i]));
			keys[(*n)++] = nd->keys[i];
		}
		return nd->nkeys ? nd->keys[0] : 0;
	}
	assert_true(nd->nkeys >= 1 && nd->nkeys <= h->fanout);
	for (i = 0; i < nd->nkeys; i++) {
		min = check_subtree(img, h, nd->ptrs[i], level - 1, keys, n);
		if (i == 0)
			first = min;
		assert_true(nd->keys[i] == min);
		assert_true(i == 0 || nd->keys[i - 1] < nd->keys[i]);
	}
	return first;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* build, check every node and every key, look all of them up */
static void build_and_check(uint64_t nkeys, uint32_t fanout, uint64_t seed)
{
	struct btree_file f = { .fd = new_file() };
	struct btree_node *scratch = malloc(sizeof(*scratch));
	uint64_t *keys = calloc(nkeys + 1, sizeof(*keys));
	uint64_t *want = calloc(nkeys + 1, sizeof(*want));
	uint64_t n = 0, i, nnodes, reads = 0;
	struct btree_result r;
	char *img;

	assert_non_null(scratch);
	assert_non_null(keys);
	assert_non_null(want);
	assert_int_equal(btree_build(f.fd, nkeys, fanout, seed, &f.h), 0);
	assert_int_equal(f.h.depth, btree_shape(nkeys, fanout, &nnodes));
	assert_int_equal(f.h.nnodes, nnodes);
	assert_int_equal(f.h.nkeys, nkeys);
	assert_int_equal(f.h.seed, seed);
	assert_int_equal(lseek(f.fd, 0, SEEK_END),
			 (off_t)btree_file_size(nnodes));
	assert_int_equal(btree_header_check(&f.h, sizeof(f.h),
					    btree_file_size(nnodes)),
			 BTREE_HDR_OK);
	f.size = btree_file_size(nnodes);
	img = slurp(f.fd, f.size);
	assert_memory_equal(img, &f.h, sizeof(f.h));
	assert_int_equal(f.h.root, f.size - BTREE_NODE_SIZE);

	check_subtree(img, &f.h, f.h.root, f.h.depth - 1, keys, &n);
	assert_int_equal(n, nkeys);
	for (i = 0; i < nkeys; i++)
		want[i] = btree_key(seed, i);
	qsort(want, nkeys, sizeof(*want), cmp_u64);
	assert_memory_equal(keys, want, nkeys * sizeof(*keys));

	for (i = 0; i < nkeys + 20; i++) {
		memset(&r, 0, sizeof(r));
		r.key = btree_key(seed, i);
		btree_pread_lookup(&f, scratch, &r, &reads);
		assert_int_equal(r.res, i < nkeys ? BTREE_FOUND : BTREE_ABSENT);
		if (i < nkeys)
			assert_true(r.value == btree_value(r.key));
	}
	assert_int_equal(reads, (nkeys + 20) * f.h.depth);
	free(img);
	free(keys);
	free(want);
	free(scratch);
	close(f.fd);
}

static void test_shape(void **state)
{
	uint64_t nodes;

	(void)state;
	assert_int_equal(btree_shape(0, 2, &nodes), 1);
	assert_int_equal(nodes, 1);
	assert_int_equal(btree_shape(255, 255, &nodes), 1);
	assert_int_equal(nodes, 1);
	assert_int_equal(btree_shape(256, 255, &nodes), 2);
	assert_int_equal(nodes, 3);
	/* leaves 100, then 50, 25, 13, 7, 4, 2, 1 */
	assert_int_equal(btree_shape(200, 2, &nodes), 8);
	assert_int_equal(nodes, 202);
	/* 3^7 = 2187 keys still fit 7 levels of fanout 3, 2188 need 8 */
	assert_int_equal(btree_shape(2187, 3, &nodes), 7);
	assert_int_equal(btree_shape(2188, 3, &nodes), 8);
}

static void test_build_edges(void **state)
{
	static const uint32_t fanouts[] = { 2, 3, 4, 7, 254, 255 };
	uint64_t seed = test_rng_next(&rng);
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(fanouts) / sizeof(fanouts[0]); i++) {
		uint32_t f = fanouts[i];

		build_and_check(0, f, seed);
		build_and_check(1, f, seed);
		build_and_check(f - 1, f, seed);
		build_and_check(f, f, seed);
		build_and_check(f + 1, f, seed);
		build_and_check((uint64_t)f * f + 1, f, seed + 1);
	}
}

static void test_build_random(void **state)
{
	int round;

	(void)state;
	for (round = 0; round < 12; round++) {
		uint32_t f = 2 + (uint32_t)test_rng_below(&rng, 254);
		uint64_t n = test_rng_below(&rng, 3000);

		build_and_check(n, f, test_rng_next(&rng));
	}
	/* depths 3 to 8 with small fanouts, as the guest tests build them */
	build_and_check(200, 2, test_rng_next(&rng));
	build_and_check(2188, 3, test_rng_next(&rng));
}

static void test_build_refuses(void **state)
{
	struct btree_header h;
	int fd = new_file();

	(void)state;
	assert_int_equal(btree_build(fd, 10, 1, 0, &h), -EINVAL);
	assert_int_equal(btree_build(fd, 10, 256, 0, &h), -EINVAL);
	/* 2^16 + 1 keys at fanout 2: 18 levels */
	assert_int_equal(btree_build(fd, 65537, 2, 0, &h), -E2BIG);
	close(fd);
	/* a write that fails: a read-only descriptor */
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(btree_build(fd, 10, 4, 0, &h), -EBADF);
	close(fd);
}

/*
 * btree_step()'s pieces run as the coroutine runs them (btree.bpf.c's
 * node_step()): only the head, the keys probed and the one pointer read, each
 * through a copy; *@probes counts the probes
 */
static int coroutine_step(const struct btree_node *n, __u32 level, __u64 key,
			  __u64 file_size, __u64 *out, unsigned int *probes)
{
	struct btree_node_head head;
	struct btree_search s;
	__u64 k, ptr = 0;
	__u32 p, i;

	memcpy(&head, n, sizeof(head));
	if (btree_node_check(&head, level, key, &s))
		return BTREE_CORRUPT;
	*probes = 0;
	for (p = 0; p < BTREE_SEARCH_PROBES; p++) {
		if (btree_search_next(&s, &i))
			break;
		assert_true(i < head.nkeys);
		memcpy(&k, (const char *)n +
		       offsetof(struct btree_node, keys) + i * sizeof(k),
		       sizeof(k));
		btree_search_key(&s, i, k);
		(*probes)++;
	}
	/* the search is over within its probes */
	assert_int_equal(btree_search_next(&s, &i), 1);
	if (btree_search_wants_ptr(&s, level))
		memcpy(&ptr, (const char *)n +
		       offsetof(struct btree_node, ptrs) +
		       s.last * sizeof(ptr), sizeof(ptr));
	return btree_verdict(&s, level, ptr, file_size, out);
}

/* btree_step() and coroutine_step() judge @n alike: the verdict */
static int both_step(const struct btree_node *n, __u32 level, __u64 key,
		     __u64 file_size, __u64 *out)
{
	__u64 out1 = 0, out2 = 0;
	unsigned int probes = 0;
	int v1, v2;

	v1 = btree_step(n, level, key, file_size, &out1);
	v2 = coroutine_step(n, level, key, file_size, &out2, &probes);
	assert_int_equal(v1, v2);
	assert_true(out1 == out2);
	/* a binary search: floor(log2(nkeys)) + 1 probes at most */
	assert_true(probes == 0 || (1U << (probes - 1)) <= n->nkeys);
	*out = out1;
	return v1;
}

/*
 * The search against a count of the keys <= the probe, at every size: a
 * leaf finds exactly its keys, an inner node picks the last child whose
 * key is <= the probe (child 0 for a probe below them all)
 */
static void test_search(void **state)
{
	const uint64_t size = btree_file_size(BTREE_SLOTS + 1);
	struct btree_node *n = calloc(1, sizeof(*n));
	uint32_t nkeys, i, below;
	uint64_t probe, k;
	__u64 out;
	int round, present;

	(void)state;
	assert_non_null(n);
	n->magic = BTREE_NODE_MAGIC;
	for (nkeys = 0; nkeys <= BTREE_SLOTS; nkeys++) {
		k = test_rng_below(&rng, 4);
		for (i = 0; i < BTREE_SLOTS; i++) {
			n->keys[i] = k;
			n->ptrs[i] = (uint64_t)(i + 1) * BTREE_NODE_SIZE;
			k += 1 + test_rng_below(&rng, 3);
		}
		for (round = 0; round < 64 + 2 * (int)nkeys; round++) {
			if (round == 0)
				probe = UINT64_MAX;
			else if (round == 1)
				probe = 0;
			else if (round < 2 + (int)nkeys)	/* each key */
				probe = n->keys[round - 2];
			else if (round < 2 + 2 * (int)nkeys)	/* just below */
				probe = n->keys[round - 2 - nkeys] - 1;
			else
				probe = test_rng_below(&rng, k + 2);
			for (below = 0, present = 0; below < nkeys &&
			     n->keys[below] <= probe; below++)
				present = n->keys[below] == probe;
			n->level = 0;
			n->nkeys = (uint16_t)nkeys;
			out = 0;
			assert_int_equal(both_step(n, 0, probe, size, &out),
					 present ? BTREE_FOUND : BTREE_ABSENT);
			if (present)
				assert_true(out == n->ptrs[below - 1]);
			n->level = 1;
			if (!nkeys) {	/* an inner node without children */
				assert_int_equal(both_step(n, 1, probe, size,
							   &out),
						 BTREE_CORRUPT);
				continue;
			}
			assert_int_equal(both_step(n, 1, probe, size, &out),
					 BTREE_DESCEND);
			assert_true(out == n->ptrs[below ? below - 1 : 0]);
		}
	}
	free(n);
}

/*
 * Keys out of order: not detected, but the coroutine's way of searching
 * picks the same entry as btree_step()
 */
static void test_search_unsorted(void **state)
{
	const uint64_t size = btree_file_size(BTREE_SLOTS + 1);
	struct btree_node *n = calloc(1, sizeof(*n));
	uint32_t nkeys, i;
	__u64 out;
	int round;

	(void)state;
	assert_non_null(n);
	n->magic = BTREE_NODE_MAGIC;
	for (round = 0; round < 2000; round++) {
		nkeys = 1 + (uint32_t)test_rng_below(&rng, BTREE_SLOTS);
		for (i = 0; i < BTREE_SLOTS; i++) {
			n->keys[i] = test_rng_below(&rng, 64);
			n->ptrs[i] = (uint64_t)(1 + test_rng_below(&rng, 300)) *
				     BTREE_NODE_SIZE;
		}
		n->nkeys = (uint16_t)nkeys;
		n->level = (uint16_t)(round & 1);
		both_step(n, n->level, test_rng_below(&rng, 66), size, &out);
	}
	free(n);
}

static void test_step(void **state)
{
	const uint64_t size = btree_file_size(8);
	struct btree_node *n = calloc(1, sizeof(*n));
	__u64 out = 0;

	(void)state;
	assert_non_null(n);
	n->magic = BTREE_NODE_MAGIC;
	n->level = 1;
	n->nkeys = 3;
	n->keys[0] = 5;
	n->keys[1] = 10;
	n->keys[2] = 20;
	n->ptrs[0] = 4096;
	n->ptrs[1] = 8192;
	n->ptrs[2] = 8 * 4096;
	assert_int_equal(both_step(n, 1, 1, size, &out), BTREE_DESCEND);
	assert_int_equal(out, 4096);
	assert_int_equal(both_step(n, 1, 9, size, &out), BTREE_DESCEND);
	assert_int_equal(out, 4096);
	assert_int_equal(both_step(n, 1, 10, size, &out), BTREE_DESCEND);
	assert_int_equal(out, 8192);
	assert_int_equal(both_step(n, 1, 25, size, &out), BTREE_DESCEND);
	assert_int_equal(out, 8 * 4096);
	/* not the level the walk expects: a cycle, or a wrong pointer */
	assert_int_equal(both_step(n, 2, 9, size, &out), BTREE_CORRUPT);
	assert_int_equal(both_step(n, 0, 9, size, &out), BTREE_CORRUPT);
	/* children outside the file, in the header, not aligned */
	n->ptrs[2] = 9 * 4096;
	assert_int_equal(both_step(n, 1, 25, size, &out), BTREE_CORRUPT);
	n->ptrs[2] = 0;
	assert_int_equal(both_step(n, 1, 25, size, &out), BTREE_CORRUPT);
	n->ptrs[2] = 4097;
	assert_int_equal(both_step(n, 1, 25, size, &out), BTREE_CORRUPT);
	/* too many entries, or no child at all */
	n->nkeys = BTREE_SLOTS + 1;
	assert_int_equal(both_step(n, 1, 5, size, &out), BTREE_CORRUPT);
	n->nkeys = 0;
	assert_int_equal(both_step(n, 1, 5, size, &out), BTREE_CORRUPT);
	n->level = 0;
	n->nkeys = BTREE_SLOTS + 1;
	assert_int_equal(both_step(n, 0, 5, size, &out), BTREE_CORRUPT);
	n->keys[0] = 10;
	n->keys[1] = 20;
	/* a leaf */
	n->nkeys = 2;
	n->ptrs[0] = 111;
	n->ptrs[1] = 222;
	assert_int_equal(both_step(n, 0, 20, size, &out), BTREE_FOUND);
	assert_int_equal(out, 222);
	assert_int_equal(both_step(n, 0, 10, size, &out), BTREE_FOUND);
	assert_int_equal(out, 111);
	assert_int_equal(both_step(n, 0, 15, size, &out), BTREE_ABSENT);
	assert_int_equal(both_step(n, 0, 5, size, &out), BTREE_ABSENT);
	assert_int_equal(both_step(n, 0, 21, size, &out), BTREE_ABSENT);
	n->magic = 0;
	assert_int_equal(both_step(n, 0, 10, size, &out), BTREE_CORRUPT);
	free(n);
}

/* header @h, whole, of a file of @size bytes: @want */
static void header_is(const struct btree_header *h, uint64_t size, int want)
{
	assert_int_equal(btree_header_check(h, sizeof(*h), size), want);
}

static void test_header(void **state)
{
	struct btree_header h = {
		.magic = BTREE_MAGIC, .version = BTREE_VERSION,
		.node_size = BTREE_NODE_SIZE, .root = 3 * 4096, .depth = 2,
		.fanout = 2, .nkeys = 3, .nnodes = 3,
	};
	struct btree_header b;
	const uint64_t size = btree_file_size(3);

	(void)state;
	header_is(&h, size, BTREE_HDR_OK);
	header_is(&h, size + 1, BTREE_HDR_OK);
	header_is(&h, size - 1, BTREE_HDR_TRUNCATED);
	assert_int_equal(btree_header_check(&h, sizeof(h) - 1, size),
			 BTREE_HDR_MAGIC);
	b = h;
	b.magic ^= 1;
	header_is(&b, size, BTREE_HDR_MAGIC);
	b = h;
	b.version = 2;
	header_is(&b, size, BTREE_HDR_VERSION);
	b = h;
	b.node_size = 8192;
	header_is(&b, size, BTREE_HDR_VERSION);
	b = h;
	b.depth = 0;
	header_is(&b, size, BTREE_HDR_CORRUPT);
	b.depth = BTREE_MAX_DEPTH + 1;
	header_is(&b, size, BTREE_HDR_CORRUPT);
	b = h;
	b.root = 4 * 4096;
	header_is(&b, UINT64_MAX, BTREE_HDR_CORRUPT);
	b.root = 0;
	header_is(&b, size, BTREE_HDR_CORRUPT);
	b = h;
	b.nnodes = 0;
	header_is(&b, size, BTREE_HDR_CORRUPT);
	b.nnodes = UINT64_MAX;
	header_is(&b, UINT64_MAX, BTREE_HDR_CORRUPT);
}

/* a cycle ends after one read; a short read is -EIO; errors pass through */
static void test_walk(void **state)
{
	struct btree_file f = { .fd = new_file() };
	struct btree_node *n = calloc(1, sizeof(*n));
	struct btree_result r = { 0 };
	struct btree_walk w;
	uint64_t reads = 0;
	char name[64];
	int why;

	(void)state;
	assert_non_null(n);
	assert_int_equal(btree_build(f.fd, 40, 3, 7, &f.h), 0);
	assert_int_equal(f.h.depth, 4);
	snprintf(name, sizeof(name), "/proc/self/fd/%d", f.fd);
	/* btree_open() sees the same */
	{
		struct btree_file g;

		assert_int_equal(btree_open(name, &g, &why), 0);
		assert_memory_equal(&g.h, &f.h, sizeof(f.h));
		f.size = g.size;
		btree_close(&g);
	}
	/* the root's children all point back at the root */
	assert_int_equal(pread(f.fd, n, sizeof(*n), (off_t)f.h.root),
			 (ssize_t)sizeof(*n));
	for (uint32_t i = 0; i < n->nkeys; i++)
		n->ptrs[i] = f.h.root;
	assert_int_equal(pwrite(f.fd, n, sizeof(*n), (off_t)f.h.root),
			 (ssize_t)sizeof(*n));
	r.key = btree_key(7, 3);
	btree_pread_lookup(&f, n, &r, &reads);
	assert_int_equal(r.res, -BTREE_ECORRUPT);
	assert_int_equal(r.off, f.h.root);
	assert_int_equal(reads, 2);

	btree_walk_start(&f, &w);
	assert_int_equal(btree_walk_judge(&f, &w, n, 100, &r), 1);
	assert_int_equal(r.res, -EIO);
	assert_int_equal(btree_walk_judge(&f, &w, n, -EBADF, &r), 1);
	assert_int_equal(r.res, -EBADF);

	/* truncated: btree_open() refuses it */
	assert_int_equal(ftruncate(f.fd, (off_t)(f.size - 1)), 0);
	assert_int_equal(btree_open(name, &f, &why), -EUCLEAN);
	assert_int_equal(why, BTREE_HDR_TRUNCATED);
	assert_int_equal(btree_open("/nonexistent/btree", &f, &why), -ENOENT);
	assert_int_equal(btree_open("/dev/null", &f, &why), -EUCLEAN);
	assert_int_equal(why, BTREE_HDR_MAGIC);
	free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shape),
		cmocka_unit_test(test_build_edges),
		cmocka_unit_test(test_build_random),
		cmocka_unit_test(test_build_refuses),
		cmocka_unit_test(test_search),
		cmocka_unit_test(test_search_unsorted),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_walk),
	};

	test_rng_init(&rng, test_seed("btree_unit"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
