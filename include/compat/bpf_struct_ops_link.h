/* SPDX-License-Identifier: (LGPL-2.1 OR MIT) */
/*
 * What <linux/bpf.h> gained in Linux 6.4 for struct_ops links, for the
 * headers that lack it: user space builds against the system's
 * <linux/bpf.h> (the series does not change it), and Debian 12's
 * linux-libc-dev is Linux 6.1. libiocoro (runtime/src/kind.c) and the
 * guest tests (tests/lib/uring_bpf.c) attach io_coro_ops maps with
 * bpf(BPF_LINK_CREATE) and replace them with bpf(BPF_LINK_UPDATE); this
 * header adds only what those calls need and 6.1 lacks:
 *
 *   BPF_F_LINK                  the map flag of a struct_ops map a link
 *                               registers (6.12's value)
 *   IOCORO_BPF_STRUCT_OPS       enum bpf_attach_type's BPF_STRUCT_OPS: an
 *                               enumerator cannot be tested with #ifdef,
 *                               so it is a constant of its own
 *   struct_ops_link_create_attr()  link_create.map_fd,
 *   struct_ops_link_update_attr()  link_update.new_map_fd and
 *   struct_ops_link_update_old()   link_update.old_map_fd and
 *   struct_ops_link_info_map_id()  struct bpf_link_info's struct_ops.map_id:
 *                               6.1 has none of these names, so the
 *                               helpers use the word each shares with a
 *                               6.1 field
 *
 * A <linux/bpf.h> that defines BPF_F_LINK as a macro (6.6 on, 6.12's
 * kernel/build.sh headers among them) has all of it; there the static
 * assertions below check this header against it. 6.4 and 6.5 have it too
 * but BPF_F_LINK only as an enumerator: there the macro below shadows it
 * with the same value.
 */
#ifndef IOCORO_COMPAT_BPF_STRUCT_OPS_LINK_H
#define IOCORO_COMPAT_BPF_STRUCT_OPS_LINK_H

#include <stddef.h>

#include <linux/bpf.h>

/* enum bpf_attach_type: 44 since 6.4, right after 6.1's BPF_LSM_CGROUP */
#define IOCORO_BPF_STRUCT_OPS 44

#ifdef BPF_F_LINK
_Static_assert(BPF_F_LINK == (1U << 13), "BPF_F_LINK is 6.12's");
_Static_assert(BPF_STRUCT_OPS == IOCORO_BPF_STRUCT_OPS,
	       "IOCORO_BPF_STRUCT_OPS is BPF_STRUCT_OPS");
/*
 * 6.4 put the map fds in unions with the prog fds 6.1 has, and
 * struct_ops.map_id first in bpf_link_info's union, as xdp.ifindex
 */
_Static_assert(offsetof(union bpf_attr, link_create.map_fd) ==
	       offsetof(union bpf_attr, link_create.prog_fd),
	       "link_create.map_fd is link_create.prog_fd's word");
_Static_assert(offsetof(union bpf_attr, link_update.new_map_fd) ==
	       offsetof(union bpf_attr, link_update.new_prog_fd),
	       "link_update.new_map_fd is link_update.new_prog_fd's word");
_Static_assert(offsetof(union bpf_attr, link_update.old_map_fd) ==
	       offsetof(union bpf_attr, link_update.old_prog_fd),
	       "link_update.old_map_fd is link_update.old_prog_fd's word");
_Static_assert(offsetof(struct bpf_link_info, struct_ops.map_id) ==
	       offsetof(struct bpf_link_info, xdp.ifindex),
	       "struct_ops.map_id is xdp.ifindex's word");
#else
#define BPF_F_LINK (1U << 13)
#endif

/*
 * bpf(BPF_LINK_CREATE) of struct_ops map @map_fd: link_create.map_fd,
 * which shares its word with link_create.prog_fd (in a union since 6.4).
 */
static inline void struct_ops_link_create_attr(union bpf_attr *attr,
					       int map_fd)
{
	attr->link_create.prog_fd = map_fd;
	attr->link_create.attach_type = IOCORO_BPF_STRUCT_OPS;
}

/*
 * bpf(BPF_LINK_UPDATE) of link @link_fd to struct_ops map @map_fd:
 * link_update.new_map_fd, which shares its word with
 * link_update.new_prog_fd (in a union since 6.4).
 */
static inline void struct_ops_link_update_attr(union bpf_attr *attr,
					       int link_fd, int map_fd)
{
	attr->link_update.link_fd = link_fd;
	attr->link_update.new_prog_fd = map_fd;
}

/*
 * The map link @attr's bpf(BPF_LINK_UPDATE) expects to replace (with
 * BPF_F_REPLACE): link_update.old_map_fd, which shares its word with
 * link_update.old_prog_fd (in a union since 6.4).
 */
static inline void struct_ops_link_update_old(union bpf_attr *attr,
					      int old_map_fd)
{
	attr->link_update.old_prog_fd = old_map_fd;
}

/*
 * The struct_ops map of link @info (bpf_obj_get_info_by_fd() of a
 * BPF_LINK_TYPE_STRUCT_OPS link): struct_ops.map_id, the first word of
 * bpf_link_info's union as xdp.ifindex is (6.4 added it there).
 */
static inline __u32
struct_ops_link_info_map_id(const struct bpf_link_info *info)
{
	return info->xdp.ifindex;
}

#endif
