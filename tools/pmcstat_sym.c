// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat: addresses to functions.
 *
 * User addresses: the process's executable mappings (MAP_IN records:
 * start, end, file offset, path) give the file offset of the address;
 * the program headers of the ELF file (PT_LOAD: offset, vaddr) turn it
 * into the link-time address, whatever the load bias (PIE, shared
 * objects, prelinked or not); the symbol table (.symtab, else .dynsym)
 * names the function.  Kernel addresses: /proc/kallsyms of the machine
 * the report runs on.
 *
 * The ELF files are read with <elf.h> and mmap() rather than libelf:
 * the arm64 userland is linked statically with the cross toolchain, for
 * which Debian ships no libelf (libelf-dev:arm64 pulls in a second,
 * multiarch libc6-dev).  ELF32 and ELF64 of either byte order are read.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmcstat.h"

struct sym {
	uint64_t	addr, size;
	const char	*name;
	int		fid;		/* -1 until a sample falls in it */
};

struct seg {
	uint64_t	offset, filesz, vaddr;
};

struct image {
	char		*path;
	const char	*base;		/* basename of path */
	int		ok;		/* an ELF file we could read */
	struct seg	*segs;
	size_t		nseg;
	struct sym	*syms;
	uint64_t	*addrs;		/* syms[i].addr, packed for the search */
	size_t		nsym;
	char		*strs;		/* names, copied */
	int		unknown_fid;
	struct image	*next;
};

struct func *sym_funcs;
size_t sym_nfunc;
const char *sym_root = "";

static struct image *images;
static struct proc *procs[1024];
static struct sym *ksyms;
static uint64_t *kaddrs;
static size_t nksym;
static char *kstrs;
static int kloaded;		/* 1 loaded, -1 could not */
static int kused;		/* a kernel address was resolved */
static int kernel_unknown = -1, unknown = -1;

/* realloc() or exit; shared with pmcstat_report.c (pmcstat.h) */
void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "hwpmc-stat: out of memory\n");
		exit(1);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xrealloc(NULL, n), s, n);
}

static int new_func(const char *name, const char *obj)
{
	static size_t room;

	if (sym_nfunc == room) {
		room = room ? room * 2 : 256;
		sym_funcs = xrealloc(sym_funcs, room * sizeof(*sym_funcs));
	}
	memset(&sym_funcs[sym_nfunc], 0, sizeof(*sym_funcs));
	sym_funcs[sym_nfunc].name = name;
	sym_funcs[sym_nfunc].obj = obj;
	sym_funcs[sym_nfunc].unknown = !strcmp(name, "[unknown]");
	return (int)sym_nfunc++;
}

/* -- ELF files -------------------------------------------------------------- */

struct elf {
	const unsigned char *p;
	size_t		len;
	int		is64, msb;	/* ELFCLASS64, ELFDATA2MSB */
};

static uint64_t get(const struct elf *e, const void *at, int size)
{
	const unsigned char *b = at;
	uint64_t v = 0;
	int i;

	if (b < e->p || b + size > e->p + e->len)
		return 0;
	for (i = 0; i < size; i++)
		v = v << 8 | b[e->msb ? i : size - 1 - i];
	return v;
}

#define F(e, base, s32, s64, field)					\
	((e)->is64 ?							\
	 get(e, (base) + offsetof(s64, field), sizeof(((s64 *)0)->field)) : \
	 get(e, (base) + offsetof(s32, field), sizeof(((s32 *)0)->field)))

static uint64_t *pack_addrs(const struct sym *s, size_t n)
{
	uint64_t *v = xrealloc(NULL, (n ? n : 1) * sizeof(*v));
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = s[i].addr;
	return v;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return y->size > x->size ? 1 : y->size < x->size ? -1 : 0;
}

/* The function symbols of one symbol table section; count returned. */
static size_t read_symtab(struct image *im, const struct elf *e,
			  const unsigned char *sh, const unsigned char *shtab,
			  size_t shentsize, size_t shnum, int only_count,
			  size_t *strbytes)
{
	uint64_t off = F(e, sh, Elf32_Shdr, Elf64_Shdr, sh_offset);
	uint64_t size = F(e, sh, Elf32_Shdr, Elf64_Shdr, sh_size);
	uint64_t ent = F(e, sh, Elf32_Shdr, Elf64_Shdr, sh_entsize);
	uint64_t link = F(e, sh, Elf32_Shdr, Elf64_Shdr, sh_link);
	const unsigned char *str, *s;
	uint64_t stroff, strsize, i, nameoff;
	size_t n = 0, l;

	if (!ent || off > e->len || size > e->len - off || link >= shnum)
		return 0;
	str = shtab + link * shentsize;
	stroff = F(e, str, Elf32_Shdr, Elf64_Shdr, sh_offset);
	strsize = F(e, str, Elf32_Shdr, Elf64_Shdr, sh_size);
	if (stroff > e->len || strsize > e->len - stroff)
		return 0;
	for (i = 0; i < size / ent; i++) {
		unsigned info, type;
		uint64_t value, sz, shndx;

		s = e->p + off + i * ent;
		info = (unsigned)F(e, s, Elf32_Sym, Elf64_Sym, st_info);
		type = ELF64_ST_TYPE(info);
		shndx = F(e, s, Elf32_Sym, Elf64_Sym, st_shndx);
		value = F(e, s, Elf32_Sym, Elf64_Sym, st_value);
		sz = F(e, s, Elf32_Sym, Elf64_Sym, st_size);
		nameoff = F(e, s, Elf32_Sym, Elf64_Sym, st_name);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    shndx == SHN_UNDEF || !value || nameoff >= strsize)
			continue;
		l = strnlen((const char *)e->p + stroff + nameoff,
			    strsize - nameoff);
		if (!l || nameoff + l >= strsize)
			continue;
		if (only_count) {
			*strbytes += l + 1;
		} else {
			memcpy(im->strs + *strbytes, e->p + stroff + nameoff, l);
			im->strs[*strbytes + l] = 0;
			im->syms[im->nsym].addr = value;
			im->syms[im->nsym].size = sz;
			im->syms[im->nsym].name = im->strs + *strbytes;
			im->syms[im->nsym].fid = -1;
			im->nsym++;
			*strbytes += l + 1;
		}
		n++;
	}
	return n;
}

static void image_read(struct image *im)
{
	const unsigned char *p, *ph, *shtab, *sh, *best = NULL;
	size_t phentsize, phnum, shentsize, shnum, i, n, strbytes = 0;
	char path[PATH_MAX];
	struct stat st;
	struct elf e;
	int fd, pass;

	snprintf(path, sizeof(path), "%s%s", sym_root, im->path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || st.st_size < (off_t)sizeof(Elf32_Ehdr)) {
		close(fd);
		return;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return;
	e.p = p;
	e.len = (size_t)st.st_size;
	if (memcmp(p, ELFMAG, SELFMAG) ||
	    (p[EI_CLASS] != ELFCLASS32 && p[EI_CLASS] != ELFCLASS64) ||
	    (p[EI_DATA] != ELFDATA2LSB && p[EI_DATA] != ELFDATA2MSB))
		goto out;
	e.is64 = p[EI_CLASS] == ELFCLASS64;
	e.msb = p[EI_DATA] == ELFDATA2MSB;

	/* PT_LOAD segments: file offset to link-time address */
	ph = p + F(&e, p, Elf32_Ehdr, Elf64_Ehdr, e_phoff);
	phentsize = F(&e, p, Elf32_Ehdr, Elf64_Ehdr, e_phentsize);
	phnum = F(&e, p, Elf32_Ehdr, Elf64_Ehdr, e_phnum);
	im->segs = xrealloc(NULL, (phnum ? phnum : 1) * sizeof(*im->segs));
	for (i = 0; i < phnum && phentsize; i++) {
		const unsigned char *h = ph + i * phentsize;

		if (F(&e, h, Elf32_Phdr, Elf64_Phdr, p_type) != PT_LOAD)
			continue;
		im->segs[im->nseg].offset = F(&e, h, Elf32_Phdr, Elf64_Phdr, p_offset);
		im->segs[im->nseg].filesz = F(&e, h, Elf32_Phdr, Elf64_Phdr, p_filesz);
		im->segs[im->nseg].vaddr = F(&e, h, Elf32_Phdr, Elf64_Phdr, p_vaddr);
		im->nseg++;
	}

	/* .symtab, else .dynsym */
	shtab = p + F(&e, p, Elf32_Ehdr, Elf64_Ehdr, e_shoff);
	shentsize = F(&e, p, Elf32_Ehdr, Elf64_Ehdr, e_shentsize);
	shnum = F(&e, p, Elf32_Ehdr, Elf64_Ehdr, e_shnum);
	if (!shentsize || shtab < p || shtab > p + e.len)
		shnum = 0;
	for (pass = 0; pass < 2 && !best; pass++) {
		for (i = 0; i < shnum; i++) {
			uint64_t type;

			sh = shtab + i * shentsize;
			type = F(&e, sh, Elf32_Shdr, Elf64_Shdr, sh_type);
			if (type != (pass ? SHT_DYNSYM : SHT_SYMTAB))
				continue;
			n = read_symtab(im, &e, sh, shtab, shentsize, shnum, 1,
					&strbytes);
			if (n) {
				best = sh;
				break;
			}
		}
	}
	if (best) {
		im->syms = xrealloc(NULL, n * sizeof(*im->syms));
		im->strs = xrealloc(NULL, strbytes);
		strbytes = 0;
		read_symtab(im, &e, best, shtab, shentsize, shnum, 0, &strbytes);
		qsort(im->syms, im->nsym, sizeof(*im->syms), cmp_sym);
		/* aliases: keep the first (largest) of each address */
		for (i = n = 0; i < im->nsym; i++)
			if (!n || im->syms[n - 1].addr != im->syms[i].addr)
				im->syms[n++] = im->syms[i];
		im->nsym = n;
		im->addrs = pack_addrs(im->syms, n);
	}
	im->ok = 1;
out:
	munmap((void *)p, e.len);
}

static struct image *image_get(const char *path)
{
	struct image *im;
	const char *b;

	for (im = images; im; im = im->next)
		if (!strcmp(im->path, path))
			return im;
	im = xrealloc(NULL, sizeof(*im));
	memset(im, 0, sizeof(*im));
	im->path = xstrdup(path);
	b = strrchr(im->path, '/');
	im->base = b ? b + 1 : im->path;
	im->unknown_fid = -1;
	image_read(im);
	im->next = images;
	images = im;
	return im;
}

/*
 * The symbol at link-time address a, or NULL: the last of s[0..n) at or
 * below a (addrs: their addresses, packed: a million samples search
 * these arrays ten million times, for the call graph).
 */
static struct sym *find_sym(struct sym *s, const uint64_t *addrs, size_t n,
			    uint64_t a)
{
	size_t lo = 0, half;

	if (!n || addrs[0] > a)
		return NULL;
	while (n > 1) {
		half = n / 2;
		lo = addrs[lo + half] <= a ? lo + half : lo;
		n -= half;
	}
	s += lo;
	if (s->size && a >= s->addr + s->size)
		return NULL;
	return s;
}

static int image_resolve(struct image *im, const struct map *m, uint64_t pc)
{
	uint64_t off = pc - m->start + m->pgoff, va = pc;
	struct sym *s = NULL;
	size_t i;

	for (i = 0; i < im->nseg; i++)
		if (off >= im->segs[i].offset &&
		    off - im->segs[i].offset < im->segs[i].filesz) {
			va = off - im->segs[i].offset + im->segs[i].vaddr;
			break;
		}
	if (i < im->nseg)
		s = find_sym(im->syms, im->addrs, im->nsym, va);
	if (!s) {
		if (im->unknown_fid < 0)
			im->unknown_fid = new_func("[unknown]", im->base);
		return im->unknown_fid;
	}
	if (s->fid < 0)
		s->fid = new_func(s->name, im->base);
	return s->fid;
}

/* -- kernel ------------------------------------------------------------------ */

int sym_is_kernel(uint64_t pc)
{
	/* x86-64 and arm64 kernels live in the top half of the space */
	return sizeof(long) == 8 ? pc >= 0xffff000000000000ULL :
				   pc >= 0xc0000000ULL;
}

int sym_kernel_load(const char **why)
{
	size_t room = 0, sroom = 0, slen = 0, i;
	char line[512], name[256], mod[128];
	unsigned long long a;
	char t;
	FILE *f;
	int nonzero = 0;

	if (kloaded) {
		*why = kloaded > 0 ? NULL :
		       "no kernel symbols (/proc/kallsyms unreadable or addresses hidden: kernel.kptr_restrict)";
		return kloaded > 0;
	}
	kloaded = -1;
	*why = "no kernel symbols (/proc/kallsyms unreadable or addresses hidden: kernel.kptr_restrict)";
	f = fopen("/proc/kallsyms", "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		mod[0] = 0;
		if (sscanf(line, "%llx %c %255s %127s", &a, &t, name, mod) < 3)
			continue;
		if (t != 't' && t != 'T' && t != 'w' && t != 'W')
			continue;
		if (a)
			nonzero = 1;
		if (nksym == room) {
			room = room ? room * 2 : 4096;
			ksyms = xrealloc(ksyms, room * sizeof(*ksyms));
		}
		i = strlen(name) + 1;
		if (slen + i > sroom) {
			sroom = sroom ? sroom * 2 : 1 << 20;
			kstrs = xrealloc(kstrs, sroom);
		}
		memcpy(kstrs + slen, name, i);
		ksyms[nksym].addr = a;
		ksyms[nksym].size = 0;
		ksyms[nksym].name = (const char *)(uintptr_t)slen;
		ksyms[nksym].fid = -1;
		nksym++;
		slen += i;
	}
	fclose(f);
	if (!nonzero) {
		nksym = 0;
		return 0;
	}
	for (i = 0; i < nksym; i++)
		ksyms[i].name = kstrs + (uintptr_t)ksyms[i].name;
	qsort(ksyms, nksym, sizeof(*ksyms), cmp_sym);
	kaddrs = pack_addrs(ksyms, nksym);
	kloaded = 1;
	*why = NULL;
	return 1;
}

/* -- processes ---------------------------------------------------------------- */

struct proc *sym_proc(pid_t pid, int create)
{
	struct proc **b = &procs[(unsigned)pid % 1024], *p;

	for (p = *b; p; p = p->next)
		if (p->pid == pid)
			return p;
	if (!create)
		return NULL;
	p = xrealloc(NULL, sizeof(*p));
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->next = *b;
	*b = p;
	return p;
}

void sym_map_in(pid_t pid, uint64_t start, uint64_t end, uint64_t pgoff,
		const char *path)
{
	struct proc *p = sym_proc(pid, 1);
	size_t i;

	/* a mapping replaced (mprotect, a new mmap over it) */
	for (i = 0; i < p->nmap; i++)
		if (p->maps[i].start < end && start < p->maps[i].end) {
			p->maps[i] = p->maps[--p->nmap];
			i--;
		}
	if (p->nmap == p->room) {
		p->room = p->room ? p->room * 2 : 16;
		p->maps = xrealloc(p->maps, p->room * sizeof(*p->maps));
	}
	p->maps[p->nmap].start = start;
	p->maps[p->nmap].end = end;
	p->maps[p->nmap].pgoff = pgoff;
	p->maps[p->nmap].img = image_get(path);
	p->nmap++;
}

void sym_exec(pid_t pid, const char *path)
{
	struct proc *p = sym_proc(pid, 1);
	const char *b = strrchr(path, '/');

	p->nmap = 0;
	if (*path) {
		free(p->comm);
		p->comm = xstrdup(b ? b + 1 : path);
	}
}

void sym_fork(pid_t parent, pid_t child)
{
	struct proc *pp = sym_proc(parent, 0), *c;

	if (!pp || parent == child)
		return;
	c = sym_proc(child, 1);
	free(c->comm);
	c->comm = pp->comm ? xstrdup(pp->comm) : NULL;
	c->nmap = c->room = pp->nmap;
	free(c->maps);
	c->maps = xrealloc(NULL, (c->room ? c->room : 1) * sizeof(*c->maps));
	if (pp->nmap)
		memcpy(c->maps, pp->maps, pp->nmap * sizeof(*c->maps));
}

int sym_kernel_used(void)
{
	return kused;
}

int sym_resolve_proc(struct proc *p, uint64_t pc)
{
	const char *why;
	struct sym *s;
	size_t i;

	if (sym_is_kernel(pc)) {
		if (!kused) {
			kused = 1;
			sym_kernel_load(&why);
		}
		s = kloaded > 0 ? find_sym(ksyms, kaddrs, nksym, pc) : NULL;
		if (!s) {
			if (kernel_unknown < 0)
				kernel_unknown = new_func("[unknown]", "[kernel]");
			return kernel_unknown;
		}
		if (s->fid < 0)
			s->fid = new_func(s->name, "[kernel]");
		return s->fid;
	}
	if (p) {
		/* samples come in runs from the same object */
		i = p->hint;
		if (i < p->nmap && pc >= p->maps[i].start && pc < p->maps[i].end)
			return image_resolve(p->maps[i].img, &p->maps[i], pc);
		for (i = 0; i < p->nmap; i++)
			if (pc >= p->maps[i].start && pc < p->maps[i].end) {
				p->hint = i;
				return image_resolve(p->maps[i].img, &p->maps[i], pc);
			}
	}
	if (unknown < 0)
		unknown = new_func("[unknown]", "[unknown]");
	return unknown;
}

int sym_resolve(pid_t pid, uint64_t pc)
{
	return sym_resolve_proc(sym_proc(pid, 0), pc);
}

void sym_reset_procs(void)
{
	struct proc *p, *n;
	size_t b;

	for (b = 0; b < 1024; b++) {
		for (p = procs[b]; p; p = n) {
			n = p->next;
			free(p->maps);
			free(p->comm);
			free(p);
		}
		procs[b] = NULL;
	}
}

void sym_free(void)
{
	struct image *im, *n;

	sym_reset_procs();
	for (im = images; im; im = n) {
		n = im->next;
		free(im->path);
		free(im->segs);
		free(im->syms);
		free(im->addrs);
		free(im->strs);
		free(im);
	}
	images = NULL;
	free(ksyms);
	free(kaddrs);
	free(kstrs);
	ksyms = NULL;
	kaddrs = NULL;
	kstrs = NULL;
	nksym = 0;
	kloaded = 0;
	kused = 0;
	free(sym_funcs);
	sym_funcs = NULL;
	sym_nfunc = 0;
	kernel_unknown = unknown = -1;
}
