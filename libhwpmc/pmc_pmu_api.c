// SPDX-License-Identifier: BSD-2-Clause
/*
 * libhwpmc: the vendor event tables through pmc(3): FreeBSD's pmc_pmu_*
 * functions (same names, arguments and return conventions) and the Linux
 * additions pmc_pmu_cpuid(), pmc_pmu_model(), pmc_pmu_event_info(),
 * pmc_pmu_event_long_desc() and pmc_pmu_event_pfm_name().  Event names
 * are the tables' or their libpfm4 aliases (pmc_pmu_find()).
 *
 * The CPU is HWPMC_CPUID's or this machine's (pmc_pmu.c); where FreeBSD
 * takes a cpuid argument, NULL means that CPU and a string another one,
 * in the same format.  None of these needs the module.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "libpmc_internal.h"

#define PMC_DEFAULT_SAMPLE_COUNT	65536	/* FreeBSD's, for events without one */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * pmu-events models and the FreeBSD 14 CPU types they are.  Models
 * FreeBSD has no type for keep the module's Linux type.
 */
static const struct { const char *model; uint32_t type; } pmu_cputypes[] = {
	{ "bonnell", PMC_CPU_INTEL_ATOM },
	{ "nehalemep", PMC_CPU_INTEL_COREI7 },
	{ "nehalemex", PMC_CPU_INTEL_NEHALEM_EX },
	{ "westmereep-sp", PMC_CPU_INTEL_WESTMERE },
	{ "westmereep-dp", PMC_CPU_INTEL_WESTMERE },
	{ "westmereex", PMC_CPU_INTEL_WESTMERE_EX },
	{ "sandybridge", PMC_CPU_INTEL_SANDYBRIDGE },
	{ "jaketown", PMC_CPU_INTEL_SANDYBRIDGE_XEON },
	{ "ivybridge", PMC_CPU_INTEL_IVYBRIDGE },
	{ "ivytown", PMC_CPU_INTEL_IVYBRIDGE_XEON },
	{ "haswell", PMC_CPU_INTEL_HASWELL },
	{ "haswellx", PMC_CPU_INTEL_HASWELL_XEON },
	{ "broadwell", PMC_CPU_INTEL_BROADWELL },
	{ "broadwellde", PMC_CPU_INTEL_BROADWELL_XEON },
	{ "broadwellx", PMC_CPU_INTEL_BROADWELL_XEON },
	{ "skylake", PMC_CPU_INTEL_SKYLAKE },
	{ "skylakex", PMC_CPU_INTEL_SKYLAKE_XEON },
	{ "cascadelakex", PMC_CPU_INTEL_SKYLAKE_XEON },
	{ "silvermont", PMC_CPU_INTEL_ATOM_SILVERMONT },
	{ "goldmont", PMC_CPU_INTEL_ATOM_GOLDMONT },
	{ "goldmontplus", PMC_CPU_INTEL_ATOM_GOLDMONT_P },
	{ "snowridgex", PMC_CPU_INTEL_ATOM_TREMONT },
	{ "elkhartlake", PMC_CPU_INTEL_ATOM_TREMONT },
	{ "icelake", PMC_CPU_INTEL_ICELAKE },
	{ "icelakex", PMC_CPU_INTEL_ICELAKE_XEON },
	{ "alderlake", PMC_CPU_INTEL_ALDERLAKE },
	{ "arm/cortex-a53", PMC_CPU_ARMV8_CORTEX_A53 },
	{ "arm/cortex-a57-a72", PMC_CPU_ARMV8_CORTEX_A57 },
	{ "arm/cortex-a76", PMC_CPU_ARMV8_CORTEX_A76 },
};

/*
 * FreeBSD's type of the CPU (HWPMC_CPUID's or this one) when the
 * module's type is the same architecture's Linux type; else that.
 */
uint32_t pmc_pmu_cputype(uint32_t module_type)
{
	struct pmc_pmu_cpu cpu;
	const char *model;
	size_t i;

	if (module_type != PMC_CPU_LINUX_X86 &&
	    module_type != PMC_CPU_LINUX_ARM64)
		return module_type;
	pmc_pmu_current(&cpu);
	if (module_type == PMC_CPU_LINUX_X86 &&
	    (!strncasecmp(cpu.cpuid, "AuthenticAMD-", 13) ||
	     !strncasecmp(cpu.cpuid, "HygonGenuine-", 13)))
		return PMC_CPU_AMD_K8;	/* FreeBSD: every AMD since K8 */
	model = pmc_pmu_table_name(cpu.table);
	for (i = 0; model && i < ARRAY_SIZE(pmu_cputypes); i++)
		if (!strcmp(model, pmu_cputypes[i].model))
			return (module_type == PMC_CPU_LINUX_ARM64) ==
			       !strncmp(model, "arm/", 4) ?
			       pmu_cputypes[i].type : module_type;
	return module_type;
}

const char *pmc_pmu_cpuid(void)
{
	static _Thread_local char id[PMC_CPUID_LEN];
	struct pmc_pmu_cpu cpu;

	pmc_pmu_current(&cpu);
	if (!cpu.cpuid[0]) {
		errno = ENOENT;
		return NULL;
	}
	memcpy(id, cpu.cpuid, sizeof(id));
	return id;
}

const char *pmc_pmu_model(void)
{
	struct pmc_pmu_cpu cpu;

	pmc_pmu_current(&cpu);
	if (cpu.table < 0) {
		errno = ENOENT;
		return NULL;
	}
	return pmc_pmu_table_name(cpu.table);
}

static int pmu_table(const char *cpuid)
{
	struct pmc_pmu_cpu cpu;

	if (cpuid)
		return pmc_pmu_table_of(cpuid);
	pmc_pmu_current(&cpu);
	return cpu.table;
}

int pmc_pmu_event_info(int idx, struct pmc_pmu_event_info *info)
{
	struct pmc_pmu_event ev;

	if (!info || idx < 0) {
		errno = EINVAL;
		return -1;
	}
	if (pmc_pmu_event_at(pmu_table(NULL), (unsigned int)idx, &ev) < 0) {
		errno = ENOENT;
		return -1;
	}
	memset(info, 0, sizeof(*info));
	info->pe_name = ev.name;
	info->pe_desc = ev.desc;
	info->pe_topic = ev.topic;
	info->pe_encoding = ev.enc;
	info->pe_period = ev.period;
	info->pe_precise = ev.precise;
	info->pe_deprecated = ev.deprecated;
	return 0;
}

/* perf's long description ("PublicDescription"), else the brief one. */
const char *pmc_pmu_event_long_desc(int idx)
{
	struct pmc_pmu_event ev;

	if (idx < 0 ||
	    pmc_pmu_event_at(pmu_table(NULL), (unsigned int)idx, &ev) < 0) {
		errno = idx < 0 ? EINVAL : ENOENT;
		return NULL;
	}
	return *ev.ldesc ? ev.ldesc : ev.desc;
}

/* libpfm4's name of the event (decision 32), or NULL (ENOENT). */
const char *pmc_pmu_event_pfm_name(int idx)
{
	struct pmc_pmu_event ev;
	const char *s;
	int t = pmu_table(NULL);

	if (idx < 0 || pmc_pmu_event_at(t, (unsigned int)idx, &ev) < 0) {
		errno = idx < 0 ? EINVAL : ENOENT;
		return NULL;
	}
	s = pmc_pmu_pfm_name(t, (unsigned int)idx);
	if (!s)
		errno = ENOENT;
	return s;
}

int pmc_pmu_enabled(void)
{
	return pmu_table(NULL) >= 0;
}

int pmc_pmu_idx_get_by_event(const char *cpuid, const char *event)
{
	if (!event)
		return -1;
	return pmc_pmu_find(pmu_table(cpuid), event);
}

const char *pmc_pmu_event_get_by_idx(const char *cpuid, int idx)
{
	struct pmc_pmu_event ev;

	if (idx < 0 ||
	    pmc_pmu_event_at(pmu_table(cpuid), (unsigned int)idx, &ev) < 0)
		return NULL;
	return ev.name;
}

uint64_t pmc_pmu_sample_rate_get(const char *event_name)
{
	struct pmc_pmu_event ev;
	int t = pmu_table(NULL), i;

	i = event_name ? pmc_pmu_find(t, event_name) : -1;
	if (i < 0 || pmc_pmu_event_at(t, (unsigned int)i, &ev) < 0 ||
	    !ev.period)
		return PMC_DEFAULT_SAMPLE_COUNT;
	return ev.period;
}

/* FreeBSD: 0, or an errno value (ENOENT: no such event). */
int pmc_pmu_pmcallocate(const char *event_name, struct pmc_op_pmcallocate *pm)
{
	struct pmc_pmu_event ev;
	struct pmc_pmu_cpu cpu;
	char err[256];
	int i;

	if (!event_name || !pm)
		return EINVAL;
	pmc_pmu_current(&cpu);
	i = pmc_pmu_find(cpu.table, event_name);
	if (i < 0 || pmc_pmu_event_at(cpu.table, (unsigned int)i, &ev) < 0)
		return ENOENT;
	memset(&pm->pm_md, 0, sizeof(pm->pm_md));
	if (pmc_pmu_encode(&cpu.pmu, ev.enc, &pm->pm_md.pm_pmu, err,
			   sizeof(err)) < 0)
		return EINVAL;
	pm->pm_class = PMC_CLASS_PMU;
	pm->pm_ev = PMC_EV_PMU_RAW;
	return 0;
}

/* The events whose names contain ev (all when ev is NULL or ""). */
#define FOR_EACH_MATCH(ev, pat)						\
	for (int t_ = pmu_table(NULL), i_ = 0;				\
	     pmc_pmu_event_at(t_, (unsigned int)i_, &(ev)) == 0; i_++)	\
		if (!(ev).deprecated &&					\
		    (!(pat) || !*(pat) || strcasestr((ev).name, (pat))))

void pmc_pmu_print_counters(const char *event_name)
{
	struct pmc_pmu_event ev;

	FOR_EACH_MATCH(ev, event_name)
		printf("\t%s\n", ev.name);
}

void pmc_pmu_print_counter_desc(const char *event_name)
{
	struct pmc_pmu_event ev;

	FOR_EACH_MATCH(ev, event_name)
		if (*ev.desc)
			printf("%s:\t%s\n", ev.name, ev.desc);
}

/* perf's long descriptions, where the JSON has them; else the brief. */
void pmc_pmu_print_counter_desc_long(const char *event_name)
{
	struct pmc_pmu_event ev;

	FOR_EACH_MATCH(ev, event_name)
		if (*ev.ldesc || *ev.desc)
			printf("%s:\t%s\n", ev.name,
			       *ev.ldesc ? ev.ldesc : ev.desc);
}

void pmc_pmu_print_counter_full(const char *event_name)
{
	struct pmc_pmu_cpu cpu;
	struct pmc_pmu_event ev;

	pmc_pmu_current(&cpu);
	FOR_EACH_MATCH(ev, event_name) {
		printf("name: %s\n", ev.name);
		if (*ev.desc)
			printf("desc: %s\n", ev.desc);
		printf("event: %s\n", ev.enc);
		printf("topic: %s\n", ev.topic);
		printf("pmu: %s\n", cpu.pmu.name);
		if (ev.period)
			printf("period: %u\n", (unsigned int)ev.period);
	}
}
