/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libhwpmc, private to <sys/pmc.h> and <sys/pmclog.h>: no include guard.
 *
 * <linux/hwpmc.h> and <linux/hwpmclog.h> (the uapi headers) define the
 * PMC_* and PMCLOG_TYPE_* constants as macros; the pmc(3) view makes them
 * enumerators of FreeBSD's enum types, so the macros must go: before the
 * enums (in case the uapi header was included first) and after the uapi
 * header (which defines them again).  Also removed: the macros whose
 * value in the pmc(3) view is FreeBSD's rather than the uapi header's.
 * <sys/pmclog.h> defines __HWPMC_UNDEF_LOG_ONLY: only the PMCLOG_TYPE_*
 * macros go then (the PMC_* names are <sys/pmc.h>'s by that time), and
 * only then: a program that includes <linux/hwpmclog.h> and <pmc.h>
 * keeps the log's constants.
 */
#ifndef __HWPMC_UNDEF_LOG_ONLY
#undef PMC_CLASS_TSC
#undef PMC_CLASS_K8
#undef PMC_CLASS_IBS
#undef PMC_CLASS_IAF
#undef PMC_CLASS_IAP
#undef PMC_CLASS_UCF
#undef PMC_CLASS_UCP
#undef PMC_CLASS_XSCALE
#undef PMC_CLASS_PPC7450
#undef PMC_CLASS_PPC970
#undef PMC_CLASS_SOFT
#undef PMC_CLASS_ARMV7
#undef PMC_CLASS_ARMV8
#undef PMC_CLASS_E500
#undef PMC_CLASS_POWER8
#undef PMC_CLASS_DMC620_PMU_CD2
#undef PMC_CLASS_DMC620_PMU_C
#undef PMC_CLASS_CMN600_PMU
#undef PMC_CLASS_RAPL
#undef PMC_CLASS_PMU
#undef PMC_CLASS_PERF

#undef PMC_CPU_GENERIC
#undef PMC_CPU_LINUX_X86
#undef PMC_CPU_LINUX_ARM64
#undef PMC_CPU_LINUX_OTHER
#undef PMC_CPU_ANY

#undef PMC_MODE_SS
#undef PMC_MODE_SC
#undef PMC_MODE_TS
#undef PMC_MODE_TC

#undef PMC_STATE_DISABLED
#undef PMC_STATE_FREE
#undef PMC_STATE_ALLOCATED
#undef PMC_STATE_STOPPED
#undef PMC_STATE_RUNNING
#undef PMC_STATE_DELETED
#undef PMC_STATE_MAX

#undef PMC_DISP_STANDALONE
#undef PMC_DISP_FREE
#undef PMC_DISP_THREAD
#undef PMC_DISP_UNKNOWN
#undef PMC_DISP_LAST

#undef PMC_CAP_INTERRUPT
#undef PMC_CAP_USER
#undef PMC_CAP_SYSTEM
#undef PMC_CAP_EDGE
#undef PMC_CAP_THRESHOLD
#undef PMC_CAP_READ
#undef PMC_CAP_WRITE
#undef PMC_CAP_INVERT
#undef PMC_CAP_QUALIFIER
#undef PMC_CAP_PRECISE
#undef PMC_CAP_TAGGING
#undef PMC_CAP_CASCADE
#undef PMC_CAP_SYSWIDE
#undef PMC_CAP_DOMWIDE

#undef PMC_OP_CONFIGURELOG
#undef PMC_OP_FLUSHLOG
#undef PMC_OP_GETCPUINFO
#undef PMC_OP_GETDRIVERSTATS
#undef PMC_OP_GETMODULEVERSION
#undef PMC_OP_GETPMCINFO
#undef PMC_OP_PMCADMIN
#undef PMC_OP_PMCALLOCATE
#undef PMC_OP_PMCATTACH
#undef PMC_OP_PMCDETACH
#undef PMC_OP_PMCGETMSR
#undef PMC_OP_PMCRELEASE
#undef PMC_OP_PMCRW
#undef PMC_OP_PMCSETCOUNT
#undef PMC_OP_PMCSTART
#undef PMC_OP_PMCSTOP
#undef PMC_OP_WRITELOG
#undef PMC_OP_CLOSELOG
#undef PMC_OP_GETDYNEVENTINFO
#undef PMC_OP_GETCAPS

#undef PMC_EV_SOFT_LAST
#endif /* !__HWPMC_UNDEF_LOG_ONLY */

/*
 * The log's constants only for <sys/pmclog.h>, which defines them again
 * as enumerators: <sys/pmc.h> alone leaves them to <linux/hwpmclog.h>.
 */
#ifdef __HWPMC_UNDEF_LOG_ONLY

#undef PMCLOG_TYPE_CLOSELOG
#undef PMCLOG_TYPE_DROPNOTIFY
#undef PMCLOG_TYPE_INITIALIZE
#undef PMCLOG_TYPE_PMCALLOCATE
#undef PMCLOG_TYPE_PMCATTACH
#undef PMCLOG_TYPE_PMCDETACH
#undef PMCLOG_TYPE_PROCCSW
#undef PMCLOG_TYPE_PROCEXEC
#undef PMCLOG_TYPE_PROCEXIT
#undef PMCLOG_TYPE_PROCFORK
#undef PMCLOG_TYPE_SYSEXIT
#undef PMCLOG_TYPE_USERDATA
#undef PMCLOG_TYPE_MAP_IN
#undef PMCLOG_TYPE_MAP_OUT
#undef PMCLOG_TYPE_CALLCHAIN
#undef PMCLOG_TYPE_PMCALLOCATEDYN
#undef PMCLOG_TYPE_THR_CREATE
#undef PMCLOG_TYPE_THR_EXIT
#undef PMCLOG_TYPE_PROC_CREATE
#undef PMCLOG_TYPE_USERSTACK
#endif /* __HWPMC_UNDEF_LOG_ONLY */
