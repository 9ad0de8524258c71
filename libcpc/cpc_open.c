// SPDX-License-Identifier: BSD-2-Clause
/*
 * libcpc: cpc_open(3CPC), cpc_npic(3CPC), cpc_seterrhndlr(3CPC); the
 * event and attribute walks.
 *
 * A cpc_t stands for libhwpmc initialised (pmc_init()): the first handle
 * opened initialises it unless the program already had, the last one
 * closed finalises it if a handle had initialised it.  Events are the
 * machine's events of every class (pmc_event_names_of_class(): perf's
 * names and the CPU's vendor events); generic events are the PAPI names
 * of libhwpmc's alias table (pmc_event_alias()) whose event this machine
 * has.  The counters (cpc_npic()) are the rows of the PMU class, or of
 * the SOFT class on a machine without one; perf chooses the physical
 * counter, so every counter counts every event.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cpc_impl.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * The attributes: "picnum" (illumos' generic one: which counter; perf
 * chooses it here, so it is only checked), and on x86 the core PMU's
 * format terms, which libhwpmc takes as qualifiers of raw and vendor
 * events.
 */
const struct cpc_attr_def cpc_attr_defs[] = {
	{ "picnum", 0, NULL },		/* max: cpc_npic() - 1 */
	/* SMPL's: a handle opened with CPC_VER_CURRENT only (cpc_smpl.c) */
	{ CPC_SMPL_NRECS, CPC_SMPL_MAX_RECS, NULL },
	{ CPC_SMPL_REGS, 1, NULL },	/* where cpc_smpl_nregs */
#if defined(__x86_64__) || defined(__i386__)
	{ "umask", 0xff, "umask" },
	{ "cmask", 0xff, "cmask" },
	{ "inv", 1, "inv" },
	{ "edge", 1, "edge" },
#endif
};
const unsigned int cpc_nattr_defs = ARRAY_SIZE(cpc_attr_defs);

static pthread_mutex_t cpc_mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

int cpc_lock(void)
{
	pthread_mutex_lock(&cpc_mutex);
	return 0;
}

void cpc_unlock_guard(int *guard)
{
	int saved = errno;

	(void)guard;
	pthread_mutex_unlock(&cpc_mutex);
	errno = saved;
}

/* libhwpmc initialised by cpc_open(): how many handles, and whether by us */
static int cpc_handles;
static int cpc_inited_pmc;

uint_t cpc_class_rows(uint32_t cl)
{
	const struct pmc_cpuinfo *ci;
	uint32_t i;

	if (pmc_cpuinfo(&ci) < 0)
		return 0;
	for (i = 0; i < ci->pm_nclass; i++)
		if ((uint32_t)ci->pm_classes[i].pm_class == cl)
			return ci->pm_classes[i].pm_num;
	return 0;
}

static void cpc_describe(cpc_t *cpc)
{
	const struct pmc_cpuinfo *ci;
	const char *model, *cpuid, *cputype;
	uint_t pmu = cpc_class_rows(PMC_CLASS_PMU);

	cpc->npic = pmu ? pmu : cpc_class_rows(PMC_CLASS_SOFT);
	/* overflow signals (PMC_F_NOTIFY), not telling which request */
	cpc->caps = cpc->npic ? CPC_CAP_OVERFLOW_INTERRUPT : 0;
	model = pmc_pmu_model();
	cpuid = pmc_pmu_cpuid();
	cputype = pmc_cpuinfo(&ci) == 0 ? pmc_name_of_cputype(ci->pm_cputype) : NULL;
	if (pmu)
		snprintf(cpc->cciname, sizeof(cpc->cciname),
			 "hwpmc PMU (%s%s%s)", cputype ? cputype : "unknown CPU",
			 model ? ", " : "", model ? model : "");
	else
		snprintf(cpc->cciname, sizeof(cpc->cciname),
			 "hwpmc software events (no PMU)");
	snprintf(cpc->cpuref, sizeof(cpc->cpuref),
		 "See pmc(3) for the event names (perf's, the generic PAPI names of "
		 "generic_events(3CPC)) and hwpmc-control -L for this machine's list; "
		 "for the vendor events of CPU %s%s%s, the processor vendor's "
		 "performance monitoring manual (Intel SDM volume 3B, AMD's PPR, "
		 "Arm's technical reference manual of the core).",
		 cpuid ? cpuid : "(unknown)", model ? ", Linux pmu-events table " : "",
		 model ? model : "");
}

cpc_t *cpc_open(int ver)
{
	CPC_LOCKED;
	cpc_t *cpc;
	int inited = 0;

	if (ver != CPC_VER_CURRENT && ver != CPC_VER_CPC_ONLY) {
		errno = EINVAL;
		return NULL;
	}
	cpc = calloc(1, sizeof(*cpc));
	if (!cpc)
		return NULL;
	if (pmc_ncpu() < 0) {		/* libhwpmc not initialised yet */
		if (pmc_init() < 0) {
			int err = errno;

			free(cpc);
			errno = err;
			return NULL;
		}
		inited = 1;
	}
	if (inited)
		cpc_inited_pmc = 1;
	cpc_handles++;
	cpc_describe(cpc);
	/* SMPL: hwpmc's sampling PMCs, of every class that has rows */
	cpc->smpl = ver == CPC_VER_CURRENT && cpc->npic;
	return cpc;
}

int cpc_close(cpc_t *cpc)
{
	CPC_LOCKED;
	int saved = errno;

	if (!cpc)
		return 0;
	while (cpc->sets)
		cpc_set_destroy(cpc, cpc->sets);
	while (cpc->bufs)
		cpc_buf_destroy(cpc, cpc->bufs);
	free(cpc);
	if (--cpc_handles == 0 && cpc_inited_pmc) {
		pmc_fini();
		cpc_inited_pmc = 0;
	}
	errno = saved;
	return 0;
}

void cpc_terminate(cpc_t *cpc)
{
	(void)cpc;
	pctx_terminate_all();	/* libpctx's event loops return */
}

uint_t cpc_npic(cpc_t *cpc)
{
	return cpc ? cpc->npic : 0;
}

uint_t cpc_caps(cpc_t *cpc)
{
	return cpc ? cpc->caps : 0;
}

const char *cpc_cciname(cpc_t *cpc)
{
	return cpc ? cpc->cciname : "";
}

const char *cpc_cpuref(cpc_t *cpc)
{
	return cpc ? cpc->cpuref : "";
}

/* ---- errors ---- */

int cpc_seterrhndlr(cpc_t *cpc, cpc_errhndlr_t *fn)
{
	CPC_LOCKED;
	if (!cpc) {
		errno = EINVAL;
		return -1;
	}
	cpc->errfn = fn;
	return 0;
}

/* The default handler: "libcpc: <function>: <message>" on stderr. */
static void cpc_err_default(const char *fn, int subcode, const char *fmt,
			    va_list ap)
{
	(void)subcode;
	fprintf(stderr, "libcpc: %s: ", fn);
	vfprintf(stderr, fmt, ap);
}

void cpc_err(cpc_t *cpc, const char *fn, int subcode, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	if (cpc && cpc->errfn)
		cpc->errfn(fn, subcode, fmt, ap);
	else
		cpc_err_default(fn, subcode, fmt, ap);
	va_end(ap);
	errno = saved;
}

/* ---- walks ---- */

/* Call fn for every event of every class of this machine but "raw", "perf". */
static int cpc_each_event(void (*fn)(const char *name, void *ctx), void *ctx)
{
	const struct pmc_cpuinfo *ci;
	const char **names;
	uint32_t i;
	int n, j, any = 0;

	if (pmc_cpuinfo(&ci) < 0)
		return -1;
	for (i = 0; i < ci->pm_nclass; i++) {
		if (pmc_event_names_of_class(ci->pm_classes[i].pm_class,
					     &names, &n) < 0)
			continue;
		for (j = 0; j < n; j++) {
			/*
			 * raw needs an encoding: cpc takes a number instead;
			 * perf (the PERF class's) needs a perf type
			 */
			if (strcmp(names[j], "raw") == 0 ||
			    strcmp(names[j], "perf") == 0)
				continue;
			fn(names[j], ctx);
			any = 1;
		}
		free(names);
	}
	return any ? 0 : -1;
}

/* Call fn for every generic (PAPI) event this machine has. */
static void cpc_each_generic(void (*fn)(const char *name, void *ctx), void *ctx)
{
	const char *alias;
	struct pmc_spec ps;
	char err[256];
	int i;

	for (i = 0; pmc_event_alias(i, &alias, NULL) == 0; i++) {
		if (strncmp(alias, "PAPI_", 5) != 0)
			continue;
		if (pmc_parse_spec_events(alias, PMC_SPEC_MACHINE, &ps, err,
					  sizeof(err)) < 0)
			continue;
		fn(alias, ctx);
	}
}

struct cpc_walk_ctx {
	void		*arg;
	uint_t		 picno;
	void		(*all)(void *arg, const char *event);
	void		(*pic)(void *arg, uint_t picno, const char *event);
};

static void cpc_walk_one(const char *name, void *ctx)
{
	struct cpc_walk_ctx *w = ctx;

	if (w->all)
		w->all(w->arg, name);
	else
		w->pic(w->arg, w->picno, name);
}

/*
 * The four event walks: w's action for each event (generic: each
 * generic_events(3CPC) name); EINVAL for no handle, no action or (pic)
 * a counter the processor does not have.
 */
static void cpc_walk(cpc_t *cpc, struct cpc_walk_ctx *w, int pic, int generic)
{
	CPC_LOCKED;

	if (!cpc || !(w->all || w->pic) || (pic && w->picno >= cpc->npic)) {
		errno = EINVAL;
		return;
	}
	if (generic)
		cpc_each_generic(cpc_walk_one, w);
	else
		cpc_each_event(cpc_walk_one, w);
}

void cpc_walk_events_all(cpc_t *cpc, void *arg,
			 void (*action)(void *arg, const char *event))
{
	struct cpc_walk_ctx w = { arg, 0, action, NULL };

	cpc_walk(cpc, &w, 0, 0);
}

void cpc_walk_events_pic(cpc_t *cpc, uint_t picno, void *arg,
			 void (*action)(void *arg, uint_t picno,
					const char *event))
{
	struct cpc_walk_ctx w = { arg, picno, NULL, action };

	cpc_walk(cpc, &w, 1, 0);
}

void cpc_walk_generic_events_all(cpc_t *cpc, void *arg,
				 void (*action)(void *arg, const char *event))
{
	struct cpc_walk_ctx w = { arg, 0, action, NULL };

	cpc_walk(cpc, &w, 0, 1);
}

void cpc_walk_generic_events_pic(cpc_t *cpc, uint_t picno, void *arg,
				 void (*action)(void *arg, uint_t picno,
						const char *event))
{
	struct cpc_walk_ctx w = { arg, picno, NULL, action };

	cpc_walk(cpc, &w, 1, 1);
}

void cpc_walk_attrs(cpc_t *cpc, void *arg,
		    void (*action)(void *arg, const char *attr))
{
	CPC_LOCKED;
	unsigned int i;

	if (!cpc || !action) {
		errno = EINVAL;
		return;
	}
	for (i = 0; i < cpc_nattr_defs; i++) {
		if (!cpc_attr_shown(cpc, &cpc_attr_defs[i]))
			continue;
		action(arg, cpc_attr_defs[i].name);
	}
}

int cpc_attr_shown(cpc_t *cpc, const struct cpc_attr_def *d)
{
	if (strcmp(d->name, CPC_SMPL_NRECS) == 0)
		return cpc->smpl;
	if (strcmp(d->name, CPC_SMPL_REGS) == 0)
		return cpc->smpl && cpc_smpl_nregs;
	return 1;
}
