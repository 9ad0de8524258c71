// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: the log (FreeBSD's hwpmc_logging.c).
 *
 * An owner configures a log with a file descriptor it can write: a
 * regular file of a local filesystem, a pipe, a socket or a character
 * device that writes without blocking (hwpmc_log_file_ok()).  Records
 * (include/uapi/linux/hwpmclog.h) are appended to the owner's current
 * buffer; full buffers go to a writer, a work item that writes them with
 * the credentials, the memory cgroup and the RLIMIT_FSIZE of the owner
 * at configure time.  Buffers of `logbuffersize` KB come from a pool of
 * at most `nbuffers_pcpu` buffers per CPU; the pool is filled in process
 * context only, so that appending never sleeps and works in any context
 * but NMI (the scheduler's and the kprobe's included), and trimmed when
 * logs go.  The pool is shared: evenly between the users (real uids)
 * that have logs, then between one user's logs (hwpmc_buf_quota_ok()),
 * so a log whose reader stalls costs its own user only.  When a log may
 * take no buffer a record is dropped and counted, and the next record
 * that fits is preceded by a DROPNOTIFY record giving the number lost.
 * A log within its share that finds the pool empty (other logs took
 * theirs when their shares were larger) makes the logs over their
 * shares give back their newest buffers (hwpmc_pool_rebalance()).
 *
 * The writer never blocks on anybody: terminals, FUSE, network
 * filesystems and other files whose writes may wait forever are refused
 * at CONFIGURELOG; pipes, sockets and devices are written with
 * IOCB_NOWAIT and retried every 20 ms while they are full; a regular
 * file's position lock is only tried.  So a reader that stops reading
 * costs buffers (then drops), never a hung task, a stalled workqueue or
 * an rmmod that hangs.  Any other write error (EPIPE, ENOSPC, EIO,
 * EFBIG, ...) ends the log: the error is kept and returned by the next
 * FLUSHLOG, pending and further records are dropped, and the owner gets
 * SIGIO (O_ASYNC).  A closed log is written out in the background; a
 * reader that reads nothing for HWPMC_LOG_LINGER ends it.  Module unload
 * drops whatever is still pending.
 *
 * Life of a log: the owner holds a reference, and so does each FLUSHLOG
 * and CLOSELOG caller while it waits.  Closing marks it closed; the
 * writer writes out what is left and queues free_work, which marks it
 * dead, cancels the writer and releases the file.  Nothing queues the
 * writer of a dead log (hwpmc_log_kick(), under kick_lock), and the last
 * put cancels it once more before the RCU free: no work item outlives
 * its log.
 */
#define pr_fmt(fmt) "hwpmc: " fmt

#include <linux/kernel.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/magic.h>
#include <linux/memcontrol.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
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
#include "hwpmc_log.h"
#include "hwpmc_backend.h"

#define HWPMC_LOG_RETRY		(HZ / 50)	/* a full pipe or socket */
#define HWPMC_LOG_PERIOD	HZ		/* partial buffers go out */
#define HWPMC_LOG_LINGER	(10 * HZ)	/* closed, reader gone */

struct hwpmc_logbuf {
	struct list_head	link;
	u32			fill;		/* bytes of records */
	u32			done;		/* bytes written */
	char			data[];
};

/* A user (real uid of an owner) that has logs: its share of the pool. */
struct hwpmc_loguser {
	struct list_head	link;		/* hwpmc_logusers */
	kuid_t			uid;
	unsigned int		nlogs;		/* logs not freed yet */
	unsigned int		held;		/* buffers its logs hold */
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
	raw_spinlock_t		kick_lock;	/* dead, and queueing work */
	bool			dead;		/* the writer is never queued */
	bool			regular;	/* a regular file: f_pos */
	unsigned int		held;		/* buffers taken from the pool */
	struct hwpmc_loguser	*user;
	struct file		*file;
	const struct cred	*cred;
	struct mem_cgroup	*memcg;		/* the owner's, or NULL */
	loff_t			fsize;		/* the owner's RLIMIT_FSIZE */
	struct pid_namespace	*pidns;		/* the owner's: records' pids */
	struct file		*devfile;	/* SIGIO goes to its O_ASYNC */
	unsigned long		progress;	/* jiffies of the last write */
	struct delayed_work	work;
	struct work_struct	free_work;
	struct irq_work		kick;
	wait_queue_head_t	wq;		/* FLUSHLOG */
	struct list_head	link;		/* hwpmc_logs */
	refcount_t		ref;		/* the log's life, waiters */
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
static LIST_HEAD(hwpmc_logusers);		/* under both locks */
static unsigned int hwpmc_nlogusers;		/* hwpmc_pool_lock */
static bool hwpmc_pool_starved;			/* hwpmc_pool_lock */
static u32 hwpmc_bufsize;			/* bytes of records */
static DEFINE_MUTEX(hwpmc_pool_fill_lock);

static void hwpmc_pool_fill_fn(struct work_struct *work);
static DECLARE_WORK(hwpmc_pool_work, hwpmc_pool_fill_fn);

static void hwpmc_pool_kick_fn(struct irq_work *w)
{
	queue_work(system_unbound_wq, &hwpmc_pool_work);
}

static struct irq_work hwpmc_pool_kick;

/*
 * The shares of the pool: split evenly between the users that have logs,
 * and a user's share evenly between its logs; a log may always have two
 * buffers (one filled, one written).  hwpmc_pool_lock held.
 */
static unsigned int hwpmc_user_share(void)
{
	lockdep_assert_held(&hwpmc_pool_lock);
	return max(hwpmc_pool_max / max(hwpmc_nlogusers, 1U), 2U);
}

static unsigned int hwpmc_log_share(const struct hwpmc_log *lg)
{
	return max(hwpmc_user_share() / max(lg->user->nlogs, 1U), 2U);
}

/* May lg take one more buffer?  hwpmc_pool_lock held. */
static bool hwpmc_buf_quota_ok(const struct hwpmc_log *lg)
{
	lockdep_assert_held(&hwpmc_pool_lock);

	return lg->user->held < hwpmc_user_share() &&
	       lg->held < hwpmc_log_share(lg);
}

/* Do lg or its user hold more than their shares now?  hwpmc_pool_lock held. */
static bool hwpmc_buf_over_share(const struct hwpmc_log *lg)
{
	lockdep_assert_held(&hwpmc_pool_lock);

	return lg->user->held > hwpmc_user_share() ||
	       lg->held > hwpmc_log_share(lg);
}

/* A free buffer for lg, or NULL; any context but NMI. */
static struct hwpmc_logbuf *hwpmc_buf_get(struct hwpmc_log *lg)
{
	struct hwpmc_logbuf *lb = NULL;
	unsigned long flags;

	hwpmc_stat_inc(buffer_requests);
	raw_spin_lock_irqsave(&hwpmc_pool_lock, flags);
	if (hwpmc_buf_quota_ok(lg))
		lb = list_first_entry_or_null(&hwpmc_pool,
					      struct hwpmc_logbuf, link);
	if (lb) {
		list_del(&lb->link);
		hwpmc_pool_free--;
		lg->held++;
		lg->user->held++;
	} else if (hwpmc_buf_quota_ok(lg)) {
		hwpmc_pool_starved = true;	/* someone is over share */
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

static void hwpmc_buf_put(struct hwpmc_log *lg, struct hwpmc_logbuf *lb)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&hwpmc_pool_lock, flags);
	list_add(&lb->link, &hwpmc_pool);
	hwpmc_pool_free++;
	lg->held--;
	lg->user->held--;
	raw_spin_unlock_irqrestore(&hwpmc_pool_lock, flags);
}

/* The records in a buffer, for DROPNOTIFY. */
static u64 hwpmc_buf_records(const struct hwpmc_logbuf *lb)
{
	const struct pmclog_header *h;
	u32 off = 0, len;
	u64 n = 0;

	while (off + sizeof(*h) <= lb->fill) {
		h = (const struct pmclog_header *)(lb->data + off);
		len = PMCLOG_HEADER_TO_LENGTH(h->pl_header);
		if (!len)
			break;
		off += len;
		n++;
	}
	return n;
}

/*
 * A log within its share was refused a buffer: the pool went to logs
 * that took theirs while they had a larger share (alone, or before
 * other users came) and whose readers do not keep up.  Each log over
 * its share, or of a user over its share, now gives back its newest
 * buffers: full ones not being written, then the one being filled;
 * their records are counted as dropped in its own next DROPNOTIFY.
 * Process context.
 */
static void hwpmc_pool_rebalance(void)
{
	struct hwpmc_logbuf *lb;
	struct hwpmc_log *lg;
	unsigned long flags;
	u64 n;
	bool over;

	mutex_lock(&hwpmc_logs_lock);
	list_for_each_entry(lg, &hwpmc_logs, link) {
		raw_spin_lock_irqsave(&lg->lock, flags);
		for (;;) {
			raw_spin_lock(&hwpmc_pool_lock);
			over = hwpmc_buf_over_share(lg);
			raw_spin_unlock(&hwpmc_pool_lock);
			if (!over)
				break;
			lb = list_empty(&lg->full) ? NULL :
			     list_last_entry(&lg->full, struct hwpmc_logbuf,
					     link);
			if (lb && !lb->done &&
			    !(lg->writing && list_is_first(&lb->link, &lg->full))) {
				list_del(&lb->link);
			} else if (lg->cur) {
				lb = lg->cur;
				lg->cur = NULL;
			} else {
				break;
			}
			n = hwpmc_buf_records(lb);
			lg->dropped += n;
			this_cpu_add(hwpmc_stats.log_records_dropped, n);
			hwpmc_buf_put(lg, lb);
		}
		raw_spin_unlock_irqrestore(&lg->lock, flags);
	}
	mutex_unlock(&hwpmc_logs_lock);
}

/*
 * Keep two free buffers per open log and one more, within the limit;
 * with trim, not more either (a log went).  May sleep.
 */
static void hwpmc_pool_fill(bool trim)
{
	struct hwpmc_logbuf *lb, *tmp;
	unsigned int want;
	unsigned long flags;
	bool starved;
	LIST_HEAD(surplus);

	mutex_lock(&hwpmc_pool_fill_lock);
	raw_spin_lock_irqsave(&hwpmc_pool_lock, flags);
	starved = hwpmc_pool_starved;
	hwpmc_pool_starved = false;
	raw_spin_unlock_irqrestore(&hwpmc_pool_lock, flags);
	if (starved)
		hwpmc_pool_rebalance();
	for (;;) {
		raw_spin_lock_irqsave(&hwpmc_pool_lock, flags);
		want = 2 * READ_ONCE(hwpmc_nlogs) + 1;
		while (trim && hwpmc_pool_free > want) {
			lb = list_first_entry(&hwpmc_pool, struct hwpmc_logbuf,
					      link);
			list_move(&lb->link, &surplus);
			hwpmc_pool_free--;
			hwpmc_pool_total--;
		}
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
	list_for_each_entry_safe(lb, tmp, &surplus, link)
		vfree(lb);
}

static void hwpmc_pool_fill_fn(struct work_struct *work)
{
	hwpmc_pool_fill(false);
}

/* The share of the pool of the current process's real uid; may sleep. */
static struct hwpmc_loguser *hwpmc_loguser_get(void)
{
	struct hwpmc_loguser *u, *nu;
	kuid_t uid = current_uid();
	unsigned long flags;

	nu = kzalloc(sizeof(*nu), GFP_KERNEL);
	mutex_lock(&hwpmc_logs_lock);
	list_for_each_entry(u, &hwpmc_logusers, link)
		if (uid_eq(u->uid, uid))
			goto found;
	u = nu;
	nu = NULL;
	if (u) {
		u->uid = uid;
		raw_spin_lock_irqsave(&hwpmc_pool_lock, flags);
		list_add(&u->link, &hwpmc_logusers);
		hwpmc_nlogusers++;
		raw_spin_unlock_irqrestore(&hwpmc_pool_lock, flags);
	}
found:
	if (u) {
		raw_spin_lock_irqsave(&hwpmc_pool_lock, flags);
		u->nlogs++;
		raw_spin_unlock_irqrestore(&hwpmc_pool_lock, flags);
	}
	mutex_unlock(&hwpmc_logs_lock);
	kfree(nu);
	return u;
}

/* A log of u is gone, with all its buffers; hwpmc_logs_lock held. */
static void hwpmc_loguser_put(struct hwpmc_loguser *u)
{
	unsigned long flags;
	bool last;

	lockdep_assert_held(&hwpmc_logs_lock);
	raw_spin_lock_irqsave(&hwpmc_pool_lock, flags);
	last = !--u->nlogs;
	if (last) {
		list_del(&u->link);
		hwpmc_nlogusers--;
	}
	raw_spin_unlock_irqrestore(&hwpmc_pool_lock, flags);
	if (last) {
		WARN_ON_ONCE(u->held);
		kfree(u);
	}
}

/* -- appending records ------------------------------------------------------ */

/*
 * Run the writer after delay (an earlier run that is queued stays); never
 * for a dead log.  Not under lg->lock, which the scheduler's hooks take
 * under the runqueue lock: queueing work may wake a worker, which takes
 * runqueue locks.  So appending kicks through an irq_work.  Any context
 * but NMI.
 */
static void hwpmc_log_kick(struct hwpmc_log *lg, unsigned long delay)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&lg->kick_lock, flags);
	if (!lg->dead) {
		if (delay)
			queue_delayed_work(hwpmc_log_wq, &lg->work, delay);
		else
			mod_delayed_work(hwpmc_log_wq, &lg->work, 0);
	}
	raw_spin_unlock_irqrestore(&lg->kick_lock, flags);
}

static void hwpmc_log_kick_fn(struct irq_work *w)
{
	hwpmc_log_kick(container_of(w, struct hwpmc_log, kick), 0);
}

/* len bytes at the end of the current buffer; lg->lock held. */
static void *hwpmc_log_space(struct hwpmc_log *lg, u32 len)
{
	void *p;

	lockdep_assert_held(&lg->lock);
	if (lg->cur && lg->cur->fill + len > hwpmc_bufsize) {
		list_add_tail(&lg->cur->link, &lg->full);
		lg->cur = NULL;
		irq_work_queue(&lg->kick);
	}
	if (!lg->cur) {
		lg->cur = hwpmc_buf_get(lg);
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
			/* 0, and -1: the kernel's MAP_IN and MAP_OUT */
			if (!nr || (s32)nr < 0)
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
 * Append records rs[0..n-1] together, one after the other in the same
 * buffer (no other record comes between them), or none of them.  Each
 * is its fixed part rec of size bytes (a struct pmclog_*, whose header
 * this fills in), then taillen bytes of tail (a path, PCs, a stack),
 * zero-padded to 8 bytes.  Any context but NMI.  -ENOBUFS when they were
 * dropped (and counted for the next DROPNOTIFY); -EMSGSIZE, also counted,
 * when together they are larger than a log buffer (hwpmc_log_max_len():
 * a small logbuffersize).
 */
int hwpmc_log_appendv(struct hwpmc_log *lg, u64 time,
		      const struct hwpmc_logrec *rs, unsigned int n)
{
	struct pmclog_dropnotify dn = { };
	unsigned long flags;
	u32 len, total = 0;
	unsigned int i;
	char *p;
	int error = 0;

	for (i = 0; i < n; i++) {
		len = ALIGN(rs[i].size + rs[i].taillen, PMCLOG_ALIGN);
		if (WARN_ON_ONCE(len > PMCLOG_MAX_RECORD))
			return -EINVAL;
		hwpmc_log_header(rs[i].rec, rs[i].type, len, time);
		total += len;
	}
	raw_spin_lock_irqsave(&lg->lock, flags);
	if (total > hwpmc_bufsize) {
		error = -EMSGSIZE;
		goto drop;
	}
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
	p = hwpmc_log_space(lg, total);
	if (!p)
		goto drop;
	for (i = 0; i < n; i++) {
		memcpy(p, rs[i].rec, rs[i].size);
		if (lg->pidns != &init_pid_ns)
			hwpmc_log_pids(lg, rs[i].type, p);
		if (rs[i].taillen)
			memcpy(p + rs[i].size, rs[i].tail, rs[i].taillen);
		p += ALIGN(rs[i].size + rs[i].taillen, PMCLOG_ALIGN);
	}
	goto out;
drop:
	lg->dropped += n;
	for (i = 0; i < n; i++)
		hwpmc_stat_inc(log_records_dropped);
	if (!error)
		error = -ENOBUFS;
out:
	raw_spin_unlock_irqrestore(&lg->lock, flags);
	return error;
}

/* The longest records hwpmc_log_appendv() writes together, in bytes. */
u32 hwpmc_log_max_len(void)
{
	return hwpmc_bufsize;
}

/* Append one record (hwpmc_log_appendv()'s rec, size, tail, taillen). */
int hwpmc_log_append(struct hwpmc_log *lg, u32 type, u64 time, void *rec,
		     u32 size, const void *tail, u32 taillen)
{
	struct hwpmc_logrec r = {
		.type = type, .rec = rec, .size = size,
		.tail = tail, .taillen = taillen,
	};

	return hwpmc_log_appendv(lg, time, &r, 1);
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

/*
 * A regular file: at its position, taken under its position lock as the
 * owner's own write(2) would (the owner may write through the same open
 * file), but only tried: a writer never waits for the owner.  The file
 * grows no larger than the owner's RLIMIT_FSIZE.
 */
static ssize_t hwpmc_log_write_regular(struct hwpmc_log *lg, const void *buf,
				       size_t len)
{
	struct file *f = lg->file;
	loff_t pos;
	ssize_t n;

	if (!mutex_trylock(&f->f_pos_lock))
		return -EAGAIN;
	pos = f->f_flags & O_APPEND ? i_size_read(file_inode(f)) : f->f_pos;
	if (pos >= lg->fsize) {
		n = -EFBIG;
		goto out;
	}
	len = min_t(loff_t, len, lg->fsize - pos);
	n = kernel_write(f, buf, len, &pos);
	if (n > 0)
		f->f_pos = pos;
out:
	mutex_unlock(&f->f_pos_lock);
	return n;
}

/* Write some of buf; bytes written, -EAGAIN when it would block, -errno. */
static ssize_t hwpmc_log_write(struct hwpmc_log *lg, const void *buf,
			       size_t len)
{
	struct kvec kv = { .iov_base = (void *)buf, .iov_len = len };
	struct mem_cgroup *oldcg;
	const struct cred *old;
	struct iov_iter it;
	struct kiocb kiocb;
	ssize_t n;

	old = override_creds(lg->cred);
	oldcg = set_active_memcg(lg->memcg);
	if (lg->regular) {
		n = hwpmc_log_write_regular(lg, buf, len);
	} else {
		/* pipes, sockets, devices: never wait for the reader */
		init_sync_kiocb(&kiocb, lg->file);
		kiocb.ki_flags |= IOCB_NOWAIT;
		iov_iter_kvec(&it, WRITE, &kv, 1, len);
		n = vfs_iocb_iter_write(lg->file, &kiocb, &it);
	}
	set_active_memcg(oldcg);
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
		hwpmc_buf_put(lg, lb);
	}
}

void hwpmc_log_get(struct hwpmc_log *lg)
{
	refcount_inc(&lg->ref);
}

/*
 * Freed after an RCU grace period: atomic producers may still look.  The
 * log is dead by then (hwpmc_log_free_fn()), so nothing can queue its
 * writer again; a run queued before that is cancelled here.  Process
 * context, no lock held.
 */
void hwpmc_log_put(struct hwpmc_log *lg)
{
	might_sleep();
	if (!refcount_dec_and_test(&lg->ref))
		return;
	WARN_ON_ONCE(!lg->dead);
	cancel_delayed_work_sync(&lg->work);
	kfree_rcu(lg, rcu);
}

/*
 * A closed log is written out: it dies, and lets go of its file, its
 * buffers and its share of the pool.  A CLOSELOG caller holds the file
 * too, and closes it in its own context (hwpmc_log_wait_closed()); else
 * the last fput() from this worker is deferred, as any kthread's.
 */
static void hwpmc_log_free_fn(struct work_struct *work)
{
	struct hwpmc_log *lg = container_of(work, struct hwpmc_log, free_work);
	unsigned long flags;

	raw_spin_lock_irqsave(&lg->kick_lock, flags);
	lg->dead = true;
	raw_spin_unlock_irqrestore(&lg->kick_lock, flags);
	irq_work_sync(&lg->kick);
	cancel_delayed_work_sync(&lg->work);
	hwpmc_log_drop_all(lg);
	fput(lg->file);
	put_cred(lg->cred);
	mem_cgroup_put(lg->memcg);
	put_pid_ns(lg->pidns);
	mutex_lock(&hwpmc_logs_lock);
	list_del(&lg->link);
	hwpmc_loguser_put(lg->user);
	mutex_unlock(&hwpmc_logs_lock);
	hwpmc_pool_fill(true);		/* give back what it no longer needs */
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
		hwpmc_file_notify(lg->devfile, POLL_ERR);
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
			hwpmc_log_kick(lg, HWPMC_LOG_RETRY);
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
		hwpmc_buf_put(lg, lb);
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
		hwpmc_log_kick(lg, HWPMC_LOG_PERIOD);
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
 * A regular file on a filesystem whose writes cannot wait for a user
 * process or the network: one on a block device (not FUSE's fuseblk),
 * tmpfs or ramfs (for an overlay, the filesystem of its real file).
 */
static bool hwpmc_log_fs_ok(const struct super_block *sb)
{
	switch (sb->s_magic) {
	case TMPFS_MAGIC:
	case RAMFS_MAGIC:
		return true;
	case FUSE_SUPER_MAGIC:
		return false;
	}
	return sb->s_type->fs_flags & FS_REQUIRES_DEV;
}

/*
 * Can f be a log?  0, or -EBADF (not open for writing), -EINVAL (not a
 * kind of file that takes a stream of records), -EOPNOTSUPP (a kind
 * whose writes may block for ever: a terminal, a FUSE or network file,
 * a device without non-blocking writes).
 */
static int hwpmc_log_file_ok(struct file *f, struct file *devfile)
{
	struct inode *inode = file_inode(f);
	umode_t mode = inode->i_mode;

	if (!(f->f_mode & FMODE_WRITE) || !(f->f_mode & FMODE_CAN_WRITE))
		return -EBADF;
	if (!f->f_op->write_iter || f->f_op == devfile->f_op)
		return -EINVAL;		/* not into ourselves */
	if (S_ISFIFO(mode) || S_ISSOCK(mode))
		return 0;		/* IOCB_NOWAIT is honoured */
	if (S_ISCHR(mode))
		return f->f_mode & FMODE_NOWAIT ? 0 : -EOPNOTSUPP;
	if (S_ISREG(mode) && f->f_flags & O_DIRECT)
		return -EINVAL;		/* buffers are not aligned */
	if (S_ISREG(mode))		/* an overlay's: the layer's */
		return hwpmc_log_fs_ok(d_real_inode(f->f_path.dentry)->i_sb) ?
		       0 : -EOPNOTSUPP;
	return -EINVAL;
}

/* The owner's RLIMIT_FSIZE, as a file size. */
static loff_t hwpmc_log_fsize(void)
{
	unsigned long lim = rlimit(RLIMIT_FSIZE);

	return lim >= MAX_LFS_FILESIZE ? MAX_LFS_FILESIZE : lim;
}

/*
 * A log writing to fd, for the current process; devfile is the
 * /dev/hwpmc file it is configured through.
 */
struct hwpmc_log *hwpmc_log_open(int fd, struct file *devfile)
{
	struct hwpmc_log *lg;
	unsigned long flags;
	struct file *f;
	int error;

	f = fget(fd);
	if (!f)
		return ERR_PTR(-EBADF);
	error = hwpmc_log_file_ok(f, devfile);
	if (error)
		goto fail;
	error = -ENOMEM;
	lg = kzalloc(sizeof(*lg), GFP_KERNEL);
	if (!lg)
		goto fail;
	lg->user = hwpmc_loguser_get();
	if (!lg->user) {
		kfree(lg);
		goto fail;
	}
	raw_spin_lock_init(&lg->lock);
	raw_spin_lock_init(&lg->kick_lock);
	INIT_LIST_HEAD(&lg->full);
	INIT_DELAYED_WORK(&lg->work, hwpmc_log_writer);
	INIT_WORK(&lg->free_work, hwpmc_log_free_fn);
	init_irq_work(&lg->kick, hwpmc_log_kick_fn);
	init_waitqueue_head(&lg->wq);
	refcount_set(&lg->ref, 1);
	lg->file = f;
	lg->regular = S_ISREG(file_inode(f)->i_mode);
	lg->cred = get_current_cred();
	lg->memcg = get_mem_cgroup_from_mm(current->mm);
	lg->fsize = hwpmc_log_fsize();
	lg->pidns = get_pid_ns(task_active_pid_ns(current));
	lg->devfile = devfile;
	lg->progress = jiffies;
	mutex_lock(&hwpmc_logs_lock);
	list_add(&lg->link, &hwpmc_logs);
	hwpmc_nlogs++;
	mutex_unlock(&hwpmc_logs_lock);
	/* a full pool makes room for the new log now, not at its first loss */
	raw_spin_lock_irqsave(&hwpmc_pool_lock, flags);
	if (hwpmc_pool_free < 2 && hwpmc_pool_total >= hwpmc_pool_max)
		hwpmc_pool_starved = true;
	raw_spin_unlock_irqrestore(&hwpmc_pool_lock, flags);
	hwpmc_pool_fill(false);
	hwpmc_log_initialize(lg);
	hwpmc_log_kick(lg, HWPMC_LOG_PERIOD);
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
	hwpmc_log_kick(lg, 0);
	error = wait_event_interruptible(lg->wq, READ_ONCE(lg->error) ||
					 READ_ONCE(lg->finished) ||
					 (list_empty(&lg->full) &&
					  !READ_ONCE(lg->writing)));
	return READ_ONCE(lg->error) ?: error;
}

/*
 * CLOSELOG: its caller will wait for lg and then close the file itself
 * (hwpmc_log_wait_closed()).  The log is open; hwpmc_sx held.
 */
void hwpmc_log_hold_file(struct hwpmc_log *lg)
{
	lockdep_assert_held_write(&hwpmc_sx);
	get_file(lg->file);
}

/*
 * Wait until a closed log is written out (reference held, no lock), then
 * close its file as closing a descriptor would: on the way back to user
 * space, so that a pipe's reader sees EOF and a filesystem can be
 * unmounted when CLOSELOG returns, and a close that waits (a socket's
 * linger) waits in the caller, interruptibly.  The log's error, if any.
 */
int hwpmc_log_wait_closed(struct hwpmc_log *lg)
{
	int error;

	error = wait_event_interruptible(lg->wq, READ_ONCE(lg->finished));
	/* the log is closed already: a restarted call would find none */
	if (error == -ERESTARTSYS)
		error = -EINTR;
	if (!error)
		flush_work(&lg->free_work);	/* the log's reference first */
	fput(lg->file);
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

	lockdep_assert_held_write(&hwpmc_sx);
	lockdep_assert_held_write(&hwpmc_sx);
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
	hwpmc_log_kick(lg, 0);
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
			hwpmc_log_kick(lg, 0);
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
