// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: /dev/hwpmc and the PMC_OP_* ioctls.
 *
 * Dispatch: a command whose type is not ours or whose number names no
 * operation is ENOTTY; a command naming an operation with another size
 * or direction than the ABI's is EINVAL; an operation this version does
 * not implement yet is EOPNOTSUPP (hwpmc(4) lists them).  Each operation
 * copies its argument in, checks reserved fields, and copies results out.
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

typedef int (*hwpmc_op_fn)(void __user *uarg);

static int hwpmc_op_getmoduleversion(void __user *uarg)
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

static int hwpmc_op_getcpuinfo(void __user *uarg)
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

static int hwpmc_op_getdriverstats(void __user *uarg)
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

static int hwpmc_op_getpmcinfo(void __user *uarg)
{
	struct pmc_op_getpmcinfo __user *up = uarg;
	struct pmc_op_getpmcinfo gi;
	struct pmc_info *pi;
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
	for (ri = 0; ri < n && !error; ri++)
		error = hwpmc_describe_row(gi.pm_cpu, ri, &pi[ri]);
	up_read(&hwpmc_sx);
	if (!error && copy_to_user(u64_to_user_ptr(gi.pm_pmcs), pi,
				   n * sizeof(*pi)))
		error = -EFAULT;
	kvfree(pi);
	return error;
}

static int hwpmc_op_pmcadmin(void __user *uarg)
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

static int hwpmc_op_getdyneventinfo(void __user *uarg)
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

static int hwpmc_op_getcaps(void __user *uarg)
{
	struct pmc_op_caps gc;
	const struct hwpmc_class *cl;
	const struct hwpmc_event *ev;

	if (copy_from_user(&gc, uarg, sizeof(gc)))
		return -EFAULT;
	if (gc.pm_pmcid != PMC_ID_INVALID) {
		/* no PMC can be allocated yet: the caller owns none */
		return -ESRCH;
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

/* The operations, indexed by PMC_OP_*; a NULL fn is not implemented yet. */
static const struct {
	unsigned int	cmd;
	hwpmc_op_fn	fn;
} hwpmc_ops[PMC_OP_MAX + 1] = {
	[PMC_OP_CONFIGURELOG]	= { HWPMC_IOC_CONFIGURELOG, NULL },
	[PMC_OP_FLUSHLOG]	= { HWPMC_IOC_FLUSHLOG, NULL },
	[PMC_OP_GETCPUINFO]	= { HWPMC_IOC_GETCPUINFO, hwpmc_op_getcpuinfo },
	[PMC_OP_GETDRIVERSTATS]	= { HWPMC_IOC_GETDRIVERSTATS,
				    hwpmc_op_getdriverstats },
	[PMC_OP_GETMODULEVERSION] = { HWPMC_IOC_GETMODULEVERSION,
				      hwpmc_op_getmoduleversion },
	[PMC_OP_GETPMCINFO]	= { HWPMC_IOC_GETPMCINFO, hwpmc_op_getpmcinfo },
	[PMC_OP_PMCADMIN]	= { HWPMC_IOC_PMCADMIN, hwpmc_op_pmcadmin },
	[PMC_OP_PMCALLOCATE]	= { HWPMC_IOC_PMCALLOCATE, NULL },
	[PMC_OP_PMCATTACH]	= { HWPMC_IOC_PMCATTACH, NULL },
	[PMC_OP_PMCDETACH]	= { HWPMC_IOC_PMCDETACH, NULL },
	[PMC_OP_PMCGETMSR]	= { HWPMC_IOC_PMCGETMSR, NULL },
	[PMC_OP_PMCRELEASE]	= { HWPMC_IOC_PMCRELEASE, NULL },
	[PMC_OP_PMCRW]		= { HWPMC_IOC_PMCRW, NULL },
	[PMC_OP_PMCSETCOUNT]	= { HWPMC_IOC_PMCSETCOUNT, NULL },
	[PMC_OP_PMCSTART]	= { HWPMC_IOC_PMCSTART, NULL },
	[PMC_OP_PMCSTOP]	= { HWPMC_IOC_PMCSTOP, NULL },
	[PMC_OP_WRITELOG]	= { HWPMC_IOC_WRITELOG, NULL },
	[PMC_OP_CLOSELOG]	= { HWPMC_IOC_CLOSELOG, NULL },
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
	if (cmd != hwpmc_ops[nr].cmd)
		error = -EINVAL;	/* wrong size or direction */
	else if (!hwpmc_ops[nr].fn)
		error = -EOPNOTSUPP;	/* later versions */
	else
		error = hwpmc_ops[nr].fn((void __user *)arg);
	if (error)
		hwpmc_stat_inc(syscall_errors);
	return error;
}

static int hwpmc_open(struct inode *inode, struct file *file)
{
	return nonseekable_open(inode, file);
}

static const struct file_operations hwpmc_fops = {
	.owner		= THIS_MODULE,
	.open		= hwpmc_open,
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
