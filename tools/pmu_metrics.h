/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hwpmc-stat: the layout of the derived-metric tables that
 * libhwpmc/gen_pmu_events.py --metrics generates from the kernel's
 * pmu-events JSON at build time (every string an offset into
 * hwpmc_pm_pool, as in libhwpmc/pmu_events.h).  Not installed.
 */
#ifndef _HWPMC_PMU_METRICS_H_
#define _HWPMC_PMU_METRICS_H_

#include <stdint.h>

struct hwpmc_pm_metric {
	uint32_t	name;		/* MetricName, as written: "IPC" */
	uint32_t	expr;		/* MetricExpr, white space folded */
	uint32_t	groups;		/* MetricGroup;DefaultMetricgroupName */
	uint32_t	unit;		/* ScaleUnit less its number: "%" */
	uint32_t	desc;		/* BriefDescription */
	double		scale;		/* ScaleUnit's number: 100 */
};

/* One model's metrics: hwpmc_pm_metrics[first .. first + count - 1]. */
struct hwpmc_pm_table {
	uint32_t	model;		/* the JSON directory, as pmc_pmu_model() */
	uint32_t	first, count;
};

extern const char hwpmc_pm_pool[];
extern const struct hwpmc_pm_metric hwpmc_pm_metrics[];
extern const struct hwpmc_pm_table hwpmc_pm_tables[];
extern const unsigned int hwpmc_pm_ntables;

#endif /* _HWPMC_PMU_METRICS_H_ */
