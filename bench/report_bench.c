// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: reports against perf report, on the host
 * (docs/performance.md, "Reports").  No module needed: one synthetic set
 * of samples is written twice, as an hwpmc log (<linux/hwpmclog.h>, with
 * tests/unit/pmclog_build.h) and as a perf.data file (the header, one
 * event attribute, then COMM, MMAP2, SAMPLE and FINISHED_ROUND records, as
 * `perf record` writes them), then `hwpmc-stat -R` and `perf report` make a flat
 * profile and a call graph of it, alternately in each repetition; their
 * wall time and peak RSS are compared.
 *
 *   report_bench [-q] [-n SAMPLES] [-r REPS] [-s SEED] [-d DIR]
 *                [-H HWPMC-STAT] [-P PERF] ELF...
 *   report_bench gen [-n SAMPLES] [-s SEED] -d DIR ELF...
 *   report_bench src DIR
 *   report_bench cmp flat|graph HWPMC-OUTPUT PERF-OUTPUT
 *
 *   -q   quick: 20000 samples, one repetition (the unit test's smoke run)
 *
 * The samples point into the functions of ELF... (the first one is the
 * program, the others its shared libraries), read from their symbol
 * tables here: sampled PCs anywhere in a function, return addresses
 * strictly inside one (so that address - 1 is in it too), one per
 * caller and callee as the call sites of real code are, call chains
 * from a random call tree rooted at main (mean depth about 10), a few
 * hot leaves and a long tail.  `report_bench src DIR` writes the C
 * sources of such a program and library (mk/bench.mk builds them).
 *
 * Before timing, the flat profiles of both tools are compared (the top
 * functions, in order, with the same percentages), and the call graphs'
 * inclusive percentages; the run fails when they disagree (`report_bench
 * cmp` compares two saved outputs the same way).
 *
 * hwpmc-stat's folded stacks (-F) are timed too, alone: perf's
 * counterpart, `perf script | stackcollapse-perf.pl`, is not part of perf.
 *
 * Output, as hwpmc_bench's:
 *   bench: NAME  hwpmc MED [Q1..Q3]  perf MED [Q1..Q3]  ratio R  UNIT
 *   bench: NAME  hwpmc MED [Q1..Q3]  UNIT          (hwpmc-stat alone)
 * then "bench: done, N results" (exit 1 when something failed).
 */
#include <gelf.h>
#include <libelf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <linux/hwpmc.h>
#include <linux/hwpmclog.h>

#include "pmclog_build.h"

#define MAXREPS		64
#define MAXIMG		16
#define MAXDEPTH	64
#define NPROC		2
#define PERIOD		65536		/* pmclog_build.h's PMC rate */
#define PMCID		0x20000100u
#define TOPN		20		/* functions compared */

/* perf's own record types (tools/lib/perf/include/perf/event.h) */
#define PERF_RECORD_FINISHED_ROUND	68

static int nresults, nfailed;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "report_bench: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* -- deterministic random numbers (splitmix64) ------------------------------ */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnd_below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static double rnd_unit(void)
{
	return (double)(rnd() >> 11) / 9007199254740992.0;
}

/* Zipf's law over n ranks: cdf[i] = P(rank <= i) */
struct zipf {
	double	*cdf;
	size_t	n;
};

static void zipf_init(struct zipf *z, size_t n, double s)
{
	double sum = 0;
	size_t i;

	z->n = n;
	z->cdf = xmalloc(n * sizeof(*z->cdf));
	for (i = 0; i < n; i++)
		z->cdf[i] = sum += 1.0 / pow((double)(i + 1), s);
	for (i = 0; i < n; i++)
		z->cdf[i] /= sum;
}

static size_t zipf_draw(const struct zipf *z)
{
	double u = rnd_unit();
	size_t lo = 0, hi = z->n - 1, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (z->cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* -- src: the sources of a program and a library with many functions -------- */

static const char *const verbs[] = {
	"parse", "hash", "lookup", "alloc", "release", "copy", "scan", "sort",
	"merge", "emit", "read", "write", "encode", "decode", "insert",
	"remove", "update", "flush", "render", "match", "split", "resolve",
};
static const char *const nouns[] = {
	"header", "table", "node", "buffer", "entry", "record", "string",
	"list", "tree", "block", "page", "frame", "token", "symbol", "event",
	"chunk", "path", "queue",
};

/* n functions of varied sizes, prefix_VERB_NOUN_i; some static */
static void write_funcs(FILE *f, const char *prefix, int n)
{
	int i, j, k;

	for (i = 0; i < n; i++) {
		int is_static = rnd_below(5) == 0;

		k = 1 + (int)rnd_below(rnd_below(20) ? 24 : 160);
		fprintf(f, "%s__attribute__((noinline%s)) unsigned long %s_%s_%s_%d(unsigned long x)\n{\n"
			"\tvolatile unsigned long s = x;\n\n",
			is_static ? "static " : "", is_static ? ", used" : "",
			prefix, verbs[rnd_below(sizeof(verbs) / sizeof(verbs[0]))],
			nouns[rnd_below(sizeof(nouns) / sizeof(nouns[0]))], i);
		for (j = 0; j < k; j++)
			fprintf(f, "\ts = s * %u + %u;\n",
				(unsigned)rnd_below(1000) + 3, (unsigned)rnd_below(1000));
		fprintf(f, "\treturn s;\n}\n\n");
	}
}

static void write_src(const char *dir)
{
	char path[4096];
	FILE *f;

	rng_state = 12345;
	snprintf(path, sizeof(path), "%s/rb_lib.c", dir);
	f = fopen(path, "w");
	if (!f)
		die("%s: %s", path, strerror(errno));
	fprintf(f, "// SPDX-License-Identifier: GPL-2.0\n"
		"/* generated by report_bench src: the library of the report benchmark */\n\n");
	write_funcs(f, "lib", 1500);
	fprintf(f, "unsigned long lib_entry(unsigned long x)\n{\n\treturn x + 1;\n}\n");
	if (fclose(f))
		die("%s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/rb_prog.c", dir);
	f = fopen(path, "w");
	if (!f)
		die("%s: %s", path, strerror(errno));
	fprintf(f, "// SPDX-License-Identifier: GPL-2.0\n"
		"/* generated by report_bench src: the program of the report benchmark */\n\n"
		"unsigned long lib_entry(unsigned long x);\n\n");
	write_funcs(f, "app", 400);
	fprintf(f, "int main(int argc, char **argv)\n{\n"
		"\t(void)argv;\n"
		"\treturn (int)(lib_entry((unsigned long)argc) & 1);\n}\n");
	if (fclose(f))
		die("%s: %s", path, strerror(errno));
}

/* -- ELF images: their text functions ---------------------------------------- */

struct fn {
	int		img;
	uint64_t	addr, size;	/* link-time */
	const char	*name;
};

struct img {
	const char	*path;
	int		is_dyn;		/* ET_DYN: loaded at a base */
	uint64_t	vaddr, offset, memsz;	/* the executable PT_LOAD */
	size_t		nfn;
};

static struct img imgs[MAXIMG];
static int nimg;
static struct fn *fns;
static size_t nfn;

static int cmp_fn(const void *a, const void *b)
{
	const struct fn *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return 0;
}

/*
 * The function symbols of .text (.symtab, else .dynsym) with a size, and
 * no alias or overlap: the two tools choose among aliases differently.
 */
static void img_read(int k, const char *path)
{
	struct img *im = &imgs[k];
	Elf *elf;
	Elf_Scn *scn = NULL, *tab = NULL;
	Elf_Data *data;
	GElf_Ehdr eh;
	GElf_Shdr sh, tabsh;
	GElf_Phdr ph;
	size_t i, n = 0, m, phnum, shstrndx, text = 0;
	struct fn *v;
	int fd;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    elf_getphdrnum(elf, &phnum) || elf_getshdrstrndx(elf, &shstrndx))
		die("%s: not an ELF file (%s)", path, elf_errmsg(-1));
	im->path = realpath(path, NULL);	/* the tools run elsewhere */
	if (!im->path)
		die("%s: %s", path, strerror(errno));
	im->is_dyn = eh.e_type == ET_DYN;
	for (i = 0; i < phnum; i++)
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    (ph.p_flags & PF_X)) {
			im->vaddr = ph.p_vaddr;
			im->offset = ph.p_offset;
			im->memsz = ph.p_memsz;
			break;
		}
	if (i == phnum)
		die("%s: no executable segment", path);
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB ||
		    (sh.sh_type == SHT_DYNSYM && !tab)) {
			tab = scn;
			tabsh = sh;
		}
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".text"))
			text = elf_ndxscn(scn);
	}
	data = tab ? elf_getdata(tab, NULL) : NULL;
	if (!data || !text || !tabsh.sh_entsize)
		die("%s: no symbol table or no .text", path);
	m = tabsh.sh_size / tabsh.sh_entsize;
	v = xmalloc((m ? m : 1) * sizeof(*v));
	for (i = 0; i < m; i++) {
		GElf_Sym s;
		const char *name;

		if (!gelf_getsym(data, (int)i, &s))
			continue;
		name = elf_strptr(elf, tabsh.sh_link, s.st_name);
		if (!name || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
		    s.st_shndx != text || s.st_size < 8 || !*name)
			continue;
		v[n].img = k;
		v[n].addr = s.st_value;
		v[n].size = s.st_size;
		v[n].name = strdup(name);
		n++;
	}
	qsort(v, n, sizeof(*v), cmp_fn);
	fns = realloc(fns, (nfn + n) * sizeof(*fns));
	if (!fns)
		die("out of memory");
	for (i = 0; i < n; i++) {
		int overlap = (i > 0 && v[i - 1].addr + v[i - 1].size > v[i].addr) ||
			      (i + 1 < n && v[i].addr + v[i].size > v[i + 1].addr);

		if (!overlap) {
			fns[nfn++] = v[i];
			im->nfn++;
		}
	}
	free(v);
	elf_end(elf);
	close(fd);
	if (!im->nfn)
		die("%s: no function symbols in .text", path);
}

/* where image k is loaded in process proc */
static uint64_t img_base(int k, int proc)
{
	if (!imgs[k].is_dyn)
		return 0;
	if (k == 0)
		return 0x555555554000ULL + (uint64_t)proc * 0x1000000ULL;
	return 0x7f0000000000ULL + (uint64_t)proc * 0x100000000ULL +
	       (uint64_t)k * 0x10000000ULL;
}

/* -- the sample set ------------------------------------------------------------ */

struct gen {
	uint64_t	nsamples;
	int		pids[NPROC];
	const char	*comm;		/* basename of the program */
	size_t		root;		/* main */
	size_t		*callees;	/* 6 per function */
	uint8_t		*ncallees;
	struct zipf	hot;		/* hot leaves: ranks of perm */
	size_t		*perm;		/* popularity order */
	uint32_t	**paths;	/* call paths, main first */
	uint8_t		*depth;
	struct zipf	pathpop;
	uint64_t	frames;		/* statistics */
};

#define NCALLEE	6
#define NPATH	16384

static void gen_init(struct gen *g)
{
	struct zipf pop;
	size_t i, j, t, nhot;

	g->perm = xmalloc(nfn * sizeof(*g->perm));
	for (i = 0; i < nfn; i++)
		g->perm[i] = i;
	for (i = nfn; i > 1; i--) {
		j = rnd_below(i);
		t = g->perm[i - 1];
		g->perm[i - 1] = g->perm[j];
		g->perm[j] = t;
	}
	g->root = g->perm[0];
	for (i = 0; i < nfn; i++)
		if (fns[i].img == 0 && !strcmp(fns[i].name, "main"))
			g->root = i;
	zipf_init(&pop, nfn, 1.0);
	g->callees = xmalloc(nfn * NCALLEE * sizeof(*g->callees));
	g->ncallees = xmalloc(nfn);
	for (i = 0; i < nfn; i++) {
		g->ncallees[i] = (uint8_t)(2 + rnd_below(NCALLEE - 1));
		for (j = 0; j < g->ncallees[i]; j++)
			g->callees[i * NCALLEE + j] = g->perm[zipf_draw(&pop)];
	}
	free(pop.cdf);
	nhot = nfn < 60 ? nfn : 60;
	zipf_init(&g->hot, nhot, 1.3);
}

/* one call path from main: a random walk down the callee lists */
static size_t gen_walk(struct gen *g, size_t *path)
{
	size_t n = 0, cur = g->root, j;

	path[n++] = cur;
	while (n < MAXDEPTH - 1 && (n < 3 || rnd_below(8))) {
		for (j = 0; j + 1 < g->ncallees[cur] && rnd_below(2); j++)
			;
		cur = g->callees[cur * NCALLEE + j];
		path[n++] = cur;
	}
	if (rnd_below(2))
		path[n++] = g->perm[zipf_draw(&g->hot)];
	return n;
}

/*
 * The program's call paths: NPATH walks, drawn for the samples by Zipf's
 * law (a program runs a limited set of paths, some far more than others).
 */
static void gen_paths(struct gen *g)
{
	size_t i, j, n, path[MAXDEPTH];

	g->paths = xmalloc(NPATH * sizeof(*g->paths));
	g->depth = xmalloc(NPATH);
	for (i = 0; i < NPATH; i++) {
		n = gen_walk(g, path);
		g->depth[i] = (uint8_t)n;
		g->paths[i] = xmalloc(n * sizeof(**g->paths));
		for (j = 0; j < n; j++)
			g->paths[i][j] = (uint32_t)path[j];
	}
	zipf_init(&g->pathpop, NPATH, 1.0);
}

/* one sample's call chain, leaf first; its depth */
static size_t gen_chain(struct gen *g, size_t *chain)
{
	size_t p = zipf_draw(&g->pathpop), n = g->depth[p], i;

	for (i = 0; i < n; i++)
		chain[i] = g->paths[p][n - 1 - i];
	return n;
}

/*
 * The run-time PC of frame i of a chain, in function chain[i]: the
 * sampled PC (i = 0) anywhere in it; a return address after the call
 * site of chain[i - 1], one place per caller and callee, strictly inside
 * the caller.
 */
static uint64_t frame_pc(const size_t *chain, size_t i, int proc)
{
	const struct fn *x = &fns[chain[i]];
	uint64_t off, h;

	if (i) {
		h = (chain[i] * 0x9e3779b97f4a7c15ULL) ^ (chain[i - 1] * 0xbf58476d1ce4e5b9ULL);
		off = 1 + (h >> 17) % (x->size - 2);
	} else {
		off = rnd_below(x->size);
	}
	return img_base(x->img, proc) + x->addr + off;
}

/* the hwpmc log and the perf.data file, being written */
struct out {
	struct lb	lb;
	FILE		*hf, *pf;
	char		*pbuf;
	size_t		plen, proom;
};

static void out_flush(struct out *o, int all)
{
	if (o->lb.len >= (1 << 20) || (all && o->lb.len)) {
		if (fwrite(o->lb.buf, 1, o->lb.len, o->hf) != o->lb.len)
			die("writing the log: %s", strerror(errno));
		o->lb.len = 0;
	}
	if (o->plen >= (1 << 20) || (all && o->plen)) {
		if (fwrite(o->pbuf, 1, o->plen, o->pf) != o->plen)
			die("writing perf.data: %s", strerror(errno));
		o->plen = 0;
	}
}

static void p_raw(struct out *o, const void *p, size_t n)
{
	if (!n)
		return;
	if (o->plen + n > o->proom) {
		o->proom = (o->plen + n) * 2;
		o->pbuf = realloc(o->pbuf, o->proom);
		if (!o->pbuf)
			die("out of memory");
	}
	memcpy(o->pbuf + o->plen, p, n);
	o->plen += n;
}

/* a perf record: header, fixed part, a string padded to 8 bytes */
static void p_rec(struct out *o, uint32_t type, uint16_t misc, const void *body,
		  size_t blen, const char *str)
{
	static const char zero[8];
	struct perf_event_header h;
	size_t slen = str ? strlen(str) + 1 : 0, pad = (8 - slen % 8) % 8;

	h.type = type;
	h.misc = misc;
	h.size = (uint16_t)(sizeof(h) + blen + slen + pad);
	p_raw(o, &h, sizeof(h));
	p_raw(o, body, blen);
	if (str) {
		p_raw(o, str, slen);
		p_raw(o, zero, pad);
	}
}

/*
 * perf.data as perf record writes it to a file: the header, the attribute
 * section (one perf_event_attr, no ids: every sample is of that event),
 * then the records; no feature sections.  The header is written again
 * at the end, when the data's size is known.
 */
struct perf_file_section {
	uint64_t	offset, size;
};

struct perf_file_header {
	uint64_t	magic, size, attr_size;
	struct perf_file_section attrs, data, event_types;
	uint64_t	adds_features[4];
};

struct perf_file_attr {
	struct perf_event_attr attr;
	struct perf_file_section ids;
};

static void perf_header(struct out *o, uint64_t data_size)
{
	struct perf_file_header h;

	memset(&h, 0, sizeof(h));
	h.magic = 0x32454c4946524550ULL;		/* "PERFILE2" */
	h.size = sizeof(h);
	h.attr_size = sizeof(struct perf_file_attr);
	h.attrs.offset = sizeof(h);
	h.attrs.size = sizeof(struct perf_file_attr);
	h.data.offset = sizeof(h) + sizeof(struct perf_file_attr);
	h.data.size = data_size;
	if (fseek(o->pf, 0, SEEK_SET) || fwrite(&h, sizeof(h), 1, o->pf) != 1)
		die("writing perf.data: %s", strerror(errno));
}

static void gen_headers(struct gen *g, struct out *o)
{
	struct perf_file_attr fa;
	int k, pr;

	lb_initialize(&o->lb, PMCLOG_VERSION);
	lb_pmcallocate(&o->lb, PMCID, "cpu-clock");
	perf_header(o, 0);
	memset(&fa, 0, sizeof(fa));
	fa.attr.type = PERF_TYPE_SOFTWARE;
	fa.attr.size = sizeof(fa.attr);
	fa.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	fa.attr.sample_period = PERIOD;
	fa.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			      PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_PERIOD;
	fa.attr.exclude_kernel = 1;
	fa.attr.exclude_hv = 1;
	if (fwrite(&fa, sizeof(fa), 1, o->pf) != 1)
		die("writing perf.data: %s", strerror(errno));
	for (pr = 0; pr < NPROC; pr++) {
		struct pmclog_pmcattach at = { .pl_pmcid = PMCID,
					       .pl_pid = (uint32_t)g->pids[pr] };
		struct { uint32_t pid, tid; } comm = { (uint32_t)g->pids[pr],
						       (uint32_t)g->pids[pr] };
		char name[16];

		lb_rec(&o->lb, PMCLOG_TYPE_PMCATTACH, &at, sizeof(at),
		       imgs[0].path, strlen(imgs[0].path) + 1);
		snprintf(name, sizeof(name), "%s", g->comm);
		p_rec(o, PERF_RECORD_COMM, 0, &comm, sizeof(comm), name);
		for (k = 0; k < nimg; k++) {
			uint64_t base = img_base(k, pr);
			uint64_t start = base + (imgs[k].vaddr & ~0xfffULL);
			uint64_t end = (base + imgs[k].vaddr + imgs[k].memsz + 0xfff) &
				       ~0xfffULL;
			uint64_t pgoff = imgs[k].offset & ~0xfffULL;
			struct pmclog_map_in mi = { .pl_pid = g->pids[pr],
						    .pl_prot = 5, .pl_start = start,
						    .pl_end = end, .pl_pgoff = pgoff };
			struct {
				uint32_t pid, tid;
				uint64_t start, len, pgoff;
				uint32_t maj, min;
				uint64_t ino, ino_generation;
				uint32_t prot, flags;
			} mm = { (uint32_t)g->pids[pr], (uint32_t)g->pids[pr],
				 start, end - start, pgoff, 0, 0, 0, 0,
				 PROT_READ | PROT_EXEC, MAP_PRIVATE };

			lb_rec(&o->lb, PMCLOG_TYPE_MAP_IN, &mi, sizeof(mi),
			       imgs[k].path, strlen(imgs[k].path) + 1);
			p_rec(o, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, &mm,
			      sizeof(mm), imgs[k].path);
		}
	}
}

static void gen_samples(struct gen *g, struct out *o)
{
	size_t chain[MAXDEPTH], n, i;
	uint64_t pc[MAXDEPTH], s, t = 1000000000000ULL, body[4 + MAXDEPTH + 1];
	int pr, pid, tid;

	for (s = 0; s < g->nsamples; s++) {
		struct pmclog_callchain cc;

		pr = rnd_below(10) < 7 ? 0 : 1;
		pid = g->pids[pr];
		tid = pid + (int)rnd_below(3);
		n = gen_chain(g, chain);
		g->frames += n;
		for (i = 0; i < n; i++)
			pc[i] = frame_pc(chain, i, pr);
		memset(&cc, 0, sizeof(cc));
		cc.pl_pid = (uint32_t)pid;
		cc.pl_tid = (uint32_t)tid;
		cc.pl_pmcid = PMCID;
		cc.pl_cpuflags = PMC_CALLCHAIN_TO_CPUFLAGS(s % 2, PMC_CC_F_USERSPACE);
		lb_rec(&o->lb, PMCLOG_TYPE_CALLCHAIN, &cc, sizeof(cc), pc,
		       n * sizeof(pc[0]));
		/* ip, pid/tid, time, period, nr, PERF_CONTEXT_USER, pcs */
		body[0] = pc[0];
		body[1] = (uint64_t)(uint32_t)tid << 32 | (uint32_t)pid;
		body[2] = t += 250000;
		body[3] = PERIOD;
		body[4] = n + 1;
		body[5] = PERF_CONTEXT_USER;
		memcpy(&body[6], pc, n * sizeof(pc[0]));
		p_rec(o, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, body,
		      (6 + n) * sizeof(body[0]), NULL);
		/* perf record ends a round each time it has read its rings */
		if (s % 4096 == 4095)
			p_rec(o, PERF_RECORD_FINISHED_ROUND, 0, NULL, 0, NULL);
		out_flush(o, 0);
	}
	lb_closelog(&o->lb);
	out_flush(o, 1);
	perf_header(o, (uint64_t)ftell(o->pf) - sizeof(struct perf_file_header) -
		    sizeof(struct perf_file_attr));
}

static FILE *xfopen(const char *dir, const char *name, const char *mode)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, mode);
	if (!f)
		die("%s: %s", path, strerror(errno));
	return f;
}

static void generate(const char *dir, uint64_t nsamples, uint64_t seed,
		     struct gen *g)
{
	struct out o;
	const char *b;

	rng_state = seed;
	memset(g, 0, sizeof(*g));
	g->nsamples = nsamples;
	g->pids[0] = 4001;
	g->pids[1] = 4101;
	b = strrchr(imgs[0].path, '/');
	g->comm = b ? b + 1 : imgs[0].path;
	gen_init(g);
	gen_paths(g);
	memset(&o, 0, sizeof(o));
	lb_init(&o.lb);
	o.hf = xfopen(dir, "hwpmc.log", "w");
	o.pf = xfopen(dir, "perf.data", "w");
	gen_headers(g, &o);
	gen_samples(g, &o);
	if (fclose(o.hf) || fclose(o.pf))
		die("writing %s: %s", dir, strerror(errno));
	lb_free(&o.lb);
	free(o.pbuf);
}

/* -- a perf.data of `perf record --call-graph dwarf`, as an hwpmc log ------------ */

/*
 * The DWARF-unwinding report benchmark (report_bench dwarf) compares the
 * tools on the same real samples: a perf.data written by `perf record
 * --call-graph dwarf` of a program on x86-64 (user registers and the top
 * of the user stack in each sample) becomes an hwpmc log of the same
 * samples: a PMCATTACH at each process's first executable mapping, a
 * MAP_IN per executable MMAP/MMAP2, and per sample a USERSTACK (perf's
 * registers in DWARF order, its stack bytes) and a CALLCHAIN with the
 * sampled PC, as the module writes them for `hwpmc-stat -P EVENT
 * --call-graph dwarf`.  Both tools then unwind every sample with libdw.
 */

/* perf's x86-64 register of each DWARF register 0..15, then the PC */
static const int x86_dwarf_to_perf[17] = {
	0 /* ax */, 3 /* dx */, 2 /* cx */, 1 /* bx */, 4 /* si */, 5 /* di */,
	6 /* bp */, 7 /* sp */, 16, 17, 18, 19, 20, 21, 22, 23 /* r8..r15 */,
	8 /* ip */,
};

#define DW_PIDS		64

struct dwconv {
	uint64_t	sample_type, regs_mask;
	uint32_t	stack_size;
	int		pids[DW_PIDS], npid;
	uint64_t	samples, with_stack, bytes;
};

static int dw_seen(struct dwconv *d, int pid)
{
	int i;

	for (i = 0; i < d->npid; i++)
		if (d->pids[i] == pid)
			return 1;
	if (d->npid < DW_PIDS)
		d->pids[d->npid++] = pid;
	return 0;
}

static void dw_map(struct dwconv *d, struct lb *b, int pid, uint64_t addr,
		   uint64_t len, uint64_t pgoff, uint32_t prot, const char *path)
{
	struct pmclog_map_in mi;

	if (pid <= 0 || !(prot & PROT_EXEC) || path[0] != '/')
		return;		/* the kernel's, data, [vdso], anonymous */
	if (!dw_seen(d, pid)) {
		struct pmclog_pmcattach at = { .pl_pmcid = PMCID, .pl_pid = (uint32_t)pid };

		lb_rec(b, PMCLOG_TYPE_PMCATTACH, &at, sizeof(at), path, strlen(path) + 1);
	}
	memset(&mi, 0, sizeof(mi));
	mi.pl_pid = pid;
	mi.pl_prot = prot;
	mi.pl_start = addr - pgoff;
	mi.pl_mapstart = addr;
	mi.pl_end = addr + len;
	mi.pl_pgoff = pgoff;
	lb_rec(b, PMCLOG_TYPE_MAP_IN, &mi, sizeof(mi), path, strlen(path) + 1);
}

/* a SAMPLE's fields up to PERF_SAMPLE_STACK_USER; 0: not one to convert */
static int dw_sample(struct dwconv *d, struct lb *b, const unsigned char *p,
		     const unsigned char *end)
{
	uint64_t st = d->sample_type, v, ip = 0, nr, abi = 0, size = 0, dyn = 0;
	uint64_t regs[64], dregs[17];
	const unsigned char *stack = NULL;
	uint32_t pid = 0, tid = 0;
	int nregs = __builtin_popcountll(d->regs_mask), i;
	struct pmclog_callchain cc;
	struct pmclog_userstack us;

#define TAKE(dst, n) do { if ((size_t)(end - p) < (n)) return 0; \
			  memcpy((dst), p, (n)); p += (n); } while (0)
	if (st & PERF_SAMPLE_IDENTIFIER)
		TAKE(&v, 8);
	if (st & PERF_SAMPLE_IP)
		TAKE(&ip, 8);
	if (st & PERF_SAMPLE_TID) {
		TAKE(&pid, 4);
		TAKE(&tid, 4);
	}
	if (st & PERF_SAMPLE_TIME)
		TAKE(&v, 8);
	if (st & PERF_SAMPLE_ADDR)
		TAKE(&v, 8);
	if (st & PERF_SAMPLE_ID)
		TAKE(&v, 8);
	if (st & PERF_SAMPLE_STREAM_ID)
		TAKE(&v, 8);
	if (st & PERF_SAMPLE_CPU)
		TAKE(&v, 8);
	if (st & PERF_SAMPLE_PERIOD)
		TAKE(&v, 8);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		TAKE(&nr, 8);
		if ((uint64_t)(end - p) / 8 < nr)
			return 0;
		p += nr * 8;
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		TAKE(&abi, 8);
		if (abi)
			TAKE(regs, (size_t)nregs * 8);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		TAKE(&size, 8);
		if (size) {
			if ((uint64_t)(end - p) < size)
				return 0;
			stack = p;
			p += size;
			TAKE(&dyn, 8);
			if (dyn > size)
				return 0;
		}
	}
#undef TAKE
	d->samples++;
	if (abi == PERF_SAMPLE_REGS_ABI_64 && stack) {
		for (i = 0; i < 17; i++) {
			int bit = x86_dwarf_to_perf[i];

			dregs[i] = regs[__builtin_popcountll(d->regs_mask &
							     ((1ULL << bit) - 1))];
		}
		memset(&us, 0, sizeof(us));
		us.pl_pmcid = PMCID;
		us.pl_abi = PMC_USTACK_ABI_X86_64;
		us.pl_nregs = 17;
		us.pl_size = d->stack_size;
		us.pl_dynsize = (uint32_t)dyn;
		{
			unsigned char *t = xmalloc(sizeof(dregs) + dyn);

			memcpy(t, dregs, sizeof(dregs));
			memcpy(t + sizeof(dregs), stack, dyn);
			lb_rec(b, PMCLOG_TYPE_USERSTACK, &us, sizeof(us), t,
			       sizeof(dregs) + dyn);
			free(t);
		}
		d->with_stack++;
		d->bytes += dyn;
	}
	memset(&cc, 0, sizeof(cc));
	cc.pl_pid = pid;
	cc.pl_tid = tid;
	cc.pl_pmcid = PMCID;
	cc.pl_cpuflags = PMC_CALLCHAIN_TO_CPUFLAGS(0, PMC_CC_F_USERSPACE);
	lb_rec(b, PMCLOG_TYPE_CALLCHAIN, &cc, sizeof(cc), &ip, sizeof(ip));
	return 1;
}

/* perf.data IN (one event, x86-64 user registers and stack) to OUT */
static void dw_convert(const char *in, const char *out, struct dwconv *d)
{
	struct perf_file_header h;
	struct perf_file_attr fa;
	struct perf_event_header eh;
	struct pmclog_pmcallocate pa;
	struct out o;
	unsigned char *buf;
	uint64_t off;
	struct stat st;
	int fd = open(in, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		die("%s: %s", in, strerror(errno));
	buf = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (buf == MAP_FAILED)
		die("%s: mmap: %s", in, strerror(errno));
	close(fd);
	if ((size_t)st.st_size < sizeof(h))
		die("%s: not a perf.data file", in);
	memcpy(&h, buf, sizeof(h));
	if (h.magic != 0x32454c4946524550ULL || h.attr_size < sizeof(uint64_t) * 4 ||
	    h.attrs.offset + h.attrs.size > (uint64_t)st.st_size ||
	    h.data.offset + h.data.size > (uint64_t)st.st_size)
		die("%s: not a perf.data file (PERFILE2) of this machine's byte order", in);
	if (h.attrs.size != h.attr_size)
		die("%s: %lu events: record one (-e EVENT)", in,
		    (unsigned long)(h.attrs.size / h.attr_size));
	memset(&fa, 0, sizeof(fa));
	memcpy(&fa.attr, buf + h.attrs.offset,
	       h.attr_size - sizeof(fa.ids) < sizeof(fa.attr) ?
	       h.attr_size - sizeof(fa.ids) : sizeof(fa.attr));
	memset(d, 0, sizeof(*d));
	d->sample_type = fa.attr.sample_type;
	d->regs_mask = fa.attr.sample_regs_user;
	d->stack_size = fa.attr.sample_stack_user;
	if (d->sample_type & (PERF_SAMPLE_READ | PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK))
		die("%s: samples with READ, RAW or BRANCH_STACK are not converted", in);
	if (!(d->sample_type & PERF_SAMPLE_REGS_USER) ||
	    !(d->sample_type & PERF_SAMPLE_STACK_USER) || (~d->regs_mask & 0xff01ffULL))
		die("%s: no x86-64 user registers and stack: perf record --call-graph dwarf", in);

	memset(&o, 0, sizeof(o));
	lb_init(&o.lb);
	o.hf = fopen(out, "w");
	if (!o.hf)
		die("%s: %s", out, strerror(errno));
	lb_initialize(&o.lb, PMCLOG_VERSION);
	memset(&pa, 0, sizeof(pa));
	pa.pl_pmcid = PMCID;
	pa.pl_event = 0x1000;
	pa.pl_flags = PMC_F_CALLCHAIN | PMC_F_USERSTACK;
	pa.pl_rate = fa.attr.freq ? 0 : fa.attr.sample_period;
	strcpy(pa.pl_evname, "cpu-clock");
	lb_rec(&o.lb, PMCLOG_TYPE_PMCALLOCATE, &pa, sizeof(pa), NULL, 0);
	for (off = h.data.offset; off + sizeof(eh) <= h.data.offset + h.data.size;
	     off += eh.size) {
		const unsigned char *r = buf + off, *rend;

		memcpy(&eh, r, sizeof(eh));
		if (eh.size < sizeof(eh) || off + eh.size > h.data.offset + h.data.size)
			die("%s: a record of %u bytes at %lu", in, eh.size, (unsigned long)off);
		rend = r + eh.size;
		r += sizeof(eh);
		if (eh.type == PERF_RECORD_SAMPLE) {
			dw_sample(d, &o.lb, r, rend);
		} else if (eh.type == PERF_RECORD_MMAP && rend - r > 32) {
			uint32_t pid;
			uint64_t a[3];

			memcpy(&pid, r, 4);
			memcpy(a, r + 8, 24);
			if (memchr(r + 32, 0, (size_t)(rend - r - 32)))
				dw_map(d, &o.lb, (int)pid, a[0], a[1], a[2],
				       PROT_READ | PROT_EXEC, (const char *)r + 32);
		} else if (eh.type == PERF_RECORD_MMAP2 && rend - r > 64) {
			/* pid tid, addr len pgoff, maj min ino ino_gen, prot flags */
			uint32_t pid, prot;
			uint64_t a[3];

			memcpy(&pid, r, 4);
			memcpy(a, r + 8, 24);
			memcpy(&prot, r + 56, 4);
			if (memchr(r + 64, 0, (size_t)(rend - r - 64)))
				dw_map(d, &o.lb, (int)pid, a[0], a[1], a[2], prot,
				       (const char *)r + 64);
		}
		out_flush(&o, 0);
	}
	lb_closelog(&o.lb);
	out_flush(&o, 1);
	if (fclose(o.hf))
		die("%s: %s", out, strerror(errno));
	lb_free(&o.lb);
	munmap(buf, (size_t)st.st_size);
}

/* -- running the tools ---------------------------------------------------------- */

struct run {
	double	wall;		/* s */
	double	rss;		/* peak RSS, MB */
	double	cpu;		/* user + system time, s */
};

/* argv with stdin from in (or /dev/null), stdout to out, stderr to err */
static struct run run_cmd(char *const argv[], const char *in, const char *out,
			  const char *err)
{
	struct rusage ru;
	struct run r;
	double t0 = now();
	int st;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		int i = open(in ? in : "/dev/null", O_RDONLY);
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (i < 0 || o < 0 || e < 0)
			_exit(126);
		dup2(i, 0);
		dup2(o, 1);
		dup2(e, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &st, 0, &ru) != pid)
		die("wait4: %s", strerror(errno));
	r.wall = now() - t0;
	r.rss = ru.ru_maxrss / 1024.0;
	r.cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "report_bench: %s failed (status 0x%x); its messages:\n",
			argv[0], st);
		if (fork() == 0) {
			execlp("head", "head", "-20", err, (char *)NULL);
			_exit(127);
		}
		wait(NULL);
		exit(1);
	}
	return r;
}

/* argv's wall time and peak RSS into *wall and *rss (output to out) */
static void timed(char *const argv[], const char *out, const char *err,
		  double *wall, double *rss)
{
	struct run r = run_cmd(argv, NULL, out, err);

	*wall = r.wall;
	*rss = r.rss;
}

/* -- comparing the profiles ------------------------------------------------------ */

struct row {
	char	name[256];
	double	pct, pct2;
};

/* hwpmc-stat's flat profile (graph 0) or its call graph's function lines */
static size_t read_hwpmc(const char *path, struct row *rows, size_t max, int graph)
{
	char line[1024];
	size_t n = 0;
	FILE *f = fopen(path, "r");
	uint64_t a, b;

	if (!f)
		die("%s: %s", path, strerror(errno));
	while (n < max && fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || line[0] == '\t')
			continue;
		if (!graph && sscanf(line, "%lf %lf %lu %255s", &rows[n].pct,
				     &rows[n].pct2, &a, rows[n].name) == 4)
			n++;
		else if (graph && sscanf(line, "%lf%% %lf%% %lu %lu %255s",
					 &rows[n].pct, &rows[n].pct2, &a, &b,
					 rows[n].name) == 5)
			n++;
	}
	fclose(f);
	return n;
}

/*
 * perf report's entries: "  12.34%  [.] name" (flat), or
 * "  45.00%   1.00%  [.] name" (--children: children, then self)
 */
static size_t read_perf(const char *path, struct row *rows, size_t max, int graph)
{
	char line[4096];
	size_t n = 0, i;
	FILE *f = fopen(path, "r");

	if (!f)
		die("%s: %s", path, strerror(errno));
	while (n < max && fgets(line, sizeof(line), f)) {
		if (!graph && sscanf(line, " %lf%% [.] %255s", &rows[n].pct,
				     rows[n].name) == 2)
			n++;
		else if (graph && sscanf(line, " %lf%% %lf%% [.] %255s",
					 &rows[n].pct2, &rows[n].pct,
					 rows[n].name) == 3)
			n++;
		else
			continue;
		/*
		 * "name (inlined)": a function's inlined instance in itself
		 * (std::__introsort_loop's recursion), which perf lists apart
		 * and hwpmc-stat counts as the function: added to its row
		 */
		for (i = 0; i + 1 < n; i++)
			if (!strcmp(rows[i].name, rows[n - 1].name)) {
				rows[i].pct += rows[n - 1].pct;
				rows[i].pct2 += rows[n - 1].pct2;
				n--;
				break;
			}
	}
	fclose(f);
	return n;
}

static const struct row *find_row(const struct row *v, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

/*
 * The top functions of hwpmc-stat's profile, against perf's: present,
 * with the same percentage within rounding (self; graph: inclusive too).
 * Prints one line; 0 when they agree.
 */
static double cmp_min;	/* %: functions of less self are not compared */

static int compare(const char *what, const char *hpath, const char *ppath,
		   int graph)
{
	static struct row h[100000], p[100000];
	size_t nh = read_hwpmc(hpath, h, 100000, graph);
	size_t np = read_perf(ppath, p, 100000, graph);
	size_t i, top = nh < TOPN ? nh : TOPN, same_order = 1;
	double worst = 0, d;
	const struct row *q;

	if (!nh || !np) {
		printf("report: FAILED %s: no rows (hwpmc %zu, perf %zu)\n", what, nh, np);
		return 1;
	}
	for (i = 0; i < top; i++) {
		if (h[i].pct < cmp_min)		/* self */
			continue;
		q = find_row(p, np, h[i].name);
		if (!q) {
			printf("report: FAILED %s: %s (%.2f%% in hwpmc-stat) is not in perf's\n",
			       what, h[i].name, h[i].pct);
			return 1;
		}
		d = fabs(q->pct - h[i].pct);
		if (graph && fabs(q->pct2 - h[i].pct2) > d)
			d = fabs(q->pct2 - h[i].pct2);
		if (d > worst)
			worst = d;
		if (!graph && strcmp(p[i].name, h[i].name) &&
		    fabs(p[i].pct - h[i].pct) > 0.005)
			same_order = 0;
	}
	if (worst > 0.015 || !same_order) {
		printf("report: FAILED %s: profiles differ (largest difference %.2f points%s)\n",
		       what, worst, same_order ? "" : ", other order");
		return 1;
	}
	printf("report: %s agree: top %zu functions%s, largest difference %.2f points "
	       "(hwpmc-stat %zu functions, perf %zu)\n", what, top,
	       graph ? " (self and inclusive %)" : ", same order", worst, nh, np);
	return 0;
}

/* -- statistics (as hwpmc_bench) ------------------------------------------------- */

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double quantile(const double *v, int n, double q)
{
	double x = q * (n - 1);
	int i = (int)x;

	return i + 1 < n ? v[i] + (x - i) * (v[i + 1] - v[i]) : v[n - 1];
}

/* hwpmc-stat's alone */
static void result1(const char *name, const char *unit, double *h, int n)
{
	qsort(h, (size_t)n, sizeof(*h), cmp_d);
	nresults++;
	printf("bench: %-44s hwpmc %9.3g [%.3g..%.3g]  %s\n", name, quantile(h, n, 0.5),
	       quantile(h, n, 0.25), quantile(h, n, 0.75), unit);
	fflush(stdout);
}

static double result(const char *name, const char *unit, double *h, double *p, int n)
{
	double hm, pm;

	qsort(h, (size_t)n, sizeof(*h), cmp_d);
	qsort(p, (size_t)n, sizeof(*p), cmp_d);
	hm = quantile(h, n, 0.5);
	pm = quantile(p, n, 0.5);
	nresults++;
	printf("bench: %-44s hwpmc %9.3g [%.3g..%.3g]  perf %9.3g [%.3g..%.3g]  ratio %5.2f  %s\n",
	       name, hm, quantile(h, n, 0.25), quantile(h, n, 0.75), pm,
	       quantile(p, n, 0.25), quantile(p, n, 0.75), pm ? hm / pm : 0, unit);
	fflush(stdout);
	return pm ? hm / pm : 0;
}

/* -- main ----------------------------------------------------------------------- */

static void usage(void)
{
	fprintf(stderr,
		"usage: report_bench [-q] [-n samples] [-r reps] [-s seed] [-d dir]\n"
		"                    [-H hwpmc-stat] [-P perf] program [library...]\n"
		"       report_bench gen [-n samples] [-s seed] -d dir program [library...]\n"
		"       report_bench src dir\n"
		"       report_bench dwarf [-r reps] [-d dir] [-H hwpmc-stat] [-P perf] perf.data\n"
		"       report_bench cmp flat|graph hwpmc-output perf-output\n");
	exit(2);
}

static char *path_in(const char *dir, const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		die("out of memory");
	return p;
}

/* the directory made when none was given, removed at exit (failures too) */
static const char *tmpdir;

static void remove_tmpdir(void)
{
	static const char *const names[] = {
		"hwpmc.log", "perf.data", "out.txt", "err.txt", "graph-hwpmc.txt", "graph1-hwpmc.txt",
		"flat-hwpmc.txt", "flat-perf.txt", "graph-perf.txt", "folded-hwpmc.txt",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *p = path_in(tmpdir, names[i]);

		unlink(p);
		free(p);
	}
	rmdir(tmpdir);
}

/* the two files have the same bytes */
static int same_file(const char *a, const char *b)
{
	FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
	int ca, cb, same = fa && fb;

	while (same) {
		ca = getc(fa);
		cb = getc(fb);
		if (ca != cb)
			same = 0;
		if (ca == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/*
 * report_bench dwarf [-r reps] [-d dir] [-H hwpmc-stat] [-P perf] perf.data:
 * the DWARF-unwinding reports of the same real samples (dw_convert()).
 * Names raw (--no-demangle in both): perf and hwpmc-stat print C++ names
 * differently (hwpmc-stat with the return type of templates).  7
 * repetitions by default.  hwpmc-stat's call graph is timed twice: with
 * its default unwinding threads (one per CPU online) and with one
 * (--unwind-threads 1); the two must be the same, byte for byte.
 */
static int dwarf_main(int argc, char **argv)
{
	const char *dir = NULL, *statbin = "hwpmc-stat", *perf = "perf";
	static char tmpl[] = "/tmp/report_bench.XXXXXX";
	double hf[MAXREPS], pf[MAXREPS], hg[MAXREPS], pg[MAXREPS];
	double hfm[MAXREPS], pfm[MAXREPS], hgm[MAXREPS], pgm[MAXREPS], ratio;
	double hgc[MAXREPS], pgc[MAXREPS], h1g[MAXREPS], h1c[MAXREPS], pg1[MAXREPS];
	double pgc1[MAXREPS];
	struct run rr;
	char *log, *out, *err, *hflat, *pflat, *hgraph, *pgraph, *hgraph1;
	int opt, reps = 7, r, i;
	struct dwconv d;
	struct stat st, sp;
	double t0;

	while ((opt = getopt(argc, argv, "r:d:H:P:")) != -1) {
		switch (opt) {
		case 'r':
			reps = atoi(optarg);
			break;
		case 'd':
			dir = optarg;
			break;
		case 'H':
			statbin = optarg;
			break;
		case 'P':
			perf = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind + 1 != argc || reps < 1 || reps > MAXREPS)
		usage();
	if (!dir) {
		dir = mkdtemp(tmpl);
		if (!dir)
			die("mkdtemp: %s", strerror(errno));
		tmpdir = dir;
		atexit(remove_tmpdir);
	}
	mkdir(dir, 0755);
	/*
	 * the functions of 0.1% and more of self samples: the tools name
	 * some of libc's by different aliases (__clock_gettime_2 and
	 * clock_gettime; perf names __libc_start_main by its inlined
	 * __libc_start_main_impl, hwpmc-stat __libc_start_main_alias_2)
	 */
	cmp_min = 0.1;
	log = path_in(dir, "hwpmc.log");
	t0 = now();
	dw_convert(argv[optind], log, &d);
	if (stat(log, &st) || stat(argv[optind], &sp))
		die("%s: %s", log, strerror(errno));
	printf("# DWARF-unwinding report benchmark: %lu samples of %d processes, %lu with "
	       "user registers and stack (%.0f bytes of stack on average, %u asked); "
	       "converted in %.1f s\n", (unsigned long)d.samples, d.npid,
	       (unsigned long)d.with_stack, d.with_stack ? (double)d.bytes / d.with_stack : 0,
	       d.stack_size, now() - t0);
	printf("# perf.data %s: %.1f MB; hwpmc log %s: %.1f MB\n", argv[optind],
	       sp.st_size / 1e6, log, st.st_size / 1e6);
	setenv("DEBUGINFOD_URLS", "", 1);
	out = path_in(dir, "out.txt");
	err = path_in(dir, "err.txt");
	hflat = path_in(dir, "flat-hwpmc.txt");
	pflat = path_in(dir, "flat-perf.txt");
	hgraph = path_in(dir, "graph-hwpmc.txt");
	pgraph = path_in(dir, "graph-perf.txt");
	hgraph1 = path_in(dir, "graph1-hwpmc.txt");
	{
		char *h_flat[] = { (char *)statbin, "-R", log, "--no-demangle", NULL };
		char *h_graph[] = { (char *)statbin, "-R", log, "--no-demangle", "--graph",
				    hgraph, NULL };
		/* unwinding on the reading thread alone (the default: one per CPU) */
		char *h_graph1[] = { (char *)statbin, "-R", log, "--no-demangle", "--graph",
				     hgraph1, "--unwind-threads", "1", NULL };
		char *p_flat[] = { (char *)perf, "report", "--stdio", "-i", argv[optind],
				   "--no-demangle", "--sort", "sym", "--no-children", NULL };
		char *p_graph[] = { (char *)perf, "report", "--stdio", "-i", argv[optind],
				    "--no-demangle", "--sort", "sym", "-g", NULL };

		printf("# flat:  hwpmc-stat -R hwpmc.log --no-demangle  vs  perf report --stdio "
		       "-i perf.data --no-demangle --sort sym --no-children (both unwind: perf "
		       "keeps the call chains it prints)\n");
		printf("# graph: hwpmc-stat -R hwpmc.log --no-demangle --graph FILE  vs  perf "
		       "report --stdio -i perf.data --no-demangle --sort sym -g\n");
		run_cmd(h_flat, NULL, hflat, err);
		run_cmd(p_flat, NULL, pflat, err);
		nfailed += compare("flat profiles", hflat, pflat, 0);
		run_cmd(h_graph, NULL, out, err);
		run_cmd(p_graph, NULL, pgraph, err);
		nfailed += compare("call graphs", hgraph, pgraph, 1);
		run_cmd(h_graph1, NULL, out, err);
		if (same_file(hgraph, hgraph1)) {
			printf("report: call graphs of one unwinding thread and of %ld agree, "
			       "byte for byte\n", sysconf(_SC_NPROCESSORS_ONLN));
		} else {
			printf("report: FAILED call graphs of one unwinding thread and of "
			       "several: %s and %s differ\n", hgraph1, hgraph);
			nfailed++;
		}
		fflush(stdout);
		for (r = 0; r < reps; r++)
			for (i = 0; i < 2; i++) {
				if ((r + i) % 2 == 0) {
					timed(h_flat, out, err, &hf[r], &hfm[r]);
					rr = run_cmd(h_graph, NULL, out, err);
					hg[r] = rr.wall;
					hgm[r] = rr.rss;
					hgc[r] = rr.cpu;
					rr = run_cmd(h_graph1, NULL, out, err);
					h1g[r] = rr.wall;
					h1c[r] = rr.cpu;
				} else {
					timed(p_flat, out, err, &pf[r], &pfm[r]);
					rr = run_cmd(p_graph, NULL, out, err);
					pg[r] = rr.wall;
					pgm[r] = rr.rss;
					pgc[r] = rr.cpu;
				}
			}
	}
	printf("# %d repetitions\n", reps);
	result("dwarf report flat profile: time", "s", hf, pf, reps);
	result("dwarf report flat profile: peak RSS", "MB", hfm, pfm, reps);
	memcpy(pg1, pg, sizeof(pg));
	memcpy(pgc1, pgc, sizeof(pgc));
	ratio = result("dwarf report call graph: time", "s", hg, pg, reps);
	result("dwarf report call graph: peak RSS", "MB", hgm, pgm, reps);
	/* what the wall time is made of on a host whose CPUs others use too */
	result("dwarf report call graph: CPU time", "s", hgc, pgc, reps);
	result("dwarf report call graph, 1 thread: time", "s", h1g, pg1, reps);
	result("dwarf report call graph, 1 thread: CPU time", "s", h1c, pgc1, reps);
	printf("# target hwpmc/perf <= 0.5: dwarf call graph time %s\n",
	       ratio <= 0.5 ? "met" : "MISSED");
	printf("bench: done, %d results%s\n", nresults, nfailed ? ", FAILED" : "");
	return nfailed ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *statbin = "hwpmc-stat", *perf = "perf";
	uint64_t nsamples = 1000000, seed = 1;
	int opt, reps = 7, quick = 0, only_gen = 0, r, i, k;
	double hf[MAXREPS], pf[MAXREPS], hg[MAXREPS], pg[MAXREPS];
	double hfm[MAXREPS], pfm[MAXREPS], hgm[MAXREPS], pgm[MAXREPS];
	double hs[MAXREPS], hsm[MAXREPS];
	double ratio[4];
	static char tmpl[] = "/tmp/report_bench.XXXXXX";	/* outlives main() */
	char ver[128] = "?";
	char *log, *data, *out, *err, *gout, *fout, *hflat, *pflat, *hgraph, *pgraph;
	struct gen g;
	struct stat st;
	double t0;
	FILE *f;

	if (argc > 1 && !strcmp(argv[1], "src")) {
		if (argc != 3)
			usage();
		write_src(argv[2]);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "cmp")) {
		if (argc != 5 || (strcmp(argv[2], "flat") && strcmp(argv[2], "graph")))
			usage();
		return compare(argv[2][0] == 'f' ? "flat profiles" : "call graphs",
			       argv[3], argv[4], argv[2][0] == 'g');
	}
	if (argc > 1 && !strcmp(argv[1], "dwarf"))
		return dwarf_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "gen")) {
		only_gen = 1;
		argv++;
		argc--;
	}
	while ((opt = getopt(argc, argv, "qn:r:s:d:H:P:")) != -1) {
		switch (opt) {
		case 'q':
			quick = 1;
			nsamples = 20000;
			reps = 1;
			break;
		case 'n':
			nsamples = strtoull(optarg, NULL, 0);
			break;
		case 'r':
			reps = atoi(optarg);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'd':
			dir = optarg;
			break;
		case 'H':
			statbin = optarg;
			break;
		case 'P':
			perf = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind >= argc || argc - optind > MAXIMG || reps < 1 || reps > MAXREPS ||
	    !nsamples || (only_gen && !dir))
		usage();
	for (k = 0; optind + k < argc; k++)
		img_read(k, argv[optind + k]);
	nimg = k;
	if (!dir) {
		dir = mkdtemp(tmpl);
		if (!dir)
			die("mkdtemp: %s", strerror(errno));
		tmpdir = dir;
		atexit(remove_tmpdir);
	}
	mkdir(dir, 0755);
	t0 = now();
	generate(dir, nsamples, seed, &g);
	log = path_in(dir, "hwpmc.log");
	data = path_in(dir, "perf.data");
	printf("# report benchmark: %lu samples (seed %lu) of %d processes, %.1f frames per "
	       "call chain, in %zu functions of %d ELF files (%s ...); written in %.1f s\n",
	       (unsigned long)nsamples, (unsigned long)seed, NPROC,
	       (double)g.frames / (double)nsamples, nfn, nimg, imgs[0].path, now() - t0);
	if (!stat(log, &st))
		printf("# hwpmc log %s: %.1f MB\n", log, st.st_size / 1e6);
	if (!stat(data, &st))
		printf("# perf.data %s: %.1f MB\n", data, st.st_size / 1e6);
	if (only_gen)
		return 0;

	f = popen("perf --version 2>&1", "r");
	if (f) {
		if (fgets(ver, sizeof(ver), f))
			ver[strcspn(ver, "\n")] = 0;
		pclose(f);
	}
	setenv("DEBUGINFOD_URLS", "", 1);	/* no network lookups */
	out = path_in(dir, "out.txt");
	err = path_in(dir, "err.txt");
	gout = path_in(dir, "graph-hwpmc.txt");
	fout = path_in(dir, "folded-hwpmc.txt");
	hflat = path_in(dir, "flat-hwpmc.txt");
	pflat = path_in(dir, "flat-perf.txt");
	hgraph = path_in(dir, "graph-hwpmc.txt");
	pgraph = path_in(dir, "graph-perf.txt");
	{
		char *h_flat[] = { (char *)statbin, "-R", log, NULL };
		char *h_graph[] = { (char *)statbin, "-R", log, "--graph", gout, NULL };
		char *h_fold[] = { (char *)statbin, "-R", log, "--folded", fout, NULL };
		char *p_flat[] = { (char *)perf, "report", "--stdio", "-i", data,
				   "--sort", "sym", "-g", "none", "--no-children", NULL };
		char *p_graph[] = { (char *)perf, "report", "--stdio", "-i", data,
				    "--sort", "sym", "-g", NULL };

		printf("# %s; hwpmc-stat: %s\n", ver, statbin);
		printf("# flat:  hwpmc-stat -R hwpmc.log  vs  perf report --stdio -i perf.data --sort sym -g none --no-children\n");
		printf("# graph: hwpmc-stat -R hwpmc.log --graph FILE  vs  perf report --stdio -i perf.data --sort sym -g\n");
		printf("# folded stacks: hwpmc-stat -R hwpmc.log --folded FILE, alone\n");
		/* the profiles first: the same samples must give the same */
		run_cmd(h_flat, NULL, hflat, err);
		run_cmd(p_flat, NULL, pflat, err);
		nfailed += compare("flat profiles", hflat, pflat, 0);
		run_cmd(h_graph, NULL, out, err);
		run_cmd(p_graph, NULL, pgraph, err);
		nfailed += compare("call graphs", hgraph, pgraph, 1);
		fflush(stdout);
		/* then the repetitions, alternating which tool goes first */
		for (r = 0; r < reps; r++)
			for (i = 0; i < 2; i++) {
				if ((r + i) % 2 == 0) {
					timed(h_flat, out, err, &hf[r], &hfm[r]);
					timed(h_graph, out, err, &hg[r], &hgm[r]);
					timed(h_fold, out, err, &hs[r], &hsm[r]);
				} else {
					timed(p_flat, out, err, &pf[r], &pfm[r]);
					timed(p_graph, out, err, &pg[r], &pgm[r]);
				}
			}
	}
	printf("# %d repetitions\n", reps);
	ratio[0] = result("report flat profile: time", "s", hf, pf, reps);
	ratio[1] = result("report flat profile: peak RSS", "MB", hfm, pfm, reps);
	ratio[2] = result("report call graph: time", "s", hg, pg, reps);
	ratio[3] = result("report call graph: peak RSS", "MB", hgm, pgm, reps);
	result1("report folded stacks: time", "s", hs, reps);
	result1("report folded stacks: peak RSS", "MB", hsm, reps);
	if (!quick)
		printf("# target hwpmc/perf <= 0.5: flat time %s, flat memory %s, "
		       "graph time %s, graph memory %s\n",
		       ratio[0] <= 0.5 ? "met" : "MISSED", ratio[1] <= 0.5 ? "met" : "MISSED",
		       ratio[2] <= 0.5 ? "met" : "MISSED", ratio[3] <= 0.5 ? "met" : "MISSED");
	printf("bench: done, %d results%s\n", nresults, nfailed ? ", FAILED" : "");
	return nfailed ? 1 : 0;
}
