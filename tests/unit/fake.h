/* SPDX-License-Identifier: MIT */
/*
 * A fake of the kernel (and of the liburing and libbpf calls that reach
 * it) for libiocoro's unit tests, linked with -Wl,--wrap=<function> for
 * every function listed in IOCORO_FAKE_WRAPS (tests/unit/CMakeLists.txt).
 *
 * The fake ring is real memory laid out as liburing expects, so liburing's
 * inline functions (io_uring_get_sqe(), io_uring_cqe_seen()) work on it;
 * io_uring_submit() "consumes" SQEs into fk.submitted[], and tests post
 * CQEs with fake_post_cqe(). The kernel model answers io_uring_register()
 * as the series does (the support probe's IORING_REGISTER_PROBE, where
 * IORING_OP_BPF is supported; IORING_REGISTER_SYNC_CANCEL) or, with
 * fk.stock, as a kernel without the series (its probe ends at 6.12's last
 * opcode), and libiocoro's own iocoro__kind_link() (the bpf_link
 * of a kind) with a real fd (of /dev/null, so that the library's close()
 * of it shows), -EBUSY for a kind a link of the ring holds, -EBADF for a
 * bad program fd, -EOPNOTSUPP on a kernel without the series. Any call
 * can be made to fail with a chosen -errno.
 */
#ifndef IOCORO_TESTS_FAKE_H
#define IOCORO_TESTS_FAKE_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/io_uring.h>
#include <liburing.h>

struct bpf_object;

#define FAKE_RING_FD 900
#define FAKE_SQ_MAX 64
#define FAKE_CQ_MAX 128
#define FAKE_MAX_CALLS 32
#define FAKE_PROG_FD_BASE 100
#define FAKE_INFLIGHT_MAX 16
#define FAKE_MAX_LINKS 160

struct fake_reg_call {
	int fd;
	unsigned int op;
	unsigned int nr;
	bool arg_null;
};

/* a link iocoro__kind_link() made */
struct fake_link {
	int ring_fd;
	int prog_fd;
	unsigned int kind;
	/* its fd, a real one */
	int fd;
	/* the fd was closed and a later link got its number */
	bool reused;
};

struct fake {
	/* the kernel lacks the series */
	bool stock;
	/* ... and is older than 5.19: refuses IOCORO_SETUP_FLAGS too */
	bool old_kernel;

	/* injected errors, 0: none */
	int setup_err;			/* io_uring_setup() */
	int init_err;			/* io_uring_queue_init_params() */
	int reg_err[IORING_REGISTER_LAST]; /* io_uring_register(), per opcode */
	int wait_err;			/* io_uring_wait_cqe_timeout(), always */
	int load_err;			/* bpf_object__load() */
	const char *load_log;		/* written to the log bufs on load_err */
	int set_flags_err;		/* bpf_program__set_flags() */
	int map_err;			/* bpf_map__update/lookup_elem() */
	/* io_uring_submit() results to return, in order; then: all taken */
	int submit_rets[8];
	unsigned int nr_submit_rets;
	/* program (by name) that bpf_program__fd() says is not loaded */
	const char *unloaded_prog;

	/*
	 * iocoro__kind_link(): link_err at its call number link_err_at
	 * (1: the first), or at every call when link_err_at is 0
	 */
	int link_err;
	unsigned int link_err_at;

	/* kernel model */
	/* requests in flight, by user_data: IORING_REGISTER_SYNC_CANCEL's */
	__u64 inflight[FAKE_INFLIGHT_MAX];
	unsigned int nr_inflight;
	/* sync cancels asked, and the flags of the last one */
	unsigned int nr_sync_cancel;
	__u32 sync_cancel_flags;

	/* records */
	unsigned int nr_setup, nr_init, nr_exit, nr_submit, nr_wait, nr_load;
	/* io_uring_submit_and_wait() calls (each also counts in nr_submit) */
	unsigned int nr_submit_and_wait, last_wait_nr;
	unsigned int nr_map_update, nr_map_lookup;
	unsigned int init_entries;
	struct io_uring_params init_params;
	int last_probe_fd;
	const struct __kernel_timespec *last_ts;
	/* what *last_ts held at the call */
	struct __kernel_timespec last_ts_val;
	unsigned int nr_reg;
	struct fake_reg_call reg[FAKE_MAX_CALLS];
	unsigned int nr_submitted;
	struct io_uring_sqe submitted[FAKE_SQ_MAX];
	/* iocoro__kind_link() calls, and the links they made */
	unsigned int nr_link_calls;
	unsigned int nr_links;
	struct fake_link links[FAKE_MAX_LINKS];
	/* links still open when io_uring_queue_exit() came */
	unsigned int links_open_at_exit;
	__u32 map_key;
	unsigned char map_val[256];
	size_t map_size;
	__u64 map_flags;

	/* loaded object (fake): programs get fds FAKE_PROG_FD_BASE + n */
	const struct bpf_object *loaded;

	/* ring memory */
	unsigned int sq_head, sq_tail, sq_flags, sq_dropped, sq_mask;
	unsigned int sq_entries, sq_array[FAKE_SQ_MAX];
	struct io_uring_sqe sqes[FAKE_SQ_MAX];
	unsigned int cq_head, cq_tail, cq_flags, cq_overflow, cq_mask;
	unsigned int cq_entries;
	struct io_uring_cqe cqes[FAKE_CQ_MAX];
};

extern struct fake fk;

/* a fresh kernel: series present, nothing injected, nothing recorded */
void fake_reset(void);
/* the kernel posts a CQE */
void fake_post_cqe(__u64 user_data, __s32 res, __u32 flags);
/* a request with @user_data is in flight (until cancelled) */
void fake_inflight(__u64 user_data);
/* CQEs in the fake CQ not yet consumed */
unsigned int fake_cq_pending(void);
/* probe ring fds that were opened and not closed */
bool fake_probe_fd_open(void);
/* link @i of fk.links[] is open (the library has not closed it) */
bool fake_link_open(unsigned int i);
/* how many of fk.links[] are open */
unsigned int fake_links_open(void);

#endif
