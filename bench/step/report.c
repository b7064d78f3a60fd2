// SPDX-License-Identifier: MIT
/*
 * step_bench's report: the header, the timer line, the table of the step
 * case (steps/s over the rounds, exact counts, the ratios bpf/loop and
 * bpf/link) and its CSV rows (case,contender,round,metric,value).
 */
#include "step_bench.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

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
void csv_row(struct bench *b, const char *cas, const char *who,
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

void csv_steps(struct bench *b)
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

void print_steps(struct bench *b)
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

/* ---------------------------------------------------- header and timer */

void print_header(struct bench *b)
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

void print_timer(struct bench *b)
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
