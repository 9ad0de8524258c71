/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libhwpmc: FreeBSD's <sys/pmclog.h>, the pmclog(3) view of
 * <linux/hwpmclog.h> (the log record format).
 *
 * The record types are enumerators of enum pmclog_type, with FreeBSD's
 * numbers; the records are the structures of <linux/hwpmclog.h>, whose
 * names and layouts are this implementation's own (fixed-width fields,
 * 64-bit addresses, Linux additions such as MAP_IN's extent) except
 * PMCALLOCATEDYN, whose fields are FreeBSD's.  Programs normally read logs with
 * pmclog_read() (<pmclog.h>) and never see these records.
 *
 * Include this header (or <pmclog.h>) before <linux/hwpmclog.h>, or
 * instead of it.
 */
#ifndef _HWPMC_SYS_PMCLOG_H_
#define _HWPMC_SYS_PMCLOG_H_

#include <sys/pmc.h>

#define __HWPMC_UNDEF_LOG_ONLY
#include <sys/_pmc_undef.h>

enum pmclog_type {
	/* FreeBSD's V1 ABI (4 was the retired MAPPINGCHANGE) */
	PMCLOG_TYPE_CLOSELOG = 1,
	PMCLOG_TYPE_DROPNOTIFY = 2,
	PMCLOG_TYPE_INITIALIZE = 3,
	PMCLOG_TYPE_PMCALLOCATE = 5,
	PMCLOG_TYPE_PMCATTACH = 6,
	PMCLOG_TYPE_PMCDETACH = 7,
	PMCLOG_TYPE_PROCCSW = 8,
	PMCLOG_TYPE_PROCEXEC = 9,
	PMCLOG_TYPE_PROCEXIT = 10,
	PMCLOG_TYPE_PROCFORK = 11,
	PMCLOG_TYPE_SYSEXIT = 12,
	PMCLOG_TYPE_USERDATA = 13,
	/* V2 */
	PMCLOG_TYPE_MAP_IN = 14,
	PMCLOG_TYPE_MAP_OUT = 15,
	PMCLOG_TYPE_CALLCHAIN = 16,
	/* V3: a PMC of a dynamic event, with the event's name */
	PMCLOG_TYPE_PMCALLOCATEDYN = 17,
	/* V6 */
	PMCLOG_TYPE_THR_CREATE = 18,
	PMCLOG_TYPE_THR_EXIT = 19,
	PMCLOG_TYPE_PROC_CREATE = 20,
	/* Linux: user registers and stack (PMC_F_USERSTACK) */
	PMCLOG_TYPE_USERSTACK = 21
};

#include <linux/hwpmclog.h>
#include <sys/_pmc_undef.h>
#undef __HWPMC_UNDEF_LOG_ONLY

/*
 * FreeBSD's record header as a field list: the same three fields, in the
 * same place, as struct pmclog_header (whose time field is pl_time).
 */
#define PMCLOG_ENTRY_HEADER						\
	__u32	pl_header;						\
	__u32	pl_spare;						\
	__u64	pl_tsc;

#define PMCLOG_HEADER_CHECK_MAGIC(h)					\
	(PMCLOG_HEADER_TO_MAGIC(h) == PMCLOG_HEADER_MAGIC)

/*
 * Room for any one record, as FreeBSD uses it (to size scratch areas).
 * The records with a variable part (paths, PCs) are reached through the
 * header and the raw bytes; pl_raw spans the largest record the format
 * allows.
 */
union pmclog_entry {
	struct pmclog_header		pl_hdr;
	struct pmclog_closelog		pl_cl;
	struct pmclog_dropnotify	pl_dn;
	struct pmclog_initialize	pl_i;
	struct pmclog_pmcallocate	pl_a;
	struct pmclog_pmcallocatedyn	pl_ad;
	struct pmclog_pmcdetach		pl_d;
	struct pmclog_proccsw		pl_c;
	struct pmclog_procexit		pl_e;
	struct pmclog_procfork		pl_f;
	struct pmclog_sysexit		pl_se;
	struct pmclog_userdata		pl_u;
	struct pmclog_map_out		pl_mo;
	struct pmclog_thr_create	pl_tc;
	struct pmclog_thr_exit		pl_te;
	struct pmclog_proc_create	pl_pc;
	__u64				pl_raw[PMCLOG_MAX_RECORD / 8];
};

#endif /* _HWPMC_SYS_PMCLOG_H_ */
