// SPDX-License-Identifier: MIT
/*
 * Verifier negatives: struct io_coro_ops steps (and one program of
 * another type) that must be refused at load, each with the verifier's
 * reason checked in its log and the load's error. One case per program
 * of verifier.bpf.c:
 *
 *   ctx_write        a write to the read-only step context (res)
 *   ctx_oob          a read past the end of struct io_coro_step
 *   queue_not_ctx    bpf_io_coro_queue_sqe() with a stack pointer, not
 *                    the step's context, as its first argument (a
 *                    struct io_coro_step of plain scalars would be
 *                    memory the stack can fake: it holds a pointer)
 *   queue_len_big    bpf_io_coro_queue_sqe() of 128 bytes from a 64-byte
 *                    stack SQE
 *   queue_len_var    ... of a size that is not known and may be past
 *                    the SQE
 *   queue_len_ok     the same step with 64 bytes loads: the control
 *   copy_user        bpf_copy_from_user() in a step that is not sleepable
 *   skb_helper       bpf_skb_load_bytes(), a socket filter's helper
 *   endless          a loop that never ends
 *   buf_no_null      bpf_io_coro_buf()'s view used without a NULL check
 *   buf_write        ... written to (it is read only)
 *   buf_oob          ... read past the bytes asked for
 *   buf_var_size     ... asked for with a size that is not a constant
 *   kfunc_syscall    a BPF_PROG_TYPE_SYSCALL program calling a kfunc of
 *                    the steps
 *
 * Usage: verifier_test <case> | --list   (tests/lib/case.h)
 */
#include <linux/io_uring.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "case.h"
#include "check.h"

#include "verifier.skel.h"

static char vlog[1 << 16];

/* verifier.bpf.c with program @name alone to load, its log in vlog */
static struct verifier_bpf *open_alone(const char *name, int type)
{
	struct verifier_bpf *skel;
	struct bpf_program *prog, *target = NULL;

	skel = SKEL_OPEN(verifier_bpf);
	bpf_object__for_each_program(prog, skel->obj) {
		bool me = !strcmp(bpf_program__name(prog), name);

		CHECK_EQ(bpf_program__set_autoload(prog, me), 0);
		if (me)
			target = prog;
	}
	if (!target)
		FAIL("verifier.bpf.c has no program %s", name);
	CHECK_EQ(bpf_program__type(target), type);
	vlog[0] = '\0';
	CHECK_EQ(bpf_program__set_log_buf(target, vlog, sizeof(vlog)), 0);
	CHECK_EQ(bpf_program__set_log_level(target, 1), 0);
	return skel;
}

/* load program @name of verifier.bpf.c alone: refused, -@err, @msg */
static void refuse_typed(const char *name, int type, int err, const char *msg)
{
	struct verifier_bpf *skel = open_alone(name, type);
	int ret = verifier_bpf__load(skel);

	if (ret >= 0)
		FAIL("%s: loaded, want -%s and \"%s\"", name,
		     iocoro_errno_name(err), msg);
	if (ret != -err || !strstr(vlog, msg)) {
		fprintf(stderr, "verifier log:\n%s\n", vlog);
		FAIL("%s: load failed with %d (%s), want -%s and \"%s\" in the "
		     "log (above)", name, ret, iocoro_errno_name(-ret) ?: "?",
		     iocoro_errno_name(err), msg);
	}
	printf("%s: refused, -%s: %s\n", name, iocoro_errno_name(err), msg);
	verifier_bpf__destroy(skel);
}

static void refuse_step(const char *name, int err, const char *msg)
{
	refuse_typed(name, BPF_PROG_TYPE_STRUCT_OPS, err, msg);
}

IOCORO_CASE(ctx_write)
{
	refuse_step("ctx_write", EACCES, "only read is supported");
}

IOCORO_CASE(ctx_oob)
{
	refuse_step("ctx_oob", EACCES,
		    "access beyond struct io_coro_step at off 40 size 4");
}

IOCORO_CASE(queue_not_ctx)
{
	/* a trusted BTF object, which stack memory is not */
	refuse_step("queue_not_ctx", EINVAL,
		    "arg#0 pointer type STRUCT io_coro_step must point to "
		    "scalar");
}

IOCORO_CASE(queue_len_big)
{
	refuse_step("queue_len_big", EINVAL,
		    "invalid indirect access to stack R2 off=-64 size=128");
}

IOCORO_CASE(queue_len_var)
{
	/* the largest size it may have, 127 bytes, past the 64 */
	refuse_step("queue_len_var", EINVAL,
		    "invalid indirect access to stack R2 off=-64 size=127");
}

IOCORO_CASE(queue_len_ok)
{
	struct verifier_bpf *skel = open_alone("queue_len_ok",
					       BPF_PROG_TYPE_STRUCT_OPS);
	int ret = verifier_bpf__load(skel);

	if (ret) {
		fprintf(stderr, "verifier log:\n%s\n", vlog);
		FAIL("queue_len_ok: load failed with %d (%s), want success",
		     ret, iocoro_errno_name(-ret) ?: "?");
	}
	printf("queue_len_ok: loaded\n");
	verifier_bpf__destroy(skel);
}

IOCORO_CASE(copy_user)
{
	refuse_step("copy_user", EINVAL,
		    "program of this type cannot use helper "
		    "bpf_copy_from_user#148");
}

IOCORO_CASE(skb_helper)
{
	refuse_step("skb_helper", EINVAL,
		    "program of this type cannot use helper "
		    "bpf_skb_load_bytes#26");
}

IOCORO_CASE(endless)
{
	refuse_step("endless", EINVAL, "infinite loop detected at insn");
}

IOCORO_CASE(buf_no_null)
{
	refuse_step("buf_no_null", EACCES,
		    "invalid mem access 'rdonly_mem_or_null'");
}

IOCORO_CASE(buf_write)
{
	refuse_step("buf_write", EACCES, "cannot write into rdonly_mem");
}

IOCORO_CASE(buf_oob)
{
	refuse_step("buf_oob", EACCES,
		    "invalid access to memory, mem_size=8 off=8 size=1");
}

IOCORO_CASE(buf_var_size)
{
	refuse_step("buf_var_size", EINVAL, "R4 is not a const");
}

IOCORO_CASE(kfunc_syscall)
{
	refuse_typed("kfunc_syscall", BPF_PROG_TYPE_SYSCALL, EACCES,
		     "calling kernel function bpf_io_coro_emit_cqe is not "
		     "allowed");
}
