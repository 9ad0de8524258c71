// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: the PMC operations, counting modes (the allocate,
 * attach, start, stop, read/write and release parts of FreeBSD's
 * hwpmc_mod.c); their owners are in hwpmc_owner.c, their targets in
 * hwpmc_target.c.
 *
 * A PMC's ids are per owner (hwpmc_owner.c): another process cannot name
 * them.  A PMC also remembers the file it was allocated through, and
 * closing that file releases it.
 *
 * Counting.  A counting process-scope PMC counts with the module's own
 * context switches (hwpmc_csw.c): a perf counter per CPU, and a slot per
 * target thread that takes what the counter counts while the thread
 * runs.  A sampling process-scope PMC has one perf counter per thread of
 * each attached process (a target) at attach time; perf saves and
 * restores them at context switches and copies them into threads created
 * later (perf's inheritance).  With PMC_F_DESCENDANTS, processes created
 * later by a target become targets (hwpmc_pmc_born()).  A system-scope
 * PMC is one perf counter on its CPU.  The
 * value of a PMC is pm->value plus, while it runs, what it counted since
 * it started (slots, or counter read - base); a stop folds that into
 * pm->value.
 *
 * Locking: hwpmc_sx, held for writing by every operation on owners, PMCs
 * and targets (perf calls sleep, which a rw_semaphore allows); inside it,
 * a target's exec_update_lock across an attach's permission check, its
 * counters or slots and its records (hwpmc_attach_one()).
 */
#define pr_fmt(fmt) "hwpmc: " fmt

#include <linux/kernel.h>
#include <linux/capability.h>
#include <linux/cpuhotplug.h>
#include <linux/cred.h>
#include <linux/list.h>
#include <linux/pid.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <linux/hwpmclog.h>

#include "hwpmc_internal.h"
#include "hwpmc_ops.h"
#include "hwpmc_target.h"
#include "hwpmc_owner.h"
#include "hwpmc_watch.h"
#include "hwpmc_hooks.h"
#include "hwpmc_csw.h"
#include "hwpmc_rows.h"
#include "hwpmc_records.h"
#include "hwpmc_log.h"
#include "hwpmc_backend.h"
#include <hwpmc_allocate.h>

#define HWPMC_F_NEEDS_LOG	(PMC_F_LOG_PROCCSW | PMC_F_LOG_PROCEXIT)

/*
 * CPU hotplug.  The offline callback only bumps the CPU's generation
 * (hwpmc_rows.c; it may not take hwpmc_sx: the hotplug lock it runs
 * under is taken inside hwpmc_sx when counters are created), and a
 * system PMC of an older generation gets a new counter the next time it
 * is used with its CPU online, its count carried over.
 */
static int hwpmc_cpuhp_state;

static int hwpmc_cpu_offline(unsigned int cpu)
{
	hwpmc_cpu_gen_bump(cpu);
	return 0;
}

/*
 * A CPU came online: the counting process PMCs get counters there (in a
 * work item: counters are made under hwpmc_sx, which is taken outside
 * the hotplug lock that the callback runs under).
 */
static void hwpmc_cpu_online_fn(struct work_struct *work);
static DECLARE_WORK(hwpmc_cpu_online_work, hwpmc_cpu_online_fn);

static int hwpmc_cpu_online(unsigned int cpu)
{
	if (atomic_read(&hwpmc_active))
		schedule_work(&hwpmc_cpu_online_work);
	return 0;
}

static atomic64_t hwpmc_pmc_serial = ATOMIC64_INIT(0);

int hwpmc_pmc_init(void)
{
	int error = hwpmc_owner_init();

	if (error)
		return error;
	hwpmc_cpuhp_state = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
						      "perf/hwpmc:online",
						      hwpmc_cpu_online,
						      hwpmc_cpu_offline);
	if (hwpmc_cpuhp_state < 0) {
		hwpmc_owner_fini();
		return hwpmc_cpuhp_state;
	}
	return 0;
}

/* Give sysev back to a CPU that went offline since; hwpmc_sx held. */
static int hwpmc_sys_refresh(struct hwpmc_pmc *pm)
{
	int gen = hwpmc_cpu_gen_read(pm->cpu);
	struct perf_event *ev;

	lockdep_assert_held(&hwpmc_sx);
	if (gen == pm->sysgen)
		return 0;
	if (!cpu_online(pm->cpu))
		return -ENXIO;
	ev = hwpmc_md_create(&pm->attr, pm->cpu, NULL, pm);
	if (IS_ERR(ev))
		return PTR_ERR(ev) == -ENODEV ? -ENXIO : PTR_ERR(ev);
	if (pm->state == PMC_STATE_RUNNING) {
		pm->value += hwpmc_md_read(pm->sysev) - pm->sysbase;
		pm->sysbase = 0;
		/* the CPU was offline meanwhile: a gap in the count */
		pm->trunning += hwpmc_md_running(pm->sysev) - pm->trunbase;
		pm->trunbase = 0;
		pm->tpartial = true;
		hwpmc_md_start(ev);
	}
	if (pm->state == PMC_STATE_RUNNING && hwpmc_md_failed(pm->sysev))
		WRITE_ONCE(pm->unsched, true);
	hwpmc_md_release(pm->sysev);
	pm->sysev = ev;
	pm->sysgen = gen;
	return 0;
}

/* A system PMC's CPU must be online for START and STOP (hwpmc(4)). */
static int hwpmc_sys_ready(struct hwpmc_pmc *pm)
{
	return hwpmc_check_cpu(pm->cpu) ?: hwpmc_sys_refresh(pm);
}

/*
 * The caller's PMC of this id: ESRCH when the caller owns no PMC at all,
 * EINVAL when it owns none of this id (hwpmc(4)).
 */
static int hwpmc_pmc_find(u32 id, struct hwpmc_pmc **pmp)
{
	struct hwpmc_owner *po = hwpmc_owner_current();
	struct hwpmc_pmc *pm;

	if (!po)
		return -ESRCH;
	list_for_each_entry(pm, &po->pmcs, link) {
		if (pm->id == id) {
			*pmp = pm;
			return 0;
		}
	}
	return -EINVAL;
}

/* The caller's process-scope PMC of this id (EINVAL for a system one). */
static int hwpmc_pmc_find_process(u32 id, struct hwpmc_pmc **pmp)
{
	int error = hwpmc_pmc_find(id, pmp);

	if (!error && PMC_IS_SYSTEM_MODE((*pmp)->mode))
		error = -EINVAL;
	return error;
}

/* -- operations ---------------------------------------------------------- */

/*
 * CAP_PERFMON (or CAP_SYS_ADMIN), as perfmon_capable(), for a check whose
 * failure is no error but a restriction: no audit record of a denial.
 */
static bool hwpmc_perfmon_noaudit(void)
{
	return ns_capable_noaudit(&init_user_ns, CAP_PERFMON) ||
	       ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN);
}

/*
 * PMCALLOCATE.  evname names the event in the PMC's log records where
 * its code does not (the PERF class, raw PMU events); "" leaves the
 * module's name.
 */
int hwpmc_pmc_allocate(struct file *file, struct pmc_op_pmcallocate *pa,
		       const char *evname)
{
	const struct hwpmc_class *cl = hwpmc_class_find(pa->pm_class);
	const struct hwpmc_event *ev = cl ? hwpmc_event_find(cl, pa->pm_ev) :
					    NULL;
	bool priv = hwpmc_perfmon_noaudit(), kernel_rows = false;
	struct hwpmc_alloc_facts facts = {
		.ncpu = nr_cpu_ids,
		.cpu_online = pa->pm_cpu < nr_cpu_ids &&
			      cpu_online(pa->pm_cpu),
		.may_system = READ_ONCE(hwpmc_unprivileged_syspmcs) || priv,
		.perfmon = priv,
		.have_event = !!ev,
		.ev_caps = ev ? ev->caps : 0,
		.may_kernel = READ_ONCE(hwpmc_unprivileged_kernel) || priv,
		.stack_max = hwpmc_maxstackuser,
	};
	char kname[PMC_NAME_MAX] = "";
	enum hwpmc_alloc_check check;
	struct hwpmc_owner *po;
	struct hwpmc_pmc *pm, *other;
	u32 mode = pa->pm_mode, ri;
	int cpu, error;

	/* hwpmc(4)'s checks, in its order: include/hwpmc_allocate.h */
	check = hwpmc_alloc_check(pa, &facts);
	if (check == HWPMC_ALLOC_PERF_PROBE) {
		/* a PERF-class type: what kind of PMU, perf says */
		facts.perf_pmu = hwpmc_md_perf_probe(&pa->pm_md.pm_pmu,
			PMC_IS_SYSTEM_MODE(mode) ? (int)pa->pm_cpu : -1,
			&facts.ev_caps, &facts.perf_cpu_absent, kname,
			sizeof(kname));
		check = hwpmc_alloc_check(pa, &facts);
	}
	if (check == HWPMC_ALLOC_SYSTEM_PRIV ||
	    check == HWPMC_ALLOC_KERNEL_PRIV)
		perfmon_capable();	/* the denial's audit record */
	if (check != HWPMC_ALLOC_OK)
		return -hwpmc_alloc_errno(check);
	cpu = PMC_IS_VIRTUAL_MODE(mode) ? -1 : (int)pa->pm_cpu;

	pm = kzalloc(sizeof(*pm), GFP_KERNEL);
	if (!pm)
		return -ENOMEM;
	error = hwpmc_md_attr(ev, pa->pm_caps, &pa->pm_md.pm_pmu, &pm->attr);
	if (error)
		goto fail;
	/*
	 * What perf would refuse an unprivileged creator, which it cannot
	 * check itself for counters a kernel worker creates (counter sets,
	 * system PMCs): privileged raw bits (x86's AnyThread), and the
	 * hypervisor's mode (arm64's EL2 filter) with kernel mode.  A
	 * second core PMU's configuration is a raw one of the same
	 * architecture (cpu_atom, a big.LITTLE PMU): the same rules.
	 */
	if (ev->code == PMC_EV_PMU_RAW ||
	    facts.perf_pmu == HWPMC_PERF_PMU_HETERO) {
		error = hwpmc_md_raw_check(&pm->attr);
		if (error == -EPERM && hwpmc_perfmon_noaudit())
			error = 0;
		if (error)
			goto fail;
	}
	pm->file = file;
	pm->serial = atomic64_inc_return(&hwpmc_pmc_serial);
	INIT_LIST_HEAD(&pm->slots);
	INIT_LIST_HEAD(&pm->sslink);
	pm->event = ev;
	if (evname[0] && (ev->code == PMC_EV_PERF ||
			  ev->code == PMC_EV_PMU_RAW))
		strscpy(pm->evname, evname, sizeof(pm->evname));
	else
		strscpy(pm->evname, kname[0] ? kname : ev->name,
			sizeof(pm->evname));
	pm->mode = mode;
	pm->flags = pa->pm_flags;
	pm->stacksize = pa->pm_stacksize;
	pm->caps = pa->pm_caps | PMC_CAP_READ | PMC_CAP_WRITE;
	pm->state = PMC_STATE_ALLOCATED;
	pm->cpu = cpu;
	pm->uid = current_uid();
	pm->privileged = priv;
	pm->some_cpus = facts.perf_pmu == HWPMC_PERF_PMU_HETERO;
	pm->hv = pm->some_cpus && (facts.ev_caps & PMC_CAP_SYSTEM);
	if (PMC_IS_SAMPLING_MODE(mode)) {
		/* the reload count; hwpmc(4): at least mincount */
		pm->reload = max_t(u64, pa->pm_count,
				   READ_ONCE(hwpmc_mincount));
		pm->caps |= PMC_CAP_INTERRUPT;
	} else {
		pm->value = pa->pm_count;
	}
	hwpmc_md_attr_pmc(&pm->attr, mode, pm->reload,
			  pm->privileged, pm->hv);
	if (hwpmc_pmc_thread(pm))
		hwpmc_md_attr_thread(&pm->attr);
	error = hwpmc_targets_init(pm);
	if (error)
		goto fail;

	down_write(&hwpmc_sx);
	po = hwpmc_owner_get();
	if (!po) {
		error = -ENOMEM;
		goto fail_locked;
	}
	/*
	 * The first usable row: free for this scope, not used by the owner,
	 * and none where the caller is a target already, so that its attach
	 * to itself finds the row free (FreeBSD's
	 * pmc_can_allocate_rowindex()); for a PMC_F_THREAD PMC, where the
	 * calling thread is.  (An owner's PMCs never share a row: the row
	 * is part of the PMC's id.)
	 */
	for (ri = cl->first_row; ri < cl->first_row + cl->num; ri++) {
		bool mine = false, thr = pa->pm_flags & PMC_F_THREAD;

		if (hwpmc_row_kernel(ri)) {
			kernel_rows = true;	/* pmc(9)'s: no share */
			continue;
		}

		list_for_each_entry(other, &po->pmcs, link)
			mine |= other->ri == ri &&
				(PMC_IS_VIRTUAL_MODE(other->mode) ||
				 PMC_IS_VIRTUAL_MODE(mode) || other->cpu == cpu);
		if (mine || hwpmc_row_target_of(task_tgid(current),
						thr ? task_pid(current) : NULL,
						ri))
			continue;
		if (PMC_IS_VIRTUAL_MODE(mode) ? hwpmc_row_can_thread(ri) :
		    hwpmc_row_can_system(cpu, ri))
			break;
	}
	if (ri == cl->first_row + cl->num) {
		/* no row for it; EBUSY where kernel code holds one */
		error = kernel_rows ? -EBUSY : -EINVAL;
		goto fail_owner;
	}
	pm->owner = po;
	error = hwpmc_vpmc_use(pm, true);
	if (error)
		goto fail_owner;
	if (PMC_IS_SYSTEM_MODE(mode)) {
		pm->sysgen = hwpmc_cpu_gen_read(cpu);
		pm->sysev = hwpmc_md_create(&pm->attr, cpu, NULL, pm);
		if (IS_ERR(pm->sysev)) {
			error = PTR_ERR(pm->sysev);
			if (error == -ENODEV)
				error = -ENXIO;	/* the CPU went away */
			goto fail_owner;	/* system: no PROCCSW to undo */
		}
	}
	pm->ri = ri;
	pm->owner = po;
	pm->id = PMC_ID_MAKE_ID(PMC_IS_VIRTUAL_MODE(mode) ? PMC_CPU_ANY : cpu,
				mode, cl->class, ri);
	hwpmc_row_take(pm, mode, cpu, ri);
	list_add_tail(&pm->link, &po->pmcs);
	pa->pm_pmcid = pm->id;
	if (po->log)
		hwpmc_rec_pmcallocate(po->log, pm);
	up_write(&hwpmc_sx);
	return 0;

fail_owner:
	hwpmc_owner_put_if_idle(po);
fail_locked:
	up_write(&hwpmc_sx);
	hwpmc_targets_fini(pm);
fail:
	kfree(pm);
	return error;
}

int hwpmc_pmc_attach(u32 id, pid_t pid)
{
	struct hwpmc_pmc *pm;
	int error;

	if (pid < 0)
		return -EINVAL;
	down_write(&hwpmc_sx);
	error = hwpmc_pmc_find_process(id, &pm);
	if (!error && pm->state == PMC_STATE_RUNNING)
		error = -EBUSY;
	if (!error)
		error = hwpmc_do_attach(pm, pid);
	up_write(&hwpmc_sx);
	return error;
}

/*
 * PMCDETACH of a PMC_F_THREAD PMC: thread nr (0: the calling thread),
 * ESRCH if it is none of pm's targets.  Its count stays in pm.
 */
static int hwpmc_pmc_detach_thread(struct hwpmc_pmc *pm, pid_t nr)
{
	struct hwpmc_target *pt;
	struct pid *thread, *tgid;

	lockdep_assert_held_write(&hwpmc_sx);
	thread = nr ? find_get_pid(nr) : get_pid(task_pid(current));
	if (!thread)
		return -ESRCH;
	pt = hwpmc_target_find_thread(pm, thread);
	put_pid(thread);
	if (!pt)
		return -ESRCH;
	tgid = get_pid(pt->tgid);
	hwpmc_target_free(pm, pt);
	hwpmc_pmc_detached(pm, tgid);
	hwpmc_targets_gone(pm);
	put_pid(tgid);
	return 0;
}

int hwpmc_pmc_detach(u32 id, pid_t nr)
{
	struct hwpmc_target *pt;
	struct hwpmc_pmc *pm;
	struct pid *tgid;
	int error;

	if (nr < 0)
		return -EINVAL;
	down_write(&hwpmc_sx);
	error = hwpmc_pmc_find_process(id, &pm);
	if (error)
		goto out;
	if (hwpmc_pmc_thread(pm)) {
		error = hwpmc_pmc_detach_thread(pm, nr);
		goto out;
	}
	tgid = nr ? find_get_pid(nr) : get_pid(task_tgid(current));
	if (!tgid) {
		error = -ESRCH;
		goto out;
	}
	pt = hwpmc_target_find(pm, tgid);
	if (pt && (pm->flags & PMC_F_DESCENDANTS))
		error = hwpmc_detach_descendants(pm, pt);
	if (pt && !error) {
		/* and the root's, those born since the attach, orphans too */
		if ((pm->flags & PMC_F_DESCENDANTS) && !pt->descendant &&
		    hwpmc_pmc_virtual(pm))
			pm->value += hwpmc_vpmc_remove(pm, pt->gen, NULL, 0);
		hwpmc_target_free(pm, pt);
		hwpmc_pmc_detached(pm, tgid);
		hwpmc_targets_gone(pm);
	} else if (!pt) {
		/*
		 * ESRCH: monitored by none of the caller's PMCs; EINVAL: by
		 * another of them.  (Other owners' PMCs are not looked at:
		 * whether someone else monitors a process is not told.)
		 */
		error = hwpmc_owner_targets(pm->owner, tgid) ? -EINVAL : -ESRCH;
	}
	put_pid(tgid);
out:
	up_write(&hwpmc_sx);
	return error;
}

/*
 * May pm (a counting process PMC, not started yet) make a counter set?
 * Its hardware counters are pinned on every CPU for the PMC's life, so
 * the counter sets that PMCs of an owner without CAP_PERFMON hold are
 * limited per user (tunable unprivileged_counters): EBUSY beyond it.
 * A set the user holds already is shared at no cost.
 */
static int hwpmc_counters_check(struct hwpmc_pmc *pm)
{
	const struct hwpmc_cset *held[HWPMC_COUNTERS_MAX];
	int max = READ_ONCE(hwpmc_unprivileged_counters), n = 0, i;
	bool full = false;
	struct hwpmc_owner *po;
	struct hwpmc_pmc *o;
	unsigned int b;

	lockdep_assert_held_write(&hwpmc_sx);
	if (pm->privileged || hwpmc_md_soft(&pm->attr))
		return 0;
	for (b = 0; b < (1U << hwpmc_hashbits); b++)
		hlist_for_each_entry(po, &hwpmc_ownerhash[b], link)
			list_for_each_entry(o, &po->pmcs, link) {
				if (!o->cset || o->privileged ||
				    !uid_eq(o->uid, pm->uid))
					continue;
				if (!memcmp(&o->attr, &pm->attr,
					    sizeof(pm->attr)))
					return 0;	/* shared */
				for (i = 0; i < n && held[i] != o->cset; i++)
					;
				if (i < n)
					continue;
				if (n < max)
					held[n] = o->cset;
				else
					full = true;	/* max was lowered */
				n += n < max;
			}
	return n < max && !full ? 0 : -EBUSY;
}

int hwpmc_pmc_start(u32 id)
{
	struct hwpmc_target *pt;
	struct hwpmc_pmc *pm;
	bool failed;
	int error;

	down_write(&hwpmc_sx);
	error = hwpmc_pmc_find(id, &pm);
	if (!error && pm->sysev)
		error = hwpmc_sys_ready(pm);
	if (error || pm->state == PMC_STATE_RUNNING)
		goto out;
	if (((pm->flags & HWPMC_F_NEEDS_LOG) ||
	     (PMC_IS_SAMPLING_MODE(pm->mode) &&
	      !(pm->flags & PMC_F_NOTIFY))) && !pm->owner->log) {
		error = -EDESTADDRREQ;		/* FreeBSD's EDOOFUS: no log */
		goto out;
	}
	if (pm->sysev) {
		if (pm->mode == PMC_MODE_SS) {
			/*
			 * On the list first, so that the hooks log what is
			 * born during the walks; the walks once while the
			 * owner has system samplers running.
			 */
			list_add_tail_rcu(&pm->sslink, &hwpmc_ss_pmcs);
			if (!pm->owner->nss++)
				hwpmc_owner_snapshot(pm->owner);
		}
		pm->sysbase = hwpmc_md_read_off(pm->sysev);
		pm->trunbase = hwpmc_md_running(pm->sysev);
		pm->tstart = ktime_get_ns();
		hwpmc_md_start(pm->sysev);
		/*
		 * A CPU's counter is scheduled at once, or not at all: a
		 * counting one counts nothing (its times say so, its plain
		 * reads ENODATA), a sampling one takes no sample: EBUSY.
		 */
		failed = hwpmc_md_failed(pm->sysev);
		if (failed && pm->mode == PMC_MODE_SC) {
			WRITE_ONCE(pm->unsched, true);
		} else if (failed) {
			hwpmc_md_stop(pm->sysev);
			if (pm->mode == PMC_MODE_SS) {
				list_del_rcu(&pm->sslink);
				pm->owner->nss--;
				synchronize_rcu();
			}
			error = -EBUSY;
			goto out;
		}
	} else {
		if (list_empty(&pm->targets)) {
			/*
			 * Unattached: attach to the owner, unless it was
			 * attached before and lost its targets.
			 */
			error = pm->had_targets ? -ESRCH :
				hwpmc_do_attach(pm, 0);
			if (error)
				goto out;
		}
		if (hwpmc_pmc_virtual(pm)) {
			error = pm->cset ? 0 : hwpmc_counters_check(pm);
			if (!error)
				error = hwpmc_vpmc_start(pm);
			if (error)
				goto out;
		} else {
			/* PMC_F_NOTIFY: a signal for the next overflow */
			atomic_set(&pm->notify, 1);
			list_for_each_entry(pt, &pm->targets, link)
				hwpmc_target_start(pt);
		}
	}
	pm->state = PMC_STATE_RUNNING;
out:
	up_write(&hwpmc_sx);
	return error;
}

int hwpmc_pmc_stop(u32 id)
{
	struct hwpmc_pmc *pm;
	int error;

	down_write(&hwpmc_sx);
	error = hwpmc_pmc_find(id, &pm);
	if (!error && pm->sysev)
		error = hwpmc_sys_ready(pm);
	if (!error)
		hwpmc_pmc_halt(pm);
	up_write(&hwpmc_sx);
	return error;
}

/*
 * A read only looks: hwpmc_sx for reading, so that reads of different
 * owners (and threads of one) do not serialise, unless a system PMC's
 * counter must first be given back to its CPU (hwpmc_sys_refresh()).
 */
static int hwpmc_pmc_read(u32 id, u64 *value)
{
	struct hwpmc_pmc *pm;
	int error;

	down_read(&hwpmc_sx);
	error = hwpmc_pmc_find(id, &pm);
	if (!error && pm->sysev &&
	    hwpmc_cpu_gen_read(pm->cpu) != pm->sysgen)
		error = -EAGAIN;
	else if (!error && hwpmc_pmc_unscheduled(pm))
		error = -ENODATA;
	else if (!error)
		*value = hwpmc_pmc_value(pm);
	up_read(&hwpmc_sx);
	return error;
}

int hwpmc_pmc_rw(u32 id, u32 flags, u64 *value)
{
	struct hwpmc_pmc *pm;
	u64 old;
	int error;

	if (!flags || (flags & ~(PMC_F_OLDVALUE | PMC_F_NEWVALUE)))
		return -EINVAL;
	if (flags == PMC_F_OLDVALUE) {
		error = hwpmc_pmc_read(id, value);
		if (error != -EAGAIN)
			return error;
	}
	down_write(&hwpmc_sx);
	error = hwpmc_pmc_find(id, &pm);
	if (error)
		goto out;
	if ((flags & PMC_F_NEWVALUE) && pm->state == PMC_STATE_RUNNING) {
		error = -EBUSY;
		goto out;
	}
	if (pm->sysev)
		hwpmc_sys_refresh(pm);	/* offline: the count stands still */
	if ((flags & PMC_F_OLDVALUE) && hwpmc_pmc_unscheduled(pm)) {
		error = -ENODATA;	/* nothing written either */
		goto out;
	}
	old = hwpmc_pmc_value(pm);
	if (flags & PMC_F_NEWVALUE) {
		pm->value = *value;
		WRITE_ONCE(pm->unsched, false);	/* a new count starts */
		pm->tenabled = 0;
		pm->trunning = 0;
		pm->tpartial = false;
	}
	*value = old;
out:
	up_write(&hwpmc_sx);
	return error;
}

/*
 * The times of a system PMC's count (hwpmc_sx held): enabled, the wall
 * time it was started; running, perf's time_running of its counter when
 * the count is partial (its CPU went offline, or perf took the counter
 * off the PMU), else the enabled time (the two clocks differ by the
 * start's and stop's cross-calls: a whole count is not made partial).
 */
static void hwpmc_sys_times(struct hwpmc_pmc *pm, u64 *enabled, u64 *running)
{
	bool partial = pm->tpartial || READ_ONCE(pm->unsched);

	lockdep_assert_held(&hwpmc_sx);
	*enabled = pm->tenabled;
	*running = pm->trunning;
	if (pm->state == PMC_STATE_RUNNING) {
		*enabled += ktime_get_ns() - pm->tstart;
		*running += hwpmc_md_running(pm->sysev) - pm->trunbase;
	}
	if (!partial || *running > *enabled)
		*running = *enabled;
}

/*
 * The count of a counting process PMC with its times (hwpmc_sx held): the
 * slots' (hwpmc_csw.c), its targets' time on a CPU while it ran, and of
 * it the time their CPU's counter was on the PMU.
 */
static void hwpmc_vpmc_times(const struct hwpmc_pmc *pm, u64 *value,
			     u64 *enabled, u64 *running)
{
	u64 en = 0, run = 0;

	lockdep_assert_held(&hwpmc_sx);
	*value = pm->value;
	if (pm->state == PMC_STATE_RUNNING)
		*value += hwpmc_vpmc_read_times(pm, &en, &run);
	*enabled = pm->tenabled + en;
	*running = min(pm->trunning + run, *enabled);
}

/*
 * PMCRW_TIMES: the value with its times (decisions 31, 33).  A partial
 * count of a system PMC or a counting process PMC is no error: its times
 * say so; a sampling process PMC's count that perf could not always
 * schedule is ENODATA, as PMCRW's (perf's times stop there).
 */
int hwpmc_pmc_rw_times(u32 id, u64 *value, u64 *enabled, u64 *running,
		       u32 *tflags)
{
	struct hwpmc_pmc *pm;
	bool unsched;
	int error;

	*enabled = 0;
	*running = 0;
	*tflags = 0;
	/* process PMCs: a shared lock, as PMCRW's read */
	down_read(&hwpmc_sx);
	error = hwpmc_pmc_find(id, &pm);
	if (!error && hwpmc_pmc_virtual(pm)) {
		/* a shared lock: the slots are read where their threads run */
		hwpmc_vpmc_times(pm, value, enabled, running);
		*tflags = PMC_RWT_TIMES;
	} else if (!error && !pm->sysev) {
		if (hwpmc_pmc_unscheduled(pm)) {
			error = -ENODATA;
		} else {
			hwpmc_pmc_smp_times(pm, value, enabled, running);
			*tflags = PMC_RWT_TIMES;
		}
	}
	up_read(&hwpmc_sx);
	if (error || *tflags)
		return error;
	/*
	 * system PMCs: their counter may be given back to their CPU (a PMC
	 * of the same id may be new here: a process PMC's is read without
	 * times then)
	 */
	down_write(&hwpmc_sx);
	error = hwpmc_pmc_find(id, &pm);
	if (error)
		goto out;
	if (pm->sysev) {
		hwpmc_sys_refresh(pm);	/* offline: the count stands still */
		/* still offline: its counter stopped there */
		if (pm->state == PMC_STATE_RUNNING &&
		    hwpmc_cpu_gen_read(pm->cpu) != pm->sysgen)
			pm->tpartial = true;
	}
	unsched = hwpmc_pmc_unscheduled(pm);
	if (pm->sysev) {
		hwpmc_sys_times(pm, enabled, running);
		*tflags = PMC_RWT_TIMES;
	} else if (unsched) {
		error = -ENODATA;
		goto out;
	}
	*value = hwpmc_pmc_value(pm);
out:
	up_write(&hwpmc_sx);
	return error;
}

/* A sampling PMC's reload count, at least mincount; hwpmc_sx held. */
static int hwpmc_set_period(struct hwpmc_pmc *pm, u64 count)
{
	struct hwpmc_target *pt;
	int error = 0;
	u32 i;

	lockdep_assert_held(&hwpmc_sx);
	if (count > HWPMC_ALLOC_PERIOD_MAX)
		return -EINVAL;
	count = max_t(u64, count, READ_ONCE(hwpmc_mincount));
	if (pm->sysev)
		error = hwpmc_md_set_period(pm->sysev, count);
	list_for_each_entry(pt, &pm->targets, link)
		for (i = 0; !error && i < pt->nev; i++)
			error = hwpmc_md_set_period(pt->ev[i], count);
	if (!error) {
		pm->reload = count;
		/* for the counters of targets attached from now */
		hwpmc_md_attr_pmc(&pm->attr, pm->mode, count,
				  pm->privileged, pm->hv);
		if (hwpmc_pmc_thread(pm))
			hwpmc_md_attr_thread(&pm->attr);
	}
	return error;
}

/*
 * Counting PMCs: the value counting continues from; sampling PMCs: the
 * reload count (hwpmc.4).
 */
int hwpmc_pmc_setcount(u32 id, u64 count)
{
	struct hwpmc_pmc *pm;
	int error;

	down_write(&hwpmc_sx);
	error = hwpmc_pmc_find(id, &pm);
	if (!error && pm->state == PMC_STATE_RUNNING)
		error = -EBUSY;
	if (!error && PMC_IS_SAMPLING_MODE(pm->mode))
		error = hwpmc_set_period(pm, count);
	else if (!error)
		pm->value = count;
	up_write(&hwpmc_sx);
	return error;
}

int hwpmc_pmc_caps(u32 id, u32 *caps)
{
	struct hwpmc_pmc *pm;
	int error;

	down_read(&hwpmc_sx);
	error = hwpmc_pmc_find(id, &pm);
	if (!error)
		*caps = pm->caps;
	up_read(&hwpmc_sx);
	return error;
}

/*
 * PMCGETMSR (docs/design.md, decision 25): FreeBSD's checks, a counting
 * process PMC of a hardware event, without PMC_F_DESCENDANTS, whose only
 * target is its owner's process (EINVAL otherwise); then EOPNOTSUPP for
 * such a PMC: perf owns the counters, and the module cannot let a thread
 * read one in user space safely.
 */
int hwpmc_pmc_getmsr(u32 id)
{
	struct hwpmc_target *pt;
	struct hwpmc_pmc *pm;
	int error;

	down_read(&hwpmc_sx);
	error = hwpmc_pmc_find(id, &pm);
	if (error)
		goto out;
	error = -EINVAL;
	if (pm->mode != PMC_MODE_TC || (pm->flags & PMC_F_DESCENDANTS) ||
	    hwpmc_md_soft(&pm->attr) || !list_is_singular(&pm->targets))
		goto out;
	pt = list_first_entry(&pm->targets, struct hwpmc_target, link);
	if (pt->tgid != pm->owner->tgid || pt->exited || pt->leaving)
		goto out;
	error = -EOPNOTSUPP;
out:
	up_read(&hwpmc_sx);
	return error;
}

int hwpmc_pmc_release(u32 id)
{
	struct hwpmc_pmc *pm;
	int error;

	struct hwpmc_owner *po;

	down_write(&hwpmc_sx);
	error = hwpmc_pmc_find(id, &pm);
	if (!error) {
		po = pm->owner;
		hwpmc_pmc_free(pm);
		hwpmc_owner_put_if_idle(po);
	}
	up_write(&hwpmc_sx);
	return error;
}

/* Release every PMC allocated through file (or every PMC: file NULL). */
static void hwpmc_pmc_free_all(struct file *file)
{
	struct hwpmc_owner *po;
	struct hwpmc_pmc *pm, *tmp;
	struct hlist_node *n;
	unsigned int b;

	for (b = 0; b < (1U << hwpmc_hashbits); b++)
		hlist_for_each_entry_safe(po, n, &hwpmc_ownerhash[b], link) {
			list_for_each_entry_safe(pm, tmp, &po->pmcs, link)
				if (!file || pm->file == file)
					hwpmc_pmc_free(pm);
			if (!file || po->logdev == file)
				hwpmc_owner_closelog(po);
			hwpmc_owner_put_if_idle(po);
		}
}

void hwpmc_pmc_file_release(struct file *file)
{
	down_write(&hwpmc_sx);
	hwpmc_pmc_free_all(file);
	up_write(&hwpmc_sx);
}

/* -- log operations --------------------------------------------------------- */

/*
 * The log lg of po becomes the kernel's profiles' (PMC_LOG_KERNEL_PROFILES):
 * the PMCALLOCATE of each running profile, then the kernel's mappings,
 * unless the snapshot gave them; their samples follow.  The log is
 * published before the walk of the modules, as a system sampler's PMC
 * is listed before its snapshot: a module coming meanwhile is told by
 * the module notifier (which reads the log without hwpmc_sx), or by the
 * walk, or by both (a second MAP_IN of the same module is harmless).
 */
static void hwpmc_kprof_configure(struct hwpmc_owner *po, struct hwpmc_log *lg)
{
	struct hwpmc_pmc *pm;

	lockdep_assert_held_write(&hwpmc_sx);
	list_for_each_entry(pm, &hwpmc_kprof_pmcs, sslink)
		hwpmc_rec_pmcallocate(lg, pm);
	po->kprof = true;
	WRITE_ONCE(hwpmc_kprof.log, lg);
	if (!po->nss)
		hwpmc_hooks_kernel_maps(lg);
}

/*
 * CONFIGURELOG: fd >= 0 gives the caller a log writing to fd (EBUSY when
 * it has one); fd < 0 closes it.  PMCALLOCATE records of the owner's
 * PMCs follow INITIALIZE, and PMCATTACH of their targets.  With
 * PMC_LOG_KERNEL_PROFILES the log also takes the kernel's profiles, for
 * a caller with CAP_PERFMON that may see kernel addresses (EPERM), one
 * log at a time (EBUSY).
 */
int hwpmc_pmc_configurelog(struct file *file, int fd, u32 flags)
{
	struct hwpmc_owner *po;
	struct hwpmc_pmc *pm;
	struct hwpmc_target *pt, *tmp;
	struct hwpmc_log *lg;
	struct task_struct *p;
	bool gone;
	int error = 0;

	down_write(&hwpmc_sx);
	po = hwpmc_owner_current();
	if (fd < 0) {
		up_write(&hwpmc_sx);
		return hwpmc_pmc_closelog();
	}
	if (po && po->log) {
		error = -EBUSY;
		goto out;
	}
	if (flags & PMC_LOG_KERNEL_PROFILES) {
		/* a system-wide kernel sampler's privilege, kernel addresses */
		if (!perfmon_capable() || !hwpmc_kaddrs_visible())
			error = -EPERM;
		else if (hwpmc_kprof.log)
			error = -EBUSY;
		if (error)
			goto out;
	}
	lg = hwpmc_log_open(fd, file);
	if (IS_ERR(lg)) {
		error = PTR_ERR(lg);
		goto out;
	}
	po = hwpmc_owner_get();
	if (!po) {
		hwpmc_log_close(lg);
		error = -ENOMEM;
		goto out;
	}
	WRITE_ONCE(po->log, lg);
	po->logdev = file;
	if (po->nss)		/* system samplers run on into this log */
		hwpmc_owner_snapshot(po);
	if (flags & PMC_LOG_KERNEL_PROFILES)
		hwpmc_kprof_configure(po, lg);
	list_for_each_entry(pm, &po->pmcs, link) {
		hwpmc_rec_pmcallocate(lg, pm);
		gone = false;
		list_for_each_entry_safe(pt, tmp, &pm->targets, link) {
			p = get_pid_task(pt->tgid, PIDTYPE_TGID);
			if (!p)
				continue;
			gone |= hwpmc_log_target(pm, pt, p);
			put_task_struct(p);
		}
		if (gone)
			hwpmc_targets_gone(pm);
	}
out:
	up_write(&hwpmc_sx);
	return error;
}

/* A CPU came online: counters there for the counting process PMCs. */
static void hwpmc_cpu_online_fn(struct work_struct *work)
{
	down_write(&hwpmc_sx);
	hwpmc_csets_refresh();
	up_write(&hwpmc_sx);
}

void hwpmc_pmc_fini(void)
{
	cpuhp_remove_state_nocalls(hwpmc_cpuhp_state);
	flush_work(&hwpmc_cpu_online_work);
	/* open files pin the module, so nothing should be left */
	down_write(&hwpmc_sx);
	hwpmc_pmc_free_all(NULL);
	up_write(&hwpmc_sx);
	hwpmc_owner_fini();
}

/* Does one of pm's target threads run on cpu now? */
static bool hwpmc_pmc_on_cpu(struct hwpmc_pmc *pm, int cpu)
{
	const struct hwpmc_target *pt;
	u32 i;

	if (hwpmc_pmc_virtual(pm))
		return hwpmc_vpmc_on_cpu(pm, cpu);
	list_for_each_entry(pt, &pm->targets, link)
		for (i = 0; i < pt->nev; i++)
			if (hwpmc_md_on_cpu(pt->ev[i], cpu))
				return true;
	return false;
}

/*
 * GETPMCINFO of the THREAD rows among pi[0..n), as FreeBSD's: the running
 * process PMC of the row whose target thread runs on cpu at this moment
 * (FreeBSD shows the PMC its switch-in loaded into the row); nothing,
 * owner -1, when none does.  One pass over the PMCs; hwpmc_sx held.
 */
void hwpmc_describe_thread_rows(int cpu, struct pmc_info *pi, u32 n)
{
	struct pid *self = task_tgid(current);
	bool all = hwpmc_perfmon_noaudit();
	struct hwpmc_owner *po;
	struct hwpmc_pmc *pm;
	unsigned int b;

	lockdep_assert_held(&hwpmc_sx);
	for (b = 0; b < (1U << hwpmc_hashbits); b++) {
		hlist_for_each_entry(po, &hwpmc_ownerhash[b], link) {
			/*
			 * Without CAP_PERFMON, only the caller's own PMCs:
			 * when another user's target runs where is theirs.
			 */
			if (!all && po->tgid != self)
				continue;
			list_for_each_entry(pm, &po->pmcs, link) {
				if (pm->ri < n && !pm->sysev &&
				    pi[pm->ri].pm_rowdisp == PMC_DISP_THREAD &&
				    pi[pm->ri].pm_ownerpid == -1 &&
				    pm->state == PMC_STATE_RUNNING &&
				    hwpmc_pmc_on_cpu(pm, cpu))
					hwpmc_pmc_describe(pm, &pi[pm->ri]);
				cond_resched();
			}
		}
	}
}

/* GETPMCINFO of a slot a system-scope PMC holds; hwpmc_sx held. */
void hwpmc_pmc_describe(const struct hwpmc_pmc *pm, struct pmc_info *pi)
{
	lockdep_assert_held(&hwpmc_sx);

	pi->pm_ownerpid = pid_vnr(pm->owner->tgid);
	pi->pm_mode = pm->mode;
	pi->pm_event = pm->event->code;
	pi->pm_flags = pm->flags;
	if (PMC_IS_SAMPLING_MODE(pm->mode))
		pi->pm_reloadcount = pm->reload;
}
