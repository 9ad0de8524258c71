// SPDX-License-Identifier: GPL-2.0
/*
 * hwpmc for Linux: run a command on a pseudo-terminal, for the tests of
 * hwpmc-stat -T: its screen output goes to our standard output; after
 * SECS seconds, KEYS are typed; then we wait for it and exit with its
 * status.  With HWPMC_PTY_WAIT=TEXT in the environment, the keys wait
 * until the screen output has shown TEXT too (60 s at most more): a slow
 * guest draws its first screen late.
 *
 *   hwpmc_pty SECS KEYS command [args]
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "hwpmc_selftest.h"

int main(int argc, char **argv)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 100 };
	const char *want = getenv("HWPMC_PTY_WAIT");
	double typed_at, end = 0, latest;
	int m, s, status, typed = 0, seen = !want || !*want;
	char buf[4096], tail[8192] = "";
	size_t tlen = 0;
	pid_t pid;
	ssize_t n;

	if (argc < 4)
		return 2;
	typed_at = now() + atof(argv[1]);
	latest = typed_at + 60;
	m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) || unlockpt(m))
		return 2;
	s = open(ptsname(m), O_RDWR);
	if (s < 0)
		return 2;
	ioctl(s, TIOCSWINSZ, &ws);
	pid = fork();
	if (pid == 0) {
		setsid();
		ioctl(s, TIOCSCTTY, 0);
		dup2(s, 0);
		dup2(s, 1);
		dup2(s, 2);
		close(m);
		close(s);
		execvp(argv[3], argv + 3);
		_exit(127);
	}
	close(s);
	for (;;) {
		struct pollfd p = { .fd = m, .events = POLLIN };

		if (!typed && now() >= typed_at && (seen || now() >= latest)) {
			if (write(m, argv[2], strlen(argv[2])) < 0)
				return 2;
			typed = 1;
			end = now() + 30;
		}
		if (poll(&p, 1, 100) > 0) {
			n = read(m, buf, sizeof(buf));
			if (n <= 0)
				break;		/* EIO: the child side is closed */
			fwrite(buf, 1, (size_t)n, stdout);
			if (!seen) {
				/* the last output, NULs and all, as text */
				size_t k = (size_t)n, i;

				if (tlen + k >= sizeof(tail)) {
					size_t keep = sizeof(tail) / 2;

					memmove(tail, tail + tlen - keep, keep);
					tlen = keep;
				}
				if (k >= sizeof(tail) - tlen)
					k = sizeof(tail) - tlen - 1;
				for (i = 0; i < k; i++)
					tail[tlen++] = buf[i] ? buf[i] : ' ';
				tail[tlen] = '\0';
				seen = strstr(tail, want) != NULL;
			}
		}
		if (waitpid(pid, &status, WNOHANG) == pid)
			goto done;
		if (typed && now() > end) {
			kill(pid, SIGKILL);
			break;
		}
	}
	waitpid(pid, &status, 0);
done:
	fflush(stdout);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
