// SPDX-License-Identifier: GPL-2.0
/*
 * The steps of the coro_ops suite (coro_ops.h): struct io_coro_ops
 * programs, each in a map of its own so that libbpf loads it as a step;
 * the tests attach them to rings as kinds with iocoro_kind_attach().
 */
#include <iocoro/coro_ops.h>
#include <iocoro/bpf_prep.h>

#include "coro_ops.h"

char LICENSE[] SEC("license") = "GPL";

/* what the last run of seen/alt saw */
struct co_seen seen;
/* what seen and alt return */
int ret_val;
/* read_start: the fd it reads from, into the test's buffer at read_buf */
int read_fd;
__u64 read_buf;
/* sleepy: where it reads its int from, in the test's memory */
__u64 user_addr;
/* spin: steps each coroutine makes before it ends */
__u32 spin_steps;
__u32 spin_runs;

static void record(struct io_coro_step *step)
{
	seen.runs++;
	seen.user_data = step->user_data;
	seen.res_user_data = step->res_user_data;
	seen.res = step->res;
	seen.cqe_flags = step->cqe_flags;
	seen.has_res = step->has_res;
	seen.kind = step->kind;
}

/* K_START: queue a NOP that continues at K_SEEN */
IOCORO_STEP(start)
{
	struct io_uring_sqe sqe = {};

	io_uring_prep_nop(&sqe);
	sqe.user_data = UD_NOP;
	return bpf_io_coro_queue_sqe_cont(step, &sqe, sizeof(sqe), K_SEEN);
}

/* K_SEEN: record the completion, post UD_EMIT, return ret_val */
IOCORO_STEP(seen_step)
{
	record(step);
	seen.emit_rc = bpf_io_coro_emit_cqe(step, UD_EMIT, step->res + 1000, 0);
	return ret_val;
}

/* K_SEEN after an update: the same, but posts res + 2000 */
IOCORO_STEP(alt_step)
{
	record(step);
	seen.emit_rc = bpf_io_coro_emit_cqe(step, UD_EMIT, step->res + 2000, 0);
	return ret_val;
}

/* K_READ_START: read up to 64 bytes of read_fd, continuing at K_SEEN */
IOCORO_STEP(read_start)
{
	struct io_uring_sqe sqe = {};

	io_uring_prep_read(&sqe, read_fd, (void *)read_buf, 64, 0);
	sqe.user_data = UD_READ;
	return bpf_io_coro_queue_sqe_cont(step, &sqe, sizeof(sqe), K_SEEN);
}

/* K_SLEEPY (sleepable): returns the int at user_addr */
IOCORO_STEP(sleepy)
{
	int val = 0;

	(void)step;
	if (bpf_copy_from_user(&val, sizeof(val), (void *)user_addr))
		return -EFAULT;
	return val;
}

/*
 * K_SPIN: a coroutine of spin_steps NOP steps, step->user_data counting
 * them; the last one posts the count under UD_SPIN_END.
 */
IOCORO_STEP(spin)
{
	struct io_uring_sqe sqe = {};
	__u64 n = step->user_data & 0xffffffff;

	__sync_fetch_and_add(&spin_runs, 1);
	if (n + 1 >= spin_steps) {
		bpf_io_coro_post_result(step, UD_SPIN_END | (step->user_data &
							     0xffffffff00000000ULL));
		return n + 1;
	}
	io_uring_prep_nop(&sqe);
	sqe.user_data = step->user_data + 1;
	sqe.flags = IOSQE_CQE_SKIP_SUCCESS;
	return bpf_io_coro_queue_sqe_cont(step, &sqe, sizeof(sqe), K_SPIN);
}

/*
 * K_TMPL: queue tmpl_n (<= 2) SQEs of tmpl[], each continuing at
 * tmpl_kind[i], or carrying no step where that is negative; tmpl_rc[i]
 * is what the kfunc answered.
 */
struct io_uring_sqe tmpl[2];
int tmpl_kind[2];
__u32 tmpl_n;
int tmpl_rc[2];

IOCORO_STEP(tmpl_step)
{
	__u32 i;

	for (i = 0; i < 2; i++) {
		if (i >= tmpl_n)
			break;
		if (tmpl_kind[i] < 0)
			tmpl_rc[i] = bpf_io_coro_queue_sqe(step, &tmpl[i],
							   sizeof(tmpl[i]));
		else
			tmpl_rc[i] = bpf_io_coro_queue_sqe_cont(step, &tmpl[i],
								sizeof(tmpl[i]),
								tmpl_kind[i]);
	}
	return 0;
}

/*
 * K_EMITTER: posts a CQE (UD_EMIT) a step, for ever, each step a NOP
 * continuing at K_EMITTER; ends with the first refusal (emit_err).
 */
__u32 emit_ok;
int emit_err;

IOCORO_STEP(emitter)
{
	struct io_uring_sqe sqe = {};
	int rc;

	rc = bpf_io_coro_emit_cqe(step, UD_EMIT, 0, 0);
	if (rc) {
		emit_err = rc;
		return rc;
	}
	emit_ok++;
	io_uring_prep_nop(&sqe);
	sqe.user_data = UD_NOP;
	sqe.flags = IOSQE_CQE_SKIP_SUCCESS;
	return bpf_io_coro_queue_sqe_cont(step, &sqe, sizeof(sqe), K_EMITTER);
}

/*
 * K_FIXED_START: READ_FIXED of fixed_len bytes at 0 of read_fd into
 * registered buffer 0 at fixed_off, continuing at K_PEEK.
 */
__u32 fixed_off;
__u32 fixed_len;

IOCORO_STEP(fixed_start)
{
	struct io_uring_sqe sqe = {};

	io_uring_prep_read_fixed(&sqe, read_fd, (void *)(read_buf + fixed_off),
				 fixed_len, 0, 0);
	sqe.user_data = UD_READ;
	return bpf_io_coro_queue_sqe_cont(step, &sqe, sizeof(sqe), K_PEEK);
}

/*
 * K_PEEK (not sleepable): the 16 bytes at peek_off of buffer peek_index
 * into peek, or peek_null = 1 when the kernel gives no view; the other
 * views it must refuse counted in peek_refused.
 */
__u32 peek_index;
__u64 peek_off;
__u8 peek[16];
__u32 peek_null;
__u32 peek_refused;

IOCORO_STEP(peek_step)
{
	const __u8 *p;
	__u32 i;

	record(step);
	p = bpf_io_coro_buf(step, peek_index, peek_off, 16);
	if (!p) {
		peek_null = 1;
	} else {
		for (i = 0; i < 16; i++)
			peek[i] = p[i];
	}
	/* across the first page, past the end, no such buffer */
	peek_refused = !bpf_io_coro_buf(step, 0, 4096 - 8, 16) +
		       !bpf_io_coro_buf(step, 0, 2 * 4096 - 8, 16) +
		       !bpf_io_coro_buf(step, 7, 0, 16);
	return step->res;
}

SEC(".struct_ops")
struct io_coro_ops start_ops = { .step = (void *)start };
SEC(".struct_ops")
struct io_coro_ops seen_ops = { .step = (void *)seen_step };
SEC(".struct_ops")
struct io_coro_ops alt_ops = { .step = (void *)alt_step };
SEC(".struct_ops")
struct io_coro_ops read_start_ops = { .step = (void *)read_start };
SEC(".struct_ops")
struct io_coro_ops sleepy_ops = { .step = (void *)sleepy };
SEC(".struct_ops")
struct io_coro_ops spin_ops = { .step = (void *)spin };
SEC(".struct_ops")
struct io_coro_ops tmpl_ops = { .step = (void *)tmpl_step };
SEC(".struct_ops")
struct io_coro_ops emitter_ops = { .step = (void *)emitter };
SEC(".struct_ops")
struct io_coro_ops fixed_start_ops = { .step = (void *)fixed_start };
SEC(".struct_ops")
struct io_coro_ops peek_ops = { .step = (void *)peek_step };
