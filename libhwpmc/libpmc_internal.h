/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libhwpmc: state shared by the library's files.  Not installed.
 */
#ifndef _HWPMC_LIBPMC_INTERNAL_H_
#define _HWPMC_LIBPMC_INTERNAL_H_

#include <stddef.h>
#include <stdint.h>

/* The library is built with -fvisibility=hidden: export what pmc.h declares. */
#pragma GCC visibility push(default)
#include "pmc.h"
#pragma GCC visibility pop

/* The events of one class, from GETDYNEVENTINFO. */
struct pmc_class_events {
	uint32_t	ce_class;
	uint32_t	ce_nevent;
	struct pmc_dyn_event_descr *ce_events;	/* names NUL-terminated */
};

struct pmc_lib_state {
	int		fd;			/* -1 until pmc_init() succeeds */
	uint32_t	module_version;
	struct pmc_cpuinfo cpuinfo;
	struct pmc_class_events classes[PMC_CLASS_MAX];
};

extern struct pmc_lib_state pmc_lib;

/* 0 if initialised; else -1 with errno ENXIO. */
static inline int pmc_lib_ready(void)
{
	if (pmc_lib.fd < 0) {
		errno = ENXIO;
		return -1;
	}
	return 0;
}

/* ioctl on the device, retried on EINTR. */
int pmc_lib_ioctl(unsigned long cmd, void *arg);

/* The cached events of class cl, or NULL. */
const struct pmc_class_events *pmc_lib_class_events(uint32_t cl);

/*
 * Module state, for pmc_init()'s diagnosis (pmc_modcheck.c): one of the
 * values below; *installed is set to 1 when a module file exists for the
 * running kernel, 0 when not, -1 when that cannot be told.
 */
enum pmc_modstate {
	PMC_MODSTATE_UNKNOWN,
	PMC_MODSTATE_ABSENT,
	PMC_MODSTATE_LIVE,		/* loaded (or built in) */
	PMC_MODSTATE_COMING,
	PMC_MODSTATE_GOING,
};

enum pmc_modstate pmc_lib_module_state(int *installed);

#endif /* _HWPMC_LIBPMC_INTERNAL_H_ */
