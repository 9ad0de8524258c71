// SPDX-License-Identifier: BSD-2-Clause
/*
 * libhwpmc: pmc(3)'s PMC operations, FreeBSD's signatures and errno.
 */
#include <stdio.h>
#include <string.h>

#include "libpmc_internal.h"

static char pmc_alloc_msg[256];

const char *pmc_allocate_message(void)
{
	return pmc_alloc_msg;
}

int pmc_allocate(const char *ctrspec, enum pmc_mode mode, uint32_t flags,
		 int cpu, pmc_id_t *pmcid, uint64_t count)
{
	struct pmc_op_pmcallocate pa;
	int err;

	if (pmc_lib_ready() < 0)
		return -1;
	if (pmc_parse_spec(ctrspec, &pa, pmc_alloc_msg,
			   sizeof(pmc_alloc_msg)) < 0)
		return -1;
	pa.pm_mode = mode;
	pa.pm_flags = flags;
	pa.pm_cpu = (uint32_t)cpu;
	pa.pm_count = count;
	if (pmc_lib_ioctl(HWPMC_IOC_PMCALLOCATE, &pa) < 0) {
		err = errno;
		snprintf(pmc_alloc_msg, sizeof(pmc_alloc_msg), "%s: %s",
			 ctrspec, strerror(err));
		errno = err;
		return -1;
	}
	*pmcid = pa.pm_pmcid;
	pmc_alloc_msg[0] = '\0';
	return 0;
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

int pmc_read(pmc_id_t pmc, pmc_value_t *value)
{
	return pmc_rw_op(pmc, PMC_F_OLDVALUE, 0, value);
}

int pmc_write(pmc_id_t pmc, pmc_value_t value)
{
	return pmc_rw_op(pmc, PMC_F_NEWVALUE, value, NULL);
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
