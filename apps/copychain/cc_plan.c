// SPDX-License-Identifier: MIT
/*
 * copychain's command line and plan (cc_plan.h): which files go where,
 * in cp's words when something cannot be copied.
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
#include "tool.h"

void cc_usage(FILE *f)
{
	fprintf(f,
		"Usage: copychain [OPTION]... [-T] SRC DST\n"
		"  or:  copychain [OPTION]... SRC... DIRECTORY\n"
		"  or:  copychain [OPTION]... -t DIRECTORY SRC...\n"
		"Copy files (and with -r, trees) with in-kernel io_uring coroutines:\n"
		"BPF programs queue every open, read, write and close of a file from\n"
		"the result of the one before, from a single submit. Loading them\n"
		"needs CAP_BPF and CAP_PERFMON.\n"
		"\n"
		"  -a, --archive      -r and -p\n"
		"  -f, --force        replace a DST that cannot be written to\n"
		"  -i, --interactive  ask before replacing a DST (overrides an earlier -n)\n"
		"  -n, --no-clobber   never replace a DST (overrides an earlier -i)\n"
		"  -p, --preserve     keep SRC's mode (with setuid, setgid), owner where\n"
		"                     permitted, access and modification times\n"
		"  -r, -R, --recursive  copy directories recursively: directories are\n"
		"                     created, regular files copied, symbolic links,\n"
		"                     fifos and devices recreated\n"
		"      --sync         make each copy durable before it gets its name:\n"
		"                     data fsynced, then the directories (cp && sync)\n"
		"  -t, --target-directory=DIRECTORY  copy every SRC into DIRECTORY\n"
		"  -T, --no-target-directory  DST is a name, even of a directory\n"
		"  -u, --update       copy only when SRC is newer than DST, or DST is\n"
		"                     missing\n"
		"  -v, --verbose      print 'SRC' -> 'DST' for each file copied\n"
		"      --stats        print files, bytes, time, MB/s, coroutine steps and\n"
		"                     the io_uring_enter calls user space made\n"
		"      --chunk BYTES  bytes per read and write (default 1M; K, M, G)\n"
		"      --depth D      reads and writes in flight on one file, each with\n"
		"                     its own buffer (1 to 16, default 2)\n"
		"      --jobs N       files copied at once (1 to 128, default 64)\n"
		"      --defer-taskrun  a SINGLE_ISSUER | DEFER_TASKRUN ring: the steps run\n"
		"                     only while copychain waits in io_uring_enter()\n"
		"  -h, --help         this help\n"
		"      --version      version\n"
		"\n"
		"Modes as cp without -p: a new DST gets SRC's permission bits less the\n"
		"umask, never setuid, setgid or sticky; an existing DST keeps its mode\n"
		"(and owner where permitted). DST is never written in place: the copy\n"
		"goes to a new unnamed file that gets DST's name once it is whole, so\n"
		"DST is never half written. A DST that is a symbolic link keeps the\n"
		"link and gets its target replaced; a DST with other hard links becomes\n"
		"a new file, the other names keep the old content (cp would write\n"
		"through them). A fifo or device SRC is read to its end, as by cp.\n"
		"On a terminal, a copy longer than a second shows a progress line.\n"
		"\n"
		"Prints nothing when the copy went well. Exit status 0 on success, 1 when\n"
		"a copy failed or on bad usage.\n");
}

int cc_parse_size(const char *s, unsigned long long *out)
{
	return tool_parse_size(s, out);
}

/* --NAME VALUE or --NAME=VALUE at argv[*i]: the value, or NULL */
static const char *opt_value(char **argv, int argc, int *i, const char *name)
{
	size_t len = strlen(name);
	const char *a = argv[*i];

	if (!strcmp(a, name))
		return *i + 1 < argc ? argv[++*i] : "";
	if (!strncmp(a, name, len) && a[len] == '=')
		return a + len + 1;
	return NULL;
}

/* a size or count option's value in [1, max]; 0 or -EINVAL (reported) */
static int opt_number(const char *name, const char *v, unsigned long long max,
		      int sizes, uint32_t *out)
{
	unsigned long long n;

	if (!cc_parse_size(v, &n) && n && n <= max &&
	    (sizes || strspn(v, "0123456789") == strlen(v))) {
		*out = (uint32_t)n;
		return 0;
	}
	fprintf(stderr, "copychain: %s takes %s 1 to %llu%s, not '%s'\n", name,
		sizes ? "a size of" : "a number from", max,
		sizes ? " bytes (K, M, G suffixes)" : "", v);
	return -EINVAL;
}

/* the one-letter option @c (no value) into @o; 0, or -EINVAL */
static int parse_flag(char c, struct cc_opts *o)
{
	switch (c) {
	case 'h':
		o->help = 1;
		break;
	case 'v':
		o->verbose = 1;
		break;
	case 'a':
		o->preserve = 1;
		/* fall through */
	case 'r':
	case 'R':
		o->recursive = 1;
		break;
	case 'p':
		o->preserve = 1;
		break;
	case 'f':
		o->force = 1;
		break;
	case 'n':
		o->overwrite = CC_NO_CLOBBER;
		break;
	case 'i':
		o->overwrite = CC_ASK;
		break;
	case 'u':
		o->update = 1;
		break;
	case 'T':
		o->no_target_dir = 1;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

static int bad_usage(const char *fmt, const char *what)
{
	fputs("copychain: ", stderr);
	fprintf(stderr, fmt, what);
	fputs("\nTry 'copychain --help' for more information.\n", stderr);
	return -EINVAL;
}

/* -abc, or -t DIR / -tDIR among them, at argv[*i] into @o */
static int parse_short(int argc, char **argv, int *i, struct cc_opts *o)
{
	const char *a = argv[*i] + 1;
	char c[2] = { 0 };

	for (; *a; a++) {
		if (*a == 't') {
			if (a[1])
				o->target = a + 1;
			else if (*i + 1 < argc)
				o->target = argv[++*i];
			else
				return bad_usage("option requires an argument -- '%s'", "t");
			return 0;
		}
		c[0] = *a;
		if (parse_flag(*a, o))
			return bad_usage("invalid option -- '%s'", c);
	}
	return 0;
}

/* the long flags (no value) and the letter each is the long form of */
static const struct { const char *name; char c; } long_flags[] = {
	{ "--help", 'h' }, { "--verbose", 'v' }, { "--preserve", 'p' },
	{ "--recursive", 'r' }, { "--archive", 'a' }, { "--force", 'f' },
	{ "--no-clobber", 'n' }, { "--interactive", 'i' },
	{ "--update", 'u' }, { "--no-target-directory", 'T' },
};

/* the option argv[*i] into @o; 0, or -EINVAL (reported) */
static int parse_one(int argc, char **argv, int *i, struct cc_opts *o)
{
	const char *a = argv[*i], *v;
	size_t k;

	if (a[1] != '-')
		return parse_short(argc, argv, i, o);
	for (k = 0; k < sizeof(long_flags) / sizeof(long_flags[0]); k++)
		if (!strcmp(a, long_flags[k].name))
			return parse_flag(long_flags[k].c, o);
	if (!strcmp(a, "--version"))
		o->version = 1;
	else if (!strcmp(a, "--stats"))
		o->stats = 1;
	else if (!strcmp(a, "--sync"))
		o->sync = 1;
	else if (!strcmp(a, "--defer-taskrun"))
		o->defer_taskrun = 1;
	else if ((v = opt_value(argv, argc, i, "--target-directory")))
		o->target = v;
	else if ((v = opt_value(argv, argc, i, "--chunk")))
		return opt_number("--chunk", v, CC_MAX_CHUNK, 1, &o->chunk);
	else if ((v = opt_value(argv, argc, i, "--depth")))
		return opt_number("--depth", v, 16, 0, &o->depth);
	else if ((v = opt_value(argv, argc, i, "--jobs")))
		return opt_number("--jobs", v, CC_MAX_JOBS, 0, &o->jobs);
	else
		return bad_usage("unrecognized option '%s'", a);
	return 0;
}

int cc_parse_args(int argc, char **argv, struct cc_opts *o)
{
	const char *knob = getenv("COPYCHAIN_NO_TMPFILE");
	int i, n = 0, opts_done = 0;

	o->chunk = CC_DEFAULT_CHUNK;
	o->depth = CC_DEFAULT_DEPTH;
	o->jobs = CC_DEFAULT_JOBS;
	o->umask = umask(0);
	umask(o->umask);
	o->no_tmpfile = knob && !strcmp(knob, "1");
	o->progress = isatty(STDERR_FILENO);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (opts_done || a[0] != '-' || !a[1])
			argv[n++] = argv[i];
		else if (!strcmp(a, "--"))
			opts_done = 1;
		else if (parse_one(argc, argv, &i, o))
			return -EINVAL;
	}
	if (o->target && o->no_target_dir)
		return bad_usage("%s", "cannot combine --target-directory (-t) and --no-target-directory (-T)");
	if (o->target && !*o->target)
		return bad_usage("%s", "option '--target-directory' requires an argument");
	if ((unsigned long long)o->jobs * o->depth * o->chunk > CC_MAX_BUFFERS) {
		fprintf(stderr,
			"copychain: --jobs x --depth x --chunk is more than %llu bytes of buffers\n",
			CC_MAX_BUFFERS);
		return -EINVAL;
	}
	return n;
}

int cc_check_operands(const struct cc_opts *o, int n, char **argv)
{
	if (!n)
		bad_usage("%s", "missing file operand");
	else if (n == 1 && !o->target)
		bad_usage("missing destination file operand after '%s'",
			  argv[0]);
	else if (n > 2 && o->no_target_dir)
		bad_usage("extra operand '%s'", argv[2]);
	else
		return 0;
	return 1;
}

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
	/* d->real is written only for a symbolic link: not zeroed (4 KiB) */
	d->path = dst;
	d->exists = 0;
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

/* grow *@v of *@cap elements of @size to hold @n + 1; 0 or -ENOMEM */
static int grow(void **v, size_t *cap, size_t n, size_t size)
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

	if (grow((void **)&plan->items, &plan->cap, plan->n, sizeof(*it)))
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
	if (o->preserve) {
		struct timespec times[2] = { st->st_atim, st->st_mtim };

		if (lchown(dst, st->st_uid, st->st_gid) && errno != EPERM)
			return 1;
		utimensat(AT_FDCWD, dst, times, AT_SYMLINK_NOFOLLOW);
	}
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
	if (o->preserve) {
		struct timespec times[2] = { st->st_atim, st->st_mtim };

		if (chown(dst, st->st_uid, st->st_gid) && errno != EPERM)
			return 1;
		utimensat(AT_FDCWD, dst, times, 0);
	}
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
	if (grow((void **)&plan->dirs, &plan->dirs_cap, plan->ndirs,
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

void cc_dirs_add(struct cc_dirs *dirs, const char *dir)
{
	char *p;

	/* files of one directory come one after the other */
	if (dirs->n && !strcmp(dirs->v[dirs->n - 1], dir))
		return;
	p = strdup(dir);
	if (!p || grow((void **)&dirs->v, &dirs->cap, dirs->n, sizeof(*dirs->v))) {
		free(p);
		return;		/* only the fsync of that directory is lost */
	}
	dirs->v[dirs->n++] = p;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* --sync: fsync each directory once, the new names are durable */
static void sync_dirs(struct cc_dirs *dirs)
{
	size_t i;
	int fd;

	if (!dirs->n)
		return;
	qsort(dirs->v, dirs->n, sizeof(*dirs->v), cmp_str);
	for (i = 0; i < dirs->n; i++) {
		if (i && !strcmp(dirs->v[i], dirs->v[i - 1]))
			continue;
		fd = open(dirs->v[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0 || fsync(fd))
			fprintf(stderr,
				"copychain: warning: %s: fsync of the directory: %s\n",
				dirs->v[i], strerror(errno));
		if (fd >= 0)
			close(fd);
	}
}

static void free_dirs(struct cc_dirs *dirs)
{
	size_t i;

	for (i = 0; i < dirs->n; i++)
		free(dirs->v[i]);
	free(dirs->v);
	memset(dirs, 0, sizeof(*dirs));
}

int cc_finish_dirs(const struct cc_opts *o, struct cc_plan *plan,
		   struct cc_dirs *synced)
{
	size_t i;
	int rc = 0;

	if (o->sync)
		sync_dirs(synced);
	free_dirs(synced);
	/* the deepest first: a parent's mode may keep its children closed */
	for (i = plan->ndirs; i > 0; i--) {
		const struct cc_newdir *nd = &plan->dirs[i - 1];

		if ((nd->set_mode && chmod(nd->path, nd->mode)) ||
		    (nd->set_times &&
		     utimensat(AT_FDCWD, nd->path, nd->times, 0))) {
			fprintf(stderr,
				"copychain: preserving permissions for '%s': %s\n",
				nd->path, strerror(errno));
			rc = 1;
		}
	}
	return rc;
}
