/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tail-calling step of tailcall.bpf.c and tailcall_sleepy.bpf.c (two
 * objects: the verifier refuses the second, a sleepable caller, which
 * would take the first with it).
 */
#ifndef IOCORO_TESTS_TAILCALL_PROGS_H
#define IOCORO_TESTS_TAILCALL_PROGS_H

#include <iocoro/bpf.h>

/*
 * The program array @progs of one program and step @name, in section
 * @sec, that tail-calls @progs[0]; -ENOENT when there is nothing to call.
 * Written out, not IOCORO_STEP(): bpf_tail_call() takes the program's own
 * ctx. Its io_coro_ops map is @name##_kind.
 */
#define TAIL_CALLER(sec, name, progs)                                       \
	struct {                                                            \
		__uint(type, BPF_MAP_TYPE_PROG_ARRAY);                      \
		__uint(max_entries, 1);                                     \
		__type(key, __u32);                                         \
		__type(value, __u32);                                       \
	} progs SEC(".maps");                                               \
                                                                            \
	SEC(sec #name)                                                      \
	int name(unsigned long long *ctx)                                   \
	{                                                                   \
		bpf_tail_call(ctx, &progs, 0);                              \
		return -ENOENT;                                             \
	}                                                                   \
                                                                            \
	SEC(".struct_ops")                                                  \
	struct io_coro_ops name##_kind = { .step = (void *)name }

#endif
