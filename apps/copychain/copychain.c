// SPDX-License-Identifier: MIT
/*
 * copychain [OPTION]... SRC DST | SRC... DIR: copy files with in-kernel
 * coroutines (copychain.bpf.c). For each file user space checks the
 * names and submits one request; in the kernel a coroutine opens SRC and
 * an unnamed O_TMPFILE in DST's directory, --depth lanes read and write
 * interleaved chunks, the last closes SRC (with --sync, after an fsync of
 * the copy). Only when that went well does the file get DST's name
 * (linkat(), or link and rename() over an existing DST: DST is never half
 * written); on any failure, even SIGKILL, nothing is left. --jobs files
 * are copied at once, each with its own slot in the coroutines' maps; -r
 * walks trees (cc_plan.c). A fifo or device SRC is a stream: one lane
 * reads it to its end.
 *
 * Like cp, it prints nothing when all went well: -v names each copy,
 * --stats adds what the copies took (steps, io_uring_enter calls, time).
 *
 * Exit status: 0 copied; 1 a copy failed (that DST as it was) or bad
 * usage, as cp.
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

#include "cc_names.h"
#include "cc_plan.h"
#include "copychain.h"
#include "tool.h"
#include "copychain.skel.h"

/* steps a lane may need beyond its chunks (EOF, short I/O, the wrapup) */
#define CC_LANE_SLACK		64
/* user_data of the progress line's timeout (not a coroutine's) */
#define CC_UD_TICK		1

_Static_assert(sizeof(struct copychain_file) % 8 == 0, "map stride");
_Static_assert(sizeof(struct copychain_lane) % 8 == 0, "map stride");

/* what loading the engine took, phase by phase, in seconds (--stats) */
struct cc_load_times {
	double ring, open, load, attach, maps;
	double all;
	uint32_t verified_insns;
};

/* what --stats reports, summed over the copies */
struct cc_stats {
	uint64_t files;
	uint64_t bytes;
	uint64_t steps;
	uint64_t enters;	/* io_uring_enter() calls made by user space */
	uint64_t short_writes;
	uint64_t short_reads;
	uint64_t busy_ns;	/* the files' times from submit to their end */
};

/* a file being copied: slot j of cc_files, lanes j * CC_MAX_DEPTH + k */
struct cc_job {
	const struct cc_item *item;
	struct stat src_st;
	struct cc_dst d;
	char dir[PATH_MAX];	/* DST's directory, opened with O_TMPFILE */
	int named;		/* 1: written to the temp name cc_tmp_name(j) */
	int stream;		/* 1: SRC is a fifo or device, read to its end */
	uint64_t hole_end;	/* > 0: SRC ends in a hole, size to truncate */
	unsigned int budget;	/* steps its coroutines may take in all */
	uint64_t start_ns;	/* CLOCK_MONOTONIC when its start was queued */
};

/* the ring, the loaded programs and their mmap()ed maps */
struct cc_engine {
	struct iocoro co;
	struct copychain_bpf *skel;
	unsigned int file_kind, lane_kind;	/* of the two steps */
	int ready;		/* 1: loaded; < 0: loading failed with it */
	int have_ring;
	struct copychain_file *files;	/* cc_files, mmap()ed */
	struct copychain_lane *lanes;	/* cc_lanes, mmap()ed */
	size_t files_size, lanes_size;
	void *buf;		/* jobs * depth * chunk bytes */
	size_t buf_size;
	struct cc_job *jobs;
	struct iocoro_window window;	/* the job slots, as they free up */
	const struct cc_opts *o;	/* for the reap's handlers */
	int rc;				/* the exit status so far */
	int tick;		/* 1: the progress timeout is armed */
	int progress_shown;
	double t0;
	struct cc_load_times load;
	struct cc_stats stats;
	struct cc_dirs synced;	/* directories to fsync at the end */
	char dir_ok[PATH_MAX];	/* the last DST directory found to be one */
};

static double now(void)
{
	return tool_now();
}

/* ---- the engine: one ring, the programs, loaded on first use ---- */

/* the maps are mmap()ed as arrays of these: values 8-byte aligned */
_Static_assert(sizeof(struct copychain_file) % 8 == 0, "cc_files stride");
_Static_assert(sizeof(struct copychain_lane) % 8 == 0, "cc_lanes stride");

static int engine_maps(struct cc_engine *e, const struct cc_opts *o)
{
	int ret;

	ret = iocoro_map_mmap(e->skel->maps.cc_files, (void **)&e->files,
			      &e->files_size);
	if (ret < 0)
		return ret;
	ret = iocoro_map_mmap(e->skel->maps.cc_lanes, (void **)&e->lanes,
			      &e->lanes_size);
	if (ret < 0)
		return ret;
	e->buf_size = (size_t)o->jobs * o->depth * o->chunk;
	e->buf = mmap(NULL, e->buf_size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (e->buf == MAP_FAILED) {
		e->buf = NULL;
		return -errno;
	}
	return 0;
}

/* the ring, the programs and the maps; e->load gets what each took */
static int engine_load(struct cc_engine *e, const struct cc_opts *o)
{
	struct iocoro_load_info info;
	struct iocoro_load_opts opts = { .sz = sizeof(opts), .info = &info };
	double t = now(), t1;
	int ret;

	ret = iocoro_queue_init(o->jobs * 2 + 8, &e->co, o->defer_taskrun ?
				IORING_SETUP_SINGLE_ISSUER |
				IORING_SETUP_DEFER_TASKRUN : 0);
	if (ret < 0)
		return ret;
	e->have_ring = 1;
	t1 = now();
	e->load.ring = t1 - t;
	e->skel = copychain_bpf__open();
	if (!e->skel)
		return -errno;
	bpf_map__set_max_entries(e->skel->maps.cc_files, o->jobs);
	bpf_map__set_max_entries(e->skel->maps.cc_lanes,
				 o->jobs * CC_MAX_DEPTH);
	e->load.open = now() - t1;
	ret = iocoro_skel_load(&e->co, e->skel->skeleton, &opts);
	if (ret < 0)
		return ret;
	e->load.load = (double)info.load_ns / 1e9;
	e->load.attach = (double)info.attach_ns / 1e9;
	e->load.verified_insns = info.verified_insns;
	ret = iocoro_prog_index(e->skel->obj, e->skel->progs.copychain);
	if (ret < 0)
		return ret;
	e->file_kind = (unsigned int)ret;
	ret = iocoro_prog_index(e->skel->obj, e->skel->progs.copychain_lane);
	if (ret < 0)
		return ret;
	e->lane_kind = (unsigned int)ret;
	t1 = now();
	ret = engine_maps(e, o);
	e->load.maps = now() - t1;
	e->load.all = now() - t;
	return ret;
}

/* load once; a failure is reported once */
static int engine_get(struct cc_engine *e, const struct cc_opts *o)
{
	int ret;

	libbpf_set_print(NULL);
	ret = engine_load(e, o);
	if (ret < 0) {
		tool_report_load("copychain", ret);
		e->ready = ret;
		return ret;
	}
	e->ready = 1;
	e->t0 = now();
	return 0;
}

static void engine_exit(struct cc_engine *e)
{
	if (e->buf)
		munmap(e->buf, e->buf_size);
	if (e->files)
		iocoro_map_munmap(e->files, e->files_size);
	if (e->lanes)
		iocoro_map_munmap(e->lanes, e->lanes_size);
	free(e->jobs);
	iocoro_window_exit(&e->window);
	copychain_bpf__destroy(e->skel);
	if (e->have_ring)
		iocoro_queue_exit(&e->co);
}

/* ---- one file: check, plan, start ---- */

/* DST's temporary names (DST.XXXXXX, DST.ccXXXXXX) fit: 0, or -1 (reported) */
static int cc_name_fits(const char *dst, const struct cc_dst *d)
{
	if (strlen(d->path) + 16 > CC_TMP_NAME_MAX) {
		fprintf(stderr, "copychain: %s: %s\n", dst,
			strerror(ENAMETOOLONG));
		return -1;
	}
	return 0;
}

/*
 * SRC (regular, or a fifo or device read to its end) and DST (a file or
 * nothing) agree: 0; 1 to skip the file (-n, -u, -i said so); -1 refused
 * (reported)
 */
static int check_paths(struct cc_engine *e, const struct cc_opts *o,
		       struct cc_job *j)
{
	const char *src = j->item->src, *dst = j->item->dst;
	struct stat dir_st;
	int err;

	/*
	 * The plan stat()ed SRC, reported what it could not and kept
	 * directories out
	 */
	j->src_st = j->item->st;
	/* a socket too: its open fails with ENXIO, in cp's words */
	j->stream = !S_ISREG(j->src_st.st_mode);
	if (cc_dst_check(src, &j->src_st, dst, &j->d))
		return -1;
	err = cc_dst_policy(o, &j->src_st, dst, &j->d, stdin);
	if (err)
		return err;
	cc_dir_of(j->d.path, j->dir, sizeof(j->dir));
	/* files of one directory come one after the other: stat it once */
	if (!strcmp(j->dir, e->dir_ok))
		return cc_name_fits(dst, &j->d);
	err = stat(j->dir, &dir_st) ? errno :
	      S_ISDIR(dir_st.st_mode) ? 0 : ENOTDIR;
	if (!err)
		snprintf(e->dir_ok, sizeof(e->dir_ok), "%s", j->dir);
	if (err) {
		fprintf(stderr,
			"copychain: cannot create regular file '%s': %s\n",
			dst, strerror(err));
		return -1;
	}
	return cc_name_fits(dst, &j->d);
}

/*
 * The data extents of a sparse SRC (SEEK_DATA, SEEK_HOLE), into the
 * file's state: the last one runs to end of file, unless SRC ends in a
 * hole (then j->hole_end is its size, which the commit truncates to).
 * More than CC_MAX_EXT extents: the last slot runs to EOF, holes and all.
 */
static void plan_extents(struct cc_job *j, struct copychain_file *f)
{
	uint64_t size = (uint64_t)j->src_st.st_size, off = 0;
	off_t d, h;
	int fd;

	f->nr_ext = 1;
	f->ext[0].start = 0;
	f->ext[0].end = CC_TO_EOF;
	j->hole_end = 0;
	/* like cp: only a file with fewer blocks than bytes has holes */
	if (j->stream || (uint64_t)j->src_st.st_blocks * 512 >= size)
		return;
	fd = open(j->item->src, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;	/* the coroutine's openat will say why */
	f->nr_ext = 0;
	while (f->nr_ext < CC_MAX_EXT) {
		struct copychain_ext *x = &f->ext[f->nr_ext];

		d = lseek(fd, (off_t)off, SEEK_DATA);
		if (d < 0) {
			/* ENXIO: only a hole is left; else no SEEK_DATA */
			if (errno == ENXIO && off < size)
				j->hole_end = size;
			else if (errno != ENXIO)
				*x = (struct copychain_ext){ off, CC_TO_EOF },
				f->nr_ext++;
			break;
		}
		h = lseek(fd, d, SEEK_HOLE);
		x->start = (uint64_t)d;
		f->nr_ext++;
		if (h < 0 || (uint64_t)h >= size || f->nr_ext == CC_MAX_EXT) {
			x->end = CC_TO_EOF;
			break;
		}
		x->end = (uint64_t)h;
		off = (uint64_t)h;
	}
	close(fd);
	if (!f->nr_ext)
		j->hole_end = size;	/* all hole */
}

/* chunks of @f's extents for SRC of @size bytes, lane @d of @depth */
static uint64_t lane_chunks(const struct copychain_file *f, uint64_t size,
			    uint32_t chunk, uint32_t depth)
{
	uint64_t n = 0, end, c;
	uint32_t i;

	for (i = 0; i < f->nr_ext; i++) {
		end = f->ext[i].end == CC_TO_EOF ? size : f->ext[i].end;
		c = end > f->ext[i].start ?
		    (end - f->ext[i].start + chunk - 1) / chunk : 0;
		n += (c + depth - 1) / depth;
	}
	return n;
}

/*
 * The chunk, lanes and step budget for the copy: 2 steps a chunk, a few
 * more a lane; a file that needs more than the kernel allows gets bigger
 * chunks (up to the buffer's share of a lane, o->chunk).
 */
static int plan_copy(const struct cc_opts *o, struct cc_job *j,
		     struct copychain_file *f)
{
	uint64_t size = (uint64_t)j->src_st.st_size, n, steps, chunks;
	uint32_t c = o->chunk, depth;

	/* a stream's size is unknown: one lane, as many steps as allowed */
	if (j->stream) {
		f->chunk = c;
		f->depth = 1;
		j->budget = IOCORO_MAX_BUDGET;
		return 0;
	}
	chunks = (size + c - 1) / c;
	depth = chunks < o->depth ? (chunks ? (uint32_t)chunks : 1) : o->depth;
	if (f->nr_ext > 1)
		depth = o->depth;
	/*
	 * The lanes share o->depth * o->chunk bytes: a bigger chunk takes
	 * fewer lanes
	 */
	for (;;) {
		n = lane_chunks(f, size, c, depth);
		steps = 8 + depth * (2 * n + CC_LANE_SLACK + n / 64);
		if (steps <= IOCORO_MAX_BUDGET)
			break;
		if (depth == 1 &&
		    (uint64_t)c * 2 > (uint64_t)o->chunk * o->depth) {
			fprintf(stderr,
				"copychain: %s: too large: %" PRIu64 " bytes need more than %u steps even in chunks of %u bytes\n",
				j->item->src, size, IOCORO_MAX_BUDGET,
				c);
			return -1;
		}
		if (depth > 1)
			depth /= 2;
		c *= 2;
	}
	if (c != o->chunk)
		fprintf(stderr,
			"copychain: note: chunk grown from %u to %u bytes: a copy may take at most %u steps\n",
			o->chunk, c, IOCORO_MAX_BUDGET);
	f->chunk = c;
	f->depth = depth;
	j->budget = (unsigned int)steps;
	return 0;
}

/* the file's state for its coroutine, from the job's plan */
static void fill_file(struct cc_engine *e, unsigned int slot,
		      struct copychain_file *f, const struct cc_opts *o)
{
	struct cc_job *j = &e->jobs[slot];

	f->step = CC_START;
	f->file_prog = e->file_kind;
	f->lane_prog = e->lane_kind;
	f->job = slot;
	f->src_path = (uintptr_t)j->item->src;
	if (j->named) {
		f->dst_path = (uintptr_t)cc_tmp_name(slot);
		f->dst_flags = O_WRONLY | O_CLOEXEC;
	} else {
		f->dst_path = (uintptr_t)j->dir;
		f->dst_flags = O_TMPFILE | O_WRONLY | O_CLOEXEC;
	}
	f->src_fd = -1;
	f->dst_fd = -1;
	f->sync = (uint32_t)o->sync;
	f->buf = (uintptr_t)e->buf + (uint64_t)slot * o->depth * o->chunk;
}

/* the lanes of job @slot on their first chunks (want 0: none) */
static void place_lanes(struct cc_engine *e, unsigned int slot)
{
	const struct copychain_file *f = &e->files[slot];
	struct copychain_lane *l = &e->lanes[slot * CC_MAX_DEPTH];
	uint32_t k;

	/*
	 * Only lanes below the depth: no one reads the others (the fork
	 * stops at the depth, the counts too)
	 */
	for (k = 0; k < f->depth && k < CC_MAX_DEPTH; k++) {
		memset(&l[k], 0, sizeof(l[k]));
		l[k].job = slot;
		l[k].k = k;
		if (f->nr_ext) {
			l[k].off = f->ext[0].start + (uint64_t)k * f->chunk;
			cc_place(f, &l[k]);
		}
	}
}

/*
 * Can job @slot start with its openat(SRC), which then carries the file
 * step (kind 0), in a coroutine of the kernel's default budget? Only if
 * that covers the copy's, and SRC has a size: a file that says it is
 * empty may be one longer than its size (procfs), whose copy keeps the
 * plan's few steps past EOF to end it if it goes on.
 */
static bool first_op(const struct cc_engine *e, const struct cc_job *j)
{
	return e->file_kind == 0 && !j->stream && j->src_st.st_size > 0 &&
	       j->budget <= IOCORO_DEFAULT_BUDGET;
}

/*
 * Queue the start of job @slot's file coroutine, with the copy's step
 * budget (its lanes draw from it too): its openat(SRC), carrying the file
 * step, where first_op() allows (no IORING_OP_BPF, one step run less);
 * else an IORING_OP_BPF that asks for the budget, whose step queues the
 * openat.
 */
static int submit_job(struct cc_engine *e, unsigned int slot)
{
	struct copychain_file *f = &e->files[slot];
	struct io_uring_sqe *sqe;

	if (first_op(e, &e->jobs[slot])) {
		sqe = io_uring_get_sqe(&e->co.ring);
		if (!sqe)
			return -EBUSY;
		f->step = CC_SRC_OPEN;
		io_uring_prep_openat(sqe, AT_FDCWD,
				     (const char *)(uintptr_t)f->src_path,
				     O_RDONLY | O_CLOEXEC, 0);
		iocoro_sqe_set_first(sqe, slot);
	} else {
		sqe = iocoro_queue_start(&e->co, e->file_kind, slot);
		if (!sqe)
			return -EBUSY;
		sqe->len = e->jobs[slot].budget;
	}
	e->jobs[slot].start_ns = tool_now_ns();
	return 0;
}

/*
 * Plan job @slot for @item and queue its start: 0; 1 if the file is
 * skipped (-n, -u, -i); -1 (reported)
 */
static int start_job(struct cc_engine *e, const struct cc_opts *o,
		     unsigned int slot, const struct cc_item *item)
{
	struct cc_job *j = &e->jobs[slot];
	struct copychain_file f = { 0 };
	int ret;

	/*
	 * Not a memset(): the job is 8 KiB of names that check_paths()
	 * writes before they are read; the rest starts at 0
	 */
	j->item = item;
	j->named = 0;
	j->stream = 0;
	j->hole_end = 0;
	j->budget = 0;
	j->start_ns = 0;
	ret = check_paths(e, o, j);
	if (ret)
		return ret;
	plan_extents(j, &f);
	if (plan_copy(o, j, &f))
		return -1;
	/* loaded for the first file that gets this far, once */
	if (!e->ready && engine_get(e, o))
		return -1;
	if (o->no_tmpfile) {
		if (cc_make_named(j->d.path, slot))
			return -1;
		j->named = 1;
	}
	fill_file(e, slot, &f, o);
	e->files[slot] = f;
	place_lanes(e, slot);
	return submit_job(e, slot);
}

/* ---- one file: its end ---- */

/* written (and with --sync, fsynced): the temporary file becomes DST */
static int name_copy(struct cc_job *j, unsigned int slot, int fd)
{
	int err;

	if (j->named) {
		err = rename(cc_tmp_name(slot), j->d.path) ? -errno : 0;
		if (!err)
			cc_tmp_forget(slot);
		return err;
	}
	/* a new DST gets the name at once; an existing one, a rename */
	err = cc_link_fd(fd, j->d.path);
	if (err == -EEXIST)
		err = cc_link_replace(fd, j->d.path);
	return err;
}

/* the copy's size (a trailing hole), mode, owner, times, then its name */
static int commit_job(struct cc_engine *e, const struct cc_opts *o,
		      unsigned int slot, int fd)
{
	struct cc_job *j = &e->jobs[slot];
	const char *what = "naming the copy";
	int err = 0;

	if (j->hole_end && (ftruncate(fd, (off_t)j->hole_end) ||
			    (o->sync && fsync(fd)))) {
		fprintf(stderr, "copychain: error writing '%s': %s\n",
			j->item->dst, strerror(errno));
		return -1;
	}
	err = cc_set_attrs(o, &j->src_st, &j->d, fd);
	if (err)
		what = "setting the mode";
	else
		err = name_copy(j, slot, fd);
	if (err) {
		fprintf(stderr, "copychain: '%s' -> '%s': %s (%s)\n",
			j->item->src, j->item->dst, strerror(-err), what);
		return -1;
	}
	if (o->sync)
		cc_dirs_add(&e->synced, j->dir);
	return 0;
}

/* the coroutines' counts of job @slot into the stats */
static void count_job(struct cc_engine *e, unsigned int slot,
		      uint64_t *copied)
{
	const struct copychain_file *f = &e->files[slot];
	const struct copychain_lane *l = &e->lanes[slot * CC_MAX_DEPTH];
	uint32_t k;

	*copied = 0;
	if (f->end_ns > e->jobs[slot].start_ns)
		e->stats.busy_ns += f->end_ns - e->jobs[slot].start_ns;
	e->stats.steps += f->steps;
	for (k = 0; k < f->depth && k < CC_MAX_DEPTH; k++) {
		e->stats.steps += l[k].steps;
		e->stats.short_writes += l[k].short_writes;
		e->stats.short_reads += l[k].short_reads;
		*copied += l[k].copied;
	}
}

/* the copy of job @slot failed with @err: say so in cp's words */
static void report_fail(struct cc_engine *e, unsigned int slot, int err,
			uint64_t copied)
{
	const struct copychain_file *f = &e->files[slot];
	const char *src = e->jobs[slot].item->src, *dst = e->jobs[slot].item->dst;
	const char *why = strerror(-err);

	switch (err == (int)f->error ? f->failed_op : CC_OP_QUEUE) {
	case CC_OP_OPEN_SRC:
		fprintf(stderr, "copychain: cannot open '%s' for reading: %s\n",
			src, why);
		break;
	case CC_OP_OPEN_DST:
		fprintf(stderr,
			"copychain: cannot create regular file '%s': %s\n", dst,
			why);
		break;
	case CC_OP_READ:
		fprintf(stderr, "copychain: error reading '%s': %s\n", src, why);
		break;
	case CC_OP_WRITE:
	case CC_OP_FSYNC:
		fprintf(stderr, "copychain: error writing '%s': %s\n", dst, why);
		break;
	case CC_OP_CLOSE:
		fprintf(stderr, "copychain: failed to close '%s': %s\n", src,
			why);
		break;
	default:
		/* the kernel ended a step: -ELOOP, -ECANCELED, ... */
		fprintf(stderr, "copychain: '%s' -> '%s': %s (after %" PRIu64
			" bytes%s)\n", src, dst, iocoro_strerror(err), copied,
			err != -ELOOP ? "" : e->jobs[slot].stream ?
			"; a stream longer than the steps a copy may take" :
			"; SRC is longer than its size said");
	}
}

/* O_TMPFILE is not supported there: start again with a named file */
static int retry_named(struct cc_engine *e, const struct cc_opts *o,
		       unsigned int slot)
{
	struct cc_job *j = &e->jobs[slot];
	struct copychain_file f = e->files[slot];

	if (cc_make_named(j->d.path, slot))
		return -1;
	j->named = 1;
	memset(&f.active, 0, sizeof(f) - offsetof(struct copychain_file, active));
	fill_file(e, slot, &f, o);
	e->files[slot] = f;
	place_lanes(e, slot);
	return submit_job(e, slot);
}

/*
 * Job @slot's coroutine ended with @err (0: copied, its fds: SRC closed,
 * the copy open). Returns 1 if the job goes on (retried), 0 when done.
 */
static int end_job(struct cc_engine *e, const struct cc_opts *o,
		   unsigned int slot, int err, int *rc)
{
	struct copychain_file *f = &e->files[slot];
	struct cc_job *j = &e->jobs[slot];
	uint64_t copied;
	int fd = f->dst_fd;

	if (f->src_fd >= 0)	/* left open when the kernel ended a step */
		close(f->src_fd);
	f->src_fd = -1;
	if (err && fd >= 0)
		close(fd);
	if (err)
		fd = -1;
	/* EISDIR: kernels older than O_TMPFILE take it for O_DIRECTORY */
	if ((err == -EOPNOTSUPP || err == -EISDIR) &&
	    f->failed_op == CC_OP_OPEN_DST &&
	    !j->named && !retry_named(e, o, slot))
		return 1;
	count_job(e, slot, &copied);
	if (err) {
		report_fail(e, slot, err, copied);
	} else if (!commit_job(e, o, slot, fd)) {
		e->stats.files++;
		e->stats.bytes += copied;
		if (o->verbose)
			printf("'%s' -> '%s'\n", j->item->src, j->item->dst);
	} else {
		err = -1;
	}
	if (fd >= 0)
		close(fd);
	cc_drop_tmp(slot);
	if (err)
		*rc = 1;
	return 0;
}

/* ---- the loop: CQEs in, jobs out ---- */

/*
 * The kernel ended a step of lane @id (-ELOOP, ...): the lane left
 * without joining. Join in its place; 1 if that ended the copy.
 */
static int lane_failed(struct cc_engine *e, uint32_t id, int res,
		       unsigned int *slot)
{
	struct copychain_lane *l = &e->lanes[id];
	struct copychain_file *f;

	*slot = id / CC_MAX_DEPTH;
	f = &e->files[*slot];
	if (l->joined)		/* the last lane, in the wrapup */
		return 1;
	l->joined = 1;
	if (!__sync_val_compare_and_swap(&f->error, 0, (int64_t)res))
		f->failed_op = CC_OP_QUEUE;
	return __atomic_fetch_sub(&f->active, 1, __ATOMIC_SEQ_CST) == 1;
}

/* a coroutine ended: 1 and the job's @slot and @err if a copy ended */
static int copy_ended(struct cc_engine *e, const struct iocoro_done *done,
		      unsigned int *slot, int *err)
{
	/* an operation whose step did not run: the copy cannot go on */
	int res = done->how == IOCORO_ORPHANED ? -ECANCELED : done->res;

	if (done->kind == e->lane_kind) {
		if (!lane_failed(e, done->id, res, slot))
			return 0;
		*err = e->files[*slot].error ? (int)e->files[*slot].error : res;
		return 1;
	}
	*slot = done->id;
	*err = done->how == IOCORO_FINISHED ? res :
	       e->files[*slot].error ? (int)e->files[*slot].error : res;
	return 1;
}

/* the progress line: on a terminal, for copies longer than a second */
static void show_progress(struct cc_engine *e, const struct cc_opts *o,
			  int last)
{
	double t = now() - e->t0;
	uint64_t bytes = e->stats.bytes;
	size_t i;

	if (last) {
		if (e->progress_shown)
			fputs("\r\033[K", stderr);
		return;
	}
	if (t < 1.0)
		return;
	for (i = 0; i < (size_t)o->jobs * CC_MAX_DEPTH; i++)
		if (e->jobs[i / CC_MAX_DEPTH].item &&
		    i % CC_MAX_DEPTH < e->files[i / CC_MAX_DEPTH].lanes)
			bytes += e->lanes[i].copied;
	fprintf(stderr, "\rcopychain: %" PRIu64 " files, %.1f MB, %.1f MB/s, %.0f s\033[K",
		e->stats.files, (double)bytes / 1e6, (double)bytes / 1e6 / t, t);
	e->progress_shown = 1;
}

/* arm the progress line's timeout: a CQE every half second */
static void arm_tick(struct cc_engine *e)
{
	static struct __kernel_timespec ts = { .tv_nsec = 500000000 };
	struct io_uring_sqe *sqe;

	if (e->tick)
		return;
	sqe = io_uring_get_sqe(&e->co.ring);
	if (!sqe)
		return;
	io_uring_prep_timeout(sqe, &ts, 0, 0);
	io_uring_sqe_set_data64(sqe, CC_UD_TICK);
	e->tick = 1;
}

/* the progress line's timeout fired (no other CQE is copychain's own) */
static int on_cqe(struct iocoro *co, const struct io_uring_cqe *cqe,
		  void *arg)
{
	struct cc_engine *e = arg;

	(void)co;
	if (cqe->user_data == CC_UD_TICK) {
		e->tick = 0;
		show_progress(e, e->o, 0);
	}
	return 0;
}

/* a coroutine ended: a copy's end frees its slot, unless retried */
static int on_done(struct iocoro *co, const struct iocoro_done *done,
		   void *arg)
{
	struct cc_engine *e = arg;
	unsigned int slot;
	int err;

	(void)co;
	if (!copy_ended(e, done, &slot, &err) ||
	    end_job(e, e->o, slot, err, &e->rc))
		return 0;
	e->jobs[slot].item = NULL;
	iocoro_window_put(&e->window, slot);
	return 0;
}

/* start the items of @plan from *@next while slots are free */
static void start_jobs(struct cc_engine *e, const struct cc_plan *plan,
		       size_t *next)
{
	int slot, ret;

	while (*next < plan->n && e->ready >= 0) {
		slot = iocoro_window_get(&e->window);
		if (slot < 0)
			return;
		ret = start_job(e, e->o, (unsigned int)slot,
				&plan->items[(*next)++]);
		if (!ret)
			continue;
		iocoro_window_put(&e->window, (unsigned int)slot);
		e->jobs[slot].item = NULL;
		cc_drop_tmp(slot);
		if (ret < 0)
			e->rc = 1;
	}
}

/* copy every item of @plan, o->jobs at a time; the exit status */
static int run(struct cc_engine *e, const struct cc_opts *o,
	       const struct cc_plan *plan)
{
	const struct iocoro_handlers h = {
		.done = on_done, .cqe = on_cqe, .arg = e,
	};
	size_t next = 0;
	int ret;

	e->o = o;
	e->jobs = calloc(o->jobs, sizeof(*e->jobs));
	ret = e->jobs ? iocoro_window_init(&e->window, o->jobs) : -ENOMEM;
	if (ret < 0) {
		fprintf(stderr, "copychain: %s\n", strerror(-ret));
		return 1;
	}
	for (;;) {
		start_jobs(e, plan, &next);
		if (!iocoro_window_in_flight(&e->window))
			break;
		if (o->progress)
			arm_tick(e);
		/* one io_uring_enter(): submit what is queued, wait, reap */
		ret = iocoro_submit_and_reap(&e->co, 1, &h);
		e->stats.enters++;
		if (ret < 0) {
			fprintf(stderr, "copychain: %s\n", iocoro_strerror(ret));
			return 1;
		}
	}
	show_progress(e, o, 1);
	return e->rc;
}

static void print_stats(const struct cc_engine *e, const struct cc_opts *o,
			double secs)
{
	const struct cc_stats *s = &e->stats;
	const struct cc_load_times *l = &e->load;

	printf("copychain: %" PRIu64 " file%s, %" PRIu64 " bytes in %.3f s (%.1f MB/s), %" PRIu64
	       " steps, %" PRIu64 " io_uring_enter calls, %" PRIu64 " short writes\n",
	       s->files, s->files == 1 ? "" : "s", s->bytes, secs,
	       secs > 0 ? (double)s->bytes / 1e6 / secs : 0.0, s->steps,
	       s->enters, s->short_writes);
	/* each file from its start's submit to its coroutine's end */
	if (secs > 0)
		printf("copychain: mean %.1f files in flight (at most %u)\n",
		       (double)s->busy_ns / 1e9 / secs, o->jobs);
	if (e->ready > 0)
		printf("copychain: loading took %.3f s: ring %.3f, open %.3f, verify and load %.3f, attach %.3f, maps %.3f; %u instructions verified\n",
		       l->all, l->ring, l->open, l->load, l->attach, l->maps,
		       l->verified_insns);
}

int main(int argc, char **argv)
{
	struct cc_opts o = { 0 };
	struct cc_engine e = { 0 };
	struct cc_plan plan = { 0 };
	int n, rc;

	n = cc_parse_args(argc, argv, &o);
	if (n < 0)
		return 1;
	if (o.help || o.version) {
		if (o.help)
			cc_usage(stdout);
		else
			printf("copychain (iocoro) %s\n", CC_VERSION);
		return 0;
	}
	if (cc_check_operands(&o, n, argv))
		return 1;
	rc = cc_make_plan(&o, n, argv, &plan);
	if (rc < 0) {
		cc_plan_free(&plan);
		return 1;
	}
	if (plan.n && run(&e, &o, &plan))
		rc = 1;
	if (cc_finish_dirs(&o, &plan, &e.synced))
		rc = 1;
	if (o.stats)
		print_stats(&e, &o, e.t0 ? now() - e.t0 : 0.0);
	engine_exit(&e);
	cc_plan_free(&plan);
	return rc;
}
