// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-cputrack and hwpmc-cpustat: -c event specifications (cpc_spec.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cpc_spec.h"
#include "tool_util.h"

/* Is name one of libcpc's attributes (cpc_walk_attrs())? */
struct attr_find {
	const char	*name;
	size_t		 len;
	int		 found;
};

static void attr_match(void *arg, const char *attr)
{
	struct attr_find *a = arg;

	if (strlen(attr) == a->len && strncmp(attr, a->name, a->len) == 0)
		a->found = 1;
}

static int is_attr(cpc_t *cpc, const char *name, size_t len)
{
	struct attr_find a = { name, len, 0 };

	cpc_walk_attrs(cpc, &a, attr_match);
	return a.found;
}

static int is_mode(const char *name, size_t len)
{
	return (len == 3 && strncmp(name, "sys", 3) == 0) ||
	       (len == 6 && strncmp(name, "nouser", 6) == 0);
}

static int is_attr_tok(cpc_t *cpc, const char *name, size_t len)
{
	return is_mode(name, len) || is_attr(cpc, name, len);
}

/* The length of name without its trailing counter number, *n that number or -1. */
static size_t split_number(const char *name, size_t len, int *n)
{
	size_t i = len;

	while (i > 0 && isdigit((unsigned char)name[i - 1]))
		i--;
	*n = -1;
	if (i == len || i == 0 || len - i > 3)
		return len;
	*n = atoi(name + i);
	return i;
}

/* A token that is no request: an attribute or a mode, to apply later. */
struct cpcs_tok {
	const char	*name;		/* NUL-cut in the copy */
	size_t		 len;		/* without the number */
	int		 n;		/* its counter, or -1 */
	uint64_t	 val;
};

static int errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Which requests token t applies to: all, or the one on counter t->n */
static int tok_applies(const struct cpcs_spec *sp, const struct cpcs_tok *t, int i)
{
	int j, explicit = 0;

	if (t->n < 0)
		return 1;
	for (j = 0; j < sp->nreqs; j++)
		if (sp->reqs[j].pic >= 0)
			explicit = 1;
	return explicit ? sp->reqs[i].pic == t->n : i == t->n;
}

int cpcs_parse(cpc_t *cpc, const char *text, struct cpcs_spec *sp,
	       char *err, size_t errlen)
{
	struct cpcs_tok toks[64];
	int ntoks = 0, i, j, n, hit;
	char *tok, *save = NULL, *eq, *end;
	struct cpcs_req *r;
	size_t len;

	memset(sp, 0, sizeof(*sp));
	if (!text || !*text)
		return errf(err, errlen, "empty event specification");
	sp->text = strdup(text);
	if (!sp->text)
		return errf(err, errlen, "%s", strerror(errno));
	for (tok = strtok_r(sp->text, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		eq = strchr(tok, '=');
		len = eq ? (size_t)(eq - tok) : strlen(tok);
		if (len > 3 && strncmp(tok, "pic", 3) == 0 &&
		    strspn(tok + 3, "0123456789") == len - 3) {
			/* picn=event */
			if (!eq || !eq[1])
				return errf(err, errlen, "\"%s\": no event for the counter", tok);
			n = atoi(tok + 3);
			if (len - 3 > 3 || n >= (int)cpc_npic(cpc))
				return errf(err, errlen, "\"%.*s\": there are %u counters (pic0 to pic%u)",
					    (int)len, tok, cpc_npic(cpc), cpc_npic(cpc) - 1);
			for (j = 0; j < sp->nreqs; j++)
				if (sp->reqs[j].pic == n)
					return errf(err, errlen, "counter pic%d named twice", n);
			if (sp->nreqs == CPCS_MAXREQ)
				return errf(err, errlen, "too many events (at most %d)", CPCS_MAXREQ);
			r = &sp->reqs[sp->nreqs++];
			r->event = eq + 1;
			r->pic = n;
			continue;
		}
		if (is_attr_tok(cpc, tok, len)) {
			n = -1;			/* the whole name */
		} else {
			len = split_number(tok, len, &n);
			if (n >= 0 && !is_attr_tok(cpc, tok, len))
				len = eq ? (size_t)(eq - tok) : strlen(tok);
		}
		if (is_attr_tok(cpc, tok, len)) {
			if (ntoks == (int)(sizeof(toks) / sizeof(toks[0])))
				return errf(err, errlen, "too many attributes");
			toks[ntoks].name = tok;
			toks[ntoks].len = len;
			toks[ntoks].n = n;
			toks[ntoks].val = 1;
			if (eq) {
				if (is_mode(tok, len))
					return errf(err, errlen, "\"%s\": %.*s takes no value",
						    tok, (int)len, tok);
				errno = 0;
				toks[ntoks].val = strtoull(eq + 1, &end, 0);
				if (errno || end == eq + 1 || *end || eq[1] == '-')
					return errf(err, errlen, "\"%s\": bad attribute value", tok);
			}
			ntoks++;
			continue;
		}
		if (eq)
			return errf(err, errlen, "\"%.*s\" is not an attribute (hwpmc-cputrack -h lists them)",
				    (int)(eq - tok), tok);
		if (sp->nreqs == CPCS_MAXREQ)
			return errf(err, errlen, "too many events (at most %d)", CPCS_MAXREQ);
		r = &sp->reqs[sp->nreqs++];
		r->event = tok;
		r->pic = -1;
	}
	if (sp->nreqs == 0)
		return errf(err, errlen, "\"%s\" names no event", text);
	for (i = 0; i < sp->nreqs; i++)
		sp->reqs[i].flags = CPC_COUNT_USER;
	for (j = 0; j < ntoks; j++) {
		hit = 0;
		for (i = 0; i < sp->nreqs; i++) {
			if (!tok_applies(sp, &toks[j], i))
				continue;
			hit = 1;
			r = &sp->reqs[i];
			if (toks[j].len == 3 && strncmp(toks[j].name, "sys", 3) == 0) {
				r->flags |= CPC_COUNT_SYSTEM;
				r->has_mode = 1;
			} else if (toks[j].len == 6 && strncmp(toks[j].name, "nouser", 6) == 0) {
				r->flags &= ~(uint_t)CPC_COUNT_USER;
				r->has_mode = 1;
			} else {
				if (r->nattrs == CPCS_MAXATTR)
					return errf(err, errlen, "too many attributes for %s", r->event);
				/* the name, cut from the token (tokens are NUL-ended) */
				((char *)toks[j].name)[toks[j].len] = '\0';
				r->attrs[r->nattrs].ca_name = (char *)toks[j].name;
				r->attrs[r->nattrs].ca_val = toks[j].val;
				r->nattrs++;
			}
		}
		if (!hit)
			return errf(err, errlen, "\"%.*s%d\": no event on counter %d",
				    (int)toks[j].len, toks[j].name, toks[j].n, toks[j].n);
	}
	return 0;
}

/* libcpc's errors, kept for the message of the last failure */
static char cpcs_msg[512];
static int cpcs_subcode;

static void cpcs_errhndlr(const char *fn, int subcode, const char *fmt, va_list ap)
{
	size_t n;

	(void)fn;
	cpcs_subcode = subcode;
	vsnprintf(cpcs_msg, sizeof(cpcs_msg), fmt, ap);
	n = strlen(cpcs_msg);
	if (n && cpcs_msg[n - 1] == '\n')
		cpcs_msg[n - 1] = '\0';
}

cpc_set_t *cpcs_set(cpc_t *cpc, struct cpcs_spec *sp, char *err, size_t errlen)
{
	cpc_set_t *set;
	struct cpcs_req *r;
	int i, rc;

	cpc_seterrhndlr(cpc, cpcs_errhndlr);
	set = cpc_set_create(cpc);
	if (!set) {
		errf(err, errlen, "cannot create a set: %s", strerror(errno));
		return NULL;
	}
	for (i = 0; i < sp->nreqs; i++) {
		r = &sp->reqs[i];
		cpcs_msg[0] = '\0';
		cpcs_subcode = 0;
		rc = cpc_set_add_request(cpc, set, r->event, 0, r->flags, r->nattrs,
					 r->attrs);
		if (rc < 0 && !r->has_mode && cpcs_subcode == CPC_REQ_INVALID_FLAGS) {
			/* counts only both modes (a software event): both */
			r->flags |= CPC_COUNT_SYSTEM;
			cpcs_msg[0] = '\0';
			rc = cpc_set_add_request(cpc, set, r->event, 0, r->flags,
						 r->nattrs, r->attrs);
		}
		if (rc < 0) {
			errf(err, errlen, "%s", cpcs_msg[0] ? cpcs_msg : strerror(errno));
			cpc_set_destroy(cpc, set);
			return NULL;
		}
	}
	return set;
}

void cpcs_free(struct cpcs_spec *sp)
{
	free(sp->text);
	sp->text = NULL;
}

struct list_state {
	FILE	*f;
	int	 col;
};

static void list_one(void *arg, const char *name)
{
	struct list_state *s = arg;
	int len = (int)strlen(name);

	if (s->col && s->col + len + 1 > 76) {
		fputc('\n', s->f);
		s->col = 0;
	}
	fprintf(s->f, "%s%s", s->col ? " " : "\t", name);
	s->col += len + (s->col ? 1 : 8);
}

void cpcs_list(cpc_t *cpc, FILE *f)
{
	struct list_state s = { f, 0 };

	fprintf(f, "\n\tCPU performance counter interface: %s\n", cpc_cciname(cpc));
	fprintf(f, "\n\tevent specification syntax:\n"
		"\t[picn=]<eventn>[,attr[n][=<val>]][,[picn=]<eventn>[,attr[n][=<val>]],...]\n");
	fprintf(f, "\n\tGeneric Events:\n\n");
	cpc_walk_generic_events_all(cpc, &s, list_one);
	fprintf(f, "%s\n\tEvents (software events are a Linux extension):\n\n", s.col ? "\n" : "");
	s.col = 0;
	cpc_walk_events_all(cpc, &s, list_one);
	fprintf(f, "%s\n\tAttributes:\n\n", s.col ? "\n" : "");
	s.col = 0;
	list_one(&s, "sys");
	list_one(&s, "nouser");
	cpc_walk_attrs(cpc, &s, list_one);
	fprintf(f, "%s\n\t%s\n", s.col ? "\n" : "", cpc_cpuref(cpc));
}

int cpcs_tool_opt(struct cpcs_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'c':
		if (o->ntexts == CPCS_MAXSPEC)
			tool_usage_error("at most %d -c sets", CPCS_MAXSPEC);
		o->texts[o->ntexts++] = arg;
		return 1;
	case 'h':
		o->help = 1;
		return 1;
	case 'n':
		o->noheader = 1;
		return 1;
	case 't':
		o->tsc = 1;
		return 1;
	case 'D':
		return 1;	/* illumos' debug mode: nothing more to say */
	default:
		return 0;
	}
}

cpc_t *cpcs_tool_open(int help, int nspecs, void (*usage)(FILE *f))
{
	/* counters only: SMPL is for cpc_bind_curlwp(), not a process's or CPU's set */
	cpc_t *cpc = cpc_open(CPC_VER_CPC_ONLY);

	if (help) {
		usage(stdout);
		if (cpc)
			cpcs_list(cpc, stdout);
		exit(0);
	}
	if (nspecs == 0)
		tool_usage_error("no events: -c is needed");
	return cpc;
}

void cpcs_tool_sets(cpc_t *cpc, const char *const *texts, int n,
		    struct cpcs_spec *specs, cpc_set_t **sets)
{
	char err[512];
	cpc_set_t *set;
	int i;

	if (!cpc)
		tool_die("cannot access performance counters - %s", strerror(errno));
	for (i = 0; i < n; i++) {
		if (cpcs_parse(cpc, texts[i], &specs[i], err, sizeof(err)) < 0)
			tool_usage_error("-c %s: %s", texts[i], err);
		set = cpcs_set(cpc, &specs[i], err, sizeof(err));
		if (!set)
			tool_die("-c %s: %s", texts[i], err);
		if (sets)
			sets[i] = set;
		else
			cpc_set_destroy(cpc, set);
	}
}

int cpcs_col_width(const char *name)
{
	int n = (int)strlen(name);

	return n > 9 ? n : 9;
}

const char *cpcs_col_name(const struct cpcs_spec *specs, int nspecs,
			  int spec, int i, char *buf, size_t len)
{
	if (nspecs > 1) {
		snprintf(buf, len, "pic%d", i);
		return buf;
	}
	return specs[spec].reqs[i].event;
}

int cpcs_ncols(const struct cpcs_spec *specs, int nspecs)
{
	int i, n = 0;

	for (i = 0; i < nspecs; i++)
		if (specs[i].nreqs > n)
			n = specs[i].nreqs;
	return n;
}
