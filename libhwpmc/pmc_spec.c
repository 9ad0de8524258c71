// SPDX-License-Identifier: BSD-2-Clause
/*
 * libhwpmc: event specifiers, "<event>[,<qualifier>...]".
 *
 * Events are named as perf names them (cycles, instructions, task-clock,
 * L1-dcache-load-misses, ...), with perf's, FreeBSD's and Solaris/PAPI
 * generic aliases, an optional class prefix ("SOFT-", "PMU-"), and raw
 * PMU events as perf writes them ("r1c2", or "raw" with "config=").
 * Matching ignores case and treats '-', '_', '.' and ' ' as equal.
 * Qualifiers: "usr" (or perf's ":u" suffix) counts user mode only, "os"
 * or "sys" (":k") kernel mode only; raw events take "config=",
 * "config1=", "config2=".  Errors name the token at fault.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <linux/perf_event.h>

#include "libpmc_internal.h"
#include <hwpmc_events.h>

#define TOKMAX	128

/* alias -> perf name; both sides compared normalised */
static const struct { const char *alias, *name; } pmc_aliases[] = {
	/* perf */
	{ "branches", "branch-instructions" },
	{ "faults", "page-faults" },
	{ "cs", "context-switches" },
	{ "migrations", "cpu-migrations" },
	{ "cpu-cycles", "cycles" },
	{ "idle-cycles-frontend", "stalled-cycles-frontend" },
	{ "idle-cycles-backend", "stalled-cycles-backend" },
	/* FreeBSD's generic names (libpmc) and SOFT events */
	{ "branch-mispredicts", "branch-misses" },
	{ "dc-misses", "L1-dcache-load-misses" },
	{ "ic-misses", "L1-icache-load-misses" },
	{ "unhalted-cycles", "cycles" },
	{ "unhalted-core-cycles", "cycles" },
	{ "llc-misses", "LLC-load-misses" },
	{ "llc-reference", "LLC-loads" },
	{ "clock.hard", "cpu-clock" },
	{ "clock.stat", "cpu-clock" },
	{ "clock.prof", "cpu-clock" },
	{ "page-fault.all", "page-faults" },
	/* Solaris generic events (cpc_generic_events(3CPC)) = PAPI presets */
	{ "PAPI_tot_ins", "instructions" },
	{ "PAPI_tot_cyc", "cycles" },
	{ "PAPI_ref_cyc", "ref-cycles" },
	{ "PAPI_br_ins", "branch-instructions" },
	{ "PAPI_br_msp", "branch-misses" },
	{ "PAPI_l1_dcm", "L1-dcache-load-misses" },
	{ "PAPI_l1_icm", "L1-icache-load-misses" },
	{ "PAPI_l1_ldm", "L1-dcache-load-misses" },
	{ "PAPI_l3_tcm", "LLC-load-misses" },
	{ "PAPI_l3_ldm", "LLC-load-misses" },
	{ "PAPI_tlb_dm", "dTLB-load-misses" },
	{ "PAPI_tlb_im", "iTLB-load-misses" },
	{ "PAPI_stl_icy", "stalled-cycles-frontend" },
};

/* Lower case, one separator: "L1_DCACHE.Load-misses" = "l1-dcache-load-misses" */
static void pmc_norm(const char *s, char *out, size_t len)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		out[i] = strchr("_. ", s[i]) ? '-' : (char)tolower((unsigned char)s[i]);
	out[i] = '\0';
}

static int pmc_same(const char *a, const char *b)
{
	char na[TOKMAX], nb[TOKMAX];

	pmc_norm(a, na, sizeof(na));
	pmc_norm(b, nb, sizeof(nb));
	return !strcmp(na, nb);
}

/* The event of this machine named name (of class cl, 0 = any). */
static const struct pmc_dyn_event_descr *
pmc_find_event(const char *name, uint32_t cl, uint32_t *evclass)
{
	uint32_t c, i;

	for (c = 0; c < PMC_CLASS_MAX; c++) {
		const struct pmc_class_events *ce = &pmc_lib.classes[c];

		if (!ce->ce_events || (cl && ce->ce_class != cl))
			continue;
		for (i = 0; i < ce->ce_nevent; i++)
			if (pmc_same(ce->ce_events[i].pm_ev_name, name)) {
				*evclass = ce->ce_class;
				return &ce->ce_events[i];
			}
	}
	return NULL;
}

/* Is name an event hwpmc knows, on whatever machine? */
static int pmc_known_event(const char *name)
{
	static const uint32_t ranges[][2] = {
		{ PMC_EV_SOFT_FIRST, PMC_EV_SOFT_LAST },
		{ PMC_EV_PMU_HW_FIRST, PMC_EV_PMU_HW_LAST },
		{ PMC_EV_PMU_CACHE_FIRST, PMC_EV_PMU_CACHE_LAST },
	};
	char buf[PMC_NAME_MAX];
	uint32_t r, ev;

	for (r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++)
		for (ev = ranges[r][0]; ev <= ranges[r][1]; ev++)
			if (!hwpmc_event_name(ev, buf, sizeof(buf)) &&
			    pmc_same(buf, name))
				return 1;
	return 0;
}

static const char *pmc_alias(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(pmc_aliases) / sizeof(pmc_aliases[0]); i++)
		if (pmc_same(pmc_aliases[i].alias, name))
			return pmc_aliases[i].name;
	return NULL;
}

/* A number, whole token: decimal, 0x hex or 0 octal. */
static int pmc_number(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

int pmc_parse_spec(const char *spec, struct pmc_op_pmcallocate *pa,
		   char *err, size_t errlen)
{
	char buf[512], *tok, *save, *name, *colon, *eq;
	const struct pmc_dyn_event_descr *d;
	uint32_t cl = 0, evclass = 0;
	const char *alias;
	int raw = 0, have_config = 0;
	uint64_t v;

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); \
		       errno = EINVAL; return -1; } while (0)

	if (!spec || !*spec)
		FAIL("empty event specifier");
	if (strlen(spec) >= sizeof(buf))
		FAIL("event specifier too long");
	strcpy(buf, spec);
	memset(pa, 0, sizeof(*pa));

	name = strtok_r(buf, ",", &save);
	if (!name)
		FAIL("no event in '%s'", spec);
	/* perf's ":u" / ":k" modifiers */
	colon = strchr(name, ':');
	if (colon) {
		*colon++ = '\0';
		if (!strcmp(colon, "u"))
			pa->pm_caps |= PMC_CAP_USER;
		else if (!strcmp(colon, "k"))
			pa->pm_caps |= PMC_CAP_SYSTEM;
		else
			FAIL("unknown modifier ':%s' in '%s' (use :u or :k)",
			     colon, spec);
	}
	if (!strncasecmp(name, "SOFT-", 5) || !strncasecmp(name, "SOFT_", 5)) {
		cl = PMC_CLASS_SOFT;
		name += 5;
	} else if (!strncasecmp(name, "PMU-", 4) ||
		   !strncasecmp(name, "PMU_", 4)) {
		cl = PMC_CLASS_PMU;
		name += 4;
	}

	/* raw: "r<hex>" or "raw" */
	if (name[0] == 'r' && name[1] && strspn(name + 1,
	    "0123456789abcdefABCDEF") == strlen(name + 1)) {
		raw = 1;
		pa->pm_md.pm_pmu.pm_config = strtoull(name + 1, NULL, 16);
		have_config = 1;
	} else if (pmc_same(name, "raw")) {
		raw = 1;
	}
	if (raw) {
		if (cl && cl != PMC_CLASS_PMU)
			FAIL("raw event '%s' is of class PMU, not SOFT", name);
		d = pmc_find_event("raw", PMC_CLASS_PMU, &evclass);
		if (!d)
			FAIL("raw event '%s' is not available on this machine (no hardware PMU)",
			     name);
	} else {
		d = pmc_find_event(name, cl, &evclass);
		alias = d ? NULL : pmc_alias(name);
		if (alias)
			d = pmc_find_event(alias, cl, &evclass);
		if (!d && (pmc_known_event(name) ||
			   (alias && pmc_known_event(alias))))
			FAIL("event '%s' is not available on this machine%s",
			     name, pmc_lib.cpuinfo.pm_nclass < 2 ?
			     " (no hardware PMU)" : "");
		if (!d)
			FAIL("unknown event '%s' (hwpmc-control -L lists them)",
			     name);
	}
	pa->pm_class = evclass;
	pa->pm_ev = d->pm_ev_code;

	while ((tok = strtok_r(NULL, ",", &save))) {
		eq = strchr(tok, '=');
		if (pmc_same(tok, "usr") || pmc_same(tok, "user")) {
			pa->pm_caps |= PMC_CAP_USER;
		} else if (pmc_same(tok, "os") || pmc_same(tok, "sys") ||
			   pmc_same(tok, "system")) {
			pa->pm_caps |= PMC_CAP_SYSTEM;
		} else if (eq && raw) {
			*eq++ = '\0';
			if (pmc_number(eq, &v))
				FAIL("bad number '%s' in '%s'", eq, spec);
			if (pmc_same(tok, "config")) {
				pa->pm_md.pm_pmu.pm_config = v;
				have_config = 1;
			} else if (pmc_same(tok, "config1")) {
				pa->pm_md.pm_pmu.pm_config1 = v;
			} else if (pmc_same(tok, "config2")) {
				pa->pm_md.pm_pmu.pm_config2 = v;
			} else {
				FAIL("unknown qualifier '%s' in '%s'", tok, spec);
			}
		} else {
			FAIL("unknown qualifier '%s' in '%s'", tok, spec);
		}
	}
	if (raw && !have_config)
		FAIL("raw event needs a code: 'r<hex>' or 'raw,config=<n>'");
	/* both modes named: that is the default, counting both */
	if ((pa->pm_caps & (PMC_CAP_USER | PMC_CAP_SYSTEM)) ==
	    (PMC_CAP_USER | PMC_CAP_SYSTEM))
		pa->pm_caps &= ~(PMC_CAP_USER | PMC_CAP_SYSTEM);
	err[0] = '\0';
	return 0;
#undef FAIL
}
