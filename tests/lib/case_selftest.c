// SPDX-License-Identifier: MIT
/*
 * Cases of the runner's own host test (unit_case_runner,
 * check_case_runner.cmake): one that passes, one whose CHECK fails, one
 * with options, one for the host.
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
