// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat: count or sample events of a command, a running process, or
 * CPUs, and report on the samples, as FreeBSD's pmcstat(8) does.
 *
 *   hwpmc-stat [-C] [-c cpus] [-d] [-o file] [-q] [-v] [-w secs]
 *              [--csv | --json] [--summary] {-p spec | -s spec | --metrics m} ...
 *              [-t process-spec ... | command]
 *   hwpmc-stat [-E] [-N] [-W] [-d] [-c cpus] [-n rate] [-O logfile] [-T]
 *              [-G file] [-F file] [--annotate symbol[@object]]
 *              {-P spec | -S spec} ... [-t process-spec ... | command]
 *   hwpmc-stat -R logfile [-D] [-G file] [-F file] [-m file] [-a file]
 *              [-o file] [-z depth] [--comm name] [--pid pid] [-i tid]
 *              [-r fsroot] [-k kerneldir] [--annotate symbol[@object]]
 *   hwpmc-stat -u spec | -L | --list-metrics [group]
 *
 * pmcstat's options that have no meaning here (-e, -M, -f) are refused
 * by name, with what to use instead.
 *
 * main() runs the jobs in order: the options (pmcstat_opts.c), the plan
 * (pmcstat_plan.c), the run (pmcstat_run.c: counting, pmcstat_count.c;
 * sampling, pmcstat_sample.c), the reports (pmcstat_report.c); the files'
 * share is pmcstat_stat.h.  The run's state is main()'s struct stat_run,
 * handed to each job that needs it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pmcstat_stat.h"

/*
 * The diagnostics, the only globals of the run's files: usage() and the
 * messages of every file read them, from the options on.
 */
const char *prog = "hwpmc-stat";
int verbose, quiet;

/* -L, -u, --list-metrics: their exit status; -1: none of them. */
static int describe_only(const struct opts *o)
{
	int run = o->nwant || o->argc || o->ntspec || o->rfile || o->logfile ||
		  o->top || o->kprof;

	if (o->listev) {
		if (run || o->describe)
			usage("-L lists the events: nothing else with it");
		return list_events();
	}
	if (o->describe) {
		if (run)
			usage("-u describes an event: nothing else with it");
		return describe_event(o->describe);
	}
	if (o->listm) {
		if (o->nwant || o->nmarg || o->argc > 1 || o->ntspec ||
		    o->rfile || o->logfile || o->top)
			usage("--list-metrics lists metrics: a group at most with it");
		return list_metrics(o->argc ? o->argv[0] : NULL);
	}
	return -1;
}

/* -R: the reports of a log, no run. */
static int report_only(const struct opts *o)
{
	int rc;

	if (o->nwant || o->argc || o->ntspec || o->logfile || o->top ||
	    o->kprof)
		usage("-R reads a log: no events, command, -t, -O, -T or "
		      "--kernel-profiles with it");
	rc = report_file(o->rfile, &o->rep);
	free(o->rep.ro.pids);
	free(o->rep.ro.tids);
	return rc;
}

int main(int argc, char **argv)
{
	/* the run's state: static, as it is large (struct opts' events) */
	static struct stat_run st = { .mtable = -1 };
	struct opts *o = &st.o;
	const struct pmc_cpuinfo *ci;
	int i, rc;

	opts_parse(o, argc, argv);
	rc = describe_only(o);
	if (rc >= 0)
		return rc;
	for (i = 0; i < o->nmarg; i++)
		parse_metrics(&st, o->marg[i]);
	opts_check_reports(o);
	if (o->rfile)
		return report_only(o);
	opts_check(o);
	/* the specifiers, before the module is asked (pure parse) */
	plan_parse(o, PMC_SPEC_KNOWN);
	/* -t: pids, and the processes whose names match, now */
	for (i = 0; i < o->ntspec; i++)
		add_targets(&st.tg, o->tspec[i]);
	if (pmc_init() < 0) {
		fprintf(stderr, "%s: %s\n", prog, pmc_init_message());
		return 1;
	}
	if (pmc_cpuinfo(&ci) < 0)
		return 1;
	st.ncpu = (int)ci->pm_ncpu;
	if (plan_make(&st) < 0)
		return 1;
	rc = run(&st);
	free(o->rep.ro.pids);
	free(o->rep.ro.tids);
	free(st.tg.pid);
	free(st.tg.matched);
	plan_free(&st);
	pmc_fini();
	return rc;
}
