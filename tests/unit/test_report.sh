#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc-stat's reports (-R) of a synthetic log written by mklog: symbols
# of a PIE program and of a shared library (and of a stripped copy of it:
# .dynsym only) at their run-time addresses, call chains, filters, a
# DROPNOTIFY record, bytes that are no record, a log cut short; the
# progress line of long reports, on a terminal only.
#   test_report.sh <hwpmc-stat> <mklog> <fake_hwpmc.so> [<pty_run>]
set -u
STAT=$1; MKLOG=$2; FAKE=$3; PTY=${4:-}
T=$(mktemp -d "${TMPDIR:-/tmp}/hwpmc-report.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/tap.sh"

pid=$("$MKLOG" "$T/log" | sed -n 's/^pid //p')
[ -n "$pid" ] && [ -s "$T/log" ]
ok $? "mklog wrote a log (pid ${pid:-?})"

# flat profile
run 0 -R "$T/log" &&
	has out '^# flat profile: event cpu-clock, pmc 0x20000100, rate 1000000, 100 samples \(1 unresolved\)' &&
	has out '^ +%SAMP +CUM% +SAMPLES +FUNCTION +OBJECT$'
ok $? "flat: header names the event, rate, samples, unresolved"
row1=$(sed -n 3p "$T/out" | tr -s ' ' | sed 's/^ //')
[ "$row1" = "90.00 90.00 90 ut_hot_leaf libut_symlib.so" ]
ok $? "flat: shared library function first, 90% (row: $row1)"
has out '^ +6\.00 +96\.00 +6 +ut_static_helper +libut_symlib\.so$'
ok $? "flat: static function of the library (.symtab)"
has out '^ +3\.00 +99\.00 +3 +ut_main_leaf +mklog$'
ok $? "flat: function of the PIE program"
has out '^ +1\.00 +100\.00 +1 +\[unknown\] +\[unknown\]$'
ok $? "flat: an address outside every mapping is [unknown]"
has err 'the log says 5 records were lost \(DROPNOTIFY\)' && hasnt err 'malformed'
ok $? "flat: warns of DROPNOTIFY"
# bytes that are no record after the log: pmclog(3) stops there
{ cat "$T/log"; printf 'garbage!'; } > "$T/bad"
size=$(wc -c < "$T/log")
run 0 -R "$T/bad" && has out ', 100 samples' &&
	has err "the log is malformed after byte $size \\(.*\\): the rest is ignored"
ok $? "bytes that are no record: what came before, and a warning with the offset"

# call graph
run 0 -R "$T/log" --graph - &&
	grep -A1 -E '^ *90\.00% +90\.00% +90 +90  ut_hot_leaf  libut_symlib\.so$' "$T/out" > "$T/hot" &&
	has hot '<- +90 100\.00%  ut_lib_caller  libut_symlib\.so$'
ok $? "--graph: the hot function's caller, 100%"
grep -A3 -E '  ut_lib_caller  libut_symlib\.so$' "$T/out" | grep -v '^ ' > "$T/lc" 2>/dev/null
has lc '<- +96 100\.00%  ut_main_caller  mklog$' &&
	has lc '-> +90  93\.75%  ut_hot_leaf' && has lc '-> +6   6\.25%  ut_static_helper'
ok $? "--graph: callers and callees of a middle function"
has out '^ *0\.00% +99\.00% +0 +99  main  mklog$'
ok $? "--graph: main is in 99 chains (inclusive count)"

# folded stacks
run 0 -R "$T/log" --folded "$T/folded" && cp "$T/folded" "$T/f" &&
	has f '^mklog;main;ut_main_caller;ut_lib_caller;ut_hot_leaf 90$' &&
	has f '^mklog;main;ut_main_leaf 3$' && has f '^mklog;\[unknown\] 1$'
ok $? "--folded: folded stacks, root first, named by the process"
sum=$(awk '{ s += $NF } END { print s }' "$T/folded")
[ "$sum" = 100 ]
ok $? "--folded: counts add up to the samples ($sum)"
"$MKLOG" -s "$T/same" && run 0 -R "$T/same" --folded "$T/fsame" && cp "$T/fsame" "$T/fs" &&
	has fs '^pid-1;\[libz\.so\] 3$' && has fs '^pid-1;\[libz\.so\];\[libz\.so\] 2$' &&
	[ "$(wc -l < "$T/fsame")" = 2 ]
ok $? "--folded: stacks that read the same (two libraries of one name) make one line"

# dump
run 0 -R "$T/log" --dump &&
	[ "$(grep -c ' callchain ' "$T/out")" = 100 ] &&
	has out " map-in $pid 0x[0-9a-f]+ 0x[0-9a-f]+ 0x[0-9a-f]+ 0x[0-9a-f]+ r-x \".*/libut_symlib\.so\"$" &&
	has out ' allocate 0x20000100 "cpu-clock" 0x0 1000000$' &&
	has out ' drop 5$' && has out ' closelog$' && has out " attach 0x20000100 $pid \".*/mklog\"$" &&
	has out "^ +[0-9.]+ callchain $pid $pid 0x20000100 1 u 4 0x"
ok $? "--dump: every record, as text"

# a stripped copy of the library: .dynsym only
if command -v strip > /dev/null 2>&1; then
	lib=$(dirname "$MKLOG")/libut_symlib.so
	strip -o "$T/libut_stripped.so" "$lib"
	"$MKLOG" "$T/log2" "$T/libut_stripped.so" > /dev/null
	run 0 -R "$T/log2" &&
		has out '^ +90\.00 +90\.00 +90 +ut_hot_leaf +libut_stripped\.so$' &&
		has out '^ +6\.00 +96\.00 +6 +\[unknown\] +libut_stripped\.so$'
	ok $? "stripped library: exported functions from .dynsym, static ones unknown"
else
	echo "ok $((n = n + 1)) - stripped library # SKIP no strip(1)"
fi

# filters
run 0 -R "$T/log" --pid "$pid" && has out ', 100 samples'
ok $? "--pid PID: its samples"
run 0 -R "$T/log" --pid 1,2 && has out ', 0 samples' && hasnt out ut_hot_leaf
ok $? "--pid other pids: no samples"
run 0 -R "$T/log" --comm mklog && has out ', 100 samples'
ok $? "--comm: samples of the processes so named"
run 0 -R "$T/log" --comm nosuch && has out ', 0 samples' && hasnt out ut_hot_leaf
ok $? "--comm another name: no samples"

# -o, standard input, a log cut short
run 0 -R - -o "$T/prof" < "$T/log" && cp "$T/prof" "$T/p" && has p 'ut_hot_leaf'
ok $? "-R - reads standard input; -o writes the report to a file"
# several reports from one reading of a pipe: the same as one by one
cat "$T/log" | "$STAT" -R - --graph "$T/g2" --folded "$T/f2" > "$T/flat2" 2> /dev/null &&
	"$STAT" -R "$T/log" > "$T/flat1" 2> /dev/null &&
	"$STAT" -R "$T/log" --graph - > "$T/g1" 2> /dev/null &&
	cmp -s "$T/flat1" "$T/flat2" && cmp -s "$T/g1" "$T/g2" && cmp -s "$T/folded" "$T/f2"
ok $? "-R - from a pipe with --graph and --folded: each report as when made alone"
# the progress line: a log that takes long to come (a pipe stalled 1.2 s)
slow() { head -c 1000 "$T/log"; sleep 1.2; tail -c +1001 "$T/log"; }
if [ -n "$PTY" ]; then
	slow | "$PTY" -o "$T/flat3" "$STAT" -R - > "$T/tty"
	rc=$?
	tr '\r' '\n' < "$T/tty" > "$T/ttyl"
	[ "$rc" = 0 ] && has ttyl '^hwpmc-stat: reading log: [0-9]+\.[0-9] MB \([0-9]+ samples\)$' &&
		has ttyl '^ {40,}$' && cmp -s "$T/flat1" "$T/flat3"
	ok $? "a long report, stderr a terminal: a progress line, erased; the same report"
else
	echo "ok $((n = n + 1)) - progress line on a terminal # SKIP no pty_run"
fi
slow | "$STAT" -R - > "$T/flat4" 2> "$T/err4" && hasnt err4 'reading log' &&
	cmp -s "$T/flat1" "$T/flat4"
ok $? "a long report, stderr not a terminal: no progress line"
head -c 2000 "$T/log" > "$T/short"
run 0 -R "$T/short" && has err 'no CLOSELOG record'
ok $? "a log cut short: what it holds, and a note"

# pmcstat's options
# -z: chains cut to that many frames, in the call graph and the stacks
run 0 -R "$T/log" -z 2 --graph - && cp "$T/out" "$T/z" &&
	has z '<- +90 100\.00%  ut_lib_caller  libut_symlib\.so$' &&
	hasnt z 'ut_main_caller' && has z '^ *0\.00% +3\.00% +0 +3  main  mklog$'
ok $? "-z 2 --graph: the leaf and its caller only"
run 0 -R "$T/log" -z 2 --folded - && cp "$T/out" "$T/z" &&
	has z '^mklog;ut_lib_caller;ut_hot_leaf 90$' && has z '^mklog;main;ut_main_leaf 3$'
ok $? "-z 2 --folded: folded stacks of two frames"
run 0 -R "$T/log" -z 64 --folded - && cmp -s "$T/out" "$T/folded"
ok $? "-z deeper than the chains: as without"
run 64 -R "$T/log" -z 0 && has err "bad call graph depth '0'" &&
	run 64 -R "$T/log" -z x && has err "bad call graph depth 'x'"
ok $? "-z 0, -z x: usage errors"
# -i: samples of these threads
run 0 -R "$T/log" -i "$pid" && has out ', 100 samples'
ok $? "-i TID: the thread's samples"
run 0 -R "$T/log" -i 1 -i 2,3 && has out ', 0 samples' && hasnt out ut_hot_leaf
ok $? "-i other thread ids: no samples"
run 64 -R "$T/log" -i x && has err "bad thread id list 'x'"
ok $? "-i x: usage error"
# -m: each sampled PC, its function, the function's link-time range
lib=$(dirname "$MKLOG")/libut_symlib.so
run 0 -R "$T/log" -m "$T/pcs" && cp "$T/pcs" "$T/m" &&
	[ "$(wc -l < "$T/m")" = 99 ] && [ "$(grep -c ' ut_hot_leaf ' "$T/m")" = 90 ] &&
	has m '^0x[0-9a-f]+ ut_main_leaf 0x[0-9a-f]+ 0x[0-9a-f]+$' &&
	has out 'ut_hot_leaf'
ok $? "-m file: a line per resolved sample, and the flat profile"
range=$(awk '$2 == "ut_hot_leaf" { print $3, $4; exit }' "$T/pcs")
if command -v nm > /dev/null 2>&1; then
	set -- $(nm -S "$lib" | awk '$4 == "ut_hot_leaf" { print $1, $2 }')
	want=$(printf '0x%x 0x%x' $((0x$1)) $((0x$1 + 0x$2)))
	[ "$range" = "$want" ]
	ok $? "-m: the range is the symbol's, as nm shows it ($range; nm: ${want:-?})"
else
	echo "ok $((n = n + 1)) - -m range against nm # SKIP no nm(1)"
fi
run 0 -R "$T/log" -m - && hasnt out 'flat profile' && has out ' ut_static_helper 0x'
ok $? "-m -: to standard output, instead of the flat profile"
# -a: every frame of every sample with its source line, then --
run 0 -R "$T/log" -a "$T/addrs" && cp "$T/addrs" "$T/a" &&
	[ "$(grep -c '^--$' "$T/a")" = 100 ] &&
	has a '^0x[0-9a-f]+ ut_hot_leaf ut_symlib\.c:[0-9]+$' &&
	has a '^0x[0-9a-f]+ ut_lib_caller ut_symlib\.c:[0-9]+$' &&
	has a '^0x[0-9a-f]+ main mklog\.c:[0-9]+$' && has a '^0x1000 <unknown> \?\?:0$'
ok $? "-a file: each frame, function and file:line; unknown ones ??:0"
[ "$(sed -n '1,5p' "$T/addrs" | cut -d' ' -f2 | tr '\n' ' ')" = "ut_hot_leaf ut_lib_caller ut_main_caller main -- " ]
ok $? "-a: a sample's frames leaf first, then --"
# -r: the log's paths under another root
mkdir -p "$T/root/opt/ut"
cp "$lib" "$T/root/opt/ut/libut_moved.so"
"$MKLOG" "$T/logr" /opt/ut/libut_moved.so > /dev/null
run 0 -R "$T/logr" && has out '^ +96\.00 +96\.00 +96 +\[unknown\] +libut_moved\.so$'
ok $? "a library not found: its samples unknown"
run 0 -R "$T/logr" -r "$T/root" && has out '^ +90\.00 +90\.00 +90 +ut_hot_leaf +libut_moved\.so$'
ok $? "-r fsroot: the library found under it"
run 0 -R "$T/logr" -r "$T/root/" && has out ' ut_hot_leaf +libut_moved\.so$'
ok $? "-r fsroot/: the same"
# -k: kernel symbols from a copy of kallsyms, or a System.map
"$MKLOG" -x "$T/logk" > /dev/null
printf 'ffffffff81000000 T ut_kfunc\nffffffff81000100 t ut_knext\n' > "$T/ksyms"
run 0 -R "$T/logk" -k "$T/ksyms" && has out ' 2 +ut_kfunc +\[kernel\]$'
ok $? "-k file: kernel symbols from it"
mkdir "$T/kdir" "$T/kmap" && cp "$T/ksyms" "$T/kdir/kallsyms" && cp "$T/ksyms" "$T/kmap/System.map"
run 0 -R "$T/logk" -k "$T/kdir" && has out ' ut_kfunc +\[kernel\]$' &&
	run 0 -R "$T/logk" -k "$T/kmap" && has out ' ut_kfunc +\[kernel\]$'
ok $? "-k dir: its kallsyms, else its System.map"
run 0 -R "$T/logk" -k "$T/kdir" -m - && has out '^0xffffffff81000010 ut_kfunc 0xffffffff81000000 0xffffffff81000100$'
ok $? "-k with -m: a kernel function's range"
# a module's function at the address of another module's freed init
# function, whose name ftrace keeps and kallsyms lists after the modules';
# arm64's mapping symbol ($x) at the function's address
printf 'ffffffff81000000 t $x\t[ut_mod]\nffffffff81000000 t ut_kfunc\t[ut_mod]\nffffffff81000100 t ut_knext\t[ut_mod]\nffffffff81000000 T ut_old_init\t[ut_other]\n' > "$T/ksymsf"
run 0 -R "$T/logk" -k "$T/ksymsf" && has out ' 2 +ut_kfunc +\[ut_mod\]$'
ok $? "-k: at one address, the symbol listed first (not ftrace's init name, not \$x)"
run 0 -R "$T/logk" -k "$T/nosuch" && has err "note: no kernel symbols \(.*nosuch: No such file or directory\)" &&
	has out ' \[unknown\] +\[kernel\]$'
ok $? "-k of a missing file: a note naming it; kernel samples unknown"
# -A: functions as addresses (link-time, in their file); -I: as offsets
if command -v nm > /dev/null 2>&1; then
	set -- $(nm "$lib" | awk '$3 == "ut_hot_leaf" { print $1 }')
	hot4=$(printf '0x%x' $((0x$1 + 4)))
	run 0 -R "$T/log" -A && has out "^ +12\.00 +12\.00 +12 +$hot4 +libut_symlib\.so$" &&
		hasnt out ut_hot_leaf && has out '^ +1\.00 +100\.00 +1 +0x1000 +\[unknown\]$' &&
		has out ', 100 samples \(1 unresolved\)'
	ok $? "-A: the sampled addresses, as nm's + offset ($hot4)"
else
	echo "ok $((n = n + 1)) - -A against nm # SKIP no nm(1)"
fi
run 0 -R "$T/log" -I && [ "$(grep -c ' ut_hot_leaf+0x[4-9a-b] ' "$T/out")" = 8 ] &&
	has out '^ +12\.00 +12\.00 +12 +ut_hot_leaf\+0x4 +libut_symlib\.so$'
ok $? "-I: offsets into the functions, one line each"
run 0 -R "$T/log" -I --graph - && has out '<- +12 100\.00%  ut_lib_caller\+0xc  libut_symlib\.so$'
ok $? "-I --graph: callers at their return addresses"
run 0 -R "$T/logk" -k "$T/ksyms" -I && has out ' ut_kfunc\+0x10 +\[kernel\]$' &&
	run 0 -R "$T/logk" -k "$T/ksyms" -A && has out ' 0xffffffff81000010 +\[kernel\]$'
ok $? "-I, -A: kernel addresses, run-time"
# -g: gprof profiles, EVENT/OBJECT.gmon, that GNU gprof reads
mkdir "$T/g"
(cd "$T/g" && "$STAT" -R "$T/log" -g > "$T/out" 2> "$T/err")
[ $? = 0 ] && [ "$(head -c 4 "$T/g/cpu-clock/libut_symlib.so.gmon")" = gmon ] &&
	[ "$(head -c 4 "$T/g/cpu-clock/mklog.gmon")" = gmon ] &&
	has err "gprof profile of .*/libut_symlib\.so: \./cpu-clock/libut_symlib\.so\.gmon$" &&
	[ "$(ls "$T/g/cpu-clock" | wc -l)" = 2 ] && has out ut_hot_leaf
ok $? "-g: a gmon file per object with samples, under the event's name"
if command -v gprof > /dev/null 2>&1; then
	gprof -b -p "$lib" "$T/g/cpu-clock/libut_symlib.so.gmon" > "$T/gp" 2>&1 &&
		has gp '^ *93\.75 +90\.00 +90\.00 .* ut_hot_leaf$' &&
		has gp '^ *6\.25 +96\.00 +6\.00 .* ut_static_helper$'
	ok $? "-g: gprof's flat profile of the library: its samples"
	gprof -b -q "$lib" "$T/g/cpu-clock/libut_symlib.so.gmon" > "$T/gq" 2>&1 &&
		has gq '^ +90\.00 +0\.00 +90/90 +ut_hot_leaf \[' &&
		gprof -b -q "$(dirname "$MKLOG")/mklog" "$T/g/cpu-clock/mklog.gmon" > "$T/gm" 2>&1 &&
		has gm 'ut_main_leaf'
	ok $? "-g: gprof's call graph: callers and callees within an object"
else
	echo "ok $((n = n + 1)) - -g read by gprof # SKIP no gprof(1)"
	echo "ok $((n = n + 1)) - -g call graph read by gprof # SKIP no gprof(1)"
fi
run 64 -O "$T/x.log" -g -P cpu-clock true && has err '-O writes the log, no report'
ok $? "-g with -O: usage error"
# -U: a toggle for the following -P/-S (test_pmcstat.sh); with -R, none
run 0 -R "$T/log" -U && has out ut_hot_leaf
ok $? "-U: accepted with -R"
run 64 -R "$T/log" -Y && has err 'unknown option -Y'
ok $? "an option pmcstat lacks too: unknown option, named"
run 64 -R "$T/log" --nosuch && has err 'unknown option --nosuch'
ok $? "an unknown long option: named"
run 64 -R "$T/log" -G && has err 'option -G needs an argument'
ok $? "a missing argument: named"

# errors
run 1 -R "$T/nosuch" && has err "nosuch: No such file"
ok $? "-R of a missing file: exit 1, named"
run 64 -R "$T/log" -P cpu-clock true && has err '-R reads a log'
ok $? "-R with events: usage error"
run 64 -O "$T/x" -p cpu-clock true && has err 'need a sampling event'
ok $? "-O without -P/-S: usage error"
run 64 -n 0 -P cpu-clock true && has err "bad sampling rate '0'"
ok $? "-n 0: usage error"
run 64 -T -P cpu-clock true < /dev/null > /dev/null && has err '-T needs a terminal'
ok $? "-T without a terminal: usage error"
run 64 -P cpu-clock && has err '-P needs a command or -t pid'
ok $? "-P without a target: usage error"

# -O host:port: a TCP connection (as pmcstat's); a name starting with
# '.' or '/' stays a file
FAKEENV="HWPMC_DEVICE=/dev/null LD_PRELOAD=$FAKE ASAN_OPTIONS=verify_asan_link_order=0:${ASAN_OPTIONS:-}"
(cd "$T" && env $FAKEENV "$STAT" -O 127.0.0.1:1 -P cpu-clock true > "$T/out" 2> "$T/err")
[ $? = 1 ] && has err '^hwpmc-stat: -O 127\.0\.0\.1:1: cannot connect: Connection refused$' &&
	[ ! -e "$T/127.0.0.1:1" ]
ok $? "-O host:port: connects (refused: exit 1, said)"
(cd "$T" && env $FAKEENV "$STAT" -O '[::1]:1' -P cpu-clock true > "$T/out" 2> "$T/err")
[ $? = 1 ] && has err '^hwpmc-stat: -O \[::1\]:1: ' && [ ! -e "$T/[::1]:1" ]
ok $? "-O [ipv6]:port: a host, not a file"
env $FAKEENV "$STAT" -O "$T/a:1" -P cpu-clock true > "$T/out" 2> "$T/err"
[ $? = 0 ] && [ -f "$T/a:1" ] && hasnt err 'connect'
ok $? "-O /path/a:1: a file"
run 64 -T -O host:1 -P cpu-clock true && has err '-O host:port cannot be read'
ok $? "-T with -O host:port: usage error"

# a sampling run against the fake module of an event that cannot sample:
# the module's reason, exit 1, no temporary log left behind
mkdir "$T/tmp"
TMPDIR=$T/tmp HWPMC_DEVICE=/dev/null LD_PRELOAD="$FAKE" \
	ASAN_OPTIONS="verify_asan_link_order=0:${ASAN_OPTIONS:-}" \
	run 1 -P page-faults true &&
	has err 'cannot allocate page-faults: the event cannot sample' &&
	[ -z "$(ls -A "$T/tmp")" ]
ok $? "sampling refused by the module: its reason, exit 1, no temporary file left"

echo "1..$n"
