// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: a shared library for the symbol tests
 * (test_symbols.sh), built at test time with -O2 -g, then stripped: its
 * static function is named only in the separate debug file.
 */
volatile unsigned long sym_sink;

static __attribute__((noinline, noclone)) unsigned long sym_hidden_work(unsigned long n)
{
	unsigned long i, s = 1;

	for (i = 0; i < n; i++)
		s = s * 5 + sym_sink;
	return s;
}

unsigned long sym_lib_entry(unsigned long n)
{
	return sym_hidden_work(n) + sym_sink;
}
