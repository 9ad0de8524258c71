/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: hwpmc_watch.c, the processes whose exit and exec
 * matter (owners, targets), and the events noted for them.  It calls no
 * other file of the module.
 */
#ifndef _HWPMC_WATCH_H
#define _HWPMC_WATCH_H

#include <linux/types.h>

struct pid;
struct task_struct;

/*
 * Owners that exist (made and let go by hwpmc_target.c and hwpmc_owner.c):
 * the lifecycle probes, hwpmc_hooks.c and the CPU-hotplug callback do
 * nothing while it is 0.  Defined here, below all its users: owners are
 * watched processes.
 */
extern atomic_t hwpmc_active;

/* What the work tells the layer above of a watched process (what). */
enum hwpmc_gone {
	HWPMC_GONE_EXIT,	/* it ended */
	HWPMC_GONE_EXEC,	/* it exec'ed (exec_id) */
	HWPMC_GONE_THREAD,	/* a target thread of a PMC_F_THREAD PMC ended */
};

/* fn: the layer above's handler of an event, called by the work */
int hwpmc_watch_init(void (*fn)(struct pid *tgid, int what,
				u64 exec_id));
void hwpmc_watch_flush(void);
void hwpmc_watch_fini(void);
int hwpmc_watch_get(struct pid *tgid);
void hwpmc_watch_put(struct pid *tgid);
void hwpmc_watch_note(struct task_struct *p, bool exec);
void hwpmc_watch_note_thread(struct task_struct *p);

#endif /* _HWPMC_WATCH_H */
