// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: the security policy (hwpmc(4) SECURITY CONSIDERATIONS,
 * docs/security.md), run as root in a VM.  Each case forks processes that
 * become other users: a member of group "hwpmc" (uid 1000), another
 * member (uid 1001) and a user outside the group (uid 1002), with or
 * without CAP_PERFMON, CAP_SYS_PTRACE or CAP_SYS_ADMIN, and they open
 * /dev/hwpmc themselves, as group members would.
 *
 * The group and mode of /dev/hwpmc come from the udev rule (security.sh
 * checks that); when udevd did not set them (no udevd in the guest), this
 * program sets them as the rule does and says so.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/perf_event.h>
#include <linux/hwpmc.h>
#include <linux/hwpmclog.h>

#include "kselftest_harness.h"
#include "hwpmc_selftest.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON	38
#endif

/* who a child process becomes */
struct who {
	uid_t uid;
	gid_t gid;
	int member;		/* in group hwpmc */
	int cap;		/* one capability, or -1 */
};

static const struct who MEMBER = { 1000, 1000, 1, -1 };
static const struct who MEMBER2 = { 1001, 1001, 1, -1 };
static const struct who OUTSIDER = { 1002, 1002, 0, -1 };

static struct who with_cap(struct who w, int cap)
{
	w.cap = cap;
	return w;
}

static gid_t hwpmc_gid = (gid_t)-1;

/* Group hwpmc and /dev/hwpmc as the udev rule leaves them; 0 if ready. */
static int setup_device(void)
{
	static int done;

	if (done)
		return 0;
	hwpmc_gid = group_hwpmc();
	if (hwpmc_gid == (gid_t)-1) {
		fprintf(stderr, "# no group hwpmc in /etc/group (DKMS POST_INSTALL or make install-udev creates it)\n");
		return -1;
	}
	if (device_as_udev(hwpmc_gid, 0, 1))
		return -1;
	done = 1;
	return 0;
}

/* In a child: become w (uid, gid, groups, one capability); exits on error. */
static void become(const struct who *w)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = { { 0 } };

	if (setgroups(w->member ? 1 : 0, &hwpmc_gid) ||
	    setresgid(w->gid, w->gid, w->gid) ||
	    prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) ||
	    setresuid(w->uid, w->uid, w->uid))
		_exit(201);
	if (w->cap >= 0) {
		data[w->cap / 32].permitted = 1U << (w->cap % 32);
		data[w->cap / 32].effective = 1U << (w->cap % 32);
		data[w->cap / 32].inheritable = 1U << (w->cap % 32);
	}
	if (syscall(SYS_capset, &hdr, data))
		_exit(202);
	if (w->cap >= 0 &&
	    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, w->cap, 0, 0))
		_exit(203);
	/* as after a login: the uid change made us non-dumpable */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		_exit(204);
}

/* Run fn(arg) in a child as w; fn's return value (an errno, 0..200). */
static int run_as(const struct who *w, int (*fn)(void *), void *arg)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		become(w);
		_exit(fn(arg));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* -- operations ---------------------------------------------------------- */

static int dev_open(void)
{
	return open(DEV, O_RDWR | O_CLOEXEC);
}

static int alloc(int fd, __u32 mode, __u32 cl, __u32 ev, __u32 cpu,
		 __u32 caps, __u32 *id)
{
	return alloc_pmc(fd, mode, cl, ev, cpu, 0, caps, 0, id);
}

static int alloc_tc(int fd, __u32 *id)
{
	return alloc(fd, PMC_MODE_TC, PMC_CLASS_SOFT, EV_SOFT(TASK_CLOCK),
		     PMC_CPU_ANY, 0, id);
}

static int admin(int fd, int state)
{
	struct pmc_op_pmcadmin pa = { .pm_cpu = 0, .pm_pmc = 0,
				      .pm_state = state };

	return xioctl(fd, HWPMC_IOC_PMCADMIN, &pa);
}

/* Does the hardware (PMU class) exist here? */
static int have_pmu(void)
{
	struct pmc_op_getcpuinfo ci;
	int fd = dev_open(), i, n = 0;

	if (fd < 0)
		return 0;
	if (!xioctl(fd, HWPMC_IOC_GETCPUINFO, &ci))
		for (i = 0; i < (int)ci.pm_nclass; i++)
			if (ci.pm_classes[i].pm_class == PMC_CLASS_PMU)
				n = ci.pm_classes[i].pm_num;
	close(fd);
	return n > 0;
}

/* -- target processes ------------------------------------------------------ */

/*
 * A process as w (NULL: as the caller) that waits for a byte on *wfd,
 * then, when path is set, execs it ("hwpmc_spin SECS"), or else spins
 * secs; dumpable or not.  It is all that when this returns.  With exfd,
 * *exfd reads EOF once the process exec'ed (or died).
 */
static pid_t target(const struct who *w, int dumpable, int *wfd, int *exfd,
		    const char *path, double secs)
{
	char arg[32];
	int p[2], x[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	if (pipe2(x, O_CLOEXEC)) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		close(x[0]);
		if (w)
			become(w);
		if (!dumpable && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
			_exit(205);
		if (write(x[1], "r", 1) != 1)		/* ready */
			_exit(207);
		if (read(p[0], &c, 1) != 1)
			_exit(0);
		if (path) {
			snprintf(arg, sizeof(arg), "%.3f", secs);
			execl(path, path, arg, (char *)NULL);
			_exit(206);
		}
		spin(secs);
		_exit(0);
	}
	close(p[0]);
	close(x[1]);
	*wfd = p[1];
	if (read(x[0], &c, 1) != 1) {		/* as w, dumpable or not */
		close(x[0]);
		close(p[1]);
		waitpid(pid, NULL, 0);
		return -1;
	}
	if (exfd)
		*exfd = x[0];
	else
		close(x[0]);
	return pid;
}

static int reap(pid_t pid)
{
	int status;

	kill(pid, SIGKILL);
	return waitpid(pid, &status, 0) == pid ? 0 : -1;
}

/* Let a target go and wait until it exec'ed: 0, or -1. */
static int go_exec(int wfd, int exfd)
{
	char c;
	int n;

	if (write(wfd, "g", 1) != 1)
		return -1;
	do
		n = read(exfd, &c, 1);
	while (n < 0 && errno == EINTR);
	close(exfd);
	return n == 0 ? 0 : -1;
}

/* hwpmc_spin, next to this program */
static char spin_path[300];

/* Copy hwpmc_spin to dir/name with mode and owner root:0, or -1. */
static int spin_copy(const char *dir, const char *name, mode_t mode,
		     char *out, size_t len)
{
	char exe[256], buf[65536];
	ssize_t n, m;
	int in, fd;
	char *slash;

	if (!spin_path[0]) {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n <= 0)
			return -1;
		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (!slash)
			return -1;
		*slash = 0;
		snprintf(spin_path, sizeof(spin_path), "%s/hwpmc_spin", exe);
	}
	snprintf(out, len, "%s/%s", dir, name);
	in = open(spin_path, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700);
	if (fd < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		m = write(fd, buf, n);
		if (m != n)
			break;
	}
	close(in);
	if (close(fd) || n != 0 || chown(out, 0, 0) || chmod(out, mode))
		return -1;
	return 0;
}

static char workdir[] = "/tmp/hwpmc-security.XXXXXX";

static const char *work(void)
{
	static int made;

	if (!made) {
		if (!mkdtemp(workdir) || chmod(workdir, 0755))
			return NULL;
		made = 1;
	}
	return workdir;
}

static void set_suid_dumpable(const char *v)
{
	FILE *f = fopen("/proc/sys/fs/suid_dumpable", "w");

	if (f) {
		fputs(v, f);
		fclose(f);
	}
}

/* -- open ---------------------------------------------------------------- */

static int try_open(void *arg)
{
	int fd = dev_open();

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

TEST(open_member_yes_outsider_eacces)
{
	ASSERT_EQ(0, setup_device());
	EXPECT_EQ(0, run_as(&MEMBER, try_open, NULL));
	EXPECT_EQ(0, run_as(&MEMBER2, try_open, NULL));
	EXPECT_EQ(EACCES, run_as(&OUTSIDER, try_open, NULL));
	/* capabilities do not open a device of mode 0660 either */
	{
		struct who w = with_cap(OUTSIDER, CAP_PERFMON);

		EXPECT_EQ(EACCES, run_as(&w, try_open, NULL));
	}
}

/* -- counting one's own processes ------------------------------------------ */

struct count_arg {
	__u32 cl, ev, caps;
};

/* Count self and a child of ours: returns 0, or what went wrong. */
static int count_own(void *varg)
{
	struct count_arg *a = varg;
	__u32 id, id2;
	int fd = dev_open(), wfd, e;
	pid_t pid;

	if (fd < 0)
		return 100 + (errno & 63);
	e = alloc(fd, PMC_MODE_TC, a->cl, a->ev, PMC_CPU_ANY, a->caps, &id);
	if (e)
		return e;
	pid = target(NULL, 1, &wfd, NULL, NULL, 0.2);
	e = attach(fd, id, pid);
	if (!e)
		e = simple(fd, HWPMC_IOC_PMCSTART, id);
	if (e)
		return e;
	if (write(wfd, "g", 1) != 1 || waitpid(pid, NULL, 0) != pid)
		return 150;
	if (value(fd, id) == 0 || value(fd, id) == ~0ULL)
		return 151;
	/* and itself */
	e = alloc(fd, PMC_MODE_TC, a->cl, a->ev, PMC_CPU_ANY, a->caps, &id2);
	if (!e)
		e = attach(fd, id2, 0);
	if (!e)
		e = simple(fd, HWPMC_IOC_PMCSTART, id2);
	if (e)
		return e;
	spin(0.1);
	if (value(fd, id2) == 0 || value(fd, id2) == ~0ULL)
		return 152;
	close(fd);
	return 0;
}

TEST(member_counts_own_processes_soft)
{
	struct count_arg soft = { PMC_CLASS_SOFT, EV_SOFT(TASK_CLOCK), 0 };

	ASSERT_EQ(0, setup_device());
	EXPECT_EQ(0, run_as(&MEMBER, count_own, &soft));
}

TEST(member_counts_own_processes_pmu_user_mode)
{
	struct count_arg pmu = { PMC_CLASS_PMU, EV_PMU(INSTRUCTIONS),
				 PMC_CAP_USER };

	ASSERT_EQ(0, setup_device());
	if (!have_pmu())
		SKIP(return, "no hardware PMU: user-mode instructions not counted");
	EXPECT_EQ(0, run_as(&MEMBER, count_own, &pmu));
}

/* -- the PERF class: tracepoints, other perf PMUs ------------------------- */

struct perf_arg {
	__u32 mode, cpu, type;
	__u64 config;
};

/* Allocate a PERF-class PMC of a; count the caller itself if that works. */
static int perf_own(void *varg)
{
	struct perf_arg *a = varg;
	struct pmc_op_pmcallocate pa = {
		.pm_mode = a->mode, .pm_class = PMC_CLASS_PERF,
		.pm_ev = PMC_EV_PERF, .pm_cpu = a->cpu,
	};
	int fd = dev_open(), e, i;
	__u32 id;

	if (fd < 0)
		return 100 + (errno & 63);
	if (PMC_IS_SYSTEM_MODE(a->mode)) {	/* run where it counts */
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(a->cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			return 154;
	}
	pa.pm_md.pm_pmu.pm_type = a->type;
	pa.pm_md.pm_pmu.pm_config = a->config;
	e = pmcallocate(fd, &pa, &id);
	if (!e && !PMC_IS_SYSTEM_MODE(a->mode))
		e = attach(fd, id, 0);
	if (!e)
		e = simple(fd, HWPMC_IOC_PMCSTART, id);
	if (e)
		return e;
	for (i = 0; i < 10; i++)
		syscall(SYS_getppid);
	if (value(fd, id) < (a->type == PERF_TYPE_TRACEPOINT ? 10 : 1))
		return 153;
	close(fd);
	return 0;
}

/* The id of syscalls:sys_enter_getppid from tracefs (mounted), or -1. */
static int getppid_tp(void)
{
	static const char *const p[] = {
		"/sys/kernel/tracing/events/syscalls/sys_enter_getppid/id",
		"/sys/kernel/debug/tracing/events/syscalls/sys_enter_getppid/id",
	};
	int id = read_int_path(p[0]);

	if (id < 0)
		id = read_int_path(p[1]);
	if (id < 0 && !mount("nodev", "/sys/kernel/tracing", "tracefs", 0,
			     NULL))
		id = read_int_path(p[0]);
	return id;
}

/*
 * Tracepoints and other perf PMUs count kernel mode: a member needs
 * unprivileged_kernel=1 for its own processes, and CAP_PERFMON (or
 * unprivileged_syspmcs=1) besides for system scope, as for PMU events.
 */
TEST(member_perf_class_rules)
{
	int tp = getppid_tp(), msr;
	struct perf_arg a = { PMC_MODE_TC, PMC_CPU_ANY, PERF_TYPE_TRACEPOINT,
			      (__u64)tp };
	struct perf_arg s = a;
	struct who perfmon = with_cap(MEMBER, CAP_PERFMON);

	ASSERT_EQ(0, setup_device());
	if (tp < 0)
		SKIP(return, "no tracefs or no syscalls:sys_enter_getppid");
	s.mode = PMC_MODE_SC;
	s.cpu = 0;
	write_param("unprivileged_kernel", "0");
	EXPECT_EQ(EPERM, run_as(&MEMBER, perf_own, &a));
	EXPECT_EQ(EPERM, run_as(&MEMBER, perf_own, &s));
	EXPECT_EQ(0, run_as(&perfmon, perf_own, &a));
	EXPECT_EQ(0, run_as(&perfmon, perf_own, &s));
	write_param("unprivileged_kernel", "1");
	EXPECT_EQ(0, run_as(&MEMBER, perf_own, &a));
	EXPECT_EQ(EPERM, run_as(&MEMBER, perf_own, &s));
	write_param("unprivileged_kernel", "0");
	msr = read_int_path("/sys/bus/event_source/devices/msr/type");
	if (msr < 0)
		SKIP(return, "no msr PMU: its rules not tried");
	a.type = s.type = (__u32)msr;
	a.config = s.config = 0;	/* msr/tsc/ */
	EXPECT_EQ(EPERM, run_as(&MEMBER, perf_own, &a));
	EXPECT_EQ(EPERM, run_as(&MEMBER, perf_own, &s));
	EXPECT_EQ(0, run_as(&perfmon, perf_own, &s));
}

/* -- attach: others' processes -------------------------------------------- */

static int attach_pid(void *arg)
{
	__u32 id;
	int fd = dev_open(), e;

	if (fd < 0)
		return 100 + (errno & 63);
	e = alloc_tc(fd, &id);
	if (!e)
		e = attach(fd, id, (pid_t)(long)arg);
	close(fd);
	return e;
}

TEST(member_attach_others_is_eperm)
{
	struct who ptracer = with_cap(MEMBER, CAP_SYS_PTRACE);
	struct who perfmon = with_cap(MEMBER, CAP_PERFMON);
	pid_t other, mine, undumpable;
	int w1, w2, w3;

	ASSERT_EQ(0, setup_device());
	/* init, and a root process (this one) */
	EXPECT_EQ(EPERM, run_as(&MEMBER, attach_pid, (void *)1L));
	EXPECT_EQ(EPERM, run_as(&MEMBER, attach_pid, (void *)(long)getpid()));

	/* another user's process, which that user may attach to */
	other = target(&MEMBER2, 1, &w1, NULL, NULL, 0);
	ASSERT_LT(0, other);
	EXPECT_EQ(EPERM, run_as(&MEMBER, attach_pid, (void *)(long)other));
	EXPECT_EQ(0, run_as(&MEMBER2, attach_pid, (void *)(long)other));
	/* CAP_SYS_PTRACE may; CAP_PERFMON alone may not */
	EXPECT_EQ(0, run_as(&ptracer, attach_pid, (void *)(long)other));
	EXPECT_EQ(EPERM, run_as(&perfmon, attach_pid, (void *)(long)other));
	/* unprivileged_proc_debug=0: not even one's own other processes */
	mine = target(&MEMBER, 1, &w2, NULL, NULL, 0);
	ASSERT_LT(0, mine);
	EXPECT_EQ(0, run_as(&MEMBER, attach_pid, (void *)(long)mine));
	write_param("unprivileged_proc_debug", "0");
	EXPECT_EQ(EPERM, run_as(&MEMBER, attach_pid, (void *)(long)mine));
	EXPECT_EQ(0, run_as(&ptracer, attach_pid, (void *)(long)other));
	write_param("unprivileged_proc_debug", "1");

	/* one's own process made non-dumpable */
	undumpable = target(&MEMBER, 0, &w3, NULL, NULL, 0);
	ASSERT_LT(0, undumpable);
	EXPECT_EQ(EPERM, run_as(&MEMBER, attach_pid,
				(void *)(long)undumpable));
	EXPECT_EQ(0, run_as(&ptracer, attach_pid, (void *)(long)undumpable));
	EXPECT_EQ(0, attach_pid((void *)(long)undumpable));	/* root */

	reap(other);
	reap(mine);
	reap(undumpable);
	close(w1);
	close(w2);
	close(w3);
}

/*
 * A process of the member running a set-user-ID, set-group-ID or
 * file-capability program: EPERM; the same program without the bits: 0.
 */
TEST(member_attach_setid_process_is_eperm)
{
	static const struct {
		const char *name;
		mode_t mode;
		int fcaps;
		int expect;
	} progs[] = {
		{ "plain", 0755, 0, 0 },
		{ "setuid", 04755, 0, EPERM },
		{ "setgid", 02755, 0, EPERM },
		{ "fcaps", 0755, 1, EPERM },
	};
#define NPROGS	(sizeof(progs) / sizeof(progs[0]))
	char path[300];
	unsigned int i, sd, n;
	pid_t pid;
	int wfd, exfd;

	ASSERT_EQ(0, setup_device());
	ASSERT_NE(NULL, work());
	for (n = 0; n < 2 * NPROGS; n++) {
		sd = n / NPROGS;
		i = n % NPROGS;
		set_suid_dumpable(sd ? "1" : "0");
		ASSERT_EQ(0, spin_copy(workdir, progs[i].name, progs[i].mode,
				       path, sizeof(path)));
		if (progs[i].fcaps) {
			struct vfs_cap_data cd = {
				.magic_etc = VFS_CAP_REVISION_2 |
					     VFS_CAP_FLAGS_EFFECTIVE,
			};

			cd.data[CAP_PERFMON / 32].permitted =
				1U << (CAP_PERFMON % 32);
			ASSERT_EQ(0, setxattr(path, "security.capability",
					      &cd, sizeof(cd), 0));
		}
		pid = target(&MEMBER, 1, &wfd, &exfd, path, 30);
		ASSERT_LT(0, pid);
		ASSERT_EQ(0, go_exec(wfd, exfd));
		EXPECT_EQ(progs[i].expect,
			  run_as(&MEMBER, attach_pid, (void *)(long)pid)) {
			TH_LOG("suid_dumpable=%u, %s program", sd, progs[i].name);
		}
		reap(pid);
		close(wfd);
	}
	set_suid_dumpable("0");
}

/*
 * The capability half of ptrace's rule (commoncap): a process of the
 * member's own uid that holds capabilities the member lacks (ambient
 * ones, kept across the uid change), or the member attaching from
 * another user namespace: EPERM.  The member's own process in a user
 * namespace it created stays the member's (it owns that namespace).
 */
static int attach_pid_in_userns(void *arg)
{
	__u32 id;
	int fd = dev_open(), e;

	if (fd < 0)
		return 100 + (errno & 63);
	e = alloc_tc(fd, &id);
	if (e)
		return e;
	if (unshare(CLONE_NEWUSER))
		return 199;		/* no unprivileged user namespaces */
	e = attach(fd, id, (pid_t)(long)arg);
	close(fd);
	return e;
}

TEST(member_attach_capabilities_and_userns_is_eperm)
{
	struct who perfmon = with_cap(MEMBER, CAP_PERFMON);
	pid_t capped, mine;
	int w1, w2, e;

	ASSERT_EQ(0, setup_device());
	/* same uid, dumpable, but CAP_PERFMON in its permitted set */
	capped = target(&perfmon, 1, &w1, NULL, NULL, 0);
	ASSERT_LT(0, capped);
	EXPECT_EQ(EPERM, run_as(&MEMBER, attach_pid, (void *)(long)capped));
	/* the same capability: a subset, allowed */
	EXPECT_EQ(0, run_as(&perfmon, attach_pid, (void *)(long)capped));
	reap(capped);
	close(w1);

	/* from a user namespace of its own to its host process */
	mine = target(&MEMBER, 1, &w2, NULL, NULL, 0);
	ASSERT_LT(0, mine);
	EXPECT_EQ(0, run_as(&MEMBER, attach_pid, (void *)(long)mine));
	e = run_as(&MEMBER, attach_pid_in_userns, (void *)(long)mine);
	reap(mine);
	close(w2);
	if (e == 199)
		SKIP(return, "unshare(CLONE_NEWUSER) refused to the member");
	EXPECT_EQ(EPERM, e);
}

/* A member's process that went into a user namespace of its own: 0. */
static int userns_child(void *arg)
{
	int *p = arg;
	char c;

	if (unshare(CLONE_NEWUSER))
		_exit(199);
	if (write(p[1], "r", 1) != 1 || read(p[0], &c, 1) < 0)
		_exit(198);
	return 0;
}

TEST(member_attach_own_process_in_userns)
{
	int go[2], rdy[2], p[2], status;
	pid_t pid;
	char c;

	ASSERT_EQ(0, setup_device());
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(rdy));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		become(&MEMBER);
		close(go[1]);
		close(rdy[0]);
		p[0] = go[0];
		p[1] = rdy[1];
		_exit(userns_child(p));
	}
	close(go[0]);
	close(rdy[1]);
	if (read(rdy[0], &c, 1) != 1) {
		waitpid(pid, &status, 0);
		SKIP(return, "unshare(CLONE_NEWUSER) refused to the member");
	}
	/* the member owns the namespace: CAP_SYS_PTRACE in it */
	EXPECT_EQ(0, run_as(&MEMBER, attach_pid, (void *)(long)pid));
	EXPECT_EQ(EPERM, run_as(&MEMBER2, attach_pid, (void *)(long)pid));
	close(go[1]);
	waitpid(pid, &status, 0);
	close(rdy[0]);
}

/* Has process pid a zombie leader (state Z in /proc/pid/stat)? */
static int leader_zombie(pid_t pid)
{
	char path[64], buf[256], *rp;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	rp = strrchr(buf, ')');
	return rp && rp[1] == ' ' && rp[2] == 'Z';
}

static void *spin_thread(void *arg)
{
	spin(30);
	return NULL;
}

/* Thread-leader credentials only: "drop" puts the leader's to the member's. */
static void *drop_thread(void *arg)
{
	int *go = arg;
	char c;

	if (read(go[0], &c, 1) < 0)
		return NULL;
	spin(30);
	return NULL;
}

/*
 * Credentials are per thread on Linux, and the leader may be a zombie
 * (pthread_exit() from main): the rule looks at every thread, and at
 * the mm of a live one.
 *  - a member's process whose leader exited: the member may attach;
 *  - a process whose leader has the member's credentials (raw
 *    setresuid(), for that thread only) and another thread root's: EPERM.
 */
TEST(member_attach_threads_creds)
{
	int rdy[2], go[2], status;
	pthread_t th;
	pid_t pid;
	char c;
	int i;

	ASSERT_EQ(0, setup_device());
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		become(&MEMBER);
		if (pthread_create(&th, NULL, spin_thread, NULL))
			_exit(1);
		pthread_exit(NULL);
	}
	for (i = 0; i < 200 && !leader_zombie(pid); i++)
		usleep(10000);
	ASSERT_TRUE(leader_zombie(pid));
	EXPECT_EQ(0, run_as(&MEMBER, attach_pid, (void *)(long)pid))
		TH_LOG("zombie leader");
	reap(pid);

	ASSERT_EQ(0, pipe(rdy));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* a thread that stays root, then the leader alone drops */
		if (pthread_create(&th, NULL, drop_thread, go))
			_exit(1);
		if (syscall(SYS_setgroups, 1, &hwpmc_gid) ||
		    syscall(SYS_setresgid, MEMBER.gid, MEMBER.gid, MEMBER.gid) ||
		    syscall(SYS_setresuid, MEMBER.uid, MEMBER.uid, MEMBER.uid) ||
		    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
			_exit(2);
		if (write(rdy[1], "r", 1) != 1)
			_exit(3);
		spin(30);
		_exit(0);
	}
	ASSERT_EQ(1, read(rdy[0], &c, 1));
	EXPECT_EQ(EPERM, run_as(&MEMBER, attach_pid, (void *)(long)pid))
		TH_LOG("a thread with root's credentials");
	close(go[1]);
	reap(pid);
	waitpid(pid, &status, WNOHANG);
	close(go[0]);
	close(rdy[0]);
	close(rdy[1]);
}

/*
 * H2: attach and CONFIGURELOG race the member's own child exec'ing a
 * set-user-ID root program.  First, with the log open, another thread
 * attaches a sampling PMC to the child, and a PMC_F_DESCENDANTS one to
 * the member itself (so to the child too), in a loop while the child
 * execs.  Then the member attaches a sampling and a counting PMC to the
 * child before the exec (allowed) and, from other threads, attaches
 * another sampling PMC and configures and closes its log in a loop
 * while the child execs.  No PMCATTACH or MAP_IN record
 * naming the set-user-ID program may reach the member's log: the
 * address-space layout of a set-ID program is not the member's to see.
 */
struct race {
	int fd, logfd;
	__u32 ts, ts2, tc, tsd;	/* tsd: DESCENDANTS, attached to itself */
	volatile pid_t pid;	/* this round's child, after its "go" */
	volatile int stop;
	unsigned long attached, refused, logs;
};

static void *race_attach(void *arg)
{
	struct race *r = arg;
	pid_t pid;
	int e;

	while (!r->stop) {
		pid = r->pid;
		if (!pid)
			continue;
		e = attach(r->fd, r->ts2, pid);
		if (!e)
			r->attached++;
		else if (e == EPERM)
			r->refused++;
		if (e == EINTR || e == EBUSY)
			continue;
		/* and through a DESCENDANTS attach to itself */
		while (r->pid == pid && !r->stop)
			if (r->tsd && !attach(r->fd, r->tsd, 0))
				detach(r->fd, r->tsd, 0);
	}
	return NULL;
}

static void *race_log(void *arg)
{
	struct pmc_op_configurelog cl = { .pm_logfd = 0 };
	struct race *r = arg;

	cl.pm_logfd = r->logfd;
	while (!r->stop)
		if (!xioctl(r->fd, HWPMC_IOC_CONFIGURELOG, &cl)) {
			r->logs++;
			xioctl(r->fd, HWPMC_IOC_CLOSELOG, NULL);
		}
	return NULL;
}

/* Records naming name: PMCATTACH, MAP_IN; *n: records read. */
static int race_leaks(const char *logpath, const char *name, int *n)
{
	struct pmclog_header *h;
	static char buf[64 << 20];
	size_t len = 0, off = 0;
	ssize_t m;
	int fd, leaks = 0;
	__u32 l, t;
	const char *path;

	*n = 0;
	fd = open(logpath, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (len < sizeof(buf) &&
	       (m = read(fd, buf + len, sizeof(buf) - len)) > 0)
		len += m;
	close(fd);
	while (off + sizeof(*h) <= len) {
		h = (struct pmclog_header *)(buf + off);
		l = PMCLOG_HEADER_TO_LENGTH(h->pl_header);
		t = PMCLOG_HEADER_TO_TYPE(h->pl_header);
		if (PMCLOG_HEADER_TO_MAGIC(h->pl_header) != PMCLOG_HEADER_MAGIC ||
		    l < sizeof(*h) || off + l > len)
			return -1;
		path = NULL;
		if (t == PMCLOG_TYPE_PMCATTACH)
			path = ((struct pmclog_pmcattach *)h)->pl_pathname;
		else if (t == PMCLOG_TYPE_MAP_IN)
			path = ((struct pmclog_map_in *)h)->pl_pathname;
		if (path && memchr(path, 0, buf + off + l - path) &&
		    strstr(path, name)) {
			if (leaks < 5)
				printf("# leak: %s record of %s\n",
				       t == PMCLOG_TYPE_MAP_IN ? "MAP_IN" :
				       "PMCATTACH", path);
			leaks++;
		}
		off += l;
		(*n)++;
	}
	return leaks;
}

struct race_arg {
	const char *suid;
	int configurelog;	/* else: attach only, the log open throughout */
	double secs;
};

static int race_exec(void *arg)
{
	struct pmc_op_configurelog cl = { .pm_logfd = 0 };
	const struct race_arg *a = arg;
	char logpath[300];
	struct race r = { 0 };
	pthread_t ta, tl;
	int wfd, exfd, e, rounds = 0, leaks, nrec;
	double end = now() + a->secs;
	pid_t pid;
	char c;
	int n;

	snprintf(logpath, sizeof(logpath), "/tmp/hwpmc-race-%d.log", getpid());
	r.fd = dev_open();
	r.logfd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND |
		       O_CLOEXEC, 0600);
	if (r.fd < 0 || r.logfd < 0)
		return 100 + (errno & 63);
	e = alloc(r.fd, PMC_MODE_TS, PMC_CLASS_SOFT, EV_SOFT(TASK_CLOCK),
		  PMC_CPU_ANY, PMC_CAP_USER, &r.ts);
	if (!e)
		e = alloc(r.fd, PMC_MODE_TS, PMC_CLASS_SOFT,
			  EV_SOFT(CPU_CLOCK), PMC_CPU_ANY, PMC_CAP_USER, &r.ts2);
	if (!e)
		e = alloc_tc(r.fd, &r.tc);
	if (!e && !a->configurelog) {
		struct pmc_op_pmcallocate pa = {
			.pm_mode = PMC_MODE_TS, .pm_class = PMC_CLASS_SOFT,
			.pm_ev = EV_SOFT(PAGE_FAULTS), .pm_cpu = PMC_CPU_ANY,
			.pm_caps = PMC_CAP_USER, .pm_flags = PMC_F_DESCENDANTS,
		};

		e = xioctl(r.fd, HWPMC_IOC_PMCALLOCATE, &pa);
		r.tsd = pa.pm_pmcid;
	}
	cl.pm_logfd = r.logfd;
	if (!e && !a->configurelog)
		e = xioctl(r.fd, HWPMC_IOC_CONFIGURELOG, &cl);
	if (e)
		return e;
	if (pthread_create(&ta, NULL, race_attach, &r) ||
	    (a->configurelog && pthread_create(&tl, NULL, race_log, &r)))
		return 160;
	while (now() < end && rounds < 5000) {
		pid = target(NULL, 1, &wfd, &exfd, a->suid, 0.001);
		if (pid < 0) {
			e = 161;
			break;
		}
		rounds++;
		if (a->configurelog) {
			attach(r.fd, r.ts, pid);
			attach(r.fd, r.tc, pid);
		}
		if (write(wfd, "g", 1) != 1)
			e = 162;
		r.pid = pid;
		do
			n = read(exfd, &c, 1);
		while (n < 0 && errno == EINTR);
		close(exfd);
		close(wfd);
		waitpid(pid, NULL, 0);
		r.pid = 0;
		detach(r.fd, r.ts, pid);
		detach(r.fd, r.ts2, pid);
		detach(r.fd, r.tc, pid);
	}
	r.stop = 1;
	pthread_join(ta, NULL);
	if (a->configurelog)
		pthread_join(tl, NULL);
	close(r.fd);			/* closes a log left open */
	close(r.logfd);
	leaks = race_leaks(logpath, strrchr(a->suid, '/'), &nrec);
	printf("# %s: %d rounds, attach after go %lu (EPERM %lu), %lu logs, %d records, %d leaks\n",
	       a->configurelog ? "attach, CONFIGURELOG" : "attach",
	       rounds, r.attached, r.refused, r.logs, nrec, leaks);
	unlink(logpath);
	if (e)
		return e;
	if (leaks < 0)
		return 163;
	return leaks ? 164 : 0;
}

TEST(member_attach_configurelog_race_setuid_exec)
{
	char suid[300];

	ASSERT_EQ(0, setup_device());
	ASSERT_NE(NULL, work());
	ASSERT_EQ(0, spin_copy(workdir, "race-setuid", 04755, suid,
			       sizeof(suid)));
	set_suid_dumpable("0");
	{
		struct race_arg a = { suid, 0, 6 }, b = { suid, 1, 6 };

		EXPECT_EQ(0, run_as(&MEMBER, race_exec, &a))
			TH_LOG("PMCATTACH racing the exec");
		EXPECT_EQ(0, run_as(&MEMBER, race_exec, &b))
			TH_LOG("CONFIGURELOG racing the exec");
	}
}

/*
 * A target of the member's PMC execs a program: set-user-ID root takes it
 * away from the member (FreeBSD's exec rule: the owner could no longer
 * attach), whether or not the kernel keeps it dumpable (suid_dumpable 1
 * does); a plain program leaves it attached.
 */
static int exec_keeps(void *arg)
{
	const char *path = arg;
	__u32 id;
	pid_t pid;
	int fd = dev_open(), wfd, exfd, e, i;

	if (fd < 0)
		return 100 + (errno & 63);
	pid = target(NULL, 1, &wfd, &exfd, path, 30);
	if (pid < 0)
		return 150;
	e = alloc_tc(fd, &id);
	if (!e)
		e = attach(fd, id, pid);
	if (!e)
		e = simple(fd, HWPMC_IOC_PMCSTART, id);
	if (e) {
		reap(pid);
		return 151;
	}
	if (go_exec(wfd, exfd))
		e = 152;
	/* the exec is handled in a work item: give it a second */
	for (i = 0; !e && i < 10; i++)
		usleep(100000);
	if (!e)
		e = detach(fd, id, pid);	/* ESRCH: no longer a target */
	reap(pid);
	close(wfd);
	close(fd);
	return e;
}

TEST(exec_of_setuid_program_detaches)
{
	char plain[300], suid[300];
	unsigned int sd;

	ASSERT_EQ(0, setup_device());
	ASSERT_NE(NULL, work());
	ASSERT_EQ(0, spin_copy(workdir, "x-plain", 0755, plain,
			       sizeof(plain)));
	ASSERT_EQ(0, spin_copy(workdir, "x-setuid", 04755, suid,
			       sizeof(suid)));
	for (sd = 0; sd < 2; sd++) {
		set_suid_dumpable(sd ? "1" : "0");
		EXPECT_EQ(0, run_as(&MEMBER, exec_keeps, plain))
			TH_LOG("suid_dumpable=%u, plain program", sd);
		EXPECT_EQ(ESRCH, run_as(&MEMBER, exec_keeps, suid))
			TH_LOG("suid_dumpable=%u, set-user-ID program", sd);
	}
	set_suid_dumpable("0");
}

/*
 * Root's PMC on a member's process that execs a program the member may
 * not watch (set-user-ID root, suid_dumpable 0): root may keep it as a
 * target, but nothing is counted in it from the exec on, as the kernel
 * ends a thread's perf counters there; after a plain program it counts on.
 */
TEST(exec_of_setuid_program_counts_nothing_more)
{
	char plain[300], suid[300];
	const char *paths[2] = { plain, suid };
	__u64 v1, v2;
	__u32 id;
	int fd, wfd, exfd, i;
	pid_t pid;

	ASSERT_EQ(0, setup_device());
	ASSERT_NE(NULL, work());
	ASSERT_EQ(0, spin_copy(workdir, "y-plain", 0755, plain,
			       sizeof(plain)));
	ASSERT_EQ(0, spin_copy(workdir, "y-setuid", 04755, suid,
			       sizeof(suid)));
	set_suid_dumpable("0");
	for (i = 0; i < 2; i++) {
		fd = dev_open();
		ASSERT_LE(0, fd);
		pid = target(&MEMBER, 1, &wfd, &exfd, paths[i], 30);
		ASSERT_LT(0, pid);
		ASSERT_EQ(0, alloc_tc(fd, &id));
		ASSERT_EQ(0, attach(fd, id, pid));
		ASSERT_EQ(0, simple(fd, HWPMC_IOC_PMCSTART, id));
		ASSERT_EQ(0, go_exec(wfd, exfd));
		usleep(500000);		/* the exec's work item too */
		v1 = value(fd, id);
		usleep(300000);
		v2 = value(fd, id);
		TH_LOG("%s program: task-clock %llu ms, 300 ms later %llu ms",
		       i ? "set-user-ID" : "plain",
		       (unsigned long long)v1 / 1000000,
		       (unsigned long long)v2 / 1000000);
		if (i) {
			EXPECT_EQ(v1, v2);
		} else {
			EXPECT_LT(v1 + 100000000, v2);
		}
		EXPECT_EQ(0, detach(fd, id, pid));	/* root keeps it */
		reap(pid);
		close(wfd);
		close(fd);
	}
}


/*
 * A member counts its process and its descendants (PMC_F_DESCENDANTS); a
 * child born after the attach, so not a target, execs a program:
 * returns the task-clock counted, in ms, or a negative error.
 */
static int descendant_exec(void *arg)
{
	struct pmc_op_pmcallocate pa = {
		.pm_mode = PMC_MODE_TC, .pm_class = PMC_CLASS_SOFT,
		.pm_ev = EV_SOFT(TASK_CLOCK), .pm_cpu = PMC_CPU_ANY,
		.pm_flags = PMC_F_DESCENDANTS,
	};
	int fd = dev_open(), wfd, exfd;
	pid_t pid;

	if (fd < 0 || xioctl(fd, HWPMC_IOC_PMCALLOCATE, &pa) ||
	    attach(fd, pa.pm_pmcid, 0) ||
	    simple(fd, HWPMC_IOC_PMCSTART, pa.pm_pmcid))
		return 1;
	pid = target(NULL, 1, &wfd, &exfd, arg, 1.0);
	if (pid < 0 || go_exec(wfd, exfd) || waitpid(pid, NULL, 0) != pid)
		return 2;
	close(wfd);
	return 100 + (int)(value(fd, pa.pm_pmcid) / 20000000);	/* 20 ms */
}

/*
 * With suid_dumpable=1 the kernel keeps a set-user-ID program dumpable
 * (and its perf counters); a descendant counted through
 * PMC_F_DESCENDANTS, which is no target and so not re-checked, stops
 * being counted at such an exec all the same (its AT_SECURE).
 */
TEST(descendant_exec_of_setuid_program_counts_nothing_more)
{
	char plain[300], suid[300];
	int vp, vs;

	ASSERT_EQ(0, setup_device());
	ASSERT_NE(NULL, work());
	ASSERT_EQ(0, spin_copy(workdir, "d-plain", 0755, plain,
			       sizeof(plain)));
	ASSERT_EQ(0, spin_copy(workdir, "d-setuid", 04755, suid,
			       sizeof(suid)));
	set_suid_dumpable("1");
	vp = run_as(&MEMBER, descendant_exec, plain) - 100;
	TH_LOG("plain program: %d ms", 20 * vp);
	EXPECT_LE(40, vp);		/* its 1 s, at least 0.8 */
	vs = run_as(&MEMBER, descendant_exec, suid) - 100;
	TH_LOG("set-user-ID program, suid_dumpable=1: %d ms", 20 * vs);
	/* the owner's own time and the exec's, not the program's spin */
	EXPECT_LE(0, vs);
	EXPECT_GT(vp, 4 * vs);
	set_suid_dumpable("0");
}
/* -- system scope, kernel mode, PMCADMIN ----------------------------------- */

static int sys_alloc(void *arg)
{
	int fd = dev_open(), e;

	if (fd < 0)
		return 100 + (errno & 63);
	e = alloc(fd, PMC_MODE_SC, PMC_CLASS_SOFT, EV_SOFT(CPU_CLOCK), 0, 0,
		  NULL);
	close(fd);
	return e;
}

TEST(member_system_scope_needs_perfmon_or_tunable)
{
	struct who perfmon = with_cap(MEMBER, CAP_PERFMON);
	struct who admin_ = with_cap(MEMBER, CAP_SYS_ADMIN);

	ASSERT_EQ(0, setup_device());
	EXPECT_EQ(EPERM, run_as(&MEMBER, sys_alloc, NULL));
	EXPECT_EQ(0, run_as(&perfmon, sys_alloc, NULL));
	EXPECT_EQ(0, run_as(&admin_, sys_alloc, NULL));
	write_param("unprivileged_syspmcs", "1");
	EXPECT_EQ(0, run_as(&MEMBER, sys_alloc, NULL));
	write_param("unprivileged_syspmcs", "0");
	EXPECT_EQ(EPERM, run_as(&MEMBER, sys_alloc, NULL));
	EXPECT_EQ(0, sys_alloc(NULL));			/* root */
}

/* an SS PMC with a copy of the user stack of every sampled thread */
static int sys_stack_alloc(void *arg)
{
	struct pmc_op_pmcallocate pa = {
		.pm_mode = PMC_MODE_SS, .pm_class = PMC_CLASS_SOFT,
		.pm_ev = EV_SOFT(CPU_CLOCK), .pm_cpu = 0,
		.pm_caps = PMC_CAP_USER, .pm_count = 1000000,
		.pm_flags = PMC_F_CALLCHAIN | PMC_F_USERSTACK,
		.pm_stacksize = 1024,
	};
	int fd = dev_open(), e;

	if (fd < 0)
		return 100 + (errno & 63);
	e = pmcallocate(fd, &pa, NULL);
	close(fd);
	return e;
}

/*
 * PMC_F_USERSTACK in a system mode logs the stack bytes of every user's
 * threads (secrets, not only return addresses): CAP_PERFMON only, the
 * unprivileged_syspmcs tunable notwithstanding.
 */
TEST(member_system_user_stacks_need_perfmon)
{
	struct who perfmon = with_cap(MEMBER, CAP_PERFMON);

	ASSERT_EQ(0, setup_device());
	write_param("unprivileged_syspmcs", "1");
	EXPECT_EQ(0, run_as(&MEMBER, sys_alloc, NULL));
	EXPECT_EQ(EPERM, run_as(&MEMBER, sys_stack_alloc, NULL));
	EXPECT_EQ(0, run_as(&perfmon, sys_stack_alloc, NULL));
	write_param("unprivileged_syspmcs", "0");
	EXPECT_EQ(EPERM, run_as(&MEMBER, sys_stack_alloc, NULL));
	EXPECT_EQ(0, sys_stack_alloc(NULL));		/* root */
}

/* 0, or -1: v not written to the file at path */
static int write_path(const char *path, const char *v)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = fputs(v, f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/*
 * A system sampler's log, written by the caller to a file of its own:
 * how many MAP_IN records of pid -1 (the kernel and its modules) it
 * has, at most 150; 200 + errno, or 250..253, on failure.
 */
static int kmaps_count(void *arg)
{
	static char buf[16 << 20];
	struct pmclog_map_in *mi;
	struct pmclog_header *h;
	int fd = dev_open(), f, n = 0;
	size_t len = 0, off = 0;
	char path[64];
	ssize_t m;
	__u32 id;

	snprintf(path, sizeof(path), "/tmp/hwpmc-kmaps.%d", (int)getpid());
	f = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || f < 0)
		return 200 + (errno & 31);
	if (configure(fd, f) ||
	    alloc(fd, PMC_MODE_SS, PMC_CLASS_SOFT, EV_SOFT(CPU_CLOCK), 0,
		  PMC_CAP_USER, &id) ||
	    simple(fd, HWPMC_IOC_PMCSTART, id))
		return 200 + (errno & 31);
	usleep(20000);
	if (simple(fd, HWPMC_IOC_PMCSTOP, id) ||
	    xioctl(fd, HWPMC_IOC_CLOSELOG, NULL))
		return 250;
	if (lseek(f, 0, SEEK_SET))
		return 251;
	while (len < sizeof(buf) && (m = read(f, buf + len, sizeof(buf) - len)) > 0)
		len += m;
	close(f);
	close(fd);
	unlink(path);
	while (off + sizeof(*h) <= len) {
		h = (struct pmclog_header *)(buf + off);
		if (PMCLOG_HEADER_TO_MAGIC(h->pl_header) != PMCLOG_HEADER_MAGIC ||
		    PMCLOG_HEADER_TO_LENGTH(h->pl_header) < sizeof(*h))
			return 252;
		mi = (struct pmclog_map_in *)h;
		if (PMCLOG_HEADER_TO_TYPE(h->pl_header) == PMCLOG_TYPE_MAP_IN &&
		    mi->pl_pid == -1)
			n++;
		off += PMCLOG_HEADER_TO_LENGTH(h->pl_header);
	}
	if (off != len)
		return 253;
	return n < 150 ? n : 150;
}

/*
 * MAP_IN of the kernel and its modules (pid -1, kernel addresses) goes
 * to a system sampler's log only where /proc/kallsyms would show the
 * owner kernel addresses: kptr_restrict 0: CAP_SYSLOG or CAP_PERFMON;
 * 1: CAP_SYSLOG; 2: nobody.  A member of group hwpmc (with the
 * unprivileged_syspmcs tunable) gets none.
 */
TEST(kernel_maps_only_to_who_may_see_kernel_addresses)
{
	struct who perfmon = with_cap(MEMBER, CAP_PERFMON);
	struct who syslog_ = with_cap(MEMBER, CAP_SYSLOG);
	int kptr = read_int_path("/proc/sys/kernel/kptr_restrict");
	int k, n;
	char v[2] = "0";

	ASSERT_EQ(0, setup_device());
	ASSERT_LE(0, kptr);
	write_param("unprivileged_syspmcs", "1");
	for (k = 0; k <= 2; k++) {
		v[0] = (char)('0' + k);
		ASSERT_EQ(0, write_path("/proc/sys/kernel/kptr_restrict", v));
		n = run_as(&MEMBER, kmaps_count, NULL);
		EXPECT_EQ(0, n) TH_LOG("kptr_restrict %d: a member", k);
		n = run_as(&perfmon, kmaps_count, NULL);
		if (k == 0) {
			EXPECT_LT(0, n) TH_LOG("kptr_restrict 0: CAP_PERFMON");
		} else {
			EXPECT_EQ(0, n) TH_LOG("kptr_restrict %d: CAP_PERFMON", k);
		}
		n = run_as(&syslog_, kmaps_count, NULL);
		if (k < 2) {
			EXPECT_LT(0, n) TH_LOG("kptr_restrict %d: CAP_SYSLOG", k);
		} else {
			EXPECT_EQ(0, n) TH_LOG("kptr_restrict 2: CAP_SYSLOG");
		}
		n = kmaps_count(NULL);			/* root */
		if (k < 2) {
			/* hwpmc: where it found the list of modules */
			EXPECT_LT(kallsyms_names_modules_list(), n)
				TH_LOG("kptr_restrict %d: root: the kernel and hwpmc at least (%d)",
				       k, n);
		} else {
			EXPECT_EQ(0, n) TH_LOG("kptr_restrict 2: root");
		}
	}
	v[0] = (char)('0' + kptr);
	write_path("/proc/sys/kernel/kptr_restrict", v);
	write_param("unprivileged_syspmcs", "0");
}

/*
 * CONFIGURELOG to /dev/null with flags arg, by a new owner: 0 or the
 * errno; 100 + errno when /dev/hwpmc or /dev/null cannot be opened.
 */
static int kprof_configure(void *arg)
{
	struct pmc_op_configurelog cl = { .pm_flags = (__u32)(long)arg };
	int fd = dev_open(), e;

	cl.pm_logfd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || cl.pm_logfd < 0)
		return 100 + (errno & 63);
	e = xioctl(fd, HWPMC_IOC_CONFIGURELOG, &cl);
	close(cl.pm_logfd);
	close(fd);
	return e;
}

/*
 * The kernel's profiles (pmc(9)'s pmc_start_profiling(): kernel
 * addresses, and the user call chains of any process) go to a log only
 * where a system-wide kernel sampler may run (CAP_PERFMON) and
 * /proc/kallsyms would show its owner kernel addresses (kptr_restrict 1:
 * CAP_SYSLOG too; 2: nobody), one log at a time; a member gets EPERM,
 * and a plain log all the same.  EPERM comes before EBUSY.
 */
TEST(kernel_profiles_only_to_who_may_see_kernel_addresses)
{
	struct who perfmon = with_cap(MEMBER, CAP_PERFMON);
	struct who syslog_ = with_cap(MEMBER, CAP_SYSLOG);
	struct pmc_op_configurelog cl = {
		.pm_flags = PMC_LOG_KERNEL_PROFILES,
	};
	void *kp = (void *)(long)PMC_LOG_KERNEL_PROFILES;
	int kptr = read_int_path("/proc/sys/kernel/kptr_restrict"), fd;
	char v[2] = "0";

	ASSERT_EQ(0, setup_device());
	ASSERT_LE(0, kptr);
	ASSERT_EQ(0, write_path("/proc/sys/kernel/kptr_restrict", v));
	EXPECT_EQ(EPERM, run_as(&MEMBER, kprof_configure, kp));
	EXPECT_EQ(0, run_as(&MEMBER, kprof_configure, NULL));
	EXPECT_EQ(EPERM, run_as(&syslog_, kprof_configure, kp))
		TH_LOG("CAP_SYSLOG alone");
	EXPECT_EQ(0, run_as(&perfmon, kprof_configure, kp))
		TH_LOG("kptr_restrict 0: CAP_PERFMON");
	EXPECT_EQ(EINVAL, kprof_configure((void *)2L)) TH_LOG("an unknown flag");

	/* one log at a time: another owner's gets EBUSY until it goes */
	fd = dev_open();
	ASSERT_LE(0, fd);
	cl.pm_logfd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, cl.pm_logfd);
	ASSERT_EQ(0, xioctl(fd, HWPMC_IOC_CONFIGURELOG, &cl));
	EXPECT_EQ(EBUSY, run_as(&perfmon, kprof_configure, kp));
	EXPECT_EQ(EPERM, run_as(&MEMBER, kprof_configure, kp))
		TH_LOG("EPERM before EBUSY: a member learns nothing");
	EXPECT_EQ(0, run_as(&perfmon, kprof_configure, NULL));
	EXPECT_EQ(0, xioctl(fd, HWPMC_IOC_CLOSELOG, NULL));
	EXPECT_EQ(0, run_as(&perfmon, kprof_configure, kp)) TH_LOG("closed: free again");
	close(cl.pm_logfd);
	close(fd);

	v[0] = '1';
	ASSERT_EQ(0, write_path("/proc/sys/kernel/kptr_restrict", v));
	EXPECT_EQ(EPERM, run_as(&perfmon, kprof_configure, kp))
		TH_LOG("kptr_restrict 1: CAP_PERFMON without CAP_SYSLOG");
	EXPECT_EQ(0, kprof_configure(kp)) TH_LOG("kptr_restrict 1: root");
	v[0] = '2';
	ASSERT_EQ(0, write_path("/proc/sys/kernel/kptr_restrict", v));
	EXPECT_EQ(EPERM, kprof_configure(kp)) TH_LOG("kptr_restrict 2: root");
	v[0] = (char)('0' + kptr);
	write_path("/proc/sys/kernel/kptr_restrict", v);
}

static int pmu_alloc(void *arg)
{
	int fd = dev_open(), e;

	if (fd < 0)
		return 100 + (errno & 63);
	e = alloc(fd, PMC_MODE_TC, PMC_CLASS_PMU, EV_PMU(CPU_CYCLES),
		  PMC_CPU_ANY, (__u32)(long)arg, NULL);
	close(fd);
	return e;
}

TEST(member_kernel_mode_needs_perfmon_or_tunable)
{
	struct who perfmon = with_cap(MEMBER, CAP_PERFMON);
	void *both = (void *)0L, *user = (void *)(long)PMC_CAP_USER,
	     *sys = (void *)(long)PMC_CAP_SYSTEM;

	ASSERT_EQ(0, setup_device());
	if (!have_pmu())
		SKIP(return, "no hardware PMU: the kernel-mode rule concerns PMU events only");
	EXPECT_EQ(EPERM, run_as(&MEMBER, pmu_alloc, both));
	EXPECT_EQ(EPERM, run_as(&MEMBER, pmu_alloc, sys));
	EXPECT_EQ(0, run_as(&MEMBER, pmu_alloc, user));
	EXPECT_EQ(0, run_as(&perfmon, pmu_alloc, both));
	EXPECT_EQ(0, run_as(&perfmon, pmu_alloc, sys));
	write_param("unprivileged_kernel", "1");
	EXPECT_EQ(0, run_as(&MEMBER, pmu_alloc, both));
	EXPECT_EQ(0, run_as(&MEMBER, pmu_alloc, sys));
	write_param("unprivileged_kernel", "0");
	EXPECT_EQ(EPERM, run_as(&MEMBER, pmu_alloc, both));
}

static int sample_alloc(void *arg)
{
	int fd = dev_open(), e;

	if (fd < 0)
		return 100 + (errno & 63);
	e = alloc(fd, PMC_MODE_TS, PMC_CLASS_SOFT, EV_SOFT(CPU_CLOCK),
		  PMC_CPU_ANY, (__u32)(long)arg, NULL);
	close(fd);
	return e;
}

/* Samples are addresses: of kernel mode, privileged for every class. */
TEST(member_kernel_mode_sampling_needs_perfmon_or_tunable)
{
	struct who perfmon = with_cap(MEMBER, CAP_PERFMON);
	void *both = (void *)0L, *user = (void *)(long)PMC_CAP_USER,
	     *sys = (void *)(long)PMC_CAP_SYSTEM;

	ASSERT_EQ(0, setup_device());
	EXPECT_EQ(EPERM, run_as(&MEMBER, sample_alloc, both));
	EXPECT_EQ(EPERM, run_as(&MEMBER, sample_alloc, sys));
	EXPECT_EQ(0, run_as(&MEMBER, sample_alloc, user));
	EXPECT_EQ(0, run_as(&perfmon, sample_alloc, both));
	write_param("unprivileged_kernel", "1");
	EXPECT_EQ(0, run_as(&MEMBER, sample_alloc, both));
	write_param("unprivileged_kernel", "0");
	EXPECT_EQ(EPERM, run_as(&MEMBER, sample_alloc, both));
	EXPECT_EQ(0, sample_alloc(both));		/* root */
}

static int do_admin(void *arg)
{
	int fd = dev_open(), e;

	if (fd < 0)
		return 100 + (errno & 63);
	e = admin(fd, PMC_STATE_DISABLED);
	if (!e)
		e = admin(fd, PMC_STATE_FREE);
	close(fd);
	return e;
}

TEST(member_pmcadmin_needs_sys_admin)
{
	struct who perfmon = with_cap(MEMBER, CAP_PERFMON);
	struct who ptracer = with_cap(MEMBER, CAP_SYS_PTRACE);
	struct who admin_ = with_cap(MEMBER, CAP_SYS_ADMIN);

	ASSERT_EQ(0, setup_device());
	EXPECT_EQ(EPERM, run_as(&MEMBER, do_admin, NULL));
	EXPECT_EQ(EPERM, run_as(&perfmon, do_admin, NULL));
	EXPECT_EQ(EPERM, run_as(&ptracer, do_admin, NULL));
	EXPECT_EQ(0, run_as(&admin_, do_admin, NULL));
}

/* -- ids are per owner ----------------------------------------------------- */

/* Another process (ours, sharing the descriptor) tries owner's id. */
static int other_process_ops(int fd, __u32 id)
{
	__u64 v = 5;
	__u32 mine;
	int e;

	if ((e = rw(fd, id, PMC_F_OLDVALUE, &v)) != ESRCH)
		return 10 + (e & 15);
	v = 5;
	if ((e = rw(fd, id, PMC_F_NEWVALUE, &v)) != ESRCH)	/* write */
		return 20 + (e & 15);
	if ((e = simple(fd, HWPMC_IOC_PMCSTOP, id)) != ESRCH)
		return 30 + (e & 15);
	if ((e = simple(fd, HWPMC_IOC_PMCSTART, id)) != ESRCH)
		return 40 + (e & 15);
	if ((e = simple(fd, HWPMC_IOC_PMCRELEASE, id)) != ESRCH)
		return 50 + (e & 15);
	if ((e = attach(fd, id, 0)) != ESRCH)
		return 60 + (e & 15);
	if ((e = detach(fd, id, getppid())) != ESRCH)
		return 70 + (e & 15);
	/* its own PMC, of the same row and likely the same id: its own */
	if (alloc_tc(fd, &mine))
		return 80;
	if (simple(fd, HWPMC_IOC_PMCRELEASE, mine))
		return 81;
	return 0;
}

static int per_owner(void *arg)
{
	__u64 v1, v2;
	__u32 id;
	pid_t pid;
	int fd = dev_open(), e, status;

	if (fd < 0)
		return 100 + (errno & 63);
	if (alloc_tc(fd, &id) || attach(fd, id, 0) ||
	    simple(fd, HWPMC_IOC_PMCSTART, id))
		return 110;
	pid = fork();
	if (pid == 0)
		_exit(other_process_ops(fd, id));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 111;
	e = WEXITSTATUS(status);
	if (e)
		return e;
	/* still ours, still running */
	v1 = value(fd, id);
	spin(0.05);
	v2 = value(fd, id);
	if (v1 == ~0ULL || v2 <= v1)
		return 112;
	if (simple(fd, HWPMC_IOC_PMCRELEASE, id))
		return 113;
	close(fd);
	return 0;
}

/* root's process, with its own descriptor, and the owner's id */
static int root_tries(__u32 id)
{
	int fd = dev_open(), n = 0;
	__u64 v = 0;

	if (fd < 0)
		return -1;
	n += rw(fd, id, PMC_F_OLDVALUE, &v) == ESRCH;
	n += simple(fd, HWPMC_IOC_PMCSTOP, id) == ESRCH;
	n += simple(fd, HWPMC_IOC_PMCRELEASE, id) == ESRCH;
	close(fd);
	return n;
}

TEST(ids_are_per_owner)
{
	struct who admin_ = with_cap(MEMBER2, CAP_SYS_ADMIN);
	int p[2], q[2];
	pid_t pid;
	__u32 id;
	char c;
	int status;

	ASSERT_EQ(0, setup_device());
	EXPECT_EQ(0, run_as(&MEMBER, per_owner, NULL));
	/* a privileged process cannot name another owner's PMC either */
	EXPECT_EQ(0, run_as(&admin_, per_owner, NULL));
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, pipe(q));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int fd;
		__u64 v1;

		become(&MEMBER);
		fd = dev_open();
		if (fd < 0 || alloc_tc(fd, &id) || attach(fd, id, 0) ||
		    simple(fd, HWPMC_IOC_PMCSTART, id))
			_exit(1);
		if (write(p[1], &id, sizeof(id)) != sizeof(id) ||
		    read(q[0], &c, 1) != 1)
			_exit(2);
		v1 = value(fd, id);
		spin(0.05);
		_exit(v1 != ~0ULL && value(fd, id) > v1 &&
		      !simple(fd, HWPMC_IOC_PMCRELEASE, id) ? 0 : 3);
	}
	ASSERT_EQ(sizeof(id), read(p[0], &id, sizeof(id)));
	EXPECT_EQ(3, root_tries(id));
	ASSERT_EQ(1, write(q[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
}

TEST_HARNESS_MAIN
