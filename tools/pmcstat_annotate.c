// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat --annotate SYMBOL[@object]: the instructions of a function,
 * each with its share of the function's samples, among its source lines,
 * as FreeBSD's pmcannotate(8) shows them.
 *
 * While the log is read, each sample whose leaf falls in a function so
 * named (in an ELF object the log maps: the functions of an object are
 * matched against SYMBOL when its first sample comes) is counted by its
 * link-time address, per event.  At the end the function's code is taken
 * from its file (libdwfl's copy, pmcstat_sym.c), disassembled with
 * capstone (x86-64 in AT&T syntax, as objdump(1) and pmcannotate show
 * it, i386, arm64: the arch from the ELF header's machine), and each
 * instruction gets the samples of its bytes.  Where the line table says
 * an instruction starts code of another source line, that line comes
 * first, "file:line: text", the text read from the source file when it
 * is there (its path as DWARF has it).
 *
 * SYMBOL is the symbol's name, or its demangled name (with or without
 * its parameters: "ns::Foo::bar" is "ns::Foo::bar(int)"); "@object"
 * keeps the functions of that object (its basename or its path).  Each
 * function that matches is listed, with its samples or none; no function
 * that matches is an error.  Built without capstone or libdw, hwpmc-stat
 * refuses --annotate (annot_available()).
 */
#include <elf.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef HWPMC_WITH_CAPSTONE
#define HWPMC_WITH_CAPSTONE 0
#endif
#ifndef HWPMC_WITH_DW
#define HWPMC_WITH_DW 0
#endif
#if HWPMC_WITH_CAPSTONE
#include <capstone/capstone.h>
#endif

#include "pmcstat.h"

#define SRC_MAX		(64 << 20)	/* source files read up to this size */

/* a function annotated */
struct afn {
	struct image	*img;
	const char	*name;		/* demangled */
	uint64_t	addr, size;	/* link-time */
};

/* the samples of one address of an image, for one event */
struct hit {
	struct image	*img;		/* NULL: a free slot */
	uint64_t	va;
	int		ev;
	uint64_t	count;
};

/* a source file's lines */
struct srcfile {
	char		*path;
	char		*text;		/* NULL: not readable */
	size_t		*lines;		/* offsets of lines 1..n in text */
	size_t		n;
};

struct annot {
	char		*sym;		/* SYMBOL */
	const char	*obj;		/* object, or NULL: any */
	const char	*ident;		/* SYMBOL's last identifier, in sym */
	size_t		identlen;
	struct afn	*fns;
	size_t		nfn;
	struct image	**seen;		/* images whose functions were matched */
	size_t		nseen;
	struct image	*last;		/* the image matched last */
	size_t		lastfn, lastn;	/* its functions: fns[lastfn..+lastn) */
	struct hit	*hits;		/* open addressing */
	size_t		nhit, hitroom;
	struct srcfile	*srcs;
	size_t		nsrc;
};

const char *annot_available(void)
{
	if (!HWPMC_WITH_CAPSTONE)
		return "built without capstone (libcapstone-dev)";
	if (!HWPMC_WITH_DW)
		return "built without libdw (libdw-dev)";
	return NULL;
}

struct annot *annot_new(const char *spec)
{
	struct annot *a = xrealloc(NULL, sizeof(*a));
	const char *p, *e;
	char *at;

	memset(a, 0, sizeof(*a));
	a->sym = xrealloc(NULL, strlen(spec) + 1);
	strcpy(a->sym, spec);
	/* SYMBOL@object: the last '@' (C++ names have none, versions "@@") */
	at = strrchr(a->sym, '@');
	if (at && at > a->sym && at[-1] != '@' && at[1]) {
		*at = 0;
		a->obj = at + 1;
	}
	/* its last identifier: what a mangled name holds as it is */
	e = a->sym + strcspn(a->sym, "(<");
	for (p = e; p > a->sym && p[-1] != ':'; p--)
		;
	a->ident = p;
	a->identlen = (size_t)(e - p);
	return a;
}

/* the name of function raw as shown, when it is SYMBOL's; else NULL */
static const char *match_name(const struct annot *a, const char *raw)
{
	const char *d;
	size_t n;

	if (!strcmp(raw, a->sym))
		return sym_demangled(raw);
	/* a mangled name: demangled only when it may be SYMBOL's */
	if (raw[0] != '_' || (raw[1] != 'Z' && raw[1] != 'R') || !a->identlen)
		return NULL;
	if (!memmem(raw, strlen(raw), a->ident, a->identlen))
		return NULL;
	d = sym_demangled(raw);
	n = strlen(a->sym);
	if (!strncmp(d, a->sym, n) && (!d[n] || d[n] == '('))
		return d;
	return NULL;
}

static int match_obj(const struct annot *a, const struct image *im)
{
	return !a->obj || !strcmp(a->obj, sym_image_base(im)) ||
	       !strcmp(a->obj, sym_image_path(im));
}

/* The functions of im that are SYMBOL's, once per image. */
static void match_image(struct annot *a, struct image *im)
{
	const char *raw, *name;
	uint64_t addr, size;
	size_t i, n;

	if (im == a->last)
		return;
	for (i = 0; i < a->nseen; i++)
		if (a->seen[i] == im)
			break;
	if (i == a->nseen) {
		a->seen = xrealloc(a->seen, (a->nseen + 1) * sizeof(*a->seen));
		a->seen[a->nseen++] = im;
		n = sym_image_nfunc(im);
		for (i = 0; match_obj(a, im) && i < n; i++) {
			sym_image_func(im, i, &raw, &addr, &size);
			name = match_name(a, raw);
			if (!name)
				continue;
			a->fns = xrealloc(a->fns, (a->nfn + 1) * sizeof(*a->fns));
			a->fns[a->nfn++] = (struct afn){
				.img = im, .name = name, .addr = addr, .size = size,
			};
		}
	}
	/* the image's functions (in fns, they are together) */
	a->last = im;
	a->lastfn = a->lastn = 0;
	for (i = 0; i < a->nfn; i++)
		if (a->fns[i].img == im) {
			if (!a->lastn)
				a->lastfn = i;
			a->lastn++;
		}
}

static size_t hit_slot(const struct hit *h, size_t room, const struct image *im,
		       uint64_t va, int ev)
{
	uint64_t x = (uint64_t)(uintptr_t)im ^ va * 0x9e3779b97f4a7c15ULL ^
		     (uint64_t)(unsigned)ev << 48;
	size_t i, mask = room - 1;

	x ^= x >> 29;
	for (i = (size_t)x & mask; h[i].img; i = (i + 1) & mask)
		if (h[i].img == im && h[i].va == va && h[i].ev == ev)
			break;
	return i;
}

void annot_sample(struct annot *a, int ev, struct proc *p, uint64_t pc)
{
	struct image *im;
	uint64_t va;
	size_t i;

	im = sym_pc_image(p, pc, &va);
	if (!im)
		return;
	match_image(a, im);
	for (i = a->lastfn; i < a->lastfn + a->lastn; i++)
		if (va >= a->fns[i].addr && va - a->fns[i].addr < a->fns[i].size)
			break;
	if (i == a->lastfn + a->lastn)
		return;
	if (a->nhit * 2 >= a->hitroom) {
		struct hit *old = a->hits;
		size_t oroom = a->hitroom, j;

		a->hitroom = oroom ? oroom * 2 : 256;
		a->hits = xrealloc(NULL, a->hitroom * sizeof(*a->hits));
		memset(a->hits, 0, a->hitroom * sizeof(*a->hits));
		for (j = 0; j < oroom; j++)
			if (old[j].img)
				a->hits[hit_slot(a->hits, a->hitroom, old[j].img,
						 old[j].va, old[j].ev)] = old[j];
		free(old);
	}
	i = hit_slot(a->hits, a->hitroom, im, va, ev);
	if (!a->hits[i].img) {
		a->hits[i] = (struct hit){ .img = im, .va = va, .ev = ev };
		a->nhit++;
	}
	a->hits[i].count++;
}

static int cmp_fn(const void *x, const void *y)
{
	const struct afn *f = x, *g = y;
	int r = strcmp(sym_image_path(f->img), sym_image_path(g->img));

	if (r)
		return r;
	return f->addr < g->addr ? -1 : f->addr > g->addr;
}

int annot_check(struct annot *a)
{
	struct image *im;
	size_t nobj = 0;

	for (im = sym_images(NULL); im; im = sym_images(im)) {
		match_image(a, im);
		nobj += match_obj(a, im);
	}
	a->last = NULL;		/* fns moves */
	if (!a->nfn) {
		if (a->obj && !nobj)
			fprintf(stderr, "hwpmc-stat: --annotate: no object '%s' in the log's "
				"mappings\n", a->obj);
		else
			fprintf(stderr, "hwpmc-stat: --annotate: no function '%s' in %s "
				"(the symbol tables of the ELF objects the log maps; "
				"kernel functions are not annotated)\n", a->sym,
				a->obj ? a->obj : "the log's objects");
		return -1;
	}
	qsort(a->fns, a->nfn, sizeof(*a->fns), cmp_fn);
	return 0;
}

/* -- the listing ---------------------------------------------------------------- */

static int cmp_hit(const void *x, const void *y)
{
	const struct hit *h = x, *g = y;

	return h->va < g->va ? -1 : h->va > g->va;
}

#if HWPMC_WITH_CAPSTONE
static struct srcfile *src_get(struct annot *a, const char *path)
{
	struct srcfile *s;
	size_t i, n = 0, room = 0;
	long len;
	FILE *f;

	for (i = 0; i < a->nsrc; i++)
		if (!strcmp(a->srcs[i].path, path))
			return &a->srcs[i];
	a->srcs = xrealloc(a->srcs, (a->nsrc + 1) * sizeof(*a->srcs));
	s = &a->srcs[a->nsrc++];
	memset(s, 0, sizeof(*s));
	s->path = xrealloc(NULL, strlen(path) + 1);
	strcpy(s->path, path);
	f = fopen(path, "re");
	if (!f)
		return s;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && len < SRC_MAX &&
	    fseek(f, 0, SEEK_SET) == 0) {
		s->text = xrealloc(NULL, (size_t)len + 1);
		if (fread(s->text, 1, (size_t)len, f) != (size_t)len) {
			free(s->text);
			s->text = NULL;
		} else {
			s->text[len] = 0;
			for (i = 0; i < (size_t)len;) {
				char *nl = strchr(s->text + i, '\n');

				if (n == room) {
					room = room ? room * 2 : 256;
					s->lines = xrealloc(s->lines, room * sizeof(*s->lines));
				}
				s->lines[n++] = i;
				if (!nl)
					break;
				*nl = 0;
				i = (size_t)(nl - s->text) + 1;
			}
			s->n = n;
		}
	}
	fclose(f);
	return s;
}

/* "file:line: text" of the source line, where the instructions' code starts */
static void print_src(struct annot *a, FILE *out, const char *file, int line)
{
	const struct srcfile *s = src_get(a, file);
	const char *b = strrchr(file, '/');

	fprintf(out, "%29s%s:%d:", "", b ? b + 1 : file, line);
	if (s->text && line > 0 && (size_t)line <= s->n)
		fprintf(out, " %s", s->text + s->lines[line - 1]);
	fputc('\n', out);
}

/* capstone's arch and mode for an ELF machine; 0, or -1: not known */
static int cs_target(int machine, int msb, cs_arch *arch, cs_mode *mode)
{
	switch (machine) {
	case EM_X86_64:
		*arch = CS_ARCH_X86;
		*mode = CS_MODE_64;
		return 0;
	case EM_386:
		*arch = CS_ARCH_X86;
		*mode = CS_MODE_32;
		return 0;
	case EM_AARCH64:
		*arch = CS_ARCH_ARM64;
		*mode = msb ? CS_MODE_BIG_ENDIAN : CS_MODE_LITTLE_ENDIAN;
		return 0;
	default:
		return -1;
	}
}
#endif

/* one function's listing for event ev: its samples in hits[0..n), sorted */
static void list_fn(struct annot *a, const struct afn *f, const struct hit *h,
		    size_t n, uint64_t total, FILE *out)
{
#if HWPMC_WITH_CAPSTONE
	const unsigned char *code;
	char fbuf[PATH_MAX], lastfile[PATH_MAX] = "";
	const char *file;
	int machine, msb, line, lastline = -1;
	uint64_t addr, count, step;
	size_t left, j = 0;
	cs_insn *insn;
	cs_arch arch;
	cs_mode mode;
	csh cs;

	if (!f->size) {
		fprintf(out, "# %s: its size is not known: no listing\n", f->name);
		return;
	}
	if (sym_image_code(f->img, f->addr, f->size, &code, &machine, &msb) < 0) {
		fprintf(out, "# %s: its code cannot be read from %s\n", f->name,
			sym_image_path(f->img));
		return;
	}
	if (cs_target(machine, msb, &arch, &mode) < 0) {
		fprintf(out, "# %s: no disassembler for ELF machine %d\n", f->name,
			machine);
		return;
	}
	if (cs_open(arch, mode, &cs) != CS_ERR_OK) {
		fprintf(out, "# %s: capstone cannot disassemble ELF machine %d\n",
			f->name, machine);
		return;
	}
	if (arch == CS_ARCH_X86)
		cs_option(cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	insn = cs_malloc(cs);
	fprintf(out, "#  %%SAMP   SAMPLES  %16s  INSTRUCTION\n", "ADDRESS");
	addr = f->addr;
	left = (size_t)f->size;
	while (left) {
		const unsigned char *at = code;
		uint64_t pc = addr;
		size_t was = left;
		char text[256];

		if (cs_disasm_iter(cs, &at, &left, &pc, insn)) {
			snprintf(text, sizeof(text), "%s%s%s", insn->mnemonic,
				 insn->op_str[0] ? "\t" : "", insn->op_str);
			step = was - left;
		} else {
			/* not an instruction: a byte (x86), a word (arm64) */
			step = arch == CS_ARCH_X86 || left < 4 ? 1 : 4;
			if (step == 1)
				snprintf(text, sizeof(text), ".byte\t0x%02x", code[0]);
			else
				snprintf(text, sizeof(text), ".inst\t0x%08x",
					 msb ? (unsigned)code[0] << 24 | code[1] << 16 |
					       code[2] << 8 | code[3] :
					       (unsigned)code[3] << 24 | code[2] << 16 |
					       code[1] << 8 | code[0]);
			left = was - step;
		}
		file = sym_image_line(f->img, addr, &line, fbuf, sizeof(fbuf));
		if (file && (line != lastline || strcmp(file, lastfile))) {
			print_src(a, out, file, line);
			snprintf(lastfile, sizeof(lastfile), "%s", file);
			lastline = line;
		}
		/* the samples of its bytes */
		for (count = 0; j < n && h[j].va < addr + step; j++)
			count += h[j].count;
		if (count)
			fprintf(out, "%8.2f %9" PRIu64 "  %16" PRIx64 ":  %s\n",
				100.0 * (double)count / (double)total, count,
				addr, text);
		else
			fprintf(out, "%8s %9s  %16" PRIx64 ":  %s\n", "", "", addr,
				text);
		code += step;
		addr += step;
	}
	cs_free(insn, 1);
	cs_close(&cs);
#else
	(void)a, (void)f, (void)h, (void)n, (void)total;
	fprintf(out, "# built without capstone: no listing\n");
#endif
}

void annot_write(struct annot *a, int ev, const char *event, uint64_t rate,
		 uint64_t samples, FILE *out)
{
	struct hit *v = xrealloc(NULL, (a->nhit ? a->nhit : 1) * sizeof(*v));
	size_t i, j, n;
	uint64_t total;

	for (i = 0; i < a->nfn; i++) {
		const struct afn *f = &a->fns[i];

		n = 0;
		total = 0;
		for (j = 0; j < a->hitroom; j++)
			if (a->hits[j].img == f->img && a->hits[j].ev == ev &&
			    a->hits[j].va >= f->addr && a->hits[j].va - f->addr < f->size) {
				v[n++] = a->hits[j];
				total += a->hits[j].count;
			}
		qsort(v, n, sizeof(*v), cmp_hit);
		if (i)
			fputc('\n', out);
		fprintf(out, "# annotate: event %s, rate %" PRIu64 "; %s in %s (%s), "
			"0x%" PRIx64 "-0x%" PRIx64 ": %" PRIu64 " samples (%.2f%% of %"
			PRIu64 ")\n", event, rate, f->name, sym_image_base(f->img),
			sym_image_path(f->img), f->addr, f->addr + f->size, total,
			samples ? 100.0 * (double)total / (double)samples : 0.0,
			samples);
		list_fn(a, f, v, n, total, out);
	}
	free(v);
}

void annot_free(struct annot *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->nsrc; i++) {
		free(a->srcs[i].path);
		free(a->srcs[i].text);
		free(a->srcs[i].lines);
	}
	free(a->srcs);
	free(a->hits);
	free(a->fns);
	free(a->seen);
	free(a->sym);
	free(a);
}
