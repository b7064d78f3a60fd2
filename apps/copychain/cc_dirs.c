// SPDX-License-Identifier: MIT
/*
 * The directories at the end of a copy (cc_plan.h): --sync's fsync of
 * the directories the copies were named in, and the modes and times of
 * the directories -r created, set once they are full.
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

void cc_dirs_add(struct cc_dirs *dirs, const char *dir)
{
	char *p;

	/* files of one directory come one after the other */
	if (dirs->n && !strcmp(dirs->v[dirs->n - 1], dir))
		return;
	p = strdup(dir);
	if (!p || cc_grow((void **)&dirs->v, &dirs->cap, dirs->n, sizeof(*dirs->v))) {
		free(p);
		return;		/* only the fsync of that directory is lost */
	}
	dirs->v[dirs->n++] = p;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* --sync: fsync each directory once, the new names are durable */
static void sync_dirs(struct cc_dirs *dirs)
{
	size_t i;
	int fd;

	if (!dirs->n)
		return;
	qsort(dirs->v, dirs->n, sizeof(*dirs->v), cmp_str);
	for (i = 0; i < dirs->n; i++) {
		if (i && !strcmp(dirs->v[i], dirs->v[i - 1]))
			continue;
		fd = open(dirs->v[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0 || fsync(fd))
			fprintf(stderr,
				"copychain: warning: %s: fsync of the directory: %s\n",
				dirs->v[i], strerror(errno));
		if (fd >= 0)
			close(fd);
	}
}

static void free_dirs(struct cc_dirs *dirs)
{
	size_t i;

	for (i = 0; i < dirs->n; i++)
		free(dirs->v[i]);
	free(dirs->v);
	memset(dirs, 0, sizeof(*dirs));
}

int cc_finish_dirs(const struct cc_opts *o, struct cc_plan *plan,
		   struct cc_dirs *synced)
{
	size_t i;
	int rc = 0;

	if (o->sync)
		sync_dirs(synced);
	free_dirs(synced);
	/* the deepest first: a parent's mode may keep its children closed */
	for (i = plan->ndirs; i > 0; i--) {
		const struct cc_newdir *nd = &plan->dirs[i - 1];

		if ((nd->set_mode && chmod(nd->path, nd->mode)) ||
		    (nd->set_times &&
		     utimensat(AT_FDCWD, nd->path, nd->times, 0))) {
			fprintf(stderr,
				"copychain: preserving permissions for '%s': %s\n",
				nd->path, strerror(errno));
			rc = 1;
		}
	}
	return rc;
}
