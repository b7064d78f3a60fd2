// SPDX-License-Identifier: MIT
/*
 * Unit tests of libiocoro (runtime/), run on the host: the library's
 * objects are linked with -Wl,--wrap= for the liburing and libbpf calls
 * that reach the kernel, which fake.c answers (see fake.h), so that every
 * error path runs without the patched kernel. BPF objects are real ones
 * (runtime_progs.bpf.c, many.bpf.c), opened but never loaded.
 */
#include "rt_unit.h"

#include "runtime_progs.skel.h"
#include "many.skel.h"
#include "skel_smoke.skel.h"

/* the application's own ring, which iocoro did not probe */
static void ring_by_hand(struct iocoro *co)
{
	ring_up(co);
	co->flags = 0;
}

static struct runtime_progs_bpf *open_skel(void)
{
	struct runtime_progs_bpf *skel = runtime_progs_bpf__open();

	assert_non_null(skel);
	return skel;
}

/* ------------------------------------------------------------ probe */

static void test_probe_patched(void **state)
{
	(void)state;
	assert_int_equal(L(iocoro_probe()), 0);
	assert_int_equal(fk.nr_setup, 1);
	assert_int_equal(fk.nr_reg, 1);
	assert_int_equal(fk.reg[0].op, IORING_DETACH_BPF);
	assert_int_equal(fk.reg[0].fd, fk.last_probe_fd);
	assert_true(fk.reg[0].arg_null);
	assert_int_equal(fk.reg[0].nr, 0);
	assert_false(fake_probe_fd_open());
}

static void test_probe_stock(void **state)
{
	(void)state;
	fk.stock = true;
	assert_int_equal(L(iocoro_probe()), -EOPNOTSUPP);
	assert_false(fake_probe_fd_open());
}

static void test_probe_no_io_uring(void **state)
{
	(void)state;
	fk.setup_err = -ENOSYS;
	assert_int_equal(L(iocoro_probe()), -ENOSYS);
	fk.setup_err = -EPERM; /* io_uring_disabled sysctl */
	assert_int_equal(L(iocoro_probe()), -EPERM);
	assert_int_equal(fk.nr_reg, 0);
}

/* -------------------------------------------------------- ring setup */

static void test_init_ok(void **state)
{
	struct iocoro co;

	(void)state;
	memset(&co, 0xa5, sizeof(co));
	assert_int_equal(L(iocoro_queue_init(16, &co, 0)), 0);
	assert_int_equal(fk.nr_init, 1);
	assert_int_equal(fk.init_entries, 16);
	assert_int_equal(fk.init_params.flags, IOCORO_SETUP_FLAGS);
	/* support is checked on the ring itself: no throwaway ring */
	assert_int_equal(fk.nr_setup, 0);
	assert_int_equal(fk.nr_reg, 1);
	assert_int_equal(fk.reg[0].fd, FAKE_RING_FD);
	assert_int_equal(fk.reg[0].op, IORING_DETACH_BPF);
	assert_int_equal(co.ring.ring_fd, FAKE_RING_FD);
	assert_int_equal(co.nr_progs, 0);
	assert_int_equal(co.budget, 0);
	assert_int_equal(co.flags, IOCORO_F_PROBED);
	assert_true(co.features & IORING_FEAT_NODROP);
	/* the room kept for later fields starts zeroed */
	for (unsigned int i = 0; i < sizeof(co.resv) / sizeof(co.resv[0]); i++)
		assert_int_equal(co.resv[i], 0);
	assert_int_equal(fk.nr_exit, 0);
}

static void test_init_keeps_caller_flags(void **state)
{
	struct io_uring_params p;
	struct iocoro co;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
		  IORING_SETUP_CQSIZE;
	p.cq_entries = 64;
	assert_int_equal(L(iocoro_queue_init_params(4, &co, &p)), 0);
	assert_int_equal(fk.init_params.flags,
			 IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
			 IORING_SETUP_CQSIZE | IOCORO_SETUP_FLAGS);
	assert_int_equal(fk.init_params.cq_entries, 64);
	assert_int_equal(p.features, co.features);
}

static void check_unusable_flag(unsigned int flag)
{
	struct iocoro co;

	fake_reset();
	assert_int_equal(L(iocoro_queue_init(8, &co, flag)), -EINVAL);
	/* refused before the kernel is asked */
	assert_int_equal(fk.nr_init, 0);
	assert_int_equal(fk.nr_setup, 0);
	assert_int_equal(co.ring.ring_fd, 0);
}

static void test_init_sqpoll(void **state)
{
	(void)state;
	check_unusable_flag(IORING_SETUP_SQPOLL);
	check_unusable_flag(IORING_SETUP_SQPOLL | IORING_SETUP_SQ_AFF);
}

static void test_init_iopoll(void **state)
{
	(void)state;
	check_unusable_flag(IORING_SETUP_IOPOLL);
}

static void test_init_sqe128(void **state)
{
	(void)state;
	check_unusable_flag(IORING_SETUP_SQE128);
}

static void test_init_stock(void **state)
{
	struct iocoro co;

	(void)state;
	fk.stock = true;
	assert_int_equal(L(iocoro_queue_init(8, &co, 0)), -EOPNOTSUPP);
	/* the ring was set up, found lacking and closed again */
	assert_int_equal(fk.nr_init, 1);
	assert_int_equal(fk.nr_exit, 1);
	assert_int_equal(co.ring.ring_fd, 0);
}

static void test_init_old_kernel(void **state)
{
	struct iocoro co;

	(void)state;
	/* too old for IOCORO_SETUP_FLAGS: -EINVAL, which means no series */
	fk.old_kernel = true;
	assert_int_equal(L(iocoro_queue_init(8, &co, 0)), -EOPNOTSUPP);
	assert_int_equal(fk.nr_exit, 0);
	assert_int_equal(fk.nr_setup, 1);
	assert_false(fake_probe_fd_open());
}

static void test_init_errors(void **state)
{
	static const int errs[] = { -ENOMEM, -EPERM, -EMFILE, -EFAULT, -EINVAL };
	struct iocoro co;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		fake_reset();
		fk.init_err = errs[i];
		/* on the patched kernel, an -EINVAL stays -EINVAL */
		assert_int_equal(L(iocoro_queue_init(8, &co, 0)), errs[i]);
		assert_int_equal(fk.nr_exit, 0);
		assert_int_equal(co.ring.ring_fd, 0);
	}
}

static void test_init_null(void **state)
{
	struct io_uring_params p;
	struct iocoro co;

	(void)state;
	memset(&p, 0, sizeof(p));
	assert_int_equal(L(iocoro_queue_init_params(8, NULL, &p)), -EINVAL);
	assert_int_equal(L(iocoro_queue_init_params(8, &co, NULL)), -EINVAL);
	assert_int_equal(L(iocoro_queue_init(8, NULL, 0)), -EINVAL);
	assert_int_equal(fk.nr_init, 0);
}

static void test_queue_exit(void **state)
{
	struct iocoro co;

	(void)state;
	ring_up(&co);
	assert_int_equal(L(iocoro_attach(&co, (int[]){ 3 }, 1)), 0);
	iocoro_queue_exit(&co);
	assert_int_equal(fk.nr_exit, 1);
	assert_int_equal(co.nr_progs, 0);
	assert_int_equal(co.ring.ring_fd, 0);
	iocoro_queue_exit(NULL);
	assert_int_equal(fk.nr_exit, 1);
}

/* ---------------------------------------------------------- strerror */

static void test_strerror_no_kernel(void **state)
{
	const char *s = L(iocoro_strerror(-EOPNOTSUPP));

	(void)state;
	assert_non_null(strstr(s, "IORING_OP_BPF"));
	assert_non_null(strstr(s, "series"));
	/* an installed library names no script of the source tree */
	assert_null(strstr(s, ".sh"));
	assert_null(strstr(s, "kernel/"));
	/* either sign */
	assert_string_equal(L(iocoro_strerror(EOPNOTSUPP)), s);
}

static void test_strerror_iocoro_meanings(void **state)
{
	(void)state;
	assert_non_null(strstr(L(iocoro_strerror(-ELOOP)), "budget"));
	assert_non_null(strstr(L(iocoro_strerror(-ENXIO)), "table"));
	/* -EINVAL: a verifier refusal first, then the ring flags */
	assert_non_null(strstr(L(iocoro_strerror(-EINVAL)), "verifier"));
	assert_non_null(strstr(L(iocoro_strerror(-EINVAL)), "SQPOLL"));
	assert_non_null(strstr(L(iocoro_strerror(-ENOSPC)), "last lines"));
	/* a missing file is only that */
	assert_string_equal(L(iocoro_strerror(-ENOENT)),
			    "No such file or directory");
	assert_non_null(strstr(L(iocoro_strerror(-EPERM)), "CAP_BPF"));
	assert_non_null(strstr(L(iocoro_strerror(-EACCES)), "verifier"));
	assert_non_null(strstr(L(iocoro_strerror(-ENOMSG)), "CQE"));
	assert_non_null(strstr(L(iocoro_strerror(-EPROTO)), "IOCORO_DEBUG"));
	assert_non_null(strstr(L(iocoro_strerror(-ECANCELED)),
			       "iocoro_cancel"));
	assert_string_equal(L(iocoro_strerror(0)), "Success");
	/* everything else: the C library's description */
	assert_string_equal(L(iocoro_strerror(-EIO)), "Input/output error");
	assert_string_equal(L(iocoro_strerror(-100000)), "unknown error");
}

static void test_strerror_distinct(void **state)
{
	static const int errs[] = { EOPNOTSUPP, ELOOP, ENXIO, EBADF, EBUSY,
		EPERM, EINVAL, EACCES, ENOSPC, ENOMSG, ETIME,
		ECANCELED, E2BIG, EPROTO };
	size_t i, j, n = sizeof(errs) / sizeof(errs[0]);

	(void)state;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			assert_string_not_equal(L(iocoro_strerror(errs[i])),
						L(iocoro_strerror(errs[j])));
}

/* ------------------------------------------------------------ attach */

static void test_attach_ok(void **state)
{
	int fds[] = { 7, -1, 9 };
	struct iocoro co;

	(void)state;
	ring_up(&co);
	assert_int_equal(L(iocoro_attach(&co, fds, 3)), 0);
	assert_int_equal(fk.nr_reg, 1);
	assert_int_equal(fk.reg[0].fd, FAKE_RING_FD);
	assert_int_equal(fk.reg[0].op, IORING_ATTACH_BPF);
	assert_int_equal(fk.reg[0].nr, 3);
	assert_memory_equal(fk.reg[0].fds, fds, sizeof(fds));
	assert_int_equal(co.nr_progs, 3);
	assert_true(fk.table);
}

static void test_attach_bad_args(void **state)
{
	int fds[IOCORO_MAX_PROGS + 1] = { 0 };
	struct iocoro co;

	(void)state;
	ring_up(&co);
	assert_int_equal(L(iocoro_attach(&co, NULL, 1)), -EINVAL);
	assert_int_equal(L(iocoro_attach(&co, fds, 0)), -EINVAL);
	assert_int_equal(L(iocoro_attach(&co, fds, IOCORO_MAX_PROGS + 1)), -EINVAL);
	assert_int_equal(L(iocoro_attach(NULL, fds, 1)), -EINVAL);
	assert_int_equal(fk.nr_reg, 0);
	/* the largest table goes to the kernel */
	assert_int_equal(L(iocoro_attach(&co, fds, IOCORO_MAX_PROGS)), 0);
	assert_int_equal(fk.reg[0].nr, IOCORO_MAX_PROGS);
}

static void test_attach_kernel_errors(void **state)
{
	static const int errs[] = { -EPERM, -EBADF, -EINVAL, -EBUSY, -ENOMEM,
				    -EFAULT, -ENXIO };
	struct iocoro co;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		fake_reset();
		ring_up(&co);
		fk.reg_err[IORING_ATTACH_BPF] = errs[i];
		assert_int_equal(L(iocoro_attach(&co, (int[]){ 3 }, 1)), errs[i]);
		assert_int_equal(co.nr_progs, 0);
	}
}

static void test_attach_busy(void **state)
{
	struct iocoro co;

	(void)state;
	ring_up(&co);
	assert_int_equal(L(iocoro_attach(&co, (int[]){ 3, 4 }, 2)), 0);
	assert_int_equal(L(iocoro_attach(&co, (int[]){ 5 }, 1)), -EBUSY);
	assert_int_equal(co.nr_progs, 2);
}

static void test_attach_stock(void **state)
{
	struct iocoro co;

	(void)state;
	ring_by_hand(&co);
	fk.stock = true;
	assert_int_equal(L(iocoro_attach(&co, (int[]){ 3 }, 1)), -EOPNOTSUPP);
	assert_int_equal(fk.nr_setup, 1);
	assert_false(fake_probe_fd_open());
}

static void test_attach_probed_ring_trusted(void **state)
{
	struct iocoro co;

	(void)state;
	/* a ring iocoro set up has the series: its errors are the kernel's,
	 * and cost no second look */
	ring_up(&co);
	fk.reg_err[IORING_ATTACH_BPF] = -EINVAL;
	assert_int_equal(L(iocoro_attach(&co, (int[]){ 3 }, 1)), -EINVAL);
	assert_int_equal(fk.nr_setup, 0);
	/* the application's own ring on the patched kernel: the same error,
	 * after a probe */
	co.flags = 0;
	assert_int_equal(L(iocoro_attach(&co, (int[]){ 3 }, 1)), -EINVAL);
	assert_int_equal(fk.nr_setup, 1);
}

/* ------------------------------------------------------ detach, budget */

static void test_detach_ok(void **state)
{
	struct iocoro co;

	(void)state;
	ring_up(&co);
	assert_int_equal(L(iocoro_attach(&co, (int[]){ 3 }, 1)), 0);
	assert_int_equal(L(iocoro_set_budget(&co, 10)), 0);
	assert_int_equal(L(iocoro_detach(&co)), 0);
	assert_int_equal(fk.reg[2].op, IORING_DETACH_BPF);
	assert_true(fk.reg[2].arg_null);
	assert_int_equal(fk.reg[2].nr, 0);
	assert_int_equal(co.nr_progs, 0);
	assert_int_equal(co.budget, 0);
	assert_false(fk.table);
	/* and a table can be attached again */
	assert_int_equal(L(iocoro_attach(&co, (int[]){ 3 }, 1)), 0);
}

static void test_detach_none(void **state)
{
	struct iocoro co;

	(void)state;
	ring_up(&co);
	assert_int_equal(L(iocoro_detach(&co)), -ENXIO);
	assert_int_equal(L(iocoro_detach(NULL)), -EINVAL);
}

static void test_detach_errors(void **state)
{
	struct iocoro co;

	(void)state;
	ring_up(&co);
	assert_int_equal(L(iocoro_attach(&co, (int[]){ 3 }, 1)), 0);
	fk.reg_err[IORING_DETACH_BPF] = -EFAULT;
	assert_int_equal(L(iocoro_detach(&co)), -EFAULT);
	assert_int_equal(co.nr_progs, 1);
	fk.reg_err[IORING_DETACH_BPF] = 0;
	co.flags = 0;
	fk.stock = true;
	assert_int_equal(L(iocoro_detach(&co)), -EOPNOTSUPP);
}

static void test_budget_ok(void **state)
{
	struct iocoro co;

	(void)state;
	ring_up(&co);
	assert_int_equal(L(iocoro_attach(&co, (int[]){ 3 }, 1)), 0);
	assert_int_equal(L(iocoro_set_budget(&co, 2)), 0);
	assert_int_equal(fk.reg[1].op, IORING_REGISTER_BPF_BUDGET);
	assert_true(fk.reg[1].arg_null);
	assert_int_equal(fk.reg[1].nr, 2);
	assert_int_equal(fk.budget, 2);
	assert_int_equal(co.budget, 2);
	assert_int_equal(L(iocoro_set_budget(&co, IOCORO_MAX_BUDGET)), 0);
	assert_int_equal(co.budget, IOCORO_MAX_BUDGET);
}

static void test_budget_range(void **state)
{
	struct iocoro co;

	(void)state;
	ring_up(&co);
	assert_int_equal(L(iocoro_attach(&co, (int[]){ 3 }, 1)), 0);
	fk.nr_reg = 0;
	assert_int_equal(L(iocoro_set_budget(&co, 0)), -EINVAL);
	assert_int_equal(L(iocoro_set_budget(&co, IOCORO_MAX_BUDGET + 1)), -EINVAL);
	assert_int_equal(L(iocoro_set_budget(NULL, 5)), -EINVAL);
	assert_int_equal(fk.nr_reg, 0);
	assert_int_equal(co.budget, 0);
}

static void test_budget_errors(void **state)
{
	struct iocoro co;

	(void)state;
	ring_up(&co);
	assert_int_equal(L(iocoro_set_budget(&co, 5)), -ENXIO);
	co.flags = 0;
	fk.stock = true;
	assert_int_equal(L(iocoro_set_budget(&co, 5)), -EOPNOTSUPP);
	assert_int_equal(co.budget, 0);
}

/* ----------------------------------------------------- objects, loading */

static struct bpf_program *prog_by_name(struct bpf_object *obj,
					const char *name)
{
	struct bpf_program *p = bpf_object__find_program_by_name(obj, name);

	assert_non_null(p);
	return p;
}

static void test_prepare_types(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();
	static const char *const iouring[] = { "first", "named", "coro" };
	static const char *const sleepable[] = { "sleeper", "sleeper_named" };
	size_t i;

	(void)state;
	assert_int_equal(L(iocoro_object_prepare(skel->obj, NULL)), 5);
	for (i = 0; i < 3; i++) {
		struct bpf_program *p = prog_by_name(skel->obj, iouring[i]);

		assert_int_equal(bpf_program__type(p), BPF_PROG_TYPE_IOURING);
		assert_false(bpf_program__flags(p) & BPF_F_SLEEPABLE);
	}
	for (i = 0; i < 2; i++) {
		struct bpf_program *p = prog_by_name(skel->obj, sleepable[i]);

		assert_int_equal(bpf_program__type(p), BPF_PROG_TYPE_IOURING);
		assert_true(bpf_program__flags(p) & BPF_F_SLEEPABLE);
	}
	assert_int_equal(bpf_program__type(skel->progs.not_ours),
			 BPF_PROG_TYPE_SOCKET_FILTER);
	assert_int_not_equal(bpf_program__type(skel->progs.lookalike),
			     BPF_PROG_TYPE_IOURING);
	/* the kernel was asked first */
	assert_int_equal(fk.nr_setup, 1);
	runtime_progs_bpf__destroy(skel);
}

static void test_prepare_log_buf(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();
	char log[256] = "stale";
	struct iocoro_load_opts opts = {
		.sz = sizeof(opts), .log_buf = log, .log_size = sizeof(log),
		.log_level = 2,
	};
	size_t size = 0;

	(void)state;
	assert_int_equal(L(iocoro_object_prepare(skel->obj, &opts)), 5);
	assert_ptr_equal(bpf_program__log_buf(skel->progs.coro, &size), log);
	assert_int_equal(size, sizeof(log));
	assert_int_equal(bpf_program__log_level(skel->progs.sleeper), 2);
	assert_string_equal(log, "");
	/* programs of other types are left alone */
	assert_null(bpf_program__log_buf(skel->progs.not_ours, &size));
	runtime_progs_bpf__destroy(skel);
}

static void test_prepare_no_iouring(void **state)
{
	struct skel_smoke_bpf *skel = skel_smoke_bpf__open();

	(void)state;
	assert_non_null(skel);
	assert_int_equal(L(iocoro_object_prepare(skel->obj, NULL)), -ENOENT);
	skel_smoke_bpf__destroy(skel);
}

static void test_prepare_stock(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();

	(void)state;
	fk.stock = true;
	assert_int_equal(L(iocoro_object_prepare(skel->obj, NULL)), -EOPNOTSUPP);
	assert_int_not_equal(bpf_program__type(skel->progs.first),
			     BPF_PROG_TYPE_IOURING);
	fk.stock = false;
	fk.setup_err = -EPERM;
	assert_int_equal(L(iocoro_object_prepare(skel->obj, NULL)), -EPERM);
	runtime_progs_bpf__destroy(skel);
}

static void test_prepare_bad_args(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();
	char log[16];
	struct iocoro_load_opts opts = { .sz = sizeof(opts), .log_buf = log };

	(void)state;
	assert_int_equal(L(iocoro_object_prepare(NULL, NULL)), -EINVAL);
	/* a buffer without a size, a size without a buffer */
	assert_int_equal(L(iocoro_object_prepare(skel->obj, &opts)), -EINVAL);
	opts.log_buf = NULL;
	opts.log_size = 16;
	assert_int_equal(L(iocoro_object_prepare(skel->obj, &opts)), -EINVAL);
	opts.sz = 0;
	assert_int_equal(L(iocoro_object_prepare(skel->obj, &opts)), -EINVAL);
	assert_int_equal(fk.nr_setup, 0);
	runtime_progs_bpf__destroy(skel);
}

static void test_prepare_old_opts(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();
	char log[64];
	/* a caller built against a struct that ended before log_level */
	struct iocoro_load_opts opts = {
		.sz = offsetof(struct iocoro_load_opts, log_level),
		.log_buf = log, .log_size = sizeof(log), .log_level = 7,
	};

	(void)state;
	assert_int_equal(L(iocoro_object_prepare(skel->obj, &opts)), 5);
	assert_int_equal(bpf_program__log_level(skel->progs.first), 0);
	runtime_progs_bpf__destroy(skel);
}

static void test_prepare_libbpf_errors(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();

	(void)state;
	fk.set_type_err = -EBUSY; /* libbpf: the object is loaded */
	assert_int_equal(L(iocoro_object_prepare(skel->obj, NULL)), -EBUSY);
	fk.set_type_err = 0;
	fk.set_flags_err = -EBUSY;
	assert_int_equal(L(iocoro_object_prepare(skel->obj, NULL)), -EBUSY);
	runtime_progs_bpf__destroy(skel);
}

static void test_load_ok(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();

	(void)state;
	assert_int_equal(L(iocoro_object_load(skel->obj, NULL)), 5);
	assert_int_equal(fk.nr_load, 1);
	assert_int_equal(bpf_program__type(skel->progs.coro),
			 BPF_PROG_TYPE_IOURING);
	runtime_progs_bpf__destroy(skel);
}

static void test_load_verifier_failure(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();
	char log[4096];
	struct iocoro_load_opts opts = {
		.sz = sizeof(opts), .log_buf = log, .log_size = sizeof(log),
	};

	(void)state;
	fk.load_err = -EACCES;
	fk.load_log = "0: R1=ctx() R10=fp0\n; return ctx->resv;\n"
		      "invalid bpf_context access off=28 size=4\n";
	assert_int_equal(L(iocoro_object_load(skel->obj, &opts)), -EACCES);
	assert_non_null(strstr(log, "invalid bpf_context access"));
	runtime_progs_bpf__destroy(skel);
}

static void test_load_errors(void **state)
{
	static const int errs[] = { -EPERM, -EINVAL, -ENOSPC, -E2BIG, -ENOMEM };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		struct runtime_progs_bpf *skel = open_skel();

		fake_reset();
		fk.load_err = errs[i];
		assert_int_equal(L(iocoro_object_load(skel->obj, NULL)), errs[i]);
		runtime_progs_bpf__destroy(skel);
	}
}

static void test_load_stock(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();

	(void)state;
	fk.stock = true;
	assert_int_equal(L(iocoro_object_load(skel->obj, NULL)), -EOPNOTSUPP);
	/* no verifier run that could only fail confusingly */
	assert_int_equal(fk.nr_load, 0);
	runtime_progs_bpf__destroy(skel);
}

/* the iouring programs of the object, in object order */
static int iouring_order(struct bpf_object *obj, struct bpf_program **out)
{
	struct bpf_program *p;
	int n = 0;

	bpf_object__for_each_program(p, obj)
		if (bpf_program__type(p) == BPF_PROG_TYPE_IOURING)
			out[n++] = p;
	return n;
}

static void test_prog_index(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();
	struct bpf_program *order[8];
	int i, n;

	(void)state;
	/* by section name, before the types are given too */
	assert_int_equal(L(iocoro_prog_index(skel->obj, skel->progs.first)), 0);
	assert_int_equal(L(iocoro_object_prepare(skel->obj, NULL)), 5);
	n = iouring_order(skel->obj, order);
	assert_int_equal(n, 5);
	for (i = 0; i < n; i++)
		assert_int_equal(L(iocoro_prog_index(skel->obj, order[i])), i);
	assert_int_equal(L(iocoro_prog_index(skel->obj, skel->progs.not_ours)),
			 -ENOENT);
	assert_int_equal(L(iocoro_prog_index(skel->obj, skel->progs.lookalike)),
			 -ENOENT);
	assert_int_equal(L(iocoro_prog_index(NULL, skel->progs.first)), -EINVAL);
	assert_int_equal(L(iocoro_prog_index(skel->obj, NULL)), -EINVAL);
	runtime_progs_bpf__destroy(skel);
}

static void test_prog_index_typed_by_hand(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();

	(void)state;
	/* a program typed by the application counts as well */
	assert_int_equal(bpf_program__set_type(skel->progs.lookalike,
					       BPF_PROG_TYPE_IOURING), 0);
	assert_int_equal(L(iocoro_object_prepare(skel->obj, NULL)), 6);
	assert_true(L(iocoro_prog_index(skel->obj, skel->progs.lookalike)) >= 0);
	runtime_progs_bpf__destroy(skel);
}

static void test_attach_object_ok(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();
	struct bpf_program *order[8];
	struct iocoro co;
	int i;

	(void)state;
	ring_up(&co);
	assert_int_equal(L(iocoro_object_load(skel->obj, NULL)), 5);
	assert_int_equal(iouring_order(skel->obj, order), 5);
	fk.nr_reg = 0;
	assert_int_equal(L(iocoro_attach_object(&co, skel->obj)), 5);
	assert_int_equal(fk.reg[0].op, IORING_ATTACH_BPF);
	assert_int_equal(fk.reg[0].nr, 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(fk.reg[0].fds[L(iocoro_prog_index(skel->obj,
								 order[i]))],
				 bpf_program__fd(order[i]));
	assert_int_equal(co.nr_progs, 5);
	runtime_progs_bpf__destroy(skel);
}

static void test_attach_object_hole(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();
	struct iocoro co;
	int idx;

	(void)state;
	ring_up(&co);
	assert_int_equal(L(iocoro_object_load(skel->obj, NULL)), 5);
	fk.unloaded_prog = "sleeper";
	fk.nr_reg = 0;
	assert_int_equal(L(iocoro_attach_object(&co, skel->obj)), 5);
	idx = L(iocoro_prog_index(skel->obj, skel->progs.sleeper));
	assert_int_equal(fk.reg[0].fds[idx], -1);
	assert_int_equal(fk.reg[0].fds[L(iocoro_prog_index(skel->obj,
							 skel->progs.coro))],
			 bpf_program__fd(skel->progs.coro));
	runtime_progs_bpf__destroy(skel);
}

static void test_attach_object_errors(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();
	struct skel_smoke_bpf *smoke = skel_smoke_bpf__open();
	struct iocoro co;

	(void)state;
	assert_non_null(smoke);
	ring_up(&co);
	/* not loaded: every entry would be a hole */
	assert_int_equal(L(iocoro_object_prepare(skel->obj, NULL)), 5);
	fk.nr_reg = 0;
	assert_int_equal(L(iocoro_attach_object(&co, skel->obj)), -EBADF);
	assert_int_equal(L(iocoro_attach_object(&co, smoke->obj)), -ENOENT);
	assert_int_equal(L(iocoro_attach_object(&co, NULL)), -EINVAL);
	assert_int_equal(L(iocoro_attach_object(NULL, skel->obj)), -EINVAL);
	assert_int_equal(fk.nr_reg, 0);
	/* the kernel's refusal comes through */
	assert_int_equal(L(iocoro_object_load(skel->obj, NULL)), 5);
	fk.reg_err[IORING_ATTACH_BPF] = -EPERM;
	assert_int_equal(L(iocoro_attach_object(&co, skel->obj)), -EPERM);
	assert_int_equal(co.nr_progs, 0);
	skel_smoke_bpf__destroy(smoke);
	runtime_progs_bpf__destroy(skel);
}

static void test_attach_object_too_many(void **state)
{
	struct many_bpf *skel = many_bpf__open();
	struct iocoro co;

	(void)state;
	assert_non_null(skel);
	ring_up(&co);
	assert_int_equal(L(iocoro_object_load(skel->obj, NULL)),
			 IOCORO_MAX_PROGS + 1);
	fk.nr_reg = 0;
	assert_int_equal(L(iocoro_attach_object(&co, skel->obj)), -E2BIG);
	assert_int_equal(fk.nr_reg, 0);
	many_bpf__destroy(skel);
}

/* ------------------------------------------------------------- start */

static void test_start_ok(void **state)
{
	struct iocoro co;

	(void)state;
	ring_up(&co);
	/* stale bytes in the SQE slot must not leak into the request */
	memset(fk.sqes, 0xff, sizeof(fk.sqes));
	assert_int_equal(L(iocoro_start(&co, 3, 0xdeadbeef)), 0);
	assert_int_equal(fk.nr_submit, 1);
	assert_int_equal(fk.nr_submitted, 1);
	check_start_sqe(&fk.submitted[0], 3, 0xdeadbeef);
}

static void test_start_bad_args(void **state)
{
	struct iocoro co;

	(void)state;
	ring_up(&co);
	assert_int_equal(L(iocoro_start(&co, IOCORO_MAX_PROGS, 1)), -EINVAL);
	assert_int_equal(L(iocoro_start(NULL, 0, 1)), -EINVAL);
	assert_int_equal(fk.nr_submit, 0);
	assert_int_equal(L(iocoro_start(&co, IOCORO_MAX_PROGS - 1, 1)), 0);
}

static void test_start_submit_errors(void **state)
{
	static const int errs[] = { -EBUSY, -EAGAIN, -EINTR, -EBADR, -ENXIO };
	struct iocoro co;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		fake_reset();
		ring_up(&co);
		fk.submit_rets[0] = errs[i];
		fk.nr_submit_rets = 1;
		assert_int_equal(L(iocoro_start(&co, 0, 1)), errs[i]);
	}
}

static void test_start_short_submit(void **state)
{
	struct iocoro co;

	(void)state;
	ring_up(&co);
	fk.submit_rets[0] = 0;
	fk.nr_submit_rets = 1;
	assert_int_equal(L(iocoro_start(&co, 0, 1)), -EAGAIN);
	/* the start stays queued: the next submission takes it */
	assert_int_equal(io_uring_submit(&co.ring), 1);
	check_start_sqe(&fk.submitted[0], 0, 1);
}

static void test_start_sq_full(void **state)
{
	struct iocoro co;
	unsigned int i;

	(void)state;
	ring_up(&co);
	/* the application filled the SQ without submitting */
	for (i = 0; i < co.ring.sq.ring_entries; i++)
		io_uring_prep_nop(io_uring_get_sqe(&co.ring));
	assert_null(io_uring_get_sqe(&co.ring));
	assert_int_equal(L(iocoro_start(&co, 1, 2)), 0);
	/* one submit made room, one sent the start */
	assert_int_equal(fk.nr_submit, 2);
	assert_int_equal(fk.nr_submitted, co.ring.sq.ring_entries + 1);
	check_start_sqe(&fk.submitted[co.ring.sq.ring_entries], 1, 2);
}

static void test_start_sq_stays_full(void **state)
{
	struct iocoro co;
	unsigned int i;

	(void)state;
	ring_up(&co);
	for (i = 0; i < co.ring.sq.ring_entries; i++)
		io_uring_prep_nop(io_uring_get_sqe(&co.ring));
	/* the kernel takes nothing */
	fk.submit_rets[0] = 0;
	fk.nr_submit_rets = 1;
	assert_int_equal(L(iocoro_start(&co, 1, 2)), -EBUSY);
	/* or fails */
	fk.submit_rets[0] = -ENOMEM;
	fk.nr_submit_rets = 1;
	assert_int_equal(L(iocoro_start(&co, 1, 2)), -ENOMEM);
}

static void test_start_state_ok(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();
	struct { __u32 step; __s32 fd; __u64 buf; } st = { 0, -1, 0x1000 };
	struct iocoro co;

	(void)state;
	ring_up(&co);
	assert_int_equal(L(iocoro_start_state(&co, 2, 3, skel->maps.states, &st,
					    sizeof(st))), 0);
	assert_int_equal(fk.nr_map_update, 1);
	assert_int_equal(fk.map_key, 3);
	assert_int_equal(fk.map_size, sizeof(st));
	assert_memory_equal(fk.map_val, &st, sizeof(st));
	assert_int_equal(fk.map_flags, BPF_ANY);
	check_start_sqe(&fk.submitted[0], 2, 3);
	runtime_progs_bpf__destroy(skel);
}

static void test_start_state_errors(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();
	__u64 small = 0;
	char big[16] = { 0 };
	struct iocoro co;

	(void)state;
	ring_up(&co);
	/* the value must be the map's value size */
	assert_int_equal(L(iocoro_start_state(&co, 0, 1, skel->maps.states,
					    &small, sizeof(small))), -EINVAL);
	/* the kernel's refusal (an id out of the array) */
	fk.map_err = -E2BIG;
	assert_int_equal(L(iocoro_start_state(&co, 0, 9, skel->maps.states, big,
					    sizeof(big))), -E2BIG);
	/* nothing was started */
	assert_int_equal(fk.nr_submit, 0);
	assert_int_equal(L(iocoro_start_state(&co, 0, 1, NULL, big, sizeof(big))),
			 -EINVAL);
	assert_int_equal(L(iocoro_start_state(&co, 0, 1, skel->maps.states, NULL,
					    sizeof(big))), -EINVAL);
	assert_int_equal(L(iocoro_start_state(&co, 64, 1, skel->maps.states, big,
					    sizeof(big))), -EINVAL);
	/* the size mismatch was libbpf's finding, the E2BIG the kernel's */
	assert_int_equal(fk.nr_map_update, 2);
	runtime_progs_bpf__destroy(skel);
}

static void test_state_read(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();
	char in[16] = "coroutine stat", out[16];
	struct iocoro co;

	(void)state;
	ring_up(&co);
	assert_int_equal(L(iocoro_start_state(&co, 0, 5, skel->maps.states, in,
					    sizeof(in))), 0);
	memset(out, 0, sizeof(out));
	assert_int_equal(L(iocoro_state_read(skel->maps.states, 5, out,
					   sizeof(out))), 0);
	assert_memory_equal(in, out, sizeof(in));
	assert_int_equal(L(iocoro_state_read(skel->maps.states, 6, out,
					   sizeof(out))), -ENOENT);
	assert_int_equal(L(iocoro_state_read(skel->maps.states, 5, out, 8)),
			 -EINVAL);
	assert_int_equal(L(iocoro_state_read(NULL, 5, out, sizeof(out))), -EINVAL);
	runtime_progs_bpf__destroy(skel);
}

/* -------------------------------------------------------------- wait */

static void test_wait_end(void **state)
{
	struct iocoro_done done;
	struct iocoro co;

	(void)state;
	ring_up(&co);
	fake_post_cqe(iocoro_ud(IOCORO_UD_END, 4, 77), 1234, 0);
	assert_int_equal(L(iocoro_wait(&co, &done, NULL)), 0);
	assert_int_equal(done.id, 77);
	assert_int_equal(done.res, 1234);
	assert_int_equal(done.how, IOCORO_FINISHED);
	assert_int_equal(done.prog, 4);
	assert_true(done.user_data == iocoro_ud(IOCORO_UD_END, 4, 77));
	assert_int_equal(fake_cq_pending(), 0);
	assert_null(fk.last_ts);
}

static void test_wait_failed_step(void **state)
{
	static const int errs[] = { -ELOOP, -ECANCELED, -EBADF, -ENOENT };
	struct iocoro_done done;
	struct iocoro co;
	size_t i;

	(void)state;
	ring_up(&co);
	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		fake_post_cqe(iocoro_ud(IOCORO_UD_STEP, 1, 9), errs[i], 0);
		assert_int_equal(L(iocoro_wait(&co, &done, NULL)), 0);
		assert_int_equal(done.id, 9);
		assert_int_equal(done.res, errs[i]);
		assert_int_equal(done.how, IOCORO_FAILED);
	}
	assert_int_equal(fake_cq_pending(), 0);
}

static void test_wait_skips_progress(void **state)
{
	struct iocoro_done done;
	struct iocoro co;

	(void)state;
	ring_up(&co);
	/* a failed read, which the next step handled, and a step that
	 * was submitted without IOSQE_CQE_SKIP_SUCCESS */
	fake_post_cqe(iocoro_ud(IOCORO_UD_OP, 0, 5), -ENOENT, 0);
	fake_post_cqe(iocoro_ud(IOCORO_UD_STEP, 0, 5), 0, 0);
	fake_post_cqe(iocoro_ud(IOCORO_UD_END, 0, 5), -ENOENT, 0);
	assert_int_equal(L(iocoro_wait(&co, &done, NULL)), 0);
	assert_int_equal(done.how, IOCORO_FINISHED);
	assert_int_equal(done.res, -ENOENT);
	assert_int_equal(fake_cq_pending(), 0);
	assert_int_equal(fk.nr_wait, 3);
}

static void test_wait_foreign_cqe(void **state)
{
	struct iocoro_done done;
	struct iocoro co;

	(void)state;
	ring_up(&co);
	fake_post_cqe(0x1234, 0, 0);
	fake_post_cqe(iocoro_ud(IOCORO_UD_END, 0, 1), 0, 0);
	assert_int_equal(L(iocoro_wait(&co, &done, NULL)), -ENOMSG);
	/* left for the application */
	assert_int_equal(fake_cq_pending(), 2);
	io_uring_cq_advance(&co.ring, 1);
	assert_int_equal(L(iocoro_wait(&co, &done, NULL)), 0);
	assert_int_equal(done.id, 1);
}

static void test_wait_timeout(void **state)
{
	struct __kernel_timespec ts = { .tv_nsec = 20 * 1000 * 1000 };
	struct iocoro_done done;
	struct iocoro co;

	(void)state;
	ring_up(&co);
	assert_int_equal(L(iocoro_wait(&co, &done, &ts)), -ETIME);
	/* waits of what was left of the 20 ms */
	assert_non_null(fk.last_ts);
	assert_int_equal(fk.last_ts_val.tv_sec, 0);
	assert_true(fk.last_ts_val.tv_nsec <= 20 * 1000 * 1000);
}

static void test_wait_short_cq(void **state)
{
	struct __kernel_timespec ts = { .tv_nsec = 1000 };
	struct iocoro_done done;
	struct iocoro co;

	(void)state;
	ring_up(&co);
	/* only progress CQEs arrive, the end does not */
	fake_post_cqe(iocoro_ud(IOCORO_UD_OP, 0, 5), -EIO, 0);
	fake_post_cqe(iocoro_ud(IOCORO_UD_OP, 0, 6), -EIO, 0);
	assert_int_equal(L(iocoro_wait(&co, &done, &ts)), -ETIME);
	assert_int_equal(fake_cq_pending(), 0);
}

static void test_wait_errors(void **state)
{
	static const int errs[] = { -EINTR, -EBADR, -EFAULT, -EAGAIN };
	struct iocoro_done done;
	struct iocoro co;
	size_t i;

	(void)state;
	ring_up(&co);
	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		fk.wait_err = errs[i];
		assert_int_equal(L(iocoro_wait(&co, &done, NULL)), errs[i]);
	}
	assert_int_equal(L(iocoro_wait(NULL, &done, NULL)), -EINVAL);
	assert_int_equal(L(iocoro_wait(&co, NULL, NULL)), -EINVAL);
}

static void test_wait_einval_stock(void **state)
{
	struct iocoro_done done;
	struct iocoro co;

	(void)state;
	ring_by_hand(&co);
	/* a kernel without the series fails the unknown opcode (-EINVAL),
	 * or takes the number for another opcode, which fails otherwise */
	fk.stock = true;
	fake_post_cqe(iocoro_ud(IOCORO_UD_STEP, 0, 1), -EINVAL, 0);
	fake_post_cqe(iocoro_ud(IOCORO_UD_STEP, 0, 2), -ENOTSOCK, 0);
	assert_int_equal(L(iocoro_wait(&co, &done, NULL)), 0);
	assert_int_equal(done.res, -EOPNOTSUPP);
	assert_int_equal(L(iocoro_wait(&co, &done, NULL)), 0);
	assert_int_equal(done.res, -EOPNOTSUPP);
	/* the patched one keeps its -EINVAL (e.g. fields that must be 0) */
	fk.stock = false;
	fake_post_cqe(iocoro_ud(IOCORO_UD_STEP, 0, 1), -EINVAL, 0);
	assert_int_equal(L(iocoro_wait(&co, &done, NULL)), 0);
	assert_int_equal(done.res, -EINVAL);
	/* an end the program reported is never rewritten */
	fk.stock = true;
	fake_post_cqe(iocoro_ud(IOCORO_UD_END, 0, 1), -EINVAL, 0);
	assert_int_equal(L(iocoro_wait(&co, &done, NULL)), 0);
	assert_int_equal(done.res, -EINVAL);
	/* nor are the failures of a ring iocoro set up (no probe) */
	co.flags = IOCORO_F_PROBED;
	fk.nr_setup = 0;
	fake_post_cqe(iocoro_ud(IOCORO_UD_STEP, 0, 1), -EINVAL, 0);
	assert_int_equal(L(iocoro_wait(&co, &done, NULL)), 0);
	assert_int_equal(done.res, -EINVAL);
	assert_int_equal(fk.nr_setup, 0);
}

static void test_cqe_done(void **state)
{
	struct io_uring_cqe cqe = { 0 };
	struct iocoro_done done;

	(void)state;
	cqe.user_data = 42;
	assert_int_equal(iocoro_cqe_done(&cqe, &done), -ENOMSG);
	cqe.user_data = iocoro_ud(IOCORO_UD_OP, 0, 1);
	cqe.res = -EIO;
	assert_int_equal(iocoro_cqe_done(&cqe, &done), 0);
	cqe.user_data = iocoro_ud(IOCORO_UD_STEP, 0, 1);
	cqe.res = 7;
	assert_int_equal(iocoro_cqe_done(&cqe, &done), 0);
	cqe.res = -ELOOP;
	assert_int_equal(iocoro_cqe_done(&cqe, &done), 1);
	assert_int_equal(done.how, IOCORO_FAILED);
	cqe.user_data = iocoro_ud(IOCORO_UD_END, 63, UINT32_MAX);
	cqe.res = 5;
	assert_int_equal(iocoro_cqe_done(&cqe, &done), 1);
	assert_int_equal(done.how, IOCORO_FINISHED);
	assert_int_equal(done.id, UINT32_MAX);
	assert_int_equal(done.prog, 63);
	assert_int_equal(done.res, 5);
}

/* a whole coroutine on the fake kernel: start, two steps, end */
static void test_start_then_wait(void **state)
{
	struct iocoro_done done;
	struct iocoro co;

	(void)state;
	ring_up(&co);
	assert_int_equal(L(iocoro_attach(&co, (int[]){ 11 }, 1)), 0);
	assert_int_equal(L(iocoro_start(&co, 0, 8)), 0);
	/* what the program's two steps and their operations do */
	fake_post_cqe(iocoro_ud(IOCORO_UD_END, 0, 8), 4096, 0);
	assert_int_equal(L(iocoro_wait(&co, &done, NULL)), 0);
	assert_int_equal(done.id, 8);
	assert_int_equal(done.res, 4096);
	assert_int_equal(L(iocoro_detach(&co)), 0);
	iocoro_queue_exit(&co);
}

#define T(f) cmocka_unit_test_setup(f, reset)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_probe_patched),
		T(test_probe_stock),
		T(test_probe_no_io_uring),
		T(test_init_ok),
		T(test_init_keeps_caller_flags),
		T(test_init_sqpoll),
		T(test_init_iopoll),
		T(test_init_sqe128),
		T(test_init_stock),
		T(test_init_old_kernel),
		T(test_init_errors),
		T(test_init_null),
		T(test_queue_exit),
		T(test_strerror_no_kernel),
		T(test_strerror_iocoro_meanings),
		T(test_strerror_distinct),
		T(test_attach_ok),
		T(test_attach_bad_args),
		T(test_attach_kernel_errors),
		T(test_attach_busy),
		T(test_attach_stock),
		T(test_attach_probed_ring_trusted),
		T(test_detach_ok),
		T(test_detach_none),
		T(test_detach_errors),
		T(test_budget_ok),
		T(test_budget_range),
		T(test_budget_errors),
		T(test_prepare_types),
		T(test_prepare_log_buf),
		T(test_prepare_no_iouring),
		T(test_prepare_stock),
		T(test_prepare_bad_args),
		T(test_prepare_old_opts),
		T(test_prepare_libbpf_errors),
		T(test_load_ok),
		T(test_load_verifier_failure),
		T(test_load_errors),
		T(test_load_stock),
		T(test_prog_index),
		T(test_prog_index_typed_by_hand),
		T(test_attach_object_ok),
		T(test_attach_object_hole),
		T(test_attach_object_errors),
		T(test_attach_object_too_many),
		T(test_start_ok),
		T(test_start_bad_args),
		T(test_start_submit_errors),
		T(test_start_short_submit),
		T(test_start_sq_full),
		T(test_start_sq_stays_full),
		T(test_start_state_ok),
		T(test_start_state_errors),
		T(test_state_read),
		T(test_wait_end),
		T(test_wait_failed_step),
		T(test_wait_skips_progress),
		T(test_wait_foreign_cqe),
		T(test_wait_timeout),
		T(test_wait_short_cq),
		T(test_wait_errors),
		T(test_wait_einval_stock),
		T(test_cqe_done),
		T(test_start_then_wait),
	};

	return cmocka_run_group_tests_name("runtime", tests, NULL, NULL);
}
