#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: the counting and log tests once more through the
# fallback context-switch path (module parameter csw_tracepoint=1: the
# sched_switch tracepoint instead of preempt notifiers).  CI runs it in
# one guest (HWPMC_CSW_FALLBACK=1, set by scripts/vm/run.sh for the 6.1
# x86-64 guest); elsewhere it skips.
. ./ksft_lib.sh

P=/sys/module/hwpmc/parameters

if [ "${HWPMC_CSW_FALLBACK:-0}" != 1 ]; then
	skip "fallback context-switch path" "runs in the 6.1 x86-64 guest only (HWPMC_CSW_FALLBACK=1)"
	ksft_done
fi

# the totals of one kselftest program, added to ours
run_prog() {
	_out=$(mktemp)
	"./$1" > "$_out" 2>&1
	_rc=$?
	# its own totals line, renamed: the runner and the VM judge count ours
	sed -e 's/# Totals:/# totals of the program:/' -e 's/^/  /' "$_out"
	_tot=$(grep '^# Totals:' "$_out" | tail -n 1)
	rm -f "$_out"
	if [ -z "$_tot" ]; then
		fail "$1 through the fallback (exit $_rc, no totals)"
		return
	fi
	_p=$(echo "$_tot" | sed 's/.* pass:\([0-9]*\).*/\1/')
	_f=$(echo "$_tot" | sed 's/.* fail:\([0-9]*\).*/\1/')
	_s=$(echo "$_tot" | sed 's/.* skip:\([0-9]*\).*/\1/')
	KSFT_PASS=$((KSFT_PASS + _p)); KSFT_FAIL=$((KSFT_FAIL + _f))
	KSFT_SKIP=$((KSFT_SKIP + _s)); KSFT_N=$((KSFT_N + _p + _f + _s))
	diag "$1 through the fallback: $_p passed, $_f failed, $_s skipped"
}

i=0
while [ $i -lt 50 ] && ! rmmod hwpmc 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
if ! modprobe hwpmc csw_tracepoint=1; then
	fail "modprobe hwpmc csw_tracepoint=1"
	modprobe hwpmc
	ksft_done
fi
check "csw_tracepoint=1 is in effect" [ "$(cat $P/csw_tracepoint)" = Y ]
run_prog hwpmc_count_test
run_prog hwpmc_log_test
i=0
while [ $i -lt 50 ] && ! rmmod hwpmc 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
modprobe hwpmc
check "back to preempt notifiers" [ "$(cat $P/csw_tracepoint)" = N ]
ksft_done
