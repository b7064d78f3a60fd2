// SPDX-License-Identifier: MIT
/*
 * Tail calls between steps. A program array refuses to mix sleepable and
 * non-sleepable steps, in either order (kernel patch 0001: 6.12's
 * __bpf_prog_map_compatible() ignores whether a program is sleepable, and
 * a sleepable callee would sleep under its caller's rcu_read_lock()).
 * Steps may tail-call: bpf_tail_call() is among the base helpers
 * io_coro_ops gives them, and the callee runs as the caller's kind. A
 * sleepable step cannot use a program array at all, so an array's first
 * program decides for good whether its callees are sleepable.
 */
#include "guest.h"
#include "tailcall.skel.h"
#include "tailcall_sleepy.skel.h"

/* the kind tc_run() attaches the caller as */
#define TC_KIND 5

/* tailcall.bpf.c opened, its sleepable callee flagged, not loaded */
static struct tailcall_bpf *tc_open(void)
{
	struct tailcall_bpf *skel;

	skel = SKEL_OPEN(tailcall_bpf);
	CHECK_EQ(iocoro_object_prepare(skel->obj, NULL), 3);
	CHECK(bpf_program__flags(skel->progs.tc_callee_sleepable) &
	      BPF_F_SLEEPABLE);
	CHECK(!(bpf_program__flags(skel->progs.tc_caller) & BPF_F_SLEEPABLE));
	return skel;
}

/* IORING_OP_BPF of the caller (kind TC_KIND): its result */
static int tc_run(struct tailcall_bpf *skel)
{
	struct io_uring_cqe cqe;
	struct iocoro co;
	int link;

	link = uring_co_attach(&co, 8, 0, skel->progs.tc_caller, TC_KIND);
	uring_prep_start(&co.ring, TC_KIND, 1);
	uring_submit(&co.ring, 1);
	uring_reap(&co.ring, &cqe, 1);
	CHECK_EQ_U64(cqe.user_data, 1);
	close(link);
	io_uring_queue_exit(&co.ring);
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
	CHECK_EQ(tc_run(skel), TC_KIND + 42);
	/* and the sleepable one still cannot take its place */
	fd = bpf_program__fd(skel->progs.tc_callee_sleepable);
	CHECK_EQ(bpf_map_update_elem(map, &key, &fd, BPF_ANY), -EINVAL);
	CHECK_EQ(tc_run(skel), TC_KIND + 42);
	tailcall_bpf__destroy(skel);
}

/*
 * A program array whose first program is @first: a caller that
 * tail-calls through it loads only when @first is not sleepable.
 * Returns the caller's load result; a loaded caller is run, its result in
 * *@res.
 */
static int tc_first(const struct bpf_program *first, int *res)
{
	struct tailcall_bpf *caller;
	int map, key = 0, fd, ret;

	map = bpf_map_create(BPF_MAP_TYPE_PROG_ARRAY, "tc_first",
			     sizeof(__u32), sizeof(__u32), 1, NULL);
	CHECK_RET(map);
	fd = bpf_program__fd(first);
	CHECK_RET(bpf_map_update_elem(map, &key, &fd, BPF_ANY));

	caller = tc_open();
	CHECK_RET(bpf_map__reuse_fd(caller->maps.tc_progs, map));
	ret = tailcall_bpf__load(caller);
	if (!ret)
		*res = tc_run(caller);
	tailcall_bpf__destroy(caller);
	close(map);
	return ret;
}

/*
 * A sleepable step stored first in an array owns it: a non-sleepable
 * step that tail-calls through it does not load (-EINVAL). With a
 * non-sleepable one stored first, the same caller loads and tail-calls.
 */
IOCORO_CASE(tailcall_sleepable_first)
{
	struct tailcall_bpf *callee = tc_open();
	int res = 0;

	/* the callees' own object: its tc_progs is owned by its tc_caller */
	CHECK_RET(tailcall_bpf__load(callee));
	CHECK_EQ(tc_first(callee->progs.tc_callee_sleepable, &res),
		 -EINVAL);
	CHECK_EQ(tc_first(callee->progs.tc_callee, &res), 0);
	CHECK_EQ(res, TC_KIND + 42);
	tailcall_bpf__destroy(callee);
}

/*
 * A sleepable step that tail-calls is refused by the verifier: no array
 * is ever owned by a sleepable caller.
 */
IOCORO_CASE(tailcall_sleepable_caller)
{
	static char log[1 << 16];
	struct iocoro_load_opts opts = {
		.sz = sizeof(opts),
		.log_buf = log,
		.log_size = sizeof(log),
	};
	struct tailcall_sleepy_bpf *skel;

	skel = SKEL_OPEN(tailcall_sleepy_bpf);
	CHECK_EQ(iocoro_object_prepare(skel->obj, &opts), 1);
	CHECK(bpf_program__flags(skel->progs.ts_caller) & BPF_F_SLEEPABLE);
	CHECK_EQ(tailcall_sleepy_bpf__load(skel), -EINVAL);
	if (!strstr(log, "Sleepable programs can only use array, hash"))
		FAIL("not refused for its program array: %s", log);
	tailcall_sleepy_bpf__destroy(skel);
}
