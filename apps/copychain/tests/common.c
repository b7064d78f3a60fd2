// SPDX-License-Identifier: MIT
/*
 * What the cases of the copychain suite share (cc_test.h): the generated
 * files, running copychain and cp, comparing trees and outputs, the
 * suite's setup (the binary under test, the scratch directory) and its
 * teardown, which checks that nothing was left behind.
 */
#include "cc_test.h"

const char *bin;
char work[256];

/* ---- files ---- */

static struct test_rng rng_state;

uint64_t rng(void)
{
	return test_rng_next(&rng_state);
}

void gen_file(const char *path, size_t size, mode_t mode)
{
	test_gen_file(path, size, mode, rng);
}

/* the bytes of @path (malloc()ed), their number in *@size */
unsigned char *slurp(const char *path, size_t *size)
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

void run_copychain_argv(struct run *r, const char *const *argv)
{
	const struct run_opts o = { .merge_err = true };
	int i;

	run_free(r);
	run(r, (char *const *)argv, &o);
	printf("$ %s", bin);
	for (i = 1; argv[i]; i++)
		printf(" %s", argv[i]);
	printf("  -> exit %d\n%s", r->status, r->out);
	fflush(stdout);
}

void run_copychain(struct run *r, ...)
{
	const char *argv[16];
	va_list ap;
	int argc = 0;

	argv[argc++] = bin;
	va_start(ap, r);
	while ((argv[argc] = va_arg(ap, const char *)))
		CHECK(++argc < 15);
	va_end(ap);
	run_copychain_argv(r, argv);
}

/* ---- cp, for comparison; checks of outputs and trees ---- */

double now_s(void)
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

/*
 * --stats counts the io_uring_enter calls user space made: at least the
 * one submit, and far fewer than the steps (the point of the chain)
 */
void check_enters(const struct run *r)
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
	check_loading(r);
}

/* --stats says what loading took, phase by phase, the phases in its sum */
void check_loading(const struct run *r)
{
	const char *p = strstr(r->out, "copychain: loading took ");
	double all, ring, open, load, attach, maps;

	CHECK(p);
	CHECK_EQ(sscanf(p, "copychain: loading took %lf s: ring %lf, open %lf, verify and load %lf, attach %lf, maps %lf",
			&all, &ring, &open, &load, &attach, &maps), 6);
	CHECK(ring >= 0 && open >= 0 && load >= 0 && attach >= 0 && maps >= 0);
	/* printed to the ms: each rounded by at most 0.0005 */
	CHECK(ring + open + load + attach + maps <= all + 0.003);
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
 * Become nobody, keeping CAP_BPF, and with NOBODY_LOAD CAP_PERFMON too,
 * as ambient capabilities, so that the copychain we exec has them: with
 * both it may load its steps (a struct_ops program's load needs
 * CAP_PERFMON) and file permissions apply to it as to cp. 0, or -1 if
 * that failed.
 */
int become_nobody(enum nobody_caps keep)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0 } };
	const unsigned int caps[] = { CAP_BPF, CAP_PERFMON };
	size_t i, n = keep == NOBODY_LOAD ? 2 : keep == NOBODY_BPF ? 1 : 0;

	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgroups(0, NULL) ||
	    setgid(65534) || setuid(65534))
		return -1;
	for (i = 0; i < n; i++) {
		d[caps[i] / 32].effective |= 1U << (caps[i] % 32);
		d[caps[i] / 32].permitted |= 1U << (caps[i] % 32);
		d[caps[i] / 32].inheritable |= 1U << (caps[i] % 32);
	}
	if (syscall(SYS_capset, &h, d))
		return -1;
	for (i = 0; i < n; i++)
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, caps[i], 0, 0))
			return -1;
	return 0;
}

bool child_as_nobody(enum nobody_caps keep)
{
	pid_t pid = CHECK_SYS(fork());
	int wst;

	if (!pid) {
		if (become_nobody(keep))
			_exit(3);
		return true;
	}
	CHECK_SYS(waitpid(pid, &wst, 0));
	if (!WIFEXITED(wst) || WEXITSTATUS(wst))
		FAIL("the child as nobody: wait status 0x%x", wst);
	return false;
}

/* COPYCHAIN, the binary under test: the suite's ARGS */
void iocoro_suite_setup(int argc, char **argv)
{
	bin = run_app_setup("copychain", argc, argv, &rng_state, work,
			    sizeof(work));
	/* the modes the tests give must survive as they are */
	umask(0);
}

/* nothing left behind: no DST.XXXXXX, no stray file */
void iocoro_suite_teardown(void)
{
	CHECK_ENTRIES(work, "");
	test_rm_tree(work);
}
