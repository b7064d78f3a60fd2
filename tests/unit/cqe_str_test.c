// SPDX-License-Identifier: MIT
/* Unit tests of tests/lib/cqe_str.c: CQE results and flags as text. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <linux/io_uring.h>

#include "cqe_str.h"

static void test_errno_name(void **state)
{
	(void)state;
	assert_string_equal(iocoro_errno_name(ENOENT), "ENOENT");
	assert_string_equal(iocoro_errno_name(-ENOENT), "ENOENT");
	assert_string_equal(iocoro_errno_name(-ECANCELED), "ECANCELED");
	assert_null(iocoro_errno_name(0));
	assert_null(iocoro_errno_name(4000));
	assert_null(iocoro_errno_name(INT32_MIN));
}

static void test_res(void **state)
{
	char buf[128];

	(void)state;
	assert_int_equal(iocoro_res_str(buf, sizeof(buf), 0), 1);
	assert_string_equal(buf, "0");
	iocoro_res_str(buf, sizeof(buf), 4096);
	assert_string_equal(buf, "4096");
	iocoro_res_str(buf, sizeof(buf), -ENOENT);
	assert_string_equal(buf, "-2 (ENOENT: No such file or directory)");
	iocoro_res_str(buf, sizeof(buf), -ECANCELED);
	assert_string_equal(buf, "-125 (ECANCELED: Operation canceled)");
	iocoro_res_str(buf, sizeof(buf), -4000);
	assert_string_equal(buf, "-4000 (unknown errno)");
	iocoro_res_str(buf, sizeof(buf), INT32_MIN);
	assert_string_equal(buf, "-2147483648 (unknown errno)");
}

static void test_flags(void **state)
{
	char buf[128];

	(void)state;
	assert_int_equal(iocoro_cqe_flags_str(buf, sizeof(buf), 0), 1);
	assert_string_equal(buf, "0");
	iocoro_cqe_flags_str(buf, sizeof(buf), IORING_CQE_F_MORE);
	assert_string_equal(buf, "F_MORE");
	iocoro_cqe_flags_str(buf, sizeof(buf), (1U << 3) | (1U << 2));
	assert_string_equal(buf, "F_SOCK_NONEMPTY|F_NOTIF");
	/* with F_BUFFER, the upper 16 bits are the buffer id, not flags */
	iocoro_cqe_flags_str(buf, sizeof(buf),
			     IORING_CQE_F_BUFFER | IORING_CQE_F_MORE |
				     (7U << IORING_CQE_BUFFER_SHIFT));
	assert_string_equal(buf, "F_BUFFER(bid=7)|F_MORE");
	iocoro_cqe_flags_str(buf, sizeof(buf),
			     IORING_CQE_F_BUFFER | (0xffffU << IORING_CQE_BUFFER_SHIFT));
	assert_string_equal(buf, "F_BUFFER(bid=65535)");
	/* without it, they are unknown bits, shown in hex */
	iocoro_cqe_flags_str(buf, sizeof(buf), IORING_CQE_F_MORE | (1U << 20) | (1U << 10));
	assert_string_equal(buf, "F_MORE|0x100400");
	iocoro_cqe_flags_str(buf, sizeof(buf), 1U << 31);
	assert_string_equal(buf, "0x80000000");
}

static void test_cqe(void **state)
{
	struct io_uring_cqe cqe = {
		.user_data = 0x2a,
		.res = -EBADF,
		.flags = IORING_CQE_F_MORE,
	};
	char buf[IOCORO_CQE_STR_MAX];

	(void)state;
	iocoro_cqe_str(buf, sizeof(buf), &cqe);
	assert_string_equal(buf, "user_data=0x2a res=-9 (EBADF: Bad file descriptor) flags=F_MORE");
	iocoro_cqe_fields_str(buf, sizeof(buf), UINT64_MAX, 0, 0);
	assert_string_equal(buf, "user_data=0xffffffffffffffff res=0 flags=0");
}

/* snprintf contract: NUL-terminated within len, returns the full length */
static void test_truncation(void **state)
{
	const char *full = "user_data=0x1 res=-2 (ENOENT: No such file or directory) flags=F_MORE";
	char buf[IOCORO_CQE_STR_MAX];
	char small[16];
	int n;

	(void)state;
	n = iocoro_cqe_fields_str(buf, sizeof(buf), 1, -ENOENT, IORING_CQE_F_MORE);
	assert_string_equal(buf, full);
	assert_int_equal(n, (int)strlen(full));

	memset(small, 'x', sizeof(small));
	n = iocoro_cqe_fields_str(small, sizeof(small), 1, -ENOENT, IORING_CQE_F_MORE);
	assert_int_equal(n, (int)strlen(full));
	assert_int_equal(small[sizeof(small) - 1], '\0');
	assert_memory_equal(small, full, sizeof(small) - 1);

	/* truncated in the middle of the flags part, too */
	n = iocoro_cqe_flags_str(small, 5, IORING_CQE_F_BUFFER | IORING_CQE_F_MORE);
	assert_int_equal(n, (int)strlen("F_BUFFER(bid=0)|F_MORE"));
	assert_string_equal(small, "F_BU");

	/* len 0: nothing written, length still reported */
	small[0] = 'x';
	assert_int_equal(iocoro_res_str(small, 0, -ENOENT), (int)strlen("-2 (ENOENT: No such file or directory)"));
	assert_int_equal(small[0], 'x');
	assert_int_equal(iocoro_res_str(NULL, 0, 12345), 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errno_name),
		cmocka_unit_test(test_res),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_cqe),
		cmocka_unit_test(test_truncation),
	};

	return cmocka_run_group_tests_name("cqe_str", tests, NULL, NULL);
}
