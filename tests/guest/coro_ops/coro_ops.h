/* SPDX-License-Identifier: MIT */
/*
 * Suite coro_ops: coroutine steps as struct io_coro_ops attached by
 * bpf_link (kernel patches 0004 to 0014). One file per feature: step.c
 * (the step's context and kfuncs), first.c (a first operation user space
 * submits with its step), link.c (attach, update, destroy, rings
 * and links going in either order), churn.c (all that under load),
 * orphan.c (a continuation whose kind went), buf.c (a registered buffer
 * read without a copy), and io_uring's completion
 * rules for requests that carry a step: posts_more.c (multishot and
 * notification requests), overflow.c (a CQ never reaped), never_issued.c
 * (link members a failure cancelled), notify.c (left-over steps do not
 * interrupt a COOP_TASKRUN ring's task), completed.c (an operation that
 * completed is not lost while its step waits).
 * Shared by coro_ops.bpf.c and the tests.
 */
#ifndef IOCORO_TESTS_CORO_OPS_H
#define IOCORO_TESTS_CORO_OPS_H

#include <linux/types.h>

/* the kinds the tests attach the programs as */
enum {
	K_START = 0,
	K_SEEN = 1,
	K_READ_START = 2,
	K_SLEEPY = 3,
	K_SPIN = 4,
	K_TMPL = 5,
	K_EMITTER = 6,
	K_FIXED_START = 7,
	K_PEEK = 8,
};

#define UD_START	0x5100ULL
#define UD_NOP		0x5200ULL
#define UD_EMIT		0x5300ULL
#define UD_READ		0x5400ULL
#define UD_SPIN_END	0x5500ULL

struct co_seen {
	__u64 runs;
	__u64 user_data;
	__u64 res_user_data;
	__s32 res;
	__u32 cqe_flags;
	__u32 has_res;
	__u32 kind;
	__s32 emit_rc;
	__u32 pad;
};

#ifndef __bpf__
/* iocoro.h first: liburing's own io_uring.h would hide the patched uapi */
#include <iocoro.h>
#include <liburing.h>

#include "case.h"
#include "check.h"
#include "uring_bpf.h"
#include "coro_ops.skel.h"

/* coro_ops.bpf.c opened, sleepy made sleepable, loaded */
struct coro_ops_bpf *co_load(void);
/* @co set up as iocoro_queue_init() does, @entries deep */
void co_ring(struct iocoro *co, unsigned int entries);
/* co_load(), and @co set up 8 deep: the skeleton */
struct coro_ops_bpf *co_up(struct iocoro *co);
/* @co's ring exited and @skel destroyed */
void co_down(struct iocoro *co, struct coro_ops_bpf *skel);
/* attach @prog as @kind on @co: the link fd */
int co_attach(struct iocoro *co, struct bpf_program *prog, unsigned int kind);
/*
 * attach start as K_START and seen_step as K_SEEN on @co: K_SEEN's link
 * fd; K_START's in *@start_link unless that is NULL
 */
int co_start_seen(struct iocoro *co, struct coro_ops_bpf *skel,
		  int *start_link);
/* submit an IORING_OP_BPF start of @kind, user_data @ud */
void co_start(struct iocoro *co, unsigned int kind, __u64 ud);
/* start @nr K_SPIN coroutines, ids 0..nr-1 in user_data's top half */
void co_start_spin(struct iocoro *co, unsigned int nr);
#endif

#endif
