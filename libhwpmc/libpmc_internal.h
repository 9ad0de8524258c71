/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libhwpmc: state shared by the library's files.  Not installed.
 */
#ifndef _HWPMC_LIBPMC_INTERNAL_H_
#define _HWPMC_LIBPMC_INTERNAL_H_

#include <stddef.h>
#include <stdint.h>

/* The library is built with -fvisibility=hidden: export what pmc.h declares. */
#pragma GCC visibility push(default)
#include "pmc.h"
#pragma GCC visibility pop

/* The events of one class, from GETDYNEVENTINFO. */
struct pmc_class_events {
	uint32_t	ce_class;
	uint32_t	ce_nevent;
	struct pmc_dyn_event_descr *ce_events;	/* names NUL-terminated */
};

struct pmc_lib_state {
	int		fd;			/* -1 until pmc_init() succeeds */
	uint32_t	module_version;
	struct pmc_cpuinfo cpuinfo;
	struct pmc_class_events classes[PMC_CLASS_MAX];
};

extern struct pmc_lib_state pmc_lib;

/* 0 if initialised; else -1 with errno ENXIO. */
static inline int pmc_lib_ready(void)
{
	if (pmc_lib.fd < 0) {
		errno = ENXIO;
		return -1;
	}
	return 0;
}

/* ioctl on the device, retried on EINTR. */
int pmc_lib_ioctl(unsigned long cmd, void *arg);

/* The cached events of class cl, or NULL. */
const struct pmc_class_events *pmc_lib_class_events(uint32_t cl);

/*
 * Why the module refused allocate request pa with errno err, in words
 * naming spec, in m: returns the check of <hwpmc_allocate.h> that failed
 * (an enum hwpmc_alloc_check), or 0 (HWPMC_ALLOC_OK) for a refusal after
 * those checks (no free row, raw bits, perf).
 */
int pmc_lib_allocate_explain(const char *spec,
			     const struct pmc_op_pmcallocate *pa, int err,
			     char *m, size_t len);

/*
 * Module state, for pmc_init()'s diagnosis (pmc_modcheck.c): one of the
 * values below; *installed is set to 1 when a module file exists for the
 * running kernel, 0 when not, -1 when that cannot be told.
 */
enum pmc_modstate {
	PMC_MODSTATE_UNKNOWN,
	PMC_MODSTATE_ABSENT,
	PMC_MODSTATE_LIVE,		/* loaded (or built in) */
	PMC_MODSTATE_COMING,
	PMC_MODSTATE_GOING,
};

enum pmc_modstate pmc_lib_module_state(int *installed);

/* Names equal but for case and '-', '_', '.', ' ' ("L1_DCACHE.Load"). */
static inline int pmc_lib_norm_char(int c)
{
	return c == '_' || c == '.' || c == ' ' ? '-' :
	       (c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
}

static inline int pmc_lib_same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (pmc_lib_norm_char((unsigned char)*a) !=
		    pmc_lib_norm_char((unsigned char)*b))
			return 0;
	return !*a && !*b;
}

/*
 * Vendor events (pmc_pmu.c), from the kernel's pmu-events tables.
 */
#define PMC_CPUID_LEN	64
#define PMC_PMU_MAXFMT	32

/* One sysfs format/ file: a term and the bits it sets. */
struct pmc_pmu_format {
	char		name[24];
	uint8_t		reg;		/* 0: config, 1: config1, 2: config2 */
	uint8_t		nrange, width;
	uint8_t		lo[4], hi[4];	/* bit ranges, low bits of the value first */
};

/* The core PMU: its name and format. */
struct pmc_pmu_desc {
	char		name[64];	/* "cpu", "armv8_pmuv3_0" */
	int		from_sysfs;	/* 0: the architectural layout */
	unsigned int	nformat;
	struct pmc_pmu_format format[PMC_PMU_MAXFMT];
};

/* The CPU whose events names resolve to. */
struct pmc_pmu_cpu {
	char		cpuid[PMC_CPUID_LEN];	/* "" when it cannot be told */
	int		overridden;		/* from HWPMC_CPUID */
	int		table;			/* -1: no table knows the CPU */
	struct pmc_pmu_desc pmu;
};

struct pmc_pmu_event {
	const char	*name, *enc, *desc, *topic;
	const char	*ldesc;		/* long description, or "" */
	uint32_t	period;
	int		deprecated, precise;
};

void	pmc_pmu_current(struct pmc_pmu_cpu *_out);
void	pmc_pmu_builtin(struct pmc_pmu_desc *_d, int _table,
			const char *_cpuid);
int	pmc_pmu_detect_cpuid(char *_buf, size_t _len);
int	pmc_pmu_read_midr(char *_buf, size_t _len);
int	pmc_pmu_table_of(const char *_cpuid);
const char *pmc_pmu_table_name(int _table);
int	pmc_pmu_atom_table(int _table);
unsigned int pmc_pmu_nevents(int _table);
int	pmc_pmu_event_at(int _table, unsigned int _i, struct pmc_pmu_event *_ev);
int	pmc_pmu_find(int _table, const char *_name);
int	pmc_pmu_find_exact(int _table, const char *_name);
int	pmc_pmu_find_fuzzy(int _table, const char *_name);
/* libpfm4's names (decision 32) */
const char *pmc_pmu_pfm_pmus(int _table);
int	pmc_pmu_pfm_find(int _table, const char *_name);
int	pmc_pmu_pfm_umasks(int _table, const char *_event, char *_buf,
			   size_t _len);
const char *pmc_pmu_pfm_name(int _table, unsigned int _i);
int	pmc_pmu_pfm_in(const char *_pmus, const char *_pmu, size_t _n);
void	pmc_pmu_terms_list(const struct pmc_pmu_desc *_d, char *_buf,
			   size_t _len);
int	pmc_pmu_set_term(const struct pmc_pmu_desc *_d, const char *_term,
			 const char *_value,
			 struct pmc_md_pmu_op_pmcallocate *_md, char *_err,
			 size_t _errlen);
uint32_t pmc_pmu_cputype(uint32_t _module_type);
int	pmc_pmu_encode(const struct pmc_pmu_desc *_d, const char *_terms,
		       struct pmc_md_pmu_op_pmcallocate *_md, char *_err,
		       size_t _errlen);
const char *pmc_pmu_sysfs_root(void);
int	pmc_pmu_load_format(struct pmc_pmu_desc *_d, const char *_name);

/* Other perf PMUs and tracepoints (pmc_perf.c): the PERF class. */
struct pmc_perf_pmu {
	struct pmc_pmu_desc desc;	/* name and format */
	uint32_t	type;		/* perf_event_attr.type */
	int		cpuwide;	/* has a cpumask: counts CPUs only */
	int		some_cpus;	/* has cpus: a core PMU of those */
};

int	pmc_perf_pmu_load(const char *_name, struct pmc_perf_pmu *_p);
int	pmc_perf_encode(const struct pmc_perf_pmu *_p, const char *_terms,
			const char *_spec, struct pmc_md_pmu_op_pmcallocate *_md,
			char *_err, size_t _errlen);
int	pmc_perf_tracepoint(const char *_sys, const char *_name, uint64_t *_id,
			    char *_err, size_t _errlen);
const char *pmc_perf_tracefs(void);
int	pmc_perf_pmu_kind(uint32_t _type);	/* HWPMC_PERF_PMU_*, by sysfs */

#endif /* _HWPMC_LIBPMC_INTERNAL_H_ */
