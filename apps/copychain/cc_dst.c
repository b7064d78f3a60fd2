// SPDX-License-Identifier: MIT
/*
 * What happens to a copy's destination (cc_plan.h), as cp does: a DST
 * that exists or is a link, -i, -n, -u and -f, the mode, owner and times
 * the copy gets.
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

const char *cc_dir_of(const char *path, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!slash)
		n = 0;
	else if (slash == path)
		n = 1;
	else
		n = (size_t)(slash - path);
	if (n >= size)
		n = size - 1;
	if (!n) {
		snprintf(buf, size, ".");
		return buf;
	}
	memcpy(buf, path, n);
	buf[n] = '\0';
	return buf;
}

/* DST is a symbolic link: the copy replaces its target */
static int resolve_link(const char *dst, struct cc_dst *d)
{
	if (stat(dst, &d->st)) {
		fprintf(stderr,
			"copychain: not writing through dangling symlink '%s'\n",
			dst);
		return -1;
	}
	if (!realpath(dst, d->real)) {
		fprintf(stderr, "copychain: %s: %s\n", dst, strerror(errno));
		return -1;
	}
	d->path = d->real;
	return 0;
}

/* an existing DST: a regular file, not SRC itself */
static int existing_dst(const char *src, const struct stat *src_st,
			const char *dst, struct cc_dst *d)
{
	d->exists = 1;
	if (S_ISLNK(d->st.st_mode) && resolve_link(dst, d))
		return -1;
	if (d->st.st_dev == src_st->st_dev && d->st.st_ino == src_st->st_ino) {
		fprintf(stderr, "copychain: '%s' and '%s' are the same file\n",
			src, dst);
		return -1;
	}
	if (S_ISDIR(d->st.st_mode)) {
		fprintf(stderr,
			"copychain: cannot overwrite directory '%s' with non-directory\n",
			dst);
		return -1;
	}
	if (!S_ISREG(d->st.st_mode)) {
		fprintf(stderr,
			"copychain: %s: not a regular file (copychain replaces DST)\n",
			dst);
		return -1;
	}
	return 0;
}

int cc_dst_check(const char *src, const struct stat *src_st,
		 const char *dst, struct cc_dst *d)
{
	memset(d, 0, sizeof(*d));
	d->path = dst;
	if (!lstat(dst, &d->st))
		return existing_dst(src, src_st, dst, d);
	if (errno != ENOENT) {
		fprintf(stderr, "copychain: cannot stat '%s': %s\n", dst,
			strerror(errno));
		return -1;
	}
	if (dst[strlen(dst) - 1] == '/') {
		fprintf(stderr,
			"copychain: cannot create regular file '%s': %s\n", dst,
			strerror(ENOTDIR));
		return -1;
	}
	return 0;
}

/* @a is newer than @b */
static int newer(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec > b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec > b->tv_nsec);
}

/* -i: "overwrite 'DST'? " on stderr; 1 if the answer starts with y */
static int ask(const char *dst, FILE *answers)
{
	char line[256];

	fprintf(stderr, "copychain: overwrite '%s'? ", dst);
	fflush(stderr);
	if (!fgets(line, sizeof(line), answers))
		return 0;
	return line[0] == 'y' || line[0] == 'Y';
}

int cc_dst_policy(const struct cc_opts *o, const struct stat *src_st,
		  const char *dst, struct cc_dst *d, FILE *answers)
{
	if (!d->exists)
		return 0;
	if (o->overwrite == CC_NO_CLOBBER)
		return 1;
	if (o->update && !newer(&src_st->st_mtim, &d->st.st_mtim))
		return 1;
	if (o->overwrite == CC_ASK && !ask(dst, answers))
		return 1;
	/*
	 * cp opens DST for writing and, with -f, removes what it cannot
	 * open. copychain never opens DST, it replaces it: without -f it
	 * refuses what cp could not open.
	 */
	if (faccessat(AT_FDCWD, d->path, W_OK, AT_EACCESS) && errno == EACCES) {
		if (!o->force) {
			fprintf(stderr,
				"copychain: cannot create regular file '%s': %s\n",
				dst, strerror(EACCES));
			return -1;
		}
		d->exists = 0;	/* as cp -f's new file: SRC's mode */
	}
	return 0;
}

int cc_set_attrs(const struct cc_opts *o, const struct stat *src_st,
		 const struct cc_dst *d, int fd)
{
	mode_t mode;

	if (o->preserve) {
		struct timespec times[2] = { src_st->st_atim, src_st->st_mtim };

		mode = src_st->st_mode & 07777;
		if (fchown(fd, src_st->st_uid, src_st->st_gid)) {
			mode &= ~(mode_t)(S_ISUID | S_ISGID);
			if (fchown(fd, (uid_t)-1, src_st->st_gid))
				mode &= ~(mode_t)S_IRWXG;
		}
		if (futimens(fd, times))
			return -errno;
	} else if (d->exists) {
		mode = d->st.st_mode & 07777;
		/* root can give the new inode DST's owner; others keep theirs */
		if (fchown(fd, d->st.st_uid, d->st.st_gid))
			mode &= ~(mode_t)(S_ISUID | S_ISGID);
	} else {
		mode = src_st->st_mode & 0777 & ~o->umask;
	}
	return fchmod(fd, mode) ? -errno : 0;
}

