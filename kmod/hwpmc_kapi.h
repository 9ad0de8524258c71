/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: hwpmc_kapi.c, pmc(9) for kernel modules.  Its
 * interface to modules is <linux/hwpmc_pmc.h> (include/kernel/).
 */
#ifndef _HWPMC_KAPI_H
#define _HWPMC_KAPI_H

struct pt_regs;

int hwpmc_kapi_init(void);
void hwpmc_kapi_fini(void);
void hwpmc_kapi_overflow(void *context, struct pt_regs *regs);

#endif /* _HWPMC_KAPI_H */
