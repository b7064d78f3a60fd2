// SPDX-License-Identifier: MIT
/*
 * The ids and limits libiocoro and bpf-lib use are those of the patched
 * kernel's uapi headers this tree is built against, the uapi has only the
 * series' coroutine interface (IORING_OP_BPF and struct io_coro_ops, whose
 * kfuncs are BTF, not uapi), and none of the series' numbers or names is
 * one upstream gives to something else (tests/unit/upstream-uapi.txt).
 *
 * The _Static_asserts and #errors fail the build, not the test: among
 * them the limits iocoro/user_data.h and iocoro.h state against the
 * uapi's macros. The cases check what the compiler cannot: the headers'
 * text against upstream's list, and against the names the uapi must not
 * have.
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

/* ---- build-time: ids (the uapi's; upstream's are checked at run time) */
_Static_assert(IORING_OP_BPF == 128 && IORING_OP_LAST == IORING_OP_BPF + 1,
	       "IORING_OP_BPF is the last opcode, 128");

/*
 * ---- build-time: the uapi has no program table. Its macros must not be
 * defined; its enumerators would clash with enum iocoro_uapi_gone below
 * (a macro of the same name breaks that declaration too).
 */
#ifdef IORING_BPF_START_KIND
#error "the uapi defines IORING_BPF_START_KIND: IORING_OP_BPF always starts kind sqe->off"
#endif
#ifdef IORING_BPF_MAX_PROGS
#error "the uapi defines IORING_BPF_MAX_PROGS: a ring has kinds, no table"
#endif
#if defined(IORING_ATTACH_BPF) || defined(IORING_DETACH_BPF) || \
	defined(IORING_REGISTER_BPF_BUDGET)
#error "the uapi defines the program table's io_uring_register opcodes"
#endif
#if defined(BPF_PROG_TYPE_IOURING) || defined(BPF_FUNC_io_uring_queue_sqe)
#error "the uapi defines BPF_PROG_TYPE_IOURING or its helpers"
#endif
enum iocoro_uapi_gone {
	IORING_ATTACH_BPF,
	IORING_DETACH_BPF,
	IORING_REGISTER_BPF_BUDGET,
	BPF_PROG_TYPE_IOURING,
	BPF_FUNC_io_uring_queue_sqe,
	BPF_FUNC_io_uring_emit_cqe,
	BPF_FUNC_io_uring_queue_sqe_cont,
	BPF_FUNC_io_uring_post_result,
};

/*
 * and it adds no register opcode; nor a program type or helper: the series
 * changes no uapi header but io_uring.h (series_uapi fails if it does), and
 * <linux/bpf.h> is the system's unless IOCORO_KERNEL_HEADERS says otherwise
 */
_Static_assert(IORING_REGISTER_LAST == IORING_REGISTER_CLONE_BUFFERS + 1,
	       "6.12's io_uring_register opcodes only");

/* sqe->flags has 8 bits: the series' flag is the last of them */
_Static_assert(IOSQE_BPF_STEP == 1U << 7 &&
	       IOSQE_BPF_STEP_BIT == IOSQE_CQE_SKIP_SUCCESS_BIT + 1,
	       "IOSQE_BPF_STEP is bit 7, after 6.12's flags");

/* ---- build-time: layouts */
_Static_assert(sizeof(struct io_uring_sqe) == 64, "steps queue 64-byte SQEs");
/* user_data: a kind fits its 8 bits */
_Static_assert(IOCORO_MAX_PROGS <= 256, "kind field");

/* ---- build-time: the limits user space states are the uapi's */
_Static_assert(IOCORO_MAX_PROGS == IORING_CORO_MAX_KINDS, "kinds a ring");
_Static_assert(IOCORO_MAX_KINDS == IORING_CORO_MAX_KINDS &&
	       IOCORO_MAX_KINDS == IOCORO_MAX_PROGS, "kinds a ring");
_Static_assert(IOCORO_MAX_QUEUED_SQES == IORING_BPF_MAX_SQES,
	       "SQEs per step");
_Static_assert(IOCORO_MAX_EMITTED_CQES == IORING_BPF_MAX_CQES,
	       "CQEs per step");
_Static_assert(IOCORO_DEFAULT_BUDGET == IORING_BPF_DEFAULT_BUDGET,
	       "default budget");
_Static_assert(IOCORO_MAX_BUDGET == IORING_BPF_MAX_BUDGET, "budget maximum");
_Static_assert(IOCORO_DEFAULT_BUDGET >= 1 &&
	       IOCORO_DEFAULT_BUDGET <= IOCORO_MAX_BUDGET,
	       "the default budget is one a start may ask for");
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

/* ---- upstream's numbers and names (tests/unit/upstream-uapi.txt) */

/* a number of the series in one of upstream's spaces */
struct ours {
	const char *space;
	const char *what;
	long value;
};

static const struct ours ours[] = {
	{ "io_uring_op", "IORING_OP_BPF", IORING_OP_BPF },
	{ "io_uring_sqe_flag_bit", "IOSQE_BPF_STEP_BIT", IOSQE_BPF_STEP_BIT },
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
	char *bpf_h = strip_comments(slurp(IOCORO_BPF_H));
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
	assert_true(ranges >= 7);
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

/* names of the program table the uapi must not have, even in a macro */
static const char *const gone[] = {
	"IORING_ATTACH_BPF", "IORING_DETACH_BPF",
	"IORING_REGISTER_BPF_BUDGET", "IORING_REGISTER_BPF_FIRST",
	"IORING_BPF_START_KIND", "IORING_BPF_MAX_PROGS",
	"BPF_PROG_TYPE_IOURING", "io_uring_step_ctx",
	"io_uring_queue_sqe", "io_uring_emit_cqe", "io_uring_queue_sqe_cont",
	"io_uring_post_result", "BPF_FUNC_io_uring_queue_sqe",
};

static void test_no_program_table(void **state)
{
	char *io_uring_h = strip_comments(
		slurp(IOCORO_KERNEL_INCLUDE "/linux/io_uring.h"));
	char *bpf_h = strip_comments(slurp(IOCORO_BPF_H));
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(gone) / sizeof(gone[0]); i++) {
		if (has_identifier(io_uring_h, gone[i]) ||
		    has_identifier(bpf_h, gone[i]))
			fail_msg("the uapi still names %s", gone[i]);
	}
	/* the headers were read: they name what the series has */
	assert_true(has_identifier(io_uring_h, "IORING_OP_BPF"));
	assert_true(has_identifier(io_uring_h, "IORING_CORO_MAX_KINDS"));
	assert_true(has_identifier(bpf_h, "BPF_PROG_TYPE_STRUCT_OPS"));
	free(bpf_h);
	free(io_uring_h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_upstream_numbers_and_names),
		cmocka_unit_test(test_upstream_flag_bits),
		cmocka_unit_test(test_no_program_table),
	};

	return cmocka_run_group_tests_name("uapi", tests, NULL, NULL);
}
