// SPDX-License-Identifier: MIT
/*
 * The CQE flags a step may post: bpf_io_coro_emit_cqe() takes
 * IORING_CQE_F_MORE (more CQEs with its user_data follow) and refuses any
 * other flag (-EINVAL, nothing posted): IORING_CQE_F_BUFFER would tell
 * liburing and applications that the upper 16 bits are a provided
 * buffer's id to give back, IORING_CQE_F_NOTIF a zero-copy notification.
 * Step ret_val of chain.bpf.c, posting one CQE (ret_val_emit()).
 */
#include "chain.h"

#define UD_EF 0xef

IOCORO_CASE(emit_flags)
{
	static const unsigned int refused[] = {
		IORING_CQE_F_BUFFER, IORING_CQE_F_SOCK_NONEMPTY,
		IORING_CQE_F_NOTIF, IORING_CQE_F_BUF_MORE,
		IORING_CQE_F_BUFFER | (7U << IORING_CQE_BUFFER_SHIFT),
		1U << 31,
	};
	struct io_uring_cqe cqes[2];
	struct iocoro co;
	struct chain_bpf *skel = setup(&co, 8);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		/* only the request's own CQE */
		CHECK_EQ(ret_val_emit(skel, &co.ring, 0, UD_EF, 1, refused[i],
				      cqes, 1), -EINVAL);
		EXPECT_CQE(cqes, 1, UD_BPF, 0);
	}
	/* F_MORE and no flag go through */
	CHECK_EQ(ret_val_emit(skel, &co.ring, 0, UD_EF, 1, IORING_CQE_F_MORE,
			      cqes, 2), 0);
	CHECK_EQ(cqes[0].user_data, UD_EF);
	CHECK_EQ(cqes[0].flags, IORING_CQE_F_MORE);
	EXPECT_CQE(cqes, 2, UD_BPF, 0);
	CHECK_EQ(ret_val_emit(skel, &co.ring, 0, UD_EF, 1, 0, cqes, 2), 0);
	EXPECT_CQE(cqes, 2, UD_EF, 1);
	EXPECT_CQE(cqes, 2, UD_BPF, 0);
	teardown(&co, skel);
}
