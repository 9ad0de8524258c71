// SPDX-License-Identifier: BSD-2-Clause
/*
 * libhwpmc: is the hwpmc module loaded, and is it installed?
 *
 * Only used to explain a failed pmc_init().  With libkmod (WITH_KMOD=1,
 * the default) the answer comes from the kernel's module list and the
 * modules.dep of the running kernel; without it (static builds), from
 * /sys/module/hwpmc and a search of /lib/modules/$(uname -r).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "libpmc_internal.h"

#if HWPMC_WITH_KMOD
#include <libkmod.h>

enum pmc_modstate pmc_lib_module_state(int *installed)
{
	enum pmc_modstate st = PMC_MODSTATE_UNKNOWN;
	struct kmod_ctx *ctx;
	struct kmod_module *mod = NULL;
	struct kmod_list *list = NULL, *it;
	int saved = errno;

	*installed = -1;
	ctx = kmod_new(NULL, NULL);
	if (!ctx)
		goto out;
	kmod_set_log_priority(ctx, 0);	/* diagnosis only: stay quiet */

	if (kmod_module_new_from_name(ctx, PMC_MODULE_NAME, &mod) == 0) {
		switch (kmod_module_get_initstate(mod)) {
		case KMOD_MODULE_LIVE:
		case KMOD_MODULE_BUILTIN:
			st = PMC_MODSTATE_LIVE;
			break;
		case KMOD_MODULE_COMING:
			st = PMC_MODSTATE_COMING;
			break;
		case KMOD_MODULE_GOING:
			st = PMC_MODSTATE_GOING;
			break;
		default:		/* -ENOENT: not loaded */
			st = PMC_MODSTATE_ABSENT;
			break;
		}
		kmod_module_unref(mod);
	}

	if (kmod_module_new_from_lookup(ctx, PMC_MODULE_NAME, &list) == 0) {
		*installed = 0;
		kmod_list_foreach(it, list) {
			struct kmod_module *m = kmod_module_get_module(it);

			if (kmod_module_get_path(m))
				*installed = 1;
			kmod_module_unref(m);
		}
		kmod_module_unref_list(list);
	}
	kmod_unref(ctx);
out:
	errno = saved;
	return st;
}

#else /* !HWPMC_WITH_KMOD */

static int module_file_in(const char *dir, int depth)
{
	char path[4096];
	struct stat sb;
	static const char *const names[] = {
		"hwpmc.ko", "hwpmc.ko.xz", "hwpmc.ko.zst", "hwpmc.ko.gz",
	};
	static const char *const subdirs[] = {
		"updates", "updates/dkms", "extra", "kernel", "misc",
	};
	size_t i, j;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (stat(path, &sb) == 0)
			return 1;
		for (j = 0; depth && j < sizeof(subdirs) / sizeof(subdirs[0]);
		     j++) {
			snprintf(path, sizeof(path), "%s/%s/%s", dir,
				 subdirs[j], names[i]);
			if (stat(path, &sb) == 0)
				return 1;
		}
	}
	return 0;
}

enum pmc_modstate pmc_lib_module_state(int *installed)
{
	enum pmc_modstate st = PMC_MODSTATE_UNKNOWN;
	char buf[32] = "";
	struct utsname un;
	struct stat sb;
	FILE *f;
	int saved = errno;

	*installed = -1;
	f = fopen("/sys/module/" PMC_MODULE_NAME "/initstate", "re");
	if (f) {
		if (fgets(buf, sizeof(buf), f)) {
			if (!strncmp(buf, "live", 4))
				st = PMC_MODSTATE_LIVE;
			else if (!strncmp(buf, "coming", 6))
				st = PMC_MODSTATE_COMING;
			else if (!strncmp(buf, "going", 5))
				st = PMC_MODSTATE_GOING;
		}
		fclose(f);
	} else if (stat("/sys/module/" PMC_MODULE_NAME, &sb) == 0) {
		st = PMC_MODSTATE_LIVE;		/* built in: no initstate */
	} else if (stat("/sys/module", &sb) == 0) {
		st = PMC_MODSTATE_ABSENT;
	}

	if (uname(&un) == 0) {
		char dir[512];

		snprintf(dir, sizeof(dir), "/lib/modules/%s", un.release);
		if (stat(dir, &sb) == 0)
			*installed = module_file_in(dir, 1);
	}
	errno = saved;
	return st;
}

#endif /* HWPMC_WITH_KMOD */
