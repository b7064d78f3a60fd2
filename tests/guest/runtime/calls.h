/* SPDX-License-Identifier: MIT */
/* Shared by calls.bpf.c and calls.c: a coroutine's state, in place. */
#ifndef IOCORO_TESTS_CALLS_H
#define IOCORO_TESTS_CALLS_H

#include <linux/types.h>

#define CL_MAX_COROS 512

enum cl_step { CL_NOP, CL_DONE };

/* a multiple of 8 bytes: the mmap()ed array is an array of it */
struct cl_state {
	__u32 step;
	__u32 in;	/* written by user space before the start */
	__u32 out;	/* double_it: in * 2 */
	__u32 runs;	/* program runs of this coroutine */
	__u64 ts;	/* ticker, sleeper: the TIMEOUT's timespec (user) */
};

#endif
