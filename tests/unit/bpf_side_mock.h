/* SPDX-License-Identifier: MIT */
/*
 * The BPF helpers bpf-lib's headers call, as mocks that record into bm
 * (bpf_side.h), for the translation units that build those headers for
 * the host (bpf_side.c, bpf_side_debug.c). Each unit gives its own
 * bpf_map_lookup_elem(). Include before <iocoro/bpf_prep.h>.
 */
#ifndef IOCORO_TESTS_BPF_SIDE_MOCK_H
#define IOCORO_TESTS_BPF_SIDE_MOCK_H

#include <errno.h>
#include <string.h>

#include "bpf_side.h"

/* what <bpf/bpf_helpers.h> and the generated header would give */
#define SEC(name)
#define IOCORO_BPF_IO_URING_HELPERS_H

static long mock_queue(const void *sqe, __u32 len, int prog)
{
	unsigned int i = bm.nr_queued;

	if (i >= 8)
		return -E2BIG;
	memcpy(&bm.queued[i], sqe, sizeof(bm.queued[i]));
	bm.queued_len[i] = len;
	bm.queued_prog[i] = prog;
	bm.nr_queued++;
	return bm.queue_ret[i];
}

static long bpf_io_uring_queue_sqe(void *ctx, const void *sqe, __u32 len)
{
	(void)ctx;
	return mock_queue(sqe, len, -1);
}

static long bpf_io_uring_queue_sqe_cont(void *ctx, const void *sqe,
					__u32 len, __u32 prog)
{
	(void)ctx;
	return mock_queue(sqe, len, (int)prog);
}

static long bpf_io_uring_post_result(void *ctx, __u64 user_data)
{
	(void)ctx;
	bm.nr_posted++;
	bm.post_user_data = user_data;
	return 0;
}

static void *bpf_map_lookup_elem(void *map, const void *key);

#endif
