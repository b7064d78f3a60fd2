// SPDX-License-Identifier: MIT
/*
 * The CQE flags a step may post: bpf_io_coro_emit_cqe() takes
 * IORING_CQE_F_MORE (more CQEs with its user_data follow) and refuses any
 * other flag (-EINVAL, nothing posted): IORING_CQE_F_BUFFER would tell
 * liburing and applications that the upper 16 bits are a provided
 * buffer's id to give back, IORING_CQE_F_NOTIF a zero-copy notification.
 */
#include "guest.h"
#include "emit_flags.skel.h"

IOCORO_CASE(emit_flags)
{
	static const unsigned int refused[] = {
		IORING_CQE_F_BUFFER, IORING_CQE_F_SOCK_NONEMPTY,
		IORING_CQE_F_NOTIF, IORING_CQE_F_BUF_MORE,
		IORING_CQE_F_BUFFER | (7U << IORING_CQE_BUFFER_SHIFT),
		1U << 31,
	};
	struct io_uring_cqe cqes[2];
	struct emit_flags_bpf *skel;
	struct io_uring *ring;
	struct iocoro co;
	unsigned int i;
	int link;

	skel = SKEL_LOAD(emit_flags_bpf);
	uring_co_init(&co, 8, 0);
	ring = &co.ring;
	link = uring_attach(&co, skel->progs.ef_emit, 0);
	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		skel->bss->ef_flags = refused[i];
		uring_prep_start(ring, 0, 1);
		uring_submit(ring, 1);
		/* only the request's own CQE */
		uring_reap(ring, cqes, 1);
		EXPECT_CQE(cqes, 1, 1, 0);
		CHECK_EQ(skel->bss->ef_rc, -EINVAL);
	}
	/* F_MORE and no flag go through */
	skel->bss->ef_flags = IORING_CQE_F_MORE;
	uring_prep_start(ring, 0, 1);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 2);
	CHECK_EQ(skel->bss->ef_rc, 0);
	CHECK_EQ(cqes[0].user_data, 0xef);
	CHECK_EQ(cqes[0].flags, IORING_CQE_F_MORE);
	skel->bss->ef_flags = 0;
	uring_prep_start(ring, 0, 1);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 2);
	EXPECT_CQE(cqes, 2, 0xef, 1);
	close(link);
	io_uring_queue_exit(ring);
	emit_flags_bpf__destroy(skel);
}
