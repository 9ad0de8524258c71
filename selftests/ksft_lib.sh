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

# expect_exit NAME EXIT PATTERN CMD...: ok if CMD exits with EXIT and its
# output (stdout and stderr) contains PATTERN
expect_exit() {
	_n=$1 _x=$2 _p=$3; shift 3
	_o=$("$@" 2>&1); _rc=$?
	if [ "$_rc" -eq "$_x" ] && printf '%s\n' "$_o" | grep -q -- "$_p"; then
		ok "$_n"
	else
		fail "$_n (exit $_rc: $(printf '%s\n' "$_o" | head -n 1))"
	fi
}

ksft_done() {
	echo "1..$KSFT_N"
	echo "# Totals: pass:$KSFT_PASS fail:$KSFT_FAIL xfail:0 xpass:0 skip:$KSFT_SKIP error:0"
	[ "$KSFT_FAIL" -eq 0 ] || exit 1
	[ "$KSFT_PASS" -gt 0 ] || exit 4
	exit 0
}
