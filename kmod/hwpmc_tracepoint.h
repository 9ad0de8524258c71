/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: hwpmc_tracepoint.c, the scheduler's tracepoints, found
 * by name at load.  It calls no other file of the module.
 */
#ifndef _HWPMC_TRACEPOINT_H
#define _HWPMC_TRACEPOINT_H

enum hwpmc_tp {
	HWPMC_TP_SWITCH,
	HWPMC_TP_FORK,
	HWPMC_TP_EXIT,
	HWPMC_TP_EXEC,
	HWPMC_TP_NR
};

int hwpmc_tp_init(void);
int hwpmc_tp_register(enum hwpmc_tp tp, void *probe);
void hwpmc_tp_unregister(enum hwpmc_tp tp, void *probe);
void hwpmc_tp_sync(void);

#endif /* _HWPMC_TRACEPOINT_H */
