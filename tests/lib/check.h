/* SPDX-License-Identifier: MIT */
/*
 * CHECK macros for guest tests and tools: on failure they print
 * "file:line: what failed" to stderr and exit(1). There is deliberately no
 * SKIP: a guest test whose kernel lacks a feature fails.
 *
 *   CHECK(cond)                 any condition
 *   CHECK_SYS(expr)             libc call: fails when expr == -1, prints errno
 *   CHECK_RET(expr)             liburing-style call: fails when expr < 0,
 *                               prints it as -errno; evaluates to expr
 *   CHECK_EQ(a, b)              integers, printed signed
 *   CHECK_EQ_U64(a, b)          integers, printed unsigned and in hex
 *   CHECK_CQE(cqe, ud, res)     a CQE has this user_data and res
 *   FAIL(fmt, ...)              unconditional failure with a message
 *   SKEL_LOAD(x_bpf)            x_bpf__open_and_load(), failing with its
 *                               errno: the skeleton
 *   SKEL_OPEN(x_bpf)            x_bpf__open() the same way
 *
 * Every argument is evaluated exactly once.
 */
#ifndef IOCORO_TESTS_CHECK_H
#define IOCORO_TESTS_CHECK_H

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cqe_str.h"

#define CHECK_FAIL_(...)                                              \
	do {                                                          \
		fflush(stdout);                                       \
		fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);       \
		fprintf(stderr, __VA_ARGS__);                         \
		fputc('\n', stderr);                                  \
		exit(1);                                              \
	} while (0)

#define FAIL(...) CHECK_FAIL_("FAIL: " __VA_ARGS__)

#define CHECK(cond)                                                   \
	do {                                                          \
		if (!(cond))                                          \
			CHECK_FAIL_("CHECK(%s) failed", #cond);       \
	} while (0)

#define CHECK_SYS(expr)                                                       \
	({                                                                    \
		__typeof__(expr) check_v_ = (expr);                           \
		if (check_v_ == -1) {                                         \
			int check_e_ = errno;                                 \
			const char *check_n_ = iocoro_errno_name(check_e_);   \
			CHECK_FAIL_("%s failed: errno %d (%s: %s)", #expr,    \
				    check_e_, check_n_ ? check_n_ : "?",      \
				    strerror(check_e_));                      \
		}                                                             \
		check_v_;                                                     \
	})

#define CHECK_RET(expr)                                                       \
	({                                                                    \
		__typeof__(expr) check_v_ = (expr);                           \
		if (check_v_ < 0) {                                           \
			char check_b_[96];                                    \
			iocoro_res_str(check_b_, sizeof(check_b_),            \
				       (int32_t)check_v_);                    \
			CHECK_FAIL_("%s failed: %s", #expr, check_b_);        \
		}                                                             \
		check_v_;                                                     \
	})

#define CHECK_EQ(a, b)                                                        \
	do {                                                                  \
		long long check_a_ = (long long)(a);                          \
		long long check_b_ = (long long)(b);                          \
		if (check_a_ != check_b_)                                     \
			CHECK_FAIL_("CHECK_EQ(%s, %s) failed: %lld != %lld",  \
				    #a, #b, check_a_, check_b_);              \
	} while (0)

#define CHECK_EQ_U64(a, b)                                                    \
	do {                                                                  \
		uint64_t check_a_ = (uint64_t)(a);                            \
		uint64_t check_b_ = (uint64_t)(b);                            \
		if (check_a_ != check_b_)                                     \
			CHECK_FAIL_("CHECK_EQ_U64(%s, %s) failed: %" PRIu64   \
				    " (0x%" PRIx64 ") != %" PRIu64            \
				    " (0x%" PRIx64 ")",                       \
				    #a, #b, check_a_, check_a_, check_b_,     \
				    check_b_);                                \
	} while (0)

#define CHECK_CQE(cqe, ud, res_)                                              \
	do {                                                                  \
		const struct io_uring_cqe *check_c_ = (cqe);                  \
		uint64_t check_ud_ = (uint64_t)(ud);                          \
		int32_t check_r_ = (int32_t)(res_);                           \
		if (!check_c_)                                                \
			CHECK_FAIL_("CHECK_CQE(%s): no CQE", #cqe);           \
		if (check_c_->user_data != check_ud_ ||                       \
		    check_c_->res != check_r_) {                              \
			char check_got_[IOCORO_CQE_STR_MAX];                  \
			char check_want_[96];                                 \
			iocoro_cqe_str(check_got_, sizeof(check_got_),        \
				       check_c_);                             \
			iocoro_res_str(check_want_, sizeof(check_want_),      \
				       check_r_);                             \
			CHECK_FAIL_("CHECK_CQE(%s, %s, %s) failed: got %s, "  \
				    "want user_data=0x%" PRIx64 " res=%s",    \
				    #cqe, #ud, #res_, check_got_, check_ud_,  \
				    check_want_);                             \
		}                                                             \
	} while (0)

/* x_bpf__fn(), failing with its errno: the skeleton (a GNU ({ })) */
#define SKEL_CALL_(x, fn)                                                     \
	({                                                                    \
		struct x *skel_ = x##__##fn();                                \
		if (!skel_)                                                   \
			FAIL(#x "__" #fn ": %s", strerror(errno));            \
		skel_;                                                        \
	})
/* the skeleton x_bpf opened and loaded */
#define SKEL_LOAD(x) SKEL_CALL_(x, open_and_load)
/* the same, opened only (to set flags before a load) */
#define SKEL_OPEN(x) SKEL_CALL_(x, open)

#endif
