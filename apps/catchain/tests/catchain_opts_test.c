// SPDX-License-Identifier: MIT
/* Unit tests of catchain's command line (catchain_opts.c), on the host. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "catchain.h"
#include "catchain_opts.h"

static char errbuf[4096];

/* parse a NULL-terminated list; the messages land in errbuf */
static int parse(struct cat_opts *o, char **argv)
{
	FILE *err = fmemopen(errbuf, sizeof(errbuf), "w");
	int argc = 0, n;

	while (argv[argc])
		argc++;
	assert_non_null(err);
	n = cat_parse_args(argc, argv, o, err);
	fclose(err);
	return n;
}

#define ARGS(...) ((char *[]){ (char *)"catchain", __VA_ARGS__, NULL })

static void test_defaults(void **state)
{
	struct cat_opts o;
	char *none[] = { (char *)"catchain", NULL };

	(void)state;
	assert_int_equal(parse(&o, none), 0);
	assert_int_equal(o.action, CAT_RUN);
	assert_int_equal(o.jobs, CAT_DEFAULT_JOBS);
	assert_int_equal(o.chunk, CAT_DEFAULT_CHUNK);
	assert_int_equal(o.cksum, 0);
	assert_int_equal(o.stats, 0);
}

static void test_operands(void **state)
{
	char **argv = ARGS("a", "-", "--stats", "b", "--", "-c", "--jobs");
	struct cat_opts o;

	(void)state;
	assert_int_equal(parse(&o, argv), 5);
	assert_string_equal(argv[0], "a");
	assert_string_equal(argv[1], "-");
	assert_string_equal(argv[2], "b");
	assert_string_equal(argv[3], "-c");	/* after --: a file */
	assert_string_equal(argv[4], "--jobs");
	assert_int_equal(o.stats, 1);
	assert_int_equal(o.cksum, 0);
}

static void test_values(void **state)
{
	struct cat_opts o;

	(void)state;
	assert_int_equal(parse(&o, ARGS("-j", "7", "f")), 1);
	assert_int_equal(o.jobs, 7);
	assert_int_equal(parse(&o, ARGS("-j9")), 0);
	assert_int_equal(o.jobs, 9);
	assert_int_equal(parse(&o, ARGS("--jobs=256", "--chunk", "4K")), 0);
	assert_int_equal(o.jobs, CAT_MAX_JOBS);
	assert_int_equal(o.chunk, 4096);
	assert_int_equal(parse(&o, ARGS("--chunk=16M", "-cu")), 0);
	assert_int_equal(o.chunk, CAT_MAX_CHUNK);
	assert_int_equal(o.cksum, 1);
	assert_int_equal(parse(&o, ARGS("--cksum", "-h")), 0);
	assert_int_equal(o.action, CAT_HELP);
	assert_int_equal(parse(&o, ARGS("--version")), 0);
	assert_int_equal(o.action, CAT_VERSION);
}

/* bad usage: -EINVAL, cat's words, and the --help hint */
static void bad(char **argv, const char *words)
{
	struct cat_opts o;

	assert_int_equal(parse(&o, argv), -EINVAL);
	assert_non_null(strstr(errbuf, words));
	assert_non_null(strstr(errbuf,
			       "Try 'catchain --help' for more information.\n"));
}

static void test_bad(void **state)
{
	(void)state;
	bad(ARGS("-z"), "catchain: invalid option -- 'z'\n");
	bad(ARGS("-cx"), "catchain: invalid option -- 'x'\n");
	bad(ARGS("--bogus"), "catchain: unrecognized option '--bogus'\n");
	bad(ARGS("--stats=1"), "catchain: unrecognized option '--stats=1'\n");
	bad(ARGS("-j"), "catchain: option requires an argument -- 'j'\n");
	bad(ARGS("--jobs"), "catchain: option '--jobs' requires an argument\n");
	bad(ARGS("--jobs", "0"), "catchain: invalid number of jobs: '0'");
	bad(ARGS("--jobs=257"), "catchain: invalid number of jobs: '257'");
	bad(ARGS("-j", "x"), "catchain: invalid number of jobs: 'x'");
	bad(ARGS("--chunk", "0"), "catchain: invalid chunk size: '0'");
	bad(ARGS("--chunk=17M"), "catchain: invalid chunk size: '17M'");
	bad(ARGS("--chunk", "12Q"), "catchain: invalid chunk size: '12Q'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_operands),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests_name("catchain_opts", tests, NULL, NULL);
}
