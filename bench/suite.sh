#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: the benchmark suite in a guest (scripts/bench.sh puts
# it there through scripts/vm/run.sh --cmd).  Root, module loaded.
#
#   suite.sh [-q]       -q: the short variant
#
# Prints a header (kernel, CPUs, date, accelerator as the guest sees it),
# then hwpmc_bench's lines, between BENCH-BEGIN and BENCH-END rc=N.

here=$(cd "$(dirname "$0")" && pwd)
export PATH="$here:/usr/bin:/bin:/usr/sbin:/sbin:$PATH"
echo "BENCH-BEGIN"
echo "# kernel $(uname -r) $(uname -m), $(nproc) CPUs, $(date -u '+%Y-%m-%d %H:%M UTC')"
if command -v perf >/dev/null 2>&1; then
	echo "# perf: $(perf --version 2>&1)"
else
	echo "# perf: not in this guest (perf_event_open() comparisons only)"
fi
# perf must not throttle or lower its sample rate under emulation (also
# set by the guest's init)
echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent 2>/dev/null
echo -1 > /proc/sys/kernel/perf_event_paranoid 2>/dev/null
"$here/hwpmc_bench" "$@"
rc=$?
echo "BENCH-END rc=$rc"
exit $rc
