/* SPDX-License-Identifier: MIT */
/*
 * Running a program under test (the apps' suites): fork and exec with its
 * stdin set, its stdout and stderr captured, its exit status and wall time.
 *
 *   struct run r;
 *   run(&r, argv, &opts);         run argv (argv[0] found in PATH) to
 *                                 its end; opts may be NULL
 *   run_start(&r, argv, &opts);   the same, in the background: its pid
 *   run_wait(&r);                 ... to its end
 *   run_free(&r);                 the captured output freed
 *   bin = run_app_setup("x", argc, argv, &rng, work, sizeof(work));
 *                                 an app suite's iocoro_suite_setup()
 *
 * stdout and stderr go to memfds (regular files) unless the options say
 * otherwise, so a child that writes much never blocks on its parent. A
 * failed fork, pipe or wait fails the test (check.h); a failed exec is
 * exit status 127, a failed setup in the child 126.
 */
#ifndef IOCORO_TESTS_RUN_H
#define IOCORO_TESTS_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "seed.h"

struct run_opts {
	const char *in;		/* stdin from this file (NULL: /dev/null) */
	bool in_pipe;		/* ... through a pipe that a child feeds */
	bool out_pipe;		/* stdout a pipe, not a regular file */
	bool merge_err;		/* stderr into stdout (err stays "") */
	bool err_tty;		/* stderr a pseudo-terminal's */
	/* called in the child before exec; non-zero: exit status 126 */
	int (*child)(void *arg);
	void *child_arg;
};

struct run {
	int status;	/* exit status, 128 + signal if killed */
	int signal;	/* the signal that killed it, 0 if it exited */
	char *out;	/* stdout, NUL-terminated */
	size_t out_len;
	char *err;	/* stderr, NUL-terminated */
	size_t err_len;
	double secs;	/* wall time, fork to exit */
	/* between run_start() and run_wait() */
	pid_t pid, feeder;
	int out_fd, err_fd;
	bool out_stream, err_stream;	/* read while it runs */
};

void run(struct run *r, char *const argv[], const struct run_opts *o);
pid_t run_start(struct run *r, char *const argv[], const struct run_opts *o);
void run_wait(struct run *r);
void run_free(struct run *r);

/*
 * The setup of the suite of app @name, run as "@name_test CASE APP" (the
 * suite's ARGS: @argc 1, @argv[0] the app; other arguments fail the test):
 * @rng seeded by test_seed() (its line printed first), a new directory
 * $TMPDIR/@name-test.XXXXXX (/tmp without TMPDIR) in @work. The app.
 */
const char *run_app_setup(const char *name, int argc, char **argv,
			  struct test_rng *rng, char *work, size_t size);

#endif
