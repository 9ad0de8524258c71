// SPDX-License-Identifier: GPL-2.0
/*
 * The PERF class's events in libhwpmc (pmc_perf.c, pmc_spec.c): "pmu/terms/"
 * of PMUs other than the core one and "sys:name" tracepoints, resolved
 * from a fake sysfs and tracefs (HWPMC_SYSFS); bad terms named with the
 * PMU's valid ones; the CPUs of a CPU-wide PMU; the listing; and
 * allocation through the fake module (FAKE_HWPMC_PERF=1), whose checks
 * are <hwpmc_allocate.h>'s.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmc.h>
#include "libpmc_internal.h"
#include <hwpmc_allocate.h>
#include "fake_hwpmc.h"
#include "tap.h"

static char dir[] = "/tmp/hwpmc-perf.XXXXXX";
static struct pmc_op_pmcallocate pa;
static char err[512];

static int sh(const char *fmt, const char *arg)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), fmt, arg, arg, arg, arg, arg, arg);
	return system(cmd);
}

/*
 * msr (10: per task), uncore_imc_0 (11: cpumask 1,3), cpu (4), little
 * (12: a core PMU of CPUs 2 and 3, sysfs cpus), tracefs
 */
static int fake_tree(void)
{
	if (!mkdtemp(dir))
		return -1;
	return sh("d=%s/bus/event_source/devices && "
		  "mkdir -p $d/msr/format $d/msr/events $d/uncore_imc_0/format "
		  "$d/uncore_imc_0/events $d/cpu/format && "
		  "echo 10 > $d/msr/type && echo config:0-63 > $d/msr/format/event && "
		  "echo event=0x00 > $d/msr/events/tsc && "
		  "echo event=0x01 > $d/msr/events/aperf && "
		  "echo 11 > $d/uncore_imc_0/type && echo 1,3 > $d/uncore_imc_0/cpumask && "
		  "echo config:0-7 > $d/uncore_imc_0/format/event && "
		  "echo config:8-15 > $d/uncore_imc_0/format/umask && "
		  "echo event=0x04,umask=0x03 > $d/uncore_imc_0/events/cas_count_read && "
		  "echo 64 > $d/uncore_imc_0/events/cas_count_read.scale && "
		  "echo 4 > $d/cpu/type && echo config:0-7 > $d/cpu/format/event && "
		  "mkdir -p $d/little/format && echo 12 > $d/little/type && "
		  "echo 2-3 > $d/little/cpus && echo config:0-15 > $d/little/format/event && "
		  "t=%s/kernel/tracing/events && mkdir -p $t/syscalls/sys_enter_getppid "
		  "$t/sched/sched_switch && echo 123 > $t/syscalls/sys_enter_getppid/id && "
		  "echo 321 > $t/sched/sched_switch/id", dir);
}

/* spec parses to PERF type t, config c, caps */
static void perf(const char *spec, uint32_t t, uint64_t c, uint32_t caps)
{
	int r;

	memset(&pa, 0xA5, sizeof(pa));
	r = pmc_parse_spec(spec, &pa, err, sizeof(err));
	ok(r == 0 && pa.pm_class == PMC_CLASS_PERF && pa.pm_ev == PMC_EV_PERF &&
	   pa.pm_md.pm_pmu.pm_type == t && pa.pm_md.pm_pmu.pm_config == c &&
	   !pa.pm_md.pm_pmu.pm_config1 && pa.pm_caps == caps,
	   "'%s' -> PERF type %u config %#llx caps %#x%s%s", spec, t,
	   (unsigned long long)c, caps, r ? ": " : "", r ? err : "");
	if (!r && (pa.pm_md.pm_pmu.pm_type != t || pa.pm_md.pm_pmu.pm_config != c))
		printf("# got type %u config %#llx\n", pa.pm_md.pm_pmu.pm_type,
		       (unsigned long long)pa.pm_md.pm_pmu.pm_config);
}

/* spec is refused, errno EINVAL, with a message holding want and want2 */
static void bad(const char *spec, const char *want, const char *want2)
{
	int r;

	errno = 0;
	r = pmc_parse_spec(spec, &pa, err, sizeof(err));
	ok(r == -1 && errno == EINVAL && strstr(err, want) &&
	   (!want2 || strstr(err, want2)), "'%s' refused: %s", spec, err);
}

static void parse(void)
{
	perf("msr/tsc/", 10, 0, 0);
	perf("msr/aperf/", 10, 1, 0);
	perf("msr/event=0x3/", 10, 3, 0);
	perf("msr/config=0x7/u", 10, 7, PMC_CAP_USER);
	perf("uncore_imc_0/cas_count_read/", 11, 0x304, 0);
	perf("uncore_imc_0/event=0x4,umask=0x1/", 11, 0x104, 0);
	perf("uncore_imc_0/cas_count_read,umask=0xf/", 11, 0xf04, 0);
	perf("syscalls:sys_enter_getppid", 2, 123, 0);
	perf("sched:sched_switch", 2, 321, 0);
	perf("sched:sched_switch:k", 2, 321, PMC_CAP_SYSTEM);
	bad("msr/bogus/", "unknown term 'bogus' for PMU msr",
	    "(terms: event, config, config1, config2; events: aperf, tsc)");
	bad("uncore_imc_0/evnt=1/", "unknown term 'evnt' for PMU uncore_imc_0",
	    "terms: event, umask, config, config1, config2; events: cas_count_read)");
	bad("uncore_imc_0/umask=0x100/", "does not fit its 8 bits", NULL);
	bad("nosuch_pmu/event=1/", "no PMU 'nosuch_pmu'", NULL);
	bad("msr//", "no event terms", NULL);
	bad("sched:no_such_event", "no tracepoint 'sched:no_such_event'", NULL);
	bad("nosys:ev", "no tracepoint 'nosys:ev'", "(no such system)");
	bad("msr/tsc/p", "needs a PMU event", NULL);
	/* events with modifiers are no tracepoints */
	bad("cpu-clock:x", "unknown modifier ':x'", NULL);
	bad("cycles:q", "unknown modifier ':q'", NULL);
	/* precise: perf's precise_ip goes with PMC_CAP_PRECISE */
	ok(pmc_parse_spec("r3c:ppp", &pa, err, sizeof(err)) == 0 &&
	   (pa.pm_caps & PMC_CAP_PRECISE) && pa.pm_md.pm_pmu.pm_precise == 3,
	   "r3c:ppp: PMC_CAP_PRECISE, pm_precise 3 (%s)", err);
	ok(pmc_parse_spec("r3c:p", &pa, err, sizeof(err)) == 0 &&
	   pa.pm_md.pm_pmu.pm_precise == 1, "r3c:p: pm_precise 1");
	ok(pmc_parse_spec("r3c", &pa, err, sizeof(err)) == 0 &&
	   !pa.pm_md.pm_pmu.pm_precise && !(pa.pm_caps & PMC_CAP_PRECISE),
	   "r3c: no precise");
}

static void cpus(void)
{
	unsigned char set[4];

	ok(pmc_parse_spec("uncore_imc_0/cas_count_read/", &pa, err, sizeof(err)) == 0 &&
	   pmc_perf_cpus(&pa, set, 4) == 1 && !set[0] && set[1] && !set[2] && set[3],
	   "uncore_imc_0: its cpumask, CPUs 1 and 3");
	ok(pmc_parse_spec("msr/tsc/", &pa, err, sizeof(err)) == 0 &&
	   pmc_perf_cpus(&pa, set, 4) == 0 && set[0] && set[1] && set[2] && set[3],
	   "msr: no cpumask, every CPU");
	ok(pmc_parse_spec("little/event=0x11/", &pa, err, sizeof(err)) == 0 &&
	   pmc_perf_cpus(&pa, set, 4) == 1 && !set[0] && !set[1] && set[2] && set[3],
	   "little: a core PMU of some CPUs, its cpus: 2 and 3");
	ok(pmc_perf_pmu_kind(12) == HWPMC_PERF_PMU_HETERO &&
	   pmc_perf_pmu_kind(11) == HWPMC_PERF_PMU_CPU &&
	   pmc_perf_pmu_kind(10) == HWPMC_PERF_PMU_TASK,
	   "kinds by sysfs: cpus HETERO, cpumask CPU, neither TASK");
	ok(pmc_parse_spec("cycles", &pa, err, sizeof(err)) == 0 &&
	   pmc_perf_cpus(&pa, set, 4) == -1 && errno == EINVAL,
	   "cycles: no PERF-class event, EINVAL");
}

static void count_ev(const char *pmu, const char *ev, const char *terms,
		     void *arg)
{
	char *buf = arg;

	snprintf(buf + strlen(buf), 512 - strlen(buf), "%s/%s/=%s;", pmu, ev,
		 terms);
}

static void listing(void)
{
	char buf[512] = "";
	int n = pmc_perf_pmu_events(count_ev, buf);

	ok(n == 3 && !strcmp(buf, "msr/aperf/=event=0x01;msr/tsc/=event=0x00;"
			      "uncore_imc_0/cas_count_read/=event=0x04,umask=0x03;"),
	   "the other PMUs' sysfs events, in order, no .scale: %d: %s", n, buf);
}

/* Through the fake module: allocation and the explanation of a refusal */
static void module(void)
{
	pmc_id_t id;

	setenv("HWPMC_DEVICE", "/dev/null", 1);
	setenv("FAKE_HWPMC_PMU", "1", 1);
	ok(pmc_init() == 0, "pmc_init (fake, no PERF class)");
	bad("syscalls:sys_enter_getppid", "tracepoint 'syscalls:sys_enter_getppid' is not counted by this hwpmc module", NULL);
	pmc_fini();
	setenv("FAKE_HWPMC_PERF", "1", 1);
	ok(pmc_init() == 0, "pmc_init (fake, PERF class)");
	ok(pmc_allocate("syscalls:sys_enter_getppid", PMC_MODE_TC, 0,
			PMC_CPU_ANY, &id, 0) == 0 &&
	   PMC_ID_TO_CLASS(id) == PMC_CLASS_PERF && pmc_release(id) == 0,
	   "process-scope tracepoint allocated: %s", pmc_allocate_message());
	ok(!strcmp(fake_hwpmc_evname, "syscalls:sys_enter_getppid"),
	   "the specifier goes to the module as the event's name: '%s'",
	   fake_hwpmc_evname);
	ok(pmc_allocate("sched:sched_switch:u", PMC_MODE_TC, 0, PMC_CPU_ANY,
			&id, 0) == -1 && errno == EOPNOTSUPP &&
	   strstr(pmc_allocate_message(), "cannot count user mode alone"),
	   "a tracepoint in user mode alone: EOPNOTSUPP: %s",
	   pmc_allocate_message());
	ok(pmc_allocate("msr/tsc/", PMC_MODE_SC, 0, 0, &id, 0) == 0 &&
	   pmc_release(id) == 0, "msr/tsc/ in system scope");
	ok(!strcmp(fake_hwpmc_evname, "msr/tsc/"), "... named 'msr/tsc/': '%s'",
	   fake_hwpmc_evname);
	ok(pmc_allocate("uncore_imc_0/cas_count_read/", PMC_MODE_TC, 0,
			PMC_CPU_ANY, &id, 0) == -1 && errno == EINVAL &&
	   strstr(pmc_allocate_message(), "counts CPUs, not processes"),
	   "uncore in process scope: EINVAL: %s", pmc_allocate_message());
	ok(pmc_allocate("uncore_imc_0/cas_count_read/", PMC_MODE_SC, 0, 1,
			&id, 0) == 0 && pmc_release(id) == 0,
	   "uncore in system scope");
	ok(pmc_allocate("msr/tsc/", PMC_MODE_SS, 0, 0, &id, 100000) == -1 &&
	   errno == EOPNOTSUPP && strstr(pmc_allocate_message(), "cannot sample"),
	   "msr sampling: EOPNOTSUPP: %s", pmc_allocate_message());
	setenv("FAKE_HWPMC_UNPRIV", "1", 1);
	ok(pmc_allocate("syscalls:sys_enter_getppid", PMC_MODE_TC, 0,
			PMC_CPU_ANY, &id, 0) == -1 && errno == EPERM &&
	   strstr(pmc_allocate_message(), "count kernel mode, which needs CAP_PERFMON"),
	   "unprivileged tracepoint: EPERM: %s", pmc_allocate_message());
	unsetenv("FAKE_HWPMC_UNPRIV");
	pmc_fini();
	unsetenv("FAKE_HWPMC_PERF");
	unsetenv("FAKE_HWPMC_PMU");
	unsetenv("HWPMC_DEVICE");
}

/*
 * Hybrid Intel (Alder Lake, HWPMC_CPUID): a fake sysfs with cpu_core
 * (type 4) and cpu_atom (type 10).  Vendor names resolve to the PMU
 * whose table has them: the core's (the PMU class), else the E-cores'
 * companion table (cpu_atom, the PERF class); "cpu_atom/NAME/" takes the
 * E-cores' encoding, never the core's.  ICACHE.ACCESSES is E-core only
 * (alderlake/frontend.json: EventCode 0x80, UMask 0x3, Unit cpu_atom).
 */
static void hybrid(void)
{
	static char hdir[] = "/tmp/hwpmc-hybrid.XXXXXX";
	int r;

	ok(mkdtemp(hdir) != NULL &&
	   sh("for p in cpu_core cpu_atom; do d=%s/bus/event_source/devices/$p && "
	      "mkdir -p $d/format && echo config:0-7 > $d/format/event && "
	      "echo config:8-15 > $d/format/umask && "
	      "echo config:24-31 > $d/format/cmask; done && "
	      "echo 4 > %s/bus/event_source/devices/cpu_core/type && "
	      "echo 10 > %s/bus/event_source/devices/cpu_atom/type", hdir) == 0,
	   "fake hybrid sysfs in %s", hdir);
	setenv("HWPMC_SYSFS", hdir, 1);
	setenv("HWPMC_CPUID", "GenuineIntel-6-97-2", 1);
	perf("ICACHE.ACCESSES", 10, 0x380, 0);
	perf("icache.accesses:u", 10, 0x380, PMC_CAP_USER);
	perf("cpu_atom/ICACHE.ACCESSES/", 10, 0x380, 0);
	perf("cpu_atom/ICACHE.ACCESSES,cmask=2/k", 10, 0x2000380,
	     PMC_CAP_SYSTEM);
	perf("cpu_atom/event=0xc0/", 10, 0xc0, 0);
	r = pmc_parse_spec("BR_INST_RETIRED.ALL_BRANCHES", &pa, err,
			   sizeof(err));
	ok(r == 0 && pa.pm_class == PMC_CLASS_PMU && pa.pm_ev == PMC_EV_PMU_RAW &&
	   pa.pm_md.pm_pmu.pm_config == 0xc4,
	   "an event of both: the core's, PMU class (%s)", r ? err : "");
	bad("cpu_core/ICACHE.ACCESSES/", "unknown event 'ICACHE.ACCESSES'", NULL);
	bad("cpu_atom/NO_SUCH.EVENT/", "unknown term 'NO_SUCH.EVENT' for PMU cpu_atom",
	    NULL);
	bad("NO_SUCH.EVENT", "unknown event 'NO_SUCH.EVENT'", NULL);
	unsetenv("HWPMC_CPUID");
	setenv("HWPMC_SYSFS", dir, 1);
	sh("rm -rf %s", hdir);
}

int main(void)
{
	int r = fake_tree();

	ok(r == 0, "fake sysfs and tracefs in %s", dir);
	if (r)
		return tap_done();
	setenv("HWPMC_SYSFS", dir, 1);
	parse();
	cpus();
	listing();
	module();
	hybrid();
	sh("rm -rf %s", dir);
	return tap_done();
}
