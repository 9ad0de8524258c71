// SPDX-License-Identifier: BSD-2-Clause
/*
 * libhwpmc: the pmc_name_of_*() functions and event name lists.
 *
 * Names are FreeBSD's (the stringified constant names of <sys/pmc.h>),
 * with the Linux additions of <linux/hwpmc.h>.  Event names come from the
 * module when pmc_init() has run, and otherwise from the tables the module
 * itself is built with (<hwpmc_events.h>), so that logs can be read on a
 * machine without the module.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "libpmc_internal.h"
#include <hwpmc_events.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

const char *pmc_name_of_capability(enum pmc_caps cap)
{
	uint32_t c = (uint32_t)cap;

	/* the module's table (its banner's abbreviations), in bit order */
	_Static_assert(1U << (ARRAY_SIZE(hwpmc_cap_defs) - 1) == PMC_CAP_LAST,
		       "capability names");
	/* exactly one bit, in range (FreeBSD) */
	if (c == 0 || (c & (c - 1)) || c > PMC_CAP_LAST) {
		errno = EINVAL;
		return NULL;
	}
	return hwpmc_cap_defs[__builtin_ctz(c)].name;
}

const char *pmc_name_of_class(enum pmc_class pc)
{
	switch ((uint32_t)pc) {
#define C(n) case PMC_CLASS_##n: return #n
	C(TSC); C(K8); C(IBS); C(IAF); C(IAP); C(UCF); C(UCP); C(XSCALE);
	C(PPC7450); C(PPC970); C(SOFT); C(ARMV7); C(ARMV8); C(E500);
	C(POWER8); C(DMC620_PMU_CD2); C(DMC620_PMU_C); C(CMN600_PMU);
	C(RAPL); C(PMU); C(PERF);
#undef C
	}
	errno = EINVAL;
	return NULL;
}

const char *pmc_name_of_cputype(enum pmc_cputype cp)
{
	switch ((uint32_t)cp) {
#define T(n) case PMC_CPU_##n: return #n
	T(AMD_K7); T(AMD_K8); T(INTEL_CORE); T(INTEL_CORE2);
	T(INTEL_CORE2EXTREME); T(INTEL_ATOM); T(INTEL_COREI7);
	T(INTEL_WESTMERE); T(INTEL_SANDYBRIDGE); T(INTEL_IVYBRIDGE);
	T(INTEL_SANDYBRIDGE_XEON); T(INTEL_IVYBRIDGE_XEON); T(INTEL_HASWELL);
	T(INTEL_ATOM_SILVERMONT); T(INTEL_NEHALEM_EX); T(INTEL_WESTMERE_EX);
	T(INTEL_HASWELL_XEON); T(INTEL_BROADWELL); T(INTEL_BROADWELL_XEON);
	T(INTEL_SKYLAKE); T(INTEL_SKYLAKE_XEON); T(INTEL_ATOM_GOLDMONT);
	T(INTEL_ICELAKE); T(INTEL_ICELAKE_XEON); T(INTEL_ALDERLAKE);
	T(INTEL_ATOM_GOLDMONT_P); T(INTEL_ATOM_TREMONT); T(INTEL_XSCALE);
	T(PPC_7450); T(PPC_E500); T(PPC_970); T(PPC_POWER8);
	T(ARMV7_CORTEX_A5); T(ARMV7_CORTEX_A7); T(ARMV7_CORTEX_A8);
	T(ARMV7_CORTEX_A9); T(ARMV7_CORTEX_A15); T(ARMV7_CORTEX_A17);
	T(ARMV8_CORTEX_A53); T(ARMV8_CORTEX_A57); T(ARMV8_CORTEX_A76);
#undef T
	case PMC_CPU_GENERIC:		return "GENERIC";
	case PMC_CPU_LINUX_X86:		return "LINUX_X86";
	case PMC_CPU_LINUX_ARM64:	return "LINUX_ARM64";
	case PMC_CPU_LINUX_OTHER:	return "LINUX_OTHER";
	}
	errno = EINVAL;
	return NULL;
}

const char *pmc_name_of_disposition(enum pmc_disp pd)
{
	static const char *const names[] = {
		[PMC_DISP_STANDALONE] = "STANDALONE",
		[PMC_DISP_FREE] = "FREE",
		[PMC_DISP_THREAD] = "THREAD",
		[PMC_DISP_UNKNOWN] = "UNKNOWN",
		[PMC_DISP_KERNEL] = "KERNEL",	/* Linux: pmc(9)'s */
	};

	if ((uint32_t)pd >= ARRAY_SIZE(names)) {
		errno = EINVAL;
		return NULL;
	}
	return names[pd];
}

const char *pmc_name_of_mode(enum pmc_mode pm)
{
	static const char *const names[] = {
		[PMC_MODE_SS] = "SS", [PMC_MODE_SC] = "SC",
		[PMC_MODE_TS] = "TS", [PMC_MODE_TC] = "TC",
	};

	if ((uint32_t)pm >= ARRAY_SIZE(names)) {
		errno = EINVAL;
		return NULL;
	}
	return names[pm];
}

const char *pmc_name_of_state(enum pmc_state ps)
{
	static const char *const names[] = {
		[PMC_STATE_DISABLED] = "DISABLED",
		[PMC_STATE_FREE] = "FREE",
		[PMC_STATE_ALLOCATED] = "ALLOCATED",
		[PMC_STATE_STOPPED] = "STOPPED",
		[PMC_STATE_RUNNING] = "RUNNING",
		[PMC_STATE_DELETED] = "DELETED",
	};

	if ((uint32_t)ps >= ARRAY_SIZE(names)) {
		errno = EINVAL;
		return NULL;
	}
	return names[ps];
}

/*
 * The names of <hwpmc_events.h>, for use without the module: built once,
 * on first use, since hwpmc_event_name() formats into a buffer.
 */
#define NSTATIC_EVENTS	(HWPMC_NDEFS(hwpmc_soft_events) +		\
			 HWPMC_NDEFS(hwpmc_hw_events) +			\
			 HWPMC_NCACHE * HWPMC_NCACHEOP * HWPMC_NCACHERES + 1)

static struct {
	uint32_t code;
	char name[PMC_NAME_MAX];
} static_events[NSTATIC_EVENTS];
static unsigned int nstatic_events;
static pthread_once_t static_events_once = PTHREAD_ONCE_INIT;

static void static_events_add_range(uint32_t first, uint32_t last)
{
	uint32_t ev;

	for (ev = first; ev <= last && nstatic_events < NSTATIC_EVENTS; ev++)
		if (hwpmc_event_name(ev, static_events[nstatic_events].name,
				     PMC_NAME_MAX) == 0)
			static_events[nstatic_events++].code = ev;
}

static void static_events_build(void)
{
	static_events_add_range(PMC_EV_SOFT_FIRST, PMC_EV_SOFT_LAST);
	static_events_add_range(PMC_EV_PMU_HW_FIRST, PMC_EV_PMU_HW_LAST);
	static_events_add_range(PMC_EV_PMU_CACHE_FIRST, PMC_EV_PMU_CACHE_LAST);
	static_events_add_range(PMC_EV_PMU_RAW, PMC_EV_PMU_RAW);
}

const char *pmc_name_of_event(enum pmc_event pe)
{
	uint32_t ev = (uint32_t)pe, i, j;

	/* the module's names first: they are what this machine has */
	for (i = 0; pmc_lib.fd >= 0 && i < pmc_lib.cpuinfo.pm_nclass; i++) {
		const struct pmc_class_events *ce = &pmc_lib.classes[i];

		for (j = 0; j < ce->ce_nevent; j++)
			if (ce->ce_events[j].pm_ev_code == ev)
				return ce->ce_events[j].pm_ev_name;
	}

	pthread_once(&static_events_once, static_events_build);
	for (i = 0; i < nstatic_events; i++)
		if (static_events[i].code == ev)
			return static_events[i].name;
	errno = EINVAL;
	return NULL;
}

/*
 * The events of class cl on this machine.  For the PMU class, when the
 * module offers raw events, the vendor events of the CPU's pmu-events
 * table follow the module's (deprecated ones left out); their names are
 * static, like the module's cached ones.
 */
int pmc_event_names_of_class(enum pmc_class cl, const char ***eventnames,
			     int *nevents)
{
	const struct pmc_class_events *ce;
	struct pmc_pmu_cpu cpu;
	struct pmc_pmu_event ev;
	const char **names;
	uint32_t i, n, nvendor = 0, raw = 0;

	if (pmc_lib_ready() < 0)
		return -1;
	if (!eventnames || !nevents) {
		errno = EINVAL;
		return -1;
	}
	ce = pmc_lib_class_events((uint32_t)cl);
	if (!ce) {
		errno = EINVAL;		/* no such class on this machine */
		return -1;
	}
	pmc_pmu_current(&cpu);
	for (i = 0; i < ce->ce_nevent; i++)
		if (ce->ce_events[i].pm_ev_code == PMC_EV_PMU_RAW)
			raw = 1;
	if ((uint32_t)cl == PMC_CLASS_PMU && raw)
		nvendor = pmc_pmu_nevents(cpu.table);
	names = malloc((ce->ce_nevent + nvendor + 1) * sizeof(*names));
	if (!names)
		return -1;
	for (n = 0; n < ce->ce_nevent; n++)
		names[n] = ce->ce_events[n].pm_ev_name;
	for (i = 0; i < nvendor; i++)
		if (pmc_pmu_event_at(cpu.table, i, &ev) == 0 && !ev.deprecated)
			names[n++] = ev.name;
	*eventnames = names;
	*nevents = (int)n;
	return 0;
}
