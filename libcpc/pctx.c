// SPDX-License-Identifier: BSD-2-Clause
/*
 * libpctx: pctx_create(3CPC), pctx_capture(3CPC), pctx_set_events(3CPC),
 * pctx_run(3CPC), pctx_release(3CPC), written from illumos' manual pages,
 * with ptrace(2) where illumos uses /proc.
 *
 * A created process is forked with PTRACE_TRACEME and stopped after its
 * exec; a captured one is attached with PTRACE_SEIZE, which does not stop
 * it (it stops at pctx_run(), or at its first event).  pctx_run() sets
 * the options the handlers need (PTRACE_O_TRACEEXEC and _TRACEEXIT
 * always, _TRACEFORK and _TRACEVFORK when there is a fork handler, so a
 * child is followed only then) and waits for the processes' stops:
 *   fork, vfork   the fork handler, then the child, stopped before it
 *                 runs: init_lwp, then both go on;
 *   exec          (ptrace reports it after the exec succeeded) fini_lwp,
 *                 exec with the new command line, then init_lwp; an exec
 *                 handler returning non-zero stops following the process;
 *   exit          (before the process is gone) fini_lwp, then exit;
 *   a signal      passed on to the process.
 * The unit is the process: its only LWP id is 1, and threads are counted
 * within it (pctx's events come from the thread-group leader; forks and
 * execs of other threads are not seen).  Handlers run with SIGINT,
 * SIGQUIT, SIGTERM and SIGABRT blocked.  While a handler runs, the pctx's
 * current process is the one of the event: cpc_bind_pctx() binds to it.
 * The tick handler runs every msec for every followed process, which is
 * not stopped for it.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpc_impl.h"

#define PCTX_LWPID	1	/* the process's one LWP id */

static volatile sig_atomic_t pctx_stop_all;

void pctx_terminate_all(void)
{
	pctx_stop_all = 1;
}

static void pctx_err(pctx_t *pctx, pctx_errfn_t *errfn, const char *fn,
		     const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void pctx_err(pctx_t *pctx, pctx_errfn_t *errfn, const char *fn,
		     const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	if (pctx)
		errfn = pctx->errfn;
	va_start(ap, fmt);
	if (errfn) {
		errfn(fn, fmt, ap);
	} else {
		fprintf(stderr, "libpctx: %s: ", fn);
		vfprintf(stderr, fmt, ap);
	}
	va_end(ap);
	errno = saved;
}

static pctx_t *pctx_new(pid_t pid, void *arg, int verbose, pctx_errfn_t *errfn)
{
	pctx_t *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->procs = calloc(1, sizeof(*p->procs));
	if (!p->procs) {
		free(p);
		return NULL;
	}
	p->procs->pid = pid;
	p->procs->seen = 1;
	p->pid = pid;
	p->arg = arg;
	p->errfn = errfn;
	p->verbose = verbose;
	return p;
}

pctx_t *pctx_create(const char *filename, char *const *argv, void *arg,
		    int verbose, pctx_errfn_t *errfn)
{
	int fds[2], err = 0, st;
	pctx_t *p;
	pid_t pid;
	ssize_t n;

	if (!filename || !argv || !argv[0]) {
		errno = EINVAL;
		return NULL;
	}
	if (pipe2(fds, O_CLOEXEC) < 0)
		return NULL;
	pid = fork();
	if (pid < 0) {
		err = errno;
		close(fds[0]);
		close(fds[1]);
		pctx_err(NULL, errfn, "pctx_create", "cannot fork: %s\n", strerror(err));
		errno = err;
		return NULL;
	}
	if (pid == 0) {
		close(fds[0]);
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) == 0)
			execvp(filename, argv);
		err = errno;
		/* the parent reads why; the pipe closes at a successful exec */
		n = write(fds[1], &err, sizeof(err));
		(void)n;
		_exit(127);
	}
	close(fds[1]);
	/* the exec's SIGTRAP stop, or the child's exit if the exec failed */
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			err = errno;
			close(fds[0]);
			errno = err;
			return NULL;
		}
	}
	n = read(fds[0], &err, sizeof(err));
	close(fds[0]);
	if (n == (ssize_t)sizeof(err) || !WIFSTOPPED(st)) {
		if (n != (ssize_t)sizeof(err))
			err = ECHILD;
		if (WIFSTOPPED(st)) {
			kill(pid, SIGKILL);
			ptrace(PTRACE_CONT, pid, NULL, NULL);
		}
		waitpid(pid, &st, 0);
		pctx_err(NULL, errfn, "pctx_create", "cannot exec %s: %s\n",
			 filename, strerror(err));
		errno = err;
		return NULL;
	}
	/* stopped after its exec: kill it if the controller dies */
	ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)PTRACE_O_EXITKILL);
	p = pctx_new(pid, arg, verbose, errfn);
	if (!p) {
		err = errno;
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		errno = err;
		return NULL;
	}
	p->created = 1;
	return p;
}

pctx_t *pctx_capture(pid_t pid, void *arg, int verbose, pctx_errfn_t *errfn)
{
	pctx_t *p;
	int err;

	if (pid <= 0 || (kill(pid, 0) < 0 && errno == ESRCH)) {
		if (errfn || verbose)
			pctx_err(NULL, errfn, "pctx_capture", "no process %d\n", (int)pid);
		errno = ESRCH;
		return NULL;
	}
	if (pid == getpid()) {
		pctx_err(NULL, errfn, "pctx_capture", "cannot capture the calling process\n");
		errno = EINVAL;
		return NULL;
	}
	if (ptrace(PTRACE_SEIZE, pid, NULL, NULL) < 0) {
		err = errno;
		pctx_err(NULL, errfn, "pctx_capture", "cannot control process %d: %s\n",
			 (int)pid, strerror(err));
		errno = err;
		return NULL;
	}
	p = pctx_new(pid, arg, verbose, errfn);
	if (!p) {
		err = errno;
		ptrace(PTRACE_DETACH, pid, NULL, NULL);
		errno = err;
	}
	return p;
}

int pctx_set_events(pctx_t *pctx, ...)
{
	pctx_event_t ev;
	va_list ap;
	int rc = 0;

	if (!pctx) {
		errno = EINVAL;
		return -1;
	}
	va_start(ap, pctx);
	while ((ev = (pctx_event_t)va_arg(ap, int)) != PCTX_NULL_EVENT) {
		switch (ev) {
		case PCTX_SYSC_EXEC_EVENT:
			pctx->exec_fn = va_arg(ap, pctx_sysc_execfn_t *);
			break;
		case PCTX_SYSC_FORK_EVENT:
			pctx->fork_fn = va_arg(ap, pctx_sysc_forkfn_t *);
			break;
		case PCTX_SYSC_EXIT_EVENT:
			pctx->exit_fn = va_arg(ap, pctx_sysc_exitfn_t *);
			break;
		case PCTX_INIT_LWP_EVENT:
			pctx->init_fn = va_arg(ap, pctx_init_lwpfn_t *);
			break;
		case PCTX_FINI_LWP_EVENT:
			pctx->fini_fn = va_arg(ap, pctx_fini_lwpfn_t *);
			break;
		case PCTX_SYSC_LWP_CREATE_EVENT:
		case PCTX_SYSC_LWP_EXIT_EVENT:
			/* LWPs are not followed one by one: never called */
			(void)va_arg(ap, void *);
			break;
		default:
			pctx_err(pctx, NULL, "pctx_set_events", "unknown event %d\n", (int)ev);
			errno = EINVAL;
			rc = -1;
			goto out;
		}
	}
out:
	va_end(ap);
	return rc;
}

void pctx_terminate(pctx_t *pctx)
{
	if (pctx)
		pctx->terminate = 1;
}

static struct pctx_proc *pctx_find(pctx_t *pctx, pid_t pid)
{
	struct pctx_proc *pp;

	for (pp = pctx->procs; pp; pp = pp->next)
		if (pp->pid == pid)
			return pp;
	return NULL;
}

static struct pctx_proc *pctx_add(pctx_t *pctx, pid_t pid)
{
	struct pctx_proc *pp = pctx_find(pctx, pid);

	if (pp)
		return pp;
	pp = calloc(1, sizeof(*pp));
	if (!pp)
		return NULL;
	pp->pid = pid;
	pp->next = pctx->procs;
	pctx->procs = pp;
	return pp;
}

static void pctx_forget(pctx_t *pctx, pid_t pid)
{
	struct pctx_proc **pp, *q;

	for (pp = &pctx->procs; *pp; pp = &(*pp)->next) {
		if ((*pp)->pid == pid) {
			q = *pp;
			*pp = q->next;
			free(q);
			return;
		}
	}
}

/* The handlers run with the keyboard's signals blocked. */
struct pctx_call {
	sigset_t old;
};

static void pctx_call_begin(pctx_t *pctx, pid_t pid, struct pctx_call *c)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGQUIT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGABRT);
	pthread_sigmask(SIG_BLOCK, &set, &c->old);
	pctx->cur = pid;
}

static void pctx_call_end(pctx_t *pctx, struct pctx_call *c)
{
	pctx->cur = 0;
	pthread_sigmask(SIG_SETMASK, &c->old, NULL);
}

/* The init_lwp or fini_lwp handler fn (the two have one type), if set. */
static int pctx_lwp_call(pctx_t *pctx, pid_t pid, pctx_init_lwpfn_t *fn)
{
	struct pctx_call c;
	int rc = 0;

	if (fn) {
		pctx_call_begin(pctx, pid, &c);
		rc = fn(pctx, pid, PCTX_LWPID, pctx->arg);
		pctx_call_end(pctx, &c);
	}
	return rc;
}

static int pctx_init(pctx_t *pctx, pid_t pid)
{
	return pctx_lwp_call(pctx, pid, pctx->init_fn);
}

static int pctx_fini(pctx_t *pctx, pid_t pid)
{
	return pctx_lwp_call(pctx, pid, pctx->fini_fn);
}

/* The command line of pid, its arguments joined by spaces. */
static char *pctx_cmdline(pid_t pid)
{
	char path[64], *buf;
	size_t n = 0, i;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	buf = calloc(1, 4097);
	if (!buf)
		return NULL;
	f = fopen(path, "re");
	if (f) {
		n = fread(buf, 1, 4096, f);
		fclose(f);
	}
	while (n && buf[n - 1] == '\0')
		n--;
	for (i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
	return buf;
}

/* Wait for pid's first stop (a new child), unless it came already. */
static int pctx_wait_new(pctx_t *pctx, struct pctx_proc *pp)
{
	int st;

	while (!pp->seen) {
		if (waitpid(pp->pid, &st, __WALL) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			pctx_forget(pctx, pp->pid);
			return -1;
		}
		pp->seen = 1;
	}
	return 0;
}

static uint64_t pctx_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * Sleep until a child changes state, at most ms (and at most 50 ms, to
 * notice pctx_terminate() from a signal handler).  SIGCHLD is blocked in
 * the calling thread while pctx_run() runs.
 */
static void pctx_sleep(uint64_t ms)
{
	struct timespec ts;
	sigset_t set;

	if (ms > 50)
		ms = 50;
	ts.tv_sec = 0;
	ts.tv_nsec = (long)ms * 1000000;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	(void)sigtimedwait(&set, NULL, &ts);
}

/* The first process's setup: stopped, options set, init_lwp, running. */
static int pctx_start(pctx_t *pctx, long opts)
{
	int st;

	if (!pctx->created) {
		/* a captured process: stop it to set the options */
		if (ptrace(PTRACE_INTERRUPT, pctx->pid, NULL, NULL) < 0)
			return -1;
		for (;;) {
			if (waitpid(pctx->pid, &st, __WALL) < 0) {
				if (errno == EINTR)
					continue;
				return -1;
			}
			if (WIFEXITED(st) || WIFSIGNALED(st)) {
				errno = ESRCH;
				return -1;
			}
			if ((st >> 16) == PTRACE_EVENT_STOP)
				break;
			/* a signal on its way: deliver it after the options */
			ptrace(PTRACE_SETOPTIONS, pctx->pid, NULL, (void *)opts);
			ptrace(PTRACE_CONT, pctx->pid, NULL,
			       (void *)(long)((st >> 16) ? 0 : WSTOPSIG(st)));
			if (ptrace(PTRACE_INTERRUPT, pctx->pid, NULL, NULL) < 0)
				return -1;
		}
	}
	if (ptrace(PTRACE_SETOPTIONS, pctx->pid, NULL, (void *)opts) < 0)
		return -1;
	if (pctx_init(pctx, pctx->pid) != 0)
		return 1;
	return ptrace(PTRACE_CONT, pctx->pid, NULL, NULL) < 0 ? -1 : 0;
}

/* One stop of a followed process: its handlers, then it goes on. */
static int pctx_event(pctx_t *pctx, pid_t pid, int st)
{
	struct pctx_proc *pp = pctx_find(pctx, pid), *cp;
	int ev = st >> 16, sig = 0, rc = 0, code;
	unsigned long msg = 0;
	struct pctx_call c;
	siginfo_t si;
	char *cmd;

	if (WIFEXITED(st) || WIFSIGNALED(st)) {
		if (pp && !pp->exiting && pp->seen)
			rc = pctx_fini(pctx, pid);	/* killed: no exit stop */
		pctx_forget(pctx, pid);
		return rc;
	}
	if (!WIFSTOPPED(st))
		return 0;
	if (!pp) {
		/* a new child whose fork event is not reported yet */
		pp = pctx_add(pctx, pid);
		if (pp)
			pp->seen = 1;
		return pp ? 0 : -1;
	}
	if (!pp->seen) {
		pp->seen = 1;		/* the child's first stop, early */
		return 0;
	}
	switch (ev) {
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
		ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg);
		cp = pctx_add(pctx, (pid_t)msg);
		if (!cp)
			return -1;
		if (pctx->fork_fn) {
			pctx_call_begin(pctx, pid, &c);
			pctx->fork_fn(pctx, pid, PCTX_LWPID, (pid_t)msg, pctx->arg);
			pctx_call_end(pctx, &c);
		}
		if (pctx_wait_new(pctx, cp) == 0) {
			rc = pctx_init(pctx, cp->pid);
			ptrace(PTRACE_CONT, cp->pid, NULL, NULL);
		}
		break;
	case PTRACE_EVENT_EXEC:
		rc = pctx_fini(pctx, pid);
		if (pctx->exec_fn) {
			cmd = pctx_cmdline(pid);
			pctx_call_begin(pctx, pid, &c);
			code = pctx->exec_fn(pctx, pid, PCTX_LWPID, cmd ? cmd : (char *)"",
					     pctx->arg);
			pctx_call_end(pctx, &c);
			free(cmd);
			if (code != 0) {
				/* no longer followed (a created one: waited for at release) */
				ptrace(PTRACE_DETACH, pid, NULL, NULL);
				if (pid == pctx->pid && pctx->created)
					pctx->let_go = 1;
				pctx_forget(pctx, pid);
				return rc;
			}
		}
		if (!rc)
			rc = pctx_init(pctx, pid);
		break;
	case PTRACE_EVENT_EXIT:
		ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg);
		pp->exiting = 1;
		rc = pctx_fini(pctx, pid);
		if (pctx->exit_fn) {
			pctx_call_begin(pctx, pid, &c);
			pctx->exit_fn(pctx, pid, PCTX_LWPID,
				      WIFEXITED((int)msg) ? WEXITSTATUS((int)msg) :
				      128 + WTERMSIG((int)msg), pctx->arg);
			pctx_call_end(pctx, &c);
		}
		break;
	case PTRACE_EVENT_STOP:
		/* group-stop of a seized process: stopped until SIGCONT */
		if (WSTOPSIG(st) == SIGSTOP || WSTOPSIG(st) == SIGTSTP ||
		    WSTOPSIG(st) == SIGTTIN || WSTOPSIG(st) == SIGTTOU) {
			ptrace(PTRACE_LISTEN, pid, NULL, NULL);
			return 0;
		}
		break;
	case 0:
		/* a signal: passed on, but not a group-stop of a traced child */
		sig = WSTOPSIG(st);
		if (ptrace(PTRACE_GETSIGINFO, pid, NULL, &si) < 0)
			sig = 0;
		break;
	default:
		break;
	}
	ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig);
	return rc;
}

int pctx_run(pctx_t *pctx, uint_t msec, uint_t nsamples,
	     int (*tick)(pctx_t *pctx, pid_t pid, id_t lwpid, void *arg))
{
	long opts = PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT;
	uint64_t next = 0, now;
	struct pctx_proc *pp;
	struct pctx_call c;
	sigset_t chld, old;
	uint_t samples = 0;
	int st, rc = 0;
	pid_t pid;

	if (!pctx || !pctx->procs) {
		errno = EINVAL;
		return -1;
	}
	if (pctx->fork_fn)
		opts |= PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK;
	if (pctx->created)
		opts |= PTRACE_O_EXITKILL;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &chld, &old);

	rc = pctx_start(pctx, opts);
	if (rc < 0) {
		pctx_err(pctx, NULL, "pctx_run", "cannot control process %d: %s\n",
			 (int)pctx->pid, strerror(errno));
		goto out;
	}
	if (msec)
		next = pctx_now_ms() + msec;
	while (rc == 0 && pctx->procs && !pctx->terminate && !pctx_stop_all) {
		pid = waitpid(-1, &st, __WALL | WNOHANG);
		if (pid > 0) {
			if (pctx_event(pctx, pid, st) != 0)
				rc = 1;
			continue;
		}
		if (pid < 0 && errno != EINTR) {
			if (errno == ECHILD)	/* nothing followed is left */
				break;
			rc = -1;
			break;
		}
		now = pctx_now_ms();
		if (msec && now >= next) {
			for (pp = pctx->procs; pp && tick; pp = pp->next) {
				if (!pp->seen || pp->exiting)
					continue;
				pctx_call_begin(pctx, pp->pid, &c);
				if (tick(pctx, pp->pid, PCTX_LWPID, pctx->arg) != 0)
					rc = 1;
				pctx_call_end(pctx, &c);
			}
			next += msec;
			if (next <= now)	/* late: skip samples */
				next = now + msec;
			if (nsamples && ++samples >= nsamples)
				break;
			continue;
		}
		pctx_sleep(msec ? next - now : 50);
	}
	if (rc > 0)
		pctx_err(pctx, NULL, "pctx_run", "a handler failed\n");
out:
	pctx_stop_all = 0;
	pctx->terminate = 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc ? -1 : 0;
}

void pctx_release(pctx_t *pctx)
{
	struct pctx_proc *pp;
	int st;

	if (!pctx)
		return;
	while ((pp = pctx->procs)) {
		if (pctx->created) {
			kill(pp->pid, SIGKILL);
		} else if (ptrace(PTRACE_DETACH, pp->pid, NULL, NULL) < 0 &&
			   errno == ESRCH &&
			   ptrace(PTRACE_INTERRUPT, pp->pid, NULL, NULL) == 0) {
			/* running: stop it to let it go */
			while (waitpid(pp->pid, &st, __WALL) < 0 && errno == EINTR)
				;
			if (WIFSTOPPED(st))
				ptrace(PTRACE_DETACH, pp->pid, NULL, NULL);
		}
		if (pctx->created)
			while (waitpid(pp->pid, &st, __WALL) < 0 && errno == EINTR)
				;
		pctx->procs = pp->next;
		free(pp);
	}
	/* the command let go at its exec runs to its end */
	if (pctx->let_go)
		while (waitpid(pctx->pid, &st, 0) < 0 && errno == EINTR)
			;
	free(pctx);
}
