// SPDX-License-Identifier: MIT
/*
 * bpf_io_coro_buf() (kernel patch 0012): a step that is not sleepable
 * reads the bytes a READ_FIXED put into a registered buffer, without a
 * copy; views the kernel cannot give (across a page, past the end, no
 * such buffer) are NULL.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coro_ops.h"

/* a file of 256 bytes i * 7 + 3, open for reading */
static int pattern_file(void)
{
	char path[] = "/tmp/coro_ops_bufXXXXXX";
	unsigned char data[256];
	unsigned int i;
	int fd;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 7 + 3);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	unlink(path);
	CHECK_EQ(write(fd, data, sizeof(data)), (long)sizeof(data));
	return fd;
}

IOCORO_CASE(buf_peek)
{
	struct io_uring_cqe cqes[2];
	struct coro_ops_bpf *skel;
	struct iovec iov;
	struct iocoro co;
	unsigned int i;
	void *mem;
	int fd;

	skel = co_up(&co);
	co_attach(&co, skel->progs.fixed_start, K_FIXED_START);
	co_attach(&co, skel->progs.peek_step, K_PEEK);
	CHECK_EQ(posix_memalign(&mem, 4096, 2 * 4096), 0);
	memset(mem, 0, 2 * 4096);
	iov.iov_base = mem;
	iov.iov_len = 2 * 4096;
	CHECK_RET(io_uring_register_buffers(&co.ring, &iov, 1));
	fd = pattern_file();

	/* 200 bytes read to offset 100 of the buffer; peek at 116..131 */
	skel->bss->read_fd = fd;
	skel->bss->read_buf = (__u64)(uintptr_t)mem;
	skel->bss->fixed_off = 100;
	skel->bss->fixed_len = 200;
	skel->bss->peek_index = 0;
	skel->bss->peek_off = 116;
	co_start(&co, K_FIXED_START, UD_START);
	uring_reap(&co.ring, cqes, 2);
	EXPECT_CQE(cqes, 2, UD_START, 0);
	EXPECT_CQE(cqes, 2, UD_READ, 200);
	CHECK_EQ(skel->bss->seen.res, 200);
	CHECK_EQ(skel->bss->peek_null, 0);
	for (i = 0; i < 16; i++)
		CHECK_EQ(skel->bss->peek[i], (unsigned char)((16 + i) * 7 + 3));
	CHECK_EQ(skel->bss->peek_refused, 3);

	/* the last 16 bytes of the buffer are a view; 8 more are not */
	skel->bss->peek_off = 2 * 4096 - 16;
	co_start(&co, K_FIXED_START, UD_START);
	uring_reap(&co.ring, cqes, 2);
	CHECK_EQ(skel->bss->peek_null, 0);
	skel->bss->peek_off = 2 * 4096 - 8;
	co_start(&co, K_FIXED_START, UD_START);
	uring_reap(&co.ring, cqes, 2);
	CHECK_EQ(skel->bss->peek_null, 1);

	close(fd);
	iocoro_queue_exit(&co);
	free(mem);
	coro_ops_bpf__destroy(skel);
}
