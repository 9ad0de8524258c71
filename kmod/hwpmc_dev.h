/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: hwpmc_dev.c, /dev/hwpmc: ioctl dispatch and argument
 * checks.  What an open /dev/hwpmc holds (struct hwpmc_file) and its
 * SIGIO (hwpmc_file_notify()) are in hwpmc_log.h, for the files below
 * that signal owners.
 */
#ifndef _HWPMC_DEV_H
#define _HWPMC_DEV_H

int hwpmc_dev_init(void);
void hwpmc_dev_fini(void);

#endif /* _HWPMC_DEV_H */
