/* SPDX-License-Identifier: (LGPL-2.1 OR MIT) */
/* libiocoro internals shared by its source files; not installed. */
#ifndef IOCORO_INTERNAL_H
#define IOCORO_INTERNAL_H

#include <errno.h>

#include "iocoro.h"

/*
 * iocoro never sets errno, but libbpf and libc calls it makes may: public
 * functions that make such calls keep the caller's errno with these.
 */
#define IOCORO_ERRNO_SAVE int iocoro_saved_errno_ = errno
#define IOCORO_ERRNO_RESTORE(ret)                                       \
	({                                                              \
		__typeof__(ret) iocoro_ret_ = (ret);                    \
		errno = iocoro_saved_errno_;                            \
		iocoro_ret_;                                            \
	})

/*
 * Ask ring @ring_fd whether the kernel runs IORING_OP_BPF
 * (IORING_REGISTER_PROBE): 0, -EOPNOTSUPP, or the probe's -errno.
 */
int iocoro__probe_fd(int ring_fd);

/*
 * @err is an error the kernel gave for one of the series' operations:
 * -EOPNOTSUPP if the kernel lacks the series, else @err. Asks the kernel
 * only when @co was not set up by iocoro_queue_init() (co may be NULL).
 */
int iocoro__unsupported_or(const struct iocoro *co, int err);

/*
 * A bpf_link that runs loaded step program @prog_fd as kind @kind of ring
 * @ring_fd (an io_coro_ops map of its own, linked): the link's fd, or
 * -errno.
 */
int iocoro__kind_link(int ring_fd, int prog_fd, unsigned int kind);

#endif
