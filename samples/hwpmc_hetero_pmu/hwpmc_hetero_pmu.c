// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: a test-only perf PMU that stands for a second core
 * PMU of some CPUs (hybrid Intel's cpu_atom, a big.LITTLE PMU), so that
 * the PERF class's path for one (docs/design.md, decision 27) runs in
 * guests that have no such CPU (selftests/hwpmc_hetero.sh).
 *
 * PMU "hwpmc_hetero": a hardware task context (perf_hw_context) of CPU
 * `cpu` (parameter, 1) only, as perf's heterogeneous PMUs are: up to 6.1
 * PERF_PMU_CAP_HETEROGENEOUS_CPUS and filter_match(), since 6.2
 * filter(); a counter bound to another CPU is refused with ENOENT in
 * event_init(), as x86's hybrid PMUs and arm_pmu refuse one; its sysfs
 * `cpus` names the CPU, as theirs do.  One event, config 0 ("ns"):
 * the nanoseconds (local_clock()) the counter was on the PMU, that is
 * for a task's counter the time the task ran on that CPU, for a CPU's
 * the time it was enabled.  It counts every mode (no exclude bits) and
 * cannot sample.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>

static int cpu = 1;
module_param(cpu, int, 0444);
MODULE_PARM_DESC(cpu, "the one CPU of the PMU (1)");

static void hh_update(struct perf_event *event)
{
	u64 now = local_clock();
	u64 prev = local64_xchg(&event->hw.prev_count, now);

	local64_add(now - prev, &event->count);
}

static void hh_start(struct perf_event *event, int flags)
{
	local64_set(&event->hw.prev_count, local_clock());
	event->hw.state = 0;
}

static void hh_stop(struct perf_event *event, int flags)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	hh_update(event);
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int hh_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		hh_start(event, PERF_EF_RELOAD);
	return 0;
}

static void hh_del(struct perf_event *event, int flags)
{
	hh_stop(event, PERF_EF_UPDATE);
}

static void hh_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		hh_update(event);
}

static int hh_event_init(struct perf_event *event)
{
	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (event->attr.config || event->attr.config1 || event->attr.config2)
		return -EINVAL;
	/* a counter of another CPU: ENOENT, as x86's hybrid PMUs say */
	if (event->cpu >= 0 && event->cpu != cpu)
		return -ENOENT;
	if (is_sampling_event(event))
		return -EOPNOTSUPP;
	return 0;
}

#ifdef PERF_PMU_CAP_HETEROGENEOUS_CPUS
/* up to 6.1: may event be scheduled on this CPU? */
static int hh_filter_match(struct perf_event *event)
{
	return smp_processor_id() == cpu;
}
#else
/* since 6.2: are this PMU's counters kept off CPU c? */
static bool hh_filter(struct pmu *pmu, int c)
{
	return c != cpu;
}
#endif

static ssize_t cpus_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return cpumap_print_to_pagebuf(true, buf, cpumask_of(cpu));
}
static DEVICE_ATTR_RO(cpus);

static struct attribute *hh_attrs[] = {
	&dev_attr_cpus.attr,
	NULL,
};

static const struct attribute_group hh_group = {
	.attrs = hh_attrs,
};

PMU_FORMAT_ATTR(event, "config:0-7");

static struct attribute *hh_format_attrs[] = {
	&format_attr_event.attr,
	NULL,
};

static const struct attribute_group hh_format_group = {
	.name = "format",
	.attrs = hh_format_attrs,
};

PMU_EVENT_ATTR_STRING(ns, hh_attr_ns, "event=0x00");

static struct attribute *hh_event_attrs[] = {
	&hh_attr_ns.attr.attr,
	NULL,
};

static const struct attribute_group hh_event_group = {
	.name = "events",
	.attrs = hh_event_attrs,
};

static const struct attribute_group *hh_groups[] = {
	&hh_group,
	&hh_format_group,
	&hh_event_group,
	NULL,
};

static struct pmu hh_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_hw_context,
	.attr_groups	= hh_groups,
	.event_init	= hh_event_init,
	.add		= hh_add,
	.del		= hh_del,
	.start		= hh_start,
	.stop		= hh_stop,
	.read		= hh_read,
#ifdef PERF_PMU_CAP_HETEROGENEOUS_CPUS
	.filter_match	= hh_filter_match,
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT | PERF_PMU_CAP_NO_EXCLUDE |
			  PERF_PMU_CAP_HETEROGENEOUS_CPUS,
#else
	.filter		= hh_filter,
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT | PERF_PMU_CAP_NO_EXCLUDE,
#endif
};

static int __init hh_init(void)
{
	if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_possible(cpu)) {
		pr_err("no CPU %d\n", cpu);
		return -ENODEV;
	}
	return perf_pmu_register(&hh_pmu, "hwpmc_hetero", -1);
}

static void __exit hh_exit(void)
{
	perf_pmu_unregister(&hh_pmu);
}

module_init(hh_init);
module_exit(hh_exit);
MODULE_DESCRIPTION("hwpmc test: a fake core PMU of one CPU");
MODULE_LICENSE("GPL");
