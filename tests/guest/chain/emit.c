// SPDX-License-Identifier: MIT
/* 0008 bpf_io_uring_emit_cqe(): CQEs a program posts (emit.bpf.c) */
#include "chain.h"
#include "emit.skel.h"

/* the programs of emit.bpf.c, at their index in the object */
enum emit_prog {
	P_EMIT_MANY,
	P_EMIT_VALS,
};

/* emit.bpf.c loaded, its programs attached to @ring */
static struct emit_bpf *emit_setup(struct io_uring *ring)
{
	struct emit_bpf *skel;

	uring_bpf_register_sec();
	skel = emit_bpf__open_and_load();
	if (!skel)
		FAIL("emit_bpf__open_and_load: %s", strerror(errno));
	uring_attach_object(ring, skel->obj);
	return skel;
}

static void emit_teardown(struct io_uring *ring, struct emit_bpf *skel)
{
	io_uring_queue_exit(ring);
	emit_bpf__destroy(skel);
}

/* the CQEs a program posts carry its values and come before its own */
IOCORO_CASE(emit_values)
{
	struct io_uring_cqe cqes[4];
	struct emit_bpf *skel;
	struct io_uring ring;
	unsigned int i;

	uring_init(&ring, 8, 0);
	skel = emit_setup(&ring);

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

	uring_prep_bpf(&ring, P_EMIT_VALS, UD_BPF);
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 4);
	for (i = 0; i < 3; i++) {
		CHECK_CQE(&cqes[i], skel->bss->ev_ud[i], skel->bss->ev_res[i]);
		CHECK_EQ(cqes[i].flags, skel->bss->ev_flags[i]);
		CHECK_EQ(skel->bss->ev_rc[i], 0);
	}
	CHECK_CQE(&cqes[3], UD_BPF, 7);
	CHECK_EQ(cqes[3].flags, 0);
	CHECK_EQ(skel->bss->ev_rc[3], 1);

	emit_teardown(&ring, skel);
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
	struct io_uring ring;
	unsigned int i;
	uint64_t t0;

	uring_init_params(&ring, 4, &p);
	CHECK_EQ(p.cq_entries, 4);
	CHECK_EQ(ring.cq.ring_entries, 4);
	skel = emit_setup(&ring);
	skel->bss->em_nr = NR_EMIT;
	skel->bss->em_base = UD_EMIT;

	uring_prep_bpf(&ring, P_EMIT_MANY, UD_BPF);
	uring_submit(&ring, 1);
	/*
	 * The program runs in this task's round, usually before
	 * io_uring_submit() returns; a round that stops at need_resched()
	 * (another test in the guest) leaves it for the next enter or a tick
	 * later (patch 7). Enter, reaping nothing, until it ran: then 4 CQEs
	 * are in the ring and the rest in overflow.
	 */
	for (t0 = uring_now_ns(); !skel->bss->em_ok && !skel->bss->em_err &&
	     uring_now_ns() - t0 < 5000000000ULL;)
		CHECK_RET(io_uring_enter(ring.ring_fd, 0, 0,
					 IORING_ENTER_GETEVENTS, NULL));
	CHECK_EQ(skel->bss->em_ok, NR_EMIT);
	CHECK_EQ(skel->bss->em_err, 0);
	CHECK_EQ(io_uring_cq_ready(&ring), 4);
	CHECK(IO_URING_READ_ONCE(*ring.sq.kflags) & IORING_SQ_CQ_OVERFLOW);

	uring_reap(&ring, cqes, NR_EMIT + 1);
	for (i = 0; i < NR_EMIT; i++) {
		if (cqes[i].user_data != UD_EMIT + i || cqes[i].res != (int)i ||
		    cqes[i].flags != 0)
			uring_dump_cqes(cqes, NR_EMIT + 1);
		CHECK_CQE(&cqes[i], UD_EMIT + i, i);
		CHECK_EQ(cqes[i].flags, 0);
	}
	CHECK_CQE(&cqes[NR_EMIT], UD_BPF, NR_EMIT);
	CHECK_EQ(cqes[NR_EMIT].flags, 0);
	/* nothing dropped */
	CHECK_EQ(*ring.cq.koverflow, 0);
	CHECK(!(IO_URING_READ_ONCE(*ring.sq.kflags) & IORING_SQ_CQ_OVERFLOW));

	emit_teardown(&ring, skel);
}
