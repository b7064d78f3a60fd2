/* SPDX-License-Identifier: MIT */
/*
 * The kernel's slab, for guest tests that count requests (header only;
 * needs check.h's macros):
 *
 *   test_kiocb_objects()
 *       the io_kiocb objects in use (/proc/slabinfo, CONFIG_SLUB_DEBUG)
 */
#ifndef IOCORO_TESTS_SLAB_H
#define IOCORO_TESTS_SLAB_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/*
 * The active io_kiocb objects of /proc/slabinfo, once the cache was shrunk:
 * SLUB counts the free objects of per-cpu slabs as active otherwise.
 */
static inline long test_kiocb_objects(void)
{
	int fd = open("/sys/kernel/slab/io_kiocb/shrink", O_WRONLY | O_CLOEXEC);
	char line[512];
	long n = -1;
	FILE *f;

	if (fd < 0 || write(fd, "1", 1) != 1)
		FAIL("/sys/kernel/slab/io_kiocb/shrink: %s", strerror(errno));
	close(fd);
	f = fopen("/proc/slabinfo", "re");

	if (!f)
		FAIL("/proc/slabinfo: %s (CONFIG_SLUB_DEBUG)", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "io_kiocb ", 9) &&
		    sscanf(line + 9, "%ld", &n) == 1)
			break;
	}
	fclose(f);
	if (n < 0)
		FAIL("/proc/slabinfo has no io_kiocb line");
	return n;
}

#endif
