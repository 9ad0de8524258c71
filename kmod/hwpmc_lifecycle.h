/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: hwpmc_lifecycle.c, process exit and exec from the
 * scheduler's tracepoints.
 */
#ifndef _HWPMC_LIFECYCLE_H
#define _HWPMC_LIFECYCLE_H

int hwpmc_lifecycle_init(void);
void hwpmc_lifecycle_fini(void);

#endif /* _HWPMC_LIFECYCLE_H */
