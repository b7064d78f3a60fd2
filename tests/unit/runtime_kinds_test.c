// SPDX-License-Identifier: MIT
/*
 * Unit tests of the kinds libiocoro attaches to a ring and of starting
 * coroutines at them, on the fake kernel of fake.c (see rt_unit.h):
 * iocoro_attach() makes a bpf_link per kind (iocoro__kind_link(), faked),
 * all or nothing; iocoro_detach() closes them; iocoro_set_budget() asks
 * the kernel nothing and each start carries the budget in sqe->len.
 */
#include "rt_unit.h"

/* fake.c's iocoro__kind_link(): a link some other call made */
int __wrap_iocoro__kind_link(int ring_fd, int prog_fd, unsigned int kind);

/* link @i was made for the fake ring, program @prog_fd, kind @kind */
static void check_link(unsigned int i, int prog_fd, unsigned int kind)
{
	assert_true(i < fk.nr_links);
	assert_int_equal(fk.links[i].ring_fd, FAKE_RING_FD);
	assert_int_equal(fk.links[i].prog_fd, prog_fd);
	assert_int_equal(fk.links[i].kind, kind);
}

/* ------------------------------------------------------------ attach */

static void test_attach_ok(void **state)
{
	struct iocoro *co = *state;
	int fds[] = { 7, -1, 9 };

	assert_int_equal(L(iocoro_attach(co, fds, 3)), 0);
	/* a link per program, as the kind that is its index; a hole none */
	assert_int_equal(fk.nr_link_calls, 2);
	check_link(0, 7, 0);
	check_link(1, 9, 2);
	assert_int_equal(co->links[0], fk.links[0].fd);
	assert_int_equal(co->links[1], -1);
	assert_int_equal(co->links[2], fk.links[1].fd);
	assert_int_equal(fake_links_open(), 2);
	assert_int_equal(co->nr_progs, 3);
	/* no register opcode */
	assert_int_equal(fk.nr_reg, 0);
}

static void test_attach_bad_args(void **state)
{
	int fds[IOCORO_MAX_PROGS + 1];
	struct iocoro co;
	unsigned int i;

	(void)state;
	for (i = 0; i < IOCORO_MAX_PROGS + 1; i++)
		fds[i] = 200 + (int)i;
	ring_up(&co);
	assert_int_equal(L(iocoro_attach(&co, NULL, 1)), -EINVAL);
	assert_int_equal(L(iocoro_attach(&co, fds, 0)), -EINVAL);
	assert_int_equal(L(iocoro_attach(&co, fds, IOCORO_MAX_PROGS + 1)),
			 -EINVAL);
	assert_int_equal(L(iocoro_attach(NULL, fds, 1)), -EINVAL);
	assert_int_equal(fk.nr_link_calls, 0);
	/* every kind a ring has */
	assert_int_equal(L(iocoro_attach(&co, fds, IOCORO_MAX_PROGS)), 0);
	assert_int_equal(fk.nr_links, IOCORO_MAX_PROGS);
	for (i = 0; i < IOCORO_MAX_PROGS; i++)
		check_link(i, 200 + (int)i, i);
	iocoro_queue_exit(&co);
	assert_int_equal(fake_links_open(), 0);
}

static void test_attach_kernel_errors(void **state)
{
	static const int errs[] = { -EPERM, -EBADF, -EINVAL, -EBUSY, -ENOMEM,
				    -EFAULT, -ENXIO };
	struct iocoro co;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(errs); i++) {
		ring_afresh(&co);
		fk.link_err = errs[i];
		assert_int_equal(L(iocoro_attach(&co, (int[]){ 3 }, 1)),
				 errs[i]);
		assert_int_equal(co.nr_progs, 0);
		assert_int_equal(L(iocoro_detach(&co)), -ENXIO);
	}
}

/* a link fails half way: the ones made before it are closed */
static void test_attach_all_or_nothing(void **state)
{
	struct iocoro *co = *state;

	fk.link_err = -ENOMEM;
	fk.link_err_at = 3;
	assert_int_equal(L(iocoro_attach(co, (int[]){ 3, -1, 4, 5, 6 }, 5)),
			 -ENOMEM);
	assert_int_equal(fk.nr_link_calls, 3);
	assert_int_equal(fk.nr_links, 2);
	assert_int_equal(fake_links_open(), 0);
	assert_int_equal(co->nr_progs, 0);
	/* the kinds are free again: the same attach goes through */
	assert_int_equal(L(iocoro_attach(co, (int[]){ 3, -1, 4, 5, 6 }, 5)),
			 0);
	assert_int_equal(fake_links_open(), 4);
	assert_int_equal(co->nr_progs, 5);
}

/* a kind another link holds (iocoro_kind_attach()): -EBUSY, none kept */
static void test_attach_kind_taken(void **state)
{
	struct iocoro *co = *state;
	int other;

	other = __wrap_iocoro__kind_link(FAKE_RING_FD, 50, 1);
	assert_true(other >= 0);
	assert_int_equal(L(iocoro_attach(co, (int[]){ 3, 4, 5 }, 3)), -EBUSY);
	assert_int_equal(co->nr_progs, 0);
	/* kind 0's link went again, the other one stays */
	assert_int_equal(fake_links_open(), 1);
	assert_true(fake_link_open(0));
	/* with a hole where the other one is */
	assert_int_equal(L(iocoro_attach(co, (int[]){ 3, -1, 5 }, 3)), 0);
	assert_int_equal(fake_links_open(), 3);
	iocoro_queue_exit(co);
	/* the library closes only its own */
	assert_int_equal(fake_links_open(), 1);
	assert_true(fake_link_open(0));
}

/* a second attach while kinds are attached: -EBUSY, before the kernel */
static void test_attach_busy(void **state)
{
	struct iocoro *co = *state;

	assert_int_equal(L(iocoro_attach(co, (int[]){ 3, 4 }, 2)), 0);
	assert_int_equal(L(iocoro_attach(co, (int[]){ 5 }, 1)), -EBUSY);
	assert_int_equal(L(iocoro_attach(co, (int[]){ -1, -1, 5 }, 3)),
			 -EBUSY);
	assert_int_equal(fk.nr_link_calls, 2);
	assert_int_equal(co->nr_progs, 2);
	assert_int_equal(fake_links_open(), 2);
}

static void test_attach_stock(void **state)
{
	struct iocoro co;

	(void)state;
	ring_by_hand(&co);
	fk.stock = true;
	assert_int_equal(L(iocoro_attach(&co, (int[]){ 3 }, 1)), -EOPNOTSUPP);
	assert_int_equal(fk.nr_setup, 1);
	assert_false(fake_probe_fd_open());
	assert_int_equal(co.nr_progs, 0);
}

static void test_attach_probed_ring_trusted(void **state)
{
	struct iocoro co;

	(void)state;
	/* a ring iocoro set up has the series: its errors are the kernel's,
	 * and cost no second look */
	ring_up(&co);
	fk.link_err = -EINVAL;
	assert_int_equal(L(iocoro_attach(&co, (int[]){ 3 }, 1)), -EINVAL);
	assert_int_equal(fk.nr_setup, 0);
	/* the application's own ring on the patched kernel: the same error,
	 * after a probe */
	co.flags = 0;
	assert_int_equal(L(iocoro_attach(&co, (int[]){ 3 }, 1)), -EINVAL);
	assert_int_equal(fk.nr_setup, 1);
}

/* ------------------------------------------------------------ detach */

static void test_detach_ok(void **state)
{
	struct iocoro *co = *state;

	assert_int_equal(L(iocoro_attach(co, (int[]){ 3, -1, 5 }, 3)), 0);
	assert_int_equal(L(iocoro_set_budget(co, 10)), 0);
	assert_int_equal(fake_links_open(), 2);
	assert_int_equal(L(iocoro_detach(co)), 0);
	/* the links are closed, and nothing else is asked */
	assert_int_equal(fake_links_open(), 0);
	assert_int_equal(fk.nr_reg, 0);
	assert_int_equal(fk.nr_link_calls, 2);
	assert_int_equal(co->nr_progs, 0);
	assert_int_equal(co->links[0], -1);
	assert_int_equal(co->links[2], -1);
	/* the budget is the starts', not the kinds' */
	assert_int_equal(co->budget, 10);
	/* and kinds can be attached again */
	assert_int_equal(L(iocoro_attach(co, (int[]){ 3 }, 1)), 0);
	assert_int_equal(fake_links_open(), 1);
	check_link(2, 3, 0);
}

static void test_detach_none(void **state)
{
	struct iocoro *co = *state;

	assert_int_equal(L(iocoro_detach(co)), -ENXIO);
	assert_int_equal(L(iocoro_detach(NULL)), -EINVAL);
	/* twice */
	assert_int_equal(L(iocoro_attach(co, (int[]){ 3 }, 1)), 0);
	assert_int_equal(L(iocoro_detach(co)), 0);
	assert_int_equal(L(iocoro_detach(co)), -ENXIO);
	assert_int_equal(fk.nr_reg, 0);
}

/* only holes: attached, no link; detach has nothing to close */
static void test_detach_holes(void **state)
{
	struct iocoro *co = *state;

	assert_int_equal(L(iocoro_attach(co, (int[]){ -1, -1 }, 2)), 0);
	assert_int_equal(co->nr_progs, 2);
	assert_int_equal(fk.nr_link_calls, 0);
	assert_int_equal(L(iocoro_detach(co)), 0);
	assert_int_equal(co->nr_progs, 0);
}

/* ------------------------------------------------------------ budget */

static void test_budget_ok(void **state)
{
	struct iocoro *co = *state;

	/* no kinds needed, and no syscall */
	assert_int_equal(L(iocoro_set_budget(co, 2)), 0);
	assert_int_equal(co->budget, 2);
	assert_int_equal(L(iocoro_set_budget(co, 1)), 0);
	assert_int_equal(co->budget, 1);
	assert_int_equal(L(iocoro_set_budget(co, IOCORO_MAX_BUDGET)), 0);
	assert_int_equal(co->budget, IOCORO_MAX_BUDGET);
	assert_int_equal(fk.nr_reg, 0);
	assert_int_equal(fk.nr_submit, 0);
}

static void test_budget_range(void **state)
{
	struct iocoro *co = *state;

	assert_int_equal(L(iocoro_set_budget(co, 7)), 0);
	assert_int_equal(L(iocoro_set_budget(co, 0)), -EINVAL);
	assert_int_equal(L(iocoro_set_budget(co, IOCORO_MAX_BUDGET + 1)),
			 -EINVAL);
	assert_int_equal(L(iocoro_set_budget(NULL, 5)), -EINVAL);
	/* a refused budget leaves the last one */
	assert_int_equal(co->budget, 7);
	assert_int_equal(fk.nr_reg, 0);
}

/* nothing to refuse on a kernel without the series: it is not asked */
static void test_budget_stock(void **state)
{
	struct iocoro co;

	(void)state;
	ring_by_hand(&co);
	fk.stock = true;
	assert_int_equal(L(iocoro_set_budget(&co, 5)), 0);
	assert_int_equal(fk.nr_setup, 0);
	assert_int_equal(fk.nr_reg, 0);
}

/* every start carries the budget set last, 0 (the default) before */
static void test_budget_in_starts(void **state)
{
	struct iocoro *co = *state;
	static const uint32_t ids[] = { 4, 5, 6 };
	unsigned int i;

	assert_int_equal(L(iocoro_start(co, 1, 3)), 0);
	check_start_sqe(&fk.submitted[0], 1, 3, 0);
	assert_int_equal(L(iocoro_set_budget(co, 5)), 0);
	assert_int_equal(L(iocoro_start(co, 1, 3)), 0);
	check_start_sqe(&fk.submitted[1], 1, 3, 5);
	assert_int_equal(L(iocoro_start_many(co, 2, ids, 3)), 3);
	for (i = 0; i < 3; i++)
		check_start_sqe(&fk.submitted[2 + i], 2, ids[i], 5);
	assert_int_equal(L(iocoro_set_budget(co, IOCORO_MAX_BUDGET)), 0);
	assert_int_equal(L(iocoro_start(co, 0, 9)), 0);
	check_start_sqe(&fk.submitted[5], 0, 9, IOCORO_MAX_BUDGET);
	/* a refused budget changes no start */
	assert_int_equal(L(iocoro_set_budget(co, 0)), -EINVAL);
	assert_int_equal(L(iocoro_start(co, 0, 9)), 0);
	check_start_sqe(&fk.submitted[6], 0, 9, IOCORO_MAX_BUDGET);
	assert_int_equal(fk.nr_submitted, 7);
}

/* iocoro_prep_start(): the kernel's default budget, len 0 */
static void test_prep_start(void **state)
{
	struct io_uring_sqe sqe;

	(void)state;
	memset(&sqe, 0xff, sizeof(sqe));
	iocoro_prep_start(&sqe, 7, 0x12345678);
	check_start_sqe(&sqe, 7, 0x12345678, 0);
}

/* ------------------------------------------------------------- start */

static void test_start_ok(void **state)
{
	struct iocoro *co = *state;

	/* stale bytes in the SQE slot must not leak into the request */
	memset(fk.sqes, 0xff, sizeof(fk.sqes));
	assert_int_equal(L(iocoro_start(co, 3, 0xdeadbeef)), 0);
	assert_int_equal(fk.nr_submit, 1);
	assert_int_equal(fk.nr_submitted, 1);
	check_start_sqe(&fk.submitted[0], 3, 0xdeadbeef, 0);
}

static void test_start_bad_args(void **state)
{
	struct iocoro *co = *state;

	assert_int_equal(L(iocoro_start(co, IOCORO_MAX_PROGS, 1)), -EINVAL);
	assert_int_equal(L(iocoro_start(NULL, 0, 1)), -EINVAL);
	assert_int_equal(fk.nr_submit, 0);
	assert_int_equal(L(iocoro_start(co, IOCORO_MAX_PROGS - 1, 1)), 0);
}

static void test_start_submit_errors(void **state)
{
	static const int errs[] = { -EBUSY, -EAGAIN, -EINTR, -EBADR, -ENXIO };
	struct iocoro co;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(errs); i++) {
		ring_afresh(&co);
		fk.submit_rets[0] = errs[i];
		fk.nr_submit_rets = 1;
		assert_int_equal(L(iocoro_start(&co, 0, 1)), errs[i]);
	}
}

static void test_start_short_submit(void **state)
{
	struct iocoro *co = *state;

	fk.submit_rets[0] = 0;
	fk.nr_submit_rets = 1;
	assert_int_equal(L(iocoro_start(co, 0, 1)), -EAGAIN);
	/* the start stays queued: the next submission takes it */
	assert_int_equal(io_uring_submit(&co->ring), 1);
	check_start_sqe(&fk.submitted[0], 0, 1, 0);
}

static void test_start_sq_full(void **state)
{
	struct iocoro *co = *state;
	unsigned int i;

	/* the application filled the SQ without submitting */
	for (i = 0; i < co->ring.sq.ring_entries; i++)
		io_uring_prep_nop(io_uring_get_sqe(&co->ring));
	assert_null(io_uring_get_sqe(&co->ring));
	assert_int_equal(L(iocoro_start(co, 1, 2)), 0);
	/* one submit made room, one sent the start */
	assert_int_equal(fk.nr_submit, 2);
	assert_int_equal(fk.nr_submitted, co->ring.sq.ring_entries + 1);
	check_start_sqe(&fk.submitted[co->ring.sq.ring_entries], 1, 2, 0);
}

static void test_start_sq_stays_full(void **state)
{
	struct iocoro *co = *state;
	unsigned int i;

	for (i = 0; i < co->ring.sq.ring_entries; i++)
		io_uring_prep_nop(io_uring_get_sqe(&co->ring));
	/* the kernel takes nothing */
	fk.submit_rets[0] = 0;
	fk.nr_submit_rets = 1;
	assert_int_equal(L(iocoro_start(co, 1, 2)), -EBUSY);
	/* or fails */
	fk.submit_rets[0] = -ENOMEM;
	fk.nr_submit_rets = 1;
	assert_int_equal(L(iocoro_start(co, 1, 2)), -ENOMEM);
}
/* a whole coroutine on the fake kernel: start, two steps, end */
static void test_start_then_wait(void **state)
{
	struct iocoro *co = *state;
	struct iocoro_done done;

	assert_int_equal(L(iocoro_attach(co, (int[]){ 11 }, 1)), 0);
	check_link(0, 11, 0);
	assert_int_equal(L(iocoro_set_budget(co, 16)), 0);
	assert_int_equal(L(iocoro_start(co, 0, 8)), 0);
	check_start_sqe(&fk.submitted[0], 0, 8, 16);
	/* what the program's two steps and their operations do */
	fake_post_cqe(iocoro_ud(IOCORO_UD_END, 0, 8), 4096, 0);
	assert_int_equal(L(iocoro_wait(co, &done, NULL)), 0);
	assert_int_equal(done.id, 8);
	assert_int_equal(done.res, 4096);
	assert_int_equal(L(iocoro_detach(co)), 0);
	assert_int_equal(fake_links_open(), 0);
	iocoro_queue_exit(co);
	assert_int_equal(fk.nr_exit, 1);
}

UNIT_MAIN("runtime_kinds",
	  R(test_attach_ok),
	  T(test_attach_bad_args),
	  T(test_attach_kernel_errors),
	  R(test_attach_all_or_nothing),
	  R(test_attach_kind_taken),
	  R(test_attach_busy),
	  T(test_attach_stock),
	  T(test_attach_probed_ring_trusted),
	  R(test_detach_ok),
	  R(test_detach_none),
	  R(test_detach_holes),
	  R(test_budget_ok),
	  R(test_budget_range),
	  T(test_budget_stock),
	  R(test_budget_in_starts),
	  T(test_prep_start),
	  R(test_start_ok),
	  R(test_start_bad_args),
	  T(test_start_submit_errors),
	  R(test_start_short_submit),
	  R(test_start_sq_full),
	  R(test_start_sq_stays_full),
	  R(test_start_then_wait))
