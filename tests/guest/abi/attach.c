// SPDX-License-Identifier: MIT
/*
 * Kinds attached by bpf_link (BPF_STRUCT_OPS of an io_coro_ops map): a
 * taken kind, kinds out of range, fds that are no ring, programs that are
 * no step, all IORING_CORO_MAX_KINDS kinds at once, destroying the link,
 * and what the link shows of its kind
 */
#include "abi.h"

/* all 64 kinds attach and run; a start of kind 64 fails */
IOCORO_CASE(attach_all_kinds)
{
	struct abi_bpf *skel = skel_load();
	int links[MAX_KINDS];
	struct io_uring ring;
	unsigned int i;

	uring_init(&ring, 8, 0);
	for (i = 0; i < MAX_KINDS; i++)
		links[i] = kind_attach_ok(&ring, skel->progs.nothing, i);

	CHECK_EQ(run_bpf(&ring, 0), 0);
	CHECK_EQ(run_bpf(&ring, MAX_KINDS - 1), 0);
	CHECK_EQ(skel->bss->runs, 2);
	CHECK_EQ(run_bpf(&ring, MAX_KINDS), -EBADF);
	CHECK_EQ(skel->bss->runs, 2);

	for (i = 0; i < MAX_KINDS; i++)
		close(links[i]);
	CHECK_EQ(run_bpf(&ring, 0), -EBADF);
	abi_down(&ring, skel, -1);
}

/*
 * a kind past IORING_CORO_MAX_KINDS: libiocoro refuses it (-EINVAL), and
 * so does the kernel when the map is given it (-E2BIG); nothing attached
 */
IOCORO_CASE(attach_kind_range)
{
	static const __u32 bad[] = { MAX_KINDS, MAX_KINDS + 1, 1U << 31, ~0U };
	struct abi_bpf *skel = skel_load();
	struct io_uring ring;
	unsigned int i;
	int prog, link;

	uring_init(&ring, 8, 0);
	prog = bpf_program__fd(skel->progs.nothing);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int ret;

		CHECK_EQ(kind_attach(ring.ring_fd, skel->progs.nothing, bad[i]),
			 -EINVAL);
		ret = kind_map_raw(ring.ring_fd, prog, bad[i]);
		if (ret != -E2BIG)
			FAIL("an io_coro_ops map of kind %u: %d, want -E2BIG",
			     bad[i], ret);
	}
	CHECK_EQ(run_bpf(&ring, 0), -EBADF);
	CHECK_EQ(skel->bss->runs, 0);

	/* control: the same raw attach of kind 63 works */
	link = kind_attach_raw(ring.ring_fd, prog, MAX_KINDS - 1);
	CHECK(link >= 0);
	CHECK_EQ(run_bpf(&ring, MAX_KINDS - 1), 0);
	CHECK_EQ(skel->bss->runs, 1);
	abi_down(&ring, skel, link);
}

/*
 * a program that is no io_coro_ops step (a socket filter, a step of the
 * wrong member) -> -EINVAL from the map; nothing attached
 */
IOCORO_CASE(attach_wrong_type)
{
	struct io_uring ring;
	int fd, link;

	uring_init(&ring, 8, 0);
	fd = load_raw_ok(BPF_PROG_TYPE_SOCKET_FILTER, "sockfilter");
	CHECK_EQ(kind_map_raw(ring.ring_fd, fd, 0), -EINVAL);
	close(fd);
	CHECK_EQ(run_bpf(&ring, 0), -EBADF);

	/* the same program as a step is accepted (control) */
	fd = load_raw_step("raw_step");
	CHECK(fd >= 0);
	link = kind_attach_raw(ring.ring_fd, fd, 0);
	CHECK(link >= 0);
	CHECK_EQ(run_bpf(&ring, 0), 0);
	close(link);
	close(fd);
	io_uring_queue_exit(&ring);
}

/*
 * a ring fd that is not an io_uring (/dev/null, a BPF map, the step
 * itself), a closed one, a negative one -> -EBADF at BPF_LINK_CREATE
 */
IOCORO_CASE(attach_not_ring_fd)
{
	struct abi_bpf *skel = skel_load();
	struct io_uring ring;
	int fds[6];
	unsigned int i;
	int link;

	uring_init(&ring, 8, 0);
	fds[0] = devnull();
	fds[1] = bpf_map__fd(skel->maps.bss);
	fds[2] = bpf_program__fd(skel->progs.nothing);
	fds[3] = uring_closed_fd();
	fds[4] = -2;
	fds[5] = 1 << 20;
	for (i = 0; i < ARRAY_SIZE(fds); i++) {
		int ret = kind_attach(fds[i], skel->progs.nothing, 0);

		if (ret != -EBADF)
			FAIL("attaching a kind to fd %d: %d, want -EBADF",
			     fds[i], ret);
	}
	close(fds[0]);
	CHECK_EQ(run_bpf(&ring, 0), -EBADF);

	/* control: the ring's own fd */
	link = kind_attach_ok(&ring, skel->progs.nothing, 0);
	CHECK_EQ(run_bpf(&ring, 0), 0);
	abi_down(&ring, skel, link);
}

/* a taken kind -> -EBUSY, the first step stays; free again once its link goes */
IOCORO_CASE(attach_busy)
{
	struct abi_case c;
	int other;

	abi_up(&c, "nothing");
	CHECK_EQ(kind_attach(c.ring.ring_fd, c.skel->progs.q_nop, 0), -EBUSY);
	/* the same step is no different */
	CHECK_EQ(kind_attach(c.ring.ring_fd, c.skel->progs.nothing, 0), -EBUSY);

	/* kind 0 is still "nothing": it runs and queues no NOP */
	c.skel->bss->nop_ud = UD_NOP;
	CHECK_EQ(run_bpf(&c.ring, 0), 0);
	CHECK_EQ(c.skel->bss->runs, 1);
	CHECK_EQ(c.skel->bss->nr_rc, 0);

	/* another kind of the same ring is free */
	other = kind_attach_ok(&c.ring, c.skel->progs.q_nop, 1);
	close(other);

	/* after the link went, attaching works again */
	close(c.link);
	c.link = kind_attach_ok(&c.ring, c.skel->progs.q_nop, 0);
	abi_end(&c);
}

/*
 * BPF_LINK_DETACH with the link's fd still open frees the kind as closing
 * it does: starts fail, the kind attaches again, the old link no longer
 * updates (-ENOLINK)
 */
IOCORO_CASE(attach_detach)
{
	struct abi_case c;
	struct iocoro co;
	int again;

	abi_up(&c, "nothing");
	CHECK_EQ(run_bpf(&c.ring, 0), 0);
	CHECK_EQ(bpf_link_detach(c.link), 0);
	CHECK_EQ(run_bpf(&c.ring, 0), -EBADF);
	CHECK_EQ(c.skel->bss->runs, 1);

	memset(&co, 0, sizeof(co));
	co.ring.ring_fd = c.ring.ring_fd;
	CHECK_EQ(iocoro_kind_update(c.link, &co, c.skel->progs.nothing, 0),
		 -ENOLINK);
	again = kind_attach_ok(&c.ring, c.skel->progs.nothing, 0);
	CHECK_EQ(run_bpf(&c.ring, 0), 0);
	CHECK_EQ(c.skel->bss->runs, 2);
	close(again);
	abi_end(&c);
}

/*
 * What the kernel shows of a kind: the link is a struct_ops link whose
 * map (named iocoro_kind by libiocoro) holds the step's program id, the
 * ring's fd and the kind
 */
IOCORO_CASE(attach_link_info)
{
	struct abi_bpf *skel = skel_load();
	struct bpf_link_info info;
	struct bpf_map_info minfo;
	unsigned char value[512];
	struct io_uring ring;
	char want[64], *fdinfo;
	__u32 len, id, kind;
	__u64 step;
	__s32 ring_fd;
	int link, map, zero = 0;

	uring_init(&ring, 8, 0);
	id = prog_id(bpf_program__fd(skel->progs.nothing));
	link = kind_attach_ok(&ring, skel->progs.nothing, 5);

	memset(&info, 0, sizeof(info));
	len = sizeof(info);
	CHECK_EQ(bpf_obj_get_info_by_fd(link, &info, &len), 0);
	CHECK_EQ(info.type, BPF_LINK_TYPE_STRUCT_OPS);
	CHECK(struct_ops_link_info_map_id(&info) != 0);
	map = bpf_map_get_fd_by_id(struct_ops_link_info_map_id(&info));
	CHECK(map >= 0);

	memset(&minfo, 0, sizeof(minfo));
	len = sizeof(minfo);
	CHECK_EQ(bpf_obj_get_info_by_fd(map, &minfo, &len), 0);
	CHECK_EQ(minfo.type, BPF_MAP_TYPE_STRUCT_OPS);
	if (strcmp(minfo.name, "iocoro_kind"))
		FAIL("the kind's map is named '%s', want 'iocoro_kind'",
		     minfo.name);
	CHECK(minfo.value_size <= sizeof(value));

	memset(value, 0xa5, sizeof(value));
	CHECK_EQ(bpf_map_lookup_elem(map, &zero, value), 0);
	kind_value(value, &step, &ring_fd, &kind);
	CHECK_EQ_U64(step, id);
	CHECK_EQ(ring_fd, ring.ring_fd);
	CHECK_EQ(kind, 5);

	/* the link's map is the kind: the step runs as kind 5 */
	CHECK_EQ(run_bpf(&ring, 5), 0);
	CHECK_EQ(skel->bss->runs, 1);

	/* the ring's fdinfo lists the kind with its link's id */
	snprintf(want, sizeof(want), "BpfKinds:\n%5u: link %u\n", 5,
		 info.id);
	fdinfo = uring_fdinfo(&ring);
	if (!strstr(fdinfo, want))
		FAIL("fdinfo lacks '%s':\n%s", want, fdinfo);
	close(map);
	close(link);
	fdinfo = uring_fdinfo(&ring);
	if (!strstr(fdinfo, "BpfKinds:\n") || strstr(fdinfo, ": link "))
		FAIL("fdinfo lists a kind whose link is closed:\n%s", fdinfo);
	abi_down(&ring, skel, -1);
}
