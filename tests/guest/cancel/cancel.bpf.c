// SPDX-License-Identifier: GPL-2.0
/*
 * The steps of cancel.c. cn_count counts its runs and returns cn_ret,
 * or 7 while that is 0.
 * cn_read queues a read of cn_fd (its SQE flags IOSQE_IO_LINK and
 * cn_read_flags), continued by kind cn_count_kind, linked to a
 * LINK_TIMEOUT of cn_ts.
 */
#include <iocoro/bpf.h>

__u32 cn_runs;
__s32 cn_prev_res;
__s32 cn_fd;
__u64 cn_buf;
__u64 cn_ts;
__u32 cn_count_kind;
__u8 cn_read_flags;
__s32 cn_ret;
int cn_rc[2];

IOCORO_STEP(cn_count)
{
	cn_runs++;
	cn_prev_res = step->res;
	return cn_ret ?: 7;
}

IOCORO_STEP(cn_read)
{
	struct io_uring_sqe sqe;

	io_uring_prep_read(&sqe, cn_fd, (void *)cn_buf, 8, 0);
	sqe.user_data = 0x4ead;
	sqe.flags = IOSQE_IO_LINK | cn_read_flags;
	cn_rc[0] = bpf_io_coro_queue_sqe_cont(step, &sqe, sizeof(sqe),
					      cn_count_kind);
	io_uring_prep_rw(IORING_OP_LINK_TIMEOUT, &sqe, -1, (void *)cn_ts, 1,
			 0);
	sqe.user_data = 0x7173;
	cn_rc[1] = bpf_io_coro_queue_sqe(step, &sqe, sizeof(sqe));
	return 0;
}

SEC(".struct_ops")
struct io_coro_ops cn_count_ops = { .step = (void *)cn_count };
SEC(".struct_ops")
struct io_coro_ops cn_read_ops = { .step = (void *)cn_read };

char LICENSE[] SEC("license") = "GPL";
