// SPDX-License-Identifier: MIT
/*
 * Tests of the catchain program, each run next to its peer (cat, or
 * cksum for -c) on the same generated files: the same stdout bytes, the
 * same exit status, the same stderr but for the program's name.
 *
 * A suite of self-registering cases (tests/lib/case.h), run as
 * "catchain_test CASE CATCHAIN", ctest catchain_<case>:
 *
 *   host     on the host kernel: without the series one line of
 *            iocoro_strerror()'s words, exit 1, no output (host)
 *   sizes    files of 0, 1, chunk-1, chunk, chunk+1, sizes that are no
 *            multiple of the chunk, many chunks per file, several
 *            --chunk and --jobs values; --stats' steps
 *   waits    files behind the head wait for their buffers in the kernel
 *            (the eventfd path of catchain.h's back pressure), output
 *            still cat's
 *   resume   a file longer than the default budget goes on in a second
 *            coroutine
 *   resume_long  a file longer than two default budgets: the resumed
 *            coroutine has the largest budget
 *   many     500 small files of random sizes in one invocation (more than
 *            --jobs), with a missing file and a directory among them;
 *            --stats' count of io_uring_enter calls against strace's
 *   streams  stdout a pipe and a file; stdin (no FILE, -, - among files)
 *            from a file and a pipe
 *   perms    as nobody with CAP_BPF and CAP_PERFMON alone (ambient): an
 *            unreadable file gives cat's "Permission denied", the others
 *            are printed; as nobody with CAP_BPF alone or without
 *            capabilities: one line naming both and setcap
 *   cksum    -c against cksum: files, a missing one, a directory, stdin
 *   usage    --help, --version, bad options in cat's words and exit status
 *
 * All but host run in the guest.
 * The files are random (seeded: the seed is printed first, IOCORO_SEED
 * replays it), in a fresh directory under $TMPDIR (or /tmp).
 */
#define _GNU_SOURCE
#include <iocoro.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "case.h"
#include "check.h"
#include "files.h"
#include "run.h"
#include "seed.h"

#define CHUNK		(128U << 10)	/* catchain's default --chunk */
#define NOBODY		65534
#define MAX_ARGS	1100

static const char *bin;
static char work[256];
static struct test_rng rng;

/* ---- files ---- */

static char *path_in(const char *name)
{
	char *p;

	CHECK(asprintf(&p, "%s/%s", work, name) > 0);
	return p;
}

static uint64_t rand64(void)
{
	return test_rng_next(&rng);
}

static void gen_file(const char *path, size_t size, mode_t mode)
{
	test_gen_file(path, size, mode, rand64);
}

/* ---- running a program ---- */

/* nobody: without capabilities, with CAP_BPF, with what loading needs */
enum who { AS_ROOT, AS_NOBODY, AS_NOBODY_BPF, AS_NOBODY_LOAD };
enum out_to { OUT_FILE, OUT_PIPE };

struct how {
	enum who who;
	enum out_to out;
	const char *in;		/* stdin from this file (NULL: /dev/null) */
	int in_pipe;		/* through a pipe, fed by a child */
	const char *strace;	/* trace io_uring_enter into this file */
};

/* keep @n capabilities @caps alone: permitted, effective, inheritable */
static int capset_only(const unsigned int *caps, unsigned int n)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = { { 0 } };
	unsigned int i;

	for (i = 0; i < n; i++)
		d[CAP_TO_INDEX(caps[i])].permitted |= CAP_TO_MASK(caps[i]);
	for (i = 0; i < 2; i++)
		d[i].effective = d[i].inheritable = d[i].permitted;
	return (int)syscall(SYS_capset, &h, d);
}

/*
 * become nobody, keeping across exec (ambient) CAP_BPF alone
 * (AS_NOBODY_BPF), CAP_BPF and CAP_PERFMON (AS_NOBODY_LOAD) or nothing
 */
static void drop_to_nobody(enum who who)
{
	static const unsigned int caps[] = { CAP_BPF, CAP_PERFMON };
	unsigned int i, n = who == AS_NOBODY_LOAD ? 2 : 1;

	if (who != AS_NOBODY && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0))
		_exit(120);
	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
		_exit(121);
	if (who == AS_NOBODY)
		return;
	if (capset_only(caps, n))
		_exit(122);
	for (i = 0; i < n; i++)
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, caps[i], 0, 0))
			_exit(122);
}

/* in the child before exec: become who @arg (a struct how) says */
static int child_as(void *arg)
{
	const struct how *h = arg;

	if (h->who != AS_ROOT)
		drop_to_nobody(h->who);
	return 0;
}

/* run @argv as @h says; @r gets its status, stdout and stderr */
static void run_how(char *const argv[], const struct how *h, struct run *r)
{
	static char *traced[MAX_ARGS + 8];
	const struct run_opts o = {
		.in = h->in,
		.in_pipe = h->in_pipe,
		.out_pipe = h->out == OUT_PIPE,
		.child = child_as,
		.child_arg = (void *)h,
	};
	int i = 0, k;

	if (h->strace) {
		traced[i++] = "strace";
		traced[i++] = "-qq";
		traced[i++] = "-e";
		traced[i++] = "trace=io_uring_enter";
		traced[i++] = "-o";
		traced[i++] = (char *)h->strace;
		for (k = 0; argv[k] && i < MAX_ARGS + 7; k++)
			traced[i++] = argv[k];
		traced[i] = NULL;
		argv = traced;
	}
	run(r, argv, &o);
}

static void show(char *const argv[], int argc, const struct run *r)
{
	int i;

	printf("$ %s", argv[0]);
	for (i = 1; i < argc && i < 8; i++)
		printf(" %s", argv[i]);
	if (argc > 8)
		printf(" ... (%d arguments)", argc - 1);
	printf("  -> exit %d, %zu bytes out, %.2f s\n%s", r->status,
	       r->out_len, r->secs, r->err);
	fflush(stdout);
}

/*
 * @peer's stderr with "peer: " at line starts and "Try 'peer --help'" as
 * catchain's
 */
static void as_catchain(const char *peer, const char *err, char *out,
			size_t size)
{
	size_t plen = strlen(peer), len = 0;
	int bol = 1;

	for (; *err && len + 16 < size; err++) {
		if (!strncmp(err, "Try '", 5) && !strncmp(err + 5, peer, plen) &&
		    err[5 + plen] == ' ') {
			len += (size_t)snprintf(out + len, size - len,
						"Try 'catchain");
			err += 5 + plen - 1;
			bol = 0;
			continue;
		}
		if (bol && !strncmp(err, peer, plen) && err[plen] == ':') {
			len += (size_t)snprintf(out + len, size - len, "catchain");
			err += plen - 1;
			bol = 0;
			continue;
		}
		out[len++] = *err;
		bol = *err == '\n';
	}
	out[len] = '\0';
}

/*
 * Run @peer (cat or cksum) and catchain with @args (and catchain's own
 * @opts before them): the same stdout, exit status and stderr. Returns
 * catchain's stderr in @r.
 */
static void same_as(const char *peer, const char *const *opts,
		    char *const *args, int nargs, const struct how *h,
		    struct run *r)
{
	static char *argv[MAX_ARGS + 16];
	static struct run pr;
	static char want[65536];
	int n = 0, i;

	CHECK(nargs <= MAX_ARGS);
	argv[n++] = (char *)peer;
	for (i = 0; i < nargs; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	run_how(argv, h, &pr);
	show(argv, n, &pr);
	n = 0;
	argv[n++] = (char *)bin;
	for (i = 0; opts && opts[i]; i++)
		argv[n++] = (char *)opts[i];
	for (i = 0; i < nargs; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	run_how(argv, h, r);
	show(argv, n, r);
	CHECK_EQ(r->status, pr.status);
	if (r->out_len != pr.out_len || memcmp(r->out, pr.out, r->out_len))
		FAIL("stdout differs from %s's: %zu bytes, %s gave %zu", peer,
		     r->out_len, peer, pr.out_len);
	as_catchain(peer, pr.err, want, sizeof(want));
	/* --stats adds its line at the end */
	if (strncmp(r->err, want, strlen(want)))
		FAIL("stderr differs from %s's:\n%s--- expected ---\n%s", peer,
		     r->err, want);
	run_free(&pr);
	/* stdout checked: only stderr goes back */
	free(r->out);
	r->out = NULL;
}

static const struct how to_file = { .out = OUT_FILE };

/* --stats' numbers */
struct stats {
	unsigned long long files, bytes, steps, waits, enters, resumes;
};

static void parse_stats(const struct run *r, struct stats *s)
{
	const char *p = strstr(r->err, "catchain: ");
	const char *last = NULL;

	while (p) {
		last = p;
		p = strstr(p + 1, "catchain: ");
	}
	CHECK(last);
	if (sscanf(last, "catchain: %llu file%*[s], %llu bytes, %llu steps, %llu waits, %llu io_uring_enter calls, %llu resumes",
		   &s->files, &s->bytes, &s->steps, &s->waits, &s->enters,
		   &s->resumes) != 6 &&
	    sscanf(last, "catchain: %llu file, %llu bytes, %llu steps, %llu waits, %llu io_uring_enter calls, %llu resumes",
		   &s->files, &s->bytes, &s->steps, &s->waits, &s->enters,
		   &s->resumes) != 6)
		FAIL("no --stats line in '%s'", r->err);
	/* the steps of the reads and ends, without the wakes and resumes */
	CHECK(s->waits + s->resumes <= s->steps);
	s->steps -= s->waits + s->resumes;
}

/*
 * steps of a file of @size bytes that is read in chunks of @chunk: its
 * openat carries the first (catchain.h's CAT_STEPS)
 */
static unsigned long long steps_of(size_t size, size_t chunk)
{
	return (size + chunk - 1) / chunk + 3;
}

/* ---- cases ---- */

/*
 * Sizes around the chunk (4 KiB here, so that they stay small; and the
 * default 128 KiB once), no multiple of it, more chunks than a slot has
 * buffers (so that the coroutine may wait for them): all at once, then
 * twice over with one job (16 KiB chunks), then the empty and the 1-byte file alone. --stats
 * counts chunks + 4 steps a file, and the wakes after waits apart.
 */
IOCORO_CASE(sizes)
{
	static const size_t sizes[] = {
		0, 1, 4095, 4096, 4097, 3 * 4096 + 17, 20 * 4096 + 5, 100000,
		CHUNK - 1, CHUNK + 1,
	};
	const size_t n = sizeof(sizes) / sizeof(sizes[0]);
	static const char *const stats[] = { "--stats", NULL };
	static const char *const small[] = { "--stats", "--chunk", "4096",
					     "--jobs", "3", NULL };
	static const char *const one[] = { "--jobs=1", "--chunk=16K", NULL };
	char *names[2 * 10], name[32];
	unsigned long long steps = 0, steps4k = 0, bytes = 0;
	struct run r;
	struct stats s;
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "size-%zu", sizes[i]);
		names[i] = path_in(name);
		gen_file(names[i], sizes[i], 0644);
		steps += steps_of(sizes[i], CHUNK);
		steps4k += steps_of(sizes[i], 4096);
		bytes += sizes[i];
		names[n + i] = names[i];
	}
	same_as("cat", small, names, (int)n, &to_file, &r);
	parse_stats(&r, &s);
	CHECK_EQ(s.files, n);
	CHECK_EQ(s.bytes, bytes);
	CHECK_EQ(s.steps, steps4k);
	same_as("cat", stats, names, (int)n, &to_file, &r);
	parse_stats(&r, &s);
	CHECK_EQ(s.steps, steps);
	same_as("cat", one, names, (int)(2 * n), &to_file, &r);
	for (i = 0; i < 2; i++) {
		same_as("cat", stats, &names[i], 1, &to_file, &r);
		parse_stats(&r, &s);
		CHECK_EQ(s.files, 1);
		CHECK_EQ(s.bytes, sizes[i]);
		CHECK_EQ(s.steps, steps_of(sizes[i], CHUNK));
	}
	for (i = 0; i < n; i++)
		free(names[i]);
}

/*
 * Back pressure: files of 256 chunks, 4 at once; the three behind the
 * head fill their 8 buffers long before the head is written out, so they
 * wait in the kernel (the waits counted apart from the steps), and the
 * output is still cat's.
 */
IOCORO_CASE(waits)
{
	static const char *const opts[] = { "--stats", "--chunk", "4096",
					     "--jobs", "4", NULL };
	unsigned long long steps = 0;
	char *names[4], name[32];
	struct run r;
	struct stats s;
	int i;

	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "wait-%d", i);
		names[i] = path_in(name);
		gen_file(names[i], 256 * 4096, 0644);
		steps += steps_of(256 * 4096, 4096);
	}
	same_as("cat", opts, names, 4, &to_file, &r);
	parse_stats(&r, &s);
	printf("waits: %llu steps, %llu waits\n", s.steps, s.waits);
	CHECK_EQ(s.files, 4);
	CHECK_EQ(s.steps, steps);
	if (!s.waits)
		FAIL("no coroutine waited for a buffer: the back pressure "
		     "path did not run");
	for (i = 0; i < 4; i++)
		free(names[i]);
}

/* how many io_uring_enter calls strace saw (complete, unfinished) */
static unsigned long long traced_enters(const char *path)
{
	char line[512];
	unsigned long long n = 0;
	FILE *f = fopen(path, "r");

	CHECK(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "io_uring_enter(") &&
		    !strstr(line, "resumed>"))
			n++;
	fclose(f);
	return n;
}

/*
 * 500 small files in one invocation, far more than --jobs, with a
 * missing file and a directory among them (1,000 and more in
 * catchain-bench.sh, whose sizes would not fit the guest suite's time);
 * 30 of them with 3 jobs; and the io_uring_enter calls --stats counts
 * against strace's count, on 10 of them
 */
IOCORO_CASE(many)
{
	static char *names[502];
	static const char *const stats[] = { "--stats", NULL };
	static const char *const three[] = { "--stats", "-j", "3", NULL };
	char *trace = path_in("strace.log");
	char *argv[14] = { (char *)bin, (char *)"--stats" };
	unsigned long long steps = 0, steps30 = 0, bytes = 0;
	struct how traced = { .out = OUT_FILE, .strace = trace };
	struct run r;
	struct stats s;
	char name[32];
	int i, n = 500;

	for (i = 0; i < n; i++) {
		size_t size = (size_t)test_rng_below(&rng, 2000);

		snprintf(name, sizeof(name), "f%04d", i);
		names[i] = path_in(name);
		gen_file(names[i], size, 0644);
		steps += steps_of(size, CHUNK);
		if (i < 30)
			steps30 += steps_of(size, CHUNK);
		if (i < 10)
			argv[2 + i] = names[i];
		bytes += size;
	}
	/* a missing file at 250, the directory at 400 */
	names[n] = names[250];
	names[250] = path_in("no-such-file");
	names[n + 1] = names[400];
	names[400] = work;
	same_as("cat", stats, names, n + 2, &to_file, &r);
	parse_stats(&r, &s);
	printf("500 files: %llu steps, %llu io_uring_enter calls\n", s.steps,
	       s.enters);
	CHECK_EQ(s.files, n);
	CHECK_EQ(s.bytes, bytes);
	/*
	 * the missing file: 1 step (its openat's); the directory: 3 (its
	 * read fails, then the close)
	 */
	CHECK_EQ(s.steps, steps + 1 + 3);
	/* many files per enter: the point of running them as coroutines */
	CHECK(s.enters >= 1 && s.enters <= (unsigned long long)n / 4);

	same_as("cat", three, names, 30, &to_file, &r);
	parse_stats(&r, &s);
	CHECK_EQ(s.steps, steps30);

	/* the count is exact: strace sees the same calls */
	run_how(argv, &traced, &r);
	show(argv, 12, &r);
	CHECK_EQ(r.status, 0);
	parse_stats(&r, &s);
	printf("strace: %llu io_uring_enter calls\n", traced_enters(trace));
	CHECK_EQ(traced_enters(trace), s.enters);
	run_free(&r);
	free(names[250]);
	for (i = 0; i < n + 2; i++)
		if (i != 250 && i != 400)
			free(names[i]);
	unlink(trace);
	free(trace);
}

IOCORO_CASE(streams)
{
	char *a = path_in("a"), *b = path_in("b"), *in = path_in("in");
	char *args[] = { a, (char *)"-", b, NULL };
	struct how pipe_out = { .out = OUT_PIPE };
	struct how in_file = { .out = OUT_FILE, .in = in };
	struct how in_pipe = { .out = OUT_PIPE, .in = in, .in_pipe = 1 };
	struct run r;

	gen_file(a, CHUNK + 5, 0644);
	gen_file(b, 777, 0644);
	gen_file(in, 9 * 4096 + 99, 0644);
	/* stdout a pipe, and a file */
	same_as("cat", NULL, args, 1, &pipe_out, &r);
	same_as("cat", NULL, args, 1, &to_file, &r);
	/* stdin: no FILE, - between files; from a file and a pipe */
	same_as("cat", NULL, args, 0, &in_file, &r);
	same_as("cat", NULL, args, 0, &in_pipe, &r);
	same_as("cat", NULL, args, 3, &in_pipe, &r);
	free(a);
	free(b);
	free(in);
}

IOCORO_CASE(perms)
{
	char *a = path_in("a"), *secret = path_in("secret"), *b = path_in("b");
	char *args[] = { a, secret, b };
	struct how nobody_load = { .who = AS_NOBODY_LOAD, .out = OUT_FILE };
	static const enum who refused[] = { AS_NOBODY_BPF, AS_NOBODY };
	char *argv[] = { (char *)bin, a, NULL };
	struct run r;
	unsigned int i;

	CHECK_SYS(chmod(work, 0755));	/* mkdtemp's 0700 would keep nobody out */
	gen_file(a, 5000, 0644);
	gen_file(secret, 3000, 0600);	/* root's */
	gen_file(b, 200000, 0644);
	/*
	 * granted CAP_BPF and CAP_PERFMON: cat's "Permission denied", a and
	 * b printed
	 */
	same_as("cat", NULL, args, 3, &nobody_load, &r);
	if (!strstr(r.err, "/secret: Permission denied\n"))
		FAIL("no 'Permission denied' for the unreadable file");

	/*
	 * with CAP_BPF alone (a struct_ops step's load needs CAP_PERFMON
	 * too), and without capabilities: one line that says so, nothing
	 * printed
	 */
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		struct how nobody = { .who = refused[i], .out = OUT_FILE };

		run_how(argv, &nobody, &r);
		show(argv, 2, &r);
		CHECK_EQ(r.status, 1);
		CHECK_EQ(r.out_len, 0);
		if (!strstr(r.err, "catchain: loading the coroutine needs CAP_BPF and CAP_PERFMON") ||
		    !strstr(r.err, "setcap cap_bpf,cap_perfmon+ep catchain") ||
		    strstr(r.err, "libbpf") ||
		    strchr(r.err, '\n') != r.err + r.err_len - 1)
			FAIL("not the one line about CAP_BPF and CAP_PERFMON: '%s'",
			     r.err);
		run_free(&r);
	}
	free(a);
	free(secret);
	free(b);
}

IOCORO_CASE(cksum)
{
	static const char *const c[] = { "-c", NULL };
	static const char *const cj[] = { "--cksum", "--jobs", "2",
					  "--chunk", "4096", NULL };
	char *a = path_in("a"), *e = path_in("empty"), *big = path_in("big");
	char *missing = path_in("missing"), *in = path_in("in");
	char *args[] = { a, e, missing, big, work, (char *)"-", a };
	struct how in_file = { .out = OUT_FILE, .in = in };
	struct run r;

	gen_file(a, 1000, 0644);
	gen_file(e, 0, 0644);
	gen_file(big, 20 * 4096 + 1234, 0644);
	gen_file(in, 4321, 0644);
	same_as("cksum", cj, args, 7, &in_file, &r);
	same_as("cksum", c, args, 0, &in_file, &r);
	free(a);
	free(e);
	free(big);
	free(missing);
	free(in);
}

IOCORO_CASE(usage)
{
	static char *bad[][3] = {
		{ (char *)"-uz" }, { (char *)"--bogus" },
	};
	char *argv[4] = { (char *)bin };
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		same_as("cat", NULL, bad[i], 1, &to_file, &r);
	argv[1] = (char *)"--help";
	run_how(argv, &to_file, &r);
	CHECK_EQ(r.status, 0);
	CHECK(r.out_len && strstr(r.out, "Usage: catchain [OPTION]... [FILE]..."));
	CHECK(strstr(r.out, "--jobs"));
	run_free(&r);
	argv[1] = (char *)"--version";
	run_how(argv, &to_file, &r);
	CHECK_EQ(r.status, 0);
	CHECK(r.out_len && !strncmp(r.out, "catchain (iocoro) ", 18));
	run_free(&r);
	for (i = 0; i < 3; i++) {
		static char *const vals[][3] = {
			{ (char *)"--jobs", (char *)"0" },
			{ (char *)"--chunk", (char *)"1G" },
			{ (char *)"-j" },
		};

		argv[1] = vals[i][0];
		argv[2] = vals[i][1];
		run_how(argv, &to_file, &r);
		show(argv, vals[i][1] ? 3 : 2, &r);
		CHECK_EQ(r.status, 1);
		CHECK(strstr(r.err, "Try 'catchain --help' for more information.\n"));
		run_free(&r);
	}
}

/* the host kernel: iocoro's words without the series, cat's with it */
IOCORO_CASE_OPTS(host, .host = true)
{
	char *a = path_in("a");
	char *argv[] = { (char *)bin, a, NULL };
	int probe = iocoro_probe();
	struct run r;
	char want[512];

	printf("iocoro_probe() = %d (%s)\n", probe, iocoro_strerror(probe));
	gen_file(a, 3000, 0644);
	if (!probe) {
		same_as("cat", NULL, &a, 1, &to_file, &r);
	} else {
		run_how(argv, &to_file, &r);
		show(argv, 2, &r);
		CHECK_EQ(r.status, 1);
		CHECK_EQ(r.out_len, 0);
		snprintf(want, sizeof(want), "catchain: %s\n",
			 iocoro_strerror(probe));
		if (strcmp(r.err, want))
			FAIL("expected '%s'", want);
		run_free(&r);
	}
	free(a);
}

/* CATCHAIN, the binary under test: the suite's ARGS */
void iocoro_suite_setup(int argc, char **argv)
{
	bin = run_app_setup("catchain", argc, argv, &rng, work,
			    sizeof(work));
}

void iocoro_suite_teardown(void)
{
	test_rm_tree(work);
}

/*
 * catchain --chunk 1 on a file of @size bytes and one of @tail bytes (0:
 * none), against cat: one resume, the steps the same but the resume's own
 */
static void one_resume(size_t size, size_t tail)
{
	static const char *const opts[] = { "--stats", "--chunk", "1", NULL };
	char *names[2];
	struct run r;
	struct stats s;
	int n = tail ? 2 : 1;

	names[0] = path_in("long");
	gen_file(names[0], size, 0644);
	names[1] = path_in("short");
	if (tail)
		gen_file(names[1], tail, 0644);
	same_as("cat", opts, names, n, &to_file, &r);
	parse_stats(&r, &s);
	CHECK_EQ(s.files, (unsigned long long)n);
	CHECK_EQ(s.bytes, size + tail);
	CHECK_EQ(s.resumes, 1);
	CHECK_EQ(s.steps, steps_of(size, 1) + (tail ? steps_of(tail, 1) : 0));
	free(names[0]);
	free(names[1]);
}

/*
 * A file longer than the kernel's default budget: 5,000 reads of one
 * byte. The coroutine its openat started stops before the read that
 * would spend the budget, a new one goes on with the open file: one
 * resume, the output cat's.
 */
IOCORO_CASE(resume)
{
	one_resume(5000, 100);
}

/*
 * A file longer than two default budgets: 9,000 reads of one byte. The
 * resumed coroutine has the largest budget (iocoro_queue_start() with
 * the ring's), so one resume carries the file to its end; with the
 * kernel's default it would end with -ELOOP near byte 8,184.
 */
IOCORO_CASE(resume_long)
{
	one_resume(9000, 0);
}
