/* SPDX-License-Identifier: MIT */
/*
 * What iocoro's command-line tools (apps/) share that is not the
 * library's: a failure to load told in one line, with the capabilities
 * it needs; sizes as options take them; the clock.
 *
 *   ret = iocoro_skel_load(&co, skel->skeleton, NULL);
 *   if (ret < 0)
 *           tool_report_load("x", ret);
 */
#ifndef IOCORO_TOOL_H
#define IOCORO_TOOL_H

#include <stdint.h>

/* why the coroutine could not be loaded, in one line on stderr */
void tool_report_load(const char *name, int err);

/*
 * A size as the tools take it: "131072", "128K", "128KiB", "1M", "1G"
 * (at most 2^40). 0, or -EINVAL; errno is left as it was.
 */
int tool_parse_size(const char *s, unsigned long long *out);

/* CLOCK_MONOTONIC in seconds */
double tool_now(void);

/* CLOCK_MONOTONIC in ns: the clock of a program's bpf_ktime_get_ns() */
uint64_t tool_now_ns(void);

#endif /* IOCORO_TOOL_H */
