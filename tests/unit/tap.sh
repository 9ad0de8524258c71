# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: the TAP helpers of tests/unit/test_*.sh, sourced by
# them (". "$(dirname "$0")/tap.sh"").  $T is the script's temporary
# directory; HAS_GREP, set before sourcing, is has()'s kind of pattern
# (default -E; -F for fixed strings).
#   ok STATUS NAME       a TAP line: ok when STATUS is 0 (else fail=1)
#   skip NAME WHY        a skipped test
#   has FILE PATTERN     FILE (under $T) has PATTERN, else says so
#   hasnt FILE PATTERN   FILE has no PATTERN
#   run STATUS ARGS...   "$STAT" ARGS: its status must be STATUS and its
#                        standard error free of sanitizer reports; the
#                        output in $T/out and $T/err (a script may define
#                        its own run after sourcing this)
n=0
fail=0
HAS_GREP=${HAS_GREP:--E}
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
has() { grep -q "$HAS_GREP" -e "$2" "$T/$1" || { echo "# $1 lacks: $2"; sed "s/^/# $1: /" "$T/$1" | head -40; return 1; }; }
hasnt() { ! grep -q "$HAS_GREP" -e "$2" "$T/$1" || { echo "# $1 has: $2"; return 1; }; }
run() {
	want=$1; shift
	"$STAT" "$@" > "$T/out" 2> "$T/err"
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "# hwpmc-stat $*: status $rc, expected $want"
		sed 's/^/# err: /' "$T/err" | head -20
		return 1
	fi
	! grep -q -e 'Sanitizer' -e 'runtime error' "$T/err" || {
		sed 's/^/# err: /' "$T/err" | head -40; return 1; }
}
