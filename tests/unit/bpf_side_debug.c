// SPDX-License-Identifier: MIT
/*
 * bpf_coro.h built for the host with IOCORO_DEBUG (see bpf_side.c for the
 * build without it): the IOCORO_COROUTINE() wrapper's check of a step
 * that ends its coroutine without a CQE. The per-CPU count of actions is
 * bm.acts.
 */
#define IOCORO_DEBUG

#include <linux/bpf.h>

#include "bpf_side_mock.h"

/* <bpf/bpf_helpers.h>'s map definition macros */
#define __uint(name, val) int (*name)[val]
#define __type(name, val) __typeof__(val) *name

#include <iocoro/bpf_prep.h>
#include <iocoro/bpf_ctx.h>
#include <iocoro/bpf_coro.h>

/* the count of actions, or the coroutine's state */
static void *bpf_map_lookup_elem(void *map, const void *key)
{
	if (map == (void *)&iocoro__acts)
		return &bm.acts;
	bm.nr_lookups++;
	memcpy(&bm.lookup_key, key, sizeof(bm.lookup_key));
	return bm.lookup_value;
}

static struct dbg_state dbg_states[4];

IOCORO_COROUTINE(dbg_coro, &dbg_states, struct dbg_state)
{
	struct io_uring_sqe sqe;

	st->runs++;
	io_uring_prep_nop(&sqe);
	switch (st->mode) {
	case DBG_VANISH:
		return 0;
	case DBG_AWAIT:
		return (int)iocoro_await(ctx, &sqe);
	case DBG_AWAIT_FAILED:
		iocoro_await(ctx, &sqe);
		return 0;
	case DBG_FINISH:
		return iocoro_finish(ctx, 7);
	case DBG_LEAVE:
		return iocoro_leave(ctx);
	case DBG_SPAWN:
		return (int)iocoro_spawn(ctx, 1, 9);
	case DBG_ERROR:
		return -EIO;
	case DBG_RAW_ACTED:
		if (bpf_io_coro_queue_sqe(ctx, &sqe, sizeof(sqe)))
			return -EBUSY;
		iocoro__acted();
		return 0;
	}
	return iocoro_finish(ctx, -EINVAL);
}
