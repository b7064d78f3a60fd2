// SPDX-License-Identifier: MIT
/*
 * bpf-lib's headers (bpf_prep.h, bpf_ctx.h, bpf_coro.h, coro_ops.h) built
 * for the host, with the kfuncs they call replaced by mocks (bpf_side.h).
 * Kept out of bpf_lib_test.c, which includes liburing, whose io_uring_prep_*
 * have the same names: that is the point of bpf_prep.h.
 */
#include <errno.h>
#include <string.h>

#include "bpf_side.h"

struct bpf_mock bm;

#include "bpf_side_mock.h"

/*
 * The kfuncs, with coro_ops.h's prototypes: each records what it was
 * asked and answers bm's canned result.
 */
static int mock_queue(struct io_coro_step *step, const void *sqe, __u32 sz,
		      int kind)
{
	unsigned int i = bm.nr_queued;

	bm.step = step;
	if (i >= 8)
		return -E2BIG;
	memcpy(&bm.queued[i], sqe, sizeof(bm.queued[i]));
	bm.queued_len[i] = sz;
	bm.queued_kind[i] = kind;
	bm.nr_queued++;
	return bm.queue_ret[i];
}

int bpf_io_coro_queue_sqe(struct io_coro_step *step, const void *sqe,
			  __u32 sqe__sz)
{
	return mock_queue(step, sqe, sqe__sz, -1);
}

int bpf_io_coro_queue_sqe_cont(struct io_coro_step *step, const void *sqe,
			       __u32 sqe__sz, __u32 kind)
{
	return mock_queue(step, sqe, sqe__sz, (int)kind);
}

int bpf_io_coro_emit_cqe(struct io_coro_step *step, __u64 user_data,
			 __s32 res, __u32 flags)
{
	bm.step = step;
	bm.nr_emitted++;
	bm.emit_user_data = user_data;
	bm.emit_res = res;
	bm.emit_flags = flags;
	return 0;
}

int bpf_io_coro_post_result(struct io_coro_step *step, __u64 user_data)
{
	bm.step = step;
	bm.nr_posted++;
	bm.post_user_data = user_data;
	return 0;
}

static void *bpf_map_lookup_elem(void *map, const void *key)
{
	(void)map;
	bm.nr_lookups++;
	memcpy(&bm.lookup_key, key, sizeof(bm.lookup_key));
	return bm.lookup_value;
}

#include <iocoro/bpf_prep.h>
#include <iocoro/bpf_ctx.h>
#include <iocoro/bpf_coro.h>

void bpf_side_prep_nop(struct io_uring_sqe *sqe)
{
	io_uring_prep_nop(sqe);
}

void bpf_side_prep_read(struct io_uring_sqe *sqe, int fd, void *buf,
			unsigned int nbytes, __u64 offset)
{
	io_uring_prep_read(sqe, fd, buf, nbytes, offset);
}

void bpf_side_prep_write(struct io_uring_sqe *sqe, int fd, const void *buf,
			 unsigned int nbytes, __u64 offset)
{
	io_uring_prep_write(sqe, fd, buf, nbytes, offset);
}

void bpf_side_prep_readv(struct io_uring_sqe *sqe, int fd, const void *iovecs,
			 unsigned int nr_vecs, __u64 offset)
{
	io_uring_prep_readv(sqe, fd, iovecs, nr_vecs, offset);
}

void bpf_side_prep_writev(struct io_uring_sqe *sqe, int fd, const void *iovecs,
			  unsigned int nr_vecs, __u64 offset)
{
	io_uring_prep_writev(sqe, fd, iovecs, nr_vecs, offset);
}

void bpf_side_prep_read_fixed(struct io_uring_sqe *sqe, int fd, void *buf,
			      unsigned int nbytes, __u64 offset, int buf_index)
{
	io_uring_prep_read_fixed(sqe, fd, buf, nbytes, offset, buf_index);
}

void bpf_side_prep_write_fixed(struct io_uring_sqe *sqe, int fd,
			       const void *buf, unsigned int nbytes,
			       __u64 offset, int buf_index)
{
	io_uring_prep_write_fixed(sqe, fd, buf, nbytes, offset, buf_index);
}

void bpf_side_prep_openat(struct io_uring_sqe *sqe, int dfd, const char *path,
			  int flags, unsigned int mode)
{
	io_uring_prep_openat(sqe, dfd, path, flags, mode);
}

void bpf_side_prep_close(struct io_uring_sqe *sqe, int fd)
{
	io_uring_prep_close(sqe, fd);
}

void bpf_side_prep_fsync(struct io_uring_sqe *sqe, int fd, unsigned int flags)
{
	io_uring_prep_fsync(sqe, fd, flags);
}

void bpf_side_prep_fallocate(struct io_uring_sqe *sqe, int fd, int mode,
			      __s64 offset, __s64 len)
{
	io_uring_prep_fallocate(sqe, fd, mode, offset, len);
}

void bpf_side_prep_splice(struct io_uring_sqe *sqe, int fd_in, __s64 off_in,
			  int fd_out, __s64 off_out, unsigned int nbytes,
			  unsigned int splice_flags)
{
	io_uring_prep_splice(sqe, fd_in, off_in, fd_out, off_out, nbytes,
			     splice_flags);
}

void bpf_side_prep_statx(struct io_uring_sqe *sqe, int dfd, const char *path,
			 int flags, unsigned int mask, void *statxbuf)
{
	io_uring_prep_statx(sqe, dfd, path, flags, mask, statxbuf);
}

void bpf_side_prep_renameat(struct io_uring_sqe *sqe, int olddfd,
			    const char *oldpath, int newdfd,
			    const char *newpath, unsigned int flags)
{
	io_uring_prep_renameat(sqe, olddfd, oldpath, newdfd, newpath, flags);
}

void bpf_side_prep_unlinkat(struct io_uring_sqe *sqe, int dfd,
			    const char *path, int flags)
{
	io_uring_prep_unlinkat(sqe, dfd, path, flags);
}

void bpf_side_prep_linkat(struct io_uring_sqe *sqe, int olddfd,
			  const char *oldpath, int newdfd, const char *newpath,
			  int flags)
{
	io_uring_prep_linkat(sqe, olddfd, oldpath, newdfd, newpath, flags);
}

void bpf_side_prep_mkdirat(struct io_uring_sqe *sqe, int dfd, const char *path,
			   unsigned int mode)
{
	io_uring_prep_mkdirat(sqe, dfd, path, mode);
}

void bpf_side_prep_send(struct io_uring_sqe *sqe, int sockfd, const void *buf,
			unsigned long len, int flags)
{
	io_uring_prep_send(sqe, sockfd, buf, len, flags);
}

void bpf_side_prep_recv(struct io_uring_sqe *sqe, int sockfd, void *buf,
			unsigned long len, int flags)
{
	io_uring_prep_recv(sqe, sockfd, buf, len, flags);
}

void bpf_side_prep_accept(struct io_uring_sqe *sqe, int fd, void *addr,
			  __u32 *addrlen, int flags)
{
	io_uring_prep_accept(sqe, fd, addr, addrlen, flags);
}

void bpf_side_prep_connect(struct io_uring_sqe *sqe, int fd, const void *addr,
			   __u32 addrlen)
{
	io_uring_prep_connect(sqe, fd, addr, addrlen);
}

void bpf_side_prep_timeout(struct io_uring_sqe *sqe, void *ts,
			   unsigned int count, unsigned int flags)
{
	io_uring_prep_timeout(sqe, ts, count, flags);
}

void bpf_side_prep_timeout_remove(struct io_uring_sqe *sqe, __u64 user_data,
				  unsigned int flags)
{
	io_uring_prep_timeout_remove(sqe, user_data, flags);
}

void bpf_side_prep_link_timeout(struct io_uring_sqe *sqe, void *ts,
				unsigned int flags)
{
	io_uring_prep_link_timeout(sqe, ts, flags);
}

void bpf_side_prep_cancel64(struct io_uring_sqe *sqe, __u64 user_data,
			    int flags)
{
	io_uring_prep_cancel64(sqe, user_data, flags);
}

void bpf_side_prep_cancel_fd(struct io_uring_sqe *sqe, int fd,
			     unsigned int flags)
{
	io_uring_prep_cancel_fd(sqe, fd, flags);
}

void bpf_side_prep_kind(struct io_uring_sqe *sqe, unsigned int kind)
{
	iocoro_prep_kind(sqe, kind);
}

/* bpf_side_@name(ctx): bpf-lib's iocoro_@name(ctx), which returns @type */
#define SIDE_CTX(type, name)                                            \
	type bpf_side_##name(const struct io_coro_step *ctx)            \
	{                                                               \
		return iocoro_##name(ctx);                              \
	}

SIDE_CTX(__u64, ctx_user_data)
SIDE_CTX(int, ctx_has_prev)
SIDE_CTX(__s32, ctx_prev_res)
SIDE_CTX(__u32, ctx_prev_flags)
SIDE_CTX(__u64, ctx_prev_user_data)
SIDE_CTX(__u32, id)

__u32 bpf_side_self(const struct io_coro_step *ctx)
{
	return iocoro_step_kind(ctx);
}

long bpf_side_await(struct io_coro_step *ctx, struct io_uring_sqe *sqe)
{
	return iocoro_await(ctx, sqe);
}

long bpf_side_await_prog(struct io_coro_step *ctx,
			 struct io_uring_sqe *sqe, __u32 prog)
{
	return iocoro_await_kind(ctx, sqe, prog);
}

long bpf_side_next(struct io_coro_step *ctx, __u32 prog)
{
	return iocoro_jump(ctx, prog);
}

long bpf_side_then(struct io_coro_step *ctx, struct io_uring_sqe *sqe,
		   __u32 *step, __u32 next)
{
	return iocoro_then(ctx, sqe, step, next);
}

long bpf_side_spawn(struct io_coro_step *ctx, __u32 prog, __u32 id)
{
	return iocoro_spawn(ctx, prog, id);
}

long bpf_side_await_as(struct io_coro_step *ctx,
		       struct io_uring_sqe *sqe, __u32 prog, __u32 id)
{
	return iocoro_await_as(ctx, sqe, prog, id);
}

int bpf_side_finish(struct io_coro_step *ctx, __s32 res)
{
	return iocoro_finish(ctx, res);
}

/* a state-machine coroutine as an application writes one */
static struct side_state side_states[4];

IOCORO_COROUTINE(side_coro, &side_states, struct side_state)
{
	struct io_uring_sqe sqe;

	st->runs++;
	switch (st->step) {
	case 0:
		io_uring_prep_nop(&sqe);
		return (int)iocoro_then(ctx, &sqe, &st->step, 1);
	case 1:
		return iocoro_finish(ctx, iocoro_ctx_prev_res(ctx) + 100);
	}
	return iocoro_finish(ctx, -EINVAL);
}

/* a raw step, as coro_ops.h writes one: the kfunc with the step's ctx */
IOCORO_STEP(side_raw)
{
	return bpf_io_coro_emit_cqe(step, 0x5eed, step->res + 1, 0);
}
