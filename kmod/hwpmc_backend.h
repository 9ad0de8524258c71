/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: hwpmc_backend.c, the machine-dependent layer and the
 * one perf layer: the classes and events found at load, and every perf
 * call on counters.  It calls no other file of the module.
 */
#ifndef _HWPMC_BACKEND_H
#define _HWPMC_BACKEND_H

#include <linux/types.h>
#include <linux/hwpmc.h>

struct hwpmc_pmc;
struct perf_event;
struct perf_event_attr;
struct pt_regs;
struct task_struct;

/* hwpmc_md_read_active(): the count, and whether the counter is on the PMU */
struct hwpmc_md_local {
	u64			value;
	bool			active;
};

/* An event this machine has. */
struct hwpmc_event {
	u32	code;			/* PMC_EV_* */
	u32	caps;			/* PMC_CAP_* */
	u32	perf_type;		/* PERF_TYPE_* */
	u64	perf_config;
	char	name[PMC_NAME_MAX];
};

/* A class of rows. */
struct hwpmc_class {
	u32	class;			/* PMC_CLASS_* */
	const char *name;		/* row-name prefix, "SOFT" */
	u32	caps;			/* union of its events' caps */
	u32	width;			/* bits */
	u32	num;			/* rows */
	u32	first_row;		/* row index of its row 0 */
	u32	nevents;
	struct hwpmc_event *events;
};

struct hwpmc_mdep {
	u32	cputype;		/* PMC_CPU_* */
	u32	npmc;			/* rows, all classes */
	u32	nclass;
	struct hwpmc_class classes[PMC_CLASS_MAX];
};

extern struct hwpmc_mdep hwpmc_md;

/* The core's overflow entry: a counter of PMC context overflowed. */
typedef void (*hwpmc_overflow_fn)(void *context, struct pt_regs *regs);
/* A walker over a task's counters (hwpmc_md_task_counters()). */
typedef void (*hwpmc_ev_fn)(struct perf_event *ev, struct hwpmc_pmc *pm,
			    void *arg);

int hwpmc_backend_init(hwpmc_overflow_fn overflow, hwpmc_overflow_fn koverflow);
void hwpmc_backend_fini(void);
const struct hwpmc_class *hwpmc_class_find(u32 class);
const struct hwpmc_class *hwpmc_row_class(u32 ri);
const struct hwpmc_event *hwpmc_event_find(const struct hwpmc_class *cl,
					   u32 code);
int hwpmc_caps_string(u32 caps, char *buf, size_t len);

/* perf counters for the core (which never calls perf itself). */
int hwpmc_md_attr(const struct hwpmc_event *ev, u32 caps,
		  const struct pmc_md_pmu_op_pmcallocate *md,
		  struct perf_event_attr *attr);
void hwpmc_md_attr_pmc(struct perf_event_attr *attr, u32 mode,
		       u64 period, bool privileged, bool hv);
void hwpmc_md_attr_thread(struct perf_event_attr *attr);
bool hwpmc_md_soft(const struct perf_event_attr *attr);
int hwpmc_md_raw_check(const struct perf_event_attr *attr);
int hwpmc_md_perf_probe(const struct pmc_md_pmu_op_pmcallocate *md, int cpu,
			u32 *caps, int *cpu_absent, char *name, size_t len);
struct perf_event *hwpmc_md_create(struct perf_event_attr *attr, int cpu,
				   struct task_struct *task, void *context);
struct perf_event *hwpmc_md_create_running(const struct perf_event_attr *attr,
					   int cpu);
void hwpmc_md_release(struct perf_event *ev);
void *hwpmc_md_context(struct perf_event *ev);
void hwpmc_md_task_counters(struct task_struct *t, hwpmc_ev_fn fn, void *arg);
void hwpmc_md_pin(struct perf_event *ev);
void hwpmc_md_pin_held(struct perf_event *ev, const void **last);
bool hwpmc_md_off(struct perf_event *ev);
u64 hwpmc_md_read_local(struct perf_event *ev, int cpu);
struct hwpmc_md_local hwpmc_md_read_active(struct perf_event *ev, int cpu);
int hwpmc_md_set_period(struct perf_event *ev, u64 period);
bool hwpmc_md_has_copies(struct perf_event *ev);
bool hwpmc_md_failed(struct perf_event *ev);
bool hwpmc_md_failed_here(struct perf_event *ev);
bool hwpmc_md_on_cpu(struct perf_event *ev, int cpu);
void hwpmc_md_start(struct perf_event *ev);
void hwpmc_md_stop(struct perf_event *ev);
u64 hwpmc_md_read(struct perf_event *ev);
u64 hwpmc_md_read_off(struct perf_event *ev);
u64 hwpmc_md_running(struct perf_event *ev);
void hwpmc_md_times(struct perf_event *ev, u64 *enabled, u64 *running);
bool hwpmc_md_counted_at_switch_in(const struct perf_event_attr *attr);

/* pmc(9)'s counters (hwpmc_kapi.c). */
void hwpmc_md_attr_kernel(struct perf_event_attr *attr, bool task, u64 period);
struct perf_event *hwpmc_md_create_kernel(struct perf_event_attr *attr,
					  int cpu, struct task_struct *task,
					  void *context);
u64 hwpmc_md_read_own(struct perf_event *ev, u64 *exited);

#endif /* _HWPMC_BACKEND_H */
