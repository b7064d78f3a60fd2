// SPDX-License-Identifier: MIT
/* Helpers for guest tests of rings that run coroutine steps: uring_bpf.h */
#define _GNU_SOURCE
#include "uring_bpf.h"

#include <bpf/btf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

int uring_register(int ring_fd, unsigned int op, const void *arg,
		   unsigned int nr)
{
	long ret = syscall(__NR_io_uring_register, ring_fd, op, arg, nr);

	return ret < 0 ? -errno : (int)ret;
}

void uring_init(struct io_uring *ring, unsigned int entries,
		unsigned int flags)
{
	int ret = io_uring_queue_init(entries, ring, flags);

	if (ret < 0)
		FAIL("io_uring_queue_init(%u, flags 0x%x): %d (%s)", entries,
		     flags, ret, strerror(-ret));
}

void uring_init_params(struct io_uring *ring, unsigned int entries,
		       struct io_uring_params *p)
{
	int ret = io_uring_queue_init_params(entries, ring, p);

	if (ret < 0)
		FAIL("io_uring_queue_init_params(%u, flags 0x%x, cq %u): %d "
		     "(%s)", entries, p->flags, p->cq_entries, ret,
		     strerror(-ret));
}

struct io_uring_sqe *uring_sqe(struct io_uring *ring)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	CHECK(sqe != NULL);
	memset(sqe, 0, ring->flags & IORING_SETUP_SQE128 ? 128 : 64);
	return sqe;
}

struct io_uring_sqe *uring_prep_nop(struct io_uring *ring, __u64 ud,
				    __u8 flags)
{
	struct io_uring_sqe *sqe = uring_sqe(ring);

	io_uring_prep_nop(sqe);
	sqe->user_data = ud;
	sqe->flags = flags;
	return sqe;
}

void uring_submit(struct io_uring *ring, int n)
{
	int ret = io_uring_submit(ring);

	if (ret != n)
		FAIL("io_uring_submit: %d (%s), want %d", ret,
		     ret < 0 ? strerror(-ret) : "submitted", n);
}

int uring_wait_cqe_ms(struct io_uring *ring, struct io_uring_cqe **cqe,
		      unsigned int ms)
{
	struct __kernel_timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (long long)(ms % 1000) * 1000000,
	};
	unsigned int waited;
	int ret;

	if (!(ring->flags & IORING_SETUP_IOPOLL)) {
		ret = io_uring_wait_cqe_timeout(ring, cqe, &ts);
		if (ret && ret != -ETIME)
			FAIL("io_uring_wait_cqe_timeout: %d (%s)", ret,
			     strerror(-ret));
		return ret;
	}
	/* IOPOLL rings: poll, never block */
	for (waited = 0;; waited++) {
		ret = io_uring_peek_cqe(ring, cqe);
		if (!ret)
			return 0;
		if (ret != -EAGAIN)
			FAIL("io_uring_peek_cqe: %d (%s)", ret, strerror(-ret));
		if (waited >= ms)
			return -ETIME;
		uring_sleep_ms(1);
	}
}

void uring_dump_cqes(const struct io_uring_cqe *cqes, unsigned int n)
{
	char buf[IOCORO_CQE_STR_MAX];
	unsigned int i;

	for (i = 0; i < n; i++) {
		iocoro_cqe_str(buf, sizeof(buf), &cqes[i]);
		fprintf(stderr, "  CQE %u: %s\n", i, buf);
	}
}

void uring_reap(struct io_uring *ring, struct io_uring_cqe *out,
		unsigned int n)
{
	struct io_uring_cqe *cqe;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (uring_wait_cqe_ms(ring, &cqe, URING_CQE_TIMEOUT_MS)) {
			uring_dump_cqes(out, i);
			FAIL("got %u CQEs (above), want %u", i, n);
		}
		out[i] = *cqe;
		io_uring_cqe_seen(ring, cqe);
	}
	if (!uring_wait_cqe_ms(ring, &cqe, URING_NO_CQE_MS)) {
		char buf[IOCORO_CQE_STR_MAX];

		uring_dump_cqes(out, n);
		iocoro_cqe_str(buf, sizeof(buf), cqe);
		FAIL("unexpected CQE after the %u above: %s", n, buf);
	}
}

const struct io_uring_cqe *uring_find_cqe(const struct io_uring_cqe *cqes,
					  unsigned int n, uint64_t ud)
{
	const struct io_uring_cqe *found = NULL;
	unsigned int i, hits = 0;

	for (i = 0; i < n; i++) {
		if (cqes[i].user_data == ud) {
			found = &cqes[i];
			hits++;
		}
	}
	if (hits != 1) {
		uring_dump_cqes(cqes, n);
		FAIL("%u CQEs (above) with user_data 0x%llx, want 1", hits,
		     (unsigned long long)ud);
	}
	return found;
}

char *uring_fdinfo(struct io_uring *ring)
{
	static char buf[1 << 16];
	char path[64];
	size_t len = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", ring->ring_fd);
	fd = CHECK_SYS(open(path, O_RDONLY | O_CLOEXEC));
	while ((n = CHECK_SYS(read(fd, buf + len, sizeof(buf) - 1 - len))) > 0)
		len += (size_t)n;
	CHECK(len < sizeof(buf) - 1);
	buf[len] = '\0';
	close(fd);
	return buf;
}

int uring_closed_fd(void)
{
	int fd = CHECK_SYS(open("/dev/null", O_RDONLY | O_CLOEXEC));

	CHECK_SYS(close(fd));
	return fd;
}

void uring_sync_sq(struct io_uring *ring)
{
	ring->sq.sqe_head = ring->sq.sqe_tail =
		IO_URING_READ_ONCE(*ring->sq.ktail);
}

pid_t uring_fork_with_pipe(int p[2])
{
	pid_t pid;

	CHECK_SYS(pipe2(p, O_CLOEXEC));
	fflush(stdout);
	fflush(stderr);
	pid = CHECK_SYS(fork());
	close(pid ? p[1] : p[0]);
	return pid;
}

void uring_write_byte(int fd, char c)
{
	CHECK_EQ(CHECK_SYS(write(fd, &c, 1)), 1);
}

int uring_read_byte_ms(int fd, unsigned int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char c;

	if (CHECK_SYS(poll(&pfd, 1, (int)ms)) == 0)
		return -1;
	if (CHECK_SYS(read(fd, &c, 1)) != 1)
		return -1;
	return (unsigned char)c;
}

bool uring_reap_child_ms(pid_t pid, unsigned int ms, int *status)
{
	uint64_t t0 = uring_now_ns();

	for (;;) {
		pid_t r = CHECK_SYS(waitpid(pid, status, WNOHANG));

		if (r == pid)
			return true;
		if (uring_now_ns() - t0 > (uint64_t)ms * 1000000)
			return false;
		uring_sleep_ms(2);
	}
}

char uring_task_state(pid_t pid)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* pid (comm) S ...: the comm may hold anything, even ") " */
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return 0;
	return p[2];
}

void uring_dump_task(pid_t pid)
{
	static const char *const files[] = { "stat", "wchan", "stack" };
	char path[64], buf[4096];
	unsigned int i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		ssize_t n;
		int fd;

		snprintf(path, sizeof(path), "/proc/%d/%s", pid, files[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = '\0';
			fprintf(stderr, "%s:\n%s\n", path, buf);
		}
	}
}

int uring_enter(struct io_uring *ring, unsigned int to_submit,
		unsigned int min_complete, unsigned int flags)
{
	long ret = syscall(__NR_io_uring_enter, ring->ring_fd, to_submit,
			   min_complete, flags, NULL, 0);

	return ret < 0 ? -errno : (int)ret;
}

uint64_t uring_now_ns(void)
{
	struct timespec ts;

	CHECK_SYS(clock_gettime(CLOCK_MONOTONIC, &ts));
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

double uring_ms_since(uint64_t t0)
{
	return (double)(uring_now_ns() - t0) / 1e6;
}

void uring_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* offset in bytes of member @name of struct @t */
static __u32 btf_member_off(const struct btf *btf, const struct btf_type *t,
			    const char *name)
{
	const struct btf_member *m = btf_members(t);
	__u16 i;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		if (!strcmp(btf__name_by_offset(btf, m->name_off), name))
			return btf_member_bit_offset(t, i) / 8;
	}
	FAIL("struct %s has no member %s in the kernel's BTF",
	     btf__name_by_offset(btf, t->name_off), name);
}

const struct uring_kind_layout *uring_kind_layout(void)
{
	static struct uring_kind_layout layout;
	static bool done;
	const struct btf_type *value, *ops;
	struct btf *btf;
	__s32 vid, oid;
	__u32 data;

	if (done)
		return &layout;
	btf = btf__load_vmlinux_btf();
	if (!btf)
		FAIL("no kernel BTF: %s", strerror(errno));
	vid = btf__find_by_name_kind(btf, "bpf_struct_ops_io_coro_ops",
				     BTF_KIND_STRUCT);
	oid = btf__find_by_name_kind(btf, "io_coro_ops", BTF_KIND_STRUCT);
	if (vid < 0 || oid < 0)
		FAIL("the kernel's BTF has no struct io_coro_ops (%d, %d)",
		     vid, oid);
	value = btf__type_by_id(btf, vid);
	ops = btf__type_by_id(btf, oid);
	data = btf_member_off(btf, value, "data");
	layout.ops_type_id = oid;
	layout.value_type_id = vid;
	layout.value_size = value->size;
	layout.off_step = data + btf_member_off(btf, ops, "step");
	layout.off_ring_fd = data + btf_member_off(btf, ops, "ring_fd");
	layout.off_kind = data + btf_member_off(btf, ops, "kind");
	btf__free(btf);
	done = true;
	return &layout;
}

int uring_kind_btf(void)
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

int uring_kind_map(const char *name, int btf_fd, int prog_fd, int ring_fd,
		   __u32 kind)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_LINK);
	const struct uring_kind_layout *layout = uring_kind_layout();
	unsigned char value[512];
	int fd, zero = 0;

	CHECK(layout->value_size <= sizeof(value));
	opts.btf_fd = btf_fd;
	opts.btf_vmlinux_value_type_id = layout->value_type_id;
	memset(value, 0, sizeof(value));
	*(__u64 *)(value + layout->off_step) = (__u64)(unsigned int)prog_fd;
	*(__s32 *)(value + layout->off_ring_fd) = ring_fd;
	*(__u32 *)(value + layout->off_kind) = kind;
	fd = bpf_map_create(BPF_MAP_TYPE_STRUCT_OPS, name, sizeof(int),
			    layout->value_size, 1, &opts);
	if (fd < 0)
		return -errno;
	if (bpf_map_update_elem(fd, &zero, value, 0)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

int uring_kind_link(int map_fd)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	struct_ops_link_create_attr(&attr, map_fd);
	fd = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
	return fd < 0 ? -errno : fd;
}
