// SPDX-License-Identifier: GPL-2.0
/*
 * The values of COMPAT_SAME() (compat_values.h) as the uapi headers alone
 * define them: linked into test_compat and test_compat_cxx, which compare
 * them with the pmc(3) view's.
 */
#include <linux/hwpmc.h>
#include <linux/hwpmclog.h>
#include "compat_values.h"

#define V(n)	(long long)(n),
#define N(n)	#n,
const long long compat_uapi_values[] = { COMPAT_SAME(V) };
const char *const compat_uapi_names[] = { COMPAT_SAME(N) };
const unsigned int compat_uapi_count =
	sizeof(compat_uapi_values) / sizeof(compat_uapi_values[0]);

/* The one list of capabilities (__HWPMC_CAPS()) agrees with the constants. */
#define CAP_BIT(name, bit, abbrev, descr)				\
	_Static_assert(PMC_CAP_##name == 1U << (bit), #name);
__HWPMC_CAPS(CAP_BIT)
_Static_assert(PMC_CAP_LAST == PMC_CAP_DOMWIDE, "DOMWIDE is the last");
