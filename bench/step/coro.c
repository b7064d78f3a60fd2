// SPDX-License-Identifier: MIT
/*
 * step_bench's iocoro side: step.bpf.c loaded once, its two steps ("step"
 * and "wait_step", struct_ops programs of struct io_coro_ops) attached to
 * each ring that runs coroutines as kinds, one bpf_link each
 * (iocoro_attach_object()), and the bpf contender: one coroutine of N
 * dependent NOP steps, started with one SQE that carries its budget.
 */
#include "step_bench.h"

#include <bpf/libbpf.h>

#include <string.h>

#include "step.skel.h"

/* load step.bpf.c; find the kinds its steps get on every ring */
int coro_load(struct bench *b)
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
	b->step_kind = (unsigned int)ret;
	ret = iocoro_prog_index(b->skel->obj, b->skel->progs.wait_step);
	if (ret < 0)
		return ret;
	b->wait_kind = (unsigned int)ret;
	return 0;
}

void coro_unload(struct bench *b)
{
	step_bpf__destroy(b->skel);
	b->skel = NULL;
}

/*
 * Attach the object's steps to @br's ring as kinds, by bpf_links that
 * iocoro_queue_exit() closes, and set the budget its starts carry.
 */
int coro_attach(struct bench *b, struct bench_ring *br, unsigned int budget)
{
	int ret = iocoro_attach_object(&br->co, b->skel->obj);

	if (ret < 0)
		return ret;
	return iocoro_set_budget(&br->co, budget);
}

/*
 * The start of coroutine @id at @kind, as iocoro_start() preps it (the
 * budget of iocoro_set_budget() in sqe->len), for a ring this file
 * submits to itself
 */
void coro_prep_start(struct bench_ring *br, struct io_uring_sqe *sqe,
		     unsigned int kind, uint32_t id)
{
	iocoro_prep_start(sqe, kind, id);
	sqe->len = br->co.budget;
}

/* the step ring: the steps attached, every start's budget N + 1 */
int step_ring_init(struct bench *b)
{
	int ret = iocoro_queue_init(STEP_RING_ENTRIES, &b->ring.co, 0);

	if (ret)
		return ret;
	return coro_attach(b, &b->ring, (unsigned int)STEP_RUNS(b->o.steps));
}

/* (1) one coroutine of @n NOP steps: one submit, one CQE */
int run_bpf(struct bench *b, unsigned int n, struct run *r)
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
	coro_prep_start(br, io_uring_get_sqe(&br->co.ring), b->step_kind, 0);
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
