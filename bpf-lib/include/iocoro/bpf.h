/* SPDX-License-Identifier: (LGPL-2.1 OR MIT) */
/*
 * iocoro's BPF side: what a .bpf.c file of an iocoro application includes.
 *
 *   #include <iocoro/bpf.h>
 *
 * gives the uapi (the patched linux/io_uring.h, linux/bpf.h), libbpf's
 * bpf_helpers.h (SEC(), maps, the stock helpers), and
 *
 *   iocoro/coro_ops.h    struct io_coro_step (a step's context),
 *                        struct io_coro_ops and the bpf_io_coro_* kfuncs
 *   iocoro/bpf_prep.h    io_uring_prep_*() for SQEs built in BPF
 *   iocoro/bpf_ctx.h     iocoro_ctx_*(): the completion a step runs for
 *   iocoro/bpf_coro.h    coroutines: iocoro_await(), iocoro_finish(),
 *                        IOCORO_COROUTINE() and friends
 *   iocoro/user_data.h   user_data layout shared with user space
 *
 * Steps are struct_ops programs of struct io_coro_ops, each with an
 * io_coro_ops map of its own (IOCORO_COROUTINE() writes both); libiocoro
 * attaches each to a ring as a coroutine kind by a bpf_link when it loads
 * the object (iocoro_skel_load(), iocoro_attach_object()).
 */
#ifndef IOCORO_BPF_H
#define IOCORO_BPF_H

#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/io_uring.h>
#include <linux/errno.h>
#include <bpf/bpf_helpers.h>

#include <iocoro/user_data.h>
#include <iocoro/bpf_prep.h>
#include <iocoro/bpf_ctx.h>
#include <iocoro/bpf_coro.h>

_Static_assert(sizeof(struct io_uring_sqe) == 64,
	       "iocoro's programs queue 64-byte SQEs (no IORING_SETUP_SQE128)");

#endif /* IOCORO_BPF_H */
