// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: the log machinery cannot be held by one owner (the
 * kernel review's M4, M5, M9, L6; docs/security.md), run as root in a VM:
 *
 *   - files whose writes may wait for ever (a terminal) are refused as
 *     logs, while pipes and /dev/null are taken;
 *   - 300 logs of a member to pipes nobody reads cost that member only:
 *     root's log to a file meanwhile receives every record, and rmmod
 *     after they are gone takes less than 10 s (the module is reloaded
 *     with 4 KB log buffers for this, then as it was);
 *   - a log file grows no larger than its owner's RLIMIT_FSIZE (EFBIG);
 *   - the owner's own writes through the file it gave the log are not
 *     overwritten by the writer (the position is moved under its lock).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/hwpmc.h>
#include <linux/hwpmclog.h>

#include "kselftest_harness.h"
#include "hwpmc_selftest.h"

#define MEMBER_UID	1000
#define NSTALLED	300

/*
 * /dev/hwpmc as the udev rule leaves it: root:hwpmc 0660; 0 if ready.
 * Called just after a modprobe: the node may take a moment.
 */
static int setup_device(gid_t gid)
{
	return device_as_udev(gid, 1, 0);
}

/* -- log records ------------------------------------------------------------ */

struct counts {
	int	userdata;
	int	inorder;	/* USERDATA values 1, 2, 3, ... */
	int	drops;		/* DROPNOTIFY records */
	int	bad;		/* broken records */
};

static void count_records(const char *path, struct counts *c)
{
	struct pmclog_header *h;
	struct pmclog_userdata *u;
	size_t off = 0, len = 0, cap = 1 << 20;
	char *buf = malloc(cap);
	ssize_t n;
	__u32 l;
	int fd = open(path, O_RDONLY);

	memset(c, 0, sizeof(*c));
	while (fd >= 0 && (n = read(fd, buf + len, cap - len)) > 0)
		if ((len += n) == cap)
			buf = realloc(buf, cap *= 2);
	if (fd >= 0)
		close(fd);
	while (off + sizeof(*h) <= len) {
		h = (struct pmclog_header *)(buf + off);
		l = PMCLOG_HEADER_TO_LENGTH(h->pl_header);
		if (PMCLOG_HEADER_TO_MAGIC(h->pl_header) != PMCLOG_HEADER_MAGIC ||
		    l < sizeof(*h) || l % 8 || off + l > len) {
			c->bad++;
			break;
		}
		switch (PMCLOG_HEADER_TO_TYPE(h->pl_header)) {
		case PMCLOG_TYPE_USERDATA:
			u = (struct pmclog_userdata *)h;
			c->userdata++;
			c->inorder += u->pl_userdata == (__u32)c->userdata;
			break;
		case PMCLOG_TYPE_DROPNOTIFY:
			c->drops++;
			break;
		}
		off += l;
	}
	free(buf);
}

FIXTURE(fair) {
	pid_t	member;		/* a process group of stalled owners */
};

FIXTURE_SETUP(fair)
{
	self->member = 0;
}

/* The member's processes go, and the module is as it was loaded. */
FIXTURE_TEARDOWN(fair)
{
	int i;

	if (self->member > 0) {
		kill(-self->member, SIGKILL);
		waitpid(self->member, NULL, 0);
	}
	if (read_param("logbuffersize") == 256 &&
	    read_param("nbuffers_pcpu") == 32)
		return;
	for (i = 0; i < 300 && system("rmmod hwpmc 2>/dev/null"); i++)
		usleep(100000);
	if (system("modprobe hwpmc") || setup_device(group_hwpmc()))
		TH_LOG("could not load the module again");
}

/* -- terminals ------------------------------------------------------------- */

TEST_F(fair, terminals_are_refused_as_logs)
{
	int fd = open(DEV, O_RDWR), ptm, pts, null, p[2];

	ASSERT_LE(0, fd);
	ptm = posix_openpt(O_RDWR | O_NOCTTY);
	ASSERT_LE(0, ptm);
	ASSERT_EQ(0, grantpt(ptm));
	ASSERT_EQ(0, unlockpt(ptm));
	pts = open(ptsname(ptm), O_RDWR | O_NOCTTY);
	ASSERT_LE(0, pts);
	/* a pty nobody reads would block the writer for ever */
	EXPECT_EQ(EOPNOTSUPP, configure(fd, pts));
	EXPECT_EQ(EOPNOTSUPP, configure(fd, ptm));
	/* a device that writes without blocking, and a pipe, are taken */
	null = open("/dev/null", O_WRONLY);
	ASSERT_LE(0, null);
	EXPECT_EQ(0, configure(fd, null));
	EXPECT_EQ(0, writelog(fd, 1));
	EXPECT_EQ(0, xioctl(fd, HWPMC_IOC_CLOSELOG, NULL));
	ASSERT_EQ(0, pipe(p));
	EXPECT_EQ(0, configure(fd, p[1]));
	EXPECT_EQ(0, xioctl(fd, HWPMC_IOC_CLOSELOG, NULL));
	close(p[0]);
	close(p[1]);
	close(null);
	close(pts);
	close(ptm);
	close(fd);
}

/* -- stalled readers --------------------------------------------------------- */

static int reload(const char *args)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "modprobe hwpmc %s", args);
	return system(cmd);
}

/*
 * A member's process with a log to a pipe that is never read (64 KB of
 * records into a 4 KB pipe), then waiting; ready counts those that did.
 */
static void stalled_owner(volatile int *ready)
{
	int fd = open(DEV, O_RDWR), p[2], i;

	if (fd < 0 || pipe(p) || fcntl(p[1], F_SETPIPE_SZ, 4096) < 0 ||
	    configure(fd, p[1]))
		_exit(1);
	for (i = 1; i <= 2700; i++)	/* until the share is taken */
		if (writelog(fd, i))
			break;
	__atomic_add_fetch(ready, 1, __ATOMIC_SEQ_CST);
	for (;;)
		pause();
}

TEST_F_TIMEOUT(fair, stalled_pipes_cost_their_own_user_only, 240)
{
	struct pmc_op_getdriverstats st0, st1;
	const char *path = "/tmp/hwpmc_logfair_root.log";
	volatile int *ready;
	gid_t gid = group_hwpmc();
	pid_t member;
	struct counts c;
	double t;
	int fd, lf, i, j, status, done;

	if (gid == (gid_t)-1)
		SKIP(return, "no group hwpmc in /etc/group");
	/* 4 KB buffers, 64 KB of pool per CPU: a share is quick to fill */
	ASSERT_EQ(0, system("rmmod hwpmc"));
	ASSERT_EQ(0, reload("logbuffersize=4 nbuffers_pcpu=16"));
	ASSERT_EQ(0, setup_device(gid));
	ready = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ready);
	*ready = 0;

	member = fork();
	ASSERT_LE(0, member);
	self->member = member;
	if (member == 0) {
		setpgid(0, 0);
		if (setgroups(1, &gid) ||
		    setresgid(MEMBER_UID, MEMBER_UID, MEMBER_UID) ||
		    setresuid(MEMBER_UID, MEMBER_UID, MEMBER_UID))
			_exit(201);
		for (i = 0; i < NSTALLED; i++)
			if (fork() == 0)
				stalled_owner(ready);
		for (;;)
			pause();
	}
	setpgid(member, member);
	t = now();
	while (*ready < NSTALLED && now() - t < 120)
		usleep(50000);
	ASSERT_EQ(NSTALLED, *ready);
	TH_LOG("%d member logs stalled in %.1f s", NSTALLED, now() - t);

	fd = open(DEV, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, xioctl(fd, HWPMC_IOC_GETDRIVERSTATS, &st0));
	lf = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ASSERT_LE(0, lf);
	ASSERT_EQ(0, configure(fd, lf));
	close(lf);
	/* 50 rounds of 150 records (3.6 KB, most of a buffer) */
	for (i = 0; i < 50; i++) {
		for (j = 1; j <= 150; j++)
			ASSERT_EQ(0, writelog(fd, i * 150 + j));
		ASSERT_EQ(0, xioctl(fd, HWPMC_IOC_FLUSHLOG, NULL));
	}
	ASSERT_EQ(0, xioctl(fd, HWPMC_IOC_CLOSELOG, NULL));
	ASSERT_EQ(0, xioctl(fd, HWPMC_IOC_GETDRIVERSTATS, &st1));
	close(fd);
	count_records(path, &c);
	TH_LOG("root's log: %d records, %d in order, %d DROPNOTIFY; member "
	       "buffer requests refused: %llu", c.userdata, c.inorder, c.drops,
	       (unsigned long long)st0.pm_buffer_requests_failed);
	EXPECT_EQ(0, c.bad);
	EXPECT_EQ(0, c.drops);
	EXPECT_EQ(7500, c.userdata);
	EXPECT_EQ(7500, c.inorder);
	/* the member did run out: its share was full */
	EXPECT_LT(0, st0.pm_buffer_requests_failed);
	EXPECT_EQ(st0.pm_buffer_requests_failed,
		  st1.pm_buffer_requests_failed);

	/* the member goes; its closed logs linger on their pipes */
	kill(-member, SIGKILL);
	ASSERT_EQ(member, waitpid(member, &status, 0));
	self->member = 0;
	t = now();
	done = 0;
	while (!done && now() - t < 30) {
		done = system("rmmod hwpmc 2>/dev/null") == 0;
		if (!done)
			usleep(100000);	/* the orphans' exits */
	}
	t = now() - t;
	TH_LOG("rmmod after the member's exit: %.2f s", t);
	EXPECT_TRUE(done);
	EXPECT_GT(10.0, t);
	munmap((void *)ready, 4096);
	unlink(path);
	if (done) {
		ASSERT_EQ(0, reload(""));
		ASSERT_EQ(0, setup_device(gid));
	}
}

/* -- the owner's limits ------------------------------------------------------ */

TEST_F(fair, rlimit_fsize_limits_the_log_file)
{
	const char *path = "/tmp/hwpmc_logfair_fsize.log";
	struct stat st;
	pid_t pid;
	int status;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct rlimit rl = { 16384, 16384 };
		int fd = open(DEV, O_RDWR), lf, i, e;

		signal(SIGXFSZ, SIG_IGN);
		lf = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || lf < 0 || setrlimit(RLIMIT_FSIZE, &rl) ||
		    configure(fd, lf))
			_exit(1);
		for (i = 1; i <= 5000; i++)	/* 120 KB of records */
			writelog(fd, i);
		e = xioctl(fd, HWPMC_IOC_FLUSHLOG, NULL);
		_exit(e == EFBIG ? 0 : e ? e : 2);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));	/* FLUSHLOG: EFBIG */
	ASSERT_EQ(0, stat(path, &st));
	TH_LOG("log file: %lld bytes, limit 16384", (long long)st.st_size);
	EXPECT_GE(16384, st.st_size);
	EXPECT_LT(0, st.st_size);
	unlink(path);
}

struct ownwrite {
	int	fd;
	int	n;
};

static void *ownwrite_fn(void *arg)
{
	struct ownwrite *o = arg;
	char chunk[64];
	int i;

	memset(chunk, 'x', sizeof(chunk));
	for (i = 0; i < o->n; i++)
		if (write(o->fd, chunk, sizeof(chunk)) != sizeof(chunk))
			break;
	return NULL;
}

TEST_F(fair, owner_writes_through_the_same_file_lose_nothing)
{
	const char *path = "/tmp/hwpmc_logfair_own.log";
	struct ownwrite o = { .n = 20000 };
	struct pmc_op_getdriverstats st0, st1;
	size_t recs;
	struct stat st;
	pthread_t th;
	int fd, i;

	fd = open(DEV, O_RDWR);
	ASSERT_LE(0, fd);
	o.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ASSERT_LE(0, o.fd);
	ASSERT_EQ(0, xioctl(fd, HWPMC_IOC_GETDRIVERSTATS, &st0));
	ASSERT_EQ(0, configure(fd, o.fd));
	ASSERT_EQ(0, pthread_create(&th, NULL, ownwrite_fn, &o));
	for (i = 1; i <= 20000; i++) {
		ASSERT_EQ(0, writelog(fd, i));
		if (i % 500 == 0)
			ASSERT_EQ(0, xioctl(fd, HWPMC_IOC_FLUSHLOG, NULL));
	}
	pthread_join(th, NULL);
	ASSERT_EQ(0, xioctl(fd, HWPMC_IOC_CLOSELOG, NULL));
	ASSERT_EQ(0, xioctl(fd, HWPMC_IOC_GETDRIVERSTATS, &st1));
	ASSERT_EQ(0, fstat(o.fd, &st));
	/* INITIALIZE, the USERDATAs, CLOSELOG; nothing dropped */
	ASSERT_EQ(st0.pm_log_records_dropped, st1.pm_log_records_dropped);
	recs = sizeof(struct pmclog_initialize) +
	       20000 * sizeof(struct pmclog_userdata) +
	       sizeof(struct pmclog_closelog);
	TH_LOG("file %lld bytes: owner %d, records %zu",
	       (long long)st.st_size, o.n * 64, recs);
	EXPECT_EQ((long long)(o.n * 64 + recs), (long long)st.st_size);
	close(o.fd);
	close(fd);
	unlink(path);
}

TEST_HARNESS_MAIN
