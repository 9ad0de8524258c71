// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: the PERF class (perf PMUs other than the core one,
 * tracepoints) and precise events, run as root in a VM.  Tracepoint ids
 * come from tracefs (mounted here on /sys/kernel/tracing when it is
 * not), PMU types from /sys/bus/event_source/devices; a case skips with
 * the reason when the machine has neither.  The unprivileged refusals
 * are hwpmc_security_test's.  The hetero fixture needs the test PMU of
 * samples/hwpmc_hetero_pmu, which hwpmc_hetero.sh loads.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sched.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <linux/hwpmc.h>
#include <linux/hwpmclog.h>

#include "kselftest_harness.h"
#include "hwpmc_selftest.h"

#define NCALLS	1000

/* tracefs's events directory, mounting tracefs if need be; NULL if none */
static const char *tracefs(void)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing/events", "/sys/kernel/debug/tracing/events",
	};
	struct stat sb;
	unsigned int i;

	for (i = 0; i < 2; i++)
		if (!stat(dirs[i], &sb))
			return dirs[i];
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))
		return NULL;
	return stat(dirs[0], &sb) ? NULL : dirs[0];
}

/* The id of tracepoint sys/name, or -1. */
static long tp_id(const char *sys, const char *name)
{
	const char *ev = tracefs();
	char path[256];

	if (!ev)
		return -1;
	snprintf(path, sizeof(path), "%s/%s/%s/id", ev, sys, name);
	return read_int_path(path);
}

/* The perf type of PMU name, or -1. */
static int pmu_type(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
		 name);
	return read_int_path(path);
}

static int perf_alloc(int fd, __u32 mode, __u32 cpu, __u32 type,
		      __u64 config, __u32 caps, __u32 *id)
{
	struct pmc_op_pmcallocate pa = {
		.pm_mode = mode, .pm_class = PMC_CLASS_PERF,
		.pm_ev = PMC_EV_PERF, .pm_cpu = cpu, .pm_caps = caps,
	};

	pa.pm_md.pm_pmu.pm_type = type;
	pa.pm_md.pm_pmu.pm_config = config;
	return pmcallocate(fd, &pa, id);
}

/* A child that waits for a byte on *wfd, then calls getppid() n times. */
static pid_t getppid_child(int *wfd, int n)
{
	int p[2], i;
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(1);
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
		_exit(0);
	}
	close(p[0]);
	*wfd = p[1];
	return pid;
}

FIXTURE(perf) {
	int fd;
	long getppid_id;
};

FIXTURE_SETUP(perf)
{
	self->fd = open(DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	self->getppid_id = tp_id("syscalls", "sys_enter_getppid");
}

FIXTURE_TEARDOWN(perf)
{
	close(self->fd);
}

/* A process-scope count of syscalls:sys_enter_getppid is exact. */
TEST_F(perf, tracepoint_process_count_exact)
{
	__u32 id;
	int wfd, st;
	pid_t pid;

	if (self->getppid_id < 0)
		SKIP(return, "no tracefs or no syscalls:sys_enter_getppid");
	ASSERT_EQ(0, perf_alloc(self->fd, PMC_MODE_TC, PMC_CPU_ANY,
				PERF_TYPE_TRACEPOINT, self->getppid_id, 0,
				&id));
	EXPECT_EQ(PMC_CLASS_PERF, PMC_ID_TO_CLASS(id));
	pid = getppid_child(&wfd, NCALLS);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, attach(self->fd, id, pid));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));
	ASSERT_EQ(1, write(wfd, "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, st);
	EXPECT_EQ(NCALLS, value(self->fd, id));
	close(wfd);
}

/* User mode alone counts no tracepoint: refused, as perf would count 0. */
TEST_F(perf, tracepoint_user_mode_refused)
{
	__u32 id;

	if (self->getppid_id < 0)
		SKIP(return, "no tracefs or no syscalls:sys_enter_getppid");
	EXPECT_EQ(EOPNOTSUPP, perf_alloc(self->fd, PMC_MODE_TC, PMC_CPU_ANY,
					 PERF_TYPE_TRACEPOINT,
					 self->getppid_id, PMC_CAP_USER, &id));
}

/* System scope, as root: every CPU's count adds up to the calls at least. */
TEST_F(perf, tracepoint_system_count)
{
	int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN), cpu, n = 0, wfd, st;
	__u32 ids[64];
	__u64 sum = 0;
	pid_t pid;

	if (self->getppid_id < 0)
		SKIP(return, "no tracefs or no syscalls:sys_enter_getppid");
	for (cpu = 0; cpu < ncpu && n < 64; cpu++) {
		ASSERT_EQ(0, perf_alloc(self->fd, PMC_MODE_SC, cpu,
					PERF_TYPE_TRACEPOINT,
					self->getppid_id, 0, &ids[n]));
		ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, ids[n]));
		n++;
	}
	pid = getppid_child(&wfd, NCALLS);
	ASSERT_LT(0, pid);
	ASSERT_EQ(1, write(wfd, "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	while (n--)
		sum += value(self->fd, ids[n]);
	EXPECT_LE(NCALLS, sum);
	EXPECT_GT(NCALLS + 1000, sum);	/* a quiet guest */
	close(wfd);
}

/* msr/tsc/, a PMU other than the core one, in system and process scope. */
TEST_F(perf, msr_tsc_counts)
{
	int type = pmu_type("msr");
	__u32 id, id2;

	if (type < 0)
		SKIP(return, "no msr PMU in /sys/bus/event_source/devices");
	/* msr/tsc/ is event=0x00 (arch/x86/events/msr.c) */
	ASSERT_EQ(0, perf_alloc(self->fd, PMC_MODE_SC, 0, type, 0, 0, &id));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));
	ASSERT_EQ(0, perf_alloc(self->fd, PMC_MODE_TC, PMC_CPU_ANY, type, 0,
				0, &id2));
	ASSERT_EQ(0, attach(self->fd, id2, 0));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id2));
	spin(0.05);
	EXPECT_LT(0, value(self->fd, id));
	EXPECT_LT(0, value(self->fd, id2));
	/* it counts every mode: no user-only filter, no sampling */
	EXPECT_EQ(EOPNOTSUPP, perf_alloc(self->fd, PMC_MODE_SC, 0, type, 0,
					 PMC_CAP_USER, &id));
	{
		struct pmc_op_pmcallocate pa = {
			.pm_mode = PMC_MODE_SS, .pm_class = PMC_CLASS_PERF,
			.pm_ev = PMC_EV_PERF, .pm_cpu = 0,
			.pm_count = 100000,
		};

		pa.pm_md.pm_pmu.pm_type = type;
		EXPECT_EQ(EOPNOTSUPP, pmcallocate(self->fd, &pa, &id));
	}
}

/* Types the PERF class does not take, or that do not exist. */
TEST_F(perf, bad_types_refused)
{
	int kprobe = pmu_type("kprobe");
	__u32 id;

	EXPECT_EQ(ENOENT, perf_alloc(self->fd, PMC_MODE_TC, PMC_CPU_ANY,
				     0x7fff0000, 0, 0, &id));
	EXPECT_EQ(EINVAL, perf_alloc(self->fd, PMC_MODE_TC, PMC_CPU_ANY,
				     PERF_TYPE_HARDWARE, 0, 0, &id));
	EXPECT_EQ(EINVAL, perf_alloc(self->fd, PMC_MODE_TC, PMC_CPU_ANY,
				     PERF_TYPE_SOFTWARE, 0, 0, &id));
	EXPECT_EQ(EINVAL, perf_alloc(self->fd, PMC_MODE_TC, PMC_CPU_ANY,
				     PERF_TYPE_BREAKPOINT, 0, 0, &id));
	/* no tracepoint has this id */
	EXPECT_EQ(EINVAL, perf_alloc(self->fd, PMC_MODE_TC, PMC_CPU_ANY,
				     PERF_TYPE_TRACEPOINT, 0x7ffffff0, 0,
				     &id));
	if (kprobe >= 0)
		EXPECT_EQ(EINVAL, perf_alloc(self->fd, PMC_MODE_TC,
					     PMC_CPU_ANY, kprobe, 0, 0, &id));
	/* pm_type is the PERF class's only */
	{
		struct pmc_op_pmcallocate pa = {
			.pm_mode = PMC_MODE_TC, .pm_class = PMC_CLASS_SOFT,
			.pm_ev = EV_SOFT(TASK_CLOCK), .pm_cpu = PMC_CPU_ANY,
		};

		pa.pm_md.pm_pmu.pm_type = PERF_TYPE_TRACEPOINT;
		EXPECT_EQ(EINVAL, pmcallocate(self->fd, &pa, &id));
	}
}

/* perf's precise_ip: refused where the PMU cannot (no PEBS here). */
TEST_F(perf, precise_refused)
{
	struct pmc_op_pmcallocate pa = {
		.pm_mode = PMC_MODE_TS, .pm_class = PMC_CLASS_SOFT,
		.pm_ev = EV_SOFT(TASK_CLOCK), .pm_cpu = PMC_CPU_ANY,
		.pm_caps = PMC_CAP_PRECISE | PMC_CAP_USER, .pm_count = 100000,
	};
	struct pmc_op_caps gc = {
		.pm_pmcid = PMC_ID_INVALID, .pm_class = PMC_CLASS_PMU,
		.pm_ev = EV_PMU(CPU_CYCLES),
	};
	__u32 id;

	EXPECT_EQ(EOPNOTSUPP, pmcallocate(self->fd, &pa, &id));
	pa.pm_md.pm_pmu.pm_precise = 4;
	EXPECT_EQ(EOPNOTSUPP, pmcallocate(self->fd, &pa, &id));
	pa.pm_caps = PMC_CAP_USER;
	pa.pm_md.pm_pmu.pm_precise = 1;	/* without PMC_CAP_PRECISE */
	EXPECT_EQ(EINVAL, pmcallocate(self->fd, &pa, &id));
	if (xioctl(self->fd, HWPMC_IOC_GETCAPS, &gc))
		SKIP(return, "no hardware PMU: precise cycles not tried");
	if (gc.pm_caps & PMC_CAP_PRECISE)
		SKIP(return, "the PMU has precise events (PEBS)");
	pa.pm_class = PMC_CLASS_PMU;
	pa.pm_ev = EV_PMU(CPU_CYCLES);
	pa.pm_caps = PMC_CAP_PRECISE | PMC_CAP_USER;
	EXPECT_EQ(EOPNOTSUPP, pmcallocate(self->fd, &pa, &id));
}

#define NPING	2000

/* What the ping-pong's processes saw of their own switches. */
struct pingpong {
	long	p0, p1;		/* the parent's, before and after */
	long	c;		/* the child's, before its exit */
};

/* The calling process's context switches, voluntary or not. */
static long nswitches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return -1;
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

/*
 * The counted pair: once go has a byte, the parent forks a child and
 * they exchange n bytes over two pipes, one round trip per byte; each
 * writes its own switch counts into *r (shared memory).  Never returns.
 */
static void pingpong(int go, struct pingpong *r, int n)
{
	int a[2], b[2], i, st;
	pid_t pid;
	char c = 0;

	if (read(go, &c, 1) != 1)
		_exit(1);
	r->p0 = nswitches();
	if (pipe(a) || pipe(b))
		_exit(2);
	pid = fork();
	if (pid < 0)
		_exit(3);
	if (pid == 0) {
		for (i = 0; i < n; i++)
			if (read(a[0], &c, 1) != 1 || write(b[1], &c, 1) != 1)
				_exit(4);
		r->c = nswitches();
		_exit(0);
	}
	for (i = 0; i < n; i++)
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			_exit(5);
	if (waitpid(pid, &st, 0) != pid || st)
		_exit(6);
	r->p1 = nswitches();
	_exit(0);
}

/*
 * sched:sched_switch counts the switches of a pipe ping-pong (issue 12):
 * a process PMC with PMC_F_DESCENDANTS on the parent counts the parent's
 * and its child's.  The exact reference is the kernel's own count of the
 * same thing: __schedule() increments the task's nvcsw or nivcsw (what
 * getrusage() reports) right where it fires sched_switch with that task
 * as prev, and nowhere else.  Every switch the pair's getrusage() saw
 * between the parent's first and last reading (the child's whole life
 * up to its last reading) falls inside the PMC's run, so the count is
 * at least their sum; it exceeds it only by the few switches at the
 * edges (the parent blocking on go after the start, a preemption after
 * a reading, the exit paths).  Each round trip normally blocks both,
 * about 2 * NPING in all.
 */
TEST_F(perf, sched_switch_counts_a_pipe_ping_pong)
{
	long sw = tp_id("sched", "sched_switch"), want;
	struct pmc_op_pmcallocate pa = {
		.pm_mode = PMC_MODE_TC, .pm_class = PMC_CLASS_PERF,
		.pm_ev = PMC_EV_PERF, .pm_cpu = PMC_CPU_ANY,
		.pm_flags = PMC_F_DESCENDANTS,
	};
	struct pingpong *r;
	int go[2], st;
	__u64 v;
	__u32 id;
	pid_t pid;

	if (sw < 0)
		SKIP(return, "no tracefs or no sched:sched_switch");
	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, r);
	r->p0 = r->p1 = r->c = -1;
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(go[1]);
		pingpong(go[0], r, NPING);
	}
	close(go[0]);
	pa.pm_md.pm_pmu.pm_type = PERF_TYPE_TRACEPOINT;
	pa.pm_md.pm_pmu.pm_config = sw;
	ASSERT_EQ(0, pmcallocate(self->fd, &pa, &id));
	ASSERT_EQ(0, attach(self->fd, id, pid));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_EQ(0, st);
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTOP, id));
	v = value(self->fd, id);
	ASSERT_LE(0, r->p0);
	ASSERT_LE(0, r->c);
	ASSERT_LE(r->p0, r->p1);
	want = r->p1 - r->p0 + r->c;
	TH_LOG("%d round trips: %llu switches counted, getrusage %ld (parent %ld, child %ld)",
	       NPING, (unsigned long long)v, want, r->p1 - r->p0, r->c);
	EXPECT_LE((__u64)want, v);
	EXPECT_GE((__u64)want + 10 + NPING / 100, v);
	/* and only the pair: the child's alone, or the parent's, are fewer */
	EXPECT_LT((__u64)r->c, v);
	EXPECT_LT((__u64)(r->p1 - r->p0), v);
	EXPECT_EQ(0, simple(self->fd, HWPMC_IOC_PMCRELEASE, id));
	close(go[1]);
	munmap(r, sizeof(*r));
}

/* PMCALLOCATE_NAMED of a PERF-class event; 0 or an errno. */
static int perf_alloc_named(int fd, __u32 mode, __u32 cpu, __u32 type,
			    __u64 config, const char *name, __u32 *id)
{
	struct pmc_op_pmcallocate_named pn = {
		.pm_a = {
			.pm_mode = mode, .pm_class = PMC_CLASS_PERF,
			.pm_ev = PMC_EV_PERF, .pm_cpu = cpu,
		},
	};
	int e;

	pn.pm_a.pm_md.pm_pmu.pm_type = type;
	pn.pm_a.pm_md.pm_pmu.pm_config = config;
	snprintf(pn.pm_evname, sizeof(pn.pm_evname), "%s", name);
	e = xioctl(fd, HWPMC_IOC_PMCALLOCATE_NAMED, &pn);
	if (!e)
		*id = pn.pm_a.pm_pmcid;
	return e;
}

/*
 * The name of PMC id in the log file path's PMCALLOCATE(DYN) record,
 * into name; the record's type, or 0 if none.
 */
static int logged_name(const char *path, __u32 id, char *name, size_t len)
{
	static char buf[1 << 16];
	const struct pmclog_pmcallocate *a;
	const struct pmclog_header *h;
	size_t off = 0, n, rl;
	int fd = open(path, O_RDONLY), type = 0;
	ssize_t r;

	if (fd < 0)
		return 0;
	r = read(fd, buf, sizeof(buf));
	close(fd);
	n = r > 0 ? (size_t)r : 0;
	while (off + sizeof(*h) <= n) {
		h = (const void *)(buf + off);
		rl = PMCLOG_HEADER_TO_LENGTH(h->pl_header);
		if (rl < sizeof(*h) || off + rl > n)
			break;
		a = (const void *)h;
		if ((PMCLOG_HEADER_TO_TYPE(h->pl_header) ==
		     PMCLOG_TYPE_PMCALLOCATE ||
		     PMCLOG_HEADER_TO_TYPE(h->pl_header) ==
		     PMCLOG_TYPE_PMCALLOCATEDYN) &&
		    rl >= sizeof(*a) && a->pl_pmcid == id) {
			type = PMCLOG_HEADER_TO_TYPE(h->pl_header);
			snprintf(name, len, "%.*s", PMC_NAME_MAX, a->pl_evname);
		}
		off += rl;
	}
	return type;
}

/*
 * The event's name in the log (issue 12): the caller's, given with
 * PMCALLOCATE_NAMED, for a PERF-class or raw event; the module's own
 * without one (a tracepoint's "system:name", "pmu/config=.../"); a
 * name that is not printable ASCII ended within PMC_NAME_MAX, or
 * reserved bits, are EINVAL; a SOFT event keeps its own name.
 */
TEST_F(perf, names_in_the_log)
{
	char path[64], name[PMC_NAME_MAX + 1];
	struct pmc_op_pmcallocate_named pn = {
		.pm_a = {
			.pm_mode = PMC_MODE_TC, .pm_class = PMC_CLASS_SOFT,
			.pm_ev = EV_SOFT(CPU_CLOCK), .pm_cpu = PMC_CPU_ANY,
		},
	};
	struct pmc_op_configurelog cl = { 0 };
	int msr = pmu_type("msr");
	__u32 tp1 = 0, tp2 = 0, m1 = 0, m2 = 0, soft = 0, id;

	snprintf(path, sizeof(path), "/tmp/hwpmc-perfnames.%d", getpid());
	cl.pm_logfd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ASSERT_LE(0, cl.pm_logfd);
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_CONFIGURELOG, &cl));
	close(cl.pm_logfd);
	if (self->getppid_id >= 0) {
		ASSERT_EQ(0, perf_alloc(self->fd, PMC_MODE_TC, PMC_CPU_ANY,
					PERF_TYPE_TRACEPOINT,
					self->getppid_id, 0, &tp1));
		ASSERT_EQ(0, perf_alloc_named(self->fd, PMC_MODE_TC,
					      PMC_CPU_ANY,
					      PERF_TYPE_TRACEPOINT,
					      self->getppid_id, "getppid calls",
					      &tp2));
	}
	if (msr >= 0) {
		ASSERT_EQ(0, perf_alloc(self->fd, PMC_MODE_TC, PMC_CPU_ANY,
					msr, 0, 0, &m1));
		ASSERT_EQ(0, perf_alloc_named(self->fd, PMC_MODE_TC,
					      PMC_CPU_ANY, msr, 0, "msr/tsc/",
					      &m2));
	}
	strcpy(pn.pm_evname, "not cpu-clock");
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_PMCALLOCATE_NAMED, &pn));
	soft = pn.pm_a.pm_pmcid;
	/* refusals: a control character, no NUL, reserved bits, a bad pointer */
	pn.pm_evname[3] = '\n';
	EXPECT_EQ(EINVAL, xioctl(self->fd, HWPMC_IOC_PMCALLOCATE_NAMED, &pn));
	memset(pn.pm_evname, 'x', sizeof(pn.pm_evname));
	EXPECT_EQ(EINVAL, xioctl(self->fd, HWPMC_IOC_PMCALLOCATE_NAMED, &pn));
	pn.pm_evname[PMC_NAME_MAX - 1] = '\0';
	pn.pm__reserved[1] = 1;
	EXPECT_EQ(EINVAL, xioctl(self->fd, HWPMC_IOC_PMCALLOCATE_NAMED, &pn));
	EXPECT_EQ(EFAULT, xioctl(self->fd, HWPMC_IOC_PMCALLOCATE_NAMED,
				 (void *)8));
	pn.pm__reserved[1] = 0;
	EXPECT_EQ(0, xioctl(self->fd, HWPMC_IOC_PMCALLOCATE_NAMED, &pn));
	id = pn.pm_a.pm_pmcid;
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));

	if (tp1) {
		EXPECT_EQ(PMCLOG_TYPE_PMCALLOCATEDYN,
			  logged_name(path, tp1, name, sizeof(name)));
		EXPECT_STREQ("syscalls:sys_enter_getppid", name);
		EXPECT_EQ(PMCLOG_TYPE_PMCALLOCATEDYN,
			  logged_name(path, tp2, name, sizeof(name)));
		EXPECT_STREQ("getppid calls", name);
	}
	if (m1) {
		EXPECT_EQ(PMCLOG_TYPE_PMCALLOCATEDYN,
			  logged_name(path, m1, name, sizeof(name)));
		EXPECT_STREQ("msr/config=0x0/", name);
		EXPECT_EQ(PMCLOG_TYPE_PMCALLOCATEDYN,
			  logged_name(path, m2, name, sizeof(name)));
		EXPECT_STREQ("msr/tsc/", name);
	}
	EXPECT_EQ(PMCLOG_TYPE_PMCALLOCATEDYN,
		  logged_name(path, soft, name, sizeof(name)));
	EXPECT_STREQ("cpu-clock", name);
	EXPECT_EQ(PMCLOG_TYPE_PMCALLOCATEDYN,
		  logged_name(path, id, name, sizeof(name)));
	EXPECT_STREQ("cpu-clock", name);
	unlink(path);
	if (!tp1 && !m1)
		SKIP(return, "no tracefs and no msr PMU: SOFT names only");
}

/*
 * -- a second core PMU of some CPUs -------------------------------------
 *
 * samples/hwpmc_hetero_pmu's "hwpmc_hetero" (loaded by hwpmc_hetero.sh):
 * a hardware task context of CPU 1 only, as hybrid Intel's cpu_atom is
 * of the E-cores; its one event (config 0) counts the nanoseconds its
 * counter was on the PMU.  The cases skip without it.
 */
#define HETERO_PMU	"hwpmc_hetero"
#define HETERO_CPU	1

FIXTURE(hetero) {
	int fd;
	int type;
};

FIXTURE_SETUP(hetero)
{
	self->fd = open(DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	self->type = pmu_type(HETERO_PMU);
}

FIXTURE_TEARDOWN(hetero)
{
	close(self->fd);
}

/* The calling thread on CPU cpu only: 0 or -1. */
static int pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* The calling thread's CPU time, in nanoseconds. */
static __u64 thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + (__u64)ts.tv_nsec;
}

/*
 * A process PMC of the PMU counts its target while it runs on the PMU's
 * CPU (about its CPU time there), and nothing while it runs on another.
 */
TEST_F(hetero, process_counts_on_its_cpus_only)
{
	__u64 v0, v1, t0, t1;
	__u32 id;

	if (self->type < 0)
		SKIP(return, "no %s PMU (samples/hwpmc_hetero_pmu)", HETERO_PMU);
	ASSERT_EQ(0, perf_alloc(self->fd, PMC_MODE_TC, PMC_CPU_ANY,
				self->type, 0, 0, &id));
	EXPECT_EQ(PMC_CLASS_PERF, PMC_ID_TO_CLASS(id));
	ASSERT_EQ(0, attach(self->fd, id, 0));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));

	ASSERT_EQ(0, pin_self(HETERO_CPU));
	v0 = value(self->fd, id);
	t0 = thread_ns();
	spin(0.2);
	v1 = value(self->fd, id);
	t1 = thread_ns();
	TH_LOG("on CPU %d: %llu ns counted, %llu ns of CPU time", HETERO_CPU,
	       (unsigned long long)(v1 - v0), (unsigned long long)(t1 - t0));
	EXPECT_LE((t1 - t0) / 10 * 7, v1 - v0);
	EXPECT_GE((t1 - t0) / 10 * 13 + 5000000, v1 - v0);

	ASSERT_EQ(0, pin_self(0));
	v0 = value(self->fd, id);
	t0 = thread_ns();
	spin(0.2);
	v1 = value(self->fd, id);
	t1 = thread_ns();
	TH_LOG("on CPU 0: %llu ns counted, %llu ns of CPU time",
	       (unsigned long long)(v1 - v0), (unsigned long long)(t1 - t0));
	EXPECT_EQ(0, v1 - v0);
	EXPECT_LT(50000000, t1 - t0);
}

/* System scope: on the PMU's CPU it counts; on another, ENODEV. */
TEST_F(hetero, system_on_its_cpus_only)
{
	__u64 v;
	__u32 id;

	if (self->type < 0)
		SKIP(return, "no %s PMU (samples/hwpmc_hetero_pmu)", HETERO_PMU);
	EXPECT_EQ(ENODEV, perf_alloc(self->fd, PMC_MODE_SC, 0, self->type, 0,
				     0, &id));
	ASSERT_EQ(0, perf_alloc(self->fd, PMC_MODE_SC, HETERO_CPU, self->type,
				0, 0, &id));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));
	spin(0.1);
	v = value(self->fd, id);
	TH_LOG("CPU %d: %llu ns in 0.1 s", HETERO_CPU, (unsigned long long)v);
	/* the counter is on the PMU all the time: at least the wall time */
	EXPECT_LE(100000000, v);
	EXPECT_GT(100000000000ULL, v);
	/* it counts every mode and cannot sample */
	EXPECT_EQ(EOPNOTSUPP, perf_alloc(self->fd, PMC_MODE_SC, HETERO_CPU,
					 self->type, 0, PMC_CAP_USER, &id));
	{
		struct pmc_op_pmcallocate pa = {
			.pm_mode = PMC_MODE_TS, .pm_class = PMC_CLASS_PERF,
			.pm_ev = PMC_EV_PERF, .pm_cpu = PMC_CPU_ANY,
			.pm_count = 100000,
		};

		pa.pm_md.pm_pmu.pm_type = self->type;
		EXPECT_EQ(EOPNOTSUPP, pmcallocate(self->fd, &pa, &id));
	}
}

/*
 * The core PMU (the PMU class's: PERF_TYPE_RAW's, armv8_pmuv3 in the
 * arm64 guest, heterogeneous to perf as every arm_pmu is) stays out of
 * the PERF class: its rows account for its counters.  Core PMUs are the
 * sysfs PMUs with a `cpus` file (arm_pmu, x86's hybrid PMUs) but the
 * test PMU, and x86's "cpu".
 */
TEST_F(hetero, core_pmu_refused)
{
	char path[512];
	struct dirent *de;
	unsigned int n = 0;
	struct stat sb;
	__u32 id;
	DIR *dir;
	int type;

	dir = opendir("/sys/bus/event_source/devices");
	ASSERT_NE(NULL, dir);
	while ((de = readdir(dir))) {
		snprintf(path, sizeof(path),
			 "/sys/bus/event_source/devices/%s/cpus", de->d_name);
		if (de->d_name[0] == '.' || !strcmp(de->d_name, HETERO_PMU) ||
		    (stat(path, &sb) && strcmp(de->d_name, "cpu")))
			continue;
		type = pmu_type(de->d_name);
		if (type < 0)
			continue;
		TH_LOG("%s: type %d", de->d_name, type);
		EXPECT_EQ(EINVAL, perf_alloc(self->fd, PMC_MODE_TC,
					     PMC_CPU_ANY, type, 0x11, 0, &id));
		EXPECT_EQ(EINVAL, perf_alloc(self->fd, PMC_MODE_SC, 0, type,
					     0x11, 0, &id));
		n++;
	}
	closedir(dir);
	if (!n)
		SKIP(return, "no core PMU in /sys/bus/event_source/devices");
}

TEST_HARNESS_MAIN
