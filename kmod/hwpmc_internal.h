/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: declarations shared by the module's files.
 *
 *   hwpmc_main.c     module init/exit, tunables, load banner
 *   hwpmc_dev.c      /dev/hwpmc, ioctl dispatch and argument checks
 *   hwpmc_mod.c      the machine-independent core: rows, their per-CPU
 *                    state and dispositions, driver statistics
 *   hwpmc_pmc.c      owners and their PMCs: allocate, attach, start, stop,
 *                    read/write, release
 *   hwpmc_csw.c      counting process PMCs: per-CPU counters, saved and
 *                    restored at context switches for target threads
 *   hwpmc_lifecycle.c  process exit and exec, from sched tracepoints
 *   hwpmc_watch.c    the processes whose exit and exec matter (owners,
 *                    targets), and the events noted for them
 *   hwpmc_hooks.c    what the log learns from the kernel: exec, fork,
 *                    exit and new mappings of targets (kprobes and
 *                    tracepoints), existing mappings at attach
 *   hwpmc_sample.c   sampling: the overflow handler, per-CPU sample
 *                    rings, call chains, the drain into logs
 *   hwpmc_log.c      logs: buffers, records, the writer
 *   hwpmc_backend.c  the machine-dependent layer: PMC classes and events
 *                    discovered from perf at load
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
extern atomic_t hwpmc_csw_pinned;
extern int hwpmc_nsamples;
extern int hwpmc_callchaindepth;
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

/* Backend: an event this machine has. */
struct hwpmc_event {
	u32	code;			/* PMC_EV_* */
	u32	caps;			/* PMC_CAP_* */
	u32	perf_type;		/* PERF_TYPE_* */
	u64	perf_config;
	char	name[PMC_NAME_MAX];
};

/* Backend: a class of rows. */
struct hwpmc_class {
	u32	class;			/* PMC_CLASS_* */
	const char *name;		/* row-name prefix, "SOFT" */
	u32	caps;			/* union of its events' caps */
	u32	width;			/* bits */
	u32	num;			/* rows */
	u32	first_row;		/* row index of its row 0 */
	u32	nevents;
	struct hwpmc_event *events;
};

struct hwpmc_mdep {
	u32	cputype;		/* PMC_CPU_* */
	u32	npmc;			/* rows, all classes */
	u32	nclass;
	struct hwpmc_class classes[PMC_CLASS_MAX];
};

extern struct hwpmc_mdep hwpmc_md;

/* The scheduler's tracepoints (hwpmc_tracepoint.c). */
enum hwpmc_tp {
	HWPMC_TP_SWITCH,
	HWPMC_TP_FORK,
	HWPMC_TP_EXIT,
	HWPMC_TP_EXEC,
	HWPMC_TP_NR
};

int hwpmc_tp_init(void);
int hwpmc_tp_register(enum hwpmc_tp tp, void *probe);
void hwpmc_tp_unregister(enum hwpmc_tp tp, void *probe);
void hwpmc_tp_sync(void);

struct hwpmc_pmc;
struct pt_regs;
struct perf_event;

/* The core's overflow entry: a counter of PMC context overflowed. */
typedef void (*hwpmc_overflow_fn)(void *context, struct pt_regs *regs);
/* A walker over a task's counters (hwpmc_md_task_counters()). */
typedef void (*hwpmc_ev_fn)(struct perf_event *ev, struct hwpmc_pmc *pm,
			    void *arg);

int hwpmc_backend_init(hwpmc_overflow_fn overflow);
void hwpmc_backend_fini(void);
const struct hwpmc_class *hwpmc_class_find(u32 class);
const struct hwpmc_class *hwpmc_row_class(u32 ri);
const struct hwpmc_event *hwpmc_event_find(const struct hwpmc_class *cl,
					   u32 code);
int hwpmc_caps_string(u32 caps, char *buf, size_t len);

struct perf_event;
struct perf_event_attr;
struct task_struct;

/* Backend: perf counters for the core (which never calls perf itself). */
int hwpmc_md_attr(const struct hwpmc_event *ev, u32 caps,
		  const struct pmc_md_pmu_op_pmcallocate *md,
		  struct perf_event_attr *attr);
void hwpmc_md_attr_pmc(struct perf_event_attr *attr, u32 mode,
		       u64 period, bool privileged);
bool hwpmc_md_soft(const struct perf_event_attr *attr);
int hwpmc_md_raw_check(const struct perf_event_attr *attr);
struct perf_event *hwpmc_md_create(struct perf_event_attr *attr, int cpu,
				   struct task_struct *task, void *context);
struct perf_event *hwpmc_md_create_running(const struct perf_event_attr *attr,
					   int cpu);
void hwpmc_md_release(struct perf_event *ev);
void *hwpmc_md_context(struct perf_event *ev);
void hwpmc_md_task_counters(struct task_struct *t, hwpmc_ev_fn fn, void *arg);
void hwpmc_md_pin(struct perf_event *ev);
void hwpmc_md_pin_held(struct perf_event *ev, const void **last);
bool hwpmc_md_off(struct perf_event *ev);
u64 hwpmc_md_read_local(struct perf_event *ev);
int hwpmc_md_set_period(struct perf_event *ev, u64 period);
bool hwpmc_md_has_copies(struct perf_event *ev);
bool hwpmc_md_failed(struct perf_event *ev);
bool hwpmc_md_failed_here(struct perf_event *ev);
bool hwpmc_md_on_cpu(struct perf_event *ev, int cpu);
void hwpmc_md_start(struct perf_event *ev);
void hwpmc_md_stop(struct perf_event *ev);
u64 hwpmc_md_read(struct perf_event *ev);
u64 hwpmc_md_read_off(struct perf_event *ev);
bool hwpmc_md_counted_at_switch_in(const struct perf_event_attr *attr);

/* Core: rows, dispositions, per-CPU slots (hwpmc_mod.c). */
extern struct rw_semaphore hwpmc_sx;

int hwpmc_mod_init(void);
void hwpmc_mod_fini(void);
struct hwpmc_pmc;

int hwpmc_describe_row(int cpu, u32 ri, struct pmc_info *pi,
		       struct hwpmc_pmc **holder);
/* CPU generations: bumped when a CPU goes offline. */
int hwpmc_cpu_gen_read(int cpu);
void hwpmc_cpu_gen_bump(int cpu);
int hwpmc_admin(int cpu, u32 ri, u32 state);
int hwpmc_check_cpu(int cpu);
bool hwpmc_row_can_thread(u32 ri);
bool hwpmc_row_can_system(int cpu, u32 ri);
void hwpmc_row_take(struct hwpmc_pmc *pm, u32 mode, int cpu, u32 ri);
void hwpmc_row_give(u32 mode, int cpu, u32 ri);

/* PROCEXIT: what the exited threads of a process counted. */
struct hwpmc_exitacc {
	struct hwpmc_exitacc	*next;
	pid_t			tgid;
	u64			value;
};

struct hwpmc_log;

void hwpmc_log_lost(struct hwpmc_log *lg);

/*
 * Owners, their PMCs and targets (hwpmc_pmc.c).  They change under
 * hwpmc_sx held for writing.  PMCs and owners are freed after an RCU
 * grace period, so that code in atomic context that found a PMC through
 * one of its perf counters (the counter's overflow_handler_context) may
 * use it, its owner and its owner's log until it returns.
 */
struct hwpmc_owner {
	struct hlist_node	link;		/* hwpmc_ownerhash */
	struct pid		*tgid;		/* the owner process */
	struct list_head	pmcs;
	struct hwpmc_log	*log;		/* READ_ONCE in atomic context */
	struct file		*logdev;	/* the log configured through */
	u64			exec_id;	/* self_exec_id at creation */
	int			nss;		/* its running SS PMCs */
	struct rcu_head		rcu;
};

/*
 * An attached process.  Sampling PMCs: its perf counters, one per thread
 * at attach time.  Counting PMCs: none (nev 0); its threads have slots
 * (hwpmc_csw.c).
 */
struct hwpmc_target {
	struct list_head	link;		/* pm->targets */
	struct pid		*tgid;
	u32			gen;		/* the attach that added it */
	bool			descendant;	/* not the attach's root */
	bool			exited;		/* kept for its descendants */
	u64			base;		/* sum of counters at start */
	struct rcu_head		rcu;
	u32			nev;
	struct perf_event	*ev[];
};

struct hwpmc_thr;
struct hwpmc_cset;

/*
 * PROCEXIT of a counting PMC with PMC_F_LOG_PROCEXIT: one per target
 * process, shared by the slots of its threads (hwpmc_csw.c).  The
 * thread whose exit takes nlive to 0 logs value, once, whatever order
 * the threads of an exit_group() come in.  hwpmc_vlock.
 */
struct hwpmc_pexit {
	u32			refs;		/* slots that point here */
	u32			nlive;		/* of them: threads live, !gone */
	u64			value;		/* what the exited ones counted */
	struct rcu_head		rcu;
};

/*
 * A target thread of a counting process PMC (hwpmc_csw.c): what the
 * thread counted since the PMC started, and its open time slice.
 */
struct hwpmc_slot {
	struct list_head	tlink;		/* thr->slots (RCU) */
	struct list_head	plink;		/* pm->slots (RCU) */
	struct hwpmc_thr	*thr;		/* NULL: the thread exited */
	struct hwpmc_pmc	*pm;
	struct perf_event	*ev;		/* the CPU counter of the slice */
	u64			base;		/* its count when the slice began */
	u64			acc;		/* counted since PMCSTART */
	u64			total;		/* counted in the slot's life */
	u32			gen;		/* its PMCATTACH (attach_gen) */
	struct hwpmc_pexit	*px;		/* LOG_PROCEXIT: its process's */
	bool			in;		/* a slice is open */
	bool			gone;		/* detached, or exec of set-ID */
	struct rcu_head		rcu;
};

struct hwpmc_pmc {
	struct list_head	link;		/* owner->pmcs */
	struct hwpmc_owner	*owner;
	struct file		*file;		/* allocated through */
	const struct hwpmc_event *event;
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
	u64			value;		/* folded at stop */
	u64			reload;		/* sampling: the reload count */
	bool			unsched;	/* a counter was not scheduled */
	struct perf_event_attr	attr;
	struct list_head	targets;	/* process scope */
	/* counting process PMCs (hwpmc_csw.c) */
	struct list_head	slots;		/* hwpmc_slot.plink (RCU) */
	atomic_t		vdead;		/* of them, exited threads' */
	struct hwpmc_cset	*cset;		/* its counters, from its start */
	u32			csfail;		/* cset->nfail at the start */
	struct perf_event	*sysev;		/* system scope */
	u64			sysbase;
	int			sysgen;		/* CPU generation of sysev */
	struct list_head	sslink;		/* hwpmc_ss_pmcs, running SS */
	/* LOG_PROCEXIT: counts of exited threads of live processes */
	raw_spinlock_t		exitlock;
	struct hwpmc_exitacc	*exitacc;
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

/* Owners and PMCs (hwpmc_pmc.c); callers hold no lock. */
struct file;
struct pid;

int hwpmc_pmc_init(void);
void hwpmc_pmc_fini(void);
void hwpmc_pmc_describe(const struct hwpmc_pmc *pm, struct pmc_info *pi);
void hwpmc_describe_thread_rows(int cpu, struct pmc_info *pi, u32 n);
int hwpmc_pmc_allocate(struct file *file, struct pmc_op_pmcallocate *pa);
int hwpmc_pmc_attach(u32 id, pid_t pid);
int hwpmc_pmc_detach(u32 id, pid_t pid);
int hwpmc_pmc_start(u32 id);
int hwpmc_pmc_stop(u32 id);
int hwpmc_pmc_release(u32 id);
int hwpmc_pmc_rw(u32 id, u32 flags, u64 *value);
int hwpmc_pmc_setcount(u32 id, u64 count);
int hwpmc_pmc_caps(u32 id, u32 *caps);
void hwpmc_pmc_file_release(struct file *file);
void hwpmc_pmc_process_gone(struct pid *tgid, bool exec, u64 exec_id);
int hwpmc_pmc_configurelog(struct file *file, int fd);
int hwpmc_pmc_flushlog(void);
int hwpmc_pmc_closelog(void);
int hwpmc_pmc_writelog(u32 userdata);

/* The owner's log of a PMC, or NULL; any context (see above). */
static inline struct hwpmc_log *hwpmc_pmc_log(const struct hwpmc_pmc *pm)
{
	return READ_ONCE(pm->owner->log);
}

/*
 * A record of pm's could not be made, or a task is not counted by pm
 * (no memory in atomic context): its owner's log says so with its next
 * DROPNOTIFY.  Any context but NMI, RCU read side.
 */
static inline void hwpmc_pmc_lost(const struct hwpmc_pmc *pm)
{
	struct hwpmc_log *lg = hwpmc_pmc_log(pm);

	if (lg)
		hwpmc_log_lost(lg);
}

/* Does pm count with the module's context switches (hwpmc_csw.c)? */
static inline bool hwpmc_pmc_virtual(const struct hwpmc_pmc *pm)
{
	return pm->mode == PMC_MODE_TC;
}

/*
 * Has pm slots in its target threads' records (hwpmc_csw.c)?  Counting
 * process PMCs, and sampling ones that log PROCCSW, whose slots log what
 * the thread's own counter counted in each time slice.
 */
static inline bool hwpmc_pmc_slotted(const struct hwpmc_pmc *pm)
{
	return hwpmc_pmc_virtual(pm) ||
	       (pm->mode == PMC_MODE_TS && (pm->flags & PMC_F_LOG_PROCCSW));
}

/* Counting process PMCs (hwpmc_csw.c); hwpmc_sx held unless said. */
int hwpmc_csw_init(void);
void hwpmc_csw_fini(void);
int hwpmc_vpmc_use(struct hwpmc_pmc *pm, bool on);
int hwpmc_vpmc_add_thread(struct hwpmc_pmc *pm, struct task_struct *t,
			  struct hwpmc_pexit **pxp);
u64 hwpmc_vpmc_remove(struct hwpmc_pmc *pm, u32 gen, struct pid *tgid);
void hwpmc_vpmc_reap(struct hwpmc_pmc *pm);
int hwpmc_vpmc_start(struct hwpmc_pmc *pm);
u64 hwpmc_vpmc_stop(struct hwpmc_pmc *pm);
u64 hwpmc_vpmc_read(const struct hwpmc_pmc *pm);
bool hwpmc_vpmc_on_cpu(const struct hwpmc_pmc *pm, int cpu);
bool hwpmc_vpmc_failed(const struct hwpmc_pmc *pm);
void hwpmc_vpmc_free(struct hwpmc_pmc *pm);
void hwpmc_csets_refresh(void);
/* atomic context, RCU read side */
void hwpmc_thr_fork(struct task_struct *parent, struct task_struct *child);
void hwpmc_thr_exit(struct task_struct *p);
void hwpmc_thr_exec(struct task_struct *p, bool secure);
void hwpmc_thr_gens(struct task_struct *t,
		    void (*fn)(struct hwpmc_pmc *pm, u32 gen, void *arg),
		    void *arg);
void hwpmc_thr_forget(struct task_struct *t, struct hwpmc_pmc *pm);

/* Running system-sampling PMCs (RCU list, changed under hwpmc_sx). */
extern struct list_head hwpmc_ss_pmcs;

/* Logs (hwpmc_log.c). */
int hwpmc_log_init(void);
void hwpmc_log_fini(void);
struct hwpmc_log *hwpmc_log_open(int fd, struct file *devfile);
void hwpmc_log_close(struct hwpmc_log *lg);
int hwpmc_log_flush(struct hwpmc_log *lg);
void hwpmc_log_hold_file(struct hwpmc_log *lg);
int hwpmc_log_wait_closed(struct hwpmc_log *lg);
int hwpmc_log_error(struct hwpmc_log *lg);
void hwpmc_log_get(struct hwpmc_log *lg);
void hwpmc_log_put(struct hwpmc_log *lg);
int hwpmc_log_append(struct hwpmc_log *lg, u32 type, u64 time, void *rec,
		     u32 size, const void *tail, u32 taillen);
int hwpmc_log_append_path(struct hwpmc_log *lg, u32 type, u64 time,
			  void *rec, u32 size, const char *path);

/* Sampling (hwpmc_sample.c). */
int hwpmc_sample_init(void);
void hwpmc_sample_fini(void);
void hwpmc_sample_overflow(void *context, struct pt_regs *regs);
void hwpmc_sample_drain(void);

/*
 * A new process of a target of PMC_F_DESCENDANTS PMCs (hwpmc_hooks.c):
 * which PMCs, for the task work that makes it their target before it
 * first returns to user space (hwpmc_pmc_born(), given at load), with
 * what the fork knew: the parent's attach (gen) and pm->dseq.  The PMCs
 * are found again by their owner's key (its tgid pointer, never
 * dereferenced), pointer and serial: they may go meanwhile.
 */
#define HWPMC_BORN_MAX		16

struct hwpmc_born {
	struct callback_head	cb;
	struct pid		*parent;	/* its parent's tgid */
	u32			n;
	struct hwpmc_born_pmc {
		struct hwpmc_pmc	*pm;
		const void		*okey;	/* pm->owner->tgid */
		u64			serial;
		u32			gen;
		u32			dseq;
	} e[HWPMC_BORN_MAX];
};

void hwpmc_pmc_born(struct callback_head *cb);

/* Records from the kernel's events (hwpmc_hooks.c). */
int hwpmc_hooks_init(void (*born)(struct callback_head *cb));
void hwpmc_hooks_born_done(struct hwpmc_born *b);
void hwpmc_hooks_fini(void);
void hwpmc_hooks_exit(struct task_struct *p);
bool hwpmc_task_carries(struct task_struct *t, const struct hwpmc_pmc *pm);

/* PROCEXIT: what exiting threads counted, per PMC (atomic context, RCU). */
#define HWPMC_EXIT_MAX		16

struct hwpmc_exitset {
	int			n;
	struct hwpmc_pmc	*pm[HWPMC_EXIT_MAX];
	u64			value[HWPMC_EXIT_MAX];
};

/* Every log record (hwpmc_records.c). */
struct vm_area_struct;

void hwpmc_rec_pmcallocate(struct hwpmc_log *lg, const struct hwpmc_pmc *pm);
void hwpmc_rec_pmcdetach(struct hwpmc_log *lg, u32 pmcid, pid_t pid);
int hwpmc_rec_userdata(struct hwpmc_log *lg, u32 userdata);
void hwpmc_rec_pmcattach(struct hwpmc_log *lg, const struct hwpmc_pmc *pm,
			 struct task_struct *p, bool maps);
void hwpmc_rec_all_maps(struct hwpmc_log *lg);
bool hwpmc_vma_wanted(const struct vm_area_struct *vma);
const char *hwpmc_vma_path(const struct vm_area_struct *vma, char *buf);
void hwpmc_rec_map_in(struct hwpmc_log *lg, pid_t pid,
		      const struct vm_area_struct *vma, const char *path,
		      u64 time);
void hwpmc_rec_map_out(struct hwpmc_log *lg, pid_t pid, unsigned long start,
		       unsigned long end, u64 time);
void hwpmc_rec_procexec(struct hwpmc_log *lg, u32 pmcid, pid_t pid,
			const char *path, u64 time);
void hwpmc_rec_procfork(struct hwpmc_log *lg, pid_t oldpid, pid_t newpid,
			u64 time);
void hwpmc_rec_sysexit(struct hwpmc_log *lg, pid_t pid, u64 time);
void hwpmc_rec_proc_create(struct hwpmc_log *lg, struct task_struct *p,
			   u64 time);
void hwpmc_rec_thr_create(struct hwpmc_log *lg, struct task_struct *t,
			  u64 time);
void hwpmc_rec_thr_exit(struct hwpmc_log *lg, pid_t tid, u64 time);
void hwpmc_rec_all_tasks(struct hwpmc_log *lg);
void hwpmc_rec_proccsw(const struct hwpmc_pmc *pm, struct task_struct *t,
		       u64 value);
void hwpmc_rec_procexit(struct hwpmc_exitset *es, pid_t tgid,
			bool group_dead);
void hwpmc_rec_callchain(struct hwpmc_log *lg, u64 time, u32 pmcid, pid_t pid,
			 pid_t tid, u32 cpuflags, const u64 *pc, u32 npc);

/* Process lifecycle (hwpmc_lifecycle.c). */
extern atomic_t hwpmc_active;		/* owners that exist */

int hwpmc_lifecycle_init(void);
void hwpmc_lifecycle_fini(void);

/* Watched processes: owners and targets (hwpmc_watch.c). */
int hwpmc_watch_init(void);
void hwpmc_watch_fini(void);
int hwpmc_watch_get(struct pid *tgid);
void hwpmc_watch_put(struct pid *tgid);
bool hwpmc_watch_note(struct task_struct *p, bool exec);
void hwpmc_watch_drain(void (*fn)(struct pid *tgid, bool exec, u64 exec_id));

/* Driver statistics, per CPU. */
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
};

DECLARE_PER_CPU(struct hwpmc_stats, hwpmc_stats);

#define hwpmc_stat_inc(field)	this_cpu_inc(hwpmc_stats.field)

void hwpmc_stats_get(struct pmc_op_getdriverstats *st);

/* The device (hwpmc_dev.c). */
int hwpmc_dev_init(void);
void hwpmc_dev_fini(void);

/* What an open /dev/hwpmc holds: who asked for SIGIO (O_ASYNC). */
struct hwpmc_file {
	struct fasync_struct	*fasync;
};

/*
 * Tell the process that asked on file (F_SETOWN, O_ASYNC) with SIGIO:
 * a PMC's targets are gone, or its owner's log failed.
 */
static inline void hwpmc_file_notify(struct file *file, int band)
{
	struct hwpmc_file *pf = file->private_data;

	kill_fasync(&pf->fasync, SIGIO, band);
}

#endif /* _HWPMC_INTERNAL_H */
