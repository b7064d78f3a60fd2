/* SPDX-License-Identifier: MIT */
/*
 * A coroutine's start, for the guest tests that link libiocoro: the one
 * place they prepare IORING_OP_BPF, through iocoro_prep_kind().
 */
#ifndef IOCORO_TESTS_START_H
#define IOCORO_TESTS_START_H

#include <iocoro.h> /* before liburing.h: the patched uapi wins */

#include "uring_bpf.h"

/*
 * a zeroed SQE of @ring that starts kind @kind with the default budget,
 * user_data @ud
 */
static inline struct io_uring_sqe *uring_prep_start(struct io_uring *ring,
						    unsigned int kind,
						    __u64 ud)
{
	struct io_uring_sqe *sqe = uring_sqe(ring);

	iocoro_prep_kind(sqe, kind);
	sqe->user_data = ud;
	return sqe;
}

#endif
