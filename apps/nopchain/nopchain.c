// SPDX-License-Identifier: MIT
/*
 * nopchain: submit one chain of N NOPs hard-linked with IOSQE_IO_LINK and
 * check that all N complete, in order, with res == 0.
 *
 * Usage: nopchain [N]     (1 <= N <= 4096, default 16)
 *
 * The demo of scripts/run-main.sh until copychain (a BPF-driven chain)
 * replaces it. Exit status 0 and "demo: N NOPs completed, ok" on success.
 */
#include <linux/io_uring.h> /* before liburing.h: the patched uapi wins */
#include <liburing.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NOPS 4096

static int fail(const char *what, int err)
{
	fprintf(stderr, "nopchain: %s: %s\n", what, strerror(err));
	return 1;
}

int main(int argc, char **argv)
{
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	unsigned long n = 16;
	unsigned int i;
	char *end;
	int ret;

	if (argc > 2) {
		fprintf(stderr, "usage: nopchain [N]\n");
		return 2;
	}
	if (argc == 2) {
		errno = 0;
		n = strtoul(argv[1], &end, 10);
		if (errno || *end || end == argv[1] || n < 1 || n > MAX_NOPS) {
			fprintf(stderr, "nopchain: N must be 1..%d, not '%s'\n", MAX_NOPS, argv[1]);
			return 2;
		}
	}

	ret = io_uring_queue_init((unsigned int)n, &ring, 0);
	if (ret < 0)
		return fail("io_uring_queue_init", -ret);

	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		if (!sqe) {
			fprintf(stderr, "nopchain: no SQE for NOP %u of %lu\n", i + 1, n);
			return 1;
		}
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, i + 1);
		if (i + 1 < n)
			sqe->flags |= IOSQE_IO_LINK;
	}

	ret = io_uring_submit_and_wait(&ring, (unsigned int)n);
	if (ret < 0)
		return fail("io_uring_submit_and_wait", -ret);
	if ((unsigned long)ret != n) {
		fprintf(stderr, "nopchain: submitted %d of %lu SQEs\n", ret, n);
		return 1;
	}

	/* a link completes in order */
	for (i = 0; i < n; i++) {
		ret = io_uring_wait_cqe(&ring, &cqe);
		if (ret < 0)
			return fail("io_uring_wait_cqe", -ret);
		if (cqe->user_data != i + 1 || cqe->res != 0) {
			fprintf(stderr,
				"nopchain: CQE %u: user_data=%" PRIu64 " res=%d (%s), want user_data=%u res=0\n",
				i + 1, (uint64_t)cqe->user_data, cqe->res,
				cqe->res < 0 ? strerror(-cqe->res) : "ok", i + 1);
			return 1;
		}
		io_uring_cqe_seen(&ring, cqe);
	}
	if (io_uring_peek_cqe(&ring, &cqe) != -EAGAIN) {
		fprintf(stderr, "nopchain: more than %lu CQEs\n", n);
		return 1;
	}

	io_uring_queue_exit(&ring);
	printf("demo: %lu NOPs completed, ok\n", n);
	return 0;
}
