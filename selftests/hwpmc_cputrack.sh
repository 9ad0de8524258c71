#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: hwpmc-cputrack (cputrack(1)) and hwpmc-cpustat
# (cpustat(1M)) over libcpc and libpctx against the real module.  Run as
# root with the module loaded.  page-faults and cpu-clock are software
# events (a Linux extension of libcpc's event names), which every guest
# has; PAPI_tot_ins where there is a PMU (skipped without one).
. ./ksft_lib.sh

out=$(mktemp)
err=$(mktemp)

# a forking, exec'ing command: the shell forks and execs hwpmc_touch
# (500 fresh pages), then execs hwpmc_touch itself (300 pages, status 0)
hwpmc-cputrack -f -e -c page-faults sh -c './hwpmc_touch 500; exec ./hwpmc_touch 300' \
	> "$out" 2> "$err"
rc=$?
sed 's/^/# /' "$out" "$err"
check "cputrack -f -e: exit status 0" test "$rc" -eq 0
check "cputrack -f: header time pid lwp event page-faults" \
	grep -Eq '^ +time +pid +lwp +event +page-faults$' "$out"
shell=$(awk '$4 == "fork" { print $2; exit }' "$out")
child=$(sed -n 's/.* fork *# \([0-9]*\)$/\1/p' "$out" | head -n 1)
check "cputrack -f: a fork line (parent ${shell:-none}, child ${child:-none})" \
	test -n "$shell" -a -n "$child"
check "cputrack -f: the child's exec line, with its count" \
	grep -Eq "^ +[0-9.]+ +$child +1 +exec +[0-9]+\$" "$out"
check "cputrack -f: the child's exec line names the command" \
	grep -Eq "^ +[0-9.]+ +$child +1 +exec +# '\\./hwpmc_touch 500'\$" "$out"
pf=$(awk -v p="$child" '$2 == p && $4 == "exit" { print $5 }' "$out")
check "cputrack -f: the child's page faults after its exec >= 500 (${pf:-none})" \
	test "${pf:-0}" -ge 500
check "cputrack -f: the child's page faults < 5000 (counted once, its own)" \
	test "${pf:-0}" -lt 5000
check "cputrack -e: the shell's own exec names the command" \
	grep -Eq "^ +[0-9.]+ +$shell +1 +exec +# '\\./hwpmc_touch 300'\$" "$out"
spf=$(awk -v p="$shell" '$2 == p && $4 == "exit" { print $5 }' "$out")
check "cputrack -e: the shell's page faults after its exec: 300 <= ${spf:-none} < 500" \
	test "${spf:-0}" -ge 300 -a "${spf:-0}" -lt 500

# ticks: -T 0.2 over a 1 s spin, -N 3 stops after three samples
hwpmc-cputrack -T 0.2 -c page-faults ./hwpmc_spin 1 > "$out" 2> "$err"
n=$(grep -c ' tick ' "$out")
check "cputrack -T 0.2 over a 1 s spin: 3 to 6 tick lines ($n)" test "$n" -ge 3 -a "$n" -le 6
check "cputrack: the exit line" grep -Eq '^ +[0-9.]+ +1 +exit +[0-9]+$' "$out"
hwpmc-cputrack -T 0.1 -N 3 -c page-faults ./hwpmc_spin 30 > "$out" 2> "$err"
check "cputrack -N 3: three samples, then the command is killed" \
	test "$(grep -c ' tick ' "$out")" -eq 3

# -p: a running process, counted until it exits (3 s of CPU: the arm64
# guest under load once took longer than 1 s to start hwpmc-cputrack,
# which then found the process gone)
./hwpmc_spin 3 &
pid=$!
hwpmc-cputrack -p "$pid" -T 0.3 -c page-faults > "$out" 2> "$err"
rc=$?
wait "$pid"
check "cputrack -p: exit status 0 ($(head -n 1 "$err"))" test "$rc" -eq 0
check "cputrack -p: the process's exit line" grep -Eq ' 1 +exit +[0-9]+$' "$out"

expect_exit "cputrack: an unknown event: exit 1" 1 'Invalid event "no-such-event"' \
	hwpmc-cputrack -c no-such-event true

# instructions where there is a PMU (the arm64 guest)
if hwpmc-control -L 2> /dev/null | grep -qx 'PMU'; then
	hwpmc-cputrack -c PAPI_tot_ins ./hwpmc_touch 10 > "$out" 2> "$err"
	ins=$(awk '$3 == "exit" { print $4 }' "$out")
	check "cputrack -c PAPI_tot_ins: instructions counted (${ins:-none})" test "${ins:-0}" -gt 1000
else
	skip "cputrack -c PAPI_tot_ins" "no hardware PMU in this machine"
fi

# cpustat: two samples of a second, a row per CPU each, then the total
ncpu=$(grep -c '^processor' /proc/cpuinfo)
hwpmc-cpustat -c cpu-clock 1 2 > "$out" 2> "$err"
rc=$?
sed 's/^/# /' "$out" "$err"
check "cpustat -c cpu-clock 1 2: exit status 0" test "$rc" -eq 0
check "cpustat: header time cpu event cpu-clock" \
	grep -Eq '^ +time +cpu +event +cpu-clock$' "$out"
check "cpustat: two rows per CPU ($ncpu CPUs)" \
	test "$(grep -c ' tick ' "$out")" -eq $((2 * ncpu))
for c in $(seq 0 $((ncpu - 1))); do
	check "cpustat: CPU $c in both samples" \
		test "$(awk -v c="$c" '$2 == c && $3 == "tick"' "$out" | wc -l)" -eq 2
done
sum=$(awk '$3 == "tick" { s += $4 } END { printf "%.0f", s }' "$out")
tot=$(awk '$3 == "total" { print $4 }' "$out")
check "cpustat: the total row is the rows' sum ($tot = $sum), its cpu column $ncpu" \
	sh -c "test '$tot' = '$sum' && grep -Eq '^ +[0-9.]+ +$ncpu +total ' '$out'"
hwpmc-cpustat -c cpu-clock,sys 1 1 > "$out" 2> "$err"
v=$(awk '$2 == 0 && $3 == "tick" { print $4 }' "$out")
check "cpustat -c cpu-clock,sys: CPU 0 counted 0.5 to 1.5 s of its 1 s (${v:-none} ns)" \
	test "${v:-0}" -ge 500000000 -a "${v:-0}" -le 1500000000

rm -f "$out" "$err"
ksft_done
