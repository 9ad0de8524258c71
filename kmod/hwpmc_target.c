// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: the targets of process PMCs: their values, attach and
 * detach, the permission policy, a process's descendants, processes born
 * to DESCENDANTS targets, and what goes when a process exits or execs
 * (hwpmc_pmc_process_gone()); a PMC's teardown (hwpmc_pmc_free()) and an
 * owner's (hwpmc_owner_get(), hwpmc_owner_release()), which free targets.
 *
 * Locking: hwpmc_sx, held for writing by the callers; inside it, a
 * target's exec_update_lock across an attach's permission check, its
 * counters or slots and its records (hwpmc_attach_one()).
 */
#define pr_fmt(fmt) "hwpmc: " fmt

#include <linux/kernel.h>
#include <linux/bitmap.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/hash.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/pid.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/threads.h>
#include <linux/timekeeping.h>
#include <linux/xarray.h>
#include <linux/hwpmclog.h>

#include "hwpmc_internal.h"
#include "hwpmc_target.h"
#include "hwpmc_owner.h"
#include "hwpmc_watch.h"
#include "hwpmc_hooks.h"
#include "hwpmc_csw.h"
#include "hwpmc_sample.h"
#include "hwpmc_rows.h"
#include "hwpmc_records.h"
#include "hwpmc_log.h"
#include "hwpmc_backend.h"

/* -- values -------------------------------------------------------------- */

static u64 hwpmc_target_read(const struct hwpmc_target *pt)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < pt->nev; i++)
		sum += hwpmc_md_read(pt->ev[i]);
	return sum;
}

u64 hwpmc_pmc_value(const struct hwpmc_pmc *pm)
{
	const struct hwpmc_target *pt;
	u64 v = pm->value;

	if (pm->state != PMC_STATE_RUNNING)
		return v;
	if (pm->sysev)
		return v + hwpmc_md_read(pm->sysev) - pm->sysbase;
	if (hwpmc_pmc_virtual(pm))
		return v + hwpmc_vpmc_read(pm);
	list_for_each_entry(pt, &pm->targets, link)
		v += hwpmc_target_read(pt) - pt->base;
	return v;
}

/* The sum of a stopped target's counters (hwpmc_md_read_off()). */
static u64 hwpmc_target_read_off(const struct hwpmc_target *pt)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < pt->nev; i++)
		sum += hwpmc_md_read_off(pt->ev[i]);
	return sum;
}

/*
 * Note that perf could not put one of a running PMC's counters on the
 * PMU: the PMC's count is then partial, and PMCRW says ENODATA until a
 * new value is written.  The next start enables the original counters
 * again, which clears their error state; copies inherited by descendants
 * are never enabled again (not from here: see SETCOUNT), so a failed copy
 * keeps the PMC's reads at ENODATA while its thread lives.
 */
static void hwpmc_target_check(struct hwpmc_pmc *pm,
			       const struct hwpmc_target *pt)
{
	u32 i;

	if (pm->state != PMC_STATE_RUNNING)
		return;
	for (i = 0; i < pt->nev && !READ_ONCE(pm->unsched); i++)
		if (hwpmc_md_failed(pt->ev[i]))
			WRITE_ONCE(pm->unsched, true);
}

/* The same for all of pm's counters; hwpmc_sx held (read suffices). */
bool hwpmc_pmc_unscheduled(struct hwpmc_pmc *pm)
{
	const struct hwpmc_target *pt;

	lockdep_assert_held(&hwpmc_sx);
	if (pm->state != PMC_STATE_RUNNING)
		return READ_ONCE(pm->unsched);
	if (pm->sysev && hwpmc_md_failed(pm->sysev))
		WRITE_ONCE(pm->unsched, true);
	if (hwpmc_pmc_virtual(pm)) {
		if (hwpmc_vpmc_failed(pm))
			WRITE_ONCE(pm->unsched, true);
		return READ_ONCE(pm->unsched);
	}
	list_for_each_entry(pt, &pm->targets, link)
		hwpmc_target_check(pm, pt);
	return READ_ONCE(pm->unsched);
}

/* perf's times of pt's counters, their copies included, summed */
static void hwpmc_target_times(const struct hwpmc_target *pt, u64 *enabled,
			       u64 *running)
{
	u64 en, run;
	u32 i;

	*enabled = 0;
	*running = 0;
	for (i = 0; i < pt->nev; i++) {
		hwpmc_md_times(pt->ev[i], &en, &run);
		*enabled += en;
		*running += run;
	}
}

void hwpmc_target_start(struct hwpmc_target *pt)
{
	u32 i;

	pt->base = hwpmc_target_read_off(pt);
	hwpmc_target_times(pt, &pt->tenbase, &pt->trunbase);
	for (i = 0; i < pt->nev; i++)
		hwpmc_md_start(pt->ev[i]);
}

/*
 * Stop counting; returns what was counted since the start, and adds the
 * counters' times since then to pm's (decision 33).
 */
static u64 hwpmc_target_stop(struct hwpmc_pmc *pm, struct hwpmc_target *pt)
{
	u64 en, run;
	u32 i;

	for (i = 0; i < pt->nev; i++)
		hwpmc_md_stop(pt->ev[i]);
	hwpmc_target_times(pt, &en, &run);
	pm->tenabled += en - pt->tenbase;
	pm->trunning += run - pt->trunbase;
	return hwpmc_target_read_off(pt) - pt->base;
}

/*
 * A sampling process PMC's value and times (hwpmc_sx held): perf's times
 * of its targets' counters (per-task counters and their copies: the
 * targets' time on a CPU while it ran), as perf gives them: a pinned
 * counter in perf's error state stops both, so the caller asks
 * hwpmc_pmc_unscheduled() first.
 */
void hwpmc_pmc_smp_times(const struct hwpmc_pmc *pm, u64 *value,
			 u64 *enabled, u64 *running)
{
	const struct hwpmc_target *pt;
	u64 en, run;

	lockdep_assert_held(&hwpmc_sx);
	*value = hwpmc_pmc_value(pm);
	*enabled = pm->tenabled;
	*running = pm->trunning;
	if (pm->state != PMC_STATE_RUNNING)
		return;
	list_for_each_entry(pt, &pm->targets, link) {
		hwpmc_target_times(pt, &en, &run);
		*enabled += en - pt->tenbase;
		*running += run - pt->trunbase;
	}
}

/* -- targets ------------------------------------------------------------- */

/*
 * CAP_SYS_PTRACE in ns, by the current credentials (the lifecycle work
 * checks for an owner under override_creds()).  Without an audit record:
 * a refusal is a plain EPERM, not an event to report.
 */
static bool hwpmc_ptrace_capable(struct user_namespace *ns)
{
	return ns_capable_noaudit(ns, CAP_SYS_PTRACE);
}

/*
 * ptrace's credential rule for one thread's credentials tcred: the same
 * real uid and gid as all of tcred's (__ptrace_may_access()), and the
 * same user namespace with a superset of its permitted capabilities
 * (commoncap's cap_ptrace_access_check()); else CAP_SYS_PTRACE in its
 * user namespace, checked last.  RCU held.
 */
static bool hwpmc_cred_may(const struct cred *cred, const struct cred *tcred)
{
	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "credentials outside RCU");

	if (uid_eq(cred->uid, tcred->euid) && uid_eq(cred->uid, tcred->suid) &&
	    uid_eq(cred->uid, tcred->uid) && gid_eq(cred->gid, tcred->egid) &&
	    gid_eq(cred->gid, tcred->sgid) && gid_eq(cred->gid, tcred->gid) &&
	    cred->user_ns == tcred->user_ns &&
	    cap_issubset(tcred->cap_permitted, cred->cap_permitted))
		return true;
	return hwpmc_ptrace_capable(tcred->user_ns);
}

/*
 * May the current credentials attach a PMC to process p?  ptrace
 * attach's rule (ptrace_may_access() is not exported), applied to every
 * thread of p, since credentials are per thread: hwpmc_cred_may() for
 * each thread's, then, read after them (smp_rmb(), paired with
 * commit_creds()), the dumpability of p's mm, found through any live
 * thread (the leader may be a zombie), or CAP_SYS_PTRACE in the mm's
 * user namespace.  With unprivileged_proc_debug=0, only CAP_SYS_PTRACE
 * does.  LSM ptrace hooks such as Yama are not consulted: hwpmc.4.
 * Callers hold p's exec_update_lock, so that no exec changes the
 * answer before the attach is done (hwpmc_attach_one()).
 */
static int hwpmc_cred_may_attach(struct task_struct *p)
{
	const struct cred *cred = current_cred(), *tcred, *last = NULL;
	struct task_struct *t;
	bool ok = true, mm = false;

	lockdep_assert_held(&p->signal->exec_update_lock);
	if (!READ_ONCE(hwpmc_unprivileged_proc_debug))
		return hwpmc_ptrace_capable(&init_user_ns) ? 0 : -EPERM;
	rcu_read_lock();
	for_each_thread(p, t) {
		tcred = __task_cred(t);
		if (tcred != last && !hwpmc_cred_may(cred, tcred)) {
			ok = false;
			break;
		}
		last = tcred;
	}
	rcu_read_unlock();
	if (!ok)
		return -EPERM;
	/* dumpability after the credentials: pairs with commit_creds() */
	smp_rmb();
	rcu_read_lock();
	for_each_thread(p, t) {
		task_lock(t);
		if (t->mm) {
			mm = true;
			ok = get_dumpable(t->mm) == SUID_DUMP_USER ||
			     hwpmc_ptrace_capable(t->mm->user_ns);
		}
		task_unlock(t);
		if (mm)
			break;
	}
	rcu_read_unlock();
	return mm && ok ? 0 : -EPERM;
}

static int hwpmc_may_attach(struct task_struct *p)
{
	if (same_thread_group(p, current))
		return 0;
	return hwpmc_cred_may_attach(p);
}

/*
 * Target p exec'ed: may pm's owner still attach to it?  FreeBSD's rule
 * (pmc_process_exec()): a program that changed the process's
 * credentials or made it non-dumpable (set-user-ID, set-group-ID, file
 * capabilities) is not watched by those who could not attach to it.
 * The owner's credentials are checked as the owner's: override_creds().
 */
static bool hwpmc_owner_may_keep(struct hwpmc_pmc *pm, struct task_struct *p)
{
	const struct cred *cred, *old;
	struct task_struct *o;
	int error;

	o = get_pid_task(pm->owner->tgid, PIDTYPE_TGID);
	if (!o)
		return false;		/* the owner is going away */
	if (same_thread_group(o, p)) {
		put_task_struct(o);
		return true;
	}
	cred = get_task_cred(o);
	put_task_struct(o);
	error = down_read_killable(&p->signal->exec_update_lock);
	if (!error) {
		old = override_creds(cred);
		error = hwpmc_cred_may_attach(p);
		revert_creds(old);
		up_read(&p->signal->exec_update_lock);
	}
	put_cred(cred);
	return !error;
}

/*
 * A PMC on row ri (any row: U32_MAX) of any owner with target tgid, or
 * with thread (not NULL), one whose target is that process or thread:
 * PMC_F_THREAD PMCs of one row may count different threads of a process.
 */
struct hwpmc_pmc *hwpmc_row_target_of(struct pid *tgid, struct pid *thread,
				      u32 ri)
{
	struct hwpmc_target *pt;
	struct hwpmc_owner *po;
	struct hwpmc_pmc *pm;
	unsigned int b;

	for (b = 0; b < (1U << hwpmc_hashbits); b++)
		hlist_for_each_entry(po, &hwpmc_ownerhash[b], link)
			list_for_each_entry(pm, &po->pmcs, link) {
				if ((ri != U32_MAX && pm->ri != ri) ||
				    !PMC_IS_VIRTUAL_MODE(pm->mode))
					continue;
				pt = hwpmc_target_find(pm, tgid);
				if (pt && (!thread || !pt->thread ||
					   pt->thread == thread))
					return pm;
			}
	return NULL;
}

/*
 * A PMC's targets by process, besides its list (which the fork probe
 * reads under RCU): a look-up costs O(1), not O(targets), so that an
 * attach of n processes (DESCENDANTS) is not O(n^2).  Keyed by the
 * struct pid, which a target holds: a pid number can be reused while a
 * target of an exited process is kept (hwpmc_target_kept()).  Changed
 * and read under hwpmc_sx only; the buckets grow fourfold when the
 * targets outnumber them twice (without memory, the chains just grow).
 */
#define HWPMC_TBITS_MIN	4

int hwpmc_targets_init(struct hwpmc_pmc *pm)
{
	INIT_LIST_HEAD(&pm->targets);
	pm->tbits = HWPMC_TBITS_MIN;
	pm->thash = kcalloc(1U << pm->tbits, sizeof(*pm->thash), GFP_KERNEL);
	return pm->thash ? 0 : -ENOMEM;
}

/* pm has no targets left (or never had one). */
void hwpmc_targets_fini(struct hwpmc_pmc *pm)
{
	WARN_ON_ONCE(!list_empty(&pm->targets));
	kvfree(pm->thash);
	pm->thash = NULL;
}

static struct hlist_head *hwpmc_target_bucket(const struct hwpmc_pmc *pm,
					      const struct pid *tgid)
{
	return &pm->thash[hash_ptr(tgid, pm->tbits)];
}

static void hwpmc_targets_grow(struct hwpmc_pmc *pm)
{
	u32 bits = pm->tbits + 2, i;
	struct hlist_head *h, *old = pm->thash;
	struct hwpmc_target *pt;
	struct hlist_node *tmp;

	lockdep_assert_held_write(&hwpmc_sx);
	h = kvcalloc(1U << bits, sizeof(*h), GFP_KERNEL | __GFP_NOWARN);
	if (!h)
		return;
	pm->thash = h;
	for (i = 0; i < (1U << pm->tbits); i++)
		hlist_for_each_entry_safe(pt, tmp, &old[i], hnode)
			hlist_add_head(&pt->hnode,
				       &h[hash_ptr(pt->tgid, bits)]);
	pm->tbits = bits;
	kvfree(old);
}

static void hwpmc_target_hash(struct hwpmc_pmc *pm, struct hwpmc_target *pt)
{
	lockdep_assert_held_write(&hwpmc_sx);
	if (pm->ntargets >= 2U << pm->tbits && pm->tbits < 20)
		hwpmc_targets_grow(pm);
	hlist_add_head(&pt->hnode, hwpmc_target_bucket(pm, pt->tgid));
}

struct hwpmc_target *hwpmc_target_find(struct hwpmc_pmc *pm,
				       struct pid *tgid)
{
	struct hwpmc_target *pt;

	lockdep_assert_held(&hwpmc_sx);
	hlist_for_each_entry(pt, hwpmc_target_bucket(pm, tgid), hnode)
		if (pt->tgid == tgid)
			return pt;
	return NULL;
}

/* The target of PMC_F_THREAD PMC pm that is thread, if any. */
struct hwpmc_target *hwpmc_target_find_thread(struct hwpmc_pmc *pm,
					      struct pid *thread)
{
	struct hwpmc_target *pt;

	lockdep_assert_held(&hwpmc_sx);
	list_for_each_entry(pt, &pm->targets, link)
		if (pt->thread == thread)
			return pt;
	return NULL;
}

/* Is tgid a target of one of po's PMCs? */
bool hwpmc_owner_targets(struct hwpmc_owner *po, struct pid *tgid)
{
	struct hwpmc_pmc *pm;

	list_for_each_entry(pm, &po->pmcs, link)
		if (hwpmc_target_find(pm, tgid))
			return true;
	return false;
}

/* References to the threads of p, at most max; returns how many there are. */
static u32 hwpmc_threads(struct task_struct *p, struct task_struct **t, u32 max)
{
	struct task_struct *q;
	u32 n = 0;

	rcu_read_lock();
	for_each_thread(p, q) {
		if (n < max)
			t[n] = get_task_struct(q);
		n++;
	}
	rcu_read_unlock();
	return n;
}

/* The threads of p, referenced, in *tp (kcalloc'ed), their number in *np. */
static int hwpmc_thread_list(struct task_struct *p, struct task_struct ***tp,
			     u32 *np)
{
	struct task_struct **t = NULL;
	u32 max = 0, n, i;

	/* retry if more appeared than there was room for */
	for (;;) {
		kfree(t);
		max = max ? max * 2 : get_nr_threads(p) + 4;
		t = kcalloc(max, sizeof(*t), GFP_KERNEL);
		if (!t)
			return -ENOMEM;
		n = hwpmc_threads(p, t, max);
		if (n <= max)
			break;
		for (i = 0; i < max; i++)
			put_task_struct(t[i]);
	}
	*tp = t;
	*np = n;
	return 0;
}

/*
 * A sampling LOG_PROCCSW or LOG_PROCEXIT PMC's slot for thread t, which
 * carries its counter (hwpmc_csw.c); none for a thread that has one, or
 * exits.  *pxp: its process's PROCEXIT, shared by the threads.
 */
static void hwpmc_target_slot(struct hwpmc_pmc *pm, struct task_struct *t,
			      struct hwpmc_pexit **pxp)
{
	if (hwpmc_pmc_slotted(pm) && !hwpmc_pmc_virtual(pm) &&
	    hwpmc_vpmc_add_thread(pm, t, pxp) == -ENOMEM)
		hwpmc_pmc_lost(pm);
}

/* How a target comes (hwpmc_target_add()). */
#define HWPMC_TA_DESCENDANT	0x1	/* of the attach's root */
#define HWPMC_TA_BORN		0x2	/* at fork: no records, started */

struct hwpmc_tev {
	struct task_struct	*t;		/* referenced */
	struct perf_event	*ev;		/* NULL: the thread exited */
};

/*
 * Attach pm to process p (its group leader, referenced): a slot
 * (counting PMCs) or a perf counter (sampling PMCs) for each of its
 * threads.  A thread cloned by one that has neither yet inherits none,
 * so the threads are listed again until each has one; one cloned by a
 * thread that has one inherits it, and gets no second (the fork probe's
 * merge for slots, hwpmc_task_carries() for counters).  A PMC_F_THREAD
 * PMC: p is the thread (referenced), which alone gets a slot.
 */
static int hwpmc_target_add(struct hwpmc_pmc *pm, struct task_struct *p,
			    unsigned int how, u32 gen)
{
	struct pid *tgid = task_tgid(p);
	struct task_struct **t = NULL;
	struct hwpmc_tev *tv = NULL, *v;
	struct hwpmc_target *pt = NULL;
	struct hwpmc_pexit *px = NULL;	/* the process's PROCEXIT */
	struct perf_event *ev;
	u32 n = 0, ntv = 0, nev = 0, cap = 0, nthr = 0, i, max;
	struct xarray seen;	/* the threads done, by pid: O(log n) */
	bool fresh, virt = hwpmc_pmc_virtual(pm);
	int error = 0;

	lockdep_assert_held_write(&hwpmc_sx);
	lockdep_assert_held(&p->signal->exec_update_lock);
	if (hwpmc_target_find(pm, tgid))
		return -EEXIST;
	/* a new process is no other PMC's target of pm's row */
	if (!(how & HWPMC_TA_BORN) &&
	    hwpmc_row_target_of(tgid, hwpmc_pmc_thread(pm) ? task_pid(p) :
				NULL, pm->ri))
		return -EBUSY;
	max = READ_ONCE(hwpmc_max_targets);
	if (max && pm->ntargets >= max)
		return -ENOSPC;
	/* first: an exit from now on reaches the lifecycle work */
	error = hwpmc_watch_get(tgid);
	if (error)
		return error;
	xa_init(&seen);
	if (hwpmc_pmc_thread(pm) && virt) {
		/* thread p alone: its clones do not inherit (hwpmc_csw.c) */
		error = hwpmc_vpmc_add_thread(pm, p, &px);
		nthr = !error;
		goto made;
	}
	if (hwpmc_pmc_thread(pm)) {
		/* a counter of p's alone, not inherited (no slot: no PROCCSW) */
		tv = kzalloc(sizeof(*tv), GFP_KERNEL);
		if (!tv) {
			error = -ENOMEM;
			goto made;
		}
		ev = hwpmc_md_create(&pm->attr, -1, p, pm);
		if (IS_ERR(ev)) {
			error = PTR_ERR(ev);
			goto made;
		}
		hwpmc_md_pin(ev);
		tv[0].t = get_task_struct(p);
		tv[0].ev = ev;
		ntv = nev = 1;
		goto made;
	}
	do {
		error = hwpmc_thread_list(p, &t, &n);
		if (error)
			break;		/* and undo what the passes before did */
		fresh = false;
		for (i = 0; i < n && !error; i++) {
			if (xa_load(&seen, t[i]->pid) == t[i])
				continue;
			error = xa_err(xa_store(&seen, t[i]->pid, t[i],
						GFP_KERNEL));
			if (error)
				break;
			fresh = true;
			if (virt) {
				error = hwpmc_vpmc_add_thread(pm, t[i], &px);
				if (error == -ESRCH)	/* exiting */
					error = 0;
				else if (!error)
					nthr++;
				continue;
			}
			/*
			 * cloned, since a pass before, by a thread that had a
			 * counter: perf's copy of it counts this one
			 */
			if (hwpmc_task_carries(t[i], pm)) {
				hwpmc_target_slot(pm, t[i], &px);
				continue;
			}
			if (ntv == cap) {
				cap = cap ? 2 * cap : n + 4;
				v = krealloc(tv, cap * sizeof(*tv), GFP_KERNEL);
				if (!v) {
					error = -ENOMEM;
					break;
				}
				tv = v;
			}
			ev = hwpmc_md_create(&pm->attr, -1, t[i], pm);
			if (IS_ERR(ev)) {
				if (PTR_ERR(ev) != -ESRCH)	/* exited */
					error = PTR_ERR(ev);
				ev = NULL;
			} else {
				hwpmc_md_pin(ev);
				/* before it can clone: its clones copy the slot */
				hwpmc_target_slot(pm, t[i], &px);
			}
			tv[ntv].t = get_task_struct(t[i]);
			tv[ntv++].ev = ev;
			nev += !!ev;
		}
		for (i = 0; i < n; i++)
			put_task_struct(t[i]);
		kfree(t);
	} while (fresh && !error);
made:
	if (!error && !nev && !nthr)
		error = -ESRCH;		/* the whole process exited */
	if (!error) {
		pt = kzalloc(struct_size(pt, ev, nev), GFP_KERNEL);
		if (!pt)
			error = -ENOMEM;
	}

	if (error) {
		for (i = 0; i < ntv; i++)
			if (tv[i].ev)
				hwpmc_md_release(tv[i].ev);
		if (hwpmc_pmc_slotted(pm))
			hwpmc_vpmc_remove(pm, 0, &tgid, 1);
		hwpmc_watch_put(tgid);
		goto out;
	}
	pt->tgid = get_pid(tgid);
	if (hwpmc_pmc_thread(pm))
		pt->thread = get_pid(task_pid(p));
	pt->gen = gen;
	pt->descendant = how & (HWPMC_TA_DESCENDANT | HWPMC_TA_BORN);
	for (i = 0; i < ntv; i++) {
		if (!tv[i].ev)
			continue;
		pt->ev[pt->nev++] = tv[i].ev;
	}
	hwpmc_target_hash(pm, pt);
	list_add_tail_rcu(&pt->link, &pm->targets);	/* the fork probe */
	pm->ntargets++;
	pm->had_targets = true;
	/* born: its fork's PROCFORK told the log; counting since its birth */
	if (how & HWPMC_TA_BORN) {
		if (pm->state == PMC_STATE_RUNNING)
			hwpmc_target_start(pt);
	} else if (pm->owner->log)
		hwpmc_rec_pmcattach(pm->owner->log, pm, p,
				  PMC_IS_SAMPLING_MODE(pm->mode));
out:
	xa_destroy(&seen);
	for (i = 0; i < ntv; i++)
		put_task_struct(tv[i].t);
	kfree(tv);
	return error;
}

/*
 * pt leaves pm.  exited: its process ended, and the slots of its threads
 * that have not passed their exit hooks yet stay, to add their counts
 * and PROCEXIT there (hwpmc_thr_exit()); hwpmc_vpmc_reap() takes them.
 */
static void hwpmc_target_unlink(struct hwpmc_pmc *pm, struct hwpmc_target *pt,
				bool exited)
{
	u32 i;

	hwpmc_target_check(pm, pt);
	for (i = 0; i < pt->nev; i++)
		hwpmc_md_release(pt->ev[i]);
	hlist_del(&pt->hnode);
	list_del_rcu(&pt->link);
	pm->ntargets--;
	/* the fork probe of a child of pt's that is not born yet: no target */
	if (!exited)
		WRITE_ONCE(pm->dseq, pm->dseq + 1);
	hwpmc_watch_put(pt->tgid);
	put_pid(pt->tgid);	/* the probe compares the pointer only */
	put_pid(pt->thread);
	kfree_rcu(pt, rcu);
}

static void __hwpmc_target_free(struct hwpmc_pmc *pm, struct hwpmc_target *pt,
				bool exited)
{
	struct pid *tgid = pt->tgid;

	if (hwpmc_pmc_virtual(pm) && !exited)
		pm->value += hwpmc_vpmc_remove(pm, 0, &tgid, 1);
	else if (pm->state == PMC_STATE_RUNNING)
		pm->value += hwpmc_target_stop(pm, pt);
	if (!hwpmc_pmc_virtual(pm))
		hwpmc_vpmc_remove(pm, 0, &tgid, 1);	/* PROCCSW slots */
	hwpmc_target_unlink(pm, pt, exited);
}

void hwpmc_target_free(struct hwpmc_pmc *pm, struct hwpmc_target *pt)
{
	__hwpmc_target_free(pm, pt, false);
}

/*
 * The targets of pm marked leaving go together (a detach of a tree, a
 * release): their slots in one walk of pm's slots, where one walk per
 * target made a detach of n targets O(n^2).  Without memory for the
 * list, one at a time, as before.
 */
static void hwpmc_targets_free_leaving(struct hwpmc_pmc *pm)
{
	struct hwpmc_target *pt, *tmp;
	struct pid **v = NULL;
	u32 n = 0, i = 0;
	u64 sum;

	lockdep_assert_held_write(&hwpmc_sx);
	list_for_each_entry(pt, &pm->targets, link)
		n += pt->leaving;
	if (n > 1)
		v = kvmalloc_array(n, sizeof(*v), GFP_KERNEL);
	if (!v) {
		list_for_each_entry_safe(pt, tmp, &pm->targets, link)
			if (pt->leaving)
				hwpmc_target_free(pm, pt);
		return;
	}
	list_for_each_entry(pt, &pm->targets, link) {
		if (!pt->leaving)
			continue;
		v[i++] = pt->tgid;
		if (!hwpmc_pmc_virtual(pm) && pm->state == PMC_STATE_RUNNING)
			pm->value += hwpmc_target_stop(pm, pt);
	}
	hwpmc_pids_sort(v, n);
	sum = hwpmc_vpmc_remove(pm, 0, v, n);	/* sampling: PROCCSW slots */
	if (hwpmc_pmc_virtual(pm))
		pm->value += sum;
	list_for_each_entry_safe(pt, tmp, &pm->targets, link)
		if (pt->leaving)
			hwpmc_target_unlink(pm, pt, false);
	kvfree(v);
}

/*
 * Attach pm to process p if the caller may (with skip, 0 if not): the
 * permission check, the counters or slots, and the PMCATTACH and MAP_IN
 * records under p's exec_update_lock, as perf_event_open() does, so that
 * p cannot exec a set-ID program between the check and the records.  An
 * exec that comes after the attach ends the counters (perf, for
 * non-dumpable programs) or the slots (hwpmc_thr_exec()), and the
 * lifecycle work detaches p from owners that may no longer attach.
 *
 * Lock order: hwpmc_sx, then a target's exec_update_lock (never two of
 * them at once), then perf's ctx->mutex and the target's mmap_lock, as
 * perf and exec take them.  Nothing holding exec_update_lock takes
 * hwpmc_sx: while exec holds it, the module's probes do not sleep.
 */
static int hwpmc_attach_one(struct hwpmc_pmc *pm, struct task_struct *p,
			    bool skip, unsigned int how)
{
	int error;

	lockdep_assert_held_write(&hwpmc_sx);
	error = down_read_interruptible(&p->signal->exec_update_lock);
	if (error)
		return error;
	error = hwpmc_may_attach(p);
	if (!error)
		error = hwpmc_target_add(pm, p, how, pm->attach_gen);
	else if (skip)
		error = 0;
	up_read(&p->signal->exec_update_lock);
	return error;
}

/*
 * Descendants.  A module has only RCU and ->real_parent to see the
 * process tree with (tasklist_lock and walk_process_tree() are not
 * exported), so a process's ancestry is walked upwards.  One pass under
 * rcu_read_lock() judges processes against a root p with a memo of the
 * processes judged so far: an open-addressing hash keyed by the
 * process's signal_struct (fixed for its tasks' lives, so that a thread
 * that is a real_parent and its leader are one entry; not freed before
 * the pass ends), which ends every walk at the first process judged
 * already.  Each process walked gets an entry, so a pass is O(processes)
 * whatever the depth of the tree; it needs as many entries as processes
 * are met (m->max), and a pass that runs out of them (processes born
 * meanwhile) is done again with twice as many.
 */
enum hwpmc_desc_state {
	HWPMC_DESC_WALK,		/* on the walk in progress */
	HWPMC_DESC_NO,
	HWPMC_DESC_YES,			/* p's process or under it */
};

struct hwpmc_desc_ent {
	const struct signal_struct	*sig;	/* NULL: free */
	enum hwpmc_desc_state		state;
};

struct hwpmc_desc {
	struct task_struct	*p;		/* the root, set under RCU */
	struct hwpmc_desc_ent	*ent;		/* 1 << bits: at least 2 * max */
	u32			*path;		/* the walk in progress */
	u32			n, max;		/* entries used, at most */
	unsigned int		bits;
};

/* Entries for the processes, at first: a count, and some born meanwhile */
static u32 hwpmc_desc_count(void)
{
	struct task_struct *q;
	u32 n = 0;

	rcu_read_lock();
	for_each_process(q)
		n++;
	rcu_read_unlock();
	return n + n / 4 + 64;
}

/* No more than PID_MAX_LIMIT processes exist: kvcalloc() stays < INT_MAX */
#define HWPMC_DESC_MAX		(2 * PID_MAX_LIMIT)

static int hwpmc_desc_init(struct hwpmc_desc *m, u32 max)
{
	m->max = min_t(u32, max, HWPMC_DESC_MAX);
	m->bits = ilog2(roundup_pow_of_two(2 * m->max));
	m->n = 0;
	m->p = NULL;
	m->ent = kvcalloc(1U << m->bits, sizeof(*m->ent), GFP_KERNEL);
	m->path = kvcalloc(m->max, sizeof(*m->path), GFP_KERNEL);
	if (m->ent && m->path)
		return 0;
	kvfree(m->ent);
	kvfree(m->path);
	return -ENOMEM;
}

static void hwpmc_desc_free(struct hwpmc_desc *m)
{
	kvfree(m->ent);
	kvfree(m->path);
}

/* A pass ran out of entries: twice as many (ENOMEM beyond the limit) */
static int hwpmc_desc_grow(struct hwpmc_desc *m)
{
	u32 max = m->max;

	hwpmc_desc_free(m);
	if (max >= HWPMC_DESC_MAX)
		return -ENOMEM;
	return hwpmc_desc_init(m, 2 * max);
}

/* The entry of sig, or the free one where it goes (never full: n <= max) */
static struct hwpmc_desc_ent *hwpmc_desc_ent(struct hwpmc_desc *m,
					     const struct signal_struct *sig)
{
	u32 mask = (1U << m->bits) - 1, i = hash_ptr(sig, m->bits);

	while (m->ent[i].sig && m->ent[i].sig != sig)
		i = (i + 1) & mask;
	return &m->ent[i];
}

/*
 * Is q's process p's or under it (1, 0), or -ENOSPC: out of entries.
 * The walk goes up to p's process, init_task or a process judged, and
 * what it found is what every process on its way is.  A process met
 * twice on one walk (a loop, which reparenting during the walk might
 * show; the old walk would not have ended) ends it with 0.
 */
static int hwpmc_desc_under(struct hwpmc_desc *m, struct task_struct *q)
{
	struct hwpmc_desc_ent *e;
	u32 depth = 0;
	int under;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "without RCU");
	for (;;) {
		if (same_thread_group(q, m->p)) {
			under = 1;
			break;
		}
		if (q == &init_task) {
			under = 0;
			break;
		}
		e = hwpmc_desc_ent(m, q->signal);
		if (e->sig) {
			under = e->state == HWPMC_DESC_YES;
			break;
		}
		if (m->n == m->max) {
			under = -ENOSPC;
			break;
		}
		e->sig = q->signal;
		e->state = HWPMC_DESC_WALK;
		m->path[depth++] = e - m->ent;
		m->n++;
		q = rcu_dereference(q->real_parent);
	}
	while (depth)
		m->ent[m->path[--depth]].state = under > 0 ? HWPMC_DESC_YES :
							     HWPMC_DESC_NO;
	return under;
}

/*
 * References to the live descendant processes of p in d (room for
 * m->max), their number, or -ENOSPC: out of entries.
 */
static int hwpmc_descendants(struct hwpmc_desc *m, struct task_struct *p,
			     struct task_struct **d)
{
	struct task_struct *q;
	int under, n = 0;

	rcu_read_lock();
	m->p = p;
	for_each_process(q) {
		if (same_thread_group(q, p))
			continue;
		under = hwpmc_desc_under(m, q);
		if (under > 0 && n == m->max)
			under = -ENOSPC;	/* a leader seen twice */
		if (under < 0) {
			while (n)
				put_task_struct(d[--n]);
			n = under;
			break;
		}
		if (under)
			d[n++] = get_task_struct(q);
	}
	rcu_read_unlock();
	return n;
}

/*
 * PMC_F_DESCENDANTS: attach to the current descendants too (future ones
 * become targets at their fork: hwpmc_pmc_born()).  Those the caller may
 * not attach to, or that exit meanwhile, are skipped.
 */
static int hwpmc_attach_descendants(struct hwpmc_pmc *pm,
				    struct task_struct *p)
{
	struct task_struct **d = NULL;
	struct hwpmc_desc m;
	int error, n = 0, i;

	error = hwpmc_desc_init(&m, hwpmc_desc_count());
	while (!error) {
		d = kvcalloc(m.max, sizeof(*d), GFP_KERNEL);
		if (!d) {
			hwpmc_desc_free(&m);
			return -ENOMEM;
		}
		n = hwpmc_descendants(&m, p, d);
		if (n >= 0)
			break;
		kvfree(d);
		d = NULL;
		error = hwpmc_desc_grow(&m);
	}
	if (error)
		return error;
	hwpmc_desc_free(&m);
	for (i = 0; i < n; i++) {
		if (!error) {
			error = hwpmc_attach_one(pm, d[i], true,
						 HWPMC_TA_DESCENDANT);
			if (error == -ESRCH || error == -EEXIST)
				error = 0;
		}
		put_task_struct(d[i]);
	}
	kvfree(d);
	return error;
}

/* The process of pid nr (a thread group id), referenced, or an error. */
static struct task_struct *hwpmc_process_get(pid_t nr)
{
	struct task_struct *p = NULL;
	struct pid *pid;

	pid = nr ? find_get_pid(nr) : get_pid(task_tgid(current));
	if (pid) {
		p = get_pid_task(pid, PIDTYPE_TGID);
		put_pid(pid);
	}
	if (!p)
		return ERR_PTR(-ESRCH);
	if (!atomic_read(&p->signal->live)) {
		put_task_struct(p);
		return ERR_PTR(-ESRCH);		/* exiting */
	}
	return p;
}

/*
 * The thread of id nr (0: the caller), referenced, or an error: ESRCH
 * for none, or one that is exiting.
 */
static struct task_struct *hwpmc_thread_get(pid_t nr)
{
	struct task_struct *t = NULL;
	struct pid *pid;

	pid = nr ? find_get_pid(nr) : get_pid(task_pid(current));
	if (pid) {
		t = get_pid_task(pid, PIDTYPE_PID);
		put_pid(pid);
	}
	if (!t)
		return ERR_PTR(-ESRCH);
	if (t->flags & PF_EXITING) {
		put_task_struct(t);
		return ERR_PTR(-ESRCH);
	}
	return t;
}

/*
 * Attach pm to process nr and, with DESCENDANTS, its descendants; all or
 * nothing, as FreeBSD's pmc_attach_process().  A PMC_F_THREAD PMC: to
 * thread nr alone, with the permission to attach to its process.
 */
int hwpmc_do_attach(struct hwpmc_pmc *pm, pid_t nr)
{
	struct hwpmc_target *pt;
	struct task_struct *p;
	int error;

	p = hwpmc_pmc_thread(pm) ? hwpmc_thread_get(nr) : hwpmc_process_get(nr);
	if (IS_ERR(p))
		return PTR_ERR(p);
	pm->attach_gen++;
	if (p->flags & PF_KTHREAD)
		error = -EINVAL;		/* not a user process */
	else if ((pm->flags & PMC_F_NOTIFY) && task_tgid(p) != pm->owner->tgid)
		error = -EPERM;			/* signals for its own threads */
	else
		error = hwpmc_attach_one(pm, p, false, 0);
	if (!error && (pm->flags & PMC_F_DESCENDANTS)) {
		error = hwpmc_attach_descendants(pm, p);
		if (error) {
			list_for_each_entry(pt, &pm->targets, link)
				if (pt->gen == pm->attach_gen) {
					hwpmc_pmc_detached(pm, pt->tgid);
					pt->leaving = true;
				}
			hwpmc_targets_free_leaving(pm);
			/* and the processes born of them meanwhile */
			if (hwpmc_pmc_virtual(pm))
				pm->value += hwpmc_vpmc_remove(pm,
							       pm->attach_gen,
							       NULL, 0);
		}
	}
	put_task_struct(p);
	return error;
}

/* The PMC e names, if it still exists; hwpmc_sx held. */
static struct hwpmc_pmc *hwpmc_born_pmc(const struct hwpmc_born_pmc *e)
{
	struct hwpmc_owner *po;
	struct hwpmc_pmc *q;

	lockdep_assert_held(&hwpmc_sx);
	hlist_for_each_entry(po, &hwpmc_ownerhash[hash_ptr(e->okey,
							    hwpmc_hashbits)],
			     link)
		if (po->tgid == e->okey)
			list_for_each_entry(q, &po->pmcs, link)
				if (q == e->pm && q->serial == e->serial)
					return q;
	return NULL;
}

/*
 * New process p (current) was born of a target of DESCENDANTS PMC pm,
 * whose process is parent: p becomes pm's target, as its parent's
 * descendant, of its parent's attach (e->gen), unless its parent left pm
 * since the fork other than by its exit (pm->dseq moved on: a detach, a
 * failed attach, an exec), or pm's owner may not watch p (its
 * credentials changed since); then its slots (counting PMCs), copied at
 * the fork, go.
 */
static void hwpmc_born_one(struct hwpmc_pmc *pm,
			   const struct hwpmc_born_pmc *e, struct pid *parent,
			   struct task_struct *p)
{
	int error = 0;

	lockdep_assert_held_write(&hwpmc_sx);
	if (!hwpmc_target_find(pm, parent) && pm->dseq != e->dseq)
		error = -ESRCH;		/* detached since the fork */
	if (!error && !hwpmc_owner_may_keep(pm, p))
		error = -EPERM;
	if (!error) {
		/* p is current: it cannot exec meanwhile */
		down_read(&p->signal->exec_update_lock);
		error = hwpmc_target_add(pm, p, HWPMC_TA_BORN, e->gen);
		up_read(&p->signal->exec_update_lock);
	}
	/*
	 * attached since the fork; or pm has max_targets targets: a counting
	 * PMC counts p as its parent's descendant (its slots), not a target
	 * of its own; a sampling one, whose counters a target gets here,
	 * does not sample it (the owner's log is told)
	 */
	if (error == -EEXIST || (error == -ENOSPC && hwpmc_pmc_virtual(pm)))
		return;
	if (error && hwpmc_pmc_virtual(pm)) {
		struct pid *tgid = task_tgid(p);

		pm->value += hwpmc_vpmc_remove(pm, 0, &tgid, 1);
	}
	if (error == -ENOMEM || error == -ENOSPC)
		hwpmc_pmc_lost(pm);
}

/*
 * Task work of a new process, before it first returns to user space
 * (queued by the fork hook, hwpmc_hooks.c): it becomes a target of its
 * parent's DESCENDANTS PMCs.  In exit_task_work() (killed before it ran)
 * it does nothing: the process is gone.
 */
void hwpmc_pmc_born(struct callback_head *cb)
{
	struct hwpmc_born *b = container_of(cb, struct hwpmc_born, cb);
	struct hwpmc_pmc *pm;
	u32 i;

	/* killed meanwhile: its slots go with its exit */
	if (!(current->flags & PF_EXITING) && !down_write_killable(&hwpmc_sx)) {
		for (i = 0; i < b->n; i++) {
			pm = hwpmc_born_pmc(&b->e[i]);
			if (pm)
				hwpmc_born_one(pm, &b->e[i], b->parent,
					       current);
		}
		up_write(&hwpmc_sx);
	}
	hwpmc_hooks_born_done(b);	/* last: the module may go */
}

/*
 * The last target leaving a PMC tells its owner with SIGIO, as FreeBSD
 * does, but the Linux way: to the process that asked for it on the file
 * the PMC was allocated through (O_ASYNC, F_SETOWN), since SIGIO's
 * default action here is to terminate.
 */
void hwpmc_targets_gone(struct hwpmc_pmc *pm)
{
	if (list_empty(&pm->targets))
		hwpmc_file_notify(pm->file, POLL_HUP);
}

/*
 * PMC_F_DESCENDANTS: detaching a process detaches its descendants that
 * are targets too, as attaching attached them.  The root of a PMCATTACH
 * takes the targets that came with it or were born of them since
 * (whether they are orphans now or not); a descendant, its descendants
 * that are targets (the current process tree, as FreeBSD's
 * pmc_detach_process() walks it), judged in one pass (hwpmc_desc_under())
 * before any goes.  ENOMEM, and nothing detached, if its memo cannot be
 * had.
 */
int hwpmc_detach_descendants(struct hwpmc_pmc *pm,
			     struct hwpmc_target *top)
{
	struct hwpmc_target *pt;
	unsigned long *below = NULL;
	struct hwpmc_desc m;
	struct task_struct *q;
	int error, under;
	u32 n = 0, i;

	lockdep_assert_held_write(&hwpmc_sx);
	if (!top->descendant) {
		list_for_each_entry(pt, &pm->targets, link)
			pt->leaving = pt != top && pt->gen == top->gen;
		hwpmc_targets_free_leaving(pm);
		return 0;
	}
	list_for_each_entry(pt, &pm->targets, link)
		n++;
	below = bitmap_zalloc(n, GFP_KERNEL);
	if (!below)
		return -ENOMEM;
	error = hwpmc_desc_init(&m, hwpmc_desc_count());
	while (!error) {
		under = 0;
		rcu_read_lock();
		m.p = pid_task(top->tgid, PIDTYPE_TGID);
		i = 0;
		list_for_each_entry(pt, &pm->targets, link) {
			q = pid_task(pt->tgid, PIDTYPE_TGID);
			under = 0;
			if (m.p && q && pt != top && !same_thread_group(q, m.p))
				under = hwpmc_desc_under(&m, q);
			if (under < 0)
				break;
			if (under)
				__set_bit(i, below);
			i++;
		}
		rcu_read_unlock();
		if (under >= 0)
			break;
		bitmap_zero(below, n);
		error = hwpmc_desc_grow(&m);
	}
	if (!error) {
		hwpmc_desc_free(&m);
		i = 0;
		list_for_each_entry(pt, &pm->targets, link)
			pt->leaving = test_bit(i++, below);
		hwpmc_targets_free_leaving(pm);
	}
	bitmap_free(below);
	return error;
}

/*
 * Stop pm and fold what it counted into pm->value; hwpmc_sx held.  A
 * PMC_F_NOTIFY PMC is disarmed first: an overflow that the stop itself
 * brings to light (QEMU's arm64 PMU finds one when its counters are
 * touched) signals nothing after the stop.
 */
void hwpmc_pmc_halt(struct hwpmc_pmc *pm)
{
	struct hwpmc_target *pt;

	lockdep_assert_held(&hwpmc_sx);
	if (pm->state != PMC_STATE_RUNNING)
		return;
	atomic_set(&pm->notify, 0);
	hwpmc_pmc_unscheduled(pm);	/* before the stop: as it ran */
	if (pm->sysev) {
		hwpmc_md_stop(pm->sysev);
		pm->value += hwpmc_md_read_off(pm->sysev) - pm->sysbase;
		pm->trunning += hwpmc_md_running(pm->sysev) - pm->trunbase;
		pm->tenabled += ktime_get_ns() - pm->tstart;
	}
	if (pm->mode == PMC_MODE_SS) {
		list_del_rcu(&pm->sslink);
		pm->owner->nss--;
		synchronize_rcu();	/* before it may be added again */
	}
	if (hwpmc_pmc_virtual(pm)) {
		pm->value += hwpmc_vpmc_stop(pm);
		hwpmc_vpmc_reap(pm);
	} else {
		list_for_each_entry(pt, &pm->targets, link)
			pm->value += hwpmc_target_stop(pm, pt);
	}
	pm->state = PMC_STATE_STOPPED;
}

/* Release pm (not its owner); hwpmc_sx held for writing. */
void hwpmc_pmc_free(struct hwpmc_pmc *pm)
{
	struct hwpmc_target *pt;

	lockdep_assert_held_write(&hwpmc_sx);
	hwpmc_pmc_halt(pm);
	list_for_each_entry(pt, &pm->targets, link)
		pt->leaving = true;
	hwpmc_targets_free_leaving(pm);
	hwpmc_vpmc_free(pm);
	if (pm->sysev)
		hwpmc_md_release(pm->sysev);
	/* its counters are gone: its last samples go to the log now */
	if (PMC_IS_SAMPLING_MODE(pm->mode))
		hwpmc_sample_drain();
	WRITE_ONCE(pm->state, PMC_STATE_DELETED);	/* no PROCEXIT now */
	hwpmc_vpmc_use(pm, false);
	hwpmc_row_give(pm->mode, pm->cpu, pm->ri);
	list_del(&pm->link);
	hwpmc_targets_fini(pm);
	kfree_rcu(pm, rcu);
}

/* An owner's image is gone (exit, exec): its PMCs and its log go. */
static void hwpmc_owner_release(struct hwpmc_owner *po)
{
	struct hwpmc_pmc *pm, *tmp;

	lockdep_assert_held_write(&hwpmc_sx);
	list_for_each_entry_safe(pm, tmp, &po->pmcs, link)
		hwpmc_pmc_free(pm);
	hwpmc_owner_closelog(po);
	hwpmc_owner_put_if_idle(po);
}

/*
 * The caller's owner, made if need be, stamped with the caller's exec
 * generation; an owner of the image before the caller's last exec is
 * released first, where the lifecycle work has yet to do it.
 */
struct hwpmc_owner *hwpmc_owner_get(void)
{
	struct pid *tgid = task_tgid(current);
	struct hwpmc_owner *po = hwpmc_owner_find(tgid);

	lockdep_assert_held_write(&hwpmc_sx);
	if (po && po->exec_id != current->self_exec_id) {
		hwpmc_owner_release(po);
		po = hwpmc_owner_find(tgid);
	}
	if (po)
		return po;
	po = kzalloc(sizeof(*po), GFP_KERNEL);
	if (!po)
		return NULL;
	if (hwpmc_watch_get(tgid)) {	/* its exit and exec are heard */
		kfree(po);
		return NULL;
	}
	po->tgid = get_pid(tgid);
	po->exec_id = current->self_exec_id;
	INIT_LIST_HEAD(&po->pmcs);
	atomic_inc(&hwpmc_active);
	hlist_add_head(&po->link,
		       &hwpmc_ownerhash[hash_ptr(tgid, hwpmc_hashbits)]);
	return po;
}

/*
 * Does exited target pt of sampling PMC pm stay?  perf's copies of pt's
 * counters in its threads go when the counters are released; a thread
 * still on its way out when the lifecycle work runs has them yet: pt
 * stays while one of its threads has a slot that has not passed its
 * exit hook (LOG_PROCCSW, LOG_PROCEXIT: the last one's PROCEXIT needs its
 * count, and it notes the process's exit again, hwpmc_thr_exit()), and
 * with DESCENDANTS until no copy is left, which each later exit of a
 * watched process checks.  (Descendants born since are targets of their
 * own.)
 */
static bool hwpmc_target_kept(struct hwpmc_pmc *pm, struct hwpmc_target *pt)
{
	u32 i;

	lockdep_assert_held_write(&hwpmc_sx);
	if (hwpmc_pmc_virtual(pm))
		return false;
	if (hwpmc_pmc_slotted(pm) && hwpmc_vpmc_live(pm, pt->tgid))
		return true;
	if (!(pm->flags & PMC_F_DESCENDANTS))
		return false;
	for (i = 0; i < pt->nev; i++)
		if (hwpmc_md_has_copies(pt->ev[i]))
			return true;
	return false;
}

/* The exited targets of pm kept for descendants that are gone now go. */
static void hwpmc_targets_sweep(struct hwpmc_pmc *pm)
{
	struct hwpmc_target *pt, *tmp;
	bool freed = false;

	list_for_each_entry_safe(pt, tmp, &pm->targets, link) {
		if (!pt->exited || hwpmc_target_kept(pm, pt))
			continue;
		__hwpmc_target_free(pm, pt, true);
		freed = true;
	}
	if (freed)
		hwpmc_targets_gone(pm);
}

/*
 * A target thread of a PMC_F_THREAD PMC in process tgid passed its exit
 * hook (hwpmc_thr_exit()): for that PMC it is a process that exited.
 * The target leaves the PMC, its count kept (its PROCEXIT was logged by
 * the hook), and the owner hears of the last target leaving (SIGIO).
 * The process itself goes on.
 */
static void hwpmc_pmc_thread_gone(struct pid *tgid)
{
	struct hwpmc_owner *po;
	struct hwpmc_pmc *pm;
	struct hwpmc_target *pt;
	unsigned int b;

	lockdep_assert_held_write(&hwpmc_sx);
	for (b = 0; b < (1U << hwpmc_hashbits); b++)
		hlist_for_each_entry(po, &hwpmc_ownerhash[b], link)
			list_for_each_entry(pm, &po->pmcs, link) {
				if (!hwpmc_pmc_thread(pm))
					continue;
				hwpmc_vpmc_reap(pm);
				pt = hwpmc_target_find(pm, tgid);
				if (!pt || hwpmc_vpmc_live(pm, tgid))
					continue;
				__hwpmc_target_free(pm, pt, true);
				hwpmc_targets_gone(pm);
			}
}

/*
 * A PMC_F_THREAD target thread that exec'ed is the process's only
 * thread now, with the process's id (execve(2)): its target names p.
 */
static void hwpmc_thread_exec(struct hwpmc_pmc *pm, struct hwpmc_target *pt,
			      struct task_struct *p)
{
	lockdep_assert_held_write(&hwpmc_sx);
	if (!pt->thread || pt->thread == task_pid(p) ||
	    !hwpmc_vpmc_live(pm, pt->tgid))
		return;		/* another thread was: its exit takes it */
	put_pid(pt->thread);
	pt->thread = get_pid(task_pid(p));
}

/*
 * Process tgid exec'ed or exited (hwpmc_lifecycle.c): as an owner, it
 * loses its PMCs; having exited, it leaves the PMCs it was a target of,
 * their counts keeping what it counted (a sampling PMC's descendants
 * keep being sampled: hwpmc_target_kept()); having exec'ed, those whose
 * owners may no longer attach to it (hwpmc_owner_may_keep()).  what:
 * enum hwpmc_gone (hwpmc_watch.h); HWPMC_GONE_THREAD, a PMC_F_THREAD
 * target thread of it ended.
 */
void hwpmc_pmc_process_gone(struct pid *tgid, int what, u64 exec_id)
{
	bool exec = what == HWPMC_GONE_EXEC;
	struct task_struct *p;
	struct hwpmc_owner *po;
	struct hwpmc_pmc *pm;
	struct hwpmc_target *pt;
	struct hlist_node *n;
	unsigned int b;

	down_write(&hwpmc_sx);
	if (what == HWPMC_GONE_THREAD) {
		hwpmc_pmc_thread_gone(tgid);
		up_write(&hwpmc_sx);
		return;
	}
	po = hwpmc_owner_find(tgid);
	/* an owner made by the new image after this exec stays */
	if (po && (!exec || po->exec_id < exec_id))
		hwpmc_owner_release(po);
	p = exec ? get_pid_task(tgid, PIDTYPE_TGID) : NULL;
	for (b = 0; (!exec || p) && b < (1U << hwpmc_hashbits); b++)
		hlist_for_each_entry_safe(po, n, &hwpmc_ownerhash[b], link)
			list_for_each_entry(pm, &po->pmcs, link) {
				hwpmc_vpmc_reap(pm);
				if (!exec)
					hwpmc_targets_sweep(pm);
				pt = hwpmc_target_find(pm, tgid);
				if (!pt || pt->exited)
					continue;
				if (exec && hwpmc_owner_may_keep(pm, p)) {
					hwpmc_thread_exec(pm, pt, p);
					continue;
				}
				if (exec)
					hwpmc_pmc_detached(pm, tgid);
				if (!exec && hwpmc_target_kept(pm, pt)) {
					pt->exited = true;
					continue;
				}
				__hwpmc_target_free(pm, pt, !exec);
				hwpmc_targets_gone(pm);
			}
	up_write(&hwpmc_sx);
	if (p)
		put_task_struct(p);
}

/*
 * CONFIGURELOG logs the PMCATTACH (and MAP_IN) records of a target of
 * the caller's PMC pm, which the caller may still attach to: a target
 * that exec'ed a program the caller may no longer watch is detached
 * here (true), before the lifecycle work gets to it, under its
 * exec_update_lock as an attach.
 */
bool hwpmc_log_target(struct hwpmc_pmc *pm, struct hwpmc_target *pt,
		      struct task_struct *p)
{
	bool gone = false;

	lockdep_assert_held_write(&hwpmc_sx);
	if (down_read_killable(&p->signal->exec_update_lock))
		return false;		/* the caller is being killed */
	if (!hwpmc_may_attach(p)) {
		hwpmc_rec_pmcattach(pm->owner->log, pm, p,
				  PMC_IS_SAMPLING_MODE(pm->mode));
	} else {
		hwpmc_target_free(pm, pt);
		gone = true;
	}
	up_read(&p->signal->exec_update_lock);
	return gone;
}
