// SPDX-License-Identifier: GPL-2.0
/*
 * PMCALLOCATE's policy, <hwpmc_allocate.h>, as its two userland users
 * apply it: the fake module (fake_hwpmc.c) refuses each request of a
 * table with the expected check and errno, and pmc(3)'s explanation of
 * that errno (pmc_lib_allocate_explain(), pmc_allocate_message()) names
 * the same check, in words given here.  Every check of the header is in
 * the table.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmc.h>
#include "libpmc_internal.h"
#include <hwpmc_allocate.h>
#include "fake_hwpmc.h"
#include "tap.h"

#define ANY		((uint32_t)PMC_CPU_ANY)
#define SOFT(x)		PMC_CLASS_SOFT, (enum pmc_event)(PMC_EV_SOFT_FIRST + (x))
#define PMU(x)		PMC_CLASS_PMU, (enum pmc_event)(PMC_EV_PMU_HW_FIRST + (x))
#define RAW		PMC_CLASS_PMU, (enum pmc_event)PMC_EV_PMU_RAW
#define PERF		PMC_CLASS_PERF, (enum pmc_event)PMC_EV_PERF
#define CPU_CLOCK	0	/* PERF_COUNT_SW_*, PERF_COUNT_HW_* */
#define TASK_CLOCK	1
#define PAGE_FAULTS	2
#define CYCLES		0
#define INSTRUCTIONS	1

struct req {
	enum hwpmc_alloc_check check;	/* the one expected to fail */
	const char	*words;		/* in the explanation */
	int		unpriv;		/* FAKE_HWPMC_UNPRIV */
	enum pmc_mode	mode;
	enum pmc_class	cl;
	enum pmc_event	ev;
	uint32_t	caps, cpu, flags;
	uint64_t	count;
	uint64_t	config;		/* pm_md.pm_pmu.pm_config */
	uint64_t	reserved;	/* STACK, or PMC_F_USERSTACK: pm_stacksize;
					 * else pm_md.pm_pmu.pm_type and
					 * (bits 32-63) pm_precise */
};

/* The fake (FAKE_HWPMC_PMU=1): CPUs 0-3, CPU 2 offline; its event table. */
static const struct req reqs[] = {
	{ HWPMC_ALLOC_OK, "", 0, PMC_MODE_TC, SOFT(CPU_CLOCK), 0, ANY, 0, 0, 0, 0 },
	{ HWPMC_ALLOC_OK, "", 0, PMC_MODE_TS, SOFT(CPU_CLOCK), 0, ANY,
	  PMC_F_CALLCHAIN | PMC_F_DESCENDANTS, 1000, 0, 0 },
	{ HWPMC_ALLOC_OK, "", 0, PMC_MODE_SS, SOFT(CPU_CLOCK), 0, 3,
	  PMC_F_USERCALLCHAIN, 0, 0, 0 },
	{ HWPMC_ALLOC_OK, "", 1, PMC_MODE_TS, SOFT(CPU_CLOCK), PMC_CAP_USER, ANY,
	  0, 0, 0, 0 },
	{ HWPMC_ALLOC_OK, "", 0, PMC_MODE_TC, RAW, 0, ANY, 0, 0, 0xc0, 0 },
	/* FreeBSD's pmcstat -p/-s: PMC_F_CALLCHAIN on counting PMCs, ignored */
	{ HWPMC_ALLOC_OK, "", 0, PMC_MODE_TC, SOFT(PAGE_FAULTS), 0, ANY,
	  PMC_F_CALLCHAIN, (uint64_t)-1, 0, 0 },
	{ HWPMC_ALLOC_OK, "", 0, PMC_MODE_SC, SOFT(CPU_CLOCK), 0, 1,
	  PMC_F_CALLCHAIN, 0, 0, 0 },
	{ HWPMC_ALLOC_MODE, "bad mode 9", 0, (enum pmc_mode)9, SOFT(CPU_CLOCK), 0,
	  ANY, 0, 0, 0, 0 },
	{ HWPMC_ALLOC_OK, "", 0, PMC_MODE_TS, SOFT(CPU_CLOCK), 0, ANY,
	  PMC_F_USERSTACK, 0, 0, 16384 },
	{ HWPMC_ALLOC_STACK_PRIV, "needs CAP_PERFMON, whatever", 1, PMC_MODE_SS,
	  SOFT(CPU_CLOCK), 0, 0, PMC_F_USERSTACK, 0, 0, 8192 },
	{ HWPMC_ALLOC_STACK, "pm_stacksize 8 without PMC_F_USERSTACK", 0,
	  PMC_MODE_TC, SOFT(CPU_CLOCK), 0, ANY, 0, 0, 0, 8 },
	{ HWPMC_ALLOC_STACK, "size 32776 is not a multiple of 8 from 8 to", 0,
	  PMC_MODE_TS, SOFT(CPU_CLOCK), 0, ANY, PMC_F_USERSTACK, 0, 0, 32776 },
	{ HWPMC_ALLOC_STACK, "size 0 is not", 0, PMC_MODE_TS, SOFT(CPU_CLOCK), 0,
	  ANY, PMC_F_USERSTACK, 0, 0, 0 },
	{ HWPMC_ALLOC_STACK, "size 12 is not", 0, PMC_MODE_SS, SOFT(CPU_CLOCK), 0,
	  0, PMC_F_USERSTACK, 0, 0, 12 },
	{ HWPMC_ALLOC_FLAGS_CHAIN, "PMC_F_USERSTACK (a copy of the user stack) needs a sampling mode", 0, PMC_MODE_TC,
	  SOFT(CPU_CLOCK), 0, ANY, PMC_F_USERSTACK, 0, 0, 8 },
	{ HWPMC_ALLOC_CPU_PROCESS, "take CPU PMC_CPU_ANY, not 0", 0, PMC_MODE_TS,
	  SOFT(CPU_CLOCK), 0, 0, 0, 0, 0, 0 },
	{ HWPMC_ALLOC_CPU_SYSTEM, "need a CPU number", 0, PMC_MODE_SC,
	  SOFT(CPU_CLOCK), 0, ANY, 0, 0, 0, 0 },
	{ HWPMC_ALLOC_CPU_RANGE, "no CPU 4 (CPUs 0-3)", 0, PMC_MODE_SS,
	  SOFT(CPU_CLOCK), 0, 4, 0, 0, 0, 0 },
	{ HWPMC_ALLOC_CPU_OFFLINE, "CPU 2 is offline", 0, PMC_MODE_SC,
	  SOFT(CPU_CLOCK), 0, 2, 0, 0, 0, 0 },
	{ HWPMC_ALLOC_SYSTEM_PRIV, "unprivileged_syspmcs=1", 1, PMC_MODE_SC,
	  SOFT(CPU_CLOCK), 0, 0, 0, 0, 0, 0 },
	{ HWPMC_ALLOC_FLAGS, "unknown flags 0x40000", 0, PMC_MODE_TC,
	  SOFT(CPU_CLOCK), 0, ANY, 0x40000, 0, 0, 0 },
	{ HWPMC_ALLOC_FLAGS, "unknown flags 0x200", 0, PMC_MODE_TC,
	  SOFT(CPU_CLOCK), 0, ANY, PMC_F_EV_PMU, 0, 0, 0 },
	{ HWPMC_ALLOC_FLAGS_SYSTEM, "flags 0x4 are for process-scope PMCs only", 0,
	  PMC_MODE_SS, SOFT(CPU_CLOCK), 0, 0, PMC_F_LOG_PROCCSW, 0, 0, 0 },
	{ HWPMC_ALLOC_FLAGS_CHAIN, "needs a sampling mode", 0, PMC_MODE_TC,
	  SOFT(CPU_CLOCK), 0, ANY, PMC_F_CALLCHAIN | PMC_F_USERCALLCHAIN, 0, 0, 0 },
	{ HWPMC_ALLOC_FLAGS_CHAIN, "needs a sampling mode", 0, PMC_MODE_SC,
	  SOFT(CPU_CLOCK), 0, 0, PMC_F_USERCALLCHAIN, 0, 0, 0 },
	{ HWPMC_ALLOC_OK, "", 0, PMC_MODE_TC, SOFT(CPU_CLOCK), 0, ANY,
	  PMC_F_THREAD | PMC_F_LOG_PROCEXIT, 0, 0, 0 },
	{ HWPMC_ALLOC_FLAGS_SYSTEM, "flags 0x1000000 are for process-scope PMCs only", 0,
	  PMC_MODE_SC, SOFT(CPU_CLOCK), 0, 0, PMC_F_THREAD, 0, 0, 0 },
	{ HWPMC_ALLOC_FLAGS_THREAD, "in TS logs no PROCCSW", 0, PMC_MODE_TS,
	  SOFT(CPU_CLOCK), 0, ANY, PMC_F_THREAD | PMC_F_LOG_PROCCSW, 1000, 0, 0 },
	{ HWPMC_ALLOC_FLAGS_THREAD, "in TS logs no PROCCSW", 0, PMC_MODE_TS,
	  SOFT(CPU_CLOCK), 0, ANY, PMC_F_THREAD | PMC_F_LOG_PROCEXIT, 1000, 0, 0 },
	{ HWPMC_ALLOC_OK, "", 0, PMC_MODE_TS, SOFT(CPU_CLOCK), 0, ANY,
	  PMC_F_THREAD | PMC_F_NOTIFY, 1000, 0, 0 },
	{ HWPMC_ALLOC_FLAGS_NOTIFY, "needs a thread-scope sampling PMC", 0,
	  PMC_MODE_TS, SOFT(CPU_CLOCK), 0, ANY, PMC_F_NOTIFY, 1000, 0, 0 },
	{ HWPMC_ALLOC_FLAGS_NOTIFY, "needs a thread-scope sampling PMC", 0,
	  PMC_MODE_TC, SOFT(CPU_CLOCK), 0, ANY, PMC_F_THREAD | PMC_F_NOTIFY, 0, 0, 0 },
	{ HWPMC_ALLOC_FLAGS_THREAD, "not of a thread's descendants", 0, PMC_MODE_TC,
	  SOFT(CPU_CLOCK), 0, ANY, PMC_F_THREAD | PMC_F_DESCENDANTS, 0, 0, 0 },
	{ HWPMC_ALLOC_EVENT, "class SOFT has no event 0x20fff", 0, PMC_MODE_TC,
	  SOFT(0xfff), 0, ANY, 0, 0, 0, 0 },
	{ HWPMC_ALLOC_EVENT, "class K8 has no event", 0, PMC_MODE_TC,
	  PMC_CLASS_K8, (enum pmc_event)0, 0, ANY, 0, 0, 0, 0 },
	{ HWPMC_ALLOC_CAPS, "cannot count user mode alone", 0, PMC_MODE_TC,
	  SOFT(TASK_CLOCK), PMC_CAP_USER, ANY, 0, 0, 0, 0 },
	{ HWPMC_ALLOC_CAPS, "cannot count kernel mode alone", 0, PMC_MODE_TC,
	  SOFT(TASK_CLOCK), PMC_CAP_SYSTEM, ANY, 0, 0, 0, 0 },
	{ HWPMC_ALLOC_CAPS, "has no precise form (:p", 0, PMC_MODE_TS,
	  PMU(CYCLES), PMC_CAP_PRECISE, ANY, 0, 0, 0, 0 },
	{ HWPMC_ALLOC_CAPS, "lacks capability EDGE", 0, PMC_MODE_TC,
	  SOFT(CPU_CLOCK), PMC_CAP_EDGE, ANY, 0, 0, 0, 0 },
	{ HWPMC_ALLOC_INTERRUPT, "cannot sample", 0, PMC_MODE_TS,
	  SOFT(PAGE_FAULTS), 0, ANY, 0, 0, 0, 0 },
	{ HWPMC_ALLOC_INTERRUPT, "cannot sample", 0, PMC_MODE_SS,
	  SOFT(PAGE_FAULTS), 0, 1, 0, 0, 0, 0 },
	{ HWPMC_ALLOC_COUNT, "9223372036854775808 is above", 0, PMC_MODE_TS,
	  SOFT(CPU_CLOCK), 0, ANY, 0, 1ULL << 63, 0, 0 },
	{ HWPMC_ALLOC_KERNEL_PRIV, "counting kernel mode needs CAP_PERFMON", 1,
	  PMC_MODE_TC, PMU(INSTRUCTIONS), 0, ANY, 0, 0, 0, 0 },
	{ HWPMC_ALLOC_KERNEL_PRIV, "add ',usr' to sample user mode only", 1,
	  PMC_MODE_TS, SOFT(CPU_CLOCK), PMC_CAP_SYSTEM, ANY, 0, 0, 0, 0 },
	{ HWPMC_ALLOC_CONFIG, "for raw events only", 0, PMC_MODE_TC, PMU(CYCLES),
	  0, ANY, 0, 0, 0x3c, 0 },
	{ HWPMC_ALLOC_RESERVED, "pm_type is for the PERF class", 0, PMC_MODE_TC, RAW,
	  0, ANY, 0, 0, 0xc0, 1 },
	/* the PERF class: the fake's types (fake_hwpmc.c, fake sysfs below) */
	{ HWPMC_ALLOC_OK, "", 0, PMC_MODE_TC, PERF, 0, ANY, 0, 0, 0x123, 2 },
	{ HWPMC_ALLOC_OK, "", 0, PMC_MODE_SC, PERF, 0, 1, 0, 0, 0x123, 2 },
	{ HWPMC_ALLOC_OK, "", 0, PMC_MODE_TC, PERF, 0, ANY, 0, 0, 0, 10 },
	{ HWPMC_ALLOC_OK, "", 0, PMC_MODE_SC, PERF, 0, 0, 0, 0, 0x1, 11 },
	{ HWPMC_ALLOC_PERF_TYPE, "no perf PMU of type 99", 0, PMC_MODE_TC, PERF,
	  0, ANY, 0, 0, 0, 99 },
	{ HWPMC_ALLOC_PERF_REFUSED, "perf type 4 is not for the PERF class", 0,
	  PMC_MODE_SC, PERF, 0, 0, 0, 0, 0x3c, 4 },
	{ HWPMC_ALLOC_PERF_REFUSED, "perf refuses the configuration", 0,
	  PMC_MODE_TC, PERF, 0, ANY, 0, 0, 0xdead, 2 },
	{ HWPMC_ALLOC_PERF_SCOPE, "counts CPUs, not processes", 0, PMC_MODE_TC,
	  PERF, 0, ANY, 0, 0, 0x1, 11 },
	/* 12: a second core PMU of CPU 1 (cpu_atom): processes, CPU 1 */
	{ HWPMC_ALLOC_OK, "", 0, PMC_MODE_TC, PERF, 0, ANY, 0, 0, 0xc0, 12 },
	{ HWPMC_ALLOC_OK, "", 0, PMC_MODE_TS, PERF, PMC_CAP_USER, ANY, 0, 1000,
	  0xc0, 12 },
	{ HWPMC_ALLOC_OK, "", 0, PMC_MODE_SC, PERF, 0, 1, 0, 0, 0xc0, 12 },
	{ HWPMC_ALLOC_PERF_CPU, "CPU 0 is not one of its CPUs", 0, PMC_MODE_SC,
	  PERF, 0, 0, 0, 0, 0xc0, 12 },
	{ HWPMC_ALLOC_KERNEL_PRIV, "other perf PMUs count kernel mode", 1,
	  PMC_MODE_TC, PERF, 0, ANY, 0, 0, 0xc0, 12 },
	{ HWPMC_ALLOC_OK, "", 1, PMC_MODE_TC, PERF, PMC_CAP_USER, ANY, 0, 0,
	  0xc0, 12 },
	{ HWPMC_ALLOC_CAPS, "cannot count user mode alone", 0, PMC_MODE_TC,
	  PERF, PMC_CAP_USER, ANY, 0, 0, 0x123, 2 },
	{ HWPMC_ALLOC_CAPS, "cannot count kernel mode alone", 0, PMC_MODE_SC,
	  PERF, PMC_CAP_SYSTEM, 0, 0, 0, 0x1, 11 },
	{ HWPMC_ALLOC_INTERRUPT, "cannot sample", 0, PMC_MODE_TS, PERF, 0, ANY,
	  0, 1000, 0, 10 },
	{ HWPMC_ALLOC_SYSTEM_PRIV, "unprivileged_syspmcs=1", 1, PMC_MODE_SC,
	  PERF, 0, 0, 0, 0, 0x123, 2 },
	{ HWPMC_ALLOC_KERNEL_PRIV, "tracepoints and other perf PMUs count kernel mode",
	  1, PMC_MODE_TC, PERF, 0, ANY, 0, 0, 0x123, 2 },
	{ HWPMC_ALLOC_KERNEL_PRIV, "tracepoints and other perf PMUs count kernel mode",
	  1, PMC_MODE_TC, PERF, 0, ANY, 0, 0, 0, 10 },
	/* perf's precise_ip */
	{ HWPMC_ALLOC_PRECISE, "perf's precise_ip is 0 to 3", 0, PMC_MODE_TS,
	  SOFT(CPU_CLOCK), 0, ANY, 0, 1000, 0, 1ULL << 32 },
	{ HWPMC_ALLOC_PRECISE, "perf's precise_ip is 0 to 3", 0, PMC_MODE_TS,
	  SOFT(CPU_CLOCK), 0, ANY, 0, 1000, 0, 4ULL << 32 },
	{ HWPMC_ALLOC_CAPS, "has no precise form", 0, PMC_MODE_TS,
	  SOFT(CPU_CLOCK), PMC_CAP_PRECISE, ANY, 0, 1000, 0, 1ULL << 32 },
};

static void fill(const struct req *r, struct pmc_op_pmcallocate *pa)
{
	memset(pa, 0, sizeof(*pa));
	pa->pm_mode = r->mode;
	pa->pm_class = r->cl;
	pa->pm_ev = r->ev;
	pa->pm_caps = r->caps;
	pa->pm_cpu = r->cpu;
	pa->pm_flags = r->flags;
	pa->pm_count = r->count;
	pa->pm_md.pm_pmu.pm_config = r->config;
	if (r->check == HWPMC_ALLOC_STACK || (r->flags & PMC_F_USERSTACK))
		pa->pm_stacksize = (uint32_t)r->reserved;
	else {
		pa->pm_md.pm_pmu.pm_type = (uint32_t)r->reserved;
		pa->pm_md.pm_pmu.pm_precise = (uint32_t)(r->reserved >> 32);
	}
}

/* The fake refuses r with r->check; the library says why, in r->words. */
static void table(unsigned int *seen)
{
	struct pmc_op_pmcallocate pa;
	const struct req *r;
	char msg[384];
	int err, c, want;

	for (r = reqs; r < reqs + sizeof(reqs) / sizeof(reqs[0]); r++) {
		if (r->unpriv)
			setenv("FAKE_HWPMC_UNPRIV", "1", 1);
		else
			unsetenv("FAKE_HWPMC_UNPRIV");
		fill(r, &pa);
		want = hwpmc_alloc_errno(r->check);
		err = pmc_lib_ioctl(HWPMC_IOC_PMCALLOCATE, &pa) < 0 ? errno : 0;
		ok(err == want && fake_hwpmc_alloc_check == (int)r->check,
		   "fake: %s: %s (%s, check %s)", hwpmc_alloc_check_name(r->check),
		   want ? strerror(want) : "allocated", err ? strerror(err) : "0",
		   hwpmc_alloc_check_name(fake_hwpmc_alloc_check));
		seen[r->check]++;
		if (!err) {
			ok(pmc_release(pa.pm_pmcid) == 0, "... released");
			continue;
		}
		c = pmc_lib_allocate_explain("x", &pa, err, msg, sizeof(msg));
		ok(c == fake_hwpmc_alloc_check && strstr(msg, r->words),
		   "explained: %s: \"%s\"", hwpmc_alloc_check_name(c), msg);
	}
	unsetenv("FAKE_HWPMC_UNPRIV");
}

/*
 * CPU_ID needs more than 4095 CPUs, which the fake has not: the library
 * explains the module's ENXIO with 8192 CPUs in its cache.
 */
static void cpu_id(unsigned int *seen)
{
	struct pmc_op_pmcallocate pa = {
		.pm_mode = PMC_MODE_SC, .pm_class = PMC_CLASS_SOFT,
		.pm_ev = PMC_EV_SOFT_CPU_CLOCK, .pm_cpu = 4095,
	};
	struct hwpmc_alloc_facts f = {
		.ncpu = 8192, .cpu_online = 1, .may_system = 1,
		.have_event = 1, .may_kernel = 1,
	};
	uint32_t ncpu = pmc_lib.cpuinfo.pm_ncpu;
	char msg[384];
	int c;

	ok(hwpmc_alloc_check(&pa, &f) == HWPMC_ALLOC_CPU_ID &&
	   hwpmc_alloc_errno(HWPMC_ALLOC_CPU_ID) == ENXIO,
	   "CPU 4095 of 8192: CPU_ID, ENXIO");
	pa.pm_cpu = 4094;
	ok(hwpmc_alloc_check(&pa, &f) == HWPMC_ALLOC_OK, "CPU 4094 of 8192: OK");
	pa.pm_cpu = 4095;
	pmc_lib.cpuinfo.pm_ncpu = 8192;
	c = pmc_lib_allocate_explain("x", &pa, ENXIO, msg, sizeof(msg));
	pmc_lib.cpuinfo.pm_ncpu = ncpu;
	ok(c == HWPMC_ALLOC_CPU_ID && strstr(msg, "CPUs below 4095 only"),
	   "explained: %s: \"%s\"", hwpmc_alloc_check_name(c), msg);
	seen[HWPMC_ALLOC_CPU_ID]++;
}

/*
 * The PERF class's probe: the checks stop before asking perf, and only
 * when every earlier check passed.
 */
static void probe(unsigned int *seen)
{
	struct pmc_op_pmcallocate pa = {
		.pm_mode = PMC_MODE_TC, .pm_class = PMC_CLASS_PERF,
		.pm_ev = PMC_EV_PERF, .pm_cpu = PMC_CPU_ANY,
	};
	struct hwpmc_alloc_facts f = {
		.ncpu = 4, .cpu_online = 1, .may_system = 0,
		.have_event = 1, .ev_caps = ~0U, .may_kernel = 1,
	};

	ok(hwpmc_alloc_check(&pa, &f) == HWPMC_ALLOC_PERF_PROBE,
	   "PERF class, not probed: PERF_PROBE");
	pa.pm_mode = PMC_MODE_SC;
	pa.pm_cpu = 0;
	ok(hwpmc_alloc_check(&pa, &f) == HWPMC_ALLOC_SYSTEM_PRIV,
	   "PERF class, system scope unprivileged: SYSTEM_PRIV before the probe");
	seen[HWPMC_ALLOC_PERF_PROBE]++;
}

/* What comes after the policy: no free row; the fake then names no check. */
static void no_row(void)
{
	struct req r = { HWPMC_ALLOC_OK, "", 0, PMC_MODE_TC, SOFT(CPU_CLOCK), 0,
			 ANY, 0, 0, 0, 0 };
	pmc_id_t ids[FAKE_NPMC];
	struct pmc_op_pmcallocate pa;
	unsigned int n;
	char msg[384];
	int c, err;

	for (n = 0; n < FAKE_NPMC; n++) {
		fill(&r, &pa);
		if (pmc_lib_ioctl(HWPMC_IOC_PMCALLOCATE, &pa) < 0)
			break;
		ids[n] = pa.pm_pmcid;
	}
	fill(&r, &pa);
	err = pmc_lib_ioctl(HWPMC_IOC_PMCALLOCATE, &pa) < 0 ? errno : 0;
	c = pmc_lib_allocate_explain("x", &pa, err, msg, sizeof(msg));
	ok(n == FAKE_NPMC && err == EINVAL && fake_hwpmc_alloc_check == 0 &&
	   c == HWPMC_ALLOC_OK && strstr(msg, "no free PMC row of class SOFT"),
	   "no row: EINVAL after the checks: \"%s\"", msg);
	while (n)
		pmc_release(ids[--n]);
}

/* The fake's PMUs in a sysfs tree (HWPMC_SYSFS), for the explanations. */
static void fake_sysfs(void)
{
	char dir[] = "/tmp/hwpmc-alloc.XXXXXX", cmd[512];

	if (!mkdtemp(dir))
		return;
	snprintf(cmd, sizeof(cmd),
		 "d=%s/bus/event_source/devices && mkdir -p $d/msr $d/uncore $d/cpu "
		 "$d/cpu_atom && echo 10 > $d/msr/type && echo 11 > $d/uncore/type && "
		 "echo 0 > $d/uncore/cpumask && echo 4 > $d/cpu/type && "
		 "echo 12 > $d/cpu_atom/type && echo 1 > $d/cpu_atom/cpus", dir);
	if (system(cmd) == 0)
		setenv("HWPMC_SYSFS", dir, 1);
}

int main(void)
{
	unsigned int seen[HWPMC_ALLOC_NCHECK] = { 0 }, i, named = 1;

	for (i = 0; i < HWPMC_ALLOC_NCHECK; i++)
		named &= strcmp(hwpmc_alloc_check_name(i), "?") != 0 &&
			 strcmp(hwpmc_alloc_reason(i), "?") != 0 &&
			 (i == HWPMC_ALLOC_OK) == (hwpmc_alloc_errno(i) == 0);
	ok(named, "every check has a name, words and an errno (OK none)");
	setenv("HWPMC_DEVICE", "/dev/null", 1);
	setenv("FAKE_HWPMC_PMU", "1", 1);
	setenv("FAKE_HWPMC_PERF", "1", 1);
	unsetenv("FAKE_HWPMC_UNPRIV");
	fake_sysfs();
	ok(pmc_init() == 0, "pmc_init (fake, with a PMU): %s", pmc_init_message());
	table(seen);
	cpu_id(seen);
	probe(seen);
	no_row();
	for (i = 0; i < HWPMC_ALLOC_NCHECK; i++)
		if (!seen[i])
			break;
	ok(i == HWPMC_ALLOC_NCHECK, "every check is in the table (first missing: %s)",
	   i < HWPMC_ALLOC_NCHECK ? hwpmc_alloc_check_name(i) : "none");
	pmc_fini();
	unsetenv("FAKE_HWPMC_PMU");
	return tap_done();
}
