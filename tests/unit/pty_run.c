// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: run a command with its standard error (and output) on
 * a pseudo-terminal, for the tests of hwpmc-stat's terminal-only output
 * (the progress line of long reports, the -w rule).  What the command
 * writes to the terminal goes to our standard output; its standard input
 * is ours.  Exits with the command's status.  (selftests/hwpmc_pty.c does
 * the same in the guests, for -T, with typed keys.)
 *
 *   pty_run [-o FILE] command [args]    -o: standard output to FILE
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 100 };
	const char *out = NULL;
	int m, s, o, status, i = 1;
	char buf[4096];
	pid_t pid;
	ssize_t n;

	if (argc > 2 && !strcmp(argv[1], "-o")) {
		out = argv[2];
		i = 3;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: pty_run [-o file] command [args]\n");
		return 2;
	}
	m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) || unlockpt(m))
		return 2;
	s = open(ptsname(m), O_RDWR | O_NOCTTY);
	if (s < 0)
		return 2;
	ioctl(s, TIOCSWINSZ, &ws);
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		setsid();
		ioctl(s, TIOCSCTTY, 0);
		o = out ? open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644) : s;
		if (o < 0)
			_exit(126);
		dup2(o, 1);
		dup2(s, 2);
		close(m);
		close(s);
		execvp(argv[i], argv + i);
		_exit(127);
	}
	close(s);
	for (;;) {
		struct pollfd p = { .fd = m, .events = POLLIN };

		if (poll(&p, 1, 100) > 0) {
			n = read(m, buf, sizeof(buf));
			if (n <= 0)
				break;		/* EIO: the terminal's last user is gone */
			fwrite(buf, 1, (size_t)n, stdout);
		}
		if (waitpid(pid, &status, WNOHANG) == pid) {
			/* what it wrote last */
			while (poll(&p, 1, 0) > 0 && (n = read(m, buf, sizeof(buf))) > 0)
				fwrite(buf, 1, (size_t)n, stdout);
			goto done;
		}
	}
	waitpid(pid, &status, 0);
done:
	fflush(stdout);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
