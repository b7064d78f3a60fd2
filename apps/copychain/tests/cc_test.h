/* SPDX-License-Identifier: MIT */
/*
 * What the files of the copychain suite share: copychain_test.c has the
 * helpers and most cases, signal.c the copies killed in the middle,
 * cp_options.c cp's options, streams and --sync.
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
#include "seed.h"

#define CHUNK (128U << 10)

/* the copychain binary under test, and the case's scratch directory */
extern const char *bin;
extern char work[256];

/* @path: @size random bytes (rng()), mode @mode */
void gen_file(const char *path, size_t size, mode_t mode);
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

/* @dir holds exactly the entries @expected (dir_entries()'s form) */
#define CHECK_ENTRIES(dir, expected)                                          \
	do {                                                                  \
		char entries_[4096];                                          \
		dir_entries((dir), entries_, sizeof(entries_));               \
		if (strcmp(entries_, (expected)))                             \
			FAIL("%s holds '%s', expected '%s'", (dir), entries_, \
			     (expected));                                     \
	} while (0)

/* a run of copychain: its exit status and output */
struct run {
	int status;	/* exit status, 128 + signal if killed */
	char out[16384];	/* stdout and stderr */
};

/* run copychain with the NULL-terminated arguments after @r, print it */
void run_copychain(struct run *r, ...);

#define CHECK_OUT(r, s)                                                       \
	do {                                                                  \
		if (!strstr((r)->out, (s)))                                   \
			FAIL("output lacks '%s'", (s));                       \
	} while (0)

/* copychain's @out has cp's first line of @cp_out, "cp:" read as "copychain:" */
void check_cp_words(const char *out, const char *cp_out);
/* become nobody with CAP_BPF alone (ambient): 0 or -1 */
int nobody_with_bpf(void);
/* @a and @b hold the same tree: names, types, modes, links, bytes */
void check_same_tree(const char *a, const char *b);

/* run copychain with @argv in a child; its pid (signal.c) */
pid_t spawn(const char *const *argv);
/* @sig to @pid, which it must die of (signal.c) */
void kill_reap(pid_t pid, int sig);

#endif
