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
 * uring_co_init() of @entries and @flags, then uring_attach() of @step as
 * kind @kind: the bpf_link's fd
 */
static inline int uring_co_attach(struct iocoro *co, unsigned int entries,
				  unsigned int flags,
				  const struct bpf_program *step,
				  unsigned int kind)
{
	uring_co_init(co, entries, flags);
	return uring_attach(co, step, kind);
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

/*
 * uring_prep_start() of kind @kind, user_data @ud, submitted alone; then
 * exactly @n CQEs in @cqes (uring_reap())
 */
static inline void uring_start_reap(struct io_uring *ring, unsigned int kind,
				    __u64 ud, struct io_uring_cqe *cqes,
				    unsigned int n)
{
	uring_prep_start(ring, kind, ud);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, n);
}

/*
 * The one SQE prepared (user_data @ud) submitted; its CQE, the only one,
 * has no flags: its res
 */
static inline int uring_submit_res(struct io_uring *ring, __u64 ud)
{
	struct io_uring_cqe cqe;

	uring_submit(ring, 1);
	uring_reap(ring, &cqe, 1);
	CHECK_EQ_U64(cqe.user_data, ud);
	CHECK_EQ(cqe.flags, 0);
	return cqe.res;
}

/*
 * A start of kind @kind, user_data @ud and budget @len (sqe->len; 0: the
 * default), submitted alone: uring_submit_res()
 */
static inline int uring_start_res(struct io_uring *ring, unsigned int kind,
				  __u64 ud, unsigned int len)
{
	uring_prep_start(ring, kind, ud)->len = len;
	return uring_submit_res(ring, ud);
}

/*
 * @cqes of a step that posted @n CQEs by bpf_io_coro_emit_cqe(), the i-th
 * user_data @ud + i and res i, each without flags, then its start's CQE,
 * user_data @start_ud and res @n; else all @n + 1 are printed and the
 * test fails
 */
static inline void uring_expect_emitted(const struct io_uring_cqe *cqes,
					unsigned int n, __u64 ud,
					__u64 start_ud)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (cqes[i].user_data != ud + i || cqes[i].res != (int)i ||
		    cqes[i].flags)
			uring_dump_cqes(cqes, n + 1);
		CHECK_CQE(&cqes[i], ud + i, i);
		CHECK_EQ(cqes[i].flags, 0);
	}
	if (cqes[n].user_data != start_ud || cqes[n].res != (int)n ||
	    cqes[n].flags)
		uring_dump_cqes(cqes, n + 1);
	CHECK_CQE(&cqes[n], start_ud, n);
	CHECK_EQ(cqes[n].flags, 0);
}

#endif
