/* SPDX-License-Identifier: MIT */
/*
 * What the translation units that build bpf-lib's headers for the host
 * (bpf_side.c, bpf_side_debug.c) need besides those headers: libbpf's
 * SEC(), and bpf_map_lookup_elem(), which each unit gives itself. The
 * kfuncs the headers call (bpf_io_coro_*(), declared by
 * <iocoro/coro_ops.h> as plain functions off BPF) are mocks defined once,
 * in bpf_side.c, that record into bm (bpf_side.h). Include before
 * <iocoro/bpf_prep.h>.
 */
#ifndef IOCORO_TESTS_BPF_SIDE_MOCK_H
#define IOCORO_TESTS_BPF_SIDE_MOCK_H

#include <errno.h>
#include <string.h>

#include "bpf_side.h"

/* what <bpf/bpf_helpers.h> would give */
#define SEC(name)

static void *bpf_map_lookup_elem(void *map, const void *key);

#endif
