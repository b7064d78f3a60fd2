// SPDX-License-Identifier: MIT
/*
 * step_bench: what one decision costs, in the kernel and from user space.
 *
 * Three contenders run N dependent NOP steps, in one process on one ring,
 * alternating round by round (the order rotates every round), after one
 * untimed warm-up round:
 *
 *   bpf   one coroutine (step.bpf.c "step"): each program run checks the
 *         NOP before it in its ctx and queues NOP -> run of itself; the
 *         last run ends the coroutine with one CQE. User space submits
 *         once and waits for that CQE.
 *   loop  user space does the same: submit one NOP, wait, check its CQE,
 *         N times (queue depth 1).
 *   link  a static IOSQE_IO_LINK chain of the same NOPs, in batches of at
 *         most --link-batch (the SQ size), no decisions: the upper bound.
 *
 * For each: steps/s (median, min..max over the rounds), io_uring_enter()
 * calls, CQEs and NOPs per chain, counted here (every enter is a raw
 * syscall made by this file: the counts are exact); and the ratios
 * bpf/loop and bpf/link (median of the per-round ratios, min..max).
 *
 * Then memory: --coroutines coroutines of "wait_step" in flight, each
 * waiting in a TIMEOUT of WAIT_S seconds, next to the same number of bare
 * TIMEOUTs from user space; /proc/meminfo's Slab and SUnreclaim (and
 * io_kiocb objects from /proc/slabinfo when the kernel has it) before and
 * with all in flight give bytes per coroutine. All of them are then
 * cancelled (IORING_ASYNC_CANCEL_ANY) and reaped, every end checked, the
 * ring closed, and the memory read again until it is back.
 *
 * Usage: step_bench [--rounds R] [--steps N] [--coroutines M]
 *                   [--link-batch B] [--csv FILE] [--tsc-khz KHZ]
 *                   [--settle-ms T]
 *        step_bench --measure-tsc
 *
 * Time: each chain is timed with rdtsc (CLOCK_MONOTONIC elsewhere than
 * x86), at the rate --tsc-khz gives, or else measured against
 * CLOCK_MONOTONIC; see ticks().
 *
 * Exit status: 0 all runs completed with exact counts (nothing here judges
 * time: targets are for the report); 1 a run failed or a count was off;
 * 2 bad usage. bench/README.md explains the output.
 */
#define _GNU_SOURCE
#include <iocoro.h> /* the patched <linux/io_uring.h>, then <liburing.h> */

#include <bpf/libbpf.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h> /* __rdtsc() */
#endif

#include "step.h"
#include "step.skel.h"

#define DEFAULT_ROUNDS		7
#define DEFAULT_STEPS		10000
#define DEFAULT_COROUTINES	10000
#define MAX_ROUNDS		1000
/* N + 1 runs must fit the kernel's budget */
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

enum contender { C_BPF, C_LOOP, C_LINK, C_NR };
static const char *const c_names[C_NR] = { "bpf", "loop", "link" };

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

struct bench {
	struct opts o;
	struct step_bpf *skel;
	unsigned int step_prog;	/* table indices */
	unsigned int wait_prog;
	struct bench_ring ring;	/* the step ring, all three contenders */
	struct run *runs;	/* [round * C_NR + contender] */
	/* ticks() against CLOCK_MONOTONIC: from these to the rounds' end */
	uint64_t cal_ticks0, cal_ns0;
	double tick_hz;		/* the rate used: --tsc-khz, or cal_hz */
	double cal_hz;		/* the rate measured */
	double cal_s;
	FILE *csv;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
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
static uint64_t ticks(void)
{
	return __rdtsc();
}
#else
#define TICKS_NAME "CLOCK_MONOTONIC"
static uint64_t ticks(void)
{
	return now_ns();
}
#endif

#define CAL_MIN_NS (3ULL * 1000000000ULL)

/* a value the kernel or a program writes behind our back */
#define READ_SHARED(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)

/* ------------------------------------------------------------- the ring */

/* io_uring_enter(2) raw and counted, with GETEVENTS: result or -errno */
static int ring_enter(struct bench_ring *br, unsigned int to_submit,
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
static unsigned int sq_publish(struct io_uring *ring)
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
static struct io_uring_cqe *cq_peek(struct io_uring *ring)
{
	unsigned int head = *ring->cq.khead;

	if (head == io_uring_smp_load_acquire(ring->cq.ktail))
		return NULL;
	return &ring->cq.cqes[head & ring->cq.ring_mask];
}

/* wait for a CQE (not consumed): 0 or -errno */
static int wait_cqe(struct bench_ring *br, struct io_uring_cqe **cqe)
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

static int bad_cqe(const char *who, const struct io_uring_cqe *cqe,
		   const char *want)
{
	fprintf(stderr,
		"step_bench: %s: CQE user_data 0x%" PRIx64 " res %d (%s) "
		"flags 0x%x, want %s\n",
		who, (uint64_t)cqe->user_data, cqe->res,
		cqe->res < 0 ? strerror(-cqe->res) : "ok", cqe->flags, want);
	return -EPROTO;
}

/* ------------------------------------------------- the three contenders */

/* (1) one coroutine of @n NOP steps: one submit, one CQE */
static int run_bpf(struct bench *b, unsigned int n, struct run *r)
{
	struct bench_ring *br = &b->ring;
	struct step_state st = { .steps = n };
	struct io_uring_cqe *cqe;
	struct iocoro_done done;
	uint32_t key = 0;
	uint64_t t0;
	int ret;

	ret = bpf_map__update_elem(b->skel->maps.step_states, &key,
				   sizeof(key), &st, sizeof(st), BPF_ANY);
	if (ret)
		return ret;
	iocoro_prep_start(io_uring_get_sqe(&br->co.ring), b->step_prog, 0);
	if (sq_publish(&br->co.ring) != 1)
		return -EBUSY;

	br->enters = 0;
	t0 = ticks();
	ret = ring_enter(br, 1, 1);
	if (ret != 1)
		return ret < 0 ? ret : -EIO;
	ret = wait_cqe(br, &cqe);
	if (ret)
		return ret;
	r->ticks = ticks() - t0;
	r->enters = br->enters;
	r->cqes = 1;

	if (iocoro_cqe_done(cqe, &done) != 1 || done.how != IOCORO_FINISHED ||
	    done.id != 0 || done.res != (int32_t)n || cqe->flags)
		return bad_cqe("bpf", cqe, "the coroutine's end, res = steps");
	io_uring_cq_advance(&br->co.ring, 1);
	if (cq_peek(&br->co.ring))
		return bad_cqe("bpf", cq_peek(&br->co.ring), "no more CQEs");

	ret = bpf_map__lookup_elem(b->skel->maps.step_states, &key,
				   sizeof(key), &st, sizeof(st), 0);
	if (ret)
		return ret;
	if (st.nops != n || st.runs != STEP_RUNS(n) || st.bad ||
	    st.queue_err) {
		fprintf(stderr,
			"step_bench: bpf: %u NOPs in %u runs (bad %u, last "
			"bad res %d, queue error %d), want %u NOPs in %llu "
			"runs\n",
			st.nops, st.runs, st.bad, st.bad_res, st.queue_err, n,
			(unsigned long long)STEP_RUNS(n));
		return -EPROTO;
	}
	r->nops = st.nops;
	return 0;
}

/* (2) the same decisions from user space: submit, wait, check, N times */
static int run_loop(struct bench *b, unsigned int n, struct run *r)
{
	struct bench_ring *br = &b->ring;
	struct io_uring *ring = &br->co.ring;
	struct io_uring_cqe *cqe;
	unsigned long nops = 0;
	unsigned int i;
	uint64_t t0;
	int ret;

	br->enters = 0;
	t0 = ticks();
	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

		io_uring_prep_nop(sqe);
		sqe->user_data = UD_LOOP + i;
		sq_publish(ring);
		ret = ring_enter(br, 1, 1);
		if (ret != 1)
			return ret < 0 ? ret : -EIO;
		ret = wait_cqe(br, &cqe);
		if (ret)
			return ret;
		/* the decision: this NOP went well, go on */
		if (cqe->user_data != UD_LOOP + i || cqe->res != 0)
			return bad_cqe("loop", cqe, "the NOP's, res 0");
		nops++;
		io_uring_cq_advance(ring, 1);
	}
	r->ticks = ticks() - t0;
	r->enters = br->enters;
	r->cqes = n;
	r->nops = nops;
	return 0;
}

/* (3) linked NOPs, no decisions: one CQE per batch, from its last NOP */
static int run_link(struct bench *b, unsigned int n, struct run *r)
{
	struct bench_ring *br = &b->ring;
	struct io_uring *ring = &br->co.ring;
	unsigned int done, i, k;
	struct io_uring_cqe *cqe;
	unsigned long cqes = 0;
	uint64_t t0;
	int ret;

	br->enters = 0;
	t0 = ticks();
	for (done = 0; done < n; done += k) {
		k = n - done < b->o.link_batch ? n - done : b->o.link_batch;
		for (i = 0; i < k; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

			io_uring_prep_nop(sqe);
			sqe->user_data = UD_LINK + done + i;
			if (i + 1 < k)
				sqe->flags = IOSQE_IO_LINK |
					     IOSQE_CQE_SKIP_SUCCESS;
		}
		sq_publish(ring);
		ret = ring_enter(br, k, 1);
		if (ret != (int)k)
			return ret < 0 ? ret : -EIO;
		ret = wait_cqe(br, &cqe);
		if (ret)
			return ret;
		/* the last NOP of a link runs only after all before it */
		if (cqe->user_data != UD_LINK + done + k - 1 || cqe->res != 0)
			return bad_cqe("link", cqe, "the batch's last NOP, res 0");
		io_uring_cq_advance(ring, 1);
		cqes++;
		if (cq_peek(ring))
			return bad_cqe("link", cq_peek(ring),
				       "one CQE per batch");
	}
	r->ticks = ticks() - t0;
	r->enters = br->enters;
	r->cqes = cqes;
	r->nops = n;
	return 0;
}

static int run_contender(struct bench *b, enum contender c, unsigned int n,
			 struct run *r)
{
	static int (*const fns[C_NR])(struct bench *, unsigned int,
				      struct run *) = {
		[C_BPF] = run_bpf, [C_LOOP] = run_loop, [C_LINK] = run_link,
	};
	int ret;

	memset(r, 0, sizeof(*r));
	alarm(RUN_ALARM_S);
	ret = fns[c](b, n, r);
	alarm(0);
	if (ret)
		fprintf(stderr, "step_bench: %s, %u steps: %s\n", c_names[c],
			n, ret == -EPROTO ? "wrong result (above)"
					  : iocoro_strerror(ret));
	return ret;
}

static struct run *run_at(struct bench *b, unsigned int round,
			  enum contender c)
{
	return &b->runs[round * C_NR + c];
}

static void calibrate_start(struct bench *b)
{
	b->cal_ns0 = now_ns();
	b->cal_ticks0 = ticks();
}

/*
 * The rate of ticks() against CLOCK_MONOTONIC, over at least CAL_MIN_NS
 * unless --tsc-khz gave it; the runs' ns from the rate used.
 */
static void calibrate_end(struct bench *b)
{
	uint64_t dns = now_ns() - b->cal_ns0, dt;
	unsigned int i;

	if (dns < CAL_MIN_NS && !b->o.tsc_hz) {
		sleep_ms((unsigned int)((CAL_MIN_NS - dns) / 1000000) + 1);
		dns = now_ns() - b->cal_ns0;
	}
	dt = ticks() - b->cal_ticks0;
	b->cal_hz = (double)dt * 1e9 / (double)(dns ? dns : 1);
	b->cal_s = (double)dns / 1e9;
	b->tick_hz = b->o.tsc_hz ? b->o.tsc_hz : b->cal_hz;
	for (i = 0; i < b->o.rounds * C_NR; i++)
		b->runs[i].ns = (uint64_t)((double)b->runs[i].ticks * 1e9 /
					   b->tick_hz);
}

/*
 * --measure-tsc: print the rate of ticks() in kHz, measured against
 * CLOCK_MONOTONIC over 1 s, and nothing else: no ring, no BPF. For the
 * host side of bench/run-step.sh (a TCG guest's TSC is the host's).
 */
static int measure_tsc(void)
{
	uint64_t n0 = now_ns(), t0 = ticks(), dns;

	sleep_ms(1000);
	dns = now_ns() - n0;
	printf("%.0f\n", (double)(ticks() - t0) * 1e6 / (double)dns);
	return 0;
}

/* the clocksource the kernel reads CLOCK_MONOTONIC from */
static void clocksource(char *buf, size_t size)
{
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/"
			"current_clocksource", "re");

	snprintf(buf, size, "?");
	if (!f)
		return;
	if (fgets(buf, (int)size, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* --only: contender @c alone, R times, with no other work in between */
static int run_only(struct bench *b, enum contender c)
{
	struct run r;
	unsigned int i;
	int ret;

	for (i = 0; i < b->o.rounds; i++) {
		ret = run_contender(b, c, b->o.steps, &r);
		if (ret)
			return ret;
		printf("step_bench: %s run %u: %u steps, %.0f ticks/step, "
		       "%lu enters\n", c_names[c], i + 1, b->o.steps,
		       (double)r.ticks / b->o.steps, r.enters);
	}
	return 0;
}

/* one warm-up round, then the rounds, the order rotating */
static int run_rounds(struct bench *b)
{
	unsigned int round, j, warm = b->o.steps < WARMUP_STEPS ?
						 b->o.steps : WARMUP_STEPS;
	struct run scratch;
	int ret;

	for (j = 0; j < C_NR; j++) {
		ret = run_contender(b, (enum contender)j, warm, &scratch);
		if (ret)
			return ret;
	}
	for (round = 0; round < b->o.rounds; round++) {
		for (j = 0; j < C_NR; j++) {
			enum contender c = (enum contender)((round + j) % C_NR);

			ret = run_contender(b, c, b->o.steps,
					    run_at(b, round, c));
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ statistics */

struct spread {
	double median, min, max;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static struct spread spread_of(double *v, unsigned int n)
{
	struct spread s;

	qsort(v, n, sizeof(*v), cmp_double);
	s.min = v[0];
	s.max = v[n - 1];
	s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	return s;
}

static double steps_per_s(const struct run *r, unsigned int n)
{
	return (double)n * 1e9 / (double)(r->ns ? r->ns : 1);
}

/* per-round ratio of steps/s of two runs of the same N: of their ticks */
static double run_ratio(const struct run *r, const struct run *d)
{
	return (double)(d->ticks ? d->ticks : 1) /
	       (double)(r->ticks ? r->ticks : 1);
}

/* steps/s of contender @c over the rounds */
static struct spread sps_spread(struct bench *b, enum contender c, double *v)
{
	unsigned int i;

	for (i = 0; i < b->o.rounds; i++)
		v[i] = steps_per_s(run_at(b, i, c), b->o.steps);
	return spread_of(v, b->o.rounds);
}

/* per-round ratio of steps/s, @c over @d */
static double ratio_at(struct bench *b, unsigned int round, enum contender c,
		       enum contender d)
{
	return run_ratio(run_at(b, round, c), run_at(b, round, d));
}

static struct spread ratio_spread(struct bench *b, enum contender c,
				  enum contender d, double *v)
{
	unsigned int i;

	for (i = 0; i < b->o.rounds; i++)
		v[i] = ratio_at(b, i, c, d);
	return spread_of(v, b->o.rounds);
}

enum run_count { RC_ENTERS, RC_CQES, RC_NOPS };

static unsigned long run_count(const struct run *r, enum run_count which)
{
	switch (which) {
	case RC_ENTERS:
		return r->enters;
	case RC_CQES:
		return r->cqes;
	case RC_NOPS:
		return r->nops;
	}
	return 0;
}

/* "5" or "5..7": a count of contender @c over the rounds */
static void count_range(char *buf, size_t size, struct bench *b,
			enum contender c, enum run_count which)
{
	unsigned long lo = ULONG_MAX, hi = 0, v;
	unsigned int i;

	for (i = 0; i < b->o.rounds; i++) {
		v = run_count(run_at(b, i, c), which);
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (lo == hi)
		snprintf(buf, size, "%lu", lo);
	else
		snprintf(buf, size, "%lu..%lu", lo, hi);
}

/* ------------------------------------------------------------------ CSV */

/* case,contender,round,metric,value */
static void csv_row(struct bench *b, const char *cas, const char *who,
		    const char *round, const char *metric, const char *fmt, ...)
{
	va_list ap;

	if (!b->csv)
		return;
	fprintf(b->csv, "%s,%s,%s,%s,", cas, who, round, metric);
	va_start(ap, fmt);
	vfprintf(b->csv, fmt, ap);
	va_end(ap);
	fputc('\n', b->csv);
}

static void csv_steps(struct bench *b)
{
	static const char *const ratio_names[] = { "bpf/loop", "bpf/link" };
	static const enum contender ratio_den[] = { C_LOOP, C_LINK };
	unsigned int i, c;
	char round[16];

	for (i = 0; i < b->o.rounds; i++) {
		snprintf(round, sizeof(round), "%u", i + 1);
		for (c = 0; c < C_NR; c++) {
			const struct run *r = run_at(b, i, (enum contender)c);

			csv_row(b, "step", c_names[c], round, "steps", "%u",
				b->o.steps);
			csv_row(b, "step", c_names[c], round, "ns", "%" PRIu64,
				r->ns);
			csv_row(b, "step", c_names[c], round, "ticks",
				"%" PRIu64, r->ticks);
			csv_row(b, "step", c_names[c], round, "steps_per_s",
				"%.1f", steps_per_s(r, b->o.steps));
			csv_row(b, "step", c_names[c], round, "enters", "%lu",
				r->enters);
			csv_row(b, "step", c_names[c], round, "cqes", "%lu",
				r->cqes);
			csv_row(b, "step", c_names[c], round, "nops", "%lu",
				r->nops);
		}
		for (c = 0; c < ARRAY_SIZE(ratio_names); c++)
			csv_row(b, "step", ratio_names[c], round, "ratio",
				"%.4f", ratio_at(b, i, C_BPF, ratio_den[c]));
	}
}

static void csv_spread(struct bench *b, const char *who, const char *metric,
		       const struct spread *s)
{
	csv_row(b, "step", who, "median", metric, "%.4f", s->median);
	csv_row(b, "step", who, "min", metric, "%.4f", s->min);
	csv_row(b, "step", who, "max", metric, "%.4f", s->max);
}

/* ---------------------------------------------------------- step report */

static void print_steps(struct bench *b)
{
	double *v = calloc(b->o.rounds, sizeof(*v));
	struct spread s, bl, bk;
	char enters[32], cqes[32], nops[32], range[48];
	unsigned int c;

	if (!v)
		return;
	printf("\n%-9s %12s  %-23s %9s %13s %11s %11s\n", "contender",
	       "steps/s", "(min..max)", "us/step", "enters/chain",
	       "CQEs/chain", "NOPs/chain");
	for (c = 0; c < C_NR; c++) {
		s = sps_spread(b, (enum contender)c, v);
		count_range(enters, sizeof(enters), b, (enum contender)c,
			    RC_ENTERS);
		count_range(cqes, sizeof(cqes), b, (enum contender)c, RC_CQES);
		count_range(nops, sizeof(nops), b, (enum contender)c, RC_NOPS);
		snprintf(range, sizeof(range), "(%.0f..%.0f)", s.min, s.max);
		printf("%-9s %12.0f  %-23s %9.3f %13s %11s %11s\n",
		       c_names[c], s.median, range, 1e6 / s.median, enters,
		       cqes, nops);
		csv_spread(b, c_names[c], "steps_per_s", &s);
	}
	bl = ratio_spread(b, C_BPF, C_LOOP, v);
	bk = ratio_spread(b, C_BPF, C_LINK, v);
	printf("\nratio of steps/s (median of the %u per-round ratios, "
	       "min..max):\n", b->o.rounds);
	printf("  bpf/loop  %.2f  (%.2f..%.2f)   target >= 2\n", bl.median,
	       bl.min, bl.max);
	printf("  bpf/link  %.2f  (%.2f..%.2f)   target >= 1.0\n", bk.median,
	       bk.min, bk.max);
	csv_spread(b, "bpf/loop", "ratio", &bl);
	csv_spread(b, "bpf/link", "ratio", &bk);
	free(v);
}

/* ---------------------------------------------------------------- memory */

struct meminfo {
	long slab_kb;
	long sunreclaim_kb;
	long kiocb;	/* io_kiocb objects in use (/proc/slabinfo), -1: n/a */
};

/* "Slab:" and "SUnreclaim:" of /proc/meminfo, io_kiocb of /proc/slabinfo */
static int meminfo_read(struct meminfo *m)
{
	char line[512], name[64];
	FILE *f = fopen("/proc/meminfo", "re");
	long v, active;

	m->slab_kb = m->sunreclaim_kb = m->kiocb = -1;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Slab: %ld kB", &v) == 1)
			m->slab_kb = v;
		else if (sscanf(line, "SUnreclaim: %ld kB", &v) == 1)
			m->sunreclaim_kb = v;
	}
	fclose(f);
	if (m->slab_kb < 0 || m->sunreclaim_kb < 0)
		return -ENODATA;

	/* needs CONFIG_SLUB_DEBUG; io_kiocb is never merged (TYPESAFE_BY_RCU) */
	f = fopen("/proc/slabinfo", "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %ld", name, &active) == 2 &&
		    !strcmp(name, "io_kiocb")) {
			m->kiocb = active;
			break;
		}
	}
	fclose(f);
	return 0;
}

/* one memory contender: M of them in flight, then cancelled and gone */
struct mem_result {
	const char *name;
	unsigned int m;
	struct meminfo before, inflight, reaped, closed;
	double start_ms;	/* from the first submit to all in flight */
	double reap_ms;		/* from the cancel to the last CQE */
	double close_ms;	/* from the close to the memory back */
	bool back;
};

static void mem_dump_bss(struct step_bpf *skel)
{
	fprintf(stderr,
		"step_bench: wait_step: runs %llu, started %llu, fired %llu, "
		"cancelled %llu, other %llu (res %d), queue errors %llu (%d)\n",
		(unsigned long long)skel->bss->wt_runs,
		(unsigned long long)skel->bss->wt_started,
		(unsigned long long)skel->bss->wt_fired,
		(unsigned long long)skel->bss->wt_canceled,
		(unsigned long long)skel->bss->wt_other,
		skel->bss->wt_other_res,
		(unsigned long long)skel->bss->wt_queue_err,
		skel->bss->wt_queue_rc);
}

static int mem_ring_init(struct bench *b, struct bench_ring *br, bool progs)
{
	struct io_uring_params p = {
		.flags = IORING_SETUP_CQSIZE,
		.cq_entries = MEM_CQ_ENTRIES,
	};
	int ret;

	memset(br, 0, sizeof(*br));
	ret = iocoro_queue_init_params(MEM_SQ_ENTRIES, &br->co, &p);
	if (ret)
		return ret;
	if (!progs)
		return 0;
	ret = iocoro_attach_object(&br->co, b->skel->obj);
	if (ret < 0)
		goto fail;
	ret = iocoro_set_budget(&br->co, MEM_BUDGET);
	if (ret)
		goto fail;
	return 0;
fail:
	iocoro_queue_exit(&br->co);
	return ret;
}

static struct __kernel_timespec wait_ts = { .tv_sec = WAIT_S };

/* submit @m starts (bpf) or timeouts, in batches of the SQ size */
static int mem_submit(struct bench *b, struct bench_ring *br, unsigned int m,
		      bool bpf)
{
	struct io_uring *ring = &br->co.ring;
	unsigned int i = 0, k, j;
	int ret;

	while (i < m) {
		k = m - i < MEM_SQ_ENTRIES ? m - i : MEM_SQ_ENTRIES;
		for (j = 0; j < k; j++, i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

			if (bpf) {
				iocoro_prep_start(sqe, b->wait_prog, i);
			} else {
				io_uring_prep_timeout(sqe, &wait_ts, 0, 0);
				sqe->user_data = UD_TIMEOUT + i;
			}
		}
		sq_publish(ring);
		ret = ring_enter(br, k, 0);
		if (ret != (int)k)
			return ret < 0 ? ret : -EIO;
	}
	return 0;
}

/* enter until every wait_step coroutine queued its timeout */
static int mem_pump_started(struct bench *b, struct bench_ring *br,
			    unsigned int m)
{
	uint64_t t0 = now_ns();
	int ret;

	while (READ_SHARED(b->skel->bss->wt_started) < m) {
		if (READ_SHARED(b->skel->bss->wt_queue_err) ||
		    now_ns() - t0 > MEM_DEADLINE_NS) {
			mem_dump_bss(b->skel);
			return -ETIME;
		}
		if (cq_peek(&br->co.ring)) {
			fprintf(stderr, "step_bench: memory: a CQE before the "
					"cancel:\n");
			return bad_cqe("memory", cq_peek(&br->co.ring),
				       "none");
		}
		ret = ring_enter(br, 0, 0);
		if (ret < 0 && ret != -EINTR)
			return ret;
	}
	return 0;
}

/* what the cancel and the ends of @m coroutines (or timeouts) posted */
struct mem_reap {
	unsigned int m;
	bool bpf;
	unsigned char *seen;	/* per id: ends seen */
	unsigned int ends;	/* END (bpf) or timeout CQEs, -ECANCELED */
	bool cancel_seen;
};

/* one CQE of the reap: 0, or -EPROTO for anything unexpected */
static int mem_reap_cqe(struct mem_reap *mr, struct bench *b,
			const struct io_uring_cqe *cqe)
{
	struct iocoro_done done;
	uint64_t id;

	if (cqe->user_data == UD_CANCEL) {
		if (mr->cancel_seen || cqe->res != (int)mr->m)
			return bad_cqe("memory", cqe, "the cancel's, res = M");
		mr->cancel_seen = true;
		return 0;
	}
	if (!mr->bpf) {
		id = cqe->user_data - UD_TIMEOUT;
		if (cqe->user_data < UD_TIMEOUT || id >= mr->m ||
		    mr->seen[id] || cqe->res != -ECANCELED)
			return bad_cqe("memory", cqe,
				       "a timeout's, once, -ECANCELED");
		mr->seen[id] = 1;
		mr->ends++;
		return 0;
	}
	if (iocoro_cqe_done(cqe, &done) == 1) {
		if (done.how != IOCORO_FINISHED || done.prog != b->wait_prog ||
		    done.id >= mr->m || mr->seen[done.id] ||
		    done.res != -ECANCELED)
			return bad_cqe("memory", cqe,
				       "a coroutine's end, once, -ECANCELED");
		mr->seen[done.id] = 1;
		mr->ends++;
		return 0;
	}
	/* a coroutine's cancelled timeout posts nothing: its step sees it */
	return bad_cqe("memory", cqe, "a cancelled timeout's or an end");
}

/* cancel everything in flight and reap every end */
static int mem_cancel_reap(struct bench *b, struct bench_ring *br,
			   struct mem_reap *mr)
{
	struct io_uring *ring = &br->co.ring;
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct io_uring_cqe *cqe;
	uint64_t t0 = now_ns();
	int ret;

	io_uring_prep_cancel64(sqe, 0, IORING_ASYNC_CANCEL_ANY);
	sqe->user_data = UD_CANCEL;
	sq_publish(ring);
	ret = ring_enter(br, 1, 0);
	if (ret != 1)
		return ret < 0 ? ret : -EIO;

	while (mr->ends < mr->m || !mr->cancel_seen) {
		if (now_ns() - t0 > MEM_DEADLINE_NS)
			return -ETIME;
		ret = wait_cqe(br, &cqe);
		if (ret)
			return ret;
		do {
			ret = mem_reap_cqe(mr, b, cqe);
			io_uring_cq_advance(ring, 1);
			if (ret)
				return ret;
		} while ((cqe = cq_peek(ring)));
	}
	/* and nothing more comes */
	sleep_ms(200);
	ret = ring_enter(br, 0, 0);
	if (ret < 0 && ret != -EINTR)
		return ret;
	if (cq_peek(ring))
		return bad_cqe("memory", cq_peek(ring), "no more CQEs");
	return 0;
}

static long growth_kb(const struct meminfo *a, const struct meminfo *b)
{
	return b->sunreclaim_kb - a->sunreclaim_kb;
}

/* close the ring; wait until SUnreclaim is back near its level before */
static int mem_close(struct bench_ring *br, struct mem_result *res,
		     unsigned int settle_ms)
{
	long grown = growth_kb(&res->before, &res->inflight);
	long slack = grown / 10 > MEM_SLACK_KB ? grown / 10 : MEM_SLACK_KB;
	uint64_t t0 = now_ns();
	int ret;

	iocoro_queue_exit(&br->co);
	for (;;) {
		ret = meminfo_read(&res->closed);
		if (ret)
			return ret;
		res->close_ms = (double)(now_ns() - t0) / 1e6;
		res->back = growth_kb(&res->before, &res->closed) <= slack;
		if (res->back || res->close_ms >= settle_ms)
			return 0;
		sleep_ms(50);
	}
}

/*
 * After the close: each of the @m coroutines ran twice (its start, its
 * end after the cancel), and no program runs once the ring is gone.
 */
static int mem_check_runs(struct bench *b, unsigned int m)
{
	uint64_t runs = READ_SHARED(b->skel->bss->wt_runs);

	sleep_ms(200);
	if (runs != (uint64_t)m * WAIT_RUNS ||
	    READ_SHARED(b->skel->bss->wt_runs) != runs ||
	    b->skel->bss->wt_canceled != m || b->skel->bss->wt_fired ||
	    b->skel->bss->wt_other) {
		mem_dump_bss(b->skel);
		return -EPROTO;
	}
	return 0;
}

/* @m coroutines (@bpf) or bare timeouts in flight, measured, then gone */
static int mem_case(struct bench *b, unsigned int m, bool bpf,
		    struct mem_result *res)
{
	struct mem_reap mr = { .m = m, .bpf = bpf };
	struct bench_ring br;
	uint64_t t0;
	int ret;

	memset(res, 0, sizeof(*res));
	res->name = bpf ? "bpf" : "timeout";
	res->m = m;
	mr.seen = calloc(m, 1);
	if (!mr.seen)
		return -ENOMEM;
	if (bpf) {
		b->skel->bss->wt_ts = (uintptr_t)&wait_ts;
		b->skel->bss->wt_runs = b->skel->bss->wt_started = 0;
		b->skel->bss->wt_fired = b->skel->bss->wt_canceled = 0;
		b->skel->bss->wt_other = b->skel->bss->wt_queue_err = 0;
	}
	ret = mem_ring_init(b, &br, bpf);
	if (ret)
		goto out;
	alarm(RUN_ALARM_S);

	ret = meminfo_read(&res->before);
	if (ret)
		goto fail;
	t0 = now_ns();
	ret = mem_submit(b, &br, m, bpf);
	if (!ret && bpf)
		ret = mem_pump_started(b, &br, m);
	if (ret)
		goto fail;
	res->start_ms = (double)(now_ns() - t0) / 1e6;
	ret = meminfo_read(&res->inflight);
	if (ret)
		goto fail;
	if (bpf && READ_SHARED(b->skel->bss->wt_runs) != m) {
		/* a timeout fired (or more ran): not all were in flight */
		mem_dump_bss(b->skel);
		ret = -EPROTO;
		goto fail;
	}

	t0 = now_ns();
	ret = mem_cancel_reap(b, &br, &mr);
	if (ret)
		goto fail;
	res->reap_ms = (double)(now_ns() - t0) / 1e6;
	ret = meminfo_read(&res->reaped);
	if (ret)
		goto fail;

	ret = mem_close(&br, res, b->o.settle_ms);
	alarm(0);
	if (!ret && bpf)
		ret = mem_check_runs(b, m);
	goto out;
fail:
	alarm(0);
	iocoro_queue_exit(&br.co);
out:
	if (ret)
		fprintf(stderr, "step_bench: memory, %u %s in flight: %s\n", m,
			bpf ? "coroutines" : "timeouts",
			ret == -EPROTO ? "wrong result (above)"
				       : iocoro_strerror(ret));
	free(mr.seen);
	return ret;
}

/* bytes per one in flight of a kB delta */
static double per_one(long kb, unsigned int m)
{
	return (double)kb * 1024.0 / (double)m;
}

static void csv_mem(struct bench *b, const struct mem_result *r)
{
	static const char *const when[] = { "before", "inflight", "reaped",
					    "closed" };
	const struct meminfo *mi[] = { &r->before, &r->inflight, &r->reaped,
				       &r->closed };
	char metric[64];
	unsigned int i;

	csv_row(b, "memory", r->name, "", "in_flight", "%u", r->m);
	for (i = 0; i < ARRAY_SIZE(when); i++) {
		snprintf(metric, sizeof(metric), "slab_kb_%s", when[i]);
		csv_row(b, "memory", r->name, "", metric, "%ld",
			mi[i]->slab_kb);
		snprintf(metric, sizeof(metric), "sunreclaim_kb_%s", when[i]);
		csv_row(b, "memory", r->name, "", metric, "%ld",
			mi[i]->sunreclaim_kb);
		if (mi[i]->kiocb >= 0) {
			snprintf(metric, sizeof(metric), "io_kiocb_%s",
				 when[i]);
			csv_row(b, "memory", r->name, "", metric, "%ld",
				mi[i]->kiocb);
		}
	}
	csv_row(b, "memory", r->name, "", "slab_bytes_per_one", "%.1f",
		per_one(r->inflight.slab_kb - r->before.slab_kb, r->m));
	csv_row(b, "memory", r->name, "", "sunreclaim_bytes_per_one", "%.1f",
		per_one(growth_kb(&r->before, &r->inflight), r->m));
	if (r->before.kiocb >= 0)
		csv_row(b, "memory", r->name, "", "io_kiocb_per_one", "%.3f",
			(double)(r->inflight.kiocb - r->before.kiocb) /
				(double)r->m);
	csv_row(b, "memory", r->name, "", "ended", "%u", r->m);
	csv_row(b, "memory", r->name, "", "start_ms", "%.1f", r->start_ms);
	csv_row(b, "memory", r->name, "", "reap_ms", "%.1f", r->reap_ms);
	csv_row(b, "memory", r->name, "", "close_ms", "%.1f", r->close_ms);
	csv_row(b, "memory", r->name, "", "back_after_close", "%d", r->back);
}

static void print_mem(struct bench *b, const struct mem_result *r,
		      unsigned int nr)
{
	unsigned int i;
	char kiocb[32];

	printf("\nkernel memory with M in flight (bpf: wait_step coroutines, "
	       "each waiting in a %d s TIMEOUT;\ntimeout: bare TIMEOUTs "
	       "from user space), /proc/meminfo deltas:\n", WAIT_S);
	printf("%-9s %7s %10s %14s %11s %16s %11s %9s %s\n", "case", "M",
	       "Slab kB", "SUnreclaim kB", "B/one Slab", "B/one SUnreclaim",
	       "io_kiocb/1", "start ms", "after cancel+reap+close");
	for (i = 0; i < nr; i++) {
		if (r[i].before.kiocb >= 0)
			snprintf(kiocb, sizeof(kiocb), "%.2f",
				 (double)(r[i].inflight.kiocb -
					  r[i].before.kiocb) / (double)r[i].m);
		else
			snprintf(kiocb, sizeof(kiocb), "n/a");
		printf("%-9s %7u %+10ld %+14ld %11.0f %16.0f %11s %9.1f "
		       "all %u ended; SUnreclaim %+ld kB %s (%.0f ms)\n",
		       r[i].name, r[i].m,
		       r[i].inflight.slab_kb - r[i].before.slab_kb,
		       growth_kb(&r[i].before, &r[i].inflight),
		       per_one(r[i].inflight.slab_kb - r[i].before.slab_kb,
			       r[i].m),
		       per_one(growth_kb(&r[i].before, &r[i].inflight),
			       r[i].m),
		       kiocb, r[i].start_ms, r[i].m,
		       growth_kb(&r[i].before, &r[i].closed),
		       r[i].back ? "back" : "NOT back", r[i].close_ms);
		csv_mem(b, &r[i]);
	}
	for (i = 0; i < nr; i++) {
		if (!r[i].back)
			printf("note: %s: SUnreclaim not back within %u ms of "
			       "the close (a debug kernel's KASAN quarantine "
			       "keeps freed objects)\n",
			       r[i].name, b->o.settle_ms);
	}
}

static int run_mem(struct bench *b)
{
	struct mem_result res[2];
	int ret;

	/* the bare timeouts first: the coroutines' ring comes second */
	ret = mem_case(b, b->o.coroutines, false, &res[0]);
	if (!ret)
		ret = mem_case(b, b->o.coroutines, true, &res[1]);
	if (ret)
		return ret;
	print_mem(b, res, ARRAY_SIZE(res));
	return 0;
}

/* ----------------------------------------------------------------- setup */

static int load(struct bench *b)
{
	static char log[64 << 10];
	struct iocoro_load_opts opts = {
		.sz = sizeof(opts),
		.log_buf = log,
		.log_size = sizeof(log),
	};
	int ret;

	b->skel = step_bpf__open();
	if (!b->skel)
		return -errno;
	ret = iocoro_object_prepare(b->skel->obj, &opts);
	if (ret < 0)
		return ret;
	ret = step_bpf__load(b->skel);
	if (ret) {
		if (log[0])
			fprintf(stderr, "step_bench: verifier log:\n%s\n", log);
		return ret;
	}
	ret = iocoro_prog_index(b->skel->obj, b->skel->progs.step);
	if (ret < 0)
		return ret;
	b->step_prog = (unsigned int)ret;
	ret = iocoro_prog_index(b->skel->obj, b->skel->progs.wait_step);
	if (ret < 0)
		return ret;
	b->wait_prog = (unsigned int)ret;
	return 0;
}

/* the step ring: programs attached, budget N + 1 (IORING_REGISTER_BPF_BUDGET) */
static int step_ring_init(struct bench *b)
{
	int ret = iocoro_queue_init(STEP_RING_ENTRIES, &b->ring.co, 0);

	if (ret)
		return ret;
	ret = iocoro_attach_object(&b->ring.co, b->skel->obj);
	if (ret < 0)
		return ret;
	return iocoro_set_budget(&b->ring.co, (unsigned int)STEP_RUNS(b->o.steps));
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: step_bench [--rounds R] [--steps N] [--coroutines M] "
		"[--link-batch B] [--csv FILE] [--tsc-khz KHZ] [--only C]\n"
		"  --rounds R      rounds of the three contenders (default %d)\n"
		"  --steps N       NOP steps per chain (default %d, at most %d)\n"
		"  --coroutines M  in flight for the memory case (default %d, "
		"at most %d; 0 skips it)\n"
		"  --link-batch B  NOPs per submit of the link contender "
		"(default and at most %d)\n"
		"  --csv FILE      also write every number as CSV "
		"(case,contender,round,metric,value)\n"
		"  --tsc-khz KHZ   the rate of %s (default: measured against "
		"CLOCK_MONOTONIC)\n"
		"  --measure-tsc   print that rate in kHz and exit (no ring, "
		"no BPF)\n"
		"  --only C        run contender C (bpf, loop, link) alone, R "
		"times, and print its steps/s only: for perf record\n"
		"  --settle-ms T   wait at most T ms for memory to come back "
		"after a close (default %d)\n",
		DEFAULT_ROUNDS, DEFAULT_STEPS, MAX_STEPS, DEFAULT_COROUTINES,
		MAX_COROUTINES, STEP_RING_ENTRIES, TICKS_NAME, MEM_BACK_MS);
}

static int parse_uint(const char *s, unsigned int lo, unsigned int hi,
		      unsigned int *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s || *s == '-' || v < lo || v > hi)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

static int parse_contender(const char *s, enum contender *out)
{
	unsigned int c;

	for (c = 0; c < C_NR; c++) {
		if (!strcmp(s, c_names[c])) {
			*out = (enum contender)c;
			return 0;
		}
	}
	return -EINVAL;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	unsigned int khz = 0;
	static const struct option longopts[] = {
		{ "rounds", required_argument, NULL, 'r' },
		{ "steps", required_argument, NULL, 'n' },
		{ "coroutines", required_argument, NULL, 'm' },
		{ "link-batch", required_argument, NULL, 'b' },
		{ "csv", required_argument, NULL, 'c' },
		{ "tsc-khz", required_argument, NULL, 't' },
		{ "measure-tsc", no_argument, NULL, 'T' },
		{ "only", required_argument, NULL, 'o' },
		{ "settle-ms", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret = 0;

	*o = (struct opts){ .rounds = DEFAULT_ROUNDS, .steps = DEFAULT_STEPS,
			    .coroutines = DEFAULT_COROUTINES,
			    .link_batch = STEP_RING_ENTRIES, .only = C_NR,
			    .settle_ms = MEM_BACK_MS };
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			ret = parse_uint(optarg, 1, MAX_ROUNDS, &o->rounds);
			break;
		case 'n':
			ret = parse_uint(optarg, 1, MAX_STEPS, &o->steps);
			break;
		case 'm':
			ret = parse_uint(optarg, 0, MAX_COROUTINES,
					 &o->coroutines);
			break;
		case 'b':
			ret = parse_uint(optarg, 1, STEP_RING_ENTRIES,
					 &o->link_batch);
			break;
		case 'c':
			o->csv = optarg;
			break;
		case 't':
			ret = parse_uint(optarg, 1000, 100000000, &khz);
			o->tsc_hz = (double)khz * 1000.0;
			break;
		case 'T':
			exit(measure_tsc());
		case 'o':
			ret = parse_contender(optarg, &o->only);
			break;
		case 's':
			ret = parse_uint(optarg, 0, 600000, &o->settle_ms);
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			return -EINVAL;
		}
		if (ret) {
			fprintf(stderr, "step_bench: bad value '%s'\n", optarg);
			return ret;
		}
	}
	return optind == argc ? 0 : -EINVAL;
}

static void print_header(struct bench *b)
{
	struct utsname u;

	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "?");
	printf("step_bench: %u dependent NOP steps per chain, %u rounds "
	       "(+1 warm-up of %u steps), contenders alternating, the order "
	       "rotating each round; kernel %s\n",
	       b->o.steps, b->o.rounds,
	       b->o.steps < WARMUP_STEPS ? b->o.steps : WARMUP_STEPS,
	       u.release);
	printf("  bpf:  one coroutine, each run checks the NOP before it and "
	       "queues NOP -> itself (budget %llu runs)\n",
	       (unsigned long long)STEP_RUNS(b->o.steps));
	printf("  loop: user space, submit one NOP + wait + check, N times "
	       "(QD1)\n");
	printf("  link: IOSQE_IO_LINK chains of %u NOPs per submit, no "
	       "decisions (upper bound)\n", b->o.link_batch);
	csv_row(b, "info", "kernel", "", "release", "%s", u.release);
}

static void print_timer(struct bench *b)
{
	char cs[64];

	clocksource(cs, sizeof(cs));
	if (b->o.tsc_hz)
		printf("  timer: %s at %.3f MHz (--tsc-khz; CLOCK_MONOTONIC on "
		       "%s says %.3f MHz over %.1f s)\n", TICKS_NAME,
		       b->tick_hz / 1e6, cs, b->cal_hz / 1e6, b->cal_s);
	else
		printf("  timer: %s at %.3f MHz (measured against "
		       "CLOCK_MONOTONIC on %s over %.1f s)\n", TICKS_NAME,
		       b->tick_hz / 1e6, cs, b->cal_s);
	csv_row(b, "info", "timer", "", "ticks", "%s", TICKS_NAME);
	csv_row(b, "info", "timer", "", "ticks_hz", "%.0f", b->tick_hz);
	csv_row(b, "info", "timer", "", "ticks_hz_given", "%d",
		b->o.tsc_hz != 0);
	csv_row(b, "info", "timer", "", "ticks_hz_measured", "%.0f",
		b->cal_hz);
	csv_row(b, "info", "timer", "", "clocksource", "%s", cs);
}

int main(int argc, char **argv)
{
	struct bench b;
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(&b, 0, sizeof(b));
	if (parse_args(argc, argv, &b.o)) {
		usage(stderr);
		return 2;
	}
	b.runs = calloc((size_t)b.o.rounds * C_NR, sizeof(*b.runs));
	if (!b.runs)
		return 1;
	if (b.o.csv) {
		b.csv = fopen(b.o.csv, "we");
		if (!b.csv) {
			fprintf(stderr, "step_bench: %s: %s\n", b.o.csv,
				strerror(errno));
			return 1;
		}
		fprintf(b.csv, "case,contender,round,metric,value\n");
	}

	ret = load(&b);
	if (ret) {
		fprintf(stderr, "step_bench: loading step.bpf.o: %s\n",
			iocoro_strerror(ret));
		goto out;
	}
	ret = step_ring_init(&b);
	if (ret) {
		fprintf(stderr, "step_bench: the step ring: %s\n",
			iocoro_strerror(ret));
		goto out;
	}
	if (b.o.only != C_NR) {
		ret = run_only(&b, b.o.only);
		goto out_ring;
	}
	print_header(&b);
	calibrate_start(&b);
	ret = run_rounds(&b);
	if (ret)
		goto out_ring;
	calibrate_end(&b);
	print_timer(&b);
	csv_steps(&b);
	print_steps(&b);
	iocoro_queue_exit(&b.ring.co);

	if (b.o.coroutines)
		ret = run_mem(&b);
	if (!ret)
		printf("\nstep_bench: ok (every chain and coroutine completed, "
		       "all counts exact)\n");
	goto out;
out_ring:
	iocoro_queue_exit(&b.ring.co);
out:
	if (b.csv && fclose(b.csv) && !ret) {
		fprintf(stderr, "step_bench: %s: %s\n", b.o.csv,
			strerror(errno));
		ret = -EIO;
	}
	step_bpf__destroy(b.skel);
	free(b.runs);
	return ret ? 1 : 0;
}
