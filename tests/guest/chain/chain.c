// SPDX-License-Identifier: MIT
/* Setup and helpers shared by the chain suite: chain.h */
#include "chain.h"

struct chain_bpf *skel_load(void)
{
	return SKEL_LOAD(chain_bpf);
}

void chain_ring(struct iocoro *co, unsigned int entries)
{
	memset(co, 0, sizeof(*co));
	uring_init(&co->ring, entries, 0);
}

void chain_ring_params(struct iocoro *co, unsigned int entries,
		       struct io_uring_params *p)
{
	memset(co, 0, sizeof(*co));
	uring_init_params(&co->ring, entries, p);
}

/* every step of chain.bpf.c attached as its K_* kind */
void attach_all(struct iocoro *co, struct chain_bpf *skel)
{
	int fds[K_NR];

	fds[K_NOP_CHAIN] = bpf_program__fd(skel->progs.nop_chain);
	fds[K_FAIL_ABORT] = bpf_program__fd(skel->progs.fail_abort);
	fds[K_FAN] = bpf_program__fd(skel->progs.fan);
	fds[K_TICK] = -1; /* tick: kinds.bpf.c's, teardown.c attaches it */
	fds[K_RET_VAL] = bpf_program__fd(skel->progs.ret_val);
	CHECK_EQ(iocoro_attach(co, fds, K_NR), 0);
}

/* a loaded skeleton and a ring of @entries with all its steps */
struct chain_bpf *setup(struct iocoro *co, unsigned int entries)
{
	struct chain_bpf *skel = skel_load();

	chain_ring(co, entries);
	attach_all(co, skel);
	return skel;
}

void teardown(struct iocoro *co, struct chain_bpf *skel)
{
	iocoro_queue_exit(co);
	chain_bpf__destroy(skel);
}

void exec_list(void)
{
	char *argv[] = { "chain_test", "--list", NULL };
	int null = open("/dev/null", O_WRONLY);

	if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
		_exit(97);
	execv("/proc/self/exe", argv);
	_exit(99);
}

/* a temporary file in /tmp holding @len bytes of @data, unlinked at once */
int tmp_file_with(const void *data, size_t len)
{
	char path[] = "/tmp/iocoro-chain-XXXXXX";
	int fd = CHECK_SYS(mkstemp(path));

	CHECK_SYS(unlink(path));
	CHECK_EQ(CHECK_SYS(pwrite(fd, data, len, 0)), len);
	return fd;
}

void set_nop_chain(struct chain_bpf *skel, unsigned int len, bool linked)
{
	skel->bss->nc_len = len;
	skel->bss->nc_linked = linked;
	skel->bss->nc_nop_ud = UD_NOP;
	skel->bss->nc_done_ud = UD_DONE;
	skel->bss->nc_runs = 0;
	skel->bss->nc_bad_prev = 0;
	skel->bss->nc_emit_rc = 1;
	skel->bss->nc_queue_rc = 0;
}

void prep_nop_chain(struct io_uring *ring, unsigned int budget)
{
	struct io_uring_sqe *sqe = uring_prep_start(ring, K_NOP_CHAIN, UD_BPF);

	sqe->flags = IOSQE_CQE_SKIP_SUCCESS;
	sqe->len = budget;
}

int ret_val_emit(struct chain_bpf *skel, struct io_uring *ring, int ret,
		 __u64 ud, int res, __u32 flags, struct io_uring_cqe *cqes,
		 unsigned int n)
{
	skel->bss->rv_ret = ret;
	skel->bss->rv_emit = 1;
	skel->bss->rv_emit_ud = ud;
	skel->bss->rv_emit_res = res;
	skel->bss->rv_emit_flags = flags;
	skel->bss->rv_emit_rc = 1;
	uring_start_reap(ring, K_RET_VAL, UD_BPF, cqes, n);
	skel->bss->rv_emit = 0;
	return skel->bss->rv_emit_rc;
}

/* ---- raw steps */

static struct btf *vmlinux_btf(void)
{
	static struct btf *btf;

	if (!btf) {
		btf = btf__load_vmlinux_btf();
		if (!btf)
			FAIL("btf__load_vmlinux_btf: %s", strerror(errno));
	}
	return btf;
}

static const struct btf_type *kernel_struct(const char *name, __s32 *id)
{
	struct btf *btf = vmlinux_btf();
	__s32 tid = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT);

	if (tid < 0)
		FAIL("no struct %s in the kernel's BTF", name);
	if (id)
		*id = tid;
	return btf__type_by_id(btf, tid);
}

struct step_field step_field(const char *name)
{
	struct btf *btf = vmlinux_btf();
	const struct btf_type *t = kernel_struct("io_coro_step", NULL);
	const struct btf_member *m = btf_members(t);
	__u16 i;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		struct step_field f = { .name = name };
		__s64 size;

		if (strcmp(btf__name_by_offset(btf, m->name_off), name))
			continue;
		size = btf__resolve_size(btf, m->type);
		CHECK(size > 0);
		f.off = btf_member_bit_offset(t, i) / 8;
		f.size = (unsigned int)size;
		return f;
	}
	FAIL("struct io_coro_step has no field %s", name);
}

unsigned int step_size(void)
{
	return kernel_struct("io_coro_step", NULL)->size;
}

int kfunc_btf_id(const char *name)
{
	__s32 id = btf__find_by_name_kind(vmlinux_btf(), name, BTF_KIND_FUNC);

	if (id < 0)
		FAIL("no kfunc %s in the kernel's BTF", name);
	return id;
}

/* the index of member "step" of struct io_coro_ops: its attach type */
static unsigned int step_member(void)
{
	struct btf *btf = vmlinux_btf();
	const struct btf_type *t = kernel_struct("io_coro_ops", NULL);
	const struct btf_member *m = btf_members(t);
	__u16 i;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		if (!strcmp(btf__name_by_offset(btf, m->name_off), "step"))
			return i;
	}
	FAIL("struct io_coro_ops has no member step");
}

static char vlog[1 << 16];

/* load @n instructions as an io_coro_ops step: fd, or -errno (log in vlog) */
static int load_insns(const struct bpf_insn *insns, size_t n, __u32 flags)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = vlog,
		    .log_size = sizeof(vlog), .log_level = 1,
		    .prog_flags = flags);
	__s32 ops_id;
	int fd;

	kernel_struct("io_coro_ops", &ops_id);
	opts.attach_btf_id = (__u32)ops_id;
	opts.expected_attach_type = step_member();
	vlog[0] = '\0';
	fd = bpf_prog_load(BPF_PROG_TYPE_STRUCT_OPS, "chain_raw", "GPL", insns,
			   n, &opts);
	return fd < 0 ? -errno : fd;
}

/* the load fails with -@err and the log has @msg */
void expect_reject(const char *what, const struct bpf_insn *insns, size_t n,
		   __u32 flags, int err, const char *msg)
{
	int fd = load_insns(insns, n, flags);

	if (fd >= 0) {
		close(fd);
		FAIL("%s: loaded, want %s \"%s\"", what, iocoro_errno_name(err),
		     msg);
	}
	if (fd != -err || !strstr(vlog, msg)) {
		fprintf(stderr, "verifier log:\n%s\n", vlog);
		FAIL("%s: load failed with %d (%s), want -%s and \"%s\" in the "
		     "log (above)", what, fd, iocoro_errno_name(-fd) ?: "?",
		     iocoro_errno_name(err), msg);
	}
}

int expect_load(const char *what, const struct bpf_insn *insns, size_t n,
		__u32 flags)
{
	int fd = load_insns(insns, n, flags);

	if (fd < 0) {
		fprintf(stderr, "verifier log:\n%s\n", vlog);
		FAIL("%s: load failed with %d (%s), want success", what, fd,
		     iocoro_errno_name(-fd) ?: "?");
	}
	return fd;
}
