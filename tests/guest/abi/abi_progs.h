/* SPDX-License-Identifier: MIT */
/* Constants of abi.bpf.c that the abi suite (abi.h) uses too */
#ifndef IOCORO_TESTS_ABI_PROGS_H
#define IOCORO_TESTS_ABI_PROGS_H

/* SQEs q_many queues (and entries of rc[]): one more than a run may */
#define NR_MANY 33

#endif
