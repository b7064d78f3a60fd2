/* SPDX-License-Identifier: (LGPL-2.1 OR MIT) */
/*
 * libiocoro: run I/O as coroutines inside the kernel. A coroutine's steps
 * are BPF struct_ops programs of struct io_coro_ops (written with
 * <iocoro/bpf.h>) that io_uring runs one after the other, each at the
 * completion of the operation the previous one queued, without a return
 * to user space. This library sets up the ring, loads the steps and
 * attaches them as the ring's coroutine kinds (bpf_links), starts
 * coroutines and reaps their ends.
 *
 * Conventions (liburing's): functions return 0 or a non-negative count on
 * success and -errno on failure, and never set errno. There is no global
 * state: everything lives in the caller's struct iocoro, which one thread
 * uses at a time (one ring per thread). iocoro_strerror() explains an
 * error in iocoro's terms.
 *
 * Needs the kernel series of kernel/patches/. On a kernel without it,
 * every entry point that asks the kernel returns -EOPNOTSUPP.
 *
 * Include this header before <liburing.h>: it includes the patched
 * <linux/io_uring.h> first, which liburing's own copy would otherwise
 * shadow (they share an include guard).
 */
#ifndef IOCORO_H
#define IOCORO_H

#include <linux/io_uring.h>
/* the patched uapi must be the one included here */
#ifndef IORING_CORO_MAX_KINDS
#error "iocoro.h needs the patched kernel's <linux/io_uring.h> (pkg-config --cflags iocoro), included before <liburing.h>"
#endif
#include <liburing.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include <iocoro/user_data.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IOCORO_VERSION_MAJOR 1
#define IOCORO_VERSION_MINOR 2

struct bpf_object;
struct bpf_object_skeleton;
struct bpf_program;
struct bpf_map;
struct iocoro_load_info;

/*
 * A ring that runs coroutines. Transparent, as struct io_uring is: the
 * ring may carry the application's own requests too (their user_data
 * must not carry IOCORO_UD_MAGIC in its top 16 bits).
 */
struct iocoro {
	struct io_uring ring;
	/* kinds iocoro_attach() attached (0 to nr_progs - 1), 0 when none */
	unsigned int nr_progs;
	/* the budget iocoro_set_budget() set for starts, 0: kernel default */
	unsigned int budget;
	/* io_uring_params.features of the ring */
	unsigned int features;
	/* IOCORO_F_* */
	unsigned int flags;
	/* the bpf_link of each kind iocoro_attach() attached, -1 for a hole */
	int links[IOCORO_MAX_PROGS];
	/*
	 * zero: room for later fields without changing the size the
	 * application allocates (liburing's struct io_uring keeps pads too)
	 */
	unsigned int resv[4];
};

/*
 * iocoro.flags: set by iocoro_queue_init(), which found the series in the
 * kernel. A struct iocoro filled in by hand (an application's own ring)
 * lacks it: errors of its kinds and of its coroutines are then checked
 * against iocoro_probe(), so that a kernel without the series gives
 * -EOPNOTSUPP there too.
 */
#define IOCORO_F_PROBED (1U << 0)

/* setup flags iocoro_queue_init() always adds */
#define IOCORO_SETUP_FLAGS (IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN)
/* setup flags IORING_OP_BPF cannot work with: refused with -EINVAL */
#define IOCORO_SETUP_UNUSABLE                                              \
	(IORING_SETUP_SQPOLL | IORING_SETUP_IOPOLL | IORING_SETUP_SQE128 |  \
	 IORING_SETUP_CQE32)

/* ---- kernel support --------------------------------------------------- */

/*
 * Does the running kernel have IORING_OP_BPF (the series of
 * kernel/patches/)? 0 if so, -EOPNOTSUPP if not, or the error that keeps
 * io_uring from being used at all (-ENOSYS, -EPERM, -ENOMEM ...).
 * Asks a throwaway ring; costs two system calls.
 */
int iocoro_probe(void);

/*
 * A description of error @err (negative or positive errno) as iocoro's
 * functions and coroutine results mean it. For -EOPNOTSUPP it says that
 * the kernel lacks IORING_OP_BPF and how to boot one that has it. Never
 * NULL; static storage, safe in any thread.
 */
const char *iocoro_strerror(int err);

/* ---- rings -------------------------------------------------------------- */

/*
 * Set up @co's ring with @entries SQEs and the setup flags @flags plus
 * IOCORO_SETUP_FLAGS, and check that the kernel can run IORING_OP_BPF on
 * it. Returns 0, -EINVAL for flags in IOCORO_SETUP_UNUSABLE (programs run
 * in the submitting task, which an SQPOLL or IOPOLL ring does not have;
 * steps queue 64-byte SQEs; a CQE32 ring's requests carry no programs),
 * -EOPNOTSUPP when the kernel lacks IORING_OP_BPF, or
 * io_uring_queue_init_params()'s error. On failure nothing is left open.
 */
int iocoro_queue_init(unsigned int entries, struct iocoro *co,
		      unsigned int flags);
/* the same with full io_uring_params (p->flags as @flags above) */
int iocoro_queue_init_params(unsigned int entries, struct iocoro *co,
			     struct io_uring_params *p);
/* detach the kinds iocoro_attach() attached and close the ring */
void iocoro_queue_exit(struct iocoro *co);

/* ---- loading programs --------------------------------------------------- */

struct iocoro_load_opts {
	/* sizeof(struct iocoro_load_opts): lets the struct grow */
	size_t sz;
	/*
	 * Buffer for the verifier log of a program that fails to load
	 * (NUL-terminated), or NULL. Keep it large (1 MiB; libbpf's own
	 * is 16 MiB): the kernel keeps the end of a log that does not fit,
	 * where the verifier's reason is, and fails the load with -ENOSPC
	 * instead of the reason's -errno.
	 */
	char *log_buf;
	size_t log_size;
	/* verifier log level; 0: a log only when loading fails */
	unsigned int log_level;
	/*
	 * iocoro_skel_load() only: filled in when it succeeds (NULL: not
	 * wanted), what loading took
	 */
	struct iocoro_load_info *info;
};

/* what iocoro_skel_load() took (struct iocoro_load_opts.info) */
struct iocoro_load_info {
	/* maps created, programs verified and loaded, global data mapped */
	uint64_t load_ns;
	/* the steps attached to the ring, a bpf_link a kind */
	uint64_t attach_ns;
	/* instructions the verifier processed, all of the object's programs */
	uint32_t verified_insns;
	/* steps attached */
	uint32_t nr_steps;
};

/*
 * Prepare an opened, not yet loaded, BPF object (bpf_object__open*(), or a
 * skeleton's ->obj between __open() and __load()): its steps, the
 * struct_ops programs of its io_coro_ops maps (iocoro/bpf.h), get @opts'
 * log buffer, and those in IOCORO_SEC_SLEEPABLE ("struct_ops/sleepable/")
 * or a newer libbpf's "struct_ops.s/" BPF_F_SLEEPABLE. Per program, no
 * process-wide libbpf state is touched. @opts may be NULL.
 *
 * Returns the number of steps, -ENOENT if there is none,
 * -EOPNOTSUPP if the kernel lacks IORING_OP_BPF, -EINVAL for a NULL
 * object or bad @opts, -EBUSY if the object is loaded already.
 */
int iocoro_object_prepare(struct bpf_object *obj,
			  const struct iocoro_load_opts *opts);

/*
 * iocoro_object_prepare(), then bpf_object__load(). For objects opened
 * with bpf_object__open*(); with a skeleton, call iocoro_object_prepare()
 * and the skeleton's __load() (which also maps its global data). Returns
 * the number of steps, or -errno: iocoro_object_prepare()'s
 * errors, or the load's (-EACCES or -EINVAL when the verifier refused a
 * program: its log is in opts->log_buf; -EPERM without CAP_BPF).
 */
int iocoro_object_load(struct bpf_object *obj,
		       const struct iocoro_load_opts *opts);

/*
 * Everything an application does with its skeleton between x_bpf__open()
 * and its first start, in one call: iocoro_object_prepare() with @opts,
 * the skeleton's load (bpf_object__load_skeleton(), which also maps its
 * global data), and iocoro_attach_object() on @co's ring:
 *
 *   skel = x_bpf__open();          ... set skel->rodata ...
 *   ret = iocoro_skel_load(&co, skel->skeleton, NULL);
 *   kind = iocoro_prog_index(skel->obj, skel->progs.x);
 *
 * Without a log buffer in @opts (or with @opts NULL) the steps get one of
 * 1 MiB, and the log of a program the verifier refused is written to
 * stderr, as libbpf's default print would. Returns the number of programs
 * attached, or -errno: those of iocoro_object_prepare(), of the load
 * (-EACCES or -EINVAL when the verifier refused a program; -EPERM without
 * CAP_BPF), or of iocoro_attach_object(). On failure no kind is attached;
 * the skeleton stays the caller's to destroy.
 */
int iocoro_skel_load(struct iocoro *co, struct bpf_object_skeleton *s,
		     const struct iocoro_load_opts *opts);

/*
 * Map the values of @map, a loaded BPF_MAP_TYPE_ARRAY created with
 * BPF_F_MMAPABLE, into the process: coroutine states user space writes
 * and reads in place, without a bpf() call per coroutine (value i at
 * *@addr + i * the value size rounded up to 8 bytes). Sets *@addr and
 * *@len (for iocoro_map_munmap()). Returns 0, -EINVAL (NULL arguments, not
 * an mmapable array), or mmap()'s -errno.
 */
int iocoro_map_mmap(const struct bpf_map *map, void **addr, size_t *len);
/* undo iocoro_map_mmap(); NULL @addr is a no-op */
void iocoro_map_munmap(void *addr, size_t len);

/*
 * The kind iocoro_attach_object() gives @prog: its index among @obj's
 * steps (struct_ops programs), in object order. -ENOENT if @prog is not
 * one of them, -EINVAL for NULL arguments.
 */
int iocoro_prog_index(const struct bpf_object *obj,
		      const struct bpf_program *prog);

/* ---- the kinds of a ring ------------------------------------------------ */

/*
 * Attach @nr loaded step programs (struct_ops programs of io_coro_ops) as
 * kinds 0 to @nr - 1 of the ring, each by a bpf_link of its own
 * (iocoro_kind_attach()); -1 leaves a hole. Returns 0, -EINVAL (no fds,
 * nr 0 or above IOCORO_MAX_PROGS, a program of another type), -EBUSY
 * (iocoro_attach() attached kinds already, or one of the kinds is taken),
 * -EBADF (a bad fd), -EPERM (needs CAP_BPF), -EOPNOTSUPP, or another
 * -errno of bpf(2). All or nothing.
 */
int iocoro_attach(struct iocoro *co, const int *prog_fds, unsigned int nr);

/*
 * Attach all steps of the loaded @obj, in object order (see
 * iocoro_prog_index()); one that is not loaded leaves a hole. Returns the
 * number of kinds, -ENOENT (no step), -E2BIG (more than IOCORO_MAX_PROGS),
 * -EBADF (none of them is loaded), or iocoro_attach()'s errors.
 */
int iocoro_attach_object(struct iocoro *co, const struct bpf_object *obj);

/*
 * Detach the kinds iocoro_attach() attached (closes their links). A step
 * still queued then posts its request's own CQE. Returns 0, -ENXIO
 * (nothing attached) or -EINVAL.
 */
int iocoro_detach(struct iocoro *co);

/*
 * Set the budget of the coroutines iocoro_start*() starts from now on:
 * how many steps a coroutine may run in all, the coroutines its steps
 * start included, 1 to IOCORO_MAX_BUDGET (kernel default
 * IOCORO_DEFAULT_BUDGET). Each start request carries it; a coroutine
 * whose budget is spent ends with -ELOOP. Returns 0 or -EINVAL.
 */
int iocoro_set_budget(struct iocoro *co, unsigned int steps);

/* ---- coroutine kinds: struct io_coro_ops attached by bpf_link ----------- */

/* kinds a ring holds at once */
#define IOCORO_MAX_KINDS IORING_CORO_MAX_KINDS

/*
 * Attach @step, a loaded step program of an io_coro_ops map
 * (iocoro/coro_ops.h), to @co's ring as kind @kind (below
 * IOCORO_MAX_KINDS) by a bpf_link of its own. Returns the link's fd:
 * closing it detaches the kind (a continuation still in flight then posts
 * its request's own CQE). The same loaded program may be attached to any
 * number of rings without being verified again. Returns -EINVAL (NULL
 * arguments, @kind out of range, @step not a loaded struct_ops program),
 * -EOPNOTSUPP (the kernel has no io_coro_ops), -EBUSY (@kind is taken on
 * the ring), -EPERM (needs CAP_BPF) or another -errno of bpf(2).
 */
int iocoro_kind_attach(struct iocoro *co, const struct bpf_program *step,
		       unsigned int kind);

/*
 * Replace the program of the kind @link_fd attached (BPF_LINK_UPDATE):
 * @step runs from now on, for the steps in flight too. @co and @kind must
 * be those of the attach (-EINVAL otherwise); else as iocoro_kind_attach(),
 * -ENOLINK once the link was detached.
 */
int iocoro_kind_update(int link_fd, struct iocoro *co,
		       const struct bpf_program *step, unsigned int kind);

/*
 * IORING_OP_BPF, prepared liburing style, that starts a coroutine at kind
 * @kind: its step runs once the request is issued. Every field the opcode
 * does not use is zeroed, as the kernel requires; sqe->len 0 gives the
 * coroutine the kernel's default budget. user_data and flags are the
 * caller's to set.
 */
static inline void iocoro_prep_kind(struct io_uring_sqe *sqe, unsigned int kind)
{
	io_uring_prep_rw(IORING_OP_BPF, sqe, 0, NULL, 0, kind);
}

/* ---- coroutines ----------------------------------------------------------- */

/*
 * The first step of coroutine @id, run by kind @prog_index: the
 * user_data that names the coroutine (iocoro/user_data.h), and
 * IOSQE_CQE_SKIP_SUCCESS, so that a coroutine that goes well posts a
 * single CQE, its end. Its budget is the kernel's default; set sqe->len
 * for another (iocoro_start() sets iocoro_set_budget()'s).
 */
static inline void iocoro_prep_start(struct io_uring_sqe *sqe,
				     unsigned int prog_index, uint32_t id)
{
	iocoro_prep_kind(sqe, prog_index);
	io_uring_sqe_set_data64(sqe, iocoro_ud(IOCORO_UD_STEP, prog_index, id));
	io_uring_sqe_set_flags(sqe, IOSQE_CQE_SKIP_SUCCESS);
}

/*
 * Queue the start of coroutine @id at kind @kind (iocoro_prog_index())
 * with iocoro_set_budget()'s budget, to go with the next submit (an
 * application that starts many at once submits them together, with
 * iocoro_submit_and_reap()). Returns the SQE, for the caller to change
 * what it likes (sqe->len: the coroutine's budget), or NULL when the SQ
 * ring is full.
 */
static inline struct io_uring_sqe *iocoro_queue_start(struct iocoro *co,
							unsigned int kind,
							uint32_t id)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&co->ring);

	if (sqe) {
		iocoro_prep_start(sqe, kind, id);
		sqe->len = co->budget;
	}
	return sqe;
}

/*
 * Let @sqe, an operation prepared liburing style (an openat, a read),
 * start coroutine @id itself, without an IORING_OP_BPF before it
 * (IOSQE_BPF_STEP): once it completed, the step attached as kind 0, the
 * ring's entry kind, runs with its result (iocoro_ctx_prev_res()), and
 * the coroutine goes on from there with the kernel's default budget
 * (IOCORO_DEFAULT_BUDGET; iocoro_set_budget() does not apply). user_data
 * names coroutine @id as iocoro_prep_start()'s does, and
 * IOSQE_CQE_SKIP_SUCCESS keeps a coroutine that goes well to a single
 * CQE, its end. A request the kernel refuses fails without its operation
 * being done: -EBADF when no kind 0 is attached, -EINVAL for a multishot
 * or zero-copy operation or an IORING_OP_BPF.
 */
static inline void iocoro_sqe_set_first(struct io_uring_sqe *sqe, uint32_t id)
{
	io_uring_sqe_set_data64(sqe, iocoro_ud(IOCORO_UD_STEP, 0, id));
	sqe->flags |= IOSQE_BPF_STEP | IOSQE_CQE_SKIP_SUCCESS;
}

/*
 * Start coroutine @id at kind @prog_index (iocoro_prog_index()) with
 * iocoro_set_budget()'s budget, and submit (with whatever else the ring
 * holds). Ids are the caller's: a coroutine's state is
 * usually the slot @id of an array map. Returns 0, -EINVAL (@prog_index
 * >= IOCORO_MAX_PROGS), -EBUSY (the SQ ring stays full), -EAGAIN (the kernel
 * took no SQE: the start stays queued for the next submit, do not start
 * again), or io_uring_submit()'s error. Errors of the step itself
 * (-EBADF: no kind attached at that index) come as the coroutine's end.
 */
int iocoro_start(struct iocoro *co, unsigned int prog_index, uint32_t id);

/*
 * Start coroutine @id with operation @op as its first request
 * (iocoro_sqe_set_first(): kind 0's step runs at its completion), and
 * submit (with whatever else the ring holds). @op is copied: a 64-byte
 * SQE prepared liburing style, its user_data and IOSQE_BPF_STEP set by
 * the call, its other flags kept. Returns as iocoro_start() does.
 */
int iocoro_start_op(struct iocoro *co, const struct io_uring_sqe *op,
		    uint32_t id);

/*
 * iocoro_start() after writing the coroutine's initial state: @size bytes
 * at @state into map @states at key @id (bpf_map__update_elem()). Errors
 * of the map update (-EINVAL: size differs from the value size, -E2BIG:
 * id out of an array map, ...) are returned before anything is started.
 */
int iocoro_start_state(struct iocoro *co, unsigned int prog_index,
		       uint32_t id, const struct bpf_map *states,
		       const void *state, size_t size);

/*
 * Start coroutines @ids[0..@nr) at kind @prog_index, with as few
 * submits as the SQ ring allows (one if it has @nr free entries): their
 * states are usually written beforehand through iocoro_map_mmap().
 * Returns the number of coroutines started (@nr, or fewer when the SQ
 * ring stayed full: start the rest again), -EINVAL, or the last
 * io_uring_submit()'s error: then all @nr starts stay queued and go with
 * the next submit, as with iocoro_start() (do not start them again).
 */
int iocoro_start_many(struct iocoro *co, unsigned int prog_index,
		      const uint32_t *ids, unsigned int nr);

/* read coroutine @id's state back from map @states (@size bytes) */
int iocoro_state_read(const struct bpf_map *states, uint32_t id, void *state,
		      size_t size);

enum iocoro_how {
	/* the program called iocoro_finish(): res is its result */
	IOCORO_FINISHED	= 1,
	/*
	 * a step request failed: its program returned res < 0, or the
	 * kernel ended the chain (-ELOOP: budget spent, -ECANCELED: task
	 * killed or ring going away, -EBADF: no step attached as the kind)
	 */
	IOCORO_FAILED	= 2,
	/*
	 * the step did not run although its operation completed (its kind
	 * was detached, or the step was cancelled or its task went once
	 * the operation was done): res >= 0 is the operation's own result,
	 * an fd it opened or the bytes it moved, the caller's to clean up
	 */
	IOCORO_ORPHANED	= 3,
};

/* how a coroutine ended */
struct iocoro_done {
	uint32_t id;
	int32_t res;
	enum iocoro_how how;
	/* the kind of the step that ended it ("prog" is its older name) */
	union {
		uint32_t kind;
		uint32_t prog;
	};
	uint64_t user_data;
};

/*
 * Classify a CQE: 1 if it ends a coroutine (*done filled in), 0 if it is
 * one of a coroutine's other CQEs (an operation a step queued on its own,
 * IOCORO_UD_OP, that failed), -ENOMSG if it is not a coroutine's. A step's
 * request carries IOSQE_CQE_SKIP_SUCCESS: its CQE is a failure
 * (IOCORO_FAILED) or, with a result >= 0, an operation whose step did not
 * run (IOCORO_ORPHANED).
 */
static inline int iocoro_cqe_done(const struct io_uring_cqe *cqe,
				  struct iocoro_done *done)
{
	__u64 ud = cqe->user_data;
	enum iocoro_ud_kind kind;

	if (!iocoro_ud_is_coro(ud))
		return -ENOMSG;
	kind = iocoro_ud_kind(ud);
	if (kind == IOCORO_UD_END || kind == IOCORO_UD_STEP) {
		done->id = iocoro_ud_id(ud);
		done->res = cqe->res;
		if (kind == IOCORO_UD_END)
			done->how = IOCORO_FINISHED;
		else
			done->how = cqe->res < 0 ? IOCORO_FAILED
						 : IOCORO_ORPHANED;
		done->kind = iocoro_ud_prog(ud);
		done->user_data = ud;
		return 1;
	}
	return 0;
}

/*
 * Wait for the next coroutine to end and fill in *done. Coroutine CQEs
 * that do not end one are consumed on the way. @ts bounds the whole call
 * (relative; NULL: no bound). Returns
 * 0, -ETIME (timed out), -EINTR, -ENOMSG (the next CQE is not a
 * coroutine's: it is left in the CQ for the caller to reap), or
 * io_uring_wait_cqe_timeout()'s error.
 */
int iocoro_wait(struct iocoro *co, struct iocoro_done *done,
		const struct __kernel_timespec *ts);

/*
 * Reap up to @nr coroutine ends into @done[0..): wait as iocoro_wait()
 * does (@ts bounds the whole call) for the first, then take those already
 * in the CQ without waiting. A CQE that is not a coroutine's stops the
 * reaping and stays in the CQ. Returns the number of ends reaped (1 to
 * @nr), or iocoro_wait()'s error when there was none.
 */
int iocoro_wait_many(struct iocoro *co, struct iocoro_done *done,
		     unsigned int nr, const struct __kernel_timespec *ts);

/* ---- reaping with handlers -------------------------------------------- */

/*
 * What iocoro_reap() does with each CQE, for a ring that carries the
 * application's own requests beside its coroutines. A handler returns 0
 * to go on, or a negative errno that stops the reap and is returned (the
 * CQE it handled is consumed, those after it stay in the CQ).
 */
struct iocoro_handlers {
	/* a coroutine ended: @done as iocoro_cqe_done() fills it in */
	int (*done)(struct iocoro *co, const struct iocoro_done *done,
		    void *arg);
	/*
	 * a CQE that is not a coroutine's (the application's own); NULL:
	 * the reap stops there with -ENOMSG and leaves it in the CQ
	 */
	int (*cqe)(struct iocoro *co, const struct io_uring_cqe *cqe,
		   void *arg);
	/* passed to both */
	void *arg;
};

/*
 * Hand every CQE in @co's CQ to @h, without a system call: coroutine ends
 * to h->done, the application's CQEs to h->cqe; a coroutine's other CQEs
 * (an operation a step queued on its own that failed, IOCORO_UD_OP: the
 * step saw its result) are consumed. Returns the number of CQEs consumed,
 * -EINVAL, -ENOMSG (an application CQE and no h->cqe), or a handler's
 * error.
 */
int iocoro_reap(struct iocoro *co, const struct iocoro_handlers *h);

/*
 * Submit what the SQ ring holds, wait until at least @wait_nr CQEs are
 * there (0: do not wait), and iocoro_reap() them: the loop of an
 * application that keeps coroutines in flight, one io_uring_enter() a
 * turn. A wait that a signal or a timeout ended early (-EINTR, -ETIME) is
 * no error: what is there is reaped. When the kernel took nothing for
 * want of room (-EBUSY: the CQ ring is full; -EAGAIN), what is there is
 * reaped too and its count returned, the error only when there was
 * none. Returns as iocoro_reap(), or io_uring_submit_and_wait()'s error.
 */
int iocoro_submit_and_reap(struct iocoro *co, unsigned int wait_nr,
			   const struct iocoro_handlers *h);

/* ---- a window of coroutine ids ----------------------------------------- */

/*
 * Ids 0 to size - 1 for the coroutines an application keeps in flight,
 * handed out as they free up: take one for each start, put it back at the
 * coroutine's end (usually the id is the slot of its state in an array
 * map). Lowest ids first on a new window.
 */
struct iocoro_window {
	uint32_t *free;		/* the ids not in flight, a stack */
	unsigned int nr_free;
	unsigned int size;
};

/* a window of @size ids (1 to INT_MAX): 0, -EINVAL or -ENOMEM */
int iocoro_window_init(struct iocoro_window *w, unsigned int size);
/* free what iocoro_window_init() allocated */
void iocoro_window_exit(struct iocoro_window *w);

/* take a free id: the id, or -EBUSY when all are in flight */
static inline int iocoro_window_get(struct iocoro_window *w)
{
	if (!w->nr_free)
		return -EBUSY;
	return (int)w->free[--w->nr_free];
}

/* put back @id: 0, or -EINVAL (not an id of @w, or every id is free) */
static inline int iocoro_window_put(struct iocoro_window *w, uint32_t id)
{
	if (id >= w->size || w->nr_free == w->size)
		return -EINVAL;
	w->free[w->nr_free++] = id;
	return 0;
}

/* how many ids are taken: the coroutines in flight */
static inline unsigned int iocoro_window_in_flight(const struct iocoro_window *w)
{
	return w->size - w->nr_free;
}

/*
 * Cancel coroutine @id's requests in flight: the step it waits in and the
 * operations its steps queued on their own complete with -ECANCELED, and
 * an operation io-wq is running is asked to stop. An operation that
 * carries the next step hands -ECANCELED to it (iocoro_ctx_prev_res()):
 * the program decides, and one that passes errors on ends the coroutine
 * with -ECANCELED (IOCORO_FINISHED). A step that was due to run and had
 * not is dropped without running: the coroutine ends IOCORO_FAILED,
 * -ECANCELED. Call it from the thread that runs the ring: a step running
 * meanwhile in another thread may queue a request this call does not see.
 * Returns the number of requests cancelled (at least 1), -ENOENT if @id
 * has none in flight (it ended already, its end may be in the CQ; or it
 * was never started), or io_uring_register()'s error.
 */
int iocoro_cancel(struct iocoro *co, uint32_t id);

#ifdef __cplusplus
}
#endif

#endif /* IOCORO_H */
