// SPDX-License-Identifier: GPL-2.0
/*
 * unwind_prog LOG [-n | -x FILE | -m N [FILE]]: a log of one sample of this very process, as
 * the module writes it for a PMC_F_USERSTACK PMC, for hwpmc-stat's
 * --call-graph dwarf unwinder on the host (tests/unit/test_unwind.sh).
 * Built -O2 -fomit-frame-pointer: inner() <- outer() <- main() have no
 * frame pointers.  inner() takes its registers (x86-64 only) and a copy
 * of its stack, from the stack pointer to the end of [stack] or 8 KB;
 * the log has the executable file mappings of /proc/self/maps (MAP_IN),
 * then USERSTACK, then the CALLCHAIN of the PC alone (what the
 * frame-pointer walk finds in such code).  -n: no USERSTACK.  -x FILE:
 * first the same mappings as of FILE, with the same sample, then its
 * own (an exec's new image of as many mappings as the old).  -m N: N
 * samples taken 0 to 8 calls of rec() below outer(), of this process
 * and of a second one with the same mappings (pid + 1), a fifth without
 * USERSTACK, the mappings logged again every 97 samples, every other
 * time as of FILE if given (the report's threads against one:
 * tests/unit/test_unwind.sh).  Exits 77
 * where it cannot take registers (not x86-64).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmclog_build.h"

#define PMCID	0x2001
#define SIZE	8192

static uint64_t regs[17];
static unsigned char stack[SIZE];
static size_t dynsize;
static volatile unsigned long sink;
static pid_t as_pid;		/* the pid the records give */

/* the end of this process's [stack] mapping, or 0 */
static uint64_t stack_end(void)
{
	unsigned long long s, e;
	char line[4096];
	uint64_t end = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "[stack]") && sscanf(line, "%llx-%llx", &s, &e) == 2)
			end = e;
	if (f)
		fclose(f);
	return end;
}

__attribute__((noinline)) static void inner(void)
{
#if defined(__x86_64__)
	uint64_t end;

	/* DWARF order: rax rdx rcx rbx rsi rdi rbp rsp r8-r15, then rip */
	__asm__ volatile("mov %%rax, 0(%0)\n\tmov %%rdx, 8(%0)\n\t"
		     "mov %%rcx, 16(%0)\n\tmov %%rbx, 24(%0)\n\t"
		     "mov %%rsi, 32(%0)\n\tmov %%rdi, 40(%0)\n\t"
		     "mov %%rbp, 48(%0)\n\tmov %%rsp, 56(%0)\n\t"
		     "mov %%r8, 64(%0)\n\tmov %%r9, 72(%0)\n\t"
		     "mov %%r10, 80(%0)\n\tmov %%r11, 88(%0)\n\t"
		     "mov %%r12, 96(%0)\n\tmov %%r13, 104(%0)\n\t"
		     "mov %%r14, 112(%0)\n\tmov %%r15, 120(%0)\n\t"
		     "lea 0(%%rip), %%rax\n\tmov %%rax, 128(%0)"
		     : : "r"(regs) : "rax", "memory");
	end = stack_end();
	dynsize = end > regs[7] && end - regs[7] < SIZE ? end - regs[7] : SIZE;
	dynsize &= ~(size_t)7;
	memcpy(stack, (const void *)(uintptr_t)regs[7], dynsize);
#endif
	sink++;
}

__attribute__((noinline)) static void outer(void)
{
	inner();
	sink++;		/* not a tail call */
}

/* a sample d calls deeper than outer()'s */
__attribute__((noinline)) static void rec(int d)
{
	if (d > 0)
		rec(d - 1);
	else
		inner();
	sink++;		/* not a tail call */
}

/* MAP_IN of the executable mappings of /proc/self/maps, of path as, if given */
static void write_maps(struct lb *b, const char *as)
{
	struct pmclog_map_in mi = { .pl_prot = 5 };
	unsigned long long s, e, off;
	char line[4096], perms[8], path[4096];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		exit(1);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &s, &e,
			   perms, &off, path) != 5 || perms[2] != 'x' ||
		    path[0] != '/')
			continue;
		mi.pl_pid = as_pid;
		mi.pl_start = s;
		mi.pl_end = e;
		mi.pl_pgoff = off;
		if (as)
			snprintf(path, sizeof(path), "%s", as);
		lb_rec(b, PMCLOG_TYPE_MAP_IN, &mi, sizeof(mi), path,
		       strlen(path) + 1);
	}
	fclose(f);
}

/* the sample taken in inner(): USERSTACK (with_stack), then CALLCHAIN */
static void write_sample(struct lb *b, int with_stack)
{
	struct pmclog_userstack us;
	struct pmclog_callchain cc;
	unsigned char *t;
	char *tail;

	if (with_stack) {
		memset(&us, 0, sizeof(us));
		us.pl_pmcid = PMCID;
		us.pl_abi = PMC_USTACK_ABI_X86_64;
		us.pl_nregs = 17;
		us.pl_size = SIZE;
		us.pl_dynsize = (uint32_t)dynsize;
		tail = malloc(sizeof(regs) + dynsize);
		if (!tail)
			exit(1);
		memcpy(tail, regs, sizeof(regs));
		memcpy(tail + sizeof(regs), stack, dynsize);
		lb_rec(b, PMCLOG_TYPE_USERSTACK, &us, sizeof(us), tail,
		       sizeof(regs) + dynsize);
		free(tail);
	}
	memset(&cc, 0, sizeof(cc));
	cc.pl_pid = cc.pl_tid = as_pid;
	cc.pl_pmcid = PMCID;
	cc.pl_cpuflags = PMC_CALLCHAIN_TO_CPUFLAGS(0, PMC_CC_F_USERSPACE);
	t = (unsigned char *)&regs[16];
	lb_rec(b, PMCLOG_TYPE_CALLCHAIN, &cc, sizeof(cc), t, 8);
}

/*
 * before: the same mappings first as of the file before, with a sample
 * (an image an exec replaces by one of as many mappings: the unwinder
 * must not keep its Dwfl)
 */
static void write_log(const char *file, int with_stack, const char *before)
{
	FILE *out = fopen(file, "w");
	struct lb b;

	if (!out)
		exit(1);
	lb_init(&b);
	lb_initialize(&b, PMCLOG_VERSION);
	lb_pmcallocate(&b, PMCID, "cpu-clock");
	if (before) {
		write_maps(&b, before);
		write_sample(&b, with_stack);
	}
	write_maps(&b, NULL);
	write_sample(&b, with_stack);
	lb_closelog(&b);
	if (fwrite(b.buf, 1, b.len, out) != b.len || fclose(out))
		exit(1);
	lb_free(&b);
}

/*
 * -m: n samples of two processes, their mappings logged again now and
 * then (as of the file as every other time, if given)
 */
static void write_many(const char *file, long n, const char *as)
{
	FILE *out = fopen(file, "w");
	pid_t pid = getpid();
	struct lb b;
	long i;

	if (!out)
		exit(1);
	lb_init(&b);
	lb_initialize(&b, PMCLOG_VERSION);
	lb_pmcallocate(&b, PMCID, "cpu-clock");
	as_pid = pid + 1;
	write_maps(&b, NULL);
	for (i = 0; i < n; i++) {
		as_pid = pid;
		if (i % 97 == 0)
			write_maps(&b, as && i / 97 % 2 ? as : NULL);
		rec((int)(i % 9));
		as_pid = i % 3 ? pid : pid + 1;
		write_sample(&b, i % 5 != 4);
	}
	lb_closelog(&b);
	if (fwrite(b.buf, 1, b.len, out) != b.len || fclose(out))
		exit(1);
	lb_free(&b);
}

int main(int argc, char **argv)
{
#if !defined(__x86_64__)
	(void)argc;
	(void)argv;
	return 77;
#else
	if (argc < 2)
		return 2;
	as_pid = getpid();
	if (argc > 3 && !strcmp(argv[2], "-m")) {
		write_many(argv[1], atol(argv[3]), argc > 4 ? argv[4] : NULL);
		return 0;
	}
	outer();
	write_log(argv[1], !(argc > 2 && !strcmp(argv[2], "-n")),
		  argc > 3 && !strcmp(argv[2], "-x") ? argv[3] : NULL);
	return 0;
#endif
}
