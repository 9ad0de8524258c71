/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * hwpmc for Linux: PMCALLOCATE's checks of a request, shared by the
 * module, libhwpmc's explanation of a refusal (pmc_allocate_message())
 * and the unit tests' fake module, so that the three cannot drift.
 *
 * The checks are hwpmc(4)'s, in its order (mode, CPU, privilege for
 * system modes, flags, class and event, the PERF class's PMU, capabilities,
 * sampling count, privilege for kernel mode, perf configuration).  hwpmc_alloc_check()
 * is pure: it reads the request and the facts its caller gathered (the
 * CPUs, the event's capabilities, the caller's privilege) and names the
 * first check that fails; hwpmc_alloc_errno() gives its errno.  What
 * needs the module's state comes after these checks and is not here: a
 * usable row, the raw configuration's bits (hwpmc_md_raw_check()), the
 * sched_switch probe, perf's verdict on the event.
 *
 * The PERF class (any perf PMU by type, and tracepoints) needs a fact
 * only perf knows: what kind of PMU pm_md.pm_pmu.pm_type is.  The module
 * first runs the checks with perf_pmu = HWPMC_PERF_PMU_UNPROBED; they stop
 * at HWPMC_ALLOC_PERF_PROBE when every check before the PMU's passed, so
 * that perf is asked nothing for a request refused earlier.  It then
 * probes the type and runs them again with the answer.
 *
 * The including file must have included <linux/hwpmc.h> (uapi, or
 * libhwpmc's <sys/pmc.h>) first; the errno values come from
 * <linux/errno.h>, the kernel's or the uapi one.
 */
#ifndef _HWPMC_ALLOCATE_H
#define _HWPMC_ALLOCATE_H

#include <linux/errno.h>

/* Flags PMCALLOCATE accepts; FreeBSD's PMC_F_EV_PMU has no meaning here. */
#define HWPMC_ALLOC_F_ALL	(PMC_F_DESCENDANTS | PMC_F_LOG_PROCCSW |	\
				 PMC_F_LOG_PROCEXIT | PMC_F_CALLCHAIN |	\
				 PMC_F_USERCALLCHAIN | PMC_F_USERSTACK |	\
				 PMC_F_THREAD | PMC_F_NOTIFY)
/* ... of which these are for process modes only */
#define HWPMC_ALLOC_F_PROCESS	(PMC_F_DESCENDANTS | PMC_F_LOG_PROCCSW |	\
				 PMC_F_LOG_PROCEXIT | PMC_F_THREAD |	\
				 PMC_F_NOTIFY)
/* ... and these for sampling modes only (PMC_F_CALLCHAIN: see below) */
#define HWPMC_ALLOC_F_CHAIN	(PMC_F_USERCALLCHAIN | PMC_F_USERSTACK)
/* The largest sampling count: perf's sample_period has bit 63 clear. */
#define HWPMC_ALLOC_PERIOD_MAX	((__u64)~0ULL >> 1)

/* The checks, in order; hwpmc_alloc_check() names the first that fails. */
enum hwpmc_alloc_check {
	HWPMC_ALLOC_OK,			/* none: allocate */
	HWPMC_ALLOC_MODE,
	HWPMC_ALLOC_CPU_PROCESS,
	HWPMC_ALLOC_CPU_SYSTEM,
	HWPMC_ALLOC_CPU_RANGE,
	HWPMC_ALLOC_CPU_OFFLINE,
	HWPMC_ALLOC_CPU_ID,
	HWPMC_ALLOC_STACK_PRIV,
	HWPMC_ALLOC_SYSTEM_PRIV,
	HWPMC_ALLOC_FLAGS,
	HWPMC_ALLOC_FLAGS_SYSTEM,
	HWPMC_ALLOC_FLAGS_CHAIN,
	HWPMC_ALLOC_STACK,
	HWPMC_ALLOC_FLAGS_THREAD,
	HWPMC_ALLOC_FLAGS_NOTIFY,
	HWPMC_ALLOC_EVENT,
	HWPMC_ALLOC_PERF_PROBE,		/* not a refusal: probe the PMU */
	HWPMC_ALLOC_PERF_TYPE,
	HWPMC_ALLOC_PERF_REFUSED,
	HWPMC_ALLOC_PERF_SCOPE,
	HWPMC_ALLOC_PERF_CPU,
	HWPMC_ALLOC_CAPS,
	HWPMC_ALLOC_INTERRUPT,
	HWPMC_ALLOC_COUNT,
	HWPMC_ALLOC_KERNEL_PRIV,
	HWPMC_ALLOC_CONFIG,
	HWPMC_ALLOC_RESERVED,
	HWPMC_ALLOC_PRECISE,
	HWPMC_ALLOC_NCHECK
};

/* Each check's name, errno and hwpmc(4)'s words for a request failing it. */
struct hwpmc_alloc_check_def {
	const char	*name;
	int		err;
	const char	*reason;
};

static inline const struct hwpmc_alloc_check_def *
hwpmc_alloc_check_def(enum hwpmc_alloc_check c)
{
	static const struct hwpmc_alloc_check_def defs[HWPMC_ALLOC_NCHECK] = {
		[HWPMC_ALLOC_OK] = { "OK", 0, "allocated" },
		[HWPMC_ALLOC_MODE] = { "MODE", EINVAL,
			"not one of the four modes" },
		[HWPMC_ALLOC_CPU_PROCESS] = { "CPU_PROCESS", EINVAL,
			"a process mode with a CPU other than PMC_CPU_ANY" },
		[HWPMC_ALLOC_CPU_SYSTEM] = { "CPU_SYSTEM", EINVAL,
			"a system mode with PMC_CPU_ANY" },
		[HWPMC_ALLOC_CPU_RANGE] = { "CPU_RANGE", EINVAL,
			"a system mode on a CPU that does not exist" },
		[HWPMC_ALLOC_CPU_OFFLINE] = { "CPU_OFFLINE", ENXIO,
			"a system mode on an offline CPU" },
		[HWPMC_ALLOC_CPU_ID] = { "CPU_ID", ENXIO,
			"a system mode on CPU 4095 or above" },
		[HWPMC_ALLOC_STACK_PRIV] = { "STACK_PRIV", EPERM,
			"PMC_F_USERSTACK in a system mode without CAP_PERFMON" },
		[HWPMC_ALLOC_SYSTEM_PRIV] = { "SYSTEM_PRIV", EPERM,
			"a system mode without privilege" },
		[HWPMC_ALLOC_FLAGS] = { "FLAGS", EINVAL, "an unknown flag" },
		[HWPMC_ALLOC_FLAGS_SYSTEM] = { "FLAGS_SYSTEM", EINVAL,
			"a process-only flag in a system mode" },
		[HWPMC_ALLOC_FLAGS_CHAIN] = { "FLAGS_CHAIN", EINVAL,
			"PMC_F_USERCALLCHAIN or PMC_F_USERSTACK in a counting mode" },
		[HWPMC_ALLOC_STACK] = { "STACK", EINVAL,
			"pm_stacksize without PMC_F_USERSTACK, or not a multiple of 8 from 8 to the module's maxstackuser" },
		[HWPMC_ALLOC_FLAGS_THREAD] = { "FLAGS_THREAD", EINVAL,
			"PMC_F_THREAD in a mode other than TC or TS, with PMC_F_DESCENDANTS, or in TS with PMC_F_LOG_PROCCSW or PMC_F_LOG_PROCEXIT" },
		[HWPMC_ALLOC_FLAGS_NOTIFY] = { "FLAGS_NOTIFY", EINVAL,
			"PMC_F_NOTIFY without PMC_MODE_TS and PMC_F_THREAD" },
		[HWPMC_ALLOC_EVENT] = { "EVENT", EINVAL,
			"no such class or event" },
		[HWPMC_ALLOC_PERF_PROBE] = { "PERF_PROBE", EAGAIN,
			"(not a refusal: the PMU of pm_type is to be probed)" },
		[HWPMC_ALLOC_PERF_TYPE] = { "PERF_TYPE", ENOENT,
			"no perf PMU of type pm_md.pm_pmu.pm_type" },
		[HWPMC_ALLOC_PERF_REFUSED] = { "PERF_REFUSED", EINVAL,
			"a perf type the PERF class does not take, or a configuration its PMU refuses" },
		[HWPMC_ALLOC_PERF_SCOPE] = { "PERF_SCOPE", EINVAL,
			"a process mode for a CPU-wide PMU" },
		[HWPMC_ALLOC_PERF_CPU] = { "PERF_CPU", ENODEV,
			"a system mode on a CPU that the PMU (a core PMU of some CPUs) does not count" },
		[HWPMC_ALLOC_CAPS] = { "CAPS", EOPNOTSUPP,
			"capabilities the event lacks" },
		[HWPMC_ALLOC_INTERRUPT] = { "INTERRUPT", EOPNOTSUPP,
			"a sampling mode for an event that cannot sample" },
		[HWPMC_ALLOC_COUNT] = { "COUNT", EINVAL,
			"a sampling count of 2^63 or more" },
		[HWPMC_ALLOC_KERNEL_PRIV] = { "KERNEL_PRIV", EPERM,
			"kernel mode without privilege" },
		[HWPMC_ALLOC_CONFIG] = { "CONFIG", EINVAL,
			"a perf configuration for an event other than raw or perf" },
		[HWPMC_ALLOC_RESERVED] = { "RESERVED", EINVAL,
			"pm_md.pm_pmu.pm_type set for an event other than perf" },
		[HWPMC_ALLOC_PRECISE] = { "PRECISE", EINVAL,
			"pm_md.pm_pmu.pm_precise above 3, or set without PMC_CAP_PRECISE" },
	};
	static const struct hwpmc_alloc_check_def bad = { "?", EINVAL, "?" };

	if ((unsigned int)c >= HWPMC_ALLOC_NCHECK || !defs[c].name)
		return &bad;
	return &defs[c];
}

/*
 * The kinds of PMU a PERF-class type can name (struct hwpmc_alloc_facts'
 * perf_pmu).  TASK: a PMU that counts processes too (msr, tracepoints are
 * TRACEPOINT); CPU: one that counts CPUs only (uncore, power, cstate,
 * arm_dsu: perf's invalid task context); HETERO: a second core PMU, of
 * some CPUs only (hybrid Intel's cpu_atom, a big.LITTLE PMU other than
 * the PMU class's): processes while they run on its CPUs, and its CPUs.
 * REFUSED: the core PMU (the PMU class's) and
 * perf's fixed types other than tracepoints (the PMU and SOFT classes
 * take those), dynamic probes (kprobe, uprobe: tracefs makes them
 * tracepoints), AUX tracers (intel_pt, cs_etm, arm_spe: no count), or a
 * configuration perf refuses.
 */
#define HWPMC_PERF_PMU_UNPROBED		0
#define HWPMC_PERF_PMU_NONE		1
#define HWPMC_PERF_PMU_REFUSED		2
#define HWPMC_PERF_PMU_TASK		3
#define HWPMC_PERF_PMU_CPU		4
#define HWPMC_PERF_PMU_TRACEPOINT	5
#define HWPMC_PERF_PMU_HETERO		6

/*
 * What the caller knows that the request does not say.  The booleans are
 * 0 or 1; a fact is read only when its check is reached.  may_kernel:
 * may count kernel mode with a PMU-class event, and sample kernel mode
 * with any event.
 */
struct hwpmc_alloc_facts {
	__u32	ncpu;		/* CPU numbers are below it */
	int	cpu_online;	/* pm_cpu is online (read when < ncpu) */
	int	may_system;	/* may allocate system-mode PMCs */
	int	perfmon;	/* the caller has CAP_PERFMON (or is root) */
	int	have_event;	/* class pm_class has event pm_ev */
	__u32	ev_caps;	/* that event's PMC_CAP_* */
	int	may_kernel;	/* see above */
	__u32	stack_max;	/* tunable maxstackuser: pm_stacksize's most */
	int	perf_pmu;	/* PERF class: HWPMC_PERF_PMU_* (ev_caps: its) */
	int	perf_cpu_absent; /* HETERO, system modes: pm_cpu not its CPU */
};

/* The first check request pa fails, or HWPMC_ALLOC_OK. */
static inline enum hwpmc_alloc_check
hwpmc_alloc_check(const struct pmc_op_pmcallocate *pa,
		  const struct hwpmc_alloc_facts *f)
{
	const struct pmc_md_pmu_op_pmcallocate *md = &pa->pm_md.pm_pmu;
	__u32 mode = pa->pm_mode, cpu = pa->pm_cpu;
	__u32 modes = pa->pm_caps & (PMC_CAP_USER | PMC_CAP_SYSTEM);
	int sampling = PMC_IS_SAMPLING_MODE(mode);

	if (mode > PMC_MODE_LAST)
		return HWPMC_ALLOC_MODE;
	if (!PMC_IS_SYSTEM_MODE(mode)) {
		if (cpu != (__u32)PMC_CPU_ANY)
			return HWPMC_ALLOC_CPU_PROCESS;
	} else {
		if (cpu == (__u32)PMC_CPU_ANY)
			return HWPMC_ALLOC_CPU_SYSTEM;
		if (cpu >= f->ncpu)
			return HWPMC_ALLOC_CPU_RANGE;
		if (!f->cpu_online)
			return HWPMC_ALLOC_CPU_OFFLINE;
		/* a PMC id has 12 bits of CPU, and 0xFFF is process scope */
		if (cpu >= PMC_ID_TO_CPU((__u32)PMC_CPU_ANY))
			return HWPMC_ALLOC_CPU_ID;
		/*
		 * every user's stack bytes, not only return addresses: for
		 * CAP_PERFMON, whatever unprivileged_syspmcs allows
		 */
		if ((pa->pm_flags & PMC_F_USERSTACK) && !f->perfmon)
			return HWPMC_ALLOC_STACK_PRIV;
		if (!f->may_system)
			return HWPMC_ALLOC_SYSTEM_PRIV;
	}
	if (pa->pm_flags & ~(__u32)HWPMC_ALLOC_F_ALL)
		return HWPMC_ALLOC_FLAGS;
	if (PMC_IS_SYSTEM_MODE(mode) &&
	    (pa->pm_flags & HWPMC_ALLOC_F_PROCESS))
		return HWPMC_ALLOC_FLAGS_SYSTEM;
	/*
	 * FreeBSD's: PMC_F_CALLCHAIN is accepted, and has no effect, in a
	 * counting mode (pmcstat sets it on every PMC it allocates);
	 * PMC_F_USERCALLCHAIN and PMC_F_USERSTACK are refused there.
	 */
	if (!sampling && (pa->pm_flags & HWPMC_ALLOC_F_CHAIN))
		return HWPMC_ALLOC_FLAGS_CHAIN;
	if ((pa->pm_flags & PMC_F_USERSTACK) ?
	    (!pa->pm_stacksize || pa->pm_stacksize % 8 ||
	     pa->pm_stacksize > f->stack_max) : pa->pm_stacksize)
		return HWPMC_ALLOC_STACK;
	/*
	 * a thread scope: process PMCs, one thread, no children; sampling
	 * ones without the slots of PROCCSW and PROCEXIT
	 */
	if ((pa->pm_flags & PMC_F_THREAD) &&
	    ((mode != PMC_MODE_TC && mode != PMC_MODE_TS) ||
	     (pa->pm_flags & PMC_F_DESCENDANTS) ||
	     (mode == PMC_MODE_TS &&
	      (pa->pm_flags & (PMC_F_LOG_PROCCSW | PMC_F_LOG_PROCEXIT)))))
		return HWPMC_ALLOC_FLAGS_THREAD;
	/* an overflow signal: to the one thread that a TS PMC samples */
	if ((pa->pm_flags & PMC_F_NOTIFY) &&
	    (mode != PMC_MODE_TS || !(pa->pm_flags & PMC_F_THREAD)))
		return HWPMC_ALLOC_FLAGS_NOTIFY;
	if (!f->have_event)
		return HWPMC_ALLOC_EVENT;
	if (pa->pm_class == PMC_CLASS_PERF) {
		if (f->perf_pmu == HWPMC_PERF_PMU_UNPROBED)
			return HWPMC_ALLOC_PERF_PROBE;
		if (f->perf_pmu == HWPMC_PERF_PMU_NONE)
			return HWPMC_ALLOC_PERF_TYPE;
		if (f->perf_pmu == HWPMC_PERF_PMU_REFUSED)
			return HWPMC_ALLOC_PERF_REFUSED;
		if (f->perf_pmu == HWPMC_PERF_PMU_CPU &&
		    !PMC_IS_SYSTEM_MODE(mode))
			return HWPMC_ALLOC_PERF_SCOPE;
		if (f->perf_pmu == HWPMC_PERF_PMU_HETERO &&
		    PMC_IS_SYSTEM_MODE(mode) && f->perf_cpu_absent)
			return HWPMC_ALLOC_PERF_CPU;
	}
	if ((pa->pm_caps & f->ev_caps) != pa->pm_caps)
		return HWPMC_ALLOC_CAPS;
	if (sampling && !(f->ev_caps & PMC_CAP_INTERRUPT))
		return HWPMC_ALLOC_INTERRUPT;
	if (sampling && pa->pm_count > HWPMC_ALLOC_PERIOD_MAX)
		return HWPMC_ALLOC_COUNT;
	/*
	 * Kernel mode (anything but user mode alone) is privileged for
	 * hardware counts, for other perf PMUs (tracepoints fire in the
	 * kernel; uncore and msr counts cannot exclude it), and for every
	 * sampling PMC: its samples are kernel addresses.
	 */
	if ((pa->pm_class == PMC_CLASS_PMU ||
	     pa->pm_class == PMC_CLASS_PERF || sampling) &&
	    modes != PMC_CAP_USER && !f->may_kernel)
		return HWPMC_ALLOC_KERNEL_PRIV;
	if (pa->pm_ev != PMC_EV_PMU_RAW && pa->pm_ev != PMC_EV_PERF &&
	    (md->pm_config || md->pm_config1 || md->pm_config2))
		return HWPMC_ALLOC_CONFIG;
	if (pa->pm_ev != PMC_EV_PERF && md->pm_type)
		return HWPMC_ALLOC_RESERVED;
	if (md->pm_precise > 3 ||
	    (md->pm_precise && !(pa->pm_caps & PMC_CAP_PRECISE)))
		return HWPMC_ALLOC_PRECISE;
	return HWPMC_ALLOC_OK;
}

/* The (positive) errno of check c: 0 for HWPMC_ALLOC_OK. */
static inline int hwpmc_alloc_errno(enum hwpmc_alloc_check c)
{
	return hwpmc_alloc_check_def(c)->err;
}

/* The name of check c ("CPU_OFFLINE"), or "?" */
static inline const char *hwpmc_alloc_check_name(enum hwpmc_alloc_check c)
{
	return hwpmc_alloc_check_def(c)->name;
}

/* hwpmc(4)'s words for a request failing check c, or "?" */
static inline const char *hwpmc_alloc_reason(enum hwpmc_alloc_check c)
{
	return hwpmc_alloc_check_def(c)->reason;
}

#endif /* _HWPMC_ALLOCATE_H */
