// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-cputrack: illumos' cputrack(1) over libcpc(3) and libpctx: count
 * events of a command (or of a process, -p) and, with -f, of the
 * children it forks, printing a line per sample and per event:
 *
 *    time     pid lwp      event page-faults
 *   0.012    4242   1       fork             # 4243
 *   0.015    4243   1       exec        103
 *   0.015    4243   1       exec             # 'sh -c true'
 *   0.020    4243   1       exit         87
 *
 * (pid with -f only).  tick lines count since the previous sample; the
 * init_lwp, fini_lwp (-v), exec and exit lines count since the set was
 * bound to the process (at its start, its exec, or the last change of
 * -c set).  A process's counters are its own: a child's are bound when
 * it is forked, before it runs.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libcpc.h>
#include <libpctx.h>

#include "cpc_spec.h"
#include "tool_util.h"

#define PROG		"hwpmc-cputrack"
#define MAXSPEC		CPCS_MAXSPEC

struct tproc {
	struct tproc	*next;
	pid_t		 pid;
	int		 spec;		/* the -c set counting */
	int		 bound;
	cpc_set_t	*set;		/* of spec, bound */
	cpc_buf_t	*start, *prev, *cur, *diff;
};

static struct {
	struct cpcs_spec specs[MAXSPEC];
	int		 nspecs;
	int		 follow_exec, follow_fork, noheader, tsc, verbose;
	double		 interval;
	unsigned long	 count;
	pid_t		 pid;
	FILE		*out;
	cpc_t		*cpc;
	hrtime_t	 t0;
	struct tproc	*procs;
	int		 failed;
} g = { .interval = 1.0 };

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " -c events [-c events]... [-efntv] [-N count] [-o file]\n"
		"                      [-T interval] command [args...]\n"
		"       " PROG " -c events [-c events]... -p pid [-efntv] [-N count]\n"
		"                      [-o file] [-T interval]\n"
		"       " PROG " -h\n"
		"  -c events    [picn=]event[,attr[n][=val]][,[picn=]event...]: events\n"
		"               to count (user mode; sys, nouser: modes); several -c:\n"
		"               the sets alternate at each sample\n"
		"  -e           go on counting across exec (else the process is let go)\n"
		"  -f           follow the children fork and vfork create\n"
		"  -h           this help, with the events and attributes\n"
		"  -n           no header\n"
		"  -N count     at most count samples, then stop\n"
		"  -o file      output to file\n"
		"  -p pid       count process pid\n"
		"  -t           a column of the process's CPU time in ns (cpc_buf_tick)\n"
		"  -T interval  seconds between samples (default 1; 0: none)\n"
		"  -v           verbose: init_lwp and fini_lwp lines\n");
}

static void pctx_errfn(const char *fn, const char *fmt, va_list ap)
{
	fprintf(stderr, PROG ": %s: ", fn);
	vfprintf(stderr, fmt, ap);
}

static struct tproc *tproc_get(pid_t pid)
{
	struct tproc *p;

	for (p = g.procs; p; p = p->next)
		if (p->pid == pid)
			return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	p->next = g.procs;
	g.procs = p;
	return p;
}

static void tproc_unset(struct tproc *p)
{
	if (p->set)
		cpc_set_destroy(g.cpc, p->set);	/* and its buffers */
	p->set = NULL;
	p->bound = 0;
	p->start = p->prev = p->cur = p->diff = NULL;
}

static void header(void)
{
	char buf[16];
	int i, n = cpcs_ncols(g.specs, g.nspecs);

	if (g.noheader)
		return;
	fprintf(g.out, "%7s ", "time");
	if (g.follow_fork)
		fprintf(g.out, "%7s ", "pid");
	fprintf(g.out, "%3s %10s", "lwp", "event");
	for (i = 0; i < n; i++) {
		const char *name = cpcs_col_name(g.specs, g.nspecs, 0, i, buf, sizeof(buf));

		fprintf(g.out, " %*s", cpcs_col_width(name), name);
	}
	if (g.tsc)
		fprintf(g.out, " %12s", "ticks");
	fputc('\n', g.out);
	fflush(g.out);
}

/* The line's start: time, pid (-f), lwp, event. */
static void line_start(hrtime_t t, pid_t pid, id_t lwp, const char *event)
{
	fprintf(g.out, "%7.3f ", (double)(t - g.t0) / 1e9);
	if (g.follow_fork)
		fprintf(g.out, "%7d ", (int)pid);
	fprintf(g.out, "%3d %10s", (int)lwp, event);
}

static hrtime_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (hrtime_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void line_counts(struct tproc *p, id_t lwp, const char *event, cpc_buf_t *b)
{
	struct cpcs_spec *sp = &g.specs[p->spec];
	char buf[16];
	uint64_t v;
	int i;

	line_start(cpc_buf_hrtime(g.cpc, p->cur), p->pid, lwp, event);
	for (i = 0; i < sp->nreqs; i++) {
		v = 0;
		cpc_buf_get(g.cpc, b, i, &v);
		fprintf(g.out, " %*" PRIu64, cpcs_col_width(cpcs_col_name(g.specs, g.nspecs, p->spec, i, buf, sizeof(buf))), v);
	}
	if (g.tsc)
		fprintf(g.out, " %12" PRIu64, cpc_buf_tick(g.cpc, b));
	fputc('\n', g.out);
	fflush(g.out);
}

/* Bind p's current -c set to p (the process of the event). */
static int bind_proc(pctx_t *pctx, struct tproc *p, id_t lwp)
{
	char err[512];

	p->set = cpcs_set(g.cpc, &g.specs[p->spec], err, sizeof(err));
	if (!p->set) {
		fprintf(stderr, PROG ": %s\n", err);
		return -1;
	}
	p->start = cpc_buf_create(g.cpc, p->set);
	p->prev = cpc_buf_create(g.cpc, p->set);
	p->cur = cpc_buf_create(g.cpc, p->set);
	p->diff = cpc_buf_create(g.cpc, p->set);
	if (!p->start || !p->prev || !p->cur || !p->diff ||
	    cpc_bind_pctx(g.cpc, pctx, lwp, p->set, 0) < 0) {
		fprintf(stderr, PROG ": cannot count process %d: %s\n", (int)p->pid,
			strerror(errno));
		tproc_unset(p);
		return -1;
	}
	p->bound = 1;
	if (cpc_set_sample(g.cpc, p->set, p->start) < 0) {
		fprintf(stderr, PROG ": cannot read the counters of process %d: %s\n",
			(int)p->pid, strerror(errno));
		return -1;
	}
	cpc_buf_copy(g.cpc, p->prev, p->start);
	cpc_buf_copy(g.cpc, p->cur, p->start);
	return 0;
}

/* Sample p into cur; diff = cur - since */
static int sample(struct tproc *p, cpc_buf_t *since)
{
	if (cpc_set_sample(g.cpc, p->set, p->cur) < 0) {
		fprintf(stderr, PROG ": cannot read the counters of process %d: %s\n",
			(int)p->pid, strerror(errno));
		return -1;
	}
	cpc_buf_sub(g.cpc, p->diff, p->cur, since);
	return 0;
}

static int on_init(pctx_t *pctx, pid_t pid, id_t lwp, void *arg)
{
	struct tproc *p = tproc_get(pid);

	(void)arg;
	if (!p)
		return -1;
	if (p->bound)
		return 0;
	if (bind_proc(pctx, p, lwp) < 0) {
		g.failed = 1;
		return -1;
	}
	if (g.verbose) {
		cpc_buf_zero(g.cpc, p->diff);
		line_counts(p, lwp, "init_lwp", p->diff);
	}
	return 0;
}

/* fini_lwp: the totals sampled, the set unbound (they stay in diff) */
static int on_fini(pctx_t *pctx, pid_t pid, id_t lwp, void *arg)
{
	struct tproc *p = tproc_get(pid);

	(void)pctx;
	(void)arg;
	if (!p || !p->bound)
		return 0;
	if (sample(p, p->start) == 0 && g.verbose)
		line_counts(p, lwp, "fini_lwp", p->diff);
	cpc_unbind(g.cpc, p->set);
	p->bound = 0;
	return 0;
}

static void on_exit_ev(pctx_t *pctx, pid_t pid, id_t lwp, int status, void *arg)
{
	struct tproc *p = tproc_get(pid);

	(void)pctx;
	(void)status;
	(void)arg;
	if (!p || !p->set)
		return;
	line_counts(p, lwp, "exit", p->diff);
	tproc_unset(p);
}

static int on_exec(pctx_t *pctx, pid_t pid, id_t lwp, char *cmd, void *arg)
{
	struct tproc *p = tproc_get(pid);

	(void)pctx;
	(void)arg;
	if (p && p->set) {
		line_counts(p, lwp, "exec", p->diff);
		tproc_unset(p);
	}
	line_start(now_ns(), pid, lwp, "exec");
	fprintf(g.out, " %*s # '%s'\n", cpcs_col_width(""), "", cmd);
	fflush(g.out);
	return g.follow_exec ? 0 : 1;
}

static void on_fork(pctx_t *pctx, pid_t pid, id_t lwp, pid_t child, void *arg)
{
	(void)pctx;
	(void)arg;
	line_start(now_ns(), pid, lwp, "fork");
	fprintf(g.out, " %*s # %d\n", cpcs_col_width(""), "", (int)child);
	fflush(g.out);
}

static int on_tick(pctx_t *pctx, pid_t pid, id_t lwp, void *arg)
{
	struct tproc *p = tproc_get(pid);

	(void)arg;
	if (!p || !p->bound)
		return 0;
	if (sample(p, p->prev) < 0)
		return 0;	/* the process may be gone: its exit says */
	line_counts(p, lwp, "tick", p->diff);
	cpc_buf_copy(g.cpc, p->prev, p->cur);
	if (g.nspecs > 1) {
		/* the next set */
		cpc_unbind(g.cpc, p->set);
		tproc_unset(p);
		p->spec = (p->spec + 1) % g.nspecs;
		if (bind_proc(pctx, p, lwp) < 0) {
			g.failed = 1;
			return -1;
		}
	}
	return 0;
}

static cpc_t *stop_cpc;

static void on_signal(int sig)
{
	(void)sig;
	cpc_terminate(stop_cpc);
}

static unsigned long parse_count(const char *s, const char *what)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v == 0 || v > 0x7fffffffUL)
		tool_usage_error("%s: not a positive number: \"%s\"", what, s);
	return v;
}

int main(int argc, char **argv)
{
	struct cpcs_opts o = { 0 };
	const char *outfile = NULL;
	int c, i, rc;
	pctx_t *pctx;
	char *end;
	long pid;

	tool_init(PROG, usage);
	while ((c = getopt(argc, argv, "+c:efhnN:o:p:tT:vD")) != -1) {
		if (cpcs_tool_opt(&o, c, optarg))
			continue;
		switch (c) {
		case 'e':
			g.follow_exec = 1;
			break;
		case 'f':
			g.follow_fork = 1;
			break;
		case 'N':
			g.count = parse_count(optarg, "-N");
			break;
		case 'o':
			outfile = optarg;
			break;
		case 'p':
			errno = 0;
			pid = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || pid <= 0 || pid > 0x7fffffffL)
				tool_usage_error("-p: not a process id: \"%s\"", optarg);
			g.pid = (pid_t)pid;
			break;
		case 'T':
			errno = 0;
			g.interval = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(g.interval >= 0) ||
			    g.interval > 86400)
				tool_usage_error("-T: not an interval in seconds: \"%s\"", optarg);
			break;
		case 'v':
			g.verbose = 1;
			break;
		default:
			usage(stderr);
			return EX_USAGE;
		}
	}
	argc -= optind;
	argv += optind;

	g.nspecs = o.ntexts;
	g.noheader = o.noheader;
	g.tsc = o.tsc;
	g.cpc = cpcs_tool_open(o.help, o.ntexts, usage);
	if (g.pid && argc > 0)
		tool_usage_error("-p and a command: one or the other");
	if (!g.pid && argc == 0)
		tool_usage_error("no command and no -p");
	if (g.interval > 0 && g.interval < 0.001)
		tool_usage_error("-T: at least 0.001 s");
	/* the events checked before the command starts */
	cpcs_tool_sets(g.cpc, o.texts, o.ntexts, g.specs, NULL);
	g.out = stdout;
	if (outfile) {
		g.out = fopen(outfile, "w");
		if (!g.out) {
			fprintf(stderr, PROG ": %s: %s\n", outfile, strerror(errno));
			return 1;
		}
	}

	if (g.pid)
		pctx = pctx_capture(g.pid, NULL, 1, pctx_errfn);
	else
		pctx = pctx_create(argv[0], argv, NULL, 1, pctx_errfn);
	if (!pctx)
		return 1;
	if (pctx_set_events(pctx,
			    PCTX_SYSC_EXEC_EVENT, on_exec,
			    PCTX_SYSC_EXIT_EVENT, on_exit_ev,
			    PCTX_INIT_LWP_EVENT, on_init,
			    PCTX_FINI_LWP_EVENT, on_fini,
			    g.follow_fork ? PCTX_SYSC_FORK_EVENT : PCTX_NULL_EVENT, on_fork,
			    PCTX_NULL_EVENT) < 0) {
		pctx_release(pctx);
		return 1;
	}
	stop_cpc = g.cpc;
	tool_on_stop_signals(on_signal);

	g.t0 = now_ns();
	header();
	rc = pctx_run(pctx, (uint_t)(g.interval * 1000 + 0.5),
		      (uint_t)g.count, on_tick);
	pctx_release(pctx);
	while (g.procs) {
		struct tproc *p = g.procs;

		g.procs = p->next;
		free(p);
	}
	for (i = 0; i < g.nspecs; i++)
		cpcs_free(&g.specs[i]);
	cpc_close(g.cpc);
	if (g.out != stdout && fclose(g.out) != 0) {
		fprintf(stderr, PROG ": %s: %s\n", outfile, strerror(errno));
		return 1;
	}
	return rc < 0 || g.failed ? 1 : 0;
}
