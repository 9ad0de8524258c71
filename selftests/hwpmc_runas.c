// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: run a command as another user, for the security
 * selftests (the test guests have no setpriv or capsh).
 *
 *   hwpmc_runas [-u UID] [-g GID] [-G GID,...] [-c CAP,...] -- CMD [ARG...]
 *
 * Run as root.  Sets the supplementary groups (-G; none when absent), the
 * real, effective and saved gid and uid, and then gives CMD the listed
 * capabilities (numbers, or perfmon, sys_ptrace, sys_admin) as ambient
 * capabilities, which survive the exec; every other capability is gone.
 * The UID and GID default to 65534.  Exit status 127 when any step fails,
 * with the reason on stderr.
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>

#ifndef CAP_PERFMON
#define CAP_PERFMON	38
#endif

static void die(const char *what)
{
	fprintf(stderr, "hwpmc_runas: %s: %s\n", what, strerror(errno));
	exit(127);
}

static void usage(void)
{
	fprintf(stderr, "usage: hwpmc_runas [-u UID] [-g GID] [-G GID,...] [-c CAP,...] -- CMD [ARG...]\n");
	exit(127);
}

static long number(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0) {
		fprintf(stderr, "hwpmc_runas: bad number '%s'\n", s);
		exit(127);
	}
	return v;
}

static int cap_number(const char *s)
{
	static const struct { const char *name; int cap; } caps[] = {
		{ "perfmon", CAP_PERFMON },
		{ "sys_ptrace", CAP_SYS_PTRACE },
		{ "sys_admin", CAP_SYS_ADMIN },
	};
	size_t i;

	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		if (!strcmp(s, caps[i].name))
			return caps[i].cap;
	if (number(s) > 63) {
		fprintf(stderr, "hwpmc_runas: bad capability '%s'\n", s);
		exit(127);
	}
	return (int)number(s);
}

int main(int argc, char **argv)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = { { 0 } };
	gid_t groups[64];
	int ngroups = 0, ncaps = 0, caps[64], opt, i;
	uid_t uid = 65534;
	gid_t gid = 65534;
	char *tok, *save;

	while ((opt = getopt(argc, argv, "+u:g:G:c:")) != -1) {
		switch (opt) {
		case 'u':
			uid = (uid_t)number(optarg);
			break;
		case 'g':
			gid = (gid_t)number(optarg);
			break;
		case 'G':
			for (tok = strtok_r(optarg, ",", &save); tok && ngroups < 64;
			     tok = strtok_r(NULL, ",", &save))
				groups[ngroups++] = (gid_t)number(tok);
			break;
		case 'c':
			for (tok = strtok_r(optarg, ",", &save); tok && ncaps < 64;
			     tok = strtok_r(NULL, ",", &save))
				caps[ncaps++] = cap_number(tok);
			break;
		default:
			usage();
		}
	}
	if (optind >= argc)
		usage();

	if (setgroups(ngroups, groups))
		die("setgroups");
	if (setresgid(gid, gid, gid))
		die("setresgid");
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0))
		die("PR_SET_KEEPCAPS");
	if (setresuid(uid, uid, uid))
		die("setresuid");
	/* permitted, effective and inheritable: exactly caps */
	for (i = 0; i < ncaps; i++) {
		data[caps[i] / 32].permitted |= 1U << (caps[i] % 32);
		data[caps[i] / 32].effective |= 1U << (caps[i] % 32);
		data[caps[i] / 32].inheritable |= 1U << (caps[i] % 32);
	}
	if (syscall(SYS_capset, &hdr, data))
		die("capset");
	for (i = 0; i < ncaps; i++)
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, caps[i], 0, 0))
			die("PR_CAP_AMBIENT_RAISE");
	execvp(argv[optind], argv + optind);
	die(argv[optind]);
	return 127;
}
