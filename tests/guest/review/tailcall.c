// SPDX-License-Identifier: MIT
/*
 * Finding 1 (the blocker): 6.12's __bpf_prog_map_compatible() ignored
 * whether a program is sleepable, so a non-sleepable IOURING program could
 * tail-call a sleepable one, which then slept under the caller's
 * rcu_read_lock() ("BUG: sleeping function called from invalid context").
 * A program array now refuses to mix them, in either order.
 */
#include "review.h"
#include "tailcall.skel.h"

/* tailcall.bpf.c opened, its sleepable callee flagged, not loaded */
static struct tailcall_bpf *tc_open(void)
{
	struct tailcall_bpf *skel;
	struct bpf_program *prog;

	uring_bpf_register_sec();
	skel = tailcall_bpf__open();
	if (!skel)
		FAIL("tailcall_bpf__open: %s", strerror(errno));
	prog = skel->progs.tc_callee_sleepable;
	CHECK_EQ(bpf_program__set_flags(prog, bpf_program__flags(prog) |
						      BPF_F_SLEEPABLE),
		 0);
	return skel;
}

/* IORING_OP_BPF of the caller (table index 0): its result */
static int tc_run(struct tailcall_bpf *skel)
{
	struct io_uring_cqe cqe;
	struct io_uring ring;

	uring_init(&ring, 8, 0);
	uring_attach_object(&ring, skel->obj);
	uring_prep_bpf(&ring, 0, 1);
	uring_submit(&ring, 1);
	uring_reap(&ring, &cqe, 1);
	io_uring_queue_exit(&ring);
	return cqe.res;
}

/* the caller owns tc_progs: a sleepable callee is refused, another not */
IOCORO_CASE(tailcall_sleepable)
{
	struct tailcall_bpf *skel = tc_open();
	int map, key = 0, fd;
	static char page[8] = "iocoro";

	CHECK_RET(tailcall_bpf__load(skel));
	skel->bss->tc_addr = (uintptr_t)page;
	map = bpf_map__fd(skel->maps.tc_progs);

	fd = bpf_program__fd(skel->progs.tc_callee_sleepable);
	CHECK_EQ(bpf_map_update_elem(map, &key, &fd, BPF_ANY), -EINVAL);
	/* nothing was stored: the tail call finds no program */
	CHECK_EQ(tc_run(skel), -ENOENT);

	fd = bpf_program__fd(skel->progs.tc_callee);
	CHECK_RET(bpf_map_update_elem(map, &key, &fd, BPF_ANY));
	CHECK_EQ(tc_run(skel), 42);
	tailcall_bpf__destroy(skel);
}

/*
 * A sleepable program stored first in an array owns it: a non-sleepable
 * program that tail-calls through it does not load.
 */
IOCORO_CASE(tailcall_sleepable_first)
{
	struct tailcall_bpf *callee = tc_open(), *caller;
	int map, key = 0, fd;

	/* the callee's own object: its tc_progs is owned by tc_caller */
	CHECK_RET(tailcall_bpf__load(callee));
	map = bpf_map_create(BPF_MAP_TYPE_PROG_ARRAY, "tc_first",
			     sizeof(__u32), sizeof(__u32), 1, NULL);
	CHECK_RET(map);
	fd = bpf_program__fd(callee->progs.tc_callee_sleepable);
	CHECK_RET(bpf_map_update_elem(map, &key, &fd, BPF_ANY));

	caller = tc_open();
	CHECK_RET(bpf_map__reuse_fd(caller->maps.tc_progs, map));
	CHECK(tailcall_bpf__load(caller) < 0);
	tailcall_bpf__destroy(caller);
	close(map);
	tailcall_bpf__destroy(callee);
}
