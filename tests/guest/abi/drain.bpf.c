// SPDX-License-Identifier: GPL-2.0
/* The step of drain.c: queues one NOP (dr_ud) and returns 0 */
#include <iocoro/bpf.h>

__u64 dr_ud;
int dr_rc;
__u32 dr_runs;

IOCORO_STEP(dr_queue_nop)
{
	struct io_uring_sqe sqe;

	dr_runs++;
	io_uring_prep_nop(&sqe);
	sqe.user_data = dr_ud;
	dr_rc = bpf_io_coro_queue_sqe(step, &sqe, sizeof(sqe));
	return 0;
}

SEC(".struct_ops")
struct io_coro_ops dr_queue_nop_kind = { .step = (void *)dr_queue_nop };

char LICENSE[] SEC("license") = "GPL";
