// SPDX-License-Identifier: MIT
/*
 * uring_cc [--jobs N] [--depth D] [--chunk B] [--sync] [--stats]
 *          [--defer-taskrun] SRC DST | SRC... DIR
 *
 * copychain's peer at the same concurrency, deciding in user space: the
 * same operations on the same number of files in flight (--jobs, default
 * 64), the same lanes and buffers per file (--depth 2 x --chunk 1M), the
 * same state (copychain.h's structs and cc_place()), queued by the same
 * rules (copychain.bpf.c) -- but each next operation is queued here,
 * after reaping the CQE of the one before, not by a BPF program in the
 * kernel. A file: OPENAT(SRC), OPENAT(DIR, O_TMPFILE), D lanes of READ
 * and WRITE over interleaved chunks, [FSYNC with --sync], CLOSE(SRC);
 * then, as copychain, fchmod, linkat into place and close. A file gets
 * as many lanes as it has chunks, at most D, as copychain plans. Files
 * are dense regular files here (no holes, no streams: the benchmark's).
 * --stats prints the io_uring_submit_and_wait() calls and the mean files
 * in flight to stderr. --defer-taskrun adds SINGLE_ISSUER | DEFER_TASKRUN
 * to the ring's flags, as copychain --defer-taskrun does.
 */
#define _GNU_SOURCE
#include <liburing.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "copychain.h"
#include "peer_ring.h"

/* user_data: the job and who in it (0 the file, k + 1 lane k) */
#define UD(job, who)	(((uint64_t)(job) << 8) | (who))

struct job {
	const char *src;
	char dst[PATH_MAX];
	char dir[PATH_MAX];
	mode_t mode;
	uint64_t start_ns;	/* when its openat was queued */
	struct copychain_file f;
	struct copychain_lane l[CC_MAX_DEPTH];
};

struct ucc {
	struct io_uring ring;
	struct job *jobs;
	char *bufs;
	unsigned int nr_jobs, depth, chunk;
	int sync;
	mode_t umask;
	unsigned long submits;
	uint64_t busy_ns;	/* the files' times from start to end */
	double secs;		/* run()'s */
	int bad;
	int empty_path;		/* -1: linkat(AT_EMPTY_PATH) failed here */
};

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static struct io_uring_sqe *get_sqe(struct ucc *u)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

	if (!sqe) {			/* the ring is sized for it: never */
		io_uring_submit(&u->ring);
		sqe = io_uring_get_sqe(&u->ring);
	}
	return sqe;
}

static void queue_openat(struct ucc *u, unsigned int j, const char *path,
			 int flags, uint32_t next)
{
	struct io_uring_sqe *sqe = get_sqe(u);

	io_uring_prep_openat(sqe, AT_FDCWD, path, flags, 0600);
	io_uring_sqe_set_data64(sqe, UD(j, 0));
	u->jobs[j].f.step = next;
}

static void queue_fd_op(struct ucc *u, unsigned int j, int fsync, int fd,
			uint32_t next)
{
	struct io_uring_sqe *sqe = get_sqe(u);

	if (fsync)
		io_uring_prep_fsync(sqe, fd, 0);
	else
		io_uring_prep_close(sqe, fd);
	io_uring_sqe_set_data64(sqe, UD(j, 0));
	u->jobs[j].f.step = next;
}

static char *lane_buf(struct ucc *u, unsigned int j, uint32_t k)
{
	return u->bufs + ((size_t)j * u->depth + k) * u->chunk;
}

static void queue_read(struct ucc *u, unsigned int j, struct copychain_lane *l)
{
	struct io_uring_sqe *sqe = get_sqe(u);

	io_uring_prep_read(sqe, u->jobs[j].f.src_fd, lane_buf(u, j, l->k) + l->pos,
			   l->want - l->pos, l->off + l->pos);
	io_uring_sqe_set_data64(sqe, UD(j, l->k + 1));
	l->step = CC_READ_DONE;
}

static void queue_write(struct ucc *u, unsigned int j, struct copychain_lane *l)
{
	struct io_uring_sqe *sqe = get_sqe(u);
	uint64_t at = l->pos + l->done;

	io_uring_prep_write(sqe, u->jobs[j].f.dst_fd, lane_buf(u, j, l->k) + at,
			    l->len - l->done, l->off + at);
	io_uring_sqe_set_data64(sqe, UD(j, l->k + 1));
	l->step = CC_WRITE_DONE;
}

/* all lanes have left: [fsync,] close SRC, or close after an error */
static void wrapup(struct ucc *u, unsigned int j)
{
	struct copychain_file *f = &u->jobs[j].f;

	if (f->error) {
		queue_fd_op(u, j, 0, f->src_fd, CC_FAIL_CLOSED);
		return;
	}
	if (f->sync)
		queue_fd_op(u, j, 1, f->dst_fd, CC_FSYNC_DONE);
	else
		queue_fd_op(u, j, 0, f->src_fd, CC_CLOSE_DONE);
}

/* a lane's CQE: its next read or write, or it leaves */
static void lane_cqe(struct ucc *u, unsigned int j, struct copychain_lane *l,
		     int res)
{
	struct copychain_file *f = &u->jobs[j].f;

	if (res < 0) {
		f->error = f->error ?: res;
	} else if (l->step == CC_READ_DONE) {
		if (res > 0) {
			l->len = (uint32_t)res;
			l->done = 0;
			queue_write(u, j, l);
			return;
		}
	} else if (res == 0) {
		f->error = f->error ?: -EIO;
	} else {
		l->done += (uint32_t)res;
		l->copied += (uint32_t)res;
		if (l->done < l->len) {
			queue_write(u, j, l);
			return;
		}
		l->pos += l->len;
		if (l->pos < l->want) {
			queue_read(u, j, l);
			return;
		}
		l->off += (uint64_t)f->depth * f->chunk;
		if (!f->error && cc_place(f, l)) {
			queue_read(u, j, l);
			return;
		}
	}
	if (--f->active == 0)
		wrapup(u, j);
}

/* both files are open: start the lanes on their first chunks */
static void fork_lanes(struct ucc *u, unsigned int j)
{
	struct job *jb = &u->jobs[j];
	uint32_t k;

	jb->f.active = 0;
	for (k = 0; k < jb->f.depth; k++) {
		struct copychain_lane *l = &jb->l[k];

		memset(l, 0, sizeof(*l));
		l->k = k;
		l->off = (uint64_t)k * jb->f.chunk;
		if (cc_place(&jb->f, l)) {
			queue_read(u, j, l);
			jb->f.active++;
		}
	}
	if (!jb->f.active)
		wrapup(u, j);
}

/*
 * Give the copy its mode and name, as copychain does (cc_link_fd()):
 * linkat(AT_EMPTY_PATH), which needs CAP_DAC_READ_SEARCH; without it,
 * and from then on, the /proc/self/fd link. 0 or -errno
 */
static int commit(struct ucc *u, struct job *jb)
{
	char proc[64];

	if (fchmod(jb->f.dst_fd, jb->mode & 0777 & ~u->umask))
		return -errno;
	if (u->empty_path >= 0) {
		if (!linkat(jb->f.dst_fd, "", AT_FDCWD, jb->dst, AT_EMPTY_PATH))
			return 0;
		if (errno != ENOENT)
			return -errno;
		u->empty_path = -1;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", jb->f.dst_fd);
	if (linkat(AT_FDCWD, proc, AT_FDCWD, jb->dst, AT_SYMLINK_FOLLOW))
		return -errno;
	return 0;
}

/* the file's CQE: 1 when the job is over */
static int file_cqe(struct ucc *u, unsigned int j, int res)
{
	struct job *jb = &u->jobs[j];
	struct copychain_file *f = &jb->f;

	switch (f->step) {
	case CC_SRC_OPEN:
		if (res < 0)
			break;
		f->src_fd = res;
		queue_openat(u, j, jb->dir, O_TMPFILE | O_WRONLY | O_CLOEXEC,
			     CC_DST_OPEN);
		return 0;
	case CC_DST_OPEN:
		if (res < 0) {
			f->error = res;
			queue_fd_op(u, j, 0, f->src_fd, CC_FAIL_DONE);
			return 0;
		}
		f->dst_fd = res;
		fork_lanes(u, j);
		return 0;
	case CC_FSYNC_DONE:
		if (res < 0) {
			f->error = res;
			queue_fd_op(u, j, 0, f->src_fd, CC_FAIL_CLOSED);
			return 0;
		}
		queue_fd_op(u, j, 0, f->src_fd, CC_CLOSE_DONE);
		return 0;
	case CC_CLOSE_DONE:
		if (res >= 0)
			res = commit(u, jb);
		close(f->dst_fd);
		break;
	case CC_FAIL_CLOSED:
		if (f->dst_fd >= 0)
			close(f->dst_fd);
		/* fall through */
	default:
		res = (int)f->error;
	}
	if (res < 0) {
		fprintf(stderr, "uring_cc: '%s' -> '%s': %s\n", jb->src, jb->dst,
			strerror(-res));
		u->bad = 1;
	}
	return 1;
}

/*
 * The lanes a file gets, as copychain plans them: one a chunk of a
 * regular file, at most --depth, at least one
 */
static uint32_t file_depth(const struct ucc *u, const struct stat *st)
{
	uint64_t chunks;

	if (!S_ISREG(st->st_mode))
		return u->depth;
	chunks = ((uint64_t)st->st_size + u->chunk - 1) / u->chunk;
	if (chunks >= u->depth)
		return u->depth;
	return chunks ? (uint32_t)chunks : 1;
}

static void start(struct ucc *u, unsigned int j, const char *src,
		  const char *dst)
{
	struct job *jb = &u->jobs[j];
	struct copychain_file *f = &jb->f;
	const char *slash;
	struct stat st;

	memset(f, 0, sizeof(*f));
	jb->src = src;
	snprintf(jb->dst, sizeof(jb->dst), "%s", dst);
	slash = strrchr(jb->dst, '/');
	snprintf(jb->dir, sizeof(jb->dir), "%.*s",
		 slash ? (int)(slash - jb->dst) : 1, slash ? jb->dst : ".");
	f->chunk = u->chunk;
	f->depth = u->depth;
	if (stat(src, &st)) {
		jb->mode = 0644;
	} else {
		jb->mode = st.st_mode;
		f->depth = file_depth(u, &st);
	}
	f->sync = (uint32_t)u->sync;
	f->nr_ext = 1;
	f->ext[0].end = CC_TO_EOF;
	f->src_fd = -1;
	f->dst_fd = -1;
	jb->start_ns = now_ns();
	queue_openat(u, j, src, O_RDONLY | O_CLOEXEC, CC_SRC_OPEN);
}

static int run(struct ucc *u, int n, char **src, const char *target,
	       int into)
{
	unsigned int *free_jobs, nfree = 0, busy = 0, j;
	struct io_uring_cqe *cqe;
	char dst[PATH_MAX];
	int next = 0, ret = 0;
	uint64_t t0 = now_ns();

	free_jobs = calloc(u->nr_jobs, sizeof(*free_jobs));
	if (!free_jobs)
		return -ENOMEM;
	for (j = u->nr_jobs; j > 0; j--)
		free_jobs[nfree++] = j - 1;
	while (next < n || busy) {
		while (nfree && next < n) {
			const char *base = strrchr(src[next], '/');

			if (into)
				snprintf(dst, sizeof(dst), "%s/%s", target,
					 base ? base + 1 : src[next]);
			else
				snprintf(dst, sizeof(dst), "%s", target);
			start(u, free_jobs[--nfree], src[next++], dst);
			busy++;
		}
		u->submits++;
		ret = io_uring_submit_and_wait(&u->ring, 1);
		if (ret < 0 && ret != -EINTR)
			break;
		while (!io_uring_peek_cqe(&u->ring, &cqe)) {
			unsigned int who = cqe->user_data & 0xff;

			j = (unsigned int)(cqe->user_data >> 8);
			if (who)
				lane_cqe(u, j, &u->jobs[j].l[who - 1], cqe->res);
			else if (file_cqe(u, j, cqe->res)) {
				free_jobs[nfree++] = j;
				busy--;
				u->busy_ns += now_ns() - u->jobs[j].start_ns;
			}
			io_uring_cqe_seen(&u->ring, cqe);
		}
	}
	free(free_jobs);
	u->secs = (double)(now_ns() - t0) / 1e9;
	return ret < 0 && ret != -EINTR ? ret : 0;
}

static int parse(int argc, char **argv, struct ucc *u, int *stats,
		 unsigned int *flags)
{
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--jobs") && i + 1 < argc)
			u->nr_jobs = (unsigned int)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--depth") && i + 1 < argc)
			u->depth = (unsigned int)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--chunk") && i + 1 < argc)
			u->chunk = (unsigned int)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--sync"))
			u->sync = 1;
		else if (!strcmp(argv[i], "--stats"))
			*stats = 1;
		else if (!strcmp(argv[i], "--defer-taskrun"))
			*flags |= IORING_SETUP_SINGLE_ISSUER |
				  IORING_SETUP_DEFER_TASKRUN;
		else
			return -EINVAL;
	}
	if (argc - i < 2 || !u->nr_jobs || u->nr_jobs > 1024 || !u->depth ||
	    u->depth > CC_MAX_DEPTH || !u->chunk || u->chunk > (1U << 30))
		return -EINVAL;
	return i;
}

int main(int argc, char **argv)
{
	struct ucc u = { .nr_jobs = 64, .depth = 2, .chunk = 1U << 20 };
	int first, last, stats = 0, into, ret;
	unsigned int flags = 0;
	struct stat st;

	first = parse(argc, argv, &u, &stats, &flags);
	if (first < 0) {
		fprintf(stderr, "usage: uring_cc [--jobs N] [--depth D] [--chunk B] [--sync] [--stats] [--defer-taskrun] SRC DST | SRC... DIR\n");
		return 2;
	}
	last = argc - 1;
	into = !stat(argv[last], &st) && S_ISDIR(st.st_mode);
	u.umask = umask(0);
	umask(u.umask);
	/* a file's lanes and its open or close: depth + 1 SQEs a job */
	ret = peer_queue_init(u.nr_jobs * (u.depth + 1), &u.ring, flags);
	if (ret < 0) {
		fprintf(stderr, "uring_cc: the ring: %s\n", strerror(-ret));
		return 1;
	}
	u.jobs = calloc(u.nr_jobs, sizeof(*u.jobs));
	u.bufs = aligned_alloc(4096, (size_t)u.nr_jobs * u.depth * u.chunk);
	if (!u.jobs || !u.bufs) {
		fprintf(stderr, "uring_cc: %s\n", strerror(ENOMEM));
		return 1;
	}
	ret = run(&u, last - first, argv + first, argv[last], into);
	if (ret < 0) {
		fprintf(stderr, "uring_cc: %s\n", strerror(-ret));
		u.bad = 1;
	}
	if (stats) {
		fprintf(stderr, "uring_cc: %lu io_uring_submit_and_wait calls\n",
			u.submits);
		/* a file from its openat's queueing to its last CQE */
		if (u.secs > 0)
			fprintf(stderr, "uring_cc: mean %.1f files in flight (at most %u)\n",
				(double)u.busy_ns / 1e9 / u.secs, u.nr_jobs);
	}
	io_uring_queue_exit(&u.ring);
	return u.bad;
}
