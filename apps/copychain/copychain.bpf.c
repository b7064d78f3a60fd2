// SPDX-License-Identifier: GPL-2.0
/*
 * copychain's coroutines: a file coroutine opens SRC and an O_TMPFILE in
 * DST's directory, forks D lanes that copy interleaved chunks through
 * their own buffers, and the last lane to end closes SRC (after an fsync
 * of the copy with --sync) as the file coroutine (copychain.h has the
 * picture). Every open, read, write, fsync and close is queued here from
 * the result of the one before.
 *
 * Both coroutines are steps of struct io_coro_ops (IOCORO_COROUTINE()):
 * libiocoro attaches each to the ring as a coroutine kind, and
 * copychain.c finds their kinds with iocoro_prog_index() and hands them
 * over in the file's state (file_prog, lane_prog). The file coroutine
 * comes first, as kind 0: copychain.c submits a copy's openat(SRC) itself,
 * carrying the file step (iocoro_sqe_set_first()), when the kernel's
 * default budget covers the copy.
 */
#include <iocoro/bpf.h>
#include <linux/fcntl.h>

#include "copychain.h"

/* the files being copied, one slot a job (max_entries set at load) */
IOCORO_STATES(cc_files, struct copychain_file, 1);

/* their lanes: slot job * CC_MAX_DEPTH + k (max_entries set at load) */
IOCORO_STATES(cc_lanes, struct copychain_lane, CC_MAX_DEPTH);

/* the file coroutine ends with @res; user space times the copy with it */
static __always_inline int cc_finish(iocoro_ctx_t *ctx,
				     struct copychain_file *f, __s32 res)
{
	f->end_ns = bpf_ktime_get_ns();
	return iocoro_finish(ctx, res);
}

/* the file coroutine continues at @next after @sqe */
static __always_inline int cc_file_then(iocoro_ctx_t *ctx,
					struct copychain_file *f,
					struct io_uring_sqe *sqe, __u32 next)
{
	return iocoro_then_as(ctx, sqe, &f->step, next, f->file_prog, f->job);
}

/* record the first error of the copy: @op gave @res */
static __always_inline void cc_error(struct copychain_file *f, __u32 op,
				     __s32 res, __u64 off)
{
	if (__sync_val_compare_and_swap(&f->error, 0, (__s64)res) == 0) {
		f->failed_op = op;
		f->fail_off = off;
	}
}

/* after a failure: close what is open, then finish with the error */
static __always_inline int cc_fail_close(iocoro_ctx_t *ctx,
					 struct copychain_file *f)
{
	struct io_uring_sqe sqe;
	__s32 fd;

	if (f->src_fd >= 0) {
		fd = f->src_fd;
		f->src_fd = -1;		/* closed, whatever close says */
		io_uring_prep_close(&sqe, fd);
		return cc_file_then(ctx, f, &sqe, CC_FAIL_CLOSED);
	}
	if (f->dst_fd >= 0) {
		fd = f->dst_fd;
		f->dst_fd = -1;
		io_uring_prep_close(&sqe, fd);
		return cc_file_then(ctx, f, &sqe, CC_FAIL_DONE);
	}
	return cc_finish(ctx, f, (__s32)f->error);
}

/* the copy is written (and with --sync, fsynced): close SRC */
static __always_inline int cc_close_src(iocoro_ctx_t *ctx,
					struct copychain_file *f)
{
	struct io_uring_sqe sqe;
	__s32 fd = f->src_fd;

	f->src_fd = -1;
	io_uring_prep_close(&sqe, fd);
	return cc_file_then(ctx, f, &sqe, CC_CLOSE_DONE);
}

/*
 * All lanes have ended: close SRC, after an fsync of the copy with
 * --sync; or clean up after an error
 */
static __always_inline int cc_wrapup(iocoro_ctx_t *ctx,
				     struct copychain_file *f)
{
	struct io_uring_sqe sqe;

	if (f->error)
		return cc_fail_close(ctx, f);
	if (!f->sync)
		return cc_close_src(ctx, f);
	io_uring_prep_fsync(&sqe, f->dst_fd, 0);
	return cc_file_then(ctx, f, &sqe, CC_FSYNC_DONE);
}

/* a lane leaves the copy; the last one to leave wraps it up */
static __always_inline int cc_join(iocoro_ctx_t *ctx,
				   struct copychain_file *f,
				   struct copychain_lane *l)
{
	l->joined = 1;
	if (__sync_fetch_and_add(&f->active, -1) != 1)
		return iocoro_leave(ctx);	/* others still run */
	return cc_wrapup(ctx, f);
}

/* lane @l's buffer */
static __always_inline __u64 cc_buf(const struct copychain_file *f,
				    const struct copychain_lane *l)
{
	return f->buf + (__u64)l->k * f->chunk;
}

/* read what is left of the lane's chunk */
static __always_inline int cc_read(iocoro_ctx_t *ctx,
				   const struct copychain_file *f,
				   struct copychain_lane *l, __u32 id)
{
	struct io_uring_sqe sqe;

	io_uring_prep_read(&sqe, f->src_fd, (void *)(cc_buf(f, l) + l->pos),
			   l->want - l->pos, l->off + l->pos);
	l->step = CC_READ_DONE;
	return iocoro_await_as(ctx, &sqe, f->lane_prog, id);
}

/* write what is left of the last read */
static __always_inline int cc_write(iocoro_ctx_t *ctx,
				    const struct copychain_file *f,
				    struct copychain_lane *l, __u32 id)
{
	struct io_uring_sqe sqe;
	__u64 at = l->pos + l->done;

	io_uring_prep_write(&sqe, f->dst_fd, (void *)(cc_buf(f, l) + at),
			    l->len - l->done, l->off + at);
	l->step = CC_WRITE_DONE;
	return iocoro_await_as(ctx, &sqe, f->lane_prog, id);
}

/* what a lane does next: one place queues it (a smaller program) */
enum cc_lane_next { CC_DO_LEAVE, CC_DO_READ, CC_DO_WRITE };

/* the lane failed with @op's @res at @off: it leaves */
static __always_inline int cc_lane_fail(struct copychain_file *f, __u32 op,
					__s32 res, __u64 off)
{
	cc_error(f, op, res, off);
	return CC_DO_LEAVE;
}

/* the lane's chunk is read and written: on to the next or leave */
static __always_inline int cc_next_chunk(struct copychain_file *f,
					 struct copychain_lane *l)
{
	l->off += (__u64)f->depth * f->chunk;
	if (f->error || !cc_place(f, l))	/* another lane failed: stop */
		return CC_DO_LEAVE;
	return CC_DO_READ;
}

static __always_inline int cc_read_done(struct copychain_file *f,
					struct copychain_lane *l, __s32 res)
{
	if (res < 0)
		return cc_lane_fail(f, CC_OP_READ, res, l->off + l->pos);
	if (res == 0)			/* end of file */
		return CC_DO_LEAVE;
	if ((__u32)res > l->want - l->pos)
		return cc_lane_fail(f, CC_OP_BAD, -EIO, l->off);
	if (l->pos)
		l->short_reads++;	/* the rest of a short read came */
	l->len = (__u32)res;
	l->done = 0;
	return CC_DO_WRITE;
}

static __always_inline int cc_write_done(struct copychain_file *f,
					 struct copychain_lane *l, __s32 res)
{
	if (res < 0)
		return cc_lane_fail(f, CC_OP_WRITE, res,
				    l->off + l->pos + l->done);
	/* a write that makes no progress would loop: refuse it */
	if (res == 0 || (__u32)res > l->len - l->done)
		return cc_lane_fail(f, CC_OP_BAD, -EIO, l->off);
	l->done += (__u32)res;
	l->copied += (__u32)res;
	if (l->done < l->len) {		/* short write: the rest */
		l->short_writes++;
		return CC_DO_WRITE;
	}
	l->pos += l->len;
	if (l->pos < l->want)		/* short read: the rest, or EOF */
		return CC_DO_READ;
	return cc_next_chunk(f, l);
}

/* start lane @k of @f on the chunk user space placed it; 1 if queued */
static __always_inline int cc_fork_one(iocoro_ctx_t *ctx,
				       struct copychain_file *f, __u32 k)
{
	__u32 id = f->job * CC_MAX_DEPTH + k;
	struct copychain_lane *l = bpf_map_lookup_elem(&cc_lanes, &id);

	if (!l || !l->want)
		return 0;	/* no chunk for this lane */
	if (cc_read(ctx, f, l, id)) {
		cc_error(f, CC_OP_QUEUE, -EBUSY, l->off);
		return 0;
	}
	return 1;
}

/* what cc_fork()'s loop needs: bpf_loop() hands it to each pass */
struct cc_fork_loop {
	iocoro_ctx_t *ctx;
	struct copychain_file *f;
	__u32 n;		/* lanes started */
};

/* pass @k of cc_fork(): start lane @k; 1 ends the loop at the depth */
static long cc_fork_pass(__u64 k, void *data)
{
	struct cc_fork_loop *c = data;

	if (k >= c->f->depth)
		return 1;
	if (cc_fork_one(c->ctx, c->f, (__u32)k)) {
		c->n++;
		__sync_fetch_and_add(&c->f->active, 1);
	}
	return 0;
}

/*
 * Both files are open: start the lanes that have chunks to copy. One
 * pass a lane in bpf_loop(): the verifier checks the pass once, not
 * CC_MAX_DEPTH times unrolled.
 */
static __always_inline int cc_fork(iocoro_ctx_t *ctx,
				   struct copychain_file *f)
{
	struct cc_fork_loop c = { .ctx = ctx, .f = f };

	/* lanes cannot run before this run returns: count them after */
	f->active = 1;
	bpf_loop(CC_MAX_DEPTH, cc_fork_pass, &c, 0);
	f->lanes = c.n;
	/* drop the hold: 0 left if no lane started */
	if (__sync_fetch_and_add(&f->active, -1) != 1)
		return 0;
	return cc_wrapup(ctx, f);
}

IOCORO_COROUTINE(copychain, &cc_files, struct copychain_file)
{
	/* the result of the operation the previous step queued */
	__s32 res = iocoro_ctx_prev_res(ctx);
	struct io_uring_sqe sqe;
	__u32 op = CC_OP_BAD;

	st->steps++;
	switch (st->step) {
	case CC_START:
		io_uring_prep_openat(&sqe, AT_FDCWD, (void *)st->src_path,
				     O_RDONLY | O_CLOEXEC, 0);
		return cc_file_then(ctx, st, &sqe, CC_SRC_OPEN);
	case CC_SRC_OPEN:
		if (res < 0) {
			cc_error(st, CC_OP_OPEN_SRC, res, 0);
			return cc_finish(ctx, st, res);
		}
		st->src_fd = res;
		io_uring_prep_openat(&sqe, AT_FDCWD, (void *)st->dst_path,
				     (int)st->dst_flags, 0600);
		return cc_file_then(ctx, st, &sqe, CC_DST_OPEN);
	case CC_DST_OPEN:
		op = CC_OP_OPEN_DST;
		if (res < 0)
			break;
		st->dst_fd = res;
		return cc_fork(ctx, st);
	case CC_FSYNC_DONE:
		op = CC_OP_FSYNC;
		if (res < 0)
			break;
		return cc_close_src(ctx, st);
	case CC_CLOSE_DONE:
		op = CC_OP_CLOSE;
		if (res < 0)
			break;
		return cc_finish(ctx, st, 0);	/* dst_fd stays open */
	case CC_FAIL_CLOSED:
	case CC_FAIL_DONE:
		return cc_fail_close(ctx, st);
	default:
		res = -EINVAL;
	}
	cc_error(st, op, res, 0);
	return cc_fail_close(ctx, st);
}

/*
 * A lane: its state is slot job * CC_MAX_DEPTH + k of cc_lanes. After the
 * file coroutine, which is so kind 0, the one a first openat from user
 * space carries.
 */
IOCORO_COROUTINE(copychain_lane, &cc_lanes, struct copychain_lane)
{
	__s32 res = iocoro_ctx_prev_res(ctx);
	__u32 id = iocoro_id(ctx), job = st->job;
	struct copychain_file *f;
	int ret = 0;
	int next;

	f = bpf_map_lookup_elem(&cc_files, &job);
	if (!f)
		return iocoro_finish(ctx, -ENOENT);
	st->steps++;
	if (st->step == CC_READ_DONE)
		next = cc_read_done(f, st, res);
	else if (st->step == CC_WRITE_DONE)
		next = cc_write_done(f, st, res);
	else
		next = cc_lane_fail(f, CC_OP_BAD, -EINVAL, 0);
	if (next == CC_DO_READ)
		ret = cc_read(ctx, f, st, id);
	else if (next == CC_DO_WRITE)
		ret = cc_write(ctx, f, st, id);
	if (next != CC_DO_LEAVE && !ret)
		return 0;
	if (ret)	/* the next operation could not be queued */
		cc_error(f, CC_OP_QUEUE, (__s32)ret, st->off + st->pos);
	return cc_join(ctx, f, st);
}

char LICENSE[] SEC("license") = "GPL";
