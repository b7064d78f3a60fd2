// SPDX-License-Identifier: MIT
/*
 * uring_cat [--jobs N] [--stats] FILE...
 *
 * catchain's peer at the same concurrency, deciding in user space: the
 * same number of files in flight (--jobs, default 32), the same buffers
 * per file (CAT_NBUFS = 8 of 128 KiB, catchain.h, catchain_opts.h) and
 * the same operations -- OPENAT, a READ at the file position per buffer,
 * CLOSE -- but each next operation is queued here, after reaping the CQE
 * of the one before, not by a BPF program in the kernel. A file's next
 * read waits (in user space here, on a credit eventfd in catchain) until
 * fewer than CAT_NBUFS of its buffers are filled and not written out.
 * The output is cat's: the filled buffers of the first file not yet
 * written out go to stdout, gathered into one writev() across files (at
 * most CAT_IOV buffers, as catchain); a later file's are held until
 * every earlier file is written out. A slot takes its next file once its
 * file is written out, as in catchain.
 *
 * Errors as cat's: "uring_cat: FILE: No such file or directory", the
 * other files still printed, exit status 1. No stdin: a FILE of "-" is
 * refused, as bad usage (exit status 2, as uring_cc). No --chunk: the
 * buffers are catchain's default size.
 * --stats prints the io_uring_submit_and_wait() calls to stderr.
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
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "catchain.h"
#include "catchain_opts.h"
#include "cat_write.h"
#include "peer_ring.h"

/* buffers gathered for one writev(), as catchain's */
#define CAT_IOV		1024

/* the operation a slot waits for; user_data is the slot */
enum step {
	S_IDLE,		/* no file */
	S_OPEN,
	S_READ,
	S_STALLED,	/* a read is due, its buffer not written out yet */
	S_CLOSE,
	S_DONE,		/* the file has ended, not written out yet */
};

enum file_state {
	F_WAITING,	/* not started */
	F_RUNNING,	/* its slot runs it */
	F_ENDED,	/* closed (or the open failed), res is its end */
};

struct file {
	const char *name;
	int state;	/* enum file_state */
	int slot;
	int res;	/* 0 or the first error (-errno) */
};

/* a slot: one file in flight, its buffers */
struct slot {
	int file;		/* the file it runs; -1: idle */
	int step;		/* enum step */
	int fd;
	int error;		/* the file's first error */
	uint32_t next;		/* reads filled so far: buffer next % NBUFS */
	uint32_t first;		/* next buffer to gather */
	uint32_t ready;		/* filled buffers from first on */
	uint32_t held;		/* filled, not written out (ready or batch) */
	uint32_t len[CAT_NBUFS];
	char *bufs;
};

struct batch {
	struct iovec iov[CAT_IOV];
	int iov_slot[CAT_IOV];
	int n;
};

struct ucat {
	struct io_uring ring;
	struct slot *slots;
	struct file *files;
	char *bufs;		/* all slots' buffers */
	size_t bufs_size;
	struct batch batch;
	unsigned int nr_jobs;
	uint32_t chunk;
	int nfiles;
	int head;		/* the first file not written out */
	int next;		/* the next file to start */
	unsigned long submits;
	int have_ring;
	int bad;
};

/* ---- the ring ---- */

static struct io_uring_sqe *get_sqe(struct ucat *u)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

	if (!sqe) {			/* the ring is sized for it: never */
		io_uring_submit(&u->ring);
		sqe = io_uring_get_sqe(&u->ring);
	}
	return sqe;
}

static void queue_open(struct ucat *u, unsigned int i)
{
	struct io_uring_sqe *sqe = get_sqe(u);

	io_uring_prep_openat(sqe, AT_FDCWD, u->files[u->slots[i].file].name,
			     O_RDONLY | O_CLOEXEC, 0);
	io_uring_sqe_set_data64(sqe, i);
	u->slots[i].step = S_OPEN;
}

/* read the next chunk, at the file position, into buffer next % NBUFS */
static void queue_read(struct ucat *u, unsigned int i)
{
	struct slot *s = &u->slots[i];
	struct io_uring_sqe *sqe = get_sqe(u);
	char *buf = s->bufs + (size_t)(s->next % CAT_NBUFS) * u->chunk;

	io_uring_prep_read(sqe, s->fd, buf, u->chunk, (uint64_t)-1);
	io_uring_sqe_set_data64(sqe, i);
	s->step = S_READ;
}

/* the next read if its buffer is free, else wait for the output */
static void read_or_stall(struct ucat *u, unsigned int i)
{
	struct slot *s = &u->slots[i];

	if (s->held < CAT_NBUFS)
		queue_read(u, i);
	else
		s->step = S_STALLED;
}

static void queue_close(struct ucat *u, unsigned int i)
{
	struct io_uring_sqe *sqe = get_sqe(u);

	io_uring_prep_close(sqe, u->slots[i].fd);
	io_uring_sqe_set_data64(sqe, i);
	u->slots[i].step = S_CLOSE;
}

/* the file of slot @i has ended (closed, or never opened) */
static void end_file(struct ucat *u, unsigned int i)
{
	struct slot *s = &u->slots[i];
	struct file *f = &u->files[s->file];

	f->state = F_ENDED;
	f->res = s->error;
	s->step = S_DONE;
}

static void read_cqe(struct ucat *u, unsigned int i, int res)
{
	struct slot *s = &u->slots[i];

	if (res > (int)u->chunk)
		res = -EIO;			/* the kernel should never */
	if (res <= 0) {				/* end of file, or an error */
		s->error = res;
		queue_close(u, i);
		return;
	}
	s->len[s->next % CAT_NBUFS] = (uint32_t)res;
	s->next++;
	s->ready++;
	s->held++;
	read_or_stall(u, i);
}

/* one CQE: the next operation of its slot's file */
static int handle_cqe(struct ucat *u, const struct io_uring_cqe *cqe)
{
	uint64_t i = cqe->user_data;
	struct slot *s;

	if (i >= u->nr_jobs || u->slots[i].file < 0)
		return -EIO;
	s = &u->slots[i];
	switch (s->step) {
	case S_OPEN:
		if (cqe->res < 0) {
			s->error = cqe->res;
			end_file(u, (unsigned int)i);
			return 0;
		}
		s->fd = cqe->res;
		queue_read(u, (unsigned int)i);	/* buffer 0 is free */
		return 0;
	case S_READ:
		read_cqe(u, (unsigned int)i, cqe->res);
		return 0;
	case S_CLOSE:
		if (cqe->res < 0 && !s->error)
			s->error = cqe->res;
		end_file(u, (unsigned int)i);
		return 0;
	}
	return -EIO;
}

/* start the files after u->next while slots are idle */
static void start_files(struct ucat *u)
{
	unsigned int i = 0;

	for (; u->next < u->nfiles; u->next++) {
		struct file *f = &u->files[u->next];
		struct slot *s;

		while (i < u->nr_jobs && u->slots[i].file >= 0)
			i++;
		if (i == u->nr_jobs)
			break;
		s = &u->slots[i];
		s->file = u->next;
		s->fd = -1;
		s->error = 0;
		s->next = 0;
		s->first = 0;
		s->ready = 0;
		s->held = 0;
		f->slot = (int)i;
		f->state = F_RUNNING;
		queue_open(u, i);
	}
}

/* submit what is queued, wait for a CQE, handle all there are */
static int submit_and_reap(struct ucat *u)
{
	struct io_uring_cqe *cqe;
	unsigned int head, seen = 0;
	int ret;

	u->submits++;
	ret = io_uring_submit_and_wait(&u->ring, 1);
	if (ret < 0 && ret != -EINTR)
		return ret;
	ret = 0;
	io_uring_for_each_cqe(&u->ring, head, cqe) {
		ret = handle_cqe(u, cqe);
		if (ret < 0)
			break;
		seen++;
	}
	io_uring_cq_advance(&u->ring, seen);
	return ret;
}

/* ---- output ---- */

/* write the batch out; its buffers are free: the stalled reads go on */
static int flush_batch(struct ucat *u)
{
	struct batch *b = &u->batch;
	int i, ret;

	ret = cat_write_all(b->iov, b->n);
	for (i = 0; i < b->n; i++) {
		unsigned int k = (unsigned int)b->iov_slot[i];
		struct slot *s = &u->slots[k];

		s->held--;
		if (!ret && s->step == S_STALLED)
			queue_read(u, k);
	}
	b->n = 0;
	return ret;
}

/* add the ready buffers of file @f to the batch */
static int gather(struct ucat *u, struct file *f)
{
	struct slot *s = &u->slots[f->slot];
	struct batch *b = &u->batch;
	int ret;

	while (s->ready) {
		if (b->n == CAT_IOV) {
			ret = flush_batch(u);
			if (ret < 0)
				return ret;
		}
		b->iov[b->n].iov_base = s->bufs + (size_t)s->first * u->chunk;
		b->iov[b->n].iov_len = s->len[s->first];
		b->iov_slot[b->n++] = f->slot;
		s->first = (s->first + 1) % CAT_NBUFS;
		s->ready--;
	}
	return 0;
}

/*
 * Write out what can be: the ready buffers of the first files, up to one
 * that still runs; a file that ended is reported, its slot idle. An
 * error comes after the output before it, as cat's.
 */
static int output(struct ucat *u)
{
	int ret = 0;

	for (; u->head < u->nfiles; u->head++) {
		struct file *f = &u->files[u->head];

		if (f->state == F_WAITING)
			break;
		ret = gather(u, f);
		if (ret < 0 || f->state != F_ENDED)
			break;
		if (f->res < 0) {
			ret = flush_batch(u);
			if (ret < 0)
				break;
			fprintf(stderr, "uring_cat: %s: %s\n", f->name,
				strerror(-f->res));
			u->bad = 1;
		}
		u->slots[f->slot].file = -1;
		u->slots[f->slot].step = S_IDLE;
	}
	if (!ret)
		ret = flush_batch(u);
	return ret;
}

static int run(struct ucat *u)
{
	int ret;

	for (;;) {
		ret = output(u);
		if (ret < 0) {
			fprintf(stderr, "uring_cat: write error: %s\n",
				strerror(-ret));
			return ret;
		}
		if (u->head == u->nfiles)
			return 0;
		start_files(u);
		ret = submit_and_reap(u);
		if (ret < 0) {
			fprintf(stderr, "uring_cat: %s\n", strerror(-ret));
			return ret;
		}
	}
}

/* ---- setup ---- */

static int parse(int argc, char **argv, struct ucat *u, int *stats)
{
	char *end;
	int i = 1;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "--jobs") && i + 1 < argc) {
			u->nr_jobs = (unsigned int)strtoul(argv[++i], &end, 0);
			if (*end || !*argv[i])
				return -EINVAL;
		} else if (!strcmp(argv[i], "--stats")) {
			*stats = 1;
		} else {
			return -EINVAL;
		}
	}
	if (i == argc || !u->nr_jobs || u->nr_jobs > CAT_MAX_JOBS)
		return -EINVAL;
	return i;
}

/* the operands as files; "-" (stdin) is not supported */
static int make_files(struct ucat *u, unsigned int n, char **argv)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!strcmp(argv[i], "-")) {
			fprintf(stderr, "uring_cat: -: reading stdin is not supported\n");
			return -EINVAL;
		}
	}
	u->files = calloc(n, sizeof(*u->files));
	if (!u->files)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		u->files[i].name = argv[i];
		u->files[i].slot = -1;
	}
	u->nfiles = (int)n;
	return 0;
}

/* the ring, the slots and their CAT_NBUFS buffers each */
static int setup(struct ucat *u)
{
	size_t per = (size_t)CAT_NBUFS * u->chunk;
	unsigned int i;
	void *p;
	int ret;

	/* one operation in flight per slot: its open, read or close */
	ret = peer_queue_init(u->nr_jobs, &u->ring, 0);
	if (ret < 0)
		return ret;
	u->have_ring = 1;
	u->slots = calloc(u->nr_jobs, sizeof(*u->slots));
	if (!u->slots)
		return -ENOMEM;
	/* anonymous memory, as catchain's (and defined for valgrind) */
	u->bufs_size = per * u->nr_jobs;
	p = mmap(NULL, u->bufs_size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	u->bufs = p;
	for (i = 0; i < u->nr_jobs; i++) {
		u->slots[i].file = -1;
		u->slots[i].fd = -1;
		u->slots[i].bufs = u->bufs + per * i;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct ucat u = { .nr_jobs = CAT_DEFAULT_JOBS,
			  .chunk = CAT_DEFAULT_CHUNK };
	int first, stats = 0, ret;

	first = parse(argc, argv, &u, &stats);
	if (first < 0) {
		fprintf(stderr, "usage: uring_cat [--jobs N] [--stats] FILE...\n");
		return 2;
	}
	ret = make_files(&u, (unsigned int)(argc - first), argv + first);
	if (ret == -EINVAL)
		return 2;
	if (!ret)
		ret = setup(&u);
	if (ret < 0) {
		fprintf(stderr, "uring_cat: %s\n", strerror(-ret));
		goto out;
	}
	ret = run(&u);			/* reports its own errors */
out:
	if (ret < 0)
		u.bad = 1;
	if (stats)
		fprintf(stderr, "uring_cat: %lu io_uring_submit_and_wait calls\n",
			u.submits);
	if (u.have_ring)
		io_uring_queue_exit(&u.ring);
	if (u.bufs)
		munmap(u.bufs, u.bufs_size);
	free(u.slots);
	free(u.files);
	return u.bad;
}
