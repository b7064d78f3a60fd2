// SPDX-License-Identifier: GPL-2.0
/*
 * An object for libiocoro's unit tests (opened, never loaded on the host):
 * iouring programs in every section form iocoro knows, one program of
 * another type, and a coroutine written with bpf-lib's helpers, which so
 * also get compiled for the BPF target.
 */
#include <iocoro/bpf.h>

struct co_state {
	__u32 step;
	__s32 fd;
	__u64 buf;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct co_state);
} states SEC(".maps");

/* for iocoro_map_mmap() (runtime_calls_test.c) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct co_state);
} mmapable SEC(".maps");

SEC("iouring")
int first(struct io_uring_step_ctx *ctx)
{
	return iocoro_finish(ctx, 1);
}

SEC("socket")
int not_ours(void *ctx)
{
	(void)ctx;
	return 0;
}

SEC("iouring.s")
int sleeper(struct io_uring_step_ctx *ctx)
{
	return iocoro_finish(ctx, 2);
}

SEC("iouring/named")
int named(struct io_uring_step_ctx *ctx)
{
	return iocoro_finish(ctx, 3);
}

SEC("iouring.s/named")
int sleeper_named(struct io_uring_step_ctx *ctx)
{
	return iocoro_finish(ctx, 4);
}

/* not an iouring section, though it starts like one */
SEC("iouringx")
int lookalike(void *ctx)
{
	(void)ctx;
	return 0;
}

enum { CO_OPEN, CO_READ, CO_DONE };

IOCORO_COROUTINE(coro, &states, struct co_state)
{
	struct io_uring_sqe sqe;

	switch (st->step) {
	case CO_OPEN:
		io_uring_prep_openat(&sqe, -100, (const char *)st->buf, 0, 0);
		return iocoro_then(ctx, &sqe, &st->step, CO_READ);
	case CO_READ:
		if (iocoro_ctx_prev_res(ctx) < 0)
			return iocoro_finish(ctx, iocoro_ctx_prev_res(ctx));
		st->fd = iocoro_ctx_prev_res(ctx);
		io_uring_prep_read(&sqe, st->fd, (void *)st->buf, 64, 0);
		return iocoro_then(ctx, &sqe, &st->step, CO_DONE);
	case CO_DONE:
		return iocoro_finish(ctx, iocoro_ctx_prev_res(ctx));
	}
	return iocoro_finish(ctx, -EINVAL);
}

char LICENSE[] SEC("license") = "GPL";
