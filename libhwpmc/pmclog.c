// SPDX-License-Identifier: BSD-2-Clause
/*
 * libhwpmc: pmclog(3), the parser of hwpmc logs.
 *
 * A record that is whole in the data at hand (and 8-aligned, as records
 * are in a log read or fed from its start in aligned pieces) is decoded
 * where it is; others are assembled whole in a work area (at most
 * PMCLOG_MAX_RECORD bytes, the largest length the 16-bit header field can
 * hold) from whatever pieces the source delivers, then decoded into a
 * struct pmclog_ev.  The header word is checked as soon as its four bytes are
 * there (magic, type, length against the type's minimum), so that a
 * corrupted stream is reported at once instead of waiting for a length
 * that will never come; the payload is checked when it is complete.
 * Nothing is read beyond the record's own length, and the record's length
 * never beyond the work area.
 *
 * Errors that say the stream is corrupted (bad magic, unknown type, bad
 * length, a path without its NUL, a log that does not start with
 * INITIALIZE, a version this library cannot read) are sticky: every later
 * pmclog_read() returns PMCLOG_ERROR.  A failed read(2), or the end of the
 * fd inside a record, give PMCLOG_ERROR for that call only.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpmc_internal.h"

#pragma GCC visibility push(default)
#include "pmclog.h"

/* The oldest log this parser reads: MAP_IN gained pl_mapstart. */
#define PMCLOG_VERSION_MIN	0x01020000U
#pragma GCC visibility pop

#define PMCLOG_READ_SIZE	65536	/* read(2) size in fd mode */
#define PMCLOG_MAX_NAMES	1024	/* distinct event names kept */
#define PMCLOG_HDR_WORD		sizeof(uint32_t)
#define PMCLOG_HDR_SIZE		sizeof(struct pmclog_header)

struct pmclog_parser {
	int		fd;		/* PMCLOG_FD_NONE: feed mode */
	int		broken;		/* sticky: stream corrupted */
	int		initialized;	/* INITIALIZE seen */
	uint32_t	reclen;		/* current record's length, or 0 */
	uint32_t	have;		/* bytes of it assembled */
	off_t		offset;		/* stream offset of the next record */
	size_t		count;		/* records returned */
	const char	*src;		/* unread input */
	size_t		srclen;
	char		*readbuf;	/* fd mode: read(2) buffer */
	char		**names;	/* interned event names */
	size_t		nnames;
	const struct pmclog_ev *ev;	/* where the last record went */
	const void	*data;		/* its pl_data */
	size_t		dirty;		/* bytes of its pl_u it may have set */
	uint64_t	rec[PMCLOG_MAX_RECORD / sizeof(uint64_t)]; /* work area */
};

/*
 * Decoding is driven by a table, one entry per record type: the fields
 * of the record's fixed part copied into the type's member of ev->pl_u,
 * and what follows the fixed part (a path, the PCs of a call chain).
 * Only INITIALIZE, PMCALLOCATE and CALLCHAIN need code of their own.
 */
enum pmclog_tail {
	PMCLOG_TAIL_NONE,
	PMCLOG_TAIL_PATH,		/* a NUL-terminated path */
	PMCLOG_TAIL_PCS,		/* uint64_t PCs */
};

/* A field: len bytes at src in the record to dst in ev->pl_u. */
struct pmclog_copy {
	uint16_t	src, dst, len;	/* len: 4 or 8, unless str */
	uint16_t	str;		/* a string of at most len bytes: NUL added */
};

struct pmclog_kind {
	uint16_t	fixed;		/* the record's fixed part; 0: no such type */
	uint16_t	evsize;		/* size of its member of ev->pl_u */
	uint16_t	var;		/* where in it the tail goes (else evsize) */
	uint16_t	varend;		/* the end of the tail's room */
	uint16_t	tail;		/* enum pmclog_tail */
	struct pmclog_copy copy[7];	/* ends with len 0 */
};

/* sizeof(a), which must be sizeof(b) and 4 or 8 (a compile error otherwise) */
#define PMCLOG_FIELD_SIZE(a, b)						\
	(uint16_t)(sizeof(a) + 0 * sizeof(char[sizeof(a) == sizeof(b) &&	\
					       (sizeof(a) == 4 || sizeof(a) == 8) ? 1 : -1]))
#define PMCLOG_REC(r, f)	(((struct pmclog_##r *)0)->f)
#define PMCLOG_EV(e, f)		(((struct pmclog_ev_##e *)0)->f)

/* record r's field rf to field ef of pl_u's struct pmclog_ev_e */
#define F(r, rf, e, ef)							\
	{ offsetof(struct pmclog_##r, rf), offsetof(struct pmclog_ev_##e, ef), \
	  PMCLOG_FIELD_SIZE(PMCLOG_REC(r, rf), PMCLOG_EV(e, ef)), 0 }
/* a string field: at most what the record has and ev can hold with a NUL */
#define S(r, rf, e, ef)							\
	{ offsetof(struct pmclog_##r, rf), offsetof(struct pmclog_ev_##e, ef), \
	  sizeof(PMCLOG_REC(r, rf)) < sizeof(PMCLOG_EV(e, ef)) ?		\
	  sizeof(PMCLOG_REC(r, rf)) : sizeof(PMCLOG_EV(e, ef)) - 1, 1 }
/* a type without a tail, with a path, with PCs */
#define KIND(r, e, ...)							\
	{ sizeof(struct pmclog_##r), sizeof(struct pmclog_ev_##e),	\
	  sizeof(struct pmclog_ev_##e), sizeof(struct pmclog_ev_##e),	\
	  PMCLOG_TAIL_NONE, { __VA_ARGS__ } }
#define KIND_TAIL(r, e, tail, ef, ...)					\
	{ sizeof(struct pmclog_##r), sizeof(struct pmclog_ev_##e),	\
	  offsetof(struct pmclog_ev_##e, ef),				\
	  offsetof(struct pmclog_ev_##e, ef) + sizeof(PMCLOG_EV(e, ef)), \
	  tail, { __VA_ARGS__ } }

static const struct pmclog_kind pmclog_kinds[PMCLOG_TYPE_MAX + 1] = {
	[PMCLOG_TYPE_CLOSELOG] = KIND(closelog, closelog, { 0 }),
	[PMCLOG_TYPE_DROPNOTIFY] = KIND(dropnotify, dropnotify,
		F(dropnotify, pl_dropped, dropnotify, pl_dropped)),
	[PMCLOG_TYPE_INITIALIZE] = KIND(initialize, initialize,
		F(initialize, pl_version, initialize, pl_version),
		F(initialize, pl_cpu, initialize, pl_arch),
		F(initialize, pl_ncpu, initialize, pl_ncpu),
		S(initialize, pl_cpuid, initialize, pl_cpuid)),
	[PMCLOG_TYPE_PMCALLOCATE] = KIND(pmcallocate, pmcallocate,
		F(pmcallocate, pl_pmcid, pmcallocate, pl_pmcid),
		F(pmcallocate, pl_event, pmcallocate, pl_event),
		F(pmcallocate, pl_flags, pmcallocate, pl_flags),
		F(pmcallocate, pl_rate, pmcallocate, pl_rate)),
	[PMCLOG_TYPE_PMCATTACH] = KIND_TAIL(pmcattach, pmcattach,
		PMCLOG_TAIL_PATH, pl_pathname,
		F(pmcattach, pl_pmcid, pmcattach, pl_pmcid),
		F(pmcattach, pl_pid, pmcattach, pl_pid)),
	[PMCLOG_TYPE_PMCDETACH] = KIND(pmcdetach, pmcdetach,
		F(pmcdetach, pl_pmcid, pmcdetach, pl_pmcid),
		F(pmcdetach, pl_pid, pmcdetach, pl_pid)),
	[PMCLOG_TYPE_PROCCSW] = KIND(proccsw, proccsw,
		F(proccsw, pl_pid, proccsw, pl_pid),
		F(proccsw, pl_tid, proccsw, pl_tid),
		F(proccsw, pl_pmcid, proccsw, pl_pmcid),
		F(proccsw, pl_value, proccsw, pl_value)),
	[PMCLOG_TYPE_PROCEXEC] = KIND_TAIL(procexec, procexec,
		PMCLOG_TAIL_PATH, pl_pathname,
		F(procexec, pl_pid, procexec, pl_pid),
		F(procexec, pl_pmcid, procexec, pl_pmcid),
		F(procexec, pl_baseaddr, procexec, pl_baseaddr),
		F(procexec, pl_dynaddr, procexec, pl_dynaddr)),
	[PMCLOG_TYPE_PROCEXIT] = KIND(procexit, procexit,
		F(procexit, pl_pid, procexit, pl_pid),
		F(procexit, pl_pmcid, procexit, pl_pmcid),
		F(procexit, pl_value, procexit, pl_value)),
	[PMCLOG_TYPE_PROCFORK] = KIND(procfork, procfork,
		F(procfork, pl_oldpid, procfork, pl_oldpid),
		F(procfork, pl_newpid, procfork, pl_newpid)),
	[PMCLOG_TYPE_SYSEXIT] = KIND(sysexit, sysexit,
		F(sysexit, pl_pid, sysexit, pl_pid)),
	[PMCLOG_TYPE_USERDATA] = KIND(userdata, userdata,
		F(userdata, pl_userdata, userdata, pl_userdata),
		F(userdata, pl_pid, userdata, pl_pid)),
	[PMCLOG_TYPE_MAP_IN] = KIND_TAIL(map_in, map_in,
		PMCLOG_TAIL_PATH, pl_pathname,
		F(map_in, pl_pid, map_in, pl_pid),
		F(map_in, pl_start, map_in, pl_start),
		F(map_in, pl_end, map_in, pl_end),
		F(map_in, pl_pgoff, map_in, pl_pgoff),
		F(map_in, pl_mapstart, map_in, pl_mapstart),
		F(map_in, pl_prot, map_in, pl_prot)),
	[PMCLOG_TYPE_MAP_OUT] = KIND(map_out, map_out,
		F(map_out, pl_pid, map_out, pl_pid),
		F(map_out, pl_start, map_out, pl_start),
		F(map_out, pl_end, map_out, pl_end)),
	[PMCLOG_TYPE_CALLCHAIN] = KIND_TAIL(callchain, callchain,
		PMCLOG_TAIL_PCS, pl_pc,
		F(callchain, pl_pid, callchain, pl_pid),
		F(callchain, pl_tid, callchain, pl_tid),
		F(callchain, pl_pmcid, callchain, pl_pmcid),
		F(callchain, pl_cpuflags, callchain, pl_cpuflags)),
	/* FreeBSD's, for SOFT-class PMCs */
	[PMCLOG_TYPE_PMCALLOCATEDYN] = KIND(pmcallocatedyn, pmcallocatedyn,
		F(pmcallocatedyn, pl_pmcid, pmcallocatedyn, pl_pmcid),
		F(pmcallocatedyn, pl_event, pmcallocatedyn, pl_event),
		F(pmcallocatedyn, pl_flags, pmcallocatedyn, pl_flags),
		F(pmcallocatedyn, pl_rate, pmcallocatedyn, pl_rate),
		S(pmcallocatedyn, pl_evname, pmcallocatedyn, pl_evname)),
	[PMCLOG_TYPE_THR_CREATE] = KIND(thr_create, threadcreate,
		F(thr_create, pl_tid, threadcreate, pl_tid),
		F(thr_create, pl_pid, threadcreate, pl_pid),
		F(thr_create, pl_flags, threadcreate, pl_flags),
		S(thr_create, pl_tdname, threadcreate, pl_tdname)),
	[PMCLOG_TYPE_THR_EXIT] = KIND(thr_exit, threadexit,
		F(thr_exit, pl_tid, threadexit, pl_tid)),
	[PMCLOG_TYPE_PROC_CREATE] = KIND(proc_create, proccreate,
		F(proc_create, pl_pid, proccreate, pl_pid),
		F(proc_create, pl_flags, proccreate, pl_flags),
		S(proc_create, pl_pcomm, proccreate, pl_pcomm)),
	/* Linux; the rest in pmclog_userstack() */
	[PMCLOG_TYPE_USERSTACK] = KIND(userstack, userstack,
		F(userstack, pl_pmcid, userstack, pl_pmcid),
		F(userstack, pl_size, userstack, pl_size),
		F(userstack, pl_dynsize, userstack, pl_dynsize)),
};

#undef F
#undef S
#undef KIND
#undef KIND_TAIL

/* The least length a record of kind k may have: a path has its NUL. */
static uint32_t pmclog_minlen(const struct pmclog_kind *k)
{
	return k->fixed + (k->tail == PMCLOG_TAIL_PATH);
}

void *pmclog_open(int fd)
{
	struct pmclog_parser *ps;

	if (fd < 0 && fd != PMCLOG_FD_NONE) {
		errno = EBADF;
		return NULL;
	}
	ps = calloc(1, sizeof(*ps));
	if (!ps)
		return NULL;
	ps->fd = fd;
	if (fd != PMCLOG_FD_NONE) {
		ps->readbuf = malloc(PMCLOG_READ_SIZE);
		if (!ps->readbuf) {
			free(ps);
			return NULL;
		}
	}
	return ps;
}

void pmclog_close(void *cookie)
{
	struct pmclog_parser *ps = cookie;
	size_t i;

	if (!ps)
		return;
	for (i = 0; i < ps->nnames; i++)
		free(ps->names[i]);
	free(ps->names);
	free(ps->readbuf);
	free(ps);
}

int pmclog_feed(void *cookie, char *data, int len)
{
	struct pmclog_parser *ps = cookie;

	if (!ps || len < 0 || (len > 0 && !data) ||
	    ps->fd != PMCLOG_FD_NONE) {
		errno = EINVAL;
		return -1;
	}
	if (ps->srclen) {		/* the previous data is not used up */
		errno = EBUSY;
		return -1;
	}
	ps->src = data;
	ps->srclen = (size_t)len;
	return 0;
}

/* A copy of name that lives until pmclog_close(), or NULL. */
static const char *pmclog_intern(struct pmclog_parser *ps,
				 const char *name, size_t len)
{
	char **names;
	size_t i;

	for (i = 0; i < ps->nnames; i++)
		if (strlen(ps->names[i]) == len &&
		    !memcmp(ps->names[i], name, len))
			return ps->names[i];
	if (ps->nnames == PMCLOG_MAX_NAMES) {
		errno = ENOMEM;
		return NULL;
	}
	names = realloc(ps->names, (ps->nnames + 1) * sizeof(*names));
	if (!names)
		return NULL;
	ps->names = names;
	names[ps->nnames] = strndup(name, len);
	if (!names[ps->nnames])
		return NULL;
	return names[ps->nnames++];
}

/* Check the header word; 0 or -1 with errno. */
static int pmclog_check_header(const struct pmclog_parser *ps,
			       uint32_t h)
{
	uint32_t type = PMCLOG_HEADER_TO_TYPE(h), len = PMCLOG_HEADER_TO_LENGTH(h);

	if (PMCLOG_HEADER_TO_MAGIC(h) != PMCLOG_HEADER_MAGIC ||
	    type > PMCLOG_TYPE_MAX || !pmclog_kinds[type].fixed ||
	    len < pmclog_minlen(&pmclog_kinds[type]) || len % PMCLOG_ALIGN) {
		errno = EBADMSG;
		return -1;
	}
	if (!ps->initialized && type != PMCLOG_TYPE_INITIALIZE) {
		errno = EBADMSG;	/* not the start of a log */
		return -1;
	}
	return 0;
}

static uint64_t pmclog_u64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void pmclog_ns_to_ts(struct timespec *ts, uint64_t ns)
{
	ts->tv_sec = (time_t)(ns / 1000000000ULL);
	ts->tv_nsec = (long)(ns % 1000000000ULL);
}

/*
 * The bytes at the start of ev->pl_u that may not be zero: when ev is
 * where this parser put its last record, and still says so, what that
 * record set; else all of them.
 */
static size_t pmclog_dirty(const struct pmclog_parser *ps,
			   const struct pmclog_ev *ev)
{
	if (ev == ps->ev && ev->pl_data == ps->data && ev->pl_count == ps->count)
		return ps->dirty;
	return sizeof(ev->pl_u);
}

static void pmclog_zero(char *p, size_t from, size_t to)
{
	if (from < to)
		memset(p + from, 0, to - from);
}

/*
 * USERSTACK's registers and stack, pointers into the record: its length
 * must be the fixed part, the registers and the stack, padded; 0 or -1.
 */
static int pmclog_userstack(struct pmclog_ev_userstack *us, const char *rec,
			    uint32_t len)
{
	const struct pmclog_userstack *r = (const void *)rec;
	uint64_t need;

	us->pl_abi = r->pl_abi;
	us->pl_nregs = r->pl_nregs;
	need = sizeof(*r) + (uint64_t)r->pl_nregs * sizeof(uint64_t) +
	       r->pl_dynsize;
	if (r->pl_nregs > PMC_USTACK_NREGS_MAX || r->pl_dynsize > r->pl_size ||
	    (need + PMCLOG_ALIGN - 1) / PMCLOG_ALIGN * PMCLOG_ALIGN != len)
		return -1;
	us->pl_regs = (const uint64_t *)(rec + sizeof(*r));
	us->pl_stack = rec + sizeof(*r) + r->pl_nregs * sizeof(uint64_t);
	return 0;
}

/*
 * Decode the complete record at rec (8-aligned, len bytes long); 0 or -1
 * with errno.
 *
 * Whatever a record does not set in ev->pl_u is zero (<pmclog.h>: the
 * unused PCs of a call chain, the bytes after a path's NUL...), but
 * ev->pl_u is 4 KB, mostly room for PCs and paths: clearing it all for
 * every record was half the work of reading a log of samples.  So only
 * the fixed part of the record's struct is cleared and filled, then its
 * tail, and beyond that only what the previous record may have set.
 */
static int pmclog_decode(struct pmclog_parser *ps, struct pmclog_ev *ev,
			 const char *rec, uint32_t len)
{
	const char *tail, *nul;
	const struct pmclog_kind *k;
	const struct pmclog_copy *c;
	char *u = (char *)&ev->pl_u;
	size_t taillen, room, end, dirty;
	uint32_t h, type;

	memcpy(&h, rec, sizeof(h));
	type = PMCLOG_HEADER_TO_TYPE(h);
	k = &pmclog_kinds[type];	/* pmclog_check_header() checked type */
	dirty = pmclog_dirty(ps, ev);
	ps->ev = NULL;			/* until this record is in */
	ev->pl_type = (enum pmclog_type)type;
	pmclog_ns_to_ts(&ev->pl_ts, pmclog_u64(rec + offsetof(struct pmclog_header,
							       pl_time)));
	ev->pl_data = (void *)rec;
	ev->pl_len = (int)len;

	memset(u, 0, k->var);
	pmclog_zero(u, k->varend, k->evsize);	/* MAP_IN: fields after the path */
	for (c = k->copy; c->len; c++) {
		if (c->str)
			memcpy(u + c->dst, rec + c->src,
			       strnlen(rec + c->src, c->len));
		else if (c->len == 4)	/* constant sizes: no call */
			memcpy(u + c->dst, rec + c->src, 4);
		else
			memcpy(u + c->dst, rec + c->src, 8);
	}

	/* what follows the fixed part (pmclog_check_header(): len >= fixed) */
	tail = rec + k->fixed;
	taillen = len - k->fixed;
	room = (size_t)(k->varend - k->var);
	switch (k->tail) {
	case PMCLOG_TAIL_PATH:
		nul = memchr(tail, '\0', taillen < room ? taillen : room);
		if (!nul)
			goto bad;	/* no NUL, or longer than PATH_MAX */
		end = k->var + (size_t)(nul - tail) + 1;
		memcpy(u + k->var, tail, end - k->var);
		break;
	case PMCLOG_TAIL_PCS:
		if (taillen > room)
			goto bad;	/* more than PMC_CALLCHAIN_DEPTH_MAX */
		ev->pl_u.pl_cc.pl_npc = (uint32_t)(taillen / sizeof(uint64_t));
		memcpy(u + k->var, tail, taillen);
		end = k->var + taillen;
		break;
	default:
		end = k->var;
		break;
	}

	switch (type) {
	case PMCLOG_TYPE_INITIALIZE:
		/*
		 * Another major version, or a log of a module older than
		 * 0x01020000, whose MAP_IN had no pl_mapstart: its records
		 * would be misread, so none is.
		 */
		if (ev->pl_u.pl_i.pl_version >> 24 != PMC_VERSION_MAJOR ||
		    ev->pl_u.pl_i.pl_version < PMCLOG_VERSION_MIN) {
			errno = EPROTO;
			return -1;
		}
		ev->pl_u.pl_i.pl_tsc_freq = 1000000000ULL;
		pmclog_ns_to_ts(&ev->pl_u.pl_i.pl_ts,
				pmclog_u64(rec + offsetof(struct pmclog_initialize,
							  pl_realtime)));
		ps->initialized = 1;
		break;
	case PMCLOG_TYPE_PMCALLOCATE:
		tail = rec + offsetof(struct pmclog_pmcallocate, pl_evname);
		taillen = strnlen(tail, sizeof(PMCLOG_REC(pmcallocate, pl_evname)));
		ev->pl_u.pl_a.pl_evname = pmclog_intern(ps, tail, taillen);
		if (!ev->pl_u.pl_a.pl_evname)
			return -1;
		break;
	case PMCLOG_TYPE_USERSTACK:
		if (pmclog_userstack(&ev->pl_u.pl_us, rec, len))
			goto bad;
		break;
	default:
		break;
	}

	/* what the previous record set that this one did not */
	pmclog_zero(u, end, dirty < k->varend ? dirty : k->varend);
	pmclog_zero(u, k->evsize, dirty);
	ps->ev = ev;
	ps->data = rec;
	ps->dirty = k->varend < k->evsize ? k->evsize : end;
	return 0;
bad:
	errno = EBADMSG;
	return -1;
}

/* Stop with state st; -1. */
static int pmclog_stop(struct pmclog_ev *ev, enum pmclog_state st)
{
	ev->pl_state = st;
	return -1;
}

/* Corrupted: stay so. */
static int pmclog_broken(struct pmclog_parser *ps, struct pmclog_ev *ev)
{
	int e = errno;

	ps->broken = e ? e : EBADMSG;
	errno = ps->broken;
	return pmclog_stop(ev, PMCLOG_ERROR);
}

/* The record at rec, len bytes, into ev; 0, or -1 with errno. */
static int pmclog_record(struct pmclog_parser *ps, struct pmclog_ev *ev,
			 const char *rec, uint32_t len)
{
	if (pmclog_decode(ps, ev, rec, len))
		return pmclog_broken(ps, ev);
	ps->offset += len;
	ev->pl_offset = ps->offset;
	ev->pl_count = ++ps->count;
	ev->pl_state = PMCLOG_OK;
	return 0;
}

int pmclog_read(void *cookie, struct pmclog_ev *ev)
{
	struct pmclog_parser *ps = cookie;
	const char *rec;
	char *work;
	uint32_t need, h, len;
	size_t n;
	ssize_t got;

	if (!ps || !ev) {
		errno = EINVAL;
		if (ev)
			ev->pl_state = PMCLOG_ERROR;
		return -1;
	}
	if (ps->broken) {
		errno = ps->broken;
		return pmclog_stop(ev, PMCLOG_ERROR);
	}
	work = (char *)ps->rec;
	for (;;) {
		if (!ps->have && ps->srclen >= PMCLOG_HDR_WORD) {
			/*
			 * A record starts here: check its header, then
			 * decode it where it is if it is all there (and
			 * 8-aligned, as pl_data is), else assemble it.
			 */
			memcpy(&h, ps->src, sizeof(h));
			if (pmclog_check_header(ps, h))
				return pmclog_broken(ps, ev);
			len = PMCLOG_HEADER_TO_LENGTH(h);
			if (len <= ps->srclen &&
			    !((uintptr_t)ps->src % PMCLOG_ALIGN)) {
				rec = ps->src;
				ps->src += len;
				ps->srclen -= len;
				return pmclog_record(ps, ev, rec, len);
			}
			ps->reclen = len;
		}
		need = ps->reclen ? ps->reclen : (uint32_t)PMCLOG_HDR_WORD;
		if (ps->have == need && ps->reclen) {
			/* a whole record assembled: decode it */
			len = ps->reclen;
			ps->have = 0;
			ps->reclen = 0;
			return pmclog_record(ps, ev, work, len);
		}
		if (ps->have == need) {
			/* the header word: check it before waiting for more */
			memcpy(&h, work, sizeof(h));
			if (pmclog_check_header(ps, h))
				return pmclog_broken(ps, ev);
			ps->reclen = PMCLOG_HEADER_TO_LENGTH(h);
			continue;
		}
		if (!ps->srclen) {
			if (ps->fd == PMCLOG_FD_NONE)
				return pmclog_stop(ev, PMCLOG_REQUIRE_DATA);
			got = read(ps->fd, ps->readbuf, PMCLOG_READ_SIZE);
			if (got < 0) {
				if (errno == EAGAIN || errno == EWOULDBLOCK ||
				    errno == EINTR)
					return pmclog_stop(ev,
							   PMCLOG_REQUIRE_DATA);
				return pmclog_stop(ev, PMCLOG_ERROR);
			}
			if (got == 0) {
				if (ps->have) {	/* ends inside a record */
					errno = EIO;
					return pmclog_stop(ev, PMCLOG_ERROR);
				}
				return pmclog_stop(ev, PMCLOG_EOF);
			}
			ps->src = ps->readbuf;
			ps->srclen = (size_t)got;
		}
		n = need - ps->have;
		if (n > ps->srclen)
			n = ps->srclen;
		memcpy(work + ps->have, ps->src, n);
		ps->have += (uint32_t)n;
		ps->src += n;
		ps->srclen -= n;
	}
}
