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

/*
 * What a step saw of the completion it runs after, recorded by
 * SEEN_RECORD() (fail_abort's fa_seen, read_check's rc_seen)
 */
struct step_seen {
	__u64 ud;		/* its own request's user_data */
	__u64 res_ud;		/* the completion's user_data */
	__s32 res;
	__u32 cqe_flags;
	__u32 has_res;
	__u32 runs;		/* counted up at each record */
};

/* step @step's run recorded in @seen, a struct step_seen */
#define SEEN_RECORD(seen, step)                                             \
	do {                                                                \
		(seen).runs++;                                              \
		(seen).ud = (step)->user_data;                              \
		(seen).has_res = (step)->has_res;                           \
		(seen).res = (step)->res;                                   \
		(seen).cqe_flags = (step)->cqe_flags;                       \
		(seen).res_ud = (step)->res_user_data;                      \
	} while (0)

/* read_check: the bytes it compares (rc_want, rc_got, ...) */
#define RC_LEN 32
/* emit_many: the most CQEs one run posts */
#define EM_MAX 256
/* emit_vals: the CQEs given field by field */
#define EV_MAX 4
/* fan: the most requests of itself one run queues */
#define FN_MAX 8

#endif
