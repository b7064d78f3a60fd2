/* SPDX-License-Identifier: MIT */
/*
 * A coroutine's start and the ring it runs on, for the guest tests that
 * link libiocoro: the one place they prepare IORING_OP_BPF, through
 * iocoro_prep_kind().
 */
#ifndef IOCORO_TESTS_START_H
#define IOCORO_TESTS_START_H

#include <iocoro.h> /* before liburing.h: the patched uapi wins */

#include <string.h>

#include "check.h"
#include "uring_bpf.h"

/*
 * @co a ring of exactly @flags, @entries deep: a ring as io_uring makes
 * it, without the COOP_TASKRUN that iocoro_queue_init() adds. Kinds attach
 * to it by its fd (uring_attach()); io_uring_queue_exit(&co->ring) closes
 * it.
 */
static inline void uring_co_init(struct iocoro *co, unsigned int entries,
				 unsigned int flags)
{
	memset(co, 0, sizeof(*co));
	uring_init(&co->ring, entries, flags);
}

static inline void uring_co_init_params(struct iocoro *co,
					unsigned int entries,
					struct io_uring_params *p)
{
	memset(co, 0, sizeof(*co));
	uring_init_params(&co->ring, entries, p);
}

/* @step attached to @co's ring as kind @kind: the bpf_link's fd */
static inline int uring_attach(struct iocoro *co,
			       const struct bpf_program *step,
			       unsigned int kind)
{
	return CHECK_RET(iocoro_kind_attach(co, step, kind));
}

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

/*
 * uring_prep_start() of a coroutine that runs for the whole case: the
 * largest budget (sqe->len), its own CQE skipped
 */
static inline void uring_prep_chain(struct io_uring *ring, unsigned int kind,
				    __u64 ud)
{
	struct io_uring_sqe *sqe = uring_prep_start(ring, kind, ud);

	sqe->len = IORING_BPF_MAX_BUDGET;
	sqe->flags = IOSQE_CQE_SKIP_SUCCESS;
}

#endif
