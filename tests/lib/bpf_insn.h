/* SPDX-License-Identifier: MIT */
/*
 * Raw BPF instructions, for guest tests that hand the verifier programs
 * no compiler would write (struct bpf_insn of <linux/bpf.h>):
 *
 *   INSN(code, dst, src, off, imm)     any instruction
 *   MOV64_IMM(d, i), MOV32_IMM(d, i), MOV64_REG(d, s), ADD64_IMM(d, i)
 *   LDX(size, d, s, off), STX(size, d, s, off), ST(size, d, off, imm)
 *   XADD(size, d, s, off)              atomic add of s to *(d + off)
 *   CALL(helper id), EXIT()
 *   LD_IMM64(d, v)                     d = v (two instructions)
 */
#ifndef IOCORO_TESTS_BPF_INSN_H
#define IOCORO_TESTS_BPF_INSN_H

#include <linux/bpf.h>

#define INSN(c, d, s, o, i)                                                   \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s),      \
			    .off = (o), .imm = (i) })
#define MOV64_IMM(d, i) INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV32_IMM(d, i) INSN(BPF_ALU | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV64_REG(d, s) INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ADD64_IMM(d, i) INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define LDX(sz, d, s, o) INSN(BPF_LDX | BPF_MEM | (sz), d, s, o, 0)
#define STX(sz, d, s, o) INSN(BPF_STX | BPF_MEM | (sz), d, s, o, 0)
#define ST(sz, d, o, i) INSN(BPF_ST | BPF_MEM | (sz), d, 0, o, i)
#define XADD(sz, d, s, o) INSN(BPF_STX | BPF_ATOMIC | (sz), d, s, o, BPF_ADD)
#define CALL(f) INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT() INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define LD_IMM64(d, v)                                                        \
	INSN(BPF_LD | BPF_DW | BPF_IMM, d, 0, 0, (__s32)(__u32)(v)),          \
		INSN(0, 0, 0, 0, (__s32)(__u32)((__u64)(v) >> 32))

#endif
