// SPDX-License-Identifier: MIT
/*
 * copychain_modes: the modes and owners a copy gets, as cp gives them
 * (umask, no setuid, an existing DST's mode kept), symlink and hard-link
 * DSTs, -p (root) (cc_test.h)
 */
#include "cc_test.h"

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

/* SRC copied to DST by copychain and to CPD by cp: both get mode @want */
static void copy_as_cp(struct run *r, const char *src, const char *dst,
		       const char *cpd, mode_t want)
{
	run_copychain(r, src, dst, NULL);
	CHECK_EQ(r->status, 0);
	run_cp("", src, cpd);
	CHECK_EQ(mode_of(dst), want);
	CHECK_EQ(mode_of(dst), mode_of(cpd));
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
	struct run r = { 0 };

	umask(027);
	gen_file(src, 10000, 0666);
	copy_as_cp(&r, src, dst, cpd, 0640);
	unlink(dst);
	unlink(cpd);

	CHECK_SYS(chmod(src, 06755));
	copy_as_cp(&r, src, dst, cpd, 0750);

	/* an existing DST keeps its mode (like cp) */
	CHECK_SYS(chmod(dst, 0604));
	CHECK_SYS(chmod(cpd, 0604));
	copy_as_cp(&r, src, dst, cpd, 0604);
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
