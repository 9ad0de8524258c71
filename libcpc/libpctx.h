/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libpctx: illumos' process context library, the part libcpc needs to
 * name another process for cpc_bind_pctx().
 *
 * Only pctx_capture() and pctx_release() exist yet, and they only name a
 * process: they do not stop it or control it, and there is no event loop
 * (pctx_create(), pctx_run(), pctx_set_events() are for a later step).
 * See libcpc(3).
 */
#ifndef _LIBPCTX_H
#define _LIBPCTX_H

#include <fcntl.h>
#include <stdarg.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct __pctx pctx_t;

typedef void (pctx_errfn_t)(const char *fn, const char *fmt, va_list ap);

pctx_t	*pctx_capture(pid_t pid, void *arg, int verbose, pctx_errfn_t *errfn);
void	pctx_release(pctx_t *pctx);

#ifdef __cplusplus
}
#endif

#endif /* _LIBPCTX_H */
