// SPDX-License-Identifier: MIT
/* catchain's command line (catchain_opts.h) */
#include "catchain_opts.h"
#include "catchain.h"

#include <errno.h>
#include <string.h>

#include "tool.h"

void cat_usage(FILE *f)
{
	fprintf(f,
		"Usage: catchain [OPTION]... [FILE]...\n"
		"Concatenate FILE(s) to standard output, like cat: each file is opened,\n"
		"read and closed by one in-kernel io_uring coroutine (a BPF program\n"
		"queues every openat, read and close from the result of the one before),\n"
		"many files at once, the output in the order of the arguments.\n"
		"\n"
		"With no FILE, or when FILE is -, read standard input (in user space).\n"
		"\n"
		"  -c, --cksum        print each file's CRC and size as cksum does,\n"
		"                     instead of its contents\n"
		"  -j, --jobs N       files in flight at once (default %u, at most %u)\n"
		"      --chunk BYTES  bytes per read (default 128K, at most 16M; K, M)\n"
		"      --stats        print files, bytes, coroutine steps and the\n"
		"                     io_uring_enter calls made on standard error\n"
		"  -u                 (ignored)\n"
		"  -h, --help         display this help and exit\n"
		"      --version      output version information and exit\n"
		"\n"
		"Exit status 0 if all files were read, 1 if one could not be (or bad\n"
		"usage). Loading the coroutine needs CAP_BPF and CAP_PERFMON.\n",
		CAT_DEFAULT_JOBS, CAT_MAX_JOBS);
}

static int bad_usage(FILE *err)
{
	fprintf(err, "Try 'catchain --help' for more information.\n");
	return -EINVAL;
}

/* the value of --jobs or --chunk into @o; 0 or -EINVAL (reported) */
static int set_value(struct cat_opts *o, const char *name, const char *v,
		     FILE *err)
{
	unsigned long long n;

	if (!strcmp(name, "jobs")) {
		if (tool_parse_size(v, &n) || !n || n > CAT_MAX_JOBS) {
			fprintf(err, "catchain: invalid number of jobs: '%s' (1 to %u)\n",
				v, CAT_MAX_JOBS);
			return bad_usage(err);
		}
		o->jobs = (unsigned int)n;
		return 0;
	}
	if (tool_parse_size(v, &n) || !n || n > CAT_MAX_CHUNK) {
		fprintf(err, "catchain: invalid chunk size: '%s' (1 to %u bytes; K, M)\n",
			v, CAT_MAX_CHUNK);
		return bad_usage(err);
	}
	o->chunk = (uint32_t)n;
	return 0;
}

/* --NAME, --NAME=V, --NAME V; the index of the last argument used */
static int long_opt(int argc, char **argv, int i, struct cat_opts *o,
		    FILE *err)
{
	static const char *const with_value[] = { "jobs", "chunk" };
	const char *a = argv[i] + 2, *eq = strchr(a, '=');
	size_t len = eq ? (size_t)(eq - a) : strlen(a), k;

	for (k = 0; k < 2; k++) {
		if (strlen(with_value[k]) != len || strncmp(a, with_value[k], len))
			continue;
		if (!eq && i + 1 >= argc) {
			fprintf(err, "catchain: option '--%s' requires an argument\n",
				with_value[k]);
			return bad_usage(err);
		}
		if (set_value(o, with_value[k], eq ? eq + 1 : argv[i + 1], err))
			return -EINVAL;
		return eq ? i : i + 1;
	}
	if (eq)
		goto unknown;
	if (!strcmp(a, "cksum"))
		o->cksum = 1;
	else if (!strcmp(a, "stats"))
		o->stats = 1;
	else if (!strcmp(a, "help"))
		o->action = CAT_HELP;
	else if (!strcmp(a, "version"))
		o->action = CAT_VERSION;
	else
		goto unknown;
	return i;
unknown:
	fprintf(err, "catchain: unrecognized option '%s'\n", argv[i]);
	return bad_usage(err);
}

/* -cu, -j N, -jN; the index of the last argument used */
static int short_opts(int argc, char **argv, int i, struct cat_opts *o,
		      FILE *err)
{
	const char *p;

	for (p = argv[i] + 1; *p; p++) {
		switch (*p) {
		case 'c':
			o->cksum = 1;
			break;
		case 'u':
			break;
		case 'h':
			o->action = CAT_HELP;
			break;
		case 'j':
			if (p[1])
				return set_value(o, "jobs", p + 1, err) ? -EINVAL : i;
			if (i + 1 >= argc) {
				fprintf(err, "catchain: option requires an argument -- 'j'\n");
				return bad_usage(err);
			}
			return set_value(o, "jobs", argv[i + 1], err) ? -EINVAL : i + 1;
		default:
			fprintf(err, "catchain: invalid option -- '%c'\n", *p);
			return bad_usage(err);
		}
	}
	return i;
}

int cat_parse_args(int argc, char **argv, struct cat_opts *o, FILE *err)
{
	int i, n = 0, opts_done = 0;

	memset(o, 0, sizeof(*o));
	o->jobs = CAT_DEFAULT_JOBS;
	o->chunk = CAT_DEFAULT_CHUNK;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (opts_done || a[0] != '-' || !a[1]) {
			argv[n++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			opts_done = 1;
			continue;
		}
		i = a[1] == '-' ? long_opt(argc, argv, i, o, err)
				: short_opts(argc, argv, i, o, err);
		if (i < 0)
			return -EINVAL;
	}
	return n;
}
