// SPDX-License-Identifier: MIT
/* What iocoro's command-line tools share (tool.h). */
#include <iocoro.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool.h"

void tool_report_load(const char *name, int err)
{
	if (err == -EPERM)
		fprintf(stderr,
			"%s: loading the coroutine needs CAP_BPF and CAP_PERFMON: run as root, or grant them with 'setcap cap_bpf,cap_perfmon+ep %s'\n",
			name, name);
	else
		fprintf(stderr, "%s: %s\n", name, iocoro_strerror(err));
}

/* the binary prefix after a number: its shift, *@end moved past it */
static unsigned int size_shift(const char **end)
{
	unsigned int shift;

	switch (**end) {
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	default: return 0;
	}
	(*end)++;
	if (!strcmp(*end, "iB"))
		*end += 2;
	return shift;
}

int tool_parse_size(const char *s, unsigned long long *out)
{
	unsigned long long v;
	unsigned int shift;
	int saved = errno, bad;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	bad = errno != 0;
	errno = saved;
	if (bad)
		return -EINVAL;
	shift = size_shift((const char **)&end);
	if (*end || v > (1ULL << 40) >> shift)
		return -EINVAL;
	*out = v << shift;
	return 0;
}

double tool_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

uint64_t tool_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}
