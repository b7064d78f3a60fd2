/* SPDX-License-Identifier: MIT */
/*
 * catchain: what catchain.c (user space) and catchain.bpf.c (the
 * coroutine) agree on. One coroutine cats one file:
 *
 *   OPENAT(path) -> OPEN_DONE -> READ(buf 0) -> READ_DONE
 *   READ_DONE, n > 0: emit a DATA CQE (buffer, n), then
 *                     the next buffer free: READ(next buf) -> READ_DONE
 *                     else: READ(credit eventfd) -> CREDIT_DONE
 *   CREDIT_DONE: as READ_DONE after its emit (look at the buffer again)
 *   READ_DONE, n == 0 or an error: CLOSE(fd) -> CLOSE_DONE: finish
 *
 * Every arrow into a *_DONE step is an operation that carries the step
 * (iocoro_then()): the step runs at its completion whatever its result
 * and finds it in iocoro_ctx_prev_res(). User space submits the OPENAT
 * itself, carrying the step (iocoro_sqe_set_first()): the coroutine has
 * the kernel's default budget, and stops before the read that would
 * exceed it (state.steps_max), ending with CAT_MORE, the file still
 * open; user space goes on with an IORING_OP_BPF start of the largest
 * budget at RESUME, which queues that read.
 * Reads go at the file position (offset -1), as cat's read() does.
 *
 * Buffering and order. Coroutine slot i (a --jobs slot) owns a ring of
 * CAT_NBUFS buffers of --chunk bytes in user memory; read k fills buffer
 * k % CAT_NBUFS. Every filled buffer is posted at once with
 * bpf_io_coro_emit_cqe() (user_data CAT_UD_DATA(slot, buffer), res the
 * length). User space writes the buffers of the file that is first in
 * argument order and not yet written out (the head) to stdout, in order,
 * and keeps those of the files behind it until they are the head: the
 * output is cat's, whatever order the files complete in.
 *
 * Back pressure. The state is in a BPF_F_MMAPABLE map that user space
 * maps: user space counts the buffers it has written out in
 * state.released, and read k may fill its buffer once k - released <
 * CAT_NBUFS. The coroutine looks before every read; with the buffer free
 * (the usual case: the output keeps up) the read goes at once, costing
 * nothing more. Without it, the coroutine waits in the kernel on the
 * slot's eventfd (a read of it, io_uring's poll):
 *
 *   coroutine: waiting = 1 (an atomic add: a full barrier), look at
 *              released again, free: waiting = 0, read; else READ(eventfd)
 *   user:      released += n, a full barrier, waiting? write 1 to the
 *              eventfd (an IORING_OP_WRITE with its next io_uring_enter())
 *
 * One of the two sees the other's store, so a wait always has a wake. A
 * wake may be stale (an eventfd count left from a look that found the
 * buffer free): CREDIT_DONE looks again and waits again if it must. So
 * the coroutine never refills a buffer that is not written yet, and a
 * file behind the head stops after CAT_NBUFS buffers, in the kernel.
 *
 * The end (iocoro_finish) is 0, or the first error (open, read or close:
 * -errno); state.steps counts the program runs, state.bytes the data.
 */
#ifndef CATCHAIN_H
#define CATCHAIN_H

#include <linux/types.h>

enum catchain_step {
	/* 0: none (a state never set) */
	CAT_OPEN_DONE = 1,	/* prev_res: the fd, or the open's error */
	CAT_READ_DONE,	/* prev_res: bytes read (0: end of file) or error */
	CAT_CLOSE_DONE,	/* prev_res: the close's result */
	CAT_CREDIT_DONE,	/* prev_res: the eventfd read's (a wake) */
	CAT_RESUME,	/* a new coroutine goes on with the open file */
};

/* a coroutine's end: its budget is spent, the file not (RESUME it) */
#define CAT_MORE	1

/* the operation that failed (catchain_state.failed_op) */
enum catchain_op {
	CAT_OP_NONE,
	CAT_OP_OPEN,
	CAT_OP_READ,
	CAT_OP_CLOSE,
	CAT_OP_BAD,	/* a result the kernel should never give */
};

/* coroutine slots: --jobs at most */
#define CAT_MAX_JOBS	256
/* buffers per slot: a file runs at most this far ahead of the output */
#define CAT_NBUFS	8

/* step runs of a file of @chunks data reads that goes well and never
 * waits for a buffer (each wait adds one or more CREDIT_DONE runs, each
 * RESUME one) */
#define CAT_STEPS(chunks) ((__u64)(chunks) + 3)

/*
 * user_data of the DATA CQEs: CAT_UD_MAGIC in bits 63..48 (not iocoro's
 * 0xc0c0), the slot in bits 31..8, the buffer in bits 7..0
 */
#define CAT_UD_MAGIC		0xca7cULL
#define CAT_UD_DATA(slot, buf)						\
	((CAT_UD_MAGIC << 48) | ((__u64)(slot) << 8) | (__u64)(buf))
#define CAT_UD_IS_DATA(ud)	((ud) >> 48 == CAT_UD_MAGIC)
#define CAT_UD_SLOT(ud)		((__u32)((ud) >> 8) & 0xffffff)
#define CAT_UD_BUF(ud)		((__u32)(ud) & 0xff)

/*
 * one slot of cat_states; user space writes it only while it is idle,
 * but for released (and reads waiting) while its coroutine runs
 */
struct catchain_state {
	__u32 step;		/* enum catchain_step */
	__s32 fd;		/* the open file */
	__u64 path;		/* user address of the NUL-terminated path */
	__u64 bufs;		/* user address of CAT_NBUFS * chunk bytes */
	__u64 scratch;		/* 8 bytes the eventfd reads land in */
	__s32 credit_fd;	/* the slot's eventfd */
	__u32 chunk;		/* bytes per buffer and read */
	__u32 next;		/* reads done so far (next buffer: % NBUFS) */
	__u32 steps;		/* program runs so far */
	__u64 bytes;		/* data read */
	__u32 failed_op;	/* enum catchain_op */
	__s32 error;		/* its result (-errno) */
	__u32 released;		/* buffers user space has written out */
	__u32 waiting;		/* nonzero: waiting on credit_fd for released */
	__u32 waits;		/* of the steps, CREDIT_DONE's (woken) */
	__u32 steps_max;	/* nonzero: end with CAT_MORE at this many steps */
};

#endif /* CATCHAIN_H */
