// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: pmc(9), NetBSD's in-kernel interface to the counters,
 * for kernel modules (man/pmc.9, <linux/hwpmc_pmc.h>).
 *
 * A counter is a row of hwpmc (0 .. hwpmc_md.npmc - 1) counting an event
 * of the row's class.  Kernel code counts with a row either per task
 * (pmc_configure_counter(): one perf counter on the task, inherited by
 * its new threads and processes) or for the kernel (
 * pmc_alloc_kernel_counter(), pmc_start_profiling(): one perf counter on
 * each online CPU).  Each such counter is a record here, and holds its
 * row in hwpmc_rows.c: the row's disposition is KERNEL, PMCs of
 * /dev/hwpmc get EBUSY for it, and kernel code gets EBUSY for a row a PMC
 * uses.  Many tasks may count with a row; a kernel counter takes its row
 * alone.
 *
 * A profiling counter's samples go through hwpmc's sampling
 * (hwpmc_sample.c) as those of a system-sampling PMC with call chains,
 * a PMC of the record's own (kc->pm) whose owner is hwpmc_kprof
 * (hwpmc_hooks.h), into the log of the /dev/hwpmc owner that asked for
 * the kernel's profiles (CONFIGURELOG with PMC_LOG_KERNEL_PROFILES),
 * if any: a PMCALLOCATE names each profile there, CALLCHAIN records
 * its samples (hwpmc-stat -R reports them).
 *
 * The records change under hwpmc_sx held for writing and are read under
 * it; they are freed after an RCU grace period, so that the overflow
 * handler of a profiling counter may use its record until it returns,
 * and after the sample rings were drained of their samples.
 * The calls sleep: process context only.
 */
#define pr_fmt(fmt) "hwpmc: " fmt

#include <linux/kernel.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/hwpmc_pmc.h>

#include "hwpmc_internal.h"
#include "hwpmc_kapi.h"
#include "hwpmc_hooks.h"
#include "hwpmc_sample.h"
#include "hwpmc_rows.h"
#include "hwpmc_records.h"
#include "hwpmc_backend.h"

struct hwpmc_kctr {
	struct list_head	link;		/* hwpmc_kctrs */
	struct task_struct	*task;		/* NULL: the kernel's */
	struct module		*mod;		/* the module that made it */
	int			ctr;		/* its row */
	bool			enabled;
	bool			profiling;
	u64			base;		/* -reset_value */
	u64			accum;		/* pmc_accumulate()'s */
	atomic64_t		samples;	/* profiling: its overflows */
	struct hwpmc_pmc	pm;		/* profiling: its samples' */
	struct rcu_head		rcu;
	u32			nev;
	struct perf_event	*ev[];		/* task: 1; kernel: per CPU */
};

static LIST_HEAD(hwpmc_kctrs);

static bool hwpmc_kapi_bad_ctr(int ctr)
{
	return ctr < 0 || ctr >= hwpmc_md.npmc;
}

/* The record of task t (NULL: the kernel's) on row ctr, or NULL. */
static struct hwpmc_kctr *hwpmc_kctr_find(struct task_struct *t, int ctr)
{
	struct hwpmc_kctr *kc;

	lockdep_assert_held(&hwpmc_sx);
	list_for_each_entry(kc, &hwpmc_kctrs, link)
		if (kc->task == t && kc->ctr == ctr)
			return kc;
	return NULL;
}

/* Does a record of another task, or the kernel's, use row ctr? */
static bool hwpmc_kctr_row_used(int ctr, bool by_kernel_only)
{
	struct hwpmc_kctr *kc;

	lockdep_assert_held(&hwpmc_sx);
	list_for_each_entry(kc, &hwpmc_kctrs, link)
		if (kc->ctr == ctr && (!by_kernel_only || !kc->task))
			return true;
	return false;
}

static struct hwpmc_kctr *hwpmc_kctr_alloc(u32 nev)
{
	struct hwpmc_kctr *kc;

	kc = kzalloc(struct_size(kc, ev, nev), GFP_KERNEL);
	if (kc)
		kc->nev = nev;
	return kc;
}

/*
 * A record not on the list (any more): its counters, task and memory; a
 * profiling counter's samples still in the rings go to the log first.
 */
static void hwpmc_kctr_free(struct hwpmc_kctr *kc)
{
	u32 i;

	for (i = 0; i < kc->nev; i++)
		if (kc->ev[i])
			hwpmc_md_release(kc->ev[i]);
	if (kc->profiling)
		hwpmc_sample_drain();
	if (kc->task)
		put_task_struct(kc->task);
	kfree_rcu(kc, rcu);
}

/* Off the list, its row given back; then freed. */
static void hwpmc_kctr_drop(struct hwpmc_kctr *kc)
{
	lockdep_assert_held_write(&hwpmc_sx);
	list_del_rcu(&kc->link);
	if (kc->profiling)
		list_del_rcu(&kc->pm.sslink);
	hwpmc_row_kernel_give(kc->ctr);
	hwpmc_kctr_free(kc);
}

/*
 * The PMC of a profile on row ctr, as the logs know it: system sampling
 * of ev with call chains, every period events, the owner hwpmc_kprof.
 * Its id is unique while it runs: the row is the profile's alone (the
 * CPU field, PMC_CPU_ANY, is also that of a system PMC on CPU 4095).  A
 * later profile or system PMC on the row may have the same id: a log's
 * reader takes the latest PMCALLOCATE of an id.
 */
static void hwpmc_kprof_pmc(int ctr, const struct hwpmc_event *ev,
			    u64 period, struct hwpmc_pmc *pm)
{
	pm->owner = &hwpmc_kprof;
	pm->event = ev;
	strscpy(pm->evname, ev->name, sizeof(pm->evname));
	pm->mode = PMC_MODE_SS;
	pm->flags = PMC_F_CALLCHAIN;
	pm->caps = PMC_CAP_USER | PMC_CAP_SYSTEM | PMC_CAP_INTERRUPT;
	pm->state = PMC_STATE_RUNNING;
	pm->cpu = PMC_CPU_ANY;
	pm->ri = ctr;
	pm->reload = period;
	pm->id = PMC_ID_MAKE_ID(PMC_CPU_ANY, PMC_MODE_SS,
				hwpmc_row_class(ctr)->class, ctr);
}

/*
 * The perf attribute of cfg on row ctr: an event of the row's class that
 * needs no perf configuration of its own (not RAW, not PERF), both modes;
 * a profiling counter's event must interrupt, every reset_value events
 * (at least the tunable mincount, as hwpmc(4)'s sampling PMCs), and
 * its PMC in pm.
 */
static int hwpmc_kapi_attr(int ctr, const struct pmc_counter_cfg *cfg,
			   bool task, bool prof, struct perf_event_attr *attr,
			   struct hwpmc_pmc *pm)
{
	struct pmc_md_pmu_op_pmcallocate md = { 0 };
	const struct hwpmc_event *ev;
	u64 period;

	if (hwpmc_kapi_bad_ctr(ctr) || !cfg || cfg->flags)
		return -EINVAL;
	ev = hwpmc_event_find(hwpmc_row_class(ctr), cfg->event_id);
	if (!ev || ev->code == PMC_EV_PMU_RAW || ev->code == PMC_EV_PERF)
		return -EINVAL;
	if (prof && (!(ev->caps & PMC_CAP_INTERRUPT) || !cfg->reset_value))
		return -EINVAL;
	if (hwpmc_md_attr(ev, PMC_CAP_USER | PMC_CAP_SYSTEM, &md, attr))
		return -EINVAL;
	period = prof ? max_t(u64, cfg->reset_value,
			      READ_ONCE(hwpmc_mincount)) : 0;
	hwpmc_md_attr_kernel(attr, task, period);
	if (prof)
		hwpmc_kprof_pmc(ctr, ev, period, pm);
	return 0;
}

int pmc_get_num_counters(void)
{
	return hwpmc_md.npmc;
}
EXPORT_SYMBOL_GPL(pmc_get_num_counters);

/* The row's class (PMC_CLASS_*); for -1 the CPU type (PMC_CPU_*). */
int pmc_get_counter_type(int ctr)
{
	if (ctr == -1)
		return hwpmc_md.cputype;
	if (hwpmc_kapi_bad_ctr(ctr))
		return -EINVAL;
	return hwpmc_row_class(ctr)->class;
}
EXPORT_SYMBOL_GPL(pmc_get_counter_type);

/*
 * perf saves and restores a task's counters at its context switches:
 * nothing is left for the scheduler to call.  Kept for source
 * compatibility.
 */
void pmc_save_context(struct task_struct *t)
{
}
EXPORT_SYMBOL_GPL(pmc_save_context);

void pmc_restore_context(struct task_struct *t)
{
}
EXPORT_SYMBOL_GPL(pmc_restore_context);

/*
 * Configure row ctr for task t: a new counter, from zero (less
 * reset_value), not running.  A counter t had on the row is replaced.
 */
int __pmc_configure_counter(struct module *mod, struct task_struct *t,
			    int ctr, struct pmc_counter_cfg *cfg)
{
	struct perf_event_attr attr;
	struct hwpmc_kctr *kc, *old;
	int error;

	might_sleep();
	if (!t)
		return -EINVAL;
	error = hwpmc_kapi_attr(ctr, cfg, true, false, &attr, NULL);
	if (error)
		return error;
	kc = hwpmc_kctr_alloc(1);
	if (!kc)
		return -ENOMEM;
	kc->ev[0] = hwpmc_md_create_kernel(&attr, -1, t, kc);
	if (IS_ERR(kc->ev[0])) {
		error = PTR_ERR(kc->ev[0]);
		kfree(kc);
		return error;
	}
	/*
	 * perf swaps the contexts of a task and its copy (a clone of it) at
	 * switches between them, counters and all: pinned, the counter
	 * stays on t, and its copies on the children (hwpmc_md_pin()).
	 */
	hwpmc_md_pin(kc->ev[0]);
	get_task_struct(t);
	kc->task = t;
	kc->mod = mod;
	kc->ctr = ctr;
	kc->base = -cfg->reset_value;

	down_write(&hwpmc_sx);
	old = hwpmc_kctr_find(t, ctr);
	if (old && old->mod != mod) {
		error = -EBUSY;		/* another module's: not ours to replace */
		goto unlock;
	}
	if (old)
		hwpmc_kctr_drop(old);
	if (hwpmc_kctr_row_used(ctr, true))
		error = -EBUSY;		/* a kernel counter has it alone */
	else
		error = hwpmc_row_kernel_take(ctr);
	if (!error)
		list_add_tail_rcu(&kc->link, &hwpmc_kctrs);
unlock:
	up_write(&hwpmc_sx);
	if (error)
		hwpmc_kctr_free(kc);
	return error;
}
EXPORT_SYMBOL_GPL(__pmc_configure_counter);

/* Linux: release the counter of t on row ctr. */
int pmc_unconfigure_counter(struct task_struct *t, int ctr)
{
	struct hwpmc_kctr *kc;
	int error = 0;

	if (!t || hwpmc_kapi_bad_ctr(ctr))
		return -EINVAL;
	down_write(&hwpmc_sx);
	kc = hwpmc_kctr_find(t, ctr);
	if (kc)
		hwpmc_kctr_drop(kc);
	else
		error = -ENOENT;
	up_write(&hwpmc_sx);
	return error;
}
EXPORT_SYMBOL_GPL(pmc_unconfigure_counter);

static int hwpmc_kapi_switch(struct task_struct *t, int ctr, bool on)
{
	struct hwpmc_kctr *kc;
	int error = 0;
	u32 i;

	might_sleep();
	if (hwpmc_kapi_bad_ctr(ctr))
		return -EINVAL;
	down_write(&hwpmc_sx);
	kc = hwpmc_kctr_find(t, ctr);
	if (!kc || kc->profiling) {
		error = -ENOENT;	/* profiling: pmc_stop_profiling() */
	} else if (kc->enabled != on) {
		for (i = 0; i < kc->nev; i++) {
			if (!kc->ev[i])
				continue;
			if (on)
				hwpmc_md_start(kc->ev[i]);
			else
				hwpmc_md_stop(kc->ev[i]);
		}
		kc->enabled = on;
		/*
		 * A CPU's counter is put on its PMU at once, or not at all
		 * (every hardware counter taken by other perf users).
		 */
		for (i = 0; on && !t && i < kc->nev; i++) {
			if (kc->ev[i] && hwpmc_md_failed(kc->ev[i]))
				error = -EBUSY;
		}
		for (i = 0; error && i < kc->nev; i++) {
			if (kc->ev[i])
				hwpmc_md_stop(kc->ev[i]);
		}
		if (error)
			kc->enabled = false;
	}
	up_write(&hwpmc_sx);
	return error;
}

/* Start (stop) t's counter on row ctr; NULL: the kernel's counter. */
int pmc_enable_counter(struct task_struct *t, int ctr)
{
	return hwpmc_kapi_switch(t, ctr, true);
}
EXPORT_SYMBOL_GPL(pmc_enable_counter);

int pmc_disable_counter(struct task_struct *t, int ctr)
{
	return hwpmc_kapi_switch(t, ctr, false);
}
EXPORT_SYMBOL_GPL(pmc_disable_counter);

/* t's counter on ctr, or the kernel's, is running (configured). */
static int hwpmc_kapi_is(struct task_struct *t, int ctr, bool running)
{
	struct hwpmc_kctr *kc;
	int ret = 0;

	if (hwpmc_kapi_bad_ctr(ctr))
		return 0;
	down_read(&hwpmc_sx);
	list_for_each_entry(kc, &hwpmc_kctrs, link)
		if (kc->ctr == ctr && (kc->task == t || !kc->task) &&
		    (!running || kc->enabled)) {
			ret = 1;
			break;
		}
	up_read(&hwpmc_sx);
	return ret;
}

int pmc_counter_isrunning(struct task_struct *t, int ctr)
{
	return hwpmc_kapi_is(t, ctr, true);
}
EXPORT_SYMBOL_GPL(pmc_counter_isrunning);

int pmc_counter_isconfigured(struct task_struct *t, int ctr)
{
	return hwpmc_kapi_is(t, ctr, false);
}
EXPORT_SYMBOL_GPL(pmc_counter_isconfigured);

/*
 * The value of t's counter on ctr (NULL: the kernel's, its CPUs'
 * counts added up): what t counted, from -reset_value; with
 * PMC_VALUE_FLAGS_CHILDREN, what its exited children counted instead
 * (perf's exited copies, and pmc_accumulate()'s).
 */
int pmc_get_counter_value(struct task_struct *t, int ctr, int flags,
			  u64 *pval)
{
	struct hwpmc_kctr *kc;
	u64 v = 0, exited;
	int error = 0;
	u32 i;

	might_sleep();
	if (hwpmc_kapi_bad_ctr(ctr) || !pval ||
	    (flags & ~PMC_VALUE_FLAGS_CHILDREN) ||
	    (!t && (flags & PMC_VALUE_FLAGS_CHILDREN)))
		return -EINVAL;
	down_read(&hwpmc_sx);
	kc = hwpmc_kctr_find(t, ctr);
	if (!kc) {
		error = -ENOENT;
	} else if (t) {
		v = hwpmc_md_read_own(kc->ev[0], &exited);
		if (flags & PMC_VALUE_FLAGS_CHILDREN)
			v = exited + kc->accum;
		else
			v += kc->base;
	} else {
		for (i = 0; i < kc->nev; i++)
			if (kc->ev[i])
				v += hwpmc_md_read(kc->ev[i]);
		v += kc->base;
	}
	up_read(&hwpmc_sx);
	if (!error)
		*pval = v;
	return error;
}
EXPORT_SYMBOL_GPL(pmc_get_counter_value);

/*
 * What exiting counted (itself and its exited children) added to the
 * children's counts of parent, row by row, where both have a counter.
 * The copies perf made at fork add theirs when they exit without this.
 */
int pmc_accumulate(struct task_struct *parent, struct task_struct *exiting)
{
	struct hwpmc_kctr *kc, *pc;
	u64 own, exited;

	might_sleep();
	if (!parent || !exiting || parent == exiting)
		return -EINVAL;
	down_write(&hwpmc_sx);
	list_for_each_entry(kc, &hwpmc_kctrs, link) {
		if (kc->task != exiting)
			continue;
		pc = hwpmc_kctr_find(parent, kc->ctr);
		if (!pc)
			continue;
		own = hwpmc_md_read_own(kc->ev[0], &exited);
		pc->accum += own + exited + kc->accum;
	}
	up_write(&hwpmc_sx);
	return 0;
}
EXPORT_SYMBOL_GPL(pmc_accumulate);

/*
 * A kernel counter on row ctr: a counter on each online CPU (CPUs that
 * come online later are not counted), the row taken alone.
 */
static int hwpmc_kapi_kernel(struct module *mod, int ctr,
			     struct pmc_counter_cfg *cfg, bool prof)
{
	struct perf_event_attr attr;
	struct hwpmc_kctr *kc;
	struct perf_event *ev;
	int cpu, error;

	might_sleep();
	kc = hwpmc_kctr_alloc(nr_cpu_ids);
	if (!kc)
		return -ENOMEM;
	error = hwpmc_kapi_attr(ctr, cfg, false, prof, &attr, &kc->pm);
	if (error) {
		kfree(kc);
		return error;
	}
	kc->mod = mod;
	kc->ctr = ctr;
	kc->profiling = prof;
	kc->base = prof ? 0 : -cfg->reset_value;
	atomic64_set(&kc->samples, 0);
	for_each_online_cpu(cpu) {
		ev = hwpmc_md_create_kernel(&attr, cpu, NULL, kc);
		if (IS_ERR(ev)) {
			if (PTR_ERR(ev) == -ENODEV)
				continue;	/* it went offline */
			hwpmc_kctr_free(kc);
			return PTR_ERR(ev);
		}
		kc->ev[cpu] = ev;
	}

	down_write(&hwpmc_sx);
	if (hwpmc_kctr_row_used(ctr, false))
		error = -EBUSY;
	else
		error = hwpmc_row_kernel_take(ctr);
	if (!error) {
		list_add_tail_rcu(&kc->link, &hwpmc_kctrs);
		if (prof) {
			list_add_tail_rcu(&kc->pm.sslink, &hwpmc_kprof_pmcs);
			if (hwpmc_kprof.log)
				hwpmc_rec_pmcallocate(hwpmc_kprof.log, &kc->pm);
			for_each_possible_cpu(cpu)
				if (kc->ev[cpu])
					hwpmc_md_start(kc->ev[cpu]);
			kc->enabled = true;
		}
	}
	up_write(&hwpmc_sx);
	if (error)
		hwpmc_kctr_free(kc);
	return error;
}

int __pmc_alloc_kernel_counter(struct module *mod, int ctr,
			       struct pmc_counter_cfg *cfg)
{
	return hwpmc_kapi_kernel(mod, ctr, cfg, false);
}
EXPORT_SYMBOL_GPL(__pmc_alloc_kernel_counter);

int __pmc_start_profiling(struct module *mod, int ctr,
			  struct pmc_counter_cfg *cfg)
{
	return hwpmc_kapi_kernel(mod, ctr, cfg, true);
}
EXPORT_SYMBOL_GPL(__pmc_start_profiling);

static int hwpmc_kapi_kernel_free(int ctr, bool prof)
{
	struct hwpmc_kctr *kc;
	int error = 0;

	might_sleep();
	if (hwpmc_kapi_bad_ctr(ctr))
		return -EINVAL;
	down_write(&hwpmc_sx);
	kc = hwpmc_kctr_find(NULL, ctr);
	if (kc && kc->profiling == prof)
		hwpmc_kctr_drop(kc);
	else
		error = -ENOENT;
	up_write(&hwpmc_sx);
	return error;
}

int pmc_free_kernel_counter(int ctr)
{
	return hwpmc_kapi_kernel_free(ctr, false);
}
EXPORT_SYMBOL_GPL(pmc_free_kernel_counter);

int pmc_stop_profiling(int ctr)
{
	return hwpmc_kapi_kernel_free(ctr, true);
}
EXPORT_SYMBOL_GPL(pmc_stop_profiling);

/* Linux: the overflows of pmc_start_profiling()'s counter on ctr. */
int pmc_profiling_samples(int ctr, u64 *samples)
{
	struct hwpmc_kctr *kc;
	int error = 0;

	if (hwpmc_kapi_bad_ctr(ctr) || !samples)
		return -EINVAL;
	down_read(&hwpmc_sx);
	kc = hwpmc_kctr_find(NULL, ctr);
	if (kc && kc->profiling)
		*samples = atomic64_read(&kc->samples);
	else
		error = -ENOENT;
	up_read(&hwpmc_sx);
	return error;
}
EXPORT_SYMBOL_GPL(pmc_profiling_samples);

/* Has t a counter, or has the kernel one? */
int PMC_ENABLED(struct task_struct *t)
{
	struct hwpmc_kctr *kc;
	int ret = 0;

	down_read(&hwpmc_sx);
	list_for_each_entry(kc, &hwpmc_kctrs, link)
		if (!kc->task || kc->task == t) {
			ret = 1;
			break;
		}
	up_read(&hwpmc_sx);
	return ret;
}
EXPORT_SYMBOL_GPL(PMC_ENABLED);

/*
 * A profiling counter overflowed (NMI or IRQ context): count it, and
 * sample it when a log takes the kernel's profiles.
 */
void hwpmc_kapi_overflow(void *context, struct pt_regs *regs)
{
	struct hwpmc_kctr *kc = context;

	atomic64_inc(&kc->samples);
	if (kc->profiling && READ_ONCE(hwpmc_kprof.log))
		hwpmc_sample_overflow(&kc->pm, regs);
}

/*
 * A module that goes away leaves no counter behind: what it made is
 * released once its exit function has run.  (While it uses these
 * functions it holds a reference on hwpmc, which cannot go first.)
 */
static int hwpmc_kapi_module(struct notifier_block *nb, unsigned long action,
			     void *data)
{
	struct module *mod = data;
	struct hwpmc_kctr *kc, *n;

	if (action != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	down_write(&hwpmc_sx);
	list_for_each_entry_safe(kc, n, &hwpmc_kctrs, link)
		if (kc->mod == mod) {
			pr_info("%s left a counter on row %d: released\n",
				mod->name, kc->ctr);
			hwpmc_kctr_drop(kc);
		}
	up_write(&hwpmc_sx);
	return NOTIFY_DONE;
}

static struct notifier_block hwpmc_kapi_nb = {
	.notifier_call = hwpmc_kapi_module,
};

int hwpmc_kapi_init(void)
{
	return register_module_notifier(&hwpmc_kapi_nb);
}

/* No client is left (each held a reference); nothing should remain. */
void hwpmc_kapi_fini(void)
{
	struct hwpmc_kctr *kc, *n;

	unregister_module_notifier(&hwpmc_kapi_nb);
	down_write(&hwpmc_sx);
	list_for_each_entry_safe(kc, n, &hwpmc_kctrs, link)
		hwpmc_kctr_drop(kc);
	up_write(&hwpmc_sx);
	rcu_barrier();		/* the records' kfree_rcu() */
}
