// SPDX-License-Identifier: MIT
/* bpf_io_coro_emit_cqe(): CQEs a step posts (emit.bpf.c) */
#include "chain.h"
#include "emit.skel.h"

/* emit.bpf.c loaded, its steps attached to @co as kinds */
static struct emit_bpf *emit_setup(struct iocoro *co)
{
	struct emit_bpf *skel = emit_bpf__open();

	if (!skel)
		FAIL("emit_bpf__open: %s", strerror(errno));
	CHECK_EQ(CHECK_RET(iocoro_skel_load(co, skel->skeleton, NULL)), 2);
	return skel;
}

/* the kind iocoro_skel_load() gave @step */
static unsigned int emit_kind(struct emit_bpf *skel, struct bpf_program *step)
{
	return CHECK_RET(iocoro_prog_index(skel->obj, step));
}

static void emit_teardown(struct iocoro *co, struct emit_bpf *skel)
{
	iocoro_queue_exit(co);
	emit_bpf__destroy(skel);
}

/* the CQEs a step posts carry its values and come before its own */
IOCORO_CASE(emit_values)
{
	struct io_uring_cqe cqes[4];
	struct emit_bpf *skel;
	struct iocoro co;
	struct io_uring *ring = &co.ring;
	unsigned int i;

	chain_ring(&co, 8);
	skel = emit_setup(&co);

	skel->bss->ev_n = 3;
	skel->bss->ev_ud[0] = UD_EMIT + 1;
	skel->bss->ev_res[0] = -EIO;
	skel->bss->ev_flags[0] = 0;
	skel->bss->ev_ud[1] = UD_EMIT + 2;
	skel->bss->ev_res[1] = INT_MAX;
	skel->bss->ev_flags[1] = IORING_CQE_F_MORE;
	skel->bss->ev_ud[2] = UD_EMIT + 3;
	skel->bss->ev_res[2] = 0;
	skel->bss->ev_flags[2] = 0;
	skel->bss->ev_ret = 7;
	for (i = 0; i < EV_MAX; i++)
		skel->bss->ev_rc[i] = 1;

	uring_prep_start(ring, emit_kind(skel, skel->progs.emit_vals), UD_BPF);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 4);
	for (i = 0; i < 3; i++) {
		CHECK_CQE(&cqes[i], skel->bss->ev_ud[i], skel->bss->ev_res[i]);
		CHECK_EQ(cqes[i].flags, skel->bss->ev_flags[i]);
		CHECK_EQ(skel->bss->ev_rc[i], 0);
	}
	CHECK_CQE(&cqes[3], UD_BPF, 7);
	CHECK_EQ(cqes[3].flags, 0);
	CHECK_EQ(skel->bss->ev_rc[3], 1);

	emit_teardown(&co, skel);
}

#define NR_EMIT 200

/*
 * A CQ of 4 entries, 200 CQEs posted in one run: the CQ fills, the rest
 * goes to the overflow list, nothing is dropped and the order is kept.
 */
IOCORO_CASE(emit_overflow)
{
	struct io_uring_params p = {
		.flags = IORING_SETUP_CQSIZE,
		.cq_entries = 4,
	};
	struct io_uring_cqe cqes[NR_EMIT + 1];
	struct emit_bpf *skel;
	struct iocoro co;
	struct io_uring *ring = &co.ring;
	uint64_t t0;

	chain_ring_params(&co, 4, &p);
	CHECK_EQ(p.cq_entries, 4);
	CHECK_EQ(ring->cq.ring_entries, 4);
	skel = emit_setup(&co);
	skel->bss->em_nr = NR_EMIT;
	skel->bss->em_base = UD_EMIT;

	uring_prep_start(ring, emit_kind(skel, skel->progs.emit_many), UD_BPF);
	uring_submit(ring, 1);
	/*
	 * The step runs in this task's round, usually before
	 * io_uring_submit() returns; a round that stops at need_resched()
	 * (another test in the guest) leaves it for the next enter or a tick
	 * later. Enter, reaping nothing, until it ran: then 4 CQEs
	 * are in the ring and the rest in overflow.
	 */
	for (t0 = uring_now_ns(); !skel->bss->em_ok && !skel->bss->em_err &&
	     uring_now_ns() - t0 < 5000000000ULL;)
		CHECK_RET(io_uring_enter(ring->ring_fd, 0, 0,
					 IORING_ENTER_GETEVENTS, NULL));
	CHECK_EQ(skel->bss->em_ok, NR_EMIT);
	CHECK_EQ(skel->bss->em_err, 0);
	CHECK_EQ(io_uring_cq_ready(ring), 4);
	CHECK(IO_URING_READ_ONCE(*ring->sq.kflags) & IORING_SQ_CQ_OVERFLOW);

	uring_reap(ring, cqes, NR_EMIT + 1);
	uring_expect_emitted(cqes, NR_EMIT, UD_EMIT, UD_BPF);
	/* nothing dropped */
	CHECK_EQ(*ring->cq.koverflow, 0);
	CHECK(!(IO_URING_READ_ONCE(*ring->sq.kflags) & IORING_SQ_CQ_OVERFLOW));

	emit_teardown(&co, skel);
}
