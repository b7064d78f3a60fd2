// SPDX-License-Identifier: MIT
/*
 * copychain's command line (cc_plan.h): the options as cp spells them,
 * --help, and cp's words for operands that do not fit.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cc_plan.h"
#include "tool.h"

void cc_usage(FILE *f)
{
	fprintf(f,
		"Usage: copychain [OPTION]... [-T] SRC DST\n"
		"  or:  copychain [OPTION]... SRC... DIRECTORY\n"
		"  or:  copychain [OPTION]... -t DIRECTORY SRC...\n"
		"Copy files (and with -r, trees) with in-kernel io_uring coroutines:\n"
		"BPF programs queue every open, read, write and close of a file from\n"
		"the result of the one before, from a single submit. Loading them\n"
		"needs CAP_BPF and CAP_PERFMON.\n"
		"\n"
		"  -a, --archive      -r and -p\n"
		"  -f, --force        replace a DST that cannot be written to\n"
		"  -i, --interactive  ask before replacing a DST (overrides an earlier -n)\n"
		"  -n, --no-clobber   never replace a DST (overrides an earlier -i)\n"
		"  -p, --preserve     keep SRC's mode (with setuid, setgid), owner where\n"
		"                     permitted, access and modification times\n"
		"  -r, -R, --recursive  copy directories recursively: directories are\n"
		"                     created, regular files copied, symbolic links,\n"
		"                     fifos and devices recreated\n"
		"      --sync         make each copy durable before it gets its name:\n"
		"                     data fsynced, then the directories (cp && sync)\n"
		"  -t, --target-directory=DIRECTORY  copy every SRC into DIRECTORY\n"
		"  -T, --no-target-directory  DST is a name, even of a directory\n"
		"  -u, --update       copy only when SRC is newer than DST, or DST is\n"
		"                     missing\n"
		"  -v, --verbose      print 'SRC' -> 'DST' for each file copied\n"
		"      --stats        print files, bytes, time, MB/s, coroutine steps and\n"
		"                     the io_uring_enter calls user space made\n"
		"      --chunk BYTES  bytes per read and write (default 1M; K, M, G)\n"
		"      --depth D      reads and writes in flight on one file, each with\n"
		"                     its own buffer (1 to 16, default 2)\n"
		"      --jobs N       files copied at once (1 to 128, default 64)\n"
		"      --defer-taskrun  a SINGLE_ISSUER | DEFER_TASKRUN ring: the steps run\n"
		"                     only while copychain waits in io_uring_enter()\n"
		"  -h, --help         this help\n"
		"      --version      version\n"
		"\n"
		"Modes as cp without -p: a new DST gets SRC's permission bits less the\n"
		"umask, never setuid, setgid or sticky; an existing DST keeps its mode\n"
		"(and owner where permitted). DST is never written in place: the copy\n"
		"goes to a new unnamed file that gets DST's name once it is whole, so\n"
		"DST is never half written. A DST that is a symbolic link keeps the\n"
		"link and gets its target replaced; a DST with other hard links becomes\n"
		"a new file, the other names keep the old content (cp would write\n"
		"through them). A fifo or device SRC is read to its end, as by cp.\n"
		"On a terminal, a copy longer than a second shows a progress line.\n"
		"\n"
		"Prints nothing when the copy went well. Exit status 0 on success, 1 when\n"
		"a copy failed or on bad usage.\n");
}

int cc_parse_size(const char *s, unsigned long long *out)
{
	return tool_parse_size(s, out);
}

/* --NAME VALUE or --NAME=VALUE at argv[*i]: the value, or NULL */
static const char *opt_value(char **argv, int argc, int *i, const char *name)
{
	size_t len = strlen(name);
	const char *a = argv[*i];

	if (!strcmp(a, name))
		return *i + 1 < argc ? argv[++*i] : "";
	if (!strncmp(a, name, len) && a[len] == '=')
		return a + len + 1;
	return NULL;
}

/* a size or count option's value in [1, max]; 0 or -EINVAL (reported) */
static int opt_number(const char *name, const char *v, unsigned long long max,
		      int sizes, uint32_t *out)
{
	unsigned long long n;

	if (!cc_parse_size(v, &n) && n && n <= max &&
	    (sizes || strspn(v, "0123456789") == strlen(v))) {
		*out = (uint32_t)n;
		return 0;
	}
	fprintf(stderr, "copychain: %s takes %s 1 to %llu%s, not '%s'\n", name,
		sizes ? "a size of" : "a number from", max,
		sizes ? " bytes (K, M, G suffixes)" : "", v);
	return -EINVAL;
}

/* the one-letter option @c (no value) into @o; 0, or -EINVAL */
static int parse_flag(char c, struct cc_opts *o)
{
	switch (c) {
	case 'h':
		o->help = 1;
		break;
	case 'v':
		o->verbose = 1;
		break;
	case 'a':
		o->preserve = 1;
		/* fall through */
	case 'r':
	case 'R':
		o->recursive = 1;
		break;
	case 'p':
		o->preserve = 1;
		break;
	case 'f':
		o->force = 1;
		break;
	case 'n':
		o->overwrite = CC_NO_CLOBBER;
		break;
	case 'i':
		o->overwrite = CC_ASK;
		break;
	case 'u':
		o->update = 1;
		break;
	case 'T':
		o->no_target_dir = 1;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

static int bad_usage(const char *fmt, const char *what)
{
	fputs("copychain: ", stderr);
	fprintf(stderr, fmt, what);
	fputs("\nTry 'copychain --help' for more information.\n", stderr);
	return -EINVAL;
}

/* -abc, or -t DIR / -tDIR among them, at argv[*i] into @o */
static int parse_short(int argc, char **argv, int *i, struct cc_opts *o)
{
	const char *a = argv[*i] + 1;
	char c[2] = { 0 };

	for (; *a; a++) {
		if (*a == 't') {
			if (a[1])
				o->target = a + 1;
			else if (*i + 1 < argc)
				o->target = argv[++*i];
			else
				return bad_usage("option requires an argument -- '%s'", "t");
			return 0;
		}
		c[0] = *a;
		if (parse_flag(*a, o))
			return bad_usage("invalid option -- '%s'", c);
	}
	return 0;
}

/* the long flags (no value) and the letter each is the long form of */
static const struct { const char *name; char c; } long_flags[] = {
	{ "--help", 'h' }, { "--verbose", 'v' }, { "--preserve", 'p' },
	{ "--recursive", 'r' }, { "--archive", 'a' }, { "--force", 'f' },
	{ "--no-clobber", 'n' }, { "--interactive", 'i' },
	{ "--update", 'u' }, { "--no-target-directory", 'T' },
};

/* the option argv[*i] into @o; 0, or -EINVAL (reported) */
static int parse_one(int argc, char **argv, int *i, struct cc_opts *o)
{
	const char *a = argv[*i], *v;
	size_t k;

	if (a[1] != '-')
		return parse_short(argc, argv, i, o);
	for (k = 0; k < sizeof(long_flags) / sizeof(long_flags[0]); k++)
		if (!strcmp(a, long_flags[k].name))
			return parse_flag(long_flags[k].c, o);
	if (!strcmp(a, "--version"))
		o->version = 1;
	else if (!strcmp(a, "--stats"))
		o->stats = 1;
	else if (!strcmp(a, "--sync"))
		o->sync = 1;
	else if (!strcmp(a, "--defer-taskrun"))
		o->defer_taskrun = 1;
	else if ((v = opt_value(argv, argc, i, "--target-directory")))
		o->target = v;
	else if ((v = opt_value(argv, argc, i, "--chunk")))
		return opt_number("--chunk", v, CC_MAX_CHUNK, 1, &o->chunk);
	else if ((v = opt_value(argv, argc, i, "--depth")))
		return opt_number("--depth", v, 16, 0, &o->depth);
	else if ((v = opt_value(argv, argc, i, "--jobs")))
		return opt_number("--jobs", v, CC_MAX_JOBS, 0, &o->jobs);
	else
		return bad_usage("unrecognized option '%s'", a);
	return 0;
}

int cc_parse_args(int argc, char **argv, struct cc_opts *o)
{
	const char *knob = getenv("COPYCHAIN_NO_TMPFILE");
	int i, n = 0, opts_done = 0;

	o->chunk = CC_DEFAULT_CHUNK;
	o->depth = CC_DEFAULT_DEPTH;
	o->jobs = CC_DEFAULT_JOBS;
	o->umask = umask(0);
	umask(o->umask);
	o->no_tmpfile = knob && !strcmp(knob, "1");
	o->progress = isatty(STDERR_FILENO);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (opts_done || a[0] != '-' || !a[1])
			argv[n++] = argv[i];
		else if (!strcmp(a, "--"))
			opts_done = 1;
		else if (parse_one(argc, argv, &i, o))
			return -EINVAL;
	}
	if (o->target && o->no_target_dir)
		return bad_usage("%s", "cannot combine --target-directory (-t) and --no-target-directory (-T)");
	if (o->target && !*o->target)
		return bad_usage("%s", "option '--target-directory' requires an argument");
	if ((unsigned long long)o->jobs * o->depth * o->chunk > CC_MAX_BUFFERS) {
		fprintf(stderr,
			"copychain: --jobs x --depth x --chunk is more than %llu bytes of buffers\n",
			CC_MAX_BUFFERS);
		return -EINVAL;
	}
	return n;
}

int cc_check_operands(const struct cc_opts *o, int n, char **argv)
{
	if (!n)
		bad_usage("%s", "missing file operand");
	else if (n == 1 && !o->target)
		bad_usage("missing destination file operand after '%s'",
			  argv[0]);
	else if (n > 2 && o->no_target_dir)
		bad_usage("extra operand '%s'", argv[2]);
	else
		return 0;
	return 1;
}
