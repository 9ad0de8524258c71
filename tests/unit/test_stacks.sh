#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc-stat's reports made of the aggregated stacks, of mklog's synthetic
# log: --perf-script (its line grammar; collapsed, it makes -F's folded
# stacks).
#   test_stacks.sh <hwpmc-stat> <mklog>
set -u
STAT=$1; MKLOG=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/hwpmc-stacks.XXXXXX")
trap 'rm -rf "$T"' EXIT
n=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
has() { grep -q -E -e "$2" "$T/$1" || { echo "# $1 lacks: $2"; sed "s/^/# $1: /" "$T/$1" | head -30; return 1; }; }
# run EXPECTED-STATUS ARGS...: hwpmc-stat, output in $T/out and $T/err
run() {
	want=$1; shift
	"$STAT" "$@" > "$T/out" 2> "$T/err"
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "# hwpmc-stat $*: status $rc, expected $want"
		sed 's/^/# err: /' "$T/err" | head -20
		return 1
	fi
	! grep -q -e 'Sanitizer' -e 'runtime error' "$T/err" || {
		sed 's/^/# err: /' "$T/err" | head -40; return 1; }
}
PY=$(command -v python3 || true)

"$MKLOG" "$T/log" > /dev/null && run 0 -R "$T/log" -F "$T/folded"
ok $? "mklog's log, and its folded stacks"

# ---- --perf-script ----

# perfcheck FILE: perf script's grammar, as its readers parse it (the
# expressions of stackcollapse-perf.pl and speedscope); prints the samples
perfcheck() {
	awk '
	function bad(why) { printf "# line %d: %s: %s\n", NR, why, $0; err = 1; exit 1 }
	state == 0 {
		if ($0 == "") next
		if ($0 !~ /^[^ \t][^ \t]* +[0-9]+ \[[0-9][0-9][0-9]\] +[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]: +[0-9]+ [^ ]+: $/)
			bad("not a sample line")
		samples++; frames = 0; state = 1; next
	}
	state == 1 {
		if ($0 == "") { if (!frames) bad("a sample without frames"); state = 0; next }
		if ($0 !~ /^\t *[0-9a-f]+ .+ \([^ ]*\)$/) bad("not a frame line")
		frames++; next
	}
	END { if (err) exit 1; if (state) { print "# the last sample lacks its blank line"; exit 1 } print samples }
	' "$1"
}
# perfcollapse FILE: its folded stacks (comm;root;...;leaf count), as
# stackcollapse-perf.pl --kernel makes them: [object] for unknown
# functions, _[k] after kernel ones
perfcollapse() {
	awk '
	/^[^ \t]/ { comm = $1; nf = 0; next }
	/^\t/ {
		line = $0; sub(/^\t *[0-9a-f]+ /, "", line)
		obj = line; sub(/^.* \(/, "", obj); sub(/\)$/, "", obj)
		fn = line; sub(/ \([^ ]*\)$/, "", fn); sub(/\+0x[0-9a-f]+$/, "", fn)
		if (fn == "[unknown]") {
			if (obj == "[kernel.kallsyms]") fn = "[kernel]"
			else if (obj == "[unknown]") fn = "[unknown]"
			else { sub(/.*\//, "", obj); fn = "[" obj "]" }
		} else if (obj == "[kernel.kallsyms]")
			fn = fn "_[k]"
		f[nf++] = fn; next
	}
	/^$/ {
		if (!nf) next
		s = comm; for (i = nf - 1; i >= 0; i--) s = s ";" f[i]
		count[s]++; nf = 0
	}
	END { for (s in count) print s, count[s] }
	' "$1" | LC_ALL=C sort
}

run 0 -R "$T/log" --perf-script "$T/perf" && cp "$T/perf" "$T/p" &&
	has p '^mklog +[0-9]+ \[000\] +0\.000000: +1000000 cpu-clock: $' &&
	has p '^	 +0 ut_hot_leaf \(libut_symlib\.so\)$'
ok $? "--perf-script: a sample line (comm, pid, cpu, time, period, event) and frames"
got=$(perfcheck "$T/perf")
[ "$got" = 100 ]
ok $? "--perf-script: perf script's grammar, 100 samples (${got:-none})"
perfcollapse "$T/perf" > "$T/pfold" && LC_ALL=C sort "$T/folded" | cmp -s - "$T/pfold"
rc=$?
[ $rc = 0 ] || diff "$T/folded" "$T/pfold" | sed 's/^/# /'
ok $rc "--perf-script: collapsed, the same stacks as -F"
if command -v stackcollapse-perf.pl > /dev/null 2>&1; then
	stackcollapse-perf.pl --kernel "$T/perf" | LC_ALL=C sort > "$T/sc" &&
		LC_ALL=C sort "$T/folded" | cmp -s - "$T/sc"
	ok $? "--perf-script: FlameGraph's stackcollapse-perf.pl makes -F's stacks"
else
	skip "--perf-script through stackcollapse-perf.pl" "no stackcollapse-perf.pl (FlameGraph)"
fi
run 0 -R "$T/log" --comm nosuch --perf-script "$T/perf0" && [ ! -s "$T/perf0" ] &&
	has err "perf0: no samples to show"
ok $? "--perf-script, no samples: an empty file, and a note"
run 1 -R "$T/log" --perf-script "$T/nodir/x" && has err "cannot create $T/nodir/x: No such file"
ok $? "--perf-script into a missing directory: exit 1, the file named"
run 64 -R "$T/log" --perf-script - -F - && has err 'no other report there'
ok $? "--perf-script - with another report to standard output: usage error"

echo "1..$n"
