// SPDX-License-Identifier: GPL-2.0
/*
 * The step of lost_end.c: a coroutine step that posts le_nr CQEs and
 * then ends the coroutine with le_res.
 */
#include <iocoro/bpf.h>

__u32 le_nr;
__s32 le_res;
__u32 le_ok;
__u32 le_busy;

struct le_loop {
	struct io_coro_step *step;
};

static long le_one(__u32 i, struct le_loop *l)
{
	int rc = bpf_io_coro_emit_cqe(l->step, 0x1e0000 + i, (__s32)i, 0);

	if (!rc)
		le_ok++;
	else if (rc == -EBUSY)
		le_busy++;
	return 0;
}

IOCORO_STEP(le_step)
{
	struct le_loop l = { .step = step };

	bpf_loop(le_nr, le_one, &l, 0);
	return iocoro_finish(step, le_res);
}

SEC(".struct_ops")
struct io_coro_ops le_step_kind = { .step = (void *)le_step };

char LICENSE[] SEC("license") = "GPL";
