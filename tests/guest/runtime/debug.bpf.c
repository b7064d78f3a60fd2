// SPDX-License-Identifier: GPL-2.0
/*
 * Coroutines of debug.c, built with IOCORO_DEBUG: the wrapper fails a
 * step that would end its coroutine without a CQE with -EPROTO.
 *
 *   dbg      mode DBG_G_VANISH: the first step returns 0 and does nothing
 *            else; DBG_G_OK: a NOP, then the end with 5.
 *   dbg_s    the same, sleepable.
 */
#define IOCORO_DEBUG
#include <iocoro/bpf.h>

#include "debug.h"

IOCORO_STATES(dbg_states, struct dbg_g_state, 8);

static __always_inline int dbg_body(struct io_coro_step *ctx,
				    struct dbg_g_state *st)
{
	struct io_uring_sqe sqe;

	st->runs++;
	if (st->mode == DBG_G_VANISH)
		return 0;
	if (!iocoro_ctx_has_prev(ctx)) {
		io_uring_prep_nop(&sqe);
		return (int)iocoro_await(ctx, &sqe);
	}
	return iocoro_finish(ctx, 5);
}

IOCORO_COROUTINE(dbg, &dbg_states, struct dbg_g_state)
{
	return dbg_body(ctx, st);
}

IOCORO_COROUTINE_SLEEPABLE(dbg_s, &dbg_states, struct dbg_g_state)
{
	return dbg_body(ctx, st);
}

char LICENSE[] SEC("license") = "GPL";
