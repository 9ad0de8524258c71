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
 *
 * Also what else the two tools share: their common options, libcpc
 * opened and the -c sets checked, the output's columns.
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

#define CPCS_MAXSPEC	16	/* -c sets */

/* The options the two tools share: -c, -h, -n, -t, -D (illumos' debug) */
struct cpcs_opts {
	const char	*texts[CPCS_MAXSPEC];	/* -c, as given */
	int		 ntexts;
	int		 help;		/* -h */
	int		 noheader;	/* -n */
	int		 tsc;		/* -t */
};

/* Take option c (its argument arg) if it is one of those: 1, else 0. */
int cpcs_tool_opt(struct cpcs_opts *o, int c, const char *arg);

/*
 * What the two tools share after their options (tool_util.h's messages):
 * cpcs_tool_open() opens libcpc; with help prints the usage and the
 * machine's events (cpcs_list()) and exits 0; without -c sets, a usage
 * error.  It returns the handle, NULL if the counters cannot be used:
 * cpcs_tool_sets() then exits 1 with the reason, else parses each -c
 * set (a usage error if malformed) and makes a set of it (exit 1 with
 * libcpc's message if libcpc refuses it), kept in sets[i] if sets is
 * given, else destroyed (the events checked).
 */
cpc_t *cpcs_tool_open(int help, int nspecs, void (*usage)(FILE *f));
void cpcs_tool_sets(cpc_t *cpc, const char *const *texts, int n,
		    struct cpcs_spec *specs, cpc_set_t **sets);

/* The output's columns: at least 9 wide, else their header's width. */
int cpcs_col_width(const char *name);
/* Request i's header: its event, "pic<i>" with several -c sets. */
const char *cpcs_col_name(const struct cpcs_spec *specs, int nspecs,
			  int spec, int i, char *buf, size_t len);
/* The header's columns: the most requests of a set. */
int cpcs_ncols(const struct cpcs_spec *specs, int nspecs);

#endif
