/* SPDX-License-Identifier: MIT */
/*
 * A run of lookups as btree-lookup's lookup command and its benchmark
 * peer uring_btree (bench/btree/uring_btree.c) both make it: the options
 * they share, the keys (operands, standard input or --random), which
 * lookup each slot in flight runs, the answers printed in input order and
 * the --stats line, so that the two compare like with like. Only how the
 * lookups run differs: a struct btree_prog's run(). Functions return 0
 * or -errno and never set errno; those that return an exit status say so.
 *
 *   static const struct btree_prog prog = { .name = "x", .run = run, ... };
 *
 *   ret = btree_parse_opts(&prog, argc, argv, &o);
 *   ...
 *   return btree_lookup_main(&prog, &o, argc - optind, argv + optind);
 */
#ifndef BTREE_RUN_H
#define BTREE_RUN_H

#include <stdint.h>
#include <stdio.h>

#include "btree-file.h"

#define BTREE_DEFAULT_INFLIGHT	256U
#define BTREE_TOOL_VERSION	"0.1"	/* --version's */

/* how the lookups run: the coroutine (btree-lookup), or user space */
enum btree_mode { BTREE_MODE_BPF, BTREE_MODE_PREAD, BTREE_MODE_URING };

/* the options a program takes besides the shared ones (btree_prog.opts) */
#define BTREE_OPT_FANOUT	(1U << 0)	/* --fanout F (build) */
#define BTREE_OPT_MODES		(1U << 1)	/* --pread, --uring */

struct btree_opts {
	enum btree_mode mode;
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
struct btree_stats {
	uint64_t lookups;
	uint64_t reads;
	uint64_t steps;		/* program runs; node judgements in user space */
	uint64_t enters;	/* io_uring_enter() calls */
	double secs;
	double p50_us;		/* a lookup's time, start to answer */
	double p99_us;
};

/*
 * The lookups, in input order, and the ones in flight: slot i runs
 * lookup owner[i] (slots are the caller's: a coroutine id, an index)
 */
struct btree_run {
	struct btree_result *r;
	uint64_t *ns;		/* with --stats: each lookup's time */
	size_t n;
	size_t cap;
	size_t next;		/* the next lookup to start */
	size_t done;
	size_t owner[BTREE_MAX_INFLIGHT];
	uint64_t since[BTREE_MAX_INFLIGHT];	/* when the slot's lookup began */
	/*
	 * the timed part, btree_now_ns(): from t0, set before run(), to t1,
	 * set after it unless run() did; run() may move t0 past its setup
	 * and set t1 before its teardown
	 */
	uint64_t t0, t1;
	struct btree_stats st;
};

struct btree_prog {
	const char *name;	/* in every message */
	unsigned int opts;	/* BTREE_OPT_* */
	void (*usage)(FILE *f);	/* --help (btree_usage_lookup() helps) */
	/*
	 * look up @run's keys in @f: each lookup started with
	 * btree_run_start() and ended with btree_run_end(), its answer in
	 * the btree_result they hand out; 0, -errno, or -ECANCELED when the
	 * failure was reported
	 */
	int (*run)(const struct btree_opts *o, const struct btree_file *f,
		   struct btree_run *run);
};

/* CLOCK_MONOTONIC in ns */
uint64_t btree_now_ns(void);

/* @n page-aligned node buffers (mmap), or NULL; btree_bufs_free() */
void *btree_bufs(uint32_t n);
void btree_bufs_free(void *bufs, uint32_t n);

/* a whole decimal or 0x hex number, no sign: 0 or -EINVAL */
int btree_parse_u64(const char *s, uint64_t *v);

/* "PROG: <fmt>" and a hint on stderr: exit status 2 (bad usage) */
int btree_bad_usage(const struct btree_prog *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* the help of the options every lookup takes (--inflight, --stats, ...) */
void btree_usage_lookup(FILE *f);

/*
 * Options from argv[optind] on, for @p: 0, -1 (--help or --version
 * done), or 2 (bad usage, reported). @o keeps what it was given unless
 * an option changes it.
 */
int btree_parse_opts(const struct btree_prog *p, int argc, char **argv,
		     struct btree_opts *o);

/*
 * The lookup command on operands FILE [KEY...] (@argc of @argv): open
 * FILE, take the keys, @p->run() them, print the answers and, with
 * --stats, the stats line. Its exit status: 0 every lookup answered, 1
 * a file error, a corrupt node or a failed read, 2 bad usage.
 */
int btree_lookup_main(const struct btree_prog *p, const struct btree_opts *o,
		      int argc, char **argv);

/*
 * The next lookup, now run in @slot: its result (r->key set), or NULL
 * when every lookup has started
 */
struct btree_result *btree_run_start(struct btree_run *run, uint32_t slot);

/* the lookup of @slot ended: its result, for its answer */
struct btree_result *btree_run_end(struct btree_run *run, uint32_t slot);

/* the result of the lookup @slot runs */
static inline struct btree_result *btree_run_slot(struct btree_run *run,
						  uint32_t slot)
{
	return &run->r[run->owner[slot]];
}

/* 1 while a lookup has not started */
static inline int btree_run_pending(const struct btree_run *run)
{
	return run->next < run->n;
}

/* 1 when every lookup has ended */
static inline int btree_run_over(const struct btree_run *run)
{
	return run->done == run->n;
}

#endif /* BTREE_RUN_H */
