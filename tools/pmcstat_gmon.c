// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat: gprof profiles, as pmcstat's -g writes them.
 *
 * For each event and each executable object with samples, a file
 * DIR/EVENT/OBJECT.gmon (DIR: -D's, or the current directory; a second
 * object of one name OBJECT~001.gmon, as pmcstat names them) in GNU
 * gprof's format (glibc's <sys/gmon_out.h>):
 * the header ("gmon", version 1), a histogram record of the sampled PCs
 * (16-bit bins of 2 bytes of code, coarser for a range of more than
 * 32 MB) over the range of the object's sampled addresses, and a call
 * graph arc record per distinct caller-callee pair of the call chains,
 * counted in samples (pmcstat does the same: the chains give no call
 * counts).  Addresses are link-time addresses in the object's file, so
 * that "gprof OBJECT EVENT/OBJECT.gmon" reads it whatever its load
 * address.  As with pmcstat, arcs between two objects are not kept, and
 * the files are those of native programs: addresses of this build's
 * pointer size, in its byte order.  Kernel addresses and addresses in no
 * file have no profile.  With -e (pmcstat's wide counters), BSD's format
 * instead, with 32-bit bins: FreeBSD's gprof reads it, GNU gprof does not.
 * With -M, the map of each object to its file's name, as pmcstat writes
 * it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pmcstat.h"

#define GMON_TAG_TIME_HIST	0
#define GMON_TAG_CG_ARC		1
#define HIST_BINS_MAX		(1u << 24)	/* 32 MB of code in 2-byte bins */

/* counts by key (a PC, or a caller and callee), open addressing */
struct cnt {
	uint64_t	a, b;		/* a: the PC or the caller; b: the callee */
	uint64_t	n;		/* 0: a free slot */
};

struct ctab {
	struct cnt	*v;
	size_t		n, room;
};

struct gimg {
	const char	*path;		/* the image's (pmcstat_sym.c's, stable) */
	struct ctab	hist, arcs;
	struct gimg	*next;
};

struct gev {
	char		*name;
	struct gimg	*imgs;
	struct gev	*next;
};

struct gmon {
	struct gev	*evs;
	uint64_t	saturated;	/* bins over 65535 */
};

static size_t slot(const struct ctab *t, uint64_t a, uint64_t b)
{
	uint64_t h = (a * 0x9e3779b97f4a7c15ULL) ^ (b * 0xc2b2ae3d27d4eb4fULL);
	size_t i = (size_t)(h >> 29) & (t->room - 1);

	while (t->v[i].n && (t->v[i].a != a || t->v[i].b != b))
		i = (i + 1) & (t->room - 1);
	return i;
}

static void count(struct ctab *t, uint64_t a, uint64_t b)
{
	size_t i;

	if (t->n * 2 >= t->room) {
		struct ctab old = *t;

		t->room = old.room ? old.room * 2 : 256;
		t->v = xrealloc(NULL, t->room * sizeof(*t->v));
		memset(t->v, 0, t->room * sizeof(*t->v));
		for (i = 0; i < old.room; i++)
			if (old.v[i].n)
				t->v[slot(t, old.v[i].a, old.v[i].b)] = old.v[i];
		free(old.v);
	}
	i = slot(t, a, b);
	if (!t->v[i].n) {
		t->v[i].a = a;
		t->v[i].b = b;
		t->n++;
	}
	t->v[i].n++;
}

struct gmon *gmon_new(void)
{
	struct gmon *g = xrealloc(NULL, sizeof(*g));

	memset(g, 0, sizeof(*g));
	return g;
}

static struct gimg *img_get(struct gmon *g, const char *ev, const char *path)
{
	struct gev *e;
	struct gimg *im;

	for (e = g->evs; e && strcmp(e->name, ev); e = e->next)
		;
	if (!e) {
		e = xrealloc(NULL, sizeof(*e));
		memset(e, 0, sizeof(*e));
		e->name = xrealloc(NULL, strlen(ev) + 1);
		strcpy(e->name, ev);
		e->next = g->evs;
		g->evs = e;
	}
	for (im = e->imgs; im && im->path != path; im = im->next)
		;
	if (!im) {
		im = xrealloc(NULL, sizeof(*im));
		memset(im, 0, sizeof(*im));
		im->path = path;
		im->next = e->imgs;
		e->imgs = im;
	}
	return im;
}

void gmon_sample(struct gmon *g, const char *ev, struct proc *p,
		 const uint64_t *pcs, size_t n)
{
	const char *path, *prev = NULL;
	uint64_t va, prev_va = 0;
	struct gimg *im;
	size_t i;

	for (i = 0; i < n; i++) {
		/* return addresses: the call instruction is before them */
		path = sym_image_va(p, i ? pcs[i] - 1 : pcs[i], &va);
		if (path) {
			im = img_get(g, ev, path);
			if (!i)
				count(&im->hist, va, 0);
			else if (prev == path)
				count(&im->arcs, va, prev_va);
		}
		prev = path;
		prev_va = va;
	}
}

static void put(unsigned char **p, uint64_t v, size_t size)
{
	if (size == 8) {
		memcpy(*p, &v, 8);
	} else if (size == 4) {
		uint32_t w = (uint32_t)v;

		memcpy(*p, &w, 4);
	} else {
		uint16_t h = (uint16_t)v;

		memcpy(*p, &h, 2);
	}
	*p += size;
}

/* the range of im's sampled PCs in bins of *bytes, from *lo: their count */
static uint64_t hist_range(const struct gimg *im, uint64_t *lo, uint64_t *bytes)
{
	uint64_t hi = 0;
	size_t i;

	*lo = UINT64_MAX;
	*bytes = 2;
	for (i = 0; i < im->hist.room; i++)
		if (im->hist.v[i].n) {
			if (im->hist.v[i].a < *lo)
				*lo = im->hist.v[i].a;
			if (im->hist.v[i].a > hi)
				hi = im->hist.v[i].a;
		}
	if (!im->hist.n)
		return 0;
	*lo &= ~(uint64_t)3;
	while ((hi - *lo) / *bytes + 1 > HIST_BINS_MAX)
		*bytes *= 2;
	*lo &= ~(*bytes - 1);
	return (hi - *lo) / *bytes + 1;
}

/* The bins of im (cut to max, counted in g->saturated), nbins of them. */
static uint32_t *hist_bins(struct gmon *g, const struct gimg *im, uint64_t lo,
			   uint64_t bytes, uint64_t nbins, uint64_t max)
{
	uint32_t *bins = xrealloc(NULL, (nbins ? nbins : 1) * sizeof(*bins));
	uint64_t v;
	size_t i;

	memset(bins, 0, (nbins ? nbins : 1) * sizeof(*bins));
	for (i = 0; i < im->hist.room; i++) {
		if (!im->hist.v[i].n)
			continue;
		v = bins[(im->hist.v[i].a - lo) / bytes] + im->hist.v[i].n;
		if (v > max) {
			g->saturated++;
			v = max;
		}
		bins[(im->hist.v[i].a - lo) / bytes] = (uint32_t)v;
	}
	return bins;
}

/* GNU gprof's format: tagged records, 16-bit bins */
static int write_img(struct gmon *g, const struct gimg *im, FILE *f)
{
	const size_t ptr = sizeof(void *);
	unsigned char rec[64], *p;
	uint64_t lo, bytes, nbins = hist_range(im, &lo, &bytes);
	uint32_t *bins;
	uint16_t h;
	size_t i;

	p = rec;
	memcpy(p, "gmon", 4);
	p += 4;
	put(&p, 1, 4);			/* GMON_VERSION */
	memset(p, 0, 12);
	p += 12;
	fwrite(rec, 1, (size_t)(p - rec), f);
	if (nbins) {
		bins = hist_bins(g, im, lo, bytes, nbins, 0xffff);
		p = rec;
		*p++ = GMON_TAG_TIME_HIST;
		put(&p, lo, ptr);
		put(&p, lo + nbins * bytes, ptr);
		put(&p, nbins, 4);
		put(&p, 1, 4);		/* prof_rate: a sample is 1 "second" */
		memset(p, 0, 15);
		memcpy(p, "samples", 7);
		p += 15;
		*p++ = 's';
		fwrite(rec, 1, (size_t)(p - rec), f);
		for (i = 0; i < nbins; i++) {
			h = (uint16_t)bins[i];
			fwrite(&h, sizeof(h), 1, f);
		}
		free(bins);
	}
	for (i = 0; i < im->arcs.room; i++) {
		if (!im->arcs.v[i].n)
			continue;
		p = rec;
		*p++ = GMON_TAG_CG_ARC;
		put(&p, im->arcs.v[i].a, ptr);
		put(&p, im->arcs.v[i].b, ptr);
		put(&p, im->arcs.v[i].n > 0xffffffffu ? 0xffffffffu :
			im->arcs.v[i].n, 4);
		fwrite(rec, 1, (size_t)(p - rec), f);
	}
	return ferror(f) ? -1 : 0;
}

/*
 * -e: BSD's format, as FreeBSD's gprof reads it (<sys/gmon.h>): struct
 * gmonhdr (low and high PC, the bytes of header and bins, version
 * 0x51879, profrate, histcounter_type 32: the bins' bits, 3 spare ints),
 * 32-bit bins, then struct rawarc (from, self, count: longs) per arc.
 * GNU gprof reads only 16-bit bins.
 */
static int write_img_wide(struct gmon *g, const struct gimg *im, FILE *f)
{
	const size_t ptr = sizeof(void *);
	unsigned char rec[64], *p;
	uint64_t lo, bytes, nbins = hist_range(im, &lo, &bytes);
	uint32_t *bins = hist_bins(g, im, lo, bytes, nbins, 0xffffffffu);
	size_t i, hdr = 2 * ptr + 7 * 4;

	hdr = (hdr + ptr - 1) & ~(ptr - 1);	/* struct gmonhdr's size */
	memset(rec, 0, sizeof(rec));
	p = rec;
	put(&p, nbins ? lo : 0, ptr);
	put(&p, nbins ? lo + nbins * bytes : 0, ptr);
	put(&p, hdr + nbins * 4, 4);		/* ncnt */
	put(&p, 0x00051879, 4);			/* GMONVERSION */
	put(&p, 1, 4);				/* profrate */
	put(&p, 32, 4);				/* histcounter_type */
	fwrite(rec, 1, hdr, f);
	fwrite(bins, 4, nbins, f);
	free(bins);
	for (i = 0; i < im->arcs.room; i++) {
		if (!im->arcs.v[i].n)
			continue;
		p = rec;
		put(&p, im->arcs.v[i].a, ptr);
		put(&p, im->arcs.v[i].b, ptr);
		put(&p, im->arcs.v[i].n > INT32_MAX && ptr == 4 ? INT32_MAX :
			im->arcs.v[i].n, ptr);
		fwrite(rec, 1, (size_t)(p - rec), f);
	}
	return ferror(f) ? -1 : 0;
}

/* "a/b" as a file name: '/' to '_' ("cpu/event=0x3c/" is an event) */
static void file_name(char *s)
{
	for (; *s; s++)
		if (*s == '/')
			*s = '_';
}

/* an object's file name, for all its events: as pmcstat names them */
struct gname {
	const char	*path;
	char		name[NAME_MAX + 1];
};

/*
 * Each object its name: OBJECT.gmon, or for a second object of one name
 * OBJECT~001.gmon, OBJECT~002.gmon, ...
 */
static struct gname *gmon_names(const struct gmon *g, size_t *np)
{
	struct gname *v = NULL;
	const struct gimg *im;
	const struct gev *e;
	const char *base;
	size_t n = 0, i, j;
	int k;

	for (e = g->evs; e; e = e->next)
		for (im = e->imgs; im; im = im->next) {
			for (i = 0; i < n && v[i].path != im->path; i++)
				;
			if (i < n)
				continue;
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n].path = im->path;
			base = strrchr(im->path, '/');
			base = base ? base + 1 : im->path;
			snprintf(v[n].name, sizeof(v[n].name), "%.240s.gmon", base);
			for (k = 1; k < 1000; k++) {
				for (j = 0; j < n && strcmp(v[j].name, v[n].name); j++)
					;
				if (j == n)
					break;
				snprintf(v[n].name, sizeof(v[n].name),
					 "%.240s~%03d.gmon", base, k);
			}
			n++;
		}
	*np = n;
	return v;
}

static uint64_t hist_samples(const struct gimg *im)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < im->hist.room; i++)
		n += im->hist.v[i].n;
	return n;
}

int gmon_write(struct gmon *g, const char *dir, int wide, FILE *map, int quiet)
{
	char path[PATH_MAX + 300], evdir[PATH_MAX], name[NAME_MAX + 1];
	const struct gimg *im;
	const struct gev *e;
	struct gname *names;
	size_t nname, i;
	int rc = 0, nfile = 0;
	FILE *f;

	names = gmon_names(g, &nname);
	for (e = g->evs; e; e = e->next) {
		snprintf(name, sizeof(name), "%s", *e->name ? e->name : "samples");
		file_name(name);
		snprintf(evdir, sizeof(evdir), "%s/%s", dir, name);
		if (mkdir(evdir, 0777) < 0 && errno != EEXIST) {
			fprintf(stderr, "hwpmc-stat: -g: cannot create %s: %s\n",
				evdir, strerror(errno));
			rc = -1;
			continue;
		}
		for (im = e->imgs; im; im = im->next) {
			for (i = 0; names[i].path != im->path; i++)
				;
			snprintf(path, sizeof(path), "%s/%s", evdir, names[i].name);
			f = fopen(path, "we");
			if (f) {
				int bad = wide ? write_img_wide(g, im, f) :
						 write_img(g, im, f);

				if (fclose(f) || bad)
					f = NULL;
			}
			if (!f) {
				fprintf(stderr, "hwpmc-stat: -g: cannot write %s: %s\n",
					path, strerror(errno));
				rc = -1;
				continue;
			}
			nfile++;
			if (!quiet)
				fprintf(stderr, "hwpmc-stat: gprof profile of %s: %s\n",
					im->path, path);
		}
	}
	/* -M: each object, its file's name, each event's samples of it */
	for (i = 0; map && i < nname; i++) {
		fprintf(map, " \"%s\" => \"%s\"", names[i].path, names[i].name);
		for (e = g->evs; e; e = e->next)
			for (im = e->imgs; im; im = im->next)
				if (im->path == names[i].path)
					fprintf(map, " %s/%ju", *e->name ? e->name : "samples",
						(uintmax_t)hist_samples(im));
		fputc('\n', map);
	}
	free(names);
	if (g->saturated && !quiet)
		fprintf(stderr, "hwpmc-stat: -g: %ju histogram bins over %s samples "
			"were cut to it (gprof's bins are %s-bit%s)\n",
			(uintmax_t)g->saturated, wide ? "4294967295" : "65535",
			wide ? "32" : "16", wide ? "" : "; -e: 32-bit bins");
	if (!nfile && !rc && !quiet)
		fprintf(stderr, "hwpmc-stat: -g: no samples in a file: no gprof profile\n");
	return rc;
}

void gmon_free(struct gmon *g)
{
	struct gev *e, *ne;
	struct gimg *im, *ni;

	if (!g)
		return;
	for (e = g->evs; e; e = ne) {
		ne = e->next;
		for (im = e->imgs; im; im = ni) {
			ni = im->next;
			free(im->hist.v);
			free(im->arcs.v);
			free(im);
		}
		free(e->name);
		free(e);
	}
	free(g);
}
