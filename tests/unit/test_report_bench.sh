#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The report benchmark's quick variant (bench/report_bench.c, make
# bench-report): one sample set written as an hwpmc log and as a
# perf.data, reported by hwpmc-stat -R and perf report; it must run and
# both tools must give the same profiles.  Timing is not checked here.
#   test_report_bench.sh <report_bench> <hwpmc-stat> <dir of rb_prog, librb.so>
set -u
RB=$1; STAT=$2; DIR=$3
T=$(mktemp -d "${TMPDIR:-/tmp}/hwpmc-rbench.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/tap.sh"

"$RB" gen -n 5000 -s 7 -d "$T/a" "$DIR/rb_prog" "$DIR/librb.so" > "$T/gen" 2>&1 &&
	[ -s "$T/a/hwpmc.log" ] && [ -s "$T/a/perf.data" ]
ok $? "gen: an hwpmc log and a perf.data of the same samples"
"$STAT" -R "$T/a/hwpmc.log" > "$T/flat" 2> "$T/err" &&
	has flat '^# flat profile: event cpu-clock, pmc 0x20000100, rate 65536, 5000 samples \(0 unresolved\)' &&
	has flat '^ +[0-9.]+ +[0-9.]+ +[0-9]+ +(lib|app)_[a-z]+_[a-z]+_[0-9]+ +(librb\.so|rb_prog)$'
ok $? "hwpmc-stat -R: every sample resolved to the benchmark's functions"
"$RB" gen -n 5000 -s 7 -d "$T/b" "$DIR/rb_prog" "$DIR/librb.so" > /dev/null 2>&1 &&
	cmp -s "$T/a/hwpmc.log" "$T/b/hwpmc.log" && cmp -s "$T/a/perf.data" "$T/b/perf.data"
ok $? "gen: the same seed, the same files"

if ! command -v perf > /dev/null 2>&1 || ! perf --version > /dev/null 2>&1; then
	skip "the quick benchmark against perf report" "no perf (apt-get install linux-perf)"
	skip "a wrong profile is found out" "no perf"
	echo "1..$n"
	exit 0
fi
"$RB" -q -d "$T/q" -H "$STAT" "$DIR/rb_prog" "$DIR/librb.so" > "$T/out" 2> "$T/err"
rc=$?
[ "$rc" = 0 ] && has out '^report: flat profiles agree: top 20 functions, same order' &&
	has out '^report: call graphs agree: top 20 functions' &&
	has out '^bench: report flat profile: time +hwpmc .* ratio ' &&
	has out '^bench: report call graph: peak RSS +hwpmc .* ratio ' &&
	has out '^bench: report folded stacks: time +hwpmc +[0-9.e+-]+ \[.*\]  s$' &&
	has out '^bench: done, 6 results$' ||
	{ sed 's/^/# err: /' "$T/err" | head -20; false; }
ok $? "report_bench -q: both tools' profiles agree, six results (exit $rc)"

# the check finds a profile of other samples out
"$RB" gen -n 5000 -s 8 -d "$T/c" "$DIR/rb_prog" "$DIR/librb.so" > /dev/null 2>&1 &&
	perf report --stdio -i "$T/c/perf.data" --sort sym -g none --no-children > "$T/pflat" 2> /dev/null &&
	! "$RB" cmp flat "$T/flat" "$T/pflat" > "$T/cmp" && has cmp '^report: FAILED flat profiles'
ok $? "a flat profile of other samples: the comparison fails"

echo "1..$n"
