/* SPDX-License-Identifier: MIT */
/*
 * main() of a cmocka unit test whose cases each start from the file's
 * reset(): UNIT_MAIN("group", T(test_a), T(test_b), ...).
 */
#ifndef IOCORO_TESTS_UNIT_MAIN_H
#define IOCORO_TESTS_UNIT_MAIN_H

/* a case of the group, run after reset(): each starts afresh */
#define T(f) cmocka_unit_test_setup(f, reset)

#define UNIT_MAIN(name, ...)                                            \
	int main(void)                                                  \
	{                                                               \
		const struct CMUnitTest tests[] = { __VA_ARGS__ };      \
									\
		return cmocka_run_group_tests_name(name, tests, NULL,  \
						   NULL);               \
	}

#endif
