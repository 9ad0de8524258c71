/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libpctx: illumos' process context library (pctx_capture(3CPC),
 * pctx_set_events(3CPC)), written from its manual pages, over ptrace(2).
 *
 * A controlling process creates (pctx_create()) or captures
 * (pctx_capture()) a process, names the handlers of the events it wants
 * (pctx_set_events()), and runs an event loop (pctx_run()) that calls
 * them when the process forks, execs or exits, as its LWPs appear and
 * disappear, and every sampling interval; libcpc binds counters to the
 * process from those handlers (cpc_bind_pctx()).  libpctx(3) lists what
 * differs from illumos.
 */
#ifndef _LIBPCTX_H
#define _LIBPCTX_H

#include <fcntl.h>
#include <stdarg.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* illumos' basic types that glibc lacks (identical redefinitions are valid C11) */
#ifndef _LIBCPC_SOLARIS_TYPES
#define _LIBCPC_SOLARIS_TYPES
typedef unsigned int uint_t;
typedef long long hrtime_t;
typedef int processorid_t;
#endif
/* <sys/types.h> has id_t only for X/Open and POSIX 2008: a -std=c11 client too */
#if defined(__GLIBC__) && !defined(__id_t_defined)
typedef __id_t id_t;
#define __id_t_defined
#endif

typedef struct __pctx pctx_t;

typedef void (pctx_errfn_t)(const char *fn, const char *fmt, va_list ap);

pctx_t	*pctx_create(const char *filename, char *const *argv, void *arg,
		     int verbose, pctx_errfn_t *errfn);
pctx_t	*pctx_capture(pid_t pid, void *arg, int verbose, pctx_errfn_t *errfn);

/* The handlers (pctx_set_events(3CPC)) */
typedef int pctx_sysc_execfn_t(pctx_t *pctx, pid_t pid, id_t lwpid,
			       char *cmd, void *arg);
typedef void pctx_sysc_forkfn_t(pctx_t *pctx, pid_t pid, id_t lwpid,
				pid_t child, void *arg);
typedef void pctx_sysc_exitfn_t(pctx_t *pctx, pid_t pid, id_t lwpid,
				int status, void *arg);
typedef int pctx_sysc_lwp_createfn_t(pctx_t *pctx, pid_t pid, id_t lwpid,
				     void *arg);
typedef int pctx_init_lwpfn_t(pctx_t *pctx, pid_t pid, id_t lwpid, void *arg);
typedef int pctx_fini_lwpfn_t(pctx_t *pctx, pid_t pid, id_t lwpid, void *arg);
typedef int pctx_sysc_lwp_exitfn_t(pctx_t *pctx, pid_t pid, id_t lwpid,
				   void *arg);

void	pctx_terminate(pctx_t *pctx);

typedef enum {
	PCTX_NULL_EVENT = 0,
	PCTX_SYSC_EXEC_EVENT,
	PCTX_SYSC_FORK_EVENT,
	PCTX_SYSC_EXIT_EVENT,
	PCTX_SYSC_LWP_CREATE_EVENT,
	PCTX_INIT_LWP_EVENT,
	PCTX_FINI_LWP_EVENT,
	PCTX_SYSC_LWP_EXIT_EVENT
} pctx_event_t;

int	pctx_set_events(pctx_t *pctx, ...);

int	pctx_run(pctx_t *pctx, uint_t msec, uint_t nsamples,
		 int (*tick)(pctx_t *pctx, pid_t pid, id_t lwpid, void *arg));

void	pctx_release(pctx_t *pctx);

#ifdef __cplusplus
}
#endif

#endif /* _LIBPCTX_H */
