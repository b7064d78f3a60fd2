/* SPDX-License-Identifier: MIT */
/*
 * copychain: what copychain.c (user space) and copychain.bpf.c (the
 * coroutine) agree on. One coroutine copies one file:
 *
 *   START -> READ(off) -> READ_DONE -> WRITE(off, n) -> WRITE_DONE -> READ ...
 *                            \ n == 0 -> FSYNC(dst) -> FSYNC_DONE: finish(0)
 *
 * One coroutine copies one data extent [off, end) of a sparse file (the
 * holes stay holes); the last one reads to the end of file and fsyncs.
 *
 * Every arrow into a *_DONE step is a hard link: the step runs after the
 * operation whatever its result and finds it in iocoro_ctx_prev_res().
 * The coroutine ends with 0 (the data is written and fsynced) or the
 * first error; what it did is left in its state for user space to read.
 */
#ifndef COPYCHAIN_H
#define COPYCHAIN_H

#include <linux/types.h>

enum copychain_step {
	CC_START,	/* queue the first read */
	CC_READ_DONE,	/* prev_res: bytes read at off (0: end of file) */
	CC_WRITE_DONE,	/* prev_res: bytes written at off + done */
	CC_FSYNC_DONE,	/* prev_res: the fsync's result */
};

/* the operation that failed (copychain_state.failed_op) */
enum copychain_op {
	CC_OP_NONE,
	CC_OP_READ,
	CC_OP_WRITE,
	CC_OP_FSYNC,
	CC_OP_BAD,	/* a result the kernel should never give */
};

/* coroutines at once: copychain runs one (id 0) */
#define CC_MAX 1

/* step runs of a copy of @chunks chunks that goes well */
#define CC_STEPS(chunks) (2 * (__u64)(chunks) + 3)

struct copychain_state {
	__u32 step;		/* enum copychain_step */
	__s32 src_fd;
	__s32 dst_fd;
	__u32 chunk;		/* size of buf, bytes per read */
	__u64 buf;		/* user address of the one buffer */
	__u64 off;		/* file offset of the chunk in flight */
	__u32 len;		/* bytes the last read gave */
	__u32 done;		/* of them, written so far */
	__u64 copied;		/* bytes written in all */
	__u32 steps;		/* program runs so far */
	__u32 short_writes;	/* writes that wrote less than asked */
	__u32 failed_op;	/* enum copychain_op */
	__s32 error;		/* its result (-errno) */
	__u64 end;		/* copy [off, end): a data extent, or to EOF */
	__u32 sync;		/* 1: fsync dst at the end (the last extent) */
	__u32 pad;
};

#endif /* COPYCHAIN_H */
