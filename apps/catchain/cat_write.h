/* SPDX-License-Identifier: MIT */
/*
 * cat_write_all(): how catchain writes its output, shared with its
 * benchmark peer bench/copy/uring_cat.c so that both write alike.
 */
#ifndef CAT_WRITE_H
#define CAT_WRITE_H

#include <errno.h>
#include <limits.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

/* write all of @iov to stdout (writev(), IOV_MAX at a time); 0 or -errno */
static inline int cat_write_all(struct iovec *iov, int n)
{
	ssize_t done;

	while (n > 0) {
		done = writev(STDOUT_FILENO, iov, n > IOV_MAX ? IOV_MAX : n);
		if (done < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		while (n > 0 && (size_t)done >= iov->iov_len) {
			done -= (ssize_t)iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + done;
			iov->iov_len -= (size_t)done;
		}
	}
	return 0;
}

#endif /* CAT_WRITE_H */
