// SPDX-License-Identifier: MIT
/*
 * The ids and layouts libiocoro and bpf-lib use are those of the patched
 * kernel's uapi headers this tree is built against.
 *
 * The _Static_asserts fail the build, not the test: among them the limits
 * iocoro/user_data.h states against the uapi's IORING_BPF_* macros. The
 * case checks what the compiler cannot: the generated helper header
 * against the header it was generated from. <iocoro/bpf.h> has the same
 * static asserts for the BPF target, so every .bpf.c built here checks
 * them too.
 */
#include <errno.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "iocoro.h"
#include <linux/bpf.h>
#include <iocoro/bpf_io_uring_helpers.h>

/* ---- build-time: ids (DESIGN.md's numbers, as the uapi defines them) */
_Static_assert(BPF_PROG_TYPE_IOURING == BPF_PROG_TYPE_NETFILTER + 1,
	       "BPF_PROG_TYPE_IOURING follows BPF_PROG_TYPE_NETFILTER");
_Static_assert(IORING_ATTACH_BPF == 48 && IORING_DETACH_BPF == 49 &&
	       IORING_REGISTER_BPF_BUDGET == 50,
	       "io_uring_register opcodes of the series (31..47: later ones)");
_Static_assert(IORING_OP_BPF == IORING_OP_LISTEN + 1,
	       "IORING_OP_BPF follows IORING_OP_LISTEN");
/* the generated helper declarations */
_Static_assert(IOCORO_BPF_FUNC_io_uring_queue_sqe ==
	       BPF_FUNC_io_uring_queue_sqe, "queue_sqe id");
_Static_assert(IOCORO_BPF_FUNC_io_uring_emit_cqe ==
	       BPF_FUNC_io_uring_emit_cqe, "emit_cqe id");
_Static_assert(BPF_FUNC_io_uring_queue_sqe == BPF_FUNC_cgrp_storage_delete + 1 &&
	       BPF_FUNC_io_uring_emit_cqe == BPF_FUNC_io_uring_queue_sqe + 1,
	       "the series' helpers follow cgrp_storage_delete");

/* ---- build-time: layouts */
_Static_assert(sizeof(struct io_uring_bpf_ctx) == 32, "ctx size");
_Static_assert(offsetof(struct io_uring_bpf_ctx, user_data) == 0 &&
	       offsetof(struct io_uring_bpf_ctx, prev_user_data) == 8 &&
	       offsetof(struct io_uring_bpf_ctx, prev_res) == 16 &&
	       offsetof(struct io_uring_bpf_ctx, prev_flags) == 20 &&
	       offsetof(struct io_uring_bpf_ctx, has_prev) == 24 &&
	       offsetof(struct io_uring_bpf_ctx, resv) == 28,
	       "ctx fields");
_Static_assert(sizeof(((struct io_uring_bpf_ctx *)0)->prev_res) == 4 &&
	       (__typeof__(((struct io_uring_bpf_ctx *)0)->prev_res))-1 < 0,
	       "prev_res is a signed 32-bit CQE res");
_Static_assert(sizeof(struct io_uring_sqe) == 64, "steps queue 64-byte SQEs");
/* user_data: a table index fits its 8 bits */
_Static_assert(IOCORO_MAX_PROGS <= 256, "program index field");

/* ---- build-time: the limits user space states are the uapi's */
_Static_assert(IOCORO_MAX_PROGS == IORING_BPF_MAX_PROGS, "programs per table");
_Static_assert(IOCORO_MAX_QUEUED_SQES == IORING_BPF_MAX_SQES,
	       "SQEs per program run");
_Static_assert(IOCORO_DEFAULT_BUDGET == IORING_BPF_DEFAULT_BUDGET,
	       "default budget");
_Static_assert(IOCORO_MAX_BUDGET == IORING_BPF_MAX_BUDGET, "budget maximum");
/* the ring flags iocoro refuses are the ones the kernel refuses */
_Static_assert((IOCORO_SETUP_UNUSABLE & IOCORO_SETUP_FLAGS) == 0,
	       "iocoro never adds a flag it refuses");

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* @text matches the extended regex @re */
static void assert_says(const char *text, const char *re)
{
	regex_t r;
	int ret;

	assert_int_equal(regcomp(&r, re, REG_EXTENDED | REG_NOSUB), 0);
	ret = regexec(&r, text, 0, NULL, 0);
	regfree(&r);
	if (ret)
		fail_msg("the generated header no longer says /%s/", re);
}

static void test_generated_from_this_header(void **state)
{
	char *g = slurp(IOCORO_BPF_GEN_INCLUDE "/iocoro/bpf_io_uring_helpers.h");
	char want[128];

	(void)state;
	snprintf(want, sizeof(want), "= \\(void \\*\\) %d;",
		 BPF_FUNC_io_uring_queue_sqe);
	assert_says(g, want);
	snprintf(want, sizeof(want), "= \\(void \\*\\) %d;",
		 BPF_FUNC_io_uring_emit_cqe);
	assert_says(g, want);
	/* prototypes as documented */
	assert_says(g, "bpf_io_uring_queue_sqe\\)\\(void \\*ctx, const void \\*sqe, __u32 len\\)");
	assert_says(g, "bpf_io_uring_emit_cqe\\)\\(void \\*ctx, __u64 user_data, __s32 res, __u32 flags\\)");
	free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generated_from_this_header),
	};

	return cmocka_run_group_tests_name("uapi", tests, NULL, NULL);
}
