// SPDX-License-Identifier: GPL-2.0
/* The program of drain.c: queues one NOP (dr_ud) and returns 0 */
#include <iocoro/bpf.h>

__u64 dr_ud;
long dr_rc;
__u32 dr_runs;

SEC("iouring")
int dr_queue_nop(struct io_uring_step_ctx *ctx)
{
	struct io_uring_sqe sqe;

	dr_runs++;
	io_uring_prep_nop(&sqe);
	sqe.user_data = dr_ud;
	dr_rc = bpf_io_uring_queue_sqe(ctx, &sqe, sizeof(sqe));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
