/* SPDX-License-Identifier: MIT */
/*
 * The abi suite (tests/lib/case.h): guest tests of the ABI of the kernel
 * series' patches 0002-0006, one file per feature:
 *
 *   op.c         0004 IORING_OP_BPF (and the probe that reports it)
 *   attach.c     0003 io_uring_register(IORING_ATTACH_BPF /
 *                IORING_DETACH_BPF), the ring's fdinfo
 *   queue.c      0005, 0006 bpf_io_uring_queue_sqe()
 *   privilege.c  0002 BPF_PROG_TYPE_IOURING and CAP_BPF, ring restrictions
 *   release.c    the lifetime of attached programs
 *
 * One ctest test abi_<case> per IOCORO_CASE. Every case asserts exact
 * values (CQE res, errno) and fails on the first mismatch; none skips. The
 * programs are in abi.bpf.c, the constants both sides use in abi_progs.h.
 * The helpers below (abi.c) fail the test on any unexpected error.
 *
 * The first include of every file of the suite.
 */
#ifndef IOCORO_TESTS_ABI_H
#define IOCORO_TESTS_ABI_H

#define _GNU_SOURCE
#include <linux/io_uring.h> /* before liburing.h: the patched uapi wins */
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
#include "abi.skel.h"

/* the ABI of the series, as the patched uapi headers define it */
_Static_assert(BPF_PROG_TYPE_IOURING == 62, "BPF_PROG_TYPE_IOURING is 62");
_Static_assert(IORING_ATTACH_BPF == 128, "IORING_ATTACH_BPF is 128");
_Static_assert(IORING_DETACH_BPF == 129, "IORING_DETACH_BPF is 129");
_Static_assert(IORING_OP_BPF == 128, "IORING_OP_BPF is 128");
_Static_assert(BPF_FUNC_io_uring_queue_sqe == 212,
	       "bpf_io_uring_queue_sqe is helper 212");

#include "abi_progs.h" /* NR_MANY, shared with abi.bpf.c */

/* the uapi's limits */
#define MAX_QUEUED IORING_BPF_MAX_SQES
#define MAX_PROGS IORING_BPF_MAX_PROGS
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

/* abi.bpf.c opened and loaded (its programs are BPF_PROG_TYPE_IOURING) */
struct abi_bpf *skel_load(void);

/* a program r0 = 0; exit of @type: fd or -errno */
int load_raw(enum bpf_prog_type type, const char *name);

/* load_raw(), failing the test on an error */
int load_raw_ok(enum bpf_prog_type type, const char *name);

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

/* a ring of @entries with the one program @prog attached (index 0) */
void ring_with_prog(struct io_uring *ring, unsigned int entries,
		    unsigned int flags, const struct bpf_program *prog);

/* submit one IORING_OP_BPF of program 0 (UD_BPF): exactly @n CQEs come */
void run_bpf_reap(struct io_uring *ring, struct io_uring_cqe *cqes,
		  unsigned int n);

/* submit one IORING_OP_BPF of program @index and return its res */
int run_bpf(struct io_uring *ring, __u64 index);

/* a temporary file in /tmp, unlinked at once */
int tmp_file(void);

/* the whole content of @fd must be @want (@len bytes) */
void check_file(int fd, const void *want, size_t len);

/* /dev/null, read-only */
int devnull(void);

struct fdinfo_prog {
	unsigned int index;
	__u32 id;
	const char *name;
};

/*
 * The ring's fdinfo has "BpfProgs:\t<nr>" exactly once, followed by one
 * line "%5u: id %u %s" per program of @progs (holes left out), and then
 * the next section, "PollList:". Other "Bpf<Key>:\t" lines right after
 * BpfProgs (later patches of the series add some, e.g. BpfBudget) are
 * skipped.
 */
void check_fdinfo(struct io_uring *ring, unsigned int nr,
		  const struct fdinfo_prog *progs, unsigned int nprogs);

/* drop CAP_BPF, CAP_SYS_ADMIN, CAP_PERFMON, CAP_NET_ADMIN (all sets) */
void drop_bpf_caps(void);

/*
 * Unprivileged BPF (socket filters) must be allowed, so that an -EPERM for
 * an iouring program is about the program type and not the sysctl. Returns
 * the old value, to be given to restore_unpriv_bpf().
 */
int allow_unpriv_bpf(void);

/* the sysctl back to @old, as allow_unpriv_bpf() returned it */
void restore_unpriv_bpf(int old);

/* wait for child @pid: its wait status */
int reap_child(pid_t pid);

/* the child's wait status says it exited 0 */
void check_child(int status);

/* child @pid exited 0 */
void wait_child(pid_t pid);

/* fork() with stdio flushed */
pid_t fork_child(void);
/*
 * the WRITE (UD_WRITE) that q_write and q_wr_fsync queue: @len bytes of @buf
 * to @fd at offset 0; q_wr_fsync links an FSYNC (UD_FSYNC) to it
 */
void set_write(struct abi_bpf *skel, int fd, const void *buf, size_t len);

#endif
