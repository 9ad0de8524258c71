// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: the processes whose exit or exec matters (owners of
 * PMCs and targets of them), and the lifecycle events noted for them.
 *
 * The lifecycle probes (hwpmc_lifecycle.c) run at every exit and exec in
 * the system.  They look the process up here, under RCU, and note an
 * event only for a watched one; the note is kept in the process's entry
 * (bits and the last exec's self_exec_id), so nothing is allocated in
 * the probe and at most one entry per watched process waits for the
 * lifecycle work, however often it execs or however many of its threads
 * see it end: the backlog is bounded by the owners and targets (review
 * M11).
 *
 * An entry is counted (refs): once for an owner, once for each PMC the
 * process is a target of; it is made and dropped under hwpmc_sx held for
 * writing.  state tells the probes and the work who frees it: a dropped
 * entry (DEAD) still queued is freed by the work that takes it, one not
 * queued by the drop.
 */
#define pr_fmt(fmt) "hwpmc: " fmt

#include <linux/kernel.h>
#include <linux/hash.h>
#include <linux/llist.h>
#include <linux/pid.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "hwpmc_internal.h"
#include "hwpmc_watch.h"

atomic_t hwpmc_active = ATOMIC_INIT(0);

#define HWPMC_W_QUEUED	0x1	/* on hwpmc_watch_queue */
#define HWPMC_W_DEAD	0x2	/* off the hash: refs went to 0 */
#define HWPMC_W_EXIT	0x4
#define HWPMC_W_EXEC	0x8
#define HWPMC_W_TEXIT	0x10	/* a PMC_F_THREAD target thread ended */

struct hwpmc_watch {
	struct hlist_node	link;		/* hwpmc_watchhash, RCU */
	struct llist_node	node;		/* hwpmc_watch_queue */
	struct pid		*tgid;
	u32			refs;		/* hwpmc_sx */
	atomic_t		state;		/* HWPMC_W_* */
	u64			exec_id;	/* of the last exec noted */
	struct rcu_head		rcu;
};

static void (*hwpmc_watch_fn)(struct pid *tgid, int what,
			      u64 exec_id);
static void hwpmc_watch_drain(struct work_struct *work);
static DECLARE_WORK(hwpmc_watch_work, hwpmc_watch_drain);

/* sized by the hashsize tunable, as FreeBSD's target hash */
static struct hlist_head *hwpmc_watchhash;
static unsigned int hwpmc_watchbits;
static LLIST_HEAD(hwpmc_watch_queue);

static struct hwpmc_watch *hwpmc_watch_find(struct pid *tgid)
{
	struct hwpmc_watch *w;

	hlist_for_each_entry_rcu(w, &hwpmc_watchhash[hash_ptr(tgid,
				 hwpmc_watchbits)], link,
				 lockdep_is_held(&hwpmc_sx))
		if (w->tgid == tgid)
			return w;
	return NULL;
}

/* tgid is an owner, or a target of one more PMC. */
int hwpmc_watch_get(struct pid *tgid)
{
	struct hwpmc_watch *w;

	lockdep_assert_held_write(&hwpmc_sx);
	w = hwpmc_watch_find(tgid);
	if (w) {
		w->refs++;
		return 0;
	}
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	w->tgid = get_pid(tgid);
	w->refs = 1;
	hlist_add_head_rcu(&w->link,
			   &hwpmc_watchhash[hash_ptr(tgid, hwpmc_watchbits)]);
	return 0;
}

static void hwpmc_watch_free(struct hwpmc_watch *w)
{
	put_pid(w->tgid);
	kfree_rcu(w, rcu);	/* a probe may still look at it */
}

/* ... one less: an owner gone, or a target that left a PMC. */
void hwpmc_watch_put(struct pid *tgid)
{
	struct hwpmc_watch *w;

	lockdep_assert_held_write(&hwpmc_sx);
	w = hwpmc_watch_find(tgid);
	if (WARN_ON_ONCE(!w) || --w->refs)
		return;
	hlist_del_rcu(&w->link);
	if (!(atomic_fetch_or(HWPMC_W_DEAD, &w->state) & HWPMC_W_QUEUED))
		hwpmc_watch_free(w);
	/* else the work that takes it frees it */
}

/*
 * A probe: p's process exec'ed (exec) or ended (also: its last thread
 * with a sampling PMC's slot passed its exit hook).  Any context but NMI.
 */
static void hwpmc_watch_set(struct task_struct *p, int bit)
{
	struct hwpmc_watch *w;
	bool queue = false;
	int old;

	rcu_read_lock();
	w = hwpmc_watch_find(task_tgid(p));
	if (w) {
		/* exec ids only grow: the work needs the last one */
		if (bit == HWPMC_W_EXEC)
			WRITE_ONCE(w->exec_id, READ_ONCE(p->self_exec_id));
		old = atomic_fetch_or(HWPMC_W_QUEUED | bit, &w->state);
		queue = !(old & (HWPMC_W_QUEUED | HWPMC_W_DEAD));
		if (queue)
			llist_add(&w->node, &hwpmc_watch_queue);
	}
	rcu_read_unlock();
	if (queue)
		schedule_work(&hwpmc_watch_work);
}

void hwpmc_watch_note(struct task_struct *p, bool exec)
{
	hwpmc_watch_set(p, exec ? HWPMC_W_EXEC : HWPMC_W_EXIT);
}

/*
 * The current thread p, a target thread of a PMC_F_THREAD PMC, passed
 * its exit hook: that target ended, whether its process goes on or not.
 */
void hwpmc_watch_note_thread(struct task_struct *p)
{
	hwpmc_watch_set(p, HWPMC_W_TEXIT);
}

/*
 * The lifecycle work: fn(tgid, exec, exec_id) for each event noted, an
 * ended target thread, then an exec, before an exit of the same process (fn: hwpmc_pmc_process_gone(),
 * given at init: the callback of the layer above).  fn takes hwpmc_sx
 * itself, which the entries' drops need: an entry is only looked at
 * before its QUEUED bit is cleared, the pid kept by a reference of its
 * own.
 */
static void hwpmc_watch_drain(struct work_struct *work)
{
	void (*fn)(struct pid *tgid, int what, u64 exec_id) =
		hwpmc_watch_fn;
	struct llist_node *list;
	struct hwpmc_watch *w, *tmp;
	struct pid *tgid;
	u64 exec_id;
	int old;

	list = llist_reverse_order(llist_del_all(&hwpmc_watch_queue));
	llist_for_each_entry_safe(w, tmp, list, node) {
		tgid = get_pid(w->tgid);
		exec_id = READ_ONCE(w->exec_id);
		old = atomic_fetch_and(~(HWPMC_W_QUEUED | HWPMC_W_EXIT |
					 HWPMC_W_EXEC | HWPMC_W_TEXIT),
				       &w->state);
		if (old & HWPMC_W_DEAD) {
			hwpmc_watch_free(w);	/* nothing watches it now */
			old = 0;
		}
		if (old & HWPMC_W_TEXIT) {
			hwpmc_stat_inc(lifecycle_events);
			fn(tgid, HWPMC_GONE_THREAD, 0);
		}
		if (old & HWPMC_W_EXEC) {
			hwpmc_stat_inc(lifecycle_events);
			fn(tgid, HWPMC_GONE_EXEC, exec_id);
		}
		if (old & HWPMC_W_EXIT) {
			hwpmc_stat_inc(lifecycle_events);
			fn(tgid, HWPMC_GONE_EXIT, 0);
		}
		put_pid(tgid);
	}
}

int hwpmc_watch_init(void (*fn)(struct pid *tgid, int what,
				u64 exec_id))
{
	unsigned int b;

	hwpmc_watch_fn = fn;
	hwpmc_watchbits = ilog2(roundup_pow_of_two(hwpmc_hashsize));
	hwpmc_watchhash = kvcalloc(1U << hwpmc_watchbits,
				   sizeof(*hwpmc_watchhash), GFP_KERNEL);
	if (!hwpmc_watchhash)
		return -ENOMEM;
	for (b = 0; b < (1U << hwpmc_watchbits); b++)
		INIT_HLIST_HEAD(&hwpmc_watchhash[b]);
	return 0;
}

/* No probe notes any more: the work's last run is over on return. */
void hwpmc_watch_flush(void)
{
	flush_work(&hwpmc_watch_work);
}

/* At unload, after the owners and PMCs: nothing is watched. */
void hwpmc_watch_fini(void)
{
	unsigned int b;

	for (b = 0; b < (1U << hwpmc_watchbits); b++)
		WARN_ON_ONCE(!hlist_empty(&hwpmc_watchhash[b]));
	kvfree(hwpmc_watchhash);
}
