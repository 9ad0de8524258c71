#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# libcpc.so exports exactly the functions its public headers (<libcpc.h>,
# <libpctx.h>) declare, and nothing of libhwpmc.
#   test_cpc_exports.sh <libcpc.so> <header>...
set -u
LIB=$1; shift
NM=${NM:-nm}
. "$(dirname "$0")/tap.sh"

"$NM" -D --defined-only "$LIB" | awk '$2 == "T" { print $3 }' | sort > "${TMPDIR:-/tmp}/cexp.$$"
sed -n '/^typedef/d; s/^[a-z][^(]*[[:space:]*]\(\(cpc\|pctx\)_[a-z_]*\)(.*/\1/p' "$@" | sort -u > "${TMPDIR:-/tmp}/cdecl.$$"
if cmp -s "${TMPDIR:-/tmp}/cexp.$$" "${TMPDIR:-/tmp}/cdecl.$$"; then
	ok 0 "exports = declarations of $(echo "$@" | xargs -n1 basename | paste -sd+) ($(wc -l < "${TMPDIR:-/tmp}/cexp.$$") functions)"
else
	diff "${TMPDIR:-/tmp}/cdecl.$$" "${TMPDIR:-/tmp}/cexp.$$" | sed 's/^/# declared(<) exported(>) /'
	ok 1 "exports = declarations of $*"
fi
soname=$(objdump -p "$LIB" 2>/dev/null | awk '$1 == "SONAME" { print $2 }')
[ "$soname" = libcpc.so.1 ]; ok $? "SONAME is libcpc.so.1 (got '$soname')"
objdump -p "$LIB" 2>/dev/null | grep -q 'NEEDED *libhwpmc.so.1'; ok $? "libcpc.so.1 needs libhwpmc.so.1"
rm -f "${TMPDIR:-/tmp}/cexp.$$" "${TMPDIR:-/tmp}/cdecl.$$"
echo "1..$n"
exit $fail
