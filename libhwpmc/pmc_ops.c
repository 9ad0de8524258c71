// SPDX-License-Identifier: BSD-2-Clause
/*
 * libhwpmc: configuration and state operations of pmc(3).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "libpmc_internal.h"

#define PMC_PMCINFO_RETRIES	8

int pmc_cpuinfo(const struct pmc_cpuinfo **cpu_info)
{
	if (pmc_lib_ready() < 0)
		return -1;
	if (!cpu_info) {
		errno = EINVAL;
		return -1;
	}
	*cpu_info = &pmc_lib.cpuinfo;
	return 0;
}

int pmc_ncpu(void)
{
	if (pmc_lib_ready() < 0)
		return -1;
	return (int)pmc_lib.cpuinfo.pm_ncpu;
}

int pmc_npmc(int cpu)
{
	if (pmc_lib_ready() < 0)
		return -1;
	if (cpu < 0 || (uint32_t)cpu >= pmc_lib.cpuinfo.pm_ncpu) {
		errno = EINVAL;
		return -1;
	}
	return (int)pmc_lib.cpuinfo.pm_npmc;
}

int pmc_pmcinfo(int cpu, struct pmc_pmcinfo **ppmci)
{
	struct pmc_op_getpmcinfo gpi;
	struct pmc_pmcinfo *pi = NULL, *npi;
	uint32_t room = pmc_lib.cpuinfo.pm_npmc;
	int tries;

	if (pmc_lib_ready() < 0)
		return -1;
	if (!ppmci || cpu < 0 || (uint32_t)cpu >= pmc_lib.cpuinfo.pm_ncpu) {
		errno = EINVAL;
		return -1;
	}

	/* Rows are fixed while the module is loaded; retry if not. */
	for (tries = 0; tries < PMC_PMCINFO_RETRIES; tries++) {
		npi = realloc(pi, sizeof(*pi) +
			      (room ? room : 1) * sizeof(pi->pm_pmcs[0]));
		if (!npi)
			goto fail;
		pi = npi;
		memset(pi, 0, sizeof(*pi) + room * sizeof(pi->pm_pmcs[0]));
		memset(&gpi, 0, sizeof(gpi));
		gpi.pm_cpu = cpu;
		gpi.pm_npmc = room;
		gpi.pm_pmcs = (uintptr_t)pi->pm_pmcs;
		if (pmc_lib_ioctl(HWPMC_IOC_GETPMCINFO, &gpi) == 0)
			break;
		if (errno != E2BIG || gpi.pm_npmc <= room)
			goto fail;
		room = gpi.pm_npmc;
	}
	if (tries == PMC_PMCINFO_RETRIES) {
		errno = EAGAIN;
		goto fail;
	}
	pi->pm_cpu = cpu;
	pi->pm_npmc = gpi.pm_npmc < room ? gpi.pm_npmc : room;
	*ppmci = pi;
	return 0;
fail:
	free(pi);
	return -1;
}

int pmc_get_driver_stats(struct pmc_driverstats *gms)
{
	struct pmc_op_getdriverstats st;

	if (pmc_lib_ready() < 0)
		return -1;
	if (!gms) {
		errno = EINVAL;
		return -1;
	}
	memset(&st, 0, sizeof(st));
	if (pmc_lib_ioctl(HWPMC_IOC_GETDRIVERSTATS, &st) < 0)
		return -1;
	/* low 32 bits: see pmc.h */
	gms->pm_intr_ignored = (unsigned int)st.pm_intr_ignored;
	gms->pm_intr_processed = (unsigned int)st.pm_intr_processed;
	gms->pm_intr_bufferfull = (unsigned int)st.pm_intr_bufferfull;
	gms->pm_syscalls = (unsigned int)st.pm_syscalls;
	gms->pm_syscall_errors = (unsigned int)st.pm_syscall_errors;
	gms->pm_buffer_requests = (unsigned int)st.pm_buffer_requests;
	gms->pm_buffer_requests_failed =
		(unsigned int)st.pm_buffer_requests_failed;
	gms->pm_log_sweeps = (unsigned int)st.pm_log_sweeps;
	gms->pm_merges = (unsigned int)st.pm_merges;
	gms->pm_overwrites = (unsigned int)st.pm_overwrites;
	gms->pm_log_records_dropped = (unsigned int)st.pm_log_records_dropped;
	gms->pm_log_write_errors = (unsigned int)st.pm_log_write_errors;
	gms->pm_lifecycle_events = (unsigned int)st.pm_lifecycle_events;
	gms->pm_stacks_dropped = (unsigned int)st.pm_stacks_dropped;
	return 0;
}

static int pmc_admin(int cpu, int pmc, uint32_t state)
{
	struct pmc_op_pmcadmin pa;

	if (pmc_lib_ready() < 0)
		return -1;
	memset(&pa, 0, sizeof(pa));
	pa.pm_cpu = cpu;
	pa.pm_pmc = pmc;
	pa.pm_state = state;
	return pmc_lib_ioctl(HWPMC_IOC_PMCADMIN, &pa);
}

int pmc_enable(int cpu, int pmc)
{
	return pmc_admin(cpu, pmc, PMC_STATE_FREE);
}

int pmc_disable(int cpu, int pmc)
{
	return pmc_admin(cpu, pmc, PMC_STATE_DISABLED);
}

int pmc_event_caps(enum pmc_class cl, enum pmc_event ev, uint32_t *caps)
{
	struct pmc_op_caps pc;

	if (pmc_lib_ready() < 0)
		return -1;
	if (!caps) {
		errno = EINVAL;
		return -1;
	}
	memset(&pc, 0, sizeof(pc));
	pc.pm_pmcid = PMC_ID_INVALID;
	pc.pm_class = (uint32_t)cl;
	pc.pm_ev = (uint32_t)ev;
	if (pmc_lib_ioctl(HWPMC_IOC_GETCAPS, &pc) < 0)
		return -1;
	*caps = pc.pm_caps;
	return 0;
}

/* -- the log ------------------------------------------------------------------ */

/*
 * FLUSHLOG and CLOSELOG (and CONFIGURELOG with -1) wait for the log's
 * writer, and a signal interrupts the wait: EINTR goes back to the caller,
 * not retried, since a stuck reader would make a retry wait forever, and
 * a closed log cannot be closed again.
 */
static int pmc_log_ioctl(unsigned long cmd, void *arg)
{
	if (pmc_lib_ready() < 0)
		return -1;
	return ioctl(pmc_lib.fd, cmd, arg) < 0 ? -1 : 0;
}

int pmc_configure_logfile_flags(int fd, uint32_t flags)
{
	struct pmc_op_configurelog cl;

	memset(&cl, 0, sizeof(cl));
	cl.pm_flags = flags;
	cl.pm_logfd = fd;
	return pmc_log_ioctl(HWPMC_IOC_CONFIGURELOG, &cl);
}

int pmc_configure_logfile(int fd)
{
	return pmc_configure_logfile_flags(fd, 0);
}

int pmc_flush_logfile(void)
{
	return pmc_log_ioctl(HWPMC_IOC_FLUSHLOG, NULL);
}

int pmc_close_logfile(void)
{
	return pmc_log_ioctl(HWPMC_IOC_CLOSELOG, NULL);
}

int pmc_writelog(uint32_t userdata)
{
	struct pmc_op_writelog wl;

	if (pmc_lib_ready() < 0)
		return -1;
	memset(&wl, 0, sizeof(wl));
	wl.pm_userdata = userdata;
	return pmc_lib_ioctl(HWPMC_IOC_WRITELOG, &wl);
}
