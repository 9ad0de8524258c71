#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: the module's include graph, and its layering checked.
#
#   scripts/kmod_layers.sh [-q]
#
# Each kmod/hwpmc_<f>.c includes the headers of the files it calls
# (hwpmc_<g>.h), so the #include "hwpmc_*.h" lines are its call graph.
# Prints one line per file, "f: the files it includes", then checks that
#   - each file includes its own header (the definitions' prototypes),
#   - no header includes a file's header (only hwpmc_internal.h),
#   - the graph has no cycle (tsort),
#   - each file includes only files listed below it in the top-down list
#     of hwpmc_internal.h's first comment.
# -q: the checks only.  Exit status 1 when one fails.

cd "$(dirname "$0")/../kmod" || exit 2
quiet=0
[ "$1" = -q ] && quiet=1
fail=0

# The top-down order: the "hwpmc_<f>.c" lines of hwpmc_internal.h's list.
order=$(sed -n '1,/^#ifndef/s/^ \*   hwpmc_\([a-z]*\)\.c .*/\1/p' hwpmc_internal.h)
rank() { echo "$order" | grep -nx "$1" | cut -d: -f1; }

incs() {
	sed -n 's/^#include "hwpmc_\([a-z]*\)\.h"$/\1/p' "$1" | grep -vx internal
}

edges=
for c in hwpmc_*.c; do
	f=${c#hwpmc_}; f=${f%.c}
	[ -n "$(rank "$f")" ] || { echo "$c: not in hwpmc_internal.h's list"; fail=1; }
	deps=$(incs "$c" | grep -vx "$f" | tr '\n' ' ')
	[ $quiet = 1 ] || printf '%-10s -> %s\n' "$f" "$deps"
	if [ -e "hwpmc_$f.h" ] && ! incs "$c" | grep -qx "$f"; then
		echo "$c: does not include its own header"; fail=1
	fi
	for d in $deps; do
		edges="$edges$f $d"$'\n'
		[ -e "hwpmc_$d.h" ] || { echo "$c: no hwpmc_$d.h"; fail=1; continue; }
		if [ "$(rank "$d")" -le "$(rank "$f")" ]; then
			echo "upward: $c includes hwpmc_$d.h"; fail=1
		fi
	done
done
for h in hwpmc_*.h; do
	[ "$h" = hwpmc_internal.h ] && continue
	for d in $(incs "$h"); do
		echo "$h includes hwpmc_$d.h"; fail=1
	done
done
if ! printf '%s' "$edges" | tsort >/dev/null 2>&1; then
	echo "cycle:"; printf '%s' "$edges" | tsort 2>&1 | grep '^tsort:'; fail=1
fi
[ $fail = 0 ] && [ $quiet = 0 ] && echo "ok: no upward include, no cycle"
exit $fail
