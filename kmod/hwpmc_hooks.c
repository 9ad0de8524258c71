// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: what logs learn from the kernel about their targets
 * (FreeBSD's PMC_FN_* hooks): exec, fork, exit, and executable
 * mappings, so that a reader can resolve the user addresses of samples.
 *
 * A thread is a target thread of a sampling PMC when it carries the
 * PMC's perf counters, which perf copies into new threads (new processes
 * with DESCENDANTS get their own: hwpmc_born_queue()); the hooks, which
 * run in the context
 * of the process concerned, find those PMCs among the current task's
 * counters (hwpmc_md_task_counters()).  Counting PMCs are found in the
 * thread's record (hwpmc_csw.c: hwpmc_thr_gens()), which forks keep in
 * step.  Running
 * system-sampling PMCs hear about every process (hwpmc_ss_pmcs).
 *
 *   exec    sched_process_exec (hwpmc_lifecycle.c calls
 *           hwpmc_hooks_exec()), after the new image and its dynamic
 *           linker are mapped, before the image runs: PROCEXEC with
 *           their addresses, then MAP_IN of the image's mappings, which
 *           the mmap probes do not tell while the task is in exec;
 *           for a program not dumpable, the exit probe below, which
 *           begin_new_exec() reaches before perf ends the task's
 *           counters: PROCEXEC, without addresses, to the task's PMCs.
 *   mmap    kprobe on perf_event_mmap(), which mmap_region() and
 *           mprotect() call for every new mapping: MAP_IN for
 *           executable mappings (the image, its interpreter,
 *           libraries loaded by the loader or by dlopen() later,
 *           anonymous memory made executable for JIT code).
 *   fork    sched_process_fork: PROCFORK for DESCENDANTS PMCs, and the
 *           task work that makes the new process their target.
 *   exit    kprobe on perf_event_exit_task(), which do_exit() calls
 *           before perf folds the thread's counters into their parents:
 *           the thread's slots end (hwpmc_csw.c: PROCCSW, and PROCEXIT
 *           from the process's last counted thread, of counting and
 *           sampling PMCs alike); THR_EXIT; the end of the process
 *           (hwpmc_lifecycle.c, once): SYSEXIT to system samplers.
 *   attach  PMCATTACH and MAP_IN of the target's existing mappings.
 *   switch  nothing here: PROCCSW, of counting and sampling PMCs alike,
 *           comes from the target threads' records (hwpmc_csw.c).
 *
 * Without CONFIG_KPROBES there are no exec and mmap records, and the
 * slots end at sched_process_exit: on kernels where that comes after
 * perf ended the thread's counters (6.12), a sampling PMC's PROCEXIT
 * misses what they counted (hwpmc.4, BUGS).
 */
#define pr_fmt(fmt) "hwpmc: " fmt

#include <linux/kernel.h>
#include <linux/auxvec.h>
#include <linux/binfmts.h>
#include <linux/dcache.h>
#include <linux/elf.h>
#include <linux/hashtable.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mman.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/task_work.h>
#include <linux/timekeeping.h>
#include <linux/wait_bit.h>
#include <linux/hwpmclog.h>

#include "compat.h"
#include "hwpmc_internal.h"
#include "hwpmc_hooks.h"
#include "hwpmc_csw.h"
#include "hwpmc_records.h"
#include "hwpmc_log.h"
#include "hwpmc_watch.h"
#include "hwpmc_tracepoint.h"
#include "hwpmc_backend.h"

LIST_HEAD(hwpmc_ss_pmcs);
struct hwpmc_owner hwpmc_kprof;
LIST_HEAD(hwpmc_kprof_pmcs);

#define HWPMC_LOGSET_MAX	16

/*
 * Distinct logs to tell, with the first PMC id of each, and which of
 * them are system samplers' (bit i of sys).
 */
struct hwpmc_logset {
	int			n;
	u32			sys;
	struct hwpmc_log	*lg[HWPMC_LOGSET_MAX];
	u32			id[HWPMC_LOGSET_MAX];
};

/* lg (NULL: none) in ls, for PMC id; its index, or -1 (ls full) */
static int hwpmc_logset_add_log(struct hwpmc_logset *ls,
				struct hwpmc_log *lg, u32 id)
{
	int i;

	if (!lg)
		return -1;
	for (i = 0; i < ls->n; i++)
		if (ls->lg[i] == lg)
			return i;
	if (ls->n == HWPMC_LOGSET_MAX)
		return -1;
	ls->lg[ls->n] = lg;
	ls->id[ls->n] = id;
	return ls->n++;
}

/* pm's log in ls; its index, or -1 (no log, or ls full) */
static int hwpmc_logset_add(struct hwpmc_logset *ls, struct hwpmc_pmc *pm)
{
	return hwpmc_logset_add_log(ls, hwpmc_pmc_log(pm), pm->id);
}

struct hwpmc_carry {
	const struct hwpmc_pmc	*pm;
	bool			found;
};

static void hwpmc_find_pmc(struct perf_event *ev, struct hwpmc_pmc *pm,
			   void *arg)
{
	struct hwpmc_carry *c = arg;

	if (pm == c->pm)
		c->found = true;
}

/*
 * Does t carry a counter of sampling PMC pm already: perf's copy of one,
 * made when a thread that had one cloned it?  (An attach makes counters
 * for the threads that have none; t's context may meanwhile be swapped
 * with a clone's, which carries the same copies.)
 */
bool hwpmc_task_carries(struct task_struct *t, const struct hwpmc_pmc *pm)
{
	struct hwpmc_carry c = { .pm = pm };

	rcu_read_lock();
	hwpmc_md_task_counters(t, hwpmc_find_pmc, &c);
	rcu_read_unlock();
	return c.found;
}

static void hwpmc_add_sampling(struct perf_event *ev, struct hwpmc_pmc *pm,
			       void *arg)
{
	if (PMC_IS_SAMPLING_MODE(pm->mode))
		hwpmc_logset_add(arg, pm);
}

static void hwpmc_add_descendants(struct perf_event *ev, struct hwpmc_pmc *pm,
				  void *arg)
{
	if (pm->flags & PMC_F_DESCENDANTS)
		hwpmc_logset_add(arg, pm);
}

static void hwpmc_add_descendants_pmc(struct hwpmc_pmc *pm, u32 gen,
				      void *arg)
{
	hwpmc_add_descendants(NULL, pm, arg);
}

/* The logs of running system-sampling PMCs; RCU read side. */
static void hwpmc_add_system(struct hwpmc_logset *ls)
{
	struct hwpmc_pmc *pm;
	int i;

	list_for_each_entry_rcu(pm, &hwpmc_ss_pmcs, sslink) {
		i = hwpmc_logset_add(ls, pm);
		if (i >= 0)
			ls->sys |= BIT(i);
	}
}

static bool hwpmc_hooks_idle(void)
{
	return !atomic_read(&hwpmc_active);
}

/* -- kprobes: exec, mmap and exit ------------------------------------------- */


#ifdef CONFIG_KPROBES
static char __percpu *hwpmc_pathbuf;	/* PMCLOG_PATH_MAX per CPU */

static int hwpmc_kp_mmap(struct kprobe *kp, struct pt_regs *regs)
{
	struct vm_area_struct *vma;
	struct hwpmc_logset ls = { 0 };
	const char *path;
	u64 now;
	int i;

	if (hwpmc_hooks_idle())
		return 0;
	vma = (struct vm_area_struct *)regs_get_kernel_argument(regs, 0);
	if (!vma || !hwpmc_vma_wanted(vma) || vma->vm_mm != current->mm)
		return 0;
	/* the image an exec loads: after its PROCEXEC (hwpmc_hooks_exec()) */
	if (current->in_execve)
		return 0;
	rcu_read_lock();
	hwpmc_md_task_counters(current, hwpmc_add_sampling, &ls);
	hwpmc_add_system(&ls);
	if (ls.n) {
		path = hwpmc_vma_path(vma, this_cpu_ptr(hwpmc_pathbuf));
		now = ktime_get_mono_fast_ns();
		for (i = 0; !IS_ERR(path) && i < ls.n; i++)
			hwpmc_rec_map_in(ls.lg[i], current->tgid, vma, path, now);
	}
	rcu_read_unlock();
	return 0;
}

/*
 * [start, end) of the current process's mm is about to be unmapped:
 * MAP_OUT of the range when an executable mapping is in it.  mmap_lock
 * is held for writing by the caller.
 */
static void hwpmc_unmapping(struct mm_struct *mm, unsigned long start,
			    unsigned long end)
{
	struct vm_area_struct *vma;
	struct hwpmc_logset ls = { 0 };
	u64 now;
	int i;

	if (!mm || mm != current->mm || end <= start || current->in_execve)
		return;
	for (vma = find_vma(mm, start); vma && vma->vm_start < end;
	     vma = find_vma(mm, vma->vm_end))
		if (hwpmc_vma_wanted(vma))
			break;
	if (!vma || vma->vm_start >= end)
		return;
	rcu_read_lock();
	hwpmc_md_task_counters(current, hwpmc_add_sampling, &ls);
	hwpmc_add_system(&ls);
	now = ktime_get_mono_fast_ns();
	for (i = 0; i < ls.n; i++)
		hwpmc_rec_map_out(ls.lg[i], current->tgid, start, end, now);
	rcu_read_unlock();
}

/*
 * munmap() and mremap() of mm's [start, start + len) (the munmap entry
 * of this kernel: do_vmi_munmap() from 6.2, do_mas_munmap() in 6.1).
 */
static int hwpmc_kp_munmap(struct kprobe *kp, struct pt_regs *regs)
{
	unsigned long start;

	if (hwpmc_hooks_idle())
		return 0;
	start = regs_get_kernel_argument(regs, 2);
	hwpmc_unmapping((struct mm_struct *)regs_get_kernel_argument(regs, 1),
			start,
			start + PAGE_ALIGN(regs_get_kernel_argument(regs, 3)));
	return 0;
}

/*
 * mmap_region(file, addr, len, ...) of the current process: from 6.12 it
 * unmaps what [addr, addr + len) replaces (MAP_FIXED) itself, with
 * vms_gather_munmap_vmas(), without the munmap entry; the MAP_OUT of the
 * old mappings comes before the new one's MAP_IN, as FreeBSD's readers
 * need.
 */
static int hwpmc_kp_mmap_region(struct kprobe *kp, struct pt_regs *regs)
{
	unsigned long addr;

	if (hwpmc_hooks_idle())
		return 0;
	addr = regs_get_kernel_argument(regs, 1);
	hwpmc_unmapping(current->mm, addr,
			addr + PAGE_ALIGN(regs_get_kernel_argument(regs, 2)));
	return 0;
}

static struct kprobe hwpmc_kp_mmreg = {
	.symbol_name = "mmap_region",
	.pre_handler = hwpmc_kp_mmap_region,
};
static bool hwpmc_kp_mmreg_on;

/*
 * Does mmap_region() unmap what it replaces itself?  Where the kernel
 * has vms_gather_munmap_vmas() (6.12, Liam Howlett's "Avoid MAP_FIXED
 * gap exposure" series), a change inside mm/ that no header shows:
 * asked of kallsyms through a kprobe never armed.
 */
static bool hwpmc_mmap_region_unmaps(void)
{
	struct kprobe kp = {
		.symbol_name = "vms_gather_munmap_vmas",
		.flags = KPROBE_FLAG_DISABLED,
	};
	int error = register_kprobe(&kp);

	if (!error)
		unregister_kprobe(&kp);
	return error != -ENOENT;
}

static const char * const hwpmc_munmap_syms[] = {
	"do_vmi_munmap", "do_mas_munmap",
};

static struct kprobe hwpmc_kp_unmap = { .pre_handler = hwpmc_kp_munmap };
static bool hwpmc_kp_unmap_on;

static void hwpmc_munmap_probe_init(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(hwpmc_munmap_syms); i++) {
		memset(&hwpmc_kp_unmap, 0, sizeof(hwpmc_kp_unmap));
		hwpmc_kp_unmap.symbol_name = hwpmc_munmap_syms[i];
		hwpmc_kp_unmap.pre_handler = hwpmc_kp_munmap;
		if (!register_kprobe(&hwpmc_kp_unmap)) {
			hwpmc_kp_unmap_on = true;
			break;
		}
	}
	if (!hwpmc_kp_unmap_on)
		pr_info("no munmap entry to probe: logs get no MAP_OUT records\n");
	if (!hwpmc_mmap_region_unmaps())
		return;
	if (!register_kprobe(&hwpmc_kp_mmreg))
		hwpmc_kp_mmreg_on = true;
	else
		pr_info("no mmap_region() to probe: no MAP_OUT of a MAP_FIXED replacement\n");
}

static void hwpmc_add_any(struct perf_event *ev, struct hwpmc_pmc *pm,
			  void *arg)
{
	hwpmc_logset_add(arg, pm);
}

static void hwpmc_add_any_pmc(struct hwpmc_pmc *pm, u32 gen, void *arg)
{
	hwpmc_logset_add(arg, pm);
}

/*
 * The addresses FreeBSD's PROCEXEC gives, of the image bprm just loaded
 * into mm: *dynaddr, the executable's relocation (FreeBSD's et_dyn_addr:
 * AT_ENTRY less the ELF header's e_entry for ET_DYN, 0 for ET_EXEC), and
 * *baseaddr, its dynamic linker's base (FreeBSD's reloc_base: AT_BASE,
 * or *dynaddr without one).  From the ELF header the loader read
 * (bprm->buf) and the auxiliary vector it made (mm->saved_auxv, of the
 * image's words: 32-bit ones packed for a compat task).  Both 0 for
 * other images.  The exec'ing task, which alone writes saved_auxv.
 */
static void hwpmc_exec_addrs(const struct linux_binprm *bprm,
			     const struct mm_struct *mm, u64 *baseaddr,
			     u64 *dynaddr)
{
	const unsigned char *id = bprm->buf;
	const unsigned long *l = mm->saved_auxv;
	const u32 *w = (const u32 *)mm->saved_auxv;
	size_t i, nw = ARRAY_SIZE(mm->saved_auxv) * (sizeof(long) / 4);
	u64 type, entry, at_entry = 0, at_base = 0, mask = U64_MAX;

	*baseaddr = 0;
	*dynaddr = 0;
	BUILD_BUG_ON(sizeof(Elf64_Ehdr) > BINPRM_BUF_SIZE);
	if (memcmp(id, ELFMAG, SELFMAG))
		return;
	if (id[EI_CLASS] == ELFCLASS64 && sizeof(long) == 8) {
		type = ((const Elf64_Ehdr *)id)->e_type;
		entry = ((const Elf64_Ehdr *)id)->e_entry;
		for (i = 0; i + 1 < ARRAY_SIZE(mm->saved_auxv) &&
		     l[i] != AT_NULL; i += 2) {
			if (l[i] == AT_ENTRY)
				at_entry = l[i + 1];
			else if (l[i] == AT_BASE)
				at_base = l[i + 1];
		}
	} else if (id[EI_CLASS] == ELFCLASS32) {
		type = ((const Elf32_Ehdr *)id)->e_type;
		entry = ((const Elf32_Ehdr *)id)->e_entry;
		mask = U32_MAX;
		for (i = 0; i + 1 < nw && w[i] != AT_NULL; i += 2) {
			if (w[i] == AT_ENTRY)
				at_entry = w[i + 1];
			else if (w[i] == AT_BASE)
				at_base = w[i + 1];
		}
	} else {
		return;
	}
	if (type == ET_DYN && at_entry)
		*dynaddr = (at_entry - entry) & mask;
	*baseaddr = at_base ? at_base : *dynaddr;
}

/*
 * The current task execs a program its user may not dump (set-ID or
 * file-capability programs with suid_dumpable 0, unreadable ones), and
 * perf is about to end its counters (begin_new_exec() calls
 * perf_event_exit_task(), after commit_creds(), which settles the
 * dumpability): PROCEXEC, without addresses, to the logs of the PMCs on
 * the task, while they still find them; system samplers hear of it at
 * hwpmc_hooks_exec().  RCU read side.
 */
static void hwpmc_exec_nodump(void)
{
	struct mm_struct *mm = current->mm;
	struct hwpmc_logset ls = { 0 };
	struct file *exe;
	char *path = "";
	u64 now;
	int i;

	if (!mm)
		return;
	hwpmc_md_task_counters(current, hwpmc_add_any, &ls);
	hwpmc_thr_gens(current, hwpmc_add_any_pmc, &ls);
	if (!ls.n)
		return;
	exe = rcu_dereference(mm->exe_file);
	if (exe)
		path = d_path(&exe->f_path, this_cpu_ptr(hwpmc_pathbuf),
			      PMCLOG_PATH_MAX);
	if (IS_ERR(path))
		path = "";
	now = ktime_get_mono_fast_ns();
	for (i = 0; i < ls.n; i++)
		hwpmc_rec_procexec(ls.lg[i], ls.id[i], current->tgid, 0, 0,
				   path, now);
}

/*
 * The current task has exec'ed bprm's image (sched_process_exec, after
 * the image and its dynamic linker were mapped, before it runs): PROCEXEC
 * with their addresses, then MAP_IN of the new image's executable
 * mappings, to the logs of the PMCs on the task and of system samplers.
 * The mappings the exec made were not told as they were made (the mmap
 * probes skip a task in exec), so that they follow the PROCEXEC here, as
 * FreeBSD's readers, which forget a process's mappings at its PROCEXEC,
 * need.  A set-ID or file-capability exec (secure, or not dumpable: see
 * hwpmc_thr_exec()) gives its addresses and mappings only to system
 * samplers, as perf gives its layout to no counter of the task's; the
 * logs of the task's PMCs had the PROCEXEC of a program not dumpable
 * from hwpmc_exec_nodump(), while the task still carried its counters.
 * Called before hwpmc_thr_exec(), so that the counting PMCs that a
 * secure exec ends hear of it.
 */
void hwpmc_hooks_exec(const struct linux_binprm *bprm)
{
	struct mm_struct *mm = current->mm;
	struct hwpmc_logset ls = { 0 };
	char *buf = this_cpu_ptr(hwpmc_pathbuf);
	struct file *exe;
	u64 now, baseaddr, dynaddr;
	bool nodump, secure, locked;
	char *path = "";
	int i;

	if (hwpmc_hooks_idle() || !mm)
		return;
	nodump = get_dumpable(mm) != SUID_DUMP_USER;
	secure = bprm->secureexec || nodump;
	rcu_read_lock();
	if (!nodump) {
		hwpmc_md_task_counters(current, hwpmc_add_any, &ls);
		hwpmc_thr_gens(current, hwpmc_add_any_pmc, &ls);
	}
	hwpmc_add_system(&ls);
	if (!ls.n)
		goto out;
	hwpmc_exec_addrs(bprm, mm, &baseaddr, &dynaddr);
	exe = rcu_dereference(mm->exe_file);
	if (exe)
		path = d_path(&exe->f_path, buf, PMCLOG_PATH_MAX);
	if (IS_ERR(path))
		path = "";
	now = ktime_get_mono_fast_ns();
	for (i = 0; i < ls.n; i++) {
		if (secure && !(ls.sys & BIT(i)))
			hwpmc_rec_procexec(ls.lg[i], ls.id[i], current->tgid,
					   0, 0, path, now);
		else
			hwpmc_rec_procexec(ls.lg[i], ls.id[i], current->tgid,
					   baseaddr, dynaddr, path, now);
	}
	/*
	 * Only the exec'ing task (its other threads are gone) or a reader
	 * of its maps could hold the new mm's lock; a writer waiting
	 * behind such a reader makes us lose the mappings, as dropped.
	 */
	locked = mmap_read_trylock(mm);
	for (i = 0; i < ls.n; i++) {
		if (secure && !(ls.sys & BIT(i)))
			continue;
		if (locked)
			hwpmc_rec_maps_locked(ls.lg[i], current->tgid, mm, buf,
					      now);
		else
			hwpmc_log_lost(ls.lg[i]);
	}
	if (locked)
		mmap_read_unlock(mm);
out:
	rcu_read_unlock();
}

/* A counter perf could not schedule: its PMC's count is partial. */
static void hwpmc_note_failed(struct perf_event *ev, struct hwpmc_pmc *pm,
			      void *arg)
{
	if (READ_ONCE(pm->state) == PMC_STATE_RUNNING &&
	    hwpmc_md_failed_here(ev))
		WRITE_ONCE(pm->unsched, true);
}

/* The current thread p exits: THR_EXIT to system samplers; RCU. */
static void hwpmc_thr_gone(struct task_struct *p)
{
	struct hwpmc_logset ss = { 0 };
	u64 now = ktime_get_mono_fast_ns();
	int i;

	hwpmc_add_system(&ss);
	for (i = 0; i < ss.n; i++)
		hwpmc_rec_thr_exit(ss.lg[i], p->pid, now);
}

static int hwpmc_kp_exit(struct kprobe *kp, struct pt_regs *regs)
{
	struct task_struct *p;

	p = (struct task_struct *)regs_get_kernel_argument(regs, 0);
	if (p != current)
		return 0;
	if (!hwpmc_hooks_idle()) {
		/*
		 * before perf_event_exit_task() makes the error state an
		 * exit, at exit or at the exec of a non-dumpable program
		 */
		rcu_read_lock();
		hwpmc_md_task_counters(p, hwpmc_note_failed, NULL);
		rcu_read_unlock();
	}
	if (!(p->flags & PF_EXITING)) {
		/* begin_new_exec(): the exec of a program not dumpable */
		if (!hwpmc_hooks_idle()) {
			rcu_read_lock();
			hwpmc_exec_nodump();
			rcu_read_unlock();
		}
		return 0;
	}
	/*
	 * the thread's slots (counting PMCs, and sampling ones' PROCCSW and
	 * PROCEXIT) end where perf's counters do; also without owners, for
	 * a record whose notifier is on p's list
	 */
	rcu_read_lock();
	hwpmc_thr_exit(p);
	rcu_read_unlock();
	if (hwpmc_hooks_idle())
		return 0;
	rcu_read_lock();
	hwpmc_thr_gone(p);
	rcu_read_unlock();
	return 0;
}

static struct kprobe hwpmc_kprobes[] = {
	{ .symbol_name = "perf_event_mmap", .pre_handler = hwpmc_kp_mmap },
	{ .symbol_name = "perf_event_exit_task", .pre_handler = hwpmc_kp_exit },
};

static int hwpmc_kprobes_init(void)
{
	int i, error;

	hwpmc_pathbuf = __alloc_percpu(PMCLOG_PATH_MAX, 8);
	if (!hwpmc_pathbuf)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(hwpmc_kprobes); i++) {
		error = register_kprobe(&hwpmc_kprobes[i]);
		if (error) {
			pr_err("kprobe on %s: error %d\n",
			       hwpmc_kprobes[i].symbol_name, error);
			while (--i >= 0)
				unregister_kprobe(&hwpmc_kprobes[i]);
			free_percpu(hwpmc_pathbuf);
			return error;
		}
	}
	hwpmc_munmap_probe_init();
	return 0;
}

static void hwpmc_kprobes_fini(void)
{
	int i;

	if (hwpmc_kp_unmap_on)
		unregister_kprobe(&hwpmc_kp_unmap);
	if (hwpmc_kp_mmreg_on)
		unregister_kprobe(&hwpmc_kp_mmreg);
	for (i = 0; i < ARRAY_SIZE(hwpmc_kprobes); i++)
		unregister_kprobe(&hwpmc_kprobes[i]);
	free_percpu(hwpmc_pathbuf);
}
#else
static int hwpmc_kprobes_init(void)
{
	pr_info("no kprobes: logs get no exec and mmap records\n");
	return 0;
}

void hwpmc_hooks_exec(const struct linux_binprm *bprm)
{
}

static void hwpmc_kprobes_fini(void)
{
}
#endif

/* -- fork and exit ------------------------------------------------------------ */

/*
 * -- inherited counters that perf leaves off -------------------------------
 *
 * A new thread inherits a copy of each of our counters in the
 * state of the original: off while the PMC is stopped (and forever
 * after, since PMCSTART can only enable the original), and off too when
 * the original is dead, which happens when perf has swapped the target's
 * context with a thread's (its switch optimisation for cloned contexts)
 * and that thread exited.  Copies left off are enabled in the new
 * task's own context, before it first returns to user space; counts of
 * a stopped PMC are not lost by that, since its value excludes what its
 * counters count while it is stopped (hwpmc_target.c).
 */
#define HWPMC_ENABLE_MAX	16

struct hwpmc_evset {
	int			n;
	struct perf_event	*ev[HWPMC_ENABLE_MAX];
	const void		*pinned;	/* the context pinned last */
};

static atomic_t hwpmc_enable_pending = ATOMIC_INIT(0);

static void hwpmc_add_off(struct perf_event *ev, struct hwpmc_pmc *pm,
			  void *arg)
{
	struct hwpmc_evset *es = arg;

	if (hwpmc_md_off(ev) && es->n < HWPMC_ENABLE_MAX)
		es->ev[es->n++] = ev;
}

/* Walker: OFF counters, and pin the context (lock held) once. */
static void hwpmc_add_inherited(struct perf_event *ev, struct hwpmc_pmc *pm,
				void *arg)
{
	struct hwpmc_evset *es = arg;

	hwpmc_md_pin_held(ev, &es->pinned);
	if (hwpmc_md_off(ev) && es->n == HWPMC_ENABLE_MAX)
		hwpmc_pmc_lost(pm);	/* stays off: the child is not counted */
	hwpmc_add_off(ev, pm, arg);
}

/* Task work of a new task: enable its counters of ours that are off. */
static void hwpmc_enable_inherited(struct callback_head *cb)
{
	struct hwpmc_evset es = { 0 };
	int i;

	kfree(cb);
	/* no PMC (and so none of its counters' copies) goes meanwhile */
	down_read(&hwpmc_sx);
	rcu_read_lock();
	hwpmc_md_task_counters(current, hwpmc_add_off, &es);
	rcu_read_unlock();
	/* current's contexts are pinned: its counters stay with it */
	for (i = 0; i < es.n; i++)
		hwpmc_md_start(es.ev[i]);
	up_read(&hwpmc_sx);
	if (atomic_dec_and_test(&hwpmc_enable_pending))
		wake_up_var(&hwpmc_enable_pending);
}

/*
 * Child, which has not run yet, got copies of our counters: pin their
 * contexts; any off?
 */
static void hwpmc_check_inherited(struct task_struct *child)
{
	struct hwpmc_evset es = { 0 };
	struct callback_head *cb;
	int i;

	hwpmc_md_task_counters(child, hwpmc_add_inherited, &es);
	if (!es.n)
		return;
	cb = kmalloc(sizeof(*cb), GFP_ATOMIC | __GFP_NOWARN);
	if (!cb) {
		pr_warn_ratelimited("no memory to enable the counters of new task %d\n",
				    task_pid_nr(child));
		for (i = 0; i < es.n; i++)
			hwpmc_pmc_lost(hwpmc_md_context(es.ev[i]));
		return;
	}
	init_task_work(cb, hwpmc_enable_inherited);
	atomic_inc(&hwpmc_enable_pending);
	if (task_work_add(child, cb, TWA_RESUME)) {
		kfree(cb);
		if (atomic_dec_and_test(&hwpmc_enable_pending))
			wake_up_var(&hwpmc_enable_pending);
	}
}

/* -- new processes of DESCENDANTS targets ---------------------------------------- */

static void (*hwpmc_born_fn)(struct callback_head *cb);

struct hwpmc_born_walk {
	struct hwpmc_born	*b;	/* NULL: counting the PMCs only */
	struct task_struct	*child;
	u32			n;	/* DESCENDANTS PMCs seen */
	bool			nomem;
};

/*
 * pm, which makes the child its target, of the parent's attach gen: in
 * the task work's list, or, without room or memory, lost (its slots in
 * the child stop counting: hwpmc_thr_forget()).
 */
static void hwpmc_born_add(struct hwpmc_born_walk *w, struct hwpmc_pmc *pm,
			   u32 gen)
{
	struct hwpmc_born *b = w->b;
	u32 i;

	if (!(pm->flags & PMC_F_DESCENDANTS))
		return;
	w->n++;
	if (!b && !w->nomem)
		return;
	for (i = 0; b && i < b->n; i++)
		if (b->e[i].pm == pm)
			return;
	if (!b || b->n == HWPMC_BORN_MAX) {
		/*
		 * Counting PMCs' slots, found outside perf's context lock,
		 * under which hwpmc_vlock may not be taken (hwpmc_thr_exit()
		 * takes them the other way round); a sampling PMC's counters
		 * come with the task work only.
		 */
		if (hwpmc_pmc_virtual(pm))
			hwpmc_thr_forget(w->child, pm);
		hwpmc_pmc_lost(pm);	/* the child is not its target */
		return;
	}
	b->e[b->n].pm = pm;
	b->e[b->n].okey = pm->owner->tgid;
	b->e[b->n].serial = pm->serial;
	b->e[b->n].gen = gen;
	b->e[b->n++].dseq = READ_ONCE(pm->dseq);
}

/* A sampling PMC's counter in the parent: of the parent's attach. */
static void hwpmc_born_add_ev(struct perf_event *ev, struct hwpmc_pmc *pm,
			      void *arg)
{
	u32 gen;

	if (hwpmc_target_gen_rcu(pm, task_tgid(current), &gen))
		hwpmc_born_add(arg, pm, gen);
}

/* A counting PMC's slot in the child, copied from the parent's. */
static void hwpmc_born_add_slot(struct hwpmc_pmc *pm, u32 gen, void *arg)
{
	hwpmc_born_add(arg, pm, gen);
}

static void hwpmc_born_walk(struct hwpmc_born_walk *w)
{
	hwpmc_md_task_counters(current, hwpmc_born_add_ev, w);
	hwpmc_thr_gens(w->child, hwpmc_born_add_slot, w);
}

/*
 * New process child of the current one, which has not run yet: the
 * DESCENDANTS PMCs the current process is a target of (its own counters,
 * or the slots the fork copied into the child) make child their target
 * too, as FreeBSD's pmc_process_fork() does.  Targets change under
 * hwpmc_sx, which this probe may not take: a task work of the child's
 * does it, before the child first returns to user space
 * (hwpmc_pmc_born()).  Its counting slots are the fork's already
 * (hwpmc_thr_fork()); its sampling counters come with the task work.
 * The task work holds the module: rmmod says EBUSY meanwhile, and the
 * unload waits for works queued during it.
 */
static void hwpmc_born_queue(struct task_struct *child)
{
	struct hwpmc_born_walk w = { .child = child };

	hwpmc_born_walk(&w);		/* any? */
	if (!w.n)
		return;
	w.b = kzalloc(sizeof(*w.b), GFP_ATOMIC | __GFP_NOWARN);
	w.nomem = !w.b;
	w.n = 0;
	hwpmc_born_walk(&w);
	if (!w.b || !w.b->n) {
		kfree(w.b);
		return;
	}
	w.b->parent = get_pid(task_tgid(current));
	init_task_work(&w.b->cb, hwpmc_born_fn);
	__module_get(THIS_MODULE);
	atomic_inc(&hwpmc_enable_pending);
	/* cannot fail: the child has not run, let alone exited */
	if (task_work_add(child, &w.b->cb, TWA_RESUME))
		hwpmc_hooks_born_done(w.b);
}

/* The end of a hwpmc_born's task work: the last thing it does. */
void hwpmc_hooks_born_done(struct hwpmc_born *b)
{
	put_pid(b->parent);
	kfree(b);
	if (atomic_dec_and_test(&hwpmc_enable_pending))
		wake_up_var(&hwpmc_enable_pending);
	module_put(THIS_MODULE);
}

static void hwpmc_probe_fork(void *data, struct task_struct *parent,
			     struct task_struct *child)
{
	struct hwpmc_logset ls = { 0 }, ss = { 0 };
	u64 now;
	int i;

	if (hwpmc_hooks_idle() || parent != current)
		return;
	rcu_read_lock();
	hwpmc_thr_fork(current, child);
	hwpmc_check_inherited(child);
	/* system samplers learn the names of new processes and threads */
	hwpmc_add_system(&ss);
	now = ktime_get_mono_fast_ns();
	for (i = 0; i < ss.n; i++) {
		if (thread_group_leader(child))
			hwpmc_rec_proc_create(ss.lg[i], child, now);
		hwpmc_rec_thr_create(ss.lg[i], child, now);
	}
	if (!thread_group_leader(child)) {
		rcu_read_unlock();
		return;
	}
	hwpmc_born_queue(child);
	hwpmc_md_task_counters(current, hwpmc_add_descendants, &ls);
	hwpmc_thr_gens(current, hwpmc_add_descendants_pmc, &ls);
	hwpmc_add_system(&ls);
	for (i = 0; i < ls.n; i++)
		hwpmc_rec_procfork(ls.lg[i], current->tgid, child->tgid, now);
	rcu_read_unlock();
}

/* -- the kernel and its modules: MAP_IN, MAP_OUT of pid -1 ------------------- */

/*
 * Where the kernel's code is, found with exported interfaces only (no
 * kallsyms_lookup_name()): _stext, the start of its text, resolved by
 * a kprobe never armed (register_kprobe() resolves the name before it
 * checks the address, which arm64 refuses to probe there); _text, the
 * start of the image (its first PT_LOAD, the base FreeBSD's readers
 * want), 2 MB aligned below it on x86-64 and arm64, taken when a symbol
 * starts there (sprint_symbol(); not without CONFIG_KALLSYMS_ALL, as
 * Debian's arm64 kernels), else _stext.  The end of the text (_etext)
 * is no function: unknown.  0 when neither is found (no kprobes).
 */
static unsigned long hwpmc_kbase, hwpmc_kstext;

/*
 * The kernel's list of modules (unexported "modules"): the list_head
 * before this module's own while it initializes, as load_module() adds
 * a module at the head; taken only when sprint_symbol() names it
 * "modules" exactly, else NULL: another module was added meanwhile (one
 * still UNFORMED is in no module for kallsyms), or kallsyms has no data
 * symbols (no CONFIG_KALLSYMS_ALL, as Debian's arm64 kernels); then
 * only the modules loaded later are told.
 */
static struct list_head *hwpmc_modules;

static void hwpmc_kmaps_find(void)
{
	char buf[KSYM_SYMBOL_LEN];
	struct list_head *h = THIS_MODULE->list.prev;
	unsigned long base;
#ifdef CONFIG_KPROBES
	struct kprobe kp = {
		.symbol_name = "_stext",
		.flags = KPROBE_FLAG_DISABLED,
	};

	if (!register_kprobe(&kp))
		unregister_kprobe(&kp);
	hwpmc_kstext = (unsigned long)kp.addr;
#endif
	if (hwpmc_kstext) {
		base = hwpmc_kstext & ~((unsigned long)SZ_2M - 1);
		sprint_symbol(buf, base);
		hwpmc_kbase = strstr(buf, "+0x0/") ? base : hwpmc_kstext;
	}
	sprint_symbol(buf, (unsigned long)h);
	if (!strncmp(buf, "modules+0x0/", sizeof("modules+0x0/") - 1))
		hwpmc_modules = h;
	else
		pr_info("the list of modules not found: no MAP_IN of the modules loaded before hwpmc\n");
}

static void hwpmc_rec_module(struct hwpmc_log *lg, const struct module *mod,
			     bool in, u64 now)
{
	char name[MODULE_NAME_LEN + 2];
	unsigned long start, end;

	hwpmc_module_text(mod, &start, &end);
	if (!start)
		return;
	if (in) {
		snprintf(name, sizeof(name), "[%s]", mod->name);
		hwpmc_rec_kmap_in(lg, start, start, end, name, now);
	} else {
		hwpmc_rec_map_out(lg, -1, start, end, now);
	}
}

/*
 * MAP_IN of the kernel ("[kernel]": its base, its text from _stext, the
 * end unknown) and of the modules loaded, to lg: FreeBSD's
 * pmc_log_kernel_mappings(), for an owner allowed to see kernel
 * addresses (hwpmc_owner.c decides).  Process context.
 */
void hwpmc_hooks_kernel_maps(struct hwpmc_log *lg)
{
	struct module *mod;
	u64 now = ktime_get_mono_fast_ns();

	if (hwpmc_kstext)
		hwpmc_rec_kmap_in(lg, hwpmc_kbase, hwpmc_kstext, hwpmc_kstext,
				  "[kernel]", now);
	if (!hwpmc_modules)
		return;
	rcu_read_lock();
	list_for_each_entry_rcu(mod, hwpmc_modules, list) {
		/* GOING: its MAP_OUT may be told already */
		if (READ_ONCE(mod->state) == MODULE_STATE_UNFORMED ||
		    READ_ONCE(mod->state) == MODULE_STATE_GOING)
			continue;
		hwpmc_rec_module(lg, mod, true, now);
	}
	rcu_read_unlock();
}

/*
 * A module comes (before its init runs) or goes: MAP_IN or MAP_OUT of
 * its code to the system samplers whose owners may see kernel addresses.
 */
static int hwpmc_module_event(struct notifier_block *nb, unsigned long what,
			      void *data)
{
	struct hwpmc_logset ls = { 0 };
	struct hwpmc_pmc *pm;
	u64 now;
	int i;

	if ((what != MODULE_STATE_COMING && what != MODULE_STATE_GOING) ||
	    hwpmc_hooks_idle())
		return NOTIFY_DONE;
	rcu_read_lock();
	list_for_each_entry_rcu(pm, &hwpmc_ss_pmcs, sslink)
		if (READ_ONCE(pm->owner->kaddrs))
			hwpmc_logset_add(&ls, pm);
	hwpmc_logset_add_log(&ls, READ_ONCE(hwpmc_kprof.log), 0);
	now = ktime_get_mono_fast_ns();
	for (i = 0; i < ls.n; i++)
		hwpmc_rec_module(ls.lg[i], data, what == MODULE_STATE_COMING,
				 now);
	rcu_read_unlock();
	return NOTIFY_DONE;
}

static struct notifier_block hwpmc_module_nb = {
	.notifier_call = hwpmc_module_event,
};
static bool hwpmc_module_nb_on;

/* p's process ends (hwpmc_lifecycle.c): SYSEXIT to system samplers. */
void hwpmc_hooks_exit(struct task_struct *p)
{
	struct hwpmc_logset ls = { 0 };
	u64 now = ktime_get_mono_fast_ns();
	int i;

	rcu_read_lock();
	hwpmc_add_system(&ls);
	for (i = 0; i < ls.n; i++)
		hwpmc_rec_sysexit(ls.lg[i], p->tgid, now);
	rcu_read_unlock();
}

int hwpmc_hooks_init(void (*born)(struct callback_head *cb))
{
	int error;

	hwpmc_born_fn = born;
	error = hwpmc_tp_register(HWPMC_TP_FORK, hwpmc_probe_fork);
	if (error)
		return error;
	error = hwpmc_kprobes_init();
	if (error) {
		hwpmc_tp_unregister(HWPMC_TP_FORK, hwpmc_probe_fork);
		hwpmc_tp_sync();
		return error;
	}
	hwpmc_kmaps_find();
	if (!register_module_notifier(&hwpmc_module_nb))
		hwpmc_module_nb_on = true;
	else
		pr_info("no module notifier: no MAP_IN of modules loaded later\n");
	return 0;
}

void hwpmc_hooks_fini(void)
{
	if (hwpmc_module_nb_on)
		unregister_module_notifier(&hwpmc_module_nb);
	hwpmc_kprobes_fini();
	hwpmc_tp_unregister(HWPMC_TP_FORK, hwpmc_probe_fork);
	hwpmc_tp_sync();
	/* new tasks run their task work before they first leave the kernel */
	wait_var_event(&hwpmc_enable_pending,
		       !atomic_read(&hwpmc_enable_pending));
	/*
	 * and have returned from hwpmc_enable_inherited(): the last of
	 * them may be preempted after its wake-up, still in this module's
	 * text.  A task is past it once it switched voluntarily or ran in
	 * user mode, which is what an RCU-tasks grace period waits for.
	 */
	synchronize_rcu_tasks();
	synchronize_rcu();
}
