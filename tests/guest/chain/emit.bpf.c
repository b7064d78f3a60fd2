// SPDX-License-Identifier: GPL-2.0
/*
 * The steps of emit.c (bpf_io_coro_emit_cqe()): an object of their own
 * (emit.skel.h), attached by iocoro_skel_load() as kinds in this order.
 */
#include <iocoro/coro_ops.h>

#include "chain_progs.h"

char LICENSE[] SEC("license") = "GPL";

/* ------------------------------------------------------------ emit_many */
/*
 * Posts em_nr (<= EM_MAX) CQEs (em_base + i, res i, flags 0) in one run and
 * returns how many the kfunc accepted; em_err counts refusals, em_last_err
 * is the last error.
 */
__u32 em_nr;
__u64 em_base;
__u32 em_ok;
__u32 em_err;
int em_last_err;

IOCORO_STEP(emit_many)
{
	__u32 i;

	for (i = 0; i < EM_MAX; i++) {
		int rc;

		if (i >= em_nr)
			break;
		rc = bpf_io_coro_emit_cqe(step, em_base + i, (__s32)i, 0);
		if (rc) {
			em_err++;
			em_last_err = rc;
		} else {
			em_ok++;
		}
	}
	return em_ok;
}

/*
 * Posts ev_n (<= EV_MAX) CQEs given field by field, records each kfunc
 * result, returns ev_ret.
 */
__u32 ev_n;
__u64 ev_ud[EV_MAX];
__s32 ev_res[EV_MAX];
__u32 ev_flags[EV_MAX];
int ev_rc[EV_MAX];
__s32 ev_ret;

IOCORO_STEP(emit_vals)
{
	__u32 i;

	for (i = 0; i < EV_MAX; i++) {
		if (i >= ev_n)
			break;
		ev_rc[i] = bpf_io_coro_emit_cqe(step, ev_ud[i], ev_res[i],
						ev_flags[i]);
	}
	return ev_ret;
}

SEC(".struct_ops")
struct io_coro_ops emit_many_kind = { .step = (void *)emit_many };
SEC(".struct_ops")
struct io_coro_ops emit_vals_kind = { .step = (void *)emit_vals };
