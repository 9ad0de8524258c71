// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: module load and unload, tunables, the load banner.
 *
 * Tunables are module parameters named as FreeBSD's kern.hwpmc.* and
 * security.bsd.* sysctls.  Load-time tunables out of range are reported
 * with hwpmc(4)'s diagnostics and replaced by their defaults, as FreeBSD
 * does; the ones writable at run time refuse bad values.
 */
#define pr_fmt(fmt) "hwpmc: " fmt

#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>

#include "hwpmc_internal.h"
#include "hwpmc_kapi.h"
#include "hwpmc_dev.h"
#include "hwpmc_lifecycle.h"
#include "hwpmc_ops.h"
#include "hwpmc_target.h"
#include "hwpmc_watch.h"
#include "hwpmc_hooks.h"
#include "hwpmc_csw.h"
#include "hwpmc_sample.h"
#include "hwpmc_rows.h"
#include "hwpmc_log.h"
#include "hwpmc_tracepoint.h"
#include "hwpmc_backend.h"
#include <hwpmc_version.h>

#define HWPMC_HASHSIZE		1024
#define HWPMC_HASHSIZE_MAX	(1 << 20)	/* 8 MB of list heads */
#define HWPMC_NSAMPLES		256
#define HWPMC_NSAMPLES_MAX	65535
#define HWPMC_CALLCHAINDEPTH	128
#define HWPMC_MAXSTACKUSER	16384
#define HWPMC_LOGBUFFERSIZE	256		/* KB */
#define HWPMC_LOGBUFFERSIZE_MAX	(16 * 1024)	/* KB */
#define HWPMC_NBUFFERS_PCPU	32
#define HWPMC_LOGMEM_PCPU_MAX	(32 * 1024)	/* KB of buffers per CPU */
#define HWPMC_MINCOUNT		1000
#define HWPMC_UNPRIVILEGED_COUNTERS	2
#define HWPMC_SOFTEVENTS	16
#define HWPMC_SOFT_ROWS_MAX	128

int hwpmc_hashsize = HWPMC_HASHSIZE;
module_param_named(hashsize, hwpmc_hashsize, int, 0444);
MODULE_PARM_DESC(hashsize, "rows in the owner hash table, rounded up to a power of two, 1..1048576 (1024)");

int hwpmc_nsamples = HWPMC_NSAMPLES;
module_param_named(nsamples, hwpmc_nsamples, int, 0444);
MODULE_PARM_DESC(nsamples, "entries of each per-CPU sample ring, a power of two, 1..65535 (256)");

int hwpmc_callchaindepth = HWPMC_CALLCHAINDEPTH;
module_param_named(callchaindepth, hwpmc_callchaindepth, int, 0444);
MODULE_PARM_DESC(callchaindepth, "maximum frames of a call chain, 1..512 (128)");

int hwpmc_maxstackuser = HWPMC_MAXSTACKUSER;
module_param_named(maxstackuser, hwpmc_maxstackuser, int, 0444);
MODULE_PARM_DESC(maxstackuser, "largest user stack copy of a PMC_F_USERSTACK sample, bytes, a multiple of 8, 0..32768 (0: none) (16384)");

int hwpmc_logbuffersize = HWPMC_LOGBUFFERSIZE;
module_param_named(logbuffersize, hwpmc_logbuffersize, int, 0444);
MODULE_PARM_DESC(logbuffersize, "size of a log buffer in KB, 1..16384 (256)");

int hwpmc_nbuffers_pcpu = HWPMC_NBUFFERS_PCPU;
module_param_named(nbuffers_pcpu, hwpmc_nbuffers_pcpu, int, 0444);
MODULE_PARM_DESC(nbuffers_pcpu, "log buffers per CPU; with logbuffersize at most 32 MB per CPU (32)");

int hwpmc_softevents = HWPMC_SOFTEVENTS;
module_param_named(softevents, hwpmc_softevents, int, 0444);
MODULE_PARM_DESC(softevents, "rows of the SOFT class, 1..128 (16)");

bool hwpmc_unprivileged_syspmcs;
module_param_named(unprivileged_syspmcs, hwpmc_unprivileged_syspmcs, bool, 0644);
MODULE_PARM_DESC(unprivileged_syspmcs, "allow system-scope PMCs without CAP_PERFMON (0)");

bool hwpmc_unprivileged_proc_debug = true;
module_param_named(unprivileged_proc_debug, hwpmc_unprivileged_proc_debug, bool, 0644);
MODULE_PARM_DESC(unprivileged_proc_debug, "allow unprivileged callers to attach to other processes they could ptrace (1)");

/*
 * A PMC's targets at a time (0: no limit): a DESCENDANTS target's fork
 * adds one under hwpmc_sx, in time that grows with them.
 */
unsigned int hwpmc_max_targets = 8192;
module_param_named(max_targets, hwpmc_max_targets, uint, 0644);
MODULE_PARM_DESC(max_targets, "processes a PMC may have as targets at a time, 0 for no limit (8192)");

bool hwpmc_csw_tracepoint = !IS_ENABLED(CONFIG_PREEMPT_NOTIFIERS);
module_param_named(csw_tracepoint, hwpmc_csw_tracepoint, bool, 0444);
MODULE_PARM_DESC(csw_tracepoint, "follow the context switches of counting targets with the sched_switch tracepoint instead of preempt notifiers (0; always 1 without CONFIG_PREEMPT_NOTIFIERS)");

/*
 * Read-only: the references on the module that preempt notifiers left on
 * former targets and their queued task works hold (rmmod answers EBUSY
 * until those threads return to user mode or exit).
 */
static int hwpmc_csw_pinned_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&hwpmc_csw_pinned));
}

static const struct kernel_param_ops hwpmc_csw_pinned_ops = {
	.get = hwpmc_csw_pinned_get,
};
module_param_cb(csw_pinned, &hwpmc_csw_pinned_ops, NULL, 0444);
MODULE_PARM_DESC(csw_pinned, "module references held by notifiers and task works left in threads (read-only)");

bool hwpmc_unprivileged_kernel;
module_param_named(unprivileged_kernel, hwpmc_unprivileged_kernel, bool, 0644);
MODULE_PARM_DESC(unprivileged_kernel, "allow unprivileged callers kernel mode with PMU (hardware) events and in sampling PMCs (0)");

/*
 * Distinct hardware events a user without CAP_PERFMON may count at once
 * in process counting PMCs: each holds a pinned counter on every CPU
 * (counter sets, hwpmc_csw.c) for as long as a started PMC of it exists.
 */
int hwpmc_unprivileged_counters = HWPMC_UNPRIVILEGED_COUNTERS;

static int hwpmc_counters_set(const char *val, const struct kernel_param *kp)
{
	int v, error;

	error = kstrtoint(val, 0, &v);
	if (error)
		return error;
	if (v < 0 || v > HWPMC_COUNTERS_MAX)
		return -EINVAL;
	WRITE_ONCE(hwpmc_unprivileged_counters, v);
	return 0;
}

static const struct kernel_param_ops hwpmc_counters_ops = {
	.set = hwpmc_counters_set,
	.get = param_get_int,
};

module_param_cb(unprivileged_counters, &hwpmc_counters_ops,
		&hwpmc_unprivileged_counters, 0644);
MODULE_PARM_DESC(unprivileged_counters, "hardware events a user without CAP_PERFMON may count at once in process counting PMCs, each on every CPU, 0.." __stringify(HWPMC_COUNTERS_MAX) " (2)");

int hwpmc_mincount = HWPMC_MINCOUNT;

static int hwpmc_mincount_set(const char *val, const struct kernel_param *kp)
{
	int v, error;

	error = kstrtoint(val, 0, &v);
	if (error)
		return error;
	/*
	 * At run time a bad value is refused; at load time it is kept for
	 * hwpmc_tunables_check() to report and replace, as for the others.
	 */
	if (v < 1 && THIS_MODULE->state == MODULE_STATE_LIVE)
		return -EINVAL;
	WRITE_ONCE(hwpmc_mincount, v);
	return 0;
}

static const struct kernel_param_ops hwpmc_mincount_ops = {
	.set = hwpmc_mincount_set,
	.get = param_get_int,
};

module_param_cb(mincount, &hwpmc_mincount_ops, &hwpmc_mincount, 0644);
MODULE_PARM_DESC(mincount, "minimum sampling reload count, >= 1 (1000)");

/* Out-of-range load-time tunables get hwpmc(4)'s diagnostic and defaults. */
static void hwpmc_tunables_check(void)
{
	if (hwpmc_hashsize <= 0) {
		pr_warn("tunable hashsize=%d must be greater than zero.\n",
			hwpmc_hashsize);
		hwpmc_hashsize = HWPMC_HASHSIZE;
	} else if (hwpmc_hashsize > HWPMC_HASHSIZE_MAX) {
		/* kvcalloc() WARNs beyond INT_MAX bytes: panic_on_warn */
		pr_warn("tunable hashsize=%d too large; using %d.\n",
			hwpmc_hashsize, HWPMC_HASHSIZE_MAX);
		hwpmc_hashsize = HWPMC_HASHSIZE_MAX;
	}
	if (hwpmc_nsamples <= 0 || hwpmc_nsamples > HWPMC_NSAMPLES_MAX) {
		pr_warn("tunable nsamples=%d out of range.\n", hwpmc_nsamples);
		hwpmc_nsamples = HWPMC_NSAMPLES;
	} else if (!is_power_of_2(hwpmc_nsamples)) {
		pr_warn("tunable nsamples=%d is not a power of two; using %lu.\n",
			hwpmc_nsamples, rounddown_pow_of_two(hwpmc_nsamples));
		hwpmc_nsamples = rounddown_pow_of_two(hwpmc_nsamples);
	}
	if (hwpmc_callchaindepth <= 0) {
		pr_warn("tunable callchaindepth=%d must be greater than zero.\n",
			hwpmc_callchaindepth);
		hwpmc_callchaindepth = HWPMC_CALLCHAINDEPTH;
	} else if (hwpmc_callchaindepth > PMC_CALLCHAIN_DEPTH_MAX) {
		pr_warn("tunable callchaindepth=%d too large; using %d.\n",
			hwpmc_callchaindepth, PMC_CALLCHAIN_DEPTH_MAX);
		hwpmc_callchaindepth = PMC_CALLCHAIN_DEPTH_MAX;
	}
	if (hwpmc_maxstackuser < 0 ||
	    hwpmc_maxstackuser > PMC_STACK_USER_MAX) {
		pr_warn("tunable maxstackuser=%d out of range.\n",
			hwpmc_maxstackuser);
		hwpmc_maxstackuser = HWPMC_MAXSTACKUSER;
	}
	hwpmc_maxstackuser = round_down(hwpmc_maxstackuser, 8);
	if (hwpmc_logbuffersize <= 0) {
		pr_warn("tunable logbuffersize=%d must be greater than zero.\n",
			hwpmc_logbuffersize);
		hwpmc_logbuffersize = HWPMC_LOGBUFFERSIZE;
	} else if (hwpmc_logbuffersize > HWPMC_LOGBUFFERSIZE_MAX) {
		pr_warn("tunable logbuffersize=%d too large; using %d.\n",
			hwpmc_logbuffersize, HWPMC_LOGBUFFERSIZE_MAX);
		hwpmc_logbuffersize = HWPMC_LOGBUFFERSIZE_MAX;
	}
	if (hwpmc_nbuffers_pcpu <= 0) {
		pr_warn("tunable nlogbuffers=%d must be greater than zero.\n",
			hwpmc_nbuffers_pcpu);
		hwpmc_nbuffers_pcpu = HWPMC_NBUFFERS_PCPU;
	}
	if ((s64)hwpmc_logbuffersize * hwpmc_nbuffers_pcpu >
	    HWPMC_LOGMEM_PCPU_MAX) {
		pr_warn("tunables logbuffersize=%d and nbuffers_pcpu=%d exceed %d KB per CPU; using the defaults.\n",
			hwpmc_logbuffersize, hwpmc_nbuffers_pcpu,
			HWPMC_LOGMEM_PCPU_MAX);
		hwpmc_logbuffersize = HWPMC_LOGBUFFERSIZE;
		hwpmc_nbuffers_pcpu = HWPMC_NBUFFERS_PCPU;
	}
	if (hwpmc_mincount <= 0) {
		pr_warn("tunable mincount=%d must be greater than zero.\n",
			hwpmc_mincount);
		hwpmc_mincount = HWPMC_MINCOUNT;
	}
	if (hwpmc_softevents <= 0 || hwpmc_softevents > HWPMC_SOFT_ROWS_MAX) {
		pr_warn("tunable softevents=%d out of range.\n",
			hwpmc_softevents);
		hwpmc_softevents = HWPMC_SOFTEVENTS;
	}
}

/* "hwpmc: SOFT/16/64/0x67<INT,USR,SYS,REA,WRI> PMU/7/64/..." */
static void hwpmc_banner(void)
{
	char buf[512], caps[128];
	const struct hwpmc_class *cl;
	int n = 0;

	for (cl = hwpmc_md.classes; cl < hwpmc_md.classes + hwpmc_md.nclass;
	     cl++) {
		hwpmc_caps_string(cl->caps, caps, sizeof(caps));
		n += scnprintf(buf + n, sizeof(buf) - n, " %s/%u/%u/%s",
			       cl->name, cl->num, cl->width, caps);
	}
	pr_info("version %#x,%s\n", PMC_VERSION, buf);
}

static int __init hwpmc_init(void)
{
	int error;

	hwpmc_tunables_check();
	error = hwpmc_tp_init();
	if (error)
		return error;
	error = hwpmc_backend_init(hwpmc_sample_overflow, hwpmc_kapi_overflow);
	if (error)
		return error;
	error = hwpmc_rows_init();
	if (error)
		goto fail_backend;
	error = hwpmc_log_init();
	if (error)
		goto fail_mod;
	error = hwpmc_sample_init();
	if (error)
		goto fail_log;
	error = hwpmc_csw_init();
	if (error)
		goto fail_sample;
	error = hwpmc_watch_init(hwpmc_pmc_process_gone);
	if (error)
		goto fail_csw;
	error = hwpmc_pmc_init();
	if (error)
		goto fail_watch;
	error = hwpmc_hooks_init(hwpmc_pmc_born);
	if (error)
		goto fail_pmc;
	error = hwpmc_lifecycle_init();
	if (error)
		goto fail_hooks;
	error = hwpmc_kapi_init();
	if (error)
		goto fail_lifecycle;
	error = hwpmc_dev_init();
	if (error)
		goto fail_kapi;
	hwpmc_banner();
	return 0;

fail_kapi:
	hwpmc_kapi_fini();
fail_lifecycle:
	hwpmc_lifecycle_fini();
fail_hooks:
	hwpmc_hooks_fini();
fail_pmc:
	hwpmc_watch_flush();
	hwpmc_pmc_fini();
fail_watch:
	hwpmc_watch_fini();
fail_csw:
	hwpmc_csw_fini();
fail_sample:
	hwpmc_sample_fini();
fail_log:
	hwpmc_log_fini();
fail_mod:
	hwpmc_rows_fini();
fail_backend:
	hwpmc_backend_fini();
	return error;
}

static void __exit hwpmc_exit(void)
{
	hwpmc_dev_fini();
	hwpmc_kapi_fini();
	hwpmc_lifecycle_fini();
	hwpmc_hooks_fini();
	hwpmc_watch_flush();	/* no probe notes now */
	hwpmc_pmc_fini();
	hwpmc_watch_fini();
	hwpmc_csw_fini();
	hwpmc_sample_fini();
	hwpmc_log_fini();
	hwpmc_rows_fini();
	hwpmc_backend_fini();
}

module_init(hwpmc_init);
module_exit(hwpmc_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("hwpmc for Linux developers");
MODULE_DESCRIPTION("Hardware performance monitoring counters, FreeBSD hwpmc(4) semantics");
MODULE_VERSION(HWPMC_VERSION_STRING);
