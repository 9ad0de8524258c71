// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: the shared library of hwpmc_nofp_sort
 * (libhwpmc_sortlib.so), built as Debian builds (-O2, no frame
 * pointers) and then stripped: its hot function, checksum_block(), has
 * hidden visibility, so that its name is in no dynamic symbol table and,
 * once the library is stripped, only in the separate debug file
 * (hwpmc_sortlib.debug, which hwpmc_unwind.sh puts where its build-id
 * says, .build-id/xx/rest.debug).  Only checksum() is exported.
 */
#include <cstddef>
#include <vector>

namespace hwpmc_sortlib {

unsigned long checksum(const std::vector<unsigned int> &v, unsigned int rounds);

/* a few rounds of mixing of each word: the library's share of the time */
__attribute__((noinline, visibility("hidden")))
unsigned long checksum_block(const unsigned int *p, std::size_t n, unsigned int rounds)
{
	unsigned long h = 14695981039346656037ul;

	for (unsigned int r = 0; r < rounds; r++)
		for (std::size_t i = 0; i < n; i++)
			h = (h ^ (p[i] + r)) * 1099511628211ul;
	return h;
}

__attribute__((visibility("default")))
unsigned long checksum(const std::vector<unsigned int> &v, unsigned int rounds)
{
	/* not a tail call: checksum() stays in the stack */
	return checksum_block(v.data(), v.size(), rounds) ^ v.size();
}

} // namespace hwpmc_sortlib
