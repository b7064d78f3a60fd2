// SPDX-License-Identifier: GPL-2.0
/*
 * The programs of emit.c (patch 0008, bpf_io_uring_emit_cqe()): an object
 * of their own (emit.skel.h), attached by uring_attach_object() in the
 * order below (enum emit_prog in emit.c).
 */
#include <linux/bpf.h>
#include <linux/io_uring.h>
#include <bpf/bpf_helpers.h>

/* the helper of patch 0008, by its id in the patched uapi */
static long (*bpf_io_uring_emit_cqe)(void *ctx, __u64 user_data, __s32 res,
				     __u32 flags) =
	(void *)BPF_FUNC_io_uring_emit_cqe;

#include "chain_progs.h"

/* ------------------------------------------------------------ emit_many */
/*
 * Posts em_nr (<= EM_MAX) CQEs (em_base + i, res i, flags 0) in one run and
 * returns how many the helper accepted; em_err counts refusals, em_last_err
 * is the last error.
 */
__u32 em_nr;
__u64 em_base;
__u32 em_ok;
__u32 em_err;
long em_last_err;

SEC("iouring")
int emit_many(struct io_uring_step_ctx *ctx)
{
	__u32 i;

	for (i = 0; i < EM_MAX; i++) {
		long rc;

		if (i >= em_nr)
			break;
		rc = bpf_io_uring_emit_cqe(ctx, em_base + i, (__s32)i, 0);
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
 * Posts ev_n (<= EV_MAX) CQEs given field by field, records each helper
 * result, returns ev_ret.
 */
__u32 ev_n;
__u64 ev_ud[EV_MAX];
__s32 ev_res[EV_MAX];
__u32 ev_flags[EV_MAX];
long ev_rc[EV_MAX];
__s32 ev_ret;

SEC("iouring")
int emit_vals(struct io_uring_step_ctx *ctx)
{
	__u32 i;

	for (i = 0; i < EV_MAX; i++) {
		if (i >= ev_n)
			break;
		ev_rc[i] = bpf_io_uring_emit_cqe(ctx, ev_ud[i], ev_res[i],
						 ev_flags[i]);
	}
	return ev_ret;
}

char LICENSE[] SEC("license") = "GPL";
