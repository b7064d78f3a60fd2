// SPDX-License-Identifier: MIT
/*
 * The names copychain gives its copies: an unnamed copy linked to DST, or
 * over an existing DST by way of a temporary name; the named fallback
 * (--no-tmpfile) written to DST.XXXXXX. A signal that ends copychain
 * removes the temporary names that live at that moment.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cc_names.h"

/*
 * Temporary names that a signal removes while they live: one a job (the
 * named fallback) and one for the moment a commit links over DST.
 */
static char tmp_names[CC_MAX_JOBS + 1][CC_TMP_NAME_MAX];
static volatile sig_atomic_t tmp_live[CC_MAX_JOBS + 1];
#define CC_COMMIT_SLOT CC_MAX_JOBS

static void on_signal(int sig)
{
	int i;

	for (i = 0; i <= CC_MAX_JOBS; i++)
		if (tmp_live[i])
			unlink(tmp_names[i]);
	/* the signal is blocked in here: it kills us once we return */
	signal(sig, SIG_DFL);
	raise(sig);
}

static const int cc_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

/* a signal that ends us removes the live tmp_names */
static void arm_signals(sigset_t *block)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(block);
	for (i = 0; i < sizeof(cc_signals) / sizeof(cc_signals[0]); i++) {
		sigaction(cc_signals[i], &sa, NULL);
		sigaddset(block, cc_signals[i]);
	}
}

void cc_drop_tmp(unsigned int slot)
{
	if (tmp_live[slot]) {
		unlink(tmp_names[slot]);
		tmp_live[slot] = 0;
	}
}

char *cc_tmp_name(unsigned int slot)
{
	return tmp_names[slot];
}

void cc_tmp_forget(unsigned int slot)
{
	tmp_live[slot] = 0;
}

/* the named fallback: DST.XXXXXX, mode 0600, for the coroutine to open */
int cc_make_named(const char *dst, unsigned int slot)
{
	sigset_t block, old;
	int fd, err;

	arm_signals(&block);
	snprintf(tmp_names[slot], sizeof(tmp_names[slot]), "%s.XXXXXX", dst);
	sigprocmask(SIG_BLOCK, &block, &old);
	fd = mkostemp(tmp_names[slot], O_CLOEXEC);
	if (fd >= 0)
		tmp_live[slot] = 1;
	err = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		fprintf(stderr,
			"copychain: cannot create regular file '%s': %s\n",
			tmp_names[slot], strerror(err));
		return -1;
	}
	close(fd);
	return 0;
}

/* linkat(AT_EMPTY_PATH) here: 0 not tried yet, 1 it works, -1 it does not */
static int empty_path_works;

/*
 * Give the unnamed @fd the name @name: AT_EMPTY_PATH, which needs
 * CAP_DAC_READ_SEARCH and walks no path; else /proc/self/fd and
 * AT_SYMLINK_FOLLOW, which needs no capability. Without the capability
 * AT_EMPTY_PATH fails with ENOENT: once /proc then works, it is not
 * tried again.
 */
int cc_link_fd(int fd, const char *name)
{
	char proc[64];

	if (empty_path_works >= 0) {
		if (!linkat(fd, "", AT_FDCWD, name, AT_EMPTY_PATH)) {
			empty_path_works = 1;
			return 0;
		}
		/* any other error is the new name's: /proc would give it */
		if (errno != ENOENT || empty_path_works > 0)
			return -errno;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW))
		return -errno;
	empty_path_works = -1;
	return 0;
}

/*
 * Over an existing DST: link the unnamed file to a fresh DST.ccXXXXXX
 * (removed by a signal in the moment it lives), then rename it over DST
 */
int cc_link_replace(int fd, const char *dst)
{
	char *name = tmp_names[CC_COMMIT_SLOT];
	sigset_t block, old;
	unsigned int tries;
	int err = -EEXIST;

	arm_signals(&block);
	for (tries = 0; tries < 100 && err == -EEXIST; tries++) {
		snprintf(name, sizeof(tmp_names[0]), "%s.cc%06lx", dst,
			 ((unsigned long)getpid() * 2654435761UL + tries +
			  (unsigned long)time(NULL)) & 0xffffff);
		sigprocmask(SIG_BLOCK, &block, &old);
		err = cc_link_fd(fd, name);
		tmp_live[CC_COMMIT_SLOT] = !err;
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (!err && rename(name, dst))
		err = -errno;
	cc_drop_tmp(CC_COMMIT_SLOT);
	return err;
}
