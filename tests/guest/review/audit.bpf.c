// SPDX-License-Identifier: GPL-2.0
/*
 * The program of audit.c: queues one OPENAT of au_path (a user-space
 * address) with au_oflags and user_data au_ud, counts its runs in au_runs
 */
#include <iocoro/bpf.h>

#define AU_AT_FDCWD -100

__u64 au_path;
__u32 au_oflags;
__u64 au_ud;
__u32 au_runs;
long au_rc;

SEC("iouring")
int au_open(struct io_uring_step_ctx *ctx)
{
	struct io_uring_sqe sqe;

	au_runs++;
	io_uring_prep_openat(&sqe, AU_AT_FDCWD, (const char *)au_path,
			     (int)au_oflags, 0);
	sqe.user_data = au_ud;
	au_rc = bpf_io_uring_queue_sqe(ctx, &sqe, sizeof(sqe));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
