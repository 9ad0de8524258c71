#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: a second core PMU of some CPUs in the PERF class
# (hybrid Intel's cpu_atom; docs/design.md, decision 27), with the test
# PMU of samples/hwpmc_hetero_pmu (installed beside hwpmc.ko): a
# hardware task context of CPU 1 only.  Loads it, runs hwpmc_perf_test's
# hetero cases (the ioctls), then hwpmc-stat on it (the library takes
# the CPUs of system-scope counts from its sysfs `cpus`), and unloads it.
# Run as root with the module loaded.
. ./ksft_lib.sh

M=hwpmc_hetero_pmu
D=/sys/bus/event_source/devices/hwpmc_hetero
out=$(mktemp)
ncpu=$(grep -c '^processor' /proc/cpuinfo)

if ! modinfo $M > /dev/null 2>&1; then
	skip "a core PMU of some CPUs" "$M is not installed"
	ksft_done
fi
if [ "$ncpu" -lt 2 ]; then
	skip "a core PMU of some CPUs" "one CPU: the test PMU is CPU 1's"
	ksft_done
fi

rmmod $M 2> /dev/null
check "modprobe $M" modprobe $M
check "its sysfs cpus is CPU 1 ($(cat $D/cpus 2>&1))" test "$(cat $D/cpus 2>&1)" = 1
dmesg | grep -E 'WARNING|perf_pmu_register' | sed 's/^/# /'

./hwpmc_perf_test -f hetero > "$out" 2>&1
rc=$?
sed 's/^/# /' "$out"
check "hwpmc_perf_test -f hetero (exit $rc)" test $rc -eq 0 -o $rc -eq 4

# system scope: the CPUs of the PMU's `cpus`, CPU 1 alone
hwpmc-stat -v -s hwpmc_hetero/ns/ sleep 0.3 > "$out" 2>&1
rc=$?
sed 's/^/# /' "$out"
check "hwpmc-stat -s hwpmc_hetero/ns/ counts (exit $rc)" test $rc -eq 0
check "-s takes the CPUs of its PMU's cpus" grep -q "the CPUs of its PMU" "$out"
n=$(grep -v '^hwpmc-stat:' "$out" | awk '!/^#/ && NF { print NF; exit }')
check "one column: CPU 1 (${n:-none})" test "${n:-0}" -eq 1
hwpmc-stat -c 0 -s hwpmc_hetero/ns/ true > "$out" 2>&1
rc=$?
sed 's/^/# /' "$out"
check "-s on CPU 0 is refused with the reason (exit $rc)" \
	sh -c "test $rc -ne 0 && grep -q 'not one of its CPUs' '$out'"

# process scope: a program pinned to CPU 1 counts, pinned to CPU 0 not
# (hwpmc-stat pinned too, so that its child never runs on the other)
if command -v taskset > /dev/null; then
	taskset 2 hwpmc-stat -p hwpmc_hetero/ns/ ./hwpmc_spin 0.3 > "$out" 2>&1
	n=$(awk '!/^#/ && NF { print $1 }' "$out" | tail -n 1)
	sed 's/^/# /' "$out"
	check "-p on CPU 1: about 0.3 s (${n:-none} ns)" test "${n:-0}" -gt 150000000
	# as perf's per-task counter of such a PMU: enabled, never running
	taskset 1 hwpmc-stat -p hwpmc_hetero/ns/ ./hwpmc_spin 0.3 > "$out" 2>&1
	sed 's/^/# /' "$out"
	check "-p on CPU 0: <not counted>" grep -q '^ *<not counted>' "$out"
	# read while it runs there, from CPU 1 (-w; taskset runs on CPU 1
	# before its exec): no row is a zero with running time, the last
	# (CPU 0 only) is enabled and not running
	taskset 2 hwpmc-stat --csv -o "$out" -w 0.1 -p hwpmc_hetero/ns/ \
		taskset 1 ./hwpmc_spin 0.5
	sed 's/^/# /' "$out"
	check "-p on CPU 0, read from CPU 1 meanwhile: enabled, not running" awk -F, '
		$2 ~ /hwpmc_hetero/ && $1 != "total" {
			if ($5 == "0" && $7 > 0) bad = 1
			last6 = $6; last7 = $7
		}
		END { exit !(!bad && last6 > 0 && last7 == 0) }' "$out"
else
	skip "hwpmc-stat -p pinned" "no taskset"
	skip "hwpmc-stat -p pinned, read meanwhile" "no taskset"
fi

check "rmmod $M" rmmod $M
rm -f "$out"
ksft_done
