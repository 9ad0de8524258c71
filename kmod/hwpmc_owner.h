/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: hwpmc_owner.c, owners: their hash, the caller's owner,
 * an idle owner let go, and the owner's log.  hwpmc_sx held unless said.
 */
#ifndef _HWPMC_OWNER_H
#define _HWPMC_OWNER_H

#include <linux/types.h>

struct hlist_head;
struct hwpmc_owner;
struct hwpmc_pmc;
struct pid;

/* The owners, hashed by their process's struct pid (hash_ptr()). */
extern struct hlist_head *hwpmc_ownerhash;
extern unsigned int hwpmc_hashbits;

int hwpmc_owner_init(void);
void hwpmc_owner_fini(void);
struct hwpmc_owner *hwpmc_owner_find(struct pid *tgid);
struct hwpmc_owner *hwpmc_owner_current(void);
void hwpmc_owner_put_if_idle(struct hwpmc_owner *po);
void hwpmc_owner_closelog(struct hwpmc_owner *po);
void hwpmc_pmc_detached(struct hwpmc_pmc *pm, struct pid *tgid);
void hwpmc_owner_snapshot(struct hwpmc_owner *po);
bool hwpmc_kaddrs_visible(void);
int hwpmc_pmc_closelog(void);
/* FLUSHLOG, WRITELOG (CLOSELOG above); callers hold no lock. */
int hwpmc_pmc_flushlog(void);
int hwpmc_pmc_writelog(u32 userdata);

#endif /* _HWPMC_OWNER_H */
