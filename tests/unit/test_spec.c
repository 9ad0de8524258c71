// SPDX-License-Identifier: GPL-2.0
/*
 * libhwpmc's event specifiers (pmc_parse_spec, pmc_parse_spec_events and
 * pmc_allocate_parsed, pmc_allocate's messages):
 * with no module (every known event accepted), and against the fake
 * module of fake_hwpmc.c without a PMU, with a small one, and with a PMU
 * that has perf's generic and cache events (FAKE_HWPMC_PMU=2).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include <pmc.h>
#include "fake_hwpmc.h"
#include "tap.h"

#define SOFT(x)	(PMC_EV_SOFT_FIRST + PERF_COUNT_SW_##x)
#define HW(x)	(PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_##x)
#define CACHE(c, o, r) PMC_EV_PMU_CACHE(PERF_COUNT_HW_CACHE_##c,	\
					PERF_COUNT_HW_CACHE_OP_##o,	\
					PERF_COUNT_HW_CACHE_RESULT_##r)
#define S	PMC_CLASS_SOFT
#define P	PMC_CLASS_PMU
#define U	PMC_CAP_USER
#define K	PMC_CAP_SYSTEM

static struct pmc_op_pmcallocate pa;
static char err[256];

/* spec parses to event ev of class cl with caps */
static void good(const char *spec, __u32 cl, __u32 ev, __u32 caps)
{
	int r;

	memset(&pa, 0xA5, sizeof(pa));
	r = pmc_parse_spec(spec, &pa, err, sizeof(err));
	ok(r == 0 && pa.pm_class == cl && pa.pm_ev == ev &&
	   pa.pm_caps == caps && pa.pm_cpu == (uint32_t)PMC_CPU_ANY && !pa.pm_flags &&
	   !pa.pm_count && !err[0], "'%s' -> class %#x event %#x caps %#x%s%s",
	   spec, cl, ev, caps, r ? ": " : "", r ? err : "");
}

/* spec fails with EINVAL and a message containing want */
static void bad(const char *spec, const char *want)
{
	int r;

	errno = 0;
	r = pmc_parse_spec(spec, &pa, err, sizeof(err));
	ok(r == -1 && errno == EINVAL && strstr(err, want),
	   "'%s' refused: %s%s%s", spec, err,
	   strstr(err, want) ? "" : " -- wanted: ", strstr(err, want) ? "" : want);
}

static void no_module(void)
{
	char longspec[600];

	printf("# no module: every event hwpmc knows is accepted\n");
	good("cycles", P, HW(CPU_CYCLES), 0);
	good("task-clock", S, SOFT(TASK_CLOCK), 0);
	good("dTLB-load-misses", P, CACHE(DTLB, READ, MISS), 0);
	good("L1-dcache-misses", P, CACHE(L1D, READ, MISS), 0);
	good("branches", P, HW(BRANCH_INSTRUCTIONS), 0);
	good("r1c2:u", P, PMC_EV_PMU_RAW, U);
	ok(pa.pm_md.pm_pmu.pm_config == 0x1c2, "r1c2: config 0x1c2");
	bad("cyclez", "unknown event 'cyclez'");
	bad("SOFT-cycles", "event 'cycles' is of class PMU, not SOFT");
	bad("PMU-faults", "event 'faults' is of class SOFT, not PMU");
	bad(NULL, "empty event specifier");
	bad("", "empty event specifier");
	bad(",usr", "no event in ',usr'");
	memset(longspec, 'a', sizeof(longspec) - 1);
	longspec[sizeof(longspec) - 1] = '\0';
	bad(longspec, "too long");
	errno = 0;
	ok(pmc_parse_spec("cycles", NULL, err, sizeof(err)) == -1 &&
	   errno == EINVAL, "NULL pa: EINVAL");
	errno = 0;
	ok(pmc_parse_spec("cycles", &pa, err, 0) == -1 && errno == EINVAL,
	   "no room for the message: EINVAL");
}

/*
 * pmc_parse_spec_events(): the events known, the caller's choice.
 * Before pmc_init(), PMC_SPEC_MACHINE has no machine to look at.
 */
static void spec_events_no_module(void)
{
	struct pmc_spec ps;

	printf("# pmc_parse_spec_events, no module\n");
	ok(pmc_parse_spec_events("cycles:uk", PMC_SPEC_KNOWN, &ps, err,
				 sizeof(err)) == 0 && ps.ps_pa.pm_class == P &&
	   ps.ps_pa.pm_ev == HW(CPU_CYCLES) && !ps.ps_pa.pm_caps &&
	   ps.ps_modes == (U | K), "KNOWN 'cycles:uk': both modes named, no caps");
	ok(pmc_parse_spec_events("cycles,usr", PMC_SPEC_KNOWN, &ps, err,
				 sizeof(err)) == 0 && ps.ps_pa.pm_caps == U &&
	   ps.ps_modes == U, "KNOWN 'cycles,usr': user mode");
	ok(pmc_parse_spec_events("cycles", PMC_SPEC_KNOWN, &ps, err,
				 sizeof(err)) == 0 && !ps.ps_modes &&
	   ps.ps_pa.pm_cpu == (uint32_t)PMC_CPU_ANY, "KNOWN 'cycles': no mode named");
	errno = 0;
	ok(pmc_parse_spec_events("cycles", PMC_SPEC_MACHINE, &ps, err,
				 sizeof(err)) == -1 && errno == ENXIO,
	   "MACHINE before pmc_init: ENXIO (%s)", err);
	errno = 0;
	ok(pmc_parse_spec_events("cycles", (enum pmc_spec_events)7, &ps, err,
				 sizeof(err)) == -1 && errno == EINVAL,
	   "an unknown choice of events: EINVAL");
}

/* The same with the fake module (no PMU), and pmc_allocate_parsed(). */
static void spec_events_soft_only(void)
{
	struct pmc_spec ps;
	pmc_id_t id = 0;

	printf("# pmc_parse_spec_events, pmc_allocate_parsed, fake module without PMU\n");
	ok(pmc_parse_spec_events("cycles", PMC_SPEC_KNOWN, &ps, err,
				 sizeof(err)) == 0 &&
	   ps.ps_pa.pm_ev == HW(CPU_CYCLES),
	   "KNOWN after pmc_init: every event hwpmc knows");
	errno = 0;
	ok(pmc_parse_spec_events("cycles", PMC_SPEC_MACHINE, &ps, err,
				 sizeof(err)) == -1 && errno == EINVAL &&
	   strstr(err, "not available on this machine"),
	   "MACHINE: this machine's events (%s)", err);
	ok(pmc_parse_spec_events("cpu-clock", PMC_SPEC_MACHINE, &ps, err,
				 sizeof(err)) == 0 &&
	   pmc_allocate_parsed("cpu-clock", &ps.ps_pa, PMC_MODE_TC, 0,
			       (int)PMC_CPU_ANY, &id, 0) == 0 &&
	   !pmc_allocate_message()[0] && pmc_release(id) == 0,
	   "pmc_allocate_parsed of a parsed 'cpu-clock'");
	errno = 0;
	ok(pmc_allocate_parsed("my-clock", &ps.ps_pa, PMC_MODE_SC, 0,
			       (int)PMC_CPU_ANY, &id, 0) == -1 &&
	   errno == EINVAL &&
	   strstr(pmc_allocate_message(), "my-clock: system-scope PMCs need a CPU"),
	   "pmc_allocate_parsed: its message names spec (%s)",
	   pmc_allocate_message());
	errno = 0;
	ok(pmc_allocate_parsed("cpu-clock", NULL, PMC_MODE_TC, 0,
			       (int)PMC_CPU_ANY, &id, 0) == -1 &&
	   errno == EINVAL, "pmc_allocate_parsed: NULL pa, EINVAL");
}

static void soft_only(void)
{
	printf("# fake module, SOFT class only\n");
	/* perf names; case and separators */
	good("cpu-clock", S, SOFT(CPU_CLOCK), 0);
	good("CPU_CLOCK", S, SOFT(CPU_CLOCK), 0);
	good("Cpu.Clock", S, SOFT(CPU_CLOCK), 0);
	good("cpu clock", S, SOFT(CPU_CLOCK), 0);
	good("TASK-CLOCK", S, SOFT(TASK_CLOCK), 0);
	good("page-faults", S, SOFT(PAGE_FAULTS), 0);
	/* class prefix */
	good("SOFT-cpu-clock", S, SOFT(CPU_CLOCK), 0);
	good("soft_task_clock", S, SOFT(TASK_CLOCK), 0);
	/* FreeBSD's SOFT names */
	good("SOFT-CLOCK.HARD", S, SOFT(CPU_CLOCK), 0);
	good("soft_clock.prof", S, SOFT(CPU_CLOCK), 0);
	good("SOFT-CLOCK.STAT", S, SOFT(CPU_CLOCK), 0);
	good("SOFT-PAGE_FAULT.ALL", S, SOFT(PAGE_FAULTS), 0);
	good("faults", S, SOFT(PAGE_FAULTS), 0);
	/* qualifiers and modifiers */
	good("task-clock,usr", S, SOFT(TASK_CLOCK), U);
	good("task-clock,user", S, SOFT(TASK_CLOCK), U);
	good("task-clock,USR", S, SOFT(TASK_CLOCK), U);
	good("task-clock,os", S, SOFT(TASK_CLOCK), K);
	good("task-clock,sys", S, SOFT(TASK_CLOCK), K);
	good("task-clock,system", S, SOFT(TASK_CLOCK), K);
	good("task-clock:u", S, SOFT(TASK_CLOCK), U);
	good("task-clock:k", S, SOFT(TASK_CLOCK), K);
	good("task-clock:K", S, SOFT(TASK_CLOCK), K);
	good("task-clock:uk", S, SOFT(TASK_CLOCK), 0);
	good("task-clock,usr,os", S, SOFT(TASK_CLOCK), 0);
	good("task-clock:u,os", S, SOFT(TASK_CLOCK), 0);
	good("task-clock:u,usr", S, SOFT(TASK_CLOCK), U);

	/* errors name the token */
	bad("cyclez", "unknown event 'cyclez'");
	bad("cpu-clockz", "unknown event 'cpu-clockz'");
	bad("cycles", "event 'cycles' is not available on this machine (no hardware PMU)");
	bad("instructions,usr", "event 'instructions' is not available on this machine (no hardware PMU)");
	bad("PAPI_br_msp", "event 'PAPI_br_msp' (branch-misses) is not available on this machine (no hardware PMU)");
	bad("L1-dcache-misses", "event 'L1-dcache-misses' (L1-dcache-load-misses) is not available");
	bad("minor-faults", "event 'minor-faults' is not available on this machine");
	bad("r1c2", "raw event 'r1c2' is not available on this machine (no hardware PMU)");
	bad("SOFT-r1c2", "raw event 'r1c2' is of class PMU, not SOFT");
	bad("SOFT-PAGE_FAULT.READ", "event 'PAGE_FAULT.READ' has no Linux equivalent");
	bad("soft-page-fault.write", "event 'page-fault.write' has no Linux equivalent");
	bad("interrupts", "event 'interrupts' has no Linux equivalent");
	bad("cpu-clock,foo", "unknown qualifier 'foo' in 'cpu-clock,foo'");
	bad("cpu-clock,usr,foo=1", "unknown qualifier 'foo=1' in 'cpu-clock,usr,foo=1'");
	bad("cpu-clock,,usr", "empty qualifier in 'cpu-clock,,usr'");
	bad("cpu-clock,", "empty qualifier in 'cpu-clock,'");
	bad("cpu-clock:x", "unknown modifier ':x' in 'cpu-clock:x'");
	bad("cpu-clock:uq", "unknown modifier ':uq'");
	bad("cpu-clock:up", "modifier ':p' in 'cpu-clock:up' needs a PMU event");
	bad("cpu-clock:", "empty modifier in 'cpu-clock:'");
	bad("cpu-clock,config=1", "unknown qualifier 'config=1' in 'cpu-clock,config=1'");
	bad("SOFT-", "unknown event 'SOFT-'");
}

static void small_pmu(void)
{
	printf("# fake module with a PMU of cycles, instructions, raw\n");
	good("cycles", P, HW(CPU_CYCLES), 0);
	good("PMU-cycles", P, HW(CPU_CYCLES), 0);
	good("pmu_Cycles", P, HW(CPU_CYCLES), 0);
	good("instructions,usr", P, HW(INSTRUCTIONS), U);
	good("instructions:k", P, HW(INSTRUCTIONS), K);
	bad("branch-misses", "event 'branch-misses' is not available on this machine");
	ok(!strstr(err, "no hardware PMU"), "... without '(no hardware PMU)': there is one");
	bad("branches", "event 'branches' (branch-instructions) is not available");
	bad("PMU-task-clock", "event 'task-clock' is of class SOFT, not PMU");
}

/* every alias group, against a PMU with perf's events */
static void full_pmu(void)
{
	printf("# fake module with perf's generic and cache events\n");
	/* perf's aliases */
	good("branches", P, HW(BRANCH_INSTRUCTIONS), 0);
	good("branch-instructions", P, HW(BRANCH_INSTRUCTIONS), 0);
	good("cpu-cycles", P, HW(CPU_CYCLES), 0);
	good("idle-cycles-frontend", P, HW(STALLED_CYCLES_FRONTEND), 0);
	good("idle-cycles-backend", P, HW(STALLED_CYCLES_BACKEND), 0);
	good("faults", S, SOFT(PAGE_FAULTS), 0);
	good("ref-cycles", P, HW(REF_CPU_CYCLES), 0);
	good("bus-cycles", P, HW(BUS_CYCLES), 0);
	/* perf's cache spellings */
	good("L1-dcache-load-misses", P, CACHE(L1D, READ, MISS), 0);
	good("L1-dcache-misses", P, CACHE(L1D, READ, MISS), 0);
	good("l1d-load-miss", P, CACHE(L1D, READ, MISS), 0);
	good("L1-data-read-misses", P, CACHE(L1D, READ, MISS), 0);
	good("L1-dcache", P, CACHE(L1D, READ, ACCESS), 0);
	good("L1-dcache-refs", P, CACHE(L1D, READ, ACCESS), 0);
	good("L1_DCACHE_STORES", P, CACHE(L1D, WRITE, ACCESS), 0);
	good("l1-d-write-access", P, CACHE(L1D, WRITE, ACCESS), 0);
	good("l1i-misses", P, CACHE(L1I, READ, MISS), 0);
	good("L2-load-misses", P, CACHE(LL, READ, MISS), 0);
	good("LLC-misses", P, HW(CACHE_MISSES), 0);	/* FreeBSD's alias wins */
	good("LLC", P, CACHE(LL, READ, ACCESS), 0);
	good("dTLB-misses", P, CACHE(DTLB, READ, MISS), 0);
	good("data-tlb-loads", P, CACHE(DTLB, READ, ACCESS), 0);
	good("iTLB-load-misses", P, CACHE(ITLB, READ, MISS), 0);
	good("i-tlb-misses", P, CACHE(ITLB, READ, MISS), 0);
	good("branch-load-misses", P, CACHE(BPU, READ, MISS), 0);
	good("btb-misses", P, CACHE(BPU, READ, MISS), 0);
	good("branch-misses", P, HW(BRANCH_MISSES), 0);	/* not btb's */
	bad("L1-dcache-prefetch-misses", "event 'L1-dcache-prefetch-misses' is not available on this machine");
	bad("l1d-speculative-read-miss", "event 'l1d-speculative-read-miss' (L1-dcache-prefetch-misses) is not available");
	bad("node", "event 'node' (node-loads) is not available");
	bad("L1-dcache-loadz", "unknown event 'L1-dcache-loadz'");
	bad("L1-dcache-misses-load", "unknown event");
	/* FreeBSD's generic names */
	good("instructions", P, HW(INSTRUCTIONS), 0);
	good("branch-mispredicts", P, HW(BRANCH_MISSES), 0);
	good("dc-misses", P, CACHE(L1D, READ, MISS), 0);
	good("ic-misses", P, CACHE(L1I, READ, MISS), 0);
	good("unhalted-cycles", P, HW(CPU_CYCLES), 0);
	good("UNHALTED_CORE_CYCLES", P, HW(CPU_CYCLES), 0);
	good("INSTRUCTION_RETIRED", P, HW(INSTRUCTIONS), 0);
	good("LLC-MISSES", P, HW(CACHE_MISSES), 0);
	good("LLC-REFERENCE", P, HW(CACHE_REFERENCES), 0);
	/* Solaris generic events / PAPI presets, any case */
	good("PAPI_tot_ins", P, HW(INSTRUCTIONS), 0);
	good("PAPI_TOT_INS", P, HW(INSTRUCTIONS), 0);
	good("PAPI_tot_cyc", P, HW(CPU_CYCLES), 0);
	good("PAPI_ref_cyc", P, HW(REF_CPU_CYCLES), 0);
	good("PAPI_br_ins", P, HW(BRANCH_INSTRUCTIONS), 0);
	good("PAPI_br_msp", P, HW(BRANCH_MISSES), 0);
	good("PAPI_l1_dcm", P, CACHE(L1D, READ, MISS), 0);
	good("PAPI_l1_ldm", P, CACHE(L1D, READ, MISS), 0);
	good("PAPI_l1_dca", P, CACHE(L1D, READ, ACCESS), 0);
	good("PAPI_l1_icm", P, CACHE(L1I, READ, MISS), 0);
	good("PAPI_l3_tcm", P, HW(CACHE_MISSES), 0);
	good("PAPI_l3_tca", P, HW(CACHE_REFERENCES), 0);
	good("PAPI_l3_ldm", P, CACHE(LL, READ, MISS), 0);
	good("PAPI_tlb_dm", P, CACHE(DTLB, READ, MISS), 0);
	good("PAPI_tlb_im", P, CACHE(ITLB, READ, MISS), 0);
	good("papi.tlb.dm,usr", P, CACHE(DTLB, READ, MISS), U);
	bad("PAPI_l1_stm", "(L1-dcache-store-misses) is not available");
	bad("PAPI_stl_icy", "unknown event 'PAPI_stl_icy'");
	bad("PAPI_l2_tcm", "unknown event 'PAPI_l2_tcm'");

	/* raw events */
	good("r1c2", P, PMC_EV_PMU_RAW, 0);
	ok(pa.pm_md.pm_pmu.pm_config == 0x1c2 && !pa.pm_md.pm_pmu.pm_config1,
	   "r1c2: config 0x1c2");
	good("R00C0,os", P, PMC_EV_PMU_RAW, K);
	ok(pa.pm_md.pm_pmu.pm_config == 0xc0, "R00C0: config 0xc0");
	good("PMU-rffffffffffffffff:u", P, PMC_EV_PMU_RAW, U);
	ok(pa.pm_md.pm_pmu.pm_config == ~0ULL, "16 hex digits: all ones");
	bad("r1ffffffffffffffff", "unknown event 'r1ffffffffffffffff'");
	bad("r", "unknown event 'r'");
	bad("r12g", "unknown event 'r12g'");
	good("raw,config=0x3c,config1=5,usr", P, PMC_EV_PMU_RAW, U);
	ok(pa.pm_md.pm_pmu.pm_config == 0x3c && pa.pm_md.pm_pmu.pm_config1 == 5,
	   "raw,config=0x3c,config1=5: both set");
	good("RAW,Config=60,config2=0x10", P, PMC_EV_PMU_RAW, 0);
	ok(pa.pm_md.pm_pmu.pm_config == 60 && pa.pm_md.pm_pmu.pm_config2 == 16,
	   "raw,config=60,config2=0x10");
	good("r3c,config1=7", P, PMC_EV_PMU_RAW, 0);
	ok(pa.pm_md.pm_pmu.pm_config == 0x3c && pa.pm_md.pm_pmu.pm_config1 == 7,
	   "r3c,config1=7");
	bad("raw", "raw event needs a code");
	bad("raw,usr", "raw event needs a code");
	bad("raw,config=xyz", "bad number 'xyz' in 'raw,config=xyz'");
	bad("raw,config=-1", "bad number '-1'");
	bad("raw,config=", "bad number ''");
	bad("raw,config=0x1ffffffffffffffff", "bad number '0x1ffffffffffffffff'");
	bad("raw,config3=1", "unknown qualifier 'config3=1' in 'raw,config3=1'");
	bad("cycles,config=1", "unknown qualifier 'config=1'");
}

int main(void)
{
	pmc_id_t id = 0;
	uint32_t msr;

	unsetenv("FAKE_HWPMC_PMU");
	unsetenv("FAKE_HWPMC_UNPRIV");
	no_module();
	spec_events_no_module();

	setenv("HWPMC_DEVICE", "/dev/null", 1);
	ok(pmc_init() == 0, "pmc_init (fake, no PMU): %s", pmc_init_message());
	soft_only();
	spec_events_soft_only();

	/* pmc_allocate: the message, and FreeBSD's errno */
	errno = 0;
	ok(pmc_allocate("nonesuch", PMC_MODE_TC, 0, (int)PMC_CPU_ANY, &id, 0) == -1 &&
	   errno == EINVAL && strstr(pmc_allocate_message(), "'nonesuch'"),
	   "pmc_allocate: EINVAL, %s", pmc_allocate_message());
	ok(pmc_allocate("cpu-clock", PMC_MODE_TC, 0, (int)PMC_CPU_ANY, &id, 0) == 0 &&
	   !pmc_allocate_message()[0], "pmc_allocate: a success clears the message");
	errno = 0;
	ok(pmc_get_msr(id, &msr) == -1 && errno == EINVAL,
	   "pmc_get_msr: a software event is never read directly");
	ok(pmc_release(id) == 0, "pmc_release");
	pmc_fini();

	setenv("FAKE_HWPMC_PMU", "1", 1);
	ok(pmc_init() == 0, "pmc_init (fake, small PMU): %s", pmc_init_message());
	small_pmu();
	ok(pmc_allocate("instructions", PMC_MODE_TC, 0, (int)PMC_CPU_ANY, &id, 0) == 0 &&
	   pmc_attach(id, 0) == 0, "pmc_allocate, pmc_attach: instructions");
	errno = 0;
	ok(pmc_get_msr(id, &msr) == -1 && errno == ENOSYS,
	   "pmc_get_msr: the module's EOPNOTSUPP is FreeBSD's ENOSYS");
	ok(pmc_release(id) == 0, "pmc_release");
	pmc_fini();

	setenv("FAKE_HWPMC_PMU", "2", 1);
	ok(pmc_init() == 0, "pmc_init (fake, full PMU): %s", pmc_init_message());
	full_pmu();
	pmc_fini();
	unsetenv("FAKE_HWPMC_PMU");
	return tap_done();
}
