// SPDX-License-Identifier: GPL-2.0
/*
 * Steps the verifier must refuse (verifier_test.c): one per case, loaded
 * alone (the others' autoload off), each for one reason; queue_len_ok is
 * the control of the queue_len_* cases and loads.
 *
 * Program names are kept under 16 characters (BPF_OBJ_NAME_LEN - 1).
 */
#include <iocoro/bpf.h>

/* the context is read only */
IOCORO_STEP(ctx_write)
{
	step->res = 1;
	return 0;
}

/* past the end of struct io_coro_step (40 bytes) */
IOCORO_STEP(ctx_oob)
{
	return *(volatile __u32 *)((char *)step + 40);
}

/* the kfuncs take the step's context, not another pointer */
IOCORO_STEP(queue_not_ctx)
{
	struct io_uring_sqe sqe = {};

	(void)step;
	return bpf_io_coro_queue_sqe((void *)&sqe, &sqe, sizeof(sqe));
}

/* 128 bytes from a 64-byte SQE */
IOCORO_STEP(queue_len_big)
{
	struct io_uring_sqe sqe = {};

	return bpf_io_coro_queue_sqe(step, &sqe, 2 * sizeof(sqe));
}

/* a size the verifier does not know, up to 127 */
IOCORO_STEP(queue_len_var)
{
	struct io_uring_sqe sqe = {};

	return bpf_io_coro_queue_sqe(step, &sqe, step->res & 127);
}

/* the control: 64 bytes from a 64-byte SQE */
IOCORO_STEP(queue_len_ok)
{
	struct io_uring_sqe sqe = {};

	return bpf_io_coro_queue_sqe(step, &sqe, sizeof(sqe));
}

/* only sleepable steps may call bpf_copy_from_user() */
IOCORO_STEP(copy_user)
{
	__u64 v = 0;

	bpf_copy_from_user(&v, sizeof(v), (void *)step->user_data);
	return v;
}

/* a helper of socket filters */
IOCORO_STEP(skb_helper)
{
	__u32 v = 0;

	bpf_skb_load_bytes(step, 0, &v, sizeof(v));
	return v;
}

/* a loop that never ends */
IOCORO_STEP(endless)
{
	(void)step;
	for (;;)
		;
	return 0;
}

/* the view of a registered buffer may be NULL */
IOCORO_STEP(buf_no_null)
{
	const __u8 *p = bpf_io_coro_buf(step, 0, 0, 8);

	return p[0];
}

/* ... is read only */
IOCORO_STEP(buf_write)
{
	__u8 *p = (__u8 *)bpf_io_coro_buf(step, 0, 0, 8);

	if (!p)
		return -EFAULT;
	p[0] = 1;
	return 0;
}

/* ... and as long as asked for */
IOCORO_STEP(buf_oob)
{
	const __u8 *p = bpf_io_coro_buf(step, 0, 0, 8);

	if (!p)
		return -EFAULT;
	return *(volatile const __u8 *)(p + 8);
}

/* ... which is a constant */
IOCORO_STEP(buf_var_size)
{
	const __u8 *p = bpf_io_coro_buf(step, 0, 0, step->res & 63);

	return p ? p[0] : -EFAULT;
}

/* each step has an io_coro_ops map of its own, which libbpf loads it for */
#define KIND(name)                                                          \
	SEC(".struct_ops") struct io_coro_ops name##_kind = {                \
		.step = (void *)name,                                        \
	}

KIND(ctx_write);
KIND(ctx_oob);
KIND(queue_not_ctx);
KIND(queue_len_big);
KIND(queue_len_var);
KIND(queue_len_ok);
KIND(copy_user);
KIND(skb_helper);
KIND(endless);
KIND(buf_no_null);
KIND(buf_write);
KIND(buf_oob);
KIND(buf_var_size);

/* a program of another type may not call the kfuncs */
SEC("syscall")
int kfunc_syscall(void *ctx)
{
	return bpf_io_coro_emit_cqe((struct io_coro_step *)ctx, 1, 0, 0);
}

char LICENSE[] SEC("license") = "GPL";
