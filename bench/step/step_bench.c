// SPDX-License-Identifier: MIT
/*
 * step_bench: what one decision costs, in the kernel and from user space.
 *
 * Three contenders run N dependent NOP steps, in one process on one ring,
 * alternating round by round (the order rotates every round), after one
 * untimed warm-up round:
 *
 *   bpf   one coroutine (step.bpf.c "step", a struct_ops step attached
 *         to the ring as a kind): each run of the step checks the NOP
 *         before it in its context and queues NOP -> run of itself; the
 *         last run ends the coroutine with one CQE. User space submits
 *         once (the start SQE carries the budget, N + 1 runs) and waits
 *         for that CQE.
 *   loop  user space does the same: submit one NOP, wait, check its CQE,
 *         N times (queue depth 1).
 *   link  a static IOSQE_IO_LINK chain of the same NOPs, in batches of at
 *         most --link-batch (the SQ size), no decisions: the upper bound.
 *
 * For each: steps/s (median, min..max over the rounds), io_uring_enter()
 * calls, CQEs and NOPs per chain, counted here (every enter is a raw
 * syscall made by ring_enter(): the counts are exact); and the ratios
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
 *                   [--settle-ms T] [--only C]
 *        step_bench --measure-tsc
 *
 * Time: each chain is timed with rdtsc (CLOCK_MONOTONIC elsewhere than
 * x86), at the rate --tsc-khz gives, or else measured against
 * CLOCK_MONOTONIC; see ticks().
 *
 * Exit status: 0 all runs completed with exact counts (nothing here judges
 * time: targets are for the report); 1 a run failed or a count was off;
 * 2 bad usage. bench/README.md explains the output.
 *
 * This file: the command line, the rounds and the timer's calibration;
 * step_bench.h says where the rest is.
 */
#define _GNU_SOURCE
#include "step_bench.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

const char *const c_names[C_NR] = { "bpf", "loop", "link" };

void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

int bad_cqe(const char *who, const struct io_uring_cqe *cqe,
	    const char *want)
{
	fprintf(stderr,
		"step_bench: %s: CQE user_data 0x%" PRIx64 " res %d (%s) "
		"flags 0x%x, want %s\n",
		who, (uint64_t)cqe->user_data, cqe->res,
		cqe->res < 0 ? strerror(-cqe->res) : "ok", cqe->flags, want);
	return -EPROTO;
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

struct run *run_at(struct bench *b, unsigned int round, enum contender c)
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

	ret = coro_load(&b);
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
	coro_unload(&b);
	free(b.runs);
	return ret ? 1 : 0;
}
