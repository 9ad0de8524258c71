/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Logs in memory, record by record, laid out as the module writes them
 * (<linux/hwpmclog.h>): for the pmclog(3) unit tests and the fuzz target's
 * seed corpus.
 */
#ifndef _HWPMC_PMCLOG_BUILD_H_
#define _HWPMC_PMCLOG_BUILD_H_

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hwpmclog.h>

struct lb {
	char		*buf;
	size_t		len, cap;
	uint64_t	time;		/* next record's timestamp */
	size_t		nrec;
	size_t		ends[256];	/* offset after each record */
};

static inline void lb_init(struct lb *b)
{
	memset(b, 0, sizeof(*b));
	b->time = 1000000000ULL * 5 + 123;	/* 5.000000123 s */
}

static inline void lb_free(struct lb *b)
{
	free(b->buf);
	b->buf = NULL;
}

static inline void lb_raw(struct lb *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->buf = realloc(b->buf, b->cap);
		if (!b->buf)
			abort();
	}
	memcpy(b->buf + b->len, p, n);
	b->len += n;
}

/*
 * A record: the fixed part rec (a struct pmclog_*, size bytes, header
 * filled in here), then tail, zero-padded to 8 bytes; the header says
 * hdrlen bytes (lb_rec: the true length; lb_rec_len forges others).
 */
static inline void lb_rec_len(struct lb *b, uint32_t type, void *rec,
			      size_t size, const void *tail, size_t taillen,
			      uint32_t hdrlen)
{
	struct pmclog_header *h = rec;
	size_t len = (size + taillen + 7) & ~(size_t)7;
	static const char zero[8];

	h->pl_header = PMCLOG_HEADER(type, hdrlen);
	h->pl_spare = 0;
	h->pl_time = b->time;
	b->time += 1000;
	lb_raw(b, rec, size);
	if (taillen)
		lb_raw(b, tail, taillen);
	lb_raw(b, zero, len - size - taillen);
	if (b->nrec < sizeof(b->ends) / sizeof(b->ends[0]))
		b->ends[b->nrec] = b->len;
	b->nrec++;
}

static inline void lb_rec(struct lb *b, uint32_t type, void *rec,
			  size_t size, const void *tail, size_t taillen)
{
	lb_rec_len(b, type, rec, size, tail, taillen,
		   (uint32_t)((size + taillen + 7) & ~(size_t)7));
}

static inline void lb_initialize(struct lb *b, uint32_t version)
{
	struct pmclog_initialize r;

	memset(&r, 0, sizeof(r));
	r.pl_version = version;
	r.pl_cpu = PMC_CPU_LINUX_X86;
	r.pl_realtime = 1700000000ULL * 1000000000ULL + 42;
	r.pl_ncpu = 4;
	strcpy(r.pl_cpuid, "x86_64");
	lb_rec(b, PMCLOG_TYPE_INITIALIZE, &r, sizeof(r), NULL, 0);
}

static inline void lb_pmcallocate(struct lb *b, uint32_t id,
				  const char *name)
{
	struct pmclog_pmcallocate r;

	memset(&r, 0, sizeof(r));
	r.pl_pmcid = id;
	r.pl_event = 0x1000 + id;
	r.pl_flags = PMC_F_CALLCHAIN;
	r.pl_rate = 65536;
	memcpy(r.pl_evname, name, strnlen(name, sizeof(r.pl_evname)));
	lb_rec(b, PMCLOG_TYPE_PMCALLOCATE, &r, sizeof(r), NULL, 0);
}

static inline void lb_userdata(struct lb *b, uint32_t v)
{
	struct pmclog_userdata r;

	memset(&r, 0, sizeof(r));
	r.pl_userdata = v;
	r.pl_pid = 77;
	lb_rec(b, PMCLOG_TYPE_USERDATA, &r, sizeof(r), NULL, 0);
}

static inline void lb_callchain(struct lb *b, uint32_t npc)
{
	struct pmclog_callchain r;
	uint64_t *pc = calloc(npc ? npc : 1, sizeof(*pc));
	uint32_t i;

	if (!pc)
		abort();
	memset(&r, 0, sizeof(r));
	r.pl_pid = 100;
	r.pl_tid = 101;
	r.pl_pmcid = 0x2001;
	r.pl_cpuflags = PMC_CALLCHAIN_TO_CPUFLAGS(3, PMC_CC_F_USERSPACE);
	for (i = 0; i < npc; i++)
		pc[i] = 0x400000 + 0x10 * (uint64_t)i;
	lb_rec(b, PMCLOG_TYPE_CALLCHAIN, &r, sizeof(r), pc, npc * sizeof(*pc));
	free(pc);
}

/*
 * USERSTACK: nregs registers (i * 0x100, the last the PC), then dynsize
 * bytes of stack (byte i is i & 0xff), size asked; hdrlen 0: the true
 * length.
 */
static inline void lb_userstack_len(struct lb *b, uint32_t nregs,
				    uint32_t size, uint32_t dynsize,
				    uint32_t hdrlen)
{
	struct pmclog_userstack r;
	size_t tail = nregs * sizeof(uint64_t) + dynsize;
	unsigned char *t = calloc(tail ? tail : 1, 1);
	uint64_t v;
	uint32_t i;

	if (!t)
		abort();
	memset(&r, 0, sizeof(r));
	r.pl_pmcid = 0x2001;
	r.pl_abi = PMC_USTACK_ABI_X86_64;
	r.pl_nregs = (uint16_t)nregs;
	r.pl_size = size;
	r.pl_dynsize = dynsize;
	for (i = 0; i < nregs; i++) {
		v = 0x100 * (uint64_t)i;
		memcpy(t + i * sizeof(v), &v, sizeof(v));
	}
	for (i = 0; i < dynsize; i++)
		t[nregs * sizeof(v) + i] = (unsigned char)i;
	lb_rec_len(b, PMCLOG_TYPE_USERSTACK, &r, sizeof(r), t, tail,
		   hdrlen ? hdrlen :
		   (uint32_t)((sizeof(r) + tail + 7) & ~(size_t)7));
	free(t);
}

static inline void lb_closelog(struct lb *b)
{
	struct pmclog_closelog r;

	memset(&r, 0, sizeof(r));
	lb_rec(b, PMCLOG_TYPE_CLOSELOG, &r, sizeof(r), NULL, 0);
}

/* A log with a record of every type the format has, CLOSELOG last. */
static inline void lb_full(struct lb *b)
{
	lb_initialize(b, PMCLOG_VERSION);
	lb_pmcallocate(b, 0x2001, "cpu-clock");
	lb_pmcallocate(b, 0x2002, "instructions");
	{
		struct pmclog_pmcattach r = { .pl_pmcid = 0x2001, .pl_pid = 100 };
		static const char p[] = "/usr/bin/true";

		lb_rec(b, PMCLOG_TYPE_PMCATTACH, &r, sizeof(r), p, sizeof(p));
	}
	{
		struct pmclog_proc_create r = { .pl_pid = 100, .pl_flags = 1 };

		memcpy(r.pl_pcomm, "0123456789abcdef", 16);	/* no NUL */
		lb_rec(b, PMCLOG_TYPE_PROC_CREATE, &r, sizeof(r), NULL, 0);
	}
	{
		struct pmclog_thr_create r = { .pl_tid = 101, .pl_pid = 100,
					       .pl_flags = 2 };

		strcpy(r.pl_tdname, "worker");
		lb_rec(b, PMCLOG_TYPE_THR_CREATE, &r, sizeof(r), NULL, 0);
	}
	{
		struct pmclog_map_in r = { .pl_pid = -1, .pl_prot = 5,
					   .pl_start = 0xffffffff81000000ULL,
					   .pl_end = 0xffffffff82000000ULL,
					   .pl_pgoff = 0x1000,
					   .pl_mapstart = 0xffffffff81001000ULL };
		static const char p[] = "[kernel]";

		lb_rec(b, PMCLOG_TYPE_MAP_IN, &r, sizeof(r), p, sizeof(p));
	}
	{
		struct pmclog_procexec r = { .pl_pid = 100, .pl_pmcid = 0x2001,
					     .pl_baseaddr = 0x7f0000000000ULL,
					     .pl_dynaddr = 0x555555554000ULL };
		static const char p[] = "/usr/bin/a-program-with-a-long-name";

		lb_rec(b, PMCLOG_TYPE_PROCEXEC, &r, sizeof(r), p, sizeof(p));
	}
	lb_callchain(b, 3);
	lb_callchain(b, PMC_CALLCHAIN_DEPTH_MAX);
	{
		struct pmclog_proccsw r = { .pl_value = 123456789012ULL,
					    .pl_pmcid = 0x2001, .pl_pid = 100,
					    .pl_tid = 102 };

		lb_rec(b, PMCLOG_TYPE_PROCCSW, &r, sizeof(r), NULL, 0);
	}
	{
		struct pmclog_procfork r = { .pl_oldpid = 100, .pl_newpid = 103 };

		lb_rec(b, PMCLOG_TYPE_PROCFORK, &r, sizeof(r), NULL, 0);
	}
	lb_userdata(b, 0xdeadbeef);
	{
		struct pmclog_dropnotify r = { .pl_dropped = 9 };

		lb_rec(b, PMCLOG_TYPE_DROPNOTIFY, &r, sizeof(r), NULL, 0);
	}
	{
		struct pmclog_map_out r = { .pl_pid = 100, .pl_start = 0x1000,
					    .pl_end = 0x2000 };

		lb_rec(b, PMCLOG_TYPE_MAP_OUT, &r, sizeof(r), NULL, 0);
	}
	{
		struct pmclog_thr_exit r = { .pl_tid = 101 };

		lb_rec(b, PMCLOG_TYPE_THR_EXIT, &r, sizeof(r), NULL, 0);
	}
	{
		struct pmclog_procexit r = { .pl_pmcid = 0x2001, .pl_pid = 100,
					     .pl_value = 987654321ULL };

		lb_rec(b, PMCLOG_TYPE_PROCEXIT, &r, sizeof(r), NULL, 0);
	}
	{
		struct pmclog_sysexit r = { .pl_pid = 100 };

		lb_rec(b, PMCLOG_TYPE_SYSEXIT, &r, sizeof(r), NULL, 0);
	}
	{
		struct pmclog_pmcdetach r = { .pl_pmcid = 0x2001, .pl_pid = 100 };

		lb_rec(b, PMCLOG_TYPE_PMCDETACH, &r, sizeof(r), NULL, 0);
	}
	lb_userstack_len(b, 17, 4096, 1024, 0);
	lb_callchain(b, 3);
	lb_closelog(b);
}

#endif /* _HWPMC_PMCLOG_BUILD_H_ */
