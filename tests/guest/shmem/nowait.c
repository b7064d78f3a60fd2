// SPDX-License-Identifier: MIT
/*
 * tmpfs, memfd and IOCB_NOWAIT (kernel patch 15): a tmpfs file opened
 * with open() and a memfd have FMODE_NOWAIT; their reads and writes
 * honour IOCB_NOWAIT, with -EAGAIN only where they would wait. Each case
 * on its own tmpfs mount:
 *
 *   cached       RWF_NOWAIT reads the cached pages whole (stock 6.12:
 *                -EOPNOTSUPP)
 *   holes        a hole and a fallocated range read as zeroes, no -EAGAIN
 *   swapped      a page out on swap: -EAGAIN, or the pages before it, for
 *                reads and writes, and a write changes nothing it did not
 *                report; a blocking read brings it back, then RWF_NOWAIT
 *                reads all; an io_uring read of swapped pages is right
 *   write        RWF_NOWAIT writes into cached pages, in place and within
 *                the last page past the end; at a hole, a fallocated page
 *                or the page after the last it stops (short write) or gets
 *                -EAGAIN, and writes nothing there
 *   locked_read  RWF_NOWAIT reads beside a task doing blocking reads of
 *                the same page (which lock its folio in the lookup): never
 *                -EAGAIN
 *   memfd        a memfd reads and writes its cached pages with RWF_NOWAIT
 *                (stock: -EOPNOTSUPP); F_SEAL_WRITE still refuses (-EPERM)
 *   uring_inline io_uring reads and overwrites of cached pages complete
 *                without an io-wq worker; a write that needs new pages
 *                goes to io-wq and writes everything
 */
#define _GNU_SOURCE
#include <liburing.h>

#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/uio.h>
#include <unistd.h>

#include "case.h"
#include "check.h"
#include "uring_bpf.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define PG 4096U
#define NPG 16U
#define FSIZE (NPG * PG)

static char mnt[] = "/tmp/iocoro-shmem-XXXXXX";
static char path[64];

static void tmpfs_down(void)
{
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);
}

/* a tmpfs of its own for each case, gone at exit, failed or not */
static void tmpfs_up(void)
{
	CHECK(mkdtemp(mnt) != NULL);
	CHECK_SYS(mount("tmpfs", mnt, "tmpfs", 0, "size=64m"));
	atexit(tmpfs_down);
	snprintf(path, sizeof(path), "%s/f", mnt);
}

static unsigned char pat(size_t i)
{
	return (unsigned char)(i * 7 + i / PG + 1);
}

static int make_file(size_t size)
{
	unsigned char *b = malloc(size);
	int fd;

	CHECK(b != NULL);
	for (size_t i = 0; i < size; i++)
		b[i] = pat(i);
	fd = CHECK_SYS(open(path, O_RDWR | O_CREAT | O_TRUNC, 0600));
	CHECK_EQ(pwrite(fd, b, size, 0), (ssize_t)size);
	free(b);
	return fd;
}

static void check_pat(const unsigned char *b, size_t off, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (b[i] != pat(off + i))
			FAIL("byte %zu: %#x, expected %#x", off + i, b[i],
			     pat(off + i));
}

static ssize_t read_nowait(int fd, void *buf, size_t len, off_t off)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	ssize_t ret = preadv2(fd, &iov, 1, off, RWF_NOWAIT);

	return ret < 0 ? -errno : ret;
}

static ssize_t write_nowait(int fd, const void *buf, size_t len, off_t off)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	ssize_t ret = pwritev2(fd, &iov, 1, off, RWF_NOWAIT);

	return ret < 0 ? -errno : ret;
}

/*
 * all FSIZE bytes of @fd (@what, for the message) read RWF_NOWAIT into
 * @buf, the pattern; -EOPNOTSUPP means the kernel lacks FMODE_NOWAIT
 */
static void read_whole_nowait(int fd, unsigned char *buf, const char *what)
{
	ssize_t ret = read_nowait(fd, buf, FSIZE, 0);

	if (ret == -EOPNOTSUPP)
		FAIL("RWF_NOWAIT read of %s: -EOPNOTSUPP (no FMODE_NOWAIT: "
		     "kernel patch 15 missing)", what);
	CHECK_EQ(ret, (ssize_t)FSIZE);
	check_pat(buf, 0, FSIZE);
}

/* @len bytes at @off of @fd are @c */
static void check_fill(int fd, off_t off, size_t len, unsigned char c)
{
	unsigned char b[PG];

	for (size_t done = 0; done < len; done += PG) {
		size_t n = len - done < PG ? len - done : PG;

		CHECK_EQ(pread(fd, b, n, off + done), (ssize_t)n);
		for (size_t i = 0; i < n; i++)
			if (b[i] != c)
				FAIL("byte %zu: %#x, expected %#x",
				     (size_t)off + done + i, b[i], c);
	}
}

/* io-wq workers of this process: threads named iou-wrk-<tid> */
static int iowq_workers(void)
{
	char p[300], comm[32];
	struct dirent *d;
	DIR *dir = opendir("/proc/self/task");
	int n = 0;

	CHECK(dir != NULL);
	while ((d = readdir(dir))) {
		FILE *f;

		if (d->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/proc/self/task/%s/comm", d->d_name);
		f = fopen(p, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) &&
		    !strncmp(comm, "iou-wrk-", 8))
			n++;
		fclose(f);
	}
	closedir(dir);
	return n;
}

/* one io_uring read (or write) of the whole file at 0, done in full */
static void uring_whole(struct io_uring *ring, int write, int fd, void *buf)
{
	struct io_uring_cqe *cqe;

	if (write)
		io_uring_prep_write(uring_sqe(ring), fd, buf, FSIZE, 0);
	else
		io_uring_prep_read(uring_sqe(ring), fd, buf, FSIZE, 0);
	uring_submit(ring, 1);
	CHECK_RET(io_uring_wait_cqe(ring, &cqe));
	CHECK_EQ(cqe->res, (int)FSIZE);
	io_uring_cqe_seen(ring, cqe);
}

IOCORO_CASE(cached)
{
	unsigned char buf[FSIZE];
	ssize_t ret;
	int fd;

	tmpfs_up();
	fd = make_file(FSIZE);
	read_whole_nowait(fd, buf, "tmpfs");
	/* from the middle of a page, across pages, to past the end */
	ret = read_nowait(fd, buf, FSIZE, PG + 100);
	CHECK_EQ(ret, (ssize_t)(FSIZE - PG - 100));
	check_pat(buf, PG + 100, FSIZE - PG - 100);
	CHECK_EQ(read_nowait(fd, buf, PG, FSIZE), 0);
	close(fd);
}

IOCORO_CASE(holes)
{
	unsigned char buf[FSIZE], one[PG];
	int fd;

	tmpfs_up();
	fd = CHECK_SYS(open(path, O_RDWR | O_CREAT | O_TRUNC, 0600));
	/* page 3 written; 8..11 fallocated, never written; the rest holes */
	memset(one, 0xa5, PG);
	CHECK_EQ(pwrite(fd, one, PG, 3 * PG), (ssize_t)PG);
	CHECK_SYS(fallocate(fd, 0, 8 * PG, 4 * PG));
	CHECK_SYS(ftruncate(fd, FSIZE));

	memset(buf, 0x11, sizeof(buf));
	CHECK_EQ(read_nowait(fd, buf, FSIZE, 0), (ssize_t)FSIZE);
	for (size_t i = 0; i < FSIZE; i++) {
		unsigned char want = i / PG == 3 ? 0xa5 : 0;

		if (buf[i] != want)
			FAIL("byte %zu (page %zu): %#x, expected %#x", i,
			     i / PG, buf[i], want);
	}
	close(fd);
}

/* swap on a memory-backed null_blk made through configfs */
#define NB_DIR "/sys/kernel/config/nullb/iocoro-swap"
static char swapdev[32];

static int nb_attr(const char *name, const char *val)
{
	char p[128];
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), NB_DIR "/%s", name);
	fd = open(p, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -EIO;
}

/* at exit, failed or not: no CHECK here */
static void swap_down(void)
{
	if (swapdev[0] && swapoff(swapdev))
		fprintf(stderr, "swapoff %s: %s\n", swapdev, strerror(errno));
	nb_attr("power", "0");
	rmdir(NB_DIR);
}

static void swap_up(void)
{
	unsigned char *hdr;
	int fd;

	if (access("/sys/kernel/config/nullb", F_OK))
		mount("configfs", "/sys/kernel/config", "configfs", 0, NULL);
	CHECK_SYS(mkdir(NB_DIR, 0755));
	atexit(swap_down);
	CHECK_EQ(nb_attr("size", "32"), 0);
	CHECK_EQ(nb_attr("memory_backed", "1"), 0);
	CHECK_EQ(nb_attr("power", "1"), 0);
	/* 6.12 names a configfs null_blk after its directory */
	snprintf(swapdev, sizeof(swapdev), "/dev/iocoro-swap");

	/* mkswap: version 1, last page, "SWAPSPACE2" at the page's end */
	hdr = calloc(1, PG);
	CHECK(hdr != NULL);
	*(unsigned int *)(hdr + 1024) = 1;
	*(unsigned int *)(hdr + 1028) = (32U << 20) / PG - 1;
	memcpy(hdr + PG - 10, "SWAPSPACE2", 10);
	fd = CHECK_SYS(open(swapdev, O_WRONLY));
	CHECK_EQ(pwrite(fd, hdr, PG, 0), (ssize_t)PG);
	CHECK_SYS(fsync(fd));
	close(fd);
	free(hdr);
	CHECK_SYS(swapon(swapdev, 0));
}

/*
 * The file's pages mapped, touched and paged out to swap. Whether they
 * went is seen by the reads that follow: swap usage is no witness, as
 * swap slots are taken and given back in per-CPU batches.
 */
static void page_out(int fd)
{
	volatile unsigned char sum = 0;
	unsigned char *m;

	m = mmap(NULL, FSIZE, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(m != MAP_FAILED);
	for (size_t i = 0; i < FSIZE; i += PG)
		sum += m[i];
	CHECK_SYS(madvise(m, FSIZE, MADV_PAGEOUT));
	munmap(m, FSIZE);
}

IOCORO_CASE_OPTS(swapped, .serial = true, .timeout = 120)
{
	static unsigned char buf[FSIZE], w[FSIZE];
	struct io_uring ring;
	cpu_set_t cpus;
	ssize_t ret, wret;
	int fd;

	/* one CPU: MADV_PAGEOUT drains only its own CPU's LRU batch, and a
	 * folio still in another CPU's batch cannot be isolated */
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	CHECK_SYS(sched_setaffinity(0, sizeof(cpus), &cpus));
	tmpfs_up();
	swap_up();
	fd = make_file(FSIZE);
	page_out(fd);

	/* nothing, or the pages before the first one on swap; never more */
	ret = read_nowait(fd, buf, FSIZE, 0);
	printf("swapped: RWF_NOWAIT read of a paged-out file: %zd\n", ret);
	if (ret != -EAGAIN && (ret < 0 || ret >= (ssize_t)FSIZE))
		FAIL("RWF_NOWAIT read of paged-out pages returned %zd (%s)",
		     ret, ret == (ssize_t)FSIZE ? "none went to swap, or "
		     "the read swapped them in" : strerror((int)-ret));
	if (ret > 0)
		check_pat(buf, 0, ret);
	/* a write stops at the same page: it would swap it in */
	memset(w, 0x5a, FSIZE);
	wret = write_nowait(fd, w, FSIZE, 0);
	printf("swapped: RWF_NOWAIT write of a paged-out file: %zd\n", wret);
	if (wret != -EAGAIN && (wret < 0 || wret >= (ssize_t)FSIZE))
		FAIL("RWF_NOWAIT write of paged-out pages returned %zd (%s)",
		     wret, wret < 0 ? strerror((int)-wret) : "all of it");
	if (wret < 0)
		wret = 0;
	/* a blocking read swaps them in; what the write reported, no more */
	CHECK_EQ(pread(fd, buf, FSIZE, 0), (ssize_t)FSIZE);
	for (size_t i = 0; i < (size_t)wret; i++)
		if (buf[i] != 0x5a)
			FAIL("byte %zu: %#x, written as 0x5a", i, buf[i]);
	check_pat(buf + wret, wret, FSIZE - wret);
	for (size_t i = 0; i < FSIZE; i++)
		buf[i] = pat(i);
	CHECK_EQ(pwrite(fd, buf, FSIZE, 0), (ssize_t)FSIZE);
	memset(buf, 0, sizeof(buf));
	CHECK_EQ(read_nowait(fd, buf, FSIZE, 0), (ssize_t)FSIZE);
	check_pat(buf, 0, FSIZE);

	/* io_uring: -EAGAIN inline, the read finished by io-wq */
	page_out(fd);
	memset(buf, 0, sizeof(buf));
	uring_init(&ring, 4, 0);
	uring_whole(&ring, 0, fd, buf);
	check_pat(buf, 0, FSIZE);
	if (!iowq_workers())
		FAIL("the read of paged-out pages completed inline: either "
		     "none went to swap or the read blocked in the submitter");
	io_uring_queue_exit(&ring);
	close(fd);
}

IOCORO_CASE(write)
{
	unsigned char w[3 * PG];
	struct stat st;
	ssize_t ret;
	int fd;

	tmpfs_up();
	fd = make_file(FSIZE);
	memset(w, 0x5a, sizeof(w));

	/* in place, into a cached page */
	ret = write_nowait(fd, w, PG, PG);
	if (ret == -EOPNOTSUPP)
		FAIL("RWF_NOWAIT write of tmpfs: -EOPNOTSUPP (no FMODE_NOWAIT: "
		     "kernel patch 15 missing)");
	CHECK_EQ(ret, (ssize_t)PG);
	check_fill(fd, PG, PG, 0x5a);

	/* past the end, within the last page: no new page, the size grows */
	CHECK_SYS(ftruncate(fd, FSIZE - 100));
	CHECK_EQ(write_nowait(fd, w, 100, FSIZE - 100), 100);
	CHECK_SYS(fstat(fd, &st));
	CHECK_EQ(st.st_size, (off_t)FSIZE);
	check_fill(fd, FSIZE - 100, 100, 0x5a);

	/* the page after the last would be allocated */
	CHECK_EQ(write_nowait(fd, w, PG, FSIZE), -EAGAIN);
	CHECK_SYS(fstat(fd, &st));
	CHECK_EQ(st.st_size, (off_t)FSIZE);

	/* pages 3 and 4 cached, 5 a hole: a short write, the hole kept */
	CHECK_SYS(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			    5 * PG, PG));
	CHECK_EQ(write_nowait(fd, w, 3 * PG, 3 * PG), (ssize_t)(2 * PG));
	check_fill(fd, 3 * PG, 2 * PG, 0x5a);
	check_fill(fd, 5 * PG, PG, 0);
	CHECK_EQ(write_nowait(fd, w, PG, 5 * PG), -EAGAIN);

	/* a fallocated page, not written yet: not uptodate */
	CHECK_SYS(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			    7 * PG, PG));
	CHECK_SYS(fallocate(fd, FALLOC_FL_KEEP_SIZE, 7 * PG, PG));
	CHECK_EQ(write_nowait(fd, w, PG, 7 * PG), -EAGAIN);
	check_fill(fd, 7 * PG, PG, 0);

	/* without the flag, both get written */
	CHECK_EQ(pwrite(fd, w, PG, 5 * PG), (ssize_t)PG);
	CHECK_EQ(pwrite(fd, w, PG, 7 * PG), (ssize_t)PG);
	check_fill(fd, 5 * PG, PG, 0x5a);
	check_fill(fd, 7 * PG, PG, 0x5a);
	close(fd);
}

#define LOCKED_READS 20000

struct reader {
	int fd;
	volatile int stop;
};

/* blocking reads of page 0: each locks its folio in SGP_READ's lookup */
static void *blocking_reader(void *arg)
{
	struct reader *r = arg;
	unsigned char b[64];

	while (!r->stop)
		if (pread(r->fd, b, sizeof(b), 0) != sizeof(b))
			return (void *)1;
	return NULL;
}

IOCORO_CASE(locked_read)
{
	struct reader r = { 0 };
	unsigned char b[64];
	unsigned int again = 0, i;
	pthread_t t;
	void *bad;

	tmpfs_up();
	r.fd = make_file(FSIZE);
	CHECK_EQ(pthread_create(&t, NULL, blocking_reader, &r), 0);
	for (i = 0; i < LOCKED_READS; i++) {
		ssize_t ret = read_nowait(r.fd, b, sizeof(b), 0);

		if (ret == -EAGAIN)
			again++;
		else
			CHECK_EQ(ret, (ssize_t)sizeof(b));
	}
	r.stop = 1;
	CHECK_EQ(pthread_join(t, &bad), 0);
	CHECK(bad == NULL);
	printf("locked_read: %u of %u RWF_NOWAIT reads got -EAGAIN\n", again,
	       LOCKED_READS);
	CHECK_EQ(again, 0);
	close(r.fd);
}

IOCORO_CASE(memfd)
{
	unsigned char buf[FSIZE], w[PG];
	int fd;

	fd = CHECK_SYS(memfd_create("iocoro-nowait", MFD_ALLOW_SEALING));
	for (size_t i = 0; i < FSIZE; i++)
		buf[i] = pat(i);
	CHECK_EQ(pwrite(fd, buf, FSIZE, 0), (ssize_t)FSIZE);
	memset(buf, 0, sizeof(buf));
	read_whole_nowait(fd, buf, "a memfd");

	memset(w, 0x5a, PG);
	CHECK_EQ(write_nowait(fd, w, PG, 2 * PG), (ssize_t)PG);
	check_fill(fd, 2 * PG, PG, 0x5a);
	CHECK_EQ(write_nowait(fd, w, PG, FSIZE), -EAGAIN);

	/* the seals hold for RWF_NOWAIT writes too */
	CHECK_SYS(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE));
	CHECK_EQ(write_nowait(fd, w, PG, 0), -EPERM);
	CHECK_EQ(read_nowait(fd, buf, PG, 0), (ssize_t)PG);
	check_pat(buf, 0, PG);
	close(fd);
}

IOCORO_CASE(uring_inline)
{
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	unsigned char *buf;
	int fd;

	tmpfs_up();
	fd = make_file(FSIZE);
	buf = aligned_alloc(PG, FSIZE);
	CHECK(buf != NULL);
	uring_init(&ring, 8, 0);
	CHECK_EQ(iowq_workers(), 0);
	for (int i = 0; i < 4; i++) {
		memset(buf, 0, FSIZE);
		uring_whole(&ring, 0, fd, buf);
		check_pat(buf, 0, FSIZE);
	}
	/* an overwrite of the cached pages */
	memset(buf, 0xc3, FSIZE);
	uring_whole(&ring, 1, fd, buf);
	check_fill(fd, 0, FSIZE, 0xc3);
	if (iowq_workers())
		FAIL("%d io-wq workers after reads and an overwrite of cached "
		     "tmpfs pages: they were punted, not done inline",
		     iowq_workers());

	/* new pages: -EAGAIN inline, written by io-wq */
	memset(buf, 0x3c, FSIZE);
	io_uring_prep_write(uring_sqe(&ring), fd, buf, FSIZE, FSIZE);
	uring_submit(&ring, 1);
	CHECK_RET(io_uring_wait_cqe(&ring, &cqe));
	CHECK_EQ(cqe->res, (int)FSIZE);
	io_uring_cqe_seen(&ring, cqe);
	check_fill(fd, FSIZE, FSIZE, 0x3c);
	if (!iowq_workers())
		FAIL("the write of new tmpfs pages completed inline: it "
		     "allocated in the submitter");
	io_uring_queue_exit(&ring);
	close(fd);
	free(buf);
}
