/* SPDX-License-Identifier: MIT */
/*
 * catchain: what catchain.c (user space) and catchain.bpf.c (the
 * coroutine) agree on. One coroutine cats one file:
 *
 *   START -> OPENAT(path) -> OPEN_DONE -> READ(buf 0) -> READ_DONE
 *   READ_DONE, n > 0: emit a DATA CQE (buffer, n), then
 *                     READ(credit eventfd) -link-> READ(next buf) -> READ_DONE
 *   READ_DONE, n == 0 or an error: CLOSE(fd) -> CLOSE_DONE: finish
 *
 * Every arrow into a *_DONE step is a hard link: the step runs after the
 * operation whatever its result and finds it in iocoro_ctx_prev_res().
 * Reads go at the file position (offset -1), as cat's read() does.
 *
 * Buffering and order. Coroutine slot i (a --jobs slot) owns a ring of
 * CAT_NBUFS buffers of --chunk bytes in user memory; read k fills buffer
 * k % CAT_NBUFS. Every filled buffer is posted at once with
 * bpf_io_uring_emit_cqe() (user_data CAT_UD_DATA(slot, buffer), res the
 * length). User space writes the buffers of the file that is first in
 * argument order and not yet written out (the head) to stdout, in order,
 * and keeps those of the files behind it until they are the head: the
 * output is cat's, whatever order the files complete in.
 *
 * Back pressure is a credit eventfd per slot (EFD_SEMAPHORE): before
 * every read but the first, the coroutine reads the eventfd, linked
 * (IOSQE_IO_LINK) before the file read. A semaphore read takes one
 * credit, or waits in the kernel (io_uring's poll) until there is one.
 * The eventfd starts at CAT_NBUFS - 1 (the first read needs none: all
 * buffers are free); user space gives one credit back per buffer it has
 * written out, as an IORING_OP_WRITE of the count to the eventfd that
 * goes with its next io_uring_enter(). So the coroutine never refills a
 * buffer that is not written yet, and a file behind the head stops after
 * CAT_NBUFS buffers, waiting in the kernel, not in user space. The first
 * read takes no credit and the last (end of file or error) fills no
 * buffer, so the count is CAT_NBUFS - 1 again once the file is written
 * out, and the slot goes on with the next file.
 *
 * The end (iocoro_finish) is 0, or the first error (open, read or close:
 * -errno); state.steps counts the program runs, state.bytes the data.
 */
#ifndef CATCHAIN_H
#define CATCHAIN_H

#include <linux/types.h>

enum catchain_step {
	CAT_START,	/* queue the openat */
	CAT_OPEN_DONE,	/* prev_res: the fd, or the open's error */
	CAT_READ_DONE,	/* prev_res: bytes read (0: end of file) or error */
	CAT_CLOSE_DONE,	/* prev_res: the close's result */
};

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

/* step runs of a file of @chunks data reads that goes well */
#define CAT_STEPS(chunks) ((__u64)(chunks) + 4)

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

/* one slot of cat_states; user space writes it only while it is idle */
struct catchain_state {
	__u32 step;		/* enum catchain_step */
	__s32 fd;		/* the open file */
	__u64 path;		/* user address of the NUL-terminated path */
	__u64 bufs;		/* user address of CAT_NBUFS * chunk bytes */
	__u64 scratch;		/* 8 bytes the credit reads land in */
	__s32 credit_fd;	/* the slot's eventfd */
	__u32 chunk;		/* bytes per buffer and read */
	__u32 next;		/* reads done so far (next buffer: % NBUFS) */
	__u32 steps;		/* program runs so far */
	__u64 bytes;		/* data read */
	__u32 failed_op;	/* enum catchain_op */
	__s32 error;		/* its result (-errno) */
};

#endif /* CATCHAIN_H */
