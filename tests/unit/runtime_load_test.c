// SPDX-License-Identifier: MIT
/*
 * Unit tests of libiocoro's BPF objects (runtime/src/load.c) on the fake
 * kernel of fake.c (see rt_unit.h): which programs are steps (struct_ops
 * programs, in object order: their kinds), which are made sleepable, the
 * load, and iocoro_attach_object(), which attaches each step as its kind.
 * The objects (runtime_progs.bpf.c, many.bpf.c) are real ones, opened but
 * never loaded.
 */
#include "rt_unit.h"

#include "runtime_progs.skel.h"
#include "many.skel.h"
#include "skel_smoke.skel.h"

/* the steps of runtime_progs.bpf.c, sleepable or not */
#define NR_STEPS 5

static struct runtime_progs_bpf *open_skel(void)
{
	struct runtime_progs_bpf *skel = runtime_progs_bpf__open();

	assert_non_null(skel);
	return skel;
}

static bool sleepable(const struct bpf_program *p)
{
	return bpf_program__flags(p) & BPF_F_SLEEPABLE;
}

/* the steps of the object, in object order */
static int step_order(struct bpf_object *obj, struct bpf_program **out)
{
	struct bpf_program *p;
	int n = 0;

	bpf_object__for_each_program(p, obj)
		if (bpf_program__type(p) == BPF_PROG_TYPE_STRUCT_OPS)
			out[n++] = p;
	return n;
}

/* ------------------------------------------------------------ prepare */

static void test_prepare_steps(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();
	__u32 syscall_flags = bpf_program__flags(skel->progs.syscall_prog);

	(void)state;
	assert_int_equal(L(iocoro_object_prepare(skel->obj, NULL)), NR_STEPS);
	/* IOCORO_SEC_SLEEPABLE: sleepable */
	assert_true(sleepable(skel->progs.sleeper));
	assert_true(sleepable(skel->progs.coro_s));
	/* IOCORO_SEC, even one that starts like the sleepable prefix: not */
	assert_false(sleepable(skel->progs.first));
	assert_false(sleepable(skel->progs.coro));
	assert_false(sleepable(skel->progs.lookalike));
	/* steps stay struct_ops programs; the others are left alone */
	assert_int_equal(bpf_program__type(skel->progs.sleeper),
			 BPF_PROG_TYPE_STRUCT_OPS);
	assert_int_equal(bpf_program__type(skel->progs.not_ours),
			 BPF_PROG_TYPE_SOCKET_FILTER);
	assert_int_equal(bpf_program__type(skel->progs.syscall_prog),
			 BPF_PROG_TYPE_SYSCALL);
	assert_true(bpf_program__flags(skel->progs.syscall_prog) ==
		    syscall_flags);
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
	assert_int_equal(L(iocoro_object_prepare(skel->obj, &opts)), NR_STEPS);
	assert_ptr_equal(bpf_program__log_buf(skel->progs.coro, &size), log);
	assert_int_equal(size, sizeof(log));
	assert_ptr_equal(bpf_program__log_buf(skel->progs.first, &size), log);
	assert_int_equal(bpf_program__log_level(skel->progs.sleeper), 2);
	assert_string_equal(log, "");
	/* programs that are not steps are left alone */
	assert_null(bpf_program__log_buf(skel->progs.not_ours, &size));
	assert_null(bpf_program__log_buf(skel->progs.syscall_prog, &size));
	runtime_progs_bpf__destroy(skel);
}

static void test_prepare_no_steps(void **state)
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
	assert_int_equal(L(iocoro_object_prepare(skel->obj, NULL)),
			 -EOPNOTSUPP);
	/* refused before any program was touched */
	assert_false(sleepable(skel->progs.sleeper));
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
	assert_int_equal(L(iocoro_object_prepare(skel->obj, &opts)), NR_STEPS);
	assert_int_equal(bpf_program__log_level(skel->progs.first), 0);
	runtime_progs_bpf__destroy(skel);
}

static void test_prepare_libbpf_errors(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();

	(void)state;
	fk.set_flags_err = -EBUSY; /* libbpf: the object is loaded */
	assert_int_equal(L(iocoro_object_prepare(skel->obj, NULL)), -EBUSY);
	runtime_progs_bpf__destroy(skel);
}

/* --------------------------------------------------------------- load */

static void test_load_ok(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();

	(void)state;
	assert_int_equal(L(iocoro_object_load(skel->obj, NULL)), NR_STEPS);
	assert_int_equal(fk.nr_load, 1);
	assert_int_equal(bpf_program__type(skel->progs.coro),
			 BPF_PROG_TYPE_STRUCT_OPS);
	assert_true(sleepable(skel->progs.coro_s));
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
	fk.load_log = "0: R1=ctx() R10=fp0\n; step->res = 0;\n"
		      "only read is supported\n";
	assert_int_equal(L(iocoro_object_load(skel->obj, &opts)), -EACCES);
	assert_non_null(strstr(log, "only read is supported"));
	runtime_progs_bpf__destroy(skel);
}

static void test_load_errors(void **state)
{
	static const int errs[] = { -EPERM, -EINVAL, -ENOSPC, -E2BIG, -ENOMEM };
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(errs); i++) {
		struct runtime_progs_bpf *skel = open_skel();

		fake_reset();
		fk.load_err = errs[i];
		assert_int_equal(L(iocoro_object_load(skel->obj, NULL)),
				 errs[i]);
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

/* ---------------------------------------------------------- prog_index */

static void test_prog_index(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();
	struct bpf_program *order[8];
	int i, n;

	(void)state;
	/* by type, which libbpf gives at open: no prepare needed */
	assert_int_equal(L(iocoro_prog_index(skel->obj, skel->progs.first)), 0);
	n = step_order(skel->obj, order);
	assert_int_equal(n, NR_STEPS);
	for (i = 0; i < n; i++)
		assert_int_equal(L(iocoro_prog_index(skel->obj, order[i])), i);
	/* the same after prepare */
	assert_int_equal(L(iocoro_object_prepare(skel->obj, NULL)), NR_STEPS);
	for (i = 0; i < n; i++)
		assert_int_equal(L(iocoro_prog_index(skel->obj, order[i])), i);
	assert_int_equal(L(iocoro_prog_index(skel->obj, skel->progs.not_ours)),
			 -ENOENT);
	assert_int_equal(L(iocoro_prog_index(skel->obj,
					     skel->progs.syscall_prog)), -ENOENT);
	assert_int_equal(L(iocoro_prog_index(NULL, skel->progs.first)),
			 -EINVAL);
	assert_int_equal(L(iocoro_prog_index(skel->obj, NULL)), -EINVAL);
	runtime_progs_bpf__destroy(skel);
}

static void test_prog_index_typed_by_hand(void **state)
{
	struct runtime_progs_bpf *skel = open_skel();

	(void)state;
	/* a program the application made a struct_ops one counts as well */
	assert_int_equal(bpf_program__set_type(skel->progs.syscall_prog,
					       BPF_PROG_TYPE_STRUCT_OPS), 0);
	assert_int_equal(L(iocoro_object_prepare(skel->obj, NULL)),
			 NR_STEPS + 1);
	assert_true(L(iocoro_prog_index(skel->obj, skel->progs.syscall_prog)) >=
		    0);
	runtime_progs_bpf__destroy(skel);
}

/* ------------------------------------------------------- attach_object */

static void test_attach_object_ok(void **state)
{
	struct iocoro *co = *state;
	struct runtime_progs_bpf *skel = open_skel();
	struct bpf_program *order[8];
	int i;

	assert_int_equal(L(iocoro_object_load(skel->obj, NULL)), NR_STEPS);
	assert_int_equal(step_order(skel->obj, order), NR_STEPS);
	fk.nr_reg = 0;
	assert_int_equal(L(iocoro_attach_object(co, skel->obj)), NR_STEPS);
	/* each step as the kind iocoro_prog_index() names, by a link */
	assert_int_equal(fk.nr_links, NR_STEPS);
	for (i = 0; i < NR_STEPS; i++) {
		int kind = L(iocoro_prog_index(skel->obj, order[i]));

		assert_int_equal(fk.links[kind].kind, kind);
		assert_int_equal(fk.links[kind].ring_fd, FAKE_RING_FD);
		assert_int_equal(fk.links[kind].prog_fd,
				 bpf_program__fd(order[i]));
		assert_int_equal(co->links[kind], fk.links[kind].fd);
	}
	assert_int_equal(fake_links_open(), NR_STEPS);
	assert_int_equal(co->nr_progs, NR_STEPS);
	assert_int_equal(fk.nr_reg, 0);
	iocoro_queue_exit(co);
	assert_int_equal(fake_links_open(), 0);
	runtime_progs_bpf__destroy(skel);
}

static void test_attach_object_hole(void **state)
{
	struct iocoro *co = *state;
	struct runtime_progs_bpf *skel = open_skel();
	int idx, i;

	assert_int_equal(L(iocoro_object_load(skel->obj, NULL)), NR_STEPS);
	fk.unloaded_prog = "sleeper";
	assert_int_equal(L(iocoro_attach_object(co, skel->obj)), NR_STEPS);
	idx = L(iocoro_prog_index(skel->obj, skel->progs.sleeper));
	/* no link for the step that is not loaded, one for the others */
	assert_int_equal(co->links[idx], -1);
	assert_int_equal(fk.nr_links, NR_STEPS - 1);
	for (i = 0; i < (int)fk.nr_links; i++)
		assert_int_not_equal(fk.links[i].kind, idx);
	idx = L(iocoro_prog_index(skel->obj, skel->progs.coro));
	for (i = 0; i < (int)fk.nr_links; i++)
		if (fk.links[i].kind == (unsigned int)idx)
			break;
	assert_true(i < (int)fk.nr_links);
	assert_int_equal(fk.links[i].prog_fd, bpf_program__fd(skel->progs.coro));
	assert_int_equal(co->links[idx], fk.links[i].fd);
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
	/* not loaded: every kind would be a hole */
	assert_int_equal(L(iocoro_object_prepare(skel->obj, NULL)), NR_STEPS);
	assert_int_equal(L(iocoro_attach_object(&co, skel->obj)), -EBADF);
	assert_int_equal(L(iocoro_attach_object(&co, smoke->obj)), -ENOENT);
	assert_int_equal(L(iocoro_attach_object(&co, NULL)), -EINVAL);
	assert_int_equal(L(iocoro_attach_object(NULL, skel->obj)), -EINVAL);
	assert_int_equal(fk.nr_link_calls, 0);
	/* the kernel's refusal comes through, at the third link: none kept */
	assert_int_equal(L(iocoro_object_load(skel->obj, NULL)), NR_STEPS);
	fk.link_err = -EPERM;
	fk.link_err_at = 3;
	assert_int_equal(L(iocoro_attach_object(&co, skel->obj)), -EPERM);
	assert_int_equal(fk.nr_link_calls, 3);
	assert_int_equal(fake_links_open(), 0);
	assert_int_equal(co.nr_progs, 0);
	skel_smoke_bpf__destroy(smoke);
	runtime_progs_bpf__destroy(skel);
}

/* an object's steps on a ring that has kinds from iocoro_attach*() */
static void test_attach_object_busy(void **state)
{
	struct iocoro *co = *state;
	struct runtime_progs_bpf *skel = open_skel();

	assert_int_equal(L(iocoro_object_load(skel->obj, NULL)), NR_STEPS);
	assert_int_equal(L(iocoro_attach_object(co, skel->obj)), NR_STEPS);
	assert_int_equal(L(iocoro_attach_object(co, skel->obj)), -EBUSY);
	assert_int_equal(fk.nr_link_calls, NR_STEPS);
	assert_int_equal(fake_links_open(), NR_STEPS);
	/* after a detach, again */
	assert_int_equal(L(iocoro_detach(co)), 0);
	assert_int_equal(L(iocoro_attach_object(co, skel->obj)), NR_STEPS);
	assert_int_equal(fake_links_open(), NR_STEPS);
	runtime_progs_bpf__destroy(skel);
}

static void test_attach_object_too_many(void **state)
{
	struct iocoro *co = *state;
	struct many_bpf *skel = many_bpf__open();

	assert_non_null(skel);
	assert_int_equal(L(iocoro_object_load(skel->obj, NULL)),
			 IOCORO_MAX_PROGS + 1);
	assert_int_equal(L(iocoro_attach_object(co, skel->obj)), -E2BIG);
	assert_int_equal(fk.nr_link_calls, 0);
	assert_int_equal(co->nr_progs, 0);
	many_bpf__destroy(skel);
}

UNIT_MAIN("runtime_load",
	  T(test_prepare_steps),
	  T(test_prepare_log_buf),
	  T(test_prepare_no_steps),
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
	  R(test_attach_object_ok),
	  R(test_attach_object_hole),
	  T(test_attach_object_errors),
	  R(test_attach_object_busy),
	  R(test_attach_object_too_many))
