/* SPDX-License-Identifier: MIT */
/*
 * The first include of a guest test file that needs no suite header of
 * its own: the patched uapi (iocoro.h before liburing.h), libbpf, the
 * system headers the suites use, case.h, check.h, uring_bpf.h and
 * start.h.
 */
#ifndef IOCORO_TESTS_GUEST_H
#define IOCORO_TESTS_GUEST_H

#define _GNU_SOURCE
/* iocoro.h first: liburing's own io_uring.h would hide the patched uapi */
#include <iocoro.h>
#include <liburing.h>

#include <linux/bpf.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "case.h"
#include "check.h"
#include "uring_bpf.h"
#include "start.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#endif
