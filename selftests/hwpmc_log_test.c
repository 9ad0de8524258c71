// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: the log and sampling, in a VM as root.  The log is
 * parsed here with the uapi structures alone (no libhwpmc), so that the
 * kernel's records are checked independently of pmclog(3).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <linux/hwpmc.h>
#include <linux/hwpmclog.h>

#include "kselftest_harness.h"
#include "hwpmc_selftest.h"

#define MS		1000000ULL	/* cpu-clock counts nanoseconds */

static int alloc_cl(int fd, __u32 cl, __u32 mode, __u32 ev, __u32 cpu,
		    __u32 flags, __u64 count, __u32 *id)
{
	return alloc_pmc(fd, mode, cl, ev, cpu, flags, 0, count, id);
}

static int alloc(int fd, __u32 mode, __u32 ev, __u32 cpu, __u32 flags,
		 __u64 count, __u32 *id)
{
	return alloc_cl(fd, PMC_CLASS_SOFT, mode, ev, cpu, flags, count, id);
}

/* -- the log as records ----------------------------------------------------- */

struct log {
	char	*buf;
	size_t	len;
	int	bad;		/* records that broke the format */
};

static void log_load_fd(struct log *lg, int fd)
{
	size_t cap = 1 << 16;
	ssize_t n;

	lg->buf = malloc(cap);
	lg->len = 0;
	lg->bad = 0;
	while ((n = read(fd, lg->buf + lg->len, cap - lg->len)) > 0) {
		lg->len += n;
		if (lg->len == cap)
			lg->buf = realloc(lg->buf, cap *= 2);
	}
}

static void log_load_file(struct log *lg, const char *path)
{
	int fd = open(path, O_RDONLY);

	log_load_fd(lg, fd);
	close(fd);
}

/* The next record at *off, or NULL at the end (or a broken record). */
static struct pmclog_header *log_next(struct log *lg, size_t *off)
{
	struct pmclog_header *h;
	__u32 len;

	if (*off + sizeof(*h) > lg->len)
		return NULL;
	h = (struct pmclog_header *)(lg->buf + *off);
	len = PMCLOG_HEADER_TO_LENGTH(h->pl_header);
	if (PMCLOG_HEADER_TO_MAGIC(h->pl_header) != PMCLOG_HEADER_MAGIC ||
	    len < sizeof(*h) || len % 8 || *off + len > lg->len ||
	    PMCLOG_HEADER_TO_TYPE(h->pl_header) == 0 ||
	    PMCLOG_HEADER_TO_TYPE(h->pl_header) > PMCLOG_TYPE_MAX) {
		lg->bad++;
		return NULL;
	}
	*off += len;
	return h;
}

#define TYPE(h)		PMCLOG_HEADER_TO_TYPE((h)->pl_header)
#define LEN(h)		PMCLOG_HEADER_TO_LENGTH((h)->pl_header)
#define for_each_record(lg, h, off) \
	for (off = 0; (h = log_next(lg, &off)); )

static int log_count(struct log *lg, __u32 type)
{
	struct pmclog_header *h;
	size_t off;
	int n = 0;

	for_each_record(lg, h, off)
		n += TYPE(h) == type;
	return n;
}

static struct pmclog_header *log_last(struct log *lg)
{
	struct pmclog_header *h, *last = NULL;
	size_t off;

	for_each_record(lg, h, off)
		last = h;
	return last;
}

/* -- workloads ------------------------------------------------------------ */

static double cputime(const struct rusage *ru)
{
	return ru->ru_utime.tv_sec + ru->ru_stime.tv_sec +
	       (ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1e6;
}

static volatile unsigned long sink;

__attribute__((noinline)) void tick(void)
{
	sink++;
}

/*
 * Frame pointers: built with -fno-omit-frame-pointer; gcc still omits
 * them in leaf functions, so hot() is not one.
 */
__attribute__((noinline)) void hot(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		sink += i * i;
	tick();
}

__attribute__((noinline)) void mid(unsigned long n)
{
	hot(n);
	sink++;
}

__attribute__((noinline)) void top(unsigned long n)
{
	mid(n);
	sink++;
}

/* Busy in hot() for about ms of CPU time. */
static void spin_ms(int ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	do {
		top(100000);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 +
		 (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

/* A child blocked until go() */
struct child {
	pid_t	pid;
	int	go;
};

static void child_start(struct child *c, void (*fn)(void *), void *arg)
{
	int p[2];
	char x;

	if (pipe(p))
		abort();
	c->pid = fork();
	if (!c->pid) {
		close(p[1]);
		if (read(p[0], &x, 1) != 1)
			_exit(99);
		fn(arg);
		_exit(0);
	}
	close(p[0]);
	c->go = p[1];
}

static void child_go(struct child *c)
{
	if (write(c->go, "g", 1) != 1)
		abort();
	close(c->go);
}

static int child_wait(struct child *c, struct rusage *ru)
{
	int st;

	if (wait4(c->pid, &st, 0, ru) != c->pid)
		return -1;
	return st;
}

static void busy_fn(void *arg)
{
	spin_ms((int)(long)arg);
}

/* -- fixture -------------------------------------------------------------- */

FIXTURE(log) {
	int fd;
	char path[64];
};

FIXTURE_SETUP(log)
{
	self->fd = open(DEV, O_RDWR);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", DEV, strerror(errno));
	snprintf(self->path, sizeof(self->path), "/tmp/hwpmc-log.%d",
		 getpid());
}

FIXTURE_TEARDOWN(log)
{
	close(self->fd);
	unlink(self->path);
}

/* a log file; the caller closes it */
static int logfile(const char *path)
{
	return open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
}

TEST_F(log, operations_without_a_log_are_einval)
{
	EXPECT_EQ(EINVAL, xioctl(self->fd, HWPMC_IOC_FLUSHLOG, NULL));
	EXPECT_EQ(EINVAL, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
	EXPECT_EQ(EINVAL, writelog(self->fd, 1));
	EXPECT_EQ(EINVAL, configure(self->fd, -1));
}

TEST_F(log, configurelog_bad_arguments)
{
	struct pmc_op_configurelog cl = {
		.pm_flags = ~(__u32)PMC_LOG_KERNEL_PROFILES,	/* unknown */
		.pm_logfd = 1,
	};
	int ro = open("/dev/null", O_RDONLY);
	int op = open("/tmp", O_PATH);

	EXPECT_EQ(EINVAL, xioctl(self->fd, HWPMC_IOC_CONFIGURELOG, &cl));
	EXPECT_EQ(EBADF, configure(self->fd, 12345));		/* not open */
	EXPECT_EQ(EBADF, configure(self->fd, ro));		/* read-only */
	EXPECT_EQ(EBADF, configure(self->fd, op));		/* O_PATH */
	EXPECT_EQ(EINVAL, configure(self->fd, self->fd));	/* ourselves */
	EXPECT_EQ(EFAULT, xioctl(self->fd, HWPMC_IOC_CONFIGURELOG,
				 (void *)8));
	close(ro);
	close(op);
}

TEST_F(log, records_in_order_to_a_file)
{
	struct pmclog_header *h, *first = NULL;
	struct pmclog_initialize *in;
	struct pmclog_userdata *u;
	struct log lg;
	size_t off;
	__u32 next = 1;
	__u64 t = 0;
	int f = logfile(self->path), i;

	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(self->fd, f));
	EXPECT_EQ(EBUSY, configure(self->fd, f));
	close(f);			/* the log holds its own reference */
	for (i = 1; i <= 1000; i++)
		ASSERT_EQ(0, writelog(self->fd, i));
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_FLUSHLOG, NULL));
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
	EXPECT_EQ(EINVAL, writelog(self->fd, 1));	/* closed */
	log_load_file(&lg, self->path);
	for_each_record(&lg, h, off) {
		if (!first)
			first = h;
		EXPECT_LE(t, h->pl_time);	/* one writer: in order */
		t = h->pl_time;
		if (TYPE(h) != PMCLOG_TYPE_USERDATA)
			continue;
		u = (void *)h;
		EXPECT_EQ(next, u->pl_userdata);
		EXPECT_EQ((__u32)getpid(), u->pl_pid);
		next = u->pl_userdata + 1;
	}
	EXPECT_EQ(0, lg.bad);
	EXPECT_EQ(1001, next);
	ASSERT_NE(NULL, first);
	ASSERT_EQ(PMCLOG_TYPE_INITIALIZE, TYPE(first));
	in = (void *)first;
	EXPECT_EQ(PMCLOG_VERSION, in->pl_version);
	EXPECT_EQ((__u32)sysconf(_SC_NPROCESSORS_CONF) <= in->pl_ncpu, 1);
	EXPECT_EQ(PMCLOG_TYPE_CLOSELOG, TYPE(log_last(&lg)));
	free(lg.buf);
}

TEST_F(log, a_log_to_a_pipe_and_a_socket)
{
	int p[2], s[2], i;
	struct log lg;

	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, configure(self->fd, p[1]));
	close(p[1]);
	for (i = 0; i < 10; i++)
		ASSERT_EQ(0, writelog(self->fd, i));
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
	log_load_fd(&lg, p[0]);		/* EOF once the writer lets go */
	close(p[0]);
	EXPECT_EQ(10, log_count(&lg, PMCLOG_TYPE_USERDATA));
	EXPECT_EQ(PMCLOG_TYPE_CLOSELOG, TYPE(log_last(&lg)));
	free(lg.buf);

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, s));
	ASSERT_EQ(0, configure(self->fd, s[1]));
	close(s[1]);
	ASSERT_EQ(0, writelog(self->fd, 7));
	ASSERT_EQ(0, configure(self->fd, -1));	/* closes, as CLOSELOG */
	log_load_fd(&lg, s[0]);
	close(s[0]);
	EXPECT_EQ(1, log_count(&lg, PMCLOG_TYPE_USERDATA));
	EXPECT_EQ(PMCLOG_TYPE_CLOSELOG, TYPE(log_last(&lg)));
	free(lg.buf);
}

TEST_F(log, reader_gone_is_epipe_kept)
{
	int p[2];

	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, configure(self->fd, p[1]));
	close(p[1]);
	close(p[0]);
	ASSERT_EQ(0, writelog(self->fd, 1));
	EXPECT_EQ(EPIPE, xioctl(self->fd, HWPMC_IOC_FLUSHLOG, NULL));
	EXPECT_EQ(EPIPE, xioctl(self->fd, HWPMC_IOC_FLUSHLOG, NULL));
	EXPECT_EQ(EPIPE, writelog(self->fd, 2));
	EXPECT_EQ(EPIPE, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
	EXPECT_EQ(EINVAL, xioctl(self->fd, HWPMC_IOC_FLUSHLOG, NULL));
}

static void on_alarm(int sig)
{
}

/*
 * A reader that stops reading: FLUSHLOG waits, but a signal interrupts
 * it; the owner's exit does not wait; what is left reaches the reader
 * when it reads again, CLOSELOG last.
 */
TEST_F(log, a_stuck_reader_hangs_nothing)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	int p[2], st, i, n;
	struct log lg;
	pid_t pid;

	ASSERT_EQ(0, pipe(p));
	sigaction(SIGALRM, &sa, NULL);
	pid = fork();
	if (!pid) {
		int fd = open(DEV, O_RDWR);

		close(p[0]);
		if (fd < 0 || configure(fd, p[1]))
			_exit(1);
		/* more than a pipe holds (64 KB): 24-byte records */
		for (i = 0; i < 20000; i++)
			if (writelog(fd, i))
				_exit(2);
		alarm(1);
		n = xioctl(fd, HWPMC_IOC_FLUSHLOG, NULL);
		_exit(n == EINTR ? 0 : 3);	/* exits with the log open */
	}
	close(p[1]);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, WEXITSTATUS(st)) TH_LOG("child step %d", WEXITSTATUS(st));
	log_load_fd(&lg, p[0]);
	close(p[0]);
	EXPECT_EQ(0, lg.bad);
	EXPECT_EQ(20000, log_count(&lg, PMCLOG_TYPE_USERDATA));
	EXPECT_EQ(PMCLOG_TYPE_CLOSELOG, TYPE(log_last(&lg)));
	free(lg.buf);
}

/*
 * A log on a full filesystem: the writer's ENOSPC is kept and returned
 * by FLUSHLOG and CLOSELOG; nothing waits for room that never comes.
 */
TEST_F(log, a_full_filesystem_is_enospc_kept)
{
	char dir[64], path[80];
	int f, i, e;

	snprintf(dir, sizeof(dir), "/tmp/hwpmc-full.%d", getpid());
	ASSERT_EQ(0, mkdir(dir, 0700));
	if (mount("hwpmc-full", dir, "tmpfs", 0, "size=64k")) {
		rmdir(dir);
		SKIP(return, "cannot mount a small tmpfs: %s", strerror(errno));
	}
	snprintf(path, sizeof(path), "%s/log", dir);
	f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(self->fd, f));
	close(f);
	/*
	 * 480 KB of USERDATA into 64 KB: writes fail once the error is in;
	 * before that, ENOBUFS when the writer is behind (records dropped).
	 */
	for (i = 0, e = 0; i < 20000 && e != ENOSPC; i++) {
		e = writelog(self->fd, i);
		EXPECT_TRUE(e == 0 || e == ENOSPC || e == ENOBUFS)
			TH_LOG("WRITELOG: %s", strerror(e));
	}
	EXPECT_EQ(ENOSPC, xioctl(self->fd, HWPMC_IOC_FLUSHLOG, NULL));
	EXPECT_EQ(ENOSPC, xioctl(self->fd, HWPMC_IOC_FLUSHLOG, NULL));
	EXPECT_EQ(ENOSPC, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
	EXPECT_EQ(EINVAL, xioctl(self->fd, HWPMC_IOC_FLUSHLOG, NULL));
	unlink(path);
	EXPECT_EQ(0, umount(dir));
	rmdir(dir);
}

/*
 * An owner killed while it samples itself into a pipe: its exit closes
 * the log, whose last record is CLOSELOG, and the reader sees EOF.
 */
TEST_F(log, owner_killed_while_sampling)
{
	struct log lg;
	int p[2], r[2], st;
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, pipe(r));
	pid = fork();
	if (!pid) {
		int fd = open(DEV, O_RDWR);
		__u32 id;

		close(p[0]);
		close(r[0]);
		if (fd < 0 || configure(fd, p[1]) ||
		    alloc(fd, PMC_MODE_TS, EV_SOFT(CPU_CLOCK), PMC_CPU_ANY,
			  PMC_F_CALLCHAIN, MS, &id) ||
		    attach(fd, id, 0) ||
		    simple(fd, HWPMC_IOC_PMCSTART, id))
			_exit(1);
		close(p[1]);
		if (write(r[1], "s", 1) != 1)
			_exit(2);
		for (;;)
			spin_ms(10);
	}
	close(p[1]);
	close(r[1]);
	ASSERT_EQ(1, read(r[0], &c, 1));
	close(r[0]);
	usleep(200000);
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFSIGNALED(st));
	log_load_fd(&lg, p[0]);		/* to EOF */
	close(p[0]);
	EXPECT_EQ(0, lg.bad);
	EXPECT_LT(0, log_count(&lg, PMCLOG_TYPE_CALLCHAIN));
	EXPECT_EQ(PMCLOG_TYPE_CLOSELOG, TYPE(log_last(&lg)));
	free(lg.buf);
}

/* maps /proc/self/exe executable after the start, then exits */
static void map_fn(void *arg)
{
	int f = open("/proc/self/exe", O_RDONLY);
	void *m;

	if (f < 0)
		_exit(90);
	m = mmap(NULL, 8192, PROT_READ | PROT_EXEC, MAP_PRIVATE, f, 4096);
	if (m == MAP_FAILED)
		_exit(91);
	spin_ms(20);
	if (munmap(m, 8192))
		_exit(92);
}

/*
 * Child c runs fn(arg) under a process-sampling cpu-clock PMC whose log
 * goes to path; the log is closed and the PMC released after it, and lg
 * holds the log.  0, or the step that failed.
 */
static int sampled_child_log(int fd, const char *path, void (*fn)(void *),
			     void *arg, struct child *c, struct log *lg)
{
	int f = logfile(path), step = 0;
	__u32 id;

	if (f < 0 || (++step, configure(fd, f)))
		return step + 1;
	close(f);
	child_start(c, fn, arg);
	if ((++step, alloc(fd, PMC_MODE_TS, EV_SOFT(CPU_CLOCK), PMC_CPU_ANY,
			    0, MS, &id)) ||
	    (++step, attach(fd, id, c->pid)) ||
	    (++step, simple(fd, HWPMC_IOC_PMCSTART, id)))
		return step + 1;
	child_go(c);
	if ((++step, child_wait(c, NULL)) ||
	    (++step, xioctl(fd, HWPMC_IOC_CLOSELOG, NULL)) ||
	    (++step, simple(fd, HWPMC_IOC_PMCRELEASE, id)))
		return step + 1;
	log_load_file(lg, path);
	return 0;
}

/*
 * An executable mapping made after the attach is logged (MAP_IN), and
 * so is its munmap() (MAP_OUT of the same range, later).
 */
TEST_F(log, a_mapping_after_the_attach_is_logged)
{
	struct pmclog_map_out *mo;
	__u64 start = 0, end = 0;
	int unmapped = 0;
	struct pmclog_map_in *mi;
	struct pmclog_header *h;
	struct child c;
	struct log lg;
	size_t off;
	char exe[256];
	ssize_t n;
	int found = 0;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_LT(0, n);
	exe[n] = 0;
	ASSERT_EQ(0, sampled_child_log(self->fd, self->path, map_fn, NULL,
				       &c, &lg));
	for_each_record(&lg, h, off) {
		if (TYPE(h) == PMCLOG_TYPE_MAP_OUT && found) {
			mo = (void *)h;
			unmapped += mo->pl_pid == (__u32)c.pid &&
				    mo->pl_start == start && mo->pl_end == end;
		}
		if (TYPE(h) != PMCLOG_TYPE_MAP_IN)
			continue;
		mi = (void *)h;
		/* the new one: 8 KB at file offset 4096 */
		if (mi->pl_pid == c.pid && mi->pl_pgoff == 4096 &&
		    mi->pl_end - mi->pl_mapstart == 8192 &&
		    (mi->pl_prot & PROT_EXEC) &&
		    !strcmp(mi->pl_pathname, exe)) {
			found++;
			start = mi->pl_mapstart;
			end = mi->pl_end;
			/* a piece mapped alone is its own base */
			EXPECT_EQ(mi->pl_mapstart, mi->pl_start);
		}
	}
	EXPECT_EQ(0, lg.bad);
	EXPECT_EQ(1, found) TH_LOG("MAP_IN of %s at offset 4096", exe);
	EXPECT_EQ(1, unmapped) TH_LOG("MAP_OUT of it after");
	free(lg.buf);
}

/* maps /proc/self/exe executable, then maps it again over that, fixed */
static void map_fixed_fn(void *arg)
{
	int f = open("/proc/self/exe", O_RDONLY);
	void *m, *n;

	if (f < 0)
		_exit(90);
	m = mmap(NULL, 8192, PROT_READ | PROT_EXEC, MAP_PRIVATE, f, 4096);
	if (m == MAP_FAILED)
		_exit(91);
	spin_ms(10);
	n = mmap(m, 8192, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED, f, 0);
	if (n != m)
		_exit(92);
	spin_ms(10);
}

/*
 * An mmap(MAP_FIXED) over an executable mapping replaces it: MAP_OUT of
 * the old range between the old mapping's MAP_IN and the new one's, as
 * a munmap() would log it (6.12 unmaps the old one in mmap_region(), not
 * through its munmap entry).
 */
TEST_F(log, a_map_fixed_replacement_logs_map_out_then_map_in)
{
	struct pmclog_map_out *mo;
	struct pmclog_map_in *mi;
	struct pmclog_header *h;
	struct child c;
	struct log lg;
	__u64 start = 0;
	size_t off;
	char exe[256];
	ssize_t n;
	int step = 0;	/* 1: old MAP_IN seen, 2: MAP_OUT, 3: new MAP_IN */

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_LT(0, n);
	exe[n] = 0;
	/* a child's failed mmap() is its exit status, a failure here */
	ASSERT_EQ(0, sampled_child_log(self->fd, self->path, map_fixed_fn,
				       NULL, &c, &lg));
	for_each_record(&lg, h, off) {
		if (TYPE(h) == PMCLOG_TYPE_MAP_OUT && step == 1) {
			mo = (void *)h;
			if (mo->pl_pid == (__u32)c.pid && mo->pl_start == start &&
			    mo->pl_end == start + 8192)
				step = 2;
		}
		if (TYPE(h) != PMCLOG_TYPE_MAP_IN)
			continue;
		mi = (void *)h;
		if (mi->pl_pid != c.pid || strcmp(mi->pl_pathname, exe) ||
		    mi->pl_end - mi->pl_mapstart != 8192)
			continue;
		if (step == 0 && mi->pl_pgoff == 4096) {
			start = mi->pl_mapstart;
			step = 1;
		} else if (mi->pl_mapstart == start && mi->pl_pgoff == 0) {
			EXPECT_EQ(2, step) TH_LOG("the new MAP_IN after MAP_OUT");
			step = 3;
		}
	}
	EXPECT_EQ(0, lg.bad);
	EXPECT_EQ(3, step) TH_LOG("MAP_IN, MAP_OUT, MAP_IN: stopped at %d",
				  step);
	free(lg.buf);
}

/* JIT-like code: anonymous memory made executable two ways */
static void jit_fn(void *arg)
{
	unsigned long *where = arg;
	char *a, *b;

	/* a writable page each side: no neighbour to merge the code with */
	a = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	b = mmap(NULL, 4096, PROT_READ | PROT_EXEC,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED || b == MAP_FAILED)
		_exit(90);
	a += 4096;
	memset(a, 0, 8192);		/* "compiled" */
	if (mprotect(a, 8192, PROT_READ | PROT_EXEC))
		_exit(91);
	where[0] = (unsigned long)a;
	where[1] = (unsigned long)b;
	spin_ms(20);
}

/*
 * Executable anonymous memory, where JIT compilers put their code, is
 * logged as perf names it ("//anon", no file offset): made executable by
 * mprotect() or by mmap(); and the vDSO as "[vdso]" at the attach.
 */
TEST_F(log, anonymous_code_and_the_vdso_are_logged)
{
	unsigned long *where, vdso = getauxval(AT_SYSINFO_EHDR);
	struct pmclog_map_in *mi;
	struct pmclog_header *h;
	struct child c;
	struct log lg;
	size_t off;
	int a = 0, b = 0, v = 0;

	where = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, (void *)where);
	where[0] = where[1] = 0;
	ASSERT_EQ(0, sampled_child_log(self->fd, self->path, jit_fn, where,
				       &c, &lg));
	ASSERT_NE(0, where[0]);
	for_each_record(&lg, h, off) {
		if (TYPE(h) != PMCLOG_TYPE_MAP_IN)
			continue;
		mi = (void *)h;
		if (mi->pl_pid != c.pid)
			continue;
		if (mi->pl_start == where[0] && mi->pl_end == where[0] + 8192 &&
		    (mi->pl_prot & PROT_EXEC)) {
			a++;
			EXPECT_STREQ("//anon", mi->pl_pathname);
			EXPECT_EQ(0, mi->pl_pgoff);
			EXPECT_EQ(where[0], mi->pl_mapstart);
		}
		if (mi->pl_start == where[1] && mi->pl_end == where[1] + 4096) {
			b++;
			EXPECT_STREQ("//anon", mi->pl_pathname);
		}
		if (vdso && mi->pl_start == vdso) {
			v++;
			EXPECT_STREQ("[vdso]", mi->pl_pathname);
		}
	}
	EXPECT_EQ(0, lg.bad);
	EXPECT_EQ(1, a) TH_LOG("MAP_IN of the mprotect()ed range");
	EXPECT_EQ(1, b) TH_LOG("MAP_IN of the PROT_EXEC mapping");
	if (vdso)
		EXPECT_EQ(1, v) TH_LOG("MAP_IN of the vDSO at %#lx", vdso);
	free(lg.buf);
	munmap(where, 4096);
}

/*
 * CLOSELOG interrupted while a stuck reader holds it up: EINTR even for
 * an SA_RESTART handler, since the log is closed already (a restarted
 * call would find none: EINVAL).
 */
TEST_F(log, closelog_interrupted_is_eintr_not_restarted)
{
	struct sigaction sa = { .sa_handler = on_alarm,
				.sa_flags = SA_RESTART };
	int p[2], i, e;

	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, configure(self->fd, p[1]));
	close(p[1]);
	for (i = 0; i < 20000; i++)		/* more than a pipe holds */
		ASSERT_EQ(0, writelog(self->fd, i));
	sigaction(SIGALRM, &sa, NULL);
	alarm(1);
	e = xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL);
	alarm(0);
	EXPECT_EQ(EINTR, e);
	EXPECT_EQ(EINVAL, xioctl(self->fd, HWPMC_IOC_FLUSHLOG, NULL));
	close(p[0]);			/* the writer gives up: EPIPE */
}

TEST_F(log, sampling_needs_a_log)
{
	__u32 id;

	ASSERT_EQ(0, alloc(self->fd, PMC_MODE_TS, EV_SOFT(CPU_CLOCK),
			   PMC_CPU_ANY, 0, 10 * MS, &id));
	EXPECT_EQ(EDESTADDRREQ, simple(self->fd, HWPMC_IOC_PMCSTART, id));
	ASSERT_EQ(0, alloc(self->fd, PMC_MODE_SS, EV_SOFT(CPU_CLOCK), 0, 0,
			   10 * MS, NULL));
	/*
	 * user call chains are for sampling PMCs only; PMC_F_CALLCHAIN is
	 * accepted and does nothing in a counting mode, as on FreeBSD
	 */
	EXPECT_EQ(EINVAL, alloc(self->fd, PMC_MODE_TC, EV_SOFT(CPU_CLOCK),
				PMC_CPU_ANY, PMC_F_USERCALLCHAIN, 0, NULL));
	EXPECT_EQ(0, simple(self->fd, HWPMC_IOC_PMCRELEASE, id));
}

/* Is pc within the first len bytes of fn? */
static int within(__u64 pc, void (*fn)(unsigned long), size_t len)
{
	return pc >= (uintptr_t)fn && pc < (uintptr_t)fn + len;
}

/*
 * Process sampling of a child busy in hot() <- mid() <- top(): samples
 * are the child's, their count matches its CPU time over the period,
 * the call chains show the callers, the log maps the program.
 */
TEST_F(log, process_sampling_with_call_chains)
{
	const __u64 period = 2 * MS;
	struct pmclog_callchain *cc;
	struct pmclog_pmcallocatedyn *pa;
	struct pmclog_map_in *mi;
	struct pmclog_header *h;
	struct child c;
	struct rusage ru;
	struct log lg;
	size_t off;
	int samples = 0, inhot = 0, chained = 0, mapped = 0, other = 0;
	int f = logfile(self->path);
	double expect;
	__u32 id;

	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(self->fd, f));
	close(f);
	child_start(&c, busy_fn, (void *)600L);
	ASSERT_EQ(0, alloc(self->fd, PMC_MODE_TS, EV_SOFT(CPU_CLOCK),
			   PMC_CPU_ANY, PMC_F_CALLCHAIN, period, &id));
	ASSERT_EQ(0, attach(self->fd, id, c.pid));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));
	child_go(&c);
	ASSERT_EQ(0, child_wait(&c, &ru));
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
	EXPECT_EQ(0, simple(self->fd, HWPMC_IOC_PMCRELEASE, id));

	log_load_file(&lg, self->path);
	for_each_record(&lg, h, off) {
		switch (TYPE(h)) {
		case PMCLOG_TYPE_PMCALLOCATE:
			EXPECT_EQ(0, TYPE(h)) TH_LOG("PMCALLOCATE of a SOFT-class PMC");
			break;
		case PMCLOG_TYPE_PMCALLOCATEDYN:	/* SOFT class */
			pa = (void *)h;
			EXPECT_EQ(sizeof(*pa), LEN(h));
			EXPECT_EQ(id, pa->pl_pmcid);
			EXPECT_EQ(EV_SOFT(CPU_CLOCK), pa->pl_event);
			EXPECT_EQ(PMC_F_CALLCHAIN, pa->pl_flags);
			EXPECT_STREQ("cpu-clock", pa->pl_evname);
			EXPECT_EQ(period, pa->pl_rate);
			break;
		case PMCLOG_TYPE_MAP_IN:
			mi = (void *)h;
			if (mi->pl_pid == c.pid &&
			    (uintptr_t)hot >= mi->pl_mapstart &&
			    (uintptr_t)hot < mi->pl_end &&
			    (mi->pl_prot & PROT_EXEC))
				mapped++;
			break;
		case PMCLOG_TYPE_CALLCHAIN:
			cc = (void *)h;
			samples++;
			if (cc->pl_pid != (__u32)c.pid ||
			    cc->pl_tid != (__u32)c.pid || cc->pl_pmcid != id) {
				other++;
				break;
			}
			if (!(cc->pl_cpuflags & PMC_CC_F_USERSPACE) ||
			    !within(cc->pl_pc[0], hot, 256))
				break;
			inhot++;
			if ((LEN(h) - sizeof(*cc)) / 8 >= 3 &&
			    within(cc->pl_pc[1], mid, 64) &&
			    within(cc->pl_pc[2], top, 64))
				chained++;
			break;
		}
	}
	EXPECT_EQ(0, lg.bad);
	EXPECT_EQ(0, other);
	EXPECT_EQ(1, mapped) TH_LOG("MAP_IN of the program's text");
	/*
	 * hrtimer samples: at most one per period of CPU time (10%), and
	 * at least a quarter of them, as the clock test below explains
	 */
	expect = cputime(&ru) * 1e9 / period;
	EXPECT_LE(samples, expect * 1.10) TH_LOG("%d samples, %.0f expected",
						 samples, expect);
	EXPECT_GE(samples, expect / 4) TH_LOG("%d samples, %.0f expected",
					      samples, expect);
	TH_LOG("%d samples, %.0f periods of CPU time", samples, expect);
	EXPECT_GE(inhot, samples * 8 / 10) TH_LOG("%d of %d in hot()",
						  inhot, samples);
	EXPECT_GE(chained, inhot * 9 / 10) TH_LOG("%d of %d with callers",
						  chained, inhot);
	free(lg.buf);
}

static void syscall_fn(void *arg)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		syscall(SYS_getppid);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 +
		 (t.tv_nsec - t0.tv_nsec) / 1000000 < 400);
}

/* Samples in the kernel carry kernel frames, then the user frames. */
TEST_F(log, kernel_samples_have_kernel_then_user_frames)
{
	struct pmclog_callchain *cc;
	struct pmclog_header *h;
	struct child c;
	struct log lg;
	size_t off, n, i;
	int kernel = 0, withuser = 0, f = logfile(self->path);
	__u32 id;

	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(self->fd, f));
	close(f);
	child_start(&c, syscall_fn, NULL);
	ASSERT_EQ(0, alloc(self->fd, PMC_MODE_TS, EV_SOFT(CPU_CLOCK),
			   PMC_CPU_ANY, PMC_F_CALLCHAIN, MS, &id));
	ASSERT_EQ(0, attach(self->fd, id, c.pid));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));
	child_go(&c);
	ASSERT_EQ(0, child_wait(&c, NULL));
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
	log_load_file(&lg, self->path);
	for_each_record(&lg, h, off) {
		if (TYPE(h) != PMCLOG_TYPE_CALLCHAIN)
			continue;
		cc = (void *)h;
		if (cc->pl_cpuflags & PMC_CC_F_USERSPACE)
			continue;
		kernel++;
		n = (LEN(h) - sizeof(*cc)) / 8;
		if (!(cc->pl_cpuflags & PMC_CC_F_KERNEL_USER))
			continue;
		/* kernel addresses first, then one in our text */
		for (i = 0; i < n && (__s64)cc->pl_pc[i] < 0; i++)
			;
		if (i > 0 && i < n && cc->pl_pc[i] < (1ULL << 47))
			withuser++;
	}
	EXPECT_LT(0, kernel) TH_LOG("no kernel-mode samples");
	EXPECT_GE(withuser, kernel * 9 / 10) TH_LOG("%d of %d", withuser,
						    kernel);
	EXPECT_EQ(0, lg.bad);
	free(lg.buf);
}

/*
 * PMC_F_USERSTACK of size bytes (with PMC_F_CALLCHAIN) over a child busy
 * in hot(): the log of the run into lg.
 */
/*
 * busy_fn below a frame of 4 KB: every user stack, copied from the
 * sample's stack pointer up, is larger than a 1 KB log buffer (busy_fn
 * alone has so shallow a stack that its samples may all fit).
 */
static void deep_busy_fn(void *arg)
{
	volatile char pad[4096];

	pad[0] = 1;
	pad[sizeof(pad) - 1] = 1;
	busy_fn(arg);
	pad[1] = pad[0];	/* the frame lives across the call */
}

static void ustack_run(struct __test_metadata *_metadata, int fd,
		       const char *path, __u32 flags, __u32 size,
		       void (*fn)(void *), struct log *lg, __u32 *id)
{
	struct pmc_op_pmcallocate pa = {
		.pm_mode = PMC_MODE_TS, .pm_class = PMC_CLASS_SOFT,
		.pm_ev = EV_SOFT(CPU_CLOCK), .pm_cpu = PMC_CPU_ANY,
		.pm_flags = PMC_F_CALLCHAIN | flags, .pm_count = MS,
		.pm_stacksize = size,
	};
	struct child c;
	int f = logfile(path);

	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(fd, f));
	close(f);
	child_start(&c, fn, (void *)300L);
	ASSERT_EQ(0, pmcallocate(fd, &pa, id));
	ASSERT_EQ(0, attach(fd, *id, c.pid));
	ASSERT_EQ(0, simple(fd, HWPMC_IOC_PMCSTART, *id));
	child_go(&c);
	ASSERT_EQ(0, child_wait(&c, NULL));
	ASSERT_EQ(0, xioctl(fd, HWPMC_IOC_CLOSELOG, NULL));
	EXPECT_EQ(0, simple(fd, HWPMC_IOC_PMCRELEASE, *id));
	log_load_file(lg, path);
}

/*
 * PMC_F_USERSTACK: each sample in user mode is a USERSTACK, then its
 * CALLCHAIN; the registers are the sample's (its PC; a stack pointer
 * the stack is copied from), the stack no larger than asked, and the
 * stack holds the return address into mid() that hot()'s frame saved.
 */
TEST_F(log, user_stack_records_before_their_samples)
{
	const __u32 size = 4096;
	struct pmclog_userstack *us = NULL;
	struct pmclog_callchain *cc;
	struct pmclog_header *h;
	struct log lg;
	size_t off, i, words;
	int samples = 0, stacks = 0, paired = 0, inmid = 0, user = 0;
	int inhot = 0, samepc = 0;
	__u64 v;
	__u32 id;

	ustack_run(_metadata, self->fd, self->path, PMC_F_USERSTACK, size,
		   busy_fn, &lg, &id);
	for_each_record(&lg, h, off) {
		if (TYPE(h) == PMCLOG_TYPE_USERSTACK) {
			us = (void *)h;
			stacks++;
			EXPECT_EQ(id, us->pl_pmcid);
			EXPECT_EQ(size, us->pl_size);
			EXPECT_GE(size, us->pl_dynsize);
			EXPECT_EQ(0, us->pl_dynsize % 8);
#ifdef __x86_64__
			EXPECT_EQ(PMC_USTACK_ABI_X86_64, us->pl_abi);
			EXPECT_EQ(17, us->pl_nregs);
#elif defined(__aarch64__)
			EXPECT_EQ(PMC_USTACK_ABI_ARM64, us->pl_abi);
			EXPECT_EQ(33, us->pl_nregs);
#endif
			EXPECT_EQ(sizeof(*us) + us->pl_nregs * 8 +
				  us->pl_dynsize, LEN(h));
			continue;
		}
		if (TYPE(h) == PMCLOG_TYPE_CALLCHAIN) {
			cc = (void *)h;
			samples++;
			user += !!(cc->pl_cpuflags & PMC_CC_F_USERSPACE);
			if (us && us->pl_hdr.pl_time == cc->pl_hdr.pl_time &&
			    us->pl_pmcid == cc->pl_pmcid)
				paired++;
			if (us && us->pl_nregs &&
			    (cc->pl_cpuflags & PMC_CC_F_USERSPACE))
				samepc += us->pl_regs[us->pl_nregs - 1] ==
					  cc->pl_pc[0];
			if (us && within(cc->pl_pc[0], hot, 256)) {
				inhot++;
				words = us->pl_dynsize / 8;
				for (i = 0; i < words; i++) {
					v = us->pl_regs[us->pl_nregs + i];
					if (within(v, mid, 64))
						break;
				}
				inmid += i < words;
			}
		}
		us = NULL;	/* a USERSTACK goes with the record after it */
	}
	EXPECT_EQ(0, lg.bad);
	EXPECT_LT(0, samples);
	/* samples in user mode have one; in the kernel, those of syscalls */
	EXPECT_LE(user, stacks) TH_LOG("%d USERSTACKs, %d user samples",
				       stacks, user);
	EXPECT_EQ(stacks, paired) TH_LOG("%d of %d before their samples",
					 paired, stacks);
	EXPECT_EQ(user, samepc) TH_LOG("%d of %d user samples with their PC",
				       samepc, user);
	EXPECT_LT(0, inhot);
	EXPECT_GE(inmid, inhot * 8 / 10) TH_LOG("%d of %d with mid()'s return address",
					       inmid, inhot);
	TH_LOG("%d samples, %d USERSTACKs", samples, stacks);
	free(lg.buf);
}

static long module_param(const char *name)
{
	char path[128], buf[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/hwpmc/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return buf[0] ? strtol(buf, NULL, 10) : -1;
}

/*
 * A stack larger than a log buffer (tunable logbuffersize, in KB) is
 * lost, its sample logged without it; the driver statistic
 * pm_stacks_dropped counts each.  tunables.sh runs this with
 * logbuffersize=1, and the child spins below a 4 KB frame
 * (deep_busy_fn()): none fits.  (Spinning in busy_fn() alone, whose
 * stacks the stack's top cuts short, all 300 stacks fitted once on the
 * arm64 guest.)
 */
TEST_F(log, user_stacks_lost_are_counted)
{
	const __u32 size = 16384;
	struct pmc_op_getdriverstats st0, st1;
	struct pmclog_callchain *cc;
	struct pmclog_header *h;
	struct log lg;
	long kb = module_param("logbuffersize");
	int stacks = 0, lost = 0, big = 0;
	bool stacked = false;
	__u64 dropped;
	size_t off;
	__u32 id;

	if (kb != 1 || module_param("maxstackuser") < size)
		SKIP(return, "needs logbuffersize=1 and maxstackuser >= 16384 (tunables.sh loads them)");
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_GETDRIVERSTATS, &st0));
	ustack_run(_metadata, self->fd, self->path, PMC_F_USERSTACK, size,
		   deep_busy_fn, &lg, &id);
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_GETDRIVERSTATS, &st1));
	dropped = st1.pm_stacks_dropped - st0.pm_stacks_dropped;
	for_each_record(&lg, h, off) {
		if (TYPE(h) == PMCLOG_TYPE_USERSTACK) {
			stacks++;
			big += LEN(h) > 1024;
			stacked = true;
			continue;
		}
		if (TYPE(h) == PMCLOG_TYPE_CALLCHAIN) {
			cc = (void *)h;
			lost += (cc->pl_cpuflags & PMC_CC_F_USERSPACE) &&
				!stacked;
		}
		stacked = false;
	}
	EXPECT_EQ(0, lg.bad);
	EXPECT_EQ(0, big);
	/* user samples without their stack: the case under test */
	EXPECT_LT(0, lost) TH_LOG("%d stacks kept", stacks);
	/* each is counted (stacks lost in syscalls' samples too) */
	EXPECT_LE((__u64)lost, dropped)
		TH_LOG("%d user samples without a stack, %llu counted lost",
		       lost, (unsigned long long)dropped);
	TH_LOG("%d stacks kept, %d user samples without, %llu counted", stacks,
	       lost, (unsigned long long)dropped);
	free(lg.buf);
}

/* Without the flag no USERSTACK; the size is bounded by maxstackuser. */
TEST_F(log, user_stack_only_on_request_and_bounded)
{
	struct pmc_op_pmcallocate pa = {
		.pm_mode = PMC_MODE_TS, .pm_class = PMC_CLASS_SOFT,
		.pm_ev = EV_SOFT(CPU_CLOCK), .pm_cpu = PMC_CPU_ANY,
		.pm_flags = PMC_F_CALLCHAIN | PMC_F_USERSTACK, .pm_count = MS,
	};
	struct log lg;
	unsigned long max = 0;
	FILE *f;
	__u32 id;

	ustack_run(_metadata, self->fd, self->path, 0, 0, busy_fn, &lg, &id);
	EXPECT_EQ(0, lg.bad);
	EXPECT_LT(0, log_count(&lg, PMCLOG_TYPE_CALLCHAIN));
	EXPECT_EQ(0, log_count(&lg, PMCLOG_TYPE_USERSTACK));
	free(lg.buf);

	f = fopen("/sys/module/hwpmc/parameters/maxstackuser", "r");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, fscanf(f, "%lu", &max));
	fclose(f);
	ASSERT_LT(0, max);
	pa.pm_stacksize = max + 8;
	EXPECT_EQ(EINVAL, pmcallocate(self->fd, &pa, &id));
	pa.pm_stacksize = 0;
	EXPECT_EQ(EINVAL, pmcallocate(self->fd, &pa, &id));
	pa.pm_stacksize = 12;
	EXPECT_EQ(EINVAL, pmcallocate(self->fd, &pa, &id));
	pa.pm_stacksize = 8;
	pa.pm_flags = PMC_F_CALLCHAIN;		/* a size without the flag */
	EXPECT_EQ(EINVAL, pmcallocate(self->fd, &pa, &id));
	pa.pm_flags = PMC_F_USERSTACK;		/* counting: no */
	pa.pm_mode = PMC_MODE_TC;
	pa.pm_count = 0;
	EXPECT_EQ(EINVAL, pmcallocate(self->fd, &pa, &id));
	pa.pm_mode = PMC_MODE_TS;		/* the most: allowed */
	pa.pm_count = MS;
	pa.pm_stacksize = max;
	ASSERT_EQ(0, pmcallocate(self->fd, &pa, &id));
	EXPECT_EQ(0, simple(self->fd, HWPMC_IOC_PMCRELEASE, id));
}

/*
 * A 32-bit (compat) process's samples carry no USERSTACK (refused, as
 * hwpmc(4) says), whatever the flag: hwpmc_spin32, i386, on x86-64.
 */
TEST_F(log, user_stack_none_for_a_32_bit_process)
{
	struct pmc_op_pmcallocate pa = {
		.pm_mode = PMC_MODE_TS, .pm_class = PMC_CLASS_SOFT,
		.pm_ev = EV_SOFT(CPU_CLOCK), .pm_cpu = PMC_CPU_ANY,
		.pm_flags = PMC_F_CALLCHAIN | PMC_F_USERSTACK, .pm_count = MS,
		.pm_stacksize = 1024,
	};
	struct pmclog_callchain *cc;
	struct pmclog_header *h;
	struct log lg;
	struct child c;
	size_t off;
	char prog[256];
	int f, samples = 0, user = 0, stacks = 0;
	__u32 id;
	ssize_t n;

	n = readlink("/proc/self/exe", prog, sizeof(prog) - 20);
	ASSERT_LT(0, n);
	prog[n] = '\0';
	strcpy(strrchr(prog, '/') + 1, "hwpmc_spin32");
	if (access(prog, X_OK))
		SKIP(return, "no %s (x86-64 only)", prog);
	f = logfile(self->path);
	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(self->fd, f));
	close(f);
	c.pid = fork();
	if (!c.pid) {
		usleep(200000);
		execl(prog, prog, "0.3", (char *)NULL);
		_exit(127);
	}
	ASSERT_EQ(0, pmcallocate(self->fd, &pa, &id));
	ASSERT_EQ(0, attach(self->fd, id, c.pid));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));
	ASSERT_EQ(0, child_wait(&c, NULL));
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
	EXPECT_EQ(0, simple(self->fd, HWPMC_IOC_PMCRELEASE, id));
	log_load_file(&lg, self->path);
	for_each_record(&lg, h, off) {
		if (TYPE(h) == PMCLOG_TYPE_USERSTACK)
			stacks++;
		if (TYPE(h) != PMCLOG_TYPE_CALLCHAIN)
			continue;
		cc = (void *)h;
		samples++;
		/* a user PC below 4 GB: the i386 program running */
		user += (cc->pl_cpuflags & PMC_CC_F_USERSPACE) &&
			cc->pl_pc[0] < (1ULL << 32);
	}
	EXPECT_EQ(0, lg.bad);
	EXPECT_LT(0, user) TH_LOG("%d samples, none in the 32-bit program",
				  samples);
	/* before the exec, the 64-bit fork had its stacks: none after */
	EXPECT_GE(samples - user, stacks) TH_LOG("%d USERSTACKs, %d samples, %d in i386 code",
						 stacks, samples, user);
	free(lg.buf);
}

/* exec a program: PROCEXEC, then MAP_IN of the new image after it */
TEST_F(log, exec_logs_procexec_then_the_new_mappings)
{
	struct pmclog_procexec *px;
	struct pmclog_map_in *mi;
	struct pmclog_header *h;
	struct log lg;
	struct child c;
	size_t off;
	char prog[256];
	int f = logfile(self->path), seen_exec = 0, map_after = 0;
	int map_before = 0, vdso_after = 0, anon_after = 0;
	__u32 id;
	ssize_t n;

	n = readlink("/proc/self/exe", prog, sizeof(prog) - 20);
	ASSERT_LT(0, n);
	strcpy(strrchr(prog, '/') + 1, "hwpmc_touch");
	if (access(prog, X_OK))
		SKIP(return, "no %s", prog);
	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(self->fd, f));
	close(f);
	c.pid = fork();
	if (!c.pid) {
		usleep(200000);
		execl(prog, prog, "100", (char *)NULL);
		_exit(127);
	}
	ASSERT_EQ(0, alloc(self->fd, PMC_MODE_TS, EV_SOFT(CPU_CLOCK),
			   PMC_CPU_ANY, 0, MS, &id));
	ASSERT_EQ(0, attach(self->fd, id, c.pid));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));
	ASSERT_EQ(0, child_wait(&c, NULL));
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
	log_load_file(&lg, self->path);
	for_each_record(&lg, h, off) {
		if (TYPE(h) == PMCLOG_TYPE_PROCEXEC) {
			px = (void *)h;
			if (px->pl_pid == (__u32)c.pid &&
			    strstr(px->pl_pathname, "hwpmc_touch"))
				seen_exec++;
		}
		if (TYPE(h) == PMCLOG_TYPE_MAP_IN) {
			mi = (void *)h;
			if (mi->pl_pid == c.pid && seen_exec) {
				/* named so also when x86 maps it at exec */
				vdso_after += !strcmp(mi->pl_pathname, "[vdso]");
				anon_after += !strcmp(mi->pl_pathname, "//anon");
			}
			if (mi->pl_pid != c.pid ||
			    !strstr(mi->pl_pathname, "hwpmc_touch"))
				continue;
			if (seen_exec)
				map_after++;
			else
				map_before++;
		}
	}
	EXPECT_EQ(1, seen_exec);
	EXPECT_LE(1, map_after);
	EXPECT_EQ(0, map_before);
	if (getauxval(AT_SYSINFO_EHDR))
		EXPECT_LE(1, vdso_after) TH_LOG("MAP_IN [vdso] after the exec");
	EXPECT_EQ(0, anon_after) TH_LOG("a program with no JIT: no //anon");
	EXPECT_EQ(0, lg.bad);
	free(lg.buf);
}

/*
 * What the file of an ELF program says: its type, the page of its first
 * PT_LOAD segment and its PT_INTERP (empty when none); ELF64 and ELF32
 * of this machine's byte order.
 */
struct elf_facts {
	int type;
	__u64 first;
	char interp[256];
};

static int elf_facts(const char *path, struct elf_facts *ef)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	Elf32_Ehdr eh32;
	Elf32_Phdr ph32;
	int fd = open(path, O_RDONLY), i, seen = 0;

	memset(ef, 0, sizeof(*ef));
	if (fd < 0)
		return -1;
	if (pread(fd, &eh, sizeof(eh), 0) < (ssize_t)sizeof(eh32) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG))
		goto bad;
	if (eh.e_ident[EI_CLASS] == ELFCLASS32) {
		/* the 32-bit headers, widened */
		memcpy(&eh32, &eh, sizeof(eh32));
		eh.e_type = eh32.e_type;
		eh.e_phnum = eh32.e_phnum;
		eh.e_phoff = eh32.e_phoff;
		eh.e_phentsize = eh32.e_phentsize;
	} else if (eh.e_ident[EI_CLASS] != ELFCLASS64) {
		goto bad;
	}
	ef->type = eh.e_type;
	for (i = 0; i < eh.e_phnum; i++) {
		if (eh.e_ident[EI_CLASS] == ELFCLASS32) {
			if (pread(fd, &ph32, sizeof(ph32),
				  eh.e_phoff + i * eh.e_phentsize) != sizeof(ph32))
				goto bad;
			ph.p_type = ph32.p_type;
			ph.p_vaddr = ph32.p_vaddr;
			ph.p_offset = ph32.p_offset;
			ph.p_filesz = ph32.p_filesz;
		} else if (pread(fd, &ph, sizeof(ph),
				 eh.e_phoff + i * eh.e_phentsize) != sizeof(ph)) {
			goto bad;
		}
		if (ph.p_type == PT_LOAD && !seen++)
			ef->first = ph.p_vaddr & ~(__u64)(getpagesize() - 1);
		if (ph.p_type == PT_INTERP &&
		    (ph.p_filesz >= sizeof(ef->interp) ||
		     pread(fd, ef->interp, ph.p_filesz, ph.p_offset) !=
		     (ssize_t)ph.p_filesz))
			goto bad;
	}
	close(fd);
	return seen ? 0 : -1;
bad:
	close(fd);
	return -1;
}

/*
 * The lowest address where process pid maps the file at path (matched by
 * device and inode, whatever name the maps give it) from its start;
 * 0 when it does not.
 */
static __u64 map_base(pid_t pid, const char *path)
{
	unsigned long long lo, hi, off, ino, best = 0;
	unsigned int maj, mn;
	char name[64], line[512];
	struct stat st;
	FILE *f;

	if (stat(path, &st))
		return 0;
	snprintf(name, sizeof(name), "/proc/%d/maps", pid);
	f = fopen(name, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx %*s %llx %x:%x %llu", &lo, &hi,
			   &off, &maj, &mn, &ino) == 6 &&
		    off == 0 && ino == st.st_ino &&
		    makedev(maj, mn) == st.st_dev && (!best || lo < best))
			best = lo;
	fclose(f);
	return best;
}

static void spin_20(void *arg)
{
	spin_ms(20);
}

/*
 * MAP_IN's pl_start is FreeBSD's: the object's base, the start of its
 * file's first mapping (where its offset 0 is), from which FreeBSD's
 * readers place it with its program headers; not the start of the
 * executable mapping, which a separate-code layout (GNU ld's -z
 * separate-code, lld's default) puts a page or more above.  The child
 * is a fork of this process: its files are where they are here.
 */
TEST_F(log, map_in_gives_the_object_base)
{
	struct pmclog_map_in *mi;
	struct pmclog_header *h;
	struct child c;
	struct log lg;
	size_t off;
	int files = 0, above = 0;
	__u64 base;

	ASSERT_EQ(0, sampled_child_log(self->fd, self->path, spin_20, NULL,
				       &c, &lg));
	for_each_record(&lg, h, off) {
		if (TYPE(h) != PMCLOG_TYPE_MAP_IN)
			continue;
		mi = (void *)h;
		if (mi->pl_pid != c.pid || mi->pl_pathname[0] != '/')
			continue;
		base = map_base(getpid(), mi->pl_pathname);
		if (!base)
			continue;	/* mapped here from elsewhere */
		files++;
		above += mi->pl_mapstart > mi->pl_start;
		EXPECT_EQ(base, mi->pl_start)
			TH_LOG("%s: base %#llx, MAP_IN's %#llx", mi->pl_pathname,
			       (unsigned long long)base,
			       (unsigned long long)mi->pl_start);
		EXPECT_LE(mi->pl_start, mi->pl_mapstart);
		EXPECT_LT(mi->pl_mapstart, mi->pl_end);
	}
	EXPECT_EQ(0, lg.bad);
	/* a static program (the arm64 guest's) has no libraries */
	EXPECT_LE(getauxval(AT_BASE) ? 2 : 1, files)
		TH_LOG("this program and its libraries");
	TH_LOG("%d of %d objects have their code above their base", above,
	       files);
	free(lg.buf);
}

/*
 * Exec prog in a child stopped by ptrace at its first instruction, with a
 * sampling PMC attached before: the PROCEXEC's addresses are FreeBSD's
 * (pl_dynaddr the executable's relocation, pl_baseaddr its dynamic
 * linker's base or, without one, pl_dynaddr), checked against where the
 * child's maps put the files, with the files' own first segments.
 */
static void exec_addrs_check(struct __test_metadata *_metadata, int fd,
			     const char *logpath, const char *prog,
			     __u64 *dynaddr)
{
	struct pmclog_procexec *px;
	struct pmclog_header *h;
	struct elf_facts ef, ief;
	__u64 want_dyn = 0, want_base, exe, ld;
	const char *name = strrchr(prog, '/') + 1;
	struct log lg;
	int f = logfile(logpath), st, seen = 0;
	size_t off;
	pid_t pid;
	__u32 id;

	ASSERT_EQ(0, elf_facts(prog, &ef)) TH_LOG("%s: not an ELF file", prog);
	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(fd, f));
	close(f);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		execl(prog, prog, "1", (char *)NULL);
		_exit(127);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP);
	ASSERT_EQ(0, alloc(fd, PMC_MODE_TS, EV_SOFT(CPU_CLOCK), PMC_CPU_ANY, 0,
			   MS, &id));
	ASSERT_EQ(0, attach(fd, id, pid));
	ASSERT_EQ(0, simple(fd, HWPMC_IOC_PMCSTART, id));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	/* stopped after the exec, before its first instruction */
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP)
		TH_LOG("status 0x%x", st);
	exe = map_base(pid, prog);
	ld = ef.interp[0] ? map_base(pid, ef.interp) : 0;
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_EQ(0, xioctl(fd, HWPMC_IOC_CLOSELOG, NULL));

	ASSERT_NE(0, exe) TH_LOG("%s not in the child's maps", prog);
	if (ef.type == ET_DYN)
		want_dyn = exe - ef.first;
	else
		ASSERT_EQ(ef.first, exe);
	want_base = want_dyn;
	if (ef.interp[0]) {
		ASSERT_EQ(0, elf_facts(ef.interp, &ief));
		ASSERT_NE(0, ld) TH_LOG("%s not in the child's maps", ef.interp);
		want_base = ld - ief.first;
	}
	log_load_file(&lg, logpath);
	for_each_record(&lg, h, off) {
		if (TYPE(h) != PMCLOG_TYPE_PROCEXEC)
			continue;
		px = (void *)h;
		if (px->pl_pid != (__u32)pid || !strstr(px->pl_pathname, name))
			continue;
		seen++;
		EXPECT_EQ(want_dyn, px->pl_dynaddr)
			TH_LOG("%s: dynaddr 0x%llx, mapped at 0x%llx", prog,
			       (unsigned long long)px->pl_dynaddr,
			       (unsigned long long)exe);
		EXPECT_EQ(want_base, px->pl_baseaddr)
			TH_LOG("%s: baseaddr 0x%llx, %s at 0x%llx", prog,
			       (unsigned long long)px->pl_baseaddr,
			       ef.interp[0] ? ef.interp : "(no interpreter)",
			       (unsigned long long)ld);
		EXPECT_EQ(px->pl_base, px->pl_baseaddr);	/* old name */
	}
	EXPECT_EQ(1, seen);
	EXPECT_EQ(0, lg.bad);
	free(lg.buf);
	if (dynaddr)
		*dynaddr = want_dyn;
}

/* next to this test, or the empty string */
static void sibling(char *buf, size_t len, const char *name)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 64);

	if (n <= 0 || !memchr(buf, '/', n)) {
		buf[0] = 0;
		return;
	}
	buf[n] = 0;
	strcpy(strrchr(buf, '/') + 1, name);
	if (access(buf, X_OK))
		buf[0] = 0;
}

/* a dynamically linked PIE: relocated, its dynamic linker elsewhere */
TEST_F(log, exec_of_a_pie_logs_where_it_and_its_linker_are)
{
	struct elf_facts ef;
	char prog[256];
	__u64 dyn = 0;

	sibling(prog, sizeof(prog), "hwpmc_touch");
	if (!prog[0] || elf_facts(prog, &ef) || ef.type != ET_DYN ||
	    !ef.interp[0])
		SKIP(return, "no dynamically linked PIE hwpmc_touch");
	exec_addrs_check(_metadata, self->fd, self->path, prog, &dyn);
	EXPECT_NE(0, dyn) TH_LOG("a PIE at its link-time addresses?");
}

/* a static PIE: relocated, and its own base is the base (no linker) */
TEST_F(log, exec_of_a_static_pie_logs_its_relocation_twice)
{
	struct elf_facts ef;
	char prog[256];
	__u64 dyn = 0;

	sibling(prog, sizeof(prog), "hwpmc_touch_spie");
	if (!prog[0] || elf_facts(prog, &ef) || ef.type != ET_DYN ||
	    ef.interp[0])
		SKIP(return, "no static-pie hwpmc_touch_spie");
	exec_addrs_check(_metadata, self->fd, self->path, prog, &dyn);
	EXPECT_NE(0, dyn);
}

/*
 * an i386 static PIE: the addresses from a compat task's auxiliary
 * vector (32-bit words), relocated below 4 GB
 */
TEST_F(log, exec_of_a_32bit_static_pie_logs_its_relocation)
{
	struct elf_facts ef;
	char prog[256];
	__u64 dyn = 0;

	sibling(prog, sizeof(prog), "hwpmc_touch_spie32");
	if (!prog[0] || elf_facts(prog, &ef) || ef.type != ET_DYN ||
	    ef.interp[0])
		SKIP(return, "no i386 static-pie hwpmc_touch_spie32");
	exec_addrs_check(_metadata, self->fd, self->path, prog, &dyn);
	EXPECT_NE(0, dyn);
	EXPECT_GT(1ULL << 32, dyn);
}

/* a static non-PIE program (the guest's busybox): 0 and 0 */
TEST_F(log, exec_of_a_static_program_logs_no_relocation)
{
	const char *prog = "/bin/busybox";
	struct elf_facts ef;

	if (elf_facts(prog, &ef) || ef.type != ET_EXEC || ef.interp[0])
		SKIP(return, "no static ET_EXEC %s", prog);
	exec_addrs_check(_metadata, self->fd, self->path, prog, NULL);
}

/* the child: nobody, exec the set-user-ID root program arg */
static void setid_exec_fn(void *arg)
{
	const char *prog = arg;

	if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
		_exit(98);
	execl(prog, prog, "1", (char *)NULL);
	_exit(127);
}

/*
 * A target execs a set-user-ID root program (suid_dumpable 0, where perf
 * ends its counters at the exec, and 1, where it does not): the owner's
 * log has its PROCEXEC, without addresses, and no MAP_IN of the image:
 * the owner could not read the program's maps.
 */
TEST_F(log, exec_of_a_setuid_program_logs_no_addresses)
{
	struct pmclog_procexec *px;
	struct pmclog_map_in *mi;
	struct pmclog_header *h;
	char src[256], prog[64], old[8] = "0\n", cp[4096];
	const char *name;
	struct log lg;
	struct child c;
	int in, out, sd, f, seen, maps;
	ssize_t n;
	size_t off;
	FILE *fsd;
	__u32 id;

	sibling(src, sizeof(src), "hwpmc_touch");
	if (!src[0])
		SKIP(return, "no hwpmc_touch");
	snprintf(prog, sizeof(prog), "/tmp/hwpmc-setid.%d", getpid());
	name = strrchr(prog, '/') + 1;
	in = open(src, O_RDONLY);
	ASSERT_LE(0, in);
	out = open(prog, O_WRONLY | O_CREAT | O_TRUNC, 0700);
	ASSERT_LE(0, out);
	while ((n = read(in, cp, sizeof(cp))) > 0)
		ASSERT_EQ(n, write(out, cp, n));
	close(in);
	ASSERT_EQ(0, close(out));
	ASSERT_EQ(0, chown(prog, 0, 0));
	ASSERT_EQ(0, chmod(prog, 04755));
	fsd = fopen("/proc/sys/fs/suid_dumpable", "r");
	if (fsd) {
		if (!fgets(old, sizeof(old), fsd))
			strcpy(old, "0\n");
		fclose(fsd);
	}
	for (sd = 0; sd < 2; sd++) {
		fsd = fopen("/proc/sys/fs/suid_dumpable", "w");
		ASSERT_NE(NULL, fsd);
		fprintf(fsd, "%d\n", sd);
		ASSERT_EQ(0, fclose(fsd));
		f = logfile(self->path);
		ASSERT_LE(0, f);
		ASSERT_EQ(0, configure(self->fd, f));
		close(f);
		child_start(&c, setid_exec_fn, prog);
		ASSERT_EQ(0, alloc(self->fd, PMC_MODE_TS, EV_SOFT(CPU_CLOCK),
				   PMC_CPU_ANY, 0, MS, &id));
		ASSERT_EQ(0, attach(self->fd, id, c.pid));
		ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));
		child_go(&c);
		EXPECT_EQ(0, child_wait(&c, NULL));
		ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
		log_load_file(&lg, self->path);
		seen = maps = 0;
		for_each_record(&lg, h, off) {
			if (TYPE(h) == PMCLOG_TYPE_PROCEXEC) {
				px = (void *)h;
				if (px->pl_pid != (__u32)c.pid ||
				    !strstr(px->pl_pathname, name))
					continue;
				seen++;
				EXPECT_EQ(0, px->pl_baseaddr)
					TH_LOG("suid_dumpable=%d", sd);
				EXPECT_EQ(0, px->pl_dynaddr)
					TH_LOG("suid_dumpable=%d", sd);
			}
			if (TYPE(h) == PMCLOG_TYPE_MAP_IN) {
				mi = (void *)h;
				if (mi->pl_pid == c.pid &&
				    strstr(mi->pl_pathname, name))
					maps++;
			}
		}
		EXPECT_EQ(1, seen) TH_LOG("suid_dumpable=%d", sd);
		EXPECT_EQ(0, maps) TH_LOG("suid_dumpable=%d", sd);
		EXPECT_EQ(0, lg.bad);
		free(lg.buf);
		EXPECT_EQ(0, simple(self->fd, HWPMC_IOC_PMCRELEASE, id));
	}
	fsd = fopen("/proc/sys/fs/suid_dumpable", "w");
	if (fsd) {
		fputs(old, fsd);
		fclose(fsd);
	}
	unlink(prog);
}

/* a fork tree touching pages; each process logs its own count */
static void tree_fn(void *arg)
{
	long pages = (long)arg;
	char *m;
	int i;

	for (i = 0; i < 3; i++) {
		if (!fork()) {
			m = mmap(NULL, pages * 4096, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			for (long j = 0; j < pages * (i + 1); j += 1)
				m[(j % pages) * 4096] = 1;
			_exit(0);
		}
	}
	while (wait(NULL) > 0)
		;
}

TEST_F(log, procexit_values_of_a_tree_sum_to_the_total)
{
	struct pmclog_procexit *px;
	struct pmclog_procfork *pf;
	struct pmclog_header *h;
	struct child c;
	struct log lg;
	size_t off;
	__u64 sum = 0, total;
	int n = 0, forks = 0, f = logfile(self->path);
	__u32 id;

	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(self->fd, f));
	close(f);
	child_start(&c, tree_fn, (void *)200L);
	ASSERT_EQ(0, alloc(self->fd, PMC_MODE_TC, EV_SOFT(PAGE_FAULTS),
			   PMC_CPU_ANY,
			   PMC_F_DESCENDANTS | PMC_F_LOG_PROCEXIT, 0, &id));
	ASSERT_EQ(0, attach(self->fd, id, c.pid));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));
	child_go(&c);
	ASSERT_EQ(0, child_wait(&c, NULL));
	usleep(100000);		/* exit records are written from a worker */
	total = value(self->fd, id);
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
	log_load_file(&lg, self->path);
	for_each_record(&lg, h, off) {
		if (TYPE(h) == PMCLOG_TYPE_PROCFORK) {
			pf = (void *)h;
			forks += pf->pl_oldpid == (__u32)c.pid;
		}
		if (TYPE(h) != PMCLOG_TYPE_PROCEXIT)
			continue;
		px = (void *)h;
		EXPECT_EQ(id, px->pl_pmcid);
		if (px->pl_pid != (__u32)c.pid)
			EXPECT_LE(200, px->pl_value);	/* pages touched */
		sum += px->pl_value;
		n++;
	}
	EXPECT_EQ(4, n);
	EXPECT_EQ(3, forks);
	EXPECT_EQ(total, sum);
	EXPECT_EQ(0, lg.bad);
	free(lg.buf);
}

/*
 * exit_group() of a process of 8 running threads: they reach the exit
 * hooks in any order, several of them after the last one has left the
 * process's live count; still exactly one PROCEXIT, with the whole
 * count, and one SYSEXIT (the review's M6).  Repeated, as the order is a race; the
 * threads' own file tables make the window wide.
 */
static int group_ready;

static void *spin_forever(void *arg)
{
	int i;

	/*
	 * a file table of its own, full: closing it at exit holds the
	 * thread between the live count and the exit hooks for a while
	 */
	(void)arg;
	if (!unshare(CLONE_FILES))
		for (i = 0; i < 4000 && dup(0) >= 0; i++)
			;
	__atomic_add_fetch(&group_ready, 1, __ATOMIC_SEQ_CST);
	for (;;)
		__asm__ __volatile__("" ::: "memory");
	return NULL;
}

static void group_fn(void *arg)
{
	pthread_t t;
	int i;

	struct rlimit rl = { 4096, 4096 };
	cpu_set_t one;

	/* a large address space: the thread that drops it last is slow */
	if (!fresh_pages(8192, 4096))
		_exit(97);
	/*
	 * all on one CPU, each with thousands of descriptors to close after
	 * leaving the live count: closing them yields (cond_resched()) to
	 * the others, which leave it meanwhile
	 */
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (setrlimit(RLIMIT_NOFILE, &rl) ||
	    sched_setaffinity(0, sizeof(one), &one))
		_exit(96);
	for (i = 0; i < (int)(long)arg; i++)
		if (pthread_create(&t, NULL, spin_forever, NULL))
			_exit(98);
	while (__atomic_load_n(&group_ready, __ATOMIC_SEQ_CST) < i)
		sched_yield();
	_exit(0);			/* exit_group() */
}

/*
 * mode: TC, whose PROCEXIT is the PMC's count; or TS (a period of 1 s:
 * no samples to speak of), whose PROCEXIT sums what the threads'
 * counters counted: task-clock, against the process's CPU time from
 * wait4() (which has also the time after perf's counters end in
 * do_exit(), the slow file tables and address space here).
 */
static void procexit_rounds(struct __test_metadata *_metadata, int fd,
			    const char *path, __u32 mode)
{
	enum { ROUNDS = 12, THREADS = 8 };
	struct pmclog_procexit *px;
	struct pmclog_sysexit *se;
	struct pmclog_header *h;
	__u32 id[ROUNDS], sid;
	__u64 total[ROUNDS], sum[ROUNDS] = { 0 };
	int n[ROUNDS] = { 0 }, sx[ROUNDS] = { 0 }, f = logfile(path);
	pid_t pid[ROUNDS];
	int r, bad = 0;
	struct rusage ru;
	struct child c;
	struct log lg;
	size_t off;
	bool ok;

	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(fd, f));
	close(f);
	/* a system sampler: its log gets SYSEXIT for every process */
	ASSERT_EQ(0, alloc(fd, PMC_MODE_SS, EV_SOFT(CPU_CLOCK), 0, 0,
			   100 * MS, &sid));
	ASSERT_EQ(0, simple(fd, HWPMC_IOC_PMCSTART, sid));
	for (r = 0; r < ROUNDS; r++) {
		child_start(&c, group_fn, (void *)(long)(THREADS - 1));
		ASSERT_EQ(0, alloc(fd, mode, EV_SOFT(TASK_CLOCK),
				   PMC_CPU_ANY, PMC_F_LOG_PROCEXIT,
				   mode == PMC_MODE_TS ? 1000 * MS : 0,
				   &id[r]));
		ASSERT_EQ(0, attach(fd, id[r], c.pid));
		ASSERT_EQ(0, simple(fd, HWPMC_IOC_PMCSTART, id[r]));
		child_go(&c);
		pid[r] = c.pid;
		ASSERT_EQ(0, child_wait(&c, &ru));
		total[r] = mode == PMC_MODE_TC ? value(fd, id[r]) :
			   (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ULL +
			   (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
	}
	ASSERT_EQ(0, simple(fd, HWPMC_IOC_PMCSTOP, sid));
	ASSERT_EQ(0, xioctl(fd, HWPMC_IOC_CLOSELOG, NULL));
	log_load_file(&lg, path);
	for_each_record(&lg, h, off) {
		if (TYPE(h) == PMCLOG_TYPE_SYSEXIT) {
			se = (void *)h;
			for (r = 0; r < ROUNDS; r++)
				sx[r] += se->pl_pid == (__u32)pid[r];
		}
		if (TYPE(h) != PMCLOG_TYPE_PROCEXIT)
			continue;
		px = (void *)h;
		for (r = 0; r < ROUNDS; r++)
			if (px->pl_pmcid == id[r]) {
				n[r]++;
				sum[r] += px->pl_value;
			}
	}
	for (r = 0; r < ROUNDS; r++) {
		ok = mode == PMC_MODE_TC ? sum[r] == total[r] :
		     sum[r] >= total[r] / 2 &&
		     sum[r] <= total[r] + total[r] / 20 + 20 * MS;
		if (r == 0)
			TH_LOG("round 0: %d PROCEXIT, %llu; %llu; %d SYSEXIT", n[r],
			       (unsigned long long)sum[r],
			       (unsigned long long)total[r], sx[r]);
		if (n[r] == 1 && ok && sx[r] == 1)
			continue;
		bad++;
		TH_LOG("round %d: %d PROCEXIT records, values %llu, %s %llu; %d SYSEXIT",
		       r, n[r], (unsigned long long)sum[r],
		       mode == PMC_MODE_TC ? "count" : "CPU time (ns)",
		       (unsigned long long)total[r], sx[r]);
	}
	EXPECT_EQ(0, bad);
	EXPECT_EQ(0, lg.bad);
	free(lg.buf);
	for (r = 0; r < ROUNDS; r++)
		EXPECT_EQ(0, simple(fd, HWPMC_IOC_PMCRELEASE, id[r]));
	EXPECT_EQ(0, simple(fd, HWPMC_IOC_PMCRELEASE, sid));
}

TEST_F(log, one_procexit_when_threads_exit_together)
{
	procexit_rounds(_metadata, self->fd, self->path, PMC_MODE_TC);
}

/* The same of a sampling PMC (hwpmc(4) BUGS had it split in two). */
TEST_F(log, one_sampling_procexit_when_threads_exit_together)
{
	procexit_rounds(_metadata, self->fd, self->path, PMC_MODE_TS);
}

/* born_fork()'s functions: busy once orphaned; busy 600 ms (and reap) */
static void child_orphan_spins(pid_t root)
{
	while (getppid() == root)
		usleep(1000);	/* until the root is gone */
	spin_ms(300);
}

static void child_spins_600(pid_t root)
{
	(void)root;
	spin_ms(600);
}

static void root_spins_and_reaps(pid_t child)
{
	spin_ms(600);
	waitpid(child, NULL, 0);
}

/*
 * A sampling PMC with PMC_F_DESCENDANTS goes on sampling a child after
 * the root target exits (the review's H3): the child, an orphan taken
 * by this process as subreaper, busy 300 ms after its parent is gone,
 * gives about 150 samples at 2 ms.
 */
TEST_F(log, descendants_sampled_after_the_root_exits)
{
	struct pmclog_callchain *cc;
	struct pmclog_header *h;
	int f = logfile(self->path), st, mine = 0;
	pid_t root, child;
	struct born b;
	struct log lg;
	size_t off;
	__u32 id;

	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(self->fd, f));
	close(f);
	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1));
	ASSERT_EQ(0, born_fork(&b, NULL, child_orphan_spins));
	root = b.root;
	ASSERT_EQ(0, alloc(self->fd, PMC_MODE_TS, EV_SOFT(CPU_CLOCK),
			   PMC_CPU_ANY, PMC_F_DESCENDANTS, 2 * MS, &id));
	ASSERT_EQ(0, attach(self->fd, id, root));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));
	child = born_go(&b);
	ASSERT_LT(0, child);
	ASSERT_EQ(root, waitpid(root, &st, 0));
	ASSERT_EQ(child, waitpid(child, &st, 0));	/* ours, as subreaper */
	ASSERT_EQ(0, st);
	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 0));
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
	log_load_file(&lg, self->path);
	for_each_record(&lg, h, off) {
		if (TYPE(h) != PMCLOG_TYPE_CALLCHAIN)
			continue;
		cc = (void *)h;
		mine += cc->pl_pid == (__u32)child;
	}
	EXPECT_LE(60, mine);
	EXPECT_EQ(0, lg.bad);
	free(lg.buf);
	EXPECT_EQ(0, simple(self->fd, HWPMC_IOC_PMCRELEASE, id));
	born_end(&b);
}

/*
 * A child born of a DESCENDANTS target of a sampling PMC is a target of
 * its own (FreeBSD's semantics): detached alone, it is sampled no more
 * from the detach on, while its parent goes on being sampled.
 */
TEST_F(log, descendants_born_child_detached_alone)
{
	struct pmclog_callchain *cc;
	struct pmclog_header *h;
	int child_before = 0, child_after = 0, root_after = 0;
	int f = logfile(self->path);
	pid_t root, child;
	struct timespec ts;
	struct born b;
	__u64 t_detach;
	struct log lg;
	size_t off;
	__u32 id;

	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(self->fd, f));
	close(f);
	ASSERT_EQ(0, born_fork(&b, root_spins_and_reaps, child_spins_600));
	root = b.root;
	ASSERT_EQ(0, alloc(self->fd, PMC_MODE_TS, EV_SOFT(CPU_CLOCK),
			   PMC_CPU_ANY, PMC_F_DESCENDANTS, 2 * MS, &id));
	ASSERT_EQ(0, attach(self->fd, id, root));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));
	child = born_go(&b);	/* in user space: a target already */
	ASSERT_LT(0, child);
	usleep(200000);
	ASSERT_EQ(0, detach(self->fd, id, child));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t_detach = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	ASSERT_EQ(root, waitpid(root, NULL, 0));
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
	log_load_file(&lg, self->path);
	for_each_record(&lg, h, off) {
		if (TYPE(h) != PMCLOG_TYPE_CALLCHAIN)
			continue;
		cc = (void *)h;
		if (cc->pl_pid == (__u32)child && h->pl_time < t_detach)
			child_before++;
		else if (cc->pl_pid == (__u32)child)
			child_after++;
		else if (cc->pl_pid == (__u32)root && h->pl_time > t_detach)
			root_after++;
	}
	TH_LOG("child: %d samples before its detach, %d after; root: %d after",
	       child_before, child_after, root_after);
	EXPECT_LE(20, child_before);
	EXPECT_EQ(0, child_after);
	EXPECT_LE(20, root_after);
	EXPECT_EQ(0, lg.bad);
	free(lg.buf);
	EXPECT_EQ(0, simple(self->fd, HWPMC_IOC_PMCRELEASE, id));
	born_end(&b);
}

/*
 * A sampling attach counts each thread once, also threads cloned while
 * the attach lists the process (the review's H4): 200 sleeping threads
 * make the attach long, a thread that has its counter already clones
 * workers all along it, and each worker then burns 5 ms of CPU.  The
 * PMC's cpu-clock count may not exceed the process's CPU time.
 */
static int h4_cmd[2];			/* parent -> child: 'a', 'd', 'g' */
static int h4_go[2];			/* child -> its workers: a byte each */

static void *h4_sleeper(void *arg)
{
	char x;

	(void)arg;
	if (read(h4_cmd[0] + 1000, &x, 1) < 0)	/* a closed fd: EBADF */
		pause();
	return NULL;
}

static void *h4_worker(void *arg)
{
	struct timespec t0, t;

	char x;

	(void)arg;
	if (read(h4_go[0], &x, 1) != 1)
		return NULL;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 +
		 (t.tv_nsec - t0.tv_nsec) / 1000000 < 5);
	return NULL;
}

static void h4_child(int ready)
{
	static pthread_t w[1024];
	pthread_t t;
	int i, n = 0, fl;
	char x;

	/* no orphan if the test dies: 1200 threads would stay */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (pipe(h4_go))
		_exit(94);
	for (i = 0; i < 200; i++)
		if (pthread_create(&t, NULL, h4_sleeper, NULL))
			_exit(93);
	if (write(ready, "r", 1) != 1 || read(h4_cmd[0], &x, 1) != 1 ||
	    x != 'a')
		_exit(92);
	fl = fcntl(h4_cmd[0], F_GETFL);
	fcntl(h4_cmd[0], F_SETFL, fl | O_NONBLOCK);
	/* clone workers until the attach has returned */
	while (n < 1024) {
		if (pthread_create(&w[n], NULL, h4_worker, NULL))
			_exit(91);
		n++;
		if (read(h4_cmd[0], &x, 1) == 1)
			break;
	}
	fcntl(h4_cmd[0], F_SETFL, fl);
	do			/* 'd', unless it came in the loop, then 'g' */
		if (read(h4_cmd[0], &x, 1) != 1)
			_exit(90);
	while (x != 'g');
	for (i = 0; i < n; i++)
		if (write(h4_go[1], "g", 1) != 1)
			_exit(89);
	for (i = 0; i < n; i++)
		pthread_join(w[i], NULL);
	_exit(0);
}

TEST_F(log, sampling_attach_counts_threads_cloned_meanwhile_once)
{
	int ready[2], st, f = logfile(self->path);
	struct rusage ru;
	double cpu, v;
	pid_t pid;
	__u32 id;
	char x;

	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(self->fd, f));
	close(f);
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(h4_cmd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		h4_child(ready[1]);
	ASSERT_EQ(1, read(ready[0], &x, 1));
	ASSERT_EQ(0, alloc(self->fd, PMC_MODE_TS, EV_SOFT(CPU_CLOCK),
			   PMC_CPU_ANY, 0, 10 * MS, &id));
	ASSERT_EQ(1, write(h4_cmd[1], "a", 1));
	ASSERT_EQ(0, attach(self->fd, id, pid));
	ASSERT_EQ(1, write(h4_cmd[1], "d", 1));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));
	ASSERT_EQ(1, write(h4_cmd[1], "g", 1));
	ASSERT_EQ(pid, wait4(pid, &st, 0, &ru));
	ASSERT_EQ(0, st);
	usleep(100000);		/* the target leaves in a worker */
	v = (double)value(self->fd, id);
	cpu = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9 +
	      (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3;
	TH_LOG("cpu-clock %.0f ns, process CPU time %.0f ns", v, cpu);
	/* (less: the process's time before the attach is not counted) */
	EXPECT_GT(1.1 * cpu + 20e6, v);
	EXPECT_EQ(0, simple(self->fd, HWPMC_IOC_PMCRELEASE, id));
}

/*
 * A sampling PMC takes one sample per period of events: the samples
 * logged and the events it counted agree to a sample or two (the
 * period in flight at the end, a sample taken as the child exits), and
 * for the clock events to pct percent: their hrtimer is forwarded from
 * the time it fired, so each late interrupt (frequent under TCG) moves
 * the next sample later, as with perf record.
 */
/* touches (long)arg fresh pages: one page fault each */
static void fault_fn(void *arg)
{
	long i, n = (long)arg;
	volatile char *m = fresh_pages(n, 4096);	/* a fault a page */

	if (!m)
		_exit(98);
	for (i = 0; i < n; i++)
		m[i * 4096] = 1;
}

/*
 * Samples a child with a process-scope sampling PMC of period @period and
 * returns the number of samples logged; *total is what the PMC counted.
 */
static int sample_child(struct __test_metadata *_metadata, int fd,
			const char *path, __u32 cl, __u32 ev, __u64 period,
			void (*fn)(void *), void *arg, __u64 *total)
{
	struct pmc_op_getdriverstats st0, st1;
	struct pmclog_header *h;
	struct child c;
	struct log lg;
	size_t off;
	int samples = 0, e, f = logfile(path);
	__u32 id = 0;	/* a failed allocation leaves it */

	EXPECT_LE(0, f);
	if (f < 0)
		return -1;
	EXPECT_EQ(0, configure(fd, f));
	close(f);
	EXPECT_EQ(0, xioctl(fd, HWPMC_IOC_GETDRIVERSTATS, &st0));
	child_start(&c, fn, arg);
	e = alloc_cl(fd, cl, PMC_MODE_TS, ev, PMC_CPU_ANY, 0, period, &id);
	EXPECT_EQ(0, e);
	EXPECT_EQ(0, attach(fd, id, c.pid));
	EXPECT_EQ(0, simple(fd, HWPMC_IOC_PMCSTART, id));
	child_go(&c);
	EXPECT_EQ(0, child_wait(&c, NULL));
	*total = value(fd, id);
	EXPECT_EQ(0, xioctl(fd, HWPMC_IOC_CLOSELOG, NULL));
	EXPECT_EQ(0, xioctl(fd, HWPMC_IOC_GETDRIVERSTATS, &st1));
	EXPECT_EQ(0, simple(fd, HWPMC_IOC_PMCRELEASE, id));
	log_load_file(&lg, path);
	for_each_record(&lg, h, off)
		samples += TYPE(h) == PMCLOG_TYPE_CALLCHAIN;
	free(lg.buf);
	TH_LOG("%d samples, %llu events, period %llu; interrupts %llu, ignored %llu, ring full %llu",
	       samples, (unsigned long long)*total,
	       (unsigned long long)period,
	       (unsigned long long)(st1.pm_intr_processed - st0.pm_intr_processed),
	       (unsigned long long)(st1.pm_intr_ignored - st0.pm_intr_ignored),
	       (unsigned long long)(st1.pm_intr_bufferfull - st0.pm_intr_bufferfull));
	return samples;
}

/*
 * A counted event interrupts once per period: the samples logged are the
 * periods counted, give or take the one in progress at each end.
 */
static void sample_vs_count(struct __test_metadata *_metadata, int fd,
			    const char *path, __u32 cl, __u32 ev,
			    __u64 period, void (*fn)(void *), void *arg)
{
	__u64 total;
	int samples = sample_child(_metadata, fd, path, cl, ev, period, fn,
				   arg, &total);

	EXPECT_LE(total / period, (__u64)samples + 2);
	EXPECT_GE(total / period + 2, (__u64)samples);
	EXPECT_LT(50, samples);
}

TEST_F(log, soft_sampling_one_sample_per_period)
{
	int old = read_param("mincount");

	/*
	 * Page faults are counted events: exact, as for hardware events.
	 * A period below the default mincount (1000) keeps the run short.
	 */
	ASSERT_LT(0, old);
	ASSERT_EQ(0, write_param_int("mincount", 10));
	sample_vs_count(_metadata, self->fd, self->path, PMC_CLASS_SOFT,
			EV_SOFT(PAGE_FAULTS), 20, fault_fn, (void *)4000L);
	EXPECT_EQ(0, write_param_int("mincount", old));
}

/*
 * The clocks sample from an hrtimer.  In the emulated guests, clock
 * interrupts go missing when the host is loaded: never more samples
 * than periods counted, but fewer (measured with the host at load 5:
 * 110 to 130 interrupts for 301 periods, every one of them logged, none
 * dropped by the module).  So at least a quarter of the periods must be
 * sampled, not all; the exact one-per-period checks are on counted
 * events above and on the arm64 PMU below.
 */
TEST_F(log, clock_sampling_at_most_one_sample_per_period)
{
	__u64 total;
	int samples = sample_child(_metadata, self->fd, self->path,
				   PMC_CLASS_SOFT, EV_SOFT(TASK_CLOCK), MS,
				   busy_fn, (void *)300L, &total);

	EXPECT_GE(total / MS + 2, (__u64)samples);
	/*
	 * The debug kernel's guest (KASAN, lockdep, one TCG thread) fires
	 * its hrtimers so late that fewer than a quarter of the periods are seen.
	 */
	if (getenv("HWPMC_SLOW_GUEST")) {
		TH_LOG("slow guest: %d samples of %llu periods, lower bound not checked",
		       samples, (unsigned long long)(total / MS));
		return;
	}
	EXPECT_LE(total / MS / 4, (__u64)samples);
	EXPECT_LT(50, samples);
}

TEST_F(log, pmu_sampling_one_sample_per_period)
{
	struct pmc_op_caps cp = {
		.pm_pmcid = PMC_ID_INVALID, .pm_class = PMC_CLASS_PMU,
		.pm_ev = PMC_EV_PMU_HW_FIRST + PERF_COUNT_HW_INSTRUCTIONS,
	};

	if (xioctl(self->fd, HWPMC_IOC_GETCAPS, &cp) ||
	    !(cp.pm_caps & PMC_CAP_INTERRUPT))
		SKIP(return, "no hardware PMU with a sampling instructions event");
	sample_vs_count(_metadata, self->fd, self->path, PMC_CLASS_PMU,
			cp.pm_ev, 1000000, busy_fn, (void *)300L);
}

/* two threads of a child ping-pong over pipes, touching pages */
static void pingpong_fn(void *arg)
{
	int a[2], b[2], i;
	char c = 0, *m;

	if (pipe(a) || pipe(b))
		_exit(98);
	m = mmap(NULL, 400 * 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!fork()) {
		for (i = 0; i < 200; i++) {
			if (read(a[0], &c, 1) != 1 || write(b[1], &c, 1) != 1)
				_exit(97);
			m[i * 4096] = 1;
		}
		_exit(0);
	}
	for (i = 0; i < 200; i++) {
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			_exit(96);
		m[(200 + i) * 4096] = 1;
	}
	wait(NULL);
}

/*
 * LOG_PROCCSW: one record per time slice of each thread of the targets,
 * whose values sum to what the PMC counted.
 */
TEST_F(log, proccsw_deltas_sum_to_the_total)
{
	struct pmclog_proccsw *cw;
	struct pmclog_header *h;
	struct child c;
	struct log lg;
	size_t off;
	__u64 sum = 0, total;
	int n = 0, f = logfile(self->path);
	__u32 id;

	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(self->fd, f));
	close(f);
	child_start(&c, pingpong_fn, NULL);
	ASSERT_EQ(0, alloc(self->fd, PMC_MODE_TC, EV_SOFT(PAGE_FAULTS),
			   PMC_CPU_ANY, PMC_F_DESCENDANTS | PMC_F_LOG_PROCCSW,
			   0, &id));
	ASSERT_EQ(0, attach(self->fd, id, c.pid));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));
	child_go(&c);
	ASSERT_EQ(0, child_wait(&c, NULL));
	total = value(self->fd, id);
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
	EXPECT_EQ(0, simple(self->fd, HWPMC_IOC_PMCRELEASE, id));
	log_load_file(&lg, self->path);
	for_each_record(&lg, h, off) {
		if (TYPE(h) != PMCLOG_TYPE_PROCCSW)
			continue;
		cw = (void *)h;
		EXPECT_EQ(id, cw->pl_pmcid);
		EXPECT_EQ(cw->pl_pid, cw->pl_tid);	/* one thread each */
		sum += cw->pl_value;
		n++;
	}
	EXPECT_LE(400, total);			/* pages touched */
	EXPECT_EQ(total, sum);
	/* each round trip blocks the parent at least once */
	EXPECT_LE(200, n) TH_LOG("%d slices", n);
	EXPECT_EQ(0, lg.bad);
	free(lg.buf);
}

/*
 * LOG_PROCCSW of a sampling PMC: one record per time slice of each
 * thread of its targets (a descendant born meanwhile included), with
 * what the thread's counter counted in it, from the thread's record as
 * for counting PMCs; per process they sum to its PROCEXIT.
 */
TEST_F(log, sampling_proccsw_deltas_sum_to_procexit)
{
	struct pmclog_procexit *px;
	struct pmclog_proccsw *cw;
	struct pmclog_header *h;
	struct child c;
	struct log lg;
	size_t off;
	__u64 csw = 0, exits = 0;
	int n = 0, np = 0, f = logfile(self->path);
	__u32 id;

	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(self->fd, f));
	close(f);
	child_start(&c, pingpong_fn, NULL);
	/* a period no run reaches: slices, no samples */
	ASSERT_EQ(0, alloc(self->fd, PMC_MODE_TS, EV_SOFT(PAGE_FAULTS),
			   PMC_CPU_ANY, PMC_F_DESCENDANTS | PMC_F_LOG_PROCCSW |
			   PMC_F_LOG_PROCEXIT, 1000000000, &id));
	ASSERT_EQ(0, attach(self->fd, id, c.pid));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));
	child_go(&c);
	ASSERT_EQ(0, child_wait(&c, NULL));
	usleep(200000);		/* exit records are written from a worker */
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
	EXPECT_EQ(0, simple(self->fd, HWPMC_IOC_PMCRELEASE, id));
	log_load_file(&lg, self->path);
	for_each_record(&lg, h, off) {
		if (TYPE(h) == PMCLOG_TYPE_PROCCSW) {
			cw = (void *)h;
			EXPECT_EQ(id, cw->pl_pmcid);
			csw += cw->pl_value;
			n++;
		} else if (TYPE(h) == PMCLOG_TYPE_PROCEXIT) {
			px = (void *)h;
			EXPECT_EQ(id, px->pl_pmcid);
			exits += px->pl_value;
			np++;
		}
	}
	TH_LOG("%d slices, %llu page faults; %d PROCEXIT, %llu", n,
	       (unsigned long long)csw, np, (unsigned long long)exits);
	EXPECT_LE(400, csw);			/* pages touched */
	EXPECT_EQ(exits, csw);
	EXPECT_EQ(2, np);			/* the child and its child */
	EXPECT_LE(200, n);
	EXPECT_EQ(0, lg.bad);
	free(lg.buf);
}

/* System sampling on CPU 0 sees a child busy there, and its maps. */
TEST_F(log, system_sampling_sees_a_busy_process)
{
	struct pmclog_callchain *cc;
	struct pmclog_sysexit *se;
	struct pmclog_map_in *mi;
	struct pmclog_header *h;
	struct child c;
	struct log lg;
	cpu_set_t set;
	size_t off;
	int samples = 0, mine = 0, maps = 0, exits = 0;
	int f = logfile(self->path);
	__u32 id;

	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(self->fd, f));
	close(f);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	child_start(&c, busy_fn, (void *)400L);
	ASSERT_EQ(0, sched_setaffinity(c.pid, sizeof(set), &set));
	ASSERT_EQ(0, alloc(self->fd, PMC_MODE_SS, EV_SOFT(CPU_CLOCK), 0, 0,
			   2 * MS, &id));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));
	child_go(&c);
	ASSERT_EQ(0, child_wait(&c, NULL));
	usleep(100000);
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTOP, id));
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
	log_load_file(&lg, self->path);
	for_each_record(&lg, h, off) {
		switch (TYPE(h)) {
		case PMCLOG_TYPE_CALLCHAIN:
			cc = (void *)h;
			samples++;
			EXPECT_EQ(0, PMC_CALLCHAIN_CPUFLAGS_TO_CPU(
					     cc->pl_cpuflags));
			mine += cc->pl_pid == (__u32)c.pid;
			break;
		case PMCLOG_TYPE_MAP_IN:
			mi = (void *)h;
			maps += mi->pl_pid == c.pid &&
				(uintptr_t)hot >= mi->pl_mapstart &&
				(uintptr_t)hot < mi->pl_end;
			break;
		case PMCLOG_TYPE_SYSEXIT:
			se = (void *)h;
			exits += se->pl_pid == (__u32)c.pid;
			break;
		}
	}
	/* 400 ms busy at 2 ms: about 200 samples of it, whatever else ran */
	EXPECT_LE(100, mine) TH_LOG("%d of %d samples", mine, samples);
	EXPECT_EQ(1, maps);
	EXPECT_EQ(1, exits);
	EXPECT_EQ(0, lg.bad);
	free(lg.buf);
}

/* the kid's second thread: says who it is */
static void *named_thread_fn(void *arg)
{
	*(volatile pid_t *)arg = (pid_t)syscall(SYS_gettid);
	return NULL;
}

/*
 * A system sampler's log names processes and threads, as FreeBSD's:
 * PROC_CREATE and THR_CREATE for those alive at the start, then for new
 * ones at their fork or clone, and THR_EXIT when a thread exits.
 */
/*
 * The address of a function of module mod, from /proc/kallsyms, or 0:
 * none, or the addresses hidden from us.
 */
static __u64 kallsyms_of(const char *mod)
{
	unsigned long long a, found = 0;
	char line[512], type, m[80];
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %*s [%79[^]]]", &a, &type, m) == 3 &&
		    (type == 't' || type == 'T') && !strcmp(m, mod))
			found = a;
	fclose(f);
	return found;
}

/*
 * A system sampler of an owner who may see kernel addresses (root, this
 * test) gets FreeBSD's MAP_IN of pid -1 for the kernel ("[kernel]": its
 * base, its text's start) and for each module ("[name]", its code), so
 * that a reader can place kernel samples: hwpmc's own code holds its
 * functions, where kallsyms names the list of modules (else hwpmc is
 * told only of the modules loaded after it).  (Who may not:
 * hwpmc_security_test.)
 */
TEST_F(log, system_sampler_gets_the_kernel_and_its_modules)
{
	__u64 fn = kallsyms_of("hwpmc");
	struct pmclog_map_in *mi;
	struct pmclog_header *h;
	struct log lg;
	size_t off;
	int f = logfile(self->path), kernel = 0, hwpmc = 0, other = 0;
	__u32 id;

	if (!fn)
		SKIP(return, "/proc/kallsyms hides the addresses from us");
	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(self->fd, f));
	close(f);
	ASSERT_EQ(0, alloc(self->fd, PMC_MODE_SS, EV_SOFT(CPU_CLOCK), 0, 0,
			   1000 * MS, &id));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTOP, id));
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
	log_load_file(&lg, self->path);
	for_each_record(&lg, h, off) {
		if (TYPE(h) != PMCLOG_TYPE_MAP_IN)
			continue;
		mi = (void *)h;
		if (mi->pl_pid != -1)
			continue;
		EXPECT_EQ(PROT_READ | PROT_EXEC, mi->pl_prot);
		EXPECT_LE(mi->pl_start, mi->pl_mapstart);
		if (!strcmp(mi->pl_pathname, "[kernel]")) {
			kernel++;
			EXPECT_LT(0x8000000000000000ULL, mi->pl_start);
			TH_LOG("[kernel] at %#llx, text from %#llx",
			       (unsigned long long)mi->pl_start,
			       (unsigned long long)mi->pl_mapstart);
		} else if (!strcmp(mi->pl_pathname, "[hwpmc]")) {
			hwpmc++;
			EXPECT_LE(mi->pl_mapstart, fn);
			EXPECT_LT(fn, mi->pl_end);
		} else {
			other++;
			EXPECT_EQ('[', mi->pl_pathname[0]);
		}
	}
	EXPECT_EQ(0, lg.bad);
	EXPECT_EQ(1, kernel) TH_LOG("MAP_IN of [kernel]");
	/* hwpmc itself: only where the list of modules was found */
	EXPECT_EQ(kallsyms_names_modules_list(), hwpmc)
		TH_LOG("MAP_IN of [hwpmc] around %#llx",
		       (unsigned long long)fn);
	TH_LOG("%d other modules", other);
	free(lg.buf);
}

TEST_F(log, system_sampler_gets_process_and_thread_names)
{
	struct pmclog_proc_create *pc;
	struct pmclog_thr_create *tc;
	struct pmclog_thr_exit *te;
	struct pmclog_header *h;
	struct log lg;
	size_t off;
	char comm[16] = "";
	pid_t kid, me = getpid(), tme = (pid_t)syscall(SYS_gettid);
	volatile pid_t *tid2;
	int st, self_pc = 0, self_tc = 0, kid_pc = 0, kid_tc = 0;
	int thr_tc = 0, thr_te = 0, kid_te = 0, order_ok = 1;
	int f = logfile(self->path);
	__u32 id;

	ASSERT_EQ(0, prctl(PR_GET_NAME, comm));
	tid2 = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, (void *)tid2);
	*tid2 = 0;
	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(self->fd, f));
	close(f);
	/* a long period: this is about the names, not the samples */
	ASSERT_EQ(0, alloc(self->fd, PMC_MODE_SS, EV_SOFT(CPU_CLOCK), 0, 0,
			   1000 * MS, &id));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));
	kid = fork();
	ASSERT_LE(0, kid);
	if (!kid) {
		pthread_t t;

		prctl(PR_SET_NAME, "hwpmc-kid");
		if (pthread_create(&t, NULL, named_thread_fn, (void *)tid2))
			_exit(1);
		pthread_join(t, NULL);
		_exit(0);
	}
	ASSERT_EQ(kid, waitpid(kid, &st, 0));
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ASSERT_NE(0, *tid2);
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTOP, id));
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
	log_load_file(&lg, self->path);
	for_each_record(&lg, h, off) {
		switch (TYPE(h)) {
		case PMCLOG_TYPE_PROC_CREATE:
			pc = (void *)h;
			if (pc->pl_pid == (__u32)me) {
				self_pc++;
				EXPECT_STREQ(comm, pc->pl_pcomm);
			}
			if (pc->pl_pid == (__u32)kid) {
				kid_pc++;
				/* named at the fork: the parent's name */
				EXPECT_STREQ(comm, pc->pl_pcomm);
			}
			break;
		case PMCLOG_TYPE_THR_CREATE:
			tc = (void *)h;
			if (tc->pl_tid == (__u32)tme) {
				self_tc++;
				EXPECT_EQ((__u32)me, tc->pl_pid);
			}
			if (tc->pl_tid == (__u32)kid) {
				kid_tc++;
				EXPECT_EQ((__u32)kid, tc->pl_pid);
			}
			if (tc->pl_tid == (__u32)*tid2) {
				thr_tc++;
				EXPECT_EQ((__u32)kid, tc->pl_pid);
				/* a thread is born with its creator's name */
				EXPECT_STREQ("hwpmc-kid", tc->pl_tdname);
			}
			break;
		case PMCLOG_TYPE_THR_EXIT:
			te = (void *)h;
			if (te->pl_tid == (__u32)*tid2) {
				thr_te++;
				order_ok &= thr_tc == 1;
			}
			if (te->pl_tid == (__u32)kid) {
				kid_te++;
				order_ok &= kid_tc == 1 && thr_te == 1;
			}
			break;
		}
	}
	EXPECT_EQ(1, self_pc);
	EXPECT_EQ(1, self_tc);
	EXPECT_EQ(1, kid_pc);
	EXPECT_EQ(1, kid_tc);
	EXPECT_EQ(1, thr_tc);
	EXPECT_EQ(1, thr_te);
	EXPECT_EQ(1, kid_te);
	EXPECT_TRUE(order_ok);
	EXPECT_EQ(0, lg.bad);
	free(lg.buf);
	munmap((void *)tid2, 4096);
}

/* -- stress ----------------------------------------------------------------- */

/* a short-lived process: faults pages, sometimes forks one more */
static void stress_one(unsigned int seed)
{
	long pages = 20 + seed % 80, i;
	char *m = fresh_pages(pages, 4096);

	if (!m)
		_exit(80);
	if (seed % 3 == 0 && !fork()) {
		for (i = 0; i < 10; i++)
			m[i * 4096] = 2;
		_exit(0);
	}
	for (i = 0; i < pages; i++)
		m[i * 4096] = 1;
	spin_ms(seed % 4);
	while (wait(NULL) > 0)
		;
	_exit(0);
}

/*
 * Processes for (long)arg seconds, 8 at a time, and on until at least
 * as many were made as the test wants to see exit (a slow or busy host
 * makes fewer a second), for at most six times as long.
 */
static void stress_fn(void *arg)
{
	double start = now(), end = start + (long)arg;
	double cap = start + 6 * (long)arg;
	unsigned int n = 0, want = getenv("HWPMC_SLOW_GUEST") ? 60 : 240;
	int live = 0;

	while ((now() < end || n < want) && now() < cap) {
		if (!fork())
			stress_one(n * 2654435761u >> 7);
		n++;
		if (++live == 8 && wait(NULL) > 0)
			live--;
	}
	while (wait(NULL) > 0)
		;
}

static __u64 bufferfull(int fd)
{
	struct pmc_op_getdriverstats st;

	return xioctl(fd, HWPMC_IOC_GETDRIVERSTATS, &st) ? ~0ULL :
	       st.pm_intr_bufferfull;
}

/*
 * Stress: hundreds of short-lived processes (forks of forks) under a
 * counting PMC with DESCENDANTS and LOG_PROCEXIT and a sampling PMC with
 * DESCENDANTS and call chains, for HWPMC_STRESS_SECS seconds (default
 * 10; the documented long run is 1800).  Every count is conserved: the
 * PROCEXIT values sum to the counting PMC's total; no sample or record
 * is dropped without a statistic or a DROPNOTIFY saying so.
 */
TEST_F_TIMEOUT(log, stress_counts_conserved_across_short_lived_processes,
	       3700)
{
	const char *env = getenv("HWPMC_STRESS_SECS");
	long secs = env ? atol(env) : 10;
	struct pmclog_procexit *px;
	struct pmclog_dropnotify *dn;
	struct pmclog_header *h;
	struct child c;
	struct log lg;
	size_t off;
	__u64 sum = 0, total, full0, full1, dropped = 0;
	int exits = 0, samples = 0, f = logfile(self->path);
	__u32 cid, sid;

	ASSERT_LT(0, secs);
	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(self->fd, f));
	close(f);
	full0 = bufferfull(self->fd);
	child_start(&c, stress_fn, (void *)secs);
	ASSERT_EQ(0, alloc(self->fd, PMC_MODE_TC, EV_SOFT(PAGE_FAULTS),
			   PMC_CPU_ANY,
			   PMC_F_DESCENDANTS | PMC_F_LOG_PROCEXIT, 0, &cid));
	ASSERT_EQ(0, alloc(self->fd, PMC_MODE_TS, EV_SOFT(TASK_CLOCK),
			   PMC_CPU_ANY, PMC_F_DESCENDANTS | PMC_F_CALLCHAIN,
			   MS, &sid));
	ASSERT_EQ(0, attach(self->fd, cid, c.pid));
	ASSERT_EQ(0, attach(self->fd, sid, c.pid));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, cid));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, sid));
	child_go(&c);
	ASSERT_EQ(0, child_wait(&c, NULL));
	usleep(200000);		/* exit records are written from a worker */
	total = value(self->fd, cid);
	full1 = bufferfull(self->fd);
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
	log_load_file(&lg, self->path);
	for_each_record(&lg, h, off) {
		switch (TYPE(h)) {
		case PMCLOG_TYPE_PROCEXIT:
			px = (void *)h;
			EXPECT_EQ(cid, px->pl_pmcid);
			sum += px->pl_value;
			exits++;
			break;
		case PMCLOG_TYPE_CALLCHAIN:
			samples++;
			break;
		case PMCLOG_TYPE_DROPNOTIFY:
			dn = (void *)h;
			dropped += dn->pl_dropped;
			break;
		}
	}
	TH_LOG("%ld s: %d process exits, %llu page faults, %d samples, %llu samples and %llu records dropped",
	       secs, exits, (unsigned long long)total, samples,
	       (unsigned long long)(full1 - full0),
	       (unsigned long long)dropped);
	EXPECT_EQ(0, lg.bad);
	/*
	 * the debug kernel forks far more slowly: fewer processes there;
	 * stress_fn() makes at least this many (and a third more children)
	 */
	EXPECT_LE(getenv("HWPMC_SLOW_GUEST") ? 50 : 200, exits);
	EXPECT_LT(0, samples);
	/* conserved, unless records were dropped (and announced) */
	if (!dropped)
		EXPECT_EQ(total, sum);
	/* at these rates and default sizes, nothing is dropped at all */
	EXPECT_EQ(0, dropped);
	EXPECT_EQ(full0, full1);
	EXPECT_EQ(0, simple(self->fd, HWPMC_IOC_PMCRELEASE, cid));
	EXPECT_EQ(0, simple(self->fd, HWPMC_IOC_PMCRELEASE, sid));
	free(lg.buf);
}

/* -- thread scope ---------------------------------------------------------- */

struct tsib {
	int go[2];
	long pages;
	pid_t tid;
};

static void *tsib_fn(void *arg)
{
	struct tsib *t = arg;
	long pg = sysconf(_SC_PAGESIZE), i;
	char c, *m;

	__atomic_store_n(&t->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	if (read(t->go[0], &c, 1) != 1)
		return NULL;
	m = fresh_pages(t->pages, pg);
	if (!m)
		return NULL;
	for (i = 0; i < t->pages; i++)
		m[i * pg] = 1;
	munmap(m, t->pages * pg);
	return NULL;
}

/*
 * A thread-scope PMC (PMC_F_THREAD) with LOG_PROCEXIT on a sibling
 * thread: the sibling's exit is its target's exit, logged as a process
 * exit (PROCEXIT, pl_pid the process) with what the thread counted, at
 * once, while the process goes on; the caller's own faults, before and
 * after, are in no record.
 */
TEST_F(log, thread_scope_procexit_at_the_thread_exit)
{
	struct pmclog_procexit *px;
	struct pmclog_header *h;
	struct tsib t = { .pages = 1000 };
	long pg = sysconf(_SC_PAGESIZE), i;
	pthread_t th;
	char *m;
	struct log lg;
	size_t off;
	int np = 0, f = logfile(self->path);
	__u64 v = 0, val = 0;
	__u32 id;

	ASSERT_LE(0, f);
	ASSERT_EQ(0, configure(self->fd, f));
	close(f);
	ASSERT_EQ(0, pipe(t.go));
	ASSERT_EQ(0, pthread_create(&th, NULL, tsib_fn, &t));
	while (!__atomic_load_n(&t.tid, __ATOMIC_ACQUIRE))
		usleep(1000);
	ASSERT_EQ(0, alloc(self->fd, PMC_MODE_TC, EV_SOFT(PAGE_FAULTS),
			   PMC_CPU_ANY, PMC_F_THREAD | PMC_F_LOG_PROCEXIT, 0,
			   &id));
	ASSERT_EQ(0, attach(self->fd, id, t.tid));
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTART, id));
	m = fresh_pages(500, pg);
	ASSERT_NE(NULL, m);
	for (i = 0; i < 500; i++)	/* the caller's faults */
		m[i * pg] = 1;
	ASSERT_EQ(1, write(t.go[1], "g", 1));
	pthread_join(th, NULL);
	usleep(200000);		/* the lifecycle work */
	ASSERT_EQ(0, simple(self->fd, HWPMC_IOC_PMCSTOP, id));
	ASSERT_EQ(0, rw(self->fd, id, PMC_F_OLDVALUE, &v));
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_FLUSHLOG, NULL));
	ASSERT_EQ(0, xioctl(self->fd, HWPMC_IOC_CLOSELOG, NULL));
	EXPECT_EQ(0, simple(self->fd, HWPMC_IOC_PMCRELEASE, id));
	log_load_file(&lg, self->path);
	for_each_record(&lg, h, off) {
		if (TYPE(h) != PMCLOG_TYPE_PROCEXIT)
			continue;
		px = (void *)h;
		EXPECT_EQ(id, px->pl_pmcid);
		EXPECT_EQ((__u32)getpid(), px->pl_pid);
		val = px->pl_value;
		np++;
	}
	TH_LOG("%d PROCEXIT, %llu page faults; the PMC %llu", np,
	       (unsigned long long)val, (unsigned long long)v);
	EXPECT_EQ(1, np);
	EXPECT_LE(1000, val);
	EXPECT_GT(1100, val);
	EXPECT_EQ(val, v);
	EXPECT_EQ(0, lg.bad);
	free(lg.buf);
	close(t.go[0]);
	close(t.go[1]);
}

TEST_HARNESS_MAIN
