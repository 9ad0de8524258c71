/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hwpmc-stat's run, by job: hwpmc-stat.c (main: the order of the jobs),
 * pmcstat_opts.c (the options, into struct opts), pmcstat_plan.c (what
 * to count: each event's specifier parsed once, rates, --metrics' events,
 * -t's processes; and the commands that only describe: -u, -L,
 * --list-metrics), pmcstat_run.c (the run: the command, attaching,
 * starting, waiting), pmcstat_count.c (the counting PMCs: allocation and
 * the text, CSV, JSON and summary outputs), pmcstat_sample.c (a sampling
 * run's log, and the reports of a log).  The reports themselves are
 * pmcstat.h's.
 *
 * A run's state is one struct stat_run, main()'s, handed to the jobs
 * that need it: no file keeps it in globals.  Only the diagnostics are
 * global (prog, verbose, quiet): usage() and every error message of
 * every file, plan to reports, read them, and -q, -v are known before
 * anything else is done.  The symbol tables' settings (sym_root,
 * sym_demangle, ...) are pmcstat_sym.c's own, as pmcstat.h says.
 */
#ifndef _HWPMC_PMCSTAT_STAT_H_
#define _HWPMC_PMCSTAT_STAT_H_

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <pmc.h>

#include "pmcstat.h"
#include "pmcstat_metric.h"

#define EX_USAGE	64
#define MAXSPEC		256	/* -p and -s options */
#define MINWAIT		0.1	/* -w: --csv, --json, files and pipes */
#define TTYWAIT		1.0	/* -w: text on a terminal, -T: no faster than a person reads */
#define DEFWAIT		5.0	/* pmcstat's interval, for runs with no end */
#define TOPWAIT		1.0	/* -T: refresh */

/* the diagnostics: the program's name in messages, -v, -q */
extern const char *prog;
extern int verbose, quiet;

struct stat_run;

/* The usage, and exit: with fmt, the error on stderr and EX_USAGE. */
void	usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/* -- options: pmcstat_opts.c ----------------------------------------------- */

enum outfmt { OUT_TEXT, OUT_CSV, OUT_JSON };

/* The reports of a sampling run or of a log (-R), and their files. */
struct reports {
	int		dump;			/* --dump */
	const char	*graph, *folded, *out;	/* --graph, --folded, -o */
	const char	*callchain, *calltree;	/* -G, -F */
	const char	*flame, *perfscript, *pprof;
	const char	*pcs, *addrs;		/* -m, -a */
	int		gmon, gmonwide;		/* -g, -e */
	const char	*gmondir, *gmonmap;	/* -D, -M */
	int		fopt;			/* -f given */
	struct report_opts ro;
};

/* One event to count or sample: -p, -s, -P, -S, or one of --metrics'. */
struct want {
	const char	*spec;
	enum pmc_mode	mode;
	uint32_t	flags;
	uint64_t	rate;		/* sampling: events per sample */
	uint32_t	stacksize;	/* PMC_F_USERSTACK's pm_stacksize */
	const char	*cpus;		/* system scope: -c's CPU list */
	struct pmc_spec	ps;		/* spec, parsed (plan_parse()) */
};

struct opts {
	struct want	want[MAXSPEC];
	int		nwant;
	int		nsampling;		/* of them -P and -S */
	int		kprof;			/* --kernel-profiles */
	const char	*tspec[MAXSPEC];	/* -t */
	int		ntspec;
	const char	*marg[MAXSPEC];		/* --metrics */
	int		nmarg;
	uint32_t	mflags;			/* --metrics' events: -d */
	uint32_t	stacksize;		/* --call-graph dwarf,SIZE; 0: fp */
	const char	*outfile, *logfile, *rfile, *describe;
	double		interval, duration;	/* -w, -l; 0: none */
	int		cumulative, top, listev, listm;
	enum outfmt	outfmt;			/* --csv, --json */
	int		summary;		/* --summary: perf stat's */
	struct reports	rep;
	int		argc;			/* the command, or 0 */
	char		**argv;
};

/* Does the run sample (-P, -S, --kernel-profiles): a log? */
static inline int opts_sampling(const struct opts *o)
{
	return o->nsampling || o->kprof;
}

/* The options into o; bad ones are usage errors. */
void	opts_parse(struct opts *o, int argc, char **argv);
/* The checks of the reports' options (after parse_metrics()). */
void	opts_check_reports(const struct opts *o);
/* The checks of a counting or sampling run's options, and -w's default. */
void	opts_check(struct opts *o);

/* -- the plan: pmcstat_plan.c ---------------------------------------------- */

/* -t: the processes to attach to */
struct targets {
	pid_t		*pid;
	unsigned char	*matched;	/* found by a regular expression */
	int		n;
};

void	target_add(struct targets *t, pid_t pid, int matched);
void	add_targets(struct targets *t, const char *spec);
/* A CPU list: "*", or "0,2-5"; set[i] set for CPU i.  0, or -1. */
int	parse_cpus(const char *s, unsigned char *set, int ncpu);

/*
 * Each event's specifier parsed, into its want's ps: with
 * PMC_SPEC_KNOWN before pmc_init() (a bad specifier is a usage error even
 * without the module), with PMC_SPEC_MACHINE after it.  The second parse
 * is kept: the rate, the allocations and their user-mode fallback use it.
 */
void	plan_parse(struct opts *o, enum pmc_spec_events events);
/*
 * After pmc_init(): the events of st->o, the default rates, --metrics'
 * events and the run's title; 0, or -1 (told).
 */
int	plan_make(struct stat_run *st);

/* --metrics: a metric of the CPU's table, its events counted as -p's */
struct mreq {
	int		index;
	struct metric_info mi;
	int		ok;		/* its events are counted */
	char		why[360];	/* else: why not */
};

/* --metrics' events: a list of specifiers */
struct speclist {
	char	**v;
	int	n;
};

/* --metrics arg: its metrics into st->mreqs; bad ones are usage errors. */
void	parse_metrics(struct stat_run *st, const char *arg);
void	plan_free(struct stat_run *st);

/* The commands that only describe: their exit status. */
int	describe_event(const char *spec);	/* -u */
int	list_events(void);			/* -L */
int	list_metrics(const char *group);	/* --list-metrics */

/* -- counting PMCs: pmcstat_count.c ---------------------------------------- */

struct ctr {
	const char	*spec;
	struct pmc_op_pmcallocate pa;	/* spec, parsed once: its want's */
	uint32_t	modes;		/* the modes spec names */
	enum pmc_mode	mode;
	uint32_t	flags;
	uint64_t	count;		/* sampling: the reload count */
	int		cpu;		/* system scope */
	pmc_id_t	id;
	pmc_value_t	last;		/* at the previous interval */
	pmc_value_t	shown;		/* in the latest row */
	int		width;		/* of its column */
	int		uncounted;	/* ENODATA: perf did not schedule it */
	int		times;		/* the module gave the times */
	uint64_t	enabled, running; /* ns, at the previous interval */
	uint64_t	shown_enabled, shown_running; /* in the latest row */
};

#define SAMPLING(c)	PMC_IS_SAMPLING_MODE((c)->mode)

/*
 * The PMCs of st->o's events (on each CPU of their lists): 0, or -1
 * (told).
 */
int	count_allocate(struct stat_run *st);
void	count_release(struct stat_run *st);
/* The counting, not sampling, PMCs. */
int	ncounters(const struct stat_run *st);
/* --metrics: menv's count; arg: the struct stat_run */
int	metric_count_cb(void *arg, const char *spec, double *v);
void	print_header(const struct stat_run *st, FILE *out);
void	print_row(struct stat_run *st, FILE *out, int cumulative, int final,
		  int status);
void	print_summary(struct stat_run *st, FILE *out);
const char *counters_limit(void);

/* -- sampling runs and reports: pmcstat_sample.c --------------------------- */

/* A sampling run's log: where it goes, where it is read back. */
struct sampling {
	int		logw, logr;
	struct pmc_driverstats ds0, ds1;
	struct logbuf	lb;		/* -T's copy */
	struct log_summary sum;
};

int	want_stacks(const struct reports *r);
const char *stdout_clash(const struct reports *r);
int	is_host_port(const char *name);
/* -R: the reports of a log file ("-": standard input); the exit status */
int	report_file(const char *path, const struct reports *r);
/* The log, before the PMCs (their PMCALLOCATE records follow): 0, or -1. */
int	sample_begin(struct sampling *s, const struct opts *o);
/* The log closed, its reports written, losses told: 0, or -1. */
int	sample_end(struct sampling *s, const struct stat_run *st, FILE *out);

/* -- the run: pmcstat_run.c ------------------------------------------------ */

double	now(void);
/* The run of st's plan: the exit status. */
int	run(struct stat_run *st);

/* -- one run's state: main()'s, handed to the jobs ------------------------- */

struct stat_run {
	struct opts	o;
	struct targets	tg;		/* -t's processes, or the command's */
	int		ncpu;		/* the module's CPUs */
	/* the plan: pmcstat_plan.c */
	struct mreq	*mreqs;		/* --metrics */
	int		nmreq;
	int		mtable;		/* their table, or -1 */
	struct metric_env menv;		/* their expressions' inputs */
	struct speclist	owned;		/* --metrics' specs in o.want[] */
	char		title[256];	/* "'cmd args'", "process 123" */
	/* the PMCs: pmcstat_count.c */
	struct ctr	*ctrs;		/* every PMC of the run */
	int		nctr, room;	/* room: ctrs' allocated length */
	double		t0;		/* when counting started */
	double		tprev;		/* when the previous row was read */
};

#endif /* _HWPMC_PMCSTAT_STAT_H_ */
