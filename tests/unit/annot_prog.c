// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: a program for hwpmc-stat --annotate's tests
 * (test_annotate.sh), built at test time with -O1 -g (for x86-64 and,
 * with a cross compiler, arm64): a function with a hot loop, whose
 * instructions the test's synthetic log samples.  Never run.
 */
volatile unsigned long annot_sink;

__attribute__((noinline)) unsigned long annot_hot(unsigned long n)
{
	unsigned long i, s = 0;

	for (i = 0; i < n; i++)		/* ANNOT-LOOP */
		s += i * annot_sink;	/* ANNOT-BODY */
	return s;			/* ANNOT-RET */
}

__attribute__((noinline)) unsigned long annot_cold(unsigned long n)
{
	return n + annot_sink;
}

int main(void)
{
	return (int)(annot_hot(annot_cold(3)) & 1);
}
