// SPDX-License-Identifier: GPL-2.0
/*
 * The program of sleepable.c (patches 0014 and 0015): an object of its own
 * (sleepable.skel.h), attached by uring_attach_object() at index 0.
 */
#include <linux/bpf.h>
#include <linux/errno.h>
#include <linux/io_uring.h>
#include <bpf/bpf_helpers.h>

#include "chain_progs.h"

/* ----------------------------------------------------------- read_check */
/*
 * Sleepable (sleepable.c sets BPF_F_SLEEPABLE): run after a read of
 * rc_buf, it records the read's completion, copies what was read with
 * bpf_copy_from_user() and compares it with rc_want. Returns the read's
 * result when the data matches, -EBADMSG when not, -EMSGSIZE when the read
 * did not return RC_LEN, its error when it failed, -EINVAL without a
 * previous completion. Optionally also copies from rc_fault_addr (memory
 * never touched: the copy has to fault it in) and rc_bad_addr (not mapped:
 * the copy fails).
 */
__u64 rc_buf;
char rc_want[RC_LEN];
char rc_got[RC_LEN];
long rc_copy_rc;
__u32 rc_runs;
__u32 rc_has_prev;
__s32 rc_prev_res;
__u32 rc_prev_flags;
__u64 rc_prev_ud;
__u64 rc_ud;

__u64 rc_fault_addr;
char rc_fault_got[RC_LEN];
long rc_fault_rc;
__u64 rc_bad_addr;
char rc_bad_got[RC_LEN];
long rc_bad_rc;

SEC("iouring")
int read_check(struct io_uring_step_ctx *ctx)
{
	__u32 i;
	int res;

	rc_runs++;
	rc_ud = ctx->user_data;
	rc_has_prev = ctx->has_prev;
	rc_prev_res = ctx->prev_res;
	rc_prev_flags = ctx->prev_flags;
	rc_prev_ud = ctx->prev_user_data;

	if (rc_fault_addr)
		rc_fault_rc = bpf_copy_from_user(rc_fault_got, RC_LEN,
						 (void *)rc_fault_addr);
	if (rc_bad_addr)
		rc_bad_rc = bpf_copy_from_user(rc_bad_got, RC_LEN,
					       (void *)rc_bad_addr);

	if (!ctx->has_prev)
		return -EINVAL;
	res = ctx->prev_res;
	if (res < 0)
		return res;
	/* the tests read exactly RC_LEN bytes */
	if (res != RC_LEN)
		return -EMSGSIZE;
	rc_copy_rc = bpf_copy_from_user(rc_got, RC_LEN, (void *)rc_buf);
	if (rc_copy_rc)
		return (int)rc_copy_rc;
	for (i = 0; i < RC_LEN; i++) {
		if (rc_got[i] != rc_want[i])
			return -EBADMSG;
	}
	return res;
}

char LICENSE[] SEC("license") = "GPL";
