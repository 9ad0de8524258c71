// SPDX-License-Identifier: GPL-2.0
/*
 * pmc(3)'s PMC operations against the fake module (fake_hwpmc.c): what
 * each call sends, what it returns, FreeBSD's errno on every path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pmc.h>
#include "fake_hwpmc.h"
#include "tap.h"

#define ERR(expr, e) do { errno = 0;					\
		ok((expr) == -1 && errno == (e), #expr ": " #e " (%s)",	\
		   strerror(errno));					\
	} while (0)

static void before_init(void)
{
	pmc_value_t v;
	uint32_t u;
	pmc_id_t id = 0;

	ERR(pmc_allocate("cpu-clock", PMC_MODE_TC, 0, (int)PMC_CPU_ANY, &id, 0), ENXIO);
	ok(strstr(pmc_allocate_message(), "pmc_init") != NULL,
	   "pmc_allocate_message: %s", pmc_allocate_message());
	ERR(pmc_attach(0, 0), ENXIO);
	ERR(pmc_detach(0, 0), ENXIO);
	ERR(pmc_start(0), ENXIO);
	ERR(pmc_stop(0), ENXIO);
	ERR(pmc_release(0), ENXIO);
	ERR(pmc_read(0, &v), ENXIO);
	ERR(pmc_write(0, 1), ENXIO);
	ERR(pmc_rw(0, 1, &v), ENXIO);
	ERR(pmc_set(0, 1), ENXIO);
	ERR(pmc_capabilities(0, &u), ENXIO);
	ERR(pmc_width(0, &u), ENXIO);
	ERR(pmc_get_msr(0, &u), ENXIO);
	{
		uint64_t e, r;

		ERR(pmc_read_times(0, &v, &e, &r), ENXIO);
	}
}

static void process_pmc(void)
{
	pmc_id_t id, id2;
	pmc_value_t v = 0, v2 = 0;
	uint32_t caps = 0, w = 0;

	/* owns nothing yet: ESRCH */
	ERR(pmc_start(0x12345), ESRCH);
	ok(pmc_allocate("page-faults", PMC_MODE_TC, 0, (int)PMC_CPU_ANY, &id, 5) == 0,
	   "allocate page-faults (TC, count 5)");
	ok(PMC_ID_TO_MODE(id) == PMC_MODE_TC && PMC_ID_TO_CLASS(id) == PMC_CLASS_SOFT &&
	   PMC_ID_TO_CPU(id) == (PMC_CPU_ANY & 0xFFF), "id %#x: TC, SOFT, any CPU", id);
	/* owns one: other ids are EINVAL */
	ERR(pmc_start(id + 1), EINVAL);
	ok(pmc_read(id, &v) == 0 && v == 5, "read before start: the initial count (%ju)",
	   (uintmax_t)v);
	ok(pmc_width(id, &w) == 0 && w == 64, "pmc_width: SOFT is 64 bits (%u)", w);
	ok(pmc_capabilities(id, &caps) == 0 && (caps & PMC_CAP_READ) &&
	   (caps & PMC_CAP_WRITE), "pmc_capabilities: %#x", caps);
	ok(pmc_attach(id, 0) == 0, "attach to self (pid 0)");
	ERR(pmc_attach(id, getpid()), EEXIST);
	ERR(pmc_attach(id, -1), EINVAL);
	ERR(pmc_attach(id, FAKE_PID_EPERM), EPERM);
	ok(pmc_set(id, 100) == 0, "pmc_set while stopped");
	ok(pmc_start(id) == 0, "start");
	ERR(pmc_attach(id, 0), EBUSY);
	ok(pmc_read(id, &v) == 0 && pmc_read(id, &v2) == 0 && v > 100 && v2 > v,
	   "running: values grow (%ju, %ju)", (uintmax_t)v, (uintmax_t)v2);
	ERR(pmc_write(id, 7), EBUSY);
	ERR(pmc_rw(id, 7, &v), EBUSY);
	ERR(pmc_set(id, 7), EBUSY);
	ok(pmc_stop(id) == 0, "stop");
	ok(pmc_read(id, &v) == 0 && pmc_read(id, &v2) == 0 && v == v2,
	   "stopped: the value stands (%ju)", (uintmax_t)v);
	ok(pmc_rw(id, 7, &v2) == 0 && v2 == v, "pmc_rw: old value back");
	ok(pmc_read(id, &v) == 0 && v == 7, "... new value set");
	ok(pmc_write(id, 9) == 0 && pmc_read(id, &v) == 0 && v == 9, "pmc_write");
	ok(pmc_detach(id, 0) == 0, "detach self");
	ERR(pmc_detach(id, 0), EINVAL);
	ok(pmc_release(id) == 0, "release");
	ERR(pmc_release(id), ESRCH);

	/* start of an unattached process PMC attaches the caller */
	ok(pmc_allocate("task-clock", PMC_MODE_TC, PMC_F_DESCENDANTS,
			(int)PMC_CPU_ANY, &id, 0) == 0, "allocate task-clock DESCENDANTS");
	ok(pmc_start(id) == 0 && pmc_read(id, &v) == 0 && v > 0,
	   "start unattached: attached to the caller, counting");
	ok(pmc_allocate("cpu-clock", PMC_MODE_TC, 0, (int)PMC_CPU_ANY, &id2, 0) == 0,
	   "a second PMC");
	ERR(pmc_capabilities(id2 ^ 0xF0, &caps), EINVAL);
	ok(pmc_release(id) == 0 && pmc_release(id2) == 0, "release both");
}

static void allocate_errors(void)
{
	pmc_id_t id = 0;

	ERR(pmc_allocate("cpu-clock", PMC_MODE_TC, 0, (int)PMC_CPU_ANY, NULL, 0), EINVAL);
	/* sampling: an event that can (PMC_CAP_INTERRUPT), and a log to start */
	ERR(pmc_allocate("page-faults", PMC_MODE_TS, 0, (int)PMC_CPU_ANY, &id, 0), EOPNOTSUPP);
	ok(strstr(pmc_allocate_message(), "cannot sample") != NULL, "... %s",
	   pmc_allocate_message());
	ok(pmc_allocate("cpu-clock", PMC_MODE_TS, PMC_F_CALLCHAIN, (int)PMC_CPU_ANY, &id,
			1000) == 0, "allocate cpu-clock TS with call chains");
	ERR(pmc_start(id), EDESTADDRREQ);
	ok(pmc_release(id) == 0, "release it");
	ERR(pmc_allocate("cpu-clock", PMC_MODE_TC, PMC_F_USERCALLCHAIN, (int)PMC_CPU_ANY,
			 &id, 0), EINVAL);
	ok(strstr(pmc_allocate_message(), "needs a sampling mode") != NULL, "... %s",
	   pmc_allocate_message());
	/* as FreeBSD's pmcstat -p asks: PMC_F_CALLCHAIN ignored when counting */
	ok(pmc_allocate("cpu-clock", PMC_MODE_TC, PMC_F_CALLCHAIN, (int)PMC_CPU_ANY, &id,
			0) == 0 && pmc_release(id) == 0,
	   "allocate cpu-clock TC with PMC_F_CALLCHAIN (ignored)");
	ERR(pmc_allocate("cpu-clock", (enum pmc_mode)9, 0, (int)PMC_CPU_ANY, &id, 0), EINVAL);
	ok(strstr(pmc_allocate_message(), "bad mode 9") != NULL, "... %s",
	   pmc_allocate_message());
	ERR(pmc_allocate("cpu-clock", PMC_MODE_TC, 0, 0, &id, 0), EINVAL);
	ok(strstr(pmc_allocate_message(), "PMC_CPU_ANY") != NULL, "... %s",
	   pmc_allocate_message());
	ERR(pmc_allocate("cpu-clock", PMC_MODE_SC, 0, (int)PMC_CPU_ANY, &id, 0), EINVAL);
	ok(strstr(pmc_allocate_message(), "need a CPU number") != NULL, "... %s",
	   pmc_allocate_message());
	ERR(pmc_allocate("cpu-clock", PMC_MODE_SC, 0, FAKE_NCPU, &id, 0), EINVAL);
	ok(strstr(pmc_allocate_message(), "no CPU 4") != NULL, "... %s",
	   pmc_allocate_message());
	ERR(pmc_allocate("cpu-clock", PMC_MODE_SC, 0, FAKE_OFFLINE_CPU, &id, 0), ENXIO);
	ok(strstr(pmc_allocate_message(), "CPU 2 is offline") != NULL, "... %s",
	   pmc_allocate_message());
	ERR(pmc_allocate("cpu-clock", PMC_MODE_SC, PMC_F_DESCENDANTS, 0, &id, 0), EINVAL);
	ERR(pmc_allocate("cpu-clock", PMC_MODE_TC, 0x40000, (int)PMC_CPU_ANY, &id, 0), EINVAL);
	/* the fake's task-clock cannot count one mode alone */
	ERR(pmc_allocate("task-clock,usr", PMC_MODE_TC, 0, (int)PMC_CPU_ANY, &id, 0), EOPNOTSUPP);
	ok(strstr(pmc_allocate_message(), "cannot count user mode alone") != NULL,
	   "... %s", pmc_allocate_message());
	ERR(pmc_allocate("bogus", PMC_MODE_TC, 0, (int)PMC_CPU_ANY, &id, 0), EINVAL);
}

static void system_pmc(void)
{
	pmc_id_t id = 0;
	pmc_value_t v;

	ok(pmc_allocate("cpu-clock", PMC_MODE_SC, 0, 3, &id, 0) == 0 &&
	   PMC_ID_TO_CPU(id) == 3 && PMC_ID_TO_MODE(id) == PMC_MODE_SC,
	   "allocate SC on CPU 3: id %#x", id);
	ERR(pmc_attach(id, 0), EINVAL);
	ok(pmc_start(id) == 0 && pmc_read(id, &v) == 0 && v > 0, "start, read");
	ok(pmc_stop(id) == 0 && pmc_release(id) == 0, "stop, release");
}

/* pmc_read_times(): whole, partial, not counted, unknown, older module */
static void read_times(void)
{
	pmc_id_t id = 0, id2 = 0;
	pmc_value_t v = 0;
	uint64_t e = 0, r = 0;

	ok(pmc_allocate("cpu-clock", PMC_MODE_SC, 0, 3, &id, 0) == 0 &&
	   pmc_allocate("page-faults", PMC_MODE_TC, 0, (int)PMC_CPU_ANY, &id2,
			4) == 0, "allocate SC and TC PMCs");
	ERR(pmc_read_times(id, NULL, &e, &r), EINVAL);
	ERR(pmc_read_times(id, &v, NULL, &r), EINVAL);
	ERR(pmc_read_times(id, &v, &e, NULL), EINVAL);
	ERR(pmc_read_times(id ^ 0xF0, &v, &e, &r), EINVAL);
	ERR(pmc_read_times(0x12345, &v, &e, &r), EINVAL);
	setenv("FAKE_HWPMC_TIMES", "0,2000,2000", 1);
	ok(pmc_read_times(id2, &v, &e, &r) == 0 && v == 4 && e == 2000 &&
	   r == 2000, "whole: value %ju, enabled %ju, running %ju",
	   (uintmax_t)v, (uintmax_t)e, (uintmax_t)r);
	setenv("FAKE_HWPMC_TIMES", "0,2000,500", 1);
	ok(pmc_read_times(id2, &v, &e, &r) == 0 && v == 4 && e == 2000 &&
	   r == 500, "partial: the value unscaled, running < enabled");
	setenv("FAKE_HWPMC_TIMES", "0,2000,0", 1);
	ok(pmc_read_times(id2, &v, &e, &r) == 0 && e == 2000 && r == 0,
	   "not counted: running 0");
	/* only the first PMC has times: the second's are unknown */
	setenv("FAKE_HWPMC_TIMES", "1,2000,0", 1);
	ok(pmc_read_times(id2, &v, &e, &r) == 0 && v == 4 &&
	   e == PMC_TIME_UNKNOWN && r == PMC_TIME_UNKNOWN,
	   "times unknown: PMC_TIME_UNKNOWN, the value read");
	setenv("FAKE_HWPMC_NODATA", "2", 1);
	ERR(pmc_read_times(id2, &v, &e, &r), ENODATA);
	unsetenv("FAKE_HWPMC_NODATA");
	setenv("FAKE_HWPMC_NOTIMES", "1", 1);
	v = 0;
	ok(pmc_read_times(id2, &v, &e, &r) == 0 && v == 4 &&
	   e == PMC_TIME_UNKNOWN && r == PMC_TIME_UNKNOWN,
	   "module without PMCRW_TIMES: the value, times unknown");
	ERR(pmc_read_times(0x12345, &v, &e, &r), EINVAL);
	unsetenv("FAKE_HWPMC_NOTIMES");
	unsetenv("FAKE_HWPMC_TIMES");
	ok(pmc_release(id) == 0 && pmc_release(id2) == 0, "release both");
}

static void pmu(void)
{
	pmc_id_t id = 0;
	uint32_t w = 0;

	setenv("FAKE_HWPMC_PMU", "2", 1);
	ok(pmc_init() == 0, "pmc_init with a PMU");
	ok(pmc_allocate("instructions", PMC_MODE_TC, 0, (int)PMC_CPU_ANY, &id, 0) == 0 &&
	   PMC_ID_TO_CLASS(id) == PMC_CLASS_PMU, "allocate instructions: PMU class");
	ok(pmc_width(id, &w) == 0 && w == 48, "pmc_width: the PMU's 48 bits (%u)", w);
	ok(pmc_release(id) == 0, "release");
	setenv("FAKE_HWPMC_UNPRIV", "1", 1);
	ERR(pmc_allocate("instructions", PMC_MODE_TC, 0, (int)PMC_CPU_ANY, &id, 0), EPERM);
	ok(strstr(pmc_allocate_message(), "add ',usr'") != NULL, "... %s",
	   pmc_allocate_message());
	ERR(pmc_allocate("instructions,os", PMC_MODE_TC, 0, (int)PMC_CPU_ANY, &id, 0), EPERM);
	ok(pmc_allocate("instructions,usr", PMC_MODE_TC, 0, (int)PMC_CPU_ANY, &id, 0) == 0,
	   "unprivileged: user mode only is allowed");
	ok(pmc_release(id) == 0, "release");
	ok(pmc_allocate("page-faults", PMC_MODE_TC, 0, (int)PMC_CPU_ANY, &id, 0) == 0 &&
	   pmc_release(id) == 0, "unprivileged: SOFT events count both modes");
	ERR(pmc_allocate("cpu-clock", PMC_MODE_SC, 0, 0, &id, 0), EPERM);
	ok(strstr(pmc_allocate_message(), "CAP_PERFMON") != NULL, "... %s",
	   pmc_allocate_message());
	unsetenv("FAKE_HWPMC_UNPRIV");
	ERR(pmc_width(PMC_ID_MAKE_ID(0, PMC_MODE_TC, PMC_CLASS_K8, 0), &w), EINVAL);
	pmc_fini();
	unsetenv("FAKE_HWPMC_PMU");
}

int main(void)
{
	unsetenv("FAKE_HWPMC_PMU");
	unsetenv("FAKE_HWPMC_UNPRIV");
	setenv("HWPMC_DEVICE", "/dev/null", 1);
	before_init();
	ok(pmc_init() == 0, "pmc_init (fake): %s", pmc_init_message());
	process_pmc();
	allocate_errors();
	system_pmc();
	read_times();
	pmc_fini();
	pmu();
	return tap_done();
}
