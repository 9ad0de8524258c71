// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat's run: the command started (held until its PMCs run) or
 * -t's processes attached to, the PMCs started, then waiting for the end
 * (the targets' exit, a signal, -l's time, q in -T), with a row every -w
 * and -T's screens; then the totals, the reports, and the exit status.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pmcstat_stat.h"

/* One run's state, from its start to its end. */
struct run {
	struct stat_run	*st;		/* the plan, the PMCs */
	struct opts	*o;		/* &st->o */
	struct targets	*tg;		/* &st->tg */
	struct sampling	*s;
	FILE		*out;
	struct pollfd	*pfds;		/* the targets' pidfds */
	int		polling;	/* a target without one */
	int		go[2];		/* the command waits on go[0] */
	sigset_t	orig;		/* the signal mask before the run */
	struct top	*tp;		/* -T */
	int		expired;	/* -l's time is up */
	int		status, status_known;	/* the command's */
};

/*
 * The signal handler's: it takes no argument, so these two are file-scope
 * (and no other file's): the end asked for, and the command it passes
 * SIGINT and SIGTERM on to.
 */
static volatile sig_atomic_t interrupted;
static pid_t child = -1;

static void on_signal(int sig)
{
	interrupted = 1;
	if (child > 0)
		kill(child, sig);
}

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A descriptor that polls readable when pid has exited, or -1. */
static int pid_fd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

/* Has the process pid (not our child) ended?  Zombies have. */
static int gone(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	int dead;

	if (kill(pid, 0) < 0 && errno == ESRCH)
		return 1;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	dead = fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) &&
	       (p[2] == 'Z' || p[2] == 'X');
	fclose(f);
	return dead;
}

static void give_up(pid_t kid)
{
	if (kid > 0) {
		kill(kid, SIGKILL);
		waitpid(kid, NULL, 0);
	}
	exit(1);
}

/*
 * Attach the process-mode PMCs to the command, or to each process of -t:
 * one that a regular expression found may have ended since (skipped).
 * The number of processes attached to, or -1 (the reason told).
 */
static int attach_targets(const struct stat_run *st, struct targets *t)
{
	const struct ctr *ctrs = st->ctrs;
	int i, j, n = 0;

	for (j = 0; j < t->n; j++) {
		for (i = 0; i < st->nctr; i++) {
			if (PMC_IS_SYSTEM_MODE(ctrs[i].mode) ||
			    !pmc_attach(ctrs[i].id, t->pid[j]))
				continue;
			if (t->matched[j] && errno == ESRCH) {
				if (verbose)
					fprintf(stderr, "%s: pid %d ended before it was attached to\n",
						prog, (int)t->pid[j]);
				t->pid[j] = 0;
				break;
			}
			fprintf(stderr, "%s: cannot attach to pid %d: %s%s\n",
				prog, (int)t->pid[j], strerror(errno),
				errno == EPERM ?
				" (need the same user, or CAP_SYS_PTRACE)" :
				errno == ENOSPC ?
				" (the PMC has the module's max_targets processes)" : "");
			return -1;
		}
		n += t->pid[j] > 0;
	}
	return n;
}

/* Where the counts go: -o's file, else stderr (stdout with reports). */
static int run_open_out(struct run *r)
{
	const struct opts *o = r->o;

	r->out = stderr;
	if (o->outfile) {
		r->out = fopen(o->outfile, "we");
		if (!r->out) {
			fprintf(stderr, "%s: %s: %s\n", prog, o->outfile,
				strerror(errno));
			return -1;
		}
	} else if (opts_sampling(o)) {
		r->out = stdout;	/* reports; counts too, then */
	}
	/*
	 * -w: rows of text on a terminal at most once a second, which a
	 * person can read (so are -T's screens); --csv, --json, files and
	 * pipes (programs read those) down to MINWAIT.
	 */
	if (o->interval > 0 && o->interval < TTYWAIT &&
	    (o->top || (o->outfmt == OUT_TEXT && o->nwant > o->nsampling &&
			isatty(fileno(r->out))))) {
		if (!quiet)
			fprintf(stderr, "%s: note: -w %g raised to %.0f s: text on a terminal "
				"is printed at most once a second (--csv, --json, a file "
				"or a pipe: down to %.1f s)\n", prog, r->o->interval,
				TTYWAIT, MINWAIT);
		r->o->interval = TTYWAIT;
	}
	return 0;
}

/*
 * SIGINT, SIGTERM: delivered only while waiting (ppoll). Blocked before
 * the handler is installed: a signal caught in between would set
 * `interrupted' before the wait and ppoll() would then sleep forever.
 */
static void run_signals(struct run *r)
{
	struct sigaction sa;
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &r->orig);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* The command, forked: it waits on go[0] until its PMCs run. */
static int run_spawn(struct run *r)
{
	char ch;

	if (pipe2(r->go, O_CLOEXEC) < 0)
		return -1;
	fflush(r->out);
	child = fork();
	if (child < 0) {
		fprintf(stderr, "%s: fork: %s\n", prog, strerror(errno));
		return -1;
	}
	if (child == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		sigprocmask(SIG_SETMASK, &r->orig, NULL);
		close(r->go[1]);
		if (read(r->go[0], &ch, 1) != 1)
			_exit(127);	/* the parent gave up */
		execvp(r->o->argv[0], r->o->argv);
		fprintf(stderr, "%s: %s: %s\n", prog, r->o->argv[0],
			strerror(errno));
		_exit(127);
	}
	close(r->go[0]);
	target_add(r->tg, child, 0);
	return 0;
}

/* The targets attached to, and their pidfds to wait on; gives up else. */
static void run_attach(struct run *r)
{
	struct targets *tg = r->tg;
	int alive = attach_targets(r->st, tg), j;

	if (alive < 0)
		give_up(child);
	if (tg->n && !alive) {
		fprintf(stderr, "%s: no process of -t is left\n", prog);
		give_up(child);
	}
	r->pfds = calloc((size_t)(tg->n ? tg->n : 1), sizeof(*r->pfds));
	if (!r->pfds)
		give_up(child);
	for (j = 0; j < tg->n; j++) {
		r->pfds[j].fd = tg->pid[j] > 0 ? pid_fd(tg->pid[j]) : -1;
		r->pfds[j].events = POLLIN;
		if (r->pfds[j].fd < 0 && tg->pid[j] > 0) {
			r->polling = 1;
			if (verbose)
				fprintf(stderr, "%s: no pidfd (%s): polling pid %d\n",
					prog, strerror(errno), (int)tg->pid[j]);
		}
	}
}

/* -T's screen, the PMCs started, the command let go; gives up else. */
static void run_start(struct run *r)
{
	struct stat_run *st = r->st;
	int i;

	if (r->o->top) {
		r->tp = top_open(&r->o->rep.ro, r->o->interval);
		if (!r->tp) {
			fprintf(stderr, "%s: -T: cannot start curses (TERM?)\n",
				prog);
			give_up(child);
		}
	}
	st->t0 = now();
	for (i = 0; i < st->nctr; i++)
		if (pmc_start(st->ctrs[i].id) < 0) {
			top_close(r->tp);
			fprintf(stderr, "%s: cannot start '%s': %s\n", prog,
				st->ctrs[i].spec, strerror(errno));
			if (errno == EBUSY)
				fprintf(stderr, "%s: the PMU's counters are taken by other counters, or, without CAP_PERFMON, by your own PMCs of %s other hardware events (module parameter unprivileged_counters)\n",
					prog, counters_limit());
			give_up(child);
		}
	if (child > 0) {
		if (write(r->go[1], "g", 1) != 1)
			give_up(child);
		close(r->go[1]);
	}
}

/* How long to wait, from now: seconds, or -1 (until something happens). */
static double run_timeout(const struct run *r, double next)
{
	const struct opts *o = r->o;
	double t0 = r->st->t0, left = o->interval > 0 ? next - now() : -1;

	if (o->interval > 0 && left < 0)
		left = 0;
	if (o->duration > 0 && !r->expired &&
	    (left < 0 || left > t0 + o->duration - now()))
		left = t0 + o->duration > now() ? t0 + o->duration - now() : 0;
	if (r->polling && (left < 0 || left > 0.1))
		left = 0.1;		/* no pidfd: poll the pid */
	if (o->top && (left < 0 || left > 0.1))
		left = 0.1;		/* keys */
	return left;
}

/* Have the targets ended (the command: its status kept)?  1: the end. */
static int run_reap(struct run *r)
{
	struct targets *tg = r->tg;
	int j, alive;

	if (child > 0) {
		pid_t w = waitpid(child, &r->status, WNOHANG);

		if (w == child) {
			r->status_known = 1;
			return 1;
		}
		return w < 0 && errno != EINTR;
	}
	if (!tg->n)
		return 0;
	/* -t: until every process has ended */
	for (j = alive = 0; j < tg->n; j++) {
		if (tg->pid[j] > 0 && gone(tg->pid[j])) {
			tg->pid[j] = 0;
			if (r->pfds[j].fd >= 0)
				close(r->pfds[j].fd);
			r->pfds[j].fd = -1;
		}
		alive += tg->pid[j] > 0;
	}
	return !alive;
}

/* The end asked for (-l, q): the command gets SIGINT; 1: no command, end. */
static int run_stop_asked(void)
{
	if (child > 0) {
		kill(child, SIGINT);
		return 0;
	}
	return 1;
}

/* One -w interval: a row, or -T's screen; 1: q pressed, the end. */
static int run_tick(struct run *r)
{
	if (r->o->top) {
		pmc_flush_logfile();
		if (log_load(&r->s->lb, r->s->logr) == 0)
			top_feed(r->tp, &r->s->lb);
		if (top_draw(r->tp, now() - r->st->t0) == 'q') {
			interrupted = 1;
			return run_stop_asked();
		}
	} else if (ncounters(r->st)) {
		print_row(r->st, r->out, r->o->cumulative, 0, -1);
	}
	return 0;
}

/* Wait for: the targets' end, a signal, -l's time, q; rows every -w. */
static void run_wait(struct run *r)
{
	const struct opts *o = r->o;
	double t0 = r->st->t0, next = t0 + o->interval, left;
	struct timespec ts;

	for (;;) {
		left = run_timeout(r, next);
		if (left >= 0) {
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		}
		if (ppoll(r->pfds, (nfds_t)r->tg->n, left >= 0 ? &ts : NULL,
			  &r->orig) < 0 && errno != EINTR) {
			fprintf(stderr, "%s: ppoll: %s\n", prog, strerror(errno));
			break;
		}
		if (run_reap(r))
			break;
		if (interrupted && child <= 0)
			break;
		if (o->duration > 0 && !r->expired &&
		    now() >= t0 + o->duration) {
			/* -l: the end of the run, as Ctrl-C */
			r->expired = 1;
			if (run_stop_asked())
				break;
		}
		if (o->top && top_draw(r->tp, -1) == 'q') {
			/* q: as Ctrl-C */
			interrupted = 1;
			if (run_stop_asked())
				break;
		}
		if (o->interval > 0 && now() >= next) {
			if (run_tick(r))
				break;
			next += o->interval;
			if (next < now())	/* we were stopped: skip */
				next = now() + o->interval;
		}
	}
}

/* The PMCs stopped, the totals, the reports; 0, or 1 (a report failed). */
static int run_end(struct run *r)
{
	struct stat_run *st = r->st;
	const struct opts *o = r->o;
	int i, rc = 0;

	for (i = 0; i < st->nctr; i++)
		pmc_stop(st->ctrs[i].id);
	top_close(r->tp);
	if (ncounters(st) && o->outfmt == OUT_TEXT && !quiet &&
	    (o->summary || st->nmreq)) {
		print_summary(st, r->out);
	} else if (ncounters(st)) {
		if (!(o->interval > 0 && o->outfmt != OUT_TEXT && !o->top))
			print_header(st, r->out);
		print_row(st, r->out, 1, 1, !r->status_known ? -1 :
			  WIFEXITED(r->status) ? WEXITSTATUS(r->status) :
			  128 + WTERMSIG(r->status));
	}
	if (opts_sampling(o) && sample_end(r->s, st, r->out) < 0)
		rc = 1;
	return rc;
}

/* The command's status as ours: 0 when it ended by -l's SIGINT. */
static int run_status(const struct run *r)
{
	if (!r->status_known)
		return 0;
	if (WIFSIGNALED(r->status))
		return r->expired && WTERMSIG(r->status) == SIGINT ? 0 :
			128 + WTERMSIG(r->status);
	return WEXITSTATUS(r->status);
}

int run(struct stat_run *st)
{
	struct sampling s = { .logw = -1, .logr = -1 };
	struct run r = { .st = st, .o = &st->o, .tg = &st->tg, .s = &s,
			 .go = { -1, -1 } };
	struct opts *o = r.o;
	struct targets *tg = r.tg;
	int rc, j;

	if (run_open_out(&r) < 0)
		return 1;
	/* the log, before the PMCs: their PMCALLOCATE records follow */
	if (opts_sampling(o) && sample_begin(&s, o) < 0)
		return 1;
	if (count_allocate(st) < 0)
		return 1;
	run_signals(&r);
	if (o->argc && run_spawn(&r) < 0)
		return 1;
	run_attach(&r);
	run_start(&r);
	if (o->interval > 0 && !o->top && ncounters(st))
		print_header(st, r.out);
	run_wait(&r);
	rc = run_end(&r);
	count_release(st);
	if (r.out != stderr && r.out != stdout && fclose(r.out) != 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, o->outfile, strerror(errno));
		return 1;
	}
	fflush(stdout);
	log_free(&s.lb);
	sym_free();
	for (j = 0; j < tg->n; j++)
		if (r.pfds[j].fd >= 0)
			close(r.pfds[j].fd);
	free(r.pfds);
	return rc ? rc : run_status(&r);
}
