/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fake hwpmc module for host tests: ioctl() is interposed (linked into
 * a test, or LD_PRELOADed into a tool), and hwpmc ioctls on /dev/null
 * are answered as the module documents them.  Point HWPMC_DEVICE at
 * /dev/null to use it.  Environment knobs (read at every call):
 *   FAKE_HWPMC_VERSION  module version (default PMC_VERSION)
 *   FAKE_HWPMC_PMU=1    also a PMU class
 *   FAKE_HWPMC_EPERM=1  PMCADMIN fails with EPERM
 *   FAKE_HWPMC_GROW=1   the SOFT event list grows between two calls
 *   FAKE_HWPMC_PMU=2    a PMU with perf's generic and most cache events,
 *                       all able to count user or kernel mode alone
 *   FAKE_HWPMC_UNPRIV=1 the caller lacks CAP_PERFMON: system-scope PMCs,
 *                       PMU events counting kernel mode and sampling
 *                       kernel mode are EPERM
 *   FAKE_HWPMC_TICK=N   what a running PMC counts at a read (FAKE_TICK)
 *   FAKE_HWPMC_TIMES=i,e,r  PMCRW_TIMES: the i-th PMC (from 1) has times
 *                       e (enabled) and r (running) ns; others: unknown
 *                       (as process PMCs in the module); i 0: every PMC
 *   FAKE_HWPMC_NOTIMES=1 no PMCRW_TIMES (EINVAL: a module before 1.4)
 * PMCs (allocate, attach, detach, start, stop, rw, setcount, release,
 * getcaps by id, getmsr) follow the module's checks and errors, in all
 * four modes; PMCALLOCATE's are the module's own (<hwpmc_allocate.h>),
 * and fake_hwpmc_alloc_check names the one the last PMCALLOCATE failed
 * (HWPMC_ALLOC_OK: none; EINVAL then means no free row).  Sampling PMCs
 * (but PMC_F_NOTIFY ones) and those with PMC_F_LOG_* need a log at PMCSTART; a running PMC counts
 * FAKE_TICK (or FAKE_HWPMC_TICK) more at every read.  Attaching to pid
 * FAKE_PID_EPERM (init) is EPERM, to a pid that does not exist ESRCH.
 * A PMC_F_THREAD PMC's targets are threads (pid 0: the calling thread):
 * one of the caller's threads, else ESRCH for one that does not exist
 * and EPERM for another process's; fake_hwpmc_attached_tid is the thread
 * the last such attach took (0: none yet).
 * Fixed: FAKE_NCPU CPUs, CPU FAKE_OFFLINE_CPU offline, FAKE_NSOFT SOFT
 * rows; row 1 of CPU 0 is owned by pid 42 (TS mode, cpu-clock, reload
 * 10000); SOFT has an extra event FAKE_EV_CODE named "fake-event".
 * The log (CONFIGURELOG, FLUSHLOG, CLOSELOG, WRITELOG) is written at once
 * to a dup of the fd: INITIALIZE, USERDATA records, CLOSELOG; the first
 * write error is returned by every later operation until the close.
 *   FAKE_HWPMC_SAMPLES=N FLUSHLOG first logs N samples (CALLCHAIN, pc
 *                       FAKE_SAMPLE_PC + 4 * k) of each running sampling
 *                       PMC but PMC_F_NOTIFY ones, after a USERSTACK
 *                       (register j is k + j, the PC last) for
 *                       PMC_F_USERSTACK ones
 */
#ifndef _HWPMC_FAKE_H_
#define _HWPMC_FAKE_H_

#define FAKE_NCPU		4
#define FAKE_OFFLINE_CPU	2
#define FAKE_NSOFT		4
#define FAKE_NPMU		2
#define FAKE_EV_CODE		(PMC_EV_SOFT_FIRST + 0x80)
#define FAKE_OWNER_PID		42
#define FAKE_NPMC		16	/* PMCs the fake holds at once */
#define FAKE_NTARGET		8	/* targets per PMC */
#define FAKE_TICK		1000
#define FAKE_PID_EPERM		1
#define FAKE_SAMPLE_PC		0x400000ULL
#if defined(__aarch64__)
#define FAKE_SAMPLE_ABI		PMC_USTACK_ABI_ARM64
#define FAKE_SAMPLE_NREGS	33
#else
#define FAKE_SAMPLE_ABI		PMC_USTACK_ABI_X86_64
#define FAKE_SAMPLE_NREGS	17
#endif

extern int fake_hwpmc_alloc_check;	/* enum hwpmc_alloc_check */
/* the pm_evname of the last PMCALLOCATE_NAMED ("" after a plain one) */
extern char fake_hwpmc_evname[PMC_NAME_MAX];
extern int fake_hwpmc_attached_tid;	/* PMC_F_THREAD: the last attach's */
/* PMC_F_NOTIFY: the last reload count given (PMCALLOCATE, PMCSETCOUNT) */
extern uint64_t fake_hwpmc_notify_count;

#endif
