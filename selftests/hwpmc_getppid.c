// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: a program that makes exactly N getppid system calls
 * (argument, default 1000) and exits, for tracepoint counts
 * (syscalls:sys_enter_getppid) that must equal N.
 */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 0) : 1000, i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}
