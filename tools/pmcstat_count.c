// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat's PMCs and what the counting ones print: their allocation
 * (the user-mode fallback of unprivileged PMU events; offline CPUs of
 * '*' skipped), pmcstat's columns, CSV and JSON rows, --metrics' values,
 * and the --summary in perf stat's layout.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmcstat_stat.h"

/* The module's per-user limit of hardware events, as text ("N"). */
const char *counters_limit(void)
{
	static char buf[16] = "N";
	FILE *f = fopen("/sys/module/hwpmc/parameters/unprivileged_counters",
			"r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			strcpy(buf, "N");
		buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
	return buf;
}

/* Add a counter: exits when out of memory. */
static struct ctr *new_ctr(struct stat_run *st)
{
	struct ctr *n;

	if (st->nctr == st->room) {
		st->room = st->room ? st->room * 2 : 16;
		n = realloc(st->ctrs, (size_t)st->room * sizeof(*st->ctrs));
		if (!n) {
			fprintf(stderr, "%s: out of memory\n", prog);
			exit(1);
		}
		st->ctrs = n;
	}
	memset(&st->ctrs[st->nctr], 0, sizeof(st->ctrs[st->nctr]));
	return &st->ctrs[st->nctr++];
}

/*
 * Allocate the PMC of c, its spec parsed once (c->pa, c->modes).  A PMU
 * event given without a mode counts both; when the module refuses that
 * to an unprivileged caller (EPERM), count user mode only, as perf does
 * for unprivileged users.  SOFT events count both modes for everyone.
 * 0; 1 when the CPU is offline and offline_ok; else -1 (told).
 */
static int allocate(struct ctr *c, int offline_ok)
{
	struct pmc_op_pmcallocate user;

	if (!pmc_allocate_parsed(c->spec, &c->pa, c->mode, c->flags, c->cpu,
				 &c->id, c->count))
		return 0;
	if (errno == ENXIO && offline_ok)
		return 1;
	if (errno == EPERM && (c->mode == PMC_MODE_TC || c->mode == PMC_MODE_TS) &&
	    c->pa.pm_class == PMC_CLASS_PMU && !c->pa.pm_caps && !c->modes) {
		user = c->pa;
		user.pm_caps = PMC_CAP_USER;
		if (!pmc_allocate_parsed(c->spec, &user, c->mode, c->flags,
					 c->cpu, &c->id, c->count)) {
			if (verbose)
				fprintf(stderr, "%s: %s: counting user mode only (kernel mode needs CAP_PERFMON)\n",
					prog, c->spec);
			c->pa = user;
			return 0;
		}
		errno = EPERM;
	}
	fprintf(stderr, "%s: cannot allocate %s\n", prog,
		pmc_allocate_message());
	return -1;
}

static const char *label(const struct ctr *c, char *buf, size_t len)
{
	if (c->mode == PMC_MODE_SC)
		snprintf(buf, len, "s/%02d/%s", c->cpu, c->spec);
	else
		snprintf(buf, len, "p/%s", c->spec);
	return buf;
}

/* pmcstat's columns: as wide as the counter's digits, or its label. */
static void set_widths(struct stat_run *st)
{
	struct ctr *ctrs = st->ctrs;
	char buf[600];
	uint32_t bits;
	int i, w;

	for (i = 0; i < st->nctr; i++) {
		if (SAMPLING(&ctrs[i]))
			continue;
		if (pmc_width(ctrs[i].id, &bits) < 0 || !bits || bits > 64)
			bits = 64;
		w = (int)(bits / 3.32193) + 1;
		if ((int)strlen(label(&ctrs[i], buf, sizeof(buf))) > w)
			w = (int)strlen(buf);
		ctrs[i].width = w;
	}
}

void print_header(const struct stat_run *st, FILE *out)
{
	const struct ctr *ctrs = st->ctrs;
	char buf[600];
	int i;

	if (quiet)
		return;
	if (st->o.outfmt == OUT_CSV) {
		fprintf(out, "time,event,scope,cpu,value,enabled,running%s\n",
			st->nmreq ? ",unit" : "");
		return;
	}
	if (st->o.outfmt != OUT_TEXT)
		return;
	fprintf(out, "#");
	for (i = 0; i < st->nctr; i++)
		if (!SAMPLING(&ctrs[i]))
			fprintf(out, " %*s", ctrs[i].width,
				label(&ctrs[i], buf, sizeof(buf)));
	fputc('\n', out);
}

/* s as a CSV field (RFC 4180): quoted when it holds , " or a newline */
static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* s as a JSON string */
static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

/* The first counting (not sampling) PMC. */
static const struct ctr *first_counter(const struct stat_run *st)
{
	int i;

	for (i = 0; i < st->nctr; i++)
		if (!SAMPLING(&st->ctrs[i]))
			return &st->ctrs[i];
	return NULL;
}

int ncounters(const struct stat_run *st)
{
	int i, n = 0;

	for (i = 0; i < st->nctr; i++)
		n += !SAMPLING(&st->ctrs[i]);
	return n;
}

/*
 * Read every counter: its value since the previous row, or since the
 * start (cumulative), into shown; the metrics' duration_time with it.
 * Returns the time since the start.
 */
static double read_row(struct stat_run *st, int cumulative)
{
	double t = now() - st->t0;
	uint64_t e, r;
	pmc_value_t v;
	int i;

	for (i = 0; i < st->nctr; i++) {
		struct ctr *c = &st->ctrs[i];

		if (SAMPLING(c))
			continue;
		if (pmc_read_times(c->id, &v, &e, &r) < 0) {
			if (errno == ENODATA)
				c->uncounted = 1;
			v = c->last;
			e = c->enabled;
			r = c->running;
		}
		c->times = e != PMC_TIME_UNKNOWN && r != PMC_TIME_UNKNOWN;
		if (!c->times)
			e = r = 0;
		c->shown = cumulative ? v : v - c->last;
		c->shown_enabled = cumulative ? e : e - c->enabled;
		c->shown_running = cumulative ? r : r - c->running;
		c->last = v;
		c->enabled = e;
		c->running = r;
	}
	st->menv.duration = cumulative ? t : t - st->tprev;
	st->tprev = t;
	return t;
}

/*
 * Did c count nothing in the latest row (perf's <not counted>)?  ENODATA
 * once (a partial count the module cannot time), or no running time in
 * a row that had enabled time.
 */
static int not_counted(const struct ctr *c)
{
	return c->uncounted ||
	       (c->times && c->shown_enabled && !c->shown_running);
}

/* Did c count only part of the latest row's enabled time? */
static int partial(const struct ctr *c)
{
	return c->times && c->shown_running &&
	       c->shown_running < c->shown_enabled;
}

/* c's count in the latest row, scaled to its enabled time as perf does. */
static double scaled(const struct ctr *c)
{
	if (!partial(c))
		return (double)c->shown;
	return (double)c->shown * (double)c->shown_enabled /
	       (double)c->shown_running;
}

/* --metrics: the count of spec in the latest row (its process-scope PMC). */
int metric_count_cb(void *arg, const char *spec, double *v)
{
	const struct stat_run *st = arg;
	const struct ctr *ctrs = st->ctrs;
	int i;

	for (i = 0; i < st->nctr; i++)
		if (ctrs[i].mode == PMC_MODE_TC && !strcmp(ctrs[i].spec, spec)) {
			*v = scaled(&ctrs[i]);
			return not_counted(&ctrs[i]) ? -1 : 0;
		}
	return -1;
}

/* --metrics: metric m's value in the latest row, scaled: 0, or -1 with why. */
static int metric_shown(const struct stat_run *st, const struct mreq *m,
			double *v, char *why, size_t len)
{
	if (!m->ok) {
		snprintf(why, len, "not supported: %s", m->why);
		return -1;
	}
	if (metric_value(st->mtable, m->index, &st->menv, v, why, len) < 0)
		return -1;
	*v *= m->mi.scale;
	if (!isfinite(*v)) {
		snprintf(why, len, "not a finite number");
		return -1;
	}
	return 0;
}

/* --metrics: the metrics of the latest row, as CSV rows or JSON members. */
static void print_metrics(const struct stat_run *st, FILE *out, int final,
			  double t)
{
	enum outfmt outfmt = st->o.outfmt;
	char why[400];
	double v;
	int k, ok;

	if (outfmt == OUT_JSON)
		fprintf(out, ",\"metrics\":[");
	for (k = 0; k < st->nmreq; k++) {
		const struct mreq *m = &st->mreqs[k];

		ok = metric_shown(st, m, &v, why, sizeof(why)) == 0;
		if (outfmt == OUT_CSV) {
			if (final)
				fputs("total,", out);
			else
				fprintf(out, "%.3f,", t);
			csv_field(out, m->mi.name);
			fputs(",metric,,", out);
			if (ok)
				fprintf(out, "%.6g", v);
			fputs(",,,", out);
			csv_field(out, m->mi.unit);
			fputc('\n', out);
		} else if (outfmt == OUT_JSON) {
			fprintf(out, "%s{\"metric\":", k ? "," : "");
			json_string(out, m->mi.name);
			if (ok)
				fprintf(out, ",\"value\":%.6g", v);
			else
				fprintf(out, ",\"value\":null");
			fprintf(out, ",\"unit\":");
			json_string(out, m->mi.unit);
			if (!ok) {
				fprintf(out, ",\"error\":");
				json_string(out, why);
			}
			fputc('}', out);
		} else if (ok) {
			fprintf(out, "# %12.2f%s%s  %s\n", v, *m->mi.unit ? " " : "",
				m->mi.unit, m->mi.name);
		} else {
			fprintf(out, "# %12s %s (%s)\n", "n/a", m->mi.name, why);
		}
	}
	if (outfmt == OUT_JSON)
		fputc(']', out);
}

/*
 * print_row()'s cell of counter c: its value, or <not counted> when perf
 * could not always schedule it and the module cannot say for how long,
 * or when it never ran in the row (a partial count is never shown as a
 * whole one).  A partial count with its times: in text columns, the
 * count scaled to the enabled time, marked '~'; in CSV and JSON, the
 * count as counted, with the enabled and running times in ns.
 */
static void print_cell(const struct stat_run *st, FILE *out,
		       const struct ctr *c, int final, double t)
{
	char num[32];
	const char *v = "<not counted>";
	int none = not_counted(c);

	if (!none) {
		snprintf(num, sizeof(num), "%ju", (uintmax_t)c->shown);
		v = num;
	}
	switch (st->o.outfmt) {
	case OUT_TEXT:
		if (!none && partial(c))
			snprintf(num, sizeof(num), "~%.0f", scaled(c));
		fprintf(out, " %*s", c->width, v);
		break;
	case OUT_CSV:
		if (final)
			fputs("total,", out);
		else
			fprintf(out, "%.3f,", t);
		csv_field(out, c->spec);
		fprintf(out, ",%s,", c->mode == PMC_MODE_SC ?
			"system" : "process");
		if (c->mode == PMC_MODE_SC)
			fprintf(out, "%d", c->cpu);
		fprintf(out, ",%s,", v);
		if (c->times)
			fprintf(out, "%ju,%ju", (uintmax_t)c->shown_enabled,
				(uintmax_t)c->shown_running);
		else
			fputc(',', out);
		fprintf(out, "%s\n", st->nmreq ? "," : "");
		break;
	case OUT_JSON:
		fprintf(out, "%s{\"event\":", c > first_counter(st) ? "," : "");
		json_string(out, c->spec);
		fprintf(out, ",\"scope\":\"%s\",\"cpu\":",
			c->mode == PMC_MODE_SC ? "system" : "process");
		if (c->mode == PMC_MODE_SC)
			fprintf(out, "%d", c->cpu);
		else
			fputs("null", out);
		fprintf(out, ",\"value\":%s",
			none ? "null,\"counted\":false" : v);
		if (c->times)
			fprintf(out, ",\"enabled_ns\":%ju,\"running_ns\":%ju",
				(uintmax_t)c->shown_enabled,
				(uintmax_t)c->shown_running);
		fputc('}', out);
		break;
	}
}

/*
 * One row: every counter's value since the previous row, or since the
 * start (cumulative).  final: the totals at the end, with the command's
 * exit status when known (status >= 0).
 */
void print_row(struct stat_run *st, FILE *out, int cumulative, int final,
	       int status)
{
	enum outfmt outfmt = st->o.outfmt;
	double t = read_row(st, cumulative);
	int i;

	if (outfmt == OUT_TEXT)
		fputc(' ', out);
	else if (outfmt == OUT_JSON)
		fprintf(out, "{\"time\":%.3f,\"final\":%s,\"counters\":[", t,
			final ? "true" : "false");
	for (i = 0; i < st->nctr; i++)
		if (!SAMPLING(&st->ctrs[i]))
			print_cell(st, out, &st->ctrs[i], final, t);
	if (outfmt == OUT_TEXT) {
		fputc('\n', out);
		/* --metrics values at the end (-q, -w: rows keep pmcstat's columns) */
		if (final && st->nmreq)
			print_metrics(st, out, final, t);
	} else if (outfmt == OUT_JSON) {
		fputc(']', out);
		if (st->nmreq)
			print_metrics(st, out, final, t);
		if (final && status >= 0)
			fprintf(out, ",\"exit_status\":%d", status);
		fprintf(out, "}\n");
	} else if (st->nmreq) {
		print_metrics(st, out, final, t);
	}
	fflush(out);
}

/* Does spec name event (before its ':' or ',' modifiers)? */
static int spec_is(const char *spec, const char *event)
{
	size_t n = strcspn(spec, ":,");

	return strlen(event) == n && !strncmp(spec, event, n);
}

/*
 * --summary, --metrics: the totals in perf stat's layout, one counter a line,
 * with what perf stat says beside it (CPUs utilized, insn per cycle),
 * then the metrics and the time elapsed.
 */
void print_summary(struct stat_run *st, FILE *out)
{
	const struct mreq *mreqs = st->mreqs;
	const struct ctr *ctrs = st->ctrs, *cyc = NULL;
	double t = read_row(st, 1), v;
	char buf[600], why[400];
	int i, k;

	for (i = 0; i < st->nctr && !cyc; i++)
		if (ctrs[i].mode == PMC_MODE_TC && spec_is(ctrs[i].spec, "cycles"))
			cyc = &ctrs[i];
	fprintf(out, "\n Performance counter stats for %s:\n\n", st->title);
	for (i = 0; i < st->nctr; i++) {
		const struct ctr *c = &ctrs[i];
		const char *name = c->mode == PMC_MODE_SC ?
				   label(c, buf, sizeof(buf)) : c->spec;

		if (SAMPLING(c))
			continue;
		if (not_counted(c)) {
			fprintf(out, "%18s      %-25s\n", "<not counted>", name);
			continue;
		}
		if (spec_is(c->spec, "task-clock") || spec_is(c->spec, "cpu-clock")) {
			fprintf(out, "%18.2f msec %-25s", scaled(c) / 1e6,
				name);
			if (c->mode == PMC_MODE_TC && t > 0)
				fprintf(out, " # %8.3f CPUs utilized",
					scaled(c) / 1e9 / t);
		} else {
			if (partial(c))
				fprintf(out, "%18.0f      %-25s", scaled(c), name);
			else
				fprintf(out, "%18ju      %-25s",
					(uintmax_t)c->shown, name);
			if (c->mode == PMC_MODE_TC && cyc && cyc->shown &&
			    !not_counted(cyc) && spec_is(c->spec, "instructions"))
				fprintf(out, " # %8.2f  insn per cycle",
					scaled(c) / scaled(cyc));
		}
		/* perf's share: the count above is scaled from it */
		if (partial(c))
			fprintf(out, "  (%.2f%%)", 100.0 *
				(double)c->shown_running /
				(double)c->shown_enabled);
		fputc('\n', out);
	}
	if (st->nmreq)
		fputc('\n', out);
	for (k = 0; k < st->nmreq; k++) {
		if (metric_shown(st, &mreqs[k], &v, why, sizeof(why)) == 0)
			fprintf(out, "%18.2f %-5s %-25s\n", v, mreqs[k].mi.unit,
				mreqs[k].mi.name);
		else
			fprintf(out, "%18s %-5s %-25s # %s\n", "n/a", "",
				mreqs[k].mi.name, why);
	}
	fprintf(out, "\n%18.9f seconds time elapsed\n\n", t);
	fflush(out);
}

/* A PMC of want w, on CPU cpu (PMC_CPU_ANY: process scope). */
static struct ctr *want_ctr(struct stat_run *st, const struct want *w,
			    int cpu)
{
	struct ctr *c = new_ctr(st);

	c->spec = w->spec;
	c->pa = w->ps.ps_pa;
	c->pa.pm_stacksize = w->stacksize;
	c->modes = w->ps.ps_modes;
	c->mode = w->mode;
	c->flags = w->flags;
	c->count = PMC_IS_SAMPLING_MODE(c->mode) ? w->rate : 0;
	c->cpu = cpu;
	return c;
}

int count_allocate(struct stat_run *st)
{
	const struct opts *o = &st->o;
	int ncpu = st->ncpu;
	const struct want *w;
	unsigned char *cpus = calloc((size_t)ncpu, 1);
	int i, cpu, r = 0;

	if (!cpus)
		return -1;
	for (i = 0; i < o->nwant && r >= 0; i++) {
		w = &o->want[i];
		if (!PMC_IS_SYSTEM_MODE(w->mode)) {
			r = allocate(want_ctr(st, w, (int)PMC_CPU_ANY), 0);
			continue;
		}
		parse_cpus(w->cpus, cpus, ncpu);
		/*
		 * a CPU-wide perf PMU (uncore): the CPUs of its cpumask; a
		 * core PMU of some CPUs (cpu_atom): the CPUs of its cpus
		 */
		if (!strcmp(w->cpus, "*") &&
		    pmc_perf_cpus(&w->ps.ps_pa, cpus, ncpu) == 1 && verbose)
			fprintf(stderr, "%s: %s: the CPUs of its PMU (sysfs cpumask or cpus)\n",
				prog, w->spec);
		for (cpu = 0; cpu < ncpu && r >= 0; cpu++) {
			if (!cpus[cpu])
				continue;
			r = allocate(want_ctr(st, w, cpu),
				     !strcmp(w->cpus, "*"));
			if (r == 1) {
				st->nctr--;	/* offline: skipped */
				if (verbose)
					fprintf(stderr, "%s: CPU %d is offline\n",
						prog, cpu);
			}
		}
	}
	free(cpus);
	if (r < 0)
		return -1;
	if (!st->nctr && o->nwant) {
		fprintf(stderr, "%s: no CPU of the list is online\n", prog);
		return -1;
	}
	set_widths(st);
	return 0;
}

void count_release(struct stat_run *st)
{
	int i;

	for (i = 0; i < st->nctr; i++)
		pmc_release(st->ctrs[i].id);
	free(st->ctrs);
	st->ctrs = NULL;
	st->nctr = 0;
	st->room = 0;
}
