// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: a workload for the security selftests: spin in user
 * mode for SECS seconds (default 1), then exit 0.  The tests copy it and
 * make the copy setuid, setgid or give it file capabilities.
 */
#include <stdlib.h>
#include <time.h>

#include "hwpmc_selftest.h"

int main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? atof(argv[1]) : 1.0);
	volatile unsigned long n = 0;

	while (now() < end)
		n++;
	return 0;
}
