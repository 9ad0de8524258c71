/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: pmc(9), NetBSD's in-kernel interface to the performance
 * counters, for kernel modules (man/pmc.9).  The functions are exported
 * by hwpmc.ko to GPL modules; build against its Module.symvers
 * (KBUILD_EXTRA_SYMBOLS) with this directory and the uapi headers'
 * (<linux/hwpmc.h>, for the event codes) on the include path.
 *
 * Where NetBSD takes an lwp, these take a task (a thread); NULL names the
 * kernel's counters (pmc_alloc_kernel_counter(), pmc_start_profiling()).
 * Counters are hwpmc's rows, 0 to pmc_get_num_counters() - 1; an event id
 * is one of hwpmc's event codes (PMC_EV_*) of the row's class.
 */
#ifndef _LINUX_HWPMC_PMC_H
#define _LINUX_HWPMC_PMC_H

#include <linux/types.h>
#include <linux/module.h>
#include <linux/hwpmc.h>

struct task_struct;

typedef u32 pmc_evid_t;		/* a PMC_EV_* code */
typedef u64 pmc_ctr_t;		/* a counter's value */

struct pmc_counter_cfg {
	pmc_evid_t	event_id;
	pmc_ctr_t	reset_value;	/* events between overflows */
	u32		flags;		/* must be 0 */
};

/* pmc_get_counter_value(): exited children's accumulated counts. */
#define PMC_VALUE_FLAGS_CHILDREN	0x00000001

/* pmc_get_counter_type(-1): the CPU type, PMC_CPU_*. */

int pmc_get_num_counters(void);
int pmc_get_counter_type(int ctr);
void pmc_save_context(struct task_struct *t);
void pmc_restore_context(struct task_struct *t);
int pmc_enable_counter(struct task_struct *t, int ctr);
int pmc_disable_counter(struct task_struct *t, int ctr);
int pmc_counter_isrunning(struct task_struct *t, int ctr);
int pmc_counter_isconfigured(struct task_struct *t, int ctr);
int pmc_get_counter_value(struct task_struct *t, int ctr, int flags,
			  u64 *pval);
int pmc_accumulate(struct task_struct *parent, struct task_struct *exiting);
int pmc_free_kernel_counter(int ctr);
int pmc_stop_profiling(int ctr);
int PMC_ENABLED(struct task_struct *t);

/*
 * The calls that make counters record the module that made them (the
 * seed allows any function to be a macro): what a module leaves
 * configured is released when it is unloaded.
 */
int __pmc_configure_counter(struct module *mod, struct task_struct *t,
			    int ctr, struct pmc_counter_cfg *cfg);
int __pmc_alloc_kernel_counter(struct module *mod, int ctr,
			       struct pmc_counter_cfg *cfg);
int __pmc_start_profiling(struct module *mod, int ctr,
			  struct pmc_counter_cfg *cfg);

#define pmc_configure_counter(t, ctr, cfg) \
	__pmc_configure_counter(THIS_MODULE, t, ctr, cfg)
#define pmc_alloc_kernel_counter(ctr, cfg) \
	__pmc_alloc_kernel_counter(THIS_MODULE, ctr, cfg)
#define pmc_start_profiling(ctr, cfg) \
	__pmc_start_profiling(THIS_MODULE, ctr, cfg)

/* Linux: a task's counter released (pmc_configure_counter() makes it). */
int pmc_unconfigure_counter(struct task_struct *t, int ctr);

/*
 * Linux: the samples taken by pmc_start_profiling() of ctr so far (they
 * go to the log that takes the kernel's profiles, if one does: pmc.9).
 */
int pmc_profiling_samples(int ctr, u64 *samples);

#endif /* _LINUX_HWPMC_PMC_H */
