// SPDX-License-Identifier: GPL-2.0
/*
 * orcwc's coroutine: orc's open, read and close, and between the read and
 * the close a look at the data. Only a sleepable step (in
 * SEC("struct_ops/sleepable/...")) may call bpf_copy_from_user(), which can
 * fault the user page in. Walked through in docs/tutorial.md.
 */
#include <iocoro/bpf.h>
#include <linux/fcntl.h>

#include "orcwc.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, ORCWC_MAX);
	__uint(map_flags, BPF_F_MMAPABLE);	/* user space maps the states */
	__type(key, __u32);
	__type(value, struct orcwc_state);
} orcwc_states SEC(".maps");

/* what count_piece() works on: a user buffer, its length, the count */
struct lines_ctx {
	__u64 ubuf;
	__u32 len;
	__u32 lines;
};

/* bpf_loop() body: the newlines of piece @i of the buffer */
static long count_piece(__u64 i, void *data)
{
	struct lines_ctx *c = data;
	__u32 off = (__u32)i * ORCWC_PIECE, j;
	char piece[ORCWC_PIECE];

	if (off >= c->len)
		return 1;			/* stop */
	if (bpf_copy_from_user(piece, sizeof(piece),
			       (const void *)(c->ubuf + off)))
		return 1;
	for (j = 0; j < ORCWC_PIECE && off + j < c->len; j++)
		c->lines += piece[j] == '\n';
	return 0;
}

/* newlines in the first @len bytes of the user buffer @ubuf */
static __always_inline __u32 count_lines(__u64 ubuf, __u32 len)
{
	struct lines_ctx c = { .ubuf = ubuf, .len = len };

	bpf_loop(ORCWC_BUF / ORCWC_PIECE, count_piece, &c, 0);
	return c.lines;
}

IOCORO_COROUTINE_SLEEPABLE(orcwc, &orcwc_states, struct orcwc_state)
{
	__s32 res = iocoro_ctx_prev_res(ctx);
	struct io_uring_sqe sqe;

	switch (st->step) {
	case ORCWC_OPEN:
		io_uring_prep_openat(&sqe, AT_FDCWD, (const char *)st->path,
				     O_RDONLY, 0);
		return iocoro_then(ctx, &sqe, &st->step, ORCWC_READ);
	case ORCWC_READ:
		if (res < 0)
			return iocoro_finish(ctx, res);
		st->fd = res;
		io_uring_prep_read(&sqe, st->fd, (void *)st->buf, ORCWC_BUF, 0);
		return iocoro_then(ctx, &sqe, &st->step, ORCWC_CLOSE);
	case ORCWC_CLOSE:
		st->result = res;
		if (res > 0)
			st->lines = count_lines(st->buf, (__u32)res);
		io_uring_prep_close(&sqe, st->fd);
		return iocoro_then(ctx, &sqe, &st->step, ORCWC_DONE);
	case ORCWC_DONE:
		if (st->result < 0)
			return iocoro_finish(ctx, st->result);
		return iocoro_finish(ctx, res < 0 ? res : st->result);
	}
	return iocoro_finish(ctx, -EINVAL);
}

char LICENSE[] SEC("license") = "GPL";
