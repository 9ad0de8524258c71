#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc-stat's DWARF unwinder (the reports of --call-graph dwarf) on the
# host: unwind_prog writes a log of one sample of itself, built without
# frame pointers, with its registers and stack (USERSTACK) as the module
# logs them; the report's stack reaches main() through outer() and
# inner().  Without the USERSTACK record the chain is the PC alone.
# Unwound on several threads (--unwind-threads), a log of 2000 samples
# of various depths, of two processes and their mappings logged again
# (every other time as of another file) gives the reports of one
# thread, byte for byte.
#   test_unwind.sh <hwpmc-stat> <unwind_prog>
set -u
STAT=$1; PROG=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/hwpmc-unwind.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/tap.sh"

"$PROG" "$T/dw.log"
rc=$?
if [ "$rc" = 77 ]; then
	skip "the unwinder on the host" "unwind_prog takes x86-64 registers only"
	echo "1..$n"
	exit 0
fi
ok $rc "unwind_prog wrote a log of itself"
run 0 -R "$T/dw.log" --folded "$T/dw.folded" && has dw.folded '^[^;]*;(.*;)?main;outer;inner 1$'
ok $? "dwarf: main;outer;inner unwound from the stack copy"
run 0 -R "$T/dw.log" --dump && cp "$T/out" "$T/dw.dump" &&
	has dw.dump ' userstack 0x2001 abi 1 regs 17 size 8192 dynsize [0-9]+ pc 0x'
ok $? "--dump: the USERSTACK record"
# the process's mappings replaced by as many others (an exec of a static
# program after a static program): its second sample unwinds against
# the new files, not the Dwfl of the old ones
"$PROG" "$T/x.log" -x "$STAT" && run 0 -R "$T/x.log" --folded "$T/x.folded" &&
	has x.folded '^[^;]*;(.*;)?main;outer;inner 1$'
ok $? "dwarf after the mappings were replaced: main;outer;inner"
"$PROG" "$T/fp.log" -n && run 0 -R "$T/fp.log" --folded "$T/fp.folded" &&
	has fp.folded '^[^;]*;inner 1$'
ok $? "without USERSTACK: the PC alone"
# several unwinding threads: the same reports as one, in the same order
# (-a lists every sample's frames as aggregated)
"$PROG" "$T/m.log" -m 2000
ok $? "unwind_prog -m 2000 wrote a log of 2000 samples"
reports() {
	run 0 -R "$T/m.log" --unwind-threads "$1" --graph "$T/g$1" -a "$T/a$1" \
		--folded "$T/f$1" -G "$T/c$1" && mv "$T/out" "$T/flat$1"
}
reports 1 && [ "$(grep -c '^--$' "$T/a1")" = 2000 ] &&
	[ "$(grep -c ';main;write_many;rec;' "$T/f1")" -ge 9 ] &&
	has f1 ';main;write_many;rec;rec;rec;rec;rec;rec;rec;rec;rec;inner 178$'
ok $? "one thread: 2000 samples, 9 depths of rec() unwound"
"$PROG" "$T/x.log" -m 2000 "$STAT" && mv "$T/x.log" "$T/m.log" && reports 1 &&
	[ "$(grep -c ';main;write_many;rec;' "$T/f1")" -ge 9 ] &&
	has f1 'pid-[0-9]+;inner [0-9]+$'
ok $? "the same, the mappings every other time of another file"
for t in 2 3 8; do
	same=0
	reports $t || same=1
	for f in flat g a f c; do
		cmp "$T/$f$t" "$T/${f}1" > /dev/null ||
			{ echo "# --unwind-threads $t: $f differs"; same=1; }
	done
	ok $same "--unwind-threads $t: the reports of one thread, byte for byte"
done
# read from a pipe: the stacks copied, not pointed at in a mapped log
cat "$T/m.log" | run 0 -R - --unwind-threads 2 -a "$T/pa2" --folded "$T/pf2" &&
	cmp "$T/pa2" "$T/a1" && cmp "$T/pf2" "$T/f1"
ok $? "--unwind-threads 2 of a pipe: the reports of one thread"
echo "1..$n"
exit $fail
