/* SPDX-License-Identifier: MIT */
/*
 * Guest tests of the series' hardening (issue 8): each case proves one fix,
 * through coroutine kinds (struct io_coro_ops steps attached by bpf_link).
 *
 *   sqe_lifetime     1: a linked IORING_OP_URING_CMD (GETSOCKOPT SO_TYPE)
 *                    queued by a step reads its own SQE, not the one the
 *                    next step wrote to the ring's SQE buffer, nor freed
 *                    memory after its kind's link was destroyed (KASAN)
 *   personality      2: an OPENAT queued by a step of a coroutine started
 *                    with sqe->personality P gets P's -EACCES, as the same
 *                    OPENAT from user space with P does; the step sees P's
 *                    uid/gid (bpf_get_current_uid_gid())
 *   personality_queued  a queued SQE that names a personality, a stronger
 *                    one or its request's own, is refused (-EINVAL)
 *   owner            3: a task that inherited the ring fd but is neither
 *                    the kind's attacher (its euid) nor CAP_BPF gets -EPERM
 *                    for a start (with or without a budget; the step does
 *                    not run), cannot reach the kind's link or map by id,
 *                    attach, take or replace a kind (-EPERM); the same
 *                    euid without capabilities may start, and still not
 *                    attach or replace
 *   reattach         4: a start waiting in a link whose kind's link is
 *                    destroyed completes with -EBADF, its step not run;
 *                    BPF_LINK_UPDATE, or a new link of the kind, while it
 *                    waits runs the kind's program then attached
 *   retval_pointer   5: a step returning a pointer in R0 does not load
 *                    (-EINVAL, "At program exit the register R0 is not a
 *                    known value"); 32-bit and 64-bit scalars and a kfunc's
 *                    result still do, and complete the start
 *   emit_cap         7: one step looping over bpf_io_coro_emit_cqe() 1<<16
 *                    times posts IORING_BPF_MAX_CQES CQEs, the rest are
 *                    -EBUSY
 *   starvation       8: 120 endless coroutines of 10 ms TIMEOUTs, each
 *                    continuing at its own kind: a 100 ms
 *                    io_uring_wait_cqe_timeout() returns -ETIME in < 200 ms;
 *                    so do the submit and waits of a task with 4 coroutines
 *                    that never wait (NOP continuations)
 *   starvation_defer 8: the same on an IORING_SETUP_DEFER_TASKRUN ring
 *   stop             8: with 500 such coroutines, or 4 that never wait,
 *                    SIGSTOP stops the task within 1 s, it runs no step
 *                    while stopped, SIGCONT continues and SIGKILL ends it;
 *                    normal and DEFER_TASKRUN rings
 *   dropped_batch    9: when requests cannot be allocated (failslab) midway
 *                    through a step's batch of 24 NOPs, every NOP gets
 *                    exactly one CQE, -ENOMEM from the first failed one on
 *   budget_queue    10: bpf_io_coro_queue_sqe() refuses (-ELOOP) an
 *                    IORING_OP_BPF start the coroutine's budget (its
 *                    start's sqe->len) cannot pay for, so the step finishes
 *                    cleanly with its own result
 *   budget_start    10: only a start from user space names a budget: above
 *                    IORING_BPF_MAX_BUDGET it fails (-EINVAL); a start a
 *                    step queues that names one fails (-EINVAL), without
 *                    it runs on its coroutine's budget, -ELOOP when none
 *                    is left
 *
 * (6, drain, is review/drain.c: rings with kinds refuse IOSQE_IO_DRAIN.)
 *
 * Usage: hardening_test <case> | --list   (tests/lib/case.h)
 *
 * One file per item (x.c), the helpers they share in hardening.c. Every
 * case asserts exact values and fails on the first mismatch; none
 * skips. Cases that measure print their numbers on stdout. The only timed
 * bounds are item 8's (wait < 2x its timeout, stop within 1 s); the other
 * time limits only keep a broken kernel from hanging the test. The
 * steps are in hardening.bpf.c, retval_pointer's are raw instructions.
 */
#ifndef IOCORO_TESTS_HARDENING_H
#define IOCORO_TESTS_HARDENING_H

#define _GNU_SOURCE
/* iocoro.h first: liburing's own io_uring.h would hide the patched uapi */
#include <iocoro.h>
#include <liburing.h>

#include <linux/bpf.h>
#include <linux/capability.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf_insn.h"
#include "case.h"
#include "check.h"
#include "uring_bpf.h"
#include "start.h"
#include "hardening.skel.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#include "hardening_progs.h" /* shared with hardening.bpf.c */

#define UD_BPF 0xb0f0000000000000ULL /* | batch (qbatch) */
#define UD_READ 0x4ead000000000001ULL
#define UD_READ2 0x4ead000000000002ULL
#define UD_CMD1 0xc0d0000000000001ULL
#define UD_CMD2 0xc0d0000000000002ULL
#define UD_NOP 0x0e0f000000000000ULL /* + i */
#define UD_OPEN 0x0be0000000000001ULL
#define UD_OPEN2 0x0be0000000000002ULL
#define UD_EMIT 0xe0e0000000000000ULL /* + i */
#define UD_TIMEOUT 0x7100000000000000ULL
#define UD_BQ 0xb9b9000000000000ULL /* low 16 bits: depth, child */

/* a guest-side bound for "must come back", not a measurement */
#define LIVE_BOUND_MS 30000

/* capabilities, all three sets */
struct caps {
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
};

/* the user nobody has no capabilities and owns nothing here */
#define NOBODY 65534

/* ---- helpers (hardening.c) */

struct hardening_bpf *skel_load(void);
void ring_init(struct iocoro *co, unsigned int entries, unsigned int flags);
void ring_init_params(struct iocoro *co, unsigned int entries,
		      struct io_uring_params *p);
int attach_kind(struct iocoro *co, const struct bpf_program *prog,
		unsigned int kind);
void qb_put(struct hardening_bpf *skel, unsigned int b, unsigned int i,
	    const struct io_uring_sqe *sqe);
void qb_nop(struct hardening_bpf *skel, unsigned int b, unsigned int i,
	    __u8 flags, __u64 ud);
void qb_read(struct hardening_bpf *skel, unsigned int b, unsigned int i,
	     int fd, void *buf, unsigned int len, __u8 flags, __u64 ud);
void qb_check_queued(struct hardening_bpf *skel, unsigned int b);
struct io_uring_sqe *prep_qbatch(struct io_uring *ring, unsigned int b);
double ms_since(uint64_t t0);
int enter(struct io_uring *ring, unsigned int to_submit,
	  unsigned int min_complete, unsigned int flags);
void caps_get(struct caps *c);
void caps_set(const struct caps *c);
bool caps_effective_empty(void);
void become_nobody(void);

#endif
