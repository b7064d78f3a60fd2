// SPDX-License-Identifier: MIT
/*
 * btree-lookup: B+tree lookups where each read depends on the data of the
 * read before (btree.h has the file format).
 *
 *   btree-lookup build [--seed S] [--fanout F] FILE N
 *   btree-lookup lookup [--stats] [--inflight Q] [--direct]
 *                       [--random N [--seed S]] FILE [KEY...]
 *
 * Each lookup is one coroutine of btree.bpf.c: the kernel reads the root
 * into a registered buffer, the program binary-searches it there
 * (reading only the keys it probes), picks the child and queues its
 * read, ... down to the leaf, and the coroutine's end says found or not.
 * Up to Q lookups run at once, each in a coroutine id of an
 * iocoro_window; all the lookups started since the last turn are
 * submitted with one io_uring_enter(), which also waits
 * (iocoro_submit_and_reap()). --direct reads the nodes with O_DIRECT:
 * each level is a read of the device, not of the page cache.
 *
 * The keys, the answers and --stats are btree-run.c's, shared with the
 * benchmark's user-space peer uring_btree (bench/btree/), which does the
 * same walks with a pread() or an io_uring loop and judges nodes with the
 * same binary search (btree.h: btree_step(), and its pieces in the
 * program).
 *
 * Output, in input order: "KEY VALUE" or "KEY not found". A corrupt node
 * or a failed read is one line on stderr naming the file, the node's
 * offset and the key. Exit status: 0 every lookup answered; 1 a file
 * error, a corrupt node or a failed read; 2 bad usage.
 */
#include <iocoro.h>

#include <bpf/libbpf.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "btree-run.h"
#include "tool.h"
#include "btree.skel.h"

#define BT_NAME		"btree-lookup"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: " BT_NAME " build [--seed S] [--fanout F] FILE N\n"
		"  or:  " BT_NAME " lookup [--stats] [--inflight Q] [--direct]\n"
		"                    [--random N [--seed S]] FILE [KEY...]\n"
		"Build a B+tree file of N 64-bit keys in 4 KiB nodes, or look keys up in\n"
		"one: each lookup is an in-kernel io_uring coroutine that reads a node,\n"
		"picks the child and reads it, down to the leaf.\n"
		"\n"
		"  --seed S       build: the keys' seed (default: random, printed);\n"
		"                 lookup --random: the seed of the keys picked\n"
		"  --fanout F     children of an inner node, keys of a leaf (2..255,\n"
		"                 default 255): small F, deep trees\n");
	btree_usage_lookup(f);
}

static int run_bpf(const struct btree_opts *o, const struct btree_file *f,
		   struct btree_run *run);

static const struct btree_prog prog = {
	.name = BT_NAME,
	.opts = BTREE_OPT_FANOUT,
	.usage = usage,
	.run = run_bpf,
};

/* ---- the coroutine ---- */

struct bt_coro {
	struct iocoro co;
	int have_ring;
	struct btree_bpf *skel;
	const struct btree_file *f;
	char *bufs;
	uint32_t inflight;
	struct iocoro_window ids;	/* the coroutine ids not in flight */
	struct btree_run *run;		/* the lookups, for coro_done() */
};

/*
 * open the skeleton, set its constants from @f, load and attach it;
 * register the node buffers (BTREE_BUF_INDEX) the coroutine reads into
 */
static int coro_load(struct bt_coro *c, const struct btree_file *f)
{
	struct iovec iov = {
		.iov_base = c->bufs,
		.iov_len = (size_t)c->inflight * BTREE_NODE_SIZE,
	};
	int ret;

	ret = iocoro_queue_init(c->inflight, &c->co, 0);
	if (ret < 0)
		return ret;
	c->have_ring = 1;
	/* libbpf's own lines repeat ours, unless BTREE_LOOKUP_DEBUG asks */
	if (!getenv("BTREE_LOOKUP_DEBUG"))
		libbpf_set_print(NULL);
	c->skel = btree_bpf__open();
	if (!c->skel)
		return -errno;
	c->skel->rodata->btree_fd = f->fd;
	c->skel->rodata->btree_size = f->size;
	c->skel->rodata->btree_bufs = (uint64_t)(uintptr_t)c->bufs;
	ret = iocoro_skel_load(&c->co, c->skel->skeleton, NULL);
	if (ret < 0)
		return ret;
	/* a lookup's first read carries the step of kind 0 */
	ret = iocoro_prog_index(c->skel->obj, c->skel->progs.btree_lookup);
	if (ret != 0)
		return ret < 0 ? ret : -EINVAL;
	c->f = f;
	/* the ring's only registered buffer */
	_Static_assert(BTREE_BUF_INDEX == 0, "the node buffers' index");
	return io_uring_register_buffers(&c->co.ring, &iov, 1);
}

static void coro_exit(struct bt_coro *c)
{
	btree_bpf__destroy(c->skel);
	iocoro_window_exit(&c->ids);
	if (c->have_ring)
		iocoro_queue_exit(&c->co);
	btree_bufs_free(c->bufs, c->inflight);
}

/* a lookup ended: its answer from its slot */
static int coro_done(struct iocoro *co, const struct iocoro_done *done,
		     void *arg)
{
	struct bt_coro *c = arg;
	const struct btree_slot *slot;
	struct btree_result *r;

	(void)co;
	if (done->id >= c->inflight)
		return -EIO;	/* not one of ours */
	slot = &c->skel->bss->btree_slots[done->id];
	iocoro_window_put(&c->ids, done->id);
	r = btree_run_end(c->run, done->id);
	/* a read whose step did not run: no answer */
	r->res = done->how == IOCORO_ORPHANED ? -ECANCELED : done->res;
	r->value = slot->value;
	r->off = slot->off;
	c->run->st.reads += slot->reads;
	c->run->st.steps += slot->steps;
	return 0;
}

/*
 * Start lookup @id of @key: its slot set for a walk from the root, the
 * root's read submitted carrying the coroutine's first step
 */
static void coro_start(struct bt_coro *c, uint32_t id, uint64_t key)
{
	struct btree_slot *slot = &c->skel->bss->btree_slots[id];
	/* one SQE per slot at most, and as many SQEs as slots: never NULL */
	struct io_uring_sqe *sqe = io_uring_get_sqe(&c->co.ring);

	*slot = (struct btree_slot){
		.key = key,
		.off = c->f->h.root,
		.level = c->f->h.depth - 1,
		.reads = 1,
	};
	io_uring_prep_read_fixed(sqe, c->f->fd,
				 c->bufs + (size_t)id * BTREE_NODE_SIZE,
				 BTREE_NODE_SIZE, c->f->h.root, BTREE_BUF_INDEX);
	iocoro_sqe_set_first(sqe, id);
}

/*
 * Keep c->inflight lookups in flight until all of @run are done: start
 * lookups as ids free up, one io_uring_enter() a turn. A CQE that is
 * not a coroutine's (the ring has no other requests): -ENOMSG.
 */
static int coro_run(struct bt_coro *c, struct btree_run *run)
{
	const struct iocoro_handlers h = { .done = coro_done, .arg = c };
	int id, ret;

	c->run = run;
	ret = iocoro_window_init(&c->ids, c->inflight);
	while (!ret && !btree_run_over(run)) {
		while (btree_run_pending(run) &&
		       (id = iocoro_window_get(&c->ids)) >= 0)
			coro_start(c, (uint32_t)id,
				   btree_run_start(run, (uint32_t)id)->key);
		ret = iocoro_submit_and_reap(&c->co, 1, &h);
		run->st.enters++;
		if (ret > 0)
			ret = 0;
	}
	return ret;
}

/* btree_prog.run: the lookups of @run, timed without the load */
static int run_bpf(const struct btree_opts *o, const struct btree_file *f,
		   struct btree_run *run)
{
	struct bt_coro *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return -ENOMEM;
	c->inflight = o->inflight;
	ret = -ENOMEM;
	c->bufs = btree_bufs(c->inflight);
	if (!c->bufs)
		goto out;
	ret = coro_load(c, f);
	if (ret < 0) {
		tool_report_load(BT_NAME, ret);
		ret = -ECANCELED;	/* reported */
		goto out;
	}
	run->t0 = btree_now_ns();
	ret = coro_run(c, run);
	run->t1 = btree_now_ns();
out:
	coro_exit(c);
	free(c);
	return ret;
}

/* ---- build ---- */

static int cmd_build(const struct btree_opts *o, const char *path,
		     const char *count)
{
	struct btree_header h;
	uint64_t n, seed = o->seed;
	int fd, ret;

	if (btree_parse_u64(count, &n) < 0)
		return btree_bad_usage(&prog, "invalid key count: '%s'", count);
	if (!o->have_seed && getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = (uint64_t)time(NULL);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		fprintf(stderr, BT_NAME ": cannot create regular file '%s': %s\n",
			path, strerror(errno));
		return 1;
	}
	ret = btree_build(fd, n, o->fanout, seed, &h);
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (ret == -E2BIG) {
		fprintf(stderr,
			BT_NAME ": %s: %" PRIu64 " keys with fanout %u need more than %u levels\n",
			path, n, o->fanout, BTREE_MAX_DEPTH);
		unlink(path);
		return 1;
	}
	if (ret < 0) {
		fprintf(stderr, BT_NAME ": error writing '%s': %s\n", path,
			strerror(-ret));
		unlink(path);
		return 1;
	}
	printf("%s: %" PRIu64 " keys, fanout %u, depth %u, %" PRIu64 " nodes, seed 0x%" PRIx64 "\n",
	       path, (uint64_t)h.nkeys, h.fanout, h.depth, (uint64_t)h.nnodes,
	       (uint64_t)h.seed);
	return 0;
}

int main(int argc, char **argv)
{
	struct btree_opts o = {
		.mode = BTREE_MODE_BPF,
		.inflight = BTREE_DEFAULT_INFLIGHT,
		.fanout = BTREE_DEFAULT_FANOUT,
	};
	const char *cmd;
	int ret;

	if (argc < 2 || argv[1][0] == '-') {
		ret = btree_parse_opts(&prog, argc, argv, &o);
		if (ret)
			return ret < 0 ? 0 : ret;
		return btree_bad_usage(&prog, "missing command: build or lookup");
	}
	cmd = argv[1];
	optind = 2;
	ret = btree_parse_opts(&prog, argc, argv, &o);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (!strcmp(cmd, "build")) {
		if (argc - optind != 2)
			return btree_bad_usage(&prog, "build needs FILE and N");
		return cmd_build(&o, argv[optind], argv[optind + 1]);
	}
	if (!strcmp(cmd, "lookup"))
		return btree_lookup_main(&prog, &o, argc - optind,
					 argv + optind);
	return btree_bad_usage(&prog, "unknown command '%s'", cmd);
}
