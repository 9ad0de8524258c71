/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: hwpmc_records.c, every log record, built from the
 * facts its callers give and appended through hwpmc_log.c.
 */
#ifndef _HWPMC_RECORDS_H
#define _HWPMC_RECORDS_H

#include <linux/types.h>

struct hwpmc_log;
struct hwpmc_pmc;
struct mm_struct;
struct task_struct;
struct vm_area_struct;

/* PROCEXIT: what exiting threads counted, per PMC (atomic context, RCU). */
#define HWPMC_EXIT_MAX		16

struct hwpmc_exitset {
	int			n;
	struct hwpmc_pmc	*pm[HWPMC_EXIT_MAX];
	u64			value[HWPMC_EXIT_MAX];
};

void hwpmc_rec_pmcallocate(struct hwpmc_log *lg, const struct hwpmc_pmc *pm);
void hwpmc_rec_pmcdetach(struct hwpmc_log *lg, u32 pmcid, pid_t pid);
int hwpmc_rec_userdata(struct hwpmc_log *lg, u32 userdata);
void hwpmc_rec_pmcattach(struct hwpmc_log *lg, const struct hwpmc_pmc *pm,
			 struct task_struct *p, bool maps);
void hwpmc_rec_all_maps(struct hwpmc_log *lg);
bool hwpmc_vma_wanted(const struct vm_area_struct *vma);
const char *hwpmc_vma_path(const struct vm_area_struct *vma, char *buf);
void hwpmc_rec_maps_locked(struct hwpmc_log *lg, pid_t pid,
			   struct mm_struct *mm, char *buf, u64 now);
void hwpmc_rec_kmap_in(struct hwpmc_log *lg, unsigned long base,
		       unsigned long start, unsigned long end,
		       const char *name, u64 time);
void hwpmc_rec_map_in(struct hwpmc_log *lg, pid_t pid,
		      const struct vm_area_struct *vma, const char *path,
		      u64 time);
void hwpmc_rec_map_out(struct hwpmc_log *lg, pid_t pid, unsigned long start,
		       unsigned long end, u64 time);
void hwpmc_rec_procexec(struct hwpmc_log *lg, u32 pmcid, pid_t pid,
			u64 baseaddr, u64 dynaddr, const char *path, u64 time);
void hwpmc_rec_procfork(struct hwpmc_log *lg, pid_t oldpid, pid_t newpid,
			u64 time);
void hwpmc_rec_sysexit(struct hwpmc_log *lg, pid_t pid, u64 time);
void hwpmc_rec_proc_create(struct hwpmc_log *lg, struct task_struct *p,
			   u64 time);
void hwpmc_rec_thr_create(struct hwpmc_log *lg, struct task_struct *t,
			  u64 time);
void hwpmc_rec_thr_exit(struct hwpmc_log *lg, pid_t tid, u64 time);
void hwpmc_rec_all_tasks(struct hwpmc_log *lg);
void hwpmc_rec_proccsw(const struct hwpmc_pmc *pm, struct task_struct *t,
		       u64 value);
void hwpmc_rec_procexit(const struct hwpmc_exitset *es, pid_t tgid);
/* A sample's user registers and stack (hwpmc_sample.c's ring). */
struct hwpmc_ustack {
	u16		abi;		/* PMC_USTACK_ABI_* */
	u16		nregs;
	u32		size;		/* asked for */
	u32		dynsize;	/* copied */
	const void	*data;		/* nregs u64s, then dynsize bytes */
};

void hwpmc_rec_callchain_ustack(struct hwpmc_log *lg, u64 time, u32 pmcid,
				pid_t pid, pid_t tid, u32 cpuflags,
				const u64 *pc, u32 npc,
				const struct hwpmc_ustack *us);
void hwpmc_rec_callchain(struct hwpmc_log *lg, u64 time, u32 pmcid, pid_t pid,
			 pid_t tid, u32 cpuflags, const u64 *pc, u32 npc);

#endif /* _HWPMC_RECORDS_H */
