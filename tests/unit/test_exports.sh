#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The shared library exports exactly the functions <pmc.h> declares.
#   test_exports.sh <libhwpmc.so> <pmc.h>
set -u
LIB=$1; HDR=$2
NM=${NM:-nm}
n=0; fail=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }

"$NM" -D --defined-only "$LIB" | awk '$2 == "T" { print $3 }' | sort > "${TMPDIR:-/tmp}/exp.$$"
sed -n 's/^[a-z][^(]*[[:space:]*]\(pmc_[a-z_]*\)(.*/\1/p' "$HDR" | sort -u > "${TMPDIR:-/tmp}/decl.$$"
if cmp -s "${TMPDIR:-/tmp}/exp.$$" "${TMPDIR:-/tmp}/decl.$$"; then
	ok 0 "exports = declarations of pmc.h ($(wc -l < "${TMPDIR:-/tmp}/exp.$$") functions)"
else
	diff "${TMPDIR:-/tmp}/decl.$$" "${TMPDIR:-/tmp}/exp.$$" | sed 's/^/# declared(<) exported(>) /'
	ok 1 "exports = declarations of pmc.h"
fi
soname=$(objdump -p "$LIB" 2>/dev/null | awk '$1 == "SONAME" { print $2 }')
[ "$soname" = libhwpmc.so.1 ]; ok $? "SONAME is libhwpmc.so.1 (got '$soname')"
rm -f "${TMPDIR:-/tmp}/exp.$$" "${TMPDIR:-/tmp}/decl.$$"
echo "1..$n"
exit $fail
