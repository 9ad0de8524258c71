#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: hwpmc-stat(8) and hwpmc-control(8) with the PERF class
# (tracepoints, perf PMUs other than the core one) against the real
# module.  Run as root with the module loaded.
. ./ksft_lib.sh

out=$(mktemp)
tp=/sys/kernel/tracing/events
[ -d "$tp" ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
[ -d "$tp" ] || tp=/sys/kernel/debug/tracing/events

if [ -r "$tp/syscalls/sys_enter_getppid/id" ]; then
	# process scope: exactly the program's calls
	hwpmc-stat -p syscalls:sys_enter_getppid ./hwpmc_getppid 1234 2> "$out"
	n=$(awk '!/^#/ { print $1 }' "$out" | tail -n 1)
	check "-p syscalls:sys_enter_getppid counts 1234 calls (${n:-none})" \
		test "${n:-0}" -eq 1234
	# system scope, every CPU: at least the program's calls
	hwpmc-stat -s syscalls:sys_enter_getppid ./hwpmc_getppid 4321 2> "$out"
	n=$(awk '!/^#/ { s = 0; for (i = 1; i <= NF; i++) s += $i; print s }' "$out" | tail -n 1)
	check "-s syscalls:sys_enter_getppid counts >= 4321 calls (${n:-none})" \
		test "${n:-0}" -ge 4321
	hwpmc-stat -p syscalls:sys_enter_getppid:u true 2> "$out"
	rc=$?
	check "a tracepoint in user mode alone is refused, with the reason" \
		sh -c "test $rc -ne 0 && grep -q 'cannot count user mode alone' '$out'"
	# a sampling log names the event as it was written (PMCALLOCATEDYN)
	log=$(mktemp)
	hwpmc-stat -O "$log" -n 100 -P syscalls:sys_enter_getppid ./hwpmc_getppid 1234 2> "$out" ||
		sed 's/^/# /' "$out"
	hwpmc-stat -R "$log" --dump > "$out" 2>&1
	check "-R --dump names the tracepoint in the log: $(grep allocate "$out")" \
		grep -q ' allocatedyn 0x[0-9a-f]* "syscalls:sys_enter_getppid"' "$out"
	rm -f "$log"
	hwpmc-stat -p syscalls:no_such_call true 2> "$out"
	check "an unknown tracepoint is named" grep -q "no tracepoint 'syscalls:no_such_call'" "$out"
else
	skip "tracepoint counts" "no tracefs or no syscalls:sys_enter_getppid"
fi

if [ -d /sys/bus/event_source/devices/msr ]; then
	hwpmc-stat -s msr/tsc/ -w 0.2 sleep 0.5 2> "$out"
	n=$(awk '!/^#/ { print $1 }' "$out" | tail -n 1)
	check "-s msr/tsc/ counts (${n:-none})" test "${n:-0}" -gt 0
	hwpmc-stat -s msr/bogus/ true 2> "$out"
	check "a bad term names the PMU's terms and events" \
		grep -q "unknown term 'bogus' for PMU msr.*events: .*tsc" "$out"
	hwpmc-control -L > "$out"
	check "hwpmc-control -L lists msr/tsc/ under PERF" grep -q '^	msr/tsc/$' "$out"
else
	skip "msr PMU counts" "no msr PMU in /sys/bus/event_source/devices"
fi
rm -f "$out"
ksft_done
