// SPDX-License-Identifier: MIT
/*
 * copychain_fallback: the named DST.XXXXXX copychain writes where
 * O_TMPFILE is not supported (cc_test.h)
 */
#include "cc_test.h"

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
	struct run r = { 0 };
	int tries;
	struct run child;

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
	spawn(&child, argv);
	for (tries = 0; tries < 20000; tries++) {
		dir_entries(work, entries, sizeof(entries));
		if (strstr(entries, "dst."))
			break;
		usleep(1000);
	}
	printf("while copying: %s\n", entries);
	CHECK(strstr(entries, "dst."));
	usleep(20000);
	kill_reap(&child, SIGTERM);
	CHECK_ENTRIES(work, "src");
	unlink(src);
	unsetenv("COPYCHAIN_NO_TMPFILE");
	free(src);
	free(dst);
	free(in);
	free(out);
}
