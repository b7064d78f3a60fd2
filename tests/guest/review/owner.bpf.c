// SPDX-License-Identifier: GPL-2.0
/*
 * The programs of owner.c and fifo.c. busy: a chain of NOPs, each step
 * carrying busy again, that never waits; it counts its runs in
 * bu_runs[id] (id: the user_data's low 8 bits). tick: a chain of
 * TIMEOUTs of tk_ts, counting its runs in tk_runs. fresh: a step that
 * does nothing but count its runs in fr_runs (fifo.c submits many).
 */
#include <iocoro/bpf.h>

__u64 bu_runs[64];
__u64 bu_total;
__u64 tk_runs;
__u64 tk_ts;
__u64 fr_runs;
long bu_err;

SEC("iouring")
int busy(struct io_uring_step_ctx *ctx)
{
	struct io_uring_sqe sqe;
	__u32 id = ctx->user_data & 63;
	long rc;

	bu_runs[id]++;
	bu_total++;
	io_uring_prep_nop(&sqe);
	sqe.user_data = ctx->user_data;
	sqe.flags = IOSQE_CQE_SKIP_SUCCESS;
	rc = bpf_io_uring_queue_sqe_cont(ctx, &sqe, sizeof(sqe), 0);
	if (rc)
		bu_err = rc;
	return 0;
}

SEC("iouring")
int tick(struct io_uring_step_ctx *ctx)
{
	struct io_uring_sqe sqe;
	long rc;

	tk_runs++;
	io_uring_prep_timeout(&sqe, (void *)tk_ts, 0, 0);
	sqe.user_data = ctx->user_data;
	sqe.flags = IOSQE_CQE_SKIP_SUCCESS;
	rc = bpf_io_uring_queue_sqe_cont(ctx, &sqe, sizeof(sqe), 1);
	if (rc)
		bu_err = rc;
	return 0;
}

SEC("iouring")
int fresh(struct io_uring_step_ctx *ctx)
{
	(void)ctx;
	fr_runs++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
