/* SPDX-License-Identifier: MIT */
/*
 * The chain suite (tests/lib/case.h): guest tests of coroutine steps
 * (struct io_coro_ops kinds, each attached to a ring by a bpf_link) that
 * decide in the kernel, one file per feature:
 *
 *   nop_chain.c  a coroutine of 10,000 NOP steps, by continuations and by
 *                starts linked after each NOP, in one io_uring_enter()
 *   sleepable.c  a read, then a sleepable step: the read's completion in
 *                struct io_coro_step, bpf_copy_from_user()
 *   failed_op.c  a failed op, then a step linked after it
 *   emit.c       bpf_io_coro_emit_cqe()
 *   budget.c     the step budget: the start's sqe->len and its default
 *   teardown.c   fatal signals; teardown under load
 *   scale.c      teardown of 100,000 coroutines in flight
 *   cont_link.c  a request with a continuation at the head of a link
 *   verifier.c   the context and the calls the verifier allows a step
 *   retval.c     the step's return value is its request's result
 *
 * One ctest test chain_<case> per IOCORO_CASE. Every case asserts exact
 * values and fails on the first mismatch; none skips. The steps that
 * several files use are in chain.bpf.c (chain.skel.h, attached by
 * attach_all() as the kinds K_* of chain_progs.h); a feature whose steps
 * are its own has them in its own object, x.c beside x.bpf.c (x.skel.h,
 * loaded and attached by iocoro_skel_load()), as emit.c and emit.bpf.c. The
 * constants both sides use are in chain_progs.h. The rings are plain
 * io_uring_queue_init() rings (no COOP_TASKRUN) in a struct iocoro for
 * libiocoro's attach calls. Cases that measure (nop_chain, teardown_*)
 * print their numbers on stdout; nothing asserts on time but the
 * teardown bound (TEARDOWN_BOUND_MS).
 *
 * The first include of every file of the suite.
 */
#ifndef IOCORO_TESTS_CHAIN_H
#define IOCORO_TESTS_CHAIN_H

#define _GNU_SOURCE
/* iocoro.h first: liburing's own io_uring.h would hide the patched uapi */
#include <iocoro.h>
#include <liburing.h>

#include <linux/bpf.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
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
#include "start.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* the uapi's budget limits: a start's sqe->len */
#define DEFAULT_BUDGET IORING_BPF_DEFAULT_BUDGET
#define MAX_BUDGET IORING_BPF_MAX_BUDGET

#include "chain_progs.h" /* K_*, RC_LEN, EM_MAX, ..., shared with the steps */
#include "chain.skel.h" /* after chain_progs.h: struct step_seen */

#define UD_BPF 0xb0f0000000000001ULL
#define UD_BPF2 0xb0f0000000000002ULL
#define UD_NOP 0x0e0e000000000001ULL
#define UD_NOP2 0x0e0e000000000002ULL
#define UD_DONE 0xd0e0000000000001ULL
#define UD_READ 0x4ead000000000001ULL
#define UD_FAN 0xfa00000000000001ULL
#define UD_EMIT 0xe0e0000000000000ULL

/* chain.bpf.c opened and loaded */
struct chain_bpf *skel_load(void);

/* @co: a plain ring of @entries (io_uring_queue_init() flags 0) */
void chain_ring(struct iocoro *co, unsigned int entries);
/* the same with io_uring_queue_init_params() */
void chain_ring_params(struct iocoro *co, unsigned int entries,
		       struct io_uring_params *p);

/* every step of chain.bpf.c attached as its K_* kind (iocoro_attach()) */
void attach_all(struct iocoro *co, struct chain_bpf *skel);

/* a loaded skeleton and a ring of @entries with all its steps */
struct chain_bpf *setup(struct iocoro *co, unsigned int entries);

/* the ring (its kinds detached first) and the skeleton of setup() freed */
void teardown(struct iocoro *co, struct chain_bpf *skel);


/*
 * exec a program that exits 0 at once, the suite's own --list with stdout
 * to /dev/null: the end of a child that execs; never returns
 */
void exec_list(void) __attribute__((noreturn));

/* a temporary file in /tmp holding @len bytes of @data, unlinked at once */
int tmp_file_with(const void *data, size_t len);

/*
 * nop_chain queues @len NOPs (0: no end) after the first run, then posts
 * UD_DONE; @linked: each NOP -HARDLINK-> a start of its kind, else each
 * NOP continuing at its kind
 */
void set_nop_chain(struct chain_bpf *skel, unsigned int len, bool linked);

/* the chain's start (UD_BPF, budget @budget), no CQE unless it fails */
void prep_nop_chain(struct io_uring *ring, unsigned int budget);

/*
 * A start of ret_val (user_data UD_BPF, submitted alone) that posts one
 * CQE (@ud, @res, @flags) and returns @ret: exactly @n CQEs in @cqes. The
 * result of the step's bpf_io_coro_emit_cqe().
 */
int ret_val_emit(struct chain_bpf *skel, struct io_uring *ring, int ret,
		 __u64 ud, int res, __u32 flags, struct io_uring_cqe *cqes,
		 unsigned int n);

/* ---- raw struct io_coro_ops steps (verifier.c, retval.c) */

/* a field of the kernel's struct io_coro_step, from its BTF */
struct step_field {
	const char *name;
	unsigned int off;
	unsigned int size;
};

/* the offset and size of field @name of struct io_coro_step */
struct step_field step_field(const char *name);
/* sizeof(struct io_coro_step), from the kernel's BTF */
unsigned int step_size(void);
/* the BTF id of kfunc @name in the kernel's BTF */
int kfunc_btf_id(const char *name);

/*
 * Loading @n instructions as an io_coro_ops step (BPF_F_* @flags) fails
 * with -@err and the verifier log has @msg; @what names the program
 */
void expect_reject(const char *what, const struct bpf_insn *insns, size_t n,
		   __u32 flags, int err, const char *msg);

/* the same load succeeds: the program's fd */
int expect_load(const char *what, const struct bpf_insn *insns, size_t n,
		__u32 flags);

/*
 * A raw step's first instruction: r1 = the struct io_coro_step pointer,
 * the step's only argument (struct_ops programs take theirs as an array
 * of u64)
 */
#define LOAD_STEP_ARG() LDX(BPF_DW, BPF_REG_1, BPF_REG_1, 0)

/* a call of the kernel function of BTF id @id (kfunc_btf_id()) */
#define CALL_KFUNC(id) INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, id)

#endif
