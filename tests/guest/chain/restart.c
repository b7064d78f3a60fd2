// SPDX-License-Identifier: MIT
/*
 * -ERESTARTSYS and its kin are for the syscall layer, which restarts a
 * syscall that returns one; in a CQE they would confuse user space (errno
 * 512 and up have no name there). As for any request's result, a step's
 * result and the CQEs it posts carry -EINTR instead. Step ret_val of
 * chain.bpf.c, posting one CQE with the code it returns (ret_val_emit()).
 */
#include "chain.h"

/* the kernel-internal codes of include/linux/errno.h */
#define ERESTARTSYS 512
#define ERESTARTNOINTR 513
#define ERESTARTNOHAND 514
#define ERESTART_RESTARTBLOCK 516

#define UD_RS 0x5e

IOCORO_CASE(restart_codes)
{
	static const int codes[] = { ERESTARTSYS, ERESTARTNOINTR,
				     ERESTARTNOHAND, ERESTART_RESTARTBLOCK };
	struct io_uring_cqe cqes[2];
	struct iocoro co;
	struct chain_bpf *skel = setup(&co, 8);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(codes); i++) {
		CHECK_EQ(ret_val_emit(skel, &co.ring, -codes[i], UD_RS,
				      -codes[i], 0, cqes, 2), 0);
		EXPECT_CQE(cqes, 2, UD_RS, -EINTR);
		EXPECT_CQE(cqes, 2, UD_BPF, -EINTR);
	}
	/* other errors stay as they are */
	CHECK_EQ(ret_val_emit(skel, &co.ring, -EIO, UD_RS, -EAGAIN, 0, cqes,
			      2), 0);
	EXPECT_CQE(cqes, 2, UD_RS, -EAGAIN);
	EXPECT_CQE(cqes, 2, UD_BPF, -EIO);
	teardown(&co, skel);
}
