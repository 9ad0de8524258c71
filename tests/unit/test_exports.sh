#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The shared library exports exactly the functions its public headers
# (<pmc.h>, <pmclog.h>) declare.
#   test_exports.sh <libhwpmc.so> <header>...
set -u
LIB=$1; shift
NM=${NM:-nm}
. "$(dirname "$0")/tap.sh"

"$NM" -D --defined-only "$LIB" | awk '$2 == "T" { print $3 }' | sort > "${TMPDIR:-/tmp}/exp.$$"
sed -n 's/^[a-z][^(]*[[:space:]*]\(pmc\(log\)\{0,1\}_[a-z_]*\)(.*/\1/p' "$@" | sort -u > "${TMPDIR:-/tmp}/decl.$$"
if cmp -s "${TMPDIR:-/tmp}/exp.$$" "${TMPDIR:-/tmp}/decl.$$"; then
	ok 0 "exports = declarations of $(echo "$@" | xargs -n1 basename | paste -sd+) ($(wc -l < "${TMPDIR:-/tmp}/exp.$$") functions)"
else
	diff "${TMPDIR:-/tmp}/decl.$$" "${TMPDIR:-/tmp}/exp.$$" | sed 's/^/# declared(<) exported(>) /'
	ok 1 "exports = declarations of $*"
fi
soname=$(objdump -p "$LIB" 2>/dev/null | awk '$1 == "SONAME" { print $2 }')
[ "$soname" = libhwpmc.so.1 ]; ok $? "SONAME is libhwpmc.so.1 (got '$soname')"
rm -f "${TMPDIR:-/tmp}/exp.$$" "${TMPDIR:-/tmp}/decl.$$"
echo "1..$n"
exit $fail
