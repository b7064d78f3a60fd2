// SPDX-License-Identifier: MIT
/*
 * IOCORO_DEBUG on the patched kernel (ctest runtime_<case>), with the
 * coroutines of debug.bpf.c:
 *
 *   debug_vanish  a step that returns 0 without awaiting or finishing:
 *                 the coroutine ends IOCORO_FAILED, -EPROTO, naming the
 *                 step's program, instead of never (non-sleepable and
 *                 sleepable program)
 *   debug_ok      a coroutine that awaits and finishes is not touched
 */
#define _GNU_SOURCE
#include "iocoro.h" /* before liburing.h */

#include <bpf/libbpf.h>

#include <stdio.h>
#include <string.h>

#include "case.h"
#include "check.h"
#include "debug.h"
#include "debug.skel.h"

static const struct __kernel_timespec dbg_wait = { .tv_sec = 20 };

static struct debug_bpf *dbg_up(struct iocoro *co)
{
	struct debug_bpf *skel;

	CHECK_RET(iocoro_queue_init(8, co, 0));
	skel = SKEL_OPEN(debug_bpf);
	CHECK_EQ(CHECK_RET(iocoro_skel_load(co, skel->skeleton, NULL)), 2);
	return skel;
}

static void dbg_run(struct iocoro *co, struct debug_bpf *skel,
		    const struct bpf_program *prog, uint32_t id,
		    uint32_t mode, struct iocoro_done *done)
{
	struct dbg_g_state st = { .mode = mode };
	int idx = CHECK_RET(iocoro_prog_index(skel->obj, prog));
	int ret;

	CHECK_RET(iocoro_start_state(co, (unsigned int)idx, id,
				     skel->maps.dbg_states, &st, sizeof(st)));
	ret = iocoro_wait(co, done, &dbg_wait);
	if (ret)
		FAIL("iocoro_wait: %d (%s)", ret, iocoro_strerror(ret));
	CHECK_EQ(done->id, id);
	CHECK_EQ(done->prog, (uint32_t)idx);
}

/* a coroutine of @mode on each program ends as @how, @res says */
static void dbg_both(uint32_t mode, enum iocoro_how how, int res)
{
	struct iocoro_done done;
	struct debug_bpf *skel;
	struct iocoro co;

	skel = dbg_up(&co);
	dbg_run(&co, skel, skel->progs.dbg, 1, mode, &done);
	printf("dbg: mode %u: %s %d (%s)\n", mode,
	       done.how == IOCORO_FAILED ? "FAILED" : "FINISHED", done.res,
	       iocoro_strerror(done.res));
	CHECK_EQ(done.how, how);
	CHECK_EQ(done.res, res);
	dbg_run(&co, skel, skel->progs.dbg_s, 2, mode, &done);
	CHECK_EQ(done.how, how);
	CHECK_EQ(done.res, res);
	CHECK_EQ(io_uring_cq_ready(&co.ring), 0);
	iocoro_queue_exit(&co);
	debug_bpf__destroy(skel);
}

IOCORO_CASE(debug_vanish)
{
	dbg_both(DBG_G_VANISH, IOCORO_FAILED, -EPROTO);
}

IOCORO_CASE(debug_ok)
{
	dbg_both(DBG_G_OK, IOCORO_FINISHED, 5);
}
