// SPDX-License-Identifier: MIT
/* Running a program under test: run.h */
#define _GNU_SOURCE
#include "run.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static double run_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* a child that writes @path into a pipe: the read end */
static int run_feeder(const char *path, pid_t *pid)
{
	char buf[65536];
	int p[2], fd;
	ssize_t n;

	CHECK_SYS(pipe2(p, O_CLOEXEC));
	*pid = CHECK_SYS(fork());
	if (!*pid) {
		signal(SIGPIPE, SIG_DFL);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			_exit(1);
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			if (write(p[1], buf, (size_t)n) != n)
				_exit(1);
		_exit(0);
	}
	close(p[1]);
	return p[0];
}

/* the master of a new pseudo-terminal; its slave's path in @slave */
static int run_pty(char **slave)
{
	int master = CHECK_SYS(posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC));

	CHECK_SYS(grantpt(master));
	CHECK_SYS(unlockpt(master));
	*slave = strdup(ptsname(master));
	CHECK(*slave != NULL);
	return master;
}

/* append what @fd has to @buf: 0 at its end (EOF, or EIO of a pty) */
static ssize_t run_read_some(int fd, char **buf, size_t *len)
{
	ssize_t n;

	*buf = realloc(*buf, *len + 65536 + 1);
	CHECK(*buf != NULL);
	n = read(fd, *buf + *len, 65536);
	if (n < 0 && errno == EIO)
		n = 0;
	CHECK_SYS(n);
	*len += (size_t)n;
	(*buf)[*len] = '\0';
	return n;
}

/* the whole of memfd @fd */
static void run_read_file(int fd, char **buf, size_t *len)
{
	CHECK_SYS(lseek(fd, 0, SEEK_SET));
	while (run_read_some(fd, buf, len))
		;
}

static void run_child(char *const argv[], const struct run_opts *o, int in,
		      int out, int err, const char *tty)
{
	if (tty) {
		err = open(tty, O_RDWR);
		if (err < 0)
			_exit(126);
	}
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(126);
	if (o->child && o->child(o->child_arg))
		_exit(126);
	execvp(argv[0], argv);
	_exit(127);
}

pid_t run_start(struct run *r, char *const argv[], const struct run_opts *o)
{
	static const struct run_opts none;
	int in, out, err, p[2];
	char *tty = NULL;

	if (!o)
		o = &none;
	memset(r, 0, sizeof(*r));
	r->out = calloc(1, 1);
	r->err = calloc(1, 1);
	CHECK(r->out && r->err);
	if (o->in && o->in_pipe)
		in = run_feeder(o->in, &r->feeder);
	else
		in = CHECK_SYS(open(o->in ? o->in : "/dev/null",
				    O_RDONLY | O_CLOEXEC));
	if (o->out_pipe) {
		CHECK_SYS(pipe2(p, O_CLOEXEC));
		r->out_fd = p[0];
		out = p[1];
		r->out_stream = true;
	} else {
		out = CHECK_SYS(memfd_create("stdout", MFD_CLOEXEC));
		r->out_fd = out;
	}
	if (o->merge_err) {
		err = out;
		r->err_fd = -1;
	} else if (o->err_tty) {
		r->err_fd = run_pty(&tty);
		r->err_stream = true;
		err = -1;
	} else {
		err = CHECK_SYS(memfd_create("stderr", MFD_CLOEXEC));
		r->err_fd = err;
	}
	fflush(stdout);
	fflush(stderr);
	r->secs = run_now();
	r->pid = CHECK_SYS(fork());
	if (!r->pid)
		run_child(argv, o, in, out, err, tty);
	free(tty);
	close(in);
	if (r->out_stream)
		close(out);
	return r->pid;
}

/* the pipe and pty ends, until both are closed */
static void run_drain(struct run *r)
{
	int out = r->out_stream ? r->out_fd : -1;
	int err = r->err_stream ? r->err_fd : -1;

	while (out >= 0 || err >= 0) {
		struct pollfd p[2] = { { out, POLLIN, 0 }, { err, POLLIN, 0 } };

		CHECK_SYS(poll(p, 2, -1));
		if (out >= 0 && p[0].revents &&
		    !run_read_some(out, &r->out, &r->out_len))
			out = -1;
		if (err >= 0 && p[1].revents &&
		    !run_read_some(err, &r->err, &r->err_len))
			err = -1;
	}
}

void run_wait(struct run *r)
{
	int wst;

	run_drain(r);
	CHECK_SYS(waitpid(r->pid, &wst, 0));
	r->signal = WIFSIGNALED(wst) ? WTERMSIG(wst) : 0;
	r->status = WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + r->signal;
	r->secs = run_now() - r->secs;
	if (r->feeder)
		CHECK_SYS(waitpid(r->feeder, &wst, 0));
	if (!r->out_stream)
		run_read_file(r->out_fd, &r->out, &r->out_len);
	if (r->err_fd >= 0 && !r->err_stream)
		run_read_file(r->err_fd, &r->err, &r->err_len);
	close(r->out_fd);
	if (r->err_fd >= 0)
		close(r->err_fd);
	r->pid = 0;
}

void run(struct run *r, char *const argv[], const struct run_opts *o)
{
	run_start(r, argv, o);
	run_wait(r);
}

void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

const char *run_app_setup(const char *name, int argc, char **argv,
			  struct test_rng *rng, char *work, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	char who[64];

	snprintf(who, sizeof(who), "%s_test", name);
	test_rng_init(rng, test_seed(who));
	if (argc != 1)
		FAIL("usage: %s CASE APP", who);
	snprintf(work, size, "%s/%s-test.XXXXXX", tmp && *tmp ? tmp : "/tmp",
		 name);
	CHECK(mkdtemp(work));
	return argv[0];
}
