/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal TAP producer for the host unit tests.
 *   ok(cond, fmt, ...)   one test point
 *   skip(fmt, ...)       a skipped point
 *   tap_done()           prints the plan; returns the exit status
 */
#ifndef _HWPMC_TAP_H_
#define _HWPMC_TAP_H_

#include <stdarg.h>
#include <stdio.h>

static int tap_n, tap_failed;

__attribute__((format(printf, 2, 3)))
static inline int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

__attribute__((format(printf, 1, 2)))
static inline void skip(const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("ok %d # SKIP ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif /* _HWPMC_TAP_H_ */
