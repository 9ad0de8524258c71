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
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <netdb.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pmc.h>
#include <linux/perf_event.h>

#include "pmcstat.h"
#include "pmcstat_metric.h"

#ifndef HWPMC_STATIC
#define HWPMC_STATIC	0
#endif

#define EX_USAGE	64
#define MAXSPEC		256	/* -p and -s options */
#define MINWAIT		0.1	/* -w: --csv, --json, files and pipes */
#define TTYWAIT		1.0	/* -w: text on a terminal, -T: no faster than a person reads */
#define DEFWAIT		5.0	/* pmcstat's interval, for runs with no end */
#define TOPWAIT		1.0	/* -T: refresh */

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
};

#define OPTSTRING	"+:ACc:DdEF:G:ghIi:k:Ll:m:Nn:O:o:P:p:qR:r:S:s:Tt:Uu:vWw:a:z:"
#define RATE_PMU	65536		/* pmcstat's default sampling rate */
#define RATE_CLOCK	1000000		/* cpu-clock, task-clock: 1 ms in ns */
#define RATE_SOFT	1000		/* other soft events: hwpmc's mincount */

struct ctr {
	const char	*spec;
	enum pmc_mode	mode;
	uint32_t	flags;
	uint64_t	count;		/* sampling: the reload count */
	int		cpu;		/* system scope */
	pmc_id_t	id;
	pmc_value_t	last;		/* at the previous interval */
	pmc_value_t	shown;		/* in the latest row */
	int		width;		/* of its column */
	int		uncounted;	/* ENODATA: perf did not schedule it */
};

/* --metrics: a metric of the CPU's table, its events counted as -p's */
struct mreq {
	int		index;
	struct metric_info mi;
	int		ok;		/* its events are counted */
	char		why[360];	/* else: why not */
};

static struct ctr *ctrs;
static int nctr;
static unsigned char *cpus;		/* CPU set of a -c list */
static double t0;			/* when counting started */
static volatile sig_atomic_t interrupted;
static pid_t child = -1;
static const char *prog = "hwpmc-stat";
static int verbose, quiet;
static enum { OUT_TEXT, OUT_CSV, OUT_JSON } outfmt = OUT_TEXT;
static struct mreq *mreqs;		/* --metrics */
static int nmreq, mtable = -1;
static struct metric_env menv;
static int summary;			/* --summary, or --metrics: perf stat's layout */
static double tprev;			/* when the previous row was printed */
static char title[256];			/* "'command args'", "process 123" */

#define SAMPLING(c)	PMC_IS_SAMPLING_MODE((c)->mode)

static void usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void usage(const char *fmt, ...)
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
		"       %s [-E] [-N] [-U] [-W] [-c cpus] [-d] [-l secs] [-n rate] [-O logfile] [-T]\n"
		"           [report options] {-P spec | -S spec} ... [-t process-spec ... | command]\n"
		"       %s -R logfile [report options]\n"
		"  report options: [-ADgI] [-F file] [-G file] [-a file] [-m file] [-o file] [-z depth]\n"
		"           [-i tid] [--comm name] [--pid pid] [-k kerneldir] [-r fsroot]\n"
		"           [--flamegraph file.svg [--icicle]] [--perf-script file] [--pprof file]\n"
		"           [--no-demangle] [--lines] [--debug-dir dir] [--annotate symbol[@object]]\n"
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
		"  -U         (pmcstat's) user call chains under kernel samples: always\n"
		"  -E, -W     toggle: LOG_PROCEXIT, LOG_PROCCSW for the following -P\n"
		"  -O file    write the log to file, no report (host:port: over TCP)\n"
		"  -T         live top display (ncurses), refreshed every second (-w)\n"
		"Reports, of a sampling run or of a log (-R file):\n"
		"  -D         dump the log's records as text\n"
		"  -G file    call graph to file ('-': standard output)\n"
		"  -F file    folded stacks for flame graphs to file ('-': standard output)\n"
		"  --flamegraph file.svg   an interactive SVG flame graph ('-': standard output)\n"
		"  --flamegraph-order flame|icicle, --icicle   root at the bottom (flame,\n"
		"             the default) or at the top (icicle)\n"
		"  --perf-script file   the stacks as perf script's text (speedscope, the\n"
		"             Firefox Profiler, stackcollapse-perf.pl)\n"
		"  --pprof file   the stacks as pprof's profile.proto, gzipped\n"
		"  -z depth   -G, -F and the stacks: chains cut to depth frames\n"
		"  -A, -I     functions named by their addresses (link-time), or by\n"
		"             offsets into them ('name+0x4')\n"
		"  -m file    each sampled PC, its function and the function's address range\n"
		"  -a file    each sample's frames: address, function, file:line; then --\n"
		"  -g         gprof profiles: EVENT/OBJECT.gmon here, for 'gprof OBJECT FILE'\n"
		"  --comm name, --pid pid   only samples of these processes\n"
		"  -i tid     only samples of these threads (a list, or -i again)\n"
		"  -r fsroot  the log's files under fsroot (another machine's, a container's)\n"
		"  -k kerneldir   kernel symbols from kerneldir/kallsyms or System.map,\n"
		"             or a file (default /proc/kallsyms)\n"
		"  --no-demangle   C++ and Rust functions by their symbols' raw names\n"
		"  --lines    functions as 'name (file:line)', where DWARF tells;\n"
		"             with -D, each frame's line and inlined functions\n"
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

static uint64_t default_rate(const char *spec);

/*
 * pmcstat's -u: describe the event of spec (no module needed).  Returns
 * the exit status.
 */
static int describe_event(const char *spec)
{
	struct pmc_op_pmcallocate pa;
	struct pmc_pmu_event_info info;
	const char *id = pmc_pmu_cpuid(), *model = pmc_pmu_model();
	char err[512], name[256];
	int idx = -1;
	size_t n;

	if (pmc_parse_spec(spec, &pa, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return EX_USAGE;
	}
	/* the event's name: up to the first ':' or ',' (not perf's form) */
	n = strcspn(spec, ":,/");
	if (spec[n] != '/' && n < sizeof(name)) {
		memcpy(name, spec, n);
		name[n] = '\0';
		idx = pmc_pmu_idx_get_by_event(NULL, name);
	}
	printf("event:    %s\n", spec);
	if (pa.pm_ev == PMC_EV_PMU_RAW && idx >= 0 &&
	    pmc_pmu_event_info(idx, &info) == 0) {
		printf("name:     %s (%s events of CPU %s)\n", info.pe_name,
		       model ? model : "?", id ? id : "?");
		printf("pmu:      the core PMU, as a raw event\n");
		printf("encoding: %s\n", info.pe_encoding);
		if (*info.pe_topic)
			printf("topic:    %s\n", info.pe_topic);
		if (info.pe_period)
			printf("period:   %llu\n",
			       (unsigned long long)info.pe_period);
		if (info.pe_precise)
			printf("precise:  can be\n");
		if (*info.pe_desc)
			printf("desc:     %s\n", info.pe_desc);
	} else if (pa.pm_ev == PMC_EV_PMU_RAW) {
		printf("pmu:      the core PMU, as a raw event\n");
	} else {
		const char *ev = pmc_name_of_event((enum pmc_event)pa.pm_ev);

		printf("name:     %s\n", ev ? ev : "?");
		printf("pmu:      %s\n", pa.pm_class == PMC_CLASS_SOFT ?
		       "software (perf's PERF_TYPE_SOFTWARE)" :
		       pa.pm_ev >= PMC_EV_PMU_CACHE_FIRST &&
		       pa.pm_ev <= PMC_EV_PMU_CACHE_LAST ?
		       "the core PMU (perf's generic cache event)" :
		       "the core PMU (perf's generic hardware event)");
	}
	if (pa.pm_ev == PMC_EV_PMU_RAW)
		printf("config:   %#llx, config1 %#llx, config2 %#llx\n",
		       (unsigned long long)pa.pm_md.pm_pmu.pm_config,
		       (unsigned long long)pa.pm_md.pm_pmu.pm_config1,
		       (unsigned long long)pa.pm_md.pm_pmu.pm_config2);
	if (pa.pm_class == PMC_CLASS_PMU || pa.pm_class == PMC_CLASS_SOFT)
		printf("rate:     %llu (-P and -S without -n)\n",
		       (unsigned long long)default_rate(spec));
	printf("modes:    %s%s\n",
	       (pa.pm_caps & (PMC_CAP_USER | PMC_CAP_SYSTEM)) == PMC_CAP_USER ?
	       "user only" : (pa.pm_caps & (PMC_CAP_USER | PMC_CAP_SYSTEM)) ==
	       PMC_CAP_SYSTEM ? "kernel only" : "user and kernel",
	       pa.pm_caps & PMC_CAP_PRECISE ? ", precise" : "");
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

/* A CPU list: "*", or "0,2-5"; bit i of the result set for CPU i. */
static int parse_cpus(const char *s, unsigned char *set, int ncpu)
{
	char *end;
	long a, b;

	memset(set, 0, (size_t)ncpu);
	if (!strcmp(s, "*")) {
		memset(set, 1, (size_t)ncpu);
		return 0;
	}
	while (*s) {
		errno = 0;
		a = strtol(s, &end, 10);
		if (end == s || errno || a < 0)
			return -1;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || errno || b < a)
				return -1;
		}
		if (b >= ncpu)
			return -1;
		for (; a <= b; a++)
			set[a] = 1;
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return 0;
}

static void on_signal(int sig)
{
	interrupted = 1;
	if (child > 0)
		kill(child, sig);
}

/* The module's per-user limit of hardware events, as text ("N"). */
static const char *counters_limit(void)
{
	static char buf[16] = "N";
	FILE *f = fopen("/sys/module/hwpmc/parameters/unprivileged_counters",
			"r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			strcpy(buf, "N");
		buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
	return buf;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Allocate one PMC.  A PMU event given without a mode counts both; when
 * the module refuses that to an unprivileged caller (EPERM), count user
 * mode only, as perf does for unprivileged users.  SOFT events count
 * both modes for everyone.
 */
static int allocate(struct ctr *c)
{
	struct pmc_op_pmcallocate pa;
	char spec[600], err[256];

	if (!pmc_allocate(c->spec, c->mode, c->flags, c->cpu, &c->id, c->count))
		return 0;
	if (errno == EPERM && (c->mode == PMC_MODE_TC || c->mode == PMC_MODE_TS) &&
	    !pmc_parse_spec(c->spec, &pa, err, sizeof(err)) &&
	    pa.pm_class == PMC_CLASS_PMU && !pa.pm_caps) {
		snprintf(spec, sizeof(spec), "%s,usr", c->spec);
		if (!pmc_allocate(spec, c->mode, c->flags, c->cpu, &c->id,
				  c->count)) {
			if (verbose)
				fprintf(stderr, "%s: %s: counting user mode only (kernel mode needs CAP_PERFMON)\n",
					prog, c->spec);
			return 0;
		}
		errno = EPERM;
	}
	fprintf(stderr, "%s: cannot allocate %s\n", prog,
		pmc_allocate_message());
	return -1;
}

static const char *label(const struct ctr *c, char *buf, size_t len)
{
	if (c->mode == PMC_MODE_SC)
		snprintf(buf, len, "s/%02d/%s", c->cpu, c->spec);
	else
		snprintf(buf, len, "p/%s", c->spec);
	return buf;
}

/* pmcstat's columns: as wide as the counter's digits, or its label. */
static void set_widths(void)
{
	char buf[600];
	uint32_t bits;
	int i, w;

	for (i = 0; i < nctr; i++) {
		if (SAMPLING(&ctrs[i]))
			continue;
		if (pmc_width(ctrs[i].id, &bits) < 0 || !bits || bits > 64)
			bits = 64;
		w = (int)(bits / 3.32193) + 1;
		if ((int)strlen(label(&ctrs[i], buf, sizeof(buf))) > w)
			w = (int)strlen(buf);
		ctrs[i].width = w;
	}
}

static void print_header(FILE *out)
{
	char buf[600];
	int i;

	if (quiet)
		return;
	if (outfmt == OUT_CSV) {
		fprintf(out, "time,event,scope,cpu,value%s\n", nmreq ? ",unit" : "");
		return;
	}
	if (outfmt != OUT_TEXT)
		return;
	fprintf(out, "#");
	for (i = 0; i < nctr; i++)
		if (!SAMPLING(&ctrs[i]))
			fprintf(out, " %*s", ctrs[i].width,
				label(&ctrs[i], buf, sizeof(buf)));
	fputc('\n', out);
}

/* s as a CSV field (RFC 4180): quoted when it holds , " or a newline */
static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* s as a JSON string */
static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

/* The first counting (not sampling) PMC. */
static const struct ctr *first_counter(void)
{
	int i;

	for (i = 0; i < nctr; i++)
		if (!SAMPLING(&ctrs[i]))
			return &ctrs[i];
	return NULL;
}

static int ncounters(void)
{
	int i, n = 0;

	for (i = 0; i < nctr; i++)
		n += !SAMPLING(&ctrs[i]);
	return n;
}

/*
 * Read every counter: its value since the previous row, or since the
 * start (cumulative), into shown; the metrics' duration_time with it.
 * Returns the time since the start.
 */
static double read_row(int cumulative)
{
	double t = now() - t0;
	pmc_value_t v;
	int i;

	for (i = 0; i < nctr; i++) {
		struct ctr *c = &ctrs[i];

		if (SAMPLING(c))
			continue;
		if (pmc_read(c->id, &v) < 0) {
			if (errno == ENODATA)
				c->uncounted = 1;
			v = c->last;
		}
		c->shown = cumulative ? v : v - c->last;
		c->last = v;
	}
	menv.duration = cumulative ? t : t - tprev;
	tprev = t;
	return t;
}

/* --metrics: the count of spec in the latest row (its process-scope PMC). */
static int metric_count_cb(void *arg, const char *spec, double *v)
{
	int i;

	(void)arg;
	for (i = 0; i < nctr; i++)
		if (ctrs[i].mode == PMC_MODE_TC && !strcmp(ctrs[i].spec, spec)) {
			*v = (double)ctrs[i].shown;
			return ctrs[i].uncounted ? -1 : 0;
		}
	return -1;
}

/* --metrics: metric m's value in the latest row, scaled: 0, or -1 with why. */
static int metric_shown(const struct mreq *m, double *v, char *why,
			size_t len)
{
	if (!m->ok) {
		snprintf(why, len, "not supported: %s", m->why);
		return -1;
	}
	if (metric_value(mtable, m->index, &menv, v, why, len) < 0)
		return -1;
	*v *= m->mi.scale;
	if (!isfinite(*v)) {
		snprintf(why, len, "not a finite number");
		return -1;
	}
	return 0;
}

/* --metrics: the metrics of the latest row, as CSV rows or JSON members. */
static void print_metrics(FILE *out, int final, double t)
{
	char why[400];
	double v;
	int k, ok;

	if (outfmt == OUT_JSON)
		fprintf(out, ",\"metrics\":[");
	for (k = 0; k < nmreq; k++) {
		const struct mreq *m = &mreqs[k];

		ok = metric_shown(m, &v, why, sizeof(why)) == 0;
		if (outfmt == OUT_CSV) {
			if (final)
				fputs("total,", out);
			else
				fprintf(out, "%.3f,", t);
			csv_field(out, m->mi.name);
			fputs(",metric,,", out);
			if (ok)
				fprintf(out, "%.6g", v);
			fputc(',', out);
			csv_field(out, m->mi.unit);
			fputc('\n', out);
		} else if (outfmt == OUT_JSON) {
			fprintf(out, "%s{\"metric\":", k ? "," : "");
			json_string(out, m->mi.name);
			if (ok)
				fprintf(out, ",\"value\":%.6g", v);
			else
				fprintf(out, ",\"value\":null");
			fprintf(out, ",\"unit\":");
			json_string(out, m->mi.unit);
			if (!ok) {
				fprintf(out, ",\"error\":");
				json_string(out, why);
			}
			fputc('}', out);
		} else if (ok) {
			fprintf(out, "# %12.2f%s%s  %s\n", v, *m->mi.unit ? " " : "",
				m->mi.unit, m->mi.name);
		} else {
			fprintf(out, "# %12s %s (%s)\n", "n/a", m->mi.name, why);
		}
	}
	if (outfmt == OUT_JSON)
		fputc(']', out);
}

/*
 * print_row()'s cell of counter c: its value, or <not counted> when perf
 * could not always schedule it (a partial count is never shown as a
 * whole one).
 */
static void print_cell(FILE *out, const struct ctr *c, int final, double t)
{
	char num[24];
	const char *v = "<not counted>";

	if (!c->uncounted) {
		snprintf(num, sizeof(num), "%ju", (uintmax_t)c->shown);
		v = num;
	}
	switch (outfmt) {
	case OUT_TEXT:
		fprintf(out, " %*s", c->width, v);
		break;
	case OUT_CSV:
		if (final)
			fputs("total,", out);
		else
			fprintf(out, "%.3f,", t);
		csv_field(out, c->spec);
		fprintf(out, ",%s,", c->mode == PMC_MODE_SC ?
			"system" : "process");
		if (c->mode == PMC_MODE_SC)
			fprintf(out, "%d", c->cpu);
		fprintf(out, ",%s%s\n", v, nmreq ? "," : "");
		break;
	case OUT_JSON:
		fprintf(out, "%s{\"event\":", c > first_counter() ? "," : "");
		json_string(out, c->spec);
		fprintf(out, ",\"scope\":\"%s\",\"cpu\":",
			c->mode == PMC_MODE_SC ? "system" : "process");
		if (c->mode == PMC_MODE_SC)
			fprintf(out, "%d", c->cpu);
		else
			fputs("null", out);
		fprintf(out, ",\"value\":%s}",
			c->uncounted ? "null,\"counted\":false" : v);
		break;
	}
}

/*
 * One row: every counter's value since the previous row, or since the
 * start (cumulative).  final: the totals at the end, with the command's
 * exit status when known (status >= 0).
 */
static void print_row(FILE *out, int cumulative, int final, int status)
{
	double t = read_row(cumulative);
	int i;

	if (outfmt == OUT_TEXT)
		fputc(' ', out);
	else if (outfmt == OUT_JSON)
		fprintf(out, "{\"time\":%.3f,\"final\":%s,\"counters\":[", t,
			final ? "true" : "false");
	for (i = 0; i < nctr; i++)
		if (!SAMPLING(&ctrs[i]))
			print_cell(out, &ctrs[i], final, t);
	if (outfmt == OUT_TEXT) {
		fputc('\n', out);
		/* --metrics values at the end (-q, -w: rows keep pmcstat's columns) */
		if (final && nmreq)
			print_metrics(out, final, t);
	} else if (outfmt == OUT_JSON) {
		fputc(']', out);
		if (nmreq)
			print_metrics(out, final, t);
		if (final && status >= 0)
			fprintf(out, ",\"exit_status\":%d", status);
		fprintf(out, "}\n");
	} else if (nmreq) {
		print_metrics(out, final, t);
	}
	fflush(out);
}

/* Does spec name event (before its ':' or ',' modifiers)? */
static int spec_is(const char *spec, const char *event)
{
	size_t n = strcspn(spec, ":,");

	return strlen(event) == n && !strncmp(spec, event, n);
}

/*
 * --summary, --metrics: the totals in perf stat's layout, one counter a line,
 * with what perf stat says beside it (CPUs utilized, insn per cycle),
 * then the metrics and the time elapsed.
 */
static void print_summary(FILE *out)
{
	const struct ctr *cyc = NULL;
	double t = read_row(1), v;
	char buf[600], why[400];
	int i, k;

	for (i = 0; i < nctr && !cyc; i++)
		if (ctrs[i].mode == PMC_MODE_TC && spec_is(ctrs[i].spec, "cycles"))
			cyc = &ctrs[i];
	fprintf(out, "\n Performance counter stats for %s:\n\n", title);
	for (i = 0; i < nctr; i++) {
		const struct ctr *c = &ctrs[i];
		const char *name = c->mode == PMC_MODE_SC ?
				   label(c, buf, sizeof(buf)) : c->spec;

		if (SAMPLING(c))
			continue;
		if (c->uncounted) {
			fprintf(out, "%18s      %-25s\n", "<not counted>", name);
			continue;
		}
		if (spec_is(c->spec, "task-clock") || spec_is(c->spec, "cpu-clock")) {
			fprintf(out, "%18.2f msec %-25s", (double)c->shown / 1e6,
				name);
			if (c->mode == PMC_MODE_TC && t > 0)
				fprintf(out, " # %8.3f CPUs utilized",
					(double)c->shown / 1e9 / t);
		} else {
			fprintf(out, "%18ju      %-25s", (uintmax_t)c->shown, name);
			if (c->mode == PMC_MODE_TC && cyc && cyc->shown &&
			    !cyc->uncounted && spec_is(c->spec, "instructions"))
				fprintf(out, " # %8.2f  insn per cycle",
					(double)c->shown / (double)cyc->shown);
		}
		fputc('\n', out);
	}
	if (nmreq)
		fputc('\n', out);
	for (k = 0; k < nmreq; k++) {
		if (metric_shown(&mreqs[k], &v, why, sizeof(why)) == 0)
			fprintf(out, "%18.2f %-5s %-25s\n", v, mreqs[k].mi.unit,
				mreqs[k].mi.name);
		else
			fprintf(out, "%18s %-5s %-25s # %s\n", "n/a", "",
				mreqs[k].mi.name, why);
	}
	fprintf(out, "\n%18.9f seconds time elapsed\n\n", t);
	fflush(out);
}

/* A descriptor that polls readable when pid has exited, or -1. */
static int pid_fd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

/* Has the process pid (not our child) ended?  Zombies have. */
static int gone(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	int dead;

	if (kill(pid, 0) < 0 && errno == ESRCH)
		return 1;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	dead = fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) &&
	       (p[2] == 'Z' || p[2] == 'X');
	fclose(f);
	return dead;
}

/* Add a counter; 0, or -1 when out of memory. */
static struct ctr *new_ctr(void)
{
	static int room;
	struct ctr *n;

	if (nctr == room) {
		room = room ? room * 2 : 16;
		n = realloc(ctrs, (size_t)room * sizeof(*ctrs));
		if (!n) {
			fprintf(stderr, "%s: out of memory\n", prog);
			exit(1);
		}
		ctrs = n;
	}
	memset(&ctrs[nctr], 0, sizeof(ctrs[nctr]));
	return &ctrs[nctr++];
}

static void give_up(pid_t kid)
{
	if (kid > 0) {
		kill(kid, SIGKILL);
		waitpid(kid, NULL, 0);
	}
	exit(1);
}

/*
 * pmcstat's default rates: a vendor event's sample-after value from its
 * table (pmc_pmu_sample_rate_get(), as pmcstat), else 65536; and
 * sensible ones for Linux's soft events.
 */
static uint64_t default_rate(const char *spec)
{
	struct pmc_op_pmcallocate pa;
	char err[256], name[256];
	size_t n;

	if (pmc_parse_spec(spec, &pa, err, sizeof(err)) < 0)
		return RATE_PMU;
	if (pa.pm_class != PMC_CLASS_SOFT) {
		n = strcspn(spec, ":,/");
		if (pa.pm_ev != PMC_EV_PMU_RAW || spec[n] == '/' ||
		    n >= sizeof(name))
			return RATE_PMU;
		memcpy(name, spec, n);
		name[n] = '\0';
		return pmc_pmu_sample_rate_get(name);
	}
	if (pa.pm_ev == PMC_EV_SOFT_FIRST + PERF_COUNT_SW_CPU_CLOCK ||
	    pa.pm_ev == PMC_EV_SOFT_FIRST + PERF_COUNT_SW_TASK_CLOCK)
		return RATE_CLOCK;
	return RATE_SOFT;
}

static FILE *open_out(const char *path)
{
	FILE *f;

	if (!strcmp(path, "-"))
		return stdout;
	f = fopen(path, "we");
	if (!f) {
		fprintf(stderr, "%s: cannot create %s: %s\n", prog, path, strerror(errno));
		exit(1);
	}
	return f;
}

static int close_out(FILE *f, const char *path)
{
	int err = ferror(f);

	if (f == stdout) {
		if (!fflush(f) && !err)
			return 0;
	} else if (fclose(f) == 0 && !err) {
		return 0;
	}
	fprintf(stderr, "%s: cannot write %s: %s\n", prog,
		strcmp(path, "-") ? path : "standard output",
		err && !errno ? "write error" : strerror(errno));
	return -1;
}

struct reports {
	int		dump;
	const char	*graph, *folded, *out;
	const char	*flame, *perfscript, *pprof;
	const char	*pcs, *addrs;		/* -m, -a */
	int		gmon;			/* -g */
	struct report_opts ro;
};

/* reports made of the stacks */
static int want_stacks(const struct reports *r)
{
	return r->folded || r->flame || r->perfscript || r->pprof;
}

/* more than one report to standard output */
static const char *stdout_clash(const struct reports *r)
{
	const char *v[] = { r->graph, r->folded, r->pcs, r->addrs, r->flame,
			    r->perfscript, r->pprof };
	size_t i;
	int n = r->dump, added = 0;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (v[i] && !strcmp(v[i], "-")) {
			n++;
			added |= i >= 4;	/* -D, -G, -F, -m, -a mix, as before */
		}
	return n > 1 && added ? "--flamegraph, --perf-script and --pprof to "
				"standard output ('-'): no other report there" : NULL;
}

/*
 * The reports asked for, of the log read from fd (one pass); the flat
 * profile by default.  A progress line on stderr when it is a terminal
 * (and the dump does not go there).
 */
static int write_reports(int fd, const char *name, const struct reports *r,
			 FILE *out, struct log_summary *sum)
{
	struct report_outs ro = { 0 };
	struct report_opts o = r->ro;
	int rc = 0;

	if (r->dump)
		ro.dump = out;
	if (r->graph)
		ro.graph = open_out(r->graph);
	if (r->folded)
		ro.folded = open_out(r->folded);
	if (r->flame)
		ro.flame = open_out(r->flame);
	if (r->perfscript)
		ro.perfscript = open_out(r->perfscript);
	if (r->pprof)
		ro.pprof = open_out(r->pprof);
	if (r->ro.annotate)
		ro.annotate = out;
	if (r->pcs)
		ro.pcs = open_out(r->pcs);
	if (r->addrs)
		ro.addrs = open_out(r->addrs);
	if (r->gmon)
		ro.gmon = gmon_new();
	/*
	 * the flat profile, unless --annotate replaces it or another report
	 * takes standard output
	 */
	if (!r->dump && !r->ro.annotate && !(r->graph && !strcmp(r->graph, "-")) &&
	    !(r->pcs && !strcmp(r->pcs, "-")) &&
	    !(r->addrs && !strcmp(r->addrs, "-")) &&
	    !(r->folded && !strcmp(r->folded, "-")) &&
	    !(r->flame && !strcmp(r->flame, "-")) &&
	    !(r->perfscript && !strcmp(r->perfscript, "-")) &&
	    !(r->pprof && !strcmp(r->pprof, "-")))
		ro.flat = out;
	o.progress = !o.quiet && isatty(STDERR_FILENO) &&
		     !(r->dump && isatty(fileno(out)));
	if (report_log(fd, &ro, &o, sum) < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, name, strerror(errno));
		rc = -1;
	}
	if (sum->annotate_failed)
		rc = -1;
	if (ro.graph)
		rc |= close_out(ro.graph, r->graph);
	if (ro.folded)
		rc |= close_out(ro.folded, r->folded);
	if (ro.flame)
		rc |= close_out(ro.flame, r->flame);
	if (ro.perfscript)
		rc |= close_out(ro.perfscript, r->perfscript);
	if (ro.pprof)
		rc |= close_out(ro.pprof, r->pprof);
	if (ro.pcs)
		rc |= close_out(ro.pcs, r->pcs);
	if (ro.addrs)
		rc |= close_out(ro.addrs, r->addrs);
	if (ro.gmon && rc == 0 && gmon_write(ro.gmon, ".", r->ro.quiet) < 0)
		rc = -1;
	gmon_free(ro.gmon);
	if (!sum->stacked && !r->ro.quiet) {
		const char *v[] = { r->flame, r->perfscript, r->pprof };
		const char *what[] = { "a flame graph that says so",
				       "no sample in it", "a profile of none" };
		size_t i;

		for (i = 0; i < 3; i++)
			if (v[i])
				fprintf(stderr, "%s: %s: no samples to show: %s\n",
					prog, strcmp(v[i], "-") ? v[i] : "standard output",
					what[i]);
	}
	if (sum->bad)
		fprintf(stderr, "%s: warning: the log is malformed after byte %ju (%s): "
			"the rest is ignored\n", prog, (uintmax_t)sum->bad_offset,
			strerror(sum->bad_errno));
	return rc;
}

/* -R: reports from a log file ("-": standard input). */
static int report_file(const char *path, const struct reports *r)
{
	struct log_summary sum;
	FILE *out;
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	int rc;

	if (fd < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return 1;
	}
	out = r->out ? open_out(r->out) : stdout;
	rc = write_reports(fd, path, r, out, &sum);
	if (fd > 0)
		close(fd);
	if (sum.dropped_records)
		fprintf(stderr, "%s: warning: the log says %ju records were lost (DROPNOTIFY)\n",
			prog, (uintmax_t)sum.dropped_records);
	if (!sum.closed && !r->ro.quiet)
		fprintf(stderr, "%s: note: the log has no CLOSELOG record (cut short?)\n",
			prog);
	rc |= out == stdout ? 0 : close_out(out, r->out);
	sym_free();
	return rc ? 1 : 0;
}

static unsigned long tunable(const char *name)
{
	char path[128];
	unsigned long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/hwpmc/parameters/%s", name);
	f = fopen(path, "re");
	if (f) {
		if (fscanf(f, "%lu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/*
 * What the run lost, as pmcstat warns: samples (the per-CPU rings were
 * full) and log records (the log buffers were), from the driver
 * statistics (of every owner, as on FreeBSD) and the DROPNOTIFY records.
 */
static void warn_drops(const struct pmc_driverstats *a,
		       const struct pmc_driverstats *b,
		       const struct log_summary *sum)
{
	unsigned int full = b->pm_intr_bufferfull - a->pm_intr_bufferfull;
	unsigned int recs = b->pm_log_records_dropped - a->pm_log_records_dropped;
	unsigned int werr = b->pm_log_write_errors - a->pm_log_write_errors;

	if (full)
		fprintf(stderr, "%s: WARNING: %u samples were dropped (sample ring full): "
			"raise the nsamples tunable (now %lu; modprobe hwpmc nsamples=N)\n",
			prog, full, tunable("nsamples"));
	if (recs || sum->dropped_records)
		fprintf(stderr, "%s: WARNING: %ju log records were dropped (log buffers full): "
			"raise the logbuffersize (now %lu KB) or nbuffers_pcpu (now %lu) tunables\n",
			prog, (uintmax_t)(recs > sum->dropped_records ? recs :
					  sum->dropped_records),
			tunable("logbuffersize"), tunable("nbuffers_pcpu"));
	if (werr)
		fprintf(stderr, "%s: WARNING: %u log writes failed\n", prog, werr);
}

/*
 * Sampling PMCs whose counter perf could not always put on the PMU (every
 * hardware counter taken by pinned counters of others): their samples
 * are only those of the time it could.
 */
static void warn_uncounted(void)
{
	pmc_value_t v;
	int i;

	for (i = 0; i < nctr; i++)
		if (SAMPLING(&ctrs[i]) && pmc_read(ctrs[i].id, &v) < 0 &&
		    errno == ENODATA)
			fprintf(stderr, "%s: WARNING: '%s' was not always counted: "
				"the PMU's counters were taken by pinned counters of others "
				"(perf, the NMI watchdog); its samples are partial\n",
				prog, ctrs[i].spec);
}

/* A temporary log file: its write and read descriptors, already unlinked. */
static int temp_log(int *rfd)
{
	const char *dir = getenv("TMPDIR");
	char path[PATH_MAX];
	int wfd;

	snprintf(path, sizeof(path), "%s/hwpmc-stat.XXXXXX",
		 dir && *dir ? dir : "/tmp");
	wfd = mkostemp(path, O_CLOEXEC);
	if (wfd < 0)
		return -1;
	*rfd = open(path, O_RDONLY | O_CLOEXEC);
	unlink(path);
	if (*rfd < 0) {
		close(wfd);
		return -1;
	}
	return wfd;
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

/* --list-metrics: the metrics of the CPU's table (of group, if given). */
static int list_metrics(const char *group)
{
	const char *model = pmc_pmu_model(), *id = pmc_pmu_cpuid();
	int t = metric_table(model), i, n = 0;
	struct metric_info mi;

	if (t < 0) {
		fprintf(stderr, "%s: no metrics for CPU %s (%s)\n", prog,
			id ? id : "?", model ? "its pmu-events model has none" :
			"no pmu-events table");
		return 1;
	}
	printf("# metrics of %s (CPU %s): name [groups] unit\n", model,
	       id ? id : "?");
	for (i = 0; i < metric_count(t); i++) {
		if (metric_at(t, i, &mi) < 0 ||
		    (group && !metric_in_group(&mi, group)))
			continue;
		printf("%s [%s]%s%s\n    %s\n", mi.name, mi.groups,
		       *mi.unit ? " " : "", mi.unit, mi.desc);
		n++;
	}
	if (group && !n) {
		fprintf(stderr, "%s: no metric group '%s' for %s\n", prog,
			group, model);
		return 1;
	}
	return 0;
}

/* --metrics: add metric i of the table, once. */
static void add_mreq(int i)
{
	struct mreq *m;
	int k;

	for (k = 0; k < nmreq; k++)
		if (mreqs[k].index == i)
			return;
	m = realloc(mreqs, (size_t)(nmreq + 1) * sizeof(*m));
	if (!m) {
		fprintf(stderr, "%s: out of memory\n", prog);
		exit(1);
	}
	mreqs = m;
	memset(&m[nmreq], 0, sizeof(m[nmreq]));
	m[nmreq].index = i;
	metric_at(mtable, i, &m[nmreq].mi);
	nmreq++;
}

/* --metrics name[,name...]: metrics, or metric groups, by name. */
static void parse_metrics(const char *arg)
{
	const char *model = pmc_pmu_model(), *id = pmc_pmu_cpuid();
	struct metric_info mi;
	char name[256];
	const char *p = arg;
	size_t n;
	int i, found;

	mtable = metric_table(model);
	if (mtable < 0)
		usage("--metrics: no metrics for CPU %s (%s)", id ? id : "?",
		      model ? "its pmu-events model has none" :
		      "no pmu-events table; HWPMC_CPUID names another CPU");
	for (;;) {
		n = strcspn(p, ",");
		if (!n || n >= sizeof(name))
			usage("bad metric list '%s'", arg);
		memcpy(name, p, n);
		name[n] = '\0';
		i = metric_find(mtable, name);
		if (i >= 0) {
			add_mreq(i);
		} else {
			for (found = 0, i = 0; i < metric_count(mtable); i++)
				if (!metric_at(mtable, i, &mi) &&
				    metric_in_group(&mi, name)) {
					add_mreq(i);
					found = 1;
				}
			if (!found) {
				char near[256] = "";
				size_t off = 0;
				int k = 0;

				/*
				 * names ending in _name ("ipc" ->
				 * tma_info_thread_ipc), then names holding it
				 */
				for (int pass = 0; pass < 2; pass++)
					for (i = 0; i < metric_count(mtable) && k < 3; i++) {
						size_t ln, lm = strlen(name);
						const char *hit;

						if (metric_at(mtable, i, &mi))
							continue;
						ln = strlen(mi.name);
						hit = strcasestr(mi.name, name);
						if (!hit || (pass == 0) !=
						    (ln > lm && !strcasecmp(mi.name + ln - lm, name) &&
						     mi.name[ln - lm - 1] == '_') ||
						    ln + off + 3 >= sizeof(near))
							continue;
						off += (size_t)snprintf(near + off,
							sizeof(near) - off, "%s%s",
							k++ ? ", " : "; did you mean ", mi.name);
					}
				usage("unknown metric or metric group '%s' for %s "
				      "(hwpmc-stat --list-metrics%s%s)", name, model,
				      near, k ? "?" : "");
			}
		}
		if (!p[n])
			break;
		p += n + 1;
	}
}

/* --metrics events: a list of specifiers, while collecting one metric */
struct speclist {
	char	**v;
	int	n;
};

static int speclist_add(void *arg, const char *spec)
{
	struct speclist *l = arg;
	char **v;
	int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], spec))
			return 0;
	v = realloc(l->v, (size_t)(l->n + 1) * sizeof(*v));
	if (!v)
		return -1;
	l->v = v;
	if (!(l->v[l->n] = strdup(spec)))
		return -1;
	l->n++;
	return 0;
}

static void speclist_free(struct speclist *l)
{
	while (l->n)
		free(l->v[--l->n]);
	free(l->v);
	l->v = NULL;
}

/* -t: the processes to attach to */
struct targets {
	pid_t		*pid;
	unsigned char	*matched;	/* found by a regular expression */
	int		n;
};

static void target_add(struct targets *t, pid_t pid, int matched)
{
	int i;

	for (i = 0; i < t->n; i++)
		if (t->pid[i] == pid)
			return;		/* named twice: attached once */
	t->pid = realloc(t->pid, (size_t)(t->n + 1) * sizeof(*t->pid));
	t->matched = realloc(t->matched, (size_t)(t->n + 1));
	if (!t->pid || !t->matched) {
		fprintf(stderr, "%s: out of memory\n", prog);
		exit(1);
	}
	t->pid[t->n] = pid;
	t->matched[t->n++] = (unsigned char)matched;
}

/*
 * pmcstat's process-spec: a pid, or an extended regular expression
 * matched against the command names (/proc/PID/comm) of the running
 * processes, ours excepted.  A spec that matches nothing is an error,
 * as for pmcstat.
 */
static void add_targets(struct targets *t, const char *spec)
{
	char path[64], comm[64], *end;
	struct dirent *d;
	regex_t re;
	DIR *dir;
	FILE *f;
	long v;
	int rc, found = 0;

	if (!*spec)
		usage("bad pid '' (-t: a pid, or a regular expression of command names)");
	errno = 0;
	v = strtol(spec, &end, 10);
	if (!*end && end != spec) {
		if (errno || v <= 0 || v > INT32_MAX)
			usage("bad pid '%s'", spec);
		target_add(t, (pid_t)v, 0);
		return;
	}
	rc = regcomp(&re, spec, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		regerror(rc, &re, comm, sizeof(comm));
		usage("bad -t '%s': %s (a pid, or a regular expression of command names)",
		      spec, comm);
	}
	dir = opendir("/proc");
	if (!dir) {
		fprintf(stderr, "%s: /proc: %s\n", prog, strerror(errno));
		exit(1);
	}
	while ((d = readdir(dir))) {
		v = strtol(d->d_name, &end, 10);
		if (*end || v <= 0 || (pid_t)v == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/comm", v);
		f = fopen(path, "re");
		if (!f)
			continue;	/* gone meanwhile */
		if (fgets(comm, sizeof(comm), f)) {
			comm[strcspn(comm, "\n")] = '\0';
			if (!regexec(&re, comm, 0, NULL, 0)) {
				if (verbose)
					fprintf(stderr, "%s: -t '%s': pid %ld (%s)\n",
						prog, spec, v, comm);
				target_add(t, (pid_t)v, 1);
				found++;
			}
		}
		fclose(f);
	}
	closedir(dir);
	regfree(&re);
	if (!found) {
		fprintf(stderr, "%s: -t '%s': no running process has a command name that matches\n",
			prog, spec);
		exit(1);
	}
}

/*
 * Attach the process-mode PMCs to the command, or to each process of -t:
 * one that a regular expression found may have ended since (skipped).
 * The number of processes attached to, or -1 (the reason told).
 */
static int attach_targets(struct targets *t)
{
	int i, j, n = 0;

	for (j = 0; j < t->n; j++) {
		for (i = 0; i < nctr; i++) {
			if (PMC_IS_SYSTEM_MODE(ctrs[i].mode) ||
			    !pmc_attach(ctrs[i].id, t->pid[j]))
				continue;
			if (t->matched[j] && errno == ESRCH) {
				if (verbose)
					fprintf(stderr, "%s: pid %d ended before it was attached to\n",
						prog, (int)t->pid[j]);
				t->pid[j] = 0;
				break;
			}
			fprintf(stderr, "%s: cannot attach to pid %d: %s%s\n",
				prog, (int)t->pid[j], strerror(errno),
				errno == EPERM ?
				" (need the same user, or CAP_SYS_PTRACE)" : "");
			return -1;
		}
		n += t->pid[j] > 0;
	}
	return n;
}

/*
 * pmcstat(8)'s options that hwpmc-stat does not have, with what to use
 * instead: refused by name, never as an unknown option.  (-D and -F are
 * pmcstat's letters too, with other meanings here: hwpmc-stat(8).)
 */
static const struct {
	int		opt;
	const char	*why;
} pmcstat_only[] = {
	{ 'M', "the map of objects to gprof profiles is not written; -g names its files EVENT/OBJECT.gmon and, unless -q, tells each object's" },
	{ 'e', "gprof's wide histogram counters are not supported (GNU gprof reads 16-bit bins); -g's bins stop at 65535 and say so, --pprof file has exact counts" },
	{ 'f', "pmcstat's plugin options (-T's threshold, skiplink) are not supported; -T shows the top functions, -G file every caller and callee" },
};

static void pmcstat_option(int opt)
{
	size_t i;

	for (i = 0; i < sizeof(pmcstat_only) / sizeof(pmcstat_only[0]); i++)
		if (pmcstat_only[i].opt == opt)
			usage("-%c: pmcstat's option: %s", opt, pmcstat_only[i].why);
}

/*
 * pmcstat's -O host:port: a name of that form whose host does not start
 * with '.' or '/' ("[addr]" for IPv6) is a TCP destination, not a file.
 * Splits it into host and port.
 */
static int host_port(const char *name, char *host, size_t len,
		     const char **port)
{
	const char *colon = strrchr(name, ':');
	size_t n;

	if (!colon || colon == name || !colon[1] || name[0] == '.' ||
	    name[0] == '/' || strchr(colon, '/'))
		return 0;
	n = (size_t)(colon - name);
	if (name[0] == '[' && n > 2 && name[n - 1] == ']') {
		name++;
		n -= 2;
	} else if (memchr(name, ':', n)) {
		return 0;	/* an IPv6 address needs its brackets */
	}
	if (n >= len)
		return 0;
	memcpy(host, name, n);
	host[n] = '\0';
	*port = colon + 1;
	return 1;
}

static int is_host_port(const char *name)
{
	const char *port;
	char host[256];

	return host_port(name, host, sizeof(host), &port);
}

#if HWPMC_STATIC
/*
 * A static program has no NSS: getaddrinfo() would need the shared
 * libraries of its glibc at run time.  Numeric addresses and ports only.
 */
static int log_connect(const char *name)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in a4 = { .sin_family = AF_INET };
	struct sockaddr *sa;
	const char *port;
	char host[256], *end;
	socklen_t len;
	long v;
	int fd;

	if (!host_port(name, host, sizeof(host), &port))
		return -1;
	errno = 0;
	v = strtol(port, &end, 10);
	if (errno || *end || v <= 0 || v > 65535) {
		fprintf(stderr, "%s: -O %s: the port must be a number (a static build)\n",
			prog, name);
		return -1;
	}
	if (inet_pton(AF_INET, host, &a4.sin_addr) == 1) {
		a4.sin_port = htons((uint16_t)v);
		sa = (struct sockaddr *)&a4;
		len = sizeof(a4);
	} else if (inet_pton(AF_INET6, host, &a6.sin6_addr) == 1) {
		a6.sin6_port = htons((uint16_t)v);
		sa = (struct sockaddr *)&a6;
		len = sizeof(a6);
	} else {
		fprintf(stderr, "%s: -O %s: give an address, not a host name (a static build)\n",
			prog, name);
		return -1;
	}
	fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, sa, len) < 0) {
		fprintf(stderr, "%s: -O %s: cannot connect: %s\n", prog, name,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}
#else
/* A TCP connection to host:port for the log, or -1 (the reason told). */
static int log_connect(const char *name)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	const char *port;
	char host[256];
	int fd = -1, rc, err = 0;

	if (!host_port(name, host, sizeof(host), &port))
		return -1;
	rc = getaddrinfo(host, port, &hints, &res);
	if (rc) {
		fprintf(stderr, "%s: -O %s: %s\n", prog, name, gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
			    ai->ai_protocol);
		if (fd < 0) {
			err = errno;
			continue;
		}
		if (!connect(fd, ai->ai_addr, ai->ai_addrlen))
			break;
		err = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		fprintf(stderr, "%s: -O %s: cannot connect: %s\n", prog, name,
			strerror(err));
	return fd;
}
#endif

/* pmcstat's -L: every event name hwpmc knows, then the CPU's vendor events */
static int list_events(void)
{
	static const uint32_t ranges[][2] = {
		{ PMC_EV_SOFT_FIRST, PMC_EV_SOFT_LAST },
		{ PMC_EV_PMU_HW_FIRST, PMC_EV_PMU_HW_LAST },
		{ PMC_EV_PMU_CACHE_FIRST, PMC_EV_PMU_CACHE_LAST },
	};
	const char *name;
	uint32_t r, ev;

	for (r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++)
		for (ev = ranges[r][0]; ev <= ranges[r][1]; ev++) {
			name = pmc_name_of_event((enum pmc_event)ev);
			if (name)
				printf("\t%s\n", name);
		}
	pmc_pmu_print_counters(NULL);
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "csv", no_argument, NULL, 'X' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ "comm", required_argument, NULL, 'K' },
		{ "pid", required_argument, NULL, OPT_PID },
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
	const struct pmc_cpuinfo *ci;
	const char *cpuarg = "*", *outfile = NULL, *logfile = NULL;
	const char *rfile = NULL, *describe = NULL;
	double interval = 0, next, left, duration = 0;
	struct targets tg = { 0 };
	struct pollfd *pfds = NULL;
	const char *tspec[MAXSPEC];
	int ntspec = 0, listev = 0, alive;
	int opt, i, cpu, cumulative = 0, descendants = 0, status = 0;
	int status_known = 0, go[2] = { -1, -1 }, ncpu, j, polling = 0;
	int callchains = 1, procexit = 0, proccsw = 0, top = 0;
	int nsampling = 0, logw = -1, logr = -1, rc = 0, expired = 0;
	uint64_t rate = 0;
	long depth;
	FILE *out = stderr;
	char *end;
	struct {
		const char *spec;
		enum pmc_mode mode;
		uint32_t flags;
		uint64_t rate;
		const char *cpus;
	} want[MAXSPEC];
	int nwant = 0, nmarg = 0, mflags = 0, listm = 0;
	const char *marg[MAXSPEC];
	struct speclist owned = { 0 };	/* --metrics specifiers in want[] */
	struct reports rep;
	struct pmc_driverstats ds0, ds1;
	struct logbuf lb = { 0 };
	struct log_summary sum;
	struct top *tp = NULL;
	struct sigaction sa;
	sigset_t block, orig;
	struct timespec ts;

	memset(&rep, 0, sizeof(rep));
	memset(&ds0, 0, sizeof(ds0));
	memset(&ds1, 0, sizeof(ds1));
	memset(&sum, 0, sizeof(sum));
	opterr = 0;		/* our messages: pmcstat's options named */
	while ((opt = getopt_long(argc, argv, OPTSTRING, longopts, NULL)) != -1) {
		switch (opt) {
		case 'C':
			cumulative = 1;
			break;
		case 'c':
			cpuarg = optarg;
			break;
		case 'D':
			rep.dump = 1;
			break;
		case 'd':
			descendants = !descendants;	/* a toggle, as pmcstat's */
			break;
		case 'E':
			procexit = !procexit;
			break;
		case 'F':
			rep.folded = optarg;
			break;
		case 'G':
			rep.graph = optarg;
			break;
		case 'N':
			callchains = !callchains;
			break;
		case 'n':
			errno = 0;
			rate = strtoull(optarg, &end, 0);
			if (errno || end == optarg || *end || !rate ||
			    optarg[0] == '-')
				usage("bad sampling rate '%s' (events per sample, > 0)",
				      optarg);
			break;
		case 'O':
			logfile = optarg;
			break;
		case 'o':
			outfile = optarg;
			break;
		case 'P':
		case 'S':
		case 'p':
		case 's':
			if (nwant == MAXSPEC)
				usage("too many events (at most %d)", MAXSPEC);
			want[nwant].spec = optarg;
			want[nwant].mode = opt == 'p' ? PMC_MODE_TC :
					   opt == 's' ? PMC_MODE_SC :
					   opt == 'P' ? PMC_MODE_TS : PMC_MODE_SS;
			want[nwant].flags = 0;
			if (opt == 'p' || opt == 'P') {
				if (descendants)
					want[nwant].flags |= PMC_F_DESCENDANTS;
			}
			if (opt == 'P') {
				if (procexit)
					want[nwant].flags |= PMC_F_LOG_PROCEXIT;
				if (proccsw)
					want[nwant].flags |= PMC_F_LOG_PROCCSW;
			}
			if ((opt == 'P' || opt == 'S') && callchains)
				want[nwant].flags |= PMC_F_CALLCHAIN;
			want[nwant].rate = rate;
			want[nwant].cpus = cpuarg;
			nsampling += opt == 'P' || opt == 'S';
			nwant++;
			break;
		case OPT_METRICS:
			if (nmarg == MAXSPEC)
				usage("too many --metrics (at most %d)", MAXSPEC);
			marg[nmarg++] = optarg;
			if (descendants)
				mflags = PMC_F_DESCENDANTS;
			break;
		case OPT_SUMMARY:
			summary = 1;
			break;
		case OPT_LIST_METRICS:
			listm = 1;
			break;
		case 'q':
			quiet = 1;
			rep.ro.quiet = 1;
			break;
		case 'R':
			rfile = optarg;
			break;
		case 'T':
			top = 1;
			break;
		case 'l':
			errno = 0;
			duration = strtod(optarg, &end);
			if (errno || end == optarg || *end || !isfinite(duration) ||
			    duration < MINWAIT || duration > 1e7)
				usage("bad duration '%s' (seconds, at least %.1f)",
				      optarg, MINWAIT);
			break;
		case 't':
			if (ntspec == MAXSPEC)
				usage("too many -t (at most %d)", MAXSPEC);
			tspec[ntspec++] = optarg;
			break;
		case 'u':
			describe = optarg;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'W':
			proccsw = !proccsw;
			break;
		case 'w':
			errno = 0;
			interval = strtod(optarg, &end);
			if (errno || end == optarg || *end || !isfinite(interval) ||
			    interval < MINWAIT || interval > 1e6)
				usage("bad interval '%s' (seconds, at least %.1f)",
				      optarg, MINWAIT);
			break;
		case 'X':
			outfmt = OUT_CSV;
			break;
		case 'J':
			outfmt = OUT_JSON;
			break;
		case 'K':
			rep.ro.comm = optarg;
			break;
		case OPT_FLAME:
			rep.flame = optarg;
			break;
		case OPT_FLAME_ORDER:
			if (!strcmp(optarg, "icicle"))
				rep.ro.icicle = 1;
			else if (!strcmp(optarg, "flame"))
				rep.ro.icicle = 0;
			else
				usage("bad --flamegraph-order '%s' (flame or icicle)", optarg);
			break;
		case OPT_ICICLE:
			rep.ro.icicle = 1;
			break;
		case OPT_PERFSCRIPT:
			rep.perfscript = optarg;
			break;
		case OPT_PPROF:
			rep.pprof = optarg;
			break;
		case OPT_PID:
			parse_pids(optarg, &rep.ro.pids, &rep.ro.npid, "pid");
			break;
		case 'i':
			parse_pids(optarg, &rep.ro.tids, &rep.ro.ntid, "thread id");
			break;
		case 'z':
			errno = 0;
			depth = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || depth < 1 ||
			    depth > PMC_CALLCHAIN_DEPTH_MAX)
				usage("bad call graph depth '%s' (-z: 1 to %d frames)",
				      optarg, PMC_CALLCHAIN_DEPTH_MAX);
			rep.ro.graphdepth = (int)depth;
			break;
		case 'm':
			rep.pcs = optarg;
			break;
		case 'a':
			rep.addrs = optarg;
			sym_addrlines = 1;
			break;
		case 'r':
			if (!*optarg)
				usage("bad -r '' (the directory the log's paths are under)");
			sym_root = strcmp(optarg, "/") ? optarg : "";
			break;
		case 'k':
			sym_kernel_path = optarg;
			break;
		case 'L':
			listev = 1;
			break;
		case 'A':
			rep.ro.addresses = 1;
			break;
		case 'g':
			rep.gmon = 1;
			break;
		case 'I':
			rep.ro.addresses = 2;
			break;
		case 'U':
			/* user call chains under kernel samples: always taken */
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
		case OPT_ANNOTATE:
			if (!*optarg || *optarg == '@')
				usage("bad --annotate '%s' (symbol or symbol@object)", optarg);
			rep.ro.annotate = optarg;
			break;
		case 'h':
			usage(NULL);
		case ':':
			if (optopt > ' ' && optopt < 127)
				usage("option -%c needs an argument", optopt);
			usage("option %s needs an argument", argv[optind - 1]);
		default:
			if (optopt)
				pmcstat_option(optopt);
			if (optopt > ' ' && optopt < 127)
				usage("unknown option -%c", optopt);
			usage("unknown option %s", argv[optind - 1]);
		}
	}
	argc -= optind;
	argv += optind;
	rep.out = outfile;
	if (listev) {
		if (nwant || argc || ntspec || rfile || logfile || top || describe)
			usage("-L lists the events: nothing else with it");
		return list_events();
	}
	if (describe) {
		if (nwant || argc || ntspec || rfile || logfile || top)
			usage("-u describes an event: nothing else with it");
		return describe_event(describe);
	}
	if (listm) {
		if (nwant || nmarg || argc > 1 || ntspec || rfile || logfile || top)
			usage("--list-metrics lists metrics: a group at most with it");
		return list_metrics(argc ? argv[0] : NULL);
	}
	for (i = 0; i < nmarg; i++)
		parse_metrics(marg[i]);
	if (nmarg && !ntspec && !argc)
		usage("--metrics needs a command or -t pid");
	if (stdout_clash(&rep))
		usage("%s", stdout_clash(&rep));
	if (rep.pprof && !pprof_available())
		usage("--pprof is not available: built without protobuf-c and zlib");
	if (rep.ro.annotate && annot_available())
		usage("--annotate is not available: %s", annot_available());
	if (rfile) {
		if (nwant || argc || ntspec || logfile || top)
			usage("-R reads a log: no events, command, -t, -O or -T with it");
		rc = report_file(rfile, &rep);
		free(rep.ro.pids);
		free(rep.ro.tids);
		return rc;
	}
	if (!nwant && !nmarg)
		usage("no event: give -p, -s, -P or -S (or --metrics)");
	if (ntspec && argc)
		usage("-t and a command exclude each other");
	for (i = 0; i < nwant; i++)
		if ((want[i].mode == PMC_MODE_TC || want[i].mode == PMC_MODE_TS) &&
		    !ntspec && !argc)
			usage("-%c needs a command or -t pid",
			      want[i].mode == PMC_MODE_TC ? 'p' : 'P');
	if (!nsampling && (logfile || top || rep.dump || rep.graph || rep.pcs ||
			   rep.addrs || rep.gmon || want_stacks(&rep) || rep.ro.annotate))
		usage("-O, -T, -D, -G, -F, -m, -a, -g, --flamegraph, --perf-script, --pprof and "
		      "--annotate need a sampling event (-P or -S)");
	if (top && rep.ro.annotate)
		usage("-T and --annotate exclude each other");
	if (logfile && (rep.dump || rep.graph || rep.pcs || rep.addrs || rep.gmon ||
			want_stacks(&rep) || rep.ro.annotate))
		usage("-O writes the log, no report: use -R on it afterwards");
	if (top && logfile && is_host_port(logfile))
		usage("-T reads the log back: -O host:port cannot be read");
	if (top && !isatty(STDOUT_FILENO))
		usage("-T needs a terminal on standard output");
#ifndef HWPMC_WITH_CURSES
	if (top)
		usage("-T is not available: built without ncurses");
#endif
	/* system counting with no end: print every 5 s, as pmcstat */
	if (!argc && !ntspec && interval == 0 && nwant > nsampling)
		interval = DEFWAIT;
	if (top && interval == 0)
		interval = TOPWAIT;
	/* the specifiers, before the module is asked (pure parse) */
	for (i = 0; i < nwant; i++) {
		struct pmc_op_pmcallocate pa;
		char err[256];

		if (pmc_parse_spec(want[i].spec, &pa, err, sizeof(err)) < 0)
			usage("%s", err);
	}
	/* -t: pids, and the processes whose names match, now */
	for (i = 0; i < ntspec; i++)
		add_targets(&tg, tspec[i]);

	if (pmc_init() < 0) {
		fprintf(stderr, "%s: %s\n", prog, pmc_init_message());
		return 1;
	}
	if (pmc_cpuinfo(&ci) < 0)
		return 1;
	for (i = 0; i < nwant; i++) {
		struct pmc_op_pmcallocate pa;
		char err[256];

		if (pmc_parse_spec(want[i].spec, &pa, err, sizeof(err)) < 0)
			usage("%s", err);
		if (PMC_IS_SAMPLING_MODE(want[i].mode) && !want[i].rate)
			want[i].rate = default_rate(want[i].spec);
	}
	/* --metrics: each metric's events, counted as -p's (once each) */
	metric_env_init(&menv);
	menv.count = metric_count_cb;
	for (i = 0; i < nmreq; i++) {
		struct mreq *m = &mreqs[i];
		struct speclist l = { 0 };
		int j, k;

		if (metric_events(mtable, m->index, &menv, speclist_add, &l,
				  m->why, sizeof(m->why)) < 0) {
			speclist_free(&l);
			if (!quiet)
				fprintf(stderr, "%s: metric %s is not supported: %s\n",
					prog, m->mi.name, m->why);
			continue;
		}
		m->ok = 1;
		for (j = 0; j < l.n; j++) {
			for (k = 0; k < nwant; k++)
				if (want[k].mode == PMC_MODE_TC &&
				    !strcmp(want[k].spec, l.v[j]))
					break;
			if (k < nwant)
				continue;
			if (nwant == MAXSPEC)
				usage("too many events (at most %d)", MAXSPEC);
			if (speclist_add(&owned, l.v[j]) < 0)
				return 1;
			want[nwant].spec = owned.v[owned.n - 1];
			want[nwant].mode = PMC_MODE_TC;
			want[nwant].flags = (uint32_t)mflags;
			want[nwant].rate = 0;
			want[nwant].cpus = "*";
			nwant++;
		}
		speclist_free(&l);
	}
	if (!nwant) {
		fprintf(stderr, "%s: nothing to count: no metric of --metrics is supported\n",
			prog);
		return 1;
	}
	if (argc) {
		size_t off = 0;

		for (i = 0; i < argc && off + 1 < sizeof(title); i++)
			off += (size_t)snprintf(title + off, sizeof(title) - off,
						"%s%s", i ? " " : "'", argv[i]);
		if (off + 1 < sizeof(title))
			strcat(title, "'");
	} else if (tg.n == 1) {
		snprintf(title, sizeof(title), "process %d", (int)tg.pid[0]);
	} else if (tg.n > 1) {
		snprintf(title, sizeof(title), "%d processes", tg.n);
	} else {
		snprintf(title, sizeof(title), "the CPUs");
	}
	ncpu = (int)ci->pm_ncpu;
	cpus = calloc((size_t)ncpu, 1);
	if (!cpus)
		return 1;
	for (i = 0; i < nwant; i++)
		if (PMC_IS_SYSTEM_MODE(want[i].mode) &&
		    parse_cpus(want[i].cpus, cpus, ncpu) < 0)
			usage("bad CPU list '%s' (CPUs 0-%d, or '*')",
			      want[i].cpus, ncpu - 1);
	if (outfile) {
		out = fopen(outfile, "we");
		if (!out) {
			fprintf(stderr, "%s: %s: %s\n", prog, outfile,
				strerror(errno));
			return 1;
		}
	} else if (nsampling) {
		out = stdout;		/* reports; counts too, then */
	}
	/*
	 * -w: rows of text on a terminal at most once a second, which a
	 * person can read (so are -T's screens); --csv, --json, files and
	 * pipes (programs read those) down to MINWAIT.
	 */
	if (interval > 0 && interval < TTYWAIT &&
	    (top || (outfmt == OUT_TEXT && nwant > nsampling &&
		     isatty(fileno(out))))) {
		if (!quiet)
			fprintf(stderr, "%s: note: -w %g raised to %.0f s: text on a terminal "
				"is printed at most once a second (--csv, --json, a file "
				"or a pipe: down to %.1f s)\n", prog, interval, TTYWAIT,
				MINWAIT);
		interval = TTYWAIT;
	}

	/* the log, before the PMCs: their PMCALLOCATE records follow */
	if (nsampling) {
		if (logfile && is_host_port(logfile)) {
			logw = log_connect(logfile);
			if (logw < 0)
				return 1;
		} else if (logfile) {
			logw = open(logfile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				    0644);
			if (logw < 0) {
				fprintf(stderr, "%s: %s: %s\n", prog, logfile,
					strerror(errno));
				return 1;
			}
			if (top)
				logr = open(logfile, O_RDONLY | O_CLOEXEC);
		} else {
			logw = temp_log(&logr);
		}
		if (logw < 0 || (top && logr < 0)) {
			fprintf(stderr, "%s: log file: %s\n", prog, strerror(errno));
			return 1;
		}
		if (pmc_configure_logfile(logw) < 0) {
			if (errno == EOPNOTSUPP)
				fprintf(stderr, "%s: cannot configure the log: %s "
					"is a terminal, or on a filesystem (FUSE, "
					"NFS, ...) that hwpmc cannot write without "
					"blocking; use a local file or a pipe%s\n",
					prog, logfile ? logfile : "the temporary file",
					logfile ? "" : " (set TMPDIR)");
			else
				fprintf(stderr, "%s: cannot configure the log: %s\n",
					prog, strerror(errno));
			return 1;
		}
		pmc_get_driver_stats(&ds0);
	}

	for (i = 0; i < nwant; i++) {
		struct ctr *c;

		if (!PMC_IS_SYSTEM_MODE(want[i].mode)) {
			c = new_ctr();
			c->spec = want[i].spec;
			c->mode = want[i].mode;
			c->flags = want[i].flags;
			c->count = PMC_IS_SAMPLING_MODE(c->mode) ? want[i].rate : 0;
			c->cpu = (int)PMC_CPU_ANY;
			if (allocate(c) < 0)
				return 1;
			continue;
		}
		parse_cpus(want[i].cpus, cpus, ncpu);
		for (cpu = 0; cpu < ncpu; cpu++) {
			if (!cpus[cpu])
				continue;
			c = new_ctr();
			c->spec = want[i].spec;
			c->mode = want[i].mode;
			c->flags = want[i].flags;
			c->count = PMC_IS_SAMPLING_MODE(c->mode) ? want[i].rate : 0;
			c->cpu = cpu;
			if (!pmc_allocate(c->spec, c->mode, c->flags, cpu, &c->id,
					  c->count))
				continue;
			if (errno == ENXIO && !strcmp(want[i].cpus, "*")) {
				nctr--;		/* offline: skipped */
				if (verbose)
					fprintf(stderr, "%s: CPU %d is offline\n",
						prog, cpu);
				continue;
			}
			if (allocate(c) < 0)
				return 1;
		}
	}
	if (!nctr) {
		fprintf(stderr, "%s: no CPU of the list is online\n", prog);
		return 1;
	}
	set_widths();

	/* SIGINT, SIGTERM: delivered only while waiting (ppoll) */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &orig);

	if (argc) {
		char ch;

		if (pipe2(go, O_CLOEXEC) < 0)
			return 1;
		fflush(out);
		child = fork();
		if (child < 0) {
			fprintf(stderr, "%s: fork: %s\n", prog, strerror(errno));
			return 1;
		}
		if (child == 0) {
			signal(SIGINT, SIG_DFL);
			signal(SIGTERM, SIG_DFL);
			sigprocmask(SIG_SETMASK, &orig, NULL);
			close(go[1]);
			if (read(go[0], &ch, 1) != 1)
				_exit(127);	/* the parent gave up */
			execvp(argv[0], argv);
			fprintf(stderr, "%s: %s: %s\n", prog, argv[0],
				strerror(errno));
			_exit(127);
		}
		close(go[0]);
		target_add(&tg, child, 0);
	}
	alive = attach_targets(&tg);
	if (alive < 0)
		give_up(child);
	if (tg.n && !alive) {
		fprintf(stderr, "%s: no process of -t is left\n", prog);
		give_up(child);
	}
	pfds = calloc((size_t)(tg.n ? tg.n : 1), sizeof(*pfds));
	if (!pfds)
		give_up(child);
	for (j = 0; j < tg.n; j++) {
		pfds[j].fd = tg.pid[j] > 0 ? pid_fd(tg.pid[j]) : -1;
		pfds[j].events = POLLIN;
		if (pfds[j].fd < 0 && tg.pid[j] > 0) {
			polling = 1;
			if (verbose)
				fprintf(stderr, "%s: no pidfd (%s): polling pid %d\n",
					prog, strerror(errno), (int)tg.pid[j]);
		}
	}
	if (top) {
		tp = top_open(&rep.ro, interval);
		if (!tp) {
			fprintf(stderr, "%s: -T: cannot start curses (TERM?)\n",
				prog);
			give_up(child);
		}
	}
	t0 = now();
	for (i = 0; i < nctr; i++)
		if (pmc_start(ctrs[i].id) < 0) {
			top_close(tp);
			fprintf(stderr, "%s: cannot start '%s': %s\n", prog,
				ctrs[i].spec, strerror(errno));
			if (errno == EBUSY)
				fprintf(stderr, "%s: the PMU's counters are taken by other counters, or, without CAP_PERFMON, by your own PMCs of %s other hardware events (module parameter unprivileged_counters)\n",
					prog, counters_limit());
			give_up(child);
		}
	if (child > 0) {
		if (write(go[1], "g", 1) != 1)
			give_up(child);
		close(go[1]);
	}

	if (interval > 0 && !top && ncounters())
		print_header(out);
	next = t0 + interval;
	for (;;) {
		/* wait for: the target's end, a signal, the next interval */
		left = interval > 0 ? next - now() : -1;
		if (interval > 0 && left < 0)
			left = 0;
		if (duration > 0 && !expired &&
		    (left < 0 || left > t0 + duration - now()))
			left = t0 + duration > now() ? t0 + duration - now() : 0;
		if (polling && (left < 0 || left > 0.1))
			left = 0.1;		/* no pidfd: poll the pid */
		if (top && (left < 0 || left > 0.1))
			left = 0.1;		/* keys */
		if (left >= 0) {
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		}
		if (ppoll(pfds, (nfds_t)tg.n, left >= 0 ? &ts : NULL,
			  &orig) < 0 && errno != EINTR) {
			fprintf(stderr, "%s: ppoll: %s\n", prog, strerror(errno));
			break;
		}
		if (child > 0) {
			pid_t r = waitpid(child, &status, WNOHANG);

			if (r == child) {
				status_known = 1;
				break;
			}
			if (r < 0 && errno != EINTR)
				break;
		} else if (tg.n) {
			/* -t: until every process has ended */
			for (j = alive = 0; j < tg.n; j++) {
				if (tg.pid[j] > 0 && gone(tg.pid[j])) {
					tg.pid[j] = 0;
					if (pfds[j].fd >= 0)
						close(pfds[j].fd);
					pfds[j].fd = -1;
				}
				alive += tg.pid[j] > 0;
			}
			if (!alive)
				break;
		}
		if (interrupted && child <= 0)
			break;
		if (duration > 0 && !expired && now() >= t0 + duration) {
			/* -l: the end of the run, as Ctrl-C */
			expired = 1;
			if (child > 0)
				kill(child, SIGINT);
			else
				break;
		}
		if (top && top_draw(tp, -1) == 'q') {
			/* q: as Ctrl-C */
			interrupted = 1;
			if (child > 0)
				kill(child, SIGINT);
			else
				break;
		}
		if (interval > 0 && now() >= next) {
			if (top) {
				pmc_flush_logfile();
				if (log_load(&lb, logr) == 0)
					top_feed(tp, &lb);
				if (top_draw(tp, now() - t0) == 'q') {
					interrupted = 1;
					if (child > 0)
						kill(child, SIGINT);
					else
						break;
				}
			} else if (ncounters()) {
				print_row(out, cumulative, 0, -1);
			}
			next += interval;
			if (next < now())	/* we were stopped: skip */
				next = now() + interval;
		}
	}
	for (i = 0; i < nctr; i++)
		pmc_stop(ctrs[i].id);
	top_close(tp);
	if (ncounters() && outfmt == OUT_TEXT && !quiet && (summary || nmreq)) {
		print_summary(out);
	} else if (ncounters()) {
		if (!(interval > 0 && outfmt != OUT_TEXT && !top))
			print_header(out);
		print_row(out, 1, 1, !status_known ? -1 : WIFEXITED(status) ?
			  WEXITSTATUS(status) : 128 + WTERMSIG(status));
	}
	if (nsampling) {
		/* the samples still in the rings, CLOSELOG, all written */
		if (pmc_configure_logfile(-1) < 0)
			fprintf(stderr, "%s: closing the log: %s\n", prog,
				strerror(errno));
		pmc_get_driver_stats(&ds1);
		close(logw);
		if (!logfile) {
			log_free(&lb);		/* -T's copy: read again */
			if (lseek(logr, 0, SEEK_SET) < 0 ||
			    write_reports(logr, "reading the log", &rep, out, &sum))
				rc = 1;
		}
		if (logr >= 0)
			close(logr);
		warn_drops(&ds0, &ds1, &sum);
		warn_uncounted();
	}
	for (i = 0; i < nctr; i++)
		pmc_release(ctrs[i].id);
	if (out != stderr && out != stdout && fclose(out) != 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, outfile, strerror(errno));
		return 1;
	}
	fflush(stdout);
	log_free(&lb);
	sym_free();
	free(rep.ro.pids);
	free(rep.ro.tids);
	for (j = 0; j < tg.n; j++)
		if (pfds[j].fd >= 0)
			close(pfds[j].fd);
	free(pfds);
	free(tg.pid);
	free(tg.matched);
	free(cpus);
	free(ctrs);
	free(mreqs);
	speclist_free(&owned);
	pmc_fini();
	if (rc)
		return rc;
	if (!status_known)
		return 0;
	if (WIFSIGNALED(status))
		return expired && WTERMSIG(status) == SIGINT ? 0 :
			128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
