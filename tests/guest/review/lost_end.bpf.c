// SPDX-License-Identifier: GPL-2.0
/*
 * The program of lost_end.c: a coroutine step that posts le_nr CQEs and
 * then ends the coroutine with le_res.
 */
#include <iocoro/bpf.h>

__u32 le_nr;
__s32 le_res;
__u32 le_ok;
__u32 le_busy;

struct le_loop {
	struct io_uring_step_ctx *ctx;
};

static long le_one(__u32 i, struct le_loop *l)
{
	long rc = bpf_io_uring_emit_cqe(l->ctx, 0x1e0000 + i, (__s32)i, 0);

	if (!rc)
		le_ok++;
	else if (rc == -EBUSY)
		le_busy++;
	return 0;
}

SEC("iouring")
int le_step(struct io_uring_step_ctx *ctx)
{
	struct le_loop l = { .ctx = ctx };

	bpf_loop(le_nr, le_one, &l, 0);
	return iocoro_finish(ctx, le_res);
}

char LICENSE[] SEC("license") = "GPL";
