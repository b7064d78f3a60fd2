// SPDX-License-Identifier: GPL-2.0
/*
 * The steps of the abi suite (abi.h): struct io_coro_ops programs, each
 * in a map of its own so that libbpf loads it as a step; the tests attach
 * them to rings as kinds with iocoro_kind_attach() and start them with
 * IORING_OP_BPF. They queue SQEs with bpf_io_coro_queue_sqe(); the suite
 * passes buffers, fds and user_data through the globals below and reads
 * back what the kfunc returned (rc[]) and how often a step ran (runs).
 * Every step returns 0: the result of the request it runs for.
 */
#include <iocoro/coro_ops.h>

#define SQE_SIZE	64
#define SQE128_SIZE	128
#include "abi_progs.h"
/* SQEs q_map can queue from map_sqes[] */
#define NR_MAP		4

char LICENSE[] SEC("license") = "GPL";

/* how many times any step of this object ran */
__u32 runs;
/* return values of bpf_io_coro_queue_sqe(), in call order */
long rc[NR_MANY];
/* how many entries of rc[] the last run wrote */
__u32 nr_rc;

/* q_nop, q_len, q_many: user_data of the (first) queued NOP */
__u64 nop_ud;

/* q_write, q_wr_fsync: the write (fd, user buffer, length, offset) */
__s32 wr_fd;
__u64 wr_buf;
__u32 wr_len;
__u64 wr_off;
__u64 wr_ud;
/* q_wr_fsync: user_data of the fsync linked after the write */
__u64 fsync_ud;

/* q_map: SQEs prepared by user space, queued from the map value as is */
struct io_uring_sqe map_sqes[NR_MAP];
__u32 map_nr;

static __always_inline void record(int i, long ret)
{
	if (i >= 0 && i < NR_MANY)
		rc[i] = ret;
	nr_rc = i + 1;
}

/* does nothing but count its runs */
IOCORO_STEP(nothing)
{
	(void)step;
	__sync_fetch_and_add(&runs, 1);
	return 0;
}

/* queues one NOP built on the stack */
IOCORO_STEP(q_nop)
{
	struct io_uring_sqe sqe;

	__sync_fetch_and_add(&runs, 1);
	__builtin_memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_NOP;
	sqe.user_data = nop_ud;
	record(0, bpf_io_coro_queue_sqe(step, &sqe, SQE_SIZE));
	return 0;
}

static __always_inline void prep_write(struct io_uring_sqe *sqe)
{
	__builtin_memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_WRITE;
	sqe->fd = wr_fd;
	sqe->addr = wr_buf;
	sqe->len = wr_len;
	sqe->off = wr_off;
	sqe->user_data = wr_ud;
}

/* queues one write of wr_len bytes at wr_buf to wr_fd at wr_off */
IOCORO_STEP(q_write)
{
	struct io_uring_sqe sqe;

	__sync_fetch_and_add(&runs, 1);
	prep_write(&sqe);
	record(0, bpf_io_coro_queue_sqe(step, &sqe, SQE_SIZE));
	return 0;
}

/* queues the write of q_write hard-linked to an fsync of the same fd */
IOCORO_STEP(q_wr_fsync)
{
	struct io_uring_sqe sqe;

	__sync_fetch_and_add(&runs, 1);
	prep_write(&sqe);
	sqe.flags = IOSQE_IO_LINK;
	record(0, bpf_io_coro_queue_sqe(step, &sqe, SQE_SIZE));

	__builtin_memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_FSYNC;
	sqe.fd = wr_fd;
	sqe.user_data = fsync_ud;
	record(1, bpf_io_coro_queue_sqe(step, &sqe, SQE_SIZE));
	return 0;
}

/*
 * queues the same NOP (a 128-byte SQE whose second half is zero) with the
 * lengths 32, 128 and 64: only the ring's SQE size may be accepted
 */
IOCORO_STEP(q_len)
{
	struct io_uring_sqe sqe[2];

	__sync_fetch_and_add(&runs, 1);
	__builtin_memset(sqe, 0, sizeof(sqe));
	sqe[0].opcode = IORING_OP_NOP;
	sqe[0].user_data = nop_ud;
	record(0, bpf_io_coro_queue_sqe(step, sqe, 32));
	record(1, bpf_io_coro_queue_sqe(step, sqe, SQE128_SIZE));
	record(2, bpf_io_coro_queue_sqe(step, sqe, SQE_SIZE));
	return 0;
}

/* tries to queue NR_MANY NOPs (user_data nop_ud + i): one too many */
IOCORO_STEP(q_many)
{
	struct io_uring_sqe sqe;
	int i;

	__sync_fetch_and_add(&runs, 1);
	__builtin_memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_NOP;
	for (i = 0; i < NR_MANY; i++) {
		sqe.user_data = nop_ud + i;
		record(i, bpf_io_coro_queue_sqe(step, &sqe, SQE_SIZE));
	}
	return 0;
}

/* queues map_sqes[0 .. map_nr - 1] straight from the map value */
IOCORO_STEP(q_map)
{
	int i;

	__sync_fetch_and_add(&runs, 1);
	for (i = 0; i < NR_MAP; i++) {
		if ((__u32)i >= map_nr)
			break;
		record(i, bpf_io_coro_queue_sqe(step, &map_sqes[i], SQE_SIZE));
	}
	return 0;
}

SEC(".struct_ops")
struct io_coro_ops nothing_ops = { .step = (void *)nothing };
SEC(".struct_ops")
struct io_coro_ops q_nop_ops = { .step = (void *)q_nop };
SEC(".struct_ops")
struct io_coro_ops q_write_ops = { .step = (void *)q_write };
SEC(".struct_ops")
struct io_coro_ops q_wr_fsync_ops = { .step = (void *)q_wr_fsync };
SEC(".struct_ops")
struct io_coro_ops q_len_ops = { .step = (void *)q_len };
SEC(".struct_ops")
struct io_coro_ops q_many_ops = { .step = (void *)q_many };
SEC(".struct_ops")
struct io_coro_ops q_map_ops = { .step = (void *)q_map };
