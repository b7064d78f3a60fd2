// SPDX-License-Identifier: GPL-2.0
/*
 * The sleepable step of sleepable.c: an object of its own
 * (sleepable.skel.h), attached by iocoro_skel_load() as kind 0.
 */
#include <iocoro/coro_ops.h>

#include "chain_progs.h"

char LICENSE[] SEC("license") = "GPL";


/* ----------------------------------------------------------- read_check */
/*
 * Sleepable (IOCORO_SEC_SLEEPABLE: iocoro_object_prepare() gives it
 * BPF_F_SLEEPABLE): run after a read of rc_buf, in a start linked after
 * it, it records the read's completion, copies what was read with
 * bpf_copy_from_user() and compares it with rc_want. Returns the read's
 * result when the data matches, -EBADMSG when not, -EMSGSIZE when the read
 * did not return RC_LEN, its error when it failed, -EINVAL without a
 * completion to see. Optionally also copies from rc_fault_addr (memory
 * never touched: the copy has to fault it in) and rc_bad_addr (not mapped:
 * the copy fails).
 */
__u64 rc_buf;
char rc_want[RC_LEN];
char rc_got[RC_LEN];
long rc_copy_rc;
struct step_seen rc_seen;

__u64 rc_fault_addr;
char rc_fault_got[RC_LEN];
long rc_fault_rc;
__u64 rc_bad_addr;
char rc_bad_got[RC_LEN];
long rc_bad_rc;

IOCORO_STEP_SLEEPABLE(read_check)
{
	__u32 i;
	int res;

	SEEN_RECORD(rc_seen, step);

	if (rc_fault_addr)
		rc_fault_rc = bpf_copy_from_user(rc_fault_got, RC_LEN,
						 (void *)rc_fault_addr);
	if (rc_bad_addr)
		rc_bad_rc = bpf_copy_from_user(rc_bad_got, RC_LEN,
					       (void *)rc_bad_addr);

	if (!step->has_res)
		return -EINVAL;
	res = step->res;
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

SEC(".struct_ops")
struct io_coro_ops read_check_kind = { .step = (void *)read_check };
