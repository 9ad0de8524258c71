// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: process lifecycle (FreeBSD's process exit and exec
 * hooks), from the scheduler's tracepoints.
 *
 * The tracepoints come from hwpmc_tracepoint.c.  The probes run with preemption disabled and must not sleep, while
 * releasing perf counters does; so a probe only notes the event in the
 * process's entry, if the process owns PMCs or is a target
 * (hwpmc_watch.c), and a work item does the rest in process context
 * under hwpmc_sx:
 *
 *   - an owner that exits or execs loses its PMCs (hwpmc(4): PMCs are
 *     not inherited across exec, and go with their owner);
 *   - a target that exits leaves its PMCs, its count kept in them; the
 *     last target leaving a PMC signals the owner (hwpmc_target.c).
 *
 * Probes do nothing while no process owns a PMC (hwpmc_active).
 *
 * A process ends when its last thread leaves signal->live, but in the
 * exit tracepoint every thread that comes after that sees 0 there,
 * several at an exit_group().  SYSEXIT is logged once, from the thread
 * that took signal->live to 0: a kprobe on exit_itimers(), which
 * do_exit() calls only in that thread (and exec, in a thread not
 * PF_EXITING); from the tracepoint only where the kprobe cannot be
 * placed (no kprobes, no CONFIG_POSIX_TIMERS).  The work above is
 * queued from the tracepoint, after the thread's exit hooks, by each
 * thread that sees 0: doing it twice changes nothing, and for an exited
 * target it takes only the threads that are done (hwpmc_target.c).
 */
#define pr_fmt(fmt) "hwpmc: " fmt

#include <linux/kernel.h>
#include <linux/binfmts.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>

#include "compat.h"
#include "hwpmc_internal.h"
#include "hwpmc_lifecycle.h"
#include "hwpmc_target.h"
#include "hwpmc_watch.h"
#include "hwpmc_hooks.h"
#include "hwpmc_csw.h"
#include "hwpmc_tracepoint.h"

/*
 * Exits and execs of watched processes (owners, targets): hwpmc_watch.c
 * keeps them for its work, which hands them to hwpmc_pmc_process_gone()
 * in process context.
 */
static void hwpmc_record(struct task_struct *p, bool exec)
{
	hwpmc_watch_note(p, exec);
}

static bool hwpmc_exit_exact;	/* the exit_itimers() kprobe is on */

/*
 * A thread of p's process exits; the last one ends the process.  The
 * thread's own end (its slices, its last PROCCSW) is taken by whichever
 * of this probe and the kprobe on perf_event_exit_task() (hwpmc_hooks.c)
 * comes first: the kprobe on 6.12, whose do_exit() ends perf's counters
 * before exit_mm(); this probe on 6.1, whose do_exit() ends them later,
 * after exit_files() (design.md, known limits); and this one without
 * kprobes or with them disarmed (debugfs kprobes/enabled), so that no
 * thread record and its task reference outlive the thread.
 */
static void hwpmc_probe_exit(HWPMC_TP_EXIT_PROTO)
{
	hwpmc_thr_exit(p);	/* also without owners: notifiers */
	if (!atomic_read(&hwpmc_active) || atomic_read(&p->signal->live))
		return;
	if (!READ_ONCE(hwpmc_exit_exact))
		hwpmc_hooks_exit(p);
	hwpmc_record(p, false);
}

#ifdef CONFIG_KPROBES
/* exit_itimers(tsk): in do_exit(), of the thread that is group_dead */
static int hwpmc_kp_group_dead(struct kprobe *kp, struct pt_regs *regs)
{
	struct task_struct *p;

	p = (struct task_struct *)regs_get_kernel_argument(regs, 0);
	if (p == current && (p->flags & PF_EXITING) &&
	    atomic_read(&hwpmc_active))
		hwpmc_hooks_exit(p);	/* SYSEXIT */
	return 0;
}

static struct kprobe hwpmc_kp_exit_group = {
	.symbol_name	= "exit_itimers",
	.pre_handler	= hwpmc_kp_group_dead,
};

static void hwpmc_exit_kprobe_init(void)
{
	int error = register_kprobe(&hwpmc_kp_exit_group);

	if (error)
		pr_info("no kprobe on exit_itimers (%d): a process's end is taken from its threads' exits\n",
			error);
	WRITE_ONCE(hwpmc_exit_exact, !error);
}

static void hwpmc_exit_kprobe_fini(void)
{
	if (hwpmc_exit_exact)
		unregister_kprobe(&hwpmc_kp_exit_group);
	hwpmc_exit_exact = false;
}
#else
static void hwpmc_exit_kprobe_init(void)
{
}

static void hwpmc_exit_kprobe_fini(void)
{
}
#endif

static void hwpmc_probe_exec(void *data, struct task_struct *p,
			     pid_t old_pid, struct linux_binprm *bprm)
{
	if (!atomic_read(&hwpmc_active))
		return;
	hwpmc_hooks_exec(bprm);		/* PROCEXEC, MAP_IN */
	hwpmc_thr_exec(p, bprm->secureexec);
	hwpmc_record(p, true);
}

static const struct {
	enum hwpmc_tp		tp;
	void			*probe;
} hwpmc_tps[] = {
	{ HWPMC_TP_EXIT, hwpmc_probe_exit },
	{ HWPMC_TP_EXEC, hwpmc_probe_exec },
};

int hwpmc_lifecycle_init(void)
{
	int i, error = 0;

	for (i = 0; i < ARRAY_SIZE(hwpmc_tps); i++) {
		error = hwpmc_tp_register(hwpmc_tps[i].tp, hwpmc_tps[i].probe);
		if (error)
			break;
	}
	if (error) {
		while (--i >= 0)	/* those registered before entry i */
			hwpmc_tp_unregister(hwpmc_tps[i].tp,
					    hwpmc_tps[i].probe);
		hwpmc_tp_sync();
		return error;
	}
	hwpmc_exit_kprobe_init();
	return 0;
}

void hwpmc_lifecycle_fini(void)
{
	int i;

	hwpmc_exit_kprobe_fini();
	for (i = 0; i < ARRAY_SIZE(hwpmc_tps); i++)
		hwpmc_tp_unregister(hwpmc_tps[i].tp, hwpmc_tps[i].probe);
	hwpmc_tp_sync();
}
