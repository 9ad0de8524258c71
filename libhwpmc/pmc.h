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
 * The log these functions write is read with pmclog(3), <pmclog.h>.
 */
#ifndef _HWPMC_PMC_H_
#define _HWPMC_PMC_H_

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/hwpmc.h>

#ifndef EPROGMISMATCH
#define EPROGMISMATCH	EPROTO		/* ABI version mismatch */
#endif
#ifndef EDOOFUS
#define EDOOFUS		EDESTADDRREQ	/* programming error */
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t pmc_id_t;
typedef uint64_t pmc_value_t;

/*
 * FreeBSD's enumerations.  Their constants are the PMC_* macros of
 * <linux/hwpmc.h>; the enumerators below only give the types their range
 * (so that switch statements over the macros do not warn).  They are not
 * part of the API.
 */
enum pmc_class {
	PMC__CLASS_TSC = PMC_CLASS_TSC, PMC__CLASS_K8 = PMC_CLASS_K8,
	PMC__CLASS_IBS = PMC_CLASS_IBS, PMC__CLASS_IAF = PMC_CLASS_IAF,
	PMC__CLASS_IAP = PMC_CLASS_IAP, PMC__CLASS_UCF = PMC_CLASS_UCF,
	PMC__CLASS_UCP = PMC_CLASS_UCP, PMC__CLASS_XSCALE = PMC_CLASS_XSCALE,
	PMC__CLASS_PPC7450 = PMC_CLASS_PPC7450,
	PMC__CLASS_PPC970 = PMC_CLASS_PPC970,
	PMC__CLASS_SOFT = PMC_CLASS_SOFT, PMC__CLASS_ARMV7 = PMC_CLASS_ARMV7,
	PMC__CLASS_ARMV8 = PMC_CLASS_ARMV8, PMC__CLASS_E500 = PMC_CLASS_E500,
	PMC__CLASS_POWER8 = PMC_CLASS_POWER8,
	PMC__CLASS_DMC620_PMU_CD2 = PMC_CLASS_DMC620_PMU_CD2,
	PMC__CLASS_DMC620_PMU_C = PMC_CLASS_DMC620_PMU_C,
	PMC__CLASS_CMN600_PMU = PMC_CLASS_CMN600_PMU,
	PMC__CLASS_RAPL = PMC_CLASS_RAPL, PMC__CLASS_PMU = PMC_CLASS_PMU,
};

/*
 * FreeBSD 14's CPU types.  pmc_cpuinfo() reports the one of the CPU
 * where its pmu-events model has one (pmc(3)), else the module's Linux
 * type (PMC_CPU_LINUX_X86, _ARM64, _OTHER) or PMC_CPU_GENERIC.
 */
#define PMC_CPU_AMD_K7			0x00
#define PMC_CPU_AMD_K8			0x01
#define PMC_CPU_INTEL_CORE		0x87
#define PMC_CPU_INTEL_CORE2		0x88
#define PMC_CPU_INTEL_CORE2EXTREME	0x89
#define PMC_CPU_INTEL_ATOM		0x8A
#define PMC_CPU_INTEL_COREI7		0x8B
#define PMC_CPU_INTEL_WESTMERE		0x8C
#define PMC_CPU_INTEL_SANDYBRIDGE	0x8D
#define PMC_CPU_INTEL_IVYBRIDGE		0x8E
#define PMC_CPU_INTEL_SANDYBRIDGE_XEON	0x8F
#define PMC_CPU_INTEL_IVYBRIDGE_XEON	0x90
#define PMC_CPU_INTEL_HASWELL		0x91
#define PMC_CPU_INTEL_ATOM_SILVERMONT	0x92
#define PMC_CPU_INTEL_NEHALEM_EX	0x93
#define PMC_CPU_INTEL_WESTMERE_EX	0x94
#define PMC_CPU_INTEL_HASWELL_XEON	0x95
#define PMC_CPU_INTEL_BROADWELL		0x96
#define PMC_CPU_INTEL_BROADWELL_XEON	0x97
#define PMC_CPU_INTEL_SKYLAKE		0x98
#define PMC_CPU_INTEL_SKYLAKE_XEON	0x99
#define PMC_CPU_INTEL_ATOM_GOLDMONT	0x9A
#define PMC_CPU_INTEL_ICELAKE		0x9B
#define PMC_CPU_INTEL_ICELAKE_XEON	0x9C
#define PMC_CPU_INTEL_ALDERLAKE		0x9D
#define PMC_CPU_INTEL_ATOM_GOLDMONT_P	0x9E
#define PMC_CPU_INTEL_ATOM_TREMONT	0x9F
#define PMC_CPU_INTEL_XSCALE		0x100
#define PMC_CPU_PPC_7450		0x300
#define PMC_CPU_PPC_E500		0x340
#define PMC_CPU_PPC_970			0x380
#define PMC_CPU_PPC_POWER8		0x390
#define PMC_CPU_ARMV7_CORTEX_A5		0x500
#define PMC_CPU_ARMV7_CORTEX_A7		0x501
#define PMC_CPU_ARMV7_CORTEX_A8		0x502
#define PMC_CPU_ARMV7_CORTEX_A9		0x503
#define PMC_CPU_ARMV7_CORTEX_A15	0x504
#define PMC_CPU_ARMV7_CORTEX_A17	0x505
#define PMC_CPU_ARMV8_CORTEX_A53	0x600
#define PMC_CPU_ARMV8_CORTEX_A57	0x601
#define PMC_CPU_ARMV8_CORTEX_A76	0x602

enum pmc_cputype {
	PMC__CPU_AMD_K7 = PMC_CPU_AMD_K7,
	PMC__CPU_ARMV8_CORTEX_A76 = PMC_CPU_ARMV8_CORTEX_A76,
	PMC__CPU_GENERIC = PMC_CPU_GENERIC,
	PMC__CPU_LINUX_X86 = PMC_CPU_LINUX_X86,
	PMC__CPU_LINUX_ARM64 = PMC_CPU_LINUX_ARM64,
	PMC__CPU_LINUX_OTHER = PMC_CPU_LINUX_OTHER,
};

enum pmc_mode {
	PMC__MODE_SS = PMC_MODE_SS, PMC__MODE_SC = PMC_MODE_SC,
	PMC__MODE_TS = PMC_MODE_TS, PMC__MODE_TC = PMC_MODE_TC,
	PMC__MODE_INVALID = PMC_MODE_INVALID,
};

enum pmc_state {
	PMC__STATE_DISABLED = PMC_STATE_DISABLED,
	PMC__STATE_FREE = PMC_STATE_FREE,
	PMC__STATE_ALLOCATED = PMC_STATE_ALLOCATED,
	PMC__STATE_STOPPED = PMC_STATE_STOPPED,
	PMC__STATE_RUNNING = PMC_STATE_RUNNING,
	PMC__STATE_DELETED = PMC_STATE_DELETED,
};

enum pmc_disp {
	PMC__DISP_STANDALONE = PMC_DISP_STANDALONE,
	PMC__DISP_FREE = PMC_DISP_FREE,
	PMC__DISP_THREAD = PMC_DISP_THREAD,
	PMC__DISP_UNKNOWN = PMC_DISP_UNKNOWN,
};

enum pmc_caps {
	PMC__CAP_INTERRUPT = PMC_CAP_INTERRUPT, PMC__CAP_USER = PMC_CAP_USER,
	PMC__CAP_SYSTEM = PMC_CAP_SYSTEM, PMC__CAP_EDGE = PMC_CAP_EDGE,
	PMC__CAP_THRESHOLD = PMC_CAP_THRESHOLD, PMC__CAP_READ = PMC_CAP_READ,
	PMC__CAP_WRITE = PMC_CAP_WRITE, PMC__CAP_INVERT = PMC_CAP_INVERT,
	PMC__CAP_QUALIFIER = PMC_CAP_QUALIFIER,
	PMC__CAP_PRECISE = PMC_CAP_PRECISE, PMC__CAP_TAGGING = PMC_CAP_TAGGING,
	PMC__CAP_CASCADE = PMC_CAP_CASCADE, PMC__CAP_SYSWIDE = PMC_CAP_SYSWIDE,
	PMC__CAP_DOMWIDE = PMC_CAP_DOMWIDE,
};

/* Event codes are dynamic (GETDYNEVENTINFO); see <linux/hwpmc.h>. */
enum pmc_event {
	PMC__EV_FIRST = PMC_EV_FIRST,
	PMC__EV_LAST = PMC_EV_LAST,
};

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

const char *pmc_pmu_cpuid(void);
const char *pmc_pmu_model(void);
int	pmc_pmu_event_info(int _idx, struct pmc_pmu_event_info *_info);

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
