/* SPDX-License-Identifier: MIT */
/*
 * orcwc: orc's open, read, close for many files at once, and a sleepable
 * step that looks at what was read (it counts the lines). Shared by
 * orcwc.bpf.c and orcwc.c: one coroutine's state, one slot of the map.
 */
#ifndef ORCWC_H
#define ORCWC_H

#include <linux/types.h>

enum orcwc_step {
	ORCWC_OPEN,	/* queue openat(path) */
	ORCWC_READ,	/* the open's result is the fd: queue read(fd, buf) */
	ORCWC_CLOSE,	/* count the lines read, queue close(fd) */
	ORCWC_DONE,	/* report the length (or the first error) */
};

/* coroutines at once (slots of orcwc_states), and bytes read per file */
#define ORCWC_MAX	64
#define ORCWC_BUF	4096
/* the piece of the buffer a step copies to its stack at a time */
#define ORCWC_PIECE	64

struct orcwc_state {
	__u32 step;	/* enum orcwc_step */
	__s32 fd;
	__s32 result;	/* what the read returned */
	__u32 lines;	/* newlines in the bytes read */
	__u64 path;	/* user address of the NUL-terminated path */
	__u64 buf;	/* user address of ORCWC_BUF bytes */
};

#endif
