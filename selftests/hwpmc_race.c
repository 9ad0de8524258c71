// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: a concurrency fuzzer for /dev/hwpmc, in a VM, as root.
 *
 *   hwpmc_race [-d SECONDS] [-s SEED] [-p PROCS] [-t THREADS] [-r]
 *              [-H] [-L] [-R] [-v]
 *
 *   -d  how long the fuzzing runs (default 60 s)
 *   -s  seed (default: from the clock; printed either way: each thread's
 *       sequence follows from it, the interleaving of course does not)
 *   -p  owner processes (default 3), each with -t threads (default 4)
 *   -r  reload the module around the run: first with small, many log
 *       buffers (what the log race below needs), at the end with the
 *       defaults; "rmmod" and "modprobe" must succeed then
 *   -H  no CPU hotplug      -L  no log race      -R  no rmmod attempts
 *
 * Where hwpmc_fuzz throws hostile arguments at the ioctls, this one
 * throws valid-ish calls (valid pointers; real events, modes and flags;
 * ids that are live, released, or other owners') from many threads at
 * once, and races them against the life of the processes and files they
 * name:
 *
 *  - owner processes: THREADS threads each issue random operations
 *    (every ioctl, pread/pwrite at a PMC id) on /dev/hwpmc descriptors
 *    they share, which other threads close(), dup() over and reopen;
 *    owners exec themselves (PMCs go, descriptors stay) and exit;
 *  - target processes, children of the owners: they spawn threads, fork
 *    (grandchildren), exec themselves and exit while being attached to,
 *    detached from, started and stopped;
 *  - logs: CONFIGURELOG to pipes (read or not), files, sockets,
 *    /dev/null, /dev/full; FLUSHLOG, WRITELOG, CLOSELOG from every thread;
 *  - CPU hotplug: the last CPU goes offline and online again;
 *  - module unload: "rmmod" (delete_module) while descriptors are open
 *    must fail;
 *  - the log race (review finding C1): a victim owner's threads, at
 *    SCHED_IDLE behind CPU hogs, FLUSHLOG while another thread CLOSELOGs
 *    or closes the descriptor the log was configured through.  The log
 *    workqueue (256 active items) is first filled with 255 writers
 *    blocked on stopped pseudo-terminals (review finding M4), and the
 *    256th is taken as soon as the log is closed, so that a FLUSHLOG
 *    that re-queues the closed log's work leaves it queued while the
 *    log is freed (kfree_rcu; a stream of PMC releases on every CPU
 *    shortens its batching); then the writers are let go.  On a kernel
 *    with KASAN the workqueue then reports the use-after-free.  A module
 *    that refuses terminals as logs (M4 fixed) cannot be plugged: the
 *    victims then race with the window the machine gives (0.3 s rounds).
 *
 * Pass criteria: every process reaped within 60 s of SIGKILL (nothing
 * stuck in the module), no unexpected errno (EFAULT, ENOTTY, ENOSYS, or
 * a kernel-internal value: the arguments are valid), every ioctl
 * reached, the operations and the process life happened, rmmod refused
 * while descriptors are open, no WARNING/BUG/KASAN/lockdep in the kernel
 * log, and the module works afterwards (allocate, attach, start, read,
 * stop, release; with -r it unloads and loads).  The output ends with a
 * coverage table: per operation, calls, successes and errno counts.
 * TAP, "# Totals:", "N passed, N failed".
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <linux/hwpmc.h>

#include "hwpmc_selftest.h"

#define SHM		"/dev/shm/hwpmc_race"
#define NIDS		256
#define NPIDS		128
#define SLOT0		900		/* /dev/hwpmc descriptors live at 900.. */
#define NSLOTS		6
#define MAXEV		512
#define MAXPROCS	16
#define MAXTHREADS	16
#define NERR		135		/* errno buckets; the last: anything else */
#define MAXPLUGS	400
#define HOTCPU_PATH	"/sys/devices/system/cpu/cpu%d/online"

enum op {
	OP_ALLOCATE, OP_ATTACH, OP_DETACH, OP_START, OP_STOP, OP_READ, OP_WRITE,
	OP_SETCOUNT, OP_RELEASE, OP_CONFIGURELOG, OP_FLUSHLOG, OP_CLOSELOG,
	OP_WRITELOG, OP_GETPMCINFO, OP_GETDRIVERSTATS, OP_GETCPUINFO,
	OP_GETCAPS, OP_GETDYNEVENTINFO, OP_GETMSR, OP_GETMODULEVERSION,
	OP_PMCADMIN, OP_PREAD, OP_PWRITE, OP_CLOSE, OP_DUP, OP_OPEN,
	OP_FORK, OP_EXEC, OP_EXIT, OP_KILL, OP_CPU_OFF, OP_CPU_ON, OP_RMMOD,
	OP_MODPROBE, OP_PLUG, OP_LOGRACE,
	NOP
};

static const char *opname[NOP] = {
	"ALLOCATE", "ATTACH", "DETACH", "START", "STOP", "READ", "WRITE",
	"SETCOUNT", "RELEASE", "CONFIGURELOG", "FLUSHLOG", "CLOSELOG",
	"WRITELOG", "GETPMCINFO", "GETDRIVERSTATS", "GETCPUINFO",
	"GETCAPS", "GETDYNEVENTINFO", "GETMSR", "GETMODULEVERSION",
	"PMCADMIN", "pread", "pwrite", "close", "dup", "open",
	"fork", "exec", "exit", "kill", "cpu-offline", "cpu-online", "rmmod",
	"modprobe", "log-plug", "log-race",
};

/* -- shared between all processes (a file in /dev/shm: exec'd ones too) -- */

struct unexpected {
	int op, err;
	pid_t pid;
};

struct shared {
	volatile int	stop;
	volatile int	victim_closed;	/* the log race's state */
	volatile int	race_ready;	/* the log workqueue is full but one slot */
	volatile int	race_unplugged;	/* terminals refused as logs (M4) */
	unsigned long	rm_calls, rm_ok; /* rmmod attempts while a descriptor is open */
	uint32_t	ids[NIDS];
	pid_t		pids[NPIDS];
	unsigned long	calls[NOP], ok[NOP];
	unsigned long	err[NOP][NERR];
	unsigned long	nunexp;
	struct unexpected unexp[16];
	unsigned long	late_flush;	/* FLUSHLOGs that returned after the close */
};

static struct shared *sh;

static void count(int op, int r, int e)
{
	__atomic_fetch_add(&sh->calls[op], 1, __ATOMIC_RELAXED);
	if (r >= 0) {
		__atomic_fetch_add(&sh->ok[op], 1, __ATOMIC_RELAXED);
		return;
	}
	__atomic_fetch_add(&sh->err[op][e > 0 && e < NERR - 1 ? e : NERR - 1], 1,
			   __ATOMIC_RELAXED);
}

/* An errno a valid call never gets. */
static void unexpected(int op, int e)
{
	unsigned long n = __atomic_fetch_add(&sh->nunexp, 1, __ATOMIC_RELAXED);

	if (n < sizeof(sh->unexp) / sizeof(sh->unexp[0])) {
		sh->unexp[n].op = op;
		sh->unexp[n].err = e;
		sh->unexp[n].pid = getpid();
	}
}

/* -- the machine --------------------------------------------------------- */

static struct pmc_op_getcpuinfo ci;
static struct {
	uint32_t class, nev;
	struct pmc_dyn_event_descr ev[MAXEV];
} classes[PMC_CLASS_MAX];
static int nclasses, ncpus, nonline;
static char self_exe[4096];

static void learn_machine(int fd)
{
	struct pmc_op_getdyneventinfo gd;
	uint32_t i;

	if (ioctl(fd, HWPMC_IOC_GETCPUINFO, &ci)) {
		perror("GETCPUINFO");
		exit(1);
	}
	ncpus = ci.pm_ncpu;
	nonline = sysconf(_SC_NPROCESSORS_ONLN);
	nclasses = 0;
	for (i = 0; i < ci.pm_nclass && i < PMC_CLASS_MAX; i++) {
		classes[nclasses].class = ci.pm_classes[i].pm_class;
		gd.pm_class = ci.pm_classes[i].pm_class;
		gd.pm_nevent = MAXEV;
		gd.pm_events = (uintptr_t)classes[nclasses].ev;
		classes[nclasses].nev = 0;
		if (ioctl(fd, HWPMC_IOC_GETDYNEVENTINFO, &gd) == 0)
			classes[nclasses].nev = gd.pm_nevent < MAXEV ? gd.pm_nevent : MAXEV;
		nclasses++;
	}
}

static void msleep(int ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

/* -- one ioctl, counted and judged --------------------------------------- */

static int op_ioctl(int op, int fd, unsigned long cmd, void *arg)
{
	int r = ioctl(fd, cmd, arg), e = errno;

	count(op, r, e);
	/*
	 * Valid pointers and command numbers; the descriptor is closed
	 * (EBADF) or /dev/hwpmc: nothing else lives at SLOT0 and up.
	 */
	if (r < 0 && (e == EFAULT || e == ENOTTY || e == ENOSYS || e >= 512))
		unexpected(op, e);
	errno = e;
	return r;
}

/* -- ids and pids, shared --------------------------------------------------- */

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static uint32_t myids[32];
static int nmyids;

static void add_id(uint32_t id)
{
	pthread_mutex_lock(&mu);
	if (nmyids < 32)
		myids[nmyids++] = id;
	else
		myids[rn(32)] = id;
	pthread_mutex_unlock(&mu);
	__atomic_store_n(&sh->ids[rn(NIDS)], id, __ATOMIC_RELAXED);
}

static uint32_t pick_id(void)
{
	uint32_t id = 0;

	if (chance(75)) {
		pthread_mutex_lock(&mu);
		if (nmyids)
			id = myids[rn(nmyids)];
		pthread_mutex_unlock(&mu);
	}
	if (!id)
		id = __atomic_load_n(&sh->ids[rn(NIDS)], __ATOMIC_RELAXED);
	if (!id || chance(2))
		id = chance(50) ? PMC_ID_INVALID : (uint32_t)rnd();
	return id;
}

static void add_pid(pid_t p)
{
	__atomic_store_n(&sh->pids[rn(NPIDS)], p, __ATOMIC_RELAXED);
}

static pid_t pick_pid(void)
{
	pid_t p;

	if (chance(20))
		return chance(50) ? 0 : getpid();
	p = __atomic_load_n(&sh->pids[rn(NPIDS)], __ATOMIC_RELAXED);
	return p ? p : getpid();
}

static int slot(void)
{
	return SLOT0 + (int)rn(NSLOTS);
}

/* -- the operations ------------------------------------------------------------ */

static uint32_t pick_event(uint32_t *class)
{
	int c = nclasses ? (int)rn(nclasses) : 0;

	*class = nclasses ? classes[c].class : 0;
	if (nclasses && classes[c].nev && chance(95))
		return classes[c].ev[rn(classes[c].nev)].pm_ev_code;
	return PMC_EV_PMU_HW_FIRST + rn(10);
}

static void op_allocate(void)
{
	static const uint32_t flags[] = {
		0, 0, 0, PMC_F_DESCENDANTS, PMC_F_LOG_PROCCSW, PMC_F_LOG_PROCEXIT,
		PMC_F_CALLCHAIN, PMC_F_USERCALLCHAIN,
		PMC_F_DESCENDANTS | PMC_F_LOG_PROCEXIT | PMC_F_LOG_PROCCSW,
		PMC_F_CALLCHAIN | PMC_F_DESCENDANTS,
	};
	struct pmc_op_pmcallocate pa;

	memset(&pa, 0, sizeof(pa));
	pa.pm_mode = rn(4);
	pa.pm_ev = pick_event(&pa.pm_class);
	pa.pm_cpu = PMC_IS_VIRTUAL_MODE(pa.pm_mode) ? PMC_CPU_ANY : rn(ncpus);
	pa.pm_flags = flags[rn(sizeof(flags) / sizeof(flags[0]))];
	if (chance(5))
		pa.pm_flags = rn(PMC_F_LAST << 1);	/* some invalid */
	pa.pm_caps = chance(80) ? 0 : chance(50) ? PMC_CAP_USER : PMC_CAP_SYSTEM;
	if (PMC_IS_SAMPLING_MODE(pa.pm_mode))
		pa.pm_count = chance(30) ? 20000 + rn(100000) : 1000000 + rn(10000000);
	else
		pa.pm_count = chance(80) ? 0 : rnd() >> 8;
	if (op_ioctl(OP_ALLOCATE, slot(), HWPMC_IOC_PMCALLOCATE, &pa) == 0 && pa.pm_pmcid)
		add_id(pa.pm_pmcid);
}

static void op_attach(int op)
{
	struct pmc_op_pmcattach a = { .pm_pmc = pick_id(), .pm_pid = pick_pid() };

	op_ioctl(op, slot(), op == OP_ATTACH ? HWPMC_IOC_PMCATTACH : HWPMC_IOC_PMCDETACH, &a);
}

static void op_simple(int op)
{
	struct pmc_op_simple s = { .pm_pmcid = pick_id() };
	unsigned long cmd = op == OP_START ? HWPMC_IOC_PMCSTART :
			    op == OP_STOP ? HWPMC_IOC_PMCSTOP : HWPMC_IOC_PMCRELEASE;

	op_ioctl(op, slot(), cmd, &s);
}

static void op_rw(int op)
{
	struct pmc_op_pmcrw rw = { .pm_pmcid = pick_id() };

	if (op == OP_WRITE) {
		rw.pm_flags = PMC_F_NEWVALUE | (chance(50) ? PMC_F_OLDVALUE : 0);
		rw.pm_value = chance(50) ? 0 : rnd() >> rn(64);
	} else {
		rw.pm_flags = PMC_F_OLDVALUE;
	}
	op_ioctl(op, slot(), HWPMC_IOC_PMCRW, &rw);
}

static void op_setcount(void)
{
	struct pmc_op_pmcsetcount sc = { .pm_pmcid = pick_id() };

	sc.pm_count = chance(50) ? 100000 + rn(10000000) : rnd() >> rn(64);
	op_ioctl(OP_SETCOUNT, slot(), HWPMC_IOC_PMCSETCOUNT, &sc);
}

/* pread/pwrite of 8 bytes at the PMC id: PMCRW's other way in */
static void op_prw(int op)
{
	uint64_t v = rnd() >> rn(64);
	ssize_t r;
	int e;

	r = op == OP_PREAD ? pread(slot(), &v, 8, pick_id()) :
			     pwrite(slot(), &v, 8, pick_id());
	e = errno;
	count(op, r < 0 ? -1 : 0, e);
	if (r < 0 && (e == EFAULT || e == ENOTTY || e >= 512))
		unexpected(op, e);
}

static void op_info(int which)
{
	union {
		struct pmc_op_getcpuinfo c;
		struct pmc_op_getdriverstats s;
		struct pmc_op_caps caps;
		struct pmc_op_getmsr msr;
		uint32_t v;
	} u;
	static __thread struct pmc_info pi[64];
	static __thread struct pmc_dyn_event_descr ev[MAXEV];
	struct pmc_op_getpmcinfo gi;
	struct pmc_op_getdyneventinfo gd;
	struct pmc_op_pmcadmin pa;

	memset(&u, 0, sizeof(u));
	switch (which >= 0 ? which : (int)rn(8)) {
	case 0:
		op_ioctl(OP_GETCPUINFO, slot(), HWPMC_IOC_GETCPUINFO, &u.c);
		break;
	case 1:
		op_ioctl(OP_GETDRIVERSTATS, slot(), HWPMC_IOC_GETDRIVERSTATS, &u.s);
		break;
	case 2:
		u.v = PMC_VERSION;
		op_ioctl(OP_GETMODULEVERSION, slot(), HWPMC_IOC_GETMODULEVERSION, &u.v);
		break;
	case 3:
		gi.pm_cpu = rn(ncpus);
		gi.pm_npmc = ci.pm_npmc < 64 ? ci.pm_npmc : 64;
		gi.pm_pmcs = (uintptr_t)pi;
		op_ioctl(OP_GETPMCINFO, slot(), HWPMC_IOC_GETPMCINFO, &gi);
		break;
	case 4:
		gd.pm_class = nclasses ? classes[rn(nclasses)].class : 0;
		gd.pm_nevent = MAXEV;
		gd.pm_events = (uintptr_t)ev;
		op_ioctl(OP_GETDYNEVENTINFO, slot(), HWPMC_IOC_GETDYNEVENTINFO, &gd);
		break;
	case 5:
		u.caps.pm_pmcid = chance(50) ? PMC_ID_INVALID : pick_id();
		u.caps.pm_ev = pick_event(&u.caps.pm_class);
		op_ioctl(OP_GETCAPS, slot(), HWPMC_IOC_GETCAPS, &u.caps);
		break;
	case 6:
		u.msr.pm_pmcid = pick_id();
		op_ioctl(OP_GETMSR, slot(), HWPMC_IOC_PMCGETMSR, &u.msr);
		break;
	default:	/* rows go down and come back, under the others' feet */
		if (which < 0 && !chance(30))
			break;
		memset(&pa, 0, sizeof(pa));
		pa.pm_cpu = rn(ncpus);
		pa.pm_pmc = rn(ci.pm_npmc);
		pa.pm_state = chance(50) ? PMC_STATE_DISABLED : PMC_STATE_FREE;
		op_ioctl(OP_PMCADMIN, slot(), HWPMC_IOC_PMCADMIN, &pa);
		/* the end checks re-enable every row */
	}
}

static void *drain(void *arg)
{
	int fd = (int)(intptr_t)arg;
	char buf[4096];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	return NULL;
}

/* A descriptor to log to (closed by the caller afterwards). */
static int log_fd(void)
{
	int p[2];
	pthread_t t;
	char path[64];

	switch (rn(8)) {
	case 0: case 1:	/* a pipe, read by a thread */
		if (pipe(p))
			return -1;
		if (pthread_create(&t, NULL, drain, (void *)(intptr_t)p[0]) == 0)
			pthread_detach(t);
		else
			close(p[0]);
		return p[1];
	case 2:		/* a pipe nobody reads: it fills */
		if (pipe(p))
			return -1;
		close(p[0]);
		return p[1];
	case 3:
		snprintf(path, sizeof(path), "/tmp/hwpmc_race.%d.%u", getpid(), rn(2));
		return open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	case 4:
		return open("/dev/full", O_WRONLY);
	case 5:		/* a socket, read */
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, p))
			return -1;
		if (pthread_create(&t, NULL, drain, (void *)(intptr_t)p[1]) == 0)
			pthread_detach(t);
		else
			close(p[1]);
		return p[0];
	default:
		return open("/dev/null", O_WRONLY);
	}
}

static void op_log(void)
{
	struct pmc_op_configurelog cl = { 0 };
	struct pmc_op_writelog wl = { .pm_userdata = (uint32_t)rnd() };
	int fd;

	switch (rn(10)) {
	case 0: case 1:
		fd = log_fd();
		if (fd < 0)
			return;
		cl.pm_logfd = fd;
		op_ioctl(OP_CONFIGURELOG, slot(), HWPMC_IOC_CONFIGURELOG, &cl);
		close(fd);
		break;
	case 2: case 3: case 4:
		op_ioctl(OP_FLUSHLOG, slot(), HWPMC_IOC_FLUSHLOG, NULL);
		break;
	case 5:
		if (chance(50)) {
			op_ioctl(OP_CLOSELOG, slot(), HWPMC_IOC_CLOSELOG, NULL);
		} else {	/* the other way to close it */
			cl.pm_logfd = -1;
			op_ioctl(OP_CLOSELOG, slot(), HWPMC_IOC_CONFIGURELOG, &cl);
		}
		break;
	default:
		op_ioctl(OP_WRITELOG, slot(), HWPMC_IOC_WRITELOG, &wl);
	}
}

/* The descriptors, under the other threads' feet; kind -1: any. */
static void op_fd(int kind)
{
	int s = slot(), fd, r;

	switch (kind < 0 ? (int)rn(3) : kind) {
	case 0:
		r = close(s);
		count(OP_CLOSE, r, errno);
		break;
	case 1:
		/* another slot: dup3() of a descriptor onto itself is EINVAL */
		fd = SLOT0 + (s - SLOT0 + 1 + (int)rn(NSLOTS - 1)) % NSLOTS;
		r = dup3(fd, s, chance(50) ? O_CLOEXEC : 0);
		count(OP_DUP, r, errno);
		break;
	default:
		fd = open(DEV, O_RDWR | (chance(30) ? O_CLOEXEC : 0));
		count(OP_OPEN, fd, errno);
		if (fd >= 0) {
			dup3(fd, s, 0);
			close(fd);
		}
	}
}

/* -- targets: they fork, exec themselves, spawn threads, exit --------------- */

static void spin_ms(int ms)
{
	double t = now() + ms / 1000.0;
	volatile unsigned long x = 0;

	while (now() < t)
		for (int i = 0; i < 1000; i++)
			x += i;
}

static void *target_thread(void *arg)
{
	spin_ms(1 + rn(10));
	return NULL;
}

static int target_main(int depth, uint64_t seed)
{
	char d[16], s[32];
	pthread_t t;
	int i, n;

	rs = seed | 1;
again:
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1 || sh->stop)
		_exit(0);
	add_pid(getpid());
	n = 3 + rn(12);
	for (i = 0; i < n && !sh->stop; i++) {
		spin_ms(2 + rn(20));
		switch (rn(8)) {
		case 0: case 1:
			if (pthread_create(&t, NULL, target_thread, NULL) == 0)
				pthread_detach(t);
			break;
		case 2:
			if (depth > 0 && fork() == 0) {	/* a grandchild */
				depth--;
				rs = rnd() | 1;
				count(OP_FORK, 0, 0);
				goto again;
			}
			break;
		case 3:
			if (depth > 0) {
				snprintf(d, sizeof(d), "%d", depth - 1);
				snprintf(s, sizeof(s), "%llu", (unsigned long long)rnd());
				count(OP_EXEC, 0, 0);
				execl(self_exe, "hwpmc_race", "--target", d, s, (char *)NULL);
				count(OP_EXEC, -1, errno);
			}
			break;
		case 4:
			count(OP_EXIT, 0, 0);
			_exit(0);
		default:
			sched_yield();
		}
	}
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	_exit(0);
}

static pid_t targets[3];

static void tend_targets(void)
{
	char s[32];
	pid_t p;
	int i;

	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	for (i = 0; i < 3; i++) {
		if (targets[i] > 0 && kill(targets[i], 0) == 0)
			continue;
		snprintf(s, sizeof(s), "%llu", (unsigned long long)rnd());
		p = fork();
		if (p == 0) {
			if (chance(30))
				execl(self_exe, "hwpmc_race", "--target", "2", s, (char *)NULL);
			target_main(2, strtoull(s, NULL, 10));
		}
		count(OP_FORK, p, errno);
		if (p > 0) {
			targets[i] = p;
			add_pid(p);
		}
	}
}

/* -- owners ------------------------------------------------------------------- */

static void *owner_thread(void *arg)
{
	rs = (uint64_t)(uintptr_t)arg | 1;
	/* the queries once each first: a slow guest reaches them all */
	for (int i = 0; i < 8 && !sh->stop; i++)
		op_info(i);
	/* and dup, close, reopen: rare below, and a slow guest may miss one */
	for (int i = 1; i <= 3 && !sh->stop; i++)
		op_fd(i % 3);
	while (!sh->stop) {
		switch (rn(24)) {
		case 0: case 1: case 2: op_allocate(); break;
		case 3: case 4: op_attach(OP_ATTACH); break;
		case 5: op_attach(OP_DETACH); break;
		case 6: case 7: op_simple(OP_START); break;
		case 8: op_simple(OP_STOP); break;
		case 9: case 10: op_simple(OP_RELEASE); break;
		case 11: op_rw(OP_READ); break;
		case 12: op_rw(OP_WRITE); break;
		case 13: op_setcount(); break;
		case 14: case 15: op_info(-1); break;
		case 16: case 17: case 18: case 19: op_log(); break;
		case 20: op_prw(chance(50) ? OP_PREAD : OP_PWRITE); break;
		case 21: if (chance(20)) op_fd(-1); break;
		default: sched_yield();
		}
	}
	return NULL;
}

static void on_signal(int sig)
{
}

static int owner_main(int idx, uint64_t seed, int nthreads)
{
	pthread_t t[MAXTHREADS];
	char s[32], i_s[16], n_s[16];
	struct sigaction sa;
	int i, fd;

	rs = seed | 1;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	signal(SIGPIPE, SIG_IGN);
	/* SIGUSR1 interrupts a thread's FLUSHLOG or CLOSELOG (no restart) */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGUSR1, &sa, NULL);
	for (i = 0; i < NSLOTS; i++) {
		if (fcntl(SLOT0 + i, F_GETFD) >= 0)
			continue;		/* kept across exec */
		fd = open(DEV, O_RDWR | (chance(30) ? O_CLOEXEC : 0));
		if (fd >= 0) {
			dup3(fd, SLOT0 + i, 0);
			close(fd);
		}
	}
	tend_targets();
	if (nthreads > MAXTHREADS)
		nthreads = MAXTHREADS;
	for (i = 0; i < nthreads; i++)
		pthread_create(&t[i], NULL, owner_thread, (void *)(uintptr_t)rnd());
	while (!sh->stop) {
		msleep(30 + rn(150));
		tend_targets();
		/*
		 * Log waits can be long (the log race fills the workqueue):
		 * signals cut them short, and race the waits.
		 */
		for (i = 0; i < nthreads; i++)
			if (chance(30))
				pthread_kill(t[i], SIGUSR1);
		if (chance(4)) {	/* exec: the PMCs and the log go, slots may stay */
			snprintf(s, sizeof(s), "%llu", (unsigned long long)rnd());
			snprintf(i_s, sizeof(i_s), "%d", idx);
			snprintf(n_s, sizeof(n_s), "%d", nthreads);
			count(OP_EXEC, 0, 0);
			execl(self_exe, "hwpmc_race", "--owner", i_s, s, n_s, (char *)NULL);
			count(OP_EXEC, -1, errno);
		}
		if (chance(3)) {	/* exit with everything allocated */
			count(OP_EXIT, 0, 0);
			_exit(0);
		}
	}
	_exit(0);
}

/* -- the log race (C1) -------------------------------------------------------- */

struct plug {
	int master;
};

static struct plug plugs[MAXPLUGS];
static int nplugs;
static int plug_errno;		/* CONFIGURELOG's, when a plug was refused */

/*
 * A log whose writer blocks for good: a pseudo-terminal with its output
 * stopped, configured through a descriptor that is closed at once (that
 * closes the log, and its writer goes at the CLOSELOG record).
 * Closing the master later hangs the terminal up: the writer gets EIO.
 */
static int plug_add(void)
{
	struct pmc_op_configurelog cl = { 0 };
	struct termios tio;
	int m, s, fd, r;

	m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) || unlockpt(m))
		goto fail;
	s = open(ptsname(m), O_RDWR | O_NOCTTY);
	if (s < 0)
		goto fail;
	if (tcgetattr(s, &tio) == 0) {
		cfmakeraw(&tio);
		tcsetattr(s, TCSANOW, &tio);
	}
	tcflow(s, TCOOFF);
	fd = open(DEV, O_RDWR);
	if (fd < 0) {
		close(s);
		goto fail;
	}
	cl.pm_logfd = s;
	r = ioctl(fd, HWPMC_IOC_CONFIGURELOG, &cl);
	count(OP_PLUG, r, errno);
	if (r)
		plug_errno = errno;
	close(s);
	close(fd);
	if (r) {
		close(m);
		return -1;
	}
	plugs[nplugs++].master = m;
	return 0;
fail:
	if (m >= 0)
		close(m);
	count(OP_PLUG, -1, errno);
	return -1;
}

static void plug_drop(void)
{
	if (nplugs > 0)
		close(plugs[--nplugs].master);
}

/* A regular file for a log, already unlinked (a kernel cannot write /dev/null) */
static int tmpfile_fd(void)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/hwpmc_race.log.%d", getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	unlink(path);
	return fd;
}

static void on_alarm(int sig)
{
}

/*
 * Is a slot of the log workqueue free?  A child with a log to a file
 * flushes it: the flush waits for the writer, i.e. for a slot.
 */
static int wq_has_room(int ms)
{
	struct pmc_op_configurelog cl = { 0 };
	struct itimerval it = { { 0, 0 }, { ms / 1000, (ms % 1000) * 1000 } };
	struct sigaction sa;
	int status, fd, r;
	pid_t p = fork();

	if (p == 0) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_alarm;
		sigaction(SIGALRM, &sa, NULL);	/* no SA_RESTART */
		fd = open(DEV, O_RDWR);
		cl.pm_logfd = tmpfile_fd();
		if (fd < 0 || ioctl(fd, HWPMC_IOC_CONFIGURELOG, &cl))
			_exit(2);
		setitimer(ITIMER_REAL, &it, NULL);
		r = ioctl(fd, HWPMC_IOC_FLUSHLOG, NULL);
		_exit(r < 0 && errno == EINTR ? 1 : 0);
	}
	if (p < 0 || waitpid(p, &status, 0) != p || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status) == 0 ? 1 : WEXITSTATUS(status) == 1 ? 0 : -1;
}

/*
 * Fill the log workqueue with blocked writers but one slot: 255 when
 * max_active is the default 256; found by adding until a flush stalls.
 */
static int plugs_fill(int verbose)
{
	int room;

	while (nplugs < 250 && !sh->stop)
		if (plug_add())
			return -1;
	for (;;) {
		if (sh->stop)
			return -1;
		room = wq_has_room(2500);
		if (room < 0)
			return -1;
		if (!room)
			break;
		if (nplugs >= MAXPLUGS - 1 || plug_add())
			return -1;
	}
	plug_drop();		/* one slot left for the victims */
	room = wq_has_room(3000);
	if (verbose)
		printf("# log race: %d writers blocked, one workqueue slot left (%s)\n",
		       nplugs, room > 0 ? "checked" : "not free?");
	return room > 0 ? 0 : -1;
}

struct victim {
	int fd_log, fd_flush;
	pid_t tids[16];
	int ntids;
	volatile int stop_hogs, stop;
};

static struct victim vic;

/*
 * A CPU hog that sleeps now and then: its wakeups preempt the SCHED_IDLE
 * flushers wherever they are, and they then wait behind it.
 */
static void *hog(void *arg)
{
	volatile unsigned long x = 0;

	rs = (uint64_t)(uintptr_t)arg | 1;
	while (!vic.stop_hogs) {
		for (uint32_t i = 200000 + rn(2000000); i; i--)
			x++;
		usleep(100 + rn(900));
	}
	return NULL;
}

static void *flusher(void *arg)
{
	struct sched_param sp = { 0 };
	int r, e, closed;

	sched_setscheduler(0, SCHED_IDLE, &sp);	/* this thread */
	vic.tids[__atomic_fetch_add(&vic.ntids, 1, __ATOMIC_RELAXED) & 15] = gettid();
	while (!vic.stop) {
		closed = sh->victim_closed;
		r = ioctl(vic.fd_flush, HWPMC_IOC_FLUSHLOG, NULL);
		e = errno;
		count(OP_FLUSHLOG, r, e);
		if (r < 0 && (e == EFAULT || e == ENOTTY || e >= 512))
			unexpected(OP_FLUSHLOG, e);
		if (r < 0 && e == EINVAL)
			break;		/* no log any more */
		if (!closed && sh->victim_closed)
			__atomic_fetch_add(&sh->late_flush, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/*
 * The victim: a log to a file; flushers at SCHED_IDLE, one hog per
 * CPU; then CLOSELOG (or the last close of the descriptor the log was
 * configured through).  Reports on ctl[1], waits for "go" on go[0].
 */
static void victim_main(int ctl, int go, uint64_t seed)
{
	struct pmc_op_configurelog cl = { 0 };
	struct pmc_op_writelog wl = { 0 };
	pthread_t h[8], f[12];
	int nh = nonline < 8 ? nonline : 8, nf = 12, i, r;
	char c = 0;

	rs = seed | 1;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	vic.fd_log = open(DEV, O_RDWR);
	vic.fd_flush = open(DEV, O_RDWR);
	cl.pm_logfd = tmpfile_fd();
	if (vic.fd_log < 0 || vic.fd_flush < 0 ||
	    op_ioctl(OP_CONFIGURELOG, vic.fd_log, HWPMC_IOC_CONFIGURELOG, &cl))
		_exit(1);
	close(cl.pm_logfd);
	for (i = 0; i < 20; i++)
		op_ioctl(OP_WRITELOG, vic.fd_flush, HWPMC_IOC_WRITELOG, &wl);
	for (i = 0; i < nh; i++)
		pthread_create(&h[i], NULL, hog, (void *)(uintptr_t)rnd());
	for (i = 0; i < nf; i++)
		pthread_create(&f[i], NULL, flusher, NULL);
	msleep(20 + rn(100));
	if (chance(60)) {
		r = op_ioctl(OP_CLOSELOG, vic.fd_log, HWPMC_IOC_CLOSELOG, NULL);
	} else {
		r = close(vic.fd_log);
		count(OP_CLOSE, r, errno);
		msleep(150);	/* the writer's release, asynchronous here */
	}
	sh->victim_closed = 1;
	if (write(ctl, &c, 1) != 1 || read(go, &c, 1) != 1)
		_exit(1);
	/*
	 * The 256th slot is taken: the flushers run now, at once (a flusher
	 * caught in the window re-queues the work and drops the last
	 * reference), and stop.
	 */
	vic.stop = 1;
	vic.stop_hogs = 1;
	for (i = 0; i < vic.ntids && i < 16; i++) {
		struct sched_param sp = { 0 };

		sched_setscheduler(vic.tids[i], SCHED_OTHER, &sp);
		setpriority(PRIO_PROCESS, vic.tids[i], -10);
	}
	for (i = 0; i < nf; i++)
		pthread_join(f[i], NULL);
	for (i = 0; i < nh; i++)
		pthread_join(h[i], NULL);
	_exit(0);
}

/* PMC releases on every CPU: kfree_rcu()s enough to drain each batch soon */
static volatile int flood_stop;

static void *flood(void *arg)
{
	struct pmc_op_pmcallocate pa;
	struct pmc_op_simple s;
	cpu_set_t set;
	int fd = open(DEV, O_RDWR);

	CPU_ZERO(&set);
	CPU_SET((int)(intptr_t)arg, &set);
	sched_setaffinity(0, sizeof(set), &set);
	while (fd >= 0 && !flood_stop) {
		memset(&pa, 0, sizeof(pa));
		pa.pm_mode = PMC_MODE_TC;
		pa.pm_cpu = PMC_CPU_ANY;
		pa.pm_ev = pick_event(&pa.pm_class);
		if (ioctl(fd, HWPMC_IOC_PMCALLOCATE, &pa))
			continue;
		s.pm_pmcid = pa.pm_pmcid;
		s.pm__pad = 0;
		ioctl(fd, HWPMC_IOC_PMCRELEASE, &s);
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

static int lograce_main(uint64_t seed, int verbose)
{
	pthread_t fl[8];
	int ctl[2], go[2], i, n, st;
	double hold;
	char c;
	pid_t v;

	rs = seed | 1;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGPIPE, SIG_IGN);
	setpriority(PRIO_PROCESS, 0, -10);	/* alone: the owners wait */
	if (plugs_fill(verbose)) {
		while (nplugs)
			plug_drop();
		if (plug_errno != EOPNOTSUPP)
			_exit(3);
		/*
		 * A module that refuses terminals as logs (M4 fixed) cannot
		 * be plugged: its writers never block.  The race runs all the
		 * same, its window as narrow as it is on the machine.
		 */
		sh->race_unplugged = 1;
		if (verbose)
			printf("# log race: terminals refused as logs, no plug\n");
	}
	setpriority(PRIO_PROCESS, 0, 0);
	sh->race_ready = 1;
	for (n = 0; !sh->stop; n++) {
		if (pipe(ctl) || pipe(go))
			break;
		sh->victim_closed = 0;
		v = fork();
		if (v == 0) {
			close(ctl[0]);
			close(go[1]);
			victim_main(ctl[1], go[0], rnd());
		}
		close(ctl[1]);
		close(go[0]);
		if (v < 0)
			break;
		/* the log is closed and released: take the last slot */
		if (read(ctl[0], &c, 1) == 1 && !sh->race_unplugged) {
			plug_add();
			msleep(20);	/* its writer is in and blocked */
		}
		(void)!write(go[1], &c, 1);
		/*
		 * A FLUSHLOG that re-queued the closed log's work now waits
		 * in the queue; the log is freed after a grace period and
		 * kfree_rcu's batching (5 s, shorter when many are queued:
		 * hence the PMC releases), then the work runs: 6.5 s.
		 */
		hold = sh->race_unplugged ? 0.3 : 6.5;
		flood_stop = 0;
		for (i = 0; i < nonline && i < 8; i++)
			pthread_create(&fl[i], NULL, flood, (void *)(intptr_t)i);
		/*
		 * The victim may not end before the plug goes: a flusher can
		 * wait for the log's writer, queued behind it.
		 */
		for (double t = now() + hold; now() < t && !sh->stop;) {
			if (v > 0 && waitpid(v, &st, WNOHANG) == v)
				v = 0;
			msleep(50);
		}
		flood_stop = 1;
		for (i = 0; i < nonline && i < 8; i++)
			pthread_join(fl[i], NULL);
		plug_drop();	/* let it go: the queued work runs */
		if (v > 0) {
			for (double t = now() + 20; now() < t && waitpid(v, &st, WNOHANG) != v;)
				msleep(50);
			kill(v, SIGKILL);
			waitpid(v, &st, 0);
		}
		count(OP_LOGRACE, 0, 0);
		close(ctl[0]);
		close(go[1]);
		msleep(100);
	}
	while (nplugs)
		plug_drop();
	_exit(0);
}

/* -- hotplug, rmmod ------------------------------------------------------------- */

static int hotcpu = -1;

static int cpu_online(int cpu, int on)
{
	char path[64];
	int fd, r;

	snprintf(path, sizeof(path), HOTCPU_PATH, cpu);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	r = write(fd, on ? "1" : "0", 1) == 1 ? 0 : -1;
	close(fd);
	return r;
}

static void *hotplug_thread(void *arg)
{
	int r;

	while (!sh->stop) {
		msleep(500 + rn(1500));
		if (sh->stop)
			break;
		r = cpu_online(hotcpu, 0);
		count(OP_CPU_OFF, r, errno);
		msleep(200 + rn(800));
		r = cpu_online(hotcpu, 1);
		count(OP_CPU_ON, r, errno);
	}
	return NULL;
}

static int pinfd = -1;

static void *rmmod_thread(void *arg)
{
	int r, e;

	while (!sh->stop) {
		msleep(1000 + rn(3000));
		r = syscall(SYS_delete_module, "hwpmc", O_NONBLOCK);
		e = errno;
		count(OP_RMMOD, r, e);
		sh->rm_calls++;
		sh->rm_ok += r == 0;
		if (r == 0) {	/* the supervisor holds a descriptor */
			unexpected(OP_RMMOD, 0);
			r = system("modprobe hwpmc");
			count(OP_MODPROBE, r ? -1 : 0, EIO);
		}
	}
	return NULL;
}

/* -- the supervisor -------------------------------------------------------------- */

static int npass, nfail, nskip;

static void tap(int ok, const char *fmt, ...)
{
	va_list ap;

	ok ? npass++ : nfail++;
	printf("%s %d ", ok ? "ok" : "not ok", npass + nfail + nskip);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void tap_skip(const char *what, const char *why)
{
	nskip++;
	printf("ok %d %s # SKIP %s\n", npass + nfail + nskip, what, why);
}

static const char *splats[] = {
	"WARNING:", "BUG:", "Oops", "Call Trace", "general protection",
	"KASAN", "lockdep", "possible recursive locking",
	"possible circular locking", "UBSAN", "kmemleak", "cut here",
	"hung_task", "blocked for more than", "ODEBUG",
};

static const char *ename(int e)
{
	static char buf[16];
	const char *s = e < NERR - 1 ? strerrorname_np(e) : NULL;

	if (s)
		return s;
	snprintf(buf, sizeof(buf), e < NERR - 1 ? "E%d" : "other", e);
	return buf;
}

static void coverage_table(void)
{
	char line[1024];
	int op, e, len;

	printf("# coverage: operation        calls       ok  errors\n");
	for (op = 0; op < NOP; op++) {
		len = 0;
		line[0] = 0;
		for (e = 0; e < NERR; e++)
			if (sh->err[op][e] && len < (int)sizeof(line) - 40)
				len += snprintf(line + len, sizeof(line) - len, " %s:%lu",
						ename(e), sh->err[op][e]);
		printf("# coverage: %-16s %8lu %8lu %s\n", opname[op], sh->calls[op],
		       sh->ok[op], line);
	}
}

/* Re-enable rows PMCADMIN disabled; rows still in use (printed). */
static int rows_fix(int fd)
{
	struct pmc_info *pi = calloc(ci.pm_npmc, sizeof(*pi));
	struct pmc_op_getpmcinfo gi;
	struct pmc_op_pmcadmin pa;
	int cpu, busy = 0;
	uint32_t r;

	if (!pi)
		return -1;
	for (cpu = 0; cpu < ncpus; cpu++) {
		gi.pm_cpu = cpu;
		gi.pm_npmc = ci.pm_npmc;
		gi.pm_pmcs = (uintptr_t)pi;
		if (ioctl(fd, HWPMC_IOC_GETPMCINFO, &gi))
			continue;
		for (r = 0; r < ci.pm_npmc; r++) {
			if (pi[r].pm_ownerpid != -1 || pi[r].pm_rowdisp == PMC_DISP_THREAD) {
				busy++;
				printf("# cpu %d row %u %s: owner %d disp %u\n", cpu, r,
				       pi[r].pm_name, pi[r].pm_ownerpid, pi[r].pm_rowdisp);
			}
			if (pi[r].pm_enabled)
				continue;
			memset(&pa, 0, sizeof(pa));
			pa.pm_cpu = cpu;
			pa.pm_pmc = r;
			pa.pm_state = PMC_STATE_FREE;
			ioctl(fd, HWPMC_IOC_PMCADMIN, &pa);
		}
	}
	free(pi);
	return busy;
}

/* The module works: a counting PMC on ourselves counts. */
static int functional(char *why, size_t len)
{
	struct pmc_op_pmcallocate pa;
	struct pmc_op_pmcattach at;
	struct pmc_op_pmcrw rw;
	struct pmc_op_simple s = { 0 };
	int fd = open(DEV, O_RDWR), ok = 0;
	volatile unsigned long x = 0;

	if (fd < 0) {
		snprintf(why, len, "open: %s", strerror(errno));
		return 0;
	}
	memset(&pa, 0, sizeof(pa));
	pa.pm_mode = PMC_MODE_TC;
	pa.pm_cpu = PMC_CPU_ANY;
	pa.pm_class = PMC_CLASS_SOFT;
	pa.pm_ev = PMC_EV_SOFT_FIRST + 1;	/* PERF_COUNT_SW_TASK_CLOCK */
	if (ioctl(fd, HWPMC_IOC_PMCALLOCATE, &pa)) {
		snprintf(why, len, "ALLOCATE: %s", strerror(errno));
		goto out;
	}
	at.pm_pmc = pa.pm_pmcid;
	at.pm_pid = 0;
	s.pm_pmcid = pa.pm_pmcid;
	if (ioctl(fd, HWPMC_IOC_PMCATTACH, &at) || ioctl(fd, HWPMC_IOC_PMCSTART, &s)) {
		snprintf(why, len, "ATTACH/START: %s", strerror(errno));
		goto out;
	}
	for (int i = 0; i < 3000000; i++)
		x += i;
	ioctl(fd, HWPMC_IOC_PMCSTOP, &s);
	memset(&rw, 0, sizeof(rw));
	rw.pm_pmcid = pa.pm_pmcid;
	rw.pm_flags = PMC_F_OLDVALUE;
	if (ioctl(fd, HWPMC_IOC_PMCRW, &rw)) {
		snprintf(why, len, "READ: %s", strerror(errno));
		goto out;
	}
	snprintf(why, len, "count %llu", (unsigned long long)rw.pm_value);
	ok = rw.pm_value > 0;
	if (ioctl(fd, HWPMC_IOC_PMCRELEASE, &s)) {
		snprintf(why, len, "RELEASE: %s", strerror(errno));
		ok = 0;
	}
out:
	close(fd);
	return ok;
}

static int reload(const char *args)
{
	char cmd[256];
	int r;

	r = system("rmmod hwpmc");
	count(OP_RMMOD, r ? -1 : 0, EBUSY);
	snprintf(cmd, sizeof(cmd), "modprobe hwpmc %s", args);
	r = system(cmd);
	count(OP_MODPROBE, r ? -1 : 0, EIO);
	for (int i = 0; i < 50 && access(DEV, R_OK); i++)
		msleep(100);
	return r;
}

static pid_t holder;

static pid_t spawn(int kind, int idx, int nthreads, uint64_t seed)
{
	pid_t p = fork();

	if (p == 0) {
		setpgid(0, holder);
		if (kind == 0)
			owner_main(idx, seed, nthreads);
		lograce_main(seed, 1);
	}
	if (p > 0)
		setpgid(p, holder);
	return p;
}

static void coverage_table(void);

/* Tasks stuck in the kernel (D state): their kernel stacks, if readable. */
static void show_stuck(void)
{
	char path[64], buf[4096];
	int fd, pid;
	ssize_t n;

	for (pid = 2; pid < 32768; pid++) {
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = 0;
		if (!strstr(buf, ") D "))
			continue;
		buf[strcspn(buf, "\n")] = 0;
		printf("# stuck: %s\n", buf);
		snprintf(path, sizeof(path), "/proc/%d/stack", pid);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = 0;
			for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n"))
				printf("#   %s\n", l);
		}
	}
}

/* The run did not end: what it did, what is stuck, then a failure. */
static void watchdog(int sig)
{
	static const char m[] = "# hwpmc_race: watchdog: the run did not end in time\n"
				"not ok 99 watchdog\n# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0\n";

	coverage_table();
	show_stuck();
	fflush(stdout);
	(void)!write(1, m, sizeof(m) - 1);
	if (holder > 0)
		kill(-holder, SIGKILL);
	_exit(1);
}

int main(int argc, char **argv)
{
	int duration = 60, nprocs = 3, nthreads = 4, do_reload = 0, verbose = 0;
	int no_hot = 0, no_race = 0, no_rmmod = 0, fd, c, i, kmsg, alive, unreaped, busy;
	uint64_t seed = 0;
	pid_t owners[MAXPROCS], racer = 0, p;
	pthread_t hot_t, rm_t;
	int have_hot = 0, have_rm = 0, race_rc = -1, race_on, st;
	struct timespec ts;
	struct rlimit rl;
	char why[128], path[64];
	double t0, t_end;
	ssize_t n;

	n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	self_exe[n > 0 ? n : 0] = 0;
	if (argc >= 2 && (strcmp(argv[1], "--target") == 0 || strcmp(argv[1], "--owner") == 0)) {
		int sfd = open(SHM, O_RDWR);

		if (sfd < 0)
			_exit(0);
		sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED, sfd, 0);
		close(sfd);
		if (sh == MAP_FAILED)
			_exit(0);
		if (argc >= 4 && argv[1][2] == 't')
			return target_main(atoi(argv[2]), strtoull(argv[3], NULL, 10));
		fd = open(DEV, O_RDONLY);
		if (argc < 5 || fd < 0)
			_exit(0);
		learn_machine(fd);
		close(fd);
		return owner_main(atoi(argv[2]), strtoull(argv[3], NULL, 10), atoi(argv[4]));
	}
	while ((c = getopt(argc, argv, "d:s:p:t:rHLRv")) != -1) {
		switch (c) {
		case 'd': duration = atoi(optarg); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'p': nprocs = atoi(optarg); break;
		case 't': nthreads = atoi(optarg); break;
		case 'r': do_reload = 1; break;
		case 'H': no_hot = 1; break;
		case 'L': no_race = 1; break;
		case 'R': no_rmmod = 1; break;
		case 'v': verbose = 1; break;
		default:
			fprintf(stderr, "usage: %s [-d SECONDS] [-s SEED] [-p PROCS] [-t THREADS] [-r] [-H] [-L] [-R]\n",
				argv[0]);
			return 2;
		}
	}
	if (nprocs < 1 || nprocs > MAXPROCS)
		nprocs = 3;
	if (nthreads < 1 || nthreads > MAXTHREADS)
		nthreads = 4;
	if (!seed) {
		clock_gettime(CLOCK_REALTIME, &ts);
		seed = ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)ts.tv_nsec ^ getpid();
	}
	rs = seed | 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	printf("# hwpmc_race: seed %llu, %d s, %d owners x %d threads%s%s%s%s\n",
	       (unsigned long long)seed, duration, nprocs, nthreads,
	       do_reload ? ", reload" : "", no_hot ? ", no hotplug" : "",
	       no_race ? ", no log race" : "", no_rmmod ? ", no rmmod" : "");
	printf("# repeat with: hwpmc_race -s %llu -d %d -p %d -t %d%s%s%s%s\n",
	       (unsigned long long)seed, duration, nprocs, nthreads, do_reload ? " -r" : "",
	       no_hot ? " -H" : "", no_race ? " -L" : "", no_rmmod ? " -R" : "");
	signal(SIGALRM, watchdog);
	alarm(duration + 200);

	/* the shared state, in a file: exec'd processes map it again */
	c = open(SHM, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (c < 0 || ftruncate(c, sizeof(*sh))) {
		printf("1..0 # SKIP %s: %s\n", SHM, strerror(errno));
		return 4;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED, c, 0);
	close(c);
	if (sh == MAP_FAILED)
		return 1;
	memset(sh, 0, sizeof(*sh));

	/* the log race wants ~260 logs, each holding a buffer */
	if (do_reload && !no_race && read_param("nbuffers_pcpu") >= 0 &&
	    read_param("nbuffers_pcpu") * (int)sysconf(_SC_NPROCESSORS_CONF) < 600) {
		i = reload("logbuffersize=4 nbuffers_pcpu=384");
		printf("# reloaded with logbuffersize=4 nbuffers_pcpu=384: %s\n", i ? "failed" : "ok");
	}
	fd = open(DEV, O_RDWR);
	if (fd < 0) {
		printf("1..0 # SKIP %s: %s\n", DEV, strerror(errno));
		return 4;
	}
	learn_machine(fd);
	pinfd = fd;	/* held to the end: rmmod must fail meanwhile */
	printf("# %d CPUs (%d online), %u rows per CPU, %d classes; log buffers: %d x %d KB per CPU\n",
	       ncpus, nonline, ci.pm_npmc, nclasses, read_param("nbuffers_pcpu"), read_param("logbuffersize"));
	getrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_cur < 1024 && rl.rlim_max >= 1024) {
		rl.rlim_cur = 1024;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	kmsg = kmsg_open();

	/* every descendant, orphaned or not, is ours to reap; in one group */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	holder = fork();
	if (holder == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}
	setpgid(holder, holder);
	t0 = now();
	race_on = !no_race &&
		  read_param("nbuffers_pcpu") * (int)sysconf(_SC_NPROCESSORS_CONF) >= 600;
	if (race_on) {
		racer = spawn(1, 0, 0, rnd());
		/* its setup first, alone: ~255 blocked writers, each a kworker */
		while (!sh->race_ready && now() < t0 + 120) {
			if (waitpid(racer, &st, WNOHANG) == racer) {
				race_rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
				racer = 0;
				break;
			}
			msleep(100);
		}
		printf("# log race: setup %s in %.1f s\n", sh->race_ready ? "done" : "failed",
		       now() - t0);
	} else if (!no_race) {
		printf("# log race: too few log buffers (run with -r)\n");
	}
	t0 = now();
	for (i = 0; i < nprocs; i++)
		owners[i] = spawn(0, i, nthreads, rnd());
	for (i = nonline - 1; i > 0 && !no_hot; i--) {
		snprintf(path, sizeof(path), HOTCPU_PATH, i);
		if (access(path, W_OK) == 0) {
			hotcpu = i;
			break;
		}
	}
	if (hotcpu > 0)
		have_hot = pthread_create(&hot_t, NULL, hotplug_thread, NULL) == 0;
	if (!no_rmmod)
		have_rm = pthread_create(&rm_t, NULL, rmmod_thread, NULL) == 0;

	while (now() < t0 + duration) {
		msleep(100);
		while ((p = waitpid(-1, &st, WNOHANG)) > 0) {
			if (p == racer) {
				race_rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
				racer = 0;
			}
			for (i = 0; i < nprocs; i++)
				if (owners[i] == p)
					owners[i] = spawn(0, i, nthreads, rnd());
		}
		if (chance(3)) {	/* an owner killed mid-run */
			i = rn(nprocs);
			if (owners[i] > 0)
				count(OP_KILL, kill(owners[i], SIGKILL), errno);
		}
	}

	/* the end: everything stops by itself, then is killed */
	sh->stop = 1;
	if (have_hot)
		pthread_join(hot_t, NULL);
	if (have_rm)
		pthread_join(rm_t, NULL);
	if (hotcpu > 0)
		cpu_online(hotcpu, 1);
	t_end = now() + 15;
	alive = nprocs + (racer > 0);
	while (alive > 0 && now() < t_end) {
		msleep(100);
		while ((p = waitpid(-1, &st, WNOHANG)) > 0) {
			if (p == racer) {
				race_rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
				racer = 0;
				alive--;
			}
			for (i = 0; i < nprocs; i++)
				if (owners[i] == p)
					owners[i] = 0, alive--;
		}
	}
	unreaped = 0;
	t_end = now() + 60;
	for (;;) {
		p = waitpid(-1, NULL, WNOHANG);
		if (p > 0)
			continue;
		if (p < 0 && errno == ECHILD)
			break;
		if (now() >= t_end) {
			unreaped = 1;
			break;
		}
		kill(-holder, SIGKILL);
		msleep(50);
	}
	alarm(0);
	unlink(SHM);
	printf("# %.0f s of fuzzing\n", now() - t0);
	coverage_table();
	printf("# log race: %lu attempts, %lu FLUSHLOGs returned after the close\n",
	       sh->calls[OP_LOGRACE], sh->late_flush);
	if (race_on)
		tap(sh->calls[OP_LOGRACE] > 0,
		    "the log race ran (%lu rounds of FLUSHLOG against CLOSELOG or close%s)",
		    sh->calls[OP_LOGRACE],
		    sh->race_unplugged ? "; terminals refused, no plug" : "");

	tap(!unreaped, "every process reaped within 60 s of SIGKILL");
	for (unsigned long u = 0; u < sh->nunexp && u < 16; u++)
		printf("# unexpected: %s -> %s (pid %d)\n", opname[sh->unexp[u].op],
		       sh->unexp[u].err ? ename(sh->unexp[u].err) : "success",
		       sh->unexp[u].pid);
	tap(sh->nunexp == 0, "no unexpected errno (EFAULT, ENOTTY, ENOSYS, internal) (%lu)",
	    sh->nunexp);
	c = 1;
	for (i = 0; i <= OP_PMCADMIN; i++)
		c &= sh->calls[i] > 0;
	tap(c, "every ioctl was called");
	tap(sh->ok[OP_ALLOCATE] && sh->ok[OP_ATTACH] && sh->ok[OP_START] &&
	    sh->ok[OP_READ] && sh->ok[OP_RELEASE] && sh->ok[OP_CONFIGURELOG] &&
	    sh->ok[OP_FLUSHLOG] && sh->ok[OP_CLOSELOG] && sh->ok[OP_WRITELOG],
	    "ALLOCATE ATTACH START READ RELEASE CONFIGURELOG FLUSHLOG CLOSELOG WRITELOG succeeded");
	tap(sh->calls[OP_FORK] && sh->calls[OP_EXEC] && sh->calls[OP_EXIT] &&
	    sh->ok[OP_CLOSE] && sh->ok[OP_DUP] && sh->ok[OP_OPEN],
	    "processes forked, exec'd, exited; descriptors closed, dup'd, reopened");
	if (have_hot)
		tap(sh->ok[OP_CPU_OFF] > 0 && sh->ok[OP_CPU_ON] > 0,
		    "cpu%d went offline and online (%lu times)", hotcpu, sh->ok[OP_CPU_OFF]);
	else
		tap_skip("CPU hotplug", no_hot ? "-H" : "no writable cpuN/online");
	if (have_rm)
		tap(sh->rm_ok == 0 && sh->rm_calls > 0,
		    "rmmod refused while /dev/hwpmc is open (%lu attempts)", sh->rm_calls);
	else
		tap_skip("rmmod while open", "-R");
	if (no_race || (race_rc < 0 && !sh->calls[OP_LOGRACE]))
		tap_skip("log race", no_race ? "-L" : "too few log buffers");
	else if (race_rc == 3)
		tap_skip("log race", "could not fill the log workqueue but one slot");
	else
		tap(sh->calls[OP_LOGRACE] > 0 && (race_rc == 0 || race_rc == 128 || race_rc == -1),
		    "log race: %lu attempts %s (rc %d)", sh->calls[OP_LOGRACE],
		    sh->race_unplugged ? "without a plug" :
		    "with the workqueue full but one slot", race_rc);

	/* the module after all that */
	for (i = 0; i < 50 && rows_fix(pinfd) > 0; i++)
		msleep(100);
	busy = rows_fix(pinfd);
	tap(busy == 0, "no row in use afterwards (%d)", busy);
	close(pinfd);
	c = functional(why, sizeof(why));
	tap(c, "the module works: allocate, attach, start, read, stop, release (%s)", why);
	if (kmsg >= 0) {
		c = kmsg_splats(kmsg, splats, sizeof(splats) / sizeof(splats[0]));
		tap(c == 0, "no WARNING/BUG/lockdep/KASAN in the kernel log (%d lines)", c);
		close(kmsg);
	}
	if (do_reload) {
		c = system("rmmod hwpmc");
		tap(c == 0, "rmmod hwpmc after the run");
		c = system("modprobe hwpmc");
		for (i = 0; i < 50 && access(DEV, R_OK); i++)
			msleep(100);
		tap(c == 0, "modprobe hwpmc again (default parameters)");
		c = functional(why, sizeof(why));
		tap(c, "the module works after the reload (%s)", why);
	}
	(void)verbose;
	printf("1..%d\n", npass + nfail + nskip);
	printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n", npass, nfail, nskip);
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail ? 1 : 0;
}
