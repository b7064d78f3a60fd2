// SPDX-License-Identifier: GPL-2.0
/*
 * 65 steps, each with its io_coro_ops map: one more than iocoro_attach()
 * attaches as kinds (unit tests, -E2BIG).
 */
#include <iocoro/bpf.h>

#define PROG(n)                                                             \
	IOCORO_STEP(p##n)                                                   \
	{                                                                   \
		(void)step;                                                 \
		return n;                                                   \
	}                                                                   \
	SEC(".struct_ops")                                                  \
	struct io_coro_ops p##n##_kind = { .step = (void *)p##n };
PROG(0)
PROG(1)
PROG(2)
PROG(3)
PROG(4)
PROG(5)
PROG(6)
PROG(7)
PROG(8)
PROG(9)
PROG(10)
PROG(11)
PROG(12)
PROG(13)
PROG(14)
PROG(15)
PROG(16)
PROG(17)
PROG(18)
PROG(19)
PROG(20)
PROG(21)
PROG(22)
PROG(23)
PROG(24)
PROG(25)
PROG(26)
PROG(27)
PROG(28)
PROG(29)
PROG(30)
PROG(31)
PROG(32)
PROG(33)
PROG(34)
PROG(35)
PROG(36)
PROG(37)
PROG(38)
PROG(39)
PROG(40)
PROG(41)
PROG(42)
PROG(43)
PROG(44)
PROG(45)
PROG(46)
PROG(47)
PROG(48)
PROG(49)
PROG(50)
PROG(51)
PROG(52)
PROG(53)
PROG(54)
PROG(55)
PROG(56)
PROG(57)
PROG(58)
PROG(59)
PROG(60)
PROG(61)
PROG(62)
PROG(63)
PROG(64)

char LICENSE[] SEC("license") = "GPL";
