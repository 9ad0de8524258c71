// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat: the stacks of a log for other profilers' readers.
 *
 * --perf-script: the text of perf script (perf-script(1), its default
 * fields with call chains), which speedscope, the Firefox Profiler and
 * FlameGraph's stackcollapse-perf.pl read: per sample, a line
 *
 *	comm pid [cpu] secs.usecs: period event:
 *
 * then one line per frame, leaf first, "\t<address> <symbol> (<object>)",
 * then an empty line.  The stacks are aggregated (struct stacks): a stack
 * of N samples is written N times, the order and times of the samples
 * are not kept (times are the samples' ordinals, in ms), nor their CPU
 * ([000]) nor their addresses (0).  Kernel functions are in
 * [kernel.kallsyms], as perf names the kernel.
 *
 * --pprof: pprof's profile.proto (tools/profile.proto, C code by
 * protoc-c), gzipped as pprof reads it.  Sample types: samples/count,
 * and the event's (its name; nanoseconds for cpu-clock and task-clock,
 * else events) as samples x the rate, the period.  One Function and one
 * Location (address 0: not kept) per function, one Mapping per object
 * (has_functions: nothing for pprof to symbolize); a Sample per stack,
 * leaf first, labelled with its process (comm, pid).  Built without
 * protobuf-c or zlib (WITH_PPROF=0), --pprof is not available.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmcstat.h"

/* -- perf script --------------------------------------------------------------- */

static const char *perf_obj(const struct func *f)
{
	return strcmp(f->obj, "[kernel]") ? f->obj : "[kernel.kallsyms]";
}

int perfscript_write(const struct stacks *s, FILE *out)
{
	const char *event = s->event[0] ? s->event : "samples";
	uint64_t k = 0, j, period = s->rate ? s->rate : 1;
	char buf[64];
	size_t i, f;

	for (i = 0; i < s->n; i++) {
		const struct stack *st = &s->v[i];
		const char *comm = stack_comm(st, buf, sizeof(buf));

		for (j = 0; j < st->count; j++, k++) {
			fprintf(out, "%s %7d [000] %5" PRIu64 ".%06" PRIu64
				": %10" PRIu64 " %s: \n", comm, (int)st->pid,
				k / 1000, k % 1000 * 1000, period, event);
			for (f = 0; f < st->n; f++) {
				const struct func *fn = &sym_funcs[st->fids[f]];

				fprintf(out, "\t%16x %s (%s)\n", 0, fn->name,
					perf_obj(fn));
			}
			fputc('\n', out);
			if (ferror(out))
				return -1;
		}
	}
	return ferror(out) ? -1 : 0;
}

/* -- pprof ---------------------------------------------------------------------- */

#ifdef HWPMC_WITH_PPROF
#include <zlib.h>

#include "profile.pb-c.h"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__ValueType ValueType;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Label Label;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;

int pprof_available(void)
{
	return 1;
}

/* string_table, "" first, each string once */
struct strtab {
	char		**v;
	size_t		n, room;
	int64_t		*hash;		/* index + 1, open addressing */
	size_t		hroom;
};

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h ^ h >> 31;
}

static int64_t str_id(struct strtab *t, const char *s)
{
	size_t i, m;

	if ((t->n + 1) * 2 > t->hroom) {
		free(t->hash);
		t->hroom = t->hroom ? t->hroom * 2 : 256;
		t->hash = xrealloc(NULL, t->hroom * sizeof(*t->hash));
		memset(t->hash, 0, t->hroom * sizeof(*t->hash));
		m = t->hroom - 1;
		for (size_t k = 0; k < t->n; k++) {
			for (i = str_hash(t->v[k]) & m; t->hash[i]; i = (i + 1) & m)
				;
			t->hash[i] = (int64_t)k + 1;
		}
	}
	m = t->hroom - 1;
	for (i = str_hash(s) & m; t->hash[i]; i = (i + 1) & m)
		if (!strcmp(t->v[t->hash[i] - 1], s))
			return t->hash[i] - 1;
	if (t->n == t->room) {
		t->room = t->room ? t->room * 2 : 256;
		t->v = xrealloc(t->v, t->room * sizeof(*t->v));
	}
	t->v[t->n] = strdup(s);
	if (!t->v[t->n]) {
		fprintf(stderr, "hwpmc-stat: out of memory\n");
		exit(1);
	}
	t->hash[i] = (int64_t)++t->n;
	return (int64_t)t->n - 1;
}

/* gzip buf[0..len) to out */
static int gzip_out(const uint8_t *buf, size_t len, FILE *out)
{
	unsigned char chunk[65536];
	z_stream z;
	int rc;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		errno = ENOMEM;
		return -1;
	}
	z.next_in = (unsigned char *)buf;
	z.avail_in = (uInt)len;		/* < 4 GB: checked by the caller */
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		rc = deflate(&z, Z_FINISH);
		if (rc == Z_STREAM_ERROR)
			break;
		fwrite(chunk, 1, sizeof(chunk) - z.avail_out, out);
	} while (rc != Z_STREAM_END);
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		errno = EIO;
		return -1;
	}
	return ferror(out) ? -1 : 0;
}

int pprof_write(const struct stacks *s, FILE *out)
{
	Profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
	ValueType vt[2], *vtp[2], period = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
	struct strtab st = { 0 };
	uint64_t *loc_of = xrealloc(NULL, (sym_nfunc ? sym_nfunc : 1) * sizeof(*loc_of));
	Function *fn = NULL, **fnp = NULL;
	Location *loc = NULL, **locp = NULL;
	Line *line = NULL, **linep = NULL;
	Mapping *map = NULL, **mapp = NULL;
	Sample *smp, **smpp;
	Label *lab, **labp;
	uint64_t *locids;
	int64_t *values, comment;
	size_t i, j, nmap = 0, nloc = 0, nval, len;
	char buf[300];
	uint8_t *packed;
	int rc;

	memset(loc_of, 0, (sym_nfunc ? sym_nfunc : 1) * sizeof(*loc_of));
	str_id(&st, "");
	nval = s->rate ? 2 : 1;
	for (i = 0; i < nval; i++) {
		perftools__profiles__value_type__init(&vt[i]);
		vtp[i] = &vt[i];
	}
	vt[0].type = str_id(&st, "samples");
	vt[0].unit = str_id(&st, "count");
	if (s->rate) {
		vt[1].type = str_id(&st, s->event);
		vt[1].unit = str_id(&st, !strcmp(s->event, "cpu-clock") ||
				     !strcmp(s->event, "task-clock") ?
				     "nanoseconds" : "events");
		period = vt[1];
		p.period_type = &period;
		p.period = (int64_t)s->rate;
	}
	p.n_sample_type = nval;
	p.sample_type = vtp;
	comment = str_id(&st, "hwpmc-stat");
	p.n_comment = 1;
	p.comment = &comment;

	/* functions, their locations, the objects' mappings */
	for (i = 0; i < s->n; i++)
		for (j = 0; j < s->v[i].n; j++)
			if (!loc_of[s->v[i].fids[j]])
				loc_of[s->v[i].fids[j]] = ++nloc;
	fn = xrealloc(NULL, (nloc ? nloc : 1) * sizeof(*fn));
	fnp = xrealloc(NULL, (nloc ? nloc : 1) * sizeof(*fnp));
	loc = xrealloc(NULL, (nloc ? nloc : 1) * sizeof(*loc));
	locp = xrealloc(NULL, (nloc ? nloc : 1) * sizeof(*locp));
	line = xrealloc(NULL, (nloc ? nloc : 1) * sizeof(*line));
	linep = xrealloc(NULL, (nloc ? nloc : 1) * sizeof(*linep));
	map = xrealloc(NULL, (nloc ? nloc : 1) * sizeof(*map));
	mapp = xrealloc(NULL, (nloc ? nloc : 1) * sizeof(*mapp));
	/*
	 * the first mapping is the program's for pprof: the object of the
	 * root of the stack with the most samples
	 */
	for (i = 0, j = 0; i < s->n; i++)
		if (s->v[i].count > s->v[j].count)
			j = i;
	if (s->n && s->v[j].n) {
		perftools__profiles__mapping__init(&map[0]);
		map[0].id = 1;
		map[0].filename = str_id(&st, sym_funcs[s->v[j].fids[s->v[j].n - 1]].obj);
		map[0].has_functions = 1;
		mapp[0] = &map[0];
		nmap = 1;
	}
	for (i = 0; i < sym_nfunc; i++) {
		const struct func *f = &sym_funcs[i];
		uint64_t id = loc_of[i];
		int64_t obj;

		if (!id)
			continue;
		/* the object's mapping (few objects: a linear search) */
		obj = str_id(&st, f->obj);
		for (j = 0; j < nmap && map[j].filename != obj; j++)
			;
		if (j == nmap) {
			perftools__profiles__mapping__init(&map[nmap]);
			map[nmap].id = nmap + 1;
			map[nmap].filename = obj;
			map[nmap].has_functions = 1;
			mapp[nmap] = &map[nmap];
			nmap++;
		}
		perftools__profiles__function__init(&fn[id - 1]);
		fn[id - 1].id = id;
		fn[id - 1].name = str_id(&st, f->unknown ?
					 frame_label(f, buf, sizeof(buf)) : f->name);
		fn[id - 1].system_name = fn[id - 1].name;
		fn[id - 1].filename = str_id(&st, f->obj);
		fnp[id - 1] = &fn[id - 1];
		perftools__profiles__line__init(&line[id - 1]);
		line[id - 1].function_id = id;
		linep[id - 1] = &line[id - 1];
		perftools__profiles__location__init(&loc[id - 1]);
		loc[id - 1].id = id;
		loc[id - 1].mapping_id = j + 1;
		loc[id - 1].n_line = 1;
		loc[id - 1].line = &linep[id - 1];
		locp[id - 1] = &loc[id - 1];
	}
	p.n_function = p.n_location = nloc;
	p.function = fnp;
	p.location = locp;
	p.n_mapping = nmap;
	p.mapping = mapp;

	/* a sample per stack, with its process's labels */
	smp = xrealloc(NULL, (s->n ? s->n : 1) * sizeof(*smp));
	smpp = xrealloc(NULL, (s->n ? s->n : 1) * sizeof(*smpp));
	lab = xrealloc(NULL, (s->n ? s->n : 1) * 2 * sizeof(*lab));
	labp = xrealloc(NULL, (s->n ? s->n : 1) * 2 * sizeof(*labp));
	values = xrealloc(NULL, (s->n ? s->n : 1) * 2 * sizeof(*values));
	for (i = 0, len = 0; i < s->n; i++)
		len += s->v[i].n;
	locids = xrealloc(NULL, (len ? len : 1) * sizeof(*locids));
	for (i = 0, len = 0; i < s->n; i++) {
		const struct stack *k = &s->v[i];
		Sample *x = &smp[i];
		size_t nl = 0;

		perftools__profiles__sample__init(x);
		x->location_id = &locids[len];
		for (j = 0; j < k->n; j++)
			locids[len++] = loc_of[k->fids[j]];
		x->n_location_id = k->n;
		values[2 * i] = (int64_t)k->count;
		values[2 * i + 1] = (int64_t)(k->count * s->rate);
		x->value = &values[2 * i];
		x->n_value = nval;
		if (k->comm) {
			perftools__profiles__label__init(&lab[2 * i]);
			lab[2 * i].key = str_id(&st, "comm");
			lab[2 * i].str = str_id(&st, k->comm);
			labp[2 * i] = &lab[2 * i];
			nl++;
		}
		perftools__profiles__label__init(&lab[2 * i + 1]);
		lab[2 * i + 1].key = str_id(&st, "pid");
		lab[2 * i + 1].num = k->pid;
		labp[2 * i + nl] = &lab[2 * i + 1];
		nl++;
		x->label = &labp[2 * i];
		x->n_label = nl;
		smpp[i] = x;
	}
	p.n_sample = s->n;
	p.sample = smpp;
	p.n_string_table = st.n;
	p.string_table = st.v;

	len = perftools__profiles__profile__get_packed_size(&p);
	if (len > UINT32_MAX) {
		errno = EFBIG;
		rc = -1;
	} else {
		packed = xrealloc(NULL, len ? len : 1);
		perftools__profiles__profile__pack(&p, packed);
		rc = gzip_out(packed, len, out);
		free(packed);
	}
	for (i = 0; i < st.n; i++)
		free(st.v[i]);
	free(st.v);
	free(st.hash);
	free(loc_of);
	free(fn);
	free(fnp);
	free(loc);
	free(locp);
	free(line);
	free(linep);
	free(map);
	free(mapp);
	free(smp);
	free(smpp);
	free(lab);
	free(labp);
	free(values);
	free(locids);
	return rc;
}
#else
int pprof_available(void)
{
	return 0;
}

int pprof_write(const struct stacks *s, FILE *out)
{
	(void)s;
	(void)out;
	errno = ENOTSUP;
	return -1;
}
#endif
