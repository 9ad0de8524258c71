/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwpmc for Linux: the helpers the test programs in selftests/ share, so
 * that each keeps only what is its own: the ioctls of /dev/hwpmc as calls
 * that return an errno, the clock and fresh pages for workloads, module
 * parameters, group hwpmc and the device node as the udev rule leaves
 * them, and for the two fuzzers their random numbers and the kernel log's
 * splats.  Everything is static inline: a program pays for what it calls.
 * Include it after the libc headers (and _FILE_OFFSET_BITS); it does not
 * include the kselftest harness, which the fuzzers and the workload
 * programs do without.
 */
#ifndef HWPMC_SELFTEST_H
#define HWPMC_SELFTEST_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <linux/hwpmc.h>

#define DEV		PMC_DEVICE_PATH
#define PARAM		"/sys/module/hwpmc/parameters/"
/* A bad user address: never mapped in user space. */
#define BAD_PTR		((void *)8)
#define EV_SOFT(x)	(PMC_EV_SOFT_FIRST + PERF_COUNT_SW_##x)
#define EV_PMU(x)	(PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_##x)

/* -- the ioctls of /dev/hwpmc: 0 or an errno ------------------------------ */

static inline int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

/* PMCALLOCATE of *pa; the new PMC's id in *id (when id is set). */
static inline int pmcallocate(int fd, struct pmc_op_pmcallocate *pa,
			      __u32 *id)
{
	int e = xioctl(fd, HWPMC_IOC_PMCALLOCATE, pa);

	if (!e && id)
		*id = pa->pm_pmcid;
	return e;
}

/* A PMC of class cl: the programs' alloc() variants are this with zeros. */
static inline int alloc_pmc(int fd, __u32 mode, __u32 cl, __u32 ev,
			    __u32 cpu, __u32 flags, __u32 caps, __u64 count,
			    __u32 *id)
{
	struct pmc_op_pmcallocate pa = {
		.pm_mode = mode, .pm_class = cl, .pm_ev = ev, .pm_cpu = cpu,
		.pm_flags = flags, .pm_caps = caps, .pm_count = count,
	};

	return pmcallocate(fd, &pa, id);
}

/* START, STOP, RELEASE: the operations that take a PMC id alone. */
static inline int simple(int fd, unsigned long cmd, __u32 id)
{
	struct pmc_op_simple sp = { .pm_pmcid = id };

	return xioctl(fd, cmd, &sp);
}

static inline int attach(int fd, __u32 id, pid_t pid)
{
	struct pmc_op_pmcattach a = { .pm_pmc = id, .pm_pid = pid };

	return xioctl(fd, HWPMC_IOC_PMCATTACH, &a);
}

static inline int detach(int fd, __u32 id, pid_t pid)
{
	struct pmc_op_pmcattach a = { .pm_pmc = id, .pm_pid = pid };

	return xioctl(fd, HWPMC_IOC_PMCDETACH, &a);
}

/* PMCRW: writes *v (PMC_F_NEWVALUE), *v is the old value after. */
static inline int rw(int fd, __u32 id, __u32 flags, __u64 *v)
{
	struct pmc_op_pmcrw r = { .pm_flags = flags, .pm_pmcid = id,
				  .pm_value = *v };
	int e = xioctl(fd, HWPMC_IOC_PMCRW, &r);

	*v = r.pm_value;
	return e;
}

/* The PMC's value, ~0 when it cannot be read. */
static inline __u64 value(int fd, __u32 id)
{
	__u64 v = 0;

	return rw(fd, id, PMC_F_OLDVALUE, &v) ? ~0ULL : v;
}

static inline int configure(int fd, int logfd)
{
	struct pmc_op_configurelog cl = { .pm_logfd = logfd };

	return xioctl(fd, HWPMC_IOC_CONFIGURELOG, &cl);
}

static inline int writelog(int fd, __u32 v)
{
	struct pmc_op_writelog wl = { .pm_userdata = v };

	return xioctl(fd, HWPMC_IOC_WRITELOG, &wl);
}

/* -- time and workloads ---------------------------------------------------- */

/* CLOCK_MONOTONIC in seconds. */
static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Interrupts taken so far, all CPUs (/proc/stat's intr): under QEMU TCG
 * the instructions of a timer interrupt taken in a user loop count as
 * user mode, so a count of a known loop is exact only up to them.
 */
static inline unsigned long long intr_count(void)
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

/* Busy for secs of wall time. */
static inline void spin(double secs)
{
	double end = now() + secs;

	while (now() < end)
		;
}

/*
 * n fresh anonymous pages of pg bytes, without transparent huge pages:
 * one fault a page when touched.  NULL when mmap fails.
 */
static inline char *fresh_pages(long n, long pg)
{
	char *m;

	/*
	 * No huge page anywhere in the process: MADV_NOHUGEPAGE comes after
	 * the mmap, and meanwhile the new mapping may have merged with a
	 * neighbour (another thread's stack) where another thread's fault
	 * put a huge page over part of it, whose pages are then present
	 * when touched (seen: 324 faults, by the thread's own min_flt, for
	 * 500 pages, on a busy host).
	 */
	prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	m = mmap(NULL, n * pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	madvise(m, n * pg, MADV_NOHUGEPAGE);
	return m;
}

/* -- a process that forks a child on request (descendants born later) ---- */

/*
 * born_fork() forks a root that waits; born_go() makes it fork a child,
 * which sends its pid and runs child_fn(root's pid), while the root runs
 * root_fn(child's pid) (NULL: the root exits at once).  Both exit when
 * their function returns.  born_root_waits() as root_fn keeps the root
 * asleep until born_end(), then kills the child.  born_end() releases
 * and reaps the root (a root already reaped is fine) and closes the pipes.
 */
struct born {
	pid_t root, child;
	int go, cp, rel;	/* the parent's ends of the three pipes */
};

static int born_rel_fd = -1;	/* in the root: its end of rel */

static inline void born_root_waits(pid_t child)
{
	char c;

	if (read(born_rel_fd, &c, 1) < 0)
		_exit(1);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

static inline int born_fork(struct born *b, void (*root_fn)(pid_t child),
			    void (*child_fn)(pid_t root))
{
	int go[2], cp[2], rel[2];
	pid_t me;
	char c;

	if (pipe(go))
		return -1;
	if (pipe(cp) || pipe(rel))
		return -1;
	b->child = 0;
	b->root = fork();
	if (b->root < 0)
		return -1;
	if (!b->root) {
		close(go[1]);
		close(cp[0]);
		close(rel[1]);
		born_rel_fd = rel[0];
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		me = getpid();
		b->child = fork();
		if (b->child < 0)
			_exit(1);
		if (!b->child) {
			b->child = getpid();
			if (write(cp[1], &b->child, sizeof(b->child)) !=
			    sizeof(b->child))
				_exit(1);
			child_fn(me);
			_exit(0);
		}
		if (root_fn)
			root_fn(b->child);
		_exit(0);
	}
	close(go[0]);
	close(cp[1]);
	close(rel[0]);
	b->go = go[1];
	b->cp = cp[0];
	b->rel = rel[1];
	return 0;
}

/* The child's pid, or -1. */
static inline pid_t born_go(struct born *b)
{
	if (write(b->go, "g", 1) != 1 ||
	    read(b->cp, &b->child, sizeof(b->child)) != sizeof(b->child))
		return -1;
	return b->child;
}

static inline void born_end(struct born *b)
{
	close(b->rel);
	close(b->go);
	close(b->cp);
	waitpid(b->root, NULL, 0);
}

/* -- module parameters (the tunables) ------------------------------------- */

/* The int a file starts with; -1 when it cannot be read. */
static inline int read_int_path(const char *path)
{
	int v = -1;
	FILE *f = fopen(path, "r");

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* The parameter as an int; -1 when it cannot be read. */
static inline int read_param(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), PARAM "%s", name);
	return read_int_path(path);
}

/* 0, or -1 when the module refused v (the write fails at the close). */
static inline int write_param(const char *name, const char *v)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), PARAM "%s", name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ok = fputs(v, f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

static inline int write_param_int(const char *name, int v)
{
	char s[16];

	snprintf(s, sizeof(s), "%d", v);
	return write_param(name, s);
}

/* -- group hwpmc and /dev/hwpmc ---------------------------------------------- */

/* group hwpmc from /etc/group (no NSS in a static test); -1 if none */
static inline gid_t group_hwpmc(void)
{
	char line[512];
	unsigned int gid;
	FILE *f = fopen("/etc/group", "r");

	if (!f)
		return (gid_t)-1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "hwpmc:%*[^:]:%u:", &gid) == 1 ||
		    sscanf(line, "hwpmc::%u:", &gid) == 1) {
			fclose(f);
			return gid;
		}
	fclose(f);
	return (gid_t)-1;
}

/*
 * /dev/hwpmc as the udev rule leaves it, root:gid 0660 (gid: group
 * hwpmc), set here when udevd did not; 0 if ready.  wait: give a modprobe
 * just done up to 2 s to make the node; verbose: say when it is set here.
 */
static inline int device_as_udev(gid_t gid, int wait, int verbose)
{
	struct stat st;
	int i;

	for (i = 0; wait && i < 100 && stat(DEV, &st); i++)
		usleep(20000);
	if (gid == (gid_t)-1 || stat(DEV, &st))
		return -1;
	if (st.st_gid == gid && (st.st_mode & 07777) == 0660)
		return 0;
	if (verbose)
		printf("# %s is %o %u:%u, not set up by udev: setting group hwpmc, 0660 as the rule does\n",
		       DEV, (unsigned int)(st.st_mode & 07777),
		       (unsigned int)st.st_uid, (unsigned int)st.st_gid);
	return chown(DEV, 0, gid) || chmod(DEV, 0660) ? -1 : 0;
}

/* -- the fuzzers: random numbers, per thread (xorshift64*) ----------------- */

static __thread uint64_t rs __attribute__((unused));

static inline uint64_t rnd(void)
{
	rs ^= rs >> 12;
	rs ^= rs << 25;
	rs ^= rs >> 27;
	return rs * 2685821657736338717ULL;
}

static inline uint32_t rn(uint32_t n)	/* [0, n) */
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

static inline int chance(int pct)
{
	return rn(100) < (uint32_t)pct;
}

/* -- the fuzzers: the kernel log ---------------------------------------------- */

/* The kernel log from now on: /dev/kmsg, positioned at its end. */
static inline int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/*
 * Kernel log records since kmsg_open that hold one of the n strings in
 * splats (each printed).
 */
static inline int kmsg_splats(int fd, const char *const *splats, size_t n)
{
	char rec[8192];
	size_t i;
	ssize_t len;
	int found = 0;

	if (fd < 0)
		return 0;
	for (;;) {
		len = read(fd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)	/* overwritten records: go on */
			continue;
		if (len <= 0)
			break;
		rec[len] = 0;
		for (i = 0; i < n; i++)
			if (strstr(rec, splats[i])) {
				found++;
				rec[strcspn(rec, "\n")] = 0;
				printf("# kernel: %s\n", strchr(rec, ';') ?
				       strchr(rec, ';') + 1 : rec);
				break;
			}
	}
	return found;
}

/*
 * Whether kallsyms names the kernel's list of modules ("modules", a data
 * symbol: CONFIG_KALLSYMS_ALL, not in Debian's arm64 kernels).  Only
 * then does hwpmc find the modules loaded before it, itself included,
 * for the kernel's MAP_IN records; else only those loaded after it.
 */
static inline int kallsyms_names_modules_list(void)
{
	char line[256], name[128];
	int found = 0, n;
	FILE *f = fopen("/proc/kallsyms", "re");

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		n = sscanf(line, "%*s %*c %127s", name);
		found = n == 1 && !strcmp(name, "modules") &&
			!strchr(line, '[');
	}
	fclose(f);
	return found;
}

#endif /* HWPMC_SELFTEST_H */
