// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: the ioctl ABI of /dev/hwpmc, in a VM, as root.
 *
 * Every operation with good and bad input, each bad input expecting the
 * errno hwpmc(4) documents.  Needs the module loaded.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <linux/hwpmc.h>
#include <hwpmc_events.h>

#include "kselftest_harness.h"
#include "hwpmc_selftest.h"

static int read_int_file(const char *path, int *v)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%d", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

/* Number of possible CPUs as the kernel sizes nr_cpu_ids: last + 1. */
static int possible_cpus(void)
{
	char buf[256], *p;
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	long last = -1;

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	for (p = buf; *p; ) {
		long a = strtol(p, &p, 10), b = a;

		if (*p == '-')
			b = strtol(p + 1, &p, 10);
		if (b > last)
			last = b;
		if (*p == ',')
			p++;
		else
			break;
	}
	return (int)last + 1;
}

static int set_cpu_online(int cpu, int on)
{
	char path[96];
	FILE *f;
	int r;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	f = fopen(path, "w");
	if (!f)
		return -1;
	r = fprintf(f, "%d\n", on) > 0 ? 0 : -1;
	if (fclose(f))
		r = -1;
	return r;
}

FIXTURE(dev) {
	int fd;
	struct pmc_op_getcpuinfo ci;
};

FIXTURE_SETUP(dev)
{
	self->fd = open(DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", DEV, strerror(errno));
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_GETCPUINFO, &self->ci));
}

FIXTURE_TEARDOWN(dev)
{
	close(self->fd);
}

/* -- dispatch ----------------------------------------------------------- */

TEST_F(dev, unknown_command_is_enotty)
{
	char buf[64] = { 0 };

	/* other magic, same number and size */
	EXPECT_EQ(ENOTTY, xioctl(self->fd, _IOR('x', PMC_OP_GETCPUINFO,
					       struct pmc_op_getcpuinfo), buf));
	/* our magic, number past the last operation */
	EXPECT_EQ(ENOTTY, xioctl(self->fd, _IO(HWPMC_IOC_MAGIC,
					       PMC_OP_MAX + 1), NULL));
	EXPECT_EQ(ENOTTY, xioctl(self->fd, _IO(HWPMC_IOC_MAGIC, 0xFF), NULL));
	EXPECT_EQ(ENOTTY, xioctl(self->fd, TCGETS, buf));
}

TEST_F(dev, wrong_size_or_direction_is_einval)
{
	char buf[4096] = { 0 };

	/* short struct */
	EXPECT_EQ(EINVAL, xioctl(self->fd, _IOR(HWPMC_IOC_MAGIC,
		PMC_OP_GETCPUINFO, char[16]), buf));
	/* oversized struct */
	EXPECT_EQ(EINVAL, xioctl(self->fd, _IOR(HWPMC_IOC_MAGIC,
		PMC_OP_GETCPUINFO, char[sizeof(struct pmc_op_getcpuinfo) + 8]),
		buf));
	EXPECT_EQ(EINVAL, xioctl(self->fd, _IOWR(HWPMC_IOC_MAGIC,
		PMC_OP_GETPMCINFO, char[8]), buf));
	/* PMCALLOCATE takes two sizes, the plain and the named, no other */
	EXPECT_EQ(EINVAL, xioctl(self->fd, _IOWR(HWPMC_IOC_MAGIC,
		PMC_OP_PMCALLOCATE,
		char[sizeof(struct pmc_op_pmcallocate_named) + 8]), buf));
	EXPECT_EQ(EINVAL, xioctl(self->fd, _IOW(HWPMC_IOC_MAGIC,
		PMC_OP_PMCALLOCATE, struct pmc_op_pmcallocate_named), buf));
	/* PMCRW takes two sizes, the plain and the times', no other */
	EXPECT_EQ(EINVAL, xioctl(self->fd, _IOWR(HWPMC_IOC_MAGIC,
		PMC_OP_PMCRW,
		char[sizeof(struct pmc_op_pmcrw_times) + 8]), buf));
	EXPECT_EQ(EINVAL, xioctl(self->fd, _IOR(HWPMC_IOC_MAGIC,
		PMC_OP_PMCRW, struct pmc_op_pmcrw_times), buf));
	/* right size, wrong direction */
	EXPECT_EQ(EINVAL, xioctl(self->fd, _IOW(HWPMC_IOC_MAGIC,
		PMC_OP_GETCPUINFO, struct pmc_op_getcpuinfo), buf));
	EXPECT_EQ(EINVAL, xioctl(self->fd, _IOR(HWPMC_IOC_MAGIC,
		PMC_OP_PMCADMIN, struct pmc_op_pmcadmin), buf));
	/* FLUSHLOG takes no argument */
	EXPECT_EQ(EINVAL, xioctl(self->fd, _IOW(HWPMC_IOC_MAGIC,
		PMC_OP_FLUSHLOG, __u32), buf));
}

TEST_F(dev, log_operations_without_a_log_are_einval)
{
	static const struct { unsigned long cmd; const char *name; } ops[] = {
		{ HWPMC_IOC_FLUSHLOG, "FLUSHLOG" },
		{ HWPMC_IOC_CLOSELOG, "CLOSELOG" },
		{ HWPMC_IOC_WRITELOG, "WRITELOG" },
	};
	struct pmc_op_configurelog cl = { .pm_logfd = -1 };
	char buf[256] = { 0 };
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		EXPECT_EQ(EINVAL, xioctl(self->fd, ops[i].cmd, buf))
			TH_LOG("op %s", ops[i].name ? ops[i].name : "?");
	EXPECT_EQ(EINVAL, xioctl(self->fd, HWPMC_IOC_CONFIGURELOG, &cl));
}

/* -- GETMODULEVERSION --------------------------------------------------- */

TEST_F(dev, getmoduleversion)
{
	__u32 v = PMC_VERSION;

	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_GETMODULEVERSION, &v));
	EXPECT_EQ(PMC_VERSION, v);

	/* an older client is served */
	v = 0;
	EXPECT_EQ(0, xioctl(self->fd, HWPMC_IOC_GETMODULEVERSION, &v));
	EXPECT_EQ(PMC_VERSION, v);

	/* a client of a newer minor or major is refused */
	v = PMC_VERSION + (1 << 16);
	EXPECT_EQ(EPROTO, xioctl(self->fd, HWPMC_IOC_GETMODULEVERSION, &v));
	EXPECT_EQ(PMC_VERSION, v);	/* says which version it has */
	v = PMC_VERSION + (1U << 24);
	EXPECT_EQ(EPROTO, xioctl(self->fd, HWPMC_IOC_GETMODULEVERSION, &v));
	/* a newer patch level is fine */
	v = PMC_VERSION + 1;
	EXPECT_EQ(0, xioctl(self->fd, HWPMC_IOC_GETMODULEVERSION, &v));

	EXPECT_EQ(EFAULT, xioctl(self->fd, HWPMC_IOC_GETMODULEVERSION,
				 BAD_PTR));
	EXPECT_EQ(EFAULT, xioctl(self->fd, HWPMC_IOC_GETMODULEVERSION, NULL));
}

/* -- GETCPUINFO ---------------------------------------------------------- */

TEST_F(dev, getcpuinfo)
{
	const struct pmc_op_getcpuinfo *ci = &self->ci;
	__u32 i, sum = 0;
	int soft;

	EXPECT_EQ(possible_cpus(), (int)ci->pm_ncpu);
	ASSERT_LE(1, ci->pm_nclass);
	ASSERT_GE(PMC_CLASS_MAX, ci->pm_nclass);
	/* SOFT is always there, first, with `softevents` rows */
	EXPECT_EQ(PMC_CLASS_SOFT, ci->pm_classes[0].pm_class);
	ASSERT_EQ(0, read_int_file("/sys/module/hwpmc/parameters/softevents",
				   &soft));
	EXPECT_EQ(soft, (int)ci->pm_classes[0].pm_num);
	for (i = 0; i < ci->pm_nclass; i++) {
		EXPECT_EQ(64, ci->pm_classes[i].pm_width);
		EXPECT_NE(0, ci->pm_classes[i].pm_caps & PMC_CAP_READ);
		sum += ci->pm_classes[i].pm_num;
	}
	for (; i < PMC_CLASS_MAX; i++)
		EXPECT_EQ(0, ci->pm_classes[i].pm_num);
	EXPECT_EQ(sum, ci->pm_npmc);
	/* then PMU where the machine has one, then PERF, always */
	ASSERT_LE(2, ci->pm_nclass);
	EXPECT_EQ(PMC_CLASS_PERF, ci->pm_classes[ci->pm_nclass - 1].pm_class);
	if (ci->pm_nclass == 2) {
		EXPECT_EQ(PMC_CPU_GENERIC, ci->pm_cputype);
	} else {
		EXPECT_EQ(3, ci->pm_nclass);
		EXPECT_EQ(PMC_CLASS_PMU, ci->pm_classes[1].pm_class);
	}

	EXPECT_EQ(EFAULT, xioctl(self->fd, HWPMC_IOC_GETCPUINFO, BAD_PTR));
}

/* -- GETPMCINFO ---------------------------------------------------------- */

static int getpmcinfo(int fd, int cpu, __u32 room, struct pmc_info *pi,
		      __u32 *npmc)
{
	struct pmc_op_getpmcinfo gi = {
		.pm_cpu = cpu, .pm_npmc = room,
		.pm_pmcs = (__u64)(unsigned long)pi,
	};
	int e = xioctl(fd, HWPMC_IOC_GETPMCINFO, &gi);

	if (npmc)
		*npmc = gi.pm_npmc;
	return e;
}

TEST_F(dev, getpmcinfo_rows)
{
	__u32 n = self->ci.pm_npmc, i, got = 0, c, row = 0;
	struct pmc_info *pi = calloc(n, sizeof(*pi));
	char name[PMC_NAME_MAX];
	int cpu;

	ASSERT_NE(NULL, pi);
	for (cpu = 0; cpu < (int)self->ci.pm_ncpu; cpu++) {
		int e = getpmcinfo(self->fd, cpu, n, pi, &got);

		if (e == ENXIO)
			continue;	/* offline */
		ASSERT_EQ(0, e) TH_LOG("cpu %d", cpu);
		ASSERT_EQ(n, got);
		row = 0;
		for (c = 0; c < self->ci.pm_nclass; c++) {
			const struct pmc_classinfo *cl = &self->ci.pm_classes[c];

			for (i = 0; i < cl->pm_num; i++, row++) {
				snprintf(name, sizeof(name), "%s%u",
					 cl->pm_class == PMC_CLASS_SOFT ?
					 "SOFT" : cl->pm_class == PMC_CLASS_PMU ?
					 "PMU" : "PERF", i);
				EXPECT_STREQ(name, pi[row].pm_name);
				EXPECT_EQ(cl->pm_class, pi[row].pm_class);
				EXPECT_EQ(1, pi[row].pm_enabled);
				EXPECT_EQ(PMC_DISP_FREE, pi[row].pm_rowdisp);
				EXPECT_EQ(-1, pi[row].pm_ownerpid);
				EXPECT_EQ(0, pi[row].pm__pad);
			}
		}
	}
	free(pi);
}

TEST_F(dev, getpmcinfo_errors)
{
	__u32 n = self->ci.pm_npmc, got = 0;
	struct pmc_info *pi = calloc(n, sizeof(*pi));

	ASSERT_NE(NULL, pi);
	/* count query */
	EXPECT_EQ(0, getpmcinfo(self->fd, 0, 0, NULL, &got));
	EXPECT_EQ(n, got);
	/* too little room: E2BIG and the count needed */
	got = 0;
	EXPECT_EQ(E2BIG, getpmcinfo(self->fd, 0, n - 1, pi, &got));
	EXPECT_EQ(n, got);
	/* CPU out of range */
	EXPECT_EQ(EINVAL, getpmcinfo(self->fd, -1, n, pi, NULL));
	EXPECT_EQ(EINVAL, getpmcinfo(self->fd, self->ci.pm_ncpu, n, pi, NULL));
	EXPECT_EQ(EINVAL, getpmcinfo(self->fd, INT_MAX, n, pi, NULL));
	/* bad pointers */
	EXPECT_EQ(EFAULT, getpmcinfo(self->fd, 0, n, BAD_PTR, NULL));
	EXPECT_EQ(EFAULT, xioctl(self->fd, HWPMC_IOC_GETPMCINFO, BAD_PTR));
	free(pi);
}

TEST_F(dev, getpmcinfo_offline_cpu_is_enxio)
{
	__u32 n = self->ci.pm_npmc;
	struct pmc_info *pi = calloc(n, sizeof(*pi));
	struct pmc_op_pmcadmin pa = { .pm_cpu = 1, .pm_pmc = 0,
				      .pm_state = PMC_STATE_DISABLED };

	ASSERT_NE(NULL, pi);
	if (self->ci.pm_ncpu < 2 || set_cpu_online(1, 0)) {
		free(pi);
		SKIP(return, "CPU 1 cannot be taken offline");
	}
	EXPECT_EQ(ENXIO, getpmcinfo(self->fd, 1, n, pi, NULL));
	EXPECT_EQ(ENXIO, xioctl(self->fd, HWPMC_IOC_PMCADMIN, &pa));
	ASSERT_EQ(0, set_cpu_online(1, 1));
	EXPECT_EQ(0, getpmcinfo(self->fd, 1, n, pi, NULL));
	free(pi);
}

/* -- GETDYNEVENTINFO ----------------------------------------------------- */

static int geteventinfo(int fd, __u32 class, __u32 room,
			struct pmc_dyn_event_descr *d, __u32 *n)
{
	struct pmc_op_getdyneventinfo gd = {
		.pm_class = class, .pm_nevent = room,
		.pm_events = (__u64)(unsigned long)d,
	};
	int e = xioctl(fd, HWPMC_IOC_GETDYNEVENTINFO, &gd);

	if (n)
		*n = gd.pm_nevent;
	return e;
}

TEST_F(dev, geteventinfo_soft)
{
	static const char *const must[] = {
		"cpu-clock", "task-clock", "page-faults", "context-switches",
		"cpu-migrations", "minor-faults", "major-faults",
	};
	struct pmc_dyn_event_descr *d;
	char name[PMC_NAME_MAX];
	__u32 n = 0, i, j;

	ASSERT_EQ(0, geteventinfo(self->fd, PMC_CLASS_SOFT, 0, NULL, &n));
	ASSERT_LE(sizeof(must) / sizeof(must[0]), n);
	d = calloc(n, sizeof(*d));
	ASSERT_NE(NULL, d);
	ASSERT_EQ(0, geteventinfo(self->fd, PMC_CLASS_SOFT, n, d, &n));
	for (i = 0; i < n; i++) {
		/* codes and names agree with the shared table */
		ASSERT_LE(PMC_EV_SOFT_FIRST, d[i].pm_ev_code);
		ASSERT_GE(PMC_EV_SOFT_LAST, d[i].pm_ev_code);
		ASSERT_EQ(0, hwpmc_event_name(d[i].pm_ev_code, name,
					      sizeof(name)));
		EXPECT_STREQ(name, d[i].pm_ev_name);
		/* every software event counts, samples and filters modes */
		EXPECT_EQ(PMC_CAP_READ | PMC_CAP_WRITE | PMC_CAP_INTERRUPT |
			  PMC_CAP_USER | PMC_CAP_SYSTEM, d[i].pm_ev_caps)
			TH_LOG("%s", d[i].pm_ev_name);
	}
	for (j = 0; j < sizeof(must) / sizeof(must[0]); j++) {
		for (i = 0; i < n; i++)
			if (!strcmp(must[j], d[i].pm_ev_name))
				break;
		EXPECT_LT(i, n) TH_LOG("no event %s", must[j]);
	}
	free(d);
}

TEST_F(dev, geteventinfo_errors)
{
	struct pmc_dyn_event_descr d[2];
	__u32 n = 0;

	EXPECT_EQ(EINVAL, geteventinfo(self->fd, PMC_CLASS_IAP, 2, d, &n));
	EXPECT_EQ(EINVAL, geteventinfo(self->fd, 0xFFFFFFFF, 2, d, &n));
	EXPECT_EQ(E2BIG, geteventinfo(self->fd, PMC_CLASS_SOFT, 2, d, &n));
	EXPECT_LT(2, n);
	EXPECT_EQ(EFAULT, geteventinfo(self->fd, PMC_CLASS_SOFT, 1000,
				       BAD_PTR, NULL));
	EXPECT_EQ(EFAULT, xioctl(self->fd, HWPMC_IOC_GETDYNEVENTINFO,
				 BAD_PTR));
}

/* The PMU class, where the machine has one. */
TEST_F(dev, geteventinfo_pmu)
{
	struct pmc_dyn_event_descr *d;
	__u32 n = 0, i;
	int cycles = 0, instructions = 0;

	if (self->ci.pm_nclass < 3)
		SKIP(return, "no hardware PMU in this machine");
	ASSERT_EQ(0, geteventinfo(self->fd, PMC_CLASS_PMU, 0, NULL, &n));
	ASSERT_LT(0, n);
	d = calloc(n, sizeof(*d));
	ASSERT_NE(NULL, d);
	ASSERT_EQ(0, geteventinfo(self->fd, PMC_CLASS_PMU, n, d, &n));
	for (i = 0; i < n; i++) {
		cycles |= !strcmp(d[i].pm_ev_name, "cycles");
		instructions |= !strcmp(d[i].pm_ev_name, "instructions");
		EXPECT_NE(0, d[i].pm_ev_caps & PMC_CAP_READ);
	}
	EXPECT_TRUE(cycles);
	TH_LOG("PMU: %u events, instructions %s", n,
	       instructions ? "present" : "absent");
	free(d);
}

/* -- GETCAPS ------------------------------------------------------------- */

TEST_F(dev, getcaps)
{
	struct pmc_op_caps gc = {
		.pm_pmcid = PMC_ID_INVALID, .pm_class = PMC_CLASS_SOFT,
		.pm_ev = PMC_EV_SOFT_FIRST + PERF_COUNT_SW_CPU_CLOCK,
	};

	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_GETCAPS, &gc));
	EXPECT_EQ(PMC_CAP_READ | PMC_CAP_WRITE | PMC_CAP_INTERRUPT |
		  PMC_CAP_USER | PMC_CAP_SYSTEM, gc.pm_caps);

	gc.pm_ev = PMC_EV_PMU_HW_FIRST;		/* class mismatch */
	EXPECT_EQ(EINVAL, xioctl(self->fd, HWPMC_IOC_GETCAPS, &gc));
	gc.pm_ev = PMC_EV_SOFT_FIRST + 0xFF;	/* no such event */
	EXPECT_EQ(EINVAL, xioctl(self->fd, HWPMC_IOC_GETCAPS, &gc));
	gc.pm_class = PMC_CLASS_K8;		/* no such class here */
	gc.pm_ev = PMC_EV_SOFT_FIRST;
	EXPECT_EQ(EINVAL, xioctl(self->fd, HWPMC_IOC_GETCAPS, &gc));
	/* a PMC id: this process owns no PMC */
	gc.pm_pmcid = PMC_ID_MAKE_ID(0xFFF, PMC_MODE_TC, PMC_CLASS_SOFT, 0);
	EXPECT_EQ(ESRCH, xioctl(self->fd, HWPMC_IOC_GETCAPS, &gc));
	EXPECT_EQ(EFAULT, xioctl(self->fd, HWPMC_IOC_GETCAPS, BAD_PTR));
}

/* -- GETDRIVERSTATS ------------------------------------------------------ */

TEST_F(dev, getdriverstats_counts_calls_and_errors)
{
	struct pmc_op_getdriverstats a, b;
	__u32 v = PMC_VERSION;
	int i;

	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_GETDRIVERSTATS, &a));
	for (i = 0; i < 10; i++)
		ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_GETMODULEVERSION, &v));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(EFAULT, xioctl(self->fd, HWPMC_IOC_GETCPUINFO,
					 BAD_PTR));
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_GETDRIVERSTATS, &b));
	/* 13 calls and the second GETDRIVERSTATS; others may run too */
	EXPECT_LE(a.pm_syscalls + 14, b.pm_syscalls);
	EXPECT_LE(a.pm_syscall_errors + 3, b.pm_syscall_errors);
	for (i = 0; i < (int)ARRAY_SIZE(b.pm__reserved); i++)
		EXPECT_EQ(0, b.pm__reserved[i]);
	EXPECT_EQ(EFAULT, xioctl(self->fd, HWPMC_IOC_GETDRIVERSTATS, BAD_PTR));
}

/* -- PMCADMIN ------------------------------------------------------------ */

static int admin(int fd, int cpu, int row, __u32 state, __u32 flags)
{
	struct pmc_op_pmcadmin pa = {
		.pm_cpu = cpu, .pm_pmc = row, .pm_state = state,
		.pm_flags = flags,
	};

	return xioctl(fd, HWPMC_IOC_PMCADMIN, &pa);
}

TEST_F(dev, pmcadmin_disable_enable)
{
	__u32 n = self->ci.pm_npmc;
	struct pmc_info *pi = calloc(n, sizeof(*pi));
	__u32 last = n - 1;

	ASSERT_NE(NULL, pi);
	ASSERT_EQ(0, admin(self->fd, 0, last, PMC_STATE_DISABLED, 0));
	/* idempotent */
	ASSERT_EQ(0, admin(self->fd, 0, last, PMC_STATE_DISABLED, 0));
	ASSERT_EQ(0, getpmcinfo(self->fd, 0, n, pi, NULL));
	EXPECT_EQ(0, pi[last].pm_enabled);
	EXPECT_EQ(PMC_DISP_STANDALONE, pi[last].pm_rowdisp);
	EXPECT_EQ(1, pi[0].pm_enabled);
	if (self->ci.pm_ncpu > 1 && !getpmcinfo(self->fd, 1, n, pi, NULL)) {
		/* the row is standalone everywhere, enabled elsewhere */
		EXPECT_EQ(1, pi[last].pm_enabled);
		EXPECT_EQ(PMC_DISP_STANDALONE, pi[last].pm_rowdisp);
	}
	ASSERT_EQ(0, admin(self->fd, 0, last, PMC_STATE_FREE, 0));
	ASSERT_EQ(0, admin(self->fd, 0, last, PMC_STATE_FREE, 0));
	ASSERT_EQ(0, getpmcinfo(self->fd, 0, n, pi, NULL));
	EXPECT_EQ(1, pi[last].pm_enabled);
	EXPECT_EQ(PMC_DISP_FREE, pi[last].pm_rowdisp);
	free(pi);
}

TEST_F(dev, pmcadmin_errors)
{
	int n = self->ci.pm_npmc, ncpu = self->ci.pm_ncpu;

	EXPECT_EQ(EINVAL, admin(self->fd, -1, 0, PMC_STATE_DISABLED, 0));
	EXPECT_EQ(EINVAL, admin(self->fd, ncpu, 0, PMC_STATE_DISABLED, 0));
	EXPECT_EQ(EINVAL, admin(self->fd, 0, -1, PMC_STATE_DISABLED, 0));
	EXPECT_EQ(EINVAL, admin(self->fd, 0, n, PMC_STATE_DISABLED, 0));
	EXPECT_EQ(EINVAL, admin(self->fd, 0, 0, PMC_STATE_ALLOCATED, 0));
	EXPECT_EQ(EINVAL, admin(self->fd, 0, 0, PMC_STATE_RUNNING, 0));
	EXPECT_EQ(EINVAL, admin(self->fd, 0, 0, 0xFFFF, 0));
	/* reserved flags */
	EXPECT_EQ(EINVAL, admin(self->fd, 0, 0, PMC_STATE_FREE, 1));
	EXPECT_EQ(EFAULT, xioctl(self->fd, HWPMC_IOC_PMCADMIN, BAD_PTR));
}

TEST_F(dev, pmcadmin_unprivileged_is_eperm)
{
	pid_t pid = fork();
	int status;

	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* the open fd survives; root's capabilities don't */
		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(2);
		_exit(admin(self->fd, 0, 0, PMC_STATE_DISABLED, 0) == EPERM ?
		      0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* The device needs group or root: an unprivileged open is refused. */
TEST(open_unprivileged_is_eacces)
{
	pid_t pid = fork();
	int status;

	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(2);
		_exit(open(DEV, O_RDWR) < 0 && errno == EACCES ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
