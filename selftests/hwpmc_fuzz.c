// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: an ioctl fuzzer for /dev/hwpmc, in a VM, as root.
 *
 *   hwpmc_fuzz [-d SECONDS] [-s SEED] [-p PROCS] [-t THREADS] [-r] [-v]
 *
 *   -d  how long the fuzzing runs (default 60 s)
 *   -s  seed (default: from the clock; printed either way, so a run can
 *       be repeated: the sequence of each thread follows from it, the
 *       interleaving of course does not)
 *   -p  owner processes (default 3), each with -t threads (default 3)
 *   -r  at the end, "rmmod hwpmc" must succeed (then "modprobe hwpmc")
 *
 * Owner processes open /dev/hwpmc (some then drop to uid 65534) and run
 * random sequences of every operation with random and hostile arguments:
 * bad pointers (NULL, unmapped, PROT_NONE, read-only, kernel addresses,
 * misaligned, straddling a page boundary), huge and negative counts,
 * every flag bit, every mode, class and event range, ids of other owners
 * and released ids, ioctl numbers of the wrong size and direction, logs
 * to pipes (drained or not, read end closed), files, /dev/full, sockets,
 * the device itself and bad descriptors.  Target processes fork, exec
 * and exit underneath; owners exec, exit, or are killed with SIGKILL.
 *
 * Pass criteria, checked afterwards: every process reaped in time (no
 * task stuck in the module), no WARNING/BUG/lockdep/KASAN line in the
 * kernel log, no row in use on any CPU, the driver statistics consistent
 * with the calls made, the operations reached (some succeeded), and with
 * -r the module unloads.  Output: TAP, "# Totals:", "N passed, N failed".
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
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <linux/hwpmc.h>

#include "hwpmc_selftest.h"

#define NIDS		512
#define NPIDS		64
#define NFDS		4
#define MAXEV		512
#define NOPS		(PMC_OP_MAX + 1)
#define MAXWORKERS	16
#define NOBODY		65534

/* -- shared between all processes (MAP_SHARED) ------------------------- */

struct shared {
	volatile int	stop;
	uint32_t	ids[NIDS];	/* PMC ids seen, any owner, maybe released */
	pid_t		pids[NPIDS];	/* target pids, maybe dead */
	unsigned long	calls[NOPS];	/* ioctls that reached... */
	unsigned long	ok[NOPS];	/* ...and succeeded */
	unsigned long	counted_err;	/* failed, and the module counts it */
	unsigned long	raw_calls;	/* ioctls with a made-up number */
	unsigned long	kills, respawns, execs, exits, targets;
};

static struct shared *sh;

/* -- the machine, learnt once before forking ----------------------------- */

static struct pmc_op_getcpuinfo ci;
static struct {
	uint32_t class;
	uint32_t nev;
	struct pmc_dyn_event_descr ev[MAXEV];
} classes[PMC_CLASS_MAX];
static int nclasses, ncpus;
static char self_exe[4096];

/* A "hostile" 64-bit number: boundaries, sign bits, random. */
static uint64_t wild64(void)
{
	static const uint64_t v[] = {
		0, 1, 2, 7, 0xFF, 0x100, 0xFFF, 0x1000, 0x7FFFFFFF, 0x80000000,
		0xFFFFFFFF, 0x100000000ULL, 0x7FFFFFFFFFFFFFFFULL,
		0x8000000000000000ULL, ~0ULL, ~0ULL - 1, 1000, 10000000,
	};

	if (chance(60))
		return v[rn(sizeof(v) / sizeof(v[0]))];
	if (chance(50))
		return rnd() >> rn(64);
	return rnd();
}

static uint32_t wild32(void)
{
	return (uint32_t)(chance(20) ? wild64() >> 32 : wild64());
}

/* -- hostile pointers ----------------------------------------------------- */

static long pagesz;
static char *pg_rw;	/* 4 pages: RW RW NONE RO, set up per process */
static void *pg_unmapped;

static void setup_pages(void)
{
	char *p = mmap(NULL, 4 * pagesz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *u;

	if (p == MAP_FAILED) {
		perror("mmap");
		_exit(2);
	}
	memset(p, 0x5a, 4 * pagesz);
	mprotect(p + 2 * pagesz, pagesz, PROT_NONE);
	mprotect(p + 3 * pagesz, pagesz, PROT_READ);
	pg_rw = p;
	/*
	 * A hole between two PROT_NONE pages: a page freed outright would
	 * soon hold a thread's stack, whose zeros make a valid argument
	 * (CONFIGURELOG to fd 0, say).
	 */
	u = mmap(NULL, 3 * pagesz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (u == MAP_FAILED) {
		perror("mmap");
		_exit(2);
	}
	munmap((char *)u + pagesz, pagesz);
	pg_unmapped = (char *)u + pagesz;
}

/*
 * good points to sz bytes the caller filled in; mostly it is returned
 * (so that the operation gets far), else a bad address of some kind.
 */
static void *hostile(void *good, size_t sz)
{
	static const uint64_t kaddr[] = {
		0xffffffff81000000ULL, 0xffff888000000000ULL,	/* x86-64 */
		0xffff800080000000ULL, 0xffff000000000000ULL,	/* arm64 */
		0x8000000000000000ULL, 0x0000800000000000ULL,	/* non-canonical */
		~0ULL, ~0ULL - 7,
	};
	char *edge;

	if (chance(85))
		return good;
	switch (rn(9)) {
	case 0:
		return NULL;
	case 1:
		return (void *)(uintptr_t)(1 + rn(4096));
	case 2:
		return pg_unmapped;
	case 3:
		return pg_rw + 2 * pagesz;		/* PROT_NONE */
	case 4:					/* read-only (0x5a bytes) */
		return pg_rw + 3 * pagesz;
	case 5:
		return (void *)(uintptr_t)kaddr[rn(sizeof(kaddr) / sizeof(kaddr[0]))];
	case 6:					/* misaligned copy */
		if (sz < (size_t)pagesz - 8) {
			edge = pg_rw + 1 + rn(7);
			memcpy(edge, good, sz);
			return edge;
		}
		return good;
	case 7:					/* straddles into PROT_NONE */
		if (sz > (size_t)pagesz)
			sz = pagesz;
		edge = pg_rw + 2 * pagesz - (sz > 1 ? 1 + rn(sz - 1) : 1);
		memcpy(edge, good, pg_rw + 2 * pagesz - edge);
		return edge;
	default:
		return (void *)(uintptr_t)wild64();
	}
}

/* -- the machine's vocabulary -------------------------------------------- */

static uint32_t pick_class(void)
{
	if (nclasses && chance(85))
		return classes[rn(nclasses)].class;
	return chance(50) ? rn(PMC_CLASS_LAST + 8) : wild32();
}

static uint32_t pick_event(uint32_t class)
{
	int i;

	for (i = 0; i < nclasses; i++)
		if (classes[i].class == class && classes[i].nev && chance(85))
			return classes[i].ev[rn(classes[i].nev)].pm_ev_code;
	switch (rn(6)) {
	case 0: return PMC_EV_SOFT_FIRST + rn(0x100);
	case 1: return PMC_EV_PMU_HW_FIRST + rn(0x100);
	case 2: return PMC_EV_PMU_CACHE_FIRST + rn(0x100);
	case 3: return PMC_EV_PMU_RAW;
	case 4: return PMC_EV_FIRST + rn(PMC_EV_LAST - PMC_EV_FIRST + 2);
	default: return wild32();
	}
}

static uint32_t pick_cpu(void)
{
	if (chance(80))
		return rn(ncpus);
	if (chance(50))
		return PMC_CPU_ANY;
	return chance(50) ? (uint32_t)ncpus + rn(4096) : wild32();
}

static void remember_id(uint32_t id)
{
	__atomic_store_n(&sh->ids[rn(NIDS)], id, __ATOMIC_RELAXED);
}

static uint32_t pick_id(uint32_t *mine, int nmine)
{
	uint32_t id;

	if (nmine && chance(60))
		return mine[rn(nmine)];
	if (chance(70)) {
		id = __atomic_load_n(&sh->ids[rn(NIDS)], __ATOMIC_RELAXED);
		if (id)
			return id;
	}
	switch (rn(4)) {
	case 0: return PMC_ID_INVALID;
	case 1: return PMC_ID_MAKE_ID(rn(ncpus + 1), rn(5), pick_class(), rn(64));
	case 2: return PMC_ID_MAKE_ID(0xFFF, PMC_MODE_TC, pick_class(), rn(256));
	default: return wild32();
	}
}

static pid_t pick_pid(void)
{
	pid_t p;

	if (chance(60)) {
		p = __atomic_load_n(&sh->pids[rn(NPIDS)], __ATOMIC_RELAXED);
		if (p)
			return p;
	}
	switch (rn(8)) {
	case 0: return 0;
	case 1: return getpid();
	case 2: return getppid();
	case 3: return 2;			/* kthreadd */
	case 4: return -1;
	case 5: return 1 + rn(1000);
	case 6: return (pid_t)wild32();
	default: return (pid_t)(0x7FFFFFFF - rn(4));
	}
}

/* -- per-process state ----------------------------------------------------- */

static int devfd[NFDS];			/* shared by the threads, raced on purpose */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static uint32_t myids[64];
static int nmyids;

static void add_mine(uint32_t id)
{
	pthread_mutex_lock(&mu);
	if (nmyids < 64)
		myids[nmyids++] = id;
	else
		myids[rn(64)] = id;
	pthread_mutex_unlock(&mu);
	remember_id(id);
}

static uint32_t my_id(void)
{
	uint32_t id, copy[64];
	int n;

	pthread_mutex_lock(&mu);
	n = nmyids;
	memcpy(copy, myids, sizeof(copy));
	pthread_mutex_unlock(&mu);
	id = pick_id(copy, n);
	return id;
}

static int dev(void)
{
	int fd = __atomic_load_n(&devfd[rn(NFDS)], __ATOMIC_RELAXED);

	if (chance(2))
		return chance(50) ? -1 : (int)(1000 + rn(100));
	return fd;
}

/* One call; counts it.  cmd's type/nr decide whether the module sees it. */
static int call(int fd, unsigned long cmd, void *arg)
{
	unsigned int nr = _IOC_NR(cmd);
	int r = ioctl(fd, cmd, arg), e = errno;

	if (_IOC_TYPE(cmd) == HWPMC_IOC_MAGIC && nr < NOPS) {
		if (r == 0) {
			__atomic_fetch_add(&sh->calls[nr], 1, __ATOMIC_RELAXED);
			__atomic_fetch_add(&sh->ok[nr], 1, __ATOMIC_RELAXED);
		} else if (e != EBADF && e != ENOTTY) {
			__atomic_fetch_add(&sh->calls[nr], 1, __ATOMIC_RELAXED);
			__atomic_fetch_add(&sh->counted_err, 1, __ATOMIC_RELAXED);
		}
	}
	errno = e;
	return r;
}

/* -- log descriptors -------------------------------------------------------- */

static void *drain(void *arg)
{
	int fd = (int)(intptr_t)arg;
	char buf[4096];

	while (!sh->stop && read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	return NULL;
}

/* A descriptor to log to, of some kind; *tmp says to close it afterwards. */
static int log_fd(int *tmp)
{
	int p[2], fd = -1;
	pthread_t t;
	char path[64];

	*tmp = 1;
	switch (rn(12)) {
	case 0:	/* pipe, drained by a thread */
	case 1:
		if (pipe(p))
			return -1;
		if (pthread_create(&t, NULL, drain, (void *)(intptr_t)p[0]) == 0)
			pthread_detach(t);
		else
			close(p[0]);
		return p[1];
	case 2:	/* pipe never read (fills up), or its read end closed */
		if (pipe(p))
			return -1;
		if (chance(50))
			close(p[0]);
		/* the read end of the undrained pipe leaks on purpose: few */
		fcntl(p[1], F_SETFL, chance(50) ? O_NONBLOCK : 0);
		return p[1];
	case 3:	/* a file, sometimes read-only */
		snprintf(path, sizeof(path), "/tmp/hwpmc_fuzz.%d.%u", getpid(), rn(4));
		fd = open(path, (chance(80) ? O_WRONLY : O_RDONLY) | O_CREAT |
			  (chance(50) ? O_APPEND : O_TRUNC), 0600);
		return fd;
	case 4:
		return open("/dev/full", O_WRONLY);
	case 5:
		return open("/dev/null", O_WRONLY);
	case 6:	/* a socket, the other end drained or closed */
		if (socketpair(AF_UNIX, chance(50) ? SOCK_STREAM : SOCK_DGRAM, 0, p))
			return -1;
		if (chance(70) &&
		    pthread_create(&t, NULL, drain, (void *)(intptr_t)p[1]) == 0)
			pthread_detach(t);
		else
			close(p[1]);
		return p[0];
	case 7:
		return eventfd(0, 0);
	case 8:
		return open("/tmp", O_RDONLY | O_DIRECTORY);
	case 9:	/* the device itself */
		*tmp = 0;
		return dev();
	case 10:	/* a closed descriptor */
		fd = open("/dev/null", O_RDONLY);
		close(fd);
		*tmp = 0;
		return fd;
	default:	/* a number; not stdin/stdout/stderr: the log is binary */
		*tmp = 0;
		fd = (int)wild32();
		return fd >= 0 && fd <= 2 ? fd + 1000 : fd;
	}
}

/* -- the operations ----------------------------------------------------------- */

static void op_allocate(void)
{
	struct pmc_op_pmcallocate pa;
	uint32_t mode;

	memset(&pa, 0, sizeof(pa));
	mode = chance(90) ? rn(4) : wild32();
	pa.pm_mode = mode;
	pa.pm_class = pick_class();
	pa.pm_ev = pick_event(pa.pm_class);
	if (chance(80))
		pa.pm_cpu = PMC_IS_VIRTUAL_MODE(mode) ? PMC_CPU_ANY : rn(ncpus);
	else
		pa.pm_cpu = pick_cpu();
	pa.pm_flags = chance(60) ? 0 : chance(80) ? (uint32_t)rn(PMC_F_LAST << 1) :
		      wild32();
	pa.pm_caps = chance(40) ? 0 :
		     chance(50) ? (chance(50) ? PMC_CAP_USER : PMC_CAP_SYSTEM) :
		     chance(80) ? rn(PMC_CAP_LAST << 1) : wild32();
	if (PMC_IS_SAMPLING_MODE(mode))
		pa.pm_count = chance(90) ? 10000000 + rn(100000000) : wild64();
	else
		pa.pm_count = chance(70) ? 0 : wild64();
	if (chance(20))
		pa.pm_md.pm_pmu.pm_config = wild64();
	if (chance(5))
		pa.pm_md.pm_pmu.pm_config1 = wild64();
	if (chance(5))
		pa.pm_md.pm_pmu.pm_type = chance(50) ? 2 : 0x10000 + rn(1000);
	if (chance(5))
		pa.pm_md.pm_pmu.pm_precise = chance(50) ? rn(5) : wild32();
	if (chance(5))
		pa.pm_stacksize = wild32();
	if (chance(30)) {
		/* with a name for the log: mostly printable, maybe unended */
		struct pmc_op_pmcallocate_named pn = { .pm_a = pa };
		uint32_t i, n = rn(PMC_NAME_MAX + 1);

		for (i = 0; i < n && i < PMC_NAME_MAX; i++)
			pn.pm_evname[i] = chance(95) ? (char)(0x20 + rn(0x5f)) :
						       (char)wild32();
		if (chance(5))
			pn.pm__reserved[rn(2)] = wild64();
		if (call(dev(), HWPMC_IOC_PMCALLOCATE_NAMED,
			 hostile(&pn, sizeof(pn))) == 0 && pn.pm_a.pm_pmcid)
			add_mine(pn.pm_a.pm_pmcid);
		return;
	}
	if (call(dev(), HWPMC_IOC_PMCALLOCATE, hostile(&pa, sizeof(pa))) == 0 &&
	    pa.pm_pmcid)
		add_mine(pa.pm_pmcid);
}

static void op_attach(int detach)
{
	struct pmc_op_pmcattach a = { .pm_pmc = my_id(), .pm_pid = pick_pid() };

	call(dev(), detach ? HWPMC_IOC_PMCDETACH : HWPMC_IOC_PMCATTACH,
	     hostile(&a, sizeof(a)));
}

static void op_simple(unsigned long cmd)
{
	struct pmc_op_simple s = { .pm_pmcid = my_id() };

	if (chance(3))
		s.pm__pad = wild32();
	call(dev(), cmd, hostile(&s, sizeof(s)));
}

static void op_rw(void)
{
	struct pmc_op_pmcrw rw = { .pm_pmcid = my_id(), .pm_value = wild64() };

	rw.pm_flags = chance(80) ? rn(4) << 4 : wild32();
	call(dev(), HWPMC_IOC_PMCRW, hostile(&rw, sizeof(rw)));
}

/*
 * pread(2)/pwrite(2) at a PMC id (PMCRW's other way in).  Counted only
 * when it succeeds: a failure may come from the VFS before the module
 * (a kernel buffer address, a negative offset), which it does not count.
 */
static void op_prw(void)
{
	static const size_t sizes[] = { 8, 8, 8, 8, 1, 4, 7, 9, 16, 4096 };
	size_t n = sizes[rn(10)];
	uint64_t v = wild64();
	off64_t pos = chance(80) ? (off64_t)my_id() : (off64_t)wild64();
	void *buf = n == 8 ? hostile(&v, 8) : pg_rw;
	ssize_t r = chance(50) ? pread64(dev(), buf, n, pos) :
				 pwrite64(dev(), buf, n, pos);

	if (r == 8) {
		__atomic_fetch_add(&sh->calls[PMC_OP_PMCRW], 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&sh->ok[PMC_OP_PMCRW], 1, __ATOMIC_RELAXED);
	}
}

static void op_setcount(void)
{
	struct pmc_op_pmcsetcount sc = { .pm_pmcid = my_id() };

	sc.pm_count = chance(50) ? 10000000 + rn(100000000) : wild64();
	if (chance(3))
		sc.pm__pad = wild32();
	call(dev(), HWPMC_IOC_PMCSETCOUNT, hostile(&sc, sizeof(sc)));
}

static void op_getmsr(void)
{
	struct pmc_op_getmsr gm = { .pm_pmcid = my_id() };

	call(dev(), HWPMC_IOC_PMCGETMSR, hostile(&gm, sizeof(gm)));
}

static void op_getcaps(void)
{
	struct pmc_op_caps gc = { .pm_pmcid = chance(50) ? PMC_ID_INVALID : my_id() };

	gc.pm_class = pick_class();
	gc.pm_ev = pick_event(gc.pm_class);
	call(dev(), HWPMC_IOC_GETCAPS, hostile(&gc, sizeof(gc)));
}

static void op_pmcinfo(void)
{
	static __thread struct pmc_info buf[256];
	struct pmc_op_getpmcinfo gi;
	size_t room = sizeof(buf) / sizeof(buf[0]);

	gi.pm_cpu = chance(85) ? (int32_t)rn(ncpus) : (int32_t)pick_cpu();
	gi.pm_npmc = chance(70) ? ci.pm_npmc + rn(2) :
		     chance(50) ? rn(ci.pm_npmc + 1) : wild32();
	if (gi.pm_npmc > room && chance(70))
		gi.pm_npmc = room;
	gi.pm_pmcs = chance(10) ? 0 : (uintptr_t)hostile(buf, sizeof(buf));
	if (chance(5))	/* an array that ends at the PROT_NONE page */
		gi.pm_pmcs = (uintptr_t)(pg_rw + 2 * pagesz -
					 sizeof(struct pmc_info) * (1 + rn(4)));
	call(dev(), HWPMC_IOC_GETPMCINFO, hostile(&gi, sizeof(gi)));
}

static void op_dynevents(void)
{
	static __thread struct pmc_dyn_event_descr buf[MAXEV];
	struct pmc_op_getdyneventinfo gd;

	gd.pm_class = pick_class();
	gd.pm_nevent = chance(60) ? MAXEV : chance(50) ? rn(64) : wild32();
	if (gd.pm_nevent > MAXEV && chance(80))
		gd.pm_nevent = MAXEV;
	gd.pm_events = chance(10) ? 0 : (uintptr_t)hostile(buf, sizeof(buf));
	if (chance(5))
		gd.pm_events = (uintptr_t)(pg_rw + 2 * pagesz - sizeof(buf[0]) * (1 + rn(3)));
	call(dev(), HWPMC_IOC_GETDYNEVENTINFO, hostile(&gd, sizeof(gd)));
}

static void op_info(void)
{
	union {
		struct pmc_op_getcpuinfo c;
		struct pmc_op_getdriverstats s;
		uint32_t v;
	} u;

	memset(&u, 0, sizeof(u));
	switch (rn(3)) {
	case 0:
		call(dev(), HWPMC_IOC_GETCPUINFO, hostile(&u, sizeof(u.c)));
		break;
	case 1:
		call(dev(), HWPMC_IOC_GETDRIVERSTATS, hostile(&u, sizeof(u.s)));
		break;
	default:
		u.v = chance(50) ? PMC_VERSION : wild32();
		call(dev(), HWPMC_IOC_GETMODULEVERSION, hostile(&u, sizeof(u.v)));
	}
}

static void op_admin(void)
{
	struct pmc_op_pmcadmin pa;

	pa.pm_cpu = chance(85) ? (int32_t)rn(ncpus) : (int32_t)wild32();
	pa.pm_pmc = chance(85) ? (int32_t)rn(ci.pm_npmc + 1) : (int32_t)wild32();
	pa.pm_state = chance(45) ? PMC_STATE_DISABLED :
		      chance(80) ? PMC_STATE_FREE : wild32();
	pa.pm_flags = chance(95) ? 0 : wild32();
	call(dev(), HWPMC_IOC_PMCADMIN, hostile(&pa, sizeof(pa)));
}

static void op_configurelog(void)
{
	struct pmc_op_configurelog cl = { 0 };
	int tmp, fd;

	fd = chance(15) ? -1 : log_fd(&tmp);
	if (fd == -1)
		tmp = 0;
	cl.pm_logfd = fd;
	if (chance(3))
		cl.pm_flags = wild32();
	call(dev(), HWPMC_IOC_CONFIGURELOG, hostile(&cl, sizeof(cl)));
	if (tmp && fd >= 0)
		close(fd);
}

static void op_log(void)
{
	struct pmc_op_writelog wl = { .pm_userdata = (uint32_t)rnd() };

	switch (rn(3)) {
	case 0:
		call(dev(), HWPMC_IOC_FLUSHLOG, NULL);
		break;
	case 1:
		if (chance(20))
			call(dev(), HWPMC_IOC_CLOSELOG, NULL);
		break;
	default:
		if (chance(3))
			wl.pm__pad = wild32();
		call(dev(), HWPMC_IOC_WRITELOG, hostile(&wl, sizeof(wl)));
	}
}

/* An ioctl number of ours with the wrong size or direction, or not ours. */
static void op_raw(void)
{
	char buf[512];
	unsigned long cmd;

	memset(buf, 0, sizeof(buf));
	switch (rn(3)) {
	case 0:
		cmd = _IOC(rn(4), HWPMC_IOC_MAGIC, rn(NOPS), rn(sizeof(buf)));
		break;
	case 1:
		cmd = _IOC(rn(4), HWPMC_IOC_MAGIC, NOPS + rn(256 - NOPS), rn(64));
		break;
	default:
		cmd = (unsigned long)rnd();
	}
	/* FIONBIO, FIOASYNC & co. are the VFS's: leave them to it */
	if (_IOC_TYPE(cmd) == 'T' || _IOC_TYPE(cmd) == 'f' || _IOC_TYPE(cmd) == 0x54)
		return;
	__atomic_fetch_add(&sh->raw_calls, 1, __ATOMIC_RELAXED);
	call(dev(), cmd, hostile(buf, sizeof(buf)));
}

static void op_reopen(void)
{
	int slot = rn(NFDS), fd, old;

	fd = open(DEV, O_RDWR | (chance(50) ? O_CLOEXEC : 0));
	if (fd < 0)	/* dropped privileges: keep what we have */
		return;
	if (chance(30)) {	/* SIGIO on log errors (ignored here) */
		fcntl(fd, F_SETOWN, getpid());
		fcntl(fd, F_SETFL, O_ASYNC);
	}
	old = __atomic_exchange_n(&devfd[slot], fd, __ATOMIC_RELAXED);
	if (old >= 0)
		close(old);
}

/* -- targets --------------------------------------------------------------- */

static void spin_ms(int ms)
{
	struct timespec t0, t;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			x += i;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

static void *target_thread(void *arg)
{
	spin_ms(1 + rn(20));
	return NULL;
}

/* A target: runs a while, threads, forks, execs itself, exits. */
static int target_main(int depth, uint64_t seed)
{
	char d[16], s[32];
	pthread_t t;
	int i, n = 3 + rn(10);

	rs = seed | 1;
again:
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(0);
	for (i = 0; i < n; i++) {
		spin_ms(2 + rn(30));
		switch (rn(8)) {
		case 0:
			if (pthread_create(&t, NULL, target_thread, NULL) == 0)
				pthread_detach(t);
			break;
		case 1:
			if (depth > 0 && fork() == 0) {
				depth--;
				rs = rnd() | 1;
				n = 3 + rn(10);
				goto again;
			}
			break;
		case 2:
			if (depth > 0) {
				snprintf(d, sizeof(d), "%d", depth - 1);
				snprintf(s, sizeof(s), "%llu", (unsigned long long)rnd());
				execl(self_exe, "hwpmc_fuzz", "--target", d, s, (char *)NULL);
			}
			break;
		case 3:
			_exit(0);
		default:
			sched_yield();
		}
	}
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	_exit(0);
}

static pid_t targets[4];

static void tend_targets(void)
{
	char s[32];
	pid_t p;
	int i;

	while ((p = waitpid(-1, NULL, WNOHANG)) > 0)
		;
	for (i = 0; i < 4; i++) {
		if (targets[i] > 0 && kill(targets[i], 0) == 0)
			continue;
		snprintf(s, sizeof(s), "%llu", (unsigned long long)rnd());
		p = fork();
		if (p == 0) {
			if (chance(50))
				execl(self_exe, "hwpmc_fuzz", "--target", "2", s, (char *)NULL);
			target_main(2, strtoull(s, NULL, 10));
		}
		if (p > 0) {
			targets[i] = p;
			__atomic_store_n(&sh->pids[rn(NPIDS)], p, __ATOMIC_RELAXED);
			__atomic_fetch_add(&sh->targets, 1, __ATOMIC_RELAXED);
		}
	}
}

/* -- owner processes --------------------------------------------------------- */

static time_t deadline;

static void *worker_thread(void *arg)
{
	rs = (uint64_t)(uintptr_t)arg | 1;
	while (!sh->stop && time(NULL) < deadline) {
		switch (rn(20)) {
		case 0: case 1: case 2: op_allocate(); break;
		case 3: case 4: op_attach(0); break;
		case 5: op_attach(1); break;
		case 6: case 7: op_simple(HWPMC_IOC_PMCSTART); break;
		case 8: op_simple(HWPMC_IOC_PMCSTOP); break;
		case 9: op_simple(HWPMC_IOC_PMCRELEASE); break;
		case 10: op_rw(); break;
		case 11: op_setcount(); break;
		case 12: chance(50) ? op_getmsr() : op_getcaps(); break;
		case 13: chance(50) ? op_pmcinfo() : op_dynevents(); break;
		case 14: chance(70) ? op_info() : op_admin(); break;
		case 15: op_configurelog(); break;
		case 16: op_log(); break;
		case 17: op_raw(); break;
		case 18: if (chance(10)) op_reopen(); break;
		default:
			if (chance(50))
				op_prw();
			else if (chance(5))
				sched_yield();
			break;
		}
	}
	return NULL;
}

static int worker_main(int idx, uint64_t seed, int nthreads, pid_t pgrp)
{
	pthread_t t[16];
	char s[32], i_s[16], n_s[16], g_s[16];
	int i;

	rs = seed | 1;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	setpgid(0, pgrp);
	/*
	 * Owners print nothing, and a log that lands on 0, 1 or 2 anyway
	 * (an argument read from reused memory) must not reach the console
	 * or the TAP output.
	 */
	i = open("/dev/null", O_RDWR);
	if (i >= 0) {
		dup2(i, 0);
		dup2(i, 1);
		dup2(i, 2);
		if (i > 2)
			close(i);
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGIO, SIG_IGN);
	setup_pages();
	for (i = 0; i < NFDS; i++)
		devfd[i] = open(DEV, O_RDWR | (chance(50) ? O_CLOEXEC : 0));
	tend_targets();
	/* some owners are nobody: others' ids and targets are off limits */
	if (chance(25) && setresgid(NOBODY, NOBODY, NOBODY) == 0)
		(void)!setresuid(NOBODY, NOBODY, NOBODY);
	if (nthreads > 16)
		nthreads = 16;
	for (i = 0; i < nthreads; i++)
		pthread_create(&t[i], NULL, worker_thread, (void *)(uintptr_t)rnd());
	while (!sh->stop && time(NULL) < deadline) {
		usleep(50000 + rn(200000));
		tend_targets();
		if (chance(3)) {	/* exec: the PMCs go, open files stay */
			__atomic_fetch_add(&sh->execs, 1, __ATOMIC_RELAXED);
			snprintf(s, sizeof(s), "%llu", (unsigned long long)rnd());
			snprintf(i_s, sizeof(i_s), "%d", idx);
			snprintf(n_s, sizeof(n_s), "%d", nthreads);
			snprintf(g_s, sizeof(g_s), "%d", (int)pgrp);
			execl(self_exe, "hwpmc_fuzz", "--worker", i_s, s, n_s, g_s,
			      (char *)NULL);
		}
		if (chance(2)) {	/* exit with everything allocated */
			__atomic_fetch_add(&sh->exits, 1, __ATOMIC_RELAXED);
			_exit(0);
		}
	}
	_exit(0);
}

/* -- the supervisor ------------------------------------------------------------ */

static int npass, nfail;

static void tap(int ok, const char *fmt, ...)
{
	va_list ap;

	ok ? npass++ : nfail++;
	printf("%s %d ", ok ? "ok" : "not ok", npass + nfail);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static const char *splats[] = {
	"WARNING:", "BUG:", "Oops", "Call Trace", "general protection",
	"KASAN", "lockdep", "possible recursive locking",
	"possible circular locking", "UBSAN", "kmemleak", "cut here",
	"hung_task", "blocked for more than",
};

static int get_stats(int fd, struct pmc_op_getdriverstats *st)
{
	memset(st, 0, sizeof(*st));
	return ioctl(fd, HWPMC_IOC_GETDRIVERSTATS, st);
}

/*
 * Rows in use on any CPU (printed); *ndis: disabled rows, which are
 * re-enabled when fix is set (the fuzzing's PMCADMIN disabled them).
 */
static int rows_in_use(int fd, int print, int fix, int *ndis)
{
	struct pmc_info *pi = calloc(ci.pm_npmc, sizeof(*pi));
	struct pmc_op_getpmcinfo gi;
	struct pmc_op_pmcadmin pa;
	int cpu, busy = 0;
	uint32_t r;

	*ndis = 0;
	if (!pi)
		return -1;
	for (cpu = 0; cpu < ncpus; cpu++) {
		gi.pm_cpu = cpu;
		gi.pm_npmc = ci.pm_npmc;
		gi.pm_pmcs = (uintptr_t)pi;
		if (ioctl(fd, HWPMC_IOC_GETPMCINFO, &gi))
			continue;	/* offline */
		for (r = 0; r < ci.pm_npmc; r++) {
			/* system PMCs show their owner, process PMCs THREAD */
			if (pi[r].pm_ownerpid != -1 || pi[r].pm_rowdisp == PMC_DISP_THREAD) {
				busy++;
				if (print)
					printf("# cpu %d row %u %s: owner %d disp %u mode %u event 0x%x\n",
					       cpu, r, pi[r].pm_name, pi[r].pm_ownerpid,
					       pi[r].pm_rowdisp, pi[r].pm_mode, pi[r].pm_event);
			}
			if (pi[r].pm_enabled)
				continue;
			(*ndis)++;
			if (!fix)
				continue;
			memset(&pa, 0, sizeof(pa));
			pa.pm_cpu = cpu;
			pa.pm_pmc = r;
			pa.pm_state = PMC_STATE_FREE;
			if (ioctl(fd, HWPMC_IOC_PMCADMIN, &pa))
				printf("# cpu %d row %u: PMCADMIN FREE: %s\n",
				       cpu, r, strerror(errno));
		}
	}
	free(pi);
	return busy;
}

static void learn_machine(int fd)
{
	struct pmc_op_getdyneventinfo gd;
	uint32_t i;

	if (ioctl(fd, HWPMC_IOC_GETCPUINFO, &ci)) {
		perror("GETCPUINFO");
		exit(1);
	}
	ncpus = ci.pm_ncpu;
	for (i = 0; i < ci.pm_nclass && i < PMC_CLASS_MAX; i++) {
		classes[nclasses].class = ci.pm_classes[i].pm_class;
		gd.pm_class = ci.pm_classes[i].pm_class;
		gd.pm_nevent = MAXEV;
		gd.pm_events = (uintptr_t)classes[nclasses].ev;
		if (ioctl(fd, HWPMC_IOC_GETDYNEVENTINFO, &gd) == 0)
			classes[nclasses].nev = gd.pm_nevent < MAXEV ? gd.pm_nevent : MAXEV;
		nclasses++;
	}
}

static pid_t spawn_worker(int idx, int nthreads, pid_t pgrp, uint64_t seed)
{
	pid_t p = fork();

	if (p == 0)
		worker_main(idx, seed, nthreads, pgrp);
	if (p > 0)
		setpgid(p, pgrp);
	return p;
}

static void show_task(pid_t p)
{
	char path[64], buf[2048];
	ssize_t n;
	int fd;
	const char *f[] = { "stat", "wchan", "stack" };

	for (unsigned int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "/proc/%d/%s", p, f[i]);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = 0;
			printf("# pid %d %s: %s\n", p, f[i], buf);
		}
	}
}

static const char *opname[NOPS] = {
	"CONFIGURELOG", "FLUSHLOG", "GETCPUINFO", "GETDRIVERSTATS",
	"GETMODULEVERSION", "GETPMCINFO", "PMCADMIN", "PMCALLOCATE",
	"PMCATTACH", "PMCDETACH", "PMCGETMSR", "PMCRELEASE", "PMCRW",
	"PMCSETCOUNT", "PMCSTART", "PMCSTOP", "WRITELOG", "CLOSELOG",
	"GETDYNEVENTINFO", "GETCAPS",
};

int main(int argc, char **argv)
{
	int duration = 60, nprocs = 3, nthreads = 3, do_rmmod = 0, fd, c, i;
	uint64_t seed = 0;
	pid_t workers[MAXWORKERS], holder, p;
	struct pmc_op_getdriverstats st0, st1;
	int kmsg, alive, unreaped, busy, disabled = 0;
	unsigned long calls = 0, oks = 0;
	struct timespec now;
	time_t t_end;
	ssize_t n;

	n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	self_exe[n > 0 ? n : 0] = 0;
	pagesz = sysconf(_SC_PAGESIZE);
	if (argc >= 4 && strcmp(argv[1], "--target") == 0)
		return target_main(atoi(argv[2]), strtoull(argv[3], NULL, 10));
	if (argc >= 6 && strcmp(argv[1], "--worker") == 0) {
		int sfd = open("/dev/shm/hwpmc_fuzz", O_RDWR);

		fd = open(DEV, O_RDONLY);
		if (sfd < 0 || fd < 0)
			_exit(0);
		sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED, sfd, 0);
		close(sfd);
		if (sh == MAP_FAILED)
			_exit(0);
		learn_machine(fd);
		close(fd);
		/* the run's end, as the supervisor set it: the stop flag */
		deadline = time(NULL) + 3600;
		return worker_main(atoi(argv[2]), strtoull(argv[3], NULL, 10),
				   atoi(argv[4]), atoi(argv[5]));
	}
	while ((c = getopt(argc, argv, "d:s:p:t:rv")) != -1) {
		switch (c) {
		case 'd': duration = atoi(optarg); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'p': nprocs = atoi(optarg); break;
		case 't': nthreads = atoi(optarg); break;
		case 'r': do_rmmod = 1; break;
		case 'v': break;
		default:
			fprintf(stderr, "usage: %s [-d SECONDS] [-s SEED] [-p PROCS] [-t THREADS] [-r]\n",
				argv[0]);
			return 2;
		}
	}
	if (nprocs < 1 || nprocs > MAXWORKERS)
		nprocs = 3;
	if (!seed) {
		clock_gettime(CLOCK_REALTIME, &now);
		seed = ((uint64_t)now.tv_sec << 20) ^ (uint64_t)now.tv_nsec ^ getpid();
	}
	rs = seed | 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	printf("# hwpmc_fuzz: seed %llu, %d s, %d owner processes x %d threads\n",
	       (unsigned long long)seed, duration, nprocs, nthreads);
	printf("# repeat with: hwpmc_fuzz -s %llu -d %d -p %d -t %d\n",
	       (unsigned long long)seed, duration, nprocs, nthreads);

	fd = open(DEV, O_RDWR);
	if (fd < 0) {
		printf("1..0 # SKIP %s: %s\n", DEV, strerror(errno));
		return 4;
	}
	learn_machine(fd);
	printf("# %d CPUs, %u rows per CPU, %d classes\n", ncpus, ci.pm_npmc, nclasses);
	kmsg = kmsg_open();
	get_stats(fd, &st0);
	close(fd);

	/* shared state, in a file so that exec'd owners find it again */
	c = open("/dev/shm/hwpmc_fuzz", O_RDWR | O_CREAT | O_TRUNC, 0666);
	if (c < 0 || ftruncate(c, sizeof(*sh))) {
		perror("/dev/shm/hwpmc_fuzz");
		return 1;
	}
	fchmod(c, 0666);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED, c, 0);
	close(c);
	if (sh == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	memset(sh, 0, sizeof(*sh));

	/* every descendant, orphaned or not, is ours to reap */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	holder = fork();
	if (holder == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}
	setpgid(holder, holder);
	deadline = time(NULL) + duration;
	for (i = 0; i < nprocs; i++)
		workers[i] = spawn_worker(i, nthreads, holder, rnd());

	while (time(NULL) < deadline) {
		usleep(100000);
		while ((p = waitpid(-1, NULL, WNOHANG)) > 0)
			for (i = 0; i < nprocs; i++)
				if (workers[i] == p) {
					workers[i] = spawn_worker(i, nthreads, holder, rnd());
					sh->respawns++;
				}
		if (chance(5)) {	/* an owner killed mid-run */
			i = rn(nprocs);
			if (workers[i] > 0 && kill(workers[i], SIGKILL) == 0)
				sh->kills++;
		}
	}

	/* the end: owners stop by themselves, then everything is killed */
	sh->stop = 1;
	t_end = time(NULL) + 5;
	alive = nprocs;
	while (alive && time(NULL) < t_end) {
		usleep(100000);
		while ((p = waitpid(-1, NULL, WNOHANG)) > 0)
			for (i = 0; i < nprocs; i++)
				if (workers[i] == p)
					workers[i] = 0, alive--;
	}
	kill(-holder, SIGKILL);
	for (i = 0; i < nprocs; i++)
		if (workers[i] > 0)
			kill(workers[i], SIGKILL);
	t_end = time(NULL) + 60;
	unreaped = 0;
	for (;;) {
		p = waitpid(-1, NULL, WNOHANG);
		if (p > 0)
			continue;
		if (p < 0 && errno == ECHILD)
			break;
		if (time(NULL) >= t_end) {
			unreaped = 1;
			break;
		}
		kill(-holder, SIGKILL);
		usleep(50000);
	}
	if (unreaped) {
		/* who is left: a task stuck in the module */
		for (i = 0; i < nprocs; i++)
			if (workers[i] > 0)
				show_task(workers[i]);
		show_task(holder);
	}
	tap(!unreaped, "every process reaped within 60 s of SIGKILL");
	unlink("/dev/shm/hwpmc_fuzz");

	for (i = 0; i < NOPS; i++) {
		printf("# %-16s %8lu calls %8lu ok\n", opname[i], sh->calls[i], sh->ok[i]);
		calls += sh->calls[i];
		oks += sh->ok[i];
	}
	printf("# %lu raw ioctl numbers, %lu targets, %lu owners killed, %lu respawned, %lu execs, %lu exits\n",
	       sh->raw_calls, sh->targets, sh->kills, sh->respawns, sh->execs, sh->exits);
	tap(sh->ok[PMC_OP_PMCALLOCATE] > 0 && sh->ok[PMC_OP_PMCATTACH] > 0 &&
	    sh->ok[PMC_OP_PMCSTART] > 0 && sh->ok[PMC_OP_PMCRELEASE] > 0 &&
	    sh->ok[PMC_OP_CONFIGURELOG] > 0,
	    "the fuzzing got through: ALLOCATE, ATTACH, START, RELEASE, CONFIGURELOG succeeded");
	tap(sh->kills + sh->execs + sh->exits > 0, "owners died mid-run (killed, exec'd or exited)");

	fd = open(DEV, O_RDWR);
	if (fd < 0) {
		tap(0, "%s opens after the run: %s", DEV, strerror(errno));
	} else {
		/* process exits finish asynchronously: a little patience */
		for (i = 0; i < 50 && rows_in_use(fd, 0, 0, &disabled) > 0; i++)
			usleep(100000);
		busy = rows_in_use(fd, 1, 1, &disabled);
		printf("# %d rows disabled by PMCADMIN, re-enabled\n", disabled);
		tap(busy == 0, "no row in use on any CPU afterwards (%d)", busy);
		busy = rows_in_use(fd, 1, 0, &disabled);
		tap(busy == 0 && disabled == 0, "all rows free and enabled again");
		if (get_stats(fd, &st1)) {
			tap(0, "GETDRIVERSTATS: %s", strerror(errno));
		} else {
			uint64_t ds = st1.pm_syscalls - st0.pm_syscalls;
			uint64_t de = st1.pm_syscall_errors - st0.pm_syscall_errors;
			int res = 0;

			for (i = 0; i < (int)(sizeof(st1.pm__reserved) / sizeof(st1.pm__reserved[0])); i++)
				res |= st1.pm__reserved[i] != 0;
			printf("# driver stats: %llu ioctls (%llu failed) during the run, we counted %lu (%lu ok)\n",
			       (unsigned long long)ds, (unsigned long long)de, calls, oks);
			printf("# intr processed %llu ignored %llu bufferfull %llu, log records dropped %llu, write errors %llu\n",
			       (unsigned long long)st1.pm_intr_processed,
			       (unsigned long long)st1.pm_intr_ignored,
			       (unsigned long long)st1.pm_intr_bufferfull,
			       (unsigned long long)st1.pm_log_records_dropped,
			       (unsigned long long)st1.pm_log_write_errors);
			tap(ds >= calls && de <= ds && de >= calls - oks && !res &&
			    st1.pm_syscall_errors <= st1.pm_syscalls,
			    "driver stats consistent with the calls made");
		}
		close(fd);
	}
	if (kmsg < 0) {
		tap(0, "/dev/kmsg: %s", strerror(errno));
	} else {
		c = kmsg_splats(kmsg, splats, sizeof(splats) / sizeof(splats[0]));
		tap(c == 0, "no WARNING/BUG/lockdep/KASAN in the kernel log (%d lines)", c);
		close(kmsg);
	}
	if (do_rmmod) {
		int r = system("rmmod hwpmc 2>/dev/null"), refs, pinned;

		if (r) {
			/*
			 * EBUSY is right while sleeping processes the run
			 * attached to (its parent, daemons picked at random)
			 * hold a notifier or task work of the module
			 * (hwpmc(4)): then every reference must be one of
			 * those, none leaked.
			 */
			refs = read_int_path("/sys/module/hwpmc/refcnt");
			pinned = read_param("csw_pinned");
			printf("# rmmod refused: %d references, %d held by notifiers and task works of sleeping former targets\n",
			       refs, pinned);
			tap(refs > 0 && refs == pinned,
			    "rmmod hwpmc after the run, or every reference left is a sleeper's");
		} else {
			tap(1, "rmmod hwpmc after the run");
			r = system("modprobe hwpmc");
			tap(r == 0, "modprobe hwpmc again");
		}
	}
	printf("1..%d\n", npass + nfail);
	printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:0 error:0\n", npass, nfail);
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail ? 1 : 0;
}
