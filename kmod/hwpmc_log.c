// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: the log (FreeBSD's hwpmc_logging.c).
 *
 * An owner configures a log with a file descriptor it can write: a
 * regular file, a pipe, a socket or a character device with write_iter.
 * Records (include/uapi/linux/hwpmclog.h) are appended to the owner's
 * current buffer; full buffers go to a writer, a work item that writes
 * them with the credentials of the owner at configure time.  Buffers of
 * `logbuffersize` KB come from a pool shared by all logs, of at most
 * `nbuffers_pcpu` buffers per CPU; the pool is filled in process context
 * only, so that appending never sleeps and works in any context but NMI
 * (the scheduler's and the kprobe's included).  When no buffer is left
 * a record is dropped and counted, and the next record that fits is
 * preceded by a DROPNOTIFY record giving the number lost.
 *
 * The writer never blocks on a reader: pipes and sockets are written
 * with IOCB_NOWAIT and retried every 20 ms while they are full, so a
 * reader that stops reading costs buffers (then drops), never a hung
 * task.  Any other write error (EPIPE, ENOSPC, EIO, ...) ends the log:
 * the error is kept and returned by the next FLUSHLOG, pending and
 * further records are dropped, and the owner gets SIGIO (O_ASYNC).
 * A closed log is written out in the background; a reader that reads
 * nothing for HWPMC_LOG_LINGER ends it.  Module unload drops whatever
 * is still pending.
 */
#define pr_fmt(fmt) "hwpmc: " fmt

#include <linux/kernel.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/uio.h>
#include <linux/utsname.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/hwpmclog.h>

#include "hwpmc_internal.h"

#define HWPMC_LOG_RETRY		(HZ / 50)	/* a full pipe or socket */
#define HWPMC_LOG_PERIOD	HZ		/* partial buffers go out */
#define HWPMC_LOG_LINGER	(10 * HZ)	/* closed, reader gone */

struct hwpmc_logbuf {
	struct list_head	link;
	u32			fill;		/* bytes of records */
	u32			done;		/* bytes written */
	char			data[];
};

struct hwpmc_log {
	raw_spinlock_t		lock;
	struct hwpmc_logbuf	*cur;		/* being filled */
	struct list_head	full;		/* to write, in order */
	u64			dropped;	/* since the last DROPNOTIFY */
	int			error;		/* first write error */
	bool			closed;		/* takes no more records */
	bool			finished;	/* the writer is done */
	bool			writing;	/* a buffer is off the list */
	struct file		*file;
	const struct cred	*cred;
	struct pid_namespace	*pidns;		/* the owner's: records' pids */
	struct file		*devfile;	/* SIGIO goes to its O_ASYNC */
	unsigned long		progress;	/* jiffies of the last write */
	struct delayed_work	work;
	struct work_struct	free_work;
	struct irq_work		kick;
	wait_queue_head_t	wq;		/* FLUSHLOG */
	struct list_head	link;		/* hwpmc_logs */
	refcount_t		ref;		/* the log's life, flushers */
	struct rcu_head		rcu;
};

static struct workqueue_struct *hwpmc_log_wq;
static DEFINE_MUTEX(hwpmc_logs_lock);
static LIST_HEAD(hwpmc_logs);
static bool hwpmc_log_aborting;

/* -- the buffer pool ------------------------------------------------------- */

static DEFINE_RAW_SPINLOCK(hwpmc_pool_lock);
static LIST_HEAD(hwpmc_pool);
static unsigned int hwpmc_pool_free;		/* buffers in hwpmc_pool */
static unsigned int hwpmc_pool_total;		/* allocated, all told */
static unsigned int hwpmc_pool_max;
static unsigned int hwpmc_nlogs;		/* open logs */
static u32 hwpmc_bufsize;			/* bytes of records */
static DEFINE_MUTEX(hwpmc_pool_fill_lock);

static void hwpmc_pool_fill_fn(struct work_struct *work);
static DECLARE_WORK(hwpmc_pool_work, hwpmc_pool_fill_fn);

static void hwpmc_pool_kick_fn(struct irq_work *w)
{
	queue_work(system_unbound_wq, &hwpmc_pool_work);
}

static struct irq_work hwpmc_pool_kick;

/* A free buffer, or NULL; any context but NMI. */
static struct hwpmc_logbuf *hwpmc_buf_get(void)
{
	struct hwpmc_logbuf *lb;
	unsigned long flags;

	hwpmc_stat_inc(buffer_requests);
	raw_spin_lock_irqsave(&hwpmc_pool_lock, flags);
	lb = list_first_entry_or_null(&hwpmc_pool, struct hwpmc_logbuf, link);
	if (lb) {
		list_del(&lb->link);
		hwpmc_pool_free--;
	}
	raw_spin_unlock_irqrestore(&hwpmc_pool_lock, flags);
	if (!lb)
		hwpmc_stat_inc(buffer_requests_failed);
	irq_work_queue(&hwpmc_pool_kick);	/* keep some in reserve */
	if (lb) {
		lb->fill = 0;
		lb->done = 0;
	}
	return lb;
}

static void hwpmc_buf_put(struct hwpmc_logbuf *lb)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&hwpmc_pool_lock, flags);
	list_add(&lb->link, &hwpmc_pool);
	hwpmc_pool_free++;
	raw_spin_unlock_irqrestore(&hwpmc_pool_lock, flags);
}

/* Keep two free buffers per open log, within the limit; may sleep. */
static void hwpmc_pool_fill(void)
{
	struct hwpmc_logbuf *lb;
	unsigned int want;
	unsigned long flags;

	mutex_lock(&hwpmc_pool_fill_lock);
	for (;;) {
		raw_spin_lock_irqsave(&hwpmc_pool_lock, flags);
		want = 2 * READ_ONCE(hwpmc_nlogs) + 1;
		if (hwpmc_pool_free >= want ||
		    hwpmc_pool_total >= hwpmc_pool_max) {
			raw_spin_unlock_irqrestore(&hwpmc_pool_lock, flags);
			break;
		}
		raw_spin_unlock_irqrestore(&hwpmc_pool_lock, flags);
		lb = vmalloc(sizeof(*lb) + hwpmc_bufsize);
		if (!lb)
			break;
		raw_spin_lock_irqsave(&hwpmc_pool_lock, flags);
		hwpmc_pool_total++;
		list_add(&lb->link, &hwpmc_pool);
		hwpmc_pool_free++;
		raw_spin_unlock_irqrestore(&hwpmc_pool_lock, flags);
	}
	mutex_unlock(&hwpmc_pool_fill_lock);
}

static void hwpmc_pool_fill_fn(struct work_struct *work)
{
	hwpmc_pool_fill();
}

/* -- appending records ------------------------------------------------------ */

static void hwpmc_log_kick_fn(struct irq_work *w)
{
	struct hwpmc_log *lg = container_of(w, struct hwpmc_log, kick);

	mod_delayed_work(hwpmc_log_wq, &lg->work, 0);
}

/* len bytes at the end of the current buffer; lg->lock held. */
static void *hwpmc_log_space(struct hwpmc_log *lg, u32 len)
{
	void *p;

	if (lg->cur && lg->cur->fill + len > hwpmc_bufsize) {
		list_add_tail(&lg->cur->link, &lg->full);
		lg->cur = NULL;
		irq_work_queue(&lg->kick);
	}
	if (!lg->cur) {
		lg->cur = hwpmc_buf_get();
		if (!lg->cur)
			return NULL;
	}
	p = lg->cur->data + lg->cur->fill;
	lg->cur->fill += len;
	memset(p, 0, len);
	return p;
}

/*
 * Records name processes and threads by their ids in the owner's pid
 * namespace (0: not visible there), as getpid() does for it; callers
 * give the initial namespace's.  The fields of each record type that
 * hold one, by offset.
 */
static const struct {
	u8	type;
	u8	off[2];
} hwpmc_log_pidfields[] = {
	{ PMCLOG_TYPE_PMCATTACH, { offsetof(struct pmclog_pmcattach, pl_pid) } },
	{ PMCLOG_TYPE_PMCDETACH, { offsetof(struct pmclog_pmcdetach, pl_pid) } },
	{ PMCLOG_TYPE_PROCCSW, { offsetof(struct pmclog_proccsw, pl_pid),
				 offsetof(struct pmclog_proccsw, pl_tid) } },
	{ PMCLOG_TYPE_PROCEXEC, { offsetof(struct pmclog_procexec, pl_pid) } },
	{ PMCLOG_TYPE_PROCEXIT, { offsetof(struct pmclog_procexit, pl_pid) } },
	{ PMCLOG_TYPE_PROCFORK, { offsetof(struct pmclog_procfork, pl_oldpid),
				  offsetof(struct pmclog_procfork, pl_newpid) } },
	{ PMCLOG_TYPE_SYSEXIT, { offsetof(struct pmclog_sysexit, pl_pid) } },
	{ PMCLOG_TYPE_USERDATA, { offsetof(struct pmclog_userdata, pl_pid) } },
	{ PMCLOG_TYPE_MAP_IN, { offsetof(struct pmclog_map_in, pl_pid) } },
	{ PMCLOG_TYPE_MAP_OUT, { offsetof(struct pmclog_map_out, pl_pid) } },
	{ PMCLOG_TYPE_CALLCHAIN, { offsetof(struct pmclog_callchain, pl_pid),
				   offsetof(struct pmclog_callchain, pl_tid) } },
	{ PMCLOG_TYPE_THR_CREATE, { offsetof(struct pmclog_thr_create, pl_tid),
				    offsetof(struct pmclog_thr_create, pl_pid) } },
	{ PMCLOG_TYPE_THR_EXIT, { offsetof(struct pmclog_thr_exit, pl_tid) } },
	{ PMCLOG_TYPE_PROC_CREATE, { offsetof(struct pmclog_proc_create,
					      pl_pid) } },
};

/* Translate the ids of record r (of type, in the log's buffer). */
static void hwpmc_log_pids(struct hwpmc_log *lg, u32 type, char *r)
{
	struct pid *pid;
	u32 nr;
	int i, j;

	for (i = 0; i < ARRAY_SIZE(hwpmc_log_pidfields); i++) {
		if (hwpmc_log_pidfields[i].type != type)
			continue;
		for (j = 0; j < 2 && hwpmc_log_pidfields[i].off[j]; j++) {
			memcpy(&nr, r + hwpmc_log_pidfields[i].off[j],
			       sizeof(nr));
			if (!nr)
				continue;
			rcu_read_lock();
			pid = find_pid_ns(nr, &init_pid_ns);
			nr = pid ? pid_nr_ns(pid, lg->pidns) : 0;
			rcu_read_unlock();
			memcpy(r + hwpmc_log_pidfields[i].off[j], &nr,
			       sizeof(nr));
		}
		return;
	}
}

static void hwpmc_log_header(void *p, u32 type, u32 len, u64 time)
{
	struct pmclog_header *h = p;

	h->pl_header = PMCLOG_HEADER(type, len);
	h->pl_spare = 0;
	h->pl_time = time;
}

/*
 * Append a record: its fixed part rec of size bytes (a struct pmclog_*,
 * whose header this fills in), then taillen bytes of tail (a path, PCs),
 * zero-padded to 8 bytes.  Any context but NMI.  -ENOBUFS when the
 * record was dropped (and counted for the next DROPNOTIFY).
 */
int hwpmc_log_append(struct hwpmc_log *lg, u32 type, u64 time, void *rec,
		     u32 size, const void *tail, u32 taillen)
{
	struct pmclog_dropnotify dn = { };
	u32 len = ALIGN(size + taillen, PMCLOG_ALIGN);
	unsigned long flags;
	char *p;
	int error = 0;

	if (WARN_ON_ONCE(len > PMCLOG_MAX_RECORD))
		return -EINVAL;
	hwpmc_log_header(rec, type, len, time);
	raw_spin_lock_irqsave(&lg->lock, flags);
	if (lg->closed || lg->error)
		goto drop;
	if (lg->dropped) {
		p = hwpmc_log_space(lg, sizeof(dn));
		if (!p)
			goto drop;
		hwpmc_log_header(&dn, PMCLOG_TYPE_DROPNOTIFY, sizeof(dn), time);
		dn.pl_dropped = lg->dropped;
		memcpy(p, &dn, sizeof(dn));
		lg->dropped = 0;
	}
	p = hwpmc_log_space(lg, len);
	if (!p)
		goto drop;
	memcpy(p, rec, size);
	if (lg->pidns != &init_pid_ns)
		hwpmc_log_pids(lg, type, p);
	if (taillen)
		memcpy(p + size, tail, taillen);
	goto out;
drop:
	lg->dropped++;
	hwpmc_stat_inc(log_records_dropped);
	error = -ENOBUFS;
out:
	raw_spin_unlock_irqrestore(&lg->lock, flags);
	return error;
}

/* A record whose fixed part is followed by a NUL-terminated path. */
int hwpmc_log_append_path(struct hwpmc_log *lg, u32 type, u64 time,
			  void *rec, u32 size, const char *path)
{
	return hwpmc_log_append(lg, type, time, rec, size, path,
				strnlen(path, PMCLOG_PATH_MAX - 1) + 1);
}

/*
 * A record that could not be made (no memory in atomic context): counted
 * as dropped, so that the owner's next record is preceded by a
 * DROPNOTIFY that includes it.  Any context but NMI.
 */
void hwpmc_log_lost(struct hwpmc_log *lg)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&lg->lock, flags);
	lg->dropped++;
	raw_spin_unlock_irqrestore(&lg->lock, flags);
	hwpmc_stat_inc(log_records_dropped);
}

/* -- the writer ------------------------------------------------------------- */

/* Write some of buf; bytes written, -EAGAIN when it would block, -errno. */
static ssize_t hwpmc_log_write(struct hwpmc_log *lg, const void *buf,
			       size_t len)
{
	struct file *f = lg->file;
	const struct cred *old;
	struct kvec kv = { .iov_base = (void *)buf, .iov_len = len };
	struct iov_iter it;
	struct kiocb kiocb;
	loff_t pos;
	ssize_t n;

	old = override_creds(lg->cred);
	if (f->f_mode & FMODE_STREAM) {
		/* pipes and sockets: never wait for the reader */
		init_sync_kiocb(&kiocb, f);
		kiocb.ki_flags |= IOCB_NOWAIT;
		iov_iter_kvec(&it, WRITE, &kv, 1, len);
		n = vfs_iocb_iter_write(f, &kiocb, &it);
	} else {
		pos = f->f_pos;
		n = kernel_write(f, buf, len, &pos);
		if (n > 0)
			f->f_pos = pos;
	}
	revert_creds(old);
	if (n == 0)
		n = -EAGAIN;
	return n;
}

static void hwpmc_log_drop_all(struct hwpmc_log *lg)
{
	struct hwpmc_logbuf *lb, *tmp;
	unsigned long flags;
	LIST_HEAD(list);

	raw_spin_lock_irqsave(&lg->lock, flags);
	list_splice_init(&lg->full, &list);
	if (lg->cur) {
		list_add_tail(&lg->cur->link, &list);
		lg->cur = NULL;
	}
	raw_spin_unlock_irqrestore(&lg->lock, flags);
	list_for_each_entry_safe(lb, tmp, &list, link) {
		list_del(&lb->link);
		hwpmc_buf_put(lb);
	}
}

void hwpmc_log_get(struct hwpmc_log *lg)
{
	refcount_inc(&lg->ref);
}

/* Freed after an RCU grace period: atomic producers may still look. */
void hwpmc_log_put(struct hwpmc_log *lg)
{
	if (refcount_dec_and_test(&lg->ref))
		kfree_rcu(lg, rcu);
}

static void hwpmc_log_free_fn(struct work_struct *work)
{
	struct hwpmc_log *lg = container_of(work, struct hwpmc_log, free_work);

	irq_work_sync(&lg->kick);
	cancel_delayed_work_sync(&lg->work);
	hwpmc_log_drop_all(lg);
	fput(lg->file);
	put_cred(lg->cred);
	put_pid_ns(lg->pidns);
	mutex_lock(&hwpmc_logs_lock);
	list_del(&lg->link);
	mutex_unlock(&hwpmc_logs_lock);
	hwpmc_log_put(lg);
}

static void hwpmc_log_fail(struct hwpmc_log *lg, int error)
{
	unsigned long flags;
	bool first;

	raw_spin_lock_irqsave(&lg->lock, flags);
	first = !lg->error;
	if (first)
		lg->error = error;
	raw_spin_unlock_irqrestore(&lg->lock, flags);
	if (!first)
		return;
	hwpmc_stat_inc(log_write_errors);
	pr_debug("log write error %d\n", error);
	/* devfile is valid while the log is open: closing takes hwpmc_sx */
	down_read(&hwpmc_sx);
	if (!lg->closed && lg->devfile)
		hwpmc_dev_notify(lg->devfile, POLL_ERR);
	up_read(&hwpmc_sx);
}

static void hwpmc_log_writer(struct work_struct *work)
{
	struct hwpmc_log *lg = container_of(to_delayed_work(work),
					    struct hwpmc_log, work);
	struct hwpmc_logbuf *lb;
	unsigned long flags;
	ssize_t n;

	if (READ_ONCE(lg->finished))
		return;
	for (;;) {
		raw_spin_lock_irqsave(&lg->lock, flags);
		/* a partial buffer goes out too: periodically, at flush */
		if (list_empty(&lg->full) && lg->cur && lg->cur->fill) {
			list_add_tail(&lg->cur->link, &lg->full);
			lg->cur = NULL;
		}
		lb = list_first_entry_or_null(&lg->full, struct hwpmc_logbuf,
					      link);
		lg->writing = lb;
		raw_spin_unlock_irqrestore(&lg->lock, flags);
		if (!lb)
			break;
		if (READ_ONCE(hwpmc_log_aborting))
			hwpmc_log_fail(lg, -ESHUTDOWN);
		if (lg->error) {
			hwpmc_log_drop_all(lg);
			break;
		}
		n = hwpmc_log_write(lg, lb->data + lb->done,
				    lb->fill - lb->done);
		if (n == -EAGAIN) {
			if (lg->closed &&
			    time_after(jiffies, lg->progress + HWPMC_LOG_LINGER)) {
				hwpmc_log_fail(lg, -ETIMEDOUT);
				continue;
			}
			queue_delayed_work(hwpmc_log_wq, &lg->work,
					   HWPMC_LOG_RETRY);
			return;
		}
		if (n < 0) {
			hwpmc_log_fail(lg, n);
			continue;
		}
		lg->progress = jiffies;
		lb->done += n;
		if (lb->done < lb->fill)
			continue;
		raw_spin_lock_irqsave(&lg->lock, flags);
		list_del(&lb->link);
		raw_spin_unlock_irqrestore(&lg->lock, flags);
		hwpmc_buf_put(lb);
	}
	raw_spin_lock_irqsave(&lg->lock, flags);
	lg->writing = false;
	raw_spin_unlock_irqrestore(&lg->lock, flags);
	if (lg->closed) {
		/*
		 * The release first: a CLOSELOG waiter woken below flushes it,
		 * and must not find it not queued yet (it would return with
		 * the file still held: umount EBUSY).  It cannot run ahead of
		 * this: it cancels this work, waiting for it to return.
		 */
		queue_work(hwpmc_log_wq, &lg->free_work);
		WRITE_ONCE(lg->finished, true);
		wake_up_all(&lg->wq);
	} else {
		wake_up_all(&lg->wq);
		queue_delayed_work(hwpmc_log_wq, &lg->work, HWPMC_LOG_PERIOD);
	}
}

/* -- operations ------------------------------------------------------------- */

static void hwpmc_log_initialize(struct hwpmc_log *lg)
{
	struct pmclog_initialize r = {
		.pl_version = PMCLOG_VERSION,
		.pl_cpu = hwpmc_md.cputype,
		.pl_ncpu = nr_cpu_ids,
	};
	u64 mono;

	mono = ktime_get_ns();
	r.pl_realtime = ktime_get_real_ns();
	strscpy(r.pl_cpuid, utsname()->machine, sizeof(r.pl_cpuid));
	hwpmc_log_append(lg, PMCLOG_TYPE_INITIALIZE, mono, &r, sizeof(r),
			 NULL, 0);
}

/*
 * A log writing to fd, for the current process; devfile is the
 * /dev/hwpmc file it is configured through.
 */
struct hwpmc_log *hwpmc_log_open(int fd, struct file *devfile)
{
	struct hwpmc_log *lg;
	struct file *f;
	umode_t mode;
	int error;

	f = fget(fd);
	if (!f)
		return ERR_PTR(-EBADF);
	error = -EBADF;
	if (!(f->f_mode & FMODE_WRITE) || !(f->f_mode & FMODE_CAN_WRITE))
		goto fail;
	error = -EINVAL;
	mode = file_inode(f)->i_mode;
	if (!f->f_op->write_iter || !(S_ISREG(mode) || S_ISFIFO(mode) ||
				      S_ISSOCK(mode) || S_ISCHR(mode)))
		goto fail;
	if (f->f_op == devfile->f_op)
		goto fail;		/* not into ourselves */
	error = -ENOMEM;
	lg = kzalloc(sizeof(*lg), GFP_KERNEL);
	if (!lg)
		goto fail;
	raw_spin_lock_init(&lg->lock);
	INIT_LIST_HEAD(&lg->full);
	INIT_DELAYED_WORK(&lg->work, hwpmc_log_writer);
	INIT_WORK(&lg->free_work, hwpmc_log_free_fn);
	init_irq_work(&lg->kick, hwpmc_log_kick_fn);
	init_waitqueue_head(&lg->wq);
	refcount_set(&lg->ref, 1);
	lg->file = f;
	lg->cred = get_current_cred();
	lg->pidns = get_pid_ns(task_active_pid_ns(current));
	lg->devfile = devfile;
	lg->progress = jiffies;
	mutex_lock(&hwpmc_logs_lock);
	list_add(&lg->link, &hwpmc_logs);
	hwpmc_nlogs++;
	mutex_unlock(&hwpmc_logs_lock);
	hwpmc_pool_fill();
	hwpmc_log_initialize(lg);
	queue_delayed_work(hwpmc_log_wq, &lg->work, HWPMC_LOG_PERIOD);
	return lg;
fail:
	fput(f);
	return ERR_PTR(error);
}

/*
 * Write out everything logged so far; the log's error, if any.  The
 * caller holds a reference (hwpmc_log_get) and no lock.
 */
int hwpmc_log_flush(struct hwpmc_log *lg)
{
	unsigned long flags;
	int error;

	raw_spin_lock_irqsave(&lg->lock, flags);
	if (lg->cur && lg->cur->fill) {
		list_add_tail(&lg->cur->link, &lg->full);
		lg->cur = NULL;
	}
	raw_spin_unlock_irqrestore(&lg->lock, flags);
	mod_delayed_work(hwpmc_log_wq, &lg->work, 0);
	error = wait_event_interruptible(lg->wq, READ_ONCE(lg->error) ||
					 READ_ONCE(lg->finished) ||
					 (list_empty(&lg->full) &&
					  !READ_ONCE(lg->writing)));
	return READ_ONCE(lg->error) ?: error;
}

/*
 * Wait until a closed log is written out (reference held, no lock);
 * its error, if any.
 */
int hwpmc_log_wait_closed(struct hwpmc_log *lg)
{
	int error;

	error = wait_event_interruptible(lg->wq, READ_ONCE(lg->finished));
	/* the log is closed already: a restarted call would find none */
	if (error == -ERESTARTSYS)
		error = -EINTR;
	if (!error) {
		/*
		 * And the file let go of, as closing a descriptor would: a
		 * pipe's reader sees EOF, a filesystem can be unmounted.
		 * (The writer's fput() from a worker is deferred.)
		 */
		flush_work(&lg->free_work);
		flush_delayed_fput();
	}
	return READ_ONCE(lg->error) ?: error;
}

int hwpmc_log_error(struct hwpmc_log *lg)
{
	return READ_ONCE(lg->error);
}

/*
 * The owner is done with lg (hwpmc_sx held for writing): a CLOSELOG
 * record ends it, and the writer writes out what is left, then frees it.
 */
void hwpmc_log_close(struct hwpmc_log *lg)
{
	struct pmclog_closelog r = { };
	unsigned long flags;

	hwpmc_log_append(lg, PMCLOG_TYPE_CLOSELOG, ktime_get_ns(), &r,
			 sizeof(r), NULL, 0);
	raw_spin_lock_irqsave(&lg->lock, flags);
	lg->closed = true;
	lg->devfile = NULL;
	if (lg->cur && lg->cur->fill) {
		list_add_tail(&lg->cur->link, &lg->full);
		lg->cur = NULL;
	}
	raw_spin_unlock_irqrestore(&lg->lock, flags);
	mutex_lock(&hwpmc_logs_lock);
	hwpmc_nlogs--;
	mutex_unlock(&hwpmc_logs_lock);
	lg->progress = jiffies;
	mod_delayed_work(hwpmc_log_wq, &lg->work, 0);
}

int hwpmc_log_init(void)
{
	u64 max = (u64)hwpmc_nbuffers_pcpu * num_possible_cpus();

	hwpmc_bufsize = hwpmc_logbuffersize * 1024 -
			offsetof(struct hwpmc_logbuf, data);
	hwpmc_pool_max = min_t(u64, max, UINT_MAX);
	init_irq_work(&hwpmc_pool_kick, hwpmc_pool_kick_fn);
	hwpmc_log_wq = alloc_workqueue("hwpmc_log", WQ_UNBOUND, 0);
	return hwpmc_log_wq ? 0 : -ENOMEM;
}

/* Every owner is gone: drop what closed logs still hold, free the pool. */
void hwpmc_log_fini(void)
{
	struct hwpmc_logbuf *lb, *tmp;
	struct hwpmc_log *lg;

	WRITE_ONCE(hwpmc_log_aborting, true);
	for (;;) {
		mutex_lock(&hwpmc_logs_lock);
		list_for_each_entry(lg, &hwpmc_logs, link)
			mod_delayed_work(hwpmc_log_wq, &lg->work, 0);
		lg = list_first_entry_or_null(&hwpmc_logs, struct hwpmc_log,
					      link);
		mutex_unlock(&hwpmc_logs_lock);
		if (!lg)
			break;
		flush_workqueue(hwpmc_log_wq);
	}
	irq_work_sync(&hwpmc_pool_kick);
	flush_work(&hwpmc_pool_work);
	destroy_workqueue(hwpmc_log_wq);
	rcu_barrier();			/* the kfree_rcu()s */
	list_for_each_entry_safe(lb, tmp, &hwpmc_pool, link) {
		list_del(&lb->link);
		vfree(lb);
	}
	hwpmc_pool_free = 0;
	hwpmc_pool_total = 0;
}
