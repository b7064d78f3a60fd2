/* SPDX-License-Identifier: MIT */
/* What fuzz.bpf.c and the suite's C files share: the steps' plans. */
#ifndef IOCORO_TESTS_FUZZ_H
#define IOCORO_TESTS_FUZZ_H

#include <linux/types.h>

#define FZ_SLOTS 64	/* SQE slots of 128 bytes, power of 2 */
#define FZ_PLANS 16	/* power of 2 */
#define FZ_MAX_Q 40	/* SQEs a plan may queue: past IORING_BPF_MAX_SQES */
#define FZ_MAX_E 272	/* CQEs a plan may post: past IORING_BPF_MAX_CQES */
#define FZ_MAX_POST 4	/* results a plan may post (post_result()) */
#define FZ_CONT_KINDS 4	/* kinds a plan's continuations use */

/*
 * One run of a step: nq SQEs from slot first on, of (sqe_len & 127) + 1
 * bytes (the ring's SQE size mostly), the i-th with
 * bpf_io_coro_queue_sqe_cont() and kind cont_kind[i % FZ_CONT_KINDS] if
 * bit i % 32 of cont_mask is set, else with bpf_io_coro_queue_sqe(); then
 * ne CQEs (cqe_ud + i, cqe_res, cqe_flags) with bpf_io_coro_emit_cqe();
 * then post_nr (at most FZ_MAX_POST) calls of bpf_io_coro_post_result()
 * with post_ud + i; the result is ret. The sleepable step first copies 64
 * bytes from copy_addr.
 */
struct fz_plan {
	__u32 nq;
	__u32 first;
	__u32 sqe_len;
	__u32 ne;
	__s32 ret;
	__s32 cqe_res;
	__u64 cqe_ud;
	__u32 cqe_flags;
	__u32 cont_mask;
	__u32 cont_kind[FZ_CONT_KINDS];
	__u32 post_nr;
	__u32 pad;
	__u64 post_ud;
	__u64 copy_addr;
};

/*
 * ABI rules the steps check on every kfunc call; a broken one counts in
 * fz_bad[] and fails the test
 */
enum {
	FZ_BAD_LEN,		/* a queue of the wrong SQE size worked */
	FZ_BAD_CONT_BPF,	/* queue_sqe_cont() of IORING_OP_BPF worked */
	FZ_BAD_CONT_KIND,	/* queue_sqe_cont() of kind >= 64 worked */
	FZ_BAD_MAX_SQES,	/* more than IORING_BPF_MAX_SQES queued */
	FZ_BAD_EMIT_FLAGS,	/* emit_cqe() with flags but F_MORE worked */
	FZ_BAD_MAX_CQES,	/* more than IORING_BPF_MAX_CQES posted */
	FZ_BAD_POST,		/* post_result() returned non-zero */
	FZ_BAD_PERSONALITY,	/* a queued SQE with a personality worked */
	FZ_BAD_NR
};

#endif
