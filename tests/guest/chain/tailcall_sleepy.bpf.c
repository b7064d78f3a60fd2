// SPDX-License-Identifier: GPL-2.0
/*
 * The step of tailcall.c's tailcall_sleepable_caller: a sleepable step
 * that tail-calls through ts_progs, which the verifier must refuse.
 */
#include "tailcall_progs.h"

TAIL_CALLER(IOCORO_SEC_SLEEPABLE, ts_caller, ts_progs);

char LICENSE[] SEC("license") = "GPL";
