/* SPDX-License-Identifier: MIT */
/*
 * The review suite (tests/lib/case.h): one file per finding of the review
 * of kernel series v4 (issue 21, section 3), each a case that failed on v4:
 *
 *   tailcall.c   1: a non-sleepable program tail-calls a sleepable one
 *
 * A finding whose programs are its own keeps them beside it (x.c and
 * x.bpf.c, x.skel.h). The first include of every file of the suite.
 */
#ifndef IOCORO_TESTS_REVIEW_H
#define IOCORO_TESTS_REVIEW_H

#define _GNU_SOURCE
#include <linux/io_uring.h> /* before liburing.h: the patched uapi wins */
#include <liburing.h>

#include <linux/bpf.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "case.h"
#include "check.h"
#include "uring_bpf.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
