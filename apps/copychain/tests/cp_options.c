// SPDX-License-Identifier: MIT
/*
 * copychain_cpopts, _streams, _sync: the options people type with cp,
 * each next to what cp does with it in the same guest (cc_test.h);
 * fifos, devices and sockets as SRC; the default mode against --sync.
 */
#include "cc_test.h"

/* @path's mtime moved @secs from @base's */
static void set_mtime(const char *path, const char *base, long secs)
{
	struct timespec t[2];
	struct stat st;

	CHECK_SYS(stat(base, &st));
	t[0] = st.st_atim;
	t[1] = st.st_mtim;
	t[1].tv_sec += secs;
	CHECK_SYS(utimensat(AT_FDCWD, path, t, 0));
}

/* a fresh pair: SRC of new bytes, DST and its cp twin of old bytes */
static void pair(const char *src, const char *dst, const char *cpd)
{
	char sh[256];

	gen_file(src, 70000, 0644);
	gen_file(dst, 30000, 0640);
	CHECK_EQ(shell(sh, sizeof(sh), "cp -p '%s' '%s'", dst, cpd), 0);
}

/* -n keeps DST silently; -u copies only a newer SRC; as cp */
static void no_clobber_update(const char *src, const char *dst,
			      const char *cpd)
{
	char sh[512];
	struct run r = { 0 };

	pair(src, dst, cpd);
	run_copychain(&r, "-n", src, dst, NULL);
	CHECK_EQ(r.status, 0);
	CHECK(!r.out[0]);
	CHECK_EQ(shell(sh, sizeof(sh), "cp -n '%s' '%s'", src, cpd), 0);
	CHECK_EQ(same_bytes(dst, cpd), 0);	/* both kept */
	CHECK(same_bytes(src, dst));

	/* DST newer than SRC: kept; SRC newer: copied */
	set_mtime(dst, src, 100);
	set_mtime(cpd, src, 100);
	run_copychain(&r, "-u", src, dst, NULL);
	CHECK_EQ(r.status, 0);
	CHECK_EQ(shell(sh, sizeof(sh), "cp -u '%s' '%s'", src, cpd), 0);
	CHECK_EQ(same_bytes(dst, cpd), 0);
	CHECK(same_bytes(src, dst));
	set_mtime(dst, src, -100);
	set_mtime(cpd, src, -100);
	run_copychain(&r, "-uv", src, dst, NULL);
	CHECK_EQ(r.status, 0);
	CHECK_OUT(&r, "' -> '");
	CHECK_EQ(shell(sh, sizeof(sh), "cp -u '%s' '%s'", src, cpd), 0);
	CHECK_EQ(same_bytes(src, dst), 0);
	CHECK_EQ(same_bytes(src, cpd), 0);
}

/* -i asks on stderr in cp's words; no keeps DST, y replaces it */
static void interactive(const char *src, const char *dst, const char *cpd)
{
	char out[1024], cp_out[1024];

	pair(src, dst, cpd);
	CHECK_EQ(shell(out, sizeof(out), "printf 'n\\n' | '%s' -i '%s' '%s'",
		       bin, src, dst), 0);
	CHECK_EQ(shell(cp_out, sizeof(cp_out), "printf 'n\\n' | cp -i '%s' '%s'",
		       src, dst), 0);
	check_cp_words(out, cp_out);
	CHECK(same_bytes(src, dst));
	/* -n after -i wins: no question */
	CHECK_EQ(shell(out, sizeof(out), "printf 'y\\n' | '%s' -i -n '%s' '%s'",
		       bin, src, dst), 0);
	CHECK(!strstr(out, "overwrite"));
	CHECK(same_bytes(src, dst));
	CHECK_EQ(shell(out, sizeof(out), "printf 'y\\n' | '%s' -ni '%s' '%s'",
		       bin, src, dst), 0);
	CHECK(strstr(out, "copychain: overwrite '"));
	CHECK_EQ(same_bytes(src, dst), 0);
	unlink(cpd);
}

/*
 * -f, as nobody (with CAP_BPF and CAP_PERFMON): a DST nobody may not
 * write is refused in cp's words, and replaced with -f, with the mode
 * cp -f gives it
 */
static void force(const char *src, const char *dst, const char *cpd)
{
	char cp_out[1024], sh[256];
	struct stat a, b;
	struct run r = { 0 };

	pair(src, dst, cpd);
	CHECK_SYS(chmod(dst, 0444));
	CHECK_SYS(chmod(cpd, 0444));
	CHECK_SYS(chown(dst, 65534, 65534));
	CHECK_SYS(chown(cpd, 65534, 65534));
	if (child_as_nobody(NOBODY_LOAD)) {
		run_copychain(&r, src, dst, NULL);
		CHECK_EQ(r.status, 1);
		CHECK_EQ(shell(cp_out, sizeof(cp_out), "cp '%s' '%s'", src, dst), 1);
		check_cp_words(r.out, cp_out);
		CHECK(same_bytes(src, dst));
		run_copychain(&r, "-f", src, dst, NULL);
		CHECK_EQ(r.status, 0);
		CHECK_EQ(shell(sh, sizeof(sh), "cp -f '%s' '%s'", src, cpd), 0);
		_exit(0);
	}
	CHECK_EQ(same_bytes(src, dst), 0);
	CHECK_EQ(same_bytes(src, cpd), 0);
	CHECK_SYS(stat(dst, &a));
	CHECK_SYS(stat(cpd, &b));
	printf("after -f: copychain's DST %o, cp's %o\n", a.st_mode & 07777,
	       b.st_mode & 07777);
	CHECK_EQ(a.st_mode & 07777, b.st_mode & 07777);
	CHECK_EQ(a.st_uid, b.st_uid);
}

/* -t DIR SRC..., -T, and their misuse, each in cp's words */
static void targets(const char *src, const char *dst, const char *out,
		    const char *cpo)
{
	char *missing = path_in(work, "missing"), cp_out[1024];
	struct run r = { 0 };

	gen_file(dst, 1000, 0600);
	CHECK_SYS(mkdir(out, 0755));
	CHECK_SYS(mkdir(cpo, 0755));
	run_copychain(&r, "-t", out, src, dst, NULL);
	CHECK_EQ(r.status, 0);
	CHECK_EQ(shell(cp_out, sizeof(cp_out), "cp -t '%s' '%s' '%s'", cpo, src,
		       dst), 0);
	check_same_tree(cpo, out);
	run_copychain(&r, "--target-directory", missing, src, NULL);
	CHECK_EQ(r.status, 1);
	CHECK_EQ(shell(cp_out, sizeof(cp_out), "cp -t '%s' '%s'", missing, src), 1);
	check_cp_words(r.out, cp_out);
	/* -T: a directory DST is a name, not a place */
	run_copychain(&r, "-T", src, out, NULL);
	CHECK_EQ(r.status, 1);
	CHECK_EQ(shell(cp_out, sizeof(cp_out), "cp -T '%s' '%s'", src, out), 1);
	check_cp_words(r.out, cp_out);
	run_copychain(&r, "-T", src, dst, out, NULL);
	CHECK_EQ(r.status, 1);
	CHECK_EQ(shell(cp_out, sizeof(cp_out), "cp -T '%s' '%s' '%s'", src, dst,
		       out), 1);
	check_cp_words(r.out, cp_out);
	run_copychain(&r, "-T", "-t", out, src, NULL);
	CHECK_EQ(r.status, 1);
	CHECK_EQ(shell(cp_out, sizeof(cp_out), "cp -T -t '%s' '%s'", out, src), 1);
	check_cp_words(r.out, cp_out);
	CHECK_EQ(shell(cp_out, sizeof(cp_out), "rm -r '%s' '%s'", out, cpo), 0);
	free(missing);
}

/* -a: a tree with its modes and times, as cp -a; then -rn over it */
static void archive(const char *out, const char *cpo)
{
	char *t = path_in(work, "t"), *f, sh[2048];
	struct run r = { 0 };

	CHECK_SYS(mkdir(t, 0750));
	f = path_in(t, "sub");
	CHECK_SYS(mkdir(f, 0711));
	free(f);
	free_strv(gen_files(t, "f", 5, 100000));
	f = path_in(t, "sub/g");
	gen_file(f, 5000, 0604);
	free(f);
	CHECK_EQ(shell(sh, sizeof(sh),
		       "touch -h -d '2001-02-03 04:05:06' '%s'/* '%s'/sub/g && ln -s f0 '%s'/l && touch -h -d '2002-01-01' '%s'/l '%s'/sub '%s'",
		       t, t, t, t, t, t), 0);
	run_copychain(&r, "-a", t, out, NULL);
	CHECK_EQ(r.status, 0);
	CHECK_EQ(shell(sh, sizeof(sh), "cp -a '%s' '%s'", t, cpo), 0);
	check_same_tree(cpo, out);
	CHECK_EQ(shell(sh, sizeof(sh),
		       "cd '%s' && find . -printf '%%p %%T@ %%u %%g\\n' | sort > '%s/times.a' && cd '%s' && find . -printf '%%p %%T@ %%u %%g\\n' | sort > '%s/times.b' && diff '%s/times.a' '%s/times.b' && rm '%s/times.a' '%s/times.b'",
		       cpo, work, out, work, work, work, work, work), 0);

	/* -rn over the copy: a changed file stays, a missing one comes */
	CHECK_EQ(shell(sh, sizeof(sh),
		       "echo changed > '%s/f1' && rm '%s/f2' && echo changed > '%s/f1' && rm '%s/f2'",
		       out, out, cpo, cpo), 0);
	run_copychain(&r, "-rn", t, "-T", out, NULL);
	CHECK_EQ(r.status, 0);
	CHECK_EQ(shell(sh, sizeof(sh), "cp -rn -T '%s' '%s'", t, cpo), 0);
	check_same_tree(cpo, out);
	CHECK_EQ(shell(sh, sizeof(sh), "grep -q changed '%s/f1'", out), 0);
	CHECK_EQ(shell(sh, sizeof(sh), "rm -r '%s' '%s' '%s'", t, out, cpo), 0);
	free(t);
}

IOCORO_CASE(cpopts)
{
	char *src = path_in(work, "src"), *dst = path_in(work, "dst");
	char *cpd = path_in(work, "cp-dst"), *out = path_in(work, "out");
	char *cpo = path_in(work, "cp-out");

	no_clobber_update(src, dst, cpd);
	interactive(src, dst, cpd);
	CHECK_SYS(chmod(work, 0777));	/* nobody's -f replaces in it */
	force(src, dst, cpd);
	CHECK_SYS(chmod(work, 0755));
	targets(src, dst, out, cpo);
	archive(out, cpo);
	CHECK_ENTRIES(work, "cp-dst dst src");
	unlink(src);
	unlink(dst);
	unlink(cpd);
	free(src);
	free(dst);
	free(cpd);
	free(out);
	free(cpo);
}

/* a unix socket at @path (its fd) */
static int make_socket(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = CHECK_SYS(socket(AF_UNIX, SOCK_STREAM, 0));

	CHECK(strlen(path) < sizeof(a.sun_path));
	strcpy(a.sun_path, path);
	CHECK_SYS(bind(fd, (struct sockaddr *)&a, sizeof(a)));
	return fd;
}

/*
 * A fifo and devices as SRC, read to their end as cp reads them: a
 * writer's 3 MiB through a fifo (in chunks of 64 KiB and of 1 MiB),
 * /dev/null's nothing; a socket fails to open in cp's words
 */
IOCORO_CASE(streams)
{
	char *data = path_in(work, "data"), *fifo = path_in(work, "fifo");
	char *dst = path_in(work, "dst"), *cpd = path_in(work, "cp-dst");
	char *sock = path_in(work, "sock"), out[1024], cp_out[1024];
	const char *chunks[] = { "64K", "1M" };
	struct stat a, b;
	struct run r = { 0 };
	size_t i;
	int sfd;

	gen_file(data, (3U << 20) + 5, 0644);
	CHECK_SYS(mkfifo(fifo, 0640));
	for (i = 0; i < 2; i++) {
		CHECK_EQ(shell(out, sizeof(out),
			       "cat '%s' > '%s' & '%s' --stats --chunk %s '%s' '%s'; s=$?; wait; exit $s",
			       data, fifo, bin, chunks[i], fifo, dst), 0);
		CHECK(strstr(out, "copychain: 1 file, 3145733 bytes in "));
		CHECK_EQ(same_bytes(data, dst), 0);
		CHECK_EQ(shell(out, sizeof(out), "cat '%s' > '%s' & cp '%s' '%s'; wait",
			       data, fifo, fifo, cpd), 0);
		CHECK_SYS(stat(dst, &a));
		CHECK_SYS(stat(cpd, &b));
		CHECK_EQ(a.st_mode & 07777, b.st_mode & 07777);
		CHECK_SYS(unlink(dst));
		CHECK_SYS(unlink(cpd));
	}

	run_copychain(&r, "/dev/null", dst, NULL);
	CHECK_EQ(r.status, 0);
	CHECK_EQ(shell(cp_out, sizeof(cp_out), "cp /dev/null '%s'", cpd), 0);
	CHECK_SYS(stat(dst, &a));
	CHECK_SYS(stat(cpd, &b));
	CHECK(S_ISREG(a.st_mode) && a.st_size == 0);
	CHECK_EQ(a.st_mode & 07777, b.st_mode & 07777);
	CHECK_SYS(unlink(dst));
	CHECK_SYS(unlink(cpd));

	sfd = make_socket(sock);
	run_copychain(&r, sock, dst, NULL);
	CHECK_EQ(r.status, 1);
	CHECK_EQ(shell(cp_out, sizeof(cp_out), "cp '%s' '%s'", sock, cpd), 1);
	check_cp_words(r.out, cp_out);
	close(sfd);
	CHECK_ENTRIES(work, "data fifo sock");
	unlink(sock);
	unlink(fifo);
	unlink(data);
	free(data);
	free(fifo);
	free(dst);
	free(cpd);
	free(sock);
}

/* --stats' steps */
static unsigned long long steps_of(const struct run *r)
{
	const char *p = strstr(r->out, " steps, ");
	unsigned long long n;

	CHECK(p);
	while (p > r->out && p[-1] >= '0' && p[-1] <= '9')
		p--;
	CHECK_EQ(sscanf(p, "%llu steps", &n), 1);
	return n;
}

/*
 * The default mode queues no fsync; --sync one a file (a step more each):
 * same bytes, same trees, in either
 */
IOCORO_CASE(sync)
{
	char *src = path_in(work, "src"), *dst = path_in(work, "dst");
	char *t = path_in(work, "t"), *out = path_in(work, "out");
	char *cpo = path_in(work, "cp-out"), sh[256];
	unsigned long long plain, synced;
	struct run r = { 0 };

	gen_file(src, 300000, 0644);
	run_copychain(&r, "--stats", "--chunk", "64K", src, dst, NULL);
	CHECK_EQ(r.status, 0);
	plain = steps_of(&r);
	CHECK_EQ(same_bytes(src, dst), 0);
	CHECK_SYS(unlink(dst));
	run_copychain(&r, "--stats", "--sync", "--chunk", "64K", src, dst, NULL);
	CHECK_EQ(r.status, 0);
	synced = steps_of(&r);
	CHECK_EQ(same_bytes(src, dst), 0);
	CHECK_EQ(synced, plain + 1);

	CHECK_SYS(mkdir(t, 0755));
	free_strv(gen_files(t, "f", 7, 200000));
	run_copychain(&r, "-r", "--stats", t, out, NULL);
	CHECK_EQ(r.status, 0);
	plain = steps_of(&r);
	CHECK_EQ(shell(sh, sizeof(sh), "cp -r '%s' '%s'", t, cpo), 0);
	check_same_tree(cpo, out);
	CHECK_EQ(shell(sh, sizeof(sh), "rm -r '%s'", out), 0);
	run_copychain(&r, "-r", "--sync", "--stats", t, out, NULL);
	CHECK_EQ(r.status, 0);
	synced = steps_of(&r);
	check_same_tree(cpo, out);
	CHECK_EQ(synced, plain + 7);
	CHECK_EQ(shell(sh, sizeof(sh), "rm -r '%s' '%s' '%s' '%s' '%s'", t, out,
		       cpo, src, dst), 0);
	free(src);
	free(dst);
	free(t);
	free(out);
	free(cpo);
}
