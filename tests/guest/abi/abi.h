/* SPDX-License-Identifier: MIT */
/*
 * The abi suite (tests/lib/case.h): guest tests of the ABI of the kernel
 * series' coroutine kinds, one file per feature:
 *
 *   op.c         IORING_OP_BPF: the probe, the SQE's checks, the budget
 *                in sqe->len, the rings it refuses, starting a kind
 *   attach.c     kinds attached by bpf_link: taken kinds, kinds out of
 *                range, fds that are no ring, steps that are no step,
 *                all 64 kinds, what the link shows of its kind
 *   queue.c      bpf_io_coro_queue_sqe(): SQEs a step queues
 *   privilege.c  CAP_BPF and CAP_PERFMON to load and attach a step, the
 *                attacher's uid to start one, ring restrictions
 *   release.c    the lifetime of links and steps against the ring's
 *
 * One ctest test abi_<case> per IOCORO_CASE. Every case asserts exact
 * values (CQE res, errno) and fails on the first mismatch; none skips. The
 * steps are in abi.bpf.c, the constants both sides use in abi_progs.h.
 * The helpers below (abi.c) fail the test on any unexpected error.
 *
 * The first include of every file of the suite.
 */
#ifndef IOCORO_TESTS_ABI_H
#define IOCORO_TESTS_ABI_H

#define _GNU_SOURCE
/* iocoro.h first: liburing's own io_uring.h would hide the patched uapi */
#include <iocoro.h>
#include <liburing.h>

#include <linux/bpf.h>
#include <linux/capability.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "case.h"
#include "check.h"
#include "uring_bpf.h"
#include "privs.h"
#include "start.h"
#include "abi.skel.h"

/* the opcode of the series, as the patched uapi header defines it */
_Static_assert(IORING_OP_BPF == 128, "IORING_OP_BPF is 128");

#include "abi_progs.h" /* NR_MANY, shared with abi.bpf.c */

/* the uapi's limits */
#define MAX_QUEUED IORING_BPF_MAX_SQES
#define MAX_KINDS IORING_CORO_MAX_KINDS
#define MAX_BUDGET IORING_BPF_MAX_BUDGET
_Static_assert(NR_MANY == MAX_QUEUED + 1, "abi.bpf.c's q_many queues one "
	       "SQE more than a run may");

#define UD_BPF 0xb0f0000000000001ULL
#define UD_BPF2 0xb0f0000000000002ULL
#define UD_NOP 0x0e0e000000000100ULL
#define UD_WRITE 0x3217e00000000001ULL
#define UD_FSYNC 0xf5c0000000000001ULL
#define UD_READ 0x4ead000000000001ULL
#define UD_USER 0x05e4000000000001ULL

/* how long a released program may take to disappear */
#define PROG_GONE_MS 20000

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* abi.bpf.c opened and loaded (its programs are struct_ops steps) */
struct abi_bpf *skel_load(void);

/* the end of a case: @link closed (unless < 0), @ring exited, @skel gone */
void abi_down(struct io_uring *ring, struct abi_bpf *skel, int link);

/* what most cases run on: abi.bpf.c and a ring with one of its steps */
struct abi_case {
	struct abi_bpf *skel;
	struct io_uring ring;	/* 8 entries, flags 0 */
	int link;		/* of the step, kind 0 */
};

/* @c's object loaded, its ring made, its step named @step attached */
void abi_up(struct abi_case *c, const char *step);
/* abi_down() of @c */
void abi_end(struct abi_case *c);

/* the id of the program @fd */
__u32 prog_id(int fd);

/* the program with this id still exists */
void check_prog_alive(__u32 id);

/* the program with this id is freed within PROG_GONE_MS */
void wait_prog_gone(__u32 id);

/* no CQE comes within URING_NO_CQE_MS */
void expect_no_cqe(struct io_uring *ring);

/* position of the CQE with user_data @ud in @cqes */
unsigned int cqe_pos(const struct io_uring_cqe *cqes, unsigned int n,
		     __u64 ud);

/* iocoro_kind_attach() of @prog as @kind on the ring @ring_fd: link or -errno */
int kind_attach(int ring_fd, const struct bpf_program *prog, unsigned int kind);

/* kind_attach(), failing the test on an error */
int kind_attach_ok(struct io_uring *ring, const struct bpf_program *prog,
		   unsigned int kind);

/*
 * An io_coro_ops map that runs program @prog_fd as @kind of ring @ring_fd,
 * made raw (no check of ours): its fd or -errno of BPF_MAP_CREATE or of
 * BPF_MAP_UPDATE_ELEM
 */
int kind_map_raw(int ring_fd, int prog_fd, __u32 kind);

/* BPF_LINK_CREATE of the io_coro_ops map @map_fd: link fd or -errno */
int kind_link_raw(int map_fd);

/* the step (a program id), ring fd and kind of an io_coro_ops map's value */
void kind_value(const void *value, __u64 *step, __s32 *ring_fd, __u32 *kind);

/* kind_map_raw() then kind_link_raw(), the map closed: link or -errno */
int kind_attach_raw(int ring_fd, int prog_fd, __u32 kind);

/* a ring of @entries with the one step @prog attached as kind 0: the link */
int ring_with_kind(struct io_uring *ring, unsigned int entries,
		   unsigned int flags, const struct bpf_program *prog);


/* submit one start of kind 0 (UD_BPF): exactly @n CQEs come */
void run_bpf_reap(struct io_uring *ring, struct io_uring_cqe *cqes,
		  unsigned int n);

/* submit one start of @kind (sqe->off, all 64 bits) and return its res */
int run_bpf(struct io_uring *ring, __u64 kind);

/* a temporary file in /tmp, unlinked at once */
int tmp_file(void);

/* the whole content of @fd must be @want (@len bytes) */
void check_file(int fd, const void *want, size_t len);

/* /dev/null, read-only */
int devnull(void);

/*
 * the WRITE (UD_WRITE) that q_write and q_wr_fsync queue: @len bytes of @buf
 * to @fd at offset 0; q_wr_fsync links an FSYNC (UD_FSYNC) to it
 */
void set_write(struct abi_bpf *skel, int fd, const void *buf, size_t len);

#endif
