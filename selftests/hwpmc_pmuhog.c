// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: take the hardware PMU from everyone else, as another
 * perf user could: on each CPU given (default: every online CPU), pinned
 * CPU-wide instructions counters of perf's are opened until one finds no
 * counter left (perf reads a pinned counter in its error state as 0
 * bytes; that one is closed).  Prints "taken N" (the counters held) and
 * waits until it is killed.  Exit 2 when perf refuses a counter (no
 * PMU), with the reason.  For hwpmc_stat.sh's <not counted> checks.
 *
 * Usage: hwpmc_pmuhog [CPU...]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

#define HOG_MAX	64	/* counters per CPU at most */

/* Fill cpu's PMU; the counters held, or -errno. */
static int hog_cpu(int cpu)
{
	int n;

	for (n = 0; n < HOG_MAX; n++) {
		struct perf_event_attr a = {
			.type = PERF_TYPE_HARDWARE, .size = sizeof(a),
			.config = PERF_COUNT_HW_INSTRUCTIONS,
			.pinned = 1,
		};
		unsigned long long v;
		int fd = (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, 0);

		if (fd < 0)
			return -errno;
		if (read(fd, &v, sizeof(v)) == 0) {
			close(fd);	/* not scheduled: the PMU is full */
			return n;
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int total = 0, n, i;

	for (i = 0; i < (argc > 1 ? argc - 1 : ncpu); i++) {
		int cpu = argc > 1 ? atoi(argv[i + 1]) : i;

		n = hog_cpu(cpu);
		if (n < 0) {
			fprintf(stderr, "hwpmc_pmuhog: CPU %d: perf_event_open: %s\n",
				cpu, strerror(-n));
			return 2;
		}
		total += n;
	}
	printf("taken %d\n", total);
	fflush(stdout);
	for (;;)
		pause();
}
