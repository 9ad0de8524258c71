// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat: addresses to functions.
 *
 * User addresses: the process's executable mappings (MAP_IN records:
 * start, end, file offset, path) give the file offset of the address;
 * the program headers of the ELF file (PT_LOAD: offset, vaddr) turn it
 * into the link-time address, whatever the load bias (PIE, shared
 * objects, prelinked or not); the symbol table names the function.
 * Kernel addresses: /proc/kallsyms of the machine the report runs on,
 * a module's functions with "[module]" as their object.
 *
 * The ELF files are read with elfutils' libdwfl (HWPMC_WITH_DW, the
 * default where libdw is found), one Dwfl per file whatever the
 * processes that map it.  It finds the symbol table: the file's .symtab,
 * else the one of its separate debug file, found by build-id
 * (DIR/.build-id/xx/rest.debug) or by .gnu_debuglink under the debug
 * directories (sym_debug_dir, then the file's own directory, .debug/,
 * /usr/lib/debug), or fetched by debuginfod when DEBUGINFOD_URLS is set;
 * else .gnu_debugdata (MiniDebugInfo), else .dynsym.  The functions are
 * copied into a sorted array (a million samples with their call chains
 * search it ten million times: a binary search over packed addresses,
 * not libdwfl's lookup), and the Dwfl is closed at once unless source
 * lines are wanted (sym_lines), whose DWARF it then reads on demand.
 * Without libdw (the static arm64 cross build: Debian ships no libdw for
 * the cross toolchain), a reader of its own: <elf.h> and mmap(), the
 * file's .symtab else .dynsym, ELF32 and ELF64 of either byte order.
 *
 * Names: C++ and Rust (legacy and v0) symbols are demangled with
 * libiberty (HWPMC_WITH_IBERTY: rust_demangle(), cplus_demangle_v3())
 * unless sym_demangle is 0.  Source lines (sym_lines): a function's
 * declaration, and per address (sym_srcline()) the instruction's line
 * and the functions inlined there.  JIT code: addresses in no file
 * mapping of a process (anonymous executable memory, MAP_IN "//anon")
 * are looked up in its /tmp/perf-PID.map ("START SIZE name" lines, hex),
 * the object "[jit]".  The vDSO: a mapping of "[vdso]" is resolved
 * against this system's vDSO (a copy of our own, at getauxval(AT_SYSINFO_EHDR)) when
 * the log's root is this system's.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef HWPMC_WITH_DW
#define HWPMC_WITH_DW 0
#endif
#ifndef HWPMC_WITH_IBERTY
#define HWPMC_WITH_IBERTY 0
#endif
#if HWPMC_WITH_DW
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#endif
#if HWPMC_WITH_IBERTY
#include <libiberty/demangle.h>
#endif

#include "pmcstat.h"

struct sym {
	uint64_t	addr, size;
	const char	*name;
	const char	*obj;		/* kernel: "[kernel]" or "[module]" */
	int		fid;		/* -1 until a sample falls in it */
};

struct seg {
	uint64_t	offset, filesz, vaddr;
	int		exec;		/* PF_X */
};

struct image {
	char		*path;
	const char	*base;		/* basename of path */
	int		ok;		/* an ELF file we could read */
	struct seg	*segs;
	size_t		nseg;
	char		*interp;	/* PT_INTERP's path, or NULL */
	struct sym	*syms;
	uint64_t	*addrs;		/* syms[i].addr, packed for the search */
	size_t		nsym;
	char		*strs;		/* names, copied */
	int		unknown_fid;
#if HWPMC_WITH_DW
	Dwfl		*dwfl;		/* kept with sym_lines only */
	Dwfl_Module	*mod;
	uint64_t	bias;		/* module address - link-time address */
#endif
	struct image	*next;
};

/* /tmp/perf-PID.map of a process */
struct jitmap {
	struct sym	*syms;
	uint64_t	*addrs;
	size_t		nsym;
	char		*strs;
	int		unknown_fid;
};

struct func *sym_funcs;
size_t sym_nfunc;
const char *sym_root = "";
const char *sym_kernel_path;
int sym_demangle = 1;
int sym_lines;
int sym_addrlines;
const char *sym_debug_dir;

static struct image *images;
static struct proc *procs[1024];
static struct sym *ksyms;
static uint64_t *kaddrs;
static size_t nksym;
static char *kstrs;
static int kloaded;		/* 1 loaded, -1 could not */
static int kused;		/* a kernel address was resolved */
static int kernel_unknown = -1, unknown = -1;
static char **owned;		/* strings made here, freed by sym_free() */
static size_t nowned, owned_room;
static char **kmods;		/* "[module]" names of kernel symbols */
static size_t nkmod, kmod_room;

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

static char *sym_strdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xrealloc(NULL, n), s, n);
}

static char *own(char *s)
{
	if (nowned == owned_room) {
		owned_room = owned_room ? owned_room * 2 : 64;
		owned = xrealloc(owned, owned_room * sizeof(*owned));
	}
	return owned[nowned++] = s;
}

/* name demangled (a string of ours), or NULL: not mangled, or not wanted */
static char *demangle(const char *name)
{
#if HWPMC_WITH_IBERTY
	char *d;

	if (!sym_demangle || name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	/*
	 * What cplus_demangle() does for C++ and Rust, without its object,
	 * which needs libiberty's xmalloc() (our xrealloc() clashes)
	 */
	d = rust_demangle(name, DMGL_PARAMS | DMGL_ANSI);
	if (!d && name[1] == 'Z')
		d = cplus_demangle_v3(name, DMGL_PARAMS | DMGL_ANSI);
	return d ? own(d) : NULL;
#else
	(void)name;
	return NULL;
#endif
}

/*
 * A new function: name (demangled here), its object, kernel or not, and
 * where its code starts in the source ("file:line", NULL: unknown).
 */
static int new_func(const char *name, const char *obj, int kernel,
		    const char *src)
{
	static size_t room;
	struct func *f;
	const char *d;
	char *s;
	size_t n;

	if (sym_nfunc == room) {
		room = room ? room * 2 : 256;
		sym_funcs = xrealloc(sym_funcs, room * sizeof(*sym_funcs));
	}
	f = &sym_funcs[sym_nfunc];
	memset(f, 0, sizeof(*f));
	f->unknown = !strcmp(name, "[unknown]");
	d = f->unknown ? NULL : demangle(name);
	f->name = d ? d : name;
	f->obj = obj;
	f->kernel = kernel;
	if (src) {
		f->src = own(sym_strdup(src));
		n = strlen(f->name) + strlen(src) + 4;
		s = own(xrealloc(NULL, n));
		snprintf(s, n, "%s (%s)", f->name, src);
		f->name = s;
	}
	return (int)sym_nfunc++;
}

/* -- symbol arrays ------------------------------------------------------------ */

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

/*
 * Kernel symbols: by address; at one address, the one listed first last
 * (find_sym() takes the last), with fid holding the order meanwhile.
 * /proc/kallsyms lists the modules' symbols before the names ftrace keeps
 * of modules' freed init functions, whose addresses a module loaded
 * later may have: the module's function wins.
 */
static int cmp_ksym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return y->fid > x->fid ? 1 : y->fid < x->fid ? -1 : 0;
}

/* A symbol table being read: its names copied into one buffer. */
struct symtab_build {
	struct sym	*syms;
	size_t		nsym, room;
	char		*strs;
	size_t		slen, sroom;
};

static void symtab_add(struct symtab_build *b, uint64_t addr, uint64_t size,
		       const char *name)
{
	size_t n = strlen(name) + 1;

	if (b->nsym == b->room) {
		b->room = b->room ? b->room * 2 : 1024;
		b->syms = xrealloc(b->syms, b->room * sizeof(*b->syms));
	}
	if (b->slen + n > b->sroom) {
		b->sroom = b->sroom ? b->sroom * 2 : 1 << 16;
		while (b->slen + n > b->sroom)
			b->sroom *= 2;
		b->strs = xrealloc(b->strs, b->sroom);
	}
	memcpy(b->strs + b->slen, name, n);
	/* the name's offset until the buffer stops moving */
	b->syms[b->nsym++] = (struct sym){
		.addr = addr, .size = size,
		.name = (const char *)(uintptr_t)b->slen, .fid = -1,
	};
	b->slen += n;
}

/* The names from offsets to pointers; the table sorted by address. */
static void symtab_done(struct symtab_build *b)
{
	size_t i;

	for (i = 0; i < b->nsym; i++)
		b->syms[i].name = b->strs + (uintptr_t)b->syms[i].name;
	if (b->nsym)
		qsort(b->syms, b->nsym, sizeof(*b->syms), cmp_sym);
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

#if HWPMC_WITH_DW
/* -- ELF files: libdwfl -------------------------------------------------------- */

static char *debug_path;	/* Dwfl_Callbacks.debuginfo_path */

static const Dwfl_Callbacks dw_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debug_path,
};

/*
 * Where separate debug files are looked for (libdwfl's format: absolute
 * directories hold .build-id/ and the debuglink names under the file's
 * own path; an empty entry is the file's directory, a relative one a
 * subdirectory of it): --debug-dir or $HWPMC_DEBUG_DIR first, the log's
 * root's /usr/lib/debug, then libdwfl's default.
 */
static void debug_path_init(void)
{
	const char *dir = sym_debug_dir ? sym_debug_dir : getenv("HWPMC_DEBUG_DIR");
	size_t n;

	if (debug_path)
		return;
	n = (dir ? strlen(dir) : 0) + strlen(sym_root) + 64;
	debug_path = xrealloc(NULL, n);
	snprintf(debug_path, n, "%s%s%s%s:.debug:/usr/lib/debug",
		 dir && *dir ? dir : "", dir && *dir ? ":" : "",
		 sym_root, *sym_root ? "/usr/lib/debug:" : "");
}

/* This system's vDSO, as a file of its own (a memfd), or -1. */
static int vdso_fd(void)
{
	const unsigned char *p = (const void *)getauxval(AT_SYSINFO_EHDR);
	unsigned long start, end;
	char line[512];
	FILE *maps;
	size_t len = 0;
	ssize_t w;
	int fd;

	if (!p || *sym_root)
		return -1;
	maps = fopen("/proc/self/maps", "re");
	if (!maps)
		return -1;
	while (fgets(line, sizeof(line), maps))
		if (strstr(line, "[vdso]") &&
		    sscanf(line, "%lx-%lx", &start, &end) == 2 &&
		    start == (unsigned long)p) {
			len = end - start;
			break;
		}
	fclose(maps);
	fd = len ? memfd_create("vdso", MFD_CLOEXEC) : -1;
	if (fd < 0)
		return -1;
	w = write(fd, p, len);
	if (w != (ssize_t)len) {
		close(fd);
		return -1;
	}
	return fd;
}

static void image_read(struct image *im)
{
	char path[PATH_MAX];
	struct symtab_build b = { 0 };
	size_t i, n, phnum;
	Dwarf_Addr bias;
	GElf_Phdr ph;
	Elf *elf;
	int fd = -1, nsyms;

	debug_path_init();
	if (!strcmp(im->path, "[vdso]")) {
		fd = vdso_fd();
		if (fd < 0)
			return;
	}
	snprintf(path, sizeof(path), "%s%s", sym_root, im->path);
	im->dwfl = dwfl_begin(&dw_callbacks);
	if (!im->dwfl)
		return;
	im->mod = dwfl_report_elf(im->dwfl, im->base, path, fd, 0, true);
	dwfl_report_end(im->dwfl, NULL, NULL);
	if (!im->mod) {
		/* with a module, dwfl_end() closes fd; without, it may be open */
		if (fd >= 0 && fcntl(fd, F_GETFD) != -1)
			close(fd);
		goto out;
	}
	elf = dwfl_module_getelf(im->mod, &bias);
	if (!elf || elf_getphdrnum(elf, &phnum))
		goto out;
	im->bias = bias;

	/* PT_LOAD segments: file offset to link-time address */
	im->segs = xrealloc(NULL, (phnum ? phnum : 1) * sizeof(*im->segs));
	for (i = 0; i < phnum; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph))
			continue;
		if (ph.p_type == PT_INTERP && !im->interp) {
			Elf_Data *d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset,
							   ph.p_filesz, ELF_T_BYTE);

			if (d && d->d_size && memchr(d->d_buf, 0, d->d_size))
				im->interp = sym_strdup(d->d_buf);
		}
		if (ph.p_type != PT_LOAD)
			continue;
		im->segs[im->nseg].offset = ph.p_offset;
		im->segs[im->nseg].filesz = ph.p_filesz;
		im->segs[im->nseg].vaddr = ph.p_vaddr;
		im->segs[im->nseg].exec = !!(ph.p_flags & PF_X);
		im->nseg++;
	}

	/* the function symbols, wherever libdwfl found them */
	nsyms = dwfl_module_getsymtab(im->mod);
	for (i = 1; nsyms > 0 && i < (size_t)nsyms; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		const char *name;
		int type;

		name = dwfl_module_getsym_info(im->mod, (int)i, &sym, &addr,
					       &shndx, NULL, NULL);
		if (!name || !*name)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    shndx == SHN_UNDEF || !sym.st_value)
			continue;
		symtab_add(&b, addr - bias, sym.st_size, name);
	}
	symtab_done(&b);
	im->syms = b.syms;
	im->nsym = b.nsym;
	im->strs = b.strs;
	if (im->nsym) {
		/* aliases: keep the first (largest) of each address */
		for (i = n = 0; i < im->nsym; i++)
			if (!n || im->syms[n - 1].addr != im->syms[i].addr)
				im->syms[n++] = im->syms[i];
		im->nsym = n;
		im->addrs = pack_addrs(im->syms, n);
	}
	im->ok = 1;
out:
	if (!(sym_lines || sym_addrlines) || !im->ok) {
		dwfl_end(im->dwfl);
		im->dwfl = NULL;
		im->mod = NULL;
	}
}

/*
 * "file:line" of the function at link-time address va, or NULL: where
 * DWARF declares the function (the subprogram around va), else the line
 * of the instruction at va.
 */
static const char *image_srcline(struct image *im, uint64_t va, char *buf,
				 size_t len)
{
	Dwarf_Addr a = va + im->bias, cubias;
	Dwarf_Die *cu, *scopes = NULL;
	const char *file = NULL, *b;
	Dwfl_Line *l;
	int line = 0, n, i;

	if (!im->mod)
		return NULL;
	cu = dwfl_module_addrdie(im->mod, a, &cubias);
	n = cu ? dwarf_getscopes(cu, a - cubias, &scopes) : 0;
	for (i = 0; i < n; i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) {
			file = dwarf_decl_file(&scopes[i]);
			if (file && (dwarf_decl_line(&scopes[i], &line) || line <= 0))
				file = NULL;
			break;
		}
	free(scopes);
	if (!file) {
		l = dwfl_module_getsrc(im->mod, a);
		file = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
	}
	if (!file || line <= 0)
		return NULL;
	b = strrchr(file, '/');
	snprintf(buf, len, "%s:%d", b ? b + 1 : file, line);
	return buf;
}

/* the basename of a source file's path */
static const char *src_base(const char *file)
{
	const char *b = strrchr(file, '/');

	return b ? b + 1 : file;
}

/*
 * "file:line" of the instruction at link-time address va, then, for each
 * function inlined there, innermost first, " in NAME inlined at
 * file:line"; NULL: no line known.
 */
static const char *image_addrline(struct image *im, uint64_t va, char *buf,
				  size_t len)
{
	Dwarf_Addr a = va + im->bias, cubias;
	Dwarf_Die *cu, *scopes = NULL;
	Dwarf_Files *files;
	Dwarf_Attribute at;
	Dwarf_Word fileno, cline;
	const char *file, *name, *cfile;
	Dwfl_Line *l;
	size_t at_len;
	int line = 0, n, i;

	if (!im->mod)
		return NULL;
	l = dwfl_module_getsrc(im->mod, a);
	file = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
	if (!file || line <= 0)
		return NULL;
	at_len = (size_t)snprintf(buf, len, "%s:%d", src_base(file), line);
	cu = dwfl_module_addrdie(im->mod, a, &cubias);
	n = cu ? dwarf_getscopes(cu, a - cubias, &scopes) : 0;
	for (i = 0; i < n && at_len < len; i++) {
		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		name = dwarf_diename(&scopes[i]);
		cfile = NULL;
		cline = 0;
		if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &at), &fileno) == 0 &&
		    dwarf_getsrcfiles(cu, &files, NULL) == 0)
			cfile = dwarf_filesrc(files, fileno, NULL, NULL);
		if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &at), &cline))
			cline = 0;
		at_len += (size_t)snprintf(buf + at_len, len - at_len,
					   " in %s inlined at %s:%u",
					   name ? name : "?",
					   cfile ? src_base(cfile) : "?",
					   (unsigned)cline);
	}
	free(scopes);
	return buf;
}

/*
 * The Dwfl of im, opened again for --annotate when it was closed (no
 * sym_lines); 0, or -1: the file cannot be read.
 */
static int image_dwfl(struct image *im)
{
	char path[PATH_MAX];
	Dwarf_Addr bias;
	int fd = -1;

	if (im->mod)
		return 0;
	if (!im->ok)
		return -1;
	if (!strcmp(im->path, "[vdso]")) {
		fd = vdso_fd();
		if (fd < 0)
			return -1;
	}
	snprintf(path, sizeof(path), "%s%s", sym_root, im->path);
	im->dwfl = dwfl_begin(&dw_callbacks);
	if (!im->dwfl) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	im->mod = dwfl_report_elf(im->dwfl, im->base, path, fd, 0, true);
	dwfl_report_end(im->dwfl, NULL, NULL);
	if (!im->mod || !dwfl_module_getelf(im->mod, &bias)) {
		if (!im->mod && fd >= 0 && fcntl(fd, F_GETFD) != -1)
			close(fd);
		dwfl_end(im->dwfl);
		im->dwfl = NULL;
		im->mod = NULL;
		return -1;
	}
	im->bias = bias;
	return 0;
}

int sym_image_code(struct image *im, uint64_t va, uint64_t size,
		   const unsigned char **bytes, int *machine, int *msb)
{
	Dwarf_Addr bias;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Scn *scn = NULL;
	Elf_Data *d;
	Elf *elf;

	if (image_dwfl(im) < 0)
		return -1;
	elf = dwfl_module_getelf(im->mod, &bias);
	if (!elf || !gelf_getehdr(elf, &eh))
		return -1;
	*machine = eh.e_machine;
	*msb = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	/* the code, from the section that holds it (link-time addresses) */
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || va < sh.sh_addr ||
		    va - sh.sh_addr >= sh.sh_size)
			continue;
		if (size > sh.sh_size - (va - sh.sh_addr))
			return -1;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || d->d_size < sh.sh_size)
			return -1;
		*bytes = (const unsigned char *)d->d_buf + (va - sh.sh_addr);
		return 0;
	}
	return -1;
}

const char *sym_image_line(struct image *im, uint64_t va, int *line,
			   char *buf, size_t len)
{
	const char *file, *dir;
	Dwfl_Line *l;

	*line = 0;
	if (image_dwfl(im) < 0)
		return NULL;
	l = dwfl_module_getsrc(im->mod, va + im->bias);
	file = l ? dwfl_lineinfo(l, NULL, line, NULL, NULL, NULL) : NULL;
	if (!file || *line <= 0)
		return NULL;
	/* a relative path: of the compilation's directory */
	dir = file[0] != '/' ? dwfl_line_comp_dir(l) : NULL;
	snprintf(buf, len, "%s%s%s", dir ? dir : "", dir ? "/" : "", file);
	return buf;
}
#else
/* -- ELF files: a reader of our own (no libdw) ------------------------------- */

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
			im->syms[im->nsym].obj = NULL;
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

		uint64_t type, off, sz;

		if (h < p || h + phentsize > p + e.len)
			break;
		type = F(&e, h, Elf32_Phdr, Elf64_Phdr, p_type);
		off = F(&e, h, Elf32_Phdr, Elf64_Phdr, p_offset);
		sz = F(&e, h, Elf32_Phdr, Elf64_Phdr, p_filesz);
		if (type == PT_INTERP && !im->interp && sz && off < e.len &&
		    sz <= e.len - off && memchr(p + off, 0, sz))
			im->interp = sym_strdup((const char *)p + off);
		if (type != PT_LOAD)
			continue;
		im->segs[im->nseg].offset = off;
		im->segs[im->nseg].filesz = sz;
		im->segs[im->nseg].vaddr = F(&e, h, Elf32_Phdr, Elf64_Phdr, p_vaddr);
		im->segs[im->nseg].exec =
			!!(F(&e, h, Elf32_Phdr, Elf64_Phdr, p_flags) & PF_X);
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


static const char *image_srcline(struct image *im, uint64_t va, char *buf,
				 size_t len)
{
	(void)im, (void)va, (void)buf, (void)len;
	return NULL;
}

static const char *image_addrline(struct image *im, uint64_t va, char *buf,
				  size_t len)
{
	return image_srcline(im, va, buf, len);
}

int sym_image_code(struct image *im, uint64_t va, uint64_t size,
		   const unsigned char **bytes, int *machine, int *msb)
{
	(void)im, (void)va, (void)size, (void)bytes, (void)machine, (void)msb;
	return -1;
}

const char *sym_image_line(struct image *im, uint64_t va, int *line,
			   char *buf, size_t len)
{
	(void)im, (void)va, (void)buf, (void)len;
	*line = 0;
	return NULL;
}
#endif /* HWPMC_WITH_DW */

static struct image *image_get(const char *path)
{
	struct image *im;
	const char *b;

	for (im = images; im; im = im->next)
		if (!strcmp(im->path, path))
			return im;
	im = xrealloc(NULL, sizeof(*im));
	memset(im, 0, sizeof(*im));
	im->path = sym_strdup(path);
	b = strrchr(im->path, '/');
	im->base = b ? b + 1 : im->path;
	im->unknown_fid = -1;
	image_read(im);
	im->next = images;
	images = im;
	return im;
}

/* the link-time address of pc in mapping m of image im; 0: none */
static int image_va(const struct image *im, const struct map *m, uint64_t pc,
		    uint64_t *va)
{
	uint64_t off = pc - m->start + m->pgoff;
	size_t i;

	for (i = 0; i < im->nseg; i++)
		if (off >= im->segs[i].offset &&
		    off - im->segs[i].offset < im->segs[i].filesz) {
			*va = off - im->segs[i].offset + im->segs[i].vaddr;
			return 1;
		}
	return 0;
}

static int image_resolve(struct image *im, const struct map *m, uint64_t pc)
{
	struct sym *s = NULL;
	uint64_t va;

	if (image_va(im, m, pc, &va))
		s = find_sym(im->syms, im->addrs, im->nsym, va);
	if (!s) {
		if (im->unknown_fid < 0) {
			im->unknown_fid = new_func("[unknown]", im->base, 0, NULL);
			sym_funcs[im->unknown_fid].path = im->path;
		}
		return im->unknown_fid;
	}
	if (s->fid < 0) {
		char buf[PATH_MAX + 32];

		s->fid = new_func(s->name, im->base, 0, sym_lines ?
				  image_srcline(im, s->addr, buf, sizeof(buf)) : NULL);
		sym_funcs[s->fid].path = im->path;
	}
	return s->fid;
}

/* -- --annotate: the functions of the images ------------------------------------ */

struct image *sym_images(struct image *prev)
{
	return prev ? prev->next : images;
}

const char *sym_image_path(const struct image *im)
{
	return im->path;
}

const char *sym_image_base(const struct image *im)
{
	return im->base;
}

size_t sym_image_nfunc(const struct image *im)
{
	return im->nsym;
}

/*
 * Function i of im (by address): its symbol's name as it is, link-time
 * address and size (a symbol of no size: up to the next one).
 */
void sym_image_func(const struct image *im, size_t i, const char **name,
		    uint64_t *addr, uint64_t *size)
{
	const struct sym *s = &im->syms[i];

	*name = s->name;
	*addr = s->addr;
	*size = s->size;
	if (!*size && i + 1 < im->nsym)
		*size = im->syms[i + 1].addr - s->addr;
}

const char *sym_demangled(const char *raw)
{
	const char *d = demangle(raw);

	return d ? d : raw;
}

struct image *sym_pc_image(struct proc *p, uint64_t pc, uint64_t *va)
{
	size_t i;

	if (!p || sym_is_kernel(pc))
		return NULL;
	/* the mapping sym_resolve_proc() found last, likely this one */
	i = p->hint;
	if (!(i < p->nmap && pc >= p->maps[i].start && pc < p->maps[i].end))
		for (i = 0; i < p->nmap; i++)
			if (pc >= p->maps[i].start && pc < p->maps[i].end)
				break;
	if (i == p->nmap)
		return NULL;
	return p->maps[i].img->ok && image_va(p->maps[i].img, &p->maps[i], pc, va) ?
	       p->maps[i].img : NULL;
}

/* -- kernel ------------------------------------------------------------------ */

int sym_is_kernel(uint64_t pc)
{
	/* x86-64 and arm64 kernels live in the top half of the space */
	return sizeof(long) == 8 ? pc >= 0xffff000000000000ULL :
				   pc >= 0xc0000000ULL;
}

/* "[module]", one string per module */
static const char *kmod_name(const char *mod)
{
	size_t i;

	for (i = 0; i < nkmod; i++)
		if (!strcmp(kmods[i], mod))
			return kmods[i];
	if (nkmod == kmod_room) {
		kmod_room = kmod_room ? kmod_room * 2 : 64;
		kmods = xrealloc(kmods, kmod_room * sizeof(*kmods));
	}
	return kmods[nkmod++] = sym_strdup(mod);
}

/*
 * Where kernel symbols are read: sym_kernel_path, a file, or a directory
 * holding "kallsyms" (a copy of a machine's /proc/kallsyms) or
 * "System.map"; else /proc/kallsyms.  NULL: none found.
 */
static FILE *kernel_syms(char *path, size_t len)
{
	static const char *const names[] = { "kallsyms", "System.map" };
	struct stat st;
	size_t i;
	FILE *f;

	if (!sym_kernel_path) {
		snprintf(path, len, "/proc/kallsyms");
		return fopen(path, "re");
	}
	snprintf(path, len, "%s", sym_kernel_path);
	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return fopen(path, "re");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, len, "%s/%s", sym_kernel_path, names[i]);
		f = fopen(path, "re");
		if (f)
			return f;
	}
	snprintf(path, len, "%s/kallsyms or System.map", sym_kernel_path);
	return NULL;
}

int sym_kernel_load(const char **why)
{
	static char msg[PATH_MAX + 128];
	size_t room = 0, sroom = 0, slen = 0, i;
	char line[512], name[256], mod[128], path[PATH_MAX];
	unsigned long long a;
	char t;
	FILE *f;
	int nonzero = 0;

	if (kloaded) {
		*why = kloaded > 0 ? NULL : msg;
		return kloaded > 0;
	}
	kloaded = -1;
	f = kernel_syms(path, sizeof(path));
	if (!sym_kernel_path)
		snprintf(msg, sizeof(msg), "no kernel symbols (/proc/kallsyms unreadable or addresses hidden: kernel.kptr_restrict)");
	else
		snprintf(msg, sizeof(msg), "no kernel symbols (%s: %s)", path,
			 f ? "no function with an address" : strerror(errno));
	*why = msg;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		mod[0] = 0;
		if (sscanf(line, "%llx %c %255s %127s", &a, &t, name, mod) < 3)
			continue;
		if (t != 't' && t != 'T' && t != 'w' && t != 'W')
			continue;
		/* arm64's mapping symbols ($x, $d): no function's name */
		if (name[0] == '$')
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
		ksyms[nksym].obj = mod[0] == '[' ? kmod_name(mod) : "[kernel]";
		ksyms[nksym].fid = (int)nksym;	/* cmp_ksym()'s order */
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
	qsort(ksyms, nksym, sizeof(*ksyms), cmp_ksym);
	for (i = 0; i < nksym; i++)
		ksyms[i].fid = -1;
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

	p->gen++;
	/* a mapping replaced (mprotect, a new mmap over it) */
	for (i = 0; i < p->nmap; i++)
		if (p->maps[i].start < end && start < p->maps[i].end) {
			p->maps[i] = p->maps[--p->nmap];
			i--;
		}
	/* anonymous code: resolved by the process's perf map (JIT) */
	if (!strcmp(path, "//anon"))
		return;
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

/*
 * The executable segments of the ELF file at path, loaded with the
 * relocation bias, as mappings of p (what its MAP_IN records say, when
 * they come); the file's image.
 */
static struct image *exec_maps(struct proc *p, const char *path,
			       uint64_t bias)
{
	struct image *im = image_get(path);
	const struct seg *s;
	size_t i;

	for (i = 0; im->ok && i < im->nseg; i++) {
		s = &im->segs[i];
		if (s->exec && s->filesz)
			sym_map_in(p->pid, bias + s->vaddr,
				   bias + s->vaddr + s->filesz, s->offset, path);
	}
	return im;
}

/*
 * PROCEXEC: the process forgets its mappings.  With the addresses (the
 * program's relocation dynaddr, its dynamic linker's base baseaddr), the
 * program and its linker are mapped from their program headers already,
 * so that their samples resolve also when their MAP_IN records were lost
 * (the MAP_INs that follow replace these).
 */
void sym_exec(pid_t pid, const char *path, uint64_t baseaddr,
	      uint64_t dynaddr)
{
	struct proc *p = sym_proc(pid, 1);
	const char *b = strrchr(path, '/');
	struct image *im;

	p->nmap = 0;
	p->gen++;
	if (!*path)
		return;
	free(p->comm);
	p->comm = sym_strdup(b ? b + 1 : path);
	if (*path != '/')
		return;
	im = exec_maps(p, path, dynaddr);
	if (im->ok && im->interp && baseaddr != dynaddr)
		exec_maps(p, im->interp, baseaddr);
}

void sym_fork(pid_t parent, pid_t child)
{
	struct proc *pp = sym_proc(parent, 0), *c;

	if (!pp || parent == child)
		return;
	c = sym_proc(child, 1);
	free(c->comm);
	c->comm = pp->comm ? sym_strdup(pp->comm) : NULL;
	c->nmap = c->room = pp->nmap;
	c->gen++;
	free(c->maps);
	c->maps = xrealloc(NULL, (c->room ? c->room : 1) * sizeof(*c->maps));
	if (pp->nmap)
		memcpy(c->maps, pp->maps, pp->nmap * sizeof(*c->maps));
}

int sym_kernel_used(void)
{
	return kused;
}

/* -- JIT code: /tmp/perf-PID.map ------------------------------------------------- */

/* The perf map of process pid ("START SIZE name", hex), or NULL: none. */
static struct jitmap *jit_read(pid_t pid)
{
	struct symtab_build b = { 0 };
	unsigned long long start, size;
	char path[PATH_MAX], *line = NULL, *e, *name;
	struct jitmap *j;
	size_t cap = 0;
	ssize_t len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tmp/perf-%d.map", sym_root, (int)pid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	j = xrealloc(NULL, sizeof(*j));
	memset(j, 0, sizeof(*j));
	j->unknown_fid = -1;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = 0;
		errno = 0;
		start = strtoull(line, &e, 16);
		if (errno || e == line || (*e != ' ' && *e != '\t'))
			continue;
		name = e;
		size = strtoull(name, &e, 16);
		if (errno || e == name || (*e != ' ' && *e != '\t'))
			continue;
		name = e + strspn(e, " \t");
		if (!*name || !size)
			continue;
		symtab_add(&b, start, size, name);
	}
	free(line);
	fclose(f);
	symtab_done(&b);
	j->syms = b.syms;
	j->nsym = b.nsym;
	j->strs = b.strs;
	j->addrs = pack_addrs(j->syms, j->nsym);
	return j;
}

static int jit_resolve(struct jitmap *j, uint64_t pc)
{
	struct sym *s = find_sym(j->syms, j->addrs, j->nsym, pc);

	if (!s) {
		if (j->unknown_fid < 0)
			j->unknown_fid = new_func("[unknown]", "[jit]", 0, NULL);
		return j->unknown_fid;
	}
	if (s->fid < 0)
		s->fid = new_func(s->name, "[jit]", 0, NULL);
	return s->fid;
}

static void jit_free(struct jitmap *j)
{
	if (!j)
		return;
	free(j->syms);
	free(j->addrs);
	free(j->strs);
	free(j);
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
				kernel_unknown = new_func("[unknown]", "[kernel]", 1, NULL);
			return kernel_unknown;
		}
		if (s->fid < 0)
			s->fid = new_func(s->name, s->obj, 1, NULL);
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
		/* in no file: code a JIT compiler described */
		if (!p->jit_read) {
			p->jit_read = 1;
			p->jit = jit_read(p->pid);
		}
		if (p->jit)
			return jit_resolve(p->jit, pc);
	}
	if (unknown < 0)
		unknown = new_func("[unknown]", "[unknown]", 0, NULL);
	return unknown;
}

const char *sym_srcline(struct proc *p, uint64_t pc, char *buf, size_t len)
{
	uint64_t va;
	size_t i;

	if (!(sym_lines || sym_addrlines) || !p || sym_is_kernel(pc))
		return NULL;
	for (i = 0; i < p->nmap; i++)
		if (pc >= p->maps[i].start && pc < p->maps[i].end)
			return image_va(p->maps[i].img, &p->maps[i], pc, &va) ?
			       image_addrline(p->maps[i].img, va, buf, len) : NULL;
	return NULL;
}

/* the end of symbol s of sorted syms[0..n): its size, else the next one */
static uint64_t sym_end(const struct sym *syms, size_t n, const struct sym *s)
{
	if (s->size)
		return s->addr + s->size;
	return s + 1 < syms + n ? s[1].addr : s->addr;
}

int sym_range(struct proc *p, uint64_t pc, uint64_t *start, uint64_t *end)
{
	const struct sym *s = NULL;
	const char *why;
	uint64_t va;
	size_t i;

	if (sym_is_kernel(pc)) {
		if (sym_kernel_load(&why) &&
		    (s = find_sym(ksyms, kaddrs, nksym, pc))) {
			*start = s->addr;
			*end = sym_end(ksyms, nksym, s);
			return 0;
		}
		return -1;
	}
	if (!p)
		return -1;
	for (i = 0; i < p->nmap; i++) {
		struct image *im = p->maps[i].img;

		if (pc < p->maps[i].start || pc >= p->maps[i].end)
			continue;
		if (!image_va(im, &p->maps[i], pc, &va) ||
		    !(s = find_sym(im->syms, im->addrs, im->nsym, va)))
			return -1;
		*start = s->addr;
		*end = sym_end(im->syms, im->nsym, s);
		return 0;
	}
	if (p->jit && (s = find_sym(p->jit->syms, p->jit->addrs, p->jit->nsym, pc))) {
		*start = s->addr;
		*end = sym_end(p->jit->syms, p->jit->nsym, s);
		return 0;
	}
	return -1;
}

const char *sym_image_va(struct proc *p, uint64_t pc, uint64_t *va)
{
	size_t i;

	if (!p || sym_is_kernel(pc))
		return NULL;
	for (i = 0; i < p->nmap; i++)
		if (pc >= p->maps[i].start && pc < p->maps[i].end)
			return p->maps[i].img->ok &&
			       image_va(p->maps[i].img, &p->maps[i], pc, va) ?
			       p->maps[i].img->path : NULL;
	return NULL;
}

/* -A, -I: the functions made of addresses, by object and address */
struct addrfunc {
	const char	*obj;		/* NULL: a free slot */
	uint64_t	addr;
	int		fid;
};

static struct addrfunc *afuncs;
static size_t nafunc, afunc_room;

static size_t afunc_slot(const struct addrfunc *v, size_t room,
			 const char *obj, uint64_t addr)
{
	uint64_t h = (addr ^ (uint64_t)(uintptr_t)obj) * 0x9e3779b97f4a7c15ULL;
	size_t i = (size_t)(h >> 32) & (room - 1);

	while (v[i].obj && (v[i].obj != obj || v[i].addr != addr))
		i = (i + 1) & (room - 1);
	return i;
}

int sym_addr_func(struct proc *p, uint64_t pc, uint64_t lookup, int fid,
		  int offsets)
{
	const struct func *f = &sym_funcs[fid];
	uint64_t addr = pc, start, end, va;
	char name[600];
	size_t i, j;

	/* a user address: the link-time one, as in its file */
	if (p && !f->kernel) {
		for (i = 0; i < p->nmap; i++)
			if (lookup >= p->maps[i].start && lookup < p->maps[i].end) {
				if (image_va(p->maps[i].img, &p->maps[i], lookup, &va))
					addr = va + (pc - lookup);
				break;
			}
	}
	if (nafunc * 2 >= afunc_room) {
		struct addrfunc *old = afuncs;
		size_t room = afunc_room;

		afunc_room = room ? room * 2 : 1024;
		afuncs = xrealloc(NULL, afunc_room * sizeof(*afuncs));
		memset(afuncs, 0, afunc_room * sizeof(*afuncs));
		for (j = 0; j < room; j++)
			if (old[j].obj)
				afuncs[afunc_slot(afuncs, afunc_room, old[j].obj,
						  old[j].addr)] = old[j];
		free(old);
	}
	i = afunc_slot(afuncs, afunc_room, f->obj, addr);
	if (afuncs[i].obj)
		return afuncs[i].fid;
	if (offsets && !f->unknown && sym_range(p, lookup, &start, &end) == 0)
		snprintf(name, sizeof(name), "%.500s+%#" PRIx64, f->name,
			 (f->kernel ? pc : addr) - start);
	else
		snprintf(name, sizeof(name), "%#" PRIx64, addr);
	afuncs[i].obj = f->obj;
	afuncs[i].addr = addr;
	afuncs[i].fid = new_func(own(sym_strdup(name)), f->obj, f->kernel, NULL);
	sym_funcs[afuncs[i].fid].path = sym_funcs[fid].path;
	nafunc++;
	return afuncs[i].fid;
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
			jit_free(p->jit);
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
	size_t i;

	sym_reset_procs();
	for (im = images; im; im = n) {
		n = im->next;
		free(im->path);
		free(im->interp);
		free(im->segs);
		free(im->syms);
		free(im->addrs);
		free(im->strs);
#if HWPMC_WITH_DW
		dwfl_end(im->dwfl);
#endif
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
	free(afuncs);
	afuncs = NULL;
	nafunc = afunc_room = 0;
	kernel_unknown = unknown = -1;
	for (i = 0; i < nowned; i++)
		free(owned[i]);
	free(owned);
	owned = NULL;
	nowned = owned_room = 0;
	for (i = 0; i < nkmod; i++)
		free(kmods[i]);
	free(kmods);
	kmods = NULL;
	nkmod = kmod_room = 0;
#if HWPMC_WITH_DW
	free(debug_path);
	debug_path = NULL;
#endif
}
