// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: the machine-dependent layer.
 *
 * FreeBSD's hwpmc_<class>.c program counters directly; here perf owns
 * the PMU, so the classes are built from what perf offers on this
 * machine.  At load every candidate event (include/hwpmc_events.h) is
 * probed by creating a disabled kernel counter on the loading task: the
 * event exists if that succeeds, and its capabilities are what further
 * probes accept (sampling, user-only, kernel-only).  Classes:
 *
 *   SOFT  perf's software events; always present; `softevents` rows.
 *   PMU   the CPU's PMU: generic hardware, cache and raw events; present
 *         when at least one hardware event exists; one row per hardware
 *         counter.
 *   PERF  any other perf PMU by type (uncore, power, msr, cstate,
 *         arm_dsu, ..., a second core PMU of some CPUs: hybrid Intel's
 *         cpu_atom) and tracepoints: one event, PMC_EV_PERF, whose
 *         type and configuration the PMC carries; 16 rows (fewer when
 *         the others leave the PMC ids' 256 less room).
 *         What kind of PMU a type is, perf says at allocation
 *         (hwpmc_md_perf_probe()).
 *
 * It is also the one perf layer: every perf call on counters (create,
 * enable, disable, read, period, release), every look into perf's
 * structures (states, contexts and their pins, copies, the PMU's read)
 * and the overflow handler perf calls, which hands the counter's PMC
 * to the core's entry given at load.  The rest of the module holds
 * counters as opaque handles.  Nothing here knows of owners or targets.
 */
#define pr_fmt(fmt) "hwpmc: " fmt

#include <linux/kernel.h>
#include <linux/cred.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/err.h>
#include <linux/trace_events.h>

#include "compat.h"
#include "hwpmc_internal.h"
#include "hwpmc_backend.h"
#include <hwpmc_events.h>
#include <hwpmc_allocate.h>

#if defined(CONFIG_X86)
#include <asm/cpufeature.h>
#include <asm/perf_event.h>
#define HWPMC_CPUTYPE		PMC_CPU_LINUX_X86
#define HWPMC_RAW_PROBE_CONFIG	0x3c	/* unhalted core cycles */
#elif defined(CONFIG_ARM64)
#include <asm/sysreg.h>
#define HWPMC_CPUTYPE		PMC_CPU_LINUX_ARM64
#define HWPMC_RAW_PROBE_CONFIG	0x11	/* CPU_CYCLES */
#else
#define HWPMC_CPUTYPE		PMC_CPU_LINUX_OTHER
#endif

#define HWPMC_PROBE_PERIOD	10000000ULL
#define HWPMC_PMU_ROWS_DEFAULT	4	/* when the PMU can't say */
#define HWPMC_PERF_ROWS		16	/* the PERF class's rows */
#define HWPMC_ROWS_MAX		256	/* a PMC id's row index: 8 bits */

struct hwpmc_mdep hwpmc_md;

/* The kernel's credentials, for CPU-wide counters (hwpmc_md_create()). */
static const struct cred *hwpmc_kcred;

/*
 * The perf type of the PMU class's PMU, the one that perf gives the PMU
 * class's counters (PERF_TYPE_RAW's: hybrid Intel's cpu_core, arm64's
 * first PMU), found at load; -1 when there is none.
 */
static int hwpmc_core_type = -1;

/* The core's overflow entry (hwpmc_sample.c), given at load. */
static hwpmc_overflow_fn hwpmc_md_overflow_fn;
static hwpmc_overflow_fn hwpmc_md_koverflow_fn;	/* pmc(9)'s profiling */

struct hwpmc_candidate {
	u32	code;
	u32	type;
	u64	config;
};

/* A disabled counter with this attribute on the current task, or NULL. */
static struct perf_event *hwpmc_probe_create(struct perf_event_attr *attr)
{
	struct perf_event *ev;

	attr->size = sizeof(*attr);
	attr->disabled = 1;
	ev = perf_event_create_kernel_counter(attr, -1, current, NULL, NULL);
	return IS_ERR(ev) ? NULL : ev;
}

/* Can a counter with this attribute be created?  (Released at once.) */
static bool hwpmc_probe_attr(u32 type, u64 config,
			     void (*set)(struct perf_event_attr *attr))
{
	struct perf_event_attr attr = { .type = type, .config = config };
	struct perf_event *ev;

	set(&attr);
	ev = hwpmc_probe_create(&attr);
	if (ev)
		perf_event_release_kernel(ev);
	return ev;
}

static void hwpmc_probe_sampling(struct perf_event_attr *attr)
{
	attr->sample_period = HWPMC_PROBE_PERIOD;
}

static void hwpmc_probe_user(struct perf_event_attr *attr)
{
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

static void hwpmc_probe_system(struct perf_event_attr *attr)
{
	attr->exclude_user = 1;
}

static void hwpmc_probe_precise(struct perf_event_attr *attr)
{
	attr->sample_period = HWPMC_PROBE_PERIOD;
	attr->precise_ip = 1;
}

/*
 * The PMC_CAP_* of an event, 0 when the machine does not have it.  The
 * first counter stays until the other probes are done: creating and
 * releasing a software counter flips a static key (kernel text patching)
 * when it is the only one of its event, and one flip per event is enough.
 */
static u32 hwpmc_probe_event(u32 type, u64 config)
{
	struct perf_event_attr attr = { .type = type, .config = config };
	struct perf_event *held = hwpmc_probe_create(&attr);
	u32 caps;

	if (!held)
		return 0;
	/* values are read and written through the module's own offset */
	caps = PMC_CAP_READ | PMC_CAP_WRITE;
	if (type != PERF_TYPE_SOFTWARE && hwpmc_core_type < 0)
		hwpmc_core_type = held->pmu->type;
	if (hwpmc_probe_attr(type, config, hwpmc_probe_sampling))
		caps |= PMC_CAP_INTERRUPT;
	if (hwpmc_probe_attr(type, config, hwpmc_probe_user))
		caps |= PMC_CAP_USER;
	if (hwpmc_probe_attr(type, config, hwpmc_probe_system))
		caps |= PMC_CAP_SYSTEM;
	/*
	 * Precise events (PEBS): x86's PMU refuses a precise_ip it cannot
	 * honour (EOPNOTSUPP); arm64's and the software PMU ignore it, so
	 * they are not asked.
	 */
	if (IS_ENABLED(CONFIG_X86) && type != PERF_TYPE_SOFTWARE &&
	    hwpmc_probe_attr(type, config, hwpmc_probe_precise))
		caps |= PMC_CAP_PRECISE;
	perf_event_release_kernel(held);
	return caps;
}

/* Probe candidates; fill cl->events with those the machine has. */
static int hwpmc_probe_class(struct hwpmc_class *cl,
			     const struct hwpmc_candidate *cand, u32 ncand)
{
	struct hwpmc_event *ev;
	u32 i, caps;

	cl->events = kcalloc(ncand, sizeof(*cl->events), GFP_KERNEL);
	if (!cl->events)
		return -ENOMEM;
	for (i = 0; i < ncand; i++) {
		caps = hwpmc_probe_event(cand[i].type, cand[i].config);
		if (!caps)
			continue;
		ev = &cl->events[cl->nevents++];
		ev->code = cand[i].code;
		ev->caps = caps;
		ev->perf_type = cand[i].type;
		ev->perf_config = cand[i].config;
		if (hwpmc_event_name(ev->code, ev->name, sizeof(ev->name)))
			snprintf(ev->name, sizeof(ev->name), "event-%#x",
				 ev->code);
		cl->caps |= caps;
	}
	return 0;
}

/* Candidates from one table of include/hwpmc_events.h. */
static u32 hwpmc_candidates(struct hwpmc_candidate *cand,
			    const struct hwpmc_event_def *defs, u32 n,
			    u32 first, u32 type)
{
	u32 i;

	for (i = 0; i < n; i++) {
		cand[i].code = first + defs[i].config;
		cand[i].type = type;
		cand[i].config = defs[i].config;
	}
	return n;
}

static int hwpmc_soft_init(struct hwpmc_class *cl)
{
	struct hwpmc_candidate cand[ARRAY_SIZE(hwpmc_soft_events)];
	u32 n;

	n = hwpmc_candidates(cand, hwpmc_soft_events,
			     ARRAY_SIZE(hwpmc_soft_events),
			     PMC_EV_SOFT_FIRST, PERF_TYPE_SOFTWARE);
	cl->class = PMC_CLASS_SOFT;
	cl->name = "SOFT";
	cl->width = 64;
	cl->num = hwpmc_softevents;
	return hwpmc_probe_class(cl, cand, n);
}

/* Number of hardware counters, as the PMU reports it. */
static u32 hwpmc_pmu_rows(void)
{
#if defined(CONFIG_X86)
	struct x86_pmu_capability cap = { 0 };

	/* perf warns and says nothing on hybrid CPUs (two core types) */
	if (cpu_feature_enabled(X86_FEATURE_HYBRID_CPU))
		return HWPMC_PMU_ROWS_DEFAULT;
	perf_get_x86_pmu_capability(&cap);
	if (cap.num_counters_gp > 0)
		return cap.num_counters_gp + max(cap.num_counters_fixed, 0);
#elif defined(CONFIG_ARM64)
	u64 dfr0 = read_sysreg(id_aa64dfr0_el1);
	u32 pmuver = (dfr0 >> 8) & 0xf, n;

	/*
	 * Only PMUv3 (1..14; 0 is none, 15 implementation defined) has
	 * PMCR_EL0.N event counters; add the cycle counter.
	 */
	if (pmuver >= 1 && pmuver <= 14) {
		n = (read_sysreg(pmcr_el0) >> 11) & 0x1f;
		if (n)
			return n + 1;
	}
#endif
	return HWPMC_PMU_ROWS_DEFAULT;
}

static int hwpmc_pmu_init(struct hwpmc_class *cl)
{
	struct hwpmc_candidate *cand;
	u32 n, c, op, res;
	int error;

	cand = kcalloc(ARRAY_SIZE(hwpmc_hw_events) + HWPMC_NCACHE *
		       HWPMC_NCACHEOP * HWPMC_NCACHERES + 1, sizeof(*cand),
		       GFP_KERNEL);
	if (!cand)
		return -ENOMEM;
	n = hwpmc_candidates(cand, hwpmc_hw_events,
			     ARRAY_SIZE(hwpmc_hw_events),
			     PMC_EV_PMU_HW_FIRST, PERF_TYPE_HARDWARE);
	for (c = 0; c < HWPMC_NCACHE; c++)
		for (op = 0; op < HWPMC_NCACHEOP; op++)
			for (res = 0; res < HWPMC_NCACHERES; res++) {
				cand[n].code = PMC_EV_PMU_CACHE(c, op, res);
				cand[n].type = PERF_TYPE_HW_CACHE;
				cand[n].config = HWPMC_CACHE_CONFIG(cand[n].code);
				n++;
			}
#ifdef HWPMC_RAW_PROBE_CONFIG
	cand[n].code = PMC_EV_PMU_RAW;
	cand[n].type = PERF_TYPE_RAW;
	cand[n].config = HWPMC_RAW_PROBE_CONFIG;
	n++;
#endif
	cl->class = PMC_CLASS_PMU;
	cl->name = "PMU";
	cl->width = 64;
	error = hwpmc_probe_class(cl, cand, n);
	kfree(cand);
	if (error)
		return error;
	cl->num = cl->nevents ? hwpmc_pmu_rows() : 0;
	return 0;
}

/*
 * The PERF class: one event; the capabilities are the most any PMU may
 * have, those of a PMC's own type are hwpmc_md_perf_probe()'s.
 */
static int hwpmc_perf_init(struct hwpmc_class *cl, u32 rows)
{
	struct hwpmc_event *ev;

	cl->events = kcalloc(1, sizeof(*cl->events), GFP_KERNEL);
	if (!cl->events)
		return -ENOMEM;
	ev = &cl->events[cl->nevents++];
	ev->code = PMC_EV_PERF;
	ev->caps = PMC_CAP_READ | PMC_CAP_WRITE | PMC_CAP_INTERRUPT |
		   PMC_CAP_USER | PMC_CAP_SYSTEM;
	strscpy(ev->name, "perf", sizeof(ev->name));
	cl->class = PMC_CLASS_PERF;
	cl->name = "PERF";
	cl->width = 64;
	cl->num = rows;
	cl->caps = ev->caps;
	return 0;
}

/* Perf's PMUs that the PERF class does not take, by name. */
static bool hwpmc_perf_refused_name(const char *name)
{
	/* dynamic probes: tracefs makes them tracepoints */
	return name && (!strcmp(name, "kprobe") || !strcmp(name, "uprobe"));
}

/*
 * The module's name of a PERF-class event ev of configuration md, for
 * its log records when the allocator gave none: perf's spelling of a
 * tracepoint, "system:name", else "pmu/config=...[,config1=...]
 * [,config2=...]/" of its PMU.
 */
static void hwpmc_perf_name(struct perf_event *ev,
			    const struct pmc_md_pmu_op_pmcallocate *md,
			    char *name, size_t len)
{
	size_t n;

#ifdef CONFIG_EVENT_TRACING
	if (md->pm_type == PERF_TYPE_TRACEPOINT && ev->tp_event &&
	    ev->tp_event->class && ev->tp_event->class->system) {
		scnprintf(name, len, "%s:%s", ev->tp_event->class->system,
			  trace_event_name(ev->tp_event));
		return;
	}
#endif
	n = scnprintf(name, len, "%s/config=%#llx",
		      ev->pmu->name ? ev->pmu->name : "?", md->pm_config);
	if (md->pm_config1)
		n += scnprintf(name + n, len - n, ",config1=%#llx",
			       md->pm_config1);
	if (md->pm_config2)
		n += scnprintf(name + n, len - n, ",config2=%#llx",
			       md->pm_config2);
	scnprintf(name + n, len - n, "/");
}

/*
 * Does the PMU of attr count on cpu?  A core PMU of some CPUs (x86's
 * hybrid PMUs, arm_pmu) refuses a counter on another CPU with ENOENT in
 * its event_init(); asked as system PMCs' counters are made.
 */
static bool hwpmc_perf_on_cpu(struct perf_event_attr *attr, int cpu)
{
	const struct cred *old;
	struct perf_event *ev;

	old = override_creds(hwpmc_kcred);
	ev = perf_event_create_kernel_counter(attr, cpu, NULL, NULL, NULL);
	revert_creds(old);
	if (IS_ERR(ev))
		return PTR_ERR(ev) != -ENOENT;
	perf_event_release_kernel(ev);
	return true;
}

/*
 * What kind of perf PMU md->pm_type is (HWPMC_PERF_PMU_* of
 * <hwpmc_allocate.h>), and in *caps the PMC_CAP_* of md's configuration
 * on it, in name (len bytes) the module's name of the event
 * (hwpmc_perf_name()).  perf says: a disabled counter of the
 * configuration is created (below: where, as whom) and released at
 * once; cpu is the system PMC's CPU, or -1.  perf's fixed types
 * are the PMU and SOFT classes' but for tracepoints; the core PMU (the
 * PMU class's hardware task context), a hardware task context that is
 * no core PMU of some CPUs, the AUX tracers and the dynamic probes are
 * refused; a PMU with no task context counts CPUs only.  A second core
 * PMU of some CPUs (HETERO: hybrid Intel's cpu_atom, where cpu_core is
 * the PMU class's) counts tasks while they run on its CPUs (perf's
 * filter) and its CPUs: *cpu_absent is set when cpu is not one of them.
 */
int hwpmc_md_perf_probe(const struct pmc_md_pmu_op_pmcallocate *md, int cpu,
			u32 *caps, int *cpu_absent, char *name, size_t len)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = md->pm_type,
		.config = md->pm_config,
		.config1 = md->pm_config1,
		.config2 = md->pm_config2,
		.disabled = 1,
	};
	struct perf_event *ev;
	struct pmu *pmu;
	int kind;

	const struct cred *old;

	*caps = 0;
	*cpu_absent = 0;
	if (md->pm_type < PERF_TYPE_MAX &&
	    md->pm_type != PERF_TYPE_TRACEPOINT)
		return HWPMC_PERF_PMU_REFUSED;
	/*
	 * First on the caller, as the caller: perf's checks of the caller
	 * apply (kprobe and uprobe refuse one without CAP_PERFMON at once).
	 * EINVAL may be a PMU that counts no task: asked again on a CPU,
	 * as the kernel, as system PMCs' counters are made (perf requires
	 * CAP_PERFMON for a CPU counter, which the module's own checks
	 * stand for).
	 */
	ev = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	if (IS_ERR(ev) && PTR_ERR(ev) == -EINVAL) {
		if (cpu < 0)
			cpu = cpumask_first(cpu_online_mask);
		old = override_creds(hwpmc_kcred);
		ev = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL,
						      NULL);
		revert_creds(old);
	}
	if (IS_ERR(ev))
		return PTR_ERR(ev) == -ENOENT ? HWPMC_PERF_PMU_NONE :
						HWPMC_PERF_PMU_REFUSED;
	pmu = ev->pmu;
	*caps = PMC_CAP_READ | PMC_CAP_WRITE;
	if (md->pm_type == PERF_TYPE_TRACEPOINT) {
		/* they fire in the kernel: user mode alone counts nothing */
		kind = HWPMC_PERF_PMU_TRACEPOINT;
		*caps |= PMC_CAP_SYSTEM | PMC_CAP_INTERRUPT;
	} else if (pmu->setup_aux || hwpmc_perf_refused_name(pmu->name) ||
		   (pmu->task_ctx_nr == perf_hw_context &&
		    ((int)pmu->type == hwpmc_core_type ||
		     !hwpmc_pmu_heterogeneous(pmu)))) {
		kind = HWPMC_PERF_PMU_REFUSED;
	} else {
		if (pmu->task_ctx_nr == perf_hw_context)
			kind = HWPMC_PERF_PMU_HETERO;
		else if (pmu->task_ctx_nr == perf_invalid_context)
			kind = HWPMC_PERF_PMU_CPU;
		else
			kind = HWPMC_PERF_PMU_TASK;
		if (!(pmu->capabilities & PERF_PMU_CAP_NO_EXCLUDE))
			*caps |= PMC_CAP_USER | PMC_CAP_SYSTEM;
		/* a CPU-wide PMU's samples would be no process's */
		if (kind != HWPMC_PERF_PMU_CPU &&
		    !(pmu->capabilities & PERF_PMU_CAP_NO_INTERRUPT))
			*caps |= PMC_CAP_INTERRUPT;
	}
	hwpmc_perf_name(ev, md, name, len);
	perf_event_release_kernel(ev);
	if (kind == HWPMC_PERF_PMU_HETERO && cpu >= 0)
		*cpu_absent = !hwpmc_perf_on_cpu(&attr, cpu);
	return kind;
}

int hwpmc_backend_init(hwpmc_overflow_fn overflow, hwpmc_overflow_fn koverflow)
{
	struct hwpmc_mdep *md = &hwpmc_md;
	struct hwpmc_class *cl;
	int error;

	hwpmc_md_overflow_fn = overflow;
	hwpmc_md_koverflow_fn = koverflow;
	memset(md, 0, sizeof(*md));
	hwpmc_core_type = -1;
	md->cputype = PMC_CPU_GENERIC;
	hwpmc_kcred = prepare_kernel_cred(&init_task);
	if (!hwpmc_kcred)
		return -ENOMEM;

	cl = &md->classes[md->nclass];
	error = hwpmc_soft_init(cl);
	if (error)
		goto fail;
	md->nclass++;

	cl = &md->classes[md->nclass];
	error = hwpmc_pmu_init(cl);
	if (error)
		goto fail;
	if (cl->num) {
		md->cputype = HWPMC_CPUTYPE;
		md->nclass++;
	} else {
		kfree(cl->events);
		memset(cl, 0, sizeof(*cl));
		pr_info("no hardware PMU events available: software events only\n");
	}

	/* as many rows as the PMC ids have room for after the others' */
	for (cl = md->classes; cl < md->classes + md->nclass; cl++)
		md->npmc += cl->num;
	cl = &md->classes[md->nclass];
	error = hwpmc_perf_init(cl, md->npmc < HWPMC_ROWS_MAX ?
				min_t(u32, HWPMC_PERF_ROWS,
				      HWPMC_ROWS_MAX - md->npmc) : 0);
	md->npmc = 0;
	if (error)
		goto fail;
	md->nclass++;

	for (cl = md->classes; cl < md->classes + md->nclass; cl++) {
		cl->first_row = md->npmc;
		md->npmc += cl->num;
	}
	return 0;
fail:
	hwpmc_backend_fini();
	return error;
}

void hwpmc_backend_fini(void)
{
	u32 i;

	for (i = 0; i < PMC_CLASS_MAX; i++)
		kfree(hwpmc_md.classes[i].events);
	memset(&hwpmc_md, 0, sizeof(hwpmc_md));
	if (hwpmc_kcred)
		put_cred(hwpmc_kcred);
	hwpmc_kcred = NULL;
}

const struct hwpmc_class *hwpmc_class_find(u32 class)
{
	u32 i;

	for (i = 0; i < hwpmc_md.nclass; i++)
		if (hwpmc_md.classes[i].class == class)
			return &hwpmc_md.classes[i];
	return NULL;
}

const struct hwpmc_class *hwpmc_row_class(u32 ri)
{
	const struct hwpmc_class *cl;
	u32 i;

	for (i = 0; i < hwpmc_md.nclass; i++) {
		cl = &hwpmc_md.classes[i];
		if (ri >= cl->first_row && ri < cl->first_row + cl->num)
			return cl;
	}
	return NULL;
}

const struct hwpmc_event *hwpmc_event_find(const struct hwpmc_class *cl,
					   u32 code)
{
	u32 i;

	for (i = 0; i < cl->nevents; i++)
		if (cl->events[i].code == code)
			return &cl->events[i];
	return NULL;
}

/*
 * FreeBSD's capability bit string: "0x67<INT,USR,SYS,REA,WRI>", with the
 * abbreviations of include/hwpmc_events.h's table.
 */
int hwpmc_caps_string(u32 caps, char *buf, size_t len)
{
	const char *sep = "";
	int n, i;

	n = scnprintf(buf, len, "%#x<", caps);
	for (i = 0; i < ARRAY_SIZE(hwpmc_cap_defs); i++) {
		if (!(caps & hwpmc_cap_defs[i].bit))
			continue;
		n += scnprintf(buf + n, len - n, "%s%s", sep,
			       hwpmc_cap_defs[i].abbrev);
		sep = ",";
	}
	n += scnprintf(buf + n, len - n, ">");
	return n;
}

/*
 * The perf attribute of a PMC counting event ev, user mode only when caps
 * has PMC_CAP_USER alone, kernel mode only when PMC_CAP_SYSTEM alone.
 * PMU events are pinned: hwpmc(4) allocates counters, it never
 * multiplexes them.
 */
int hwpmc_md_attr(const struct hwpmc_event *ev, u32 caps,
		  const struct pmc_md_pmu_op_pmcallocate *md,
		  struct perf_event_attr *attr)
{
	u32 modes = caps & (PMC_CAP_USER | PMC_CAP_SYSTEM);

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = ev->perf_type;
	attr->config = ev->perf_config;
	if (ev->code == PMC_EV_PERF)
		attr->type = md->pm_type;
	else if (md->pm_type)
		return -EINVAL;
	if (ev->code == PMC_EV_PMU_RAW || ev->code == PMC_EV_PERF) {
		attr->config = md->pm_config;
		attr->config1 = md->pm_config1;
		attr->config2 = md->pm_config2;
	} else if (md->pm_config || md->pm_config1 || md->pm_config2) {
		return -EINVAL;
	}
	if (md->pm_precise > 3 || (md->pm_precise && !(caps & PMC_CAP_PRECISE)))
		return -EINVAL;
	if (caps & PMC_CAP_PRECISE)
		attr->precise_ip = max_t(u32, md->pm_precise, 1);
	attr->disabled = 1;
	attr->pinned = attr->type != PERF_TYPE_SOFTWARE;
	attr->exclude_kernel = modes == PMC_CAP_USER;
	attr->exclude_hv = modes == PMC_CAP_USER;
	attr->exclude_user = modes == PMC_CAP_SYSTEM;
	return 0;
}

/*
 * The rest of a PMC's attribute: the hypervisor's mode for the
 * privileged only (hv: a second core PMU that can exclude it); a
 * process-sampling PMC's counters are copied into new
 * threads (perf's inheritance; new processes with DESCENDANTS get
 * counters of their own, as targets), and their counts follow their
 * tasks when perf swaps contexts; period, a sampling PMC's reload count.
 */
void hwpmc_md_attr_pmc(struct perf_event_attr *attr, u32 mode,
		       u64 period, bool privileged, bool hv)
{
	/*
	 * perf's fixed types and second core PMUs only: the other PMUs
	 * count no hypervisor mode of their own, and those that cannot
	 * exclude (msr, uncore) refuse every exclude bit.
	 */
	if (!privileged && (attr->type < PERF_TYPE_MAX || hv))
		attr->exclude_hv = 1;
	if (mode == PMC_MODE_TS) {
		attr->inherit = 1;
		attr->inherit_thread = 1;
		attr->inherit_stat = 1;
	}
	if (PMC_IS_SAMPLING_MODE(mode))
		attr->sample_period = period;
}

/*
 * A thread-scope sampling PMC's counter (PMC_F_THREAD): its one thread's,
 * not copied into the threads it creates.
 */
void hwpmc_md_attr_thread(struct perf_event_attr *attr)
{
	attr->inherit = 0;
	attr->inherit_thread = 0;
	attr->inherit_stat = 0;
}

/* Is it a software event or a tracepoint (no PMU counter to share)? */
bool hwpmc_md_soft(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_SOFTWARE ||
	       attr->type == PERF_TYPE_TRACEPOINT;
}

/*
 * May an owner without CAP_PERFMON program this raw configuration?  0,
 * -EPERM for a bit perf reserves to CPU-level privilege (its creator
 * checks do not run for counters a kernel worker makes: counter sets),
 * -EINVAL for a bit that is no part of an event's encoding (the mode
 * bits come from the PMC's caps, not from the configuration).
 */
#if defined(CONFIG_X86)
/*
 * event, umask, edge, inv, cmask; AMD's event bits 11:8 and Intel's
 * in_tx, in_tx_cp and eq (32..36); Intel's umask2 (40..47)
 */
#define HWPMC_RAW_X86_OK	0x0000ff1fff84ffffULL
#define HWPMC_RAW_X86_ANY	(1ULL << 21)	/* AnyThread: the sibling */
int hwpmc_md_raw_check(const struct perf_event_attr *attr)
{
	if (attr->config & HWPMC_RAW_X86_ANY)
		return -EPERM;
	if (attr->config & ~HWPMC_RAW_X86_OK)
		return -EINVAL;
	return 0;
}
#elif defined(CONFIG_ARM64)
/*
 * PMEVTYPER's event number; its exception-level filter bits (EL0, EL1,
 * EL2 and the secure states) come from the PMC's caps, and EL2 (the
 * hypervisor) is excluded for owners without privilege.  config1 bit 0
 * asks for a 64-bit (chained) counter.
 */
int hwpmc_md_raw_check(const struct perf_event_attr *attr)
{
	if ((attr->config & ~0xffffULL) || (attr->config1 & ~1ULL) ||
	    attr->config2)
		return -EINVAL;
	return 0;
}
#else
int hwpmc_md_raw_check(const struct perf_event_attr *attr)
{
	return -EPERM;		/* nothing known of this PMU's encoding */
}
#endif

/*
 * A counter on a CPU (task NULL) or on a task (cpu -1), disabled, whose
 * overflows go to hwpmc_md_overflow() with context (the PMC): perf copies
 * both into the counters it inherits, which is how our counters are
 * recognised in a task's perf contexts (hwpmc_md_task_counters()).
 *
 * perf applies perf_event_paranoid to CPU-wide counters with the
 * credentials of the creating task, even for kernel counters; the policy
 * for system-scope PMCs and counter sets is the module's (hwpmc.4, and
 * hwpmc_md_raw_check() for what perf would check of the creator), so
 * they are created with the kernel's credentials.  (Not from a worker on
 * the CPU with work_on_cpu_safe(): it holds the CPU hotplug lock, which
 * perf takes again for a static key, and a CPU going offline meanwhile
 * deadlocked both.)  perf fails cleanly, ENODEV, for an offline CPU.
 */
/*
 * perf calls this for every overflow of our counters, in NMI, IRQ or
 * IRQs-off context; the counter's context is its PMC (none for the
 * counters of counter sets), alive while the counter is.
 */
static void hwpmc_md_overflow(struct perf_event *ev,
			      struct perf_sample_data *data,
			      struct pt_regs *regs)
{
	if (ev->overflow_handler_context)
		hwpmc_md_overflow_fn(ev->overflow_handler_context, regs);
}

struct perf_event *hwpmc_md_create(struct perf_event_attr *attr, int cpu,
				   struct task_struct *task, void *context)
{
	const struct cred *old;
	struct perf_event *ev;

	if (task)
		return perf_event_create_kernel_counter(attr, -1, task,
							hwpmc_md_overflow,
							context);
	old = override_creds(hwpmc_kcred);
	ev = perf_event_create_kernel_counter(attr, cpu, NULL,
					      hwpmc_md_overflow, context);
	revert_creds(old);
	return ev;
}

/*
 * A CPU-wide counter of attr, enabled from the start (counter sets).  perf
 * may have put it in the error state at once (a pinned hardware counter
 * when every counter there is taken by pinned counters of others): the
 * caller asks hwpmc_md_failed_here().
 */
struct perf_event *hwpmc_md_create_running(const struct perf_event_attr *attr,
					   int cpu)
{
	struct perf_event_attr a = *attr;

	a.disabled = 0;
	return hwpmc_md_create(&a, cpu, NULL, NULL);
}

/* -- pmc(9)'s counters ------------------------------------------------------------ */

/*
 * The rest of the attribute of a pmc(9) counter (hwpmc_kapi.c), made by
 * hwpmc_md_attr() for both modes: the hypervisor's mode too (kernel code
 * is privileged); a task's counter is copied into the task's new threads
 * and processes from zero (perf's inheritance: copies of a disabled
 * counter are off, copies that exit add their counts to its child_count,
 * pmc(9)'s fork semantics); period, a profiling counter's.
 */
void hwpmc_md_attr_kernel(struct perf_event_attr *attr, bool task, u64 period)
{
	attr->exclude_hv = 0;
	attr->inherit = task;
	attr->sample_period = period;
}

/*
 * perf calls this for every overflow of a pmc(9) counter; its context is
 * its record in hwpmc_kapi.c, alive while the counter is.  A handler of
 * its own, so that the walks of a task's counters (they look for
 * hwpmc_md_overflow()) never meet pmc(9)'s.
 */
static void hwpmc_md_koverflow(struct perf_event *ev,
			       struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	hwpmc_md_koverflow_fn(ev->overflow_handler_context, regs);
}

/* A pmc(9) counter on a task (cpu -1) or on a CPU (task NULL), disabled. */
struct perf_event *hwpmc_md_create_kernel(struct perf_event_attr *attr,
					  int cpu, struct task_struct *task,
					  void *context)
{
	const struct cred *old;
	struct perf_event *ev;

	if (task)
		return perf_event_create_kernel_counter(attr, -1, task,
							hwpmc_md_koverflow,
							context);
	old = override_creds(hwpmc_kcred);
	ev = perf_event_create_kernel_counter(attr, cpu, NULL,
					      hwpmc_md_koverflow, context);
	revert_creds(old);
	return ev;
}

/*
 * A task counter's own count, its copies left out, and in *exited what
 * the copies that exited folded into it (pmc(9)'s children).  The full
 * read first, which brings the count of an active counter up to date.
 */
u64 hwpmc_md_read_own(struct perf_event *ev, u64 *exited)
{
	u64 enabled, running;

	perf_event_read_value(ev, &enabled, &running);
	*exited = atomic64_read(&ev->child_count);
	return local64_read(&ev->count);
}

/* The PMC a counter of ours belongs to (its perf context). */
void *hwpmc_md_context(struct perf_event *ev)
{
	return ev->overflow_handler_context;
}

/* -- the counters of a task ------------------------------------------------------- */

/*
 * fn for each of our counters with a PMC in the perf contexts of t, which
 * is the current task or a new one that has not run yet; fn runs with the
 * context's lock held and IRQs off, and the PMC it gets stays valid until
 * the caller leaves its RCU read-side section.
 */
void hwpmc_md_task_counters(struct task_struct *t, hwpmc_ev_fn fn, void *arg)
{
	struct perf_event_context *ctx;
	struct perf_event *ev;
	unsigned long flags;
	int i;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "task counters outside RCU");
	for (i = 0; i < HWPMC_NR_TASK_CTX; i++) {
		ctx = hwpmc_task_ctx(t, i);
		if (!ctx)
			continue;
		raw_spin_lock_irqsave(&ctx->lock, flags);
		list_for_each_entry(ev, &ctx->event_list, event_entry)
			if (ev->overflow_handler == hwpmc_md_overflow &&
			    ev->overflow_handler_context)
				fn(ev, ev->overflow_handler_context, arg);
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
	}
}

/*
 * Pin the context of a target thread's counter: perf never swaps a pinned
 * context with another task's.  Unpinned, the contexts of the threads of
 * a target (clones of each other) are swapped at context switches
 * between them, counters and all, so that a thread's counters move to
 * another thread, which may exit with them.  The pin stays for the life
 * of the context; what it costs is the swap optimisation.
 */
void hwpmc_md_pin(struct perf_event *ev)
{
	struct perf_event_context *ctx = ev->ctx;
	unsigned long flags;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	ctx->pin_count++;
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
}

/*
 * The same from a hwpmc_md_task_counters() walker (the context's lock
 * held), once per context: *last is the context pinned last.
 */
void hwpmc_md_pin_held(struct perf_event *ev, const void **last)
{
	lockdep_assert_held(&ev->ctx->lock);
	if (*last == ev->ctx)
		return;
	*last = ev->ctx;
	ev->ctx->pin_count++;
}

/* Is ev off: disabled, as copies of a stopped or dead counter are made? */
bool hwpmc_md_off(struct perf_event *ev)
{
	return READ_ONCE(ev->state) == PERF_EVENT_STATE_OFF;
}

void hwpmc_md_release(struct perf_event *ev)
{
	perf_event_release_kernel(ev);
}

/*
 * A sampling counter's period.  Not that of the copies perf made of it
 * in threads created since (PERF_EVENT_IOC_PERIOD does
 * not either): perf_event_period() of a copy takes its context's mutex,
 * which may not be taken under the child_mutex that guards the copies
 * (perf_read() takes them the other way round; lockdep says so).
 */
int hwpmc_md_set_period(struct perf_event *ev, u64 period)
{
	return perf_event_period(ev, period);
}

/* Has perf copies of ev in other tasks (inherited at fork)? */
bool hwpmc_md_has_copies(struct perf_event *ev)
{
	bool copies;

	mutex_lock(&ev->child_mutex);
	copies = !list_empty(&ev->child_list);
	mutex_unlock(&ev->child_mutex);
	return copies;
}

/*
 * The same for ev alone, in any context.  Its task's exit turns the
 * error state into the exit state: the exit probe asks first.
 */
bool hwpmc_md_failed_here(struct perf_event *ev)
{
	return READ_ONCE(ev->state) == PERF_EVENT_STATE_ERROR;
}

/*
 * Did perf fail to put ev, or one of its live copies, on the PMU?  A
 * pinned counter that finds every hardware counter taken by pinned
 * counters of others goes to the error state and counts nothing until
 * it is enabled again; a stop leaves it there.  The copies of exited
 * tasks are gone, and with them what they knew.
 */
bool hwpmc_md_failed(struct perf_event *ev)
{
	struct perf_event *child;
	bool failed = hwpmc_md_failed_here(ev);

	if (failed)
		return true;
	mutex_lock(&ev->child_mutex);
	list_for_each_entry(child, &ev->child_list, child_list)
		if (hwpmc_md_failed_here(child)) {
			failed = true;
			break;
		}
	mutex_unlock(&ev->child_mutex);
	return failed;
}

/* Is ev, or one of its copies, on cpu's PMU now?  (A look, no more.) */
bool hwpmc_md_on_cpu(struct perf_event *ev, int cpu)
{
	struct perf_event *child;
	bool on = READ_ONCE(ev->oncpu) == cpu;

	if (on)
		return true;
	mutex_lock(&ev->child_mutex);
	list_for_each_entry(child, &ev->child_list, child_list)
		if (READ_ONCE(child->oncpu) == cpu) {
			on = true;
			break;
		}
	mutex_unlock(&ev->child_mutex);
	return on;
}

void hwpmc_md_start(struct perf_event *ev)
{
	perf_event_enable(ev);
}

void hwpmc_md_stop(struct perf_event *ev)
{
	perf_event_disable(ev);
}

/*
 * What ev counted, its copies left out, read where it cannot move: on its
 * CPU with IRQs off, or under its context's lock.  On this CPU (cpu, the
 * caller's smp_processor_id(): the switch paths have it) means active:
 * the PMU is read; otherwise the count stands (a counter perf could not
 * put on the PMU, or not yet).  Which of the two, with the count: two
 * registers (the switch-out's slices: decision 33).
 */
struct hwpmc_md_local hwpmc_md_read_active(struct perf_event *ev, int cpu)
{
	struct hwpmc_md_local r = { .active = READ_ONCE(ev->oncpu) == cpu };

	lockdep_assert_irqs_disabled();
	if (r.active)
		ev->pmu->read(ev);
	r.value = local64_read(&ev->count);
	return r;
}

u64 hwpmc_md_read_local(struct perf_event *ev, int cpu)
{
	return hwpmc_md_read_active(ev, cpu).value;
}

/*
 * A counter of the current task, or of this CPU, read here: what perf's
 * perf_event_read_local() does (not exported to modules), with IRQs off
 * so that the counter is not scheduled in or out meanwhile; no context
 * mutex, no child_mutex, no cross-call.  Only without inherited copies,
 * which may be read in no atomic context (none can appear meanwhile:
 * copies are made when the counter's task forks, and it is in here).
 * Exited copies have folded their counts into child_count already.
 * False: not local, the caller takes the full read.
 */
static bool hwpmc_md_read_here(struct perf_event *ev, u64 *value)
{
	unsigned long flags;
	bool here;

	if (!list_empty(&ev->child_list) ||
	    (ev->event_caps & PERF_EV_CAP_READ_ACTIVE_PKG))
		return false;
	local_irq_save(flags);
	if (ev->attach_state & PERF_ATTACH_TASK)
		here = ev->hw.target == current;
	else
		here = ev->cpu == smp_processor_id();
	if (here)
		*value = hwpmc_md_read_local(ev, smp_processor_id()) +
			 atomic64_read(&ev->child_count);
	local_irq_restore(flags);
	return here;
}

/* The count, children (inherited by new threads and processes) included. */
u64 hwpmc_md_read(struct perf_event *ev)
{
	u64 enabled, running, value;

	if (hwpmc_md_read_here(ev, &value))
		return value;
	return perf_event_read_value(ev, &enabled, &running);
}

/*
 * The same for a counter that the caller has disabled (or not enabled
 * yet): one that is off and has no inherited copies does not move, and
 * its value is what perf_event_read_value() would add up (perf's
 * perf_event_count(): its count plus what exited copies folded into it),
 * so it is read without that function's context and child mutexes.  A
 * copy inherited meanwhile starts from zero, so missing it is exact too.
 * Otherwise (copies, or perf put the counter in error) the full read.
 */
u64 hwpmc_md_read_off(struct perf_event *ev)
{
	if (READ_ONCE(ev->state) == PERF_EVENT_STATE_OFF &&
	    list_empty(&ev->child_list))
		return local64_read(&ev->count) +
		       atomic64_read(&ev->child_count);
	return hwpmc_md_read(ev);
}

/* perf's time_running of ev and its copies, in ns: how long it counted. */
u64 hwpmc_md_running(struct perf_event *ev)
{
	u64 enabled, running;

	hwpmc_md_times(ev, &enabled, &running);
	return running;
}

/* perf's time_enabled and time_running of ev and its copies, in ns. */
void hwpmc_md_times(struct perf_event *ev, u64 *enabled, u64 *running)
{
	perf_event_read_value(ev, enabled, running);
}

/*
 * Does perf count attr's event for the task being switched in, after
 * perf's part of the switch-in but before preempt notifiers run?  Only
 * cpu-migrations (perf_event_task_sched_in()), with kernel registers:
 * not for a counter that excludes the kernel.
 */
bool hwpmc_md_counted_at_switch_in(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_SOFTWARE &&
	       attr->config == PERF_COUNT_SW_CPU_MIGRATIONS &&
	       !attr->exclude_kernel;
}
