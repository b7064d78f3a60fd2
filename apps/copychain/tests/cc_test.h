/* SPDX-License-Identifier: MIT */
/*
 * The copychain suite: tests of the copychain program, run as a child on
 * generated files, a suite of self-registering cases (tests/lib/case.h),
 * run as "copychain_test CASE COPYCHAIN", ctest copychain_<case>. One
 * file a subject:
 *
 *   copy.c       output (silent like cp, -v, --stats, the progress line,
 *                --help, --version), sizes (0, 1, chunk-1, chunk,
 *                chunk+1, 3 MiB+17 bytes at several depths and chunks,
 *                over an existing DST), budget (more steps than the
 *                default budget; a file longer than its size spends the
 *                copy's budget), sparse (data past 4 GiB: only the data
 *                copied, the copy sparse)
 *   modes.c      modes (as cp: umask, no setuid, an existing DST's mode
 *                kept, symlink and hard-link DSTs, -p)
 *   privilege.c  nocap (without CAP_BPF and CAP_PERFMON: one line naming
 *                them and setcap), denied (as nobody with both: file
 *                permissions as for cp)
 *   errors.c     errors (bad input), enospc (a full tmpfs: ENOSPC, no
 *                DST, no temporary file), host (bad input, then the
 *                running kernel: without the series iocoro_strerror()'s
 *                words and nothing created; with it, the copy works)
 *   trees.c      multi (SRC DIR, SRC... DIR), jobs (--jobs), tree (-r
 *                against cp -r), many (thousands of small files)
 *   fallback.c   fallback (the named DST.XXXXXX where O_TMPFILE is not
 *                supported)
 *   signal.c     signal (SIGKILL, SIGTERM, SIGINT in the middle of a
 *                copy: no DST, no temporary file)
 *   cp_options.c cpopts (cp's options next to cp), streams (fifos,
 *                devices, sockets), sync (--sync)
 *   common.c     what they share (below), the suite's setup and teardown
 *
 * All but host run in the guest. Every case runs in a fresh directory
 * under $TMPDIR (or /tmp), which each case and the suite's teardown check
 * entry by entry: a temporary DST.XXXXXX left behind fails it.
 */
#ifndef CC_TEST_H
#define CC_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <iocoro.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <linux/capability.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "case.h"
#include "check.h"
#include "files.h"
#include "run.h"
#include "seed.h"

#define CHUNK (128U << 10)

/* the copychain binary under test, and the case's scratch directory */
extern const char *bin;
extern char work[256];

/* the next number of the suite's seeded generator (IOCORO_SEED) */
uint64_t rng(void);
/* @path: @size random bytes (rng()), mode @mode */
void gen_file(const char *path, size_t size, mode_t mode);
/* the bytes of @path (malloc()ed), their number in *@size */
unsigned char *slurp(const char *path, size_t *size);
/* 0 if the files @a and @b have the same bytes, 1 if not */
int same_bytes(const char *a, const char *b);
/* "@dir/@name", allocated */
char *path_in(const char *dir, const char *name);
/* @n files name0 .. of random sizes below @max in @dir; their paths */
char **gen_files(const char *dir, const char *name, int n, size_t max);
void free_strv(char **v);
/* the entries of @dir, sorted and joined by spaces ("" when empty) */
void dir_entries(const char *dir, char *out, size_t size);
/* run the shell command of @fmt, print it and its output (also in @out):
 * its exit status */
int shell(char *out, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* seconds on CLOCK_MONOTONIC */
double now_s(void);

/* @dir holds exactly the entries @expected (dir_entries()'s form) */
#define CHECK_ENTRIES(dir, expected)                                          \
	do {                                                                  \
		char entries_[4096];                                          \
		dir_entries((dir), entries_, sizeof(entries_));               \
		if (strcmp(entries_, (expected)))                             \
			FAIL("%s holds '%s', expected '%s'", (dir), entries_, \
			     (expected));                                     \
	} while (0)

/*
 * run copychain with the NULL-terminated arguments after @r (zeroed or
 * run before: its output is freed first), print it; r->out has stdout and
 * stderr (run.h)
 */
void run_copychain(struct run *r, ...);
/* the same with @argv (NULL-terminated, bin first) */
void run_copychain_argv(struct run *r, const char *const *argv);

#define CHECK_OUT(r, s)                                                       \
	do {                                                                  \
		if (!strstr((r)->out, (s)))                                   \
			FAIL("output lacks '%s'", (s));                       \
	} while (0)

/* copychain's @out has cp's first line of @cp_out, "cp:" read as "copychain:" */
void check_cp_words(const char *out, const char *cp_out);
/*
 * --stats' io_uring_enter calls: at least one, far fewer than the steps;
 * and its loading line (check_loading())
 */
void check_enters(const struct run *r);
/* --stats' loading line: each phase >= 0, their sum at most the whole */
void check_loading(const struct run *r);
/*
 * copychain --stats of a new file @name of @size bytes, mode @mode, in
 * chunks of @chunk at --depth @depth: same bytes and mode, the steps
 * such a copy takes, no other file beside them; both removed then (copy.c)
 */
void copy_ok(const char *name, size_t size, mode_t mode, unsigned int chunk,
	     unsigned int depth);
/* the capabilities become_nobody() keeps */
enum nobody_caps {
	NOBODY_NONE,	/* no capabilities */
	NOBODY_BPF,	/* CAP_BPF alone: too little to load the steps */
	NOBODY_LOAD,	/* CAP_BPF and CAP_PERFMON: what loading them needs */
};
/* become nobody with @keep alone (ambient, kept across exec): 0 or -1 */
int become_nobody(enum nobody_caps keep);
/*
 * fork: in the child, nobody with @keep, true (the child ends in _exit(),
 * 0 when its checks passed); in the parent, false once the child exited
 * 0 (the test fails if it did not)
 */
bool child_as_nobody(enum nobody_caps keep);
/* @a and @b hold the same tree: names, types, modes, links, bytes */
void check_same_tree(const char *a, const char *b);

/* run copychain with @argv in a child, its output in @r: its pid (signal.c) */
pid_t spawn(struct run *r, const char *const *argv);
/* @sig to the copychain of spawn(), which it must die of (signal.c) */
void kill_reap(struct run *r, int sig);

#endif
