// SPDX-License-Identifier: MIT
/*
 * Unit tests of libiocoro's rings (runtime/src/ring.c): the support
 * probe, iocoro_queue_init*(), iocoro_queue_exit() (the kinds attached go
 * before the ring), and iocoro_strerror(). The library's objects are
 * linked with -Wl,--wrap= for the liburing and libbpf calls that reach the
 * kernel and for libiocoro's own bpf_link call, which fake.c answers (see
 * fake.h), so that every error path runs without the patched kernel.
 */
#include <fcntl.h>
#include <unistd.h>

#include "rt_unit.h"

/* ------------------------------------------------------------ probe */

static void test_probe_patched(void **state)
{
	(void)state;
	assert_int_equal(L(iocoro_probe()), 0);
	assert_int_equal(fk.nr_setup, 1);
	assert_int_equal(fk.nr_reg, 1);
	assert_int_equal(fk.reg[0].op, IORING_REGISTER_PROBE);
	assert_int_equal(fk.reg[0].fd, fk.last_probe_fd);
	assert_false(fk.reg[0].arg_null);
	assert_int_equal(fk.reg[0].nr, IORING_OP_BPF + 1);
	assert_false(fake_probe_fd_open());
}

static void test_probe_stock(void **state)
{
	(void)state;
	fk.stock = true;
	assert_int_equal(L(iocoro_probe()), -EOPNOTSUPP);
	assert_false(fake_probe_fd_open());
}

static void test_probe_no_io_uring(void **state)
{
	(void)state;
	fk.setup_err = -ENOSYS;
	assert_int_equal(L(iocoro_probe()), -ENOSYS);
	fk.setup_err = -EPERM; /* io_uring_disabled sysctl */
	assert_int_equal(L(iocoro_probe()), -EPERM);
	assert_int_equal(fk.nr_reg, 0);
}

/* -------------------------------------------------------- ring setup */

static void test_init_ok(void **state)
{
	struct iocoro co;

	(void)state;
	memset(&co, 0xa5, sizeof(co));
	assert_int_equal(L(iocoro_queue_init(16, &co, 0)), 0);
	assert_int_equal(fk.nr_init, 1);
	assert_int_equal(fk.init_entries, 16);
	assert_int_equal(fk.init_params.flags, IOCORO_SETUP_FLAGS);
	/* support is checked on the ring itself: no throwaway ring */
	assert_int_equal(fk.nr_setup, 0);
	assert_int_equal(fk.nr_reg, 1);
	assert_int_equal(fk.reg[0].fd, FAKE_RING_FD);
	assert_int_equal(fk.reg[0].op, IORING_REGISTER_PROBE);
	assert_int_equal(co.ring.ring_fd, FAKE_RING_FD);
	assert_int_equal(co.nr_progs, 0);
	assert_int_equal(co.budget, 0);
	assert_int_equal(fk.nr_link_calls, 0);
	assert_int_equal(co.flags, IOCORO_F_PROBED);
	assert_true(co.features & IORING_FEAT_NODROP);
	/* the room kept for later fields starts zeroed */
	for (unsigned int i = 0; i < sizeof(co.resv) / sizeof(co.resv[0]); i++)
		assert_int_equal(co.resv[i], 0);
	assert_int_equal(fk.nr_exit, 0);
}

static void test_init_keeps_caller_flags(void **state)
{
	struct io_uring_params p;
	struct iocoro co;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
		  IORING_SETUP_CQSIZE;
	p.cq_entries = 64;
	assert_int_equal(L(iocoro_queue_init_params(4, &co, &p)), 0);
	assert_int_equal(fk.init_params.flags,
			 IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
			 IORING_SETUP_CQSIZE | IOCORO_SETUP_FLAGS);
	assert_int_equal(fk.init_params.cq_entries, 64);
	assert_int_equal(p.features, co.features);
}

static void check_unusable_flag(unsigned int flag)
{
	struct iocoro co;

	fake_reset();
	assert_int_equal(L(iocoro_queue_init(8, &co, flag)), -EINVAL);
	/* refused before the kernel is asked */
	assert_int_equal(fk.nr_init, 0);
	assert_int_equal(fk.nr_setup, 0);
	assert_int_equal(co.ring.ring_fd, 0);
}

static void test_init_sqpoll(void **state)
{
	(void)state;
	check_unusable_flag(IORING_SETUP_SQPOLL);
	check_unusable_flag(IORING_SETUP_SQPOLL | IORING_SETUP_SQ_AFF);
}

static void test_init_iopoll(void **state)
{
	(void)state;
	check_unusable_flag(IORING_SETUP_IOPOLL);
}

static void test_init_sqe128(void **state)
{
	(void)state;
	check_unusable_flag(IORING_SETUP_SQE128);
}

/* a kernel without the series, of today or too old: -EOPNOTSUPP */
static void test_init_no_series(void **state)
{
	struct iocoro co;

	(void)state;
	fk.stock = true;
	assert_int_equal(L(iocoro_queue_init(8, &co, 0)), -EOPNOTSUPP);
	/* the ring was set up, found lacking and closed again */
	assert_int_equal(fk.nr_init, 1);
	assert_int_equal(fk.nr_exit, 1);
	assert_int_equal(co.ring.ring_fd, 0);

	/* too old for IOCORO_SETUP_FLAGS: -EINVAL, which means no series */
	fake_reset();
	fk.old_kernel = true;
	assert_int_equal(L(iocoro_queue_init(8, &co, 0)), -EOPNOTSUPP);
	assert_int_equal(fk.nr_exit, 0);
	assert_int_equal(fk.nr_setup, 1);
	assert_false(fake_probe_fd_open());
}

static void test_init_errors(void **state)
{
	static const int errs[] = { -ENOMEM, -EPERM, -EMFILE, -EFAULT, -EINVAL };
	struct iocoro co;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(errs); i++) {
		fake_reset();
		fk.init_err = errs[i];
		/* on the patched kernel, an -EINVAL stays -EINVAL */
		assert_int_equal(L(iocoro_queue_init(8, &co, 0)), errs[i]);
		assert_int_equal(fk.nr_exit, 0);
		assert_int_equal(co.ring.ring_fd, 0);
	}
}

static void test_init_null(void **state)
{
	struct io_uring_params p;
	struct iocoro co;

	(void)state;
	memset(&p, 0, sizeof(p));
	assert_int_equal(L(iocoro_queue_init_params(8, NULL, &p)), -EINVAL);
	assert_int_equal(L(iocoro_queue_init_params(8, &co, NULL)), -EINVAL);
	assert_int_equal(L(iocoro_queue_init(8, NULL, 0)), -EINVAL);
	assert_int_equal(fk.nr_init, 0);
}

static void test_queue_exit(void **state)
{
	struct iocoro *co = *state;

	assert_int_equal(L(iocoro_attach(co, (int[]){ 3, -1, 4 }, 3)), 0);
	assert_int_equal(fake_links_open(), 2);
	errno = ERRNO_CANARY;
	iocoro_queue_exit(co);
	assert_int_equal(errno, ERRNO_CANARY);
	assert_int_equal(fk.nr_exit, 1);
	/* the links went first: no kind runs on a ring that is going */
	assert_int_equal(fk.links_open_at_exit, 0);
	assert_int_equal(fake_links_open(), 0);
	assert_int_equal(co->nr_progs, 0);
	assert_int_equal(co->ring.ring_fd, 0);
	iocoro_queue_exit(NULL);
	assert_int_equal(fk.nr_exit, 1);
}

static void test_queue_exit_after_detach(void **state)
{
	struct iocoro *co = *state;
	int fd;

	assert_int_equal(L(iocoro_attach(co, (int[]){ 3 }, 1)), 0);
	assert_int_equal(L(iocoro_detach(co)), 0);
	assert_false(fake_link_open(0));
	/* the application's next fd may get the link's number */
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	iocoro_queue_exit(co);
	/* the detached link is not closed a second time */
	assert_int_not_equal(fcntl(fd, F_GETFD), -1);
	assert_int_equal(fk.nr_exit, 1);
	close(fd);
}

static void test_queue_exit_no_kinds(void **state)
{
	struct iocoro *co = *state;

	iocoro_queue_exit(co);
	assert_int_equal(fk.nr_exit, 1);
	assert_int_equal(fk.nr_link_calls, 0);
}

/* ---------------------------------------------------------- strerror */

static void test_strerror_no_kernel(void **state)
{
	const char *s = L(iocoro_strerror(-EOPNOTSUPP));

	(void)state;
	assert_non_null(strstr(s, "IORING_OP_BPF"));
	assert_non_null(strstr(s, "series"));
	/* an installed library names no script of the source tree */
	assert_null(strstr(s, ".sh"));
	assert_null(strstr(s, "kernel/"));
	/* either sign */
	assert_string_equal(L(iocoro_strerror(EOPNOTSUPP)), s);
}

static void test_strerror_iocoro_meanings(void **state)
{
	(void)state;
	assert_non_null(strstr(L(iocoro_strerror(-ELOOP)), "budget"));
	/* iocoro_detach() of a ring nothing is attached to */
	assert_non_null(strstr(L(iocoro_strerror(-ENXIO)), "iocoro_attach"));
	/* -EINVAL: a verifier refusal first, then the ring flags */
	assert_non_null(strstr(L(iocoro_strerror(-EINVAL)), "verifier"));
	assert_non_null(strstr(L(iocoro_strerror(-EINVAL)), "SQPOLL"));
	assert_non_null(strstr(L(iocoro_strerror(-ENOSPC)), "last lines"));
	/* a missing file is only that */
	assert_string_equal(L(iocoro_strerror(-ENOENT)),
			    "No such file or directory");
	assert_non_null(strstr(L(iocoro_strerror(-EPERM)), "CAP_BPF"));
	assert_non_null(strstr(L(iocoro_strerror(-EACCES)), "verifier"));
	assert_non_null(strstr(L(iocoro_strerror(-ENOMSG)), "CQE"));
	assert_non_null(strstr(L(iocoro_strerror(-EPROTO)), "IOCORO_DEBUG"));
	assert_non_null(strstr(L(iocoro_strerror(-ECANCELED)),
			       "iocoro_cancel"));
	assert_string_equal(L(iocoro_strerror(0)), "Success");
	/* everything else: the C library's description */
	assert_string_equal(L(iocoro_strerror(-EIO)), "Input/output error");
	assert_string_equal(L(iocoro_strerror(-100000)), "unknown error");
}

static void test_strerror_distinct(void **state)
{
	static const int errs[] = { EOPNOTSUPP, ELOOP, ENXIO, EBADF, EBUSY,
		EPERM, EINVAL, EACCES, ENOSPC, ENOMSG, ETIME,
		ECANCELED, E2BIG, EPROTO };
	size_t i, j, n = ARRAY_SIZE(errs);

	(void)state;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			assert_string_not_equal(L(iocoro_strerror(errs[i])),
						L(iocoro_strerror(errs[j])));
}

UNIT_MAIN("runtime_ring",
	  T(test_probe_patched),
	  T(test_probe_stock),
	  T(test_probe_no_io_uring),
	  T(test_init_ok),
	  T(test_init_keeps_caller_flags),
	  T(test_init_sqpoll),
	  T(test_init_iopoll),
	  T(test_init_sqe128),
	  T(test_init_no_series),
	  T(test_init_errors),
	  T(test_init_null),
	  R(test_queue_exit),
	  R(test_queue_exit_after_detach),
	  R(test_queue_exit_no_kinds),
	  T(test_strerror_no_kernel),
	  T(test_strerror_iocoro_meanings),
	  T(test_strerror_distinct))
