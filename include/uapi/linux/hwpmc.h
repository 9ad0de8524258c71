/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * hwpmc for Linux: the user/kernel ABI of /dev/hwpmc.
 *
 * Every operation of FreeBSD's hwpmc(4) is an ioctl on /dev/hwpmc.  The
 * argument structures keep FreeBSD's field names and meanings, but obey
 * the Linux uapi rules: fixed-width types only, explicit padding, user
 * pointers carried as __u64, the same layout on i386 and x86-64.  Fields
 * named pm__pad* or pm__reserved* are reserved: they must be zero on
 * input (EINVAL otherwise) and are zero on output.
 *
 * The ioctl command number encodes the argument size.  A command whose
 * type and sequence number name an operation but whose size or direction
 * does not match this header fails with EINVAL; a command that names no
 * operation fails with ENOTTY.
 */
#ifndef _UAPI_LINUX_HWPMC_H
#define _UAPI_LINUX_HWPMC_H

#include <linux/types.h>
#include <linux/ioctl.h>

/*
 * Version scheme (as FreeBSD's): 0xMMmmpppp.  A major change is an
 * incompatible ABI change, a minor change a compatible addition, a patch
 * a bug fix.  GETMODULEVERSION fails with EPROTO when the caller's
 * major.minor is newer than the module's.
 */
#define PMC_VERSION_MAJOR	0x01
#define PMC_VERSION_MINOR	0x04
#define PMC_VERSION_PATCH	0x0000
#define PMC_VERSION		(PMC_VERSION_MAJOR << 24 |		\
				 PMC_VERSION_MINOR << 16 |		\
				 PMC_VERSION_PATCH)

/*
 * Fields that FreeBSD declares with an enum type or as pmc_value_t are
 * __u32 and __u64 here.  libhwpmc's <sys/pmc.h> (the pmc(3) view) defines
 * each __hwpmc_enum_<e> as "enum <e>" and __HWPMC_VALUE as pmc_value_t
 * before it includes this header, so that C++ programs written for
 * FreeBSD get FreeBSD's field types; the layout is the same (the enums
 * are 4 bytes, pmc_value_t is uint64_t; tests/unit/abi_check.sh compares
 * both views).
 */
#ifndef __hwpmc_enum_pmc_class
#define __hwpmc_enum_pmc_class	__u32
#endif
#ifndef __hwpmc_enum_pmc_cputype
#define __hwpmc_enum_pmc_cputype	__u32
#endif
#ifndef __hwpmc_enum_pmc_disp
#define __hwpmc_enum_pmc_disp	__u32
#endif
#ifndef __hwpmc_enum_pmc_event
#define __hwpmc_enum_pmc_event	__u32
#endif
#ifndef __hwpmc_enum_pmc_mode
#define __hwpmc_enum_pmc_mode	__u32
#endif
#ifndef __hwpmc_enum_pmc_state
#define __hwpmc_enum_pmc_state	__u32
#endif
#ifndef __HWPMC_VALUE
#define __HWPMC_VALUE		__u64
#endif

#define PMC_MODULE_NAME		"hwpmc"
#define PMC_DEVICE_PATH		"/dev/hwpmc"
#define PMC_NAME_MAX		64	/* HW counter name size */
#define PMC_CLASS_MAX		8	/* max number of classes */
#define PMC_CALLCHAIN_DEPTH_MAX	512
#define PMC_CPU_ANY		(~0U)
#define PMC_ID_INVALID		(~0U)

/*
 * PMC classes.  FreeBSD's values are kept for the classes FreeBSD has;
 * this implementation provides SOFT (the kernel's software events) and
 * PMU (the CPU's performance monitoring unit, reached through perf).
 */
#define PMC_CLASS_TSC		0x00
#define PMC_CLASS_K8		0x02
#define PMC_CLASS_IBS		0x03
#define PMC_CLASS_IAF		0x06
#define PMC_CLASS_IAP		0x07
#define PMC_CLASS_UCF		0x08
#define PMC_CLASS_UCP		0x09
#define PMC_CLASS_XSCALE	0x0A
#define PMC_CLASS_PPC7450	0x0D
#define PMC_CLASS_PPC970	0x0E
#define PMC_CLASS_SOFT		0x0F	/* software events */
#define PMC_CLASS_ARMV7		0x10
#define PMC_CLASS_ARMV8		0x11
#define PMC_CLASS_E500		0x13
#define PMC_CLASS_POWER8	0x15
#define PMC_CLASS_DMC620_PMU_CD2 0x16
#define PMC_CLASS_DMC620_PMU_C	0x17
#define PMC_CLASS_CMN600_PMU	0x18
#define PMC_CLASS_RAPL		0x19
#define PMC_CLASS_PMU		0x40	/* Linux: the core PMU via perf */
#define PMC_CLASS_PERF		0x41	/* Linux: any other perf PMU, by type */
#define PMC_CLASS_FIRST		PMC_CLASS_TSC
#define PMC_CLASS_LAST		PMC_CLASS_PERF

/* CPU types reported by GETCPUINFO. */
#define PMC_CPU_GENERIC		0x400	/* no hardware PMU: SOFT only */
#define PMC_CPU_LINUX_X86	0x410	/* x86 core PMU through perf */
#define PMC_CPU_LINUX_ARM64	0x420	/* arm64 PMUv3 through perf */
#define PMC_CPU_LINUX_OTHER	0x4F0	/* another architecture's PMU */

/* Modes. */
#define PMC_MODE_SS		0	/* system sampling */
#define PMC_MODE_SC		1	/* system counting */
#define PMC_MODE_TS		2	/* process ("thread") sampling */
#define PMC_MODE_TC		3	/* process ("thread") counting */
#define PMC_MODE_INVALID	4
#define PMC_MODE_FIRST		PMC_MODE_SS
#define PMC_MODE_LAST		PMC_MODE_TC

#define PMC_IS_COUNTING_MODE(m)	((m) == PMC_MODE_SC || (m) == PMC_MODE_TC)
#define PMC_IS_SYSTEM_MODE(m)	((m) == PMC_MODE_SS || (m) == PMC_MODE_SC)
#define PMC_IS_SAMPLING_MODE(m)	((m) == PMC_MODE_SS || (m) == PMC_MODE_TS)
#define PMC_IS_VIRTUAL_MODE(m)	((m) == PMC_MODE_TS || (m) == PMC_MODE_TC)

/* States. */
#define PMC_STATE_DISABLED	0	/* administratively disabled */
#define PMC_STATE_FREE		1	/* row free */
#define PMC_STATE_ALLOCATED	2
#define PMC_STATE_STOPPED	3
#define PMC_STATE_RUNNING	4
#define PMC_STATE_DELETED	5
#define PMC_STATE_MAX		PMC_STATE_DELETED

/* Row dispositions. */
#define PMC_DISP_STANDALONE	0	/* used by system-scope PMCs */
#define PMC_DISP_FREE		1
#define PMC_DISP_THREAD		2	/* used by process-scope PMCs */
#define PMC_DISP_UNKNOWN	3
#define PMC_DISP_LAST		PMC_DISP_UNKNOWN
#define PMC_DISP_KERNEL		4	/* Linux: held by kernel code, pmc(9) */

/* Capabilities (bit numbers as in FreeBSD). */
#define PMC_CAP_INTERRUPT	(1U << 0)	/* can sample */
#define PMC_CAP_USER		(1U << 1)	/* can count user mode only */
#define PMC_CAP_SYSTEM		(1U << 2)	/* can count kernel mode only */
#define PMC_CAP_EDGE		(1U << 3)
#define PMC_CAP_THRESHOLD	(1U << 4)
#define PMC_CAP_READ		(1U << 5)
#define PMC_CAP_WRITE		(1U << 6)
#define PMC_CAP_INVERT		(1U << 7)
#define PMC_CAP_QUALIFIER	(1U << 8)
#define PMC_CAP_PRECISE		(1U << 9)
#define PMC_CAP_TAGGING		(1U << 10)
#define PMC_CAP_CASCADE		(1U << 11)
#define PMC_CAP_SYSWIDE		(1U << 12)
#define PMC_CAP_DOMWIDE		(1U << 13)
#define PMC_CAP_FIRST		PMC_CAP_INTERRUPT
#define PMC_CAP_LAST		PMC_CAP_DOMWIDE

/*
 * The capabilities as one list, C(name, bit, abbreviation, description)
 * for PMC_CAP_<name> = 1 << bit: <sys/pmc.h>'s __PMC_CAPS() and the table
 * of include/hwpmc_events.h (pmc_name_of_capability(3)'s names, the
 * module's load banner's abbreviations, FreeBSD's) come from it.
 * tests/unit/compat_uapi.c checks it against the values above.
 */
#define __HWPMC_CAPS(C)							\
	C(INTERRUPT,	0,	"INT",	"can sample (overflow interrupt)") \
	C(USER,		1,	"USR",	"can count user mode only")	\
	C(SYSTEM,	2,	"SYS",	"can count kernel mode only")	\
	C(EDGE,		3,	"EDG",	"edge detection")		\
	C(THRESHOLD,	4,	"THR",	"threshold comparison")		\
	C(READ,		5,	"REA",	"can be read")			\
	C(WRITE,	6,	"WRI",	"can be written")		\
	C(INVERT,	7,	"INV",	"inverted threshold comparison") \
	C(QUALIFIER,	8,	"QUA",	"event qualifiers")		\
	C(PRECISE,	9,	"PRC",	"precise sampling")		\
	C(TAGGING,	10,	"TAG",	"event tagging")		\
	C(CASCADE,	11,	"CSC",	"cascading counters")		\
	C(SYSWIDE,	12,	"SYSWIDE", "system-wide counter")	\
	C(DOMWIDE,	13,	"DOMWIDE", "NUMA-domain-wide counter")

/* Flags for PMCALLOCATE (pm_flags) and PMCRW (the VALUE flags). */
#define PMC_F_UNUSED1		0x00000001
#define PMC_F_DESCENDANTS	0x00000002
#define PMC_F_LOG_PROCCSW	0x00000004
#define PMC_F_LOG_PROCEXIT	0x00000008
#define PMC_F_NEWVALUE		0x00000010	/* PMCRW: write */
#define PMC_F_OLDVALUE		0x00000020	/* PMCRW: read */
#define PMC_F_CALLCHAIN		0x00000080
#define PMC_F_USERCALLCHAIN	0x00000100
#define PMC_F_EV_PMU		0x00000200	/* event in pm_md */
#define PMC_F_LAST		0x00000200
/*
 * Linux extensions (ABI 0x01020000; PMC_F_NOTIFY and thread-scope
 * sampling PMCs 0x01030000), above FreeBSD's flags:
 *
 * PMC_F_USERSTACK: each sample of the PMC in a 64-bit process's user
 * mode also gives the process's user registers and the top pm_stacksize
 * bytes of its user stack (a USERSTACK record, before the sample's
 * CALLCHAIN), for unwinding by DWARF call frame information.
 * pm_stacksize: a multiple of 8, from 8 to the module's tunable
 * maxstackuser (at most PMC_STACK_USER_MAX).
 *
 * PMC_F_THREAD, a counting process PMC (PMC_MODE_TC) whose targets are
 * threads: PMCATTACH and PMCDETACH take a thread id in pm_pid (0: the
 * calling thread), and the PMC counts that thread only, not its
 * siblings, new threads or children.  Not with PMC_F_DESCENDANTS.  A
 * sampling process PMC (PMC_MODE_TS) may be thread-scope too (not with
 * PMC_F_LOG_PROCCSW or PMC_F_LOG_PROCEXIT): it samples that thread only.
 *
 * PMC_F_NOTIFY, a thread-scope sampling PMC (PMC_MODE_TS with
 * PMC_F_THREAD) whose target is a thread of its owner's process: the
 * first overflow after each PMCSTART (after pm_count events) sends the
 * target thread signal PMC_NOTIFY_SIGNAL (SIGSTKFLT, which the kernel
 * sends for nothing else on x86 and arm64) with si_code PMC_NOTIFY_CODE
 * and si_addr the user PC (NULL in kernel mode); later overflows send
 * nothing until the next PMCSTART.  It needs no log: without one its
 * samples are dropped.  libcpc's CPC_OVF_NOTIFY_EMT (SIGEMT on illumos).
 */
#define PMC_F_USERSTACK		0x00000400	/* Linux: USERSTACK records */
#define PMC_STACK_USER_MAX	32768
#define PMC_F_THREAD		0x01000000
#define PMC_F_NOTIFY		0x02000000
#define PMC_NOTIFY_SIGNAL	16		/* SIGSTKFLT */
#define PMC_NOTIFY_CODE		2		/* illumos' EMT_CPCOVF */

/*
 * Events.  Event codes are dynamic, as FreeBSD's soft events are: the
 * module enumerates what this machine has (GETDYNEVENTINFO).  The codes
 * are stable for a given perf event:
 *   SOFT:  PMC_EV_SOFT_FIRST + PERF_COUNT_SW_*
 *   PMU:   PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_* (generic hardware events)
 *          PMC_EV_PMU_CACHE_FIRST + (cache << 3 | op << 1 | result)
 *          PMC_EV_PMU_RAW: the raw event in pm_md.pm_pmu.pm_config*
 *   PERF:  PMC_EV_PERF: the event of perf PMU type pm_md.pm_pmu.pm_type
 *          (a PMU of /sys/bus/event_source/devices other than the core
 *          one, or PERF_TYPE_TRACEPOINT), configured by pm_config*
 */
#define PMC_EV_SOFT_FIRST	0x20000
#define PMC_EV_DYN_COUNT	0x1000
#define PMC_EV_SOFT_LAST	(PMC_EV_SOFT_FIRST + 0xFF)
#define PMC_EV_PMU_HW_FIRST	0x21000
#define PMC_EV_PMU_HW_LAST	(PMC_EV_PMU_HW_FIRST + 0xFF)
#define PMC_EV_PMU_CACHE_FIRST	0x21100
#define PMC_EV_PMU_CACHE_LAST	(PMC_EV_PMU_CACHE_FIRST + 0xFF)
#define PMC_EV_PMU_RAW		0x21200
#define PMC_EV_PERF		0x21300
#define PMC_EV_FIRST		PMC_EV_SOFT_FIRST
#define PMC_EV_LAST		PMC_EV_PERF

#define PMC_EV_PMU_CACHE(cache, op, result)				\
	(PMC_EV_PMU_CACHE_FIRST + ((cache) << 3 | (op) << 1 | (result)))

/*
 * PMC ids: row index, class, mode and CPU packed as FreeBSD does.
 * Process-scope PMCs carry CPU = PMC_CPU_ANY & 0xFFF.
 */
#define PMC_ID_TO_ROWINDEX(id)	((id) & 0xFF)
#define PMC_ID_TO_CLASS(id)	(((id) >> 8) & 0xFF)
#define PMC_ID_TO_MODE(id)	(((id) >> 16) & 0xF)
#define PMC_ID_TO_CPU(id)	(((id) >> 20) & 0xFFF)
#define PMC_ID_MAKE_ID(cpu, mode, class, ri)				\
	((((cpu) & 0xFFFU) << 20) | (((mode) & 0xFU) << 16) |		\
	 (((class) & 0xFFU) << 8) | ((ri) & 0xFFU))

/* Operations: the values are FreeBSD's PMC_OP_* numbers. */
#define PMC_OP_CONFIGURELOG	0
#define PMC_OP_FLUSHLOG		1
#define PMC_OP_GETCPUINFO	2
#define PMC_OP_GETDRIVERSTATS	3
#define PMC_OP_GETMODULEVERSION	4
#define PMC_OP_GETPMCINFO	5
#define PMC_OP_PMCADMIN		6
#define PMC_OP_PMCALLOCATE	7
#define PMC_OP_PMCATTACH	8
#define PMC_OP_PMCDETACH	9
#define PMC_OP_PMCGETMSR	10
#define PMC_OP_PMCRELEASE	11
#define PMC_OP_PMCRW		12
#define PMC_OP_PMCSETCOUNT	13
#define PMC_OP_PMCSTART		14
#define PMC_OP_PMCSTOP		15
#define PMC_OP_WRITELOG		16
#define PMC_OP_CLOSELOG		17
#define PMC_OP_GETDYNEVENTINFO	18
#define PMC_OP_GETCAPS		19
#define PMC_OP_MAX		PMC_OP_GETCAPS

/*
 * CONFIGURELOG: pm_logfd >= 0 configures, < 0 closes the log.  Linux:
 * with PMC_LOG_KERNEL_PROFILES the log also receives the samples of the
 * kernel's profiles, pmc(9)'s pmc_start_profiling() (one such log at a
 * time; the caller must be allowed to see kernel addresses).
 */
struct pmc_op_configurelog {
	__u32	pm_flags;		/* PMC_LOG_* */
	__s32	pm_logfd;
};

#define PMC_LOG_KERNEL_PROFILES	0x00000001

/* GETCPUINFO */
struct pmc_classinfo {
	__hwpmc_enum_pmc_class pm_class;		/* PMC_CLASS_* */
	__u32	pm_caps;		/* PMC_CAP_* of the class */
	__u32	pm_width;		/* counter width in bits */
	__u32	pm_num;			/* number of rows of the class */
};

struct pmc_op_getcpuinfo {
	__hwpmc_enum_pmc_cputype pm_cputype;	/* PMC_CPU_* */
	__u32	pm_ncpu;		/* number of possible CPUs */
	__u32	pm_npmc;		/* rows per CPU, all classes */
	__u32	pm_nclass;		/* entries used in pm_classes */
	struct pmc_classinfo pm_classes[PMC_CLASS_MAX];
};

/* GETDRIVERSTATS: FreeBSD's eight counters, then Linux additions. */
struct pmc_op_getdriverstats {
	__u64	pm_intr_ignored;	/* overflows not for a live PMC */
	__u64	pm_intr_processed;	/* samples taken */
	__u64	pm_intr_bufferfull;	/* samples dropped: ring full */
	__u64	pm_syscalls;		/* ioctls */
	__u64	pm_syscall_errors;	/* ioctls that failed */
	__u64	pm_buffer_requests;	/* log buffers requested */
	__u64	pm_buffer_requests_failed; /* ... and not available */
	__u64	pm_log_sweeps;		/* sample-ring drains */
	__u64	pm_merges;		/* kernel+user chains merged */
	__u64	pm_overwrites;		/* pending user chains dropped */
	__u64	pm_log_records_dropped;	/* log records lost */
	__u64	pm_log_write_errors;	/* failed writes to log files */
	__u64	pm_lifecycle_events;	/* watched exits and execs handled */
	__u64	pm_stacks_dropped;	/* USERSTACK copies lost */
	__u64	pm__reserved[2];
};

/* GETMODULEVERSION takes and returns a __u32 (the caller's version in). */

/* GETPMCINFO: pm_npmc entries of struct pmc_info at pm_pmcs. */
struct pmc_info {
	char	pm_name[PMC_NAME_MAX];	/* row name, e.g. "SOFT3" */
	__hwpmc_enum_pmc_class pm_class;
	__s32	pm_enabled;		/* admin state on this CPU */
	__hwpmc_enum_pmc_disp pm_rowdisp;	/* PMC_DISP_* */
	__s32	pm_ownerpid;		/* -1 when free */
	__hwpmc_enum_pmc_mode pm_mode;	/* valid when owned */
	__hwpmc_enum_pmc_event pm_event;
	__u32	pm_flags;
	__u32	pm__pad;
	__HWPMC_VALUE pm_reloadcount;	/* sampling reload count */
};

struct pmc_op_getpmcinfo {
	__s32	pm_cpu;			/* in */
	__u32	pm_npmc;		/* in: room at pm_pmcs; out: rows */
	__u64	pm_pmcs;		/* user pointer: struct pmc_info[] */
};

/* PMCADMIN */
struct pmc_op_pmcadmin {
	__s32	pm_cpu;
	__u32	pm_flags;		/* must be zero */
	__s32	pm_pmc;			/* row index */
	__hwpmc_enum_pmc_state pm_state; /* PMC_STATE_DISABLED or _FREE */
};

/*
 * PMCALLOCATE: machine-dependent part, for the PMU and PERF classes.
 * pm_type is the perf PMU type of a PERF-class event (0 otherwise);
 * pm_precise is perf's precise_ip (0..3), with PMC_CAP_PRECISE only.
 */
struct pmc_md_pmu_op_pmcallocate {
	__u64	pm_config;		/* perf_event_attr.config */
	__u64	pm_config1;
	__u64	pm_config2;
	__u32	pm_type;		/* perf_event_attr.type: PERF class */
	__u32	pm_precise;		/* perf_event_attr.precise_ip */
};

union pmc_md_op_pmcallocate {
	struct pmc_md_pmu_op_pmcallocate pm_pmu;
	__u64	__pad[4];
};

struct pmc_op_pmcallocate {
	__u32	pm_caps;		/* in: PMC_CAP_* requested */
	__u32	pm_cpu;			/* in: CPU or PMC_CPU_ANY */
	__hwpmc_enum_pmc_class pm_class;	/* in */
	__hwpmc_enum_pmc_event pm_ev;	/* in: event code */
	__u32	pm_flags;		/* in: PMC_F_* */
	__hwpmc_enum_pmc_mode pm_mode;	/* in: PMC_MODE_* */
	__u32	pm_pmcid;		/* out */
	__u32	pm_stacksize;		/* in: PMC_F_USERSTACK's bytes, else 0 */
	__HWPMC_VALUE pm_count;		/* in: sampling rate or initial count */
	union pmc_md_op_pmcallocate pm_md;
};

/*
 * PMCALLOCATE with the event's name (Linux, ABI 0x01030000): the same
 * operation with a larger argument, HWPMC_IOC_PMCALLOCATE_NAMED.
 * pm_evname is what the PMC's log records call its event (pl_evname of
 * PMCALLOCATE, or PMCALLOCATEDYN for the PERF class) where the event's
 * code does not name it: PMC_EV_PERF and PMC_EV_PMU_RAW.  libhwpmc gives
 * the specifier ("syscalls:sys_enter_write", "msr/tsc/",
 * "INST_RETIRED.ANY"); the module does not check that it names what is
 * counted (only the owner's log carries it).  Printable ASCII ended by
 * a NUL within PMC_NAME_MAX, or empty: the module's name (for the PERF
 * class, "system:name" of a tracepoint, "pmu/config=.../" otherwise).
 * Other events keep the module's name.  pm__reserved must be zero.
 */
struct pmc_op_pmcallocate_named {
	struct pmc_op_pmcallocate pm_a;
	char	pm_evname[PMC_NAME_MAX];
	__u64	pm__reserved[2];
};

/* PMCATTACH, PMCDETACH */
struct pmc_op_pmcattach {
	__u32	pm_pmc;			/* PMC id */
	__s32	pm_pid;			/* 0 = the caller; PMC_F_THREAD: a tid */
};

/* PMCSETCOUNT */
struct pmc_op_pmcsetcount {
	__HWPMC_VALUE pm_count;
	__u32	pm_pmcid;
	__u32	pm__pad;
};

/* PMCRW */
struct pmc_op_pmcrw {
	__u32	pm_flags;		/* PMC_F_OLDVALUE | PMC_F_NEWVALUE */
	__u32	pm_pmcid;
	__HWPMC_VALUE pm_value;		/* new value in, old value out */
};

/*
 * PMCRW with times (Linux, ABI 0x01040000): the same operation with a
 * larger argument, HWPMC_IOC_PMCRW_TIMES; a read only (pm_flags must be
 * PMC_F_OLDVALUE).  pm_value is PMCRW's; pm_enabled and pm_running are
 * perf's time_enabled and time_running of the count, in nanoseconds, when
 * pm_tflags has PMC_RWT_TIMES: how long the PMC was started since its
 * value was last written (or since its allocation), and how long of that
 * its counters were really on the PMU.  pm_running < pm_enabled: the count
 * is partial (it is not scaled); pm_running 0: nothing was counted.
 * Without PMC_RWT_TIMES the times are unknown (zero) and the read is
 * PMCRW's, ENODATA included.  pm__pad and pm__reserved must be zero.
 */
struct pmc_op_pmcrw_times {
	struct pmc_op_pmcrw pm_rw;
	__u64	pm_enabled;		/* out: ns, with PMC_RWT_TIMES */
	__u64	pm_running;		/* out: ns, with PMC_RWT_TIMES */
	__u32	pm_tflags;		/* out: PMC_RWT_* */
	__u32	pm__pad;
	__u64	pm__reserved[2];
};

#define PMC_RWT_TIMES		0x00000001	/* pm_enabled, pm_running */

/* PMCRELEASE, PMCSTART, PMCSTOP */
struct pmc_op_simple {
	__u32	pm_pmcid;
	__u32	pm__pad;
};

/* PMCGETMSR */
struct pmc_op_getmsr {
	__u32	pm_msr;			/* out */
	__u32	pm_pmcid;		/* in */
};

/* WRITELOG */
struct pmc_op_writelog {
	__u32	pm_userdata;
	__u32	pm__pad;
};

/* GETDYNEVENTINFO: the events of a class. */
struct pmc_dyn_event_descr {
	char	pm_ev_name[PMC_NAME_MAX];
	__hwpmc_enum_pmc_event pm_ev_code;	/* PMC_EV_* code */
	__u32	pm_ev_caps;		/* PMC_CAP_* this event supports */
};

struct pmc_op_getdyneventinfo {
	__hwpmc_enum_pmc_class pm_class;	/* in */
	__u32	pm_nevent;		/* in: room at pm_events; out: total */
	__u64	pm_events;		/* user pointer: descr[], or 0 */
};

/*
 * GETCAPS: with pm_pmcid = PMC_ID_INVALID, the capabilities of event
 * pm_ev of class pm_class (no PMC needed); otherwise those of the PMC.
 */
struct pmc_op_caps {
	__u32	pm_pmcid;		/* in */
	__u32	pm_caps;		/* out */
	__u32	pm_class;		/* in, when pm_pmcid is PMC_ID_INVALID */
	__u32	pm_ev;			/* in, when pm_pmcid is PMC_ID_INVALID */
};

/* ioctl commands. */
#define HWPMC_IOC_MAGIC		0xB9	/* free in ioctl-number.rst as of 6.12 */

#define HWPMC_IOC_CONFIGURELOG	 _IOW(HWPMC_IOC_MAGIC, PMC_OP_CONFIGURELOG, struct pmc_op_configurelog)
#define HWPMC_IOC_FLUSHLOG	 _IO(HWPMC_IOC_MAGIC, PMC_OP_FLUSHLOG)
#define HWPMC_IOC_GETCPUINFO	 _IOR(HWPMC_IOC_MAGIC, PMC_OP_GETCPUINFO, struct pmc_op_getcpuinfo)
#define HWPMC_IOC_GETDRIVERSTATS _IOR(HWPMC_IOC_MAGIC, PMC_OP_GETDRIVERSTATS, struct pmc_op_getdriverstats)
#define HWPMC_IOC_GETMODULEVERSION _IOWR(HWPMC_IOC_MAGIC, PMC_OP_GETMODULEVERSION, __u32)
#define HWPMC_IOC_GETPMCINFO	 _IOWR(HWPMC_IOC_MAGIC, PMC_OP_GETPMCINFO, struct pmc_op_getpmcinfo)
#define HWPMC_IOC_PMCADMIN	 _IOW(HWPMC_IOC_MAGIC, PMC_OP_PMCADMIN, struct pmc_op_pmcadmin)
#define HWPMC_IOC_PMCALLOCATE	 _IOWR(HWPMC_IOC_MAGIC, PMC_OP_PMCALLOCATE, struct pmc_op_pmcallocate)
#define HWPMC_IOC_PMCALLOCATE_NAMED _IOWR(HWPMC_IOC_MAGIC, PMC_OP_PMCALLOCATE, struct pmc_op_pmcallocate_named)
#define HWPMC_IOC_PMCATTACH	 _IOW(HWPMC_IOC_MAGIC, PMC_OP_PMCATTACH, struct pmc_op_pmcattach)
#define HWPMC_IOC_PMCDETACH	 _IOW(HWPMC_IOC_MAGIC, PMC_OP_PMCDETACH, struct pmc_op_pmcattach)
#define HWPMC_IOC_PMCGETMSR	 _IOWR(HWPMC_IOC_MAGIC, PMC_OP_PMCGETMSR, struct pmc_op_getmsr)
#define HWPMC_IOC_PMCRELEASE	 _IOW(HWPMC_IOC_MAGIC, PMC_OP_PMCRELEASE, struct pmc_op_simple)
#define HWPMC_IOC_PMCRW		 _IOWR(HWPMC_IOC_MAGIC, PMC_OP_PMCRW, struct pmc_op_pmcrw)
#define HWPMC_IOC_PMCRW_TIMES	 _IOWR(HWPMC_IOC_MAGIC, PMC_OP_PMCRW, struct pmc_op_pmcrw_times)
#define HWPMC_IOC_PMCSETCOUNT	 _IOW(HWPMC_IOC_MAGIC, PMC_OP_PMCSETCOUNT, struct pmc_op_pmcsetcount)
#define HWPMC_IOC_PMCSTART	 _IOW(HWPMC_IOC_MAGIC, PMC_OP_PMCSTART, struct pmc_op_simple)
#define HWPMC_IOC_PMCSTOP	 _IOW(HWPMC_IOC_MAGIC, PMC_OP_PMCSTOP, struct pmc_op_simple)
#define HWPMC_IOC_WRITELOG	 _IOW(HWPMC_IOC_MAGIC, PMC_OP_WRITELOG, struct pmc_op_writelog)
#define HWPMC_IOC_CLOSELOG	 _IO(HWPMC_IOC_MAGIC, PMC_OP_CLOSELOG)
#define HWPMC_IOC_GETDYNEVENTINFO _IOWR(HWPMC_IOC_MAGIC, PMC_OP_GETDYNEVENTINFO, struct pmc_op_getdyneventinfo)
#define HWPMC_IOC_GETCAPS	 _IOWR(HWPMC_IOC_MAGIC, PMC_OP_GETCAPS, struct pmc_op_caps)

#endif /* _UAPI_LINUX_HWPMC_H */
