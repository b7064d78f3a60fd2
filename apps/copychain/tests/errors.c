// SPDX-License-Identifier: MIT
/*
 * copychain_errors, _enospc, _host: copies that must fail. Bad input
 * (usage, a missing SRC, SRC a directory, DST in a missing directory,
 * the same file ...), a full disk (1 MiB into a small tmpfs: ENOSPC, no
 * DST, no temporary file), and on the host the running kernel's answer:
 * without the series a copy fails with iocoro_strerror()'s words and
 * creates nothing; with it, the copy works (cc_test.h)
 */
#include "cc_test.h"

/* bad input: an error, exit 1, nothing created or changed */
static void check_errors(void)
{
	char *src = path_in(work, "src"), *dst = path_in(work, "dst");
	char *missing = path_in(work, "missing");
	char *in_missing = path_in(work, "no-such-dir/dst");
	char *hard = path_in(work, "hardlink");
	/* each run: exit 1, the words of out in its output, work unchanged */
	const struct {
		const char *argv[6];
		const char *out[2];
	} bad[] = {
		/* usage: exit 1 as cp's */
		{ { bin, NULL },
		  { "copychain: missing file operand\nTry 'copychain --help'" } },
		{ { bin, src, NULL },
		  { "copychain: missing destination file operand after '" } },
		{ { bin, src, dst, "--chunk", "0", NULL }, { "--chunk" } },
		{ { bin, src, dst, "--chunk", "12Q", NULL }, { NULL } },
		{ { bin, src, dst, "--chunk", "2G", NULL }, { NULL } },
		{ { bin, src, dst, "--bogus", NULL }, { NULL } },
		/* a missing SRC */
		{ { bin, missing, dst, NULL },
		  { "copychain: cannot stat '",
		    "/missing': No such file or directory\n" } },
		/* SRC a directory */
		{ { bin, work, dst, NULL },
		  { "copychain: -r not specified; omitting directory '" } },
		/* DST in a directory that is not there */
		{ { bin, src, in_missing, NULL },
		  { "copychain: cannot create regular file '",
		    "no-such-dir/dst': No such file or directory\n" } },
		/* DST a directory: the copy goes inside, here onto SRC itself */
		{ { bin, src, work, NULL }, { "' are the same file\n" } },
		/* the same file, by its name */
		{ { bin, src, src, NULL }, { "are the same file" } },
	};
	struct run r = { 0 };
	size_t i, k;

	gen_file(src, 5000, 0644);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		run_copychain_argv(&r, bad[i].argv);
		CHECK_EQ(r.status, 1);
		for (k = 0; k < 2 && bad[i].out[k]; k++)
			CHECK_OUT(&r, bad[i].out[k]);
		CHECK_ENTRIES(work, "src");
	}

	/* the same file by a hard link */
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

IOCORO_CASE(errors)
{
	check_errors();
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
	struct run r = { 0 };
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

/* the kernel: iocoro's words and nothing created without the series */
static void check_host(void)
{
	char *src = path_in(work, "src"), *dst = path_in(work, "dst");
	int probe = iocoro_probe();
	struct run r = { 0 };

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

/* bad input (on any kernel), then the running kernel's answer */
IOCORO_CASE_OPTS(host, .host = true)
{
	check_errors();
	check_host();
}
