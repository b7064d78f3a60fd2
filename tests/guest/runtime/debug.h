/* SPDX-License-Identifier: MIT */
/* Shared by debug.bpf.c and debug.c. */
#ifndef IOCORO_TESTS_DEBUG_H
#define IOCORO_TESTS_DEBUG_H

#include <linux/types.h>

enum { DBG_G_VANISH, DBG_G_OK };

struct dbg_g_state {
	__u32 mode;
	__u32 runs;
};

#endif
