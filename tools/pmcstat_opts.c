// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat's options: the command line into struct opts (pmcstat's
 * letters, with pmcstat(8)'s meanings; the project's own reports and
 * perf's on long options), the usage, and the checks of which options
 * go together.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmcstat_stat.h"

/* long options without a letter */
enum {
	OPT_FLAME = 256,
	OPT_FLAME_ORDER,
	OPT_ICICLE,
	OPT_PERFSCRIPT,
	OPT_PPROF,
	OPT_NO_DEMANGLE,
	OPT_LINES,
	OPT_DEBUG_DIR,
	OPT_ANNOTATE,
	OPT_SUMMARY,
	OPT_LIST_METRICS,
	OPT_METRICS,
	OPT_PID,
	OPT_FOLDED,
	OPT_DUMP,
	OPT_GRAPH,
	OPT_CALLGRAPH,
	OPT_KPROF,
	OPT_UNWIND_THREADS,
};

#define OPTSTRING	"+:ACc:D:dEeF:f:G:ghIi:k:Ll:M:m:Nn:O:o:P:p:qR:r:S:s:Tt:Uu:vWw:a:z:"

static const struct option longopts[] = {
	{ "csv", no_argument, NULL, 'X' },
	{ "json", no_argument, NULL, 'J' },
	{ "help", no_argument, NULL, 'h' },
	{ "comm", required_argument, NULL, 'K' },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "folded", required_argument, NULL, OPT_FOLDED },
	{ "dump", no_argument, NULL, OPT_DUMP },
	{ "graph", required_argument, NULL, OPT_GRAPH },
	{ "call-graph", required_argument, NULL, OPT_CALLGRAPH },
	{ "kernel-profiles", no_argument, NULL, OPT_KPROF },
	{ "unwind-threads", required_argument, NULL, OPT_UNWIND_THREADS },
	{ "flamegraph", required_argument, NULL, OPT_FLAME },
	{ "flamegraph-order", required_argument, NULL, OPT_FLAME_ORDER },
	{ "icicle", no_argument, NULL, OPT_ICICLE },
	{ "perf-script", required_argument, NULL, OPT_PERFSCRIPT },
	{ "pprof", required_argument, NULL, OPT_PPROF },
	{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
	{ "lines", no_argument, NULL, OPT_LINES },
	{ "debug-dir", required_argument, NULL, OPT_DEBUG_DIR },
	{ "annotate", required_argument, NULL, OPT_ANNOTATE },
	{ "summary", no_argument, NULL, OPT_SUMMARY },
	{ "list-metrics", no_argument, NULL, OPT_LIST_METRICS },
	{ "metrics", required_argument, NULL, OPT_METRICS },
	{ NULL, 0, NULL, 0 },
};

/* What options before an event apply to it: pmcstat's toggles, -c, -n. */
struct toggles {
	const char	*cpus;
	uint64_t	rate;
	int		descendants, procexit, proccsw, callchains, userchains;
};

void usage(const char *fmt, ...)
{
	FILE *f = fmt ? stderr : stdout;
	va_list ap;

	if (fmt) {
		fprintf(stderr, "%s: ", prog);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	fprintf(f,
		"usage: %s [-C] [-c cpus] [-d] [-l secs] [-o file] [-q] [-v] [-w secs] [--csv|--json]\n"
		"           [--summary] {-p spec | -s spec | --metrics m} ... [-t process-spec ... | command [args]]\n"
		"       %s [-E] [-N] [-U] [-W] [-c cpus] [-d] [-l secs] [-n rate] [-O logfile]\n"
		"           [--call-graph fp|dwarf[,size]] [-T [-f opt]] [report options]\n"
		"           [--kernel-profiles] {-P spec | -S spec} ...\n"
		"           [-t process-spec ... | command]\n"
		"       %s -R logfile [report options]\n"
		"  report options: [-AI] [-g [-e] [-D dir] [-M mapfile]] [-F file] [-G file]\n"
		"           [-a file] [-m file] [-o file] [-z depth] [-i lwp] [-k kerneldir]\n"
		"           [-r fsroot] [--comm name] [--pid pid] [--dump] [--folded file]\n"
		"           [--graph file] [--flamegraph file.svg [--icicle]] [--perf-script file]\n"
		"           [--pprof file] [--no-demangle] [--lines] [--debug-dir dir]\n"
		"           [--annotate symbol[@object]] [--unwind-threads n]\n"
		"       %s -u spec | -L\n"
		"       %s --list-metrics [group]\n",
		prog, prog, prog, prog, prog);
	if (fmt)
		exit(EX_USAGE);
	fprintf(f,
		"  -p spec    count spec in the process(es) (process scope)\n"
		"  -s spec    count spec on each CPU of -c (system scope)\n"
		"  --metrics name[,name...]   count the events of these metrics or metric\n"
		"             groups of the CPU's pmu-events tables as -p does, and\n"
		"             print the metrics' values (--list-metrics lists them)\n"
		"  --summary  at the end, perf stat's layout: one counter a line,\n"
		"             msec and CPUs utilized, insn per cycle, metrics, elapsed\n"
		"  -c cpus    CPUs for the following -s: list '0,2-3' or '*' (default *)\n"
		"  -d         toggle: the following -p count descendants too\n"
		"  -t process-spec   count running processes instead of a command: a pid,\n"
		"             or a regular expression of command names; -t again: more\n"
		"  -l secs    end the run after secs seconds (the command gets SIGINT)\n"
		"  -w secs    print every secs seconds (at least %.1f, text on a terminal\n"
		"             at least %.0f; default %.0f without a command or -t, else\n"
		"             only at the end)\n"
		"  -C         with -w: cumulative values, not per interval\n"
		"  -o file    write the counts to file (default: stderr)\n"
		"  --csv, --json   machine-readable counts (hwpmc-stat(8))\n"
		"  -q, -v     quieter, more verbose\n"
		"Sampling (a flat profile at the end, or the log with -O):\n"
		"  -P spec    sample spec in the process(es)\n"
		"  -S spec    sample spec on each CPU of -c\n"
		"  -n rate    events per sample for the following -P/-S (default: the\n"
		"             table's for vendor events, else 65536,\n"
		"             cpu-clock and task-clock 1000000 ns, other soft events 1000)\n"
		"  -N         toggle: call chains for the following -P/-S (default on)\n"
		"  -U         toggle: the following -P/-S take the user call chain under\n"
		"             kernel samples too (PMC_F_USERCALLCHAIN)\n"
		"  -E, -W     toggle: LOG_PROCEXIT, LOG_PROCCSW for the following -P\n"
		"  --call-graph fp|dwarf[,size]   user call chains of every -P/-S by\n"
		"             frame pointers (default), or unwound by DWARF CFI from\n"
		"             size bytes of user stack per sample (default 8192)\n"
		"  --kernel-profiles   the samples of the kernel's profiles (pmc(9)'s\n"
		"             pmc_start_profiling()) too; with it -P and -S are optional\n"
		"  -O file    write the log to file, no report (host:port: over TCP)\n"
		"  -T         live top display (ncurses), refreshed every second (-w);\n"
		"             keys: c then a: accumulate, c then d: per interval (delta),\n"
		"             m: merge the events, p: the next event, n: the callers' view,\n"
		"             space: pause, q: quit\n"
		"  -f opt     pmcstat's plugin option: threshold=PERCENT (-T hides the\n"
		"             functions under it), skiplink=0|1 (accepted)\n"
		"Reports, of a sampling run or of a log (-R file); file '-': standard output:\n"
		"  -G file    pmcstat's call chains: each sampled function, under it its\n"
		"             callers, indented (FlameGraph's stackcollapse-pmc.pl reads it)\n"
		"  -F file    calltree (callgrind format) for KCachegrind\n"
		"  --graph file   call graph: functions with their callers and callees\n"
		"  --folded file  folded stacks for flame graphs\n"
		"  --dump     the log's records as text\n"
		"  --flamegraph file.svg   an interactive SVG flame graph ('-': standard output)\n"
		"  --flamegraph-order flame|icicle, --icicle   root at the bottom (flame,\n"
		"             the default) or at the top (icicle)\n"
		"  --perf-script file   the stacks as perf script's text (speedscope, the\n"
		"             Firefox Profiler, stackcollapse-perf.pl)\n"
		"  --pprof file   the stacks as pprof's profile.proto, gzipped\n"
		"  -z depth   the chains cut to depth frames (-G: default 16)\n"
		"  -A         the sampled function (the leaf) named by its address\n"
		"  -I         functions named by offsets into them ('name+0x4')\n"
		"  -m file    each sampled PC, its function and the function's address range\n"
		"  -a file    each sample's frames: address, function, file:line; then --\n"
		"  -g         gprof profiles: EVENT/OBJECT.gmon, for 'gprof OBJECT FILE'\n"
		"  -D dir     -g's files in dir (default: the current directory)\n"
		"  -M mapfile   -g: each object and its profile's name to mapfile\n"
		"  -e         -g: 32-bit histogram bins, in BSD's format (FreeBSD's gprof)\n"
		"  --comm name, --pid pid   only samples of these processes\n"
		"  -i lwp     only samples of these threads (a list, or -i again)\n"
		"  -r fsroot  the log's files under fsroot (another machine's, a container's)\n"
		"  -k kerneldir   kernel symbols from kerneldir/kallsyms or System.map,\n"
		"             or a file (default /proc/kallsyms)\n"
		"  --no-demangle   C++ and Rust functions by their symbols' raw names\n"
		"  --lines    functions as 'name (file:line)', where DWARF tells;\n"
		"             with -D, each frame's line and inlined functions\n"
		"  --unwind-threads n   unwind --call-graph dwarf samples on n threads\n"
		"             (default 0: one per CPU online; 1: the reading thread)\n"
		"  --debug-dir dir   look for separate debug files in dir first\n"
		"             (default $HWPMC_DEBUG_DIR; then /usr/lib/debug)\n"
		"  --annotate symbol[@object]   the function's instructions with their\n"
		"             samples, among its source lines (instead of the flat profile)\n"
		"  -u spec    describe the event of spec: PMU, encoding, description\n"
		"  -L         list the events (the CPU's vendor events last)\n"
		"Events: hwpmc-control -L; spec is 'event[:u|:k][,usr|,os][,qualifier...]'\n"
		"or perf's 'cpu/term,.../' (pmc(3)).\n",
		MINWAIT, TTYWAIT, DEFWAIT);
	exit(0);
}

/* --pid, -i: a list "1,2,3" added to v[0..*n) */
static void parse_pids(const char *s, pid_t **v, int *n, const char *what)
{
	const char *arg = s;
	char *end;
	long x;

	for (;;) {
		errno = 0;
		x = strtol(s, &end, 10);
		if (errno || end == s || x < 0 || x > INT32_MAX)
			usage("bad %s list '%s'", what, arg);
		*v = realloc(*v, (size_t)(*n + 1) * sizeof(pid_t));
		if (!*v)
			exit(1);
		(*v)[(*n)++] = (pid_t)x;
		if (!*end)
			return;
		if (*end != ',')
			usage("bad %s list '%s'", what, arg);
		s = end + 1;
	}
}

/* -p, -s, -P, -S: an event, with the toggles and lists given before it */
static void opt_event(struct opts *o, const struct toggles *t, int opt)
{
	struct want *w;

	if (o->nwant == MAXSPEC)
		usage("too many events (at most %d)", MAXSPEC);
	w = &o->want[o->nwant++];
	w->spec = optarg;
	w->mode = opt == 'p' ? PMC_MODE_TC : opt == 's' ? PMC_MODE_SC :
		  opt == 'P' ? PMC_MODE_TS : PMC_MODE_SS;
	w->flags = 0;
	if ((opt == 'p' || opt == 'P') && t->descendants)
		w->flags |= PMC_F_DESCENDANTS;
	if (opt == 'P') {
		if (t->procexit)
			w->flags |= PMC_F_LOG_PROCEXIT;
		if (t->proccsw)
			w->flags |= PMC_F_LOG_PROCCSW;
	}
	if ((opt == 'P' || opt == 'S') && t->callchains) {
		w->flags |= PMC_F_CALLCHAIN;
		if (t->userchains)
			w->flags |= PMC_F_USERCALLCHAIN;
	}
	w->rate = t->rate;
	w->cpus = t->cpus;
	o->nsampling += opt == 'P' || opt == 'S';
}

/* --call-graph fp|dwarf[,size], as perf spells it: o->stacksize */
static void opt_callgraph(struct opts *o, const char *arg)
{
	unsigned long size = 8192;
	char *end;

	if (!strcmp(arg, "fp")) {
		o->stacksize = 0;
		return;
	}
	if (strncmp(arg, "dwarf", 5) || (arg[5] && arg[5] != ','))
		usage("--call-graph %s: give fp or dwarf[,size]", arg);
	if (!unwind_available())
		usage("--call-graph dwarf is not available: built without libdw "
		      "(elfutils); use --call-graph fp");
	if (arg[5] == ',') {
		errno = 0;
		size = strtoul(arg + 6, &end, 0);
		if (errno || end == arg + 6 || *end || arg[6] == '-' ||
		    size < 8 || size > PMC_STACK_USER_MAX)
			usage("--call-graph %s: the stack size is from 8 to %d bytes",
			      arg, PMC_STACK_USER_MAX);
		size = (size + 7) & ~7UL;	/* perf rounds up to 8 too */
	}
	o->stacksize = (uint32_t)size;
}

/* -l, -w: seconds, at least MINWAIT, at most max */
static double opt_seconds(const char *what, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(optarg, &end);
	if (errno || end == optarg || *end || !isfinite(v) || v < MINWAIT ||
	    v > max)
		usage("bad %s '%s' (seconds, at least %.1f)", what, optarg,
		      MINWAIT);
	return v;
}

/* The toggles and lists that apply to the events after them; 1: opt's. */
static int opt_toggle(struct opts *o, struct toggles *t, int opt)
{
	char *end;

	switch (opt) {
	case 'c':
		t->cpus = optarg;
		break;
	case 'd':
		t->descendants = !t->descendants;	/* a toggle, as pmcstat's */
		break;
	case 'E':
		t->procexit = !t->procexit;
		break;
	case 'N':
		t->callchains = !t->callchains;
		break;
	case 'W':
		t->proccsw = !t->proccsw;
		break;
	case 'U':
		t->userchains = !t->userchains;
		break;
	case 'n':
		errno = 0;
		t->rate = strtoull(optarg, &end, 0);
		if (errno || end == optarg || *end || !t->rate ||
		    optarg[0] == '-')
			usage("bad sampling rate '%s' (events per sample, > 0)",
			      optarg);
		break;
	case 'P':
	case 'S':
	case 'p':
	case 's':
		opt_event(o, t, opt);
		break;
	case OPT_METRICS:
		if (o->nmarg == MAXSPEC)
			usage("too many --metrics (at most %d)", MAXSPEC);
		o->marg[o->nmarg++] = optarg;
		if (t->descendants)
			o->mflags = PMC_F_DESCENDANTS;
		break;
	default:
		return 0;
	}
	return 1;
}

/* The options of a counting or sampling run; 1: opt was one. */
static int opt_run(struct opts *o, int opt)
{
	switch (opt) {
	case 'C':
		o->cumulative = 1;
		break;
	case 'O':
		o->logfile = optarg;
		break;
	case OPT_KPROF:
		o->kprof = 1;
		break;
	case 'o':
		o->outfile = optarg;
		break;
	case OPT_SUMMARY:
		o->summary = 1;
		break;
	case OPT_LIST_METRICS:
		o->listm = 1;
		break;
	case 'q':
		quiet = 1;
		o->rep.ro.quiet = 1;
		break;
	case 'R':
		o->rfile = optarg;
		break;
	case 'T':
		o->top = 1;
		break;
	case 'l':
		o->duration = opt_seconds("duration", 1e7);
		break;
	case 't':
		if (o->ntspec == MAXSPEC)
			usage("too many -t (at most %d)", MAXSPEC);
		o->tspec[o->ntspec++] = optarg;
		break;
	case 'u':
		o->describe = optarg;
		break;
	case 'v':
		verbose = 1;
		break;
	case 'w':
		o->interval = opt_seconds("interval", 1e6);
		break;
	case 'X':
		o->outfmt = OUT_CSV;
		break;
	case 'J':
		o->outfmt = OUT_JSON;
		break;
	case 'L':
		o->listev = 1;
		break;
	default:
		return 0;
	}
	return 1;
}

/* -D dir: a directory, as pmcstat's */
static void opt_samplesdir(struct reports *r)
{
	struct stat st;

	if (stat(optarg, &st) < 0)
		usage("-D %s: %s", optarg, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		usage("-D %s: not a directory", optarg);
	r->gmondir = optarg;
}

/* -f: pmcstat's plugin options, threshold=PERCENT and skiplink=0|1 */
static void opt_plugin(struct reports *r)
{
	char *end;
	double v;

	if (!strncmp(optarg, "threshold=", 10)) {
		errno = 0;
		v = strtod(optarg + 10, &end);
		if (errno || end == optarg + 10 || *end || !isfinite(v) ||
		    v < 0 || v > 100)
			usage("-f %s: bad threshold (a percentage, 0 to 100)", optarg);
		r->ro.threshold = v;
	} else if (!strcmp(optarg, "skiplink=0") || !strcmp(optarg, "skiplink=1")) {
		/* calltree's top view (absent here): accepted as pmcstat's */
	} else {
		usage("-f %s: unknown option (threshold=PERCENT, skiplink=0|1)",
		      optarg);
	}
	r->fopt = 1;
}

/* The reports' files; 1: opt was one. */
static int opt_report_file(struct reports *r, int opt)
{
	switch (opt) {
	case OPT_DUMP:
		r->dump = 1;
		break;
	case OPT_FOLDED:
		r->folded = optarg;
		break;
	case OPT_GRAPH:
		r->graph = optarg;
		break;
	case 'F':
		r->calltree = optarg;
		break;
	case 'G':
		r->callchain = optarg;
		break;
	case 'D':
		opt_samplesdir(r);
		break;
	case 'M':
		r->gmonmap = optarg;
		break;
	case 'e':
		r->gmonwide = 1;
		break;
	case 'f':
		opt_plugin(r);
		break;
	case OPT_FLAME:
		r->flame = optarg;
		break;
	case OPT_PERFSCRIPT:
		r->perfscript = optarg;
		break;
	case OPT_PPROF:
		r->pprof = optarg;
		break;
	case 'm':
		r->pcs = optarg;
		break;
	case 'a':
		r->addrs = optarg;
		sym_addrlines = 1;
		break;
	case 'g':
		r->gmon = 1;
		break;
	case OPT_ANNOTATE:
		if (!*optarg || *optarg == '@')
			usage("bad --annotate '%s' (symbol or symbol@object)", optarg);
		r->ro.annotate = optarg;
		break;
	default:
		return 0;
	}
	return 1;
}

/* How the reports show samples, and which; 1: opt was one of these. */
static int opt_report_how(struct reports *r, int opt)
{
	char *end;
	long depth;

	switch (opt) {
	case 'K':
		r->ro.comm = optarg;
		break;
	case OPT_FLAME_ORDER:
		if (!strcmp(optarg, "icicle"))
			r->ro.icicle = 1;
		else if (!strcmp(optarg, "flame"))
			r->ro.icicle = 0;
		else
			usage("bad --flamegraph-order '%s' (flame or icicle)", optarg);
		break;
	case OPT_ICICLE:
		r->ro.icicle = 1;
		break;
	case OPT_PID:
		parse_pids(optarg, &r->ro.pids, &r->ro.npid, "pid");
		break;
	case 'i':
		parse_pids(optarg, &r->ro.tids, &r->ro.ntid, "thread id");
		break;
	case 'z':
		errno = 0;
		depth = strtol(optarg, &end, 10);
		if (errno || end == optarg || *end || depth < 1 ||
		    depth > PMC_CALLCHAIN_DEPTH_MAX)
			usage("bad call graph depth '%s' (-z: 1 to %d frames)",
			      optarg, PMC_CALLCHAIN_DEPTH_MAX);
		r->ro.graphdepth = (int)depth;
		break;
	case OPT_UNWIND_THREADS:
		errno = 0;
		depth = strtol(optarg, &end, 10);
		if (errno || end == optarg || *end || depth < 0 || depth > 64)
			usage("bad --unwind-threads '%s' (0 to 64; 0: one per CPU)",
			      optarg);
		r->ro.threads = (int)depth;
		break;
	case 'A':
		r->ro.addresses = 1;
		break;
	case 'I':
		r->ro.addresses = 2;
		break;
	default:
		return 0;
	}
	return 1;
}

/* Where symbols come from and how they are named; 1: opt was one. */
static int opt_symbols(int opt)
{
	switch (opt) {
	case 'r':
		if (!*optarg)
			usage("bad -r '' (the directory the log's paths are under)");
		sym_root = strcmp(optarg, "/") ? optarg : "";
		break;
	case 'k':
		sym_kernel_path = optarg;
		break;
	case OPT_NO_DEMANGLE:
		sym_demangle = 0;
		break;
	case OPT_LINES:
		sym_lines = 1;
		break;
	case OPT_DEBUG_DIR:
		sym_debug_dir = optarg;
		break;
	default:
		return 0;
	}
	return 1;
}

void opts_parse(struct opts *o, int argc, char **argv)
{
	struct toggles t = { .cpus = "*", .callchains = 1 };
	int opt;

	opterr = 0;		/* our messages: pmcstat's options named */
	while ((opt = getopt_long(argc, argv, OPTSTRING, longopts, NULL)) != -1) {
		if (opt_toggle(o, &t, opt) || opt_run(o, opt) ||
		    opt_report_file(&o->rep, opt) ||
		    opt_report_how(&o->rep, opt) || opt_symbols(opt))
			continue;
		switch (opt) {
		case OPT_CALLGRAPH:
			opt_callgraph(o, optarg);
			continue;
		case 'h':
			usage(NULL);
		case ':':
			if (optopt == 'D')	/* hwpmc-stat's -D was the dump */
				usage("option -D needs an argument: the directory of "
				      "-g's files (the log as text is --dump)");
			if (optopt > ' ' && optopt < 127)
				usage("option -%c needs an argument", optopt);
			usage("option %s needs an argument", argv[optind - 1]);
		default:
			if (optopt > ' ' && optopt < 127)
				usage("unknown option -%c", optopt);
			usage("unknown option %s", argv[optind - 1]);
		}
	}
	o->argc = argc - optind;
	o->argv = argv + optind;
	o->rep.out = o->outfile;
	/* --call-graph dwarf: every sampling PMC with call chains (not -N) */
	for (opt = 0; opt < o->nwant && o->stacksize; opt++)
		if (PMC_IS_SAMPLING_MODE(o->want[opt].mode) &&
		    (o->want[opt].flags & PMC_F_CALLCHAIN)) {
			o->want[opt].flags |= PMC_F_USERSTACK;
			o->want[opt].stacksize = o->stacksize;
		}
}

/*
 * The checks of the reports (of a run or of -R).  --metrics' names are
 * looked up before (parse_metrics()).
 */
void opts_check_reports(const struct opts *o)
{
	if (o->nmarg && !o->ntspec && !o->argc)
		usage("--metrics needs a command or -t pid");
	if (stdout_clash(&o->rep))
		usage("%s", stdout_clash(&o->rep));
	if (o->rep.pprof && !pprof_available())
		usage("--pprof is not available: built without protobuf-c and zlib");
	if (o->rep.ro.annotate && annot_available())
		usage("--annotate is not available: %s", annot_available());
	/* pmcstat's: -D, -M and -e go with -g; -f with a report it tunes */
	if (o->rep.gmondir && !o->rep.gmon)
		usage("option -D is only used with -g");
	if (o->rep.gmonmap && !o->rep.gmon)
		usage("option -M is only used with -g");
	if (o->rep.gmonwide && !o->rep.gmon)
		usage("option -e requires gprof mode to be specified (-g)");
	if (o->rep.fopt && !o->top && !o->rep.gmon && !o->rep.callchain &&
	    !o->rep.calltree && !o->rep.pcs)
		usage("option -f needs -g, -G, -F, -m or -T");
}

/* A sampling report asked for (which needs -P or -S, and no -O). */
static int want_report(const struct reports *r)
{
	return r->dump || r->graph || r->callchain || r->calltree ||
	       r->pcs || r->addrs || r->gmon ||
	       want_stacks(r) || r->ro.annotate;
}

void opts_check(struct opts *o)
{
	int i, has_target = o->ntspec || o->argc;

	if (!o->nwant && !o->nmarg && !o->kprof)
		usage("no event: give -p, -s, -P or -S (or --metrics, --kernel-profiles)");
	if (o->ntspec && o->argc)
		usage("-t and a command exclude each other");
	for (i = 0; i < o->nwant; i++)
		if ((o->want[i].mode == PMC_MODE_TC ||
		     o->want[i].mode == PMC_MODE_TS) && !has_target)
			usage("-%c needs a command or -t pid",
			      o->want[i].mode == PMC_MODE_TC ? 'p' : 'P');
	if (!opts_sampling(o) && (o->logfile || o->top || want_report(&o->rep)))
		usage("-O, -T, -G, -F, -m, -a, -g, --dump, --graph, --folded, --flamegraph, "
		      "--perf-script, --pprof and --annotate need a sampling event (-P or -S) "
		      "or --kernel-profiles");
	if (o->top && o->rep.ro.annotate)
		usage("-T and --annotate exclude each other");
	if (o->logfile && want_report(&o->rep))
		usage("-O writes the log, no report: use -R on it afterwards");
	if (o->top && o->logfile && is_host_port(o->logfile))
		usage("-T reads the log back: -O host:port cannot be read");
	if (o->top && !isatty(STDOUT_FILENO))
		usage("-T needs a terminal on standard output");
#ifndef HWPMC_WITH_CURSES
	if (o->top)
		usage("-T is not available: built without ncurses");
#endif
	/* system counting with no end: print every 5 s, as pmcstat */
	if (!has_target && o->interval == 0 && o->nwant > o->nsampling)
		o->interval = DEFWAIT;
	if (o->top && o->interval == 0)
		o->interval = TOPWAIT;
}
