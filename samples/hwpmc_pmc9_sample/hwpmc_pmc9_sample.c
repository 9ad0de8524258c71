// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: a sample client of pmc(9) (man/pmc.9).
 *
 * At load it counts a kernel loop with a counter of the loading task
 * (instructions where the machine has a PMU, exactly: the loop is two
 * instructions an iteration, and the difference of runs of loops and of
 * 2 * loops iterations leaves only the loop), counts the task's context
 * switches and task-clock over ten sleeps, and profiles the machine with
 * pmc_start_profiling() while it spins.  The results are its read-only
 * parameters (/sys/module/hwpmc_pmc9_sample/parameters/), -1 where a step
 * did not run; "error" is the first failure's errno.  hold=1 keeps a
 * kernel counter on the last SOFT row while loaded (held_row), hold=2 on
 * every free SOFT row (nheld of them); leave=1 leaves a task counter
 * configured at unload, which hwpmc releases.  target=PID counts the page
 * faults of that process with two counters, one enabled, one not, read
 * live: target_own, target_children and target_off_children
 * (PMC_VALUE_FLAGS_CHILDREN: what its exited children's copies counted).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/hwpmc_pmc.h>

static ulong loops = 100000;
module_param(loops, ulong, 0444);
MODULE_PARM_DESC(loops, "iterations of the counted loop (100000)");
static int hold;
module_param(hold, int, 0444);
MODULE_PARM_DESC(hold, "keep kernel counters while loaded: 1 on the last SOFT row, 2 on every free one");
static bool leave;
module_param(leave, bool, 0444);
MODULE_PARM_DESC(leave, "leave a task counter configured at unload");

static int error;
module_param(error, int, 0444);
static int ncounters = -1;
module_param(ncounters, int, 0444);
static int cputype = -1;
module_param(cputype, int, 0444);
static int pmu_row = -1;
module_param(pmu_row, int, 0444);
static int soft_row = -1;
module_param(soft_row, int, 0444);
static long insns_loop = -1;	/* instructions of `loops` iterations */
module_param(insns_loop, long, 0444);
static long insns_run = -1;	/* of the shortest run of `loops` */
module_param(insns_run, long, 0444);
static long csw = -1;		/* context switches over 10 sleeps */
module_param(csw, long, 0444);
static long task_clock = -1;	/* ns of task-clock over them */
module_param(task_clock, long, 0444);
static long prof_samples = -1;	/* pmc_start_profiling()'s */
module_param(prof_samples, long, 0444);
static int held_row = -1;
module_param(held_row, int, 0444);
static int nheld;
module_param(nheld, int, 0444);
static int busy_errno;			/* configuring the held row */
module_param(busy_errno, int, 0444);
static int held[64];
static int target;
module_param(target, int, 0444);
MODULE_PARM_DESC(target, "a process whose page faults, and its children's, to count");
static int target_row = -1;		/* enabled: its copies count */
module_param(target_row, int, 0444);
static int target_off_row = -1;		/* never enabled */
module_param(target_off_row, int, 0444);
static struct task_struct *target_task;

static void note(int err, const char *what)
{
	pr_info("%s: error %d\n", what, err);
	if (!error)
		error = err;
}

/* The last row of class cl that takes a counter for current, or -1. */
static int find_row(int cl, pmc_evid_t ev)
{
	struct pmc_counter_cfg cfg = { .event_id = ev };
	int ctr;

	for (ctr = pmc_get_num_counters() - 1; ctr >= 0; ctr--)
		if (pmc_get_counter_type(ctr) == cl &&
		    !pmc_configure_counter(current, ctr, &cfg))
			return ctr;
	return -1;
}

/* Two instructions an iteration. */
static noinline void loop(unsigned long n)
{
	if (!n)
		return;
#if defined(CONFIG_ARM64)
	asm volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r" (n) : : "cc");
#elif defined(CONFIG_X86)
	asm volatile("1: dec %0\n\tjnz 1b" : "+r" (n) : : "cc");
#else
	while (n--)
		barrier();
#endif
}

/* The same with interrupts off: no handler counted in the loop. */
static void spin(unsigned long n)
{
	unsigned long flags;

	local_irq_save(flags);
	loop(n);
	local_irq_restore(flags);
}

/* Busy for ms milliseconds of the clock (mdelay() trusts a calibration). */
static void busy_ms(unsigned int ms)
{
	ktime_t end = ktime_add_ms(ktime_get(), ms);

	while (ktime_before(ktime_get(), end))
		cpu_relax();
}

/*
 * Run loop() for ms milliseconds, interrupts on: the function a profile
 * finds (hwpmc-stat --kernel-profiles).
 */
static noinline void loop_ms(unsigned int ms)
{
	ktime_t end = ktime_add_ms(ktime_get(), ms);

	while (ktime_before(ktime_get(), end))
		loop(10000);
}

/* What ctr counts over spin(n), the least of five runs. */
static long count_spin(int ctr, unsigned long n)
{
	u64 a, b, least = U64_MAX;
	int i, err;

	for (i = 0; i < 5; i++) {
		err = pmc_get_counter_value(current, ctr, 0, &a);
		if (!err)
			err = pmc_enable_counter(current, ctr);
		if (err)
			return err;
		spin(n);
		err = pmc_disable_counter(current, ctr);
		if (!err)
			err = pmc_get_counter_value(current, ctr, 0, &b);
		if (err)
			return err;
		least = min(least, b - a);
	}
	return least;
}

static void count_instructions(void)
{
	long one, two;

	pmu_row = find_row(PMC_CLASS_PMU, PMC_EV_PMU_HW_FIRST +
			   PERF_COUNT_HW_INSTRUCTIONS);
	if (pmu_row < 0)
		return;			/* no PMU: the x86 guests */
	if (!pmc_counter_isconfigured(current, pmu_row) ||
	    pmc_counter_isrunning(current, pmu_row)) {
		note(-EPROTO, "configured, not running");
		return;
	}
	one = count_spin(pmu_row, loops);
	two = count_spin(pmu_row, 2 * loops);
	if (one < 0 || two < 0) {
		note(one < 0 ? one : two, "instructions");
		return;
	}
	insns_run = one;
	insns_loop = two - one;
	pr_info("instructions: %ld a run of %lu, %ld the loop alone\n",
		one, loops, insns_loop);
}

static void count_sleeps(void)
{
	struct pmc_counter_cfg cfg = {
		.event_id = PMC_EV_SOFT_FIRST + PERF_COUNT_SW_TASK_CLOCK,
	};
	int ctr, clk = -1, i, err;
	u64 v;

	soft_row = find_row(PMC_CLASS_SOFT, PMC_EV_SOFT_FIRST +
			    PERF_COUNT_SW_CONTEXT_SWITCHES);
	if (soft_row < 0) {
		note(-ENODEV, "no SOFT row");
		return;
	}
	for (ctr = soft_row - 1; ctr >= 0 && clk < 0; ctr--)
		if (pmc_get_counter_type(ctr) == PMC_CLASS_SOFT &&
		    !pmc_configure_counter(current, ctr, &cfg))
			clk = ctr;
	err = pmc_enable_counter(current, soft_row);
	if (!err && clk >= 0)
		err = pmc_enable_counter(current, clk);
	if (err) {
		note(err, "enable");
		return;
	}
	if (!PMC_ENABLED(current) || !pmc_counter_isrunning(current, soft_row))
		note(-EPROTO, "PMC_ENABLED");
	for (i = 0; i < 10; i++)
		msleep(20);
	pmc_disable_counter(current, soft_row);
	if (clk >= 0)
		pmc_disable_counter(current, clk);
	err = pmc_get_counter_value(current, soft_row, 0, &v);
	if (err) {
		note(err, "context switches");
		return;
	}
	csw = v;
	if (clk >= 0 && !pmc_get_counter_value(current, clk, 0, &v))
		task_clock = v;
	if (clk >= 0)
		pmc_unconfigure_counter(current, clk);
	pr_info("context switches %ld, task-clock %ld ns\n", csw, task_clock);
}

/*
 * Profile the machine while spinning in loop(): instructions every 10M
 * on a PMU, else cpu-clock every 1 ms.  The samples go to the log that
 * takes the kernel's profiles, if one does.
 */
static void profile(void)
{
	struct pmc_counter_cfg cfg;
	int ctr, err;
	u64 n;

	for (ctr = 0; ctr < pmc_get_num_counters(); ctr++) {
		if (pmu_row >= 0) {
			if (pmc_get_counter_type(ctr) != PMC_CLASS_PMU ||
			    ctr == pmu_row)
				continue;
			cfg = (struct pmc_counter_cfg){
				.event_id = PMC_EV_PMU_HW_FIRST +
					    PERF_COUNT_HW_INSTRUCTIONS,
				.reset_value = 10000000,
			};
		} else {
			if (pmc_get_counter_type(ctr) != PMC_CLASS_SOFT ||
			    ctr == soft_row)
				continue;
			cfg = (struct pmc_counter_cfg){
				.event_id = PMC_EV_SOFT_FIRST +
					    PERF_COUNT_SW_CPU_CLOCK,
				.reset_value = 1000000,
			};
		}
		err = pmc_start_profiling(ctr, &cfg);
		if (err == -EBUSY)
			continue;
		if (err) {
			note(err, "pmc_start_profiling");
			return;
		}
		if (pmu_row >= 0) {
			loop(100000000);	/* interrupts on: each overflow */
		} else {
			/*
			 * cpu-clock's hrtimer loses periods in an emulated
			 * guest under host load (16 samples in 200 ms were
			 * seen): spin until 100 samples, for at most 5 s.
			 */
			ktime_t end = ktime_add_ms(ktime_get(), 5000);

			do {
				loop_ms(50);
				err = pmc_profiling_samples(ctr, &n);
			} while (!err && n < 100 && ktime_before(ktime_get(), end));
		}
		err = pmc_profiling_samples(ctr, &n);
		pmc_stop_profiling(ctr);
		if (err) {
			note(err, "pmc_profiling_samples");
			return;
		}
		prof_samples = n;
		pr_info("profiling on row %d: %llu samples\n", ctr, n);
		return;
	}
	note(-EBUSY, "no row for pmc_start_profiling()");
}

/*
 * Kernel counters on the last SOFT row (hold=2: on every free one),
 * kept; the row refused to tasks.
 */
static void hold_rows(void)
{
	struct pmc_counter_cfg cfg = {
		.event_id = PMC_EV_SOFT_FIRST + PERF_COUNT_SW_CPU_CLOCK,
	};
	int ctr, err;
	u64 v;

	for (ctr = pmc_get_num_counters() - 1; ctr >= 0; ctr--) {
		if (pmc_get_counter_type(ctr) != PMC_CLASS_SOFT)
			continue;
		if (nheld == ARRAY_SIZE(held))
			break;
		err = pmc_alloc_kernel_counter(ctr, &cfg);
		if (err == -EBUSY)	/* a task counter has it */
			continue;
		if (!err)
			err = pmc_enable_counter(NULL, ctr);
		if (err) {
			note(err, "pmc_alloc_kernel_counter");
			return;
		}
		held[nheld++] = ctr;
		if (hold == 1)
			break;
	}
	if (!nheld) {
		note(-ENODEV, "no SOFT row to hold");
		return;
	}
	held_row = held[0];
	busy_ms(2);
	err = pmc_get_counter_value(NULL, held_row, 0, &v);
	if (err || !v)
		note(err ?: -EPROTO, "the kernel counter's value");
	/* a kernel counter takes its row alone */
	busy_errno = -pmc_configure_counter(current, held_row, &cfg);
	if (!pmc_counter_isrunning(current, held_row))
		note(-EPROTO, "isrunning: the kernel's counter");
}

/* target's counters, read when the parameter is. */
enum { T_OWN, T_CHILDREN, T_OFF_CHILDREN };
static int t_sel[] = { T_OWN, T_CHILDREN, T_OFF_CHILDREN };

static int target_get(char *buf, const struct kernel_param *kp)
{
	int sel = *(int *)kp->arg;
	int ctr = sel == T_OFF_CHILDREN ? target_off_row : target_row;
	u64 v;
	int err;

	if (!target_task || ctr < 0)
		return scnprintf(buf, PAGE_SIZE, "-1\n");
	err = pmc_get_counter_value(target_task, ctr, sel == T_OWN ? 0 :
				    PMC_VALUE_FLAGS_CHILDREN, &v);
	if (err)
		return scnprintf(buf, PAGE_SIZE, "%d\n", err);
	return scnprintf(buf, PAGE_SIZE, "%llu\n", v);
}

static const struct kernel_param_ops target_ops = {
	.get = target_get,
};

module_param_cb(target_own, &target_ops, &t_sel[T_OWN], 0444);
module_param_cb(target_children, &target_ops, &t_sel[T_CHILDREN], 0444);
module_param_cb(target_off_children, &target_ops, &t_sel[T_OFF_CHILDREN],
		0444);

static void count_target(void)
{
	struct pmc_counter_cfg cfg = {
		.event_id = PMC_EV_SOFT_FIRST + PERF_COUNT_SW_PAGE_FAULTS,
	};
	struct pid *pid = find_get_pid(target);
	int ctr, err;

	if (pid) {
		target_task = get_pid_task(pid, PIDTYPE_PID);
		put_pid(pid);
	}
	if (!target_task) {
		note(-ESRCH, "target");
		return;
	}
	for (ctr = 0; ctr < pmc_get_num_counters(); ctr++) {
		if (pmc_get_counter_type(ctr) != PMC_CLASS_SOFT ||
		    pmc_configure_counter(target_task, ctr, &cfg))
			continue;
		if (target_row < 0) {
			target_row = ctr;
		} else {
			target_off_row = ctr;
			break;
		}
	}
	if (target_off_row < 0) {
		note(-EBUSY, "no rows for the target");
		return;
	}
	err = pmc_enable_counter(target_task, target_row);
	if (err)
		note(err, "enable the target's counter");
}

static int __init sample_init(void)
{
	ncounters = pmc_get_num_counters();
	cputype = pmc_get_counter_type(-1);
	count_instructions();
	count_sleeps();
	profile();
	if (pmu_row >= 0)
		pmc_unconfigure_counter(current, pmu_row);
	if (!leave && soft_row >= 0)
		pmc_unconfigure_counter(current, soft_row);
	if (hold)
		hold_rows();
	if (target)
		count_target();
	return 0;
}

static void __exit sample_exit(void)
{
	int i;

	for (i = 0; i < nheld; i++)
		pmc_free_kernel_counter(held[i]);
	if (target_task) {
		if (target_row >= 0)
			pmc_unconfigure_counter(target_task, target_row);
		if (target_off_row >= 0)
			pmc_unconfigure_counter(target_task, target_off_row);
		put_task_struct(target_task);
	}
}

module_init(sample_init);
module_exit(sample_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("A sample client of hwpmc's pmc(9): counts and profiles a kernel loop");
