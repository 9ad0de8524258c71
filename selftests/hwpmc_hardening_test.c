// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: what a member of group hwpmc (an untrusted user) must
 * not get from the module, run as root in a VM (docs/security.md):
 *
 *   - kernel addresses from a user-mode-only sampling PMC: skid samples
 *     (the PMI arrives after a syscall entered the kernel) carry the user
 *     state at kernel entry, never a kernel PC or kernel frames; needs a
 *     hardware PMU (the arm64 guest), skipped elsewhere;
 *   - reload counts with bit 63 set (perf's sample-period bound, which
 *     kernel counters skip): EINVAL at PMCALLOCATE and PMCSETCOUNT;
 *   - raw PMU configurations beyond an event's encoding (EINVAL) or with
 *     bits perf reserves to privilege (EPERM);
 *   - every hardware counter of the machine: the counter sets of one
 *     user are limited (tunable unprivileged_counters), and root's own
 *     per-task perf counter still counts.
 */
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <linux/hwpmc.h>
#include <linux/hwpmclog.h>

#include "kselftest_harness.h"
#include "hwpmc_selftest.h"

#define MEMBER_UID	1000
/* user space ends below 2^56 on x86-64 (5 levels) and arm64 */
#define USER_TOP	(1ULL << 56)

static gid_t hwpmc_gid = (gid_t)-1;

/* /dev/hwpmc as the udev rule leaves it: root:hwpmc 0660; 0 if ready */
static int setup_device(void)
{
	hwpmc_gid = group_hwpmc();
	return device_as_udev(hwpmc_gid, 0, 0);
}

/* In a child: become a member of group hwpmc with no capability. */
static void become_member(void)
{
	if (setgroups(1, &hwpmc_gid) ||
	    setresgid(MEMBER_UID, MEMBER_UID, MEMBER_UID) ||
	    setresuid(MEMBER_UID, MEMBER_UID, MEMBER_UID))
		_exit(201);
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		_exit(202);
}

static int alloc_md(int fd, __u32 mode, __u32 cl, __u32 ev, __u32 caps,
		    __u32 flags, __u64 count, __u64 config, __u32 *id)
{
	struct pmc_op_pmcallocate pa = {
		.pm_mode = mode, .pm_class = cl, .pm_ev = ev,
		.pm_cpu = PMC_CPU_ANY, .pm_caps = caps, .pm_flags = flags,
		.pm_count = count,
	};

	pa.pm_md.pm_pmu.pm_config = config;
	return pmcallocate(fd, &pa, id);
}

/* Has this machine's backend a hardware PMU event (root's view)? */
static int have_pmu_event(__u32 ev, __u32 caps)
{
	__u32 id;
	int fd = open(DEV, O_RDWR | O_CLOEXEC), e;

	if (fd < 0)
		return 0;
	e = alloc_md(fd, PMC_MODE_TC, PMC_CLASS_PMU, ev, caps, 0, 0, 0, &id);
	close(fd);
	return !e;
}

/* -- reload counts --------------------------------------------------------- */

TEST(reload_count_bit63_is_einval)
{
	struct pmc_op_pmcsetcount sc = { .pm_count = 1ULL << 63 };
	int fd = open(DEV, O_RDWR | O_CLOEXEC);
	__u32 id;

	ASSERT_LE(0, fd);
	EXPECT_EQ(EINVAL, alloc_md(fd, PMC_MODE_TS, PMC_CLASS_SOFT,
				   EV_SOFT(CPU_CLOCK), PMC_CAP_INTERRUPT, 0,
				   1ULL << 63, 0, &id));
	EXPECT_EQ(EINVAL, alloc_md(fd, PMC_MODE_TS, PMC_CLASS_SOFT,
				   EV_SOFT(CPU_CLOCK), PMC_CAP_INTERRUPT, 0,
				   ~0ULL, 0, &id));
	/* the largest period perf takes is fine */
	ASSERT_EQ(0, alloc_md(fd, PMC_MODE_TS, PMC_CLASS_SOFT,
			      EV_SOFT(CPU_CLOCK), PMC_CAP_INTERRUPT, 0,
			      (1ULL << 63) - 1, 0, &id));
	/* and SETCOUNT, before any counter exists, checks the same */
	sc.pm_pmcid = id;
	EXPECT_EQ(EINVAL, xioctl(fd, HWPMC_IOC_PMCSETCOUNT, &sc));
	sc.pm_count = 1000000;
	EXPECT_EQ(0, xioctl(fd, HWPMC_IOC_PMCSETCOUNT, &sc));
	EXPECT_EQ(0, simple(fd, HWPMC_IOC_PMCRELEASE, id));
	/* a counting PMC's initial value may be anything */
	EXPECT_EQ(0, alloc_md(fd, PMC_MODE_TC, PMC_CLASS_SOFT,
			      EV_SOFT(TASK_CLOCK), 0, 0, ~0ULL, 0, &id));
	close(fd);
}

/* -- raw configurations ----------------------------------------------------- */

struct raw_case {
	__u64 config;
	int want;
};

static int member_raw(const struct raw_case *c)
{
	int fd = open(DEV, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return 200;
	return alloc_md(fd, PMC_MODE_TC, PMC_CLASS_PMU, PMC_EV_PMU_RAW,
			PMC_CAP_USER, 0, 0, c->config, NULL);
}

TEST(member_raw_config_is_checked)
{
#if defined(__x86_64__) || defined(__i386__)
	static const struct raw_case cases[] = {
		{ 0x003c, 0 },			/* cycles */
		{ 0x01c0, 0 },			/* instructions retired */
		{ 0x003c | 1ULL << 21, EPERM },	/* AnyThread: the sibling */
		{ 0x003c | 1ULL << 17, EINVAL },	/* OS: the caps' job */
		{ 0x003c | 1ULL << 22, EINVAL },	/* EN */
		{ 0x003c | 1ULL << 60, EINVAL },
	};
#elif defined(__aarch64__)
	static const struct raw_case cases[] = {
		{ 0x08, 0 },			/* INST_RETIRED */
		{ 0x11, 0 },			/* CPU_CYCLES */
		{ 0x08 | 1ULL << 27, EINVAL },	/* NSH: count EL2 */
		{ 0x08 | 1ULL << 31, EINVAL },	/* P: the caps' job */
		{ 0x08 | 1ULL << 40, EINVAL },
	};
#else
	static const struct raw_case cases[] = { { 0, 0 } };
	SKIP(return, "no raw event encoding known for this architecture");
#endif
	unsigned int i;
	int status;
	pid_t pid;

	if (!have_pmu_event(PMC_EV_PMU_RAW, PMC_CAP_USER))
		SKIP(return, "no hardware PMU: no raw events here");
	ASSERT_EQ(0, setup_device());
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			become_member();
			_exit(member_raw(&cases[i]));
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		EXPECT_EQ(cases[i].want, WEXITSTATUS(status))
			TH_LOG("raw config %#llx: errno %d, want %d",
			       (unsigned long long)cases[i].config,
			       WEXITSTATUS(status), cases[i].want);
	}
}

/* -- skid: no kernel address in a user-only sampling PMC's log ------------------ */

struct logscan {
	unsigned long records, samples, kernel, chains_checked;
	unsigned long long first_bad;
	unsigned long attaches, drops;	/* PMCATTACHes of pid, DROPNOTIFYs */
};

/* Scan a log file's records; -1 on a malformed log. */
static int scan_log(const char *path, struct logscan *ls, pid_t pid)
{
	static char buf[1 << 16];
	size_t have = 0, off;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	memset(ls, 0, sizeof(*ls));
	if (fd < 0)
		return -1;
	for (;;) {
		n = read(fd, buf + have, sizeof(buf) - have);
		if (n < 0) {
			close(fd);
			return -1;
		}
		have += n;
		off = 0;
		while (have - off >= sizeof(struct pmclog_header)) {
			const struct pmclog_header *h = (void *)(buf + off);
			__u32 len = PMCLOG_HEADER_TO_LENGTH(h->pl_header);
			const struct pmclog_callchain *cc = (void *)h;
			__u32 i, npc;

			if (PMCLOG_HEADER_TO_MAGIC(h->pl_header) !=
			    PMCLOG_HEADER_MAGIC || len < sizeof(*h) ||
			    len % PMCLOG_ALIGN) {
				close(fd);
				return -1;
			}
			if (have - off < len)
				break;
			ls->records++;
			if (PMCLOG_HEADER_TO_TYPE(h->pl_header) ==
			    PMCLOG_TYPE_DROPNOTIFY)
				ls->drops++;
			if (PMCLOG_HEADER_TO_TYPE(h->pl_header) ==
			    PMCLOG_TYPE_PMCATTACH &&
			    ((const struct pmclog_pmcattach *)h)->pl_pid ==
			    (__u32)pid)
				ls->attaches++;
			if (PMCLOG_HEADER_TO_TYPE(h->pl_header) ==
			    PMCLOG_TYPE_CALLCHAIN && len >= sizeof(*cc)) {
				ls->samples++;
				npc = (len - sizeof(*cc)) / sizeof(__u64);
				if (!(cc->pl_cpuflags & PMC_CC_F_USERSPACE) ||
				    (cc->pl_cpuflags & PMC_CC_F_KERNEL_USER))
					ls->kernel++;
				for (i = 0; i < npc; i++) {
					ls->chains_checked++;
					if (cc->pl_pc[i] >= USER_TOP) {
						if (!ls->first_bad)
							ls->first_bad =
								cc->pl_pc[i];
						ls->kernel++;
						break;
					}
				}
			}
			off += len;
		}
		memmove(buf, buf + off, have - off);
		have -= off;
		if (n == 0)
			break;
	}
	close(fd);
	return have ? -1 : 0;
}

/*
 * The member samples user-mode instructions of a loop that spends most
 * of its time in syscalls, at the smallest period the module allows,
 * with call chains, until want samples are logged or secs pass.
 */
static int member_skid(int logfd, const char *path, unsigned long want,
		       double secs)
{
	struct pmc_op_configurelog cl = { .pm_logfd = logfd };
	int fd, zero, mincount = read_param("mincount");
	char buf[4096];
	double end = now() + secs;
	struct logscan ls;
	__u32 id;
	int e, i;

	fd = open(DEV, O_RDWR | O_CLOEXEC);
	zero = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || zero < 0 || mincount < 1)
		return 200;
	e = xioctl(fd, HWPMC_IOC_CONFIGURELOG, &cl);
	if (!e)
		e = alloc_md(fd, PMC_MODE_TS, PMC_CLASS_PMU,
			     EV_PMU(INSTRUCTIONS),
			     PMC_CAP_USER | PMC_CAP_INTERRUPT, PMC_F_CALLCHAIN,
			     mincount, 0, &id);
	if (!e)
		e = simple(fd, HWPMC_IOC_PMCSTART, id);
	if (e)
		return e;
	do {
		for (i = 0; i < 2000; i++) {
			if (read(zero, buf, sizeof(buf)) < 0)
				return 199;
			syscall(SYS_getppid);
		}
		if (xioctl(fd, HWPMC_IOC_FLUSHLOG, NULL))
			return 198;
		if (scan_log(path, &ls, 0))
			return 197;
	} while (ls.samples < want && now() < end);
	simple(fd, HWPMC_IOC_PMCSTOP, id);
	xioctl(fd, HWPMC_IOC_CLOSELOG, NULL);
	return 0;
}

TEST(user_only_samples_carry_no_kernel_address)
{
	char path[] = "/tmp/hwpmc_skid.XXXXXX";
	double secs = getenv("HWPMC_SLOW_GUEST") ? 120 : 60;
	unsigned long want = 2000;
	struct logscan ls;
	int status, logfd;
	pid_t pid;

	if (!have_pmu_event(EV_PMU(INSTRUCTIONS),
			    PMC_CAP_USER | PMC_CAP_INTERRUPT))
		SKIP(return, "no hardware PMU (instructions): skid needs one");
	ASSERT_EQ(0, setup_device());
	logfd = mkstemp(path);
	ASSERT_LE(0, logfd);
	ASSERT_EQ(0, fchown(logfd, MEMBER_UID, MEMBER_UID));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		become_member();
		_exit(member_skid(logfd, path, want, secs));
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	close(logfd);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, scan_log(path, &ls, 0));
	unlink(path);
	TH_LOG("%lu records, %lu samples, %lu PCs, %lu with a kernel address",
	       ls.records, ls.samples, ls.chains_checked, ls.kernel);
	EXPECT_EQ(0, ls.kernel)
		TH_LOG("first kernel address %#llx", ls.first_bad);
	/* thousands are asked for; the guest's tick paces the PMIs */
	EXPECT_LE(1000, ls.samples);
}

/* -- pid namespaces -------------------------------------------------------- */

struct pidscan {
	unsigned long attach, userdata, samples, procexit, bad;
	unsigned int badtype, badpid;
};

static void pid_want(struct pidscan *ps, unsigned int type, __u32 got,
		     __u32 want, unsigned long *n)
{
	(*n)++;
	if (got != want && !ps->bad++) {
		ps->badtype = type;
		ps->badpid = got;
	}
}

/* Records of the pid namespace owner: pids 1 (owner), 2 (its child). */
static int scan_pids(const char *path, struct pidscan *ps)
{
	static char buf[1 << 20];
	ssize_t len;
	size_t off;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	memset(ps, 0, sizeof(*ps));
	if (fd < 0)
		return -1;
	len = read(fd, buf, sizeof(buf));
	close(fd);
	if (len < 0 || len == sizeof(buf))
		return -1;
	for (off = 0; off + sizeof(struct pmclog_header) <= (size_t)len;) {
		const struct pmclog_header *h = (void *)(buf + off);
		__u32 hl = PMCLOG_HEADER_TO_LENGTH(h->pl_header);
		unsigned int type = PMCLOG_HEADER_TO_TYPE(h->pl_header);

		if (hl < sizeof(*h) || off + hl > (size_t)len)
			return -1;
		if (type == PMCLOG_TYPE_PMCATTACH)
			pid_want(ps, type,
				 ((const struct pmclog_pmcattach *)h)->pl_pid,
				 2, &ps->attach);
		if (type == PMCLOG_TYPE_USERDATA)
			pid_want(ps, type,
				 ((const struct pmclog_userdata *)h)->pl_pid,
				 1, &ps->userdata);
		if (type == PMCLOG_TYPE_PROCEXIT)
			pid_want(ps, type,
				 ((const struct pmclog_procexit *)h)->pl_pid,
				 2, &ps->procexit);
		if (type == PMCLOG_TYPE_CALLCHAIN) {
			const struct pmclog_callchain *cc = (void *)h;

			pid_want(ps, type, cc->pl_pid, 2, &ps->samples);
			pid_want(ps, type, cc->pl_tid, 2, &ps->samples);
		}
		off += hl;
	}
	return 0;
}

/* pid 1 of a new pid namespace: samples its child, pid 2, into path. */
static int pidns_owner(const char *path)
{
	struct pmc_op_configurelog cl = { 0 };
	struct pmc_op_writelog wl = { .pm_userdata = 42 };
	int fd = open(DEV, O_RDWR | O_CLOEXEC), status, e;
	__u32 id;
	pid_t child;

	if (getpid() != 1 || fd < 0)
		return 200;
	cl.pm_logfd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (cl.pm_logfd < 0 || xioctl(fd, HWPMC_IOC_CONFIGURELOG, &cl))
		return 199;
	child = fork();
	if (child == 0) {
		double end = now() + 0.5;

		while (now() < end)
			;
		_exit(0);
	}
	e = alloc_md(fd, PMC_MODE_TS, PMC_CLASS_SOFT, EV_SOFT(TASK_CLOCK),
		     PMC_CAP_USER | PMC_CAP_INTERRUPT, PMC_F_LOG_PROCEXIT,
		     100000, 0, &id);
	if (!e) {
		struct pmc_op_pmcattach at = { .pm_pmc = id, .pm_pid = child };

		e = xioctl(fd, HWPMC_IOC_PMCATTACH, &at);
	}
	if (!e)
		e = simple(fd, HWPMC_IOC_PMCSTART, id);
	if (!e)
		e = xioctl(fd, HWPMC_IOC_WRITELOG, &wl);
	waitpid(child, &status, 0);
	if (!e)
		e = xioctl(fd, HWPMC_IOC_CLOSELOG, NULL);
	return e;
}

TEST(records_carry_pids_of_the_owner_namespace)
{
	char path[] = "/tmp/hwpmc_pidns.XXXXXX";
	struct pidscan ps;
	int status, logfd;
	pid_t pid;

	if (access("/proc/self/ns/pid", F_OK))
		SKIP(return, "no pid namespaces in this kernel");
	logfd = mkstemp(path);
	ASSERT_LE(0, logfd);
	close(logfd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		pid_t owner;

		if (unshare(CLONE_NEWPID))
			_exit(198);
		owner = fork();
		if (owner == 0)
			_exit(pidns_owner(path));
		if (owner < 0 || waitpid(owner, &status, 0) != owner ||
		    !WIFEXITED(status))
			_exit(197);
		_exit(WEXITSTATUS(status));
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, scan_pids(path, &ps));
	unlink(path);
	TH_LOG("PMCATTACH %lu, USERDATA %lu, PROCEXIT %lu, CALLCHAIN pids %lu; %lu not the namespace's (first: type %u, pid %u)",
	       ps.attach, ps.userdata, ps.procexit, ps.samples, ps.bad,
	       ps.badtype, ps.badpid);
	EXPECT_EQ(0, ps.bad);
	EXPECT_EQ(1, ps.attach);
	EXPECT_EQ(1, ps.userdata);
	EXPECT_EQ(1, ps.procexit);
	EXPECT_LT(0, ps.samples);
}

/* -- no silent loss when memory runs out -------------------------------- */

/*
 * Set this thread's fail-nth (n >= 0) or read it (n < 0) through fd, open
 * already: opening it would be an allocation of its own.
 */
static int fail_nth(int fd, int n)
{
	char buf[16];
	ssize_t r;

	if (n >= 0) {
		snprintf(buf, sizeof(buf), "%d", n);
		return pwrite(fd, buf, strlen(buf), 0) > 0 ? 0 : -1;
	}
	r = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[r > 0 ? r : 0] = 0;
	return r > 0 ? atoi(buf) : -1;
}

static int write_file(const char *path, const char *v)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, v, strlen(v)) == (ssize_t)strlen(v);
	close(fd);
	return ok ? 0 : -1;
}

/*
 * PMCATTACH of a sampling PMC to a child, with the nth slab allocation
 * of the call failing, for every n until the call makes no more: the
 * attach fails, or the log has the child's PMCATTACH record, or a
 * DROPNOTIFY says that records were lost.  (Debug guest: failslab and
 * fail-nth; skipped elsewhere.)
 */
TEST(attach_without_memory_is_never_silent)
{
	char path[] = "/tmp/hwpmc_failnth.XXXXXX";
	int n, e, left, fd, logfd, failed = 0, logged = 0, dropped = 0, fn;
	struct logscan ls;
	__u32 id;
	pid_t child;

	if (access("/proc/thread-self/fail-nth", W_OK) ||
	    access("/sys/kernel/debug/failslab/ignore-gfp-wait", W_OK))
		SKIP(return, "no fail-nth and failslab (the debug guest has them)");
	ASSERT_EQ(0, write_file("/sys/kernel/debug/failslab/ignore-gfp-wait",
				"N"));
	write_file("/sys/kernel/debug/failslab/verbose", "0");
	fn = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fn);
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		pause();
		_exit(0);
	}
	for (n = 1; n < 400; n++) {
		struct pmc_op_configurelog cl = { 0 };
		struct pmc_op_pmcattach at = { 0 };

		fd = open(DEV, O_RDWR | O_CLOEXEC);
		ASSERT_LE(0, fd);
		strcpy(path, "/tmp/hwpmc_failnth.XXXXXX");
		logfd = mkstemp(path);
		ASSERT_LE(0, logfd);
		cl.pm_logfd = logfd;
		ASSERT_EQ(0, xioctl(fd, HWPMC_IOC_CONFIGURELOG, &cl));
		ASSERT_EQ(0, alloc_md(fd, PMC_MODE_TS, PMC_CLASS_SOFT,
				      EV_SOFT(CPU_CLOCK), PMC_CAP_INTERRUPT |
				      PMC_CAP_USER, 0, 1000000, 0, &id));
		at.pm_pmc = id;
		at.pm_pid = child;
		ASSERT_EQ(0, fail_nth(fn, n));
		e = xioctl(fd, HWPMC_IOC_PMCATTACH, &at);
		left = fail_nth(fn, -1);
		fail_nth(fn, 0);
		ASSERT_EQ(0, xioctl(fd, HWPMC_IOC_CLOSELOG, NULL));
		ASSERT_EQ(0, simple(fd, HWPMC_IOC_PMCRELEASE, id));
		close(fd);
		close(logfd);
		ASSERT_EQ(0, scan_log(path, &ls, child));
		unlink(path);
		if (e) {
			failed++;
		} else if (ls.attaches) {
			logged++;
		} else if (ls.drops) {
			dropped++;
		} else {
			EXPECT_TRUE(ls.attaches || ls.drops)
				TH_LOG("allocation %d failed: attach succeeded, no PMCATTACH and no DROPNOTIFY",
				       n);
		}
		if (left > 0)
			break;		/* the call made fewer than n */
	}
	close(fn);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	TH_LOG("%d allocations tried: %d attaches failed, %d logged, %d told as dropped",
	       n, failed, logged, dropped);
	EXPECT_LT(0, logged);
}

/* -- the PMU is not one user's: counter sets per user ---------------------- */

/*
 * One process of the member starts counting PMCs of distinct raw events
 * (cfg0 on) on itself until one is refused (a process has at most a
 * row's worth), and with want_extra one more of an event it holds
 * (shared, free); it reports through out and holds them until in closes.
 */
static int hog(__u64 cfg0, int want_extra, int out, int in)
{
	int fd = open(DEV, O_RDWR | O_CLOEXEC), r[3] = { 0, 0, 0 };
	__u64 cfg;
	__u32 id;
	char c;

	if (fd < 0)
		return 200;
	for (cfg = cfg0; cfg < cfg0 + 0x20; cfg++) {
#ifdef __aarch64__
		if (cfg == 0x11)	/* the cycle counter's event */
			continue;
#endif
		r[1] = alloc_md(fd, PMC_MODE_TC, PMC_CLASS_PMU, PMC_EV_PMU_RAW,
				PMC_CAP_USER, 0, 0, cfg, &id);
		if (!r[1])
			r[1] = simple(fd, HWPMC_IOC_PMCSTART, id);
		if (r[1])
			break;
		r[0]++;
	}
	if (want_extra) {
		r[2] = alloc_md(fd, PMC_MODE_TC, PMC_CLASS_PMU, PMC_EV_PMU_RAW,
				PMC_CAP_USER, 0, 0, cfg0, &id);
		if (!r[2])
			r[2] = simple(fd, HWPMC_IOC_PMCSTART, id);
	}
	if (write(out, r, sizeof(r)) != sizeof(r))
		return 199;
	while (read(in, &c, 1) > 0)
		;
	return 0;
}

#define HOGS	4	/* member processes: more than a PMU's counters */

/* root's "perf stat -e instructions:u" of a loop: counted, and ran? */
static int root_counts(__u64 *value, __u64 *running)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	volatile unsigned long x = 0;
	__u64 r[3];
	int fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	unsigned long i;

	if (fd < 0)
		return errno;
	for (i = 0; i < 2000000; i++)
		x += i;
	if (read(fd, r, sizeof(r)) != sizeof(r)) {
		close(fd);
		return EIO;
	}
	close(fd);
	*value = r[0];
	*running = r[2];
	return 0;
}

TEST(member_cannot_take_every_counter)
{
	int limit = read_param("unprivileged_counters");
	int to[2], from[2], status, started = 0, e = 0, extra = -1, r[3], k;
	__u64 value = 0, running = 0;
	pid_t pid[HOGS];

	if (!have_pmu_event(PMC_EV_PMU_RAW, PMC_CAP_USER))
		SKIP(return, "no hardware PMU: no hardware counters to hold");
	ASSERT_LE(0, limit) TH_LOG("no tunable unprivileged_counters");
	ASSERT_EQ(0, setup_device());
	ASSERT_EQ(0, pipe(to));
	ASSERT_EQ(0, pipe(from));
	/* one after the other: each takes what the ones before left */
	for (k = 0; k < HOGS; k++) {
		pid[k] = fork();
		ASSERT_LE(0, pid[k]);
		if (pid[k] == 0) {
			close(to[1]);
			close(from[0]);
			become_member();
			_exit(hog(1 + 0x20 * k, k == 0, from[1], to[0]));
		}
		ASSERT_EQ(sizeof(r), read(from[0], r, sizeof(r)));
		started += r[0];
		if (!e)
			e = r[1];
		if (k == 0)
			extra = r[2];
	}
	close(to[0]);
	close(from[1]);
	/* while the member holds what it could take */
	ASSERT_EQ(0, root_counts(&value, &running));
	close(to[1]);
	close(from[0]);
	for (k = 0; k < HOGS; k++) {
		ASSERT_EQ(pid[k], waitpid(pid[k], &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status));
	}
	TH_LOG("member started %d distinct events in %d processes (limit %d), then errno %d; a shared one: %d; root: %llu instructions, %llu ns on the PMU",
	       started, HOGS, limit, e, extra, (unsigned long long)value,
	       (unsigned long long)running);
	EXPECT_EQ(limit, started);
	EXPECT_EQ(EBUSY, e);
	EXPECT_EQ(0, extra);
	EXPECT_LT(0, running);
	EXPECT_LT(0, value);
}

TEST(unprivileged_counters_tunable)
{
	int old = read_param("unprivileged_counters");

	if (old < 0)
		SKIP(return, "no tunable unprivileged_counters");
	EXPECT_NE(0, write_param_int("unprivileged_counters", -1));
	EXPECT_NE(0, write_param_int("unprivileged_counters", 65));
	EXPECT_EQ(0, write_param_int("unprivileged_counters", 0));
	EXPECT_EQ(0, read_param("unprivileged_counters"));
	EXPECT_EQ(0, write_param_int("unprivileged_counters", old));
}

TEST_HARNESS_MAIN
