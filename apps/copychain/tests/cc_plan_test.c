// SPDX-License-Identifier: MIT
/*
 * Unit tests of copychain's command line and plan (cc_plan.h), on the
 * host: no kernel series needed. Options and their bounds (cp's letters
 * bundled, -t, -T), sizes, the directory of a path, -r's walk of a small
 * tree (what becomes a copy, what a directory, symbolic link or fifo),
 * -t and -T's targets, what -n, -u, -i and -f do with an existing DST,
 * the lane placement shared with the BPF side (cc_place() in
 * copychain.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cc_plan.h"
#include "copychain.h"

/* cc_parse_args() on the words of @line (modified in place) */
static int parse(char *line, struct cc_opts *o, char **argv)
{
	int argc = 0;
	char *w;

	memset(o, 0, sizeof(*o));
	argv[argc++] = "copychain";
	for (w = strtok(line, " "); w; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	return cc_parse_args(argc, argv, o);
}

static void test_defaults(void **state)
{
	char line[] = "a b", *argv[8];
	struct cc_opts o;

	(void)state;
	assert_int_equal(parse(line, &o, argv), 2);
	assert_string_equal(argv[0], "a");
	assert_string_equal(argv[1], "b");
	assert_int_equal(o.chunk, CC_DEFAULT_CHUNK);
	assert_int_equal(o.depth, CC_DEFAULT_DEPTH);
	assert_int_equal(o.jobs, CC_DEFAULT_JOBS);
	assert_false(o.recursive || o.defer_taskrun);
}

static void test_options(void **state)
{
	char line[] = "-r -p -v --stats --chunk 64K --depth=3 --jobs 5 --defer-taskrun -- -x y",
	     *argv[16];
	struct cc_opts o;

	(void)state;
	assert_int_equal(parse(line, &o, argv), 2);
	assert_string_equal(argv[0], "-x");
	assert_true(o.recursive && o.preserve && o.verbose && o.stats);
	assert_int_equal(o.chunk, 64 << 10);
	assert_int_equal(o.depth, 3);
	assert_int_equal(o.jobs, 5);
	assert_true(o.defer_taskrun);
	assert_false(o.sync || o.force || o.update || o.no_target_dir);
	assert_int_equal(o.overwrite, CC_OVERWRITE);
}

/* cp's letters, bundled; -t's value joined or apart; the last of -n/-i */
static void test_cp_options(void **state)
{
	char l1[] = "-fuv -tdir a b", l2[] = "-a -T --sync -n -i a b";
	char l3[] = "-in -tx --target-directory=y a", l4[] = "-Rp a b";
	char *argv[16];
	struct cc_opts o;

	(void)state;
	assert_int_equal(parse(l1, &o, argv), 2);
	assert_true(o.force && o.update && o.verbose);
	assert_string_equal(o.target, "dir");
	assert_false(o.recursive);
	assert_int_equal(parse(l2, &o, argv), 2);
	assert_true(o.recursive && o.preserve && o.no_target_dir && o.sync);
	assert_int_equal(o.overwrite, CC_ASK);
	assert_int_equal(parse(l3, &o, argv), 1);
	assert_int_equal(o.overwrite, CC_NO_CLOBBER);
	assert_string_equal(o.target, "y");
	assert_int_equal(parse(l4, &o, argv), 2);
	assert_true(o.recursive && o.preserve);
}

/* operands that do not fit: cp's words, exit status 1 */
static void test_operands(void **state)
{
	char l0[] = "-v", l1[] = "a", l2[] = "-T a b c", l3[] = "-t d a";
	char l4[] = "a b c", *argv[16];
	struct cc_opts o;
	int n;

	(void)state;
	n = parse(l0, &o, argv);
	assert_int_equal(cc_check_operands(&o, n, argv), 1);
	n = parse(l1, &o, argv);
	assert_int_equal(cc_check_operands(&o, n, argv), 1);
	n = parse(l2, &o, argv);
	assert_int_equal(cc_check_operands(&o, n, argv), 1);
	n = parse(l3, &o, argv);
	assert_int_equal(cc_check_operands(&o, n, argv), 0);
	n = parse(l4, &o, argv);
	assert_int_equal(cc_check_operands(&o, n, argv), 0);
}

static void test_bad_options(void **state)
{
	static const char *const bad[] = {
		"--depth 0 a b", "--depth 17 a b", "--depth 2K a b",
		"--jobs 0 a b", "--jobs 129 a b", "--chunk 0 a b",
		"--chunk 2G a b", "--chunk 12Q a b", "--bogus a b",
		"--jobs 128 --depth 16 --chunk 1G a b", "-x a b", "-rx a b",
		"a b -t", "-t d -T a", "--target-directory= a",
	};
	char line[128], *argv[16];
	struct cc_opts o;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "%s", bad[i]);
		assert_int_equal(parse(line, &o, argv), -EINVAL);
	}
}

static void test_sizes(void **state)
{
	unsigned long long v;

	(void)state;
	assert_int_equal(cc_parse_size("131072", &v), 0);
	assert_int_equal(v, 131072);
	assert_int_equal(cc_parse_size("128KiB", &v), 0);
	assert_int_equal(v, 128 << 10);
	assert_int_equal(cc_parse_size("1g", &v), 0);
	assert_int_equal(v, 1 << 30);
	assert_int_equal(cc_parse_size("-1", &v), -EINVAL);
	assert_int_equal(cc_parse_size("1T", &v), -EINVAL);
}

static void test_dir_of(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(cc_dir_of("a/b/c", buf, sizeof(buf)), "a/b");
	assert_string_equal(cc_dir_of("/c", buf, sizeof(buf)), "/");
	assert_string_equal(cc_dir_of("c", buf, sizeof(buf)), ".");
}

/* a tree: t/f, t/d/g, t/l -> f, t/p (a fifo) */
static void make_tree(const char *t)
{
	char p[512];
	int fd;

	assert_int_equal(mkdir(t, 0755), 0);
	snprintf(p, sizeof(p), "%s/d", t);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/f", t);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	snprintf(p, sizeof(p), "%s/d/g", t);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	snprintf(p, sizeof(p), "%s/l", t);
	assert_int_equal(symlink("f", p), 0);
	snprintf(p, sizeof(p), "%s/p", t);
	assert_int_equal(mkfifo(p, 0644), 0);
}

static void test_plan_tree(void **state)
{
	char work[] = "/tmp/cc_plan_test.XXXXXX", t[256], out[256], p[512];
	char line[600], *argv[8], target[64];
	struct cc_plan plan = { 0 };
	struct cc_dirs none = { 0 };
	struct cc_opts o;
	struct stat st;
	ssize_t n;

	(void)state;
	assert_non_null(mkdtemp(work));
	snprintf(t, sizeof(t), "%s/t", work);
	snprintf(out, sizeof(out), "%s/out", work);
	make_tree(t);

	/* without -r: the directory is omitted, nothing planned */
	snprintf(line, sizeof(line), "%s %s", t, out);
	assert_int_equal(parse(line, &o, argv), 2);
	assert_int_equal(cc_make_plan(&o, 2, argv, &plan), 1);
	assert_int_equal(plan.n, 0);
	cc_plan_free(&plan);

	/* -r: two files, two directories, the link and the fifo made */
	snprintf(line, sizeof(line), "-r %s %s", t, out);
	assert_int_equal(parse(line, &o, argv), 2);
	assert_int_equal(cc_make_plan(&o, 2, argv, &plan), 0);
	assert_int_equal(plan.n, 2);
	snprintf(p, sizeof(p), "%s/d/g", out);
	assert_string_equal(plan.items[0].dst, p);
	snprintf(p, sizeof(p), "%s/f", out);
	assert_string_equal(plan.items[1].dst, p);
	assert_int_equal(plan.ndirs, 2);
	snprintf(p, sizeof(p), "%s/l", out);
	n = readlink(p, target, sizeof(target) - 1);
	assert_int_equal(n, 1);
	snprintf(p, sizeof(p), "%s/p", out);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0644 & ~o.umask);
	/* the directories get their modes at the end (less the umask) */
	assert_int_equal(cc_finish_dirs(&o, &plan, &none), 0);
	snprintf(p, sizeof(p), "%s/d", out);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700 & ~o.umask);
	cc_plan_free(&plan);

	/* -T: OUT is the name, the tree merged into it; -t OUT: inside */
	snprintf(line, sizeof(line), "-r -T %s %s", t, out);
	assert_int_equal(parse(line, &o, argv), 2);
	assert_int_equal(cc_make_plan(&o, 2, argv, &plan), 0);	/* l, p replaced */
	snprintf(p, sizeof(p), "%s/d/g", out);
	assert_string_equal(plan.items[0].dst, p);
	cc_plan_free(&plan);
	snprintf(line, sizeof(line), "-r -t %s %s", out, t);
	assert_int_equal(parse(line, &o, argv), 1);
	assert_int_equal(cc_make_plan(&o, 1, argv, &plan), 0);
	snprintf(p, sizeof(p), "%s/t/d/g", out);
	assert_string_equal(plan.items[0].dst, p);
	cc_plan_free(&plan);
	snprintf(line, sizeof(line), "-t %s/f %s/f", t, t);
	assert_int_equal(parse(line, &o, argv), 1);
	assert_int_equal(cc_make_plan(&o, 1, argv, &plan), -1);
	cc_plan_free(&plan);

	/* into itself */
	snprintf(line, sizeof(line), "-r %s %s/d/in", t, t);
	assert_int_equal(parse(line, &o, argv), 2);
	assert_int_equal(cc_make_plan(&o, 2, argv, &plan), 1);
	assert_int_equal(plan.n, 0);
	cc_plan_free(&plan);

	snprintf(line, sizeof(line), "rm -rf '%s'", work);
	assert_int_equal(system(line), 0);
}

/* an existing DST with -n, -u, -i, -f: 0 copy, 1 skip, -1 refused */
static void test_dst_policy(void **state)
{
	struct cc_opts o = { 0 };
	struct cc_dst d = { .path = "/", .exists = 1 };
	struct stat src = { 0 };
	FILE *yes = fmemopen("y\n", 2, "r"), *no = fmemopen("n\n", 2, "r");

	(void)state;
	src.st_mtim.tv_sec = 100;
	d.st.st_mtim.tv_sec = 100;
	assert_int_equal(cc_dst_policy(&o, &src, "dst", &d, NULL), 0);
	o.update = 1;		/* the same age: not newer */
	assert_int_equal(cc_dst_policy(&o, &src, "dst", &d, NULL), 1);
	src.st_mtim.tv_nsec = 1;
	assert_int_equal(cc_dst_policy(&o, &src, "dst", &d, NULL), 0);
	o.overwrite = CC_ASK;
	assert_int_equal(cc_dst_policy(&o, &src, "dst", &d, no), 1);
	assert_int_equal(cc_dst_policy(&o, &src, "dst", &d, yes), 0);
	assert_int_equal(cc_dst_policy(&o, &src, "dst", &d, yes), 1); /* EOF */
	o.overwrite = CC_NO_CLOBBER;
	assert_int_equal(cc_dst_policy(&o, &src, "dst", &d, NULL), 1);
	d.exists = 0;		/* no DST: nothing to ask about */
	assert_int_equal(cc_dst_policy(&o, &src, "dst", &d, NULL), 0);
	fclose(yes);
	fclose(no);
}

/* lanes over interleaved chunks of two extents, the last to EOF */
static void test_place(void **state)
{
	struct copychain_file f = { .chunk = 100, .depth = 3, .nr_ext = 2 };
	struct copychain_lane l = { .k = 2 };

	(void)state;
	f.ext[0] = (struct copychain_ext){ 1000, 1250 };
	f.ext[1] = (struct copychain_ext){ 5000, CC_TO_EOF };
	l.off = 1000 + 2 * 100;
	assert_int_equal(cc_place(&f, &l), 1);
	assert_int_equal(l.want, 50);	/* the short last chunk of ext 0 */
	l.off += 300;
	assert_int_equal(cc_place(&f, &l), 1);
	assert_int_equal(l.ext, 1);
	assert_int_equal(l.off, 5200);
	assert_int_equal(l.want, 100);
	f.nr_ext = 1;
	l = (struct copychain_lane){ .k = 2, .off = 1500 };
	assert_int_equal(cc_place(&f, &l), 0);
	assert_int_equal(l.want, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_cp_options),
		cmocka_unit_test(test_operands),
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_dst_policy),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_dir_of),
		cmocka_unit_test(test_plan_tree),
		cmocka_unit_test(test_place),
	};

	return cmocka_run_group_tests_name("cc_plan", tests, NULL, NULL);
}
