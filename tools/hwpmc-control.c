// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-control: FreeBSD's pmccontrol(8) for hwpmc on Linux.
 *
 *   hwpmc-control -L [-v]             list classes and their events (with
 *                                     the CPU's vendor events, by topic;
 *                                     -v: and their descriptions, perf's
 *                                     long ones, and encodings)
 *   hwpmc-control -l                  list the state of every PMC row
 *   hwpmc-control -s                  driver statistics
 *   hwpmc-control [-c cpu|*] -e pmc|* [-c cpu|*] -d pmc|* ...
 *                                     enable / disable rows, left to right
 *   hwpmc-control -V                  library and module versions
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <pmc.h>
#include <hwpmc_version.h>

#include "tool_util.h"

#define PROG		"hwpmc-control"
#define ALL		(-1)		/* "*": every CPU or every row */
#define CPU_MAX		4096		/* PMC ids carry 12 bits of CPU */
#define ROW_MAX		256		/* ... and 8 bits of row */

enum mode { M_NONE, M_LIST_EVENTS, M_STATE, M_STATS, M_ADMIN, M_VERSION };

struct admin_op {
	int	enable;			/* 1: -e, 0: -d */
	int	cpu;			/* or ALL */
	int	pmc;			/* or ALL */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " -L [-v] | -l | -s | -V | -h\n"
		"       " PROG " [-c cpu|*] {-e pmc|* | -d pmc|*} ...\n"
		"  -L          list PMC classes and their events, with the CPU's\n"
		"              vendor events (HWPMC_CPUID names another CPU)\n"
		"  -v          with -L: descriptions (perf's long ones) and encodings\n"
		"              of vendor events\n"
		"  -l          list the state of the PMC rows of every CPU\n"
		"  -s          print driver statistics\n"
		"  -c cpu|*    CPU for the following -e and -d (default: all)\n"
		"  -e pmc|*    enable PMC row(s) on the current CPU(s)\n"
		"  -d pmc|*    disable PMC row(s) on the current CPU(s)\n"
		"  -V          print library and module versions\n"
		"  -h          this help\n"
		"-c, -e and -d are processed left to right, as in "
		"'" PROG " -c '*' -e '*' -c 0 -d 0'.\n");
}

/* "*" or a decimal number in [0, max); else a usage error naming what. */
static int parse_index(const char *s, int max, const char *what)
{
	char *end;
	long v;

	if (!strcmp(s, "*"))
		return ALL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < 0 || v >= max)
		tool_usage_error("bad %s '%s': expected a number from 0 to %d, or '*'",
			    what, s, max - 1);
	return (int)v;
}

static void init_or_die(void)
{
	if (pmc_init() < 0)
		tool_die("cannot initialise: %s", pmc_init_message());
}

static const char *class_name(uint32_t cl, char *buf, size_t len)
{
	const char *n = pmc_name_of_class((enum pmc_class)cl);

	if (n)
		return n;
	snprintf(buf, len, "0x%x", cl);
	return buf;
}

/*
 * One vendor event; with -v, perf's long description, else the brief, and
 * its topic, encoding and libpfm4 name.
 */
static void print_vendor_event(int idx, const struct pmc_pmu_event_info *info,
			       int verbose)
{
	const char *desc, *pfm;

	printf("\t%s\n", info->pe_name);
	if (!verbose)
		return;
	desc = pmc_pmu_event_long_desc(idx);
	if (desc && *desc)
		printf("\t\t%s\n", desc);
	pfm = pmc_pmu_event_pfm_name(idx);
	printf("\t\t[%s, %s%s%s%s]\n", info->pe_topic, info->pe_encoding,
	       info->pe_precise ? ", precise" : "", pfm ? ", libpfm4 " : "",
	       pfm ? pfm : "");
}

/* One event line; with -v, a vendor event's description and encoding. */
static void print_event(const char *name, int verbose)
{
	struct pmc_pmu_event_info info;
	int idx;

	idx = verbose ? pmc_pmu_idx_get_by_event(NULL, name) : -1;
	if (idx >= 0 && pmc_pmu_event_info(idx, &info) == 0)
		print_vendor_event(idx, &info, verbose);
	else
		printf("\t%s\n", name);
}

struct vendor_event {
	int		idx;
	struct pmc_pmu_event_info info;
};

/* By topic, then in the table's order (by name), as perf list sorts. */
static int vendor_cmp(const void *a, const void *b)
{
	const struct vendor_event *x = a, *y = b;
	int r = strcmp(x->info.pe_topic, y->info.pe_topic);

	return r ? r : (x->idx > y->idx) - (x->idx < y->idx);
}

/*
 * The CPU's vendor events (the deprecated ones left out), grouped by
 * topic as perf list does: a line "topic:", then the topic's events.
 */
static void print_vendor_events(int verbose)
{
	struct pmc_pmu_event_info info;
	struct vendor_event *v = NULL, *nv;
	size_t n = 0, cap = 0, i;
	int idx;

	for (idx = 0; pmc_pmu_event_info(idx, &info) == 0; idx++) {
		if (info.pe_deprecated)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 512;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				tool_die("out of memory");
			v = nv;
		}
		v[n].idx = idx;
		v[n++].info = info;
	}
	if (n)
		qsort(v, n, sizeof(*v), vendor_cmp);
	for (i = 0; i < n; i++) {
		if (i == 0 || strcmp(v[i].info.pe_topic, v[i - 1].info.pe_topic))
			printf("%s:\n", v[i].info.pe_topic);
		print_vendor_event(v[i].idx, &v[i].info, verbose);
	}
	free(v);
}

/* The first vendor event listed and how many are: 0 when none. */
static int vendor_count(const char **first)
{
	struct pmc_pmu_event_info info;
	int idx, n = 0;

	*first = NULL;
	for (idx = 0; pmc_pmu_event_info(idx, &info) == 0; idx++)
		if (!info.pe_deprecated && n++ == 0)
			*first = info.pe_name;
	return n;
}

/* Where the vendor events come from, or why there are none. */
static void vendor_note(int verbose)
{
	const char *id = pmc_pmu_cpuid(), *model = pmc_pmu_model();
	const char *env = getenv("HWPMC_CPUID");
	const char *src = env && *env ? ", from HWPMC_CPUID" : "";

	if (!id)
		fprintf(stderr, PROG ": note: the CPU cannot be identified: no vendor events (set HWPMC_CPUID)\n");
	else if (!model)
		fprintf(stderr, PROG ": note: no vendor event table for CPU %s%s\n",
			id, src);
	else if (verbose)
		printf("# vendor events: %s, CPU %s%s\n", model, id, src);
}

static void print_perf_event(const char *pmu, const char *event,
			     const char *terms, void *arg)
{
	if (*(int *)arg)
		printf("\t%s/%s/\n\t\t[%s]\n", pmu, event, terms);
	else
		printf("\t%s/%s/\n", pmu, event);
}

/*
 * The PERF class: the sysfs events of the PMUs other than the core one,
 * as perf spells them; tracepoints (thousands) are named, not listed.
 */
static void print_perf_events(int verbose)
{
	printf("PERF\n");
	if (pmc_perf_pmu_events(print_perf_event, &verbose) < 0)
		printf("\t(no /sys/bus/event_source/devices)\n");
	printf("\t# and other terms of those PMUs' format/ (pmu/event=0x..,.../), and tracepoints\n"
	       "\t# sys:name of tracefs's events/ (ls /sys/kernel/tracing/events)\n");
}

static int list_events(int verbose)
{
	const struct pmc_cpuinfo *ci;
	const char **names, *first;
	char buf[16];
	int n, i, nvendor;
	uint32_t c;

	if (pmc_cpuinfo(&ci) < 0)
		tool_die("cannot get CPU information: %s", strerror(errno));
	/* vendor events are a PMU's: no word of them without one */
	for (c = 0; c < ci->pm_nclass; c++)
		if (ci->pm_classes[c].pm_class == PMC_CLASS_PMU)
			vendor_note(verbose);
	for (c = 0; c < ci->pm_nclass; c++) {
		uint32_t cl = ci->pm_classes[c].pm_class;

		if (cl == PMC_CLASS_PERF) {
			print_perf_events(verbose);
			continue;
		}
		if (pmc_event_names_of_class((enum pmc_class)cl, &names, &n) < 0)
			tool_die("cannot list the events of class %s: %s",
			    class_name(cl, buf, sizeof(buf)), strerror(errno));
		printf("%s\n", class_name(cl, buf, sizeof(buf)));
		/* the PMU class's names end with the vendor events: by topic */
		nvendor = cl == PMC_CLASS_PMU ? vendor_count(&first) : 0;
		if (nvendor > n || (nvendor && strcmp(names[n - nvendor], first)))
			nvendor = 0;
		for (i = 0; i < n - nvendor; i++)
			print_event(names[i], verbose);
		if (nvendor)
			print_vendor_events(verbose);
		free(names);
	}
	return 0;
}

/*
 * Without the module: every event hwpmc knows, and the CPU's vendor
 * events (whether this machine has them is for the module to say).
 */
static int list_known_events(int verbose)
{
	static const uint32_t ranges[][2] = {
		{ PMC_EV_SOFT_FIRST, PMC_EV_SOFT_LAST },
		{ PMC_EV_PMU_HW_FIRST, PMC_EV_PMU_HW_LAST },
		{ PMC_EV_PMU_CACHE_FIRST, PMC_EV_PMU_CACHE_LAST },
		{ PMC_EV_PMU_RAW, PMC_EV_PMU_RAW },
	};
	const char *name;
	uint32_t r, ev;

	fprintf(stderr, PROG ": note: %s; listing every event hwpmc knows\n",
		pmc_init_message());
	vendor_note(verbose);
	for (r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
		if (r < 2)
			printf("%s\n", r == 0 ? "SOFT" : "PMU");
		for (ev = ranges[r][0]; ev <= ranges[r][1]; ev++) {
			name = pmc_name_of_event((enum pmc_event)ev);
			if (name)
				printf("\t%s\n", name);
		}
	}
	print_vendor_events(verbose);
	print_perf_events(verbose);
	return 0;
}

static int list_state(void)
{
	const struct pmc_cpuinfo *ci;
	struct pmc_pmcinfo *pi;
	const char *cputype, *s;
	char buf[16];
	uint32_t c, n;

	if (pmc_cpuinfo(&ci) < 0)
		tool_die("cannot get CPU information: %s", strerror(errno));
	cputype = pmc_name_of_cputype(ci->pm_cputype);
	printf("%u %s CPUs present, with %u PMCs per CPU\n", ci->pm_ncpu,
	       cputype ? cputype : "unknown", ci->pm_npmc);
	for (c = 0; c < ci->pm_ncpu; c++) {
		if (pmc_pmcinfo((int)c, &pi) < 0) {
			if (errno == ENXIO) {
				printf("CPU %u: offline\n", c);
				continue;
			}
			tool_die("cannot get the PMCs of CPU %u: %s", c,
			    strerror(errno));
		}
		printf("#CPU %u:\n", c);
		for (n = 0; n < pi->pm_npmc; n++) {
			const struct pmc_info *pd = &pi->pm_pmcs[n];

			s = pmc_name_of_disposition(pd->pm_rowdisp);
			printf(" %-2u %-16.*s %-6s %-8s %-10s", n,
			       PMC_NAME_MAX, pd->pm_name,
			       class_name(pd->pm_class, buf, sizeof(buf)),
			       pd->pm_enabled ? "ENABLED" : "DISABLED",
			       s ? s : "?");
			if (pd->pm_ownerpid != -1) {
				s = pmc_name_of_event(pd->pm_event);
				printf(" (pid %d)", pd->pm_ownerpid);
				if (s)
					printf(" %-32s", s);
				else
					printf(" event 0x%-26x", pd->pm_event);
				if (PMC_IS_SAMPLING_MODE(pd->pm_mode))
					printf(" (reload count %" PRIu64 ")",
					       (uint64_t)pd->pm_reloadcount);
			}
			printf("\n");
		}
		free(pi);
	}
	return 0;
}

static int show_stats(void)
{
	struct pmc_driverstats ds;

	if (pmc_get_driver_stats(&ds) < 0)
		tool_die("cannot get driver statistics: %s", strerror(errno));
#define P(label, field)	printf("%-40s %ju\n", label, (uintmax_t)ds.field)
	P("interrupts processed:", pm_intr_processed);
	P("non-PMC interrupts:", pm_intr_ignored);
	P("sampling stalls due to space shortages:", pm_intr_bufferfull);
	P("system calls:", pm_syscalls);
	P("system calls with errors:", pm_syscall_errors);
	P("buffer requests:", pm_buffer_requests);
	P("buffer requests failed:", pm_buffer_requests_failed);
	P("sampling log sweeps:", pm_log_sweeps);
	P("kernel and user call chains merged:", pm_merges);
	P("pending user call chains dropped:", pm_overwrites);
	P("log records dropped:", pm_log_records_dropped);
	P("log write errors:", pm_log_write_errors);
	P("process exits and execs handled:", pm_lifecycle_events);
	P("user stack copies lost:", pm_stacks_dropped);
#undef P
	return 0;
}

/* 0, or -1 after printing why (EPERM: exits, every row would fail) */
static int admin_one(int enable, int cpu, int pmc, int quiet_offline)
{
	const char *hint = "";
	int r;

	r = enable ? pmc_enable(cpu, pmc) : pmc_disable(cpu, pmc);
	if (r == 0)
		return 0;
	if (errno == ENXIO && quiet_offline)
		return 0;		/* "*": offline CPUs are skipped */
	switch (errno) {
	case EPERM:
		tool_die("%s PMC %d on CPU %d: %s (needs CAP_SYS_ADMIN)",
		    enable ? "enabling" : "disabling", pmc, cpu,
		    strerror(errno));
	case EBUSY:
		hint = " (the PMC is in use)";
		break;
	case ENXIO:
		hint = " (the CPU is offline)";
		break;
	}
	fprintf(stderr, PROG ": %s PMC %d on CPU %d: %s%s\n",
		enable ? "enabling" : "disabling", pmc, cpu, strerror(errno),
		hint);
	return -1;
}

/* Carry out the -e/-d operations in order; 1 if any failed. */
static int do_admin(const struct admin_op *ops, int nops)
{
	int ncpu, npmc, i, c, p, status = 0;

	ncpu = pmc_ncpu();
	npmc = ncpu > 0 ? pmc_npmc(0) : -1;
	if (ncpu < 0 || npmc < 0)
		tool_die("cannot get CPU information: %s", strerror(errno));

	for (i = 0; i < nops; i++) {
		const struct admin_op *op = &ops[i];

		if (op->cpu != ALL && op->cpu >= ncpu)
			tool_die("CPU %d does not exist (%d CPUs)", op->cpu, ncpu);
		if (op->pmc != ALL && op->pmc >= npmc)
			tool_die("PMC %d does not exist (%d PMCs per CPU)",
			    op->pmc, npmc);
		for (c = 0; c < ncpu; c++) {
			if (op->cpu != ALL && c != op->cpu)
				continue;
			for (p = 0; p < npmc; p++) {
				if (op->pmc != ALL && p != op->pmc)
					continue;
				if (admin_one(op->enable, c, p,
					      op->cpu == ALL) < 0)
					status = 1;
			}
		}
	}
	return status;
}

static int show_version(void)
{
	const char *path = getenv("HWPMC_DEVICE");
	uint32_t v = PMC_VERSION;
	int fd, r;

	printf(PROG " %s, library ABI 0x%08x\n", HWPMC_VERSION_STRING,
	       (unsigned int)PMC_VERSION);
	if (!path || !*path)
		path = PMC_DEVICE_PATH;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	r = fd < 0 ? -1 : ioctl(fd, HWPMC_IOC_GETMODULEVERSION, &v);
	if (r == 0) {
		printf("hwpmc module ABI 0x%08x\n", v);
	} else if (errno == EPROTO) {
		printf("hwpmc module ABI older than 0x%08x\n",
		       (unsigned int)PMC_VERSION);
	} else {
		int err = errno;

		if (pmc_init() == 0)	/* explain, in pmc_init's words */
			printf("hwpmc module: %s\n", strerror(err));
		else
			printf("hwpmc module: not available: %s\n",
			       pmc_init_message());
	}
	if (fd >= 0)
		close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct admin_op *ops = NULL;
	int nops = 0, cpu = ALL, ch, r = 0, verbose = 0;
	enum mode mode = M_NONE;

	tool_init(PROG, usage);
	opterr = 0;
	while ((ch = getopt(argc, argv, ":c:d:e:hlLsvV")) != -1) {
		enum mode want = M_NONE;

		switch (ch) {
		case 'c':
			cpu = parse_index(optarg, CPU_MAX, "CPU");
			want = M_ADMIN;
			break;
		case 'd':
		case 'e': {
			struct admin_op *nops_p;

			nops_p = realloc(ops, (nops + 1) * sizeof(*ops));
			if (!nops_p)
				tool_die("out of memory");
			ops = nops_p;
			ops[nops].enable = ch == 'e';
			ops[nops].cpu = cpu;
			ops[nops].pmc = parse_index(optarg, ROW_MAX, "PMC");
			nops++;
			want = M_ADMIN;
			break;
		}
		case 'h':
			usage(stdout);
			free(ops);
			return 0;
		case 'l':
			want = M_STATE;
			break;
		case 'L':
			want = M_LIST_EVENTS;
			break;
		case 's':
			want = M_STATS;
			break;
		case 'v':
			verbose = 1;
			continue;
		case 'V':
			want = M_VERSION;
			break;
		case ':':
			tool_usage_error("option -%c needs an argument", optopt);
		default:
			tool_usage_error("unknown option -%c", optopt);
		}
		if (mode != M_NONE && mode != want)
			tool_usage_error("-L, -l, -s, -V and -c/-e/-d cannot be combined");
		mode = want;
	}
	if (optind < argc)
		tool_usage_error("unexpected argument '%s'", argv[optind]);
	if (mode == M_NONE)
		tool_usage_error("no operation given");
	if (mode == M_ADMIN && nops == 0)
		tool_usage_error("-c needs a following -e or -d");
	if (verbose && mode != M_LIST_EVENTS)
		tool_usage_error("-v goes with -L");
	if (mode == M_LIST_EVENTS && pmc_init() < 0) {
		r = list_known_events(verbose);
		if (fflush(stdout) != 0 || ferror(stdout))
			tool_die("write error on standard output: %s", strerror(errno));
		return r;
	}

	if (mode == M_VERSION) {
		r = show_version();
		pmc_fini();
		return r;
	}

	init_or_die();
	switch (mode) {
	case M_LIST_EVENTS:
		r = list_events(verbose);
		break;
	case M_STATE:
		r = list_state();
		break;
	case M_STATS:
		r = show_stats();
		break;
	case M_ADMIN:
		r = do_admin(ops, nops);
		break;
	default:
		break;
	}
	free(ops);
	pmc_fini();
	if (fflush(stdout) != 0 || ferror(stdout))
		tool_die("write error on standard output: %s", strerror(errno));
	return r;
}
