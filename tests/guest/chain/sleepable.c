// SPDX-License-Identifier: MIT
/* A read, then a sleepable step linked after it that checks what was read */
#include "chain.h"
#include "sleepable.skel.h"

/* the kind of sleepable.bpf.c's one step */
enum { K_READ_CHECK };

/* where the reads read to, read_check's rc_buf */
static char rc_buf[64];

/* what the cases run on: rc_setup() */
struct rc_case {
	struct iocoro co;
	struct sleepable_bpf *skel;
};

/*
 * A ring of 8 entries with sleepable.bpf.c's read_check, sleepable:
 * iocoro_skel_load() gives the steps of IOCORO_SEC_SLEEPABLE
 * BPF_F_SLEEPABLE before the load (read_check calls
 * bpf_copy_from_user(), which only sleepable steps may), reading to rc_buf
 */
static void rc_setup(struct rc_case *c)
{
	struct sleepable_bpf *skel;

	chain_ring(&c->co, 8);
	skel = SKEL_OPEN(sleepable_bpf);
	CHECK_EQ(CHECK_RET(iocoro_skel_load(&c->co, skel->skeleton, NULL)), 1);
	CHECK(bpf_program__flags(skel->progs.read_check) & BPF_F_SLEEPABLE);
	CHECK_EQ(iocoro_prog_index(skel->obj, skel->progs.read_check),
		 K_READ_CHECK);
	skel->bss->rc_buf = (uintptr_t)rc_buf;
	c->skel = skel;
}

static void rc_teardown(struct rc_case *c)
{
	iocoro_queue_exit(&c->co);
	sleepable_bpf__destroy(c->skel);
}

static void set_want(struct sleepable_bpf *skel, const char *data)
{
	CHECK_EQ(strlen(data), RC_LEN);
	memcpy(skel->bss->rc_want, data, RC_LEN);
	memset(skel->bss->rc_got, 0, RC_LEN);
	skel->bss->rc_seen.runs = 0;
	skel->bss->rc_copy_rc = 1;
}

/* what read_check recorded of its one run after the read */
static void check_read_seen(struct sleepable_bpf *skel, const char *data)
{
	CHECK_EQ(skel->bss->rc_seen.runs, 1);
	CHECK_EQ_U64(skel->bss->rc_seen.ud, UD_BPF);
	CHECK_EQ(skel->bss->rc_seen.has_res, 1);
	CHECK_EQ(skel->bss->rc_seen.res, RC_LEN);
	CHECK_EQ(skel->bss->rc_seen.cqe_flags, 0);
	CHECK_EQ_U64(skel->bss->rc_seen.res_ud, UD_READ);
	CHECK_EQ(skel->bss->rc_copy_rc, 0);
	if (memcmp(skel->bss->rc_got, data, RC_LEN))
		FAIL("the step copied '%.*s', want '%s'", RC_LEN,
		     skel->bss->rc_got, data);
}

/* READ (HARDLINK, @read_flags) of @fd into rc_buf -> a start of read_check */
static void submit_read_check(struct rc_case *c, int fd,
			      unsigned int read_flags)
{
	struct io_uring *ring = &c->co.ring;
	struct io_uring_sqe *sqe = uring_sqe(ring);

	io_uring_prep_read(sqe, fd, rc_buf, sizeof(rc_buf), 0);
	sqe->flags = IOSQE_IO_HARDLINK | read_flags;
	sqe->user_data = UD_READ;
	uring_prep_start(ring, K_READ_CHECK, UD_BPF);
	uring_submit(ring, 2);
}

/*
 * The READ and read_check's CQEs reaped: all RC_LEN bytes read, and
 * @bpf_res the step's verdict; read_check saw @data
 */
static void reap_read_check(struct rc_case *c, const char *data, int bpf_res)
{
	struct io_uring_cqe cqes[2];

	uring_reap(&c->co.ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_READ, RC_LEN);
	EXPECT_CQE(cqes, 2, UD_BPF, bpf_res);
	check_read_seen(c->skel, data);
}

/*
 * A file of @data read (@read_flags) into rc_buf, cleared first, and
 * checked by read_check wanting @want: its verdict @bpf_res
 */
static void file_read_check(struct rc_case *c, const char *data,
			    const char *want, unsigned int read_flags,
			    int bpf_res)
{
	int fd = tmp_file_with(data, RC_LEN);

	set_want(c->skel, want);
	memset(rc_buf, 0, sizeof(rc_buf));
	submit_read_check(c, fd, read_flags);
	reap_read_check(c, data, bpf_res);
	close(fd);
}

/*
 * A read from a file, then the sleepable step: it sees res == the bytes
 * read and the data, through bpf_copy_from_user(). Inline, from io-wq
 * (IOSQE_ASYNC), and with data that does not match (the step's verdict
 * reaches the CQE).
 */
IOCORO_CASE(read_sleepable)
{
	static const char d1[] = "read inline, then checked by BPF";
	static const char d2[] = "read by io-wq, checked in the tw";
	static const char d3[] = "this is not what the program wan";
	struct rc_case c;

	rc_setup(&c);
	/* inline */
	file_read_check(&c, d1, d1, 0, RC_LEN);

	/* the read forced to io-wq */
	file_read_check(&c, d2, d2, IOSQE_ASYNC, RC_LEN);

	/* the step finds other data than it wants: its error is the res */
	file_read_check(&c, d3, d1, 0, -EBADMSG);

	rc_teardown(&c);
}

/*
 * A read of an empty pipe (it waits in poll), data written afterwards by
 * user space: the step runs when the read completes and sees the data.
 */
IOCORO_CASE(read_pipe)
{
	static const char d[] = "written later, read through poll";
	struct io_uring_cqe *cqe;
	struct rc_case c;
	int p[2];

	rc_setup(&c);
	CHECK_SYS(pipe2(p, O_CLOEXEC));
	set_want(c.skel, d);
	submit_read_check(&c, p[0], 0);

	/* nothing happens before the data is there */
	CHECK_EQ(uring_wait_cqe_ms(&c.co.ring, &cqe, URING_NO_CQE_MS), -ETIME);
	CHECK_EQ(c.skel->bss->rc_seen.runs, 0);

	CHECK_EQ(CHECK_SYS(write(p[1], d, RC_LEN)), RC_LEN);
	reap_read_check(&c, d, RC_LEN);

	close(p[0]);
	close(p[1]);
	rc_teardown(&c);
}

/*
 * bpf_copy_from_user() in the sleepable step from memory never touched
 * (it must fault it in: zeros) and from an unmapped page (-EFAULT, the
 * destination zeroed), next to the checked read.
 */
IOCORO_CASE(copy_fault)
{
	static const char d[] = "a good read next to a fault test";
	long page = sysconf(_SC_PAGESIZE);
	struct rc_case c;
	char *fresh, *gone;
	unsigned int i;

	rc_setup(&c);
	fresh = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(fresh != MAP_FAILED);
	gone = mmap(NULL, (size_t)page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	CHECK(gone != MAP_FAILED);
	CHECK_SYS(munmap(gone, (size_t)page));

	c.skel->bss->rc_fault_addr = (uintptr_t)fresh + 100;
	c.skel->bss->rc_bad_addr = (uintptr_t)gone;
	memset(c.skel->bss->rc_fault_got, 0x5a, RC_LEN);
	memset(c.skel->bss->rc_bad_got, 0x5a, RC_LEN);
	c.skel->bss->rc_fault_rc = c.skel->bss->rc_bad_rc = 1;

	file_read_check(&c, d, d, 0, RC_LEN);

	CHECK_EQ(c.skel->bss->rc_fault_rc, 0);
	CHECK_EQ(c.skel->bss->rc_bad_rc, -EFAULT);
	for (i = 0; i < RC_LEN; i++) {
		CHECK_EQ(c.skel->bss->rc_fault_got[i], 0);
		CHECK_EQ(c.skel->bss->rc_bad_got[i], 0);
	}

	munmap(fresh, (size_t)page);
	rc_teardown(&c);
}
