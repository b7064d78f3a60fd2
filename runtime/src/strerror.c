// SPDX-License-Identifier: (LGPL-2.1 OR MIT)
/* iocoro_strerror(): errors in iocoro's terms. */
#define _GNU_SOURCE
#include <string.h>

#include "internal.h"

const char *iocoro_strerror(int err)
{
	const char *s;

	if (err < 0)
		err = -err;
	switch (err) {
	case 0:
		return "Success";
	case EOPNOTSUPP:
		return "the running kernel lacks IORING_OP_BPF (iocoro's io_uring "
		       "BPF series, kernel/patches/): boot the patched kernel, "
		       "which kernel/build.sh builds and scripts/run-main.sh "
		       "(or scripts/test.sh) runs in QEMU";
	case ELOOP:
		return "the coroutine's step budget is spent "
		       "(iocoro_set_budget(), IORING_REGISTER_BPF_BUDGET)";
	case ENXIO:
		return "no BPF program table is attached to the ring "
		       "(iocoro_attach())";
	case EBADF:
		return "bad file descriptor, or no program at that index of the "
		       "ring's table (out of range, a hole, or detached)";
	case EBUSY:
		return "busy: a program table is attached already "
		       "(iocoro_detach() first), the SQ ring is full, or a "
		       "program run queued more than 32 SQEs";
	case EPERM:
		return "operation not permitted: loading and attaching BPF "
		       "programs needs CAP_BPF (or CAP_SYS_ADMIN)";
	case EINVAL:
		return "invalid argument (IORING_OP_BPF cannot run on rings set "
		       "up with IORING_SETUP_SQPOLL, IORING_SETUP_IOPOLL or "
		       "IORING_SETUP_SQE128)";
	case ENOENT:
		return "not found: no SEC(\"iouring\") program in the object, or "
		       "no such file or map entry";
	case EACCES:
		return "permission denied, or the verifier refused the program "
		       "(its log is in iocoro_load_opts.log_buf)";
	case ENOSPC:
		return "no space: the verifier log did not fit its buffer, or "
		       "the device is full";
	case ENOMSG:
		return "the next CQE is not a coroutine's: reap it with liburing";
	case ETIME:
		return "timed out waiting for a completion";
	case ECANCELED:
		return "canceled: the coroutine's task was killed or its ring is "
		       "going away";
	case E2BIG:
		return "too big: more programs than a table holds (64), or a key "
		       "out of the map";
	}
	s = strerrordesc_np(err);
	return s ? s : "unknown error";
}
