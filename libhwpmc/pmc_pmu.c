// SPDX-License-Identifier: BSD-2-Clause
/*
 * libhwpmc: vendor events of the core PMU, from the kernel's pmu-events
 * tables (generated at build time into pmu_events_data.c, see
 * gen_pmu_events.py and pmu_events.h).
 *
 *   - the CPU id, as perf writes it: x86 "GenuineIntel-6-55-4" (vendor,
 *     family in decimal, model and stepping in hex, from CPUID); arm64
 *     "0x00000000410fd070" (MIDR_EL1, from sysfs).  HWPMC_CPUID
 *     overrides it, in the same format (perf's PERF_CPUID).
 *   - the model's table: x86 mapfile patterns are POSIX extended regular
 *     expressions that must match the id from its start to its end or to
 *     the '-' before the stepping; arm64 MIDRs match when equal, the
 *     variant and revision fields ignored where the table's are 0.
 *   - the core PMU's format (sysfs format/ files: "event" ->
 *     "config:0-7"), or the architectural layout when there is no such
 *     PMU here or HWPMC_CPUID names another machine's CPU.
 *   - perf terms ("event=0xc0,umask=0x1,inv,cmask=2") encoded into
 *     perf_event_attr.config, config1, config2 by that format.
 *
 * HWPMC_SYSFS (tests) replaces "/sys"; with it, its format files are used
 * even when HWPMC_CPUID is set.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "libpmc_internal.h"
#include "pmu_events.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define PE_STR(off)	(hwpmc_pe_pool + (off))

/* ---- the PMU's format ---- */

/* The architectural layouts, used when sysfs has no core PMU. */
static const char *const fmt_intel[][2] = {
	{ "event", "config:0-7" }, { "umask", "config:8-15" },
	{ "edge", "config:18" }, { "pc", "config:19" }, { "any", "config:21" },
	{ "inv", "config:23" }, { "cmask", "config:24-31" },
	{ "in_tx", "config:32" }, { "in_tx_cp", "config:33" },
	{ "ldlat", "config1:0-15" }, { "offcore_rsp", "config1:0-63" },
	{ "frontend", "config1:0-23" },
};

static const char *const fmt_amd[][2] = {
	{ "event", "config:0-7,32-35" }, { "umask", "config:8-15" },
	{ "edge", "config:18" }, { "inv", "config:23" },
	{ "cmask", "config:24-31" },
};

static const char *const fmt_arm64[][2] = {
	{ "event", "config:0-15" }, { "long", "config1:0" },
};

/* Parse "config1:0-7,32-35" into f; 0 or -1. */
static int pmu_parse_format(struct pmc_pmu_format *f, const char *name,
			    const char *spec)
{
	const char *p = spec;
	char *end;
	unsigned long lo, hi;

	memset(f, 0, sizeof(*f));
	if (strlen(name) >= sizeof(f->name))
		return -1;
	strcpy(f->name, name);
	if (!strncmp(p, "config2:", 8)) {
		f->reg = 2;
		p += 8;
	} else if (!strncmp(p, "config1:", 8)) {
		f->reg = 1;
		p += 8;
	} else if (!strncmp(p, "config:", 7)) {
		f->reg = 0;
		p += 7;
	} else {
		return -1;
	}
	for (;;) {
		if (f->nrange == ARRAY_SIZE(f->lo) || !isdigit((unsigned char)*p))
			return -1;
		lo = strtoul(p, &end, 10);
		hi = lo;
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (lo > hi || hi > 63)
			return -1;
		f->lo[f->nrange] = (uint8_t)lo;
		f->hi[f->nrange] = (uint8_t)hi;
		f->width += (uint8_t)(hi - lo + 1);
		f->nrange++;
		while (*end == ' ' || *end == '\n')
			end++;
		if (!*end)
			return 0;
		if (*end != ',')
			return -1;
		p = end + 1;
	}
}

static void pmu_set_builtin(struct pmc_pmu_desc *d, const char *name,
			    const char *const (*fmt)[2], size_t n)
{
	size_t i;

	snprintf(d->name, sizeof(d->name), "%s", name);
	d->nformat = 0;
	for (i = 0; i < n && d->nformat < PMC_PMU_MAXFMT; i++)
		if (pmu_parse_format(&d->format[d->nformat], fmt[i][0],
				     fmt[i][1]) == 0)
			d->nformat++;
	d->from_sysfs = 0;
}

const char *pmc_pmu_sysfs_root(void)
{
	const char *r = secure_getenv("HWPMC_SYSFS");

	return r && *r ? r : "/sys";
}

/* Is this PMU directory name a core PMU's? */
static int pmu_core_name(const char *n)
{
	return !strcmp(n, "cpu") || !strcmp(n, "cpu_core") ||
	       !strncmp(n, "armv8_", 6) || !strncmp(n, "armv9_", 6);
}

static int pmu_format_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pmc_pmu_format *)a)->name,
		      ((const struct pmc_pmu_format *)b)->name);
}

/* The core PMU's format from sysfs: 0, or -1 when there is none. */
static int pmu_load_sysfs(struct pmc_pmu_desc *d)
{
	char path[PATH_MAX], best[64] = "";
	struct dirent *de;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/bus/event_source/devices",
		 pmc_pmu_sysfs_root());
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((de = readdir(dir)))
		if (pmu_core_name(de->d_name) && strlen(de->d_name) < sizeof(best) &&
		    (!best[0] || strcmp(de->d_name, best) < 0))
			strcpy(best, de->d_name);	/* "cpu" < "cpu_core" */
	closedir(dir);
	if (!best[0])
		return -1;
	return pmc_pmu_load_format(d, best);
}

/*
 * The format of PMU name (a directory of /sys/bus/event_source/devices)
 * into d: 0, or -1 when it has no format files (or no such PMU).
 */
int pmc_pmu_load_format(struct pmc_pmu_desc *d, const char *best)
{
	char path[PATH_MAX], line[128];
	struct dirent *de;
	DIR *dir;
	FILE *f;

	snprintf(d->name, sizeof(d->name), "%s", best);
	d->nformat = 0;
	d->from_sysfs = 1;
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/format",
		 pmc_pmu_sysfs_root(), best);
	dir = opendir(path);
	if (!dir)
		return -1;
	d->nformat = 0;
	while ((de = readdir(dir)) && d->nformat < PMC_PMU_MAXFMT) {
		if (de->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path),
			     "%s/bus/event_source/devices/%s/format/%s",
			     pmc_pmu_sysfs_root(), best, de->d_name) >= (int)sizeof(path))
			continue;
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f) &&
		    pmu_parse_format(&d->format[d->nformat], de->d_name,
				     line) == 0)
			d->nformat++;
		fclose(f);
	}
	closedir(dir);
	qsort(d->format, d->nformat, sizeof(d->format[0]), pmu_format_cmp);
	return d->nformat ? 0 : -1;
}

static const struct pmc_pmu_format *pmu_format(const struct pmc_pmu_desc *d,
					       const char *name)
{
	unsigned int i;

	for (i = 0; i < d->nformat; i++)
		if (!strcasecmp(d->format[i].name, name))
			return &d->format[i];
	return NULL;
}

/* "event, umask, ..." : the terms d knows, for messages. */
void pmc_pmu_terms_list(const struct pmc_pmu_desc *d, char *buf, size_t len)
{
	unsigned int i;
	size_t off = 0;

	buf[0] = '\0';
	for (i = 0; i < d->nformat && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					i ? ", " : "", d->format[i].name);
	if (off < len)
		snprintf(buf + off, len - off, "%sconfig, config1, config2",
			 d->nformat ? ", " : "");
}

/*
 * Set one term ("umask", "0x1"; value NULL: 1) in md.  Returns 0, or -1
 * with a message naming the term.
 */
int pmc_pmu_set_term(const struct pmc_pmu_desc *d, const char *term,
		     const char *value, struct pmc_md_pmu_op_pmcallocate *md,
		     char *err, size_t errlen)
{
	const struct pmc_pmu_format *f;
	uint64_t v = 1, mask;
	__u64 *reg;
	char terms[512], *end;
	unsigned int i, shift;

	if (value) {
		errno = 0;
		if (!*value || *value == '-' || *value == '+' ||
		    isspace((unsigned char)*value))
			goto badnum;
		v = strtoull(value, &end, 0);
		if (errno || *end)
			goto badnum;
	}
	if (!strcasecmp(term, "config")) {
		md->pm_config = v;
		return 0;
	}
	if (!strcasecmp(term, "config1")) {
		md->pm_config1 = v;
		return 0;
	}
	if (!strcasecmp(term, "config2")) {
		md->pm_config2 = v;
		return 0;
	}
	f = pmu_format(d, term);
	if (!f) {
		pmc_pmu_terms_list(d, terms, sizeof(terms));
		snprintf(err, errlen, "unknown term '%s' for PMU %s (valid: %s)",
			 term, d->name, terms);
		errno = EINVAL;
		return -1;
	}
	if (f->width < 64 && v >> f->width) {
		snprintf(err, errlen,
			 "value %#" PRIx64 " of term '%s' does not fit its %u bits",
			 v, term, f->width);
		errno = EINVAL;
		return -1;
	}
	reg = f->reg == 0 ? &md->pm_config :
	      f->reg == 1 ? &md->pm_config1 : &md->pm_config2;
	for (i = 0; i < f->nrange; i++) {
		shift = f->hi[i] - f->lo[i] + 1;
		mask = shift >= 64 ? ~0ULL : (1ULL << shift) - 1;
		*reg &= ~(mask << f->lo[i]);
		*reg |= (v & mask) << f->lo[i];
		v = shift >= 64 ? 0 : v >> shift;
	}
	return 0;
badnum:
	snprintf(err, errlen, "bad number '%s' for term '%s'", value, term);
	errno = EINVAL;
	return -1;
}

/* Encode perf terms "a=1,b,c=0x2" into md (added to what is there). */
int pmc_pmu_encode(const struct pmc_pmu_desc *d, const char *terms,
		   struct pmc_md_pmu_op_pmcallocate *md, char *err,
		   size_t errlen)
{
	char buf[512], *tok, *next, *eq;

	if (strlen(terms) >= sizeof(buf)) {
		snprintf(err, errlen, "terms too long");
		errno = EINVAL;
		return -1;
	}
	strcpy(buf, terms);
	for (tok = buf; tok && *tok; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		eq = strchr(tok, '=');
		if (eq)
			*eq++ = '\0';
		if (!strcasecmp(tok, "period"))
			continue;	/* a sampling rate, not an encoding */
		if (pmc_pmu_set_term(d, tok, eq, md, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* ---- the CPU id ---- */

/* arm64's CPU id: MIDR_EL1 of CPU 0, from sysfs, as perf writes it. */
int pmc_pmu_read_midr(char *buf, size_t len)
{
	char path[PATH_MAX], line[64], *end;
	unsigned long long midr;
	FILE *f;

	snprintf(path, sizeof(path),
		 "%s/devices/system/cpu/cpu0/regs/identification/midr_el1",
		 pmc_pmu_sysfs_root());
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	errno = 0;
	midr = strtoull(line, &end, 16);
	if (errno || end == line || (*end && *end != '\n'))
		return -1;
	snprintf(buf, len, "0x%016llx", midr);
	return 0;
}

/* This machine's CPU id in perf's format: 0, or -1. */
int pmc_pmu_detect_cpuid(char *buf, size_t len)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d, fam, model, step;
	char vendor[13];

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return -1;
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return -1;
	fam = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	step = a & 0xf;
	if (fam == 0xf)
		fam += (a >> 20) & 0xff;
	if (fam >= 6)
		model |= ((a >> 16) & 0xf) << 4;
	snprintf(buf, len, "%s-%u-%X-%X", vendor, fam, model, step);
	return 0;
#else
	return pmc_pmu_read_midr(buf, len);
#endif
}

/* Does x86 pattern re match id as perf matches it? */
static int cpuid_re_match(const char *re_s, const char *id)
{
	size_t lit = strcspn(re_s, "[](){}.*+?^$|\\");
	regmatch_t m[1];
	regex_t re;
	int r;

	/* the literal start ("GenuineIntel-6-") must match: skip regcomp */
	if (strncasecmp(re_s, id, lit))
		return 0;
	if (regcomp(&re, re_s, REG_EXTENDED | REG_ICASE))
		return 0;
	r = regexec(&re, id, 1, m, 0);
	regfree(&re);
	return r == 0 && m[0].rm_so == 0 &&
	       (id[m[0].rm_eo] == '\0' || id[m[0].rm_eo] == '-');
}

#define MIDR_VARIANT	0x00f00000ULL
#define MIDR_REVISION	0x0000000fULL

static int cpuid_midr_match(const char *map, const char *id)
{
	unsigned long long want, have;
	char *end;

	errno = 0;
	want = strtoull(map, &end, 16);
	if (errno || *end)
		return 0;
	have = strtoull(id, &end, 16);
	if (errno || *end)
		return 0;
	if (!(want & MIDR_VARIANT))
		have &= ~MIDR_VARIANT;
	if (!(want & MIDR_REVISION))
		have &= ~MIDR_REVISION;
	return want == have;
}

int pmc_pmu_table_of(const char *cpuid)
{
	unsigned int i;
	int midr = !strncasecmp(cpuid, "0x", 2);

	for (i = 0; i < hwpmc_pe_nmaps; i++) {
		const struct hwpmc_pe_map *m = &hwpmc_pe_maps[i];
		const struct hwpmc_pe_table *t = &hwpmc_pe_tables[m->table];

		if (midr ? t->arch == HWPMC_PE_ARM64 &&
			   cpuid_midr_match(PE_STR(m->cpuid), cpuid) :
			   t->arch == HWPMC_PE_X86 &&
			   cpuid_re_match(PE_STR(m->cpuid), cpuid))
			return (int)m->table;
	}
	return -1;
}

/* ---- the current CPU, cached ---- */

static pthread_mutex_t pmu_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pmc_pmu_cpu pmu_cur;
static char pmu_cur_env[PMC_CPUID_LEN + 1];
static int pmu_cur_valid;

static void pmu_compute(struct pmc_pmu_cpu *c, const char *env)
{
	char here[PMC_CPUID_LEN];

	memset(c, 0, sizeof(*c));
	c->table = -1;
	if (pmc_pmu_detect_cpuid(here, sizeof(here)) < 0)
		here[0] = '\0';
	if (env) {
		snprintf(c->cpuid, sizeof(c->cpuid), "%s", env);
		c->overridden = 1;
	} else if (here[0]) {
		snprintf(c->cpuid, sizeof(c->cpuid), "%s", here);
	}
	if (c->cpuid[0])
		c->table = pmc_pmu_table_of(c->cpuid);
	/* the PMU format: this machine's, unless the CPU is another's */
	if ((!c->overridden || strcmp(c->cpuid, here) == 0 ||
	     secure_getenv("HWPMC_SYSFS")) && pmu_load_sysfs(&c->pmu) == 0)
		return;
	pmc_pmu_builtin(&c->pmu, c->table, c->cpuid);
}

/*
 * The architectural layout of the core PMU of table (or, when it is -1,
 * of the CPU cpuid): Intel's, AMD's or arm64's.
 */
void pmc_pmu_builtin(struct pmc_pmu_desc *d, int table, const char *cpuid)
{
	const struct hwpmc_pe_table *t = NULL;
	int amd;

	if (table >= 0 && (unsigned int)table < hwpmc_pe_ntables)
		t = &hwpmc_pe_tables[table];
	amd = !strncasecmp(cpuid, "AuthenticAMD", 12) ||
	      !strncasecmp(cpuid, "HygonGenuine", 12) ||
	      (t && !strncmp(PE_STR(t->name), "amd", 3));
	if ((t && t->arch == HWPMC_PE_ARM64) ||
	    (!t && !strncasecmp(cpuid, "0x", 2)))
		pmu_set_builtin(d, "armv8_pmuv3", fmt_arm64,
				ARRAY_SIZE(fmt_arm64));
	else if (amd)
		pmu_set_builtin(d, "cpu", fmt_amd, ARRAY_SIZE(fmt_amd));
	else
		pmu_set_builtin(d, "cpu", fmt_intel, ARRAY_SIZE(fmt_intel));
}

/* The CPU whose events names resolve to: HWPMC_CPUID, or this one. */
void pmc_pmu_current(struct pmc_pmu_cpu *out)
{
	const char *env = secure_getenv("HWPMC_CPUID");

	if (env && !*env)
		env = NULL;
	pthread_mutex_lock(&pmu_lock);
	if (!pmu_cur_valid || strcmp(pmu_cur_env, env ? env : "") != 0) {
		pmu_compute(&pmu_cur, env);
		snprintf(pmu_cur_env, sizeof(pmu_cur_env), "%s", env ? env : "");
		pmu_cur_valid = 1;
	}
	*out = pmu_cur;
	pthread_mutex_unlock(&pmu_lock);
}

/* ---- events of a table ---- */

const char *pmc_pmu_table_name(int table)
{
	if (table < 0 || (unsigned int)table >= hwpmc_pe_ntables)
		return NULL;
	return PE_STR(hwpmc_pe_tables[table].name);
}

/* Hybrid Intel: the table of table's cpu_atom (E-core) events, or -1. */
int pmc_pmu_atom_table(int table)
{
	if (table < 0 || (unsigned int)table >= hwpmc_pe_ntables ||
	    !hwpmc_pe_tables[table].atom)
		return -1;
	return (int)hwpmc_pe_tables[table].atom - 1;
}

unsigned int pmc_pmu_nevents(int table)
{
	if (table < 0 || (unsigned int)table >= hwpmc_pe_ntables)
		return 0;
	return hwpmc_pe_tables[table].count;
}

int pmc_pmu_event_at(int table, unsigned int i, struct pmc_pmu_event *ev)
{
	const struct hwpmc_pe_event *e;

	if (i >= pmc_pmu_nevents(table))
		return -1;
	e = &hwpmc_pe_events[hwpmc_pe_index[hwpmc_pe_tables[table].first + i]];
	ev->name = PE_STR(e->name);
	ev->enc = PE_STR(e->enc);
	ev->desc = PE_STR(e->desc);
	ev->topic = PE_STR(e->topic);
	ev->ldesc = PE_STR(e->ldesc);
	ev->period = e->period;
	ev->deprecated = !!(e->flags & HWPMC_PE_DEPRECATED);
	ev->precise = !!(e->flags & HWPMC_PE_PRECISE);
	return 0;
}

/*
 * The index of the event named name in table: case-insensitive, then
 * with '-', '_', '.' and ' ' equal ("inst-retired-any"), then by its
 * libpfm4 name ("INST_RETIRED:ANY_P", "skx::INST_RETIRED"; decision
 * 32).  -1 if none.
 */
int pmc_pmu_find(int table, const char *name)
{
	int i = pmc_pmu_find_exact(table, name);
	const char *dc;

	if (i < 0)
		i = pmc_pmu_find_fuzzy(table, name);
	if (i >= 0)
		return i;
	dc = strstr(name, "::");
	if (!dc)
		return pmc_pmu_pfm_find(table, name);
	if (!pmc_pmu_pfm_in(pmc_pmu_pfm_pmus(table), name,
			    (size_t)(dc - name)))
		return -1;
	return pmc_pmu_pfm_find(table, dc + 2);
}

/* ... case-insensitive only */
int pmc_pmu_find_exact(int table, const char *name)
{
	struct pmc_pmu_event ev;
	unsigned int i, n = pmc_pmu_nevents(table);

	for (i = 0; i < n; i++)
		if (!pmc_pmu_event_at(table, i, &ev) &&
		    !strcasecmp(ev.name, name))
			return (int)i;
	return -1;
}

/* ... with '-', '_', '.' and ' ' equal */
int pmc_pmu_find_fuzzy(int table, const char *name)
{
	struct pmc_pmu_event ev;
	unsigned int i, n = pmc_pmu_nevents(table);

	for (i = 0; i < n; i++)
		if (!pmc_pmu_event_at(table, i, &ev) &&
		    pmc_lib_same_name(ev.name, name))
			return (int)i;
	return -1;
}

/* ---- libpfm4's names (decision 32) ---- */

/* table's libpfm4 PMUs, "skx" or "knl,knm"; "" when it has none. */
const char *pmc_pmu_pfm_pmus(int table)
{
	if (table < 0 || (unsigned int)table >= hwpmc_pe_ntables)
		return "";
	return PE_STR(hwpmc_pe_tables[table].pfm);
}

/* Is pmu (n characters) one of pmus ("knl,knm")?  Case-insensitive. */
int pmc_pmu_pfm_in(const char *pmus, const char *pmu, size_t n)
{
	const char *p = pmus;
	size_t m;

	while (n && *p) {
		m = strcspn(p, ",");
		if (m == n && !strncasecmp(p, pmu, n))
			return 1;
		p += m;
		if (*p)
			p++;
	}
	return 0;
}

static int pfm_alias_cmp(const void *key, const void *elt)
{
	return strcasecmp(key, PE_STR(((const struct hwpmc_pe_alias *)elt)->name));
}

/*
 * The event of table whose libpfm4 name is name ("INST_RETIRED:ANY_P",
 * "INST_RETIRED"; no PMU prefix, no modifiers), case-insensitive: its
 * index, or -1.
 */
int pmc_pmu_pfm_find(int table, const char *name)
{
	const struct hwpmc_pe_table *t;
	const struct hwpmc_pe_alias *a;

	if (table < 0 || (unsigned int)table >= hwpmc_pe_ntables)
		return -1;
	t = &hwpmc_pe_tables[table];
	if (!t->acount)
		return -1;
	a = bsearch(name, &hwpmc_pe_aliases[t->afirst], t->acount,
		    sizeof(*a), pfm_alias_cmp);
	return a ? (int)a->event : -1;
}

/*
 * The libpfm4 unit masks of event ("INST_RETIRED") that have an alias,
 * comma-separated, into buf: how many there are (0: no libpfm4 name of
 * event with a unit mask is an alias here).
 */
int pmc_pmu_pfm_umasks(int table, const char *event, char *buf, size_t len)
{
	const struct hwpmc_pe_table *t;
	size_t n = strlen(event), off = 0;
	unsigned int i;
	int count = 0;
	const char *s;

	if (len)
		buf[0] = '\0';
	if (table < 0 || (unsigned int)table >= hwpmc_pe_ntables)
		return 0;
	t = &hwpmc_pe_tables[table];
	for (i = 0; i < t->acount; i++) {
		s = PE_STR(hwpmc_pe_aliases[t->afirst + i].name);
		if (strncasecmp(s, event, n) || s[n] != ':')
			continue;
		count++;
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
						off ? ", " : "", s + n + 1);
	}
	return count;
}

/*
 * A libpfm4 name of event i of table, "INST_RETIRED:ANY_P" (with a unit
 * mask where one names it), or NULL when libpfm4 names none of that
 * encoding.
 */
const char *pmc_pmu_pfm_name(int table, unsigned int i)
{
	const struct hwpmc_pe_table *t;
	const char *best = NULL, *s;
	unsigned int k;

	if (table < 0 || (unsigned int)table >= hwpmc_pe_ntables)
		return NULL;
	t = &hwpmc_pe_tables[table];
	for (k = 0; k < t->acount; k++) {
		if (hwpmc_pe_aliases[t->afirst + k].event != i)
			continue;
		s = PE_STR(hwpmc_pe_aliases[t->afirst + k].name);
		if (!best || (strchr(s, ':') && !strchr(best, ':')))
			best = s;
		if (strchr(best, ':'))
			break;
	}
	return best;
}
