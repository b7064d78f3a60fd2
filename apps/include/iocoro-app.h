/* SPDX-License-Identifier: MIT */
/*
 * What iocoro's applications (apps/) share about loading their coroutine:
 * iocoro_skel_load() with the verifier's log printed when it refuses a
 * program, and the program's kind; libbpf kept quiet; a failure told in
 * one line.
 *
 *   libbpf_set_print(iocoro_app_libbpf_quiet);
 *   skel = x_bpf__open();  ... set skel->rodata ...
 *   ret = iocoro_app_load("x", &co, skel->skeleton, skel->obj,
 *                         skel->progs.x, NULL);  // kind, or -errno
 *   if (ret < 0)
 *           iocoro_app_report_load("x", ret);
 */
#ifndef IOCORO_APP_H
#define IOCORO_APP_H

#include <iocoro.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* for libbpf_set_print(): libbpf's own lines would repeat the tool's */
static inline int iocoro_app_libbpf_quiet(enum libbpf_print_level level,
					  const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* CLOCK_MONOTONIC in seconds */
static inline double iocoro_app_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* CLOCK_MONOTONIC in ns: the clock of a program's bpf_ktime_get_ns() */
static inline uint64_t iocoro_app_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* what iocoro_app_load() took, phase by phase, in seconds */
struct iocoro_app_load_times {
	double load;	/* maps created, programs verified and loaded */
	double attach;	/* the steps attached to the ring, a link a kind */
	uint32_t verified_insns;	/* the verifier's, all programs */
};

/* the instructions the verifier processed for @obj's programs, summed */
static inline uint32_t iocoro_app_verified_insns(struct bpf_object *obj)
{
	struct bpf_program *p;
	uint32_t sum = 0;

	bpf_object__for_each_program(p, obj) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);

		if (!bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len))
			sum += info.verified_insns;
	}
	return sum;
}

/*
 * Prepare and load the opened skeleton @s (object @obj), attach its
 * steps to @co's ring as coroutine kinds and return the kind of @prog
 * (its index among the object's steps), or -errno; @t (or NULL) gets
 * what loading and attaching took.
 * A program the verifier refused gets its log printed, after "@name:".
 */
static inline int iocoro_app_load(const char *name, struct iocoro *co,
				  struct bpf_object_skeleton *s,
				  struct bpf_object *obj,
				  const struct bpf_program *prog,
				  struct iocoro_app_load_times *t)
{
	static char log[1 << 20];
	struct iocoro_load_opts opts = {
		.sz = sizeof(opts), .log_buf = log, .log_size = sizeof(log),
	};
	double t0 = iocoro_app_now(), t1;
	int ret;

	ret = iocoro_object_prepare(obj, &opts);
	if (ret >= 0)
		ret = bpf_object__load_skeleton(s);
	if (ret < 0) {
		if (log[0] && (ret == -EACCES || ret == -EINVAL ||
			       ret == -ENOSPC))
			fprintf(stderr, "%s: verifier log:\n%s\n", name, log);
		return ret;
	}
	t1 = iocoro_app_now();
	ret = iocoro_attach_object(co, obj);
	if (ret < 0)
		return ret;
	if (t) {
		t->load = t1 - t0;
		t->attach = iocoro_app_now() - t1;
		t->verified_insns = iocoro_app_verified_insns(obj);
	}
	return iocoro_prog_index(obj, prog);
}

/* why the coroutine could not be loaded, in one line */
static inline void iocoro_app_report_load(const char *name, int err)
{
	if (err == -EPERM)
		fprintf(stderr,
			"%s: loading the coroutine needs CAP_BPF and CAP_PERFMON: run as root, or grant them with 'setcap cap_bpf,cap_perfmon+ep %s'\n",
			name, name);
	else
		fprintf(stderr, "%s: %s\n", name, iocoro_strerror(err));
}

/*
 * A size as the tools take it: "131072", "128K", "128KiB", "1M", "1G"
 * (at most 2^40). 0, or -EINVAL; errno is left as it was.
 */
static inline int iocoro_app_parse_size(const char *s, unsigned long long *out)
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

#endif /* IOCORO_APP_H */
