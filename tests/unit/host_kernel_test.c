// SPDX-License-Identifier: MIT
/*
 * libiocoro against the host's real kernel, unwrapped: the kernel support
 * path. The host runs a kernel without the series (the patched one is
 * only ever booted in QEMU), so every entry point must give -EOPNOTSUPP,
 * and iocoro_strerror() must say so in words. Where io_uring itself is
 * unavailable (ENOSYS, or EPERM from kernel.io_uring_disabled), that error
 * must come instead. Should this ever run on a kernel with the series, it
 * checks the opposite: that the same entry points succeed.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "iocoro.h"
#include "runtime_progs.skel.h"

/* the answer every entry point must give on this kernel */
static int expected;

static int setup(void **state)
{
	struct io_uring_params p;
	int fd;

	(void)state;
	memset(&p, 0, sizeof(p));
	fd = io_uring_setup(1, &p);
	if (fd < 0) {
		expected = fd;
		printf("host: io_uring unavailable (%d): expecting that\n", fd);
		return 0;
	}
	close(fd);
	expected = iocoro_probe();
	printf("host: iocoro_probe() = %d (%s)\n", expected,
	       iocoro_strerror(expected));
	return 0;
}

static void test_probe(void **state)
{
	(void)state;
	if (expected == 0)
		return;
	assert_int_equal(iocoro_probe(), expected);
	if (expected == -EOPNOTSUPP)
		assert_non_null(strstr(iocoro_strerror(expected),
				       "lacks IORING_OP_BPF"));
}

static void test_queue_init(void **state)
{
	struct iocoro co;
	int ret;

	(void)state;
	ret = iocoro_queue_init(4, &co, 0);
	assert_int_equal(ret, expected);
	if (!ret)
		iocoro_queue_exit(&co);
	ret = iocoro_queue_init(4, &co, IORING_SETUP_SINGLE_ISSUER |
				IORING_SETUP_DEFER_TASKRUN);
	assert_int_equal(ret, expected);
	if (!ret)
		iocoro_queue_exit(&co);
}

static void test_object(void **state)
{
	struct runtime_progs_bpf *skel = runtime_progs_bpf__open();

	(void)state;
	assert_non_null(skel);
	assert_int_equal(iocoro_object_prepare(skel->obj, NULL),
			 expected ? expected : 5);
	if (expected)
		assert_int_equal(iocoro_object_load(skel->obj, NULL), expected);
	runtime_progs_bpf__destroy(skel);
}

/*
 * The kind entry points on a ring the application set up itself
 * (iocoro_queue_init() would have refused the kernel already): attaching
 * finds no io_coro_ops in the kernel's BTF, before any bpf() call;
 * detaching and the budget ask the kernel nothing. Starting a coroutine
 * is left out: on later kernels IORING_OP_BPF's number is another opcode,
 * which this test has no business submitting; the unit tests cover that
 * path (test_wait_einval_stock).
 */
static void test_own_ring(void **state)
{
	struct iocoro co;
	/* any fd: the kernel's BTF is read before the fd is looked at */
	int fds[1] = { STDIN_FILENO };

	(void)state;
	if (expected != -EOPNOTSUPP)
		return; /* no ring (io_uring unavailable), or the series */
	memset(&co, 0, sizeof(co));
	assert_int_equal(io_uring_queue_init(4, &co.ring, 0), 0);
	assert_int_equal(iocoro_attach(&co, fds, 1), -EOPNOTSUPP);
	assert_int_equal(co.nr_progs, 0);
	/* nothing attached */
	assert_int_equal(iocoro_detach(&co), -ENXIO);
	/* the budget goes in the start SQEs */
	assert_int_equal(iocoro_set_budget(&co, 1), 0);
	assert_int_equal(co.budget, 1);
	io_uring_queue_exit(&co.ring);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_queue_init),
		cmocka_unit_test(test_object),
		cmocka_unit_test(test_own_ring),
	};

	return cmocka_run_group_tests_name("host_kernel", tests, setup, NULL);
}
