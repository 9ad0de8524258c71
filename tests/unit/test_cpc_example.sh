#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cpc_example (a client in the style of cpc_bind_curlwp(3CPC)'s example,
# built unchanged with -Wall -Wextra -Werror) against the fake module:
# generic events on a PMU, software events without one, and the errors
# it reports for an event the machine lacks or a mode it cannot count.
#   test_cpc_example.sh <cpc_example>
set -u
EX=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/tap.sh"
export HWPMC_DEVICE=/dev/null

# ex STATUS: run the example, its status must be STATUS, no sanitizer report
ex() {
	want=$1
	"$EX" > "$T/out" 2> "$T/err"
	rc=$?
	[ "$rc" = "$want" ] || { echo "# status $rc, expected $want"; sed 's/^/# err: /' "$T/err" | head; return 1; }
	! grep -q -e 'Sanitizer' -e 'runtime error' "$T/err" || { sed 's/^/# err: /' "$T/err" | head -40; return 1; }
}

FAKE_HWPMC_PMU=2 ex 0; ok $? "PMU: PAPI_tot_ins and PAPI_tot_cyc over 20 iterations"
[ "$(wc -l < "$T/out")" = 20 ] && has out '^ 20: 1000 1000$'; ok $? "PMU: 20 lines, each iteration's counts (the fake counts 1000 a read)"

EVENT0=cpu-clock EVENT1=cpu-clock ex 0; ok $? "software events: cpu-clock twice, user mode"
has out '^  1: 1000 1000$'; ok $? "software events: counted"
EVENT0=cpu-clock EVENT1=page-faults ex 1; ok $? "an event that cannot count user mode alone is refused"
has err '^libcpc: cpc_set_add_request: Event page-faults cannot count user mode alone' && \
	has err '^could not add second request: Invalid argument$'
ok $? "... the default handler says why, then the example (EINVAL)"

ex 1; ok $? "no PMU: the generic events are refused"
has err '^libcpc: cpc_set_add_request: Invalid event "PAPI_tot_ins"' && \
	has err '^could not add first request: Invalid argument$'
ok $? "... the default handler's message, then the example's (EINVAL)"

echo "1..$n"
exit $fail
