/* SPDX-License-Identifier: MIT */
/*
 * io_uring completion results as text, for test and tool diagnostics.
 *
 * All formatters follow snprintf(): they write at most len bytes including
 * the terminating NUL (always written when len > 0) and return the length
 * the full text has, so a return value >= len means it was truncated.
 */
#ifndef IOCORO_TESTS_CQE_STR_H
#define IOCORO_TESTS_CQE_STR_H

#include <stddef.h>
#include <stdint.h>

struct io_uring_cqe;

/* Enough for any iocoro_cqe_str() output. */
#define IOCORO_CQE_STR_MAX 256

/* "ENOENT" for 2 (or -2); NULL if the number has no name. */
const char *iocoro_errno_name(int err);

/*
 * A CQE res: "0", "4096", or for a negative errno
 * "-2 (ENOENT: No such file or directory)"; "-4000 (unknown errno)".
 */
int iocoro_res_str(char *buf, size_t len, int32_t res);

/*
 * CQE flags: "0", or the known bits joined by '|', the buffer id with
 * F_BUFFER, and any other bits in hex: "F_BUFFER(bid=3)|F_MORE|0x400".
 */
int iocoro_cqe_flags_str(char *buf, size_t len, uint32_t flags);

/* "user_data=0x2a res=-2 (ENOENT: No such file or directory) flags=F_MORE" */
int iocoro_cqe_fields_str(char *buf, size_t len, uint64_t user_data,
			  int32_t res, uint32_t flags);
int iocoro_cqe_str(char *buf, size_t len, const struct io_uring_cqe *cqe);

#endif
