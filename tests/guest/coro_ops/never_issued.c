// SPDX-License-Identifier: MIT
/*
 * A link member cancelled by an earlier member's failure was never
 * issued: it posts what upstream's link rules say, whether it carries a
 * step or not, and its step does not run (kernel patch 0009). Each case
 * runs the same link twice, B without and with a continuation, and
 * compares the CQEs.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "coro_ops.h"

/* A: a READ of a closed fd; B: a NOP; both queued by K_TMPL */
static unsigned int run_link(struct coro_ops_bpf *skel, struct iocoro *co,
			     __u8 a_flags, __u8 b_flags, int b_kind,
			     struct io_uring_cqe *cqes)
{
	static char buf[8];
	struct io_uring_cqe *cqe;
	int fd = uring_closed_fd();
	unsigned int nr = 0;

	memset(skel->bss->tmpl, 0, sizeof(skel->bss->tmpl));
	io_uring_prep_read(&skel->bss->tmpl[0], fd, buf, sizeof(buf), 0);
	skel->bss->tmpl[0].user_data = UD_READ;
	skel->bss->tmpl[0].flags = a_flags;
	io_uring_prep_nop(&skel->bss->tmpl[1]);
	skel->bss->tmpl[1].user_data = UD_NOP;
	skel->bss->tmpl[1].flags = b_flags;
	skel->bss->tmpl_kind[0] = -1;
	skel->bss->tmpl_kind[1] = b_kind;
	skel->bss->tmpl_n = 2;
	co_start(co, K_TMPL, UD_START);
	while (nr < 4 && uring_wait_cqe_ms(&co->ring, &cqe, 200) == 0) {
		cqes[nr++] = *cqe;
		io_uring_cqe_seen(&co->ring, cqe);
	}
	CHECK_EQ(skel->bss->tmpl_rc[0], 0);
	CHECK_EQ(skel->bss->tmpl_rc[1], 0);
	return nr;
}

static void same_as_plain(struct coro_ops_bpf *skel, struct iocoro *co,
			  __u8 a_flags, __u8 b_flags)
{
	struct io_uring_cqe plain[4], cont[4];
	unsigned int n_plain, n_cont, i;

	n_plain = run_link(skel, co, a_flags, b_flags, -1, plain);
	n_cont = run_link(skel, co, a_flags, b_flags, K_SEEN, cont);
	if (n_plain != n_cont) {
		uring_dump_cqes(plain, n_plain);
		uring_dump_cqes(cont, n_cont);
		FAIL("flags %#x/%#x: %u CQEs, %u with a step", a_flags, b_flags,
		     n_plain, n_cont);
	}
	for (i = 0; i < n_plain; i++)
		EXPECT_CQE(cont, n_cont, plain[i].user_data, plain[i].res);
	CHECK_EQ(skel->bss->seen.runs, 0);
}

IOCORO_CASE(never_issued_link)
{
	struct coro_ops_bpf *skel;
	struct iocoro co;

	skel = co_up(&co);
	co_attach(&co, skel->progs.tmpl_step, K_TMPL);
	co_attach(&co, skel->progs.seen_step, K_SEEN);

	same_as_plain(skel, &co, IOSQE_IO_LINK, 0);
	same_as_plain(skel, &co, IOSQE_IO_LINK, IOSQE_CQE_SKIP_SUCCESS);
	same_as_plain(skel, &co, IOSQE_IO_LINK | IOSQE_CQE_SKIP_SUCCESS,
		      IOSQE_CQE_SKIP_SUCCESS);
	same_as_plain(skel, &co, IOSQE_IO_LINK | IOSQE_CQE_SKIP_SUCCESS, 0);

	co_down(&co, skel);
}
