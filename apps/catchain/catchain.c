// SPDX-License-Identifier: MIT
/*
 * catchain [OPTION]... [FILE]...: cat, with each file's openat, reads and
 * close run by one in-kernel coroutine (catchain.bpf.c), --jobs files in
 * flight at once on one ring. Each filled buffer comes back as a CQE;
 * user space writes the buffers of the first file not yet written out to
 * stdout (gathered into one writev() across files), keeps the others
 * until their file is first, and gives the buffers back to their
 * coroutine by counting them in its mapped state, waking it on an eventfd
 * when it waits (catchain.h has the protocol).
 * stdin (no FILE, or -) is copied in user space, when its turn comes.
 *
 * Errors as cat's: "catchain: FILE: No such file or directory", the other
 * files still printed, exit status 1. -c prints cksum's lines instead.
 */
#include <iocoro.h>

#include <bpf/libbpf.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "tool.h"
#include "catchain.h"
#include "catchain.skel.h"
#include "catchain_opts.h"
#include "cksum_crc.h"
#include "cat_write.h"

#define CATCHAIN_VERSION	"0.2"
/* user_data of the wake writes (their CQEs come only on failure) */
#define CAT_UD_CREDIT	(CAT_UD_MAGIC << 48 | 1ULL << 40)
#define CAT_IOV		1024

enum cat_file_state {
	CAT_F_WAITING,	/* not started */
	CAT_F_RUNNING,	/* its coroutine runs */
	CAT_F_ENDED,	/* its coroutine ended with res */
	CAT_F_STDIN,	/* "-": copied in user space when it is first */
};

struct cat_file {
	const char *name;
	int state;	/* enum cat_file_state */
	int slot;
	int res;	/* the end: 0 or -errno */
	uint32_t crc;	/* -c: the CRC of the data so far */
	uint64_t size;	/* bytes so far */
};

/* a coroutine slot: its buffers, the filled ones not written yet */
struct cat_slot {
	int file;		/* index of the file it runs; -1: idle */
	int credit_fd;
	uint32_t first;		/* next buffer to write out */
	uint32_t ready;		/* filled buffers from first on */
	uint32_t woken;		/* state.released at the last wake */
	uint32_t len[CAT_NBUFS];
	char *bufs;
	uint64_t scratch;	/* where the eventfd reads land */
};

struct cat_stats {
	uint64_t files;
	uint64_t bytes;
	uint64_t steps;
	uint64_t waits;		/* of the steps, wakes after a buffer wait */
	uint64_t enters;	/* io_uring_enter() calls made */
	uint64_t resumes;	/* coroutines that went on with a file */
};

struct cat_engine {
	struct iocoro co;
	struct catchain_bpf *skel;
	struct catchain_state *states;	/* cat_states, mapped */
	size_t states_size;
	unsigned int kind;		/* of the catchain step */
	int have_ring;
	struct iocoro_window window;	/* the idle slots */
	struct cat_file *files;		/* for the reap's handlers */
	char *mem;			/* all slots' buffers */
	size_t mem_size;
	struct cat_slot slots[CAT_MAX_JOBS];
	unsigned int nslots;
	struct cat_stats stats;
};

/* what is gathered for one writev(): buffers of the first files */
struct cat_batch {
	struct iovec iov[CAT_IOV];
	int iov_slot[CAT_IOV];
	int n;
};

/* what a wake writes to an eventfd: never freed or changed */
static const uint64_t wake_value = 1;

/* ---- setup ---- */

static int engine_load(struct cat_engine *e, unsigned int jobs)
{
	struct io_uring_params p = {
		.flags = IORING_SETUP_CQSIZE,
		.cq_entries = jobs * (CAT_NBUFS + 2) + 16,
	};
	int ret;

	ret = iocoro_queue_init_params(2 * jobs + 8, &e->co, &p);
	if (ret < 0)
		return ret;
	e->have_ring = 1;
	e->skel = catchain_bpf__open();
	if (!e->skel)
		return -errno;
	ret = iocoro_skel_load(&e->co, e->skel->skeleton, NULL);
	if (ret < 0)
		return ret;
	/* a file's openat carries the step of kind 0 */
	ret = iocoro_prog_index(e->skel->obj, e->skel->progs.catchain);
	if (ret != 0)
		return ret < 0 ? ret : -EINVAL;
	e->kind = 0;
	/* the RESUME starts: files far longer than the default budget */
	return iocoro_set_budget(&e->co, IOCORO_MAX_BUDGET);
}

/* the state map, mapped: slots are written without a system call */
_Static_assert(sizeof(struct catchain_state) % 8 == 0, "cat_states stride");

static int engine_map_states(struct cat_engine *e)
{
	return iocoro_map_mmap(e->skel->maps.cat_states, (void **)&e->states,
			       &e->states_size);
}

/* the slots: an eventfd to wait on and buffers each */
static int engine_slots(struct cat_engine *e, const struct cat_opts *o)
{
	size_t per = (size_t)CAT_NBUFS * o->chunk;
	unsigned int i;
	void *p;
	int ret;

	e->mem_size = per * o->jobs;
	p = mmap(NULL, e->mem_size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	e->mem = p;
	ret = iocoro_window_init(&e->window, o->jobs);
	if (ret < 0)
		return ret;
	for (i = 0; i < o->jobs; i++) {
		struct cat_slot *s = &e->slots[i];

		s->file = -1;
		s->bufs = e->mem + per * i;
		s->credit_fd = eventfd(0, EFD_CLOEXEC);
		if (s->credit_fd < 0)
			return -errno;
		e->nslots++;
	}
	return 0;
}

static int engine_init(struct cat_engine *e, const struct cat_opts *o)
{
	int ret;

	libbpf_set_print(NULL);
	ret = engine_load(e, o->jobs);
	if (ret < 0) {
		tool_report_load("catchain", ret);
		return ret;
	}
	ret = engine_map_states(e);
	if (!ret)
		ret = engine_slots(e, o);
	if (ret < 0)
		fprintf(stderr, "catchain: %s\n", strerror(-ret));
	return ret;
}

static void engine_exit(struct cat_engine *e)
{
	unsigned int i;

	for (i = 0; i < e->nslots; i++)
		close(e->slots[i].credit_fd);
	if (e->mem)
		munmap(e->mem, e->mem_size);
	iocoro_map_munmap(e->states, e->states_size);
	catchain_bpf__destroy(e->skel);
	iocoro_window_exit(&e->window);
	if (e->have_ring)
		iocoro_queue_exit(&e->co);
}

/* ---- the ring ---- */

static struct io_uring_sqe *get_sqe(struct cat_engine *e)
{
	return io_uring_get_sqe(&e->co.ring);
}

/* start @f's coroutine on idle slot @slot */
static int start_file(struct cat_engine *e, struct cat_file *f, int idx,
		      int slot, uint32_t chunk)
{
	struct catchain_state *st = &e->states[slot];
	struct cat_slot *s = &e->slots[slot];
	struct io_uring_sqe *sqe = get_sqe(e);

	if (!sqe)
		return -EBUSY;
	memset(st, 0, sizeof(*st));
	st->step = CAT_OPEN_DONE;
	/* the default budget, less a few for the close and the end */
	st->steps_max = IOCORO_DEFAULT_BUDGET - 8;
	st->fd = -1;
	st->path = (uintptr_t)f->name;
	st->bufs = (uintptr_t)s->bufs;
	st->scratch = (uintptr_t)&s->scratch;
	st->credit_fd = s->credit_fd;
	st->chunk = chunk;
	s->file = idx;
	s->first = 0;
	s->ready = 0;
	s->woken = 0;
	f->slot = slot;
	f->state = CAT_F_RUNNING;
	io_uring_prep_openat(sqe, AT_FDCWD, f->name, O_RDONLY | O_CLOEXEC, 0);
	iocoro_sqe_set_first(sqe, (uint32_t)slot);
	return 0;
}

/*
 * Slot @slot's coroutine spent its budget with its file open: a new one,
 * of the largest budget, goes on at RESUME
 */
static int resume_file(struct cat_engine *e, uint32_t slot)
{
	if (!iocoro_queue_start(&e->co, e->kind, slot))
		return -EBUSY;
	e->states[slot].steps_max = 0;
	e->stats.resumes++;
	return 0;
}

/* start the files after *@next while slots are idle */
static int start_files(struct cat_engine *e, struct cat_file *files,
		       int nfiles, int *next, uint32_t chunk)
{
	int slot, ret;

	for (; *next < nfiles; (*next)++) {
		struct cat_file *f = &files[*next];

		if (f->state == CAT_F_STDIN)
			continue;
		slot = iocoro_window_get(&e->window);
		if (slot < 0)
			break;
		ret = start_file(e, f, *next, slot, chunk);
		if (ret < 0) {
			iocoro_window_put(&e->window, (uint32_t)slot);
			return ret;
		}
	}
	return 0;
}

/*
 * Wake the coroutines that wait for buffers written out since their last
 * wake. The counts (state.released) are stored already: the barrier
 * orders them before the look at state.waiting (catchain.h).
 */
static int wake_slots(struct cat_engine *e)
{
	struct io_uring_sqe *sqe;
	unsigned int i;

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (i = 0; i < e->nslots; i++) {
		struct catchain_state *st = &e->states[i];
		struct cat_slot *s = &e->slots[i];
		uint32_t released = __atomic_load_n(&st->released,
						     __ATOMIC_RELAXED);

		if (s->file < 0 || released == s->woken ||
		    !__atomic_load_n(&st->waiting, __ATOMIC_RELAXED))
			continue;
		sqe = get_sqe(e);
		if (!sqe)
			return -EBUSY;
		io_uring_prep_write(sqe, s->credit_fd, &wake_value,
				    sizeof(wake_value), 0);
		io_uring_sqe_set_data64(sqe, CAT_UD_CREDIT | i);
		io_uring_sqe_set_flags(sqe, IOSQE_CQE_SKIP_SUCCESS);
		s->woken = released;
	}
	return 0;
}

/* a CQE of the application's: a filled buffer (a failed wake: an error) */
static int on_cqe(struct iocoro *co, const struct io_uring_cqe *cqe, void *arg)
{
	struct cat_engine *e = arg;
	struct cat_slot *s;
	uint32_t slot;

	(void)co;
	if (!CAT_UD_IS_DATA(cqe->user_data))
		return -EIO;
	if (cqe->user_data & CAT_UD_CREDIT & ~(CAT_UD_MAGIC << 48))
		return cqe->res < 0 ? cqe->res : -EIO;
	slot = CAT_UD_SLOT(cqe->user_data);
	if (slot >= e->nslots || e->slots[slot].file < 0)
		return -EIO;
	s = &e->slots[slot];
	if (CAT_UD_BUF(cqe->user_data) != (s->first + s->ready) % CAT_NBUFS ||
	    s->ready == CAT_NBUFS)
		return -EIO;
	s->len[CAT_UD_BUF(cqe->user_data)] = (uint32_t)cqe->res;
	s->ready++;
	return 0;
}

/* a file's coroutine ended, or spent its budget and goes on at RESUME */
static int on_done(struct iocoro *co, const struct iocoro_done *done,
		   void *arg)
{
	struct cat_engine *e = arg;
	struct cat_file *f;

	(void)co;
	if (done->id >= e->nslots || e->slots[done->id].file < 0)
		return -EIO;
	if (done->how == IOCORO_FINISHED && done->res == CAT_MORE &&
	    e->states[done->id].step == CAT_RESUME)
		return resume_file(e, done->id);
	f = &e->files[e->slots[done->id].file];
	f->state = CAT_F_ENDED;
	/* an operation whose step did not run: the file cannot go on */
	f->res = done->how == IOCORO_ORPHANED ? -ECANCELED : done->res;
	e->stats.steps += e->states[done->id].steps;
	e->stats.waits += e->states[done->id].waits;
	return 0;
}

/* submit what is queued, wait for a CQE and reap: one io_uring_enter() */
static int submit_and_reap(struct cat_engine *e)
{
	const struct iocoro_handlers h = {
		.done = on_done, .cqe = on_cqe, .arg = e,
	};
	int ret = iocoro_submit_and_reap(&e->co, 1, &h);

	e->stats.enters++;
	return ret < 0 ? ret : 0;
}

/* ---- output ---- */

/* write the batch out and hand its buffers back to their slots */
static int flush_batch(struct cat_engine *e, struct cat_batch *b, int cksum)
{
	int i, ret = 0;

	if (!cksum)
		ret = cat_write_all(b->iov, b->n);
	/* the buffers are free: their coroutines may fill them again */
	for (i = 0; i < b->n; i++)
		__atomic_fetch_add(&e->states[b->iov_slot[i]].released, 1,
				   __ATOMIC_RELAXED);
	b->n = 0;
	return ret;
}

/* add slot @s's ready buffers (of @f) to the batch */
static int gather(struct cat_engine *e, struct cat_batch *b,
		  struct cat_file *f, int cksum)
{
	struct cat_slot *s = &e->slots[f->slot];
	int ret;

	while (s->ready) {
		char *buf = s->bufs + (size_t)s->first * e->states[f->slot].chunk;
		uint32_t len = s->len[s->first];

		if (b->n == CAT_IOV) {
			ret = flush_batch(e, b, cksum);
			if (ret < 0)
				return ret;
		}
		if (cksum)
			f->crc = cksum_update(f->crc, buf, len);
		b->iov[b->n].iov_base = buf;
		b->iov[b->n].iov_len = len;
		b->iov_slot[b->n++] = f->slot;
		f->size += len;
		e->stats.bytes += len;
		s->first = (s->first + 1) % CAT_NBUFS;
		s->ready--;
	}
	return 0;
}

/* stdin, in user space: to stdout, or into the CRC */
static int copy_stdin(struct cat_engine *e, struct cat_file *f, int cksum,
		      uint32_t chunk)
{
	char *buf = malloc(chunk);
	struct iovec iov;
	ssize_t n;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		n = read(STDIN_FILENO, buf, chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		f->size += (size_t)n;
		e->stats.bytes += (size_t)n;
		if (cksum) {
			f->crc = cksum_update(f->crc, buf, (size_t)n);
			continue;
		}
		iov.iov_base = buf;
		iov.iov_len = (size_t)n;
		ret = cat_write_all(&iov, 1);
		if (ret < 0)
			break;
	}
	if (n < 0)
		f->res = -errno;
	free(buf);
	return ret;
}

/* the file is done: cat's error line, or cksum's line; 1 if it failed */
static int report_file(struct cat_engine *e, const struct cat_file *f,
		       int cksum, int named)
{
	/* cksum (coreutils 9.1) sums a directory as an empty file */
	if (f->res < 0 && !(cksum && f->res == -EISDIR && !f->size)) {
		fprintf(stderr, "catchain: %s: %s\n", f->name,
			f->res == -ELOOP ? iocoro_strerror(f->res)
					 : strerror(-f->res));
		return 1;
	}
	e->stats.files++;
	if (cksum && named)
		printf("%" PRIu32 " %" PRIu64 " %s\n",
		       cksum_final(f->crc, f->size), f->size, f->name);
	else if (cksum)
		printf("%" PRIu32 " %" PRIu64 "\n",
		       cksum_final(f->crc, f->size), f->size);
	if (cksum)
		fflush(stdout);
	return 0;
}

struct cat_run {
	struct cat_file *files;
	int nfiles;
	int head;	/* the first file not written out */
	int next;	/* the next file to start */
	int failed;
	int named;	/* FILE operands given (cksum prints the names) */
	const struct cat_opts *o;
};

/*
 * Write out what can be: the ready buffers of the first files, up to one
 * that still runs; files that ended are reported and their slots idle.
 * Errors come after the output before them, as cat's.
 */
static int output(struct cat_engine *e, struct cat_run *r)
{
	static struct cat_batch b;
	int ret = 0;

	for (; r->head < r->nfiles; r->head++) {
		struct cat_file *f = &r->files[r->head];

		if (f->state == CAT_F_STDIN) {
			ret = flush_batch(e, &b, r->o->cksum);
			if (!ret)
				ret = copy_stdin(e, f, r->o->cksum, r->o->chunk);
			if (ret)
				return ret;
			r->failed |= report_file(e, f, r->o->cksum, r->named);
			continue;
		}
		if (f->state == CAT_F_WAITING)
			break;
		ret = gather(e, &b, f, r->o->cksum);
		if (ret < 0 || f->state != CAT_F_ENDED)
			break;
		if (f->res < 0 || r->o->cksum) {
			ret = flush_batch(e, &b, r->o->cksum);
			if (ret < 0)
				break;
		}
		r->failed |= report_file(e, f, r->o->cksum, r->named);
		e->slots[f->slot].file = -1;
		iocoro_window_put(&e->window, (uint32_t)f->slot);
	}
	if (!ret)
		ret = flush_batch(e, &b, r->o->cksum);
	return ret;
}

static int run(struct cat_engine *e, struct cat_run *r)
{
	int ret;

	for (;;) {
		ret = output(e, r);
		if (ret < 0) {
			fprintf(stderr, "catchain: write error: %s\n",
				strerror(-ret));
			return ret;
		}
		if (r->head == r->nfiles)
			return 0;
		ret = start_files(e, r->files, r->nfiles, &r->next, r->o->chunk);
		if (!ret)
			ret = wake_slots(e);
		if (!ret)
			ret = submit_and_reap(e);
		if (ret < 0) {
			fprintf(stderr, "catchain: %s\n", iocoro_strerror(ret));
			return ret;
		}
	}
}

/* ---- the command line ---- */

static void print_stats(const struct cat_stats *s)
{
	fprintf(stderr, "catchain: %" PRIu64 " file%s, %" PRIu64 " bytes, %" PRIu64
		" steps, %" PRIu64 " waits, %" PRIu64 " io_uring_enter calls, %"
		PRIu64 " resumes\n",
		s->files, s->files == 1 ? "" : "s", s->bytes, s->steps, s->waits,
		s->enters, s->resumes);
}

/* the operands as files; none: stdin */
static struct cat_file *make_files(int n, char **argv, int *nfiles)
{
	static char dash[] = "-";
	struct cat_file *files;
	int i;

	*nfiles = n ? n : 1;
	files = calloc((size_t)*nfiles, sizeof(*files));
	if (!files)
		return NULL;
	for (i = 0; i < *nfiles; i++) {
		files[i].name = n ? argv[i] : dash;
		files[i].slot = -1;
		if (!strcmp(files[i].name, "-"))
			files[i].state = CAT_F_STDIN;
	}
	return files;
}

static int any_file(const struct cat_file *files, int nfiles)
{
	int i;

	for (i = 0; i < nfiles; i++)
		if (files[i].state != CAT_F_STDIN)
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	struct cat_engine e = { 0 };
	struct cat_opts o;
	struct cat_run r = { 0 };
	int n, ret = 0;

	n = cat_parse_args(argc, argv, &o, stderr);
	if (n < 0)
		return 1;
	if (o.action == CAT_HELP) {
		cat_usage(stdout);
		return 0;
	}
	if (o.action == CAT_VERSION) {
		printf("catchain (iocoro) %s\n", CATCHAIN_VERSION);
		return 0;
	}
	r.files = make_files(n, argv, &r.nfiles);
	if (!r.files) {
		fprintf(stderr, "catchain: %s\n", strerror(ENOMEM));
		return 1;
	}
	r.named = n > 0;
	r.o = &o;
	e.files = r.files;
	if (any_file(r.files, r.nfiles))
		ret = engine_init(&e, &o);
	if (!ret)
		ret = run(&e, &r);
	if (o.stats)
		print_stats(&e.stats);
	engine_exit(&e);
	free(r.files);
	return ret < 0 || r.failed ? 1 : 0;
}
