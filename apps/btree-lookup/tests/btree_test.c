// SPDX-License-Identifier: MIT
/*
 * Tests of the btree-lookup program and its benchmark peer uring_btree
 * (bench/btree/: the same lookups with a pread() loop, --pread, or a
 * user-space io_uring loop, --uring), run as children on trees
 * btree-lookup builds: the three modes.
 *
 * A suite of self-registering cases (tests/lib/case.h), run as
 * "btree_test CASE BTREE_LOOKUP URING_BTREE", ctest btree_<case>:
 *
 *   host     uring_btree --pread on any kernel: lookups of present and
 *            absent keys, every error (missing file, not a btree,
 *            truncated, corrupt nodes, bad keys, usage), --uring's too
 *            where io_uring runs; btree-lookup fails with
 *            iocoro_strerror()'s words on a kernel without the series
 *            (host)
 *   depths   trees of depth 3 to 8 (small fanouts, sizes from the seed):
 *            random present and absent keys looked up in all three modes,
 *            output equal to what the keys say, --stats exact, few lookups
 *            in flight, --random (guest)
 *   errors   the errors in all three modes, the same messages from each
 *            but for the program's name (guest)
 *
 * The expected answers come from the key generator (btree_key(), which
 * the tree's seed fixes) and a sorted copy of the keys, not from the
 * program. Random choices come from test_seed("btree_test"), printed
 * first (IOCORO_SEED replays a run).
 */
#define _GNU_SOURCE
#include <iocoro.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "btree-file.h"
#include "case.h"
#include "check.h"
#include "run.h"
#include "seed.h"

#define NAME "btree-lookup"
#define PEER "uring_btree"

static const char *bin, *peer;
static char work[256];
static struct test_rng rng;

/* a mode: its --stats name, and uring_btree's option for it */
struct mode {
	const char *name;
	const char *opt;	/* NULL: btree-lookup lookup, the coroutine */
};

/* the modes, the coroutine last */
static const struct mode modes[] = {
	{ "pread", "--pread" },
	{ "uring", "--uring" },
	{ "bpf", NULL },
};

/* the coroutine's mode */
#define BPF (&modes[2])

/* ---- files ---- */

static char *path_in(const char *name)
{
	static char paths[8][320];
	static int next;
	char *p = paths[next++ % 8];

	snprintf(p, sizeof(paths[0]), "%s/%s", work, name);
	return p;
}

static void write_text(const char *path, const char *text)
{
	int fd = CHECK_SYS(open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				0600));

	CHECK_EQ(write(fd, text, strlen(text)), (long long)strlen(text));
	CHECK_SYS(close(fd));
}

/* ---- running btree-lookup ---- */

/* run bin with @argv (NULL-terminated, bin first) and stdin from @in */
static void run_argv(struct run *r, const char *in, const char **argv)
{
	const struct run_opts o = { .in = in };
	int i;

	run(r, (char *const *)argv, &o);
	printf("$");
	for (i = 0; argv[i]; i++)
		printf(" %s", argv[i]);
	printf("%s%s  -> exit %d (%.2f s)\n", in ? " < " : "", in ? in : "",
	       r->status, r->secs);
	if (r->out_len < 2000)
		printf("%s", r->out);
	else
		printf("(%zu bytes of output)\n", r->out_len);
	printf("%s", r->err);
	fflush(stdout);
}

/* run with the arguments after @r (NULL-terminated), stdin @in */
static void run_in(struct run *r, const char *in, ...)
{
	const char *argv[24];
	va_list ap;
	int argc = 0;

	argv[argc++] = bin;
	va_start(ap, in);
	while ((argv[argc] = va_arg(ap, const char *)))
		CHECK(++argc < 23);
	va_end(ap);
	run_argv(r, in, argv);
}

/* the command of mode @m, in @argv: its length */
static int mode_argv(const struct mode *m, const char **argv)
{
	if (!m->opt) {
		argv[0] = bin;
		argv[1] = "lookup";
	} else {
		argv[0] = peer;
		argv[1] = m->opt;
	}
	return 2;
}

/* lookup in mode @m [EXTRA] FILE < keys, with --stats */
static void run_lookup(struct run *r, const struct mode *m, const char *extra,
		       const char *file, const char *keys)
{
	const char *argv[8];
	int argc = mode_argv(m, argv);

	argv[argc++] = "--stats";
	if (extra)
		argv[argc++] = extra;
	argv[argc++] = file;
	argv[argc] = NULL;
	run_argv(r, keys, argv);
}

#define CHECK_STR(have, want)                                                 \
	do {                                                                  \
		if (strcmp((have), (want)))                                   \
			FAIL("got:\n%s\nwant:\n%s", (have), (want));          \
	} while (0)

#define CHECK_HAS(have, want)                                                 \
	do {                                                                  \
		if (!strstr((have), (want)))                                  \
			FAIL("'%s' lacks '%s'", (have), (want));              \
	} while (0)

/* ---- trees ---- */

struct tree {
	char path[320];
	uint64_t seed, nkeys;
	uint32_t fanout, depth;
	uint64_t *sorted;	/* its keys, sorted */
	struct btree_header h;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* build @name with btree-lookup build; its answer names the tree */
static void build(struct tree *t, const char *name, uint64_t nkeys,
		  uint32_t fanout, uint64_t seed)
{
	char n[32], f[32], s[32], want[512];
	struct run r;
	uint64_t i, nodes;
	int fd;

	snprintf(t->path, sizeof(t->path), "%s", path_in(name));
	snprintf(n, sizeof(n), "%" PRIu64, nkeys);
	snprintf(f, sizeof(f), "%u", fanout);
	snprintf(s, sizeof(s), "0x%" PRIx64, seed);
	run_in(&r, NULL, "build", "--seed", s, "--fanout", f, t->path, n,
	       NULL);
	CHECK_EQ(r.status, 0);
	t->depth = btree_shape(nkeys, fanout, &nodes);
	snprintf(want, sizeof(want),
		 "%s: %" PRIu64 " keys, fanout %u, depth %u, %" PRIu64 " nodes, seed 0x%" PRIx64 "\n",
		 t->path, nkeys, fanout, t->depth, nodes, seed);
	CHECK_STR(r.out, want);
	CHECK_STR(r.err, "");
	run_free(&r);
	t->seed = seed;
	t->nkeys = nkeys;
	t->fanout = fanout;
	t->sorted = calloc(nkeys + 1, sizeof(uint64_t));
	CHECK(t->sorted);
	for (i = 0; i < nkeys; i++)
		t->sorted[i] = btree_key(seed, i);
	qsort(t->sorted, nkeys, sizeof(uint64_t), cmp_u64);
	fd = CHECK_SYS(open(t->path, O_RDONLY | O_CLOEXEC));
	CHECK_EQ(pread(fd, &t->h, sizeof(t->h), 0), (long long)sizeof(t->h));
	CHECK_SYS(close(fd));
	CHECK_EQ(t->h.depth, t->depth);
}

static int tree_has(const struct tree *t, uint64_t key)
{
	return bsearch(&key, t->sorted, t->nkeys, sizeof(uint64_t),
		       cmp_u64) != NULL;
}

/* "KEY VALUE" or "KEY not found" */
static size_t answer(char *buf, size_t size, const struct tree *t,
		     uint64_t key)
{
	if (tree_has(t, key))
		return (size_t)snprintf(buf, size, "%" PRIu64 " %" PRIu64 "\n",
					key, (uint64_t)btree_value(key));
	return (size_t)snprintf(buf, size, "%" PRIu64 " not found\n", key);
}

/*
 * @n keys, half present, half absent, the extremes too, in random order;
 * written to @keys_path (decimal and hex mixed), the expected output to
 * a malloc'ed string
 */
static char *gen_keys(const struct tree *t, uint64_t n, const char *keys_path)
{
	FILE *kf = fopen(keys_path, "w");
	size_t cap = (n + 2) * 48 + 1, len = 0;
	char *want = malloc(cap);
	uint64_t i, key;

	CHECK(kf && want);
	for (i = 0; i < n + 2; i++) {
		if (i == n)
			key = 0;
		else if (i == n + 1)
			key = UINT64_MAX;
		else if (test_rng_below(&rng, 2) && t->nkeys)
			key = btree_key(t->seed, test_rng_below(&rng, t->nkeys));
		else
			key = btree_key(t->seed, t->nkeys +
					test_rng_below(&rng, 1000000));
		fprintf(kf, i % 3 ? "%" PRIu64 "\n" : "0x%" PRIx64 " ", key);
		len += answer(want + len, cap - len, t, key);
	}
	CHECK(fclose(kf) == 0);
	return want;
}

/* the --stats line */
struct stats {
	uint64_t lookups, reads, steps, enters;
	double secs, p50, p99;
};

static void parse_stats(const char *err, const struct mode *m,
			struct stats *s)
{
	char head[64];
	const char *p;

	snprintf(head, sizeof(head), "%s: %s: ", m->opt ? PEER : NAME,
		 m->name);
	p = strstr(err, head);
	if (!p)
		FAIL("no stats line '%s' in '%s'", head, err);
	CHECK_EQ(sscanf(p + strlen(head),
			"%" SCNu64 " lookups, %" SCNu64 " reads, %" SCNu64 " steps, %" SCNu64 " io_uring_enter calls, %lf s, p50 %lf us, p99 %lf us,",
			&s->lookups, &s->reads, &s->steps, &s->enters,
			&s->secs, &s->p50, &s->p99), 7);
}

/*
 * Each walk reads one node per level: reads are exact; steps are the
 * program runs (one a read: the root's read carries the first) or the
 * judgements, one a read too;
 * enters: none for pread, at least one per level for the io_uring loop,
 * and for the coroutine fewer than the lookups (the point of it)
 */
static void check_stats(const struct run *r, const struct mode *m,
			uint64_t lookups, uint32_t depth, uint32_t inflight)
{
	struct stats s;

	parse_stats(r->err, m, &s);
	CHECK_EQ(s.lookups, lookups);
	CHECK_EQ(s.reads, lookups * depth);
	/*
	 * every lookup timed inside the run: p50 <= p99 <= the run's time
	 * (0 is possible: the test guest's clock ticks every 4 ms)
	 */
	CHECK(s.p50 >= 0 && s.p50 <= s.p99);
	CHECK(s.p99 <= s.secs * 1e6 + 1);
	if (m == BPF) {
		/* the root's read carries the first step: no start */
		CHECK_EQ(s.steps, lookups * depth);
		CHECK(s.enters >= 1);
		if (inflight > 1)
			CHECK(s.enters < lookups);
	} else {
		CHECK_EQ(s.steps, lookups * depth);
		if (m == &modes[0])
			CHECK_EQ(s.enters, 0);
		else
			CHECK(s.enters >= depth && s.enters <= lookups * depth);
	}
}

/* @n keys of @t in all three modes: the answers the keys say, exact stats */
static void lookups_all_modes(const struct tree *t, uint64_t n)
{
	char *keys = path_in("keys"), *want = gen_keys(t, n, keys);
	struct run r;
	size_t m;

	for (m = 0; m < 3; m++) {
		run_lookup(&r, &modes[m], NULL, t->path, keys);
		CHECK_EQ(r.status, 0);
		CHECK_STR(r.out, want);
		check_stats(&r, &modes[m], n + 2, t->depth, 256);
		run_free(&r);
	}
	free(want);
}

/* --random: the three modes agree, and each answer is right */
static void random_all_modes(const struct tree *t, uint64_t n)
{
	char count[32], seed[32], *first = NULL;
	const char *p;
	struct run r;
	uint64_t key, value;
	size_t m, lines = 0, found = 0;

	snprintf(count, sizeof(count), "%" PRIu64, n);
	snprintf(seed, sizeof(seed), "%" PRIu64, test_rng_next(&rng));
	for (m = 0; m < 3; m++) {
		const char *argv[10];
		int argc = mode_argv(&modes[m], argv);

		argv[argc++] = "--stats";
		argv[argc++] = "--random";
		argv[argc++] = count;
		argv[argc++] = "--seed";
		argv[argc++] = seed;
		argv[argc++] = t->path;
		argv[argc] = NULL;
		run_argv(&r, NULL, argv);
		CHECK_EQ(r.status, 0);
		check_stats(&r, &modes[m], n, t->depth, 256);
		if (!first) {
			first = strdup(r.out);
		} else {
			CHECK_STR(r.out, first);
		}
		run_free(&r);
	}
	for (p = first; *p; p = strchr(p, '\n') + 1) {
		char word[16] = "";

		lines++;
		if (sscanf(p, "%" SCNu64 " %" SCNu64, &key, &value) == 2) {
			CHECK(tree_has(t, key));
			CHECK(value == btree_value(key));
			found++;
		} else {
			CHECK_EQ(sscanf(p, "%" SCNu64 " %15s", &key, word), 2);
			CHECK_STR(word, "not");
			CHECK(!tree_has(t, key));
		}
	}
	CHECK_EQ(lines, n);
	/* half of them present, give or take */
	CHECK(found > n / 4 && found < 3 * n / 4);
	free(first);
}

/* few in flight: the windows refill; the answers stay the same */
static void few_in_flight(const struct tree *t, uint64_t n)
{
	static const char *const q[] = { "--inflight=1", "--inflight=7" };
	char *keys = path_in("keys"), *want = gen_keys(t, n, keys);
	struct run r;
	size_t m;

	/* --uring one at a time, the coroutine 7 at a time */
	for (m = 1; m < 3; m++) {
		run_lookup(&r, &modes[m], q[m - 1], t->path, keys);
		CHECK_EQ(r.status, 0);
		CHECK_STR(r.out, want);
		check_stats(&r, &modes[m], n + 2, t->depth, m == 1 ? 1 : 7);
		run_free(&r);
	}
	free(want);
}

static void tree_free(struct tree *t)
{
	CHECK_SYS(unlink(t->path));
	free(t->sorted);
}

/*
 * Depth d: fanout 2 or 3 (2 from depth 6 on: small files) and between
 * fanout^(d-1) + 1 and fanout^d keys, which take exactly d levels
 */
IOCORO_CASE(depths)
{
	uint32_t d;

	for (d = 3; d <= 8; d++) {
		uint32_t f = d < 6 ? 2 + (uint32_t)test_rng_below(&rng, 2) : 2;
		uint64_t lo = 1, n;
		struct tree t;
		uint32_t i;

		for (i = 0; i < d - 1; i++)
			lo *= f;
		n = lo + 1 + test_rng_below(&rng, lo * (f - 1));
		printf("depth %u: fanout %u, %" PRIu64 " keys\n", d, f, n);
		build(&t, "tree", n, f, test_rng_next(&rng));
		CHECK_EQ(t.depth, d);
		lookups_all_modes(&t, 60);
		if (d == 5)
			few_in_flight(&t, 20);
		if (d == 4)
			random_all_modes(&t, 120);
		tree_free(&t);
	}
}

/*
 * --direct: the nodes read with O_DIRECT (tmpfs has it since 6.6), in
 * all three modes and at one lookup in flight: the same answers, the
 * same exact counts
 */
IOCORO_CASE(direct)
{
	char *keys, *want;
	struct tree t;
	struct run r;
	size_t m;

	build(&t, "direct", 3000, 4, test_rng_next(&rng));
	keys = path_in("keys");
	want = gen_keys(&t, 50, keys);
	for (m = 0; m < 3; m++) {
		run_lookup(&r, &modes[m], "--direct", t.path, keys);
		CHECK_EQ(r.status, 0);
		CHECK_STR(r.out, want);
		check_stats(&r, &modes[m], 52, t.depth, 256);
		run_free(&r);
	}
	free(want);
	tree_free(&t);
}

/* ---- errors ---- */

static void read_node(const struct tree *t, uint64_t off, struct btree_node *n)
{
	int fd = CHECK_SYS(open(t->path, O_RDONLY | O_CLOEXEC));

	CHECK_EQ(pread(fd, n, sizeof(*n), (off_t)off), (long long)sizeof(*n));
	CHECK_SYS(close(fd));
}

static void write_node(const struct tree *t, uint64_t off,
		       const struct btree_node *n)
{
	int fd = CHECK_SYS(open(t->path, O_WRONLY | O_CLOEXEC));

	CHECK_EQ(pwrite(fd, n, sizeof(*n), (off_t)off), (long long)sizeof(*n));
	CHECK_SYS(close(fd));
}

/*
 * stderr of a run in mode @m is @want (btree-lookup's words): uring_btree
 * says the same with its own name
 */
static void check_err(const struct run *r, const struct mode *m,
		      const char *want)
{
	char have[4096], *o = have;
	const char *p = r->err;

	while (*p && o < have + sizeof(have) - sizeof(NAME)) {
		if (m->opt && !strncmp(p, PEER, strlen(PEER))) {
			o = stpcpy(o, NAME);
			p += strlen(PEER);
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	CHECK(!*p);
	CHECK_STR(have, want);
}

/* the same lookup fails alike in every mode listed: status, stderr */
static void fails_alike(const char *file, const char *key, size_t nmodes,
			int status, const char *err)
{
	struct run r;
	size_t m;

	for (m = 0; m < nmodes; m++) {
		const char *argv[6];
		int argc = mode_argv(&modes[m], argv);

		argv[argc++] = file;
		argv[argc++] = key;
		argv[argc] = NULL;
		run_argv(&r, NULL, argv);
		CHECK_EQ(r.status, status);
		CHECK_STR(r.out, "");
		check_err(&r, &modes[m], err);
		run_free(&r);
	}
}

/* the stderr line of a lookup of @key that met the corrupt node at @off */
static size_t corrupt_line(char *buf, size_t size, const struct tree *t,
			   uint64_t key, uint64_t off)
{
	return (size_t)snprintf(buf, size,
		NAME ": %s: corrupt node at offset %" PRIu64 " (key %" PRIu64 ")\n",
		t->path, off, key);
}

/*
 * Corrupt nodes in a tree of depth 4 whose root has 4 children (mid
 * nodes, each of 4 children): mid 0 gets a child past the end of the
 * file, an unaligned one and one into the header; mid 1 a cycle back to
 * the root; mid 2 too many entries; mid 3 is zeroed. One lookup heads for
 * each, routed by the smallest key under it, and one for mid 0's intact
 * last child: in every mode, each corrupt node is reported at the node
 * that is not what the walk expects (the root, read again one level
 * down, for the cycle), the good key still answered, exit status 1. One
 * run per mode: loading the coroutine takes seconds on the debug kernel.
 */
static void corrupt_nodes(size_t nmodes)
{
	struct btree_node *root = malloc(sizeof(*root));
	struct btree_node *mid = malloc(sizeof(*mid));
	uint64_t mids[4], keys[7], offs[7], good;
	char args[7][32], err[2048], out[128];
	size_t len = 0, i, m;
	struct tree t;
	struct run r;

	CHECK(root && mid);
	build(&t, "corrupt", 256, 4, test_rng_next(&rng));
	CHECK_EQ(t.depth, 4);
	read_node(&t, t.h.root, root);
	CHECK_EQ(root->nkeys, 4);
	for (i = 0; i < 4; i++)
		mids[i] = root->ptrs[i];

	read_node(&t, mids[0], mid);
	CHECK_EQ(mid->nkeys, 4);
	for (i = 0; i < 3; i++) {
		keys[i] = mid->keys[i];
		offs[i] = mids[0];
	}
	good = mid->keys[3];
	mid->ptrs[0] = btree_file_size(t.h.nnodes);
	mid->ptrs[1] += 8;
	mid->ptrs[2] = 0;
	write_node(&t, mids[0], mid);

	read_node(&t, mids[1], mid);
	keys[3] = mid->keys[0];
	offs[3] = t.h.root;
	mid->ptrs[0] = t.h.root;
	write_node(&t, mids[1], mid);

	read_node(&t, mids[2], mid);
	keys[4] = mid->keys[0];
	offs[4] = mids[2];
	mid->nkeys = BTREE_SLOTS + 1;
	write_node(&t, mids[2], mid);

	read_node(&t, mids[3], mid);
	keys[5] = mid->keys[0];
	offs[5] = mids[3];
	memset(mid, 0, sizeof(*mid));
	write_node(&t, mids[3], mid);

	keys[6] = good;
	for (i = 0; i < 7; i++) {
		snprintf(args[i], sizeof(args[i]), "%" PRIu64, keys[i]);
		if (i < 6)
			len += corrupt_line(err + len, sizeof(err) - len, &t,
					    keys[i], offs[i]);
	}
	snprintf(out, sizeof(out), "%" PRIu64 " %" PRIu64 "\n", good,
		 (uint64_t)btree_value(good));
	for (m = 0; m < nmodes; m++) {
		const char *argv[12];
		int argc = mode_argv(&modes[m], argv);

		argv[argc++] = t.path;
		for (i = 0; i < 7; i++)
			argv[argc++] = args[i];
		argv[argc] = NULL;
		run_argv(&r, NULL, argv);
		CHECK_EQ(r.status, 1);
		CHECK_STR(r.out, out);
		check_err(&r, &modes[m], err);
		run_free(&r);
	}
	tree_free(&t);
	free(root);
	free(mid);
}

/* bad files, bad keys, bad usage; @nmodes: the modes that can run */
static void errors(size_t nmodes)
{
	char *notree = path_in("notree"), *missing = path_in("missing");
	char err[512], size[32];
	struct tree t;
	struct run r;

	snprintf(err, sizeof(err),
		 NAME ": %s: No such file or directory\n", missing);
	fails_alike(missing, "1", nmodes, 1, err);
	write_text(notree, "just some text, longer than a btree header, a lot longer\n");
	snprintf(err, sizeof(err), NAME ": %s: not a btree file\n", notree);
	fails_alike(notree, "1", nmodes, 1, err);
	snprintf(err, sizeof(err), NAME ": %s: Is a directory\n", work);
	fails_alike(work, "1", nmodes, 1, err);

	/* a truncated tree: its last node cut short */
	build(&t, "truncated", 100, 4, test_rng_next(&rng));
	CHECK_SYS(truncate(t.path, (off_t)btree_file_size(t.h.nnodes) - 1));
	snprintf(err, sizeof(err),
		 NAME ": %s: truncated: shorter than its header says\n",
		 t.path);
	fails_alike(t.path, "1", nmodes, 1, err);
	/* a corrupt header: depth 0 */
	t.h.depth = 0;
	CHECK_SYS(truncate(t.path, 0));
	write_text(t.path, "");
	{
		int fd = CHECK_SYS(open(t.path, O_WRONLY | O_CLOEXEC));

		CHECK_EQ(pwrite(fd, &t.h, sizeof(t.h), 0),
			 (long long)sizeof(t.h));
		CHECK_SYS(ftruncate(fd, (off_t)btree_file_size(t.h.nnodes)));
		CHECK_SYS(close(fd));
	}
	snprintf(err, sizeof(err), NAME ": %s: corrupt btree header\n", t.path);
	fails_alike(t.path, "1", nmodes, 1, err);
	tree_free(&t);

	corrupt_nodes(nmodes);

	/* keys that are not numbers: nothing looked up, exit 2 */
	build(&t, "good", 10, 4, test_rng_next(&rng));
	fails_alike(t.path, "12x", nmodes, 2,
		    NAME ": invalid key: '12x'\nTry '" NAME " --help' for more information.\n");
	fails_alike(t.path, "+1", nmodes, 2,
		    NAME ": invalid key: '+1'\nTry '" NAME " --help' for more information.\n");
	fails_alike(t.path, "18446744073709551616", nmodes, 2,
		    NAME ": invalid key: '18446744073709551616'\nTry '" NAME " --help' for more information.\n");
	write_text(path_in("badkeys"), "1 2\nthree\n");
	{
		const char *argv[] = { peer, "--pread", t.path, NULL };

		run_argv(&r, path_in("badkeys"), argv);
	}
	CHECK_EQ(r.status, 2);
	CHECK_STR(r.out, "");
	CHECK_HAS(r.err, PEER ": invalid key: 'three'\n");
	run_free(&r);
	/* the peers' modes are uring_btree's, not btree-lookup's */
	run_in(&r, NULL, "lookup", "--pread", t.path, "1", NULL);
	CHECK_EQ(r.status, 2);
	CHECK_STR(r.out, "");
	CHECK_HAS(r.err, "unrecognized option '--pread'");
	run_free(&r);
	tree_free(&t);
	{
		const char *argv[] = { peer, "--uring", NULL };

		run_argv(&r, NULL, argv);
	}
	CHECK_EQ(r.status, 2);
	CHECK_HAS(r.err, PEER ": missing file operand\n");
	run_free(&r);

	/* usage */
	run_in(&r, NULL, NULL);
	CHECK_EQ(r.status, 2);
	CHECK_HAS(r.err, NAME ": missing command: build or lookup\n");
	run_free(&r);
	run_in(&r, NULL, "lookup", NULL);
	CHECK_EQ(r.status, 2);
	CHECK_HAS(r.err, NAME ": missing file operand\n");
	run_free(&r);
	run_in(&r, NULL, "build", "--fanout", "1", path_in("x"), "10", NULL);
	CHECK_EQ(r.status, 2);
	CHECK_HAS(r.err, NAME ": invalid fanout: '1' (2..255)\n");
	run_free(&r);
	run_in(&r, NULL, "build", path_in("x"), "ten", NULL);
	CHECK_EQ(r.status, 2);
	CHECK_HAS(r.err, NAME ": invalid key count: 'ten'\n");
	run_free(&r);
	snprintf(size, sizeof(size), "%d", 70000);
	run_in(&r, NULL, "build", "--fanout", "2", path_in("x"), size, NULL);
	CHECK_EQ(r.status, 1);
	snprintf(err, sizeof(err),
		 NAME ": %s: 70000 keys with fanout 2 need more than 16 levels\n",
		 path_in("x"));
	CHECK_STR(r.err, err);
	run_free(&r);
	run_in(&r, NULL, "build", path_in("nodir/x"), "10", NULL);
	CHECK_EQ(r.status, 1);
	snprintf(err, sizeof(err),
		 NAME ": cannot create regular file '%s': No such file or directory\n",
		 path_in("nodir/x"));
	CHECK_STR(r.err, err);
	run_free(&r);
	run_in(&r, NULL, "frobnicate", NULL);
	CHECK_EQ(r.status, 2);
	CHECK_HAS(r.err, NAME ": unknown command 'frobnicate'\n");
	run_free(&r);
	run_in(&r, NULL, "--help", NULL);
	CHECK_EQ(r.status, 0);
	CHECK_HAS(r.out, "Usage: " NAME " build");
	run_free(&r);
}

/* any kernel: uring_btree --pread works, the coroutine needs the series */
IOCORO_CASE_OPTS(host, .host = true)
{
	int probe = iocoro_probe();
	char want[512];
	struct tree t;
	struct run r;

	printf("iocoro_probe() = %d (%s)\n", probe, iocoro_strerror(probe));
	/* --uring where io_uring runs, never the coroutine */
	errors(probe == -EOPNOTSUPP || probe == 0 ? 2 : 1);
	build(&t, "host", 1000, 5, test_rng_next(&rng));
	{
		char *keys = path_in("keys"), *w = gen_keys(&t, 100, keys);

		run_lookup(&r, &modes[0], NULL, t.path, keys);
		CHECK_EQ(r.status, 0);
		CHECK_STR(r.out, w);
		check_stats(&r, &modes[0], 102, t.depth, 1);
		run_free(&r);
		free(w);
	}
	if (probe != 0) {
		/* never loads anything: the ring setup finds no series */
		run_in(&r, NULL, "lookup", t.path, "1", NULL);
		CHECK_EQ(r.status, 1);
		snprintf(want, sizeof(want), NAME ": %s\n",
			 iocoro_strerror(probe));
		CHECK_STR(r.err, want);
		run_free(&r);
	}
	tree_free(&t);
}

IOCORO_CASE(errors)
{
	errors(3);
}

/* BTREE_LOOKUP and URING_BTREE, the binaries under test: the suite's ARGS */
void iocoro_suite_setup(int argc, char **argv)
{
	if (argc != 2)
		FAIL("usage: btree_test CASE BTREE_LOOKUP URING_BTREE");
	bin = run_app_setup("btree", 1, argv, &rng, work, sizeof(work));
	peer = argv[1];
}

/* the files a case may leave, then the directory, which must be empty */
void iocoro_suite_teardown(void)
{
	unlink(path_in("keys"));
	unlink(path_in("notree"));
	unlink(path_in("badkeys"));
	CHECK_SYS(rmdir(work));
}
