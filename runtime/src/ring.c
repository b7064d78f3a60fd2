// SPDX-License-Identifier: (LGPL-2.1 OR MIT)
/*
 * Rings and their kinds: kernel support probe, ring setup, the kinds
 * iocoro_attach() links to a ring, the budget of the coroutines it starts.
 */
#include <string.h>
#include <unistd.h>

#include "internal.h"

int iocoro__probe_fd(int ring_fd)
{
	/*
	 * IORING_REGISTER_PROBE: the series' IORING_OP_BPF (128) is
	 * supported. A kernel without the series knows no opcode that far
	 * (upstream's own end below 64), and one built without BPF probes
	 * the opcode as unsupported.
	 */
	union {
		struct io_uring_probe probe;
		__u8 bytes[sizeof(struct io_uring_probe) +
			   (IORING_OP_BPF + 1) * sizeof(struct io_uring_probe_op)];
	} p;
	int ret;

	memset(&p, 0, sizeof(p));
	ret = io_uring_register(ring_fd, IORING_REGISTER_PROBE, &p.probe,
				IORING_OP_BPF + 1);
	if (ret < 0)
		return ret;
	if (p.probe.last_op < IORING_OP_BPF ||
	    !(p.probe.ops[IORING_OP_BPF].flags & IO_URING_OP_SUPPORTED))
		return -EOPNOTSUPP;
	return 0;
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

/* close links[0..nr) of @co (-1 entries are holes) */
static void close_links(struct iocoro *co, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (co->links[i] >= 0)
			close(co->links[i]);
		co->links[i] = -1;
	}
}

void iocoro_queue_exit(struct iocoro *co)
{
	IOCORO_ERRNO_SAVE;

	if (!co)
		return;
	/* the kinds go first: nothing new runs on a ring that is going */
	close_links(co, co->nr_progs);
	io_uring_queue_exit(&co->ring);
	memset(co, 0, sizeof(*co));
	IOCORO_ERRNO_RESTORE(0);
}

int iocoro_attach(struct iocoro *co, const int *prog_fds, unsigned int nr)
{
	IOCORO_ERRNO_SAVE;
	unsigned int i;
	int ret;

	if (!co || !prog_fds || !nr || nr > IOCORO_MAX_PROGS)
		return -EINVAL;
	if (co->nr_progs)
		return -EBUSY;
	for (i = 0; i < nr; i++) {
		co->links[i] = -1;
		if (prog_fds[i] < 0)
			continue;
		ret = iocoro__kind_link(co->ring.ring_fd, prog_fds[i], i);
		if (ret < 0)
			goto fail;
		co->links[i] = ret;
	}
	co->nr_progs = nr;
	return IOCORO_ERRNO_RESTORE(0);
fail:
	close_links(co, i);
	return IOCORO_ERRNO_RESTORE(iocoro__unsupported_or(co, ret));
}

int iocoro_detach(struct iocoro *co)
{
	IOCORO_ERRNO_SAVE;

	if (!co)
		return -EINVAL;
	if (!co->nr_progs)
		return -ENXIO;
	close_links(co, co->nr_progs);
	co->nr_progs = 0;
	return IOCORO_ERRNO_RESTORE(0);
}

int iocoro_set_budget(struct iocoro *co, unsigned int steps)
{
	if (!co || !steps || steps > IOCORO_MAX_BUDGET)
		return -EINVAL;
	co->budget = steps;
	return 0;
}
