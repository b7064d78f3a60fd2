// SPDX-License-Identifier: GPL-2.0
/*
 * The programs of cancel.c. cn_count counts its runs and returns 7.
 * cn_read queues a read of cn_fd, carrying cn_count, linked to a
 * LINK_TIMEOUT of cn_ts.
 */
#include <iocoro/bpf.h>

__u32 cn_runs;
__s32 cn_prev_res;
__s32 cn_fd;
__u64 cn_buf;
__u64 cn_ts;
long cn_rc[2];

SEC("iouring")
int cn_count(struct io_uring_step_ctx *ctx)
{
	cn_runs++;
	cn_prev_res = iocoro_ctx_prev_res(ctx);
	return 7;
}

SEC("iouring")
int cn_read(struct io_uring_step_ctx *ctx)
{
	struct io_uring_sqe sqe;

	io_uring_prep_read(&sqe, cn_fd, (void *)cn_buf, 8, 0);
	sqe.user_data = 0x4ead;
	sqe.flags = IOSQE_IO_LINK;
	cn_rc[0] = bpf_io_uring_queue_sqe_cont(ctx, &sqe, sizeof(sqe), 0);
	io_uring_prep_rw(IORING_OP_LINK_TIMEOUT, &sqe, -1, (void *)cn_ts, 1,
			 0);
	sqe.user_data = 0x7173;
	cn_rc[1] = bpf_io_uring_queue_sqe(ctx, &sqe, sizeof(sqe));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
