// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: the hot functions of hwpmc_hot, built as a shared
 * library (libhwpmc_hot.so; linked into hwpmc_hot itself in static
 * builds), with frame pointers, so that samples land in a known function
 * of a shared object with a known caller.
 */
#include <stddef.h>

volatile unsigned long hwpmc_hot_sink;

/* spin: about n iterations of integer work */
__attribute__((noinline)) unsigned long hwpmc_hot_spin(unsigned long n)
{
	unsigned long i, s = hwpmc_hot_sink;

	for (i = 0; i < n; i++)
		s = s * 2862933555777941757UL + 3037000493UL + hwpmc_hot_sink;
	return s;
}

/* touch one byte of each of n pages at p: one page fault each */
__attribute__((noinline)) void hwpmc_hot_touch(char *p, size_t n, size_t pg)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i * pg] = 1;
}
