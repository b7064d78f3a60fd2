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
		return "The running kernel lacks IORING_OP_BPF: run on a kernel "
		       "with iocoro's io_uring BPF series applied (its source "
		       "tree builds one and boots it in QEMU)";
	case ELOOP:
		return "The coroutine's step budget is spent "
		       "(iocoro_set_budget())";
	case ENXIO:
		return "No such device or address (iocoro: iocoro_attach() "
		       "attached no kinds to the ring)";
	case EBADF:
		return "Bad file descriptor (iocoro: or no step is attached as "
		       "that kind of the ring: never attached, a hole, or "
		       "detached)";
	case EBUSY:
		return "Device or resource busy (iocoro: iocoro_attach() "
		       "attached kinds already or a kind is taken, the SQ ring "
		       "is full, or a step queued "
		       "more SQEs than IOCORO_MAX_QUEUED_SQES, or posted more "
		       "CQEs than IOCORO_MAX_EMITTED_CQES)";
	case EPERM:
		return "Operation not permitted (iocoro: loading steps needs "
		       "CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN), attaching "
		       "them CAP_BPF; starting coroutines at another user's "
		       "kind needs CAP_BPF too)";
	case EINVAL:
		return "Invalid argument (iocoro: loading, the verifier refused "
		       "a program, see iocoro_load_opts.log_buf; setting up a "
		       "ring, IORING_OP_BPF cannot run with SQPOLL, IOPOLL, "
		       "SQE128 or CQE32)";
	case EACCES:
		return "Permission denied (iocoro: or the verifier refused the "
		       "program; its log is in iocoro_load_opts.log_buf)";
	case ENOSPC:
		return "No space left on device (iocoro: loading, the verifier "
		       "log did not fit iocoro_load_opts.log_size; its last "
		       "lines hold the reason)";
	case ENOMSG:
		return "No message of desired type (iocoro: the next CQE is not "
		       "a coroutine's; reap it with liburing)";
	case ETIME:
		return "Timer expired (iocoro: no coroutine ended in time)";
	case ECANCELED:
		return "Operation canceled (iocoro: iocoro_cancel(), or the "
		       "coroutine's task was killed or its ring is going away)";
	case EPROTO:
		return "Protocol error (iocoro: built with IOCORO_DEBUG, a step "
		       "returned >= 0 without awaiting, spawning, finishing or "
		       "iocoro_leave(): without the check the coroutine would "
		       "have ended with no CQE)";
	case E2BIG:
		return "Argument list too long (iocoro: more steps than "
		       "iocoro_attach() takes, IOCORO_MAX_PROGS, or a key out "
		       "of the map)";
	}
	s = strerrordesc_np(err);
	return s ? s : "unknown error";
}
