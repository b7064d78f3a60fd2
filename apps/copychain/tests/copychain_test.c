// SPDX-License-Identifier: MIT
/*
 * Tests of the copychain program, run as a child on generated files: a
 * suite of self-registering cases (tests/lib/case.h), run as
 * "copychain_test CASE COPYCHAIN", ctest copychain_<case>:
 *
 *   host      bad input (on any kernel), then the running kernel:
 *             without the series a copy fails with iocoro_strerror()'s
 *             words and creates nothing; with it, the copy works (host)
 *   output    silent on success like cp, -v's 'SRC' -> 'DST', --stats'
 *             steps and io_uring_enter calls, --help, --version
 *   modes     modes as cp (umask, no setuid, an existing DST's mode
 *             kept), symlink and hard-link DSTs, -p (root)
 *   nocap     as nobody without CAP_BPF: one line naming CAP_BPF and
 *             setcap, nothing of libbpf's, nothing created
 *   multi     SRC DIR, SRC... DIR, a bad SRC among them, a TARGET that is
 *             no directory
 *   sparse    data past 4 GiB in a sparse file: only the data copied, the
 *             copy sparse, same bytes
 *   errors    bad input: missing SRC, SRC a directory, DST in a missing
 *             directory, same file, ...
 *   sizes     files of 0, 1, chunk-1, chunk, chunk+1, 3 MiB+17 random
 *             bytes, and over an existing DST
 *   budget    more steps than the default budget (small chunks); a file
 *             longer than its size spends the budget
 *   enospc    1 MiB into a 256 KiB tmpfs: ENOSPC, no DST, no temporary
 *             file (root)
 *   signal    SIGKILL, SIGTERM, SIGINT in the middle of a copy (written
 *             to an O_TMPFILE): no DST, no temporary file (signal.c, the
 *             helpers shared with it declared in cc_test.h)
 *
 * and jobs, tree, many, denied, fallback: see each case. All but host run
 * in the guest. Every case runs in a fresh directory under $TMPDIR (or
 * /tmp), which each case and the suite's teardown check entry by entry: a
 * temporary DST.XXXXXX left behind fails it.
 */
#include "cc_test.h"

const char *bin;
char work[256];

/* ---- files ---- */

static uint64_t rng_state;

static uint64_t rng(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

void gen_file(const char *path, size_t size, mode_t mode)
{
	test_gen_file(path, size, mode, rng);
}

static unsigned char *slurp(const char *path, size_t *size)
{
	struct stat st;
	unsigned char *p;
	size_t got = 0;
	int fd;

	fd = CHECK_SYS(open(path, O_RDONLY | O_CLOEXEC));
	CHECK_SYS(fstat(fd, &st));
	p = malloc((size_t)st.st_size + 1);
	CHECK(p);
	while (got < (size_t)st.st_size) {
		ssize_t n = CHECK_SYS(read(fd, p + got,
					   (size_t)st.st_size - got));

		CHECK(n > 0);
		got += (size_t)n;
	}
	CHECK_SYS(close(fd));
	*size = got;
	return p;
}

/* 0 if the files have the same bytes, 1 if not */
int same_bytes(const char *a, const char *b)
{
	size_t na, nb;
	unsigned char *pa = slurp(a, &na), *pb = slurp(b, &nb);
	int differ = na != nb || memcmp(pa, pb, na);

	if (differ)
		fprintf(stderr, "%s (%zu bytes) and %s (%zu bytes) differ\n",
			a, na, b, nb);
	free(pa);
	free(pb);
	return differ;
}

char *path_in(const char *dir, const char *name)
{
	char *p;

	CHECK(asprintf(&p, "%s/%s", dir, name) > 0);
	return p;
}

/* @n files name0 .. of random sizes below @max in @dir; their paths */
char **gen_files(const char *dir, const char *name, int n, size_t max)
{
	char **v = calloc((size_t)n + 1, sizeof(*v));
	int i;

	CHECK(v);
	for (i = 0; i < n; i++) {
		CHECK(asprintf(&v[i], "%s/%s%d", dir, name, i) > 0);
		gen_file(v[i], (size_t)(rng() % max), 0644);
	}
	return v;
}

void free_strv(char **v)
{
	int i;

	for (i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}

/* the entries of @dir, sorted and joined by spaces ("" when empty) */
void dir_entries(const char *dir, char *out, size_t size)
{
	struct dirent **list;
	size_t len = 0;
	int n, i;

	n = CHECK_SYS(scandir(dir, &list, NULL, alphasort));
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		const char *name = list[i]->d_name;

		if (strcmp(name, ".") && strcmp(name, "..")) {
			len += (size_t)snprintf(out + len, size - len, "%s%s",
						len ? " " : "", name);
			CHECK(len < size);
		}
		free(list[i]);
	}
	free(list);
}

/* ---- running copychain ---- */

void run_copychain(struct run *r, ...)
{
	const char *argv[16];
	va_list ap;
	size_t len = 0;
	int pipefd[2], argc = 0, wst;
	pid_t pid;
	ssize_t n;

	argv[argc++] = bin;
	va_start(ap, r);
	while ((argv[argc] = va_arg(ap, const char *)))
		CHECK(++argc < 15);
	va_end(ap);

	CHECK_SYS(pipe2(pipefd, O_CLOEXEC));
	pid = CHECK_SYS(fork());
	if (!pid) {
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		execv(bin, (char *const *)argv);
		perror(bin);
		_exit(127);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], r->out + len, sizeof(r->out) - 1 - len)) > 0)
		len += (size_t)n;
	r->out[len] = '\0';
	close(pipefd[0]);
	CHECK_SYS(waitpid(pid, &wst, 0));
	r->status = WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);

	printf("$ %s", bin);
	for (argc = 1; argv[argc]; argc++)
		printf(" %s", argv[argc]);
	printf("  -> exit %d\n%s", r->status, r->out);
	fflush(stdout);
}

/* ---- cp, for comparison ---- */

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* the output of shell command @cmd (stdout and stderr), and its status */
int shell(char *out, size_t size, const char *fmt, ...)
{
	char cmd[2048];
	size_t len = 0;
	va_list ap;
	FILE *p;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	CHECK(strlen(cmd) + 6 < sizeof(cmd));
	strcat(cmd, " 2>&1");
	p = popen(cmd, "r");
	CHECK(p);
	out[0] = '\0';
	while (len + 1 < size && fgets(out + len, (int)(size - len), p))
		len += strlen(out + len);
	st = pclose(p);
	printf("$ %s  -> %d\n%s", cmd, WIFEXITED(st) ? WEXITSTATUS(st) : -1, out);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/*
 * copychain's @out has cp's @cp_out line (its first), "cp:" read as
 * "copychain:"
 */
void check_cp_words(const char *out, const char *cp_out)
{
	const char *nl = strchr(cp_out, '\n');
	char want[1024];

	CHECK(!strncmp(cp_out, "cp: ", 4));
	snprintf(want, sizeof(want), "copychain: %.*s", nl ?
		 (int)(nl - cp_out) - 3 : (int)strlen(cp_out) - 4, cp_out + 4);
	if (!strstr(out, want))
		FAIL("copychain did not say what cp said: '%s'", want);
}

/* ---- cases ---- */

/*
 * --stats counts the io_uring_enter calls user space made: at least the
 * one submit, and far fewer than the steps (the point of the chain)
 */
static void check_enters(const struct run *r)
{
	const char *p = strstr(r->out, " steps, ");
	unsigned long long steps, enters;

	CHECK(p);
	while (p > r->out && p[-1] >= '0' && p[-1] <= '9')
		p--;
	CHECK_EQ(sscanf(p, "%llu steps, %llu io_uring_enter calls", &steps,
			&enters), 2);
	CHECK(enters >= 1);
	CHECK(enters <= 3 + steps / 4);
}

/*
 * On a terminal (stderr a pty here), a copy longer than a second shows a
 * progress line; the copies above, to a pipe, printed none
 */
static void progress_on_tty(const char *src, const char *dst)
{
	const char *argv[] = { bin, "--chunk", "512", "--depth", "1", src, dst,
			       NULL };
	char out[65536];
	size_t len = 0;
	double t0 = now_s(), secs;
	int master, wst;
	ssize_t n;
	pid_t pid;

	master = CHECK_SYS(posix_openpt(O_RDWR | O_NOCTTY));
	CHECK_SYS(grantpt(master));
	CHECK_SYS(unlockpt(master));
	pid = CHECK_SYS(fork());
	if (!pid) {
		int tty = open(ptsname(master), O_RDWR);

		if (tty < 0 || dup2(tty, 2) < 0)
			_exit(126);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	/* EIO once the child's side is closed */
	while ((n = read(master, out + len, sizeof(out) - 1 - len)) > 0)
		len += (size_t)n;
	out[len] = '\0';
	CHECK_SYS(waitpid(pid, &wst, 0));
	secs = now_s() - t0;
	close(master);
	printf("on a tty, %.2f s: %zu bytes of progress, the last '%s'\n", secs,
	       len, strrchr(out, '\r') ? strrchr(out, '\r') + 1 : out);
	CHECK(WIFEXITED(wst) && WEXITSTATUS(wst) == 0);
	CHECK(secs > 1.2);	/* long enough for a line (TCG: always) */
	if (!strstr(out, "\rcopychain: 0 files, ") || !strstr(out, " MB/s, "))
		FAIL("no progress line on the terminal");
	CHECK_EQ(same_bytes(src, dst), 0);
}

/* like cp: nothing on success, -v names the copy, --help, --version */
IOCORO_CASE(output)
{
	char *src = path_in(work, "src"), *dst = path_in(work, "dst");
	char line[1024];
	struct run r;

	gen_file(src, 200000, 0644);
	run_copychain(&r, src, dst, NULL);
	CHECK_EQ(r.status, 0);
	if (r.out[0])
		FAIL("a copy that went well printed '%s'", r.out);
	CHECK_EQ(same_bytes(src, dst), 0);
	run_copychain(&r, "-v", src, dst, NULL);
	CHECK_EQ(r.status, 0);
	snprintf(line, sizeof(line), "'%s' -> '%s'\n", src, dst);
	CHECK(!strcmp(r.out, line));
	run_copychain(&r, "--stats", "--chunk", "128K", "--depth", "1", src,
		      dst, NULL);
	CHECK_EQ(r.status, 0);
	CHECK_OUT(&r, "copychain: 1 file, 200000 bytes in ");
	/* 2 chunks: 3 + 2 x 2 + 1 (EOF) + 1 (close) */
	CHECK_OUT(&r, " MB/s), 9 steps, ");
	check_enters(&r);
	run_copychain(&r, "--help", NULL);
	CHECK_EQ(r.status, 0);
	CHECK_OUT(&r, "Usage: copychain [OPTION]... [-T] SRC DST");
	CHECK_OUT(&r, "--stats");
	CHECK_OUT(&r, "--depth D");
	CHECK_OUT(&r, "--jobs N");
	CHECK_OUT(&r, "--recursive");
	run_copychain(&r, "--version", NULL);
	CHECK_EQ(r.status, 0);
	CHECK_OUT(&r, "copychain (iocoro) ");
	/* 8,192 chunks: over a second of copying, even with tmpfs overwrites
	 * of cached pages completing inline */
	gen_file(src, 4U << 20, 0644);
	progress_on_tty(src, dst);
	CHECK_ENTRIES(work, "dst src");
	unlink(src);
	unlink(dst);
	free(src);
	free(dst);
}

/* steps of a copy of @size bytes in @chunk chunks at --depth @depth */
static unsigned long long want_steps(size_t size, unsigned int chunk,
				     unsigned int depth)
{
	unsigned long long chunks = (size + chunk - 1) / chunk;
	unsigned long long lanes = chunks < depth ? (chunks ? chunks : 1) : depth;

	/* open, open, fork; 2 a chunk; each lane's EOF; close */
	return 3 + 2 * chunks + lanes + 1;
}

/* a copy that must work: content, mode, output, no leftovers */
static void copy_ok(const char *name, size_t size, mode_t mode,
		    unsigned int chunk, unsigned int depth)
{
	char *src = path_in(work, name), *dst, *dname, line[128], chunk_s[32];
	char depth_s[16];
	struct stat st;
	struct run r;

	CHECK(asprintf(&dname, "%s.copy", name) > 0);
	dst = path_in(work, dname);
	gen_file(src, size, mode);
	snprintf(chunk_s, sizeof(chunk_s), "%u", chunk);
	snprintf(depth_s, sizeof(depth_s), "%u", depth);
	run_copychain(&r, "--stats", src, dst, "--chunk", chunk_s, "--depth",
		      depth_s, NULL);
	CHECK_EQ(r.status, 0);
	snprintf(line, sizeof(line), "copychain: 1 file, %zu bytes in ", size);
	CHECK_OUT(&r, line);
	snprintf(line, sizeof(line), " MB/s), %llu steps, ",
		 want_steps(size, chunk, depth));
	CHECK_OUT(&r, line);
	check_enters(&r);
	CHECK_EQ(same_bytes(src, dst), 0);
	CHECK_SYS(stat(dst, &st));
	CHECK_EQ(st.st_mode & 07777, mode);
	CHECK_EQ(st.st_size, (long long)size);
	/* exactly the two files: no DST.XXXXXX left */
	{
		char want[512];

		snprintf(want, sizeof(want), "%s %s", name, dname);
		CHECK_ENTRIES(work, want);
	}
	CHECK_SYS(unlink(src));
	CHECK_SYS(unlink(dst));
	free(src);
	free(dst);
	free(dname);
}

/* every shape at depth 3 (not a power of two), some at 1 and 16 */
IOCORO_CASE(sizes)
{
	static const struct { const char *name; size_t size; mode_t mode; } f[] = {
		{ "empty", 0, 0644 },
		{ "one", 1, 0600 },
		{ "chunk-1", CHUNK - 1, 0640 },
		{ "chunk", CHUNK, 0755 },
		{ "chunk+1", CHUNK + 1, 0700 },
		{ "3chunks-1", 3 * CHUNK - 1, 0644 },
		{ "3MiB+17", (3U << 20) + 17, 0751 },
	};
	char *src, *dst;
	struct stat st;
	struct run r;
	size_t i;

	/* every shape at depth 3, the edges at 1 and 16 too */
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		copy_ok(f[i].name, f[i].size, f[i].mode, CHUNK, 3);
	copy_ok("one-1", 1, 0600, CHUNK, 1);
	copy_ok("chunk+1-1", CHUNK + 1, 0700, CHUNK, 1);
	copy_ok("3chunks-1-16", 3 * CHUNK - 1, 0644, CHUNK, 16);
	copy_ok("3MiB+17-16", (3U << 20) + 17, 0751, CHUNK, 16);
	/* other chunk sizes */
	copy_ok("odd-chunk", 100000, 0644, 4093, 5);
	copy_ok("big-chunk", (1U << 20) + 3, 0644, 1U << 20, 2);

	/* over an existing DST: replaced, keeping DST's mode (like cp) */
	src = path_in(work, "new");
	dst = path_in(work, "old");
	gen_file(src, 70000, 0604);
	gen_file(dst, 200000, 0666);
	run_copychain(&r, src, dst, NULL);
	CHECK_EQ(r.status, 0);
	CHECK_EQ(same_bytes(src, dst), 0);
	CHECK_SYS(stat(dst, &st));
	CHECK_EQ(st.st_mode & 07777, 0666);
	CHECK_ENTRIES(work, "new old");
	unlink(src);
	unlink(dst);
	free(src);
	free(dst);
}

IOCORO_CASE(budget)
{
	char *dst = path_in(work, "maps");
	struct run r;

	/* 4097 chunks: 8196 steps, twice the kernel's default budget */
	copy_ok("many-chunks", (1U << 20) + 17, 0644, 256, 1);
	copy_ok("many-chunks-4", (256U << 10) + 17, 0644, 256, 4);

	/*
	 * A file longer than its size: /proc/self/maps says 0 bytes, so
	 * the budget is 72 steps, spent after 34 chunks of 16 bytes. The
	 * kernel ends the chain with -ELOOP; nothing is left.
	 */
	run_copychain(&r, "--chunk", "16", "/proc/self/maps", dst, NULL);
	CHECK_EQ(r.status, 1);
	CHECK_OUT(&r, "step budget is spent");
	CHECK_OUT(&r, "SRC is longer than its size said");
	CHECK_ENTRIES(work, "");
	free(dst);
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	CHECK_SYS(stat(path, &st));
	return st.st_mode & 07777;
}

/* cp SRC DST in the same guest, for comparison */
static void run_cp(const char *opt, const char *src, const char *dst)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "cp %s '%s' '%s'", opt, src, dst);
	CHECK_EQ(system(cmd), 0);
}

/*
 * Modes as cp without -p: umask 027 makes 666 640, setuid and setgid go,
 * an existing DST keeps its mode; a symlink DST keeps the link and gets
 * its target replaced; a hard-linked DST becomes a new file. -p keeps
 * mode, owner and times. Each result is compared with cp's.
 */
IOCORO_CASE(modes)
{
	char *src = path_in(work, "src"), *dst = path_in(work, "dst");
	char *cpd = path_in(work, "cp-dst"), *lnk = path_in(work, "link");
	char *hard = path_in(work, "hard");
	struct timespec times[2] = { { 946684800, 0 }, { 946684800, 5000 } };
	struct stat a, b;
	struct run r;

	umask(027);
	gen_file(src, 10000, 0666);
	run_copychain(&r, src, dst, NULL);
	CHECK_EQ(r.status, 0);
	run_cp("", src, cpd);
	CHECK_EQ(mode_of(dst), 0640);
	CHECK_EQ(mode_of(dst), mode_of(cpd));
	unlink(dst);
	unlink(cpd);

	CHECK_SYS(chmod(src, 06755));
	run_copychain(&r, src, dst, NULL);
	CHECK_EQ(r.status, 0);
	run_cp("", src, cpd);
	CHECK_EQ(mode_of(dst), 0750);
	CHECK_EQ(mode_of(dst), mode_of(cpd));

	/* an existing DST keeps its mode (like cp) */
	CHECK_SYS(chmod(dst, 0604));
	CHECK_SYS(chmod(cpd, 0604));
	run_copychain(&r, src, dst, NULL);
	CHECK_EQ(r.status, 0);
	run_cp("", src, cpd);
	CHECK_EQ(mode_of(dst), 0604);
	CHECK_EQ(mode_of(dst), mode_of(cpd));
	CHECK_EQ(same_bytes(src, dst), 0);
	unlink(cpd);

	/* a symlink DST: the link stays, its target gets the copy */
	gen_file(src, 7000, 0644);
	CHECK_SYS(symlink("dst", lnk));
	run_copychain(&r, src, lnk, NULL);
	CHECK_EQ(r.status, 0);
	CHECK_SYS(lstat(lnk, &a));
	CHECK(S_ISLNK(a.st_mode));
	CHECK_EQ(same_bytes(src, dst), 0);
	CHECK_EQ(mode_of(dst), 0604);
	CHECK_SYS(unlink(lnk));

	/*
	 * a hard-linked DST: replaced by a new inode; the other name keeps
	 * the old bytes (cp would write through it: documented)
	 */
	CHECK_SYS(link(dst, hard));
	gen_file(src, 9000, 0644);
	run_copychain(&r, src, dst, NULL);
	CHECK_EQ(r.status, 0);
	CHECK_EQ(same_bytes(src, dst), 0);
	CHECK_SYS(stat(hard, &a));
	CHECK_EQ(a.st_size, 7000);
	CHECK_SYS(stat(dst, &b));
	CHECK(a.st_ino != b.st_ino);
	CHECK_SYS(unlink(hard));
	unlink(dst);

	/* -p: mode with setuid, owner (we are root), times */
	CHECK_SYS(chmod(src, 04751));
	CHECK_SYS(chown(src, 1234, 5678));
	CHECK_SYS(chmod(src, 04751));
	CHECK_SYS(utimensat(AT_FDCWD, src, times, 0));
	run_copychain(&r, "-p", src, dst, NULL);
	CHECK_EQ(r.status, 0);
	run_cp("-p", src, cpd);
	CHECK_SYS(stat(dst, &a));
	CHECK_SYS(stat(cpd, &b));
	CHECK_EQ(a.st_mode & 07777, 04751);
	CHECK_EQ(a.st_mode, b.st_mode);
	CHECK_EQ(a.st_uid, 1234);
	CHECK_EQ(a.st_gid, 5678);
	CHECK_EQ(a.st_mtim.tv_sec, 946684800);
	CHECK_EQ(a.st_mtim.tv_nsec, 5000);
	CHECK_EQ(a.st_atim.tv_sec, 946684800);
	CHECK_EQ(same_bytes(src, dst), 0);
	CHECK_ENTRIES(work, "cp-dst dst src");
	unlink(src);
	unlink(dst);
	unlink(cpd);
	umask(0);
	free(src);
	free(dst);
	free(cpd);
	free(lnk);
	free(hard);
}

/*
 * Without CAP_BPF (the user nobody, no capabilities): one line that says
 * what is missing and how to grant it, none of libbpf's, nothing created.
 */
IOCORO_CASE(nocap)
{
	char *dir = path_in(work, "open"), *src, *dst;
	struct run r;
	pid_t pid;
	int wst;

	CHECK_SYS(chmod(work, 0755));	/* mkdtemp's 0700 would keep nobody out */
	CHECK_SYS(mkdir(dir, 0777));
	src = path_in(dir, "src");
	dst = path_in(dir, "dst");
	gen_file(src, 5000, 0644);
	pid = CHECK_SYS(fork());
	if (!pid) {
		if (setgid(65534) || setuid(65534))
			_exit(3);
		run_copychain(&r, src, dst, NULL);
		if (r.status != 1 ||
		    !strstr(r.out, "copychain: loading the coroutine needs CAP_BPF") ||
		    !strstr(r.out, "setcap cap_bpf+ep") ||
		    strstr(r.out, "libbpf") || strchr(r.out, '\n') != strrchr(r.out, '\n'))
			_exit(4);
		_exit(0);
	}
	CHECK_SYS(waitpid(pid, &wst, 0));
	CHECK(WIFEXITED(wst));
	CHECK_EQ(WEXITSTATUS(wst), 0);
	CHECK_ENTRIES(dir, "src");
	unlink(src);
	rmdir(dir);
	free(src);
	free(dst);
	free(dir);
}

/*
 * SRC DIR and SRC... DIR put the files inside DIR; a bad SRC among them
 * is named in one line (cp's words) and the others are still copied;
 * several SRC and a TARGET that is no directory: nothing is copied.
 */
IOCORO_CASE(multi)
{
	char *a = path_in(work, "a"), *b = path_in(work, "b");
	char *dir = path_in(work, "dir"), *missing = path_in(work, "missing");
	char *da = path_in(dir, "a"), *db = path_in(dir, "b");
	char want[1024];
	struct run r;

	gen_file(a, 3000, 0644);
	gen_file(b, 300000, 0644);
	CHECK_SYS(mkdir(dir, 0755));
	run_copychain(&r, a, dir, NULL);
	CHECK_EQ(r.status, 0);
	CHECK_EQ(same_bytes(a, da), 0);
	CHECK_SYS(unlink(da));
	run_copychain(&r, "--stats", a, missing, b, dir, NULL);
	CHECK_EQ(r.status, 1);
	snprintf(want, sizeof(want),
		 "copychain: cannot stat '%s': No such file or directory\n",
		 missing);
	CHECK_OUT(&r, want);
	CHECK_OUT(&r, "copychain: 2 files, 303000 bytes in ");
	CHECK_EQ(same_bytes(a, da), 0);
	CHECK_EQ(same_bytes(b, db), 0);
	CHECK_ENTRIES(dir, "a b");
	run_copychain(&r, a, b, missing, NULL);
	CHECK_EQ(r.status, 1);
	snprintf(want, sizeof(want),
		 "copychain: target '%s': No such file or directory\n", missing);
	CHECK_OUT(&r, want);
	run_copychain(&r, a, dir, b, NULL);
	CHECK_EQ(r.status, 1);
	snprintf(want, sizeof(want),
		 "copychain: target '%s' is not a directory\n", b);
	CHECK_OUT(&r, want);
	CHECK_ENTRIES(work, "a b dir");
	unlink(da);
	unlink(db);
	rmdir(dir);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
	free(dir);
	free(missing);
	free(da);
	free(db);
}

/*
 * A sparse SRC: 1 MiB of data at 4 GiB + 64 KiB in a file of 4 GiB +
 * 2 MiB. Only the data extent is copied (one coroutine each, a few
 * hundred steps, not 2 x 32k) and the copy stays sparse: few blocks, a
 * hole up to the same offset, the same bytes there, the same size.
 */
IOCORO_CASE(sparse)
{
	char *src = path_in(work, "sparse"), *dst = path_in(work, "copy");
	const off_t at = (4LL << 30) + (64 << 10), size = (4LL << 30) + (2 << 20);
	static unsigned char a[1 << 20], b[1 << 20];
	struct stat st;
	struct run r;
	size_t i;
	int fd;

	for (i = 0; i < sizeof(a); i += 8) {
		uint64_t x = rng();

		memcpy(a + i, &x, 8);
	}
	fd = CHECK_SYS(open(src, O_WRONLY | O_CREAT | O_TRUNC, 0644));
	CHECK_EQ(pwrite(fd, a, sizeof(a), at), (long long)sizeof(a));
	CHECK_SYS(ftruncate(fd, size));
	CHECK_SYS(close(fd));
	run_copychain(&r, "--stats", "--chunk", "128K", "--depth", "3", src,
		      dst, NULL);
	CHECK_EQ(r.status, 0);
	CHECK_OUT(&r, "copychain: 1 file, 1048576 bytes in ");
	/*
	 * one extent of 8 chunks, then a hole to the end (truncated to):
	 * 3 + 2 x 8 + 1, no EOF reads
	 */
	CHECK_OUT(&r, " MB/s), 20 steps, ");
	CHECK_SYS(stat(dst, &st));
	printf("copy: size %lld, %lld blocks of 512\n", (long long)st.st_size,
	       (long long)st.st_blocks);
	CHECK_EQ(st.st_size, (long long)size);
	CHECK(st.st_blocks * 512 <= 2 << 20);
	fd = CHECK_SYS(open(dst, O_RDONLY));
	CHECK_EQ(lseek(fd, 0, SEEK_DATA), (long long)at);
	CHECK_EQ(pread(fd, b, sizeof(b), at), (long long)sizeof(b));
	CHECK(!memcmp(a, b, sizeof(a)));
	CHECK_EQ(lseek(fd, at + (off_t)sizeof(a), SEEK_DATA), -1);
	CHECK_SYS(close(fd));
	unlink(src);
	unlink(dst);
	free(src);
	free(dst);
}

/* bad input: an error, exit 1, nothing created or changed */
static void check_errors(void)
{
	char *src = path_in(work, "src"), *dst = path_in(work, "dst");
	char *missing = path_in(work, "missing");
	char *in_missing = path_in(work, "no-such-dir/dst");
	char *hard = path_in(work, "hardlink");
	struct run r;

	gen_file(src, 5000, 0644);

	/* usage: exit 1 as cp's */
	run_copychain(&r, NULL);
	CHECK_EQ(r.status, 1);
	CHECK_OUT(&r, "copychain: missing file operand\nTry 'copychain --help'");
	run_copychain(&r, src, NULL);
	CHECK_EQ(r.status, 1);
	CHECK_OUT(&r, "copychain: missing destination file operand after '");
	run_copychain(&r, src, dst, "--chunk", "0", NULL);
	CHECK_EQ(r.status, 1);
	CHECK_OUT(&r, "--chunk");
	run_copychain(&r, src, dst, "--chunk", "12Q", NULL);
	CHECK_EQ(r.status, 1);
	run_copychain(&r, src, dst, "--chunk", "2G", NULL);
	CHECK_EQ(r.status, 1);
	run_copychain(&r, src, dst, "--bogus", NULL);
	CHECK_EQ(r.status, 1);
	CHECK_ENTRIES(work, "src");

	/* a missing SRC */
	run_copychain(&r, missing, dst, NULL);
	CHECK_EQ(r.status, 1);
	CHECK_OUT(&r, "copychain: cannot stat '");
	CHECK_OUT(&r, "/missing': No such file or directory\n");
	CHECK_ENTRIES(work, "src");

	/* SRC a directory */
	run_copychain(&r, work, dst, NULL);
	CHECK_EQ(r.status, 1);
	CHECK_OUT(&r, "copychain: -r not specified; omitting directory '");
	CHECK_ENTRIES(work, "src");


	/* DST in a directory that is not there */
	run_copychain(&r, src, in_missing, NULL);
	CHECK_EQ(r.status, 1);
	CHECK_OUT(&r, "copychain: cannot create regular file '");
	CHECK_OUT(&r, "no-such-dir/dst': No such file or directory\n");
	CHECK_ENTRIES(work, "src");

	/* DST a directory: the copy goes inside, here onto SRC itself */
	run_copychain(&r, src, work, NULL);
	CHECK_EQ(r.status, 1);
	CHECK_OUT(&r, "' are the same file\n");
	CHECK_ENTRIES(work, "src");

	/* the same file, by its name and by a hard link */
	run_copychain(&r, src, src, NULL);
	CHECK_EQ(r.status, 1);
	CHECK_OUT(&r, "are the same file");
	CHECK_SYS(link(src, hard));
	run_copychain(&r, src, hard, NULL);
	CHECK_EQ(r.status, 1);
	CHECK_OUT(&r, "are the same file");
	CHECK_ENTRIES(work, "hardlink src");
	CHECK_SYS(unlink(hard));
	{
		size_t n;
		unsigned char *p = slurp(src, &n);

		CHECK_EQ(n, 5000);	/* not truncated */
		free(p);
	}

	unlink(src);
	free(src);
	free(dst);
	free(missing);
	free(in_missing);
	free(hard);
}

/*
 * A full disk: the write's ENOSPC ends the copy in cp's words, nothing is
 * left. At depth 1 in chunks of 128 KiB, a tmpfs of 256 KiB fills after
 * two whole chunks; one of 200 KiB in the middle of the second, whose
 * write comes back short: the coroutine writes the rest, which fails. At
 * depth 4 several writes are in flight when the disk fills.
 */
static void enospc(const char *size_opt, const char *depth, const char *shorts)
{
	char *src = path_in(work, "big"), *small = path_in(work, "small");
	char *dst = path_in(small, "dst");
	char want[512];
	struct run r;
	int ret;

	gen_file(src, 1U << 20, 0644);
	CHECK_SYS(mkdir(small, 0755));
	CHECK_SYS(mount("none", small, "tmpfs", 0, size_opt));
	run_copychain(&r, "--stats", "--chunk", "128K", "--depth", depth, src,
		      dst, NULL);
	ret = r.status;
	CHECK_ENTRIES(small, "");
	CHECK_SYS(umount(small));
	CHECK_EQ(ret, 1);
	snprintf(want, sizeof(want),
		 "copychain: error writing '%s': No space left on device\n", dst);
	CHECK_OUT(&r, want);
	CHECK_OUT(&r, "copychain: 0 files, 0 bytes in ");
	if (shorts)
		CHECK_OUT(&r, shorts);
	CHECK_ENTRIES(work, "big small");
	rmdir(small);
	unlink(src);
	free(src);
	free(small);
	free(dst);
}

IOCORO_CASE(enospc)
{
	enospc("size=256k", "1", ", 0 short writes");
	enospc("size=200k", "1", ", 1 short writes");
	enospc("size=200k", "4", NULL);
	enospc("size=72k", "16", NULL);
}


/* the tree @a and its copy @b: same names, types, modes, links, bytes */
void check_same_tree(const char *a, const char *b)
{
	char out[8192];

	CHECK_EQ(shell(out, sizeof(out), "diff -r --no-dereference '%s' '%s'",
		       a, b), 0);
	CHECK_EQ(shell(out, sizeof(out),
		       "cd '%s' && find . -printf '%%p %%y %%m %%l %%s\\n' | sort > '%s/list.a' && cd '%s' && find . -printf '%%p %%y %%m %%l %%s\\n' | sort > '%s/list.b' && diff '%s/list.a' '%s/list.b' && rm '%s/list.a' '%s/list.b'",
		       a, work, b, work, work, work, work, work), 0);
}

/*
 * --jobs: 40 files of random sizes into a directory, 5 at a time at depth
 * 3; then with a missing SRC among 20: the others are copied, exit 1
 */
IOCORO_CASE(jobs)
{
	char *in = path_in(work, "in"), *out = path_in(work, "out");
	const char *argv[64];
	char **f, want[512], *miss = path_in(work, "missing");
	struct run r;
	int i, argc = 0, wst;
	pid_t pid;

	CHECK_SYS(mkdir(in, 0755));
	CHECK_SYS(mkdir(out, 0755));
	f = gen_files(in, "f", 40, 300000);
	argv[argc++] = bin;
	argv[argc++] = "--stats";
	argv[argc++] = "--jobs=5";
	argv[argc++] = "--depth=3";
	argv[argc++] = "--chunk=64K";
	for (i = 0; i < 40; i++)
		argv[argc++] = f[i];
	argv[argc++] = out;
	argv[argc] = NULL;
	pid = CHECK_SYS(fork());
	if (!pid) {
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	CHECK_SYS(waitpid(pid, &wst, 0));
	CHECK(WIFEXITED(wst) && WEXITSTATUS(wst) == 0);
	for (i = 0; i < 40; i++) {
		char *c = path_in(out, f[i] + strlen(in) + 1);

		CHECK_EQ(same_bytes(f[i], c), 0);
		CHECK_SYS(unlink(c));
		free(c);
	}
	/* a missing SRC among them: named in cp's words, the rest copied */
	run_copychain(&r, "--stats", "--jobs", "3", f[0], f[1], f[2], miss,
		      f[3], f[4], out, NULL);
	CHECK_EQ(r.status, 1);
	snprintf(want, sizeof(want),
		 "copychain: cannot stat '%s': No such file or directory\n", miss);
	CHECK_OUT(&r, want);
	CHECK_OUT(&r, "copychain: 5 files, ");
	CHECK_ENTRIES(out, "f0 f1 f2 f3 f4");
	CHECK_EQ(shell(want, sizeof(want), "rm -r '%s' '%s'", in, out), 0);
	free_strv(f);
	free(in);
	free(out);
	free(miss);
}

/* a tree: nested directories, files, symbolic links, a fifo, a device */
static void make_tree(const char *t)
{
	static const char *const dirs[] = { "", "/a", "/a/b", "/a/b/c",
					    "/empty", "/d" };
	char *p, **f;
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		CHECK(asprintf(&p, "%s%s", t, dirs[i]) > 0);
		CHECK_SYS(mkdir(p, 0755));
		if (i > 0 && i < 4) {
			f = gen_files(p, "f", 6, 200000);
			free_strv(f);
		}
		free(p);
	}
	p = path_in(t, "a/b/c");
	CHECK_SYS(chmod(p, 0750));
	free(p);
	p = path_in(t, "d/link");
	CHECK_SYS(symlink("../a/f0", p));
	free(p);
	p = path_in(t, "d/dangling");
	CHECK_SYS(symlink("nowhere", p));
	free(p);
}

/*
 * -r: a tree copied as cp -r copies it, with a fifo and a device (made
 * again, and over themselves with -T); a directory without -r, and a
 * directory into itself, in cp's words
 */
IOCORO_CASE(tree)
{
	char *t = path_in(work, "t"), *out = path_in(work, "out");
	char *cpo = path_in(work, "cp-out"), *fifo = path_in(work, "t/d/fifo");
	char *dev = path_in(work, "t/d/null"), *self = path_in(work, "t/a/self");
	char cp_out[4096];
	struct run r;

	make_tree(t);
	/* without -r: cp's words */
	run_copychain(&r, t, out, NULL);
	CHECK_EQ(r.status, 1);
	CHECK_EQ(shell(cp_out, sizeof(cp_out), "cp '%s' '%s'", t, cpo), 1);
	check_cp_words(r.out, cp_out);
	CHECK_ENTRIES(work, "t");

	/* the tree without specials: exactly cp -r's copy */
	run_copychain(&r, "-r", "--stats", "--jobs", "4", t, out, NULL);
	CHECK_EQ(r.status, 0);
	CHECK_OUT(&r, "copychain: 18 files, ");
	CHECK_EQ(shell(cp_out, sizeof(cp_out), "cp -r '%s' '%s'", t, cpo), 0);
	check_same_tree(cpo, out);
	CHECK_EQ(shell(cp_out, sizeof(cp_out), "rm -r '%s' '%s'", out, cpo), 0);

	/* a fifo and a device: recreated as cp -r does, twice (replaced) */
	CHECK_SYS(mkfifo(fifo, 0644));
	CHECK_SYS(mknod(dev, S_IFCHR | 0666, makedev(1, 3)));
	run_copychain(&r, "-r", t, out, NULL);
	CHECK_EQ(r.status, 0);
	run_copychain(&r, "-r", "-T", t, out, NULL);
	CHECK_EQ(r.status, 0);
	CHECK_EQ(shell(cp_out, sizeof(cp_out), "cp -r '%s' '%s'", t, cpo), 0);
	{
		char *copy = path_in(out, "d/null");
		struct stat st;

		CHECK_SYS(lstat(copy, &st));
		CHECK(S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3));
		free(copy);
	}
	/* diff -r calls two fifos different: the rest compared without */
	CHECK_EQ(shell(cp_out, sizeof(cp_out),
		       "cd '%s' && find . -printf '%%p %%y %%m\n' | sort > '%s/l.a' && cd '%s' && find . -printf '%%p %%y %%m\n' | sort | diff '%s/l.a' - && rm '%s/l.a' '%s/d/fifo' '%s/d/null' '%s/d/fifo' '%s/d/null'",
		       cpo, work, out, work, work, cpo, cpo, out, out), 0);
	check_same_tree(cpo, out);
	CHECK_SYS(unlink(fifo));
	CHECK_SYS(unlink(dev));
	CHECK_EQ(shell(cp_out, sizeof(cp_out), "rm -r '%s' '%s'", out, cpo), 0);
	run_copychain(&r, "-r", t, out, NULL);
	CHECK_EQ(r.status, 0);
	check_same_tree(t, out);

	/* into an existing directory: DIR/t; again, over that copy */
	run_copychain(&r, "-r", t, out, NULL);
	CHECK_EQ(r.status, 0);
	run_copychain(&r, "-r", t, out, NULL);
	CHECK_EQ(r.status, 0);	/* files and links replaced, like cp -r */
	{
		char *sub = path_in(out, "t");

		check_same_tree(t, sub);
		free(sub);
	}

	/* a directory into itself: cp's words */
	run_copychain(&r, "-r", t, self, NULL);
	CHECK_EQ(r.status, 1);
	CHECK_EQ(shell(cp_out, sizeof(cp_out), "cp -r '%s' '%s'", t, self), 1);
	check_cp_words(r.out, cp_out);
	CHECK_EQ(shell(cp_out, sizeof(cp_out), "rm -rf '%s' '%s' '%s'", t, out,
		       self), 0);
	free(t);
	free(out);
	free(cpo);
	free(fifo);
	free(dev);
	free(self);
}

/* thousands of small files: IOCORO_CC_MANY (default 2000) in 20 dirs */
IOCORO_CASE_OPTS(many, .timeout = 300)
{
	const char *env = getenv("IOCORO_CC_MANY");
	int n = env ? atoi(env) : 2000, d;
	char *t = path_in(work, "t"), *out = path_in(work, "out"), want[256];
	char sh[512];
	struct run r;
	double t0;

	CHECK(n >= 20);
	CHECK_SYS(mkdir(t, 0755));
	for (d = 0; d < 20; d++) {
		char name[32], *dir;

		snprintf(name, sizeof(name), "d%02d", d);
		dir = path_in(t, name);
		CHECK_SYS(mkdir(dir, 0755));
		free_strv(gen_files(dir, "f", n / 20, 4096));
		free(dir);
	}
	t0 = now_s();
	run_copychain(&r, "-r", "--stats", t, out, NULL);
	printf("copychain -r of %d files: %.2f s\n", n, now_s() - t0);
	CHECK_EQ(r.status, 0);
	snprintf(want, sizeof(want), "copychain: %d files, ", n / 20 * 20);
	CHECK_OUT(&r, want);
	check_enters(&r);
	t0 = now_s();
	CHECK_EQ(shell(sh, sizeof(sh), "cp -r '%s' '%s/cp-out'", t, work), 0);
	printf("cp -r of the same: %.2f s\n", now_s() - t0);
	check_same_tree(t, out);
	CHECK_EQ(shell(sh, sizeof(sh), "rm -r '%s' '%s' '%s/cp-out'", t, out,
		       work), 0);
	free(t);
	free(out);
}

/*
 * Become nobody, keeping CAP_BPF alone as an ambient capability
 * so that the copychain we exec can load its programs: then file
 * permissions apply to it as to cp. 0, or -1 if that failed.
 */
int nobody_with_bpf(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0 } };
	const unsigned int caps[] = { CAP_BPF };
	size_t i;

	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgroups(0, NULL) ||
	    setgid(65534) || setuid(65534))
		return -1;
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		d[caps[i] / 32].effective |= 1U << (caps[i] % 32);
		d[caps[i] / 32].permitted |= 1U << (caps[i] % 32);
		d[caps[i] / 32].inheritable |= 1U << (caps[i] % 32);
	}
	if (syscall(SYS_capset, &h, d))
		return -1;
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, caps[i], 0, 0))
			return -1;
	return 0;
}

/* as nobody (with CAP_BPF): copychain @src @dst fails with cp's words */
static void denied_as_cp(const char *src, const char *dst, const char *cpdst)
{
	char cp_out[1024];
	struct run r;
	pid_t pid;
	int wst;

	pid = CHECK_SYS(fork());
	if (!pid) {
		if (nobody_with_bpf())
			_exit(3);
		run_copychain(&r, src, dst, NULL);
		CHECK_EQ(r.status, 1);
		CHECK_OUT(&r, "Permission denied");
		CHECK_EQ(shell(cp_out, sizeof(cp_out), "cp '%s' '%s'", src, cpdst), 1);
		check_cp_words(r.out, cp_out);
		_exit(0);
	}
	CHECK_SYS(waitpid(pid, &wst, 0));
	CHECK(WIFEXITED(wst));
	CHECK_EQ(WEXITSTATUS(wst), 0);
}

/*
 * Permission denied (as nobody, who may load the programs): an unreadable
 * SRC (the coroutine's openat says so), a directory nobody may not write
 * (the O_TMPFILE openat); a read-only file system; each in cp's words
 */
IOCORO_CASE(denied)
{
	char *open_dir = path_in(work, "open"), *ro = path_in(work, "ro");
	char *shut = path_in(work, "shut"), *src, *secret, *dst, *cpd;
	char cp_out[1024];
	struct run r;

	CHECK_SYS(chmod(work, 0755));
	CHECK_SYS(mkdir(open_dir, 0777));
	CHECK_SYS(mkdir(shut, 0755));
	src = path_in(open_dir, "src");
	secret = path_in(open_dir, "secret");
	gen_file(src, 5000, 0644);
	gen_file(secret, 5000, 0600);
	/* cp fails too and creates nothing: both get the same DST */
	dst = path_in(open_dir, "dst");
	cpd = path_in(open_dir, "dst");
	denied_as_cp(secret, dst, cpd);
	CHECK_ENTRIES(open_dir, "secret src");
	free(dst);
	free(cpd);
	dst = path_in(shut, "dst");
	cpd = path_in(shut, "dst");
	denied_as_cp(src, dst, cpd);
	CHECK_ENTRIES(shut, "");
	free(dst);
	free(cpd);

	/* a read-only file system */
	CHECK_SYS(mkdir(ro, 0755));
	CHECK_SYS(mount("none", ro, "tmpfs", MS_RDONLY, "size=64k"));
	dst = path_in(ro, "dst");
	run_copychain(&r, src, dst, NULL);
	CHECK_EQ(r.status, 1);
	CHECK_EQ(shell(cp_out, sizeof(cp_out), "cp '%s' '%s'", src, dst), 1);
	check_cp_words(r.out, cp_out);
	CHECK_ENTRIES(ro, "");
	CHECK_SYS(umount(ro));
	CHECK_SYS(rmdir(ro));
	unlink(src);
	unlink(secret);
	rmdir(open_dir);
	rmdir(shut);
	free(dst);
	free(src);
	free(secret);
	free(open_dir);
	free(ro);
	free(shut);
}

/*
 * The named fallback, where O_TMPFILE is not supported: forced with the
 * test knob COPYCHAIN_NO_TMPFILE=1. Copies work at every depth and with
 * jobs, no DST.XXXXXX is left; SIGTERM while one is being written
 * removes it (SIGKILL could not: that is what O_TMPFILE is for).
 */
IOCORO_CASE(fallback)
{
	char *src = path_in(work, "src"), *dst = path_in(work, "dst");
	const char *argv[] = { bin, "--chunk", "512", src, dst, NULL };
	char *in = path_in(work, "in"), *out = path_in(work, "out"), sh[256];
	char entries[4096];
	struct run r;
	int tries;
	pid_t pid;

	CHECK_SYS(setenv("COPYCHAIN_NO_TMPFILE", "1", 1));
	copy_ok("named", 300001, 0640, 65536, 3);
	copy_ok("named-empty", 0, 0600, 65536, 2);
	CHECK_SYS(mkdir(in, 0755));
	free_strv(gen_files(in, "f", 30, 100000));
	run_copychain(&r, "-r", "--jobs", "6", in, out, NULL);
	CHECK_EQ(r.status, 0);
	check_same_tree(in, out);
	CHECK_EQ(shell(sh, sizeof(sh), "rm -r '%s' '%s'", in, out), 0);

	/* SIGTERM in the middle: the named temporary file goes */
	gen_file(src, 4U << 20, 0644);
	pid = spawn(argv);
	for (tries = 0; tries < 20000; tries++) {
		dir_entries(work, entries, sizeof(entries));
		if (strstr(entries, "dst."))
			break;
		usleep(1000);
	}
	printf("while copying: %s\n", entries);
	CHECK(strstr(entries, "dst."));
	usleep(20000);
	kill_reap(pid, SIGTERM);
	CHECK_ENTRIES(work, "src");
	unlink(src);
	unsetenv("COPYCHAIN_NO_TMPFILE");
	free(src);
	free(dst);
	free(in);
	free(out);
}

/* the kernel: iocoro's words and nothing created without the series */
static void check_host(void)
{
	char *src = path_in(work, "src"), *dst = path_in(work, "dst");
	int probe = iocoro_probe();
	struct run r;

	printf("iocoro_probe() = %d (%s)\n", probe, iocoro_strerror(probe));
	gen_file(src, 300000, 0640);
	run_copychain(&r, src, dst, NULL);
	if (probe == 0) {
		CHECK_EQ(r.status, 0);
		CHECK_EQ(same_bytes(src, dst), 0);
		CHECK_ENTRIES(work, "dst src");
		unlink(dst);
	} else {
		char want[512];

		CHECK_EQ(r.status, 1);
		snprintf(want, sizeof(want), "copychain: %s\n",
			 iocoro_strerror(probe));
		CHECK_OUT(&r, want);
		CHECK_ENTRIES(work, "src");
		/*
		 * 600000 chunks of 1 byte would take more than 2^20 steps:
		 * the chunk grows (before the kernel is asked)
		 */
		gen_file(src, 600000, 0640);
		run_copychain(&r, "--chunk", "1", src, dst, NULL);
		CHECK_EQ(r.status, 1);
		CHECK_OUT(&r, "chunk grown from 1 to 2 bytes");
		CHECK_ENTRIES(work, "src");
	}
	unlink(src);
	free(src);
	free(dst);
}

IOCORO_CASE(errors)
{
	check_errors();
}

/* bad input (on any kernel), then the running kernel's answer */
IOCORO_CASE_OPTS(host, .host = true)
{
	check_errors();
	check_host();
}

/* COPYCHAIN, the binary under test: the suite's ARGS */
void iocoro_suite_setup(int argc, char **argv)
{
	const char *tmp = getenv("TMPDIR");

	/* printed first; IOCORO_SEED replays the same files */
	rng_state = test_seed("copychain_test");
	if (!rng_state)
		rng_state = 0x9e3779b97f4a7c15ULL; /* xorshift's fixed point */
	if (argc != 1)
		FAIL("usage: copychain_test CASE COPYCHAIN");
	bin = argv[0];
	snprintf(work, sizeof(work), "%s/copychain-test.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	CHECK(mkdtemp(work));
	/* the modes the tests give must survive as they are */
	umask(0);
}

/* nothing left behind: no DST.XXXXXX, no stray file */
void iocoro_suite_teardown(void)
{
	CHECK_ENTRIES(work, "");
	test_rm_tree(work);
}
