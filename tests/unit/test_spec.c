// SPDX-License-Identifier: GPL-2.0
/*
 * libhwpmc's event specifiers (pmc_parse_spec, pmc_allocate's messages)
 * against the fake module of fake_hwpmc.c: without and with a PMU.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include <pmc.h>
#include "fake_hwpmc.h"
#include "tap.h"

#define SOFT(x)	(PMC_EV_SOFT_FIRST + PERF_COUNT_SW_##x)
#define HW(x)	(PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_##x)

static struct pmc_op_pmcallocate pa;
static char err[256];

/* spec parses to event ev of class cl with caps */
static void good(const char *spec, __u32 cl, __u32 ev, __u32 caps)
{
	int r = pmc_parse_spec(spec, &pa, err, sizeof(err));

	ok(r == 0 && pa.pm_class == cl && pa.pm_ev == ev &&
	   pa.pm_caps == caps, "'%s' -> class %#x event %#x caps %#x%s%s",
	   spec, cl, ev, caps, r ? ": " : "", r ? err : "");
}

/* spec fails with EINVAL and a message containing want */
static void bad(const char *spec, const char *want)
{
	int r;

	errno = 0;
	r = pmc_parse_spec(spec, &pa, err, sizeof(err));
	ok(r == -1 && errno == EINVAL && strstr(err, want),
	   "'%s' refused: %s", spec, err);
}

int main(void)
{
	pmc_id_t id;
	uint32_t msr;

	setenv("HWPMC_DEVICE", "/dev/null", 1);
	unsetenv("FAKE_HWPMC_PMU");
	ok(pmc_init() == 0, "pmc_init (fake, no PMU): %s", pmc_init_message());

	/* perf names, case and separators, class prefix, aliases */
	good("cpu-clock", PMC_CLASS_SOFT, SOFT(CPU_CLOCK), 0);
	good("CPU_CLOCK", PMC_CLASS_SOFT, SOFT(CPU_CLOCK), 0);
	good("Cpu.Clock", PMC_CLASS_SOFT, SOFT(CPU_CLOCK), 0);
	good("SOFT-cpu-clock", PMC_CLASS_SOFT, SOFT(CPU_CLOCK), 0);
	good("SOFT-CLOCK.HARD", PMC_CLASS_SOFT, SOFT(CPU_CLOCK), 0);
	good("soft_clock.prof", PMC_CLASS_SOFT, SOFT(CPU_CLOCK), 0);
	good("SOFT-PAGE_FAULT.ALL", PMC_CLASS_SOFT, SOFT(PAGE_FAULTS), 0);
	good("faults", PMC_CLASS_SOFT, SOFT(PAGE_FAULTS), 0);
	good("task-clock,usr", PMC_CLASS_SOFT, SOFT(TASK_CLOCK), PMC_CAP_USER);
	good("task-clock,os", PMC_CLASS_SOFT, SOFT(TASK_CLOCK), PMC_CAP_SYSTEM);
	good("task-clock:u", PMC_CLASS_SOFT, SOFT(TASK_CLOCK), PMC_CAP_USER);
	good("task-clock:k", PMC_CLASS_SOFT, SOFT(TASK_CLOCK), PMC_CAP_SYSTEM);
	good("task-clock,usr,os", PMC_CLASS_SOFT, SOFT(TASK_CLOCK), 0);

	/* errors name the token */
	bad("", "empty");
	bad("cyclez", "unknown event 'cyclez'");
	bad("cycles", "event 'cycles' is not available on this machine (no hardware PMU)");
	bad("PAPI_br_msp", "'PAPI_br_msp' is not available");
	bad("r1c2", "not available on this machine (no hardware PMU)");
	bad("cpu-clock,foo", "unknown qualifier 'foo' in 'cpu-clock,foo'");
	bad("cpu-clock:x", "unknown modifier ':x'");
	bad("cpu-clock,config=1", "unknown qualifier 'config=1'");

	/* pmc_allocate: the message, and FreeBSD's errno */
	errno = 0;
	ok(pmc_allocate("nonesuch", PMC_MODE_TC, 0, (int)PMC_CPU_ANY, &id, 0) == -1 &&
	   errno == EINVAL && strstr(pmc_allocate_message(), "'nonesuch'"),
	   "pmc_allocate: EINVAL, %s", pmc_allocate_message());
	errno = 0;
	ok(pmc_get_msr(0, &msr) == -1 && errno == ENOSYS,
	   "pmc_get_msr: the module's EOPNOTSUPP is FreeBSD's ENOSYS");
	pmc_fini();

	setenv("FAKE_HWPMC_PMU", "1", 1);
	ok(pmc_init() == 0, "pmc_init (fake, with a PMU): %s", pmc_init_message());
	good("cycles", PMC_CLASS_PMU, HW(CPU_CYCLES), 0);
	good("PMU-cycles", PMC_CLASS_PMU, HW(CPU_CYCLES), 0);
	good("cpu-cycles", PMC_CLASS_PMU, HW(CPU_CYCLES), 0);
	good("unhalted-cycles", PMC_CLASS_PMU, HW(CPU_CYCLES), 0);
	good("PAPI_tot_cyc", PMC_CLASS_PMU, HW(CPU_CYCLES), 0);
	good("PAPI_TOT_INS", PMC_CLASS_PMU, HW(INSTRUCTIONS), 0);
	good("instructions,usr", PMC_CLASS_PMU, HW(INSTRUCTIONS), PMC_CAP_USER);
	good("r1c2", PMC_CLASS_PMU, PMC_EV_PMU_RAW, 0);
	ok(pa.pm_md.pm_pmu.pm_config == 0x1c2, "r1c2: config 0x1c2");
	good("raw,config=0x3c,config1=5,usr", PMC_CLASS_PMU, PMC_EV_PMU_RAW,
	     PMC_CAP_USER);
	ok(pa.pm_md.pm_pmu.pm_config == 0x3c && pa.pm_md.pm_pmu.pm_config1 == 5,
	   "raw,config=0x3c,config1=5: both set");
	bad("raw", "raw event needs a code");
	bad("raw,config=xyz", "bad number 'xyz'");
	bad("raw,config=-1", "bad number '-1'");
	bad("SOFT-r1c2", "of class PMU, not SOFT");
	bad("branch-misses", "'branch-misses' is not available on this machine");
	pmc_fini();
	return tap_done();
}
