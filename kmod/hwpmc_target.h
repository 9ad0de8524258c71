/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: hwpmc_target.c, the targets of process PMCs: values,
 * attach, detach, permission, descendants, born processes, a process
 * gone; a PMC's and an owner's teardown.  hwpmc_sx held for writing,
 * except by hwpmc_pmc_process_gone() and hwpmc_pmc_born().
 */
#ifndef _HWPMC_TARGET_H
#define _HWPMC_TARGET_H

#include <linux/types.h>

struct callback_head;
struct hwpmc_owner;
struct hwpmc_pmc;
struct hwpmc_target;
struct pid;
struct task_struct;

struct hwpmc_owner *hwpmc_owner_get(void);
int hwpmc_targets_init(struct hwpmc_pmc *pm);
void hwpmc_targets_fini(struct hwpmc_pmc *pm);
u64 hwpmc_pmc_value(const struct hwpmc_pmc *pm);
bool hwpmc_pmc_unscheduled(struct hwpmc_pmc *pm);
void hwpmc_target_start(struct hwpmc_target *pt);
void hwpmc_pmc_smp_times(const struct hwpmc_pmc *pm, u64 *value,
			 u64 *enabled, u64 *running);
struct hwpmc_pmc *hwpmc_row_target_of(struct pid *tgid, struct pid *thread,
				     u32 ri);
struct hwpmc_target *hwpmc_target_find(struct hwpmc_pmc *pm,
				       struct pid *tgid);
struct hwpmc_target *hwpmc_target_find_thread(struct hwpmc_pmc *pm,
					      struct pid *thread);
bool hwpmc_owner_targets(struct hwpmc_owner *po, struct pid *tgid);
void hwpmc_target_free(struct hwpmc_pmc *pm, struct hwpmc_target *pt);
int hwpmc_do_attach(struct hwpmc_pmc *pm, pid_t nr);
void hwpmc_targets_gone(struct hwpmc_pmc *pm);
int hwpmc_detach_descendants(struct hwpmc_pmc *pm,
				    struct hwpmc_target *top);
void hwpmc_pmc_halt(struct hwpmc_pmc *pm);
void hwpmc_pmc_free(struct hwpmc_pmc *pm);
bool hwpmc_log_target(struct hwpmc_pmc *pm, struct hwpmc_target *pt,
			     struct task_struct *p);
/*
 * The lifecycle work: process tgid exited, or exec'ed (exec_id), or a
 * PMC_F_THREAD target thread of it ended (enum hwpmc_gone, hwpmc_watch.h).
 */
void hwpmc_pmc_process_gone(struct pid *tgid, int what, u64 exec_id);
/* The task work of a new DESCENDANTS target (hwpmc_hooks_init()'s born). */
void hwpmc_pmc_born(struct callback_head *cb);

#endif /* _HWPMC_TARGET_H */
