/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libhwpmc: FreeBSD's pmclog(3) interface, the reader of hwpmc logs.
 *
 * A log (written by the module to the file, pipe or socket given to
 * pmc_configure_logfile()) is a stream of records whose layout is
 * <linux/hwpmclog.h>.  pmclog_open() makes a parser; pmclog_read() returns
 * the records one at a time as struct pmclog_ev, with the names of
 * FreeBSD's <pmclog.h>.  Fields FreeBSD does not have are marked "Linux".
 *
 * Two ways to feed the parser, as on FreeBSD:
 *   - pmclog_open(fd): pmclog_read() reads fd itself (a file, a pipe or a
 *     socket; blocking unless fd is O_NONBLOCK, then PMCLOG_REQUIRE_DATA
 *     when nothing is there yet);
 *   - pmclog_open(PMCLOG_FD_NONE): the caller hands bytes to
 *     pmclog_feed(), in pieces of any size, and pmclog_read() returns
 *     PMCLOG_REQUIRE_DATA when it has used them all.  The bytes must stay
 *     valid until then.
 *
 * pmclog_read() returns 0 with ev->pl_state == PMCLOG_OK, or -1 with
 * pl_state PMCLOG_REQUIRE_DATA, PMCLOG_EOF (end of the fd) or
 * PMCLOG_ERROR (a malformed record, a read error: errno says which; the
 * parser then stays in error).  Every length in the log is checked: a
 * truncated or corrupted log gives an error, never a read out of bounds.
 * What a record does not set in ev->pl_u is zero; pmclog_read() clears
 * only what the previous record set when given the same ev again, so a
 * program that writes into ev->pl_u must clear it (pmclog(3)).
 *
 * Differences from FreeBSD (see pmclog(3)):
 *   - timestamps (pl_ts) are CLOCK_MONOTONIC; INITIALIZE gives the
 *     CLOCK_REALTIME of the same instant in pl_i.pl_ts;
 *   - addresses are uint64_t whatever the word size, and uintfptr_t
 *     (<sys/pmc.h>) is uint64_t (FreeBSD: the word size);
 *   - PMCALLOCATE carries the event's name in the log: pl_a.pl_evname
 *     stays valid until pmclog_close();
 *   - DROPNOTIFY says how many records were lost (pl_dn.pl_dropped);
 *   - MAP_IN's pl_start is FreeBSD's, the object's base; it also has the
 *     executable mapping's extent (pl_mapstart, pl_end), file offset and
 *     protection;
 *   - the module writes PMCALLOCATEDYN (pl_ad) for SOFT-class PMCs, as
 *     FreeBSD's does, PMCALLOCATE for the others; both have the rate;
 *   - struct pmclog_parse_state is declared for source compatibility
 *     only: the parser behind pmclog_open()'s cookie is not this struct.
 *
 * The record types (enum pmclog_type) and the raw records are in
 * <sys/pmclog.h>, as on FreeBSD.
 */

/* FreeBSD's MAXCOMLEN + 1: room for a command or thread name */
#define PMCLOG_EV_COMMLEN	20
#ifndef _HWPMC_PMCLOG_H_
#define _HWPMC_PMCLOG_H_

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include <sys/pmclog.h>
#include <pmc.h>

#ifdef __cplusplus
extern "C" {
#endif

enum pmclog_state {
	PMCLOG_OK,
	PMCLOG_EOF,
	PMCLOG_REQUIRE_DATA,
	PMCLOG_ERROR
};

/* One sample: pl_pc[0] is the sampled PC, then its callers. */
struct pmclog_ev_callchain {
	uint32_t	pl_pid;
	uint32_t	pl_tid;
	uint32_t	pl_pmcid;
	uint32_t	pl_cpuflags;	/* PMC_CALLCHAIN_CPUFLAGS_TO_* */
	uint32_t	pl_cpuflags2;	/* always 0 */
	uint32_t	pl_npc;		/* entries used in pl_pc */
	uint64_t	pl_pc[PMC_CALLCHAIN_DEPTH_MAX];	/* rest zeroed */
};

struct pmclog_ev_dropnotify {
	uint64_t	pl_dropped;	/* Linux: records lost before this */
};

struct pmclog_ev_closelog {
	uint32_t	pl__unused;	/* FreeBSD: empty */
};

struct pmclog_ev_initialize {
	uint32_t	pl_version;	/* PMCLOG_VERSION of the writer */
	uint32_t	pl_arch;	/* PMC_CPU_* */
	uint64_t	pl_tsc_freq;	/* units of pl_ts per second: 1e9 */
	struct timespec pl_ts;		/* CLOCK_REALTIME at this record */
	char		pl_cpuid[PMCLOG_PATH_MAX]; /* machine (uname -m) */
	uint32_t	pl_ncpu;	/* Linux: possible CPUs */
};

struct pmclog_ev_map_in {
	pid_t		pl_pid;		/* -1: the kernel and its modules */
	uint64_t	pl_start;
	char		pl_pathname[PMCLOG_PATH_MAX];
	uint64_t	pl_end;		/* Linux: end of the mapping */
	uint64_t	pl_pgoff;	/* Linux: file offset of pl_mapstart */
	uint64_t	pl_mapstart;	/* Linux: start of the mapping */
	uint32_t	pl_prot;	/* Linux: PROT_* */
};

struct pmclog_ev_map_out {
	pid_t		pl_pid;
	uint64_t	pl_start;
	uint64_t	pl_end;
};

struct pmclog_ev_pmcallocate {
	const char	*pl_evname;	/* valid until pmclog_close() */
	uint64_t	pl_rate;	/* sampling reload count */
	uint32_t	pl_event;	/* PMC_EV_* code */
	uint32_t	pl_flags;	/* PMC_F_* */
	pmc_id_t	pl_pmcid;
};

/* PMCALLOCATEDYN (FreeBSD's): a SOFT-class PMC, its event's name */
struct pmclog_ev_pmcallocatedyn {
	char		pl_evname[PMC_NAME_MAX];
	uint32_t	pl_event;	/* PMC_EV_* code */
	uint32_t	pl_flags;	/* PMC_F_* */
	pmc_id_t	pl_pmcid;
	uint64_t	pl_rate;	/* sampling reload count (not FreeBSD's) */
};

/*
 * FreeBSD's PCSAMPLE event (V1 logs): declared as FreeBSD does, outside
 * struct pmclog_ev; no log of this implementation has one (samples are
 * CALLCHAIN records).
 */
struct pmclog_ev_pcsample {
	uint64_t	pl_pc;
	pid_t		pl_pid;
	pid_t		pl_tid;
	pmc_id_t	pl_pmcid;
	uint32_t	pl_flags;
	uint32_t	pl_usermode;
};

struct pmclog_ev_pmcattach {
	pmc_id_t	pl_pmcid;
	pid_t		pl_pid;
	char		pl_pathname[PMCLOG_PATH_MAX];
};

struct pmclog_ev_pmcdetach {
	pmc_id_t	pl_pmcid;
	pid_t		pl_pid;
};

struct pmclog_ev_proccsw {
	pid_t		pl_pid;
	pid_t		pl_tid;
	pmc_id_t	pl_pmcid;
	pmc_value_t	pl_value;
};

struct pmclog_ev_proccreate {
	pid_t		pl_pid;
	uint32_t	pl_flags;
	char		pl_pcomm[PMCLOG_EV_COMMLEN];
};

struct pmclog_ev_procexec {
	pid_t		pl_pid;
	pmc_id_t	pl_pmcid;
	uint64_t	pl_baseaddr;	/* dynamic linker's base, else dynaddr */
	uint64_t	pl_dynaddr;	/* relocation of a PIE, else 0 */
	char		pl_pathname[PMCLOG_PATH_MAX];
};

struct pmclog_ev_procexit {
	uint32_t	pl_pid;
	pmc_id_t	pl_pmcid;
	pmc_value_t	pl_value;
};

struct pmclog_ev_procfork {
	pid_t		pl_oldpid;
	pid_t		pl_newpid;
};

struct pmclog_ev_sysexit {
	pid_t		pl_pid;
};

struct pmclog_ev_threadcreate {
	pid_t		pl_tid;
	pid_t		pl_pid;
	uint32_t	pl_flags;
	char		pl_tdname[PMCLOG_EV_COMMLEN];
};

struct pmclog_ev_threadexit {
	pid_t		pl_tid;
};

/*
 * Linux: USERSTACK, the user registers and the top of the user stack of
 * the sample whose CALLCHAIN comes next (<linux/hwpmclog.h>).  The two
 * pointers are into the record (pl_data): valid until the next
 * pmclog_read() or pmclog_feed().
 */
struct pmclog_ev_userstack {
	pmc_id_t	pl_pmcid;
	uint32_t	pl_abi;		/* PMC_USTACK_ABI_* */
	uint32_t	pl_nregs;	/* in pl_regs, DWARF order, PC last */
	uint32_t	pl_size;	/* bytes of stack asked for */
	uint32_t	pl_dynsize;	/* bytes at pl_stack */
	const uint64_t	*pl_regs;
	const void	*pl_stack;	/* from the stack pointer up */
};

struct pmclog_ev_userdata {
	uint32_t	pl_userdata;
	pid_t		pl_pid;		/* Linux: the writer */
};

struct pmclog_ev {
	enum pmclog_state pl_state;	/* state after pmclog_read() */
	off_t		pl_offset;	/* stream offset after this record */
	size_t		pl_count;	/* records so far, this one included */
	struct timespec	pl_ts;		/* CLOCK_MONOTONIC */
	enum pmclog_type pl_type;	/* PMCLOG_TYPE_* */
	void		*pl_data;	/* the raw record, until the next read */
	int		pl_len;		/* its length in bytes */
	union {
		struct pmclog_ev_callchain	pl_cc;
		struct pmclog_ev_closelog	pl_cl;
		struct pmclog_ev_dropnotify	pl_dn;
		struct pmclog_ev_initialize	pl_i;
		struct pmclog_ev_map_in		pl_mi;
		struct pmclog_ev_map_out	pl_mo;
		struct pmclog_ev_pmcallocate	pl_a;
		struct pmclog_ev_pmcallocatedyn	pl_ad;
		struct pmclog_ev_pmcattach	pl_t;
		struct pmclog_ev_pmcdetach	pl_d;
		struct pmclog_ev_proccsw	pl_c;
		struct pmclog_ev_proccreate	pl_pc;
		struct pmclog_ev_procexec	pl_x;
		struct pmclog_ev_procexit	pl_e;
		struct pmclog_ev_procfork	pl_f;
		struct pmclog_ev_sysexit	pl_se;
		struct pmclog_ev_threadcreate	pl_tc;
		struct pmclog_ev_threadexit	pl_te;
		struct pmclog_ev_userdata	pl_u;
		struct pmclog_ev_userstack	pl_us;	/* Linux */
	} pl_u;
};

/*
 * FreeBSD's parser state, for source compatibility (see above): the
 * cookie of pmclog_open() is opaque.
 */
enum pmclog_parser_state {
	PL_STATE_NEW_RECORD,		/* between records */
	PL_STATE_EXPECTING_HEADER,	/* a header is being read */
	PL_STATE_PARTIAL_RECORD,	/* the header, not all the record */
	PL_STATE_ERROR			/* a parse error happened */
};

struct pmclog_parse_state {
	enum pmclog_parser_state ps_state;
	enum pmc_cputype ps_arch;	/* the log's CPU type */
	uint32_t	ps_version;	/* its PMCLOG_VERSION */
	int		ps_initialized;	/* INITIALIZE seen */
	int		ps_count;	/* records read */
	off_t		ps_offset;	/* stream offset */
	union pmclog_entry ps_saved;	/* a partial record */
	int		ps_svcount;	/* bytes in ps_saved */
	int		ps_fd;		/* the fd, or PMCLOG_FD_NONE */
	char		*ps_buffer;	/* read buffer (fd mode) */
	char		*ps_data;	/* parse position */
	char		*ps_cpuid;	/* the log's CPU id */
	size_t		ps_len;		/* bytes buffered */
};

#define PMCLOG_FD_NONE		(-1)

void	*pmclog_open(int _fd);
int	pmclog_feed(void *_cookie, char *_data, int _len);
int	pmclog_read(void *_cookie, struct pmclog_ev *_ev);
void	pmclog_close(void *_cookie);

#ifdef __cplusplus
}
#endif

#endif /* _HWPMC_PMCLOG_H_ */
