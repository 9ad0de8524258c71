// SPDX-License-Identifier: GPL-2.0
/*
 * libhwpmc name functions and the shared event tables, without a module.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <linux/perf_event.h>

#include <pmc.h>
#include <hwpmc_events.h>
#include "tap.h"

struct name { uint32_t v; const char *n; };

#define CHECK_TABLE(fn, type, tab)					\
	do {								\
		size_t i_;						\
		for (i_ = 0; i_ < sizeof(tab) / sizeof(tab[0]); i_++) {	\
			const char *s_ = fn((type)tab[i_].v);		\
			ok(s_ && !strcmp(s_, tab[i_].n),		\
			   #fn "(0x%x) = \"%s\" (got \"%s\")",		\
			   tab[i_].v, tab[i_].n, s_ ? s_ : "(null)");	\
		}							\
	} while (0)

#define CHECK_INVALID(fn, type, val)					\
	do {								\
		const char *s_;						\
		errno = 0;						\
		s_ = fn((type)(val));					\
		ok(!s_ && errno == EINVAL, #fn "(0x%x) is NULL/EINVAL",	\
		   (unsigned int)(val));				\
	} while (0)

static const struct name classes[] = {
	{ PMC_CLASS_TSC, "TSC" }, { PMC_CLASS_K8, "K8" },
	{ PMC_CLASS_IBS, "IBS" }, { PMC_CLASS_IAF, "IAF" },
	{ PMC_CLASS_IAP, "IAP" }, { PMC_CLASS_UCF, "UCF" },
	{ PMC_CLASS_UCP, "UCP" }, { PMC_CLASS_XSCALE, "XSCALE" },
	{ PMC_CLASS_PPC7450, "PPC7450" }, { PMC_CLASS_PPC970, "PPC970" },
	{ PMC_CLASS_SOFT, "SOFT" }, { PMC_CLASS_ARMV7, "ARMV7" },
	{ PMC_CLASS_ARMV8, "ARMV8" }, { PMC_CLASS_E500, "E500" },
	{ PMC_CLASS_POWER8, "POWER8" },
	{ PMC_CLASS_DMC620_PMU_CD2, "DMC620_PMU_CD2" },
	{ PMC_CLASS_DMC620_PMU_C, "DMC620_PMU_C" },
	{ PMC_CLASS_CMN600_PMU, "CMN600_PMU" }, { PMC_CLASS_RAPL, "RAPL" },
	{ PMC_CLASS_PMU, "PMU" }, { PMC_CLASS_PERF, "PERF" },
};

static const struct name caps[] = {
	{ PMC_CAP_INTERRUPT, "INTERRUPT" }, { PMC_CAP_USER, "USER" },
	{ PMC_CAP_SYSTEM, "SYSTEM" }, { PMC_CAP_EDGE, "EDGE" },
	{ PMC_CAP_THRESHOLD, "THRESHOLD" }, { PMC_CAP_READ, "READ" },
	{ PMC_CAP_WRITE, "WRITE" }, { PMC_CAP_INVERT, "INVERT" },
	{ PMC_CAP_QUALIFIER, "QUALIFIER" }, { PMC_CAP_PRECISE, "PRECISE" },
	{ PMC_CAP_TAGGING, "TAGGING" }, { PMC_CAP_CASCADE, "CASCADE" },
	{ PMC_CAP_SYSWIDE, "SYSWIDE" }, { PMC_CAP_DOMWIDE, "DOMWIDE" },
};

static const struct name cputypes[] = {
	{ PMC_CPU_GENERIC, "GENERIC" }, { PMC_CPU_LINUX_X86, "LINUX_X86" },
	{ PMC_CPU_LINUX_ARM64, "LINUX_ARM64" },
	/* FreeBSD 14's, as pmc_cpuinfo() reports them from the CPU's model */
	{ PMC_CPU_AMD_K7, "AMD_K7" }, { PMC_CPU_AMD_K8, "AMD_K8" },
	{ PMC_CPU_INTEL_SKYLAKE_XEON, "INTEL_SKYLAKE_XEON" },
	{ 0x99, "INTEL_SKYLAKE_XEON" }, { 0x9B, "INTEL_ICELAKE" },
	{ 0x9F, "INTEL_ATOM_TREMONT" }, { 0x100, "INTEL_XSCALE" },
	{ 0x390, "PPC_POWER8" }, { 0x505, "ARMV7_CORTEX_A17" },
	{ 0x601, "ARMV8_CORTEX_A57" }, { 0x602, "ARMV8_CORTEX_A76" },
	{ PMC_CPU_LINUX_OTHER, "LINUX_OTHER" },
};

static const struct name disps[] = {
	{ PMC_DISP_STANDALONE, "STANDALONE" }, { PMC_DISP_FREE, "FREE" },
	{ PMC_DISP_THREAD, "THREAD" }, { PMC_DISP_UNKNOWN, "UNKNOWN" },
	{ PMC_DISP_KERNEL, "KERNEL" },
};

static const struct name modes[] = {
	{ PMC_MODE_SS, "SS" }, { PMC_MODE_SC, "SC" },
	{ PMC_MODE_TS, "TS" }, { PMC_MODE_TC, "TC" },
};

static const struct name states[] = {
	{ PMC_STATE_DISABLED, "DISABLED" }, { PMC_STATE_FREE, "FREE" },
	{ PMC_STATE_ALLOCATED, "ALLOCATED" }, { PMC_STATE_STOPPED, "STOPPED" },
	{ PMC_STATE_RUNNING, "RUNNING" }, { PMC_STATE_DELETED, "DELETED" },
};

static const struct name events[] = {
	{ PMC_EV_SOFT_FIRST + PERF_COUNT_SW_CPU_CLOCK, "cpu-clock" },
	{ PMC_EV_SOFT_FIRST + PERF_COUNT_SW_TASK_CLOCK, "task-clock" },
	{ PMC_EV_SOFT_FIRST + PERF_COUNT_SW_PAGE_FAULTS, "page-faults" },
	{ PMC_EV_SOFT_FIRST + PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches" },
	{ PMC_EV_SOFT_FIRST + PERF_COUNT_SW_CPU_MIGRATIONS, "cpu-migrations" },
	{ PMC_EV_SOFT_FIRST + PERF_COUNT_SW_PAGE_FAULTS_MIN, "minor-faults" },
	{ PMC_EV_SOFT_FIRST + PERF_COUNT_SW_PAGE_FAULTS_MAJ, "major-faults" },
	{ PMC_EV_SOFT_FIRST + PERF_COUNT_SW_ALIGNMENT_FAULTS, "alignment-faults" },
	{ PMC_EV_SOFT_FIRST + PERF_COUNT_SW_EMULATION_FAULTS, "emulation-faults" },
	{ PMC_EV_SOFT_FIRST + PERF_COUNT_SW_CGROUP_SWITCHES, "cgroup-switches" },
	{ PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_CPU_CYCLES, "cycles" },
	{ PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_INSTRUCTIONS, "instructions" },
	{ PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_CACHE_REFERENCES, "cache-references" },
	{ PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_CACHE_MISSES, "cache-misses" },
	{ PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "branch-instructions" },
	{ PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_BRANCH_MISSES, "branch-misses" },
	{ PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_BUS_CYCLES, "bus-cycles" },
	{ PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, "stalled-cycles-frontend" },
	{ PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_STALLED_CYCLES_BACKEND, "stalled-cycles-backend" },
	{ PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_REF_CPU_CYCLES, "ref-cycles" },
	{ PMC_EV_PMU_RAW, "raw" },
};

/* every cache event: perf's spelling */
static void check_cache_events(void)
{
	static const char *const cache[] = {
		"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch",
		"node",
	};
	static const char *const op[2][3] = {
		{ "loads", "stores", "prefetches" },
		{ "load-misses", "store-misses", "prefetch-misses" },
	};
	char want[PMC_NAME_MAX], buf[PMC_NAME_MAX];
	unsigned int c, o, r, bad = 0, n = 0;
	const char *s;

	for (c = 0; c < 7; c++)
		for (o = 0; o < 3; o++)
			for (r = 0; r < 2; r++) {
				unsigned int ev = PMC_EV_PMU_CACHE(c, o, r);

				snprintf(want, sizeof(want), "%s-%s", cache[c],
					 op[r][o]);
				s = pmc_name_of_event((enum pmc_event)ev);
				if (hwpmc_event_name(ev, buf, sizeof(buf)) ||
				    strcmp(buf, want) || !s || strcmp(s, want)) {
					printf("# 0x%x: want %s, got %s / %s\n",
					       ev, want, buf, s ? s : "(null)");
					bad++;
				}
				n++;
			}
	ok(!bad && n == 42, "all 42 cache events named as perf does");
	s = pmc_name_of_event((enum pmc_event)PMC_EV_PMU_CACHE(0, 0, 1));
	ok(s && !strcmp(s, "L1-dcache-load-misses"),
	   "PMC_EV_PMU_CACHE(L1D, READ, MISS) = L1-dcache-load-misses");
}

/* hwpmc_event_name and pmc_name_of_event agree on every code */
static void check_all_codes(void)
{
	unsigned int ev, valid = 0, disagree = 0;
	char buf[PMC_NAME_MAX];
	const char *s;

	for (ev = PMC_EV_SOFT_FIRST - 16; ev <= PMC_EV_PMU_RAW + 16; ev++) {
		int r = hwpmc_event_name(ev, buf, sizeof(buf));

		errno = 0;
		s = pmc_name_of_event((enum pmc_event)ev);
		if (r == 0) {
			valid++;
			if (!s || strcmp(s, buf) || !buf[0])
				disagree++;
		} else if (s || errno != EINVAL || buf[0]) {
			disagree++;
		}
	}
	ok(valid == 10 + 10 + 42 + 1,
	   "63 valid event codes in the tables (got %u)", valid);
	ok(!disagree, "pmc_name_of_event agrees with hwpmc_event_name (%u disagree)",
	   disagree);
}

static void check_invalid_events(void)
{
	static const unsigned int bad[] = {
		0, 1, PMC_EV_SOFT_FIRST - 1, PMC_EV_SOFT_FIRST + 0x7F,
		PMC_EV_SOFT_LAST, PMC_EV_PMU_HW_FIRST + 0x10,
		PMC_EV_PMU_CACHE_FIRST + (0 << 3 | 3 << 1),	/* op 3 */
		PMC_EV_PMU_CACHE(7, 0, 0),			/* cache 7 */
		PMC_EV_PMU_CACHE_LAST, PMC_EV_PMU_RAW + 1, 0xFFFFFFFFU,
	};
	char buf[PMC_NAME_MAX];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(buf, 'x', sizeof(buf));
		ok(hwpmc_event_name(bad[i], buf, sizeof(buf)) == -1 &&
		   buf[0] == '\0', "hwpmc_event_name(0x%x) fails, buf empty",
		   bad[i]);
		CHECK_INVALID(pmc_name_of_event, enum pmc_event, bad[i]);
	}
	ok(hwpmc_event_name(PMC_EV_PMU_HW_FIRST, buf, 4) == 0 &&
	   !strcmp(buf, "cyc"), "hwpmc_event_name truncates to len - 1");
	ok(hwpmc_event_name(PMC_EV_PMU_CACHE(0, 0, 1), buf, 12) == 0 &&
	   !strcmp(buf, "L1-dcache-l"), "cache names truncate too");
}

/* The capability table the module's banner and pmc(3) share. */
static void check_cap_defs(void)
{
	char banner[128] = "";
	unsigned int i, inorder = 1;

	for (i = 0; i < HWPMC_NDEFS(hwpmc_cap_defs); i++) {
		inorder &= hwpmc_cap_defs[i].bit == 1U << i;
		if (hwpmc_cap_defs[i].bit & 0x67) {
			if (banner[0])
				strcat(banner, ",");
			strcat(banner, hwpmc_cap_defs[i].abbrev);
		}
	}
	ok(inorder && HWPMC_NDEFS(hwpmc_cap_defs) == 14,
	   "hwpmc_cap_defs: the 14 capabilities, one per bit, in order");
	ok(!strcmp(banner, "INT,USR,SYS,REA,WRI"),
	   "the banner's 0x67 (hwpmc.4): <%s>", banner);
}

int main(void)
{
	CHECK_TABLE(pmc_name_of_class, enum pmc_class, classes);
	CHECK_INVALID(pmc_name_of_class, enum pmc_class, 0x01);
	CHECK_INVALID(pmc_name_of_class, enum pmc_class, 0x1A);
	CHECK_INVALID(pmc_name_of_class, enum pmc_class, 0x42);
	CHECK_INVALID(pmc_name_of_class, enum pmc_class, -1);

	CHECK_TABLE(pmc_name_of_capability, enum pmc_caps, caps);
	CHECK_INVALID(pmc_name_of_capability, enum pmc_caps, 0);
	CHECK_INVALID(pmc_name_of_capability, enum pmc_caps, 3);
	CHECK_INVALID(pmc_name_of_capability, enum pmc_caps, 1U << 14);
	CHECK_INVALID(pmc_name_of_capability, enum pmc_caps, 1U << 31);
	check_cap_defs();

	CHECK_TABLE(pmc_name_of_cputype, enum pmc_cputype, cputypes);
	CHECK_INVALID(pmc_name_of_cputype, enum pmc_cputype, 0x2);
	CHECK_INVALID(pmc_name_of_cputype, enum pmc_cputype, 0xA0);
	CHECK_INVALID(pmc_name_of_cputype, enum pmc_cputype, 0x401);

	CHECK_TABLE(pmc_name_of_disposition, enum pmc_disp, disps);
	CHECK_INVALID(pmc_name_of_disposition, enum pmc_disp, 5);
	CHECK_INVALID(pmc_name_of_disposition, enum pmc_disp, -1);

	CHECK_TABLE(pmc_name_of_mode, enum pmc_mode, modes);
	CHECK_INVALID(pmc_name_of_mode, enum pmc_mode, PMC_MODE_INVALID);
	CHECK_INVALID(pmc_name_of_mode, enum pmc_mode, -1);

	CHECK_TABLE(pmc_name_of_state, enum pmc_state, states);
	CHECK_INVALID(pmc_name_of_state, enum pmc_state, PMC_STATE_MAX + 1);
	CHECK_INVALID(pmc_name_of_state, enum pmc_state, -1);

	CHECK_TABLE(pmc_name_of_event, enum pmc_event, events);
	check_cache_events();
	check_all_codes();
	check_invalid_events();

	ok(EPROGMISMATCH == EPROTO, "EPROGMISMATCH is EPROTO");
	ok(EDOOFUS == EDESTADDRREQ, "EDOOFUS is EDESTADDRREQ");
	return tap_done();
}
