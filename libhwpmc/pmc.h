/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libhwpmc: FreeBSD's pmc(3) interface to hwpmc for Linux.
 *
 * A program written against FreeBSD's <pmc.h> recompiles here: the names,
 * argument types and errno conventions are FreeBSD's.  Every function
 * returns 0 (or a count) on success and -1 with errno set on failure;
 * the name-of functions return NULL with errno EINVAL for values they do
 * not know.  Functions that need the module fail with ENXIO until
 * pmc_init() has succeeded, as on FreeBSD.
 *
 * Errno mapping: Linux has no EPROGMISMATCH and no EDOOFUS.
 *   EPROGMISMATCH (library and module ABI differ)  -> EPROTO
 *   EDOOFUS       (programming error in the caller) -> EDESTADDRREQ
 * Both are defined below when <errno.h> lacks them, so FreeBSD code
 * comparing errno with these names keeps working.
 *
 * Thread safety: as on FreeBSD, pmc_init() and pmc_fini() are not
 * thread-safe; call pmc_init() once before starting threads.  After that,
 * the other functions may be called from any thread.
 *
 * The constants, types and structures of the interface are in <sys/pmc.h>,
 * as on FreeBSD: enumerators of FreeBSD's enum types, over the structures
 * of <linux/hwpmc.h>.
 *
 * The log these functions write is read with pmclog(3), <pmclog.h>.
 */
#ifndef _HWPMC_PMC_H_
#define _HWPMC_PMC_H_

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/pmc.h>

#ifndef EPROGMISMATCH
#define EPROGMISMATCH	EPROTO		/* ABI version mismatch */
#endif
#ifndef EDOOFUS
#define EDOOFUS		EDESTADDRREQ	/* programming error */
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Driver statistics: FreeBSD's eight counters, then Linux additions.  The
 * module keeps 64-bit counters; these are their low 32 bits, so that
 * differences of two snapshots stay exact across a wrap (FreeBSD does the
 * same).
 */
struct pmc_driverstats {
	unsigned int	pm_intr_ignored;	/* overflows for no live PMC */
	unsigned int	pm_intr_processed;	/* samples taken */
	unsigned int	pm_intr_bufferfull;	/* samples lost: ring full */
	unsigned int	pm_syscalls;		/* operations */
	unsigned int	pm_syscall_errors;	/* operations that failed */
	unsigned int	pm_buffer_requests;	/* log buffers requested */
	unsigned int	pm_buffer_requests_failed; /* ... not available */
	unsigned int	pm_log_sweeps;		/* sample ring drains */
	/* Linux additions */
	unsigned int	pm_merges;		/* kernel+user chains merged */
	unsigned int	pm_overwrites;		/* pending user chains lost */
	unsigned int	pm_log_records_dropped;	/* log records lost */
	unsigned int	pm_log_write_errors;	/* failed log file writes */
	unsigned int	pm_lifecycle_events;	/* watched exits, execs */
	unsigned int	pm_stacks_dropped;	/* user stack copies lost */
};

/*
 * CPU information: the layout of struct pmc_op_getcpuinfo (FreeBSD also
 * declares it as a struct of its own rather than a macro, which would
 * rename the function pmc_cpuinfo()).
 */
struct pmc_cpuinfo {
	enum pmc_cputype pm_cputype;	/* PMC_CPU_* */
	uint32_t	pm_ncpu;	/* number of possible CPUs */
	uint32_t	pm_npmc;	/* PMC rows per CPU, all classes */
	uint32_t	pm_nclass;	/* entries used in pm_classes */
	struct pmc_classinfo pm_classes[PMC_CLASS_MAX];
};

/*
 * Current PMC state of one CPU, from pmc_pmcinfo().  pm_npmc (a Linux
 * addition) is the number of entries in pm_pmcs.
 */
struct pmc_pmcinfo {
	int32_t		pm_cpu;		/* CPU number */
	uint32_t	pm_npmc;	/* entries in pm_pmcs */
	struct pmc_info	pm_pmcs[];	/* one per row */
};

/* Initialisation. */
int	pmc_init(void);
void	pmc_fini(void);			/* Linux: close, free caches */
const char *pmc_init_message(void);	/* Linux: why pmc_init failed */

/* Configuration and state. */
int	pmc_cpuinfo(const struct pmc_cpuinfo **_cpu_info);
int	pmc_ncpu(void);
int	pmc_npmc(int _cpu);
int	pmc_pmcinfo(int _cpu, struct pmc_pmcinfo **_pmc_info);
int	pmc_get_driver_stats(struct pmc_driverstats *_gms);
int	pmc_enable(int _cpu, int _pmc);
int	pmc_disable(int _cpu, int _pmc);
int	pmc_event_caps(enum pmc_class _cl, enum pmc_event _ev,
		       uint32_t *_caps);	/* Linux: GETCAPS by event */

/* PMCs (FreeBSD's pmc(3)). */
int	pmc_allocate(const char *_ctrspec, enum pmc_mode _mode,
		     uint32_t _flags, int _cpu, pmc_id_t *_pmcid,
		     uint64_t _count);
int	pmc_attach(pmc_id_t _pmcid, pid_t _pid);
int	pmc_detach(pmc_id_t _pmcid, pid_t _pid);
int	pmc_start(pmc_id_t _pmcid);
int	pmc_stop(pmc_id_t _pmcid);
int	pmc_release(pmc_id_t _pmcid);
int	pmc_read(pmc_id_t _pmcid, pmc_value_t *_value);
int	pmc_write(pmc_id_t _pmcid, pmc_value_t _value);
int	pmc_rw(pmc_id_t _pmcid, pmc_value_t _newvalue,
	       pmc_value_t *_oldvaluep);
int	pmc_set(pmc_id_t _pmcid, pmc_value_t _value);
/*
 * Linux addition (ABI 0x01040000): pmc_read() with the times of the
 * count, perf's time_enabled and time_running in nanoseconds: how long
 * the PMC was started since its value was last written, and how long of
 * that it really counted.  *_running_ns < *_enabled_ns: the value is
 * partial (not scaled); *_running_ns 0: nothing was counted.  Both are
 * PMC_TIME_UNKNOWN where the module cannot tell (process PMCs; a module
 * without PMCRW_TIMES): the value is then pmc_read()'s, ENODATA included.
 */
#define PMC_TIME_UNKNOWN	UINT64_MAX
int	pmc_read_times(pmc_id_t _pmcid, pmc_value_t *_value,
		       uint64_t *_enabled_ns, uint64_t *_running_ns);
int	pmc_capabilities(pmc_id_t _pmc, uint32_t *_caps);
int	pmc_width(pmc_id_t _pmc, uint32_t *_width);
int	pmc_get_msr(pmc_id_t _pmc, uint32_t *_msr);

/*
 * The log: records of the owner's PMCs (samples, PROCCSW, PROCEXIT...)
 * written by the module to fd (a file, pipe or socket open for writing;
 * the module keeps its own reference, so the caller may close fd).
 * pmc_configure_logfile(-1) closes the log, as pmc_close_logfile().
 * pmc_flush_logfile() waits until what is logged so far is written and
 * reports a write error (EPIPE, ENOSPC...) the module met.
 */
int	pmc_configure_logfile(int _fd);
/*
 * Linux: pmc_configure_logfile() with PMC_LOG_* flags.  With
 * PMC_LOG_KERNEL_PROFILES the log also takes the samples of the kernel's
 * profiles, pmc(9)'s pmc_start_profiling() (EBUSY: another log does;
 * EPERM: the caller lacks CAP_PERFMON or may not see kernel addresses).
 */
int	pmc_configure_logfile_flags(int _fd, uint32_t _flags);
int	pmc_flush_logfile(void);
int	pmc_close_logfile(void);
int	pmc_writelog(uint32_t _udata);

/*
 * Linux additions.  pmc_allocate_message(): why the calling thread's last
 * pmc_allocate() failed, in words naming the bad token ("" after a
 * success).  pmc_parse_spec(): the event specifier parser pmc_allocate()
 * uses; fills pm_class, pm_ev, pm_caps and pm_md (pm_cpu = PMC_CPU_ANY,
 * the rest 0), or returns -1 with errno EINVAL and the message in err.
 * After pmc_init() it knows which events this machine has; before, it
 * accepts every event hwpmc knows.
 */
const char *pmc_allocate_message(void);
int	pmc_parse_spec(const char *_spec, struct pmc_op_pmcallocate *_pa,
		       char *_err, size_t _errlen);

/*
 * Linux additions: a specifier parsed once, allocated many times (on each
 * CPU, again with other caps).  pmc_parse_spec_events() is
 * pmc_parse_spec() with the events it knows chosen by the caller:
 * PMC_SPEC_KNOWN, every event hwpmc knows (no module needed: a pure
 * function of the specifier and HWPMC_CPUID); PMC_SPEC_MACHINE, this
 * machine's (after pmc_init(); before, -1 with errno ENXIO).  It fills
 * ps_pa as pmc_parse_spec() fills pa, and ps_modes with the modes the
 * specifier names (":u", ":k", "usr", "os"; ps_pa.pm_caps has no mode
 * when it names both).  pmc_allocate_parsed() is pmc_allocate() of a
 * parsed specifier: pa's pm_class, pm_ev, pm_caps and pm_md, the rest
 * from its arguments; spec (the specifier as written) names the PMC in
 * pmc_allocate_message().
 */
enum pmc_spec_events {
	PMC_SPEC_KNOWN,			/* every event hwpmc knows */
	PMC_SPEC_MACHINE,		/* this machine's (pmc_init()) */
};

struct pmc_spec {
	struct pmc_op_pmcallocate ps_pa;	/* class, event, caps, pm_md */
	uint32_t	ps_modes;	/* named: PMC_CAP_USER, _SYSTEM */
};

int	pmc_parse_spec_events(const char *_spec, enum pmc_spec_events _events,
			      struct pmc_spec *_ps, char *_err, size_t _errlen);
int	pmc_allocate_parsed(const char *_spec,
			    const struct pmc_op_pmcallocate *_pa,
			    enum pmc_mode _mode, uint32_t _flags, int _cpu,
			    pmc_id_t *_pmcid, uint64_t _count);

/*
 * Linux addition: the aliases the specifier parser knows (perf's short
 * forms, FreeBSD's generic names, generic_events(3CPC)'s PAPI names),
 * idx from 0: the alias and the event it names (static strings); -1 with
 * errno ENOENT past the end.
 */
int	pmc_event_alias(int _idx, const char **_alias, const char **_name);

/*
 * Vendor events: the kernel's pmu-events tables of the CPU named by
 * HWPMC_CPUID (perf's PERF_CPUID format) or of this machine; none of
 * these needs the module.  FreeBSD's functions first: cpuid NULL means
 * that CPU.  pmc_pmu_pmcallocate() returns 0 or an errno value and fills
 * pm_class, pm_ev (PMC_EV_PMU_RAW) and pm_md.  The Linux additions give
 * the CPU id, the table's name ("skylakex", "arm/cortex-a57-a72") and
 * each event of the table (idx from 0; -1 with errno ENOENT past the
 * end); their strings are static.
 */
int	pmc_pmu_enabled(void);
void	pmc_pmu_print_counters(const char *_event_name);
void	pmc_pmu_print_counter_desc(const char *_event_name);
void	pmc_pmu_print_counter_desc_long(const char *_event_name);
void	pmc_pmu_print_counter_full(const char *_event_name);
uint64_t pmc_pmu_sample_rate_get(const char *_event_name);
int	pmc_pmu_pmcallocate(const char *_event_name,
			    struct pmc_op_pmcallocate *_pm);
const char *pmc_pmu_event_get_by_idx(const char *_cpuid, int _idx);
int	pmc_pmu_idx_get_by_event(const char *_cpuid, const char *_event);

struct pmc_pmu_event_info {
	const char	*pe_name;	/* lower case: "inst_retired.any" */
	const char	*pe_desc;	/* brief description, or "" */
	const char	*pe_topic;	/* "cache", "pipeline", ... */
	const char	*pe_encoding;	/* perf terms: "event=0xc0,umask=0x1" */
	uint64_t	pe_period;	/* the tables' sample-after value, or 0 */
	int		pe_precise;	/* can be precise (:p) */
	int		pe_deprecated;
};

/*
 * Linux additions: the PERF class (perf PMUs other than the core one,
 * tracepoints).  pmc_perf_cpus(): for a parsed PERF-class request pa,
 * the CPUs to count it on in system scope: set[cpu] = 1 for the CPUs of
 * its PMU's sysfs cpumask (uncore, power: one CPU per package) or cpus
 * (a core PMU of some CPUs: hybrid Intel's cpu_atom), every CPU when it
 * has neither; returns 1 when the PMU has one, 0 when not, -1 (EINVAL)
 * for no PERF-class request.  pmc_perf_pmu_events():
 * calls fn for each sysfs event of each PMU other than the core one
 * ("msr", "tsc", "event=0x00"), in name order; returns the number of
 * events, or -1.
 */
int	pmc_perf_cpus(const struct pmc_op_pmcallocate *_pa, unsigned char *_set,
		      int _ncpu);
int	pmc_perf_pmu_events(void (*_fn)(const char *_pmu, const char *_event,
					const char *_terms, void *_arg),
			    void *_arg);

const char *pmc_pmu_cpuid(void);
const char *pmc_pmu_model(void);
int	pmc_pmu_event_info(int _idx, struct pmc_pmu_event_info *_info);
const char *pmc_pmu_event_long_desc(int _idx);
const char *pmc_pmu_event_pfm_name(int _idx);

/* Names. */
const char *pmc_name_of_capability(enum pmc_caps _c);
const char *pmc_name_of_class(enum pmc_class _pc);
const char *pmc_name_of_cputype(enum pmc_cputype _cp);
const char *pmc_name_of_disposition(enum pmc_disp _pd);
const char *pmc_name_of_event(enum pmc_event _pe);
const char *pmc_name_of_mode(enum pmc_mode _pm);
const char *pmc_name_of_state(enum pmc_state _ps);
int	pmc_event_names_of_class(enum pmc_class _cl,
				 const char ***_eventnames, int *_nevents);

#ifdef __cplusplus
}
#endif

#endif /* _HWPMC_PMC_H_ */
