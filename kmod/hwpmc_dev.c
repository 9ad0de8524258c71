// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: /dev/hwpmc and the PMC_OP_* ioctls.
 *
 * Dispatch: a command whose type is not ours or whose number names no
 * operation is ENOTTY; a command naming an operation with another size
 * or direction than the ABI's is EINVAL; every operation of the ABI has
 * a handler (PMCGETMSR's answer is at best EOPNOTSUPP, below).  Each
 * operation copies its argument in, checks reserved fields, and copies
 * results out.
 */
#define pr_fmt(fmt) "hwpmc: " fmt

#include <linux/kernel.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "hwpmc_internal.h"
#include "hwpmc_dev.h"
#include "hwpmc_ops.h"
#include "hwpmc_owner.h"
#include "hwpmc_rows.h"
#include "hwpmc_log.h"
#include "hwpmc_backend.h"

typedef int (*hwpmc_op_fn)(struct file *file, void __user *uarg);

static int hwpmc_op_getmoduleversion(struct file *file, void __user *uarg)
{
	u32 __user *up = uarg;
	u32 cv;

	if (get_user(cv, up))
		return -EFAULT;
	if (put_user((u32)PMC_VERSION, up))
		return -EFAULT;
	/* a client of a newer major.minor is refused, told our version */
	if ((cv & 0xFFFF0000) > (PMC_VERSION & 0xFFFF0000))
		return -EPROTO;
	return 0;
}

static int hwpmc_op_getcpuinfo(struct file *file, void __user *uarg)
{
	struct pmc_op_getcpuinfo ci;
	const struct hwpmc_class *cl;
	u32 i;

	memset(&ci, 0, sizeof(ci));
	ci.pm_cputype = hwpmc_md.cputype;
	ci.pm_ncpu = nr_cpu_ids;
	ci.pm_npmc = hwpmc_md.npmc;
	ci.pm_nclass = hwpmc_md.nclass;
	for (i = 0; i < hwpmc_md.nclass; i++) {
		cl = &hwpmc_md.classes[i];
		ci.pm_classes[i].pm_class = cl->class;
		ci.pm_classes[i].pm_caps = cl->caps;
		ci.pm_classes[i].pm_width = cl->width;
		ci.pm_classes[i].pm_num = cl->num;
	}
	return copy_to_user(uarg, &ci, sizeof(ci)) ? -EFAULT : 0;
}

static int hwpmc_op_getdriverstats(struct file *file, void __user *uarg)
{
	struct pmc_op_getdriverstats st;

	hwpmc_stats_get(&st);
	return copy_to_user(uarg, &st, sizeof(st)) ? -EFAULT : 0;
}

/*
 * Variable-size results (GETPMCINFO, GETDYNEVENTINFO) follow one rule: a
 * null array pointer asks for the count only; an array with less room
 * than needed gets E2BIG, the needed count being returned either way.
 */
static int hwpmc_put_count(void __user *ucount, u32 needed, u32 room,
			   u64 uptr)
{
	if (put_user(needed, (u32 __user *)ucount))
		return -EFAULT;
	if (!uptr)
		return 0;
	return room < needed ? -E2BIG : 1;
}

static int hwpmc_op_getpmcinfo(struct file *file, void __user *uarg)
{
	struct pmc_op_getpmcinfo __user *up = uarg;
	struct pmc_op_getpmcinfo gi;
	struct pmc_info *pi;
	struct hwpmc_pmc *holder;
	u32 ri, n = hwpmc_md.npmc;
	int error;

	if (copy_from_user(&gi, up, sizeof(gi)))
		return -EFAULT;
	if (gi.pm_cpu < 0 || gi.pm_cpu >= nr_cpu_ids)
		return -EINVAL;
	if (!cpu_online(gi.pm_cpu))
		return -ENXIO;
	error = hwpmc_put_count(&up->pm_npmc, n, gi.pm_npmc, gi.pm_pmcs);
	if (error <= 0)
		return error;

	error = 0;
	pi = kvcalloc(n, sizeof(*pi), GFP_KERNEL);
	if (!pi)
		return -ENOMEM;
	down_read(&hwpmc_sx);
	for (ri = 0; ri < n && !error; ri++) {
		error = hwpmc_describe_row(gi.pm_cpu, ri, &pi[ri], &holder);
		if (!error && holder)
			hwpmc_pmc_describe(holder, &pi[ri]);
	}
	if (!error)
		hwpmc_describe_thread_rows(gi.pm_cpu, pi, n);
	up_read(&hwpmc_sx);
	if (!error && copy_to_user(u64_to_user_ptr(gi.pm_pmcs), pi,
				   n * sizeof(*pi)))
		error = -EFAULT;
	kvfree(pi);
	return error;
}

static int hwpmc_op_pmcadmin(struct file *file, void __user *uarg)
{
	struct pmc_op_pmcadmin pa;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (copy_from_user(&pa, uarg, sizeof(pa)))
		return -EFAULT;
	if (pa.pm_flags || pa.pm_pmc < 0)
		return -EINVAL;
	return hwpmc_admin(pa.pm_cpu, pa.pm_pmc, pa.pm_state);
}

static int hwpmc_op_getdyneventinfo(struct file *file, void __user *uarg)
{
	struct pmc_op_getdyneventinfo __user *up = uarg;
	struct pmc_op_getdyneventinfo gd;
	struct pmc_dyn_event_descr *d;
	const struct hwpmc_class *cl;
	u32 i;
	int error;

	if (copy_from_user(&gd, up, sizeof(gd)))
		return -EFAULT;
	cl = hwpmc_class_find(gd.pm_class);
	if (!cl)
		return -EINVAL;
	error = hwpmc_put_count(&up->pm_nevent, cl->nevents, gd.pm_nevent,
				gd.pm_events);
	if (error <= 0)
		return error;

	d = kvcalloc(cl->nevents, sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	for (i = 0; i < cl->nevents; i++) {
		strscpy(d[i].pm_ev_name, cl->events[i].name,
			sizeof(d[i].pm_ev_name));
		d[i].pm_ev_code = cl->events[i].code;
		d[i].pm_ev_caps = cl->events[i].caps;
	}
	error = 0;
	if (copy_to_user(u64_to_user_ptr(gd.pm_events), d,
			 cl->nevents * sizeof(*d)))
		error = -EFAULT;
	kvfree(d);
	return error;
}

static int hwpmc_op_getcaps(struct file *file, void __user *uarg)
{
	struct pmc_op_caps gc;
	const struct hwpmc_class *cl;
	const struct hwpmc_event *ev;
	int error;

	if (copy_from_user(&gc, uarg, sizeof(gc)))
		return -EFAULT;
	if (gc.pm_pmcid != PMC_ID_INVALID) {
		error = hwpmc_pmc_caps(gc.pm_pmcid, &gc.pm_caps);
		if (error)
			return error;
		return copy_to_user(uarg, &gc, sizeof(gc)) ? -EFAULT : 0;
	}
	cl = hwpmc_class_find(gc.pm_class);
	if (!cl)
		return -EINVAL;
	ev = hwpmc_event_find(cl, gc.pm_ev);
	if (!ev)
		return -EINVAL;
	gc.pm_caps = ev->caps;
	return copy_to_user(uarg, &gc, sizeof(gc)) ? -EFAULT : 0;
}

/* PMCALLOCATE of pa, the event named evname ("": the module's name). */
static int hwpmc_allocate_named(struct file *file, void __user *uarg,
				struct pmc_op_pmcallocate *pa,
				const char *evname)
{
	int error = hwpmc_pmc_allocate(file, pa, evname);

	if (error)
		return error;
	if (put_user(pa->pm_pmcid,
		     &((struct pmc_op_pmcallocate __user *)uarg)->pm_pmcid)) {
		/* the caller cannot learn the id: don't leave it allocated */
		hwpmc_pmc_release(pa->pm_pmcid);
		return -EFAULT;
	}
	return 0;
}

static int hwpmc_op_pmcallocate(struct file *file, void __user *uarg)
{
	struct pmc_op_pmcallocate pa;

	if (copy_from_user(&pa, uarg, sizeof(pa)))
		return -EFAULT;
	return hwpmc_allocate_named(file, uarg, &pa, "");
}

/*
 * PMCALLOCATE with the event's name for the log: printable ASCII ended
 * by a NUL within pm_evname, reserved fields zero.  (pm_a comes first,
 * so pm_pmcid is where the plain operation's is.)
 */
static int hwpmc_op_pmcallocate_named(struct file *file, void __user *uarg)
{
	struct pmc_op_pmcallocate_named pn;
	size_t i;

	if (copy_from_user(&pn, uarg, sizeof(pn)))
		return -EFAULT;
	for (i = 0; i < sizeof(pn.pm_evname) && pn.pm_evname[i]; i++)
		if (pn.pm_evname[i] < 0x20 || pn.pm_evname[i] > 0x7e)
			return -EINVAL;
	if (i == sizeof(pn.pm_evname) || pn.pm__reserved[0] ||
	    pn.pm__reserved[1])
		return -EINVAL;
	return hwpmc_allocate_named(file, uarg, &pn.pm_a, pn.pm_evname);
}

static int hwpmc_op_pmcattach(struct file *file, void __user *uarg)
{
	struct pmc_op_pmcattach a;

	if (copy_from_user(&a, uarg, sizeof(a)))
		return -EFAULT;
	return hwpmc_pmc_attach(a.pm_pmc, a.pm_pid);
}

static int hwpmc_op_pmcdetach(struct file *file, void __user *uarg)
{
	struct pmc_op_pmcattach a;

	if (copy_from_user(&a, uarg, sizeof(a)))
		return -EFAULT;
	return hwpmc_pmc_detach(a.pm_pmc, a.pm_pid);
}

/* PMCSTART, PMCSTOP, PMCRELEASE */
static int hwpmc_get_simple(void __user *uarg, u32 *id)
{
	struct pmc_op_simple sp;

	if (copy_from_user(&sp, uarg, sizeof(sp)))
		return -EFAULT;
	if (sp.pm__pad)
		return -EINVAL;
	*id = sp.pm_pmcid;
	return 0;
}

static int hwpmc_op_pmcstart(struct file *file, void __user *uarg)
{
	u32 id;

	return hwpmc_get_simple(uarg, &id) ?: hwpmc_pmc_start(id);
}

static int hwpmc_op_pmcstop(struct file *file, void __user *uarg)
{
	u32 id;

	return hwpmc_get_simple(uarg, &id) ?: hwpmc_pmc_stop(id);
}

static int hwpmc_op_pmcrelease(struct file *file, void __user *uarg)
{
	u32 id;

	return hwpmc_get_simple(uarg, &id) ?: hwpmc_pmc_release(id);
}

static int hwpmc_op_pmcrw(struct file *file, void __user *uarg)
{
	struct pmc_op_pmcrw rw;
	int error;

	if (copy_from_user(&rw, uarg, sizeof(rw)))
		return -EFAULT;
	error = hwpmc_pmc_rw(rw.pm_pmcid, rw.pm_flags, &rw.pm_value);
	if (error)
		return error;
	return copy_to_user(uarg, &rw, sizeof(rw)) ? -EFAULT : 0;
}

/* PMCRW_TIMES: a read only; pm__pad and pm__reserved zero. */
static int hwpmc_op_pmcrw_times(struct file *file, void __user *uarg)
{
	struct pmc_op_pmcrw_times rt;
	int error;

	if (copy_from_user(&rt, uarg, sizeof(rt)))
		return -EFAULT;
	if (rt.pm_rw.pm_flags != PMC_F_OLDVALUE || rt.pm__pad ||
	    rt.pm__reserved[0] || rt.pm__reserved[1])
		return -EINVAL;
	error = hwpmc_pmc_rw_times(rt.pm_rw.pm_pmcid, &rt.pm_rw.pm_value,
				   &rt.pm_enabled, &rt.pm_running,
				   &rt.pm_tflags);
	if (error)
		return error;
	return copy_to_user(uarg, &rt, sizeof(rt)) ? -EFAULT : 0;
}

static int hwpmc_op_pmcsetcount(struct file *file, void __user *uarg)
{
	struct pmc_op_pmcsetcount sc;

	if (copy_from_user(&sc, uarg, sizeof(sc)))
		return -EFAULT;
	if (sc.pm__pad)
		return -EINVAL;
	return hwpmc_pmc_setcount(sc.pm_pmcid, sc.pm_count);
}

/*
 * PMCGETMSR: EINVAL for a PMC that FreeBSD would never let be read
 * directly, and EOPNOTSUPP for one it would: perf owns the counters, and
 * no direct user-space read is offered (docs/design.md, decision 25).
 * FreeBSD answers ENOSYS for hardware without direct reads; in the kernel
 * ENOSYS means only "no such system call", so libhwpmc's pmc_get_msr()
 * turns EOPNOTSUPP into ENOSYS.
 */
static int hwpmc_op_pmcgetmsr(struct file *file, void __user *uarg)
{
	struct pmc_op_getmsr gm;

	if (copy_from_user(&gm, uarg, sizeof(gm)))
		return -EFAULT;
	return hwpmc_pmc_getmsr(gm.pm_pmcid);
}

static int hwpmc_op_configurelog(struct file *file, void __user *uarg)
{
	struct pmc_op_configurelog cl;

	if (copy_from_user(&cl, uarg, sizeof(cl)))
		return -EFAULT;
	if (cl.pm_flags & ~PMC_LOG_KERNEL_PROFILES)
		return -EINVAL;
	return hwpmc_pmc_configurelog(file, cl.pm_logfd, cl.pm_flags);
}

static int hwpmc_op_flushlog(struct file *file, void __user *uarg)
{
	return hwpmc_pmc_flushlog();
}

static int hwpmc_op_closelog(struct file *file, void __user *uarg)
{
	return hwpmc_pmc_closelog();
}

static int hwpmc_op_writelog(struct file *file, void __user *uarg)
{
	struct pmc_op_writelog wl;

	if (copy_from_user(&wl, uarg, sizeof(wl)))
		return -EFAULT;
	if (wl.pm__pad)
		return -EINVAL;
	return hwpmc_pmc_writelog(wl.pm_userdata);
}

/* The operations, indexed by PMC_OP_*; a NULL fn would be EOPNOTSUPP. */
static const struct {
	unsigned int	cmd;
	hwpmc_op_fn	fn;
} hwpmc_ops[PMC_OP_MAX + 1] = {
	[PMC_OP_CONFIGURELOG]	= { HWPMC_IOC_CONFIGURELOG,
				    hwpmc_op_configurelog },
	[PMC_OP_FLUSHLOG]	= { HWPMC_IOC_FLUSHLOG, hwpmc_op_flushlog },
	[PMC_OP_GETCPUINFO]	= { HWPMC_IOC_GETCPUINFO, hwpmc_op_getcpuinfo },
	[PMC_OP_GETDRIVERSTATS]	= { HWPMC_IOC_GETDRIVERSTATS,
				    hwpmc_op_getdriverstats },
	[PMC_OP_GETMODULEVERSION] = { HWPMC_IOC_GETMODULEVERSION,
				      hwpmc_op_getmoduleversion },
	[PMC_OP_GETPMCINFO]	= { HWPMC_IOC_GETPMCINFO, hwpmc_op_getpmcinfo },
	[PMC_OP_PMCADMIN]	= { HWPMC_IOC_PMCADMIN, hwpmc_op_pmcadmin },
	[PMC_OP_PMCALLOCATE]	= { HWPMC_IOC_PMCALLOCATE, hwpmc_op_pmcallocate },
	[PMC_OP_PMCATTACH]	= { HWPMC_IOC_PMCATTACH, hwpmc_op_pmcattach },
	[PMC_OP_PMCDETACH]	= { HWPMC_IOC_PMCDETACH, hwpmc_op_pmcdetach },
	[PMC_OP_PMCGETMSR]	= { HWPMC_IOC_PMCGETMSR, hwpmc_op_pmcgetmsr },
	[PMC_OP_PMCRELEASE]	= { HWPMC_IOC_PMCRELEASE, hwpmc_op_pmcrelease },
	[PMC_OP_PMCRW]		= { HWPMC_IOC_PMCRW, hwpmc_op_pmcrw },
	[PMC_OP_PMCSETCOUNT]	= { HWPMC_IOC_PMCSETCOUNT, hwpmc_op_pmcsetcount },
	[PMC_OP_PMCSTART]	= { HWPMC_IOC_PMCSTART, hwpmc_op_pmcstart },
	[PMC_OP_PMCSTOP]	= { HWPMC_IOC_PMCSTOP, hwpmc_op_pmcstop },
	[PMC_OP_WRITELOG]	= { HWPMC_IOC_WRITELOG, hwpmc_op_writelog },
	[PMC_OP_CLOSELOG]	= { HWPMC_IOC_CLOSELOG, hwpmc_op_closelog },
	[PMC_OP_GETDYNEVENTINFO] = { HWPMC_IOC_GETDYNEVENTINFO,
				     hwpmc_op_getdyneventinfo },
	[PMC_OP_GETCAPS]	= { HWPMC_IOC_GETCAPS, hwpmc_op_getcaps },
};

static long hwpmc_ioctl(struct file *file, unsigned int cmd,
			unsigned long arg)
{
	unsigned int nr = _IOC_NR(cmd);
	long error;

	if (_IOC_TYPE(cmd) != HWPMC_IOC_MAGIC || nr > PMC_OP_MAX)
		return -ENOTTY;
	hwpmc_stat_inc(syscalls);
	if (cmd == HWPMC_IOC_PMCALLOCATE_NAMED)
		error = hwpmc_op_pmcallocate_named(file, (void __user *)arg);
	else if (cmd == HWPMC_IOC_PMCRW_TIMES)
		error = hwpmc_op_pmcrw_times(file, (void __user *)arg);
	else if (cmd != hwpmc_ops[nr].cmd)
		error = -EINVAL;	/* wrong size or direction */
	else if (!hwpmc_ops[nr].fn)
		error = -EOPNOTSUPP;	/* later versions */
	else
		error = hwpmc_ops[nr].fn(file, (void __user *)arg);
	if (error)
		hwpmc_stat_inc(syscall_errors);
	return error;
}

/*
 * pread(2) and pwrite(2) at the offset of a PMC id: PMCRW with
 * PMC_F_OLDVALUE, and with PMC_F_NEWVALUE, of one 8-byte value, without
 * the ioctl's argument copies and generic checks (pmc_read(3) and
 * pmc_write(3) take this way; hwpmc.4).  The file offset itself is never
 * moved: read(2) and write(2) are at offset 0, which no PMC id has.
 */
static int hwpmc_rw_id(size_t count, loff_t pos, u32 *id)
{
	hwpmc_stat_inc(syscalls);
	if (count != sizeof(u64) || pos < 0 || pos > U32_MAX) {
		hwpmc_stat_inc(syscall_errors);
		return -EINVAL;
	}
	*id = pos;
	return 0;
}

static ssize_t hwpmc_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	u64 value;
	u32 id;
	int error;

	error = hwpmc_rw_id(count, *ppos, &id);
	if (error)
		return error;
	error = hwpmc_pmc_rw(id, PMC_F_OLDVALUE, &value);
	if (!error && put_user(value, (u64 __user *)buf))
		error = -EFAULT;
	if (error) {
		hwpmc_stat_inc(syscall_errors);
		return error;
	}
	return sizeof(value);
}

static ssize_t hwpmc_write(struct file *file, const char __user *buf,
			   size_t count, loff_t *ppos)
{
	u64 value;
	u32 id;
	int error;

	error = hwpmc_rw_id(count, *ppos, &id);
	if (error)
		return error;
	if (get_user(value, (const u64 __user *)buf))
		error = -EFAULT;
	else
		error = hwpmc_pmc_rw(id, PMC_F_NEWVALUE, &value);
	if (error) {
		hwpmc_stat_inc(syscall_errors);
		return error;
	}
	return sizeof(value);
}

static int hwpmc_open(struct inode *inode, struct file *file)
{
	struct hwpmc_file *pf = kzalloc(sizeof(*pf), GFP_KERNEL);

	if (!pf)
		return -ENOMEM;
	file->private_data = pf;
	return 0;
}

/* The last close: PMCs allocated through this file go with it. */
static int hwpmc_release(struct inode *inode, struct file *file)
{
	hwpmc_pmc_file_release(file);
	kfree(file->private_data);
	return 0;
}

static int hwpmc_fasync(int fd, struct file *file, int on)
{
	struct hwpmc_file *pf = file->private_data;

	return fasync_helper(fd, file, on, &pf->fasync);
}

static const struct file_operations hwpmc_fops = {
	.owner		= THIS_MODULE,
	.open		= hwpmc_open,
	.release	= hwpmc_release,
	.fasync		= hwpmc_fasync,
	.read		= hwpmc_read,
	.write		= hwpmc_write,
	.unlocked_ioctl	= hwpmc_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= noop_llseek,
};

static struct miscdevice hwpmc_miscdev = {
	.minor		= MISC_DYNAMIC_MINOR,
	.name		= PMC_MODULE_NAME,
	.fops		= &hwpmc_fops,
	.mode		= 0660,
};

int hwpmc_dev_init(void)
{
	return misc_register(&hwpmc_miscdev);
}

void hwpmc_dev_fini(void)
{
	misc_deregister(&hwpmc_miscdev);
}
