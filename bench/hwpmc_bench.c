// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: the benchmark suite against perf (docs/performance.md).
 * Every benchmark runs hwpmc and perf on the same workload in the same
 * boot, alternating between the two in each repetition, and prints the
 * median and the spread (min..max) of each and the ratio hwpmc/perf of
 * the medians.  Root, module loaded.
 *
 *   hwpmc_bench [-q] [all | read | startstop | csw | attach | sample | mem ...]
 *   hwpmc_bench spin ITERATIONS OUTFILE     (the sampling workload)
 *   hwpmc_bench loop read-hwpmc|read-perf|startstop-hwpmc|startstop-perf|
 *                    sample-hwpmc SECS
 *                                           (one operation, to profile)
 *
 *   -q   quick: few repetitions, small sizes (the smoke test in make check)
 *
 * Events: software events (task-clock, page-faults, cpu-clock, ...) where
 * the machine has no PMU (x86 guests under TCG); the hardware instructions
 * and cycles events where it has one (the arm64 guest's emulated PMUv3).
 * The sampling benchmark compares with the perf tool ("perf record"),
 * when it is in PATH; everything else calls perf_event_open() directly.
 *
 * Output: one line per measurement, the median and [first..third
 * quartile] of the repetitions,
 *   bench: NAME  hwpmc MED [Q1..Q3]  perf MED [Q1..Q3]  ratio R  UNIT
 * and "bench: done, N results" at the end (exit 1 if a benchmark failed).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <asm/perf_regs.h>
#include <linux/hwpmc.h>
#include <linux/hwpmclog.h>
#include <pmc.h>

#define MAXRUNS		64

static int quick;
static int nresults, nfailed;

/* -- events: the same event as an hwpmc spec and a perf attribute --------- */

struct ev {
	const char	*spec;
	__u32		type;
	__u64		config;
};

static const struct ev sw_events[4] = {
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
};

/* QEMU's PMUv3 has cycles and instructions (6 counters + the cycle counter) */
static const struct ev hw_events[4] = {
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
};

static const struct ev ev_pagefaults = {
	"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS
};
static const struct ev ev_cpuclock = {
	"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK
};

static const struct ev *events;	/* the 4 events of this machine */
static int have_pmu;

/* -- helpers -------------------------------------------------------------- */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "hwpmc_bench: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	if (sched_setaffinity(0, sizeof(s), &s))
		die("sched_setaffinity");
}

static void unpin(void)
{
	cpu_set_t s;
	int i;

	CPU_ZERO(&s);
	for (i = 0; i < CPU_SETSIZE; i++)
		CPU_SET(i, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static int perf_open(const struct ev *e, pid_t pid, int cpu, int inherit)
{
	struct perf_event_attr at = {
		.type = e->type, .size = sizeof(at), .config = e->config,
		.inherit = inherit,
	};

	return (int)syscall(SYS_perf_event_open, &at, pid, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

/* an hwpmc PMC of event e, or die */
static pmc_id_t pmc_new(const struct ev *e, enum pmc_mode mode, int cpu,
			uint32_t flags, uint64_t count)
{
	pmc_id_t id;

	if (pmc_allocate(e->spec, mode, flags, cpu, &id, count) < 0) {
		fprintf(stderr, "hwpmc_bench: pmc_allocate %s: %s (%s)\n",
			e->spec, strerror(errno), pmc_allocate_message());
		exit(2);
	}
	return id;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct st {
	double med, min, max;	/* median, first and third quartiles */
};

/* median and quartiles (linear interpolation) */
static double quantile(const double *v, int n, double q)
{
	double x = q * (n - 1);
	int i = (int)x;

	return i + 1 < n ? v[i] + (x - i) * (v[i + 1] - v[i]) : v[n - 1];
}

static struct st stats(double *v, int n)
{
	struct st s = { 0, 0, 0 };

	if (n <= 0)
		return s;
	qsort(v, n, sizeof(v[0]), cmp);
	s.min = quantile(v, n, 0.25);
	s.max = quantile(v, n, 0.75);
	s.med = quantile(v, n, 0.5);
	return s;
}

/* one result line; perf NULL: hwpmc alone */
static void result(const char *name, const char *unit, double *h, double *p,
		   int n)
{
	struct st a = stats(h, n), b;

	nresults++;
	if (!p) {
		printf("bench: %-44s hwpmc %9.1f [%.1f..%.1f]  perf %9s  ratio %5s  %s\n",
		       name, a.med, a.min, a.max, "n/a", "n/a", unit);
	} else {
		char ratio[16] = "n/a";

		b = stats(p, n);
		if (b.med != 0)
			snprintf(ratio, sizeof(ratio), "%.2f", a.med / b.med);
		printf("bench: %-44s hwpmc %9.1f [%.1f..%.1f]  perf %9.1f [%.1f..%.1f]  ratio %5s  %s\n",
		       name, a.med, a.min, a.max, b.med, b.min, b.max, ratio,
		       unit);
	}
	fflush(stdout);
}

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void failed(const char *what)
{
	nfailed++;
	printf("bench: FAILED %s: %s\n", what, strerror(errno));
	fflush(stdout);
}

/* -- 1. counter read ------------------------------------------------------ */

static double time_pmc_read(pmc_id_t id, long n)
{
	pmc_value_t v;
	double t0 = now();
	long i;

	for (i = 0; i < n; i++)
		if (pmc_read(id, &v) < 0)
			die("pmc_read");
	return (now() - t0) / n;
}

static double time_perf_read(int fd, long n)
{
	__u64 v;
	double t0 = now();
	long i;

	for (i = 0; i < n; i++)
		if (read(fd, &v, sizeof(v)) != sizeof(v))
			die("read perf fd");
	return (now() - t0) / n;
}

static void read_one(const struct ev *e, int sys, long n, int runs)
{
	double h[MAXRUNS], p[MAXRUNS];
	char name[80];
	pmc_id_t id;
	int fd, r;

	if (sys) {
		id = pmc_new(e, PMC_MODE_SC, 0, 0, 0);
		fd = perf_open(e, -1, 0, 0);
	} else {
		id = pmc_new(e, PMC_MODE_TC, PMC_CPU_ANY, 0, 0);
		if (pmc_attach(id, getpid()) < 0)
			die("pmc_attach self");
		fd = perf_open(e, 0, -1, 0);
	}
	if (fd < 0)
		die("perf_event_open");
	if (pmc_start(id) < 0)
		die("pmc_start");
	time_pmc_read(id, n / 10 + 1);	/* warm */
	time_perf_read(fd, n / 10 + 1);
	for (r = 0; r < runs; r++) {
		h[r] = time_pmc_read(id, n);
		p[r] = time_perf_read(fd, n);
	}
	pmc_release(id);
	close(fd);
	snprintf(name, sizeof(name), "read %s %s", sys ? "system" : "process",
		 e->spec);
	result(name, "ns/read", h, p, runs);
}

static void b_read(void)
{
	long n = quick ? 2000 : 20000;
	int runs = quick ? 3 : 9;

	pin(0);
	if (have_pmu) {
		read_one(&hw_events[0], 0, n, runs);
		read_one(&hw_events[0], 1, n, runs);
	} else {
		read_one(&sw_events[0], 0, n, runs);
		read_one(&ev_pagefaults, 0, n, runs);
		read_one(&ev_cpuclock, 1, n, runs);
		read_one(&ev_pagefaults, 1, n, runs);
	}
	unpin();
}

/*
 * 1b. perf's own user-space read (perf_event_mmap_page, the counter read
 * with mrs; arm64's config1 rdpmc bit and sysctl kernel.perf_user_access),
 * what a direct read would cost, which hwpmc does not offer (docs/design.md,
 * decision 25), against pmc_read() and perf's read() in the same run.
 */
#if defined(__aarch64__)
#define EVCNTR(n)							\
	case n:								\
		asm volatile("mrs %0, pmevcntr" #n "_el0" : "=r"(v));	\
		break;
static uint64_t user_counter(uint32_t i)
{
	uint64_t v = 0;

	switch (i) {
	EVCNTR(0) EVCNTR(1) EVCNTR(2) EVCNTR(3) EVCNTR(4) EVCNTR(5)
	EVCNTR(6) EVCNTR(7) EVCNTR(8) EVCNTR(9) EVCNTR(10) EVCNTR(11)
	EVCNTR(12) EVCNTR(13) EVCNTR(14) EVCNTR(15) EVCNTR(16) EVCNTR(17)
	EVCNTR(18) EVCNTR(19) EVCNTR(20) EVCNTR(21) EVCNTR(22) EVCNTR(23)
	EVCNTR(24) EVCNTR(25) EVCNTR(26) EVCNTR(27) EVCNTR(28) EVCNTR(29)
	EVCNTR(30)
	case 31:
		asm volatile("mrs %0, pmccntr_el0" : "=r"(v));
		break;
	}
	return v;
}

/* perf_event_open(2)'s loop over the mapped page; 0 when it offers none */
static int perf_uread(volatile struct perf_event_mmap_page *pc, uint64_t *v)
{
	uint32_t seq, idx;
	uint64_t count;
	int64_t pmc;
	int width;

	do {
		seq = pc->lock;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		idx = pc->index;
		if (!pc->cap_user_rdpmc || !idx)
			return 0;
		width = pc->pmc_width;
		count = pc->offset;
		pmc = (int64_t)(user_counter(idx - 1) << (64 - width));
		count += (uint64_t)(pmc >> (64 - width));
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
	} while (pc->lock != seq);
	*v = count;
	return 1;
}

static double time_perf_uread(volatile struct perf_event_mmap_page *pc,
			      long n)
{
	double t0 = now();
	uint64_t v;
	long i;

	for (i = 0; i < n; i++)
		if (!perf_uread(pc, &v))
			return -1;
	return (now() - t0) / n;
}

static void b_uread(void)
{
	long n = quick ? 2000 : 20000;
	int runs = quick ? 3 : 9, fd, rfd, r, sys = -1;
	double h[MAXRUNS], p[MAXRUNS], k[MAXRUNS];
	const struct ev *e = &hw_events[0];
	struct perf_event_attr at = {
		.type = e->type, .size = sizeof(at), .config = e->config,
		.config1 = 0x2,		/* rdpmc: config1:1 (arm_pmuv3) */
	};
	volatile struct perf_event_mmap_page *pc;
	uint64_t a, b;
	pmc_value_t c;
	pmc_id_t id;
	FILE *f;

	if (!have_pmu) {
		note("uread: no PMU, no user-space read to compare with");
		return;
	}
	f = fopen("/proc/sys/kernel/perf_user_access", "r+");
	if (!f || fscanf(f, "%d", &sys) != 1 || fseek(f, 0, SEEK_SET) ||
	    fputs("1", f) < 0 || fflush(f)) {
		note("uread: no kernel.perf_user_access: %s", strerror(errno));
		if (f)
			fclose(f);
		return;
	}
	pin(0);
	fd = (int)syscall(SYS_perf_event_open, &at, 0, -1, -1,
			  PERF_FLAG_FD_CLOEXEC);
	rfd = perf_open(e, 0, -1, 0);
	if (fd < 0 || rfd < 0) {
		failed("uread: perf_event_open with config1 rdpmc");
		goto out;
	}
	pc = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED) {
		failed("uread: mmap of the perf fd");
		goto out;
	}
	id = pmc_new(e, PMC_MODE_TC, PMC_CPU_ANY, 0, 0);
	if (pmc_attach(id, getpid()) < 0 || pmc_start(id) < 0)
		die("pmc_attach/start self");
	/* perf's two reads agree: the user-space one is right */
	if (!perf_uread(pc, &a) || read(fd, &b, sizeof(b)) != sizeof(b) ||
	    !perf_uread(pc, &c)) {
		errno = EOPNOTSUPP;
		failed("uread: perf offers no user-space read");
		goto out_pmc;
	}
	if (a > b || b > c)
		note("uread: perf's reads out of order: %llu %llu %llu",
		     (unsigned long long)a, (unsigned long long)b,
		     (unsigned long long)c);
	time_pmc_read(id, n / 10 + 1);
	time_perf_uread(pc, n / 10 + 1);
	time_perf_read(rfd, n / 10 + 1);
	for (r = 0; r < runs; r++) {
		h[r] = time_pmc_read(id, n);
		p[r] = time_perf_uread(pc, n);
		k[r] = time_perf_read(rfd, n);
	}
	result("read process instructions, perf user-space", "ns/read", h, p,
	       runs);
	result("read process instructions, perf user/read()", "ns/read", p, k,
	       runs);
out_pmc:
	pmc_release(id);
	munmap((void *)pc, sysconf(_SC_PAGESIZE));
out:
	if (fd >= 0)
		close(fd);
	if (rfd >= 0)
		close(rfd);
	rewind(f);
	fprintf(f, "%d", sys);
	fclose(f);
	unpin();
}
#else
static void b_uread(void)
{
	note("uread: perf's user-space read is measured on arm64 only");
}
#endif

/* -- 2. start/stop bracket ------------------------------------------------ */

static void b_startstop(void)
{
	long n = quick ? 1000 : 10000, i;
	int runs = quick ? 3 : 9, r, fd;
	double h[MAXRUNS], p[MAXRUNS], t0;
	const struct ev *e = &events[0];
	char name[80];
	pmc_id_t id;

	pin(0);
	id = pmc_new(e, PMC_MODE_TC, PMC_CPU_ANY, 0, 0);
	if (pmc_attach(id, getpid()) < 0)
		die("pmc_attach self");
	fd = perf_open(e, 0, -1, 0);
	if (fd < 0)
		die("perf_event_open");
	for (r = -1; r < runs; r++) {	/* r == -1: warm-up */
		t0 = now();
		for (i = 0; i < n; i++)
			if (pmc_start(id) < 0 || pmc_stop(id) < 0)
				die("pmc_start/stop");
		if (r >= 0)
			h[r] = (now() - t0) / n;
		t0 = now();
		for (i = 0; i < n; i++)
			if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) ||
			    ioctl(fd, PERF_EVENT_IOC_DISABLE, 0))
				die("PERF_EVENT_IOC_ENABLE/DISABLE");
		if (r >= 0)
			p[r] = (now() - t0) / n;
	}
	pmc_release(id);
	close(fd);
	unpin();
	snprintf(name, sizeof(name), "start+stop process %s", e->spec);
	result(name, "ns/pair", h, p, runs);
}

/* -- 3. context switches -------------------------------------------------- */

/* the echoing side: waits for go, then echoes n bytes */
static pid_t echoer(int in, int out, int go, long n)
{
	pid_t pid = fork();
	char c;
	long i;

	if (pid < 0)
		die("fork");
	if (pid)
		return pid;
	pin(0);
	if (read(go, &c, 1) != 1)
		_exit(1);
	for (i = 0; i < n; i++)
		if (read(in, &c, 1) != 1 || write(out, &c, 1) != 1)
			_exit(1);
	_exit(0);
}

enum tool { NONE, HWPMC, PERF };

/* one run: ns per round trip, with nev counters of the tool on both sides */
static double pingpong(enum tool tool, int nev, long n)
{
	int to[2], from[2], go[2], pfd[8], np = 0, nid = 0, i, w;
	pmc_id_t ids[8];
	pid_t pid, who[2];
	double t0, t;
	char c = 'x';
	long k;

	if (pipe(to) || pipe(from) || pipe(go))
		die("pipe");
	pid = echoer(to[0], from[1], go[0], n);
	who[0] = getpid();
	who[1] = pid;
	for (i = 0; i < nev; i++) {
		if (tool == HWPMC) {
			/* one PMC per event, attached to both */
			ids[nid] = pmc_new(&events[i], PMC_MODE_TC,
					   PMC_CPU_ANY, 0, 0);
			for (w = 0; w < 2; w++)
				if (pmc_attach(ids[nid], who[w]) < 0)
					die("pmc_attach");
			if (pmc_start(ids[nid++]) < 0)
				die("pmc_start");
		} else if (tool == PERF) {
			/* what perf stat opens: one counter per task */
			for (w = 0; w < 2; w++) {
				pfd[np] = perf_open(&events[i], who[w], -1, 1);
				if (pfd[np++] < 0)
					die("perf_event_open");
			}
		}
	}
	if (write(go[1], "g", 1) != 1)
		die("write");
	t0 = now();
	for (k = 0; k < n; k++)
		if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
			die("ping-pong");
	t = now() - t0;
	waitpid(pid, NULL, 0);
	for (i = 0; i < nid; i++)
		pmc_release(ids[i]);
	for (i = 0; i < np; i++)
		close(pfd[i]);
	close(to[0]); close(to[1]); close(from[0]); close(from[1]);
	close(go[0]); close(go[1]);
	return t / n;
}

/* n processes blocked on a pipe until the write end closes */
static int sleepers(pid_t *pids, int n)
{
	int p[2], i;
	char c;

	if (pipe(p))
		die("pipe");
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork");
		if (!pids[i]) {
			close(p[1]);
			while (read(p[0], &c, 1) > 0)
				;
			_exit(0);
		}
	}
	close(p[0]);
	return p[1];
}

static void reap(pid_t *pids, int n)
{
	int i;

	for (i = 0; i < n; i++)
		waitpid(pids[i], NULL, 0);
}

static void b_csw(void)
{
	/*
	 * Many short repetitions, the configurations interleaved in each:
	 * under TCG a run's speed drifts by tens of percent over seconds.
	 */
	long n = quick ? 500 : 2000;
	int runs = quick ? 5 : 41, r, c, i, nsl = quick ? 20 : 100;
	static const struct { enum tool tool; int nev; } cfg[5] = {
		{ NONE, 0 }, { HWPMC, 1 }, { HWPMC, 4 }, { PERF, 1 }, { PERF, 4 },
	};
	double v[5][MAXRUNS], add[4][MAXRUNS], base[MAXRUNS], nt[2][MAXRUNS];
	double nt_add[2][MAXRUNS];
	pid_t pids[100];
	int wfd, fds[100];
	pmc_id_t id;
	char name[96];

	pin(0);
	pingpong(NONE, 0, n / 10 + 1);	/* warm */
	for (r = 0; r < runs; r++)
		for (c = 0; c < 5; c++)
			v[c][r] = pingpong(cfg[c].tool, cfg[c].nev, n);
	/* added cost per switch (a round trip is two switches) */
	for (r = 0; r < runs; r++) {
		base[r] = v[0][r];
		for (c = 1; c < 5; c++)
			add[c - 1][r] = (v[c][r] - v[0][r]) / 2;
	}
	for (c = 0; c < 5; c++) {
		double tmp[MAXRUNS];
		struct st s;

		memcpy(tmp, v[c], sizeof(tmp));
		s = stats(tmp, runs);
		note("csw %s, %d event(s) per process: %.0f ns per round trip [%.0f..%.0f]",
		     cfg[c].tool == NONE ? "nothing" :
		     cfg[c].tool == HWPMC ? "hwpmc" : "perf", cfg[c].nev,
		     s.med, s.min, s.max);
	}
	snprintf(name, sizeof(name), "csw added/switch, 1 event (%s)",
		 events[0].spec);
	result(name, "ns/switch", add[0], add[2], runs);
	snprintf(name, sizeof(name), "csw added/switch, 4 events");
	result(name, "ns/switch", add[1], add[3], runs);
	result("csw round trip, nothing attached", "ns/roundtrip", base, NULL,
	       runs);

	/* a non-target pair while nsl other processes are targets */
	wfd = sleepers(pids, nsl);
	for (r = 0; r < runs; r++) {
		double b;

		b = pingpong(NONE, 0, n);
		id = pmc_new(&events[0], PMC_MODE_TC, PMC_CPU_ANY, 0, 0);
		for (i = 0; i < nsl; i++)
			if (pmc_attach(id, pids[i]) < 0)
				die("pmc_attach sleeper");
		if (pmc_start(id) < 0)
			die("pmc_start");
		nt[0][r] = pingpong(NONE, 0, n);
		pmc_release(id);
		for (i = 0; i < nsl; i++) {
			fds[i] = perf_open(&events[0], pids[i], -1, 1);
			if (fds[i] < 0)
				die("perf_event_open sleeper");
		}
		nt[1][r] = pingpong(NONE, 0, n);
		for (i = 0; i < nsl; i++)
			close(fds[i]);
		nt_add[0][r] = (nt[0][r] - b) / 2;
		nt_add[1][r] = (nt[1][r] - b) / 2;
	}
	close(wfd);
	reap(pids, nsl);
	snprintf(name, sizeof(name), "csw added/switch, non-target, %d targets",
		 nsl);
	result(name, "ns/switch", nt_add[0], nt_add[1], runs);
	unpin();
}

/*
 * -- 3b. a CPU counter turned on and off ---------------------------------
 *
 * What holding a counting PMC's hardware counters only while a target
 * runs (the review's M10) would add to each switch: a CPU-wide counter
 * enabled at a target's switch-in and disabled at its switch-out.  The
 * cheapest way a module has is perf's enable and disable of the counter
 * (a notifier may not even call them: they take the context's mutex);
 * measured here as the ioctl pair on a perf fd of this CPU, less the
 * same pair of ioctls that do nothing (PERF_EVENT_IOC_ID), against the
 * module's whole added cost per switch (bench csw).
 */
static void b_onoff(void)
{
	long n = quick ? 500 : 5000, i;
	int runs = quick ? 3 : 9, r, fd;
	double on[MAXRUNS], t0, t1, t2;
	struct perf_event_attr at = {
		.type = events[0].type, .size = sizeof(at),
		.config = events[0].config, .disabled = 1, .pinned = 1,
	};
	uint64_t pid;

	pin(0);
	fd = (int)syscall(SYS_perf_event_open, &at, -1, 0, -1,
			  PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		die("perf_event_open (CPU 0; root or perf_event_paranoid <= 0)");
	for (r = -1; r < runs; r++) {	/* r == -1: warm-up */
		t0 = now();
		for (i = 0; i < n; i++)
			if (ioctl(fd, PERF_EVENT_IOC_ID, &pid) ||
			    ioctl(fd, PERF_EVENT_IOC_ID, &pid))
				die("PERF_EVENT_IOC_ID");
		t1 = now();
		for (i = 0; i < n; i++)
			if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) ||
			    ioctl(fd, PERF_EVENT_IOC_DISABLE, 0))
				die("PERF_EVENT_IOC_ENABLE/DISABLE");
		t2 = now();
		if (r >= 0)
			on[r] = ((t2 - t1) - (t1 - t0)) / n / 2;
	}
	close(fd);
	result("CPU counter on+off, per switch (M10's alternative)",
	       "ns/switch", on, NULL, runs);
	unpin();
}

/* -- 4. attach ------------------------------------------------------------ */

static int thr_fd, thr_wfd;

static void *thr_block(void *arg)
{
	char c;

	(void)arg;
	while (read(thr_fd, &c, 1) > 0)
		;
	return NULL;
}

/* a process with nthr threads (all blocked); returns its pid */
static pid_t threaded(int nthr)
{
	int ready[2], blk[2], i;
	pthread_attr_t a;
	pthread_t t;
	pid_t pid;
	char c;

	if (pipe(ready) || pipe(blk))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		close(blk[1]);
		thr_fd = blk[0];
		pthread_attr_init(&a);
		pthread_attr_setstacksize(&a, 64 * 1024);
		for (i = 1; i < nthr; i++)
			if (pthread_create(&t, &a, thr_block, NULL))
				_exit(3);
		if (write(ready[1], "r", 1) != 1)
			_exit(3);
		thr_block(NULL);
		_exit(0);
	}
	close(blk[0]);
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		die("threaded child");
	close(ready[0]);
	/* the write end stays open in the parent until unthreaded() */
	thr_wfd = blk[1];
	return pid;
}

static void unthreaded(pid_t pid)
{
	close(thr_wfd);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* the threads of pid with perf counters, as perf stat -p does: fds out */
static void close_all(int *fds, int n);

static int perf_attach_threads(const struct ev *e, pid_t pid, int *fds,
			       int max, int inherit)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir)) && n < max) {
		if (d->d_name[0] == '.')
			continue;
		fds[n] = perf_open(e, atoi(d->d_name), -1, inherit);
		if (fds[n] < 0) {
			int e = errno;

			close_all(fds, n);
			closedir(dir);
			errno = e;
			return -1;
		}
		n++;
	}
	closedir(dir);
	return n;
}

static void close_all(int *fds, int n)
{
	int i;

	for (i = 0; i < n; i++)
		close(fds[i]);
}

static int *fdbuf;

static void attach_threads(int nthr, int runs)
{
	double h[MAXRUNS], p[MAXRUNS], t0;
	char name[80];
	pmc_id_t id;
	pid_t pid;
	int r, n;

	pid = threaded(nthr);
	for (r = 0; r < runs; r++) {
		id = pmc_new(&events[0], PMC_MODE_TC, PMC_CPU_ANY, 0, 0);
		t0 = now();
		if (pmc_attach(id, pid) < 0)
			die("pmc_attach");
		h[r] = (now() - t0) / 1000;
		pmc_release(id);
		t0 = now();
		n = perf_attach_threads(&events[0], pid, fdbuf, nthr + 8, 0);
		p[r] = (now() - t0) / 1000;
		if (n != nthr) {
			errno = n < 0 ? errno : ESRCH;
			failed("perf counters per thread");
		}
		close_all(fdbuf, n);
	}
	unthreaded(pid);
	snprintf(name, sizeof(name), "attach, process of %d thread%s", nthr,
		 nthr > 1 ? "s" : "");
	result(name, "us", h, p, runs);
}

/* a binary fork tree of the given depth (2^(depth+1)-1 processes) */
static void tree_node(int depth, int blk, int ready)
{
	char c;
	int i;

again:
	for (i = 0; i < 2 && depth > 0; i++) {
		pid_t pid = fork();

		if (pid < 0)
			_exit(3);
		if (!pid) {	/* the child is a node one level down */
			depth--;
			goto again;
		}
	}
	if (write(ready, "r", 1) != 1)
		_exit(3);
	while (read(blk, &c, 1) > 0)
		;
	while (wait(NULL) > 0)
		;
	_exit(0);
}

/* the descendants of pid by /proc/PID/task/TID/children, with counters */
static int perf_attach_tree(const struct ev *e, pid_t pid, int *fds, int max)
{
	char path[64], buf[4096], *s, *end;
	int n, k, f;
	ssize_t len;

	n = perf_attach_threads(e, pid, fds, max, 1);
	if (n < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", pid, pid);
	f = open(path, O_RDONLY);
	if (f < 0)
		return -1;
	len = read(f, buf, sizeof(buf) - 1);
	close(f);
	if (len < 0)
		return -1;
	buf[len] = 0;
	for (s = buf; *s; s = end) {
		long c = strtol(s, &end, 10);

		if (end == s)
			break;
		k = perf_attach_tree(e, (pid_t)c, fds + n, max - n);
		if (k < 0)
			return -1;
		n += k;
	}
	return n;
}

static void attach_tree(int depth, int runs)
{
	int ready[2], blk[2], r, n, i, nproc = (1 << (depth + 1)) - 1;
	double h[MAXRUNS], p[MAXRUNS], t0;
	char name[80], c;
	pmc_id_t id;
	pid_t pid;

	if (pipe(ready) || pipe(blk))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		close(blk[1]);
		close(ready[0]);
		tree_node(depth, blk[0], ready[1]);
	}
	close(blk[0]);
	close(ready[1]);
	for (i = 0; i < nproc; i++)
		if (read(ready[0], &c, 1) != 1)
			die("fork tree");
	for (r = 0; r < runs; r++) {
		id = pmc_new(&events[0], PMC_MODE_TC, PMC_CPU_ANY,
			     PMC_F_DESCENDANTS, 0);
		t0 = now();
		if (pmc_attach(id, pid) < 0)
			die("pmc_attach descendants");
		h[r] = (now() - t0) / 1000;
		pmc_release(id);
		t0 = now();
		n = perf_attach_tree(&events[0], pid, fdbuf, nproc + 8);
		p[r] = (now() - t0) / 1000;
		if (n != nproc) {
			errno = n < 0 ? errno : ESRCH;
			failed("perf counters over the fork tree");
		}
		if (n > 0)
			close_all(fdbuf, n);
	}
	close(blk[1]);
	close(ready[0]);
	waitpid(pid, NULL, 0);
	snprintf(name, sizeof(name), "attach DESCENDANTS, fork tree of %d",
		 nproc);
	result(name, "us", h, p, runs);
}

/*
 * A chain of n processes, each the child of the one before: the deepest
 * case of a DESCENDANTS attach (every process a level down).  The nodes
 * share one address space (clone(CLONE_VM)) so that a long chain fits a
 * small guest; each writes its pid to ready, in chain order.
 */
#define CHAIN_STACK	(64 * 1024)

static int chain_blk, chain_ready;

static int chain_node(void *arg)
{
	long left = (long)arg;
	pid_t me = getpid();
	char c, *stk;

	if (write(chain_ready, &me, sizeof(me)) != sizeof(me))
		return 3;
	if (left > 1) {
		stk = mmap(NULL, CHAIN_STACK, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
		if (stk == MAP_FAILED ||
		    clone(chain_node, stk + CHAIN_STACK, CLONE_VM | SIGCHLD,
			  (void *)(left - 1)) < 0)
			return 3;
	}
	while (read(chain_blk, &c, 1) > 0)
		;
	while (waitpid(-1, NULL, 0) > 0)
		;
	return 0;
}

static void attach_chain(int nproc, int runs)
{
	double h[2][MAXRUNS], p[2][MAXRUNS], t0;
	int ready[2], blk[2], r, i;
	char name[80];
	pid_t *pids;
	pmc_id_t id;
	pid_t pid;

	pids = calloc(nproc, sizeof(*pids));
	if (!pids || pipe(ready) || pipe(blk))
		die("chain setup");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		close(blk[1]);
		close(ready[0]);
		chain_blk = blk[0];
		chain_ready = ready[1];
		_exit(chain_node((void *)(long)nproc));
	}
	close(blk[0]);
	close(ready[1]);
	for (i = 0; i < nproc; i++)
		if (read(ready[0], &pids[i], sizeof(*pids)) != sizeof(*pids))
			die("process chain");
	for (r = 0; r < runs; r++) {
		id = pmc_new(&events[0], PMC_MODE_TC, PMC_CPU_ANY,
			     PMC_F_DESCENDANTS, 0);
		t0 = now();
		if (pmc_attach(id, pid) < 0)
			die("pmc_attach descendants");
		h[0][r] = (now() - t0) / 1000;
		/* a descendant's detach takes its own descendants too */
		t0 = now();
		if (pmc_detach(id, pids[1]) < 0)
			die("pmc_detach descendant");
		h[1][r] = (now() - t0) / 1000;
		pmc_release(id);
		t0 = now();
		for (i = 0; i < nproc; i++) {
			fdbuf[i] = perf_open(&events[0], pids[i], -1, 1);
			if (fdbuf[i] < 0) {
				close_all(fdbuf, i);
				failed("perf counters over the chain");
				break;
			}
		}
		p[0][r] = (now() - t0) / 1000;
		if (i < nproc)
			break;
		t0 = now();
		close_all(fdbuf + 1, nproc - 1);
		p[1][r] = (now() - t0) / 1000;
		close(fdbuf[0]);
	}
	close(blk[1]);
	close(ready[0]);
	waitpid(pid, NULL, 0);
	free(pids);
	if (r < runs)
		return;
	snprintf(name, sizeof(name),
		 "attach DESCENDANTS, chain of %d processes", nproc);
	result(name, "us", h[0], p[0], runs);
	snprintf(name, sizeof(name),
		 "detach a descendant, chain of %d processes", nproc);
	result(name, "us", h[1], p[1], runs);
}

static void b_attach(void)
{
	int runs = quick ? 3 : 7;

	attach_threads(1, runs);
	attach_threads(100, runs);
	if (!quick)
		attach_threads(1000, 5);
	attach_tree(quick ? 3 : 6, runs);
	attach_chain(quick ? 100 : 500, runs);
	if (!quick)
		attach_chain(2000, 5);
}

/* -- 5. sampling ---------------------------------------------------------- */

static volatile unsigned long sink;

static void spin(unsigned long iter)
{
	unsigned long i;

	for (i = 0; i < iter; i++)
		sink += i * i;
}

static double cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * The workload: ITER iterations; writes "wall_ns cpu_ns" to OUT.  It
 * spins below 16 KB of its own stack (touched, so present), so that a
 * user stack copy of USTACK_SIZE bytes is whole for both tools, whatever
 * the depth of the process it was forked from.
 */
static int cmd_spin(unsigned long iter, const char *out)
{
	double t0, c0, t, c;
	char pad[16384];
	FILE *f;

	memset(pad, 1, sizeof(pad));
	__asm__ volatile("" : : "r"(pad) : "memory");
	t0 = now();
	c0 = cpu_ns();
	spin(iter);
	t = now() - t0;
	c = cpu_ns() - c0;
	f = fopen(out, "w");
	if (!f)
		return 1;
	fprintf(f, "%.0f %.0f\n", t, c);
	fclose(f);
	return 0;
}

struct srun {
	double wall, cpu;	/* the workload's, ns */
	double samples, lost;
	double ctxt, iwi;	/* context switches, irq_work interrupts */
	double bytes;		/* the log's or perf.data's size */
	double stacks, copied;	/* samples with a user stack; its bytes */
};

/* --call-graph dwarf's stack copy, as both tools default to it */
#define USTACK_SIZE	8192

/* perf record's --call-graph dwarf registers (its PERF_REGS_MASK) */
#if defined(__x86_64__)
#define USTACK_REGS	(((1ULL << PERF_REG_X86_64_MAX) - 1) & \
			 ~((1ULL << PERF_REG_X86_DS) | (1ULL << PERF_REG_X86_ES) | \
			   (1ULL << PERF_REG_X86_FS) | (1ULL << PERF_REG_X86_GS)))
#elif defined(__aarch64__)
#define USTACK_REGS	((1ULL << PERF_REG_ARM64_MAX) - 1)
#else
#define USTACK_REGS	0ULL	/* no dwarf rows */
#endif

/* the first number after key in the file, or -1; 0 if key is absent */
static double grep_num(const char *path, const char *key);

/*
 * System-wide context switches (/proc/stat) and irq_work interrupts
 * (/proc/interrupts: x86's IWI row, arm64's "IRQ work" IPI row), summed
 * over the CPUs.
 */
static void sys_events(double *ctxt, double *iwi)
{
	char line[1024], *p, *end;
	FILE *f;

	*ctxt = grep_num("/proc/stat", "ctxt ");
	*iwi = 0;
	f = fopen("/proc/interrupts", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "IWI:") && !strstr(line, "IRQ work"))
			continue;
		p = strchr(line, ':') + 1;
		for (;;) {
			double v = strtod(p, &end);

			if (end == p)
				break;
			*iwi += v;
			p = end;
		}
	}
	fclose(f);
}

static int read_spin(const char *out, struct srun *s)
{
	FILE *f = fopen(out, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%lf %lf", &s->wall, &s->cpu) == 2;
	fclose(f);
	return ok ? 0 : -1;
}

static const char *self_exe;
static int hwfd;	/* for the log operations (the owner is the process) */

/* nothing attached */
static int sample_none(unsigned long iter, struct srun *s)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid) {
		pin(0);
		_exit(cmd_spin(iter, "/tmp/bench-spin.out"));
	}
	waitpid(pid, NULL, 0);
	memset(s, 0, sizeof(*s));
	return read_spin("/tmp/bench-spin.out", s);
}

static __u64 drops(const struct pmc_driverstats *d)
{
	return d->pm_intr_bufferfull + d->pm_log_records_dropped +
	       d->pm_buffer_requests_failed;
}

/*
 * hwpmc: a process-sampling PMC of cpu-clock, logging to a file; with
 * ustack, PMC_F_CALLCHAIN | PMC_F_USERSTACK and pm_stacksize ustack, as
 * hwpmc-stat --call-graph dwarf,USTACK allocates it.  -2: the module
 * refused that PMC (errno, and a note).
 */
static int sample_hwpmc(unsigned long iter, __u64 period, __u32 ustack,
			struct srun *s)
{
	struct pmc_op_configurelog cl = { 0 };
	struct pmc_driverstats d0, d1;
	const char *log = "/tmp/bench-hwpmc.log";
	double c0, i0;
	struct pmclog_header h;
	int go[2], f, st;
	pmc_id_t id;
	pid_t pid;
	char c;
	off_t off;

	memset(s, 0, sizeof(*s));
	if (ustack) {
		struct pmc_spec ps;
		char err[256];

		if (pmc_parse_spec_events(ev_cpuclock.spec, PMC_SPEC_MACHINE,
					  &ps, err, sizeof(err)) < 0)
			die(err);
		ps.ps_pa.pm_stacksize = ustack;
		if (pmc_allocate_parsed(ev_cpuclock.spec, &ps.ps_pa,
					PMC_MODE_TS,
					PMC_F_CALLCHAIN | PMC_F_USERSTACK,
					PMC_CPU_ANY, &id, period) < 0) {
			int e = errno;

			note("sampling: PMC_F_USERSTACK %u refused: %s (%s)",
			     ustack, strerror(e), pmc_allocate_message());
			errno = e;
			return -2;
		}
	} else {
		id = pmc_new(&ev_cpuclock, PMC_MODE_TS, PMC_CPU_ANY, 0, period);
	}
	f = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (f < 0)
		die(log);
	cl.pm_logfd = f;
	if (ioctl(hwfd, HWPMC_IOC_CONFIGURELOG, &cl))
		die("CONFIGURELOG");
	close(f);
	if (pipe(go))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		pin(0);
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(3);
		_exit(cmd_spin(iter, "/tmp/bench-spin.out"));
	}
	close(go[0]);
	if (pmc_attach(id, pid) < 0 || pmc_start(id) < 0)
		die("pmc_attach/start sampling");
	if (pmc_get_driver_stats(&d0) < 0)
		die("pmc_get_driver_stats");
	sys_events(&c0, &i0);
	if (write(go[1], "g", 1) != 1)
		die("write");
	close(go[1]);
	waitpid(pid, &st, 0);
	sys_events(&s->ctxt, &s->iwi);
	s->ctxt -= c0;
	s->iwi -= i0;
	if (ioctl(hwfd, HWPMC_IOC_CLOSELOG, 0))
		die("CLOSELOG");
	if (pmc_get_driver_stats(&d1) < 0)
		die("pmc_get_driver_stats");
	pmc_release(id);
	/* count the sample records, and the stacks' bytes */
	f = open(log, O_RDONLY);
	if (f < 0)
		die(log);
	for (off = 0; pread(f, &h, sizeof(h), off) == sizeof(h);) {
		__u32 len = PMCLOG_HEADER_TO_LENGTH(h.pl_header);
		__u32 type = PMCLOG_HEADER_TO_TYPE(h.pl_header);

		if (PMCLOG_HEADER_TO_MAGIC(h.pl_header) != PMCLOG_HEADER_MAGIC ||
		    len < sizeof(h))
			break;
		if (type == PMCLOG_TYPE_CALLCHAIN)	/* every sample */
			s->samples++;
		if (type == PMCLOG_TYPE_USERSTACK) {
			struct pmclog_userstack us;

			if (pread(f, &us, sizeof(us), off) != sizeof(us))
				break;
			s->stacks++;
			s->copied += us.pl_dynsize;
		}
		off += len;
	}
	s->bytes = (double)off;
	close(f);
	unlink(log);
	s->lost = (double)(drops(&d1) - drops(&d0));
	return read_spin("/tmp/bench-spin.out", s);
}

/* the first number after key in the file, or -1; 0 if key is absent */
static double grep_num(const char *path, const char *key)
{
	char line[512], *p;
	FILE *f = fopen(path, "r");
	double v = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if ((p = strstr(line, key))) {
			v = atof(p + strlen(key));
			break;
		}
	fclose(f);
	return v;
}

/*
 * perf record at the same period, of the same workload (exec'd); with
 * ustack, --call-graph dwarf,USTACK.
 */
static int sample_perf(unsigned long iter, __u64 period, __u32 ustack,
		       struct srun *s)
{
	char cmd[512], cg[64] = "";
	struct stat sb;
	double c0, i0;

	if (ustack)
		snprintf(cg, sizeof(cg), "--call-graph dwarf,%u ", ustack);
	snprintf(cmd, sizeof(cmd),
		 "perf record -q -e cpu-clock -c %llu %s-o /tmp/bench-perf.data -- "
		 "taskset -c 0 %s spin %lu /tmp/bench-spin.out >/dev/null 2>&1 && "
		 "perf report -i /tmp/bench-perf.data --stats > /tmp/bench-perf.stats 2>&1",
		 (unsigned long long)period, cg, self_exe, iter);
	memset(s, 0, sizeof(*s));

	sys_events(&c0, &i0);
	if (system(cmd) != 0)
		return -1;
	sys_events(&s->ctxt, &s->iwi);	/* perf report's included */
	s->ctxt -= c0;
	s->iwi -= i0;
	s->samples = grep_num("/tmp/bench-perf.stats", "SAMPLE events:");
	s->lost = grep_num("/tmp/bench-perf.stats", "LOST events:") +
		  grep_num("/tmp/bench-perf.stats", "LOST_SAMPLES events:");
	if (!stat("/tmp/bench-perf.data", &sb))
		s->bytes = (double)sb.st_size;
	unlink("/tmp/bench-perf.data");
	return read_spin("/tmp/bench-spin.out", s);
}

/*
 * Where there is no perf tool (the arm64 guest): what perf record does,
 * in this process: a sampling counter (IP, TID, TIME, as perf record
 * samples by default) on the workload, its mmap ring (129 pages, perf
 * record's default 516 KiB) copied to a file whenever the kernel wakes
 * the reader (half full), records counted as they are copied.  With
 * ustack, what perf record --call-graph dwarf,USTACK asks for: also
 * CALLCHAIN (kernel frames only), REGS_USER (its register mask) and
 * STACK_USER of ustack bytes.
 */
static int sample_perfring(unsigned long iter, __u64 period, __u32 ustack,
			   struct srun *s)
{
	struct perf_event_attr at = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(at),
		.config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = period,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME,
		.disabled = 1, .watermark = 1,
	};
	size_t pg = sysconf(_SC_PAGESIZE), dsize = 128 * pg;
	struct perf_event_mmap_page *mp;
	struct pollfd pfd;
	int go[2], fd, out, st, done = 0;
	double c0, i0;
	char *data, c;
	pid_t pid;

	at.wakeup_watermark = dsize / 2;
	if (ustack) {
		at.sample_type |= PERF_SAMPLE_CALLCHAIN |
				  PERF_SAMPLE_REGS_USER |
				  PERF_SAMPLE_STACK_USER;
		at.exclude_callchain_user = 1;
		at.sample_regs_user = USTACK_REGS;
		at.sample_stack_user = ustack;
	}
	memset(s, 0, sizeof(*s));
	if (pipe(go))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		pin(0);
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(3);
		_exit(cmd_spin(iter, "/tmp/bench-spin.out"));
	}
	close(go[0]);
	fd = (int)syscall(SYS_perf_event_open, &at, pid, -1, -1,
			  PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		die("perf_event_open sampling");
	mp = mmap(NULL, pg + dsize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mp == MAP_FAILED)
		die("mmap perf ring");
	data = (char *)mp + pg;
	out = open("/tmp/bench-perf.data", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (out < 0)
		die("/tmp/bench-perf.data");
	sys_events(&c0, &i0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	if (write(go[1], "g", 1) != 1)
		die("write");
	close(go[1]);
	pfd.fd = fd;
	pfd.events = POLLIN;
	while (!done) {
		__u64 head, tail;

		if (waitpid(pid, &st, WNOHANG) == pid)
			done = 1;	/* one more pass for what is left */
		else
			poll(&pfd, 1, 100);
		head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
		tail = mp->data_tail;
		while (tail < head) {
			struct perf_event_header *h =
				(void *)(data + tail % dsize);
			size_t off = tail % dsize, len = h->size;

			if (h->type == PERF_RECORD_SAMPLE) {
				s->samples++;
				/* STACK_USER last: its dyn_size (0: none) */
				if (ustack) {
					__u64 dyn = *(__u64 *)(data +
						(off + len - 8) % dsize);

					s->stacks += dyn > 0;
					s->copied += (double)dyn;
				}
			} else if (h->type == PERF_RECORD_LOST)
				s->lost += ((__u64 *)(h + 1))[1];
			/* a record may wrap: write it in one or two pieces */
			if (off + len <= dsize) {
				if (write(out, data + off, len) < 0)
					die("write perf data");
			} else if (write(out, data + off, dsize - off) < 0 ||
				   write(out, data, len - (dsize - off)) < 0) {
				die("write perf data");
			}
			tail += len;
			s->bytes += len;
		}
		__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
	}
	sys_events(&s->ctxt, &s->iwi);
	s->ctxt -= c0;
	s->iwi -= i0;
	close(out);
	munmap(mp, pg + dsize);
	close(fd);
	unlink("/tmp/bench-perf.data");
	return read_spin("/tmp/bench-spin.out", s);
}

/* one sampling run of hwpmc (tool 0) or perf (1); its rows' values */
struct sres {
	double oh, del, lost, csw, iwi;	/* as the rows below */
	double cost, logged;		/* per sample: wall ns, bytes */
	double stacks, copied;		/* % of samples; bytes per stack */
	double alone;			/* the workload's wall ns alone */
};

static int sample_one(int tool, int perf_tool, unsigned long iter,
		      __u64 period, __u32 ustack, struct sres *o)
{
	struct srun s;
	double base, n;
	int rc;

	if (sample_none(iter, &s) < 0)
		die("workload");
	base = o->alone = s.wall;
	if (!tool)
		rc = sample_hwpmc(iter, period, ustack, &s);
	else if (perf_tool)
		rc = sample_perf(iter, period, ustack, &s);
	else
		rc = sample_perfring(iter, period, ustack, &s);
	if (rc < 0)
		return rc;
	n = s.samples ? s.samples : 1;
	o->oh = 100.0 * (s.wall - base) / base;
	o->del = 100.0 * s.samples * period / s.cpu;
	o->lost = s.lost;
	o->csw = s.ctxt / n;
	o->iwi = s.iwi / n;
	o->cost = (s.wall - base) / n;
	o->logged = s.bytes / n;
	o->stacks = 100.0 * s.stacks / n;
	o->copied = s.copied / (s.stacks ? s.stacks : 1);
	return 0;
}

/* the rows of one field of struct sres; perf's too when pok */
static void sample_rows(const char *name, const char *unit,
			struct sres (*v)[2][MAXRUNS], size_t field, int pok,
			int runs)
{
	double h[MAXRUNS], p[MAXRUNS];
	int r;

	for (r = 0; r < runs; r++) {
		h[r] = *(double *)((char *)&(*v)[0][r] + field);
		p[r] = *(double *)((char *)&(*v)[1][r] + field);
	}
	result(name, unit, h, pok ? p : NULL, runs);
}

static void b_sample(void)
{
	static const __u64 periods[2] = { 1000000, 100000 };	/* 1, 10 kHz */
	int runs = quick ? 1 : 7, r, k, perf_ok = 1, perf_tool, rc;
	int dw_hok = USTACK_REGS != 0, dw_pok = USTACK_REGS != 0;
	double target = quick ? 0.3e9 : 1e9, t0, wall, add[2][MAXRUNS];
	static struct sres res[3][2][MAXRUNS];	/* 1 kHz, 10 kHz, dwarf */
	unsigned long iter = 1000000;
	char name[96];

	/* calibrate: iterations for about target ns */
	pin(0);
	do {
		t0 = now();
		spin(iter);
		wall = now() - t0;
		if (wall < 0.1e9)
			iter *= 4;
	} while (wall < 0.1e9);
	unpin();
	iter = (unsigned long)(iter * target / wall);
	perf_tool = system("perf --version >/dev/null 2>&1") == 0;
	if (!perf_tool)
		note("sampling: no perf tool here: perf's side is perf record's ring, in this program");
	/*
	 * Each tool run is paired with a run of the workload alone just
	 * before.  Configurations: 1 and 10 kHz; 10 kHz with a user stack
	 * copy of USTACK_SIZE bytes (--call-graph dwarf of both tools).
	 */
	for (r = 0; r < runs; r++) {
		for (k = 0; k < 3; k++) {
			__u32 us = k == 2 ? USTACK_SIZE : 0;
			__u64 per = periods[k ? 1 : 0];

			if (k < 2 || dw_hok) {
				rc = sample_one(0, perf_tool, iter, per, us,
						&res[k][0][r]);
				if (rc == -2) {
					failed("hwpmc PMC_F_USERSTACK");
					dw_hok = 0;
				} else if (rc < 0) {
					die("hwpmc sampling");
				}
			}
			if (!perf_ok || (k == 2 && !dw_pok))
				continue;
			if (sample_one(1, perf_tool, iter, per, us,
				       &res[k][1][r]) < 0) {
				errno = EIO;
				failed(k == 2 ? "perf record --call-graph dwarf" :
				       "perf record");
				if (k == 2)
					dw_pok = 0;
				else
					perf_ok = 0;
			}
		}
	}
	note("sampling workload: %lu iterations, %.2f s alone (last run)",
	     iter, res[1][0][runs - 1].alone / 1e9);
#define ROWS(f, n, u) sample_rows(n, u, &res[k], offsetof(struct sres, f), \
				  pok, runs)
	for (k = 0; k < 3; k++) {
		const char *hz = k == 0 ? "cpu-clock 1 kHz" :
				 k == 1 ? "cpu-clock 10 kHz" :
				 "dwarf,8192 10 kHz";
		int pok = k < 2 ? perf_ok : perf_ok && dw_pok;

		if (k == 2 && !dw_hok)
			break;
		snprintf(name, sizeof(name), "sample %s: overhead", hz);
		ROWS(oh, name, "% of run time");
		snprintf(name, sizeof(name), "sample %s: delivered", hz);
		ROWS(del, name, "% of expected");
		snprintf(name, sizeof(name), "sample %s: lost", hz);
		ROWS(lost, name, "samples");
		snprintf(name, sizeof(name), "sample %s: cost", hz);
		ROWS(cost, name, "ns/sample");
		snprintf(name, sizeof(name), "sample %s: logged", hz);
		ROWS(logged, name, "bytes/sample");
		if (k == 2) {
			/* perf report --stats does not tell the stacks */
			pok = pok && !perf_tool;
			snprintf(name, sizeof(name), "sample %s: with a stack", hz);
			ROWS(stacks, name, "% of samples");
			snprintf(name, sizeof(name), "sample %s: stack copied", hz);
			ROWS(copied, name, "bytes/stack");
			pok = perf_ok && dw_pok;
			/* what the stack adds, against the same tool's 10 kHz */
			for (r = 0; r < runs; r++) {
				add[0][r] = res[2][0][r].cost - res[1][0][r].cost;
				add[1][r] = res[2][1][r].cost - res[1][1][r].cost;
			}
			snprintf(name, sizeof(name), "sample %s: cost - no stack's", hz);
			result(name, "ns/sample", add[0], pok ? add[1] : NULL,
			       runs);
			break;
		}
		snprintf(name, sizeof(name), "sample %s: switches", hz);
		ROWS(csw, name, "per sample (system)");
		snprintf(name, sizeof(name), "sample %s: irq_work", hz);
		ROWS(iwi, name, "IPIs per sample");
	}
#undef ROWS
}

/* -- 7. kernel memory ----------------------------------------------------- */

/*
 * Kernel memory that PMCs and counters take, in bytes: the slab caches'
 * active objects times their size, from /proc/slabinfo, plus vmalloc
 * and percpu from /proc/meminfo.  SLUB counts the free objects of the
 * CPUs' slabs as active, so this is measured over hundreds of objects,
 * with hwpmc's and perf's held at the same time (neither reuses what
 * the other just freed) and in alternating order.
 */
/*
 * SLUB counts the free objects of the CPUs' slabs as active: have every
 * cache give its CPUs' slabs back (/sys/kernel/slab/NAME/shrink) before
 * it is read, so that objects freed earlier and taken again elsewhere
 * (the module makes its per-CPU counters in a kernel worker on each CPU)
 * are not hidden.
 */
static void slab_shrink(const char *cache)
{
	char path[300];
	int fd;

	snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink", cache);
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		/* not every cache can: the others are read as they are */
		if (write(fd, "1", 1) != 1)
			errno = 0;
		close(fd);
	}
}

static void kmem_shrink(void)
{
	struct dirent *d;
	DIR *dir = opendir("/sys/kernel/slab");

	if (!dir)
		return;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.')
			slab_shrink(d->d_name);
	closedir(dir);
}

/* perf_event objects in use (SLUB's count, after kmem_shrink()), or -1 */
static double perf_events_in_use(void)
{
	FILE *f = fopen("/sys/kernel/slab/perf_event/objects", "r");
	double n = -1;

	if (f) {
		if (fscanf(f, "%lf", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

static double kmem_bytes(void)
{
	static const char *keys[] = { "VmallocUsed:", "Percpu:" };
	char line[512], name[64];
	unsigned long act, num, size;
	double b = 0, v;
	unsigned i;
	FILE *f;

	kmem_shrink();
	f = fopen("/proc/slabinfo", "r");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "%63s %lu %lu %lu", name, &act, &num,
				   &size) == 4)
				b += (double)act * size;
		fclose(f);
	} else {
		v = grep_num("/proc/meminfo", "Slab:");
		b += v > 0 ? v * 1024 : 0;
	}
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		v = grep_num("/proc/meminfo", keys[i]);
		if (v > 0)
			b += v * 1024;
	}
	return b;
}

/* owners that allocate all the rows they can when told; see b_mem() */
/*
 * n owner processes, waiting for a byte on *go; then each allocates PMCs
 * of ev until refused (one per row), attached to itself and started when
 * start, says how many on *cnt, and waits for EOF on *end.
 */
static int owners(int n, pid_t *pids, int *go, int *cnt, int *end,
		  const struct ev *ev, int start)
{
	int g[2], c[2], e[2], i, k;
	pmc_id_t id;
	char x;

	if (pipe(g) || pipe(c) || pipe(e))
		die("pipe");
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork");
		if (pids[i])
			continue;
		close(g[1]);
		close(c[0]);
		close(e[1]);
		if (read(g[0], &x, 1) != 1)
			_exit(3);
		for (k = 0; k < 256; k++)
			if (pmc_allocate(ev->spec, PMC_MODE_TC, 0,
					 PMC_CPU_ANY, &id, 0) < 0 ||
			    (start && (pmc_attach(id, 0) < 0 ||
				       pmc_start(id) < 0)))
				break;
		if (write(c[1], &k, sizeof(k)) != sizeof(k))
			_exit(3);
		while (read(e[0], &x, 1) > 0)
			;
		_exit(0);	/* its PMCs go with it */
	}
	close(g[0]);
	close(c[1]);
	close(e[0]);
	*go = g[1];
	*cnt = c[0];
	*end = e[1];
	return n;
}

/*
 * The module releases the PMCs of an owner that exited in a work item,
 * soon after: wait (up to 10 s) until no row is in use, so that the
 * releases do not fall into the next measurement.
 */
static void wait_rows_free(void)
{
	struct pmc_pmcinfo *pi;
	int t, busy = 1;
	unsigned int i;

	for (t = 0; t < 1000 && busy; t++) {
		if (pmc_pmcinfo(0, &pi) < 0)
			return;
		busy = 0;
		for (i = 0; i < pi->pm_npmc; i++)
			busy |= pi->pm_pmcs[i].pm_rowdisp != PMC_DISP_FREE;
		free(pi);
		if (busy)
			usleep(10000);
	}
}

/*
 * Kernel memory per PMC of e (started: attached to self and started) of
 * nown owners, in h[], against as many perf fds of e on self, in p[];
 * returns how many PMCs the owners took.
 */
static int mem_per_pmc(const struct ev *e, int start, int nown, int runs,
		       double *h, double *p)
{
	int r, i, k, tot = 0, go, cnt, end, first, nfd;
	double m0, e0, ev[2][MAXRUNS];
	pid_t pids[64];

	for (r = 0; r < runs; r++) {
		nfd = 0;
		wait_rows_free();	/* the owners of the last one, and others */
		owners(nown, pids, &go, &cnt, &end, e, start);
		for (first = 0; first < 2; first++) {
			m0 = kmem_bytes();
			e0 = perf_events_in_use();
			if ((r + first) % 2 == 0) {
				for (i = 0; i < nown; i++)
					if (write(go, "g", 1) != 1)
						die("write");
				for (i = 0, tot = 0; i < nown; i++) {
					if (read(cnt, &k, sizeof(k)) != sizeof(k))
						die("owner");
					tot += k;
				}
				h[r] = (kmem_bytes() - m0) / (tot ? tot : 1);
				ev[0][r] = (perf_events_in_use() - e0) /
					   (tot ? tot : 1);
			} else {
				/* about as many as the owners take (the rows) */
				nfd = nown * (have_pmu && !start ? 7 : 16);
				for (k = 0; k < nfd; k++) {
					fdbuf[k] = perf_open(e, 0, -1, 0);
					if (fdbuf[k] < 0)
						die("perf_event_open");
				}
				p[r] = (kmem_bytes() - m0) / nfd;
				ev[1][r] = (perf_events_in_use() - e0) / nfd;
			}
		}
		close(go);
		close(cnt);
		close(end);
		reap(pids, nown);
		close_all(fdbuf, nfd);
	}
	if (perf_events_in_use() >= 0)
		note("mem: perf_event objects per PMC %.2f, per perf fd %.2f (medians)",
		     stats(ev[0], runs).med, stats(ev[1], runs).med);
	return tot;
}

/*
 * Until the count of perf_event objects in use stays the same for 50 ms
 * (perf frees a released counter after an RCU grace period), at most 3 s:
 * so that one side's release is not counted in the other side's reading.
 */
static double perf_events_shrunk(void)
{
	slab_shrink("perf_event");
	return perf_events_in_use();
}

static void wait_perf_events(void)
{
	double n = perf_events_shrunk(), m;
	int t;

	for (t = 0; t < 60 && n >= 0; t++) {
		usleep(50000);
		m = perf_events_shrunk();
		if (m == n)
			break;
		n = m;
	}
}

/*
 * Per started counting PMC when no two count the same event, so that none
 * shares its counters with another (perf_event objects in h[] and p[],
 * bytes in a note): this process's 16 PMCs of 16 software
 * events (8 events, each ",usr" and ",os"; the SOFT class has 16 rows),
 * attached to it and started, against 16 perf fds of the 8 events, each
 * twice (a perf fd's size does not depend on its modes).
 */
#define MEM_NDIST 16

static void mem_distinct_events(int runs, double *h, double *p)
{
	static const char *const names[8] = {
		"task-clock", "page-faults", "context-switches",
		"cpu-migrations", "minor-faults", "major-faults",
		"alignment-faults", "emulation-faults",
	};
	static const char *const quals[2] = { ",usr", ",os" };
	static const unsigned long long configs[8] = {
		PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS,
		PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_CPU_MIGRATIONS,
		PERF_COUNT_SW_PAGE_FAULTS_MIN, PERF_COUNT_SW_PAGE_FAULTS_MAJ,
		PERF_COUNT_SW_ALIGNMENT_FAULTS, PERF_COUNT_SW_EMULATION_FAULTS,
	};
	struct ev e = { NULL, PERF_TYPE_SOFTWARE, 0 };
	char spec[MEM_NDIST][40];
	pmc_id_t ids[MEM_NDIST];
	int r, i, first, fds[MEM_NDIST];
	double m0, e0, bytes[2][MAXRUNS];

	for (i = 0; i < MEM_NDIST; i++)
		snprintf(spec[i], sizeof(spec[i]), "%s%s", names[i % 8],
			 quals[i / 8]);
	for (r = 0; r < runs; r++) {
		wait_rows_free();
		for (first = 0; first < 2; first++) {
			wait_perf_events();
			m0 = kmem_bytes();	/* shrinks the slabs first */
			e0 = perf_events_in_use();
			if ((r + first) % 2 == 0) {
				for (i = 0; i < MEM_NDIST; i++) {
					e.spec = spec[i];
					ids[i] = pmc_new(&e, PMC_MODE_TC,
							 PMC_CPU_ANY, 0, 0);
					if (pmc_attach(ids[i], 0) < 0 ||
					    pmc_start(ids[i]) < 0)
						die("pmc_attach/start");
				}
				bytes[0][r] = (kmem_bytes() - m0) / MEM_NDIST;
				h[r] = (perf_events_in_use() - e0) / MEM_NDIST;
				for (i = 0; i < MEM_NDIST; i++)
					pmc_release(ids[i]);
			} else {
				for (i = 0; i < MEM_NDIST; i++) {
					e.config = configs[i % 8];
					fds[i] = perf_open(&e, 0, -1, 0);
					if (fds[i] < 0)
						die("perf_event_open");
				}
				bytes[1][r] = (kmem_bytes() - m0) / MEM_NDIST;
				p[r] = (perf_events_in_use() - e0) / MEM_NDIST;
				close_all(fds, MEM_NDIST);
			}
		}
	}
	note("mem: %d events: bytes per PMC %.0f, per perf fd %.0f (medians; a few objects: noise-bound)",
	     MEM_NDIST, stats(bytes[0], runs).med, stats(bytes[1], runs).med);
}

static void b_mem(void)
{
	int n = quick ? 100 : 1000, runs = quick ? 3 : 5, r, k, tot;
	int nown = quick ? 4 : 40;
	double h[MAXRUNS], p[MAXRUNS], m0;
	pid_t pid;
	pmc_id_t id;

	/*
	 * Per allocated PMC: nown processes (forked before the measurement)
	 * allocate as many PMCs as there are rows (each PMC holds a row:
	 * 16 SOFT rows by default; the PMU's counters on arm64), owner
	 * structures included; against as many perf counter fds on self.
	 */
	tot = mem_per_pmc(&events[0], 0, nown, runs, h, p);
	note("mem: %d PMCs by %d owners; as many perf fds", tot, nown);
	result("kmem per PMC (hwpmc: allocated; perf: fd)", "bytes", h, p,
	       runs);
	/*
	 * Per started counting PMC: the same, each attached to its owner and
	 * started, which gives it a counter on every CPU; a software event
	 * (page-faults), since the PMU has a few counters per CPU only.
	 */
	tot = mem_per_pmc(&ev_pagefaults, 1, nown, runs, h, p);
	note("mem: %d started PMCs by %d owners, %ld CPUs; as many perf fds",
	     tot, nown, sysconf(_SC_NPROCESSORS_ONLN));
	result("kmem per started PMC, all one event (perf: fd)", "bytes",
	       h, p, runs);
	if (perf_events_in_use() >= 0) {
		mem_distinct_events(runs, h, p);
		result("perf_events per started PMC, own event (perf: fd)",
		       "objects", h, p, runs);
	} else {
		note("mem: no /sys/kernel/slab/perf_event: no per-event row");
	}
	/* per target thread: one PMC attached to a process of n threads */
	pid = threaded(n);
	for (r = 0; r < runs; r++) {
		int first;

		id = pmc_new(&events[0], PMC_MODE_TC, PMC_CPU_ANY, 0, 0);
		k = 0;
		for (first = 0; first < 2; first++) {
			m0 = kmem_bytes();
			if ((r + first) % 2 == 0) {
				if (pmc_attach(id, pid) < 0)
					die("pmc_attach");
				h[r] = (kmem_bytes() - m0) / n;
			} else {
				k = perf_attach_threads(&events[0], pid, fdbuf,
							n + 8, 0);
				p[r] = (kmem_bytes() - m0) / n;
				if (k != n) {
					errno = k < 0 ? errno : ESRCH;
					failed("kmem: perf counters per thread");
				}
			}
		}
		pmc_release(id);
		if (k > 0)
			close_all(fdbuf, k);
	}
	unthreaded(pid);
	result("kmem per attached target thread", "bytes", h, p, runs);
}

/* -- profiling: one operation in a loop, for perf record -a ---------------- */

static int cmd_loop(const char *what, double secs)
{
	const struct ev *e = &events[0];
	double t0 = now();
	pmc_value_t v;
	long n = 0;
	pmc_id_t id;
	int fd;

	if (!strcmp(what, "sample-hwpmc")) {	/* 10 kHz, secs of workload */
		struct srun s;
		unsigned long iter = 1000000;

		t0 = now();
		spin(iter);
		iter = (unsigned long)(iter * secs * 1e9 / (now() - t0));
		if (sample_hwpmc(iter, 100000, 0, &s) < 0)
			die("sample_hwpmc");
		printf("%s: %.0f samples, %.0f lost, %.2f s\n", what, s.samples,
		       s.lost, s.wall / 1e9);
		return 0;
	}
	pin(0);
	id = pmc_new(e, PMC_MODE_TC, PMC_CPU_ANY, 0, 0);
	if (pmc_attach(id, getpid()) < 0 || pmc_start(id) < 0)
		die("pmc_attach/start");
	fd = perf_open(e, 0, -1, 0);
	if (fd < 0)
		die("perf_event_open");
	while (now() - t0 < secs * 1e9) {
		if (!strcmp(what, "read-hwpmc")) {
			pmc_read(id, &v);
		} else if (!strcmp(what, "read-perf")) {
			if (read(fd, &v, sizeof(v)) != sizeof(v))
				die("read");
		} else if (!strcmp(what, "startstop-hwpmc")) {
			pmc_stop(id);
			pmc_start(id);
		} else if (!strcmp(what, "startstop-perf")) {
			ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
			ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		} else {
			fprintf(stderr, "hwpmc_bench: loop %s?\n", what);
			return 2;
		}
		n++;
	}
	printf("%s: %.1f ns per operation\n", what, (now() - t0) / n);
	return 0;
}

/* -- main ----------------------------------------------------------------- */

static const struct {
	const char *name;
	void (*fn)(void);
} benches[] = {
	{ "read", b_read }, { "uread", b_uread },
	{ "startstop", b_startstop }, { "csw", b_csw },
	{ "onoff", b_onoff },
	{ "attach", b_attach }, { "sample", b_sample }, { "mem", b_mem },
};

int main(int argc, char **argv)
{
	struct rlimit rl;
	pmc_id_t id;
	unsigned i;
	int a = 1, all;

	if (argc == 4 && !strcmp(argv[1], "spin"))
		return cmd_spin(strtoul(argv[2], NULL, 0), argv[3]);
	if (a < argc && !strcmp(argv[a], "-q")) {
		quick = 1;
		a++;
	}
	self_exe = realpath("/proc/self/exe", NULL);
	if (pmc_init() < 0) {
		fprintf(stderr, "hwpmc_bench: pmc_init: %s\n", pmc_init_message());
		return 2;
	}
	hwfd = open(PMC_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	if (hwfd < 0)
		die(PMC_DEVICE_PATH);
	/* up to 1000 perf fds at once */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < 4096) {
		rl.rlim_cur = rl.rlim_max < 4096 ? rl.rlim_max : 4096;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	fdbuf = calloc(2048, sizeof(*fdbuf));
	if (!fdbuf)
		die("calloc");
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* the PMU's events where there is one, else software events */
	if (pmc_allocate("instructions", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0) == 0) {
		pmc_release(id);
		have_pmu = 1;
	}
	events = have_pmu ? hw_events : sw_events;
	if (a + 2 < argc && !strcmp(argv[a], "loop"))
		return cmd_loop(argv[a + 1], atof(argv[a + 2]));
	note("hwpmc_bench%s: %s events, %d CPUs", quick ? " -q" : "",
	     have_pmu ? "hardware" : "software", pmc_ncpu());
	all = a >= argc || !strcmp(argv[a], "all");
	for (i = 0; i < sizeof(benches) / sizeof(benches[0]); i++) {
		int want = all, j;

		for (j = a; j < argc && !want; j++)
			want = !strcmp(argv[j], benches[i].name);
		if (!want)
			continue;
		note("== %s", benches[i].name);
		benches[i].fn();
	}
	printf("bench: done, %d results, %d failed\n", nresults, nfailed);
	return nfailed ? 1 : 0;
}
