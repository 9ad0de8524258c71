// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat: user call chains unwound by DWARF call frame information
 * (--call-graph dwarf), from a sample's USERSTACK record: the user
 * registers and a copy of the top of the user stack.
 *
 * elfutils' unwinder does the work: per process, a Dwfl with the
 * process's executable mappings reported at their load addresses (the
 * files of pmcstat_sym.c's mappings, by path; libdwfl finds their
 * .eh_frame, and .debug_frame in the file or its separate debug file),
 * attached with thread callbacks whose initial registers are the
 * record's and whose memory is the record's copy of the stack (nothing
 * else: a read outside it ends the chain).  dwfl_getthread_frames()
 * then gives the PCs, the sampled one first, then the return addresses.
 * The Dwfl of a process is made again when its mappings changed (a
 * dlopen(), an exec): of a snapshot of its files (struct uw_mods) that
 * the reading thread takes, since pmcstat_sym.c's processes are its own.
 * A report unwinds on several threads (uw_pool_*, --unwind-threads):
 * libdwfl's Dwfl is not for two threads at once, so each thread has its
 * own Dwfl of each process (struct unwinder); the samples are queued in
 * the log's order and their results taken back in that order, so the
 * reports are those of one thread, byte for byte.  Without libdw (the static arm64 build) nothing
 * is unwound: unwind_available() says so and hwpmc-stat refuses
 * --call-graph dwarf.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef HWPMC_WITH_DW
#define HWPMC_WITH_DW 0
#endif
#if HWPMC_WITH_DW
#include <elfutils/libdwfl.h>
#endif

#include <pmclog.h>

#include "pmcstat.h"

_Static_assert(sizeof(((struct ustack *)0)->regs) ==
	       PMC_USTACK_NREGS_MAX * sizeof(uint64_t), "ustack's registers");

int unwind_available(void)
{
	return HWPMC_WITH_DW;
}

static char uw_error[256];	/* the first failure's reason */

const char *unwind_error(void)
{
	return uw_error[0] ? uw_error : NULL;
}

void ustack_copy(struct ustack *dst, const struct ustack *src)
{
	dst->valid = src->valid;
	if (!src->valid)
		return;
	dst->pmcid = src->pmcid;
	dst->abi = src->abi;
	dst->nregs = src->nregs;
	dst->dynsize = src->dynsize;
	memcpy(dst->regs, src->regs, src->nregs * sizeof(uint64_t));
	if (src->data == src->stack) {
		memcpy(dst->stack, src->stack, src->dynsize);
		dst->data = dst->stack;
	} else {
		dst->data = src->data;		/* borrowed: the mapped log's */
	}
}

void ustack_set(struct ustack *us, const struct pmclog_ev_userstack *r, int borrow)
{
	us->valid = r->pl_nregs >= 2 && r->pl_nregs <= PMC_USTACK_NREGS_MAX &&
		    r->pl_dynsize <= sizeof(us->stack);
	if (!us->valid)
		return;
	us->pmcid = r->pl_pmcid;
	us->abi = r->pl_abi;
	us->nregs = r->pl_nregs;
	us->dynsize = r->pl_dynsize;
	memcpy(us->regs, r->pl_regs, r->pl_nregs * sizeof(uint64_t));
	if (borrow) {
		us->data = r->pl_stack;
	} else {
		memcpy(us->stack, r->pl_stack, r->pl_dynsize);
		us->data = us->stack;
	}
}

#if HWPMC_WITH_DW

/* The DWARF number of the stack pointer in each ABI of <hwpmclog.h>. */
static int sp_regno(uint32_t abi)
{
	switch (abi) {
	case PMC_USTACK_ABI_X86_64:
		return 7;
	case PMC_USTACK_ABI_ARM64:
		return 31;
	default:
		return -1;
	}
}

/*
 * A process's files at one generation of its mappings, as a Dwfl is made
 * of them: a snapshot taken by the reading thread (pmcstat_sym.c's
 * processes are its alone), which the unwinding threads read.  Counted
 * references: the reading thread's cache holds one, each unwinder whose
 * Dwfl was made of it one, each queued task one.
 */
struct uw_mod {
	const struct image *im;
	const char	*base, *path;	/* sym_image_base(), _path(): until sym_free() */
	uint64_t	bias;		/* run-time minus link-time address */
};

struct uw_mods {
	atomic_int	refs;
	pid_t		pid;
	size_t		n;
	struct uw_mod	m[];
};

/* the reading thread's: the snapshot of each process's mappings */
struct pmods {
	pid_t		pid;
	const struct proc *p;
	unsigned long	gen;
	struct uw_mods	*mods;		/* NULL: no file could be read */
	struct pmods	*next;
};

#define PD_BUCKETS	256
static struct pmods *pms[PD_BUCKETS];

static void mods_put(struct uw_mods *m)
{
	if (m && atomic_fetch_sub(&m->refs, 1) == 1)
		free(m);
}

static struct uw_mods *mods_make(struct proc *p)
{
	struct uw_mods *m;
	struct image *im;
	uint64_t va;
	size_t i, j;

	m = malloc(sizeof(*m) + (p->nmap ? p->nmap : 1) * sizeof(m->m[0]));
	if (!m)
		return NULL;
	atomic_init(&m->refs, 1);
	m->pid = p->pid;
	m->n = 0;
	for (i = 0; i < p->nmap; i++) {
		im = sym_pc_image(p, p->maps[i].start, &va);
		if (!im)
			continue;	/* not an ELF file we read, [vdso], JIT */
		for (j = 0; j < m->n && m->m[j].im != im; j++)
			;
		if (j < m->n)
			continue;	/* its first mapping gives the bias */
		m->m[m->n].im = im;
		m->m[m->n].base = sym_image_base(im);
		m->m[m->n].path = sym_image_path(im);
		m->m[m->n].bias = p->maps[i].start - va;
		m->n++;
	}
	return m;
}

/* p's snapshot, a reference for the caller; NULL: out of memory */
static struct uw_mods *mods_get(struct proc *p)
{
	struct pmods **pp = &pms[(unsigned int)p->pid % PD_BUCKETS], *d;

	for (d = *pp; d; d = d->next)
		if (d->pid == p->pid)
			break;
	if (!d || d->p != p || d->gen != p->gen) {
		if (!d) {
			d = calloc(1, sizeof(*d));
			if (!d)
				return NULL;
			d->pid = p->pid;
			d->next = *pp;
			*pp = d;
		}
		mods_put(d->mods);
		d->p = p;
		d->gen = p->gen;
		d->mods = mods_make(p);
	}
	if (d->mods)
		atomic_fetch_add(&d->mods->refs, 1);
	return d->mods;
}

/* The sample being unwound by one unwinder: its callbacks' state. */
struct uw_cur {
	const struct ustack *us;
	pid_t		tid;
	uint64_t	sp;
	uint64_t	*pcs;
	size_t		n, max;
};

/* an unwinder's Dwfl of a process, and the snapshot it was made of */
struct pdwfl {
	pid_t		pid;
	struct uw_mods	*mods;		/* a reference */
	Dwfl		*dwfl;		/* NULL: no module could be reported */
	struct pdwfl	*next;
};

/*
 * What one thread unwinds with: its Dwfls (libdwfl's are not to be used
 * by two threads at once), and the sample's state for the callbacks.
 */
struct unwinder {
	struct pdwfl	*pds[PD_BUCKETS];
	struct uw_cur	cur;
};

static const Dwfl_Callbacks uw_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static pid_t uw_next_thread(Dwfl *dwfl, void *arg, void **targ)
{
	struct uw_cur *cur = arg;

	(void)dwfl;
	if (*targ)
		return 0;
	*targ = cur;
	return cur->tid;
}

static bool uw_get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **targ)
{
	struct uw_cur *cur = arg;

	(void)dwfl;
	*targ = cur;
	return tid == cur->tid;
}

/* Stack memory only, from the record's copy. */
static bool uw_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			   void *arg)
{
	const struct uw_cur *cur = arg;

	(void)dwfl;
	if (addr < cur->sp || addr - cur->sp > cur->us->dynsize ||
	    cur->us->dynsize - (addr - cur->sp) < sizeof(*result))
		return false;
	memcpy(result, cur->us->data + (addr - cur->sp), sizeof(*result));
	return true;
}

/* The record's registers: all but the last by number, the last the PC. */
static bool uw_set_initial_registers(Dwfl_Thread *thread, void *targ)
{
	const struct ustack *us = ((const struct uw_cur *)targ)->us;

	if (!dwfl_thread_state_registers(thread, 0, us->nregs - 1,
					 (const Dwarf_Word *)us->regs))
		return false;
	dwfl_thread_state_register_pc(thread, us->regs[us->nregs - 1]);
	return true;
}

static const Dwfl_Thread_Callbacks uw_thread_callbacks = {
	.next_thread = uw_next_thread,
	.get_thread = uw_get_thread,
	.memory_read = uw_memory_read,
	.set_initial_registers = uw_set_initial_registers,
};

/*
 * A Dwfl of a process's files (m) at their load addresses, attached to
 * the callbacks above with w's state; NULL when none of its files could
 * be reported (why: in err, when it has room).
 */
static Dwfl *make_dwfl(struct unwinder *w, const struct uw_mods *m,
		       char *err, size_t errlen)
{
	Dwfl *dwfl;
	size_t i;

	dwfl = dwfl_begin(&uw_callbacks);
	if (!dwfl)
		return NULL;
	dwfl_report_begin(dwfl);
	for (i = 0; i < m->n; i++)	/* a file that fails is left out */
		(void)dwfl_report_elf(dwfl, m->m[i].base, m->m[i].path, -1,
				      m->m[i].bias, true);
	dwfl_report_end(dwfl, NULL, NULL);
	if (!m->n || !dwfl_attach_state(dwfl, NULL, m->pid,
					&uw_thread_callbacks, &w->cur)) {
		if (errlen)
			snprintf(err, errlen, "process %d: %s", (int)m->pid,
				 m->n ? dwfl_errmsg(-1) : "none of its files could be read");
		dwfl_end(dwfl);
		return NULL;
	}
	return dwfl;
}

static Dwfl *proc_dwfl(struct unwinder *w, struct uw_mods *m, char *err,
		       size_t errlen)
{
	struct pdwfl **pp = &w->pds[(unsigned int)m->pid % PD_BUCKETS], *d;

	for (d = *pp; d; d = d->next)
		if (d->pid == m->pid)
			break;
	if (d && d->mods == m)
		return d->dwfl;
	if (!d) {
		d = calloc(1, sizeof(*d));
		if (!d)
			return NULL;
		d->pid = m->pid;
		d->next = *pp;
		*pp = d;
	} else {
		if (d->dwfl)
			dwfl_end(d->dwfl);
		mods_put(d->mods);
	}
	atomic_fetch_add(&m->refs, 1);
	d->mods = m;
	d->dwfl = make_dwfl(w, m, err, errlen);
	return d->dwfl;
}

static int uw_frame(Dwfl_Frame *state, void *arg)
{
	struct uw_cur *cur = arg;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, &activation) || !pc)
		return DWARF_CB_ABORT;
	cur->pcs[cur->n++] = pc;
	return cur->n < cur->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

static struct unwinder *unwinder_new(void)
{
	return calloc(1, sizeof(struct unwinder));
}

static void unwinder_free(struct unwinder *w)
{
	struct pdwfl *d, *next;
	size_t i;

	if (!w)
		return;
	for (i = 0; i < PD_BUCKETS; i++)
		for (d = w->pds[i]; d; d = next) {
			next = d->next;
			if (d->dwfl)
				dwfl_end(d->dwfl);
			mods_put(d->mods);
			free(d);
		}
	free(w);
}

/*
 * One sample of the process of snapshot m, by w: what unwind_user()
 * says; err (errlen bytes) gets why nothing could be unwound, if it is
 * known ("" else).
 */
static size_t unwind_run(struct unwinder *w, struct uw_mods *m, pid_t tid,
			 const struct ustack *us, uint64_t *pcs, size_t max,
			 char *err, size_t errlen)
{
	int spr = sp_regno(us->abi);
	Dwfl *dwfl;

	if (errlen)
		err[0] = 0;
	if (!m || !us->valid || spr < 0 || (uint32_t)spr >= us->nregs ||
	    !max || tid <= 0)
		return 0;
	dwfl = proc_dwfl(w, m, err, errlen);
	if (!dwfl)
		return 0;
	w->cur.us = us;
	w->cur.tid = tid;
	w->cur.sp = us->regs[spr];
	w->cur.pcs = pcs;
	w->cur.n = 0;
	w->cur.max = max;
	/* an error ends the chain where it happened: the frames so far */
	if (dwfl_getthread_frames(dwfl, tid, uw_frame, &w->cur) < 0 &&
	    !w->cur.n && errlen)
		snprintf(err, errlen, "libdw: %s", dwfl_errmsg(-1));
	return w->cur.n;
}

static struct unwinder *uw_main;	/* unwind_user()'s */

static void note_error(const char *err)
{
	if (!uw_error[0] && err[0])
		snprintf(uw_error, sizeof(uw_error), "%s", err);
}

size_t unwind_user(struct proc *p, pid_t tid, const struct ustack *us,
		   uint64_t *pcs, size_t max)
{
	struct uw_mods *m;
	char err[sizeof(uw_error)];
	size_t n;

	if (!p || !us->valid || !max || tid <= 0)
		return 0;
	if (!uw_main && !(uw_main = unwinder_new()))
		return 0;
	m = mods_get(p);
	n = unwind_run(uw_main, m, tid, us, pcs, max, err, sizeof(err));
	mods_put(m);
	note_error(err);
	return n;
}

void unwind_free(void)
{
	struct pmods *d, *next;
	size_t i;

	uw_error[0] = 0;
	unwinder_free(uw_main);
	uw_main = NULL;
	for (i = 0; i < PD_BUCKETS; i++) {
		for (d = pms[i]; d; d = next) {
			next = d->next;
			mods_put(d->mods);
			free(d);
		}
		pms[i] = NULL;
	}
}

/*
 * Unwinding on several threads (a report's --unwind-threads): the
 * reading thread queues each sample as a task, in the log's order, in a
 * ring of depth slots; the helper threads claim them in that order, a
 * batch of UW_BATCH at a time, and unwind them, each thread with its own
 * unwinder; the reading thread takes the results back in the same order
 * and, while it waits for the oldest, unwinds too: a batch nobody has
 * claimed, else the tasks of claimed batches not yet started (a helper
 * the scheduler took off its CPU holds up no more than the task it
 * runs).  Batches, not single tasks: a thread handed one sample at a
 * time slept and woke at each (a context switch per sample cost more
 * than the second CPU gave).  Sequence numbers: t[seq % depth]; a
 * task's state goes from UW_QUEUED to UW_RUNNING (one thread wins it)
 * to UW_DONE.
 */
#define UW_BATCH	16

enum { UW_QUEUED, UW_RUNNING, UW_DONE };

struct uw_pool {
	pthread_mutex_t	lock;
	pthread_cond_t	work;		/* a batch to claim, or stop */
	pthread_cond_t	done;		/* a task done while the reader waits */
	struct uw_task	*t;
	size_t		depth;
	uint64_t	head, tail;	/* the reader's */
	uint64_t	claim;		/* the first task of no batch (lock) */
	int		stop;		/* (lock) */
	atomic_int	waiting;	/* the reader waits for the oldest */
	int		idle;		/* helpers waiting for work (lock) */
	int		nthr;		/* helper threads */
	int		nw;		/* unwinders */
	pthread_t	*thr;
	struct unwinder	**w;		/* [0]: the reading thread's */
	struct uw_pool_arg {
		struct uw_pool	*pl;
		struct unwinder	*w;
	} *args;
};

/* run t if no other thread has started it; 1: this one did */
static int task_run(struct uw_pool *pl, struct unwinder *w, struct uw_task *t)
{
	int queued = UW_QUEUED;

	if (!atomic_compare_exchange_strong(&t->state, &queued, UW_RUNNING))
		return 0;
	t->n = unwind_run(w, t->mods, t->tid, &t->us, t->pcs, t->max,
			  t->err, sizeof(t->err));
	atomic_store(&t->state, UW_DONE);
	if (atomic_load(&pl->waiting)) {
		pthread_mutex_lock(&pl->lock);
		pthread_cond_signal(&pl->done);
		pthread_mutex_unlock(&pl->lock);
	}
	return 1;
}

/*
 * Claim the next batch (at most UW_BATCH tasks) and run it, the lock
 * held (dropped meanwhile).
 */
static void pool_run_batch(struct uw_pool *pl, struct unwinder *w)
{
	uint64_t seq = pl->claim, end = pl->tail, i;

	if (end - seq > UW_BATCH)
		end = seq + UW_BATCH;
	pl->claim = end;
	pthread_mutex_unlock(&pl->lock);
	for (i = seq; i < end; i++)
		task_run(pl, w, &pl->t[i % pl->depth]);
	pthread_mutex_lock(&pl->lock);
}

/* a helper's: whole batches, or what there is when the reader waits */
static void *pool_thread(void *arg)
{
	struct uw_pool_arg *a = arg;
	struct uw_pool *pl = a->pl;

	pthread_mutex_lock(&pl->lock);
	for (;;) {
		while (!pl->stop && !(pl->tail - pl->claim >= UW_BATCH ||
				      (atomic_load(&pl->waiting) && pl->claim < pl->tail))) {
			pl->idle++;
			pthread_cond_wait(&pl->work, &pl->lock);
			pl->idle--;
		}
		if (pl->claim == pl->tail)
			break;		/* stop, with nothing queued */
		pool_run_batch(pl, a->w);
	}
	pthread_mutex_unlock(&pl->lock);
	return NULL;
}

struct uw_pool *uw_pool_new(int threads, size_t depth)
{
	struct uw_pool *pl;
	int i;

	if (threads < 2 || !depth)
		return NULL;
	pl = calloc(1, sizeof(*pl));
	if (!pl)
		return NULL;
	pl->depth = depth;
	pl->t = calloc(depth, sizeof(*pl->t));
	pl->thr = calloc((size_t)threads, sizeof(*pl->thr));
	pl->w = calloc((size_t)threads, sizeof(*pl->w));
	pl->args = calloc((size_t)threads, sizeof(*pl->args));
	if (!pl->t || !pl->thr || !pl->w || !pl->args)
		goto fail;
	pthread_mutex_init(&pl->lock, NULL);
	pthread_cond_init(&pl->work, NULL);
	pthread_cond_init(&pl->done, NULL);
	pl->nw = threads;
	for (i = 0; i < threads; i++)
		if (!(pl->w[i] = unwinder_new()))
			goto fail_sync;
	for (i = 1; i < threads; i++) {
		pl->args[i].pl = pl;
		pl->args[i].w = pl->w[i];
		if (pthread_create(&pl->thr[pl->nthr], NULL, pool_thread, &pl->args[i]))
			break;		/* fewer helpers */
		pl->nthr++;
	}
	if (pl->nthr)
		return pl;
fail_sync:
	pthread_mutex_destroy(&pl->lock);
	pthread_cond_destroy(&pl->work);
	pthread_cond_destroy(&pl->done);
fail:
	if (pl->w)
		for (i = 0; i < threads; i++)
			unwinder_free(pl->w[i]);
	free(pl->w);
	free(pl->args);
	free(pl->thr);
	free(pl->t);
	free(pl);
	return NULL;
}

struct uw_task *uw_pool_task(struct uw_pool *pl, size_t i)
{
	return &pl->t[i];
}

void uw_pool_push(struct uw_pool *pl, struct proc *p)
{
	struct uw_task *t = &pl->t[pl->tail % pl->depth];

	t->mods = p && t->us.valid && t->max && t->tid > 0 ? mods_get(p) : NULL;
	t->n = 0;
	atomic_store(&t->state, UW_QUEUED);
	pthread_mutex_lock(&pl->lock);
	pl->tail++;
	if (pl->idle && pl->tail - pl->claim >= UW_BATCH)
		pthread_cond_signal(&pl->work);
	pthread_mutex_unlock(&pl->lock);
}

struct uw_task *uw_pool_head(struct uw_pool *pl, int wait)
{
	struct uw_task *t;
	uint64_t seq, claim;

	if (pl->head == pl->tail)
		return NULL;
	t = &pl->t[pl->head % pl->depth];
	if (atomic_load(&t->state) == UW_DONE)
		return t;
	if (!wait)
		return NULL;
	pthread_mutex_lock(&pl->lock);
	atomic_store(&pl->waiting, 1);
	while (atomic_load(&t->state) != UW_DONE) {
		if (pl->claim < pl->tail) {
			/* the helpers take what is left, and the reader helps */
			if (pl->idle)
				pthread_cond_broadcast(&pl->work);
			pool_run_batch(pl, pl->w[0]);
			continue;
		}
		/* the tasks of the helpers' batches they have not started */
		claim = pl->claim;
		pthread_mutex_unlock(&pl->lock);
		for (seq = pl->head; seq < claim; seq++)
			if (task_run(pl, pl->w[0], &pl->t[seq % pl->depth]))
				break;
		pthread_mutex_lock(&pl->lock);
		if (seq == claim && atomic_load(&t->state) != UW_DONE)
			pthread_cond_wait(&pl->done, &pl->lock);
	}
	atomic_store(&pl->waiting, 0);
	pthread_mutex_unlock(&pl->lock);
	return t;
}

void uw_pool_pop(struct uw_pool *pl)
{
	struct uw_task *t = &pl->t[pl->head % pl->depth];

	note_error(t->err);
	mods_put(t->mods);
	t->mods = NULL;
	pl->head++;
}

void uw_pool_free(struct uw_pool *pl)
{
	int i;

	if (!pl)
		return;
	while (uw_pool_head(pl, 1))
		uw_pool_pop(pl);
	pthread_mutex_lock(&pl->lock);
	pl->stop = 1;
	pthread_cond_broadcast(&pl->work);
	pthread_mutex_unlock(&pl->lock);
	for (i = 0; i < pl->nthr; i++)
		pthread_join(pl->thr[i], NULL);
	for (i = 0; i < pl->nw; i++)
		unwinder_free(pl->w[i]);
	pthread_mutex_destroy(&pl->lock);
	pthread_cond_destroy(&pl->work);
	pthread_cond_destroy(&pl->done);
	free(pl->w);
	free(pl->args);
	free(pl->thr);
	free(pl->t);
	free(pl);
}

#else /* !HWPMC_WITH_DW */

size_t unwind_user(struct proc *p, pid_t tid, const struct ustack *us,
		   uint64_t *pcs, size_t max)
{
	(void)p;
	(void)tid;
	(void)us;
	(void)pcs;
	(void)max;
	return 0;
}

void unwind_free(void)
{
}

struct uw_pool *uw_pool_new(int threads, size_t depth)
{
	(void)threads;
	(void)depth;
	return NULL;		/* nothing to unwind: no pool */
}

struct uw_task *uw_pool_task(struct uw_pool *pl, size_t i)
{
	(void)pl;
	(void)i;
	return NULL;
}

void uw_pool_push(struct uw_pool *pl, struct proc *p)
{
	(void)pl;
	(void)p;
}

struct uw_task *uw_pool_head(struct uw_pool *pl, int wait)
{
	(void)pl;
	(void)wait;
	return NULL;
}

void uw_pool_pop(struct uw_pool *pl)
{
	(void)pl;
}

void uw_pool_free(struct uw_pool *pl)
{
	(void)pl;
}

#endif /* HWPMC_WITH_DW */
