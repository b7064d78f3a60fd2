// SPDX-License-Identifier: MIT
/*
 * Who may use a kind: a task that inherited the ring fd but is neither
 * the kind's attacher (its euid) nor CAP_BPF gets -EPERM for a start
 * (with or without a budget; the step does not run), cannot reach the
 * kind's link or map by id, attach, take or replace a kind (-EPERM); the
 * same euid without capabilities may start, and still not attach or
 * replace. Steps tag_a and tag_b of kinds.bpf.c.
 */
#include "kinds.h"

/* ids of the kind's link and of its io_coro_ops map */
struct owner_ids {
	__u32 link;
	__u32 map;
};

static struct owner_ids owner_ids_of(int link)
{
	struct bpf_link_info info;
	__u32 len = sizeof(info);
	struct owner_ids ids;

	memset(&info, 0, sizeof(info));
	CHECK_EQ(bpf_obj_get_info_by_fd(link, &info, &len), 0);
	CHECK_EQ(info.type, BPF_LINK_TYPE_STRUCT_OPS);
	ids.link = info.id;
	ids.map = struct_ops_link_info_map_id(&info);
	return ids;
}

/* a start of tag_a (K_MAIN) with budget @budget: its CQE's result */
static int owner_start(struct io_uring *ring, unsigned int budget)
{
	return uring_start_res(ring, K_MAIN, UD_BPF, budget);
}

/*
 * Neither a new kind on @co's ring nor a new program in @link's place:
 * both need a new io_coro_ops map, which needs CAP_BPF
 */
static void owner_no_attach(struct iocoro *co, struct kinds_bpf *skel,
			    int link)
{
	struct iocoro own;

	CHECK_EQ(iocoro_kind_attach(co, skel->progs.tag_b, K_OTHER), -EPERM);
	CHECK_EQ(iocoro_kind_attach(co, skel->progs.tag_b, K_MAIN), -EPERM);
	CHECK_EQ(iocoro_kind_update(link, co, skel->progs.tag_b, K_MAIN),
		 -EPERM);
	/* on a ring of its own too */
	uring_co_init(&own, 4, 0);
	CHECK_EQ(iocoro_kind_attach(&own, skel->progs.tag_b, K_MAIN), -EPERM);
	io_uring_queue_exit(&own.ring);
}

/*
 * The child of owner, uid nobody: the checks, then exit 0 (a failed CHECK
 * exits 1). With its copy of the link it cannot replace the program; once
 * it closed it, the ring fd leads to no link.
 */
static void owner_child_nobody(struct iocoro *co, struct kinds_bpf *skel,
			       int link)
{
	struct owner_ids ids = owner_ids_of(link);

	become_nobody();
	/* a start, with the default budget or one of its own */
	CHECK_EQ(owner_start(&co->ring, 0), -EPERM);
	CHECK_EQ(owner_start(&co->ring, 5), -EPERM);
	CHECK_EQ(skel->bss->ta_runs, 0);
	owner_no_attach(co, skel, link);
	CHECK_SYS(close(link));
	/* by id, the link and its map are refused */
	CHECK_EQ(bpf_link_get_fd_by_id(ids.link), -EPERM);
	CHECK_EQ(bpf_map_get_fd_by_id(ids.map), -EPERM);
	CHECK_EQ(skel->bss->tb_runs, 0);
	_exit(0);
}

/* euid 0 like the attacher, no capability at all, the link fd kept */
static void owner_child_same_euid(struct iocoro *co,
				  struct kinds_bpf *skel, int link)
{
	struct caps none;

	memset(&none, 0, sizeof(none));
	caps_set(&none);
	CHECK(caps_effective_empty());
	CHECK_EQ(owner_start(&co->ring, 77), 77);
	CHECK_EQ(skel->bss->ta_runs, 2);
	owner_no_attach(co, skel, link);
	CHECK_EQ(skel->bss->tb_runs, 0);
	_exit(0);
}

static void run_owner_child(struct iocoro *co, struct kinds_bpf *skel,
			    int link,
			    void (*fn)(struct iocoro *, struct kinds_bpf *,
				       int),
			    const char *what)
{
	int p[2], status;
	pid_t pid;

	pid = uring_fork_with_pipe(p);
	if (!pid)
		fn(co, skel, link);
	close(p[0]);
	if (!uring_reap_child_ms(pid, LIVE_BOUND_MS, &status)) {
		uring_dump_task(pid);
		kill(pid, SIGKILL);
		FAIL("%s: the child did not end", what);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		FAIL("%s: the child's checks failed (wait status 0x%x, above)",
		     what, status);
	uring_sync_sq(&co->ring);
}

IOCORO_CASE(owner)
{
	struct kinds_bpf *skel = kinds_load();
	struct iocoro co;
	int link;

	link = uring_co_attach(&co, 8, 0, skel->progs.tag_a, K_MAIN);
	skel->bss->ta_ret = 77;
	skel->bss->tb_ret = 88;

	run_owner_child(&co, skel, link, owner_child_nobody, "uid nobody");
	/* nothing changed: the kind is tag_a's, K_OTHER free; no run */
	CHECK_EQ(skel->bss->ta_runs, 0);
	uring_reap(&co.ring, NULL, 0);

	/* the attacher */
	CHECK_EQ(owner_start(&co.ring, 0), 77);
	CHECK_EQ(skel->bss->ta_runs, 1);

	run_owner_child(&co, skel, link, owner_child_same_euid,
			"euid 0 without capabilities");
	CHECK_EQ(skel->bss->ta_runs, 2);
	uring_reap(&co.ring, NULL, 0);

	/* still tag_a's kind, and K_OTHER still free for the attacher */
	CHECK_EQ(owner_start(&co.ring, 0), 77);
	CHECK_EQ(skel->bss->ta_runs, 3);
	CHECK_SYS(close(uring_attach(&co, skel->progs.tag_b, K_OTHER)));
	CHECK_EQ(skel->bss->tb_runs, 0);

	CHECK_SYS(close(link));
	io_uring_queue_exit(&co.ring);
	kinds_bpf__destroy(skel);
}
