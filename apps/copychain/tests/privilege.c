// SPDX-License-Identifier: MIT
/*
 * copychain_nocap, _denied: who may copy. As nobody without CAP_BPF and
 * CAP_PERFMON (none, or CAP_BPF alone): one line naming them and setcap,
 * nothing of libbpf's, nothing created; as nobody with both: file
 * permissions apply as they do to cp (cc_test.h)
 */
#include "cc_test.h"

/*
 * As nobody with no capabilities (@bpf 0) or with CAP_BPF alone (1):
 * copychain @src @dst fails with the one line about CAP_BPF and
 * CAP_PERFMON
 */
static void refused_as_nobody(const char *src, const char *dst, int bpf)
{
	struct run r = { 0 };

	if (child_as_nobody(bpf ? NOBODY_BPF : NOBODY_NONE)) {
		run_copychain(&r, src, dst, NULL);
		if (r.status != 1 ||
		    !strstr(r.out, "copychain: loading the coroutine needs CAP_BPF and CAP_PERFMON") ||
		    !strstr(r.out, "setcap cap_bpf,cap_perfmon+ep copychain") ||
		    strstr(r.out, "libbpf") || strchr(r.out, '\n') != strrchr(r.out, '\n'))
			_exit(4);
		_exit(0);
	}
}

/*
 * Without CAP_BPF and CAP_PERFMON (the user nobody with no capabilities,
 * then with CAP_BPF alone: a struct_ops step's load needs CAP_PERFMON
 * too): one line that says what is missing and how to grant it, none of
 * libbpf's, nothing created.
 */
IOCORO_CASE(nocap)
{
	char *dir = path_in(work, "open"), *src, *dst;

	CHECK_SYS(chmod(work, 0755));	/* mkdtemp's 0700 would keep nobody out */
	CHECK_SYS(mkdir(dir, 0777));
	src = path_in(dir, "src");
	dst = path_in(dir, "dst");
	gen_file(src, 5000, 0644);
	refused_as_nobody(src, dst, 0);
	CHECK_ENTRIES(dir, "src");
	refused_as_nobody(src, dst, 1);
	CHECK_ENTRIES(dir, "src");
	unlink(src);
	rmdir(dir);
	free(src);
	free(dst);
	free(dir);
}

/*
 * as nobody with CAP_BPF and CAP_PERFMON: copychain @src @dir/dst fails
 * with the words of cp given the same DST
 */
static void denied_as_cp(const char *src, const char *dir)
{
	char *dst = path_in(dir, "dst");
	char cp_out[1024];
	struct run r = { 0 };

	if (child_as_nobody(NOBODY_LOAD)) {
		run_copychain(&r, src, dst, NULL);
		CHECK_EQ(r.status, 1);
		CHECK_OUT(&r, "Permission denied");
		CHECK_EQ(shell(cp_out, sizeof(cp_out), "cp '%s' '%s'", src, dst), 1);
		check_cp_words(r.out, cp_out);
		_exit(0);
	}
	free(dst);
}

/*
 * Permission denied (as nobody, who may load the steps): an unreadable
 * SRC (the coroutine's openat says so), a directory nobody may not write
 * (the O_TMPFILE openat); a read-only file system; each in cp's words
 */
IOCORO_CASE(denied)
{
	char *open_dir = path_in(work, "open"), *ro = path_in(work, "ro");
	char *shut = path_in(work, "shut"), *src, *secret, *dst;
	char cp_out[1024];
	struct run r = { 0 };

	CHECK_SYS(chmod(work, 0755));
	CHECK_SYS(mkdir(open_dir, 0777));
	CHECK_SYS(mkdir(shut, 0755));
	src = path_in(open_dir, "src");
	secret = path_in(open_dir, "secret");
	gen_file(src, 5000, 0644);
	gen_file(secret, 5000, 0600);
	/* cp fails too and creates nothing: both get the same DST */
	denied_as_cp(secret, open_dir);
	CHECK_ENTRIES(open_dir, "secret src");
	denied_as_cp(src, shut);
	CHECK_ENTRIES(shut, "");

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
