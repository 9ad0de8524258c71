/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libcpc: illumos' CPU performance counter library (cpc(3CPC)) on hwpmc
 * for Linux, written from illumos' manual pages.
 *
 * A program written for illumos' <libcpc.h> recompiles here: the types,
 * constants and functions have illumos' names, values and signatures.
 * The library is built on libhwpmc (pmc(3)): a set's requests become
 * PMCs when the set is bound, events are named as pmc(3) names them
 * (perf's names, generic_events(3CPC)'s PAPI names, the CPU's vendor
 * events).  libcpc(3) lists what differs from illumos; in short:
 *   - CPC_BIND_LWP_INHERIT is refused (ENOTSUP);
 *   - Linux has no SIGEMT on x86 and arm64: this header defines it as
 *     SIGSTKFLT, the signal of CPC_OVF_NOTIFY_EMT (sets bound with
 *     cpc_bind_curlwp() only), and EMT_CPCOVF, its si_code; counters
 *     are not frozen at the overflow;
 *   - cpc_bind_cpu() does not bind the caller to the CPU it measures;
 *   - cpc_buf_tick() counts nanoseconds (a 1 GHz tick), not cycles;
 *   - SMPL (Oracle Solaris 11's hardware sampling): requests with the
 *     attribute smpl_nrecs in sets bound with cpc_bind_curlwp(), sampled
 *     by hwpmc (a thread-scope sampling PMC) into a pmc(3) log the
 *     library configures for the process; the signatures Oracle does not
 *     publish (cpc_get_smpl_max_rec_count(), cpc_buf_smpl_get_record()'s
 *     arguments, cpc_walk_smpl_recitems_req()'s action) are this
 *     library's.
 */
#ifndef _LIBCPC_H
#define _LIBCPC_H

#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include <libpctx.h>

#ifdef __cplusplus
extern "C" {
#endif

/* illumos' basic types that glibc lacks (uint_t, hrtime_t, id_t...): <libpctx.h> */

typedef struct __cpc cpc_t;
typedef struct __cpc_set cpc_set_t;
typedef struct __cpc_buf cpc_buf_t;

/* A processor-specific attribute of a request. */
typedef struct {
	char		*ca_name;
	uint64_t	ca_val;
} cpc_attr_t;

/*
 * The interface versions cpc_open() takes: CPC_VER_CURRENT opens CPC and
 * SMPL (hardware sampling, Oracle Solaris 11's addition), CPC_VER_CPC_ONLY
 * CPC alone.  CPC_VER_CURRENT keeps illumos' value, so that illumos
 * programs built against it run; CPC_VER_CPC_ONLY's value is this
 * library's (Oracle's is not public).
 */
#define CPC_VER_CURRENT		2
#define CPC_VER_CPC_ONLY	0x102

/*
 * Overflow notification's signal and si_code (illumos' <sys/machsig.h>):
 * SIGSTKFLT, which the kernel sends for nothing else on x86 and arm64
 * (the module's PMC_NOTIFY_SIGNAL and PMC_NOTIFY_CODE).
 */
#ifndef SIGEMT
#ifdef SIGSTKFLT
#define SIGEMT			SIGSTKFLT
#else
#define SIGEMT			16
#endif
#endif
#ifndef EMT_CPCOVF
#define EMT_CPCOVF		2
#endif

/* Flags of cpc_bind_curlwp() */
#define CPC_BIND_LWP_INHERIT	0x1
#define CPC_BIND_EMT_OVF	0x2

/*
 * SMPL: a request with the attribute CPC_SMPL_NRECS ("smpl_nrecs", the
 * records a buffer keeps of it) samples; "smpl_regs" (this library's) adds
 * the user registers to its records.  Each record is a uint64_t per item
 * (cpc_walk_smpl_recitems()); the items' indices are these.
 */
#define CPC_SMPL_NRECS		"smpl_nrecs"
#define CPC_SMPL_REGS		"smpl_regs"
#define CPC_SMPL_ITEM_PC	0	/* "pc": the sampled instruction */
#define CPC_SMPL_ITEM_HRTIME	1	/* "hrtime": when, as gethrtime() */
#define CPC_SMPL_ITEM_CPU	2	/* "cpu": the CPU it ran on */
#define CPC_SMPL_ITEM_REGS	3	/* first register ("smpl_regs") */

/* Longest strings of cpc_cciname() and cpc_cpuref() */
#define CPC_MAX_IMPL_NAME	512
#define CPC_MAX_CPUREF		1024
#define CPC_MAX_EVENT_LEN	512
#define CPC_MAX_ATTR_LEN	32

/* Flags of a request (cpc_set_add_request()) */
#define CPC_OVF_NOTIFY_EMT	0x1
#define CPC_COUNT_USER		0x2
#define CPC_COUNT_SYSTEM	0x4
#define CPC_COUNT_HV		0x8

/* cpc_caps() */
#define CPC_CAP_OVERFLOW_INTERRUPT	0x1
#define CPC_CAP_OVERFLOW_PRECISE	0x2

/* The subcodes an error handler receives (cpc_seterrhndlr()) */
#define CPC_INVALID_EVENT		1
#define CPC_INVALID_PICNUM		2
#define CPC_INVALID_ATTRIBUTE		3
#define CPC_ATTRIBUTE_OUT_OF_RANGE	4
#define CPC_RESOURCE_UNAVAIL		5
#define CPC_PIC_NOT_CAPABLE		6
#define CPC_REQ_INVALID_FLAGS		7
#define CPC_CONFLICTING_REQS		8
#define CPC_ATTR_REQUIRES_PRIVILEGE	9
#define CPC_PBIND_FAILED		10
#define CPC_HV_NO_ACCESS		11

cpc_t	*cpc_open(int ver);
int	cpc_close(cpc_t *cpc);

uint_t	cpc_npic(cpc_t *cpc);
uint_t	cpc_smpl_npic(cpc_t *cpc);
uint_t	cpc_caps(cpc_t *cpc);
const char *cpc_cciname(cpc_t *cpc);
const char *cpc_smpl_iname(cpc_t *cpc);
const char *cpc_cpuref(cpc_t *cpc);
uint_t	cpc_get_smpl_max_rec_count(cpc_t *cpc);

typedef void (cpc_errhndlr_t)(const char *fn, int subcode, const char *fmt,
			      va_list ap);
int	cpc_seterrhndlr(cpc_t *cpc, cpc_errhndlr_t *fn);

cpc_set_t *cpc_set_create(cpc_t *cpc);
int	cpc_set_destroy(cpc_t *cpc, cpc_set_t *set);
int	cpc_set_add_request(cpc_t *cpc, cpc_set_t *set, const char *event,
			    uint64_t preset, uint_t flags, uint_t nattrs,
			    const cpc_attr_t *attrs);

cpc_buf_t *cpc_buf_create(cpc_t *cpc, cpc_set_t *set);
int	cpc_buf_destroy(cpc_t *cpc, cpc_buf_t *buf);

int	cpc_bind_curlwp(cpc_t *cpc, cpc_set_t *set, uint_t flags);
int	cpc_bind_pctx(cpc_t *cpc, pctx_t *pctx, id_t id, cpc_set_t *set,
		      uint_t flags);
int	cpc_bind_cpu(cpc_t *cpc, processorid_t id, cpc_set_t *set,
		     uint_t flags);
int	cpc_request_preset(cpc_t *cpc, int index, uint64_t preset);
int	cpc_set_restart(cpc_t *cpc, cpc_set_t *set);
int	cpc_unbind(cpc_t *cpc, cpc_set_t *set);
int	cpc_set_sample(cpc_t *cpc, cpc_set_t *set, cpc_buf_t *buf);

void	cpc_buf_sub(cpc_t *cpc, cpc_buf_t *ds, cpc_buf_t *a, cpc_buf_t *b);
void	cpc_buf_add(cpc_t *cpc, cpc_buf_t *ds, cpc_buf_t *a, cpc_buf_t *b);
void	cpc_buf_copy(cpc_t *cpc, cpc_buf_t *ds, cpc_buf_t *src);
void	cpc_buf_zero(cpc_t *cpc, cpc_buf_t *buf);
int	cpc_buf_get(cpc_t *cpc, cpc_buf_t *buf, int index, uint64_t *val);
int	cpc_buf_set(cpc_t *cpc, cpc_buf_t *buf, int index, uint64_t val);
hrtime_t cpc_buf_hrtime(cpc_t *cpc, cpc_buf_t *buf);
uint64_t cpc_buf_tick(cpc_t *cpc, cpc_buf_t *buf);
int	cpc_buf_smpl_rec_count(cpc_t *cpc, cpc_buf_t *buf, int request_index,
			       uint_t *rec_count);
int	cpc_buf_smpl_get_item(cpc_t *cpc, cpc_buf_t *buf, int request_index,
			      int record_index, int record_item_index,
			      uint64_t *val);
uint64_t *cpc_buf_smpl_get_record(cpc_t *cpc, cpc_buf_t *buf,
				  int request_index, int record_index);

void	cpc_walk_requests(cpc_t *cpc, cpc_set_t *set, void *arg,
			  void (*action)(void *arg, int index,
					 const char *event, uint64_t preset,
					 uint_t flags, int nattrs,
					 const cpc_attr_t *attrs));
void	cpc_walk_events_all(cpc_t *cpc, void *arg,
			    void (*action)(void *arg, const char *event));
void	cpc_walk_generic_events_all(cpc_t *cpc, void *arg,
				    void (*action)(void *arg,
						   const char *event));
void	cpc_walk_events_pic(cpc_t *cpc, uint_t picno, void *arg,
			    void (*action)(void *arg, uint_t picno,
					   const char *event));
void	cpc_walk_generic_events_pic(cpc_t *cpc, uint_t picno, void *arg,
				    void (*action)(void *arg, uint_t picno,
						   const char *event));
void	cpc_walk_attrs(cpc_t *cpc, void *arg,
		       void (*action)(void *arg, const char *attr));
void	cpc_walk_smpl_recitems(cpc_t *cpc, void *arg,
			       void (*action)(void *arg, const char *name,
					      int record_item_index));
void	cpc_walk_smpl_recitems_req(cpc_t *cpc, cpc_set_t *set,
				   int request_index, void *arg,
				   void (*action)(void *arg, const char *name,
						  int record_item_index));

int	cpc_enable(cpc_t *cpc);
int	cpc_disable(cpc_t *cpc);

void	cpc_terminate(cpc_t *cpc);

#ifdef __cplusplus
}
#endif

#endif /* _LIBCPC_H */
