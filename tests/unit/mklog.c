// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: write a synthetic hwpmc log for the report tests.
 *
 *   mklog FILE [LIBPATH]
 *   mklog -x FILE
 *   mklog -s FILE
 *   mklog -x FILE PID < SCRIPT
 *   mklog -V FILE
 *
 * The log describes this very process: its executable mappings (from
 * /proc/self/maps, as the module's MAP_IN records would), one PMC, and
 * samples at the run-time addresses of known functions of this PIE
 * program and of the shared library ut_symlib.so:
 *
 *   90 samples  ut_hot_leaf <- ut_lib_caller <- ut_main_caller <- main
 *    6 samples  ut_static_helper <- ut_lib_caller <- ut_main_caller <- main
 *    3 samples  ut_main_leaf <- main
 *    1 sample   an address mapped by nothing
 *
 * with a DROPNOTIFY record (5 lost) among them, then CLOSELOG.  LIBPATH
 * replaces the library's path in the MAP_IN records (a stripped copy).
 * Prints "pid PID" on standard output.
 *
 * -x: the same, and 4 samples more in a function of the library whose
 * name has characters that XML escapes, "ut_tmpl<int, a&b>" <-
 * ut_lib_caller <- ut_main_caller <- main, and 2 in the kernel (at
 * 0xffffffff81000010, whatever /proc/kallsyms makes of it) <-
 * ut_main_leaf <- main (106 samples).
 *
 * -s: a log of pid 1 with two libraries of one name (/nonexistent/a/libz.so
 * and /nonexistent/b/libz.so, no symbols), 5 samples: 0x1100 and 0x3100
 * (one in each) twice, and the two chains of both.  The folded stacks of
 * the first library's and the second's read the same.
 *
 * -x: a log of process PID made of the lines of SCRIPT (numbers in hex):
 *   exec PATH                     PROCEXEC
 *   map START END PGOFF PATH      MAP_IN, r-x
 *   sample PC [PC...]             CALLCHAIN, the sampled PC first
 * after an INITIALIZE and a PMCALLOCATE (cpu-clock), before CLOSELOG.
 *
 * -V: write this process's vDSO (its whole mapping) to FILE.
 *
 * The records are built with pmclog_build.h, as the pmclog(3) tests
 * build theirs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <linux/hwpmc.h>
#include <linux/hwpmclog.h>

#include "pmclog_build.h"

unsigned long ut_hot_leaf(unsigned long n);
unsigned long ut_lib_caller(unsigned long n);
void *ut_static_addr(void);
void *ut_odd_addr(void);

#define PMCID	0x20000100u

static struct lb b;

__attribute__((noinline)) unsigned long ut_main_leaf(unsigned long n)
{
	volatile unsigned long s = 0;
	unsigned long i;

	for (i = 0; i < n; i++)
		s += i;
	return s;
}

__attribute__((noinline)) unsigned long ut_main_caller(unsigned long n)
{
	return ut_lib_caller(n) + ut_main_leaf(n);
}

static void chain(const uint64_t *pc, size_t n)
{
	struct pmclog_callchain cc = {
		.pl_pid = (uint32_t)getpid(), .pl_tid = (uint32_t)getpid(),
		.pl_pmcid = PMCID,
		.pl_cpuflags = PMC_CALLCHAIN_TO_CPUFLAGS(1, PMC_CC_F_USERSPACE),
	};

	lb_rec(&b, PMCLOG_TYPE_CALLCHAIN, &cc, sizeof(cc), pc, n * sizeof(*pc));
}

static int same_name(const char *file)
{
	static const char *const path[] = { "/nonexistent/a/libz.so",
					    "/nonexistent/b/libz.so" };
	static const uint64_t chains[][2] = {
		{ 0x1100 }, { 0x3100 }, { 0x3100 }, { 0x1100, 0x3100 }, { 0x3100, 0x1100 },
	};
	struct pmclog_callchain cc = { .pl_pid = 1, .pl_tid = 1, .pl_pmcid = PMCID };
	struct pmclog_map_in mi = { .pl_pid = 1, .pl_prot = 5 };
	FILE *out = fopen(file, "w");
	int i;

	if (!out)
		return 1;
	lb_init(&b);
	lb_initialize(&b, PMCLOG_VERSION);
	lb_pmcallocate(&b, PMCID, "cpu-clock");
	for (i = 0; i < 2; i++) {
		mi.pl_start = 0x1000 + 0x2000 * (uint64_t)i;
		mi.pl_end = mi.pl_start + 0x1000;
		lb_rec(&b, PMCLOG_TYPE_MAP_IN, &mi, sizeof(mi), path[i],
		       strlen(path[i]) + 1);
	}
	for (i = 0; i < 5; i++)
		lb_rec(&b, PMCLOG_TYPE_CALLCHAIN, &cc, sizeof(cc), chains[i],
		       chains[i][1] ? 16 : 8);
	lb_closelog(&b);
	if (fwrite(b.buf, 1, b.len, out) != b.len || fclose(out))
		return 1;
	lb_free(&b);
	return 0;
}

static int script(const char *file, const char *pidarg)
{
	struct pmclog_callchain cc = { .pl_pmcid = PMCID };
	struct pmclog_procexec ex = { .pl_pmcid = PMCID };
	struct pmclog_map_in mi = { .pl_prot = 5 };
	char line[4096], path[4096], *p, *e;
	unsigned long long start, end, pgoff;
	uint64_t pc[PMC_CALLCHAIN_DEPTH_MAX];
	int pid = atoi(pidarg), n;
	FILE *out = fopen(file, "w");

	if (!out || pid <= 0)
		return 1;
	cc.pl_pid = cc.pl_tid = (uint32_t)pid;
	ex.pl_pid = pid;
	mi.pl_pid = pid;
	lb_init(&b);
	lb_initialize(&b, PMCLOG_VERSION);
	lb_pmcallocate(&b, PMCID, "cpu-clock");
	while (fgets(line, sizeof(line), stdin)) {
		if (sscanf(line, "exec %4095s", path) == 1) {
			/* "exec PATH [BASEADDR DYNADDR]", hex */
			ex.pl_baseaddr = ex.pl_dynaddr = 0;
			if (sscanf(line, "exec %*s %llx %llx", &start, &end) == 2) {
				ex.pl_baseaddr = start;
				ex.pl_dynaddr = end;
			}
			lb_rec(&b, PMCLOG_TYPE_PROCEXEC, &ex, sizeof(ex), path,
			       strlen(path) + 1);
		} else if (sscanf(line, "map %llx %llx %llx %4095s", &start, &end,
				  &pgoff, path) == 4) {
			mi.pl_start = start;
			mi.pl_end = end;
			mi.pl_pgoff = pgoff;
			lb_rec(&b, PMCLOG_TYPE_MAP_IN, &mi, sizeof(mi), path,
			       strlen(path) + 1);
		} else if (!strncmp(line, "sample ", 7)) {
			for (n = 0, p = line + 7; n < PMC_CALLCHAIN_DEPTH_MAX; n++, p = e) {
				pc[n] = strtoull(p, &e, 16);
				if (e == p)
					break;
			}
			if (!n)
				return 1;
			cc.pl_cpuflags = PMC_CALLCHAIN_TO_CPUFLAGS(1, PMC_CC_F_USERSPACE);
			lb_rec(&b, PMCLOG_TYPE_CALLCHAIN, &cc, sizeof(cc), pc,
			       (size_t)n * sizeof(*pc));
		} else if (line[0] != '\n' && line[0] != '#') {
			fprintf(stderr, "mklog: bad line: %s", line);
			return 1;
		}
	}
	lb_closelog(&b);
	if (fwrite(b.buf, 1, b.len, out) != b.len || fclose(out))
		return 1;
	lb_free(&b);
	return 0;
}

static int vdso(const char *file)
{
	unsigned long vd = getauxval(AT_SYSINFO_EHDR), start, end;
	char line[4096];
	FILE *maps = fopen("/proc/self/maps", "r"), *out;
	int rc = 1;

	if (!maps || !vd)
		return 1;
	while (fgets(line, sizeof(line), maps))
		if (sscanf(line, "%lx-%lx", &start, &end) == 2 && start == vd &&
		    strstr(line, "[vdso]")) {
			out = fopen(file, "w");
			rc = !out || fwrite((void *)start, 1, end - start, out) !=
				     end - start || fclose(out);
			break;
		}
	fclose(maps);
	return rc;
}

static uint64_t a(const void *f, unsigned off)
{
	return (uint64_t)(uintptr_t)f + off;
}

int main(int argc, char **argv)
{
	char line[4096], perm[8], path[4096], *lib = argc > 2 ? argv[2] : NULL;
	unsigned long start, end, pgoff;
	struct pmclog_pmcallocate al = { .pl_pmcid = PMCID, .pl_rate = 1000000 };
	struct pmclog_map_in mi = { .pl_pid = (int32_t)getpid() };
	struct pmclog_dropnotify dn = { .pl_dropped = 5 };
	struct pmclog_pmcattach at = { .pl_pmcid = PMCID, .pl_pid = (uint32_t)getpid() };
	ssize_t n;
	uint64_t pc[8];
	FILE *maps, *out;
	int i, odd = 0;

	if (argc == 3 && !strcmp(argv[1], "-s"))
		return same_name(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "-V"))
		return vdso(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "-x"))
		return script(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "-x")) {
		odd = 1;
		argv++;
		argc--;
		lib = NULL;
	}
	if (argc < 2)
		return 2;
	out = fopen(argv[1], "w");
	maps = fopen("/proc/self/maps", "r");
	if (!out || !maps)
		return 1;
	ut_main_caller(10);
	lb_init(&b);
	lb_initialize(&b, PMCLOG_VERSION);
	strcpy(al.pl_evname, "cpu-clock");
	lb_rec(&b, PMCLOG_TYPE_PMCALLOCATE, &al, sizeof(al), NULL, 0);
	n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (n > 0) {
		path[n] = 0;
		lb_rec(&b, PMCLOG_TYPE_PMCATTACH, &at, sizeof(at), path,
		       (size_t)n + 1);
	}
	while (fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %4095s", &start, &end,
			   perm, &pgoff, path) != 5 || perm[2] != 'x' ||
		    path[0] != '/')
			continue;
		mi.pl_start = start;
		mi.pl_end = end;
		mi.pl_pgoff = pgoff;
		mi.pl_prot = 5;
		if (lib && strstr(path, "ut_symlib"))
			strcpy(path, lib);
		lb_rec(&b, PMCLOG_TYPE_MAP_IN, &mi, sizeof(mi), path,
		       strlen(path) + 1);
	}
	fclose(maps);
	for (i = 0; i < 90; i++) {
		pc[0] = a(ut_hot_leaf, 4 + i % 8);
		pc[1] = a(ut_lib_caller, 12);
		pc[2] = a(ut_main_caller, 9);
		pc[3] = a(main, 40);
		chain(pc, 4);
	}
	for (i = 0; i < 6; i++) {
		pc[0] = a(ut_static_addr(), 4);
		pc[1] = a(ut_lib_caller, 20);
		pc[2] = a(ut_main_caller, 9);
		pc[3] = a(main, 40);
		chain(pc, 4);
	}
	for (i = 0; i < 4 * odd; i++) {
		pc[0] = a(ut_odd_addr(), 2);
		pc[1] = a(ut_lib_caller, 20);
		pc[2] = a(ut_main_caller, 9);
		pc[3] = a(main, 40);
		chain(pc, 4);
	}
	for (i = 0; i < 2 * odd; i++) {
		pc[0] = 0xffffffff81000010ULL;
		pc[1] = a(ut_main_leaf, 5);
		pc[2] = a(main, 60);
		chain(pc, 3);
	}
	lb_rec(&b, PMCLOG_TYPE_DROPNOTIFY, &dn, sizeof(dn), NULL, 0);
	for (i = 0; i < 3; i++) {
		pc[0] = a(ut_main_leaf, 5);
		pc[1] = a(main, 60);
		chain(pc, 2);
	}
	pc[0] = 0x1000;		/* below any mapping */
	chain(pc, 1);
	lb_closelog(&b);
	printf("pid %d\n", (int)getpid());
	if (fwrite(b.buf, 1, b.len, out) != b.len || fclose(out))
		return 1;
	lb_free(&b);
	return 0;
}
