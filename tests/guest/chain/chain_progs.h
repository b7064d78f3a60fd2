/* SPDX-License-Identifier: MIT */
/* Constants of the chain suite's steps that its tests (chain.h) use too */
#ifndef IOCORO_TESTS_CHAIN_PROGS_H
#define IOCORO_TESTS_CHAIN_PROGS_H

/* the kinds attach_all() attaches chain.bpf.c's steps as (K_TICK: a hole) */
enum {
	K_NOP_CHAIN,
	K_FAIL_ABORT,
	K_FAN,
	K_TICK,		/* tick of tests/lib/kinds.bpf.c (teardown.c) */
	K_RET_VAL,
	K_NR
};

/* read_check: the bytes it compares (rc_want, rc_got, ...) */
#define RC_LEN 32
/* emit_many: the most CQEs one run posts */
#define EM_MAX 256
/* emit_vals: the CQEs given field by field */
#define EV_MAX 4
/* fan: the most requests of itself one run queues */
#define FN_MAX 8

#endif
