// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc-stat -M (tools/pmcstat_metric.c): perf's metric expression
 * language (precedence, 'if else', functions, literals, errors) and the
 * derived metrics of the pmu-events tables (linux-source-6.12) of
 * Skylake-X, Ice Lake, Zen 3, Neoverse N1 and Cortex-A57, by HWPMC_CPUID,
 * evaluated with given counts.  Every expected value is worked out by
 * hand from the MetricExpr of the JSON named beside it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmc.h>
#include "../../tools/pmcstat_metric.h"
#include "tap.h"

/* counts by pmc(3) specifier, as hwpmc-stat's PMCs would give them */
static const struct { const char *spec; double v; } *counts;
static int ncounts;

static int count_cb(void *arg, const char *spec, double *v)
{
	int i;

	(void)arg;
	for (i = 0; i < ncounts; i++)
		if (!strcmp(counts[i].spec, spec)) {
			*v = counts[i].v;
			return 0;
		}
	return -1;
}

static struct metric_env env;
static char why[512];

static void setup_env(void)
{
	memset(&env, 0, sizeof(env));
	env.count = count_cb;
	env.duration = 2;
	env.smt_on = 0;
	env.core_wide = 0;
	env.num_cpus_online = 4;
	env.num_cpus = 8;
	env.slots = NAN;
}

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1);
}

/* expr (no table) gives want */
static void val(const char *expr, double want)
{
	double v = NAN;
	int r = metric_eval_expr(-1, expr, &env, &v, why, sizeof(why));

	ok(r == 0 && near(v, want), "'%s' = %g (got %s%g%s%s)", expr, want,
	   r ? "error: " : "", v, r ? " " : "", r ? why : "");
}

/* expr fails, its reason holding msg */
static void bad(int table, const char *expr, const char *msg)
{
	double v = 0;
	int r = metric_eval_expr(table, expr, &env, &v, why, sizeof(why));

	ok(r < 0 && strstr(why, msg), "'%s': error with '%s' (got %d, %g, '%s')",
	   expr, msg, r, v, r ? why : "");
}

static void cpuid(const char *id)
{
	setenv("HWPMC_CPUID", id, 1);
	printf("# HWPMC_CPUID=%s\n", id);
}

/* the table of the CPU: its model name is model */
static int table_of(const char *model)
{
	const char *m = pmc_pmu_model();
	int t = metric_table(m);

	ok(m && !strcmp(m, model) && t >= 0, "model %s has a metric table (%s, %d)",
	   model, m ? m : "none", t);
	return t;
}

/* metric name of table t, evaluated with the counts: want (scaled) */
static void metric(int t, const char *name, double want, const char *unit)
{
	struct metric_info mi;
	int i = metric_find(t, name), r = -1;
	double v = NAN;

	if (i >= 0 && metric_at(t, i, &mi) == 0)
		r = metric_value(t, i, &env, &v, why, sizeof(why));
	ok(i >= 0 && r == 0 && near(v * mi.scale, want) && !strcmp(mi.unit, unit),
	   "%s = %g %s (got %s%g %s)", name, want, unit,
	   r ? why : "", r ? 0 : v * (i >= 0 ? mi.scale : 1),
	   i >= 0 ? mi.unit : "?");
}

/* the events metric name collects: exactly the specs of want (';'-list) */
static char got[2048];

static int add_cb(void *arg, const char *spec)
{
	(void)arg;
	if (strlen(got) + strlen(spec) + 2 >= sizeof(got))
		return -1;
	if (*got)
		strcat(got, ";");
	strcat(got, spec);
	return 0;
}

static int has_spec(const char *list, const char *spec)
{
	size_t n = strlen(spec);
	const char *p = list;

	while ((p = strstr(p, spec))) {
		if ((p == list || p[-1] == ';') && (p[n] == ';' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

static void events(int t, const char *name, const char *want,
		   const char *not_want)
{
	int i = metric_find(t, name), r = -1, good = 1;
	char buf[512], *tok, *save;

	got[0] = '\0';
	if (i >= 0)
		r = metric_events(t, i, &env, add_cb, NULL, why, sizeof(why));
	snprintf(buf, sizeof(buf), "%s", want);
	for (tok = strtok_r(buf, ";", &save); tok; tok = strtok_r(NULL, ";", &save))
		good &= has_spec(got, tok);
	if (not_want) {
		snprintf(buf, sizeof(buf), "%s", not_want);
		for (tok = strtok_r(buf, ";", &save); tok;
		     tok = strtok_r(NULL, ";", &save))
			good &= !has_spec(got, tok);
	}
	ok(r == 0 && good, "%s counts %s%s%s (got %s%s)", name, want,
	   not_want ? ", not " : "", not_want ? not_want : "", got,
	   r ? why : "");
}

static void unsupported(int t, const char *name, const char *msg)
{
	int i = metric_find(t, name), r = 1;

	got[0] = '\0';
	if (i >= 0)
		r = metric_events(t, i, &env, add_cb, NULL, why, sizeof(why));
	ok(i >= 0 && r < 0 && strstr(why, msg),
	   "%s: not supported, '%s' (got %d '%s')", name, msg, r, r ? why : "");
}

static int group_size(int t, const char *group)
{
	struct metric_info mi;
	int i, n = 0;

	for (i = 0; i < metric_count(t); i++)
		n += metric_at(t, i, &mi) == 0 && metric_in_group(&mi, group);
	return n;
}

int main(void)
{
	int t;

	unsetenv("HWPMC_SYSFS");
	setenv("HWPMC_DEVICE", "/nonexistent", 1);	/* no module: pure parse */
	setup_env();

	/* ---- the language ---- */
	val("1 + 2 * 3", 7);
	val("(1 + 2) * 3", 9);
	val("10 - 4 - 3", 3);
	val("8 / 4 / 2", 1);
	val("2 * 3 % 4", 2);
	val("-2 * 3 + 10", 4);
	val("2 * -3", -6);
	val("1e3 * 2", 2000);
	val(".5 + 0.25", 0.75);
	val("1 + 1 > 1", 1);
	val("2 < 1 + 0.5", 0);
	val("1 | 0 & 0", 1);
	val("(1 | 0) & 0", 0);
	val("1 ^ 1", 0);
	val("!0 + !5", 1);
	val("10 if 1 else 20", 10);
	val("10 if 0 else 20", 20);
	val("1 + 2 if 0 < 1 else 3 + 4", 3);
	val("1 if 0 else 2 if 0 else 3", 3);
	val("1 if 0 else 2 if 1 else 3", 2);
	val("min(3, 2) + max(3, 2) * 10", 32);
	val("max(1 if 0 else 5, 2)", 5);
	val("d_ratio(6, 3)", 2);
	val("d_ratio(6, 0)", 0);
	val("d_ratio(6, 2 - 2) + 1", 1);
	val("#smt_on + #SMT_on + #core_wide", 0);
	val("#num_cpus_online * 10 + #num_cpus", 48);
	val("duration_time * 1e9", 2e9);
	val("100 / 8 if #smt_on else 100 / 4", 25);
	env.smt_on = 1;
	val("100 / 8 if #SMT_on else 100 / 4", 12.5);
	env.smt_on = 0;
	bad(-1, "1 / 0", "division by zero");
	bad(-1, "1 / (2 - 2) if 1 else 3", "division by zero");
	bad(-1, "5 % 0", "division by zero");
	bad(-1, "1 +", "unexpected end");
	bad(-1, "(1 + 2", "expected ')'");
	bad(-1, "1 2", "unexpected text");
	bad(-1, "1 if 1", "expected 'else'");
	bad(-1, "foo(1)", "unknown function 'foo'");
	bad(-1, "1 $ 2", "unexpected character '$'");
	bad(-1, "#slots * 2", "#slots is not known");
	env.slots = 8;
	val("#slots * 2", 16);
	env.slots = NAN;
	bad(-1, "#num_packages", "#num_packages is not supported");
	bad(-1, "source_count(cycles)", "source_count() is not supported");
	bad(-1, "strcmp_cpuid_str(0x410fd493)", "strcmp_cpuid_str() is not supported");

	/* ---- Skylake-X: x86/skylakex/skx-metrics.json ---- */
	cpuid("GenuineIntel-6-55-4");
	t = table_of("skylakex");
	{
		static const struct { const char *spec; double v; } c[] = {
			{ "inst_retired.any", 3000 },
			{ "cpu_clk_unhalted.thread", 1500 },
			{ "cpu_clk_unhalted.one_thread_active", 100 },
			{ "cpu_clk_unhalted.ref_xclk", 100 },
			{ "idq_uops_not_delivered.core", 1200 },
			{ "uops_retired.retire_slots", 2400 },
			{ "uops_issued.any", 3000 },
			{ "int_misc.recovery_cycles", 150 },
			{ "int_misc.recovery_cycles_any", 200 },
			{ "br_misp_retired.all_branches", 30 },
			{ "cpu/uops_executed.thread,cmask=1/", 500 },
			{ "uops_executed.thread", 1000 },
		};
		counts = (const void *)c;
		ncounts = sizeof(c) / sizeof(c[0]);
	}
	/* a vendor event, its name as the JSON spells it */
	val("INST_RETIRED.ANY / CPU_CLK_UNHALTED.THREAD", 2);
	/* perf's pmu@terms@: cpu/uops_executed.thread,cmask=1/ */
	ok(metric_eval_expr(t, "UOPS_EXECUTED.THREAD / cpu@UOPS_EXECUTED.THREAD\\,cmask\\=1@",
			    &env, &(double){ 0 }, why, sizeof(why)) == 0,
	   "cpu@EVENT\\,cmask\\=1@ is cpu/event,cmask=1/ (%s)", why);
	metric(t, "tma_info_core_ilp", 2, "");
	bad(t, "NO_SUCH_EVENT.ANY / 2", "unknown event 'no_such_event.any'");
	bad(t, "cha@UNC_CHA_CLOCKTICKS@ / 2", "PMU 'cha'");
	bad(t, "INST_RETIRED.ANY / INST_RETIRED.PREC_DIST", "was not counted");
	val("has_event(INST_RETIRED.ANY) + has_event(NO_SUCH_EVENT)", 1);
	/* IPC: INST_RETIRED.ANY / tma_info_thread_clks (a metric reference) */
	metric(t, "tma_info_thread_ipc", 2, "");
	metric(t, "TMA_INFO_THREAD_IPC", 2, "");
	events(t, "tma_info_thread_ipc", "inst_retired.any;cpu_clk_unhalted.thread", NULL);
	/* branch mispredictions: INST_RETIRED.ANY / BR_MISP_RETIRED.ALL_BRANCHES */
	metric(t, "tma_info_bad_spec_ipmispredict", 100, "");
	/*
	 * TopdownL1, SMT off, process scope (#core_wide 0):
	 *   core_clks = THREAD / 2 * (1 + ONE_THREAD_ACTIVE / REF_XCLK)
	 *             = 1500 / 2 * 2 = 1500, slots = 4 * 1500 = 6000
	 *   frontend = IDQ_UOPS_NOT_DELIVERED.CORE / slots = 1200 / 6000 = 20%
	 *   retiring = RETIRE_SLOTS / slots = 2400 / 6000 = 40%
	 *   bad_spec = (ISSUED - RETIRE_SLOTS + 4 * RECOVERY_CYCLES) / slots
	 *            = (3000 - 2400 + 600) / 6000 = 20%
	 *   backend  = 1 - frontend - (ISSUED + 4 * RECOVERY_CYCLES) / slots
	 *            = 1 - 0.2 - 3600 / 6000 = 20%
	 */
	ok(group_size(t, "TopdownL1") == 4, "skylakex: TopdownL1 has 4 metrics (%d)",
	   group_size(t, "TopdownL1"));
	metric(t, "tma_frontend_bound", 20, "%");
	metric(t, "tma_retiring", 40, "%");
	metric(t, "tma_bad_speculation", 20, "%");
	metric(t, "tma_backend_bound", 20, "%");
	/* the literals decide the 'if's: one side's events only */
	events(t, "tma_bad_speculation",
	       "uops_issued.any;uops_retired.retire_slots;int_misc.recovery_cycles;"
	       "cpu_clk_unhalted.thread;cpu_clk_unhalted.one_thread_active;"
	       "cpu_clk_unhalted.ref_xclk",
	       "int_misc.recovery_cycles_any;cpu_clk_unhalted.thread_any");
	env.smt_on = 1;
	/* SMT on: RECOVERY_CYCLES_ANY / 2 = 100, (600 + 400) / 6000 */
	metric(t, "tma_bad_speculation", 1000.0 / 6000 * 100, "%");
	events(t, "tma_bad_speculation", "int_misc.recovery_cycles_any",
	       "int_misc.recovery_cycles");
	env.smt_on = 0;
	/* an uncore metric: not supported, with the reason */
	unsupported(t, "llc_data_read_demand_plus_prefetch_miss_latency", "cha");
	unsupported(t, "tma_info_system_socket_clks", "PMU 'cha_0'");
	ok(metric_find(t, "no_such_metric") < 0, "skylakex: no_such_metric is not found");

	/* ---- Ice Lake: x86/icelake/icl-metrics.json ---- */
	cpuid("GenuineIntel-6-7E-5");
	t = table_of("icelake");
	metric(t, "tma_info_thread_ipc", 2, "");
	ok(group_size(t, "TopdownL1") == 4, "icelake: TopdownL1 has 4 metrics");
	/* perf's topdown-* sysfs events are not in the tables */
	unsupported(t, "tma_frontend_bound", "topdown-fe-bound");

	/* ---- Zen 3: x86/amdzen3/recommended.json ---- */
	cpuid("AuthenticAMD-25-1-0");
	t = table_of("amdzen3");
	{
		static const struct { const char *spec; double v; } c[] = {
			{ "ex_ret_brn_misp", 25 }, { "ex_ret_brn", 1000 },
		};
		counts = (const void *)c;
		ncounts = 2;
	}
	/* d_ratio(ex_ret_brn_misp, ex_ret_brn), ScaleUnit 100% */
	metric(t, "branch_misprediction_ratio", 2.5, "%");
	{
		static const struct { const char *spec; double v; } c[] = {
			{ "ex_ret_brn_misp", 25 }, { "ex_ret_brn", 0 },
		};
		counts = (const void *)c;
	}
	metric(t, "branch_misprediction_ratio", 0, "%");	/* d_ratio by zero */

	/* ---- Neoverse N1: arm64/arm/neoverse-n1/metrics.json ---- */
	cpuid("0x00000000410fd0c0");
	t = table_of("arm/neoverse-n1");
	{
		static const struct { const char *spec; double v; } c[] = {
			{ "inst_retired", 4000 }, { "cpu_cycles", 2000 },
			{ "br_mis_pred_retired", 10 }, { "br_retired", 400 },
		};
		counts = (const void *)c;
		ncounts = 4;
	}
	metric(t, "ipc", 2, "per cycle");
	metric(t, "branch_misprediction_ratio", 0.025, "per branch");
	metric(t, "branch_mpki", 2.5, "MPKI");
	events(t, "ipc", "inst_retired;cpu_cycles", NULL);

	/* ---- Neoverse V1: sbsa.json's TopdownL1 by ArchStdEvent ---- */
	cpuid("0x00000000410fd400");
	t = table_of("arm/neoverse-v1");
	ok(group_size(t, "TopdownL1") == 4, "neoverse-v1: TopdownL1 has 4 metrics");
	{
		static const struct { const char *spec; double v; } c[] = {
			{ "stall_slot_frontend", 1600 }, { "stall_slot_backend", 2400 },
			{ "stall_slot", 4000 }, { "cpu_cycles", 1000 },
			{ "op_retired", 3000 }, { "op_spec", 4000 },
			{ "br_mis_pred", 0 },
		};
		counts = (const void *)c;
		ncounts = 7;
	}
	/* #slots 8: 8000 slots; frontend 1600 / 8000 = 20% (the V1 form) */
	env.slots = 8;
	metric(t, "frontend_bound", 20, "percent of slots");
	/* 100 * (1 - 3000/4000) * (1 - 4000/8000) = 12.5 */
	metric(t, "bad_speculation", 12.5, "percent of slots");
	/* 100 * 3000/4000 * (1 - 4000/8000) = 37.5 */
	metric(t, "retiring", 37.5, "percent of slots");
	env.slots = NAN;
	unsupported(t, "retiring", "#slots is not known");

	/* ---- Cortex-A57: no metrics in its table; sbsa's need STALL_SLOT ---- */
	cpuid("0x00000000410fd070");
	ok(pmc_pmu_model() && !strcmp(pmc_pmu_model(), "arm/cortex-a57-a72") &&
	   metric_table(pmc_pmu_model()) < 0,
	   "cortex-a57-a72: no metric table (its events resolve none of sbsa.json's)");

	/* every metric of every table parses (what is left is unsupported) */
	{
		struct metric_info mi;
		int n = 0, bad_n = 0, i;

		env.slots = 8;
		for (t = 0; metric_count(t) > 0; t++)
			for (i = 0; i < metric_count(t); i++) {
				n++;
				got[0] = '\0';
				if (metric_events(t, i, &env, NULL, NULL, why,
						  sizeof(why)) < 0 &&
				    strstr(why, " at offset ")) {
					if (bad_n++ < 5 && metric_at(t, i, &mi) == 0)
						printf("# %s: %s\n", mi.name, why);
				}
			}
		env.slots = NAN;
		ok(n > 4000 && bad_n == 0, "all %d metrics of %d tables parse (%d do not)",
		   n, t, bad_n);
	}

	/* event names to specifiers */
	{
		char spec[128];

		ok(metric_event_spec("cpu@INST_RETIRED.ANY,cmask=1@", spec, sizeof(spec)) == 0 &&
		   !strcmp(spec, "cpu/inst_retired.any,cmask=1/"), "pmu@terms@ -> pmu/terms/ (%s)", spec);
		ok(metric_event_spec("cpu_core@A.B,cmask=1@k", spec, sizeof(spec)) == 0 &&
		   !strcmp(spec, "cpu_core/a.b,cmask=1/k"), "pmu@terms@k -> pmu/terms/k (%s)", spec);
		ok(metric_event_spec("cpu@A.B", spec, sizeof(spec)) < 0, "pmu@ without its closing @: refused");
		ok(metric_event_spec("BR_INST_RETIRED.FAR_BRANCH:u", spec, sizeof(spec)) == 0 &&
		   !strcmp(spec, "br_inst_retired.far_branch:u"), "NAME:u -> name:u (%s)", spec);
	}
	return tap_done();
}
