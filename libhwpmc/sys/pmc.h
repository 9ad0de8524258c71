/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libhwpmc: FreeBSD's <sys/pmc.h>, the pmc(3) view of <linux/hwpmc.h>.
 *
 * FreeBSD's clients include <sys/pmc.h> directly (libpmcstat, pmcstat)
 * or through <pmc.h>.  This header gives them FreeBSD's names, types and
 * values over the Linux ABI of /dev/hwpmc:
 *
 *   - the constants are enumerators of FreeBSD's enum types (enum
 *     pmc_cputype, pmc_class, pmc_state, pmc_mode, pmc_disp, pmc_caps,
 *     pmc_event, pmc_ops), generated from FreeBSD's X-macros
 *     (__PMC_CPUS() ... __PMC_OPS(), __PMC_EVENTS()), so that C++ code
 *     such as "enum pmc_mode m = PMC_MODE_SC" compiles;
 *   - the fields FreeBSD declares with those types (pm_class, pm_mode,
 *     pm_ev, pm_event, pm_rowdisp, pm_state, pm_cputype, pm_ev_code) have
 *     them, and the counts FreeBSD declares as pmc_value_t are pmc_value_t.
 *     The structures are those of <linux/hwpmc.h>, typed through its
 *     __hwpmc_enum_* and __HWPMC_VALUE hooks: the layout is the uapi
 *     layout (tests/unit/abi_check.sh compares the two views, -m64 and
 *     -m32);
 *   - where both define a name, the value is FreeBSD's: PMC_STATE_MAX
 *     (6, an enumerator), PMC_DISP_LAST (THREAD), PMC_EV_SOFT_LAST
 *     (PMC_EV_SOFT_FIRST + PMC_EV_DYN_COUNT - 1), PMC_CPU_ANY (~0, an
 *     int).  <linux/hwpmc.h> alone keeps its own (5, UNKNOWN, FIRST+0xFF,
 *     ~0U): the same bits where a __u32 holds them.
 *
 * Include this header (or <pmc.h>) before <linux/hwpmc.h>, or instead of
 * it.  A program that includes <linux/hwpmc.h> first still compiles, but
 * the structure fields then stay __u32/__u64 (no difference in C).
 *
 * Linux additions, absent from FreeBSD: PMC_CLASS_PMU, PMC_CPU_LINUX_*,
 * PMC_DISP_KERNEL (<linux/hwpmc.h>'s macro, 4: a row kernel code holds
 * through pmc(9); not in __PMC_DISPOSITIONS(), whose UNKNOWN ends it),
 * PMC_OP_GETCAPS (also in FreeBSD's main branch), the event codes of
 * <linux/hwpmc.h> (events are dynamic: __PMC_EVENTS() lists the perf
 * software and generic hardware events, whose codes are fixed).  Not
 * here: FreeBSD's static event tables (PMC_EV_IAP_*, PMC_EV_K8_*...), the
 * machine-dependent pm_md members other than pm_pmu, the kernel-only
 * parts (_KERNEL).  PMC_CLASS_P5 (FreeBSD 13, value 3) is left out: 3 is
 * PMC_CLASS_IBS, as in FreeBSD's main branch.
 */
#ifndef _HWPMC_SYS_PMC_H_
#define _HWPMC_SYS_PMC_H_

#include <stdint.h>
#include <sys/types.h>
#include <linux/types.h>

#include <sys/_pmc_undef.h>

#define PMC_CPUID_LEN	64	/* FreeBSD: CPU identification string */

/*
 * CPU types, __PMC_CPU(name, value, description): every type FreeBSD 13
 * and 14 define (FreeBSD never reuses a number), then Linux's.  The module
 * reports GENERIC or a LINUX_* type.
 */
#define __PMC_CPUS()							\
	__PMC_CPU(AMD_K7,		0x00,	"AMD K7")		\
	__PMC_CPU(AMD_K8,		0x01,	"AMD K8")		\
	__PMC_CPU(INTEL_P5,		0x80,	"Intel Pentium")	\
	__PMC_CPU(INTEL_P6,		0x81,	"Intel Pentium Pro")	\
	__PMC_CPU(INTEL_CL,		0x82,	"Intel Celeron")	\
	__PMC_CPU(INTEL_PII,		0x83,	"Intel Pentium II")	\
	__PMC_CPU(INTEL_PIII,		0x84,	"Intel Pentium III")	\
	__PMC_CPU(INTEL_PM,		0x85,	"Intel Pentium M")	\
	__PMC_CPU(INTEL_PIV,		0x86,	"Intel Pentium IV")	\
	__PMC_CPU(INTEL_CORE,		0x87,	"Intel Core Solo/Duo")	\
	__PMC_CPU(INTEL_CORE2,		0x88,	"Intel Core2")		\
	__PMC_CPU(INTEL_CORE2EXTREME,	0x89,	"Intel Core2 Extreme")	\
	__PMC_CPU(INTEL_ATOM,		0x8A,	"Intel Atom")		\
	__PMC_CPU(INTEL_COREI7,		0x8B,	"Intel Core i7")	\
	__PMC_CPU(INTEL_WESTMERE,	0x8C,	"Intel Westmere")	\
	__PMC_CPU(INTEL_SANDYBRIDGE,	0x8D,	"Intel Sandy Bridge")	\
	__PMC_CPU(INTEL_IVYBRIDGE,	0x8E,	"Intel Ivy Bridge")	\
	__PMC_CPU(INTEL_SANDYBRIDGE_XEON, 0x8F,	"Intel Sandy Bridge Xeon") \
	__PMC_CPU(INTEL_IVYBRIDGE_XEON,	0x90,	"Intel Ivy Bridge Xeon") \
	__PMC_CPU(INTEL_HASWELL,	0x91,	"Intel Haswell")	\
	__PMC_CPU(INTEL_ATOM_SILVERMONT, 0x92,	"Intel Atom Silvermont") \
	__PMC_CPU(INTEL_NEHALEM_EX,	0x93,	"Intel Nehalem Xeon 7500") \
	__PMC_CPU(INTEL_WESTMERE_EX,	0x94,	"Intel Westmere Xeon E7") \
	__PMC_CPU(INTEL_HASWELL_XEON,	0x95,	"Intel Haswell Xeon E5 v3") \
	__PMC_CPU(INTEL_BROADWELL,	0x96,	"Intel Broadwell")	\
	__PMC_CPU(INTEL_BROADWELL_XEON,	0x97,	"Intel Broadwell Xeon")	\
	__PMC_CPU(INTEL_SKYLAKE,	0x98,	"Intel Skylake")	\
	__PMC_CPU(INTEL_SKYLAKE_XEON,	0x99,	"Intel Skylake Xeon")	\
	__PMC_CPU(INTEL_ATOM_GOLDMONT,	0x9A,	"Intel Atom Goldmont")	\
	__PMC_CPU(INTEL_ICELAKE,	0x9B,	"Intel Icelake")	\
	__PMC_CPU(INTEL_ICELAKE_XEON,	0x9C,	"Intel Icelake Xeon")	\
	__PMC_CPU(INTEL_ALDERLAKE,	0x9D,	"Intel Alderlake")	\
	__PMC_CPU(INTEL_ATOM_GOLDMONT_P, 0x9E,	"Intel Atom Goldmont Plus") \
	__PMC_CPU(INTEL_ATOM_TREMONT,	0x9F,	"Intel Atom Tremont")	\
	__PMC_CPU(INTEL_XSCALE,		0x100,	"Intel XScale")		\
	__PMC_CPU(MIPS_24K,		0x200,	"MIPS 24K")		\
	__PMC_CPU(MIPS_OCTEON,		0x201,	"Cavium Octeon")	\
	__PMC_CPU(MIPS_74K,		0x202,	"MIPS 74K")		\
	__PMC_CPU(PPC_7450,		0x300,	"PowerPC MPC7450")	\
	__PMC_CPU(PPC_E500,		0x340,	"PowerPC e500 Core")	\
	__PMC_CPU(PPC_970,		0x380,	"IBM PowerPC 970")	\
	__PMC_CPU(PPC_POWER8,		0x390,	"IBM POWER8")		\
	__PMC_CPU(GENERIC,		0x400,	"Generic (software events only)") \
	__PMC_CPU(LINUX_X86,		0x410,	"x86 PMU through Linux perf") \
	__PMC_CPU(LINUX_ARM64,		0x420,	"arm64 PMU through Linux perf") \
	__PMC_CPU(LINUX_OTHER,		0x4F0,	"CPU PMU through Linux perf") \
	__PMC_CPU(ARMV7_CORTEX_A5,	0x500,	"ARMv7 Cortex A5")	\
	__PMC_CPU(ARMV7_CORTEX_A7,	0x501,	"ARMv7 Cortex A7")	\
	__PMC_CPU(ARMV7_CORTEX_A8,	0x502,	"ARMv7 Cortex A8")	\
	__PMC_CPU(ARMV7_CORTEX_A9,	0x503,	"ARMv7 Cortex A9")	\
	__PMC_CPU(ARMV7_CORTEX_A15,	0x504,	"ARMv7 Cortex A15")	\
	__PMC_CPU(ARMV7_CORTEX_A17,	0x505,	"ARMv7 Cortex A17")	\
	__PMC_CPU(ARMV8_CORTEX_A53,	0x600,	"ARMv8 Cortex A53")	\
	__PMC_CPU(ARMV8_CORTEX_A57,	0x601,	"ARMv8 Cortex A57")	\
	__PMC_CPU(ARMV8_CORTEX_A76,	0x602,	"ARMv8 Cortex A76")

enum pmc_cputype {
#undef __PMC_CPU
#define __PMC_CPU(S, V, D)	PMC_CPU_##S = V,
	__PMC_CPUS()
#undef __PMC_CPU
};

#define PMC_CPU_FIRST	PMC_CPU_AMD_K7
#define PMC_CPU_LAST	PMC_CPU_ARMV8_CORTEX_A76

/*
 * PMC classes, __PMC_CLASS(name, value, description): FreeBSD's values;
 * IBS and RAPL as in FreeBSD's main branch; PMU is Linux's.
 */
#define __PMC_CLASSES()							\
	__PMC_CLASS(TSC,	0x00,	"CPU timestamp counter")	\
	__PMC_CLASS(K8,		0x02,	"AMD K8 performance counters")	\
	__PMC_CLASS(IBS,	0x03,	"AMD instruction-based sampling") \
	__PMC_CLASS(IAF,	0x06,	"Intel fixed-function counters") \
	__PMC_CLASS(IAP,	0x07,	"Intel programmable counters")	\
	__PMC_CLASS(UCF,	0x08,	"Intel uncore fixed-function")	\
	__PMC_CLASS(UCP,	0x09,	"Intel uncore programmable")	\
	__PMC_CLASS(XSCALE,	0x0A,	"Intel XScale counters")	\
	__PMC_CLASS(PPC7450,	0x0D,	"Motorola MPC7450")		\
	__PMC_CLASS(PPC970,	0x0E,	"IBM PowerPC 970")		\
	__PMC_CLASS(SOFT,	0x0F,	"Software events")		\
	__PMC_CLASS(ARMV7,	0x10,	"ARMv7")			\
	__PMC_CLASS(ARMV8,	0x11,	"ARMv8")			\
	__PMC_CLASS(E500,	0x13,	"Freescale e500")		\
	__PMC_CLASS(POWER8,	0x15,	"IBM POWER8")			\
	__PMC_CLASS(DMC620_PMU_CD2, 0x16, "Arm DMC-620 PMU, CLKDIV2")	\
	__PMC_CLASS(DMC620_PMU_C, 0x17,	"Arm DMC-620 PMU, CLK")		\
	__PMC_CLASS(CMN600_PMU,	0x18,	"Arm CMN-600 PMU")		\
	__PMC_CLASS(RAPL,	0x19,	"RAPL energy counters")		\
	__PMC_CLASS(PMU,	0x40,	"CPU PMU through Linux perf")	\
	__PMC_CLASS(PERF,	0x41,	"other perf PMUs and tracepoints")

enum pmc_class {
#undef __PMC_CLASS
#define __PMC_CLASS(S, V, D)	PMC_CLASS_##S = V,
	__PMC_CLASSES()
#undef __PMC_CLASS
};

/* PMC_CLASS_FIRST and PMC_CLASS_LAST (PERF) come from <linux/hwpmc.h>. */

/* Row states: hardware states, then software states. */
#define __PMC_HWSTATES()						\
	__PMC_STATE(DISABLED)	/* administratively disabled */		\
	__PMC_STATE(FREE)	/* available */

#define __PMC_SWSTATES()						\
	__PMC_STATE(ALLOCATED)						\
	__PMC_STATE(STOPPED)						\
	__PMC_STATE(RUNNING)						\
	__PMC_STATE(DELETED)

#define __PMC_STATES()							\
	__PMC_HWSTATES()						\
	__PMC_SWSTATES()

enum pmc_state {
#undef __PMC_STATE
#define __PMC_STATE(S)		PMC_STATE_##S,
	__PMC_STATES()
	__PMC_STATE(MAX)
#undef __PMC_STATE
};

#define PMC_STATE_FIRST	PMC_STATE_DISABLED
#define PMC_STATE_LAST	PMC_STATE_DELETED

/* Modes, __PMC_MODE(name, value): system/process, sampling/counting. */
#define __PMC_MODES()							\
	__PMC_MODE(SS,	0)	/* system sampling */			\
	__PMC_MODE(SC,	1)	/* system counting */			\
	__PMC_MODE(TS,	2)	/* process sampling */			\
	__PMC_MODE(TC,	3)	/* process counting */

enum pmc_mode {
#undef __PMC_MODE
#define __PMC_MODE(M, N)	PMC_MODE_##M = N,
	__PMC_MODES()
#undef __PMC_MODE
};

/* Row dispositions (the argument is unused, as in FreeBSD). */
#define __PMC_DISPOSITIONS(N)						\
	__PMC_DISP(STANDALONE)	/* system-scope or disabled */		\
	__PMC_DISP(FREE)						\
	__PMC_DISP(THREAD)	/* process-scope */			\
	__PMC_DISP(UNKNOWN)	/* sentinel */

enum pmc_disp {
#undef __PMC_DISP
#define __PMC_DISP(D)		PMC_DISP_##D,
	__PMC_DISPOSITIONS()
#undef __PMC_DISP
};

#define PMC_DISP_FIRST	PMC_DISP_STANDALONE
/* PMC_DISP_LAST (THREAD) follows <linux/hwpmc.h>, below. */

/*
 * Events.  FreeBSD generates enum pmc_event from __PMC_EVENTS(): each
 * __PMC_EV_BLOCK(C, V) starts a block whose first __PMC_EV(C, N) has code
 * V.  Here events are dynamic (GETDYNEVENTINFO, pmc_event_names_of_class())
 * and the list holds those whose codes are fixed: perf's software events
 * (SOFT, PMC_EV_SOFT_FIRST + PERF_COUNT_SW_*) and generic hardware events
 * (PMU, PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_*).  Whether this machine has
 * one is the module's answer.  Cache events (PMC_EV_PMU_CACHE()) and raw
 * events (PMC_EV_PMU_RAW) have codes of <linux/hwpmc.h> only.
 */
#define __PMC_EV_SOFT()							\
	__PMC_EV(SOFT, CPU_CLOCK)					\
	__PMC_EV(SOFT, TASK_CLOCK)					\
	__PMC_EV(SOFT, PAGE_FAULTS)					\
	__PMC_EV(SOFT, CONTEXT_SWITCHES)				\
	__PMC_EV(SOFT, CPU_MIGRATIONS)					\
	__PMC_EV(SOFT, MINOR_FAULTS)					\
	__PMC_EV(SOFT, MAJOR_FAULTS)					\
	__PMC_EV(SOFT, ALIGNMENT_FAULTS)				\
	__PMC_EV(SOFT, EMULATION_FAULTS)				\
	__PMC_EV(SOFT, DUMMY)						\
	__PMC_EV(SOFT, BPF_OUTPUT)					\
	__PMC_EV(SOFT, CGROUP_SWITCHES)

#define __PMC_EV_PMU()							\
	__PMC_EV(PMU, CYCLES)						\
	__PMC_EV(PMU, INSTRUCTIONS)					\
	__PMC_EV(PMU, CACHE_REFERENCES)					\
	__PMC_EV(PMU, CACHE_MISSES)					\
	__PMC_EV(PMU, BRANCH_INSTRUCTIONS)				\
	__PMC_EV(PMU, BRANCH_MISSES)					\
	__PMC_EV(PMU, BUS_CYCLES)					\
	__PMC_EV(PMU, STALLED_CYCLES_FRONTEND)				\
	__PMC_EV(PMU, STALLED_CYCLES_BACKEND)				\
	__PMC_EV(PMU, REF_CYCLES)

#define __PMC_EVENTS()							\
	__PMC_EV_BLOCK(SOFT,	0x20000)				\
	__PMC_EV_SOFT()							\
	__PMC_EV_BLOCK(PMU,	0x21000)				\
	__PMC_EV_PMU()

enum pmc_event {
#undef __PMC_EV
#undef __PMC_EV_BLOCK
#define __PMC_EV_BLOCK(C, V)	PMC_EV_##C##__BLOCK_START = (V) - 1,
#define __PMC_EV(C, N)		PMC_EV_##C##_##N,
	__PMC_EVENTS()
#undef __PMC_EV
#undef __PMC_EV_BLOCK
};

/* Operations, __PMC_OP(name, description): FreeBSD's numbers. */
#define __PMC_OPS()							\
	__PMC_OP(CONFIGURELOG,	"Set log file")				\
	__PMC_OP(FLUSHLOG,	"Flush log file")			\
	__PMC_OP(GETCPUINFO,	"Get system CPU information")		\
	__PMC_OP(GETDRIVERSTATS, "Get driver statistics")		\
	__PMC_OP(GETMODULEVERSION, "Get module version")		\
	__PMC_OP(GETPMCINFO,	"Get per-CPU PMC information")		\
	__PMC_OP(PMCADMIN,	"Set PMC state")			\
	__PMC_OP(PMCALLOCATE,	"Allocate and configure a PMC")		\
	__PMC_OP(PMCATTACH,	"Attach a PMC to a process")		\
	__PMC_OP(PMCDETACH,	"Detach a PMC from a process")		\
	__PMC_OP(PMCGETMSR,	"Get a PMC's hardware address")		\
	__PMC_OP(PMCRELEASE,	"Release a PMC")			\
	__PMC_OP(PMCRW,		"Read or write a PMC")			\
	__PMC_OP(PMCSETCOUNT,	"Set initial count or sampling rate")	\
	__PMC_OP(PMCSTART,	"Start a PMC")				\
	__PMC_OP(PMCSTOP,	"Stop a PMC")				\
	__PMC_OP(WRITELOG,	"Write a cookie to the log")		\
	__PMC_OP(CLOSELOG,	"Close log file")			\
	__PMC_OP(GETDYNEVENTINFO, "Get dynamic events list")		\
	__PMC_OP(GETCAPS,	"Get capabilities")

enum pmc_ops {
#undef __PMC_OP
#define __PMC_OP(N, D)		PMC_OP_##N,
	__PMC_OPS()
#undef __PMC_OP
};

/* The enums are 4 bytes, like the __u32 fields they type. */
typedef char __hwpmc_enum_sizes[(sizeof(enum pmc_cputype) == 4 &&
				 sizeof(enum pmc_class) == 4 &&
				 sizeof(enum pmc_state) == 4 &&
				 sizeof(enum pmc_mode) == 4 &&
				 sizeof(enum pmc_disp) == 4 &&
				 sizeof(enum pmc_event) == 4 &&
				 sizeof(enum pmc_ops) == 4) ? 1 : -1];

typedef uint32_t pmc_id_t;
typedef uint64_t pmc_value_t;

/*
 * FreeBSD's <sys/pmc.h> includes <machine/profile.h>, whose uintfptr_t
 * (an integer that holds a function's address) its clients use for the
 * addresses of pmclog(3) records: libpmcstat hands pl_cc.pl_pc to
 * callbacks taking a uintfptr_t *.  The records' addresses are uint64_t
 * here whatever the word size, and so is uintfptr_t.
 */
typedef uint64_t uintfptr_t;

/* The structures of the ABI, with FreeBSD's field types. */
#undef __HWPMC_VALUE
#define __HWPMC_VALUE		pmc_value_t
#undef __hwpmc_enum_pmc_class
#define __hwpmc_enum_pmc_class	enum pmc_class
#undef __hwpmc_enum_pmc_cputype
#define __hwpmc_enum_pmc_cputype	enum pmc_cputype
#undef __hwpmc_enum_pmc_disp
#define __hwpmc_enum_pmc_disp	enum pmc_disp
#undef __hwpmc_enum_pmc_event
#define __hwpmc_enum_pmc_event	enum pmc_event
#undef __hwpmc_enum_pmc_mode
#define __hwpmc_enum_pmc_mode	enum pmc_mode
#undef __hwpmc_enum_pmc_state
#define __hwpmc_enum_pmc_state	enum pmc_state
#include <linux/hwpmc.h>
#include <sys/_pmc_undef.h>

/*
 * Capabilities, __PMC_CAP(name, bit, description), from the one list of
 * <linux/hwpmc.h> (__HWPMC_CAPS(), which also has the module's
 * abbreviations); here, after that header, because no structure field
 * has this type.
 */
#define __HWPMC_CAP_FREEBSD(NAME, VALUE, ABBREV, DESCR)		\
	__PMC_CAP(NAME, VALUE, DESCR)
#define __PMC_CAPS()		__HWPMC_CAPS(__HWPMC_CAP_FREEBSD)

enum pmc_caps {
#undef __PMC_CAP
#define __PMC_CAP(NAME, VALUE, DESCR)	PMC_CAP_##NAME = (1 << VALUE),
	__PMC_CAPS()
#undef __PMC_CAP
};

typedef char __hwpmc_enum_caps_size[sizeof(enum pmc_caps) == 4 ? 1 : -1];

/* PMC_CAP_FIRST and PMC_CAP_LAST come from <linux/hwpmc.h>. */

/* FreeBSD's values. */
#define PMC_CPU_ANY		~0
#define PMC_DISP_LAST		PMC_DISP_THREAD
#define PMC_EV_SOFT_LAST	(PMC_EV_SOFT_FIRST + PMC_EV_DYN_COUNT - 1)
#define PMC_EVENT_FIRST		PMC_EV_FIRST
#define PMC_EVENT_LAST		PMC_EV_LAST

/* FreeBSD's kernel-internal PMC flags: never valid in pm_flags. */
#define PMC_F_ATTACHED_TO_OWNER	0x00010000
#define PMC_F_NEEDS_LOGFILE	0x00020000
#define PMC_F_ATTACH_DONE	0x00040000

#define PMC_CC_F_USERSPACE	0x01	/* pl_pc[0] is a user address */

#endif /* _HWPMC_SYS_PMC_H_ */
