// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: a shared library for the report tests (mklog.c):
 * functions whose run-time addresses become the samples of a synthetic
 * log, so that hwpmc-stat must find them through MAP_IN records and the
 * library's program headers and symbol table.
 */
volatile unsigned long ut_sink;

__attribute__((noinline)) unsigned long ut_hot_leaf(unsigned long n)
{
	unsigned long i, s = 0;

	for (i = 0; i < n; i++)
		s += i * i + ut_sink;
	return s;
}

/* static: only in .symtab, gone from a stripped copy */
static __attribute__((noinline)) unsigned long ut_static_helper(unsigned long n)
{
	unsigned long i, s = 1;

	for (i = 0; i < n; i++)
		s = s * 3 + ut_sink;
	return s;
}

__attribute__((noinline)) unsigned long ut_lib_caller(unsigned long n)
{
	return ut_hot_leaf(n) + ut_static_helper(n) + ut_sink;
}

/* the address of the static function, for the log */
void *ut_static_addr(void)
{
	return (void *)ut_static_helper;
}

/*
 * A name as C++ compilers make them, with characters that XML and SVG
 * must escape: static, so only in .symtab (mklog -x samples it)
 */
static unsigned long ut_odd_name(unsigned long n) __asm__("\"ut_tmpl<int, a&b>\"");
static __attribute__((noinline, used)) unsigned long ut_odd_name(unsigned long n)
{
	return n * 3 + ut_sink;
}

void *ut_odd_addr(void)
{
	return (void *)ut_odd_name;
}
