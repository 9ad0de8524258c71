/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: hwpmc_csw.c, counting process PMCs (and the PROCCSW of
 * sampling ones): per-CPU counters, saved and restored at context
 * switches for target threads.  hwpmc_sx held unless said.
 */
#ifndef _HWPMC_CSW_H
#define _HWPMC_CSW_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/rcupdate.h>

struct hwpmc_pmc;
struct hwpmc_thr;
struct perf_event;
struct pid;
struct task_struct;

/*
 * PROCEXIT of a counting PMC with PMC_F_LOG_PROCEXIT: one per target
 * process, shared by the slots of its threads.  The thread whose exit
 * takes nlive to 0 logs value, once, whatever order the threads of an
 * exit_group() come in.  hwpmc_vlock.
 */
struct hwpmc_pexit {
	u32			refs;		/* slots that point here */
	u32			nlive;		/* of them: threads live, !gone */
	u64			value;		/* what the exited ones counted */
	struct rcu_head		rcu;
};

/*
 * A target thread of a counting process PMC: what the thread counted
 * since the PMC started, and its open time slice.
 */
struct hwpmc_slot {
	struct list_head	tlink;		/* thr->slots (RCU) */
	struct list_head	plink;		/* pm->slots (RCU) */
	struct hwpmc_thr	*thr;		/* NULL: the thread exited */
	struct hwpmc_pmc	*pm;
	struct perf_event	*ev;		/* the CPU counter of the slice */
	u64			base;		/* its count when the slice began */
	u64			acc;		/* counted since PMCSTART */
	u64			total;		/* counted in the slot's life */
	u64			tbase;		/* thread's clock at the count's begin */
	u64			ten;		/* time counted since PMCSTART, ended */
	u64			toff;		/* of it, not running (no counter) */
	u64			tlast;		/* thread's clock at its last account */
	u32			gen;		/* its PMCATTACH (attach_gen) */
	struct hwpmc_pexit	*px;		/* LOG_PROCEXIT: its process's */
	bool			in;		/* a slice is open */
	bool			noev;		/* on a CPU without a counter */
	bool			tcount;		/* counting since tbase */
	bool			gone;		/* detached, or exec of set-ID */
	struct rcu_head		rcu;
};

/* Pinned counters (the csw_pinned module parameter reads it). */
extern atomic_t hwpmc_csw_pinned;

int hwpmc_csw_init(void);
void hwpmc_csw_fini(void);
int hwpmc_vpmc_use(struct hwpmc_pmc *pm, bool on);
int hwpmc_vpmc_add_thread(struct hwpmc_pmc *pm, struct task_struct *t,
			  struct hwpmc_pexit **pxp);
void hwpmc_pids_sort(struct pid **tgids, u32 n);
u64 hwpmc_vpmc_remove(struct hwpmc_pmc *pm, u32 gen,
		      struct pid *const *tgids, u32 n);
void hwpmc_vpmc_reap(struct hwpmc_pmc *pm);
int hwpmc_vpmc_start(struct hwpmc_pmc *pm);
u64 hwpmc_vpmc_stop(struct hwpmc_pmc *pm);
u64 hwpmc_vpmc_read(const struct hwpmc_pmc *pm);
u64 hwpmc_vpmc_read_times(const struct hwpmc_pmc *pm, u64 *enabled,
			  u64 *running);
bool hwpmc_vpmc_on_cpu(const struct hwpmc_pmc *pm, int cpu);
bool hwpmc_vpmc_live(const struct hwpmc_pmc *pm, const struct pid *tgid);
bool hwpmc_vpmc_failed(const struct hwpmc_pmc *pm);
void hwpmc_vpmc_free(struct hwpmc_pmc *pm);
void hwpmc_csets_refresh(void);
/* atomic context, RCU read side */
void hwpmc_thr_fork(struct task_struct *parent, struct task_struct *child);
void hwpmc_thr_exit(struct task_struct *p);
void hwpmc_thr_exec(struct task_struct *p, bool secure);
void hwpmc_thr_gens(struct task_struct *t,
		    void (*fn)(struct hwpmc_pmc *pm, u32 gen, void *arg),
		    void *arg);
void hwpmc_thr_forget(struct task_struct *t, struct hwpmc_pmc *pm);

#endif /* _HWPMC_CSW_H */
