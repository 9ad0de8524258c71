// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat's sampling runs and reports: the log (a temporary file, -O's
 * file, or -O host:port over TCP), configured before the PMCs and closed
 * after them; what the run lost; and the reports of a log, of the run's
 * or of -R's file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>

#include "pmcstat_stat.h"

#ifndef HWPMC_STATIC
#define HWPMC_STATIC	0
#endif

/*
 * A report's file; "-": dash, the output file (-o's, else the standard
 * output; NULL: the standard output), as pmcstat(8) sends -F -, -G -,
 * -m -, -M - there
 */
static FILE *open_out(const char *path, FILE *dash)
{
	FILE *f;

	if (!strcmp(path, "-"))
		return dash ? dash : stdout;
	f = fopen(path, "we");
	if (!f) {
		fprintf(stderr, "%s: cannot create %s: %s\n", prog, path, strerror(errno));
		exit(1);
	}
	return f;
}

/* A report's file closed (dash, the output file, flushed): 0, or -1. */
static int close_out(FILE *f, const char *path, FILE *dash)
{
	int err = ferror(f);

	if (f == stdout || f == dash) {
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

/* reports made of the stacks */
int want_stacks(const struct reports *r)
{
	return r->folded || r->flame || r->perfscript || r->pprof;
}

/* more than one report to standard output */
const char *stdout_clash(const struct reports *r)
{
	const char *v[] = { r->graph, r->folded, r->pcs, r->addrs, r->callchain,
			    r->calltree, r->gmonmap, r->flame, r->perfscript,
			    r->pprof };
	size_t i;
	int n = r->dump, added = 0;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (v[i] && !strcmp(v[i], "-")) {
			n++;
			added |= i >= 7;	/* the text reports mix, as before */
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
		ro.graph = open_out(r->graph, out);
	if (r->folded)
		ro.folded = open_out(r->folded, out);
	if (r->callchain)
		ro.callchain = open_out(r->callchain, out);
	if (r->calltree)
		ro.calltree = open_out(r->calltree, out);
	if (r->flame)
		ro.flame = open_out(r->flame, out);
	if (r->perfscript)
		ro.perfscript = open_out(r->perfscript, out);
	if (r->pprof)
		ro.pprof = open_out(r->pprof, out);
	if (r->ro.annotate)
		ro.annotate = out;
	if (r->pcs)
		ro.pcs = open_out(r->pcs, out);
	if (r->addrs)
		ro.addrs = open_out(r->addrs, out);
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
	    !(r->callchain && !strcmp(r->callchain, "-")) &&
	    !(r->calltree && !strcmp(r->calltree, "-")) &&
	    !(r->gmonmap && !strcmp(r->gmonmap, "-")) &&
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
		rc |= close_out(ro.graph, r->graph, out);
	if (ro.folded)
		rc |= close_out(ro.folded, r->folded, out);
	if (ro.callchain)
		rc |= close_out(ro.callchain, r->callchain, out);
	if (ro.calltree)
		rc |= close_out(ro.calltree, r->calltree, out);
	if (ro.flame)
		rc |= close_out(ro.flame, r->flame, out);
	if (ro.perfscript)
		rc |= close_out(ro.perfscript, r->perfscript, out);
	if (ro.pprof)
		rc |= close_out(ro.pprof, r->pprof, out);
	if (ro.pcs)
		rc |= close_out(ro.pcs, r->pcs, out);
	if (ro.addrs)
		rc |= close_out(ro.addrs, r->addrs, out);
	if (ro.gmon && rc == 0) {
		FILE *map = r->gmonmap ? open_out(r->gmonmap, out) : NULL;

		if (gmon_write(ro.gmon, r->gmondir ? r->gmondir : ".", r->gmonwide,
			       map, r->ro.quiet) < 0)
			rc = -1;
		if (map)
			rc |= close_out(map, r->gmonmap, out);
	}
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
int report_file(const char *path, const struct reports *r)
{
	struct log_summary sum;
	FILE *out;
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	int rc;

	if (fd < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return 1;
	}
	out = r->out ? open_out(r->out, NULL) : stdout;
	rc = write_reports(fd, path, r, out, &sum);
	if (fd > 0)
		close(fd);
	if (sum.dropped_records)
		fprintf(stderr, "%s: warning: the log says %ju records were lost (DROPNOTIFY)\n",
			prog, (uintmax_t)sum.dropped_records);
	if (sum.unwind_tried > sum.unwound && !r->ro.quiet)
		fprintf(stderr, "%s: note: %ju of %ju samples with a user stack were not "
			"unwound by DWARF CFI (first: %s); their frame-pointer chains are kept\n",
			prog, (uintmax_t)(sum.unwind_tried - sum.unwound),
			(uintmax_t)sum.unwind_tried, unwind_error() ? unwind_error() : "?");
	if (!sum.closed && !r->ro.quiet)
		fprintf(stderr, "%s: note: the log has no CLOSELOG record (cut short?)\n",
			prog);
	rc |= out == stdout ? 0 : close_out(out, r->out, NULL);
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
static void warn_uncounted(const struct ctr *ctrs, int nctr)
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

int is_host_port(const char *name)
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

/* The log's descriptors: s->logw, and s->logr to read it back; 0, or -1. */
static int sample_open_log(struct sampling *s, const struct opts *o)
{
	if (o->logfile && is_host_port(o->logfile)) {
		s->logw = log_connect(o->logfile);
		if (s->logw < 0)
			return -1;
	} else if (o->logfile) {
		s->logw = open(o->logfile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			       0644);
		if (s->logw < 0) {
			fprintf(stderr, "%s: %s: %s\n", prog, o->logfile,
				strerror(errno));
			return -1;
		}
		if (o->top)
			s->logr = open(o->logfile, O_RDONLY | O_CLOEXEC);
	} else {
		s->logw = temp_log(&s->logr);
	}
	if (s->logw < 0 || (o->top && s->logr < 0)) {
		fprintf(stderr, "%s: log file: %s\n", prog, strerror(errno));
		return -1;
	}
	return 0;
}

int sample_begin(struct sampling *s, const struct opts *o)
{
	if (sample_open_log(s, o) < 0)
		return -1;
	if (pmc_configure_logfile_flags(s->logw, o->kprof ?
					PMC_LOG_KERNEL_PROFILES : 0) < 0) {
		if (o->kprof && errno == EPERM)
			fprintf(stderr, "%s: --kernel-profiles: not for you: "
				"CAP_PERFMON is needed, and kernel addresses "
				"visible (kernel.kptr_restrict 0, or 1 with "
				"CAP_SYSLOG)\n", prog);
		else if (o->kprof && errno == EBUSY)
			fprintf(stderr, "%s: --kernel-profiles: another log "
				"takes the kernel's profiles\n", prog);
		else if (o->kprof && errno == EINVAL)
			fprintf(stderr, "%s: --kernel-profiles: the hwpmc "
				"module refused it (older than the tool?)\n",
				prog);
		else if (errno == EOPNOTSUPP)
			fprintf(stderr, "%s: cannot configure the log: %s "
				"is a terminal, or on a filesystem (FUSE, "
				"NFS, ...) that hwpmc cannot write without "
				"blocking; use a local file or a pipe%s\n",
				prog, o->logfile ? o->logfile : "the temporary file",
				o->logfile ? "" : " (set TMPDIR)");
		else
			fprintf(stderr, "%s: cannot configure the log: %s\n",
				prog, strerror(errno));
		return -1;
	}
	pmc_get_driver_stats(&s->ds0);
	return 0;
}

int sample_end(struct sampling *s, const struct stat_run *st, FILE *out)
{
	const struct opts *o = &st->o;
	int rc = 0;

	/* the samples still in the rings, CLOSELOG, all written */
	if (pmc_configure_logfile(-1) < 0)
		fprintf(stderr, "%s: closing the log: %s\n", prog,
			strerror(errno));
	pmc_get_driver_stats(&s->ds1);
	close(s->logw);
	if (!o->logfile) {
		log_free(&s->lb);		/* -T's copy: read again */
		if (lseek(s->logr, 0, SEEK_SET) < 0 ||
		    write_reports(s->logr, "reading the log", &o->rep, out,
				  &s->sum))
			rc = -1;
	}
	if (s->logr >= 0)
		close(s->logr);
	warn_drops(&s->ds0, &s->ds1, &s->sum);
	warn_uncounted(st->ctrs, st->nctr);
	return rc;
}
