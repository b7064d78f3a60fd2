// SPDX-License-Identifier: MIT
/*
 * bpf-lib's iocoro_await() and iocoro_then() queue one request a step: the
 * operation, which carries the kind that continues the coroutine
 * (bpf_io_coro_queue_sqe_cont()), not the operation and an IORING_OP_BPF
 * hard-linked after it as series v4 did. RT_MAX_COROS coroutines of
 * two_step (rt.bpf.c), each waiting in a read of an empty pipe, hold one
 * io_kiocb each: /proc/slabinfo's io_kiocb objects grow by about that many
 * (the ring allocates requests in batches of 8 and caches them), and by
 * twice as many on v4. Then the data comes, and each coroutine ends with its read's
 * result.
 */
#define _GNU_SOURCE
#include "iocoro.h" /* before liburing.h */

#include <bpf/libbpf.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "case.h"
#include "check.h"
#include "slab.h"
#include "rt.h"
#include "rt.skel.h"

IOCORO_CASE_OPTS(one_request_per_step, .serial = true)
{
	static char bufs[RT_MAX_COROS][8];
	const struct __kernel_timespec ts = { .tv_sec = 20 };
	struct iocoro_done done;
	struct rt_state st;
	struct rt_bpf *skel;
	struct iocoro co;
	long before, inflight;
	unsigned int i, idx;
	int p[2];

	CHECK_RET(iocoro_queue_init(2 * RT_MAX_COROS, &co, 0));
	skel = SKEL_OPEN(rt_bpf);
	CHECK_RET(iocoro_object_prepare(skel->obj, NULL));
	CHECK_RET(rt_bpf__load(skel));
	CHECK_RET(iocoro_attach_object(&co, skel->obj));
	idx = (unsigned int)CHECK_RET(iocoro_prog_index(skel->obj,
							 skel->progs.two_step));
	CHECK_SYS(pipe2(p, O_CLOEXEC));
	before = test_kiocb_objects();

	for (i = 0; i < RT_MAX_COROS; i++) {
		memset(&st, 0, sizeof(st));
		st.fd = p[0];
		st.buf = (uintptr_t)bufs[i];
		st.len = 1;
		CHECK_RET(iocoro_start_state(&co, idx, i, skel->maps.states,
					     &st, sizeof(st)));
	}
	/* every coroutine's first step ran: its read waits */
	for (i = 0; i < RT_MAX_COROS; i++) {
		unsigned int tries = 0;

		do {
			CHECK_RET(iocoro_state_read(skel->maps.states, i, &st,
						    sizeof(st)));
			if (st.step == RT_FINISH)
				break;
			/* the first steps run inside the ring's waits */
			iocoro_wait(&co, &done, &(struct __kernel_timespec){
						   .tv_nsec = 10000000 });
		} while (++tries < 1000);
		CHECK_EQ(st.step, RT_FINISH);
	}
	inflight = test_kiocb_objects();
	printf("one_request_per_step: %u coroutines in flight: %ld io_kiocb "
	       "more\n", RT_MAX_COROS, inflight - before);
	CHECK(inflight - before >= RT_MAX_COROS - RT_MAX_COROS / 8);
	CHECK(inflight - before < RT_MAX_COROS + RT_MAX_COROS / 2);

	/* the reads get their byte, the coroutines end with it */
	for (i = 0; i < RT_MAX_COROS; i++)
		CHECK_EQ(CHECK_SYS(write(p[1], "x", 1)), 1);
	for (i = 0; i < RT_MAX_COROS; i++) {
		CHECK_RET(iocoro_wait(&co, &done, &ts));
		CHECK_EQ(done.how, IOCORO_FINISHED);
		CHECK_EQ(done.res, 1);
	}
	close(p[0]);
	close(p[1]);
	iocoro_queue_exit(&co);
	rt_bpf__destroy(skel);
}
