/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What hwpmc-control, hwpmc-cputrack and hwpmc-cpustat share: their
 * messages (a usage error, a fatal error, both prefixed with the tool's
 * name) and the signals that stop them.
 */
#ifndef _HWPMC_TOOL_UTIL_H
#define _HWPMC_TOOL_UTIL_H

#include <stdio.h>

#define EX_USAGE	64		/* <sysexits.h> */

/* The tool's name and its usage text, for the messages below. */
void tool_init(const char *prog, void (*usage)(FILE *f));

/* "<prog>: <message>", the usage on stderr, exit EX_USAGE. */
void tool_usage_error(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

/* "<prog>: <message>", exit 1. */
void tool_die(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

/* fn for SIGINT, SIGTERM and SIGHUP. */
void tool_on_stop_signals(void (*fn)(int sig));

#endif
