// SPDX-License-Identifier: MIT
/* The fake kernel of fake.h. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "fake.h"

struct fake fk;

int __real_bpf_program__fd(const struct bpf_program *prog);
int __real_bpf_program__set_flags(struct bpf_program *prog, __u32 flags);

bool fake_link_open(unsigned int i)
{
	return i < fk.nr_links && !fk.links[i].reused &&
	       fcntl(fk.links[i].fd, F_GETFD) != -1;
}

unsigned int fake_links_open(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < fk.nr_links; i++)
		n += fake_link_open(i);
	return n;
}

void fake_reset(void)
{
	unsigned int i;

	/* what a test left open goes with it */
	for (i = 0; i < fk.nr_links; i++)
		if (fake_link_open(i))
			close(fk.links[i].fd);
	memset(&fk, 0, sizeof(fk));
	fk.last_probe_fd = -1;
}

void fake_post_cqe(__u64 user_data, __s32 res, __u32 flags)
{
	struct io_uring_cqe *cqe = &fk.cqes[fk.cq_tail & fk.cq_mask];

	cqe->user_data = user_data;
	cqe->res = res;
	cqe->flags = flags;
	fk.cq_tail++;
}

unsigned int fake_cq_pending(void)
{
	return fk.cq_tail - fk.cq_head;
}

bool fake_probe_fd_open(void)
{
	return fk.last_probe_fd >= 0 && fcntl(fk.last_probe_fd, F_GETFD) != -1;
}

/* ---------------------------------------------------------- liburing */

int __wrap_io_uring_setup(unsigned int entries, struct io_uring_params *p)
{
	(void)entries;
	(void)p;
	fk.nr_setup++;
	if (fk.setup_err)
		return fk.setup_err;
	fk.last_probe_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	return fk.last_probe_fd;
}

int __wrap_io_uring_queue_init_params(unsigned int entries,
				      struct io_uring *ring,
				      struct io_uring_params *p)
{
	unsigned int n = 1;

	fk.nr_init++;
	fk.init_entries = entries;
	fk.init_params = *p;
	if (fk.init_err)
		return fk.init_err;
	if (fk.old_kernel && (p->flags & (IORING_SETUP_SUBMIT_ALL |
					  IORING_SETUP_COOP_TASKRUN)))
		return -EINVAL;

	while (n < entries)
		n <<= 1;
	if (n > FAKE_SQ_MAX)
		return -EINVAL;

	memset(ring, 0, sizeof(*ring));
	fk.sq_mask = n - 1;
	fk.sq_entries = n;
	fk.cq_mask = 2 * n - 1;
	fk.cq_entries = 2 * n;
	ring->sq.khead = &fk.sq_head;
	ring->sq.ktail = &fk.sq_tail;
	ring->sq.kring_mask = &fk.sq_mask;
	ring->sq.kring_entries = &fk.sq_entries;
	ring->sq.kflags = &fk.sq_flags;
	ring->sq.kdropped = &fk.sq_dropped;
	ring->sq.array = fk.sq_array;
	ring->sq.sqes = fk.sqes;
	ring->sq.ring_mask = fk.sq_mask;
	ring->sq.ring_entries = fk.sq_entries;
	ring->cq.khead = &fk.cq_head;
	ring->cq.ktail = &fk.cq_tail;
	ring->cq.kring_mask = &fk.cq_mask;
	ring->cq.kring_entries = &fk.cq_entries;
	ring->cq.kflags = &fk.cq_flags;
	ring->cq.koverflow = &fk.cq_overflow;
	ring->cq.cqes = fk.cqes;
	ring->cq.ring_mask = fk.cq_mask;
	ring->cq.ring_entries = fk.cq_entries;
	ring->flags = p->flags;
	ring->ring_fd = FAKE_RING_FD;
	ring->enter_ring_fd = FAKE_RING_FD;
	p->features = IORING_FEAT_NODROP | IORING_FEAT_EXT_ARG;
	ring->features = p->features;
	return 0;
}

void __wrap_io_uring_queue_exit(struct io_uring *ring)
{
	(void)ring;
	fk.nr_exit++;
	fk.links_open_at_exit = fake_links_open();
}

void fake_inflight(__u64 user_data)
{
	if (fk.nr_inflight < FAKE_INFLIGHT_MAX)
		fk.inflight[fk.nr_inflight++] = user_data;
}

/*
 * By user_data only: with IORING_ASYNC_CANCEL_ALL, the number cancelled;
 * without, 0 or -ENOENT. Each cancelled request posts -ECANCELED.
 */
static int fake_sync_cancel(const void *arg, unsigned int nr)
{
	const struct io_uring_sync_cancel_reg *reg = arg;
	unsigned int i = 0;
	int n = 0;

	fk.nr_sync_cancel++;
	if (!reg || nr != 1)
		return -EINVAL;
	fk.sync_cancel_flags = reg->flags;
	while (i < fk.nr_inflight) {
		if (fk.inflight[i] != reg->addr) {
			i++;
			continue;
		}
		fake_post_cqe(reg->addr, -ECANCELED, 0);
		fk.inflight[i] = fk.inflight[--fk.nr_inflight];
		n++;
		if (!(reg->flags & IORING_ASYNC_CANCEL_ALL))
			return 0;
	}
	if (reg->flags & IORING_ASYNC_CANCEL_ALL)
		return n;
	return -ENOENT;
}

/*
 * IORING_REGISTER_PROBE as the kernel answers it: the patched one supports
 * IORING_OP_BPF (its last opcode), stock 6.12's last is IORING_OP_LISTEN
 */
static int fake_probe(struct io_uring_probe *p, unsigned int nr)
{
	unsigned int last = fk.stock || fk.old_kernel ? IORING_OP_LISTEN :
							IORING_OP_BPF;
	unsigned int i;

	if (!p || nr > 256)
		return -EINVAL;
	p->last_op = last;
	p->ops_len = nr < last + 1 ? nr : last + 1;
	for (i = 0; i < p->ops_len; i++) {
		p->ops[i].op = i;
		if (i <= IORING_OP_LISTEN || i == IORING_OP_BPF)
			p->ops[i].flags = IO_URING_OP_SUPPORTED;
	}
	return 0;
}

int __wrap_io_uring_register(unsigned int fd, unsigned int op,
			     const void *arg, unsigned int nr)
{
	struct fake_reg_call *c = NULL;
	bool probe_ring = (int)fd != FAKE_RING_FD;

	if (fk.nr_reg < FAKE_MAX_CALLS) {
		c = &fk.reg[fk.nr_reg];
		c->fd = (int)fd;
		c->op = op;
		c->nr = nr;
		c->arg_null = !arg;
	}
	fk.nr_reg++;

	if (op < IORING_REGISTER_LAST && fk.reg_err[op] && !probe_ring)
		return fk.reg_err[op];

	switch (op) {
	case IORING_REGISTER_PROBE:
		return fake_probe((void *)arg, nr);
	case IORING_REGISTER_SYNC_CANCEL:
		return fake_sync_cancel(arg, nr);
	}
	return -EINVAL;
}

int __wrap_io_uring_submit(struct io_uring *ring)
{
	struct io_uring_sq *sq = &ring->sq;
	unsigned int n, i;
	int ret;

	fk.nr_submit++;
	/* liburing's flush: the SQEs from sqe_head to sqe_tail go to ktail */
	while (sq->sqe_head != sq->sqe_tail) {
		fk.sq_array[fk.sq_tail & fk.sq_mask] = sq->sqe_head & fk.sq_mask;
		fk.sq_tail++;
		sq->sqe_head++;
	}
	n = fk.sq_tail - fk.sq_head;

	if (fk.nr_submit_rets) {
		ret = fk.submit_rets[0];
		memmove(fk.submit_rets, fk.submit_rets + 1,
			sizeof(fk.submit_rets) - sizeof(fk.submit_rets[0]));
		fk.nr_submit_rets--;
		if (ret <= 0)
			return ret;
		if ((unsigned int)ret < n)
			n = (unsigned int)ret;
	}
	/* the kernel consumes n SQEs */
	for (i = 0; i < n; i++) {
		unsigned int idx = fk.sq_array[fk.sq_head & fk.sq_mask];

		if (fk.nr_submitted < FAKE_SQ_MAX)
			fk.submitted[fk.nr_submitted++] = fk.sqes[idx];
		fk.sq_head++;
	}
	return (int)n;
}

/* a submit whose wait the fake's CQEs answer at once (submit_rets too) */
int __wrap_io_uring_submit_and_wait(struct io_uring *ring, unsigned int wait_nr)
{
	fk.nr_submit_and_wait++;
	fk.last_wait_nr = wait_nr;
	return __wrap_io_uring_submit(ring);
}

int __wrap_io_uring_wait_cqe_timeout(struct io_uring *ring,
				     struct io_uring_cqe **cqe_ptr,
				     struct __kernel_timespec *ts)
{
	(void)ring;
	fk.nr_wait++;
	fk.last_ts = ts;
	if (ts)
		fk.last_ts_val = *ts;
	if (fk.wait_err)
		return fk.wait_err;
	if (fk.cq_head == fk.cq_tail)
		return -ETIME;
	*cqe_ptr = &fk.cqes[fk.cq_head & fk.cq_mask];
	return 0;
}

/* ------------------------------------------------------------ kinds */

/*
 * libiocoro's internal call (runtime/src/internal.h): the kernel's
 * io_coro_ops map and bpf_link, faked. Like the real one it may leave
 * errno set.
 */
int __wrap_iocoro__kind_link(int ring_fd, int prog_fd, unsigned int kind)
{
	struct fake_link *l;
	unsigned int i;
	int fd;

	fk.nr_link_calls++;
	errno = EBADF;
	if (fk.stock || fk.old_kernel)
		return -EOPNOTSUPP;	/* no io_coro_ops in the kernel's BTF */
	if (fk.link_err && (!fk.link_err_at ||
			    fk.link_err_at == fk.nr_link_calls))
		return fk.link_err;
	if (prog_fd < 0)
		return -EBADF;
	if (kind >= IORING_CORO_MAX_KINDS)
		return -EINVAL;
	for (i = 0; i < fk.nr_links; i++) {
		if (fk.links[i].ring_fd == ring_fd &&
		    fk.links[i].kind == kind && fake_link_open(i))
			return -EBUSY;
	}
	if (fk.nr_links == FAKE_MAX_LINKS)
		return -ENOMEM;
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* a closed link's number, given again */
	for (i = 0; i < fk.nr_links; i++)
		if (fk.links[i].fd == fd)
			fk.links[i].reused = true;
	l = &fk.links[fk.nr_links++];
	l->ring_fd = ring_fd;
	l->prog_fd = prog_fd;
	l->kind = kind;
	l->fd = fd;
	l->reused = false;
	return fd;
}

/* ------------------------------------------------------------ libbpf */

int __wrap_bpf_object__load(struct bpf_object *obj)
{
	struct bpf_program *prog;

	fk.nr_load++;
	if (fk.load_err) {
		/* what the verifier writes into each log buffer it gets */
		bpf_object__for_each_program(prog, obj) {
			size_t size;
			char *buf = (char *)bpf_program__log_buf(prog, &size);

			if (buf && size && fk.load_log)
				snprintf(buf, size, "%s", fk.load_log);
		}
		errno = -fk.load_err;
		return fk.load_err;
	}
	fk.loaded = obj;
	return 0;
}

int __wrap_bpf_program__fd(const struct bpf_program *prog)
{
	struct bpf_program *p;
	int n = 0;

	if (!fk.loaded)
		return __real_bpf_program__fd(prog);
	if (fk.unloaded_prog &&
	    !strcmp(bpf_program__name(prog), fk.unloaded_prog)) {
		errno = EINVAL;
		return -EINVAL;
	}
	bpf_object__for_each_program(p, fk.loaded) {
		if (p == prog)
			return FAKE_PROG_FD_BASE + n;
		n++;
	}
	errno = EINVAL;
	return -EINVAL;
}

int __wrap_bpf_program__set_flags(struct bpf_program *prog, __u32 flags)
{
	if (fk.set_flags_err) {
		errno = -fk.set_flags_err;
		return fk.set_flags_err;
	}
	return __real_bpf_program__set_flags(prog, flags);
}

/* libbpf's checks of sizes, then the fake map of one entry */
static int map_check(const struct bpf_map *map, size_t key_sz,
		     size_t value_sz)
{
	if (fk.map_err) {
		errno = -fk.map_err;
		return fk.map_err;
	}
	if (key_sz != bpf_map__key_size(map) ||
	    value_sz != bpf_map__value_size(map)) {
		errno = EINVAL;
		return -EINVAL;
	}
	return 0;
}

int __wrap_bpf_map__update_elem(const struct bpf_map *map, const void *key,
				size_t key_sz, const void *value,
				size_t value_sz, __u64 flags)
{
	int ret;

	fk.nr_map_update++;
	ret = map_check(map, key_sz, value_sz);
	if (ret)
		return ret;
	memcpy(&fk.map_key, key, sizeof(fk.map_key));
	fk.map_size = value_sz < sizeof(fk.map_val) ? value_sz
						    : sizeof(fk.map_val);
	memcpy(fk.map_val, value, fk.map_size);
	fk.map_flags = flags;
	return 0;
}

int __wrap_bpf_map__lookup_elem(const struct bpf_map *map, const void *key,
				size_t key_sz, void *value, size_t value_sz,
				__u64 flags)
{
	int ret;

	fk.nr_map_lookup++;
	ret = map_check(map, key_sz, value_sz);
	if (ret)
		return ret;
	if (memcmp(&fk.map_key, key, sizeof(fk.map_key))) {
		errno = ENOENT;
		return -ENOENT;
	}
	memcpy(value, fk.map_val, value_sz);
	fk.map_flags = flags;
	return 0;
}
