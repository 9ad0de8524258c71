/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: hwpmc_sample.c, sampling: the overflow entry (given to
 * the backend at load), per-CPU sample rings, call chains, the drain
 * into logs.
 */
#ifndef _HWPMC_SAMPLE_H
#define _HWPMC_SAMPLE_H

struct pt_regs;

int hwpmc_sample_init(void);
void hwpmc_sample_fini(void);
void hwpmc_sample_overflow(void *context, struct pt_regs *regs);
void hwpmc_sample_drain(void);

#endif /* _HWPMC_SAMPLE_H */
