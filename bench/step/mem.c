// SPDX-License-Identifier: MIT
/*
 * step_bench's memory case: M coroutines of step.bpf.c's wait_step in
 * flight, each waiting in a TIMEOUT of WAIT_S seconds, next to the same
 * number of bare TIMEOUTs from user space, each in a fresh ring;
 * /proc/meminfo's Slab and SUnreclaim (and io_kiocb objects of
 * /proc/slabinfo when the kernel has it) before and with all in flight
 * give bytes per coroutine. All are then cancelled
 * (IORING_ASYNC_CANCEL_ANY) and reaped, every end checked, the ring
 * closed, and the memory read again until it is back.
 */
#include "step_bench.h"

#include <bpf/libbpf.h>

#include <stdlib.h>
#include <string.h>

#include "step.skel.h"

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

/* a fresh ring; with @progs the steps attached, each start's budget 4 */
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
	ret = coro_attach(b, br, MEM_BUDGET);
	if (ret)
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
				coro_prep_start(br, sqe, b->wait_kind, i);
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
		if (done.how != IOCORO_FINISHED || done.kind != b->wait_kind ||
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
 * end after the cancel), and no step runs once the ring is gone.
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

int run_mem(struct bench *b)
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
