// SPDX-License-Identifier: MIT
/*
 * The fuzzer's SQEs (fuzz_int.h): random ones of any opcode made safe to
 * run (fuzz_test.c says how), IORING_OP_BPF starts valid or not, the tags
 * of those whose CQEs the test judges and the judging, and the steps'
 * plans and SQE slots (struct fz_plan, fuzz.h).
 */
#include "fuzz_int.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "fuzz.skel.h"

/* the opcodes of 6.12 end with IORING_OP_LISTEN (57); 58..127 are holes */
#define FZ_OP_HOLE_FIRST (IORING_OP_LISTEN + 1)
#define FZ_OP_HOLE_LAST (IORING_OP_BPF - 1)

static unsigned int tag_seq;

/* the next user_data tagged with rule @kind (fuzz_int.h) */
static uint64_t fz_tag_ud(unsigned int kind)
{
	return FZ_TAG << 32 | (uint64_t)kind << 24 | (tag_seq++ & 0xffffff);
}

static void fz_sanitize(struct io_uring_sqe *sqe)
{
	uint64_t base = (uint64_t)(uintptr_t)scratch;

	switch (sqe->opcode) {
	case IORING_OP_MADVISE: {
		/*
		 * inside scratch only; no HWPOISON, SOFT_OFFLINE. The length
		 * is sqe->off, or sqe->len where that is 0: a random one
		 * reached past the guard into libc, whose relocated pages
		 * MADV_DONTNEED reset to the file's contents.
		 */
		uint64_t off = below(SCRATCH_SIZE / 4096) * 4096;

		sqe->addr = base + off;
		sqe->off = 0;
		sqe->len = below(SCRATCH_SIZE - off + 1);
		if (sqe->fadvise_advice >= 100)
			sqe->fadvise_advice = MADV_DONTNEED;
		break;
	}
	case IORING_OP_PROVIDE_BUFFERS: {
		/* nbufs (sqe->fd) buffers of len bytes, all inside scratch */
		uint32_t nbufs = 1 + below(16);
		uint32_t len = below(SCRATCH_SIZE / 16);

		sqe->fd = nbufs;
		sqe->len = len;
		sqe->addr = base + below(SCRATCH_SIZE - nbufs * len + 1);
		break;
	}
	case IORING_OP_FALLOCATE:
		/* the length is sqe->addr: small, or so large it fails */
		sqe->addr = one_in(2) ? below(1 << 20) : rnd() | (1ULL << 62);
		break;
	default:
		break;
	}
}

void fz_sqe(struct io_uring_sqe *sqe, size_t size)
{
	uint8_t *b = (uint8_t *)sqe;
	size_t i;

	for (i = 0; i < size; i++)
		b[i] = one_in(2) ? 0 : rnd();
	switch (below(10)) {
	case 0:
		sqe->opcode = rnd();
		break;
	case 1:
		sqe->opcode = IORING_OP_BPF;
		break;
	case 2:
		/* left to later kernels */
		sqe->opcode = FZ_OP_HOLE_FIRST +
			      below(FZ_OP_HOLE_LAST - FZ_OP_HOLE_FIRST + 1);
		break;
	default:
		sqe->opcode = below(FZ_OP_HOLE_FIRST);
	}
	sqe->user_data = fz_ud(sqe->user_data);
	if (one_in(2))
		sqe->flags &= IOSQE_IO_LINK | IOSQE_IO_HARDLINK | IOSQE_ASYNC |
			      IOSQE_CQE_SKIP_SUCCESS;
	/* a first operation that carries kind 0's step */
	if (one_in(8))
		sqe->flags |= IOSQE_BPF_STEP;
	sqe->fd = fz_fd();
	sqe->off = one_in(2) ? fz_ptr() : fz_len();
	sqe->addr = fz_ptr();
	sqe->len = fz_len();
	if (one_in(2))
		sqe->addr3 = fz_ptr();
	if (one_in(2))
		sqe->splice_fd_in = fz_fd();
	if (!one_in(8))
		sqe->personality = 0;
	fz_sanitize(sqe);
}

/* a kind that has a step, if any */
static uint32_t fz_kind_on(void)
{
	uint32_t on[IORING_CORO_MAX_KINDS];
	unsigned int k, n = 0;

	for (k = 0; k < IORING_CORO_MAX_KINDS; k++) {
		if (kind_link[k] >= 0)
			on[n++] = k;
	}
	return n ? on[below(n)] : below(8);
}

uint32_t fz_kind(void)
{
	switch (below(16)) {
	case 0:
		return IORING_CORO_MAX_KINDS + below(2);
	case 1:
		return rnd();
	case 2:
	case 3:
		return below(one_in(2) ? 8 : IORING_CORO_MAX_KINDS);
	default:
		return fz_kind_on();
	}
}

/* a coroutine's budget: mostly short, so that chains end soon */
static uint32_t fz_budget(void)
{
	switch (below(16)) {
	case 0:
	case 1:
		return 0; /* IORING_BPF_DEFAULT_BUDGET */
	case 2:
		return 1 + below(IORING_BPF_DEFAULT_BUDGET);
	case 3:
	case 4:
	case 5:
	case 6:
		return 1 + below(4);
	default:
		return 1 + below(64);
	}
}

void fz_bpf_sqe_valid(struct io_uring_sqe *sqe, size_t size)
{
	static const uint8_t good_flags[] = {
		0, 0, 0, 0, 0, 0, IOSQE_IO_LINK, IOSQE_IO_HARDLINK,
		IOSQE_ASYNC, IOSQE_CQE_SKIP_SUCCESS,
	};

	memset(sqe, 0, size);
	iocoro_prep_kind(sqe, fz_kind_on());
	sqe->len = fz_budget();
	sqe->user_data = fz_ud(rnd());
	sqe->flags = one_in(16) ? IOSQE_IO_DRAIN :
				  good_flags[below(ARRAY_SIZE(good_flags))];
}

/*
 * An IORING_OP_BPF SQE: half of them valid, the others with each field
 * zero or random
 */
void fz_bpf_sqe(struct io_uring_sqe *sqe, size_t size)
{
	if (one_in(2)) {
		fz_bpf_sqe_valid(sqe, size);
		return;
	}
	memset(sqe, 0, size);
	if (one_in(8))
		sqe->opcode = IORING_OP_BPF;
	else
		iocoro_prep_kind(sqe, 0);
	sqe->user_data = fz_ud(rnd());
	sqe->off = one_in(8) ? rnd() : fz_kind();
	sqe->flags = one_in(2) ? 0 : rnd() & 0x7f;
	if (one_in(6))
		sqe->fd = fz_fd();
	if (one_in(6))
		sqe->addr = fz_ptr();
	if (one_in(3))
		sqe->len = one_in(2) ? fz_len() :
				       IORING_BPF_MAX_BUDGET - 1 + below(3);
	if (one_in(6))
		sqe->rw_flags = one_in(2) ? rnd() : 1U << below(32);
	if (one_in(8))
		sqe->buf_index = rnd();
	if (one_in(8))
		sqe->personality = rnd();
	if (one_in(8))
		sqe->splice_fd_in = fz_fd();
	if (one_in(8))
		sqe->addr3 = fz_ptr();
	if (one_in(12))
		sqe->__pad2[0] = rnd();
	if (one_in(8))
		sqe->ioprio = rnd();
}

/* a kind for bpf_io_coro_queue_sqe_cont(), valid or not */
static uint32_t fz_cont_kind(void)
{
	switch (below(16)) {
	case 0:
		return IORING_CORO_MAX_KINDS + below(2);
	case 1:
		return 255 + below(3);
	case 2:
		return rnd();
	default:
		return fz_kind();
	}
}

/* a start that fails whatever the ring has attached (-EINVAL, -EBADF) */
static bool fz_bpf_bad(const struct io_uring_sqe *sqe)
{
	/* a start takes no rw_flags */
	return sqe->len > IORING_BPF_MAX_BUDGET || sqe->rw_flags ||
	       sqe->off >= IORING_CORO_MAX_KINDS;
}

/* the user-space SQEs whose CQE the test judges get a tagged user_data */
void fz_tag(struct io_uring_sqe *sqe)
{
	unsigned int kind = 0;

	if (sqe->opcode >= IORING_OP_LAST ||
	    (sqe->opcode >= FZ_OP_HOLE_FIRST && sqe->opcode <= FZ_OP_HOLE_LAST))
		kind = FZ_UD_UNKNOWN_OP;
	else if (sqe->opcode == IORING_OP_BPF && ring_no_bpf)
		kind = FZ_UD_BPF_REFUSED;
	else if ((sqe->flags & IOSQE_IO_DRAIN) && ring_attached)
		kind = FZ_UD_DRAIN;
	else if (sqe->opcode == IORING_OP_BPF && fz_bpf_bad(sqe))
		kind = FZ_UD_BPF_BAD;
	else if (sqe->opcode == IORING_OP_BPF && kind_link[sqe->off] < 0)
		kind = FZ_UD_NO_KIND;
	else if ((sqe->flags & IOSQE_BPF_STEP) && kind_link[0] < 0)
		kind = FZ_UD_NO_KIND;
	if (kind)
		sqe->user_data = fz_tag_ud(kind);
}

/* each tag's rule: its CQE's res is want, or (want 0) an error */
static const struct {
	int want;
	const char *what;
} fz_rules[] = {
	[FZ_UD_UNKNOWN_OP] = { -EINVAL, "an SQE of an unknown opcode" },
	[FZ_UD_BPF_REFUSED] = { 0, "IORING_OP_BPF on an SQPOLL, IOPOLL or "
				   "CQE32 ring" },
	[FZ_UD_DRAIN] = { 0, "IOSQE_IO_DRAIN on a ring that had a kind "
			     "attached" },
	[FZ_UD_BPF_BAD] = { 0, "an IORING_OP_BPF with a budget past "
			       "IORING_BPF_MAX_BUDGET, unknown rw_flags, a "
			       "kind past IORING_CORO_MAX_KINDS, or a budget "
			       "in a start a step queued" },
	[FZ_UD_NO_KIND] = { 0, "a start of a kind with no step, or a first "
			       "operation with no kind 0" },
};

/* a CQE of a tagged SQE keeps to its rule */
void fz_judge(const struct io_uring_cqe *cqe)
{
	unsigned int kind;
	int want;

	if (cqe->user_data >> 32 != FZ_TAG)
		return;
	st.judged++;
	kind = (cqe->user_data >> 24) & 0xff;
	if (kind >= ARRAY_SIZE(fz_rules) || !fz_rules[kind].what)
		FAIL("iteration %lu: CQE of unknown user_data 0x%llx",
		     cur_iter, (unsigned long long)cqe->user_data);
	want = fz_rules[kind].want;
	if (want ? cqe->res != want : cqe->res >= 0)
		FAIL("iteration %lu: %s completed with %d, want %s%d "
		     "(user_data 0x%llx)", cur_iter, fz_rules[kind].what,
		     cqe->res, want ? "" : "an error < ", want,
		     (unsigned long long)cqe->user_data);
}

/* the steps' plans and SQE slots */
void fz_programs(struct fuzz_bpf *skel, bool sqe128)
{
	unsigned int i, k;

	skel->bss->fz_sqe128 = sqe128;
	for (i = 0; i < FZ_SLOTS; i++) {
		struct io_uring_sqe *sqe = (void *)skel->bss->fz_sqes[i];

		if (one_in(4))
			fz_bpf_sqe(sqe, 128);
		else
			fz_sqe(sqe, 128);
		/* a chain's next step is hard-linked after an operation */
		if (one_in(4))
			sqe->flags |= IOSQE_IO_HARDLINK;
		/* a start a step queues takes no budget of its own */
		if (sqe->opcode == IORING_OP_BPF && sqe->len && one_in(2))
			sqe->len = 0;
		if (sqe->opcode == IORING_OP_BPF &&
		    (sqe->len || fz_bpf_bad(sqe)))
			sqe->user_data = fz_tag_ud(FZ_UD_BPF_BAD);
	}
	for (i = 0; i < FZ_PLANS; i++) {
		struct fz_plan *pl = (void *)&skel->bss->fz_plans[i];

		pl->nq = one_in(8) ? below(FZ_MAX_Q + 1) : below(4);
		pl->first = below(FZ_SLOTS);
		/* the size the program passes is (sqe_len & 127) + 1 */
		switch (below(16)) {
		case 0:
			pl->sqe_len = (32 << below(3)) - 1;
			break;
		case 1:
			pl->sqe_len = rnd();
			break;
		default:
			pl->sqe_len = (sqe128 ? 128 : 64) - 1;
		}
		pl->ne = one_in(8) ? below(FZ_MAX_E + 1) : below(3);
		pl->ret = one_in(2) ? 0 : (int32_t)rnd();
		pl->cqe_ud = fz_ud(rnd());
		pl->cqe_res = rnd();
		switch (below(4)) {
		case 0:
			pl->cqe_flags = rnd();
			break;
		case 1:
			pl->cqe_flags = IORING_CQE_F_MORE;
			break;
		default:
			pl->cqe_flags = 0;
		}
		switch (below(4)) {
		case 0:
			pl->cont_mask = 0;
			break;
		case 1:
			pl->cont_mask = ~0U;
			break;
		default:
			pl->cont_mask = rnd();
		}
		for (k = 0; k < FZ_CONT_KINDS; k++)
			pl->cont_kind[k] = fz_cont_kind();
		pl->post_nr = one_in(4) ? 1 + below(3) : 0;
		pl->post_ud = fz_ud(rnd());
		pl->copy_addr = fz_ptr();
	}
	hash(skel->bss->fz_sqes, sizeof(skel->bss->fz_sqes));
	hash(skel->bss->fz_plans, sizeof(skel->bss->fz_plans));
}
