// SPDX-License-Identifier: MIT
/*
 * bench_time KHZ OUT CMD [ARG]...: run CMD and append its wall time in
 * seconds to the file OUT, timed with rdtsc at KHZ kHz (the host's TSC
 * rate: in a TCG guest of the iocoro kernel CLOCK_MONOTONIC runs on
 * jiffies, which lose time when the host is busy; bench/README.md).
 * Exits with CMD's status (128 + signal if it was killed, 127 if it could
 * not be run).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <x86intrin.h>

static int run(char **argv, int *status)
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
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

int main(int argc, char **argv)
{
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
	ret = run(argv + 3, &status);
	t1 = __rdtsc();
	if (ret < 0) {
		fprintf(stderr, "bench_time: %s: %s\n", argv[3], strerror(-ret));
		return 127;
	}
	out = fopen(argv[2], "a");
	if (!out || fprintf(out, "%.6f\n", (double)(t1 - t0) / (khz * 1e3)) < 0 ||
	    fclose(out)) {
		fprintf(stderr, "bench_time: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
