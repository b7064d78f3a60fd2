// SPDX-License-Identifier: MIT
/* Setup and helpers shared by the abi suite: abi.h */
#include "abi.h"

#include <bpf/btf.h>

/* ---------------------------------------------------------------- helpers */

struct abi_bpf *skel_load(void)
{
	return SKEL_LOAD(abi_bpf);
}

void abi_down(struct io_uring *ring, struct abi_bpf *skel, int link)
{
	if (link >= 0)
		close(link);
	io_uring_queue_exit(ring);
	abi_bpf__destroy(skel);
}

void abi_up(struct abi_case *c, const char *step)
{
	const struct bpf_program *prog;

	c->skel = skel_load();
	prog = bpf_object__find_program_by_name(c->skel->obj, step);
	if (!prog)
		FAIL("abi.bpf.c has no step %s", step);
	c->link = ring_with_kind(&c->ring, 8, 0, prog);
}

void abi_end(struct abi_case *c)
{
	abi_down(&c->ring, c->skel, c->link);
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

int kind_map_raw(int ring_fd, int prog_fd, __u32 kind)
{
	int fd, btf_fd = uring_kind_btf();

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
	uring_prep_start(ring, 0, UD_BPF)->off = kind;
	return uring_submit_res(ring, UD_BPF);
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


void set_write(struct abi_bpf *skel, int fd, const void *buf, size_t len)
{
	skel->bss->wr_fd = fd;
	skel->bss->wr_buf = (__u64)(uintptr_t)buf;
	skel->bss->wr_len = (__u32)len;
	skel->bss->wr_off = 0;
	skel->bss->wr_ud = UD_WRITE;
	skel->bss->fsync_ud = UD_FSYNC;
}
