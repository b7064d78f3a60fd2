/* SPDX-License-Identifier: MIT */
/*
 * What the unit tests of libiocoro (runtime_*_test.c) share: the errno
 * check around every call, the fake's reset, a ring on the fake kernel
 * (made for a case by its setup, reset_ring()), and the check of a start
 * SQE.
 */
#ifndef IOCORO_TESTS_RT_UNIT_H
#define IOCORO_TESTS_RT_UNIT_H

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "iocoro.h" /* before liburing.h (through fake.h) */
#include "fake.h"
#include "unit_main.h"

#define ERRNO_CANARY 4242

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Call into libiocoro: the call must leave errno alone, whatever it
 * returns (iocoro returns -errno and never sets errno).
 */
#define L(expr)                                                         \
	({                                                              \
		errno = ERRNO_CANARY;                                   \
		__typeof__(expr) l_ret_ = (expr);                       \
		assert_int_equal(errno, ERRNO_CANARY);                  \
		l_ret_;                                                 \
	})

static inline int reset(void **state)
{
	(void)state;
	fake_reset();
	return 0;
}

/* a ring set up on the fake kernel */
static inline void ring_up(struct iocoro *co)
{
	assert_int_equal(L(iocoro_queue_init(8, co, 0)), 0);
	fk.nr_reg = 0;
}

/* the fake reset and a ring up on it, again within a case */
static inline void ring_afresh(struct iocoro *co)
{
	fake_reset();
	ring_up(co);
}

/*
 * reset(), then a ring up for the case, in *state: a case of
 * UNIT_MAIN()'s list as R(test) begins with `struct iocoro *co = *state`
 */
static inline int reset_ring(void **state)
{
	static struct iocoro co;

	fake_reset();
	/* what iocoro_queue_init() does not set is garbage, as on a stack */
	memset(&co, 0xa5, sizeof(co));
	ring_up(&co);
	*state = &co;
	return 0;
}

#define R(f) cmocka_unit_test_setup(f, reset_ring)

/* the application's own ring, which iocoro did not probe */
static inline void ring_by_hand(struct iocoro *co)
{
	ring_up(co);
	co->flags = 0;
}

/*
 * The start of coroutine @id at kind @kind (IORING_OP_BPF, the kind in
 * off) with budget @budget in len (0: the kernel's default)
 */
static inline void check_start_sqe(const struct io_uring_sqe *sqe,
				   unsigned int kind, uint32_t id,
				   unsigned int budget)
{
	assert_int_equal(sqe->opcode, IORING_OP_BPF);
	assert_int_equal(sqe->off, kind);
	/* no flags: the kernel takes none */
	assert_int_equal(sqe->rw_flags, 0);
	assert_int_equal(sqe->len, budget);
	assert_int_equal(sqe->flags, IOSQE_CQE_SKIP_SUCCESS);
	assert_true(sqe->user_data == iocoro_ud(IOCORO_UD_STEP, kind, id));
	/* every field the opcode does not use is zero */
	assert_int_equal(sqe->fd, 0);
	assert_int_equal(sqe->addr, 0);
	assert_int_equal(sqe->ioprio, 0);
	assert_int_equal(sqe->buf_index, 0);
	assert_int_equal(sqe->personality, 0);
	assert_int_equal(sqe->splice_fd_in, 0);
	assert_int_equal(sqe->addr3, 0);
	assert_int_equal(sqe->__pad2[0], 0);
}

#endif
