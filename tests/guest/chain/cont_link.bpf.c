// SPDX-License-Identifier: GPL-2.0
/*
 * The programs of cont_link.c (patch 0009, bpf_io_uring_queue_sqe_cont()
 * in a link), attached in this order. cl_start queues the two SQEs user
 * space wrote to cl_sqe: the first with cl_step as its continuation, the
 * second as it is. cl_step records the completion it sees and returns
 * cl_ret.
 */
#include <iocoro/bpf.h>

enum { P_CL_START, P_CL_STEP };

struct io_uring_sqe cl_sqe[2];
long cl_rc[2];
__u32 cl_runs;
__s32 cl_prev_res;
__s32 cl_ret;

SEC("iouring")
int cl_start(struct io_uring_step_ctx *ctx)
{
	struct io_uring_sqe sqe;

	__builtin_memcpy(&sqe, &cl_sqe[0], sizeof(sqe));
	cl_rc[0] = bpf_io_uring_queue_sqe_cont(ctx, &sqe, sizeof(sqe),
					       P_CL_STEP);
	__builtin_memcpy(&sqe, &cl_sqe[1], sizeof(sqe));
	cl_rc[1] = bpf_io_uring_queue_sqe(ctx, &sqe, sizeof(sqe));
	return 0;
}

SEC("iouring")
int cl_step(struct io_uring_step_ctx *ctx)
{
	cl_runs++;
	cl_prev_res = iocoro_ctx_prev_res(ctx);
	return cl_ret;
}

char LICENSE[] SEC("license") = "GPL";
