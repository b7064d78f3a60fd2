// SPDX-License-Identifier: MIT
/* Setup and helpers shared by the abi suite: abi.h */
#include "abi.h"

#include <bpf/btf.h>

/* ---------------------------------------------------------------- helpers */

struct abi_bpf *skel_load(void)
{
	return SKEL_LOAD(abi_bpf);
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

/* ------------------------------------------------------------- kinds */

int load_raw_step(const char *name)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	int fd;

	/* member 0 of struct io_coro_ops: step */
	opts.expected_attach_type = 0;
	opts.attach_btf_id = uring_kind_layout()->ops_type_id;
	fd = bpf_prog_load(BPF_PROG_TYPE_STRUCT_OPS, name, "GPL", insns,
			   ARRAY_SIZE(insns), &opts);
	return fd < 0 ? -errno : fd;
}

int kind_attach(int ring_fd, const struct bpf_program *prog, unsigned int kind)
{
	struct iocoro co;

	memset(&co, 0, sizeof(co));
	co.ring.ring_fd = ring_fd;
	return iocoro_kind_attach(&co, prog, kind);
}

int kind_attach_ok(struct io_uring *ring, const struct bpf_program *prog,
		   unsigned int kind)
{
	int link = kind_attach(ring->ring_fd, prog, kind);

	if (link < 0)
		FAIL("attaching %s as kind %u: %d (%s)",
		     bpf_program__name(prog), kind, link, strerror(-link));
	return link;
}

/* a BTF object of one int: a struct_ops map needs one of its own */
static int map_btf_fd(void)
{
	const void *raw;
	struct btf *btf;
	__u32 size;
	int fd;

	btf = btf__new_empty();
	CHECK(btf);
	CHECK(btf__add_int(btf, "int", 4, BTF_INT_SIGNED) > 0);
	raw = btf__raw_data(btf, &size);
	CHECK(raw);
	fd = bpf_btf_load(raw, size, NULL);
	if (fd < 0)
		fd = -errno;
	btf__free(btf);
	return fd;
}

int kind_map_raw(int ring_fd, int prog_fd, __u32 kind)
{
	int fd, btf_fd = map_btf_fd();

	if (btf_fd < 0)
		return btf_fd;
	fd = uring_kind_map("abi_kind", btf_fd, prog_fd, ring_fd, kind);
	close(btf_fd);
	return fd;
}

void kind_value(const void *value, __u64 *step, __s32 *ring_fd, __u32 *kind)
{
	const struct uring_kind_layout *layout = uring_kind_layout();
	const unsigned char *v = value;

	memcpy(step, v + layout->off_step, sizeof(*step));
	memcpy(ring_fd, v + layout->off_ring_fd, sizeof(*ring_fd));
	memcpy(kind, v + layout->off_kind, sizeof(*kind));
}

int kind_link_raw(int map_fd)
{
	return uring_kind_link(map_fd);
}

int kind_attach_raw(int ring_fd, int prog_fd, __u32 kind)
{
	int map, link;

	map = kind_map_raw(ring_fd, prog_fd, kind);
	if (map < 0)
		return map;
	link = kind_link_raw(map);
	close(map);
	return link;
}

int ring_with_kind(struct io_uring *ring, unsigned int entries,
		   unsigned int flags, const struct bpf_program *prog)
{
	uring_init(ring, entries, flags);
	return kind_attach_ok(ring, prog, 0);
}

void run_bpf_reap(struct io_uring *ring, struct io_uring_cqe *cqes,
		  unsigned int n)
{
	uring_prep_start(ring, 0, UD_BPF);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, n);
}

int run_bpf(struct io_uring *ring, __u64 kind)
{
	struct io_uring_cqe cqe;

	uring_prep_start(ring, 0, UD_BPF)->off = kind;
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

/* ------------------------------------------------------------- privileges */

void drop_caps(const int *caps, unsigned int nr)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	unsigned int i;

	CHECK_SYS(syscall(SYS_capget, &hdr, data));
	for (i = 0; i < nr; i++) {
		__u32 bit = CAP_TO_MASK(caps[i]);
		int w = CAP_TO_INDEX(caps[i]);

		data[w].effective &= ~bit;
		data[w].permitted &= ~bit;
		data[w].inheritable &= ~bit;
	}
	CHECK_SYS(syscall(SYS_capset, &hdr, data));

	memset(data, 0xff, sizeof(data));
	CHECK_SYS(syscall(SYS_capget, &hdr, data));
	for (i = 0; i < nr; i++) {
		CHECK(!(data[CAP_TO_INDEX(caps[i])].effective &
			CAP_TO_MASK(caps[i])));
		CHECK(!(data[CAP_TO_INDEX(caps[i])].permitted &
			CAP_TO_MASK(caps[i])));
	}
}

void drop_bpf_caps(void)
{
	static const int caps[] = { CAP_BPF, CAP_SYS_ADMIN, CAP_PERFMON,
				    CAP_NET_ADMIN };

	drop_caps(caps, ARRAY_SIZE(caps));
}

#define UNPRIV_SYSCTL "/proc/sys/kernel/unprivileged_bpf_disabled"

/*
 * Unprivileged BPF (socket filters) must be allowed, so that an -EPERM for
 * a step is about the step and not the sysctl
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
