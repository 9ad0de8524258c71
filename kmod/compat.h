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

#endif /* _HWPMC_COMPAT_H */
