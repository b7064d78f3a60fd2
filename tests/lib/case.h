/* SPDX-License-Identifier: MIT */
/*
 * Self-registering test cases (library iocoro_caselib, which also has the
 * main()): a suite is one binary of any number of .c files, each defining
 * its cases with
 *
 *   IOCORO_CASE(attach_busy)
 *   {
 *           ... CHECK()s: a failure exits 1 ...
 *   }
 *
 *   IOCORO_CASE_OPTS(teardown_close, .timeout = 300, .serial = true)
 *   {
 *           ...
 *   }
 *
 *   IOCORO_CASE_CALL(op_sqpoll, op_refused_on, IORING_SETUP_SQPOLL)
 *   IOCORO_CASE_CALL(teardown_exit, teardown_load, TD_EXIT, .serial = true)
 *
 * The last form is a case whose body is one call, fn(arg): the cases of
 * a function run with one argument after another, each its own test (the
 * options, if any, after the argument; no parentheses in the argument).
 *
 * Each macro must start a line and fit on it: CMake reads the case names
 * and options from the sources at configure time (iocoro_guest_suite() of
 * cmake/testing.cmake) and registers one ctest test <suite>_<case> per
 * case; nothing else names a case. Options (ctest properties):
 *
 *   .timeout = N     TIMEOUT N seconds instead of the guest default
 *   .serial = true   RUN_SERIAL (never beside another test)
 *   .host = true     a host test (label unit, on any kernel, not through
 *                    the guest launcher) instead of a guest test
 *
 * A suite may define, once in one of its files, what runs around each of
 * its cases (both optional; the suite's ARGS, after the case name on the
 * command line, go to the setup):
 *
 *   void iocoro_suite_setup(int argc, char **argv)
 *   void iocoro_suite_teardown(void)
 *
 * The binary (tests/lib/case_main.c):
 *
 *   <suite>_test --list     one line per case: its name, then " timeout=N",
 *                           " serial" and " host" when set; needs no kernel
 *                           support
 *   <suite>_test <case> [ARG...]
 *                           runs it (iocoro_suite_setup(ARGs) first and
 *                           iocoro_suite_teardown() after it, when the suite
 *                           has them); prints "<case>: ok" and exits 0 when
 *                           it returns, exits 1 when a CHECK fails
 *                           (check.h), 2 on a usage error (ARGs to a suite
 *                           without a setup) or an unknown case
 *
 * A case that uses random inputs takes its seed from test_seed(
 * iocoro_case_name()) (seed.h), which prints it and reads IOCORO_SEED.
 * Duplicate names in one suite fail the link (iocoro_case_<name>).
 */
#ifndef IOCORO_TESTS_CASE_H
#define IOCORO_TESTS_CASE_H

#include <stdbool.h>

struct iocoro_case {
	const char *name;
	void (*fn)(void);
	unsigned int timeout;	/* s; 0: the default */
	bool serial;
	bool host;
};

/* the suite's hooks around every case: see above */
void iocoro_suite_setup(int argc, char **argv) __attribute__((weak));
void iocoro_suite_teardown(void) __attribute__((weak));

/* the name of the case running now (NULL before main() picked one) */
const char *iocoro_case_name(void);

#define IOCORO_CASE_SECTION_ "iocoro_cases"

#define IOCORO_CASE_OPTS(name_, ...)                                          \
	static void iocoro_case_fn_##name_(void);                             \
	extern const struct iocoro_case iocoro_case_##name_;                  \
	const struct iocoro_case iocoro_case_##name_ = {                      \
		.name = #name_,                                               \
		.fn = iocoro_case_fn_##name_,                                 \
		__VA_ARGS__                                                   \
	};                                                                    \
	static const struct iocoro_case *const iocoro_case_ptr_##name_        \
		__attribute__((used, section(IOCORO_CASE_SECTION_))) =        \
		&iocoro_case_##name_;                                         \
	static void iocoro_case_fn_##name_(void)

#define IOCORO_CASE(name_) IOCORO_CASE_OPTS(name_, .timeout = 0)

#define IOCORO_CASE_CALL(name_, fn_, arg_, ...)                               \
	IOCORO_CASE_OPTS(name_, __VA_ARGS__)                                  \
	{                                                                     \
		fn_(arg_);                                                    \
	}

#endif
