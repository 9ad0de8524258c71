// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-cpustat: illumos' cpustat(1M) over libcpc(3): count events on
 * every CPU (cpc_bind_cpu(), system-scope PMCs), a line per CPU every
 * interval, counting since the previous line, and the totals at the end:
 *
 *       time cpu event cpu-clock
 *      1.001   0  tick 1000967435
 *      1.001   1  tick 1000957815
 *      1.001   2 total 2001925250
 *
 * (the total line's cpu column is the number of CPUs).  Several -c sets
 * alternate, one per interval (with -p, a cycle of them every period).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libcpc.h>

#include "cpc_spec.h"
#include "tool_util.h"

#define PROG		"hwpmc-cpustat"
#define MAXSPEC		CPCS_MAXSPEC

struct tcpu {
	int		 cpu;
	cpc_set_t	*set;		/* of the current spec, bound */
	cpc_buf_t	*prev, *cur, *diff;
};

static struct {
	struct cpcs_spec specs[MAXSPEC];
	cpc_buf_t	*total[MAXSPEC];	/* sums, in a buffer of a set of each */
	cpc_set_t	*total_set[MAXSPEC];
	int		 nspecs;
	int		 noheader, soak, tsc;
	char		 stamp;		/* -T: 'u', 'd', or 0 */
	double		 interval, period;
	unsigned long	 count;
	cpc_t		*cpc;
	struct tcpu	*cpus;
	int		 ncpus;
	struct timespec	 t0;
} g = { .interval = 5.0 };

static volatile sig_atomic_t stop;
static _Atomic int soak_stop;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " -c events [-c events]... [-p period] [-nst] [-T u|d]\n"
		"                      [interval [count]]\n"
		"       " PROG " -h\n"
		"  -c events    [picn=]event[,attr[n][=val]][,[picn=]event...]: events\n"
		"               to count on every CPU (user mode; sys, nouser: modes);\n"
		"               several -c: the sets alternate, one per interval\n"
		"  -h           this help, with the events and attributes\n"
		"  -n           no header\n"
		"  -p period    cycle through the -c sets every period seconds\n"
		"               (count is then the number of cycles)\n"
		"  -s           an idle soaker thread on each CPU while a system-only\n"
		"               set (sys,nouser) is counted\n"
		"  -t           a column of the ns the counters ran (cpc_buf_tick)\n"
		"  -T u|d       a time stamp before each sample: seconds since the\n"
		"               Epoch (u) or the date (d)\n"
		"  interval     seconds between samples (default 5)\n"
		"  count        samples to take (default: until interrupted)\n");
}

static void header(void)
{
	char buf[16];
	const char *name;
	int i, n = cpcs_ncols(g.specs, g.nspecs);

	if (g.noheader)
		return;
	printf("%8s %3s %5s", "time", "cpu", "event");
	for (i = 0; i < n; i++) {
		name = cpcs_col_name(g.specs, g.nspecs, 0, i, buf, sizeof(buf));
		printf(" %*s", cpcs_col_width(name), name);
	}
	if (g.tsc)
		printf(" %12s", "ticks");
	putchar('\n');
	fflush(stdout);
}

static double elapsed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)(ts.tv_sec - g.t0.tv_sec) + (ts.tv_nsec - g.t0.tv_nsec) / 1e9;
}

static void row(double t, int cpu, const char *event, int spec, cpc_buf_t *b)
{
	char buf[16];
	uint64_t v;
	int i;

	printf("%8.3f %3d %5s", t, cpu, event);
	for (i = 0; i < g.specs[spec].nreqs; i++) {
		v = 0;
		cpc_buf_get(g.cpc, b, i, &v);
		printf(" %*" PRIu64, cpcs_col_width(cpcs_col_name(g.specs, g.nspecs, spec, i, buf, sizeof(buf))), v);
	}
	if (g.tsc)
		printf(" %12" PRIu64, cpc_buf_tick(g.cpc, b));
	putchar('\n');
}

/* Bind spec on every CPU; the CPUs that cannot (offline) are dropped. */
static int bind_all(int spec, int first)
{
	char err[512];
	int i, j, saved;

	for (i = 0, j = 0; i < g.ncpus; i++) {
		struct tcpu *c = &g.cpus[i];

		c->set = cpcs_set(g.cpc, &g.specs[spec], err, sizeof(err));
		if (!c->set) {
			fprintf(stderr, PROG ": %s\n", err);
			return -1;
		}
		c->prev = cpc_buf_create(g.cpc, c->set);
		c->cur = cpc_buf_create(g.cpc, c->set);
		c->diff = cpc_buf_create(g.cpc, c->set);
		if (!c->prev || !c->cur || !c->diff) {
			fprintf(stderr, PROG ": %s\n", strerror(errno));
			return -1;
		}
		if (cpc_bind_cpu(g.cpc, c->cpu, c->set, 0) < 0) {
			saved = errno;
			cpc_set_destroy(g.cpc, c->set);
			c->set = NULL;
			if (first && (saved == ENOSYS || saved == EINVAL))
				continue;	/* offline, or no such CPU */
			fprintf(stderr, PROG ": cannot count on CPU %d: %s%s\n", c->cpu,
				strerror(saved), saved == EACCES ?
				" (system-wide counting needs CAP_PERFMON)" : "");
			return -1;
		}
		cpc_set_sample(g.cpc, c->set, c->prev);
		g.cpus[j++] = *c;
	}
	if (first)
		g.ncpus = j;
	if (g.ncpus == 0) {
		fprintf(stderr, PROG ": no CPU to count on\n");
		return -1;
	}
	return 0;
}

static void unbind_all(void)
{
	int i;

	for (i = 0; i < g.ncpus; i++) {
		if (g.cpus[i].set)
			cpc_set_destroy(g.cpc, g.cpus[i].set);
		g.cpus[i].set = NULL;
	}
}

/*
 * -T u: the time in seconds since the Epoch (time(2)); -T d: the date as
 * date(1) prints it; on a line of its own before each sample's rows, as
 * illumos' tools print their time stamps.
 */
static void stamp(void)
{
	char buf[128];
	time_t now = time(NULL);
	struct tm tm;

	if (g.stamp == 'u') {
		printf("%lld\n", (long long)now);
	} else if (g.stamp == 'd' && localtime_r(&now, &tm) &&
		   strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Z %Y", &tm)) {
		printf("%s\n", buf);
	}
}

/* Sample every CPU, print its row, add it to spec's totals. */
static void sample_all(int spec)
{
	double t;
	int i;

	stamp();

	for (i = 0; i < g.ncpus; i++) {
		struct tcpu *c = &g.cpus[i];

		if (cpc_set_sample(g.cpc, c->set, c->cur) < 0) {
			fprintf(stderr, PROG ": CPU %d: %s\n", c->cpu, strerror(errno));
			continue;
		}
		t = elapsed();
		cpc_buf_sub(g.cpc, c->diff, c->cur, c->prev);
		cpc_buf_copy(g.cpc, c->prev, c->cur);
		row(t, c->cpu, "tick", spec, c->diff);
		cpc_buf_add(g.cpc, g.total[spec], g.total[spec], c->diff);
	}
	fflush(stdout);
}

/* Sleep until t seconds after the start; 0 when interrupted. */
static int sleep_until(double t)
{
	struct timespec ts = g.t0;
	long long ns = (long long)(t * 1e9);

	ts.tv_sec += ns / 1000000000LL;
	ts.tv_nsec += ns % 1000000000LL;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	return !stop;
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* -s: spin at the lowest priority on one CPU */
static void *soaker(void *arg)
{
	struct sched_param sp = { 0 };
	cpu_set_t cs;

	CPU_ZERO(&cs);
	CPU_SET((int)(long)arg, &cs);
	pthread_setaffinity_np(pthread_self(), sizeof(cs), &cs);
	pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);
	while (!soak_stop)
		;
	return NULL;
}

static int system_only(const struct cpcs_spec *sp)
{
	int i;

	for (i = 0; i < sp->nreqs; i++)
		if ((sp->reqs[i].flags & CPC_COUNT_USER) ||
		    !(sp->reqs[i].flags & CPC_COUNT_SYSTEM))
			return 0;
	return 1;
}

static double parse_secs(const char *s, const char *what)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > 86400)
		tool_usage_error("%s: not a number of seconds: \"%s\"", what, s);
	return v;
}

int main(int argc, char **argv)
{
	struct cpcs_opts o = { 0 };
	int c, i, spec, soaking = 0, ncpu_conf;
	pthread_t *soakers = NULL;
	unsigned long k, done;
	double t, cycle0;
	char *end;

	tool_init(PROG, usage);
	while ((c = getopt(argc, argv, "c:hnp:stDT:")) != -1) {
		if (cpcs_tool_opt(&o, c, optarg))
			continue;
		switch (c) {
		case 'p':
			g.period = parse_secs(optarg, "-p");
			break;
		case 's':
			g.soak = 1;
			break;
		case 'T':
			if (strcmp(optarg, "u") && strcmp(optarg, "d"))
				tool_usage_error("-T: u or d, not \"%s\"", optarg);
			g.stamp = optarg[0];
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
	if (argc > 2)
		tool_usage_error("too many arguments: \"%s\"", argv[2]);
	if (argc >= 1)
		g.interval = parse_secs(argv[0], "interval");
	if (argc == 2) {
		errno = 0;
		g.count = strtoul(argv[1], &end, 10);
		if (errno || end == argv[1] || *end || *argv[1] == '-' || g.count == 0)
			tool_usage_error("count: not a positive number: \"%s\"", argv[1]);
	}
	/* unbound sets: they hold the totals' buffers */
	cpcs_tool_sets(g.cpc, o.texts, o.ntexts, g.specs, g.total_set);
	for (i = 0; i < g.nspecs; i++) {
		g.total[i] = cpc_buf_create(g.cpc, g.total_set[i]);
		if (!g.total[i]) {
			fprintf(stderr, PROG ": %s\n", strerror(errno));
			return 1;
		}
		cpc_buf_zero(g.cpc, g.total[i]);
		if (g.soak && system_only(&g.specs[i]))
			soaking = 1;
	}
	ncpu_conf = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (ncpu_conf < 1)
		ncpu_conf = 1;
	g.cpus = calloc((size_t)ncpu_conf, sizeof(*g.cpus));
	if (!g.cpus)
		return 1;
	for (i = 0; i < ncpu_conf; i++)
		g.cpus[i].cpu = i;
	g.ncpus = ncpu_conf;

	tool_on_stop_signals(on_signal);

	clock_gettime(CLOCK_MONOTONIC, &g.t0);
	if (bind_all(0, 1) < 0)
		return 1;
	if (soaking) {
		soakers = calloc((size_t)g.ncpus, sizeof(*soakers));
		for (i = 0; soakers && i < g.ncpus; i++)
			pthread_create(&soakers[i], NULL, soaker, (void *)(long)g.cpus[i].cpu);
	}
	header();
	spec = 0;
	t = 0;
	cycle0 = 0;
	done = 0;
	for (k = 0; !stop; k++) {
		t += g.interval;
		if (!sleep_until(t))
			break;
		sample_all(spec);
		if (g.nspecs > 1) {
			unbind_all();
			spec = (spec + 1) % g.nspecs;
		}
		/* a cycle ends after the last set (every sample without -p) */
		if (!g.period || spec == 0)
			done++;
		if (g.count && done >= g.count)
			break;
		if (g.period && spec == 0) {
			/* the next cycle starts a period after this one began */
			if (cycle0 + g.period > t)
				t = cycle0 + g.period;
			cycle0 = t;
			if (!sleep_until(t))
				break;
		}
		if (g.nspecs > 1 && bind_all(spec, 0) < 0)
			return 1;
	}
	t = elapsed();
	for (i = 0; i < g.nspecs; i++)
		row(t, g.ncpus, "total", i, g.total[i]);
	fflush(stdout);
	if (soakers) {
		soak_stop = 1;
		for (i = 0; i < g.ncpus; i++)
			pthread_join(soakers[i], NULL);
		free(soakers);
	}
	unbind_all();
	free(g.cpus);
	for (i = 0; i < g.nspecs; i++)
		cpcs_free(&g.specs[i]);
	cpc_close(g.cpc);
	return 0;
}
