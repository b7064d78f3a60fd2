/* SPDX-License-Identifier: MIT */
/*
 * The names copychain gives its copies (cc_names.c): temporary names, one
 * a job slot and one for the commit over an existing DST, that a signal
 * ending copychain removes while they live.
 */
#ifndef CC_NAMES_H
#define CC_NAMES_H

#include <limits.h>

#include "cc_plan.h"	/* CC_MAX_JOBS */

/* the size of a temporary name: DST and a suffix */
#define CC_TMP_NAME_MAX (PATH_MAX + 16)

/* job slot @slot's temporary name (the named fallback) */
char *cc_tmp_name(unsigned int slot);
/* the temporary name of @slot was renamed: nothing left to remove */
void cc_tmp_forget(unsigned int slot);
/* remove @slot's temporary name if it lives */
void cc_drop_tmp(unsigned int slot);

/*
 * The named fallback of job slot @slot: DST.XXXXXX, mode 0600, created
 * for the coroutine to open (cc_tmp_name(@slot)). 0, or -1 (reported).
 */
int cc_make_named(const char *dst, unsigned int slot);

/* give the unnamed @fd the name @name: 0 or -errno (-EEXIST) */
int cc_link_fd(int fd, const char *name);
/* give the unnamed @fd the name of the existing @dst: 0 or -errno */
int cc_link_replace(int fd, const char *dst);

#endif /* CC_NAMES_H */
