// SPDX-License-Identifier: BSD-2-Clause
/*
 * libhwpmc: pmclog(3), the parser of hwpmc logs.
 *
 * Records are assembled whole in a work area (at most PMCLOG_MAX_RECORD
 * bytes, the largest length the 16-bit header field can hold) from
 * whatever pieces the source delivers, then decoded into a struct
 * pmclog_ev.  The header word is checked as soon as its four bytes are
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
#pragma GCC visibility pop

#define PMCLOG_READ_SIZE	65536	/* read(2) size in fd mode */
#define PMCLOG_MAX_NAMES	1024	/* distinct event names kept */
#define PMCLOG_HDR_WORD		sizeof(uint32_t)
#define PMCLOG_HDR_SIZE		sizeof(struct pmclog_header)

struct pmclog_parse_state {
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
	uint64_t	rec[PMCLOG_MAX_RECORD / sizeof(uint64_t)]; /* work area */
};

/* The fixed part of each type: the least length a record may have. */
static const uint32_t pmclog_minlen[PMCLOG_TYPE_MAX + 1] = {
	[PMCLOG_TYPE_CLOSELOG]		= sizeof(struct pmclog_closelog),
	[PMCLOG_TYPE_DROPNOTIFY]	= sizeof(struct pmclog_dropnotify),
	[PMCLOG_TYPE_INITIALIZE]	= sizeof(struct pmclog_initialize),
	[PMCLOG_TYPE_PMCALLOCATE]	= sizeof(struct pmclog_pmcallocate),
	[PMCLOG_TYPE_PMCATTACH]		= sizeof(struct pmclog_pmcattach) + 1,
	[PMCLOG_TYPE_PMCDETACH]		= sizeof(struct pmclog_pmcdetach),
	[PMCLOG_TYPE_PROCCSW]		= sizeof(struct pmclog_proccsw),
	[PMCLOG_TYPE_PROCEXEC]		= sizeof(struct pmclog_procexec) + 1,
	[PMCLOG_TYPE_PROCEXIT]		= sizeof(struct pmclog_procexit),
	[PMCLOG_TYPE_PROCFORK]		= sizeof(struct pmclog_procfork),
	[PMCLOG_TYPE_SYSEXIT]		= sizeof(struct pmclog_sysexit),
	[PMCLOG_TYPE_USERDATA]		= sizeof(struct pmclog_userdata),
	[PMCLOG_TYPE_MAP_IN]		= sizeof(struct pmclog_map_in) + 1,
	[PMCLOG_TYPE_MAP_OUT]		= sizeof(struct pmclog_map_out),
	[PMCLOG_TYPE_CALLCHAIN]		= sizeof(struct pmclog_callchain),
	/* PMCLOG_TYPE_PMCALLOCATEDYN: never written; 0 = unknown */
	[PMCLOG_TYPE_THR_CREATE]	= sizeof(struct pmclog_thr_create),
	[PMCLOG_TYPE_THR_EXIT]		= sizeof(struct pmclog_thr_exit),
	[PMCLOG_TYPE_PROC_CREATE]	= sizeof(struct pmclog_proc_create),
};

void *pmclog_open(int fd)
{
	struct pmclog_parse_state *ps;

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
	struct pmclog_parse_state *ps = cookie;
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
	struct pmclog_parse_state *ps = cookie;

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
static const char *pmclog_intern(struct pmclog_parse_state *ps,
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

/* Copy a NUL-terminated string of at most srclen bytes; -1 when none. */
static int pmclog_path(char *dst, size_t dstlen, const char *src,
		       size_t srclen)
{
	const char *nul = memchr(src, '\0', srclen < dstlen ? srclen : dstlen);

	if (!nul)
		return -1;
	memcpy(dst, src, (size_t)(nul - src) + 1);
	return 0;
}

/* A fixed-size string field, NUL-terminated in dst (dstlen > srclen). */
static void pmclog_str(char *dst, const char *src, size_t srclen)
{
	size_t n = strnlen(src, srclen);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Check the header word; 0 or -1 with errno. */
static int pmclog_check_header(const struct pmclog_parse_state *ps,
			       uint32_t h)
{
	uint32_t type = PMCLOG_HEADER_TO_TYPE(h), len = PMCLOG_HEADER_TO_LENGTH(h);

	if (PMCLOG_HEADER_TO_MAGIC(h) != PMCLOG_HEADER_MAGIC ||
	    type > PMCLOG_TYPE_MAX || !pmclog_minlen[type] ||
	    len < pmclog_minlen[type] || len % PMCLOG_ALIGN) {
		errno = EBADMSG;
		return -1;
	}
	if (!ps->initialized && type != PMCLOG_TYPE_INITIALIZE) {
		errno = EBADMSG;	/* not the start of a log */
		return -1;
	}
	return 0;
}

#define FIXED(ptr)	memcpy(&(ptr), rec, sizeof(ptr))

/* Decode the complete record in the work area; 0 or -1 with errno. */
static int pmclog_decode(struct pmclog_parse_state *ps, struct pmclog_ev *ev,
			 uint32_t len)
{
	const char *rec = (const char *)ps->rec;
	uint32_t type;
	struct pmclog_header hdr;
	size_t tail;
	uint32_t i;

	memcpy(&hdr, rec, sizeof(hdr));
	type = PMCLOG_HEADER_TO_TYPE(hdr.pl_header);
	memset(ev, 0, sizeof(*ev));
	ev->pl_type = (enum pmclog_type)type;
	ev->pl_ts.tv_sec = (time_t)(hdr.pl_time / 1000000000ULL);
	ev->pl_ts.tv_nsec = (long)(hdr.pl_time % 1000000000ULL);
	ev->pl_data = ps->rec;
	ev->pl_len = (int)len;

	switch (type) {
	case PMCLOG_TYPE_CLOSELOG:
		break;
	case PMCLOG_TYPE_DROPNOTIFY: {
		struct pmclog_dropnotify r;

		FIXED(r);
		ev->pl_u.pl_dn.pl_dropped = r.pl_dropped;
		break;
	}
	case PMCLOG_TYPE_INITIALIZE: {
		struct pmclog_ev_initialize *e = &ev->pl_u.pl_i;
		struct pmclog_initialize r;

		FIXED(r);
		if (r.pl_version >> 24 != PMC_VERSION_MAJOR) {
			errno = EPROTO;
			return -1;
		}
		e->pl_version = r.pl_version;
		e->pl_arch = r.pl_cpu;
		e->pl_tsc_freq = 1000000000ULL;
		e->pl_ts.tv_sec = (time_t)(r.pl_realtime / 1000000000ULL);
		e->pl_ts.tv_nsec = (long)(r.pl_realtime % 1000000000ULL);
		pmclog_str(e->pl_cpuid, r.pl_cpuid, sizeof(r.pl_cpuid) - 1);
		e->pl_ncpu = r.pl_ncpu;
		ps->initialized = 1;
		break;
	}
	case PMCLOG_TYPE_PMCALLOCATE: {
		struct pmclog_ev_pmcallocate *e = &ev->pl_u.pl_a;
		struct pmclog_pmcallocate r;

		FIXED(r);
		e->pl_evname = pmclog_intern(ps, r.pl_evname,
					     strnlen(r.pl_evname,
						     sizeof(r.pl_evname)));
		if (!e->pl_evname)
			return -1;
		e->pl_rate = r.pl_rate;
		e->pl_event = r.pl_event;
		e->pl_flags = r.pl_flags;
		e->pl_pmcid = r.pl_pmcid;
		break;
	}
	case PMCLOG_TYPE_PMCATTACH: {
		struct pmclog_ev_pmcattach *e = &ev->pl_u.pl_t;
		struct pmclog_pmcattach r;

		FIXED(r);
		e->pl_pmcid = r.pl_pmcid;
		e->pl_pid = (pid_t)r.pl_pid;
		if (pmclog_path(e->pl_pathname, sizeof(e->pl_pathname),
				rec + sizeof(r), len - sizeof(r)))
			goto bad;
		break;
	}
	case PMCLOG_TYPE_PMCDETACH: {
		struct pmclog_pmcdetach r;

		FIXED(r);
		ev->pl_u.pl_d.pl_pmcid = r.pl_pmcid;
		ev->pl_u.pl_d.pl_pid = (pid_t)r.pl_pid;
		break;
	}
	case PMCLOG_TYPE_PROCCSW: {
		struct pmclog_proccsw r;

		FIXED(r);
		ev->pl_u.pl_c.pl_pid = (pid_t)r.pl_pid;
		ev->pl_u.pl_c.pl_tid = (pid_t)r.pl_tid;
		ev->pl_u.pl_c.pl_pmcid = r.pl_pmcid;
		ev->pl_u.pl_c.pl_value = r.pl_value;
		break;
	}
	case PMCLOG_TYPE_PROCEXEC: {
		struct pmclog_ev_procexec *e = &ev->pl_u.pl_x;
		struct pmclog_procexec r;

		FIXED(r);
		e->pl_pid = (pid_t)r.pl_pid;
		e->pl_pmcid = r.pl_pmcid;
		e->pl_baseaddr = r.pl_base;
		e->pl_dynaddr = r.pl_dynaddr;
		if (pmclog_path(e->pl_pathname, sizeof(e->pl_pathname),
				rec + sizeof(r), len - sizeof(r)))
			goto bad;
		break;
	}
	case PMCLOG_TYPE_PROCEXIT: {
		struct pmclog_procexit r;

		FIXED(r);
		ev->pl_u.pl_e.pl_pid = r.pl_pid;
		ev->pl_u.pl_e.pl_pmcid = r.pl_pmcid;
		ev->pl_u.pl_e.pl_value = r.pl_value;
		break;
	}
	case PMCLOG_TYPE_PROCFORK: {
		struct pmclog_procfork r;

		FIXED(r);
		ev->pl_u.pl_f.pl_oldpid = (pid_t)r.pl_oldpid;
		ev->pl_u.pl_f.pl_newpid = (pid_t)r.pl_newpid;
		break;
	}
	case PMCLOG_TYPE_SYSEXIT: {
		struct pmclog_sysexit r;

		FIXED(r);
		ev->pl_u.pl_se.pl_pid = (pid_t)r.pl_pid;
		break;
	}
	case PMCLOG_TYPE_USERDATA: {
		struct pmclog_userdata r;

		FIXED(r);
		ev->pl_u.pl_u.pl_userdata = r.pl_userdata;
		ev->pl_u.pl_u.pl_pid = (pid_t)r.pl_pid;
		break;
	}
	case PMCLOG_TYPE_MAP_IN: {
		struct pmclog_ev_map_in *e = &ev->pl_u.pl_mi;
		struct pmclog_map_in r;

		FIXED(r);
		e->pl_pid = r.pl_pid;
		e->pl_start = r.pl_start;
		e->pl_end = r.pl_end;
		e->pl_pgoff = r.pl_pgoff;
		e->pl_prot = r.pl_prot;
		if (pmclog_path(e->pl_pathname, sizeof(e->pl_pathname),
				rec + sizeof(r), len - sizeof(r)))
			goto bad;
		break;
	}
	case PMCLOG_TYPE_MAP_OUT: {
		struct pmclog_map_out r;

		FIXED(r);
		ev->pl_u.pl_mo.pl_pid = (pid_t)r.pl_pid;
		ev->pl_u.pl_mo.pl_start = r.pl_start;
		ev->pl_u.pl_mo.pl_end = r.pl_end;
		break;
	}
	case PMCLOG_TYPE_CALLCHAIN: {
		struct pmclog_ev_callchain *e = &ev->pl_u.pl_cc;
		struct pmclog_callchain r;

		FIXED(r);
		tail = (len - sizeof(r)) / sizeof(uint64_t);
		if (tail > PMC_CALLCHAIN_DEPTH_MAX)
			goto bad;
		e->pl_pid = r.pl_pid;
		e->pl_tid = r.pl_tid;
		e->pl_pmcid = r.pl_pmcid;
		e->pl_cpuflags = r.pl_cpuflags;
		e->pl_npc = (uint32_t)tail;
		for (i = 0; i < e->pl_npc; i++)
			memcpy(&e->pl_pc[i], rec + sizeof(r) + i * sizeof(uint64_t),
			       sizeof(uint64_t));
		break;
	}
	case PMCLOG_TYPE_THR_CREATE: {
		struct pmclog_ev_threadcreate *e = &ev->pl_u.pl_tc;
		struct pmclog_thr_create r;

		FIXED(r);
		e->pl_tid = (pid_t)r.pl_tid;
		e->pl_pid = (pid_t)r.pl_pid;
		e->pl_flags = r.pl_flags;
		pmclog_str(e->pl_tdname, r.pl_tdname, sizeof(r.pl_tdname));
		break;
	}
	case PMCLOG_TYPE_THR_EXIT: {
		struct pmclog_thr_exit r;

		FIXED(r);
		ev->pl_u.pl_te.pl_tid = (pid_t)r.pl_tid;
		break;
	}
	case PMCLOG_TYPE_PROC_CREATE: {
		struct pmclog_ev_proccreate *e = &ev->pl_u.pl_pc;
		struct pmclog_proc_create r;

		FIXED(r);
		e->pl_pid = (pid_t)r.pl_pid;
		e->pl_flags = r.pl_flags;
		pmclog_str(e->pl_pcomm, r.pl_pcomm, sizeof(r.pl_pcomm));
		break;
	}
	default:		/* pmclog_check_header() let it through */
		goto bad;
	}
	return 0;
bad:
	errno = EBADMSG;
	return -1;
}

#undef FIXED

/* Stop with state st; -1. */
static int pmclog_stop(struct pmclog_ev *ev, enum pmclog_state st)
{
	ev->pl_state = st;
	return -1;
}

/* Corrupted: stay so. */
static int pmclog_broken(struct pmclog_parse_state *ps, struct pmclog_ev *ev)
{
	int e = errno;

	ps->broken = e ? e : EBADMSG;
	errno = ps->broken;
	return pmclog_stop(ev, PMCLOG_ERROR);
}

int pmclog_read(void *cookie, struct pmclog_ev *ev)
{
	struct pmclog_parse_state *ps = cookie;
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
		need = ps->reclen ? ps->reclen : (uint32_t)PMCLOG_HDR_WORD;
		if (ps->have == need && ps->reclen) {
			/* a whole record: decode it */
			len = ps->reclen;
			ps->have = 0;
			ps->reclen = 0;
			if (pmclog_decode(ps, ev, len))
				return pmclog_broken(ps, ev);
			ps->offset += len;
			ev->pl_offset = ps->offset;
			ev->pl_count = ++ps->count;
			ev->pl_state = PMCLOG_OK;
			return 0;
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
