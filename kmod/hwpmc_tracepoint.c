// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: the scheduler's tracepoints, found in one place.
 *
 * __tracepoint_sched_* are not exported to modules, so they are found
 * by name with one for_each_kernel_tracepoint() walk at load, as
 * lttng-modules' tracepoint registry does; the files that probe them
 * (hwpmc_csw.c, hwpmc_hooks.c, hwpmc_lifecycle.c) name them by
 * enum hwpmc_tp.  A kernel without one of them refuses the load with
 * ENOENT and says which.
 */
#define pr_fmt(fmt) "hwpmc: " fmt

#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "hwpmc_tracepoint.h"

static const char *const hwpmc_tp_names[HWPMC_TP_NR] = {
	[HWPMC_TP_SWITCH]	= "sched_switch",
	[HWPMC_TP_FORK]		= "sched_process_fork",
	[HWPMC_TP_EXIT]		= "sched_process_exit",
	[HWPMC_TP_EXEC]		= "sched_process_exec",
};

static struct tracepoint *hwpmc_tps[HWPMC_TP_NR];

static void hwpmc_tp_match(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < HWPMC_TP_NR; i++)
		if (!strcmp(tp->name, hwpmc_tp_names[i]))
			hwpmc_tps[i] = tp;
}

int hwpmc_tp_init(void)
{
	int i, error = 0;

	for_each_kernel_tracepoint(hwpmc_tp_match, NULL);
	for (i = 0; i < HWPMC_TP_NR; i++)
		if (!hwpmc_tps[i]) {
			pr_err("kernel tracepoint %s not found\n",
			       hwpmc_tp_names[i]);
			error = -ENOENT;
		}
	return error;
}

int hwpmc_tp_register(enum hwpmc_tp tp, void *probe)
{
	return tracepoint_probe_register(hwpmc_tps[tp], probe, NULL);
}

void hwpmc_tp_unregister(enum hwpmc_tp tp, void *probe)
{
	tracepoint_probe_unregister(hwpmc_tps[tp], probe, NULL);
}

/* No probe unregistered before this runs any more. */
void hwpmc_tp_sync(void)
{
	tracepoint_synchronize_unregister();
}
