// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat: count events of a command, a running process, or CPUs, as
 * FreeBSD's pmcstat(8) does in its counting modes.
 *
 *   hwpmc-stat [-C] [-c cpus] [-d] [-o file] [-q] [-v] [-w secs]
 *              [--csv | --json] {-p spec | -s spec} ... [-t pid | command]
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pmc.h>

#define EX_USAGE	64
#define MAXCTR		256
#define MINWAIT		0.1	/* -w: no faster than a person reads */

struct ctr {
	const char	*spec;
	enum pmc_mode	mode;
	uint32_t	flags;
	int		cpu;		/* system scope */
	pmc_id_t	id;
	pmc_value_t	last;		/* at the previous interval */
};

static struct ctr ctrs[MAXCTR];
static int nctr;
static volatile sig_atomic_t interrupted;
static pid_t child = -1;
static const char *prog = "hwpmc-stat";
static int verbose, quiet;
static enum { OUT_TEXT, OUT_CSV, OUT_JSON } outfmt = OUT_TEXT;

static void usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void usage(const char *fmt, ...)
{
	va_list ap;

	if (fmt) {
		fprintf(stderr, "%s: ", prog);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	fprintf(stderr,
		"usage: %s [-C] [-c cpus] [-d] [-o file] [-q] [-v] [-w secs] [--csv|--json]\n"
		"           {-p spec | -s spec} ... [-t pid | command [args]]\n"
		"  -p spec    count spec in the process(es) (process scope)\n"
		"  -s spec    count spec on each CPU of -c (system scope)\n"
		"  -c cpus    CPUs for the following -s: list '0,2-3' or '*' (default *)\n"
		"  -d         the following -p count descendants too\n"
		"  -t pid     count a running process instead of a command\n"
		"  -w secs    print every secs seconds (at least %.1f)\n"
		"  -C         with -w: cumulative values, not per interval\n"
		"  -o file    write the counts to file (default: stderr)\n"
		"  --csv, --json   machine-readable counts\n"
		"  -q, -v     quieter, more verbose\n"
		"Events: hwpmc-control -L; spec is 'event[,usr|,os]' (pmc(3)).\n",
		prog, MINWAIT);
	exit(fmt ? EX_USAGE : 0);
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
		if (*end == ',')
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

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Allocate one PMC; as an unprivileged user retry PMU events ",usr". */
static int allocate(struct ctr *c)
{
	char spec[512];

	if (!pmc_allocate(c->spec, c->mode, c->flags, c->cpu, &c->id, 0))
		return 0;
	if (errno == EPERM && !strchr(c->spec, ',') && !strchr(c->spec, ':')) {
		snprintf(spec, sizeof(spec), "%s,usr", c->spec);
		if (!pmc_allocate(spec, c->mode, c->flags, c->cpu, &c->id, 0)) {
			if (verbose)
				fprintf(stderr, "%s: %s: counting user mode only (kernel mode needs CAP_PERFMON)\n",
					prog, c->spec);
			return 0;
		}
		errno = EPERM;
	}
	if (errno == EINVAL && pmc_allocate_message()[0] &&
	    !strstr(pmc_allocate_message(), strerror(EINVAL)))
		fprintf(stderr, "%s: %s\n", prog, pmc_allocate_message());
	else
		fprintf(stderr, "%s: cannot allocate '%s'%s: %s\n", prog,
			c->spec, c->mode == PMC_MODE_SC ? " on a CPU" : "",
			errno == EPERM && c->mode == PMC_MODE_SC ?
			"Operation not permitted (system scope needs CAP_PERFMON)" :
			strerror(errno));
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

static void print_header(FILE *out)
{
	char buf[600];
	int i;

	if (outfmt != OUT_TEXT || quiet)
		return;
	fprintf(out, "#");
	for (i = 0; i < nctr; i++)
		fprintf(out, " %20s", label(&ctrs[i], buf, sizeof(buf)));
	fputc('\n', out);
}

/* One row of values: cumulative, or since the previous row. */
static void print_row(FILE *out, int cumulative)
{
	pmc_value_t v;
	int i;

	if (outfmt != OUT_TEXT)
		return;
	fputc(' ', out);
	for (i = 0; i < nctr; i++) {
		if (pmc_read(ctrs[i].id, &v) < 0)
			v = 0;
		fprintf(out, " %20ju", (uintmax_t)(cumulative ? v :
						   v - ctrs[i].last));
		ctrs[i].last = v;
	}
	fputc('\n', out);
	fflush(out);
}

static void print_final(FILE *out, int status_known, int status)
{
	pmc_value_t v;
	int i;

	if (outfmt == OUT_TEXT) {
		print_header(out);
		print_row(out, 1);
		return;
	}
	if (outfmt == OUT_CSV)
		fprintf(out, "event,scope,cpu,value\n");
	else
		fprintf(out, "{\"counters\":[");
	for (i = 0; i < nctr; i++) {
		const struct ctr *c = &ctrs[i];

		if (pmc_read(c->id, &v) < 0)
			v = 0;
		if (outfmt == OUT_CSV) {
			fprintf(out, "%s,%s,", c->spec,
				c->mode == PMC_MODE_SC ? "system" : "process");
			if (c->mode == PMC_MODE_SC)
				fprintf(out, "%d", c->cpu);
			fprintf(out, ",%ju\n", (uintmax_t)v);
		} else {
			fprintf(out, "%s{\"event\":\"%s\",\"scope\":\"%s\",\"cpu\":",
				i ? "," : "", c->spec,
				c->mode == PMC_MODE_SC ? "system" : "process");
			if (c->mode == PMC_MODE_SC)
				fprintf(out, "%d", c->cpu);
			else
				fprintf(out, "null");
			fprintf(out, ",\"value\":%ju}", (uintmax_t)v);
		}
	}
	if (outfmt == OUT_JSON) {
		fprintf(out, "]");
		if (status_known)
			fprintf(out, ",\"exit_status\":%d", status);
		fprintf(out, "}\n");
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "csv", no_argument, NULL, 'X' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct pmc_cpuinfo *ci;
	unsigned char *cpus = NULL;
	const char *cpuarg = "*", *outfile = NULL;
	double interval = 0, next;
	int opt, i, cpu, cumulative = 0, descendants = 0, status = 0;
	int status_known = 0, go[2] = { -1, -1 }, ncpu;
	pid_t target = -1;
	FILE *out = stderr;
	char *end;
	struct {
		const char *spec;
		int sys;
		int desc;
		const char *cpus;
	} want[MAXCTR];
	int nwant = 0;
	struct sigaction sa;

	while ((opt = getopt_long(argc, argv, "+Cc:dho:p:qs:t:vw:", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'C':
			cumulative = 1;
			break;
		case 'c':
			cpuarg = optarg;
			break;
		case 'd':
			descendants = 1;
			break;
		case 'o':
			outfile = optarg;
			break;
		case 'p':
		case 's':
			if (nwant == MAXCTR)
				usage("too many events");
			want[nwant].spec = optarg;
			want[nwant].sys = opt == 's';
			want[nwant].desc = descendants;
			want[nwant].cpus = cpuarg;
			nwant++;
			break;
		case 'q':
			quiet = 1;
			break;
		case 't':
			errno = 0;
			target = (pid_t)strtol(optarg, &end, 10);
			if (errno || *end || target <= 0)
				usage("bad pid '%s'", optarg);
			break;
		case 'v':
			verbose = 1;
			break;
		case 'w':
			errno = 0;
			interval = strtod(optarg, &end);
			if (errno || *end || !isfinite(interval) ||
			    interval < MINWAIT)
				usage("bad interval '%s' (seconds, at least %.1f)",
				      optarg, MINWAIT);
			break;
		case 'X':
			outfmt = OUT_CSV;
			break;
		case 'J':
			outfmt = OUT_JSON;
			break;
		case 'h':
			usage(NULL);
		default:
			usage("unknown option");
		}
	}
	argc -= optind;
	argv += optind;
	if (!nwant)
		usage("no event: give -p or -s");
	if (target > 0 && argc)
		usage("-t and a command exclude each other");
	for (i = 0; i < nwant; i++)
		if (!want[i].sys && target < 0 && !argc)
			usage("-p needs a command or -t pid");
	if (!argc && target < 0 && interval == 0)
		usage("system counting without a command needs -w (Ctrl-C ends it)");

	if (pmc_init() < 0) {
		fprintf(stderr, "%s: cannot initialise: %s\n", prog,
			pmc_init_message());
		return 1;
	}
	if (pmc_cpuinfo(&ci) < 0)
		return 1;
	for (i = 0; i < nwant; i++) {
		struct pmc_op_pmcallocate pa;
		char err[256];

		if (pmc_parse_spec(want[i].spec, &pa, err, sizeof(err)) < 0)
			usage("%s", err);
	}
	ncpu = (int)ci->pm_ncpu;
	cpus = calloc((size_t)ncpu, 1);
	if (!cpus)
		return 1;
	if (outfile) {
		out = fopen(outfile, "w");
		if (!out) {
			fprintf(stderr, "%s: %s: %s\n", prog, outfile,
				strerror(errno));
			return 1;
		}
	}

	for (i = 0; i < nwant; i++) {
		if (!want[i].sys) {
			ctrs[nctr].spec = want[i].spec;
			ctrs[nctr].mode = PMC_MODE_TC;
			ctrs[nctr].flags = want[i].desc ? PMC_F_DESCENDANTS : 0;
			ctrs[nctr].cpu = (int)PMC_CPU_ANY;
			if (allocate(&ctrs[nctr++]) < 0)
				return 1;
			continue;
		}
		if (parse_cpus(want[i].cpus, cpus, ncpu) < 0)
			usage("bad CPU list '%s' (CPUs 0-%d, or '*')",
			      want[i].cpus, ncpu - 1);
		for (cpu = 0; cpu < ncpu; cpu++) {
			if (!cpus[cpu])
				continue;
			if (nctr == MAXCTR)
				usage("too many counters");
			ctrs[nctr].spec = want[i].spec;
			ctrs[nctr].mode = PMC_MODE_SC;
			ctrs[nctr].cpu = cpu;
			if (pmc_allocate(want[i].spec, PMC_MODE_SC, 0, cpu,
					 &ctrs[nctr].id, 0) < 0) {
				if (errno == ENXIO && !strcmp(want[i].cpus, "*"))
					continue;	/* offline */
				ctrs[nctr].cpu = cpu;
				if (allocate(&ctrs[nctr]) < 0)
					return 1;
			}
			nctr++;
		}
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	if (argc) {
		char c;

		if (pipe(go) < 0)
			return 1;
		child = fork();
		if (child < 0) {
			fprintf(stderr, "%s: fork: %s\n", prog, strerror(errno));
			return 1;
		}
		if (child == 0) {
			close(go[1]);
			if (read(go[0], &c, 1) != 1)
				_exit(127);	/* the parent gave up */
			close(go[0]);
			execvp(argv[0], argv);
			fprintf(stderr, "%s: %s: %s\n", prog, argv[0],
				strerror(errno));
			_exit(127);
		}
		close(go[0]);
		target = child;
	}
	for (i = 0; i < nctr; i++) {
		if (ctrs[i].mode == PMC_MODE_TC &&
		    pmc_attach(ctrs[i].id, target) < 0) {
			fprintf(stderr, "%s: cannot attach to pid %d: %s%s\n",
				prog, (int)target, strerror(errno),
				errno == EPERM ?
				" (need the same user, or CAP_SYS_PTRACE)" : "");
			if (child > 0)
				kill(child, SIGKILL);
			return 1;
		}
	}
	for (i = 0; i < nctr; i++)
		if (pmc_start(ctrs[i].id) < 0) {
			fprintf(stderr, "%s: cannot start '%s': %s\n", prog,
				ctrs[i].spec, strerror(errno));
			if (child > 0)
				kill(child, SIGKILL);
			return 1;
		}
	if (child > 0 && write(go[1], "g", 1) != 1)
		return 1;
	if (go[1] >= 0)
		close(go[1]);

	if (interval > 0)
		print_header(out);
	next = now() + interval;
	for (;;) {
		if (child > 0) {
			pid_t r = waitpid(child, &status, interval > 0 ?
					  WNOHANG : 0);

			if (r == child) {
				status_known = 1;
				break;
			}
			if (r < 0 && errno != EINTR)
				break;
		} else if (target > 0 && kill(target, 0) < 0 && errno == ESRCH) {
			break;
		}
		if (interrupted && child <= 0)
			break;
		if (interval > 0) {
			if (now() >= next) {
				print_row(out, cumulative);
				next += interval;
			}
			usleep(20000);
		} else if (child <= 0) {
			usleep(100000);	/* -t: until the target is gone */
		}
	}
	for (i = 0; i < nctr; i++)
		pmc_stop(ctrs[i].id);
	print_final(out, status_known, WIFEXITED(status) ?
		    WEXITSTATUS(status) : 128 + WTERMSIG(status));
	for (i = 0; i < nctr; i++)
		pmc_release(ctrs[i].id);
	if (out != stderr)
		fclose(out);
	free(cpus);
	if (!status_known)
		return 0;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
