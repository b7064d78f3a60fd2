// SPDX-License-Identifier: MIT
/* Setup and helpers shared by the abi suite: abi.h */
#include "abi.h"

/* ---------------------------------------------------------------- helpers */

struct abi_bpf *skel_load(void)
{
	struct abi_bpf *skel;
	int err;

	uring_bpf_register_sec();
	skel = abi_bpf__open();
	if (!skel)
		FAIL("abi_bpf__open: %s", strerror(errno));
	err = abi_bpf__load(skel);
	if (err)
		FAIL("abi_bpf__load: %d (%s)", err, strerror(-err));
	CHECK_EQ(bpf_program__type(skel->progs.q_nop), BPF_PROG_TYPE_IOURING);
	return skel;
}

/* a program r0 = 0; exit of @type: fd or -errno */
int load_raw(enum bpf_prog_type type, const char *name)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return bpf_prog_load(type, name, "GPL", insns, ARRAY_SIZE(insns), NULL);
}

int load_raw_ok(enum bpf_prog_type type, const char *name)
{
	int fd = load_raw(type, name);

	if (fd < 0)
		FAIL("loading a program of type %d: %d (%s)", type, fd,
		     strerror(-fd));
	return fd;
}

__u32 prog_id(int fd)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	CHECK_EQ(bpf_obj_get_info_by_fd(fd, &info, &len), 0);
	CHECK(info.id != 0);
	return info.id;
}

/* the program with this id still exists */
void check_prog_alive(__u32 id)
{
	int fd = bpf_prog_get_fd_by_id(id);

	if (fd < 0)
		FAIL("program id %u is gone (%d, %s) while a reference should "
		     "still hold it", id, fd, strerror(-fd));
	close(fd);
}

/* the program with this id is freed within PROG_GONE_MS */
void wait_prog_gone(__u32 id)
{
	unsigned int waited;

	for (waited = 0; waited < PROG_GONE_MS; waited += 10) {
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0) {
			CHECK_EQ(fd, -ENOENT);
			return;
		}
		close(fd);
		uring_sleep_ms(10);
	}
	FAIL("program id %u still exists %u ms after its last user "
	     "reference was dropped: someone leaked a reference", id,
	     PROG_GONE_MS);
}

/* no CQE comes within URING_NO_CQE_MS */
void expect_no_cqe(struct io_uring *ring)
{
	uring_reap(ring, NULL, 0);
}

/* position of the CQE with user_data @ud in @cqes */
unsigned int cqe_pos(const struct io_uring_cqe *cqes, unsigned int n,
		     __u64 ud)
{
	return (unsigned int)(uring_find_cqe(cqes, n, ud) - cqes);
}

/* a ring of @entries with the one program @prog attached (index 0) */
void ring_with_prog(struct io_uring *ring, unsigned int entries,
		    unsigned int flags, const struct bpf_program *prog)
{
	int fd = uring_prog_fd(prog);

	uring_init(ring, entries, flags);
	CHECK_EQ(uring_attach(ring, &fd, 1), 0);
}

/* submit one IORING_OP_BPF of program 0 (UD_BPF): exactly @n CQEs come */
void run_bpf_reap(struct io_uring *ring, struct io_uring_cqe *cqes,
		  unsigned int n)
{
	uring_prep_bpf(ring, 0, UD_BPF);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, n);
}

/* submit one IORING_OP_BPF of program @index and return its res */
int run_bpf(struct io_uring *ring, __u64 index)
{
	struct io_uring_cqe cqe;

	uring_prep_bpf(ring, index, UD_BPF);
	uring_submit(ring, 1);
	uring_reap(ring, &cqe, 1);
	CHECK_EQ_U64(cqe.user_data, UD_BPF);
	CHECK_EQ(cqe.flags, 0);
	return cqe.res;
}

/* a temporary file in /tmp, unlinked at once */
int tmp_file(void)
{
	char path[] = "/tmp/iocoro-abi-XXXXXX";
	int fd = CHECK_SYS(mkstemp(path));

	CHECK_SYS(unlink(path));
	return fd;
}

/* the whole content of @fd must be @want (@len bytes) */
void check_file(int fd, const void *want, size_t len)
{
	char buf[256];
	struct stat st;
	ssize_t got;

	CHECK(len < sizeof(buf));
	CHECK_SYS(fstat(fd, &st));
	CHECK_EQ(st.st_size, len);
	CHECK_SYS(lseek(fd, 0, SEEK_SET));
	got = CHECK_SYS(read(fd, buf, sizeof(buf)));
	CHECK_EQ(got, len);
	if (memcmp(buf, want, len))
		FAIL("file content '%.*s', want '%.*s'", (int)got, buf,
		     (int)len, (const char *)want);
}

int devnull(void)
{
	return CHECK_SYS(open("/dev/null", O_RDONLY | O_CLOEXEC));
}

/* ------------------------------------------------------------ fdinfo */

/*
 * The ring's fdinfo has "BpfProgs:\t<nr>" exactly once, followed by one
 * line "%5u: id %u %s" per program of @progs (holes left out), and then
 * the next section, "PollList:". Other "Bpf<Key>:\t" lines right after
 * BpfProgs (later patches of the series add some, e.g. BpfBudget) are
 * skipped.
 */
void check_fdinfo(struct io_uring *ring, unsigned int nr,
		  const struct fdinfo_prog *progs, unsigned int nprogs)
{
	char *info = uring_fdinfo(ring);
	char head[64], want[8192];
	char *p, *second;
	size_t off = 0, len;
	unsigned int i;

	snprintf(head, sizeof(head), "\nBpfProgs:\t%u\n", nr);
	p = strstr(info, head);
	if (!p) {
		fprintf(stderr, "fdinfo of the ring:\n%s\n", info);
		FAIL("fdinfo has no line 'BpfProgs:\\t%u'", nr);
	}
	second = strstr(p + 1, "\nBpfProgs:");
	if (second) {
		fprintf(stderr, "fdinfo of the ring:\n%s\n", info);
		FAIL("fdinfo has BpfProgs twice");
	}
	p += strlen(head);
	while (!strncmp(p, "Bpf", 3) && strchr(p, '\n'))
		p = strchr(p, '\n') + 1;

	for (i = 0; i < nprogs; i++) {
		len = (size_t)snprintf(want + off, sizeof(want) - off,
				       "%5u: id %u %s\n", progs[i].index,
				       progs[i].id, progs[i].name);
		CHECK(len < sizeof(want) - off);
		off += len;
	}
	CHECK(off + sizeof("PollList:\n") < sizeof(want));
	strcpy(want + off, "PollList:\n");
	if (strncmp(p, want, strlen(want))) {
		fprintf(stderr, "fdinfo of the ring:\n%s\n", info);
		FAIL("after 'BpfProgs:\\t%u' fdinfo has\n%.*s\nwant\n%s", nr,
		     (int)strlen(want), p, want);
	}
}

/* ------------------------------------------------------------- privileges */

/* drop CAP_BPF, CAP_SYS_ADMIN, CAP_PERFMON, CAP_NET_ADMIN (all sets) */
void drop_bpf_caps(void)
{
	static const int caps[] = { CAP_BPF, CAP_SYS_ADMIN, CAP_PERFMON,
				    CAP_NET_ADMIN };
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	unsigned int i;

	CHECK_SYS(syscall(SYS_capget, &hdr, data));
	for (i = 0; i < ARRAY_SIZE(caps); i++) {
		__u32 bit = CAP_TO_MASK(caps[i]);
		int w = CAP_TO_INDEX(caps[i]);

		data[w].effective &= ~bit;
		data[w].permitted &= ~bit;
		data[w].inheritable &= ~bit;
	}
	CHECK_SYS(syscall(SYS_capset, &hdr, data));

	memset(data, 0xff, sizeof(data));
	CHECK_SYS(syscall(SYS_capget, &hdr, data));
	for (i = 0; i < ARRAY_SIZE(caps); i++) {
		CHECK(!(data[CAP_TO_INDEX(caps[i])].effective &
			CAP_TO_MASK(caps[i])));
		CHECK(!(data[CAP_TO_INDEX(caps[i])].permitted &
			CAP_TO_MASK(caps[i])));
	}
}

#define UNPRIV_SYSCTL "/proc/sys/kernel/unprivileged_bpf_disabled"

/*
 * Unprivileged BPF (socket filters) must be allowed, so that an -EPERM for
 * an iouring program is about the program type and not the sysctl. Returns
 * the old value, to be given to restore_unpriv_bpf().
 */
int allow_unpriv_bpf(void)
{
	char buf[16] = "";
	int fd, old;

	fd = CHECK_SYS(open(UNPRIV_SYSCTL, O_RDWR | O_CLOEXEC));
	CHECK(CHECK_SYS(read(fd, buf, sizeof(buf) - 1)) > 0);
	old = atoi(buf);
	if (old == 1)
		FAIL(UNPRIV_SYSCTL " is 1 (locked until reboot): the "
		     "unprivileged control load cannot be done");
	if (old != 0)
		CHECK_EQ(CHECK_SYS(pwrite(fd, "0\n", 2, 0)), 2);
	close(fd);
	return old;
}

void restore_unpriv_bpf(int old)
{
	char buf[16];
	int fd, len;

	if (old == 0)
		return;
	len = snprintf(buf, sizeof(buf), "%d\n", old);
	fd = CHECK_SYS(open(UNPRIV_SYSCTL, O_WRONLY | O_CLOEXEC));
	CHECK_EQ(CHECK_SYS(write(fd, buf, (size_t)len)), len);
	close(fd);
}

/* wait for child @pid: its wait status */
int reap_child(pid_t pid)
{
	int status;

	CHECK_EQ(CHECK_SYS(waitpid(pid, &status, 0)), pid);
	return status;
}

/* the child's wait status says it exited 0 */
void check_child(int status)
{
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		FAIL("child failed (wait status 0x%x)", status);
}

void wait_child(pid_t pid)
{
	check_child(reap_child(pid));
}

pid_t fork_child(void)
{
	fflush(stdout);
	fflush(stderr);
	return CHECK_SYS(fork());
}

void set_write(struct abi_bpf *skel, int fd, const void *buf, size_t len)
{
	skel->bss->wr_fd = fd;
	skel->bss->wr_buf = (__u64)(uintptr_t)buf;
	skel->bss->wr_len = (__u32)len;
	skel->bss->wr_off = 0;
	skel->bss->wr_ud = UD_WRITE;
	skel->bss->fsync_ud = UD_FSYNC;
}
