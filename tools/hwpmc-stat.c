// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat: count events of a command, a running process, or CPUs, as
 * FreeBSD's pmcstat(8) does in its counting modes.
 *
 *   hwpmc-stat [-C] [-c cpus] [-d] [-o file] [-q] [-v] [-w secs]
 *              [--csv | --json] {-p spec | -s spec} ... [-t pid | command]
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pmc.h>

#define EX_USAGE	64
#define MAXSPEC		256	/* -p and -s options */
#define MINWAIT		0.1	/* -w: no faster than a person reads */
#define DEFWAIT		5.0	/* pmcstat's interval, for runs with no end */

struct ctr {
	const char	*spec;
	enum pmc_mode	mode;
	uint32_t	flags;
	int		cpu;		/* system scope */
	pmc_id_t	id;
	pmc_value_t	last;		/* at the previous interval */
	int		width;		/* of its column */
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
		"usage: %s [-C] [-c cpus] [-d] [-o file] [-q] [-v] [-w secs] [--csv|--json]\n"
		"           {-p spec | -s spec} ... [-t pid | command [args]]\n",
		prog);
	if (fmt)
		exit(EX_USAGE);
	fprintf(f,
		"  -p spec    count spec in the process(es) (process scope)\n"
		"  -s spec    count spec on each CPU of -c (system scope)\n"
		"  -c cpus    CPUs for the following -s: list '0,2-3' or '*' (default *)\n"
		"  -d         toggle: the following -p count descendants too\n"
		"  -t pid     count a running process instead of a command\n"
		"  -w secs    print every secs seconds (at least %.1f; default %.0f\n"
		"             without a command or -t, else only at the end)\n"
		"  -C         with -w: cumulative values, not per interval\n"
		"  -o file    write the counts to file (default: stderr)\n"
		"  --csv, --json   machine-readable counts (hwpmc-stat(8))\n"
		"  -q, -v     quieter, more verbose\n"
		"Events: hwpmc-control -L; spec is 'event[,usr|,os]' (pmc(3)).\n",
		MINWAIT, DEFWAIT);
	exit(0);
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

	if (!pmc_allocate(c->spec, c->mode, c->flags, c->cpu, &c->id, 0))
		return 0;
	if (errno == EPERM && c->mode == PMC_MODE_TC &&
	    !pmc_parse_spec(c->spec, &pa, err, sizeof(err)) &&
	    pa.pm_class == PMC_CLASS_PMU && !pa.pm_caps) {
		snprintf(spec, sizeof(spec), "%s,usr", c->spec);
		if (!pmc_allocate(spec, c->mode, c->flags, c->cpu, &c->id, 0)) {
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
		fprintf(out, "time,event,scope,cpu,value\n");
		return;
	}
	if (outfmt != OUT_TEXT)
		return;
	fprintf(out, "#");
	for (i = 0; i < nctr; i++)
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

/*
 * One row: every counter's value since the previous row, or since the
 * start (cumulative).  final: the totals at the end, with the command's
 * exit status when known (status >= 0).
 */
static void print_row(FILE *out, int cumulative, int final, int status)
{
	double t = now() - t0;
	pmc_value_t v, shown;
	int i;

	if (outfmt == OUT_TEXT)
		fputc(' ', out);
	else if (outfmt == OUT_JSON)
		fprintf(out, "{\"time\":%.3f,\"final\":%s,\"counters\":[", t,
			final ? "true" : "false");
	for (i = 0; i < nctr; i++) {
		struct ctr *c = &ctrs[i];

		if (pmc_read(c->id, &v) < 0)
			v = c->last;
		shown = cumulative ? v : v - c->last;
		c->last = v;
		switch (outfmt) {
		case OUT_TEXT:
			fprintf(out, " %*ju", c->width, (uintmax_t)shown);
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
			fprintf(out, ",%ju\n", (uintmax_t)shown);
			break;
		case OUT_JSON:
			fprintf(out, "%s{\"event\":", i ? "," : "");
			json_string(out, c->spec);
			fprintf(out, ",\"scope\":\"%s\",\"cpu\":",
				c->mode == PMC_MODE_SC ? "system" : "process");
			if (c->mode == PMC_MODE_SC)
				fprintf(out, "%d", c->cpu);
			else
				fprintf(out, "null");
			fprintf(out, ",\"value\":%ju}", (uintmax_t)shown);
			break;
		}
	}
	if (outfmt == OUT_TEXT) {
		fputc('\n', out);
	} else if (outfmt == OUT_JSON) {
		fputc(']', out);
		if (final && status >= 0)
			fprintf(out, ",\"exit_status\":%d", status);
		fprintf(out, "}\n");
	}
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

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "csv", no_argument, NULL, 'X' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct pmc_cpuinfo *ci;
	const char *cpuarg = "*", *outfile = NULL;
	double interval = 0, next, left;
	int opt, i, cpu, cumulative = 0, descendants = 0, status = 0;
	int status_known = 0, go[2] = { -1, -1 }, ncpu, pidfd = -1;
	pid_t target = -1;
	FILE *out = stderr;
	char *end;
	struct {
		const char *spec;
		int sys;
		int desc;
		const char *cpus;
	} want[MAXSPEC];
	int nwant = 0;
	struct sigaction sa;
	sigset_t block, orig;
	struct pollfd pfd;
	struct timespec ts;

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
			descendants = !descendants;	/* a toggle, as pmcstat's */
			break;
		case 'o':
			outfile = optarg;
			break;
		case 'p':
		case 's':
			if (nwant == MAXSPEC)
				usage("too many events (at most %d)", MAXSPEC);
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
			if (errno || end == optarg || *end || target <= 0)
				usage("bad pid '%s'", optarg);
			break;
		case 'v':
			verbose = 1;
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
		case 'h':
			usage(NULL);
		default:
			usage("unknown option or missing argument");
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
	/* system counting with no end: print every 5 s, as pmcstat */
	if (!argc && target < 0 && interval == 0)
		interval = DEFWAIT;
	/* the specifiers, before the module is asked (pure parse) */
	for (i = 0; i < nwant; i++) {
		struct pmc_op_pmcallocate pa;
		char err[256];

		if (pmc_parse_spec(want[i].spec, &pa, err, sizeof(err)) < 0)
			usage("%s", err);
	}

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
	}
	ncpu = (int)ci->pm_ncpu;
	cpus = calloc((size_t)ncpu, 1);
	if (!cpus)
		return 1;
	for (i = 0; i < nwant; i++)
		if (want[i].sys && parse_cpus(want[i].cpus, cpus, ncpu) < 0)
			usage("bad CPU list '%s' (CPUs 0-%d, or '*')",
			      want[i].cpus, ncpu - 1);
	if (outfile) {
		out = fopen(outfile, "we");
		if (!out) {
			fprintf(stderr, "%s: %s: %s\n", prog, outfile,
				strerror(errno));
			return 1;
		}
	}

	for (i = 0; i < nwant; i++) {
		struct ctr *c;

		if (!want[i].sys) {
			c = new_ctr();
			c->spec = want[i].spec;
			c->mode = PMC_MODE_TC;
			c->flags = want[i].desc ? PMC_F_DESCENDANTS : 0;
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
			c->mode = PMC_MODE_SC;
			c->cpu = cpu;
			if (!pmc_allocate(c->spec, PMC_MODE_SC, 0, cpu, &c->id, 0))
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
		target = child;
	}
	for (i = 0; i < nctr; i++) {
		if (ctrs[i].mode == PMC_MODE_TC &&
		    pmc_attach(ctrs[i].id, target) < 0) {
			fprintf(stderr, "%s: cannot attach to pid %d: %s%s\n",
				prog, (int)target, strerror(errno),
				errno == EPERM ?
				" (need the same user, or CAP_SYS_PTRACE)" : "");
			give_up(child);
		}
	}
	if (target > 0) {
		pidfd = pid_fd(target);
		if (pidfd < 0 && verbose)
			fprintf(stderr, "%s: no pidfd (%s): polling pid %d\n",
				prog, strerror(errno), (int)target);
	}
	t0 = now();
	for (i = 0; i < nctr; i++)
		if (pmc_start(ctrs[i].id) < 0) {
			fprintf(stderr, "%s: cannot start '%s': %s\n", prog,
				ctrs[i].spec, strerror(errno));
			give_up(child);
		}
	if (child > 0) {
		if (write(go[1], "g", 1) != 1)
			give_up(child);
		close(go[1]);
	}

	if (interval > 0)
		print_header(out);
	next = t0 + interval;
	for (;;) {
		/* wait for: the target's end, a signal, the next interval */
		left = interval > 0 ? next - now() : -1;
		if (interval > 0 && left < 0)
			left = 0;
		if (pidfd < 0 && target > 0 && (left < 0 || left > 0.1))
			left = 0.1;		/* no pidfd: poll the pid */
		pfd.fd = pidfd;
		pfd.events = POLLIN;
		if (left >= 0) {
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		}
		if (ppoll(&pfd, pidfd >= 0 ? 1 : 0, left >= 0 ? &ts : NULL,
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
		} else if (target > 0 && gone(target)) {
			break;
		}
		if (interrupted && child <= 0)
			break;
		if (interval > 0 && now() >= next) {
			print_row(out, cumulative, 0, -1);
			next += interval;
			if (next < now())	/* we were stopped: skip */
				next = now() + interval;
		}
	}
	for (i = 0; i < nctr; i++)
		pmc_stop(ctrs[i].id);
	if (!(interval > 0 && outfmt != OUT_TEXT))
		print_header(out);
	print_row(out, 1, 1, !status_known ? -1 : WIFEXITED(status) ?
		  WEXITSTATUS(status) : 128 + WTERMSIG(status));
	for (i = 0; i < nctr; i++)
		pmc_release(ctrs[i].id);
	if (out != stderr && fclose(out) != 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, outfile, strerror(errno));
		return 1;
	}
	free(cpus);
	free(ctrs);
	pmc_fini();
	if (!status_known)
		return 0;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
