// SPDX-License-Identifier: MIT
/*
 * copychain SRC DST [--chunk BYTES]: copy a file with one in-kernel
 * coroutine (copychain.bpf.c). User space opens SRC, creates DST.XXXXXX
 * next to DST with SRC's mode, and submits once; the coroutine reads a
 * chunk, writes what it read, reads the next one, ... and fsyncs at the
 * end of file, all in the kernel. Only when it ended well does the
 * temporary file become DST (rename(): DST is never half written); on any
 * failure it is removed.
 *
 * Exit status: 0 copied; 1 the copy failed (nothing created, DST as it
 * was); 2 bad usage.
 */
#include <iocoro.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "copychain.h"
#include "copychain.skel.h"

#define CC_DEFAULT_CHUNK	(128U << 10)
/* a read's result is an int: keep chunks far below INT_MAX */
#define CC_MAX_CHUNK		(1U << 30)
/* steps for short writes on top of CC_STEPS(), plus chunks / 64 */
#define CC_BUDGET_SLACK		64

/* the temporary file, removed by a signal that ends the copy */
static char tmp_path[PATH_MAX + 8];
static volatile sig_atomic_t tmp_live;

static void on_signal(int sig)
{
	if (tmp_live)
		unlink(tmp_path);
	/* the signal is blocked in here: it kills us once we return */
	signal(sig, SIG_DFL);
	raise(sig);
}

static const int cc_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void usage(FILE *f)
{
	fprintf(f,
		"usage: copychain SRC DST [--chunk BYTES] [--verbose]\n"
		"Copy the regular file SRC to DST with one in-kernel io_uring "
		"coroutine.\n"
		"  --chunk BYTES  bytes per read and write (default 128K; "
		"suffixes K, M, G)\n"
		"  -v, --verbose  also print how long the coroutine ran\n");
}

/* "131072", "128K", "128KiB", "1M", "1G"; 0 on success */
static int parse_size(const char *s, unsigned long long *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	}
	if (shift) {
		end++;
		if (!strcmp(end, "iB"))
			end += 2;
	}
	if (*end || v > (1ULL << 40) >> shift)
		return -1;
	*out = v << shift;
	return 0;
}

/* the directory part of @path, in @buf */
static const char *dir_of(const char *path, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!slash)
		return ".";
	if (slash == path)
		return "/";
	n = (size_t)(slash - path);
	if (n >= size)
		n = size - 1;
	memcpy(buf, path, n);
	buf[n] = '\0';
	return buf;
}

static const char *op_name(uint32_t op)
{
	switch (op) {
	case CC_OP_READ:
		return "read";
	case CC_OP_WRITE:
		return "write";
	case CC_OP_FSYNC:
		return "fsync";
	default:
		return "copy";
	}
}

int main(int argc, char **argv)
{
	static char log[64 * 1024];
	static char dirbuf[PATH_MAX];
	struct iocoro_load_opts opts = {
		.sz = sizeof(opts), .log_buf = log, .log_size = sizeof(log),
	};
	unsigned long long chunk_arg = CC_DEFAULT_CHUNK;
	const char *src = NULL, *dst = NULL, *dir;
	struct copychain_bpf *skel = NULL;
	struct copychain_state st;
	struct stat src_st, dst_st, dir_st;
	struct iocoro_done done;
	struct iocoro co;
	struct sigaction sa;
	sigset_t block, old;
	uint64_t chunks, steps, budget;
	uint32_t chunk;
	int src_fd = -1, tmp_fd = -1, dfd, ret, prog, i;
	int have_co = 0, grown = 0, verbose = 0, rc = 1;
	struct timespec t0, t1;
	double secs;
	void *buf = MAP_FAILED;

	/* ---- arguments ---- */
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			verbose = 1;
		} else if (!strcmp(a, "--chunk") || !strncmp(a, "--chunk=", 8)) {
			const char *v = a[7] == '=' ? a + 8 : argv[++i];

			if (!v || parse_size(v, &chunk_arg) || !chunk_arg ||
			    chunk_arg > CC_MAX_CHUNK) {
				fprintf(stderr,
					"copychain: --chunk takes a size of 1 to %u bytes (K, M, G suffixes), not '%s'\n",
					CC_MAX_CHUNK, v ? v : "");
				return 2;
			}
		} else if (a[0] == '-' && a[1] && strcmp(a, "--")) {
			fprintf(stderr, "copychain: unknown option '%s'\n", a);
			usage(stderr);
			return 2;
		} else {
			if (!strcmp(a, "--")) {
				if (++i >= argc)
					break;
				a = argv[i];
			}
			if (!src) {
				src = a;
			} else if (!dst) {
				dst = a;
			} else {
				usage(stderr);
				return 2;
			}
		}
	}
	if (!src || !dst || !*src || !*dst) {
		usage(stderr);
		return 2;
	}
	chunk = (uint32_t)chunk_arg;

	/* ---- SRC, DST and its directory: nothing is created yet ---- */
	src_fd = open(src, O_RDONLY | O_CLOEXEC);
	if (src_fd < 0 || fstat(src_fd, &src_st)) {
		fprintf(stderr, "copychain: %s: %s\n", src, strerror(errno));
		goto out;
	}
	if (S_ISDIR(src_st.st_mode)) {
		fprintf(stderr, "copychain: %s: %s\n", src, strerror(EISDIR));
		goto out;
	}
	if (!S_ISREG(src_st.st_mode)) {
		fprintf(stderr, "copychain: %s: not a regular file\n", src);
		goto out;
	}
	if (!stat(dst, &dst_st)) {
		if (dst_st.st_dev == src_st.st_dev &&
		    dst_st.st_ino == src_st.st_ino) {
			fprintf(stderr,
				"copychain: %s and %s are the same file\n",
				src, dst);
			goto out;
		}
		if (S_ISDIR(dst_st.st_mode)) {
			fprintf(stderr, "copychain: %s: %s (give the file's name)\n",
				dst, strerror(EISDIR));
			goto out;
		}
		if (!S_ISREG(dst_st.st_mode)) {
			fprintf(stderr,
				"copychain: %s: not a regular file (copychain replaces DST)\n",
				dst);
			goto out;
		}
	} else if (errno != ENOENT) {
		fprintf(stderr, "copychain: %s: %s\n", dst, strerror(errno));
		goto out;
	}
	if (dst[strlen(dst) - 1] == '/') {
		fprintf(stderr, "copychain: %s: not a file name\n", dst);
		goto out;
	}
	dir = dir_of(dst, dirbuf, sizeof(dirbuf));
	ret = stat(dir, &dir_st) ? errno
	      : S_ISDIR(dir_st.st_mode) ? 0 : ENOTDIR;
	if (ret) {
		fprintf(stderr, "copychain: %s -> %s: directory %s: %s\n", src,
			dst, dir, strerror(ret));
		goto out;
	}
	if (strlen(dst) + 8 > sizeof(tmp_path)) {
		fprintf(stderr, "copychain: %s: %s\n", dst,
			strerror(ENAMETOOLONG));
		goto out;
	}

	/*
	 * ---- the step budget: 2 steps a chunk and 3 more; a file that
	 * needs more than the kernel allows gets bigger chunks ----
	 */
	for (;;) {
		chunks = ((uint64_t)src_st.st_size + chunk - 1) / chunk;
		steps = CC_STEPS(chunks);
		if (steps + CC_BUDGET_SLACK <= IOCORO_MAX_BUDGET)
			break;
		if (chunk >= CC_MAX_CHUNK) {
			fprintf(stderr,
				"copychain: %s: too large: %jd bytes need more than %u steps even in chunks of %u bytes\n",
				src, (intmax_t)src_st.st_size,
				IOCORO_MAX_BUDGET, CC_MAX_CHUNK);
			goto out;
		}
		chunk = chunk > CC_MAX_CHUNK / 2 ? CC_MAX_CHUNK : chunk * 2;
		grown = 1;
	}
	if (grown)
		fprintf(stderr,
			"copychain: note: chunk grown from %llu to %u bytes: a copy may take at most %u steps\n",
			chunk_arg, chunk, IOCORO_MAX_BUDGET);
	budget = steps + CC_BUDGET_SLACK + chunks / 64;
	if (budget > IOCORO_MAX_BUDGET)
		budget = IOCORO_MAX_BUDGET;

	/* ---- the ring and the program ---- */
	ret = iocoro_queue_init(8, &co, 0);
	if (ret < 0) {
		fprintf(stderr, "copychain: %s\n", iocoro_strerror(ret));
		goto out;
	}
	have_co = 1;
	skel = copychain_bpf__open();
	if (!skel) {
		fprintf(stderr, "copychain: cannot open the BPF object: %s\n",
			strerror(errno));
		goto out;
	}
	ret = iocoro_object_prepare(skel->obj, &opts);
	if (ret < 0)
		goto err;
	ret = copychain_bpf__load(skel);
	if (ret < 0) {
		fprintf(stderr, "copychain: verifier log:\n%s\n", log);
		goto err;
	}
	ret = iocoro_attach_object(&co, skel->obj);
	if (ret < 0)
		goto err;
	prog = iocoro_prog_index(skel->obj, skel->progs.copychain);
	if (prog < 0) {
		ret = prog;
		goto err;
	}
	ret = iocoro_set_budget(&co, (unsigned int)budget);
	if (ret < 0)
		goto err;

	/* the one buffer every read fills and every write empties */
	buf = mmap(NULL, chunk, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		fprintf(stderr, "copychain: a buffer of %u bytes: %s\n", chunk,
			strerror(errno));
		goto out;
	}

	/*
	 * ---- DST.XXXXXX with SRC's mode; a signal removes it while it
	 * lives ----
	 */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&block);
	for (i = 0; i < (int)(sizeof(cc_signals) / sizeof(cc_signals[0])); i++) {
		sigaction(cc_signals[i], &sa, NULL);
		sigaddset(&block, cc_signals[i]);
	}
	snprintf(tmp_path, sizeof(tmp_path), "%s.XXXXXX", dst);
	sigprocmask(SIG_BLOCK, &block, &old);
	tmp_fd = mkostemp(tmp_path, O_CLOEXEC);
	if (tmp_fd >= 0)
		tmp_live = 1;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (tmp_fd < 0) {
		fprintf(stderr,
			"copychain: %s -> %s: cannot create a temporary file next to it: %s\n",
			src, dst, strerror(errno));
		goto out;
	}
	if (fchmod(tmp_fd, src_st.st_mode & 07777)) {
		fprintf(stderr, "copychain: %s -> %s: %s (setting the mode)\n",
			src, dst, strerror(errno));
		goto out;
	}

	/* ---- one coroutine, one submit, one end ---- */
	memset(&st, 0, sizeof(st));
	st.step = CC_START;
	st.src_fd = src_fd;
	st.dst_fd = tmp_fd;
	st.chunk = chunk;
	st.buf = (uintptr_t)buf;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = iocoro_start_state(&co, (unsigned int)prog, 0,
				 skel->maps.cc_states, &st, sizeof(st));
	if (ret < 0)
		goto err;
	do
		ret = iocoro_wait(&co, &done, NULL);
	while (ret == -EINTR);
	if (ret < 0)
		goto err;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	ret = iocoro_state_read(skel->maps.cc_states, 0, &st, sizeof(st));
	if (ret < 0)
		goto err;

	if (done.how != IOCORO_FINISHED) {
		/* the kernel ended the chain: -ELOOP, -ECANCELED, ... */
		fprintf(stderr, "copychain: %s -> %s: %s (after %" PRIu64
			" bytes, %u steps%s)\n", src, dst,
			iocoro_strerror(done.res), (uint64_t)st.copied,
			st.steps, done.res == -ELOOP ?
			"; SRC is longer than its size said" : "");
		goto out;
	}
	if (done.res < 0) {
		if (st.failed_op == CC_OP_FSYNC)
			fprintf(stderr, "copychain: %s -> %s: %s (fsync)\n",
				src, dst, strerror(-done.res));
		else
			fprintf(stderr,
				"copychain: %s -> %s: %s (%s at offset %" PRIu64 ")\n",
				src, dst, strerror(-done.res),
				op_name(st.failed_op),
				(uint64_t)(st.off + st.done));
		goto out;
	}

	/* ---- written and fsynced: make it DST ---- */
	ret = close(tmp_fd);
	tmp_fd = -1;
	if (ret) {
		fprintf(stderr, "copychain: %s -> %s: %s (close)\n", src, dst,
			strerror(errno));
		goto out;
	}
	if (rename(tmp_path, dst)) {
		fprintf(stderr, "copychain: %s -> %s: %s (rename)\n", src, dst,
			strerror(errno));
		goto out;
	}
	tmp_live = 0;
	/* and make the rename durable too */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fsync(dfd))
		fprintf(stderr, "copychain: warning: %s: fsync of the directory: %s\n",
			dir, strerror(errno));
	if (dfd >= 0)
		close(dfd);

	printf("copychain: copied %" PRIu64 " bytes in %u steps\n",
	       (uint64_t)st.copied, st.steps);
	if (verbose)
		printf("copychain: the coroutine ran %.3f s: %.1f MiB/s, %.1f us a step, %u short writes, chunk %u\n",
		       secs, secs > 0 ? (double)st.copied / (1 << 20) / secs : 0,
		       st.steps ? secs * 1e6 / st.steps : 0, st.short_writes,
		       chunk);
	rc = 0;
	goto out;

err:
	fprintf(stderr, "copychain: %s -> %s: %s\n", src, dst,
		iocoro_strerror(ret));
out:
	if (tmp_fd >= 0)
		close(tmp_fd);
	if (tmp_live) {
		unlink(tmp_path);
		tmp_live = 0;
	}
	if (buf != MAP_FAILED)
		munmap(buf, chunk);
	copychain_bpf__destroy(skel);
	if (have_co)
		iocoro_queue_exit(&co);
	if (src_fd >= 0)
		close(src_fd);
	return rc;
}
