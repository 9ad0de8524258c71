// SPDX-License-Identifier: GPL-2.0
/*
 * The seed corpus of the pmclog(3) fuzz target: a few logs laid out as
 * the module writes them, one file each, into the directory given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmclog_build.h"

static void save(const char *dir, const char *name, const struct lb *b,
		 size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(b->buf, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	struct pmclog_pmcallocatedyn ad;
	struct pmclog_map_in mi = { .pl_pid = 42, .pl_start = 0x400000,
				    .pl_end = 0x500000 };
	static const char lib[] = "/usr/lib/x86_64-linux-gnu/libc.so.6";
	struct lb b;
	int i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	lb_init(&b);
	lb_full(&b);
	save(argv[1], "full", &b, b.len);
	save(argv[1], "full-cut", &b, b.len - 13);
	lb_free(&b);

	lb_init(&b);
	lb_initialize(&b, PMCLOG_VERSION);
	for (i = 1; i <= 3; i++)
		lb_userdata(&b, i);
	lb_closelog(&b);
	save(argv[1], "userdata", &b, b.len);
	lb_free(&b);

	lb_init(&b);
	lb_initialize(&b, PMCLOG_VERSION);
	lb_pmcallocate(&b, 0x2001, "cpu-clock");
	memset(&ad, 0, sizeof(ad));
	ad.pl_pmcid = 0x2002;
	ad.pl_event = PMC_EV_SOFT_FIRST + 1;
	strcpy(ad.pl_evname, "task-clock");
	lb_rec(&b, PMCLOG_TYPE_PMCALLOCATEDYN, &ad, sizeof(ad), NULL, 0);
	lb_rec(&b, PMCLOG_TYPE_MAP_IN, &mi, sizeof(mi), lib, sizeof(lib));
	for (i = 1; i <= 4; i++)
		lb_callchain(&b, (uint32_t)i * 3);
	lb_closelog(&b);
	save(argv[1], "samples", &b, b.len);
	lb_free(&b);
	return 0;
}
