/* SPDX-License-Identifier: MIT */
/*
 * catchain's command line, apart from the rest so that the host unit
 * test (tests/catchain_opts_test.c) can run it.
 */
#ifndef CATCHAIN_OPTS_H
#define CATCHAIN_OPTS_H

#include <stdint.h>
#include <stdio.h>

#define CAT_DEFAULT_JOBS	32
#define CAT_DEFAULT_CHUNK	(128U << 10)	/* cat's buffer size */
#define CAT_MAX_CHUNK		(16U << 20)

enum cat_action {
	CAT_RUN,
	CAT_HELP,	/* --help: print cat_usage(stdout), exit 0 */
	CAT_VERSION,	/* --version */
};

struct cat_opts {
	enum cat_action action;
	int cksum;		/* -c, --cksum: cksum's CRC and size per file */
	int stats;		/* --stats */
	unsigned int jobs;	/* -j, --jobs: files in flight */
	uint32_t chunk;		/* --chunk: bytes per read */
};

/*
 * Parse argv into @o; the operands (FILE...) are moved to the front of
 * argv. Returns their count (0: stdin), or -EINVAL after a message in
 * cat's words on @err (bad usage: exit status 1, as cat's).
 */
int cat_parse_args(int argc, char **argv, struct cat_opts *o, FILE *err);

void cat_usage(FILE *f);

#endif /* CATCHAIN_OPTS_H */
