// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: the hot functions of hwpmc_hot, built as a shared
 * library (libhwpmc_hot.so; linked into hwpmc_hot itself in static
 * builds), with frame pointers, so that samples land in a known function
 * of a shared object with a known caller.
 */
#include <stddef.h>

volatile unsigned long hwpmc_hot_sink;

/*
 * spin: about n iterations of integer work.  The volatile local gives it
 * a stack frame: GCC 12 sets up no frame pointer in a leaf that needs no
 * stack, -mno-omit-leaf-frame-pointer or not, and a frame-pointer walk
 * from such a leaf skips its caller.
 */
__attribute__((noinline)) unsigned long hwpmc_hot_spin(unsigned long n)
{
	volatile unsigned long acc = hwpmc_hot_sink;
	unsigned long i;

	for (i = 0; i < n; i++)
		acc = acc * 2862933555777941757UL + 3037000493UL + hwpmc_hot_sink;
	return acc;
}

/* touch one byte of each of n pages at p: one page fault each */
__attribute__((noinline)) void hwpmc_hot_touch(char *p, size_t n, size_t pg)
{
	volatile size_t i;	/* a frame, as above */

	for (i = 0; i < n; i++)
		p[i * pg] = 1;
}
