// SPDX-License-Identifier: MIT
/*
 * bench_time KHZ OUT CMD [ARG]...: run CMD and append a line to the file
 * OUT: its wall time in seconds, timed with rdtsc at KHZ kHz (the host's
 * TSC rate: in a TCG guest of the iocoro kernel CLOCK_MONOTONIC runs on
 * jiffies, which lose time when the host is busy; bench/README.md), then
 * its CPU seconds, user plus system, as wait4() reports them: its threads
 * and its io_uring workers included, sampled at the kernel's tick; then
 * their context switches, voluntary plus involuntary (wait4()'s too).
 * Exits with CMD's status (128 + signal if it was killed, 127 if it could
 * not be run).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <x86intrin.h>

static double tv_secs(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static int run(char **argv, int *status, struct rusage *ru)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "bench_time: %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	while (wait4(pid, status, 0, ru) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	uint64_t t0, t1;
	double khz;
	int status, ret;
	FILE *out;

	if (argc < 4) {
		fprintf(stderr, "usage: bench_time KHZ OUT CMD [ARG]...\n");
		return 2;
	}
	khz = strtod(argv[1], NULL);
	if (khz <= 0) {
		fprintf(stderr, "bench_time: bad rate '%s'\n", argv[1]);
		return 2;
	}
	t0 = __rdtsc();
	ret = run(argv + 3, &status, &ru);
	t1 = __rdtsc();
	if (ret < 0) {
		fprintf(stderr, "bench_time: %s: %s\n", argv[3], strerror(-ret));
		return 127;
	}
	out = fopen(argv[2], "a");
	if (!out ||
	    fprintf(out, "%.6f %.6f %ld\n", (double)(t1 - t0) / (khz * 1e3),
		    tv_secs(&ru.ru_utime) + tv_secs(&ru.ru_stime),
		    ru.ru_nvcsw + ru.ru_nivcsw) < 0 ||
	    fclose(out)) {
		fprintf(stderr, "bench_time: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
