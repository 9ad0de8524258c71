// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: rows, the machine-independent core (part of FreeBSD's
 * hwpmc_mod.c).
 *
 * Rows are numbered across classes.  Each row has a disposition, global
 * to all CPUs (FreeBSD's pmc_pmcdisp[]): 0 when free, > 0 the number of
 * process-scope PMCs using it (THREAD: such PMCs follow their threads
 * from CPU to CPU, so the row is reserved everywhere), < 0 minus the
 * number of system-scope PMCs and administratively disabled slots using
 * it (STANDALONE).  Rows that kernel code holds through pmc(9)
 * (hwpmc_kapi.c) are KERNEL, a Linux disposition: no PMC of /dev/hwpmc
 * may use them, and kernel code may take only rows no PMC uses.  Each
 * (CPU, row) slot has an administrative state.
 *
 * hwpmc_sx orders everything that changes rows, as FreeBSD's pmc_sx.
 */
#define pr_fmt(fmt) "hwpmc: " fmt

#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "hwpmc_internal.h"
#include "hwpmc_rows.h"
#include "hwpmc_backend.h"

#define HWPMC_HW_ENABLED	0x1

/* One (CPU, row) slot. */
struct hwpmc_hw {
	u32	flags;			/* HWPMC_HW_* */
	struct hwpmc_pmc *pmc;		/* the system-scope PMC using it */
};

DECLARE_RWSEM(hwpmc_sx);
DEFINE_PER_CPU(struct hwpmc_stats, hwpmc_stats);

static struct hwpmc_hw *hwpmc_slots;	/* [nr_cpu_ids][npmc] */
static int *hwpmc_rowdisp;		/* [npmc] */
static int *hwpmc_rowkern;		/* [npmc]: pmc(9) counters on it */

static struct hwpmc_hw *hwpmc_hw_at(int cpu, u32 ri)
{
	return &hwpmc_slots[(size_t)cpu * hwpmc_md.npmc + ri];
}

/*
 * CPU generations.  perf drops a per-CPU counter from its CPU when the
 * CPU goes offline and does not bring it back; the offline callback
 * (hwpmc_ops.c) bumps the CPU's generation, and a counter made in an
 * older generation is made again the next time it is used.
 */
static atomic_t *hwpmc_cpu_gen;		/* [nr_cpu_ids] */

int hwpmc_cpu_gen_read(int cpu)
{
	return atomic_read(&hwpmc_cpu_gen[cpu]);
}

void hwpmc_cpu_gen_bump(int cpu)
{
	atomic_inc(&hwpmc_cpu_gen[cpu]);
}

int hwpmc_rows_init(void)
{
	size_t n = (size_t)nr_cpu_ids * hwpmc_md.npmc, i;

	hwpmc_slots = kvcalloc(n, sizeof(*hwpmc_slots), GFP_KERNEL);
	hwpmc_rowdisp = kcalloc(hwpmc_md.npmc, sizeof(*hwpmc_rowdisp),
				GFP_KERNEL);
	hwpmc_rowkern = kcalloc(hwpmc_md.npmc, sizeof(*hwpmc_rowkern),
				GFP_KERNEL);
	hwpmc_cpu_gen = kcalloc(nr_cpu_ids, sizeof(*hwpmc_cpu_gen),
				GFP_KERNEL);
	if (!hwpmc_slots || !hwpmc_rowdisp || !hwpmc_rowkern ||
	    !hwpmc_cpu_gen) {
		hwpmc_rows_fini();
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		hwpmc_slots[i].flags = HWPMC_HW_ENABLED;
	return 0;
}

void hwpmc_rows_fini(void)
{
	kvfree(hwpmc_slots);
	kfree(hwpmc_rowdisp);
	kfree(hwpmc_rowkern);
	kfree(hwpmc_cpu_gen);
	hwpmc_slots = NULL;
	hwpmc_rowdisp = NULL;
	hwpmc_rowkern = NULL;
	hwpmc_cpu_gen = NULL;
}

static u32 hwpmc_disp(u32 ri)
{
	if (hwpmc_rowkern[ri] > 0)
		return PMC_DISP_KERNEL;
	if (hwpmc_rowdisp[ri] > 0)
		return PMC_DISP_THREAD;
	if (hwpmc_rowdisp[ri] < 0)
		return PMC_DISP_STANDALONE;
	return PMC_DISP_FREE;
}

/* Check a CPU number given by user space: EINVAL, or ENXIO if offline. */
int hwpmc_check_cpu(int cpu)
{
	if (cpu < 0 || cpu >= nr_cpu_ids)
		return -EINVAL;
	if (!cpu_online(cpu))
		return -ENXIO;
	return 0;
}

/*
 * GETPMCINFO for one row, and in *holder the system PMC that holds the
 * slot (the caller describes it), or NULL; called with hwpmc_sx held.
 */
int hwpmc_describe_row(int cpu, u32 ri, struct pmc_info *pi,
		       struct hwpmc_pmc **holder)
{
	const struct hwpmc_class *cl = hwpmc_row_class(ri);
	struct hwpmc_hw *hw;
	int error;

	lockdep_assert_held(&hwpmc_sx);
	error = hwpmc_check_cpu(cpu);
	if (error)
		return error;
	if (!cl)
		return -EINVAL;
	hw = hwpmc_hw_at(cpu, ri);
	memset(pi, 0, sizeof(*pi));
	snprintf(pi->pm_name, sizeof(pi->pm_name), "%s%u", cl->name,
		 ri - cl->first_row);
	pi->pm_class = cl->class;
	pi->pm_enabled = !!(hw->flags & HWPMC_HW_ENABLED);
	pi->pm_rowdisp = hwpmc_disp(ri);
	pi->pm_ownerpid = -1;
	*holder = hw->pmc;
	return 0;
}

/*
 * Row reservations, with hwpmc_sx held for writing.  A process-scope PMC
 * takes its row on every CPU (THREAD); a system-scope PMC takes one
 * enabled (CPU, row) slot and makes the row STANDALONE.
 */
bool hwpmc_row_can_thread(u32 ri)
{
	lockdep_assert_held_write(&hwpmc_sx);
	return hwpmc_rowdisp[ri] >= 0 && !hwpmc_rowkern[ri];
}

bool hwpmc_row_can_system(int cpu, u32 ri)
{
	const struct hwpmc_hw *hw = hwpmc_hw_at(cpu, ri);

	lockdep_assert_held_write(&hwpmc_sx);
	return hwpmc_rowdisp[ri] <= 0 && !hw->pmc &&
	       (hw->flags & HWPMC_HW_ENABLED) && !hwpmc_rowkern[ri];
}

/* Does kernel code hold row ri (pmc(9))?  Then PMCs get EBUSY. */
bool hwpmc_row_kernel(u32 ri)
{
	lockdep_assert_held(&hwpmc_sx);
	return hwpmc_rowkern[ri] > 0;
}

/*
 * A pmc(9) counter on row ri: EBUSY while a PMC of /dev/hwpmc uses the
 * row or a slot of it is disabled (its disposition is not FREE).
 */
int hwpmc_row_kernel_take(u32 ri)
{
	lockdep_assert_held_write(&hwpmc_sx);
	if (hwpmc_rowdisp[ri])
		return -EBUSY;
	hwpmc_rowkern[ri]++;
	return 0;
}

void hwpmc_row_kernel_give(u32 ri)
{
	lockdep_assert_held_write(&hwpmc_sx);
	hwpmc_rowkern[ri]--;
}

void hwpmc_row_take(struct hwpmc_pmc *pm, u32 mode, int cpu, u32 ri)
{
	lockdep_assert_held_write(&hwpmc_sx);
	if (PMC_IS_VIRTUAL_MODE(mode)) {
		hwpmc_rowdisp[ri]++;
	} else {
		hwpmc_rowdisp[ri]--;
		hwpmc_hw_at(cpu, ri)->pmc = pm;
	}
}

void hwpmc_row_give(u32 mode, int cpu, u32 ri)
{
	lockdep_assert_held_write(&hwpmc_sx);
	if (PMC_IS_VIRTUAL_MODE(mode)) {
		hwpmc_rowdisp[ri]--;
	} else {
		hwpmc_rowdisp[ri]++;
		hwpmc_hw_at(cpu, ri)->pmc = NULL;
	}
}

/*
 * PMCADMIN: enable (PMC_STATE_FREE) or disable (PMC_STATE_DISABLED) the
 * slot of row ri on a CPU.  A disabled slot makes its row STANDALONE,
 * so that no process-scope PMC can take the row while the slot is off.
 */
int hwpmc_admin(int cpu, u32 ri, u32 state)
{
	struct hwpmc_hw *hw;
	int error;

	error = hwpmc_check_cpu(cpu);
	if (error)
		return error;
	if (ri >= hwpmc_md.npmc)
		return -EINVAL;
	if (state != PMC_STATE_DISABLED && state != PMC_STATE_FREE)
		return -EINVAL;

	down_write(&hwpmc_sx);
	hw = hwpmc_hw_at(cpu, ri);
	if (state == PMC_STATE_DISABLED && (hwpmc_disp(ri) == PMC_DISP_THREAD ||
					    hwpmc_disp(ri) == PMC_DISP_KERNEL))
		error = -EBUSY;
	else if (hw->pmc)
		error = -EBUSY;
	else if (state == PMC_STATE_DISABLED &&
		 (hw->flags & HWPMC_HW_ENABLED)) {
		hw->flags &= ~HWPMC_HW_ENABLED;
		hwpmc_rowdisp[ri]--;
	} else if (state == PMC_STATE_FREE &&
		   !(hw->flags & HWPMC_HW_ENABLED)) {
		hw->flags |= HWPMC_HW_ENABLED;
		hwpmc_rowdisp[ri]++;
	}
	up_write(&hwpmc_sx);
	return error;
}

void hwpmc_stats_get(struct pmc_op_getdriverstats *st)
{
	int cpu;

	memset(st, 0, sizeof(*st));
	for_each_possible_cpu(cpu) {
		const struct hwpmc_stats *s = per_cpu_ptr(&hwpmc_stats, cpu);

		st->pm_intr_ignored += s->intr_ignored;
		st->pm_intr_processed += s->intr_processed;
		st->pm_intr_bufferfull += s->intr_bufferfull;
		st->pm_syscalls += s->syscalls;
		st->pm_syscall_errors += s->syscall_errors;
		st->pm_buffer_requests += s->buffer_requests;
		st->pm_buffer_requests_failed += s->buffer_requests_failed;
		st->pm_log_sweeps += s->log_sweeps;
		st->pm_merges += s->merges;
		st->pm_overwrites += s->overwrites;
		st->pm_log_records_dropped += s->log_records_dropped;
		st->pm_log_write_errors += s->log_write_errors;
		st->pm_lifecycle_events += s->lifecycle_events;
		st->pm_stacks_dropped += s->stacks_dropped;
	}
}
