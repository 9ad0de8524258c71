// SPDX-License-Identifier: BSD-2-Clause
/*
 * libhwpmc: event specifiers, "<event>[:<modifiers>][,<qualifier>...]"
 * or perf's "<pmu>/<term>,.../[:<modifiers>]".
 *
 * Events are named as perf names them (cycles, instructions, task-clock,
 * L1-dcache-load-misses, ...), with perf's own short forms (branches,
 * faults, cs, L1-dcache-misses, dTLB-loads, ...), FreeBSD's and
 * Solaris/PAPI generic aliases, an optional class prefix ("SOFT-",
 * "PMU-"), raw PMU events as perf writes them ("r1c2", or "raw" with
 * "config="), and the vendor events of the CPU's pmu-events table
 * (pmc_pmu.c: "INST_RETIRED.ANY", "inst_retired.any", "ex_ret_instr",
 * "INST_RETIRED"; FreeBSD's "iap-", "iaf-" and "k8-" prefixes are
 * accepted on them), and where the build had libpfm4 their libpfm4
 * names, "[pmu::]EVENT[:UMASK][:modifier]..." (pmc_pfm_parse(), decision
 * 32).  A vendor event spelt exactly, but for case, wins over everything
 * else; otherwise the generic names come first.
 * Matching ignores case and treats '-', '_', '.' and ' ' as equal.
 *
 * Modifiers: ":u" user mode only, ":k" kernel mode only, ":p" (up to
 * three) precise.  Qualifiers: "usr", "os" (or "sys"); on raw and vendor
 * events, the core PMU's format terms ("umask=0x2", "cmask=1", "inv",
 * "edge", FreeBSD's "threshold=" and "anythread") and "config=",
 * "config1=", "config2=".  A vendor event becomes PMC_EV_PMU_RAW with its
 * encoding in pm_md.pm_pmu.  Errors name the token at fault, and for a
 * bad term the valid ones.
 *
 * Which events the parser knows is its caller's choice
 * (pmc_parse_spec_events()): PMC_SPEC_MACHINE, this machine's event lists
 * (GETDYNEVENTINFO, after pmc_init()), so that an event hwpmc knows but
 * the machine lacks is told apart from a misspelt one; PMC_SPEC_KNOWN,
 * every event hwpmc knows (<hwpmc_events.h>, and the vendor tables): the
 * parser is then a pure function of the specifier and HWPMC_CPUID.
 * pmc_parse_spec() takes the first after pmc_init(), the second before.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <linux/perf_event.h>

#include "libpmc_internal.h"
#include <hwpmc_events.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define SPECMAX		512	/* longest specifier */

/*
 * alias -> perf name.  Aliases are looked up only when no event of the
 * machine has the name itself.  See pmc(3) for why each is what it is.
 */
static const struct { const char *alias, *name; } pmc_aliases[] = {
	/* perf's own */
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
	{ "instruction-retired", "instructions" },
	/* FreeBSD: LONGEST_LAT_CACHE.MISS/.REFERENCE, perf's generic pair */
	{ "llc-misses", "cache-misses" },
	{ "llc-reference", "cache-references" },
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
	{ "PAPI_l1_ldm", "L1-dcache-load-misses" },
	{ "PAPI_l1_dca", "L1-dcache-loads" },
	{ "PAPI_l1_dcr", "L1-dcache-loads" },
	{ "PAPI_l1_dcw", "L1-dcache-stores" },
	{ "PAPI_l1_ica", "L1-icache-loads" },
	{ "PAPI_l1_stm", "L1-dcache-store-misses" },
	{ "PAPI_l1_icm", "L1-icache-load-misses" },
	{ "PAPI_l3_tcm", "cache-misses" },
	{ "PAPI_l3_tca", "cache-references" },
	{ "PAPI_l3_ldm", "LLC-load-misses" },
	{ "PAPI_tlb_dm", "dTLB-load-misses" },
	{ "PAPI_tlb_im", "iTLB-load-misses" },
};

/*
 * The idx-th alias of the table above and the event it names, for
 * libcpc's generic events (cpc_walk_generic_events_all(3CPC)): one table
 * for the parser and the walkers.
 */
int pmc_event_alias(int idx, const char **alias, const char **name)
{
	if (idx < 0 || (size_t)idx >= ARRAY_SIZE(pmc_aliases)) {
		errno = ENOENT;
		return -1;
	}
	if (alias)
		*alias = pmc_aliases[idx].alias;
	if (name)
		*name = pmc_aliases[idx].name;
	return 0;
}

/*
 * FreeBSD's names of Intel vendor events (libpmc's PMU aliases), tried
 * when the CPU's table has no event of the name itself.
 */
static const struct { const char *alias, *name; } pmc_vendor_aliases[] = {
	{ "llc-miss-rhitm", "mem_load_l3_miss_retired.remote_hitm" },
	{ "resource-stall", "resource_stalls.any" },
	{ "resource-stalls-any", "resource_stalls.any" },
	{ "branch-instruction-retired", "br_inst_retired.all_branches" },
	{ "branch-misses-retired", "br_misp_retired.all_branches" },
};

/* Names FreeBSD has that no Linux event matches: why, in words. */
static const struct { const char *name, *why; } pmc_nonesuch[] = {
	{ "page-fault.read", "Linux counts page faults of all kinds (page-faults)" },
	{ "page-fault.write", "Linux counts page faults of all kinds (page-faults)" },
	{ "interrupts", "perf has no generic interrupt event (use a raw event)" },
	{ "tsc", "use cycles or ref-cycles" },
};

/* perf's spellings of cache, operation and result (tools/perf evsel.c) */
static const char *const pmc_cache_syn[HWPMC_NCACHE][5] = {
	{ "l1-dcache", "l1-d", "l1d", "l1-data" },
	{ "l1-icache", "l1-i", "l1i", "l1-instruction" },
	{ "llc", "l2" },
	{ "dtlb", "d-tlb", "data-tlb" },
	{ "itlb", "i-tlb", "instruction-tlb" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};

static const char *const pmc_op_syn[HWPMC_NCACHEOP][5] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};

static const char *const pmc_res_syn[HWPMC_NCACHERES][5] = {
	{ "refs", "reference", "ops", "access" },
	{ "misses", "miss" },
};

#define pmc_norm_char	pmc_lib_norm_char
#define pmc_same	pmc_lib_same_name

/* Does a start with prefix p (normalised)?  Returns the rest, or NULL. */
static const char *pmc_prefix(const char *a, const char *p)
{
	for (; *p; a++, p++)
		if (!*a || pmc_norm_char((unsigned char)*a) !=
			   pmc_norm_char((unsigned char)*p))
			return NULL;
	return a;
}

/*
 * An event: its class and code, the caps it supports (0: unknown); for a
 * vendor event (code PMC_EV_PMU_RAW), its encoding in perf's terms.
 */
struct pmc_evref {
	uint32_t	cl, code, caps;
	const char	*enc;		/* vendor event: "event=0xc0,umask=0x1" */
};

/* This machine's event named name, of any class. */
static int pmc_find_avail(const char *name, struct pmc_evref *r)
{
	uint32_t c, i;

	for (c = 0; c < PMC_CLASS_MAX; c++) {
		const struct pmc_class_events *ce = &pmc_lib.classes[c];

		if (!ce->ce_events)
			continue;
		for (i = 0; i < ce->ce_nevent; i++)
			if (ce->ce_events[i].pm_ev_code != PMC_EV_PERF &&
			    pmc_same(ce->ce_events[i].pm_ev_name, name)) {
				r->cl = ce->ce_class;
				r->code = ce->ce_events[i].pm_ev_code;
				r->caps = ce->ce_events[i].pm_ev_caps;
				return 1;
			}
	}
	return 0;
}

/* An event hwpmc knows, on whatever machine. */
static int pmc_find_known(const char *name, struct pmc_evref *r)
{
	static const uint32_t ranges[][3] = {
		{ PMC_EV_SOFT_FIRST, PMC_EV_SOFT_LAST, PMC_CLASS_SOFT },
		{ PMC_EV_PMU_HW_FIRST, PMC_EV_PMU_HW_LAST, PMC_CLASS_PMU },
		{ PMC_EV_PMU_CACHE_FIRST, PMC_EV_PMU_CACHE_LAST, PMC_CLASS_PMU },
		{ PMC_EV_PMU_RAW, PMC_EV_PMU_RAW, PMC_CLASS_PMU },
	};
	char buf[PMC_NAME_MAX];
	uint32_t i, ev;

	for (i = 0; i < ARRAY_SIZE(ranges); i++)
		for (ev = ranges[i][0]; ev <= ranges[i][1]; ev++)
			if (!hwpmc_event_name(ev, buf, sizeof(buf)) &&
			    pmc_same(buf, name)) {
				r->cl = ranges[i][2];
				r->code = ev;
				r->caps = 0;
				return 1;
			}
	return 0;
}

/*
 * perf's cache event spellings: <cache>[-<op>][-<result>], default op
 * load, default result access ("L1-dcache-misses" = L1-dcache-load-misses,
 * "dTLB" = dTLB-loads).  The canonical name goes to buf.
 */
static int pmc_cache_name(const char *name, char *buf, size_t len)
{
	const char *rest, *r2, *r3;
	unsigned int c, o, s, res, i, j;

	for (c = 0; c < HWPMC_NCACHE; c++)
		for (i = 0; i < 5 && pmc_cache_syn[c][i]; i++) {
			rest = pmc_prefix(name, pmc_cache_syn[c][i]);
			if (!rest || (*rest && pmc_norm_char(*rest) != '-'))
				continue;
			o = 0;
			res = 0;
			if (*rest)
				rest++;
			/* [op] */
			for (s = 0; s < HWPMC_NCACHEOP; s++)
				for (j = 0; j < 5 && pmc_op_syn[s][j]; j++) {
					r2 = pmc_prefix(rest, pmc_op_syn[s][j]);
					if (r2 && (!*r2 ||
						   pmc_norm_char(*r2) == '-')) {
						o = s;
						rest = *r2 ? r2 + 1 : r2;
						goto result;
					}
				}
result:
			/* [result] */
			for (s = 0; *rest && s < HWPMC_NCACHERES; s++)
				for (j = 0; j < 5 && pmc_res_syn[s][j]; j++) {
					r3 = pmc_prefix(rest, pmc_res_syn[s][j]);
					if (r3 && !*r3) {
						res = s;
						rest = r3;
						goto done;
					}
				}
done:
			if (*rest)
				continue;
			snprintf(buf, len, "%s-%s", hwpmc_cache_names[c],
				 hwpmc_cacheop_names[res][o]);
			return 1;
		}
	return 0;
}

static const char *pmc_alias(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pmc_aliases); i++)
		if (pmc_same(pmc_aliases[i].alias, name))
			return pmc_aliases[i].name;
	return NULL;
}

/* A number, whole token: decimal, 0x hex or 0 octal. */
static int pmc_number(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

static const char *pmc_class_word(uint32_t cl)
{
	return cl == PMC_CLASS_SOFT ? "SOFT" : cl == PMC_CLASS_PERF ? "PERF" :
	       "PMU";
}

/* The module offers the PERF class (other perf PMUs, tracepoints). */
static int pmc_have_perf(void)
{
	uint32_t i;

	for (i = 0; i < pmc_lib.cpuinfo.pm_nclass; i++)
		if (pmc_lib.cpuinfo.pm_classes[i].pm_class == PMC_CLASS_PERF)
			return 1;
	return 0;
}

/* The machine has a hardware PMU class (even one with no events). */
static int pmc_have_pmu(void)
{
	uint32_t i;

	for (i = 0; i < pmc_lib.cpuinfo.pm_nclass; i++)
		if (pmc_lib.cpuinfo.pm_classes[i].pm_class == PMC_CLASS_PMU)
			return 1;
	return 0;
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__);		\
		       errno = EINVAL; return -1; } while (0)

/* "unknown event", with what the vendor tables could not say */
static void pmc_unknown(const char *orig, char *err, size_t errlen)
{
	struct pmc_pmu_cpu cpu;

	pmc_pmu_current(&cpu);
	if (!cpu.cpuid[0])
		snprintf(err, errlen,
			 "unknown event '%s' (the CPU cannot be identified, so no vendor events are known; set HWPMC_CPUID)",
			 orig);
	else if (cpu.table < 0)
		snprintf(err, errlen,
			 "unknown event '%s' (no vendor event table for CPU %s%s; hwpmc-control -L lists the events)",
			 orig, cpu.cpuid, cpu.overridden ? " of HWPMC_CPUID" : "");
	else
		snprintf(err, errlen,
			 "unknown event '%s' (not in the %s table of CPU %s either; hwpmc-control -L lists the events)",
			 orig, pmc_pmu_table_name(cpu.table), cpu.cpuid);
}

/*
 * The vendor event named name, of the CPU's pmu-events table: 0 and r
 * set when found, 1 when there is none, -1 with err set on an error.
 */
static int pmc_vendor_lookup_(int machine, const char *name, const char *orig,
			      uint32_t cl, struct pmc_evref *r, char *err,
			      size_t errlen, int exact)
{
	struct pmc_pmu_event ev;
	struct pmc_pmu_cpu cpu;
	int i;

	err[0] = '\0';
	pmc_pmu_current(&cpu);
	i = exact ? pmc_pmu_find_exact(cpu.table, name) :
		    pmc_pmu_find(cpu.table, name);
	if (i < 0 || pmc_pmu_event_at(cpu.table, (unsigned int)i, &ev) < 0)
		return 1;
	if (cl && cl != PMC_CLASS_PMU)
		FAIL("event '%s' is of class PMU, not %s", orig,
		     pmc_class_word(cl));
	if (machine && !pmc_find_avail("raw", r))
		FAIL("event '%s' needs raw PMU events, which are not available on this machine%s",
		     orig, pmc_have_pmu() ? "" : " (no hardware PMU)");
	r->cl = PMC_CLASS_PMU;
	r->code = PMC_EV_PMU_RAW;
	r->caps = 0;
	r->enc = ev.enc;
	return 0;
}

static int pmc_vendor_lookup(int machine, const char *name, const char *orig,
			     uint32_t cl, struct pmc_evref *r, char *err,
			     size_t errlen)
{
	return pmc_vendor_lookup_(machine, name, orig, cl, r, err, errlen, 0);
}

/*
 * The event named name (without class prefix and modifiers): of class
 * cl if cl is not 0; among this machine's events if machine, else among
 * every event hwpmc knows.  orig is the name as written, for messages.
 */
static int pmc_lookup(int machine, const char *name, const char *orig,
		      uint32_t cl, struct pmc_evref *r, char *err,
		      size_t errlen)
{
	const char *cands[3];
	char cache[PMC_NAME_MAX + 16];
	unsigned int n = 0, i;

	/*
	 * A vendor event spelt exactly (but for case) comes first: arm64's
	 * CPU_CYCLES is its own event, not perf's alias cpu-cycles.  If it
	 * cannot be used (no raw events, another class), the generic names
	 * are tried, and the vendor lookup below says why.
	 */
	if (!pmc_vendor_lookup_(machine, name, orig, cl, r, err, errlen, 1))
		return 0;
	err[0] = '\0';
	/* the name; else an alias; else perf's cache spellings */
	cands[n++] = name;
	if (pmc_alias(name))
		cands[n++] = pmc_alias(name);
	else if (!pmc_find_known(name, r) &&
		 pmc_cache_name(name, cache, sizeof(cache)))
		cands[n++] = cache;
	for (i = 0; i < n; i++) {
		if (machine ? pmc_find_avail(cands[i], r) :
			    pmc_find_known(cands[i], r)) {
			if (cl && r->cl != cl)
				FAIL("event '%s' is of class %s, not %s", orig,
				     pmc_class_word(r->cl), pmc_class_word(cl));
			return 0;
		}
	}
	for (i = 0; i < n; i++) {
		if (!pmc_find_known(cands[i], r))
			continue;
		if (cl && r->cl != cl)
			FAIL("event '%s' is of class %s, not %s", orig,
			     pmc_class_word(r->cl), pmc_class_word(cl));
		if (i)
			FAIL("event '%s' (%s) is not available on this machine%s",
			     orig, cands[i], pmc_have_pmu() ? "" :
			     " (no hardware PMU)");
		FAIL("event '%s' is not available on this machine%s", orig,
		     pmc_have_pmu() ? "" : " (no hardware PMU)");
	}
	if (pmc_vendor_lookup(machine, name, orig, cl, r, err, errlen) <= 0)
		return err[0] ? -1 : 0;
	/* FreeBSD's aliases of Intel vendor events (libpmc) */
	for (i = 0; i < ARRAY_SIZE(pmc_vendor_aliases); i++)
		if (pmc_same(pmc_vendor_aliases[i].alias, name) &&
		    pmc_vendor_lookup(machine, pmc_vendor_aliases[i].name, orig,
				      cl, r, err, errlen) <= 0)
			return err[0] ? -1 : 0;
	for (i = 0; i < ARRAY_SIZE(pmc_nonesuch); i++)
		if (pmc_same(pmc_nonesuch[i].name, name))
			FAIL("event '%s' has no Linux equivalent: %s", orig,
			     pmc_nonesuch[i].why);
	pmc_unknown(orig, err, errlen);
	errno = EINVAL;
	return -1;
}

/* Is name perf's raw form, 'r' and 1 to 16 hex digits? */
static int pmc_raw_code(const char *name, uint64_t *config)
{
	size_t n;

	if (name[0] != 'r' && name[0] != 'R')
		return 0;
	n = strspn(name + 1, "0123456789abcdefABCDEF");
	if (!n || name[1 + n] || n > 16)
		return 0;
	*config = strtoull(name + 1, NULL, 16);
	return 1;
}

/* FreeBSD's qualifier names of perf's format terms (IAP, K8 classes) */
static const char *pmc_term_alias(const char *t)
{
	if (pmc_same(t, "threshold") || pmc_same(t, "count"))
		return "cmask";
	if (pmc_same(t, "anythread"))
		return "any";
	if (pmc_same(t, "invert"))
		return "inv";
	return t;
}

/* Is name the core PMU's, as perf names it ("cpu", "armv8_pmuv3_0")? */
static int pmc_core_pmu(const struct pmc_pmu_cpu *cpu, const char *name)
{
	return !strcasecmp(name, cpu->pmu.name) || !strcmp(name, "cpu") ||
	       !strcmp(name, "cpu_core") || !strncmp(name, "armv8_", 6) ||
	       !strncmp(name, "armv9_", 6);
}

/*
 * Apply one encoding term, "umask=0x2" or "edge", to pa's configuration.
 * what is "qualifier" or "term", for messages.
 */
static int pmc_apply_term(const struct pmc_pmu_cpu *cpu, char *tok,
			  const char *what, const char *spec,
			  struct pmc_op_pmcallocate *pa, char *err, size_t errlen)
{
	char *eq = strchr(tok, '='), terms[400], msg[256];
	const char *term;
	uint64_t v;

	if (eq) {
		*eq = '\0';
		if (pmc_number(eq + 1, &v) < 0)
			FAIL("bad number '%s' in '%s'", eq + 1, spec);
	}
	term = pmc_term_alias(tok);
	if (pmc_pmu_set_term(&cpu->pmu, term, eq ? eq + 1 : NULL,
			     &pa->pm_md.pm_pmu, msg, sizeof(msg)) == 0)
		return 0;
	if (!strncmp(msg, "unknown term", 12)) {
		if (eq)
			*eq = '=';
		pmc_pmu_terms_list(&cpu->pmu, terms, sizeof(terms));
		FAIL("unknown %s '%s' in '%s' (valid: %s%s)", what, tok, spec,
		     *what == 'q' ? "usr, os, " : "", terms);
	}
	FAIL("%s in '%s'", msg, spec);
}

/* Encode vendor event r (named orig) into pa. */
static int pmc_apply_vendor(const struct pmc_pmu_cpu *cpu,
			    const struct pmc_evref *r, const char *orig,
			    struct pmc_op_pmcallocate *pa, char *err,
			    size_t errlen)
{
	char msg[256];

	if (pmc_pmu_encode(&cpu->pmu, r->enc, &pa->pm_md.pm_pmu, msg,
			   sizeof(msg)) < 0)
		FAIL("event '%s' (%s) cannot be encoded for PMU %s: %s", orig,
		     r->enc, cpu->pmu.name, msg);
	return 0;
}

/*
 * perf's PMU form, "pmu/term,term,.../": terms are the PMU's format
 * names, config*, period (ignored here: pmc_allocate's count is the
 * period), or one event name (vendor, or alone a generic one).
 */
static int pmc_parse_pmu_form(int machine, const struct pmc_pmu_cpu *cpu,
			      const char *pmu, char *terms, const char *spec,
			      struct pmc_op_pmcallocate *pa,
			      struct pmc_evref *ev, char *err, size_t errlen)
{
	char copy[SPECMAX], *tok, *next, *evname = NULL, *evtok = NULL;
	int nterms = 0;

	if (!pmc_core_pmu(cpu, pmu))
		FAIL("PMU '%s' in '%s' is not supported: hwpmc counts the core PMU (%s) and software events only",
		     pmu, spec, cpu->pmu.name);
	if (!*terms)
		FAIL("no event terms in '%s'", spec);
	strcpy(copy, terms);
	/* first pass: the event name, if any */
	for (tok = copy; tok; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		if (!*tok)
			FAIL("empty term in '%s'", spec);
		nterms++;
		if (strchr(tok, '=') || pmc_same(tok, "config") ||
		    pmc_same(tok, "config1") || pmc_same(tok, "config2"))
			continue;
		{
			struct pmc_md_pmu_op_pmcallocate md = { 0 };
			char m[8];

			if (pmc_pmu_set_term(&cpu->pmu, pmc_term_alias(tok),
					     NULL, &md, m, sizeof(m)) == 0)
				continue;	/* a flag term: "edge" */
		}
		if (evname)
			FAIL("two events ('%s', '%s') in '%s'", evtok, tok,
			     spec);
		evname = terms + (tok - copy);
		evtok = tok;
	}
	ev->cl = PMC_CLASS_PMU;
	ev->code = PMC_EV_PMU_RAW;
	ev->enc = NULL;
	if (evname) {
		char name[PMC_NAME_MAX * 2];
		size_t n = strcspn(evname, ",");

		if (n >= sizeof(name))
			FAIL("event name too long in '%s'", spec);
		memcpy(name, evname, n);
		name[n] = '\0';
		if (pmc_vendor_lookup(machine, name, name, PMC_CLASS_PMU, ev,
				      err, errlen) != 0) {
			if (err[0])
				return -1;
			if (nterms > 1) {
				/* a misspelt term or an unknown event */
				char valid[400];

				pmc_pmu_terms_list(&cpu->pmu, valid,
						   sizeof(valid));
				FAIL("unknown term or event '%s' in '%s' (terms: %s)",
				     name, spec, valid);
			}
			/* "cpu/cycles/": a generic event, alone */
			return pmc_lookup(machine, name, name, PMC_CLASS_PMU,
					  ev, err, errlen) < 0 ? -1 : 0;
		}
		if (ev->enc && pmc_apply_vendor(cpu, ev, name, pa, err,
						errlen) < 0)
			return -1;
	} else if (machine && !pmc_find_avail("raw", ev)) {
		FAIL("raw event '%s' is not available on this machine%s", spec,
		     pmc_have_pmu() ? "" : " (no hardware PMU)");
	}
	ev->cl = PMC_CLASS_PMU;
	ev->code = PMC_EV_PMU_RAW;
	/* second pass: the encoding terms, in order, over the event's */
	for (tok = terms; tok; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		if (tok == evname)
			continue;
		if (!pmc_same(tok, "period") && strncasecmp(tok, "period=", 7) &&
		    strncasecmp(tok, "name=", 5) &&
		    pmc_apply_term(cpu, tok, "term", spec, pa, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/*
 * A PERF-class event: "pmu/terms/" of a PMU other than the core one, or
 * tracepoint "sys:name" (pmu NULL, terms "sys:name").
 */
static int pmc_parse_perf(int machine, const char *pmu, const char *terms,
			  const char *spec, struct pmc_op_pmcallocate *pa,
			  struct pmc_evref *ev, char *err, size_t errlen)
{
	struct pmc_perf_pmu p;
	char sys[PMC_NAME_MAX * 2], *name;
	uint64_t id;

	if (machine && !pmc_have_perf())
		FAIL("'%s': %s '%s' is not counted by this hwpmc module (it has no PERF class: other perf PMUs, tracepoints)",
		     spec, pmu ? "PMU" : "tracepoint", pmu ? pmu : terms);
	ev->cl = PMC_CLASS_PERF;
	ev->code = PMC_EV_PERF;
	ev->enc = NULL;
	if (!pmu) {
		if (strlen(terms) >= sizeof(sys))
			FAIL("tracepoint name too long in '%s'", spec);
		strcpy(sys, terms);
		name = strchr(sys, ':');
		*name++ = '\0';
		if (pmc_perf_tracepoint(sys, name, &id, err, errlen) < 0) {
			errno = EINVAL;	/* an unknown event, as others */
			return -1;
		}
		pa->pm_md.pm_pmu.pm_type = 2;	/* PERF_TYPE_TRACEPOINT */
		pa->pm_md.pm_pmu.pm_config = id;
		return 0;
	}
	if (pmc_perf_pmu_load(pmu, &p) < 0)
		FAIL("no PMU '%s' in '%s' (none of that name under /sys/bus/event_source/devices)",
		     pmu, spec);
	if (!*terms)
		FAIL("no event terms in '%s'", spec);
	return pmc_perf_encode(&p, terms, spec, &pa->pm_md.pm_pmu, err,
			       errlen) < 0 ? -1 : 0;
}

/*
 * Hybrid Intel (decision 27): terms of "cpu_atom/terms/" with the events
 * of the E-cores' table (a companion of the core's, the JSON's "Unit":
 * "cpu_atom") replaced by their encodings, into out; 0, or -1 (err set).
 */
static int pmc_atom_terms(const struct pmc_pmu_cpu *cpu, const char *terms,
			  const char *spec, char *out, size_t outlen, char *err,
			  size_t errlen)
{
	int atom = pmc_pmu_atom_table(cpu->table), i;
	char copy[SPECMAX], *tok, *next;
	struct pmc_pmu_event ev;
	size_t n = 0;

	if (strlen(terms) >= sizeof(copy))
		FAIL("'%s' is too long", spec);
	strcpy(copy, terms);
	out[0] = '\0';
	for (tok = copy; tok; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		i = atom >= 0 && !strchr(tok, '=') ?
		    pmc_pmu_find(atom, tok) : -1;
		if (i >= 0 && pmc_pmu_event_at(atom, (unsigned int)i, &ev) == 0)
			tok = (char *)ev.enc;
		n += (size_t)snprintf(out + n, n < outlen ? outlen - n : 0,
				      "%s%s", n ? "," : "", tok);
		if (n >= outlen)
			FAIL("'%s' is too long", spec);
	}
	return 0;
}

/* libpfm4's modifiers hwpmc takes, and the perf terms they become */
static const struct { const char *mod, *term; } pmc_pfm_mods[] = {
	{ "c", "cmask" }, { "i", "inv" }, { "e", "edge" }, { "t", "any" },
	{ "ldlat", "ldlat" }, { "intx", "in_tx" }, { "intxcp", "in_tx_cp" },
};
#define PFM_MODS	"u, k, c, i, e, t, ldlat, intx, intxcp"

/*
 * libpfm4's spelling (decision 32), "[pmu::]EVENT[:UMASK][:mod[=v]]...",
 * of a vendor event of table: the event's index; the perf terms of the
 * modifiers c, i, e, t, ldlat, intx, intxcp in terms ("cmask=2,inv"), and
 * the modes of u and k in *modes (0: both, libpfm4's default).  -2 when
 * name is not libpfm4's (no "::", and no libpfm4 event of the table is
 * named by its first component), -1 with err set on an error.
 */
static int pmc_pfm_parse(int table, const char *name, const char *spec,
			 char *terms, size_t tlen, uint32_t *modes, char *err,
			 size_t errlen)
{
	char buf[SPECMAX], key[SPECMAX], umasks[400], *ev, *comp[16];
	char *eq, *dc;
	const char *pmus = pmc_pmu_pfm_pmus(table);
	int n = 0, i, j, idx, used, u = -1, k = -1, nmask;
	size_t off = 0;
	long v;

	terms[0] = '\0';
	*modes = 0;
	if (strlen(name) >= sizeof(buf))
		return -2;
	strcpy(buf, name);
	ev = buf;
	dc = strstr(buf, "::");
	if (dc) {
		*dc = '\0';
		ev = dc + 2;
		if (!*pmus)
			FAIL("libpfm4 PMU '%s' in '%s': no libpfm4 names for %s (hwpmc built without libpfm4, or libpfm4 has no such model)",
			     buf, spec, table < 0 ? "this CPU" :
			     pmc_pmu_table_name(table));
		if (!pmc_pmu_pfm_in(pmus, buf, strlen(buf)))
			FAIL("libpfm4 PMU '%s' in '%s' is not this CPU's (%s's: %s)",
			     buf, spec, pmc_pmu_table_name(table), pmus);
	} else if (!*pmus) {
		return -2;
	}
	for (comp[n++] = ev; n < (int)ARRAY_SIZE(comp) &&
	     (eq = strchr(comp[n - 1], ':')); n++) {
		*eq = '\0';
		comp[n] = eq + 1;
	}
	if (strchr(comp[n - 1], ':'))
		FAIL("too many libpfm4 attributes in '%s'", spec);
	if (!*comp[0])
		FAIL("no libpfm4 event in '%s'", spec);
	/* a vendor event spelt as perf does, with perf's modifiers, is perf's */
	if (!dc && pmc_pmu_find_exact(table, comp[0]) >= 0 &&
	    (n == 1 || (n == 2 && *comp[1] &&
			strspn(comp[1], "ukpUKP") == strlen(comp[1]))))
		return -2;
	idx = -1;
	used = 1;
	if (n >= 2) {
		snprintf(key, sizeof(key), "%s:%s", comp[0], comp[1]);
		idx = pmc_pmu_pfm_find(table, key);
		used = 2;
	}
	nmask = pmc_pmu_pfm_umasks(table, comp[0], umasks, sizeof(umasks));
	if (idx < 0) {
		used = 1;
		idx = pmc_pmu_pfm_find(table, comp[0]);
	}
	if (idx < 0 && !nmask) {
		if (!dc)
			return -2;
		FAIL("unknown libpfm4 event '%s' in '%s' (no event of %s's %s table has a libpfm4 name of that; hwpmc-control -L -v lists them)",
		     comp[0], spec, pmus, pmc_pmu_table_name(table));
	}
	if (idx < 0 && n < 2)
		FAIL("libpfm4 event '%s' in '%s' needs a unit mask here (those with an event of the same encoding: %s)",
		     comp[0], spec, umasks);
	if (idx < 0)
		FAIL("unknown libpfm4 unit mask '%s' of %s in '%s' (those with an event of the same encoding: %s)",
		     comp[1], comp[0], spec, umasks);
	for (i = used; i < n; i++) {
		eq = strchr(comp[i], '=');
		if (eq)
			*eq++ = '\0';
		if (!strcasecmp(comp[i], "u") || !strcasecmp(comp[i], "k")) {
			if (eq && strcmp(eq, "0") && strcmp(eq, "1"))
				FAIL("bad value '%s' of libpfm4 modifier '%s' in '%s' (0 or 1)",
				     eq, comp[i], spec);
			*(tolower((unsigned char)comp[i][0]) == 'u' ? &u : &k) =
				!eq || *eq == '1';
			continue;
		}
		for (j = 0; j < (int)ARRAY_SIZE(pmc_pfm_mods); j++)
			if (!strcasecmp(comp[i], pmc_pfm_mods[j].mod))
				break;
		if (j < (int)ARRAY_SIZE(pmc_pfm_mods)) {
			if (eq && !*eq)
				FAIL("no value of libpfm4 modifier '%s' in '%s'",
				     comp[i], spec);
			if (!strcmp(pmc_pfm_mods[j].mod, "c") ||
			    !strcmp(pmc_pfm_mods[j].mod, "ldlat")) {
				if (!eq)
					FAIL("libpfm4 modifier '%s' in '%s' needs a value ('%s=2')",
					     comp[i], spec, comp[i]);
			} else if (eq && strcmp(eq, "0") && strcmp(eq, "1")) {
				FAIL("bad value '%s' of libpfm4 modifier '%s' in '%s' (0 or 1)",
				     eq, comp[i], spec);
			}
			v = snprintf(terms + off, tlen - off, "%s%s%s%s",
				     off ? "," : "", pmc_pfm_mods[j].term,
				     eq ? "=" : "", eq ? eq : "");
			if (v < 0 || (size_t)v >= tlen - off)
				FAIL("'%s' is too long", spec);
			off += (size_t)v;
			continue;
		}
		snprintf(key, sizeof(key), "%s:%s", comp[0], comp[i]);
		if (pmc_pmu_pfm_find(table, key) >= 0)
			FAIL("'%s' in '%s': libpfm4 names with more than one unit mask are no aliases (an alias names one event of the table)",
			     comp[i], spec);
		FAIL("unknown libpfm4 attribute '%s' of %s in '%s' (unit masks: %s; modifiers: " PFM_MODS ")",
		     comp[i], comp[0], spec, nmask ? umasks : "none");
	}
	/* as libpfm4: u and k as given, the one not given off */
	if (u >= 0 || k >= 0)
		*modes = (u > 0 ? PMC_CAP_USER : 0) | (k > 0 ? PMC_CAP_SYSTEM : 0);
	if ((u >= 0 || k >= 0) && !*modes)
		FAIL("'%s' counts in neither user nor kernel mode", spec);
	return idx;
}

/*
 * Is name ("sys:event[:modifiers]") a tracepoint rather than an event
 * with modifiers?  When what follows the ':' is not modifier letters,
 * and what precedes it can be a tracefs system (lower case, digits, '_')
 * and names no event hwpmc knows ("cpu-clock:x" is a bad modifier).
 */
static int pmc_tracepoint_form(const char *name, int table)
{
	const char *colon = strchr(name, ':');
	size_t n, m;
	char sys[PMC_NAME_MAX];
	struct pmc_evref r;

	if (!colon || !colon[1])
		return 0;
	n = strcspn(colon + 1, ":");
	if (strspn(colon + 1, "ukpUK") >= n)
		return 0;
	m = (size_t)(colon - name);
	if (!m || m >= sizeof(sys) ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") < m)
		return 0;
	memcpy(sys, name, m);
	sys[m] = '\0';
	return !pmc_find_known(sys, &r) && !pmc_alias(sys) &&
	       pmc_pmu_find(table, sys) < 0;
}

/*
 * The parser: spec into pa, among this machine's events if machine; the
 * modes spec names (PMC_CAP_USER, PMC_CAP_SYSTEM) into *named.
 */
static int pmc_parse(const char *spec, int machine,
		     struct pmc_op_pmcallocate *pa, uint32_t *named,
		     char *err, size_t errlen)
{
	char buf[SPECMAX], *name, *mod = NULL, *tok, *next, *slash, *comma;
	char *tp = NULL, pfmname[SPECMAX], pfmterms[SPECMAX] = "";
	int pfm = -2;
	struct pmc_evref ev = { 0 };
	struct pmc_pmu_cpu cpu;
	uint32_t cl = 0, modes = 0, precise = 0;
	int raw = 0, have_config = 0;
	uint64_t v;

	if (!spec || !*spec)
		FAIL("empty event specifier");
	if (strlen(spec) >= sizeof(buf))
		FAIL("event specifier too long (at most %zu characters)",
		     sizeof(buf) - 1);
	strcpy(buf, spec);
	memset(pa, 0, sizeof(*pa));
	pmc_pmu_current(&cpu);

	name = buf;
	slash = strchr(buf, '/');
	comma = strchr(buf, ',');
	if (slash && (!comma || comma > slash)) {
		/* perf's "pmu/terms/[:]modifiers", then FreeBSD qualifiers */
		char *close = strchr(slash + 1, '/');

		if (!close)
			FAIL("no closing '/' in '%s'", spec);
		*slash = *close = '\0';
		next = strchr(close + 1, ',');
		if (next)
			*next++ = '\0';
		mod = close + 1;
		if (*mod == ':') {
			mod++;
			if (!*mod)
				FAIL("empty modifier in '%s' (valid: u, k, p)",
				     spec);
		}
		if (!*mod)
			mod = NULL;
	} else {
		slash = NULL;
		next = comma;
		if (next)
			*next++ = '\0';
		if (!*name)
			FAIL("no event in '%s'", spec);
		mod = strchr(name, ':');
		/* libpfm4's "[pmu::]EVENT:UMASK:u" (decision 32) */
		pfm = mod ? pmc_pfm_parse(cpu.table, name, spec, pfmterms,
					  sizeof(pfmterms), &modes, err,
					  errlen) : -2;
		if (pfm == -1)
			return -1;
		if (pfm >= 0) {
			struct pmc_pmu_event pe;

			if (pmc_pmu_event_at(cpu.table, (unsigned int)pfm,
					     &pe) < 0 ||
			    strlen(pe.name) >= sizeof(pfmname))
				FAIL("libpfm4 name '%s': no event", spec);
			strcpy(pfmname, pe.name);
			name = pfmname;
			mod = NULL;
		}
		/* perf's tracepoints, "sys:name[:modifiers]" */
		if (mod && pmc_tracepoint_form(name, cpu.table)) {
			tp = name;
			mod = strchr(mod + 1, ':');
		}
		/* perf's modifiers: ":u", ":k", ":uk", ":p" */
		if (mod) {
			*mod++ = '\0';
			if (!*mod)
				FAIL("empty modifier in '%s' (valid: u, k, p)",
				     spec);
		}
	}
	for (tok = mod; tok && *tok; tok++) {
		if (*tok == 'u' || *tok == 'U')
			modes |= PMC_CAP_USER;
		else if (*tok == 'k' || *tok == 'K')
			modes |= PMC_CAP_SYSTEM;
		else if (*tok == 'p' && precise < 3)
			precise++;
		else
			FAIL("unknown modifier ':%s' in '%s' (valid: u, k, p)",
			     mod, spec);
	}

	if (tp) {
		if (pmc_parse_perf(machine, NULL, tp, spec, pa, &ev, err,
				   errlen) < 0)
			return -1;
		goto qualifiers;
	}
	if (slash && !pmc_core_pmu(&cpu, name)) {
		char atom[SPECMAX];
		const char *terms = slash + 1;

		/* hybrid: cpu_atom/VENDOR_NAME/, from the E-cores' table */
		if (!strcmp(name, "cpu_atom")) {
			if (pmc_atom_terms(&cpu, terms, spec, atom,
					   sizeof(atom), err, errlen) < 0)
				return -1;
			terms = atom;
		}
		if (pmc_parse_perf(machine, name, terms, spec, pa, &ev,
				   err, errlen) < 0)
			return -1;
		goto qualifiers;
	}
	if (slash) {
		if (pmc_parse_pmu_form(machine, &cpu, name, slash + 1, spec,
				       pa, &ev, err, errlen) < 0)
			return -1;
		raw = ev.code == PMC_EV_PMU_RAW;
		have_config = 1;
		goto qualifiers;
	}
	if (pmc_prefix(name, "SOFT-") && name[5]) {
		cl = PMC_CLASS_SOFT;
		name += 5;
	} else if (pmc_prefix(name, "PMU-") && name[4]) {
		cl = PMC_CLASS_PMU;
		name += 4;
	} else if ((pmc_prefix(name, "IAP-") || pmc_prefix(name, "IAF-")) &&
		   name[4] && pmc_pmu_find(cpu.table, name + 4) >= 0) {
		cl = PMC_CLASS_PMU;	/* FreeBSD's Intel classes */
		name += 4;
	} else if (pmc_prefix(name, "K8-") && name[3] &&
		   pmc_pmu_find(cpu.table, name + 3) >= 0) {
		cl = PMC_CLASS_PMU;	/* FreeBSD's AMD class */
		name += 3;
	}

	if (pmc_raw_code(name, &v)) {
		pa->pm_md.pm_pmu.pm_config = v;
		raw = 1;
		have_config = 1;
	} else if (pmc_same(name, "raw")) {
		raw = 1;
	}
	if (raw) {
		if (cl && cl != PMC_CLASS_PMU)
			FAIL("raw event '%s' is of class PMU, not SOFT", name);
		if (machine && !pmc_find_avail("raw", &ev))
			FAIL("raw event '%s' is not available on this machine%s",
			     name, pmc_have_pmu() ? "" : " (no hardware PMU)");
		ev.cl = PMC_CLASS_PMU;
		ev.code = PMC_EV_PMU_RAW;
	} else if (pmc_lookup(machine, name, name, cl, &ev, err, errlen) < 0) {
		int atom = pmc_pmu_atom_table(cpu.table), i;
		struct pmc_pmu_event ae;
		char enc[SPECMAX];

		/* hybrid: an event of the E-cores only is cpu_atom's */
		i = atom >= 0 && !cl ? pmc_pmu_find(atom, name) : -1;
		if (i < 0 || pmc_pmu_event_at(atom, (unsigned int)i, &ae) < 0)
			return -1;
		snprintf(enc, sizeof(enc), "%s", ae.enc);
		if (pmc_parse_perf(machine, "cpu_atom", enc, spec, pa, &ev,
				   err, errlen) < 0)
			return -1;
	} else if (ev.enc) {
		if (pmc_apply_vendor(&cpu, &ev, name, pa, err, errlen) < 0)
			return -1;
		raw = 1;
		have_config = 1;
	}
	/* libpfm4's modifiers c, i, e, t, ...: perf terms over the event's */
	for (tok = pfm >= 0 && pfmterms[0] ? pfmterms : NULL; tok; tok = comma) {
		comma = strchr(tok, ',');
		if (comma)
			*comma++ = '\0';
		if (pmc_apply_term(&cpu, tok, "libpfm4 modifier term", spec, pa, err,
				   errlen) < 0)
			return -1;
	}
qualifiers:
	pa->pm_class = ev.cl;
	pa->pm_ev = ev.code;
	pa->pm_cpu = PMC_CPU_ANY;

	for (tok = next; tok; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		if (!*tok) {
			FAIL("empty qualifier in '%s'", spec);
		} else if (pmc_same(tok, "usr") || pmc_same(tok, "user")) {
			modes |= PMC_CAP_USER;
		} else if (pmc_same(tok, "os") || pmc_same(tok, "sys") ||
			   pmc_same(tok, "system") || pmc_same(tok, "kernel")) {
			modes |= PMC_CAP_SYSTEM;
		} else if (raw) {
			if (pmc_apply_term(&cpu, tok, "qualifier", spec, pa, err,
					   errlen) < 0)
				return -1;
			have_config = 1;
		} else {
			FAIL("unknown qualifier '%s' in '%s' (valid: usr, os; encoding qualifiers such as umask= or edge need a vendor or raw event)",
			     tok, spec);
		}
	}
	if (raw && !have_config)
		FAIL("raw event needs a code: 'r<hex>' or 'raw,config=<n>'");
	if (precise && ev.cl != PMC_CLASS_PMU)
		FAIL("modifier ':p' in '%s' needs a PMU event", spec);
	/* both modes named: that is the default, counting both */
	if (modes != (PMC_CAP_USER | PMC_CAP_SYSTEM))
		pa->pm_caps = modes;
	if (precise) {
		pa->pm_caps |= PMC_CAP_PRECISE;
		pa->pm_md.pm_pmu.pm_precise = precise;	/* perf's precise_ip */
	}
	*named = modes;
	err[0] = '\0';
	return 0;
}

int pmc_parse_spec_events(const char *spec, enum pmc_spec_events events,
			  struct pmc_spec *ps, char *err, size_t errlen)
{
	if (!ps || !err || !errlen ||
	    (events != PMC_SPEC_KNOWN && events != PMC_SPEC_MACHINE)) {
		errno = EINVAL;
		return -1;
	}
	memset(ps, 0, sizeof(*ps));
	if (events == PMC_SPEC_MACHINE && pmc_lib.fd < 0) {
		snprintf(err, errlen, "pmc_init() has not succeeded");
		errno = ENXIO;
		return -1;
	}
	return pmc_parse(spec, events == PMC_SPEC_MACHINE, &ps->ps_pa,
			 &ps->ps_modes, err, errlen);
}

int pmc_parse_spec(const char *spec, struct pmc_op_pmcallocate *pa,
		   char *err, size_t errlen)
{
	uint32_t named;

	if (!pa || !err || !errlen) {
		errno = EINVAL;
		return -1;
	}
	return pmc_parse(spec, pmc_lib.fd >= 0, pa, &named, err, errlen);
}
