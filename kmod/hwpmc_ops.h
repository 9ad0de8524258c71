/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: hwpmc_ops.c, the PMC operations: allocate, attach,
 * detach, start, stop, read/write, set count, release, CONFIGURELOG, the
 * GETPMCINFO descriptions.  Callers hold no lock.
 * The structures of owners, PMCs and targets, which the files below read,
 * are in hwpmc_internal.h.
 */
#ifndef _HWPMC_OPS_H
#define _HWPMC_OPS_H

#include <linux/types.h>
#include <linux/hwpmc.h>

struct file;
struct hwpmc_pmc;

int hwpmc_pmc_init(void);
void hwpmc_pmc_fini(void);
void hwpmc_pmc_describe(const struct hwpmc_pmc *pm, struct pmc_info *pi);
void hwpmc_describe_thread_rows(int cpu, struct pmc_info *pi, u32 n);
int hwpmc_pmc_allocate(struct file *file, struct pmc_op_pmcallocate *pa,
		       const char *evname);
int hwpmc_pmc_attach(u32 id, pid_t pid);
int hwpmc_pmc_detach(u32 id, pid_t pid);
int hwpmc_pmc_start(u32 id);
int hwpmc_pmc_stop(u32 id);
int hwpmc_pmc_release(u32 id);
int hwpmc_pmc_rw(u32 id, u32 flags, u64 *value);
int hwpmc_pmc_rw_times(u32 id, u64 *value, u64 *enabled, u64 *running,
		       u32 *tflags);
int hwpmc_pmc_setcount(u32 id, u64 count);
int hwpmc_pmc_caps(u32 id, u32 *caps);
int hwpmc_pmc_getmsr(u32 id);
void hwpmc_pmc_file_release(struct file *file);
int hwpmc_pmc_configurelog(struct file *file, int fd, u32 flags);

#endif /* _HWPMC_OPS_H */
