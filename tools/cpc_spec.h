/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hwpmc-cputrack and hwpmc-cpustat: their -c event specifications, as
 * cputrack(1) and cpustat(1M) write them, into libcpc(3) sets.
 *
 *   [picn=]event[,attr[n][=val]][,[picn=]event[,attr[n][=val]]...]
 *
 * A token "picN=event" or a token that is not an attribute starts a
 * request; "attr=val", "attr" (value 1), "sys" (count system mode) and
 * "nouser" (do not count user mode) apply to every request of the
 * specification, or with a number n to the request on counter n (its
 * picn=, else the n-th request).  Requests count user mode unless told;
 * an event that cannot count user mode alone (a software event such as
 * page-faults) counts both modes when the specification names no mode.
 */
#ifndef _HWPMC_CPC_SPEC_H
#define _HWPMC_CPC_SPEC_H

#include <stdio.h>
#include <libcpc.h>

#define CPCS_MAXREQ	32
#define CPCS_MAXATTR	16

struct cpcs_req {
	const char	*event;		/* in the spec's copy */
	int		 pic;		/* its picn=, else -1 */
	int		 has_mode;	/* sys or nouser named */
	uint_t		 flags;
	uint_t		 nattrs;
	cpc_attr_t	 attrs[CPCS_MAXATTR];
};

struct cpcs_spec {
	char		*text;		/* the specification, copied and cut */
	int		 nreqs;
	struct cpcs_req	 reqs[CPCS_MAXREQ];
};

/* Parse text into sp; -1 and a message in err when it is malformed. */
int cpcs_parse(cpc_t *cpc, const char *text, struct cpcs_spec *sp,
	       char *err, size_t errlen);

/* A set of sp's requests; NULL and libcpc's message in err on error. */
cpc_set_t *cpcs_set(cpc_t *cpc, struct cpcs_spec *sp, char *err, size_t errlen);

void cpcs_free(struct cpcs_spec *sp);

/* -h: the events, generic events and attributes of this machine */
void cpcs_list(cpc_t *cpc, FILE *f);

#endif
