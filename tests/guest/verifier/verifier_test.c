// SPDX-License-Identifier: MIT
/*
 * Verifier negatives (issue 11): BPF_PROG_TYPE_IOURING programs that must
 * be refused at load, each with the verifier's reason checked in its log
 * and the load's error. One case per program:
 *
 *   ctx_write        a write to the read-only ctx (prev_res)
 *   ctx_oob          a read past the end of the ctx (offset 32)
 *   ctx_misaligned   a 4-byte ctx read at offset 2
 *   queue_not_ctx    bpf_io_uring_queue_sqe() with a stack pointer, not
 *                    the ctx, as its first argument
 *   queue_len_big    bpf_io_uring_queue_sqe() of 128 bytes from a 64-byte
 *                    stack SQE (raw instructions: a known stack layout)
 *   queue_len_zero   ... of 0 bytes
 *   queue_len_var    ... of a size that is not a known constant
 *   queue_len_ok     the same program with 64 bytes loads: the raw cases'
 *                    control
 *   copy_user        bpf_copy_from_user() in a program that is not
 *                    sleepable
 *   skb_helper       bpf_skb_load_bytes(), a socket filter's helper
 *   endless          a loop that never ends
 *
 * The C programs are in verifier.bpf.c, loaded one at a time through its
 * skeleton (iocoro_bpf_skeleton()); the raw ones with bpf_prog_load().
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

#include "bpf_insn.h"
#include "case.h"
#include "check.h"
#include "uring_bpf.h"

#include "verifier.skel.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static char vlog[1 << 16];

/* the load failed with -@err and the log has @msg */
static void expect_refused(const char *what, int ret, int err,
			   const char *msg)
{
	if (ret >= 0)
		FAIL("%s: loaded, want -%s and \"%s\"", what,
		     iocoro_errno_name(err), msg);
	if (ret != -err || !strstr(vlog, msg)) {
		fprintf(stderr, "verifier log:\n%s\n", vlog);
		FAIL("%s: load failed with %d (%s), want -%s and \"%s\" in the "
		     "log (above)", what, ret, iocoro_errno_name(-ret) ?: "?",
		     iocoro_errno_name(err), msg);
	}
	printf("%s: refused, -%s: %s\n", what, iocoro_errno_name(err), msg);
}

/* load program @name of verifier.bpf.c alone; it must be refused */
static void refuse_prog(const char *name, int err, const char *msg)
{
	struct verifier_bpf *skel;
	struct bpf_program *prog, *target = NULL;
	int ret;

	uring_bpf_register_sec();
	skel = verifier_bpf__open();
	if (!skel)
		FAIL("verifier_bpf__open: %s", strerror(errno));
	bpf_object__for_each_program(prog, skel->obj) {
		bool me = !strcmp(bpf_program__name(prog), name);

		CHECK_EQ(bpf_program__set_autoload(prog, me), 0);
		if (me)
			target = prog;
	}
	if (!target)
		FAIL("verifier.bpf.c has no program %s", name);
	CHECK_EQ(bpf_program__type(target), BPF_PROG_TYPE_IOURING);
	vlog[0] = '\0';
	CHECK_EQ(bpf_program__set_log_buf(target, vlog, sizeof(vlog)), 0);
	CHECK_EQ(bpf_program__set_log_level(target, 1), 0);
	ret = verifier_bpf__load(skel);
	expect_refused(name, ret, err, msg);
	verifier_bpf__destroy(skel);
}

/* ------------------------------------------------- raw queue_sqe sizes */

/*
 * A zeroed 64-byte SQE at fp-64, queued with r3 = @len (@var: r3 = the
 * ctx's user_data, unknown): returns the helper's result.
 */
static int load_queue(int len, bool var)
{
	struct bpf_insn insns[32];
	unsigned int n = 0, i;
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = vlog,
		    .log_size = sizeof(vlog), .log_level = 1);

	for (i = 0; i < 8; i++)
		insns[n++] = ST(BPF_DW, BPF_REG_10, -64 + 8 * (int)i, 0);
	if (var)
		insns[n++] = LDX(BPF_DW, BPF_REG_3, BPF_REG_1, 0);
	else
		insns[n++] = MOV64_IMM(BPF_REG_3, len);
	insns[n++] = MOV64_REG(BPF_REG_2, BPF_REG_10);
	insns[n++] = ADD64_IMM(BPF_REG_2, -64);
	insns[n++] = CALL(BPF_FUNC_io_uring_queue_sqe);
	insns[n++] = EXIT();
	vlog[0] = '\0';
	return bpf_prog_load(BPF_PROG_TYPE_IOURING, "queue_raw", "GPL", insns,
			     n, &opts);
}

IOCORO_CASE(queue_len_big)
{
	expect_refused("queue_len_big", load_queue(128, false), EINVAL,
		       "stack R2 off=-64 size=128");
}

IOCORO_CASE(queue_len_zero)
{
	expect_refused("queue_len_zero", load_queue(0, false), EACCES,
		       "R3 invalid zero-sized read");
}

IOCORO_CASE(queue_len_var)
{
	expect_refused("queue_len_var", load_queue(0, true), EACCES,
		       "R3 min value is negative");
}

IOCORO_CASE(queue_len_ok)
{
	int fd = load_queue(64, false);

	if (fd < 0) {
		fprintf(stderr, "verifier log:\n%s\n", vlog);
		FAIL("queue_len_ok: load failed with %d (%s), want success",
		     fd, iocoro_errno_name(-fd) ?: "?");
	}
	printf("queue_len_ok: loaded\n");
	close(fd);
}

/* ---------------------------------------------------- the C programs */

IOCORO_CASE(ctx_write)
{
	refuse_prog("ctx_write", EACCES,
		    "invalid bpf_context access off=16 size=4");
}

IOCORO_CASE(ctx_oob)
{
	refuse_prog("ctx_oob", EACCES,
		    "invalid bpf_context access off=32 size=4");
}

IOCORO_CASE(ctx_misaligned)
{
	refuse_prog("ctx_misaligned", EACCES,
		    "invalid bpf_context access off=2 size=4");
}

IOCORO_CASE(queue_not_ctx)
{
	refuse_prog("queue_not_ctx", EACCES, "R1 type=fp expected=ctx");
}

IOCORO_CASE(copy_user)
{
	refuse_prog("copy_user", EINVAL,
		    "program of this type cannot use helper "
		    "bpf_copy_from_user#148");
}

IOCORO_CASE(skb_helper)
{
	refuse_prog("skb_helper", EINVAL,
		    "program of this type cannot use helper "
		    "bpf_skb_load_bytes#26");
}

IOCORO_CASE(endless)
{
	refuse_prog("endless", EINVAL, "infinite loop detected at insn");
}
