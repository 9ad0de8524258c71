// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: sampling (FreeBSD's pmc_process_interrupt and
 * pmc_process_samples).
 *
 * A sampling PMC's counters call hwpmc_sample_overflow() (through the
 * backend's handler) every `pm_count` events: in NMI context for x86
 * hardware events, hard-IRQ context for cpu-clock and task-clock and
 * the arm64 PMU, with IRQs off for the other software events.  The handler takes the sample (PC, pid, tid,
 * CPU, and with PMC_F_CALLCHAIN the kernel frames by the kernel's
 * unwinder and the user frames by a frame-pointer walk) into this CPU's
 * ring of `nsamples` entries; a full ring drops the sample and counts it
 * (driver statistic pm_intr_bufferfull).  The ring is drained into the
 * owners' logs as CALLCHAIN records on the same CPU, with no sleeping
 * lock and no task to wake (the log's appends work in any context but
 * NMI, and PMCs, owners and logs are freed after an RCU grace period):
 *
 *   - outside NMI (software events, the hrtimers of cpu-clock and
 *     task-clock, the arm64 PMU interrupt), by the handler itself, right
 *     after it took the sample, as perf writes its records into its ring;
 *   - in NMI (x86 hardware events), by an irq_work on that CPU: a lazy
 *     one (at the next tick) while the ring is less than half full, at
 *     once (a self-IPI) from half full.
 *
 * FLUSHLOG, CLOSELOG and the release of a PMC drain every CPU's ring in
 * process context.  Drainers of a ring serialise on its lock; the handler
 * fills it without: one producer (the CPU's handler), one consumer.  A
 * handler interrupting another on the same CPU (an NMI in a timer sample)
 * drops its sample.
 *
 * A PMC_F_USERSTACK PMC's sample also copies the user registers and the
 * top pm_stacksize bytes of the user stack, in the handler (NMI or IRQ
 * context: copy_from_user_nmi(), or pagefaults disabled, so a page that
 * is not present ends the copy), into the CPU's stack ring: a second,
 * byte ring with room for four samples' stacks of maxstackuser bytes
 * (rounded up to a power of two: 128 KB by default)
 * beside the sample ring, filled in the same order.  The drain writes
 * the USERSTACK record before its sample's CALLCHAIN.  Only a 64-bit
 * process's user-mode registers are taken (the interrupted ones, or
 * those saved at its entry into the kernel), and only memory from its
 * own user stack pointer up, below TASK_SIZE, through the uaccess
 * routines: no kernel address or memory can get in.  A full stack ring
 * gives the sample without its stack.  (Deferring the copy to the
 * return to user mode, as perf's deferred unwinding does, would allow
 * page faults; but the samples of a thread that blocks would wait, and
 * the copy here costs a few microseconds: design.md.)
 */
#define pr_fmt(fmt) "hwpmc: " fmt

#include <linux/kernel.h>
#include <linux/irq_work.h>
#include <asm/local.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/hwpmclog.h>

#include "hwpmc_internal.h"
#include "hwpmc_sample.h"
#include "hwpmc_records.h"

struct hwpmc_sample {
	struct hwpmc_pmc	*pm;
	u64			time;
	u32			pid;
	u32			tid;
	u32			cpuflags;
	u32			npc;
	u32			spos;		/* its stack in the stack ring */
	u32			send;		/* ... to here; spos == send: none */
	u32			size;		/* PMC_F_USERSTACK: asked for */
	u32			dynsize;	/* copied */
	u16			abi;
	u16			nregs;
	u64			pc[];
};

struct hwpmc_ring {
	unsigned int		head;		/* written by the handler */
	unsigned int		tail;		/* by the drainer */
	local_t			nest;
	raw_spinlock_t		lock;		/* drainers */
	char			*slots;
	u32			shead;		/* stack ring: the handler's */
	u32			stail;		/* the drainer's */
	char			*stack;		/* hwpmc_stack_size bytes */
	struct irq_work		kick;		/* NMI samples: at the tick */
	struct irq_work		kick_now;	/* NMI samples: half full */
	struct irq_work		notify;		/* PMC_F_NOTIFY's signal */
	struct task_struct	*ntask;		/* ... to it (never followed) */
	unsigned long		naddr;		/* ... its user PC, or 0 */
};

static DEFINE_PER_CPU(struct hwpmc_ring, hwpmc_rings);
static size_t hwpmc_slot_size;
static u32 hwpmc_stack_size;		/* 0: no stack ring */
static unsigned int hwpmc_ring_mask;

static void hwpmc_ring_drain(struct hwpmc_ring *r);

static struct hwpmc_sample *hwpmc_ring_slot(struct hwpmc_ring *r, unsigned int i)
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

/* -- user registers and stack ------------------------------------------------ */

/* Copy what can be read of len bytes at addr; the bytes copied. */
static size_t hwpmc_user_copy(void *dst, unsigned long addr, size_t len)
{
	unsigned long left;

#ifdef CONFIG_X86
	left = copy_from_user_nmi(dst, (const void __user *)addr, len);
#else
	if (!access_ok((const void __user *)addr, len))
		return 0;
	pagefault_disable();
	left = __copy_from_user_inatomic(dst, (const void __user *)addr, len);
	pagefault_enable();
#endif
	return len - left;
}

/*
 * The user registers of uregs (user mode, a 64-bit task), in DWARF
 * order with the PC last (<linux/hwpmclog.h>), into regs; their number,
 * or 0 for a task whose ABI has no USERSTACK form.
 */
static u16 hwpmc_user_regs(struct pt_regs *uregs, u64 *regs, u16 *abi)
{
#ifdef CONFIG_X86_64
	if (!user_64bit_mode(uregs))
		return 0;
	regs[0] = uregs->ax;
	regs[1] = uregs->dx;
	regs[2] = uregs->cx;
	regs[3] = uregs->bx;
	regs[4] = uregs->si;
	regs[5] = uregs->di;
	regs[6] = uregs->bp;
	regs[7] = uregs->sp;
	regs[8] = uregs->r8;
	regs[9] = uregs->r9;
	regs[10] = uregs->r10;
	regs[11] = uregs->r11;
	regs[12] = uregs->r12;
	regs[13] = uregs->r13;
	regs[14] = uregs->r14;
	regs[15] = uregs->r15;
	regs[16] = uregs->ip;
	*abi = PMC_USTACK_ABI_X86_64;
	return 17;
#elif defined(CONFIG_ARM64)
	int i;

	if (compat_user_mode(uregs))
		return 0;
	for (i = 0; i < 31; i++)
		regs[i] = uregs->regs[i];
	regs[31] = uregs->sp;
	regs[32] = uregs->pc;
	*abi = PMC_USTACK_ABI_ARM64;
	return 33;
#else
	return 0;
#endif
}

#define HWPMC_USTACK_NREGS	33	/* the most of hwpmc_user_regs() */

/*
 * The user registers of uregs and size bytes of its stack, into r's
 * stack ring for sample s (the handler, r->nest held); nothing when
 * the ring is full or the task's ABI has no USERSTACK form.
 */
static void hwpmc_ustack_take(struct hwpmc_ring *r, struct hwpmc_sample *s,
			      struct pt_regs *uregs, u32 size)
{
	u64 regs[HWPMC_USTACK_NREGS];
	u32 pos = r->shead, off, need;
	unsigned long sp, top;
	size_t got = 0;
	char *p;
	u16 abi = 0, nregs;

	s->spos = s->send = pos;
	if (!r->stack)
		return;
	nregs = hwpmc_user_regs(uregs, regs, &abi);
	if (!nregs)
		return;
	need = nregs * sizeof(u64) + size;
	off = pos & (hwpmc_stack_size - 1);
	if (off + need > hwpmc_stack_size)
		pos += hwpmc_stack_size - off;	/* wrap: whole at the start */
	/* the drain's release of the bytes it is done with */
	if (pos + need - smp_load_acquire(&r->stail) > hwpmc_stack_size) {
		hwpmc_stat_inc(stacks_dropped);
		return;
	}
	p = r->stack + (pos & (hwpmc_stack_size - 1));
	memcpy(p, regs, nregs * sizeof(u64));
	sp = user_stack_pointer(uregs);
	top = TASK_SIZE;
	if (sp < top)
		got = hwpmc_user_copy(p + nregs * sizeof(u64), sp,
				      min_t(unsigned long, size, top - sp));
	s->abi = abi;
	s->nregs = nregs;
	s->size = size;
	s->dynsize = round_down(got, sizeof(u64));
	s->spos = pos;
	s->send = pos + need;
	r->shead = pos + need;
}

/* -- the handler ------------------------------------------------------------ */

/*
 * May a sample taken in the kernel read current's user state (its saved
 * registers, its stack words)?  Not for kernel threads.  Nor in arm64's
 * pseudo-NMI, which can land between switch_mm() and switch_to(): user
 * memory is then the next task's (x86's copy_from_user_nmi() checks
 * nmi_uaccess_okay() itself; arm64 has no such check).
 */
static bool hwpmc_user_of_kernel_ok(void)
{
	if (!current->mm || (current->flags & PF_KTHREAD))
		return false;
	return !(IS_ENABLED(CONFIG_ARM64) && in_nmi());
}

static void hwpmc_sample_take(struct hwpmc_pmc *pm, bool callchain,
			      struct pt_regs *regs)
{
	struct hwpmc_ring *r = this_cpu_ptr(&hwpmc_rings);
	u32 depth = hwpmc_callchaindepth, flags = 0, n;
	u32 modes = pm->caps & (PMC_CAP_USER | PMC_CAP_SYSTEM);
	struct hwpmc_sample *s;
	struct pt_regs *uregs;
	unsigned int head;

	/*
	 * Skid: the PMI of a counter that counts one mode only can arrive
	 * after the CPU changed mode (a syscall entered the kernel).  A
	 * user-mode-only PMC never reports the kernel: its sample is the
	 * user state at kernel entry, or nothing for a kernel thread (nor
	 * in arm64's pseudo-NMI, whose user memory may be the next task's).
	 * A kernel-mode-only PMC's samples in user mode are dropped.
	 */
	if (!user_mode(regs) && modes == PMC_CAP_USER) {
		if (!hwpmc_user_of_kernel_ok()) {
			hwpmc_stat_inc(intr_ignored);
			return;
		}
		regs = task_pt_regs(current);
		if (!user_mode(regs) ||
		    instruction_pointer(regs) >= TASK_SIZE_MAX) {
			hwpmc_stat_inc(intr_ignored);
			return;
		}
	} else if (user_mode(regs) && modes == PMC_CAP_SYSTEM) {
		hwpmc_stat_inc(intr_ignored);
		return;
	}
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
	s = hwpmc_ring_slot(r, head);
	s->pm = pm;
	s->time = ktime_get_mono_fast_ns();
	s->pid = current->tgid;
	s->tid = current->pid;
	s->spos = s->send = r->shead;
	if (pm->flags & PMC_F_USERSTACK) {
		uregs = user_mode(regs) ? regs : NULL;
		if (!uregs && hwpmc_user_of_kernel_ok()) {
			uregs = task_pt_regs(current);
			if (!user_mode(uregs))
				uregs = NULL;
		}
		if (uregs)
			hwpmc_ustack_take(r, s, uregs, pm->stacksize);
	}
	if (user_mode(regs)) {
		flags = PMC_CC_F_USERSPACE;
		n = callchain ? hwpmc_user_chain(regs, s->pc, depth) : 0;
		if (!n) {
			s->pc[0] = instruction_pointer(regs);
			n = 1;
		}
	} else if (callchain) {
		n = hwpmc_kernel_chain(regs, s->pc, depth);
		if (n < depth && hwpmc_user_of_kernel_ok()) {
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
	/* publish the slot to the drainer: pairs with its acquire of head */
	smp_store_release(&r->head, head + 1);
	hwpmc_stat_inc(intr_processed);
	local_dec(&r->nest);
	/* an NMI during the drain below fills the ring, and kicks it */
	if (!in_nmi())
		hwpmc_ring_drain(r);
	else if (head + 1 - READ_ONCE(r->tail) >= (hwpmc_ring_mask + 1) / 2 ||
		 (hwpmc_stack_size &&
		  r->shead - READ_ONCE(r->stail) >= hwpmc_stack_size / 2))
		irq_work_queue(&r->kick_now);
	else
		irq_work_queue(&r->kick);
	return;
out:
	local_dec(&r->nest);
}

/*
 * PMC_F_NOTIFY's signal (hwpmc.4), from the irq_work that the overflow
 * raised on its CPU: to the thread that overflowed, which a counter of a
 * thread-scope PMC counts only while it runs, if it still runs here (the
 * pointer is compared, never followed).  It does unless the overflow
 * came in the scheduler's switch away from it (perf's context-switch
 * software event): that one is dropped.  Not from the overflow itself:
 * NMI, or the scheduler's locks held.
 */
static void hwpmc_notify_send(struct irq_work *w)
{
	struct hwpmc_ring *r = container_of(w, struct hwpmc_ring, notify);
	struct kernel_siginfo info;

	if (READ_ONCE(r->ntask) != current) {
		hwpmc_stat_inc(intr_ignored);
		return;
	}
	clear_siginfo(&info);
	info.si_signo = PMC_NOTIFY_SIGNAL;
	info.si_code = PMC_NOTIFY_CODE;
	info.si_addr = (void __user *)READ_ONCE(r->naddr);
	send_sig_info(PMC_NOTIFY_SIGNAL, &info, current);
}

static void hwpmc_notify(struct pt_regs *regs)
{
	struct hwpmc_ring *r = this_cpu_ptr(&hwpmc_rings);

	/* a pending signal of this CPU is current's too: they merge */
	WRITE_ONCE(r->ntask, current);
	WRITE_ONCE(r->naddr, regs && user_mode(regs) ?
		   instruction_pointer(regs) : 0);
	irq_work_queue(&r->notify);
}

/*
 * A counter of PMC context overflowed (hwpmc_backend.c calls this for
 * perf), in NMI, IRQ or IRQs-off context; the PMC lives while the
 * counter does.  A PMC_F_NOTIFY PMC signals the first overflow after its
 * start, and samples only into a log.
 */
void hwpmc_sample_overflow(void *context, struct pt_regs *regs)
{
	struct hwpmc_pmc *pm = context;

	if (!PMC_IS_SAMPLING_MODE(pm->mode))
		return;		/* a counting counter wrapped */
	if (READ_ONCE(pm->state) != PMC_STATE_RUNNING) {
		hwpmc_stat_inc(intr_ignored);
		return;
	}
	if (pm->flags & PMC_F_NOTIFY) {
		if (atomic_xchg(&pm->notify, 0))
			hwpmc_notify(regs);
		if (!hwpmc_pmc_log(pm))
			return;
	}
	hwpmc_sample_take(pm, pm->flags & (PMC_F_CALLCHAIN |
					   PMC_F_USERCALLCHAIN), regs);
}

/* -- the drain -------------------------------------------------------------- */

/* Move r's samples into their owners' logs; any context but NMI. */
static void hwpmc_ring_drain(struct hwpmc_ring *r)
{
	struct hwpmc_sample *s;
	struct hwpmc_log *lg;
	unsigned int head, tail;
	unsigned long flags;

	raw_spin_lock_irqsave(&r->lock, flags);
	/* the handler's release of the slots it filled */
	head = smp_load_acquire(&r->head);
	for (tail = r->tail; tail != head; tail++) {
		s = hwpmc_ring_slot(r, tail);
		/* the PMC, its owner and its log live until RCU's next period */
		lg = hwpmc_pmc_log(s->pm);
		if (!lg) {
			hwpmc_stat_inc(intr_ignored);
		} else if (s->send != s->spos) {
			struct hwpmc_ustack us = {
				.abi = s->abi,
				.nregs = s->nregs,
				.size = s->size,
				.dynsize = s->dynsize,
				.data = r->stack +
					(s->spos & (hwpmc_stack_size - 1)),
			};

			hwpmc_rec_callchain_ustack(lg, s->time, s->pm->id,
						   s->pid, s->tid, s->cpuflags,
						   s->pc, s->npc, &us);
		} else {
			hwpmc_rec_callchain(lg, s->time, s->pm->id, s->pid,
					    s->tid, s->cpuflags, s->pc, s->npc);
		}
		if (s->send != s->spos) {
			/* its stack's bytes are free: pairs with the handler */
			smp_store_release(&r->stail, s->send);
		}
		/* the slot is free again: pairs with the handler */
		smp_store_release(&r->tail, tail + 1);
	}
	raw_spin_unlock_irqrestore(&r->lock, flags);
}

static void hwpmc_ring_kick(struct irq_work *w)
{
	rcu_read_lock();
	hwpmc_ring_drain(this_cpu_ptr(&hwpmc_rings));
	rcu_read_unlock();
}

/*
 * Every CPU's pending samples, into their logs; process context.  (The
 * release of a PMC calls this after its counters are gone, so that its
 * last samples are logged before it goes.)
 */
void hwpmc_sample_drain(void)
{
	struct hwpmc_ring *r;
	int cpu;

	rcu_read_lock();
	for_each_possible_cpu(cpu) {
		r = per_cpu_ptr(&hwpmc_rings, cpu);
		if (r->slots)
			hwpmc_ring_drain(r);
	}
	rcu_read_unlock();
	hwpmc_stat_inc(log_sweeps);
}

int hwpmc_sample_init(void)
{
	struct hwpmc_ring *r;
	int cpu;

	hwpmc_slot_size = ALIGN(sizeof(struct hwpmc_sample) +
				hwpmc_callchaindepth * sizeof(u64), 8);
	hwpmc_ring_mask = hwpmc_nsamples - 1;
	hwpmc_stack_size = hwpmc_maxstackuser ?
		roundup_pow_of_two(4 * (hwpmc_maxstackuser +
					HWPMC_USTACK_NREGS * sizeof(u64))) : 0;
	for_each_possible_cpu(cpu) {
		r = per_cpu_ptr(&hwpmc_rings, cpu);
		raw_spin_lock_init(&r->lock);
		r->kick = IRQ_WORK_INIT_LAZY(hwpmc_ring_kick);
		r->kick_now = IRQ_WORK_INIT_HARD(hwpmc_ring_kick);
		r->notify = IRQ_WORK_INIT_HARD(hwpmc_notify_send);
		r->slots = vzalloc_node(hwpmc_nsamples * hwpmc_slot_size,
					cpu_to_node(cpu));
		if (hwpmc_stack_size)
			r->stack = vmalloc_node(hwpmc_stack_size,
						cpu_to_node(cpu));
		if (!r->slots || (hwpmc_stack_size && !r->stack)) {
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

	for_each_possible_cpu(cpu) {
		r = per_cpu_ptr(&hwpmc_rings, cpu);
		irq_work_sync(&r->kick);
		irq_work_sync(&r->kick_now);
		irq_work_sync(&r->notify);
	}
	for_each_possible_cpu(cpu) {
		r = per_cpu_ptr(&hwpmc_rings, cpu);
		vfree(r->slots);
		r->slots = NULL;
		vfree(r->stack);
		r->stack = NULL;
	}
}
