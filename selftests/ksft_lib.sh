# SPDX-License-Identifier: GPL-2.0
# hwpmc for Linux: TAP helpers for the shell selftests (POSIX sh, busybox).
# A test script sources this, calls ok/fail/skip per check, then ksft_done.

KSFT_PASS=0
KSFT_FAIL=0
KSFT_SKIP=0
KSFT_N=0

echo "TAP version 13"

ok() {
	KSFT_N=$((KSFT_N + 1)); KSFT_PASS=$((KSFT_PASS + 1))
	echo "ok $KSFT_N $*"
}

fail() {
	KSFT_N=$((KSFT_N + 1)); KSFT_FAIL=$((KSFT_FAIL + 1))
	echo "not ok $KSFT_N $*"
}

skip() {
	KSFT_N=$((KSFT_N + 1)); KSFT_SKIP=$((KSFT_SKIP + 1))
	echo "ok $KSFT_N $1 # SKIP $2"
}

# check NAME CMD...: ok if CMD succeeds
check() {
	_name=$1; shift
	if "$@"; then ok "$_name"; else fail "$_name"; fi
}

# diag: a comment line in the TAP stream
diag() {
	echo "$*" | sed 's/^/# /'
}

ksft_done() {
	echo "1..$KSFT_N"
	echo "# Totals: pass:$KSFT_PASS fail:$KSFT_FAIL xfail:0 xpass:0 skip:$KSFT_SKIP error:0"
	[ "$KSFT_FAIL" -eq 0 ] || exit 1
	[ "$KSFT_PASS" -gt 0 ] || exit 4
	exit 0
}
