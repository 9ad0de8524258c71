// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: a workload for the sampling tests of hwpmc-stat.
 *
 *   hwpmc_hot SECS      hwpmc_hot_caller() calls hwpmc_hot_spin() (in
 *                       libhwpmc_hot.so) until SECS seconds have passed
 *   hwpmc_hot -f PAGES  hwpmc_hot_faulter() calls hwpmc_hot_touch(),
 *                       which touches PAGES fresh pages (one fault each)
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hwpmc_selftest.h"

unsigned long hwpmc_hot_spin(unsigned long n);
void hwpmc_hot_touch(char *p, size_t n, size_t pg);

__attribute__((noinline)) unsigned long hwpmc_hot_caller(double secs)
{
	double end = now() + secs;
	unsigned long s = 0;

	do
		s += hwpmc_hot_spin(2000000);
	while (now() < end);
	return s;
}

__attribute__((noinline)) int hwpmc_hot_faulter(long n)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *m = fresh_pages(n, pg);

	if (!m)
		return 2;
	hwpmc_hot_touch(m, (size_t)n, (size_t)pg);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "-f"))
		return hwpmc_hot_faulter(atol(argv[2]));
	return hwpmc_hot_caller(argc > 1 ? atof(argv[1]) : 1.0) == 42;
}
