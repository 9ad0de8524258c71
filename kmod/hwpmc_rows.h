/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: hwpmc_rows.c, the machine-independent core's per-CPU
 * state: rows, their slots and dispositions, CPU generations, driver
 * statistics.  hwpmc_sx and hwpmc_stats, which it defines and every
 * layer uses, are declared in hwpmc_internal.h.
 */
#ifndef _HWPMC_ROWS_H
#define _HWPMC_ROWS_H

#include <linux/types.h>
#include <linux/hwpmc.h>

struct hwpmc_pmc;

int hwpmc_rows_init(void);
void hwpmc_rows_fini(void);

int hwpmc_describe_row(int cpu, u32 ri, struct pmc_info *pi,
		       struct hwpmc_pmc **holder);
/* CPU generations: bumped when a CPU goes offline. */
int hwpmc_cpu_gen_read(int cpu);
void hwpmc_cpu_gen_bump(int cpu);
int hwpmc_admin(int cpu, u32 ri, u32 state);
int hwpmc_check_cpu(int cpu);
bool hwpmc_row_can_thread(u32 ri);
bool hwpmc_row_can_system(int cpu, u32 ri);
void hwpmc_row_take(struct hwpmc_pmc *pm, u32 mode, int cpu, u32 ri);
void hwpmc_row_give(u32 mode, int cpu, u32 ri);
bool hwpmc_row_kernel(u32 ri);
int hwpmc_row_kernel_take(u32 ri);
void hwpmc_row_kernel_give(u32 ri);

void hwpmc_stats_get(struct pmc_op_getdriverstats *st);

#endif /* _HWPMC_ROWS_H */
