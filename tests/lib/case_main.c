// SPDX-License-Identifier: MIT
/*
 * The main() of every suite of self-registering cases (case.h): the
 * IOCORO_CASE() pointers are in the section iocoro_cases, whose bounds the
 * linker provides.
 */
#define _GNU_SOURCE
#include "case.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

extern const struct iocoro_case *const __start_iocoro_cases[]
	__attribute__((weak));
extern const struct iocoro_case *const __stop_iocoro_cases[]
	__attribute__((weak));

static const char *running;

const char *iocoro_case_name(void)
{
	return running;
}

static void list_cases(void)
{
	const struct iocoro_case *const *c;

	for (c = __start_iocoro_cases; c < __stop_iocoro_cases; c++) {
		printf("%s", (*c)->name);
		if ((*c)->timeout)
			printf(" timeout=%u", (*c)->timeout);
		if ((*c)->serial)
			printf(" serial");
		if ((*c)->host)
			printf(" host");
		putchar('\n');
	}
}

static const struct iocoro_case *find_case(const char *name)
{
	const struct iocoro_case *const *c;

	for (c = __start_iocoro_cases; c < __stop_iocoro_cases; c++)
		if (!strcmp((*c)->name, name))
			return *c;
	return NULL;
}

static int usage(void)
{
	fprintf(stderr, "usage: %s CASE%s | --list\n",
		program_invocation_short_name,
		iocoro_suite_setup ? " [ARG...]" : "");
	return 2;
}

int main(int argc, char **argv)
{
	const struct iocoro_case *c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2 || (argc > 2 && !iocoro_suite_setup))
		return usage();
	if (!strcmp(argv[1], "--list") && argc == 2) {
		list_cases();
		return 0;
	}
	if (argv[1][0] == '-')
		return usage();
	c = find_case(argv[1]);
	if (!c) {
		fprintf(stderr, "%s: no case '%s' (--list shows them)\n",
			program_invocation_short_name, argv[1]);
		return 2;
	}
	running = c->name;
	if (iocoro_suite_setup)
		iocoro_suite_setup(argc - 2, argv + 2);
	c->fn();
	if (iocoro_suite_teardown)
		iocoro_suite_teardown();
	printf("%s: ok\n", c->name);
	return 0;
}
