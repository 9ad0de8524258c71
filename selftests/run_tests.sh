#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: run the selftests (as root, module loaded), kselftest
# style: each test's TAP output indented as a subtest, then one line
# "N passed, N failed, N skipped" counting every test case.
#
#   run_tests.sh [test ...]      default: every test in ./tests.list
#   HWPMC_BIN=dir                where hwpmc-control and friends are
#   KSFT_TIMEOUT=secs            per test program (default 300)

here=$(cd "$(dirname "$0")" && pwd)
cd "$here" || exit 1
export PATH="$here:${HWPMC_BIN:-$here/../bin}:$PATH"
timeout=${KSFT_TIMEOUT:-300}
[ $# -gt 0 ] || set -- $(cat tests.list)

pass=0 fail=0 skip=0 n=0
echo "TAP version 13"
echo "1..$#"
for t in "$@"; do
	n=$((n + 1))
	out=$(mktemp)
	echo "# selftests: hwpmc: $t"
	t0=$(date +%s)
	if command -v timeout >/dev/null 2>&1; then
		timeout "$timeout" "./$t" >"$out" 2>&1
	else
		"./$t" >"$out" 2>&1
	fi
	rc=$?
	t1=$(date +%s)
	sed 's/^/  /' "$out"
	echo "# selftests: hwpmc: $t took $((t1 - t0)) s"
	tot=$(grep '^# Totals:' "$out" | tail -n 1)
	if [ -n "$tot" ]; then
		p=$(echo "$tot" | sed 's/.* pass:\([0-9]*\).*/\1/')
		f=$(echo "$tot" | sed 's/.* fail:\([0-9]*\).*/\1/')
		s=$(echo "$tot" | sed 's/.* skip:\([0-9]*\).*/\1/')
		e=$(echo "$tot" | sed 's/.*error:\([0-9]*\).*/\1/')
		f=$((f + e))
	else
		p=0 f=0 s=0
	fi
	# a crash, a timeout or a missing summary is one more failure
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 4 ] && [ "$f" -eq 0 ]; then
		f=1
	fi
	[ -n "$tot" ] || [ "$rc" -eq 4 ] || [ "$f" -gt 0 ] || f=1
	[ "$rc" -eq 4 ] && [ -z "$tot" ] && s=1
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	if [ "$f" -gt 0 ]; then
		echo "not ok $n selftests: hwpmc: $t # exit=$rc"
	elif [ "$rc" -eq 4 ]; then
		echo "ok $n selftests: hwpmc: $t # SKIP"
	else
		echo "ok $n selftests: hwpmc: $t"
	fi
	rm -f "$out"
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
