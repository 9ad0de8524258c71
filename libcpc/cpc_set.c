// SPDX-License-Identifier: BSD-2-Clause
/*
 * libcpc: cpc_set_create(3CPC) (sets and their requests) and
 * cpc_buf_create(3CPC) (buffers and their arithmetic).
 *
 * A request is checked when it is added, as cpc_set_add_request(3CPC)
 * says (EINVAL for an invalid event, attribute or flag): its event and
 * its attributes become one libhwpmc specifier ("<event>,umask=0x2,inv"),
 * parsed against this machine's events (pmc_parse_spec_events(),
 * PMC_SPEC_MACHINE) and kept parsed for the bind.  An event that is a
 * number in strtol(3)'s forms is a raw event ("r<hex>").  A set holds
 * at most as many counting requests of a class as the class has rows
 * (counters) per CPU: the next one is refused with CPC_RESOURCE_UNAVAIL.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpc_impl.h"

#define CPC_REQ_FLAGS	(CPC_OVF_NOTIFY_EMT | CPC_COUNT_USER | \
			 CPC_COUNT_SYSTEM | CPC_COUNT_HV)

int cpc_set_valid(cpc_t *cpc, cpc_set_t *set)
{
	cpc_set_t *s;

	if (!cpc || !set)
		return 0;
	for (s = cpc->sets; s; s = s->next)
		if (s == set)
			return 1;
	return 0;
}

int cpc_buf_valid(cpc_t *cpc, cpc_buf_t *buf)
{
	cpc_buf_t *b;

	if (!cpc || !buf)
		return 0;
	for (b = cpc->bufs; b; b = b->next)
		if (b == buf)
			return 1;
	return 0;
}

cpc_set_t *cpc_set_create(cpc_t *cpc)
{
	CPC_LOCKED;
	cpc_set_t *set;

	if (!cpc) {
		errno = EINVAL;
		return NULL;
	}
	set = calloc(1, sizeof(*set));
	if (!set)
		return NULL;
	set->cpc = cpc;
	set->next = cpc->sets;
	cpc->sets = set;
	return set;
}

static void cpc_req_free(struct cpc_req *r)
{
	uint_t i;

	for (i = 0; i < r->nattrs; i++)
		free(r->attrs[i].ca_name);
	free(r->attrs);
	free(r->event);
	free(r->spec);
}

int cpc_set_destroy(cpc_t *cpc, cpc_set_t *set)
{
	CPC_LOCKED;
	cpc_set_t **pp;
	cpc_buf_t *b;
	int i;

	if (!cpc_set_valid(cpc, set)) {
		errno = EINVAL;
		return -1;
	}
	if (set->bound != CPC_UNBOUND)
		cpc_set_release(set);
	for (pp = &cpc->sets; *pp != set; pp = &(*pp)->next)
		;
	*pp = set->next;
	for (b = cpc->bufs; b; b = b->next)
		if (b->set == set)
			b->set = NULL;
	for (i = 0; i < set->nreqs; i++)
		cpc_req_free(&set->reqs[i]);
	free(set->reqs);
	free(set);
	return 0;
}

/* The attribute definition named name, or NULL. */
static const struct cpc_attr_def *cpc_attr_def(const char *name)
{
	unsigned int i;

	for (i = 0; i < cpc_nattr_defs; i++)
		if (strcmp(cpc_attr_defs[i].name, name) == 0)
			return &cpc_attr_defs[i];
	return NULL;
}

/* event as libhwpmc names it: a number (strtol(3)'s forms) is a raw event */
static int cpc_event_spec(const char *event, char *spec, size_t len)
{
	char *end;
	unsigned long long code;

	errno = 0;
	code = strtoull(event, &end, 0);
	if (*event >= '0' && *event <= '9' && *end == '\0' && errno == 0)
		return snprintf(spec, len, "r%llx", code) >= (int)len ? -1 : 0;
	return snprintf(spec, len, "%s", event) >= (int)len ? -1 : 0;
}

/* Check attrs; append their libhwpmc qualifiers to spec. */
static int cpc_attrs_check(cpc_t *cpc, const char *event, uint_t nattrs,
			   const cpc_attr_t *attrs, char *spec, size_t len)
{
	static const char fn[] = "cpc_set_add_request";
	const struct cpc_attr_def *d;
	size_t used;
	uint_t i;
	int n;

	if (nattrs && !attrs) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < nattrs; i++) {
		d = attrs[i].ca_name ? cpc_attr_def(attrs[i].ca_name) : NULL;
		if (!d || !cpc_attr_shown(cpc, d)) {
			cpc_err(cpc, fn, CPC_INVALID_ATTRIBUTE,
				"Invalid attribute \"%s\" for event %s: cpc_walk_attrs() lists the attributes\n",
				attrs[i].ca_name ? attrs[i].ca_name : "(null)", event);
			errno = EINVAL;
			return -1;
		}
		if (strcmp(d->name, "picnum") == 0) {
			if (attrs[i].ca_val >= cpc->npic) {
				cpc_err(cpc, fn, CPC_INVALID_PICNUM,
					"Counter %" PRIu64 " does not exist: the processor has %u counters\n",
					attrs[i].ca_val, cpc->npic);
				errno = EINVAL;
				return -1;
			}
			continue;	/* perf chooses the counter */
		}
		if (attrs[i].ca_val > d->max) {
			cpc_err(cpc, fn, CPC_ATTRIBUTE_OUT_OF_RANGE,
				"Value 0x%" PRIx64 " of attribute %s is out of range (0 to 0x%" PRIx64 ")\n",
				attrs[i].ca_val, d->name, d->max);
			errno = EINVAL;
			return -1;
		}
		if (!d->term)
			continue;	/* the library's (SMPL) */
		used = strlen(spec);
		if (d->max == 1) {		/* a switch */
			if (!attrs[i].ca_val)
				continue;
			n = snprintf(spec + used, len - used, ",%s", d->term);
		} else {
			n = snprintf(spec + used, len - used, ",%s=0x%" PRIx64,
				     d->term, attrs[i].ca_val);
		}
		if (n < 0 || (size_t)n >= len - used) {
			errno = EINVAL;
			return -1;
		}
	}
	return 0;
}

/*
 * SMPL: a request with smpl_nrecs samples (smpl_nrecs records kept, 1 to
 * CPC_SMPL_MAX_RECS); smpl_regs (registers in its records) only with it.
 * A SMPL request counts a mode, is no overflow request, and its event
 * must be one that samples.  *nrecs is 0 for a request without SMPL.
 */
static int cpc_smpl_check(cpc_t *cpc, const char *event, uint_t flags,
			  uint_t nattrs, const cpc_attr_t *attrs,
			  struct pmc_spec *ps, uint_t *nrecs, int *regs)
{
	static const char fn[] = "cpc_set_add_request";
	int has_regs = 0;
	uint32_t caps;
	uint_t i;

	*nrecs = 0;
	*regs = 0;
	for (i = 0; i < nattrs; i++) {
		if (strcmp(attrs[i].ca_name, CPC_SMPL_NRECS) == 0) {
			if (attrs[i].ca_val == 0) {
				cpc_err(cpc, fn, CPC_ATTRIBUTE_OUT_OF_RANGE,
					"Value 0 of attribute %s is out of range (1 to %u)\n",
					CPC_SMPL_NRECS, CPC_SMPL_MAX_RECS);
				errno = EINVAL;
				return -1;
			}
			*nrecs = (uint_t)attrs[i].ca_val;
		} else if (strcmp(attrs[i].ca_name, CPC_SMPL_REGS) == 0) {
			has_regs = 1;
			*regs = attrs[i].ca_val != 0;
		}
	}
	if (has_regs && !*nrecs) {
		cpc_err(cpc, fn, CPC_INVALID_ATTRIBUTE,
			"Attribute %s of event %s is for SMPL requests (with %s)\n",
			CPC_SMPL_REGS, event, CPC_SMPL_NRECS);
		errno = EINVAL;
		return -1;
	}
	if (!*nrecs)
		return 0;
	if (flags & CPC_OVF_NOTIFY_EMT) {
		cpc_err(cpc, fn, CPC_CONFLICTING_REQS,
			"A SMPL request (%s) cannot also notify overflows (CPC_OVF_NOTIFY_EMT)\n",
			event);
		errno = EINVAL;
		return -1;
	}
	if (!(flags & (CPC_COUNT_USER | CPC_COUNT_SYSTEM))) {
		cpc_err(cpc, fn, CPC_REQ_INVALID_FLAGS,
			"A SMPL request (%s) samples a mode: add CPC_COUNT_USER or CPC_COUNT_SYSTEM\n",
			event);
		errno = EINVAL;
		return -1;
	}
	if (pmc_event_caps(ps->ps_pa.pm_class, ps->ps_pa.pm_ev, &caps) == 0 &&
	    !(caps & PMC_CAP_INTERRUPT)) {
		cpc_err(cpc, fn, CPC_PIC_NOT_CAPABLE,
			"Event %s cannot sample (no overflow interrupt): no SMPL request of it\n",
			event);
		errno = EINVAL;
		return -1;
	}
	if (*regs)
		ps->ps_pa.pm_stacksize = 8;	/* the least: registers wanted */
	return 0;
}

static int cpc_attrs_copy(struct cpc_req *r, uint_t nattrs,
			  const cpc_attr_t *attrs)
{
	uint_t i;

	if (!nattrs)
		return 0;
	r->attrs = calloc(nattrs, sizeof(*r->attrs));
	if (!r->attrs)
		return -1;
	for (i = 0; i < nattrs; i++) {
		r->attrs[i].ca_name = strdup(attrs[i].ca_name);
		if (!r->attrs[i].ca_name)
			return -1;
		r->attrs[i].ca_val = attrs[i].ca_val;
		r->nattrs = i + 1;
	}
	return 0;
}

int cpc_set_add_request(cpc_t *cpc, cpc_set_t *set, const char *event,
			uint64_t preset, uint_t flags, uint_t nattrs,
			const cpc_attr_t *attrs)
{
	CPC_LOCKED;
	static const char fn[] = "cpc_set_add_request";
	char spec[CPC_MAX_EVENT_LEN + 256], msg[512];
	struct cpc_req r, *reqs;
	struct pmc_spec ps;
	uint_t rows, same = 0, smpl = 0;
	int smpl_regs = 0;
	uint32_t mode, caps;
	int i;

	if (!cpc_set_valid(cpc, set) || set->bound != CPC_UNBOUND) {
		errno = EINVAL;
		return -1;
	}
	if (!event || !*event || strlen(event) >= CPC_MAX_EVENT_LEN ||
	    cpc_event_spec(event, spec, sizeof(spec)) < 0) {
		cpc_err(cpc, fn, CPC_INVALID_EVENT, "Invalid event \"%s\"\n",
			event ? event : "(null)");
		errno = EINVAL;
		return -1;
	}
	if ((flags & ~(uint_t)CPC_REQ_FLAGS) || (flags & CPC_COUNT_HV)) {
		cpc_err(cpc, fn, CPC_REQ_INVALID_FLAGS,
			"Invalid flags 0x%x for event %s%s\n", flags, event,
			(flags & CPC_COUNT_HV) ? ": hypervisor mode cannot be counted" : "");
		errno = EINVAL;
		return -1;
	}
	/* the event alone, then with its attributes */
	if (pmc_parse_spec_events(spec, PMC_SPEC_MACHINE, &ps, msg,
				  sizeof(msg)) < 0) {
		cpc_err(cpc, fn, CPC_INVALID_EVENT, "Invalid event \"%s\": %s\n",
			event, msg);
		errno = EINVAL;
		return -1;
	}
	if (cpc_attrs_check(cpc, event, nattrs, attrs, spec, sizeof(spec)) < 0)
		return -1;
	if (nattrs && pmc_parse_spec_events(spec, PMC_SPEC_MACHINE, &ps, msg,
					    sizeof(msg)) < 0) {
		cpc_err(cpc, fn, CPC_INVALID_ATTRIBUTE,
			"Invalid attributes for event %s: %s\n", event, msg);
		errno = EINVAL;
		return -1;
	}

	if (cpc_smpl_check(cpc, event, flags, nattrs, attrs, &ps, &smpl,
			   &smpl_regs) < 0)
		return -1;

	/* the modes are the flags' (both: no mode bit, as libhwpmc has it) */
	ps.ps_pa.pm_caps &= ~(uint32_t)(PMC_CAP_USER | PMC_CAP_SYSTEM);
	if ((flags & (CPC_COUNT_USER | CPC_COUNT_SYSTEM)) == CPC_COUNT_USER)
		ps.ps_pa.pm_caps |= PMC_CAP_USER;
	else if ((flags & (CPC_COUNT_USER | CPC_COUNT_SYSTEM)) == CPC_COUNT_SYSTEM)
		ps.ps_pa.pm_caps |= PMC_CAP_SYSTEM;

	/* one mode alone must be one the event can count alone */
	mode = ps.ps_pa.pm_caps & (PMC_CAP_USER | PMC_CAP_SYSTEM);
	if (mode && pmc_event_caps(ps.ps_pa.pm_class, ps.ps_pa.pm_ev, &caps) == 0 &&
	    !(caps & mode)) {
		cpc_err(cpc, fn, CPC_REQ_INVALID_FLAGS,
			"Event %s cannot count %s mode alone: add CPC_COUNT_%s\n",
			event, mode == PMC_CAP_USER ? "user" : "system",
			mode == PMC_CAP_USER ? "SYSTEM" : "USER");
		errno = EINVAL;
		return -1;
	}

	if (flags & (CPC_COUNT_USER | CPC_COUNT_SYSTEM)) {
		rows = cpc_class_rows(ps.ps_pa.pm_class);
		for (i = 0; i < set->nreqs; i++)
			if (set->reqs[i].counts &&
			    set->reqs[i].ps.ps_pa.pm_class == ps.ps_pa.pm_class)
				same++;
		if (same >= rows) {
			cpc_err(cpc, fn, CPC_RESOURCE_UNAVAIL,
				"Too many requests: the set has %u requests of class %s already, and the processor has %u such counters\n",
				same, pmc_name_of_class(ps.ps_pa.pm_class), rows);
			errno = EINVAL;
			return -1;
		}
	}

	memset(&r, 0, sizeof(r));
	r.ps = ps;
	r.preset = preset;
	r.flags = flags;
	r.counts = (flags & (CPC_COUNT_USER | CPC_COUNT_SYSTEM)) != 0;
	r.smpl = smpl;
	r.smpl_regs = smpl_regs;
	r.event = strdup(event);
	r.spec = strdup(spec);
	reqs = realloc(set->reqs, (size_t)(set->nreqs + 1) * sizeof(*reqs));
	if (!r.event || !r.spec || !reqs || cpc_attrs_copy(&r, nattrs, attrs) < 0) {
		cpc_req_free(&r);
		if (reqs)
			set->reqs = reqs;
		errno = ENOMEM;
		return -1;
	}
	set->reqs = reqs;
	set->reqs[set->nreqs] = r;
	return set->nreqs++;
}

void cpc_walk_requests(cpc_t *cpc, cpc_set_t *set, void *arg,
		       void (*action)(void *arg, int index, const char *event,
				      uint64_t preset, uint_t flags,
				      int nattrs, const cpc_attr_t *attrs))
{
	CPC_LOCKED;
	int i;

	if (!cpc_set_valid(cpc, set) || !action) {
		errno = EINVAL;
		return;
	}
	for (i = 0; i < set->nreqs; i++)
		action(arg, i, set->reqs[i].event, set->reqs[i].preset,
		       set->reqs[i].flags, (int)set->reqs[i].nattrs,
		       set->reqs[i].attrs);
}

/* ---- buffers ---- */

/* buf keeps no SMPL records. */
static void cpc_buf_recs_clear(cpc_buf_t *buf)
{
	int i;

	for (i = 0; i < buf->n; i++) {
		free(buf->recs[i].v);
		memset(&buf->recs[i], 0, sizeof(buf->recs[i]));
	}
}

/* ds's SMPL records become a copy of src's (the later sample's). */
static void cpc_buf_recs_copy(cpc_buf_t *ds, cpc_buf_t *src)
{
	int i;

	for (i = 0; i < ds->n; i++)
		if (cpc_recs_copy(&ds->recs[i], &src->recs[i]) < 0) {
			free(ds->recs[i].v);
			memset(&ds->recs[i], 0, sizeof(ds->recs[i]));
		}
}

cpc_buf_t *cpc_buf_create(cpc_t *cpc, cpc_set_t *set)
{
	CPC_LOCKED;
	cpc_buf_t *buf;

	if (!cpc_set_valid(cpc, set)) {
		errno = EINVAL;
		return NULL;
	}
	buf = calloc(1, sizeof(*buf));
	if (!buf)
		return NULL;
	buf->vals = calloc(set->nreqs ? (size_t)set->nreqs : 1, sizeof(*buf->vals));
	buf->recs = calloc(set->nreqs ? (size_t)set->nreqs : 1, sizeof(*buf->recs));
	if (!buf->vals || !buf->recs) {
		free(buf->vals);
		free(buf->recs);
		free(buf);
		return NULL;
	}
	buf->cpc = cpc;
	buf->set = set;
	buf->n = set->nreqs;
	buf->next = cpc->bufs;
	cpc->bufs = buf;
	return buf;
}

int cpc_buf_destroy(cpc_t *cpc, cpc_buf_t *buf)
{
	CPC_LOCKED;
	cpc_buf_t **pp;

	if (!cpc_buf_valid(cpc, buf)) {
		errno = EINVAL;
		return -1;
	}
	for (pp = &cpc->bufs; *pp != buf; pp = &(*pp)->next)
		;
	*pp = buf->next;
	cpc_buf_recs_clear(buf);
	free(buf->recs);
	free(buf->vals);
	free(buf);
	return 0;
}

int cpc_buf_get(cpc_t *cpc, cpc_buf_t *buf, int index, uint64_t *val)
{
	CPC_LOCKED;
	if (!cpc_buf_valid(cpc, buf) || index < 0 || index >= buf->n || !val) {
		errno = EINVAL;
		return -1;
	}
	*val = buf->vals[index];
	return 0;
}

int cpc_buf_set(cpc_t *cpc, cpc_buf_t *buf, int index, uint64_t val)
{
	CPC_LOCKED;
	if (!cpc_buf_valid(cpc, buf) || index < 0 || index >= buf->n) {
		errno = EINVAL;
		return -1;
	}
	buf->vals[index] = val;
	return 0;
}

hrtime_t cpc_buf_hrtime(cpc_t *cpc, cpc_buf_t *buf)
{
	CPC_LOCKED;
	return cpc_buf_valid(cpc, buf) ? buf->hrtime : 0;
}

uint64_t cpc_buf_tick(cpc_t *cpc, cpc_buf_t *buf)
{
	CPC_LOCKED;
	return cpc_buf_valid(cpc, buf) ? buf->tick : 0;
}

/* Buffers of one shape: all of cpc's, the same number of requests. */
static int cpc_bufs_alike(cpc_t *cpc, cpc_buf_t *ds, cpc_buf_t *a,
			  cpc_buf_t *b)
{
	return cpc_buf_valid(cpc, ds) && cpc_buf_valid(cpc, a) &&
	       cpc_buf_valid(cpc, b) && ds->n == a->n && a->n == b->n;
}

void cpc_buf_sub(cpc_t *cpc, cpc_buf_t *ds, cpc_buf_t *a, cpc_buf_t *b)
{
	CPC_LOCKED;
	int i;

	if (!cpc_bufs_alike(cpc, ds, a, b))
		return;
	for (i = 0; i < ds->n; i++)
		ds->vals[i] = a->vals[i] - b->vals[i];
	ds->hrtime = a->hrtime;		/* when the later sample was taken */
	ds->tick = a->tick - b->tick;
	cpc_buf_recs_copy(ds, a);	/* records are a's: not subtracted */
}

void cpc_buf_add(cpc_t *cpc, cpc_buf_t *ds, cpc_buf_t *a, cpc_buf_t *b)
{
	CPC_LOCKED;
	int i;

	if (!cpc_bufs_alike(cpc, ds, a, b))
		return;
	for (i = 0; i < ds->n; i++)
		ds->vals[i] = a->vals[i] + b->vals[i];
	ds->hrtime = a->hrtime > b->hrtime ? a->hrtime : b->hrtime;
	ds->tick = a->tick + b->tick;
	cpc_buf_recs_copy(ds, a);	/* records are a's: not added */
}

void cpc_buf_copy(cpc_t *cpc, cpc_buf_t *ds, cpc_buf_t *src)
{
	CPC_LOCKED;
	if (!cpc_bufs_alike(cpc, ds, src, src) || ds == src)
		return;
	memcpy(ds->vals, src->vals, (size_t)ds->n * sizeof(*ds->vals));
	ds->hrtime = src->hrtime;
	ds->tick = src->tick;
	cpc_buf_recs_copy(ds, src);
}

void cpc_buf_zero(cpc_t *cpc, cpc_buf_t *buf)
{
	CPC_LOCKED;
	if (!cpc_buf_valid(cpc, buf))
		return;
	memset(buf->vals, 0, (size_t)buf->n * sizeof(*buf->vals));
	buf->hrtime = 0;
	buf->tick = 0;
	cpc_buf_recs_clear(buf);
}
