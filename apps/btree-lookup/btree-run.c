// SPDX-License-Identifier: MIT
/*
 * A run of lookups, as btree-lookup and its benchmark peer uring_btree
 * make it (btree-run.h).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>

#include "btree-run.h"

uint64_t btree_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000U + (uint64_t)t.tv_nsec;
}

void *btree_bufs(uint32_t n)
{
	void *p = mmap(NULL, (size_t)n * BTREE_NODE_SIZE,
		       PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void btree_bufs_free(void *bufs, uint32_t n)
{
	if (bufs)
		munmap(bufs, (size_t)n * BTREE_NODE_SIZE);
}

int btree_parse_u64(const char *s, uint64_t *v)
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

int btree_bad_usage(const struct btree_prog *p, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", p->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", p->name);
	return 2;
}

void btree_usage_lookup(FILE *f)
{
	fprintf(f,
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

/* ---- options ---- */

enum { OPT_SEED = 256, OPT_FANOUT, OPT_PREAD, OPT_URING, OPT_STATS,
       OPT_INFLIGHT, OPT_RANDOM, OPT_DIRECT, OPT_VERSION };

/* every option, and which programs take it (0: all) */
static const struct {
	struct option opt;
	unsigned int only;
} all_opts[] = {
	{ { "seed", required_argument, NULL, OPT_SEED }, 0 },
	{ { "fanout", required_argument, NULL, OPT_FANOUT }, BTREE_OPT_FANOUT },
	{ { "pread", no_argument, NULL, OPT_PREAD }, BTREE_OPT_MODES },
	{ { "uring", no_argument, NULL, OPT_URING }, BTREE_OPT_MODES },
	{ { "stats", no_argument, NULL, OPT_STATS }, 0 },
	{ { "inflight", required_argument, NULL, OPT_INFLIGHT }, 0 },
	{ { "direct", no_argument, NULL, OPT_DIRECT }, 0 },
	{ { "random", required_argument, NULL, OPT_RANDOM }, 0 },
	{ { "help", no_argument, NULL, 'h' }, 0 },
	{ { "version", no_argument, NULL, OPT_VERSION }, 0 },
};

#define NR_OPTS (sizeof(all_opts) / sizeof(all_opts[0]))

/* a number option in [lo, hi]: 0, or 2 (reported) */
static int opt_number(const struct btree_prog *p, const char *name,
		      const char *arg, uint64_t lo, uint64_t hi, uint64_t *v)
{
	if (btree_parse_u64(arg, v) < 0 || *v < lo || *v > hi)
		return btree_bad_usage(p, "invalid %s: '%s' (%" PRIu64 "..%" PRIu64 ")",
				       name, arg, lo, hi);
	return 0;
}

/* option @c with @arg: 0, -1 (--help/--version done), or 2 (reported) */
static int parse_opt(const struct btree_prog *p, int c, const char *arg,
		     struct btree_opts *o)
{
	uint64_t v = 0;
	int ret = 0;

	switch (c) {
	case OPT_SEED:
		o->have_seed = 1;
		return opt_number(p, "seed", arg, 0, UINT64_MAX, &o->seed);
	case OPT_FANOUT:
		ret = opt_number(p, "fanout", arg, BTREE_MIN_FANOUT,
				 BTREE_MAX_FANOUT, &v);
		o->fanout = (uint32_t)v;
		return ret;
	case OPT_PREAD:
	case OPT_URING:
		o->mode = c == OPT_PREAD ? BTREE_MODE_PREAD : BTREE_MODE_URING;
		return 0;
	case OPT_STATS:
		o->stats = 1;
		return 0;
	case OPT_DIRECT:
		o->direct = 1;
		return 0;
	case OPT_INFLIGHT:
		ret = opt_number(p, "inflight", arg, 1, BTREE_MAX_INFLIGHT, &v);
		o->inflight = (uint32_t)v;
		return ret;
	case OPT_RANDOM:
		o->have_random = 1;
		return opt_number(p, "random key count", arg, 0,
				  UINT64_MAX / 2, &o->random);
	case 'h':
		p->usage(stdout);
		return -1;
	case OPT_VERSION:
		printf("%s " BTREE_TOOL_VERSION "\n", p->name);
		return -1;
	default:
		fprintf(stderr, "Try '%s --help' for more information.\n",
			p->name);
		return 2;
	}
}

int btree_parse_opts(const struct btree_prog *p, int argc, char **argv,
		     struct btree_opts *o)
{
	struct option opts[NR_OPTS + 1];
	size_t i, n = 0;
	int c, ret = 0;

	for (i = 0; i < NR_OPTS; i++)
		if (!all_opts[i].only || (all_opts[i].only & p->opts))
			opts[n++] = all_opts[i].opt;
	memset(&opts[n], 0, sizeof(opts[n]));
	while (!ret && (c = getopt_long(argc, argv, "h", opts, NULL)) != -1)
		ret = parse_opt(p, c, optarg, o);
	return ret;
}

/* ---- the keys ---- */

static int add_key(struct btree_run *run, uint64_t key)
{
	struct btree_result *r;

	if (run->n == run->cap) {
		size_t cap = run->cap ? 2 * run->cap : 1024;

		r = realloc(run->r, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		run->r = r;
		run->cap = cap;
	}
	memset(&run->r[run->n], 0, sizeof(run->r[0]));
	run->r[run->n++].key = key;
	return 0;
}

/* --random: @o->random keys of the seed, half of them in @f's tree */
static int random_keys(const struct btree_prog *p, const struct btree_opts *o,
		       const struct btree_file *f, struct btree_run *run)
{
	uint64_t v, i, seed = o->seed, nk = f->h.nkeys;
	int ret;

	if (!o->have_seed && getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = (uint64_t)time(NULL);
	fprintf(stderr, "%s: random keys: seed 0x%" PRIx64 "\n", p->name, seed);
	for (i = 0; i < o->random; i++) {
		uint64_t r = btree_mix(seed + i);

		/* even r: key r/2 % nkeys of the tree; odd: one not in it */
		v = (r & 1) || !nk ? nk + (r >> 1) % (nk ? nk : 1)
				   : (r >> 1) % nk;
		ret = add_key(run, btree_key(f->h.seed, v));
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* one KEY: 0, -errno, or 2 (bad usage, reported) */
static int word_key(const struct btree_prog *p, const char *word,
		    struct btree_run *run)
{
	uint64_t v;

	if (btree_parse_u64(word, &v) < 0)
		return btree_bad_usage(p, "invalid key: '%s'", word);
	return add_key(run, v);
}

/* the keys: --random, the operands, or stdin; 0, -errno, or 2 */
static int collect_keys(const struct btree_prog *p, const struct btree_opts *o,
			const struct btree_file *f, char **keys, int nkeys,
			struct btree_run *run)
{
	char word[64];
	int ret = 0, i;

	if (o->have_random)
		return random_keys(p, o, f, run);
	for (i = 0; !ret && i < nkeys; i++)
		ret = word_key(p, keys[i], run);
	while (!ret && !nkeys && scanf("%63s", word) == 1)
		ret = word_key(p, word, run);
	return ret;
}

/* ---- the lookups in flight ---- */

struct btree_result *btree_run_start(struct btree_run *run, uint32_t slot)
{
	if (!btree_run_pending(run))
		return NULL;
	run->owner[slot] = run->next++;
	if (run->ns)
		run->since[slot] = btree_now_ns();
	return btree_run_slot(run, slot);
}

struct btree_result *btree_run_end(struct btree_run *run, uint32_t slot)
{
	run->done++;
	if (run->ns)
		run->ns[run->owner[slot]] = btree_now_ns() - run->since[slot];
	return btree_run_slot(run, slot);
}

/* ---- the answers ---- */

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
static int print_results(const struct btree_prog *p, const char *path,
			 const struct btree_run *run)
{
	const struct btree_result *r;
	int status = 0;
	size_t i;

	for (i = 0; i < run->n; i++) {
		r = &run->r[i];
		if (r->res == BTREE_FOUND) {
			printf("%" PRIu64 " %" PRIu64 "\n", r->key, r->value);
		} else if (r->res == BTREE_ABSENT) {
			printf("%" PRIu64 " not found\n", r->key);
		} else if (r->res == -BTREE_ECORRUPT) {
			fprintf(stderr,
				"%s: %s: corrupt node at offset %" PRIu64 " (key %" PRIu64 ")\n",
				p->name, path, r->off, r->key);
			status = 1;
		} else {
			fprintf(stderr,
				"%s: %s: read error at offset %" PRIu64 " (key %" PRIu64 "): %s\n",
				p->name, path, r->off, r->key, strerror(-r->res));
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

/* the median and 99th percentile of the lookups' times (sorts run->ns) */
static void latency(struct btree_run *run)
{
	if (!run->ns || !run->n)
		return;
	qsort(run->ns, run->n, sizeof(run->ns[0]), cmp_u64);
	run->st.p50_us = (double)run->ns[(run->n - 1) / 2] / 1e3;
	run->st.p99_us = (double)run->ns[(run->n - 1) * 99 / 100] / 1e3;
}

static void print_stats(const struct btree_prog *p, const struct btree_opts *o,
			const struct btree_stats *st)
{
	static const char *const names[] = { "bpf", "pread", "uring" };

	fprintf(stderr,
		"%s: %s: %" PRIu64 " lookups, %" PRIu64 " reads, %" PRIu64 " steps, %" PRIu64 " io_uring_enter calls, %.6f s, p50 %.1f us, p99 %.1f us, %.0f lookups/s\n",
		p->name, names[o->mode], st->lookups, st->reads, st->steps,
		st->enters, st->secs, st->p50_us, st->p99_us,
		st->secs > 0 ? (double)st->lookups / st->secs : 0.0);
}

/* ---- the command ---- */

/* open @path (with --direct, for O_DIRECT reads): 0, or 1 (reported) */
static int open_tree(const struct btree_prog *p, const struct btree_opts *o,
		     const char *path, struct btree_file *f)
{
	int ret, why;

	ret = btree_open(path, f, &why);
	if (ret == -EUCLEAN) {
		fprintf(stderr, "%s: %s: %s\n", p->name, path, header_error(why));
		return 1;
	}
	if (ret < 0) {
		fprintf(stderr, "%s: %s: %s\n", p->name, path, strerror(-ret));
		return 1;
	}
	if (!o->direct)
		return 0;
	ret = btree_reopen_direct(path, f);
	if (ret < 0) {
		fprintf(stderr, "%s: %s: O_DIRECT: %s\n", p->name, path,
			strerror(-ret));
		btree_close(f);
		return 1;
	}
	return 0;
}

/* run the lookups of @run on @f, timed: 0, -errno, or -ECANCELED */
static int run_lookups(const struct btree_prog *p, const struct btree_opts *o,
		       const struct btree_file *f, struct btree_run *run)
{
	int ret;

	run->st.lookups = run->n;
	if (o->stats && run->n) {
		run->ns = calloc(run->n, sizeof(run->ns[0]));
		if (!run->ns)
			return -ENOMEM;
	}
	run->t0 = btree_now_ns();
	ret = p->run(o, f, run);
	if (!run->t1)
		run->t1 = btree_now_ns();
	run->st.secs = (double)(run->t1 - run->t0) / 1e9;
	if (!ret)
		latency(run);
	return ret;
}

/* the lookups of FILE: its exit status */
static int lookup_file(const struct btree_prog *p, const struct btree_opts *o,
		       const char *path, char **keys, int nkeys)
{
	struct btree_run *run = calloc(1, sizeof(*run));
	struct btree_file f;
	int ret;

	if (!run) {
		fprintf(stderr, "%s: %s\n", p->name, strerror(ENOMEM));
		return 1;
	}
	ret = open_tree(p, o, path, &f);
	if (ret) {
		free(run);
		return ret;
	}
	ret = collect_keys(p, o, &f, keys, nkeys, run);
	if (ret == 0)
		ret = run_lookups(p, o, &f, run);
	if (ret == -ECANCELED) {
		ret = 1;
	} else if (ret < 0) {
		fprintf(stderr, "%s: %s: %s\n", p->name, path, strerror(-ret));
		ret = 1;
	} else if (ret == 0) {
		ret = print_results(p, path, run);
		if (o->stats)
			print_stats(p, o, &run->st);
	}
	free(run->ns);
	free(run->r);
	free(run);
	btree_close(&f);
	return ret;
}

int btree_lookup_main(const struct btree_prog *p, const struct btree_opts *o,
		      int argc, char **argv)
{
	if (argc < 1)
		return btree_bad_usage(p, "missing file operand");
	if (o->have_random && argc > 1)
		return btree_bad_usage(p, "--random takes no KEY operands");
	return lookup_file(p, o, argv[0], argv + 1, argc - 1);
}
