// SPDX-License-Identifier: MIT
/*
 * copychain [OPTION]... SRC DST: copy a file with one in-kernel coroutine
 * (copychain.bpf.c). User space opens SRC, creates an unnamed O_TMPFILE
 * in DST's directory and submits once; the coroutine reads a chunk,
 * writes what it read, reads the next one, ... and fsyncs at the end of
 * file, all in the kernel. Only when it ended well does the file get
 * DST's name (linkat(), or link and rename() over an existing DST: DST is
 * never half written); on any failure, even SIGKILL, nothing is left.
 *
 * Like cp, it prints nothing when all went well: -v names each copy,
 * --stats adds what the copy took (steps, io_uring_enter calls, time).
 *
 * Exit status: 0 copied; 1 the copy failed (nothing created, DST as it
 * was); 2 bad usage.
 */
#include <iocoro.h>

#include <bpf/libbpf.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app_util.h"
#include "copychain.h"
#include "copychain.skel.h"

#define CC_VERSION		"0.2"
#define CC_DEFAULT_CHUNK	(128U << 10)
/* a read's result is an int: keep chunks far below INT_MAX */
#define CC_MAX_CHUNK		(1U << 30)
/* steps for short writes on top of CC_STEPS(), plus chunks / 64 */
#define CC_BUDGET_SLACK		64

struct cc_opts {
	int verbose;		/* -v: 'SRC' -> 'DST' for each copy */
	int stats;		/* --stats: what the copies took */
	int preserve;		/* -p: mode, owner where permitted, times */
	mode_t umask;
	uint32_t chunk;		/* --chunk */
};

/* what --stats reports, summed over the copies */
struct cc_stats {
	uint64_t files;
	uint64_t bytes;
	uint64_t steps;
	uint64_t enters;	/* io_uring_enter() calls made by user space */
	uint64_t short_writes;
};

/* the ring and the loaded program, set up once for all copies */
struct cc_engine {
	struct iocoro co;
	struct copychain_bpf *skel;
	int prog;		/* table index of the coroutine's program */
	int ready;		/* 1: loaded; < 0: loading failed with it */
	int have_ring;
	void *buf;		/* the one buffer reads fill, writes empty */
	uint32_t buf_size;
	struct cc_stats stats;
};

/* the temporary file, removed by a signal that ends the copy */
static char tmp_path[PATH_MAX + 8];
static volatile sig_atomic_t tmp_live;

static void on_signal(int sig)
{
	if (tmp_live)
		unlink(tmp_path);
	/* the signal is blocked in here: it kills us once we return */
	signal(sig, SIG_DFL);
	raise(sig);
}

static const int cc_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: copychain [OPTION]... SRC DST\n"
		"  or:  copychain [OPTION]... SRC... DIRECTORY\n"
		"Copy the regular file SRC to DST with one in-kernel io_uring coroutine:\n"
		"a BPF program queues every read, write and fsync from the result of\n"
		"the one before, from a single submit.\n"
		"\n"
		"  -p, --preserve     keep SRC's mode (with setuid, setgid), owner where\n"
		"                     permitted, access and modification times\n"
		"  -v, --verbose      print 'SRC' -> 'DST' for each file copied\n"
		"      --stats        print files, bytes, time, MB/s, coroutine steps and\n"
		"                     the io_uring_enter calls user space made\n"
		"      --chunk BYTES  bytes per read and write (default 128K; K, M, G)\n"
		"  -h, --help         this help\n"
		"      --version      version\n"
		"\n"
		"Modes as cp without -p: a new DST gets SRC's permission bits less the\n"
		"umask, never setuid, setgid or sticky; an existing DST keeps its mode\n"
		"(and owner where permitted). DST is never written in place: the copy\n"
		"goes to a new file that replaces DST by rename() once written and\n"
		"fsynced. So a DST that is a symbolic link keeps the link and gets its\n"
		"target replaced; a DST with other hard links becomes a new file, the\n"
		"other names keep the old content (cp would write through them).\n"
		"\n"
		"Prints nothing when the copy went well. Exit status 0 on success, 1 when\n"
		"a copy failed, 2 on bad usage.\n");
}

/* the directory part of @path, in @buf */
static const char *dir_of(const char *path, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!slash)
		return ".";
	if (slash == path)
		return "/";
	n = (size_t)(slash - path);
	if (n >= size)
		n = size - 1;
	memcpy(buf, path, n);
	buf[n] = '\0';
	return buf;
}

static const char *op_name(uint32_t op)
{
	switch (op) {
	case CC_OP_READ:
		return "read";
	case CC_OP_WRITE:
		return "write";
	case CC_OP_FSYNC:
		return "fsync";
	default:
		return "copy";
	}
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- the engine: one ring, one program, loaded on first use ---- */

static int engine_load(struct cc_engine *e)
{
	static char log[64 * 1024];
	struct iocoro_load_opts opts = {
		.sz = sizeof(opts), .log_buf = log, .log_size = sizeof(log),
	};
	int ret;

	ret = iocoro_queue_init(8, &e->co, 0);
	if (ret < 0)
		return ret;
	e->have_ring = 1;
	e->skel = copychain_bpf__open();
	if (!e->skel)
		return -errno;
	ret = iocoro_object_prepare(e->skel->obj, &opts);
	if (ret < 0)
		return ret;
	ret = copychain_bpf__load(e->skel);
	if (ret < 0) {
		if (ret == -EACCES || ret == -EINVAL)
			fprintf(stderr, "copychain: verifier log:\n%s\n", log);
		return ret;
	}
	ret = iocoro_attach_object(&e->co, e->skel->obj);
	if (ret < 0)
		return ret;
	ret = iocoro_prog_index(e->skel->obj, e->skel->progs.copychain);
	if (ret < 0)
		return ret;
	e->prog = ret;
	return 0;
}

/* load once; a failure is reported once and kept */
static int engine_get(struct cc_engine *e)
{
	int ret;

	if (e->ready)
		return e->ready < 0 ? e->ready : 0;
	libbpf_set_print(app_libbpf_quiet);
	ret = engine_load(e);
	if (ret < 0) {
		app_report_load("copychain", ret);
		e->ready = ret;
		return ret;
	}
	e->ready = 1;
	return 0;
}

static void engine_exit(struct cc_engine *e)
{
	if (e->buf)
		munmap(e->buf, e->buf_size);
	copychain_bpf__destroy(e->skel);
	if (e->have_ring)
		iocoro_queue_exit(&e->co);
}

/* a buffer of at least @size bytes */
static int engine_buffer(struct cc_engine *e, uint32_t size)
{
	void *p;

	if (e->buf && e->buf_size >= size)
		return 0;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	if (e->buf)
		munmap(e->buf, e->buf_size);
	e->buf = p;
	e->buf_size = size;
	return 0;
}

/*
 * Wait for the coroutine's end, counting the io_uring_enter() calls:
 * liburing only peeks here, every wait is our own enter.
 */
static int engine_reap(struct cc_engine *e, struct iocoro_done *done)
{
	struct io_uring_cqe *cqe;
	int ret;

	for (;;) {
		while (!io_uring_cq_ready(&e->co.ring)) {
			ret = io_uring_enter((unsigned int)e->co.ring.ring_fd,
					     0, 1, IORING_ENTER_GETEVENTS, NULL);
			e->stats.enters++;
			if (ret < 0 && ret != -EINTR && ret != -EAGAIN)
				return ret;
		}
		ret = io_uring_peek_cqe(&e->co.ring, &cqe);
		if (ret < 0)
			return ret;
		ret = iocoro_cqe_done(cqe, done);
		io_uring_cqe_seen(&e->co.ring, cqe);
		if (ret < 0)
			return -EIO;	/* a CQE that is not ours */
		if (ret == 1)
			return 0;
	}
}

/*
 * Run one coroutine from state @st with step budget @budget: one submit
 * that also waits, then waits until its end. The state is read back
 * into @st.
 */
static int engine_run(struct cc_engine *e, struct copychain_state *st,
		      unsigned int budget, struct iocoro_done *done)
{
	struct io_uring_sqe *sqe;
	int ret;

	ret = iocoro_set_budget(&e->co, budget);
	if (ret < 0)
		return ret;
	ret = bpf_map__update_elem(e->skel->maps.cc_states, &(__u32){ 0 },
				   sizeof(__u32), st, sizeof(*st), BPF_ANY);
	if (ret < 0)
		return ret;
	sqe = io_uring_get_sqe(&e->co.ring);
	if (!sqe)
		return -EBUSY;
	iocoro_prep_start(sqe, (unsigned int)e->prog, 0);
	ret = io_uring_submit_and_wait(&e->co.ring, 1);
	e->stats.enters++;
	if (ret < 0 && ret != -EINTR)
		return ret;
	ret = engine_reap(e, done);
	if (ret < 0)
		return ret;
	return iocoro_state_read(e->skel->maps.cc_states, 0, st, sizeof(*st));
}

/* ---- one file ---- */

/*
 * The chunk and step budget for @size bytes: 2 steps a chunk and 3 more;
 * a file that needs more than the kernel allows gets bigger chunks.
 */
static int plan_chunks(const char *src, uint64_t size, uint32_t *chunk,
		       unsigned int *budget)
{
	uint32_t c = *chunk;
	uint64_t chunks, steps;

	for (;;) {
		chunks = (size + c - 1) / c;
		steps = CC_STEPS(chunks);
		if (steps + CC_BUDGET_SLACK <= IOCORO_MAX_BUDGET)
			break;
		if (c >= CC_MAX_CHUNK) {
			fprintf(stderr,
				"copychain: %s: too large: %" PRIu64 " bytes need more than %u steps even in chunks of %u bytes\n",
				src, size, IOCORO_MAX_BUDGET, CC_MAX_CHUNK);
			return -EFBIG;
		}
		c = c > CC_MAX_CHUNK / 2 ? CC_MAX_CHUNK : c * 2;
	}
	if (c != *chunk)
		fprintf(stderr,
			"copychain: note: chunk grown from %u to %u bytes: a copy may take at most %u steps\n",
			*chunk, c, IOCORO_MAX_BUDGET);
	steps += CC_BUDGET_SLACK + chunks / 64;
	*budget = steps > IOCORO_MAX_BUDGET ? IOCORO_MAX_BUDGET : (unsigned int)steps;
	*chunk = c;
	return 0;
}

/* a signal that ends us removes tmp_path while tmp_live says it lives */
static void arm_signals(sigset_t *block)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(block);
	for (i = 0; i < sizeof(cc_signals) / sizeof(cc_signals[0]); i++) {
		sigaction(cc_signals[i], &sa, NULL);
		sigaddset(block, cc_signals[i]);
	}
}

/* the named fallback: DST.XXXXXX, mode 0600 */
static int open_named_tmp(const char *dst)
{
	sigset_t block, old;
	int fd, err;

	arm_signals(&block);
	snprintf(tmp_path, sizeof(tmp_path), "%s.XXXXXX", dst);
	sigprocmask(SIG_BLOCK, &block, &old);
	fd = mkostemp(tmp_path, O_CLOEXEC);
	if (fd >= 0)
		tmp_live = 1;
	err = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return fd < 0 ? -err : fd;
}

/*
 * The file the copy goes to: an unnamed O_TMPFILE in DST's directory,
 * which nothing, not even SIGKILL, can leave behind; a named DST.XXXXXX
 * only where the file system has no O_TMPFILE. *@named says which.
 */
static int open_tmp(const char *dst, int *named)
{
	static char dirbuf[PATH_MAX];
	int fd;

	fd = open(dir_of(dst, dirbuf, sizeof(dirbuf)),
		  O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	*named = fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR);
	if (*named)
		return open_named_tmp(dst);
	return fd < 0 ? -errno : fd;
}

/*
 * Give the unnamed @fd the name @name (/proc/self/fd and
 * AT_SYMLINK_FOLLOW: no CAP_DAC_READ_SEARCH needed, unlike AT_EMPTY_PATH)
 */
static int link_fd(int fd, const char *name)
{
	char proc[64];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (!linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW))
		return 0;
	/* no /proc: AT_EMPTY_PATH, which works with CAP_DAC_READ_SEARCH */
	if (errno == ENOENT && !linkat(fd, "", AT_FDCWD, name, AT_EMPTY_PATH))
		return 0;
	return -errno;
}

/*
 * Over an existing DST: link the unnamed file to a fresh DST.ccXXXXXX
 * (removed by a signal in the moment it lives), then rename it over DST
 */
static int link_replace(int fd, const char *dst)
{
	sigset_t block, old;
	unsigned int tries;
	int err = -EEXIST;

	arm_signals(&block);
	for (tries = 0; tries < 100 && err == -EEXIST; tries++) {
		snprintf(tmp_path, sizeof(tmp_path), "%s.cc%06lx", dst,
			 ((unsigned long)getpid() * 2654435761UL + tries +
			  (unsigned long)time(NULL)) & 0xffffff);
		sigprocmask(SIG_BLOCK, &block, &old);
		err = link_fd(fd, tmp_path);
		tmp_live = !err;
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	return err;
}

static void drop_tmp(void)
{
	if (tmp_live) {
		unlink(tmp_path);
		tmp_live = 0;
	}
}

/* what DST is: nothing yet (exists 0), or a regular file (through links) */
struct cc_dst {
	const char *path;	/* where the copy goes: DST or its link's target */
	int exists;
	struct stat st;
	char real[PATH_MAX];
};

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

/* SRC is a regular file, DST is one or nothing yet, its directory exists */
static int check_paths(const char *src, const char *dst, int src_fd,
		       struct stat *src_st, struct cc_dst *d)
{
	static char dirbuf[PATH_MAX];
	struct stat dir_st;
	const char *dir;
	int err;

	d->path = dst;
	if (fstat(src_fd, src_st)) {
		fprintf(stderr, "copychain: cannot stat '%s': %s\n", src,
			strerror(errno));
		return -1;
	}
	if (!S_ISREG(src_st->st_mode)) {
		fprintf(stderr, "copychain: %s: not a regular file\n", src);
		return -1;
	}
	if (!lstat(dst, &d->st)) {
		d->exists = 1;
		if (S_ISLNK(d->st.st_mode) && resolve_link(dst, d))
			return -1;
		if (d->st.st_dev == src_st->st_dev &&
		    d->st.st_ino == src_st->st_ino) {
			fprintf(stderr,
				"copychain: '%s' and '%s' are the same file\n",
				src, dst);
			return -1;
		}
		if (S_ISDIR(d->st.st_mode)) {
			fprintf(stderr, "copychain: %s: %s (give the file's name)\n",
				dst, strerror(EISDIR));
			return -1;
		}
		if (!S_ISREG(d->st.st_mode)) {
			fprintf(stderr,
				"copychain: %s: not a regular file (copychain replaces DST)\n",
				dst);
			return -1;
		}
	} else if (errno != ENOENT) {
		fprintf(stderr, "copychain: %s: %s\n", dst, strerror(errno));
		return -1;
	}
	if (dst[strlen(dst) - 1] == '/') {
		fprintf(stderr, "copychain: %s: not a file name\n", dst);
		return -1;
	}
	dir = dir_of(d->path, dirbuf, sizeof(dirbuf));
	err = stat(dir, &dir_st) ? errno : S_ISDIR(dir_st.st_mode) ? 0 : ENOTDIR;
	if (err) {
		fprintf(stderr,
			"copychain: cannot create regular file '%s': %s\n",
			dst, strerror(err));
		return -1;
	}
	if (strlen(d->path) + 8 > sizeof(tmp_path)) {
		fprintf(stderr, "copychain: %s: %s\n", dst,
			strerror(ENAMETOOLONG));
		return -1;
	}
	return 0;
}

/*
 * The copy's mode and owner, as cp: -p keeps SRC's (setuid and setgid
 * only if the owner could be kept too); otherwise an existing DST keeps
 * its own, a new one gets SRC's permission bits less the umask.
 */
static int set_attrs(const struct cc_opts *o, const struct stat *src_st,
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

/* the coroutine's end as a message; 0 if it copied everything */
static int report_end(const char *src, const char *dst,
		      const struct iocoro_done *done,
		      const struct copychain_state *st)
{
	if (done->how != IOCORO_FINISHED) {
		/* the kernel ended the chain: -ELOOP, -ECANCELED, ... */
		fprintf(stderr, "copychain: %s -> %s: %s (after %" PRIu64
			" bytes, %u steps%s)\n", src, dst,
			iocoro_strerror(done->res), (uint64_t)st->copied,
			st->steps, done->res == -ELOOP ?
			"; SRC is longer than its size said" : "");
		return -1;
	}
	if (done->res >= 0)
		return 0;
	if (st->failed_op == CC_OP_FSYNC)
		fprintf(stderr, "copychain: %s -> %s: %s (fsync)\n", src, dst,
			strerror(-done->res));
	else
		fprintf(stderr,
			"copychain: %s -> %s: %s (%s at offset %" PRIu64 ")\n",
			src, dst, strerror(-done->res), op_name(st->failed_op),
			(uint64_t)(st->off + st->done));
	return -1;
}

/* copy [off, end) with one coroutine; 0 or -1 (reported) */
static int copy_extent(struct cc_engine *e, const char *src, const char *dst,
		       struct copychain_state *st, unsigned int budget)
{
	struct iocoro_done done;
	int ret;

	ret = engine_run(e, st, budget, &done);
	if (ret < 0) {
		fprintf(stderr, "copychain: %s -> %s: %s\n", src, dst,
			iocoro_strerror(ret));
		return -1;
	}
	e->stats.steps += st->steps;
	e->stats.short_writes += st->short_writes;
	if (report_end(src, dst, &done, st))
		return -1;
	e->stats.bytes += st->copied;
	return 0;
}

/*
 * The next data extent at or after @off (SEEK_DATA, SEEK_HOLE): [*data,
 * *hole); 1 if it is the last (it then runs to the end of file), 0 if
 * more follow
 */
static int next_extent(int fd, uint64_t off, uint64_t size, uint64_t *data,
		       uint64_t *hole)
{
	off_t d = lseek(fd, (off_t)off, SEEK_DATA), h;

	if (d < 0) {
		/* ENXIO: only a hole is left; else no SEEK_DATA: all data */
		*data = errno == ENXIO && size > off ? size : off;
		*hole = UINT64_MAX;
		return 1;
	}
	h = lseek(fd, d, SEEK_HOLE);
	*data = (uint64_t)d;
	if (h < 0 || (uint64_t)h >= size) {
		*hole = UINT64_MAX;
		return 1;
	}
	*hole = (uint64_t)h;
	return 0;
}

/*
 * copy @src_fd into @tmp_fd, one coroutine per data extent so that the
 * holes of a sparse SRC stay holes; 0 or -1 (reported)
 */
static int copy_data(struct cc_engine *e, const char *src, const char *dst,
		     int src_fd, int tmp_fd, uint32_t chunk,
		     unsigned int budget, uint64_t size)
{
	struct copychain_state st;
	uint64_t off = 0, data, hole;
	int ret, last = 0;

	ret = engine_buffer(e, chunk);
	if (ret < 0) {
		fprintf(stderr, "copychain: a buffer of %u bytes: %s\n", chunk,
			strerror(-ret));
		return -1;
	}
	if (ftruncate(tmp_fd, (off_t)size)) {
		fprintf(stderr, "copychain: error writing '%s': %s\n", dst,
			strerror(errno));
		return -1;
	}
	while (!last) {
		last = next_extent(src_fd, off, size, &data, &hole);
		memset(&st, 0, sizeof(st));
		st.step = CC_START;
		st.src_fd = src_fd;
		st.dst_fd = tmp_fd;
		st.chunk = chunk;
		st.buf = (uintptr_t)e->buf;
		st.off = data;
		st.end = hole;
		st.sync = (__u32)last;
		if (copy_extent(e, src, dst, &st, budget))
			return -1;
		off = hole;
	}
	return 0;
}

/* written and fsynced: make the temporary file DST, durably */
static int commit_tmp(const char *src, const char *dst, int tmp_fd, int named)
{
	static char dirbuf[PATH_MAX];
	const char *dir = dir_of(dst, dirbuf, sizeof(dirbuf));
	int dfd, err = 0;

	if (!named) {
		/* a new DST gets the name at once; an existing one, a rename */
		err = link_fd(tmp_fd, dst);
		if (err == -EEXIST)
			err = link_replace(tmp_fd, dst);
		else if (!err)
			tmp_live = 0;
	}
	if (close(tmp_fd) && !err)
		err = -errno;
	if (!err && tmp_live && rename(tmp_path, dst))
		err = -errno;
	if (err) {
		fprintf(stderr, "copychain: %s -> %s: %s (naming the copy)\n",
			src, dst, strerror(-err));
		return -1;
	}
	tmp_live = 0;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fsync(dfd))
		fprintf(stderr, "copychain: warning: %s: fsync of the directory: %s\n",
			dir, strerror(errno));
	if (dfd >= 0)
		close(dfd);
	return 0;
}

/* copy SRC to DST; 0 or -1 (reported) */
static int copy_file(struct cc_engine *e, const struct cc_opts *o,
		     const char *src, const char *dst)
{
	uint32_t chunk = o->chunk;
	unsigned int budget;
	struct stat src_st;
	struct cc_dst d = { 0 };
	int src_fd, tmp_fd = -1, ret = -1, err, named = 0;

	if (stat(src, &src_st)) {
		fprintf(stderr, "copychain: cannot stat '%s': %s\n", src,
			strerror(errno));
		return -1;
	}
	if (S_ISDIR(src_st.st_mode)) {
		fprintf(stderr,
			"copychain: -r not specified; omitting directory '%s'\n",
			src);
		return -1;
	}
	src_fd = open(src, O_RDONLY | O_CLOEXEC);
	if (src_fd < 0) {
		fprintf(stderr, "copychain: cannot open '%s' for reading: %s\n",
			src, strerror(errno));
		return -1;
	}
	if (check_paths(src, dst, src_fd, &src_st, &d) ||
	    plan_chunks(src, (uint64_t)src_st.st_size, &chunk, &budget) ||
	    engine_get(e) < 0)
		goto out;
	tmp_fd = open_tmp(d.path, &named);
	if (tmp_fd < 0) {
		fprintf(stderr,
			"copychain: %s -> %s: cannot create a temporary file next to it: %s\n",
			src, dst, strerror(-tmp_fd));
		goto out;
	}
	if (copy_data(e, src, dst, src_fd, tmp_fd, chunk, budget,
		      (uint64_t)src_st.st_size))
		goto out;
	err = set_attrs(o, &src_st, &d, tmp_fd);
	if (err) {
		fprintf(stderr, "copychain: %s -> %s: %s (setting the mode)\n",
			src, dst, strerror(-err));
		goto out;
	}
	ret = commit_tmp(src, d.path, tmp_fd, named);
	tmp_fd = -1;
	if (ret)
		goto out;
	e->stats.files++;
	if (o->verbose)
		printf("'%s' -> '%s'\n", src, dst);
out:
	if (tmp_fd >= 0)
		close(tmp_fd);
	drop_tmp();
	close(src_fd);
	return ret;
}

static void print_stats(const struct cc_stats *s, double secs)
{
	printf("copychain: %" PRIu64 " file%s, %" PRIu64 " bytes in %.3f s (%.1f MB/s), %" PRIu64
	       " steps, %" PRIu64 " io_uring_enter calls, %" PRIu64 " short writes\n",
	       s->files, s->files == 1 ? "" : "s", s->bytes, secs,
	       secs > 0 ? (double)s->bytes / 1e6 / secs : 0.0, s->steps,
	       s->enters, s->short_writes);
}

/* ---- the command line ---- */

/* the options into @o, the operands to the front of argv; their count */
static int parse_args(int argc, char **argv, struct cc_opts *o)
{
	unsigned long long chunk = CC_DEFAULT_CHUNK;
	int i, n = 0, opts_done = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (opts_done || a[0] != '-' || !a[1]) {
			argv[n++] = argv[i];
		} else if (!strcmp(a, "--")) {
			opts_done = 1;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(a, "--version")) {
			printf("copychain (iocoro) %s\n", CC_VERSION);
			exit(0);
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			o->verbose = 1;
		} else if (!strcmp(a, "-p") || !strcmp(a, "--preserve")) {
			o->preserve = 1;
		} else if (!strcmp(a, "--stats")) {
			o->stats = 1;
		} else if (!strcmp(a, "--chunk") || !strncmp(a, "--chunk=", 8)) {
			const char *v = a[7] == '=' ? a + 8 : argv[++i];

			if (!v || app_parse_size(v, &chunk) || !chunk ||
			    chunk > CC_MAX_CHUNK) {
				fprintf(stderr,
					"copychain: --chunk takes a size of 1 to %u bytes (K, M, G suffixes), not '%s'\n",
					CC_MAX_CHUNK, v ? v : "");
				return -EINVAL;
			}
		} else {
			fprintf(stderr, "copychain: unknown option '%s'\n", a);
			usage(stderr);
			return -EINVAL;
		}
	}
	o->chunk = (uint32_t)chunk;
	return n;
}

/* cp's words for a missing operand, exit status 2 */
static int missing_operand(int n, char **argv)
{
	if (!n)
		fprintf(stderr, "copychain: missing file operand\n");
	else
		fprintf(stderr,
			"copychain: missing destination file operand after '%s'\n",
			argv[0]);
	fprintf(stderr, "Try 'copychain --help' for more information.\n");
	return 2;
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

/* DIR/the last name of @src, in @buf */
static const char *inside(const char *dir, const char *src, char *buf,
			  size_t size)
{
	size_t len = strlen(src);
	const char *base;

	while (len > 1 && src[len - 1] == '/')
		len--;
	base = src + len;
	while (base > src && base[-1] != '/')
		base--;
	snprintf(buf, size, "%s%s%.*s", dir,
		 dir[strlen(dir) - 1] == '/' ? "" : "/",
		 (int)(src + len - base), base);
	return buf;
}

int main(int argc, char **argv)
{
	static char buf[PATH_MAX];
	struct cc_opts o = { 0 };
	struct cc_engine e = { 0 };
	const char *target;
	int n, i, rc = 0, is_dir;
	double t0;

	o.umask = umask(0);
	umask(o.umask);
	n = parse_args(argc, argv, &o);
	if (n < 0)
		return 2;
	if (n < 2)
		return missing_operand(n, argv);
	target = argv[n - 1];
	is_dir = target_dir(n, target);
	if (is_dir < 0)
		return 1;
	/* one ring and one program for all the files */
	t0 = now();
	for (i = 0; i < n - 1; i++) {
		const char *dst = is_dir ? inside(target, argv[i], buf,
						  sizeof(buf)) : target;

		if (copy_file(&e, &o, argv[i], dst))
			rc = 1;
		if (e.ready < 0)
			break;	/* the program cannot be loaded: no use going on */
	}
	if (o.stats)
		print_stats(&e.stats, now() - t0);
	engine_exit(&e);
	return rc;
}
