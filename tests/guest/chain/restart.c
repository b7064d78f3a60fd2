// SPDX-License-Identifier: MIT
/*
 * -ERESTARTSYS and its kin are for the syscall layer, which restarts a
 * syscall that returns one; in a CQE they would confuse user space (errno
 * 512 and up have no name there). As for any request's result, a step's
 * result and the CQEs it posts carry -EINTR instead.
 */
#include "guest.h"
#include "restart.skel.h"

/* the kernel-internal codes of include/linux/errno.h */
#define ERESTARTSYS 512
#define ERESTARTNOINTR 513
#define ERESTARTNOHAND 514
#define ERESTART_RESTARTBLOCK 516

IOCORO_CASE(restart_codes)
{
	static const int codes[] = { ERESTARTSYS, ERESTARTNOINTR,
				     ERESTARTNOHAND, ERESTART_RESTARTBLOCK };
	struct io_uring_cqe cqes[2];
	struct restart_bpf *skel;
	struct io_uring *ring;
	struct iocoro co;
	unsigned int i;
	int link;

	skel = SKEL_LOAD(restart_bpf);
	uring_co_init(&co, 8, 0);
	ring = &co.ring;
	link = uring_attach(&co, skel->progs.rs_return, 0);
	for (i = 0; i < ARRAY_SIZE(codes); i++) {
		skel->bss->rs_ret = -codes[i];
		skel->bss->rs_emit_res = -codes[i];
		uring_prep_start(ring, 0, 1);
		uring_submit(ring, 1);
		uring_reap(ring, cqes, 2);
		EXPECT_CQE(cqes, 2, 0x5e, -EINTR);
		EXPECT_CQE(cqes, 2, 1, -EINTR);
		CHECK_EQ(skel->bss->rs_emit_rc, 0);
	}
	/* other errors stay as they are */
	skel->bss->rs_ret = -EIO;
	skel->bss->rs_emit_res = -EAGAIN;
	uring_prep_start(ring, 0, 1);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 2);
	EXPECT_CQE(cqes, 2, 0x5e, -EAGAIN);
	EXPECT_CQE(cqes, 2, 1, -EIO);
	close(link);
	io_uring_queue_exit(ring);
	restart_bpf__destroy(skel);
}
