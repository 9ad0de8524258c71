// SPDX-License-Identifier: BSD-2-Clause
/*
 * libcpc: SMPL, Oracle Solaris 11's hardware sampling in cpc(3CPC), over
 * hwpmc's sampling (docs/design.md, decision 30).
 *
 * A SMPL request (one with the attribute smpl_nrecs) of a set bound with
 * cpc_bind_curlwp() is a thread-scope sampling PMC (PMC_MODE_TS with
 * PMC_F_THREAD, and PMC_F_USERSTACK for "smpl_regs"), sampling every
 * 2^64 - preset events.  Its samples go to the process's pmc(3) log,
 * which the library configures, while a set with SMPL requests is bound,
 * to a memfd of its own; cpc_set_sample() flushes the log, reads what is
 * new in the memfd (punching the read part out, so that the memfd holds
 * only what is unread), and hands each CALLCHAIN record (with the
 * USERSTACK before it) to the request whose PMC took it, whichever set
 * and handle it belongs to: a request keeps the records taken since its
 * set was last sampled, the first smpl_nrecs of them; the set's sample
 * moves them into the buffer.
 *
 * The process has one log (hwpmc(4)): while the library's is configured,
 * the program's own pmc_configure_logfile() fails with EBUSY (and the
 * samples of its own sampling PMCs land in the library's log, where the
 * library drops them); a program whose log is configured already cannot
 * bind SMPL requests (EAGAIN, CPC_RESOURCE_UNAVAIL).
 */
#include <errno.h>
#include <fcntl.h>
#include <pmclog.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cpc_impl.h"

/* The registers of a record with "smpl_regs": the USERSTACK's, but the PC */
#if defined(__x86_64__)
static const char *const cpc_smpl_regnames[] = {
	"rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};
#define CPC_SMPL_ABI	PMC_USTACK_ABI_X86_64
#elif defined(__aarch64__)
static const char *const cpc_smpl_regnames[] = {
	"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9",
	"x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19",
	"x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29",
	"x30", "sp",
};
#define CPC_SMPL_ABI	PMC_USTACK_ABI_ARM64
#else
static const char *const cpc_smpl_regnames[] = { NULL };
#define CPC_SMPL_ABI	0
#endif
#define CPC_SMPL_NREGS	(CPC_SMPL_ABI ? sizeof(cpc_smpl_regnames) / \
			 sizeof(cpc_smpl_regnames[0]) : 0)

const uint_t cpc_smpl_nregs = CPC_SMPL_NREGS;

static const char *const cpc_smpl_base[] = { "pc", "hrtime", "cpu" };
#define CPC_SMPL_NBASE	CPC_SMPL_ITEM_REGS

/* ---- records ---- */

struct cpc_recs *cpc_recs_new(uint_t max, uint_t nitems)
{
	struct cpc_recs *rc = calloc(1, sizeof(*rc));

	if (!rc)
		return NULL;
	rc->max = max;
	rc->nitems = nitems;
	rc->v = calloc((size_t)max * nitems, sizeof(*rc->v));
	if (!rc->v) {
		free(rc);
		return NULL;
	}
	return rc;
}

void cpc_recs_free(struct cpc_recs *rc)
{
	if (rc)
		free(rc->v);
	free(rc);
}

/* ds (embedded in a buffer) becomes a copy of src's records. */
int cpc_recs_copy(struct cpc_recs *ds, const struct cpc_recs *src)
{
	size_t len = (size_t)src->n * src->nitems;
	uint64_t *v = NULL;

	if (ds == src)
		return 0;
	if (len) {
		v = malloc(len * sizeof(*v));
		if (!v)
			return -1;
		memcpy(v, src->v, len * sizeof(*v));
	}
	free(ds->v);
	ds->v = v;
	ds->n = src->n;
	ds->max = src->n;
	ds->nitems = src->nitems;
	ds->lost = src->lost;
	return 0;
}

uint_t cpc_smpl_nitems(const struct cpc_req *r)
{
	return CPC_SMPL_NBASE + (r->smpl_regs ? cpc_smpl_nregs : 0);
}

/* ---- the process's SMPL log ---- */

static struct {
	int		 fd;		/* the memfd the log writes; -1: none */
	void		*parser;	/* pmclog_open(PMCLOG_FD_NONE) */
	off_t		 off;		/* read so far */
	cpc_set_t	*sets;		/* bound sets with SMPL requests */
	/* the last USERSTACK, for the CALLCHAIN after it */
	pmc_id_t	 us_pmc;
	int		 us_valid;
	uint64_t	 us_regs[PMC_USTACK_NREGS_MAX];
} cpc_smpl = { .fd = -1 };

static void cpc_smpl_log_close(void)
{
	if (cpc_smpl.fd < 0)
		return;
	(void)pmc_close_logfile();
	close(cpc_smpl.fd);
	pmclog_close(cpc_smpl.parser);
	cpc_smpl.fd = -1;
	cpc_smpl.parser = NULL;
	cpc_smpl.off = 0;
	cpc_smpl.us_valid = 0;
}

static int cpc_smpl_log_open(cpc_t *cpc, const char *fn)
{
	int fd, err;

	fd = memfd_create("libcpc-smpl", MFD_CLOEXEC);
	if (fd < 0) {
		err = errno;
		cpc_err(cpc, fn, CPC_RESOURCE_UNAVAIL,
			"Cannot create the SMPL log's file: %s\n", strerror(err));
		errno = err;
		return -1;
	}
	cpc_smpl.parser = pmclog_open(PMCLOG_FD_NONE);
	if (!cpc_smpl.parser) {
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	if (pmc_configure_logfile(fd) < 0) {
		err = errno;
		if (err == EBUSY)
			cpc_err(cpc, fn, CPC_RESOURCE_UNAVAIL,
				"SMPL requests need the process's pmc(3) log, which the program has configured (pmc_configure_logfile())\n");
		else
			cpc_err(cpc, fn, CPC_RESOURCE_UNAVAIL,
				"Cannot configure the SMPL log: %s\n", strerror(err));
		pmclog_close(cpc_smpl.parser);
		cpc_smpl.parser = NULL;
		close(fd);
		errno = err == EBUSY ? EAGAIN : err;
		return -1;
	}
	cpc_smpl.fd = fd;
	cpc_smpl.off = 0;
	cpc_smpl.us_valid = 0;
	return 0;
}

int cpc_smpl_attach(cpc_t *cpc, cpc_set_t *set, const char *fn)
{
	if (set->smpl_bound)
		return 0;
	if (!cpc_smpl.sets && cpc_smpl_log_open(cpc, fn) < 0)
		return -1;
	set->smpl_next = cpc_smpl.sets;
	cpc_smpl.sets = set;
	set->smpl_bound = 1;
	return 0;
}

void cpc_smpl_detach(cpc_set_t *set)
{
	cpc_set_t **pp;
	int i, saved = errno;

	for (i = 0; i < set->nreqs; i++) {
		cpc_recs_free(set->reqs[i].pend);
		set->reqs[i].pend = NULL;
	}
	if (!set->smpl_bound)
		return;
	for (pp = &cpc_smpl.sets; *pp; pp = &(*pp)->smpl_next)
		if (*pp == set) {
			*pp = set->smpl_next;
			break;
		}
	set->smpl_bound = 0;
	set->smpl_next = NULL;
	if (!cpc_smpl.sets)
		cpc_smpl_log_close();
	errno = saved;
}

/* The bound SMPL request whose PMC is id, or NULL (not the library's). */
static struct cpc_req *cpc_smpl_req_of(pmc_id_t id)
{
	cpc_set_t *s;
	int i;

	for (s = cpc_smpl.sets; s; s = s->smpl_next)
		for (i = 0; i < s->nreqs; i++)
			if (s->reqs[i].smpl && s->reqs[i].allocated &&
			    s->reqs[i].id == id && s->reqs[i].pend)
				return &s->reqs[i];
	return NULL;
}

/* A sample: a record of its request, if it has room. */
static void cpc_smpl_record(const struct pmclog_ev *ev)
{
	const struct pmclog_ev_callchain *cc = &ev->pl_u.pl_cc;
	struct cpc_req *r = cpc_smpl_req_of(cc->pl_pmcid);
	struct cpc_recs *rc;
	uint64_t *v;
	uint_t i;
	int regs;

	regs = cpc_smpl.us_valid && cpc_smpl.us_pmc == cc->pl_pmcid;
	cpc_smpl.us_valid = 0;
	if (!r)
		return;
	rc = r->pend;
	if (rc->n == rc->max) {
		rc->lost++;
		return;
	}
	v = &rc->v[(size_t)rc->n++ * rc->nitems];
	memset(v, 0, rc->nitems * sizeof(*v));
	v[CPC_SMPL_ITEM_PC] = cc->pl_npc ? cc->pl_pc[0] : 0;
	v[CPC_SMPL_ITEM_HRTIME] = (uint64_t)ev->pl_ts.tv_sec * 1000000000ULL +
				  (uint64_t)ev->pl_ts.tv_nsec;
	v[CPC_SMPL_ITEM_CPU] = PMC_CALLCHAIN_CPUFLAGS_TO_CPU(cc->pl_cpuflags);
	/* registers: the sample's USERSTACK's (none in kernel mode: 0) */
	if (r->smpl_regs && regs)
		for (i = 0; i < cpc_smpl_nregs; i++)
			v[CPC_SMPL_ITEM_REGS + i] = cpc_smpl.us_regs[i];
}

static void cpc_smpl_userstack(const struct pmclog_ev_userstack *us)
{
	uint32_t i;

	cpc_smpl.us_valid = us->pl_abi == CPC_SMPL_ABI &&
			    us->pl_nregs > cpc_smpl_nregs &&
			    us->pl_nregs <= PMC_USTACK_NREGS_MAX;
	if (!cpc_smpl.us_valid)
		return;
	cpc_smpl.us_pmc = us->pl_pmcid;
	for (i = 0; i < cpc_smpl_nregs; i++)
		cpc_smpl.us_regs[i] = us->pl_regs[i];
}

/* Parse what the parser was fed: 0 when it wants more, -1 on an error. */
static int cpc_smpl_parse(void)
{
	struct pmclog_ev ev;

	memset(&ev, 0, sizeof(ev));
	for (;;) {
		if (pmclog_read(cpc_smpl.parser, &ev) < 0)
			break;
		if (ev.pl_type == PMCLOG_TYPE_USERSTACK)
			cpc_smpl_userstack(&ev.pl_u.pl_us);
		else if (ev.pl_type == PMCLOG_TYPE_CALLCHAIN)
			cpc_smpl_record(&ev);
		else
			cpc_smpl.us_valid = 0;
	}
	if (ev.pl_state == PMCLOG_REQUIRE_DATA)
		return 0;
	errno = ev.pl_state == PMCLOG_ERROR && errno ? errno : EIO;
	return -1;
}

int cpc_smpl_collect(void)
{
	static char chunk[65536];
	ssize_t n;
	off_t hole;

	if (cpc_smpl.fd < 0)
		return 0;
	if (pmc_flush_logfile() < 0)
		return -1;
	for (;;) {
		n = pread(cpc_smpl.fd, chunk, sizeof(chunk), cpc_smpl.off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		if (pmclog_feed(cpc_smpl.parser, chunk, (int)n) < 0 ||
		    cpc_smpl_parse() < 0)
			return -1;
		cpc_smpl.off += n;
		/* what was read takes no memory any more */
		hole = cpc_smpl.off & ~(off_t)4095;
		if (hole)
			(void)fallocate(cpc_smpl.fd, FALLOC_FL_PUNCH_HOLE |
					FALLOC_FL_KEEP_SIZE, 0, hole);
	}
	return 0;
}

int cpc_smpl_take(cpc_set_t *set, cpc_buf_t *buf)
{
	struct cpc_req *r;
	int i;

	for (i = 0; i < set->nreqs; i++) {
		r = &set->reqs[i];
		if (!r->smpl)
			continue;
		if (r->pend) {
			if (cpc_recs_copy(&buf->recs[i], r->pend) < 0)
				return -1;
			r->pend->n = 0;
			r->pend->lost = 0;
		} else {
			buf->recs[i].n = 0;
			buf->recs[i].nitems = cpc_smpl_nitems(r);
		}
	}
	return 0;
}

/* ---- the buffer's records ---- */

/* The records of request index of buf, or NULL (EINVAL). */
static const struct cpc_recs *cpc_buf_recs(cpc_t *cpc, cpc_buf_t *buf,
					   int index)
{
	if (!cpc_buf_valid(cpc, buf) || !buf->set || index < 0 ||
	    index >= buf->n || index >= buf->set->nreqs ||
	    !buf->set->reqs[index].smpl) {
		errno = EINVAL;
		return NULL;
	}
	return &buf->recs[index];
}

int cpc_buf_smpl_rec_count(cpc_t *cpc, cpc_buf_t *buf, int request_index,
			   uint_t *rec_count)
{
	CPC_LOCKED;
	const struct cpc_recs *rc = cpc_buf_recs(cpc, buf, request_index);

	if (!rc || !rec_count) {
		errno = EINVAL;
		return -1;
	}
	*rec_count = rc->n;
	return 0;
}

int cpc_buf_smpl_get_item(cpc_t *cpc, cpc_buf_t *buf, int request_index,
			  int record_index, int record_item_index,
			  uint64_t *val)
{
	CPC_LOCKED;
	const struct cpc_recs *rc = cpc_buf_recs(cpc, buf, request_index);

	if (!rc || !val || record_index < 0 || (uint_t)record_index >= rc->n ||
	    record_item_index < 0 || (uint_t)record_item_index >= rc->nitems) {
		errno = EINVAL;
		return -1;
	}
	*val = rc->v[(size_t)record_index * rc->nitems + (uint_t)record_item_index];
	return 0;
}

uint64_t *cpc_buf_smpl_get_record(cpc_t *cpc, cpc_buf_t *buf,
				  int request_index, int record_index)
{
	CPC_LOCKED;
	const struct cpc_recs *rc = cpc_buf_recs(cpc, buf, request_index);

	if (!rc || record_index < 0 || (uint_t)record_index >= rc->n) {
		errno = EINVAL;
		return NULL;
	}
	return &rc->v[(size_t)record_index * rc->nitems];
}

/* ---- the processor's SMPL ---- */

uint_t cpc_smpl_npic(cpc_t *cpc)
{
	return cpc && cpc->smpl ? cpc->npic : 0;
}

const char *cpc_smpl_iname(cpc_t *cpc)
{
	if (!cpc || !cpc->smpl)
		return "";
	return cpc_smpl_nregs ?
	       "hwpmc sampling (thread-scope PMC_MODE_TS): pc, hrtime, cpu; user registers with smpl_regs" :
	       "hwpmc sampling (thread-scope PMC_MODE_TS): pc, hrtime, cpu";
}

uint_t cpc_get_smpl_max_rec_count(cpc_t *cpc)
{
	return cpc && cpc->smpl ? CPC_SMPL_MAX_RECS : 0;
}

/* The name of item i, or NULL. */
static const char *cpc_smpl_item_name(uint_t i)
{
	if (i < CPC_SMPL_NBASE)
		return cpc_smpl_base[i];
	if (i - CPC_SMPL_NBASE < cpc_smpl_nregs)
		return cpc_smpl_regnames[i - CPC_SMPL_NBASE];
	return NULL;
}

void cpc_walk_smpl_recitems(cpc_t *cpc, void *arg,
			    void (*action)(void *arg, const char *name,
					   int record_item_index))
{
	CPC_LOCKED;
	uint_t i;

	if (!cpc || !cpc->smpl || !action) {
		errno = EINVAL;
		return;
	}
	for (i = 0; cpc_smpl_item_name(i); i++)
		action(arg, cpc_smpl_item_name(i), (int)i);
}

void cpc_walk_smpl_recitems_req(cpc_t *cpc, cpc_set_t *set,
				int request_index, void *arg,
				void (*action)(void *arg, const char *name,
					       int record_item_index))
{
	CPC_LOCKED;
	uint_t i, n;

	if (!cpc_set_valid(cpc, set) || !action || request_index < 0 ||
	    request_index >= set->nreqs || !set->reqs[request_index].smpl) {
		errno = EINVAL;
		return;
	}
	n = cpc_smpl_nitems(&set->reqs[request_index]);
	for (i = 0; i < n; i++)
		action(arg, cpc_smpl_item_name(i), (int)i);
}
