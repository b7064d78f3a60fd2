// SPDX-License-Identifier: MIT
/* Setup and helpers shared by the chain suite: chain.h */
#include "chain.h"

struct chain_bpf *skel_load(void)
{
	struct chain_bpf *skel;
	int err;

	uring_bpf_register_sec();
	skel = chain_bpf__open();
	if (!skel)
		FAIL("chain_bpf__open: %s", strerror(errno));
	err = chain_bpf__load(skel);
	if (err)
		FAIL("chain_bpf__load: %d (%s)", err, strerror(-err));
	CHECK_EQ(bpf_program__type(skel->progs.nop_chain),
		 BPF_PROG_TYPE_IOURING);
	return skel;
}

/* attach every program of the object at its P_* index */
void attach_all(struct io_uring *ring, struct chain_bpf *skel)
{
	int fds[P_NR];

	fds[P_NOP_CHAIN] = uring_prog_fd(skel->progs.nop_chain);
	fds[P_FAIL_ABORT] = uring_prog_fd(skel->progs.fail_abort);
	fds[P_FAN] = uring_prog_fd(skel->progs.fan);
	fds[P_TICK] = uring_prog_fd(skel->progs.tick);
	fds[P_RET_VAL] = uring_prog_fd(skel->progs.ret_val);
	CHECK_EQ(uring_attach(ring, fds, P_NR), 0);
}

/* a loaded skeleton and a ring of @entries with all its programs */
struct chain_bpf *setup(struct io_uring *ring, unsigned int entries)
{
	struct chain_bpf *skel = skel_load();

	uring_init(ring, entries, 0);
	attach_all(ring, skel);
	return skel;
}

void teardown(struct io_uring *ring, struct chain_bpf *skel)
{
	io_uring_queue_exit(ring);
	chain_bpf__destroy(skel);
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

/* the fdinfo of @ring has the line @line (with its '\n') exactly once */
void check_fdinfo_line(struct io_uring *ring, const char *line)
{
	char *info = uring_fdinfo(ring);
	char *hit = strstr(info, line);

	if (!hit || strstr(hit + 1, line)) {
		fprintf(stderr, "fdinfo of the ring:\n%s\n", info);
		FAIL("fdinfo has %s the line '%.*s'", hit ? "twice" : "not",
		     (int)strlen(line) - 1, line);
	}
	/* a whole line, not the tail of another one */
	CHECK(hit == info || hit[-1] == '\n');
}

void check_fdinfo_budget(struct io_uring *ring, unsigned int budget)
{
	char line[64];

	snprintf(line, sizeof(line), "BpfBudget:\t%u\n", budget);
	check_fdinfo_line(ring, line);
}

void check_fdinfo_no_budget(struct io_uring *ring)
{
	char *info = uring_fdinfo(ring);

	if (strstr(info, "BpfBudget:")) {
		fprintf(stderr, "fdinfo of the ring:\n%s\n", info);
		FAIL("fdinfo of a ring without programs has a BpfBudget line");
	}
}

double ms_since(uint64_t t0)
{
	return (double)(uring_now_ns() - t0) / 1e6;
}

/* nop_chain queues @len NOPs (0: no end) after the first, then UD_DONE */
void set_nop_chain(struct chain_bpf *skel, unsigned int len)
{
	skel->bss->nc_len = len;
	skel->bss->nc_idx = P_NOP_CHAIN;
	skel->bss->nc_nop_ud = UD_NOP;
	skel->bss->nc_done_ud = UD_DONE;
}

/* the chain's first request (UD_BPF), with no CQE unless it fails */
void prep_nop_chain(struct io_uring *ring)
{
	uring_prep_bpf(ring, P_NOP_CHAIN, UD_BPF)->flags =
		IOSQE_CQE_SKIP_SUCCESS;
}

static char vlog[1 << 16];

/* load @n instructions as an iouring program: fd, or -errno (log in vlog) */
static int load_insns(const struct bpf_insn *insns, size_t n, __u32 flags)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = vlog,
		    .log_size = sizeof(vlog), .log_level = 1,
		    .prog_flags = flags);

	vlog[0] = '\0';
	return bpf_prog_load(BPF_PROG_TYPE_IOURING, "chain_raw", "GPL", insns,
			     n, &opts);
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
