// SPDX-License-Identifier: MIT
/*
 * btree-lookup: B+tree lookups where each read depends on the data of the
 * read before (btree.h has the file format).
 *
 *   btree-lookup build [--seed S] [--fanout F] FILE N
 *   btree-lookup lookup [--pread | --uring] [--stats] [--inflight Q]
 *                       [--direct] [--random N [--seed S]] FILE [KEY...]
 *
 * By default each lookup is one coroutine of btree.bpf.c: the kernel
 * reads the root into a registered buffer, the program binary-searches it
 * there (reading only the keys it probes), picks the child and queues its
 * read, ... down to the leaf, and the coroutine's end says found or not.
 * Up to Q lookups run at once; all the lookups started since the last
 * one are submitted with one io_uring_enter(), which also waits.
 * --pread does the same walks with a pread() loop, --uring with a
 * user-space io_uring loop (submit the reads of all lookups in flight,
 * reap, judge, queue the next level); all three judge nodes with the same
 * binary search (btree.h: btree_step(), and its pieces in the program).
 * --direct reads the nodes with O_DIRECT, in every mode: each level is a
 * read of the device, not of the page cache.
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
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "btree-file.h"
#include "tool.h"
#include "btree.skel.h"

#define BT_NAME			"btree-lookup"
#define BT_VERSION		"0.1"
#define BT_DEFAULT_INFLIGHT	256U

enum bt_mode { BT_BPF, BT_PREAD, BT_URING };

struct bt_opts {
	enum bt_mode mode;
	int stats;
	int direct;
	uint32_t inflight;
	uint32_t fanout;
	int have_seed;
	uint64_t seed;
	int have_random;
	uint64_t random;
};

/* what --stats reports */
struct bt_stats {
	uint64_t lookups;
	uint64_t reads;
	uint64_t steps;		/* program runs; node judgements in user space */
	uint64_t enters;	/* io_uring_enter() calls */
	double secs;
	double p50_us;		/* a lookup's time, start to answer */
	double p99_us;
};

/* the lookups, in input order */
struct bt_set {
	struct btree_result *r;
	uint64_t *ns;		/* with --stats: each lookup's time */
	size_t n;
	size_t cap;
};

/*
 * Lookups in flight: slot i of an engine runs lookup owner[i]; free
 * slots stack up in free_ids. Both io_uring engines fill it alike.
 */
struct bt_window {
	struct iocoro_window ids;	/* the slots not in flight */
	size_t owner[BTREE_MAX_INFLIGHT];
	uint64_t since[BTREE_MAX_INFLIGHT];	/* when the slot's lookup began */
	size_t next;		/* the next lookup to start */
	size_t done;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: " BT_NAME " build [--seed S] [--fanout F] FILE N\n"
		"  or:  " BT_NAME " lookup [--pread|--uring] [--stats] [--inflight Q]\n"
		"                    [--direct] [--random N [--seed S]] FILE [KEY...]\n"
		"Build a B+tree file of N 64-bit keys in 4 KiB nodes, or look keys up in\n"
		"one: by default each lookup is an in-kernel io_uring coroutine that reads\n"
		"a node, picks the child and reads it, down to the leaf.\n"
		"\n"
		"  --seed S       build: the keys' seed (default: random, printed);\n"
		"                 lookup --random: the seed of the keys picked\n"
		"  --fanout F     children of an inner node, keys of a leaf (2..255,\n"
		"                 default 255): small F, deep trees\n"
		"  --pread        look up with a pread() loop in user space\n"
		"  --uring        look up with a user-space io_uring loop\n"
		"  --inflight Q   lookups in flight at once (1..1024, default 256)\n"
		"  --direct       read the nodes with O_DIRECT (not from the page cache)\n"
		"  --random N     N random keys, half of them in the tree\n"
		"  --stats        print lookups, reads, steps, io_uring_enter calls,\n"
		"                 a lookup's median and 99th-percentile time and\n"
		"                 lookups/s to stderr\n"
		"  -h, --help     this help\n"
		"      --version  version\n"
		"\n"
		"KEYs are decimal or 0x hex; without KEYs or --random they are read\n"
		"from standard input. Prints 'KEY VALUE' or 'KEY not found' in input\n"
		"order. Exit status 0 when every lookup was answered, 1 on a file error\n"
		"or a corrupt node, 2 on bad usage.\n");
}

/* 2: bad usage, with a hint */
static int bad_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, BT_NAME ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '" BT_NAME " --help' for more information.\n");
	return 2;
}

/* a whole decimal or 0x hex number, no sign: 0 or -EINVAL */
static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000U + (uint64_t)t.tv_nsec;
}

static double now(void)
{
	return (double)now_ns() / 1e9;
}

static int set_add(struct bt_set *s, uint64_t key)
{
	struct btree_result *r;

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;

		r = realloc(s->r, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		s->r = r;
		s->cap = cap;
	}
	memset(&s->r[s->n], 0, sizeof(s->r[0]));
	s->r[s->n++].key = key;
	return 0;
}

/* 4 KiB-aligned buffers, @n nodes */
static void *node_bufs(uint32_t n)
{
	void *p = mmap(NULL, (size_t)n * BTREE_NODE_SIZE,
		       PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* ---- the window of lookups in flight ---- */

static int window_init(struct bt_window *w, uint32_t slots)
{
	w->next = 0;
	w->done = 0;
	return iocoro_window_init(&w->ids, slots);
}

/* the slot for the next lookup of @s, or -1 when none is left or free */
static int window_take(struct bt_window *w, const struct bt_set *s)
{
	int id;

	if (w->next == s->n)
		return -1;
	id = iocoro_window_get(&w->ids);
	if (id < 0)
		return -1;
	w->owner[id] = w->next++;
	if (s->ns)
		w->since[id] = now_ns();
	return (int)id;
}

/* slot @id's lookup ended */
static struct btree_result *window_end(struct bt_window *w,
				       struct bt_set *s, uint32_t id)
{
	iocoro_window_put(&w->ids, id);
	w->done++;
	if (s->ns)
		s->ns[w->owner[id]] = now_ns() - w->since[id];
	return &s->r[w->owner[id]];
}

/* one io_uring_enter(): submit what is queued, wait for one CQE */
static int enter(struct io_uring *ring, struct bt_stats *st)
{
	int ret = io_uring_submit_and_wait(ring, 1);

	st->enters++;
	if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
		return ret;
	return 0;
}

/* ---- --pread ---- */

static int run_pread(const struct btree_file *f, struct bt_set *s,
		     struct bt_stats *st)
{
	struct btree_node *n = node_bufs(1);
	uint64_t since = 0;
	size_t i;

	if (!n)
		return -ENOMEM;
	for (i = 0; i < s->n; i++) {
		if (s->ns)
			since = now_ns();
		btree_pread_lookup(f, n, &s->r[i], &st->reads);
		if (s->ns)
			s->ns[i] = now_ns() - since;
	}
	st->steps = st->reads;
	munmap(n, BTREE_NODE_SIZE);
	return 0;
}

/* ---- --uring ---- */

struct bt_uring {
	struct io_uring ring;
	char *bufs;
	struct btree_walk walks[BTREE_MAX_INFLIGHT];
	struct bt_window win;
};

static void uring_queue_read(struct bt_uring *u, const struct btree_file *f,
			     uint32_t id)
{
	/* one SQE per slot at most, and as many SQEs as slots: never NULL */
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

	io_uring_prep_read(sqe, f->fd, u->bufs + (size_t)id * BTREE_NODE_SIZE,
			   BTREE_NODE_SIZE, u->walks[id].off);
	io_uring_sqe_set_data64(sqe, id);
	u->walks[id].reads++;
}

static void uring_reap(struct bt_uring *u, const struct btree_file *f,
		       struct bt_set *s, struct bt_stats *st)
{
	struct io_uring_cqe *cqe;
	unsigned int head, seen = 0;
	uint32_t id;

	io_uring_for_each_cqe(&u->ring, head, cqe) {
		const struct btree_node *n;
		struct btree_result *r;

		seen++;
		id = (uint32_t)cqe->user_data;
		n = (const void *)(u->bufs + (size_t)id * BTREE_NODE_SIZE);
		r = &s->r[u->win.owner[id]];
		st->steps++;
		if (!btree_walk_judge(f, &u->walks[id], n, cqe->res, r)) {
			uring_queue_read(u, f, id);
			continue;
		}
		st->reads += u->walks[id].reads;
		window_end(&u->win, s, id);
	}
	io_uring_cq_advance(&u->ring, seen);
}

static int run_uring(const struct btree_file *f, struct bt_set *s,
		     uint32_t inflight, struct bt_stats *st)
{
	struct bt_uring *u = calloc(1, sizeof(*u));
	int ret, id;

	if (!u)
		return -ENOMEM;
	ret = -ENOMEM;
	u->bufs = node_bufs(inflight);
	if (!u->bufs)
		goto out;
	/* the ring setup of the coroutine's, so that only the deciding differs */
	ret = io_uring_queue_init(inflight, &u->ring, IOCORO_SETUP_FLAGS);
	if (ret < 0)
		goto out;
	ret = window_init(&u->win, inflight);
	while (!ret && u->win.done < s->n) {
		while ((id = window_take(&u->win, s)) >= 0) {
			btree_walk_start(f, &u->walks[id]);
			uring_queue_read(u, f, (uint32_t)id);
		}
		ret = enter(&u->ring, st);
		if (ret < 0)
			break;
		uring_reap(u, f, s, st);
	}
	iocoro_window_exit(&u->win.ids);
	io_uring_queue_exit(&u->ring);
out:
	if (u->bufs)
		munmap(u->bufs, (size_t)inflight * BTREE_NODE_SIZE);
	free(u);
	return ret;
}

/* ---- the coroutine ---- */

struct bt_coro {
	struct iocoro co;
	int have_ring;
	struct btree_bpf *skel;
	const struct btree_file *f;
	char *bufs;
	uint32_t inflight;
	struct bt_window win;
	struct bt_set *set;		/* the lookups, for coro_done() */
	struct bt_stats *st;
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
	iocoro_window_exit(&c->win.ids);
	if (c->have_ring)
		iocoro_queue_exit(&c->co);
	if (c->bufs)
		munmap(c->bufs, (size_t)c->inflight * BTREE_NODE_SIZE);
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
	r = window_end(&c->win, c->set, done->id);
	/* a read whose step did not run: no answer */
	r->res = done->how == IOCORO_ORPHANED ? -ECANCELED : done->res;
	r->value = slot->value;
	r->off = slot->off;
	c->st->reads += slot->reads;
	c->st->steps += slot->steps;
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
 * Keep c->inflight lookups in flight until all of @s are done: start
 * lookups as slots free up, one io_uring_enter() a turn. A CQE that is
 * not a coroutine's (the ring has no other requests): -ENOMSG.
 */
static int coro_run(struct bt_coro *c, struct bt_set *s, struct bt_stats *st)
{
	const struct iocoro_handlers h = { .done = coro_done, .arg = c };
	int id, ret;

	c->set = s;
	c->st = st;
	ret = window_init(&c->win, c->inflight);
	while (!ret && c->win.done < s->n) {
		while ((id = window_take(&c->win, s)) >= 0)
			coro_start(c, (uint32_t)id, s->r[c->win.owner[id]].key);
		ret = iocoro_submit_and_reap(&c->co, 1, &h);
		st->enters++;
		if (ret > 0)
			ret = 0;
	}
	return ret;
}

static int run_bpf(const struct btree_file *f, struct bt_set *s,
		   uint32_t inflight, struct bt_stats *st)
{
	struct bt_coro *c = calloc(1, sizeof(*c));
	double t0;
	int ret;

	if (!c)
		return -ENOMEM;
	c->inflight = inflight;
	ret = -ENOMEM;
	c->bufs = node_bufs(inflight);
	if (!c->bufs)
		goto out;
	ret = coro_load(c, f);
	if (ret < 0) {
		tool_report_load(BT_NAME, ret);
		ret = -ECANCELED;	/* reported */
		goto out;
	}
	/* time the lookups, not the load */
	t0 = now();
	ret = coro_run(c, s, st);
	st->secs = now() - t0;
out:
	coro_exit(c);
	free(c);
	return ret;
}

/* ---- lookup ---- */

/* the keys: the operands, --random, or stdin */
static int collect_keys(const struct bt_opts *o, const struct btree_file *f,
			char **keys, int nkeys, struct bt_set *s)
{
	uint64_t v, i, seed = o->seed;
	char word[64];
	int ret, c;

	if (o->have_random) {
		if (!o->have_seed && getrandom(&seed, sizeof(seed), 0) !=
		    sizeof(seed))
			seed = (uint64_t)time(NULL);
		fprintf(stderr, BT_NAME ": random keys: seed 0x%" PRIx64 "\n",
			seed);
		for (i = 0; i < o->random; i++) {
			uint64_t r = btree_mix(seed + i), nk = f->h.nkeys;

			/* even r: key r/2 % nkeys of the tree; odd: one not in it */
			v = (r & 1) || !nk ? nk + (r >> 1) % (nk ? nk : 1)
					   : (r >> 1) % nk;
			ret = set_add(s, btree_key(f->h.seed, v));
			if (ret < 0)
				return ret;
		}
		return 0;
	}
	for (c = 0; c < nkeys; c++) {
		if (parse_u64(keys[c], &v) < 0)
			return bad_usage("invalid key: '%s'", keys[c]);
		ret = set_add(s, v);
		if (ret < 0)
			return ret;
	}
	if (nkeys)
		return 0;
	while (scanf("%63s", word) == 1) {
		if (parse_u64(word, &v) < 0)
			return bad_usage("invalid key: '%s'", word);
		ret = set_add(s, v);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static const char *header_error(int why)
{
	switch (why) {
	case BTREE_HDR_MAGIC:
		return "not a btree file";
	case BTREE_HDR_VERSION:
		return "unsupported btree version or node size";
	case BTREE_HDR_TRUNCATED:
		return "truncated: shorter than its header says";
	default:
		return "corrupt btree header";
	}
}

/* print the answers in input order: 0, or 1 if one lookup failed */
static int print_results(const char *path, const struct bt_set *s)
{
	const struct btree_result *r;
	int status = 0;
	size_t i;

	for (i = 0; i < s->n; i++) {
		r = &s->r[i];
		if (r->res == BTREE_FOUND) {
			printf("%" PRIu64 " %" PRIu64 "\n", r->key, r->value);
		} else if (r->res == BTREE_ABSENT) {
			printf("%" PRIu64 " not found\n", r->key);
		} else if (r->res == -BTREE_ECORRUPT) {
			fprintf(stderr,
				BT_NAME ": %s: corrupt node at offset %" PRIu64 " (key %" PRIu64 ")\n",
				path, r->off, r->key);
			status = 1;
		} else {
			fprintf(stderr,
				BT_NAME ": %s: read error at offset %" PRIu64 " (key %" PRIu64 "): %s\n",
				path, r->off, r->key, strerror(-r->res));
			status = 1;
		}
	}
	return status;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* the median and 99th percentile of the lookups' times (sorts s->ns) */
static void latency(struct bt_set *s, struct bt_stats *st)
{
	if (!s->ns || !s->n)
		return;
	qsort(s->ns, s->n, sizeof(s->ns[0]), cmp_u64);
	st->p50_us = (double)s->ns[(s->n - 1) / 2] / 1e3;
	st->p99_us = (double)s->ns[(s->n - 1) * 99 / 100] / 1e3;
}

static void print_stats(const struct bt_opts *o, const struct bt_stats *st)
{
	static const char *const names[] = { "bpf", "pread", "uring" };

	fprintf(stderr,
		BT_NAME ": %s: %" PRIu64 " lookups, %" PRIu64 " reads, %" PRIu64 " steps, %" PRIu64 " io_uring_enter calls, %.6f s, p50 %.1f us, p99 %.1f us, %.0f lookups/s\n",
		names[o->mode], st->lookups, st->reads, st->steps, st->enters,
		st->secs, st->p50_us, st->p99_us,
		st->secs > 0 ? (double)st->lookups / st->secs : 0.0);
}

/* run the lookups of @s on @f in @o's mode */
static int run_lookups(const struct bt_opts *o, const struct btree_file *f,
		       struct bt_set *s, struct bt_stats *st)
{
	double t0;
	int ret;

	st->lookups = s->n;
	if (o->stats && s->n) {
		s->ns = calloc(s->n, sizeof(s->ns[0]));
		if (!s->ns)
			return -ENOMEM;
	}
	t0 = now();
	switch (o->mode) {
	case BT_PREAD:
		ret = run_pread(f, s, st);
		break;
	case BT_URING:
		ret = run_uring(f, s, o->inflight, st);
		break;
	default:
		return run_bpf(f, s, o->inflight, st);
	}
	st->secs = now() - t0;
	return ret;
}

static int cmd_lookup(const struct bt_opts *o, const char *path, char **keys,
		      int nkeys)
{
	struct bt_set s = { 0 };
	struct bt_stats st = { 0 };
	struct btree_file f;
	int ret, why;

	ret = btree_open(path, &f, &why);
	if (ret == -EUCLEAN) {
		fprintf(stderr, BT_NAME ": %s: %s\n", path, header_error(why));
		return 1;
	}
	if (ret < 0) {
		fprintf(stderr, BT_NAME ": %s: %s\n", path, strerror(-ret));
		return 1;
	}
	if (o->direct) {
		ret = btree_reopen_direct(path, &f);
		if (ret < 0) {
			fprintf(stderr, BT_NAME ": %s: O_DIRECT: %s\n", path,
				strerror(-ret));
			btree_close(&f);
			return 1;
		}
	}
	ret = collect_keys(o, &f, keys, nkeys, &s);
	if (ret > 0)		/* bad usage, reported */
		goto out;
	if (ret == 0)
		ret = run_lookups(o, &f, &s, &st);
	if (ret == 0)
		latency(&s, &st);
	if (ret == -ECANCELED) {
		ret = 1;
	} else if (ret < 0) {
		fprintf(stderr, BT_NAME ": %s: %s\n", path, strerror(-ret));
		ret = 1;
	} else {
		ret = print_results(path, &s);
		if (o->stats)
			print_stats(o, &st);
	}
out:
	free(s.ns);
	free(s.r);
	btree_close(&f);
	return ret;
}

/* ---- build ---- */

static int cmd_build(const struct bt_opts *o, const char *path,
		     const char *count)
{
	struct btree_header h;
	uint64_t n, seed = o->seed;
	int fd, ret;

	if (parse_u64(count, &n) < 0)
		return bad_usage("invalid key count: '%s'", count);
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

/* ---- arguments ---- */

enum { OPT_SEED = 256, OPT_FANOUT, OPT_PREAD, OPT_URING, OPT_STATS,
       OPT_INFLIGHT, OPT_RANDOM, OPT_DIRECT, OPT_VERSION };

static const struct option long_opts[] = {
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "fanout", required_argument, NULL, OPT_FANOUT },
	{ "pread", no_argument, NULL, OPT_PREAD },
	{ "uring", no_argument, NULL, OPT_URING },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "inflight", required_argument, NULL, OPT_INFLIGHT },
	{ "direct", no_argument, NULL, OPT_DIRECT },
	{ "random", required_argument, NULL, OPT_RANDOM },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* a number option in [lo, hi]: 0, or 2 (reported) */
static int opt_number(const char *name, const char *arg, uint64_t lo,
		      uint64_t hi, uint64_t *v)
{
	if (parse_u64(arg, v) < 0 || *v < lo || *v > hi)
		return bad_usage("invalid %s: '%s' (%" PRIu64 "..%" PRIu64 ")",
				 name, arg, lo, hi);
	return 0;
}

/* options: 0, -1 (--help/--version done), or 2 (bad usage, reported) */
static int parse_opts(int argc, char **argv, struct bt_opts *o)
{
	uint64_t v;
	int c, ret = 0;

	while (!ret && (c = getopt_long(argc, argv, "h", long_opts,
					NULL)) != -1) {
		switch (c) {
		case OPT_SEED:
			ret = opt_number("seed", optarg, 0, UINT64_MAX,
					 &o->seed);
			o->have_seed = 1;
			break;
		case OPT_FANOUT:
			ret = opt_number("fanout", optarg, BTREE_MIN_FANOUT,
					 BTREE_MAX_FANOUT, &v);
			o->fanout = (uint32_t)v;
			break;
		case OPT_PREAD:
			o->mode = BT_PREAD;
			break;
		case OPT_URING:
			o->mode = BT_URING;
			break;
		case OPT_STATS:
			o->stats = 1;
			break;
		case OPT_DIRECT:
			o->direct = 1;
			break;
		case OPT_INFLIGHT:
			ret = opt_number("inflight", optarg, 1,
					 BTREE_MAX_INFLIGHT, &v);
			o->inflight = (uint32_t)v;
			break;
		case OPT_RANDOM:
			ret = opt_number("random key count", optarg, 0,
					 UINT64_MAX / 2, &o->random);
			o->have_random = 1;
			break;
		case 'h':
			usage(stdout);
			return -1;
		case OPT_VERSION:
			printf(BT_NAME " " BT_VERSION "\n");
			return -1;
		default:
			fprintf(stderr, "Try '" BT_NAME " --help' for more information.\n");
			return 2;
		}
	}
	return ret;
}

int main(int argc, char **argv)
{
	struct bt_opts o = {
		.mode = BT_BPF,
		.inflight = BT_DEFAULT_INFLIGHT,
		.fanout = BTREE_DEFAULT_FANOUT,
	};
	const char *cmd;
	int ret;

	if (argc < 2 || argv[1][0] == '-') {
		ret = parse_opts(argc, argv, &o);
		if (ret)
			return ret < 0 ? 0 : ret;
		return bad_usage("missing command: build or lookup");
	}
	cmd = argv[1];
	optind = 2;
	ret = parse_opts(argc, argv, &o);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (!strcmp(cmd, "build")) {
		if (argc - optind != 2)
			return bad_usage("build needs FILE and N");
		return cmd_build(&o, argv[optind], argv[optind + 1]);
	}
	if (!strcmp(cmd, "lookup")) {
		if (argc - optind < 1)
			return bad_usage("missing file operand");
		if (o.have_random && argc - optind > 1)
			return bad_usage("--random takes no KEY operands");
		return cmd_lookup(&o, argv[optind], argv + optind + 1,
				  argc - optind - 1);
	}
	return bad_usage("unknown command '%s'", cmd);
}
