// SPDX-License-Identifier: GPL-2.0
/*
 * The steps of spinners.c and fifo.c, each continuing at its own kind.
 * busy: a chain of NOPs, each continued by busy again, that never waits;
 * it counts its runs in bu_runs[id] (id: the user_data's low 6 bits).
 * tick: a chain of TIMEOUTs of tk_ts, counting its runs in tk_runs.
 * fresh: a step that does nothing but count its runs in fr_runs (fifo.c
 * starts many).
 */
#include <iocoro/bpf.h>

__u64 bu_runs[64];
__u64 bu_total;
__u64 tk_runs;
__u64 tk_ts;
__u64 fr_runs;
int bu_err;

/*
 * @sqe queued with @step's user_data, its CQE skipped, continuing at
 * @step's kind; a refusal in bu_err
 */
static __always_inline int continue_own(struct io_coro_step *step,
					struct io_uring_sqe *sqe)
{
	int rc;

	sqe->user_data = step->user_data;
	sqe->flags = IOSQE_CQE_SKIP_SUCCESS;
	rc = bpf_io_coro_queue_sqe_cont(step, sqe, sizeof(*sqe), step->kind);
	if (rc)
		bu_err = rc;
	return 0;
}

IOCORO_STEP(busy)
{
	struct io_uring_sqe sqe;
	__u32 id = step->user_data & 63;

	bu_runs[id]++;
	bu_total++;
	io_uring_prep_nop(&sqe);
	return continue_own(step, &sqe);
}

IOCORO_STEP(tick)
{
	struct io_uring_sqe sqe;

	tk_runs++;
	io_uring_prep_timeout(&sqe, (void *)tk_ts, 0, 0);
	return continue_own(step, &sqe);
}

IOCORO_STEP(fresh)
{
	(void)step;
	fr_runs++;
	return 0;
}

SEC(".struct_ops")
struct io_coro_ops busy_kind = { .step = (void *)busy };
SEC(".struct_ops")
struct io_coro_ops tick_kind = { .step = (void *)tick };
SEC(".struct_ops")
struct io_coro_ops fresh_kind = { .step = (void *)fresh };

char LICENSE[] SEC("license") = "GPL";
