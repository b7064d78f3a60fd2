// SPDX-License-Identifier: MIT
/*
 * uring_cp [--qd N] [--bs B] [--fsync] [--stats] SRC DST | SRC... DIR:
 * the user-space io_uring copy a user would write instead of copychain,
 * in the style of liburing's examples/io_uring-cp.c (there QD 64, 32 KiB
 * blocks, the defaults here): up to N blocks in flight, each read then
 * written by its slot, every decision made in user space after reaping
 * the CQE. Files are copied one after the other. --fsync ends each copy
 * with an fsync of the destination (what copychain does); --stats prints
 * the io_uring_submit_and_wait() calls made (each at most one
 * io_uring_enter()) to stderr.
 */
#include <liburing.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "peer_ring.h"

struct slot {
	char *buf;
	off_t off;		/* the block's file offset */
	size_t want;		/* its length */
	size_t pos;		/* bytes of it copied */
	size_t len;		/* bytes the last read gave, being written */
	size_t wrote;		/* of them, written */
	int busy;
};

struct cp {
	struct io_uring ring;
	struct slot *slots;
	unsigned int qd;
	size_t bs;
	int fsync;
	unsigned long submits;
};

static int cp_wait(struct cp *c, struct io_uring_cqe **cqe)
{
	int ret;

	c->submits++;
	ret = io_uring_submit_and_wait(&c->ring, 1);
	if (ret < 0)
		return ret;
	return io_uring_peek_cqe(&c->ring, cqe);
}

static void queue_read(struct cp *c, struct slot *s, int in)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&c->ring);

	io_uring_prep_read(sqe, in, s->buf, s->want - s->pos, s->off + s->pos);
	io_uring_sqe_set_data(sqe, s);
	s->len = 0;
}

static void queue_write(struct cp *c, struct slot *s, int out)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&c->ring);

	io_uring_prep_write(sqe, out, s->buf + s->wrote, s->len - s->wrote,
			    s->off + s->pos + s->wrote);
	io_uring_sqe_set_data(sqe, s);
}

/* a CQE of slot @s: go on with its block; -errno on an error */
static int advance(struct cp *c, struct slot *s, int res, int in, int out,
		   int *eof)
{
	if (res < 0)
		return res;
	if (!s->len) {				/* a read */
		if (res == 0) {			/* the file shrank */
			*eof = 1;
			s->busy = 0;
			return 0;
		}
		s->len = (size_t)res;
		s->wrote = 0;
		queue_write(c, s, out);
		return 0;
	}
	if (res == 0)
		return -EIO;
	s->wrote += (size_t)res;
	if (s->wrote < s->len) {		/* short write */
		queue_write(c, s, out);
		return 0;
	}
	s->pos += s->len;
	if (s->pos < s->want && !*eof)
		queue_read(c, s, in);		/* short read: the rest */
	else
		s->busy = 0;
	return 0;
}

static int copy_fd(struct cp *c, int in, int out, off_t size)
{
	struct io_uring_cqe *cqe;
	unsigned int i, busy;
	off_t next = 0;
	int eof = 0, ret = 0, r;

	for (;;) {
		busy = 0;
		for (i = 0; i < c->qd; i++) {
			struct slot *s = &c->slots[i];

			if (!s->busy && next < size && !eof && !ret) {
				s->busy = 1;
				s->off = next;
				s->want = (size_t)(size - next) < c->bs ?
					  (size_t)(size - next) : c->bs;
				s->pos = 0;
				next += (off_t)s->want;
				queue_read(c, s, in);
			}
			busy += s->busy;
		}
		if (!busy)
			break;
		r = cp_wait(c, &cqe);
		if (r < 0)
			return r;
		do {
			struct slot *s = io_uring_cqe_get_data(cqe);

			r = advance(c, s, cqe->res, in, out, &eof);
			if (r < 0) {
				s->busy = 0;
				ret = ret ?: r;
			}
			io_uring_cqe_seen(&c->ring, cqe);
		} while (io_uring_peek_cqe(&c->ring, &cqe) == 0);
	}
	if (ret < 0)
		return ret;
	if (c->fsync) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&c->ring);

		io_uring_prep_fsync(sqe, out, 0);
		ret = cp_wait(c, &cqe);
		if (ret < 0)
			return ret;
		ret = cqe->res;
		io_uring_cqe_seen(&c->ring, cqe);
	}
	return ret < 0 ? ret : 0;
}

static int copy_file(struct cp *c, const char *src, const char *dst)
{
	struct stat st;
	int in, out, ret;

	in = open(src, O_RDONLY);
	if (in < 0) {
		ret = -errno;
		fprintf(stderr, "uring_cp: cannot open '%s': %s\n", src,
			strerror(-ret));
		return ret;
	}
	if (fstat(in, &st) < 0) {
		ret = -errno;
		goto close_in;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, st.st_mode & 0777);
	if (out < 0) {
		ret = -errno;
		fprintf(stderr, "uring_cp: cannot create '%s': %s\n", dst,
			strerror(-ret));
		goto close_in;
	}
	ret = copy_fd(c, in, out, st.st_size);
	if (ret < 0)
		fprintf(stderr, "uring_cp: '%s' -> '%s': %s\n", src, dst,
			strerror(-ret));
	close(out);
close_in:
	close(in);
	return ret;
}

static int setup(struct cp *c)
{
	unsigned int i;
	int ret;

	ret = peer_queue_init(c->qd, &c->ring, 0);
	if (ret < 0)
		return ret;
	c->slots = calloc(c->qd, sizeof(*c->slots));
	if (!c->slots)
		return -ENOMEM;
	for (i = 0; i < c->qd; i++) {
		c->slots[i].buf = aligned_alloc(4096, c->bs);
		if (!c->slots[i].buf)
			return -ENOMEM;
	}
	return 0;
}

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int parse(int argc, char **argv, struct cp *c, int *stats)
{
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--qd") && i + 1 < argc)
			c->qd = (unsigned int)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--bs") && i + 1 < argc)
			c->bs = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--fsync"))
			c->fsync = 1;
		else if (!strcmp(argv[i], "--stats"))
			*stats = 1;
		else
			return -EINVAL;
	}
	if (argc - i < 2 || !c->qd || c->qd > 4096 || !c->bs ||
	    c->bs > (1U << 30))
		return -EINVAL;
	return i;
}

int main(int argc, char **argv)
{
	struct cp c = { .qd = 64, .bs = 32 << 10 };
	int first, last, i, stats = 0, bad = 0, ret;
	char path[PATH_MAX];

	first = parse(argc, argv, &c, &stats);
	if (first < 0) {
		fprintf(stderr, "usage: uring_cp [--qd N] [--bs B] [--fsync] [--stats] SRC DST | SRC... DIR\n");
		return 2;
	}
	last = argc - 1;
	ret = setup(&c);
	if (ret < 0) {
		fprintf(stderr, "uring_cp: setup: %s\n", strerror(-ret));
		return 1;
	}
	if (last - first == 1 && !is_dir(argv[last])) {
		bad = copy_file(&c, argv[first], argv[last]) < 0;
	} else {
		for (i = first; i < last; i++) {
			char *base = strrchr(argv[i], '/');

			snprintf(path, sizeof(path), "%s/%s", argv[last],
				 base ? base + 1 : argv[i]);
			bad |= copy_file(&c, argv[i], path) < 0;
		}
	}
	if (stats)
		fprintf(stderr, "uring_cp: %lu io_uring_submit_and_wait calls\n",
			c.submits);
	return bad;
}
