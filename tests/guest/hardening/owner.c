// SPDX-License-Identifier: MIT
/* The hardening suite, item 3. owner (hardening.h) */
#include "hardening.h"


/* the child of owner: the checks, then exit 0 (a failed CHECK exits 1) */
static void owner_child_nobody(struct io_uring *ring,
			       struct hardening_bpf *skel)
{
	struct io_uring_cqe cqe;
	struct io_uring own;
	int fd = uring_prog_fd(skel->progs.tag_a);

	become_nobody();
	CHECK_EQ(uring_set_budget(ring, 5), -EPERM);
	CHECK_EQ(uring_detach(ring), -EPERM);
	uring_prep_bpf(ring, 0, UD_BPF);
	uring_submit(ring, 1);
	uring_reap(ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, -EPERM);
	CHECK_EQ(skel->bss->ta_runs, 0);
	/* attach still needs CAP_BPF, on a ring of its own too */
	uring_init(&own, 4, 0);
	CHECK_EQ(uring_attach(&own, &fd, 1), -EPERM);
	io_uring_queue_exit(&own);
	_exit(0);
}

static void owner_child_same_euid(struct io_uring *ring,
				  struct hardening_bpf *skel)
{
	struct io_uring_cqe cqe;
	struct caps none;

	/* euid 0 like the attacher, but no capability at all */
	memset(&none, 0, sizeof(none));
	caps_set(&none);
	CHECK(caps_effective_empty());
	CHECK_EQ(uring_set_budget(ring, 77), 0);
	uring_prep_bpf(ring, 0, UD_BPF);
	uring_submit(ring, 1);
	uring_reap(ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, 77);
	CHECK_EQ(skel->bss->ta_runs, 2);
	_exit(0);
}

static void run_owner_child(struct io_uring *ring, struct hardening_bpf *skel,
			    void (*fn)(struct io_uring *,
				       struct hardening_bpf *),
			    const char *what)
{
	int p[2], status;
	pid_t pid;

	pid = uring_fork_with_pipe(p);
	if (!pid)
		fn(ring, skel);
	close(p[0]);
	if (!uring_reap_child_ms(pid, LIVE_BOUND_MS, &status)) {
		uring_dump_task(pid);
		kill(pid, SIGKILL);
		FAIL("%s: the child did not end", what);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		FAIL("%s: the child's checks failed (wait status 0x%x, above)",
		     what, status);
	uring_sync_sq(ring);
}

IOCORO_CASE(owner)
{
	struct hardening_bpf *skel = skel_load();
	struct io_uring_cqe cqe;
	struct io_uring ring;

	uring_init(&ring, 8, 0);
	attach1(&ring, skel->progs.tag_a);
	skel->bss->ta_ret = 77;

	run_owner_child(&ring, skel, owner_child_nobody, "uid nobody");
	/* nothing changed: the table, its budget; no run */
	check_fdinfo_line(&ring, "BpfProgs:\t1\n");
	check_fdinfo_budget(&ring, IORING_BPF_DEFAULT_BUDGET);
	CHECK_EQ(skel->bss->ta_runs, 0);
	uring_reap(&ring, NULL, 0);

	/* the attacher */
	uring_prep_bpf(&ring, 0, UD_BPF);
	uring_submit(&ring, 1);
	uring_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, 77);
	CHECK_EQ(skel->bss->ta_runs, 1);

	run_owner_child(&ring, skel, owner_child_same_euid,
			"euid 0 without capabilities");
	check_fdinfo_budget(&ring, 77);
	CHECK_EQ(skel->bss->ta_runs, 2);
	uring_reap(&ring, NULL, 0);

	CHECK_EQ(uring_detach(&ring), 0);
	io_uring_queue_exit(&ring);
	hardening_bpf__destroy(skel);
}
