/* SPDX-License-Identifier: MIT */
/*
 * Guest tests of the series' hardening (issue 8): each case proves one fix
 * and fails on the series before it (v2).
 *
 *   sqe_lifetime     1: a linked IORING_OP_URING_CMD (GETSOCKOPT SO_TYPE)
 *                    queued by a program reads its own SQE, not the one the
 *                    next run wrote to the table's SQE buffer (v2: it read
 *                    the other run's SQE) nor freed memory after a detach
 *                    (v2: use-after-free, KASAN)
 *   personality      2: an OPENAT queued by a program run with
 *                    sqe->personality P gets P's -EACCES, as the same OPENAT
 *                    from user space with P does; the program sees P's
 *                    uid/gid (v2: the task's own credentials, the open works)
 *   personality_queued  a queued SQE that names a personality, a stronger
 *                    one or its request's own, is refused (-EINVAL; v5
 *                    ran it with the one it named)
 *   owner            3: a task that inherited the ring fd but is neither the
 *                    attacher's euid nor CAP_BPF gets -EPERM for the budget,
 *                    detach and IORING_OP_BPF (program not run); the same
 *                    euid without capabilities may (v2: anyone could)
 *   reattach         4: a step prepared against a detached table completes
 *                    with -EBADF, also when another table is attached now
 *                    (v2: the new table's program at that index ran)
 *   retval_pointer   5: a program returning a pointer in R0 does not load
 *                    (-EINVAL, "At program exit the register R0 is not a
 *                    known value"); 32-bit scalars still do (v2: loaded)
 *   (6, drain, is review/drain.c since series v5: rings with programs
 *   refuse IOSQE_IO_DRAIN)
 *   emit_cap         7: one run looping over bpf_io_uring_emit_cqe() 1<<16
 *                    times posts IORING_BPF_MAX_CQES CQEs, the rest are
 *                    -EBUSY (v2: it posted all 65536)
 *   starvation       8: 120 endless chains of 10 ms TIMEOUT -> BPF: a 100 ms
 *                    io_uring_wait_cqe_timeout() returns -ETIME in < 200 ms
 *                    (v2: seconds, task_work never ended); so do the
 *                    submit and waits of a task with 4 chains that never
 *                    wait (NOP -> BPF; v2: never)
 *   starvation_defer 8: the same on an IORING_SETUP_DEFER_TASKRUN ring (v2:
 *                    the local-work loop of the busy chains never ended)
 *   stop             8: with 500 such chains, or 4 that never wait, SIGSTOP
 *                    stops the task within 1 s, it runs no step while
 *                    stopped, SIGCONT continues and SIGKILL ends it; normal
 *                    and DEFER_TASKRUN rings (v2: not stopped after 10 s)
 *   dropped_batch    9: when requests cannot be allocated (failslab) midway
 *                    through a run's batch of 24 NOPs, every NOP gets
 *                    exactly one CQE, -ENOMEM from the first failed one on
 *                    (v2: those after the failure got no CQE)
 *   budget_queue    10: queue_sqe() refuses (-ELOOP) an IORING_OP_BPF SQE
 *                    the budget cannot pay for, so the program finishes
 *                    cleanly with its own result (v2: the step was queued
 *                    and then failed with -ELOOP after the work was done)
 *   register_gap    issue 14: io_uring_register opcodes 31..127 (later
 *                    kernels' SEND_MSG_RING ...) are -EINVAL whatever the
 *                    fd; the BPF opcodes are 128..130 (v2: 31..33, -EBADF)
 *
 * Usage: hardening_test <case> | --list   (tests/lib/case.h)
 *
 * One file per item (x.c), the helpers they share in hardening.c. Every
 * case asserts exact values and fails on the first mismatch; none
 * skips. Cases that measure print their numbers on stdout. The only timed
 * bounds are item 8's (wait < 2x its timeout, stop within 1 s); the other
 * time limits only keep a broken kernel from hanging the test. The
 * programs are in hardening.bpf.c.
 */
#ifndef IOCORO_TESTS_HARDENING_H
#define IOCORO_TESTS_HARDENING_H

#define _GNU_SOURCE
#include <linux/io_uring.h> /* before liburing.h: the patched uapi wins */
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
#include "hardening.skel.h"

/* the ABI of series v5 (issue 21), as the patched uapi headers define it */
_Static_assert(IORING_ATTACH_BPF == 128, "IORING_ATTACH_BPF is 128");
_Static_assert(IORING_DETACH_BPF == 129, "IORING_DETACH_BPF is 129");
_Static_assert(IORING_REGISTER_BPF_BUDGET == 130,
	       "IORING_REGISTER_BPF_BUDGET is 130");
_Static_assert(IORING_OP_BPF == 128, "IORING_OP_BPF is 128");

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

struct hardening_bpf *skel_load_opt(bool whoami);
struct hardening_bpf *skel_load(void);
void attach1(struct io_uring *ring, const struct bpf_program *prog);
void qb_put(struct hardening_bpf *skel, unsigned int b, unsigned int i,
		   const struct io_uring_sqe *sqe);
void qb_nop(struct hardening_bpf *skel, unsigned int b, unsigned int i,
		   __u8 flags, __u64 ud);
void qb_read(struct hardening_bpf *skel, unsigned int b,
		    unsigned int i, int fd, void *buf, unsigned int len,
		    __u8 flags, __u64 ud);
void qb_check_queued(struct hardening_bpf *skel, unsigned int b);
struct io_uring_sqe *prep_qbatch(struct io_uring *ring, unsigned int b);
void check_fdinfo_line(struct io_uring *ring, const char *line);
void check_fdinfo_budget(struct io_uring *ring, unsigned int budget);
double ms_since(uint64_t t0);
int enter(struct io_uring *ring, unsigned int to_submit,
		 unsigned int min_complete, unsigned int flags);
void caps_get(struct caps *c);
void caps_set(const struct caps *c);
bool caps_effective_empty(void);
void become_nobody(void);

#endif
