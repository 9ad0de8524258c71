// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: libcpc(3) (illumos' cpc(3CPC) API) against the real
 * module, in a VM as root.  Known work counted through cpc_bind_curlwp(),
 * cpc_bind_pctx() and cpc_bind_cpu() with software events, which every
 * guest has (task-clock of a spin, page-faults of fresh pages, cpu-clock
 * of a CPU), and instructions (PAPI_tot_ins) of a known loop where there
 * is a PMU (skipped without one); then the errors libcpc reports against
 * the module: bad events, too many requests for the counters, a set bound
 * twice, overflow notification of a CPU's set (ENOTSUP).  Overflow
 * notification (SIGEMT, the module's PMC_F_NOTIFY) of PAPI_tot_ins where
 * there is a PMU, else of page-faults.  cpc_bind_curlwp()
 * counts the calling thread alone (the module's PMC_F_THREAD): a busy
 * sibling thread's work is not in its counts.  SMPL (smpl_nrecs, hwpmc's
 * sampling): the records of a known loop are as many as asked, with PCs in
 * the loop's function (instructions with a PMU, else cpu-clock), and the
 * errors; a program's own pmc(3) log and the library's exclude each other.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libcpc.h>
#include <pmc.h>

#include "kselftest_harness.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void spin(double secs)
{
	double end = now() + secs;

	while (now() < end)
		;
}

/* What the error handler last heard */
static int last_sub;
static char last_msg[512];

static void handler(const char *fn, int subcode, const char *fmt, va_list ap)
{
	(void)fn;
	last_sub = subcode;
	vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
	if (last_msg[0] && last_msg[strlen(last_msg) - 1] == '\n')
		last_msg[strlen(last_msg) - 1] = '\0';	/* for TH_LOG */
}

/* One request's count over fn(arg), bound with cpc_bind_curlwp(). */
static int count_over(cpc_t *cpc, const char *event, uint_t flags,
		      void (*fn)(void *), void *arg, uint64_t *count)
{
	cpc_set_t *set = cpc_set_create(cpc);
	cpc_buf_t *a, *b, *d;
	int ix, rc = -1;

	if (!set)
		return -1;
	ix = cpc_set_add_request(cpc, set, event, 0, flags, 0, NULL);
	a = cpc_buf_create(cpc, set);
	b = cpc_buf_create(cpc, set);
	d = cpc_buf_create(cpc, set);
	if (ix < 0 || !a || !b || !d || cpc_bind_curlwp(cpc, set, 0) < 0)
		goto out;
	if (cpc_set_sample(cpc, set, a) < 0)
		goto out;
	fn(arg);
	if (cpc_set_sample(cpc, set, b) < 0)
		goto out;
	cpc_buf_sub(cpc, d, b, a);
	rc = cpc_buf_get(cpc, d, ix, count);
out:
	cpc_set_destroy(cpc, set);	/* unbinds */
	if (a)
		cpc_buf_destroy(cpc, a);
	if (b)
		cpc_buf_destroy(cpc, b);
	if (d)
		cpc_buf_destroy(cpc, d);
	return rc;
}

static void do_spin(void *arg)
{
	spin(*(double *)arg);
}

#define NPAGES	512

static void do_touch(void *arg)
{
	char *m = arg;
	long pg = sysconf(_SC_PAGESIZE), i;

	for (i = 0; i < NPAGES; i++)
		m[i * pg] = 1;
}

#define NLOOP	10000000UL

static void do_loop(void *arg)
{
	unsigned long i;

	(void)arg;
	for (i = 0; i < NLOOP; i++)
		__asm__ __volatile__("" ::: "memory");
}

FIXTURE(cpc) {
	cpc_t *cpc;
};

FIXTURE_SETUP(cpc)
{
	self->cpc = cpc_open(CPC_VER_CURRENT);
	ASSERT_NE(NULL, self->cpc) TH_LOG("cpc_open: %s", strerror(errno));
	cpc_seterrhndlr(self->cpc, handler);
}

FIXTURE_TEARDOWN(cpc)
{
	cpc_close(self->cpc);
}

TEST(version_mismatch)
{
	errno = 0;
	EXPECT_EQ(NULL, cpc_open(CPC_VER_CURRENT - 1));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(cpc, describes_the_processor)
{
	EXPECT_LT(0, cpc_npic(self->cpc));
	/* overflow notification (CPC_OVF_NOTIFY_EMT), decision 29 */
	EXPECT_EQ(CPC_CAP_OVERFLOW_INTERRUPT, cpc_caps(self->cpc));
	EXPECT_NE(0, strlen(cpc_cciname(self->cpc)));
	EXPECT_NE(0, strlen(cpc_cpuref(self->cpc)));
	TH_LOG("%s, %u counters", cpc_cciname(self->cpc), cpc_npic(self->cpc));
}

TEST_F(cpc, task_clock_of_a_spin)
{
	double secs = 0.2, t0, wall;
	uint64_t ns = 0;

	t0 = now();
	ASSERT_EQ(0, count_over(self->cpc, "task-clock",
				CPC_COUNT_USER | CPC_COUNT_SYSTEM, do_spin, &secs, &ns))
		TH_LOG("%s", last_msg);
	wall = now() - t0;
	TH_LOG("task-clock %.3f s over a %.3f s spin", ns / 1e9, secs);
	EXPECT_LE(secs * 0.5 * 1e9, (double)ns);
	EXPECT_GE(wall * 1.05 * 1e9, (double)ns);
}

TEST_F(cpc, page_faults_of_fresh_pages)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, NPAGES * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t n = 0;

	ASSERT_NE(MAP_FAILED, m);
	madvise(m, NPAGES * pg, MADV_NOHUGEPAGE);
	ASSERT_EQ(0, count_over(self->cpc, "page-faults",
				CPC_COUNT_USER | CPC_COUNT_SYSTEM, do_touch, m, &n))
		TH_LOG("%s", last_msg);
	TH_LOG("%llu page faults for %d fresh pages", (unsigned long long)n, NPAGES);
	EXPECT_LE(NPAGES, n);
	EXPECT_GE(NPAGES + 64, n);
	munmap(m, NPAGES * pg);
}

TEST_F(cpc, instructions_of_a_known_loop)
{
	cpc_set_t *set = cpc_set_create(self->cpc);
	uint64_t n = 0;

	/* is there an instruction counter? */
	if (cpc_set_add_request(self->cpc, set, "PAPI_tot_ins", 0,
				CPC_COUNT_USER, 0, NULL) < 0) {
		cpc_set_destroy(self->cpc, set);
		SKIP(return, "no PAPI_tot_ins (no PMU): %s", last_msg);
	}
	cpc_set_destroy(self->cpc, set);
	ASSERT_EQ(0, count_over(self->cpc, "PAPI_tot_ins", CPC_COUNT_USER,
				do_loop, NULL, &n))
		TH_LOG("%s", last_msg);
	TH_LOG("%llu instructions for %lu iterations", (unsigned long long)n, NLOOP);
	/* compare, add, branch at least; far fewer than 20 an iteration */
	EXPECT_LE(2 * NLOOP, n);
	EXPECT_GE(20 * NLOOP, n);
}

/*
 * A busy sibling thread: it spins (or touches fresh pages over and
 * over) until told to stop.
 */
struct busy {
	pthread_t th;
	int touch;
	volatile int stop;
	unsigned long rounds;
};

static void *busy_main(void *arg)
{
	struct busy *b = arg;
	long pg = sysconf(_SC_PAGESIZE), i;
	char *m;

	while (!b->stop) {
		if (b->touch) {
			m = mmap(NULL, 256 * pg, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (m == MAP_FAILED)
				break;
			madvise(m, 256 * pg, MADV_NOHUGEPAGE);
			for (i = 0; i < 256; i++)
				m[i * pg] = 1;
			munmap(m, 256 * pg);
		} else {
			spin(0.001);
		}
		b->rounds++;
	}
	return NULL;
}

static int busy_start(struct busy *b, int touch)
{
	memset(b, 0, sizeof(*b));
	b->touch = touch;
	if (pthread_create(&b->th, NULL, busy_main, b))
		return -1;
	while (!b->rounds)
		sched_yield();		/* it is busy */
	return 0;
}

static unsigned long busy_end(struct busy *b)
{
	b->stop = 1;
	pthread_join(b->th, NULL);
	return b->rounds;
}

static void do_sleep(void *arg)
{
	usleep(*(int *)arg);
}

/* touch the pages, then let the sibling fault for 0.2 s */
static void do_touch_and_wait(void *arg)
{
	do_touch(arg);
	usleep(200000);
}

/*
 * cpc_bind_curlwp() counts the calling LWP: the page faults of its fresh
 * pages, not those of a sibling faulting all the while; the task-clock
 * of a sleep, not the sibling's spin.
 */
TEST_F(cpc, curlwp_counts_the_lwp_not_a_busy_sibling)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, NPAGES * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int us = 300000;
	struct busy b;
	uint64_t n = 0;
	unsigned long rounds;

	ASSERT_NE(MAP_FAILED, m);
	madvise(m, NPAGES * pg, MADV_NOHUGEPAGE);
	ASSERT_EQ(0, busy_start(&b, 1));
	rounds = b.rounds;
	ASSERT_EQ(0, count_over(self->cpc, "page-faults",
				CPC_COUNT_USER | CPC_COUNT_SYSTEM,
				do_touch_and_wait, m, &n))
		TH_LOG("%s", last_msg);
	rounds = b.rounds - rounds;
	busy_end(&b);
	TH_LOG("%llu page faults for %d fresh pages; meanwhile the sibling touched %lu x 256",
	       (unsigned long long)n, NPAGES, rounds);
	EXPECT_LE(2, rounds);	/* enough to be seen, if it were counted */
	EXPECT_LE(NPAGES, n);
	EXPECT_GE(NPAGES + 64, n);
	munmap(m, NPAGES * pg);

	ASSERT_EQ(0, busy_start(&b, 0));
	ASSERT_EQ(0, count_over(self->cpc, "task-clock",
				CPC_COUNT_USER | CPC_COUNT_SYSTEM, do_sleep, &us, &n))
		TH_LOG("%s", last_msg);
	busy_end(&b);
	TH_LOG("task-clock %.3f s over a 0.3 s sleep while a sibling spun", n / 1e9);
	EXPECT_GT(0.05 * 1e9, (double)n);
}

/*
 * PAPI_tot_ins of a known loop through cpc_bind_curlwp() is the same
 * with a second busy thread in the process as without: the sibling's
 * instructions do not appear.  Both threads run on CPU 0, taking turns:
 * QEMU's emulated instruction counter (-icount) is the machine's
 * instruction count, not its vCPU's, so a CPU's counter also counts
 * what the other vCPU executes meanwhile (seen: a sibling spinning on
 * CPU 1 added 7.85M to the 20M of the loop on CPU 0).  On one CPU, what
 * the other vCPU does is the idle kernel's little; the sibling's
 * instructions, which a process-scope PMC would count, are in its own
 * time slices.
 */
TEST_F(cpc, instructions_of_a_known_loop_with_a_busy_sibling)
{
	cpc_set_t *set = cpc_set_create(self->cpc);
	uint64_t alone = 0, with = 0, diff;
	cpu_set_t old, one;
	struct busy b;

	if (cpc_set_add_request(self->cpc, set, "PAPI_tot_ins", 0,
				CPC_COUNT_USER, 0, NULL) < 0) {
		cpc_set_destroy(self->cpc, set);
		SKIP(return, "no PAPI_tot_ins (no PMU): %s", last_msg);
	}
	cpc_set_destroy(self->cpc, set);
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(old), &old));
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(one), &one));
	ASSERT_EQ(0, count_over(self->cpc, "PAPI_tot_ins", CPC_COUNT_USER,
				do_loop, NULL, &alone))
		TH_LOG("%s", last_msg);
	ASSERT_EQ(0, busy_start(&b, 0));	/* on CPU 0 too */
	ASSERT_EQ(0, count_over(self->cpc, "PAPI_tot_ins", CPC_COUNT_USER,
				do_loop, NULL, &with))
		TH_LOG("%s", last_msg);
	busy_end(&b);
	sched_setaffinity(0, sizeof(old), &old);
	diff = alone > with ? alone - with : with - alone;
	TH_LOG("%llu instructions alone, %llu with a busy sibling, %lu iterations",
	       (unsigned long long)alone, (unsigned long long)with, NLOOP);
	EXPECT_LE(2 * NLOOP, alone);
	EXPECT_GT(20 * NLOOP, alone);
	/* the sibling ran about as long as the loop: millions */
	EXPECT_GT(NLOOP / 1000, diff);
}

TEST_F(cpc, a_process_through_pctx)
{
	int go[2], done[2];
	cpc_set_t *set = cpc_set_create(self->cpc);
	cpc_buf_t *b = NULL;
	pctx_t *pctx;
	uint64_t ns = 0;
	pid_t child;
	char c;
	int st;

	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		close(go[1]);
		close(done[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		spin(0.2);
		if (write(done[1], "x", 1) != 1)
			_exit(1);
		(void)read(go[0], &c, 1);	/* until the parent is done */
		_exit(0);
	}
	close(go[0]);
	close(done[1]);
	pctx = pctx_capture(child, NULL, 0, NULL);
	ASSERT_NE(NULL, pctx);
	ASSERT_EQ(0, cpc_set_add_request(self->cpc, set, "task-clock", 0,
					 CPC_COUNT_USER | CPC_COUNT_SYSTEM, 0, NULL));
	b = cpc_buf_create(self->cpc, set);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(0, cpc_bind_pctx(self->cpc, pctx, child, set, 0)) TH_LOG("%s", last_msg);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(1, read(done[0], &c, 1));
	EXPECT_EQ(0, cpc_set_sample(self->cpc, set, b));
	EXPECT_EQ(0, cpc_buf_get(self->cpc, b, 0, &ns));
	TH_LOG("the child's task-clock: %.3f s of a 0.2 s spin", ns / 1e9);
	EXPECT_LE(0.1e9, (double)ns);
	EXPECT_GE(0.5e9, (double)ns);
	EXPECT_EQ(0, cpc_unbind(self->cpc, set));
	close(go[1]);
	waitpid(child, &st, 0);
	pctx_release(pctx);
	close(done[0]);
}

TEST_F(cpc, a_cpu)
{
	cpc_set_t *set = cpc_set_create(self->cpc);
	cpc_buf_t *a, *b, *d;
	cpu_set_t cs, old;
	uint64_t ns = 0;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(old), &old));
	CPU_ZERO(&cs);
	CPU_SET(0, &cs);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(cs), &cs));
	ASSERT_EQ(0, cpc_set_add_request(self->cpc, set, "cpu-clock", 0,
					 CPC_COUNT_USER | CPC_COUNT_SYSTEM, 0, NULL));
	a = cpc_buf_create(self->cpc, set);
	b = cpc_buf_create(self->cpc, set);
	d = cpc_buf_create(self->cpc, set);
	EXPECT_EQ(0, cpc_bind_cpu(self->cpc, 0, set, 0)) TH_LOG("%s", last_msg);
	EXPECT_EQ(0, cpc_set_sample(self->cpc, set, a));
	spin(0.1);
	EXPECT_EQ(0, cpc_set_sample(self->cpc, set, b));
	cpc_buf_sub(self->cpc, d, b, a);
	EXPECT_EQ(0, cpc_buf_get(self->cpc, d, 0, &ns));
	TH_LOG("CPU 0's cpu-clock: %.3f s over a 0.1 s spin on it", ns / 1e9);
	EXPECT_LE(0.05e9, (double)ns);
	EXPECT_GE(0.3e9, (double)ns);
	EXPECT_EQ(0, cpc_unbind(self->cpc, set));
	sched_setaffinity(0, sizeof(old), &old);
	errno = 0;
	EXPECT_EQ(-1, cpc_bind_cpu(self->cpc, 100000, set, 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(cpc, disable_and_enable)
{
	cpc_set_t *set = cpc_set_create(self->cpc);
	cpc_buf_t *a = NULL, *b = NULL, *d = NULL;
	uint64_t ns = 0;

	ASSERT_EQ(0, cpc_set_add_request(self->cpc, set, "task-clock", 0,
					 CPC_COUNT_USER | CPC_COUNT_SYSTEM, 0, NULL));
	a = cpc_buf_create(self->cpc, set);
	b = cpc_buf_create(self->cpc, set);
	d = cpc_buf_create(self->cpc, set);
	ASSERT_EQ(0, cpc_bind_curlwp(self->cpc, set, 0)) TH_LOG("%s", last_msg);
	EXPECT_EQ(0, cpc_disable(self->cpc));
	EXPECT_EQ(0, cpc_set_sample(self->cpc, set, a));
	spin(0.1);
	EXPECT_EQ(0, cpc_set_sample(self->cpc, set, b));
	cpc_buf_sub(self->cpc, d, b, a);
	cpc_buf_get(self->cpc, d, 0, &ns);
	TH_LOG("disabled: %.4f s counted over a 0.1 s spin", ns / 1e9);
	EXPECT_GE(0.005e9, (double)ns);
	EXPECT_EQ(0, cpc_enable(self->cpc));
	EXPECT_EQ(0, cpc_set_sample(self->cpc, set, a));
	spin(0.1);
	EXPECT_EQ(0, cpc_set_sample(self->cpc, set, b));
	cpc_buf_sub(self->cpc, d, b, a);
	cpc_buf_get(self->cpc, d, 0, &ns);
	TH_LOG("enabled: %.4f s counted over a 0.1 s spin", ns / 1e9);
	EXPECT_LE(0.05e9, (double)ns);
}

TEST_F(cpc, errors)
{
	cpc_set_t *set = cpc_set_create(self->cpc);
	int i, ix = 0;

	errno = 0;
	EXPECT_EQ(-1, cpc_set_add_request(self->cpc, set, "no-such-event", 0,
					  CPC_COUNT_USER, 0, NULL));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(CPC_INVALID_EVENT, last_sub);

	/* as many cpu-clock requests as the SOFT class has counters, no more */
	for (i = 0; i < 256; i++) {
		ix = cpc_set_add_request(self->cpc, set, "cpu-clock", 0,
					 CPC_COUNT_USER | CPC_COUNT_SYSTEM, 0, NULL);
		if (ix < 0)
			break;
	}
	EXPECT_EQ(-1, ix);
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(CPC_RESOURCE_UNAVAIL, last_sub) TH_LOG("%s", last_msg);
	TH_LOG("%d cpu-clock requests, then: %s", i, last_msg);
	/* ... and the module gives that many */
	EXPECT_EQ(0, cpc_bind_curlwp(self->cpc, set, 0)) TH_LOG("%s", last_msg);
	errno = 0;
	EXPECT_EQ(-1, cpc_bind_curlwp(self->cpc, set, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, cpc_unbind(self->cpc, set));
	cpc_set_destroy(self->cpc, set);

	/* overflow notification: for cpc_bind_curlwp() only */
	set = cpc_set_create(self->cpc);
	EXPECT_EQ(0, cpc_set_add_request(self->cpc, set, "cpu-clock", 0,
					 CPC_COUNT_USER | CPC_COUNT_SYSTEM | CPC_OVF_NOTIFY_EMT,
					 0, NULL));
	errno = 0;
	EXPECT_EQ(-1, cpc_bind_cpu(self->cpc, 0, set, 0));
	EXPECT_EQ(ENOTSUP, errno);
	EXPECT_EQ(CPC_PIC_NOT_CAPABLE, last_sub) TH_LOG("%s", last_msg);
	cpc_set_destroy(self->cpc, set);
}

/* ---- overflow notification (CPC_OVF_NOTIFY_EMT: SIGEMT, i.e. SIGSTKFLT) ---- */

static cpc_t *ovf_cpc;
static cpc_set_t *ovf_set;
static cpc_buf_t *ovf_buf;
static pid_t ovf_want;			/* the bound thread */
static volatile sig_atomic_t ovf_n, ovf_wrong, ovf_badcode, ovf_restart;
static uint64_t ovf_first;		/* the value sampled by the first */
static uint64_t ovf_next;		/* the preset a restart applies */

/* as illumos' cpc(3CPC) example: sample, set the preset, restart */
static void emt_handler(int sig, siginfo_t *si, void *uc)
{
	uint64_t v = 0;

	(void)uc;
	if (sig != SIGEMT || si->si_code != EMT_CPCOVF)
		ovf_badcode++;
	if ((pid_t)syscall(SYS_gettid) != ovf_want)
		ovf_wrong++;
	if (cpc_set_sample(ovf_cpc, ovf_set, ovf_buf) == 0 &&
	    cpc_buf_get(ovf_cpc, ovf_buf, 0, &v) == 0 && !ovf_n)
		ovf_first = v;
	ovf_n++;
	if (ovf_restart) {
		cpc_request_preset(ovf_cpc, 0, ovf_next);
		cpc_set_restart(ovf_cpc, ovf_set);
	}
}

static void do_touch_n(char *m, long n)
{
	long pg = sysconf(_SC_PAGESIZE), i;

	for (i = 0; i < n; i++)
		m[i * pg] = 1;
}

/* What one overflow run saw */
struct ovf_seen {
	int n1, n2, n3;			/* signals: unrestarted, restarted, unbound */
	uint64_t first;			/* the value the first handler sampled */
	int wrong, badcode;
};

/* work of about reps x 4 periods: the known loop, or fresh pages */
static void ovf_work(int ins, char *m, int reps)
{
	long pg = sysconf(_SC_PAGESIZE);
	int i;

	for (i = 0; i < reps; i++) {
		if (ins)
			do_loop(NULL);		/* > 20 periods of 1M */
		else
			do_touch_n(m + (long)i * 4096 * pg, 4096);	/* 4 of 1000 */
	}
}

static int ovf_run(cpc_t *cpc, const char *event, uint_t flags,
		   uint64_t period, int ins, struct ovf_seen *seen)
{
	long pg = sysconf(_SC_PAGESIZE), npg = 3 * 4096;
	struct sigaction sa, old;
	struct busy b;
	int rc = -1;
	char *m;

	memset(seen, 0, sizeof(*seen));
	ovf_cpc = cpc;
	ovf_set = cpc_set_create(cpc);
	if (!ovf_set || cpc_set_add_request(cpc, ovf_set, event, UINT64_MAX - period + 1,
					     flags | CPC_OVF_NOTIFY_EMT, 0, NULL) < 0)
		return -1;
	ovf_buf = cpc_buf_create(cpc, ovf_set);
	m = mmap(NULL, npg * pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!ovf_buf || m == MAP_FAILED)
		return -1;
	madvise(m, npg * pg, MADV_NOHUGEPAGE);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = emt_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGEMT, &sa, &old) < 0)
		return -1;
	ovf_want = (pid_t)syscall(SYS_gettid);
	ovf_n = ovf_wrong = ovf_badcode = ovf_restart = 0;
	ovf_first = UINT64_MAX;
	/*
	 * The busy sibling for page-faults only: with one spinning beside
	 * it, instructions' first overflow on the loaded arm64 guest came
	 * inside cpc_bind_curlwp() at times, and the run then lasted past
	 * the program's 300 s (CI run of ba8fa0c; unexplained, closing
	 * note).  That no signal goes to a sibling is page-faults' check.
	 */
	if (!ins && busy_start(&b, 1) < 0)
		return -1;

	/* one signal, however far past 2^64 the count goes */
	if (cpc_bind_curlwp(cpc, ovf_set, 0) < 0)
		goto out;
	ovf_work(ins, m, 1);
	seen->n1 = ovf_n;

	/* restarted from the preset by the handler: one every period */
	ovf_next = UINT64_MAX - period + 1;
	ovf_restart = 1;
	if (cpc_request_preset(cpc, 0, ovf_next) < 0 ||
	    cpc_set_restart(cpc, ovf_set) < 0)
		goto out;
	ovf_work(ins, ins ? m : m + 4096 * pg, 1);
	seen->n2 = ovf_n - seen->n1;
	ovf_restart = 0;

	/*
	 * unbound: none.  (A signal may come as the unbind returns: on the
	 * arm64 guest QEMU finds an instruction counter's overflow at the
	 * next exception, here the unbind's system call, and the signal of
	 * an overflow that came while bound is delivered at its return.)
	 */
	if (cpc_unbind(cpc, ovf_set) < 0)
		goto out;
	seen->n2 = ovf_n - seen->n1;
	ovf_work(ins, ins ? m : m + 2 * 4096 * pg, 1);
	seen->n3 = ovf_n - seen->n1 - seen->n2;
	rc = 0;
out:
	if (!ins)
		busy_end(&b);
	sigaction(SIGEMT, &old, NULL);
	seen->first = ovf_first;
	seen->wrong = ovf_wrong;
	seen->badcode = ovf_badcode;
	cpc_buf_destroy(cpc, ovf_buf);
	cpc_set_destroy(cpc, ovf_set);
	munmap(m, npg * pg);
	return rc;
}

/*
 * A request with CPC_OVF_NOTIFY_EMT and a preset P events below 2^64,
 * bound with cpc_bind_curlwp() (page-faults: while a sibling thread works
 * the same event all along): the bound thread gets SIGEMT (si_code EMT_CPCOVF)
 * once when its count passes 2^64 (the value sampled in the handler has
 * wrapped: below the preset), and no more however far it goes on until
 * cpc_set_restart(); a handler that restarts with the preset gets one
 * signal every P events; the sibling never gets one; nothing after the
 * unbind.  page-faults of fresh pages (a software event) in every guest,
 * where the signal comes at the overflowing fault (the value is exactly
 * 2^64: 0); PAPI_tot_ins of a known loop where there is a PMU (the arm64
 * guest), where QEMU raises the overflow late (seen: 2M instructions).
 * Three loops of 20M instructions take minutes on a loaded arm64 guest:
 * 300 s (the harness's default is 30 s).
 */
TEST_F_TIMEOUT(cpc, overflow_signal_to_the_bound_thread, 300)
{
	static const struct {
		const char *event;
		uint_t flags;
		uint64_t period;
		int ins;
	} runs[] = {
		{ "page-faults", CPC_COUNT_USER | CPC_COUNT_SYSTEM, 1000, 0 },
		{ "PAPI_tot_ins", CPC_COUNT_USER, 1000000, 1 },
	};
	struct ovf_seen seen;
	unsigned int i;
	cpc_set_t *set;

	ASSERT_EQ(CPC_CAP_OVERFLOW_INTERRUPT,
		  cpc_caps(self->cpc) & CPC_CAP_OVERFLOW_INTERRUPT);
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		if (runs[i].ins) {
			set = cpc_set_create(self->cpc);
			if (cpc_set_add_request(self->cpc, set, runs[i].event, 0,
						runs[i].flags, 0, NULL) < 0) {
				TH_LOG("no %s (%s): not run", runs[i].event, last_msg);
				cpc_set_destroy(self->cpc, set);
				continue;
			}
			cpc_set_destroy(self->cpc, set);
		}
		ASSERT_EQ(0, ovf_run(self->cpc, runs[i].event, runs[i].flags,
				     runs[i].period, runs[i].ins, &seen))
			TH_LOG("%s: %s", runs[i].event, last_msg);
		TH_LOG("%s, overflow every %llu: %d signal(s) unrestarted, %d restarted, %d unbound; first sampled %llu; sibling's %d, bad si_code %d",
		       runs[i].event, (unsigned long long)runs[i].period,
		       seen.n1, seen.n2, seen.n3, (unsigned long long)seen.first,
		       seen.wrong, seen.badcode);
		EXPECT_EQ(1, seen.n1);
		/* wrapped past 2^64: below the preset */
		EXPECT_GT(UINT64_MAX - runs[i].period + 1, seen.first);
		if (!runs[i].ins)
			EXPECT_GT(64, seen.first);	/* at the fault */
		EXPECT_LE(3, seen.n2);
		EXPECT_EQ(0, seen.n3);
		EXPECT_EQ(0, seen.wrong);
		EXPECT_EQ(0, seen.badcode);
	}
}

/*
 * ---- SMPL (Oracle Solaris 11's hardware sampling): smpl_nrecs ----
 *
 * As cpc(3CPC)'s examples would: a SMPL request of instructions (a PMU:
 * the arm64 guest) or of cpu-clock (the x86 guests) bound to the calling
 * LWP, a known loop, then cpc_set_sample(): the records asked for, each
 * a PC inside the loop's function.  The function is alone in a section
 * of its own, whose bounds the linker gives (__start_/__stop_).
 */
#define SMPL_NRECS	32

__attribute__((noipa, section("cpc_smpl_text")))
static void smpl_loop(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		__asm__ __volatile__("" ::: "memory");
}

extern const char __start_cpc_smpl_text[], __stop_cpc_smpl_text[];

static double thread_secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * secs of CPU in the loop, in chunks of 20M iterations (cpu-clock samples
 * at its timer, in the loop); secs 0: one call of 150M iterations, no
 * system call between (the arm64 guest's PMU interrupts, pending since
 * the overflow, come at the next exception: a system call's too).
 */
static void smpl_work(double secs)
{
	double end = thread_secs() + secs;

	if (secs == 0) {
		smpl_loop(150000000);
		return;
	}
	/*
	 * 20M iterations between the clock's system calls: with 1M a
	 * cpu-clock sample landed in one of them (6.12 guest: 30 of 31)
	 */
	do
		smpl_loop(20000000);
	while (thread_secs() < end);
}

struct smpl_run {
	const char *event;	/* what was sampled */
	uint64_t period;	/* every that many events */
	uint_t nrec;		/* records in the buffer */
	uint_t in_loop;		/* ... but the first, whose pc is smpl_loop()'s */
	int first_in_loop;	/* the first's too */
	uint_t ordered;		/* ... whose hrtime follows the previous */
	uint_t cpu_ok;		/* ... whose cpu exists */
	uint_t sp_ok;		/* ... whose stack pointer is this thread's */
	uint64_t count;		/* the request's value */
	uint64_t pc0;
};

#if defined(__x86_64__)
#define SMPL_SP	"rsp"
#elif defined(__aarch64__)
#define SMPL_SP	"sp"
#else
#define SMPL_SP	NULL
#endif

static int smpl_sp_index = -1;

static void smpl_find_sp(void *arg, const char *name, int idx)
{
	(void)arg;
	if (SMPL_SP && strcmp(name, SMPL_SP) == 0)
		smpl_sp_index = idx;
}

/*
 * One SMPL request of event (every period events, smpl_nrecs records,
 * with the registers if regs) over the loop; -1 if the request or the
 * bind was refused.
 */
static int smpl_run(cpc_t *cpc, const char *event, uint64_t period, int regs,
		    double secs, struct smpl_run *out)
{
	cpc_attr_t attrs[2] = { { CPC_SMPL_NRECS, SMPL_NRECS }, { CPC_SMPL_REGS, 1 } };
	cpc_set_t *set = cpc_set_create(cpc);
	uintptr_t lo = (uintptr_t)__start_cpc_smpl_text;
	uintptr_t hi = (uintptr_t)__stop_cpc_smpl_text;
	uintptr_t here = (uintptr_t)&set;
	uint64_t last = 0, *rec;
	cpc_buf_t *buf;
	int ix, rc = -1;
	uint_t i;

	memset(out, 0, sizeof(*out));
	out->event = event;
	out->period = period;
	ix = cpc_set_add_request(cpc, set, event, UINT64_MAX - period + 1,
				 CPC_COUNT_USER, regs ? 2 : 1, attrs);
	buf = cpc_buf_create(cpc, set);
	if (ix < 0 || !buf)
		goto out;
	if (regs)
		cpc_walk_smpl_recitems_req(cpc, set, ix, NULL, smpl_find_sp);
	if (cpc_bind_curlwp(cpc, set, 0) < 0)
		goto out;
	smpl_work(secs);
	if (cpc_set_sample(cpc, set, buf) < 0 ||
	    cpc_buf_smpl_rec_count(cpc, buf, ix, &out->nrec) < 0 ||
	    cpc_buf_get(cpc, buf, ix, &out->count) < 0)
		goto out;
	for (i = 0; i < out->nrec; i++) {
		rec = cpc_buf_smpl_get_record(cpc, buf, ix, (int)i);
		if (!rec)
			goto out;
		if (i == 0)
			out->pc0 = rec[CPC_SMPL_ITEM_PC];
		if (i == 0)
			out->first_in_loop = rec[CPC_SMPL_ITEM_PC] >= lo &&
					     rec[CPC_SMPL_ITEM_PC] < hi;
		else
			out->in_loop += rec[CPC_SMPL_ITEM_PC] >= lo &&
					rec[CPC_SMPL_ITEM_PC] < hi;
		out->ordered += rec[CPC_SMPL_ITEM_HRTIME] >= last;
		last = rec[CPC_SMPL_ITEM_HRTIME];
		out->cpu_ok += rec[CPC_SMPL_ITEM_CPU] < (uint64_t)sysconf(_SC_NPROCESSORS_CONF);
		/* the thread's stack: within a megabyte of a local variable */
		if (regs && smpl_sp_index >= 0)
			out->sp_ok += rec[smpl_sp_index] <= here + (1 << 20) &&
				      rec[smpl_sp_index] + (1 << 20) >= here;
	}
	rc = 0;
out:
	cpc_set_destroy(cpc, set);
	if (buf)
		cpc_buf_destroy(cpc, buf);
	return rc;
}

/*
 * Instructions where there is a PMU (every 100,000, over 150M iterations),
 * else cpu-clock (1 ms, over half a second of the thread's CPU time).
 * The arm64 guest's PMU (QEMU with -icount) raises its overflow
 * interrupts at the guest's next tick (about every 4 ms) or exception,
 * whatever the period: 2M iterations gave 2 records of the 32 asked, and
 * half a second in 1M-iteration chunks 32 records of which 18 at the
 * chunks' clock_gettime() system call.  150M iterations are about 110
 * ticks there, and no system call.
 */
static int smpl_known_loop(cpc_t *cpc, int regs, struct smpl_run *r,
			   struct __test_metadata *_metadata)
{
	if (smpl_run(cpc, "PAPI_tot_ins", 100000, regs, 0, r) == 0)
		return 0;
	TH_LOG("no SMPL of PAPI_tot_ins (%s): cpu-clock", last_msg);
	return smpl_run(cpc, "cpu-clock", 1000000, regs, 0.5, r);
}

static void smpl_check(struct smpl_run *r, int regs, struct __test_metadata *_metadata)
{
	TH_LOG("%s every %llu: %u records, %u after the first in smpl_loop() [%p, %p), first pc %#llx (%s), %u with this thread's stack pointer; count %llu",
	       r->event, (unsigned long long)r->period, r->nrec, r->in_loop,
	       (void *)__start_cpc_smpl_text, (void *)__stop_cpc_smpl_text,
	       (unsigned long long)r->pc0, r->first_in_loop ? "in it" : "before it",
	       r->sp_ok, (unsigned long long)r->count);
	EXPECT_EQ(SMPL_NRECS, r->nrec);
	/*
	 * The set samples from its bind: the first record may be of the
	 * bind's own return (the 6.12 x86 guest once had it in
	 * cpc_bind()'s clock_gettime() of the thread's CPU time); every
	 * later one is the loop's.
	 */
	if (strcmp(r->event, "cpu-clock")) {	/* no system call */
		EXPECT_EQ(r->nrec - 1, r->in_loop);
	} else {				/* one may be the clock's */
		EXPECT_LE(r->nrec - 2, r->in_loop);
	}
	EXPECT_EQ(r->nrec, r->ordered);
	EXPECT_EQ(r->nrec, r->cpu_ok);
	if (regs)
		EXPECT_EQ(r->nrec, r->sp_ok);
	/* it counts too: from its preset, 2^64 - period, past 2^64 (wrapped) */
	EXPECT_LE((uint64_t)(SMPL_NRECS - 1) * r->period, r->count);
}

TEST_F(cpc, smpl_records_of_a_known_loop)
{
	struct smpl_run r;

	ASSERT_LT(0, cpc_smpl_npic(self->cpc));
	ASSERT_LE(SMPL_NRECS, cpc_get_smpl_max_rec_count(self->cpc));
	TH_LOG("SMPL: %u counters, %u records at most: %s", cpc_smpl_npic(self->cpc),
	       cpc_get_smpl_max_rec_count(self->cpc), cpc_smpl_iname(self->cpc));
	ASSERT_EQ(0, smpl_known_loop(self->cpc, 0, &r, _metadata)) TH_LOG("%s", last_msg);
	smpl_check(&r, 0, _metadata);
}

TEST_F(cpc, smpl_records_with_registers)
{
	struct smpl_run r;

	if (!SMPL_SP)
		SKIP(return, "no user registers in SMPL records on this architecture");
	ASSERT_EQ(0, smpl_known_loop(self->cpc, 1, &r, _metadata)) TH_LOG("%s", last_msg);
	ASSERT_LE(0, smpl_sp_index);
	smpl_check(&r, 1, _metadata);
}

TEST_F(cpc, smpl_errors)
{
	cpc_attr_t nrecs = { CPC_SMPL_NRECS, 8 }, zero = { CPC_SMPL_NRECS, 0 };
	cpc_set_t *set = cpc_set_create(self->cpc);
	cpc_t *only;
	int fd;

	errno = 0;
	EXPECT_EQ(-1, cpc_set_add_request(self->cpc, set, "cpu-clock", 0,
					  CPC_COUNT_USER, 1, &zero));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(CPC_ATTRIBUTE_OUT_OF_RANGE, last_sub) TH_LOG("%s", last_msg);
	errno = 0;
	EXPECT_EQ(-1, cpc_set_add_request(self->cpc, set, "cpu-clock", 0,
					  CPC_COUNT_USER | CPC_OVF_NOTIFY_EMT, 1, &nrecs));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(CPC_CONFLICTING_REQS, last_sub) TH_LOG("%s", last_msg);

	/* SMPL requests: cpc_bind_curlwp() only */
	EXPECT_EQ(0, cpc_set_add_request(self->cpc, set, "cpu-clock", UINT64_MAX - 999999,
					 CPC_COUNT_USER, 1, &nrecs));
	errno = 0;
	EXPECT_EQ(-1, cpc_bind_cpu(self->cpc, 0, set, 0));
	EXPECT_EQ(ENOTSUP, errno);
	EXPECT_EQ(CPC_PIC_NOT_CAPABLE, last_sub) TH_LOG("%s", last_msg);

	/* the process's log: the program's, or the library's while bound */
	fd = open("/dev/null", O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pmc_configure_logfile(fd)) TH_LOG("%s", strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, cpc_bind_curlwp(self->cpc, set, 0));
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_EQ(CPC_RESOURCE_UNAVAIL, last_sub) TH_LOG("%s", last_msg);
	EXPECT_EQ(0, pmc_close_logfile());
	EXPECT_EQ(0, cpc_bind_curlwp(self->cpc, set, 0)) TH_LOG("%s", last_msg);
	errno = 0;
	EXPECT_EQ(-1, pmc_configure_logfile(fd));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(0, cpc_unbind(self->cpc, set));
	EXPECT_EQ(0, pmc_configure_logfile(fd)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, pmc_close_logfile());
	close(fd);
	cpc_set_destroy(self->cpc, set);

	/* a CPC-only handle has no SMPL */
	only = cpc_open(CPC_VER_CPC_ONLY);
	ASSERT_NE(NULL, only);
	cpc_seterrhndlr(only, handler);
	EXPECT_EQ(0, cpc_smpl_npic(only));
	set = cpc_set_create(only);
	errno = 0;
	EXPECT_EQ(-1, cpc_set_add_request(only, set, "cpu-clock", 0, CPC_COUNT_USER, 1, &nrecs));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(CPC_INVALID_ATTRIBUTE, last_sub) TH_LOG("%s", last_msg);
	cpc_close(only);
}

TEST_HARNESS_MAIN
