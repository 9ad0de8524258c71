// SPDX-License-Identifier: BSD-2-Clause
/*
 * libhwpmc: pmc(3)'s PMC operations, FreeBSD's signatures and errno.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "libpmc_internal.h"
#include <hwpmc_allocate.h>

/* Per thread, as errno is: why this thread's last pmc_allocate() failed. */
static _Thread_local char pmc_alloc_msg[384];

const char *pmc_allocate_message(void)
{
	return pmc_alloc_msg;
}

/*
 * The facts of <hwpmc_allocate.h> as the library knows them after the
 * module refused pa with err: the CPUs and the event's capabilities from
 * pmc_init()'s cache; what only the module knows (is the CPU online, is
 * the caller privileged) taken as failing exactly when err is that
 * check's errno.  The module stopped at its first failing check, so the
 * first check that fails with these facts and has errno err is it; but
 * ENXIO for a CPU a PMC id cannot name is taken for that, not for the
 * CPU being offline.
 */
/*
 * The module's tunable maxstackuser, from sysfs; PMC_STACK_USER_MAX
 * when it cannot be read (then a size the module refused for its
 * tunable alone is explained as the module's later steps).
 */
static uint32_t pmc_stack_max(void)
{
	unsigned long v;
	FILE *f;
	int n;

	f = fopen("/sys/module/hwpmc/parameters/maxstackuser", "re");
	if (!f)
		return PMC_STACK_USER_MAX;
	n = fscanf(f, "%lu", &v);
	fclose(f);
	return n == 1 && v <= PMC_STACK_USER_MAX ? (uint32_t)v :
	       PMC_STACK_USER_MAX;
}

static void pmc_allocate_facts(const struct pmc_op_pmcallocate *pa, int err,
			       struct hwpmc_alloc_facts *f)
{
	const struct pmc_class_events *ce = pmc_lib_class_events(pa->pm_class);
	uint32_t i;

	memset(f, 0, sizeof(*f));
	f->ncpu = pmc_lib.cpuinfo.pm_ncpu;
	f->cpu_online = err != ENXIO ||
			pa->pm_cpu >= PMC_ID_TO_CPU((uint32_t)PMC_CPU_ANY);
	f->may_system = err != EPERM;
	f->perfmon = err != EPERM;
	f->may_kernel = err != EPERM;
	f->stack_max = pmc_stack_max();
	for (i = 0; ce && i < ce->ce_nevent; i++)
		if (ce->ce_events[i].pm_ev_code == pa->pm_ev) {
			f->have_event = 1;
			f->ev_caps = ce->ce_events[i].pm_ev_caps;
		}
	/*
	 * The PERF class: the kind of PMU from sysfs (ENOENT: none of the
	 * type); its capabilities as the module finds them, when the module
	 * said they fall short.
	 */
	if (pa->pm_class == PMC_CLASS_PERF) {
		f->perf_pmu = err == ENOENT ? HWPMC_PERF_PMU_NONE :
			      pmc_perf_pmu_kind(pa->pm_md.pm_pmu.pm_type);
		if (f->perf_pmu == HWPMC_PERF_PMU_NONE && err != ENOENT)
			f->perf_pmu = HWPMC_PERF_PMU_REFUSED;
		/*
		 * EINVAL past the checks sysfs can tell: the module's probe
		 * refused the type or configuration (but for a bad
		 * pm_precise, which comes later).
		 */
		if (err == EINVAL && f->perf_pmu != HWPMC_PERF_PMU_NONE &&
		    (f->perf_pmu != HWPMC_PERF_PMU_CPU ||
		     PMC_IS_SYSTEM_MODE(pa->pm_mode)) &&
		    pa->pm_md.pm_pmu.pm_precise <= 3 &&
		    (!pa->pm_md.pm_pmu.pm_precise ||
		     (pa->pm_caps & PMC_CAP_PRECISE)))
			f->perf_pmu = HWPMC_PERF_PMU_REFUSED;
		/* ENODEV: the CPU is not one of a core PMU's CPUs */
		f->perf_cpu_absent = err == ENODEV;
		if (err == EOPNOTSUPP)
			f->ev_caps = PMC_CAP_READ | PMC_CAP_WRITE |
				     (f->perf_pmu == HWPMC_PERF_PMU_TRACEPOINT ?
				      PMC_CAP_SYSTEM | PMC_CAP_INTERRUPT : 0);
	}
}

/* The capabilities the event lacks, in words. */
static void pmc_caps_explain(char *m, size_t len, const char *spec,
			     uint32_t missing)
{
	const char *name;

	if (missing & PMC_CAP_PRECISE) {
		snprintf(m, len, "%s: the event has no precise form (:p; perf's precise_ip: PEBS on x86)",
			 spec);
	} else if (missing & (PMC_CAP_USER | PMC_CAP_SYSTEM)) {
		snprintf(m, len, "%s: the event cannot count %s mode alone",
			 spec, missing & PMC_CAP_USER ? "user" : "kernel");
	} else {
		name = pmc_name_of_capability((enum pmc_caps)
					      (missing & -missing));
		snprintf(m, len, "%s: the event lacks capability %s", spec,
			 name ? name : "?");
	}
}

int pmc_lib_allocate_explain(const char *spec,
			     const struct pmc_op_pmcallocate *pa, int err,
			     char *m, size_t len)
{
	struct hwpmc_alloc_facts f;
	enum hwpmc_alloc_check c;
	const char *cl = pmc_name_of_class(pa->pm_class);
	int sampling = PMC_IS_SAMPLING_MODE(pa->pm_mode);

	pmc_allocate_facts(pa, err, &f);
	c = hwpmc_alloc_check(pa, &f);
	if (hwpmc_alloc_errno(c) != err)
		c = HWPMC_ALLOC_OK;	/* a refusal after the policy's checks */
	if (!cl)
		cl = "?";
	switch (c) {
	case HWPMC_ALLOC_MODE:
		snprintf(m, len, "%s: bad mode %u", spec, pa->pm_mode);
		break;
	case HWPMC_ALLOC_STACK_PRIV:
		snprintf(m, len, "%s: a copy of the user stack in a system mode (PMC_F_USERSTACK: every user's stack bytes) needs CAP_PERFMON, whatever hwpmc's unprivileged_syspmcs allows",
			 spec);
		break;
	case HWPMC_ALLOC_STACK:
		if (!(pa->pm_flags & PMC_F_USERSTACK))
			snprintf(m, len, "%s: pm_stacksize %u without PMC_F_USERSTACK",
				 spec, pa->pm_stacksize);
		else
			snprintf(m, len, "%s: user stack size %u is not a multiple of 8 from 8 to %u (hwpmc's maxstackuser)",
				 spec, pa->pm_stacksize, f.stack_max);
		break;
	case HWPMC_ALLOC_CPU_PROCESS:
		snprintf(m, len, "%s: process-scope PMCs take CPU PMC_CPU_ANY, not %d",
			 spec, (int)pa->pm_cpu);
		break;
	case HWPMC_ALLOC_CPU_SYSTEM:
		snprintf(m, len, "%s: system-scope PMCs need a CPU number", spec);
		break;
	case HWPMC_ALLOC_CPU_RANGE:
		snprintf(m, len, "%s: no CPU %u (CPUs 0-%u)", spec, pa->pm_cpu,
			 f.ncpu - 1);
		break;
	case HWPMC_ALLOC_CPU_OFFLINE:
		snprintf(m, len, "%s: CPU %u is offline", spec, pa->pm_cpu);
		break;
	case HWPMC_ALLOC_CPU_ID:
		snprintf(m, len, "%s: CPU %u: PMC ids name CPUs below 4095 only",
			 spec, pa->pm_cpu);
		break;
	case HWPMC_ALLOC_SYSTEM_PRIV:
		snprintf(m, len, "%s: system-scope PMCs need CAP_PERFMON (or hwpmc's unprivileged_syspmcs=1)",
			 spec);
		break;
	case HWPMC_ALLOC_FLAGS:
		snprintf(m, len, "%s: unknown flags %#x", spec,
			 pa->pm_flags & ~(uint32_t)HWPMC_ALLOC_F_ALL);
		break;
	case HWPMC_ALLOC_FLAGS_SYSTEM:
		snprintf(m, len, "%s: flags %#x are for process-scope PMCs only",
			 spec, pa->pm_flags & HWPMC_ALLOC_F_PROCESS);
		break;
	case HWPMC_ALLOC_FLAGS_CHAIN:
		snprintf(m, len, "%s: %s needs a sampling mode", spec,
			 pa->pm_flags & PMC_F_USERCALLCHAIN ?
			 "PMC_F_USERCALLCHAIN (user call chains under kernel samples)" :
			 "PMC_F_USERSTACK (a copy of the user stack)");
		break;
	case HWPMC_ALLOC_FLAGS_THREAD:
		snprintf(m, len, "%s: a thread-scope PMC (PMC_F_THREAD) is of mode TC or TS, not of a thread's descendants (PMC_F_DESCENDANTS), and in TS logs no PROCCSW or PROCEXIT",
			 spec);
		break;
	case HWPMC_ALLOC_FLAGS_NOTIFY:
		snprintf(m, len, "%s: an overflow signal (PMC_F_NOTIFY) needs a thread-scope sampling PMC (PMC_MODE_TS with PMC_F_THREAD)",
			 spec);
		break;
	case HWPMC_ALLOC_EVENT:
		snprintf(m, len, "%s: class %s has no event %#x on this machine",
			 spec, cl, (unsigned int)pa->pm_ev);
		break;
	case HWPMC_ALLOC_PERF_TYPE:
		snprintf(m, len, "%s: no perf PMU of type %u", spec,
			 (unsigned int)pa->pm_md.pm_pmu.pm_type);
		break;
	case HWPMC_ALLOC_PERF_REFUSED:
		snprintf(m, len, "%s: perf type %u is not for the PERF class (the core PMU, software, breakpoints, kprobes, uprobes and AUX tracers are not), or perf refuses the configuration",
			 spec, (unsigned int)pa->pm_md.pm_pmu.pm_type);
		break;
	case HWPMC_ALLOC_PERF_SCOPE:
		snprintf(m, len, "%s: the PMU counts CPUs, not processes: count it in system scope",
			 spec);
		break;
	case HWPMC_ALLOC_PERF_CPU:
		snprintf(m, len, "%s: the PMU is a core PMU of some CPUs (its sysfs cpus), and CPU %u is not one of its CPUs",
			 spec, (unsigned int)pa->pm_cpu);
		break;
	case HWPMC_ALLOC_CAPS:
		pmc_caps_explain(m, len, spec, pa->pm_caps & ~f.ev_caps);
		break;
	case HWPMC_ALLOC_INTERRUPT:
		snprintf(m, len, "%s: the event cannot sample (no PMC_CAP_INTERRUPT); count it instead",
			 spec);
		break;
	case HWPMC_ALLOC_COUNT:
		snprintf(m, len, "%s: sampling count %ju is above perf's largest period, 2^63 - 1",
			 spec, (uintmax_t)pa->pm_count);
		break;
	case HWPMC_ALLOC_KERNEL_PRIV:
		if (pa->pm_class == PMC_CLASS_PERF && !sampling)
			snprintf(m, len, "%s: tracepoints and other perf PMUs count kernel mode, which needs CAP_PERFMON (or hwpmc's unprivileged_kernel=1)",
				 spec);
		else
			snprintf(m, len, "%s: %s kernel mode needs CAP_PERFMON (or hwpmc's unprivileged_kernel=1); add ',usr' to %s user mode only",
				 spec, sampling ? "sampling" : "counting",
				 sampling ? "sample" : "count");
		break;
	case HWPMC_ALLOC_CONFIG:
		snprintf(m, len, "%s: a perf configuration (pm_config*) is for raw events only",
			 spec);
		break;
	case HWPMC_ALLOC_RESERVED:
		snprintf(m, len, "%s: pm_md.pm_pmu.pm_type is for the PERF class only",
			 spec);
		break;
	case HWPMC_ALLOC_PRECISE:
		snprintf(m, len, "%s: pm_md.pm_pmu.pm_precise %u: perf's precise_ip is 0 to 3, and needs PMC_CAP_PRECISE",
			 spec, (unsigned int)pa->pm_md.pm_pmu.pm_precise);
		break;
	default:
		/* the module's later steps: rows, raw bits, perf (hwpmc(4)) */
		if (err == EINVAL)
			snprintf(m, len, "%s: no free PMC row of class %s (or a raw configuration the module refuses)",
				 spec, cl);
		else if (err == EPERM)
			snprintf(m, len, "%s: the raw configuration needs CAP_PERFMON",
				 spec);
		else if (err == ENXIO)
			snprintf(m, len, "%s: CPU %u went offline", spec,
				 pa->pm_cpu);
		else
			snprintf(m, len, "%s: %s", spec, strerror(err));
	}
	return (int)c;
}

/* Allocate the PMC of specifier spec, parsed into pa (the caller's). */
static int pmc_allocate_pa(const char *spec, struct pmc_op_pmcallocate *pa,
			   enum pmc_mode mode, uint32_t flags, int cpu,
			   pmc_id_t *pmcid, uint64_t count)
{
	struct pmc_op_pmcallocate_named pn;
	size_t i;
	int err;

	pa->pm_mode = mode;
	pa->pm_flags = flags;
	pa->pm_cpu = (uint32_t)cpu;
	pa->pm_count = count;
	/*
	 * The specifier names the event in the log records of the PMC
	 * where its code does not (the PERF class, raw encodings of
	 * vendor events): cut to PMC_NAME_MAX - 1 bytes, any byte but
	 * printable ASCII made '?' (the module takes no other).
	 */
	memset(&pn, 0, sizeof(pn));
	pn.pm_a = *pa;
	for (i = 0; spec && spec[i] && i + 1 < sizeof(pn.pm_evname); i++)
		pn.pm_evname[i] = spec[i] >= 0x20 && spec[i] <= 0x7e ?
				  spec[i] : '?';
	if (pmc_lib_ioctl(HWPMC_IOC_PMCALLOCATE_NAMED, &pn) < 0) {
		err = errno;
		pmc_lib_allocate_explain(spec, pa, err, pmc_alloc_msg,
					 sizeof(pmc_alloc_msg));
		errno = err;
		return -1;
	}
	*pmcid = pa->pm_pmcid = pn.pm_a.pm_pmcid;
	pmc_alloc_msg[0] = '\0';
	return 0;
}

/* pmc_allocate()'s checks of the library's state and of pmcid */
static int pmc_allocate_ready(pmc_id_t *pmcid)
{
	if (pmc_lib_ready() < 0) {
		snprintf(pmc_alloc_msg, sizeof(pmc_alloc_msg),
			 "pmc_init() has not succeeded");
		errno = ENXIO;
		return -1;
	}
	if (!pmcid) {
		snprintf(pmc_alloc_msg, sizeof(pmc_alloc_msg),
			 "no place for the PMC id (pmcid is NULL)");
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int pmc_allocate(const char *ctrspec, enum pmc_mode mode, uint32_t flags,
		 int cpu, pmc_id_t *pmcid, uint64_t count)
{
	struct pmc_spec ps;

	if (pmc_allocate_ready(pmcid) < 0)
		return -1;
	if (pmc_parse_spec_events(ctrspec, PMC_SPEC_MACHINE, &ps, pmc_alloc_msg,
				  sizeof(pmc_alloc_msg)) < 0)
		return -1;
	return pmc_allocate_pa(ctrspec, &ps.ps_pa, mode, flags, cpu, pmcid,
			       count);
}

int pmc_allocate_parsed(const char *spec,
			const struct pmc_op_pmcallocate *parsed,
			enum pmc_mode mode, uint32_t flags, int cpu,
			pmc_id_t *pmcid, uint64_t count)
{
	struct pmc_op_pmcallocate pa = { 0 };

	if (pmc_allocate_ready(pmcid) < 0)
		return -1;
	if (!spec || !parsed) {
		snprintf(pmc_alloc_msg, sizeof(pmc_alloc_msg),
			 "no specifier (spec or parsed is NULL)");
		errno = EINVAL;
		return -1;
	}
	/* what the parser fills; the rest is the call's */
	pa.pm_caps = parsed->pm_caps;
	pa.pm_class = parsed->pm_class;
	pa.pm_ev = parsed->pm_ev;
	pa.pm_md = parsed->pm_md;
	pa.pm_stacksize = parsed->pm_stacksize;
	return pmc_allocate_pa(spec, &pa, mode, flags, cpu, pmcid, count);
}

static int pmc_attach_op(unsigned long cmd, pmc_id_t pmc, pid_t pid)
{
	struct pmc_op_pmcattach a = { .pm_pmc = pmc, .pm_pid = pid };

	if (pmc_lib_ready() < 0)
		return -1;
	return pmc_lib_ioctl(cmd, &a);
}

int pmc_attach(pmc_id_t pmc, pid_t pid)
{
	return pmc_attach_op(HWPMC_IOC_PMCATTACH, pmc, pid);
}

int pmc_detach(pmc_id_t pmc, pid_t pid)
{
	return pmc_attach_op(HWPMC_IOC_PMCDETACH, pmc, pid);
}

static int pmc_simple(unsigned long cmd, pmc_id_t pmc)
{
	struct pmc_op_simple sp = { .pm_pmcid = pmc };

	if (pmc_lib_ready() < 0)
		return -1;
	return pmc_lib_ioctl(cmd, &sp);
}

int pmc_start(pmc_id_t pmc)
{
	return pmc_simple(HWPMC_IOC_PMCSTART, pmc);
}

int pmc_stop(pmc_id_t pmc)
{
	return pmc_simple(HWPMC_IOC_PMCSTOP, pmc);
}

int pmc_release(pmc_id_t pmc)
{
	return pmc_simple(HWPMC_IOC_PMCRELEASE, pmc);
}

static int pmc_rw_op(pmc_id_t pmc, uint32_t flags, pmc_value_t newvalue,
		     pmc_value_t *oldvalue)
{
	struct pmc_op_pmcrw rw = {
		.pm_flags = flags, .pm_pmcid = pmc, .pm_value = newvalue,
	};

	if (pmc_lib_ready() < 0 || pmc_lib_ioctl(HWPMC_IOC_PMCRW, &rw) < 0)
		return -1;
	if (oldvalue)
		*oldvalue = rw.pm_value;
	return 0;
}

/*
 * pmc_read() and pmc_write() are PMCRW through pread(2) and pwrite(2) at
 * the offset of the PMC id (hwpmc(4), ABI 0x01010000): no argument
 * structure to copy in and out, and no ioctl dispatch.
 */
int pmc_read(pmc_id_t pmc, pmc_value_t *value)
{
	uint64_t v;
	ssize_t n;

	if (pmc_lib_ready() < 0)
		return -1;
	do {
		n = pread64(pmc_lib.fd, &v, sizeof(v), (off64_t)pmc);
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(v)) {
		if (n >= 0)
			errno = EIO;
		return -1;
	}
	*value = v;
	return 0;
}

int pmc_write(pmc_id_t pmc, pmc_value_t value)
{
	uint64_t v = value;
	ssize_t n;

	if (pmc_lib_ready() < 0)
		return -1;
	do {
		n = pwrite64(pmc_lib.fd, &v, sizeof(v), (off64_t)pmc);
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(v)) {
		if (n >= 0)
			errno = EIO;
		return -1;
	}
	return 0;
}

int pmc_rw(pmc_id_t pmc, pmc_value_t newvalue, pmc_value_t *oldvaluep)
{
	return pmc_rw_op(pmc, PMC_F_NEWVALUE | PMC_F_OLDVALUE, newvalue,
			 oldvaluep);
}

/*
 * PMCRW_TIMES.  A module without it (older than 0x01040000) fails its
 * unknown size with EINVAL, as it fails a bad id: a plain read that then
 * succeeds tells the two apart, and its value comes with unknown times.
 */
int pmc_read_times(pmc_id_t pmc, pmc_value_t *value, uint64_t *enabled_ns,
		   uint64_t *running_ns)
{
	struct pmc_op_pmcrw_times rt = {
		.pm_rw = { .pm_flags = PMC_F_OLDVALUE, .pm_pmcid = pmc },
	};
	pmc_value_t v;

	if (!value || !enabled_ns || !running_ns) {
		errno = EINVAL;
		return -1;
	}
	if (pmc_lib_ready() < 0)
		return -1;
	if (pmc_lib_ioctl(HWPMC_IOC_PMCRW_TIMES, &rt) < 0) {
		if (errno != EINVAL || pmc_read(pmc, &v) < 0)
			return -1;
		rt.pm_rw.pm_value = v;
		rt.pm_tflags = 0;
	}
	*value = rt.pm_rw.pm_value;
	if (rt.pm_tflags & PMC_RWT_TIMES) {
		*enabled_ns = rt.pm_enabled;
		*running_ns = rt.pm_running;
	} else {
		*enabled_ns = PMC_TIME_UNKNOWN;
		*running_ns = PMC_TIME_UNKNOWN;
	}
	return 0;
}

int pmc_set(pmc_id_t pmc, pmc_value_t value)
{
	struct pmc_op_pmcsetcount sc = { .pm_count = value, .pm_pmcid = pmc };

	if (pmc_lib_ready() < 0)
		return -1;
	return pmc_lib_ioctl(HWPMC_IOC_PMCSETCOUNT, &sc);
}

int pmc_capabilities(pmc_id_t pmc, uint32_t *caps)
{
	struct pmc_op_caps gc = { .pm_pmcid = pmc };

	if (pmc_lib_ready() < 0 || pmc_lib_ioctl(HWPMC_IOC_GETCAPS, &gc) < 0)
		return -1;
	*caps = gc.pm_caps;
	return 0;
}

int pmc_width(pmc_id_t pmc, uint32_t *width)
{
	uint32_t i, cl = PMC_ID_TO_CLASS(pmc);

	if (pmc_lib_ready() < 0)
		return -1;
	for (i = 0; i < pmc_lib.cpuinfo.pm_nclass; i++)
		if (pmc_lib.cpuinfo.pm_classes[i].pm_class == cl) {
			*width = pmc_lib.cpuinfo.pm_classes[i].pm_width;
			return 0;
		}
	errno = EINVAL;
	return -1;
}

/* The module says EOPNOTSUPP (kernel style); FreeBSD's callers want ENOSYS. */
int pmc_get_msr(pmc_id_t pmc, uint32_t *msr)
{
	struct pmc_op_getmsr gm = { .pm_pmcid = pmc };

	if (pmc_lib_ready() < 0)
		return -1;
	if (pmc_lib_ioctl(HWPMC_IOC_PMCGETMSR, &gm) < 0) {
		if (errno == EOPNOTSUPP)
			errno = ENOSYS;
		return -1;
	}
	*msr = gm.pm_msr;
	return 0;
}
