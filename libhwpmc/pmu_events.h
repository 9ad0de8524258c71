/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libhwpmc: the layout of the vendor event tables that
 * gen_pmu_events.py generates from the kernel's pmu-events JSON at build
 * time.  Every string is an offset into hwpmc_pe_pool (no pointers: the
 * tables need no relocation and stay in read-only pages until touched).
 * Not installed.
 */
#ifndef _HWPMC_PMU_EVENTS_H_
#define _HWPMC_PMU_EVENTS_H_

#include <stdint.h>

#define HWPMC_PE_DEPRECATED	1	/* "Deprecated": not listed */
#define HWPMC_PE_PRECISE	2	/* "PEBS": can be precise (:p) */

#define HWPMC_PE_X86		1
#define HWPMC_PE_ARM64		2

struct hwpmc_pe_event {
	uint32_t	name;		/* lower case, as perf and FreeBSD list it */
	uint32_t	enc;		/* perf terms: "event=0xc0,umask=0x1" */
	uint32_t	desc;		/* BriefDescription */
	uint32_t	topic;		/* perf's: "cache", "floating point" */
	uint32_t	period;		/* SampleAfterValue (0: none) */
	uint32_t	flags;		/* HWPMC_PE_* */
	uint32_t	ldesc;		/* PublicDescription, "" if the brief */
};

/*
 * One model's events: hwpmc_pe_index[first .. first + count - 1]; its
 * libpfm4 names (decision 32): hwpmc_pe_aliases[afirst .. afirst +
 * acount - 1], sorted by name (ignoring case).
 */
struct hwpmc_pe_table {
	uint32_t	name;		/* the JSON directory: "skylakex" */
	uint32_t	arch;		/* HWPMC_PE_X86 or HWPMC_PE_ARM64 */
	uint32_t	first, count;
	uint32_t	atom;		/* hybrid: the cpu_atom table + 1, or 0 */
	uint32_t	pfm;		/* libpfm4 PMUs: "skx", "knl,knm"; "" */
	uint32_t	afirst, acount;
};

/* A libpfm4 name of an event of the same encoding. */
struct hwpmc_pe_alias {
	uint32_t	name;		/* as libpfm4 writes it: "INST_RETIRED:ANY_P" */
	uint32_t	event;		/* its table's event (0 .. count - 1) */
};

/* One mapfile.csv row: a CPU id pattern and its table. */
struct hwpmc_pe_map {
	uint32_t	cpuid;		/* x86: regex; arm64: MIDR "0x..." */
	uint32_t	table;
};

extern const char hwpmc_pe_pool[];
extern const struct hwpmc_pe_event hwpmc_pe_events[];
extern const uint16_t hwpmc_pe_index[];
extern const struct hwpmc_pe_table hwpmc_pe_tables[];
extern const struct hwpmc_pe_map hwpmc_pe_maps[];
extern const struct hwpmc_pe_alias hwpmc_pe_aliases[];
extern const unsigned int hwpmc_pe_nmaps, hwpmc_pe_ntables;

#endif /* _HWPMC_PMU_EVENTS_H_ */
