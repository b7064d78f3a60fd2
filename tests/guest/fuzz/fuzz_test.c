// SPDX-License-Identifier: MIT
/*
 * A seeded, bounded fuzzer of the series' ABI (issue 11): IORING_OP_BPF
 * (128) starting coroutine kinds, kinds attached by bpf_link, and the
 * kfuncs of struct io_coro_ops steps. Each iteration:
 *
 *   - a ring with random setup flags (SQE128, DEFER_TASKRUN |
 *     SINGLE_ISSUER, COOP_TASKRUN, SUBMIT_ALL, a small CQ, now and then
 *     CQE32, SQPOLL or IOPOLL, where no kind attaches), sometimes
 *     R_DISABLED with random restrictions (IORING_REGISTER_RESTRICTIONS),
 *     enabled or left disabled;
 *   - mostly fuzz.bpf.c's steps (the sleepable one too) attached as 1 to 8
 *     kinds through libiocoro, then random kind operations: io_coro_ops
 *     maps of random ring fds (the ring, closed fds, fds of other kinds),
 *     steps (a socket filter, a map, closed fds) and kinds (out of range
 *     too), BPF_LINK_CREATE with random flags, the same map linked twice,
 *     BPF_LINK_UPDATE of links (detached ones too) and of other fds with
 *     such maps and random flags, BPF_LINK_DETACH, closing links;
 *   - the steps' plans and SQE slots filled with random data (so that
 *     they queue random SQEs of opcode 0..255, some continuing at a random
 *     kind, IORING_OP_BPF ones included, which must fail, and starts with
 *     and without a budget, post random CQEs and post their results under
 *     random user_data), then a random batch from user space: mostly one
 *     valid start of a kind (iocoro_prep_kind(), a random budget in
 *     sqe->len, mostly a short one), so that most iterations run a step,
 *     other IORING_OP_BPF SQEs with every field random or zero (budgets
 *     past the maximum, kinds out of range, unknown rw_flags), and random
 *     SQEs of any opcode, the holes 58..127 left to later kernels
 *     included;
 *   - a short reap, with links detached, closed or updated between its
 *     rounds while steps run, then more kind operations, cancel of
 *     everything, the ring closed, every fd the iteration opened (links
 *     too) closed.
 *
 * Random SQEs are made safe to run, the only constraint on them: pointers
 * are NULL, small, unmapped (guard pages), kernel-half or non-canonical, or
 * point into a scratch mmap between guard pages, so that the kernel never
 * writes to memory of this process that matters (copies run into a guard
 * page and fault); fds come from a pool of harmless fds made afresh for
 * every iteration (never 0..2); MADVISE stays inside the scratch area and
 * never poisons, PROVIDE_BUFFERS too, FALLOCATE gets small or absurd
 * lengths. The test runs in a scratch directory.
 *
 * Any -errno is fine. The test fails if a call returns something that is
 * neither a result nor -errno, if an ABI rule that holds whatever the rest
 * does is broken, if no step ran or no kind attached (the fuzzer missed
 * its target), or if a plain chain no longer works afterwards. The
 * rules: a kind never attaches to an fd that is no ring, to an SQPOLL,
 * IOPOLL or CQE32 ring, twice, past IORING_CORO_MAX_KINDS, or with a
 * program that is no step, and a step always attaches as a free kind of
 * any other ring with nothing in flight;
 * an io_coro_ops map is never linked twice; BPF_LINK_UPDATE works only on
 * an attached link with a map of the same ring and kind; SQEs of an
 * unknown opcode (58..127, 129..255) complete with -EINVAL; IORING_OP_BPF
 * never succeeds on SQPOLL, IOPOLL or CQE32 rings, with a budget past
 * IORING_BPF_MAX_BUDGET, any rw_flags, a kind past
 * IORING_CORO_MAX_KINDS or one with no step, nor, queued by a step, with
 * a budget of its own, and no step runs on those rings; IOSQE_IO_DRAIN
 * never succeeds once a kind was attached; and, checked by the steps
 * themselves (fz_bad[], fuzz.h): a queue of the wrong SQE size, a
 * continuation of IORING_OP_BPF or at a kind past IORING_CORO_MAX_KINDS,
 * more than IORING_BPF_MAX_SQES SQEs or IORING_BPF_MAX_CQES CQEs in a
 * run, a CQE with flags other than IORING_CQE_F_MORE, and a queued SQE
 * that names a personality never work. Splats, hangs and leaks fail the
 * guest run (the kernel-log gate of initramfs/run-guest.sh).
 *
 * Environment: IOCORO_SEED replays a run (its seed is printed first),
 * IOCORO_FUZZ_ITERS sets the number of iterations (default 200, a few
 * seconds of fuzzing in the TCG guest with the debug kernel),
 * IOCORO_FUZZ_PROGRESS=N prints a progress line every N iterations
 * (default 1000, 0: none).
 *
 * Output, after the seed: the time the steps took to load; the progress
 * lines (iterations so far, distinct inputs, iterations that ran a step
 * and their share, step runs, time); then the rings made (and refused),
 * the kinds attached, the kind operations (updates that worked, links
 * destroyed), the SQEs (IORING_OP_BPF ones) and the CQEs (judged ones)
 * from user space; what the steps did (runs, SQEs and continuations
 * queued and refused, CQEs posted and refused, results posted, copies from
 * user); where the time went (input, ring setup, submit, reap, cancel,
 * exit). The last line gives the seed, the iterations, the distinct inputs
 * (hashes of the generated input), the iterations that ran a step and
 * their share, the step runs, the distinct CQE results and the time.
 *
 * fuzz_int.h lists the suite's files and what each does.
 */
#include "fuzz_int.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/close_range.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <unistd.h>

#include "case.h"

#include "fuzz.skel.h"

#define FZ_DEFAULT_ITERS 200

static const char *const fz_bad_names[FZ_BAD_NR] = {
	[FZ_BAD_LEN] = "a queue of the wrong SQE size worked",
	[FZ_BAD_CONT_BPF] = "bpf_io_coro_queue_sqe_cont() of IORING_OP_BPF "
			    "worked",
	[FZ_BAD_CONT_KIND] = "bpf_io_coro_queue_sqe_cont() at a kind >= "
			     "IORING_CORO_MAX_KINDS worked",
	[FZ_BAD_MAX_SQES] = "a run queued more than IORING_BPF_MAX_SQES SQEs",
	[FZ_BAD_EMIT_FLAGS] = "bpf_io_coro_emit_cqe() with flags other than "
			      "IORING_CQE_F_MORE worked",
	[FZ_BAD_MAX_CQES] = "a run posted more than IORING_BPF_MAX_CQES CQEs",
	[FZ_BAD_POST] = "bpf_io_coro_post_result() returned non-zero",
	[FZ_BAD_PERSONALITY] = "a queued SQE that names a personality was "
			       "queued",
};

/*
 * persistent fds: the steps fuzz and fuzz_s, a program of another type, a
 * map, the scratch directory, the BTF the io_coro_ops maps take
 */
int prog_fd, prog_s_fd, prog_other_fd, map_fd, dir_fd, kind_btf_fd;
const struct bpf_program *step_prog, *step_s_prog;

/* this iteration's fd pool (all >= fd_base, closed at the end) */
int fd_base;
int pool[16];
unsigned int pool_nr;
int ring_fd_now;
/* a kind was attached to the ring: it takes no IOSQE_IO_DRAIN any more */
bool ring_attached;
/* SQPOLL, IOPOLL or CQE32: no kind attaches, IORING_OP_BPF fails */
bool ring_no_bpf;
unsigned long cur_iter;

/* where an iteration's time goes (ns) */
enum { T_INPUT, T_SETUP, T_SUBMIT, T_REAP, T_CANCEL, T_EXIT, T_NR };
static uint64_t t_spent[T_NR];
static uint64_t t_last;

static void t_mark(unsigned int phase)
{
	uint64_t now = uring_now_ns();

	t_spent[phase] += now - t_last;
	t_last = now;
}

/* ------------------------------------------------------------ iteration */

static void open_pool(void)
{
	int p[2], s[2];

	pool_nr = 0;
	pool[pool_nr++] = CHECK_SYS(open("/dev/null", O_RDWR | O_CLOEXEC));
	CHECK_SYS(pipe2(p, O_CLOEXEC | (one_in(2) ? O_NONBLOCK : 0)));
	pool[pool_nr++] = p[0];
	pool[pool_nr++] = p[1];
	CHECK_SYS(socketpair(AF_UNIX, one_in(2) ? SOCK_STREAM : SOCK_DGRAM,
			     0, s));
	pool[pool_nr++] = s[0];
	pool[pool_nr++] = s[1];
	pool[pool_nr++] = CHECK_SYS(eventfd(0, EFD_CLOEXEC));
	pool[pool_nr++] = CHECK_SYS(open(".", O_TMPFILE | O_RDWR | O_CLOEXEC,
					 0600));
	pool[pool_nr++] = CHECK_SYS(memfd_create("fuzz", MFD_CLOEXEC));
	pool[pool_nr++] = CHECK_SYS(epoll_create1(EPOLL_CLOEXEC));
	/* dups: random CLOSEs must not take the originals */
	pool[pool_nr++] = CHECK_SYS(fcntl(dir_fd, F_DUPFD_CLOEXEC, 0));
	pool[pool_nr++] = CHECK_SYS(fcntl(prog_fd, F_DUPFD_CLOEXEC, 0));
	pool[pool_nr++] = CHECK_SYS(fcntl(map_fd, F_DUPFD_CLOEXEC, 0));
	pool[pool_nr++] = closed_fd();
	/* a little data to read */
	CHECK_SYS(write(p[1], scratch, 512));
	CHECK_SYS(write(pool[6], scratch, 8192));
}

static unsigned int fz_setup_flags(void)
{
	unsigned int f = 0;

	if (one_in(3))
		f |= IORING_SETUP_SQE128;
	/* no kind attaches to CQE32, SQPOLL and IOPOLL rings: now and then */
	if (one_in(24))
		f |= IORING_SETUP_CQE32;
	if (one_in(3))
		f |= IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	else if (one_in(3))
		f |= IORING_SETUP_COOP_TASKRUN |
		     (one_in(2) ? IORING_SETUP_TASKRUN_FLAG : 0);
	/* without it, submission stops at the first bad SQE */
	if (!one_in(4))
		f |= IORING_SETUP_SUBMIT_ALL;
	if (one_in(3))
		f |= IORING_SETUP_CQSIZE;
	if (one_in(6))
		f |= IORING_SETUP_R_DISABLED;
	if (one_in(64))
		f |= IORING_SETUP_SQPOLL;
	if (one_in(64))
		f |= IORING_SETUP_IOPOLL;
	if (one_in(32))
		f |= IORING_SETUP_SINGLE_ISSUER; /* without DEFER: fine too */
	if (one_in(64))
		f |= IORING_SETUP_DEFER_TASKRUN; /* without SINGLE: -EINVAL */
	return f;
}

long sys_register(int fd, unsigned int op, const void *arg, unsigned int nr)
{
	long ret = syscall(__NR_io_uring_register, fd, op, arg, nr);

	return ret < 0 ? -errno : ret;
}

/* random IORING_REGISTER_RESTRICTIONS, IORING_OP_BPF's mostly */
static void fz_restrict(void)
{
	struct io_uring_restriction res[8];
	unsigned int i, nr = 1 + below(ARRAY_SIZE(res));

	memset(res, 0, sizeof(res));
	for (i = 0; i < nr; i++) {
		res[i].opcode = one_in(8) ? rnd() : below(4);
		switch (res[i].opcode) {
		case IORING_RESTRICTION_REGISTER_OP:
			res[i].register_op = one_in(2) ?
				IORING_REGISTER_ENABLE_RINGS : rnd();
			break;
		case IORING_RESTRICTION_SQE_OP:
			res[i].sqe_op = !one_in(4) ? IORING_OP_BPF : rnd();
			break;
		default:
			res[i].sqe_flags = rnd();
		}
	}
	hash(res, nr * sizeof(res[0]));
	check_ret("IORING_REGISTER_RESTRICTIONS",
		  sys_register(ring_fd_now, IORING_REGISTER_RESTRICTIONS, res,
			       nr));
}

static void reap(struct io_uring *ring, unsigned int rounds)
{
	struct __kernel_timespec ts = { .tv_nsec = 2 * 1000 * 1000 };
	struct io_uring_cqe *cqe;
	unsigned int i;

	for (i = 0; i < rounds; i++) {
		unsigned int head, n = 0;
		int ret = io_uring_wait_cqe_timeout(ring, &cqe, &ts);

		check_ret("io_uring_wait_cqe_timeout", ret);
		if (ret < 0)
			break;
		io_uring_for_each_cqe(ring, head, cqe) {
			count_result(cqe->res);
			fz_judge(cqe);
			n++;
		}
		io_uring_cq_advance(ring, n);
		st.cqes += n;
	}
}

/* the ABI rules the steps check (fz_bad[], fuzz.h) held */
static void fz_check_programs(struct fuzz_bpf *skel)
{
	unsigned int i;

	for (i = 0; i < FZ_BAD_NR; i++) {
		if (skel->bss->fz_bad[i])
			FAIL("iteration %lu: %s (%llu times)", cur_iter,
			     fz_bad_names[i],
			     (unsigned long long)skel->bss->fz_bad[i]);
	}
}

static void iteration(struct fuzz_bpf *skel)
{
	struct io_uring_params p = { 0 };
	struct io_uring ring;
	unsigned int i, n, entries, valid_at;
	uint64_t runs0, runs;
	bool enabled = true;
	size_t size;
	int ret;

	in_hash = 0xcbf29ce484222325ULL;
	fz_kind_reset();
	ring_attached = false;
	ring_no_bpf = false;
	runs0 = __atomic_load_n(&skel->bss->fz_runs, __ATOMIC_RELAXED);
	open_pool();
	fill_scratch();
	t_mark(T_INPUT);

	p.flags = fz_setup_flags();
	entries = 1 + below(32);
	/* a CQ smaller than the SQ is refused: now and then */
	p.cq_entries = one_in(8) ? 1 + below(16) : entries * (1 + below(4));
	hash(&p, sizeof(p));
	hash_u64(entries);
	ret = io_uring_queue_init_params(entries, &ring, &p);
	check_ret("io_uring_queue_init_params", ret);
	st.rings++;
	if (ret < 0) {
		st.ring_errs++;
		t_mark(T_SETUP);
		goto out;
	}
	ring_fd_now = ring.ring_fd;
	pool[pool_nr++] = ring_fd_now;
	ring_no_bpf = p.flags & (IORING_SETUP_SQPOLL | IORING_SETUP_IOPOLL |
				 IORING_SETUP_CQE32);

	if (!one_in(24))
		fz_good_attach();
	n = below(4);
	for (i = 0; i < n; i++)
		fz_kind_op();
	if (p.flags & IORING_SETUP_R_DISABLED) {
		if (one_in(2))
			fz_restrict();
		if (!one_in(8))
			check_ret("IORING_REGISTER_ENABLE_RINGS",
				  sys_register(ring_fd_now,
					       IORING_REGISTER_ENABLE_RINGS,
					       NULL, 0));
		else
			enabled = false;
	}
	fz_programs(skel, p.flags & IORING_SETUP_SQE128);
	t_mark(T_SETUP);

	/*
	 * Mostly one valid start, first (without SUBMIT_ALL, submission
	 * stops at the first bad SQE) or anywhere in the batch that fits the
	 * SQ, mostly not linked after the SQE before it (a failed link
	 * cancels it), so that most iterations run a step; the rest at
	 * random.
	 */
	n = 1 + below(16);
	if (one_in(16))
		valid_at = n;	/* none */
	else if (one_in(2))
		valid_at = 0;
	else
		valid_at = below(n < p.sq_entries ? n : p.sq_entries);
	size = p.flags & IORING_SETUP_SQE128 ? 128 : 64;
	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		if (!sqe)
			break;
		if (i == valid_at)
			fz_bpf_sqe_valid(sqe, size);
		else if (one_in(3))
			fz_bpf_sqe(sqe, size);
		else
			fz_sqe(sqe, size);
		if (i + 1 == valid_at && !one_in(4))
			sqe->flags &= ~(IOSQE_IO_LINK | IOSQE_IO_HARDLINK);
		fz_tag(sqe);
		hash(sqe, size);
		st.sqes++;
		if (sqe->opcode == IORING_OP_BPF)
			st.bpf_sqes++;
	}
	ret = io_uring_submit(&ring);
	check_ret("io_uring_submit", ret);
	t_mark(T_SUBMIT);
	/*
	 * not in the hash: the same input may reap differently; links go
	 * between the rounds, while steps may run
	 */
	reap(&ring, 1);
	if (enabled) {
		if (one_in(2))
			fz_kind_churn();
		reap(&ring, 2);
	}
	/* a few more kind operations while requests are in flight */
	if (one_in(4))
		fz_kind_op();
	t_mark(T_REAP);
	if (enabled) {
		struct io_uring_sync_cancel_reg reg = {
			.flags = IORING_ASYNC_CANCEL_ANY,
			.timeout = { .tv_sec = 0, .tv_nsec = 20 * 1000 * 1000 },
		};

		check_ret("io_uring_register_sync_cancel",
			  io_uring_register_sync_cancel(&ring, &reg));
		reap(&ring, 1);
	}
	t_mark(T_CANCEL);
	io_uring_queue_exit(&ring);
out:
	count_input();
	/* every fd this iteration opened, and what its requests opened */
	CHECK_SYS(syscall(__NR_close_range, fd_base, ~0U, 0));
	ring_fd_now = -1;
	runs = __atomic_load_n(&skel->bss->fz_runs, __ATOMIC_RELAXED) - runs0;
	if (runs)
		st.ran++;
	if (runs && ring_no_bpf)
		FAIL("iteration %lu: %llu step runs on an SQPOLL, IOPOLL or "
		     "CQE32 ring (flags 0x%x)", cur_iter,
		     (unsigned long long)runs, p.flags);
	fz_check_programs(skel);
	t_mark(T_EXIT);
}

/* afterwards: a step that queues a NOP still works, exactly */
static void health_check(struct fuzz_bpf *skel)
{
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	struct iocoro co;
	unsigned int i;
	int link;

	memset(skel->bss->fz_plans, 0, sizeof(skel->bss->fz_plans));
	memset(skel->bss->fz_sqes, 0, sizeof(skel->bss->fz_sqes));
	skel->bss->fz_sqe128 = 0;
	for (i = 0; i < FZ_PLANS; i++) {
		skel->bss->fz_plans[i].nq = 1;
		skel->bss->fz_plans[i].sqe_len = 64 - 1;
		skel->bss->fz_plans[i].ret = 7;
	}
	for (i = 0; i < FZ_SLOTS; i++) {
		sqe = (void *)skel->bss->fz_sqes[i];
		io_uring_prep_nop(sqe);
		sqe->user_data = 0x4e4f50;
	}
	uring_init(&ring, 8, 0);
	memset(&co, 0, sizeof(co));
	co.ring.ring_fd = ring.ring_fd;
	link = CHECK_RET(iocoro_kind_attach(&co, step_prog, 0));
	sqe = uring_sqe(&ring);
	iocoro_prep_kind(sqe, 0);
	sqe->user_data = 0xb9f;
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, 0x4e4f50, 0);
	EXPECT_CQE(cqes, 2, 0xb9f, 7);
	close(link);
	io_uring_queue_exit(&ring);
}

static int other_type_prog(void)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return CHECK_RET(bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "fz_other",
				       "GPL", insns, ARRAY_SIZE(insns), NULL));
}

IOCORO_CASE(abi)
{
	const char *env = getenv("IOCORO_FUZZ_ITERS");
	const char *prog_env = getenv("IOCORO_FUZZ_PROGRESS");
	unsigned long iters = FZ_DEFAULT_ITERS, progress = 1000, i;
	char dir[] = "/tmp/iocoro-fuzz.XXXXXX";
	struct fuzz_bpf *skel;
	uint64_t seed, t0, ms, runs;
	int err;

	seed = test_seed("fuzz");
	/* random reads of fd 0 never take the test's stdin */
	err = CHECK_SYS(open("/dev/null", O_RDONLY));
	CHECK_SYS(dup2(err, 0));
	if (err)
		close(err);
	if (env && *env) {
		char *end;

		iters = strtoul(env, &end, 0);
		if (*end || !iters)
			FAIL("IOCORO_FUZZ_ITERS='%s' is not a positive number",
			     env);
	}
	if (prog_env && *prog_env) {
		char *end;

		progress = strtoul(prog_env, &end, 0);
		if (*end)
			FAIL("IOCORO_FUZZ_PROGRESS='%s' is not a number",
			     prog_env);
	}
	test_rng_init(&rng, seed);

	/* scratch between two guard areas that are never mapped */
	guard = mmap(NULL, SCRATCH_SIZE + 2 * GUARD_SIZE, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	CHECK(guard != MAP_FAILED);
	scratch = guard + GUARD_SIZE;
	CHECK_SYS(mprotect(scratch, SCRATCH_SIZE, PROT_READ | PROT_WRITE));
	guard = scratch + SCRATCH_SIZE;

	CHECK(mkdtemp(dir));
	CHECK_SYS(chdir(dir));

	skel = SKEL_OPEN(fuzz_bpf);
	CHECK_EQ(bpf_program__set_flags(skel->progs.fuzz_s, BPF_F_SLEEPABLE),
		 0);
	t0 = uring_now_ns();
	err = fuzz_bpf__load(skel);
	if (err)
		FAIL("fuzz_bpf__load: %d (%s)", err, strerror(-err));
	printf("fuzz: steps loaded in %" PRIu64 " ms\n",
	       (uring_now_ns() - t0) / 1000000);
	fflush(stdout);
	step_prog = skel->progs.fuzz;
	step_s_prog = skel->progs.fuzz_s;
	prog_fd = CHECK_RET(bpf_program__fd(step_prog));
	prog_s_fd = CHECK_RET(bpf_program__fd(step_s_prog));
	prog_other_fd = other_type_prog();
	map_fd = CHECK_RET(bpf_map__fd(skel->maps.bss));
	fz_kind_init();
	dir_fd = CHECK_SYS(open(".", O_DIRECTORY | O_RDONLY | O_CLOEXEC));
	/* every fd from here on is the iteration's, closed after it */
	fd_base = dir_fd + 1;

	t0 = uring_now_ns();
	t_last = t0;
	for (i = 0; i < iters; i++) {
		cur_iter = i;
		iteration(skel);
		if (progress && !((i + 1) % progress) && i + 1 < iters) {
			printf("fuzz: progress: %lu iterations, %u distinct "
			       "inputs, %lu ran a step (%.1f%%), %" PRIu64
			       " step runs, %" PRIu64 " ms\n", i + 1,
			       nr_distinct, st.ran, 100.0 * st.ran / (i + 1),
			       (uint64_t)skel->bss->fz_runs,
			       (uring_now_ns() - t0) / 1000000);
			fflush(stdout);
		}
	}
	ms = (uring_now_ns() - t0) / 1000000;
	runs = skel->bss->fz_runs;

	printf("fuzz: rings %lu (%lu refused), kinds attached %lu, kind "
	       "operations %lu (%lu updates worked, %lu links destroyed), "
	       "SQEs %lu (%lu IORING_OP_BPF), CQEs %lu (%lu judged)\n",
	       st.rings, st.ring_errs, st.attach_ok, st.kind_ops,
	       st.updates_ok, st.destroys, st.sqes, st.bpf_sqes, st.cqes,
	       st.judged);
	printf("fuzz: steps: %" PRIu64 " runs, %" PRIu64 " SQEs queued (%"
	       PRIu64 " refused), %" PRIu64 " continuations queued (%" PRIu64
	       " refused), %" PRIu64 " CQEs posted (%" PRIu64 " refused), %"
	       PRIu64 " results posted, %" PRIu64 " copies from user\n",
	       runs, (uint64_t)skel->bss->fz_queued,
	       (uint64_t)skel->bss->fz_queue_err,
	       (uint64_t)skel->bss->fz_conts,
	       (uint64_t)skel->bss->fz_cont_err,
	       (uint64_t)skel->bss->fz_emitted,
	       (uint64_t)skel->bss->fz_emit_err,
	       (uint64_t)skel->bss->fz_posts,
	       (uint64_t)skel->bss->fz_copied);
	printf("fuzz: ms spent: input %" PRIu64 ", ring setup %" PRIu64
	       ", submit %" PRIu64 ", reap %" PRIu64 ", cancel %" PRIu64
	       ", exit %" PRIu64 "\n", t_spent[T_INPUT] / 1000000,
	       t_spent[T_SETUP] / 1000000, t_spent[T_SUBMIT] / 1000000,
	       t_spent[T_REAP] / 1000000, t_spent[T_CANCEL] / 1000000,
	       t_spent[T_EXIT] / 1000000);
	if (!st.attach_ok)
		FAIL("no kind attached: the fuzzer is broken");
	if (!runs || !st.ran || !skel->bss->fz_queued)
		FAIL("the steps never ran or queued nothing: the fuzzer is "
		     "broken");

	health_check(skel);
	printf("fuzz: seed 0x%" PRIx64 ": %lu iterations, %u distinct inputs, "
	       "%lu ran a step (%.1f%%), %" PRIu64 " step runs, %u "
	       "distinct CQE results, %" PRIu64 " ms\n", seed, iters,
	       nr_distinct, st.ran, 100.0 * st.ran / iters, runs, nr_results,
	       ms);
	fuzz_bpf__destroy(skel);
	close(prog_other_fd);
}
