/* SPDX-License-Identifier: MIT */
/* Constants of kinds.bpf.c that the tests use too */
#ifndef IOCORO_TESTS_KINDS_PROGS_H
#define IOCORO_TESTS_KINDS_PROGS_H

#define SQE_SIZE 64
/* qbatch: the batches (qb_*[b]) and the most SQEs one batch queues */
#define QB_NB 4
#define QB_MAX 32
/* budget_step: its result once -ELOOP ends it; the user_data of its NOPs */
#define BQ_DONE 1234
#define BQ_NOP_UD 0x0e0e000000000000ULL

/*
 * The kinds the cases attach the steps as: every case attaches the one
 * it drives as K_MAIN; personality.c attaches whoami beside qbatch,
 * reattach.c and owner.c tag_b beside tag_a.
 */
#define K_MAIN 0
#define K_OTHER 1

#endif
