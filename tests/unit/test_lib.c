// SPDX-License-Identifier: GPL-2.0
/*
 * libhwpmc against no module, against things that are not the module,
 * and against the fake module of fake_hwpmc.c (linked in: it interposes
 * ioctl() and serves /dev/null).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include <pmc.h>
#include <pmclog.h>
#include "fake_hwpmc.h"
#include "tap.h"

#define EV_CPU_CLOCK	(PMC_EV_SOFT_FIRST + PERF_COUNT_SW_CPU_CLOCK)

static int msg_has(const char *needle)
{
	return strstr(pmc_init_message(), needle) != NULL;
}

static void use_device(const char *path)
{
	setenv("HWPMC_DEVICE", path, 1);
}

static void not_initialised(void)
{
	const struct pmc_cpuinfo *ci;
	struct pmc_pmcinfo *pi;
	struct pmc_driverstats ds;
	const char **names;
	uint32_t caps;
	int n;

#define ENXIO_(expr) do { errno = 0;					\
		ok((expr) == -1 && errno == ENXIO, #expr " before pmc_init: ENXIO"); \
	} while (0)
	ENXIO_(pmc_cpuinfo(&ci));
	ENXIO_(pmc_ncpu());
	ENXIO_(pmc_npmc(0));
	ENXIO_(pmc_pmcinfo(0, &pi));
	ENXIO_(pmc_get_driver_stats(&ds));
	ENXIO_(pmc_enable(0, 0));
	ENXIO_(pmc_disable(0, 0));
	ENXIO_(pmc_event_caps(PMC_CLASS_SOFT, EV_CPU_CLOCK, &caps));
	ENXIO_(pmc_event_names_of_class(PMC_CLASS_SOFT, &names, &n));
	ENXIO_(pmc_configure_logfile(1));
	ENXIO_(pmc_flush_logfile());
	ENXIO_(pmc_close_logfile());
	ENXIO_(pmc_writelog(1));
#undef ENXIO_
}

static void init_failures(const char *tmpdir)
{
	char path[512];
	int fd;

	use_device("/nonexistent/hwpmc");
	errno = 0;
	ok(pmc_init() == -1 && errno == ENOENT, "missing device: ENOENT");
	ok(msg_has("modprobe hwpmc"), "... message says modprobe: %s",
	   pmc_init_message());
	ok(msg_has("/nonexistent/hwpmc"), "... and names the path");
	not_initialised();

	use_device(tmpdir);
	errno = 0;
	ok(pmc_init() == -1 && errno == ENODEV, "directory: ENODEV");
	ok(msg_has("not a hwpmc device"), "... message: %s",
	   pmc_init_message());

	snprintf(path, sizeof(path), "%s/regular", tmpdir);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	ok(fd >= 0, "create %s", path);
	if (fd >= 0)
		close(fd);
	use_device(path);
	errno = 0;
	ok(pmc_init() == -1 && errno == ENOTTY, "regular file: ENOTTY");
	ok(msg_has("not a hwpmc device"), "... message: %s",
	   pmc_init_message());
	not_initialised();

	if (geteuid() != 0) {
		chmod(path, 0);
		errno = 0;
		ok(pmc_init() == -1 && errno == EACCES, "no permission: EACCES");
		ok(msg_has("usermod -aG"), "... message: %s",
		   pmc_init_message());
	} else {
		skip("EACCES cannot be provoked as root");
		skip("EACCES message");
	}
	unlink(path);

	use_device("/dev/null");
	setenv("FAKE_HWPMC_VERSION", "0x02000000", 1);
	errno = 0;
	ok(pmc_init() == -1 && errno == EPROGMISMATCH,
	   "module of another major: EPROGMISMATCH");
	ok(msg_has("ABI mismatch: library 0x01040000 module 0x02000000"),
	   "... message: %s", pmc_init_message());

	setenv("FAKE_HWPMC_VERSION", "0x00090000", 1);
	errno = 0;
	ok(pmc_init() == -1 && errno == EPROGMISMATCH,
	   "older module (EPROTO from the module): EPROGMISMATCH");
	ok(msg_has("ABI mismatch: library 0x01040000 is newer than the hwpmc module 0x00090000"),
	   "... message: %s", pmc_init_message());
	not_initialised();

	setenv("FAKE_HWPMC_VERSION", "0x01050003", 1);
	ok(pmc_init() == 0, "module of a newer minor: accepted");
	pmc_fini();
	unsetenv("FAKE_HWPMC_VERSION");
}

/* The log functions pass their arguments and errors through. */
static void the_log(void)
{
	struct pmclog_ev ev;
	uint32_t next = 1;
	int p[2], nuser = 0, bad = 0, first = -1, last = -1, r;
	void *lp;

	errno = 0;
	ok(pmc_flush_logfile() == -1 && errno == EINVAL, "flush, no log: EINVAL");
	errno = 0;
	ok(pmc_close_logfile() == -1 && errno == EINVAL, "close, no log: EINVAL");
	errno = 0;
	ok(pmc_writelog(1) == -1 && errno == EINVAL, "writelog, no log: EINVAL");
	errno = 0;
	ok(pmc_configure_logfile(-1) == -1 && errno == EINVAL,
	   "configure -1, no log: EINVAL");
	if (pipe(p))
		abort();
	errno = 0;
	ok(pmc_configure_logfile(p[0]) == -1 && errno == EBADF,
	   "configure a read-only fd: EBADF");
	ok(pmc_configure_logfile(p[1]) == 0, "pmc_configure_logfile(pipe)");
	errno = 0;
	ok(pmc_configure_logfile(p[1]) == -1 && errno == EBUSY,
	   "configure again: EBUSY");
	close(p[1]);
	ok(pmc_writelog(1) == 0 && pmc_writelog(2) == 0 &&
	   pmc_writelog(0xfffffffe) == 0, "pmc_writelog 1, 2, 0xfffffffe");
	ok(pmc_flush_logfile() == 0, "pmc_flush_logfile");
	ok(pmc_configure_logfile(-1) == 0, "pmc_configure_logfile(-1) closes");
	lp = pmclog_open(p[0]);
	while ((r = pmclog_read(lp, &ev)) == 0) {
		if (first < 0)
			first = (int)ev.pl_type;
		last = (int)ev.pl_type;
		if (ev.pl_type != PMCLOG_TYPE_USERDATA)
			continue;
		nuser++;
		bad += ev.pl_u.pl_u.pl_userdata != next ||
		       ev.pl_u.pl_u.pl_pid != getpid();
		next = next == 2 ? 0xfffffffe : next + 1;
	}
	ok(ev.pl_state == PMCLOG_EOF && first == PMCLOG_TYPE_INITIALIZE &&
	   last == PMCLOG_TYPE_CLOSELOG && nuser == 3 && !bad,
	   "pmclog reads INITIALIZE, USERDATA 1, 2, 0xfffffffe with our pid, CLOSELOG, EOF");
	pmclog_close(lp);
	close(p[0]);

	/* a write error stays */
	if (pipe(p))
		abort();
	ok(pmc_configure_logfile(p[1]) == 0, "a log to a pipe");
	close(p[0]);
	close(p[1]);
	signal(SIGPIPE, SIG_IGN);
	ok(pmc_writelog(1) == 0, "pmc_writelog: the write fails (no reader)");
	errno = 0;
	ok(pmc_flush_logfile() == -1 && errno == EPIPE, "pmc_flush_logfile: EPIPE");
	errno = 0;
	ok(pmc_writelog(2) == -1 && errno == EPIPE, "pmc_writelog: EPIPE");
	errno = 0;
	ok(pmc_close_logfile() == -1 && errno == EPIPE, "pmc_close_logfile: EPIPE");
	signal(SIGPIPE, SIG_DFL);
}

static void with_fake(void)
{
	const struct pmc_cpuinfo *ci = NULL;
	struct pmc_pmcinfo *pi = NULL;
	struct pmc_driverstats ds;
	const char **names = NULL;
	uint32_t caps = 0;
	const char *s;
	int n = 0, r;

	use_device("/dev/null");
	setenv("FAKE_HWPMC_PMU", "1", 1);
	setenv("FAKE_HWPMC_GROW", "1", 1);
	ok(pmc_init() == 0, "pmc_init with the fake module (%s)",
	   pmc_init_message());
	ok(pmc_init() == 0, "pmc_init again: 0");
	unsetenv("FAKE_HWPMC_GROW");

	ok(pmc_cpuinfo(&ci) == 0 && ci, "pmc_cpuinfo");
	if (!ci)
		return;
	ok(ci->pm_cputype == PMC_CPU_LINUX_X86 && ci->pm_ncpu == FAKE_NCPU &&
	   ci->pm_npmc == FAKE_NSOFT + FAKE_NPMU && ci->pm_nclass == 2 &&
	   ci->pm_classes[1].pm_class == PMC_CLASS_PMU,
	   "cpuinfo contents");
	errno = 0;
	ok(pmc_cpuinfo(NULL) == -1 && errno == EINVAL, "pmc_cpuinfo(NULL): EINVAL");
	ok(pmc_ncpu() == FAKE_NCPU, "pmc_ncpu");
	ok(pmc_npmc(0) == FAKE_NSOFT + FAKE_NPMU, "pmc_npmc(0)");
	errno = 0;
	ok(pmc_npmc(-1) == -1 && errno == EINVAL, "pmc_npmc(-1): EINVAL");
	errno = 0;
	ok(pmc_npmc(FAKE_NCPU) == -1 && errno == EINVAL, "pmc_npmc(ncpu): EINVAL");

	ok(pmc_pmcinfo(0, &pi) == 0 && pi, "pmc_pmcinfo(0)");
	if (pi) {
		ok(pi->pm_cpu == 0 && pi->pm_npmc == FAKE_NSOFT + FAKE_NPMU &&
		   !strcmp(pi->pm_pmcs[0].pm_name, "SOFT0") &&
		   !strcmp(pi->pm_pmcs[FAKE_NSOFT].pm_name, "PMU0") &&
		   pi->pm_pmcs[FAKE_NSOFT].pm_class == PMC_CLASS_PMU,
		   "pmcinfo rows");
		ok(pi->pm_pmcs[1].pm_ownerpid == FAKE_OWNER_PID &&
		   pi->pm_pmcs[1].pm_event == EV_CPU_CLOCK &&
		   pi->pm_pmcs[1].pm_reloadcount == 10000 &&
		   pi->pm_pmcs[0].pm_ownerpid == -1, "pmcinfo owner fields");
		free(pi);
	}
	errno = 0;
	ok(pmc_pmcinfo(FAKE_OFFLINE_CPU, &pi) == -1 && errno == ENXIO,
	   "pmc_pmcinfo(offline CPU): ENXIO");
	errno = 0;
	ok(pmc_pmcinfo(FAKE_NCPU, &pi) == -1 && errno == EINVAL,
	   "pmc_pmcinfo(ncpu): EINVAL");
	errno = 0;
	ok(pmc_pmcinfo(-1, &pi) == -1 && errno == EINVAL,
	   "pmc_pmcinfo(-1): EINVAL");

	memset(&ds, 0xff, sizeof(ds));
	ok(pmc_get_driver_stats(&ds) == 0 && ds.pm_intr_ignored == 5 &&
	   ds.pm_intr_processed == 2 && ds.pm_log_sweeps == 8 &&
	   ds.pm_merges == 9 && ds.pm_log_write_errors == 12 &&
	   ds.pm_lifecycle_events == 13 && ds.pm_stacks_dropped == 14,
	   "driver stats copied, low 32 bits");

	ok(pmc_disable(3, 0) == 0, "pmc_disable(3, 0)");
	ok(pmc_pmcinfo(3, &pi) == 0 && !pi->pm_pmcs[0].pm_enabled &&
	   pi->pm_pmcs[1].pm_enabled, "... row 0 of CPU 3 disabled");
	free(pi);
	ok(pmc_enable(3, 0) == 0, "pmc_enable(3, 0)");
	ok(pmc_pmcinfo(3, &pi) == 0 && pi->pm_pmcs[0].pm_enabled,
	   "... enabled again");
	free(pi);
	errno = 0;
	ok(pmc_disable(0, 1) == -1 && errno == EBUSY, "busy row: EBUSY");
	ok(pmc_enable(0, 1) == 0, "enabling a busy (enabled) row: 0");
	errno = 0;
	ok(pmc_enable(FAKE_OFFLINE_CPU, 0) == -1 && errno == ENXIO,
	   "offline CPU: ENXIO");
	setenv("FAKE_HWPMC_EPERM", "1", 1);
	errno = 0;
	ok(pmc_enable(0, 0) == -1 && errno == EPERM, "no CAP_SYS_ADMIN: EPERM");
	unsetenv("FAKE_HWPMC_EPERM");

	ok(pmc_event_caps(PMC_CLASS_SOFT, EV_CPU_CLOCK, &caps) == 0 &&
	   (caps & PMC_CAP_INTERRUPT), "pmc_event_caps(SOFT, cpu-clock)");
	errno = 0;
	ok(pmc_event_caps(PMC_CLASS_SOFT, 0x12345, &caps) == -1 &&
	   errno == EINVAL, "pmc_event_caps(unknown event): EINVAL");

	r = pmc_event_names_of_class(PMC_CLASS_SOFT, &names, &n);
	ok(r == 0 && n == 4 && !strcmp(names[0], "cpu-clock") &&
	   !strcmp(names[3], "fake-event"),
	   "SOFT events, after the list grew during pmc_init (n=%d)", n);
	free(names);
	setenv("HWPMC_CPUID", "NoSuchVendor-0-0-0", 1);
	ok(pmc_event_names_of_class(PMC_CLASS_PMU, &names, &n) == 0 &&
	   n == 3 && !strcmp(names[2], "raw"), "PMU events");
	free(names);
	/* the vendor events of the CPU's pmu-events table follow */
	setenv("HWPMC_CPUID", "AuthenticAMD-25-1-1", 1);
	r = pmc_event_names_of_class(PMC_CLASS_PMU, &names, &n);
	{
		int i, found = 0;

		for (i = 3; r == 0 && i < n; i++)
			found += !strcmp(names[i], "ex_ret_instr");
		ok(r == 0 && n > 100 && !strcmp(names[2], "raw") && found == 1,
		   "PMU events with Zen 3's vendor events (n=%d)", n);
	}
	free(names);
	unsetenv("HWPMC_CPUID");
	errno = 0;
	ok(pmc_event_names_of_class(PMC_CLASS_K8, &names, &n) == -1 &&
	   errno == EINVAL, "class not on this machine: EINVAL");

	s = pmc_name_of_event((enum pmc_event)FAKE_EV_CODE);
	ok(s && !strcmp(s, "fake-event"), "event names come from the module");

	pmc_fini();
	errno = 0;
	ok(pmc_ncpu() == -1 && errno == ENXIO, "after pmc_fini: ENXIO");
	errno = 0;
	ok(!pmc_name_of_event((enum pmc_event)FAKE_EV_CODE) && errno == EINVAL,
	   "after pmc_fini the module's names are gone");
	s = pmc_name_of_event((enum pmc_event)EV_CPU_CLOCK);
	ok(s && !strcmp(s, "cpu-clock"), "... the built-in ones remain");

	unsetenv("FAKE_HWPMC_PMU");
	ok(pmc_init() == 0 && pmc_npmc(0) == FAKE_NSOFT,
	   "pmc_init after pmc_fini, SOFT only");
	ok(pmc_cpuinfo(&ci) == 0 && ci->pm_cputype == PMC_CPU_GENERIC &&
	   ci->pm_nclass == 1, "... GENERIC CPU, one class");
	the_log();
	pmc_fini();
}

/* pmc_cpuinfo()'s type: FreeBSD's of the CPU's model, on the module's arch */
static void cputype_is(const char *cpuid, const char *pmu, uint32_t want)
{
	const struct pmc_cpuinfo *ci = NULL;
	const char *n = NULL;
	int r;

	setenv("HWPMC_CPUID", cpuid, 1);
	setenv("HWPMC_DEVICE", "/dev/null", 1);
	if (pmu)
		setenv("FAKE_HWPMC_PMU", pmu, 1);
	else
		unsetenv("FAKE_HWPMC_PMU");
	pmc_fini();
	r = pmc_init() == 0 && pmc_cpuinfo(&ci) == 0;
	if (r)
		n = pmc_name_of_cputype(ci->pm_cputype);
	ok(r && (uint32_t)ci->pm_cputype == want, "CPU %s: type %s (got %s)",
	   cpuid, pmc_name_of_cputype((enum pmc_cputype)want), n ? n : "?");
	pmc_fini();
}

static void cputypes(void)
{
	cputype_is("GenuineIntel-6-55-4", "1", PMC_CPU_INTEL_SKYLAKE_XEON);
	cputype_is("GenuineIntel-6-55-7", "1", PMC_CPU_INTEL_SKYLAKE_XEON);
	cputype_is("GenuineIntel-6-7E-5", "1", PMC_CPU_INTEL_ICELAKE);
	cputype_is("GenuineIntel-6-9E-A", "1", PMC_CPU_INTEL_SKYLAKE);
	cputype_is("GenuineIntel-6-8F-8", "1", PMC_CPU_LINUX_X86);
	cputype_is("AuthenticAMD-25-1-1", "1", PMC_CPU_AMD_K8);
	cputype_is("AuthenticAMD-99-1-1", "1", PMC_CPU_AMD_K8);
	/* the fake module is an x86 one: an arm64 id does not change it */
	cputype_is("0x00000000410fd070", "1", PMC_CPU_LINUX_X86);
	cputype_is("GenuineIntel-6-55-4", NULL, PMC_CPU_GENERIC);
	unsetenv("FAKE_HWPMC_PMU");
	unsetenv("HWPMC_CPUID");
}

int main(void)
{
	char tmpdir[] = "/tmp/hwpmc-unit.XXXXXX";

	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	/* the CPU type is FreeBSD's where the CPU's model has one: none here */
	setenv("HWPMC_CPUID", "NoSuchVendor-0-0-0", 1);
	ok(strcmp(pmc_init_message(), "") != 0, "pmc_init_message before pmc_init");
	not_initialised();
	init_failures(tmpdir);
	with_fake();
	cputypes();
	rmdir(tmpdir);
	return tap_done();
}
