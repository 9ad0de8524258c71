/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: what the module's files share and no one file's header
 * can declare without a file below it including a file above it.
 *
 * Each file has its own header, hwpmc_<file>.h, declaring what it exports
 * (the tunables of hwpmc_main.c excepted: they are here), and includes
 * the headers of the files it calls.  Top down, each file calls only
 * files below it:
 *
 *   hwpmc_main.c       module init/exit, tunables, load banner
 *   hwpmc_kapi.c       pmc(9): NetBSD's interface for kernel modules,
 *                      counters of tasks and of the kernel on rows
 *   hwpmc_dev.c        /dev/hwpmc, ioctl dispatch and argument checks
 *   hwpmc_lifecycle.c  process exit and exec, from sched tracepoints
 *   hwpmc_ops.c        the PMC operations: allocate, attach, start, stop,
 *                      read/write, release, CONFIGURELOG, CPU hotplug
 *   hwpmc_target.c     targets: values, attach and detach, permission,
 *                      descendants, born processes, a process gone; the
 *                      teardown of a PMC and of an owner
 *   hwpmc_owner.c      owners: their hash, the caller's owner, its log
 *   hwpmc_hooks.c      what the log learns from the kernel: exec, fork,
 *                      exit and new mappings of targets (kprobes and
 *                      tracepoints), existing mappings at attach
 *   hwpmc_csw.c        counting process PMCs, and PROCCSW and PROCEXIT
 *                      of sampling ones: per-CPU counters, target
 *                      threads' records, saved and restored at switches
 *   hwpmc_sample.c     sampling: the overflow entry, per-CPU sample rings,
 *                      call chains, the drain into logs
 *   hwpmc_rows.c       the machine-independent core: rows, their per-CPU
 *                      state and dispositions, driver statistics
 *   hwpmc_records.c    every log record
 *   hwpmc_log.c        logs: buffers, appending records, the writer
 *   hwpmc_watch.c      the processes whose exit and exec matter (owners,
 *                      targets), and the events noted for them
 *   hwpmc_tracepoint.c the scheduler's tracepoints, found at load
 *   hwpmc_backend.c    the machine-dependent layer: PMC classes and events
 *                      discovered from perf at load, every perf call
 *
 * This header holds: the tunables (hwpmc_main.c); hwpmc_sx and the driver
 * statistics (hwpmc_rows.c), which every layer takes or counts; and the
 * owner, PMC and target structures (hwpmc_ops.c, hwpmc_target.c,
 * hwpmc_owner.c), which the files below read, with their inline helpers.
 * A file's data that files above and below it use is declared in the
 * header of the lowest file that uses it (hwpmc_ss_pmcs: hwpmc_hooks.h;
 * hwpmc_active: hwpmc_watch.h; struct hwpmc_file: hwpmc_log.h).
 */
#ifndef _HWPMC_INTERNAL_H
#define _HWPMC_INTERNAL_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/uidgid.h>
#include <linux/hwpmc.h>

/* Tunables (module parameters, hwpmc_main.c). */
extern int hwpmc_hashsize;
extern bool hwpmc_csw_tracepoint;
extern int hwpmc_nsamples;
extern int hwpmc_callchaindepth;
extern int hwpmc_maxstackuser;
extern int hwpmc_logbuffersize;
extern int hwpmc_nbuffers_pcpu;
extern int hwpmc_mincount;
extern int hwpmc_softevents;
extern bool hwpmc_unprivileged_syspmcs;
extern bool hwpmc_unprivileged_proc_debug;
extern bool hwpmc_unprivileged_kernel;
extern int hwpmc_unprivileged_counters;
extern unsigned int hwpmc_max_targets;

#define HWPMC_COUNTERS_MAX	64	/* unprivileged_counters' bound */

/* What changes rows, PMCs and targets is ordered by it (hwpmc_rows.c). */
extern struct rw_semaphore hwpmc_sx;

/* Driver statistics, per CPU (hwpmc_rows.c: hwpmc_stats_get()). */
struct hwpmc_stats {
	u64	intr_ignored;
	u64	intr_processed;
	u64	intr_bufferfull;
	u64	syscalls;
	u64	syscall_errors;
	u64	buffer_requests;
	u64	buffer_requests_failed;
	u64	log_sweeps;
	u64	merges;
	u64	overwrites;
	u64	log_records_dropped;
	u64	log_write_errors;
	u64	lifecycle_events;
	u64	stacks_dropped;
};

DECLARE_PER_CPU(struct hwpmc_stats, hwpmc_stats);

#define hwpmc_stat_inc(field)	this_cpu_inc(hwpmc_stats.field)

struct hwpmc_log;

/*
 * Owners, their PMCs and targets (hwpmc_owner.c, hwpmc_ops.c,
 * hwpmc_target.c).  They change under hwpmc_sx held for writing.  PMCs
 * and owners are freed after an RCU grace period, so that code in atomic
 * context that found a PMC through one of its perf counters (the
 * counter's overflow_handler_context) may use it, its owner and its
 * owner's log until it returns.
 */
struct hwpmc_owner {
	struct hlist_node	link;		/* hwpmc_ownerhash */
	struct pid		*tgid;		/* the owner process */
	struct list_head	pmcs;
	struct hwpmc_log	*log;		/* READ_ONCE in atomic context */
	struct file		*logdev;	/* the log configured through */
	u64			exec_id;	/* self_exec_id at creation */
	int			nss;		/* its running SS PMCs */
	bool			kaddrs;		/* may see kernel addresses */
	bool			kprof;		/* its log: hwpmc_kprof's */
	struct rcu_head		rcu;
};

/*
 * An attached process.  Sampling PMCs: its perf counters, one per thread
 * at attach time.  Counting PMCs: none (nev 0); its threads have slots
 * (hwpmc_csw.c).  A PMC_F_THREAD PMC's target is one thread of the
 * process (thread), the only one with a slot.
 */
struct hwpmc_target {
	struct list_head	link;		/* pm->targets */
	struct hlist_node	hnode;		/* pm->thash, by tgid */
	struct pid		*tgid;
	struct pid		*thread;	/* PMC_F_THREAD: the thread */
	u32			gen;		/* the attach that added it */
	bool			descendant;	/* not the attach's root */
	bool			exited;		/* kept for its descendants */
	bool			leaving;	/* hwpmc_targets_free_leaving() */
	u64			base;		/* sum of counters at start */
	u64			tenbase;	/* their time_enabled then */
	u64			trunbase;	/* their time_running then */
	struct rcu_head		rcu;
	u32			nev;
	struct perf_event	*ev[];
};

struct hwpmc_cset;
struct hwpmc_event;

struct hwpmc_pmc {
	struct list_head	link;		/* owner->pmcs */
	struct hwpmc_owner	*owner;
	struct file		*file;		/* allocated through */
	const struct hwpmc_event *event;
	char			evname[PMC_NAME_MAX];	/* for logs */
	u64			serial;		/* unique for the module's life */
	u32			dseq;		/* targets removed, not by exit */
	u32			id;
	u32			mode;
	u32			flags;
	u32			caps;
	u32			state;
	int			cpu;		/* system scope */
	u32			ri;
	bool			had_targets;
	u32			ntargets;	/* on targets, for max_targets */
	u32			attach_gen;	/* PMCATTACHes so far */
	kuid_t			uid;		/* the allocator's, for limits */
	bool			privileged;	/* it had CAP_PERFMON */
	/* a second core PMU's: some CPUs only; its hypervisor mode */
	bool			some_cpus;
	bool			hv;
	u64			value;		/* folded at stop */
	u64			reload;		/* sampling: the reload count */
	u32			stacksize;	/* PMC_F_USERSTACK's bytes */
	bool			unsched;	/* a counter was not scheduled */
	atomic_t		notify;		/* PMC_F_NOTIFY: armed by start */
	struct perf_event_attr	attr;
	struct list_head	targets;	/* process scope */
	struct hlist_head	*thash;		/* the targets by tgid */
	u32			tbits;		/* 1 << tbits buckets */
	/* counting process PMCs (hwpmc_csw.c) */
	struct list_head	slots;		/* hwpmc_slot.plink (RCU) */
	atomic_t		vdead;		/* of them, exited threads' */
	struct hwpmc_cset	*cset;		/* its counters, from its start */
	u32			csfail;		/* cset->nfail at the start */
	struct perf_event	*sysev;		/* system scope */
	u64			sysbase;
	int			sysgen;		/* CPU generation of sysev */
	/* system scope: the times of the count, ns (PMCRW_TIMES) */
	u64			tenabled;	/* folded at stop */
	u64			trunning;	/* folded at stop */
	u64			tstart;		/* ktime_get_ns() at start */
	u64			trunbase;	/* sysev's time_running then */
	bool			tpartial;	/* sysev was off the PMU */
	struct list_head	sslink;		/* hwpmc_ss_pmcs, running SS */
	struct rcu_head		rcu;
};

/*
 * The attach (gen) that made process tgid a target of pm, if it is one;
 * RCU read side (pm->targets is an RCU list, changed under hwpmc_sx).
 */
static inline bool hwpmc_target_gen_rcu(struct hwpmc_pmc *pm,
					const struct pid *tgid, u32 *gen)
{
	struct hwpmc_target *pt;

	list_for_each_entry_rcu(pt, &pm->targets, link)
		if (pt->tgid == tgid) {
			*gen = pt->gen;
			return true;
		}
	return false;
}

/* The owner's log of a PMC, or NULL; any context (see above). */
static inline struct hwpmc_log *hwpmc_pmc_log(const struct hwpmc_pmc *pm)
{
	return READ_ONCE(pm->owner->log);
}


/* Does pm count with the module's context switches (hwpmc_csw.c)? */
static inline bool hwpmc_pmc_virtual(const struct hwpmc_pmc *pm)
{
	return pm->mode == PMC_MODE_TC;
}

/* Are pm's targets threads, not processes (PMC_F_THREAD)? */
static inline bool hwpmc_pmc_thread(const struct hwpmc_pmc *pm)
{
	return pm->flags & PMC_F_THREAD;
}

/*
 * Has pm slots in its target threads' records (hwpmc_csw.c)?  Counting
 * process PMCs, and sampling ones that log PROCCSW, whose slots log what
 * the thread's own counter counted in each time slice.
 */
static inline bool hwpmc_pmc_slotted(const struct hwpmc_pmc *pm)
{
	return hwpmc_pmc_virtual(pm) ||
	       (pm->mode == PMC_MODE_TS &&
		(pm->flags & (PMC_F_LOG_PROCCSW | PMC_F_LOG_PROCEXIT)));
}

#endif /* _HWPMC_INTERNAL_H */
