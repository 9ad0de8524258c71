// SPDX-License-Identifier: BSD-2-Clause
/*
 * libcpc: cpc_bind_curlwp(3CPC) (binding, presets, restart, unbinding),
 * cpc_set_sample(3CPC) and cpc_enable(3CPC), over pmc(3).
 *
 * Binding a set allocates one PMC per counting request from its parsed
 * specifier (pmc_allocate_parsed()): a process-scope counting PMC
 * (PMC_MODE_TC) with the module's thread scope (PMC_F_THREAD) attached
 * to the calling thread for cpc_bind_curlwp() (tid 0), one attached to
 * the process for cpc_bind_pctx(), a system-scope one (PMC_MODE_SC) on
 * the CPU for cpc_bind_cpu(); then starts them.  A request that counts
 * no mode (neither CPC_COUNT_USER nor CPC_COUNT_SYSTEM) has no PMC and
 * keeps its preset.
 *
 * cpc_bind_curlwp() counts the calling LWP alone, as on illumos: not its
 * sibling threads, not the threads it creates later.  Each thread may
 * bind a set of its own; the PMCs of a process take different rows, so
 * the sets of its threads share the counters cpc_npic() gives.
 * CPC_BIND_LWP_INHERIT, which on illumos gives each new LWP a copy of
 * the set counting on its own, is refused (ENOTSUP): a thread-scope
 * target has no descendants, and a process-scope PMC would add the
 * siblings' counts.
 *
 * Presets are the library's: a request's value is its preset plus what
 * its PMC counted since the preset was applied (at bind, or at
 * cpc_set_restart() after cpc_request_preset()), so that the PMC itself
 * is never written.
 *
 * Overflow notification (CPC_OVF_NOTIFY_EMT, cpc_bind_curlwp() only): the
 * request's PMC is a thread-scope sampling one (PMC_MODE_TS with
 * PMC_F_THREAD and PMC_F_NOTIFY) whose sampling count is the distance
 * from its value to 2^64 (cpc_ovf_period()); its first overflow after a
 * start sends the thread SIGEMT, which <libcpc.h> defines as SIGSTKFLT
 * (docs/design.md), with si_code EMT_CPCOVF; later overflows send
 * nothing until cpc_set_restart() (or cpc_enable() after cpc_disable())
 * starts it again.
 * The counters are not frozen: the value goes on counting past 2^64,
 * wrapped.  cpc_set_restart() re-arms each overflow request from the
 * value it restarts at: the new preset, or its current value.
 *
 * SMPL requests (smpl_nrecs, cpc_bind_curlwp() only; cpc_smpl.c) are
 * thread-scope sampling PMCs too (PMC_MODE_TS with PMC_F_THREAD, and
 * PMC_F_USERSTACK for smpl_regs), sampling every 2^64 - preset events
 * (cpc_ovf_period()), into the process's log that cpc_smpl.c configures
 * before they start; cpc_set_sample() gives the buffer their records.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cpc_impl.h"

int64_t cpc_clock_ns(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts) < 0)
		return 0;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Release the PMCs of a bound set, which becomes unbound. */
void cpc_set_release(cpc_set_t *set)
{
	int i, saved = errno;

	for (i = 0; i < set->nreqs; i++) {
		struct cpc_req *r = &set->reqs[i];

		if (r->allocated)
			(void)pmc_release(r->id);
		r->allocated = 0;
		r->has_next = 0;
	}
	cpc_smpl_detach(set);		/* after the PMCs: their last samples */
	set->bound = CPC_UNBOUND;
	set->tid = 0;
	errno = saved;
}

cpc_set_t *cpc_lwp_set(cpc_t *cpc)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);
	cpc_set_t *s;

	for (s = cpc ? cpc->sets : NULL; s; s = s->next)
		if (s->bound == CPC_BOUND_LWP && s->tid == tid)
			return s;
	return NULL;
}

/* errno of a failed pmc(3) call as the bind functions report it */
static int cpc_bind_errno(int err, enum cpc_bind_kind kind)
{
	switch (err) {
	case EPERM:
		return EACCES;		/* illumos: no cpc_cpu privilege */
	case EBUSY:
		return EAGAIN;		/* counters in use */
	case ENXIO:
		/* an offline CPU; else no module */
		return kind == CPC_BOUND_CPU ? ENOSYS : ENXIO;
	default:
		return err;
	}
}

static int cpc_bind(cpc_t *cpc, cpc_set_t *set, enum cpc_bind_kind kind,
		    pid_t pid, int cpu, const char *fn)
{
	struct cpc_req *r;
	int i, err, ncpu;

	if (!cpc_set_valid(cpc, set)) {
		errno = EINVAL;
		return -1;
	}
	if (set->bound != CPC_UNBOUND) {
		cpc_err(cpc, fn, CPC_RESOURCE_UNAVAIL, "The set is already bound\n");
		errno = EINVAL;
		return -1;
	}
	if (set->nreqs == 0) {
		cpc_err(cpc, fn, CPC_RESOURCE_UNAVAIL, "The set has no requests\n");
		errno = EINVAL;
		return -1;
	}
	if (kind == CPC_BOUND_LWP && cpc_lwp_set(cpc)) {
		cpc_err(cpc, fn, CPC_RESOURCE_UNAVAIL,
			"Another set is bound to the calling LWP: unbind it first\n");
		errno = EINVAL;
		return -1;
	}
	if (kind == CPC_BOUND_CPU) {
		ncpu = pmc_ncpu();
		if (cpu < 0 || ncpu < 0 || cpu >= ncpu) {
			cpc_err(cpc, fn, CPC_PBIND_FAILED,
				"Processor %d does not exist\n", cpu);
			errno = EINVAL;
			return -1;
		}
	}
	for (i = 0; i < set->nreqs; i++) {
		if (set->reqs[i].smpl && kind != CPC_BOUND_LWP) {
			cpc_err(cpc, fn, CPC_PIC_NOT_CAPABLE,
				"SMPL requests (request %d, %s) are for sets bound with cpc_bind_curlwp() only\n",
				i, set->reqs[i].event);
			errno = ENOTSUP;
			return -1;
		}
		if ((set->reqs[i].flags & CPC_OVF_NOTIFY_EMT) &&
		    kind != CPC_BOUND_LWP) {
			cpc_err(cpc, fn, CPC_PIC_NOT_CAPABLE,
				"Overflow notification (CPC_OVF_NOTIFY_EMT, request %d, %s) is for sets bound with cpc_bind_curlwp() only\n",
				i, set->reqs[i].event);
			errno = ENOTSUP;
			return -1;
		}
	}

	for (i = 0; i < set->nreqs; i++) {
		r = &set->reqs[i];
		r->base = 0;
		r->has_next = 0;
		r->ovf = r->counts && (r->flags & CPC_OVF_NOTIFY_EMT);
		if (!r->counts)
			continue;
		if (r->smpl) {
			/* the records taken between two samples of the set */
			r->pend = cpc_recs_new(r->smpl, cpc_smpl_nitems(r));
			if (!r->pend) {
				err = ENOMEM;
				goto fail;
			}
		}
		if (pmc_allocate_parsed(r->spec, &r->ps.ps_pa,
					kind == CPC_BOUND_CPU ? PMC_MODE_SC :
					r->ovf || r->smpl ? PMC_MODE_TS : PMC_MODE_TC,
					kind != CPC_BOUND_LWP ? 0 :
					r->ovf ? PMC_F_THREAD | PMC_F_NOTIFY :
					r->smpl_regs ? PMC_F_THREAD | PMC_F_USERSTACK :
					PMC_F_THREAD,
					kind == CPC_BOUND_CPU ? cpu : PMC_CPU_ANY,
					&r->id, r->ovf || r->smpl ?
					cpc_ovf_period(r->preset) : 0) < 0) {
			err = errno;
			cpc_err(cpc, fn, err == EINVAL ? CPC_RESOURCE_UNAVAIL :
				err == EPERM ? CPC_ATTR_REQUIRES_PRIVILEGE :
				CPC_RESOURCE_UNAVAIL,
				"Cannot program request %d (%s): %s\n", i, r->event,
				pmc_allocate_message());
			goto fail;
		}
		r->allocated = 1;
		if (kind != CPC_BOUND_CPU && pmc_attach(r->id, pid) < 0) {
			err = errno;
			cpc_err(cpc, fn, CPC_RESOURCE_UNAVAIL,
				"Cannot attach request %d (%s) to %s %d: %s\n",
				i, r->event,
				kind == CPC_BOUND_LWP ? "thread" : "process",
				kind == CPC_BOUND_LWP ? (int)syscall(SYS_gettid) :
				(int)pid, strerror(err));
			goto fail;
		}
	}
	/* SMPL requests' samples: the process's log, the library's */
	for (i = 0; i < set->nreqs; i++) {
		if (set->reqs[i].smpl && cpc_smpl_attach(cpc, set, fn) < 0) {
			err = errno;
			goto fail;
		}
	}
	for (i = 0; i < set->nreqs; i++) {
		r = &set->reqs[i];
		if (r->allocated && pmc_start(r->id) < 0) {
			err = errno;
			cpc_err(cpc, fn, CPC_RESOURCE_UNAVAIL,
				"Cannot start request %d (%s): %s\n", i, r->event,
				strerror(err));
			goto fail;
		}
	}
	set->bound = kind;
	set->pid = pid;
	set->tid = kind == CPC_BOUND_LWP ? (pid_t)syscall(SYS_gettid) : 0;
	set->cpu = cpu;
	/* the bound thread's CPU time, whichever thread samples */
	if (kind == CPC_BOUND_CPU ||
	    (kind == CPC_BOUND_PCTX && clock_getcpuclockid(pid, &set->tick_clock) != 0) ||
	    (kind == CPC_BOUND_LWP &&
	     pthread_getcpuclockid(pthread_self(), &set->tick_clock) != 0))
		set->tick_clock = CLOCK_MONOTONIC;
	set->tick_start = cpc_clock_ns(set->tick_clock);
	return 0;

fail:
	set->bound = kind;		/* so that release runs */
	cpc_set_release(set);
	errno = cpc_bind_errno(err, kind);
	return -1;
}

int cpc_bind_curlwp(cpc_t *cpc, cpc_set_t *set, uint_t flags)
{
	CPC_LOCKED;
	if (flags & ~(uint_t)CPC_BIND_LWP_INHERIT) {
		errno = EINVAL;
		return -1;
	}
	if (flags & CPC_BIND_LWP_INHERIT) {
		cpc_err(cpc, "cpc_bind_curlwp", CPC_RESOURCE_UNAVAIL,
			"CPC_BIND_LWP_INHERIT is not supported: new threads do not inherit a thread's set\n");
		errno = ENOTSUP;
		return -1;
	}
	return cpc_bind(cpc, set, CPC_BOUND_LWP, 0, PMC_CPU_ANY,
			"cpc_bind_curlwp");
}

int cpc_bind_pctx(cpc_t *cpc, pctx_t *pctx, id_t id, cpc_set_t *set,
		  uint_t flags)
{
	CPC_LOCKED;
	(void)id;		/* the whole process: no thread scope yet */
	if (!pctx || flags) {
		errno = EINVAL;
		return -1;
	}
	/* in a handler of pctx_run(), the process of the event */
	return cpc_bind(cpc, set, CPC_BOUND_PCTX, pctx->cur ? pctx->cur : pctx->pid,
			PMC_CPU_ANY, "cpc_bind_pctx");
}

int cpc_bind_cpu(cpc_t *cpc, processorid_t id, cpc_set_t *set, uint_t flags)
{
	CPC_LOCKED;
	if (flags) {
		errno = EINVAL;
		return -1;
	}
	return cpc_bind(cpc, set, CPC_BOUND_CPU, 0, id, "cpc_bind_cpu");
}

int cpc_unbind(cpc_t *cpc, cpc_set_t *set)
{
	CPC_LOCKED;
	if (!cpc_set_valid(cpc, set) || set->bound == CPC_UNBOUND) {
		errno = EINVAL;
		return -1;
	}
	cpc_set_release(set);
	return 0;
}

int cpc_set_sample(cpc_t *cpc, cpc_set_t *set, cpc_buf_t *buf)
{
	CPC_LOCKED;
	pmc_value_t v;
	struct cpc_req *r;
	int i;

	if (!cpc_set_valid(cpc, set) || !cpc_buf_valid(cpc, buf) ||
	    set->bound == CPC_UNBOUND || buf->set != set ||
	    buf->n != set->nreqs) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < set->nreqs; i++) {
		r = &set->reqs[i];
		v = 0;
		if (r->allocated && pmc_read(r->id, &v) < 0) {
			/* perf took a counter away: the set is invalidated */
			if (errno == ENODATA)
				errno = EAGAIN;
			return -1;
		}
		buf->vals[i] = r->preset + (uint64_t)v - r->base;
	}
	buf->hrtime = cpc_clock_ns(CLOCK_MONOTONIC);
	buf->tick = (uint64_t)(cpc_clock_ns(set->tick_clock) - set->tick_start);
	/* SMPL: the records taken since the set's previous sample */
	if (set->smpl_bound && (cpc_smpl_collect() < 0 ||
				cpc_smpl_take(set, buf) < 0))
		return -1;
	return 0;
}

int cpc_request_preset(cpc_t *cpc, int index, uint64_t preset)
{
	CPC_LOCKED;
	cpc_set_t *set = cpc_lwp_set(cpc);

	if (!set || index < 0 || index >= set->nreqs) {
		errno = EINVAL;
		return -1;
	}
	set->reqs[index].next_preset = preset;
	set->reqs[index].has_next = 1;
	return 0;
}

/*
 * Restart overflow request r: from its new preset, or else from its
 * value, with a sampling count that overflows where that value passes
 * 2^64, and a signal armed for it (the PMC's start).
 */
static int cpc_ovf_restart(struct cpc_req *r)
{
	pmc_value_t v = 0;
	uint64_t val;

	if (pmc_stop(r->id) < 0 || pmc_read(r->id, &v) < 0)
		return -1;
	val = r->has_next ? r->next_preset : r->preset + (uint64_t)v - r->base;
	r->base = v;
	r->preset = val;
	r->has_next = 0;
	if (pmc_set(r->id, cpc_ovf_period(val)) < 0)
		return -1;
	return pmc_start(r->id);
}

int cpc_set_restart(cpc_t *cpc, cpc_set_t *set)
{
	CPC_LOCKED;
	pmc_value_t v;
	struct cpc_req *r;
	int i;

	if (!cpc_set_valid(cpc, set) || set->bound == CPC_UNBOUND) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < set->nreqs; i++) {
		r = &set->reqs[i];
		if (r->allocated && (r->ovf || r->smpl)) {
			if (cpc_ovf_restart(r) < 0)
				return -1;
			continue;
		}
		if (!r->has_next)
			continue;	/* resumes from its current value */
		v = 0;
		if (r->allocated && pmc_read(r->id, &v) < 0)
			return -1;
		r->base = v;
		r->preset = r->next_preset;
		r->has_next = 0;
	}
	return 0;
}

/* Start (stop) the PMCs of the set bound to the calling LWP. */
static int cpc_switch(cpc_t *cpc, int on)
{
	cpc_set_t *set = cpc_lwp_set(cpc);
	int i;

	if (!set) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < set->nreqs; i++) {
		if (!set->reqs[i].allocated)
			continue;
		if ((on ? pmc_start(set->reqs[i].id) :
			  pmc_stop(set->reqs[i].id)) < 0)
			return -1;
	}
	return 0;
}

int cpc_enable(cpc_t *cpc)
{
	CPC_LOCKED;
	return cpc_switch(cpc, 1);
}

int cpc_disable(cpc_t *cpc)
{
	CPC_LOCKED;
	return cpc_switch(cpc, 0);
}
