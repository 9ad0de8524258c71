/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hwpmc-stat: what its files share.  pmcstat_sym.c resolves addresses
 * (ELF images of mappings, kernel symbols); pmcstat_report.c reads a log
 * and writes the reports (dump, flat profile, call graph, pmcstat's call
 * chains and calltree, folded stacks, live top); pmcstat_flame.c (SVG
 * flame graph) and pmcstat_export.c (perf script text, pprof) write what
 * the folded stacks are made of;
 * pmcstat_annotate.c lists a function's instructions with their samples.
 */
#ifndef _HWPMC_PMCSTAT_H_
#define _HWPMC_PMCSTAT_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <pmc.h>		/* PMC_STACK_USER_MAX */

/* -- symbols ---------------------------------------------------------------- */

struct image;
struct jitmap;

/* A resolved function: what reports aggregate on (their counts are theirs). */
struct func {
	const char	*name;		/* symbol (demangled unless !sym_demangle;
					   with sym_lines, "name (file:line)"),
					   or "[unknown]" */
	const char	*obj;		/* basename of its file, "[kernel]",
					   "[module]", "[jit]", "[vdso]" */
	const char	*path;		/* its file's path (NULL: obj) */
	const char	*src;		/* with sym_lines: "file:line" of its
					   first instruction, NULL: unknown */
	int		unknown;	/* name is "[unknown]" */
	int		kernel;		/* of the kernel or a module */
	uint64_t	shown;		/* top mode: self at the last refresh */
};

/* One executable mapping of a process. */
struct map {
	uint64_t	start, end, pgoff;
	struct image	*img;
};

struct proc {
	pid_t		pid;
	char		*comm;		/* basename of its executable, or NULL */
	struct map	*maps;
	size_t		nmap, room;
	unsigned long	gen;		/* changes whenever maps do */
	size_t		hint;		/* the mapping found last */
	struct jitmap	*jit;		/* its /tmp/perf-PID.map */
	int		jit_read;	/* jit: looked for */
	struct proc	*next;		/* hash chain */
};

/* The function of address pc in process pid: an index into sym_funcs. */
int	sym_resolve(pid_t pid, uint64_t pc);
/* The same in process p (sym_proc(pid, 0); NULL: no mappings known). */
int	sym_resolve_proc(struct proc *p, uint64_t pc);
extern struct func *sym_funcs;
extern size_t sym_nfunc;

/*
 * With sym_lines: "file:line" of the instruction at pc in process p, then
 * for each function inlined there, innermost first, " in NAME inlined at
 * file:line"; written into buf.  NULL: not known (no DWARF, the kernel).
 */
const char *sym_srcline(struct proc *p, uint64_t pc, char *buf, size_t len);
/*
 * The symbol that holds pc in process p (resolved before: sym_resolve_proc):
 * its link-time address range [start, end) in its file, as objdump shows
 * it (kernel, JIT code: run-time addresses); 0, or -1 when none.
 */
int	sym_range(struct proc *p, uint64_t pc, uint64_t *start, uint64_t *end);
/*
 * pmcstat's -A and -I: for the address pc of process p, looked up at
 * lookup (pc - 1 for return addresses) and found in function fid, a
 * function named by the address ("0x1149": link-time in its file;
 * run-time for the kernel, JIT code and addresses in no file) or, with
 * offsets, by its offset into the symbol ("ut_hot_leaf+0x4"); one per
 * distinct address of an object.
 */
int	sym_addr_func(struct proc *p, uint64_t pc, uint64_t lookup, int fid,
		      int offsets);
/*
 * The file of the mapping of process p that holds user address pc, and
 * pc's link-time address in it (*va); NULL: none (the kernel, no
 * mapping, a file that could not be read).  The path lives until
 * sym_free().
 */
const char *sym_image_va(struct proc *p, uint64_t pc, uint64_t *va);
struct proc *sym_proc(pid_t pid, int create);
void	sym_map_in(pid_t pid, uint64_t start, uint64_t end, uint64_t pgoff,
		   const char *path);
void	sym_exec(pid_t pid, const char *path, uint64_t baseaddr,
		 uint64_t dynaddr);
void	sym_fork(pid_t parent, pid_t child);
void	sym_reset_procs(void);		/* forget processes and mappings */
void	sym_free(void);

/*
 * pmcstat_unwind.c: user call chains by DWARF CFI from a USERSTACK
 * record (copied by ustack_set(): the record's pointers die with it).
 * unwind_user() gives the sampled PC, then the return addresses, at most
 * max, into pcs; 0 when nothing could be unwound.  unwind_available():
 * 0 in a build without libdw.  unwind_free(): before the processes of
 * pmcstat_sym.c are forgotten, and at the end.
 */
struct ustack {
	int		valid;
	uint32_t	pmcid, abi, nregs, dynsize;
	uint64_t	regs[64];	/* PMC_USTACK_NREGS_MAX */
	const unsigned char *data;	/* the stack: stack[] or the record's */
	unsigned char	stack[PMC_STACK_USER_MAX];
};

struct pmclog_ev_userstack;
int	unwind_available(void);
/*
 * us from a USERSTACK record; borrow: its stack bytes are not copied but
 * pointed at (the record stays where it is until us is used: a mapped log)
 */
void	ustack_set(struct ustack *us, const struct pmclog_ev_userstack *r, int borrow);
size_t	unwind_user(struct proc *p, pid_t tid, const struct ustack *us,
		    uint64_t *pcs, size_t max);
void	unwind_free(void);
/* dst a copy of src: its stack copied, or the same borrowed bytes */
void	ustack_copy(struct ustack *dst, const struct ustack *src);

/*
 * Unwinding on several threads, the results in the order of the
 * samples.  uw_pool_new(): threads unwinders (threads - 1 helper
 * threads and the caller's), a ring of depth tasks; NULL: fewer than 2,
 * or no threads could be made (then unwind_user()).  The caller fills
 * the task of slot seq % depth (uw_pool_task()) with tid, us (ustack_copy)
 * and max, and queues it with uw_pool_push() (p: its process, NULL:
 * nothing to unwind), at most depth queued; uw_pool_head() is the
 * oldest task when it is done (wait: helping, until it is), NULL: none
 * queued (or not done); uw_pool_pop() drops it (its error, the first,
 * becomes unwind_error()'s).  Everything but the unwinding happens on
 * the caller's thread.
 */
struct uw_mods;
struct uw_task {
	pid_t		tid;
	size_t		max;
	struct ustack	us;
	/* the pool's, then the result: n frames in pcs, or why none */
	struct uw_mods	*mods;
	_Atomic int	state;
	size_t		n;
	uint64_t	pcs[PMC_CALLCHAIN_DEPTH_MAX];
	char		err[256];
};
struct uw_pool;
struct uw_pool *uw_pool_new(int threads, size_t depth);
struct uw_task *uw_pool_task(struct uw_pool *pl, size_t i);
void	uw_pool_push(struct uw_pool *pl, struct proc *p);
struct uw_task *uw_pool_head(struct uw_pool *pl, int wait);
void	uw_pool_pop(struct uw_pool *pl);
void	uw_pool_free(struct uw_pool *pl);	/* after the queued tasks */
/* why the first sample that could not be unwound was not, or NULL */
const char *unwind_error(void);
/*
 * kernel symbols: 1 loaded, 0 none (the reason in *why); read from
 * /proc/kallsyms once, when the first kernel address is resolved
 */
int	sym_kernel_load(const char **why);
int	sym_kernel_used(void);		/* a kernel address was resolved */
int	sym_is_kernel(uint64_t pc);
/* Prefix prepended to paths of MAP_IN records (for logs of another root). */
extern const char *sym_root;
/*
 * Kernel symbols from this file, or from kallsyms or System.map in this
 * directory (pmcstat's -k); NULL: /proc/kallsyms.
 */
extern const char *sym_kernel_path;
/* Set before the first address is resolved: */
extern int sym_demangle;		/* C++, Rust names demangled (default 1) */
extern int sym_lines;			/* functions named "name (file:line)" */
extern int sym_addrlines;		/* sym_srcline() without sym_lines */
/* separate debug files looked for there first (NULL: $HWPMC_DEBUG_DIR) */
extern const char *sym_debug_dir;

/*
 * --annotate (pmcstat_annotate.c): the ELF images of the log's mappings,
 * their functions, code and lines.  sym_images(NULL) is the first image,
 * sym_images(im) the one after im (NULL: no more).
 */
struct image *sym_images(struct image *prev);
const char *sym_image_path(const struct image *im);
const char *sym_image_base(const struct image *im);	/* its object */
size_t	sym_image_nfunc(const struct image *im);
void	sym_image_func(const struct image *im, size_t i, const char **name,
		       uint64_t *addr, uint64_t *size);
/* raw demangled (a string of ours, freed by sym_free()), or raw itself */
const char *sym_demangled(const char *raw);
/* the image of pc in process p and pc's link-time address there; NULL: none */
struct image *sym_pc_image(struct proc *p, uint64_t pc, uint64_t *va);
/*
 * The size bytes of code at link-time address va of im (in libdwfl's
 * copy of the file: valid until sym_free()), its ELF machine (EM_*) and
 * byte order (msb); 0, or -1: not readable (or built without libdw).
 */
int	sym_image_code(struct image *im, uint64_t va, uint64_t size,
		       const unsigned char **bytes, int *machine, int *msb);
/*
 * The source file of va (its path as DWARF gives it, a relative one in
 * the compilation's directory; written into buf) and its line; NULL: none
 */
const char *sym_image_line(struct image *im, uint64_t va, int *line,
			   char *buf, size_t len);

/* -- reports ---------------------------------------------------------------- */

enum report_kind {
	REPORT_FLAT,
	REPORT_DUMP,
	REPORT_GRAPH,
	REPORT_ANNOTATE,
	REPORT_CALLCHAIN,
};

struct report_opts {
	int		 ntop;		/* flat: rows (0: all) */
	const char	*comm;		/* only samples of processes so named */
	pid_t		*pids;		/* only samples of these (npid > 0) */
	int		 npid;
	int		 quiet;
	int		 progress;	/* a progress line on stderr (a terminal) */
	int		 icicle;	/* flame graph: root at the top */
	const char	*annotate;	/* --annotate: SYMBOL or SYMBOL@object */
	int		 graphdepth;	/* -z: chains cut to this many frames
					   (0: whole) */
	pid_t		*tids;		/* -i: only samples of these threads */
	int		 ntid;
	int		 addresses;	/* functions as addresses: 1 (-A:
					   the leaf's), 2 offsets into symbols
					   (-I) */
	double		 threshold;	/* -f threshold=: top hides functions
					   under this % of the samples */
	int		 threads;	/* --unwind-threads: threads that unwind
					   --call-graph dwarf samples (0: one
					   per CPU online) */
};

/* Where each report goes; NULL: not wanted. */
struct report_outs {
	FILE		*dump;		/* the records as text, while reading */
	FILE		*flat, *graph, *folded;
	FILE		*callchain;	/* -G: pmcstat's call chains */
	FILE		*calltree;	/* -F: callgrind (KCachegrind) */
	FILE		*flame;		/* SVG flame graph */
	FILE		*perfscript;	/* perf script's text */
	FILE		*pprof;		/* pprof's profile.proto, gzipped */
	FILE		*annotate;	/* --annotate's listing (o->annotate) */
	FILE		*pcs;		/* -m: each sample's PC, its function
					   and the function's range */
	FILE		*addrs;		/* -a: each sample's frames, with
					   file:line */
	struct gmon	*gmon;		/* -g: gprof profiles, filled */
};

/* A log in memory (live top). */
struct logbuf {
	unsigned char	*data;
	size_t		len, room;
};

int	log_load(struct logbuf *lb, int fd);	/* append the rest of fd */
void	log_free(struct logbuf *lb);

/* What a log said about losses, and about itself. */
struct log_summary {
	uint64_t	records, samples, dropped_records;
	int		closed;			/* CLOSELOG seen */
	int		bad;			/* malformed: reading stopped */
	uint64_t	bad_offset;		/* after the last good record */
	int		bad_errno;		/* pmclog(3)'s errno */
	uint64_t	stacked;		/* samples in the stacks written */
	uint64_t	ustacks;		/* samples with a USERSTACK */
	uint64_t	unwound;		/* of them, unwound by DWARF CFI */
	uint64_t	unwind_tried;		/* of them, unwinding tried */
	int		annotate_failed;	/* --annotate: no such function */
};

/*
 * Read the log from fd to its end, in one pass, and write the reports of
 * outs; 0, or -1 with errno when reading failed (no report written).
 */
int	report_log(int fd, const struct report_outs *outs,
		   const struct report_opts *o, struct log_summary *sum);

/*
 * Live top: feed a growing log, redraw every call; the log's processing
 * state lives in struct top.  top_draw() returns 'q' when the user asked
 * to quit, else 0.
 */
struct top;
struct top *top_open(const struct report_opts *o, double interval);
void	top_feed(struct top *t, const struct logbuf *lb);
int	top_draw(struct top *t, double elapsed);
void	top_close(struct top *t);

/* -- stacks: what folded stacks, flame graphs, perf script, pprof show -------- */

/*
 * One distinct stack of the samples of an event: a process (its name, or
 * its pid) and its functions.  Stacks of one text (two functions of one
 * name) are distinct when their functions are.
 */
struct stack {
	const char	*text;		/* folded: comm;root;...;leaf */
	const char	*comm;		/* the process's name, or NULL */
	pid_t		pid;		/* (the first, when comm) */
	const int	*fids;		/* functions (sym_funcs), leaf first */
	size_t		n;
	uint64_t	count;		/* samples */
};

/* The stacks of one event (the first that took samples). */
struct stacks {
	const char	*event;		/* its name ("" when none) */
	uint64_t	rate;		/* events per sample (0: unknown) */
	uint64_t	samples;	/* the counts' sum */
	struct stack	*v;		/* in the order of their text */
	size_t		n;
};

enum frame_kind {
	FRAME_USER,
	FRAME_KERNEL,
	FRAME_UNKNOWN,			/* no symbol */
};

enum frame_kind frame_kind(const struct func *f);
/* f in folded stacks: name, name_[k] (kernel), or [object] (unknown) */
const char *frame_label(const struct func *f, char *buf, size_t len);
/* the process of a stack as its folded root: comm, or pid-PID */
const char *stack_comm(const struct stack *s, char *buf, size_t len);

/*
 * The writers of pmcstat_flame.c and pmcstat_export.c: 0, or -1 (errno)
 * when out could not be written.
 */
int	flame_write(const struct stacks *s, FILE *out, int icicle);
int	perfscript_write(const struct stacks *s, FILE *out);
int	pprof_write(const struct stacks *s, FILE *out);
int	pprof_available(void);		/* built with protobuf-c and zlib */

/*
 * --annotate (pmcstat_annotate.c): the samples of the functions named
 * spec ("SYMBOL" or "SYMBOL@object"), per event (an index of the
 * report's), by instruction.  annot_check() says (on stderr) when no
 * function of the log's objects is so named: -1.  annot_write() lists
 * each such function's instructions with their samples, its source lines
 * among them.  annot_available(): NULL, or why --annotate cannot work.
 */
struct annot;
const char *annot_available(void);
struct annot *annot_new(const char *spec);
void	annot_sample(struct annot *a, int ev, struct proc *p, uint64_t pc);
int	annot_check(struct annot *a);
void	annot_write(struct annot *a, int ev, const char *event, uint64_t rate,
		    uint64_t samples, FILE *out);
void	annot_free(struct annot *a);
/* -- gprof profiles: pmcstat_gmon.c (pmcstat's -g) ------------------------------ */

struct gmon;
struct gmon *gmon_new(void);
/* One sample of event ev: the frames pcs[0..n) of process p, leaf first. */
void	gmon_sample(struct gmon *g, const char *ev, struct proc *p,
		    const uint64_t *pcs, size_t n);
/*
 * DIR/EVENT/OBJECT.gmon for each object with samples (wide: 32-bit
 * histogram bins, pmcstat's -e), and with map, a line per object:
 * ' "PATH" => "OBJECT.gmon" EVENT/SAMPLES ...' (pmcstat's -M); 0, or
 * -1 (told).
 */
int	gmon_write(struct gmon *g, const char *dir, int wide, FILE *map,
		   int quiet);
void	gmon_free(struct gmon *g);

/* realloc() that exits with a message when memory runs out */
void *xrealloc(void *p, size_t n);

#endif /* _HWPMC_PMCSTAT_H_ */
