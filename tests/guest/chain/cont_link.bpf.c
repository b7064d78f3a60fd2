// SPDX-License-Identifier: GPL-2.0
/*
 * The steps of cont_link.c (bpf_io_coro_queue_sqe_cont() at the head of a
 * link), attached by iocoro_skel_load() as kinds in this order. cl_start
 * queues the two SQEs user space wrote to cl_sqe: the first continuing
 * at cl_step's kind (cl_step_kind), the second as it is. cl_step records
 * the completion it sees and returns cl_ret.
 */
#include <iocoro/coro_ops.h>

char LICENSE[] SEC("license") = "GPL";

struct io_uring_sqe cl_sqe[2];
__u32 cl_step_kind;
int cl_rc[2];
__u32 cl_runs;
__s32 cl_res;
__u64 cl_res_ud;
__s32 cl_ret;

IOCORO_STEP(cl_start)
{
	struct io_uring_sqe sqe;

	__builtin_memcpy(&sqe, &cl_sqe[0], sizeof(sqe));
	cl_rc[0] = bpf_io_coro_queue_sqe_cont(step, &sqe, sizeof(sqe),
					      cl_step_kind);
	__builtin_memcpy(&sqe, &cl_sqe[1], sizeof(sqe));
	cl_rc[1] = bpf_io_coro_queue_sqe(step, &sqe, sizeof(sqe));
	return 0;
}

IOCORO_STEP(cl_step)
{
	cl_runs++;
	cl_res = step->res;
	cl_res_ud = step->res_user_data;
	return cl_ret;
}

SEC(".struct_ops")
struct io_coro_ops cl_start_kind = { .step = (void *)cl_start };
SEC(".struct_ops")
struct io_coro_ops cl_step_kind_ops = { .step = (void *)cl_step };
