#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc-stat's reports made of the aggregated stacks, of mklog's synthetic
# log: --perf-script (its line grammar; collapsed, it makes --folded's
# stacks); --flamegraph (well-formed XML, frame geometry against the
# samples, escaping, icicle order, no samples, and what a browser draws
# of it: headless Chromium's screenshot); --pprof (decoded by protobuf-c
# in pprof_read: the same stacks as --folded, the flat profile's counts; go's
# pprof when there).  With report_bench (bench/report_bench.c) and perf:
# --perf-script's stacks are those perf script prints of a perf.data of
# the same samples.
#   test_stacks.sh <hwpmc-stat> <mklog> [<pprof_read> [<report_bench> <dir of rb_prog>]]
set -u
STAT=$1; MKLOG=$2; PPREAD=${3:-}; RB=${4:-}; RBDIR=${5:-}
T=$(mktemp -d "${TMPDIR:-/tmp}/hwpmc-stacks.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/tap.sh"
PY=$(command -v python3 || true)

"$MKLOG" "$T/log" > /dev/null && run 0 -R "$T/log" --folded "$T/folded"
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
# how the Firefox Profiler tells perf script's text (isPerfScriptFormat):
# its expression on the first line
head -n 1 "$T/perf" | grep -q -E '^[^[:space:]].+[[:space:]]+([0-9]+/)?[0-9]+[[:space:]]+(\[[0-9]+\][[:space:]]+)?[0-9.]+:'
ok $? "--perf-script: the first line is what the Firefox Profiler recognizes as perf script"
got=$(perfcheck "$T/perf")
[ "$got" = 100 ]
ok $? "--perf-script: perf script's grammar, 100 samples (${got:-none})"
perfcollapse "$T/perf" > "$T/pfold" && LC_ALL=C sort "$T/folded" | cmp -s - "$T/pfold"
rc=$?
[ $rc = 0 ] || diff "$T/folded" "$T/pfold" | sed 's/^/# /'
ok $rc "--perf-script: collapsed, the same stacks as --folded"
# kernel frames ([kernel.kallsyms]), a name with spaces and < > &
"$MKLOG" -x "$T/logx" > /dev/null && run 0 -R "$T/logx" --folded "$T/foldedx" --perf-script "$T/perfx" &&
	[ "$(perfcheck "$T/perfx")" = 106 ] && perfcollapse "$T/perfx" > "$T/pfoldx" &&
	LC_ALL=C sort "$T/foldedx" | cmp -s - "$T/pfoldx" && cp "$T/perfx" "$T/px" &&
	has px '^	 +0 ut_tmpl<int, a&b> \(libut_symlib\.so\)$' && has px ' \(\[kernel\.kallsyms\]\)$'
ok $? "--perf-script: kernel frames in [kernel.kallsyms], a C++-like name; the same stacks as --folded"
# perf script itself, of the same samples: report_bench gen writes them
# as an hwpmc log and as a perf.data (its comm is perf's, not compared)
nocomm() {
	sed 's/^[^;]*;//' | awk '{ c = $NF; $NF = ""; n[$0] += c } END { for (s in n) print s n[s] }' |
		LC_ALL=C sort
}
if [ -n "$RB" ] && [ -x "$RB" ] && command -v perf > /dev/null 2>&1 &&
   perf --version > /dev/null 2>&1; then
	"$RB" gen -n 3000 -s 11 -d "$T/rb" "$RBDIR/rb_prog" "$RBDIR/librb.so" > /dev/null 2>&1 &&
		perf script -i "$T/rb/perf.data" > "$T/realperf" 2> /dev/null &&
		run 0 -R "$T/rb/hwpmc.log" --perf-script "$T/rbperf" &&
		[ "$(perfcheck "$T/rbperf")" = 3000 ] &&
		perfcollapse "$T/realperf" | nocomm > "$T/c1" &&
		perfcollapse "$T/rbperf" | nocomm > "$T/c2" &&
		[ -s "$T/c1" ] && cmp -s "$T/c1" "$T/c2"
	rc=$?
	[ $rc = 0 ] || diff "$T/c1" "$T/c2" 2>&1 | head -5 | sed 's/^/# /'
	ok $rc "--perf-script: the stacks perf script prints of a perf.data of the same 3000 samples"
else
	skip "--perf-script against perf script" "no perf or report_bench"
fi
if command -v stackcollapse-perf.pl > /dev/null 2>&1; then
	stackcollapse-perf.pl --kernel "$T/perf" | LC_ALL=C sort > "$T/sc" &&
		LC_ALL=C sort "$T/folded" | cmp -s - "$T/sc"
	ok $? "--perf-script: FlameGraph's stackcollapse-perf.pl makes --folded's stacks"
else
	skip "--perf-script through stackcollapse-perf.pl" "no stackcollapse-perf.pl (FlameGraph)"
fi
run 0 -R "$T/log" --comm nosuch --perf-script "$T/perf0" && [ ! -s "$T/perf0" ] &&
	has err "perf0: no samples to show"
ok $? "--perf-script, no samples: an empty file, and a note"
run 1 -R "$T/log" --perf-script "$T/nodir/x" && has err "cannot create $T/nodir/x: No such file"
ok $? "--perf-script into a missing directory: exit 1, the file named"
run 64 -R "$T/log" --perf-script - --folded - && has err 'no other report there'
ok $? "--perf-script - with another report to standard output: usage error"

# ---- --flamegraph ----

# svgcheck FILE TOTAL [flame|icicle]: the frames' geometry (python3)
cat > "$T/svgcheck.py" <<'PY'
import sys, xml.etree.ElementTree as ET
path, total, order = sys.argv[1], int(sys.argv[2]), sys.argv[3]
NS = '{http://www.w3.org/2000/svg}'
FW, XPAD = 1180.0, 10.0
def bad(why):
    print('# ' + why); sys.exit(1)
fr = []
for g in ET.parse(path).getroot().iter(NS + 'g'):
    if g.get('class') != 'f':
        continue
    r, t = g.find(NS + 'rect'), g.find(NS + 'title').text
    fr.append(dict(s=int(g.get('data-s')), n=int(g.get('data-n')), d=int(g.get('data-d')),
                   x=float(r.get('x')), w=float(r.get('width')), y=float(r.get('y')), t=t))
if not fr:
    bad('no frames')
root = [f for f in fr if f['d'] == 0]
if len(root) != 1 or root[0]['n'] != total or root[0]['t'] != 'all (%d samples, 100.00%%)' % total:
    bad('root: %r (total %d)' % (root, total))
if abs(root[0]['w'] - FW) > 0.01 or abs(root[0]['x'] - XPAD) > 0.01:
    bad('root does not span the graph: %r' % root[0])
for f in fr:
    if abs(f['w'] - f['n'] * FW / total) > 0.011 or abs(f['x'] - XPAD - f['s'] * FW / total) > 0.011:
        bad('width or place not the samples\' share: %r' % f)
    if not f['t'].endswith('(%d sample%s, %.2f%%)' % (f['n'], '' if f['n'] == 1 else 's', 100.0 * f['n'] / total)):
        bad('title: %r' % f)
    if f['d']:
        par = [p for p in fr if p['d'] == f['d'] - 1 and p['s'] <= f['s'] and f['s'] + f['n'] <= p['s'] + p['n']]
        if len(par) != 1:
            bad('no parent holds %r' % f)
        f['p'] = id(par[0])
for p in fr:
    kids = sum(f['n'] for f in fr if f.get('p') == id(p))
    if kids > p['n']:
        bad('children (%d samples) wider than %r' % (kids, p))
if sum(f['n'] for f in fr if f['d'] == 1) != total:
    bad('the processes do not add up to %d' % total)
ys = [f['y'] for f in fr if f['d']]
if (order == 'flame') != (root[0]['y'] > max(ys)) or (order == 'icicle') != (root[0]['y'] < min(ys)):
    bad('root not at the %s of the graph' % ('bottom' if order == 'flame' else 'top'))
for f in fr:
    print(f['t'])
PY
# pngcheck FILE MIN MAX: what a browser drew: frame colours over 2% of
# the screen, the background the script sets when it runs, and between
# MIN and MAX pixels of the search's highlight (python3)
cat > "$T/pngcheck.py" <<'PY'
import sys, zlib, struct
data = open(sys.argv[1], 'rb').read()
if data[:8] != b'\x89PNG\r\n\x1a\n':
    print('# not a PNG'); sys.exit(1)
pos, idat, w = 8, b'', 0
while pos < len(data):
    ln, typ = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + ln]
    if typ == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
    elif typ == b'IDAT':
        idat += body
    pos += 12 + ln
if depth != 8 or ctype not in (2, 6):
    print('# PNG of depth %d, colour type %d' % (depth, ctype)); sys.exit(1)
bpp = 3 if ctype == 2 else 4
raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
for y in range(h):
    ft, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if ft == 1: line[i] = (line[i] + a) & 255
        elif ft == 2: line[i] = (line[i] + b) & 255
        elif ft == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif ft == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
sat = sum(1 for line in rows for x in range(0, stride, bpp)
          if max(line[x:x + 3]) - min(line[x:x + 3]) > 60)
corner = tuple(rows[2][2 * bpp:2 * bpp + 3])
hl = sum(1 for line in rows for x in range(0, stride, bpp)
         if abs(line[x] - 230) < 8 and abs(line[x + 1] - 60) < 8 and abs(line[x + 2] - 230) < 8)
lo, hi = int(sys.argv[2]), int(sys.argv[3])
print('# %dx%d, %d coloured pixels (%.1f%%), corner %r, %d highlighted (%d-%d)' %
      (w, h, sat, 100.0 * sat / (w * h), corner, hl, lo, hi))
sys.exit(0 if sat > 0.02 * w * h and corner == (244, 244, 244) and lo <= hl <= hi else 1)
PY

if [ -z "$PY" ]; then
	for t in "well-formed" "geometry" "escaping" "icicle" "no samples" "a browser draws it"; do
		skip "--flamegraph: $t" "no python3"
	done
else
	xmlok() {
		if command -v xmllint > /dev/null 2>&1; then
			xmllint --noout "$1" 2>&1 | sed 's/^/# /'
			return "$(xmllint --noout "$1" > /dev/null 2>&1; echo $?)"
		fi
		"$PY" -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$1"
	}
	run 0 -R "$T/log" --flamegraph "$T/flame.svg" && xmlok "$T/flame.svg"
	ok $? "--flamegraph: well-formed XML ($(command -v xmllint > /dev/null && echo xmllint || echo python))"
	"$PY" "$T/svgcheck.py" "$T/flame.svg" 100 flame > "$T/titles" &&
		has titles '^ut_hot_leaf \(90 samples, 90\.00%\)$' &&
		has titles '^ut_lib_caller \(96 samples, 96\.00%\)$' &&
		has titles '^\[unknown\] \(1 sample, 1\.00%\)$'
	rc=$?
	[ $rc = 0 ] || sed 's/^/# /' "$T/titles" | head
	ok $rc "--flamegraph: root = 100 samples, widths and places the samples' share, hot function 90%"
	run 0 -R "$T/logx" --flamegraph "$T/x.svg" &&
		xmlok "$T/x.svg" && grep -q '<title>ut_tmpl&lt;int, a&amp;b&gt; (4 samples' "$T/x.svg" &&
		"$PY" "$T/svgcheck.py" "$T/x.svg" 106 flame > "$T/xt" &&
		has xt '^ut_tmpl<int, a&b> \(4 samples, 3\.77%\)$'
	ok $? "--flamegraph: a name with < > & escaped, well-formed, read back as it was"
	# colours by kind: user functions warm, kernel ones blue (grey when
	# /proc/kallsyms gives no symbol), no symbol grey
	"$PY" - "$T/x.svg" <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
def fill(title):
    m = re.search(r'<title>' + title + r' \(.*?fill="rgb\((\d+),(\d+),(\d+)\)"', svg)
    if not m:
        print('# no frame ' + title); sys.exit(1)
    return tuple(int(v) for v in m.groups())
k = re.search(r'<title>([^<]*_\[k\]|\[kernel\]) \(2 samples', svg)
if not k:
    print('# no kernel frame'); sys.exit(1)
r, g, b = fill(re.escape(k.group(1)))
user, unk = fill('ut_hot_leaf'), fill(r'\[unknown\]')
ok = user[0] > user[2] + 100 and unk[0] == unk[1] == unk[2] and \
     (b > r + 80 if k.group(1).endswith('_[k]') else r == g == b)
print('# %s %r, ut_hot_leaf %r, [unknown] %r' % (k.group(1), (r, g, b), user, unk))
sys.exit(0 if ok else 1)
PY
	ok $? "--flamegraph: colours by kind (user, kernel, no symbol)"
	run 0 -R "$T/log" --flamegraph "$T/ice.svg" --flamegraph-order icicle && xmlok "$T/ice.svg" &&
		"$PY" "$T/svgcheck.py" "$T/ice.svg" 100 icicle > /dev/null &&
		run 0 -R "$T/log" --icicle --flamegraph "$T/ice2.svg" && cmp -s "$T/ice.svg" "$T/ice2.svg" &&
		grep -q '>Icicle graph: ' "$T/ice.svg"
	ok $? "--flamegraph-order icicle (--icicle): the root at the top"
	run 0 -R "$T/log" --comm nosuch --flamegraph "$T/none.svg" && xmlok "$T/none.svg" &&
		grep -q '>No samples: ' "$T/none.svg" && ! grep -q 'class="f"' "$T/none.svg" &&
		has err "none\.svg: no samples to show: a flame graph that says so"
	ok $? "--flamegraph, no samples: a well-formed SVG that says so, and a note"
	# one screenshot (about 5 s), zoomed into ut_hot_leaf and searched for
	# it: its frame, highlighted, spans the graph (1180 x 15 pixels; not
	# zoomed it would be 90% of that)
	CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
	if [ -n "$CHROME" ]; then
		(cd "$T" && HOME=$T timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu \
			--screenshot="$T/shot.png" --window-size=1200,800 "file://$T/flame.svg#z=ut_hot_leaf&s=%5Eut_hot" \
			> "$T/chrome.log" 2>&1)
		[ -s "$T/shot.png" ] && "$PY" "$T/pngcheck.py" "$T/shot.png" 17200 17800
		rc=$?
		[ $rc = 0 ] || tail -5 "$T/chrome.log" | sed 's/^/# chromium: /'
		ok $rc "--flamegraph: headless Chromium draws the frames; the script runs, zooms, searches"
	else
		skip "--flamegraph: a browser draws it" "no chromium (scripts/deps.sh installs it)"
	fi
fi
run 1 -R "$T/log" --flamegraph "$T/nodir/f.svg" && has err "cannot create $T/nodir/f\.svg: No such file"
ok $? "--flamegraph into a missing directory: exit 1, the file named"
run 64 -R "$T/log" --flamegraph-order sideways --flamegraph "$T/f.svg" &&
	has err "bad --flamegraph-order 'sideways'"
ok $? "--flamegraph-order of neither flame nor icicle: usage error"

# ---- --pprof ----

if [ -n "$PPREAD" ] && [ -x "$PPREAD" ]; then
	run 0 -R "$T/log" --pprof "$T/prof.pb.gz" -o "$T/flat" &&
		"$PPREAD" "$T/prof.pb.gz" > "$T/pp" 2> "$T/pperr"
	rc=$?
	[ $rc = 0 ] || sed 's/^/# /' "$T/pperr"
	ok $rc "--pprof: gzipped, decoded by protobuf-c, ids and string indices sound"
	has pp '^types samples/count cpu-clock/nanoseconds$' &&
		has pp '^period cpu-clock/nanoseconds 1000000$' &&
		awk '$1 == "folded" && $4 != $3 * 1000000 { print "# " $0; bad = 1 } END { exit bad }' "$T/pp"
	ok $? "--pprof: sample types samples/count and cpu-clock/nanoseconds (= samples x rate), period"
	awk '$1 == "folded" { c[$2] += $3 } END { for (s in c) print s, c[s] }' "$T/pp" |
		LC_ALL=C sort > "$T/ppfold" && LC_ALL=C sort "$T/folded" | cmp -s - "$T/ppfold"
	rc=$?
	[ $rc = 0 ] || diff "$T/folded" "$T/ppfold" | sed 's/^/# /'
	ok $rc "--pprof: its samples' stacks are --folded's"
	# the flat profile's rows (function, samples) against the samples'
	# leaves (flat: FUNCTION and SAMPLES columns)
	awk '$1 == "folded" { n = split($2, f, ";"); c[f[n]] += $3 }
	     END { for (k in c) print k, c[k] }' "$T/pp" | LC_ALL=C sort > "$T/ppleaf"
	awk 'NR > 2 { print $4, $3 }' "$T/flat" | LC_ALL=C sort > "$T/flatleaf"
	cmp -s "$T/ppleaf" "$T/flatleaf" && has ppleaf '^ut_hot_leaf 90$'
	rc=$?
	[ $rc = 0 ] || diff "$T/flatleaf" "$T/ppleaf" | sed 's/^/# /'
	ok $rc "--pprof: the leaves' counts are the flat profile's (ut_hot_leaf 90)"
	run 0 -R "$T/log" --comm nosuch --pprof "$T/none.pb.gz" && "$PPREAD" "$T/none.pb.gz" > "$T/pp0" &&
		! grep -q '^folded' "$T/pp0" && has err "none\.pb\.gz: no samples to show"
	ok $? "--pprof, no samples: a profile without samples, and a note"
	head -c 100 "$T/prof.pb.gz" > "$T/cut.pb.gz"
	! "$PPREAD" "$T/cut.pb.gz" > /dev/null 2>&1 && ! "$PPREAD" "$T/perf" > /dev/null 2>&1
	ok $? "pprof_read refuses a profile cut short and a file that is none"
	if command -v go > /dev/null 2>&1; then
		HOME=$T go tool pprof -top "$T/prof.pb.gz" > "$T/gotop" 2>&1 &&
			has gotop '^ +90ms 90\.00% 90\.00% +90ms 90\.00%  ut_hot_leaf$'
		ok $? "--pprof: go tool pprof -top reads it (ut_hot_leaf 90ms, 90%)"
	else
		skip "--pprof: go tool pprof -top reads it" "no go"
	fi
else
	skip "--pprof" "built without protobuf-c (WITH_PPROF=0)"
fi

echo "1..$n"
