/* SPDX-License-Identifier: MIT */
/*
 * copychain: what copychain.c (user space) and copychain.bpf.c (the
 * coroutines) agree on. A file is copied by one file coroutine and D lane
 * coroutines (D = --depth, fewer for a file of fewer chunks), all started
 * by a single request that user space submits: the openat(SRC) itself,
 * carrying the file step (IOSQE_BPF_STEP, the file coroutine being kind
 * 0), when the kernel's default budget covers the copy; else an
 * IORING_OP_BPF that asks for the budget, at START:
 *
 *   file:  START -> OPENAT(SRC) -> SRC_OPEN -> OPENAT(DIR, O_TMPFILE)
 *            -> DST_OPEN: forks the D lanes (one SQE each: a read that
 *            carries the lane's step)
 *   lane k: READ(chunk k) -> READ_DONE -> WRITE -> WRITE_DONE -> READ
 *            (chunk k + D) ...          \ n == 0, or past the last extent:
 *                                         the lane joins (ends silently)
 *   the last lane to join continues as the file coroutine:
 *          [FSYNC(dst) -> FSYNC_DONE, with --sync] -> CLOSE(src)
 *            -> CLOSE_DONE: finish(0)
 *
 * So the lanes keep D reads or writes in flight on one file, each with
 * its own buffer, over interleaved chunks: lane k copies chunks k, k + D,
 * k + 2D ... of every data extent (a sparse SRC's holes stay holes; the
 * last extent runs to end of file). A short read reads the rest of its
 * chunk, a short write writes the rest. The join is an atomic counter in
 * the file's state (active); a lane that fails records its error in the
 * file's (first error wins) and joins too; the last lane then closes both
 * files instead and finishes with that error.
 *
 * The file coroutine posts the one CQE of a copy, its end. On success
 * the tmpfile's descriptor stays open (dst_fd): user space needs it to
 * linkat() the unnamed file into place (/proc/self/fd/N) and to set its
 * mode; a direct descriptor could not be linked. SIGKILL before that
 * leaves nothing: the file has no name until user space's linkat.
 *
 * Every arrow into a *_DONE step is an operation that carries the
 * coroutine's next step (iocoro_await_as()): the step runs once the
 * operation completed, whatever its result, and finds it in
 * iocoro_ctx_prev_res().
 * A step the kernel ends (-ELOOP: budget spent) posts a failed step CQE;
 * user space then joins in the lane's place (the maps are mmap()ed).
 */
#ifndef COPYCHAIN_H
#define COPYCHAIN_H

#include <linux/types.h>

enum copychain_step {
	/* file coroutine */
	CC_START,	/* queue openat(SRC): a copy user space did not open */
	CC_SRC_OPEN,	/* prev_res: SRC's fd */
	CC_DST_OPEN,	/* prev_res: the temporary file's fd */
	CC_FSYNC_DONE,	/* prev_res: the fsync's result */
	CC_CLOSE_DONE,	/* prev_res: close(SRC)'s result */
	CC_FAIL_CLOSED,	/* after a failure: SRC closed, close DST */
	CC_FAIL_DONE,	/* after a failure: both closed, finish */
	/* lane coroutine */
	CC_READ_DONE,	/* prev_res: bytes read at off + pos (0: EOF) */
	CC_WRITE_DONE,	/* prev_res: bytes written at off + pos + done */
};

/* the operation that failed (copychain_file.failed_op) */
enum copychain_op {
	CC_OP_NONE,
	CC_OP_OPEN_SRC,
	CC_OP_OPEN_DST,
	CC_OP_READ,
	CC_OP_WRITE,
	CC_OP_FSYNC,
	CC_OP_CLOSE,
	CC_OP_QUEUE,	/* a step could not be queued (budget, ...) */
	CC_OP_BAD,	/* a result the kernel should never give */
};

/* lanes of one file: one SQE each from one run (IORING_BPF_MAX_SQES 32) */
#define CC_MAX_DEPTH	16
/* data extents a file's state lists; the last one runs to EOF */
#define CC_MAX_EXT	16
/* the end of an extent that runs to end of file */
#define CC_TO_EOF	(~(__u64)0)

struct copychain_ext {
	__u64 start;
	__u64 end;	/* CC_TO_EOF: read until a read gives 0 */
};

/* a file's state: slot j of cc_files for job j */
struct copychain_file {
	__u32 step;		/* enum copychain_step */
	__u32 file_prog;	/* kind of the file step (iocoro_prog_index()) */
	__u32 lane_prog;	/* kind of the lane step */
	__u32 job;		/* this slot */
	__u64 src_path;		/* user address of SRC's name */
	__u64 dst_path;		/* DST's directory (O_TMPFILE) or temp name */
	__u32 dst_flags;	/* open flags for dst_path */
	__u32 depth;		/* lanes */
	__s32 src_fd;		/* -1 until opened */
	__s32 dst_fd;
	__u64 buf;		/* user address of depth * chunk bytes */
	__u32 chunk;
	__u32 nr_ext;		/* 1 to CC_MAX_EXT */
	struct copychain_ext ext[CC_MAX_EXT];
	__u64 active;		/* lanes still running (atomic: 64 bits) */
	__s64 error;		/* first error, -errno (atomic) */
	__u32 failed_op;	/* enum copychain_op of that error */
	__u32 steps;		/* file coroutine's step runs */
	__u32 lanes;		/* lanes started */
	__u32 sync;		/* 1: fsync the copy before closing (--sync) */
	__u64 fail_off;		/* file offset of a failed read or write */
	__u64 end_ns;		/* bpf_ktime_get_ns() at the coroutine's end */
};

/* a lane's state: slot j * depth_max + k of cc_lanes */
struct copychain_lane {
	__u32 step;
	__u32 job;		/* its file's slot in cc_files */
	__u32 k;		/* lane number, 0 .. depth - 1 */
	__u32 ext;		/* the extent it is in */
	__u64 off;		/* start of its chunk */
	__u32 want;		/* bytes of that chunk */
	__u32 pos;		/* of them, read and written */
	__u32 len;		/* bytes the last read gave */
	__u32 done;		/* of them, written */
	__u64 copied;
	__u32 steps;
	__u32 short_writes;
	__u32 short_reads;
	__u32 joined;		/* 1: has left the join counter */
};

#ifdef __bpf__
#define CC_INLINE static __always_inline
#define CC_BARRIER(x) barrier_var(x)
#else
#define CC_INLINE static inline
#define CC_BARRIER(x) ((void)0)
#endif

/*
 * Put lane @l on its next chunk: at l->off in extent l->ext, or at its
 * k-th chunk of the next extents. 1 if it has one (l->want > 0), 0 if it
 * is done. User space places the lanes on their first chunk, the lanes
 * themselves on the next ones.
 */
CC_INLINE int cc_place(const struct copychain_file *f,
		       struct copychain_lane *l)
{
	const struct copychain_ext *x;
	__u32 i;
	__u64 e, left;

	for (i = 0; i < CC_MAX_EXT; i++) {
		if (l->ext >= f->nr_ext || l->ext >= CC_MAX_EXT)
			break;
		e = l->ext;
		CC_BARRIER(e);
		x = &f->ext[e & (CC_MAX_EXT - 1)];	/* for the verifier */
		if (l->off < x->end) {
			left = x->end - l->off;
			l->want = left < f->chunk ? (__u32)left : f->chunk;
			l->pos = 0;
			return 1;
		}
		l->ext++;
		e = l->ext;
		CC_BARRIER(e);
		if (l->ext < f->nr_ext && l->ext < CC_MAX_EXT)
			l->off = f->ext[e & (CC_MAX_EXT - 1)].start +
				 (__u64)l->k * f->chunk;
	}
	l->want = 0;
	return 0;
}

#endif /* COPYCHAIN_H */
