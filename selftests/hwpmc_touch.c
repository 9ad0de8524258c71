// SPDX-License-Identifier: GPL-2.0
/* hwpmc for Linux: a workload for the tools' tests: touch N fresh pages. */
#include <stdlib.h>
#include <unistd.h>

#include "hwpmc_selftest.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000, i;
	long pg = sysconf(_SC_PAGESIZE);
	char *m = fresh_pages(n, pg);

	if (!m)
		return 2;
	for (i = 0; i < n; i++)
		m[i * pg] = 1;
	return argc > 2 ? atoi(argv[2]) : 0;
}
