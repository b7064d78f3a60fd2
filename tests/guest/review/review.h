/* SPDX-License-Identifier: MIT */
/*
 * The review suite (tests/lib/case.h): one file per finding of the review
 * of kernel series v4 (issue 21, section 3), each a case that failed on v4,
 * its steps struct io_coro_ops programs attached to rings as coroutine
 * kinds:
 *
 *   tailcall.c   1: a non-sleepable step tail-calls a sleepable one
 *   drain.c      2: IOSQE_IO_DRAIN after a step's SQEs hung the ring
 *   owner.c      3: any task's io_uring_enter() reset the pass of another
 *   fifo.c       4: parked steps were overtaken by newer ones
 *   sync_cancel.c 5: IORING_REGISTER_SYNC_CANCEL slept to its timeout
 *   audit.c      6: a step ran inside IORING_OP_BPF's audit bracket
 *   restart.c    7: -ERESTART* results reached user space
 *   cancel.c     8: steps due to run could not be cancelled
 *   emit_flags.c 9: bpf_io_coro_emit_cqe() passed any CQE flags
 *   abi.c        10: opcode numbers upstream gives to other things
 *   lost_end.c   a run's 256 CQEs took its coroutine's end
 *
 * A finding whose steps are its own keeps them beside it (x.c and
 * x.bpf.c, x.skel.h; tailcall.c has tailcall_sleepy.bpf.c too, a step
 * that must not load). The first include of every file of the suite.
 */
#ifndef IOCORO_TESTS_REVIEW_H
#define IOCORO_TESTS_REVIEW_H

#define _GNU_SOURCE
#include <iocoro.h> /* before liburing.h: the patched uapi wins */
#include <liburing.h>

#include <linux/bpf.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "case.h"
#include "check.h"
#include "uring_bpf.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* io_uring_enter(2), raw: its result or -errno */
static inline int rv_enter(struct io_uring *ring, unsigned int to_submit,
			   unsigned int min_complete, unsigned int flags)
{
	long ret = syscall(__NR_io_uring_enter, ring->ring_fd, to_submit,
			   min_complete, flags, NULL, 0);

	return ret < 0 ? -errno : (int)ret;
}

/*
 * @co's ring, set up as uring_init() does with @flags only (none of
 * iocoro_queue_init()'s): the findings are about rings as io_uring makes
 * them. iocoro_kind_attach() needs no more of @co than its ring.
 */
static inline void rv_ring(struct iocoro *co, unsigned int entries,
			   unsigned int flags)
{
	memset(co, 0, sizeof(*co));
	uring_init(&co->ring, entries, flags);
}

/* @step attached to @co's ring as kind @kind: the bpf_link's fd */
static inline int rv_kind(struct iocoro *co, const struct bpf_program *step,
			  unsigned int kind)
{
	return CHECK_RET(iocoro_kind_attach(co, step, kind));
}

/*
 * An IORING_OP_BPF that starts a coroutine at @kind, user_data @ud, with
 * the kernel's default budget (sqe->len 0), not yet submitted
 */
static inline struct io_uring_sqe *rv_prep_start(struct io_uring *ring,
						 unsigned int kind, __u64 ud)
{
	struct io_uring_sqe *sqe = uring_sqe(ring);

	iocoro_prep_kind(sqe, kind);
	sqe->user_data = ud;
	return sqe;
}

/*
 * rv_prep_start() of a chain that runs for the whole case: the largest
 * budget (sqe->len), its own CQE skipped
 */
static inline void rv_prep_chain(struct io_uring *ring, unsigned int kind,
				 __u64 ud)
{
	struct io_uring_sqe *sqe = rv_prep_start(ring, kind, ud);

	sqe->len = IORING_BPF_MAX_BUDGET;
	sqe->flags = IOSQE_CQE_SKIP_SUCCESS;
}

/* the kinds owner.c and fifo.c attach owner.bpf.c's steps as */
enum { RV_K_BUSY, RV_K_TICK, RV_K_FRESH };

/* ms since @t0 (uring_now_ns()) */
static inline double rv_ms_since(uint64_t t0)
{
	return (double)(uring_now_ns() - t0) / 1e6;
}

#endif
