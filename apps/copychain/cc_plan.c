// SPDX-License-Identifier: MIT
/*
 * copychain's plan (cc_plan.h): which files go where for the operands,
 * walking trees for -r (directories created, symbolic links recreated,
 * other types reported), in cp's words when something cannot be copied.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cc_plan.h"

/* ---- the plan ---- */

/*
 * @la bytes of @a, @b, @lc bytes of @c, in one malloc()ed string, or NULL
 * (no printf: the plan makes one or two names a file)
 */
static char *concat(const char *a, size_t la, const char *b, const char *c,
		    size_t lc)
{
	size_t lb = strlen(b);
	char *p = malloc(la + lb + lc + 1);

	if (!p)
		return NULL;
	memcpy(p, a, la);
	memcpy(p + la, b, lb);
	memcpy(p + la + lb, c, lc);
	p[la + lb + lc] = '\0';
	return p;
}

/* @a joined to @b by one '/' (malloc()ed), or NULL */
static char *join(const char *a, const char *b)
{
	size_t la = strlen(a);

	while (la > 1 && a[la - 1] == '/')
		la--;
	return concat(a, la, "/", b, strlen(b));
}

int cc_grow(void **v, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? *cap * 2 : 64;
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*v, c * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = c;
	return 0;
}

static int add_item(struct cc_plan *plan, const char *src, const char *dst,
		    const struct stat *st)
{
	struct cc_item *it;

	if (cc_grow((void **)&plan->items, &plan->cap, plan->n, sizeof(*it)))
		return -ENOMEM;
	it = &plan->items[plan->n];
	it->st = *st;
	it->src = strdup(src);
	it->dst = strdup(dst);
	if (!it->src || !it->dst) {
		free(it->src);
		free(it->dst);
		return -ENOMEM;
	}
	plan->n++;
	return 0;
}

/* @dst is in the way of a new symbolic link: 1 if replaced by it */
static int replace_link(const char *target, const char *dst)
{
	struct stat st;

	if (lstat(dst, &st) || S_ISDIR(st.st_mode)) {
		errno = EEXIST;
		return 0;
	}
	return !unlink(dst) && !symlink(target, dst);
}

/*
 * -p of what -r recreates: @dst (with AT_SYMLINK_NOFOLLOW in @at_flags,
 * the link itself) gets @st's owner (where this task may give it) and
 * times; 0, or 1 when chown fails otherwise than with EPERM
 */
static int preserve_made(const char *dst, const struct stat *st,
			 int at_flags)
{
	struct timespec times[2] = { st->st_atim, st->st_mtim };

	if (fchownat(AT_FDCWD, dst, st->st_uid, st->st_gid, at_flags) &&
	    errno != EPERM)
		return 1;
	utimensat(AT_FDCWD, dst, times, at_flags);
	return 0;
}

/* -r: recreate the symbolic link @src as @dst; 0 or 1 (reported) */
static int copy_symlink(const struct cc_opts *o, const char *src,
			const struct stat *st, const char *dst)
{
	char target[PATH_MAX];
	ssize_t n = readlink(src, target, sizeof(target) - 1);

	if (n < 0) {
		fprintf(stderr, "copychain: cannot read symbolic link '%s': %s\n",
			src, strerror(errno));
		return 1;
	}
	target[n] = '\0';
	/* like cp -r, a symbolic link (or file) in the way is replaced */
	if (symlink(target, dst) && (errno != EEXIST || !replace_link(target, dst))) {
		fprintf(stderr,
			"copychain: cannot create symbolic link '%s': %s\n", dst,
			strerror(errno));
		return 1;
	}
	if (o->preserve)
		return preserve_made(dst, st, AT_SYMLINK_NOFOLLOW);
	return 0;
}

/*
 * -r: a fifo, device or socket is recreated, as by cp -r: the same type
 * (and device number), the mode as a new file's; 0 or 1 (reported)
 */
static int copy_special(const struct cc_opts *o, const char *dst,
			const struct stat *st)
{
	mode_t perm = o->preserve ? st->st_mode & 07777 :
		      st->st_mode & 0777 & ~o->umask;
	mode_t mode = (st->st_mode & S_IFMT) | perm;
	struct stat old;
	int err;

	err = mknod(dst, mode, st->st_rdev);
	/* like cp -r, what is in the way (but a directory) is replaced */
	if (err && errno == EEXIST && !lstat(dst, &old) &&
	    !S_ISDIR(old.st_mode) && !unlink(dst))
		err = mknod(dst, mode, st->st_rdev);
	if (err || chmod(dst, perm)) {
		fprintf(stderr, "copychain: cannot create %s '%s': %s\n",
			S_ISFIFO(st->st_mode) ? "fifo" : "special file", dst,
			strerror(errno));
		return 1;
	}
	if (o->preserve)
		return preserve_made(dst, st, 0);
	return 0;
}

static int plan_path(const struct cc_opts *o, const char *src,
		     const char *dst, struct cc_plan *plan);

/* is @dst inside the directory @src (or @src itself)? */
static int inside_itself(const char *src, const char *dst)
{
	char rs[PATH_MAX], rd[PATH_MAX], dir[PATH_MAX];
	size_t n;

	if (!realpath(src, rs) || !realpath(cc_dir_of(dst, dir, sizeof(dir)), rd))
		return 0;
	n = strlen(rs);
	return !strncmp(rs, rd, n) && (rd[n] == '/' || !rd[n]);
}

/* the directory @dst for @src: made (mode fixed at the end) or there */
static int make_dir(const struct cc_opts *o, const char *src,
		    const struct stat *st, const char *dst,
		    struct cc_plan *plan)
{
	struct cc_newdir *nd;
	struct stat dst_st;
	int made = 0;

	if (!stat(dst, &dst_st)) {
		if (!S_ISDIR(dst_st.st_mode)) {
			fprintf(stderr,
				"copychain: cannot overwrite non-directory '%s' with directory '%s'\n",
				dst, src);
			return -1;
		}
	} else if (mkdir(dst, 0700)) {
		fprintf(stderr, "copychain: cannot create directory '%s': %s\n",
			dst, strerror(errno));
		return -1;
	} else {
		made = 1;
	}
	if (cc_grow((void **)&plan->dirs, &plan->dirs_cap, plan->ndirs,
		 sizeof(*nd)))
		return -1;
	nd = &plan->dirs[plan->ndirs];
	nd->path = strdup(dst);
	if (!nd->path)
		return -1;
	nd->set_mode = made || o->preserve;
	nd->mode = o->preserve ? st->st_mode & 07777 :
		   st->st_mode & 0777 & ~o->umask;
	nd->set_times = o->preserve;
	nd->times[0] = st->st_atim;
	nd->times[1] = st->st_mtim;
	plan->ndirs++;
	return 0;
}

/* the entry @name of @src as the same name in @dst */
static int plan_entry(const struct cc_opts *o, const char *src,
		      const char *dst, const char *name, struct cc_plan *plan)
{
	char *s = join(src, name), *d = join(dst, name);
	int r = s && d ? plan_path(o, s, d, plan) : -1;

	free(s);
	free(d);
	return r;
}

/* -r: the directory @src as @dst, entry by entry (sorted) */
static int plan_dir(const struct cc_opts *o, const char *src,
		    const struct stat *st, const char *dst,
		    struct cc_plan *plan)
{
	struct dirent **list;
	int n, i, rc, skip;

	if (inside_itself(src, dst)) {
		fprintf(stderr,
			"copychain: cannot copy a directory, '%s', into itself, '%s'\n",
			src, dst);
		return 1;
	}
	n = scandir(src, &list, NULL, alphasort);
	if (n < 0) {
		fprintf(stderr, "copychain: cannot access '%s': %s\n", src,
			strerror(errno));
		return 1;
	}
	/* a directory that cannot be made gets none of its entries */
	skip = make_dir(o, src, st, dst, plan) ? 1 : 0;
	rc = skip;
	for (i = 0; i < n; i++) {
		const char *name = list[i]->d_name;

		if (!skip && rc >= 0 && strcmp(name, ".") && strcmp(name, "..")) {
			int r = plan_entry(o, src, dst, name, plan);

			rc = r < 0 ? r : rc | r;
		}
		free(list[i]);
	}
	free(list);
	return rc;
}

/*
 * One path: a regular file goes on the list; with -r a directory is
 * walked, a symbolic link recreated. 0, 1 (reported), -1 (out of memory)
 */
static int plan_path(const struct cc_opts *o, const char *src,
		     const char *dst, struct cc_plan *plan)
{
	struct stat st;
	int err;

	err = o->recursive ? lstat(src, &st) : stat(src, &st);
	if (err) {
		fprintf(stderr, "copychain: cannot stat '%s': %s\n", src,
			strerror(errno));
		return 1;
	}
	if (S_ISDIR(st.st_mode)) {
		if (!o->recursive) {
			fprintf(stderr,
				"copychain: -r not specified; omitting directory '%s'\n",
				src);
			return 1;
		}
		return plan_dir(o, src, &st, dst, plan);
	}
	if (o->recursive && S_ISLNK(st.st_mode))
		return copy_symlink(o, src, &st, dst);
	if (o->recursive && !S_ISREG(st.st_mode))
		return copy_special(o, dst, &st);
	/* a regular file; without -r, a fifo or device read to its end */
	return add_item(plan, src, dst, &st) ? -1 : 0;
}

/* TARGET of SRC... TARGET: 1 a directory, 0 not; -1 (reported) */
static int target_dir(int n, const char *target)
{
	struct stat st;

	if (!stat(target, &st) && S_ISDIR(st.st_mode))
		return 1;
	if (n == 2)
		return 0;
	if (errno == ENOENT || errno == ENOTDIR)
		fprintf(stderr, "copychain: target '%s': %s\n", target,
			strerror(errno));
	else
		fprintf(stderr, "copychain: target '%s' is not a directory\n",
			target);
	return -1;
}

/* DIR/the last name of @src (malloc()ed) */
static char *inside(const char *dir, const char *src)
{
	size_t len = strlen(src);
	size_t ld = strlen(dir);
	const char *base;

	while (len > 1 && src[len - 1] == '/')
		len--;
	base = src + len;
	while (base > src && base[-1] != '/')
		base--;
	return concat(dir, ld, dir[ld - 1] == '/' ? "" : "/", base,
		      (size_t)(src + len - base));
}

/* TARGET of -t DIRECTORY: a directory; 0, or -1 (reported) */
static int target_option(const char *target)
{
	struct stat st;

	if (stat(target, &st)) {
		fprintf(stderr, "copychain: target directory '%s': %s\n",
			target, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "copychain: target directory '%s': %s\n",
			target, strerror(ENOTDIR));
		return -1;
	}
	return 0;
}

int cc_make_plan(const struct cc_opts *o, int n, char **argv,
		 struct cc_plan *plan)
{
	const char *target = o->target ? o->target : argv[n - 1];
	int nsrc = o->target ? n : n - 1, is_dir, i, r, rc = 0;

	if (o->target)
		is_dir = target_option(target) ? -1 : 1;
	else
		is_dir = o->no_target_dir ? 0 : target_dir(n, target);
	if (is_dir < 0)
		return -1;
	for (i = 0; i < nsrc; i++) {
		char *dst = is_dir ? inside(target, argv[i]) : strdup(target);

		r = dst ? plan_path(o, argv[i], dst, plan) : -1;
		free(dst);
		if (r < 0) {
			fprintf(stderr, "copychain: %s\n", strerror(ENOMEM));
			return -1;
		}
		rc |= r;
	}
	return rc;
}

void cc_plan_free(struct cc_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->n; i++) {
		free(plan->items[i].src);
		free(plan->items[i].dst);
	}
	for (i = 0; i < plan->ndirs; i++)
		free(plan->dirs[i].path);
	free(plan->items);
	free(plan->dirs);
	memset(plan, 0, sizeof(*plan));
}
