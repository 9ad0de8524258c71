/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: hwpmc_watch.c, the processes whose exit and exec
 * matter (owners, targets), and the events noted for them.  It calls no
 * other file of the module.
 */
#ifndef _HWPMC_WATCH_H
#define _HWPMC_WATCH_H

#include <linux/types.h>

struct pid;
struct task_struct;

/* fn: the layer above's handler of an event, called by the work */
int hwpmc_watch_init(void (*fn)(struct pid *tgid, bool exec, u64 exec_id));
void hwpmc_watch_flush(void);
void hwpmc_watch_fini(void);
int hwpmc_watch_get(struct pid *tgid);
void hwpmc_watch_put(struct pid *tgid);
void hwpmc_watch_note(struct task_struct *p, bool exec);

#endif /* _HWPMC_WATCH_H */
