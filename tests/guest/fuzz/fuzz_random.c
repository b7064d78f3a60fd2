// SPDX-License-Identifier: MIT
/*
 * The fuzzer's random values (fuzz_int.h): user_data, addresses, lengths,
 * fds and the scratch area's contents, all drawn from one PRNG seeded by
 * IOCORO_SEED; the hash of an iteration's input and the sets that count
 * distinct inputs and CQE results; the counts of the summary.
 */
#include "fuzz_int.h"

#include <fcntl.h>
#include <string.h>

struct test_rng rng;
uint8_t *scratch;
uint8_t *guard;

struct fz_stats st;

uint64_t in_hash;
#define HSET_SIZE (1 << 18)
static uint64_t hset[HSET_SIZE];
unsigned int nr_distinct;

#define RSET_SIZE 4096
static int32_t rset[RSET_SIZE];
static bool rset_used[RSET_SIZE];
unsigned int nr_results;

void hash(const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		in_hash = (in_hash ^ *b++) * 0x100000001b3ULL;
}

void hash_u64(uint64_t v)
{
	hash(&v, sizeof(v));
}

void count_input(void)
{
	uint64_t h = in_hash ? in_hash : 1;
	unsigned int i = h & (HSET_SIZE - 1);

	while (hset[i] && hset[i] != h)
		i = (i + 1) & (HSET_SIZE - 1);
	if (!hset[i] && nr_distinct < HSET_SIZE - 1) {
		hset[i] = h;
		nr_distinct++;
	}
}

void count_result(int32_t res)
{
	unsigned int i = ((uint32_t)res * 2654435761U) % RSET_SIZE;

	while (rset_used[i] && rset[i] != res)
		i = (i + 1) % RSET_SIZE;
	if (!rset_used[i] && nr_results < RSET_SIZE - 1) {
		rset_used[i] = true;
		rset[i] = res;
		nr_results++;
	}
}

/* a return value is a result (>= 0) or -errno */
void check_ret(const char *what, long ret)
{
	if (ret < -4095)
		FAIL("%s returned %ld: neither a result nor -errno", what, ret);
}

/* ------------------------------------------------------- random values */

/* a random user_data, never one the test judges (FZ_TAG) */
uint64_t fz_ud(uint64_t ud)
{
	uint64_t top = ud >> 32;

	if (top == FZ_TAG || top == FZ_TAG - 1)
		ud ^= 1ULL << 62;
	return ud;
}

/* an address: never one the kernel could write to but scratch */
uint64_t fz_ptr(void)
{
	switch (below(10)) {
	case 0:
		return 0;
	case 1:
		return below(65536);
	case 2:
	case 3:
		return (uint64_t)(uintptr_t)scratch + below(SCRATCH_SIZE);
	case 4:
		return (uint64_t)(uintptr_t)scratch + SCRATCH_SIZE -
		       below(256);
	case 5:
		return (uint64_t)(uintptr_t)guard + below(GUARD_SIZE);
	case 6:
		return 0xffff888000000000ULL + below(1ULL << 30);
	case 7:
		return 0xffffffffffffffffULL - below(4096);
	default:
		/* top bit set: kernel half or non-canonical, never ours */
		return rnd() | (1ULL << 63);
	}
}

uint32_t fz_len(void)
{
	switch (below(8)) {
	case 0:
		return 0;
	case 1:
		return 1 + below(64);
	case 2:
		return 4096;
	case 3:
		return below(SCRATCH_SIZE);
	case 4:
		return 0xffffffffU;
	case 5:
		return 0x7fffffffU + below(2);
	default:
		return rnd();
	}
}

int fz_fd(void)
{
	switch (below(8)) {
	case 0:
		return -1;
	case 1:
		return AT_FDCWD;
	case 2:
		/* far above anything open */
		return (int)(0x10000 + below(1 << 20));
	case 3:
		/* never 0..2 */
		return (int)(rnd() | 0x100000);
	default:
		return pool[below(pool_nr)];
	}
}

/* an fd number that is never open (there are not that many) */
int closed_fd(void)
{
	return 4000 + below(64);
}

void fill_scratch(void)
{
	unsigned int i;

	/* pointers (into scratch or nowhere), lengths, NULs, noise */
	for (i = 0; i < SCRATCH_SIZE; i += 8) {
		uint64_t v;

		switch (below(6)) {
		case 0:
			v = fz_ptr();
			break;
		case 1:
			v = fz_len();
			break;
		case 2:
			v = 0;
			break;
		default:
			v = rnd();
		}
		memcpy(scratch + i, &v, 8);
	}
}
