/* SPDX-License-Identifier: (LGPL-2.1 OR MIT) */
/*
 * SQE prep helpers for coroutine steps, with liburing's names and
 * argument order: a step prepares its next operation exactly as user
 * space would, then queues it (iocoro_await(), or bpf_io_coro_queue_sqe()
 * directly).
 *
 *   struct io_uring_sqe sqe;
 *
 *   io_uring_prep_read(&sqe, st->fd, (void *)st->buf, st->len, 0);
 *
 * Unlike liburing's, these start by zeroing the whole SQE: a program
 * builds it on its stack, and the verifier only lets initialised memory
 * reach the kfunc. Pointers (buf, iovecs, path, ts, statxbuf, addr,
 * addrlen) are user-space addresses: the kernel reads and writes them in
 * the submitting task, as for SQEs from user space; a program usually
 * keeps them as __u64 in its coroutine's state and casts them here. Where
 * liburing takes a libc type, these take its kernel equivalent: size_t is
 * unsigned long, socklen_t __u32, mode_t unsigned int, off_t and int64_t
 * __s64.
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
struct iovec;
struct sockaddr;

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

IOCORO_INLINE void io_uring_prep_readv(struct io_uring_sqe *sqe, int fd,
				       const struct iovec *iovecs,
				       unsigned int nr_vecs, __u64 offset)
{
	io_uring_prep_rw(IORING_OP_READV, sqe, fd, iovecs, nr_vecs, offset);
}

IOCORO_INLINE void io_uring_prep_writev(struct io_uring_sqe *sqe, int fd,
					const struct iovec *iovecs,
					unsigned int nr_vecs, __u64 offset)
{
	io_uring_prep_rw(IORING_OP_WRITEV, sqe, fd, iovecs, nr_vecs, offset);
}

IOCORO_INLINE void io_uring_prep_read_fixed(struct io_uring_sqe *sqe, int fd,
					    void *buf, unsigned int nbytes,
					    __u64 offset, int buf_index)
{
	io_uring_prep_rw(IORING_OP_READ_FIXED, sqe, fd, buf, nbytes, offset);
	sqe->buf_index = (__u16)buf_index;
}

IOCORO_INLINE void io_uring_prep_write_fixed(struct io_uring_sqe *sqe, int fd,
					     const void *buf,
					     unsigned int nbytes, __u64 offset,
					     int buf_index)
{
	io_uring_prep_rw(IORING_OP_WRITE_FIXED, sqe, fd, buf, nbytes, offset);
	sqe->buf_index = (__u16)buf_index;
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

IOCORO_INLINE void io_uring_prep_fallocate(struct io_uring_sqe *sqe, int fd,
					   int mode, __s64 offset, __s64 len)
{
	io_uring_prep_rw(IORING_OP_FALLOCATE, sqe, fd, 0, (unsigned int)mode,
			 (__u64)offset);
	sqe->addr = (__u64)len;
}

IOCORO_INLINE void io_uring_prep_splice(struct io_uring_sqe *sqe,
					int fd_in, __s64 off_in,
					int fd_out, __s64 off_out,
					unsigned int nbytes,
					unsigned int splice_flags)
{
	io_uring_prep_rw(IORING_OP_SPLICE, sqe, fd_out, 0, nbytes,
			 (__u64)off_out);
	sqe->splice_off_in = (__u64)off_in;
	sqe->splice_fd_in = fd_in;
	sqe->splice_flags = splice_flags;
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

IOCORO_INLINE void io_uring_prep_renameat(struct io_uring_sqe *sqe, int olddfd,
					  const char *oldpath, int newdfd,
					  const char *newpath,
					  unsigned int flags)
{
	io_uring_prep_rw(IORING_OP_RENAMEAT, sqe, olddfd, oldpath,
			 (__u32)newdfd, (__u64)(unsigned long)newpath);
	sqe->rename_flags = (__u32)flags;
}

IOCORO_INLINE void io_uring_prep_unlinkat(struct io_uring_sqe *sqe, int dfd,
					  const char *path, int flags)
{
	io_uring_prep_rw(IORING_OP_UNLINKAT, sqe, dfd, path, 0, 0);
	sqe->unlink_flags = (__u32)flags;
}

IOCORO_INLINE void io_uring_prep_linkat(struct io_uring_sqe *sqe, int olddfd,
					const char *oldpath, int newdfd,
					const char *newpath, int flags)
{
	io_uring_prep_rw(IORING_OP_LINKAT, sqe, olddfd, oldpath, (__u32)newdfd,
			 (__u64)(unsigned long)newpath);
	sqe->hardlink_flags = (__u32)flags;
}

IOCORO_INLINE void io_uring_prep_mkdirat(struct io_uring_sqe *sqe, int dfd,
					 const char *path, unsigned int mode)
{
	io_uring_prep_rw(IORING_OP_MKDIRAT, sqe, dfd, path, mode, 0);
}

IOCORO_INLINE void io_uring_prep_send(struct io_uring_sqe *sqe, int sockfd,
				      const void *buf, unsigned long len,
				      int flags)
{
	io_uring_prep_rw(IORING_OP_SEND, sqe, sockfd, buf, (__u32)len, 0);
	sqe->msg_flags = (__u32)flags;
}

IOCORO_INLINE void io_uring_prep_recv(struct io_uring_sqe *sqe, int sockfd,
				      void *buf, unsigned long len, int flags)
{
	io_uring_prep_rw(IORING_OP_RECV, sqe, sockfd, buf, (__u32)len, 0);
	sqe->msg_flags = (__u32)flags;
}

IOCORO_INLINE void io_uring_prep_accept(struct io_uring_sqe *sqe, int fd,
					struct sockaddr *addr, __u32 *addrlen,
					int flags)
{
	io_uring_prep_rw(IORING_OP_ACCEPT, sqe, fd, addr, 0,
			 (__u64)(unsigned long)addrlen);
	sqe->accept_flags = (__u32)flags;
}

IOCORO_INLINE void io_uring_prep_connect(struct io_uring_sqe *sqe, int fd,
					 const struct sockaddr *addr,
					 __u32 addrlen)
{
	io_uring_prep_rw(IORING_OP_CONNECT, sqe, fd, addr, 0, addrlen);
}

IOCORO_INLINE void io_uring_prep_timeout(struct io_uring_sqe *sqe,
					 struct __kernel_timespec *ts,
					 unsigned int count, unsigned int flags)
{
	io_uring_prep_rw(IORING_OP_TIMEOUT, sqe, -1, ts, 1, count);
	sqe->timeout_flags = flags;
}

IOCORO_INLINE void io_uring_prep_timeout_remove(struct io_uring_sqe *sqe,
						__u64 user_data,
						unsigned int flags)
{
	io_uring_prep_rw(IORING_OP_TIMEOUT_REMOVE, sqe, -1, 0, 0, 0);
	sqe->addr = user_data;
	sqe->timeout_flags = flags;
}

IOCORO_INLINE void io_uring_prep_link_timeout(struct io_uring_sqe *sqe,
					      struct __kernel_timespec *ts,
					      unsigned int flags)
{
	io_uring_prep_rw(IORING_OP_LINK_TIMEOUT, sqe, -1, ts, 1, 0);
	sqe->timeout_flags = flags;
}

IOCORO_INLINE void io_uring_prep_cancel64(struct io_uring_sqe *sqe,
					  __u64 user_data, int flags)
{
	io_uring_prep_rw(IORING_OP_ASYNC_CANCEL, sqe, -1, 0, 0, 0);
	sqe->addr = user_data;
	sqe->cancel_flags = (__u32)flags;
}

IOCORO_INLINE void io_uring_prep_cancel_fd(struct io_uring_sqe *sqe, int fd,
					   unsigned int flags)
{
	io_uring_prep_rw(IORING_OP_ASYNC_CANCEL, sqe, fd, 0, 0, 0);
	sqe->cancel_flags = (__u32)flags | IORING_ASYNC_CANCEL_FD;
}

/*
 * IORING_OP_BPF that runs the step of coroutine kind @kind (the
 * io_coro_ops attached as that kind) as soon as it is issued. Every field
 * the opcode does not use stays zero, as the kernel requires; a start a
 * step queues takes its coroutine's budget, so sqe->len stays zero too.
 */
IOCORO_INLINE void iocoro_prep_kind(struct io_uring_sqe *sqe,
				    unsigned int kind)
{
	io_uring_prep_rw(IORING_OP_BPF, sqe, 0, 0, 0, kind);
}

#endif /* IOCORO_BPF_PREP_H */
