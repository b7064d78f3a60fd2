// SPDX-License-Identifier: GPL-2.0
/*
 * An object for libiocoro's unit tests (opened, never loaded on the host):
 * steps (struct_ops programs of io_coro_ops) in every section form iocoro
 * knows, each with its io_coro_ops map, programs that are not steps, and
 * coroutines written with bpf-lib's helpers, which so also get compiled
 * for the BPF target. Steps, in object order: first, sleeper, lookalike,
 * coro, coro_s (two sleepable: sleeper, coro_s).
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

/* a raw step (iocoro/coro_ops.h) */
IOCORO_STEP(first)
{
	return iocoro_finish(step, 1);
}

SEC(".struct_ops")
struct io_coro_ops first_kind = { .step = (void *)first };

SEC("socket")
int not_ours(void *ctx)
{
	(void)ctx;
	return 0;
}

/* a raw sleepable step (IOCORO_SEC_SLEEPABLE) */
IOCORO_STEP_SLEEPABLE(sleeper)
{
	return iocoro_finish(step, 2);
}

SEC(".struct_ops")
struct io_coro_ops sleeper_kind = { .step = (void *)sleeper };

/* a step whose section starts like IOCORO_SEC_SLEEPABLE: not sleepable */
SEC(IOCORO_SEC "sleepable_lookalike")
int lookalike(unsigned long long *ctx)
{
	return iocoro_finish((struct io_coro_step *)ctx[0], 3);
}

SEC(".struct_ops")
struct io_coro_ops lookalike_kind = { .step = (void *)lookalike };

/* a program of another type, sleepable by its section: not a step */
SEC("syscall")
int syscall_prog(void *ctx)
{
	(void)ctx;
	return 0;
}

enum { CO_OPEN, CO_READ, CO_DONE };

static __always_inline int co_body(struct io_coro_step *ctx,
				   struct co_state *st)
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

IOCORO_COROUTINE(coro, &states, struct co_state)
{
	return co_body(ctx, st);
}

IOCORO_COROUTINE_SLEEPABLE(coro_s, &states, struct co_state)
{
	return co_body(ctx, st);
}

char LICENSE[] SEC("license") = "GPL";
