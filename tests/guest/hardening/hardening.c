// SPDX-License-Identifier: MIT
/* Helpers shared by the hardening suite's cases: hardening.h */
#include "hardening.h"


struct hardening_bpf *skel_load(void)
{
	struct hardening_bpf *skel;
	int err;

	skel = hardening_bpf__open();
	if (!skel)
		FAIL("hardening_bpf__open: %s", strerror(errno));
	err = hardening_bpf__load(skel);
	if (err)
		FAIL("hardening_bpf__load: %d (%s)", err, strerror(-err));
	CHECK_EQ(bpf_program__type(skel->progs.qbatch),
		 BPF_PROG_TYPE_STRUCT_OPS);
	return skel;
}

/*
 * @co a ring of exactly @flags, @entries deep: the rings of the issues,
 * without the COOP_TASKRUN that iocoro_queue_init() adds. Kinds attach to
 * it by its fd (iocoro_kind_attach()); io_uring_queue_exit(&co->ring)
 * closes it.
 */
void ring_init(struct iocoro *co, unsigned int entries, unsigned int flags)
{
	memset(co, 0, sizeof(*co));
	uring_init(&co->ring, entries, flags);
}

void ring_init_params(struct iocoro *co, unsigned int entries,
		      struct io_uring_params *p)
{
	memset(co, 0, sizeof(*co));
	uring_init_params(&co->ring, entries, p);
}

/* attach the loaded step @prog as @kind of @co's ring: the link fd */
int attach_kind(struct iocoro *co, const struct bpf_program *prog,
		unsigned int kind)
{
	return CHECK_RET(iocoro_kind_attach(co, prog, kind));
}

/* entry @i of qbatch's batch @b is @sqe; the batch has i + 1 entries */
void qb_put(struct hardening_bpf *skel, unsigned int b, unsigned int i,
		   const struct io_uring_sqe *sqe)
{
	CHECK(b < QB_NB && i < QB_MAX);
	memcpy(skel->bss->qb_sqes[b][i], sqe, SQE_SIZE);
	skel->bss->qb_n[b] = i + 1;
	skel->bss->qb_rc[b][i] = 1;
}

void qb_nop(struct hardening_bpf *skel, unsigned int b, unsigned int i,
		   __u8 flags, __u64 ud)
{
	struct io_uring_sqe sqe;

	memset(&sqe, 0, sizeof(sqe));
	io_uring_prep_nop(&sqe);
	sqe.flags = flags;
	sqe.user_data = ud;
	qb_put(skel, b, i, &sqe);
}

void qb_read(struct hardening_bpf *skel, unsigned int b,
		    unsigned int i, int fd, void *buf, unsigned int len,
		    __u8 flags, __u64 ud)
{
	struct io_uring_sqe sqe;

	memset(&sqe, 0, sizeof(sqe));
	io_uring_prep_read(&sqe, fd, buf, len, 0);
	sqe.flags = flags;
	sqe.user_data = ud;
	qb_put(skel, b, i, &sqe);
}

/* every queue_sqe() of batch @b returned 0 */
void qb_check_queued(struct hardening_bpf *skel, unsigned int b)
{
	unsigned int i;

	for (i = 0; i < skel->bss->qb_n[b]; i++)
		if (skel->bss->qb_rc[b][i])
			FAIL("queue_sqe of batch %u entry %u: %ld, want 0", b,
			     i, skel->bss->qb_rc[b][i]);
}

/* a start of qbatch (K_MAIN) for batch @b */
struct io_uring_sqe *prep_qbatch(struct io_uring *ring, unsigned int b)
{
	return uring_prep_start(ring, K_MAIN, UD_BPF | b);
}

double ms_since(uint64_t t0)
{
	return (double)(uring_now_ns() - t0) / 1e6;
}

/* io_uring_enter(2) raw: the result or -errno */
int enter(struct io_uring *ring, unsigned int to_submit,
		 unsigned int min_complete, unsigned int flags)
{
	long ret = syscall(__NR_io_uring_enter, ring->ring_fd, to_submit,
			   min_complete, flags, NULL, 0);

	return ret < 0 ? -errno : (int)ret;
}

/* capabilities: get, set (all three sets as given) */
void caps_get(struct caps *c)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};

	CHECK_SYS(syscall(SYS_capget, &hdr, c->d));
}

void caps_set(const struct caps *c)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};

	CHECK_SYS(syscall(SYS_capset, &hdr, c->d));
}

bool caps_effective_empty(void)
{
	struct caps c;
	unsigned int i;

	caps_get(&c);
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		if (c.d[i].effective)
			return false;
	return true;
}

/* become nobody for good (a child only): no capabilities left */
void become_nobody(void)
{
	CHECK_SYS(setgroups(0, NULL));
	CHECK_SYS(setresgid(NOBODY, NOBODY, NOBODY));
	CHECK_SYS(setresuid(NOBODY, NOBODY, NOBODY));
	CHECK(caps_effective_empty());
}
