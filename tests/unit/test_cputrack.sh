#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc-cputrack and hwpmc-cpustat against the fake module (preloaded):
# options, usage errors (exit 64), refused events (exit 1), and the
# output of cputrack(1) and cpustat(1M): header, tick, fork, exec, exit
# and total lines.  The fake counts FAKE_TICK (1000) more at every read.
#   test_cputrack.sh <hwpmc-cputrack> <hwpmc-cpustat> <fake_hwpmc.so>
set -u
TRACK=$1; CSTAT=$2; FAKE=$3
T=$(mktemp -d "${TMPDIR:-/tmp}/hwpmc-cputrack.XXXXXX")
trap 'rm -rf "$T"' EXIT
export ASAN_OPTIONS="verify_asan_link_order=0:${ASAN_OPTIONS:-}"
unset FAKE_HWPMC_PMU FAKE_HWPMC_EPERM FAKE_HWPMC_VERSION FAKE_HWPMC_GROW \
	FAKE_HWPMC_UNPRIV FAKE_HWPMC_TICK HWPMC_SYSFS
export HWPMC_CPUID=NoSuchVendor-0-0-0
export HWPMC_DEVICE=/dev/null
. "$(dirname "$0")/tap.sh"

# run STATUS TOOL ARGS...: status, no sanitizer report; $T/out, $T/err
run() {
	want=$1; shift
	LD_PRELOAD=$FAKE "$@" > "$T/out" 2> "$T/err"
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "# ${1##*/} $*: status $rc, expected $want"
		sed 's/^/# out: /' "$T/out" | head -20
		sed 's/^/# err: /' "$T/err" | head -20
		return 1
	fi
	! grep -q -e 'Sanitizer' -e 'runtime error' "$T/err" || {
		sed 's/^/# err: /' "$T/err" | head -40; return 1; }
}

# lines FILE PATTERN: how many lines of FILE match PATTERN (ERE)
lines() { grep -c -E -e "$2" "$T/$1"; }

# ---- hwpmc-cputrack: usage errors ----
usage() { # message args...
	msg=$1; shift
	run 64 "$TRACK" "$@" && has err "$msg" && has err '^usage: hwpmc-cputrack'
}
usage 'no events: -c is needed' true; ok $? "cputrack: no -c: usage error"
usage 'no command and no -p' -c cpu-clock; ok $? "cputrack: no command: usage error"
usage '-p and a command' -c cpu-clock -p 1 true; ok $? "cputrack: -p and a command: usage error"
run 64 "$TRACK" -Z -c cpu-clock true; ok $? "cputrack: an unknown option: exit 64"
usage '-T: not an interval' -c cpu-clock -T x true; ok $? "cputrack: -T x: usage error"
usage '-N: not a positive number' -c cpu-clock -N 0 true; ok $? "cputrack: -N 0: usage error"
usage '-p: not a process id' -c cpu-clock -p 12ab; ok $? "cputrack: -p 12ab: usage error"
usage 'there are 4 counters' -c pic9=cpu-clock true; ok $? "cputrack: pic9= of 4 counters: usage error"
usage 'counter pic0 named twice' -c pic0=cpu-clock,pic0=task-clock true
ok $? "cputrack: a counter named twice: usage error"
usage '"frobnicate" is not an attribute' -c cpu-clock,frobnicate=1 true
ok $? "cputrack: an unknown attribute: usage error"
usage 'sys takes no value' -c cpu-clock,sys=1 true; ok $? "cputrack: sys=1: usage error"
usage 'no event on counter 3' -c cpu-clock,nouser3 true; ok $? "cputrack: nouser3 without pic3: usage error"
usage 'names no event' -c sys true; ok $? "cputrack: a specification of no event: usage error"

# ---- refused events, a command that cannot run ----
run 1 "$TRACK" -c no-such-event true && has err '^hwpmc-cputrack: -c no-such-event: Invalid event "no-such-event"'
ok $? "cputrack: an unknown event: exit 1, libcpc's message"
run 1 "$TRACK" -c PAPI_tot_ins true && has err 'Invalid event "PAPI_tot_ins"'
ok $? "cputrack: a generic event without a PMU: exit 1"
run 1 "$TRACK" -c cpu-clock "$T/no-such-command" && has err 'cannot exec .*no-such-command: No such file or directory'
ok $? "cputrack: a command that does not exist: exit 1, the reason"
HWPMC_DEVICE=/nonexistent run 1 "$TRACK" -c cpu-clock true && has err '^hwpmc-cputrack: cannot access performance counters - '
ok $? "cputrack: no module: cpc_open's error"

# ---- output ----
run 0 "$TRACK" -c page-faults sh -c 'echo from-the-command'
ok $? "cputrack: page-faults of a command (counts both modes: a software event)"
has out '^ +time +lwp +event +page-faults$'; ok $? "cputrack: header: time lwp event, the event's name"
has out '^from-the-command$'; ok $? "cputrack: the command's output passes through"
has out '^ +[0-9]+\.[0-9]{3} +1 +exit +[0-9]+$'; ok $? "cputrack: an exit line: time, lwp 1, exit, the count"
[ "$(lines out ' exec ')" = 0 ] && [ "$(lines out ' fork ')" = 0 ]
ok $? "cputrack: no fork or exec lines for a command that does neither"

run 0 "$TRACK" -c cpu-clock -T 0.05 sleep 0.4
t=$(lines out ' tick ')
[ "$t" -ge 3 ] && [ "$t" -le 9 ]; ok $? "cputrack -T 0.05 over 0.4 s: tick lines ($t)"
has out '^ +[0-9]+\.[0-9]{3} +1 +tick +1000$'; ok $? "cputrack: a tick counts since the previous sample (the fake: 1000)"

start=$(date +%s)
run 0 "$TRACK" -c cpu-clock -T 0.05 -N 2 sleep 30
end=$(date +%s)
[ "$(lines out ' tick ')" = 2 ] && [ $((end - start)) -lt 10 ]
ok $? "cputrack -N 2: two samples, then the command is killed"

run 0 "$TRACK" -n -c cpu-clock true && hasnt out 'time' && [ "$(lines out ' exit ')" = 1 ]
ok $? "cputrack -n: no header"
run 0 "$TRACK" -o "$T/file" -c cpu-clock sh -c 'echo out' &&
	has file '^ +time +lwp +event +cpu-clock$' && has file ' exit ' && has out '^out$' && hasnt out 'exit'
ok $? "cputrack -o: the lines in the file, the command's output on stdout"
run 1 "$TRACK" -o "$T/no/such/dir" -c cpu-clock true && has err 'no/such/dir: No such file or directory'
ok $? "cputrack -o in a directory that does not exist: exit 1"
run 0 "$TRACK" -t -c cpu-clock true && has out '^ +time +lwp +event +cpu-clock +ticks$' &&
	has out ' exit +[0-9]+ +[0-9]+$'
ok $? "cputrack -t: a ticks column"
run 0 "$TRACK" -v -c cpu-clock true && has out ' 1 +init_lwp +0$' && has out ' fini_lwp +[0-9]+$'
ok $? "cputrack -v: init_lwp and fini_lwp lines"
run 0 "$TRACK" -c cpu-clock,page-faults true && has out ' event +cpu-clock +page-faults$' &&
	has out ' exit +[0-9]+ +[0-9]+$'
ok $? "cputrack: two events in one -c: two columns"
run 0 "$TRACK" -c cpu-clock -c task-clock -T 0.05 sleep 0.3 && has out ' event +pic0$' && has out ' tick '
ok $? "cputrack: two -c sets alternate: columns named pic0..."
run 0 "$TRACK" -c pic1=cpu-clock,pic0=page-faults true && has out ' event +cpu-clock +page-faults$'
ok $? "cputrack: picn= names the counter; columns in the order given"

# fork and exec: -f follows the children, -e the execs
run 0 "$TRACK" -f -e -c cpu-clock sh -c '/bin/true; exec /bin/echo done'
has out '^ +time +pid +lwp +event +cpu-clock$'; ok $? "cputrack -f: a pid column"
has out '^ +[0-9.]+ +[0-9]+ +1 +fork +# [0-9]+$'; ok $? "cputrack -f: a fork line names the child"
child=$(sed -n 's/.* fork *# \([0-9]*\)$/\1/p' "$T/out" | head -n 1)
has out "^ +[0-9.]+ +$child +1 +exec +[0-9]+\$" && has out "^ +[0-9.]+ +$child +1 +exec +# '/bin/true'\$"
ok $? "cputrack -f: the child's exec: its count, then its command"
has out "^ +[0-9.]+ +$child +1 +exit +[0-9]+\$"; ok $? "cputrack -f: the child's exit"
[ "$(lines out ' exit ')" = 2 ] && has out "exec +# '/bin/echo done'" && has out '^done$'
ok $? "cputrack -fe: the shell's own exec followed to its exit"
run 0 "$TRACK" -c cpu-clock sh -c '/bin/true; exec /bin/echo done'
[ "$(lines out ' fork ')" = 0 ] && [ "$(lines out ' exit ')" = 0 ] && has out "exec +# '/bin/echo done'"
ok $? "cputrack without -f, -e: no children; the process let go at its exec"
run 0 "$TRACK" -c cpu-clock sh -c 'exec sh -c "sleep 0.3; echo late"' && has out '^late$'
ok $? "cputrack without -e: the command let go is waited for"

# -p: a running process
sleep 0.6 &
pid=$!
run 0 "$TRACK" -p "$pid" -T 0.1 -c cpu-clock && has out ' tick ' && has out ' 1 +exit +[0-9]+$'
ok $? "cputrack -p: a process counted until it exits"
wait "$pid"
run 1 "$TRACK" -p 999999999 -c cpu-clock && has err 'no process 999999999'
ok $? "cputrack -p of no process: exit 1"

run 0 "$TRACK" -h && has out '^usage: hwpmc-cputrack' && has out 'cpu-clock' && has out 'Attributes:'
ok $? "cputrack -h: usage, the events and attributes"

# ---- hwpmc-cpustat ----
ncpu=$(getconf _NPROCESSORS_CONF)
[ "$ncpu" -gt 4 ] && ncpu=4		# FAKE_NCPU
[ "$ncpu" -gt 2 ] && ncpu=$((ncpu - 1))	# FAKE_OFFLINE_CPU
cusage() { # message args...
	msg=$1; shift
	run 64 "$CSTAT" "$@" && has err "$msg" && has err '^usage: hwpmc-cpustat'
}
cusage 'no events: -c is needed' 1 1; ok $? "cpustat: no -c: usage error"
cusage 'interval: not a number of seconds' -c cpu-clock x; ok $? "cpustat: a bad interval: usage error"
cusage 'count: not a positive number' -c cpu-clock 1 0; ok $? "cpustat: count 0: usage error"
cusage 'too many arguments' -c cpu-clock 1 2 3; ok $? "cpustat: three operands: usage error"
cusage '-p: not a number of seconds' -c cpu-clock -p -1 1 1; ok $? "cpustat: a bad -p: usage error"
run 1 "$CSTAT" -c no-such-event 1 1 && has err 'Invalid event "no-such-event"'
ok $? "cpustat: an unknown event: exit 1"
FAKE_HWPMC_UNPRIV=1 run 1 "$CSTAT" -c cpu-clock 0.05 1 && has err 'CAP_PERFMON'
ok $? "cpustat without CAP_PERFMON: exit 1, says why"

run 0 "$CSTAT" -c cpu-clock 0.05 2
ok $? "cpustat -c cpu-clock 0.05 2"
has out '^ +time +cpu +event +cpu-clock$'; ok $? "cpustat: header: time cpu event, the event's name"
[ "$(lines out ' tick ')" = $((2 * ncpu)) ]; ok $? "cpustat: two rows per CPU ($ncpu CPUs)"
has out '^ +[0-9]+\.[0-9]{3} +0 +tick +1000$'; ok $? "cpustat: a row: time, CPU, tick, the count since the last"
has out "^ +[0-9]+\\.[0-9]{3} +$ncpu +total +$((2 * ncpu * 1000))\$"
ok $? "cpustat: the total row: the number of CPUs, the sum"
run 0 "$CSTAT" -n -t -c cpu-clock,page-faults,sys 0.05 1 && hasnt out 'time' &&
	has out ' 0 +tick +[0-9]+ +[0-9]+ +[0-9]+$'
ok $? "cpustat -n -t: no header; two events and a ticks column"
run 0 "$CSTAT" -c cpu-clock -c page-faults,sys -p 0.2 0.05 1 && has out ' event +pic0$' &&
	[ "$(lines out ' tick ')" = $((2 * ncpu)) ] && [ "$(lines out ' total ')" = 2 ]
ok $? "cpustat -p: a cycle of both sets, a total row each"
cusage '-T: u or d' -c cpu-clock -T x 1 1; ok $? "cpustat: -T x: usage error"
now=$(date +%s)
run 0 "$CSTAT" -T u -c cpu-clock 0.05 2 && [ "$(lines out '^[0-9]{10,}$')" = 2 ] &&
	t=$(grep -E '^[0-9]{10,}$' "$T/out" | head -n 1) && [ "$t" -ge "$now" ] && [ "$t" -le $((now + 5)) ]
ok $? "cpustat -T u: the seconds since the Epoch before each sample (2)"
run 0 "$CSTAT" -T d -c cpu-clock 0.05 1 && [ "$(lines out '^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8} [A-Z+0-9-]+ [0-9]{4}$')" = 1 ]
ok $? "cpustat -T d: the date before the sample"
run 0 "$CSTAT" -s -c cpu-clock,sys,nouser 0.05 1 && [ "$(lines out ' tick ')" = "$ncpu" ]
ok $? "cpustat -s: a system-only set with idle soakers"
run 0 "$CSTAT" -h && has out '^usage: hwpmc-cpustat' && has out 'Generic Events'
ok $? "cpustat -h: usage and the events"

echo "1..$n"
exit $fail
