// SPDX-License-Identifier: (LGPL-2.1 OR MIT)
/*
 * Coroutine kinds: a struct io_coro_ops step program attached to a ring by
 * a bpf_link (BPF_STRUCT_OPS). Each attach makes a struct_ops map of its
 * own, with the ring and the kind in it, from a program libbpf already
 * loaded (and the verifier verified): attaching the same program to more
 * rings costs a map and a link, no second verification.
 *
 * The map's value layout comes from the kernel's BTF
 * (bpf_struct_ops_io_coro_ops), read once.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpf_struct_ops_link.h"
#include "internal.h"

/* where the value of an io_coro_ops map keeps what we write */
struct kind_layout {
	__u32 value_type_id;
	__u32 value_size;
	__u32 off_step;
	__u32 off_ring_fd;
	__u32 off_kind;
};

static int member_off(const struct btf *btf, const struct btf_type *t,
		      const char *name, __u32 *off)
{
	const struct btf_member *m = btf_members(t);
	__u16 i;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		if (!strcmp(btf__name_by_offset(btf, m->name_off), name)) {
			*off = btf_member_bit_offset(t, i) / 8;
			return 0;
		}
	}
	return -ENOENT;
}

static int layout_from_btf(const struct btf *btf, struct kind_layout *l)
{
	const struct btf_type *value, *ops;
	__s32 vid, oid;
	__u32 data;
	int ret;

	vid = btf__find_by_name_kind(btf, "bpf_struct_ops_io_coro_ops",
				     BTF_KIND_STRUCT);
	oid = btf__find_by_name_kind(btf, "io_coro_ops", BTF_KIND_STRUCT);
	if (vid < 0 || oid < 0)
		return -EOPNOTSUPP;
	value = btf__type_by_id(btf, vid);
	ops = btf__type_by_id(btf, oid);
	ret = member_off(btf, value, "data", &data);
	ret = ret ?: member_off(btf, ops, "step", &l->off_step);
	ret = ret ?: member_off(btf, ops, "ring_fd", &l->off_ring_fd);
	ret = ret ?: member_off(btf, ops, "kind", &l->off_kind);
	if (ret)
		return -EOPNOTSUPP;
	l->value_type_id = vid;
	l->value_size = value->size;
	l->off_step += data;
	l->off_ring_fd += data;
	l->off_kind += data;
	return 0;
}

/* the layout, from /sys/kernel/btf/vmlinux the first time */
static int kind_layout(struct kind_layout *out)
{
	static struct kind_layout cached;
	static int cached_ret = 1;
	struct btf *btf;

	if (cached_ret > 0) {
		btf = btf__load_vmlinux_btf();
		if (!btf) {
			/* no kernel BTF: no struct_ops, so no io_coro_ops */
			cached_ret = -EOPNOTSUPP;
		} else {
			cached_ret = layout_from_btf(btf, &cached);
			btf__free(btf);
		}
	}
	*out = cached;
	return cached_ret;
}

/*
 * A BTF object for the map: a struct_ops map needs one beside the
 * kernel's value type (map_create()), any that is not the kernel's. One
 * int, loaded with CAP_BPF: the step's own BTF, found by its id, would
 * need CAP_SYS_ADMIN (BPF_BTF_GET_FD_BY_ID).
 */
static int map_btf_fd(void)
{
	const void *raw;
	struct btf *btf;
	__u32 size;
	int fd;

	btf = btf__new_empty();
	if (!btf)
		return -errno;
	fd = -ENOMEM;
	if (btf__add_int(btf, "int", 4, BTF_INT_SIGNED) < 0)
		goto out;
	raw = btf__raw_data(btf, &size);
	if (!raw)
		goto out;
	fd = bpf_btf_load(raw, size, NULL);
	if (fd < 0)
		fd = -errno;
out:
	btf__free(btf);
	return fd;
}

/* an io_coro_ops map that runs @prog_fd as kind @kind of ring @ring_fd */
static int kind_map(int ring_fd, int prog_fd, unsigned int kind)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_LINK);
	struct kind_layout l;
	unsigned char *value;
	int fd, ret, btf_fd, zero = 0;

	ret = kind_layout(&l);
	if (ret)
		return ret;
	btf_fd = map_btf_fd();
	if (btf_fd < 0)
		return btf_fd;
	opts.btf_fd = btf_fd;
	opts.btf_vmlinux_value_type_id = l.value_type_id;
	value = calloc(1, l.value_size);
	if (!value) {
		close(btf_fd);
		return -ENOMEM;
	}
	*(__u64 *)(value + l.off_step) = (__u64)prog_fd;
	*(__s32 *)(value + l.off_ring_fd) = ring_fd;
	*(__u32 *)(value + l.off_kind) = kind;

	fd = bpf_map_create(BPF_MAP_TYPE_STRUCT_OPS, "iocoro_kind",
			    sizeof(int), l.value_size, 1, &opts);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	if (bpf_map_update_elem(fd, &zero, value, 0)) {
		ret = -errno;
		close(fd);
		goto out;
	}
	ret = fd;
out:
	free(value);
	close(btf_fd);
	return ret;
}

static int check_kind(const struct iocoro *co, const struct bpf_program *step,
		      unsigned int kind)
{
	if (!co || !step || kind >= IOCORO_MAX_KINDS)
		return -EINVAL;
	if (bpf_program__type(step) != BPF_PROG_TYPE_STRUCT_OPS ||
	    bpf_program__fd(step) < 0)
		return -EINVAL;
	return 0;
}

/* bpf(BPF_LINK_CREATE) of a struct_ops map: libbpf 1.1 has no call for it */
static int link_create(int map_fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	struct_ops_link_create_attr(&attr, map_fd);
	return syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
}

int iocoro__kind_link(int ring_fd, int prog_fd, unsigned int kind)
{
	int map_fd, link_fd;

	map_fd = kind_map(ring_fd, prog_fd, kind);
	if (map_fd < 0)
		return map_fd;
	link_fd = link_create(map_fd);
	if (link_fd < 0)
		link_fd = -errno;
	/* the link holds the map */
	close(map_fd);
	return link_fd;
}

int iocoro_kind_attach(struct iocoro *co, const struct bpf_program *step,
		       unsigned int kind)
{
	IOCORO_ERRNO_SAVE;
	int ret;

	ret = check_kind(co, step, kind);
	if (ret)
		return IOCORO_ERRNO_RESTORE(ret);
	ret = iocoro__kind_link(co->ring.ring_fd, bpf_program__fd(step), kind);
	return IOCORO_ERRNO_RESTORE(ret);
}

int iocoro_kind_update(int link_fd, struct iocoro *co,
		       const struct bpf_program *step, unsigned int kind)
{
	IOCORO_ERRNO_SAVE;
	union bpf_attr attr;
	int map_fd, ret;

	ret = check_kind(co, step, kind);
	if (ret)
		return IOCORO_ERRNO_RESTORE(ret);
	if (link_fd < 0)
		return -EBADF;
	map_fd = kind_map(co->ring.ring_fd, bpf_program__fd(step), kind);
	if (map_fd < 0)
		return IOCORO_ERRNO_RESTORE(map_fd);
	memset(&attr, 0, sizeof(attr));
	struct_ops_link_update_attr(&attr, link_fd, map_fd);
	ret = syscall(__NR_bpf, BPF_LINK_UPDATE, &attr, sizeof(attr)) ? -errno : 0;
	close(map_fd);
	return IOCORO_ERRNO_RESTORE(ret);
}
