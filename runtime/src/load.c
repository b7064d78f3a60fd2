// SPDX-License-Identifier: (LGPL-2.1 OR MIT)
/*
 * BPF objects: find their steps (struct_ops programs of io_coro_ops), make
 * the sleepable ones sleepable, load, and attach the steps as kinds.
 *
 * Per program (bpf_program__set_flags()), never with
 * libbpf_register_prog_handler(), whose handlers are process-wide.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "internal.h"

static bool has_prefix(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

/* the programs kinds are made of, in object order */
static bool is_step(const struct bpf_program *prog)
{
	return bpf_program__type(prog) == BPF_PROG_TYPE_STRUCT_OPS;
}

/* IOCORO_SEC_SLEEPABLE of iocoro/coro_ops.h, or a newer libbpf's own */
static bool is_sleepable(const struct bpf_program *prog)
{
	const char *sec = bpf_program__section_name(prog);

	return has_prefix(sec, "struct_ops/sleepable/") ||
	       has_prefix(sec, "struct_ops.s/");
}

/* the fields of @opts the caller's struct has */
#define OPTS_HAS(opts, field)                                           \
	((opts) && (opts)->sz >= offsetof(struct iocoro_load_opts, field) + \
				 sizeof((opts)->field))
#define OPTS_GET(opts, field, def) (OPTS_HAS(opts, field) ? (opts)->field : (def))

/* the log iocoro_skel_load() gives the steps when the caller gives none */
#define IOCORO_DEFAULT_LOG_SIZE (1U << 20)

static int prepare(struct bpf_object *obj, const struct iocoro_load_opts *opts)
{
	char *log_buf = OPTS_GET(opts, log_buf, NULL);
	size_t log_size = OPTS_GET(opts, log_size, 0);
	unsigned int log_level = OPTS_GET(opts, log_level, 0);
	struct bpf_program *prog;
	int n = 0, ret;

	if (!obj)
		return -EINVAL;
	if (opts && opts->sz < sizeof(opts->sz))
		return -EINVAL;
	if (!log_buf != !log_size)
		return -EINVAL;

	ret = iocoro_probe();
	if (ret < 0)
		return ret;

	bpf_object__for_each_program(prog, obj) {
		if (!is_step(prog))
			continue;
		if (is_sleepable(prog)) {
			ret = bpf_program__set_flags(prog,
				bpf_program__flags(prog) | BPF_F_SLEEPABLE);
			if (ret < 0)
				return ret;
		}
		if (log_buf) {
			ret = bpf_program__set_log_buf(prog, log_buf, log_size);
			if (ret < 0)
				return ret;
			log_buf[0] = '\0';
		}
		if (log_level) {
			ret = bpf_program__set_log_level(prog, log_level);
			if (ret < 0)
				return ret;
		}
		n++;
	}
	return n ? n : -ENOENT;
}

int iocoro_object_prepare(struct bpf_object *obj,
			  const struct iocoro_load_opts *opts)
{
	IOCORO_ERRNO_SAVE;

	return IOCORO_ERRNO_RESTORE(prepare(obj, opts));
}

int iocoro_object_load(struct bpf_object *obj,
		       const struct iocoro_load_opts *opts)
{
	IOCORO_ERRNO_SAVE;
	int n, ret;

	n = prepare(obj, opts);
	if (n < 0)
		return IOCORO_ERRNO_RESTORE(n);
	ret = bpf_object__load(obj);
	if (ret < 0)
		return IOCORO_ERRNO_RESTORE(ret);
	return IOCORO_ERRNO_RESTORE(n);
}

int iocoro_prog_index(const struct bpf_object *obj,
		      const struct bpf_program *prog)
{
	IOCORO_ERRNO_SAVE;
	struct bpf_program *p;
	int i = 0;

	if (!obj || !prog)
		return -EINVAL;
	bpf_object__for_each_program(p, obj) {
		if (!is_step(p))
			continue;
		if (p == prog)
			return IOCORO_ERRNO_RESTORE(i);
		i++;
	}
	return IOCORO_ERRNO_RESTORE(-ENOENT);
}

int iocoro_attach_object(struct iocoro *co, const struct bpf_object *obj)
{
	IOCORO_ERRNO_SAVE;
	int fds[IOCORO_MAX_PROGS];
	struct bpf_program *p;
	unsigned int n = 0, loaded = 0;
	int ret;

	if (!co || !obj)
		return -EINVAL;
	bpf_object__for_each_program(p, obj) {
		int fd;

		if (!is_step(p))
			continue;
		if (n == IOCORO_MAX_PROGS)
			return IOCORO_ERRNO_RESTORE(-E2BIG);
		fd = bpf_program__fd(p);
		fds[n++] = fd >= 0 ? fd : -1;
		loaded += fd >= 0;
	}
	if (!n)
		return IOCORO_ERRNO_RESTORE(-ENOENT);
	if (!loaded)
		return IOCORO_ERRNO_RESTORE(-EBADF);
	ret = iocoro_attach(co, fds, n);
	return IOCORO_ERRNO_RESTORE(ret < 0 ? ret : (int)n);
}

/* CLOCK_MONOTONIC in ns */
static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* the instructions the verifier processed for @obj's programs, summed */
static uint32_t verified_insns(const struct bpf_object *obj)
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

/* did the verifier refuse a program, with a log to show? */
static bool refused(int err, const char *log)
{
	return log[0] && (err == -EACCES || err == -EINVAL || err == -ENOSPC);
}

/*
 * Load @s with @opts, or with a log of our own when @opts has none
 * (written to stderr if the verifier refuses a program)
 */
static int skel_load(struct bpf_object_skeleton *s, struct bpf_object *obj,
		     const struct iocoro_load_opts *opts)
{
	struct iocoro_load_opts own = { .sz = sizeof(own) };
	int ret;

	if (OPTS_GET(opts, log_buf, NULL)) {
		ret = prepare(obj, opts);
		return ret < 0 ? ret : bpf_object__load_skeleton(s);
	}
	own.log_size = IOCORO_DEFAULT_LOG_SIZE;
	own.log_buf = malloc(own.log_size);
	if (!own.log_buf)
		return -ENOMEM;
	own.log_level = OPTS_GET(opts, log_level, 0);
	ret = prepare(obj, &own);
	if (ret >= 0)
		ret = bpf_object__load_skeleton(s);
	if (ret < 0 && refused(ret, own.log_buf))
		fprintf(stderr, "iocoro: the verifier refused a program of %s:\n%s\n",
			bpf_object__name(obj), own.log_buf);
	free(own.log_buf);
	return ret;
}

int iocoro_skel_load(struct iocoro *co, struct bpf_object_skeleton *s,
		     const struct iocoro_load_opts *opts)
{
	IOCORO_ERRNO_SAVE;
	struct iocoro_load_info *info = OPTS_GET(opts, info, NULL);
	struct bpf_object *obj;
	uint64_t t0, t1;
	int ret;

	if (!co || !s || !s->obj || !*s->obj)
		return -EINVAL;
	if (opts && opts->sz < sizeof(opts->sz))
		return -EINVAL;
	obj = *s->obj;
	t0 = now_ns();
	ret = skel_load(s, obj, opts);
	if (ret < 0)
		return IOCORO_ERRNO_RESTORE(ret);
	t1 = now_ns();
	ret = iocoro_attach_object(co, obj);
	if (ret < 0 || !info)
		return IOCORO_ERRNO_RESTORE(ret);
	info->load_ns = t1 - t0;
	info->attach_ns = now_ns() - t1;
	info->verified_insns = verified_insns(obj);
	info->nr_steps = (uint32_t)ret;
	return IOCORO_ERRNO_RESTORE(ret);
}

int iocoro_map_mmap(const struct bpf_map *map, void **addr, size_t *len)
{
	IOCORO_ERRNO_SAVE;
	size_t elem, size, page;
	void *p;
	int fd;

	if (!map || !addr || !len)
		return -EINVAL;
	if (bpf_map__type(map) != BPF_MAP_TYPE_ARRAY ||
	    !(bpf_map__map_flags(map) & BPF_F_MMAPABLE))
		return -EINVAL;
	fd = bpf_map__fd(map);
	if (fd < 0)
		return IOCORO_ERRNO_RESTORE(-EBADF);
	/* the kernel's array element: the value rounded up to 8 bytes */
	elem = ((size_t)bpf_map__value_size(map) + 7) & ~(size_t)7;
	page = (size_t)sysconf(_SC_PAGESIZE);
	size = elem * bpf_map__max_entries(map);
	size = (size + page - 1) & ~(page - 1);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return IOCORO_ERRNO_RESTORE(-errno);
	*addr = p;
	*len = size;
	return IOCORO_ERRNO_RESTORE(0);
}

void iocoro_map_munmap(void *addr, size_t len)
{
	IOCORO_ERRNO_SAVE;

	if (addr)
		munmap(addr, len);
	IOCORO_ERRNO_RESTORE(0);
}
