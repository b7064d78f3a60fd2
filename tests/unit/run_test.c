// SPDX-License-Identifier: MIT
/*
 * Unit tests of tests/lib/run.c: a program under test run with its stdin
 * set, its stdout and stderr captured, its exit status and signal.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "run.h"

static void test_out_err_status(void **state)
{
	char *const argv[] = { "sh", "-c", "echo out; echo err >&2; exit 3",
			       NULL };
	struct run r;

	(void)state;
	run(&r, argv, NULL);
	assert_int_equal(r.status, 3);
	assert_int_equal(r.signal, 0);
	assert_string_equal(r.out, "out\n");
	assert_int_equal(r.out_len, 4);
	assert_string_equal(r.err, "err\n");
	run_free(&r);
}

static void test_merge_and_pipe(void **state)
{
	char *const argv[] = { "sh", "-c", "echo a; echo b >&2", NULL };
	const struct run_opts o = { .merge_err = true, .out_pipe = true };
	struct run r;

	(void)state;
	run(&r, argv, &o);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "a\nb\n");
	assert_string_equal(r.err, "");
	run_free(&r);
}

/* stdin from a file, straight and through a pipe: [ -p ] tells which */
static void test_stdin(void **state)
{
	char path[] = "/tmp/iocoro-run-XXXXXX";
	char *const argv[] = { "sh", "-c", "cat; [ -p /dev/stdin ]", NULL };
	struct run_opts o = { .in = path };
	struct run r;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "hello\n", 6), 6);
	close(fd);
	run(&r, argv, &o);
	assert_string_equal(r.out, "hello\n");
	assert_int_equal(r.status, 1);
	run_free(&r);
	o.in_pipe = true;
	run(&r, argv, &o);
	assert_string_equal(r.out, "hello\n");
	assert_int_equal(r.status, 0);
	run_free(&r);
	unlink(path);
}

static int child_fails(void *arg)
{
	(void)arg;
	return -1;
}

static void test_exec_and_child_fail(void **state)
{
	char *const missing[] = { "/nonexistent/iocoro-run", NULL };
	char *const sh[] = { "sh", "-c", "exit 0", NULL };
	const struct run_opts o = { .child = child_fails };
	struct run r;

	(void)state;
	run(&r, missing, NULL);
	assert_int_equal(r.status, 127);
	run_free(&r);
	run(&r, sh, &o);
	assert_int_equal(r.status, 126);
	run_free(&r);
}

static void test_killed(void **state)
{
	char *const argv[] = { "sleep", "30", NULL };
	struct run r;

	(void)state;
	assert_true(run_start(&r, argv, NULL) > 0);
	assert_int_equal(kill(r.pid, SIGTERM), 0);
	run_wait(&r);
	assert_int_equal(r.signal, SIGTERM);
	assert_int_equal(r.status, 128 + SIGTERM);
	assert_true(r.secs < 30);
	run_free(&r);
}

static void test_tty(void **state)
{
	char *const argv[] = { "sh", "-c", "[ -t 2 ] && echo tty >&2", NULL };
	const struct run_opts o = { .err_tty = true };
	struct run r;

	(void)state;
	run(&r, argv, &o);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "tty"));
	run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_out_err_status),
		cmocka_unit_test(test_merge_and_pipe),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_exec_and_child_fail),
		cmocka_unit_test(test_killed),
		cmocka_unit_test(test_tty),
	};

	return cmocka_run_group_tests_name("run", tests, NULL, NULL);
}
