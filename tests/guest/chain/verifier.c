// SPDX-License-Identifier: MIT
/* What the verifier allows a BPF_PROG_TYPE_IOURING program: ctx, helpers */
#include "chain.h"

struct ctx_access {
	const char *what;
	int size; /* BPF_B, BPF_H, BPF_W, BPF_DW */
	int bytes;
	short off;
};

/* every forbidden access to the context is refused at load time */
IOCORO_CASE(verifier_ctx)
{
	static const struct ctx_access reads[] = {
		{ "read of resv", BPF_W, 4, 28 },
		{ "8-byte read of has_prev+resv", BPF_DW, 8, 24 },
		{ "byte read of resv", BPF_B, 1, 28 },
		{ "read past the end", BPF_DW, 8, 32 },
		{ "4-byte read past the end", BPF_W, 4, 32 },
		{ "read far out", BPF_W, 4, 4096 },
		{ "negative offset", BPF_W, 4, -4 },
		{ "misaligned 4-byte read", BPF_W, 4, 2 },
		{ "misaligned 8-byte read", BPF_DW, 8, 12 },
		{ "misaligned 8-byte read at 4", BPF_DW, 8, 4 },
		{ "misaligned 2-byte read", BPF_H, 2, 17 },
	};
	static const struct ctx_access writes[] = {
		{ "8-byte write of user_data", BPF_DW, 8, 0 },
		{ "4-byte write of prev_res", BPF_W, 4, 16 },
		{ "byte write of has_prev", BPF_B, 1, 24 },
		{ "write of resv", BPF_W, 4, 28 },
	};
	char msg[96], what[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(reads); i++) {
		const struct bpf_insn insns[] = {
			LDX(reads[i].size, BPF_REG_0, BPF_REG_1, reads[i].off),
			EXIT(),
		};

		snprintf(msg, sizeof(msg),
			 "invalid bpf_context access off=%d size=%d",
			 reads[i].off, reads[i].bytes);
		expect_reject(reads[i].what, insns, ARRAY_SIZE(insns), 0,
			      EACCES, msg);
	}
	for (i = 0; i < ARRAY_SIZE(writes); i++) {
		const struct bpf_insn stx[] = {
			MOV64_IMM(BPF_REG_2, 0),
			STX(writes[i].size, BPF_REG_1, BPF_REG_2, writes[i].off),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT(),
		};
		const struct bpf_insn st[] = {
			ST(writes[i].size, BPF_REG_1, writes[i].off, 1),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT(),
		};

		snprintf(msg, sizeof(msg),
			 "invalid bpf_context access off=%d size=%d",
			 writes[i].off, writes[i].bytes);
		snprintf(what, sizeof(what), "%s (STX)", writes[i].what);
		expect_reject(what, stx, ARRAY_SIZE(stx), 0, EACCES, msg);
		snprintf(what, sizeof(what), "%s (ST)", writes[i].what);
		expect_reject(what, st, ARRAY_SIZE(st), 0, EACCES, msg);
	}
	/* an atomic add to the context */
	{
		const struct bpf_insn insns[] = {
			MOV64_IMM(BPF_REG_2, 1),
			XADD(BPF_W, BPF_REG_1, BPF_REG_2, 16),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT(),
		};

		expect_reject("atomic add to prev_res", insns,
			      ARRAY_SIZE(insns), 0, EACCES,
			      "BPF_ATOMIC stores into R1 ctx is not allowed");
	}
	/* also from a sleepable program */
	{
		const struct bpf_insn insns[] = {
			MOV64_IMM(BPF_REG_2, 0),
			STX(BPF_W, BPF_REG_1, BPF_REG_2, 16),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT(),
		};

		expect_reject("write of prev_res, sleepable", insns,
			      ARRAY_SIZE(insns), BPF_F_SLEEPABLE, EACCES,
			      "invalid bpf_context access off=16 size=4");
	}
}

/* what the valid reads must see: ctx of a BPF request after a write */
#define V_UD 0x1112131405060708ULL
#define V_PREV_UD 0x0a0b0c0d01020304ULL
#define V_PREV_RES 777

/*
 * Every allowed read loads, and reads what the documented layout says
 * (the program returns what it read, truncated to the int result).
 */
IOCORO_CASE(verifier_ctx_valid)
{
	static const struct {
		int size, off;
		int want;	/* after a write of V_PREV_RES bytes */
		int want_alone; /* not linked */
	} reads[] = {
		{ BPF_DW, 0, 0x05060708, 0x05060708 },
		{ BPF_W, 0, 0x05060708, 0x05060708 },
		{ BPF_W, 4, 0x11121314, 0x11121314 },
		{ BPF_H, 6, 0x1112, 0x1112 },
		{ BPF_B, 7, 0x11, 0x11 },
		{ BPF_DW, 8, 0x01020304, 0 },
		{ BPF_W, 8, 0x01020304, 0 },
		{ BPF_W, 12, 0x0a0b0c0d, 0 },
		{ BPF_W, 16, V_PREV_RES, 0 },
		{ BPF_DW, 16, V_PREV_RES, 0 },
		{ BPF_H, 16, V_PREV_RES, 0 },
		{ BPF_W, 20, 0, 0 },
		{ BPF_W, 24, 1, 0 },
		{ BPF_B, 24, 1, 0 },
		{ BPF_H, 26, 0, 0 },
		{ BPF_B, 27, 0, 0 },
	};
	static char wbuf[V_PREV_RES];
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	char what[64];
	unsigned int i;
	int devnull;

	uring_bpf_register_sec(); /* nothing to do with raw loads, harmless */
	uring_init(&ring, 8, 0);
	devnull = CHECK_SYS(open("/dev/null", O_WRONLY | O_CLOEXEC));
	for (i = 0; i < ARRAY_SIZE(reads); i++) {
		const struct bpf_insn insns[] = {
			LDX(reads[i].size, BPF_REG_0, BPF_REG_1, reads[i].off),
			EXIT(),
		};
		int fd;

		snprintf(what, sizeof(what), "read of size %d at %d",
			 reads[i].size == BPF_DW ? 8 :
			 reads[i].size == BPF_W	 ? 4 :
			 reads[i].size == BPF_H	 ? 2 :
						   1,
			 reads[i].off);
		fd = expect_load(what, insns, ARRAY_SIZE(insns), 0);
		CHECK_EQ(uring_attach(&ring, &fd, 1), 0);

		sqe = uring_sqe(&ring);
		io_uring_prep_write(sqe, devnull, wbuf, V_PREV_RES, 0);
		sqe->flags = IOSQE_IO_HARDLINK;
		sqe->user_data = V_PREV_UD;
		uring_prep_bpf(&ring, 0, V_UD);
		uring_submit(&ring, 2);
		uring_reap(&ring, cqes, 2);
		EXPECT_CQE(cqes, 2, V_PREV_UD, V_PREV_RES);
		if (cqes[1].res != reads[i].want)
			FAIL("%s after a write: res %d (0x%x), want %d (0x%x)",
			     what, cqes[1].res, cqes[1].res, reads[i].want,
			     reads[i].want);
		EXPECT_CQE(cqes, 2, V_UD, reads[i].want);

		uring_prep_bpf(&ring, 0, V_UD);
		uring_submit(&ring, 1);
		uring_reap(&ring, cqes, 1);
		if (cqes[0].res != reads[i].want_alone)
			FAIL("%s, not linked: res %d (0x%x), want %d", what,
			     cqes[0].res, cqes[0].res, reads[i].want_alone);
		EXPECT_CQE(cqes, 1, V_UD, reads[i].want_alone);

		CHECK_EQ(uring_detach(&ring), 0);
		close(fd);
	}
	close(devnull);
	io_uring_queue_exit(&ring);
}

/* bpf_copy_from_user() needs a sleepable program; the helpers need ctx */
IOCORO_CASE(verifier_helpers)
{
	const struct bpf_insn copy[] = {
		MOV64_REG(BPF_REG_1, BPF_REG_10),
		ADD64_IMM(BPF_REG_1, -8),
		MOV64_IMM(BPF_REG_2, 8),
		MOV64_IMM(BPF_REG_3, 0),
		CALL(BPF_FUNC_copy_from_user),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};
	const struct bpf_insn emit_no_ctx[] = {
		MOV64_IMM(BPF_REG_1, 0),
		MOV64_IMM(BPF_REG_2, 1),
		MOV64_IMM(BPF_REG_3, 2),
		MOV64_IMM(BPF_REG_4, 0),
		CALL(BPF_FUNC_io_uring_emit_cqe),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};
	const struct bpf_insn emit[] = {
		MOV64_IMM(BPF_REG_2, 1),
		MOV64_IMM(BPF_REG_3, 2),
		MOV64_IMM(BPF_REG_4, 0),
		CALL(BPF_FUNC_io_uring_emit_cqe),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};

	expect_reject("bpf_copy_from_user, not sleepable", copy,
		      ARRAY_SIZE(copy), 0, EINVAL,
		      "program of this type cannot use helper "
		      "bpf_copy_from_user#148");
	close(expect_load("bpf_copy_from_user, sleepable", copy,
			  ARRAY_SIZE(copy), BPF_F_SLEEPABLE));

	expect_reject("emit_cqe without the ctx", emit_no_ctx,
		      ARRAY_SIZE(emit_no_ctx), 0, EACCES,
		      "R1 type=scalar expected=ctx");
	close(expect_load("emit_cqe", emit, ARRAY_SIZE(emit), 0));
	close(expect_load("emit_cqe, sleepable", emit, ARRAY_SIZE(emit),
			  BPF_F_SLEEPABLE));
}
