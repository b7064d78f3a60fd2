/* SPDX-License-Identifier: MIT */
/*
 * The chain suite (tests/lib/case.h): guest tests of the kernel series'
 * "decisions in the kernel" patches, one file per feature:
 *
 *   nop_chain.c  a coroutine of 10,000 NOP steps (0004, 0006)
 *   sleepable.c  a read, then a sleepable step: 0004 the previous
 *                completion in struct io_uring_step_ctx, 0014 and 0015
 *                sleepable programs and bpf_copy_from_user()
 *   failed_op.c  a failed op, then a step (0004)
 *   emit.c       0008 bpf_io_uring_emit_cqe()
 *   budget.c     0006, 0011 the step budget (IORING_REGISTER_BPF_BUDGET)
 *   teardown.c   0007, 0012 fatal signals; teardown under load
 *   scale.c      teardown of 100,000 coroutines in flight
 *   cont_link.c  0009 a request with a continuation at the head of a link
 *   verifier.c   the context and helpers the verifier allows
 *   retval.c     0004 the program's return value is the IORING_OP_BPF
 *                request's result
 *
 * One ctest test chain_<case> per IOCORO_CASE. Every case asserts exact
 * values and fails on the first mismatch; none skips. The programs that
 * several files use are in chain.bpf.c (chain.skel.h, attached by
 * attach_all()); a feature whose programs are its own has them in its own
 * object, x.c beside x.bpf.c (x.skel.h, attached by uring_attach_object()),
 * as emit.c and emit.bpf.c, sleepable.c and sleepable.bpf.c. The constants both sides use are in
 * chain_progs.h. Cases that
 * measure (nop_chain, teardown_*) print their numbers on stdout; nothing
 * asserts on time but the teardown bound (TEARDOWN_BOUND_MS).
 *
 * The first include of every file of the suite.
 */
#ifndef IOCORO_TESTS_CHAIN_H
#define IOCORO_TESTS_CHAIN_H

#define _GNU_SOURCE
#include <linux/io_uring.h> /* before liburing.h: the patched uapi wins */
#include <liburing.h>

#include <linux/bpf.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf_insn.h"
#include "case.h"
#include "check.h"
#include "uring_bpf.h"
#include "chain.skel.h"

/* the ABI of patches 0006-0015, as the patched uapi headers define it */
_Static_assert(BPF_FUNC_io_uring_emit_cqe == 213,
	       "bpf_io_uring_emit_cqe is helper 213");
_Static_assert(IORING_REGISTER_BPF_BUDGET == 130,
	       "IORING_REGISTER_BPF_BUDGET is 130");
_Static_assert(sizeof(struct io_uring_step_ctx) == 32,
	       "struct io_uring_step_ctx is 32 bytes");
_Static_assert(offsetof(struct io_uring_step_ctx, user_data) == 0, "layout");
_Static_assert(offsetof(struct io_uring_step_ctx, prev_user_data) == 8,
	       "layout");
_Static_assert(offsetof(struct io_uring_step_ctx, prev_res) == 16, "layout");
_Static_assert(offsetof(struct io_uring_step_ctx, prev_flags) == 20, "layout");
_Static_assert(offsetof(struct io_uring_step_ctx, has_prev) == 24, "layout");
_Static_assert(offsetof(struct io_uring_step_ctx, resv) == 28, "layout");

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* the uapi's limits of patches 0006 and 0011 */
#define DEFAULT_BUDGET IORING_BPF_DEFAULT_BUDGET
#define MAX_BUDGET IORING_BPF_MAX_BUDGET

#include "chain_progs.h" /* RC_LEN, EM_MAX, ..., shared with chain.bpf.c */

/* the programs' indices in the table attach_all() attaches */
enum {
	P_NOP_CHAIN,
	P_FAIL_ABORT,
	P_FAN,
	P_TICK,
	P_RET_VAL,
	P_NR
};

#define UD_BPF 0xb0f0000000000001ULL
#define UD_BPF2 0xb0f0000000000002ULL
#define UD_NOP 0x0e0e000000000001ULL
#define UD_NOP2 0x0e0e000000000002ULL
#define UD_DONE 0xd0e0000000000001ULL
#define UD_READ 0x4ead000000000001ULL
#define UD_FAN 0xfa00000000000001ULL
#define UD_EMIT 0xe0e0000000000000ULL
#define UD_TIMEOUT 0x7100000000000000ULL

/* chain.bpf.c opened and loaded */
struct chain_bpf *skel_load(void);

/* attach every program of the object at its P_* index */
void attach_all(struct io_uring *ring, struct chain_bpf *skel);

/* a loaded skeleton and a ring of @entries with all its programs */
struct chain_bpf *setup(struct io_uring *ring, unsigned int entries);

/* the ring and the skeleton of setup() freed */
void teardown(struct io_uring *ring, struct chain_bpf *skel);

/* a temporary file in /tmp holding @len bytes of @data, unlinked at once */
int tmp_file_with(const void *data, size_t len);

/* the fdinfo of @ring has the line @line (with its '\n') exactly once */
void check_fdinfo_line(struct io_uring *ring, const char *line);

/* the fdinfo of @ring has "BpfBudget:\t<budget>" */
void check_fdinfo_budget(struct io_uring *ring, unsigned int budget);

/* the fdinfo of @ring has no BpfBudget line */
void check_fdinfo_no_budget(struct io_uring *ring);

/* ms since @t0 (uring_now_ns()) */
double ms_since(uint64_t t0);
/* nop_chain queues @len NOPs (0: no end) after the first, then UD_DONE */
void set_nop_chain(struct chain_bpf *skel, unsigned int len);

/* the chain's first request (UD_BPF), with no CQE unless it fails */
void prep_nop_chain(struct io_uring *ring);

/*
 * Loading @n instructions as an iouring program (BPF_F_* @flags) fails
 * with -@err and the verifier log has @msg; @what names the program
 */
void expect_reject(const char *what, const struct bpf_insn *insns, size_t n,
		   __u32 flags, int err, const char *msg);

/* the same load succeeds: the program's fd */
int expect_load(const char *what, const struct bpf_insn *insns, size_t n,
		__u32 flags);

#endif
