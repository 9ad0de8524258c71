// SPDX-License-Identifier: BSD-2-Clause
/*
 * libhwpmc: list libpfm4's core-PMU events with their perf encodings, at
 * build time, for gen_pmu_events.py --pfm (docs/design.md decision 32).
 * Built for and run on the build host, linked with Debian's libpfm4
 * (libpfm4-dev); not part of the library.
 *
 *     gen_pfm_events > pfm_events.tsv
 *
 * A first line "#arch x86" or "#arch arm64" (the library's, this program's
 * architecture), then one line per name libpfm4 encodes: "pmu<TAB>name<TAB>config<TAB>
 * config1<TAB>config2", name being "EVENT" (libpfm4's default unit masks)
 * or "EVENT:UMASK" (one unit mask, with the defaults libpfm4 adds to it).
 * Every core PMU model libpfm4 was built with is walked, present on this
 * machine or not (LIBPFM_ENCODE_INACTIVE=1), encoded as perf_event would
 * count it in both modes (PFM_PLM0 | PFM_PLM3: no privilege bits in
 * config).  libpfm4 is built per architecture: Debian's amd64 library
 * knows x86 models only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib_perf_event.h>

static void emit(const char *pmu, const char *name)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	char fstr[512];

	if (snprintf(fstr, sizeof(fstr), "%s::%s", pmu, name) >=
	    (int)sizeof(fstr))
		return;
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.attr = &attr;
	if (pfm_get_os_event_encoding(fstr, PFM_PLM0 | PFM_PLM3,
				      PFM_OS_PERF_EVENT, &arg) != PFM_SUCCESS)
		return;		/* no default unit mask, or a needed group */
	if (attr.type != PERF_TYPE_RAW || attr.exclude_user ||
	    attr.exclude_kernel)
		return;
	printf("%s\t%s\t%#llx\t%#llx\t%#llx\n", pmu, name,
	       (unsigned long long)attr.config,
	       (unsigned long long)attr.config1,
	       (unsigned long long)attr.config2);
}

int main(void)
{
	pfm_event_attr_info_t ai;
	pfm_event_info_t ei;
	pfm_pmu_info_t pi;
	char name[512];
	int p, e, a, r;

	if (setenv("LIBPFM_ENCODE_INACTIVE", "1", 1) < 0)
		return 1;
	r = pfm_initialize();
	if (r != PFM_SUCCESS) {
		fprintf(stderr, "gen_pfm_events: pfm_initialize: %s\n",
			pfm_strerror(r));
		return 1;
	}
#if defined(__x86_64__) || defined(__i386__)
	printf("#arch x86\n");
#elif defined(__aarch64__)
	printf("#arch arm64\n");
#else
	return fflush(stdout) ? 1 : 0;	/* no architecture of the tables */
#endif
	pfm_for_all_pmus(p) {
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS ||
		    pi.type != PFM_PMU_TYPE_CORE)
			continue;
		for (e = pi.first_event; e != -1; e = pfm_get_event_next(e)) {
			memset(&ei, 0, sizeof(ei));
			ei.size = sizeof(ei);
			if (pfm_get_event_info(e, PFM_OS_NONE, &ei) !=
			    PFM_SUCCESS)
				continue;
			emit(pi.name, ei.name);
			for (a = 0; a < ei.nattrs; a++) {
				memset(&ai, 0, sizeof(ai));
				ai.size = sizeof(ai);
				if (pfm_get_event_attr_info(e, a, PFM_OS_NONE,
							    &ai) != PFM_SUCCESS ||
				    ai.type != PFM_ATTR_UMASK)
					continue;
				if (snprintf(name, sizeof(name), "%s:%s",
					     ei.name, ai.name) <
				    (int)sizeof(name))
					emit(pi.name, name);
			}
		}
	}
	return fflush(stdout) ? 1 : 0;
}
