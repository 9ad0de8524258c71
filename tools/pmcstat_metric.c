// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat -M: the pmu-events tables' derived metrics and an evaluator
 * of perf's metric expression language (see pmcstat_metric.h).
 *
 * An expression is parsed into a tree (precedence as perf's expr.y, from
 * the lowest: 'if else', |, ^, &, < >, + -, * / %, unary - !), then
 * walked: to collect the events it needs (COLLECT: a condition that
 * needs counts takes both sides of its 'if', one that literals decide
 * takes one), or to compute its value from the counts (EVAL).  Division
 * by zero is an error (d_ratio() gives 0 instead), not a number.
 */
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <pmc.h>

#include "pmcstat_metric.h"
#include "pmu_metrics.h"

#define PM_STR(off)	(hwpmc_pm_pool + (off))
#define MAXDEPTH	32	/* metric references within references */

/* ---- the tables ---- */

int metric_table(const char *model)
{
	unsigned int i;

	if (!model)
		return -1;
	for (i = 0; i < hwpmc_pm_ntables; i++)
		if (!strcmp(PM_STR(hwpmc_pm_tables[i].model), model))
			return (int)i;
	return -1;
}

int metric_count(int table)
{
	if (table < 0 || (unsigned int)table >= hwpmc_pm_ntables)
		return 0;
	return (int)hwpmc_pm_tables[table].count;
}

int metric_at(int table, int i, struct metric_info *mi)
{
	const struct hwpmc_pm_metric *m;

	if (i < 0 || i >= metric_count(table))
		return -1;
	m = &hwpmc_pm_metrics[hwpmc_pm_tables[table].first + (unsigned int)i];
	mi->name = PM_STR(m->name);
	mi->expr = PM_STR(m->expr);
	mi->groups = PM_STR(m->groups);
	mi->unit = PM_STR(m->unit);
	mi->desc = PM_STR(m->desc);
	mi->scale = m->scale;
	return 0;
}

int metric_find(int table, const char *name)
{
	struct metric_info mi;
	int i, n = metric_count(table);

	for (i = 0; i < n; i++)
		if (!metric_at(table, i, &mi) && !strcasecmp(mi.name, name))
			return i;
	return -1;
}

int metric_in_group(const struct metric_info *mi, const char *group)
{
	const char *p = mi->groups;
	size_t n, len = strlen(group);

	while (*p) {
		n = strcspn(p, ";");
		if (n == len && !strncasecmp(p, group, n))
			return 1;
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

/* ---- literals of this machine ---- */

static double read_sysfs_num(const char *rel)
{
	const char *root = secure_getenv("HWPMC_SYSFS");
	char path[512], line[64], *end;
	double v;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root && *root ? root : "/sys",
		 rel);
	f = fopen(path, "re");
	if (!f)
		return NAN;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return NAN;
	}
	fclose(f);
	v = strtod(line, &end);
	return end == line ? NAN : v;
}

void metric_env_init(struct metric_env *env)
{
	const char *root = secure_getenv("HWPMC_SYSFS");
	char path[512], rel[512];
	struct dirent *de;
	DIR *d;

	memset(env, 0, sizeof(*env));
	env->events = PMC_SPEC_KNOWN;	/* no module needed */
	env->smt_on = read_sysfs_num("devices/system/cpu/smt/active");
	if (isnan(env->smt_on))
		env->smt_on = 0;		/* no SMT control: none */
	env->smt_on = env->smt_on != 0;
	env->core_wide = 0;	/* process scope: never the whole core */
	env->num_cpus_online = (double)sysconf(_SC_NPROCESSORS_ONLN);
	env->num_cpus = (double)sysconf(_SC_NPROCESSORS_CONF);
	env->slots = NAN;
	snprintf(path, sizeof(path), "%s/bus/event_source/devices",
		 root && *root ? root : "/sys");
	d = opendir(path);
	while (d && (de = readdir(d))) {
		if (strcmp(de->d_name, "cpu") && strcmp(de->d_name, "cpu_core") &&
		    strncmp(de->d_name, "armv8_", 6) &&
		    strncmp(de->d_name, "armv9_", 6))
			continue;
		snprintf(rel, sizeof(rel), "bus/event_source/devices/%.200s/caps/slots",
			 de->d_name);
		env->slots = read_sysfs_num(rel);
		if (!isnan(env->slots))
			break;
	}
	if (d)
		closedir(d);
}

/* ---- the expression tree ---- */

enum node_kind {
	N_NUM, N_EVENT, N_LIT, N_NEG, N_NOT, N_BIN, N_IF, N_MIN, N_MAX,
	N_DRATIO, N_HAS_EVENT, N_UNSUPPORTED,
};

struct node {
	enum node_kind	kind;
	int		op;		/* N_BIN: + - * / % < > | & ^ */
	double		num;
	char		*name;		/* N_EVENT, N_LIT, N_HAS_EVENT, N_UNSUPPORTED */
	struct node	*a, *b, *c;	/* N_IF: a if b else c */
};

struct parser {
	const char	*s, *p;
	char		*err;
	size_t		errlen;
	int		failed;
	/* the current token */
	int		tok;		/* T_* or an operator character */
	double		num;
	char		id[512];
};

enum { T_END = 256, T_NUM, T_ID, T_LIT, T_IF, T_ELSE };

static void pfail(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void pfail(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ps->failed)
		return;
	ps->failed = 1;
	va_start(ap, fmt);
	n = vsnprintf(ps->err, ps->errlen, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < ps->errlen)
		snprintf(ps->err + n, ps->errlen - (size_t)n,
			 " at offset %d of '%s'", (int)(ps->p - ps->s), ps->s);
}

static int sym_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == ':' || c == '@' ||
	       c == '?';
}

static void next(struct parser *ps)
{
	const char *p = ps->p;
	size_t n = 0;
	char *end;

	while (isspace((unsigned char)*p))
		p++;
	ps->p = p;
	if (!*p) {
		ps->tok = T_END;
		return;
	}
	if (isdigit((unsigned char)*p) ||
	    (*p == '.' && isdigit((unsigned char)p[1]))) {
		ps->num = strtod(p, &end);
		/* "1e9", "0.5": not "0x10" nor a symbol such as "2_PORTS" */
		if (end > p && !sym_char((unsigned char)*end) && *end != '\\') {
			ps->p = end;
			ps->tok = T_NUM;
			return;
		}
	}
	if (*p == '#' || sym_char((unsigned char)*p) || *p == '\\') {
		int lit = *p == '#';

		if (lit)
			p++;
		while (*p && (sym_char((unsigned char)*p) || *p == '\\')) {
			if (*p == '\\') {
				if (!p[1])
					break;
				p++;
			}
			if (n + 1 >= sizeof(ps->id)) {
				pfail(ps, "name too long");
				ps->tok = T_END;
				return;
			}
			ps->id[n++] = *p++;
		}
		ps->id[n] = '\0';
		ps->p = p;
		if (lit)
			ps->tok = T_LIT;
		else if (!strcmp(ps->id, "if"))
			ps->tok = T_IF;
		else if (!strcmp(ps->id, "else"))
			ps->tok = T_ELSE;
		else
			ps->tok = T_ID;
		if (!n)
			pfail(ps, "'#' without a name");
		return;
	}
	if (strchr("+-*/%()<>|&^!,", *p)) {
		ps->tok = *p;
		ps->p = p + 1;
		return;
	}
	pfail(ps, "unexpected character '%c'", *p);
	ps->tok = T_END;
}

static struct node *mk(struct parser *ps, enum node_kind k)
{
	struct node *n = calloc(1, sizeof(*n));

	if (!n)
		pfail(ps, "out of memory");
	else
		n->kind = k;
	return n;
}

static void node_free(struct node *n)
{
	if (!n)
		return;
	node_free(n->a);
	node_free(n->b);
	node_free(n->c);
	free(n->name);
	free(n);
}

static struct node *p_if(struct parser *ps);
static struct node *p_bin(struct parser *ps, int level);

static int expect(struct parser *ps, int tok, const char *what)
{
	if (ps->tok != tok) {
		pfail(ps, "expected %s", what);
		return -1;
	}
	next(ps);
	return 0;
}

static struct node *p_primary(struct parser *ps)
{
	struct node *n = NULL;
	char name[sizeof(ps->id)];

	if (ps->failed)
		return NULL;
	switch (ps->tok) {
	case T_NUM:
		n = mk(ps, N_NUM);
		if (n)
			n->num = ps->num;
		next(ps);
		return n;
	case T_LIT:
		n = mk(ps, N_LIT);
		if (n && !(n->name = strdup(ps->id)))
			pfail(ps, "out of memory");
		next(ps);
		return n;
	case '(':
		next(ps);
		n = p_if(ps);
		if (expect(ps, ')', "')'") < 0) {
			node_free(n);
			return NULL;
		}
		return n;
	case '-':
	case '!':
		n = mk(ps, ps->tok == '-' ? N_NEG : N_NOT);
		next(ps);
		if (n)
			n->a = p_bin(ps, 6);	/* binds tighter than * / % */
		return n;
	case T_ID:
		break;
	default:
		pfail(ps, ps->tok == T_END ? "unexpected end" :
		      "expected a number, an event or '('");
		return NULL;
	}
	strcpy(name, ps->id);
	next(ps);
	if (ps->tok != '(') {
		n = mk(ps, N_EVENT);
		if (n && !(n->name = strdup(name)))
			pfail(ps, "out of memory");
		return n;
	}
	/* a function */
	next(ps);
	if (!strcmp(name, "min") || !strcmp(name, "max") ||
	    !strcmp(name, "d_ratio")) {
		n = mk(ps, name[0] == 'd' ? N_DRATIO : name[1] == 'i' ? N_MIN :
			   N_MAX);
		if (!n)
			return NULL;
		n->a = p_if(ps);
		if (expect(ps, ',', "','") == 0)
			n->b = p_if(ps);
	} else if (!strcmp(name, "has_event") ||
		   !strcmp(name, "source_count") ||
		   !strcmp(name, "strcmp_cpuid_str")) {
		n = mk(ps, name[0] == 'h' ? N_HAS_EVENT : N_UNSUPPORTED);
		if (!n)
			return NULL;
		if (ps->tok != T_ID && ps->tok != T_NUM) {
			pfail(ps, "expected a name in %s()", name);
		} else if (n->kind == N_HAS_EVENT) {
			n->name = strdup(ps->id);
		} else {
			n->name = strdup(name);
		}
		if (!n->name)
			pfail(ps, "out of memory");
		next(ps);
	} else {
		pfail(ps, "unknown function '%s'", name);
		return NULL;
	}
	if (expect(ps, ')', "')'") < 0) {
		node_free(n);
		return NULL;
	}
	return n;
}

/* binary operators by level, from the lowest */
static const char *const levels[] = { "|", "^", "&", "<>", "+-", "*/%" };

static struct node *p_bin(struct parser *ps, int level)
{
	struct node *l, *n;

	if (level >= 6)
		return p_primary(ps);
	l = p_bin(ps, level + 1);
	while (!ps->failed && ps->tok < T_END && ps->tok &&
	       strchr(levels[level], ps->tok)) {
		n = mk(ps, N_BIN);
		if (!n)
			break;
		n->op = ps->tok;
		next(ps);
		n->a = l;
		n->b = p_bin(ps, level + 1);
		l = n;
	}
	return l;
}

/* a if cond else b: cond is not itself an 'if'; b may be one */
static struct node *p_if(struct parser *ps)
{
	struct node *a = p_bin(ps, 0), *n;

	if (ps->failed || ps->tok != T_IF)
		return a;
	n = mk(ps, N_IF);
	if (!n)
		return a;
	next(ps);
	n->a = a;
	n->b = p_bin(ps, 0);
	if (expect(ps, T_ELSE, "'else'") == 0)
		n->c = p_if(ps);
	return n;
}

static struct node *parse(const char *s, char *err, size_t errlen)
{
	struct parser ps = { .s = s, .p = s, .err = err, .errlen = errlen };
	struct node *n;

	next(&ps);
	n = p_if(&ps);
	if (!ps.failed && ps.tok != T_END)
		pfail(&ps, "unexpected text");
	if (ps.failed) {
		node_free(n);
		return NULL;
	}
	return n;
}

/* ---- events ---- */

int metric_event_spec(const char *name, char *spec, size_t len)
{
	const char *at = strchr(name, '@'), *at2;
	int n;

	if (!at) {
		n = snprintf(spec, len, "%s", name);
	} else {
		/* perf's pmu@terms@[modifiers]: pmc(3)'s pmu/terms/[modifiers] */
		at2 = strchr(at + 1, '@');
		if (!at2)
			return -1;
		n = snprintf(spec, len, "%.*s/%.*s/%s", (int)(at - name), name,
			     (int)(at2 - at - 1), at + 1, at2 + 1);
	}
	if (n < 0 || (size_t)n >= len)
		return -1;
	/* vendor and generic names are case-insensitive: one spelling */
	for (char *p = spec, *stop = at ? strrchr(spec, '/') : NULL;
	     *p && (at ? p < stop : *p != ':'); p++)
		*p = (char)tolower((unsigned char)*p);
	return 0;
}

/* ---- the walk ---- */

enum { COLLECT, EVAL };

struct walk {
	int		mode;
	int		table;
	const struct metric_env *env;
	int		(*add)(void *arg, const char *spec);
	void		*arg;
	char		*why;
	size_t		whylen;
	int		depth;
};

#define W_DONE		0
#define W_DYN		1	/* COLLECT: depends on counts */
#define W_ERR		(-1)

static int wfail(struct walk *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int wfail(struct walk *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->why, w->whylen, fmt, ap);
	va_end(ap);
	return W_ERR;
}

static int walk_metric(struct walk *w, int i, double *v);
static int walk(struct walk *w, const struct node *n, double *v);

static int lit_value(struct walk *w, const char *name, double *v)
{
	static const struct { const char *name; size_t off; } lits[] = {
		{ "smt_on", offsetof(struct metric_env, smt_on) },
		{ "core_wide", offsetof(struct metric_env, core_wide) },
		{ "num_cpus_online", offsetof(struct metric_env, num_cpus_online) },
		{ "num_cpus", offsetof(struct metric_env, num_cpus) },
		{ "slots", offsetof(struct metric_env, slots) },
	};
	size_t i;

	for (i = 0; i < sizeof(lits) / sizeof(lits[0]); i++) {
		if (strcasecmp(name, lits[i].name))
			continue;
		memcpy(v, (const char *)w->env + lits[i].off, sizeof(*v));
		if (isnan(*v))
			return wfail(w, "#%s is not known on this machine%s", name,
				     !strcasecmp(name, "slots") ?
				     " (no caps/slots of the core PMU in sysfs)" : "");
		return W_DONE;
	}
	return wfail(w, "#%s is not supported", name);
}

static int event_value(struct walk *w, const char *name, double *v)
{
	struct pmc_spec ps;
	char spec[600], err[400];
	int i;

	if (!strcasecmp(name, "duration_time")) {
		*v = w->env->duration;
		return w->mode == COLLECT ? W_DYN : W_DONE;
	}
	if (w->table >= 0 && (i = metric_find(w->table, name)) >= 0)
		return walk_metric(w, i, v);
	if (metric_event_spec(name, spec, sizeof(spec)) < 0)
		return wfail(w, "event '%s' is not supported", name);
	if (pmc_parse_spec_events(spec, w->env->events, &ps, err,
				  sizeof(err)) < 0)
		return wfail(w, "event '%s': %s", name, err);
	if (w->mode == COLLECT) {
		*v = 0;
		if (w->add && w->add(w->arg, spec) < 0)
			return wfail(w, "event '%s': cannot add it", name);
		return W_DYN;
	}
	if (!w->env->count || w->env->count(w->env->arg, spec, v) < 0)
		return wfail(w, "event '%s' was not counted", spec);
	return W_DONE;
}

static int walk2(struct walk *w, const struct node *n, double *a, double *b)
{
	int ra = walk(w, n->a, a), rb;

	if (ra == W_ERR)
		return W_ERR;
	rb = walk(w, n->b, b);
	if (rb == W_ERR)
		return W_ERR;
	return ra == W_DYN || rb == W_DYN ? W_DYN : W_DONE;
}

static int binop(struct walk *w, int op, double a, double b, double *v)
{
	switch (op) {
	case '+': *v = a + b; break;
	case '-': *v = a - b; break;
	case '*': *v = a * b; break;
	case '/':
		if (b == 0)
			return wfail(w, "division by zero");
		*v = a / b;
		break;
	case '%':
		if ((long long)b == 0)
			return wfail(w, "division by zero");
		*v = (double)((long long)a % (long long)b);
		break;
	case '<': *v = a < b; break;
	case '>': *v = a > b; break;
	case '|': *v = a != 0 || b != 0; break;
	case '&': *v = a != 0 && b != 0; break;
	case '^': *v = (a != 0) != (b != 0); break;
	default:
		return wfail(w, "operator '%c'", op);
	}
	return W_DONE;
}

static int walk(struct walk *w, const struct node *n, double *v)
{
	struct pmc_spec ps;
	char spec[600], err[400];
	double a = 0, b = 0;
	int r;

	switch (n->kind) {
	case N_NUM:
		*v = n->num;
		return W_DONE;
	case N_LIT:
		return lit_value(w, n->name, v);
	case N_EVENT:
		return event_value(w, n->name, v);
	case N_HAS_EVENT:
		*v = metric_event_spec(n->name, spec, sizeof(spec)) == 0 &&
		     pmc_parse_spec_events(spec, w->env->events, &ps, err,
					   sizeof(err)) == 0;
		return W_DONE;
	case N_UNSUPPORTED:
		return wfail(w, "%s() is not supported", n->name);
	case N_NEG:
	case N_NOT:
		r = walk(w, n->a, &a);
		*v = n->kind == N_NEG ? -a : a == 0;
		return r;
	case N_BIN:
		r = walk2(w, n, &a, &b);
		if (r != W_DONE)
			return r;
		return binop(w, n->op, a, b, v);
	case N_MIN:
	case N_MAX:
	case N_DRATIO:
		r = walk2(w, n, &a, &b);
		if (r != W_DONE)
			return r;
		if (n->kind == N_DRATIO)
			*v = b == 0 ? 0 : a / b;
		else
			*v = (n->kind == N_MIN) == (a < b) ? a : b;
		return W_DONE;
	case N_IF:
		r = walk(w, n->b, &b);
		if (r == W_ERR)
			return W_ERR;
		if (r == W_DONE)
			return walk(w, b != 0 ? n->a : n->c, v);
		/* COLLECT, a condition that needs counts: both sides */
		if (walk(w, n->a, &a) == W_ERR || walk(w, n->c, &a) == W_ERR)
			return W_ERR;
		return W_DYN;
	}
	return wfail(w, "bad expression");
}

static int walk_expr(struct walk *w, const char *expr, double *v)
{
	struct node *n;
	int r;

	n = parse(expr, w->why, w->whylen);
	if (!n)
		return W_ERR;
	r = walk(w, n, v);
	node_free(n);
	return r;
}

static int walk_metric(struct walk *w, int i, double *v)
{
	struct metric_info mi;
	int r;

	if (metric_at(w->table, i, &mi) < 0)
		return wfail(w, "no metric %d", i);
	if (w->depth >= MAXDEPTH)
		return wfail(w, "metric '%s': references nest too deep (a loop?)",
			     mi.name);
	w->depth++;
	r = walk_expr(w, mi.expr, v);
	w->depth--;
	return r;
}

int metric_events(int table, int i, const struct metric_env *env,
		  int (*add)(void *arg, const char *spec), void *arg,
		  char *why, size_t whylen)
{
	struct walk w = { COLLECT, table, env, add, arg, why, whylen, 0 };
	double v;

	return walk_metric(&w, i, &v) == W_ERR ? -1 : 0;
}

int metric_value(int table, int i, const struct metric_env *env, double *v,
		 char *why, size_t whylen)
{
	struct walk w = { EVAL, table, env, NULL, NULL, why, whylen, 0 };

	return walk_metric(&w, i, v) == W_ERR ? -1 : 0;
}

int metric_eval_expr(int table, const char *expr, const struct metric_env *env,
		     double *v, char *why, size_t whylen)
{
	struct walk w = { EVAL, table, env, NULL, NULL, why, whylen, 0 };

	return walk_expr(&w, expr, v) == W_ERR ? -1 : 0;
}
