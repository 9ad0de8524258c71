// SPDX-License-Identifier: GPL-2.0
/*
 * The uapi headers included before the pmc(3) view: <sys/pmc.h> must still
 * turn the constants into FreeBSD's enumerators and values (the structure
 * fields keep the uapi types then, which C does not mind).  Linked into
 * test_compat.
 */
#include <linux/hwpmc.h>
#include <linux/hwpmclog.h>
#include <pmc.h>
/* <pmc.h> alone leaves the log's constants to <linux/hwpmclog.h> */
#ifndef PMCLOG_TYPE_CALLCHAIN
#error "<pmc.h> removed the constants of <linux/hwpmclog.h>"
#endif
#include <pmclog.h>

_Static_assert(PMC_STATE_MAX == 6 && PMC_DISP_LAST == PMC_DISP_THREAD &&
	       PMC_EV_SOFT_LAST == PMC_EV_SOFT_FIRST + PMC_EV_DYN_COUNT - 1 &&
	       PMC_CPU_ANY == -1 && PMCLOG_TYPE_PMCALLOCATEDYN == 17,
	       "FreeBSD's values after the uapi headers");

int compat_order_check(void);

int compat_order_check(void)
{
	enum pmc_mode m = PMC_MODE_TS;
	enum pmclog_type t = PMCLOG_TYPE_CALLCHAIN;
	struct pmc_info pi = { .pm_mode = PMC_MODE_SC, .pm_reloadcount = 3 };
	struct pmclog_ev ev = { .pl_type = PMCLOG_TYPE_PMCALLOCATEDYN };

	return m == 2 && t == 16 && pi.pm_mode == 1 && pi.pm_reloadcount == 3 &&
	       ev.pl_type == 17 && sizeof(ev.pl_u.pl_ad.pl_evname) == PMC_NAME_MAX;
}
