// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: counting process-scope PMCs, saved and restored at
 * context switches by the module (FreeBSD's pmc_process_csw_in() and
 * pmc_process_csw_out()), and the PROCCSW of sampling process PMCs with
 * PMC_F_LOG_PROCCSW, whose slots in the same thread records log what the
 * thread's own perf counter counted in each time slice
 * (hwpmc_thr_close_smp(); perf's ctx->lock is taken under thr->lock).
 *
 * A counting process PMC (PMC_MODE_TC) counts with one perf counter per
 * CPU, counting whatever runs there: a counter set, made at the first
 * PMCSTART of a PMC of its event and shared by every counting process
 * PMC of the same event (perf attribute), whoever owns it, until the last
 * of them is released.  Each thread it counts (a target thread)
 * has a record (struct hwpmc_thr), found in a hash by its task, with a
 * slot per PMC (struct hwpmc_slot): when the thread is switched in, the
 * slot takes the CPU counter's count as the base of a time slice; when
 * it is switched out, what the counter counted since is added to the
 * slot.  The switches come from a preempt notifier on each target
 * thread, so threads that are no targets pay nothing (or, with the
 * tunable csw_tracepoint, from the sched_switch tracepoint: a probe for
 * every switch of the system, two lookups in the hash).  perf's per-task
 * counters do the same in perf's context switch, at several times the
 * cost (docs/performance.md), and take a counter per thread.
 *
 * The value of such a PMC is pm->value plus its slots' counts; a stop
 * folds those into pm->value.  A thread running on another CPU when the
 * PMC is started, stopped or read is reached with a cross-call to that
 * CPU, which opens, closes or brings up to date its slice there.
 *
 * New threads of a target thread, and new processes with
 * PMC_F_DESCENDANTS, get slots at fork (sched_process_fork, before the
 * child first runs).  An exiting thread's slices are closed where perf
 * stops a thread's counters (the kprobe on perf_event_exit_task(), or
 * sched_process_exit without kprobes), which also adds what the thread
 * counted to its process's count for PROCEXIT; its slots stay, dead,
 * until process context folds them into pm->value (hwpmc_vpmc_reap()).
 * An exec of a program the target's user may not watch ends its counting
 * (hwpmc_thr_exec()), as the kernel ends its perf counters.
 *
 * Locking, outermost first:
 *  - hwpmc_sx: everything that changes PMCs and targets (held for
 *    writing), reads (for reading);
 *  - hwpmc_vlock, a raw spinlock: the thread hash and which slot is on
 *    which list (pm->slots and thr->slots are RCU lists, walked without
 *    it), and a slot's gone flag;
 *  - thr->lock, a raw spinlock taken with IRQs off: the counting state
 *    of the thread's slots, thr->cpu, thr->nsmp (a sampling slot joins
 *    thr->slots under it too) and the notifier's state.  The
 *    notifiers (sched_out: rq lock held, IRQs off; sched_in: IRQs
 *    turned off), the switch probe, the cross-calls, the task works
 *    and process context take it;
 *  - the log's locks (PROCCSW records are appended under thr->lock).
 * Threads, slots and PMCs are freed after an RCU grace period.
 */
#define pr_fmt(fmt) "hwpmc: " fmt

#include <linux/kernel.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/llist.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/rculist.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/sort.h>
#include <linux/bsearch.h>
#include <linux/task_work.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include <linux/hwpmclog.h>

#include "hwpmc_internal.h"
#include "hwpmc_csw.h"
#include "hwpmc_rows.h"
#include "hwpmc_records.h"
#include "hwpmc_log.h"
#include "hwpmc_watch.h"
#include "hwpmc_tracepoint.h"
#include "hwpmc_backend.h"

/* thr->cpu: where the thread runs; these when it runs nowhere known */
#define HWPMC_THR_OFF		(-1)	/* not running */
#define HWPMC_THR_UNKNOWN	(-2)	/* not seen switching since attach */

struct hwpmc_thr {
	struct hlist_node	hnode;		/* hwpmc_thr_hash, by task */
	struct task_struct	*task;		/* referenced */
	raw_spinlock_t		lock;
	struct list_head	slots;		/* hwpmc_slot.tlink (RCU) */
	int			cpu;		/* or HWPMC_THR_* */
	unsigned int		nsmp;		/* sampling PMCs' slots */
	unsigned int		ncsw;		/* of them, LOG_PROCCSW */
	u64			nr_migr;	/* task's se.nr_migrations then */
	u64			tin;		/* hwpmc_thr_clock() at switch-in */
	bool			dead;		/* exited or idle, unhashed */
	bool			pn_on;		/* pn on the task's list */
	bool			tw_queued;	/* twork queued (a reference) */
	bool			idle_queued;	/* on hwpmc_thr_idle (a ref.) */
	refcount_t		refs;
#ifdef CONFIG_PREEMPT_NOTIFIERS
	struct preempt_notifier	pn;
#endif
	struct callback_head	twork;		/* hwpmc_thr_twork() */
	struct llist_node	idle;		/* hwpmc_thr_idle */
	struct rcu_head		rcu;
};

/*
 * A counter set: the counters of one event on every CPU, shared by the
 * counting process PMCs of that event (pm->attr, whatever their owners).
 * The list and the sets change under hwpmc_sx held for writing; the
 * switch probe and the cross-calls read a set's counters through their
 * PMC only while one of its slots counts, and a set goes with its last
 * PMC, after that PMC's slots, so no reader outlives it.
 */
struct hwpmc_cset {
	struct list_head	link;		/* hwpmc_csets */
	struct perf_event_attr	attr;		/* the PMCs' pm->attr */
	int			refs;		/* PMCs started once */
	bool			at_in;		/* perf counts at switch-in */
	bool			some_cpus;	/* a PMU of some CPUs only */
	u32			nfail;		/* CPUs that got no counter */
	int			*gen;		/* hwpmc_cpu_gen at creation */
	struct rcu_head		rcu;
	struct perf_event	*pcpu[];	/* [nr_cpu_ids] */
};

static LIST_HEAD(hwpmc_csets);

static struct hlist_head *hwpmc_thr_hash;
static unsigned int hwpmc_thr_bits;
static DEFINE_RAW_SPINLOCK(hwpmc_vlock);

static int hwpmc_vpmcs;			/* counting process PMCs; hwpmc_sx */
static bool hwpmc_vprobe_on;		/* probe or notifier key; hwpmc_sx */
static atomic_t hwpmc_thr_nr = ATOMIC_INIT(0);	/* records not yet freed */
/* module references held by notifiers on lists and queued task works */
atomic_t hwpmc_csw_pinned = ATOMIC_INIT(0);
static LLIST_HEAD(hwpmc_thr_idle);	/* records that lost their last slot */
static void hwpmc_vprobe_off_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(hwpmc_vprobe_off, hwpmc_vprobe_off_fn);

static struct hlist_head *hwpmc_thr_bucket(const struct task_struct *t)
{
	return &hwpmc_thr_hash[hash_ptr(t, hwpmc_thr_bits)];
}

/* The record of thread t, or NULL; RCU read side (or hwpmc_vlock). */
static struct hwpmc_thr *hwpmc_thr_find(const struct task_struct *t)
{
	struct hwpmc_thr *thr;

	hlist_for_each_entry_rcu(thr, hwpmc_thr_bucket(t), hnode,
				 lockdep_is_held(&hwpmc_vlock))
		if (thr->task == t)
			return thr;
	return NULL;
}

static struct hwpmc_thr *hwpmc_thr_alloc(struct task_struct *t, int cpu,
					 gfp_t gfp)
{
	struct hwpmc_thr *thr = kzalloc(sizeof(*thr), gfp);

	if (!thr)
		return NULL;
	thr->task = get_task_struct(t);
	raw_spin_lock_init(&thr->lock);
	INIT_LIST_HEAD(&thr->slots);
	thr->cpu = cpu;
	thr->nr_migr = READ_ONCE(t->se.nr_migrations);
	refcount_set(&thr->refs, 1);	/* its life, until dead */
	atomic_inc(&hwpmc_thr_nr);
	smp_mb__after_atomic();	/* pairs with smp_mb() in hwpmc_thr_exit() */
	return thr;
}

static void hwpmc_thr_free_rcu(struct rcu_head *rcu)
{
	struct hwpmc_thr *thr = container_of(rcu, struct hwpmc_thr, rcu);

	put_task_struct(thr->task);
	kfree(thr);
	/* hwpmc_csw_fini()'s rcu_barrier() waits for this callback */
	if (atomic_dec_and_test(&hwpmc_thr_nr))
		schedule_delayed_work(&hwpmc_vprobe_off, HZ);
}

static void hwpmc_thr_put(struct hwpmc_thr *thr)
{
	if (refcount_dec_and_test(&thr->refs))
		call_rcu(&thr->rcu, hwpmc_thr_free_rcu);
}

/* -- slices ------------------------------------------------------------------ */

/*
 * The thread's time on a CPU, in ns: the scheduler's sum_exec_runtime,
 * which it brings up to date when it switches the thread out (before
 * the notifier and the switch probe) and at ticks; the switch-in finds
 * it as the switch-out left it.  It is exact at the switches and at most
 * a tick old where a start, stop or read reaches a running thread.
 *
 * A slot's enabled time (decision 33) is the thread's time on a CPU while
 * the slot counts: the difference of two of these (hwpmc_slot_begin(),
 * _end()), nothing at a switch.  Its time not running is added up in the
 * slices whose counter did not count (none on the CPU, or perf's error
 * state): rare, so the switches pay a test per slot for it and the
 * switch-in a store of this clock per thread (thr->tin).
 */
static __always_inline u64 hwpmc_thr_clock(const struct hwpmc_thr *thr)
{
	/*
	 * (a u64: whole on 64-bit kernels; on others it is read where it
	 * is not written meanwhile: on the thread's CPU, or asleep)
	 */
	return READ_ONCE(thr->task->se.sum_exec_runtime);
}

/* s starts counting (its thread's clock now); thr->lock held */
static void hwpmc_slot_begin(struct hwpmc_slot *s, u64 now)
{
	s->tbase = now;
	s->tlast = now;
	s->tcount = true;
}

/* s stops counting: its enabled time so far is final; thr->lock held */
static void hwpmc_slot_end(struct hwpmc_slot *s, u64 now)
{
	if (s->tcount)
		s->ten += now - s->tbase;
	s->tcount = false;
}

/*
 * s's open slice has not counted since it began, or since its last
 * account (s->tlast: a start, a read): time enabled and not running.
 * Out of line, rare: a CPU without a counter, or a counter perf could not
 * schedule.  thr->lock held.
 */
static noinline void hwpmc_slice_off(struct hwpmc_slot *s,
				     const struct hwpmc_thr *thr)
{
	u64 now = hwpmc_thr_clock(thr);

	s->toff += now - max(thr->tin, s->tlast);
	s->tlast = now;
}

/*
 * A slice of s begins; its thread runs here, thr->lock held.  migrated:
 * at a switch-in on another CPU than the thread's last, seen by a
 * preempt notifier, after perf counted the migration for the thread.
 * any: s may be a sampling PMC's (no counter set, no slice); false only
 * where the record has no such slot (thr->nsmp), so that a switch-in's
 * walk of counting slots has no test more per slot than before there
 * were sampling ones.  Inline: a call per slot costs more than the slice.
 *
 * No counter on this CPU (hotplug: none yet, or none made; a
 * heterogeneous PMU's other CPUs, where perf's own per-task counter has
 * its time enabled and not running too): no slice, but its time is off
 * (s->noev, until the switch-out).
 */
static __always_inline void hwpmc_slice_open(struct hwpmc_slot *s, int cpu,
					     bool migrated, bool any)
{
	struct perf_event *ev;

	lockdep_assert_irqs_disabled();
	if (any && !READ_ONCE(s->pm->cset))
		return;		/* a sampling PMC's: no slice to open */
	ev = READ_ONCE(s->pm->cset->pcpu[cpu]);
	if (unlikely(!ev)) {
		s->noev = true;
		return;
	}
	s->ev = ev;
	s->base = hwpmc_md_read_local(ev, cpu);
	if (migrated && s->pm->cset->at_in)
		s->base--;
	s->in = true;
}

/*
 * What s's open slice counted up to now, added to the slot; the slice
 * goes on from here, or ends (close).  A counter replaced since the
 * slice began (its CPU went offline) gives nothing; one that is not on
 * the PMU (perf's error state: a pinned counter that found every
 * counter taken, or was taken off for an older one) counted nothing:
 * either way the slice's time is off.  thr->lock held.  Inline, as
 * hwpmc_slice_open().
 */
static __always_inline u64 hwpmc_slice_take(struct hwpmc_slot *s,
					    const struct hwpmc_thr *thr,
					    int cpu, bool close)
{
	struct hwpmc_md_local r;
	u64 d = 0;

	if (!s->in)
		return 0;
	if (likely(s->ev == READ_ONCE(s->pm->cset->pcpu[cpu]))) {
		r = hwpmc_md_read_active(s->ev, cpu);
		d = r.value - s->base;
		s->base = r.value;
		if (unlikely(!r.active))
			hwpmc_slice_off(s, thr);
	} else {
		hwpmc_slice_off(s, thr);
	}
	s->acc += d;
	s->total += d;
	s->in = !close;
	return d;
}

/* The end of s's time on a CPU without a counter (s->noev), or its account. */
static void hwpmc_noev_take(struct hwpmc_slot *s, const struct hwpmc_thr *thr,
			    bool close)
{
	hwpmc_slice_off(s, thr);
	s->noev = !close;
}

static bool hwpmc_slot_counts(const struct hwpmc_slot *s)
{
	return !READ_ONCE(s->gone) &&
	       READ_ONCE(s->pm->state) == PMC_STATE_RUNNING;
}

/*
 * thr runs on cpu from now: its slices begin; thr->lock held, IRQs off.
 * Inline in the switch-in; hwpmc_thr_open() for the other callers.
 */
static __always_inline void __hwpmc_thr_open(struct hwpmc_thr *thr, int cpu,
					     bool migrated)
{
	struct hwpmc_slot *s;

	lockdep_assert_held(&thr->lock);
	thr->cpu = cpu;
	thr->tin = hwpmc_thr_clock(thr);
	if (unlikely(thr->nsmp)) {
		list_for_each_entry_rcu(s, &thr->slots, tlink)
			if (hwpmc_slot_counts(s))
				hwpmc_slice_open(s, cpu, migrated, true);
		return;
	}
	list_for_each_entry_rcu(s, &thr->slots, tlink)
		if (hwpmc_slot_counts(s))
			hwpmc_slice_open(s, cpu, migrated, false);
}

static void hwpmc_thr_open(struct hwpmc_thr *thr, int cpu, bool migrated)
{
	__hwpmc_thr_open(thr, cpu, migrated);
}

/*
 * thr is switched in on cpu; IRQs off.  notifier: after perf's part of
 * the switch-in, which counted one cpu-migration for the thread if it
 * changed CPUs since it last ran (set_task_cpu() counts both).
 */
static __always_inline void hwpmc_thr_in(struct hwpmc_thr *thr, int cpu,
					 bool notifier)
{
	u64 nr = READ_ONCE(thr->task->se.nr_migrations);

	lockdep_assert_irqs_disabled();
	raw_spin_lock(&thr->lock);
	if (!thr->dead)
		__hwpmc_thr_open(thr, cpu, notifier && nr != thr->nr_migr);
	thr->nr_migr = nr;
	raw_spin_unlock(&thr->lock);
}

struct hwpmc_smp_csw {
	struct hwpmc_thr	*thr;
	bool			exit;	/* and the thread's PROCEXIT share */
};

/*
 * A counter of sampling PMC pm in the switched-out thread: PROCCSW with
 * what it counted since the thread's previous switch-out (perf updated
 * its count in its part of the switch-out, before the notifier; the
 * sched_switch fallback comes before perf's part, and reads the PMU).
 * A stopped PMC's copies may count on (hwpmc_target.c): no record then.
 * At the thread's exit, also what the counter counted in all, for its
 * process's PROCEXIT (s->total, which sampling slots keep for that).
 */
static void hwpmc_smp_csw(struct perf_event *ev, struct hwpmc_pmc *pm,
			  void *arg)
{
	struct hwpmc_smp_csw *c = arg;
	struct hwpmc_slot *s;
	u64 v, d;

	list_for_each_entry_rcu(s, &c->thr->slots, tlink) {
		if (s->pm != pm || READ_ONCE(s->gone))
			continue;
		v = hwpmc_md_read_local(ev, smp_processor_id());
		if (c->exit)
			s->total = v;
		if (!(pm->flags & PMC_F_LOG_PROCCSW))
			return;
		d = v - s->base;
		s->base = v;
		if (READ_ONCE(pm->state) == PMC_STATE_RUNNING)
			hwpmc_rec_proccsw(pm, c->thr->task, d);
		return;
	}
}

/*
 * The sampling PMCs' slots of thr, switched out (current; at a switch
 * only where some has LOG_PROCCSW, thr->ncsw) or exiting: the thread's
 * own counters, found in its perf context.  Out of line: counting PMCs'
 * switches do not pay for it.
 */
static noinline void hwpmc_thr_close_smp(struct hwpmc_thr *thr, bool exit)
{
	struct hwpmc_smp_csw c = { .thr = thr, .exit = exit };
	struct hwpmc_slot *s;

	list_for_each_entry_rcu(s, &thr->slots, tlink)
		if (!hwpmc_pmc_virtual(s->pm))
			break;
	if (list_entry_is_head(s, &thr->slots, tlink) || thr->task != current)
		return;
	rcu_read_lock();
	hwpmc_md_task_counters(current, hwpmc_smp_csw, &c);
	rcu_read_unlock();
}

/* thr is switched out (or exits) on cpu; IRQs off, thr->lock held. */
static __always_inline void __hwpmc_thr_close(struct hwpmc_thr *thr, int cpu,
					      bool exit)
{
	struct hwpmc_slot *s;
	u64 d;

	lockdep_assert_held(&thr->lock);
	list_for_each_entry_rcu(s, &thr->slots, tlink) {
		if (!s->in) {
			/* a sampling PMC's, not running, or on no counter */
			if (unlikely(s->noev))
				hwpmc_noev_take(s, thr, true);
			continue;
		}
		d = hwpmc_slice_take(s, thr, cpu, true);
		if ((s->pm->flags & PMC_F_LOG_PROCCSW) && hwpmc_slot_counts(s))
			hwpmc_rec_proccsw(s->pm, thr->task, d);
	}
	if (unlikely(exit ? thr->nsmp : thr->ncsw))
		hwpmc_thr_close_smp(thr, exit);
	thr->cpu = HWPMC_THR_OFF;
	thr->nr_migr = READ_ONCE(thr->task->se.nr_migrations);
}

static void hwpmc_thr_close(struct hwpmc_thr *thr, int cpu)
{
	__hwpmc_thr_close(thr, cpu, false);
}

/*
 * Every context switch while counting process PMCs exist: prev's slices
 * end, next's begin.  rq lock held, IRQs off.
 */
static void hwpmc_vprobe_switch(void *data, bool preempt,
				struct task_struct *prev,
				struct task_struct *next,
				unsigned int prev_state)
{
	int cpu = smp_processor_id();
	struct hwpmc_thr *thr;

	lockdep_assert_irqs_disabled();
	thr = hwpmc_thr_find(prev);
	if (thr) {
		raw_spin_lock(&thr->lock);
		if (!thr->dead)
			hwpmc_thr_close(thr, cpu);
		raw_spin_unlock(&thr->lock);
	}
	thr = hwpmc_thr_find(next);
	if (thr)
		hwpmc_thr_in(thr, cpu, false);
}

/* -- preempt notifiers ------------------------------------------------------- */

/*
 * With preempt notifiers (the default), each target thread's record has
 * a notifier on its task's list, and threads that are no targets pay
 * nothing at a switch.  A notifier goes on a task's list only in that
 * task's own context (the list has no lock: the scheduler walks it on
 * the task's CPU, KVM changes it with IRQs on): at attach by the caller
 * itself, else by a task work (TWA_RESUME, whose kick makes a running
 * target take it at once, and a sleeping one before it returns to user
 * mode); and on a new thread's list by the fork probe, before the thread
 * can run.  It leaves the list at the thread's exit (hwpmc_thr_exit()), or
 * by a task work when the record loses its last slot.  A notifier on a
 * list, and a queued task work, each hold a module reference (rmmod
 * answers EBUSY meanwhile), dropped where the module's exit synchronizes
 * with the code that drops it: in a probe, or as the task work's last
 * call (a tail call).
 */
#ifdef CONFIG_PREEMPT_NOTIFIERS
static void hwpmc_pn_in(struct preempt_notifier *pn, int cpu)
{
	struct hwpmc_thr *thr = container_of(pn, struct hwpmc_thr, pn);
	unsigned long flags;

	/* IRQs on here; the cross-calls take thr->lock */
	local_irq_save(flags);
	hwpmc_thr_in(thr, cpu, true);
	local_irq_restore(flags);
}

/* rq lock held, IRQs off, after perf's part of the switch-out */
static void hwpmc_pn_out(struct preempt_notifier *pn, struct task_struct *next)
{
	struct hwpmc_thr *thr = container_of(pn, struct hwpmc_thr, pn);

	lockdep_assert_irqs_disabled();
	raw_spin_lock(&thr->lock);
	if (!thr->dead)
		__hwpmc_thr_close(thr, smp_processor_id(), false);
	raw_spin_unlock(&thr->lock);
}

static struct preempt_ops hwpmc_pn_ops = {
	.sched_in	= hwpmc_pn_in,
	.sched_out	= hwpmc_pn_out,
};

/*
 * On t's list: t is current, or cannot run yet; thr->lock held.  The
 * caller holds the module: through a file, or a record of the parent.
 */
static void hwpmc_pn_link(struct hwpmc_thr *thr, struct task_struct *t)
{
	lockdep_assert_held(&thr->lock);
	__module_get(THIS_MODULE);
	atomic_inc(&hwpmc_csw_pinned);
	preempt_notifier_init(&thr->pn, &hwpmc_pn_ops);
	hlist_add_head(&thr->pn.link, &t->preempt_notifiers);
	thr->pn_on = true;
}

/* Off its task's list; its task is current, thr->lock held, IRQs off. */
static void hwpmc_pn_unlink(struct hwpmc_thr *thr)
{
	lockdep_assert_held(&thr->lock);
	if (!thr->pn_on)
		return;
	preempt_notifier_unregister(&thr->pn);
	thr->pn_on = false;
	atomic_dec(&hwpmc_csw_pinned);
	module_put(THIS_MODULE);	/* the caller holds it on */
}

static void hwpmc_pn_key(bool on)
{
	if (on)
		preempt_notifier_inc();
	else
		preempt_notifier_dec();
}
#else
static void hwpmc_pn_link(struct hwpmc_thr *thr, struct task_struct *t)
{
}

static void hwpmc_pn_unlink(struct hwpmc_thr *thr)
{
}

static void hwpmc_pn_key(bool on)
{
}
#endif

/* thr leaves the hash for good; hwpmc_vlock and thr->lock held. */
static void hwpmc_thr_unhash(struct hwpmc_thr *thr)
{
	lockdep_assert_held(&hwpmc_vlock);
	lockdep_assert_held(&thr->lock);
	hlist_del_rcu(&thr->hnode);
	thr->dead = true;
}

/*
 * In the record's task, on its way to user mode (or in its exit): its
 * notifier goes on its list if it has slots, or the record goes if it
 * has none.
 */
static void hwpmc_thr_twork(struct callback_head *cb)
{
	struct hwpmc_thr *thr = container_of(cb, struct hwpmc_thr, twork);
	bool gone = false, exiting = false;
	unsigned long flags;

	raw_spin_lock_irqsave(&hwpmc_vlock, flags);
	raw_spin_lock(&thr->lock);
	thr->tw_queued = false;
	/*
	 * In exit_task_work(), after the exit hooks: the record, if still
	 * hashed, goes as at an exit (hwpmc_thr_exit()).
	 */
	if (current->flags & PF_EXITING) {
		exiting = true;
	} else if (!thr->dead && list_empty(&thr->slots)) {
		hwpmc_pn_unlink(thr);
		hwpmc_thr_unhash(thr);
		gone = true;
	} else if (!thr->dead && !thr->pn_on) {
		hwpmc_pn_link(thr, current);
		hwpmc_thr_open(thr, smp_processor_id(), false);
	}
	raw_spin_unlock(&thr->lock);
	raw_spin_unlock_irqrestore(&hwpmc_vlock, flags);
	if (gone)
		hwpmc_thr_put(thr);
	if (exiting) {
		rcu_read_lock();
		hwpmc_thr_exit(current);
		rcu_read_unlock();
	}
	hwpmc_thr_put(thr);	/* the task work's */
	atomic_dec(&hwpmc_csw_pinned);
	module_put(THIS_MODULE);	/* the task work's; last */
}

/*
 * thr's task work is to be queued, unless it is: true if so, with a
 * reference to thr and one to the module for it, which the caller, who
 * holds the module (a file, a notifier, a task work), passes to
 * hwpmc_thr_queue() after dropping its locks.  thr->lock held.
 */
static bool hwpmc_thr_queue_prep(struct hwpmc_thr *thr)
{
	lockdep_assert_held(&thr->lock);
	if (thr->dead || thr->tw_queued)
		return false;
	thr->tw_queued = true;
	refcount_inc(&thr->refs);
	__module_get(THIS_MODULE);
	atomic_inc(&hwpmc_csw_pinned);
	return true;
}

/* Queue thr's task work (prepared); no raw lock held (KASAN allocates). */
static void hwpmc_thr_queue(struct hwpmc_thr *thr)
{
	unsigned long flags;

	lockdep_assert_not_held(&thr->lock);
	init_task_work(&thr->twork, hwpmc_thr_twork);
	if (!task_work_add(thr->task, &thr->twork, TWA_RESUME))
		return;
	/*
	 * Past exit_task_work(): the thread is past its exit hook too
	 * (perf_event_exit_task(), sched_process_exit), which found the
	 * record hashed and killed it.
	 */
	raw_spin_lock_irqsave(&thr->lock, flags);
	thr->tw_queued = false;
	raw_spin_unlock_irqrestore(&thr->lock, flags);
	hwpmc_thr_put(thr);
	atomic_dec(&hwpmc_csw_pinned);
	module_put(THIS_MODULE);
}

/* The records that lost their last slot meanwhile: task works for them. */
static void hwpmc_thr_idle_flush(void)
{
	struct llist_node *n = llist_del_all(&hwpmc_thr_idle);
	struct hwpmc_thr *thr, *tmp;
	unsigned long flags;

	bool queue;

	llist_for_each_entry_safe(thr, tmp, n, idle) {
		raw_spin_lock_irqsave(&thr->lock, flags);
		thr->idle_queued = false;
		queue = hwpmc_thr_queue_prep(thr);
		raw_spin_unlock_irqrestore(&thr->lock, flags);
		if (queue)
			hwpmc_thr_queue(thr);
		hwpmc_thr_put(thr);	/* the list's */
	}
}

/* -- operations on a slot, where its thread runs ------------------------------ */

/* A count and its enabled and running times, in ns. */
struct hwpmc_vsum {
	u64			value;
	u64			enabled;
	u64			running;
};

enum hwpmc_vop {
	HWPMC_VOP_OPEN,		/* a running thread's slice begins */
	HWPMC_VOP_CLOSE,	/* its open slice ends */
	HWPMC_VOP_SYNC,		/* its open slice is counted up to now */
};

struct hwpmc_vcall {
	struct hwpmc_slot	*s;
	struct hwpmc_thr	*thr;
	enum hwpmc_vop		op;
	bool			remote;	/* sent to the task's CPU */
	struct hwpmc_vsum	sum;	/* the slot's count, times after op */
};

/*
 * s's count and times; its thread's lock held (thr: its clock, for a
 * slot that counts), or the thread gone (thr NULL: its times final).
 */
static void hwpmc_slot_sum(const struct hwpmc_slot *s,
			   const struct hwpmc_thr *thr, struct hwpmc_vsum *v)
{
	v->value = READ_ONCE(s->acc);
	v->enabled = READ_ONCE(s->ten);
	if (thr && s->tcount)
		v->enabled += hwpmc_thr_clock(thr) - s->tbase;
	v->running = v->enabled - min(v->enabled, READ_ONCE(s->toff));
}

/* vc's operation; thr->lock held, IRQs off. */
static void hwpmc_vop_do(struct hwpmc_vcall *vc)
{
	struct hwpmc_slot *s = vc->s;
	struct hwpmc_thr *thr = vc->thr;
	int cpu = smp_processor_id();
	bool here = !thr->dead && thr->task == current;

	lockdep_assert_held(&thr->lock);
	lockdep_assert_irqs_disabled();
	/*
	 * With notifiers, a slice may only open where the notifier will
	 * close it: a thread of the target process acting on its own PMC
	 * before its task work ran takes its notifier now (its own list, in
	 * process context); a cross-call never touches a list.
	 */
	if (here && !hwpmc_csw_tracepoint && !thr->pn_on) {
		if (vc->remote)
			here = false;
		else
			hwpmc_pn_link(thr, current);
	}
	if (here)
		thr->cpu = cpu;
	else if (vc->remote && thr->cpu == HWPMC_THR_UNKNOWN)
		thr->cpu = HWPMC_THR_OFF;	/* not on its CPU: not running */
	if (here) {
		switch (vc->op) {
		case HWPMC_VOP_OPEN:
			break;	/* below, once the slot counts */
		case HWPMC_VOP_CLOSE:
			hwpmc_slice_take(s, thr, cpu, true);
			if (s->noev)
				hwpmc_noev_take(s, thr, true);
			break;
		case HWPMC_VOP_SYNC:
			hwpmc_slice_take(s, thr, cpu, false);
			if (s->noev)
				hwpmc_noev_take(s, thr, false);
			s->tlast = hwpmc_thr_clock(thr);
			break;
		}
	}
	/*
	 * its time counts from the start, wherever it runs, to the stop (a
	 * fork's copy linked during the start may have begun already)
	 */
	if (vc->op == HWPMC_VOP_OPEN && !thr->dead && hwpmc_slot_counts(s)) {
		if (!s->tcount)
			hwpmc_slot_begin(s, hwpmc_thr_clock(thr));
		if (here && !s->in && !s->noev)
			hwpmc_slice_open(s, cpu, false, true);
	} else if (vc->op == HWPMC_VOP_CLOSE && !thr->dead) {
		hwpmc_slot_end(s, hwpmc_thr_clock(thr));
	}
	hwpmc_slot_sum(s, thr->dead ? NULL : thr, &vc->sum);
}

static void hwpmc_vop_ipi(void *info)
{
	struct hwpmc_vcall *vc = info;

	raw_spin_lock(&vc->thr->lock);
	hwpmc_vop_do(vc);
	raw_spin_unlock(&vc->thr->lock);
}

/* Is t on a CPU (running, or being switched in or out)? */
static bool hwpmc_on_cpu(struct task_struct *t)
{
#ifdef CONFIG_SMP
	return READ_ONCE(t->on_cpu);
#else
	return t == current;
#endif
}

/*
 * Do op on s where its thread runs (a cross-call to that CPU, unless it
 * runs nowhere, or here; it runs where it has a slice open, or its time
 * on a CPU without a counter: s->noev), and add the slot's count and
 * times to *sum (unless NULL).  Process context, RCU read side; the slot's thread may
 * exit meanwhile (its counts then stand still: dead slots are not
 * touched).
 */
static void hwpmc_vop(struct hwpmc_slot *s, enum hwpmc_vop op,
		      struct hwpmc_vsum *sum)
{
	struct hwpmc_vcall vc = { .s = s, .op = op };
	unsigned long flags;
	int cpu = -1;

	/* pairs with smp_store_release() in hwpmc_thr_exit() */
	vc.thr = smp_load_acquire(&s->thr);
	if (!vc.thr) {
		hwpmc_slot_sum(s, NULL, &vc.sum);	/* dead: frozen */
		goto out;
	}
	raw_spin_lock_irqsave(&vc.thr->lock, flags);
	if (op == HWPMC_VOP_OPEN && !vc.thr->dead) {
		/*
		 * A thread not seen switching may run, on its task's CPU.  If
		 * it is on no CPU now, its next switch-in (whose probe takes
		 * this lock before perf sets on_cpu) opens its slice.
		 */
		cpu = vc.thr->cpu;
		if (cpu == HWPMC_THR_UNKNOWN && !hwpmc_on_cpu(vc.thr->task))
			vc.thr->cpu = cpu = HWPMC_THR_OFF;
		else if (cpu == HWPMC_THR_UNKNOWN)
			cpu = task_cpu(vc.thr->task);
	} else if (s->in || s->noev) {
		cpu = vc.thr->cpu;	/* a slice is open where it runs */
	}
	if (cpu < 0 || cpu == smp_processor_id()) {
		hwpmc_vop_do(&vc);
		raw_spin_unlock_irqrestore(&vc.thr->lock, flags);
		goto out;
	}
	raw_spin_unlock_irqrestore(&vc.thr->lock, flags);
	vc.remote = true;
	if (smp_call_function_single(cpu, hwpmc_vop_ipi, &vc, 1)) {
		/* the CPU went away: the thread ran elsewhere since */
		raw_spin_lock_irqsave(&vc.thr->lock, flags);
		hwpmc_slot_sum(s, vc.thr->dead ? NULL : vc.thr, &vc.sum);
		raw_spin_unlock_irqrestore(&vc.thr->lock, flags);
	}
out:
	if (sum) {
		sum->value += vc.sum.value;
		sum->enabled += vc.sum.enabled;
		sum->running += vc.sum.running;
	}
}

/* -- the probe comes and goes with the PMCs ------------------------------------- */

/*
 * A counting process PMC is allocated (on) or freed; hwpmc_sx held for
 * writing.  The switch probe is registered while any exists, and stays
 * a second after the last goes, for the next.
 */
int hwpmc_vpmc_use(struct hwpmc_pmc *pm, bool on)
{
	int error;

	lockdep_assert_held_write(&hwpmc_sx);
	if (!hwpmc_pmc_slotted(pm))
		return 0;
	if (!on) {
		if (!--hwpmc_vpmcs)
			schedule_delayed_work(&hwpmc_vprobe_off, HZ);
		return 0;
	}
	if (!hwpmc_vprobe_on && hwpmc_csw_tracepoint) {
		error = hwpmc_tp_register(HWPMC_TP_SWITCH, hwpmc_vprobe_switch);
		if (error)
			return error;
	} else if (!hwpmc_vprobe_on) {
		hwpmc_pn_key(true);
	}
	hwpmc_vprobe_on = true;
	hwpmc_vpmcs++;
	return 0;
}

/*
 * The probe, or the notifiers' static key, goes a second after the last
 * counting process PMC, once no record is left (records that lost
 * their slots wait for their task works; their notifiers need not
 * fire meanwhile, but one registered later needs the key).
 */
static void hwpmc_vprobe_off_fn(struct work_struct *work)
{
	bool off = false;

	down_write(&hwpmc_sx);
	if (!hwpmc_vpmcs && hwpmc_vprobe_on && hwpmc_csw_tracepoint) {
		/* no PMC, so no slot and no thread record either */
		hwpmc_tp_unregister(HWPMC_TP_SWITCH, hwpmc_vprobe_switch);
		hwpmc_vprobe_on = false;
		off = true;
	} else if (!hwpmc_vpmcs && hwpmc_vprobe_on &&
		   !atomic_read(&hwpmc_thr_nr)) {
		hwpmc_pn_key(false);
		hwpmc_vprobe_on = false;
	}
	up_write(&hwpmc_sx);
	if (off)
		hwpmc_tp_sync();
}

/* -- per-CPU counters --------------------------------------------------------- */

/*
 * cs's counters on every online CPU, made when the set is made and again
 * for a CPU that went offline since (perf drops a CPU's counters when it
 * goes); hwpmc_sx held for writing.  A hardware counter perf cannot put
 * on the PMU (all taken by pinned counters of others) stays in the set,
 * in perf's error state, and perf tries it again at each PMCSTART of one
 * of the set's PMCs; meanwhile the slices on it have no running time, and
 * the PMCs' plain reads say ENODATA (hwpmc_vpmc_failed()).  A core
 * PMU of some CPUs (some_cpus: cpu_atom) refuses the others, ENOENT:
 * they get no counter, and what targets run there counts nothing, as
 * perf's own per-task counter of that PMU.
 */
static int hwpmc_cset_counters(struct hwpmc_cset *cs)
{
	struct perf_event *ev, *old;
	int cpu, gen;

	lockdep_assert_held_write(&hwpmc_sx);
	for_each_online_cpu(cpu) {
		gen = hwpmc_cpu_gen_read(cpu);
		ev = cs->pcpu[cpu];
		if (ev && cs->gen[cpu] == gen) {
			/* off the PMU: perf tries it again */
			if (hwpmc_md_failed_here(ev))
				hwpmc_md_start(ev);
			continue;
		}
		/* no PMC as context: a counter that wraps has no sample */
		ev = hwpmc_md_create_running(&cs->attr, cpu);
		if (IS_ERR(ev)) {
			if (PTR_ERR(ev) == -ENODEV)
				continue;	/* went offline meanwhile */
			if (PTR_ERR(ev) == -ENOENT && cs->some_cpus)
				continue;	/* not one of its PMU's */
			return PTR_ERR(ev);
		}
		old = cs->pcpu[cpu];
		WRITE_ONCE(cs->pcpu[cpu], ev);
		cs->gen[cpu] = gen;
		if (old) {
			/* slices on the old one end with nothing */
			synchronize_rcu();
			hwpmc_md_release(old);
		}
	}
	return 0;
}

static void hwpmc_cset_free(struct hwpmc_cset *cs)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (cs->pcpu[cpu])
			hwpmc_md_release(cs->pcpu[cpu]);
	kfree(cs->gen);
	kfree_rcu(cs, rcu);
}

/* The counter set of pm's event, shared or made; a reference. */
static struct hwpmc_cset *hwpmc_cset_get(const struct hwpmc_pmc *pm)
{
	struct hwpmc_cset *cs;
	int error;

	list_for_each_entry(cs, &hwpmc_csets, link)
		if (!memcmp(&cs->attr, &pm->attr, sizeof(cs->attr))) {
			/* perf tries its failed counters again, as a restart */
			error = hwpmc_cset_counters(cs);
			if (error)
				return ERR_PTR(error);
			cs->refs++;
			return cs;
		}
	cs = kzalloc(struct_size(cs, pcpu, nr_cpu_ids), GFP_KERNEL);
	if (!cs)
		return ERR_PTR(-ENOMEM);
	cs->gen = kcalloc(nr_cpu_ids, sizeof(*cs->gen), GFP_KERNEL);
	if (!cs->gen) {
		kfree(cs);
		return ERR_PTR(-ENOMEM);
	}
	cs->attr = pm->attr;
	cs->at_in = hwpmc_md_counted_at_switch_in(&cs->attr);
	cs->some_cpus = pm->some_cpus;
	error = hwpmc_cset_counters(cs);
	if (error) {
		hwpmc_cset_free(cs);
		return ERR_PTR(error);
	}
	cs->refs = 1;
	list_add(&cs->link, &hwpmc_csets);
	return cs;
}

static void hwpmc_cset_put(struct hwpmc_cset *cs)
{
	if (--cs->refs)
		return;
	list_del(&cs->link);
	hwpmc_cset_free(cs);
}

/* A CPU came online: counters there for every counter set. */
void hwpmc_csets_refresh(void)
{
	struct hwpmc_cset *cs;
	int error;

	list_for_each_entry(cs, &hwpmc_csets, link) {
		error = hwpmc_cset_counters(cs);
		if (error) {
			/* its PMCs' counts are partial from now: ENODATA */
			cs->nfail++;
			pr_warn_ratelimited("no %s counter on a CPU that came online: error %d\n",
					    "counting", error);
		}
	}
}

/*
 * Has a counter of pm's counter set not counted: none on a CPU that came
 * online, or one that perf took off the PMU for an older pinned counter
 * enabled later (its error state)?  hwpmc_sx held.
 */
bool hwpmc_vpmc_failed(const struct hwpmc_pmc *pm)
{
	const struct hwpmc_cset *cs = pm->cset;
	struct perf_event *ev;
	int cpu;

	lockdep_assert_held(&hwpmc_sx);
	if (!cs)
		return false;
	if (cs->nfail != pm->csfail)
		return true;
	for_each_online_cpu(cpu) {
		ev = READ_ONCE(cs->pcpu[cpu]);
		if (ev && hwpmc_md_failed_here(ev))
			return true;
	}
	return false;
}

/* -- operations on PMCs (hwpmc_ops.c, hwpmc_target.c; hwpmc_sx held) --- */

static struct hwpmc_slot *hwpmc_slot_alloc(struct hwpmc_pmc *pm, gfp_t gfp)
{
	struct hwpmc_slot *s = kzalloc(sizeof(*s), gfp);

	if (s && pm) {
		s->pm = pm;
		s->gen = pm->attach_gen;
	}
	return s;
}

/*
 * s counts for process exit px (NULL: no PROCEXIT wanted) from now on;
 * hwpmc_vlock held.
 */
static void hwpmc_pexit_hold(struct hwpmc_slot *s, struct hwpmc_pexit *px)
{
	lockdep_assert_held(&hwpmc_vlock);
	s->px = px;
	if (px) {
		px->refs++;
		px->nlive++;
	}
}

/* s stops counting: detached, or a set-ID exec; hwpmc_vlock held. */
static void hwpmc_slot_gone(struct hwpmc_slot *s)
{
	lockdep_assert_held(&hwpmc_vlock);
	if (s->gone)
		return;
	WRITE_ONCE(s->gone, true);
	if (s->px && s->thr)
		s->px->nlive--;		/* no PROCEXIT from this one */
}

/* s to its thread's and PMC's lists; hwpmc_vlock held. */
static void hwpmc_slot_link(struct hwpmc_slot *s, struct hwpmc_thr *thr)
{
	lockdep_assert_held(&hwpmc_vlock);
	s->thr = thr;
	if (hwpmc_pmc_virtual(s->pm)) {
		list_add_tail_rcu(&s->tlink, &thr->slots);
		list_add_tail_rcu(&s->plink, &s->pm->slots);
		/*
		 * A PMC that runs: the slot counts from now.  Against a start
		 * or a stop meanwhile (a fork's copy, outside hwpmc_sx): they
		 * set the state, then walk pm->slots; this links, then reads
		 * the state: one sees the other.  Under thr->lock, which their
		 * walk takes after the state is set: a stop's close comes
		 * after this begin, or this sees the stop.
		 */
		smp_mb();
		raw_spin_lock(&thr->lock);
		if (READ_ONCE(s->pm->state) == PMC_STATE_RUNNING &&
		    !s->tcount)
			hwpmc_slot_begin(s, hwpmc_thr_clock(thr));
		raw_spin_unlock(&thr->lock);
		return;
	}
	/* with thr->nsmp, as the switches see them (thr->lock) */
	raw_spin_lock(&thr->lock);
	list_add_tail_rcu(&s->tlink, &thr->slots);
	thr->nsmp++;
	thr->ncsw += !!(s->pm->flags & PMC_F_LOG_PROCCSW);
	raw_spin_unlock(&thr->lock);
	list_add_tail_rcu(&s->plink, &s->pm->slots);
}

static bool hwpmc_thr_has(struct hwpmc_thr *thr, struct hwpmc_pmc *pm)
{
	struct hwpmc_slot *s;

	list_for_each_entry(s, &thr->slots, tlink)
		if (s->pm == pm)
			return true;
	return false;
}

/*
 * Thread t becomes a target thread of pm (stopped): 0, or -ESRCH when
 * it is exiting, or -ENOMEM.  A thread that has the PMC already (it was
 * cloned by one that had it) is left as it is.  *pxp: the PROCEXIT of
 * t's process, shared by the threads of one attach (NULL at the first;
 * set when a slot of a PMC with PMC_F_LOG_PROCEXIT was linked).
 */
int hwpmc_vpmc_add_thread(struct hwpmc_pmc *pm, struct task_struct *t,
			  struct hwpmc_pexit **pxp)
{
	bool pexit = pm->flags & PMC_F_LOG_PROCEXIT;
	struct hwpmc_pexit *px = NULL;
	struct hwpmc_thr *thr = NULL, *fresh;
	struct hwpmc_slot *s;
	bool queue = false;
	int error = 0;

	lockdep_assert_held_write(&hwpmc_sx);
	/* with notifiers, a thread is seen from its notifier's registration */
	fresh = hwpmc_thr_alloc(t, hwpmc_csw_tracepoint ? HWPMC_THR_UNKNOWN :
				HWPMC_THR_OFF, GFP_KERNEL);
	s = hwpmc_slot_alloc(pm, GFP_KERNEL);
	if (pexit && !*pxp)
		px = kzalloc(sizeof(*px), GFP_KERNEL);
	if (!fresh || !s || (pexit && !*pxp && !px)) {
		error = -ENOMEM;
		goto out;
	}
	raw_spin_lock_irq(&hwpmc_vlock);
	/*
	 * PF_EXITING is set before the exit probe looks for the thread's
	 * record; under the lock, either this sees it or the probe sees the
	 * record.
	 */
	if (t->flags & PF_EXITING) {
		error = -ESRCH;
	} else {
		thr = hwpmc_thr_find(t);
		if (!thr) {
			thr = fresh;
			fresh = NULL;
			hlist_add_head_rcu(&thr->hnode, hwpmc_thr_bucket(t));
		}
		if (!hwpmc_thr_has(thr, pm)) {
			if (px) {
				*pxp = px;	/* the first slot's reference */
				px = NULL;
			}
			hwpmc_pexit_hold(s, *pxp);
			hwpmc_slot_link(s, thr);
			s = NULL;
		}
		raw_spin_lock(&thr->lock);
		if (!hwpmc_csw_tracepoint && !thr->pn_on && t == current) {
			hwpmc_pn_link(thr, t);
			hwpmc_thr_open(thr, smp_processor_id(), false);
		} else if (!hwpmc_csw_tracepoint && !thr->pn_on) {
			queue = hwpmc_thr_queue_prep(thr);
		}
		raw_spin_unlock(&thr->lock);
	}
	raw_spin_unlock_irq(&hwpmc_vlock);
	if (queue)
		hwpmc_thr_queue(thr);
out:
	if (fresh)
		hwpmc_thr_put(fresh);
	kfree(s);
	kfree(px);
	return error;
}

static int hwpmc_pid_cmp(const void *a, const void *b)
{
	const struct pid *x = *(struct pid *const *)a;
	const struct pid *y = *(struct pid *const *)b;

	return x < y ? -1 : x > y;
}

/* Sort tgids for hwpmc_vpmc_remove(). */
void hwpmc_pids_sort(struct pid **tgids, u32 n)
{
	sort(tgids, n, sizeof(*tgids), hwpmc_pid_cmp, NULL);
}

/*
 * Is s to go: of a thread of one of the n processes tgids (sorted by
 * hwpmc_pids_sort()), or made by PMCATTACH gen (the attached processes
 * and, with PMC_F_DESCENDANTS, every process born in their trees since,
 * orphans too), or (neither given) any?  Dead ones go in any case.
 * hwpmc_vlock held.
 */
static bool hwpmc_slot_matches(const struct hwpmc_slot *s, u32 gen,
			       struct pid *const *tgids, u32 n)
{
	struct pid *tgid;

	lockdep_assert_held(&hwpmc_vlock);
	if (!s->thr || (!gen && !n) || (gen && s->gen == gen))
		return true;
	if (!n)
		return false;
	tgid = task_tgid(s->thr->task);
	if (n == 1)
		return tgid == tgids[0];
	return bsearch(&tgid, tgids, n, sizeof(*tgids), hwpmc_pid_cmp);
}

/*
 * Unlink s, and its thread's record with its last slot: at once when
 * no notifier of it is on a list or about to be, else by a task work in
 * its thread (hwpmc_thr_idle_flush() after the lock).  hwpmc_vlock held.
 */
static void hwpmc_slot_unlink(struct hwpmc_slot *s)
{
	struct hwpmc_thr *thr = s->thr;
	bool gone = false;

	lockdep_assert_held(&hwpmc_vlock);
	list_del_rcu(&s->plink);
	if (!thr)
		atomic_dec(&s->pm->vdead);
	if (s->px) {
		if (thr && !s->gone)
			s->px->nlive--;
		if (!--s->px->refs)
			kfree_rcu(s->px, rcu);
	}
	if (thr) {
		list_del_rcu(&s->tlink);
		raw_spin_lock(&thr->lock);
		/* after the list: no switch walks it with nsmp 0 */
		if (!hwpmc_pmc_virtual(s->pm)) {
			thr->nsmp--;
			thr->ncsw -= !!(s->pm->flags & PMC_F_LOG_PROCCSW);
		}
		if (list_empty(&thr->slots) && !thr->dead) {
			if (!thr->pn_on && !thr->tw_queued) {
				hwpmc_thr_unhash(thr);
				gone = true;
			} else if (!thr->idle_queued) {
				thr->idle_queued = true;
				refcount_inc(&thr->refs);
				llist_add(&thr->idle, &hwpmc_thr_idle);
			}
		}
		raw_spin_unlock(&thr->lock);
		if (gone)
			hwpmc_thr_put(thr);
	}
	kfree_rcu(s, rcu);
}

/*
 * A walk of a PMC's slots under hwpmc_vlock turns IRQs on for a moment
 * every HWPMC_VLOCK_BATCH slots, so that no user-sized walk keeps them
 * off (M11).  The walker holds hwpmc_sx for writing: only such walkers
 * unlink slots, and new ones (forks) join at the tail, so the walk's
 * place stays linked and the slots added meanwhile are walked too.
 */
#define HWPMC_VLOCK_BATCH	64

static void hwpmc_vlock_breathe(unsigned int *n)
{
	lockdep_assert_held(&hwpmc_vlock);
	if (++*n % HWPMC_VLOCK_BATCH)
		return;
	raw_spin_unlock_irq(&hwpmc_vlock);
	cond_resched();
	raw_spin_lock_irq(&hwpmc_vlock);
}

/*
 * pm's slots of dead threads go, their counts into pm->value.  Called at
 * every exit of an owner or target (the lifecycle work): without dead
 * slots, nothing is walked (M11).  A slot that dies meanwhile waits for
 * the next call; readers count it until then.
 */
void hwpmc_vpmc_reap(struct hwpmc_pmc *pm)
{
	struct hwpmc_slot *s, *tmp;
	unsigned int n = 0;

	lockdep_assert_held_write(&hwpmc_sx);
	if (!hwpmc_pmc_slotted(pm) || !atomic_read(&pm->vdead))
		return;
	raw_spin_lock_irq(&hwpmc_vlock);
	list_for_each_entry_safe(s, tmp, &pm->slots, plink) {
		if (!s->thr) {
			pm->value += s->acc;
			pm->tenabled += s->ten;
			pm->trunning += s->ten - min(s->ten, s->toff);
			hwpmc_slot_unlink(s);
			if (!atomic_read(&pm->vdead))
				break;
		}
		hwpmc_vlock_breathe(&n);	/* tmp stays linked */
	}
	raw_spin_unlock_irq(&hwpmc_vlock);
	hwpmc_thr_idle_flush();
}

/*
 * The threads of the n processes tgids (sorted, hwpmc_pids_sort(): a
 * detach of many targets walks pm's slots once), and with gen those of
 * the processes made targets by that PMCATTACH or born of them since
 * (neither: every thread), stop being target threads of pm; returns what
 * they counted since pm started, and adds their times to pm's.  Dead
 * threads' slots go too.  First every such slot is marked gone under
 * hwpmc_vlock, so that a fork meanwhile either copied it before (and the
 * copy is marked) or sees it gone; then their slices are closed where
 * their threads run, then they are unlinked.
 */
u64 hwpmc_vpmc_remove(struct hwpmc_pmc *pm, u32 gen,
		      struct pid *const *tgids, u32 n)
{
	struct hwpmc_slot *s, *tmp;
	unsigned int nb = 0;
	u64 sum = 0;

	lockdep_assert_held_write(&hwpmc_sx);
	if (!hwpmc_pmc_slotted(pm))
		return 0;
	raw_spin_lock_irq(&hwpmc_vlock);
	list_for_each_entry(s, &pm->slots, plink) {
		if (hwpmc_slot_matches(s, gen, tgids, n))
			hwpmc_slot_gone(s);
		hwpmc_vlock_breathe(&nb);	/* a fork's copy: at the tail */
	}
	raw_spin_unlock_irq(&hwpmc_vlock);
	rcu_read_lock();
	list_for_each_entry_rcu(s, &pm->slots, plink)
		if (s->gone)
			hwpmc_vop(s, HWPMC_VOP_CLOSE, NULL);
	rcu_read_unlock();
	raw_spin_lock_irq(&hwpmc_vlock);
	list_for_each_entry_safe(s, tmp, &pm->slots, plink) {
		if (s->gone) {
			sum += s->acc;	/* closed: no slice adds to it */
			pm->tenabled += s->ten;
			pm->trunning += s->ten - min(s->ten, s->toff);
			hwpmc_slot_unlink(s);
		}
		hwpmc_vlock_breathe(&nb);
	}
	raw_spin_unlock_irq(&hwpmc_vlock);
	hwpmc_thr_idle_flush();
	return sum;
}

/*
 * PMCSTART: counters on every CPU (the first time), then the slices of
 * its target threads that run now begin; the others begin when they are
 * switched in.  The caller sets pm->state; here it is set first, so that
 * a switch after it opens a slice and a thread running before it is
 * reached by a cross-call.
 */
int hwpmc_vpmc_start(struct hwpmc_pmc *pm)
{
	struct hwpmc_slot *s;
	int error;

	if (!pm->cset) {
		pm->cset = hwpmc_cset_get(pm);
		if (IS_ERR(pm->cset)) {
			error = PTR_ERR(pm->cset);
			pm->cset = NULL;
			return error;
		}
	} else {
		/* a CPU that came back: the work item may be yet to run */
		error = hwpmc_cset_counters(pm->cset);
		if (error)
			return error;
	}
	pm->csfail = pm->cset->nfail;	/* failures from now on count */
	WRITE_ONCE(pm->state, PMC_STATE_RUNNING);
	smp_mb();	/* the state before the threads' CPUs */
	rcu_read_lock();
	list_for_each_entry_rcu(s, &pm->slots, plink)
		hwpmc_vop(s, HWPMC_VOP_OPEN, NULL);
	rcu_read_unlock();
	return 0;
}

/* s's count and times, added to sum, which then start from 0 again */
static void __hwpmc_slot_take(struct hwpmc_slot *s, struct hwpmc_vsum *sum)
{
	sum->value += s->acc;
	sum->enabled += s->ten;
	sum->running += s->ten - min(s->ten, s->toff);
	s->acc = 0;
	s->ten = 0;
	s->toff = 0;
}

/*
 * A closed slot's count and times, added to sum; they start from 0
 * again.  Under its thread's lock while the thread lives (a switch of the
 * thread may be reading them).
 */
static void hwpmc_slot_take(struct hwpmc_slot *s, struct hwpmc_vsum *sum)
{
	struct hwpmc_thr *thr;
	unsigned long flags;

	/* pairs with smp_store_release() in hwpmc_thr_exit() */
	thr = smp_load_acquire(&s->thr);
	if (!thr) {
		__hwpmc_slot_take(s, sum);
		return;
	}
	raw_spin_lock_irqsave(&thr->lock, flags);
	__hwpmc_slot_take(s, sum);
	raw_spin_unlock_irqrestore(&thr->lock, flags);
}

/*
 * PMCSTOP: no slice begins any more, the open ones end; returns what
 * the PMC counted since it started, adds its times to pm's, and its
 * slots start from 0 again.
 */
u64 hwpmc_vpmc_stop(struct hwpmc_pmc *pm)
{
	struct hwpmc_vsum sum = { 0 };
	struct hwpmc_slot *s;

	lockdep_assert_held_write(&hwpmc_sx);
	WRITE_ONCE(pm->state, PMC_STATE_STOPPED);
	smp_mb();	/* the state before the threads' CPUs */
	rcu_read_lock();
	list_for_each_entry_rcu(s, &pm->slots, plink) {
		hwpmc_vop(s, HWPMC_VOP_CLOSE, NULL);
		hwpmc_slot_take(s, &sum);
	}
	rcu_read_unlock();
	pm->tenabled += sum.enabled;
	pm->trunning += sum.running;
	return sum.value;
}

/*
 * What a running PMC counted since it started, up to now, and the
 * enabled and running times of that count (its target threads' time on
 * a CPU while it ran, and of it the time their CPU's counter was on the
 * PMU).
 */
u64 hwpmc_vpmc_read_times(const struct hwpmc_pmc *pm, u64 *enabled,
			  u64 *running)
{
	struct hwpmc_vsum sum = { 0 };
	struct hwpmc_slot *s;

	lockdep_assert_held(&hwpmc_sx);
	rcu_read_lock();
	list_for_each_entry_rcu(s, &pm->slots, plink)
		hwpmc_vop(s, HWPMC_VOP_SYNC, &sum);
	rcu_read_unlock();
	*enabled = sum.enabled;
	*running = sum.running;
	return sum.value;
}

u64 hwpmc_vpmc_read(const struct hwpmc_pmc *pm)
{
	u64 enabled, running;

	return hwpmc_vpmc_read_times(pm, &enabled, &running);
}

/*
 * Has process tgid a thread that has yet to pass its exit hook with a
 * slot of pm (hwpmc_thr_exit())?  hwpmc_sx held: no slot goes meanwhile.
 */
bool hwpmc_vpmc_live(const struct hwpmc_pmc *pm, const struct pid *tgid)
{
	const struct hwpmc_slot *s;
	const struct hwpmc_thr *thr;
	bool live = false;

	lockdep_assert_held(&hwpmc_sx);
	rcu_read_lock();
	list_for_each_entry_rcu(s, &pm->slots, plink) {
		thr = smp_load_acquire(&s->thr);	/* pairs: hwpmc_thr_exit() */
		if (thr && !READ_ONCE(s->gone) && task_tgid(thr->task) == tgid) {
			live = true;
			break;
		}
	}
	rcu_read_unlock();
	return live;
}

/*
 * Does a thread that pm counts run on cpu now (a slice open there)?  For
 * GETPMCINFO; a look without locks, true or false a moment later.
 */
bool hwpmc_vpmc_on_cpu(const struct hwpmc_pmc *pm, int cpu)
{
	const struct hwpmc_slot *s;
	const struct hwpmc_thr *thr;
	bool on = false;

	rcu_read_lock();
	list_for_each_entry_rcu(s, &pm->slots, plink) {
		thr = READ_ONCE(s->thr);
		if (thr && READ_ONCE(s->in) && READ_ONCE(thr->cpu) == cpu) {
			on = true;
			break;
		}
	}
	rcu_read_unlock();
	return on;
}

/* pm goes (stopped, its targets gone): the rest of its slots, its counters. */
void hwpmc_vpmc_free(struct hwpmc_pmc *pm)
{
	if (!hwpmc_pmc_slotted(pm))
		return;
	hwpmc_vpmc_remove(pm, 0, NULL, 0);
	/*
	 * Stopped and without slots: no switch and no cross-call reads its
	 * counters through it any more (hwpmc_slot_counts(), s->in).
	 */
	if (pm->cset)
		hwpmc_cset_put(pm->cset);
	pm->cset = NULL;
}

/* -- fork, exit and the hooks (atomic context, RCU read side) -------------------- */

#define HWPMC_FORK_MAX	16

/*
 * Does a new thread (or, !thread, process) get a copy of slot s?  New
 * threads always (a sampling PMC's: perf copies its counter into them);
 * new processes of counting PMCs with DESCENDANTS (until their task work
 * makes them targets, hwpmc_pmc_born(); a sampling PMC's come then).
 * Never those of a PMC_F_THREAD PMC, whose target is one thread.
 */
static bool hwpmc_slot_inherits(const struct hwpmc_slot *s, bool thread)
{
	if (hwpmc_pmc_thread(s->pm))
		return false;	/* counts its one thread */
	return thread || (hwpmc_pmc_virtual(s->pm) &&
			  (s->pm->flags & PMC_F_DESCENDANTS));
}

/*
 * Before child first runs: its slots, copies of those of its parent
 * (the current thread) for PMCs it inherits, as perf's inheritance does
 * (new threads always, new processes with PMC_F_DESCENDANTS).  Without
 * memory (GFP_ATOMIC) the child is not counted; a warning says so.
 */
void hwpmc_thr_fork(struct task_struct *parent, struct task_struct *child)
{
	struct hwpmc_slot *ps, *cs[HWPMC_FORK_MAX];
	struct hwpmc_pexit *px[HWPMC_FORK_MAX] = { NULL }, *cpx;
	struct hwpmc_thr *pthr, *cthr, *thr;
	bool thread = !thread_group_leader(child);
	unsigned long flags;
	int n = 0, used = 0, npx = 0, ipx = 0, i;

	pthr = hwpmc_thr_find(parent);
	if (!pthr)
		return;
	list_for_each_entry_rcu(ps, &pthr->slots, tlink) {
		if (hwpmc_slot_inherits(ps, thread))
			n++;
		/* a new process (DESCENDANTS): a PROCEXIT of its own */
		if (!thread && ps->px && hwpmc_slot_inherits(ps, thread) &&
		    npx < HWPMC_FORK_MAX)
			px[npx++] = kzalloc(sizeof(*px[0]),
					    GFP_ATOMIC | __GFP_NOWARN);
	}
	if (!n)
		return;
	n = min(n, HWPMC_FORK_MAX);
	cthr = hwpmc_thr_alloc(child, HWPMC_THR_OFF,
			       GFP_ATOMIC | __GFP_NOWARN);
	for (i = 0; i < n && cthr; i++) {
		cs[i] = hwpmc_slot_alloc(NULL, GFP_ATOMIC | __GFP_NOWARN);
		if (!cs[i])
			break;
	}
	n = cthr ? i : 0;	/* the slots allocated */
	if (!n)
		pr_warn_ratelimited("no memory to count new task %d\n",
				    task_pid_nr(child));
	raw_spin_lock_irqsave(&hwpmc_vlock, flags);
	/*
	 * The child is on its process's thread list before this probe: an
	 * attach listing the threads meanwhile gave it a record already,
	 * which it keeps (one record, one notifier a thread).
	 */
	thr = hwpmc_thr_find(child);
	list_for_each_entry(ps, &pthr->slots, tlink) {
		if (ps->gone ||
		    !hwpmc_slot_inherits(ps, thread) ||
		    (thr && hwpmc_thr_has(thr, ps->pm)))
			continue;
		cpx = ps->px;		/* a thread: its process's */
		if (!thread && cpx && used < n) {
			cpx = ipx < npx ? px[ipx] : NULL;
			if (cpx)
				px[ipx] = NULL;	/* taken */
			ipx++;
		}
		if (used == n || (ps->px && !cpx)) {
			/* no memory, or more than HWPMC_FORK_MAX PMCs */
			hwpmc_pmc_lost(ps->pm);
			continue;
		}
		cs[used]->pm = ps->pm;
		cs[used]->gen = ps->gen;	/* the child's attach: its tree's */
		hwpmc_pexit_hold(cs[used], cpx);
		hwpmc_slot_link(cs[used++], thr ?: cthr);
	}
	if (!thr && used) {
		thr = cthr;
		cthr = NULL;
		hlist_add_head_rcu(&thr->hnode, hwpmc_thr_bucket(child));
	}
	if (thr) {
		/* the child cannot run yet: its list is ours to change */
		raw_spin_lock(&thr->lock);
		if (!hwpmc_csw_tracepoint && !thr->pn_on && !thr->dead)
			hwpmc_pn_link(thr, child);
		raw_spin_unlock(&thr->lock);
	}
	raw_spin_unlock_irqrestore(&hwpmc_vlock, flags);
	for (i = used; i < n; i++)
		kfree(cs[i]);
	for (i = 0; i < npx; i++)
		kfree(px[i]);		/* NULL, or not needed */
	if (cthr)
		hwpmc_thr_put(cthr);
}

/*
 * The current thread p exits: its slices end, PROCCSW for the last one,
 * and what it counted (a sampling PMC's: its counter's count) goes to
 * its process's PROCEXIT count, which the
 * last counted thread of the process logs (its own count of live
 * threads, not signal->live: every thread that comes here after the
 * last one left signal->live sees 0 there).  Its slots
 * stay with their PMCs, dead, until hwpmc_vpmc_reap().  Called where
 * perf stops a thread's counters (the kprobe on perf_event_exit_task(),
 * so that the counts agree with perf's: exit_mm() comes after), and
 * again from sched_process_exit, which finds nothing then unless the
 * kprobe is missing or disarmed.  No record is made for p after this:
 * attaches and forks see PF_EXITING.
 */
void hwpmc_thr_exit(struct task_struct *p)
{
	struct hwpmc_exitset es = { 0 };
	struct hwpmc_slot *s;
	struct hwpmc_thr *thr;
	unsigned long flags;
	bool smp = false, thread = false;

	/*
	 * PF_EXITING is set: either an attach sees it (under hwpmc_vlock) or
	 * this sees the count its record added, and the record under the lock.
	 */
	smp_mb();
	if (!atomic_read(&hwpmc_thr_nr))
		return;
	raw_spin_lock_irqsave(&hwpmc_vlock, flags);
	thr = hwpmc_thr_find(p);
	if (thr) {
		raw_spin_lock(&thr->lock);
		__hwpmc_thr_close(thr, smp_processor_id(), true);
		hwpmc_pn_unlink(thr);	/* p is current */
		hwpmc_thr_unhash(thr);
		list_for_each_entry(s, &thr->slots, tlink) {
			if (s->px && !s->gone) {
				s->px->value += s->total;
				if (!--s->px->nlive && es.n < HWPMC_EXIT_MAX) {
					es.pm[es.n] = s->pm;
					es.value[es.n++] = s->px->value;
					/* its exited target can go now */
					smp |= !hwpmc_pmc_virtual(s->pm);
				}
			}
			/* a target of its own: it goes now (PMC_F_THREAD) */
			thread |= !s->gone && hwpmc_pmc_thread(s->pm);
			hwpmc_slot_end(s, hwpmc_thr_clock(thr));
			/* acc, times final: readers may take them without thr */
			smp_store_release(&s->thr, NULL);
			atomic_inc(&s->pm->vdead);
		}
		raw_spin_unlock(&thr->lock);
	}
	raw_spin_unlock_irqrestore(&hwpmc_vlock, flags);
	if (!thr)
		return;
	if (es.n)
		hwpmc_rec_procexit(&es, p->tgid);
	if (smp)
		hwpmc_watch_note(p, false);
	if (thread)
		hwpmc_watch_note_thread(p);
	hwpmc_thr_put(thr);
}

/*
 * The current thread p exec'ed a program its user may not watch: one that
 * is not dumpable by its user, or a set-ID or file-capability program
 * (secure: the exec's AT_SECURE), which suid_dumpable=1 leaves dumpable.
 * As the kernel ends the thread's perf counters at a non-dumpable exec
 * (begin_new_exec()), its slots count nothing more from now on, for every
 * owner, before the program runs, and forks do not copy them; this also
 * covers a descendant born since whose task work has not made it a
 * target yet.  The lifecycle work then detaches targets from the PMCs of
 * owners that may no longer attach to them (hwpmc_owner_may_keep()).
 */
void hwpmc_thr_exec(struct task_struct *p, bool secure)
{
	struct hwpmc_thr *thr;
	struct hwpmc_slot *s;
	unsigned long flags;

	if (!p->mm ||
	    (!secure && get_dumpable(p->mm) == SUID_DUMP_USER) ||
	    !hwpmc_thr_find(p))
		return;
	raw_spin_lock_irqsave(&hwpmc_vlock, flags);
	thr = hwpmc_thr_find(p);
	if (thr) {
		raw_spin_lock(&thr->lock);
		list_for_each_entry(s, &thr->slots, tlink) {
			hwpmc_slot_gone(s);
			hwpmc_slice_take(s, thr, smp_processor_id(), true);
			if (s->noev)
				hwpmc_noev_take(s, thr, true);
			hwpmc_slot_end(s, hwpmc_thr_clock(thr));
		}
		raw_spin_unlock(&thr->lock);
	}
	raw_spin_unlock_irqrestore(&hwpmc_vlock, flags);
}

/*
 * fn for each counting PMC thread t is a target thread of, with the
 * attach its slot came from; RCU read side.
 */
void hwpmc_thr_gens(struct task_struct *t,
		    void (*fn)(struct hwpmc_pmc *pm, u32 gen, void *arg),
		    void *arg)
{
	struct hwpmc_thr *thr = hwpmc_thr_find(t);
	struct hwpmc_slot *s;

	if (!thr)
		return;
	list_for_each_entry_rcu(s, &thr->slots, tlink)
		if (!READ_ONCE(s->gone) && hwpmc_pmc_virtual(s->pm))
			fn(s->pm, s->gen, arg);
}

/*
 * New task t, which has not run yet, is not counted by pm after all
 * (the fork probe found no memory to make it a target): its slots of
 * pm, copied at the fork, stop counting.
 */
void hwpmc_thr_forget(struct task_struct *t, struct hwpmc_pmc *pm)
{
	struct hwpmc_thr *thr;
	struct hwpmc_slot *s;
	unsigned long flags;

	raw_spin_lock_irqsave(&hwpmc_vlock, flags);
	thr = hwpmc_thr_find(t);
	if (thr)
		list_for_each_entry(s, &thr->slots, tlink)
			if (s->pm == pm)
				hwpmc_slot_gone(s);
	raw_spin_unlock_irqrestore(&hwpmc_vlock, flags);
}

/* -- module ---------------------------------------------------------------------- */

int hwpmc_csw_init(void)
{
	unsigned int i;

	if (!hwpmc_csw_tracepoint && !IS_ENABLED(CONFIG_PREEMPT_NOTIFIERS)) {
		pr_info("no preempt notifiers in this kernel: csw_tracepoint=1\n");
		hwpmc_csw_tracepoint = true;
	}
	hwpmc_thr_bits = ilog2(roundup_pow_of_two(hwpmc_hashsize));
	hwpmc_thr_hash = kvcalloc(1U << hwpmc_thr_bits,
				  sizeof(*hwpmc_thr_hash), GFP_KERNEL);
	if (!hwpmc_thr_hash)
		return -ENOMEM;
	for (i = 0; i < (1U << hwpmc_thr_bits); i++)
		INIT_HLIST_HEAD(&hwpmc_thr_hash[i]);
	return 0;
}

/* After every PMC went (hwpmc_pmc_fini()). */
void hwpmc_csw_fini(void)
{
	/*
	 * No record is left on a task's list: each holds a module
	 * reference.  The last ones' RCU callbacks may still run.
	 */
	rcu_barrier();
	cancel_delayed_work_sync(&hwpmc_vprobe_off);
	if (hwpmc_vprobe_on && hwpmc_csw_tracepoint)
		hwpmc_tp_unregister(HWPMC_TP_SWITCH, hwpmc_vprobe_switch);
	else if (hwpmc_vprobe_on)
		hwpmc_pn_key(false);
	hwpmc_vprobe_on = false;
	hwpmc_tp_sync();
	rcu_barrier();		/* hwpmc_thr_free_rcu() is ours */
	kvfree(hwpmc_thr_hash);
	hwpmc_thr_hash = NULL;
}
