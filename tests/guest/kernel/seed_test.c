// SPDX-License-Identifier: MIT
/*
 * Guest tests of the kernel series (kernel/patches/000[1-4]):
 *
 *   0001 BPF_PROG_TYPE_IOURING
 *   0002 io_uring_register(IORING_ATTACH_BPF / IORING_DETACH_BPF), fdinfo
 *   0003 IORING_OP_BPF
 *   0004 bpf_io_uring_queue_sqe()
 *
 * Usage: seed_test <case>          run one case (one ctest test each)
 *        seed_test --list          print the case names
 *        seed_test --check-list a,b,...   the given list must be exactly
 *                                  the case table (keeps CMake in sync)
 *
 * Every case asserts exact values (CQE res, errno) and fails on the first
 * mismatch; none skips. The programs are in seed.bpf.c.
 */
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

#include "check.h"
#include "uring_bpf.h"
#include "seed.skel.h"

/* the ABI of the series, as the patched uapi headers define it */
_Static_assert(BPF_PROG_TYPE_IOURING == BPF_PROG_TYPE_NETFILTER + 1,
	       "BPF_PROG_TYPE_IOURING follows BPF_PROG_TYPE_NETFILTER");
_Static_assert(IORING_ATTACH_BPF == 48, "IORING_ATTACH_BPF is 48");
_Static_assert(IORING_DETACH_BPF == 49, "IORING_DETACH_BPF is 49");
_Static_assert(IORING_OP_BPF == IORING_OP_LISTEN + 1,
	       "IORING_OP_BPF follows IORING_OP_LISTEN");
_Static_assert(BPF_FUNC_io_uring_queue_sqe == 212,
	       "bpf_io_uring_queue_sqe is helper 212");

/* must match seed.bpf.c */
#define NR_MANY 33
/* the uapi's limits */
#define MAX_QUEUED IORING_BPF_MAX_SQES
#define MAX_PROGS IORING_BPF_MAX_PROGS
_Static_assert(NR_MANY == MAX_QUEUED + 1, "seed.bpf.c's q_many queues one "
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

/* ---------------------------------------------------------------- helpers */

static struct seed_bpf *skel_load(void)
{
	struct seed_bpf *skel;
	int err;

	uring_bpf_register_sec();
	skel = seed_bpf__open();
	if (!skel)
		FAIL("seed_bpf__open: %s", strerror(errno));
	err = seed_bpf__load(skel);
	if (err)
		FAIL("seed_bpf__load: %d (%s)", err, strerror(-err));
	CHECK_EQ(bpf_program__type(skel->progs.q_nop), BPF_PROG_TYPE_IOURING);
	return skel;
}

/* a program r0 = 0; exit of @type: fd or -errno */
static int load_raw(enum bpf_prog_type type, const char *name)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return bpf_prog_load(type, name, "GPL", insns, ARRAY_SIZE(insns), NULL);
}

static int load_raw_ok(enum bpf_prog_type type, const char *name)
{
	int fd = load_raw(type, name);

	if (fd < 0)
		FAIL("loading a program of type %d: %d (%s)", type, fd,
		     strerror(-fd));
	return fd;
}

static __u32 prog_id(int fd)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	CHECK_EQ(bpf_obj_get_info_by_fd(fd, &info, &len), 0);
	CHECK(info.id != 0);
	return info.id;
}

/* the program with this id still exists */
static void check_prog_alive(__u32 id)
{
	int fd = bpf_prog_get_fd_by_id(id);

	if (fd < 0)
		FAIL("program id %u is gone (%d, %s) while a reference should "
		     "still hold it", id, fd, strerror(-fd));
	close(fd);
}

/* the program with this id is freed within PROG_GONE_MS */
static void wait_prog_gone(__u32 id)
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
static void expect_no_cqe(struct io_uring *ring)
{
	uring_reap(ring, NULL, 0);
}

/* position of the CQE with user_data @ud in @cqes */
static unsigned int cqe_pos(const struct io_uring_cqe *cqes, unsigned int n,
			    __u64 ud)
{
	return (unsigned int)(uring_find_cqe(cqes, n, ud) - cqes);
}

/* a ring of @entries with the one program @prog attached (index 0) */
static void ring_with_prog(struct io_uring *ring, unsigned int entries,
			   unsigned int flags, const struct bpf_program *prog)
{
	int fd = uring_prog_fd(prog);

	uring_init(ring, entries, flags);
	CHECK_EQ(uring_attach(ring, &fd, 1), 0);
}

/* submit one IORING_OP_BPF of program 0 (UD_BPF): exactly @n CQEs come */
static void run_bpf_reap(struct io_uring *ring, struct io_uring_cqe *cqes,
			 unsigned int n)
{
	uring_prep_bpf(ring, 0, UD_BPF);
	uring_submit(ring, 1);
	uring_reap(ring, cqes, n);
}

/* submit one IORING_OP_BPF of program @index and return its res */
static int run_bpf(struct io_uring *ring, __u64 index)
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
static int tmp_file(void)
{
	char path[] = "/tmp/iocoro-seed-XXXXXX";
	int fd = CHECK_SYS(mkstemp(path));

	CHECK_SYS(unlink(path));
	return fd;
}

/* the whole content of @fd must be @want (@len bytes) */
static void check_file(int fd, const void *want, size_t len)
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

static int devnull(void)
{
	return CHECK_SYS(open("/dev/null", O_RDONLY | O_CLOEXEC));
}

/* ------------------------------------------------------------ fdinfo */

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
static void check_fdinfo(struct io_uring *ring, unsigned int nr,
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
static void drop_bpf_caps(void)
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
static int allow_unpriv_bpf(void)
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

static void restore_unpriv_bpf(int old)
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
static int reap_child(pid_t pid)
{
	int status;

	CHECK_EQ(CHECK_SYS(waitpid(pid, &status, 0)), pid);
	return status;
}

/* the child's wait status says it exited 0 */
static void check_child(int status)
{
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		FAIL("child failed (wait status 0x%x)", status);
}

static void wait_child(pid_t pid)
{
	check_child(reap_child(pid));
}

static pid_t fork_child(void)
{
	fflush(stdout);
	fflush(stderr);
	return CHECK_SYS(fork());
}

/* ================================================================== cases */

/* io_uring_get_probe() reports IORING_OP_BPF, the last opcode */
static void t_probe(void)
{
	struct io_uring_probe *probe = io_uring_get_probe();

	CHECK(probe != NULL);
	CHECK_EQ(probe->last_op, IORING_OP_BPF);
	CHECK(io_uring_opcode_supported(probe, IORING_OP_BPF));
	CHECK(probe->ops[IORING_OP_BPF].op == IORING_OP_BPF);
	CHECK(probe->ops[IORING_OP_BPF].flags & IO_URING_OP_SUPPORTED);
	/* a sanity control: a stock opcode */
	CHECK(io_uring_opcode_supported(probe, IORING_OP_NOP));
	io_uring_free_probe(probe);
}

/* nr 0 -> EINVAL, nothing attached */
static void t_attach_nr_zero(void)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring ring;
	int fds[1];

	uring_init(&ring, 8, 0);
	fds[0] = uring_prog_fd(skel->progs.nothing);
	CHECK_EQ(uring_attach(&ring, fds, 0), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	check_fdinfo(&ring, 0, NULL, 0);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/* nr 65 and nr UINT_MAX -> EINVAL, nothing attached */
static void t_attach_nr_too_big(void)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring ring;
	int fds[MAX_PROGS + 1];
	unsigned int i;

	uring_init(&ring, 8, 0);
	for (i = 0; i < ARRAY_SIZE(fds); i++)
		fds[i] = uring_prog_fd(skel->progs.nothing);
	CHECK_EQ(uring_attach(&ring, fds, MAX_PROGS + 1), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	CHECK_EQ(uring_attach(&ring, fds, ~0U), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/* nr 64 works; every slot runs; index 64 is out of the table */
static void t_attach_nr_max(void)
{
	struct seed_bpf *skel = skel_load();
	struct fdinfo_prog progs[MAX_PROGS];
	int fds[MAX_PROGS];
	struct io_uring ring;
	__u32 id;
	unsigned int i;

	uring_init(&ring, 8, 0);
	id = prog_id(uring_prog_fd(skel->progs.nothing));
	for (i = 0; i < MAX_PROGS; i++) {
		fds[i] = uring_prog_fd(skel->progs.nothing);
		progs[i] = (struct fdinfo_prog){ i, id, "nothing" };
	}
	CHECK_EQ(uring_attach(&ring, fds, MAX_PROGS), 0);
	check_fdinfo(&ring, MAX_PROGS, progs, MAX_PROGS);

	CHECK_EQ(run_bpf(&ring, 0), 0);
	CHECK_EQ(run_bpf(&ring, MAX_PROGS - 1), 0);
	CHECK_EQ(skel->bss->runs, 2);
	CHECK_EQ(run_bpf(&ring, MAX_PROGS), -EBADF);
	CHECK_EQ(skel->bss->runs, 2);

	CHECK_EQ(uring_detach(&ring), 0);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/* arg NULL -> EINVAL, nothing attached */
static void t_attach_null_arg(void)
{
	struct io_uring ring;

	uring_init(&ring, 8, 0);
	CHECK_EQ(uring_attach(&ring, NULL, 1), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	CHECK_EQ(uring_attach(&ring, NULL, 0), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	io_uring_queue_exit(&ring);
}

/* a program of another type (socket filter) -> EINVAL */
static void t_attach_wrong_type(void)
{
	struct io_uring ring;
	int fd;

	uring_init(&ring, 8, 0);
	fd = load_raw_ok(BPF_PROG_TYPE_SOCKET_FILTER, "sockfilter");
	CHECK_EQ(uring_attach(&ring, &fd, 1), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	close(fd);

	/* the same program as an iouring one is accepted (control) */
	fd = load_raw_ok(BPF_PROG_TYPE_IOURING, "raw_iouring");
	CHECK_EQ(uring_attach(&ring, &fd, 1), 0);
	CHECK_EQ(uring_detach(&ring), 0);
	close(fd);
	io_uring_queue_exit(&ring);
}

/*
 * An open fd that is not a BPF program -> EINVAL, as everywhere in
 * bpf(2) (__bpf_prog_get(): EBADF only for an fd that is not open).
 */
static void t_attach_not_bpf_fd(void)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring ring;
	int fd;

	uring_init(&ring, 8, 0);
	fd = devnull();
	CHECK_EQ(uring_attach(&ring, &fd, 1), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	close(fd);

	/* a BPF fd, but a map's */
	fd = bpf_map__fd(skel->maps.bss);
	CHECK(fd >= 0);
	CHECK_EQ(uring_attach(&ring, &fd, 1), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);

	/* the ring's own fd */
	CHECK_EQ(uring_attach(&ring, &ring.ring_fd, 1), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/* closed fds and negative fds other than -1 -> EBADF */
static void t_attach_bad_fd(void)
{
	struct io_uring ring;
	int fd;

	uring_init(&ring, 8, 0);
	fd = uring_closed_fd();
	CHECK_EQ(uring_attach(&ring, &fd, 1), -EBADF);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	fd = -2;
	CHECK_EQ(uring_attach(&ring, &fd, 1), -EBADF);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	fd = 1 << 20;
	CHECK_EQ(uring_attach(&ring, &fd, 1), -EBADF);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	io_uring_queue_exit(&ring);
}

/* a failure at index 1 after a good index 0 leaves nothing attached */
static void t_attach_partial_failure(void)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring ring;
	int sf, fds[3];

	uring_init(&ring, 8, 0);
	sf = load_raw_ok(BPF_PROG_TYPE_SOCKET_FILTER, "sockfilter");

	fds[0] = uring_prog_fd(skel->progs.nothing);
	fds[1] = sf;
	CHECK_EQ(uring_attach(&ring, fds, 2), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	check_fdinfo(&ring, 0, NULL, 0);
	CHECK_EQ(run_bpf(&ring, 0), -EBADF);

	fds[1] = uring_closed_fd();
	CHECK_EQ(uring_attach(&ring, fds, 2), -EBADF);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	CHECK_EQ(run_bpf(&ring, 0), -EBADF);

	/* after a hole */
	fds[1] = -1;
	fds[2] = sf;
	CHECK_EQ(uring_attach(&ring, fds, 3), -EINVAL);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	CHECK_EQ(run_bpf(&ring, 0), -EBADF);
	CHECK_EQ(skel->bss->runs, 0);

	/* the ring is still usable: a good attach works */
	CHECK_EQ(uring_attach(&ring, fds, 2), 0);
	CHECK_EQ(run_bpf(&ring, 0), 0);
	CHECK_EQ(skel->bss->runs, 1);

	close(sf);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/* attaching twice -> EBUSY, the first table stays */
static void t_attach_busy(void)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring ring;
	int fd;

	ring_with_prog(&ring, 8, 0, skel->progs.nothing);
	fd = uring_prog_fd(skel->progs.q_nop);
	CHECK_EQ(uring_attach(&ring, &fd, 1), -EBUSY);

	check_fdinfo(&ring, 1,
		     &(struct fdinfo_prog){
			     0, prog_id(uring_prog_fd(skel->progs.nothing)),
			     "nothing" },
		     1);
	/* index 0 is still "nothing": it runs and queues no NOP */
	skel->bss->nop_ud = UD_NOP;
	CHECK_EQ(run_bpf(&ring, 0), 0);
	CHECK_EQ(skel->bss->runs, 1);
	CHECK_EQ(skel->bss->nr_rc, 0);

	/* after a detach, attaching works again */
	CHECK_EQ(uring_detach(&ring), 0);
	CHECK_EQ(uring_attach(&ring, &fd, 1), 0);
	CHECK_EQ(uring_detach(&ring), 0);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/* DETACH with an arg or nr -> EINVAL and the table stays */
static void t_detach_args(void)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring ring;
	int fd;

	uring_init(&ring, 8, 0);
	fd = uring_prog_fd(skel->progs.nothing);
	CHECK_EQ(uring_attach(&ring, &fd, 1), 0);

	CHECK_EQ(uring_register(ring.ring_fd, IORING_DETACH_BPF, &fd, 0),
		 -EINVAL);
	CHECK_EQ(uring_register(ring.ring_fd, IORING_DETACH_BPF, NULL, 1),
		 -EINVAL);
	CHECK_EQ(uring_register(ring.ring_fd, IORING_DETACH_BPF, &fd, 1),
		 -EINVAL);
	CHECK_EQ(run_bpf(&ring, 0), 0);
	CHECK_EQ(skel->bss->runs, 1);

	CHECK_EQ(uring_detach(&ring), 0);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	CHECK_EQ(run_bpf(&ring, 0), -EBADF);
	CHECK_EQ(skel->bss->runs, 1);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/* DETACH on a ring that never had a table -> ENXIO */
static void t_detach_none(void)
{
	struct io_uring ring;

	uring_init(&ring, 8, 0);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	io_uring_queue_exit(&ring);
}

/* fdinfo: BpfProgs and one line per program, holes left out */
static void t_fdinfo(void)
{
	struct seed_bpf *skel = skel_load();
	struct fdinfo_prog progs[2];
	struct io_uring ring;
	int fds[3];

	uring_init(&ring, 8, 0);
	check_fdinfo(&ring, 0, NULL, 0);

	fds[0] = uring_prog_fd(skel->progs.nothing);
	fds[1] = -1;
	fds[2] = uring_prog_fd(skel->progs.q_wr_fsync);
	progs[0] = (struct fdinfo_prog){ 0, prog_id(fds[0]), "nothing" };
	progs[1] = (struct fdinfo_prog){ 2, prog_id(fds[2]), "q_wr_fsync" };
	CHECK(progs[0].id != progs[1].id);
	CHECK_EQ(uring_attach(&ring, fds, 3), 0);
	check_fdinfo(&ring, 3, progs, 2);

	CHECK_EQ(uring_detach(&ring), 0);
	check_fdinfo(&ring, 0, NULL, 0);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/* IORING_OP_BPF on a ring without a table -> -EBADF */
static void t_op_no_table(void)
{
	struct io_uring ring;

	uring_init(&ring, 8, 0);
	CHECK_EQ(run_bpf(&ring, 0), -EBADF);
	CHECK_EQ(run_bpf(&ring, 1), -EBADF);
	io_uring_queue_exit(&ring);
}

/* off beyond the table -> -EBADF, including values that truncate to 0/1 */
static void t_op_bad_index(void)
{
	static const __u64 bad[] = { 2, 3, MAX_PROGS, 1ULL << 32,
				     (1ULL << 32) + 1, ~0ULL };
	struct seed_bpf *skel = skel_load();
	struct io_uring ring;
	unsigned int i;
	int fds[2];

	uring_init(&ring, 8, 0);
	fds[0] = fds[1] = uring_prog_fd(skel->progs.nothing);
	CHECK_EQ(uring_attach(&ring, fds, 2), 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int res = run_bpf(&ring, bad[i]);

		if (res != -EBADF)
			FAIL("off 0x%llx: res %d, want -EBADF",
			     (unsigned long long)bad[i], res);
	}
	CHECK_EQ(skel->bss->runs, 0);
	CHECK_EQ(run_bpf(&ring, 1), 0);
	CHECK_EQ(skel->bss->runs, 1);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/* a hole (-1 at attach) -> -EBADF */
static void t_op_hole(void)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring ring;
	int fds[3];

	uring_init(&ring, 8, 0);
	fds[0] = -1;
	fds[1] = uring_prog_fd(skel->progs.nothing);
	fds[2] = -1;
	CHECK_EQ(uring_attach(&ring, fds, 3), 0);
	CHECK_EQ(run_bpf(&ring, 0), -EBADF);
	CHECK_EQ(run_bpf(&ring, 2), -EBADF);
	CHECK_EQ(skel->bss->runs, 0);
	CHECK_EQ(run_bpf(&ring, 1), 0);
	CHECK_EQ(skel->bss->runs, 1);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

enum sqe_field {
	F_NONE, F_IOPRIO, F_FD, F_ADDR, F_LEN, F_RW_FLAGS, F_BUF_INDEX,
	F_FILE_INDEX, F_ADDR3, F_PAD2, F_NR
};

static const char *const field_names[F_NR] = {
	"none", "ioprio", "fd", "addr", "len", "rw_flags", "buf_index",
	"file_index", "addr3", "__pad2[0]",
};

/*
 * every unused field nonzero in turn -> -EINVAL (ioprio by io_init_req(),
 * as for any opcode without ioprio); all zero -> 0
 */
static void t_op_nonzero_fields(void)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring_cqe cqe;
	struct io_uring ring;
	unsigned int f;

	ring_with_prog(&ring, 8, 0, skel->progs.nothing);

	/* one at a time: a failed SQE ends io_uring_enter()'s submission */
	for (f = 0; f < F_NR; f++) {
		struct io_uring_sqe *sqe = uring_prep_bpf(&ring, 0, UD_BPF + f);
		int want = f == F_NONE ? 0 : -EINVAL;

		switch ((enum sqe_field)f) {
		case F_NONE: break;
		case F_IOPRIO: sqe->ioprio = 1; break;
		case F_FD: sqe->fd = 1; break;
		case F_ADDR: sqe->addr = 1; break;
		case F_LEN: sqe->len = 1; break;
		case F_RW_FLAGS: sqe->rw_flags = 1; break;
		case F_BUF_INDEX: sqe->buf_index = 1; break;
		case F_FILE_INDEX: sqe->file_index = 1; break;
		case F_ADDR3: sqe->addr3 = 1; break;
		case F_PAD2: sqe->__pad2[0] = 1; break;
		case F_NR: break;
		}
		uring_submit(&ring, 1);
		uring_reap(&ring, &cqe, 1);
		CHECK_EQ_U64(cqe.user_data, UD_BPF + f);
		if (cqe.res != want)
			FAIL("IORING_OP_BPF with %s nonzero: res %d, want %d",
			     field_names[f], cqe.res, want);
	}
	CHECK_EQ(skel->bss->runs, 1);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/* IOSQE_FIXED_FILE -> -EINVAL */
static void t_op_fixed_file(void)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring_cqe cqe;
	struct io_uring ring;
	int fd;

	ring_with_prog(&ring, 8, 0, skel->progs.nothing);
	/* a registered file, so that index 0 would be valid otherwise */
	fd = devnull();
	CHECK_EQ(io_uring_register_files(&ring, &fd, 1), 0);

	uring_prep_bpf(&ring, 0, UD_BPF)->flags = IOSQE_FIXED_FILE;
	uring_submit(&ring, 1);
	uring_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, -EINVAL);
	CHECK_EQ(skel->bss->runs, 0);
	close(fd);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/* an attached program, an IORING_OP_BPF on a ring with @flags -> -EINVAL */
static void op_refused_on(unsigned int flags)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring_cqe cqe;
	struct io_uring ring;

	ring_with_prog(&ring, 8, flags, skel->progs.nothing);
	run_bpf_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, -EINVAL);
	CHECK_EQ(skel->bss->runs, 0);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

static void t_op_sqpoll(void)
{
	op_refused_on(IORING_SETUP_SQPOLL);
}

static void t_op_iopoll(void)
{
	op_refused_on(IORING_SETUP_IOPOLL);
}

/* a registered personality is allowed; an unknown one fails as usual */
static void t_op_personality(void)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring_cqe cqe;
	struct io_uring ring;
	int id;

	ring_with_prog(&ring, 8, 0, skel->progs.nothing);
	id = CHECK_RET(io_uring_register_personality(&ring));
	CHECK(id > 0);

	uring_prep_bpf(&ring, 0, UD_BPF)->personality = (__u16)id;
	uring_submit(&ring, 1);
	uring_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, 0);
	CHECK_EQ(skel->bss->runs, 1);

	uring_prep_bpf(&ring, 0, UD_BPF2)->personality = (__u16)(id + 1);
	uring_submit(&ring, 1);
	uring_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF2, -EINVAL);
	CHECK_EQ(skel->bss->runs, 1);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/*
 * pipe read (pending) -> IORING_OP_BPF linked after it. With @detach_first
 * the table is detached while the BPF request waits: it must fail with
 * -EBADF at run time instead of running a released program.
 */
static void linked_bpf_after_read(bool detach_first)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	char byte = 0;
	int fd, pfd[2];

	uring_init(&ring, 8, 0);
	CHECK_SYS(pipe2(pfd, O_CLOEXEC));
	fd = uring_prog_fd(skel->progs.nothing);
	CHECK_EQ(uring_attach(&ring, &fd, 1), 0);

	sqe = uring_sqe(&ring);
	io_uring_prep_read(sqe, pfd[0], &byte, 1, 0);
	sqe->user_data = UD_READ;
	sqe->flags = IOSQE_IO_LINK;
	uring_prep_bpf(&ring, 0, UD_BPF);
	uring_submit(&ring, 2);
	expect_no_cqe(&ring);

	if (detach_first)
		CHECK_EQ(uring_detach(&ring), 0);
	CHECK_EQ(CHECK_SYS(write(pfd[1], "x", 1)), 1);
	uring_reap(&ring, cqes, 2);
	CHECK_CQE(&cqes[0], UD_READ, 1);
	CHECK_CQE(&cqes[1], UD_BPF, detach_first ? -EBADF : 0);
	CHECK_EQ(byte, 'x');
	CHECK_EQ(skel->bss->runs, detach_first ? 0 : 1);

	close(pfd[0]);
	close(pfd[1]);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

static void t_op_detached_before_run(void)
{
	linked_bpf_after_read(false); /* control: the link runs it */
	linked_bpf_after_read(true);
}

/* a program queues a NOP: the NOP's CQE and the BPF request's, both 0 */
static void t_queue_nop(void)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring_cqe cqes[2];
	struct io_uring ring;

	ring_with_prog(&ring, 8, 0, skel->progs.q_nop);
	skel->bss->nop_ud = UD_NOP;

	run_bpf_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_NOP, 0);
	EXPECT_CQE(cqes, 2, UD_BPF, 0);
	CHECK_EQ(skel->bss->runs, 1);
	CHECK_EQ(skel->bss->nr_rc, 1);
	CHECK_EQ(skel->bss->rc[0], 0);

	/* and again: the per-run state starts over */
	uring_prep_bpf(&ring, 0, UD_BPF2);
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_NOP, 0);
	EXPECT_CQE(cqes, 2, UD_BPF2, 0);
	CHECK_EQ(skel->bss->runs, 2);
	CHECK_EQ(skel->bss->rc[0], 0);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/* SQEs queued from a map value, prepared by user space with liburing */
static void t_queue_from_map(void)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring_cqe cqes[3];
	struct io_uring_sqe *s;
	struct io_uring ring;

	ring_with_prog(&ring, 8, 0, skel->progs.q_map);

	s = &skel->bss->map_sqes[0];
	io_uring_prep_nop(s);
	s->user_data = UD_NOP;
	/* the whole SQE is taken: a NOP that injects its len as result */
	s = &skel->bss->map_sqes[1];
	io_uring_prep_nop(s);
	s->nop_flags = IORING_NOP_INJECT_RESULT;
	s->len = 1234;
	s->user_data = UD_NOP + 1;
	skel->bss->map_nr = 2;

	run_bpf_reap(&ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_NOP, 0);
	EXPECT_CQE(cqes, 3, UD_NOP + 1, 1234);
	EXPECT_CQE(cqes, 3, UD_BPF, 0);
	/* submitted in order */
	CHECK(cqe_pos(cqes, 3, UD_NOP) < cqe_pos(cqes, 3, UD_NOP + 1));
	CHECK_EQ(skel->bss->nr_rc, 2);
	CHECK_EQ(skel->bss->rc[0], 0);
	CHECK_EQ(skel->bss->rc[1], 0);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

static const char write_data[] = "written by a BPF-queued SQE\n";
#define WRITE_LEN (sizeof(write_data) - 1)

static void set_write(struct seed_bpf *skel, int fd, const void *buf,
		      size_t len)
{
	skel->bss->wr_fd = fd;
	skel->bss->wr_buf = (__u64)(uintptr_t)buf;
	skel->bss->wr_len = (__u32)len;
	skel->bss->wr_off = 0;
	skel->bss->wr_ud = UD_WRITE;
	skel->bss->fsync_ud = UD_FSYNC;
}

/* a program queues a write to a file in /tmp */
static void t_queue_write(void)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring_cqe cqes[2];
	struct io_uring ring;
	int file;

	ring_with_prog(&ring, 8, 0, skel->progs.q_write);
	file = tmp_file();
	set_write(skel, file, write_data, WRITE_LEN);

	run_bpf_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_WRITE, (int)WRITE_LEN);
	EXPECT_CQE(cqes, 2, UD_BPF, 0);
	CHECK_EQ(skel->bss->rc[0], 0);
	check_file(file, write_data, WRITE_LEN);

	close(file);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/* a program queues write -> fsync (IOSQE_IO_LINK) */
static void t_queue_link_write_fsync(void)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring_cqe cqes[3];
	struct io_uring ring;
	int file;

	ring_with_prog(&ring, 8, 0, skel->progs.q_wr_fsync);
	file = tmp_file();
	set_write(skel, file, write_data, WRITE_LEN);

	run_bpf_reap(&ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_WRITE, (int)WRITE_LEN);
	EXPECT_CQE(cqes, 3, UD_FSYNC, 0);
	EXPECT_CQE(cqes, 3, UD_BPF, 0);
	CHECK(cqe_pos(cqes, 3, UD_WRITE) < cqe_pos(cqes, 3, UD_FSYNC));
	CHECK_EQ(skel->bss->nr_rc, 2);
	CHECK_EQ(skel->bss->rc[0], 0);
	CHECK_EQ(skel->bss->rc[1], 0);
	check_file(file, write_data, WRITE_LEN);

	/* the link is real: a failing write cancels the fsync */
	set_write(skel, uring_closed_fd(), write_data, WRITE_LEN);
	run_bpf_reap(&ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_WRITE, -EBADF);
	EXPECT_CQE(cqes, 3, UD_FSYNC, -ECANCELED);
	EXPECT_CQE(cqes, 3, UD_BPF, 0);
	CHECK(cqe_pos(cqes, 3, UD_WRITE) < cqe_pos(cqes, 3, UD_FSYNC));

	close(file);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/* q_len queues with len 32, 128, 64: only the ring's SQE size works */
static void queue_len(unsigned int setup_flags, const long want[3])
{
	struct seed_bpf *skel = skel_load();
	struct io_uring_cqe cqes[2];
	struct io_uring ring;

	ring_with_prog(&ring, 8, setup_flags, skel->progs.q_len);
	skel->bss->nop_ud = UD_NOP;

	run_bpf_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_NOP, 0);
	EXPECT_CQE(cqes, 2, UD_BPF, 0);
	CHECK_EQ(skel->bss->nr_rc, 3);
	CHECK_EQ(skel->bss->rc[0], want[0]);
	CHECK_EQ(skel->bss->rc[1], want[1]);
	CHECK_EQ(skel->bss->rc[2], want[2]);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

static void t_queue_bad_len(void)
{
	queue_len(0, (const long[3]){ -EINVAL, -EINVAL, 0 });
}

static void t_queue_bad_len_sqe128(void)
{
	queue_len(IORING_SETUP_SQE128, (const long[3]){ -EINVAL, 0, -EINVAL });
}

/* the 33rd queue_sqe of a run -> -EBUSY; the 32 before it are submitted */
static void t_queue_busy(void)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring_cqe cqes[MAX_QUEUED + 1];
	struct io_uring ring;
	unsigned int i;

	ring_with_prog(&ring, 64, 0, skel->progs.q_many);
	skel->bss->nop_ud = UD_NOP;

	run_bpf_reap(&ring, cqes, MAX_QUEUED + 1);
	for (i = 0; i < MAX_QUEUED; i++)
		EXPECT_CQE(cqes, MAX_QUEUED + 1, UD_NOP + i, 0);
	EXPECT_CQE(cqes, MAX_QUEUED + 1, UD_BPF, 0);
	/* in order */
	for (i = 1; i < MAX_QUEUED; i++)
		CHECK(cqe_pos(cqes, MAX_QUEUED + 1, UD_NOP + i - 1) <
		      cqe_pos(cqes, MAX_QUEUED + 1, UD_NOP + i));

	CHECK_EQ(skel->bss->nr_rc, NR_MANY);
	for (i = 0; i < MAX_QUEUED; i++)
		CHECK_EQ(skel->bss->rc[i], 0);
	CHECK_EQ(skel->bss->rc[MAX_QUEUED], -EBUSY);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/*
 * The SQEs of map_sqes[0..3] complete with the CQEs of @want when submitted
 * from @ring: by the q_map program (@ring has it attached) or, with
 * @from_user, by user space on an IORING_SETUP_SUBMIT_ALL ring.
 */
struct want_cqe {
	__u64 ud;
	int res;
};

static void prep_failing_sqes(struct io_uring_sqe sqes[4])
{
	memset(sqes, 0, 4 * sizeof(sqes[0]));
	/* an opcode the kernel does not know: fails at init */
	sqes[0].opcode = 0xff;
	sqes[0].user_data = UD_NOP;
	/* still submitted */
	sqes[1].opcode = IORING_OP_NOP;
	sqes[1].user_data = UD_NOP + 1;
	/* a link whose second member fails at init: its head is cancelled */
	sqes[2].opcode = IORING_OP_NOP;
	sqes[2].flags = IOSQE_IO_LINK;
	sqes[2].user_data = UD_NOP + 2;
	sqes[3].opcode = 0xff;
	sqes[3].user_data = UD_NOP + 3;
}

static const struct want_cqe failing_want[] = {
	{ UD_NOP, -EINVAL },
	{ UD_NOP + 1, 0 },
	{ UD_NOP + 2, -ECANCELED },
	{ UD_NOP + 3, -EINVAL },
};

/* an SQE that fails to submit gets its own CQE; the rest are submitted */
static void t_queue_failed_sqe(void)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring_sqe user_sqes[4];
	struct io_uring_cqe cqes[5];
	struct io_uring ring;
	unsigned int i;

	/* control: user space submitting the same SQEs (SUBMIT_ALL) */
	uring_init(&ring, 8, IORING_SETUP_SUBMIT_ALL);
	prep_failing_sqes(user_sqes);
	for (i = 0; i < 4; i++)
		*uring_sqe(&ring) = user_sqes[i];
	uring_submit(&ring, 4);
	uring_reap(&ring, cqes, 4);
	for (i = 0; i < 4; i++)
		EXPECT_CQE(cqes, 4, failing_want[i].ud, failing_want[i].res);
	io_uring_queue_exit(&ring);

	ring_with_prog(&ring, 8, 0, skel->progs.q_map);
	prep_failing_sqes(skel->bss->map_sqes);
	skel->bss->map_nr = 4;

	run_bpf_reap(&ring, cqes, 5);
	for (i = 0; i < 4; i++)
		EXPECT_CQE(cqes, 5, failing_want[i].ud, failing_want[i].res);
	EXPECT_CQE(cqes, 5, UD_BPF, 0);
	CHECK_EQ(skel->bss->nr_rc, 4);
	for (i = 0; i < 4; i++)
		CHECK_EQ(skel->bss->rc[i], 0);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/* a program queues an IORING_OP_BPF, whose program queues a NOP */
static void t_queue_chain(void)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring_cqe cqes[3];
	struct io_uring_sqe *s;
	struct io_uring ring;
	int fds[2];

	uring_init(&ring, 8, 0);
	fds[0] = uring_prog_fd(skel->progs.q_map);
	fds[1] = uring_prog_fd(skel->progs.q_nop);
	CHECK_EQ(uring_attach(&ring, fds, 2), 0);
	s = &skel->bss->map_sqes[0];
	memset(s, 0, sizeof(*s));
	s->opcode = IORING_OP_BPF;
	s->off = 1;
	s->user_data = UD_BPF2;
	skel->bss->map_nr = 1;
	skel->bss->nop_ud = UD_NOP;

	run_bpf_reap(&ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_BPF, 0);
	EXPECT_CQE(cqes, 3, UD_BPF2, 0);
	EXPECT_CQE(cqes, 3, UD_NOP, 0);
	CHECK_EQ(skel->bss->runs, 2);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/* queued SQEs may use the ring's personalities, checked as for user space */
static void t_queue_personality(void)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring_cqe cqes[3];
	struct io_uring_sqe *s;
	struct io_uring ring;
	int id;

	ring_with_prog(&ring, 8, 0, skel->progs.q_map);
	id = CHECK_RET(io_uring_register_personality(&ring));
	CHECK(id > 0);

	s = skel->bss->map_sqes;
	memset(s, 0, 2 * sizeof(*s));
	s[0].opcode = IORING_OP_NOP;
	s[0].personality = (__u16)id;
	s[0].user_data = UD_NOP;
	s[1].opcode = IORING_OP_NOP;
	s[1].personality = (__u16)(id + 1); /* not registered */
	s[1].user_data = UD_NOP + 1;
	skel->bss->map_nr = 2;

	run_bpf_reap(&ring, cqes, 3);
	EXPECT_CQE(cqes, 3, UD_NOP, 0);
	EXPECT_CQE(cqes, 3, UD_NOP + 1, -EINVAL);
	EXPECT_CQE(cqes, 3, UD_BPF, 0);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/*
 * A restricted ring (NOP and BPF SQEs; ATTACH_BPF and ENABLE_RINGS): the
 * WRITE a program queues is refused with -EACCES like one from user space,
 * and the file is untouched.
 */
static void t_restrictions(void)
{
	static const char orig[] = "original content\n";
	static const char evil[] = "EVIL";
	struct io_uring_restriction res[4];
	struct seed_bpf *skel = skel_load();
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	int fd, file;

	file = tmp_file();
	CHECK_EQ(CHECK_SYS(write(file, orig, sizeof(orig) - 1)),
		 sizeof(orig) - 1);

	uring_init(&ring, 8, IORING_SETUP_R_DISABLED);
	memset(res, 0, sizeof(res));
	res[0].opcode = IORING_RESTRICTION_SQE_OP;
	res[0].sqe_op = IORING_OP_NOP;
	res[1].opcode = IORING_RESTRICTION_SQE_OP;
	res[1].sqe_op = IORING_OP_BPF;
	res[2].opcode = IORING_RESTRICTION_REGISTER_OP;
	res[2].register_op = IORING_ATTACH_BPF;
	res[3].opcode = IORING_RESTRICTION_REGISTER_OP;
	res[3].register_op = IORING_REGISTER_ENABLE_RINGS;
	/*
	 * raw: Debian's liburing 2.3 declares io_uring_register_restrictions()
	 * and io_uring_enable_rings() but does not export them
	 */
	CHECK_EQ(uring_register(ring.ring_fd, IORING_REGISTER_RESTRICTIONS,
				res, 4), 0);
	CHECK_EQ(uring_register(ring.ring_fd, IORING_REGISTER_ENABLE_RINGS,
				NULL, 0), 0);

	/* register ops are restricted now: ATTACH allowed, DETACH not */
	fd = uring_prog_fd(skel->progs.q_write);
	CHECK_EQ(uring_attach(&ring, &fd, 1), 0);
	CHECK_EQ(uring_detach(&ring), -EACCES);

	/* control: user space may not write either */
	sqe = uring_sqe(&ring);
	io_uring_prep_write(sqe, file, evil, sizeof(evil) - 1, 0);
	sqe->user_data = UD_USER;
	uring_submit(&ring, 1);
	uring_reap(&ring, cqes, 1);
	CHECK_CQE(&cqes[0], UD_USER, -EACCES);

	set_write(skel, file, evil, sizeof(evil) - 1);
	run_bpf_reap(&ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_WRITE, -EACCES);
	EXPECT_CQE(cqes, 2, UD_BPF, 0);
	CHECK_EQ(skel->bss->runs, 1);
	CHECK_EQ(skel->bss->rc[0], 0);
	check_file(file, orig, sizeof(orig) - 1);

	close(file);
	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
}

/* without CAP_BPF and CAP_SYS_ADMIN an iouring program cannot be loaded */
static void t_unpriv_load(void)
{
	int old = allow_unpriv_bpf();
	pid_t pid = fork_child();
	int status;

	if (pid == 0) {
		int fd;

		/* control: privileged, it loads */
		close(load_raw_ok(BPF_PROG_TYPE_IOURING, "priv"));

		drop_bpf_caps();
		/* control: unprivileged BPF as such works */
		close(load_raw_ok(BPF_PROG_TYPE_SOCKET_FILTER, "unpriv_sf"));
		fd = load_raw(BPF_PROG_TYPE_IOURING, "unpriv");
		if (fd >= 0)
			FAIL("unprivileged load of an iouring program "
			     "succeeded (fd %d)", fd);
		CHECK_EQ(fd, -EPERM);
		exit(0);
	}
	status = reap_child(pid);
	restore_unpriv_bpf(old);
	check_child(status);
}

/*
 * without CAP_BPF and CAP_SYS_ADMIN a program loaded before dropping them
 * cannot be attached
 */
static void t_unpriv_attach(void)
{
	struct seed_bpf *skel = skel_load();
	pid_t pid = fork_child();

	if (pid == 0) {
		struct io_uring ring;
		int fd = uring_prog_fd(skel->progs.nothing);

		/* control: privileged, it attaches */
		uring_init(&ring, 8, 0);
		CHECK_EQ(uring_attach(&ring, &fd, 1), 0);
		io_uring_queue_exit(&ring);

		drop_bpf_caps();
		uring_init(&ring, 8, 0);
		CHECK_EQ(uring_attach(&ring, &fd, 1), -EPERM);
		CHECK_EQ(uring_detach(&ring), -ENXIO);
		CHECK_EQ(run_bpf(&ring, 0), -EBADF);
		io_uring_queue_exit(&ring);
		exit(0);
	}
	wait_child(pid);
	seed_bpf__destroy(skel);
}

/* ring closed with programs attached, then the program fd: prog freed */
static void t_release_ring_first(void)
{
	struct io_uring ring;
	int fd, fds[3];
	__u32 id;

	fd = load_raw_ok(BPF_PROG_TYPE_IOURING, "rel_ring");
	id = prog_id(fd);
	uring_init(&ring, 8, 0);
	fds[0] = fd;
	fds[1] = -1;
	fds[2] = fd;
	CHECK_EQ(uring_attach(&ring, fds, 3), 0);
	CHECK_EQ(run_bpf(&ring, 2), 0);
	io_uring_queue_exit(&ring);
	uring_sleep_ms(100);
	check_prog_alive(id); /* our fd */
	close(fd);
	wait_prog_gone(id);
}

/* program fd closed first: the ring's reference keeps it, until the ring goes */
static void t_release_prog_first(void)
{
	struct io_uring ring;
	int fd;
	__u32 id;

	fd = load_raw_ok(BPF_PROG_TYPE_IOURING, "rel_prog");
	id = prog_id(fd);
	uring_init(&ring, 8, 0);
	CHECK_EQ(uring_attach(&ring, &fd, 1), 0);
	close(fd);
	uring_sleep_ms(200);
	check_prog_alive(id); /* held by the ring */
	CHECK_EQ(run_bpf(&ring, 0), 0);
	io_uring_queue_exit(&ring);
	wait_prog_gone(id);
}

/* DETACH drops the references at once, with the ring still open */
static void t_release_detach(void)
{
	struct io_uring ring;
	int fd, fds[2];
	__u32 id;

	fd = load_raw_ok(BPF_PROG_TYPE_IOURING, "rel_detach");
	id = prog_id(fd);
	uring_init(&ring, 8, 0);
	fds[0] = fds[1] = fd;
	CHECK_EQ(uring_attach(&ring, fds, 2), 0);
	close(fd);
	check_prog_alive(id);
	CHECK_EQ(uring_detach(&ring), 0);
	wait_prog_gone(id);
	CHECK_EQ(run_bpf(&ring, 0), -EBADF);
	io_uring_queue_exit(&ring);
}

/* a failed attach keeps no reference */
static void t_release_failed_attach(void)
{
	struct io_uring ring;
	int fd, sf, fds[3];
	__u32 id;

	fd = load_raw_ok(BPF_PROG_TYPE_IOURING, "rel_failed");
	sf = load_raw_ok(BPF_PROG_TYPE_SOCKET_FILTER, "sockfilter");
	id = prog_id(fd);
	uring_init(&ring, 8, 0);
	fds[0] = fd;
	fds[1] = fd;
	fds[2] = sf;
	CHECK_EQ(uring_attach(&ring, fds, 3), -EINVAL);
	fds[2] = uring_closed_fd();
	CHECK_EQ(uring_attach(&ring, fds, 3), -EBADF);
	CHECK_EQ(uring_detach(&ring), -ENXIO);
	close(fd);
	wait_prog_gone(id); /* with the ring still open */
	close(sf);
	io_uring_queue_exit(&ring);
}

/*
 * The ring is closed while requests are pending: a BPF request linked
 * after a pipe read, and a pipe read queued by a program. Everything is
 * cancelled and freed, the program too.
 */
static void t_release_pending_request(void)
{
	struct seed_bpf *skel = skel_load();
	struct io_uring_cqe cqe;
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	char byte[2];
	int fd, pfd[2];
	__u32 id;

	CHECK_SYS(pipe2(pfd, O_CLOEXEC));
	uring_init(&ring, 8, 0);
	fd = uring_prog_fd(skel->progs.q_map);
	id = prog_id(fd);
	CHECK_EQ(uring_attach(&ring, &fd, 1), 0);
	io_uring_prep_read(&skel->bss->map_sqes[0], pfd[0], &byte[0], 1, 0);
	skel->bss->map_sqes[0].user_data = UD_READ;
	skel->bss->map_nr = 1;

	/* the program queues a read that stays pending */
	run_bpf_reap(&ring, &cqe, 1);
	CHECK_CQE(&cqe, UD_BPF, 0);
	CHECK_EQ(skel->bss->rc[0], 0);

	/* a BPF request waiting for a read */
	sqe = uring_sqe(&ring);
	io_uring_prep_read(sqe, pfd[0], &byte[1], 1, 0);
	sqe->user_data = UD_READ + 1;
	sqe->flags = IOSQE_IO_LINK;
	uring_prep_bpf(&ring, 0, UD_BPF2);
	uring_submit(&ring, 2);
	expect_no_cqe(&ring);

	io_uring_queue_exit(&ring);
	seed_bpf__destroy(skel);
	wait_prog_gone(id);
	close(pfd[0]);
	close(pfd[1]);
}

/* ================================================================ driver */

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
#define CASE(n) { #n, t_##n }
	CASE(probe),
	CASE(attach_nr_zero),
	CASE(attach_nr_too_big),
	CASE(attach_nr_max),
	CASE(attach_null_arg),
	CASE(attach_wrong_type),
	CASE(attach_not_bpf_fd),
	CASE(attach_bad_fd),
	CASE(attach_partial_failure),
	CASE(attach_busy),
	CASE(detach_args),
	CASE(detach_none),
	CASE(fdinfo),
	CASE(op_no_table),
	CASE(op_bad_index),
	CASE(op_hole),
	CASE(op_nonzero_fields),
	CASE(op_fixed_file),
	CASE(op_sqpoll),
	CASE(op_iopoll),
	CASE(op_personality),
	CASE(op_detached_before_run),
	CASE(queue_nop),
	CASE(queue_from_map),
	CASE(queue_write),
	CASE(queue_link_write_fsync),
	CASE(queue_bad_len),
	CASE(queue_bad_len_sqe128),
	CASE(queue_busy),
	CASE(queue_failed_sqe),
	CASE(queue_chain),
	CASE(queue_personality),
	CASE(restrictions),
	CASE(unpriv_load),
	CASE(unpriv_attach),
	CASE(release_ring_first),
	CASE(release_prog_first),
	CASE(release_detach),
	CASE(release_failed_attach),
	CASE(release_pending_request),
#undef CASE
};

/* the comma-separated @list names every case exactly once */
static int check_list(const char *list)
{
	bool seen[ARRAY_SIZE(cases)] = { false };
	char *copy = strdup(list), *save = NULL, *name;
	unsigned int i;
	int bad = 0;

	CHECK(copy != NULL);
	for (name = strtok_r(copy, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < ARRAY_SIZE(cases); i++)
			if (!strcmp(cases[i].name, name))
				break;
		if (i == ARRAY_SIZE(cases)) {
			fprintf(stderr, "seed_test: no case '%s'\n", name);
			bad = 1;
		} else if (seen[i]) {
			fprintf(stderr, "seed_test: '%s' listed twice\n", name);
			bad = 1;
		} else {
			seen[i] = true;
		}
	}
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (!seen[i]) {
			fprintf(stderr, "seed_test: case '%s' has no ctest "
				"test (SEED_CASES in CMakeLists.txt)\n",
				cases[i].name);
			bad = 1;
		}
	}
	free(copy);
	return bad;
}

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < ARRAY_SIZE(cases); i++)
			printf("%s\n", cases[i].name);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--check-list"))
		return check_list(argv[2]);
	if (argc != 2) {
		fprintf(stderr, "usage: seed_test <case> | --list | "
			"--check-list a,b,...\n");
		return 2;
	}
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (!strcmp(cases[i].name, argv[1])) {
			setvbuf(stdout, NULL, _IOLBF, 0);
			cases[i].fn();
			printf("%s: ok\n", cases[i].name);
			return 0;
		}
	}
	fprintf(stderr, "seed_test: no case '%s' (--list shows them)\n",
		argv[1]);
	return 2;
}
