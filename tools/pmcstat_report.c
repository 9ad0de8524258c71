// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat: reports from a log (pmcstat(8)'s -R): a text dump of the
 * records, a flat profile, a call graph, folded stacks for flame graphs,
 * and the live top display.
 *
 * The log is read with pmclog(3).  Each sample (CALLCHAIN record) is
 * resolved when it is read, against the mappings the log announced
 * before it: MAP_IN records come when a mapping is made, samples when
 * the module drains its rings, so a sample never precedes the mapping it
 * falls in.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <limits.h>
#include <pmclog.h>

#include "pmcstat.h"

#define MAXCHAIN	1024

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
	uint64_t	samples;
	char		name[PMC_NAME_MAX + 1];
};

struct edge {
	uint64_t	key;		/* caller << 32 | callee */
	uint64_t	count;
};

struct folded {
	char		*stack;
	uint64_t	count;
};

struct ctx {
	const struct report_opts *o;
	int		all_pmcs;	/* else only the samples of evname's PMCs */
	const char	*evname;
	int		want_edges, want_folded;
	uint64_t	samples;	/* aggregated */
	uint64_t	unresolved;	/* with an unknown leaf */
	uint32_t	stamp;
	struct pmcdesc	*pmcs;
	size_t		npmc;
	struct edge	*edges;		/* open addressing */
	size_t		nedge, edgeroom;
	struct folded	*folds;
	size_t		nfold, foldroom;
	struct log_summary *sum;
	void		*parser;	/* pmclog(3), fed from a logbuf */
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

static void edge_add(struct ctx *c, uint32_t caller, uint32_t callee)
{
	uint64_t key = (uint64_t)caller << 32 | callee;
	size_t i, mask;

	if (c->nedge * 2 >= c->edgeroom) {
		struct edge *old = c->edges;
		size_t oroom = c->edgeroom;

		c->edgeroom = oroom ? oroom * 2 : 1024;
		c->edges = xrealloc(NULL, c->edgeroom * sizeof(*c->edges));
		memset(c->edges, 0, c->edgeroom * sizeof(*c->edges));
		c->nedge = 0;
		for (i = 0; i < oroom; i++)
			if (old[i].count) {
				size_t j, m = c->edgeroom - 1;

				for (j = hash64(old[i].key) & m; c->edges[j].count;
				     j = (j + 1) & m)
					;
				c->edges[j] = old[i];
				c->nedge++;
			}
		free(old);
	}
	mask = c->edgeroom - 1;
	for (i = hash64(key) & mask; c->edges[i].count; i = (i + 1) & mask)
		if (c->edges[i].key == key) {
			c->edges[i].count++;
			return;
		}
	c->edges[i].key = key;
	c->edges[i].count = 1;
	c->nedge++;
}

static void fold_add(struct ctx *c, const char *stack)
{
	size_t i, mask;

	if (c->nfold * 2 >= c->foldroom) {
		struct folded *old = c->folds;
		size_t oroom = c->foldroom;

		c->foldroom = oroom ? oroom * 2 : 1024;
		c->folds = xrealloc(NULL, c->foldroom * sizeof(*c->folds));
		memset(c->folds, 0, c->foldroom * sizeof(*c->folds));
		c->nfold = 0;
		for (i = 0; i < oroom; i++)
			if (old[i].stack) {
				size_t j, m = c->foldroom - 1;

				for (j = hash_str(old[i].stack) & m;
				     c->folds[j].stack; j = (j + 1) & m)
					;
				c->folds[j] = old[i];
				c->nfold++;
			}
		free(old);
	}
	mask = c->foldroom - 1;
	for (i = hash_str(stack) & mask; c->folds[i].stack; i = (i + 1) & mask)
		if (!strcmp(c->folds[i].stack, stack)) {
			c->folds[i].count++;
			return;
		}
	c->folds[i].stack = strdup(stack);
	if (!c->folds[i].stack) {
		fprintf(stderr, "hwpmc-stat: out of memory\n");
		exit(1);
	}
	c->folds[i].count = 1;
	c->nfold++;
}

static void ctx_clear(struct ctx *c)
{
	size_t i;

	for (i = 0; i < c->foldroom; i++)
		free(c->folds[i].stack);
	free(c->folds);
	free(c->edges);
	c->folds = NULL;
	c->edges = NULL;
	c->nfold = c->foldroom = c->nedge = c->edgeroom = 0;
	c->samples = c->unresolved = 0;
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
	snprintf(c->pmcs[c->npmc].name, sizeof(c->pmcs[0].name), "pmc-0x%x", id);
	return &c->pmcs[c->npmc++];
}

static int wanted(const struct ctx *c, pid_t pid)
{
	const struct report_opts *o = c->o;
	const struct proc *p;
	int i;

	if (o->npid) {
		for (i = 0; i < o->npid; i++)
			if (o->pids[i] == pid)
				break;
		if (i == o->npid)
			return 0;
	}
	if (o->comm) {
		p = sym_proc(pid, 0);
		if (!p || !p->comm || strcmp(p->comm, o->comm))
			return 0;
	}
	return 1;
}

static void sample(struct ctx *c, const struct pmclog_ev_callchain *cc)
{
	static int fids[MAXCHAIN];
	static char stack[MAXCHAIN * 64];
	pid_t pid = (pid_t)cc->pl_pid;
	size_t i, len, n = cc->pl_npc;
	uint64_t pc;
	struct func *f;
	const struct proc *p;

	if (!n || !wanted(c, pid))
		return;
	if (n > MAXCHAIN)
		n = MAXCHAIN;
	c->samples++;
	c->stamp++;
	for (i = 0; i < n; i++) {
		pc = cc->pl_pc[i];
		/* return addresses: the call instruction is before them */
		fids[i] = sym_resolve(pid, i ? pc - 1 : pc);
		f = &sym_funcs[fids[i]];
		if (f->stamp != c->stamp) {
			f->stamp = c->stamp;
			f->total++;
		}
	}
	sym_funcs[fids[0]].self++;
	if (!strcmp(sym_funcs[fids[0]].name, "[unknown]"))
		c->unresolved++;
	if (c->want_edges)
		for (i = 0; i + 1 < n; i++)
			if (fids[i + 1] != fids[i])
				edge_add(c, (uint32_t)fids[i + 1], (uint32_t)fids[i]);
	if (c->want_folded) {
		p = sym_proc(pid, 0);
		if (p && p->comm)
			len = (size_t)snprintf(stack, sizeof(stack), "%s", p->comm);
		else
			len = (size_t)snprintf(stack, sizeof(stack), "pid-%d", (int)pid);
		for (i = n; i-- > 0 && len + 300 < sizeof(stack);) {
			f = &sym_funcs[fids[i]];
			if (!strcmp(f->name, "[unknown]"))
				len += (size_t)snprintf(stack + len, 300,
							f->obj[0] == '[' ? ";%s" : ";[%s]",
							f->obj);
			else
				len += (size_t)snprintf(stack + len, 300, ";%.250s%s",
							f->name, strcmp(f->obj, "[kernel]") ?
							"" : "_[k]");
		}
		fold_add(c, stack);
	}
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

static void process(struct ctx *c, const struct pmclog_ev *ev)
{
	struct pmcdesc *d;

	switch (ev->pl_type) {
	case PMCLOG_TYPE_PMCALLOCATE: {
		const struct pmclog_ev_pmcallocate *a = &ev->pl_u.pl_a;

		d = pmc_desc(c, a->pl_pmcid, 1);
		d->rate = a->pl_rate;
		snprintf(d->name, sizeof(d->name), "%s",
			 a->pl_evname ? a->pl_evname : "?");
		break;
	}
	case PMCLOG_TYPE_PMCATTACH:
		set_comm(ev->pl_u.pl_t.pl_pid, ev->pl_u.pl_t.pl_pathname);
		break;
	case PMCLOG_TYPE_PROCEXEC:
		sym_exec(ev->pl_u.pl_x.pl_pid, ev->pl_u.pl_x.pl_pathname);
		break;
	case PMCLOG_TYPE_PROCFORK:
		sym_fork(ev->pl_u.pl_f.pl_oldpid, ev->pl_u.pl_f.pl_newpid);
		break;
	case PMCLOG_TYPE_MAP_IN: {
		const struct pmclog_ev_map_in *m = &ev->pl_u.pl_mi;

		if (m->pl_pid >= 0 && m->pl_end > m->pl_start)
			sym_map_in(m->pl_pid, m->pl_start, m->pl_end, m->pl_pgoff,
				   m->pl_pathname);
		break;
	}
	case PMCLOG_TYPE_CALLCHAIN: {
		const struct pmclog_ev_callchain *cc = &ev->pl_u.pl_cc;

		c->sum->samples++;
		d = pmc_desc(c, cc->pl_pmcid, 1);
		d->samples++;
		if (c->all_pmcs || (c->evname && !strcmp(d->name, c->evname)))
			sample(c, cc);
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
}

/*
 * Hand the bytes of lb from *off on to the parser; fn(arg, ev) for each
 * record they complete.  A malformed log ends the reading (pmclog(3)
 * stays in error): counted in the summary, with its offset.
 */
static void feed(void **parser, const struct logbuf *lb, size_t *off,
		 struct log_summary *sum,
		 void (*fn)(void *arg, const struct pmclog_ev *ev), void *arg)
{
	static struct pmclog_ev ev;
	size_t n;

	if (!*parser) {
		*parser = pmclog_open(PMCLOG_FD_NONE);
		if (!*parser) {
			fprintf(stderr, "hwpmc-stat: out of memory\n");
			exit(1);
		}
	}
	while (*off < lb->len && !sum->bad) {
		n = lb->len - *off;
		if (n > INT_MAX / 2)
			n = INT_MAX / 2;
		if (pmclog_feed(*parser, (char *)lb->data + *off, (int)n) < 0)
			break;
		*off += n;
		while (pmclog_read(*parser, &ev) == 0) {
			sum->records++;
			fn(arg, &ev);
		}
		if (ev.pl_state == PMCLOG_ERROR) {
			sum->bad = 1;
			sum->bad_offset = ev.pl_offset;
			sum->bad_errno = errno;
		}
	}
}

static void process_fn(void *arg, const struct pmclog_ev *ev)
{
	process(arg, ev);
}

/* Every record of lb from *off on. */
static void process_log(struct ctx *c, const struct logbuf *lb, size_t *off)
{
	feed(&c->parser, lb, off, c->sum, process_fn, c);
}

static void ctx_parser_close(struct ctx *c)
{
	pmclog_close(c->parser);
	c->parser = NULL;
}

/* -- dump ---------------------------------------------------------------------- */

struct dumpctx {
	FILE		*out;
	struct log_summary *sum;
	uint64_t	t0;
};

static void dump_fn(void *arg, const struct pmclog_ev *ev)
{
	struct dumpctx *d = arg;
	FILE *out = d->out;
	uint64_t t = ts_ns(&ev->pl_ts);
	uint32_t i;

	if (!d->t0)
		d->t0 = t;
	fprintf(out, "%12.6f ", (double)(t - d->t0) / 1e9);
	switch (ev->pl_type) {
	case PMCLOG_TYPE_INITIALIZE:
		fprintf(out, "initlog 0x%x %u %u \"%.*s\"\n",
			ev->pl_u.pl_i.pl_version, ev->pl_u.pl_i.pl_arch,
			ev->pl_u.pl_i.pl_ncpu, PMC_NAME_MAX, ev->pl_u.pl_i.pl_cpuid);
		break;
	case PMCLOG_TYPE_CLOSELOG:
		d->sum->closed = 1;
		fprintf(out, "closelog\n");
		break;
	case PMCLOG_TYPE_DROPNOTIFY:
		d->sum->dropped_records += ev->pl_u.pl_dn.pl_dropped;
		fprintf(out, "drop %" PRIu64 "\n", ev->pl_u.pl_dn.pl_dropped);
		break;
	case PMCLOG_TYPE_PMCALLOCATE:
		fprintf(out, "allocate 0x%x \"%s\" 0x%x %" PRIu64 "\n",
			ev->pl_u.pl_a.pl_pmcid,
			ev->pl_u.pl_a.pl_evname ? ev->pl_u.pl_a.pl_evname : "",
			ev->pl_u.pl_a.pl_flags, ev->pl_u.pl_a.pl_rate);
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

		fprintf(out, "map-in %d 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 " %c%c%c \"%s\"\n",
			(int)m->pl_pid, m->pl_start, m->pl_end, m->pl_pgoff,
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

		d->sum->samples++;
		fprintf(out, "callchain %u %u 0x%x %u %s %u", x->pl_pid,
			x->pl_tid, x->pl_pmcid,
			PMC_CALLCHAIN_CPUFLAGS_TO_CPU(x->pl_cpuflags),
			x->pl_cpuflags & PMC_CC_F_USERSPACE ? "u" :
			x->pl_cpuflags & PMC_CC_F_KERNEL_USER ? "ku" : "k",
			x->pl_npc);
		for (i = 0; i < x->pl_npc; i++)
			fprintf(out, " 0x%" PRIx64, x->pl_pc[i]);
		fputc('\n', out);
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
	default:
		fprintf(out, "unknown-type %u %d\n", (unsigned)ev->pl_type,
			ev->pl_len);
		break;
	}
}

static void dump(const struct logbuf *lb, FILE *out, struct log_summary *sum)
{
	struct dumpctx d = { .out = out, .sum = sum };
	void *parser = NULL;
	size_t off = 0;

	feed(&parser, lb, &off, sum, dump_fn, &d);
	pmclog_close(parser);
}

/* -- flat profile, call graph, folded stacks ---------------------------------------------------- */

static int cmp_self(const void *a, const void *b)
{
	const struct func *x = &sym_funcs[*(const int *)a];
	const struct func *y = &sym_funcs[*(const int *)b];

	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Functions with samples, by self samples, then total. */
static int *ranked(size_t *n, int by_total)
{
	int *v = xrealloc(NULL, (sym_nfunc ? sym_nfunc : 1) * sizeof(int));
	size_t i;

	*n = 0;
	for (i = 0; i < sym_nfunc; i++)
		if (sym_funcs[i].self || (by_total && sym_funcs[i].total))
			v[(*n)++] = (int)i;
	qsort(v, *n, sizeof(int), cmp_self);
	return v;
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void header(const struct ctx *c, const struct pmcdesc *d, FILE *out,
		   const char *what)
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
		" unresolved)\n", d->rate, c->samples, c->unresolved);
}

static void flat(const struct ctx *c, const struct pmcdesc *d, FILE *out)
{
	size_t n, i, w = 8;
	int *v = ranked(&n, 0);
	double cum = 0;

	if (!c->o->quiet)
		header(c, d, out, "flat profile");
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

		cum += pct(f->self, c->samples);
		fprintf(out, "%7.2f %7.2f %9" PRIu64 "  %-*s %s\n",
			pct(f->self, c->samples), cum, f->self, (int)w, f->name,
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

static void graph(const struct ctx *c, const struct pmcdesc *d, FILE *out)
{
	struct edge *by_callee, *by_caller;
	size_t n, i, j, ne = 0;
	int *v = ranked(&n, 1);

	by_callee = xrealloc(NULL, (c->nedge ? c->nedge : 1) * sizeof(*by_callee));
	for (i = 0; i < c->edgeroom; i++)
		if (c->edges[i].count)
			by_callee[ne++] = c->edges[i];
	by_caller = xrealloc(NULL, (ne ? ne : 1) * sizeof(*by_caller));
	memcpy(by_caller, by_callee, ne * sizeof(*by_caller));
	qsort(by_callee, ne, sizeof(*by_callee), cmp_edge_callee);
	qsort(by_caller, ne, sizeof(*by_caller), cmp_edge_caller);
	if (!c->o->quiet) {
		header(c, d, out, "call graph");
		fprintf(out, "# function lines: %%self, %%total, self and total samples, function, object;\n"
			"# under each, its callers (<-) and callees (->) with the samples of\n"
			"# the chains through that call and their %% of the function's total\n");
	}
	if (c->o->ntop > 0 && n > (size_t)c->o->ntop)
		n = (size_t)c->o->ntop;
	for (i = 0; i < n; i++) {
		const struct func *f = &sym_funcs[v[i]];

		fprintf(out, "%6.2f%% %6.2f%% %9" PRIu64 " %9" PRIu64 "  %s  %s\n",
			pct(f->self, c->samples), pct(f->total, c->samples),
			f->self, f->total, f->name, f->obj);
		for (j = edge_find(by_callee, ne, (uint32_t)v[i], 0);
		     j < ne && (uint32_t)by_callee[j].key == (uint32_t)v[i]; j++) {
			const struct func *g = &sym_funcs[by_callee[j].key >> 32];

			fprintf(out, "\t<- %9" PRIu64 " %6.2f%%  %s  %s\n",
				by_callee[j].count, pct(by_callee[j].count, f->total),
				g->name, g->obj);
		}
		for (j = edge_find(by_caller, ne, (uint32_t)v[i], 1);
		     j < ne && (uint32_t)(by_caller[j].key >> 32) == (uint32_t)v[i];
		     j++) {
			const struct func *g = &sym_funcs[(uint32_t)by_caller[j].key];

			fprintf(out, "\t-> %9" PRIu64 " %6.2f%%  %s  %s\n",
				by_caller[j].count, pct(by_caller[j].count, f->total),
				g->name, g->obj);
		}
	}
	free(by_callee);
	free(by_caller);
	free(v);
}

static int cmp_fold(const void *a, const void *b)
{
	return strcmp(((const struct folded *)a)->stack,
		      ((const struct folded *)b)->stack);
}

static void folded(const struct ctx *c, FILE *out)
{
	struct folded *v = xrealloc(NULL, (c->nfold ? c->nfold : 1) * sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < c->foldroom; i++)
		if (c->folds[i].stack)
			v[n++] = c->folds[i];
	qsort(v, n, sizeof(*v), cmp_fold);
	for (i = 0; i < n; i++)
		fprintf(out, "%s %" PRIu64 "\n", v[i].stack, v[i].count);
	free(v);
}

int report(const struct logbuf *lb, enum report_kind kind, FILE *out,
	   const struct report_opts *o, struct log_summary *sum)
{
	struct log_summary scan;
	struct ctx c;
	size_t off, i, shown = 0;
	const char *why;

	memset(sum, 0, sizeof(*sum));
	if (kind == REPORT_DUMP) {
		dump(lb, out, sum);
		return 0;
	}
	if (!sym_kernel_load(&why) && !o->quiet)
		fprintf(stderr, "hwpmc-stat: note: %s\n", why);
	memset(&c, 0, sizeof(c));
	c.o = o;
	c.want_edges = kind == REPORT_GRAPH;
	c.want_folded = kind == REPORT_FOLDED;
	/*
	 * which events took samples: one report each (folded: the first),
	 * the PMCs of one event (one per CPU in system sampling) together
	 */
	c.sum = sum;
	c.evname = NULL;
	c.all_pmcs = 0;
	off = 0;
	sym_reset_procs();
	process_log(&c, lb, &off);
	ctx_parser_close(&c);
	for (i = 0; i < c.npmc; i++) {
		struct pmcdesc d = c.pmcs[i];
		size_t j;

		for (j = 0; j < i; j++)
			if (!strcmp(c.pmcs[j].name, d.name))
				break;
		if (j < i)
			continue;	/* reported with an earlier PMC */
		for (j = i; j < c.npmc && !d.samples; j++)
			if (!strcmp(c.pmcs[j].name, d.name))
				d.samples += c.pmcs[j].samples;
		if (!d.samples)
			continue;
		if (kind == REPORT_FOLDED && shown)
			break;
		sym_reset_procs();
		sym_reset_counts();
		ctx_clear(&c);
		c.evname = d.name;
		c.sum = &scan;
		memset(&scan, 0, sizeof(scan));
		off = 0;
		process_log(&c, lb, &off);
		ctx_parser_close(&c);
		if (shown++ && kind != REPORT_FOLDED)
			fputc('\n', out);
		switch (kind) {
		case REPORT_FLAT:
			flat(&c, &d, out);
			break;
		case REPORT_GRAPH:
			graph(&c, &d, out);
			break;
		case REPORT_FOLDED:
			folded(&c, out);
			break;
		default:
			break;
		}
	}
	if (!shown && !o->quiet)
		fprintf(out, "# no samples\n");
	ctx_clear(&c);
	free(c.pmcs);
	return 0;
}

/* -- live top ---------------------------------------------------------------------- */

#ifdef HWPMC_WITH_CURSES
#include <curses.h>

struct top {
	struct ctx	c;
	struct log_summary sum;
	size_t		off;
	int		accumulate;
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
	t->c.all_pmcs = 1;
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
	process_log(&t->c, lb, &t->off);
}

int top_draw(struct top *t, double elapsed)
{
	size_t n, i;
	int *v, ch, row, rows = LINES, cols = COLS;
	uint64_t total, d;
	const char *why;

	while ((ch = getch()) != ERR) {
		if (ch == 'q' || ch == 'Q')
			return 'q';
		if (ch == 'a')
			t->accumulate = !t->accumulate;
	}
	if (elapsed < 0)
		return 0;		/* keys only */
	/* the interval's self samples in shown's place, sorted by them */
	for (i = 0; i < sym_nfunc; i++) {
		d = sym_funcs[i].self - sym_funcs[i].shown;
		sym_funcs[i].shown = sym_funcs[i].self;
		sym_funcs[i].total = t->accumulate ? sym_funcs[i].self : d;
	}
	total = t->accumulate ? t->c.samples : t->c.samples - t->last_samples;
	t->last_samples = t->c.samples;
	n = 0;
	v = xrealloc(NULL, (sym_nfunc ? sym_nfunc : 1) * sizeof(int));
	for (i = 0; i < sym_nfunc; i++)
		if (sym_funcs[i].total)
			v[n++] = (int)i;
	/* sort by the interval's count (kept in total) */
	for (i = 1; i < n; i++) {
		int x = v[i];
		size_t j = i;

		while (j > 0 && sym_funcs[v[j - 1]].total < sym_funcs[x].total) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
	erase();
	mvprintw(0, 0, "hwpmc-stat top: %.0f s, %" PRIu64 " samples %s (%" PRIu64
		 " in all), %" PRIu64 " lost records; q quits, a toggles accumulation",
		 elapsed, total, t->accumulate ? "since the start" : "in the last interval",
		 t->c.samples, t->sum.dropped_records);
	if (!sym_kernel_load(&why))
		mvprintw(1, 0, "%s", why);
	mvprintw(2, 0, "%7s %9s  %-40s %s", "%SAMP", "SAMPLES", "FUNCTION", "OBJECT");
	for (i = 0, row = 3; i < n && row < rows; i++, row++)
		mvprintw(row, 0, "%7.2f %9" PRIu64 "  %-40.*s %.*s",
			 pct(sym_funcs[v[i]].total, total), sym_funcs[v[i]].total,
			 cols > 60 ? 40 : 20, sym_funcs[v[i]].name,
			 cols > 62 ? cols - 62 : 0, sym_funcs[v[i]].obj);
	refresh();
	free(v);
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
	free(t->c.pmcs);
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
