// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: sampling (FreeBSD's pmc_process_interrupt and
 * pmc_process_samples).
 *
 * A sampling PMC's perf counters call hwpmc_overflow() every `pm_count`
 * events: in NMI context for x86 hardware events, hard-IRQ context for
 * cpu-clock and task-clock and the arm64 PMU, with IRQs off for the
 * other software events.  The handler takes the sample (PC, pid, tid,
 * CPU, and with PMC_F_CALLCHAIN the kernel frames by the kernel's
 * unwinder and the user frames by a frame-pointer walk) into this CPU's
 * ring of `nsamples` entries; a full ring drops the sample and counts it
 * (driver statistic pm_intr_bufferfull).  A work item drains the rings in
 * process context into the owners' logs as CALLCHAIN records.  It is not
 * woken per sample (FreeBSD drains at the clock tick, perf wakes its
 * reader at a watermark): the first sample of an empty ring raises an
 * irq_work that queues the drain HWPMC_DRAIN_DELAY later, and a ring
 * half full has it run at once, so at any rate the drain runs at most
 * every few milliseconds per burst, not per sample.  FLUSHLOG, CLOSELOG
 * and the release of a PMC drain synchronously.  A handler interrupting
 * another on the same CPU (an NMI in a timer sample) drops its sample.
 */
#define pr_fmt(fmt) "hwpmc: " fmt

#include <linux/kernel.h>
#include <linux/irq_work.h>
#include <asm/local.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <linux/hwpmclog.h>

#include "hwpmc_internal.h"

struct hwpmc_sample {
	struct hwpmc_pmc	*pm;
	u64			time;
	u32			pid;
	u32			tid;
	u32			cpuflags;
	u32			npc;
	u64			pc[];
};

struct hwpmc_ring {
	unsigned int		head;		/* written by the handler */
	unsigned int		tail;		/* by the drain */
	local_t			nest;
	int			armed;		/* a drain is due */
	char			*slots;
	struct irq_work		kick;
};

static DEFINE_PER_CPU(struct hwpmc_ring, hwpmc_rings);
static size_t hwpmc_slot_size;
static unsigned int hwpmc_ring_mask;
static DEFINE_MUTEX(hwpmc_drain_lock);

/* How long the first sample of an empty ring waits for the drain. */
#define HWPMC_DRAIN_DELAY	msecs_to_jiffies(5)

static void hwpmc_drain_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(hwpmc_drain_work, hwpmc_drain_fn);

static struct hwpmc_sample *hwpmc_slot(struct hwpmc_ring *r, unsigned int i)
{
	return (struct hwpmc_sample *)(r->slots +
				       (i & hwpmc_ring_mask) * hwpmc_slot_size);
}

/* -- call chains ------------------------------------------------------------ */

struct hwpmc_kchain {
	u64		*pc;
	u32		n, max;
	unsigned long	ip;		/* the sampled PC */
	bool		found;
};

/*
 * Kernel frames: stack_trace_save_regs() is not exported, so the
 * handler's own stack is unwound through the interrupt frame, and the
 * frames from the interrupted PC on are kept.
 */
static u32 hwpmc_kernel_chain(struct pt_regs *regs, u64 *pc, u32 max)
{
	unsigned long *buf = (unsigned long *)pc;
	unsigned int n, i, skip;

	BUILD_BUG_ON(sizeof(unsigned long) != sizeof(u64));
	pc[0] = instruction_pointer(regs);
	if (max < 2)
		return 1;
	n = stack_trace_save(buf, max, 0);
	for (skip = 0; skip < n; skip++)
		if (buf[skip] == instruction_pointer(regs))
			break;
	if (skip == n) {
		pc[0] = instruction_pointer(regs);
		return 1;
	}
	for (i = skip; i < n; i++)
		pc[i - skip] = buf[i];
	return n - skip;
}

static bool hwpmc_user_read(void *dst, unsigned long addr, size_t len)
{
#ifdef CONFIG_X86
	return !copy_from_user_nmi(dst, (const void __user *)addr, len);
#else
	unsigned long left;

	if (!access_ok((const void __user *)addr, len))
		return false;
	pagefault_disable();
	left = __copy_from_user_inatomic(dst, (const void __user *)addr, len);
	pagefault_enable();
	return !left;
#endif
}

/*
 * User frames by the frame-pointer chain from regs (user mode regs):
 * the PC, then each frame's return address.  Code built without frame
 * pointers gives short or wrong chains, as with perf's default.
 */
static u32 hwpmc_user_chain(struct pt_regs *regs, u64 *pc, u32 max)
{
	unsigned long fp, next, ret;
	u32 n = 0;
#ifdef CONFIG_X86
	bool compat = !user_64bit_mode(regs);

	fp = regs->bp;
#elif defined(CONFIG_ARM64)
	bool compat = compat_user_mode(regs);

	fp = regs->regs[29];
#else
	bool compat = true;

	fp = 0;
#endif
	pc[n++] = instruction_pointer(regs);
	while (!compat && n < max) {
		u64 frame[2];		/* next frame, return address */

		if (fp < PAGE_SIZE || fp & 7 ||
		    !hwpmc_user_read(frame, fp, sizeof(frame)))
			break;
		next = frame[0];
		ret = frame[1];
		if (!ret)
			break;
		pc[n++] = ret;
		if (next <= fp)
			break;
		fp = next;
	}
#ifdef CONFIG_X86
	while (compat && n < max) {
		u32 frame[2];

		if (fp < PAGE_SIZE || fp & 3 ||
		    !hwpmc_user_read(frame, fp, sizeof(frame)))
			break;
		if (!frame[1])
			break;
		pc[n++] = frame[1];
		if (frame[0] <= fp)
			break;
		fp = frame[0];
	}
#endif
	return n;
}

/* -- the handler ------------------------------------------------------------ */

void hwpmc_sample_take(struct hwpmc_pmc *pm, bool callchain,
		       struct pt_regs *regs)
{
	struct hwpmc_ring *r = this_cpu_ptr(&hwpmc_rings);
	u32 depth = hwpmc_callchaindepth, flags = 0, n;
	struct hwpmc_sample *s;
	struct pt_regs *uregs;
	unsigned int head;

	if (local_inc_return(&r->nest) != 1 || !r->slots) {
		hwpmc_stat_inc(intr_bufferfull);
		goto out;
	}
	head = r->head;
	/* the drain's release of the slots it is done with */
	if (head - smp_load_acquire(&r->tail) > hwpmc_ring_mask) {
		hwpmc_stat_inc(intr_bufferfull);
		goto out;
	}
	s = hwpmc_slot(r, head);
	s->pm = pm;
	s->time = ktime_get_mono_fast_ns();
	s->pid = current->tgid;
	s->tid = current->pid;
	if (user_mode(regs)) {
		flags = PMC_CC_F_USERSPACE;
		n = callchain ? hwpmc_user_chain(regs, s->pc, depth) : 0;
		if (!n) {
			s->pc[0] = instruction_pointer(regs);
			n = 1;
		}
	} else if (callchain) {
		n = hwpmc_kernel_chain(regs, s->pc, depth);
		if (current->mm && !(current->flags & PF_KTHREAD) &&
		    n < depth) {
			uregs = task_pt_regs(current);
			n += hwpmc_user_chain(uregs, s->pc + n, depth - n);
			flags = PMC_CC_F_KERNEL_USER;
		}
	} else {
		s->pc[0] = instruction_pointer(regs);
		n = 1;
	}
	s->npc = n;
	s->cpuflags = PMC_CALLCHAIN_TO_CPUFLAGS(smp_processor_id(), flags);
	/* publish the slot to the drain: pairs with its acquire of head */
	smp_store_release(&r->head, head + 1);
	hwpmc_stat_inc(intr_processed);
	/*
	 * Arm the drain unless it is armed: xchg() orders the store of
	 * head before the load of armed, against the drain's xchg() of
	 * armed before its load of head, so that either the drain sees
	 * this sample or this sees the drain disarmed.  At half full, at
	 * once.
	 */
	if (!xchg(&r->armed, 1) ||
	    head + 1 - READ_ONCE(r->tail) == (hwpmc_ring_mask + 1) / 2)
		irq_work_queue(&r->kick);
out:
	local_dec(&r->nest);
}

/* -- the drain -------------------------------------------------------------- */

static void hwpmc_ring_kick(struct irq_work *w)
{
	struct hwpmc_ring *r = container_of(w, struct hwpmc_ring, kick);

	if (READ_ONCE(r->head) - READ_ONCE(r->tail) >= (hwpmc_ring_mask + 1) / 2)
		mod_delayed_work(system_unbound_wq, &hwpmc_drain_work, 0);
	else
		queue_delayed_work(system_unbound_wq, &hwpmc_drain_work,
				   HWPMC_DRAIN_DELAY);
}

/*
 * Move every pending sample into its owner's log; hwpmc_sx held (for
 * reading at least), so that the PMCs of pending samples stay alive:
 * releasing a PMC releases its counters, then drains, then frees it.
 */
void hwpmc_sample_drain(void)
{
	struct pmclog_callchain cc = { };
	struct hwpmc_sample *s;
	struct hwpmc_log *lg;
	struct hwpmc_ring *r;
	unsigned int head, tail;
	int cpu;

	mutex_lock(&hwpmc_drain_lock);
	for_each_possible_cpu(cpu) {
		r = per_cpu_ptr(&hwpmc_rings, cpu);
		if (!r->slots)
			continue;
		/* a sample published after this arms the drain again */
		xchg(&r->armed, 0);
		/* the handler's release of the slots it filled */
		head = smp_load_acquire(&r->head);
		for (tail = r->tail; tail != head; tail++) {
			s = hwpmc_slot(r, tail);
			lg = hwpmc_pmc_log(s->pm);
			if (!lg) {
				hwpmc_stat_inc(intr_ignored);
			} else {
				cc.pl_pid = s->pid;
				cc.pl_tid = s->tid;
				cc.pl_pmcid = s->pm->id;
				cc.pl_cpuflags = s->cpuflags;
				hwpmc_log_append(lg, PMCLOG_TYPE_CALLCHAIN,
						 s->time, &cc, sizeof(cc),
						 s->pc, s->npc * sizeof(u64));
			}
			/* the slot is free again: pairs with the handler */
			smp_store_release(&r->tail, tail + 1);
		}
	}
	hwpmc_stat_inc(log_sweeps);
	mutex_unlock(&hwpmc_drain_lock);
}

static void hwpmc_drain_fn(struct work_struct *work)
{
	down_read(&hwpmc_sx);
	hwpmc_sample_drain();
	up_read(&hwpmc_sx);
}

int hwpmc_sample_init(void)
{
	struct hwpmc_ring *r;
	int cpu;

	hwpmc_slot_size = ALIGN(sizeof(struct hwpmc_sample) +
				hwpmc_callchaindepth * sizeof(u64), 8);
	hwpmc_ring_mask = hwpmc_nsamples - 1;
	for_each_possible_cpu(cpu) {
		r = per_cpu_ptr(&hwpmc_rings, cpu);
		init_irq_work(&r->kick, hwpmc_ring_kick);
		r->slots = vzalloc_node(hwpmc_nsamples * hwpmc_slot_size,
					cpu_to_node(cpu));
		if (!r->slots) {
			hwpmc_sample_fini();
			return -ENOMEM;
		}
	}
	return 0;
}

/* No counter is left: nothing raises the irq_works any more. */
void hwpmc_sample_fini(void)
{
	struct hwpmc_ring *r;
	int cpu;

	for_each_possible_cpu(cpu)
		irq_work_sync(&per_cpu_ptr(&hwpmc_rings, cpu)->kick);
	flush_delayed_work(&hwpmc_drain_work);
	for_each_possible_cpu(cpu) {
		r = per_cpu_ptr(&hwpmc_rings, cpu);
		vfree(r->slots);
		r->slots = NULL;
	}
}
