// SPDX-License-Identifier: MIT
/*
 * copychain_output, _sizes, _budget, _sparse: what a copy writes and
 * says. Silent on success like cp, -v's 'SRC' -> 'DST', --stats' steps
 * and io_uring_enter calls, the progress line on a terminal, --help,
 * --version; files of 0, 1, chunk-1, chunk, chunk+1, 3 MiB+17 random
 * bytes at several depths and chunks, and over an existing DST; more
 * steps than the kernel's default budget, and a file longer than its
 * size that spends the copy's budget; a sparse file with data past 4 GiB
 * (cc_test.h).
 */
#include "cc_test.h"

/*
 * On a terminal (stderr a pty here), a copy longer than a second shows a
 * progress line; the copies above, to a pipe, printed none
 */
static void progress_on_tty(const char *src, const char *dst)
{
	const char *argv[] = { bin, "--chunk", "512", "--depth", "1", src, dst,
			       NULL };
	const struct run_opts o = { .err_tty = true };
	const char *last;
	struct run r;

	run(&r, (char *const *)argv, &o);
	last = strrchr(r.err, '\r') ? strrchr(r.err, '\r') + 1 : r.err;
	printf("on a tty, %.2f s: %zu bytes of progress, the last '%s'\n",
	       r.secs, r.err_len, last);
	CHECK_EQ(r.status, 0);
	CHECK(r.secs > 1.2);	/* long enough for a line (TCG: always) */
	if (!strstr(r.err, "\rcopychain: 0 files, ") ||
	    !strstr(r.err, " MB/s, "))
		FAIL("no progress line on the terminal");
	CHECK_EQ(same_bytes(src, dst), 0);
	run_free(&r);
}

/* like cp: nothing on success, -v names the copy, --help, --version */
IOCORO_CASE(output)
{
	char *src = path_in(work, "src"), *dst = path_in(work, "dst");
	char line[1024];
	struct run r = { 0 };

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
	/*
	 * 2 chunks: 2 + 2 x 2 + 1 (EOF) + 1 (close); the openat(SRC) is user
	 * space's, carrying the first step
	 */
	CHECK_OUT(&r, " MB/s), 8 steps, ");
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
	unsigned long long n = (chunks + lanes - 1) / lanes;
	/* copychain.c's plan: 8 + lanes x (2 a chunk + 64 + 1 in 64) */
	unsigned long long budget = 8 + lanes * (2 * n + 64 + n / 64);

	/*
	 * open, open, fork; 2 a chunk; each lane's EOF; close. A non-empty
	 * copy the default budget covers starts with user space's
	 * openat(SRC), which carries the step after the first open: one
	 * step less.
	 */
	return (size && budget <= IOCORO_DEFAULT_BUDGET ? 2 : 3) + 2 * chunks +
	       lanes + 1;
}

/* a copy that must work: content, mode, output, no leftovers */
void copy_ok(const char *name, size_t size, mode_t mode, unsigned int chunk,
	     unsigned int depth)
{
	char *src = path_in(work, name), *dst, *dname, line[128], chunk_s[32];
	char depth_s[16];
	struct stat st;
	struct run r = { 0 };

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
	struct run r = { 0 };
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
	struct run r = { 0 };

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
	struct run r = { 0 };
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
	 * 2 + 2 x 8 + 1, no EOF reads (the openat(SRC) is user space's)
	 */
	CHECK_OUT(&r, " MB/s), 19 steps, ");
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
