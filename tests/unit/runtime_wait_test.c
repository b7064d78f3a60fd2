// SPDX-License-Identifier: MIT
/*
 * Unit tests of libiocoro's coroutine states and ends on the fake kernel
 * of fake.c (see rt_unit.h): iocoro_start_state(), iocoro_state_read(),
 * iocoro_wait() and iocoro_cqe_done(). The states map is a real one of
 * runtime_progs.bpf.c, opened but never loaded.
 */
#include "rt_unit.h"

#include "runtime_progs.skel.h"

static struct runtime_progs_bpf *open_skel(void)
{
	struct runtime_progs_bpf *skel = runtime_progs_bpf__open();

	assert_non_null(skel);
	return skel;
}

/* ------------------------------------------------------------- state */

static void test_start_state_ok(void **state)
{
	struct iocoro *co = *state;
	struct runtime_progs_bpf *skel = open_skel();
	struct { __u32 step; __s32 fd; __u64 buf; } st = { 0, -1, 0x1000 };

	assert_int_equal(L(iocoro_start_state(co, 2, 3, skel->maps.states, &st,
					    sizeof(st))), 0);
	assert_int_equal(fk.nr_map_update, 1);
	assert_int_equal(fk.map_key, 3);
	assert_int_equal(fk.map_size, sizeof(st));
	assert_memory_equal(fk.map_val, &st, sizeof(st));
	assert_int_equal(fk.map_flags, BPF_ANY);
	check_start_sqe(&fk.submitted[0], 2, 3, 0);
	runtime_progs_bpf__destroy(skel);
}

/* the state's start carries the budget as iocoro_start()'s does */
static void test_start_state_budget(void **state)
{
	struct iocoro *co = *state;
	struct runtime_progs_bpf *skel = open_skel();
	char st[16] = { 0 };

	assert_int_equal(L(iocoro_set_budget(co, 3)), 0);
	assert_int_equal(L(iocoro_start_state(co, 1, 2, skel->maps.states, st,
					    sizeof(st))), 0);
	check_start_sqe(&fk.submitted[0], 1, 2, 3);
	runtime_progs_bpf__destroy(skel);
}

static void test_start_state_errors(void **state)
{
	struct iocoro *co = *state;
	struct runtime_progs_bpf *skel = open_skel();
	__u64 small = 0;
	char big[16] = { 0 };

	/* the value must be the map's value size */
	assert_int_equal(L(iocoro_start_state(co, 0, 1, skel->maps.states,
					    &small, sizeof(small))), -EINVAL);
	/* the kernel's refusal (an id out of the array) */
	fk.map_err = -E2BIG;
	assert_int_equal(L(iocoro_start_state(co, 0, 9, skel->maps.states, big,
					    sizeof(big))), -E2BIG);
	/* nothing was started */
	assert_int_equal(fk.nr_submit, 0);
	assert_int_equal(L(iocoro_start_state(co, 0, 1, NULL, big, sizeof(big))),
			 -EINVAL);
	assert_int_equal(L(iocoro_start_state(co, 0, 1, skel->maps.states, NULL,
					    sizeof(big))), -EINVAL);
	assert_int_equal(L(iocoro_start_state(co, 64, 1, skel->maps.states, big,
					    sizeof(big))), -EINVAL);
	/* the size mismatch was libbpf's finding, the E2BIG the kernel's */
	assert_int_equal(fk.nr_map_update, 2);
	runtime_progs_bpf__destroy(skel);
}

static void test_state_read(void **state)
{
	struct iocoro *co = *state;
	struct runtime_progs_bpf *skel = open_skel();
	char in[16] = "coroutine stat", out[16];

	assert_int_equal(L(iocoro_start_state(co, 0, 5, skel->maps.states, in,
					    sizeof(in))), 0);
	memset(out, 0, sizeof(out));
	assert_int_equal(L(iocoro_state_read(skel->maps.states, 5, out,
					   sizeof(out))), 0);
	assert_memory_equal(in, out, sizeof(in));
	assert_int_equal(L(iocoro_state_read(skel->maps.states, 6, out,
					   sizeof(out))), -ENOENT);
	assert_int_equal(L(iocoro_state_read(skel->maps.states, 5, out, 8)),
			 -EINVAL);
	assert_int_equal(L(iocoro_state_read(NULL, 5, out, sizeof(out))), -EINVAL);
	runtime_progs_bpf__destroy(skel);
}

/* -------------------------------------------------------------- wait */

static void test_wait_end(void **state)
{
	struct iocoro *co = *state;
	struct iocoro_done done;

	fake_post_cqe(iocoro_ud(IOCORO_UD_END, 4, 77), 1234, 0);
	assert_int_equal(L(iocoro_wait(co, &done, NULL)), 0);
	assert_int_equal(done.id, 77);
	assert_int_equal(done.res, 1234);
	assert_int_equal(done.how, IOCORO_FINISHED);
	assert_int_equal(done.prog, 4);
	assert_true(done.user_data == iocoro_ud(IOCORO_UD_END, 4, 77));
	assert_int_equal(fake_cq_pending(), 0);
	assert_null(fk.last_ts);
}

static void test_wait_failed_step(void **state)
{
	struct iocoro *co = *state;
	static const int errs[] = { -ELOOP, -ECANCELED, -EBADF, -ENOENT };
	struct iocoro_done done;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errs); i++) {
		fake_post_cqe(iocoro_ud(IOCORO_UD_STEP, 1, 9), errs[i], 0);
		assert_int_equal(L(iocoro_wait(co, &done, NULL)), 0);
		assert_int_equal(done.id, 9);
		assert_int_equal(done.res, errs[i]);
		assert_int_equal(done.how, IOCORO_FAILED);
	}
	assert_int_equal(fake_cq_pending(), 0);
}

static void test_wait_skips_progress(void **state)
{
	struct iocoro *co = *state;
	struct iocoro_done done;

	/* two failed operations a step queued on its own */
	fake_post_cqe(iocoro_ud(IOCORO_UD_OP, 0, 5), -ENOENT, 0);
	fake_post_cqe(iocoro_ud(IOCORO_UD_OP, 1, 5), -EIO, 0);
	fake_post_cqe(iocoro_ud(IOCORO_UD_END, 0, 5), -ENOENT, 0);
	assert_int_equal(L(iocoro_wait(co, &done, NULL)), 0);
	assert_int_equal(done.how, IOCORO_FINISHED);
	assert_int_equal(done.res, -ENOENT);
	assert_int_equal(fake_cq_pending(), 0);
	assert_int_equal(fk.nr_wait, 3);
}

static void test_wait_foreign_cqe(void **state)
{
	struct iocoro *co = *state;
	struct iocoro_done done;

	fake_post_cqe(0x1234, 0, 0);
	fake_post_cqe(iocoro_ud(IOCORO_UD_END, 0, 1), 0, 0);
	assert_int_equal(L(iocoro_wait(co, &done, NULL)), -ENOMSG);
	/* left for the application */
	assert_int_equal(fake_cq_pending(), 2);
	io_uring_cq_advance(&co->ring, 1);
	assert_int_equal(L(iocoro_wait(co, &done, NULL)), 0);
	assert_int_equal(done.id, 1);
}

static void test_wait_timeout(void **state)
{
	struct iocoro *co = *state;
	struct __kernel_timespec ts = { .tv_nsec = 20 * 1000 * 1000 };
	struct iocoro_done done;

	assert_int_equal(L(iocoro_wait(co, &done, &ts)), -ETIME);
	/* waits of what was left of the 20 ms */
	assert_non_null(fk.last_ts);
	assert_int_equal(fk.last_ts_val.tv_sec, 0);
	assert_true(fk.last_ts_val.tv_nsec <= 20 * 1000 * 1000);
}

static void test_wait_short_cq(void **state)
{
	struct iocoro *co = *state;
	struct __kernel_timespec ts = { .tv_nsec = 1000 };
	struct iocoro_done done;

	/* only progress CQEs arrive, the end does not */
	fake_post_cqe(iocoro_ud(IOCORO_UD_OP, 0, 5), -EIO, 0);
	fake_post_cqe(iocoro_ud(IOCORO_UD_OP, 0, 6), -EIO, 0);
	assert_int_equal(L(iocoro_wait(co, &done, &ts)), -ETIME);
	assert_int_equal(fake_cq_pending(), 0);
}

static void test_wait_errors(void **state)
{
	struct iocoro *co = *state;
	static const int errs[] = { -EINTR, -EBADR, -EFAULT, -EAGAIN };
	struct iocoro_done done;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errs); i++) {
		fk.wait_err = errs[i];
		assert_int_equal(L(iocoro_wait(co, &done, NULL)), errs[i]);
	}
	assert_int_equal(L(iocoro_wait(NULL, &done, NULL)), -EINVAL);
	assert_int_equal(L(iocoro_wait(co, NULL, NULL)), -EINVAL);
}

static void test_wait_einval_stock(void **state)
{
	struct iocoro_done done;
	struct iocoro co;

	(void)state;
	ring_by_hand(&co);
	/* a kernel without the series fails the unknown opcode (-EINVAL),
	 * or takes the number for another opcode, which fails otherwise */
	fk.stock = true;
	fake_post_cqe(iocoro_ud(IOCORO_UD_STEP, 0, 1), -EINVAL, 0);
	fake_post_cqe(iocoro_ud(IOCORO_UD_STEP, 0, 2), -ENOTSOCK, 0);
	assert_int_equal(L(iocoro_wait(&co, &done, NULL)), 0);
	assert_int_equal(done.res, -EOPNOTSUPP);
	assert_int_equal(L(iocoro_wait(&co, &done, NULL)), 0);
	assert_int_equal(done.res, -EOPNOTSUPP);
	/* the patched one keeps its -EINVAL (e.g. fields that must be 0) */
	fk.stock = false;
	fake_post_cqe(iocoro_ud(IOCORO_UD_STEP, 0, 1), -EINVAL, 0);
	assert_int_equal(L(iocoro_wait(&co, &done, NULL)), 0);
	assert_int_equal(done.res, -EINVAL);
	/* an end the program reported is never rewritten */
	fk.stock = true;
	fake_post_cqe(iocoro_ud(IOCORO_UD_END, 0, 1), -EINVAL, 0);
	assert_int_equal(L(iocoro_wait(&co, &done, NULL)), 0);
	assert_int_equal(done.res, -EINVAL);
	/* nor are the failures of a ring iocoro set up (no probe) */
	co.flags = IOCORO_F_PROBED;
	fk.nr_setup = 0;
	fake_post_cqe(iocoro_ud(IOCORO_UD_STEP, 0, 1), -EINVAL, 0);
	assert_int_equal(L(iocoro_wait(&co, &done, NULL)), 0);
	assert_int_equal(done.res, -EINVAL);
	assert_int_equal(fk.nr_setup, 0);
}

static void test_cqe_done(void **state)
{
	struct io_uring_cqe cqe = { 0 };
	struct iocoro_done done;

	(void)state;
	cqe.user_data = 42;
	assert_int_equal(iocoro_cqe_done(&cqe, &done), -ENOMSG);
	cqe.user_data = iocoro_ud(IOCORO_UD_OP, 0, 1);
	cqe.res = -EIO;
	assert_int_equal(iocoro_cqe_done(&cqe, &done), 0);
	cqe.res = 7;
	assert_int_equal(iocoro_cqe_done(&cqe, &done), 0);
	/* a step's operation completed, its step did not run: an fd */
	cqe.user_data = iocoro_ud(IOCORO_UD_STEP, 2, 1);
	assert_int_equal(iocoro_cqe_done(&cqe, &done), 1);
	assert_int_equal(done.how, IOCORO_ORPHANED);
	assert_int_equal(done.res, 7);
	assert_int_equal(done.prog, 2);
	cqe.res = 0;
	assert_int_equal(iocoro_cqe_done(&cqe, &done), 1);
	assert_int_equal(done.how, IOCORO_ORPHANED);
	cqe.res = -ELOOP;
	assert_int_equal(iocoro_cqe_done(&cqe, &done), 1);
	assert_int_equal(done.how, IOCORO_FAILED);
	cqe.user_data = iocoro_ud(IOCORO_UD_END, 63, UINT32_MAX);
	cqe.res = 5;
	assert_int_equal(iocoro_cqe_done(&cqe, &done), 1);
	assert_int_equal(done.how, IOCORO_FINISHED);
	assert_int_equal(done.id, UINT32_MAX);
	assert_int_equal(done.prog, 63);
	assert_int_equal(done.res, 5);
}

UNIT_MAIN("runtime_wait",
	  R(test_start_state_ok),
	  R(test_start_state_budget),
	  R(test_start_state_errors),
	  R(test_state_read),
	  R(test_wait_end),
	  R(test_wait_failed_step),
	  R(test_wait_skips_progress),
	  R(test_wait_foreign_cqe),
	  R(test_wait_timeout),
	  R(test_wait_short_cq),
	  R(test_wait_errors),
	  T(test_wait_einval_stock),
	  T(test_cqe_done))
