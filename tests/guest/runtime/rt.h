/* SPDX-License-Identifier: MIT */
/* Shared by rt.bpf.c and runtime_guest.c: a coroutine's state. */
#ifndef IOCORO_TESTS_RT_H
#define IOCORO_TESTS_RT_H

#include <linux/types.h>

#define RT_MAX_COROS 1024

enum rt_step { RT_READ, RT_FINISH };

struct rt_state {
	__u32 step;
	__s32 fd;
	__u64 buf;		/* user buffer the read fills */
	__u32 len;
	__u32 runs;		/* steps run of this coroutine */
	/* what the steps saw in their ctx */
	__u32 first_has_prev;
	__u32 has_prev;
	__s32 prev_res;
	__u32 kind;		/* the last step's iocoro_step_kind() */
	__u64 prev_user_data;
	__u64 peeked;		/* peek: the first 8 bytes, copied from user memory */
};

#endif
