// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: owners.  An owner is a process (thread group) that
 * allocated a PMC; owners are found in a hash keyed by the process's
 * struct pid, so PMC ids are per owner: another process cannot name them.
 * Here: the hash, finding the caller's owner, letting an idle one go, and
 * the owner's log (FLUSHLOG, CLOSELOG, WRITELOG).  Making an owner and
 * releasing one free PMCs and targets: hwpmc_target.c.
 */
#define pr_fmt(fmt) "hwpmc: " fmt

#include <linux/kernel.h>
#include <linux/capability.h>
#include <linux/hash.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/hwpmclog.h>

#include "hwpmc_internal.h"
#include "hwpmc_owner.h"
#include "hwpmc_hooks.h"
#include "hwpmc_watch.h"
#include "hwpmc_sample.h"
#include "hwpmc_records.h"
#include "hwpmc_log.h"

struct hlist_head *hwpmc_ownerhash;
unsigned int hwpmc_hashbits;

int hwpmc_owner_init(void)
{
	unsigned int i, n;

	hwpmc_hashbits = ilog2(roundup_pow_of_two(hwpmc_hashsize));
	n = 1U << hwpmc_hashbits;
	hwpmc_ownerhash = kvcalloc(n, sizeof(*hwpmc_ownerhash), GFP_KERNEL);
	if (!hwpmc_ownerhash)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		INIT_HLIST_HEAD(&hwpmc_ownerhash[i]);
	return 0;
}

void hwpmc_owner_fini(void)
{
	kvfree(hwpmc_ownerhash);
	hwpmc_ownerhash = NULL;
}

struct hwpmc_owner *hwpmc_owner_find(struct pid *tgid)
{
	struct hwpmc_owner *po;

	hlist_for_each_entry(po, &hwpmc_ownerhash[hash_ptr(tgid,
			     hwpmc_hashbits)], link)
		if (po->tgid == tgid)
			return po;
	return NULL;
}

/*
 * The caller's owner, or NULL.  One made before the caller's last exec
 * is none: its PMCs and log are the old image's, which the lifecycle
 * work (or the caller's next allocation) releases.
 */
struct hwpmc_owner *hwpmc_owner_current(void)
{
	struct hwpmc_owner *po = hwpmc_owner_find(task_tgid(current));

	lockdep_assert_held(&hwpmc_sx);
	if (po && po->exec_id != READ_ONCE(current->self_exec_id))
		return NULL;
	return po;
}

void hwpmc_owner_put_if_idle(struct hwpmc_owner *po)
{
	if (!list_empty(&po->pmcs) || po->log)
		return;
	hlist_del(&po->link);
	hwpmc_watch_put(po->tgid);
	put_pid(po->tgid);
	kfree_rcu(po, rcu);
	atomic_dec(&hwpmc_active);
}

/* The owner's log goes (hwpmc_sx held for writing). */
void hwpmc_owner_closelog(struct hwpmc_owner *po)
{
	struct hwpmc_log *lg = po->log;

	lockdep_assert_held_write(&hwpmc_sx);
	if (!lg)
		return;
	if (po->kprof) {
		/*
		 * The profiles' samples taken so far into this log; those
		 * still in the rings once it is unpublished are dropped, not
		 * left for the next profiles log (hwpmc_sx keeps it away).
		 */
		hwpmc_sample_drain();
		WRITE_ONCE(hwpmc_kprof.log, NULL);
		po->kprof = false;
		hwpmc_sample_drain();
	}
	WRITE_ONCE(po->log, NULL);
	po->logdev = NULL;
	hwpmc_log_close(lg);
}

/* pm no longer counts process tgid: PMCDETACH, if its owner has a log. */
void hwpmc_pmc_detached(struct hwpmc_pmc *pm, struct pid *tgid)
{
	if (pm->owner->log)
		hwpmc_rec_pmcdetach(pm->owner->log, pm->id, pid_nr(tgid));
}

/*
 * May the caller see kernel addresses, as /proc/kallsyms would show them
 * to it (kallsyms_show_value(), not exported)?  Never with kptr_restrict
 * 2; at 1 with CAP_SYSLOG (and its real and effective ids equal, as
 * %pK wants); at 0 with CAP_SYSLOG or CAP_PERFMON (perf's rule for
 * kernel profiling).  A member of group hwpmc gets no kernel address.
 * kptr_restrict is not exported either: %pK applies it to the caller,
 * printing zeros where it hides the address.  No audit record.
 */
bool hwpmc_kaddrs_visible(void)
{
	char pk[2 * sizeof(void *) + 1];

	if (!ns_capable_noaudit(&init_user_ns, CAP_SYSLOG) &&
	    !ns_capable_noaudit(&init_user_ns, CAP_PERFMON) &&
	    !ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN))
		return false;
	snprintf(pk, sizeof(pk), "%pK", &hwpmc_sx);
	return strspn(pk, "0") != strlen(pk);
}

/*
 * What a system sampler's log needs of what exists: PROC_CREATE and
 * THR_CREATE of every process and thread, MAP_IN of their executable
 * mappings (FreeBSD's once per owner, here when its first system
 * sampler starts or a log comes while one runs); hwpmc_sx held.
 */
void hwpmc_owner_snapshot(struct hwpmc_owner *po)
{
	lockdep_assert_held_write(&hwpmc_sx);
	if (!po->log)
		return;
	WRITE_ONCE(po->kaddrs, hwpmc_kaddrs_visible());
	hwpmc_rec_all_tasks(po->log);
	hwpmc_rec_all_maps(po->log);
	if (po->kaddrs)
		hwpmc_hooks_kernel_maps(po->log);
}

/* -- log operations --------------------------------------------------------- */

/* The caller's log, referenced, or NULL. */
static struct hwpmc_log *hwpmc_current_log(void)
{
	struct hwpmc_owner *po;
	struct hwpmc_log *lg = NULL;

	po = hwpmc_owner_current();
	if (po && po->log) {
		lg = po->log;
		hwpmc_log_get(lg);
	}
	return lg;
}

/* FLUSHLOG: samples taken so far, then everything, out to the file. */
int hwpmc_pmc_flushlog(void)
{
	struct hwpmc_log *lg;
	int error;

	down_read(&hwpmc_sx);
	lg = hwpmc_current_log();
	if (lg)
		hwpmc_sample_drain();
	up_read(&hwpmc_sx);
	if (!lg)
		return -EINVAL;
	error = hwpmc_log_flush(lg);
	hwpmc_log_put(lg);
	return error;
}

/*
 * CLOSELOG, and CONFIGURELOG with -1: the samples taken so far and a
 * CLOSELOG record go out, and the call returns when the log is written
 * (or a signal comes), with the log's write error if any.
 */
int hwpmc_pmc_closelog(void)
{
	struct hwpmc_owner *po;
	struct hwpmc_log *lg;
	int error;

	down_write(&hwpmc_sx);
	po = hwpmc_owner_current();
	lg = hwpmc_current_log();
	if (lg) {
		hwpmc_sample_drain();
		hwpmc_log_hold_file(lg);
		hwpmc_owner_closelog(po);
		hwpmc_owner_put_if_idle(po);
	}
	up_write(&hwpmc_sx);
	if (!lg)
		return -EINVAL;
	error = hwpmc_log_wait_closed(lg);
	hwpmc_log_put(lg);
	return error;
}

/* WRITELOG: a USERDATA record. */
int hwpmc_pmc_writelog(u32 userdata)
{
	struct hwpmc_owner *po;
	int error;

	down_read(&hwpmc_sx);
	po = hwpmc_owner_current();
	if (!po || !po->log)
		error = -EINVAL;
	else
		error = hwpmc_log_error(po->log) ?:
			hwpmc_rec_userdata(po->log, userdata);
	up_read(&hwpmc_sx);
	return error;
}
