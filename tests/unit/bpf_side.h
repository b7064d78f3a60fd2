/* SPDX-License-Identifier: MIT */
/*
 * bpf-lib's headers compiled for the host (bpf_side.c), for unit tests:
 * the kfuncs they call are mocks that record what a step would have asked
 * the kernel for. Each bpf_side_*() runs one bpf-lib function.
 */
#ifndef IOCORO_TESTS_BPF_SIDE_H
#define IOCORO_TESTS_BPF_SIDE_H

#include <linux/types.h>
#include <linux/io_uring.h>

/* struct io_coro_step and the kfuncs' prototypes, as the host sees them */
#include <iocoro/coro_ops.h>

struct bpf_mock {
	/* bpf_io_coro_queue_sqe() and bpf_io_coro_queue_sqe_cont() */
	unsigned int nr_queued;
	struct io_uring_sqe queued[8];
	__u32 queued_len[8];
	/* the kind an SQE continues at (_cont()), or -1 */
	int queued_kind[8];
	int queue_ret[8];	/* per call, 0 by default */
	/* bpf_io_coro_post_result() */
	unsigned int nr_posted;
	__u64 post_user_data;
	/* bpf_io_coro_emit_cqe() */
	unsigned int nr_emitted;
	__u64 emit_user_data;
	__s32 emit_res;
	__u32 emit_flags;
	/* the step context the last kfunc call was given */
	const struct io_coro_step *step;
	/* bpf_map_lookup_elem() */
	unsigned int nr_lookups;
	__u32 lookup_key;
	void *lookup_value;
	/* IOCORO_DEBUG's per-CPU count of actions (bpf_side_debug.c) */
	__u64 acts;
};

extern struct bpf_mock bm;

void bpf_side_prep_nop(struct io_uring_sqe *sqe);
void bpf_side_prep_read(struct io_uring_sqe *sqe, int fd, void *buf,
			unsigned int nbytes, __u64 offset);
void bpf_side_prep_write(struct io_uring_sqe *sqe, int fd, const void *buf,
			 unsigned int nbytes, __u64 offset);
void bpf_side_prep_readv(struct io_uring_sqe *sqe, int fd, const void *iovecs,
			 unsigned int nr_vecs, __u64 offset);
void bpf_side_prep_writev(struct io_uring_sqe *sqe, int fd, const void *iovecs,
			  unsigned int nr_vecs, __u64 offset);
void bpf_side_prep_read_fixed(struct io_uring_sqe *sqe, int fd, void *buf,
			      unsigned int nbytes, __u64 offset, int buf_index);
void bpf_side_prep_write_fixed(struct io_uring_sqe *sqe, int fd,
			       const void *buf, unsigned int nbytes,
			       __u64 offset, int buf_index);
void bpf_side_prep_openat(struct io_uring_sqe *sqe, int dfd, const char *path,
			  int flags, unsigned int mode);
void bpf_side_prep_close(struct io_uring_sqe *sqe, int fd);
void bpf_side_prep_fsync(struct io_uring_sqe *sqe, int fd, unsigned int flags);
void bpf_side_prep_fallocate(struct io_uring_sqe *sqe, int fd, int mode,
			      __s64 offset, __s64 len);
void bpf_side_prep_splice(struct io_uring_sqe *sqe, int fd_in, __s64 off_in,
			  int fd_out, __s64 off_out, unsigned int nbytes,
			  unsigned int splice_flags);
void bpf_side_prep_statx(struct io_uring_sqe *sqe, int dfd, const char *path,
			 int flags, unsigned int mask, void *statxbuf);
void bpf_side_prep_renameat(struct io_uring_sqe *sqe, int olddfd,
			    const char *oldpath, int newdfd,
			    const char *newpath, unsigned int flags);
void bpf_side_prep_unlinkat(struct io_uring_sqe *sqe, int dfd,
			    const char *path, int flags);
void bpf_side_prep_linkat(struct io_uring_sqe *sqe, int olddfd,
			  const char *oldpath, int newdfd, const char *newpath,
			  int flags);
void bpf_side_prep_mkdirat(struct io_uring_sqe *sqe, int dfd, const char *path,
			   unsigned int mode);
void bpf_side_prep_send(struct io_uring_sqe *sqe, int sockfd, const void *buf,
			unsigned long len, int flags);
void bpf_side_prep_recv(struct io_uring_sqe *sqe, int sockfd, void *buf,
			unsigned long len, int flags);
void bpf_side_prep_accept(struct io_uring_sqe *sqe, int fd, void *addr,
			  __u32 *addrlen, int flags);
void bpf_side_prep_connect(struct io_uring_sqe *sqe, int fd, const void *addr,
			   __u32 addrlen);
void bpf_side_prep_timeout(struct io_uring_sqe *sqe, void *ts,
			   unsigned int count, unsigned int flags);
void bpf_side_prep_timeout_remove(struct io_uring_sqe *sqe, __u64 user_data,
				  unsigned int flags);
void bpf_side_prep_link_timeout(struct io_uring_sqe *sqe, void *ts,
				unsigned int flags);
void bpf_side_prep_cancel64(struct io_uring_sqe *sqe, __u64 user_data,
			    int flags);
void bpf_side_prep_cancel_fd(struct io_uring_sqe *sqe, int fd,
			     unsigned int flags);
void bpf_side_prep_kind(struct io_uring_sqe *sqe, unsigned int kind);

__u64 bpf_side_ctx_user_data(const struct io_coro_step *ctx);
int bpf_side_ctx_has_prev(const struct io_coro_step *ctx);
__s32 bpf_side_ctx_prev_res(const struct io_coro_step *ctx);
__u32 bpf_side_ctx_prev_flags(const struct io_coro_step *ctx);
__u64 bpf_side_ctx_prev_user_data(const struct io_coro_step *ctx);

__u32 bpf_side_id(const struct io_coro_step *ctx);
__u32 bpf_side_self(const struct io_coro_step *ctx);
long bpf_side_await(struct io_coro_step *ctx, struct io_uring_sqe *sqe);
long bpf_side_await_prog(struct io_coro_step *ctx,
			 struct io_uring_sqe *sqe, __u32 prog);
long bpf_side_next(struct io_coro_step *ctx, __u32 prog);
long bpf_side_spawn(struct io_coro_step *ctx, __u32 prog, __u32 id);
long bpf_side_await_as(struct io_coro_step *ctx,
		       struct io_uring_sqe *sqe, __u32 prog, __u32 id);
long bpf_side_then(struct io_coro_step *ctx, struct io_uring_sqe *sqe,
		   __u32 *step, __u32 next);
int bpf_side_finish(struct io_coro_step *ctx, __s32 res);

/*
 * A struct_ops program as the kernel calls it: its arguments as an array
 * of u64, the step's context first.
 */
typedef int (*bpf_side_prog_t)(unsigned long long *args);

static inline int bpf_side_run(bpf_side_prog_t prog, struct io_coro_step *step)
{
	unsigned long long args[1] = { (unsigned long long)(unsigned long)step };

	return prog(args);
}

/*
 * IOCORO_COROUTINE(side_coro, ...): steps 0 -> 1 -> end (see bpf_side.c),
 * with its io_coro_ops map side_coro_kind
 */
struct side_state {
	__u32 step;
	__u32 runs;
};
int side_coro(unsigned long long *args);
extern struct io_coro_ops side_coro_kind;

/* IOCORO_STEP(side_raw): bpf_io_coro_emit_cqe(step, 0x5eed, res + 1, 0) */
int side_raw(unsigned long long *args);

/*
 * bpf_side_debug.c, built with IOCORO_DEBUG: a coroutine whose step does
 * what its state's mode says (enum dbg_mode), through IOCORO_COROUTINE
 * and its debug check.
 */
enum dbg_mode {
	DBG_VANISH,		/* return 0, nothing queued */
	DBG_AWAIT,		/* await a NOP */
	DBG_AWAIT_FAILED,	/* the await fails, the step returns 0 anyway */
	DBG_FINISH,		/* iocoro_finish(ctx, 7) */
	DBG_LEAVE,		/* iocoro_leave() */
	DBG_SPAWN,		/* iocoro_spawn() of another coroutine */
	DBG_ERROR,		/* return -EIO */
	DBG_RAW_ACTED,		/* queue with the raw helper, iocoro__acted() */
};

struct dbg_state {
	__u32 mode;
	__u32 runs;
};

int dbg_coro(unsigned long long *args);

#endif
