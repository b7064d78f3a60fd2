// SPDX-License-Identifier: MIT
/*
 * uring_btree [--pread | --uring] [--stats] [--inflight Q] [--direct]
 *             [--random N [--seed S]] FILE [KEY...]
 *
 * btree-lookup's peers, deciding in user space: the walks of
 * `btree-lookup lookup` (apps/btree-lookup) on the same tree files, with
 * the same keys, answers, errors and --stats line (btree-run.c, shared
 * with it), each node judged by the same binary search (btree_step()
 * through btree_walk_judge()):
 *
 *   --uring (default)  an io_uring loop at the same lookups in flight
 *                      (--inflight Q, default 256): queue the reads of all
 *                      lookups in flight, one io_uring_submit_and_wait(),
 *                      reap, judge, queue the next level or, for a lookup
 *                      that ended, the next lookup's root; the ring set up
 *                      as every iocoro ring (peer_ring.h)
 *   --pread            a pread() loop, one lookup after the other
 *
 * --direct reads the nodes with O_DIRECT. Exit status as btree-lookup's:
 * 0 every lookup answered; 1 a file error, a corrupt node or a failed
 * read; 2 bad usage.
 */
#include <liburing.h>

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "btree-run.h"
#include "peer_ring.h"

#define UB_NAME "uring_btree"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: " UB_NAME " [--pread|--uring] [--stats] [--inflight Q] [--direct]\n"
		"                   [--random N [--seed S]] FILE [KEY...]\n"
		"Look keys up in a tree file of btree-lookup build, deciding in user\n"
		"space: btree-lookup's benchmark peer.\n"
		"\n"
		"  --uring        an io_uring loop, Q lookups in flight (the default)\n"
		"  --pread        a pread() loop, one lookup at a time\n"
		"  --seed S       with --random: the seed of the keys picked\n");
	btree_usage_lookup(f);
}

/* ---- --pread ---- */

static int run_pread(const struct btree_file *f, struct btree_run *run)
{
	struct btree_node *n = btree_bufs(1);
	struct btree_result *r;

	if (!n)
		return -ENOMEM;
	while ((r = btree_run_start(run, 0))) {
		btree_pread_lookup(f, n, r, &run->st.reads);
		btree_run_end(run, 0);
	}
	run->st.steps = run->st.reads;
	btree_bufs_free(n, 1);
	return 0;
}

/* ---- --uring ---- */

struct ub_uring {
	struct io_uring ring;
	const struct btree_file *f;
	char *bufs;
	struct btree_walk walks[BTREE_MAX_INFLIGHT];
};

static void queue_read(struct ub_uring *u, uint32_t id)
{
	/* one SQE per slot at most, and as many SQEs as slots: never NULL */
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

	io_uring_prep_read(sqe, u->f->fd,
			   u->bufs + (size_t)id * BTREE_NODE_SIZE,
			   BTREE_NODE_SIZE, u->walks[id].off);
	io_uring_sqe_set_data64(sqe, id);
	u->walks[id].reads++;
}

/* slot @id takes the next lookup, if one is left: its root's read */
static int start_lookup(struct ub_uring *u, struct btree_run *run,
			uint32_t id)
{
	if (!btree_run_start(run, id))
		return 0;
	btree_walk_start(u->f, &u->walks[id]);
	queue_read(u, id);
	return 1;
}

/* judge each node read; a walk that ended gives its slot to the next */
static void reap(struct ub_uring *u, struct btree_run *run)
{
	struct io_uring_cqe *cqe;
	unsigned int head, seen = 0;
	uint32_t id;

	io_uring_for_each_cqe(&u->ring, head, cqe) {
		const struct btree_node *n;

		seen++;
		id = (uint32_t)cqe->user_data;
		n = (const void *)(u->bufs + (size_t)id * BTREE_NODE_SIZE);
		run->st.steps++;
		if (!btree_walk_judge(u->f, &u->walks[id], n, cqe->res,
				      btree_run_slot(run, id))) {
			queue_read(u, id);
			continue;
		}
		run->st.reads += u->walks[id].reads;
		btree_run_end(run, id);
		start_lookup(u, run, id);
	}
	io_uring_cq_advance(&u->ring, seen);
}

/* one io_uring_enter(): submit what is queued, wait for one CQE */
static int enter(struct ub_uring *u, struct btree_stats *st)
{
	int ret = io_uring_submit_and_wait(&u->ring, 1);

	st->enters++;
	if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
		return ret;
	return 0;
}

static int run_uring(const struct btree_file *f, uint32_t inflight,
		     struct btree_run *run)
{
	struct ub_uring *u = calloc(1, sizeof(*u));
	uint32_t id;
	int ret;

	if (!u)
		return -ENOMEM;
	u->f = f;
	ret = -ENOMEM;
	u->bufs = btree_bufs(inflight);
	if (!u->bufs)
		goto out;
	/* the coroutine's ring setup, so that only the deciding differs */
	ret = peer_queue_init(inflight, &u->ring, 0);
	if (ret < 0)
		goto out;
	for (id = 0; id < inflight && start_lookup(u, run, id); id++)
		;
	while (!ret && !btree_run_over(run)) {
		ret = enter(u, &run->st);
		if (!ret)
			reap(u, run);
	}
	io_uring_queue_exit(&u->ring);
out:
	btree_bufs_free(u->bufs, inflight);
	free(u);
	return ret;
}

/* btree_prog.run */
static int ub_run(const struct btree_opts *o, const struct btree_file *f,
	       struct btree_run *run)
{
	if (o->mode == BTREE_MODE_PREAD)
		return run_pread(f, run);
	return run_uring(f, o->inflight, run);
}

static const struct btree_prog prog = {
	.name = UB_NAME,
	.opts = BTREE_OPT_MODES,
	.usage = usage,
	.run = ub_run,
};

int main(int argc, char **argv)
{
	struct btree_opts o = {
		.mode = BTREE_MODE_URING,
		.inflight = BTREE_DEFAULT_INFLIGHT,
	};
	int ret;

	ret = btree_parse_opts(&prog, argc, argv, &o);
	if (ret)
		return ret < 0 ? 0 : ret;
	return btree_lookup_main(&prog, &o, argc - optind, argv + optind);
}
