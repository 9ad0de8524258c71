// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: read a pprof profile (hwpmc-stat --pprof) with
 * protobuf-c's decoder, for tests/unit/test_stacks.sh.
 *
 *   pprof_read FILE
 *
 * Gunzips FILE, decodes it as profile.proto's Profile, checks what pprof
 * relies on (string_table[0] is "", ids non-zero and unique, every id and
 * string index refers to something), and prints
 *
 *   types samples/count [EVENT/UNIT]
 *   period EVENT/UNIT RATE
 *   folded COMM;ROOT;...;LEAF VALUE0 [VALUE1]
 *
 * one folded line per sample (COMM: its comm label, or pid-PID).  Exit
 * status 1, with the reason on stderr, when the file is not such a profile.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "profile.pb-c.h"

typedef Perftools__Profiles__Profile Profile;

static const char *file;

static void fail(const char *why, uint64_t what)
{
	fprintf(stderr, "pprof_read: %s: %s (%" PRIu64 ")\n", file, why, what);
	exit(1);
}

static const char *str(const Profile *p, int64_t i)
{
	if (i < 0 || (size_t)i >= p->n_string_table)
		fail("string index out of the table", (uint64_t)i);
	return p->string_table[i];
}

int main(int argc, char **argv)
{
	unsigned char *buf = NULL;
	size_t len = 0, room = 0, i, j, k;
	gzFile gz;
	Profile *p;
	int n;

	if (argc != 2)
		return 2;
	file = argv[1];
	gz = gzopen(file, "rb");
	if (!gz || gzdirect(gz))
		fail(gz ? "not gzipped" : "cannot open", 0);
	for (;;) {
		if (room - len < 65536) {
			room = room ? room * 2 : 1 << 16;
			buf = realloc(buf, room);
			if (!buf)
				fail("out of memory", room);
		}
		n = gzread(gz, buf + len, (unsigned)(room - len));
		if (n < 0)
			fail("bad gzip data", len);
		if (!n)
			break;
		len += (size_t)n;
	}
	gzclose(gz);
	p = perftools__profiles__profile__unpack(NULL, len, buf);
	if (!p)
		fail("not a profile.proto Profile", len);
	if (!p->n_string_table || p->string_table[0][0])
		fail("string_table[0] is not \"\"", p->n_string_table);
	for (i = 0; i < p->n_function; i++)
		if (p->function[i]->id != i + 1 || !*str(p, p->function[i]->name))
			fail("function id or name", i);
	for (i = 0; i < p->n_mapping; i++)
		if (p->mapping[i]->id != i + 1 || !*str(p, p->mapping[i]->filename))
			fail("mapping id or filename", i);
	for (i = 0; i < p->n_location; i++) {
		const Perftools__Profiles__Location *l = p->location[i];

		if (l->id != i + 1 || l->mapping_id > p->n_mapping || l->n_line != 1 ||
		    !l->line[0]->function_id || l->line[0]->function_id > p->n_function)
			fail("location id, mapping or line", i);
	}
	printf("types");
	for (i = 0; i < p->n_sample_type; i++)
		printf(" %s/%s", str(p, p->sample_type[i]->type),
		       str(p, p->sample_type[i]->unit));
	printf("\n");
	if (p->period_type)
		printf("period %s/%s %" PRId64 "\n", str(p, p->period_type->type),
		       str(p, p->period_type->unit), p->period);
	for (i = 0; i < p->n_sample; i++) {
		const Perftools__Profiles__Sample *s = p->sample[i];
		const char *comm = NULL;
		int64_t pid = -1;

		if (s->n_value != p->n_sample_type)
			fail("a sample's values are not the sample types", i);
		for (k = 0; k < s->n_label; k++) {
			if (!strcmp(str(p, s->label[k]->key), "comm"))
				comm = str(p, s->label[k]->str);
			else if (!strcmp(str(p, s->label[k]->key), "pid"))
				pid = s->label[k]->num;
		}
		if (comm)
			printf("folded %s", comm);
		else
			printf("folded pid-%" PRId64, pid);
		for (j = s->n_location_id; j-- > 0;) {
			uint64_t id = s->location_id[j];

			if (!id || id > p->n_location)
				fail("a sample's location", id);
			printf(";%s", str(p, p->function[p->location[id - 1]->line[0]->function_id - 1]->name));
		}
		for (k = 0; k < s->n_value; k++)
			printf(" %" PRId64, s->value[k]);
		printf("\n");
	}
	perftools__profiles__profile__free_unpacked(p, NULL);
	free(buf);
	return 0;
}
