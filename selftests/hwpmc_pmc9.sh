#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: pmc(9) from a kernel module.  Loads
# samples/hwpmc_pmc9_sample (installed beside hwpmc.ko), which counts and
# profiles a kernel loop at load, and checks its results (its read-only
# parameters): exact instructions where there is a PMU (the arm64
# guest), context switches and task-clock everywhere, profiling samples,
# which hwpmc-stat --kernel-profiles logs and hwpmc-stat -R reports;
# the rows it holds are KERNEL in hwpmc-control -l, and /dev/hwpmc gets
# EBUSY for them; what it leaves configured is released at its unload.
# Run as root with the module loaded.
. ./ksft_lib.sh

M=hwpmc_pmc9_sample
P=/sys/module/$M/parameters
param() { cat "$P/$1"; }
out=$(mktemp)
kprof=$(mktemp)
ncpu=$(grep -c '^processor' /proc/cpuinfo)

if ! modinfo $M > /dev/null 2>&1; then
	skip "pmc(9) sample" "$M is not installed"
	ksft_done
fi


rmmod $M 2> /dev/null
# loaded under a log that takes the kernel's profiles: the sample's
# profile of its loop() goes there
check "modprobe $M hold=1 leave=1 under hwpmc-stat --kernel-profiles" \
	hwpmc-stat -q --kernel-profiles -O "$kprof" modprobe $M hold=1 leave=1
for f in error ncounters cputype pmu_row soft_row insns_loop insns_run csw \
	 task_clock prof_samples held_row busy_errno loops; do
	diag "$f=$(param $f)"
done
check "no step failed (error 0)" test "$(param error)" -eq 0
npmc=$(hwpmc-control -l | sed -n 's/.* with \([0-9]*\) PMCs per CPU$/\1/p')
check "pmc_get_num_counters() is hwpmc-control's rows per CPU" test "$(param ncounters)" -eq "${npmc:-0}"
check "pmc_get_counter_type(-1) is a CPU type" test "$(param cputype)" -ge 0

if hwpmc-control -L | grep -qx PMU; then
	check "a PMU row counted instructions" test "$(param pmu_row)" -ge 0
	check "the loop alone: exactly 2 instructions an iteration" \
		test "$(param insns_loop)" -eq $((2 * $(param loops)))
	check "a run counted at least its loop" \
		test "$(param insns_run)" -ge $((2 * $(param loops)))
else
	skip "exact instructions of the kernel loop" "no hardware PMU in this machine"
fi
check "context switches over 10 sleeps: at least 10" test "$(param csw)" -ge 10
check "context switches over 10 sleeps: at most 20" test "$(param csw)" -le 20
check "task-clock counted" test "$(param task_clock)" -gt 0
check "pmc_start_profiling() took samples (>= 10)" test "$(param prof_samples)" -ge 10

# the profile in the log: its event allocated, its samples in loop() of
# the module (/proc/kallsyms: the module is still loaded)
hwpmc-stat -R "$kprof" --dump > "$out" 2>&1
check "the log names the profile (PMCALLOCATE)" grep -Eq '^ *[0-9.]+ allocate(dyn)? ' "$out"
check "the log has the kernel's MAP_IN" grep -q 'map-in -1 .*"\[kernel\]"' "$out"
check "the log has the module's MAP_IN" grep -q "map-in -1 .*\"\[$M\]\"" "$out"
hwpmc-stat -R "$kprof" > "$out" 2>&1
sed -n 1,6p "$out" | while IFS= read -r l; do diag "$l"; done
n=$(awk -v o="[$M]" '$4 == "loop" && $5 == o { print $3 }' "$out")
check "hwpmc-stat -R: loop() of $M sampled (>= 10 times, $n)" test "${n:-0}" -ge 10

# the rows kernel code holds: the sample's kernel counter and its task
# counter (leave=1)
held=$(param held_row)
soft=$(param soft_row)
row() {	# CPU ROW: the disposition column of that row
	hwpmc-control -l | awk -v c="#CPU $1:" -v r="$2" '
		$0 == c { on = 1; next } /^#CPU/ { on = 0 }
		on && $1 == r { print $5 }'
}
check "held row $held is KERNEL on CPU 0" test "$(row 0 "$held")" = KERNEL
check "task counter's row $soft is KERNEL" test "$(row 0 "$soft")" = KERNEL
check "the rows KERNEL on every CPU" test "$(hwpmc-control -l | grep -c ' KERNEL')" -eq $((2 * ncpu))
check "a task counter on the kernel's row: EBUSY" test "$(param busy_errno)" -eq 16
hwpmc-control -c 0 -d "$held" > "$out" 2>&1; rc=$?
check "PMCADMIN of a KERNEL row fails" test "$rc" -ne 0
check "... with EBUSY" grep -q 'busy' "$out"
check "the row is still KERNEL" test "$(row 0 "$held")" = KERNEL

# hwpmc cannot go first: its client holds a reference on it
check "rmmod hwpmc refused while its client is loaded" sh -c '! rmmod hwpmc 2> /dev/null'
check "hwpmc still loaded" test -d /sys/module/hwpmc

# unload: the kernel counter freed by the sample, its task counter by hwpmc
check "rmmod $M" rmmod $M
check "hwpmc released what it left configured" sh -c "dmesg | grep -q '$M left a counter on row $soft: released'"
check "no KERNEL row after its unload" test "$(hwpmc-control -l | grep -c ' KERNEL')" -eq 0
check "held row $held FREE again" test "$(row 0 "$held")" = FREE

# every free SOFT row held: /dev/hwpmc's SOFT PMCs get EBUSY, not a share
check "modprobe $M hold=2" modprobe $M hold=2
diag "nheld=$(param nheld) error=$(param error)"
check "hold=2: no step failed" test "$(param error)" -eq 0
nsoft=$(hwpmc-control -l | awk '/^#CPU 0:/ { on = 1; next } /^#CPU/ { on = 0 }
	on && $3 == "SOFT" { n++ } END { print n + 0 }')
check "hold=2: every SOFT row held ($nsoft)" test "$(param nheld)" -eq "$nsoft"
hwpmc-stat -p task-clock true > "$out" 2>&1; rc=$?
diag "$(cat "$out")"
check "hwpmc-stat on a SOFT event fails" test "$rc" -ne 0
check "... with EBUSY" grep -qi 'busy' "$out"
check "rmmod $M (hold=2)" rmmod $M
hwpmc-stat -p task-clock true > "$out" 2>&1; rc=$?
check "hwpmc-stat counts again after its unload" test "$rc" -eq 0

# fork semantics: a process's counter is copied into its children from
# zero, copies of an enabled counter count, of a disabled one do not, and
# what exited children counted is PMC_VALUE_FLAGS_CHILDREN's
# (progress in the kernel log too, where a hang shows up at once)
klog() { echo "hwpmc_pmc9.sh: $*" > /dev/kmsg 2> /dev/null; }
fifo=/tmp/pmc9.fifo.$$
done_f=/tmp/pmc9.done.$$
rm -f "$fifo" "$done_f"
mkfifo "$fifo"
sh -c "read x < $fifo; ./hwpmc_touch 2000; ./hwpmc_touch 2000; : > $done_f; read x < $fifo" &
tp=$!
klog "target $tp"
check "modprobe $M target=$tp" modprobe $M target="$tp"
klog "modprobe target=$tp: done"
check "the target started" timeout 30 sh -c "echo go > $fifo"
klog "the target started"
i=0
while [ ! -e "$done_f" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
check "the target's children ran" test -e "$done_f"
own=$(param target_own); ch=$(param target_children); off=$(param target_off_children)
diag "target: own $own, children $ch, disabled counter's children $off; error $(param error)"
check "target: no step failed" test "$(param error)" -eq 0
check "children: both children's 2000 page faults (>= 4000)" test "$ch" -ge 4000
check "children: not more than twice that" test "$ch" -lt 8000
check "own: not the children's (< 2000)" test "$own" -ge 0 -a "$own" -lt 2000
check "a disabled counter's copies counted nothing" test "$off" -eq 0
check "the target ends" timeout 30 sh -c "echo go > $fifo"
klog "the target ends"
wait "$tp"
check "rmmod $M (target)" rmmod $M
klog "rmmod: done"
rm -f "$fifo" "$done_f"

rm -f "$out" "$kprof"
ksft_done
