// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat: the stacks of a log for other profilers' readers.
 *
 * --perf-script: the text of perf script (perf-script(1), its default
 * fields with call chains), which speedscope, the Firefox Profiler and
 * FlameGraph's stackcollapse-perf.pl read: per sample, a line
 *
 *	comm pid [cpu] secs.usecs: period event:
 *
 * then one line per frame, leaf first, "\t<address> <symbol> (<object>)",
 * then an empty line.  The stacks are aggregated (struct stacks): a stack
 * of N samples is written N times, the order and times of the samples
 * are not kept (times are the samples' ordinals, in ms), nor their CPU
 * ([000]) nor their addresses (0).  Kernel functions are in
 * [kernel.kallsyms], as perf names the kernel.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmcstat.h"

/* -- perf script --------------------------------------------------------------- */

static const char *perf_obj(const struct func *f)
{
	return strcmp(f->obj, "[kernel]") ? f->obj : "[kernel.kallsyms]";
}

int perfscript_write(const struct stacks *s, FILE *out)
{
	const char *event = s->event[0] ? s->event : "samples";
	uint64_t k = 0, j, period = s->rate ? s->rate : 1;
	char buf[64];
	size_t i, f;

	for (i = 0; i < s->n; i++) {
		const struct stack *st = &s->v[i];
		const char *comm = stack_comm(st, buf, sizeof(buf));

		for (j = 0; j < st->count; j++, k++) {
			fprintf(out, "%s %7d [000] %5" PRIu64 ".%06" PRIu64
				": %10" PRIu64 " %s: \n", comm, (int)st->pid,
				k / 1000, k % 1000 * 1000, period, event);
			for (f = 0; f < st->n; f++) {
				const struct func *fn = &sym_funcs[st->fids[f]];

				fprintf(out, "\t%16x %s (%s)\n", 0, fn->name,
					perf_obj(fn));
			}
			fputc('\n', out);
			if (ferror(out))
				return -1;
		}
	}
	return ferror(out) ? -1 : 0;
}

int pprof_available(void)
{
	return 0;
}
