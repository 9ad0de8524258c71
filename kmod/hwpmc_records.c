// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: every log record is built here (the record half of
 * FreeBSD's hwpmc_logging.c), facing the one reader, libhwpmc/pmclog.c,
 * across include/uapi/linux/hwpmclog.h.  hwpmc_log.c keeps the buffers
 * and the writer; the callers (operations on PMCs, the kernel hooks,
 * context switches, the sample drain) decide which logs hear of what,
 * and call these with the log and the facts.  Each function appends in
 * any context but NMI unless it says it sleeps; a record that finds no
 * buffer is counted as lost by the log.  Their times are
 * ktime_get_mono_fast_ns(), the samples' clock: the hooks' kprobes run in
 * an int3 handler, which is NMI context to lockdep (x86), where
 * ktime_get_ns()'s seqcount is not to be taken.
 */
#define pr_fmt(fmt) "hwpmc: " fmt

#include <linux/kernel.h>
#include <linux/dcache.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/hwpmclog.h>

#include "compat.h"
#include "hwpmc_internal.h"
#include "hwpmc_records.h"
#include "hwpmc_log.h"
#include "hwpmc_backend.h"

/* -- PMCs -------------------------------------------------------------------- */

/*
 * PMCALLOCATE, or for a SOFT- or PERF-class PMC, as FreeBSD's for events
 * whose code does not name them, PMCALLOCATEDYN: the PMC, its event's
 * code and name (pm->evname: the caller's for the PERF class and raw
 * events), its flags and reload count.
 */
void hwpmc_rec_pmcallocate(struct hwpmc_log *lg, const struct hwpmc_pmc *pm)
{
	struct pmclog_pmcallocate r;

	/* the two records have one layout; only their type differs */
	BUILD_BUG_ON(sizeof(struct pmclog_pmcallocatedyn) != sizeof(r) ||
		     offsetof(struct pmclog_pmcallocatedyn, pl_rate) !=
		     offsetof(struct pmclog_pmcallocate, pl_rate) ||
		     offsetof(struct pmclog_pmcallocatedyn, pl_evname) !=
		     offsetof(struct pmclog_pmcallocate, pl_evname));
	memset(&r, 0, sizeof(r));
	r.pl_pmcid = pm->id;
	r.pl_event = pm->event->code;
	r.pl_flags = pm->flags;
	if (PMC_IS_SAMPLING_MODE(pm->mode))
		r.pl_rate = pm->reload;
	strscpy(r.pl_evname, pm->evname, sizeof(r.pl_evname));
	hwpmc_log_append(lg, PMC_ID_TO_CLASS(pm->id) == PMC_CLASS_SOFT ||
			 PMC_ID_TO_CLASS(pm->id) == PMC_CLASS_PERF ?
			 PMCLOG_TYPE_PMCALLOCATEDYN : PMCLOG_TYPE_PMCALLOCATE,
			 ktime_get_mono_fast_ns(), &r, sizeof(r), NULL, 0);
}

/* PMCDETACH: PMC pmcid no longer counts process pid. */
void hwpmc_rec_pmcdetach(struct hwpmc_log *lg, u32 pmcid, pid_t pid)
{
	struct pmclog_pmcdetach r = { .pl_pmcid = pmcid, .pl_pid = pid };

	hwpmc_log_append(lg, PMCLOG_TYPE_PMCDETACH, ktime_get_mono_fast_ns(), &r,
			 sizeof(r), NULL, 0);
}

/* USERDATA of the current process (WRITELOG); 0 or the append's error. */
int hwpmc_rec_userdata(struct hwpmc_log *lg, u32 userdata)
{
	struct pmclog_userdata r = {
		.pl_userdata = userdata,
		.pl_pid = task_tgid_nr(current),
	};

	return hwpmc_log_append(lg, PMCLOG_TYPE_USERDATA, ktime_get_mono_fast_ns(), &r,
				sizeof(r), NULL, 0);
}

/* -- processes and their mappings ---------------------------------------------- */

static u32 hwpmc_vma_prot(const struct vm_area_struct *vma)
{
	return (vma->vm_flags & VM_READ ? PROT_READ : 0) |
	       (vma->vm_flags & VM_WRITE ? PROT_WRITE : 0) |
	       (vma->vm_flags & VM_EXEC ? PROT_EXEC : 0);
}

/*
 * FreeBSD's MAP_IN address: the object's base, the start of the first
 * mapping of its file, from which its readers (libpmcstat) place the
 * object with its program headers.  The mappings the loaders make of an
 * ELF file lie side by side from the base up (the holes between
 * segments stay mapped, PROT_NONE), their file offsets not decreasing:
 * the first of the mappings of vma's file that end where the next one
 * starts; vma's own start for anonymous memory.  mmap_lock held.
 */
static unsigned long hwpmc_vma_base(const struct vm_area_struct *vma)
{
	const struct vm_area_struct *v = vma, *prev;
	struct inode *ino;
	int n;

	if (!vma->vm_file)
		return vma->vm_start;
	ino = file_inode(vma->vm_file);
	for (n = 0; n < 64 && v->vm_start; n++) {
		prev = find_vma(vma->vm_mm, v->vm_start - 1);
		if (!prev || prev->vm_end != v->vm_start || !prev->vm_file ||
		    file_inode(prev->vm_file) != ino ||
		    prev->vm_pgoff > v->vm_pgoff)
			break;
		v = prev;
	}
	return v->vm_start;
}

void hwpmc_rec_map_in(struct hwpmc_log *lg, pid_t pid,
			 const struct vm_area_struct *vma, const char *path,
			 u64 time)
{
	struct pmclog_map_in r = {
		.pl_pid = pid,
		.pl_prot = hwpmc_vma_prot(vma),
		.pl_start = hwpmc_vma_base(vma),
		.pl_mapstart = vma->vm_start,
		.pl_end = vma->vm_end,
		/* anonymous memory has no file offset */
		.pl_pgoff = vma->vm_file ? (u64)vma->vm_pgoff << PAGE_SHIFT : 0,
	};

	hwpmc_log_append_path(lg, PMCLOG_TYPE_MAP_IN, time, &r, sizeof(r),
			      path);
}

/*
 * MAP_IN of kernel code, pid -1 as FreeBSD's: [start, end) of name
 * ("[kernel]", "[module]"), whose base is base.
 */
void hwpmc_rec_kmap_in(struct hwpmc_log *lg, unsigned long base,
		       unsigned long start, unsigned long end,
		       const char *name, u64 time)
{
	struct pmclog_map_in r = {
		.pl_pid = -1,
		.pl_prot = PROT_READ | PROT_EXEC,
		.pl_start = base,
		.pl_mapstart = start,
		.pl_end = end,
	};

	hwpmc_log_append_path(lg, PMCLOG_TYPE_MAP_IN, time, &r, sizeof(r),
			      name);
}

/*
 * Executable mappings: of files, and anonymous ones, where code made at
 * run time lives (a JIT compiler's, described in /tmp/perf-PID.map), and
 * the vDSO.
 */
bool hwpmc_vma_wanted(const struct vm_area_struct *vma)
{
	return vma->vm_flags & VM_EXEC;
}

/*
 * The path MAP_IN gives a wanted mapping: its file's, in buf
 * (PMCLOG_PATH_MAX); else the names perf gives: a special mapping's own
 * ("[vdso]", "[uprobes]"; the vDSO is named so before the x86 exec code
 * records where it put it), "[heap]", "[stack]" (executable with
 * READ_IMPLIES_EXEC or an executable stack), and "//anon", code made at
 * run time.  An ERR_PTR when the file's path does not fit.
 */
const char *hwpmc_vma_path(const struct vm_area_struct *vma, char *buf)
{
	struct vm_area_struct *v = (struct vm_area_struct *)vma;
	const struct mm_struct *mm = vma->vm_mm;
	const char *name;

	if (vma->vm_file)
		return d_path(&vma->vm_file->f_path, buf, PMCLOG_PATH_MAX);
	if (vma->vm_ops && vma->vm_ops->name) {
		name = vma->vm_ops->name(v);
		if (name)
			return name;
	}
	if (mm && vma->vm_start <= mm->brk && vma->vm_end >= mm->start_brk)
		return "[heap]";
	if (mm && vma->vm_start <= mm->start_stack &&
	    vma->vm_end >= mm->start_stack)
		return "[stack]";
	return "//anon";
}

/*
 * The executable mappings of mm to lg, for process pid, at time now;
 * mmap_lock held (preemption may be off: paths go to buf).
 */
void hwpmc_rec_maps_locked(struct hwpmc_log *lg, pid_t pid,
			   struct mm_struct *mm, char *buf, u64 now)
{
	struct vm_area_struct *vma;
	unsigned long addr = 0;
	const char *path;

	mmap_assert_locked(mm);
	while ((vma = find_vma(mm, addr))) {
		addr = vma->vm_end;
		if (!hwpmc_vma_wanted(vma))
			continue;
		path = hwpmc_vma_path(vma, buf);
		if (!IS_ERR(path))
			hwpmc_rec_map_in(lg, pid, vma, path, now);
	}
}

/*
 * The executable file mappings of mm to lg, for process pid; process
 * context, mm referenced.
 */
static void hwpmc_rec_maps(struct hwpmc_log *lg, pid_t pid,
			   struct mm_struct *mm, char *buf)
{
	mmap_read_lock(mm);
	hwpmc_rec_maps_locked(lg, pid, mm, buf, ktime_get_mono_fast_ns());
	mmap_read_unlock(mm);
}

/*
 * A process became a target of pm: PMCATTACH with the path of its
 * executable and, when maps, MAP_IN for its executable mappings.
 * Process context (hwpmc_sx held).
 */
void hwpmc_rec_pmcattach(struct hwpmc_log *lg, const struct hwpmc_pmc *pm,
			 struct task_struct *p, bool maps)
{
	struct pmclog_pmcattach r = {
		.pl_pmcid = pm->id,
		.pl_pid = task_tgid_nr(p),
	};
	struct mm_struct *mm;
	struct file *exe = NULL;
	char *buf, *path = "";

	lockdep_assert_held(&hwpmc_sx);
	might_sleep();
	buf = kmalloc(PMCLOG_PATH_MAX, GFP_KERNEL);
	if (!buf) {
		hwpmc_log_lost(lg);	/* PMCATTACH, MAP_IN */
		return;
	}
	mm = get_task_mm(p);
	if (mm)
		exe = hwpmc_mm_exe_file(mm);
	if (exe) {
		path = d_path(&exe->f_path, buf, PMCLOG_PATH_MAX);
		if (IS_ERR(path))
			path = "";
	}
	hwpmc_log_append_path(lg, PMCLOG_TYPE_PMCATTACH, ktime_get_mono_fast_ns(), &r,
			      sizeof(r), path);
	if (exe)
		fput(exe);
	if (mm && maps)
		hwpmc_rec_maps(lg, task_tgid_nr(p), mm, buf);
	if (mm)
		mmput(mm);
	kfree(buf);
}

/* A system-sampling PMC starts: the mappings of every process. */
void hwpmc_rec_all_maps(struct hwpmc_log *lg)
{
	struct task_struct *p, **t = NULL;
	struct mm_struct *mm;
	u32 n = 0, max = 64, i;
	char *buf;

	buf = kmalloc(PMCLOG_PATH_MAX, GFP_KERNEL);
	if (!buf)
		goto lost;
	rcu_read_lock();
	for_each_process(p)
		max++;
	rcu_read_unlock();
	t = kvcalloc(max, sizeof(*t), GFP_KERNEL);
	if (!t)
		goto lost;
	rcu_read_lock();
	for_each_process(p) {
		if (n == max)
			break;		/* born meanwhile: their MAP_INs come */
		if (!(p->flags & PF_KTHREAD))
			t[n++] = get_task_struct(p);
	}
	rcu_read_unlock();
	for (i = 0; i < n; i++) {
		mm = get_task_mm(t[i]);
		if (mm) {
			hwpmc_rec_maps(lg, task_tgid_nr(t[i]), mm, buf);
			mmput(mm);
		}
		put_task_struct(t[i]);
	}
	goto out;
lost:
	hwpmc_log_lost(lg);		/* the processes' MAP_INs */
out:
	kvfree(t);
	kfree(buf);
}

/* MAP_OUT: [start, end) of process pid was unmapped. */
void hwpmc_rec_map_out(struct hwpmc_log *lg, pid_t pid, unsigned long start,
		       unsigned long end, u64 time)
{
	struct pmclog_map_out r = {
		.pl_pid = pid,
		.pl_start = start,
		.pl_end = end,
	};

	hwpmc_log_append(lg, PMCLOG_TYPE_MAP_OUT, time, &r, sizeof(r), NULL, 0);
}

/*
 * PROCEXEC: process pid, counted by pmcid, executes path, its dynamic
 * linker at baseaddr and the executable relocated by dynaddr.
 */
void hwpmc_rec_procexec(struct hwpmc_log *lg, u32 pmcid, pid_t pid,
			u64 baseaddr, u64 dynaddr, const char *path, u64 time)
{
	struct pmclog_procexec r = {
		.pl_pid = pid,
		.pl_pmcid = pmcid,
		.pl_baseaddr = baseaddr,
		.pl_dynaddr = dynaddr,
	};

	hwpmc_log_append_path(lg, PMCLOG_TYPE_PROCEXEC, time, &r, sizeof(r),
			      path);
}

/* PROCFORK: process oldpid made process newpid. */
void hwpmc_rec_procfork(struct hwpmc_log *lg, pid_t oldpid, pid_t newpid,
			u64 time)
{
	struct pmclog_procfork r = {
		.pl_oldpid = oldpid,
		.pl_newpid = newpid,
	};

	hwpmc_log_append(lg, PMCLOG_TYPE_PROCFORK, time, &r, sizeof(r), NULL, 0);
}

/* SYSEXIT: process pid ended (to system samplers). */
void hwpmc_rec_sysexit(struct hwpmc_log *lg, pid_t pid, u64 time)
{
	struct pmclog_sysexit r = { .pl_pid = pid };

	hwpmc_log_append(lg, PMCLOG_TYPE_SYSEXIT, time, &r, sizeof(r), NULL, 0);
}

/*
 * PROC_CREATE, THR_CREATE and THR_EXIT, which FreeBSD writes to the logs
 * of system samplers: the names of processes and threads.  pl_flags,
 * FreeBSD's p_flag, has no Linux counterpart: 0.  Any context but NMI.
 */
void hwpmc_rec_proc_create(struct hwpmc_log *lg, struct task_struct *p,
			   u64 time)
{
	struct pmclog_proc_create r = { .pl_pid = task_tgid_nr(p) };

	/* as perf copies it: no task_lock in a probe */
	BUILD_BUG_ON(sizeof(r.pl_pcomm) < TASK_COMM_LEN);
	strscpy_pad(r.pl_pcomm, p->comm, sizeof(r.pl_pcomm));
	hwpmc_log_append(lg, PMCLOG_TYPE_PROC_CREATE, time, &r, sizeof(r),
			 NULL, 0);
}

void hwpmc_rec_thr_create(struct hwpmc_log *lg, struct task_struct *t,
			  u64 time)
{
	struct pmclog_thr_create r = {
		.pl_tid = task_pid_nr(t),
		.pl_pid = task_tgid_nr(t),
	};

	BUILD_BUG_ON(sizeof(r.pl_tdname) < TASK_COMM_LEN);
	strscpy_pad(r.pl_tdname, t->comm, sizeof(r.pl_tdname));
	hwpmc_log_append(lg, PMCLOG_TYPE_THR_CREATE, time, &r, sizeof(r),
			 NULL, 0);
}

void hwpmc_rec_thr_exit(struct hwpmc_log *lg, pid_t tid, u64 time)
{
	struct pmclog_thr_exit r = { .pl_tid = tid };

	hwpmc_log_append(lg, PMCLOG_TYPE_THR_EXIT, time, &r, sizeof(r), NULL, 0);
}

/*
 * PROC_CREATE and THR_CREATE for every process and thread there is, for
 * a system sampler's log (those born meanwhile come from the fork hook:
 * the caller put the PMC on hwpmc_ss_pmcs first).  RCU's read side
 * only: no allocation, nothing sleeps.
 */
void hwpmc_rec_all_tasks(struct hwpmc_log *lg)
{
	struct task_struct *p, *t;
	u64 now = ktime_get_mono_fast_ns();

	rcu_read_lock();
	for_each_process(p) {
		hwpmc_rec_proc_create(lg, p, now);
		for_each_thread(p, t)
			hwpmc_rec_thr_create(lg, t, now);
	}
	rcu_read_unlock();
}

/* -- counts ---------------------------------------------------------------------- */

/* PROCCSW: thread t counted value for pm in the slice that ends. */
void hwpmc_rec_proccsw(const struct hwpmc_pmc *pm, struct task_struct *t,
		       u64 value)
{
	struct pmclog_proccsw r = {
		.pl_pmcid = pm->id,
		.pl_pid = t->tgid,
		.pl_tid = t->pid,
		.pl_value = value,
	};
	struct hwpmc_log *lg = hwpmc_pmc_log(pm);

	if (lg)
		hwpmc_log_append(lg, PMCLOG_TYPE_PROCCSW, ktime_get_mono_fast_ns(), &r,
				 sizeof(r), NULL, 0);
}

/*
 * Processes ended, each with what it counted for a PMC with
 * LOG_PROCEXIT (the last of its threads: hwpmc_thr_exit()).  Atomic
 * context, RCU.
 */
void hwpmc_rec_procexit(const struct hwpmc_exitset *es, pid_t tgid)
{
	struct pmclog_procexit r = { .pl_pid = tgid };
	struct hwpmc_log *lg;
	u64 now = ktime_get_mono_fast_ns();
	int i;

	for (i = 0; i < es->n; i++) {
		/* a PMC being released: no record */
		if (READ_ONCE(es->pm[i]->state) == PMC_STATE_DELETED)
			continue;
		lg = hwpmc_pmc_log(es->pm[i]);
		if (!lg)
			continue;
		r.pl_pmcid = es->pm[i]->id;
		r.pl_value = es->value[i];
		hwpmc_log_append(lg, PMCLOG_TYPE_PROCEXIT, now, &r, sizeof(r),
				 NULL, 0);
	}
}

/* -- samples ------------------------------------------------------------------- */

/* CALLCHAIN: a sample of pmcid in thread tid of pid, its npc addresses. */
void hwpmc_rec_callchain(struct hwpmc_log *lg, u64 time, u32 pmcid, pid_t pid,
			 pid_t tid, u32 cpuflags, const u64 *pc, u32 npc)
{
	struct pmclog_callchain cc = {
		.pl_pid = pid,
		.pl_tid = tid,
		.pl_pmcid = pmcid,
		.pl_cpuflags = cpuflags,
	};

	hwpmc_log_append(lg, PMCLOG_TYPE_CALLCHAIN, time, &cc, sizeof(cc), pc,
			 npc * sizeof(u64));
}

/*
 * A sample with its user registers and stack (ustk: nregs registers,
 * then dynsize bytes of stack): USERSTACK, then CALLCHAIN, together.
 * When the two do not fit in a log buffer, the CALLCHAIN alone.
 */
void hwpmc_rec_callchain_ustack(struct hwpmc_log *lg, u64 time, u32 pmcid,
				pid_t pid, pid_t tid, u32 cpuflags,
				const u64 *pc, u32 npc,
				const struct hwpmc_ustack *us)
{
	struct pmclog_userstack ur = {
		.pl_pmcid = pmcid,
		.pl_abi = us->abi,
		.pl_nregs = us->nregs,
		.pl_size = us->size,
		.pl_dynsize = us->dynsize,
	};
	struct pmclog_callchain cc = {
		.pl_pid = pid,
		.pl_tid = tid,
		.pl_pmcid = pmcid,
		.pl_cpuflags = cpuflags,
	};
	struct hwpmc_logrec rs[2] = {
		{ PMCLOG_TYPE_USERSTACK, &ur, sizeof(ur), us->data,
		  us->nregs * sizeof(u64) + us->dynsize },
		{ PMCLOG_TYPE_CALLCHAIN, &cc, sizeof(cc), pc,
		  npc * sizeof(u64) },
	};

	if (ALIGN(sizeof(ur) + rs[0].taillen, PMCLOG_ALIGN) +
	    ALIGN(sizeof(cc) + rs[1].taillen, PMCLOG_ALIGN) >
	    hwpmc_log_max_len()) {
		hwpmc_stat_inc(stacks_dropped);
		hwpmc_log_appendv(lg, time, rs + 1, 1);
	} else {
		hwpmc_log_appendv(lg, time, rs, 2);
	}
}
