/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: hwpmc_hooks.c, what the logs learn from the kernel:
 * exec, fork, exit and new mappings of targets (kprobes and tracepoints);
 * the task work that makes a DESCENDANTS target's new process a target.
 */
#ifndef _HWPMC_HOOKS_H
#define _HWPMC_HOOKS_H

#include <linux/types.h>

struct hwpmc_pmc;
struct linux_binprm;
struct list_head;
struct pid;
struct task_struct;

/*
 * A new process of a target of PMC_F_DESCENDANTS PMCs: which PMCs, for
 * the task work that makes it their target before it first returns to
 * user space (hwpmc_pmc_born(), given at load), with what the fork knew:
 * the parent's attach (gen) and pm->dseq.  The PMCs are found again by
 * their owner's key (its tgid pointer, never dereferenced), pointer and
 * serial: they may go meanwhile.
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

/*
 * Running system-sampling PMCs, which hear about every process (RCU list,
 * changed under hwpmc_sx by the PMC operations, hwpmc_ops.c and
 * hwpmc_target.c; defined here, its lowest reader).
 */
extern struct list_head hwpmc_ss_pmcs;

/*
 * The kernel's profiles (pmc(9)'s pmc_start_profiling(), hwpmc_kapi.c):
 * their PMCs, on hwpmc_kprof_pmcs by their sslink (walked and changed
 * under hwpmc_sx), are of the owner hwpmc_kprof, which no process is and
 * which is in no hash; its log, NULL or the log of the /dev/hwpmc owner
 * that asked for the profiles (CONFIGURELOG with PMC_LOG_KERNEL_PROFILES,
 * hwpmc_ops.c; cleared by hwpmc_owner_closelog()), changes under
 * hwpmc_sx held for writing.  Defined here, their lowest reader (the
 * MAP_IN and MAP_OUT of modules).
 */
extern struct hwpmc_owner hwpmc_kprof;
extern struct list_head hwpmc_kprof_pmcs;

int hwpmc_hooks_init(void (*born)(struct callback_head *cb));
void hwpmc_hooks_born_done(struct hwpmc_born *b);
void hwpmc_hooks_fini(void);
void hwpmc_hooks_exit(struct task_struct *p);
void hwpmc_hooks_exec(const struct linux_binprm *bprm);
void hwpmc_hooks_kernel_maps(struct hwpmc_log *lg);
bool hwpmc_task_carries(struct task_struct *t, const struct hwpmc_pmc *pm);

#endif /* _HWPMC_HOOKS_H */
