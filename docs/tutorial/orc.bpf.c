// SPDX-License-Identifier: GPL-2.0
/*
 * orc's coroutine: open a file, read it, close it, and report how many
 * bytes were read, without a return to user space between the three.
 * Its step is a struct_ops program of struct io_coro_ops, which libiocoro
 * attaches to the ring as a coroutine kind. Walked through in
 * docs/tutorial.md.
 */
#include <iocoro/bpf.h>
#include <linux/fcntl.h>

#include "orc.h"

/* one state per coroutine, indexed by the coroutine's id */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, ORC_MAX);
	__type(key, __u32);
	__type(value, struct orc_state);
} orc_states SEC(".maps");

IOCORO_COROUTINE(orc, &orc_states, struct orc_state)
{
	/* the result of the operation the previous step queued */
	__s32 res = iocoro_ctx_prev_res(ctx);
	struct io_uring_sqe sqe;

	switch (st->step) {
	case ORC_OPEN:
		io_uring_prep_openat(&sqe, AT_FDCWD, (const char *)st->path,
				     O_RDONLY, 0);
		return iocoro_then(ctx, &sqe, &st->step, ORC_READ);
	case ORC_READ:
		if (res < 0)			/* the open failed */
			return iocoro_finish(ctx, res);
		st->fd = res;
		io_uring_prep_read(&sqe, st->fd, (void *)st->buf, st->len, 0);
		return iocoro_then(ctx, &sqe, &st->step, ORC_CLOSE);
	case ORC_CLOSE:
		st->result = res;		/* a length, or the read's error */
		io_uring_prep_close(&sqe, st->fd);
		return iocoro_then(ctx, &sqe, &st->step, ORC_DONE);
	case ORC_DONE:
		if (st->result < 0)
			return iocoro_finish(ctx, st->result);
		return iocoro_finish(ctx, res < 0 ? res : st->result);
	}
	return iocoro_finish(ctx, -EINVAL);
}

char LICENSE[] SEC("license") = "GPL";
