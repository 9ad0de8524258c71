// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: a C++ program without frame pointers (-O2
 * -fomit-frame-pointer) whose time goes into libstdc++'s std::sort of a
 * large vector with a comparator function of its own, for the seconds of
 * argv[1] (CPU time).  hwpmc_unwind.sh samples it: with --call-graph
 * dwarf the samples' stacks reach main().
 */
#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <vector>

static volatile unsigned long sink;

__attribute__((noinline)) bool by_key(unsigned int a, unsigned int b)
{
	return (a ^ 0x5a5a5a5au) < (b ^ 0x5a5a5a5au);
}

__attribute__((noinline)) static unsigned long sort_once(std::vector<unsigned int> &v,
						       unsigned int seed)
{
	for (auto &x : v) {
		seed = seed * 1103515245u + 12345u;
		x = seed;
	}
	std::sort(v.begin(), v.end(), by_key);
	return v[v.size() / 2];
}

static double cpu_seconds()
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? std::atof(argv[1]) : 1;
	std::vector<unsigned int> v(200000);
	unsigned int seed = 1;

	while (cpu_seconds() < secs)
		sink += sort_once(v, seed++);
	return 0;
}
