// SPDX-License-Identifier: GPL-2.0
/* hwpmc for Linux: a workload for the tools' tests: touch N fresh pages. */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000, i;
	long pg = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, n * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return 2;
	madvise(m, n * pg, MADV_NOHUGEPAGE);
	for (i = 0; i < n; i++)
		m[i * pg] = 1;
	return argc > 2 ? atoi(argv[2]) : 0;
}
