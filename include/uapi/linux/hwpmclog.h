/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * hwpmc for Linux: the log record format.
 *
 * A log is a stream of records, native-endian, each starting with a
 * 16-byte header and padded to a multiple of 8 bytes.  The types and
 * payloads follow FreeBSD's <sys/pmclog.h>, with fixed-width fields:
 * addresses are always __u64, and timestamps are nanoseconds of
 * CLOCK_MONOTONIC (ktime_get_ns() in the kernel, clock_gettime
 * (CLOCK_MONOTONIC) in user space).  The INITIALIZE record, always the
 * first, gives CLOCK_REALTIME at the same instant so that readers can
 * turn timestamps into wall time.
 */
#ifndef _UAPI_LINUX_HWPMCLOG_H
#define _UAPI_LINUX_HWPMCLOG_H

#include <linux/types.h>
#include <linux/hwpmc.h>

#define PMCLOG_HEADER_MAGIC	0xEEU
#define PMCLOG_VERSION		PMC_VERSION
#define PMCLOG_ALIGN		8
#define PMCLOG_MAX_RECORD	0xFFF8U	/* 16-bit length, 8-aligned */
#define PMCLOG_COMM_LEN		16	/* TASK_COMM_LEN */
#define PMCLOG_PATH_MAX		4096

/* Record types: FreeBSD's numbers. */
#define PMCLOG_TYPE_CLOSELOG		1
#define PMCLOG_TYPE_DROPNOTIFY		2
#define PMCLOG_TYPE_INITIALIZE		3
#define PMCLOG_TYPE_PMCALLOCATE		5
#define PMCLOG_TYPE_PMCATTACH		6
#define PMCLOG_TYPE_PMCDETACH		7
#define PMCLOG_TYPE_PROCCSW		8
#define PMCLOG_TYPE_PROCEXEC		9
#define PMCLOG_TYPE_PROCEXIT		10
#define PMCLOG_TYPE_PROCFORK		11
#define PMCLOG_TYPE_SYSEXIT		12
#define PMCLOG_TYPE_USERDATA		13
#define PMCLOG_TYPE_MAP_IN		14
#define PMCLOG_TYPE_MAP_OUT		15
#define PMCLOG_TYPE_CALLCHAIN		16
#define PMCLOG_TYPE_PMCALLOCATEDYN	17	/* SOFT, PERF-class PMCs */
#define PMCLOG_TYPE_THR_CREATE		18
#define PMCLOG_TYPE_THR_EXIT		19
#define PMCLOG_TYPE_PROC_CREATE		20
#define PMCLOG_TYPE_USERSTACK		21	/* Linux: PMC_F_USERSTACK */
#define PMCLOG_TYPE_MAX			PMCLOG_TYPE_USERSTACK

/* Header word: magic, type, length in bytes (header included). */
#define PMCLOG_HEADER(type, len)					\
	(PMCLOG_HEADER_MAGIC << 24 | ((__u32)(type) & 0xFF) << 16 |	\
	 ((__u32)(len) & 0xFFFF))
#define PMCLOG_HEADER_TO_MAGIC(h)	(((h) >> 24) & 0xFF)
#define PMCLOG_HEADER_TO_TYPE(h)	(((h) >> 16) & 0xFF)
#define PMCLOG_HEADER_TO_LENGTH(h)	((h) & 0xFFFF)

struct pmclog_header {
	__u32	pl_header;
	__u32	pl_spare;		/* zero */
	__u64	pl_time;		/* ns, CLOCK_MONOTONIC */
};

/* CLOSELOG: last record of a log; no payload. */
struct pmclog_closelog {
	struct pmclog_header pl_hdr;
};

/* DROPNOTIFY: records were lost since the previous one. */
struct pmclog_dropnotify {
	struct pmclog_header pl_hdr;
	__u64	pl_dropped;		/* records lost, this owner */
};

/* INITIALIZE: first record of a log. */
struct pmclog_initialize {
	struct pmclog_header pl_hdr;
	__u32	pl_version;		/* PMCLOG_VERSION */
	__u32	pl_cpu;			/* PMC_CPU_* */
	__u64	pl_realtime;		/* ns, CLOCK_REALTIME at pl_time */
	__u32	pl_ncpu;
	__u32	pl_pad;
	char	pl_cpuid[PMC_NAME_MAX];	/* machine/CPU identification */
};

/* PMCALLOCATE: a PMC of the owner, with its event's name. */
struct pmclog_pmcallocate {
	struct pmclog_header pl_hdr;
	__u32	pl_pmcid;
	__u32	pl_event;
	__u32	pl_flags;
	__u32	pl_pad;
	__u64	pl_rate;		/* sampling reload count */
	char	pl_evname[PMC_NAME_MAX];
};

/*
 * PMCALLOCATEDYN: FreeBSD's record for a PMC of a SOFT-class event, whose
 * number is not fixed, so its name comes with it (fields as FreeBSD's).
 * The module writes it for SOFT- and PERF-class PMCs (the PERF class's
 * one code names no event: pl_evname is the name given at allocation,
 * HWPMC_IOC_PMCALLOCATE_NAMED), PMCALLOCATE for the others.
 */
struct pmclog_pmcallocatedyn {
	struct pmclog_header pl_hdr;
	__u32	pl_pmcid;
	__u32	pl_event;
	__u32	pl_flags;
	__u32	pl_pad;
	__u64	pl_rate;		/* sampling reload count */
	char	pl_evname[PMC_NAME_MAX];
};

/* PMCATTACH: a target attached; path of its executable follows. */
struct pmclog_pmcattach {
	struct pmclog_header pl_hdr;
	__u32	pl_pmcid;
	__u32	pl_pid;
	char	pl_pathname[];		/* NUL-terminated */
};

struct pmclog_pmcdetach {
	struct pmclog_header pl_hdr;
	__u32	pl_pmcid;
	__u32	pl_pid;
};

/* PROCCSW: events counted during one time slice (PMC_F_LOG_PROCCSW). */
struct pmclog_proccsw {
	struct pmclog_header pl_hdr;
	__u64	pl_value;
	__u32	pl_pmcid;
	__u32	pl_pid;
	__u32	pl_tid;
	__u32	pl_pad;
};

/*
 * PROCEXEC: a target exec'ed; path of the new image follows.  The two
 * addresses are FreeBSD's: pl_dynaddr is the executable's relocation
 * (where a position-independent executable, ELF ET_DYN, was loaded
 * relative to its link-time addresses; 0 for ET_EXEC), pl_baseaddr is
 * where the program's dynamic linker was loaded (AT_BASE), or
 * pl_dynaddr when it has none (static executables).  Both are 0 when the
 * owner may not see them (set-ID and file-capability programs, to owners
 * other than system samplers).  pl_base is the same field's older name.
 */
struct pmclog_procexec {
	struct pmclog_header pl_hdr;
	__u32	pl_pid;
	__u32	pl_pmcid;
	union {
		__u64	pl_baseaddr;	/* dynamic linker's base */
		__u64	pl_base;
	};
	__u64	pl_dynaddr;		/* relocation of a PIE, else 0 */
	char	pl_pathname[];
};

/* PROCEXIT: per-process total of a target (PMC_F_LOG_PROCEXIT). */
struct pmclog_procexit {
	struct pmclog_header pl_hdr;
	__u32	pl_pmcid;
	__u32	pl_pid;
	__u64	pl_value;
};

struct pmclog_procfork {
	struct pmclog_header pl_hdr;
	__u32	pl_oldpid;
	__u32	pl_newpid;
};

/* SYSEXIT: a process exited (to system-sampling owners). */
struct pmclog_sysexit {
	struct pmclog_header pl_hdr;
	__u32	pl_pid;
	__u32	pl_pad;
};

/* USERDATA: from PMC_OP_WRITELOG. */
struct pmclog_userdata {
	struct pmclog_header pl_hdr;
	__u32	pl_userdata;
	__u32	pl_pid;			/* writer */
};

/*
 * MAP_IN: an executable mapping of pl_pid (-1: the kernel and its
 * modules).  pl_start is FreeBSD's: the object's base, the start of the
 * first mapping of its file (where a loader put its first PT_LOAD
 * segment; anonymous memory: the mapping's start), from which FreeBSD's
 * readers place the object with its program headers.  Unlike FreeBSD's,
 * it also carries the executable mapping itself, [pl_mapstart, pl_end),
 * with the file offset of pl_mapstart, so that a reader can resolve
 * addresses of shared objects mapped in several pieces without them.
 */
struct pmclog_map_in {
	struct pmclog_header pl_hdr;
	__s32	pl_pid;
	__u32	pl_prot;		/* PROT_* of the mapping */
	__u64	pl_start;		/* the object's base */
	__u64	pl_end;			/* end of the executable mapping */
	__u64	pl_pgoff;		/* file offset of pl_mapstart, bytes */
	__u64	pl_mapstart;		/* start of the executable mapping */
	char	pl_pathname[];
};

struct pmclog_map_out {
	struct pmclog_header pl_hdr;
	__u32	pl_pid;
	__u32	pl_pad;
	__u64	pl_start;
	__u64	pl_end;
};

/* CALLCHAIN: one sample; pl_pc[0] is the sampled PC. */
#define PMC_CALLCHAIN_CPUFLAGS_TO_CPU(cf)	(((cf) >> 16) & 0xFFFF)
#define PMC_CALLCHAIN_CPUFLAGS_TO_USERMODE(cf)	((cf) & PMC_CC_F_USERSPACE)
#define PMC_CALLCHAIN_TO_CPUFLAGS(cpu, flags)				\
	((((__u32)(cpu) & 0xFFFF) << 16) | ((flags) & 0xFFFF))
#define PMC_CC_F_USERSPACE	0x01	/* pl_pc[0] is a user address */
#define PMC_CC_F_MULTIPART	0x02	/* reserved (FreeBSD: IBS) */
#define PMC_CC_F_KERNEL_USER	0x04	/* kernel frames, then user frames */

struct pmclog_callchain {
	struct pmclog_header pl_hdr;
	__u32	pl_pid;
	__u32	pl_tid;
	__u32	pl_pmcid;
	__u32	pl_cpuflags;
	__u64	pl_pc[];
};

/*
 * USERSTACK (Linux, ABI 0x01020000): the user registers and the top of
 * the user stack of a sample of a PMC_F_USERSTACK PMC, for unwinding by
 * DWARF call frame information (.eh_frame, .debug_frame).  It comes
 * immediately before that sample's CALLCHAIN record (same pl_time and
 * pmcid), written with it at once: no record comes between the two.
 * A sample has none when the thread was not in a 64-bit process's user
 * mode or in a syscall from one (a kernel thread; a 32-bit process), or
 * when the CPU's stack buffer was full (too many samples not yet
 * drained).
 *
 * pl_regs has pl_nregs user registers, indexed by their DWARF numbers
 * in the ABI pl_abi names, the last one being the PC:
 *   PMC_USTACK_ABI_X86_64: 17, rax rdx rcx rbx rsi rdi rbp rsp r8..r15,
 *     then rip (DWARF 16, the return address column);
 *   PMC_USTACK_ABI_ARM64: 33, x0..x30, sp (31), then pc.
 * They are the thread's user-mode registers only (where it was
 * interrupted in user mode, or where it entered the kernel); pl_regs is
 * followed by pl_dynsize bytes of the user stack from the stack
 * pointer up (the PMC's pm_stacksize, pl_size, or less where the
 * stack's mapping ends or the memory could not be read without a page
 * fault), then padding to 8 bytes.
 */
#define PMC_USTACK_ABI_X86_64	1
#define PMC_USTACK_ABI_ARM64	2
#define PMC_USTACK_NREGS_MAX	64

struct pmclog_userstack {
	struct pmclog_header pl_hdr;
	__u32	pl_pmcid;
	__u16	pl_abi;			/* PMC_USTACK_ABI_* */
	__u16	pl_nregs;
	__u32	pl_size;		/* bytes asked for (pm_stacksize) */
	__u32	pl_dynsize;		/* bytes of stack in the record */
	__u64	pl_regs[];		/* pl_nregs, then the stack's bytes */
};

struct pmclog_thr_create {
	struct pmclog_header pl_hdr;
	__u32	pl_tid;
	__u32	pl_pid;
	__u32	pl_flags;
	__u32	pl_pad;
	char	pl_tdname[PMCLOG_COMM_LEN];
};

struct pmclog_thr_exit {
	struct pmclog_header pl_hdr;
	__u32	pl_tid;
	__u32	pl_pad;
};

struct pmclog_proc_create {
	struct pmclog_header pl_hdr;
	__u32	pl_pid;
	__u32	pl_flags;
	char	pl_pcomm[PMCLOG_COMM_LEN];
};

#endif /* _UAPI_LINUX_HWPMCLOG_H */
