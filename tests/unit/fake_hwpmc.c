// SPDX-License-Identifier: GPL-2.0
/*
 * A fake hwpmc module, in user space: see fake_hwpmc.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <linux/hwpmc.h>
#include <linux/hwpmclog.h>
#include <hwpmc_allocate.h>

#include "fake_hwpmc.h"

static int fake_enabled[FAKE_NCPU][FAKE_NSOFT + FAKE_NPMU];
static int fake_enabled_init;
static int fake_grow_calls;

static unsigned long env_ul(const char *name, unsigned long def)
{
	const char *s = getenv(name);

	return s && *s ? strtoul(s, NULL, 0) : def;
}

static int is_fake_fd(int fd)
{
	struct stat sb;

	return fstat(fd, &sb) == 0 && S_ISCHR(sb.st_mode) &&
	       sb.st_rdev == makedev(1, 3);	/* /dev/null */
}

static const struct pmc_dyn_event_descr soft_events[] = {
	{ "cpu-clock", PMC_EV_SOFT_FIRST + PERF_COUNT_SW_CPU_CLOCK,
	  PMC_CAP_INTERRUPT | PMC_CAP_USER | PMC_CAP_SYSTEM | PMC_CAP_READ },
	{ "task-clock", PMC_EV_SOFT_FIRST + PERF_COUNT_SW_TASK_CLOCK,
	  PMC_CAP_INTERRUPT | PMC_CAP_READ },
	{ "page-faults", PMC_EV_SOFT_FIRST + PERF_COUNT_SW_PAGE_FAULTS,
	  PMC_CAP_READ },
	{ "fake-event", FAKE_EV_CODE, PMC_CAP_READ },
};

static const struct pmc_dyn_event_descr pmu_events[] = {
	{ "cycles", PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_CPU_CYCLES,
	  PMC_CAP_INTERRUPT | PMC_CAP_USER | PMC_CAP_SYSTEM },
	{ "instructions", PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_INSTRUCTIONS,
	  PMC_CAP_INTERRUPT },
	{ "raw", PMC_EV_PMU_RAW, PMC_CAP_INTERRUPT },
};

#define UKS	(PMC_CAP_INTERRUPT | PMC_CAP_USER | PMC_CAP_SYSTEM | PMC_CAP_READ | \
		 PMC_CAP_WRITE)
#define HWEV(x)	(PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_##x)
#define CEV(c, o, r) PMC_EV_PMU_CACHE(PERF_COUNT_HW_CACHE_##c,		\
				      PERF_COUNT_HW_CACHE_OP_##o,	\
				      PERF_COUNT_HW_CACHE_RESULT_##r)

/* FAKE_HWPMC_PMU=2: a PMU with perf's generic events, most cache events */
static const struct pmc_dyn_event_descr pmu_full_events[] = {
	{ "cycles", HWEV(CPU_CYCLES), UKS },
	{ "instructions", HWEV(INSTRUCTIONS), UKS },
	{ "cache-references", HWEV(CACHE_REFERENCES), UKS },
	{ "cache-misses", HWEV(CACHE_MISSES), UKS },
	{ "branch-instructions", HWEV(BRANCH_INSTRUCTIONS), UKS },
	{ "branch-misses", HWEV(BRANCH_MISSES), UKS },
	{ "bus-cycles", HWEV(BUS_CYCLES), UKS },
	{ "stalled-cycles-frontend", HWEV(STALLED_CYCLES_FRONTEND), UKS },
	{ "stalled-cycles-backend", HWEV(STALLED_CYCLES_BACKEND), UKS },
	{ "ref-cycles", HWEV(REF_CPU_CYCLES), UKS },
	{ "L1-dcache-loads", CEV(L1D, READ, ACCESS), UKS },
	{ "L1-dcache-load-misses", CEV(L1D, READ, MISS), UKS },
	{ "L1-dcache-stores", CEV(L1D, WRITE, ACCESS), UKS },
	{ "L1-icache-load-misses", CEV(L1I, READ, MISS), UKS },
	{ "LLC-loads", CEV(LL, READ, ACCESS), UKS },
	{ "LLC-load-misses", CEV(LL, READ, MISS), UKS },
	{ "dTLB-loads", CEV(DTLB, READ, ACCESS), UKS },
	{ "dTLB-load-misses", CEV(DTLB, READ, MISS), UKS },
	{ "iTLB-load-misses", CEV(ITLB, READ, MISS), UKS },
	{ "branch-loads", CEV(BPU, READ, ACCESS), UKS },
	{ "branch-load-misses", CEV(BPU, READ, MISS), UKS },
	{ "raw", PMC_EV_PMU_RAW, UKS },
};

/* FAKE_HWPMC_PERF=1: the PERF class, whose one event takes a perf type */
static const struct pmc_dyn_event_descr perf_events[] = {
	{ "perf", PMC_EV_PERF, UKS },
};

/*
 * The fake's perf PMU types: 2 tracepoints (id 0xdead: none), 10 a PMU
 * that counts processes and cannot filter modes (msr), 11 a CPU-wide one
 * (uncore), 12 a second core PMU of CPU 1 only (cpu_atom: *absent for a
 * system PMC on another CPU), 4 the core PMU (refused); none other.
 * Sets the capabilities as the module's probe finds them.
 */
static int fake_perf_pmu(const struct pmc_op_pmcallocate *pa, uint32_t *caps,
			 int *absent)
{
	const struct pmc_md_pmu_op_pmcallocate *md = &pa->pm_md.pm_pmu;

	*caps = PMC_CAP_READ | PMC_CAP_WRITE;
	switch (md->pm_type) {
	case 2:
		*caps |= PMC_CAP_SYSTEM | PMC_CAP_INTERRUPT;
		return md->pm_config == 0xdead ? HWPMC_PERF_PMU_REFUSED :
						 HWPMC_PERF_PMU_TRACEPOINT;
	case 10:
		return HWPMC_PERF_PMU_TASK;
	case 11:
		return HWPMC_PERF_PMU_CPU;
	case 12:
		*caps |= PMC_CAP_USER | PMC_CAP_SYSTEM | PMC_CAP_INTERRUPT;
		*absent = PMC_IS_SYSTEM_MODE(pa->pm_mode) && pa->pm_cpu != 1;
		return HWPMC_PERF_PMU_HETERO;
	case 4:
		return HWPMC_PERF_PMU_REFUSED;
	}
	return HWPMC_PERF_PMU_NONE;
}

#define NSOFTEV	(sizeof(soft_events) / sizeof(soft_events[0]))
#define NPMUEV	(sizeof(pmu_events) / sizeof(pmu_events[0]))
#define NPMUFULLEV (sizeof(pmu_full_events) / sizeof(pmu_full_events[0]))

static unsigned int nrows(void)
{
	return FAKE_NSOFT + (env_ul("FAKE_HWPMC_PMU", 0) ? FAKE_NPMU : 0);
}

static int do_getcpuinfo(struct pmc_op_getcpuinfo *ci)
{
	int pmu = env_ul("FAKE_HWPMC_PMU", 0) != 0;

	memset(ci, 0, sizeof(*ci));
	ci->pm_cputype = pmu ? PMC_CPU_LINUX_X86 : PMC_CPU_GENERIC;
	ci->pm_ncpu = FAKE_NCPU;
	ci->pm_npmc = nrows();
	ci->pm_nclass = 1 + pmu;
	if (env_ul("FAKE_HWPMC_PERF", 0)) {
		ci->pm_classes[ci->pm_nclass].pm_class = PMC_CLASS_PERF;
		ci->pm_classes[ci->pm_nclass].pm_caps = UKS;
		ci->pm_classes[ci->pm_nclass].pm_width = 64;
		ci->pm_nclass++;
	}
	ci->pm_classes[0].pm_class = PMC_CLASS_SOFT;
	ci->pm_classes[0].pm_caps = PMC_CAP_INTERRUPT | PMC_CAP_READ;
	ci->pm_classes[0].pm_width = 64;
	ci->pm_classes[0].pm_num = FAKE_NSOFT;
	if (pmu) {
		ci->pm_classes[1].pm_class = PMC_CLASS_PMU;
		ci->pm_classes[1].pm_caps = PMC_CAP_INTERRUPT | PMC_CAP_USER;
		ci->pm_classes[1].pm_width = 48;
		ci->pm_classes[1].pm_num = FAKE_NPMU;
	}
	return 0;
}

static int do_getpmcinfo(struct pmc_op_getpmcinfo *gpi)
{
	struct pmc_info *pi = (struct pmc_info *)(uintptr_t)gpi->pm_pmcs;
	unsigned int n = nrows(), r;

	if (gpi->pm_cpu < 0 || gpi->pm_cpu >= FAKE_NCPU)
		return -EINVAL;
	if (gpi->pm_cpu == FAKE_OFFLINE_CPU)
		return -ENXIO;
	if (!pi) {
		gpi->pm_npmc = n;
		return 0;
	}
	if (gpi->pm_npmc < n) {
		gpi->pm_npmc = n;
		return -E2BIG;
	}
	for (r = 0; r < n; r++) {
		memset(&pi[r], 0, sizeof(pi[r]));
		pi[r].pm_class = r < FAKE_NSOFT ? PMC_CLASS_SOFT : PMC_CLASS_PMU;
		if (r < FAKE_NSOFT)
			snprintf(pi[r].pm_name, PMC_NAME_MAX, "SOFT%u", r);
		else
			snprintf(pi[r].pm_name, PMC_NAME_MAX, "PMU%u", r - FAKE_NSOFT);
		pi[r].pm_enabled = fake_enabled[gpi->pm_cpu][r];
		pi[r].pm_rowdisp = PMC_DISP_FREE;
		pi[r].pm_ownerpid = -1;
		if (gpi->pm_cpu == 0 && r == 1) {
			pi[r].pm_rowdisp = PMC_DISP_THREAD;
			pi[r].pm_ownerpid = FAKE_OWNER_PID;
			pi[r].pm_mode = PMC_MODE_TS;
			pi[r].pm_event = PMC_EV_SOFT_FIRST + PERF_COUNT_SW_CPU_CLOCK;
			pi[r].pm_reloadcount = 10000;
		}
	}
	gpi->pm_npmc = n;
	return 0;
}

static int do_getdyneventinfo(struct pmc_op_getdyneventinfo *gde)
{
	const struct pmc_dyn_event_descr *evs;
	unsigned int n;

	if (gde->pm_class == PMC_CLASS_SOFT) {
		evs = soft_events;
		n = NSOFTEV;
		/* GROW: the first count query misses one event */
		if (env_ul("FAKE_HWPMC_GROW", 0) && fake_grow_calls++ == 0)
			n--;
	} else if (gde->pm_class == PMC_CLASS_PERF &&
		   env_ul("FAKE_HWPMC_PERF", 0)) {
		evs = perf_events;
		n = 1;
	} else if (gde->pm_class == PMC_CLASS_PMU &&
		   env_ul("FAKE_HWPMC_PMU", 0) == 2) {
		evs = pmu_full_events;
		n = NPMUFULLEV;
	} else if (gde->pm_class == PMC_CLASS_PMU &&
		   env_ul("FAKE_HWPMC_PMU", 0)) {
		evs = pmu_events;
		n = NPMUEV;
	} else {
		return -EINVAL;
	}
	if (!gde->pm_events) {
		gde->pm_nevent = n;
		return 0;
	}
	if (gde->pm_nevent < n) {
		gde->pm_nevent = n;
		return -E2BIG;
	}
	memcpy((void *)(uintptr_t)gde->pm_events, evs, n * sizeof(*evs));
	gde->pm_nevent = n;
	return 0;
}

static int do_pmcadmin(const struct pmc_op_pmcadmin *pa)
{
	if (pa->pm_flags)
		return -EINVAL;
	if (env_ul("FAKE_HWPMC_EPERM", 0))
		return -EPERM;
	if (pa->pm_cpu < 0 || pa->pm_cpu >= FAKE_NCPU || pa->pm_pmc < 0 ||
	    (unsigned int)pa->pm_pmc >= nrows() ||
	    (pa->pm_state != PMC_STATE_FREE &&
	     pa->pm_state != PMC_STATE_DISABLED))
		return -EINVAL;
	if (pa->pm_cpu == FAKE_OFFLINE_CPU)
		return -ENXIO;
	/* only idle rows can be disabled */
	if (pa->pm_cpu == 0 && pa->pm_pmc == 1 &&
	    pa->pm_state == PMC_STATE_DISABLED)
		return -EBUSY;
	fake_enabled[pa->pm_cpu][pa->pm_pmc] = pa->pm_state == PMC_STATE_FREE;
	return 0;
}

/* -- PMCs: the counting operations, as the module does them ------------- */

struct fake_pmc {
	int		used;
	uint32_t	id, mode, flags, caps;
	int		cpu;		/* -1: process scope */
	int		running;
	int		had_targets;
	pid_t		targets[FAKE_NTARGET];
	unsigned int	ntarget;
	uint64_t	value;
	uint64_t	reload;		/* sampling: the reload count */
};

static struct fake_pmc fake_pmcs[FAKE_NPMC];
static int fake_logfd = -1;		/* the log, below */
static int fake_logerr;

static const struct pmc_dyn_event_descr *fake_event(uint32_t cl, uint32_t ev)
{
	const struct pmc_dyn_event_descr *evs;
	unsigned long pmu = env_ul("FAKE_HWPMC_PMU", 0);
	unsigned int i, n;

	if (cl == PMC_CLASS_SOFT) {
		evs = soft_events;
		n = NSOFTEV;
	} else if (cl == PMC_CLASS_PMU && pmu) {
		evs = pmu == 2 ? pmu_full_events : pmu_events;
		n = pmu == 2 ? NPMUFULLEV : NPMUEV;
	} else if (cl == PMC_CLASS_PERF && env_ul("FAKE_HWPMC_PERF", 0)) {
		evs = perf_events;
		n = 1;
	} else {
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (evs[i].pm_ev_code == ev)
			return &evs[i];
	return NULL;
}

/* The caller's PMC: ESRCH when it owns none, EINVAL when not this one. */
static int fake_find(uint32_t id, struct fake_pmc **pmp)
{
	unsigned int i, owned = 0;

	for (i = 0; i < FAKE_NPMC; i++) {
		if (!fake_pmcs[i].used)
			continue;
		owned++;
		if (fake_pmcs[i].id == id) {
			*pmp = &fake_pmcs[i];
			return 0;
		}
	}
	return owned ? -EINVAL : -ESRCH;
}

static int fake_find_process(uint32_t id, struct fake_pmc **pmp)
{
	int error = fake_find(id, pmp);

	if (!error && PMC_IS_SYSTEM_MODE((*pmp)->mode))
		error = -EINVAL;
	return error;
}

/* Running PMCs count FAKE_TICK (FAKE_HWPMC_TICK) more at every read. */
static uint64_t fake_value(struct fake_pmc *pm)
{
	if (pm->running)
		pm->value += env_ul("FAKE_HWPMC_TICK", FAKE_TICK);
	return pm->value;
}

int fake_hwpmc_alloc_check;
char fake_hwpmc_evname[PMC_NAME_MAX];

/* The module's checks (<hwpmc_allocate.h>) with the fake's facts, then a row. */
static int do_pmcallocate(struct pmc_op_pmcallocate *pa)
{
	const struct pmc_dyn_event_descr *d = fake_event(pa->pm_class, pa->pm_ev);
	int unpriv = env_ul("FAKE_HWPMC_UNPRIV", 0) != 0;
	struct hwpmc_alloc_facts f = {
		.ncpu = FAKE_NCPU,
		.cpu_online = pa->pm_cpu != FAKE_OFFLINE_CPU,
		.may_system = !unpriv,
		.perfmon = !unpriv,
		.have_event = d != NULL,
		.ev_caps = d ? d->pm_ev_caps : 0,
		.may_kernel = !unpriv,
		.stack_max = (uint32_t)env_ul("FAKE_HWPMC_MAXSTACK", 16384),
	};
	uint32_t mode = pa->pm_mode;
	unsigned int i;

	/* FAKE_HWPMC_TRACE=1: each allocation's mode and flags on stderr */
	if (env_ul("FAKE_HWPMC_TRACE", 0))
		fprintf(stderr, "fake_hwpmc: allocate mode %u flags %#x\n",
			(unsigned int)pa->pm_mode, (unsigned int)pa->pm_flags);
	fake_hwpmc_alloc_check = hwpmc_alloc_check(pa, &f);
	if (fake_hwpmc_alloc_check == HWPMC_ALLOC_PERF_PROBE) {
		f.perf_pmu = fake_perf_pmu(pa, &f.ev_caps,
					   &f.perf_cpu_absent);
		fake_hwpmc_alloc_check = hwpmc_alloc_check(pa, &f);
	}
	if (fake_hwpmc_alloc_check != HWPMC_ALLOC_OK)
		return -hwpmc_alloc_errno(fake_hwpmc_alloc_check);
	for (i = 0; i < FAKE_NPMC && fake_pmcs[i].used; i++)
		;
	if (i == FAKE_NPMC)
		return -EINVAL;			/* no free row */
	memset(&fake_pmcs[i], 0, sizeof(fake_pmcs[i]));
	fake_pmcs[i].used = 1;
	fake_pmcs[i].mode = mode;
	fake_pmcs[i].flags = pa->pm_flags;
	fake_pmcs[i].caps = pa->pm_caps | PMC_CAP_READ | PMC_CAP_WRITE |
			    (PMC_IS_SAMPLING_MODE(mode) ? PMC_CAP_INTERRUPT : 0);
	fake_pmcs[i].cpu = PMC_IS_SYSTEM_MODE(mode) ? (int)pa->pm_cpu : -1;
	if (PMC_IS_SAMPLING_MODE(mode)) {
		fake_pmcs[i].reload = pa->pm_count;
		if (pa->pm_flags & PMC_F_NOTIFY)
			fake_hwpmc_notify_count = pa->pm_count;
	} else {
		fake_pmcs[i].value = pa->pm_count;
	}
	fake_pmcs[i].id = PMC_ID_MAKE_ID(PMC_IS_SYSTEM_MODE(mode) ?
					 pa->pm_cpu : PMC_CPU_ANY, mode,
					 pa->pm_class, i);
	pa->pm_pmcid = fake_pmcs[i].id;
	return 0;
}

uint64_t fake_hwpmc_notify_count;
int fake_hwpmc_attached_tid;

/*
 * A PMC_F_THREAD PMC's target: thread tid (0: the calling thread) of the
 * caller's process, or ESRCH (none) or EPERM (another process's).
 */
static int fake_thread(pid_t *tid)
{
	if (!*tid)
		*tid = (pid_t)syscall(SYS_gettid);
	if (syscall(SYS_tgkill, getpid(), *tid, 0) == 0)
		return 0;
	return kill(*tid, 0) < 0 && errno == ESRCH ? -ESRCH : -EPERM;
}

/* pid 0: the caller; FAKE_PID_EPERM: another user's; else must exist. */
static int fake_attach(struct fake_pmc *pm, pid_t pid)
{
	unsigned int i;
	int error;

	if (pm->flags & PMC_F_THREAD) {
		error = fake_thread(&pid);
		if (error)
			return error;
		if (pm->ntarget)
			return -EEXIST;	/* one thread of the process */
		fake_hwpmc_attached_tid = pid;
	} else if (!pid) {
		pid = getpid();
	}
	if (kill(pid, 0) < 0 && errno == ESRCH)
		return -ESRCH;
	if (pid == FAKE_PID_EPERM)
		return -EPERM;
	for (i = 0; i < pm->ntarget; i++)
		if (pm->targets[i] == pid)
			return -EEXIST;
	if (pm->ntarget == FAKE_NTARGET)
		return -ENOMEM;
	pm->targets[pm->ntarget++] = pid;
	pm->had_targets = 1;
	return 0;
}

static int do_pmcattach(const struct pmc_op_pmcattach *a, int attach)
{
	struct fake_pmc *pm;
	pid_t pid = a->pm_pid ? a->pm_pid : getpid();
	unsigned int i;
	int error;

	if (a->pm_pid < 0)
		return -EINVAL;
	error = fake_find_process(a->pm_pmc, &pm);
	if (error)
		return error;
	if (attach)
		return pm->running ? -EBUSY : fake_attach(pm, a->pm_pid);
	if (pm->flags & PMC_F_THREAD)
		pid = a->pm_pid ? a->pm_pid : (pid_t)syscall(SYS_gettid);
	for (i = 0; i < pm->ntarget; i++)
		if (pm->targets[i] == pid) {
			pm->targets[i] = pm->targets[--pm->ntarget];
			return 0;
		}
	if (pm->flags & PMC_F_THREAD)
		return -ESRCH;		/* none of its targets */
	return kill(pid, 0) < 0 && errno == ESRCH ? -ESRCH : -EINVAL;
}

static int do_pmcsimple(unsigned long cmd, const struct pmc_op_simple *sp)
{
	struct fake_pmc *pm;
	int error;

	if (sp->pm__pad)
		return -EINVAL;
	error = fake_find(sp->pm_pmcid, &pm);
	if (error)
		return error;
	switch (cmd) {
	case HWPMC_IOC_PMCSTART:
		if (pm->running)
			return 0;
		if (((pm->flags & (PMC_F_LOG_PROCCSW | PMC_F_LOG_PROCEXIT)) ||
		     (PMC_IS_SAMPLING_MODE(pm->mode) &&
		      !(pm->flags & PMC_F_NOTIFY))) && fake_logfd < 0)
			return -EDESTADDRREQ;	/* no log */
		if (pm->cpu < 0 && !pm->ntarget) {
			error = pm->had_targets ? -ESRCH : fake_attach(pm, 0);
			if (error)
				return error;
		}
		pm->running = 1;
		return 0;
	case HWPMC_IOC_PMCSTOP:
		pm->running = 0;
		return 0;
	default:	/* PMCRELEASE */
		pm->used = 0;
		return 0;
	}
}

static int do_pmcrw(struct pmc_op_pmcrw *rw)
{
	struct fake_pmc *pm;
	uint64_t old;
	int error;

	if (!rw->pm_flags ||
	    (rw->pm_flags & ~(PMC_F_OLDVALUE | PMC_F_NEWVALUE)))
		return -EINVAL;
	error = fake_find(rw->pm_pmcid, &pm);
	if (error)
		return error;
	if ((rw->pm_flags & PMC_F_NEWVALUE) && pm->running)
		return -EBUSY;
	/* FAKE_HWPMC_NODATA=i: the i-th PMC (from 1) was not scheduled */
	if ((rw->pm_flags & PMC_F_OLDVALUE) &&
	    env_ul("FAKE_HWPMC_NODATA", 0) == (unsigned long)(pm - fake_pmcs) + 1)
		return -ENODATA;
	old = fake_value(pm);
	if (rw->pm_flags & PMC_F_NEWVALUE)
		pm->value = rw->pm_value;
	rw->pm_value = old;
	return 0;
}

/* PMCRW_TIMES: FAKE_HWPMC_TIMES (fake_hwpmc.h). */
static int do_pmcrw_times(struct pmc_op_pmcrw_times *rt)
{
	const char *s = getenv("FAKE_HWPMC_TIMES");
	unsigned long i, e, r;
	struct fake_pmc *pm;
	int error;

	if (env_ul("FAKE_HWPMC_NOTIMES", 0))
		return -EINVAL;
	if (rt->pm_rw.pm_flags != PMC_F_OLDVALUE || rt->pm__pad ||
	    rt->pm__reserved[0] || rt->pm__reserved[1])
		return -EINVAL;
	error = fake_find(rt->pm_rw.pm_pmcid, &pm);
	if (error)
		return error;
	rt->pm_enabled = 0;
	rt->pm_running = 0;
	rt->pm_tflags = 0;
	if (s && sscanf(s, "%lu,%lu,%lu", &i, &e, &r) == 3 &&
	    (!i || i == (unsigned long)(pm - fake_pmcs) + 1)) {
		rt->pm_enabled = e;
		rt->pm_running = r;
		rt->pm_tflags = PMC_RWT_TIMES;
		rt->pm_rw.pm_value = fake_value(pm);
		return 0;
	}
	return do_pmcrw(&rt->pm_rw);
}

static int do_pmcsetcount(const struct pmc_op_pmcsetcount *sc)
{
	struct fake_pmc *pm;
	int error;

	if (sc->pm__pad)
		return -EINVAL;
	error = fake_find(sc->pm_pmcid, &pm);
	if (!error && pm->running)
		error = -EBUSY;
	if (!error && PMC_IS_SAMPLING_MODE(pm->mode) &&
	    sc->pm_count > HWPMC_ALLOC_PERIOD_MAX)
		error = -EINVAL;	/* perf's sample_period bound */
	if (!error && PMC_IS_SAMPLING_MODE(pm->mode)) {
		pm->reload = sc->pm_count;
		if (pm->flags & PMC_F_NOTIFY)
			fake_hwpmc_notify_count = sc->pm_count;
	} else if (!error) {
		pm->value = sc->pm_count;
	}
	return error;
}

/*
 * The module's checks (hwpmc(4)): EINVAL unless a counting process PMC of
 * a PMU event, without DESCENDANTS, attached only to the caller; then
 * EOPNOTSUPP (perf owns the counters: no direct reads are offered).
 */
static int do_pmcgetmsr(const struct pmc_op_getmsr *gm)
{
	struct fake_pmc *pm;
	int error = fake_find(gm->pm_pmcid, &pm);

	if (error)
		return error;
	if (pm->mode != PMC_MODE_TC || (pm->flags & PMC_F_DESCENDANTS) ||
	    PMC_ID_TO_CLASS(pm->id) != PMC_CLASS_PMU || pm->ntarget != 1 ||
	    pm->targets[0] != getpid())
		return -EINVAL;
	return -EOPNOTSUPP;
}

static int do_getcaps(struct pmc_op_caps *pc)
{
	struct fake_pmc *pm;
	unsigned int i;
	int error;

	if (pc->pm_pmcid != PMC_ID_INVALID) {
		error = fake_find(pc->pm_pmcid, &pm);
		if (!error)
			pc->pm_caps = pm->caps;
		return error;
	}
	if (pc->pm_class == PMC_CLASS_SOFT) {
		for (i = 0; i < NSOFTEV; i++)
			if (soft_events[i].pm_ev_code == pc->pm_ev) {
				pc->pm_caps = soft_events[i].pm_ev_caps;
				return 0;
			}
	}
	return -EINVAL;
}

/*
 * The log: records written synchronously to a dup of the caller's fd,
 * INITIALIZE first, USERDATA for WRITELOG, CLOSELOG last; the first write
 * error stays, as the module's.  (fake_logfd is above, with the PMCs.)
 */

static void fake_log(uint32_t type, void *rec, uint32_t size)
{
	struct pmclog_header *h = rec;
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	h->pl_header = PMCLOG_HEADER(type, size);
	h->pl_spare = 0;
	h->pl_time = (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	if (!fake_logerr && write(fake_logfd, rec, size) != (ssize_t)size)
		fake_logerr = errno ? errno : EIO;
}

static int fake_closelog(void)
{
	struct pmclog_closelog r = { 0 };
	int e;

	if (fake_logfd < 0)
		return -EINVAL;
	fake_log(PMCLOG_TYPE_CLOSELOG, &r, sizeof(r));
	close(fake_logfd);
	fake_logfd = -1;
	e = fake_logerr;
	fake_logerr = 0;
	return -e;
}

static int do_configurelog(struct pmc_op_configurelog *cl)
{
	struct pmclog_initialize r = { 0 };
	struct timespec ts;
	int fl;

	if (cl->pm_flags & ~PMC_LOG_KERNEL_PROFILES)
		return -EINVAL;
	if (cl->pm_logfd < 0)
		return fake_closelog();
	/* FAKE_HWPMC_KPROF: the kernel's profiles refused with that errno */
	if ((cl->pm_flags & PMC_LOG_KERNEL_PROFILES) &&
	    env_ul("FAKE_HWPMC_KPROF", 0))
		return -(int)env_ul("FAKE_HWPMC_KPROF", 0);
	fl = fcntl(cl->pm_logfd, F_GETFL);
	if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY || (fl & O_PATH))
		return -EBADF;
	if (fake_logfd >= 0)
		return -EBUSY;
	fake_logfd = fcntl(cl->pm_logfd, F_DUPFD_CLOEXEC, 3);
	if (fake_logfd < 0)
		return -errno;
	clock_gettime(CLOCK_REALTIME, &ts);
	r.pl_version = PMCLOG_VERSION;
	r.pl_cpu = PMC_CPU_GENERIC;
	r.pl_realtime = (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	r.pl_ncpu = FAKE_NCPU;
	strcpy(r.pl_cpuid, "fake");
	fake_log(PMCLOG_TYPE_INITIALIZE, &r, sizeof(r));
	return 0;
}

/*
 * FAKE_HWPMC_SAMPLES=N: FLUSHLOG first logs N samples of each running
 * sampling PMC but PMC_F_NOTIFY ones (CALLCHAIN, pc FAKE_SAMPLE_PC + 4
 * * k, on CPU 1), each after a USERSTACK (registers k + DWARF number,
 * PC last, 8 bytes of stack) for a PMC_F_USERSTACK one.
 */
static void fake_log_samples(void)
{
	unsigned long n = env_ul("FAKE_HWPMC_SAMPLES", 0), k;
	struct {
		struct pmclog_userstack us;
		uint64_t regs[FAKE_SAMPLE_NREGS + 1];
	} u;
	struct {
		struct pmclog_callchain cc;
		uint64_t pc;
	} c;
	unsigned int i, j;

	for (i = 0; i < FAKE_NPMC; i++) {
		struct fake_pmc *pm = &fake_pmcs[i];

		if (!pm->used || !pm->running || !PMC_IS_SAMPLING_MODE(pm->mode) ||
		    (pm->flags & PMC_F_NOTIFY))
			continue;
		for (k = 0; k < n; k++) {
			if (pm->flags & PMC_F_USERSTACK) {
				memset(&u, 0, sizeof(u));
				u.us.pl_pmcid = pm->id;
				u.us.pl_abi = FAKE_SAMPLE_ABI;
				u.us.pl_nregs = FAKE_SAMPLE_NREGS;
				u.us.pl_size = 8;
				u.us.pl_dynsize = 8;
				for (j = 0; j < FAKE_SAMPLE_NREGS; j++)
					u.regs[j] = k + j;
				u.regs[FAKE_SAMPLE_NREGS - 1] = FAKE_SAMPLE_PC + 4 * k;
				fake_log(PMCLOG_TYPE_USERSTACK, &u, sizeof(u));
			}
			memset(&c, 0, sizeof(c));
			c.cc.pl_pid = (uint32_t)getpid();
			c.cc.pl_tid = pm->ntarget ? (uint32_t)pm->targets[0] : 0;
			c.cc.pl_pmcid = pm->id;
			c.cc.pl_cpuflags = PMC_CALLCHAIN_TO_CPUFLAGS(1, PMC_CC_F_USERSPACE);
			c.pc = FAKE_SAMPLE_PC + 4 * k;
			fake_log(PMCLOG_TYPE_CALLCHAIN, &c, sizeof(c));
		}
	}
}

static int do_writelog(struct pmc_op_writelog *wl)
{
	struct pmclog_userdata r = { .pl_userdata = wl->pm_userdata,
				     .pl_pid = (uint32_t)getpid() };

	if (wl->pm__pad)
		return -EINVAL;
	if (fake_logfd < 0)
		return -EINVAL;
	if (fake_logerr)
		return -fake_logerr;
	fake_log(PMCLOG_TYPE_USERDATA, &r, sizeof(r));
	return 0;
}

static int fake_ioctl(unsigned long cmd, void *arg)
{
	uint32_t modv = env_ul("FAKE_HWPMC_VERSION", PMC_VERSION), *v, old;
	int i;

	if (!fake_enabled_init) {
		for (i = 0; i < FAKE_NCPU * (FAKE_NSOFT + FAKE_NPMU); i++)
			fake_enabled[i / (FAKE_NSOFT + FAKE_NPMU)]
				    [i % (FAKE_NSOFT + FAKE_NPMU)] = 1;
		fake_enabled_init = 1;
	}
	switch (cmd) {
	case HWPMC_IOC_GETMODULEVERSION:
		v = arg;
		old = *v;
		*v = modv;	/* written back even when refused */
		return (old & 0xFFFF0000U) > (modv & 0xFFFF0000U) ? -EPROTO : 0;
	case HWPMC_IOC_GETCPUINFO:
		return do_getcpuinfo(arg);
	case HWPMC_IOC_GETPMCINFO:
		return do_getpmcinfo(arg);
	case HWPMC_IOC_GETDYNEVENTINFO:
		return do_getdyneventinfo(arg);
	case HWPMC_IOC_GETDRIVERSTATS: {
		struct pmc_op_getdriverstats *st = arg;
		__u64 *f = &st->pm_intr_ignored;

		for (i = 0; i < 14; i++)
			f[i] = i + 1;
		st->pm_intr_ignored = 0x100000005ULL;	/* truncated to 5 */
		return 0;
	}
	case HWPMC_IOC_PMCADMIN:
		return do_pmcadmin(arg);
	case HWPMC_IOC_GETCAPS:
		return do_getcaps(arg);
	case HWPMC_IOC_PMCALLOCATE:
		fake_hwpmc_evname[0] = '\0';
		return do_pmcallocate(arg);
	case HWPMC_IOC_PMCALLOCATE_NAMED: {
		/* the module's checks of the name (hwpmc_dev.c) */
		struct pmc_op_pmcallocate_named *pn = arg;

		for (i = 0; i < PMC_NAME_MAX && pn->pm_evname[i]; i++)
			if (pn->pm_evname[i] < 0x20 || pn->pm_evname[i] > 0x7e)
				return -EINVAL;
		if (i == PMC_NAME_MAX || pn->pm__reserved[0] ||
		    pn->pm__reserved[1])
			return -EINVAL;
		memcpy(fake_hwpmc_evname, pn->pm_evname, PMC_NAME_MAX);
		return do_pmcallocate(&pn->pm_a);
	}
	case HWPMC_IOC_PMCATTACH:
		return do_pmcattach(arg, 1);
	case HWPMC_IOC_PMCDETACH:
		return do_pmcattach(arg, 0);
	case HWPMC_IOC_PMCSTART:
	case HWPMC_IOC_PMCSTOP:
	case HWPMC_IOC_PMCRELEASE:
		return do_pmcsimple(cmd, arg);
	case HWPMC_IOC_PMCRW:
		return do_pmcrw(arg);
	case HWPMC_IOC_PMCRW_TIMES:
		return do_pmcrw_times(arg);
	case HWPMC_IOC_PMCSETCOUNT:
		return do_pmcsetcount(arg);
	case HWPMC_IOC_PMCGETMSR:
		return do_pmcgetmsr(arg);
	case HWPMC_IOC_CONFIGURELOG:
		return do_configurelog(arg);
	case HWPMC_IOC_FLUSHLOG:
		if (fake_logfd >= 0 && !fake_logerr)
			fake_log_samples();
		return fake_logfd < 0 ? -EINVAL : -fake_logerr;
	case HWPMC_IOC_CLOSELOG:
		return fake_closelog();
	case HWPMC_IOC_WRITELOG:
		return do_writelog(arg);
	}
	if (_IOC_NR(cmd) <= PMC_OP_MAX)
		return -EOPNOTSUPP;
	return -ENOTTY;
}

int ioctl(int fd, unsigned long cmd, ...)
{
	va_list ap;
	void *arg;
	int r;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (_IOC_TYPE(cmd) == HWPMC_IOC_MAGIC && is_fake_fd(fd)) {
		r = fake_ioctl(cmd, arg);
		if (r < 0) {
			errno = -r;
			return -1;
		}
		return r;
	}
	return (int)syscall(SYS_ioctl, fd, cmd, arg);
}

/* pmc_read(3) and pmc_write(3): PMCRW by pread(2) and pwrite(2) at the id. */
static ssize_t fake_rw(int fd, void *buf, size_t count, off64_t pos,
		       uint32_t flags)
{
	struct pmc_op_pmcrw rw = { .pm_flags = flags };
	int r;

	if (count != sizeof(uint64_t) || pos < 0 || pos > UINT32_MAX) {
		errno = EINVAL;
		return -1;
	}
	rw.pm_pmcid = (uint32_t)pos;
	if (flags & PMC_F_NEWVALUE)
		memcpy(&rw.pm_value, buf, sizeof(uint64_t));
	r = do_pmcrw(&rw);
	if (r < 0) {
		errno = -r;
		return -1;
	}
	if (flags & PMC_F_OLDVALUE)
		memcpy(buf, &rw.pm_value, sizeof(uint64_t));
	(void)fd;
	return sizeof(uint64_t);
}

ssize_t pread64(int fd, void *buf, size_t count, off64_t pos)
{
	if (is_fake_fd(fd))
		return fake_rw(fd, buf, count, pos, PMC_F_OLDVALUE);
	return syscall(SYS_pread64, fd, buf, count, pos);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t pos)
{
	if (is_fake_fd(fd))
		return fake_rw(fd, (void *)buf, count, pos, PMC_F_NEWVALUE);
	return syscall(SYS_pwrite64, fd, buf, count, pos);
}
