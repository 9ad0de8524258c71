// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat: user call chains unwound by DWARF call frame information
 * (--call-graph dwarf), from a sample's USERSTACK record: the user
 * registers and a copy of the top of the user stack.
 *
 * elfutils' unwinder does the work: per process, a Dwfl with the
 * process's executable mappings reported at their load addresses (the
 * files of pmcstat_sym.c's mappings, by path; libdwfl finds their
 * .eh_frame, and .debug_frame in the file or its separate debug file),
 * attached with thread callbacks whose initial registers are the
 * record's and whose memory is the record's copy of the stack (nothing
 * else: a read outside it ends the chain).  dwfl_getthread_frames()
 * then gives the PCs, the sampled one first, then the return addresses.
 * The Dwfl of a process is made again when its mappings changed (a
 * dlopen(), an exec).  Without libdw (the static arm64 build) nothing
 * is unwound: unwind_available() says so and hwpmc-stat refuses
 * --call-graph dwarf.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef HWPMC_WITH_DW
#define HWPMC_WITH_DW 0
#endif
#if HWPMC_WITH_DW
#include <elfutils/libdwfl.h>
#endif

#include <pmclog.h>

#include "pmcstat.h"

_Static_assert(sizeof(((struct ustack *)0)->regs) ==
	       PMC_USTACK_NREGS_MAX * sizeof(uint64_t), "ustack's registers");

int unwind_available(void)
{
	return HWPMC_WITH_DW;
}

static char uw_error[256];	/* the first failure's reason */

const char *unwind_error(void)
{
	return uw_error[0] ? uw_error : NULL;
}

void ustack_set(struct ustack *us, const struct pmclog_ev_userstack *r, int borrow)
{
	us->valid = r->pl_nregs >= 2 && r->pl_nregs <= PMC_USTACK_NREGS_MAX &&
		    r->pl_dynsize <= sizeof(us->stack);
	if (!us->valid)
		return;
	us->pmcid = r->pl_pmcid;
	us->abi = r->pl_abi;
	us->nregs = r->pl_nregs;
	us->dynsize = r->pl_dynsize;
	memcpy(us->regs, r->pl_regs, r->pl_nregs * sizeof(uint64_t));
	if (borrow) {
		us->data = r->pl_stack;
	} else {
		memcpy(us->stack, r->pl_stack, r->pl_dynsize);
		us->data = us->stack;
	}
}

#if HWPMC_WITH_DW

/* The DWARF number of the stack pointer in each ABI of <hwpmclog.h>. */
static int sp_regno(uint32_t abi)
{
	switch (abi) {
	case PMC_USTACK_ABI_X86_64:
		return 7;
	case PMC_USTACK_ABI_ARM64:
		return 31;
	default:
		return -1;
	}
}

/*
 * A process's Dwfl, and what it was made of: the process's mappings of
 * generation gen (not their array and count, which an exec leaves the
 * same when both images have one mapping, as static programs do).
 */
struct pdwfl {
	pid_t		pid;
	const struct proc *p;
	unsigned long	gen;
	Dwfl		*dwfl;		/* NULL: no module could be reported */
	struct pdwfl	*next;
};

#define PD_BUCKETS	256
static struct pdwfl *pds[PD_BUCKETS];

/* The sample being unwound: the callbacks' state (one at a time). */
static struct {
	const struct ustack *us;
	pid_t		tid;
	uint64_t	sp;
	uint64_t	*pcs;
	size_t		n, max;
} cur;

static const Dwfl_Callbacks uw_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static pid_t uw_next_thread(Dwfl *dwfl, void *arg, void **targ)
{
	(void)dwfl;
	(void)arg;
	if (*targ)
		return 0;
	*targ = &cur;
	return cur.tid;
}

static bool uw_get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **targ)
{
	(void)dwfl;
	(void)arg;
	*targ = &cur;
	return tid == cur.tid;
}

/* Stack memory only, from the record's copy. */
static bool uw_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			   void *arg)
{
	(void)dwfl;
	(void)arg;
	if (addr < cur.sp || addr - cur.sp > cur.us->dynsize ||
	    cur.us->dynsize - (addr - cur.sp) < sizeof(*result))
		return false;
	memcpy(result, cur.us->data + (addr - cur.sp), sizeof(*result));
	return true;
}

/* The record's registers: all but the last by number, the last the PC. */
static bool uw_set_initial_registers(Dwfl_Thread *thread, void *targ)
{
	const struct ustack *us = cur.us;

	(void)targ;
	if (!dwfl_thread_state_registers(thread, 0, us->nregs - 1,
					 (const Dwarf_Word *)us->regs))
		return false;
	dwfl_thread_state_register_pc(thread, us->regs[us->nregs - 1]);
	return true;
}

static const Dwfl_Thread_Callbacks uw_thread_callbacks = {
	.next_thread = uw_next_thread,
	.get_thread = uw_get_thread,
	.memory_read = uw_memory_read,
	.set_initial_registers = uw_set_initial_registers,
};

/*
 * A Dwfl of p's file mappings at their load addresses, attached to the
 * callbacks above; NULL when none of its files could be reported.
 */
static Dwfl *make_dwfl(struct proc *p)
{
	const struct image **seen;
	Dwfl_Module *mod;
	uint64_t va;
	struct image *im;
	size_t i, j, nseen = 0;
	Dwfl *dwfl;

	dwfl = dwfl_begin(&uw_callbacks);
	if (!dwfl)
		return NULL;
	seen = calloc(p->nmap ? p->nmap : 1, sizeof(*seen));
	if (!seen) {
		dwfl_end(dwfl);
		return NULL;
	}
	dwfl_report_begin(dwfl);
	for (i = 0; i < p->nmap; i++) {
		im = sym_pc_image(p, p->maps[i].start, &va);
		if (!im)
			continue;	/* not an ELF file we read, [vdso], JIT */
		for (j = 0; j < nseen && seen[j] != im; j++)
			;
		if (j < nseen)
			continue;
		seen[nseen++] = im;
		/* the load bias: run-time minus link-time address */
		mod = dwfl_report_elf(dwfl, sym_image_base(im),
				      sym_image_path(im), -1,
				      p->maps[i].start - va, true);
		(void)mod;	/* a file that fails is left out */
	}
	free(seen);
	dwfl_report_end(dwfl, NULL, NULL);
	if (!nseen || !dwfl_attach_state(dwfl, NULL, p->pid,
					 &uw_thread_callbacks, &cur)) {
		if (!uw_error[0])
			snprintf(uw_error, sizeof(uw_error), "process %d: %s", (int)p->pid,
				 nseen ? dwfl_errmsg(-1) : "none of its files could be read");
		dwfl_end(dwfl);
		return NULL;
	}
	return dwfl;
}

static Dwfl *proc_dwfl(struct proc *p)
{
	struct pdwfl **pp = &pds[(unsigned int)p->pid % PD_BUCKETS], *d;

	for (d = *pp; d; d = d->next)
		if (d->pid == p->pid)
			break;
	if (d && d->p == p && d->gen == p->gen)
		return d->dwfl;
	if (!d) {
		d = calloc(1, sizeof(*d));
		if (!d)
			return NULL;
		d->pid = p->pid;
		d->next = *pp;
		*pp = d;
	} else if (d->dwfl) {
		dwfl_end(d->dwfl);
	}
	d->p = p;
	d->gen = p->gen;
	d->dwfl = make_dwfl(p);
	return d->dwfl;
}

static int uw_frame(Dwfl_Frame *state, void *arg)
{
	Dwarf_Addr pc;
	bool activation;

	(void)arg;
	if (!dwfl_frame_pc(state, &pc, &activation) || !pc)
		return DWARF_CB_ABORT;
	cur.pcs[cur.n++] = pc;
	return cur.n < cur.max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

size_t unwind_user(struct proc *p, pid_t tid, const struct ustack *us,
		   uint64_t *pcs, size_t max)
{
	int spr = sp_regno(us->abi);
	Dwfl *dwfl;

	if (!p || !us->valid || spr < 0 || (uint32_t)spr >= us->nregs ||
	    !max || tid <= 0)
		return 0;
	dwfl = proc_dwfl(p);
	if (!dwfl)
		return 0;
	cur.us = us;
	cur.tid = tid;
	cur.sp = us->regs[spr];
	cur.pcs = pcs;
	cur.n = 0;
	cur.max = max;
	/* an error ends the chain where it happened: the frames so far */
	if (dwfl_getthread_frames(dwfl, tid, uw_frame, NULL) < 0 && !cur.n &&
	    !uw_error[0])
		snprintf(uw_error, sizeof(uw_error), "libdw: %s", dwfl_errmsg(-1));
	return cur.n;
}

void unwind_free(void)
{
	struct pdwfl *d, *next;
	size_t i;

	uw_error[0] = 0;
	for (i = 0; i < PD_BUCKETS; i++) {
		for (d = pds[i]; d; d = next) {
			next = d->next;
			if (d->dwfl)
				dwfl_end(d->dwfl);
			free(d);
		}
		pds[i] = NULL;
	}
}

#else /* !HWPMC_WITH_DW */

size_t unwind_user(struct proc *p, pid_t tid, const struct ustack *us,
		   uint64_t *pcs, size_t max)
{
	(void)p;
	(void)tid;
	(void)us;
	(void)pcs;
	(void)max;
	return 0;
}

void unwind_free(void)
{
}

#endif /* HWPMC_WITH_DW */
