/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hwpmc-stat -M: the derived metrics of the kernel's pmu-events tables
 * (tools/pmu_metrics.h) and an evaluator of perf's metric expressions
 * (tools/perf/util/expr.y's language): numbers, events, + - * / %,
 * comparisons < >, logical | & ^ !, 'a if cond else b', min(), max(),
 * d_ratio(), has_event(), #smt_on, #core_wide, #num_cpus_online,
 * #num_cpus, #slots, duration_time, and references to other metrics of
 * the same table.  What it cannot evaluate (uncore and other PMUs'
 * events, source_count(), strcmp_cpuid_str(), #num_packages, ...) is
 * reported with a reason, never as a number.
 */
#ifndef _PMCSTAT_METRIC_H_
#define _PMCSTAT_METRIC_H_

#include <stddef.h>

#include <pmc.h>

struct metric_info {
	const char	*name;		/* "tma_info_thread_ipc" */
	const char	*expr;		/* MetricExpr */
	const char	*groups;	/* "Ret;Summary" */
	const char	*unit;		/* "%", "per cycle", "" */
	const char	*desc;		/* BriefDescription */
	double		scale;		/* the value shown is value * scale */
};

/* What the expressions read besides events (NAN: unknown here). */
struct metric_env {
	/* the count of the event of pmc spec spec: 0, or -1 (not counted) */
	int		(*count)(void *arg, const char *spec, double *v);
	void		*arg;
	/* the events specifiers are parsed against (default KNOWN) */
	enum pmc_spec_events events;
	double		duration;	/* duration_time, in seconds */
	double		smt_on, core_wide, num_cpus_online, num_cpus, slots;
};

/* Literals from this machine (HWPMC_SYSFS replaces /sys); no counts. */
void	metric_env_init(struct metric_env *env);

/* The metrics of a pmu-events model ("skylakex"): a table, or -1. */
int	metric_table(const char *model);
int	metric_count(int table);
int	metric_at(int table, int i, struct metric_info *mi);
/* A metric of table by name (case-insensitive): its index, or -1. */
int	metric_find(int table, const char *name);
/* Is group one of mi's groups (case-insensitive)? */
int	metric_in_group(const struct metric_info *mi, const char *group);

/*
 * The events metric i of table counts: add(arg, spec) for each pmc(3)
 * specifier (once per reference; the caller removes duplicates).  Both
 * sides of an 'if' whose condition needs counts are taken, one side when
 * literals decide it.  0, or -1 with why (not supported).
 */
int	metric_events(int table, int i, const struct metric_env *env,
		      int (*add)(void *arg, const char *spec), void *arg,
		      char *why, size_t whylen);
/* Metric i's value (before scale): 0, or -1 with why. */
int	metric_value(int table, int i, const struct metric_env *env,
		     double *v, char *why, size_t whylen);
/* An expression of table's language (table -1: no metric references). */
int	metric_eval_expr(int table, const char *expr,
			 const struct metric_env *env, double *v, char *why,
			 size_t whylen);
/* The pmc(3) specifier of a metric's event name ("cpu@X\,cmask\=1@"). */
int	metric_event_spec(const char *name, char *spec, size_t len);

#endif /* _PMCSTAT_METRIC_H_ */
