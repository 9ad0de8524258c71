// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: the log through libhwpmc, in a VM as root.  The log is
 * configured with pmc_configure_logfile(), fed with pmc_writelog(), and
 * read back with pmclog(3): from a file (fd mode, and fed in odd pieces),
 * and streamed from a pipe while it is written.  hwpmc_log_test checks
 * the same records without the library.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <pmc.h>
#include <pmclog.h>

#include "kselftest_harness.h"

/* Interrupts so far, all CPUs (as hwpmc_selftest.h's intr_count()). */
static __attribute__((unused)) unsigned long long intr_count(void)
{
	unsigned long long n = 0;
	char line[256];
	FILE *f = fopen("/proc/stat", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "intr %llu", &n) == 1)
			break;
	fclose(f);
	return n;
}

#define NUSER		1000	/* USERDATA records to a file */
#define NSTREAM		5000	/* ... through a pipe: more than it holds */

/* What a log held, as pmclog(3) saw it. */
struct seen {
	size_t		nrec;
	int		first_type, last_type;
	enum pmclog_state end;
	int		err;		/* errno at the end */
	struct pmclog_ev_initialize init;
	int		nalloc;		/* PMCALLOCATE(DYN)s of the PMC */
	int		dyn;		/* it was a PMCALLOCATEDYN */
	char		evname[PMC_NAME_MAX + 1];
	uint32_t	event;
	uint32_t	next;		/* next USERDATA expected */
	int		user_bad;	/* out of order, or not ours */
	int		ts_back;	/* timestamps going backwards */
	int		ncc;		/* CALLCHAINs of the PMC */
	int		cc_bad;		/* ... with a wrong pid, no PC */
	uint64_t	dropped;
	pmc_id_t	pmcid;		/* the PMC to look for */
};

static void seen_init(struct seen *s, pmc_id_t id)
{
	memset(s, 0, sizeof(*s));
	s->first_type = s->last_type = -1;
	s->next = 1;
	s->pmcid = id;
}

static void seen_add(struct seen *s, const struct pmclog_ev *ev,
		     struct timespec *last)
{
	if (!s->nrec++)
		s->first_type = (int)ev->pl_type;
	s->last_type = (int)ev->pl_type;
	if (ev->pl_ts.tv_sec < last->tv_sec ||
	    (ev->pl_ts.tv_sec == last->tv_sec &&
	     ev->pl_ts.tv_nsec < last->tv_nsec))
		s->ts_back++;
	*last = ev->pl_ts;
	switch (ev->pl_type) {
	case PMCLOG_TYPE_INITIALIZE:
		s->init = ev->pl_u.pl_i;
		break;
	case PMCLOG_TYPE_PMCALLOCATE:
		if (ev->pl_u.pl_a.pl_pmcid != s->pmcid)
			break;
		s->nalloc++;
		snprintf(s->evname, sizeof(s->evname), "%s",
			 ev->pl_u.pl_a.pl_evname);
		s->event = ev->pl_u.pl_a.pl_event;
		s->dyn = 0;
		break;
	case PMCLOG_TYPE_PMCALLOCATEDYN:	/* SOFT-class PMCs, as FreeBSD */
		if (ev->pl_u.pl_ad.pl_pmcid != s->pmcid)
			break;
		s->nalloc++;
		snprintf(s->evname, sizeof(s->evname), "%s",
			 ev->pl_u.pl_ad.pl_evname);
		s->event = ev->pl_u.pl_ad.pl_event;
		s->dyn = 1;
		break;
	case PMCLOG_TYPE_USERDATA:
		if (ev->pl_u.pl_u.pl_userdata != s->next ||
		    ev->pl_u.pl_u.pl_pid != getpid())
			s->user_bad++;
		s->next = ev->pl_u.pl_u.pl_userdata + 1;
		break;
	case PMCLOG_TYPE_CALLCHAIN:
		if (ev->pl_u.pl_cc.pl_pmcid != s->pmcid)
			break;
		s->ncc++;
		if (ev->pl_u.pl_cc.pl_pid != (uint32_t)getpid() ||
		    ev->pl_u.pl_cc.pl_npc < 1 || !ev->pl_u.pl_cc.pl_pc[0])
			s->cc_bad++;
		break;
	case PMCLOG_TYPE_DROPNOTIFY:
		s->dropped += ev->pl_u.pl_dn.pl_dropped;
		break;
	default:
		break;
	}
}

/* Every record of fd (fd mode) until EOF or an error. */
static void read_log_fd(int fd, struct seen *s)
{
	struct timespec last = { 0, 0 };
	struct pmclog_ev ev;
	void *p = pmclog_open(fd);

	if (!p) {
		s->end = PMCLOG_ERROR;
		s->err = errno;
		return;
	}
	while (pmclog_read(p, &ev) == 0)
		seen_add(s, &ev, &last);
	s->end = ev.pl_state;
	s->err = errno;
	pmclog_close(p);
}

/* The same from bytes, fed in pieces of 1, 2, 3... 97 bytes. */
static void read_log_fed(const char *buf, size_t len, struct seen *s)
{
	struct timespec last = { 0, 0 };
	struct pmclog_ev ev;
	void *p = pmclog_open(PMCLOG_FD_NONE);
	size_t off = 0, n = 0;

	ev.pl_state = PMCLOG_REQUIRE_DATA;
	while (p && off < len) {
		n = n % 97 + 1;
		if (n > len - off)
			n = len - off;
		if (pmclog_feed(p, (char *)buf + off, (int)n))
			break;
		off += n;
		while (pmclog_read(p, &ev) == 0)
			seen_add(s, &ev, &last);
		if (ev.pl_state != PMCLOG_REQUIRE_DATA)
			break;
	}
	s->end = ev.pl_state;
	s->err = errno;
	pmclog_close(p);
}

static char *slurp(const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		return NULL;
	buf = malloc(st.st_size + 1);
	if (buf && read(fd, buf, st.st_size) != st.st_size) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	*len = st.st_size;
	return buf;
}

FIXTURE(pmclog) {
	char path[64];
	pmc_id_t id;
};

FIXTURE_SETUP(pmclog)
{
	ASSERT_EQ(0, pmc_init()) TH_LOG("pmc_init: %s", pmc_init_message());
	snprintf(self->path, sizeof(self->path), "/tmp/hwpmc-pmclog.%d",
		 getpid());
	/* a counting PMC, so that the log has a PMCALLOCATEDYN (SOFT) */
	ASSERT_EQ(0, pmc_allocate("cpu-clock", PMC_MODE_TC, 0, PMC_CPU_ANY,
				  &self->id, 0))
		TH_LOG("pmc_allocate: %s", pmc_allocate_message());
}

FIXTURE_TEARDOWN(pmclog)
{
	pmc_release(self->id);
	unlink(self->path);
	pmc_fini();
}

static void check_common(struct __test_metadata *_metadata,
			 const struct seen *s, uint32_t nuser)
{
	EXPECT_EQ(PMCLOG_TYPE_INITIALIZE, s->first_type);
	EXPECT_EQ(PMCLOG_VERSION, s->init.pl_version);
	EXPECT_LE(sysconf(_SC_NPROCESSORS_CONF), (long)s->init.pl_ncpu);
	EXPECT_EQ(1000000000ULL, s->init.pl_tsc_freq);
	EXPECT_LT(1500000000, s->init.pl_ts.tv_sec);	/* real time */
	EXPECT_NE(0, s->init.pl_cpuid[0]);
	EXPECT_EQ(1, s->nalloc);
	EXPECT_EQ(1, s->dyn);		/* cpu-clock is of the SOFT class */
	EXPECT_STREQ("cpu-clock", s->evname);
	EXPECT_STREQ(pmc_name_of_event(s->event), s->evname);
	EXPECT_EQ(0, s->user_bad);
	EXPECT_EQ(nuser + 1, s->next);
	EXPECT_EQ(0, s->ts_back);
	EXPECT_EQ(0, s->dropped);
	EXPECT_EQ(PMCLOG_TYPE_CLOSELOG, s->last_type);
}

TEST_F(pmclog, a_file_read_and_fed)
{
	struct seen s;
	size_t len;
	char *buf;
	uint32_t i;
	int fd = open(self->path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pmc_configure_logfile(fd));
	errno = 0;
	EXPECT_EQ(-1, pmc_configure_logfile(fd));	/* one log: EBUSY */
	EXPECT_EQ(EBUSY, errno);
	close(fd);			/* the log holds its own reference */
	for (i = 1; i <= NUSER; i++)
		ASSERT_EQ(0, pmc_writelog(i)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, pmc_flush_logfile()) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, pmc_close_logfile()) TH_LOG("%s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, pmc_writelog(1));		/* closed: EINVAL */
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, pmc_flush_logfile());
	EXPECT_EQ(-1, pmc_close_logfile());

	seen_init(&s, self->id);
	fd = open(self->path, O_RDONLY);
	ASSERT_LE(0, fd);
	read_log_fd(fd, &s);
	close(fd);
	EXPECT_EQ(PMCLOG_EOF, s.end) TH_LOG("errno %s", strerror(s.err));
	check_common(_metadata, &s, NUSER);
	EXPECT_EQ(NUSER + 3, s.nrec);	/* INITIALIZE, PMCALLOCATEDYN, CLOSELOG */

	buf = slurp(self->path, &len);
	ASSERT_NE(NULL, buf);
	seen_init(&s, self->id);
	read_log_fed(buf, len, &s);
	EXPECT_EQ(PMCLOG_REQUIRE_DATA, s.end);
	check_common(_metadata, &s, NUSER);
	free(buf);
}

struct reader {
	int		fd;
	struct seen	*s;
};

static void *reader_fn(void *arg)
{
	struct reader *r = arg;

	read_log_fd(r->fd, r->s);
	return NULL;
}

TEST_F(pmclog, streamed_from_a_pipe)
{
	struct reader r;
	struct seen s;
	pthread_t t;
	uint32_t i;
	int p[2];

	ASSERT_EQ(0, pipe(p));
	seen_init(&s, self->id);
	r.fd = p[0];
	r.s = &s;
	ASSERT_EQ(0, pthread_create(&t, NULL, reader_fn, &r));
	ASSERT_EQ(0, pmc_configure_logfile(p[1]));
	close(p[1]);		/* EOF for the reader once the log lets go */
	for (i = 1; i <= NSTREAM; i++) {
		ASSERT_EQ(0, pmc_writelog(i)) TH_LOG("%u: %s", i, strerror(errno));
		if (i % 500 == 0)
			ASSERT_EQ(0, pmc_flush_logfile());
	}
	ASSERT_EQ(0, pmc_close_logfile()) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, pthread_join(t, NULL));
	close(p[0]);
	EXPECT_EQ(PMCLOG_EOF, s.end) TH_LOG("errno %s", strerror(s.err));
	check_common(_metadata, &s, NSTREAM);
	EXPECT_EQ(NSTREAM + 3, s.nrec);
}

/* Busy for ms of CPU time, in a few frames. */
static volatile unsigned long sink;

__attribute__((noinline)) static void spin_ms(int ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			sink += i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 +
		 (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

/* Samples of cpu-clock (a software event: every guest has it). */
TEST_F(pmclog, samples_of_the_process)
{
	struct seen s;
	pmc_id_t sid;
	int fd = open(self->path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pmc_configure_logfile(fd));
	close(fd);
	/* 1 ms of CPU time per sample */
	ASSERT_EQ(0, pmc_allocate("cpu-clock", PMC_MODE_TS, 0, PMC_CPU_ANY,
				  &sid, 1000000))
		TH_LOG("pmc_allocate: %s", pmc_allocate_message());
	ASSERT_EQ(0, pmc_attach(sid, 0)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, pmc_start(sid)) TH_LOG("%s", strerror(errno));
	spin_ms(200);
	ASSERT_EQ(0, pmc_stop(sid));
	ASSERT_EQ(0, pmc_close_logfile()) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, pmc_release(sid));

	seen_init(&s, sid);
	fd = open(self->path, O_RDONLY);
	ASSERT_LE(0, fd);
	read_log_fd(fd, &s);
	close(fd);
	EXPECT_EQ(PMCLOG_EOF, s.end) TH_LOG("errno %s", strerror(s.err));
	EXPECT_EQ(PMCLOG_TYPE_INITIALIZE, s.first_type);
	EXPECT_EQ(PMCLOG_TYPE_CLOSELOG, s.last_type);
	EXPECT_EQ(1, s.nalloc);
	EXPECT_STREQ("cpu-clock", s.evname);
	/* 200 ms at one sample a ms: well over 50 even on a slow guest */
	EXPECT_LE(50, s.ncc) TH_LOG("%d samples", s.ncc);
	EXPECT_EQ(0, s.cc_bad);
	/* (samples are stamped when taken, logged when drained: not in order) */
}

/* Does tracefs have event path ("sys/name"), mounted here if need be? */
static int have_tracepoint(const char *path)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing/events", "/sys/kernel/debug/tracing/events",
	};
	char buf[256];
	unsigned int i;

	if (access(dirs[0], F_OK) && access(dirs[1], F_OK))
		mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);
	for (i = 0; i < 2; i++) {
		snprintf(buf, sizeof(buf), "%s/%s/id", dirs[i], path);
		if (!access(buf, R_OK))
			return 1;
	}
	return 0;
}

/* Has the machine an armv8 core PMU (armv8_pmuv3_0, armv8_cortex_a57...)? */
static int have_armv8(void)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *de;
	int found = 0;

	while (d && (de = readdir(d)))
		found |= !strncmp(de->d_name, "armv8", 5);
	if (d)
		closedir(d);
	return found;
}

/*
 * The log names a PERF-class PMC's event as it was given (issue 12):
 * PMCALLOCATEDYN, FreeBSD's record for an event whose number does not
 * name it, with pl_evname the specifier, for tracepoints and other
 * PMUs; and on arm64 PMCALLOCATE of a vendor event (a raw encoding)
 * with its vendor name.  Before, they were all "perf" (and "raw").
 */
TEST_F(pmclog, perf_class_names_in_the_log)
{
	static const struct {
		const char	*spec;
		enum pmc_mode	mode;
		const char	*tp;		/* tracefs event, or */
		const char	*need;		/* a sysfs path it needs, or
						   neither: an armv8 PMU */
		int		dyn;
	} c[] = {
		{ "syscalls:sys_enter_getppid", PMC_MODE_TC,
		  "syscalls/sys_enter_getppid", NULL, 1 },
		{ "sched:sched_switch", PMC_MODE_SC, "sched/sched_switch", NULL,
		  1 },
		{ "msr/tsc/", PMC_MODE_TC, NULL,
		  "/sys/bus/event_source/devices/msr/events/tsc", 1 },
		{ "power/energy-pkg/", PMC_MODE_SC, NULL,
		  "/sys/bus/event_source/devices/power/events/energy-pkg", 1 },
		{ "INST_RETIRED,usr", PMC_MODE_TC, NULL, NULL, 0 },	/* armv8 */
	};
	enum { N = sizeof(c) / sizeof(c[0]) };
	char name[N][PMC_NAME_MAX + 1];
	int found[N], dyn[N], tried = 0, fd;
	pmc_id_t id[N];
	struct pmclog_ev ev;
	unsigned int i;
	void *p;

	fd = open(self->path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pmc_configure_logfile(fd));
	close(fd);
	for (i = 0; i < N; i++) {
		id[i] = PMC_ID_INVALID;
		found[i] = dyn[i] = 0;
		name[i][0] = '\0';
		if (c[i].tp ? !have_tracepoint(c[i].tp) :
		    c[i].need ? access(c[i].need, F_OK) : !have_armv8()) {
			TH_LOG("%s: not on this machine", c[i].spec);
			continue;
		}
		ASSERT_EQ(0, pmc_allocate(c[i].spec, c[i].mode, 0,
					  c[i].mode == PMC_MODE_SC ? 0 :
					  PMC_CPU_ANY, &id[i], 0))
			TH_LOG("%s: %s", c[i].spec, pmc_allocate_message());
		tried++;
	}
	ASSERT_EQ(0, pmc_close_logfile());
	if (!tried)
		SKIP(return, "no tracepoint and no other PMU here");
	fd = open(self->path, O_RDONLY);
	ASSERT_LE(0, fd);
	p = pmclog_open(fd);
	ASSERT_NE(NULL, p);
	while (pmclog_read(p, &ev) == 0) {
		pmc_id_t rid;
		const char *n;

		if (ev.pl_type == PMCLOG_TYPE_PMCALLOCATE) {
			rid = ev.pl_u.pl_a.pl_pmcid;
			n = ev.pl_u.pl_a.pl_evname;
		} else if (ev.pl_type == PMCLOG_TYPE_PMCALLOCATEDYN) {
			rid = ev.pl_u.pl_ad.pl_pmcid;
			n = ev.pl_u.pl_ad.pl_evname;
		} else {
			continue;
		}
		for (i = 0; i < N; i++)
			if (id[i] != PMC_ID_INVALID && rid == id[i]) {
				found[i]++;
				dyn[i] = ev.pl_type ==
					 PMCLOG_TYPE_PMCALLOCATEDYN;
				snprintf(name[i], sizeof(name[i]), "%s",
					 n ? n : "");
			}
	}
	EXPECT_EQ(PMCLOG_EOF, ev.pl_state);
	pmclog_close(p);
	close(fd);
	for (i = 0; i < N; i++) {
		if (id[i] == PMC_ID_INVALID)
			continue;
		EXPECT_EQ(1, found[i]) TH_LOG("%s", c[i].spec);
		EXPECT_STREQ(c[i].spec, name[i]);
		EXPECT_EQ(c[i].dyn, dyn[i]) TH_LOG("%s", c[i].spec);
		EXPECT_EQ(0, pmc_release(id[i]));
	}
}

/*
 * Vendor event names (issue 12), on the arm64 guest's emulated
 * Cortex-A57: the JSON table's name in FreeBSD's and perf's spelling,
 * the PMU's sysfs encoding and the generic event, user mode only (the
 * qualifiers of each spelling), count the same known loop exactly;
 * CPU_CYCLES counts; the CPU type is FreeBSD's.
 */
#if defined(__aarch64__)
static void loop(unsigned long k)
{
	/* two instructions per iteration */
	asm volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(k) : : "cc");
}
#endif

TEST_F(pmclog, vendor_names_count_a_known_loop)
{
#if defined(__aarch64__)
	static char raw[320];
	const char *spec[] = {
		"INST_RETIRED,usr", "inst_retired:u", raw, "instructions:u",
		"CPU_CYCLES",
	};
	const unsigned long k = 10000000;
	const struct pmc_cpuinfo *ci;
	unsigned long long n0, nintr;
	struct dirent *de;
	pmc_value_t v;
	pmc_id_t id;
	unsigned int i;
	DIR *d;

	/* the core PMU's sysfs name: armv8_pmuv3_0, armv8_cortex_a57, ... */
	d = opendir("/sys/bus/event_source/devices");
	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, "armv8", 5))
			snprintf(raw, sizeof(raw), "%s/event=0x08/u",
				 de->d_name);
	if (d)
		closedir(d);
	if (!raw[0])
		SKIP(return, "no armv8 PMU in /sys/bus/event_source/devices");
	ASSERT_EQ(0, pmc_cpuinfo(&ci));
	EXPECT_EQ(PMC_CPU_ARMV8_CORTEX_A57, ci->pm_cputype)
		TH_LOG("%s", pmc_name_of_cputype(ci->pm_cputype));
	for (i = 0; i < sizeof(spec) / sizeof(spec[0]); i++) {
		ASSERT_EQ(0, pmc_allocate(spec[i], PMC_MODE_TC, 0, PMC_CPU_ANY,
					  &id, 0))
			TH_LOG("%s: %s", spec[i], pmc_allocate_message());
		ASSERT_EQ(0, pmc_attach(id, 0));
		n0 = intr_count();
		ASSERT_EQ(0, pmc_start(id));
		loop(k);
		ASSERT_EQ(0, pmc_stop(id));
		nintr = intr_count() - n0;
		ASSERT_EQ(0, pmc_read(id, &v));
		TH_LOG("%s: %llu over %lu iterations, %llu interrupts", spec[i],
		       (unsigned long long)v, k, nintr);
		if (i + 1 < sizeof(spec) / sizeof(spec[0])) {
			/*
			 * as pmu_instructions_of_a_known_loop, within 0.2%
			 * and 5000 per interrupt: TCG's interrupts in the
			 * loop count as user mode (seen: +23378 over 2e7)
			 */
			EXPECT_LE(2 * k, v);
			EXPECT_GT(2 * k + 2 * k / 500 + 5000 * nintr, v);
		} else {
			EXPECT_LE(k, v);	/* at least a cycle each */
		}
		EXPECT_EQ(0, pmc_release(id));
	}
#else
	SKIP(return, "the known loop is written for arm64");
#endif
}

TEST_HARNESS_MAIN
