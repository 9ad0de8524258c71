// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: a program without frame pointers (built -O2
 * -fomit-frame-pointer, as Debian builds), busy in inner() <- outer()
 * <- main() for the seconds of argv[1] (CPU time).  hwpmc_unwind.sh
 * samples it: with --call-graph dwarf the callers of inner() are found,
 * with frame pointers they are not.  It prints how many times it called
 * outer(): the work done in that CPU time, less with costlier sampling.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) unsigned long inner(unsigned long n)
{
	unsigned long i, x = n;

	for (i = 0; i < n; i++)
		x = (x * 31 + i) ^ (x >> 7);
	return x;
}

__attribute__((noinline)) unsigned long outer(unsigned long n)
{
	unsigned long s = 0;
	int k;

	for (k = 0; k < 4; k++)
		s += inner(n + k) * 3;	/* not a tail call */
	return s + 1;
}

static double cpu_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	/* from here: not the fork and exec, which sampling slows */
	double end = cpu_seconds() + (argc > 1 ? atof(argv[1]) : 1);
	unsigned long calls = 0;

	while (cpu_seconds() < end) {
		sink += outer(200000);
		calls++;
	}
	/* the work done in that CPU time: the cost of sampling */
	printf("outer calls %lu\n", calls);
	return 0;
}
