/* SPDX-License-Identifier: (LGPL-2.1 OR MIT) */
/*
 * iocoro's BPF side: what a .bpf.c file of an iocoro application includes.
 *
 *   #include <iocoro/bpf.h>
 *
 * gives the patched uapi (linux/bpf.h, linux/io_uring.h), libbpf's
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
 *
 * Defined before this header, IOCORO_BPF_V5 gives the program-table
 * interface instead (BPF_PROG_TYPE_IOURING in SEC("iouring"), the
 * bpf_io_uring_* helpers generated from the patched uapi, struct
 * io_uring_step_ctx): only the kernel tests of that interface use it,
 * until the series drops it.
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

#ifdef IOCORO_BPF_V5
#include <iocoro/bpf_io_uring_helpers.h>
/*
 * The generated ids must be the ones of the linux/bpf.h this program is
 * compiled against, and the ctx must have the layout the accessors and
 * the kernel's verifier agree on: fails the build otherwise.
 */
_Static_assert(IOCORO_BPF_FUNC_io_uring_queue_sqe == BPF_FUNC_io_uring_queue_sqe,
	       "iocoro/bpf_io_uring_helpers.h was generated from another linux/bpf.h");
_Static_assert(IOCORO_BPF_FUNC_io_uring_emit_cqe == BPF_FUNC_io_uring_emit_cqe,
	       "iocoro/bpf_io_uring_helpers.h was generated from another linux/bpf.h");
_Static_assert(IOCORO_BPF_FUNC_io_uring_queue_sqe_cont ==
		       BPF_FUNC_io_uring_queue_sqe_cont,
	       "iocoro/bpf_io_uring_helpers.h was generated from another linux/bpf.h");
_Static_assert(IOCORO_BPF_FUNC_io_uring_post_result ==
		       BPF_FUNC_io_uring_post_result,
	       "iocoro/bpf_io_uring_helpers.h was generated from another linux/bpf.h");
_Static_assert(sizeof(struct io_uring_step_ctx) == 32 &&
	       __builtin_offsetof(struct io_uring_step_ctx, user_data) == 0 &&
	       __builtin_offsetof(struct io_uring_step_ctx, prev_user_data) == 8 &&
	       __builtin_offsetof(struct io_uring_step_ctx, prev_res) == 16 &&
	       __builtin_offsetof(struct io_uring_step_ctx, prev_flags) == 20 &&
	       __builtin_offsetof(struct io_uring_step_ctx, has_prev) == 24,
	       "struct io_uring_step_ctx differs from the layout iocoro knows");
#endif
_Static_assert(sizeof(struct io_uring_sqe) == 64,
	       "iocoro's programs queue 64-byte SQEs (no IORING_SETUP_SQE128)");

#endif /* IOCORO_BPF_H */
