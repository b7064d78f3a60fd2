// SPDX-License-Identifier: MIT
/*
 * copychain_signal: copies killed in the middle leave nothing, and an
 * existing DST whole, in the default mode and with --sync (cc_test.h)
 */
#include "cc_test.h"

/*
 * Killed in the middle (SIGTERM, SIGINT): the temporary file goes with
 * the process, DST is not created. A copy in chunks of 512 bytes takes
 * 16k steps, long enough to be caught running.
 */
/* 1 if @pid has an unnamed (deleted) file open: the copy is under way */
static int writing_unnamed(pid_t pid)
{
	char dir[64], path[384], link[512];
	struct dirent *de;
	int found = 0;
	ssize_t n;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	d = opendir(dir);
	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		found = !strncmp(link, work, strlen(work)) &&
			strstr(link, "(deleted)");
	}
	closedir(d);
	return found;
}

/* run copychain with @argv in a child, its output in @r: its pid */
pid_t spawn(struct run *r, const char *const *argv)
{
	const struct run_opts o = { .merge_err = true };

	return run_start(r, (char *const *)argv, &o);
}

/* wait for @pid's unnamed O_TMPFILE: a copy is under way */
static void wait_unnamed(pid_t pid)
{
	int tries;

	for (tries = 0; tries < 20000 && !writing_unnamed(pid); tries++)
		usleep(1000);
	CHECK(writing_unnamed(pid));
}

/* @sig to the copychain of spawn(), which it must die of */
void kill_reap(struct run *r, int sig)
{
	CHECK_SYS(kill(r->pid, sig));
	run_wait(r);
	printf("copychain killed by signal %d: exit status %d\n%s", sig,
	       r->status, r->out);
	CHECK_EQ(r->signal, sig);
	run_free(r);
}

/* killed by @sig while copying, in the default mode or @mode (--sync) */
static void killed(int sig, const char *mode)
{
	char *src = path_in(work, "src"), *dst = path_in(work, "dst");
	const char *argv[] = { bin, "--chunk", "512", src, dst, NULL, NULL };
	char entries[4096];
	struct run child;
	pid_t pid;

	if (mode) {
		argv[5] = argv[4];
		argv[4] = argv[3];
		argv[3] = mode;
	}
	gen_file(src, 4U << 20, 0644);
	pid = spawn(&child, argv);
	wait_unnamed(pid);
	dir_entries(work, entries, sizeof(entries));
	CHECK(!strcmp(entries, "src"));	/* nothing named meanwhile */
	usleep(20000);
	kill_reap(&child, sig);
	CHECK_ENTRIES(work, "src");
	unlink(src);
	free(src);
	free(dst);
}

/*
 * Killed by SIGKILL while replacing an existing DST, in both modes: DST
 * still holds its old bytes, whole, and nothing else is left
 */
static void killed_over(const char *mode)
{
	char *src = path_in(work, "src"), *dst = path_in(work, "dst");
	char *old = path_in(work, "old"), sh[256];
	const char *argv[] = { bin, mode, "--chunk", "512", src, dst, NULL };
	struct run child;
	pid_t pid;

	gen_file(src, 4U << 20, 0644);
	gen_file(dst, 300000, 0640);
	CHECK_EQ(shell(sh, sizeof(sh), "cp '%s' '%s'", dst, old), 0);
	pid = spawn(&child, argv);
	wait_unnamed(pid);
	usleep(20000);
	kill_reap(&child, SIGKILL);
	CHECK_ENTRIES(work, "dst old src");
	CHECK_EQ(same_bytes(old, dst), 0);
	unlink(src);
	unlink(dst);
	unlink(old);
	free(src);
	free(dst);
	free(old);
}

/*
 * Killed in the middle of a multi-file copy (--jobs 4): the files already
 * named are whole copies, nothing else is there (no temporary file)
 */
static void killed_many(int sig)
{
	char *in = path_in(work, "in"), *out = path_in(work, "out"), sh[256];
	char entries[4096], *tok, *save;
	const char *argv[] = { bin, "-r", "--jobs", "4", "--chunk", "4K",
			       NULL, NULL, NULL };
	int named = 0;
	struct run child;
	pid_t pid;

	CHECK_SYS(mkdir(in, 0755));
	free_strv(gen_files(in, "f", 24, 1U << 20));
	argv[6] = in;
	argv[7] = out;
	pid = spawn(&child, argv);
	wait_unnamed(pid);
	usleep(200000);
	kill_reap(&child, sig);
	dir_entries(out, entries, sizeof(entries));
	printf("killed by %d with %s in the copy\n", sig, entries);
	for (tok = strtok_r(entries, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char *a = path_in(in, tok), *b = path_in(out, tok);

		CHECK_EQ(same_bytes(a, b), 0);	/* f<n> only, each whole */
		named++;
		free(a);
		free(b);
	}
	CHECK(named < 24);
	CHECK_EQ(shell(sh, sizeof(sh), "rm -r '%s' '%s'", in, out), 0);
	free(in);
	free(out);
}

IOCORO_CASE_OPTS(signal, .serial = true)
{
	killed(SIGKILL, NULL);
	killed(SIGKILL, "--sync");
	killed(SIGTERM, NULL);
	killed(SIGINT, "--sync");
	killed_over("--stats");		/* the default mode */
	killed_over("--sync");
	killed_many(SIGKILL);
	killed_many(SIGTERM);
}
