/* SPDX-License-Identifier: (LGPL-2.1 OR MIT) */
/*
 * SQE prep helpers for BPF_PROG_TYPE_IOURING programs, with liburing's
 * names and argument order: a step prepares its next operation exactly as
 * user space would, then queues it (iocoro_await(), or
 * bpf_io_uring_queue_sqe() directly).
 *
 *   struct io_uring_sqe sqe;
 *
 *   io_uring_prep_read(&sqe, st->fd, (void *)st->buf, st->len, 0);
 *
 * Unlike liburing's, these start by zeroing the whole SQE: a program
 * builds it on its stack, and the verifier only lets initialised memory
 * reach the helper. Pointers (buf, path, ts, statxbuf) are user-space
 * addresses: the kernel reads and writes them in the submitting task, as
 * for SQEs from user space; a program usually keeps them as __u64 in its
 * coroutine's state and casts them here.
 *
 * Include <iocoro/bpf.h> rather than this file.
 */
#ifndef IOCORO_BPF_PREP_H
#define IOCORO_BPF_PREP_H

#include <linux/types.h>
#include <linux/io_uring.h>

#include <iocoro/user_data.h>

struct statx;
struct __kernel_timespec;

IOCORO_INLINE void io_uring_prep_rw(int op, struct io_uring_sqe *sqe, int fd,
				    const void *addr, unsigned int len,
				    __u64 offset)
{
	__builtin_memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = (__u8)op;
	sqe->fd = fd;
	sqe->off = offset;
	sqe->addr = (unsigned long)addr;
	sqe->len = len;
}

IOCORO_INLINE void io_uring_sqe_set_data64(struct io_uring_sqe *sqe,
					   __u64 data)
{
	sqe->user_data = data;
}

IOCORO_INLINE void io_uring_sqe_set_flags(struct io_uring_sqe *sqe,
					  unsigned int flags)
{
	sqe->flags = (__u8)flags;
}

IOCORO_INLINE void io_uring_prep_nop(struct io_uring_sqe *sqe)
{
	io_uring_prep_rw(IORING_OP_NOP, sqe, -1, 0, 0, 0);
}

IOCORO_INLINE void io_uring_prep_read(struct io_uring_sqe *sqe, int fd,
				      void *buf, unsigned int nbytes,
				      __u64 offset)
{
	io_uring_prep_rw(IORING_OP_READ, sqe, fd, buf, nbytes, offset);
}

IOCORO_INLINE void io_uring_prep_write(struct io_uring_sqe *sqe, int fd,
				       const void *buf, unsigned int nbytes,
				       __u64 offset)
{
	io_uring_prep_rw(IORING_OP_WRITE, sqe, fd, buf, nbytes, offset);
}

IOCORO_INLINE void io_uring_prep_openat(struct io_uring_sqe *sqe, int dfd,
					const char *path, int flags,
					unsigned int mode)
{
	io_uring_prep_rw(IORING_OP_OPENAT, sqe, dfd, path, mode, 0);
	sqe->open_flags = (__u32)flags;
}

IOCORO_INLINE void io_uring_prep_close(struct io_uring_sqe *sqe, int fd)
{
	io_uring_prep_rw(IORING_OP_CLOSE, sqe, fd, 0, 0, 0);
}

IOCORO_INLINE void io_uring_prep_fsync(struct io_uring_sqe *sqe, int fd,
				       unsigned int fsync_flags)
{
	io_uring_prep_rw(IORING_OP_FSYNC, sqe, fd, 0, 0, 0);
	sqe->fsync_flags = fsync_flags;
}

IOCORO_INLINE void io_uring_prep_statx(struct io_uring_sqe *sqe, int dfd,
				       const char *path, int flags,
				       unsigned int mask,
				       struct statx *statxbuf)
{
	io_uring_prep_rw(IORING_OP_STATX, sqe, dfd, path, mask,
			 (__u64)(unsigned long)statxbuf);
	sqe->statx_flags = (__u32)flags;
}

IOCORO_INLINE void io_uring_prep_timeout(struct io_uring_sqe *sqe,
					 struct __kernel_timespec *ts,
					 unsigned int count, unsigned int flags)
{
	io_uring_prep_rw(IORING_OP_TIMEOUT, sqe, -1, ts, 1, count);
	sqe->timeout_flags = flags;
}

/*
 * IORING_OP_BPF: run program number prog_index of the ring's attached
 * table. The core of every step request; fd, addr, len and the other
 * fields the opcode does not use stay zero, as the kernel requires.
 */
IOCORO_INLINE void iocoro_prep_bpf(struct io_uring_sqe *sqe,
				   unsigned int prog_index)
{
	io_uring_prep_rw(IORING_OP_BPF, sqe, 0, 0, 0, prog_index);
}

#endif /* IOCORO_BPF_PREP_H */
