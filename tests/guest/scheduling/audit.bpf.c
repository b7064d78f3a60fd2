// SPDX-License-Identifier: GPL-2.0
/*
 * The step of audit.c: queues one OPENAT of au_path (a user-space
 * address) with au_oflags and user_data au_ud, counts its runs in au_runs
 */
#include <iocoro/bpf.h>

#define AU_AT_FDCWD -100

__u64 au_path;
__u32 au_oflags;
__u64 au_ud;
__u32 au_runs;
int au_rc;

IOCORO_STEP(au_open)
{
	struct io_uring_sqe sqe;

	au_runs++;
	io_uring_prep_openat(&sqe, AU_AT_FDCWD, (const char *)au_path,
			     (int)au_oflags, 0);
	sqe.user_data = au_ud;
	au_rc = bpf_io_coro_queue_sqe(step, &sqe, sizeof(sqe));
	return 0;
}

SEC(".struct_ops")
struct io_coro_ops au_open_kind = { .step = (void *)au_open };

char LICENSE[] SEC("license") = "GPL";
