// SPDX-License-Identifier: MIT
/*
 * A coroutine that posts a CQE every step, on a ring whose CQ (8 entries)
 * nobody reaps: once the CQ has overflowed, bpf_io_coro_emit_cqe()
 * refuses (-EOVERFLOW, kernel patch 0008) and the coroutine ends, instead
 * of filling the overflow list for its whole budget (4096 steps).
 */
#include <errno.h>
#include <unistd.h>

#include "coro_ops.h"

IOCORO_CASE(overflow_emit_bounded)
{
	struct coro_ops_bpf *skel;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct iocoro co;
	unsigned int i, nr = 0, emits = 0, ends = 0;

	skel = co_load();
	co_ring(&co, 4);
	CHECK_EQ(*co.ring.cq.kring_entries, 8);
	co_attach(&co, skel->progs.emitter, K_EMITTER);

	/* the start posts nothing when it succeeds */
	sqe = io_uring_get_sqe(&co.ring);
	iocoro_prep_kind(sqe, K_EMITTER);
	sqe->user_data = UD_START;
	sqe->flags = IOSQE_CQE_SKIP_SUCCESS;
	CHECK_EQ(io_uring_submit(&co.ring), 1);
	/* the steps run while the task is in the kernel: enter, reap nothing */
	for (i = 0; i < 500 && !skel->bss->emit_err; i++) {
		io_uring_get_events(&co.ring);
		usleep(1000);
	}
	CHECK_EQ(skel->bss->emit_err, -EOVERFLOW);
	CHECK(skel->bss->emit_ok <= 8 + 1);

	/* the CQ and the overflow list: the emits, then the coroutine's end */
	while (uring_wait_cqe_ms(&co.ring, &cqe, 100) == 0) {
		if (cqe->user_data == UD_EMIT) {
			emits++;
		} else {
			CHECK(cqe->user_data == UD_NOP ||
			      cqe->user_data == UD_START);
			CHECK_EQ(cqe->res, -EOVERFLOW);
			ends++;
		}
		nr++;
		io_uring_cqe_seen(&co.ring, cqe);
	}
	CHECK_EQ(emits, skel->bss->emit_ok);
	CHECK_EQ(ends, 1);
	CHECK(nr <= 8 + 2);

	co_down(&co, skel);
}
