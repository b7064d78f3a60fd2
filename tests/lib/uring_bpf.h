/* SPDX-License-Identifier: MIT */
/*
 * Helpers for guest tests that drive io_uring rings running coroutine
 * steps (kernel/patches): ring setup, raw io_uring_register(2), exact CQE
 * reaping, fdinfo, forked children, time. Library iocoro_guestlib
 * (tests/lib/CMakeLists.txt); everything fails the test via check.h on an
 * unexpected error, except the functions documented to return -errno.
 *
 * Include <linux/io_uring.h> (the patched uapi) before this header or
 * <liburing.h>, so that liburing's copy of the uapi does not win.
 */
#ifndef IOCORO_TESTS_URING_BPF_H
#define IOCORO_TESTS_URING_BPF_H

#include <linux/io_uring.h>
#include <liburing.h>

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* struct_ops links on a <linux/bpf.h> older than 6.4 (Debian 12's) */
#include "bpf_struct_ops_link.h"
#include "check.h" /* EXPECT_CQE */

/* how long a CQE that must come may take (TCG + KASAN are slow) */
#define URING_CQE_TIMEOUT_MS 10000
/* how long we watch for a CQE that must not come */
#define URING_NO_CQE_MS 200

/* io_uring_register(2) raw: 0 (or its positive result) or -errno */
int uring_register(int ring_fd, unsigned int op, const void *arg,
		   unsigned int nr);

/*
 * Where the value of an io_coro_ops struct_ops map keeps the step (a
 * program fd when the map is updated), the ring fd and the kind, read
 * from the kernel's BTF: for tests that make such maps by hand
 */
struct uring_kind_layout {
	__u32 ops_type_id;	/* BTF id of struct io_coro_ops */
	__u32 value_type_id;	/* of struct bpf_struct_ops_io_coro_ops */
	__u32 value_size;
	__u32 off_step;
	__u32 off_ring_fd;
	__u32 off_kind;
};
/* the layout, read the first time (fails the test without one) */
const struct uring_kind_layout *uring_kind_layout(void);
/*
 * A BTF object of one int, for a struct_ops map of one's own (the map
 * needs a BTF beside the kernel's value type, any that is not the
 * kernel's): its fd or -errno
 */
int uring_kind_btf(void);
/*
 * A struct_ops map (BPF_F_LINK) named @name of one io_coro_ops value, laid
 * out as the kernel's BTF says: step @prog_fd, ring @ring_fd, kind @kind,
 * with the map's own BTF @btf_fd. Its fd or -errno.
 */
int uring_kind_map(const char *name, int btf_fd, int prog_fd, int ring_fd,
		   __u32 kind);
/* BPF_LINK_CREATE of the struct_ops map @map_fd: a link fd or -errno */
int uring_kind_link(int map_fd);

/* io_uring_queue_init(), failing the test on error */
void uring_init(struct io_uring *ring, unsigned int entries,
		unsigned int flags);
/* io_uring_queue_init_params(), failing the test on error */
void uring_init_params(struct io_uring *ring, unsigned int entries,
		       struct io_uring_params *p);

/* a zeroed SQE (64 or 128 bytes as the ring's) */
struct io_uring_sqe *uring_sqe(struct io_uring *ring);
/* uring_sqe() prepared as a NOP with user_data @ud and SQE flags @flags */
struct io_uring_sqe *uring_prep_nop(struct io_uring *ring, __u64 ud,
				    __u8 flags);
/* io_uring_submit() must return @n */
void uring_submit(struct io_uring *ring, int n);

/* one CQE within @ms (not consumed): 0, or -ETIME */
int uring_wait_cqe_ms(struct io_uring *ring, struct io_uring_cqe **cqe,
		      unsigned int ms);
/*
 * Exactly @n CQEs, each within URING_CQE_TIMEOUT_MS, copied to @out in
 * arrival order and consumed; then none for URING_NO_CQE_MS.
 */
void uring_reap(struct io_uring *ring, struct io_uring_cqe *out,
		unsigned int n);
/* print @n CQEs to stderr, one a line */
void uring_dump_cqes(const struct io_uring_cqe *cqes, unsigned int n);
/* the one CQE of @cqes with user_data @ud (fails unless exactly one) */
const struct io_uring_cqe *uring_find_cqe(const struct io_uring_cqe *cqes,
					  unsigned int n, uint64_t ud);

/*
 * The one CQE of @cqes_ (@n_ of them) with user_data @ud_ has res @res_ and
 * no flags; else all of them are printed and the test fails (at the
 * caller's line).
 */
#define EXPECT_CQE(cqes_, n_, ud_, res_)                                      \
	do {                                                                  \
		const struct io_uring_cqe *exp_c_ =                           \
			uring_find_cqe(cqes_, n_, ud_);                       \
		if (exp_c_->res != (res_) || exp_c_->flags != 0)              \
			uring_dump_cqes(cqes_, n_);                           \
		CHECK_CQE(exp_c_, ud_, res_);                                 \
		CHECK_EQ(exp_c_->flags, 0);                                   \
	} while (0)

/* /proc/self/fdinfo/<ring fd> as a string (static buffer) */
char *uring_fdinfo(struct io_uring *ring);

/* an fd number that is not open (the one /dev/null just had) */
int uring_closed_fd(void);

/*
 * After another task (a forked child) submitted on the shared ring: take
 * the kernel's SQ tail as liburing's own (its SQ indices are private).
 */
void uring_sync_sq(struct io_uring *ring);

/* ---- child processes */

/*
 * pipe2(@p) and fork(): the child gets 0 and keeps only p[1], the parent
 * the child's pid and only p[0]
 */
pid_t uring_fork_with_pipe(int p[2]);
/* one byte written to @fd (fails the test otherwise) */
void uring_write_byte(int fd, char c);
/* a byte from @fd within @ms: the byte, or -1 on timeout or EOF */
int uring_read_byte_ms(int fd, unsigned int ms);
/* waitpid(@pid) for up to @ms: true and *@status once reaped */
bool uring_reap_child_ms(pid_t pid, unsigned int ms, int *status);
/* the state letter of /proc/@pid/stat ('R', 'S', 'T', ...), 0 if none */
char uring_task_state(pid_t pid);
/* /proc/@pid/{stat,wchan,stack} to stderr */
void uring_dump_task(pid_t pid);

/* io_uring_enter(2) on @ring, raw: its result or -errno */
int uring_enter(struct io_uring *ring, unsigned int to_submit,
		unsigned int min_complete, unsigned int flags);

/* CLOCK_MONOTONIC in ns */
uint64_t uring_now_ns(void);
/* ms since @t0 (uring_now_ns()) */
double uring_ms_since(uint64_t t0);
void uring_sleep_ms(unsigned int ms);

#endif
