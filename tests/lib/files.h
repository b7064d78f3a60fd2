/* SPDX-License-Identifier: MIT */
/*
 * Files for tests of the apps (header only; needs check.h's macros):
 *
 *   test_gen_file(path, size, mode, rand64)
 *       a file of @size random bytes, 64 bits of them from each rand64()
 *       call, mode @mode (the test's umask aside: fchmod)
 *   test_rm_tree(dir)
 *       remove @dir and all below it (not following links)
 */
#ifndef IOCORO_TESTS_FILES_H
#define IOCORO_TESTS_FILES_H

#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

static inline void test_gen_file(const char *path, size_t size, mode_t mode,
				 uint64_t (*rand64)(void))
{
	static unsigned char buf[64 * 1024];
	size_t left = size;
	int fd;

	fd = CHECK_SYS(open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			    0600));
	while (left) {
		size_t n = left < sizeof(buf) ? left : sizeof(buf), i;

		for (i = 0; i < n; i += 8) {
			uint64_t r = rand64();

			memcpy(buf + i, &r, n - i < 8 ? n - i : 8);
		}
		CHECK_EQ(write(fd, buf, n), (long long)n);
		left -= n;
	}
	CHECK_SYS(fchmod(fd, mode));
	CHECK_SYS(close(fd));
}

static inline int test_rm_one_(const char *path, const struct stat *st,
			       int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static inline void test_rm_tree(const char *dir)
{
	nftw(dir, test_rm_one_, 16, FTW_DEPTH | FTW_PHYS);
}

#endif /* IOCORO_TESTS_FILES_H */
