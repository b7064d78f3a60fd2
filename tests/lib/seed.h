/* SPDX-License-Identifier: MIT */
/*
 * Seeds and a small PRNG for tests that use random inputs: every such test
 * prints its seed first and takes it from IOCORO_SEED to replay a run.
 *
 *   uint64_t seed = test_seed("fuzz");
 *       IOCORO_SEED (decimal or 0x hex) if set, else a fresh one
 *       (getrandom); prints "fuzz: seed 0x... (replay: IOCORO_SEED=0x...)"
 *       to stdout. A malformed IOCORO_SEED fails the test.
 *   struct test_rng rng; test_rng_init(&rng, seed);
 *   test_rng_next(&rng)        64 random bits (splitmix64)
 *   test_rng_below(&rng, n)    0 .. n - 1 (n > 0)
 */
#ifndef IOCORO_TESTS_SEED_H
#define IOCORO_TESTS_SEED_H

#include <stdint.h>

struct test_rng {
	uint64_t state;
};

uint64_t test_seed(const char *who);

static inline void test_rng_init(struct test_rng *rng, uint64_t seed)
{
	rng->state = seed;
}

static inline uint64_t test_rng_next(struct test_rng *rng)
{
	uint64_t z = (rng->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t test_rng_below(struct test_rng *rng, uint64_t n)
{
	return test_rng_next(rng) % n;
}

#endif
