// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for pmclog(3): the input is a log.  It is parsed fed
 * whole, then again fed in pieces whose sizes come from the input itself,
 * each piece in a buffer of its own exact size (so that ASan sees a read
 * past any piece).  Both parses must give the same records and end in the
 * same state, and every record must keep the documented invariants; any
 * difference aborts.  The first parse reads every record into the same
 * struct pmclog_ev, the second into one filled with garbage each time:
 * ev->pl_u must come out the same (what a record does not set is zero).
 *
 *   build/fuzz/fuzz_pmclog -max_total_time=60 CORPUS_DIR
 *   build/fuzz/fuzz_pmclog crash-FILE        (reproduce)
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmclog.h>

struct digest {
	uint64_t	hash;
	size_t		nrec;
	off_t		offset;
	enum pmclog_state end;
};

static void mix(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		*h = (*h ^ *c++) * 0x100000001b3ULL;	/* FNV-1a */
}

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "invariant: %s\n", #cond);	\
			abort();					\
		}							\
	} while (0)

/* ev->pl_u, 8 bytes at a time, the event name by value */
static void mix_union(uint64_t *h, const struct pmclog_ev *ev)
{
	const char *u = (const char *)&ev->pl_u;
	size_t i = 0;
	uint64_t w;

	if (ev->pl_type == PMCLOG_TYPE_PMCALLOCATE) {
		mix(h, ev->pl_u.pl_a.pl_evname, strlen(ev->pl_u.pl_a.pl_evname));
		i = sizeof(ev->pl_u.pl_a.pl_evname);	/* its first member */
	}
	if (ev->pl_type == PMCLOG_TYPE_USERSTACK) {
		/* its pointers point where the record was: skipped */
		mix(h, u, offsetof(struct pmclog_ev_userstack, pl_regs));
		i = offsetof(struct pmclog_ev_userstack, pl_stack) +
		    sizeof(ev->pl_u.pl_us.pl_stack);
	}
	for (; i + 8 <= sizeof(ev->pl_u); i += 8) {
		memcpy(&w, u + i, 8);
		*h = (*h ^ w) * 0x100000001b3ULL;
	}
}

static void check_string(const char *s, size_t room)
{
	CHECK(memchr(s, '\0', room) != NULL);
}

/* The invariants of one record that pmclog_read() returned. */
static void check_event(const struct pmclog_ev *ev, struct digest *d)
{
	const struct pmclog_header *h = ev->pl_data;
	uint32_t i;

	CHECK(ev->pl_state == PMCLOG_OK);
	CHECK(ev->pl_len >= (int)sizeof(*h) && ev->pl_len % PMCLOG_ALIGN == 0 &&
	      ev->pl_len <= (int)PMCLOG_MAX_RECORD);
	CHECK(PMCLOG_HEADER_TO_LENGTH(h->pl_header) == (uint32_t)ev->pl_len);
	CHECK(PMCLOG_HEADER_TO_TYPE(h->pl_header) == (uint32_t)ev->pl_type);
	CHECK(ev->pl_offset == d->offset + ev->pl_len);
	CHECK(ev->pl_count == d->nrec + 1);
	CHECK(ev->pl_ts.tv_nsec >= 0 && ev->pl_ts.tv_nsec < 1000000000L);
	CHECK(d->nrec > 0 || ev->pl_type == PMCLOG_TYPE_INITIALIZE);
	switch (ev->pl_type) {
	case PMCLOG_TYPE_INITIALIZE:
		check_string(ev->pl_u.pl_i.pl_cpuid,
			     sizeof(ev->pl_u.pl_i.pl_cpuid));
		CHECK(ev->pl_u.pl_i.pl_version >> 24 == PMC_VERSION_MAJOR);
		break;
	case PMCLOG_TYPE_PMCALLOCATE:
		CHECK(ev->pl_u.pl_a.pl_evname != NULL);
		CHECK(strlen(ev->pl_u.pl_a.pl_evname) < PMC_NAME_MAX + 1);
		break;
	case PMCLOG_TYPE_PMCALLOCATEDYN:
		check_string(ev->pl_u.pl_ad.pl_evname,
			     sizeof(ev->pl_u.pl_ad.pl_evname));
		break;
	case PMCLOG_TYPE_PMCATTACH:
		check_string(ev->pl_u.pl_t.pl_pathname,
			     sizeof(ev->pl_u.pl_t.pl_pathname));
		break;
	case PMCLOG_TYPE_PROCEXEC:
		check_string(ev->pl_u.pl_x.pl_pathname,
			     sizeof(ev->pl_u.pl_x.pl_pathname));
		break;
	case PMCLOG_TYPE_MAP_IN:
		check_string(ev->pl_u.pl_mi.pl_pathname,
			     sizeof(ev->pl_u.pl_mi.pl_pathname));
		break;
	case PMCLOG_TYPE_CALLCHAIN:
		CHECK(ev->pl_u.pl_cc.pl_npc <= PMC_CALLCHAIN_DEPTH_MAX);
		CHECK(ev->pl_len == (int)(sizeof(struct pmclog_callchain) +
					  8 * ev->pl_u.pl_cc.pl_npc));
		for (i = ev->pl_u.pl_cc.pl_npc; i < PMC_CALLCHAIN_DEPTH_MAX; i++)
			CHECK(ev->pl_u.pl_cc.pl_pc[i] == 0);
		break;
	case PMCLOG_TYPE_THR_CREATE:
		check_string(ev->pl_u.pl_tc.pl_tdname,
			     sizeof(ev->pl_u.pl_tc.pl_tdname));
		break;
	case PMCLOG_TYPE_PROC_CREATE:
		check_string(ev->pl_u.pl_pc.pl_pcomm,
			     sizeof(ev->pl_u.pl_pc.pl_pcomm));
		break;
	case PMCLOG_TYPE_USERSTACK:
		/* registers and stack inside the record */
		CHECK((const char *)ev->pl_u.pl_us.pl_stack +
		      ev->pl_u.pl_us.pl_dynsize <=
		      (const char *)ev->pl_data + ev->pl_len);
		CHECK(ev->pl_u.pl_us.pl_nregs <= PMC_USTACK_NREGS_MAX);
		break;
	default:
		CHECK(ev->pl_type >= PMCLOG_TYPE_CLOSELOG &&
		      ev->pl_type <= PMCLOG_TYPE_MAX);
	}
	mix(&d->hash, &ev->pl_type, sizeof(ev->pl_type));
	mix(&d->hash, ev->pl_data, (size_t)ev->pl_len);
	mix_union(&d->hash, ev);
	d->nrec++;
	d->offset = ev->pl_offset;
}

/*
 * Read until the parser stops, into ev (fresh: filled with garbage before
 * each read); 1 when it wants more data.
 */
static int drain(void *p, struct pmclog_ev *ev, int fresh, struct digest *d)
{
	for (;;) {
		if (fresh)
			memset(ev, 0xA5, sizeof(*ev));
		if (pmclog_read(p, ev))
			break;
		check_event(ev, d);
	}
	d->end = ev->pl_state;
	CHECK(ev->pl_state == PMCLOG_REQUIRE_DATA ||
	      ev->pl_state == PMCLOG_ERROR);
	return ev->pl_state == PMCLOG_REQUIRE_DATA;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct digest whole = { 0xcbf29ce484222325ULL, 0, 0, PMCLOG_OK };
	struct digest parts = whole;
	static struct pmclog_ev ev;
	uint64_t seed = 0x9e3779b97f4a7c15ULL ^ size;
	size_t off = 0, n;
	void *p;
	char *piece;

	if (size > (1U << 20))
		return 0;

	p = pmclog_open(PMCLOG_FD_NONE);
	CHECK(p != NULL);
	CHECK(pmclog_feed(p, (char *)data, (int)size) == 0);
	memset(&ev, 0x5A, sizeof(ev));
	drain(p, &ev, 0, &whole);
	pmclog_close(p);

	/* the same bytes in pieces of 1 to 64 bytes (xorshift sizes) */
	mix(&seed, data, size < 16 ? size : 16);
	p = pmclog_open(PMCLOG_FD_NONE);
	CHECK(p != NULL);
	for (;;) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		n = 1 + seed % 64;
		if (n > size - off)
			n = size - off;
		piece = malloc(n ? n : 1);
		CHECK(piece != NULL);
		memcpy(piece, data + off, n);
		CHECK(pmclog_feed(p, piece, (int)n) == 0);
		off += n;
		if (!drain(p, &ev, 1, &parts) || off == size) {
			free(piece);
			break;
		}
		free(piece);
	}
	pmclog_close(p);

	CHECK(whole.nrec == parts.nrec && whole.hash == parts.hash &&
	      whole.offset == parts.offset && whole.end == parts.end);
	return 0;
}
