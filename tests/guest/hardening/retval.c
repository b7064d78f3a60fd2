// SPDX-License-Identifier: MIT
/* The hardening suite, item 5. return value (hardening.h) */
#include "hardening.h"


static char vlog[1 << 16];

static int load_insns(const struct bpf_insn *insns, size_t n)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = vlog,
		    .log_size = sizeof(vlog), .log_level = 1);

	vlog[0] = '\0';
	return bpf_prog_load(BPF_PROG_TYPE_IOURING, "hard_raw", "GPL", insns,
			     n, &opts);
}

#define RETVAL_MSG "At program exit the register R0 is not a known value"

static void expect_pointer_reject(const char *what,
				  const struct bpf_insn *insns, size_t n)
{
	int fd = load_insns(insns, n);

	if (fd >= 0) {
		close(fd);
		FAIL("%s: loaded, want -EINVAL \"" RETVAL_MSG "\"", what);
	}
	if (fd != -EINVAL || !strstr(vlog, RETVAL_MSG)) {
		fprintf(stderr, "verifier log:\n%s\n", vlog);
		FAIL("%s: load failed with %d (%s), want -EINVAL and \""
		     RETVAL_MSG "\" in the log (above)", what, fd,
		     iocoro_errno_name(-fd) ?: "?");
	}
}

/* @insns load, and a request of them completes with @res (+ @extra CQEs) */
static void expect_result(struct io_uring *ring, const char *what,
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
	CHECK_EQ(uring_attach(ring, &fd, 1), 0);
	uring_prep_bpf(ring, 0, UD_BPF);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, 1 + extra);
	if (uring_find_cqe(cqes, 1 + extra, UD_BPF)->res != res)
		fprintf(stderr, "%s:\n", what);
	EXPECT_CQE(cqes, 1 + extra, UD_BPF, res);
	CHECK_EQ(uring_detach(ring), 0);
	close(fd);
}

IOCORO_CASE(retval_pointer)
{
	const struct bpf_insn ctx_ptr[] = { MOV64_REG(BPF_REG_0, BPF_REG_1),
					    EXIT() };
	const struct bpf_insn stack_ptr[] = { MOV64_REG(BPF_REG_0, BPF_REG_10),
					      EXIT() };
	const struct bpf_insn w0[] = { MOV32_IMM(BPF_REG_0, -5), EXIT() };
	const struct bpf_insn r0[] = { MOV64_IMM(BPF_REG_0, -5), EXIT() };
	/* r0 = bpf_io_uring_emit_cqe(ctx, UD_EMIT, 1, 0): an unknown scalar */
	const struct bpf_insn helper[] = {
		MOV64_IMM(BPF_REG_2, 0x1234),
		MOV64_IMM(BPF_REG_3, 1),
		MOV64_IMM(BPF_REG_4, 0),
		CALL(BPF_FUNC_io_uring_emit_cqe),
		EXIT(),
	};
	struct io_uring ring;

	uring_bpf_register_sec();
	expect_pointer_reject("r0 = ctx", ctx_ptr, ARRAY_SIZE(ctx_ptr));
	expect_pointer_reject("r0 = stack pointer", stack_ptr,
			      ARRAY_SIZE(stack_ptr));

	uring_init(&ring, 8, 0);
	expect_result(&ring, "w0 = -5", w0, ARRAY_SIZE(w0), -5, 0);
	expect_result(&ring, "r0 = -5", r0, ARRAY_SIZE(r0), -5, 0);
	expect_result(&ring, "r0 = helper result", helper, ARRAY_SIZE(helper),
		      0, 1);
	io_uring_queue_exit(&ring);
}
