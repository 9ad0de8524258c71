#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc-stat speaks pmcstat(8): each of pmcstat's option letters means
# what it means in pmcstat(8), checked on mklog's synthetic log (and, for
# the run's options, against the fake module).  -G: pmcstat's call chains
# as pmcstat(8) and pmcpl_callgraph.c print them, collapsed the way
# FlameGraph's stackcollapse-pmc.pl reads them (its documented grammar,
# reimplemented here) into the stacks of --folded; -F: a callgrind file
# for KCachegrind (callgrind_annotate reads it, when installed); -g, -D,
# -M, -e: gprof profiles in -D's directory (gprof reads them), the map
# of objects to them, BSD's wide format; -f, -U, -A, -T's keys, --help;
# the project's own reports on long options (--dump, --folded, --graph).
#   test_pmcstat.sh <hwpmc-stat> <mklog> <fake_hwpmc.so> [<pty_run>]
set -u
STAT=$1; MKLOG=$2; FAKE=$3; PTY=${4:-}
T=$(mktemp -d "${TMPDIR:-/tmp}/hwpmc-pmcstat.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/tap.sh"
lib=$(dirname "$MKLOG")/libut_symlib.so
prog=$(cd "$(dirname "$MKLOG")" && pwd)/mklog

"$MKLOG" "$T/log" > /dev/null
ok $? "mklog wrote a log"

# -- -G: pmcstat's call chains ------------------------------------------------
# pmcstat(8) -G: "Print callchain information to file"; pmcpl_callgraph.c's
# lines: INDENT PERCENT% " [N] " (12 columns) INDENT NAME [@ OBJECT]
run 0 -R "$T/log" -G "$T/cg" && cp "$T/cg" "$T/g" &&
	[ "$(sed -n 1p "$T/cg")" = "@ cpu-clock [99 samples]" ] &&
	[ -z "$(sed -n 2p "$T/cg")" ] &&
	[ "$(sed -n 3p "$T/cg")" = "90.91%  [90]       ut_hot_leaf @ $lib" ] &&
	[ "$(sed -n 4p "$T/cg")" = " 100.0%  [90]        ut_lib_caller" ] &&
	[ "$(sed -n 5p "$T/cg")" = "  100.0%  [90]         ut_main_caller @ $prog" ] &&
	[ "$(sed -n 6p "$T/cg")" = "   100.0%  [90]          main" ] &&
	[ -z "$(sed -n 7p "$T/cg")" ] &&
	has g '^06\.06%  \[6\]        ut_static_helper @ ' &&
	has g '^03\.03%  \[3\]        ut_main_leaf @ ' && hasnt g 'unknown'
ok $? "-G: '@ EVENT [N samples]', each leaf by samples, its callers indented, objects named"
# (the sample at an address in no mapping: none of pmcstat's, as its
# leaf has no image)
# every line of a tree: the grammar, and the percentages of its parent's samples
awk '
/^@ / || /^$/ { depth = -1; next }
{
	if (!match($0, /^ *[0-9][0-9.]*%  \[[0-9]+\] +/)) { print "bad line: " $0; bad = 1; next }
	ind = match($0, /[^ ]/) - 1
	pct = $1; sub(/%/, "", pct)
	cnt = $2; gsub(/[][]/, "", cnt)
	if (ind > depth + 1) { print "too deep: " $0; bad = 1 }
	depth = ind; c[ind] = cnt
	want = ind ? 100 * cnt / c[ind - 1] : cnt
	if (ind && (pct + 0.01 < want || pct - 0.01 > want)) { print "pct: " $0; bad = 1 }
	if (!ind) top += cnt
}
END { if (top != 99) { print "tops: " top; bad = 1 } exit bad }' "$T/cg" > "$T/gbad"
ok $? "-G: every line in pmcstat's grammar, a caller's share of its callee's, the leaves add up$(head -n 1 "$T/gbad" | sed 's/^/ (/;s/$/)/;s/^ ()$//')"
# stackcollapse-pmc.pl's reading: a line "INDENT PCT%  [N] NAME"; a line no
# deeper than the one before ends the stack before it (root first, ';')
awk '
function out() { s = st[0]; for (i = 1; i <= prev; i++) s = st[i] ";" s; print s, pc }
match($0, /^ *[0-9.]+%  \[[0-9]+\] */) {
	ind = match($0, /[^ ]/) - 1
	if (ind <= prev && seen) out()
	cnt = $2; gsub(/[][]/, "", cnt)
	st[ind] = $3; pc = cnt; prev = ind; seen = 1
}
END { if (seen) out() }' "$T/cg" | sort > "$T/collapsed"
run 0 -R "$T/log" --folded - && sed 's/^mklog;//' "$T/out" | grep -v unknown | sort > "$T/folded" &&
	cmp -s "$T/collapsed" "$T/folded"
ok $? "-G: collapsed as stackcollapse-pmc.pl does, the stacks of --folded (those in a mapping)"
run 0 -R "$T/log" -z 2 -G - && hasnt out '^  [0-9]' && has out '^ 100\.0%  \[90\]        ut_lib_caller$'
ok $? "-z 2 -G: chains of two frames"
run 0 -R "$T/log" -G - && [ "$(sed -n 1p "$T/out")" = "@ cpu-clock [99 samples]" ] &&
	hasnt out 'flat profile'
ok $? "-G -: to standard output, instead of the flat profile"
run 0 -R "$T/log" -o "$T/o.txt" -G - && [ ! -s "$T/out" ] && cp "$T/o.txt" "$T/o" &&
	has o '^@ cpu-clock \[99 samples\]$' && hasnt o 'flat profile' &&
	run 0 -R "$T/log" -o "$T/o.txt" -F - && [ ! -s "$T/out" ] &&
	cp "$T/o.txt" "$T/o" && has o '^version: 1$'
ok $? "-G -, -F - with -o file: to -o's file, as pmcstat(8) says"

# -- -F: the calltree (callgrind format) for KCachegrind ----------------------
run 0 -R "$T/log" -F "$T/ct" && cp "$T/ct" "$T/c" &&
	[ "$(sed -n 1p "$T/ct")" = "version: 1" ] && has c '^creator: ' &&
	has c '^positions: instr line$' && has c '^events: cpu_clock_0$' && has c '^summary: 100$' &&
	has c '^fn=ROOT$' && has c "^ob=$lib$" && has c '^fn=ut_hot_leaf$' &&
	has c '^cfn=ut_hot_leaf$' && has c '^calls=90 '
ok $? "-F: callgrind's header, fl=/fn=, cfn=/calls= lines"
# self costs add up to the summary; each call a cost line; ROOT's calls
# are every chain; the caller of ut_hot_leaf is ut_lib_caller, 90 samples
awk '
/^fn=/ { fn = substr($0, 4); incall = 0; next }
/^cfn=/ { cfn = substr($0, 5); next }
/^calls=/ { incall = 1; split(substr($0, 7), a, " "); if (a[1] <= 0) bad = 1; next }
/^(0x[0-9a-f]+|0) [0-9]+ [0-9]+$/ {
	if (incall) { inc[fn "->" cfn] += $3; if (fn == "ROOT") root += $3; incall = 0 }
	else self += $3
	next
}
/^(version|creator|positions|events|summary):/ || /^(ob|fl|cob|cfl)=/ || /^$/ { next }
{ print "bad line: " $0; bad = 1 }
END {
	if (self != 100 || root != 100) { print "self " self ", root " root; bad = 1 }
	if (inc["ut_lib_caller->ut_hot_leaf"] != 90 || inc["main->ut_main_caller"] != 96) {
		print "inclusive costs"; bad = 1 }
	exit bad
}' "$T/ct" > "$T/cbad"
ok $? "-F: self costs add to the samples, calls carry the chains' samples$(head -n 1 "$T/cbad" | sed 's/^/ (/;s/$/)/;s/^ ()$//')"
# the leaf's instructions: in the function (nm's range), their samples its
# self cost; a call's target: the callee's start
if command -v nm > /dev/null 2>&1; then
	set -- $(nm -S "$lib" | awk '$4 == "ut_hot_leaf" { print $1, $2 }')
	awk -v lo=$((0x$1)) -v hi=$((0x$1 + 0x$2)) -v start="$(printf '%#x' $((0x$1)))" '
	function hex(s,   i, v) { v = 0; s = tolower(substr(s, 3))
		for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v }
	/^fn=/ { fn = substr($0, 4); call = 0; next }
	/^cfn=/ { cfn = substr($0, 5); next }
	/^calls=/ { call = 1; if (cfn == "ut_hot_leaf" && $2 != start) { print "target " $2; bad = 1 } next }
	fn == "ut_hot_leaf" && /^0x/ && !call {
		n++; s += $3; a = hex($1); if (a < lo || a >= hi) { print "outside: " $1; bad = 1 } }
	END { if (n != 8 || s != 90) { print n " rows, " s " samples"; bad = 1 } exit bad }' "$T/ct" > "$T/ibad"
	ok $? "-F: the leaf's samples per instruction, within its symbol; calls to its start$(head -n 1 "$T/ibad" | sed 's/^/ (/;s/$/)/;s/^ ()$//')"
else
	skip "-F: the leaf's samples per instruction" "no nm(1)"
fi
if command -v callgrind_annotate > /dev/null 2>&1; then
	callgrind_annotate --inclusive=yes "$T/ct" > "$T/ca" 2> "$T/caerr" &&
		has ca '^100 .*PROGRAM TOTALS' && has ca '^ *99 .*:main \[' &&
		has ca '^ *90 .*:ut_hot_leaf \[' && hasnt caerr 'rror'
	ok $? "-F: callgrind_annotate reads it: totals, inclusive costs"
else
	skip "-F: callgrind_annotate reads it" "no callgrind_annotate (valgrind)"
fi

# -- -g, -D dir, -M mapfile, -e ------------------------------------------------------
mkdir "$T/here" "$T/out.d"
(cd "$T/here" && "$STAT" -R "$T/log" -g -D "$T/out.d" -M "$T/map" > "$T/out" 2> "$T/err")
[ $? = 0 ] && [ -f "$T/out.d/cpu-clock/libut_symlib.so.gmon" ] &&
	[ -f "$T/out.d/cpu-clock/mklog.gmon" ] && [ -z "$(ls -A "$T/here")" ]
ok $? "-D dir: -g's files under dir/EVENT/, none in the current directory"
if command -v gprof > /dev/null 2>&1; then
	gprof -b -p "$lib" "$T/out.d/cpu-clock/libut_symlib.so.gmon" > "$T/gp" 2>&1 &&
		has gp ' ut_hot_leaf$' && has gp ' ut_static_helper$'
	ok $? "-g -D: gprof reads the profile from dir"
else
	skip "-g -D: gprof reads the profile from dir" "no gprof(1)"
fi
has map "^ \"$lib\" => \"libut_symlib\\.so\\.gmon\" cpu-clock/96\$" &&
	has map "^ \"$prog\" => \"mklog\\.gmon\" cpu-clock/3\$" && [ "$(wc -l < "$T/map")" = 2 ]
ok $? "-M mapfile: each object, its profile's name, the event's samples"
run 0 -R "$T/log" -g -D "$T/out.d" -M - && has out '=> "mklog\.gmon" cpu-clock/3$' &&
	hasnt out 'flat profile'
ok $? "-M -: to standard output"
run 64 -R "$T/log" -g -D "$T/nosuch" && has err '-D .*nosuch' &&
	run 64 -R "$T/log" -g -D "$T/map" && has err 'not a directory'
ok $? "-D: a directory that is none: usage error"
run 64 -R "$T/log" -D "$T/out.d" && has err '-D is only used with -g'
ok $? "-D without -g: usage error (pmcstat's)"
run 64 -R "$T/log" -M "$T/m2" && has err '-M is only used with -g'
ok $? "-M without -g: usage error"
run 64 -R "$T/log" -D && has err 'option -D needs an argument: .*--dump'
ok $? "-D takes a directory (the dump is --dump)"
# -e: BSD's gmon.out (struct gmonhdr: lpc, hpc, ncnt, version, profrate,
# histcounter_type), 32-bit bins
mkdir "$T/wide"
run 0 -R "$T/log" -g -e -D "$T/wide" && f=$T/wide/cpu-clock/libut_symlib.so.gmon &&
	psz=$(getconf LONG_BIT) && psz=$((psz / 8)) &&
	set -- $(od -A n -t u4 -j $((2 * psz)) -N 16 "$f") &&
	[ "$2" = $((0x51879)) ] && [ "$4" = 32 ] &&
	hdr=$(( (2 * psz + 28 + psz - 1) / psz * psz )) && [ "$1" -gt "$hdr" ] &&
	bins=$(od -A n -t u4 -v -j "$hdr" -N $(($1 - hdr)) "$f" | awk '{ for (i = 1; i <= NF; i++) s += $i } END { print s }') &&
	[ "$bins" = 96 ]
ok $? "-e: BSD's header (version 0x51879, histcounter_type 32), 32-bit bins of the 96 samples"
run 64 -R "$T/log" -e && has err '-e requires gprof mode'
ok $? "-e without -g: usage error (pmcstat's)"

# -- -f: pmcstat's plugin options ----------------------------------------------------------
run 0 -R "$T/log" -G "$T/cg2" -f threshold=2.5 && run 0 -R "$T/log" -G "$T/cg2" -f skiplink=1
ok $? "-f threshold=, skiplink=: accepted with -G"
run 64 -R "$T/log" -G "$T/cg2" -f nosuch=1 && has err 'unknown option' &&
	run 64 -R "$T/log" -G "$T/cg2" -f threshold=x && has err 'bad threshold' &&
	run 64 -R "$T/log" -f threshold=1 && has err '-f needs -g, -G, -F, -m or -T'
ok $? "-f: unknown options, bad values, no report to tune: usage errors"

# -- -A: the leaf by its address; -I: offsets --------------------------------------------
run 0 -R "$T/log" -A --folded - &&
	has out '^mklog;main;ut_main_caller;ut_lib_caller;0x[0-9a-f]+ 12$' && hasnt out ';0x[0-9a-f]+;'
ok $? "-A: the sampled function (the leaf) by its address, its callers by name"
run 0 -R "$T/log" -I --folded - && has out '^mklog;main\+0x[0-9a-f]+;ut_main_caller\+0x[0-9a-f]+;'
ok $? "-I: every function by its offset"

# -- -U: toggles user call chains under kernel samples (PMC_F_USERCALLCHAIN) -------------
fakerun() {
	(cd "$T" && FAKE_HWPMC_TRACE=1 HWPMC_DEVICE=/dev/null LD_PRELOAD=$FAKE \
		ASAN_OPTIONS="verify_asan_link_order=0:${ASAN_OPTIONS:-}" \
		"$STAT" "$@" > "$T/out" 2> "$T/err")
}
fakerun -P cpu-clock -O "$T/u.log" true && has err 'allocate mode 2 flags 0x80$' &&
	fakerun -U -P cpu-clock -O "$T/u.log" true && has err 'allocate mode 2 flags 0x180$' &&
	fakerun -U -P cpu-clock -U -P task-clock -O "$T/u.log" true &&
	[ "$(grep -c 'flags 0x180$' "$T/err")" = 1 ] && [ "$(grep -c 'flags 0x80$' "$T/err")" = 1 ]
ok $? "-U: a toggle, PMC_F_USERCALLCHAIN on the following -P/-S"

# -- -T: the top mode's keys -----------------------------------------------------------------
if [ -n "$PTY" ] && "$STAT" -T 2>&1 | grep -q 'built without ncurses'; then
	skip "-T: pmcstat's keys" "built without ncurses"
elif [ -n "$PTY" ] && ! { [ -e /usr/share/terminfo/v/vt100 ] || [ -e /lib/terminfo/v/vt100 ] ||
			  [ -e /etc/terminfo/v/vt100 ]; }; then
	skip "-T: pmcstat's keys" "no vt100 terminfo entry"
elif [ -n "$PTY" ]; then
	t0=$(date +%s)
	{ sleep 1.5; printf 'ca'; sleep 1.5; printf 'n'; sleep 1.5; printf 'q'; } |
		HWPMC_DEVICE=/dev/null LD_PRELOAD=$FAKE TERM=vt100 \
		ASAN_OPTIONS="verify_asan_link_order=0:${ASAN_OPTIONS:-}" \
		"$PTY" "$STAT" -T -P cpu-clock sleep 30 > "$T/tty" 2> "$T/err"
	t1=$(date +%s)
	tr '\033' '\n' < "$T/tty" > "$T/tty2"
	has tty2 'in the last interval' && has tty2 'since the start' && has tty2 'CALLERS' &&
		[ $((t1 - t0)) -lt 20 ]
	ok $? "-T: c a accumulates, n shows the callers, q quits ($((t1 - t0)) s)"
else
	skip "-T: pmcstat's keys" "no pty_run"
fi

# -- --help, and the project's reports on long options ------------------------------------
run 0 --help && has out '^usage: ' && has out '-F file +calltree' && [ ! -s "$T/err" ] &&
	run 0 -h && has out '^usage: '
ok $? "--help, -h: the usage on standard output, exit 0"
run 0 -R "$T/log" --dump && has out ' closelog$' &&
	run 0 -R "$T/log" --graph - && has out '<- +90 100\.00%  ut_lib_caller  libut_symlib\.so$' &&
	run 0 -R "$T/log" --folded - && has out '^mklog;main;ut_main_caller;ut_lib_caller;ut_hot_leaf 90$'
ok $? "--dump, --graph, --folded: the project's reports"

echo "1..$n"
exit $fail
