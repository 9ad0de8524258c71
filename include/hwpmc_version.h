/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * hwpmc for Linux: the package version, in one place.  The module's
 * MODULE_VERSION(), hwpmc-control's -V, the top-level Makefile's
 * VERSION (and through it the pkg-config file and /usr/src/hwpmc-VERSION)
 * and dkms.conf's PACKAGE_VERSION are all read from the line below; keep
 * its form ("#define HWPMC_VERSION_STRING" and a quoted string), which
 * the Makefile and dkms.conf parse.  The ABI version is another thing:
 * PMC_VERSION in <linux/hwpmc.h>.
 */
#ifndef _HWPMC_VERSION_H
#define _HWPMC_VERSION_H

#define HWPMC_VERSION_STRING	"0.1.0"

#endif /* _HWPMC_VERSION_H */
