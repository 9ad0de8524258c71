// SPDX-License-Identifier: GPL-2.0
/*
 * Source compatibility with FreeBSD, C: a client written as FreeBSD's
 * are, against the headers as installed (<pmc.h>, <pmclog.h>,
 * <sys/pmc.h>, <sys/pmclog.h>; the build gives only the staged install
 * directory).  Checks FreeBSD's values (compat_values.h), the uapi values
 * of the names both views have, the X-macros against the pmc_name_of_*()
 * functions, the fixed event codes against perf's numbers, and the
 * pmclog_ev field sizes.  test_compat.cc does the C++ idioms.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/pmc.h>
#include <sys/pmclog.h>
#include <pmc.h>
#include <pmclog.h>

#include "compat_values.h"
#include "tap.h"

#define MSIZE(t, f)	sizeof(((t *)0)->f)

static void test_freebsd_values(void)
{
	unsigned int n = 0, bad = 0;

#define X(name, v)							\
	n++;								\
	if ((long long)(name) != (long long)(v)) {			\
		bad++;							\
		printf("# %s is %lld, FreeBSD's is %lld\n", #name,	\
		       (long long)(name), (long long)(v));		\
	}
	COMPAT_FREEBSD(X)
#undef X
	ok(bad == 0, "%u of %u names have FreeBSD's value", n - bad, n);
}

static void test_uapi_values(void)
{
#define V(name)	(long long)(name),
	static const long long mine[] = { COMPAT_SAME(V) };
#undef V
	unsigned int i, bad = 0;

	ok(compat_uapi_count == sizeof(mine) / sizeof(mine[0]), "table sizes");
	for (i = 0; i < compat_uapi_count; i++)
		if (mine[i] != compat_uapi_values[i]) {
			bad++;
			printf("# %s: %lld in <sys/pmc.h>, %lld in the uapi header\n",
			       compat_uapi_names[i], mine[i], compat_uapi_values[i]);
		}
	ok(bad == 0, "%u names: the same value in <sys/pmc.h> and <linux/hwpmc.h>",
	   compat_uapi_count);
}

/* FreeBSD's way: name tables from the X-macros, checked against libpmc. */
static void test_xmacros(void)
{
	static const struct { const char *name; enum pmc_class v; } cl[] = {
#define __PMC_CLASS(S, V, D)	{ #S, PMC_CLASS_##S },
		__PMC_CLASSES()
#undef __PMC_CLASS
	};
	static const struct { const char *name; enum pmc_state v; } st[] = {
#define __PMC_STATE(S)		{ #S, PMC_STATE_##S },
		__PMC_STATES()
#undef __PMC_STATE
	};
	static const struct { const char *name; enum pmc_mode v; } mo[] = {
#define __PMC_MODE(M, N)	{ #M, PMC_MODE_##M },
		__PMC_MODES()
#undef __PMC_MODE
	};
	static const struct { const char *name; enum pmc_disp v; } di[] = {
#define __PMC_DISP(D)		{ #D, PMC_DISP_##D },
		__PMC_DISPOSITIONS()
#undef __PMC_DISP
	};
	static const struct { const char *name; enum pmc_caps v; } ca[] = {
#define __PMC_CAP(N, V, D)	{ #N, PMC_CAP_##N },
		__PMC_CAPS()
#undef __PMC_CAP
	};
	static const char *const cpus[] = {
#define __PMC_CPU(S, V, D)	#S,
		__PMC_CPUS()
#undef __PMC_CPU
	};
	static const char *const ops[] = {
#define __PMC_OP(N, D)		#N,
		__PMC_OPS()
#undef __PMC_OP
	};
	unsigned int i, bad;
	const char *s;

#define NAMES(tab, fn) do {						\
		bad = 0;						\
		for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {	\
			s = fn(tab[i].v);				\
			if (!s || strcmp(s, tab[i].name)) {		\
				bad++;					\
				printf("# %s(%s) = %s\n", #fn,		\
				       tab[i].name, s ? s : "NULL");	\
			}						\
		}							\
		ok(bad == 0, "%s: %zu names from the X-macro", #fn,	\
		   sizeof(tab) / sizeof(tab[0]));			\
	} while (0)
	NAMES(cl, pmc_name_of_class);
	NAMES(st, pmc_name_of_state);
	NAMES(mo, pmc_name_of_mode);
	NAMES(di, pmc_name_of_disposition);
	NAMES(ca, pmc_name_of_capability);
#undef NAMES
	ok(sizeof(st) / sizeof(st[0]) == PMC_STATE_MAX &&
	   sizeof(di) / sizeof(di[0]) == PMC_DISP_LAST + 2,
	   "__PMC_STATES: PMC_STATE_MAX entries; __PMC_DISPOSITIONS: LAST + UNKNOWN");
	ok(sizeof(cpus) / sizeof(cpus[0]) == 55 &&
	   !strcmp(cpus[0], "AMD_K7") && !strcmp(cpus[54], "ARMV8_CORTEX_A76"),
	   "__PMC_CPUS: 55 types, AMD_K7 ... ARMV8_CORTEX_A76");
	ok(sizeof(ops) / sizeof(ops[0]) == PMC_OP_MAX + 1 &&
	   !strcmp(ops[PMC_OP_GETDYNEVENTINFO], "GETDYNEVENTINFO"),
	   "__PMC_OPS: PMC_OP_MAX + 1 operations, in order");
	ok(!strcmp(pmc_name_of_cputype(PMC_CPU_GENERIC), "GENERIC") &&
	   !strcmp(pmc_name_of_cputype(PMC_CPU_LINUX_X86), "LINUX_X86"),
	   "pmc_name_of_cputype() of the types the module reports");
}

/* __PMC_EVENTS(): FreeBSD's block numbering gives perf's fixed codes. */
static void test_events(void)
{
	static const struct { const char *name; enum pmc_event ev; } evs[] = {
#define __PMC_EV_BLOCK(C, V)
#define __PMC_EV(C, N)		{ #C "_" #N, PMC_EV_##C##_##N },
		__PMC_EVENTS()
#undef __PMC_EV
#undef __PMC_EV_BLOCK
	};
	static const struct { enum pmc_event ev; unsigned int code; } fixed[] = {
		{ PMC_EV_SOFT_CPU_CLOCK, PMC_EV_SOFT_FIRST + PERF_COUNT_SW_CPU_CLOCK },
		{ PMC_EV_SOFT_TASK_CLOCK, PMC_EV_SOFT_FIRST + PERF_COUNT_SW_TASK_CLOCK },
		{ PMC_EV_SOFT_PAGE_FAULTS, PMC_EV_SOFT_FIRST + PERF_COUNT_SW_PAGE_FAULTS },
		{ PMC_EV_SOFT_CONTEXT_SWITCHES,
		  PMC_EV_SOFT_FIRST + PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ PMC_EV_SOFT_CPU_MIGRATIONS,
		  PMC_EV_SOFT_FIRST + PERF_COUNT_SW_CPU_MIGRATIONS },
		{ PMC_EV_SOFT_MINOR_FAULTS,
		  PMC_EV_SOFT_FIRST + PERF_COUNT_SW_PAGE_FAULTS_MIN },
		{ PMC_EV_SOFT_MAJOR_FAULTS,
		  PMC_EV_SOFT_FIRST + PERF_COUNT_SW_PAGE_FAULTS_MAJ },
		{ PMC_EV_SOFT_ALIGNMENT_FAULTS,
		  PMC_EV_SOFT_FIRST + PERF_COUNT_SW_ALIGNMENT_FAULTS },
		{ PMC_EV_SOFT_EMULATION_FAULTS,
		  PMC_EV_SOFT_FIRST + PERF_COUNT_SW_EMULATION_FAULTS },
		{ PMC_EV_SOFT_DUMMY, PMC_EV_SOFT_FIRST + PERF_COUNT_SW_DUMMY },
		{ PMC_EV_SOFT_BPF_OUTPUT, PMC_EV_SOFT_FIRST + PERF_COUNT_SW_BPF_OUTPUT },
		{ PMC_EV_SOFT_CGROUP_SWITCHES,
		  PMC_EV_SOFT_FIRST + PERF_COUNT_SW_CGROUP_SWITCHES },
		{ PMC_EV_PMU_CYCLES, PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_CPU_CYCLES },
		{ PMC_EV_PMU_INSTRUCTIONS,
		  PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_INSTRUCTIONS },
		{ PMC_EV_PMU_CACHE_REFERENCES,
		  PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_CACHE_REFERENCES },
		{ PMC_EV_PMU_CACHE_MISSES,
		  PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_CACHE_MISSES },
		{ PMC_EV_PMU_BRANCH_INSTRUCTIONS,
		  PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ PMC_EV_PMU_BRANCH_MISSES,
		  PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_BRANCH_MISSES },
		{ PMC_EV_PMU_BUS_CYCLES, PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_BUS_CYCLES },
		{ PMC_EV_PMU_STALLED_CYCLES_FRONTEND,
		  PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
		{ PMC_EV_PMU_STALLED_CYCLES_BACKEND,
		  PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
		{ PMC_EV_PMU_REF_CYCLES,
		  PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_REF_CPU_CYCLES },
	};
	unsigned int i, bad = 0;
	const char *s;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if ((unsigned int)fixed[i].ev != fixed[i].code) {
			bad++;
			printf("# event %u: %#x, perf's code %#x\n", i,
			       (unsigned int)fixed[i].ev, fixed[i].code);
		}
	ok(bad == 0 && sizeof(evs) / sizeof(evs[0]) == 22,
	   "__PMC_EVENTS(): 22 events, codes = FIRST + perf's numbers");
	ok(!strcmp(evs[1].name, "SOFT_TASK_CLOCK") && evs[1].ev == PMC_EV_SOFT_TASK_CLOCK,
	   "FreeBSD's table idiom: { \"SOFT_TASK_CLOCK\", PMC_EV_SOFT_TASK_CLOCK }");
	s = pmc_name_of_event(PMC_EV_SOFT_TASK_CLOCK);
	ok(s && !strcmp(s, "task-clock"), "pmc_name_of_event(PMC_EV_SOFT_TASK_CLOCK) = %s",
	   s ? s : "NULL");
	s = pmc_name_of_event(PMC_EV_PMU_INSTRUCTIONS);
	ok(s && !strcmp(s, "instructions"),
	   "pmc_name_of_event(PMC_EV_PMU_INSTRUCTIONS) = %s", s ? s : "NULL");
	ok(PMC_EVENT_FIRST <= PMC_EV_SOFT_CPU_CLOCK &&
	   PMC_EV_PMU_REF_CYCLES <= PMC_EVENT_LAST &&
	   PMC_EV_SOFT_CGROUP_SWITCHES <= PMC_EV_SOFT_LAST &&
	   PMC_EV_SOFT_LAST < PMC_EV_PMU_HW_FIRST,
	   "PMC_EVENT_FIRST/LAST and PMC_EV_SOFT_LAST bound the events");
}

/* The pmclog(3) view: FreeBSD's sizes, the records a client may use. */
static void test_pmclog_view(void)
{
	union pmclog_entry e;
	struct pmclog_parse_state ps;
	struct pmclog_ev_pcsample pc;
	enum pmclog_type t = PMCLOG_TYPE_PMCALLOCATEDYN;
	enum pmclog_parser_state pst = PL_STATE_EXPECTING_HEADER;
	uint32_t h = PMCLOG_HEADER(PMCLOG_TYPE_CALLCHAIN, 48);

	ok(MSIZE(struct pmclog_ev, pl_u.pl_i.pl_cpuid) == PATH_MAX &&
	   MSIZE(struct pmclog_ev, pl_u.pl_mi.pl_pathname) == PATH_MAX &&
	   MSIZE(struct pmclog_ev, pl_u.pl_x.pl_pathname) == PATH_MAX &&
	   MSIZE(struct pmclog_ev, pl_u.pl_t.pl_pathname) == PATH_MAX,
	   "pmclog_ev: pl_cpuid and the paths are PATH_MAX bytes, as on FreeBSD");
	ok(MSIZE(struct pmclog_ev, pl_u.pl_pc.pl_pcomm) == 20 &&
	   MSIZE(struct pmclog_ev, pl_u.pl_tc.pl_tdname) == 20,
	   "pmclog_ev: pl_pcomm, pl_tdname: MAXCOMLEN + 1 = 20 bytes");
	ok(MSIZE(struct pmclog_ev, pl_u.pl_ad.pl_evname) == PMC_NAME_MAX &&
	   MSIZE(struct pmclog_ev, pl_u.pl_cc.pl_pc) ==
	   PMC_CALLCHAIN_DEPTH_MAX * sizeof(uint64_t),
	   "pmclog_ev: pl_ad.pl_evname, pl_cc.pl_pc");
	ok(sizeof(e) >= PMCLOG_MAX_RECORD && sizeof(e.pl_ad) == 104 /* FreeBSD 14's, with pl_rate */ &&
	   sizeof(ps.ps_saved) == sizeof(e) && sizeof(pc.pl_pc) == 8,
	   "union pmclog_entry holds any record; pmclog_parse_state, pcsample");
	ok(PMCLOG_HEADER_CHECK_MAGIC(h) && PMCLOG_HEADER_TO_TYPE(h) == PMCLOG_TYPE_CALLCHAIN && t == 17 &&
	   PMCLOG_HEADER_TO_LENGTH(h) == 48 && pst == 1,
	   "PMCLOG_HEADER_CHECK_MAGIC, header macros");
}

/* A record switch over enum pmclog_type: -Wswitch checks the list. */
static const char *type_name(enum pmclog_type t)
{
	switch (t) {
	case PMCLOG_TYPE_CLOSELOG:	return "closelog";
	case PMCLOG_TYPE_DROPNOTIFY:	return "drop";
	case PMCLOG_TYPE_INITIALIZE:	return "initlog";
	case PMCLOG_TYPE_PMCALLOCATE:	return "allocate";
	case PMCLOG_TYPE_PMCATTACH:	return "attach";
	case PMCLOG_TYPE_PMCDETACH:	return "detach";
	case PMCLOG_TYPE_PROCCSW:	return "proccsw";
	case PMCLOG_TYPE_PROCEXEC:	return "exec";
	case PMCLOG_TYPE_PROCEXIT:	return "exitvalue";
	case PMCLOG_TYPE_PROCFORK:	return "fork";
	case PMCLOG_TYPE_SYSEXIT:	return "exit";
	case PMCLOG_TYPE_USERDATA:	return "userdata";
	case PMCLOG_TYPE_MAP_IN:	return "map-in";
	case PMCLOG_TYPE_MAP_OUT:	return "map-out";
	case PMCLOG_TYPE_CALLCHAIN:	return "callchain";
	case PMCLOG_TYPE_PMCALLOCATEDYN: return "allocatedyn";
	case PMCLOG_TYPE_THR_CREATE:	return "thr-create";
	case PMCLOG_TYPE_THR_EXIT:	return "thr-exit";
	case PMCLOG_TYPE_PROC_CREATE:	return "proc-create";
	case PMCLOG_TYPE_USERSTACK:	return "userstack";
	}
	return "unknown";
}

/* The idioms of FreeBSD's C clients. */
static void test_idioms(void)
{
	enum pmc_mode m = PMC_MODE_SC;
	struct pmc_op_pmcallocate pa;
	struct pmc_info pi;
	pmc_value_t *v = &pi.pm_reloadcount;
	pmc_id_t id = PMC_ID_INVALID;
	int cpu = PMC_CPU_ANY;

	memset(&pa, 0, sizeof(pa));
	memset(&pi, 0, sizeof(pi));
	pa.pm_class = PMC_CLASS_SOFT;
	pa.pm_ev = PMC_EV_SOFT_PAGE_FAULTS;
	pa.pm_mode = PMC_MODE_TC;
	pa.pm_cpu = PMC_CPU_ANY;
	pi.pm_rowdisp = PMC_DISP_THREAD;
	*v = 7;
	ok(PMC_IS_SYSTEM_MODE(m) && PMC_IS_COUNTING_MODE(m) &&
	   pa.pm_cpu == (uint32_t)cpu && pi.pm_reloadcount == 7,
	   "enum pmc_mode, PMC_IS_*_MODE, pm_cpu = PMC_CPU_ANY, pmc_value_t *");
	errno = 0;
	ok(pmc_allocate("cpu-clock", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0) == -1 &&
	   errno == ENXIO, "pmc_allocate(..., PMC_MODE_TC, 0, PMC_CPU_ANY, ...) "
	   "before pmc_init(): ENXIO");
	ok(!strcmp(type_name(PMCLOG_TYPE_PMCALLOCATEDYN), "allocatedyn") &&
	   !strcmp(type_name((enum pmclog_type)4), "unknown"),
	   "switch over enum pmclog_type, every FreeBSD record type");
}

/*
 * libpmcstat's sample callback, as FreeBSD declares it: the call chain as
 * uintfptr_t *, given pl_cc.pl_pc.  FreeBSD's <sys/pmc.h> brings
 * uintfptr_t (<machine/profile.h>).
 */
static uintfptr_t cc_sum(uint32_t n, const uintfptr_t *cc)
{
	uintfptr_t s = 0;

	while (n--)
		s += cc[n];
	return s;
}

static void test_uintfptr(void)
{
	struct pmclog_ev ev;
	uintfptr_t start;

	memset(&ev, 0, sizeof(ev));
	ev.pl_u.pl_cc.pl_npc = 2;
	ev.pl_u.pl_cc.pl_pc[0] = 0x7f0000001000;
	ev.pl_u.pl_cc.pl_pc[1] = 0x555500000100;
	ev.pl_u.pl_mi.pl_start = 0;
	start = ev.pl_u.pl_mi.pl_start;
	ok(cc_sum(ev.pl_u.pl_cc.pl_npc, ev.pl_u.pl_cc.pl_pc) ==
	   0x7f0000001000 + 0x555500000100 && start == 0 &&
	   sizeof(uintfptr_t) >= sizeof(void (*)(void)) &&
	   sizeof(uintfptr_t) == sizeof(ev.pl_u.pl_cc.pl_pc[0]),
	   "uintfptr_t: pl_cc.pl_pc passes as uintfptr_t *, holds a function's address");
}

int compat_order_check(void);	/* compat_order.c */

int main(void)
{
	ok(compat_order_check(),
	   "<linux/hwpmc.h> before <pmc.h>: FreeBSD's enumerators and values");
	test_freebsd_values();
	test_uapi_values();
	test_xmacros();
	test_events();
	test_pmclog_view();
	test_idioms();
	test_uintfptr();
	return tap_done();
}
