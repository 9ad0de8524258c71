// SPDX-License-Identifier: GPL-2.0
/*
 * Source compatibility with FreeBSD, C++: the idioms of FreeBSD's C++
 * clients (usr.sbin/pmc, third-party dumpers), which need FreeBSD's enum
 * types: enumerators as arguments and initialisers, enum-typed structure
 * fields, a record switch over enum pmclog_type, X-macro tables.  Built
 * with g++ -std=c++17 -Wall -Wextra -Werror against the headers as
 * installed, run under ASan and UBSan.
 */
#include <cerrno>
#include <cinttypes>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

#include <sys/pmc.h>
#include <sys/pmclog.h>
#include <pmc.h>
#include <pmclog.h>
#include <pmcformat.h>

#include "compat_values.h"
#include "tap.h"

/* The fields FreeBSD declares with its enum types have them. */
#define FIELD_IS(s, f, t)						\
	static_assert(std::is_same<decltype(((s *)nullptr)->f), t>::value, \
		      #s "." #f " is " #t)
FIELD_IS(struct pmc_classinfo, pm_class, enum pmc_class);
FIELD_IS(struct pmc_op_getcpuinfo, pm_cputype, enum pmc_cputype);
FIELD_IS(struct pmc_cpuinfo, pm_cputype, enum pmc_cputype);
FIELD_IS(struct pmc_info, pm_class, enum pmc_class);
FIELD_IS(struct pmc_info, pm_rowdisp, enum pmc_disp);
FIELD_IS(struct pmc_info, pm_mode, enum pmc_mode);
FIELD_IS(struct pmc_info, pm_event, enum pmc_event);
FIELD_IS(struct pmc_info, pm_reloadcount, pmc_value_t);
FIELD_IS(struct pmc_op_pmcadmin, pm_state, enum pmc_state);
FIELD_IS(struct pmc_op_pmcallocate, pm_class, enum pmc_class);
FIELD_IS(struct pmc_op_pmcallocate, pm_ev, enum pmc_event);
FIELD_IS(struct pmc_op_pmcallocate, pm_mode, enum pmc_mode);
FIELD_IS(struct pmc_op_pmcallocate, pm_count, pmc_value_t);
FIELD_IS(struct pmc_op_pmcsetcount, pm_count, pmc_value_t);
FIELD_IS(struct pmc_op_pmcrw, pm_value, pmc_value_t);
FIELD_IS(struct pmc_dyn_event_descr, pm_ev_code, enum pmc_event);
FIELD_IS(struct pmc_op_getdyneventinfo, pm_class, enum pmc_class);
FIELD_IS(struct pmclog_ev, pl_type, enum pmclog_type);
FIELD_IS(struct pmclog_parse_state, ps_arch, enum pmc_cputype);

/* The constants are enumerators of FreeBSD's types. */
static_assert(std::is_same<decltype(PMC_MODE_SS), enum pmc_mode>::value, "mode");
static_assert(std::is_same<decltype(PMC_CLASS_SOFT), enum pmc_class>::value, "class");
static_assert(std::is_same<decltype(PMC_STATE_FREE), enum pmc_state>::value, "state");
static_assert(std::is_same<decltype(PMC_DISP_FREE), enum pmc_disp>::value, "disp");
static_assert(std::is_same<decltype(PMC_CAP_READ), enum pmc_caps>::value, "caps");
static_assert(std::is_same<decltype(PMC_CPU_GENERIC), enum pmc_cputype>::value, "cpu");
static_assert(std::is_same<decltype(PMC_OP_PMCRW), enum pmc_ops>::value, "op");
static_assert(std::is_same<decltype(PMC_EV_SOFT_TASK_CLOCK), enum pmc_event>::value, "ev");
static_assert(std::is_same<decltype(PMCLOG_TYPE_CALLCHAIN), enum pmclog_type>::value,
	      "pmclog type");
static_assert(std::is_same<decltype(PL_STATE_ERROR), enum pmclog_parser_state>::value,
	      "parser state");
static_assert(PMC_STATE_MAX == 6 && PMC_DISP_LAST == PMC_DISP_THREAD &&
	      PMC_EV_SOFT_LAST == 0x20FFF && PMC_CPU_ANY == -1 &&
	      PMC_CPUID_LEN == 64, "FreeBSD's values");

/* FreeBSD's name tables, as usr.sbin/pmc builds them. */
static const char *const class_names[] = {
#define __PMC_CLASS(S, V, D)	#S,
	__PMC_CLASSES()
#undef __PMC_CLASS
};
static const enum pmc_class class_values[] = {
#define __PMC_CLASS(S, V, D)	PMC_CLASS_##S,
	__PMC_CLASSES()
#undef __PMC_CLASS
};

static std::string describe(const struct pmclog_ev &ev)
{
	char buf[128];

	switch (ev.pl_type) {
	case PMCLOG_TYPE_INITIALIZE:
		snprintf(buf, sizeof(buf), "initlog 0x%x \"%s\"",
			 ev.pl_u.pl_i.pl_version,
			 pmc_name_of_cputype((enum pmc_cputype)ev.pl_u.pl_i.pl_arch));
		return buf;
	case PMCLOG_TYPE_PMCALLOCATEDYN:
		snprintf(buf, sizeof(buf), "allocatedyn 0x%x \"%s\" 0x%x",
			 ev.pl_u.pl_ad.pl_pmcid, ev.pl_u.pl_ad.pl_evname,
			 ev.pl_u.pl_ad.pl_flags);
		return buf;
	case PMCLOG_TYPE_CALLCHAIN:
		snprintf(buf, sizeof(buf), "callchain %d %#" PRIx64,
			 (int)ev.pl_u.pl_cc.pl_pid, ev.pl_u.pl_cc.pl_pc[0]);
		return buf;
	case PMCLOG_TYPE_CLOSELOG:
	case PMCLOG_TYPE_DROPNOTIFY:
	case PMCLOG_TYPE_PMCALLOCATE:
	case PMCLOG_TYPE_PMCATTACH:
	case PMCLOG_TYPE_PMCDETACH:
	case PMCLOG_TYPE_PROCCSW:
	case PMCLOG_TYPE_PROCEXEC:
	case PMCLOG_TYPE_PROCEXIT:
	case PMCLOG_TYPE_PROCFORK:
	case PMCLOG_TYPE_SYSEXIT:
	case PMCLOG_TYPE_USERDATA:
	case PMCLOG_TYPE_MAP_IN:
	case PMCLOG_TYPE_MAP_OUT:
	case PMCLOG_TYPE_THR_CREATE:
	case PMCLOG_TYPE_THR_EXIT:
	case PMCLOG_TYPE_PROC_CREATE:
	case PMCLOG_TYPE_USERSTACK:
		return "other";
	}
	return "unknown";
}

/* For TAP: newlines as \n */
static std::string oneline(const std::string &s)
{
	std::string r;

	for (char c : s)
		r += c == '\n' ? std::string("\\n") : std::string(1, c);
	return r;
}

/* A log of three records, written as the module would (native endian). */
static size_t make_log(unsigned char *buf, size_t room)
{
	struct pmclog_initialize in;
	struct pmclog_pmcallocatedyn ad;
	struct pmclog_callchain cc;	/* then its PCs */
	const uint64_t pc[2] = { 0x401000, 0x402000 };
	size_t n = 0;

	if (room < sizeof(in) + sizeof(ad) + sizeof(cc) + sizeof(pc))
		return 0;
	memset(&in, 0, sizeof(in));
	in.pl_hdr.pl_header = PMCLOG_HEADER(PMCLOG_TYPE_INITIALIZE, sizeof(in));
	in.pl_version = PMCLOG_VERSION;
	in.pl_cpu = PMC_CPU_GENERIC;
	memcpy(buf + n, &in, sizeof(in));
	n += sizeof(in);
	memset(&ad, 0, sizeof(ad));
	ad.pl_hdr.pl_header = PMCLOG_HEADER(PMCLOG_TYPE_PMCALLOCATEDYN, sizeof(ad));
	ad.pl_pmcid = PMC_ID_MAKE_ID(PMC_CPU_ANY, PMC_MODE_TS, PMC_CLASS_SOFT, 1);
	ad.pl_event = PMC_EV_SOFT_CPU_CLOCK;
	ad.pl_flags = PMC_F_CALLCHAIN;
	strcpy(ad.pl_evname, "cpu-clock");
	memcpy(buf + n, &ad, sizeof(ad));
	n += sizeof(ad);
	memset(&cc, 0, sizeof(cc));
	cc.pl_hdr.pl_header = PMCLOG_HEADER(PMCLOG_TYPE_CALLCHAIN,
					    sizeof(cc) + sizeof(pc));
	cc.pl_pid = 42;
	cc.pl_pmcid = ad.pl_pmcid;
	cc.pl_cpuflags = PMC_CALLCHAIN_TO_CPUFLAGS(1, PMC_CC_F_USERSPACE);
	memcpy(buf + n, &cc, sizeof(cc));
	n += sizeof(cc);
	memcpy(buf + n, pc, sizeof(pc));
	return n + sizeof(pc);
}

/* libpmcstat's sample callback: the call chain as uintfptr_t * */
static uintfptr_t cc_first(const uintfptr_t *cc)
{
	return cc[0];
}

int main()
{
	enum pmc_mode m = PMC_MODE_SC;
	enum pmclog_type t = PMCLOG_TYPE_CALLCHAIN;
	struct pmc_cpuinfo ci{};
	struct pmc_info pi{};
	pmc_id_t id = 0;
	char buf[64];
	unsigned int i, bad = 0;

	ok(m == 1 && t == 16, "enum pmc_mode m = PMC_MODE_SC; "
	   "enum pmclog_type t = PMCLOG_TYPE_CALLCHAIN");

	errno = 0;
	ok(pmc_allocate("instructions", PMC_MODE_TC, PMC_F_DESCENDANTS,
			PMC_CPU_ANY, &id, 0) == -1 && errno == ENXIO,
	   "pmc_allocate(..., PMC_MODE_TC, ...) compiles; ENXIO before pmc_init()");

	ok(!strcmp(pmc_name_of_class(PMC_CLASS_SOFT), "SOFT") &&
	   !strcmp(pmc_name_of_capability(PMC_CAP_INTERRUPT), "INTERRUPT") &&
	   !strcmp(pmc_name_of_state(PMC_STATE_FREE), "FREE") &&
	   !strcmp(pmc_name_of_disposition(PMC_DISP_FREE), "FREE") &&
	   !strcmp(pmc_name_of_mode(PMC_MODE_TS), "TS") &&
	   !strcmp(pmc_name_of_cputype(PMC_CPU_GENERIC), "GENERIC"),
	   "pmc_name_of_*() take the enumerators");

	ci.pm_nclass = 1;
	ci.pm_classes[0].pm_class = PMC_CLASS_PMU;
	pi.pm_mode = PMC_MODE_SS;
	pi.pm_rowdisp = PMC_DISP_STANDALONE;
	pi.pm_reloadcount = 65536;
	{
		enum pmc_class c = ci.pm_classes[0].pm_class;
		enum pmc_mode pm = pi.pm_mode;
		enum pmc_disp d = pi.pm_rowdisp;
		pmc_value_t *rc = &pi.pm_reloadcount;

		snprintf(buf, sizeof(buf), "%s %s %s %jd", pmc_name_of_class(c),
			 pmc_name_of_mode(pm), pmc_name_of_disposition(d),
			 (intmax_t)*rc);
		ok(!strcmp(buf, "PMU SS STANDALONE 65536"),
		   "enum fields into enum variables: %s", buf);
	}

	for (i = 0; i < sizeof(class_names) / sizeof(class_names[0]); i++)
		if (strcmp(pmc_name_of_class(class_values[i]), class_names[i]))
			bad++;
	ok(bad == 0, "__PMC_CLASSES() tables: %zu classes named by pmc_name_of_class()",
	   sizeof(class_names) / sizeof(class_names[0]));

	{
		static unsigned char log[512];
		struct pmclog_ev ev;
		std::string seen;
		size_t len = make_log(log, sizeof(log));
		void *p = pmclog_open(PMCLOG_FD_NONE);

		std::string json;

		ok(p && pmclog_feed(p, (char *)log, (int)len) == 0, "pmclog_feed()");
		while (p && pmclog_read(p, &ev) == 0) {
			seen += describe(ev) + ";";
			json += event_to_json(&ev);
		}
		ok(json == "{\"type\": \"initialize\", \"tsc\": \"0\", "
			   "\"version\": \"0x01040000\", \"arch\": \"0x00000400\", "
			   "\"cpuid\": \"\", \"tsc_freq\": \"1000000000\", "
			   "\"sec\": \"0\", \"nsec\": \"0\", \"ncpu\": \"0\"}\n"
			   "{\"type\": \"pmcallocatedyn\", \"tsc\": \"0\", "
			   "\"pmcid\": \"0xfff20f01\", \"event\": \"131072\", "
			   "\"flags\": \"0x00000080\", \"evname\": \"cpu-clock\"}\n"
			   "{\"type\": \"callchain\", \"tsc\": \"0\", "
			   "\"pmcid\": \"0xfff20f01\", \"pid\": \"42\", \"tid\": \"0\", "
			   "\"cpuflags\": \"0x00010001\", \"cpuflags2\": \"0x00000000\", "
			   "\"pc\": [ \"0x0000000000401000\", \"0x0000000000402000\"]}\n",
		   "<pmcformat.h>: event_to_json() of the three records: %s",
		   oneline(json).c_str());
		ok(cc_first(ev.pl_u.pl_cc.pl_pc) == 0x401000,
		   "pl_cc.pl_pc passes as uintfptr_t * (libpmcstat's callbacks)");
		ok(ev.pl_state == PMCLOG_REQUIRE_DATA &&
		   seen == "initlog 0x1040000 \"GENERIC\";"
			   "allocatedyn 0xfff20f01 \"cpu-clock\" 0x80;"
			   "callchain 42 0x401000;",
		   "record switch over enum pmclog_type: %s", seen.c_str());
		if (p)
			pmclog_close(p);
	}

	{
		static struct pmclog_ev ev;
		std::string j;

		ev.pl_type = PMCLOG_TYPE_MAP_IN;
		ev.pl_ts.tv_sec = 2;
		ev.pl_ts.tv_nsec = 5;
		ev.pl_u.pl_mi.pl_pid = -1;
		strcpy(ev.pl_u.pl_mi.pl_pathname, "/a \"b\"\\c\n");
		j = event_to_json(&ev);
		ok(j.find("\"tsc\": \"2000000005\"") != std::string::npos &&
		   j.find("\"pid\": \"-1\"") != std::string::npos &&
		   j.find("\"pathname\": \"/a \\\"b\\\"\\\\c\\u000a\"") !=
		   std::string::npos, "event_to_json(): time in ns, JSON escapes") ||
			printf("# %s", j.c_str());
		ev.pl_type = (enum pmclog_type)4;
		j = event_to_json(&ev);
		ok(j == "{\"type\": \"unknown\", \"tsc\": \"2000000005\", "
			"\"typenum\": \"4\"}\n",
		   "event_to_json() of an unknown type: %s", oneline(j).c_str());
	}

	{
#define V(name)	(long long)(name),
		static const long long mine[] = { COMPAT_SAME(V) };
#undef V
		bad = 0;
		for (i = 0; i < compat_uapi_count; i++)
			bad += mine[i] != compat_uapi_values[i];
		ok(bad == 0 && compat_uapi_count == sizeof(mine) / sizeof(mine[0]),
		   "C++: %u names with the uapi value", compat_uapi_count);
	}
	return tap_done();
}
