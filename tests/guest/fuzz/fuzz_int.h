/* SPDX-License-Identifier: MIT */
/*
 * What the C files of the fuzz suite share (fuzz.h is what they share
 * with fuzz.bpf.c). The fuzzer, its rules and its output are described in
 * fuzz_test.c. One file per job:
 *
 *   fuzz_random.c    the PRNG's draws: random user_data, addresses,
 *                    lengths, fds and the scratch area's contents; the
 *                    hash of an iteration's input, the distinct inputs
 *                    and CQE results, the counts of the summary (st)
 *   fuzz_sqe.c       random SQEs made safe to run, IORING_OP_BPF starts
 *                    with random kinds and budgets, the tags of the SQEs
 *                    whose CQEs are judged and the judging, the steps'
 *                    plans and SQE slots
 *   fuzz_kind.c      kinds attached by bpf_link: valid attaches of the
 *                    steps, random io_coro_ops maps and BPF_LINK_CREATE,
 *                    BPF_LINK_UPDATE, BPF_LINK_DETACH and closing links
 *                    (while steps run too), judged
 *   fuzz_test.c      the fd pool, the ring's setup flags and restrictions,
 *                    reaping, one iteration, the health check afterwards
 *                    and the case abi
 *
 * The first include of every C file of the suite.
 */
#ifndef IOCORO_TESTS_FUZZ_INT_H
#define IOCORO_TESTS_FUZZ_INT_H

#define _GNU_SOURCE
/* iocoro.h first: liburing's own io_uring.h would hide the patched uapi */
#include <iocoro.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "seed.h"
#include "uring_bpf.h"

#include "fuzz.h"

#define SCRATCH_SIZE (256 * 1024)
#define GUARD_SIZE (4 * 1024 * 1024)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The user_data of the SQEs whose CQEs the test judges:
 * FZ_TAG << 32 | kind << 24 | n. No other user_data has FZ_TAG (or
 * FZ_TAG - 1, for sums) in its top half (fz_ud()).
 */
#define FZ_TAG 0x46555a5aULL
enum {
	FZ_UD_UNKNOWN_OP = 1,	/* an unknown opcode: -EINVAL */
	FZ_UD_BPF_REFUSED,	/* IORING_OP_BPF, SQPOLL/IOPOLL/CQE32: < 0 */
	FZ_UD_DRAIN,		/* IOSQE_IO_DRAIN after an attach: < 0 */
	FZ_UD_BPF_BAD,		/* a start no kernel takes: < 0 */
	FZ_UD_NO_KIND,		/* a start of a kind with no step: < 0 */
};

struct fuzz_bpf;
struct bpf_program;

/* ------------------------------------------------ fuzz_random.c: state */

extern struct test_rng rng;
/* scratch memory the kernel may write to, and a guard area past it */
extern uint8_t *scratch;
extern uint8_t *guard;

/* input hashing, for the count of distinct inputs */
extern uint64_t in_hash;
extern unsigned int nr_distinct;
/* distinct CQE results */
extern unsigned int nr_results;

/* the counts of the summary */
extern struct fz_stats {
	unsigned long rings, ring_errs, attach_ok, kind_ops, updates_ok;
	unsigned long destroys, sqes, cqes, bpf_sqes, judged, ran;
} st;

/* --------------------------------------------------- fuzz_test.c: state */

/*
 * persistent fds: the steps fuzz and fuzz_s, a program of another type, a
 * map, the scratch directory, the BTF the io_coro_ops maps take
 */
extern int prog_fd, prog_s_fd, prog_other_fd, map_fd, dir_fd, kind_btf_fd;
extern const struct bpf_program *step_prog, *step_s_prog;

/* this iteration's fd pool (all >= fd_base, closed at the end) */
extern int fd_base;
extern int pool[16];
extern unsigned int pool_nr;
extern int ring_fd_now;
/* the link of each kind attached to the ring, -1 for none */
extern int kind_link[IORING_CORO_MAX_KINDS];
/* a kind was attached to the ring: it takes no IOSQE_IO_DRAIN any more */
extern bool ring_attached;
/* SQPOLL, IOPOLL or CQE32: no kind attaches, IORING_OP_BPF fails */
extern bool ring_no_bpf;
extern unsigned long cur_iter;

/* ------------------------------------------------------- fuzz_random.c */

static inline uint64_t rnd(void)
{
	return test_rng_next(&rng);
}

static inline uint64_t below(uint64_t n)
{
	return test_rng_below(&rng, n);
}

static inline bool one_in(uint64_t n)
{
	return below(n) == 0;
}

/* @n bytes at @p into in_hash */
void hash(const void *p, size_t n);
void hash_u64(uint64_t v);
/* in_hash is the hash of an iteration's input: count it if new */
void count_input(void);
/* count a CQE result if new */
void count_result(int32_t res);
/* a return value is a result (>= 0) or -errno */
void check_ret(const char *what, long ret);

/* a random user_data, never one the test judges (FZ_TAG) */
uint64_t fz_ud(uint64_t ud);
/* an address: never one the kernel could write to but scratch */
uint64_t fz_ptr(void);
uint32_t fz_len(void);
int fz_fd(void);
/* an fd number that is never open (there are not that many) */
int closed_fd(void);
/* pointers, lengths, NULs and noise all over scratch */
void fill_scratch(void);

/* ---------------------------------------------------------- fuzz_sqe.c */

/* a random SQE of @size bytes, of any opcode, made safe to run */
void fz_sqe(struct io_uring_sqe *sqe, size_t size);
/* a kind: mostly one attached to the ring, else any, or out of range */
uint32_t fz_kind(void);
/*
 * a valid start from user space (iocoro_prep_kind()): a kind that has a
 * step if any, a budget, the flags a chain uses
 */
void fz_bpf_sqe_valid(struct io_uring_sqe *sqe, size_t size);
/* an IORING_OP_BPF SQE: valid, or with each field zero or random */
void fz_bpf_sqe(struct io_uring_sqe *sqe, size_t size);
/* the user-space SQEs whose CQE the test judges get a tagged user_data */
void fz_tag(struct io_uring_sqe *sqe);
/* a CQE of a tagged SQE keeps to its rule */
void fz_judge(const struct io_uring_cqe *cqe);
/* the steps' plans and SQE slots */
void fz_programs(struct fuzz_bpf *skel, bool sqe128);

/* --------------------------------------------------------- fuzz_kind.c */

/* the io_coro_ops map layout and kind_btf_fd, once, before fd_base */
void fz_kind_init(void);
/* a new iteration: no kinds */
void fz_kind_reset(void);
/* kinds of the steps attached to the ring, valid and judged */
void fz_good_attach(void);
/* a random attach, update, detach or close of a kind's link, judged */
void fz_kind_op(void);
/* links detached, closed or updated while steps may run */
void fz_kind_churn(void);

/* ----------------------------------------------------------- fuzz_test.c */

/* io_uring_register(2) raw: its result or -errno */
long sys_register(int fd, unsigned int op, const void *arg, unsigned int nr);

#endif
