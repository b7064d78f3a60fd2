// SPDX-License-Identifier: MIT
/*
 * The fuzzer's kinds (fuzz_int.h): the steps attached to the ring by
 * bpf_link, through libiocoro (iocoro_kind_attach()) and raw: random
 * io_coro_ops maps (ring fd, step, kind) and BPF_LINK_CREATE flags,
 * BPF_LINK_UPDATE, BPF_LINK_DETACH and closing links, between requests
 * and while steps run. Judged by the ABI rules fuzz_test.c lists.
 */
#include "fuzz_int.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int kind_link[IORING_CORO_MAX_KINDS];

/* every link this iteration made, and what it is */
#define FZ_LINKS 96
static struct fz_link {
	int fd;
	uint32_t kind;
	bool attached;	/* its kind on the ring: not detached, ring open */
} links[FZ_LINKS];
static unsigned int nr_links;

void fz_kind_init(void)
{
	const void *raw;
	struct btf *btf;
	__u32 size;

	uring_kind_layout();
	/* a struct_ops map needs a BTF of its own: one int, shared by all */
	btf = btf__new_empty();
	CHECK(btf);
	CHECK(btf__add_int(btf, "int", 4, BTF_INT_SIGNED) > 0);
	raw = btf__raw_data(btf, &size);
	CHECK(raw);
	kind_btf_fd = CHECK_SYS(bpf_btf_load(raw, size, NULL));
	btf__free(btf);
}

void fz_kind_reset(void)
{
	unsigned int i;

	for (i = 0; i < IORING_CORO_MAX_KINDS; i++)
		kind_link[i] = -1;
	nr_links = 0;
}

/* an io_coro_ops map running @prog as @kind of @ring: fd or -errno */
static int fz_map(int ring, int prog, uint32_t kind)
{
	return uring_kind_map("fz_kind", kind_btf_fd, prog, ring, kind);
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	long ret = syscall(__NR_bpf, cmd, attr, sizeof(*attr));

	return ret < 0 ? -errno : ret;
}

/* a link of ours now attached as @kind: remembered */
static void link_made(int fd, uint32_t kind)
{
	st.attach_ok++;
	ring_attached = true;
	kind_link[kind] = fd;
	if (nr_links == FZ_LINKS) {
		/* full: the oldest is let go */
		close(links[0].fd);
		if (links[0].attached && kind_link[links[0].kind] == links[0].fd)
			kind_link[links[0].kind] = -1;
		memmove(links, links + 1, --nr_links * sizeof(links[0]));
	}
	links[nr_links++] = (struct fz_link){ fd, kind, true };
}

/* a link created for @kind of ring fd @ring: judged, and remembered */
static void judge_link(int ring, uint32_t kind, int prog, long ret)
{
	check_ret("BPF_LINK_CREATE", ret);
	if (ret < 0)
		return;
	if (ring != ring_fd_now)
		FAIL("iteration %lu: a kind attached to fd %d, which is no "
		     "ring", cur_iter, ring);
	if (ring_no_bpf)
		FAIL("iteration %lu: a kind attached to an SQPOLL, IOPOLL or "
		     "CQE32 ring", cur_iter);
	if (kind >= IORING_CORO_MAX_KINDS)
		FAIL("iteration %lu: kind %u attached", cur_iter, kind);
	if (kind_link[kind] >= 0)
		FAIL("iteration %lu: kind %u attached twice (-EBUSY wanted)",
		     cur_iter, kind);
	if (prog != prog_fd && prog != prog_s_fd)
		FAIL("iteration %lu: fd %d, no step, attached as kind %u",
		     cur_iter, prog, kind);
	link_made((int)ret, kind);
}

/* the steps attached as 1 to 8 kinds, mostly of the first eight */
void fz_good_attach(void)
{
	unsigned int i, nr = 1 + below(8);

	for (i = 0; i < nr; i++) {
		bool sleepable = one_in(6);
		uint32_t kind = one_in(4) ? below(IORING_CORO_MAX_KINDS) :
					    below(8);
		struct iocoro co;
		int ret;

		hash_u64(kind << 1 | sleepable);
		memset(&co, 0, sizeof(co));
		co.ring.ring_fd = ring_fd_now;
		ret = iocoro_kind_attach(&co, sleepable ? step_s_prog :
					 step_prog, kind);
		judge_link(ring_fd_now, kind, sleepable ? prog_s_fd : prog_fd,
			   ret);
		if (ret < 0 && kind_link[kind] < 0 && !ring_no_bpf)
			FAIL("iteration %lu: attaching a step as free kind %u "
			     "of a ring with nothing in flight: %d", cur_iter,
			     kind, ret);
	}
}

/* a ring fd for a map: the ring mostly */
static int fz_ring_arg(void)
{
	switch (below(10)) {
	case 0:
		return closed_fd();
	case 1:
		return pool[below(pool_nr)];
	case 2:
		return map_fd;
	case 3:
		return -1;
	case 4:
		/* never open */
		return (int)(rnd() | 0x100000);
	default:
		return ring_fd_now;
	}
}

/* a step for a map: the steps mostly */
static int fz_prog_arg(void)
{
	switch (below(10)) {
	case 0:
		return prog_other_fd;
	case 1:
		return map_fd;
	case 2:
		return closed_fd();
	case 3:
		return one_in(2) ? -1 : (int)(rnd() | 0x100000);
	case 4:
		return prog_s_fd;
	default:
		return prog_fd;
	}
}

/* a map of random ring, step and kind, judged: fd or -errno */
static int fz_rand_map(int *ring, int *prog, uint32_t *kind)
{
	int fd;

	*ring = fz_ring_arg();
	*prog = fz_prog_arg();
	*kind = one_in(6) ? (one_in(2) ? rnd() : IORING_CORO_MAX_KINDS +
			     below(2)) : fz_kind();
	hash_u64((uint64_t)(uint32_t)*ring << 32 | (uint32_t)*prog);
	hash_u64(*kind);
	fd = fz_map(*ring, *prog, *kind);
	check_ret("an io_coro_ops map", fd);
	if (fd < 0)
		return fd;
	if (*kind >= IORING_CORO_MAX_KINDS)
		FAIL("iteration %lu: an io_coro_ops map of kind %u was "
		     "made", cur_iter, *kind);
	if (*prog != prog_fd && *prog != prog_s_fd)
		FAIL("iteration %lu: an io_coro_ops map of fd %d, no step, "
		     "was made", cur_iter, *prog);
	return fd;
}

/* BPF_LINK_CREATE of a random map, random flags now and then */
static void fz_link_create(void)
{
	union bpf_attr attr;
	uint32_t kind;
	int map, ring, prog;
	long ret;

	map = fz_rand_map(&ring, &prog, &kind);
	if (map < 0)
		return;
	memset(&attr, 0, sizeof(attr));
	struct_ops_link_create_attr(&attr, map);
	if (one_in(8))
		attr.link_create.flags = rnd();
	if (one_in(16))
		attr.link_create.target_fd = fz_fd();
	/* not the map's fd: requests in flight may take fd numbers */
	hash_u64(attr.link_create.flags);
	hash_u64(attr.link_create.target_fd);
	ret = sys_bpf(BPF_LINK_CREATE, &attr);
	judge_link(ring, kind, prog, ret);
	/* the same map once more: registered already */
	if (ret >= 0 && one_in(4)) {
		ret = sys_bpf(BPF_LINK_CREATE, &attr);
		check_ret("BPF_LINK_CREATE", ret);
		if (ret >= 0)
			FAIL("iteration %lu: one io_coro_ops map attached "
			     "by two links", cur_iter);
	}
	close(map);
}

/* one of this iteration's links, or -1 */
static int pick_link(void)
{
	return nr_links ? (int)below(nr_links) : -1;
}

/* BPF_LINK_UPDATE of a link (or another fd) with a random map */
static void fz_link_update(void)
{
	union bpf_attr attr;
	struct fz_link *l;
	uint32_t kind;
	int i, fd, map, ring, prog;
	long ret;

	i = pick_link();
	map = fz_rand_map(&ring, &prog, &kind);
	if (map < 0)
		return;
	memset(&attr, 0, sizeof(attr));
	fd = i < 0 || one_in(8) ? fz_fd() : links[i].fd;
	struct_ops_link_update_attr(&attr, fd, map);
	hash_u64(i);
	if (one_in(8)) {
		attr.link_update.flags = one_in(2) ? BPF_F_REPLACE : rnd();
		struct_ops_link_update_old(&attr, one_in(2) ? map : fz_fd());
		hash_u64(attr.link_update.flags);
	}
	ret = sys_bpf(BPF_LINK_UPDATE, &attr);
	check_ret("BPF_LINK_UPDATE", ret);
	close(map);
	if (ret < 0)
		return;
	st.updates_ok++;
	l = i >= 0 && fd == links[i].fd ? &links[i] : NULL;
	if (!l)
		FAIL("iteration %lu: BPF_LINK_UPDATE of fd %d, none of our "
		     "links, worked", cur_iter, fd);
	if (!l->attached)
		FAIL("iteration %lu: BPF_LINK_UPDATE of a detached link "
		     "worked", cur_iter);
	if (ring != ring_fd_now || kind != l->kind)
		FAIL("iteration %lu: BPF_LINK_UPDATE of kind %u moved it to "
		     "kind %u of fd %d", cur_iter, l->kind, kind, ring);
}

/* a link detached (BPF_LINK_DETACH) or closed: its kind is free */
static void fz_link_destroy(void)
{
	int i = pick_link();
	struct fz_link *l;

	if (i < 0)
		return;
	l = &links[i];
	st.destroys++;
	hash_u64(i);
	if (one_in(3)) {
		long ret = bpf_link_detach(l->fd) ? -errno : 0;

		hash_u64(1);
		check_ret("BPF_LINK_DETACH", ret);
		if (l->attached && ret)
			FAIL("iteration %lu: BPF_LINK_DETACH of kind %u: %ld",
			     cur_iter, l->kind, ret);
		if (l->attached && kind_link[l->kind] == l->fd)
			kind_link[l->kind] = -1;
		l->attached = false;
	} else {
		hash_u64(2);
		close(l->fd);
		if (l->attached && kind_link[l->kind] == l->fd)
			kind_link[l->kind] = -1;
		links[i] = links[--nr_links];
	}
}

void fz_kind_op(void)
{
	st.kind_ops++;
	switch (below(8)) {
	case 0:
	case 1:
		fz_link_update();
		break;
	case 2:
	case 3:
		fz_link_destroy();
		break;
	case 4: {
		/* libiocoro: kinds out of range are its -EINVAL */
		uint32_t kind = fz_kind();
		struct iocoro co;
		int ret;

		hash_u64(kind);
		memset(&co, 0, sizeof(co));
		co.ring.ring_fd = ring_fd_now;
		ret = iocoro_kind_attach(&co, step_prog, kind);
		judge_link(ring_fd_now, kind, prog_fd, ret);
		break;
	}
	default:
		fz_link_create();
	}
}

void fz_kind_churn(void)
{
	unsigned int i, n = 1 + below(3);

	for (i = 0; i < n; i++) {
		if (one_in(3))
			fz_link_update();
		else if (one_in(2))
			fz_link_destroy();
		else
			fz_link_create();
	}
}
