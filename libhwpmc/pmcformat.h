/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libhwpmc: FreeBSD's <pmcformat.h>, for C++ programs: event_to_json()
 * turns a record read by pmclog_read() into one line of JSON.
 *
 * FreeBSD's libpmc compiles this function into the library (C++).
 * libhwpmc is a C library and does not link the C++ runtime, so here the
 * function is inline in this header: a C++ program that includes it gets
 * its own copy, and libhwpmc.so exports nothing new.  The call is the
 * same: std::string event_to_json(struct pmclog_ev *ev) noexcept.
 *
 * The output follows FreeBSD's: one object per record, ending in a
 * newline, with "type" (closelog, dropnotify, initialize, pmcallocate,
 * ...), "tsc" (the record's time: nanoseconds of CLOCK_MONOTONIC, whose
 * frequency INITIALIZE gives as tsc_freq = 1000000000) and the record's
 * fields under FreeBSD's keys, values as strings (numbers in decimal or
 * 0x-hex as FreeBSD prints them).  Differences: the output is valid JSON
 * (strings escaped, a comma FreeBSD's proccsw line lacks); Linux fields
 * are added ("dropped", "end"/"pgoff"/"prot" of map_in, "ncpu");
 * procexec has "baseaddr" and "dynaddr" (FreeBSD 14's fields) rather than
 * "start"; a type this header does not know gives {"type": "unknown",
 * "tsc": ..., "typenum": N} where FreeBSD's exits the program.
 */
#ifndef _HWPMC_PMCFORMAT_H_
#define _HWPMC_PMCFORMAT_H_

#ifndef __cplusplus
#error "<pmcformat.h> is for C++ programs"
#endif

#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <string>

#include <pmclog.h>

namespace hwpmc_pmcformat {

/* s as a JSON string, quotes included. */
inline void json_str(std::string &out, const char *s)
{
	char u[8];

	out += '"';
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			out += '\\';
			out += (char)c;
		} else if (c < 0x20 || c == 0x7f) {
			std::snprintf(u, sizeof(u), "\\u%04x", c);
			out += u;
		} else {
			out += (char)c;
		}
	}
	out += '"';
}

/* , "key": "value" with a printf format for the value */
__attribute__((format(printf, 3, 4)))
inline void json_kv(std::string &out, const char *key, const char *fmt, ...)
{
	char v[64];
	va_list ap;

	va_start(ap, fmt);
	std::vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	out += ", \"";
	out += key;
	out += "\": \"";
	out += v;
	out += '"';
}

inline void json_ks(std::string &out, const char *key, const char *s)
{
	out += ", \"";
	out += key;
	out += "\": ";
	json_str(out, s);
}

inline const char *json_type(enum pmclog_type t)
{
	switch (t) {
	case PMCLOG_TYPE_CLOSELOG:	return "closelog";
	case PMCLOG_TYPE_DROPNOTIFY:	return "dropnotify";
	case PMCLOG_TYPE_INITIALIZE:	return "initialize";
	case PMCLOG_TYPE_PMCALLOCATE:	return "pmcallocate";
	case PMCLOG_TYPE_PMCATTACH:	return "pmcattach";
	case PMCLOG_TYPE_PMCDETACH:	return "pmcdetach";
	case PMCLOG_TYPE_PROCCSW:	return "proccsw";
	case PMCLOG_TYPE_PROCEXEC:	return "procexec";
	case PMCLOG_TYPE_PROCEXIT:	return "procexit";
	case PMCLOG_TYPE_PROCFORK:	return "procfork";
	case PMCLOG_TYPE_SYSEXIT:	return "sysexit";
	case PMCLOG_TYPE_USERDATA:	return "userdata";
	case PMCLOG_TYPE_MAP_IN:	return "map_in";
	case PMCLOG_TYPE_MAP_OUT:	return "map_out";
	case PMCLOG_TYPE_CALLCHAIN:	return "callchain";
	case PMCLOG_TYPE_PMCALLOCATEDYN: return "pmcallocatedyn";
	case PMCLOG_TYPE_THR_CREATE:	return "thr_create";
	case PMCLOG_TYPE_THR_EXIT:	return "thr_exit";
	case PMCLOG_TYPE_PROC_CREATE:	return "proc_create";
	case PMCLOG_TYPE_USERSTACK:	return "userstack";
	}
	return nullptr;
}

} /* namespace hwpmc_pmcformat */

inline std::string event_to_json(struct pmclog_ev *ev) noexcept
{
	using namespace hwpmc_pmcformat;
	const char *type = json_type(ev->pl_type);
	std::string out = "{\"type\": \"";
	uint32_t i;

	out += type ? type : "unknown";
	out += '"';
	json_kv(out, "tsc", "%" PRIu64, (uint64_t)ev->pl_ts.tv_sec * 1000000000U +
		(uint64_t)ev->pl_ts.tv_nsec);
	if (!type)
		json_kv(out, "typenum", "%d", (int)ev->pl_type);

	switch (type ? ev->pl_type : PMCLOG_TYPE_CLOSELOG) {
	case PMCLOG_TYPE_CLOSELOG:
		break;
	case PMCLOG_TYPE_DROPNOTIFY:
		json_kv(out, "dropped", "%" PRIu64, ev->pl_u.pl_dn.pl_dropped);
		break;
	case PMCLOG_TYPE_INITIALIZE:
		json_kv(out, "version", "0x%08x", ev->pl_u.pl_i.pl_version);
		json_kv(out, "arch", "0x%08x", ev->pl_u.pl_i.pl_arch);
		json_ks(out, "cpuid", ev->pl_u.pl_i.pl_cpuid);
		json_kv(out, "tsc_freq", "%" PRIu64, ev->pl_u.pl_i.pl_tsc_freq);
		json_kv(out, "sec", "%jd", (intmax_t)ev->pl_u.pl_i.pl_ts.tv_sec);
		json_kv(out, "nsec", "%jd", (intmax_t)ev->pl_u.pl_i.pl_ts.tv_nsec);
		json_kv(out, "ncpu", "%u", ev->pl_u.pl_i.pl_ncpu);
		break;
	case PMCLOG_TYPE_PMCALLOCATE:
		json_kv(out, "pmcid", "0x%08x", ev->pl_u.pl_a.pl_pmcid);
		json_kv(out, "event", "0x%08x", ev->pl_u.pl_a.pl_event);
		json_kv(out, "flags", "0x%08x", ev->pl_u.pl_a.pl_flags);
		json_kv(out, "rate", "%" PRIu64, ev->pl_u.pl_a.pl_rate);
		if (ev->pl_u.pl_a.pl_evname)
			json_ks(out, "evname", ev->pl_u.pl_a.pl_evname);
		break;
	case PMCLOG_TYPE_PMCATTACH:
		json_kv(out, "pmcid", "0x%08x", ev->pl_u.pl_t.pl_pmcid);
		json_kv(out, "pid", "%d", (int)ev->pl_u.pl_t.pl_pid);
		json_ks(out, "pathname", ev->pl_u.pl_t.pl_pathname);
		break;
	case PMCLOG_TYPE_PMCDETACH:
		json_kv(out, "pmcid", "0x%08x", ev->pl_u.pl_d.pl_pmcid);
		json_kv(out, "pid", "%d", (int)ev->pl_u.pl_d.pl_pid);
		break;
	case PMCLOG_TYPE_PROCCSW:
		json_kv(out, "pmcid", "0x%08x", ev->pl_u.pl_c.pl_pmcid);
		json_kv(out, "pid", "%d", (int)ev->pl_u.pl_c.pl_pid);
		json_kv(out, "tid", "%d", (int)ev->pl_u.pl_c.pl_tid);
		json_kv(out, "value", "0x%016" PRIx64, ev->pl_u.pl_c.pl_value);
		break;
	case PMCLOG_TYPE_PROCEXEC:
		json_kv(out, "pmcid", "0x%08x", ev->pl_u.pl_x.pl_pmcid);
		json_kv(out, "pid", "%d", (int)ev->pl_u.pl_x.pl_pid);
		json_kv(out, "baseaddr", "0x%016" PRIx64, ev->pl_u.pl_x.pl_baseaddr);
		json_kv(out, "dynaddr", "0x%016" PRIx64, ev->pl_u.pl_x.pl_dynaddr);
		json_ks(out, "pathname", ev->pl_u.pl_x.pl_pathname);
		break;
	case PMCLOG_TYPE_PROCEXIT:
		json_kv(out, "pmcid", "0x%08x", ev->pl_u.pl_e.pl_pmcid);
		json_kv(out, "pid", "%d", (int)ev->pl_u.pl_e.pl_pid);
		json_kv(out, "value", "0x%016" PRIx64, ev->pl_u.pl_e.pl_value);
		break;
	case PMCLOG_TYPE_PROCFORK:
		json_kv(out, "oldpid", "%d", (int)ev->pl_u.pl_f.pl_oldpid);
		json_kv(out, "newpid", "%d", (int)ev->pl_u.pl_f.pl_newpid);
		break;
	case PMCLOG_TYPE_SYSEXIT:
		json_kv(out, "pid", "%d", (int)ev->pl_u.pl_se.pl_pid);
		break;
	case PMCLOG_TYPE_USERDATA:
		json_kv(out, "userdata", "0x%08x", ev->pl_u.pl_u.pl_userdata);
		break;
	case PMCLOG_TYPE_MAP_IN:
		json_kv(out, "pid", "%d", (int)ev->pl_u.pl_mi.pl_pid);
		json_kv(out, "start", "0x%016" PRIx64, ev->pl_u.pl_mi.pl_start);
		json_ks(out, "pathname", ev->pl_u.pl_mi.pl_pathname);
		json_kv(out, "end", "0x%016" PRIx64, ev->pl_u.pl_mi.pl_end);
		json_kv(out, "pgoff", "0x%016" PRIx64, ev->pl_u.pl_mi.pl_pgoff);
		json_kv(out, "mapstart", "0x%016" PRIx64, ev->pl_u.pl_mi.pl_mapstart);
		json_kv(out, "prot", "0x%x", ev->pl_u.pl_mi.pl_prot);
		break;
	case PMCLOG_TYPE_MAP_OUT:
		json_kv(out, "pid", "%d", (int)ev->pl_u.pl_mo.pl_pid);
		json_kv(out, "start", "0x%016" PRIx64, ev->pl_u.pl_mo.pl_start);
		json_kv(out, "end", "0x%016" PRIx64, ev->pl_u.pl_mo.pl_end);
		break;
	case PMCLOG_TYPE_CALLCHAIN:
		json_kv(out, "pmcid", "0x%08x", ev->pl_u.pl_cc.pl_pmcid);
		json_kv(out, "pid", "%d", (int)ev->pl_u.pl_cc.pl_pid);
		json_kv(out, "tid", "%d", (int)ev->pl_u.pl_cc.pl_tid);
		json_kv(out, "cpuflags", "0x%08x", ev->pl_u.pl_cc.pl_cpuflags);
		json_kv(out, "cpuflags2", "0x%08x", ev->pl_u.pl_cc.pl_cpuflags2);
		out += ", \"pc\": [";
		for (i = 0; i < ev->pl_u.pl_cc.pl_npc &&
			    i < PMC_CALLCHAIN_DEPTH_MAX; i++) {
			char pc[24];

			std::snprintf(pc, sizeof(pc), "%s\"0x%016" PRIx64 "\"",
				      i ? ", " : " ", ev->pl_u.pl_cc.pl_pc[i]);
			out += pc;
		}
		out += "]";
		break;
	case PMCLOG_TYPE_PMCALLOCATEDYN:
		json_kv(out, "pmcid", "0x%08x", ev->pl_u.pl_ad.pl_pmcid);
		json_kv(out, "event", "%d", (int)ev->pl_u.pl_ad.pl_event);
		json_kv(out, "flags", "0x%08x", ev->pl_u.pl_ad.pl_flags);
		json_ks(out, "evname", ev->pl_u.pl_ad.pl_evname);
		break;
	case PMCLOG_TYPE_THR_CREATE:
		json_kv(out, "tid", "%d", (int)ev->pl_u.pl_tc.pl_tid);
		json_kv(out, "pid", "%d", (int)ev->pl_u.pl_tc.pl_pid);
		json_kv(out, "flags", "0x%08x", ev->pl_u.pl_tc.pl_flags);
		json_ks(out, "tdname", ev->pl_u.pl_tc.pl_tdname);
		break;
	case PMCLOG_TYPE_THR_EXIT:
		json_kv(out, "tid", "%d", (int)ev->pl_u.pl_te.pl_tid);
		break;
	case PMCLOG_TYPE_PROC_CREATE:
		json_kv(out, "pid", "%d", (int)ev->pl_u.pl_pc.pl_pid);
		json_kv(out, "flags", "0x%08x", ev->pl_u.pl_pc.pl_flags);
		json_ks(out, "pcomm", ev->pl_u.pl_pc.pl_pcomm);
		break;
	case PMCLOG_TYPE_USERSTACK:
		json_kv(out, "pmcid", "0x%08x", ev->pl_u.pl_us.pl_pmcid);
		json_kv(out, "abi", "%u", ev->pl_u.pl_us.pl_abi);
		json_kv(out, "nregs", "%u", ev->pl_u.pl_us.pl_nregs);
		json_kv(out, "size", "%u", ev->pl_u.pl_us.pl_size);
		json_kv(out, "dynsize", "%u", ev->pl_u.pl_us.pl_dynsize);
		break;
	}
	out += "}\n";
	return out;
}

#endif /* _HWPMC_PMCFORMAT_H_ */
