/* SPDX-License-Identifier: MIT */
/*
 * copychain's user-space side without the kernel: the command line, the
 * list of files to copy (walking trees for -r: directories created,
 * symbolic links recreated, other types reported), and what happens to
 * a copy's name and mode around it, as cp does: cc_opts.c (the command
 * line), cc_dst.c (the destination's policy), cc_plan.c (the plan, -r's
 * walk), cc_dirs.c (the directories at the end). The unit test
 * tests/cc_plan_test.c runs them on the host.
 */
#ifndef CC_PLAN_H
#define CC_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <limits.h>

#define CC_VERSION		"0.4"
/* defaults: measured in the guest against cp (README.md) */
#define CC_DEFAULT_CHUNK	(1U << 20)
#define CC_DEFAULT_DEPTH	2
#define CC_DEFAULT_JOBS		64
/* a read's result is an int: keep chunks far below INT_MAX */
#define CC_MAX_CHUNK		(1U << 30)
#define CC_MAX_JOBS		128
/* all the buffers together (jobs * depth * chunk) */
#define CC_MAX_BUFFERS		(1ULL << 31)

/* what to do with a DST that exists (-i, -n: the last one given wins) */
enum cc_overwrite {
	CC_OVERWRITE,		/* replace it (the default) */
	CC_NO_CLOBBER,		/* -n: keep it, silently */
	CC_ASK,			/* -i: ask on stderr, read the answer */
};

struct cc_opts {
	int verbose;		/* -v: 'SRC' -> 'DST' for each copy */
	int stats;		/* --stats: what the copies took */
	int preserve;		/* -p: mode, owner where permitted, times */
	int recursive;		/* -r, -R */
	int sync;		/* --sync: data fsynced before its name, dirs after */
	int force;		/* -f: replace a DST we may not write to */
	int update;		/* -u: only when SRC is newer than DST */
	enum cc_overwrite overwrite;
	const char *target;	/* -t DIR: every operand is a SRC */
	int no_target_dir;	/* -T: DST is a file name, even if a directory */
	int help, version;
	int progress;		/* a progress line: stderr is a terminal */
	int no_tmpfile;		/* COPYCHAIN_NO_TMPFILE=1: named temp files */
	int defer_taskrun;	/* --defer-taskrun: the ring's steps run in its waits */
	mode_t umask;
	uint32_t chunk;		/* --chunk */
	uint32_t depth;		/* --depth: lanes, buffers a file */
	uint32_t jobs;		/* --jobs: files at once */
};

/* a file to copy: regular, or without -r a fifo or device */
struct cc_item {
	char *src;
	char *dst;
	struct stat st;		/* SRC's, when the plan was made */
};

/* a directory -r created or entered: its mode is set once it is full */
struct cc_newdir {
	char *path;
	mode_t mode;
	int set_mode;		/* 0: it existed and keeps its mode */
	struct timespec times[2];
	int set_times;		/* -p */
};

/* directories to fsync at the end with --sync (the copies' new names) */
struct cc_dirs {
	char **v;
	size_t n, cap;
};

struct cc_plan {
	struct cc_item *items;
	size_t n, cap;
	struct cc_newdir *dirs;
	size_t ndirs, dirs_cap;
};

/* what DST is: nothing yet (exists 0), or a regular file (through links) */
struct cc_dst {
	const char *path;	/* where the copy goes: DST or its link's target */
	int exists;
	struct stat st;
	char real[PATH_MAX];
};

void cc_usage(FILE *f);
/* "131072", "128K", "128KiB", "1M", "1G"; 0 or -EINVAL */
int cc_parse_size(const char *s, unsigned long long *out);
/*
 * The options into @o (defaults for what is not given), the operands to
 * the front of @argv; returns their count, or -EINVAL (reported) for bad
 * usage. --help and --version only set o->help and o->version.
 */
int cc_parse_args(int argc, char **argv, struct cc_opts *o);
/*
 * cp's words for operands that do not fit (none, a missing DST, one too
 * many with -T): the exit status (1) if so, 0 if they fit
 */
int cc_check_operands(const struct cc_opts *o, int n, char **argv);
/*
 * The files to copy for the @n operands in @argv (the last the target,
 * unless -t gave it),
 * with the directories -r creates on the way. Returns 0, 1 if some
 * operand was reported and skipped, -1 if nothing can be copied.
 */
int cc_make_plan(const struct cc_opts *o, int n, char **argv,
		 struct cc_plan *plan);
void cc_plan_free(struct cc_plan *plan);

/* the directory part of @path, in @buf */
const char *cc_dir_of(const char *path, char *buf, size_t size);
/* DST: nothing, or a regular file that is not SRC; 0 or -1 (reported) */
int cc_dst_check(const char *src, const struct stat *src_st,
		 const char *dst, struct cc_dst *d);
/*
 * An existing DST and -n, -u, -i, -f: 0 copy over it, 1 skip it (as cp,
 * silently), -1 refused (reported). -i asks on stderr and reads the
 * answer from @answers. A DST we may not write to is refused, or with
 * -f replaced as a new file (d->exists 0: it gets SRC's mode, as cp -f).
 */
int cc_dst_policy(const struct cc_opts *o, const struct stat *src_st,
		  const char *dst, struct cc_dst *d, FILE *answers);
/* the copy's mode and owner (and times with -p) on @fd, as cp; -errno */
int cc_set_attrs(const struct cc_opts *o, const struct stat *src_st,
		 const struct cc_dst *d, int fd);

void cc_dirs_add(struct cc_dirs *dirs, const char *dir);
/*
 * The end: with --sync, fsync the directories in @synced; then give the
 * directories -r created their modes (and times); 0 or 1 if one failed
 * (reported)
 */
int cc_finish_dirs(const struct cc_opts *o, struct cc_plan *plan,
		   struct cc_dirs *synced);

/* grow *@v of *@cap elements of @size to hold @n + 1; 0 or -ENOMEM */
int cc_grow(void **v, size_t *cap, size_t n, size_t size);

#endif /* CC_PLAN_H */
