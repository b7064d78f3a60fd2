// SPDX-License-Identifier: MIT
/*
 * Cases of the runner's own host test (unit_case_runner,
 * check_case_runner.cmake): one that passes, one whose CHECK fails, one
 * with options, one for the host, two that are one call (one passes, one
 * fails).
 */
#include "case.h"
#include "check.h"

IOCORO_CASE(passes)
{
	CHECK(!strcmp(iocoro_case_name(), "passes"));
}

IOCORO_CASE(fails)
{
	CHECK_EQ(1 + 1, 3);
}

IOCORO_CASE_OPTS(with_opts, .timeout = 7, .serial = true)
{
	CHECK(!strcmp(iocoro_case_name(), "with_opts"));
}

IOCORO_CASE_OPTS(on_host, .host = true)
{
	CHECK(!strcmp(iocoro_case_name(), "on_host"));
}

/* the case's name is "called_" and @n in words */
static void called(const char *n)
{
	CHECK_EQ(strncmp(iocoro_case_name(), "called_", 7), 0);
	CHECK(!strcmp(iocoro_case_name() + 7, n));
}

IOCORO_CASE_CALL(called_one, called, "one")
IOCORO_CASE_CALL(called_two, called, "three", .timeout = 9)
