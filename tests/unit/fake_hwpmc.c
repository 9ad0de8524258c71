// SPDX-License-Identifier: GPL-2.0
/*
 * A fake hwpmc module, in user space: see fake_hwpmc.h.
 */
#include <errno.h>
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

#define NSOFTEV	(sizeof(soft_events) / sizeof(soft_events[0]))
#define NPMUEV	(sizeof(pmu_events) / sizeof(pmu_events[0]))

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

static int do_getcaps(struct pmc_op_caps *pc)
{
	unsigned int i;

	if (pc->pm_pmcid != PMC_ID_INVALID)
		return -EINVAL;
	if (pc->pm_class == PMC_CLASS_SOFT) {
		for (i = 0; i < NSOFTEV; i++)
			if (soft_events[i].pm_ev_code == pc->pm_ev) {
				pc->pm_caps = soft_events[i].pm_ev_caps;
				return 0;
			}
	}
	return -EINVAL;
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

		for (i = 0; i < 12; i++)
			f[i] = i + 1;
		st->pm_intr_ignored = 0x100000005ULL;	/* truncated to 5 */
		return 0;
	}
	case HWPMC_IOC_PMCADMIN:
		return do_pmcadmin(arg);
	case HWPMC_IOC_GETCAPS:
		return do_getcaps(arg);
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
