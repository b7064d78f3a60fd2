/* SPDX-License-Identifier: MIT */
/*
 * step_bench: what step_bench.c (user space) and step.bpf.c (the
 * coroutines) agree on.
 *
 *   step       one coroutine of N dependent NOP steps: every run checks the
 *              NOP the run before queued (its completion is in the ctx),
 *              then queues the next NOP hard-linked to a run of itself, or,
 *              after the Nth NOP, ends the coroutine with N. N NOPs take
 *              N + 1 runs: the step budget of the chain.
 *   wait_step  one coroutine that waits: its first run queues a TIMEOUT
 *              hard-linked to its second run, which ends the coroutine with
 *              the timeout's result. Thousands of them are what is "in
 *              flight" when the benchmark reads the kernel's memory.
 */
#ifndef STEP_H
#define STEP_H

#include <linux/types.h>

/* the state of one step coroutine (map step_states, id 0) */
struct step_state {
	__u32 steps;	/* N: NOPs to run (user space sets it) */
	__u32 nops;	/* NOPs that completed with res 0 and their user_data */
	__u32 runs;	/* program runs */
	__u32 bad;	/* runs that saw another completion than their NOP's */
	__s32 bad_res;	/* the last unexpected prev_res */
	__s32 queue_err; /* the first failed iocoro_await() */
};

/* step coroutines at once: step_bench runs one (id 0) */
#define STEP_MAX_CHAINS 1

/* program runs of a step coroutine of @n NOPs */
#define STEP_RUNS(n) ((__u64)(n) + 1)

/* program runs of a wait_step coroutine */
#define WAIT_RUNS 2

#endif /* STEP_H */
