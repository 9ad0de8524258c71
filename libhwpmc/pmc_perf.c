// SPDX-License-Identifier: BSD-2-Clause
/*
 * libhwpmc: the PERF class's events, perf PMUs other than the core one
 * and tracepoints, as perf spells them:
 *
 *   - "pmu/terms/": PMU is a directory of /sys/bus/event_source/devices
 *     (uncore_imc_0, power, msr, cstate_core, arm_dsu_0, ...): its `type`
 *     is perf_event_attr.type, its `format/` files name the terms
 *     ("event" -> "config:0-7"), its `events/` files are named events
 *     written in those terms ("tsc" -> "event=0x00"); config, config1,
 *     config2 are taken as perf takes them.  A PMU with a `cpumask` file
 *     counts CPUs, not processes (perf's uncore rule); the CPUs to count
 *     it on are those of the mask (pmc_perf_cpus()).  A PMU with a
 *     `cpus` file is a core PMU of those CPUs (hybrid Intel's cpu_atom,
 *     arm64's PMUs): it counts processes while they run there, and
 *     those CPUs, which system-scope counts take (pmc_perf_cpus()).
 *   - "sys:name": the tracepoint of tracefs's events/<sys>/<name>/id, perf
 *     type PERF_TYPE_TRACEPOINT; tracefs is /sys/kernel/tracing, else
 *     /sys/kernel/debug/tracing.
 *
 * HWPMC_SYSFS (tests) replaces "/sys" for both.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libpmc_internal.h"
#include <hwpmc_allocate.h>

/* Read the first line of root/rel (no newline) into buf: 0 or -1. */
static int perf_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

/* Is s a name sysfs or tracefs could hold (no '/', not "." or "..")? */
static int perf_name_ok(const char *s)
{
	return *s && strlen(s) < 64 && !strchr(s, '/') && strcmp(s, ".") &&
	       strcmp(s, "..");
}

/*
 * The PMU named name: 0 and *p filled, or -1 with errno ENOENT (no such
 * PMU) or EINVAL (a name no PMU can have).
 */
int pmc_perf_pmu_load(const char *name, struct pmc_perf_pmu *p)
{
	char path[PATH_MAX], line[64], *end;
	struct stat sb;
	unsigned long t;

	memset(p, 0, sizeof(*p));
	if (!perf_name_ok(name)) {
		errno = EINVAL;
		return -1;
	}
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/type",
		 pmc_pmu_sysfs_root(), name);
	if (perf_read_line(path, line, sizeof(line)) < 0) {
		errno = ENOENT;
		return -1;
	}
	errno = 0;
	t = strtoul(line, &end, 10);
	if (errno || *end || end == line || t > UINT32_MAX) {
		errno = ENOENT;
		return -1;
	}
	p->type = (uint32_t)t;
	(void)pmc_pmu_load_format(&p->desc, name);	/* none: config* only */
	snprintf(p->desc.name, sizeof(p->desc.name), "%s", name);
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/cpumask",
		 pmc_pmu_sysfs_root(), name);
	p->cpuwide = stat(path, &sb) == 0;
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/cpus",
		 pmc_pmu_sysfs_root(), name);
	p->some_cpus = !p->cpuwide && stat(path, &sb) == 0;
	return 0;
}

/* The terms of p's sysfs event name, into buf: 0, or -1 when none. */
static int perf_event_terms(const struct pmc_perf_pmu *p, const char *name,
			    char *buf, size_t len)
{
	char path[PATH_MAX];

	if (!perf_name_ok(name) || strchr(name, '.'))
		return -1;
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/events/%s",
		 pmc_pmu_sysfs_root(), p->desc.name, name);
	return perf_read_line(path, buf, len);
}

/* "tsc, aperf, ...": p's sysfs events, for messages (sorted). */
static int perf_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void perf_events_list(const struct pmc_perf_pmu *p, char *buf,
			     size_t len)
{
	char path[PATH_MAX], *names[256];
	struct dirent *de;
	size_t off = 0, n = 0, i;
	DIR *dir;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/events",
		 pmc_pmu_sysfs_root(), p->desc.name);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir)) && n < sizeof(names) / sizeof(names[0]))
		if (de->d_name[0] != '.' && !strchr(de->d_name, '.'))
			names[n++] = strdup(de->d_name);
	closedir(dir);
	for (i = 0; i < n; i++)
		if (!names[i])
			names[i] = strdup("?");
	qsort(names, n, sizeof(names[0]), perf_name_cmp);
	for (i = 0; i < n; i++) {
		if (off < len && names[i])
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
						i ? ", " : "", names[i]);
		free(names[i]);
	}
	if (off >= len && len > 4)
		strcpy(buf + len - 4, "...");
}

/* One term of p ("event=0x1", "edge"), or an event name of p's. */
static int perf_term(const struct pmc_perf_pmu *p, char *tok, int depth,
		     const char *spec, struct pmc_md_pmu_op_pmcallocate *md,
		     char *err, size_t errlen)
{
	char *eq = strchr(tok, '='), msg[256], terms[400], evs[400];
	char alias[256];

	if (eq)
		*eq = '\0';
	if (!eq && !depth && perf_event_terms(p, tok, alias, sizeof(alias)) == 0)
		return pmc_perf_encode(p, alias, spec, md, err, errlen) < 0 ?
		       -1 : 0;
	if (!strcasecmp(tok, "period") || !strcasecmp(tok, "name"))
		return 0;	/* a sampling rate, a label: not an encoding */
	if (pmc_pmu_set_term(&p->desc, tok, eq ? eq + 1 : NULL, md, msg,
			     sizeof(msg)) == 0)
		return 0;
	if (!strncmp(msg, "unknown term", 12)) {
		pmc_pmu_terms_list(&p->desc, terms, sizeof(terms));
		perf_events_list(p, evs, sizeof(evs));
		snprintf(err, errlen,
			 "unknown term '%s' for PMU %s in '%s' (terms: %s; events: %s)",
			 tok, p->desc.name, spec, terms, evs[0] ? evs : "none");
	} else {
		snprintf(err, errlen, "%s in '%s'", msg, spec);
	}
	errno = EINVAL;
	return -1;
}

/*
 * Encode p's terms ("event=0x1,umask=2", or a sysfs event name and terms
 * over it) into md: 0, or -1 with err naming the bad term and p's valid
 * ones.
 */
int pmc_perf_encode(const struct pmc_perf_pmu *p, const char *terms,
		    const char *spec, struct pmc_md_pmu_op_pmcallocate *md,
		    char *err, size_t errlen)
{
	static _Thread_local int depth;
	char buf[512], *tok, *next;
	int r = 0;

	if (strlen(terms) >= sizeof(buf)) {
		snprintf(err, errlen, "terms too long in '%s'", spec);
		errno = EINVAL;
		return -1;
	}
	strcpy(buf, terms);
	for (tok = buf; tok && r == 0; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		while (isspace((unsigned char)*tok))
			tok++;
		if (!*tok) {
			snprintf(err, errlen, "empty term in '%s'", spec);
			errno = EINVAL;
			return -1;
		}
		depth++;
		r = perf_term(p, tok, depth - 1, spec, md, err, errlen);
		depth--;
	}
	md->pm_type = p->type;
	return r;
}

/* tracefs's events directory, or NULL when there is none. */
const char *pmc_perf_tracefs(void)
{
	static _Thread_local char dir[PATH_MAX];
	static const char *const rel[] = {
		"kernel/tracing/events", "kernel/debug/tracing/events",
	};
	struct stat sb;
	unsigned int i;

	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		snprintf(dir, sizeof(dir), "%s/%s", pmc_pmu_sysfs_root(),
			 rel[i]);
		if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))
			return dir;
	}
	return NULL;
}

/*
 * The id of tracepoint sys:name from tracefs: 0, or -1 with err and
 * errno (ENOENT: no such tracepoint, or no tracefs; EACCES: tracefs
 * cannot be read).
 */
int pmc_perf_tracepoint(const char *sys, const char *name, uint64_t *id,
			char *err, size_t errlen)
{
	const char *ev = pmc_perf_tracefs();
	char path[PATH_MAX], line[32], *end;
	int e;

	if (!perf_name_ok(sys) || !perf_name_ok(name)) {
		snprintf(err, errlen, "bad tracepoint name '%s:%s'", sys, name);
		errno = EINVAL;
		return -1;
	}
	if (!ev) {
		snprintf(err, errlen,
			 "tracepoint '%s:%s': no tracefs (mount it on /sys/kernel/tracing)",
			 sys, name);
		errno = ENOENT;
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s/%s/id", ev, sys, name);
	if (perf_read_line(path, line, sizeof(line)) < 0) {
		e = errno;
		snprintf(path, sizeof(path), "%s/%s", ev, sys);
		if (e == EACCES || e == EPERM)
			snprintf(err, errlen,
				 "tracepoint '%s:%s': cannot read %s: %s", sys,
				 name, ev, strerror(e));
		else
			snprintf(err, errlen,
				 "no tracepoint '%s:%s' in %s%s", sys, name, ev,
				 access(path, F_OK) ? " (no such system)" : "");
		errno = e == EACCES || e == EPERM ? EACCES : ENOENT;
		return -1;
	}
	errno = 0;
	*id = strtoull(line, &end, 10);
	if (errno || *end || end == line) {
		snprintf(err, errlen, "tracepoint '%s:%s': bad id '%s'", sys,
			 name, line);
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* The name of the PMU of perf type type into p: 0, or -1 (ENOENT). */
static int perf_pmu_by_type(uint32_t type, struct pmc_perf_pmu *p)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dir;
	int r = -1;

	snprintf(path, sizeof(path), "%s/bus/event_source/devices",
		 pmc_pmu_sysfs_root());
	dir = opendir(path);
	if (!dir)
		return -1;
	while (r < 0 && (de = readdir(dir)))
		if (de->d_name[0] != '.' && pmc_perf_pmu_load(de->d_name, p) == 0 &&
		    p->type == type)
			r = 0;
	closedir(dir);
	errno = r ? ENOENT : 0;
	return r;
}

int pmc_perf_pmu_kind(uint32_t type)
{
	struct pmc_perf_pmu p;

	if (type == 2)		/* PERF_TYPE_TRACEPOINT */
		return HWPMC_PERF_PMU_TRACEPOINT;
	if (perf_pmu_by_type(type, &p) < 0)
		return HWPMC_PERF_PMU_NONE;
	return p.cpuwide ? HWPMC_PERF_PMU_CPU :
	       p.some_cpus ? HWPMC_PERF_PMU_HETERO : HWPMC_PERF_PMU_TASK;
}

/* Parse a sysfs CPU list ("0", "0,4", "0-3,8") into set. */
static void perf_cpulist(const char *s, unsigned char *set, int ncpu)
{
	unsigned long a, b;
	char *end;

	while (*s) {
		a = strtoul(s, &end, 10);
		if (end == s)
			return;
		b = a;
		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		for (; a <= b && a < (unsigned long)ncpu; a++)
			set[a] = 1;
		if (*end != ',')
			return;
		s = end + 1;
	}
}

int pmc_perf_cpus(const struct pmc_op_pmcallocate *pa, unsigned char *set,
		  int ncpu)
{
	char path[PATH_MAX], line[1024];
	struct pmc_perf_pmu p;

	if (!pa || !set || ncpu <= 0 || pa->pm_class != PMC_CLASS_PERF) {
		errno = EINVAL;
		return -1;
	}
	memset(set, 1, (size_t)ncpu);
	if (pa->pm_md.pm_pmu.pm_type == 2 ||
	    perf_pmu_by_type(pa->pm_md.pm_pmu.pm_type, &p) < 0 ||
	    (!p.cpuwide && !p.some_cpus))
		return 0;
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/%s",
		 pmc_pmu_sysfs_root(), p.desc.name,
		 p.cpuwide ? "cpumask" : "cpus");
	if (perf_read_line(path, line, sizeof(line)) < 0 || !line[0])
		return 0;
	memset(set, 0, (size_t)ncpu);
	perf_cpulist(line, set, ncpu);
	return 1;
}

static int perf_pmu_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of dir's entries but dot files, sorted; NULL on error. */
static char **perf_dir_names(const char *path, size_t *n)
{
	struct dirent *de;
	char **v = NULL, **nv;
	size_t cap = 0;
	DIR *dir = opendir(path);

	*n = 0;
	if (!dir)
		return NULL;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 32;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[*n] = strdup(de->d_name);
		if (v[*n])
			(*n)++;
	}
	closedir(dir);
	if (v)
		qsort(v, *n, sizeof(*v), perf_pmu_cmp);
	return v;
}

static void perf_names_free(char **v, size_t n)
{
	while (n)
		free(v[--n]);
	free(v);
}

/* Is this PMU directory the core PMU's (the PMU class lists those)? */
static int perf_core_name(const char *n)
{
	return !strcmp(n, "cpu") || !strcmp(n, "cpu_core") ||
	       !strcmp(n, "cpu_atom") || !strncmp(n, "armv8_", 6) ||
	       !strncmp(n, "armv9_", 6);
}

int pmc_perf_pmu_events(void (*fn)(const char *pmu, const char *event,
				   const char *terms, void *arg),
			void *arg)
{
	char path[PATH_MAX], terms[256];
	char **pmus, **evs;
	size_t np, ne, i, j;
	struct pmc_perf_pmu p;
	int count = 0;

	if (!fn) {
		errno = EINVAL;
		return -1;
	}
	snprintf(path, sizeof(path), "%s/bus/event_source/devices",
		 pmc_pmu_sysfs_root());
	pmus = perf_dir_names(path, &np);
	for (i = 0; pmus && i < np; i++) {
		if (perf_core_name(pmus[i]) ||
		    pmc_perf_pmu_load(pmus[i], &p) < 0)
			continue;
		snprintf(path, sizeof(path),
			 "%s/bus/event_source/devices/%s/events",
			 pmc_pmu_sysfs_root(), pmus[i]);
		evs = perf_dir_names(path, &ne);
		for (j = 0; evs && j < ne; j++) {
			if (strchr(evs[j], '.') ||
			    perf_event_terms(&p, evs[j], terms,
					     sizeof(terms)) < 0)
				continue;
			fn(pmus[i], evs[j], terms, arg);
			count++;
		}
		if (evs)
			perf_names_free(evs, ne);
	}
	if (pmus)
		perf_names_free(pmus, np);
	return count;
}
