// SPDX-License-Identifier: GPL-2.0
/*
 * pmclog(3) against logs built in memory: every record type decoded, feed
 * mode split at every byte, fd mode from a file, a pipe, a socket and a
 * non-blocking pipe, truncated and corrupted logs, and what a record does
 * not set left zero whatever the struct pmclog_ev held before.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <pmclog.h>
#include "pmclog_build.h"
#include "tap.h"

/* -- helpers -------------------------------------------------------------- */

/* What a read gave: the state, and for OK the record's raw bytes. */
struct got {
	enum pmclog_state st;
	int		type;
	size_t		count;
	off_t		offset;
	int		len;
	char		*raw;
};

struct run {
	struct got	*g;
	size_t		n, cap;
};

static void run_add(struct run *r, const struct pmclog_ev *ev)
{
	struct got *g;

	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->g = realloc(r->g, r->cap * sizeof(*r->g));
		if (!r->g)
			abort();
	}
	g = &r->g[r->n++];
	memset(g, 0, sizeof(*g));
	g->st = ev->pl_state;
	if (ev->pl_state != PMCLOG_OK)
		return;
	g->type = (int)ev->pl_type;
	g->count = ev->pl_count;
	g->offset = ev->pl_offset;
	g->len = ev->pl_len;
	g->raw = malloc((size_t)ev->pl_len);
	if (!g->raw)
		abort();
	memcpy(g->raw, ev->pl_data, (size_t)ev->pl_len);
}

static void run_free(struct run *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->g[i].raw);
	free(r->g);
	memset(r, 0, sizeof(*r));
}

/* Same records, in the same order, same final state. */
static int run_same(const struct run *a, const struct run *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++) {
		const struct got *x = &a->g[i], *y = &b->g[i];

		if (x->st != y->st || x->type != y->type ||
		    x->count != y->count || x->offset != y->offset ||
		    x->len != y->len ||
		    (x->len && memcmp(x->raw, y->raw, (size_t)x->len)))
			return 0;
	}
	return 1;
}

/*
 * Feed buf in pieces ending at the cut points (ascending, last = len),
 * reading after each piece until the parser asks for more; every OK
 * record and the final state go into r.  Stops at an error.
 */
static void feed_cuts(const char *buf, size_t len, const size_t *cuts,
		      size_t ncuts, struct run *r)
{
	struct pmclog_ev ev;
	void *p = pmclog_open(PMCLOG_FD_NONE);
	size_t i, from = 0;
	char *copy;

	if (!p)
		abort();
	for (i = 0; i < ncuts; i++) {
		/* a copy of exactly the piece, so ASan sees any over-read */
		copy = malloc(cuts[i] - from + 1);
		memcpy(copy, buf + from, cuts[i] - from);
		if (pmclog_feed(p, copy, (int)(cuts[i] - from)))
			abort();
		while (pmclog_read(p, &ev) == 0)
			run_add(r, &ev);
		free(copy);
		if (ev.pl_state != PMCLOG_REQUIRE_DATA) {
			run_add(r, &ev);
			break;
		}
		from = cuts[i];
	}
	if (i == ncuts)
		run_add(r, &ev);	/* REQUIRE_DATA at the end */
	(void)len;
	pmclog_close(p);
}

static void feed_all(const char *buf, size_t len, struct run *r)
{
	feed_cuts(buf, len, &len, 1, r);
}

/* Read fd to the end (or an error): the last read's errno. */
static int read_fd(int fd, struct run *r)
{
	struct pmclog_ev ev;
	void *p = pmclog_open(fd);
	int err;

	if (!p)
		abort();
	while (pmclog_read(p, &ev) == 0)
		run_add(r, &ev);
	err = errno;
	run_add(r, &ev);
	pmclog_close(p);
	return err;
}

static int memfd_with(const char *buf, size_t len)
{
	int fd = memfd_create("pmclog", 0);

	if (fd < 0 || write(fd, buf, len) != (ssize_t)len ||
	    lseek(fd, 0, SEEK_SET) != 0)
		abort();
	return fd;
}

/* -- every type decoded --------------------------------------------------- */

static void test_decode(void)
{
	struct lb b;
	struct pmclog_ev ev;
	void *p;
	const char *name1 = NULL;
	size_t n = 0, i;
	int types[32], seen_end;
	off_t off = 0;

	lb_init(&b);
	lb_full(&b);
	p = pmclog_open(PMCLOG_FD_NONE);
	ok(p != NULL, "pmclog_open(PMCLOG_FD_NONE)");
	ok(pmclog_feed(p, b.buf, (int)b.len) == 0, "pmclog_feed the whole log");
	while (pmclog_read(p, &ev) == 0) {
		const struct pmclog_header *h = ev.pl_data;

		if (n < 32)
			types[n] = (int)ev.pl_type;
		off += ev.pl_len;
		n++;
		if (ev.pl_count != n || ev.pl_offset != off ||
		    (size_t)ev.pl_offset != b.ends[n - 1])
			ok(0, "record %zu: count %zu offset %lld", n,
			   ev.pl_count, (long long)ev.pl_offset);
		if (ev.pl_ts.tv_sec != 5 ||
		    ev.pl_ts.tv_nsec != (long)(123 + 1000 * (n - 1)) ||
		    h->pl_time != 5000000123ULL + 1000 * (n - 1))
			ok(0, "record %zu: pl_ts %lld.%09ld", n,
			   (long long)ev.pl_ts.tv_sec, ev.pl_ts.tv_nsec);
		switch (ev.pl_type) {
		case PMCLOG_TYPE_INITIALIZE:
			ok(ev.pl_u.pl_i.pl_version == PMCLOG_VERSION &&
			   ev.pl_u.pl_i.pl_arch == PMC_CPU_LINUX_X86 &&
			   ev.pl_u.pl_i.pl_tsc_freq == 1000000000ULL &&
			   ev.pl_u.pl_i.pl_ts.tv_sec == 1700000000 &&
			   ev.pl_u.pl_i.pl_ts.tv_nsec == 42 &&
			   ev.pl_u.pl_i.pl_ncpu == 4 &&
			   !strcmp(ev.pl_u.pl_i.pl_cpuid, "x86_64"),
			   "INITIALIZE: version, arch, realtime, ncpu, cpuid");
			break;
		case PMCLOG_TYPE_PMCALLOCATE:
			if (ev.pl_u.pl_a.pl_pmcid == 0x2001) {
				name1 = ev.pl_u.pl_a.pl_evname;
				ok(!strcmp(name1, "cpu-clock") &&
				   ev.pl_u.pl_a.pl_event == 0x3001 &&
				   ev.pl_u.pl_a.pl_flags == PMC_F_CALLCHAIN &&
				   ev.pl_u.pl_a.pl_rate == 65536,
				   "PMCALLOCATE: evname, event, flags, rate");
			} else {
				ok(!strcmp(ev.pl_u.pl_a.pl_evname,
					   "instructions") &&
				   ev.pl_u.pl_a.pl_pmcid == 0x2002,
				   "PMCALLOCATE: second PMC");
			}
			break;
		case PMCLOG_TYPE_PMCATTACH:
			ok(ev.pl_u.pl_t.pl_pmcid == 0x2001 &&
			   ev.pl_u.pl_t.pl_pid == 100 &&
			   !strcmp(ev.pl_u.pl_t.pl_pathname, "/usr/bin/true"),
			   "PMCATTACH: pmcid, pid, pathname");
			break;
		case PMCLOG_TYPE_PROC_CREATE:
			ok(ev.pl_u.pl_pc.pl_pid == 100 &&
			   ev.pl_u.pl_pc.pl_flags == 1 &&
			   !strcmp(ev.pl_u.pl_pc.pl_pcomm, "0123456789abcdef"),
			   "PROC_CREATE: pid, flags, 16-char comm terminated");
			break;
		case PMCLOG_TYPE_THR_CREATE:
			ok(ev.pl_u.pl_tc.pl_tid == 101 &&
			   ev.pl_u.pl_tc.pl_pid == 100 &&
			   ev.pl_u.pl_tc.pl_flags == 2 &&
			   !strcmp(ev.pl_u.pl_tc.pl_tdname, "worker"),
			   "THR_CREATE: tid, pid, flags, tdname");
			break;
		case PMCLOG_TYPE_MAP_IN:
			ok(ev.pl_u.pl_mi.pl_pid == -1 &&
			   ev.pl_u.pl_mi.pl_start == 0xffffffff81000000ULL &&
			   ev.pl_u.pl_mi.pl_end == 0xffffffff82000000ULL &&
			   ev.pl_u.pl_mi.pl_pgoff == 0x1000 &&
			   ev.pl_u.pl_mi.pl_mapstart == 0xffffffff81001000ULL &&
			   ev.pl_u.pl_mi.pl_prot == 5 &&
			   !strcmp(ev.pl_u.pl_mi.pl_pathname, "[kernel]"),
			   "MAP_IN: pid -1, start, end, pgoff, mapstart, prot, pathname");
			break;
		case PMCLOG_TYPE_PROCEXEC:
			ok(ev.pl_u.pl_x.pl_pid == 100 &&
			   ev.pl_u.pl_x.pl_pmcid == 0x2001 &&
			   ev.pl_u.pl_x.pl_baseaddr == 0x7f0000000000ULL &&
			   ev.pl_u.pl_x.pl_dynaddr == 0x555555554000ULL &&
			   !strcmp(ev.pl_u.pl_x.pl_pathname,
				   "/usr/bin/a-program-with-a-long-name"),
			   "PROCEXEC: pid, pmcid, baseaddr, dynaddr, pathname");
			break;
		case PMCLOG_TYPE_CALLCHAIN: {
			const struct pmclog_ev_callchain *cc = &ev.pl_u.pl_cc;
			int good = cc->pl_pid == 100 && cc->pl_tid == 101 &&
				   cc->pl_pmcid == 0x2001 &&
				   cc->pl_cpuflags2 == 0 &&
				   PMC_CALLCHAIN_CPUFLAGS_TO_CPU(cc->pl_cpuflags) == 3 &&
				   PMC_CALLCHAIN_CPUFLAGS_TO_USERMODE(cc->pl_cpuflags);

			for (i = 0; i < PMC_CALLCHAIN_DEPTH_MAX; i++)
				good &= cc->pl_pc[i] == (i < cc->pl_npc ?
					0x400000 + 0x10 * (uint64_t)i : 0);
			ok(good && (cc->pl_npc == 3 ||
				    cc->pl_npc == PMC_CALLCHAIN_DEPTH_MAX),
			   "CALLCHAIN: %u PCs, pid, tid, pmcid, cpuflags, rest 0",
			   cc->pl_npc);
			break;
		}
		case PMCLOG_TYPE_PROCCSW:
			ok(ev.pl_u.pl_c.pl_pid == 100 &&
			   ev.pl_u.pl_c.pl_tid == 102 &&
			   ev.pl_u.pl_c.pl_pmcid == 0x2001 &&
			   ev.pl_u.pl_c.pl_value == 123456789012ULL,
			   "PROCCSW: pid, tid, pmcid, value");
			break;
		case PMCLOG_TYPE_PROCFORK:
			ok(ev.pl_u.pl_f.pl_oldpid == 100 &&
			   ev.pl_u.pl_f.pl_newpid == 103,
			   "PROCFORK: oldpid, newpid");
			break;
		case PMCLOG_TYPE_USERDATA:
			ok(ev.pl_u.pl_u.pl_userdata == 0xdeadbeef &&
			   ev.pl_u.pl_u.pl_pid == 77,
			   "USERDATA: userdata, pid");
			break;
		case PMCLOG_TYPE_DROPNOTIFY:
			ok(ev.pl_u.pl_dn.pl_dropped == 9,
			   "DROPNOTIFY: dropped");
			break;
		case PMCLOG_TYPE_MAP_OUT:
			ok(ev.pl_u.pl_mo.pl_pid == 100 &&
			   ev.pl_u.pl_mo.pl_start == 0x1000 &&
			   ev.pl_u.pl_mo.pl_end == 0x2000,
			   "MAP_OUT: pid, start, end");
			break;
		case PMCLOG_TYPE_THR_EXIT:
			ok(ev.pl_u.pl_te.pl_tid == 101, "THR_EXIT: tid");
			break;
		case PMCLOG_TYPE_PROCEXIT:
			ok(ev.pl_u.pl_e.pl_pid == 100 &&
			   ev.pl_u.pl_e.pl_pmcid == 0x2001 &&
			   ev.pl_u.pl_e.pl_value == 987654321ULL,
			   "PROCEXIT: pid, pmcid, value");
			break;
		case PMCLOG_TYPE_SYSEXIT:
			ok(ev.pl_u.pl_se.pl_pid == 100, "SYSEXIT: pid");
			break;
		case PMCLOG_TYPE_PMCDETACH:
			ok(ev.pl_u.pl_d.pl_pmcid == 0x2001 &&
			   ev.pl_u.pl_d.pl_pid == 100,
			   "PMCDETACH: pmcid, pid");
			break;
		case PMCLOG_TYPE_CLOSELOG:
			ok(ev.pl_len == 16, "CLOSELOG");
			break;
		case PMCLOG_TYPE_USERSTACK: {
			const struct pmclog_ev_userstack *us = &ev.pl_u.pl_us;
			const unsigned char *st = us->pl_stack;
			const char *raw = ev.pl_data;

			ok(us->pl_pmcid == 0x2001 &&
			   us->pl_abi == PMC_USTACK_ABI_X86_64 &&
			   us->pl_nregs == 17 && us->pl_size == 4096 &&
			   us->pl_dynsize == 1024,
			   "USERSTACK: pmcid, abi, nregs, size, dynsize");
			ok((const char *)us->pl_regs == raw + 32 &&
			   us->pl_regs[0] == 0 && us->pl_regs[16] == 0x1000 &&
			   (const char *)st == raw + 32 + 17 * 8 &&
			   st[0] == 0 && st[255] == 255 && st[1023] == 255,
			   "USERSTACK: the registers, then the stack, in the record");
			ok(ev.pl_len == 32 + 17 * 8 + 1024,
			   "USERSTACK: its length is its parts");
			break;
		}
		default:
			ok(0, "unexpected type %d", (int)ev.pl_type);
		}
	}
	ok(ev.pl_state == PMCLOG_REQUIRE_DATA,
	   "after the last record: PMCLOG_REQUIRE_DATA (state %d)",
	   ev.pl_state);
	seen_end = n == b.nrec && (size_t)off == b.len;
	ok(seen_end, "%zu records of %zu, %lld bytes of %zu", n, b.nrec,
	   (long long)off, b.len);
	ok(n >= 2 && types[0] == PMCLOG_TYPE_INITIALIZE &&
	   types[n - 1] == PMCLOG_TYPE_CLOSELOG, "INITIALIZE first, CLOSELOG last");
	ok(name1 && !strcmp(name1, "cpu-clock"),
	   "pl_evname still valid after later records");

	/* the same name again: the same string */
	lb_free(&b);
	lb_init(&b);
	lb_initialize(&b, PMCLOG_VERSION);
	lb_pmcallocate(&b, 0x2003, "cpu-clock");
	ok(pmclog_feed(p, b.buf + b.ends[0], (int)(b.len - b.ends[0])) == 0 &&
	   pmclog_read(p, &ev) == 0 && ev.pl_u.pl_a.pl_evname == name1,
	   "an event name seen before is the same string");
	pmclog_close(p);
	lb_free(&b);
}

/* -- feed mode in pieces -------------------------------------------------- */

static void test_splits(void)
{
	struct run ref = { 0 }, r = { 0 };
	struct lb b;
	size_t k, cuts[2], *one, bad = 0;

	lb_init(&b);
	lb_full(&b);
	feed_all(b.buf, b.len, &ref);
	ok(ref.n == b.nrec + 1 && ref.g[ref.n - 1].st == PMCLOG_REQUIRE_DATA,
	   "reference: %zu records then REQUIRE_DATA", ref.n - 1);

	/* two pieces, split at every byte */
	for (k = 0; k <= b.len; k++) {
		cuts[0] = k;
		cuts[1] = b.len;
		feed_cuts(b.buf, b.len, cuts, 2, &r);
		bad += !run_same(&ref, &r);
		run_free(&r);
	}
	ok(bad == 0, "split in two at each of %zu bytes: same records (%zu differ)",
	   b.len + 1, bad);

	/* one byte at a time */
	one = malloc(b.len * sizeof(*one));
	for (k = 0; k < b.len; k++)
		one[k] = k + 1;
	feed_cuts(b.buf, b.len, one, b.len, &r);
	ok(run_same(&ref, &r), "one byte at a time: same records");
	run_free(&r);

	/* pieces of 7 bytes: never aligned to a record */
	for (k = 0; k < b.len; k++)
		one[k] = (k + 1) * 7 < b.len ? (k + 1) * 7 : b.len;
	feed_cuts(b.buf, b.len, one, (b.len + 6) / 7, &r);
	ok(run_same(&ref, &r), "pieces of 7 bytes: same records");
	run_free(&r);
	free(one);
	run_free(&ref);
	lb_free(&b);
}

/* -- fd mode -------------------------------------------------------------- */

struct writer {
	int		fd;
	const char	*buf;
	size_t		len, chunk;
};

/* Write in small chunks with pauses, so the reader sees partial records. */
static void *writer_fn(void *arg)
{
	struct writer *w = arg;
	size_t off = 0, n;

	while (off < w->len) {
		n = w->len - off < w->chunk ? w->len - off : w->chunk;
		if (write(w->fd, w->buf + off, n) != (ssize_t)n)
			break;
		off += n;
		if ((off / w->chunk) % 16 == 0)
			usleep(1000);
	}
	close(w->fd);
	return NULL;
}

static void stream(const char *what, int rfd, int wfd, const struct lb *b,
		   const struct run *ref, size_t chunk)
{
	struct writer w = { wfd, b->buf, b->len, chunk };
	struct run r = { 0 };
	pthread_t t;
	int good;

	if (pthread_create(&t, NULL, writer_fn, &w))
		abort();
	read_fd(rfd, &r);
	pthread_join(t, NULL);
	close(rfd);
	/* same records; the end is EOF where feeding says REQUIRE_DATA */
	good = r.n == ref->n && r.g[r.n - 1].st == PMCLOG_EOF;
	if (good) {
		r.g[r.n - 1].st = PMCLOG_REQUIRE_DATA;
		good = run_same(ref, &r);
	}
	ok(good, "%s, written %zu bytes at a time: every record, then PMCLOG_EOF",
	   what, chunk);
	run_free(&r);
}

static void test_fd(void)
{
	struct run ref = { 0 }, r = { 0 };
	struct pmclog_ev ev;
	struct lb b;
	int fd, p[2], s[2];
	void *pp;

	lb_init(&b);
	lb_full(&b);
	feed_all(b.buf, b.len, &ref);

	fd = memfd_with(b.buf, b.len);
	read_fd(fd, &r);
	close(fd);
	ok(r.n == ref.n && r.g[r.n - 1].st == PMCLOG_EOF,
	   "a file: every record, then PMCLOG_EOF");
	run_free(&r);

	if (pipe(p))
		abort();
	stream("a pipe", p[0], p[1], &b, &ref, 5);
	if (pipe(p))
		abort();
	stream("a pipe", p[0], p[1], &b, &ref, 4096);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, s))
		abort();
	stream("a socket", s[0], s[1], &b, &ref, 13);

	/* non-blocking: REQUIRE_DATA when empty, then the records */
	if (pipe2(p, O_NONBLOCK))
		abort();
	pp = pmclog_open(p[0]);
	ok(pmclog_read(pp, &ev) == -1 && ev.pl_state == PMCLOG_REQUIRE_DATA,
	   "an empty O_NONBLOCK pipe: PMCLOG_REQUIRE_DATA");
	if (write(p[1], b.buf, 20) != 20)
		abort();
	ok(pmclog_read(pp, &ev) == -1 && ev.pl_state == PMCLOG_REQUIRE_DATA,
	   "20 bytes of a 104-byte record: PMCLOG_REQUIRE_DATA");
	if (write(p[1], b.buf + 20, b.ends[0] - 20) != (ssize_t)(b.ends[0] - 20))
		abort();
	ok(pmclog_read(pp, &ev) == 0 && ev.pl_type == PMCLOG_TYPE_INITIALIZE,
	   "the rest of it: INITIALIZE");
	ok(pmclog_read(pp, &ev) == -1 && ev.pl_state == PMCLOG_REQUIRE_DATA,
	   "nothing more yet: PMCLOG_REQUIRE_DATA");
	close(p[1]);
	ok(pmclog_read(pp, &ev) == -1 && ev.pl_state == PMCLOG_EOF,
	   "writer gone: PMCLOG_EOF");
	pmclog_close(pp);
	close(p[0]);

	/* a read error: ERROR with errno */
	pp = pmclog_open(1000);		/* not open */
	errno = 0;
	ok(pp && pmclog_read(pp, &ev) == -1 && ev.pl_state == PMCLOG_ERROR &&
	   errno == EBADF, "a bad fd: PMCLOG_ERROR, EBADF");
	pmclog_close(pp);
	run_free(&ref);
	lb_free(&b);
}

/* -- truncation ----------------------------------------------------------- */

static void test_truncated(void)
{
	struct run r = { 0 };
	struct lb b;
	size_t k, j, nrec, bad_feed = 0, bad_fd = 0;
	int fd, boundary, err;

	lb_init(&b);
	lb_full(&b);
	for (k = 0; k < b.len; k++) {
		for (nrec = 0, boundary = k == 0, j = 0; j < b.nrec; j++) {
			nrec += b.ends[j] <= k;
			boundary |= b.ends[j] == k;
		}
		/* fed: the whole records, then REQUIRE_DATA */
		feed_all(b.buf, k, &r);
		bad_feed += !(r.n == nrec + 1 &&
			      r.g[nrec].st == PMCLOG_REQUIRE_DATA);
		run_free(&r);
		/* from a file: then EOF at a boundary, else ERROR */
		fd = memfd_with(b.buf, k);
		errno = 0;
		err = read_fd(fd, &r);
		close(fd);
		bad_fd += !(r.n == nrec + 1 &&
			    r.g[nrec].st == (boundary ? PMCLOG_EOF : PMCLOG_ERROR) &&
			    (boundary || err == EIO));
		run_free(&r);
	}
	ok(bad_feed == 0,
	   "fed, cut at each of %zu bytes: whole records then PMCLOG_REQUIRE_DATA (%zu wrong)",
	   b.len, bad_feed);
	ok(bad_fd == 0,
	   "a file cut at each of %zu bytes: whole records then EOF, or ERROR/EIO inside a record (%zu wrong)",
	   b.len, bad_fd);
	lb_free(&b);
}

/* -- corruption ----------------------------------------------------------- */

/* Parse buf fed whole: the number of records before the final state. */
static size_t parse_final(const char *buf, size_t len, enum pmclog_state *st,
			  int *err)
{
	struct pmclog_ev ev;
	void *p = pmclog_open(PMCLOG_FD_NONE);
	size_t n = 0;

	pmclog_feed(p, (char *)buf, (int)len);
	errno = 0;
	while (pmclog_read(p, &ev) == 0)
		n++;
	*st = ev.pl_state;
	*err = errno;
	/* errors are sticky, and feeding is refused while data is left */
	if (ev.pl_state == PMCLOG_ERROR && (pmclog_read(p, &ev) != -1 ||
					    ev.pl_state != PMCLOG_ERROR))
		*st = PMCLOG_OK;	/* reported as a failure */
	pmclog_close(p);
	return n;
}

struct bad {
	const char	*what;
	size_t		good;		/* records before the bad one */
	int		err;		/* expected errno */
};

static void expect_bad(const struct lb *b, const struct bad *x)
{
	enum pmclog_state st;
	size_t n;
	int err;
	char *copy = malloc(b->len);

	memcpy(copy, b->buf, b->len);	/* exact size: ASan sees over-reads */
	n = parse_final(copy, b->len, &st, &err);
	ok(n == x->good && st == PMCLOG_ERROR && err == x->err,
	   "%s: %zu records, then PMCLOG_ERROR (%s), sticky (got %zu, state %d, %s)",
	   x->what, x->good, strerror(x->err), n, st, strerror(err));
	free(copy);
}

static void test_corrupted(void)
{
	struct lb b;
	struct pmclog_userdata u = { .pl_userdata = 1 };
	struct pmclog_pmcattach at = { .pl_pmcid = 1, .pl_pid = 2 };
	struct pmclog_map_in mi = { .pl_pid = 3 };
	char path[PMCLOG_PATH_MAX + 16];
	uint32_t h;
	size_t k, bad;
	enum pmclog_state st;
	int err;

	/* the header word */
	lb_init(&b);
	lb_initialize(&b, PMCLOG_VERSION);
	lb_userdata(&b, 1);
	h = PMCLOG_HEADER(PMCLOG_TYPE_USERDATA, 24) & 0x00FFFFFF;
	memcpy(b.buf + b.ends[0], &h, 4);
	expect_bad(&b, &(struct bad){ "bad magic", 1, EBADMSG });
	lb_free(&b);

	{
		static const uint32_t types[] = { 0, 4, PMCLOG_TYPE_MAX + 1,
						  255 };
		char what[64];

		for (k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
			lb_init(&b);
			lb_initialize(&b, PMCLOG_VERSION);
			lb_rec(&b, types[k], &u, sizeof(u), NULL, 0);
			snprintf(what, sizeof(what), "unknown type %u", types[k]);
			expect_bad(&b, &(struct bad){ what, 1, EBADMSG });
			lb_free(&b);
		}
	}
	{
		static const uint32_t lens[] = { 0, 8, 16, 20, 25, 31 };
		char what[64];

		for (k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
			lb_init(&b);
			lb_initialize(&b, PMCLOG_VERSION);
			lb_rec_len(&b, PMCLOG_TYPE_USERDATA, &u, sizeof(u),
				   NULL, 0, lens[k]);
			snprintf(what, sizeof(what), "USERDATA of length %u",
				 lens[k]);
			expect_bad(&b, &(struct bad){ what, 1, EBADMSG });
			lb_free(&b);
		}
	}

	/* USERSTACK: the length must be its parts; at most 64 registers */
	{
		static const struct {
			uint32_t nregs, size, dynsize, hdrlen;
			const char *what;
		} us[] = {
			{ 17, 4096, 1024, 32 + 17 * 8 + 1024 + 8,
			  "USERSTACK longer than its parts" },
			{ 17, 4096, 1024, 32 + 17 * 8 + 1016,
			  "USERSTACK shorter than its parts" },
			{ 17, 512, 1024, 0, "USERSTACK: more stack than asked" },
			{ 65, 4096, 8, 0, "USERSTACK of 65 registers" },
		};
		for (k = 0; k < sizeof(us) / sizeof(us[0]); k++) {
			lb_init(&b);
			lb_initialize(&b, PMCLOG_VERSION);
			lb_userstack_len(&b, us[k].nregs, us[k].size,
					 us[k].dynsize, us[k].hdrlen);
			lb_closelog(&b);	/* bytes for a longer length */
			expect_bad(&b, &(struct bad){ us[k].what, 1, EBADMSG });
			lb_free(&b);
		}
		/* a stack of 4 bytes: padding after it, but whole */
		lb_init(&b);
		lb_initialize(&b, PMCLOG_VERSION);
		lb_userstack_len(&b, 17, 8, 4, 0);
		lb_closelog(&b);
		{
			struct pmclog_ev ev;
			void *p = pmclog_open(PMCLOG_FD_NONE);

			ok(p && pmclog_feed(p, b.buf, (int)b.len) == 0 &&
			   pmclog_read(p, &ev) == 0 && pmclog_read(p, &ev) == 0 &&
			   ev.pl_type == PMCLOG_TYPE_USERSTACK &&
			   ev.pl_u.pl_us.pl_dynsize == 4,
			   "USERSTACK of 4 bytes of stack, padded");
			pmclog_close(p);
		}
		lb_free(&b);
	}

	/* not a log: no INITIALIZE first */
	lb_init(&b);
	lb_userdata(&b, 1);
	lb_initialize(&b, PMCLOG_VERSION);
	expect_bad(&b, &(struct bad){ "USERDATA before INITIALIZE", 0, EBADMSG });
	lb_free(&b);

	lb_init(&b);
	lb_initialize(&b, PMCLOG_VERSION + (1U << 24));
	expect_bad(&b, &(struct bad){ "INITIALIZE of version 2.x", 0, EPROTO });
	lb_free(&b);

	lb_init(&b);
	lb_initialize(&b, 0x01010000);
	expect_bad(&b, &(struct bad){ "INITIALIZE of version 1.1 (MAP_IN without pl_mapstart)", 0, EPROTO });
	lb_free(&b);

	/* paths */
	lb_init(&b);
	lb_initialize(&b, PMCLOG_VERSION);
	memset(path, 'a', 16);
	lb_rec(&b, PMCLOG_TYPE_PMCATTACH, &at, sizeof(at), path, 16);
	expect_bad(&b, &(struct bad){ "PMCATTACH, path without NUL", 1, EBADMSG });
	lb_free(&b);

	lb_init(&b);
	lb_initialize(&b, PMCLOG_VERSION);
	memset(path, 'a', sizeof(path));
	path[PMCLOG_PATH_MAX] = '\0';	/* 4097 bytes with the NUL */
	lb_rec(&b, PMCLOG_TYPE_MAP_IN, &mi, sizeof(mi), path,
	       PMCLOG_PATH_MAX + 1);
	expect_bad(&b, &(struct bad){ "MAP_IN, path of PATH_MAX bytes", 1, EBADMSG });
	lb_free(&b);

	lb_init(&b);
	lb_initialize(&b, PMCLOG_VERSION);
	path[PMCLOG_PATH_MAX - 1] = '\0';	/* PATH_MAX - 1 + NUL: fits */
	lb_rec(&b, PMCLOG_TYPE_MAP_IN, &mi, sizeof(mi), path,
	       PMCLOG_PATH_MAX);
	parse_final(b.buf, b.len, &st, &err);
	ok(st == PMCLOG_REQUIRE_DATA, "MAP_IN, path of PATH_MAX - 1 bytes: read");
	lb_free(&b);

	/* call chains */
	lb_init(&b);
	lb_initialize(&b, PMCLOG_VERSION);
	lb_callchain(&b, PMC_CALLCHAIN_DEPTH_MAX + 1);
	expect_bad(&b, &(struct bad){ "CALLCHAIN of 513 PCs", 1, EBADMSG });
	lb_free(&b);

	lb_init(&b);
	lb_initialize(&b, PMCLOG_VERSION);
	lb_callchain(&b, (PMCLOG_MAX_RECORD - sizeof(struct pmclog_callchain)) / 8);
	expect_bad(&b, &(struct bad){ "CALLCHAIN of the largest length", 1, EBADMSG });
	lb_free(&b);

	lb_init(&b);
	lb_initialize(&b, PMCLOG_VERSION);
	lb_callchain(&b, 0);
	parse_final(b.buf, b.len, &st, &err);
	ok(st == PMCLOG_REQUIRE_DATA, "CALLCHAIN of no PCs: read (pl_npc 0)");
	lb_free(&b);

	/* longer fixed records than this library knows: read */
	lb_init(&b);
	lb_initialize(&b, PMCLOG_VERSION);
	lb_rec_len(&b, PMCLOG_TYPE_USERDATA, &u, sizeof(u), path, 8, 32);
	lb_userdata(&b, 2);
	k = parse_final(b.buf, b.len, &st, &err);
	ok(k == 3 && st == PMCLOG_REQUIRE_DATA,
	   "USERDATA of 32 bytes (a later version's): read, and what follows");
	lb_free(&b);

	/* every byte of a whole log flipped in turn: never a crash */
	lb_init(&b);
	lb_full(&b);
	for (k = 0, bad = 0; k < b.len; k++) {
		char *copy = malloc(b.len);
		size_t n;

		memcpy(copy, b.buf, b.len);
		copy[k] ^= 0xA5;
		n = parse_final(copy, b.len, &st, &err);
		bad += !(st == PMCLOG_ERROR || st == PMCLOG_REQUIRE_DATA) ||
		       n > b.nrec;
		free(copy);
	}
	ok(bad == 0, "each of %zu bytes flipped: records then ERROR or REQUIRE_DATA (%zu wrong)",
	   b.len, bad);
	lb_free(&b);
}

/* -- what a record does not set is zero ------------------------------------ */

/* ev->pl_u's bytes, the event name by value rather than by address */
static int same_union(const struct pmclog_ev *a, const struct pmclog_ev *b)
{
	struct pmclog_ev x = *a, y = *b;

	if (x.pl_type == PMCLOG_TYPE_PMCALLOCATE) {
		if (strcmp(x.pl_u.pl_a.pl_evname, y.pl_u.pl_a.pl_evname))
			return 0;
		x.pl_u.pl_a.pl_evname = y.pl_u.pl_a.pl_evname = NULL;
	}
	return !memcmp(&x.pl_u, &y.pl_u, sizeof(x.pl_u));
}

/*
 * pmclog_read() clears only what the previous record set when it is
 * given the same ev again: the records of lb_full() then paths and call
 * chains of every length, long then short, read into one ev filled with
 * garbage first, into a new ev full of garbage each time, and into two
 * evs in turn, must leave the same bytes in ev->pl_u.
 */
static void test_clear(void)
{
	static const uint32_t npc[] = { PMC_CALLCHAIN_DEPTH_MAX, 3, 100, 0, 1,
					PMC_CALLCHAIN_DEPTH_MAX - 1, 2 };
	static struct pmclog_ev one, fresh, two[2];
	struct pmclog_map_in mi = { .pl_pid = 7, .pl_start = 0x1000,
				    .pl_end = 0x2000, .pl_prot = 5 };
	char path[PMCLOG_PATH_MAX];
	void *p[3];
	size_t i, n = 0, differ = 0, rest = 0;
	struct lb b;

	lb_init(&b);
	lb_full(&b);
	for (i = 0; i < sizeof(npc) / sizeof(npc[0]); i++) {
		size_t plen = i % 2 ? PMCLOG_PATH_MAX - 1 : 1 + 37 * i;

		memset(path, 'a' + (int)i, plen);
		path[plen] = '\0';
		lb_rec(&b, PMCLOG_TYPE_MAP_IN, &mi, sizeof(mi), path, plen + 1);
		lb_callchain(&b, npc[i]);
		lb_callchain(&b, npc[(i + 3) % (sizeof(npc) / sizeof(npc[0]))]);
	}
	for (i = 0; i < 3; i++) {
		p[i] = pmclog_open(PMCLOG_FD_NONE);
		if (!p[i] || pmclog_feed(p[i], b.buf, (int)b.len))
			abort();
	}
	memset(&one, 0xA5, sizeof(one));
	memset(two, 0x5A, sizeof(two));
	while (pmclog_read(p[0], &one) == 0) {
		struct pmclog_ev *t = &two[n % 2];

		memset(&fresh, 0xA5, sizeof(fresh));
		if (pmclog_read(p[1], &fresh) || pmclog_read(p[2], t))
			break;
		differ += !same_union(&one, &fresh) || !same_union(&one, t);
		if (one.pl_type == PMCLOG_TYPE_CALLCHAIN)
			for (i = one.pl_u.pl_cc.pl_npc; i < PMC_CALLCHAIN_DEPTH_MAX; i++)
				rest += one.pl_u.pl_cc.pl_pc[i] != 0;
		n++;
	}
	ok(n == b.nrec && differ == 0,
	   "one ev, a new ev each time, two in turn: the same pl_u for each of %zu records (%zu differ)",
	   n, differ);
	ok(rest == 0, "call chains long then short: the PCs after pl_npc are 0 (%zu are not)",
	   rest);
	for (i = 0; i < 3; i++)
		pmclog_close(p[i]);
	lb_free(&b);
}

/* -- API misuse ----------------------------------------------------------- */

static void test_api(void)
{
	struct pmclog_ev ev;
	struct lb b;
	char x[8] = { 0 };
	void *p;
	int fd;

	errno = 0;
	ok(pmclog_open(-5) == NULL && errno == EBADF, "pmclog_open(-5): NULL, EBADF");
	pmclog_close(NULL);
	ok(1, "pmclog_close(NULL) does nothing");

	p = pmclog_open(PMCLOG_FD_NONE);
	ok(pmclog_read(p, &ev) == -1 && ev.pl_state == PMCLOG_REQUIRE_DATA,
	   "nothing fed: PMCLOG_REQUIRE_DATA");
	ok(pmclog_feed(p, x, -1) == -1 && errno == EINVAL, "feed len -1: EINVAL");
	ok(pmclog_feed(p, NULL, 8) == -1 && errno == EINVAL, "feed NULL: EINVAL");
	ok(pmclog_feed(p, x, 0) == 0, "feed 0 bytes");
	ok(pmclog_feed(p, x, 2) == 0, "feed 2 bytes");
	ok(pmclog_feed(p, x, 2) == -1 && errno == EBUSY,
	   "feed again before they are read: EBUSY");
	pmclog_close(p);

	lb_init(&b);
	lb_full(&b);
	fd = memfd_with(b.buf, b.len);
	p = pmclog_open(fd);
	ok(pmclog_feed(p, b.buf, (int)b.len) == -1 && errno == EINVAL,
	   "feed an fd parser: EINVAL");
	ok(pmclog_read(p, &ev) == 0 && ev.pl_type == PMCLOG_TYPE_INITIALIZE,
	   "an fd parser reads its fd");
	ok(pmclog_read(NULL, &ev) == -1 && ev.pl_state == PMCLOG_ERROR &&
	   errno == EINVAL, "pmclog_read(NULL): ERROR, EINVAL");
	pmclog_close(p);
	close(fd);
	lb_free(&b);
}

/*
 * PMCALLOCATEDYN, FreeBSD's record for a PMC of a SOFT-class event (the
 * module writes it for those): the reader decodes it into pl_ad.
 */
static void test_allocatedyn(void)
{
	struct pmclog_pmcallocatedyn r;
	struct pmclog_ev ev;
	struct lb b;
	void *p;
	int rc;

	lb_init(&b);
	lb_initialize(&b, PMCLOG_VERSION);
	memset(&r, 0, sizeof(r));
	r.pl_pmcid = 0x2003;
	r.pl_event = PMC_EV_SOFT_FIRST + 1;
	r.pl_flags = PMC_F_CALLCHAIN;
	r.pl_rate = 1000000;
	strcpy(r.pl_evname, "task-clock");
	lb_rec(&b, PMCLOG_TYPE_PMCALLOCATEDYN, &r, sizeof(r), NULL, 0);
	memset(&r, 0, sizeof(r));
	r.pl_pmcid = 0x2004;
	memset(r.pl_evname, 'x', sizeof(r.pl_evname));	/* no NUL */
	lb_rec(&b, PMCLOG_TYPE_PMCALLOCATEDYN, &r, sizeof(r), NULL, 0);

	p = pmclog_open(PMCLOG_FD_NONE);
	ok(p && pmclog_feed(p, b.buf, (int)b.len) == 0, "PMCALLOCATEDYN: feed");
	memset(&ev, 0, sizeof(ev));
	rc = p ? pmclog_read(p, &ev) : -1;
	ok(rc == 0 && ev.pl_type == PMCLOG_TYPE_INITIALIZE, "... INITIALIZE");
	rc = p ? pmclog_read(p, &ev) : -1;
	ok(rc == 0 && ev.pl_type == PMCLOG_TYPE_PMCALLOCATEDYN &&
	   ev.pl_u.pl_ad.pl_pmcid == 0x2003 &&
	   ev.pl_u.pl_ad.pl_event == PMC_EV_SOFT_FIRST + 1 &&
	   ev.pl_u.pl_ad.pl_flags == PMC_F_CALLCHAIN &&
	   ev.pl_u.pl_ad.pl_rate == 1000000 &&
	   !strcmp(ev.pl_u.pl_ad.pl_evname, "task-clock"),
	   "PMCALLOCATEDYN: pl_ad pmcid, event, flags, rate, evname");
	rc = p ? pmclog_read(p, &ev) : -1;
	ok(rc == 0 && ev.pl_u.pl_ad.pl_pmcid == 0x2004 &&
	   strlen(ev.pl_u.pl_ad.pl_evname) == PMC_NAME_MAX - 1,
	   "PMCALLOCATEDYN: a name of PMC_NAME_MAX bytes is cut, NUL-ended");
	rc = p ? pmclog_read(p, &ev) : -1;
	ok(rc == -1 && ev.pl_state == PMCLOG_REQUIRE_DATA, "... then the end");
	if (p)
		pmclog_close(p);
	lb_free(&b);

	/* shorter than FreeBSD's record: malformed */
	lb_init(&b);
	lb_initialize(&b, PMCLOG_VERSION);
	memset(&r, 0, sizeof(r));
	lb_rec(&b, PMCLOG_TYPE_PMCALLOCATEDYN, &r, sizeof(r) - PMC_NAME_MAX,
	       NULL, 0);
	expect_bad(&b, &(struct bad){ "PMCALLOCATEDYN without its name", 1,
				      EBADMSG });
	lb_free(&b);
}

int main(void)
{
	test_decode();
	test_splits();
	test_fd();
	test_truncated();
	test_corrupted();
	test_allocatedyn();
	test_clear();
	test_api();
	return tap_done();
}
