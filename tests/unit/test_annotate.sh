#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc-stat --annotate (tools/pmcstat_annotate.c): annot_prog.c built
# here with -O1 -g (and, with aarch64-linux-gnu-gcc, for arm64 as a
# shared object), a log (mklog -x) whose samples fall on instructions of
# annot_hot chosen from objdump(1)'s listing; the annotated listing must
# have objdump's instructions (same addresses), the samples on the right
# ones (count and % of the function's), none elsewhere, the source lines
# of the line table (addr2line's) with their text; SYMBOL@object, both
# objects' functions without it, an unknown symbol or object an error.
#   test_annotate.sh <hwpmc-stat> <mklog> <source dir of annot_prog.c>
# C++: sym_prog.cc (test_symbols.sh's), its function named by its
# symbol, its demangled name, and that name without its parameters.
# Environment: CC, CXX (default cc, c++).
set -u
STAT=$1; MKLOG=$2; SRC=$3
CC=${CC:-cc}; CXX=${CXX:-c++}
T=$(mktemp -d "${TMPDIR:-/tmp}/hwpmc-annot.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
unset DEBUGINFOD_URLS HWPMC_DEBUG_DIR
. "$(dirname "$0")/tap.sh"
h() { printf '%x' $(($1)); }
size() { wc -c < "$1" | tr -d ' '; }
# insns OBJDUMP FILE FUNC: the addresses (hex, no 0x) of FUNC's instructions
insns() {
	"$1" -d --no-show-raw-insn "$2" |
		sed -n "/^[0-9a-f]* <$3>:\$/,/^\$/p" |
		sed -n 's/^ *\([0-9a-f][0-9a-f]*\):.*/\1/p'
}
# listed FILE: the addresses of the instruction lines of a listing
listed() {
	awk '{ for (i = 1; i <= 3 && i <= NF; i++) if ($i ~ /^[0-9a-f]+:$/) {
		sub(/:$/, "", $i); print $i; break } }' "$T/$1"
}
# section FILE OBJECT: the listing of the function in OBJECT, alone
section() {
	awk -v o="$2" '/^# annotate: / { on = index($0, " in " o " (") > 0 } on' "$T/$1"
}

for tool in objdump addr2line nm "$CC"; do
	command -v "$tool" > /dev/null 2>&1 && continue
	echo "ok 1 - annotate tests # SKIP no $tool"
	echo "1..1"
	exit 0
done
if "$STAT" -R /dev/null --annotate x > /dev/null 2> "$T/avail"; [ $? = 64 ] &&
   grep -q 'not available' "$T/avail"; then
	echo "ok 1 - annotate tests # SKIP $(cat "$T/avail")"
	echo "1..1"
	exit 0
fi

"$CC" -O1 -g -fPIE -pie -o "$T/annot_prog" "$SRC/annot_prog.c"
ok $? "built annot_prog with -O1 -g"
insns objdump "$T/annot_prog" annot_hot > "$T/x86.insns"
ni=$(wc -l < "$T/x86.insns" | tr -d ' ')
[ "$ni" -ge 6 ]
ok $? "objdump lists annot_hot's $ni instructions"
# samples: 6 on instruction k, 3 on k+2 and 1 inside its bytes, 1 on the
# last; 2 in annot_cold (not annot_hot's); 11 in all of annot_hot
k=$((ni / 2))
A=$(sed -n "${k}p" "$T/x86.insns")
B=$(sed -n "$((k + 2))p" "$T/x86.insns")
Bnext=$(sed -n "$((k + 3))p" "$T/x86.insns")
C=$(sed -n "${ni}p" "$T/x86.insns")
cold=$(insns objdump "$T/annot_prog" annot_cold | head -1)
Bmid=$B
[ $((0x$Bnext - 0x$B)) -gt 1 ] && Bmid=$(h "0x$B + 1")
P=555500000000 Q=7f0000000000
{
	echo "exec $T/annot_prog"
	echo "map $P $(h "0x$P + $(size "$T/annot_prog")") 0 $T/annot_prog"
	for i in 1 2 3 4 5 6; do echo "sample $(h "0x$P + 0x$A")"; done
	for i in 1 2 3; do echo "sample $(h "0x$P + 0x$B")"; done
	echo "sample $(h "0x$P + 0x$Bmid")"
	echo "sample $(h "0x$P + 0x$C")"
	for i in 1 2; do echo "sample $(h "0x$P + 0x$cold")"; done
} > "$T/script"

# arm64: the same source, a shared object of the cross compiler
a64=
if command -v aarch64-linux-gnu-gcc > /dev/null 2>&1 &&
   command -v aarch64-linux-gnu-objdump > /dev/null 2>&1 &&
   aarch64-linux-gnu-gcc -O1 -g -fPIC -shared -nostdlib -o "$T/annot_a64.so" \
	"$SRC/annot_prog.c" 2> "$T/a64.err"; then
	a64=1
	insns aarch64-linux-gnu-objdump "$T/annot_a64.so" annot_hot > "$T/a64.insns"
	# the multiply-add of the loop's body
	M=$(aarch64-linux-gnu-objdump -d --no-show-raw-insn "$T/annot_a64.so" |
	    sed -n '/<annot_hot>:$/,/^$/p' | awk '$2 == "madd" { sub(":", "", $1); print $1; exit }')
	[ -n "$M" ] || M=$(sed -n 3p "$T/a64.insns")
	{
		echo "map $Q $(h "0x$Q + $(size "$T/annot_a64.so")") 0 $T/annot_a64.so"
		for i in 1 2 3 4; do echo "sample $(h "0x$Q + 0x$M")"; done
	} >> "$T/script"
fi
# C++
cxx=
if command -v "$CXX" > /dev/null 2>&1 &&
   "$CXX" -O2 -g -fPIE -pie -o "$T/sym_prog" "$SRC/sym_prog.cc" 2> "$T/cxx.err"; then
	cxx=1
	R=7e0000000000
	bar=$(nm --defined-only "$T/sym_prog" | awk '$3 == "_ZN2ns3Foo3barEi" { print $1; exit }')
	echo "map $R $(h "0x$R + $(size "$T/sym_prog")") 0 $T/sym_prog" >> "$T/script"
	for i in 1 2 3 4 5; do echo "sample $(h "0x$R + 0x$bar")" >> "$T/script"; done
fi
"$MKLOG" -x "$T/log" $$ < "$T/script"
ok $? "mklog -x wrote the log"

# x86-64 (the host's objects: x86-64 or arm64, as built)
run 0 -R "$T/log" --annotate annot_hot@annot_prog && cp "$T/out" "$T/x86"
ok $? "--annotate annot_hot@annot_prog"
has x86 '^# annotate: event cpu-clock, .*annot_hot in annot_prog \(.*/annot_prog\), 0x[0-9a-f]+-0x[0-9a-f]+: 11 samples' &&
	hasnt x86 ' in annot_a64\.so '
ok $? "the header: annot_hot in annot_prog, its 11 samples, only that object"
listed x86 > "$T/x86.listed"
cmp -s "$T/x86.insns" "$T/x86.listed" || { diff "$T/x86.insns" "$T/x86.listed" | sed 's/^/# /'; false; }
ok $? "the listing's instructions are objdump's ($ni, same addresses)"
has x86 "^ +54\\.55 +6 +$A:  [a-z]" && has x86 "^ +36\\.36 +4 +$B:  [a-z]" &&
	has x86 "^ +9\\.09 +1 +$C:  [a-z]"
ok $? "samples on their instructions: 6 (54.55%) at $A, 4 (36.36%) at $B (one inside its bytes), 1 (9.09%) at $C"
[ "$(grep -c -E '^ +[0-9]+\.[0-9]+ +[0-9]+ +[0-9a-f]+:  ' "$T/x86")" = 3 ]
ok $? "no other instruction has samples"
lbody=$(grep -n 'ANNOT-BODY' "$SRC/annot_prog.c" | cut -d: -f1)
lloop=$(grep -n 'ANNOT-LOOP' "$SRC/annot_prog.c" | cut -d: -f1)
has x86 "^ +annot_prog\\.c:$lbody:[[:space:]]+s \\+= i \\* annot_sink;.*ANNOT-BODY" &&
	has x86 "^ +annot_prog\\.c:$lloop:[[:space:]]+for \\(i = 0; .*ANNOT-LOOP"
ok $? "source lines $lloop and $lbody with their text"
# the source line shown above each sampled instruction is addr2line's
good=0
for x in $A $B $C; do
	want=$(addr2line -e "$T/annot_prog" "0x$x" | sed 's/.*://; s/ .*//')
	got=$(awk -v a="$x" '/^ +annot_prog\.c:[0-9]+:/ { l = $1 }
		$0 ~ "^ +[0-9.]* +[0-9]* +" a ":  " { sub(/^annot_prog\.c:/, "", l); sub(/:$/, "", l); print l; exit }' "$T/x86")
	[ "$want" = "$got" ] || { echo "# $x: line $got, addr2line says $want"; good=1; }
done
[ "$good" = 0 ]
ok $? "each sampled instruction under its line (addr2line's)"

# another function, its samples; one with none
run 0 -R "$T/log" --annotate annot_cold && cp "$T/out" "$T/cold" &&
	has cold '^# annotate: .*annot_cold in annot_prog .*: 2 samples' &&
	has cold "^ +100\\.00 +2 +$cold:  "
ok $? "--annotate annot_cold: its 2 samples, 100% on its first instruction"
run 0 -R "$T/log" --annotate main && cp "$T/out" "$T/main" &&
	has main '^# annotate: .*main in annot_prog .*: 0 samples' &&
	hasnt main '^ +[0-9]+\.[0-9]+ +[0-9]+ +[0-9a-f]+:  '
ok $? "--annotate main: listed with no samples"

if [ -n "$a64" ]; then
	run 0 -R "$T/log" --annotate annot_hot && cp "$T/out" "$T/both" &&
		[ "$(grep -c '^# annotate: .* annot_hot in ' "$T/both")" = 2 ]
	ok $? "--annotate annot_hot: the functions of both objects"
	section both annot_a64.so > "$T/a64"
	has a64 ': 4 samples' && has a64 "^ +100\\.00 +4 +$M:  madd" &&
		listed a64 > "$T/a64.listed" && cmp -s "$T/a64.insns" "$T/a64.listed" &&
		has a64 "^ +annot_prog\\.c:$lbody: .*ANNOT-BODY"
	ok $? "arm64: objdump's instructions, 4 samples on madd at $M, source lines"
	run 0 -R "$T/log" --annotate "annot_hot@$T/annot_a64.so" && cp "$T/out" "$T/bypath" &&
		[ "$(grep -c '^# annotate: ' "$T/bypath")" = 1 ] && has bypath ' in annot_a64\.so '
	ok $? "SYMBOL@path: the function of that object only"
else
	skip "--annotate annot_hot: the functions of both objects" "no aarch64-linux-gnu-gcc"
	skip "arm64: objdump's instructions, samples, source lines" "no aarch64-linux-gnu-gcc"
	skip "SYMBOL@path: the function of that object only" "no aarch64-linux-gnu-gcc"
fi

if [ -n "$cxx" ]; then
	good=0
	for name in _ZN2ns3Foo3barEi 'ns::Foo::bar(int)' ns::Foo::bar 'ns::Foo::bar@sym_prog'; do
		run 0 -R "$T/log" --annotate "$name" && cp "$T/out" "$T/cxx" &&
			has cxx '^# annotate: .* ns::Foo::bar\(int\) in sym_prog .*: 5 samples' &&
			has cxx "^ +100\\.00 +5 +$(echo "$bar" | sed 's/^0*//'):  " || good=1
	done
	[ "$good" = 0 ]
	ok $? "C++: by its symbol, its demangled name, without its parameters, @object"
	run 1 -R "$T/log" --annotate ns::Foo::ba && has err "no function 'ns::Foo::ba'"
	ok $? "C++: a prefix of a name is not the name"
else
	skip "C++: by its symbol, its demangled name" "no C++ compiler ($CXX)"
	skip "C++: a prefix of a name is not the name" "no C++ compiler ($CXX)"
fi

# errors
run 1 -R "$T/log" --annotate no_such_fn && has err "no function 'no_such_fn'" &&
	hasnt out 'annotate:'
ok $? "an unknown symbol: status 1, says so"
run 1 -R "$T/log" --annotate annot_hot@nosuch.so && has err "no object 'nosuch\\.so'"
ok $? "an unknown object: status 1, says so"
run 1 -R "$T/log" --annotate annot_sink && has err "no function 'annot_sink'"
ok $? "a variable is no function"
run 64 --annotate annot_hot -p cpu-clock true && has err 'need a sampling event'
ok $? "--annotate without -P/-S or -R: usage error"
run 64 --annotate annot_hot -O "$T/o.log" -P cpu-clock true && has err '-O writes the log'
ok $? "--annotate with -O: usage error"

echo "1..$n"
