// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat: reports from a log (pmcstat(8)'s -R): a text dump of the
 * records (--dump), a flat profile, a call graph (--graph), pmcstat's
 * call chains (-G) and calltree for KCachegrind (-F), folded stacks for
 * flame graphs (--folded), and the live top display (-T).
 *
 * The log is read with pmclog(3), once, a chunk at a time (a log of a
 * million samples is a hundred megabytes: it is not kept in memory), and
 * every report asked for is made in that one pass: the samples of each
 * event are added up per function as they are read.  Each sample
 * (CALLCHAIN record) is resolved when it is read, against the mappings
 * the log announced before it: MAP_IN records come when a mapping is
 * made, samples when the module drains its rings, so a sample never
 * precedes the mapping it falls in.  A flat profile needs only the
 * sampled PC of each chain; the call graph and folded stacks resolve
 * the whole chain.  Samples with a USERSTACK (--call-graph dwarf) are
 * queued for the unwinding threads of pmcstat_unwind.c and aggregated
 * in the log's order when their frames are back (enqueue(), dequeue()).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <limits.h>
#include <pmclog.h>

#include "pmcstat.h"

#define MAXCHAIN	1024
#define REPORT_CHUNK	(1 << 16)	/* bytes read at a time */
#define REPORT_MAP_CHUNK (1 << 20)	/* bytes of a mapped log fed at a time */

/* -- the log ------------------------------------------------------------------- */

int log_load(struct logbuf *lb, int fd)
{
	ssize_t n;

	for (;;) {
		if (lb->room - lb->len < 65536) {
			lb->room = lb->room ? lb->room * 2 : 1 << 20;
			lb->data = realloc(lb->data, lb->room);
			if (!lb->data) {
				errno = ENOMEM;
				return -1;
			}
		}
		n = read(fd, lb->data + lb->len, lb->room - lb->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			return 0;
		lb->len += (size_t)n;
	}
}

void log_free(struct logbuf *lb)
{
	free(lb->data);
	memset(lb, 0, sizeof(*lb));
}

/* ns of a pmclog timestamp */
static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ULL + (uint64_t)ts->tv_nsec;
}

/* -- processing ------------------------------------------------------------------ */

struct pmcdesc {
	uint32_t	id;
	uint64_t	rate;
	uint64_t	samples;	/* in the log */
	int		ev;		/* its event's index in ctx.evs, or -1 */
	char		name[PMC_NAME_MAX + 1];
};

struct edge {
	uint64_t	key;		/* caller << 32 | callee */
	uint64_t	count;
};

/*
 * A distinct stack of the folded report, keyed on what its text is made
 * of (the process's name or pid, then its functions' indices): the text
 * is written once per stack, at the end, not once per sample.
 */
struct folded {
	uint64_t	hash;
	uint64_t	count;		/* 0: a free slot */
	char		*comm;		/* the process's name, or NULL: pid */
	pid_t		pid;
	uint32_t	n;		/* functions, leaf first, */
	size_t		at;		/* at evrep.foldfids[at] */
};

/* -F: the samples of a leaf function at one instruction (its address) */
struct instr {
	uint64_t	addr;		/* link-time in its file; kernel, JIT,
					   no file: run-time */
	int		fid;
	uint64_t	count;		/* 0: a free slot */
};

/*
 * What the samples of one event (its PMCs together: one per CPU in
 * system sampling) add up to; counts indexed by function (sym_funcs).
 */
struct evrep {
	char		name[PMC_NAME_MAX + 1];
	uint64_t	samples;	/* aggregated (the filters passed) */
	uint64_t	unresolved;	/* with an unknown leaf */
	uint64_t	*self;		/* samples with the function as leaf */
	uint64_t	*total;		/* samples with it in the chain */
	uint32_t	*stamp;		/* the last sample that counted it */
	uint32_t	cur;		/* this sample's stamp */
	size_t		room;		/* entries of self, total, stamp */
	struct edge	*edges;		/* open addressing */
	size_t		nedge, edgeroom;
	struct folded	*folds;		/* open addressing */
	size_t		nfold, foldroom;
	int		*foldfids;	/* the stacks' function indices */
	size_t		nfoldfid, foldfidroom;
	struct instr	*instrs;	/* -F: open addressing */
	size_t		ninstr, instrroom;
};

struct ctx {
	const struct report_opts *o;
	int		aggregate;	/* any report but the dump */
	int		want_chain;	/* resolve whole chains (else the leaf) */
	int		want_edges, want_folded;
	int		want_instr;	/* -F: leaf instructions, functions' starts */
	uint64_t	*fstart;	/* -F: each function's address (+1; 0:
					   unknown), indexed as sym_funcs */
	size_t		fstartroom;
	FILE		*dump;		/* -D: the records as text */
	FILE		*pcs, *addrs;	/* -m, -a: per sample, as read */
	struct gmon	*gmon;		/* -g */
	uint64_t	t0;		/* dump: first record's time */
	struct pmcdesc	*pmcs;
	size_t		npmc;
	struct evrep	*evs;
	size_t		nev;
	struct log_summary *sum;
	void		*parser;	/* pmclog(3), fed by feed() */
	struct annot	*an;		/* --annotate, or NULL */
	struct ustack	us;		/* the USERSTACK just read */
	const unsigned char *map;	/* the mapped log, or NULL */
	size_t		maplen;
	/*
	 * --unwind-threads: the samples queued for the unwinding threads,
	 * in the log's order (seq qhead..qtail, slot seq % qdepth), with
	 * what sample() takes besides their unwound frames
	 */
	int		threads;	/* for the pool: 0, or 2 and more */
	struct uw_pool	*pool;		/* made at the first USERSTACK */
	struct queued {
		int		ev;		/* its event */
		uint32_t	k;		/* kernel frames before the user's */
		int		tried;		/* unwinding asked for */
		const unsigned char *low;	/* the mapped log's bytes it
						   reads from here on, or NULL */
		struct pmclog_ev_callchain cc;	/* the sample as logged */
	} *q;
	size_t		qdepth;
	uint64_t	qhead, qtail;
};

static uint64_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static void edge_add(struct evrep *e, uint32_t caller, uint32_t callee)
{
	uint64_t key = (uint64_t)caller << 32 | callee;
	size_t i, mask;

	if (e->nedge * 2 >= e->edgeroom) {
		struct edge *old = e->edges;
		size_t oroom = e->edgeroom;

		e->edgeroom = oroom ? oroom * 2 : 1024;
		e->edges = xrealloc(NULL, e->edgeroom * sizeof(*e->edges));
		memset(e->edges, 0, e->edgeroom * sizeof(*e->edges));
		e->nedge = 0;
		for (i = 0; i < oroom; i++)
			if (old[i].count) {
				size_t j, m = e->edgeroom - 1;

				for (j = hash64(old[i].key) & m; e->edges[j].count;
				     j = (j + 1) & m)
					;
				e->edges[j] = old[i];
				e->nedge++;
			}
		free(old);
	}
	mask = e->edgeroom - 1;
	for (i = hash64(key) & mask; e->edges[i].count; i = (i + 1) & mask)
		if (e->edges[i].key == key) {
			e->edges[i].count++;
			return;
		}
	e->edges[i].key = key;
	e->edges[i].count = 1;
	e->nedge++;
}

static uint64_t fold_hash(const char *comm, pid_t pid, const int *fids,
			  size_t n)
{
	uint64_t h = comm ? hash_str(comm) : hash64((uint64_t)(uint32_t)pid);
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (uint32_t)fids[i]) * 1099511628211ULL;
	return h;
}

/* One more sample of the stack fids[0..n) (leaf first) of comm or pid. */
static void fold_add(struct evrep *e, const char *comm, pid_t pid,
		     const int *fids, size_t n)
{
	uint64_t h = fold_hash(comm, pid, fids, n);
	struct folded *f;
	size_t i, mask;

	if (e->nfold * 2 >= e->foldroom) {
		struct folded *old = e->folds;
		size_t oroom = e->foldroom;

		e->foldroom = oroom ? oroom * 2 : 1024;
		e->folds = xrealloc(NULL, e->foldroom * sizeof(*e->folds));
		memset(e->folds, 0, e->foldroom * sizeof(*e->folds));
		for (i = 0; i < oroom; i++)
			if (old[i].count) {
				size_t j, m = e->foldroom - 1;

				for (j = old[i].hash & m; e->folds[j].count;
				     j = (j + 1) & m)
					;
				e->folds[j] = old[i];
			}
		free(old);
	}
	mask = e->foldroom - 1;
	for (i = h & mask; e->folds[i].count; i = (i + 1) & mask) {
		f = &e->folds[i];
		if (f->hash == h && f->n == n && !f->comm == !comm &&
		    (comm ? !strcmp(f->comm, comm) : f->pid == pid) &&
		    !memcmp(e->foldfids + f->at, fids, n * sizeof(*fids))) {
			f->count++;
			return;
		}
	}
	if (e->nfoldfid + n > e->foldfidroom) {
		while (e->nfoldfid + n > e->foldfidroom)
			e->foldfidroom = e->foldfidroom ? e->foldfidroom * 2 : 4096;
		e->foldfids = xrealloc(e->foldfids,
				       e->foldfidroom * sizeof(*e->foldfids));
	}
	f = &e->folds[i];
	f->hash = h;
	f->count = 1;
	f->comm = comm ? strdup(comm) : NULL;
	if (comm && !f->comm) {
		fprintf(stderr, "hwpmc-stat: out of memory\n");
		exit(1);
	}
	f->pid = pid;
	f->n = (uint32_t)n;
	f->at = e->nfoldfid;
	memcpy(e->foldfids + e->nfoldfid, fids, n * sizeof(*fids));
	e->nfoldfid += n;
	e->nfold++;
}

/* room in e's counts for every function known */
static void ev_grow(struct evrep *e)
{
	size_t room = e->room;

	if (room >= sym_nfunc)
		return;
	while (room < sym_nfunc)
		room = room ? room * 2 : 256;
	e->self = xrealloc(e->self, room * sizeof(*e->self));
	e->total = xrealloc(e->total, room * sizeof(*e->total));
	e->stamp = xrealloc(e->stamp, room * sizeof(*e->stamp));
	memset(e->self + e->room, 0, (room - e->room) * sizeof(*e->self));
	memset(e->total + e->room, 0, (room - e->room) * sizeof(*e->total));
	memset(e->stamp + e->room, 0, (room - e->room) * sizeof(*e->stamp));
	e->room = room;
}

static void ev_free(struct evrep *e)
{
	size_t i;

	for (i = 0; i < e->foldroom; i++)
		free(e->folds[i].comm);
	free(e->folds);
	free(e->foldfids);
	free(e->instrs);
	free(e->edges);
	free(e->self);
	free(e->total);
	free(e->stamp);
	memset(e, 0, sizeof(*e));
}

/* The event named name, created when new; its index. */
static int ev_get(struct ctx *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nev; i++)
		if (!strcmp(c->evs[i].name, name))
			return (int)i;
	c->evs = xrealloc(c->evs, (c->nev + 1) * sizeof(*c->evs));
	memset(&c->evs[c->nev], 0, sizeof(*c->evs));
	snprintf(c->evs[c->nev].name, sizeof(c->evs[0].name), "%s", name);
	return (int)c->nev++;
}

static void ctx_clear(struct ctx *c)
{
	size_t i;

	for (i = 0; i < c->nev; i++)
		ev_free(&c->evs[i]);
	free(c->evs);
	free(c->pmcs);
	free(c->fstart);
	c->fstart = NULL;
	c->fstartroom = 0;
	c->evs = NULL;
	c->pmcs = NULL;
	c->nev = c->npmc = 0;
}

static struct pmcdesc *pmc_desc(struct ctx *c, uint32_t id, int create)
{
	size_t i;

	for (i = 0; i < c->npmc; i++)
		if (c->pmcs[i].id == id)
			return &c->pmcs[i];
	if (!create)
		return NULL;
	c->pmcs = xrealloc(c->pmcs, (c->npmc + 1) * sizeof(*c->pmcs));
	memset(&c->pmcs[c->npmc], 0, sizeof(*c->pmcs));
	c->pmcs[c->npmc].id = id;
	c->pmcs[c->npmc].ev = -1;
	snprintf(c->pmcs[c->npmc].name, sizeof(c->pmcs[0].name), "pmc-0x%x", id);
	return &c->pmcs[c->npmc++];
}

static int wanted(const struct ctx *c, const struct proc *p, pid_t pid,
		  pid_t tid)
{
	const struct report_opts *o = c->o;
	int i;

	if (o->ntid) {
		for (i = 0; i < o->ntid; i++)
			if (o->tids[i] == tid)
				break;
		if (i == o->ntid)
			return 0;
	}

	if (o->npid) {
		for (i = 0; i < o->npid; i++)
			if (o->pids[i] == pid)
				break;
		if (i == o->npid)
			return 0;
	}
	if (o->comm && (!p || !p->comm || strcmp(p->comm, o->comm)))
		return 0;
	return 1;
}

/* -m: the sampled PC, its function, the function's link-time range */
static void write_pc(FILE *out, struct proc *p, uint64_t pc, int fid)
{
	uint64_t start, end;

	if (sym_funcs[fid].unknown || sym_range(p, pc, &start, &end) < 0)
		return;
	fprintf(out, "%#" PRIx64 " %s %#" PRIx64 " %#" PRIx64 "\n", pc,
		sym_funcs[fid].name, start, end);
}

/*
 * -a: every frame of a sample, "PC function file:line" (the line of
 * the call, for return addresses; "??:0": not known), then "--".
 */
static void write_addrs(FILE *out, struct proc *p, const uint64_t *pcs,
			const int *fids, size_t n)
{
	char buf[PATH_MAX + 256];
	const char *line;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct func *f = &sym_funcs[fids[i]];

		line = sym_srcline(p, i ? pcs[i] - 1 : pcs[i], buf, sizeof(buf));
		if (line)
			buf[strcspn(buf, " ")] = '\0';	/* "file:line" */
		fprintf(out, "%#" PRIx64 " %s %s\n", pcs[i],
			f->unknown ? "<unknown>" : f->name, line ? line : "??:0");
	}
	fputs("--\n", out);
}

/* an address as -F shows it: link-time in its file, else run-time */
static uint64_t instr_addr(struct proc *p, uint64_t pc)
{
	uint64_t va;

	if (!sym_is_kernel(pc) && sym_image_va(p, pc, &va))
		return va;
	return pc;
}

/* -F: one more sample of function fid at instruction addr */
static void instr_add(struct evrep *e, int fid, uint64_t addr)
{
	uint64_t h = hash64(addr ^ ((uint64_t)(uint32_t)fid << 40));
	size_t i, mask;

	if (e->ninstr * 2 >= e->instrroom) {
		struct instr *old = e->instrs;
		size_t oroom = e->instrroom;

		e->instrroom = oroom ? oroom * 2 : 256;
		e->instrs = xrealloc(NULL, e->instrroom * sizeof(*e->instrs));
		memset(e->instrs, 0, e->instrroom * sizeof(*e->instrs));
		for (i = 0; i < oroom; i++)
			if (old[i].count) {
				uint64_t oh = hash64(old[i].addr ^
						     ((uint64_t)(uint32_t)old[i].fid << 40));
				size_t j, m = e->instrroom - 1;

				for (j = oh & m; e->instrs[j].count; j = (j + 1) & m)
					;
				e->instrs[j] = old[i];
			}
		free(old);
	}
	mask = e->instrroom - 1;
	for (i = h & mask; e->instrs[i].count; i = (i + 1) & mask)
		if (e->instrs[i].addr == addr && e->instrs[i].fid == fid) {
			e->instrs[i].count++;
			return;
		}
	e->instrs[i].addr = addr;
	e->instrs[i].fid = fid;
	e->instrs[i].count = 1;
	e->ninstr++;
}

/* -F: the start of each function of a chain, the first time it is seen */
static void func_starts(struct ctx *c, struct proc *p, const uint64_t *pcs,
			const int *fids, size_t n)
{
	uint64_t start, end;
	size_t i, room;

	if (c->fstartroom < sym_nfunc) {
		room = c->fstartroom ? c->fstartroom : 256;
		while (room < sym_nfunc)
			room *= 2;
		c->fstart = xrealloc(c->fstart, room * sizeof(*c->fstart));
		memset(c->fstart + c->fstartroom, 0,
		       (room - c->fstartroom) * sizeof(*c->fstart));
		c->fstartroom = room;
	}
	for (i = 0; i < n; i++) {
		uint64_t pc = i ? pcs[i] - 1 : pcs[i];

		if (c->fstart[fids[i]] || sym_funcs[fids[i]].unknown ||
		    sym_range(p, pc, &start, &end) < 0)
			continue;
		/* link-time in its file (kernel, JIT: run-time), as instr_addr() */
		c->fstart[fids[i]] = start + 1;
	}
}

static void sample(struct ctx *c, struct evrep *e,
		   const struct pmclog_ev_callchain *cc)
{
	static int fids[MAXCHAIN];
	pid_t pid = (pid_t)cc->pl_pid;
	size_t i, n = cc->pl_npc;
	struct proc *p;
	int fid, unknown;

	if (!n)
		return;
	p = sym_proc(pid, 0);
	if (!wanted(c, p, pid, (pid_t)cc->pl_tid))
		return;
	if (n > MAXCHAIN)
		n = MAXCHAIN;
	if (!c->want_chain)
		n = 1;		/* the flat profile needs the leaf only */
	/* return addresses: the call instruction is before them */
	for (i = 0; i < n; i++)
		fids[i] = sym_resolve_proc(p, i ? cc->pl_pc[i] - 1 : cc->pl_pc[i]);
	if (c->pcs)
		write_pc(c->pcs, p, cc->pl_pc[0], fids[0]);
	if (c->addrs)
		write_addrs(c->addrs, p, cc->pl_pc, fids, n);
	if (c->gmon)
		gmon_sample(c->gmon, e->name, p, cc->pl_pc, n);
	if (c->o->graphdepth > 0 && n > (size_t)c->o->graphdepth)
		n = (size_t)c->o->graphdepth;	/* -z */
	unknown = sym_funcs[fids[0]].unknown;
	if (c->o->addresses)			/* -A: the leaf; -I: all */
		for (i = 0; i < (c->o->addresses == 1 ? 1 : n); i++)
			fids[i] = sym_addr_func(p, cc->pl_pc[i], i ? cc->pl_pc[i] - 1 :
						cc->pl_pc[i], fids[i],
						c->o->addresses == 2);
	ev_grow(e);
	e->samples++;
	e->cur++;
	e->self[fids[0]]++;
	if (unknown)
		e->unresolved++;
	for (i = 0; i < n; i++) {
		fid = fids[i];
		if (e->stamp[fid] != e->cur) {
			e->stamp[fid] = e->cur;
			e->total[fid]++;
		}
	}
	if (c->want_edges)
		for (i = 0; i + 1 < n; i++)
			if (fids[i + 1] != fids[i])
				edge_add(e, (uint32_t)fids[i + 1], (uint32_t)fids[i]);
	if (c->want_folded)
		fold_add(e, p ? p->comm : NULL, pid, fids, n);
	if (c->want_instr) {
		instr_add(e, fids[0], instr_addr(p, cc->pl_pc[0]));
		func_starts(c, p, cc->pl_pc, fids, n);
	}
	if (c->an)
		annot_sample(c->an, (int)(e - c->evs), p, cc->pl_pc[0]);
}

/*
 * Sample cc with the USERSTACK before it (c->us): its kernel frames as
 * they are, then the user frames unwound by DWARF CFI in place of the
 * frame-pointer chain (kept when nothing could be unwound).
 */
static const struct pmclog_ev_callchain *
unwound(struct ctx *c, const struct pmclog_ev_callchain *cc)
{
	static struct pmclog_ev_callchain u;
	struct proc *p = sym_proc((pid_t)cc->pl_pid, 0);
	uint32_t k = 0, n;

	/* the kernel's frames first: a sample in the kernel, or none */
	if (!PMC_CALLCHAIN_CPUFLAGS_TO_USERMODE(cc->pl_cpuflags))
		while (k < cc->pl_npc && sym_is_kernel(cc->pl_pc[k]))
			k++;
	if (k && !(cc->pl_cpuflags & PMC_CC_F_KERNEL_USER))
		return cc;	/* no user part asked for (-U) */
	c->sum->unwind_tried++;
	n = (uint32_t)unwind_user(p, (pid_t)cc->pl_tid, &c->us, u.pl_pc + k,
				  PMC_CALLCHAIN_DEPTH_MAX - k);
	if (!n)
		return cc;
	c->sum->unwound++;
	memcpy(&u, cc, offsetof(struct pmclog_ev_callchain, pl_pc));
	memcpy(u.pl_pc, cc->pl_pc, k * sizeof(u.pl_pc[0]));
	u.pl_npc = k + n;
	return &u;
}

/*
 * The oldest queued sample, when its unwinding is done (wait: until it
 * is), aggregated as unwound() and sample() do; 0: none.
 */
static int dequeue(struct ctx *c, int wait)
{
	static struct pmclog_ev_callchain u;
	const struct pmclog_ev_callchain *cc;
	struct uw_task *t;
	struct queued *q;

	if (c->qhead == c->qtail || !(t = uw_pool_head(c->pool, wait)))
		return 0;
	q = &c->q[c->qhead % c->qdepth];
	cc = &q->cc;
	if (q->tried) {
		c->sum->unwind_tried++;
		if (t->n) {
			c->sum->unwound++;
			memcpy(&u, cc, offsetof(struct pmclog_ev_callchain, pl_pc));
			memcpy(u.pl_pc, cc->pl_pc, q->k * sizeof(u.pl_pc[0]));
			memcpy(u.pl_pc + q->k, t->pcs, t->n * sizeof(u.pl_pc[0]));
			u.pl_npc = q->k + (uint32_t)t->n;
			cc = &u;
		}
	}
	sample(c, &c->evs[q->ev], cc);
	uw_pool_pop(c->pool);
	c->qhead++;
	return 1;
}

/* every queued sample aggregated: before what changes what sample() reads */
static void drain(struct ctx *c)
{
	if (c->pool)
		while (dequeue(c, 1))
			;
}

/*
 * Sample cc of event ev, queued for the unwinding threads (with the
 * USERSTACK before it when us): the work of unwound(), the unwinding
 * left to the pool.
 */
static void enqueue(struct ctx *c, int ev, const struct pmclog_ev_callchain *cc,
		    int us)
{
	struct proc *p = NULL;
	struct uw_task *t;
	struct queued *q;
	uint32_t k = 0, npc = cc->pl_npc;

	if (c->qtail - c->qhead == c->qdepth)
		dequeue(c, 1);
	q = &c->q[c->qtail % c->qdepth];
	t = uw_pool_task(c->pool, c->qtail % c->qdepth);
	if (npc > PMC_CALLCHAIN_DEPTH_MAX)
		npc = PMC_CALLCHAIN_DEPTH_MAX;
	memcpy(&q->cc, cc, offsetof(struct pmclog_ev_callchain, pl_pc));
	memcpy(q->cc.pl_pc, cc->pl_pc, npc * sizeof(cc->pl_pc[0]));
	q->cc.pl_npc = npc;
	q->ev = ev;
	q->tried = 0;
	q->low = NULL;
	t->us.valid = 0;
	t->tid = (pid_t)cc->pl_tid;
	t->max = 0;
	if (us) {
		if (!PMC_CALLCHAIN_CPUFLAGS_TO_USERMODE(cc->pl_cpuflags))
			while (k < npc && sym_is_kernel(cc->pl_pc[k]))
				k++;
		if (!k || (cc->pl_cpuflags & PMC_CC_F_KERNEL_USER)) {
			q->tried = 1;
			q->k = k;
			p = sym_proc((pid_t)cc->pl_pid, 0);
			ustack_copy(&t->us, &c->us);
			t->max = PMC_CALLCHAIN_DEPTH_MAX - k;
			if (c->us.valid && c->us.data != c->us.stack)
				q->low = c->us.data;
		}
	}
	uw_pool_push(c->pool, p);
	c->qtail++;
	while (dequeue(c, 0))	/* what is done already */
		;
}

/*
 * The unwinding threads, and the queue; none when they cannot be made
 * (the samples are unwound as they are read, by unwind_user()).
 */
static void pool_open(struct ctx *c)
{
	size_t depth = 64 * (size_t)c->threads;

	c->q = calloc(depth, sizeof(*c->q));
	if (c->q)
		c->pool = uw_pool_new(c->threads, depth);
	if (!c->pool) {
		free(c->q);
		c->q = NULL;
	}
	c->qdepth = depth;
	c->threads = 0;		/* tried */
}

static void pool_close(struct ctx *c)
{
	drain(c);
	uw_pool_free(c->pool);
	free(c->q);
	c->pool = NULL;
	c->q = NULL;
}

/* the first byte of the mapped log a queued sample reads, or NULL */
static const unsigned char *queued_low(const struct ctx *c)
{
	uint64_t seq;

	for (seq = c->qhead; seq != c->qtail; seq++)
		if (c->q[seq % c->qdepth].low)
			return c->q[seq % c->qdepth].low;
	return NULL;
}

static void set_comm(pid_t pid, const char *path)
{
	struct proc *p = sym_proc(pid, 1);
	const char *b = strrchr(path, '/');

	if (!*path)
		return;
	free(p->comm);
	p->comm = strdup(b ? b + 1 : path);
}

/*
 * The start of a MAP_IN's executable mapping: pl_mapstart; pl_start (the
 * object's base) in logs written before the record had it.
 */
static uint64_t map_start(const struct pmclog_ev_map_in *m)
{
	return m->pl_mapstart ? m->pl_mapstart : m->pl_start;
}

static void process(struct ctx *c, const struct pmclog_ev *ev)
{
	struct pmcdesc *d;

	switch (ev->pl_type) {
	case PMCLOG_TYPE_PMCATTACH:
	case PMCLOG_TYPE_PROCEXEC:
	case PMCLOG_TYPE_PROCFORK:
	case PMCLOG_TYPE_MAP_IN:
		drain(c);	/* the samples before it see the processes before it */
		break;
	default:
		break;
	}
	switch (ev->pl_type) {
	case PMCLOG_TYPE_PMCALLOCATE: {
		const struct pmclog_ev_pmcallocate *a = &ev->pl_u.pl_a;

		d = pmc_desc(c, a->pl_pmcid, 1);
		d->rate = a->pl_rate;
		snprintf(d->name, sizeof(d->name), "%s",
			 a->pl_evname ? a->pl_evname : "?");
		break;
	}
	case PMCLOG_TYPE_PMCALLOCATEDYN: {
		const struct pmclog_ev_pmcallocatedyn *a = &ev->pl_u.pl_ad;

		d = pmc_desc(c, a->pl_pmcid, 1);
		d->rate = a->pl_rate;
		snprintf(d->name, sizeof(d->name), "%s",
			 a->pl_evname[0] ? a->pl_evname : "?");
		break;
	}
	case PMCLOG_TYPE_PMCATTACH:
		set_comm(ev->pl_u.pl_t.pl_pid, ev->pl_u.pl_t.pl_pathname);
		break;
	case PMCLOG_TYPE_PROCEXEC:
		sym_exec(ev->pl_u.pl_x.pl_pid, ev->pl_u.pl_x.pl_pathname,
			 ev->pl_u.pl_x.pl_baseaddr, ev->pl_u.pl_x.pl_dynaddr);
		break;
	case PMCLOG_TYPE_PROCFORK:
		sym_fork(ev->pl_u.pl_f.pl_oldpid, ev->pl_u.pl_f.pl_newpid);
		break;
	case PMCLOG_TYPE_MAP_IN: {
		const struct pmclog_ev_map_in *m = &ev->pl_u.pl_mi;

		if (m->pl_pid >= 0 && m->pl_end > map_start(m))
			sym_map_in(m->pl_pid, map_start(m), m->pl_end,
				   m->pl_pgoff, m->pl_pathname);
		break;
	}
	case PMCLOG_TYPE_USERSTACK:
		/*
		 * for the CALLCHAIN that comes next: the stack copied, or
		 * pointed at where the record is in the mapped log (the
		 * pages of the chunk before the one being read stay)
		 */
		ustack_set(&c->us, &ev->pl_u.pl_us,
			   c->map && (const unsigned char *)ev->pl_data >= c->map &&
			   (const unsigned char *)ev->pl_data < c->map + c->maplen);
		return;
	case PMCLOG_TYPE_CALLCHAIN: {
		const struct pmclog_ev_callchain *cc = &ev->pl_u.pl_cc;

		c->sum->samples++;
		d = pmc_desc(c, cc->pl_pmcid, 1);
		d->samples++;
		if (d->ev < 0)	/* one report per event, its PMCs together */
			d->ev = ev_get(c, d->name);
		if (c->us.valid && c->us.pmcid == cc->pl_pmcid) {
			c->sum->ustacks++;
			if (c->threads && !c->pool)
				pool_open(c);
			if (c->pool) {
				enqueue(c, d->ev, cc, 1);
				break;
			}
			if (c->aggregate && c->want_chain)
				cc = unwound(c, cc);
		}
		if (c->pool && c->qhead != c->qtail)
			enqueue(c, d->ev, cc, 0);	/* after those queued */
		else if (c->aggregate)
			sample(c, &c->evs[d->ev], cc);
		break;
	}
	case PMCLOG_TYPE_DROPNOTIFY:
		c->sum->dropped_records += ev->pl_u.pl_dn.pl_dropped;
		break;
	case PMCLOG_TYPE_CLOSELOG:
		c->sum->closed = 1;
		break;
	default:
		break;
	}
	c->us.valid = 0;	/* a USERSTACK is for the record after it */
}

static void dump_rec(struct ctx *c, const struct pmclog_ev *ev);

/*
 * Hand len bytes of the log to the parser and process the records they
 * complete.  A malformed log ends the reading (pmclog(3) stays in error):
 * counted in the summary, with its offset.
 */
static void feed(struct ctx *c, const unsigned char *data, size_t len)
{
	static struct pmclog_ev ev;
	struct log_summary *sum = c->sum;
	size_t n;

	if (!c->parser) {
		c->parser = pmclog_open(PMCLOG_FD_NONE);
		if (!c->parser) {
			fprintf(stderr, "hwpmc-stat: out of memory\n");
			exit(1);
		}
	}
	while (len && !sum->bad) {
		n = len < INT_MAX / 2 ? len : INT_MAX / 2;
		if (pmclog_feed(c->parser, (char *)data, (int)n) < 0)
			break;
		data += n;
		len -= n;
		while (pmclog_read(c->parser, &ev) == 0) {
			sum->records++;
			if (c->dump)
				dump_rec(c, &ev);
			process(c, &ev);
		}
		if (ev.pl_state == PMCLOG_ERROR) {
			sum->bad = 1;
			sum->bad_offset = ev.pl_offset;
			sum->bad_errno = errno;
		}
	}
}

static void ctx_parser_close(struct ctx *c)
{
	pmclog_close(c->parser);
	c->parser = NULL;
}

/* -- dump ---------------------------------------------------------------------- */

/* One record as a line of text (process() counts it in the summary). */
/* --lines: a line per frame of a chain, with its source line */
static void dump_lines(FILE *out, const struct pmclog_ev_callchain *x)
{
	struct proc *p = sym_proc((pid_t)x->pl_pid, 0);
	const struct func *f;
	const char *src;
	char buf[1024];
	uint32_t i;

	for (i = 0; i < x->pl_npc; i++) {
		/* a return address: the line of its call */
		uint64_t pc = i ? x->pl_pc[i] - 1 : x->pl_pc[i];
		int fid = sym_resolve_proc(p, pc);	/* may move sym_funcs */

		f = &sym_funcs[fid];
		src = sym_srcline(p, pc, buf, sizeof(buf));
		fprintf(out, "\t0x%" PRIx64 " %s %s%s%s\n", x->pl_pc[i], f->name,
			f->obj, src ? " " : "", src ? src : "");
	}
}

static void dump_rec(struct ctx *c, const struct pmclog_ev *ev)
{
	FILE *out = c->dump;
	uint64_t t = ts_ns(&ev->pl_ts);
	uint32_t i;

	if (!c->t0)
		c->t0 = t;
	fprintf(out, "%12.6f ", (double)(t - c->t0) / 1e9);
	switch (ev->pl_type) {
	case PMCLOG_TYPE_INITIALIZE:
		fprintf(out, "initlog 0x%x %u %u \"%.*s\"\n",
			ev->pl_u.pl_i.pl_version, ev->pl_u.pl_i.pl_arch,
			ev->pl_u.pl_i.pl_ncpu, PMC_NAME_MAX, ev->pl_u.pl_i.pl_cpuid);
		break;
	case PMCLOG_TYPE_CLOSELOG:
		fprintf(out, "closelog\n");
		break;
	case PMCLOG_TYPE_DROPNOTIFY:
		fprintf(out, "drop %" PRIu64 "\n", ev->pl_u.pl_dn.pl_dropped);
		break;
	case PMCLOG_TYPE_PMCALLOCATE:
		fprintf(out, "allocate 0x%x \"%s\" 0x%x %" PRIu64 "\n",
			ev->pl_u.pl_a.pl_pmcid,
			ev->pl_u.pl_a.pl_evname ? ev->pl_u.pl_a.pl_evname : "",
			ev->pl_u.pl_a.pl_flags, ev->pl_u.pl_a.pl_rate);
		break;
	case PMCLOG_TYPE_PMCALLOCATEDYN:
		fprintf(out, "allocatedyn 0x%x \"%s\" 0x%x %" PRIu64 "\n",
			ev->pl_u.pl_ad.pl_pmcid, ev->pl_u.pl_ad.pl_evname,
			ev->pl_u.pl_ad.pl_flags, ev->pl_u.pl_ad.pl_rate);
		break;
	case PMCLOG_TYPE_PMCATTACH:
		fprintf(out, "attach 0x%x %d \"%s\"\n", ev->pl_u.pl_t.pl_pmcid,
			(int)ev->pl_u.pl_t.pl_pid, ev->pl_u.pl_t.pl_pathname);
		break;
	case PMCLOG_TYPE_PMCDETACH:
		fprintf(out, "detach 0x%x %d\n", ev->pl_u.pl_d.pl_pmcid,
			(int)ev->pl_u.pl_d.pl_pid);
		break;
	case PMCLOG_TYPE_PROCCSW:
		fprintf(out, "cswval 0x%x %d %d %" PRIu64 "\n",
			ev->pl_u.pl_c.pl_pmcid, (int)ev->pl_u.pl_c.pl_pid,
			(int)ev->pl_u.pl_c.pl_tid, (uint64_t)ev->pl_u.pl_c.pl_value);
		break;
	case PMCLOG_TYPE_PROCEXEC:
		fprintf(out, "exec 0x%x %d 0x%" PRIx64 " 0x%" PRIx64 " \"%s\"\n",
			ev->pl_u.pl_x.pl_pmcid, (int)ev->pl_u.pl_x.pl_pid,
			ev->pl_u.pl_x.pl_baseaddr, ev->pl_u.pl_x.pl_dynaddr,
			ev->pl_u.pl_x.pl_pathname);
		break;
	case PMCLOG_TYPE_PROCEXIT:
		fprintf(out, "exitval 0x%x %u %" PRIu64 "\n",
			ev->pl_u.pl_e.pl_pmcid, ev->pl_u.pl_e.pl_pid,
			(uint64_t)ev->pl_u.pl_e.pl_value);
		break;
	case PMCLOG_TYPE_PROCFORK:
		fprintf(out, "fork %d %d\n", (int)ev->pl_u.pl_f.pl_oldpid,
			(int)ev->pl_u.pl_f.pl_newpid);
		break;
	case PMCLOG_TYPE_SYSEXIT:
		fprintf(out, "sysexit %d\n", (int)ev->pl_u.pl_se.pl_pid);
		break;
	case PMCLOG_TYPE_USERDATA:
		fprintf(out, "userdata 0x%x %d\n", ev->pl_u.pl_u.pl_userdata,
			(int)ev->pl_u.pl_u.pl_pid);
		break;
	case PMCLOG_TYPE_MAP_IN: {
		const struct pmclog_ev_map_in *m = &ev->pl_u.pl_mi;

		fprintf(out, "map-in %d 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64
			" 0x%" PRIx64 " %c%c%c \"%s\"\n", (int)m->pl_pid,
			m->pl_start, map_start(m), m->pl_end, m->pl_pgoff,
			m->pl_prot & 1 ? 'r' : '-', m->pl_prot & 2 ? 'w' : '-',
			m->pl_prot & 4 ? 'x' : '-', m->pl_pathname);
		break;
	}
	case PMCLOG_TYPE_MAP_OUT:
		fprintf(out, "map-out %d 0x%" PRIx64 " 0x%" PRIx64 "\n",
			(int)ev->pl_u.pl_mo.pl_pid, ev->pl_u.pl_mo.pl_start,
			ev->pl_u.pl_mo.pl_end);
		break;
	case PMCLOG_TYPE_CALLCHAIN: {
		const struct pmclog_ev_callchain *x = &ev->pl_u.pl_cc;

		fprintf(out, "callchain %u %u 0x%x %u %s %u", x->pl_pid,
			x->pl_tid, x->pl_pmcid,
			PMC_CALLCHAIN_CPUFLAGS_TO_CPU(x->pl_cpuflags),
			x->pl_cpuflags & PMC_CC_F_USERSPACE ? "u" :
			x->pl_cpuflags & PMC_CC_F_KERNEL_USER ? "ku" : "k",
			x->pl_npc);
		for (i = 0; i < x->pl_npc; i++)
			fprintf(out, " 0x%" PRIx64, x->pl_pc[i]);
		fputc('\n', out);
		if (sym_lines)
			dump_lines(out, x);
		break;
	}
	case PMCLOG_TYPE_THR_CREATE:
		fprintf(out, "thr-create %d %d 0x%x \"%s\"\n",
			(int)ev->pl_u.pl_tc.pl_tid, (int)ev->pl_u.pl_tc.pl_pid,
			ev->pl_u.pl_tc.pl_flags, ev->pl_u.pl_tc.pl_tdname);
		break;
	case PMCLOG_TYPE_THR_EXIT:
		fprintf(out, "thr-exit %d\n", (int)ev->pl_u.pl_te.pl_tid);
		break;
	case PMCLOG_TYPE_PROC_CREATE:
		fprintf(out, "proc-create %d 0x%x \"%s\"\n",
			(int)ev->pl_u.pl_pc.pl_pid, ev->pl_u.pl_pc.pl_flags,
			ev->pl_u.pl_pc.pl_pcomm);
		break;
	case PMCLOG_TYPE_USERSTACK: {
		const struct pmclog_ev_userstack *u = &ev->pl_u.pl_us;

		fprintf(out, "userstack 0x%x abi %u regs %u size %u dynsize %u",
			u->pl_pmcid, u->pl_abi, u->pl_nregs, u->pl_size,
			u->pl_dynsize);
		if (u->pl_nregs)
			fprintf(out, " pc 0x%" PRIx64 " sp 0x%" PRIx64,
				u->pl_regs[u->pl_nregs - 1],
				u->pl_abi == PMC_USTACK_ABI_X86_64 &&
				u->pl_nregs > 7 ? u->pl_regs[7] :
				u->pl_nregs > 31 ? u->pl_regs[31] : 0);
		/* arm64: the link register, a leaf's return address */
		if (u->pl_abi == PMC_USTACK_ABI_ARM64 && u->pl_nregs > 31)
			fprintf(out, " lr 0x%" PRIx64, u->pl_regs[30]);
		fputc('\n', out);
		break;
	}
	default:
		fprintf(out, "unknown-type %u %d\n", (unsigned)ev->pl_type,
			ev->pl_len);
		break;
	}
}

/* -- flat profile, call graph, folded stacks ---------------------------------------------------- */

static const struct evrep *rank_ev;	/* the event ranked by qsort() */

/* by self samples, then name (the flat profile has no totals) */
static int cmp_self(const void *a, const void *b)
{
	int i = *(const int *)a, j = *(const int *)b;
	const struct evrep *e = rank_ev;
	int r;

	if (e->self[i] != e->self[j])
		return e->self[i] < e->self[j] ? 1 : -1;
	r = strcmp(sym_funcs[i].name, sym_funcs[j].name);
	return r ? r : strcmp(sym_funcs[i].obj, sym_funcs[j].obj);
}

/* by self samples, then total samples, then name */
static int cmp_self_total(const void *a, const void *b)
{
	int i = *(const int *)a, j = *(const int *)b;
	const struct evrep *e = rank_ev;

	if (e->self[i] != e->self[j])
		return e->self[i] < e->self[j] ? 1 : -1;
	if (e->total[i] != e->total[j])
		return e->total[i] < e->total[j] ? 1 : -1;
	return strcmp(sym_funcs[i].name, sym_funcs[j].name);
}

/* Functions with samples (by_total: in chains too), ranked. */
static int *ranked(const struct evrep *e, size_t *n, int by_total)
{
	int *v = xrealloc(NULL, (e->room ? e->room : 1) * sizeof(int));
	size_t i;

	*n = 0;
	for (i = 0; i < e->room && i < sym_nfunc; i++)
		if (e->self[i] || (by_total && e->total[i]))
			v[(*n)++] = (int)i;
	rank_ev = e;
	qsort(v, *n, sizeof(int), by_total ? cmp_self_total : cmp_self);
	return v;
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void header(const struct ctx *c, const struct pmcdesc *d,
		   const struct evrep *e, FILE *out, const char *what)
{
	size_t i, n = 0;

	for (i = 0; i < c->npmc; i++)
		n += !strcmp(c->pmcs[i].name, d->name);
	fprintf(out, "# %s: event %s, ", what, d->name);
	if (n > 1)
		fprintf(out, "%zu PMCs", n);
	else
		fprintf(out, "pmc 0x%x", d->id);
	fprintf(out, ", rate %" PRIu64 ", %" PRIu64 " samples (%" PRIu64
		" unresolved)\n", d->rate, e->samples, e->unresolved);
}

static void flat(const struct ctx *c, const struct pmcdesc *d,
		 const struct evrep *e, FILE *out)
{
	size_t n, i, w = 8;
	int *v = ranked(e, &n, 0);
	double cum = 0;

	if (!c->o->quiet)
		header(c, d, e, out, "flat profile");
	if (c->o->ntop > 0 && n > (size_t)c->o->ntop)
		n = (size_t)c->o->ntop;
	for (i = 0; i < n; i++)
		if (strlen(sym_funcs[v[i]].name) > w)
			w = strlen(sym_funcs[v[i]].name);
	if (w > 48)
		w = 48;
	fprintf(out, "%7s %7s %9s  %-*s %s\n", "%SAMP", "CUM%", "SAMPLES",
		(int)w, "FUNCTION", "OBJECT");
	for (i = 0; i < n; i++) {
		const struct func *f = &sym_funcs[v[i]];
		uint64_t self = e->self[v[i]];

		cum += pct(self, e->samples);
		fprintf(out, "%7.2f %7.2f %9" PRIu64 "  %-*s %s\n",
			pct(self, e->samples), cum, self, (int)w, f->name,
			f->obj);
	}
	free(v);
}

static int cmp_edge_callee(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;
	uint32_t xc = (uint32_t)x->key, yc = (uint32_t)y->key;

	if (xc != yc)
		return xc < yc ? -1 : 1;
	return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

static int cmp_edge_caller(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;
	uint32_t xc = (uint32_t)(x->key >> 32), yc = (uint32_t)(y->key >> 32);

	if (xc != yc)
		return xc < yc ? -1 : 1;
	return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

/* first edge of e[0..n) whose field (callee: low, caller: high) is f */
static size_t edge_find(const struct edge *e, size_t n, uint32_t f, int high)
{
	size_t lo = 0, hi = n, mid;
	uint32_t k;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		k = high ? (uint32_t)(e[mid].key >> 32) : (uint32_t)e[mid].key;
		if (k < f)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void graph(const struct ctx *c, const struct pmcdesc *d,
		  const struct evrep *e, FILE *out)
{
	struct edge *by_callee, *by_caller;
	size_t n, i, j, ne = 0;
	int *v = ranked(e, &n, 1);

	by_callee = xrealloc(NULL, (e->nedge ? e->nedge : 1) * sizeof(*by_callee));
	for (i = 0; i < e->edgeroom; i++)
		if (e->edges[i].count)
			by_callee[ne++] = e->edges[i];
	by_caller = xrealloc(NULL, (ne ? ne : 1) * sizeof(*by_caller));
	memcpy(by_caller, by_callee, ne * sizeof(*by_caller));
	qsort(by_callee, ne, sizeof(*by_callee), cmp_edge_callee);
	qsort(by_caller, ne, sizeof(*by_caller), cmp_edge_caller);
	if (!c->o->quiet) {
		header(c, d, e, out, "call graph");
		fprintf(out, "# function lines: %%self, %%total, self and total samples, function, object;\n"
			"# under each, its callers (<-) and callees (->) with the samples of\n"
			"# the chains through that call and their %% of the function's total\n");
	}
	if (c->o->ntop > 0 && n > (size_t)c->o->ntop)
		n = (size_t)c->o->ntop;
	for (i = 0; i < n; i++) {
		const struct func *f = &sym_funcs[v[i]];
		uint64_t total = e->total[v[i]];

		fprintf(out, "%6.2f%% %6.2f%% %9" PRIu64 " %9" PRIu64 "  %s  %s\n",
			pct(e->self[v[i]], e->samples), pct(total, e->samples),
			e->self[v[i]], total, f->name, f->obj);
		for (j = edge_find(by_callee, ne, (uint32_t)v[i], 0);
		     j < ne && (uint32_t)by_callee[j].key == (uint32_t)v[i]; j++) {
			const struct func *g = &sym_funcs[by_callee[j].key >> 32];

			fprintf(out, "\t<- %9" PRIu64 " %6.2f%%  %s  %s\n",
				by_callee[j].count, pct(by_callee[j].count, total),
				g->name, g->obj);
		}
		for (j = edge_find(by_caller, ne, (uint32_t)v[i], 1);
		     j < ne && (uint32_t)(by_caller[j].key >> 32) == (uint32_t)v[i];
		     j++) {
			const struct func *g = &sym_funcs[(uint32_t)by_caller[j].key];

			fprintf(out, "\t-> %9" PRIu64 " %6.2f%%  %s  %s\n",
				by_caller[j].count, pct(by_caller[j].count, total),
				g->name, g->obj);
		}
	}
	free(by_callee);
	free(by_caller);
	free(v);
}

/*
 * -G: pmcstat's call chains.  Per event, "@ EVENT [N samples]", a blank
 * line, then each sampled function (the leaf of its chains) by samples,
 * and under it, one space deeper a level, the callers through which its
 * samples came, each with its samples and their share of its callee's:
 *
 *   INDENT PERCENT%  [SAMPLES] (padded to 12 columns) INDENT NAME[ @ OBJECT]
 *
 * PERCENT is "100.0" or "%05.2f"; the object is named where it changes
 * within a function's tree; a blank line ends each tree.  Built from the
 * aggregated stacks (a tree of them from the leaf), cut at -z frames
 * (pmcstat's default: 16); as pmcstat's, a chain stops at an address in
 * no mapping, and a sample whose PC is in none is not counted.
 */
struct cgnode {
	int		fid;
	uint64_t	count;
	size_t		child, next;	/* indices in the node array; 0: none */
};

struct cgtree {
	struct cgnode	*v;		/* v[0]: the root, above the leaves */
	size_t		n, room;
};

static size_t cg_child(struct cgtree *t, size_t parent, int fid)
{
	size_t i;

	for (i = t->v[parent].child; i; i = t->v[i].next)
		if (t->v[i].fid == fid)
			return i;
	if (t->n == t->room) {
		t->room = t->room ? t->room * 2 : 256;
		t->v = xrealloc(t->v, t->room * sizeof(*t->v));
	}
	i = t->n++;
	t->v[i].fid = fid;
	t->v[i].count = 0;
	t->v[i].child = 0;
	t->v[i].next = t->v[parent].child;
	t->v[parent].child = i;
	return i;
}

static const struct cgtree *cg_sort_tree;

/* by samples, most first; then by name */
static int cmp_cgnode(const void *a, const void *b)
{
	const struct cgnode *x = &cg_sort_tree->v[*(const size_t *)a];
	const struct cgnode *y = &cg_sort_tree->v[*(const size_t *)b];

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(sym_funcs[x->fid].name, sym_funcs[y->fid].name);
}

/* the children of node i, sorted, in *v (freed by the caller): their count */
static size_t cg_children(const struct cgtree *t, size_t i, size_t **v)
{
	size_t j, n = 0;

	for (j = t->v[i].child; j; j = t->v[j].next)
		n++;
	*v = xrealloc(NULL, (n ? n : 1) * sizeof(**v));
	n = 0;
	for (j = t->v[i].child; j; j = t->v[j].next)
		(*v)[n++] = j;
	cg_sort_tree = t;
	qsort(*v, n, sizeof(**v), cmp_cgnode);
	return n;
}

static void cg_print(const struct cgtree *t, size_t i, int depth,
		     uint64_t total, const char **obj, FILE *out)
{
	const struct cgnode *nd = &t->v[i];
	const struct func *f = &sym_funcs[nd->fid];
	const char *path = f->path ? f->path : f->obj;
	size_t *kids, n, k;
	int w;

	if (depth > 0)
		fprintf(out, "%*s", depth, " ");
	if (nd->count == total)
		fputs("100.0% ", out);
	else
		fprintf(out, "%05.2f%% ", 100.0 * (double)nd->count / (double)total);
	w = fprintf(out, " [%" PRIu64 "] ", nd->count);
	if (w < 12)
		fprintf(out, "%*s", 12 - w, " ");
	if (depth > 0)
		fprintf(out, "%*s", depth, " ");
	fputs(f->name, out);
	if (!*obj || strcmp(*obj, path)) {
		*obj = path;
		fprintf(out, " @ %s\n", path);
	} else {
		fputc('\n', out);
	}
	n = cg_children(t, i, &kids);
	for (k = 0; k < n; k++)
		cg_print(t, kids[k], depth + 1, nd->count, obj, out);
	free(kids);
}

static void callchain(const struct ctx *c, const struct pmcdesc *d,
		      const struct evrep *e, FILE *out)
{
	size_t depth = c->o->graphdepth > 0 ? (size_t)c->o->graphdepth : 16;
	struct cgtree t = { 0 };
	uint64_t samples = 0;
	size_t i, j, at, n, *top;
	const char *obj;

	t.room = 256;
	t.v = xrealloc(NULL, t.room * sizeof(*t.v));
	memset(&t.v[0], 0, sizeof(t.v[0]));	/* the root */
	t.v[0].fid = -1;
	t.n = 1;
	for (i = 0; i < e->foldroom; i++) {
		const struct folded *f = &e->folds[i];

		if (!f->count)
			continue;
		for (at = 0, j = 0; j < f->n && j < depth; j++) {
			const struct func *fn = &sym_funcs[e->foldfids[f->at + j]];

			/* in no mapping: pmcstat's chain stops (its leaf: no sample) */
			if (fn->unknown && !strcmp(fn->obj, "[unknown]"))
				break;
			at = cg_child(&t, at, e->foldfids[f->at + j]);
			t.v[at].count += f->count;
		}
	}
	for (i = t.v[0].child; i; i = t.v[i].next)
		samples += t.v[i].count;
	fprintf(out, "@ %s [%" PRIu64 " samples]\n\n", d->name, samples);
	n = cg_children(&t, 0, &top);
	for (i = 0; i < n; i++) {
		obj = NULL;
		cg_print(&t, top[i], 0, samples, &obj, out);
		fputc('\n', out);
	}
	free(top);
	free(t.v);
}

/*
 * -F: the calltree for KCachegrind, in callgrind's format, as pmcstat
 * writes it: "version: 1", "creator:", "positions: instr line",
 * "events:" (a column per event: its name, non-alphanumerics as '_',
 * then _INDEX), "summary:"; then a ROOT function calling the outermost
 * functions of the chains; then per function "ob=" (its file), "fl="
 * (its source file, with --lines), "fn=", its self samples per sampled
 * instruction ("ADDRESS LINE COSTS": link-time addresses in the file;
 * the line 0, or the function's with --lines), and per function it
 * calls "cob=", "cfl=", "cfn=", "calls=COUNT ADDRESS LINE" (the
 * callee's start) and "ADDRESS LINE COSTS" (the caller's start: the
 * samples of the chains through that call, inclusive).  Built from the
 * aggregated stacks: a call counted once per chain.
 */
struct ctarc {
	int		caller, callee;	/* caller -1: ROOT */
	size_t		ev;
	uint64_t	count;
};

struct ctins {
	int		fid;
	uint64_t	addr;
	size_t		ev;
	uint64_t	count;
};

static int cmp_ctins(const void *a, const void *b)
{
	const struct ctins *x = a, *y = b;

	if (x->fid != y->fid)
		return x->fid < y->fid ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* the address of function fid's start as -F shows it (0: unknown) */
static uint64_t ct_start(const struct ctx *c, int fid)
{
	return fid >= 0 && (size_t)fid < c->fstartroom && c->fstart[fid] ?
	       c->fstart[fid] - 1 : 0;
}

static int cmp_ctarc(const void *a, const void *b)
{
	const struct ctarc *x = a, *y = b;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	if (x->callee != y->callee)
		return x->callee < y->callee ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/* fl= and the line of f, from its "file:line" (--lines) */
static unsigned long ct_src(const struct func *f, const char *key, FILE *out)
{
	const char *colon;

	if (!f->src || !(colon = strrchr(f->src, ':'))) {
		fprintf(out, "%s=???\n", key);	/* callgrind's unknown */
		return 0;
	}
	fprintf(out, "%s=%.*s\n", key, (int)(colon - f->src), f->src);
	return strtoul(colon + 1, NULL, 10);
}

static void ct_func(const struct func *f, const char *ob, const char *fl,
		    const char *fn, FILE *out, unsigned long *line)
{
	unsigned long l;

	fprintf(out, "%s=%s\n", ob, f->path ? f->path : f->obj);
	l = ct_src(f, fl, out);
	fprintf(out, "%s=%s\n", fn, f->name);
	if (line)
		*line = l;
}

static void calltree(const struct ctx *c, FILE *out)
{
	const struct evrep **evs = xrealloc(NULL, (c->nev + 1) * sizeof(*evs));
	const char **names = xrealloc(NULL, (c->nev + 1) * sizeof(*names));
	struct ctarc *arcs = NULL;
	struct ctins *ins = NULL;
	size_t nev = 0, narc = 0, room = 0, nins = 0, insroom = 0, i, j, k, a, b, q;
	uint64_t *self, *cost;
	unsigned long line, fline;
	char name[PMC_NAME_MAX + 16], *p;

	/* the events with samples, in the order of their PMCs */
	for (i = 0; i < c->npmc; i++) {
		for (j = 0; j < nev && strcmp(names[j], c->pmcs[i].name); j++)
			;
		if (j < nev)
			continue;
		for (k = 0; k < c->nev; k++)
			if (!strcmp(c->evs[k].name, c->pmcs[i].name) &&
			    c->evs[k].samples) {
				evs[nev] = &c->evs[k];
				names[nev++] = c->pmcs[i].name;
				break;
			}
	}
	self = xrealloc(NULL, (sym_nfunc ? sym_nfunc : 1) * (nev ? nev : 1) *
			sizeof(*self));
	memset(self, 0, (sym_nfunc ? sym_nfunc : 1) * (nev ? nev : 1) * sizeof(*self));
	cost = xrealloc(NULL, (nev ? nev : 1) * sizeof(*cost));
	for (k = 0; k < nev; k++) {
		const struct evrep *e = evs[k];

		for (i = 0; i < e->foldroom; i++) {
			const struct folded *f = &e->folds[i];
			const int *fids = e->foldfids + f->at;

			if (!f->count || !f->n)
				continue;
			self[(size_t)fids[0] * nev + k] += f->count;
			for (j = f->n; j-- > 0;) {
				int caller = j + 1 < f->n ? fids[j + 1] : -1;

				/* once per chain: recursion calls again */
				for (a = j + 1; a < f->n; a++)
					if (fids[a] == fids[j] &&
					    (a + 1 < f->n ? fids[a + 1] : -1) == caller)
						break;
				if (a < f->n)
					continue;
				if (narc == room) {
					room = room ? room * 2 : 1024;
					arcs = xrealloc(arcs, room * sizeof(*arcs));
				}
				arcs[narc].caller = caller;
				arcs[narc].callee = fids[j];
				arcs[narc].ev = k;
				arcs[narc++].count = f->count;
			}
		}
	}
	qsort(arcs, narc, sizeof(*arcs), cmp_ctarc);
	/* the sampled instructions, by function and address */
	for (k = 0; k < nev; k++)
		for (i = 0; i < evs[k]->instrroom; i++) {
			const struct instr *x = &evs[k]->instrs[i];

			if (!x->count)
				continue;
			if (nins == insroom) {
				insroom = insroom ? insroom * 2 : 256;
				ins = xrealloc(ins, insroom * sizeof(*ins));
			}
			ins[nins].fid = x->fid;
			ins[nins].addr = x->addr;
			ins[nins].ev = k;
			ins[nins++].count = x->count;
		}
	qsort(ins, nins, sizeof(*ins), cmp_ctins);
	fprintf(out, "version: 1\ncreator: hwpmc-stat\npositions: instr line\nevents:");
	for (k = 0; k < nev; k++) {
		snprintf(name, sizeof(name), "%s_%zu", names[k], k);
		for (p = name; *p; p++)
			if (!isalnum((unsigned char)*p))
				*p = '_';
		fprintf(out, " %s", name);
	}
	fprintf(out, "\nsummary:");
	for (k = 0; k < nev; k++)
		fprintf(out, " %" PRIu64, evs[k]->samples);
	fprintf(out, "\n\n");
	/* ROOT, then each function with samples or calls */
	for (i = 0, a = 0, q = 0; i <= sym_nfunc; i++) {
		int fid = (int)i - 1, any = 0;

		if (fid >= 0)
			for (k = 0; k < nev; k++)
				any |= self[(size_t)fid * nev + k] != 0;
		while (a < narc && arcs[a].caller < fid)
			a++;
		if (!any && fid >= 0 && (a == narc || arcs[a].caller != fid))
			continue;
		fline = 0;
		if (fid < 0)
			fprintf(out, "ob=Linux\nfl=???\nfn=ROOT\n");
		else
			ct_func(&sym_funcs[fid], "ob", "fl", "fn", out, &fline);
		while (q < nins && ins[q].fid < fid)
			q++;
		if (q == nins || ins[q].fid != fid) {
			/* no sample in it: its calls only */
			fprintf(out, "%#" PRIx64 " %lu", ct_start(c, fid), fline);
			for (k = 0; k < nev; k++)
				fprintf(out, " 0");
			fputc('\n', out);
		}
		for (; q < nins && ins[q].fid == fid; q = b) {
			memset(cost, 0, (nev ? nev : 1) * sizeof(*cost));
			for (b = q; b < nins && ins[b].fid == fid &&
			     ins[b].addr == ins[q].addr; b++)
				cost[ins[b].ev] += ins[b].count;
			fprintf(out, "%#" PRIx64 " %lu", ins[q].addr, fline);
			for (k = 0; k < nev; k++)
				fprintf(out, " %" PRIu64, cost[k]);
			fputc('\n', out);
		}
		for (; a < narc && arcs[a].caller == fid; a = b) {
			uint64_t calls = 0;

			memset(cost, 0, (nev ? nev : 1) * sizeof(*cost));
			for (b = a; b < narc && arcs[b].caller == fid &&
			     arcs[b].callee == arcs[a].callee; b++) {
				cost[arcs[b].ev] += arcs[b].count;
				calls += arcs[b].count;
			}
			ct_func(&sym_funcs[arcs[a].callee], "cob", "cfl", "cfn", out,
				&line);
			fprintf(out, "calls=%" PRIu64 " %#" PRIx64 " %lu\n%#" PRIx64 " %lu",
				calls, ct_start(c, arcs[a].callee), line,
				ct_start(c, fid), fline);
			for (k = 0; k < nev; k++)
				fprintf(out, " %" PRIu64, cost[k]);
			fputc('\n', out);
		}
		fputc('\n', out);
	}
	free(arcs);
	free(ins);
	free(self);
	free(cost);
	free(evs);
	free(names);
}

enum frame_kind frame_kind(const struct func *f)
{
	if (f->unknown)
		return FRAME_UNKNOWN;
	return f->kernel ? FRAME_KERNEL : FRAME_USER;
}

const char *frame_label(const struct func *f, char *buf, size_t len)
{
	if (f->unknown)
		snprintf(buf, len, f->obj[0] == '[' ? "%s" : "[%s]", f->obj);
	else
		snprintf(buf, len, "%.250s%s", f->name,
			 frame_kind(f) == FRAME_KERNEL ? "_[k]" : "");
	return buf;
}

const char *stack_comm(const struct stack *s, char *buf, size_t len)
{
	if (s->comm)
		return s->comm;
	snprintf(buf, len, "pid-%d", (int)s->pid);
	return buf;
}

/*
 * The text of a folded stack: the process's name (or pid-PID), then its
 * functions from the root, separated by ';' (at most about 64 KB).
 */
static char *fold_text(const struct stack *st)
{
	static char stack[MAXCHAIN * 64];
	char label[300], *t;
	size_t i, len;

	len = (size_t)snprintf(stack, sizeof(stack), "%s",
			       stack_comm(st, label, sizeof(label)));
	for (i = st->n; i-- > 0 && len + 300 < sizeof(stack);)
		len += (size_t)snprintf(stack + len, 300, ";%s",
					frame_label(&sym_funcs[st->fids[i]], label,
						    sizeof(label)));
	t = strdup(stack);
	if (!t) {
		fprintf(stderr, "hwpmc-stat: out of memory\n");
		exit(1);
	}
	return t;
}

static int cmp_stack(const void *a, const void *b)
{
	return strcmp(((const struct stack *)a)->text,
		      ((const struct stack *)b)->text);
}

/*
 * The one walk of the distinct stacks of e, for every report made of
 * them (folded stacks, flame graph, perf script, pprof): in the order of
 * their text.
 */
static void stacks_make(const struct pmcdesc *d, const struct evrep *e,
			struct stacks *s)
{
	size_t i, n = 0;

	memset(s, 0, sizeof(*s));
	s->event = d ? d->name : "";
	s->rate = d ? d->rate : 0;
	if (!e)
		return;
	s->v = xrealloc(NULL, (e->nfold ? e->nfold : 1) * sizeof(*s->v));
	for (i = 0; i < e->foldroom; i++) {
		const struct folded *f = &e->folds[i];
		struct stack *st = &s->v[n];

		if (!f->count)
			continue;
		st->comm = f->comm;
		st->pid = f->pid;
		st->fids = e->foldfids + f->at;
		st->n = f->n;
		st->count = f->count;
		st->text = fold_text(st);
		s->samples += f->count;
		n++;
	}
	s->n = n;
	qsort(s->v, n, sizeof(*s->v), cmp_stack);
}

static void stacks_free(struct stacks *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free((char *)s->v[i].text);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/*
 * Folded stacks: two stacks of the same text (functions of the same
 * name, a chain cut short) make one line.
 */
static void folded(const struct stacks *s, FILE *out)
{
	size_t i, j;

	for (i = 0; i < s->n; i = j) {
		uint64_t count = s->v[i].count;

		for (j = i + 1; j < s->n && !strcmp(s->v[j].text, s->v[i].text); j++)
			count += s->v[j].count;
		fprintf(out, "%s %" PRIu64 "\n", s->v[i].text, count);
	}
}

/* The first event that took samples (what the stacks show), or NULL. */
static const struct evrep *first_ev(const struct ctx *c,
				    const struct pmcdesc **dp)
{
	size_t i, j;

	for (i = 0; i < c->npmc; i++)
		for (j = 0; j < c->nev; j++)
			if (!strcmp(c->evs[j].name, c->pmcs[i].name)) {
				*dp = &c->pmcs[i];
				return &c->evs[j];
			}
	*dp = NULL;
	return NULL;
}

/*
 * One report per event that took samples, in the order of their first
 * PMCALLOCATE (the PMCs of one event together).
 */
static void write_kind(const struct ctx *c, enum report_kind kind, FILE *out)
{
	size_t i, j, shown = 0;

	for (i = 0; i < c->npmc; i++) {
		const struct pmcdesc *d = &c->pmcs[i];
		const struct evrep *e = NULL;

		for (j = 0; j < i; j++)
			if (!strcmp(c->pmcs[j].name, d->name))
				break;
		if (j < i)
			continue;	/* reported with an earlier PMC */
		for (j = 0; j < c->nev && !e; j++)
			if (!strcmp(c->evs[j].name, d->name))
				e = &c->evs[j];
		if (!e)
			continue;	/* no samples */
		if (shown++ && kind != REPORT_CALLCHAIN)
			fputc('\n', out);
		switch (kind) {
		case REPORT_FLAT:
			flat(c, d, e, out);
			break;
		case REPORT_GRAPH:
			graph(c, d, e, out);
			break;
		case REPORT_CALLCHAIN:
			callchain(c, d, e, out);
			break;
		case REPORT_ANNOTATE:
			annot_write(c->an, (int)(e - c->evs), d->name, d->rate,
				    e->samples, out);
			break;
		default:
			break;
		}
	}
	if (!shown && !c->o->quiet && kind != REPORT_CALLCHAIN)
		fprintf(out, "# no samples\n");
}

/*
 * The reports made of stacks, of the first event that took samples: each
 * from the same stacks.  A report that cannot be written leaves its
 * error in its FILE (ferror), for its closing to tell.
 */
static void write_stacks(const struct ctx *c, const struct report_outs *ro,
			 struct log_summary *sum)
{
	const struct pmcdesc *d;
	const struct evrep *e = first_ev(c, &d);
	struct stacks s;

	stacks_make(d, e, &s);
	sum->stacked = s.samples;
	if (ro->folded) {
		if (!e && !c->o->quiet)
			fprintf(ro->folded, "# no samples\n");
		folded(&s, ro->folded);
	}
	if (ro->flame)
		(void)flame_write(&s, ro->flame, c->o->icicle);
	if (ro->perfscript)
		(void)perfscript_write(&s, ro->perfscript);
	if (ro->pprof)
		(void)pprof_write(&s, ro->pprof);
	stacks_free(&s);
}

/* -- progress: a line on stderr for long jobs ---------------------------------------------------- */

#define PROGRESS_DELAY	0.5	/* s before the first line */
#define PROGRESS_EVERY	0.25	/* s between updates: 4 a second at most */

struct progress {
	int		on;
	double		start, last;
	uint64_t	total;		/* bytes, 0: unknown (a pipe) */
	int		width;		/* of the line on the terminal */
};

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress_show(struct progress *pg, uint64_t done, uint64_t samples)
{
	double t;
	int n;

	if (!pg->on)
		return;
	t = mono();
	if (t - pg->start < PROGRESS_DELAY || t - pg->last < PROGRESS_EVERY)
		return;
	pg->last = t;
	if (pg->total)
		n = fprintf(stderr, "\rhwpmc-stat: reading log: %d%% (%" PRIu64 " samples)",
			    (int)(100.0 * (double)done / (double)pg->total), samples);
	else
		n = fprintf(stderr, "\rhwpmc-stat: reading log: %.1f MB (%" PRIu64 " samples)",
			    (double)done / 1e6, samples);
	if (n - 1 > pg->width)
		pg->width = n - 1;
	fflush(stderr);
}

/* erase the line, if one was shown */
static void progress_end(struct progress *pg)
{
	if (pg->width)
		fprintf(stderr, "\r%*s\r", pg->width, "");
	fflush(stderr);
	pg->width = 0;
}

/* -- reading a log, writing the reports ------------------------------------------------------------ */

int report_log(int fd, const struct report_outs *ro, const struct report_opts *o,
	       struct log_summary *sum)
{
	struct progress pg = { 0 };
	unsigned char *buf = xrealloc(NULL, REPORT_CHUNK);
	uint64_t done = 0;
	struct stat st;
	struct ctx c;
	ssize_t n;
	off_t at = 0;
	int rc = 0, err = 0;

	memset(sum, 0, sizeof(*sum));
	memset(&c, 0, sizeof(c));
	c.o = o;
	c.sum = sum;
	c.dump = ro->dump;
	c.pcs = ro->pcs;
	c.addrs = ro->addrs;
	c.gmon = ro->gmon;
	c.aggregate = ro->flat || ro->graph || ro->folded || ro->flame ||
		      ro->perfscript || ro->pprof || ro->annotate || ro->pcs ||
		      ro->addrs || ro->gmon || ro->callchain || ro->calltree;
	if (ro->annotate && o->annotate)
		c.an = annot_new(o->annotate);
	c.want_edges = ro->graph != NULL;
	c.want_folded = ro->folded || ro->flame || ro->perfscript || ro->pprof ||
			ro->callchain || ro->calltree;
	c.want_instr = ro->calltree != NULL;
	c.want_chain = c.want_edges || c.want_folded || ro->addrs || ro->gmon;
	/*
	 * --call-graph dwarf samples unwound on several threads, the
	 * reports as of one; not with --dump, whose --lines resolve
	 * functions as records are read (their numbering would change)
	 */
	if (c.aggregate && c.want_chain && !c.dump) {
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

		c.threads = o->threads > 0 ? o->threads : ncpu > 0 ? (int)ncpu : 1;
		if (c.threads > 64)
			c.threads = 64;
		if (c.threads < 2)
			c.threads = 0;
	}
	pg.on = o->progress;
	pg.start = pg.last = mono();
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		at = lseek(fd, 0, SEEK_CUR);
		if (at >= 0 && st.st_size > at)
			pg.total = (uint64_t)(st.st_size - at);
	}
	unwind_free();
	sym_reset_procs();
	/*
	 * A file is mapped rather than read: no copy of each byte into buf
	 * (a --call-graph dwarf log is mostly stack copies, ~10% of the
	 * report's time read() against mmap()); pipes and a mapping that
	 * fails are read.
	 */
	if (pg.total) {
		size_t len = (size_t)(st.st_size);
		unsigned char *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);

		if (map != MAP_FAILED) {
			size_t off = (size_t)at, k, pgsz = (size_t)sysconf(_SC_PAGESIZE);
			size_t dropped = 0, keep;
			const unsigned char *low;

			madvise(map, len, MADV_SEQUENTIAL);
			c.map = map;
			c.maplen = len;
			while (off < len && !sum->bad) {
				k = len - off < REPORT_MAP_CHUNK ? len - off : REPORT_MAP_CHUNK;
#ifdef MADV_POPULATE_READ
				/* the chunk's page tables at once, not a fault per 16 pages */
				madvise(map + off / pgsz * pgsz, k + off % pgsz, MADV_POPULATE_READ);
#endif
				feed(&c, map + off, k);
				/*
				 * the pages read a chunk ago go (a record left
				 * unfinished at a chunk's end is far shorter):
				 * the peak RSS stays a few MB, not the log's size
				 */
				keep = off > REPORT_MAP_CHUNK ? (off - REPORT_MAP_CHUNK) / pgsz * pgsz : 0;
				/* nor those of the stacks still to be unwound */
				low = queued_low(&c);
				if (low && (size_t)(low - map) / pgsz * pgsz < keep)
					keep = (size_t)(low - map) / pgsz * pgsz;
				if (keep > dropped) {
					madvise(map + dropped, keep - dropped, MADV_DONTNEED);
					dropped = keep;
				}
				off += k;
				done += k;
				progress_show(&pg, done, sum->samples);
			}
			/* the parser may keep pointers into the records: after it */
			pool_close(&c);
			ctx_parser_close(&c);
			c.map = NULL;
			munmap(map, len);
			lseek(fd, (off_t)off, SEEK_SET);
			goto read_done;
		}
	}
	for (;;) {
		n = read(fd, buf, REPORT_CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -1;
			err = errno;
			break;
		}
		if (!n)
			break;
		feed(&c, buf, (size_t)n);
		done += (uint64_t)n;
		progress_show(&pg, done, sum->samples);
		if (sum->bad)
			break;
	}
	pool_close(&c);
	ctx_parser_close(&c);
read_done:
	progress_end(&pg);
	free(buf);
	if (rc == 0) {
		const char *why;

		if (sym_kernel_used() && !sym_kernel_load(&why) && !o->quiet)
			fprintf(stderr, "hwpmc-stat: note: %s\n", why);
		if (ro->graph)
			write_kind(&c, REPORT_GRAPH, ro->graph);
		if (ro->callchain)
			write_kind(&c, REPORT_CALLCHAIN, ro->callchain);
		if (ro->calltree)
			calltree(&c, ro->calltree);
		if (ro->folded || ro->flame || ro->perfscript || ro->pprof)
			write_stacks(&c, ro, sum);
		if (ro->flat)
			write_kind(&c, REPORT_FLAT, ro->flat);
		if (c.an && annot_check(c.an) < 0)
			sum->annotate_failed = 1;
		else if (c.an)
			write_kind(&c, REPORT_ANNOTATE, ro->annotate);
	}
	annot_free(c.an);
	ctx_clear(&c);
	errno = err;
	return rc;
}

/* -- live top ---------------------------------------------------------------------- */

#ifdef HWPMC_WITH_CURSES
#include <curses.h>

struct top {
	struct ctx	c;
	struct log_summary sum;
	size_t		off;
	int		accumulate;
	int		paused;		/* space: the display held */
	int		prefix;		/* 'c' typed: a or d follows */
	int		merge;		/* m: every event's samples together */
	size_t		pmc;		/* p: else the event shown */
	int		callers;	/* n: the view with each one's callers */
	double		interval;
	uint64_t	last_samples;
	SCREEN		*screen;
};

struct top *top_open(const struct report_opts *o, double interval)
{
	struct top *t = xrealloc(NULL, sizeof(*t));
	const char *why;

	memset(t, 0, sizeof(*t));
	t->c.o = o;
	t->c.aggregate = 1;
	t->c.want_chain = 1;	/* n: the callers */
	t->c.want_edges = 1;
	t->merge = 1;		/* pmcstat's default */
	t->c.sum = &t->sum;
	t->interval = interval;
	sym_kernel_load(&why);
	/* newterm, not initscr: an unknown terminal is an error, not exit() */
	t->screen = newterm(NULL, stdout, stdin);
	if (!t->screen) {
		free(t);
		return NULL;
	}
	set_term(t->screen);
	cbreak();
	noecho();
	nodelay(stdscr, TRUE);
	keypad(stdscr, TRUE);
	curs_set(0);
	return t;
}

void top_feed(struct top *t, const struct logbuf *lb)
{
	if (lb->len > t->off)
		feed(&t->c, lb->data + t->off, lb->len - t->off);
	t->off = lb->len;
}

/* the events shown: all (m), or the one p chose */
static int top_shows(const struct top *t, size_t k)
{
	return t->merge || k == t->pmc % (t->c.nev ? t->c.nev : 1);
}

static uint64_t top_self(const struct top *t, size_t fid)
{
	uint64_t n = 0;
	size_t k;

	for (k = 0; k < t->c.nev; k++)
		if (top_shows(t, k) && fid < t->c.evs[k].room)
			n += t->c.evs[k].self[fid];
	return n;
}

/* n: fid's callers, most first, as pmcstat's " name:percent" */
static void top_callers(const struct top *t, int fid, uint64_t samples, int width)
{
	struct edge *v = NULL;
	size_t n = 0, k, i, j;
	char buf[96];
	int len;

	for (k = 0; k < t->c.nev; k++) {
		const struct evrep *e = &t->c.evs[k];

		if (!top_shows(t, k))
			continue;
		for (i = 0; i < e->edgeroom; i++) {
			if (!e->edges[i].count || (int)(uint32_t)e->edges[i].key != fid)
				continue;
			for (j = 0; j < n && v[j].key != e->edges[i].key; j++)
				;
			if (j == n) {
				v = xrealloc(v, (n + 1) * sizeof(*v));
				v[n].key = e->edges[i].key;
				v[n++].count = 0;
			}
			v[j].count += e->edges[i].count;
		}
	}
	qsort(v, n, sizeof(*v), cmp_edge_callee);	/* one callee: by count */
	for (i = 0; i < n; i++) {
		const struct func *f = &sym_funcs[v[i].key >> 32];

		if (n > 1)
			len = snprintf(buf, sizeof(buf), " %.40s:%.1f", f->name,
				       pct(v[i].count, samples));
		else
			len = snprintf(buf, sizeof(buf), " %.40s", f->name);
		if (len >= width) {
			printw(" ...");
			break;
		}
		width -= len;
		printw("%s", buf);
	}
	free(v);
}

int top_draw(struct top *t, double elapsed)
{
	size_t n, i, k;
	int *v, ch, row, rows = LINES, cols = COLS;
	uint64_t total, d, *cnt, samples = 0;
	const char *why;

	/*
	 * pmcstat's keys: c then a: accumulate, c then d: per interval
	 * (delta), space: pause, q: quit; a alone toggles accumulation
	 */
	while ((ch = getch()) != ERR) {
		int prefix = t->prefix;

		t->prefix = 0;
		if (ch == 'q' || ch == 'Q')
			return 'q';
		if (prefix && (ch == 'a' || ch == 'd'))
			t->accumulate = ch == 'a';
		else if (ch == 'a')
			t->accumulate = !t->accumulate;
		else if (ch == 'c')
			t->prefix = 1;
		else if (ch == ' ')
			t->paused = !t->paused;
		else if (ch == 'm')
			t->merge = !t->merge;
		else if (ch == 'p' && t->c.nev) {
			t->merge = 0;	/* the next event, alone */
			t->pmc = (t->pmc + 1) % t->c.nev;
		} else if (ch == 'n')
			t->callers = !t->callers;
	}
	if (elapsed < 0 || t->paused)
		return 0;		/* keys only, or held */
	/* the interval's self samples (in cnt), sorted by them */
	cnt = xrealloc(NULL, (sym_nfunc ? sym_nfunc : 1) * sizeof(*cnt));
	for (i = 0; i < sym_nfunc; i++) {
		uint64_t self = top_self(t, i);

		d = self - sym_funcs[i].shown;
		sym_funcs[i].shown = self;
		cnt[i] = t->accumulate ? self : d;
	}
	for (k = 0; k < t->c.nev; k++)
		if (top_shows(t, k))
			samples += t->c.evs[k].samples;
	total = t->accumulate ? samples : samples - t->last_samples;
	t->last_samples = samples;
	n = 0;
	v = xrealloc(NULL, (sym_nfunc ? sym_nfunc : 1) * sizeof(int));
	for (i = 0; i < sym_nfunc; i++)
		if (cnt[i] && pct(cnt[i], total) >= t->c.o->threshold)
			v[n++] = (int)i;	/* -f threshold= */
	for (i = 1; i < n; i++) {
		int x = v[i];
		size_t j = i;

		while (j > 0 && cnt[v[j - 1]] < cnt[x]) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
	erase();
	mvprintw(0, 0, "hwpmc-stat top: %.0f s, %" PRIu64 " samples %s (%" PRIu64
		 " in all), %" PRIu64 " lost records; keys: q, c a, c d, space, m, p, n",
		 elapsed, total, t->accumulate ? "since the start" : "in the last interval",
		 samples, t->sum.dropped_records);
	if (!sym_kernel_load(&why))
		mvprintw(1, 0, "%s", why);
	else if (t->c.nev)
		mvprintw(1, 0, "events: %s", t->merge ? "all, merged" :
			 t->c.evs[t->pmc % t->c.nev].name);
	if (t->callers)
		mvprintw(2, 0, "%7s %-10s %-20s %s", "%SAMP", "IMAGE", "FUNCTION",
			 "CALLERS");
	else
		mvprintw(2, 0, "%7s %9s  %-40s %s", "%SAMP", "SAMPLES", "FUNCTION",
			 "OBJECT");
	for (i = 0, row = 3; i < n && row < rows; i++, row++) {
		if (t->callers) {
			mvprintw(row, 0, "%7.2f %-10.10s %-20.20s",
				 pct(cnt[v[i]], total), sym_funcs[v[i]].obj,
				 sym_funcs[v[i]].name);
			top_callers(t, v[i], samples, cols - 40);
			continue;
		}
		mvprintw(row, 0, "%7.2f %9" PRIu64 "  %-40.*s %.*s",
			 pct(cnt[v[i]], total), cnt[v[i]],
			 cols > 60 ? 40 : 20, sym_funcs[v[i]].name,
			 cols > 62 ? cols - 62 : 0, sym_funcs[v[i]].obj);
	}
	refresh();
	free(v);
	free(cnt);
	return 0;
}

void top_close(struct top *t)
{
	if (!t)
		return;
	endwin();
	delscreen(t->screen);
	ctx_parser_close(&t->c);
	ctx_clear(&t->c);
	free(t);
}
#else
struct top *top_open(const struct report_opts *o, double interval)
{
	(void)o;
	(void)interval;
	errno = ENOTSUP;
	return NULL;
}

void top_feed(struct top *t, const struct logbuf *lb)
{
	(void)t;
	(void)lb;
}

int top_draw(struct top *t, double elapsed)
{
	(void)t;
	(void)elapsed;
	return 'q';
}

void top_close(struct top *t)
{
	(void)t;
}
#endif
