/* SPDX-License-Identifier: MIT */
/*
 * The scheduling suite (tests/lib/case.h): how the steps of a ring share
 * their task, one file per feature:
 *
 *   starvation.c  coroutines that never end: timed waits, SIGSTOP
 *   spinners.c    other tasks' io_uring_enter() calls on the ring
 *   fifo.c        steps run oldest completion first
 *   audit.c       steps run outside IORING_OP_BPF's audit bracket
 *
 * starvation.c drives tick of tests/lib/kinds.bpf.c (kinds.h); spinners.c
 * and fifo.c the steps of passes.bpf.c, attached as the kinds below;
 * audit.c its own audit.bpf.c.
 */
#ifndef IOCORO_TESTS_SCHEDULING_H
#define IOCORO_TESTS_SCHEDULING_H

#include "guest.h"

/* the kinds spinners.c and fifo.c attach passes.bpf.c's steps as */
enum { K_BUSY, K_TICK, K_FRESH };

#endif
