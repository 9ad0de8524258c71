// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: a C++ program for the symbol tests (test_symbols.sh),
 * built at test time with -O2 -g: its member function's symbol is
 * mangled (_ZN2ns3Foo3barEi), its DWARF gives its source line and the
 * function inlined into it.
 */
namespace ns {
struct Foo {
	int bar(int x);
};

volatile int sink;

/* inlined into bar(): its DWARF says so (DW_TAG_inlined_subroutine) */
static inline __attribute__((always_inline)) int mix(int a, int b)
{
	return a * b + sink;
}

__attribute__((noinline)) int Foo::bar(int x)
{
	int s = 0;

	for (int i = 0; i < x; i++)
		s += mix(i, x);
	return s;
}
} // namespace ns

int main(int argc, char **)
{
	ns::Foo f;

	return f.bar(argc);
}
