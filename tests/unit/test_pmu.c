// SPDX-License-Identifier: GPL-2.0
/*
 * Vendor events from the kernel's pmu-events tables (libhwpmc/pmc_pmu.c):
 * CPU ids (HWPMC_CPUID) to models, names (perf's and FreeBSD's
 * spellings) to raw configurations, perf's PMU form and FreeBSD's
 * qualifiers, and the errors.
 *
 * Every expected configuration was derived by hand from the JSON of
 * linux-source-6.12 (tools/perf/pmu-events/arch/<dir>/<file>, named
 * beside each case) as perf's jevents.py turns it into terms
 * (EventCode -> event, UMask -> umask, CounterMask -> cmask, Invert ->
 * inv, MSRIndex 0x3F6/0x3F7/0x1A6 -> ldlat/frontend/offcore_rsp =
 * MSRValue, ArchStdEvent -> the standard event's EventCode) and perf
 * encodes terms by the PMU's sysfs format: Intel event=config:0-7,
 * umask=config:8-15, edge=config:18, inv=config:23, cmask=config:24-31,
 * ldlat=config1:0-15, frontend=config1:0-23, offcore_rsp=config1:0-63;
 * AMD event=config:0-7,32-35; arm64 event=config:0-15.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include <pmc.h>
#include "libpmc_internal.h"
#include "pmu_events.h"
#include "fake_hwpmc.h"
#include "tap.h"

#define P	PMC_CLASS_PMU
#define RAW	PMC_EV_PMU_RAW
#define U	PMC_CAP_USER
#define K	PMC_CAP_SYSTEM

static struct pmc_op_pmcallocate pa;
static char err[512];

static void cpuid(const char *id)
{
	if (id)
		setenv("HWPMC_CPUID", id, 1);
	else
		unsetenv("HWPMC_CPUID");
	printf("# HWPMC_CPUID=%s\n", id ? id : "(unset)");
}

/* spec parses to a raw event with config c, config1 c1, caps */
static void enc(const char *spec, uint64_t c, uint64_t c1, uint32_t caps,
		const char *src)
{
	int r;

	memset(&pa, 0xA5, sizeof(pa));
	r = pmc_parse_spec(spec, &pa, err, sizeof(err));
	ok(r == 0 && pa.pm_class == P && pa.pm_ev == RAW &&
	   pa.pm_md.pm_pmu.pm_config == c && pa.pm_md.pm_pmu.pm_config1 == c1 &&
	   !pa.pm_md.pm_pmu.pm_config2 && pa.pm_caps == caps,
	   "'%s' -> config %#llx config1 %#llx caps %#x (%s)%s%s%s", spec,
	   (unsigned long long)c, (unsigned long long)c1, caps, src,
	   r ? ": " : "", r ? err : "",
	   r ? "" : (pa.pm_md.pm_pmu.pm_config == c &&
		     pa.pm_md.pm_pmu.pm_config1 == c1 ? "" : " -- got other config"));
	if (!r && (pa.pm_md.pm_pmu.pm_config != c ||
		   pa.pm_md.pm_pmu.pm_config1 != c1))
		printf("# got config %#llx config1 %#llx caps %#x\n",
		       (unsigned long long)pa.pm_md.pm_pmu.pm_config,
		       (unsigned long long)pa.pm_md.pm_pmu.pm_config1,
		       pa.pm_caps);
}

/* spec fails with EINVAL and a message containing want (and want2) */
static void bad2(const char *spec, const char *want, const char *want2)
{
	int r;

	errno = 0;
	r = pmc_parse_spec(spec, &pa, err, sizeof(err));
	ok(r == -1 && errno == EINVAL && strstr(err, want) &&
	   (!want2 || strstr(err, want2)), "'%s' refused: %s", spec, err);
	if (r != -1 || !strstr(err, want) || (want2 && !strstr(err, want2)))
		printf("# wanted: %s%s%s\n", want, want2 ? " ... " : "",
		       want2 ? want2 : "");
}

static void bad(const char *spec, const char *want)
{
	bad2(spec, want, NULL);
}

static void table_is(const char *id, const char *name)
{
	int t = pmc_pmu_table_of(id);
	const char *n = pmc_pmu_table_name(t);

	ok(name ? n && !strcmp(n, name) : t < 0, "CPU %s -> table %s (got %s)",
	   id, name ? name : "none", n ? n : "none");
}

static void mapping(void)
{
	char here[PMC_CPUID_LEN];

	/* x86: the mapfile's regexes, to the stepping's '-' or the end */
	table_is("GenuineIntel-6-55-4", "skylakex");
	table_is("GenuineIntel-6-55-7", "cascadelakex");
	table_is("GenuineIntel-6-7E-5", "icelake");
	table_is("GenuineIntel-6-6A-6", "icelakex");
	table_is("GenuineIntel-6-8F-8", "sapphirerapids");
	table_is("GenuineIntel-6-9E-A", "skylake");
	table_is("GenuineIntel-6-3C-3", "haswell");
	table_is("GenuineIntel-6-97-2", "alderlake");
	table_is("AuthenticAMD-23-1-1", "amdzen1");
	table_is("AuthenticAMD-23-31-0", "amdzen2");
	table_is("AuthenticAMD-25-1-1", "amdzen3");
	table_is("AuthenticAMD-25-21-0", "amdzen3");
	table_is("AuthenticAMD-25-61-2", "amdzen4");
	table_is("AuthenticAMD-26-2-0", "amdzen5");
	table_is("GenuineIntel-6-FF-0", NULL);
	table_is("GenuineIntel-6-5", NULL);
	table_is("GenuineIntel-6-55", NULL);	/* skylakex needs the stepping */
	table_is("xGenuineIntel-6-55-4", NULL);
	table_is("HygonGenuine-24-0-0", NULL);
	/* arm64: MIDR, variant and revision ignored when the table's are 0 */
	table_is("0x00000000410fd070", "arm/cortex-a57-a72");
	table_is("0x00000000411fd071", "arm/cortex-a57-a72");
	table_is("0x00000000413fd0c1", "arm/neoverse-n1");
	table_is("0x00000000410fd490", "arm/neoverse-n2-v2");
	table_is("0x00000000410fd0c0", "arm/neoverse-n1");
	table_is("0x00000000410fd4f0", "arm/neoverse-n2-v2");
	table_is("0x00000000410fffff", NULL);
	table_is("0xzz", NULL);

	/* this machine's id has perf's form */
	if (pmc_pmu_detect_cpuid(here, sizeof(here)) == 0)
		ok(strncmp(here, "0x", 2) == 0 ||
		   (strchr(here, '-') && strchr(strchr(here, '-') + 1, '-')),
		   "this CPU: %s", here);
	else
		skip("this CPU's id cannot be read");
}

static void intel(void)
{
	cpuid("GenuineIntel-6-55-4");		/* Skylake-X */
	enc("INST_RETIRED.ANY", 0x100, 0, 0, "skylakex/pipeline.json: umask 0x1");
	enc("inst_retired.any", 0x100, 0, 0, "perf's spelling");
	enc("inst-retired-any", 0x100, 0, 0, "FreeBSD's separators");
	enc("Inst_Retired.Any:u", 0x100, 0, U, "modifier");
	enc("inst_retired.any,os", 0x100, 0, K, "FreeBSD qualifier");
	enc("INST_RETIRED.ANY_P", 0xc0, 0, 0, "skylakex/pipeline.json");
	enc("UOPS_ISSUED.STALL_CYCLES", 0x180010e, 0, 0,
	    "skylakex/pipeline.json: 0x0e umask 1 cmask 1 inv");
	enc("OFFCORE_RESPONSE.ALL_DATA_RD.ANY_RESPONSE", 0x1b7, 0x10491, 0,
	    "skylakex/cache.json: 0xB7 umask 1, MSR 0x1a6 = 0x10491");
	/* FreeBSD's qualifiers over a vendor event */
	enc("INST_RETIRED.ANY_P,cmask=2,inv,edge", 0x28400c0, 0, 0,
	    "cmask 2 << 24, inv bit 23, edge bit 18");
	enc("inst_retired.any_p,threshold=3,usr", 0x30000c0, 0, U,
	    "FreeBSD's threshold = cmask");
	enc("br_inst_retired.all_branches,umask=0x4", 0x4c4, 0, 0,
	    "umask overrides the table's");
	/* FreeBSD's aliases of Intel vendor events */
	enc("BRANCH_MISSES_RETIRED", 0xc5, 0, 0,
	    "FreeBSD alias of BR_MISP_RETIRED.ALL_BRANCHES (skylakex: 0xc5)");
	enc("branch-instruction-retired,usr", 0xc4, 0, U,
	    "FreeBSD alias of BR_INST_RETIRED.ALL_BRANCHES (skylakex: 0xc4)");
	enc("LLC_MISS_RHITM", 0x4d3, 0, 0,
	    "FreeBSD alias of MEM_LOAD_L3_MISS_RETIRED.REMOTE_HITM (skylakex/cache.json: 0xD3 umask 0x4)");
	/* FreeBSD's class prefix */
	enc("iap-inst-retired-any", 0x100, 0, 0, "FreeBSD IAP class prefix");
	/* perf's PMU form */
	enc("cpu/event=0x3c,umask=0x0/u", 0x3c, 0, U, "perf PMU form");
	enc("cpu/event=0xc0,umask=0x1,cmask=1,inv,edge/", 0x18401c0, 0, 0,
	    "all the Intel fields");
	enc("cpu/inst_retired.any_p,cmask=1/k", 0x10000c0, 0, K,
	    "event name with a term");
	enc("cpu/event=0xb7,umask=1,offcore_rsp=0x10491/", 0x1b7, 0x10491, 0,
	    "offcore_rsp to config1");
	enc("cpu/config=0x1234,config1=5/", 0x1234, 5, 0, "config terms");
	enc("cpu/inst_retired.any/:p", 0x100, 0, PMC_CAP_PRECISE, ":p");
	enc("inst_retired.any:ppu", 0x100, 0, U | PMC_CAP_PRECISE, ":ppu");
	enc("r1c2,edge", 0x401c2, 0, 0, "a raw event takes terms too");
	enc("raw,event=0xc0,umask=1", 0x1c0, 0, 0, "raw by terms");

	cpuid("GenuineIntel-6-7E-5");		/* Ice Lake */
	enc("FRONTEND_RETIRED.ITLB_MISS", 0x1c6, 0x14, 0,
	    "icelake/frontend.json: 0xc6 umask 1, MSR 0x3F7 = 0x14");
	enc("frontend_retired.itlb_miss", 0x1c6, 0x14, 0, "pmcstat(8)'s example");
	enc("MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4", 0x1cd, 0x4, 0,
	    "icelake/memory.json: 0xcd umask 1, MSR 0x3F6 = 4");
	enc("CPU_CLK_UNHALTED.DISTRIBUTED", 0x2ec, 0, 0,
	    "icelake/pipeline.json: 0xec umask 2");

	cpuid("GenuineIntel-6-8F-8");		/* Sapphire Rapids */
	enc("TOPDOWN.SLOTS", 0x400, 0, 0, "sapphirerapids/pipeline.json: umask 4");
	enc("OCR.DEMAND_DATA_RD.ANY_RESPONSE", 0x12a, 0x10001, 0,
	    "sapphirerapids/other.json: 0x2A umask 1, MSR 0x1a6 = 0x10001");
	enc("MEM_TRANS_RETIRED.LOAD_LATENCY_GT_128", 0x1cd, 0x80, 0,
	    "sapphirerapids/memory.json: ldlat 0x80");
	enc("BR_MISP_RETIRED.ALL_BRANCHES", 0xc5, 0, 0,
	    "sapphirerapids/pipeline.json");
	enc("FRONTEND_RETIRED.ITLB_MISS", 0x1c6, 0x14, 0,
	    "sapphirerapids/frontend.json");
}

static void amd(void)
{
	cpuid("AuthenticAMD-25-1-1");		/* Zen 3 */
	enc("ex_ret_instr", 0xc0, 0, 0, "amdzen3/core.json");
	enc("EX_RET_INSTR", 0xc0, 0, 0, "upper case");
	enc("ex_ret_msprd_brnch_instr_dir_msmtch", 0x1000000c7, 0, 0,
	    "amdzen3/core.json: 0x1c7, bits 8-11 to 32-35");
	enc("ic_tag_hit_miss.all_instruction_cache_accesses", 0x100001f8e, 0, 0,
	    "amdzen3/cache.json: 0x18e umask 0x1f");
	enc("k8-ex-ret-instr,usr", 0xc0, 0, U, "FreeBSD K8 class prefix");
	bad2("ex_ret_instr,ldlat=3", "unknown qualifier 'ldlat=3'",
	     "(valid: usr, os, event, umask, edge, inv, cmask");

	cpuid("AuthenticAMD-25-61-2");		/* Zen 4 */
	enc("ex_ret_instr", 0xc0, 0, 0, "amdzen4/core.json");
	enc("ls_not_halted_p0_cyc.p0_freq_cyc", 0x100000120, 0, 0,
	    "amdzen4/core.json: 0x120 umask 1");
	enc("de_no_dispatch_per_slot.no_ops_from_frontend", 0x1000001a0, 0, 0,
	    "amdzen4/other.json: 0x1a0 umask 1");
}

static void arm64(void)
{
	cpuid("0x00000000410fd070");		/* Cortex-A57 */
	enc("INST_RETIRED", 0x08, 0, 0,
	    "cortex-a57-a72/instruction.json ArchStdEvent -> common 0x08");
	enc("inst_retired", 0x08, 0, 0, "lower case");
	enc("CPU_CYCLES:u", 0x11, 0, U, "cortex-a57-a72/bus.json -> 0x11");
	enc("br_mis_pred", 0x10, 0, 0, "cortex-a57-a72/branch.json -> 0x10");
	enc("armv8_pmuv3_0/event=0x08/", 0x08, 0, 0, "perf PMU form");
	enc("armv8_cortex_a57/inst_retired/", 0x08, 0, 0, "named PMU");
	bad2("INST_RETIRED,umask=1", "unknown qualifier 'umask=1'",
	     "(valid: usr, os, event");
	bad("armv8_pmuv3_0/event=0x10000/", "does not fit its 16 bits");

	cpuid("0x00000000413fd0c1");		/* Neoverse N1 r3p1 */
	enc("INST_RETIRED", 0x08, 0, 0, "neoverse-n1/retired.json -> 0x08");
	enc("L1D_CACHE_RD", 0x40, 0, 0,
	    "neoverse-n1/l1d_cache.json -> recommended.json 0x40");
}

static void errors(void)
{
	cpuid("GenuineIntel-6-55-4");
	bad2("inst_retired.any,bogus", "unknown qualifier 'bogus' in 'inst_retired.any,bogus'",
	     "(valid: usr, os, event, umask, edge");
	bad2("cpu/event=0xc0,foo=1/", "unknown term 'foo=1' in 'cpu/event=0xc0,foo=1/'",
	     "(valid: event, umask");
	bad("cpu/event=0xc0,umask=0x100/", "value 0x100 of term 'umask' does not fit its 8 bits");
	bad("cpu/event=0xc0,umask=zz/", "bad number 'zz'");
	bad("cpu/event=0xc0", "no closing '/'");
	bad("cpu//", "no event terms");
	bad("uncore_imc_0/event=0x4/", "no PMU 'uncore_imc_0' in 'uncore_imc_0/event=0x4/'");
	bad("cpu/inst_retired.any,no_such_event/",
	    "two events ('inst_retired.any', 'no_such_event') in 'cpu/inst_retired.any,no_such_event/'");
	bad2("cpu/no_such_event,cmask=1/", "unknown term or event 'no_such_event'",
	     "(terms: event, umask");
	bad("cycles,edge", "unknown qualifier 'edge' in 'cycles,edge'");
	bad("inst_retired.any:x", "unknown modifier ':x' in 'inst_retired.any:x' (valid: u, k, p)");
	bad("task-clock:p", "needs a PMU event");
	bad("SOFT-inst_retired.any", "is of class PMU, not SOFT");
	bad("inst_retired.anyy", "not in the skylakex table of CPU GenuineIntel-6-55-4");

	cpuid("GenuineIntel-6-FF-0");
	bad("inst_retired.any", "no vendor event table for CPU GenuineIntel-6-FF-0 of HWPMC_CPUID");
	enc("cpu/event=0xc0/", 0xc0, 0, 0, "unknown CPU: the PMU form still works");

	cpuid("0x00000000410fffff");
	bad("INST_RETIRED", "no vendor event table for CPU 0x00000000410fffff");

	cpuid("GenuineIntel-6-55-4");
	/* generic events are unchanged */
	memset(&pa, 0, sizeof(pa));
	ok(pmc_parse_spec("instructions:u", &pa, err, sizeof(err)) == 0 &&
	   pa.pm_ev == PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_INSTRUCTIONS &&
	   pa.pm_caps == U, "instructions:u stays generic");
	ok(pmc_parse_spec("cpu/cycles/", &pa, err, sizeof(err)) == 0 &&
	   pa.pm_ev == PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_CPU_CYCLES,
	   "cpu/cycles/: the generic event");
}

/*
 * Every event of every table encodes with its architecture's layout,
 * and the tables know every model of both mapfiles.
 */
static void all_tables(void)
{
	struct pmc_md_pmu_op_pmcallocate md;
	struct pmc_pmu_event ev;
	struct pmc_pmu_desc d;
	unsigned int t, i, n = 0, bad = 0, ntab = 0;
	char m[256], first[512] = "";

	for (t = 0; pmc_pmu_table_name((int)t); t++) {
		ntab++;
		pmc_pmu_builtin(&d, (int)t, "");
		for (i = 0; pmc_pmu_event_at((int)t, i, &ev) == 0; i++, n++) {
			memset(&md, 0, sizeof(md));
			if (pmc_pmu_encode(&d, ev.enc, &md, m, sizeof(m)) < 0 ||
			    !*ev.name) {
				if (!bad++)
					snprintf(first, sizeof(first), "%s %s (%s): %s",
						 pmc_pmu_table_name((int)t), ev.name,
						 ev.enc, m);
			}
		}
	}
	ok(ntab >= 60 && n > 15000 && !bad,
	   "%u tables, %u events encode with the architectural layout (%u failed%s%s)",
	   ntab, n, bad, bad ? ": " : "", first);
}

/*
 * libpfm4's names (decision 32).  spec (libpfm4's) and json (the same
 * event as the tables name it) parse to the same configuration and
 * caps, which is c, c1 and caps, checked by hand against libpfm4's own
 * check_events example (/usr/share/doc/libpfm4-dev/examples, libpfm4
 * 4.13, LIBPFM_ENCODE_INACTIVE=1) where src says so: its "Codes" are the
 * raw register, with libpfm4's enable bit 22 and privilege bits 16 (USR)
 * and 17 (OS), which perf's config leaves out.
 */
static void pfm_same(const char *spec, const char *json, uint64_t c,
		     uint64_t c1, uint32_t caps, const char *src)
{
	struct pmc_op_pmcallocate a, b;
	char e1[512] = "", e2[512] = "";
	int r1, r2;

	memset(&a, 0xA5, sizeof(a));
	memset(&b, 0x5A, sizeof(b));
	r1 = pmc_parse_spec(spec, &a, e1, sizeof(e1));
	r2 = pmc_parse_spec(json, &b, e2, sizeof(e2));
	ok(r1 == 0 && r2 == 0 && a.pm_class == P && a.pm_ev == RAW &&
	   b.pm_class == P && b.pm_ev == RAW &&
	   a.pm_md.pm_pmu.pm_config == c && b.pm_md.pm_pmu.pm_config == c &&
	   a.pm_md.pm_pmu.pm_config1 == c1 && b.pm_md.pm_pmu.pm_config1 == c1 &&
	   !a.pm_md.pm_pmu.pm_config2 && !b.pm_md.pm_pmu.pm_config2 &&
	   a.pm_caps == caps && b.pm_caps == caps,
	   "libpfm4 '%s' = '%s': config %#llx config1 %#llx caps %#x (%s)%s%s%s%s",
	   spec, json, (unsigned long long)c, (unsigned long long)c1, caps,
	   src, r1 ? ": " : "", e1, r2 ? ": " : "", e2);
	if (!r1 && !r2 && (a.pm_md.pm_pmu.pm_config != c ||
			   a.pm_md.pm_pmu.pm_config1 != c1 ||
			   b.pm_md.pm_pmu.pm_config != c || a.pm_caps != caps))
		printf("# got %#llx/%#llx caps %#x and %#llx/%#llx caps %#x\n",
		       (unsigned long long)a.pm_md.pm_pmu.pm_config,
		       (unsigned long long)a.pm_md.pm_pmu.pm_config1, a.pm_caps,
		       (unsigned long long)b.pm_md.pm_pmu.pm_config,
		       (unsigned long long)b.pm_md.pm_pmu.pm_config1, b.pm_caps);
}

/* Does the table of CPU id have libpfm4 names?  Else a skip saying why. */
static int pfm_have(const char *id, const char *model, int n)
{
	const char *pmus = pmc_pmu_pfm_pmus(pmc_pmu_table_of(id));
	const char *tsv = getenv("PFM_TSV");
	int i;

	cpuid(id);
	if (*pmus)
		return 1;
	for (i = 0; i < n; i++)
		skip("%s: no libpfm4 names (%s)", model,
		     !tsv || !*tsv ? "built without libpfm4: no libpfm4-dev" :
		     "the build host's libpfm4 has no such model: Debian's amd64 libpfm4 knows x86 models only");
	return 0;
}

static void pfm_names(void)
{
	const char *s;
	int idx;

	if (pfm_have("GenuineIntel-6-55-4", "Skylake-X", 22)) {
		pfm_same("INST_RETIRED:ANY_P", "inst_retired.any_p", 0xc0, 0, 0,
			 "check_events skx::INST_RETIRED:ANY_P:u: 0x5100c0");
		pfm_same("skx::INST_RETIRED:ANY_P:u", "inst_retired.any_p:u",
			 0xc0, 0, U, "PMU prefix, modifier u");
		pfm_same("inst_retired:any_p:k", "inst_retired.any_p:k", 0xc0, 0,
			 K, "lower case, modifier k");
		pfm_same("SKX::INST_RETIRED:ANY_P:u=0:k=1", "inst_retired.any_p:k",
			 0xc0, 0, K, "u=0, k=1");
		pfm_same("INST_RETIRED", "inst_retired.any_p", 0xc0, 0, 0,
			 "libpfm4's default unit mask ANY_P");
		pfm_same("UOPS_ISSUED:ANY:c=1:i", "uops_issued.any,cmask=1,inv",
			 0x180010e, 0, 0,
			 "check_events skx::UOPS_ISSUED:ANY:c=1:i: 0x1d3010e");
		pfm_same("UOPS_ISSUED:ANY:e:c=2,usr", "uops_issued.any,edge,cmask=2,usr",
			 0x204010e, 0, U, "e, c=2 and FreeBSD's qualifier");
		pfm_same("skx::OFFCORE_RESPONSE_0:DMND_DATA_RD",
			 "offcore_response.demand_data_rd.any_response", 0x1b7,
			 0x10001, 0,
			 "check_events: 0x5301b7 0x10001 (default response ANY_RESPONSE)");
		pfm_same("BR_MISP_RETIRED:ALL_BRANCHES", "br_misp_retired.all_branches",
			 0xc5, 0, 0, "skylakex/pipeline.json: 0xc5");
		pfm_same("skx::UOPS_ISSUED:STALL_CYCLES", "uops_issued.stall_cycles",
			 0x180010e, 0, 0, "a unit mask with c=1:i of its own");
		/* errors name what is wrong, and the valid ones */
		bad2("INST_RETIRED:BOGUS", "unknown libpfm4 attribute 'BOGUS' of INST_RETIRED",
		     "ANY_P");
		bad2("skx::BOGUS_EVENT:ANY", "unknown libpfm4 event 'BOGUS_EVENT'", "skx");
		bad2("icl::INST_RETIRED:ANY_P", "libpfm4 PMU 'icl'", "not this CPU's (skylakex's: skx)");
		bad2("INST_RETIRED:ANY_P:c", "libpfm4 modifier 'c'", "needs a value");
		bad("INST_RETIRED:ANY_P:u=2", "bad value '2' of libpfm4 modifier 'u'");
		bad2("INST_RETIRED:ANY_P:h", "unknown libpfm4 attribute 'h'", "modifiers: u, k, c, i, e, t");
		bad("INST_RETIRED:ANY_P:ALL", "more than one unit mask");
		bad("INST_RETIRED:ANY_P:u=0", "counts in neither user nor kernel mode");
		/* libpfm4 has it, with another encoding than any table event's */
		bad2("OFFCORE_RESPONSE_0:ANY_REQUEST", "unknown libpfm4 unit mask 'ANY_REQUEST'",
		     "DMND_DATA_RD");
		/* the pmc_pmu_* API takes the names too, without modifiers */
		idx = pmc_pmu_idx_get_by_event(NULL, "skx::INST_RETIRED:ANY_P");
		s = idx >= 0 ? pmc_pmu_event_get_by_idx(NULL, idx) : NULL;
		ok(s && !strcmp(s, "inst_retired.any_p"),
		   "pmc_pmu_idx_get_by_event(skx::INST_RETIRED:ANY_P) is inst_retired.any_p (%s)",
		   s ? s : "none");
		s = idx >= 0 ? pmc_pmu_event_pfm_name(idx) : NULL;
		ok(s && !strcmp(s, "INST_RETIRED:ANY_P"),
		   "pmc_pmu_event_pfm_name of inst_retired.any_p: INST_RETIRED:ANY_P (%s)",
		   s ? s : "none");
		ok(pmc_pmu_sample_rate_get("INST_RETIRED:ANY_P") == 2000003,
		   "pmc_pmu_sample_rate_get(INST_RETIRED:ANY_P): the table's 2000003");
	}
	if (pfm_have("GenuineIntel-6-7E-5", "Ice Lake", 3)) {
		pfm_same("icl::FRONTEND_RETIRED:ITLB_MISS", "frontend_retired.itlb_miss",
			 0x1c6, 0x14, 0,
			 "check_events icl::FRONTEND_RETIRED:ITLB_MISS: 0x5301c6 0x14");
		pfm_same("INST_RETIRED:ANY_P:u", "inst_retired.any_p:u", 0xc0, 0, U,
			 "icelake/pipeline.json: 0xc0");
		bad2("skx::INST_RETIRED:ANY_P", "libpfm4 PMU 'skx'", "(icelake's: icl)");
	}
	if (pfm_have("AuthenticAMD-25-1-1", "Zen 3", 5)) {
		pfm_same("RETIRED_INSTRUCTIONS", "ex_ret_instr", 0xc0, 0, 0,
			 "amdzen3/core.json: 0xc0");
		pfm_same("amd64_fam19h_zen3::RETIRED_INSTRUCTIONS:k", "ex_ret_instr:k",
			 0xc0, 0, K,
			 "check_events amd64_fam19h_zen3::RETIRED_INSTRUCTIONS:k: 0x5200c0");
		pfm_same("IC_TAG_HIT_MISS:ALL_IC_ACCESS:u",
			 "ic_tag_hit_miss.all_instruction_cache_accesses:u",
			 0x100001f8e, 0, U, "event 0x18e: bits 8-11 to 32-35");
		pfm_same("RETIRED_BRANCH_MISPREDICTED_DIRECTION_MISMATCH",
			 "ex_ret_msprd_brnch_instr_dir_msmtch", 0x1000000c7, 0, 0,
			 "amdzen3/core.json: 0x1c7");
		/* t is any=1, a term AMD's format lacks */
		bad2("RETIRED_INSTRUCTIONS:t", "unknown libpfm4 modifier term 'any'",
		     "(valid: event, umask, edge, inv, cmask");
	}
	pfm_have("0x00000000413fd0c1", "Neoverse N1", 1);
	pfm_have("0x00000000410fd070", "Cortex-A57", 1);
}

/*
 * Every name libpfm4 listed at build time (gen_pfm_events' PFM_TSV, its
 * own encodings) of a table's libpfm4 PMU: where it is an alias, the
 * library encodes its event to libpfm4's configuration; and every alias
 * of the table is found by its name.
 */
static void pfm_all(void)
{
	const char *tsv = getenv("PFM_TSV"), *pmus;
	char line[1024], pmu[128], name[512], want[700], m[256];
	unsigned long long c0, c1, c2;
	struct pmc_md_pmu_op_pmcallocate md;
	struct pmc_pmu_event ev;
	struct pmc_pmu_desc d;
	unsigned int t, tables = 0, names = 0, aliases = 0, wrong = 0;
	unsigned int generated = 0;
	int i;
	FILE *f;

	if (!tsv || !*tsv) {
		skip("libpfm4's names against libpfm4's encodings: built without libpfm4 (no libpfm4-dev)");
		return;
	}
	f = fopen(tsv, "re");
	if (!f) {
		ok(0, "open PFM_TSV %s: %s", tsv, strerror(errno));
		return;
	}
	want[0] = '\0';
	for (t = 0; pmc_pmu_table_name((int)t); t++) {
		pmus = pmc_pmu_pfm_pmus((int)t);
		if (!*pmus)
			continue;
		tables++;
		pmc_pmu_builtin(&d, (int)t, "");
		rewind(f);
		generated += hwpmc_pe_tables[t].acount;
		while (fgets(line, sizeof(line), f)) {
			if (line[0] == '#' ||
			    sscanf(line, "%127s %511s %llx %llx %llx", pmu, name,
				   &c0, &c1, &c2) != 5 ||
			    strncmp(pmus, pmu, strlen(pmu)) ||
			    (pmus[strlen(pmu)] && pmus[strlen(pmu)] != ','))
				continue;	/* the table's first PMU's */
			names++;
			i = pmc_pmu_pfm_find((int)t, name);
			if (i < 0)
				continue;
			aliases++;
			memset(&md, 0, sizeof(md));
			if (pmc_pmu_event_at((int)t, (unsigned int)i, &ev) < 0 ||
			    pmc_pmu_encode(&d, ev.enc, &md, m, sizeof(m)) < 0 ||
			    md.pm_config != c0 || md.pm_config1 != c1 ||
			    md.pm_config2 != c2) {
				if (!wrong++)
					snprintf(want, sizeof(want),
						 "%s %s::%s is %#llx/%#llx, %s (%s) %#llx/%#llx",
						 pmc_pmu_table_name((int)t), pmu, name,
						 c0, c1, ev.name, ev.enc,
						 (unsigned long long)md.pm_config,
						 (unsigned long long)md.pm_config1);
			}
		}
	}
	fclose(f);
	ok(tables >= 25 && aliases > 5000 && !wrong,
	   "%u tables with libpfm4 names: %u of libpfm4's %u names are aliases, each of an event of libpfm4's encoding (%u not%s%s)",
	   tables, aliases, names, wrong, wrong ? ": " : "", want);
	ok(aliases == generated, "every generated alias is found by its name (%u of %u)",
	   aliases, generated);
}

/* A sysfs format tree (HWPMC_SYSFS) with a layout of its own. */
static void sysfs_format(void)
{
	char dir[] = "/tmp/hwpmc-sysfs.XXXXXX", path[256];
	static const char *const files[][2] = {
		{ "event", "config:0-7,32-35\n" }, { "umask", "config:8-15\n" },
		{ "cmask", "config:24-31\n" }, { "frontend", "config1:0-23\n" },
	};
	unsigned int i;
	FILE *f;
	int r;

	if (!mkdtemp(dir)) {
		skip("mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(path, sizeof(path),
		 "mkdir -p %s/bus/event_source/devices/cpu/format", dir);
	r = system(path);
	for (i = 0; r == 0 && i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path),
			 "%s/bus/event_source/devices/cpu/format/%s", dir,
			 files[i][0]);
		f = fopen(path, "w");
		if (!f) {
			r = -1;
			break;
		}
		fputs(files[i][1], f);
		fclose(f);
	}
	ok(r == 0, "fake sysfs in %s", dir);
	setenv("HWPMC_SYSFS", dir, 1);

	/* arm64's id: MIDR_EL1 from sysfs, written as perf writes it */
	{
		char id[PMC_CPUID_LEN] = "";

		ok(pmc_pmu_read_midr(id, sizeof(id)) == -1, "no midr_el1: -1");
		snprintf(path, sizeof(path),
			 "mkdir -p %s/devices/system/cpu/cpu0/regs/identification && "
			 "echo 0x00000000413fd0c1 > %s/devices/system/cpu/cpu0/regs/identification/midr_el1",
			 dir, dir);
		r = system(path);
		ok(r == 0 && pmc_pmu_read_midr(id, sizeof(id)) == 0 &&
		   !strcmp(id, "0x00000000413fd0c1") &&
		   !strcmp(pmc_pmu_table_name(pmc_pmu_table_of(id)), "arm/neoverse-n1"),
		   "midr_el1 %s: Neoverse N1", id);
	}
	cpuid("GenuineIntel-6-7E-5");
	enc("cpu/event=0x1c0,umask=2/", 0x1000002c0, 0, 0, "sysfs: event=config:0-7,32-35");
	enc("frontend_retired.itlb_miss", 0x1c6, 0x14, 0, "sysfs frontend");
	bad2("cpu/event=1,edge/", "unknown term or event 'edge'",
	     "(terms: cmask, event, frontend, umask, config");
	bad("inst_retired.any_p,inv", "unknown qualifier 'inv'");
	unsetenv("HWPMC_SYSFS");
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path) != 0)
		printf("# could not remove %s\n", dir);
}

/* What fn(arg) prints on standard output, in buf. */
static void capture(void (*fn)(const char *), const char *arg, char *buf,
		    size_t len)
{
	FILE *tmp = tmpfile();
	int saved;
	size_t n = 0;

	buf[0] = '\0';
	fflush(stdout);
	saved = dup(1);
	if (!tmp || saved < 0 || dup2(fileno(tmp), 1) < 0) {
		if (tmp)
			fclose(tmp);
		if (saved >= 0)
			close(saved);
		return;
	}
	fn(arg);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, len - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
}

/* FreeBSD's pmc_pmu_* functions and the Linux additions. */
static void api(void)
{
	static char out[1 << 16];
	struct pmc_pmu_event_info info;
	const char *s;
	int idx;

	cpuid("GenuineIntel-6-55-4");
	ok(pmc_pmu_enabled() == 1, "pmc_pmu_enabled");
	s = pmc_pmu_model();
	ok(s && !strcmp(s, "skylakex"), "pmc_pmu_model: %s", s ? s : "NULL");
	s = pmc_pmu_cpuid();
	ok(s && !strcmp(s, "GenuineIntel-6-55-4"), "pmc_pmu_cpuid: %s",
	   s ? s : "NULL");
	idx = pmc_pmu_idx_get_by_event(NULL, "INST_RETIRED.ANY");
	s = pmc_pmu_event_get_by_idx(NULL, idx);
	ok(idx >= 0 && s && !strcmp(s, "inst_retired.any"),
	   "pmc_pmu_idx_get_by_event / pmc_pmu_event_get_by_idx: %d %s", idx,
	   s ? s : "NULL");
	ok(pmc_pmu_event_info(idx, &info) == 0 &&
	   !strcmp(info.pe_encoding, "event=0x0,umask=0x1") &&
	   info.pe_period == 2000003 && !strcmp(info.pe_topic, "pipeline") &&
	   !strncmp(info.pe_desc, "Instructions retired", 20),
	   "pmc_pmu_event_info: %s [%s] period %llu", info.pe_encoding,
	   info.pe_topic, (unsigned long long)info.pe_period);
	errno = 0;
	ok(pmc_pmu_event_info(1 << 20, &info) == -1 && errno == ENOENT,
	   "pmc_pmu_event_info past the end: ENOENT");
	/* skylakex/pipeline.json: PublicDescription beside the brief one */
	s = pmc_pmu_event_long_desc(idx);
	ok(s && !strncmp(s, "Counts the number of instructions retired from execution. For", 61) &&
	   strstr(s, "Faulting executions of GETSEC/VM entry/VM Exit/MWait will not count as retired instructions."),
	   "pmc_pmu_event_long_desc: perf's long description: %.40s",
	   s ? s : "NULL");
	errno = 0;
	ok(pmc_pmu_event_long_desc(1 << 20) == NULL && errno == ENOENT,
	   "pmc_pmu_event_long_desc past the end: ENOENT");
	idx = pmc_pmu_idx_get_by_event("AuthenticAMD-25-1-1", "ex_ret_instr");
	s = pmc_pmu_event_get_by_idx("AuthenticAMD-25-1-1", idx);
	ok(idx >= 0 && s && !strcmp(s, "ex_ret_instr"),
	   "another CPU's table by cpuid argument");
	ok(pmc_pmu_idx_get_by_event(NULL, "ex_ret_instr") == -1,
	   "... not the current one's");
	ok(pmc_pmu_sample_rate_get("inst_retired.any") == 2000003,
	   "pmc_pmu_sample_rate_get: the table's SampleAfterValue");
	ok(pmc_pmu_sample_rate_get("nonesuch") == 65536,
	   "pmc_pmu_sample_rate_get: FreeBSD's default otherwise");
	memset(&pa, 0, sizeof(pa));
	ok(pmc_pmu_pmcallocate("UOPS_ISSUED.STALL_CYCLES", &pa) == 0 &&
	   pa.pm_class == P && pa.pm_ev == RAW &&
	   pa.pm_md.pm_pmu.pm_config == 0x180010e,
	   "pmc_pmu_pmcallocate: config %#llx",
	   (unsigned long long)pa.pm_md.pm_pmu.pm_config);
	ok(pmc_pmu_pmcallocate("nonesuch", &pa) == ENOENT,
	   "pmc_pmu_pmcallocate(nonesuch): ENOENT");

	capture(pmc_pmu_print_counters, "inst_retired.any", out, sizeof(out));
	ok(!strcmp(out, "\tinst_retired.any\n\tinst_retired.any_p\n") ||
	   (strstr(out, "\tinst_retired.any\n") &&
	    strstr(out, "\tinst_retired.any_p\n") && !strstr(out, "uops")),
	   "pmc_pmu_print_counters(inst_retired.any)");
	capture(pmc_pmu_print_counter_desc, "UOPS_ISSUED.STALL_CYCLES", out,
		sizeof(out));
	ok(!strncmp(out, "uops_issued.stall_cycles:\tCycles when Resource Allocation Table", 61),
	   "pmc_pmu_print_counter_desc: %.70s", out);
	capture(pmc_pmu_print_counter_desc_long, "UOPS_ISSUED.STALL_CYCLES",
		out, sizeof(out));
	ok(!strcmp(out, "uops_issued.stall_cycles:\tCounts cycles during which the Resource Allocation Table (RAT) does not issue any Uops to the reservation station (RS) for the current thread.\n"),
	   "pmc_pmu_print_counter_desc_long: %.70s", out);
	capture(pmc_pmu_print_counter_full, "uops_issued.stall_cycles", out,
		sizeof(out));
	ok(strstr(out, "name: uops_issued.stall_cycles\n") &&
	   strstr(out, "event: event=0xe,umask=0x1,cmask=0x1,inv\n") &&
	   strstr(out, "topic: pipeline\n") && strstr(out, "pmu: cpu\n") &&
	   strstr(out, "period: 2000003\n"),
	   "pmc_pmu_print_counter_full");
	capture(pmc_pmu_print_counters, NULL, out, sizeof(out));
	ok(strlen(out) > 10000 && !strstr(out, "\t\n"),
	   "pmc_pmu_print_counters(NULL): every event (%zu bytes)", strlen(out));

	cpuid("GenuineIntel-6-FF-0");
	ok(pmc_pmu_enabled() == 0 && !pmc_pmu_model() &&
	   pmc_pmu_event_info(0, &info) == -1, "unknown CPU: no table");
}

/* After pmc_init: vendor events need the module's raw event. */
static void with_module(void)
{
	pmc_id_t id;

	cpuid("GenuineIntel-6-55-4");
	setenv("HWPMC_DEVICE", "/dev/null", 1);
	unsetenv("FAKE_HWPMC_PMU");
	ok(pmc_init() == 0, "pmc_init (fake, no PMU): %s", pmc_init_message());
	bad("inst_retired.any", "event 'inst_retired.any' needs raw PMU events, which are not available on this machine (no hardware PMU)");
	cpuid("0x00000000410fd070");
	bad("CPU_CYCLES", "event 'CPU_CYCLES' (cycles) is not available on this machine (no hardware PMU)");
	cpuid("GenuineIntel-6-55-4");
	pmc_fini();
	setenv("FAKE_HWPMC_PMU", "1", 1);
	ok(pmc_init() == 0, "pmc_init (fake, PMU): %s", pmc_init_message());
	enc("inst_retired.any:u", 0x100, 0, U, "with the module");
	ok(pmc_allocate("frontend_retired.itlb_miss", PMC_MODE_TC, 0,
			(int)PMC_CPU_ANY, &id, 0) == 0,
	   "pmc_allocate(frontend_retired.itlb_miss): %s",
	   pmc_allocate_message());
	ok(pmc_allocate("icache_64b.iftag_misss", PMC_MODE_TC, 0,
			(int)PMC_CPU_ANY, &id, 0) == -1 && errno == EINVAL &&
	   strstr(pmc_allocate_message(), "unknown event 'icache_64b.iftag_misss'"),
	   "pmc_allocate of a misspelt vendor event: %s",
	   pmc_allocate_message());
	pmc_fini();
	unsetenv("FAKE_HWPMC_PMU");
	unsetenv("HWPMC_DEVICE");
}

int main(void)
{
	unsetenv("HWPMC_SYSFS");
	mapping();
	all_tables();
	intel();
	amd();
	arm64();
	pfm_names();
	pfm_all();
	errors();
	sysfs_format();
	api();
	with_module();
	return tap_done();
}
