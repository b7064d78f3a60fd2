/* SPDX-License-Identifier: MIT */
/*
 * step_bench's files: what they share.
 *
 *   step_bench.c  the command line, the rounds, the timer's calibration,
 *                 main()
 *   coro.c        the iocoro side: step.bpf.c loaded, its steps attached
 *                 to a ring as kinds, and the bpf contender
 *   peers.c       the user-space contenders: the QD1 loop and the link
 *   report.c      statistics, the step table and the CSV
 *   mem.c         kernel memory with M coroutines (or timeouts) in flight
 *
 * The ring helpers are here, inline, as they run inside the timed regions.
 */
#ifndef STEP_BENCH_H
#define STEP_BENCH_H

#include <iocoro.h> /* the patched <linux/io_uring.h>, then <liburing.h> */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h> /* __rdtsc() */
#endif

#include "step.h"

#define DEFAULT_ROUNDS		7
#define DEFAULT_STEPS		10000
#define DEFAULT_COROUTINES	10000
#define MAX_ROUNDS		1000
/* N + 1 runs must fit a coroutine's budget */
#define MAX_STEPS		(IOCORO_MAX_BUDGET - 1)
/*
 * the 100,000; the CQEs of the end (two a coroutine) overflow the
 * CQ ring, which io_uring keeps on its overflow list until they are reaped
 */
#define MAX_COROUTINES		100000

/* the step ring: SQ size, and so the largest link batch */
#define STEP_RING_ENTRIES	256
#define WARMUP_STEPS		1000

/* the memory rings: SQ size (starts go in batches of it), CQ size */
#define MEM_SQ_ENTRIES		4096
#define MEM_CQ_ENTRIES		65536
/* budget of a wait_step coroutine: its two runs, and some slack */
#define MEM_BUDGET		4
/* how long the in-flight coroutines wait: longer than any reading */
#define WAIT_S			60
/* memory is "back" after close within max(this, 10% of the growth) */
#define MEM_SLACK_KB		64
#define MEM_BACK_MS		10000

/* SIGALRM ends a run that hangs (the default action kills us) */
#define RUN_ALARM_S		600
/* how long getting all coroutines in flight, or reaping them, may take */
#define MEM_DEADLINE_NS		(300ULL * 1000000000ULL)

#define UD_LOOP			0x100000000ULL
#define UD_LINK			0x200000000ULL
#define UD_TIMEOUT		0x300000000ULL
#define UD_CANCEL		0xcafe000000000000ULL

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* a value the kernel or a program writes behind our back */
#define READ_SHARED(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)

enum contender { C_BPF, C_LOOP, C_LINK, C_NR };
extern const char *const c_names[C_NR];

/* one chain of N steps by one contender */
struct run {
	uint64_t ticks;		/* of the timer ticks() */
	uint64_t ns;		/* ticks converted with the calibrated rate */
	unsigned long enters;	/* io_uring_enter() calls */
	unsigned long cqes;	/* CQEs user space reaped */
	unsigned long nops;	/* NOPs seen to complete with res 0 */
};

struct opts {
	double tsc_hz;		/* --tsc-khz: the rate of ticks(), 0: measure */
	unsigned int rounds;
	unsigned int steps;
	unsigned int coroutines;
	unsigned int link_batch;
	const char *csv;
	/* --only: run this contender alone, for a profiler; C_NR: all */
	enum contender only;
	/* --settle-ms: how long memory may take to come back after a close */
	unsigned int settle_ms;
};

/* a ring whose io_uring_enter() calls are counted */
struct bench_ring {
	struct iocoro co;
	unsigned long enters;
};

struct step_bpf;

struct bench {
	struct opts o;
	struct step_bpf *skel;
	unsigned int step_kind;	/* the kinds of the steps, on every ring */
	unsigned int wait_kind;
	struct bench_ring ring;	/* the step ring, all three contenders */
	struct run *runs;	/* [round * C_NR + contender] */
	/* ticks() against CLOCK_MONOTONIC: from these to the rounds' end */
	uint64_t cal_ticks0, cal_ns0;
	double tick_hz;		/* the rate used: --tsc-khz, or cal_hz */
	double cal_hz;		/* the rate measured */
	double cal_s;
	FILE *csv;
};

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * The timer of the timed regions. A guest without a usable clocksource
 * (QEMU TCG, no ACPI: no HPET or PM timer to calibrate the TSC against)
 * runs CLOCK_MONOTONIC on jiffies, 4 ms steps at HZ=250: useless for a
 * chain of a few ms. The TSC ticks at a constant rate there (the host's):
 * time with it and convert with its rate measured against CLOCK_MONOTONIC
 * over the whole run (calibrate_*()), at least CAL_MIN_NS long.
 */
#if defined(__x86_64__) || defined(__i386__)
#define TICKS_NAME "rdtsc"
static inline uint64_t ticks(void)
{
	return __rdtsc();
}
#else
#define TICKS_NAME "CLOCK_MONOTONIC"
static inline uint64_t ticks(void)
{
	return now_ns();
}
#endif

#define CAL_MIN_NS (3ULL * 1000000000ULL)

/* ------------------------------------------------------------- the ring */

/* io_uring_enter(2) raw and counted, with GETEVENTS: result or -errno */
static inline int ring_enter(struct bench_ring *br, unsigned int to_submit,
			     unsigned int min_complete)
{
	long ret = syscall(__NR_io_uring_enter, br->co.ring.ring_fd,
			   to_submit, min_complete, IORING_ENTER_GETEVENTS,
			   NULL, 0);

	br->enters++;
	return ret < 0 ? -errno : (int)ret;
}

/*
 * Hand the SQEs prepared with io_uring_get_sqe() to the kernel's SQ ring
 * without a syscall (what io_uring_submit() does before its enter):
 * returns how many.
 */
static inline unsigned int sq_publish(struct io_uring *ring)
{
	struct io_uring_sq *sq = &ring->sq;
	unsigned int tail = *sq->ktail;
	unsigned int n = sq->sqe_tail - tail;

	for (; tail != sq->sqe_tail; tail++)
		sq->array[tail & sq->ring_mask] = tail & sq->ring_mask;
	sq->sqe_head = sq->sqe_tail;
	io_uring_smp_store_release(sq->ktail, sq->sqe_tail);
	return n;
}

/* the next CQE, or NULL; never a syscall (liburing's peek may enter) */
static inline struct io_uring_cqe *cq_peek(struct io_uring *ring)
{
	unsigned int head = *ring->cq.khead;

	if (head == io_uring_smp_load_acquire(ring->cq.ktail))
		return NULL;
	return &ring->cq.cqes[head & ring->cq.ring_mask];
}

/* wait for a CQE (not consumed): 0 or -errno */
static inline int wait_cqe(struct bench_ring *br, struct io_uring_cqe **cqe)
{
	int ret;

	for (;;) {
		*cqe = cq_peek(&br->co.ring);
		if (*cqe)
			return 0;
		ret = ring_enter(br, 0, 1);
		if (ret < 0 && ret != -EINTR)
			return ret;
	}
}

/* step_bench.c */
void sleep_ms(unsigned int ms);
/* say what @who got (@cqe) and what it wanted: returns -EPROTO */
int bad_cqe(const char *who, const struct io_uring_cqe *cqe,
	    const char *want);
struct run *run_at(struct bench *b, unsigned int round, enum contender c);

/* coro.c: the contenders run one chain of @n steps into *@r: 0 or -errno */
int coro_load(struct bench *b);
void coro_unload(struct bench *b);
int coro_attach(struct bench *b, struct bench_ring *br, unsigned int budget);
void coro_prep_start(struct bench_ring *br, struct io_uring_sqe *sqe,
		     unsigned int kind, uint32_t id);
int step_ring_init(struct bench *b);
int run_bpf(struct bench *b, unsigned int n, struct run *r);

/* peers.c */
int run_loop(struct bench *b, unsigned int n, struct run *r);
int run_link(struct bench *b, unsigned int n, struct run *r);

/* report.c */
void csv_row(struct bench *b, const char *cas, const char *who,
	     const char *round, const char *metric, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void csv_steps(struct bench *b);
void print_steps(struct bench *b);
void print_header(struct bench *b);
void print_timer(struct bench *b);

/* mem.c */
int run_mem(struct bench *b);

#endif /* STEP_BENCH_H */
