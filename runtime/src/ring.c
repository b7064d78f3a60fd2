// SPDX-License-Identifier: (LGPL-2.1 OR MIT)
/*
 * Rings and their program tables: kernel support probe, ring setup,
 * IORING_ATTACH_BPF, IORING_DETACH_BPF, IORING_REGISTER_BPF_BUDGET.
 */
#include <string.h>
#include <unistd.h>

#include "internal.h"

int iocoro__probe_fd(int ring_fd)
{
	/*
	 * On a ring without a table, only the series answers
	 * IORING_DETACH_BPF with -ENXIO: a kernel without it answers the
	 * opcode (129, past the numbers later kernels take) with -EINVAL.
	 * An opcode probe would tell only as long as no kernel gives
	 * IORING_OP_BPF's number (128) a meaning of its own; the series'
	 * 4.x versions used 58, which 6.15 gave to IORING_OP_RECV_ZC.
	 */
	int ret = io_uring_register(ring_fd, IORING_DETACH_BPF, NULL, 0);

	return ret == -ENXIO || ret == 0 ? 0 : -EOPNOTSUPP;
}

int iocoro_probe(void)
{
	IOCORO_ERRNO_SAVE;
	struct io_uring_params p;
	int fd, ret;

	memset(&p, 0, sizeof(p));
	fd = io_uring_setup(1, &p);
	if (fd < 0)
		return IOCORO_ERRNO_RESTORE(fd);
	ret = iocoro__probe_fd(fd);
	close(fd);
	return IOCORO_ERRNO_RESTORE(ret);
}

int iocoro__unsupported_or(const struct iocoro *co, int err)
{
	/* a kernel without the series did not run our operation at all */
	if (err < 0 && !(co && (co->flags & IOCORO_F_PROBED)) &&
	    iocoro_probe() == -EOPNOTSUPP)
		return -EOPNOTSUPP;
	return err;
}

int iocoro_queue_init_params(unsigned int entries, struct iocoro *co,
			     struct io_uring_params *p)
{
	int ret;

	if (!co || !p)
		return -EINVAL;
	memset(co, 0, sizeof(*co));
	if (p->flags & IOCORO_SETUP_UNUSABLE)
		return -EINVAL;
	p->flags |= IOCORO_SETUP_FLAGS;

	ret = io_uring_queue_init_params(entries, &co->ring, p);
	if (ret < 0) {
		/* kernels too old for the flags lack the series too */
		if (ret == -EINVAL)
			ret = iocoro__unsupported_or(NULL, ret);
		memset(co, 0, sizeof(*co));
		return ret;
	}
	ret = iocoro__probe_fd(co->ring.ring_fd);
	if (ret < 0) {
		io_uring_queue_exit(&co->ring);
		memset(co, 0, sizeof(*co));
		return ret;
	}
	co->features = p->features;
	co->flags = IOCORO_F_PROBED;
	return 0;
}

int iocoro_queue_init(unsigned int entries, struct iocoro *co,
		      unsigned int flags)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	return iocoro_queue_init_params(entries, co, &p);
}

void iocoro_queue_exit(struct iocoro *co)
{
	if (!co)
		return;
	io_uring_queue_exit(&co->ring);
	memset(co, 0, sizeof(*co));
}

int iocoro_attach(struct iocoro *co, const int *prog_fds, unsigned int nr)
{
	int ret;

	if (!co || !prog_fds || !nr || nr > IOCORO_MAX_PROGS)
		return -EINVAL;
	ret = io_uring_register(co->ring.ring_fd, IORING_ATTACH_BPF, prog_fds,
				nr);
	if (ret < 0)
		return iocoro__unsupported_or(co, ret);
	co->nr_progs = nr;
	co->budget = 0;
	return 0;
}

int iocoro_detach(struct iocoro *co)
{
	int ret;

	if (!co)
		return -EINVAL;
	ret = io_uring_register(co->ring.ring_fd, IORING_DETACH_BPF, NULL, 0);
	if (ret < 0)
		return iocoro__unsupported_or(co, ret);
	co->nr_progs = 0;
	co->budget = 0;
	return 0;
}

int iocoro_set_budget(struct iocoro *co, unsigned int steps)
{
	int ret;

	if (!co || !steps || steps > IOCORO_MAX_BUDGET)
		return -EINVAL;
	ret = io_uring_register(co->ring.ring_fd, IORING_REGISTER_BPF_BUDGET,
				NULL, steps);
	if (ret < 0)
		return iocoro__unsupported_or(co, ret);
	co->budget = steps;
	return 0;
}
