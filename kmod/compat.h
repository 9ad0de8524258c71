/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: the kernel-version differences, all of them here.
 *
 * Differences are detected from the kernel's own headers by Kbuild
 * (conftest style, robust to distribution backports), not from version
 * numbers; Kbuild defines HWPMC_HAVE_* accordingly.
 */
#ifndef _HWPMC_COMPAT_H
#define _HWPMC_COMPAT_H

#include <linux/fs.h>
#include <linux/mm_types.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>

/*
 * sched_process_exit gained a group_dead argument after 6.12 (tip commit
 * 3e816361e94a); the probe takes what the kernel passes.
 */
#ifdef HWPMC_HAVE_EXIT_GROUP_DEAD
#define HWPMC_TP_EXIT_PROTO	void *data, struct task_struct *p, \
				bool group_dead
#else
#define HWPMC_TP_EXIT_PROTO	void *data, struct task_struct *p
#endif

/*
 * A task's perf contexts: one per kind (hardware, software) up to 6.1,
 * a single one since 6.2 (commit bd2756811766).
 */
#ifdef HWPMC_HAVE_PERF_CTXP_ARRAY
#define HWPMC_NR_TASK_CTX	perf_nr_task_contexts
#define hwpmc_task_ctx(t, i)	READ_ONCE((t)->perf_event_ctxp[i])
#else
#define HWPMC_NR_TASK_CTX	1
#define hwpmc_task_ctx(t, i)	((void)(i), READ_ONCE((t)->perf_event_ctxp))
#endif

/*
 * Is pmu a core PMU of some CPUs only (hybrid Intel's cpu_core and
 * cpu_atom, arm64's PMUs)?  Up to 6.1 such a PMU says so with
 * PERF_PMU_CAP_HETEROGENEOUS_CPUS (perf_pmu_register() demotes a second
 * perf_hw_context PMU without it to perf_invalid_context, with a
 * warning), and perf asks its filter_match() at each schedule; since
 * 6.2 (commit bd2756811766) the capability is gone, and such a PMU has
 * the filter() that perf asks per CPU.
 */
#ifdef PERF_PMU_CAP_HETEROGENEOUS_CPUS
#define hwpmc_pmu_heterogeneous(pmu) \
	(!!((pmu)->capabilities & PERF_PMU_CAP_HETEROGENEOUS_CPUS))
#else
#define hwpmc_pmu_heterogeneous(pmu)	(!!(pmu)->filter)
#endif

/*
 * A module's code, [*start, *end): its mem[MOD_TEXT] since 6.4 (commit
 * ac3b43283923), the text at the start of its core_layout before.
 */
static inline void hwpmc_module_text(const struct module *mod,
				     unsigned long *start, unsigned long *end)
{
#ifdef HWPMC_HAVE_MODULE_MEMORY
	*start = (unsigned long)mod->mem[MOD_TEXT].base;
	*end = *start + mod->mem[MOD_TEXT].size;
#else
	*start = (unsigned long)mod->core_layout.base;
	*end = *start + mod->core_layout.text_size;
#endif
}

/*
 * The executable file of mm, referenced, or NULL.  get_file_rcu() takes
 * the address of the RCU pointer since 6.7 (commit 0ede61d8589c).
 */
#ifdef HWPMC_HAVE_GET_FILE_RCU_PP
static inline struct file *hwpmc_mm_exe_file(struct mm_struct *mm)
{
	struct file *f;

	rcu_read_lock();
	f = get_file_rcu(&mm->exe_file);
	rcu_read_unlock();
	return f;
}
#else
static inline struct file *hwpmc_mm_exe_file(struct mm_struct *mm)
{
	struct file *f;

	rcu_read_lock();
	f = rcu_dereference(mm->exe_file);
	if (f && !get_file_rcu(f))
		f = NULL;
	rcu_read_unlock();
	return f;
}
#endif

#endif /* _HWPMC_COMPAT_H */
