// SPDX-License-Identifier: BSD-2-Clause
/*
 * libhwpmc: pmc_init(), pmc_fini() and the explanation of failures.
 *
 * pmc_init() opens the device, checks the module's ABI version and caches
 * what does not change while the module is loaded: the CPU information and
 * the events of every class.  When it fails, errno says what happened in
 * FreeBSD's terms and pmc_init_message() says it in words, with the fix.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "libpmc_internal.h"

#define PMC_INIT_RETRIES	8	/* E2BIG: the answer grew meanwhile */

struct pmc_lib_state pmc_lib = { .fd = -1 };

static char pmc_init_msg[512] = "pmc_init() has not failed";

_Static_assert(sizeof(struct pmc_cpuinfo) ==
	       sizeof(struct pmc_op_getcpuinfo), "pmc_cpuinfo layout");
_Static_assert(offsetof(struct pmc_cpuinfo, pm_classes) ==
	       offsetof(struct pmc_op_getcpuinfo, pm_classes),
	       "pmc_cpuinfo layout");
_Static_assert(sizeof(enum pmc_cputype) == sizeof(__u32),
	       "enum pmc_cputype must be 32 bits");

__attribute__((format(printf, 1, 2)))
static void set_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(pmc_init_msg, sizeof(pmc_init_msg), fmt, ap);
	va_end(ap);
}

int pmc_lib_ioctl(unsigned long cmd, void *arg)
{
	int r;

	do {
		r = ioctl(pmc_lib.fd, cmd, arg);
	} while (r < 0 && errno == EINTR);
	return r < 0 ? -1 : 0;
}

const struct pmc_class_events *pmc_lib_class_events(uint32_t cl)
{
	uint32_t i;

	for (i = 0; i < PMC_CLASS_MAX; i++)
		if (pmc_lib.classes[i].ce_events &&
		    pmc_lib.classes[i].ce_class == cl)
			return &pmc_lib.classes[i];
	return NULL;
}

static void free_caches(void)
{
	int i;

	for (i = 0; i < PMC_CLASS_MAX; i++) {
		free(pmc_lib.classes[i].ce_events);
		pmc_lib.classes[i].ce_events = NULL;
		pmc_lib.classes[i].ce_nevent = 0;
	}
	memset(&pmc_lib.cpuinfo, 0, sizeof(pmc_lib.cpuinfo));
	pmc_lib.module_version = 0;
}

void pmc_fini(void)
{
	int saved = errno;

	if (pmc_lib.fd >= 0)
		close(pmc_lib.fd);
	pmc_lib.fd = -1;
	free_caches();
	errno = saved;
}

const char *pmc_init_message(void)
{
	return pmc_init_msg;
}

/*
 * The name of the group of path, from /etc/group (fgetgrent() needs no
 * NSS modules, so this works in static binaries too).
 */
static void device_group(const char *path, char *name, size_t len)
{
	struct stat sb;
	struct group *gr;
	FILE *f;

	if (stat(path, &sb) < 0)
		return;
	f = fopen("/etc/group", "re");
	if (!f)
		return;
	while ((gr = fgetgrent(f)))
		if (gr->gr_gid == sb.st_gid) {
			snprintf(name, len, "%s", gr->gr_name);
			break;
		}
	fclose(f);
}

/* Explain why open(path) failed with errno err; returns the errno to set. */
static int explain_open(const char *path, int err)
{
	struct utsname un;
	const char *kver = uname(&un) == 0 ? un.release : "this kernel";
	enum pmc_modstate st;
	int installed;

	switch (err) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
		break;
	case EACCES:
	case EPERM: {
		char grname[64] = "hwpmc";

		device_group(path, grname, sizeof(grname));
		set_msg("permission denied on %s: add yourself to group '%s' (usermod -aG %s $USER) and log in again",
			path, grname, grname);
		return err;
	}
	case EISDIR:
	case ENOTDIR:
		set_msg("%s is not a hwpmc device (%s)", path, strerror(err));
		return ENODEV;
	default:
		set_msg("cannot open %s: %s", path, strerror(err));
		return err;
	}

	st = pmc_lib_module_state(&installed);
	switch (st) {
	case PMC_MODSTATE_LIVE:
		set_msg("the hwpmc module is loaded but %s is missing: is devtmpfs mounted on /dev and udev running? (the device number is in /sys/class/misc/hwpmc/dev)",
			path);
		return ENXIO;
	case PMC_MODSTATE_COMING:
	case PMC_MODSTATE_GOING:
		set_msg("the hwpmc module is being %s: try again",
			st == PMC_MODSTATE_COMING ? "loaded" : "unloaded");
		return ENXIO;
	case PMC_MODSTATE_ABSENT:
	case PMC_MODSTATE_UNKNOWN:
		break;
	}
	if (installed == 0)
		set_msg("%s: %s; the hwpmc module is not loaded and not installed for kernel %s: install it (make module && make install, or dkms install), then run 'modprobe hwpmc' as root",
			path, strerror(err), kver);
	else if (st == PMC_MODSTATE_UNKNOWN)
		set_msg("%s: %s; is the hwpmc module loaded? run 'modprobe hwpmc' as root",
			path, strerror(err));
	else
		set_msg("%s: %s; the hwpmc module is not loaded: run 'modprobe hwpmc' as root",
			path, strerror(err));
	return ENOENT;
}

/* Fetch the events of class cl into *ce. */
static int load_class_events(uint32_t cl, struct pmc_class_events *ce)
{
	struct pmc_op_getdyneventinfo gde;
	struct pmc_dyn_event_descr *ev = NULL, *nev;
	uint32_t i, room = 0;
	int tries;

	for (tries = 0; tries < PMC_INIT_RETRIES; tries++) {
		memset(&gde, 0, sizeof(gde));
		gde.pm_class = cl;
		gde.pm_nevent = room;
		gde.pm_events = (uintptr_t)ev;
		if (pmc_lib_ioctl(HWPMC_IOC_GETDYNEVENTINFO, &gde) == 0) {
			if (ev || gde.pm_nevent == 0)
				break;		/* done, or no events */
		} else if (errno != E2BIG) {
			goto fail;
		}
		/* a count query, or the list grew: make room, ask again */
		room = gde.pm_nevent;
		nev = realloc(ev, (room ? room : 1) * sizeof(*ev));
		if (!nev)
			goto fail;
		ev = nev;
	}
	if (tries == PMC_INIT_RETRIES) {
		errno = EAGAIN;
		goto fail;
	}
	if (gde.pm_nevent > room)
		gde.pm_nevent = room;
	for (i = 0; i < gde.pm_nevent; i++)
		ev[i].pm_ev_name[PMC_NAME_MAX - 1] = '\0';
	if (!ev && !(ev = calloc(1, sizeof(*ev))))
		goto fail;
	ce->ce_class = cl;
	ce->ce_nevent = gde.pm_nevent;
	ce->ce_events = ev;
	return 0;
fail:
	free(ev);
	return -1;
}

int pmc_init(void)
{
	const char *path;
	uint32_t version, i;
	int fd, err;

	if (pmc_lib.fd >= 0)
		return 0;		/* already initialised (FreeBSD) */

	path = secure_getenv("HWPMC_DEVICE");
	if (!path || !*path)
		path = PMC_DEVICE_PATH;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		errno = explain_open(path, errno);
		return -1;
	}
	pmc_lib.fd = fd;

	version = PMC_VERSION;
	if (pmc_lib_ioctl(HWPMC_IOC_GETMODULEVERSION, &version) < 0) {
		err = errno;
		if (err == EPROTO) {
			/* the module writes its own version back */
			set_msg("ABI mismatch: library 0x%08x is newer than the hwpmc module 0x%08x: install the module of the same release",
				(unsigned int)PMC_VERSION, version);
			err = EPROGMISMATCH;
		} else if (err == ENOTTY) {
			set_msg("%s is not a hwpmc device (GETMODULEVERSION: %s)",
				path, strerror(err));
		} else if (err == EINVAL) {
			set_msg("ABI mismatch: %s rejects the GETMODULEVERSION of library 0x%08x: install the module of the same release",
				path, (unsigned int)PMC_VERSION);
			err = EPROGMISMATCH;
		} else {
			set_msg("%s: cannot read the module version: %s",
				path, strerror(err));
		}
		goto fail;
	}
	if ((version & 0xFF000000U) != (PMC_VERSION & 0xFF000000U)) {
		set_msg("ABI mismatch: library 0x%08x module 0x%08x: use a library and module of the same major version",
			(unsigned int)PMC_VERSION, version);
		err = EPROGMISMATCH;
		goto fail;
	}
	pmc_lib.module_version = version;

	if (pmc_lib_ioctl(HWPMC_IOC_GETCPUINFO, &pmc_lib.cpuinfo) < 0) {
		err = errno;
		set_msg("%s: GETCPUINFO failed: %s", path, strerror(err));
		goto fail;
	}
	if (pmc_lib.cpuinfo.pm_nclass > PMC_CLASS_MAX ||
	    pmc_lib.cpuinfo.pm_ncpu == 0) {
		set_msg("%s: GETCPUINFO returned nonsense (%u classes, %u CPUs)",
			path, pmc_lib.cpuinfo.pm_nclass,
			pmc_lib.cpuinfo.pm_ncpu);
		err = EPROGMISMATCH;
		goto fail;
	}
	/* FreeBSD's type of the CPU, where its pmu-events table says it */
	pmc_lib.cpuinfo.pm_cputype = (enum pmc_cputype)
		pmc_pmu_cputype((uint32_t)pmc_lib.cpuinfo.pm_cputype);

	for (i = 0; i < pmc_lib.cpuinfo.pm_nclass; i++) {
		uint32_t cl = pmc_lib.cpuinfo.pm_classes[i].pm_class;

		if (load_class_events(cl, &pmc_lib.classes[i]) < 0) {
			err = errno;
			set_msg("%s: GETDYNEVENTINFO for class 0x%x failed: %s",
				path, cl, strerror(err));
			goto fail;
		}
	}
	set_msg("pmc_init() has not failed");
	return 0;

fail:
	pmc_fini();
	errno = err;
	return -1;
}
