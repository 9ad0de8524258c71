// SPDX-License-Identifier: GPL-2.0
/*
 * libcpc(3) against the fake module of fake_hwpmc.c (linked in: it
 * interposes ioctl() and serves /dev/null): opening and the version
 * check, the processor's description, the walks, requests and their
 * errors as the error handler reports them (bad events, attributes and
 * flags, too many requests), binding (the caller, a process, a CPU; twice;
 * overflow notification), sampling, presets, enable/disable, buffers.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libcpc.h>
#include <pmc.h>
#include "fake_hwpmc.h"
#include "tap.h"

/* What the error handler last heard */
static char last_fn[64], last_msg[512];
static int last_sub, nerr;

static void handler(const char *fn, int subcode, const char *fmt, va_list ap)
{
	snprintf(last_fn, sizeof(last_fn), "%s", fn);
	vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
	if (last_msg[0] && last_msg[strlen(last_msg) - 1] == '\n')
		last_msg[strlen(last_msg) - 1] = '\0';	/* for the TAP line */
	last_sub = subcode;
	nerr++;
}

static void reset_err(void)
{
	last_fn[0] = last_msg[0] = '\0';
	last_sub = 0;
}

static cpc_t *open_fake(const char *pmu)
{
	cpc_t *cpc;

	if (pmu)
		setenv("FAKE_HWPMC_PMU", pmu, 1);
	else
		unsetenv("FAKE_HWPMC_PMU");
	setenv("HWPMC_DEVICE", "/dev/null", 1);
	cpc = cpc_open(CPC_VER_CURRENT);
	if (cpc)
		cpc_seterrhndlr(cpc, handler);
	return cpc;
}

struct names {
	int	n;
	int	has[8];
	const char *want[8];
	int	bad;		/* a name that must not be there was */
	const char *nowant;
};

static void saw(struct names *w, const char *event)
{
	int i;

	w->n++;
	for (i = 0; i < 8 && w->want[i]; i++)
		if (strcmp(event, w->want[i]) == 0)
			w->has[i] = 1;
	if (w->nowant && strcmp(event, w->nowant) == 0)
		w->bad = 1;
}

static void walk_all(void *arg, const char *event)
{
	saw(arg, event);
}

static void walk_pic(void *arg, uint_t picno, const char *event)
{
	(void)picno;
	saw(arg, event);
}

static void test_open(void)
{
	cpc_t *cpc;

	errno = 0;
	ok(cpc_open(1) == NULL && errno == EINVAL, "cpc_open(1): version mismatch, EINVAL");
	errno = 0;
	ok(cpc_open(CPC_VER_CURRENT + 1) == NULL && errno == EINVAL,
	   "cpc_open(CPC_VER_CURRENT + 1): EINVAL");
	setenv("HWPMC_DEVICE", "/nonexistent/hwpmc", 1);
	errno = 0;
	ok(cpc_open(CPC_VER_CURRENT) == NULL && errno == ENOENT,
	   "cpc_open without the module: NULL, ENOENT");

	cpc = open_fake(NULL);
	if (!ok(cpc != NULL, "cpc_open(CPC_VER_CURRENT) on the fake module"))
		return;
	ok(cpc_npic(cpc) == FAKE_NSOFT, "cpc_npic: the SOFT rows without a PMU (%u)", cpc_npic(cpc));
	ok(cpc_caps(cpc) == CPC_CAP_OVERFLOW_INTERRUPT, "cpc_caps: overflow interrupts");
	ok(strstr(cpc_cciname(cpc), "software") != NULL, "cpc_cciname: %s", cpc_cciname(cpc));
	ok(strlen(cpc_cpuref(cpc)) > 20 && strlen(cpc_cpuref(cpc)) < CPC_MAX_CPUREF,
	   "cpc_cpuref: %.60s...", cpc_cpuref(cpc));
	ok(cpc_close(cpc) == 0, "cpc_close: 0");
	errno = 0;
	ok(pmc_ncpu() == -1 && errno == ENXIO, "the last cpc_close finalises libhwpmc it initialised");

	/* a program that initialised pmc(3) itself keeps it */
	setenv("HWPMC_DEVICE", "/dev/null", 1);
	if (pmc_init() == 0) {
		cpc = cpc_open(CPC_VER_CURRENT);
		cpc_close(cpc);
		ok(pmc_ncpu() == FAKE_NCPU, "cpc_close leaves a pmc_init() of the program's alone");
		pmc_fini();
	}
}

static void test_walks(void)
{
	struct names w;
	cpc_t *cpc = open_fake(NULL);

	if (!cpc)
		return;
	memset(&w, 0, sizeof(w));
	w.want[0] = "cpu-clock";
	w.want[1] = "page-faults";
	w.nowant = "raw";
	cpc_walk_events_all(cpc, &w, walk_all);
	ok(w.has[0] && w.has[1] && !w.bad, "cpc_walk_events_all: cpu-clock, page-faults (%d events)", w.n);
	memset(w.has, 0, sizeof(w.has));
	w.n = 0;
	cpc_walk_events_pic(cpc, 0, &w, walk_pic);
	ok(w.has[0] && w.n > 1, "cpc_walk_events_pic(0): %d events", w.n);
	w.n = 0;
	errno = 0;
	cpc_walk_events_pic(cpc, cpc_npic(cpc), &w, walk_pic);
	ok(w.n == 0 && errno == EINVAL, "cpc_walk_events_pic(npic): none, EINVAL");

	memset(&w, 0, sizeof(w));
	cpc_walk_generic_events_all(cpc, &w, walk_all);
	ok(w.n == 0, "no PMU: no generic events (%d)", w.n);
	memset(&w, 0, sizeof(w));
	w.want[0] = "picnum";
	cpc_walk_attrs(cpc, &w, walk_all);
	ok(w.has[0], "cpc_walk_attrs: picnum (%d attributes)", w.n);
	cpc_close(cpc);

	cpc = open_fake("2");
	if (!cpc)
		return;
	ok(cpc_npic(cpc) == FAKE_NPMU, "PMU: cpc_npic is its rows (%u)", cpc_npic(cpc));
	ok(strstr(cpc_cciname(cpc), "PMU") != NULL, "PMU: cpc_cciname: %s", cpc_cciname(cpc));
	memset(&w, 0, sizeof(w));
	w.want[0] = "PAPI_tot_ins";
	w.want[1] = "PAPI_tot_cyc";
	w.want[2] = "PAPI_br_msp";
	w.nowant = "branches";		/* an alias, not a generic event */
	cpc_walk_generic_events_all(cpc, &w, walk_all);
	ok(w.has[0] && w.has[1] && w.has[2] && !w.bad,
	   "PMU: cpc_walk_generic_events_all: PAPI_tot_ins, _tot_cyc, _br_msp (%d)", w.n);
	memset(w.has, 0, sizeof(w.has));
	w.n = 0;
	cpc_walk_generic_events_pic(cpc, 1, &w, walk_pic);
	ok(w.has[0] && w.has[1], "PMU: cpc_walk_generic_events_pic(1): %d", w.n);
	cpc_close(cpc);
}

static void test_requests(void)
{
	cpc_t *cpc = open_fake(NULL), *other;
	cpc_set_t *set, *set2;
	cpc_attr_t a[2];
	int i, ix;

	if (!cpc)
		return;
	set = cpc_set_create(cpc);
	ok(set != NULL, "cpc_set_create");

	reset_err();
	errno = 0;
	ix = cpc_set_add_request(cpc, set, "no-such-event", 0, CPC_COUNT_USER, 0, NULL);
	ok(ix == -1 && errno == EINVAL && last_sub == CPC_INVALID_EVENT &&
	   strcmp(last_fn, "cpc_set_add_request") == 0,
	   "bad event name: EINVAL, CPC_INVALID_EVENT from %s: %s", last_fn, last_msg);
	reset_err();
	ix = cpc_set_add_request(cpc, set, "instructions", 0, CPC_COUNT_USER, 0, NULL);
	ok(ix == -1 && errno == EINVAL && last_sub == CPC_INVALID_EVENT,
	   "an event this machine lacks: CPC_INVALID_EVENT: %s", last_msg);
	reset_err();
	ix = cpc_set_add_request(cpc, set, "", 0, CPC_COUNT_USER, 0, NULL);
	ok(ix == -1 && errno == EINVAL && last_sub == CPC_INVALID_EVENT, "empty event name");

	reset_err();
	ix = cpc_set_add_request(cpc, set, "cpu-clock", 0, 0x100, 0, NULL);
	ok(ix == -1 && errno == EINVAL && last_sub == CPC_REQ_INVALID_FLAGS,
	   "unknown flag: CPC_REQ_INVALID_FLAGS: %s", last_msg);
	reset_err();
	ix = cpc_set_add_request(cpc, set, "cpu-clock", 0, CPC_COUNT_USER | CPC_COUNT_HV, 0, NULL);
	ok(ix == -1 && errno == EINVAL && last_sub == CPC_REQ_INVALID_FLAGS,
	   "CPC_COUNT_HV: CPC_REQ_INVALID_FLAGS");

	reset_err();
	ix = cpc_set_add_request(cpc, set, "task-clock", 0, CPC_COUNT_USER, 0, NULL);
	ok(ix == -1 && errno == EINVAL && last_sub == CPC_REQ_INVALID_FLAGS,
	   "user mode alone for an event that cannot: CPC_REQ_INVALID_FLAGS: %s", last_msg);

	a[0].ca_name = "bogus";
	a[0].ca_val = 1;
	reset_err();
	ix = cpc_set_add_request(cpc, set, "cpu-clock", 0, CPC_COUNT_USER, 1, a);
	ok(ix == -1 && errno == EINVAL && last_sub == CPC_INVALID_ATTRIBUTE,
	   "unknown attribute: CPC_INVALID_ATTRIBUTE: %s", last_msg);
	a[0].ca_name = "picnum";
	a[0].ca_val = FAKE_NSOFT;
	reset_err();
	ix = cpc_set_add_request(cpc, set, "cpu-clock", 0, CPC_COUNT_USER, 1, a);
	ok(ix == -1 && errno == EINVAL && last_sub == CPC_INVALID_PICNUM,
	   "picnum = npic: CPC_INVALID_PICNUM: %s", last_msg);
	reset_err();
	ok(cpc_set_add_request(cpc, set, "cpu-clock", 0, CPC_COUNT_USER, 1, NULL) == -1 &&
	   errno == EINVAL, "nattrs without attrs: EINVAL");
#if defined(__x86_64__) || defined(__i386__)
	a[0].ca_name = "umask";
	a[0].ca_val = 0x100;
	reset_err();
	ix = cpc_set_add_request(cpc, set, "cpu-clock", 0, CPC_COUNT_USER, 1, a);
	ok(ix == -1 && errno == EINVAL && last_sub == CPC_ATTRIBUTE_OUT_OF_RANGE,
	   "umask 0x100: CPC_ATTRIBUTE_OUT_OF_RANGE: %s", last_msg);
	a[0].ca_val = 0x1;
	reset_err();
	ix = cpc_set_add_request(cpc, set, "cpu-clock", 0, CPC_COUNT_USER, 1, a);
	ok(ix == -1 && errno == EINVAL && last_sub == CPC_INVALID_ATTRIBUTE,
	   "umask on a software event: CPC_INVALID_ATTRIBUTE: %s", last_msg);
#else
	skip("x86 attributes");
	skip("x86 attributes");
#endif
	ok(set != NULL && cpc_set_add_request(cpc, set, "cpu-clock", 0, 0, 0, NULL) == 0,
	   "nothing added by the failures: the first request is index 0");

	/* too many requests for the counters: FAKE_NSOFT SOFT rows */
	a[0].ca_name = "picnum";
	a[0].ca_val = 1;
	for (i = 0; i < FAKE_NSOFT; i++)
		ix = cpc_set_add_request(cpc, set, i % 2 ? "task-clock" : "page-faults",
					 100, CPC_COUNT_USER | CPC_COUNT_SYSTEM,
					 i == 0, a);
	ok(ix == FAKE_NSOFT, "%d counting requests (and one that counts nothing)", FAKE_NSOFT);
	reset_err();
	errno = 0;
	ix = cpc_set_add_request(cpc, set, "cpu-clock", 0, CPC_COUNT_USER, 0, NULL);
	ok(ix == -1 && errno == EINVAL && last_sub == CPC_RESOURCE_UNAVAIL,
	   "one request more than the counters: EINVAL, CPC_RESOURCE_UNAVAIL: %s", last_msg);

	/* handles of another cpc_t */
	other = cpc_open(CPC_VER_CURRENT);
	set2 = other ? cpc_set_create(other) : NULL;
	errno = 0;
	ok(set2 && cpc_set_add_request(cpc, set2, "cpu-clock", 0, CPC_COUNT_USER, 0, NULL) == -1 &&
	   errno == EINVAL, "a set of another cpc_t: EINVAL");
	ok(cpc_bind_curlwp(cpc, set2, 0) == -1 && errno == EINVAL,
	   "binding a set of another cpc_t: EINVAL");
	ok(cpc_buf_create(cpc, set2) == NULL && errno == EINVAL,
	   "a buffer for a set of another cpc_t: EINVAL");
	ok(cpc_set_destroy(other, set) == -1 && errno == EINVAL,
	   "destroying a set with another cpc_t: EINVAL");
	cpc_close(other);
	ok(cpc_set_destroy(cpc, set) == 0, "cpc_set_destroy");
	cpc_close(cpc);
}

struct req_seen {
	int	n;
	int	ok;
};

static void walk_req(void *arg, int index, const char *event, uint64_t preset,
		     uint_t flags, int nattrs, const cpc_attr_t *attrs)
{
	struct req_seen *r = arg;

	if (index == 1 && strcmp(event, "task-clock") == 0 && preset == 7 &&
	    flags == (CPC_COUNT_USER | CPC_COUNT_SYSTEM) && nattrs == 1 &&
	    strcmp(attrs[0].ca_name, "picnum") == 0 && attrs[0].ca_val == 0)
		r->ok = 1;
	r->n++;
}

static void test_bind(void)
{
	cpc_t *cpc = open_fake(NULL);
	cpc_set_t *set, *set2, *empty;
	cpc_buf_t *b1, *b2, *d;
	cpc_attr_t a = { "picnum", 0 };
	struct req_seen rs = { 0, 0 };
	uint64_t v0, v1, v2;
	hrtime_t t1, t2;
	int i0, i1, i2;

	if (!cpc)
		return;
	set = cpc_set_create(cpc);
	i0 = cpc_set_add_request(cpc, set, "cpu-clock", 0, CPC_COUNT_USER | CPC_COUNT_SYSTEM, 0, NULL);
	i1 = cpc_set_add_request(cpc, set, "task-clock", 7, CPC_COUNT_USER | CPC_COUNT_SYSTEM, 1, &a);
	i2 = cpc_set_add_request(cpc, set, "page-faults", 42, 0, 0, NULL);
	ok(i0 == 0 && i1 == 1 && i2 == 2, "three requests: indexes 0, 1, 2");
	cpc_walk_requests(cpc, set, &rs, walk_req);
	ok(rs.n == 3 && rs.ok, "cpc_walk_requests: each request as added, attributes copied");

	b1 = cpc_buf_create(cpc, set);
	b2 = cpc_buf_create(cpc, set);
	d = cpc_buf_create(cpc, set);
	ok(b1 && b2 && d, "cpc_buf_create");
	errno = 0;
	ok(cpc_set_sample(cpc, set, b1) == -1 && errno == EINVAL, "sampling an unbound set: EINVAL");
	ok(cpc_unbind(cpc, set) == -1 && errno == EINVAL, "unbinding an unbound set: EINVAL");
	ok(cpc_request_preset(cpc, 0, 1) == -1 && errno == EINVAL,
	   "cpc_request_preset without a bound set: EINVAL");
	ok(cpc_enable(cpc) == -1 && errno == EINVAL, "cpc_enable without a bound set: EINVAL");

	empty = cpc_set_create(cpc);
	reset_err();
	ok(cpc_bind_curlwp(cpc, empty, 0) == -1 && errno == EINVAL,
	   "binding an empty set: EINVAL (%s)", last_msg);
	ok(cpc_bind_curlwp(cpc, set, 0x10) == -1 && errno == EINVAL, "unknown bind flag: EINVAL");

	reset_err();
	errno = 0;
	ok(cpc_bind_curlwp(cpc, set, CPC_BIND_LWP_INHERIT) == -1 && errno == ENOTSUP &&
	   strstr(last_msg, "CPC_BIND_LWP_INHERIT"),
	   "CPC_BIND_LWP_INHERIT: ENOTSUP: %s", last_msg);
	fake_hwpmc_attached_tid = 0;
	ok(cpc_bind_curlwp(cpc, set, 0) == 0, "cpc_bind_curlwp");
	ok(fake_hwpmc_attached_tid == (int)syscall(SYS_gettid),
	   "thread-scope PMCs attached to the calling thread (%d)", fake_hwpmc_attached_tid);
	reset_err();
	errno = 0;
	ok(cpc_bind_curlwp(cpc, set, 0) == -1 && errno == EINVAL && last_msg[0],
	   "binding the set twice: EINVAL: %s", last_msg);
	errno = 0;
	ok(cpc_bind_cpu(cpc, 0, set, 0) == -1 && errno == EINVAL,
	   "binding the bound set to a CPU: EINVAL");
	set2 = cpc_set_create(cpc);
	cpc_set_add_request(cpc, set2, "cpu-clock", 0, CPC_COUNT_USER, 0, NULL);
	reset_err();
	ok(cpc_bind_curlwp(cpc, set2, 0) == -1 && errno == EINVAL,
	   "a second set on the calling LWP: EINVAL: %s", last_msg);
	errno = 0;
	ok(cpc_set_add_request(cpc, set, "cpu-clock", 0, CPC_COUNT_USER, 0, NULL) == -1 &&
	   errno == EINVAL, "adding a request to a bound set: EINVAL");
	ok(cpc_set_sample(cpc, set, b1) == 0, "cpc_set_sample");
	cpc_buf_get(cpc, b1, i0, &v0);
	cpc_buf_get(cpc, b1, i1, &v1);
	cpc_buf_get(cpc, b1, i2, &v2);
	ok(v0 == FAKE_TICK && v1 == 7 + FAKE_TICK && v2 == 42,
	   "values: counted, counted from preset 7, not counting at preset 42 (%" PRIu64 " %" PRIu64 " %" PRIu64 ")",
	   v0, v1, v2);
	t1 = cpc_buf_hrtime(cpc, b1);
	usleep(1000);
	ok(cpc_set_sample(cpc, set, b2) == 0, "cpc_set_sample again");
	t2 = cpc_buf_hrtime(cpc, b2);
	ok(t1 > 0 && t2 - t1 >= 1000000, "cpc_buf_hrtime: ns timestamps (%lld apart)", (long long)(t2 - t1));
	cpc_buf_sub(cpc, d, b2, b1);
	cpc_buf_get(cpc, d, i0, &v0);
	cpc_buf_get(cpc, d, i1, &v1);
	cpc_buf_get(cpc, d, i2, &v2);
	ok(v0 == FAKE_TICK && v1 == FAKE_TICK && v2 == 0, "cpc_buf_sub: the counts between the samples");
	cpc_buf_add(cpc, d, d, b1);
	cpc_buf_get(cpc, d, i1, &v1);
	ok(v1 == 7 + 2 * FAKE_TICK, "cpc_buf_add");
	cpc_buf_copy(cpc, d, b2);
	cpc_buf_get(cpc, d, i1, &v1);
	cpc_buf_get(cpc, b2, i1, &v2);
	ok(v1 == v2 && cpc_buf_hrtime(cpc, d) == t2, "cpc_buf_copy");
	ok(cpc_buf_set(cpc, d, i2, 99) == 0 && cpc_buf_get(cpc, d, i2, &v2) == 0 && v2 == 99,
	   "cpc_buf_set, cpc_buf_get");
	errno = 0;
	ok(cpc_buf_get(cpc, d, 3, &v2) == -1 && errno == EINVAL &&
	   cpc_buf_set(cpc, d, -1, 0) == -1 && errno == EINVAL, "index out of range: EINVAL");
	cpc_buf_zero(cpc, d);
	cpc_buf_get(cpc, d, i2, &v2);
	ok(v2 == 0 && cpc_buf_hrtime(cpc, d) == 0 && cpc_buf_tick(cpc, d) == 0, "cpc_buf_zero");
	ok(cpc_buf_tick(cpc, b2) >= cpc_buf_tick(cpc, b1), "cpc_buf_tick grows (%" PRIu64 ")",
	   cpc_buf_tick(cpc, b2));

	/* presets: taken at the next restart */
	ok(cpc_request_preset(cpc, i1, 5000) == 0, "cpc_request_preset");
	ok(cpc_request_preset(cpc, 3, 5000) == -1 && errno == EINVAL,
	   "cpc_request_preset of no request: EINVAL");
	cpc_set_sample(cpc, set, b1);
	cpc_buf_get(cpc, b1, i1, &v1);
	ok(v1 == 7 + 3 * FAKE_TICK, "the preset waits for cpc_set_restart");
	ok(cpc_set_restart(cpc, set) == 0, "cpc_set_restart");
	cpc_set_sample(cpc, set, b1);
	cpc_buf_get(cpc, b1, i1, &v1);
	cpc_buf_get(cpc, b1, i0, &v0);
	ok(v1 == 5000 + FAKE_TICK && v0 == 4 * FAKE_TICK,
	   "after restart: counting from the new preset; the others go on (%" PRIu64 ", %" PRIu64 ")",
	   v1, v0);

	/* enable/disable the calling LWP's counters */
	ok(cpc_disable(cpc) == 0, "cpc_disable");
	cpc_set_sample(cpc, set, b1);
	cpc_set_sample(cpc, set, b2);
	cpc_buf_sub(cpc, d, b2, b1);
	cpc_buf_get(cpc, d, i0, &v0);
	ok(v0 == 0, "disabled: nothing counted");
	ok(cpc_enable(cpc) == 0, "cpc_enable");
	cpc_set_sample(cpc, set, b1);
	cpc_set_sample(cpc, set, b2);
	cpc_buf_sub(cpc, d, b2, b1);
	cpc_buf_get(cpc, d, i0, &v0);
	ok(v0 == FAKE_TICK, "enabled: counting again");

	ok(cpc_unbind(cpc, set) == 0, "cpc_unbind");
	errno = 0;
	ok(cpc_set_sample(cpc, set, b1) == -1 && errno == EINVAL, "sampling after unbind: EINVAL");
	ok(cpc_bind_curlwp(cpc, set2, 0) == 0, "another set binds after the unbind");
	ok(cpc_set_sample(cpc, set2, b1) == -1 && errno == EINVAL,
	   "a buffer of another set: EINVAL");
	ok(cpc_set_destroy(cpc, set2) == 0, "destroying a bound set unbinds it");
	ok(cpc_enable(cpc) == -1 && errno == EINVAL, "... cpc_enable has no set then");

	/* rebinding starts from the presets again */
	ok(cpc_bind_curlwp(cpc, set, 0) == 0, "the set binds again");
	cpc_set_sample(cpc, set, b1);
	cpc_buf_get(cpc, b1, i1, &v1);
	ok(v1 == 5000 + FAKE_TICK, "... its values from the last preset (%" PRIu64 ")", v1);
	cpc_set_destroy(cpc, set);
	ok(cpc_set_sample(cpc, set, b1) == -1, "a buffer outlives its set, but cannot sample");
	ok(cpc_buf_destroy(cpc, b1) == 0 && cpc_buf_destroy(cpc, b1) == -1 && errno == EINVAL,
	   "cpc_buf_destroy; twice: EINVAL");

	/*
	 * perf has no counter for a bound request (every one taken by
	 * pinned counters of others: its read says ENODATA): the set is
	 * invalidated, cpc_set_sample EAGAIN (FAKE_HWPMC_NODATA: the first
	 * PMC, the only one here)
	 */
	set = cpc_set_create(cpc);
	reset_err();
	ok(cpc_set_add_request(cpc, set, "page-faults", 0, CPC_COUNT_USER | CPC_COUNT_SYSTEM, 0, NULL) == 0 &&
	   (b1 = cpc_buf_create(cpc, set)) != NULL, "a set of one request");
	ok(cpc_bind_curlwp(cpc, set, 0) == 0, "... bound");
	setenv("FAKE_HWPMC_NODATA", "1", 1);
	errno = 0;
	ok(cpc_set_sample(cpc, set, b1) == -1 && errno == EAGAIN,
	   "a bound request without a counter: cpc_set_sample EAGAIN");
	unsetenv("FAKE_HWPMC_NODATA");
	ok(cpc_set_sample(cpc, set, b1) == 0, "... and samples once it has it again");
	cpc_set_destroy(cpc, set);
	cpc_close(cpc);		/* frees the rest */
}

static void test_bind_other(void)
{
	cpc_t *cpc = open_fake(NULL);
	cpc_set_t *set;
	cpc_buf_t *b;
	pctx_t *pctx;
	uint64_t v;
	pid_t child;
	int st, rc;

	if (!cpc)
		return;
	set = cpc_set_create(cpc);
	cpc_set_add_request(cpc, set, "cpu-clock", 10, CPC_COUNT_USER, 0, NULL);
	b = cpc_buf_create(cpc, set);

	/* a CPU */
	errno = 0;
	ok(cpc_bind_cpu(cpc, FAKE_NCPU, set, 0) == -1 && errno == EINVAL,
	   "cpc_bind_cpu of a CPU that does not exist: EINVAL");
	ok(cpc_bind_cpu(cpc, 0, set, 1) == -1 && errno == EINVAL, "cpc_bind_cpu flags: EINVAL");
	reset_err();
	errno = 0;
	ok(cpc_bind_cpu(cpc, FAKE_OFFLINE_CPU, set, 0) == -1 && errno == ENOSYS,
	   "cpc_bind_cpu of an offline CPU: ENOSYS (%s)", strerror(errno));
	ok(cpc_bind_cpu(cpc, 0, set, 0) == 0, "cpc_bind_cpu(0)");
	ok(cpc_set_sample(cpc, set, b) == 0 && cpc_buf_get(cpc, b, 0, &v) == 0 && v == 10 + FAKE_TICK,
	   "a CPU's count (%" PRIu64 ")", v);
	ok(cpc_enable(cpc) == -1 && errno == EINVAL, "cpc_enable is for the LWP's set, not a CPU's");
	cpc_unbind(cpc, set);
	setenv("FAKE_HWPMC_UNPRIV", "1", 1);
	errno = 0;
	ok(cpc_bind_cpu(cpc, 0, set, 0) == -1 && errno == EACCES,
	   "cpc_bind_cpu without CAP_PERFMON: EACCES (%s)", strerror(errno));
	unsetenv("FAKE_HWPMC_UNPRIV");

	/* a process */
	errno = 0;
	ok(pctx_capture(0, NULL, 0, NULL) == NULL && errno == ESRCH, "pctx_capture(0): ESRCH");
	child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	pctx = pctx_capture(child, NULL, 0, NULL);
	ok(pctx != NULL, "pctx_capture of a child");
	ok(cpc_bind_pctx(cpc, pctx, 1, set, 1) == -1 && errno == EINVAL, "cpc_bind_pctx flags: EINVAL");
	ok(cpc_bind_pctx(cpc, pctx, 1, set, 0) == 0, "cpc_bind_pctx");
	ok(cpc_set_sample(cpc, set, b) == 0 && cpc_buf_get(cpc, b, 0, &v) == 0 && v == 10 + FAKE_TICK,
	   "the process's count (%" PRIu64 ")", v);
	cpc_unbind(cpc, set);
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
	pctx_release(pctx);
	errno = 0;
	ok(pctx_capture(child, NULL, 0, NULL) == NULL && errno == ESRCH,
	   "pctx_capture of a process gone: ESRCH");

	/*
	 * overflow notification: a thread-scope sampling PMC whose count is
	 * the distance from the value to 2^64, re-armed at each restart
	 */
	cpc_set_destroy(cpc, set);
	set = cpc_set_create(cpc);
	ok(cpc_set_add_request(cpc, set, "cpu-clock", UINT64_MAX - 999, CPC_COUNT_USER | CPC_OVF_NOTIFY_EMT,
			       0, NULL) == 0, "a request with CPC_OVF_NOTIFY_EMT is added");
	reset_err();
	errno = 0;
	ok(cpc_bind_cpu(cpc, 0, set, 0) == -1 && errno == ENOTSUP && last_msg[0],
	   "cpc_bind_cpu of an overflow request: ENOTSUP: %s", last_msg);
	fake_hwpmc_notify_count = 0;
	ok(cpc_bind_curlwp(cpc, set, 0) == 0, "cpc_bind_curlwp of it: %s", last_msg);
	ok(fake_hwpmc_notify_count == 1000,
	   "... a PMC_F_NOTIFY PMC counting 1000 to overflow (%" PRIu64 ")",
	   fake_hwpmc_notify_count);
	b = cpc_buf_create(cpc, set);
	ok(cpc_set_sample(cpc, set, b) == 0 && cpc_buf_get(cpc, b, 0, &v) == 0 &&
	   v == UINT64_MAX - 999 + FAKE_TICK,
	   "its value: the preset and what it counted (%" PRIu64 ")", v);
	rc = cpc_request_preset(cpc, 0, UINT64_MAX - 4999) == 0 &&
	     cpc_set_restart(cpc, set) == 0;
	ok(rc && fake_hwpmc_notify_count == 5000,
	   "restart with a new preset: 5000 to overflow (%" PRIu64 ")",
	   fake_hwpmc_notify_count);
	ok(cpc_set_sample(cpc, set, b) == 0 && cpc_buf_get(cpc, b, 0, &v) == 0 &&
	   v == UINT64_MAX - 4999 + FAKE_TICK,
	   "... and the value goes on from it (%" PRIu64 ")", v);
	rc = cpc_set_restart(cpc, set) == 0;
	ok(rc && fake_hwpmc_notify_count == 5000 - FAKE_TICK,
	   "restart without one: from its value (%" PRIu64 " to overflow)",
	   fake_hwpmc_notify_count);
	cpc_buf_destroy(cpc, b);
	cpc_close(cpc);
}

static void test_pmu(void)
{
	cpc_t *cpc = open_fake("2");
	cpc_set_t *set;
	cpc_buf_t *b;
	uint64_t v;

	if (!cpc)
		return;
	set = cpc_set_create(cpc);
	ok(cpc_set_add_request(cpc, set, "PAPI_tot_ins", 0, CPC_COUNT_USER, 0, NULL) == 0 &&
	   cpc_set_add_request(cpc, set, "PAPI_tot_cyc", 0, CPC_COUNT_USER, 0, NULL) == 1,
	   "PMU: PAPI_tot_ins, PAPI_tot_cyc");
	reset_err();
	ok(cpc_set_add_request(cpc, set, "branch-misses", 0, CPC_COUNT_USER, 0, NULL) == -1 &&
	   errno == EINVAL && last_sub == CPC_RESOURCE_UNAVAIL,
	   "PMU: a third request for %d counters: CPC_RESOURCE_UNAVAIL", FAKE_NPMU);
	ok(cpc_set_add_request(cpc, set, "cpu-clock", 0, CPC_COUNT_USER, 0, NULL) == 2,
	   "PMU: a software event has counters of its own");
	b = cpc_buf_create(cpc, set);
	ok(cpc_bind_curlwp(cpc, set, 0) == 0 && cpc_set_sample(cpc, set, b) == 0 &&
	   cpc_buf_get(cpc, b, 0, &v) == 0 && v == FAKE_TICK, "PMU: bound and sampled");
	cpc_close(cpc);
}

static void test_default_handler(void)
{
	cpc_t *cpc = open_fake(NULL);
	cpc_set_t *set;
	static const char expect[] = "libcpc: cpc_set_add_request: Invalid event \"no-such-event\"";
	char out[1024] = "";
	FILE *f = tmpfile();
	int saved, n;

	if (!cpc || !f)
		return;
	ok(cpc_seterrhndlr(cpc, NULL) == 0, "cpc_seterrhndlr(NULL): the default handler");
	set = cpc_set_create(cpc);
	fflush(stderr);
	saved = dup(2);
	dup2(fileno(f), 2);
	nerr = 0;
	cpc_set_add_request(cpc, set, "no-such-event", 0, CPC_COUNT_USER, 0, NULL);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	n = (int)fread(out, 1, sizeof(out) - 1, f);
	out[n > 0 ? n : 0] = '\0';
	fclose(f);
	ok(strncmp(out, expect, strlen(expect)) == 0 &&
	   n > 0 && out[n - 1] == '\n' && nerr == 0,
	   "the default handler writes \"libcpc: <function>: <message>\\n\" to stderr: %.*s",
	   n > 0 ? n - 1 : 0, out);
	cpc_close(cpc);
}

/* Numbers are raw events; x86 attributes qualify them. */
static void test_raw(void)
{
	cpc_t *cpc = open_fake("1");
	cpc_set_t *set;
	cpc_attr_t a[2] = { { "umask", 0x1 }, { "inv", 1 } };
	cpc_buf_t *b;
	uint64_t v;

	if (!cpc)
		return;
	set = cpc_set_create(cpc);
	reset_err();
	ok(cpc_set_add_request(cpc, set, "0xc0", 0, CPC_COUNT_USER | CPC_COUNT_SYSTEM, 0, NULL) == 0,
	   "a number is a raw event: 0xc0 (%s)", last_msg);
	reset_err();
	ok(cpc_set_add_request(cpc, set, "0xzz", 0, CPC_COUNT_USER | CPC_COUNT_SYSTEM, 0, NULL) == -1 &&
	   last_sub == CPC_INVALID_EVENT, "0xzz is no number and no event: %s", last_msg);
#if defined(__x86_64__) || defined(__i386__)
	reset_err();
	ok(cpc_set_add_request(cpc, set, "192", 0, CPC_COUNT_USER | CPC_COUNT_SYSTEM, 2, a) == 1,
	   "raw event 192 with umask 0x1 and inv (%s)", last_msg);
#else
	skip("x86 attributes");
#endif
	b = cpc_buf_create(cpc, set);
	ok(cpc_bind_curlwp(cpc, set, 0) == 0 && cpc_set_sample(cpc, set, b) == 0 &&
	   cpc_buf_get(cpc, b, 0, &v) == 0 && v == FAKE_TICK, "raw events bound and sampled (%s)", last_msg);
	cpc_close(cpc);
}

/*
 * Two LWPs of one handle bind sets of their own with cpc_bind_curlwp(),
 * at the same time: each set's PMCs go to its thread, and
 * cpc_disable() in one thread stops that thread's set only.
 */
struct lwp {
	cpc_t		*cpc;
	cpc_set_t	*set;
	pthread_barrier_t *bar;
	int		 tid, attached, bound, other_bound;
};

static pthread_mutex_t lwp_lock = PTHREAD_MUTEX_INITIALIZER;

static void *lwp_main(void *arg)
{
	struct lwp *l = arg;

	l->tid = (int)syscall(SYS_gettid);
	pthread_barrier_wait(l->bar);
	pthread_mutex_lock(&lwp_lock);	/* for fake_hwpmc_attached_tid */
	fake_hwpmc_attached_tid = 0;
	l->bound = cpc_bind_curlwp(l->cpc, l->set, 0) == 0;
	l->attached = fake_hwpmc_attached_tid;
	pthread_mutex_unlock(&lwp_lock);
	pthread_barrier_wait(l->bar);	/* both bound */
	pthread_barrier_wait(l->bar);	/* the main thread looked */
	cpc_unbind(l->cpc, l->set);
	return NULL;
}

static void test_bind_lwps(void)
{
	cpc_t *cpc = open_fake(NULL);
	pthread_barrier_t bar;
	struct lwp l[2];
	pthread_t t[2];
	int i, n = 0;

	if (!cpc)
		return;
	pthread_barrier_init(&bar, NULL, 3);
	for (i = 0; i < 2; i++) {
		l[i] = (struct lwp){ .cpc = cpc, .bar = &bar };
		l[i].set = cpc_set_create(cpc);
		cpc_set_add_request(cpc, l[i].set, "cpu-clock", 0, CPC_COUNT_USER, 0, NULL);
		n += pthread_create(&t[i], NULL, lwp_main, &l[i]) == 0;
	}
	if (n != 2) {
		ok(0, "threads for test_bind_lwps");
		return;
	}
	pthread_barrier_wait(&bar);
	pthread_barrier_wait(&bar);
	ok(l[0].bound && l[1].bound && l[0].attached == l[0].tid &&
	   l[1].attached == l[1].tid && l[0].tid != l[1].tid,
	   "two LWPs bind a set each, each counted on its own thread (%d: %d, %d: %d)",
	   l[0].tid, l[0].attached, l[1].tid, l[1].attached);
	errno = 0;
	ok(cpc_enable(cpc) == -1 && errno == EINVAL && cpc_request_preset(cpc, 0, 1) == -1,
	   "the main thread, which bound nothing, has no set to enable or preset");
	pthread_barrier_wait(&bar);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&bar);
	cpc_close(cpc);
}

/* Threads sharing a handle (the library's lock): each binds and samples its own set. */
#define NTHREAD	4
#define NROUND	200

struct worker {
	cpc_t	*cpc;
	int	 cpu;		/* -1: cpc_bind_curlwp() */
	int	 fails;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	cpc_set_t *set;
	cpc_buf_t *b;
	uint64_t v;
	int i;

	for (i = 0; i < NROUND; i++) {
		set = cpc_set_create(w->cpc);
		b = NULL;
		if (!set || cpc_set_add_request(w->cpc, set, "cpu-clock", 0,
						CPC_COUNT_USER, 0, NULL) != 0 ||
		    !(b = cpc_buf_create(w->cpc, set)) ||
		    (w->cpu < 0 ? cpc_bind_curlwp(w->cpc, set, 0) :
				  cpc_bind_cpu(w->cpc, w->cpu, set, 0)) != 0 ||
		    cpc_set_sample(w->cpc, set, b) != 0 ||
		    cpc_buf_get(w->cpc, b, 0, &v) != 0 || v != FAKE_TICK ||
		    cpc_unbind(w->cpc, set) != 0)
			w->fails++;
		if (b)
			cpc_buf_destroy(w->cpc, b);
		if (set)
			cpc_set_destroy(w->cpc, set);
	}
	return NULL;
}

static void test_threads(void)
{
	static const int cpus[NTHREAD] = { -1, 0, 1, 3 };	/* 2 is offline */
	struct worker w[NTHREAD];
	pthread_t t[NTHREAD];
	cpc_t *cpc = open_fake(NULL);
	int i, fails = 0, started = 0;

	if (!cpc)
		return;
	for (i = 0; i < NTHREAD; i++) {
		w[i].cpc = cpc;
		w[i].cpu = cpus[i];
		w[i].fails = 0;
		if (pthread_create(&t[i], NULL, work, &w[i]) == 0)
			started++;
		else
			w[i].fails = -1;
	}
	for (i = 0; i < NTHREAD; i++)
		if (w[i].fails >= 0)
			pthread_join(t[i], NULL);
	for (i = 0; i < NTHREAD; i++)
		fails += w[i].fails;
	ok(started == NTHREAD && fails == 0,
	   "%d threads sharing a handle, %d rounds each of create, bind, sample, unbind, destroy: %d failures",
	   NTHREAD, NROUND, fails);
	cpc_close(cpc);
}

struct items {
	int	n;
	int	inorder;	/* each index the walk's position */
	int	pc, hrtime, cpu;
	char	first_reg[8];
};

static void walk_item(void *arg, const char *name, int idx)
{
	struct items *it = arg;

	it->inorder &= idx == it->n;
	it->pc |= idx == CPC_SMPL_ITEM_PC && strcmp(name, "pc") == 0;
	it->hrtime |= idx == CPC_SMPL_ITEM_HRTIME && strcmp(name, "hrtime") == 0;
	it->cpu |= idx == CPC_SMPL_ITEM_CPU && strcmp(name, "cpu") == 0;
	if (idx == CPC_SMPL_ITEM_REGS)
		snprintf(it->first_reg, sizeof(it->first_reg), "%s", name);
	it->n++;
}

struct attr_seen {
	int	nrecs, regs;
};

static void walk_smpl_attr(void *arg, const char *attr)
{
	struct attr_seen *a = arg;

	a->nrecs |= strcmp(attr, CPC_SMPL_NRECS) == 0;
	a->regs |= strcmp(attr, CPC_SMPL_REGS) == 0;
}

/* A SMPL request refused with EINVAL and subcode sub, named by what */
static void smpl_refused(cpc_t *cpc, const char *event, uint_t flags,
			 uint_t nattrs, const cpc_attr_t *attrs, int sub,
			 const char *what)
{
	cpc_set_t *set = cpc_set_create(cpc);

	int refused;

	reset_err();
	errno = 0;
	refused = cpc_set_add_request(cpc, set, event, 0, flags, nattrs, attrs) == -1 &&
		  errno == EINVAL && last_sub == sub;
	ok(refused, "%s: EINVAL, subcode %d: %s", what, sub, last_msg);
	cpc_set_destroy(cpc, set);
}

#if defined(__x86_64__)
#define NREGS	16
#define REG0	"rax"
#elif defined(__aarch64__)
#define NREGS	32
#define REG0	"x0"
#else
#define NREGS	0
#define REG0	""
#endif

static void test_smpl(void)
{
	cpc_attr_t nrecs[2] = { { CPC_SMPL_NRECS, 4 }, { CPC_SMPL_REGS, 1 } };
	cpc_attr_t bad = { CPC_SMPL_NRECS, 0 }, big = { CPC_SMPL_NRECS, 65537 };
	cpc_attr_t regs_only = { CPC_SMPL_REGS, 1 };
	const uint_t um = CPC_COUNT_USER;
	struct attr_seen as = { 0, 0 };
	struct items it = { 0, 1, 0, 0, 0, "" };
	cpc_set_t *set, *rset;
	cpc_buf_t *b, *c;
	uint64_t v, *rec;
	uint_t n = 99, k;
	int fd, good, i;
	cpc_t *cpc;

	/* a CPC-only handle has no SMPL */
	setenv("HWPMC_DEVICE", "/dev/null", 1);
	unsetenv("FAKE_HWPMC_PMU");
	cpc = cpc_open(CPC_VER_CPC_ONLY);
	if (!ok(cpc != NULL, "cpc_open(CPC_VER_CPC_ONLY)"))
		return;
	cpc_seterrhndlr(cpc, handler);
	ok(cpc_npic(cpc) == FAKE_NSOFT && cpc_smpl_npic(cpc) == 0 &&
	   cpc_get_smpl_max_rec_count(cpc) == 0 && !*cpc_smpl_iname(cpc),
	   "CPC_VER_CPC_ONLY: counters, no SMPL (cpc_smpl_npic 0, max records 0, no name)");
	cpc_walk_attrs(cpc, &as, walk_smpl_attr);
	ok(!as.nrecs && !as.regs, "CPC_VER_CPC_ONLY: cpc_walk_attrs has no smpl_nrecs");
	errno = 0;
	cpc_walk_smpl_recitems(cpc, &it, walk_item);
	ok(it.n == 0 && errno == EINVAL, "CPC_VER_CPC_ONLY: cpc_walk_smpl_recitems: EINVAL");
	smpl_refused(cpc, "cpu-clock", um, 1, nrecs, CPC_INVALID_ATTRIBUTE,
		     "smpl_nrecs on a CPC_VER_CPC_ONLY handle");
	cpc_close(cpc);

	cpc = open_fake(NULL);
	if (!cpc)
		return;
	ok(cpc_smpl_npic(cpc) == FAKE_NSOFT && cpc_get_smpl_max_rec_count(cpc) == 65536 &&
	   *cpc_smpl_iname(cpc),
	   "CPC_VER_CURRENT: cpc_smpl_npic %u (the rows), max records %u, %s",
	   cpc_smpl_npic(cpc), cpc_get_smpl_max_rec_count(cpc), cpc_smpl_iname(cpc));
	cpc_walk_attrs(cpc, &as, walk_smpl_attr);
	ok(as.nrecs && as.regs == (NREGS > 0), "cpc_walk_attrs: smpl_nrecs, smpl_regs");
	cpc_walk_smpl_recitems(cpc, &it, walk_item);
	ok(it.inorder && it.pc && it.hrtime && it.cpu && it.n == 3 + NREGS &&
	   strcmp(it.first_reg, REG0) == 0,
	   "cpc_walk_smpl_recitems: pc, hrtime, cpu, then %d registers from %s (%d items)",
	   NREGS, it.first_reg, it.n);

	smpl_refused(cpc, "cpu-clock", um, 1, &bad, CPC_ATTRIBUTE_OUT_OF_RANGE, "smpl_nrecs 0");
	smpl_refused(cpc, "cpu-clock", um, 1, &big, CPC_ATTRIBUTE_OUT_OF_RANGE,
		     "smpl_nrecs past cpc_get_smpl_max_rec_count()");
	if (NREGS)
		smpl_refused(cpc, "cpu-clock", um, 1, &regs_only, CPC_INVALID_ATTRIBUTE,
			     "smpl_regs without smpl_nrecs");
	smpl_refused(cpc, "cpu-clock", um | CPC_OVF_NOTIFY_EMT, 1, nrecs,
		     CPC_CONFLICTING_REQS, "SMPL with CPC_OVF_NOTIFY_EMT");
	smpl_refused(cpc, "cpu-clock", 0, 1, nrecs, CPC_REQ_INVALID_FLAGS,
		     "SMPL counting no mode");
	smpl_refused(cpc, "page-faults", um, 1, nrecs, CPC_PIC_NOT_CAPABLE,
		     "SMPL of an event without overflow interrupts");

	set = cpc_set_create(cpc);
	ok(cpc_set_add_request(cpc, set, "cpu-clock", UINT64_MAX - 99999, um, 1, nrecs) == 0 &&
	   cpc_set_add_request(cpc, set, "task-clock", 0, um | CPC_COUNT_SYSTEM, 0, NULL) == 1,
	   "a set of a SMPL request (cpu-clock, smpl_nrecs 4) and a counting one");
	it.n = 0;
	cpc_walk_smpl_recitems_req(cpc, set, 0, &it, walk_item);
	ok(it.n == 3, "cpc_walk_smpl_recitems_req: pc, hrtime, cpu (%d)", it.n);
	it.n = 0;
	errno = 0;
	cpc_walk_smpl_recitems_req(cpc, set, 1, &it, walk_item);
	ok(it.n == 0 && errno == EINVAL, "cpc_walk_smpl_recitems_req of a counting request: EINVAL");
	reset_err();
	errno = 0;
	ok(cpc_bind_cpu(cpc, 0, set, 0) == -1 && errno == ENOTSUP && last_sub == CPC_PIC_NOT_CAPABLE,
	   "SMPL in a CPU's set: ENOTSUP: %s", last_msg);

	b = cpc_buf_create(cpc, set);
	c = cpc_buf_create(cpc, set);
	setenv("FAKE_HWPMC_SAMPLES", "3", 1);
	ok(cpc_bind_curlwp(cpc, set, 0) == 0, "cpc_bind_curlwp of the SMPL set");
	fd = open("/dev/null", O_WRONLY);
	errno = 0;
	ok(pmc_configure_logfile(fd) == -1 && errno == EBUSY,
	   "while it is bound the process's log is the library's: the program's pmc_configure_logfile(): EBUSY");
	good = cpc_set_sample(cpc, set, b) == 0 && cpc_buf_smpl_rec_count(cpc, b, 0, &n) == 0 &&
	       n == 3;
	ok(good, "cpc_set_sample: the 3 samples taken are 3 records (%u)", n);
	good = 1;
	for (k = 0; k < 3; k++) {
		good &= cpc_buf_smpl_get_item(cpc, b, 0, (int)k, CPC_SMPL_ITEM_PC, &v) == 0 &&
			v == FAKE_SAMPLE_PC + 4 * k;
		good &= cpc_buf_smpl_get_item(cpc, b, 0, (int)k, CPC_SMPL_ITEM_CPU, &v) == 0 && v == 1;
		rec = cpc_buf_smpl_get_record(cpc, b, 0, (int)k);
		good &= rec && rec[CPC_SMPL_ITEM_PC] == FAKE_SAMPLE_PC + 4 * k &&
			rec[CPC_SMPL_ITEM_HRTIME] > 0;
	}
	ok(good, "each record: its sample's pc, cpu and time (items and whole records)");
	errno = 0;
	ok(cpc_buf_smpl_get_item(cpc, b, 0, 3, CPC_SMPL_ITEM_PC, &v) == -1 && errno == EINVAL &&
	   cpc_buf_smpl_get_item(cpc, b, 0, 0, 3, &v) == -1 &&
	   !cpc_buf_smpl_get_record(cpc, b, 0, -1) &&
	   cpc_buf_smpl_rec_count(cpc, b, 1, &n) == -1 && errno == EINVAL,
	   "past the records, the items, or of a counting request: EINVAL");
	setenv("FAKE_HWPMC_SAMPLES", "6", 1);
	ok(cpc_set_sample(cpc, set, b) == 0 && cpc_buf_smpl_rec_count(cpc, b, 0, &n) == 0 && n == 4 &&
	   cpc_buf_smpl_get_item(cpc, b, 0, 3, CPC_SMPL_ITEM_PC, &v) == 0 &&
	   v == FAKE_SAMPLE_PC + 12,
	   "the next sample: the records since, the first smpl_nrecs (4) of 6");
	cpc_buf_copy(cpc, c, b);
	ok(cpc_buf_smpl_rec_count(cpc, c, 0, &n) == 0 && n == 4 &&
	   cpc_buf_smpl_get_item(cpc, c, 0, 2, CPC_SMPL_ITEM_PC, &v) == 0 && v == FAKE_SAMPLE_PC + 8,
	   "cpc_buf_copy copies the records");
	cpc_buf_zero(cpc, c);
	ok(cpc_buf_smpl_rec_count(cpc, c, 0, &n) == 0 && n == 0, "cpc_buf_zero: no records");
	unsetenv("FAKE_HWPMC_SAMPLES");
	ok(cpc_set_sample(cpc, set, b) == 0 && cpc_buf_smpl_rec_count(cpc, b, 0, &n) == 0 && n == 0,
	   "no samples since: no records");
	ok(cpc_unbind(cpc, set) == 0, "cpc_unbind closes the library's log");
	ok(pmc_configure_logfile(fd) == 0, "then the program may configure its own log");
	reset_err();
	errno = 0;
	ok(cpc_bind_curlwp(cpc, set, 0) == -1 && errno == EAGAIN &&
	   last_sub == CPC_RESOURCE_UNAVAIL && strstr(last_msg, "pmc_configure_logfile"),
	   "a program with its own log binds no SMPL request: EAGAIN: %s", last_msg);
	ok(pmc_close_logfile() == 0, "the program's log is left alone");
	close(fd);

	/* records with the user registers */
	if (NREGS) {
		rset = cpc_set_create(cpc);
		ok(cpc_set_add_request(cpc, rset, "cpu-clock", UINT64_MAX - 99999, um, 2, nrecs) == 0,
		   "a SMPL request with smpl_regs");
		it.n = 0;
		cpc_walk_smpl_recitems_req(cpc, rset, 0, &it, walk_item);
		ok(it.n == 3 + NREGS, "its items: pc, hrtime, cpu and %d registers (%d)", NREGS, it.n);
		setenv("FAKE_HWPMC_SAMPLES", "2", 1);
		b = cpc_buf_create(cpc, rset);
		good = cpc_bind_curlwp(cpc, rset, 0) == 0 && cpc_set_sample(cpc, rset, b) == 0 &&
		       cpc_buf_smpl_rec_count(cpc, b, 0, &n) == 0 && n == 2;
		for (k = 0; good && k < 2; k++) {
			rec = cpc_buf_smpl_get_record(cpc, b, 0, (int)k);
			good &= rec && rec[CPC_SMPL_ITEM_PC] == FAKE_SAMPLE_PC + 4 * k;
			for (i = 0; good && i < NREGS; i++)
				good &= rec[CPC_SMPL_ITEM_REGS + i] == k + (uint64_t)i;
		}
		ok(good, "its records: the registers of the sample's USERSTACK, in DWARF order");
		unsetenv("FAKE_HWPMC_SAMPLES");
		cpc_unbind(cpc, rset);
	}
	cpc_close(cpc);
}

int main(void)
{
	test_open();
	test_walks();
	test_requests();
	test_bind();
	test_bind_other();
	test_bind_lwps();
	test_pmu();
	test_raw();
	test_default_handler();
	test_threads();
	test_smpl();
	return tap_done();
}
