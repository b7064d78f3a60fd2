/* SPDX-License-Identifier: MIT */
/*
 * The steps that guest suites of several features share (library
 * iocoro_guestkinds), each a struct io_coro_ops program of kinds.bpf.c
 * (kinds.skel.h) that a case attaches to a ring as a coroutine kind
 * (uring_attach() of start.h); with privs.h's helpers:
 *
 *   qbatch       queues the batch of SQEs user space wrote for it (qb_*())
 *   whoami       records bpf_get_current_uid_gid(), then queues batch 0
 *   tag_a, tag_b mark which of two programs a kind ran
 *   emit_flood   loops over bpf_io_coro_emit_cqe()
 *   tick         a coroutine that waits forever: a TIMEOUT or NOP that
 *                continues at a kind, whatever it saw
 *   budget_step  a coroutine that wants to go on forever: starts of its
 *                own kind until its budget refuses one (-ELOOP)
 *
 * The files that use them: permissions/ (all), abi/
 * (queue_budget.c, queue_sqe.c, queue_failslab.c, reattach.c, drain.c),
 * chain/ (emit_cap.c), scheduling/ (starvation.c).
 */
#ifndef IOCORO_TESTS_KINDS_H
#define IOCORO_TESTS_KINDS_H

#include "guest.h"

#include <linux/capability.h>

#include <grp.h>
#include <sys/mount.h>
#include <sys/socket.h>

#include "bpf_insn.h"
#include "privs.h"
#include "kinds.skel.h"

#include "kinds_progs.h" /* shared with kinds.bpf.c */

/* the user_data of the cases' requests */
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

/* ---- kinds.bpf.c */

/* kinds.bpf.c opened and loaded */
struct kinds_bpf *kinds_load(void);
/* entry @i of qbatch's batch @b is @sqe; the batch has i + 1 entries */
void qb_put(struct kinds_bpf *skel, unsigned int b, unsigned int i,
	    const struct io_uring_sqe *sqe);
void qb_nop(struct kinds_bpf *skel, unsigned int b, unsigned int i,
	    __u8 flags, __u64 ud);
void qb_read(struct kinds_bpf *skel, unsigned int b, unsigned int i,
	     int fd, void *buf, unsigned int len, __u8 flags, __u64 ud);
/* every queue_sqe() of batch @b returned 0 */
void qb_check_queued(struct kinds_bpf *skel, unsigned int b);
/* a start of qbatch (K_MAIN) for batch @b, user_data UD_BPF | @b */
struct io_uring_sqe *prep_qbatch(struct io_uring *ring, unsigned int b);

#endif
