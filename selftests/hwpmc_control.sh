#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: hwpmc-control(8) against the real module: -L, -l, -s,
# -c/-e/-d, -V and its errors.  Run as root with the module loaded.
. ./ksft_lib.sh

out=$(mktemp)
ncpu_online=$(grep -c '^processor' /proc/cpuinfo)

# -L: classes and events
hwpmc-control -L > "$out"; rc=$?
check "-L exits 0" test "$rc" -eq 0
check "-L lists class SOFT" grep -qx 'SOFT' "$out"
for e in cpu-clock task-clock page-faults context-switches; do
	check "-L lists $e" grep -qx "	$e" "$out"
done
if grep -qx 'PMU' "$out"; then
	check "-L lists PMU cycles" grep -qx '	cycles' "$out"
	diag "PMU events: $(sed -n '/^PMU$/,$p' "$out" | tr -d '\t' | tr '\n' ' ')"
else
	skip "-L lists PMU cycles" "no hardware PMU in this machine"
fi

# -l: every online CPU, every row, all free
hwpmc-control -l > "$out"; rc=$?
check "-l exits 0" test "$rc" -eq 0
npmc=$(sed -n 's/.* with \([0-9]*\) PMCs per CPU$/\1/p' "$out")
check "-l header names the PMC count" test -n "$npmc"
check "-l has one section per online CPU" test "$(grep -c '^#CPU [0-9]*:$' "$out")" -eq "$ncpu_online"
check "-l lists npmc rows per CPU" test "$(grep -c '^ *[0-9][0-9]* *[A-Z][A-Z]*[0-9][0-9]* ' "$out")" -eq $((npmc * ncpu_online))
check "-l rows all free" test "$(grep -c 'ENABLED  FREE' "$out")" -eq $((npmc * ncpu_online))

# -s: driver statistics move
s1=$(hwpmc-control -s | sed -n 's/^system calls: *\([0-9]*\)$/\1/p')
s2=$(hwpmc-control -s | sed -n 's/^system calls: *\([0-9]*\)$/\1/p')
check "-s prints system calls" test -n "$s1"
check "-s system calls increase" test "${s2:-0}" -gt "${s1:-0}"

# -c/-d/-e, left to right
row() {	# CPU ROW: the state and disposition columns of that row
	hwpmc-control -l | awk -v c="#CPU $1:" -v r="$2" '
		$0 == c { on = 1; next } /^#CPU/ { on = 0 }
		on && $1 == r { print $4, $5 }'
}
check "-c 0 -d 3" hwpmc-control -c 0 -d 3
check "row 3 disabled on CPU 0" test "$(row 0 3)" = "DISABLED STANDALONE"
if [ "$ncpu_online" -gt 1 ]; then
	check "row 3 standalone, enabled on CPU 1" test "$(row 1 3)" = "ENABLED STANDALONE"
fi
check "-c 0 -e 3" hwpmc-control -c 0 -e 3
check "row 3 free again" test "$(row 0 3)" = "ENABLED FREE"
check "-c * -d * (all)" hwpmc-control -c '*' -d '*'
check "every row disabled" test "$(hwpmc-control -l | grep -c 'DISABLED STANDALONE')" -eq $((npmc * ncpu_online))
check "-c * -e * -c 0 -d 0 (left to right)" hwpmc-control -c '*' -e '*' -c 0 -d 0
check "only row 0 of CPU 0 disabled" test "$(hwpmc-control -l | grep -c DISABLED)" -eq 1
check "-e * restores" hwpmc-control -e '*'
check "every row free" test "$(hwpmc-control -l | grep -c 'ENABLED  FREE')" -eq $((npmc * ncpu_online))

# -V: both versions
hwpmc-control -V > "$out" 2>&1
check "-V names the module ABI" grep -q 'module ABI 0x' "$out"

# errors: a message naming the problem, a non-zero exit
expect_err() {	# NAME EXIT PATTERN ARGS...
	_n=$1 _x=$2 _p=$3; shift 3
	expect_exit "$_n" "$_x" "$_p" hwpmc-control "$@"
}
expect_err "CPU out of range" 1 "CPU 99" -c 99 -e 0
expect_err "row beyond this machine" 1 "PMC 200" -c 0 -e 200
expect_err "row not a row number" 64 "9999" -c 0 -e 9999
expect_err "bad CPU token" 64 "foo" -c foo -e 0
expect_err "negative row" 64 "-1" -e -1
expect_err "unknown option" 64 "unknown option" -x
rm -f "$out"
ksft_done
