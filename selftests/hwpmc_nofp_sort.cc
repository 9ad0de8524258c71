// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: a C++ program without frame pointers (-O2
 * -fomit-frame-pointer, as Debian builds) whose time goes into
 * libstdc++'s std::sort of a large vector with a comparator function of
 * its own, and into hwpmc_sortlib::checksum_block() of its own shared
 * library (hwpmc_sortlib.cc; stripped, its symbols only in a separate
 * debug file), for the seconds of argv[1] (CPU time).  argv[2] sets the
 * library's share (rounds of checksum per sort, default 24).
 * hwpmc_unwind.sh samples it: with --call-graph dwarf the samples'
 * stacks reach main().
 */
#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <vector>

namespace hwpmc_sortlib {
unsigned long checksum(const std::vector<unsigned int> &v, unsigned int rounds);
}

static volatile unsigned long sink;

__attribute__((noinline)) bool by_key(unsigned int a, unsigned int b)
{
	return (a ^ 0x5a5a5a5au) < (b ^ 0x5a5a5a5au);
}

__attribute__((noinline)) static unsigned long sort_once(std::vector<unsigned int> &v,
						       unsigned int seed, unsigned int rounds)
{
	for (auto &x : v) {
		seed = seed * 1103515245u + 12345u;
		x = seed;
	}
	std::sort(v.begin(), v.end(), by_key);
	return v[v.size() / 2] + hwpmc_sortlib::checksum(v, rounds);
}

static double cpu_seconds()
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	// from here: not the fork, exec and loading, which sampling slows
	double end = cpu_seconds() + (argc > 1 ? std::atof(argv[1]) : 1);
	unsigned int rounds = argc > 2 ? std::atoi(argv[2]) : 24;
	std::vector<unsigned int> v(200000);
	unsigned int seed = 1;

	while (cpu_seconds() < end)
		sink += sort_once(v, seed++, rounds);
	return 0;
}
