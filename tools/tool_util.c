// SPDX-License-Identifier: BSD-2-Clause
/*
 * What hwpmc-control, hwpmc-cputrack and hwpmc-cpustat share: messages
 * and stop signals (tool_util.h).
 */
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tool_util.h"

static const char *tool_prog = "hwpmc";
static void (*tool_usage)(FILE *f);

void tool_init(const char *prog, void (*usage)(FILE *f))
{
	tool_prog = prog;
	tool_usage = usage;
}

static void tool_vmsg(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", tool_prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void tool_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vmsg(fmt, ap);
	va_end(ap);
	if (tool_usage)
		tool_usage(stderr);
	exit(EX_USAGE);
}

void tool_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vmsg(fmt, ap);
	va_end(ap);
	exit(1);
}

void tool_on_stop_signals(void (*fn)(int sig))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}
