// SPDX-License-Identifier: GPL-2.0
/*
 * ABI layout of <linux/hwpmc.h> and <linux/hwpmclog.h>.
 *
 * The table below lists every structure, every field (offset, size) and
 * every ioctl command number.  It is compiled twice without LAYOUT_MAIN,
 * with -m64 and -m32, into objects whose .hwpmc_layout sections must be
 * byte-identical (abi_check.sh): no libc, no linking, so no 32-bit
 * runtime is needed.  Built with LAYOUT_MAIN it is a host program that
 * checks, in TAP:
 *   - no implicit padding: each field starts where the previous one ends
 *     and the last one ends at sizeof (a __u64 after an odd number of
 *     __u32s leaves a hole on x86-64 and none on i386: caught here on
 *     64-bit hosts, and by the -m32/-m64 comparison everywhere);
 *   - sizes are multiples of 8 (S4() marks a structure deliberately not);
 *   - a flexible array member sits at sizeof (nothing after it);
 *   - a second name of a field (FA(), in an anonymous union) has the
 *     offset and size of the field listed before it;
 * and it prints the table with names (--dump) to explain a mismatch.
 *
 * A field missing from this list shows up as a hole, so the list cannot
 * silently fall behind the headers.
 *
 * With LAYOUT_PMC_VIEW the same table is built from libhwpmc's
 * <sys/pmc.h> and <sys/pmclog.h>, whose structures have FreeBSD's enum
 * and pmc_value_t fields: abi_check.sh requires it byte-identical to the
 * uapi table, -m64 and -m32.
 */
#include <stddef.h>
#ifdef LAYOUT_PMC_VIEW
/* libhwpmc's view: FreeBSD's enum and pmc_value_t fields, same layout */
#include <sys/pmc.h>
#include <sys/pmclog.h>
#else
#include <linux/hwpmc.h>
#include <linux/hwpmclog.h>
#endif

enum { K_STRUCT = 1, K_STRUCT4, K_UNION, K_FIELD, K_UFIELD, K_FLEX, K_IOC,
       K_ALIAS };

struct layout_entry {
	unsigned int kind, a, b;
};

#define MSIZE(t, f)	sizeof(((t *)0)->f)

/* X(kind, type, field, a, b) */
#define LAYOUT(X)							\
	S(pmc_op_configurelog) F(pmc_op_configurelog, pm_flags)		\
	F(pmc_op_configurelog, pm_logfd)				\
	S(pmc_classinfo) F(pmc_classinfo, pm_class)			\
	F(pmc_classinfo, pm_caps) F(pmc_classinfo, pm_width)		\
	F(pmc_classinfo, pm_num)					\
	S(pmc_op_getcpuinfo) F(pmc_op_getcpuinfo, pm_cputype)		\
	F(pmc_op_getcpuinfo, pm_ncpu) F(pmc_op_getcpuinfo, pm_npmc)	\
	F(pmc_op_getcpuinfo, pm_nclass) F(pmc_op_getcpuinfo, pm_classes) \
	S(pmc_op_getdriverstats)					\
	F(pmc_op_getdriverstats, pm_intr_ignored)			\
	F(pmc_op_getdriverstats, pm_intr_processed)			\
	F(pmc_op_getdriverstats, pm_intr_bufferfull)			\
	F(pmc_op_getdriverstats, pm_syscalls)				\
	F(pmc_op_getdriverstats, pm_syscall_errors)			\
	F(pmc_op_getdriverstats, pm_buffer_requests)			\
	F(pmc_op_getdriverstats, pm_buffer_requests_failed)		\
	F(pmc_op_getdriverstats, pm_log_sweeps)				\
	F(pmc_op_getdriverstats, pm_merges)				\
	F(pmc_op_getdriverstats, pm_overwrites)				\
	F(pmc_op_getdriverstats, pm_log_records_dropped)		\
	F(pmc_op_getdriverstats, pm_log_write_errors)			\
	F(pmc_op_getdriverstats, pm_lifecycle_events)			\
	F(pmc_op_getdriverstats, pm_stacks_dropped)			\
	F(pmc_op_getdriverstats, pm__reserved)				\
	S(pmc_info) F(pmc_info, pm_name) F(pmc_info, pm_class)		\
	F(pmc_info, pm_enabled) F(pmc_info, pm_rowdisp)			\
	F(pmc_info, pm_ownerpid) F(pmc_info, pm_mode)			\
	F(pmc_info, pm_event) F(pmc_info, pm_flags) F(pmc_info, pm__pad) \
	F(pmc_info, pm_reloadcount)					\
	S(pmc_op_getpmcinfo) F(pmc_op_getpmcinfo, pm_cpu)		\
	F(pmc_op_getpmcinfo, pm_npmc) F(pmc_op_getpmcinfo, pm_pmcs)	\
	S(pmc_op_pmcadmin) F(pmc_op_pmcadmin, pm_cpu)			\
	F(pmc_op_pmcadmin, pm_flags) F(pmc_op_pmcadmin, pm_pmc)		\
	F(pmc_op_pmcadmin, pm_state)					\
	S(pmc_md_pmu_op_pmcallocate)					\
	F(pmc_md_pmu_op_pmcallocate, pm_config)				\
	F(pmc_md_pmu_op_pmcallocate, pm_config1)			\
	F(pmc_md_pmu_op_pmcallocate, pm_config2)			\
	F(pmc_md_pmu_op_pmcallocate, pm_type)			\
	F(pmc_md_pmu_op_pmcallocate, pm_precise)			\
	U(pmc_md_op_pmcallocate) UF(pmc_md_op_pmcallocate, pm_pmu)	\
	UF(pmc_md_op_pmcallocate, __pad)				\
	S(pmc_op_pmcallocate) F(pmc_op_pmcallocate, pm_caps)		\
	F(pmc_op_pmcallocate, pm_cpu) F(pmc_op_pmcallocate, pm_class)	\
	F(pmc_op_pmcallocate, pm_ev) F(pmc_op_pmcallocate, pm_flags)	\
	F(pmc_op_pmcallocate, pm_mode) F(pmc_op_pmcallocate, pm_pmcid)	\
	F(pmc_op_pmcallocate, pm_stacksize) F(pmc_op_pmcallocate, pm_count)	\
	F(pmc_op_pmcallocate, pm_md)					\
	S(pmc_op_pmcallocate_named) F(pmc_op_pmcallocate_named, pm_a)	\
	F(pmc_op_pmcallocate_named, pm_evname)				\
	F(pmc_op_pmcallocate_named, pm__reserved)			\
	S(pmc_op_pmcattach) F(pmc_op_pmcattach, pm_pmc)			\
	F(pmc_op_pmcattach, pm_pid)					\
	S(pmc_op_pmcsetcount) F(pmc_op_pmcsetcount, pm_count)		\
	F(pmc_op_pmcsetcount, pm_pmcid) F(pmc_op_pmcsetcount, pm__pad)	\
	S(pmc_op_pmcrw) F(pmc_op_pmcrw, pm_flags)			\
	F(pmc_op_pmcrw, pm_pmcid) F(pmc_op_pmcrw, pm_value)		\
	S(pmc_op_pmcrw_times) F(pmc_op_pmcrw_times, pm_rw)		\
	F(pmc_op_pmcrw_times, pm_enabled)				\
	F(pmc_op_pmcrw_times, pm_running)				\
	F(pmc_op_pmcrw_times, pm_tflags)				\
	F(pmc_op_pmcrw_times, pm__pad)					\
	F(pmc_op_pmcrw_times, pm__reserved)				\
	S(pmc_op_simple) F(pmc_op_simple, pm_pmcid)			\
	F(pmc_op_simple, pm__pad)					\
	S(pmc_op_getmsr) F(pmc_op_getmsr, pm_msr)			\
	F(pmc_op_getmsr, pm_pmcid)					\
	S(pmc_op_writelog) F(pmc_op_writelog, pm_userdata)		\
	F(pmc_op_writelog, pm__pad)					\
	S(pmc_dyn_event_descr) F(pmc_dyn_event_descr, pm_ev_name)	\
	F(pmc_dyn_event_descr, pm_ev_code)				\
	F(pmc_dyn_event_descr, pm_ev_caps)				\
	S(pmc_op_getdyneventinfo) F(pmc_op_getdyneventinfo, pm_class)	\
	F(pmc_op_getdyneventinfo, pm_nevent)				\
	F(pmc_op_getdyneventinfo, pm_events)				\
	S(pmc_op_caps) F(pmc_op_caps, pm_pmcid) F(pmc_op_caps, pm_caps)	\
	F(pmc_op_caps, pm_class) F(pmc_op_caps, pm_ev)			\
	S(pmclog_header) F(pmclog_header, pl_header)			\
	F(pmclog_header, pl_spare) F(pmclog_header, pl_time)		\
	S(pmclog_closelog) F(pmclog_closelog, pl_hdr)			\
	S(pmclog_dropnotify) F(pmclog_dropnotify, pl_hdr)		\
	F(pmclog_dropnotify, pl_dropped)				\
	S(pmclog_initialize) F(pmclog_initialize, pl_hdr)		\
	F(pmclog_initialize, pl_version) F(pmclog_initialize, pl_cpu)	\
	F(pmclog_initialize, pl_realtime) F(pmclog_initialize, pl_ncpu)	\
	F(pmclog_initialize, pl_pad) F(pmclog_initialize, pl_cpuid)	\
	S(pmclog_pmcallocate) F(pmclog_pmcallocate, pl_hdr)		\
	F(pmclog_pmcallocate, pl_pmcid) F(pmclog_pmcallocate, pl_event)	\
	F(pmclog_pmcallocate, pl_flags) F(pmclog_pmcallocate, pl_pad)	\
	F(pmclog_pmcallocate, pl_rate) F(pmclog_pmcallocate, pl_evname)	\
	S(pmclog_pmcallocatedyn) F(pmclog_pmcallocatedyn, pl_hdr)	\
	F(pmclog_pmcallocatedyn, pl_pmcid)				\
	F(pmclog_pmcallocatedyn, pl_event)				\
	F(pmclog_pmcallocatedyn, pl_flags)				\
	F(pmclog_pmcallocatedyn, pl_pad)				\
	F(pmclog_pmcallocatedyn, pl_rate)				\
	F(pmclog_pmcallocatedyn, pl_evname)				\
	S(pmclog_pmcattach) F(pmclog_pmcattach, pl_hdr)			\
	F(pmclog_pmcattach, pl_pmcid) F(pmclog_pmcattach, pl_pid)	\
	FLEX(pmclog_pmcattach, pl_pathname)				\
	S(pmclog_pmcdetach) F(pmclog_pmcdetach, pl_hdr)			\
	F(pmclog_pmcdetach, pl_pmcid) F(pmclog_pmcdetach, pl_pid)	\
	S(pmclog_proccsw) F(pmclog_proccsw, pl_hdr)			\
	F(pmclog_proccsw, pl_value) F(pmclog_proccsw, pl_pmcid)		\
	F(pmclog_proccsw, pl_pid) F(pmclog_proccsw, pl_tid)		\
	F(pmclog_proccsw, pl_pad)					\
	S(pmclog_procexec) F(pmclog_procexec, pl_hdr)			\
	F(pmclog_procexec, pl_pid) F(pmclog_procexec, pl_pmcid)		\
	F(pmclog_procexec, pl_base) FA(pmclog_procexec, pl_baseaddr)	\
	F(pmclog_procexec, pl_dynaddr)					\
	FLEX(pmclog_procexec, pl_pathname)				\
	S(pmclog_procexit) F(pmclog_procexit, pl_hdr)			\
	F(pmclog_procexit, pl_pmcid) F(pmclog_procexit, pl_pid)		\
	F(pmclog_procexit, pl_value)					\
	S(pmclog_procfork) F(pmclog_procfork, pl_hdr)			\
	F(pmclog_procfork, pl_oldpid) F(pmclog_procfork, pl_newpid)	\
	S(pmclog_sysexit) F(pmclog_sysexit, pl_hdr)			\
	F(pmclog_sysexit, pl_pid) F(pmclog_sysexit, pl_pad)		\
	S(pmclog_userdata) F(pmclog_userdata, pl_hdr)			\
	F(pmclog_userdata, pl_userdata) F(pmclog_userdata, pl_pid)	\
	S(pmclog_map_in) F(pmclog_map_in, pl_hdr)			\
	F(pmclog_map_in, pl_pid) F(pmclog_map_in, pl_prot)		\
	F(pmclog_map_in, pl_start) F(pmclog_map_in, pl_end)		\
	F(pmclog_map_in, pl_pgoff) F(pmclog_map_in, pl_mapstart)	\
	FLEX(pmclog_map_in, pl_pathname)				\
	S(pmclog_map_out) F(pmclog_map_out, pl_hdr)			\
	F(pmclog_map_out, pl_pid) F(pmclog_map_out, pl_pad)		\
	F(pmclog_map_out, pl_start) F(pmclog_map_out, pl_end)		\
	S(pmclog_callchain) F(pmclog_callchain, pl_hdr)			\
	F(pmclog_callchain, pl_pid) F(pmclog_callchain, pl_tid)		\
	F(pmclog_callchain, pl_pmcid) F(pmclog_callchain, pl_cpuflags)	\
	FLEX(pmclog_callchain, pl_pc)					\
	S(pmclog_thr_create) F(pmclog_thr_create, pl_hdr)		\
	F(pmclog_thr_create, pl_tid) F(pmclog_thr_create, pl_pid)	\
	F(pmclog_thr_create, pl_flags) F(pmclog_thr_create, pl_pad)	\
	F(pmclog_thr_create, pl_tdname)					\
	S(pmclog_thr_exit) F(pmclog_thr_exit, pl_hdr)			\
	F(pmclog_thr_exit, pl_tid) F(pmclog_thr_exit, pl_pad)		\
	S(pmclog_proc_create) F(pmclog_proc_create, pl_hdr)		\
	F(pmclog_proc_create, pl_pid) F(pmclog_proc_create, pl_flags)	\
	F(pmclog_proc_create, pl_pcomm)					\
	S(pmclog_userstack) F(pmclog_userstack, pl_hdr)			\
	F(pmclog_userstack, pl_pmcid) F(pmclog_userstack, pl_abi)	\
	F(pmclog_userstack, pl_nregs) F(pmclog_userstack, pl_size)	\
	F(pmclog_userstack, pl_dynsize) FLEX(pmclog_userstack, pl_regs) \
	IOC(HWPMC_IOC_CONFIGURELOG) IOC(HWPMC_IOC_FLUSHLOG)		\
	IOC(HWPMC_IOC_GETCPUINFO) IOC(HWPMC_IOC_GETDRIVERSTATS)		\
	IOC(HWPMC_IOC_GETMODULEVERSION) IOC(HWPMC_IOC_GETPMCINFO)	\
	IOC(HWPMC_IOC_PMCADMIN) IOC(HWPMC_IOC_PMCALLOCATE)		\
	IOC(HWPMC_IOC_PMCATTACH) IOC(HWPMC_IOC_PMCDETACH)		\
	IOC(HWPMC_IOC_PMCGETMSR) IOC(HWPMC_IOC_PMCRELEASE)		\
	IOC(HWPMC_IOC_PMCRW) IOC(HWPMC_IOC_PMCSETCOUNT)			\
	IOC(HWPMC_IOC_PMCSTART) IOC(HWPMC_IOC_PMCSTOP)			\
	IOC(HWPMC_IOC_WRITELOG) IOC(HWPMC_IOC_CLOSELOG)			\
	IOC(HWPMC_IOC_GETDYNEVENTINFO) IOC(HWPMC_IOC_GETCAPS)		\
	IOC(HWPMC_IOC_PMCALLOCATE_NAMED)

/* The numbers. */
#define S(s)	  { K_STRUCT, sizeof(struct s), 0 },
#define S4(s)	  { K_STRUCT4, sizeof(struct s), 0 },
#define U(s)	  { K_UNION, sizeof(union s), 0 },
#define F(s, f)	  { K_FIELD, offsetof(struct s, f), MSIZE(struct s, f) },
#define UF(s, f)  { K_UFIELD, offsetof(union s, f), MSIZE(union s, f) },
#define FA(s, f)  { K_ALIAS, offsetof(struct s, f), MSIZE(struct s, f) },
#define FLEX(s, f) { K_FLEX, offsetof(struct s, f), MSIZE(struct s, f[0]) },
#define IOC(c)	  { K_IOC, (unsigned int)(c), 0 },
__attribute__((used, section(".hwpmc_layout")))
const struct layout_entry hwpmc_layout[] = { LAYOUT(X) };
#undef S
#undef S4
#undef U
#undef F
#undef UF
#undef FA
#undef FLEX
#undef IOC

#ifdef LAYOUT_MAIN
#include <stdio.h>
#include <string.h>

#define S(s)	   "struct " #s,
#define S4(s)	   "struct " #s,
#define U(s)	   "union " #s,
#define F(s, f)	   #s "." #f,
#define UF(s, f)   #s "." #f,
#define FA(s, f)   #s "." #f,
#define FLEX(s, f) #s "." #f "[]",
#define IOC(c)	   #c,
static const char *const names[] = { LAYOUT(X) };

#define N	(sizeof(hwpmc_layout) / sizeof(hwpmc_layout[0]))
_Static_assert(sizeof(names) / sizeof(names[0]) == N, "table");

static int tests, failed;

static void ok(int cond, const char *what)
{
	tests++;
	if (!cond)
		failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tests, what);
}

/* Check the fields of the aggregate at entry i; returns the next index. */
static unsigned int check_aggregate(unsigned int i)
{
	const struct layout_entry *agg = &hwpmc_layout[i];
	unsigned int end = 0, j = i + 1, nfields = 0, flex = 0, last = 0;
	char msg[256];
	int holes = 0, union_ok = 1;

	for (; j < N && (hwpmc_layout[j].kind == K_FIELD ||
			 hwpmc_layout[j].kind == K_UFIELD ||
			 hwpmc_layout[j].kind == K_ALIAS ||
			 hwpmc_layout[j].kind == K_FLEX); j++) {
		const struct layout_entry *e = &hwpmc_layout[j];

		nfields++;
		if (e->kind == K_ALIAS) {
			if (!last || e->a != hwpmc_layout[last].a ||
			    e->b != hwpmc_layout[last].b) {
				printf("# %s: %s is not a second name of the field before it\n",
				       names[i], names[j]);
				holes++;
			}
			continue;
		}
		last = j;
		if (e->kind == K_UFIELD) {
			if (e->a != 0 || e->b > agg->a)
				union_ok = 0;
			if (e->b > end)
				end = e->b;
			continue;
		}
		if (e->a != end) {
			printf("# %s: %u bytes of padding before %s (offset %u)\n",
			       names[i], e->a - end, names[j], e->a);
			holes++;
		}
		if (e->kind == K_FLEX) {
			flex = 1;
			end = e->a;
		} else {
			end = e->a + e->b;
		}
	}
	snprintf(msg, sizeof(msg), "%s: %u fields, no implicit padding",
		 names[i], nfields);
	if (agg->kind == K_UNION) {
		ok(union_ok && end == agg->a && nfields, msg);
	} else {
		if (end != agg->a && !holes)
			printf("# %s: ends at %u, sizeof is %u%s\n", names[i],
			       end, agg->a, flex ? " (flexible array not last)" :
			       " (tail padding or unlisted field)");
		ok(!holes && end == agg->a && nfields, msg);
	}
	if (agg->kind != K_STRUCT4) {
		snprintf(msg, sizeof(msg), "%s: size %u is a multiple of 8",
			 names[i], agg->a);
		ok(agg->a % 8 == 0, msg);
	}
	return j;
}

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc > 1 && !strcmp(argv[1], "--names")) {
		for (i = 0; i < N; i++)
			printf("%s\n", names[i]);
		return 0;
	}
	for (i = 0; i < N;) {
		if (hwpmc_layout[i].kind == K_IOC) {
			i++;
			continue;
		}
		i = check_aggregate(i);
	}
	printf("1..%d\n", tests);
	return failed ? 1 : 0;
}
#endif /* LAYOUT_MAIN */
