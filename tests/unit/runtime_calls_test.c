// SPDX-License-Identifier: MIT
/*
 * Unit tests of libiocoro's calls for many coroutines, on the fake kernel
 * of fake.c (see rt_unit.h): iocoro_start_many(), iocoro_wait()'s
 * deadline, iocoro_wait_many(), iocoro_cancel(), and the argument and
 * error paths of iocoro_skel_load() and iocoro_map_mmap() (their loads
 * are real ones: the guest suite runtime runs them,
 * tests/guest/runtime/calls.c), and what iocoro_kind_attach() refuses
 * before it asks the kernel (tests/guest/coro_ops: the rest).
 */
#include "rt_unit.h"

#include <time.h>

#include "runtime_progs.skel.h"

#define UD(kind, prog, id) iocoro_ud(IOCORO_UD_##kind, prog, id)

/* -------------------------------------------------------- start_many */

static void test_start_many_one_submit(void **state)
{
	struct iocoro *co = *state;
	static const uint32_t ids[] = { 7, 3, 0xfffffffe };
	unsigned int i;

	memset(fk.sqes, 0xff, sizeof(fk.sqes));
	assert_int_equal(L(iocoro_start_many(co, 2, ids, 3)), 3);
	assert_int_equal(fk.nr_submit, 1);
	assert_int_equal(fk.nr_submitted, 3);
	for (i = 0; i < 3; i++)
		check_start_sqe(&fk.submitted[i], 2, ids[i], 0);
}

static void test_start_many_more_than_the_ring(void **state)
{
	struct iocoro *co = *state;
	uint32_t ids[20];
	unsigned int i;

	for (i = 0; i < 20; i++)
		ids[i] = 100 + i;
	/* 8 SQ entries: full, full, then the last 4 */
	assert_int_equal(L(iocoro_start_many(co, 0, ids, 20)), 20);
	assert_int_equal(fk.nr_submit, 3);
	assert_int_equal(fk.nr_submitted, 20);
	for (i = 0; i < 20; i++)
		check_start_sqe(&fk.submitted[i], 0, 100 + i, 0);
}

static void test_start_many_bad_args(void **state)
{
	struct iocoro *co = *state;
	static const uint32_t ids[] = { 1 };

	assert_int_equal(L(iocoro_start_many(NULL, 0, ids, 1)), -EINVAL);
	assert_int_equal(L(iocoro_start_many(co, 0, NULL, 1)), -EINVAL);
	assert_int_equal(L(iocoro_start_many(co, IOCORO_MAX_PROGS, ids, 1)),
			 -EINVAL);
	assert_int_equal(fk.nr_submit, 0);
	/* nothing to start: a submit of whatever the ring holds */
	assert_int_equal(L(iocoro_start_many(co, 0, NULL, 0)), 0);
}

static void test_start_many_submit_error(void **state)
{
	struct iocoro *co = *state;
	uint32_t ids[12] = { 0 };

	/* the first submit fails: nothing started */
	fk.submit_rets[0] = -ENOMEM;
	fk.nr_submit_rets = 1;
	assert_int_equal(L(iocoro_start_many(co, 0, ids, 3)), -ENOMEM);

	/* the ring fills, the kernel takes nothing: 8 of 12 queued */
	fake_reset();
	ring_up(co);
	fk.submit_rets[0] = 0;
	fk.nr_submit_rets = 1;
	assert_int_equal(L(iocoro_start_many(co, 0, ids, 12)), 8);

	/* a failure once some were queued reports those */
	fake_reset();
	ring_up(co);
	fk.submit_rets[0] = -EINTR;
	fk.nr_submit_rets = 1;
	assert_int_equal(L(iocoro_start_many(co, 0, ids, 12)), 8);
}

/* -------------------------------------------------------------- wait */

static void test_wait_deadline_whole_call(void **state)
{
	struct iocoro *co = *state;
	struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = 50000005 };
	struct iocoro_done done;

	/* three CQEs that end no coroutine, then nothing */
	fake_post_cqe(UD(OP, 0, 5), -ENOENT, 0);
	fake_post_cqe(UD(OP, 0, 5), -EIO, 0);
	fake_post_cqe(UD(OP, 1, 6), -EPIPE, 0);
	assert_int_equal(L(iocoro_wait(co, &done, &ts)), -ETIME);
	assert_true(fk.nr_wait >= 4);
	/* each wait got what was left of the 50 ms, not 50 ms again */
	assert_ptr_not_equal(fk.last_ts, &ts);
	assert_int_equal(fk.last_ts_val.tv_sec, 0);
	assert_true(fk.last_ts_val.tv_nsec <= 50000005);
	/* the caller's timespec is not touched */
	assert_int_equal(ts.tv_sec, 0);
	assert_int_equal(ts.tv_nsec, 50000005);
}

/*
 * The kernel's wait ends without a CQE when an IORING_OP_TIMEOUT fires,
 * and liburing says -ETIME then: iocoro_wait() waits on to its deadline.
 */
static void test_wait_early_etime(void **state)
{
	struct iocoro *co = *state;
	struct __kernel_timespec ts = { .tv_nsec = 30 * 1000 * 1000 };
	struct iocoro_done done;
	struct timespec t0, t1;
	double ms;

	/* the fake answers -ETIME at once while the CQ is empty */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(L(iocoro_wait(co, &done, &ts)), -ETIME);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
	     (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	assert_true(ms >= 30);
	assert_true(fk.nr_wait > 1);
	/* an end that comes meanwhile is returned */
	fake_post_cqe(UD(END, 0, 4), 1, 0);
	assert_int_equal(L(iocoro_wait(co, &done, &ts)), 0);
	assert_int_equal(done.id, 4);
}

static void test_wait_deadline_zero(void **state)
{
	struct iocoro *co = *state;
	struct __kernel_timespec ts = { 0 };
	struct iocoro_done done;

	fake_post_cqe(UD(END, 0, 9), 3, 0);
	/* what is there is reaped, even with no time */
	assert_int_equal(L(iocoro_wait(co, &done, &ts)), 0);
	assert_int_equal(done.id, 9);
	assert_int_equal(L(iocoro_wait(co, &done, &ts)), -ETIME);
	assert_int_equal(fk.last_ts_val.tv_sec, 0);
	assert_int_equal(fk.last_ts_val.tv_nsec, 0);
}

static void test_wait_many_takes_what_is_there(void **state)
{
	struct iocoro *co = *state;
	struct iocoro_done done[8];

	fake_post_cqe(UD(END, 0, 1), 10, 0);
	fake_post_cqe(UD(STEP, 1, 2), -ELOOP, 0);
	fake_post_cqe(UD(OP, 0, 3), -EBADF, 0);	/* progress: consumed */
	fake_post_cqe(UD(END, 2, 3), 30, 0);
	fake_post_cqe(0x1234, 0, 0);			/* the application's */
	fake_post_cqe(UD(END, 0, 4), 40, 0);
	assert_int_equal(L(iocoro_wait_many(co, done, 8, NULL)), 3);
	assert_int_equal(done[0].id, 1);
	assert_int_equal(done[0].res, 10);
	assert_int_equal(done[0].how, IOCORO_FINISHED);
	assert_int_equal(done[1].id, 2);
	assert_int_equal(done[1].res, -ELOOP);
	assert_int_equal(done[1].how, IOCORO_FAILED);
	assert_int_equal(done[1].prog, 1);
	assert_int_equal(done[2].id, 3);
	assert_int_equal(done[2].res, 30);
	assert_int_equal(done[2].prog, 2);
	/* one wait; the application's CQE and what follows stay */
	assert_int_equal(fk.nr_wait, 1);
	assert_int_equal(fake_cq_pending(), 2);
	assert_int_equal(L(iocoro_wait_many(co, done, 8, NULL)), -ENOMSG);
	assert_int_equal(fake_cq_pending(), 2);
}

static void test_wait_many_at_most_nr(void **state)
{
	struct iocoro *co = *state;
	struct iocoro_done done[2];
	unsigned int i;

	for (i = 0; i < 5; i++)
		fake_post_cqe(UD(END, 0, i), (int)i, 0);
	assert_int_equal(L(iocoro_wait_many(co, done, 2, NULL)), 2);
	assert_int_equal(done[1].id, 1);
	assert_int_equal(L(iocoro_wait_many(co, done, 1, NULL)), 1);
	assert_int_equal(done[0].id, 2);
	assert_int_equal(fake_cq_pending(), 2);
}

static void test_wait_many_errors(void **state)
{
	struct iocoro *co = *state;
	struct __kernel_timespec ts = { .tv_nsec = 1000 };
	struct iocoro_done done[2];

	assert_int_equal(L(iocoro_wait_many(co, done, 2, &ts)), -ETIME);
	assert_int_equal(L(iocoro_wait_many(co, done, 0, &ts)), -EINVAL);
	assert_int_equal(L(iocoro_wait_many(NULL, done, 2, &ts)), -EINVAL);
	assert_int_equal(L(iocoro_wait_many(co, NULL, 2, &ts)), -EINVAL);
	fk.wait_err = -EINTR;
	assert_int_equal(L(iocoro_wait_many(co, done, 2, &ts)), -EINTR);
}

/* ------------------------------------------------------------ cancel */

static void test_cancel_every_request_of_the_id(void **state)
{
	struct iocoro *co = *state;
	struct iocoro_done done;

	co->nr_progs = 3;
	fake_inflight(UD(STEP, 2, 5));	/* waits in an op, program 2 next */
	fake_inflight(UD(OP, 0, 5));	/* an op of its own */
	fake_inflight(UD(STEP, 2, 6));	/* another coroutine */
	fake_inflight(UD(OP, 0, 6));
	assert_int_equal(L(iocoro_cancel(co, 5)), 2);
	assert_int_equal(fk.nr_inflight, 2);
	/* by user_data, every match: one call per kind and program */
	assert_int_equal(fk.nr_sync_cancel, 2 * 3);
	assert_int_equal(fk.sync_cancel_flags, IORING_ASYNC_CANCEL_ALL);
	/* its end: the step's -ECANCELED; the op's CQE is consumed */
	assert_int_equal(L(iocoro_wait(co, &done, NULL)), 0);
	assert_int_equal(done.id, 5);
	assert_int_equal(done.res, -ECANCELED);
	assert_int_equal(done.how, IOCORO_FAILED);
	assert_int_equal(done.prog, 2);
	assert_int_equal(fake_cq_pending(), 1);
	/* nothing left of it */
	assert_int_equal(L(iocoro_cancel(co, 5)), -ENOENT);
	assert_int_equal(fk.nr_inflight, 2);
}

static void test_cancel_without_attach(void **state)
{
	struct iocoro *co = *state;

	/* no kinds attached by iocoro_attach(): every kind a step can name */
	fake_inflight(UD(STEP, IOCORO_MAX_PROGS - 1, 8));
	assert_int_equal(L(iocoro_cancel(co, 8)), 1);
	assert_int_equal(fk.nr_sync_cancel, 2 * IOCORO_MAX_PROGS);
}

static void test_cancel_errors(void **state)
{
	struct iocoro *co = *state;

	assert_int_equal(L(iocoro_cancel(NULL, 1)), -EINVAL);
	assert_int_equal(L(iocoro_cancel(co, 1)), -ENOENT);
	fk.reg_err[IORING_REGISTER_SYNC_CANCEL] = -EFAULT;
	assert_int_equal(L(iocoro_cancel(co, 1)), -EFAULT);
}

/* ---------------------------------------------- skel_load, map_mmap */

static void test_skel_load_bad_args(void **state)
{
	struct iocoro *co = *state;
	struct runtime_progs_bpf *skel = runtime_progs_bpf__open();

	assert_non_null(skel);
	assert_int_equal(L(iocoro_skel_load(NULL, skel->skeleton, NULL)),
			 -EINVAL);
	assert_int_equal(L(iocoro_skel_load(co, NULL, NULL)), -EINVAL);
	assert_int_equal(fk.nr_reg, 0);
	assert_int_equal(fk.nr_link_calls, 0);
	runtime_progs_bpf__destroy(skel);
}

static void test_skel_load_stock(void **state)
{
	struct iocoro *co = *state;
	struct runtime_progs_bpf *skel = runtime_progs_bpf__open();

	assert_non_null(skel);
	fk.stock = true;
	/* refused before anything is loaded or attached */
	assert_int_equal(L(iocoro_skel_load(co, skel->skeleton, NULL)),
			 -EOPNOTSUPP);
	assert_int_equal(fk.nr_load, 0);
	assert_int_equal(fk.nr_link_calls, 0);
	assert_int_equal(co->nr_progs, 0);
	runtime_progs_bpf__destroy(skel);
}

static void test_map_mmap_errors(void **state)
{
	struct runtime_progs_bpf *skel = runtime_progs_bpf__open();
	size_t len = 77;
	void *p = &len;

	(void)state;
	assert_non_null(skel);
	assert_int_equal(L(iocoro_map_mmap(NULL, &p, &len)), -EINVAL);
	assert_int_equal(L(iocoro_map_mmap(skel->maps.mmapable, NULL, &len)),
			 -EINVAL);
	assert_int_equal(L(iocoro_map_mmap(skel->maps.mmapable, &p, NULL)),
			 -EINVAL);
	/* an array without BPF_F_MMAPABLE */
	assert_int_equal(L(iocoro_map_mmap(skel->maps.states, &p, &len)),
			 -EINVAL);
	/* mmapable, not loaded: no fd */
	assert_int_equal(L(iocoro_map_mmap(skel->maps.mmapable, &p, &len)),
			 -EBADF);
	/* nothing written on failure */
	assert_ptr_equal(p, &len);
	assert_int_equal(len, 77);
	iocoro_map_munmap(NULL, 0);
	runtime_progs_bpf__destroy(skel);
}

/* ---------------------------------------------------------------- kinds */

/* what iocoro_kind_attach() and _update() refuse before asking the kernel */
static void test_kind_bad_args(void **state)
{
	struct runtime_progs_bpf *skel = runtime_progs_bpf__open();
	struct bpf_program *step;
	struct iocoro co;

	(void)state;
	assert_non_null(skel);
	step = skel->progs.first;
	ring_up(&co);
	assert_int_equal(L(iocoro_kind_attach(NULL, step, 0)), -EINVAL);
	assert_int_equal(L(iocoro_kind_attach(&co, NULL, 0)), -EINVAL);
	assert_int_equal(L(iocoro_kind_attach(&co, step, IOCORO_MAX_KINDS)),
			 -EINVAL);
	/* a step that is not loaded */
	assert_int_equal(L(iocoro_kind_attach(&co, step, 0)), -EINVAL);
	assert_int_equal(L(iocoro_kind_update(3, &co, step, 0)), -EINVAL);
	assert_int_equal(L(iocoro_kind_update(3, NULL, step, 0)), -EINVAL);
	/* loaded (the fake's load), but not a struct_ops program */
	assert_int_equal(L(iocoro_object_load(skel->obj, NULL)), 5);
	assert_true(bpf_program__fd(skel->progs.not_ours) >= 0);
	assert_int_equal(L(iocoro_kind_attach(&co, skel->progs.not_ours, 0)),
			 -EINVAL);
	assert_int_equal(L(iocoro_kind_update(3, &co, skel->progs.not_ours,
					      0)), -EINVAL);
	runtime_progs_bpf__destroy(skel);
}

/* IORING_OP_BPF at a kind: off is the kind, no more */
static void test_prep_kind(void **state)
{
	struct io_uring_sqe sqe;

	(void)state;
	memset(&sqe, 0xff, sizeof(sqe));
	iocoro_prep_kind(&sqe, 9);
	assert_int_equal(sqe.opcode, IORING_OP_BPF);
	assert_int_equal(sqe.off, 9);
	assert_int_equal(sqe.rw_flags, 0);
	assert_int_equal(sqe.fd, 0);
	assert_int_equal(sqe.addr, 0);
	assert_int_equal(sqe.len, 0);
	assert_int_equal(sqe.flags, 0);
	assert_int_equal(sqe.ioprio, 0);
	assert_int_equal(sqe.buf_index, 0);
	assert_int_equal(sqe.personality, 0);
	assert_int_equal(sqe.splice_fd_in, 0);
}

UNIT_MAIN("runtime_calls",
	  R(test_start_many_one_submit),
	  R(test_start_many_more_than_the_ring),
	  R(test_start_many_bad_args),
	  R(test_start_many_submit_error),
	  R(test_wait_deadline_whole_call),
	  R(test_wait_deadline_zero),
	  R(test_wait_early_etime),
	  R(test_wait_many_takes_what_is_there),
	  R(test_wait_many_at_most_nr),
	  R(test_wait_many_errors),
	  R(test_cancel_every_request_of_the_id),
	  R(test_cancel_without_attach),
	  R(test_cancel_errors),
	  R(test_skel_load_bad_args),
	  R(test_skel_load_stock),
	  T(test_map_mmap_errors),
	  T(test_kind_bad_args),
	  T(test_prep_kind))
