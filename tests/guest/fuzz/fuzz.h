/* SPDX-License-Identifier: MIT */
/* What fuzz.bpf.c and fuzz_test.c share: the programs' plans. */
#ifndef IOCORO_TESTS_FUZZ_H
#define IOCORO_TESTS_FUZZ_H

#include <linux/types.h>

#define FZ_SLOTS 64	/* SQE slots of 128 bytes, power of 2 */
#define FZ_PLANS 16	/* power of 2 */
#define FZ_MAX_Q 40	/* SQEs a plan may queue: past IORING_BPF_MAX_SQES */
#define FZ_MAX_E 272	/* CQEs a plan may post: past IORING_BPF_MAX_CQES */

/*
 * One run: nq SQEs from slot first on, sized by len_kind (0: 64, 1: 128,
 * 2: 32, 3: the ring's), then ne CQEs (cqe_ud + i, cqe_res, cqe_flags);
 * the result is ret. The sleepable program first copies 64 bytes from
 * copy_addr.
 */
struct fz_plan {
	__u32 nq;
	__u32 first;
	__u32 len_kind;
	__u32 ne;
	__s32 ret;
	__s32 cqe_res;
	__u64 cqe_ud;
	__u32 cqe_flags;
	__u32 pad;
	__u64 copy_addr;
};

#endif
