/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libcpc: what the library's files share.  Not installed.
 *
 *   cpc_open.c   handles, processor information, event and attribute
 *                walks, error reporting
 *   cpc_set.c    sets, requests (event names and attributes checked
 *                through libhwpmc's parser), buffers
 *   cpc_bind.c   binding a set (PMCs allocated, attached, started),
 *                sampling, presets, enable/disable, unbinding
 *   cpc_smpl.c   SMPL: the requests' records, the process's log they
 *                come from, the record items
 *   pctx.c       libpctx: processes created or captured, and followed
 *                through their events with ptrace(2)
 */
#ifndef _LIBCPC_CPC_IMPL_H
#define _LIBCPC_CPC_IMPL_H

#include <pmc.h>
#include <pthread.h>
#include <time.h>

/* The library is built with -fvisibility=hidden: export what the headers declare. */
#pragma GCC visibility push(default)
#include "libcpc.h"
#include "libpctx.h"
#pragma GCC visibility pop

/* Attributes a request takes (cpc_walk_attrs()) and their largest values */
struct cpc_attr_def {
	const char	*name;
	uint64_t	max;
	const char	*term;		/* libhwpmc's qualifier, or NULL */
};
extern const struct cpc_attr_def cpc_attr_defs[];
extern const unsigned int cpc_nattr_defs;
struct __cpc;
/* Does handle cpc have attribute d (SMPL's: a CPC_VER_CURRENT handle)? */
int cpc_attr_shown(struct __cpc *cpc, const struct cpc_attr_def *d);

/* One request of a set: an event, a preset, flags, attributes */
struct cpc_req {
	char		*event;		/* as the caller named it */
	char		*spec;		/* libhwpmc's specifier */
	struct pmc_spec	 ps;		/* spec, parsed once */
	uint64_t	 preset;	/* the value counting starts from */
	uint64_t	 next_preset;	/* cpc_request_preset()'s, for restart */
	int		 has_next;
	uint64_t	 base;		/* the PMC's value when preset applied */
	uint_t		 flags;		/* CPC_COUNT_*, CPC_OVF_NOTIFY_EMT */
	uint_t		 nattrs;
	cpc_attr_t	*attrs;		/* private copies */
	int		 counts;	/* some mode asked: a PMC when bound */
	pmc_id_t	 id;		/* its PMC while bound */
	int		 allocated;
	int		 ovf;		/* its PMC signals overflow (TS, NOTIFY) */
	uint_t		 smpl;		/* SMPL: smpl_nrecs (0: not SMPL) */
	int		 smpl_regs;	/* ... records have the user registers */
	struct cpc_recs	*pend;		/* bound: records since the last sample */
};

/*
 * The sampling count of an overflow request whose value is v: the events
 * until the value passes 2^64, at most perf's largest period.
 */
static inline uint64_t cpc_ovf_period(uint64_t v)
{
	uint64_t d = (uint64_t)0 - v;

	return d == 0 || d > (UINT64_MAX >> 1) ? UINT64_MAX >> 1 : d;
}

/* A SMPL request's records: n of nitems uint64_t each, at most max */
struct cpc_recs {
	uint_t		 n;
	uint_t		 max;
	uint_t		 nitems;
	uint64_t	 lost;		/* not kept: n was max */
	uint64_t	*v;
};

/* The most records a SMPL request keeps (cpc_get_smpl_max_rec_count()). */
#define CPC_SMPL_MAX_RECS	65536

/* The items of a record with registers ("smpl_regs"); 0 if none here. */
extern const uint_t cpc_smpl_nregs;

enum cpc_bind_kind {
	CPC_UNBOUND,
	CPC_BOUND_LWP,			/* cpc_bind_curlwp(): one thread */
	CPC_BOUND_PCTX,			/* cpc_bind_pctx(): another process */
	CPC_BOUND_CPU,			/* cpc_bind_cpu(): one CPU */
};

struct __cpc_set {
	cpc_t		*cpc;
	struct __cpc_set *next;
	struct cpc_req	*reqs;
	int		 nreqs;
	enum cpc_bind_kind bound;
	pid_t		 pid;		/* PCTX: the process */
	pid_t		 tid;		/* LWP: the thread */
	int		 cpu;		/* CPU: the processor */
	clockid_t	 tick_clock;	/* what cpc_buf_tick() measures */
	int64_t		 tick_start;	/* ... its value at bind, ns */
	int		 smpl_bound;	/* holds the SMPL log (cpc_smpl.c) */
	struct __cpc_set *smpl_next;	/* ... in its list of bound sets */
};

struct __cpc_buf {
	cpc_t		*cpc;
	struct __cpc_buf *next;
	cpc_set_t	*set;		/* NULL once the set is destroyed */
	int		 n;
	uint64_t	*vals;
	hrtime_t	 hrtime;
	uint64_t	 tick;
	struct cpc_recs	*recs;		/* per request: SMPL records */
};

struct __cpc {
	cpc_errhndlr_t	*errfn;		/* NULL: the default, to stderr */
	cpc_set_t	*sets;
	cpc_buf_t	*bufs;
	uint_t		 npic;
	uint_t		 caps;
	int		 smpl;		/* SMPL initialised (CPC_VER_CURRENT) */
	char		 cciname[CPC_MAX_IMPL_NAME];
	char		 cpuref[CPC_MAX_CPUREF];
};

/* A process a pctx follows (pctx.c) */
struct pctx_proc {
	struct pctx_proc *next;
	pid_t		 pid;
	int		 seen;		/* its first stop taken (a new child) */
	int		 exiting;	/* fini_lwp and exit called */
};

struct __pctx {
	pid_t		 pid;		/* the process created or captured */
	pid_t		 cur;		/* the process of the handler running */
	void		*arg;
	pctx_errfn_t	*errfn;
	int		 verbose;
	int		 created;	/* pctx_create(): killed at release */
	int		 let_go;	/* ... no longer followed: waited for */
	volatile int	 terminate;	/* pctx_terminate(): pctx_run returns */
	struct pctx_proc *procs;	/* followed (traced) processes */
	pctx_sysc_execfn_t *exec_fn;
	pctx_sysc_forkfn_t *fork_fn;
	pctx_sysc_exitfn_t *exit_fn;
	pctx_init_lwpfn_t *init_fn;
	pctx_fini_lwpfn_t *fini_fn;
};

/* cpc_terminate(): every pctx_run() returns at its next wake-up. */
void pctx_terminate_all(void);

/*
 * One recursive lock for the library (illumos' libcpc is MT-Safe): every
 * function that touches a handle's sets and buffers, or the count of
 * handles, starts with CPC_LOCKED, which holds it to the function's end.
 * Recursive, since walks and error handlers call back into the program,
 * which may call the library.
 */
int cpc_lock(void);
void cpc_unlock_guard(int *guard);
#define CPC_LOCKED \
	int cpc_lock_guard_ __attribute__((cleanup(cpc_unlock_guard), unused)) = cpc_lock()

/* Report an error through cpc's handler (cpc_seterrhndlr()). */
void cpc_err(cpc_t *cpc, const char *fn, int subcode, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Is set (buf) one of cpc's? */
int cpc_set_valid(cpc_t *cpc, cpc_set_t *set);
int cpc_buf_valid(cpc_t *cpc, cpc_buf_t *buf);

/* The rows of class cl per CPU on this machine (0: no such class). */
uint_t cpc_class_rows(uint32_t cl);

/* The set the calling thread bound with cpc_bind_curlwp(), or NULL. */
cpc_set_t *cpc_lwp_set(cpc_t *cpc);

/* Release the PMCs of a bound set, which becomes unbound. */
void cpc_set_release(cpc_set_t *set);

/* A clock's value in ns. */
int64_t cpc_clock_ns(clockid_t clk);

/*
 * SMPL (cpc_smpl.c).  cpc_smpl_attach(): a bound set with SMPL requests
 * joins the process's SMPL log (configured for the first; -1 with errno,
 * reported to cpc's handler as fn, when pmc(3) has a log already);
 * cpc_smpl_detach() leaves it (the log is closed with the last set).
 * cpc_smpl_collect(): the log's new samples go to their requests' pend;
 * cpc_smpl_take() moves set's pending records into buf.
 */
int cpc_smpl_attach(cpc_t *cpc, cpc_set_t *set, const char *fn);
void cpc_smpl_detach(cpc_set_t *set);
int cpc_smpl_collect(void);
int cpc_smpl_take(cpc_set_t *set, cpc_buf_t *buf);
/* records: made for n items per record and max records; freed; copied */
struct cpc_recs *cpc_recs_new(uint_t max, uint_t nitems);
void cpc_recs_free(struct cpc_recs *rc);
int cpc_recs_copy(struct cpc_recs *ds, const struct cpc_recs *src);
/* The SMPL items of request r's records. */
uint_t cpc_smpl_nitems(const struct cpc_req *r);

#endif /* _LIBCPC_CPC_IMPL_H */
