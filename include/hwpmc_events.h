/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * hwpmc for Linux: the event tables shared by the module and libhwpmc,
 * and the capability names.
 *
 * One list, two users: the module probes these perf events at load to
 * learn which the machine has, and names them in GETDYNEVENTINFO; the
 * library names event codes with the same tables when it has no module
 * to ask (reading a log on another machine).  Names are perf's.
 *
 * The including file must have included <linux/perf_event.h> (kernel or
 * uapi) and <linux/hwpmc.h> first; nothing else is needed.  The cache
 * indexes below are perf's PERF_COUNT_HW_CACHE_* values, which are ABI.
 */
#ifndef _HWPMC_EVENTS_H
#define _HWPMC_EVENTS_H

struct hwpmc_event_def {
	unsigned int	config;		/* perf_event_attr.config */
	const char	*name;
};

/* SOFT class: perf's software events (PERF_TYPE_SOFTWARE). */
static const struct hwpmc_event_def hwpmc_soft_events[] = {
	{ PERF_COUNT_SW_CPU_CLOCK,		"cpu-clock" },
	{ PERF_COUNT_SW_TASK_CLOCK,		"task-clock" },
	{ PERF_COUNT_SW_PAGE_FAULTS,		"page-faults" },
	{ PERF_COUNT_SW_CONTEXT_SWITCHES,	"context-switches" },
	{ PERF_COUNT_SW_CPU_MIGRATIONS,		"cpu-migrations" },
	{ PERF_COUNT_SW_PAGE_FAULTS_MIN,	"minor-faults" },
	{ PERF_COUNT_SW_PAGE_FAULTS_MAJ,	"major-faults" },
	{ PERF_COUNT_SW_ALIGNMENT_FAULTS,	"alignment-faults" },
	{ PERF_COUNT_SW_EMULATION_FAULTS,	"emulation-faults" },
	{ PERF_COUNT_SW_CGROUP_SWITCHES,	"cgroup-switches" },
};

/* PMU class: generic hardware events (PERF_TYPE_HARDWARE). */
static const struct hwpmc_event_def hwpmc_hw_events[] = {
	{ PERF_COUNT_HW_CPU_CYCLES,		"cycles" },
	{ PERF_COUNT_HW_INSTRUCTIONS,		"instructions" },
	{ PERF_COUNT_HW_CACHE_REFERENCES,	"cache-references" },
	{ PERF_COUNT_HW_CACHE_MISSES,		"cache-misses" },
	{ PERF_COUNT_HW_BRANCH_INSTRUCTIONS,	"branch-instructions" },
	{ PERF_COUNT_HW_BRANCH_MISSES,		"branch-misses" },
	{ PERF_COUNT_HW_BUS_CYCLES,		"bus-cycles" },
	{ PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, "stalled-cycles-frontend" },
	{ PERF_COUNT_HW_STALLED_CYCLES_BACKEND,	"stalled-cycles-backend" },
	{ PERF_COUNT_HW_REF_CPU_CYCLES,		"ref-cycles" },
};

/*
 * PMU class: cache events (PERF_TYPE_HW_CACHE), named as perf does:
 * cache, operation, result ("L1-dcache-load-misses").  The event code
 * is PMC_EV_PMU_CACHE(cache, op, result).
 */
#define HWPMC_NCACHE	7	/* PERF_COUNT_HW_CACHE_L1D .. _NODE */
#define HWPMC_NCACHEOP	3	/* load, store, prefetch */
#define HWPMC_NCACHERES	2	/* access, miss */

static const char *const hwpmc_cache_names[HWPMC_NCACHE] = {
	"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node",
};

static const char *const hwpmc_cacheop_names[HWPMC_NCACHERES][HWPMC_NCACHEOP] = {
	{ "loads", "stores", "prefetches" },
	{ "load-misses", "store-misses", "prefetch-misses" },
};

/* perf_event_attr.config of cache event code ev */
#define HWPMC_CACHE_CONFIG(ev)						\
	((((ev) - PMC_EV_PMU_CACHE_FIRST) >> 3) |			\
	 ((((ev) - PMC_EV_PMU_CACHE_FIRST) >> 1 & 3) << 8) |		\
	 ((((ev) - PMC_EV_PMU_CACHE_FIRST) & 1) << 16))

/* copy src to dst + off, return the new offset (bounded by len - 1) */
static inline unsigned int hwpmc_strput_(char *dst, unsigned int off,
					 unsigned int len, const char *src)
{
	while (*src && off + 1 < len)
		dst[off++] = *src++;
	dst[off] = '\0';
	return off;
}

static inline const char *
hwpmc_def_name(const struct hwpmc_event_def *defs, unsigned int n,
	       unsigned int config)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (defs[i].config == config)
			return defs[i].name;
	return (const char *)0;
}

#define HWPMC_NDEFS(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * The capabilities by bit, from <linux/hwpmc.h>'s one list
 * (__HWPMC_CAPS()): FreeBSD's names (pmc_name_of_capability(3)) and the
 * abbreviations of the module's load banner ("0x67<INT,USR,SYS,REA,WRI>").
 */
struct hwpmc_cap_def {
	unsigned int	bit;		/* PMC_CAP_* */
	const char	*name;		/* "INTERRUPT" */
	const char	*abbrev;	/* "INT" */
	const char	*descr;
};

#define HWPMC_CAP_DEF_(name, bit, abbrev, descr)	\
	{ 1U << (bit), #name, abbrev, descr },
static const struct hwpmc_cap_def hwpmc_cap_defs[] = {
	__HWPMC_CAPS(HWPMC_CAP_DEF_)
};
#undef HWPMC_CAP_DEF_

/*
 * The name of event code ev, in buf (len > 0).  Returns 0, or -1 when
 * ev is no known code (buf then holds "").
 */
static inline int hwpmc_event_name(unsigned int ev, char *buf,
				   unsigned int len)
{
	const char *name = (const char *)0;
	unsigned int c, op, res, off;

	buf[0] = '\0';
	if (ev >= PMC_EV_SOFT_FIRST && ev <= PMC_EV_SOFT_LAST)
		name = hwpmc_def_name(hwpmc_soft_events,
				      HWPMC_NDEFS(hwpmc_soft_events),
				      ev - PMC_EV_SOFT_FIRST);
	else if (ev >= PMC_EV_PMU_HW_FIRST && ev <= PMC_EV_PMU_HW_LAST)
		name = hwpmc_def_name(hwpmc_hw_events,
				      HWPMC_NDEFS(hwpmc_hw_events),
				      ev - PMC_EV_PMU_HW_FIRST);
	else if (ev == PMC_EV_PMU_RAW)
		name = "raw";
	if (name) {
		hwpmc_strput_(buf, 0, len, name);
		return 0;
	}
	if (ev < PMC_EV_PMU_CACHE_FIRST || ev > PMC_EV_PMU_CACHE_LAST)
		return -1;
	c = (ev - PMC_EV_PMU_CACHE_FIRST) >> 3;
	op = (ev - PMC_EV_PMU_CACHE_FIRST) >> 1 & 3;
	res = (ev - PMC_EV_PMU_CACHE_FIRST) & 1;
	if (c >= HWPMC_NCACHE || op >= HWPMC_NCACHEOP)
		return -1;
	off = hwpmc_strput_(buf, 0, len, hwpmc_cache_names[c]);
	off = hwpmc_strput_(buf, off, len, "-");
	hwpmc_strput_(buf, off, len, hwpmc_cacheop_names[res][op]);
	return 0;
}

#endif /* _HWPMC_EVENTS_H */
