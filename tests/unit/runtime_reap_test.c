// SPDX-License-Identifier: MIT
/*
 * Unit tests of libiocoro's reaping with handlers and its window of ids on
 * the fake kernel of fake.c (see rt_unit.h): iocoro_reap(),
 * iocoro_submit_and_reap(), iocoro_queue_start() and iocoro_window_*().
 */
#include "rt_unit.h"

/* what the handlers saw */
struct seen {
	unsigned int nr_done, nr_cqe;
	struct iocoro_done done[8];
	__u64 cqe_ud[8];
	int done_ret;	/* what on_done() returns */
};

static int on_done(struct iocoro *co, const struct iocoro_done *done,
		   void *arg)
{
	struct seen *s = arg;

	assert_non_null(co);
	s->done[s->nr_done++] = *done;
	return s->done_ret;
}

static int on_cqe(struct iocoro *co, const struct io_uring_cqe *cqe,
		  void *arg)
{
	struct seen *s = arg;

	assert_non_null(co);
	s->cqe_ud[s->nr_cqe++] = cqe->user_data;
	return 0;
}

/* ends to ->done, the application's CQEs to ->cqe, a step's op consumed */
static void test_reap_dispatch(void **state)
{
	struct iocoro *co = *state;
	struct seen s = { 0 };
	const struct iocoro_handlers h = {
		.done = on_done, .cqe = on_cqe, .arg = &s,
	};

	fake_post_cqe(iocoro_ud(IOCORO_UD_END, 1, 7), 42, 0);
	fake_post_cqe(0x1234, 5, 0);
	fake_post_cqe(iocoro_ud(IOCORO_UD_OP, 0, 7), -EIO, 0);
	fake_post_cqe(iocoro_ud(IOCORO_UD_STEP, 2, 9), -ELOOP, 0);
	fake_post_cqe(iocoro_ud(IOCORO_UD_STEP, 0, 3), 11, 0);
	assert_int_equal(L(iocoro_reap(co, &h)), 5);
	assert_int_equal(fake_cq_pending(), 0);
	assert_int_equal(s.nr_done, 3);
	assert_int_equal(s.done[0].id, 7);
	assert_int_equal(s.done[0].res, 42);
	assert_int_equal(s.done[0].how, IOCORO_FINISHED);
	assert_int_equal(s.done[0].prog, 1);
	assert_int_equal(s.done[1].id, 9);
	assert_int_equal(s.done[1].res, -ELOOP);
	assert_int_equal(s.done[1].how, IOCORO_FAILED);
	assert_int_equal(s.done[2].how, IOCORO_ORPHANED);
	assert_int_equal(s.done[2].res, 11);
	assert_int_equal(s.nr_cqe, 1);
	assert_true(s.cqe_ud[0] == 0x1234);
	/* nothing there: nothing handled, no system call */
	assert_int_equal(L(iocoro_reap(co, &h)), 0);
	assert_int_equal(fk.nr_submit, 0);
}

/* without ->cqe, an application CQE stops the reap and stays */
static void test_reap_foreign_stops(void **state)
{
	struct iocoro *co = *state;
	struct seen s = { 0 };
	const struct iocoro_handlers h = { .done = on_done, .arg = &s };

	fake_post_cqe(iocoro_ud(IOCORO_UD_END, 0, 1), 0, 0);
	fake_post_cqe(0x99, 0, 0);
	fake_post_cqe(iocoro_ud(IOCORO_UD_END, 0, 2), 0, 0);
	assert_int_equal(L(iocoro_reap(co, &h)), -ENOMSG);
	assert_int_equal(s.nr_done, 1);
	assert_int_equal(fake_cq_pending(), 2);
	io_uring_cq_advance(&co->ring, 1);
	assert_int_equal(L(iocoro_reap(co, &h)), 1);
	assert_int_equal(s.done[1].id, 2);
}

/* a handler's error stops the reap: its CQE consumed, the rest stay */
static void test_reap_handler_error(void **state)
{
	struct iocoro *co = *state;
	struct seen s = { .done_ret = -EIO };
	const struct iocoro_handlers h = {
		.done = on_done, .cqe = on_cqe, .arg = &s,
	};

	fake_post_cqe(iocoro_ud(IOCORO_UD_END, 0, 1), 0, 0);
	fake_post_cqe(iocoro_ud(IOCORO_UD_END, 0, 2), 0, 0);
	assert_int_equal(L(iocoro_reap(co, &h)), -EIO);
	assert_int_equal(s.nr_done, 1);
	assert_int_equal(fake_cq_pending(), 1);
	assert_int_equal(L(iocoro_reap(NULL, &h)), -EINVAL);
	assert_int_equal(L(iocoro_reap(co, NULL)), -EINVAL);
}

/* a failed step on a kernel without the series: -EOPNOTSUPP */
static void test_reap_stock(void **state)
{
	struct seen s = { 0 };
	const struct iocoro_handlers h = { .done = on_done, .arg = &s };
	struct iocoro co;

	(void)state;
	ring_by_hand(&co);
	fk.stock = true;
	fake_post_cqe(iocoro_ud(IOCORO_UD_STEP, 0, 1), -EINVAL, 0);
	assert_int_equal(L(iocoro_reap(&co, &h)), 1);
	assert_int_equal(s.done[0].how, IOCORO_FAILED);
	assert_int_equal(s.done[0].res, -EOPNOTSUPP);
}

/* queued starts go with the turn's one submit, their budget the ring's */
static void test_submit_and_reap(void **state)
{
	struct iocoro *co = *state;
	struct seen s = { 0 };
	const struct iocoro_handlers h = { .done = on_done, .arg = &s };
	struct io_uring_sqe *sqe;

	assert_int_equal(L(iocoro_set_budget(co, 5)), 0);
	assert_non_null(iocoro_queue_start(co, 1, 10));
	sqe = iocoro_queue_start(co, 2, 11);
	assert_non_null(sqe);
	sqe->len = 9;
	assert_int_equal(fk.nr_submit, 0);
	fake_post_cqe(iocoro_ud(IOCORO_UD_END, 1, 10), 0, 0);
	assert_int_equal(L(iocoro_submit_and_reap(co, 1, &h)), 1);
	assert_int_equal(fk.nr_submit_and_wait, 1);
	assert_int_equal(fk.last_wait_nr, 1);
	assert_int_equal(fk.nr_submitted, 2);
	check_start_sqe(&fk.submitted[0], 1, 10, 5);
	check_start_sqe(&fk.submitted[1], 2, 11, 9);
	assert_int_equal(s.nr_done, 1);
	assert_int_equal(L(iocoro_submit_and_reap(NULL, 1, &h)), -EINVAL);
}

/* what the wait's errors do to the reap */
static void test_submit_and_reap_errors(void **state)
{
	struct iocoro *co = *state;
	struct seen s = { 0 };
	const struct iocoro_handlers h = { .done = on_done, .arg = &s };

	/* a signal ended the wait: what is there is reaped */
	fk.submit_rets[fk.nr_submit_rets++] = -EINTR;
	fake_post_cqe(iocoro_ud(IOCORO_UD_END, 0, 1), 0, 0);
	assert_int_equal(L(iocoro_submit_and_reap(co, 1, &h)), 1);
	fk.submit_rets[fk.nr_submit_rets++] = -EINTR;
	assert_int_equal(L(iocoro_submit_and_reap(co, 1, &h)), 0);
	/* no room: reap what is there; the error when nothing is */
	fk.submit_rets[fk.nr_submit_rets++] = -EBUSY;
	fake_post_cqe(iocoro_ud(IOCORO_UD_END, 0, 2), 0, 0);
	assert_int_equal(L(iocoro_submit_and_reap(co, 1, &h)), 1);
	fk.submit_rets[fk.nr_submit_rets++] = -EBUSY;
	assert_int_equal(L(iocoro_submit_and_reap(co, 1, &h)), -EBUSY);
	/* another error: returned, the CQ left alone */
	fk.submit_rets[fk.nr_submit_rets++] = -EFAULT;
	fake_post_cqe(iocoro_ud(IOCORO_UD_END, 0, 3), 0, 0);
	assert_int_equal(L(iocoro_submit_and_reap(co, 1, &h)), -EFAULT);
	assert_int_equal(fake_cq_pending(), 1);
	assert_int_equal(s.nr_done, 2);
}

/* a full SQ ring: no SQE, nothing queued */
static void test_queue_start_full(void **state)
{
	struct iocoro *co = *state;
	unsigned int n = 0;

	while (iocoro_queue_start(co, 0, n))
		n++;
	assert_int_equal(n, co->ring.sq.ring_entries);
	assert_int_equal(fk.nr_submit, 0);
}

static void test_window(void **state)
{
	struct iocoro_window w;

	(void)state;
	assert_int_equal(L(iocoro_window_init(&w, 3)), 0);
	assert_int_equal(iocoro_window_in_flight(&w), 0);
	assert_int_equal(iocoro_window_get(&w), 0);
	assert_int_equal(iocoro_window_get(&w), 1);
	assert_int_equal(iocoro_window_get(&w), 2);
	assert_int_equal(iocoro_window_get(&w), -EBUSY);
	assert_int_equal(iocoro_window_in_flight(&w), 3);
	assert_int_equal(iocoro_window_put(&w, 1), 0);
	assert_int_equal(iocoro_window_in_flight(&w), 2);
	assert_int_equal(iocoro_window_get(&w), 1);
	assert_int_equal(iocoro_window_put(&w, 3), -EINVAL);
	assert_int_equal(iocoro_window_put(&w, 0), 0);
	assert_int_equal(iocoro_window_put(&w, 1), 0);
	assert_int_equal(iocoro_window_put(&w, 2), 0);
	/* every id is free: a put more is a bug of the caller's */
	assert_int_equal(iocoro_window_put(&w, 2), -EINVAL);
	iocoro_window_exit(&w);
	assert_null(w.free);
	iocoro_window_exit(&w);
	iocoro_window_exit(NULL);
	assert_int_equal(L(iocoro_window_init(&w, 0)), -EINVAL);
	assert_int_equal(L(iocoro_window_init(NULL, 1)), -EINVAL);
}

UNIT_MAIN("runtime_reap",
	  R(test_reap_dispatch),
	  R(test_reap_foreign_stops),
	  R(test_reap_handler_error),
	  T(test_reap_stock),
	  R(test_submit_and_reap),
	  R(test_submit_and_reap_errors),
	  R(test_queue_start_full),
	  T(test_window))
