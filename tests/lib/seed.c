// SPDX-License-Identifier: MIT
/* Seeds for tests with random inputs: seed.h */
#define _GNU_SOURCE
#include "seed.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

uint64_t test_seed(const char *who)
{
	const char *env = getenv("IOCORO_SEED");
	uint64_t seed;

	if (env && *env) {
		char *end;

		errno = 0;
		seed = strtoull(env, &end, 0);
		if (errno || *end)
			FAIL("IOCORO_SEED='%s' is not a number (decimal or "
			     "0x hex)", env);
	} else if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed)) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		seed = (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
		seed ^= (uint64_t)getpid() << 32;
	}
	printf("%s: seed 0x%" PRIx64 " (replay: IOCORO_SEED=0x%" PRIx64 ")%s\n",
	       who, seed, seed, env && *env ? ", from IOCORO_SEED" : "");
	fflush(stdout);
	return seed;
}
