#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc-stat's DWARF unwinder (the reports of --call-graph dwarf) on the
# host: unwind_prog writes a log of one sample of itself, built without
# frame pointers, with its registers and stack (USERSTACK) as the module
# logs them; the report's stack reaches main() through outer() and
# inner().  Without the USERSTACK record the chain is the PC alone.
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
echo "1..$n"
exit $fail
