#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: where the time of one hwpmc operation goes, next to
# perf's equivalent (docs/performance.md).  In a guest, as root:
#   scripts/vm/run.sh --cmd bench/profile.sh KVER
# (PROFILE_OPS in the script's environment: a subset of the operations).
# perf record -a samples cpu-clock (the x86 guests have no PMU) while
# hwpmc_bench loops over one operation; perf report lists the symbols.
# Absolute times under the profiler are inflated; compare the symbols.

b=/opt/hwpmc/bench/hwpmc_bench
echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent
echo 0 > /proc/sys/kernel/kptr_restrict
for op in ${PROFILE_OPS:-read-hwpmc read-perf startstop-hwpmc startstop-perf sample-hwpmc}; do
	echo "PROFILE $op"
	case $op in
	sample-*) filter='' sort=comm,sym ;;	# the log writer is a kworker
	*) filter="--comm hwpmc_bench" sort=sym ;;
	esac
	perf record -q -a -e cpu-clock -c 200000 -o /tmp/p.data -- $b loop "$op" 3 2>&1
	# shellcheck disable=SC2086
	perf report -i /tmp/p.data --stdio --no-children --sort $sort $filter \
		2>/dev/null | grep -v '^#' | grep -v '^$' | head -n 40
done
