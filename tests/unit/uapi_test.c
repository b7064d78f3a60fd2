// SPDX-License-Identifier: MIT
/*
 * The ids and layouts libiocoro and bpf-lib use are those of the patched
 * kernel's uapi headers this tree is built against, and none of the
 * series' numbers or names is one upstream gives to something else
 * (tests/unit/upstream-uapi.txt).
 *
 * The _Static_asserts fail the build, not the test: among them the limits
 * iocoro/user_data.h states against the uapi's IORING_BPF_* macros. The
 * case checks what the compiler cannot: the generated helper header
 * against the header it was generated from. <iocoro/bpf.h> has the same
 * static asserts for the BPF target, so every .bpf.c built here checks
 * them too.
 */
#include <ctype.h>
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

/* ---- build-time: ids (the uapi's; upstream's are checked at run time) */
_Static_assert(BPF_PROG_TYPE_IOURING == 62, "the last a token mask holds");
_Static_assert(IORING_ATTACH_BPF == 128 && IORING_DETACH_BPF == 129 &&
	       IORING_REGISTER_BPF_BUDGET == 130,
	       "io_uring_register opcodes of the series");
_Static_assert(IORING_OP_BPF == 128 && IORING_OP_LAST == IORING_OP_BPF + 1,
	       "IORING_OP_BPF is the last opcode, 128");
/* the generated helper declarations */
_Static_assert(IOCORO_BPF_FUNC_io_uring_queue_sqe ==
	       BPF_FUNC_io_uring_queue_sqe, "queue_sqe id");
_Static_assert(IOCORO_BPF_FUNC_io_uring_emit_cqe ==
	       BPF_FUNC_io_uring_emit_cqe, "emit_cqe id");
_Static_assert(IOCORO_BPF_FUNC_io_uring_queue_sqe_cont ==
	       BPF_FUNC_io_uring_queue_sqe_cont, "queue_sqe_cont id");
_Static_assert(IOCORO_BPF_FUNC_io_uring_post_result ==
	       BPF_FUNC_io_uring_post_result, "post_result id");
_Static_assert(BPF_FUNC_io_uring_queue_sqe == BPF_FUNC_cgrp_storage_delete + 1 &&
	       BPF_FUNC_io_uring_emit_cqe == BPF_FUNC_io_uring_queue_sqe + 1 &&
	       BPF_FUNC_io_uring_queue_sqe_cont ==
		       BPF_FUNC_io_uring_emit_cqe + 1 &&
	       BPF_FUNC_io_uring_post_result ==
		       BPF_FUNC_io_uring_queue_sqe_cont + 1,
	       "the series' helpers follow cgrp_storage_delete");

/* ---- build-time: layouts */
_Static_assert(sizeof(struct io_uring_step_ctx) == 32, "ctx size");
_Static_assert(offsetof(struct io_uring_step_ctx, user_data) == 0 &&
	       offsetof(struct io_uring_step_ctx, prev_user_data) == 8 &&
	       offsetof(struct io_uring_step_ctx, prev_res) == 16 &&
	       offsetof(struct io_uring_step_ctx, prev_flags) == 20 &&
	       offsetof(struct io_uring_step_ctx, has_prev) == 24 &&
	       offsetof(struct io_uring_step_ctx, resv) == 28,
	       "ctx fields");
_Static_assert(sizeof(((struct io_uring_step_ctx *)0)->prev_res) == 4 &&
	       (__typeof__(((struct io_uring_step_ctx *)0)->prev_res))-1 < 0,
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
	assert_says(g, "bpf_io_uring_queue_sqe_cont\\)\\(void \\*ctx, const void \\*sqe, __u32 len, __u32 prog\\)");
	assert_says(g, "bpf_io_uring_post_result\\)\\(void \\*ctx, __u64 user_data\\)");
	free(g);
}

/* ---- upstream's numbers and names (tests/unit/upstream-uapi.txt) */

/* a number of the series in one of upstream's spaces */
struct ours {
	const char *space;
	const char *what;
	long value;
};

static const struct ours ours[] = {
	{ "io_uring_op", "IORING_OP_BPF", IORING_OP_BPF },
	{ "io_uring_register_op", "IORING_ATTACH_BPF", IORING_ATTACH_BPF },
	{ "io_uring_register_op", "IORING_DETACH_BPF", IORING_DETACH_BPF },
	{ "io_uring_register_op", "IORING_REGISTER_BPF_BUDGET",
	  IORING_REGISTER_BPF_BUDGET },
	{ "bpf_prog_type", "BPF_PROG_TYPE_IOURING", BPF_PROG_TYPE_IOURING },
	{ "bpf_func_id", "bpf_io_uring_queue_sqe",
	  BPF_FUNC_io_uring_queue_sqe },
	{ "bpf_func_id", "bpf_io_uring_emit_cqe", BPF_FUNC_io_uring_emit_cqe },
	{ "bpf_func_id", "bpf_io_uring_queue_sqe_cont",
	  BPF_FUNC_io_uring_queue_sqe_cont },
	{ "bpf_func_id", "bpf_io_uring_post_result",
	  BPF_FUNC_io_uring_post_result },
};

/* @text without its C comments, in place */
static char *strip_comments(char *text)
{
	char *in = text, *out = text;

	while (*in) {
		if (in[0] == '/' && in[1] == '*') {
			char *end = strstr(in + 2, "*/");

			in = end ? end + 2 : in + strlen(in);
			continue;
		}
		*out++ = *in++;
	}
	*out = '\0';
	return text;
}

/* @word appears in @text as a whole identifier */
static int has_identifier(const char *text, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = strstr(text, word); p; p = strstr(p + 1, word)) {
		int before = p > text && (isalnum((unsigned char)p[-1]) ||
					  p[-1] == '_');
		int after = isalnum((unsigned char)p[n]) || p[n] == '_';

		if (!before && !after)
			return 1;
	}
	return 0;
}

static void test_upstream_numbers_and_names(void **state)
{
	char *list = slurp(IOCORO_UPSTREAM_UAPI);
	char *io_uring_h = strip_comments(
		slurp(IOCORO_KERNEL_INCLUDE "/linux/io_uring.h"));
	char *bpf_h = strip_comments(slurp(IOCORO_KERNEL_INCLUDE "/linux/bpf.h"));
	/* the kernel's struct_ops type and kfuncs, as the BPF side names them */
	char *coro_h = strip_comments(slurp(IOCORO_CORO_OPS_H));
	unsigned int ranges = 0, names = 0, i;
	char *line, *save = NULL;

	(void)state;
	for (line = strtok_r(list, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char space[64], word[128];
		long lo, hi;

		if (sscanf(line, "range %63s %ld %ld", space, &lo, &hi) == 3 ||
		    sscanf(line, "reserve %63s %ld %ld", space, &lo, &hi) == 3) {
			ranges++;
			for (i = 0; i < sizeof(ours) / sizeof(ours[0]); i++) {
				if (strcmp(ours[i].space, space))
					continue;
				if (ours[i].value >= lo && ours[i].value <= hi)
					fail_msg("%s = %ld: upstream's %s %ld..%ld",
						 ours[i].what, ours[i].value,
						 space, lo, hi);
			}
		} else if (sscanf(line, "name %127s", word) == 1) {
			names++;
			if (has_identifier(io_uring_h, word) ||
			    has_identifier(bpf_h, word))
				fail_msg("the uapi names %s, upstream's", word);
			if (has_identifier(coro_h, word))
				fail_msg("coro_ops.h names %s, upstream's", word);
		}
	}
	/* the list was read, and covers every space the series uses */
	assert_true(ranges >= 6);
	assert_true(names >= 10);
	/* and it is the file that names them */
	assert_true(has_identifier(coro_h, "io_coro_ops"));
	assert_true(has_identifier(coro_h, "bpf_io_coro_queue_sqe_cont"));
	free(coro_h);
	free(bpf_h);
	free(io_uring_h);
	free(list);
}

/*
 * The highest bit of @prefix flags in @text (#define <prefix>X (1U << N)),
 * or -1. 6.12's are upstream's too; a flag the series added above them
 * must be above upstream's range.
 */
static int highest_bit(const char *text, const char *prefix)
{
	char re[128];
	regmatch_t m[2];
	const char *p = text;
	regex_t r;
	int max = -1;

	snprintf(re, sizeof(re), "#define %s[A-Z0-9_]+[ \t]+\\(1U << ([0-9]+)\\)",
		 prefix);
	assert_int_equal(regcomp(&r, re, REG_EXTENDED), 0);
	while (!regexec(&r, p, 2, m, 0)) {
		int bit = atoi(p + m[1].rm_so);

		if (bit > max)
			max = bit;
		p += m[0].rm_eo;
	}
	regfree(&r);
	return max;
}

/* @space's range in the list: its last number */
static long upstream_last(const char *list, const char *space)
{
	char want[96];
	const char *p;
	long lo, hi;

	snprintf(want, sizeof(want), "\nrange %s ", space);
	p = strstr(list, want);
	if (!p)
		fail_msg("upstream-uapi.txt has no range %s", space);
	assert_int_equal(sscanf(p + strlen(want), "%ld %ld", &lo, &hi), 2);
	return hi;
}

/* the series adds no setup or feature flag where upstream has its own */
static void test_upstream_flag_bits(void **state)
{
	char *list = slurp(IOCORO_UPSTREAM_UAPI);
	char *h = slurp(IOCORO_KERNEL_INCLUDE "/linux/io_uring.h");
	int setup = highest_bit(h, "IORING_SETUP_");
	int feat = highest_bit(h, "IORING_FEAT_");

	(void)state;
	/* 6.12's last: IORING_SETUP_NO_SQARRAY, IORING_FEAT_MIN_TIMEOUT */
	assert_true(setup == 16 ||
		    setup > upstream_last(list, "io_uring_setup_bit"));
	assert_true(feat == 15 ||
		    feat > upstream_last(list, "io_uring_feature_bit"));
	free(h);
	free(list);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generated_from_this_header),
		cmocka_unit_test(test_upstream_numbers_and_names),
		cmocka_unit_test(test_upstream_flag_bits),
	};

	return cmocka_run_group_tests_name("uapi", tests, NULL, NULL);
}
