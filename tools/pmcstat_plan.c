// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat's plan: what a run counts and samples.  Each event's
 * specifier is parsed into its struct want (plan_parse()), and that
 * parse is what the rate, the allocations and their user-mode fallback
 * use; --metrics' metrics and their events; -t's processes; CPU lists.
 * Also the commands that only describe (-u, -L, --list-metrics).
 */
#include <dirent.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "pmcstat_stat.h"

#define RATE_PMU	65536		/* pmcstat's default sampling rate */
#define RATE_CLOCK	1000000		/* cpu-clock, task-clock: 1 ms in ns */
#define RATE_SOFT	1000		/* other soft events: hwpmc's mincount */

/*
 * The vendor event spec names: its name up to the first ':' or ',' (not
 * perf's PMU form); else libpfm4's, up to the ',' without the modifiers
 * that follow ("skx::INST_RETIRED:ANY_P:u").  Its index, or -1.
 */
static int spec_vendor_idx(const char *spec)
{
	char name[256], *colon;
	size_t n = strcspn(spec, ":,/");
	int idx;

	if (spec[n] == '/' || n >= sizeof(name))
		return -1;
	memcpy(name, spec, n);
	name[n] = '\0';
	idx = pmc_pmu_idx_get_by_event(NULL, name);
	n = strcspn(spec, ",");
	if (idx >= 0 || n >= sizeof(name))
		return idx;
	memcpy(name, spec, n);
	name[n] = '\0';
	while ((idx = pmc_pmu_idx_get_by_event(NULL, name)) < 0 &&
	       (colon = strrchr(name, ':')) && colon > name && colon[-1] != ':')
		*colon = '\0';
	return idx;
}

/*
 * pmcstat's default rates: a vendor event's sample-after value from its
 * table (pmc_pmu_sample_rate_get(), as pmcstat), else 65536; and
 * sensible ones for Linux's soft events.  pa: spec, parsed.
 */
static uint64_t default_rate(const char *spec,
			     const struct pmc_op_pmcallocate *pa)
{
	char name[256];
	size_t n;
	int idx;

	if (pa->pm_class != PMC_CLASS_SOFT) {
		n = strcspn(spec, ":,/");
		if (pa->pm_ev != PMC_EV_PMU_RAW || spec[n] == '/' ||
		    n >= sizeof(name))
			return RATE_PMU;
		memcpy(name, spec, n);
		name[n] = '\0';
		idx = spec_vendor_idx(spec);
		return pmc_pmu_sample_rate_get(idx >= 0 ?
			pmc_pmu_event_get_by_idx(NULL, idx) : name);
	}
	if (pa->pm_ev == PMC_EV_SOFT_FIRST + PERF_COUNT_SW_CPU_CLOCK ||
	    pa->pm_ev == PMC_EV_SOFT_FIRST + PERF_COUNT_SW_TASK_CLOCK)
		return RATE_CLOCK;
	return RATE_SOFT;
}


/*
 * pmcstat's -u: describe the event of spec (no module needed).  Returns
 * the exit status.
 */
int describe_event(const char *spec)
{
	struct pmc_pmu_event_info info;
	const char *id = pmc_pmu_cpuid(), *model = pmc_pmu_model();
	char err[512];
	const char *pfm;
	struct pmc_spec ps;
	struct pmc_op_pmcallocate *pa = &ps.ps_pa;
	int idx;

	if (pmc_parse_spec_events(spec, PMC_SPEC_KNOWN, &ps, err,
				  sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return EX_USAGE;
	}
	idx = spec_vendor_idx(spec);
	printf("event:    %s\n", spec);
	if (pa->pm_ev == PMC_EV_PMU_RAW && idx >= 0 &&
	    pmc_pmu_event_info(idx, &info) == 0) {
		printf("name:     %s (%s events of CPU %s)\n", info.pe_name,
		       model ? model : "?", id ? id : "?");
		printf("pmu:      the core PMU, as a raw event\n");
		printf("encoding: %s\n", info.pe_encoding);
		pfm = pmc_pmu_event_pfm_name(idx);
		if (pfm)
			printf("libpfm4:  %s\n", pfm);
		if (*info.pe_topic)
			printf("topic:    %s\n", info.pe_topic);
		if (info.pe_period)
			printf("period:   %llu\n",
			       (unsigned long long)info.pe_period);
		if (info.pe_precise)
			printf("precise:  can be\n");
		if (*info.pe_desc)
			printf("desc:     %s\n", info.pe_desc);
	} else if (pa->pm_ev == PMC_EV_PMU_RAW) {
		printf("pmu:      the core PMU, as a raw event\n");
	} else {
		const char *ev = pmc_name_of_event((enum pmc_event)pa->pm_ev);

		printf("name:     %s\n", ev ? ev : "?");
		printf("pmu:      %s\n", pa->pm_class == PMC_CLASS_SOFT ?
		       "software (perf's PERF_TYPE_SOFTWARE)" :
		       pa->pm_ev >= PMC_EV_PMU_CACHE_FIRST &&
		       pa->pm_ev <= PMC_EV_PMU_CACHE_LAST ?
		       "the core PMU (perf's generic cache event)" :
		       "the core PMU (perf's generic hardware event)");
	}
	if (pa->pm_ev == PMC_EV_PMU_RAW)
		printf("config:   %#llx, config1 %#llx, config2 %#llx\n",
		       (unsigned long long)pa->pm_md.pm_pmu.pm_config,
		       (unsigned long long)pa->pm_md.pm_pmu.pm_config1,
		       (unsigned long long)pa->pm_md.pm_pmu.pm_config2);
	if (pa->pm_class == PMC_CLASS_PMU || pa->pm_class == PMC_CLASS_SOFT)
		printf("rate:     %llu (-P and -S without -n)\n",
		       (unsigned long long)default_rate(spec, pa));
	printf("modes:    %s%s\n",
	       (pa->pm_caps & (PMC_CAP_USER | PMC_CAP_SYSTEM)) == PMC_CAP_USER ?
	       "user only" : (pa->pm_caps & (PMC_CAP_USER | PMC_CAP_SYSTEM)) ==
	       PMC_CAP_SYSTEM ? "kernel only" : "user and kernel",
	       pa->pm_caps & PMC_CAP_PRECISE ? ", precise" : "");
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

/* A CPU list: "*", or "0,2-5"; bit i of the result set for CPU i. */
int parse_cpus(const char *s, unsigned char *set, int ncpu)
{
	char *end;
	long a, b;

	memset(set, 0, (size_t)ncpu);
	if (!strcmp(s, "*")) {
		memset(set, 1, (size_t)ncpu);
		return 0;
	}
	while (*s) {
		errno = 0;
		a = strtol(s, &end, 10);
		if (end == s || errno || a < 0)
			return -1;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || errno || b < a)
				return -1;
		}
		if (b >= ncpu)
			return -1;
		for (; a <= b; a++)
			set[a] = 1;
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return 0;
}

/* pmcstat's -L: every event name hwpmc knows, then the CPU's vendor events */
int list_events(void)
{
	static const uint32_t ranges[][2] = {
		{ PMC_EV_SOFT_FIRST, PMC_EV_SOFT_LAST },
		{ PMC_EV_PMU_HW_FIRST, PMC_EV_PMU_HW_LAST },
		{ PMC_EV_PMU_CACHE_FIRST, PMC_EV_PMU_CACHE_LAST },
	};
	const char *name;
	uint32_t r, ev;

	for (r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++)
		for (ev = ranges[r][0]; ev <= ranges[r][1]; ev++) {
			name = pmc_name_of_event((enum pmc_event)ev);
			if (name)
				printf("\t%s\n", name);
		}
	pmc_pmu_print_counters(NULL);
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

/* --list-metrics: the metrics of the CPU's table (of group, if given). */
int list_metrics(const char *group)
{
	const char *model = pmc_pmu_model(), *id = pmc_pmu_cpuid();
	int t = metric_table(model), i, n = 0;
	struct metric_info mi;

	if (t < 0) {
		fprintf(stderr, "%s: no metrics for CPU %s (%s)\n", prog,
			id ? id : "?", model ? "its pmu-events model has none" :
			"no pmu-events table");
		return 1;
	}
	printf("# metrics of %s (CPU %s): name [groups] unit\n", model,
	       id ? id : "?");
	for (i = 0; i < metric_count(t); i++) {
		if (metric_at(t, i, &mi) < 0 ||
		    (group && !metric_in_group(&mi, group)))
			continue;
		printf("%s [%s]%s%s\n    %s\n", mi.name, mi.groups,
		       *mi.unit ? " " : "", mi.unit, mi.desc);
		n++;
	}
	if (group && !n) {
		fprintf(stderr, "%s: no metric group '%s' for %s\n", prog,
			group, model);
		return 1;
	}
	return 0;
}

/* --metrics: add metric i of the table, once. */
static void add_mreq(struct stat_run *st, int i)
{
	struct mreq *m;
	int k;

	for (k = 0; k < st->nmreq; k++)
		if (st->mreqs[k].index == i)
			return;
	m = realloc(st->mreqs, (size_t)(st->nmreq + 1) * sizeof(*m));
	if (!m) {
		fprintf(stderr, "%s: out of memory\n", prog);
		exit(1);
	}
	st->mreqs = m;
	memset(&m[st->nmreq], 0, sizeof(m[st->nmreq]));
	m[st->nmreq].index = i;
	metric_at(st->mtable, i, &m[st->nmreq].mi);
	st->nmreq++;
}

/*
 * --metrics: name is no metric or group of model's table (mtable): a
 * usage error, with up to three names it may have meant: names ending in
 * _name ("ipc" -> tma_info_thread_ipc), then names holding it.
 */
static void unknown_metric(int mtable, const char *name, const char *model)
{
	struct metric_info mi;
	char near[256] = "";
	size_t off = 0, ln, lm = strlen(name);
	const char *hit;
	int i, k = 0, pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < metric_count(mtable) && k < 3; i++) {
			if (metric_at(mtable, i, &mi))
				continue;
			ln = strlen(mi.name);
			hit = strcasestr(mi.name, name);
			if (!hit || (pass == 0) !=
			    (ln > lm && !strcasecmp(mi.name + ln - lm, name) &&
			     mi.name[ln - lm - 1] == '_') ||
			    ln + off + 3 >= sizeof(near))
				continue;
			off += (size_t)snprintf(near + off, sizeof(near) - off,
						"%s%s", k++ ? ", " : "; did you mean ",
						mi.name);
		}
	usage("unknown metric or metric group '%s' for %s "
	      "(hwpmc-stat --list-metrics%s%s)", name, model, near,
	      k ? "?" : "");
}

/* --metrics name[,name...]: metrics, or metric groups, by name. */
void parse_metrics(struct stat_run *st, const char *arg)
{
	const char *model = pmc_pmu_model(), *id = pmc_pmu_cpuid();
	struct metric_info mi;
	char name[256];
	const char *p = arg;
	size_t n;
	int i, found;

	st->mtable = metric_table(model);
	if (st->mtable < 0)
		usage("--metrics: no metrics for CPU %s (%s)", id ? id : "?",
		      model ? "its pmu-events model has none" :
		      "no pmu-events table; HWPMC_CPUID names another CPU");
	for (;;) {
		n = strcspn(p, ",");
		if (!n || n >= sizeof(name))
			usage("bad metric list '%s'", arg);
		memcpy(name, p, n);
		name[n] = '\0';
		i = metric_find(st->mtable, name);
		if (i >= 0) {
			add_mreq(st, i);
		} else {
			for (found = 0, i = 0; i < metric_count(st->mtable);
			     i++)
				if (!metric_at(st->mtable, i, &mi) &&
				    metric_in_group(&mi, name)) {
					add_mreq(st, i);
					found = 1;
				}
			if (!found)
				unknown_metric(st->mtable, name, model);
		}
		if (!p[n])
			break;
		p += n + 1;
	}
}

static int speclist_add(void *arg, const char *spec)
{
	struct speclist *l = arg;
	char **v;
	int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], spec))
			return 0;
	v = realloc(l->v, (size_t)(l->n + 1) * sizeof(*v));
	if (!v)
		return -1;
	l->v = v;
	if (!(l->v[l->n] = strdup(spec)))
		return -1;
	l->n++;
	return 0;
}

static void speclist_free(struct speclist *l)
{
	while (l->n)
		free(l->v[--l->n]);
	free(l->v);
	l->v = NULL;
}

void target_add(struct targets *t, pid_t pid, int matched)
{
	int i;

	for (i = 0; i < t->n; i++)
		if (t->pid[i] == pid)
			return;		/* named twice: attached once */
	t->pid = realloc(t->pid, (size_t)(t->n + 1) * sizeof(*t->pid));
	t->matched = realloc(t->matched, (size_t)(t->n + 1));
	if (!t->pid || !t->matched) {
		fprintf(stderr, "%s: out of memory\n", prog);
		exit(1);
	}
	t->pid[t->n] = pid;
	t->matched[t->n++] = (unsigned char)matched;
}

/*
 * pmcstat's process-spec: a pid, or an extended regular expression
 * matched against the command names (/proc/PID/comm) of the running
 * processes, ours excepted.  A spec that matches nothing is an error,
 * as for pmcstat.
 */
void add_targets(struct targets *t, const char *spec)
{
	char path[64], comm[64], *end;
	struct dirent *d;
	regex_t re;
	DIR *dir;
	FILE *f;
	long v;
	int rc, found = 0;

	if (!*spec)
		usage("bad pid '' (-t: a pid, or a regular expression of command names)");
	errno = 0;
	v = strtol(spec, &end, 10);
	if (!*end && end != spec) {
		if (errno || v <= 0 || v > INT32_MAX)
			usage("bad pid '%s'", spec);
		target_add(t, (pid_t)v, 0);
		return;
	}
	rc = regcomp(&re, spec, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		regerror(rc, &re, comm, sizeof(comm));
		usage("bad -t '%s': %s (a pid, or a regular expression of command names)",
		      spec, comm);
	}
	dir = opendir("/proc");
	if (!dir) {
		fprintf(stderr, "%s: /proc: %s\n", prog, strerror(errno));
		exit(1);
	}
	while ((d = readdir(dir))) {
		v = strtol(d->d_name, &end, 10);
		if (*end || v <= 0 || (pid_t)v == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/comm", v);
		f = fopen(path, "re");
		if (!f)
			continue;	/* gone meanwhile */
		if (fgets(comm, sizeof(comm), f)) {
			comm[strcspn(comm, "\n")] = '\0';
			if (!regexec(&re, comm, 0, NULL, 0)) {
				if (verbose)
					fprintf(stderr, "%s: -t '%s': pid %ld (%s)\n",
						prog, spec, v, comm);
				target_add(t, (pid_t)v, 1);
				found++;
			}
		}
		fclose(f);
	}
	closedir(dir);
	regfree(&re);
	if (!found) {
		fprintf(stderr, "%s: -t '%s': no running process has a command name that matches\n",
			prog, spec);
		exit(1);
	}
}

void plan_parse(struct opts *o, enum pmc_spec_events events)
{
	char err[256];
	int i;

	for (i = 0; i < o->nwant; i++)
		if (pmc_parse_spec_events(o->want[i].spec, events,
					  &o->want[i].ps, err, sizeof(err)) < 0)
			usage("%s", err);
}

/*
 * --metrics: each metric's events, counted as -p's (once each, and not
 * again when a -p counts them); 0, or -1 when out of memory.
 */
static int plan_metrics(struct stat_run *st)
{
	struct speclist l = { 0 }, *owned = &st->owned;
	struct opts *o = &st->o;
	struct want *w;
	char err[256];
	int i, j, k;

	metric_env_init(&st->menv);
	st->menv.count = metric_count_cb;
	st->menv.arg = st;
	st->menv.events = PMC_SPEC_MACHINE;	/* after pmc_init() */
	for (i = 0; i < st->nmreq; i++, speclist_free(&l)) {
		struct mreq *m = &st->mreqs[i];

		if (metric_events(st->mtable, m->index, &st->menv, speclist_add,
				  &l, m->why, sizeof(m->why)) < 0) {
			if (!quiet)
				fprintf(stderr, "%s: metric %s is not supported: %s\n",
					prog, m->mi.name, m->why);
			continue;
		}
		m->ok = 1;
		for (j = 0; j < l.n; j++) {
			for (k = 0; k < o->nwant; k++)
				if (o->want[k].mode == PMC_MODE_TC &&
				    !strcmp(o->want[k].spec, l.v[j]))
					break;
			if (k < o->nwant)
				continue;
			if (o->nwant == MAXSPEC)
				usage("too many events (at most %d)", MAXSPEC);
			if (speclist_add(owned, l.v[j]) < 0) {
				speclist_free(&l);
				return -1;
			}
			w = &o->want[o->nwant++];
			w->spec = owned->v[owned->n - 1];
			w->mode = PMC_MODE_TC;
			w->flags = o->mflags;
			w->rate = 0;
			w->cpus = "*";
			/* the metric's walk parsed it so: cannot fail */
			if (pmc_parse_spec_events(w->spec, PMC_SPEC_MACHINE,
						  &w->ps, err, sizeof(err)) < 0)
				usage("%s", err);
		}
	}
	return 0;
}

/* The run's name in --summary: the command, the processes, or the CPUs. */
static void plan_title(struct stat_run *st)
{
	const struct opts *o = &st->o;
	const struct targets *tg = &st->tg;
	char *title = st->title;
	size_t len = sizeof(st->title), off = 0;
	int i;

	if (o->argc) {
		for (i = 0; i < o->argc && off + 1 < len; i++)
			off += (size_t)snprintf(title + off, len - off,
						"%s%s", i ? " " : "'", o->argv[i]);
		if (off + 1 < len)
			strcat(title, "'");
	} else if (tg->n == 1) {
		snprintf(title, len, "process %d", (int)tg->pid[0]);
	} else if (tg->n > 1) {
		snprintf(title, len, "%d processes", tg->n);
	} else {
		snprintf(title, len, "the CPUs");
	}
}

int plan_make(struct stat_run *st)
{
	struct opts *o = &st->o;
	int ncpu = st->ncpu;
	unsigned char *cpus;
	struct want *w;
	int i;

	plan_parse(o, PMC_SPEC_MACHINE);
	for (i = 0; i < o->nwant; i++) {
		w = &o->want[i];
		if (PMC_IS_SAMPLING_MODE(w->mode) && !w->rate)
			w->rate = default_rate(w->spec, &w->ps.ps_pa);
	}
	if (plan_metrics(st) < 0)
		return -1;
	if (!o->nwant && !o->kprof) {
		fprintf(stderr, "%s: nothing to count: no metric of --metrics is supported\n",
			prog);
		return -1;
	}
	plan_title(st);
	cpus = calloc((size_t)ncpu, 1);
	if (!cpus)
		return -1;
	for (i = 0; i < o->nwant; i++)
		if (PMC_IS_SYSTEM_MODE(o->want[i].mode) &&
		    parse_cpus(o->want[i].cpus, cpus, ncpu) < 0)
			usage("bad CPU list '%s' (CPUs 0-%d, or '*')",
			      o->want[i].cpus, ncpu - 1);
	free(cpus);
	return 0;
}

void plan_free(struct stat_run *st)
{
	free(st->mreqs);
	speclist_free(&st->owned);
}
