/* SPDX-License-Identifier: MIT */
/*
 * orc: open, read, close, as one coroutine in the kernel. This header is
 * shared by the BPF side (orc.bpf.c) and user space (orc.c): the state of
 * one coroutine, one slot of the orc_states map.
 */
#ifndef ORC_H
#define ORC_H

#include <linux/types.h>

/* the steps, in order */
enum orc_step {
	ORC_OPEN,	/* queue openat(path) */
	ORC_READ,	/* the open's result is the fd: queue read(fd, buf) */
	ORC_CLOSE,	/* the read's result is the length: queue close(fd) */
	ORC_DONE,	/* report the length (or the first error) */
};

/* coroutines that can run at once (slots of orc_states) */
#define ORC_MAX 16

struct orc_state {
	__u32 step;	/* enum orc_step: where the coroutine goes on */
	__s32 fd;	/* the open file */
	__s32 result;	/* what the read returned */
	__u32 len;	/* size of buf */
	__u64 path;	/* user address of the NUL-terminated path */
	__u64 buf;	/* user address of the buffer the read fills */
};

#endif
