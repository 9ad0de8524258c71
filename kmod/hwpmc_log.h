/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: hwpmc_log.c, logs: the buffers, appending records,
 * the writer, flush and close.
 */
#ifndef _HWPMC_LOG_H
#define _HWPMC_LOG_H

#include <linux/types.h>
#include <linux/fs.h>
#include <linux/signal.h>

#include "hwpmc_internal.h"

struct file;
struct hwpmc_log;

/*
 * What an open /dev/hwpmc holds (hwpmc_dev.c makes it): who asked for
 * SIGIO.  Here, in the header of its lowest user, for the files that
 * signal owners (hwpmc_log.c, hwpmc_target.c).
 */
struct hwpmc_file {
	struct fasync_struct	*fasync;
};

/*
 * Tell the process that asked on file (F_SETOWN, O_ASYNC) with SIGIO:
 * a PMC's targets are gone (hwpmc_target.c), or its owner's log failed
 * (hwpmc_log.c).
 */
static inline void hwpmc_file_notify(struct file *file, int band)
{
	struct hwpmc_file *pf = file->private_data;

	kill_fasync(&pf->fasync, SIGIO, band);
}

int hwpmc_log_init(void);
void hwpmc_log_fini(void);
struct hwpmc_log *hwpmc_log_open(int fd, struct file *devfile);
void hwpmc_log_close(struct hwpmc_log *lg);
int hwpmc_log_flush(struct hwpmc_log *lg);
void hwpmc_log_hold_file(struct hwpmc_log *lg);
int hwpmc_log_wait_closed(struct hwpmc_log *lg);
int hwpmc_log_error(struct hwpmc_log *lg);
void hwpmc_log_get(struct hwpmc_log *lg);
void hwpmc_log_put(struct hwpmc_log *lg);
void hwpmc_log_lost(struct hwpmc_log *lg);
/* One record of hwpmc_log_appendv(): its fixed part, then its tail. */
struct hwpmc_logrec {
	u32		type;
	void		*rec;
	u32		size;
	const void	*tail;
	u32		taillen;
};

u32 hwpmc_log_max_len(void);
int hwpmc_log_appendv(struct hwpmc_log *lg, u64 time,
		      const struct hwpmc_logrec *rs, unsigned int n);
int hwpmc_log_append(struct hwpmc_log *lg, u32 type, u64 time, void *rec,
		     u32 size, const void *tail, u32 taillen);
int hwpmc_log_append_path(struct hwpmc_log *lg, u32 type, u64 time,
			  void *rec, u32 size, const char *path);

/*
 * A record of pm's could not be made, or a task is not counted by pm
 * (no memory in atomic context): its owner's log says so with its next
 * DROPNOTIFY.  Any context but NMI, RCU read side.
 */
static inline void hwpmc_pmc_lost(const struct hwpmc_pmc *pm)
{
	struct hwpmc_log *lg = hwpmc_pmc_log(pm);

	if (lg)
		hwpmc_log_lost(lg);
}

#endif /* _HWPMC_LOG_H */
