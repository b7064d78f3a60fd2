// SPDX-License-Identifier: MIT
/*
 * What a step may return: a step returning a pointer in R0 does not load
 * (-EINVAL, "At program exit the register R0 is not a known value");
 * 32-bit and 64-bit scalars and a kfunc's result still do, and complete
 * the start. The steps are raw instructions.
 */
#include "kinds.h"

#include <bpf/btf.h>


static char vlog[1 << 16];

/* the vmlinux BTF id of @name, a @kind */
static __u32 vmlinux_id(const char *name, __u32 kind)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int id;

	if (!btf)
		FAIL("btf__load_vmlinux_btf: %s", strerror(errno));
	id = btf__find_by_name_kind(btf, name, kind);
	btf__free(btf);
	if (id <= 0)
		FAIL("vmlinux BTF has no %s: %d", name, id);
	return (__u32)id;
}

/* @insns as the step of struct io_coro_ops (its member 0): fd or -errno */
static int load_insns(const struct bpf_insn *insns, size_t n)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = vlog,
		    .log_size = sizeof(vlog), .log_level = 1,
		    .expected_attach_type = 0);

	opts.attach_btf_id = vmlinux_id("io_coro_ops", BTF_KIND_STRUCT);
	vlog[0] = '\0';
	return bpf_prog_load(BPF_PROG_TYPE_STRUCT_OPS, "hard_raw", "GPL",
			     insns, n, &opts);
}

#define RETVAL_MSG "At program exit the register R0 is not a known value"

/* a start of kind 0 of @co: its result */
static int start_res(struct iocoro *co)
{
	struct io_uring_cqe cqe;

	uring_prep_start(&co->ring, 0, UD_BPF);
	uring_submit(&co->ring, 1);
	uring_reap(&co->ring, &cqe, 1);
	CHECK_EQ_U64(cqe.user_data, UD_BPF);
	return cqe.res;
}

/* @insns must not load; if they do, the failure shows what a start got */
static void expect_pointer_reject(struct iocoro *co, const char *what,
				  const struct bpf_insn *insns, size_t n)
{
	int fd = load_insns(insns, n), res;

	if (fd >= 0) {
		CHECK_EQ(iocoro_attach(co, &fd, 1), 0);
		res = start_res(co);
		FAIL("%s: loaded, want -EINVAL \"" RETVAL_MSG "\"; attached, "
		     "its start completed with %d (0x%x)", what, res,
		     (unsigned int)res);
	}
	if (fd != -EINVAL || !strstr(vlog, RETVAL_MSG)) {
		fprintf(stderr, "verifier log:\n%s\n", vlog);
		FAIL("%s: load failed with %d (%s), want -EINVAL and \""
		     RETVAL_MSG "\" in the log (above)", what, fd,
		     iocoro_errno_name(-fd) ?: "?");
	}
}

/*
 * @insns load, attach as kind 0, and a start of them completes with @res
 * (+ @extra CQEs)
 */
static void expect_result(struct iocoro *co, const char *what,
			  const struct bpf_insn *insns, size_t n, int res,
			  unsigned int extra)
{
	struct io_uring_cqe cqes[2];
	int fd = load_insns(insns, n);

	if (fd < 0) {
		fprintf(stderr, "verifier log:\n%s\n", vlog);
		FAIL("%s: load failed with %d (%s), want success", what, fd,
		     iocoro_errno_name(-fd) ?: "?");
	}
	CHECK_EQ(iocoro_attach(co, &fd, 1), 0);
	uring_prep_start(&co->ring, 0, UD_BPF);
	uring_submit(&co->ring, 1);
	uring_reap(&co->ring, cqes, 1 + extra);
	if (uring_find_cqe(cqes, 1 + extra, UD_BPF)->res != res)
		fprintf(stderr, "%s:\n", what);
	EXPECT_CQE(cqes, 1 + extra, UD_BPF, res);
	CHECK_EQ(iocoro_detach(co), 0);
	close(fd);
}

/* the kfunc call instruction of vmlinux function @id */
#define KFUNC_CALL(id) INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, id)

IOCORO_CASE(retval_pointer)
{
	/* a step's R1 is its context: the arguments, the first the step */
	const struct bpf_insn ctx_ptr[] = { MOV64_REG(BPF_REG_0, BPF_REG_1),
					    EXIT() };
	const struct bpf_insn step_ptr[] = {
		LDX(BPF_DW, BPF_REG_0, BPF_REG_1, 0),
		EXIT(),
	};
	const struct bpf_insn stack_ptr[] = { MOV64_REG(BPF_REG_0, BPF_REG_10),
					      EXIT() };
	const struct bpf_insn w0[] = { MOV32_IMM(BPF_REG_0, -5), EXIT() };
	const struct bpf_insn r0[] = { MOV64_IMM(BPF_REG_0, -5), EXIT() };
	/* r0 = bpf_io_coro_emit_cqe(step, 0x1234, 1, 0): an unknown scalar */
	const struct bpf_insn kfunc[] = {
		LDX(BPF_DW, BPF_REG_1, BPF_REG_1, 0),
		MOV64_IMM(BPF_REG_2, 0x1234),
		MOV64_IMM(BPF_REG_3, 1),
		MOV64_IMM(BPF_REG_4, 0),
		KFUNC_CALL((__s32)vmlinux_id("bpf_io_coro_emit_cqe",
					     BTF_KIND_FUNC)),
		EXIT(),
	};
	struct iocoro co;

	uring_co_init(&co, 8, 0);
	expect_pointer_reject(&co, "r0 = ctx", ctx_ptr, ARRAY_SIZE(ctx_ptr));
	expect_pointer_reject(&co, "r0 = step", step_ptr,
			      ARRAY_SIZE(step_ptr));
	expect_pointer_reject(&co, "r0 = stack pointer", stack_ptr,
			      ARRAY_SIZE(stack_ptr));
	expect_result(&co, "w0 = -5", w0, ARRAY_SIZE(w0), -5, 0);
	expect_result(&co, "r0 = -5", r0, ARRAY_SIZE(r0), -5, 0);
	expect_result(&co, "r0 = kfunc result", kfunc, ARRAY_SIZE(kfunc), 0,
		      1);
	io_uring_queue_exit(&co.ring);
}
