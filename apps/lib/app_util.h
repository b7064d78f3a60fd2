/* SPDX-License-Identifier: MIT */
/*
 * Small helpers the apps share (header only, static inline):
 *
 *   app_parse_size(s, &v)   "131072", "128K", "128KiB", "1M", "1G" -> bytes;
 *                           0, or -EINVAL (no number, junk, above 1 TiB)
 *   app_libbpf_quiet        a libbpf_set_print() callback that prints
 *                           nothing: the apps say why a load failed in one
 *                           line of their own (app_report_load())
 *   app_report_load(tool, err)
 *                           that line: -EPERM names CAP_BPF and the setcap
 *                           that grants it, others iocoro_strerror()
 */
#ifndef IOCORO_APP_UTIL_H
#define IOCORO_APP_UTIL_H

#include <iocoro.h>

#include <bpf/libbpf.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline int app_parse_size(const char *s, unsigned long long *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	int saved = errno;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno) {
		errno = saved;
		return -EINVAL;
	}
	errno = saved;
	switch (*end) {
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	}
	if (shift) {
		end++;
		if (!strcmp(end, "iB"))
			end += 2;
	}
	if (*end || v > (1ULL << 40) >> shift)
		return -EINVAL;
	*out = v << shift;
	return 0;
}

static inline int app_libbpf_quiet(enum libbpf_print_level level,
				   const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static inline void app_report_load(const char *tool, int err)
{
	if (err == -EPERM)
		fprintf(stderr,
			"%s: loading the coroutine needs CAP_BPF: run as root, or grant it with 'setcap cap_bpf,cap_perfmon+ep %s'\n",
			tool, tool);
	else
		fprintf(stderr, "%s: %s\n", tool, iocoro_strerror(err));
}

#endif /* IOCORO_APP_UTIL_H */
