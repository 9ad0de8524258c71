// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: added cost per context switch of counting, hwpmc vs
 * perf, in one run.  Two processes ping-pong a byte over pipes on CPU 0;
 * the time per round trip (two switches) is measured with nothing
 * attached, with 1 and 4 hwpmc process PMCs (SOFT events) attached to
 * both, and with the same events as perf per-task counters (what perf
 * stat opens).  Reports medians of several runs and the added cost per
 * switch of each tool; the number that matters is the ratio.
 *
 *   csw_bench [round trips] [runs]     (root, module loaded)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <linux/hwpmc.h>

static const __u64 events[4] = {
	PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_CONTEXT_SWITCHES,
	PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_CPU_MIGRATIONS,
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pin0(void)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(0, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

/* the echoing side: waits for go, then echoes n bytes */
static pid_t echoer(int in, int out, int go, long n)
{
	pid_t pid = fork();
	char c;
	long i;

	if (pid)
		return pid;
	pin0();
	if (read(go, &c, 1) != 1)
		_exit(1);
	for (i = 0; i < n; i++)
		if (read(in, &c, 1) != 1 || write(out, &c, 1) != 1)
			_exit(1);
	_exit(0);
}

/* one run: ns per round trip, with the tool's counters on both sides */
static double run(int mode, int nev, long n, int hwfd)
{
	int to[2], from[2], go[2], pfd[8], np = 0, i;
	__u32 ids[8];
	int nid = 0;
	pid_t pid, me = getpid();
	double t0, t;
	char c = 'x';
	long k;

	if (pipe(to) || pipe(from) || pipe(go))
		exit(2);
	pid = echoer(to[0], from[1], go[0], n);
	for (i = 0; i < nev; i++) {
		pid_t who[2] = { me, pid };
		int w;

		for (w = 0; w < 2; w++) {
			if (mode == 1) {
				struct pmc_op_pmcallocate pa = {
					.pm_mode = PMC_MODE_TC,
					.pm_class = PMC_CLASS_SOFT,
					.pm_ev = PMC_EV_SOFT_FIRST + events[i],
					.pm_cpu = PMC_CPU_ANY,
				};
				struct pmc_op_pmcattach a;
				struct pmc_op_simple sp;

				if (ioctl(hwfd, HWPMC_IOC_PMCALLOCATE, &pa))
					exit(3);
				a.pm_pmc = pa.pm_pmcid;
				a.pm_pid = who[w];
				if (ioctl(hwfd, HWPMC_IOC_PMCATTACH, &a))
					exit(4);
				sp.pm_pmcid = pa.pm_pmcid;
				sp.pm__pad = 0;
				if (ioctl(hwfd, HWPMC_IOC_PMCSTART, &sp))
					exit(5);
				ids[nid++] = pa.pm_pmcid;
			} else if (mode == 2) {
				struct perf_event_attr at = {
					.type = PERF_TYPE_SOFTWARE,
					.size = sizeof(at), .config = events[i],
					.inherit = 1,
				};

				pfd[np] = (int)syscall(SYS_perf_event_open, &at,
						       who[w], -1, -1, 0);
				if (pfd[np++] < 0)
					exit(6);
			}
		}
	}
	if (write(go[1], "g", 1) != 1)
		exit(7);
	t0 = now();
	for (k = 0; k < n; k++)
		if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
			exit(8);
	t = now() - t0;
	waitpid(pid, NULL, 0);
	for (i = 0; i < nid; i++) {
		struct pmc_op_simple sp = { .pm_pmcid = ids[i] };

		ioctl(hwfd, HWPMC_IOC_PMCRELEASE, &sp);
	}
	for (i = 0; i < np; i++)
		close(pfd[i]);
	close(to[0]); close(to[1]); close(from[0]); close(from[1]);
	close(go[0]); close(go[1]);
	return t / n * 1e9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	int runs = argc > 2 ? atoi(argv[2]) : 5, r, c;
	static const struct { int mode, nev; const char *name; } cfg[] = {
		{ 0, 0, "nothing attached" },
		{ 1, 1, "hwpmc, 1 PMC per process" },
		{ 1, 4, "hwpmc, 4 PMCs per process" },
		{ 2, 1, "perf, 1 counter per process" },
		{ 2, 4, "perf, 4 counters per process" },
	};
	double med[5], v[64];
	int fd = open(PMC_DEVICE_PATH, O_RDWR);

	if (fd < 0) {
		perror(PMC_DEVICE_PATH);
		return 1;
	}
	if (runs > 64)
		runs = 64;
	pin0();
	for (c = 0; c < 5; c++) {
		for (r = 0; r < runs; r++)
			v[r] = run(cfg[c].mode, cfg[c].nev, n, fd);
		qsort(v, runs, sizeof(v[0]), cmp);
		med[c] = v[runs / 2];
		printf("%-32s %8.0f ns/round trip (min %.0f, max %.0f)\n",
		       cfg[c].name, med[c], v[0], v[runs - 1]);
	}
	/* a round trip is two switches */
	printf("added per switch: hwpmc 1: %.0f ns, 4: %.0f ns; perf 1: %.0f ns, 4: %.0f ns\n",
	       (med[1] - med[0]) / 2, (med[2] - med[0]) / 2,
	       (med[3] - med[0]) / 2, (med[4] - med[0]) / 2);
	printf("ratio hwpmc/perf of the added cost: 1 event %.2f, 4 events %.2f\n",
	       (med[1] - med[0]) / (med[3] - med[0]),
	       (med[2] - med[0]) / (med[4] - med[0]));
	return 0;
}
