// SPDX-License-Identifier: BSD-2-Clause
/*
 * libhwpmc: pmc(3)'s PMC operations, FreeBSD's signatures and errno.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "libpmc_internal.h"

/* Per thread, as errno is: why this thread's last pmc_allocate() failed. */
static _Thread_local char pmc_alloc_msg[384];

const char *pmc_allocate_message(void)
{
	return pmc_alloc_msg;
}

/* The module's refusal of a well-formed specifier, in words. */
static void pmc_allocate_explain(const char *spec,
				 const struct pmc_op_pmcallocate *pa, int err)
{
	char *m = pmc_alloc_msg;
	size_t len = sizeof(pmc_alloc_msg);
	uint32_t modes = pa->pm_caps & (PMC_CAP_USER | PMC_CAP_SYSTEM);
	int sys = PMC_IS_SYSTEM_MODE(pa->pm_mode);

	switch (err) {
	case EINVAL:
		if (pa->pm_mode > PMC_MODE_LAST)
			snprintf(m, len, "%s: bad mode %u", spec, pa->pm_mode);
		else if (!sys && pa->pm_cpu != (uint32_t)PMC_CPU_ANY)
			snprintf(m, len, "%s: process-scope PMCs take CPU PMC_CPU_ANY, not %d",
				 spec, (int)pa->pm_cpu);
		else if (sys && pa->pm_cpu == (uint32_t)PMC_CPU_ANY)
			snprintf(m, len, "%s: system-scope PMCs need a CPU number",
				 spec);
		else if (sys && pa->pm_cpu >= pmc_lib.cpuinfo.pm_ncpu)
			snprintf(m, len, "%s: no CPU %u (CPUs 0-%u)", spec,
				 pa->pm_cpu, pmc_lib.cpuinfo.pm_ncpu - 1);
		else
			snprintf(m, len, "%s: refused (flags %#x; or no free PMC row)",
				 spec, pa->pm_flags);
		break;
	case ENXIO:
		snprintf(m, len, "%s: CPU %u is offline", spec, pa->pm_cpu);
		break;
	case EOPNOTSUPP:
		if (pa->pm_caps & PMC_CAP_PRECISE)
			snprintf(m, len, "%s: precise events (:p) are not offered by this hwpmc module",
				 spec);
		else if (PMC_IS_SAMPLING_MODE(pa->pm_mode))
			snprintf(m, len, "%s: sampling modes are not available yet",
				 spec);
		else
			snprintf(m, len, "%s: the event cannot count %s mode alone",
				 spec, modes == PMC_CAP_USER ? "user" : "kernel");
		break;
	case EPERM:
		if (sys)
			snprintf(m, len, "%s: system-scope PMCs need CAP_PERFMON (or hwpmc's unprivileged_syspmcs=1)",
				 spec);
		else
			snprintf(m, len, "%s: counting kernel mode needs CAP_PERFMON; add ',usr' to count user mode only",
				 spec);
		break;
	default:
		snprintf(m, len, "%s: %s", spec, strerror(err));
	}
}

/* Allocate the PMC of specifier spec, parsed into pa (the caller's). */
static int pmc_allocate_pa(const char *spec, struct pmc_op_pmcallocate *pa,
			   enum pmc_mode mode, uint32_t flags, int cpu,
			   pmc_id_t *pmcid, uint64_t count)
{
	int err;

	pa->pm_mode = mode;
	pa->pm_flags = flags;
	pa->pm_cpu = (uint32_t)cpu;
	pa->pm_count = count;
	if (pmc_lib_ioctl(HWPMC_IOC_PMCALLOCATE, pa) < 0) {
		err = errno;
		pmc_allocate_explain(spec, pa, err);
		errno = err;
		return -1;
	}
	*pmcid = pa->pm_pmcid;
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
