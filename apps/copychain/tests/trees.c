// SPDX-License-Identifier: MIT
/*
 * copychain_multi, _jobs, _tree, _many: more than one file. SRC DIR,
 * SRC... DIR, a bad SRC among them, a TARGET that is no directory;
 * --jobs; -r's trees (with a fifo and a device) against cp -r's copies;
 * thousands of small files (cc_test.h)
 */
#include "cc_test.h"

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
	struct run r = { 0 };

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
 * --jobs: 40 files of random sizes into a directory, 5 at a time at depth
 * 3; then with a missing SRC among 20: the others are copied, exit 1
 */
IOCORO_CASE(jobs)
{
	char *in = path_in(work, "in"), *out = path_in(work, "out");
	const char *argv[64];
	char **f, want[512], *miss = path_in(work, "missing");
	struct run r = { 0 };
	int i, v, argc;

	CHECK_SYS(mkdir(in, 0755));
	CHECK_SYS(mkdir(out, 0755));
	f = gen_files(in, "f", 40, 300000);
	/* on the default ring, then on a SINGLE_ISSUER | DEFER_TASKRUN one */
	for (v = 0; v < 2; v++) {
		argc = 0;
		argv[argc++] = bin;
		argv[argc++] = v ? "--defer-taskrun" : "--stats";
		argv[argc++] = "--jobs=5";
		argv[argc++] = "--depth=3";
		argv[argc++] = "--chunk=64K";
		for (i = 0; i < 40; i++)
			argv[argc++] = f[i];
		argv[argc++] = out;
		argv[argc] = NULL;
		run_copychain_argv(&r, argv);
		CHECK_EQ(r.status, 0);
		for (i = 0; i < 40; i++) {
			char *c = path_in(out, f[i] + strlen(in) + 1);

			CHECK_EQ(same_bytes(f[i], c), 0);
			CHECK_SYS(unlink(c));
			free(c);
		}
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
	struct run r = { 0 };

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
	struct run r = { 0 };
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
