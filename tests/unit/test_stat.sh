#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc-stat: usage errors (64, naming the problem), no module, and runs
# against the fake module (preloaded; running PMCs count 1000 per read).
#   test_stat.sh <hwpmc-stat> <fake_hwpmc.so> [<pty_run>]
set -u
STAT=$1; FAKE=$2; PTY=${3:-}
T=$(mktemp -d "${TMPDIR:-/tmp}/hwpmc-stat.XXXXXX")
trap 'rm -rf "$T"' EXIT
export ASAN_OPTIONS="verify_asan_link_order=0:${ASAN_OPTIONS:-}"
unset FAKE_HWPMC_NODATA FAKE_HWPMC_TIMES FAKE_HWPMC_NOTIMES FAKE_HWPMC_PMU FAKE_HWPMC_EPERM FAKE_HWPMC_VERSION FAKE_HWPMC_GROW FAKE_HWPMC_UNPRIV FAKE_HWPMC_TICK FAKE_HWPMC_KPROF
HAS_GREP=-F
. "$(dirname "$0")/tap.sh"


# run EXPECTED-STATUS CMD...: keeps stdout/stderr in $T/out, $T/err
run() {
	want=$1; shift
	"$@" > "$T/out" 2> "$T/err"
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "# $*: status $rc, expected $want"
		sed 's/^/# out: /' "$T/out" | head -20
		sed 's/^/# err: /' "$T/err" | head -20
		return 1
	fi
	if grep -q -e 'Sanitizer' -e 'runtime error' "$T/err"; then
		sed 's/^/# err: /' "$T/err" | head -40
		return 1
	fi
	return 0
}
fake() { env HWPMC_DEVICE=/dev/null LD_PRELOAD="$FAKE" "$@"; }

# usage errors: exit 64 and the message (no module needed for most)
usage_case() { # expected-message args...
	msg=$1; shift
	run 64 fake "$STAT" "$@" && has err "$msg" && has err "usage:"
	ok $? "usage error for '$*': $msg"
}
usage_case "no event: give -p, -s, -P or -S"
usage_case "no event: give -p, -s, -P or -S" true
usage_case "unknown option" -x -p cpu-clock true
usage_case "option -p needs an argument" -p
usage_case "option --pid needs an argument" -R /dev/null --pid
usage_case "needs a command or -t pid" -p cpu-clock
usage_case "needs a command or -t pid" -s cpu-clock -p cpu-clock
usage_case "-t and a command exclude each other" -p cpu-clock -t 1 true
usage_case "bad -t '(x': " -p cpu-clock -t '(x'
usage_case "bad pid '99999999999'" -p cpu-clock -t 99999999999
usage_case "bad pid '0'" -p cpu-clock -t 0
usage_case "bad pid '-5'" -p cpu-clock -t -5
usage_case "bad pid ''" -p cpu-clock -t ''
usage_case "bad interval '0.05' (seconds, at least 0.1)" -w 0.05 -p cpu-clock true
usage_case "bad interval 'abc'" -w abc -p cpu-clock true
usage_case "bad interval ''" -w '' -p cpu-clock true
usage_case "bad interval 'nan'" -w nan -p cpu-clock true
usage_case "bad interval 'inf'" -w inf -p cpu-clock true
usage_case "unknown event 'cyclez'" -p cyclez true
usage_case "bad duration '0.05' (seconds, at least 0.1)" -l 0.05 -p cpu-clock true
usage_case "bad duration 'x'" -l x -p cpu-clock true
usage_case "unknown qualifier 'bogus' in 'cpu-clock,bogus'" -p cpu-clock,bogus true
usage_case "unknown modifier ':q'" -s cycles:q -w 1
# vendor events (pmu-events tables): parsed before the module is needed
HWPMC_CPUID=GenuineIntel-6-55-4 usage_case "unknown qualifier 'bogus' in 'inst_retired.any,bogus' (valid: usr, os, event, umask" -p inst_retired.any,bogus true
HWPMC_CPUID=GenuineIntel-6-FF-0 usage_case "unknown event 'inst_retired.any' (no vendor event table for CPU GenuineIntel-6-FF-0 of HWPMC_CPUID" -p inst_retired.any true
HWPMC_CPUID=GenuineIntel-6-55-4 run 1 env HWPMC_DEVICE=/nonexistent "$STAT" -p INST_RETIRED.ANY:u -p cpu/event=0xc4,umask=0/ true &&
	! grep -q "unknown" "$T/err"
ok $? "vendor event and PMU form parse; only the module is missing"
# -u: describe an event, no module needed
HWPMC_CPUID=GenuineIntel-6-7E-5 run 0 env HWPMC_DEVICE=/nonexistent "$STAT" -u frontend_retired.itlb_miss:u &&
	has out "name:     frontend_retired.itlb_miss (icelake events of CPU GenuineIntel-6-7E-5)" &&
	has out "encoding: event=0xc6,umask=0x1,frontend=0x14" &&
	has out "config:   0x1c6, config1 0x14, config2 0" &&
	has out "desc:     Retired Instructions who experienced iTLB true miss." &&
	has out "modes:    user only" && has out "rate:     100007 (-P and -S without -n)"
ok $? "-u: a vendor event's PMU, encoding, description, default rate"
run 0 env HWPMC_DEVICE=/nonexistent "$STAT" -u L1-dcache-misses &&
	has out "name:     L1-dcache-load-misses" && has out "generic cache event" &&
	has out "rate:     65536 (-P and -S without -n)"
ok $? "-u: a generic event"
# libpfm4's spelling (decision 32), where the build has libpfm4
if [ -n "${PFM_TSV:-}" ]; then
	HWPMC_CPUID=GenuineIntel-6-55-4 run 0 env HWPMC_DEVICE=/nonexistent "$STAT" -u skx::INST_RETIRED:ANY_P:u &&
		has out "name:     inst_retired.any_p (skylakex events of CPU GenuineIntel-6-55-4)" &&
		has out "libpfm4:  INST_RETIRED:ANY_P" &&
		has out "config:   0xc0, config1 0, config2 0" &&
		has out "modes:    user only" && has out "rate:     2000003 (-P and -S without -n)"
	ok $? "-u: a libpfm4 name with its PMU and a modifier: its event, rate and modes"
	HWPMC_CPUID=GenuineIntel-6-55-4 run 64 "$STAT" -u INST_RETIRED:BOGUS &&
		has err "unknown libpfm4 attribute 'BOGUS' of INST_RETIRED in 'INST_RETIRED:BOGUS' (unit masks: ALL, ANY_P,"
	ok $? "-u: an unknown libpfm4 unit mask, exit 64"
else
	skip "-u: a libpfm4 name with its PMU and a modifier: its event, rate and modes" "built without libpfm4 (no libpfm4-dev)"
	skip "-u: an unknown libpfm4 unit mask, exit 64" "built without libpfm4 (no libpfm4-dev)"
fi
HWPMC_CPUID=GenuineIntel-6-7E-5 run 64 "$STAT" -u inst_retired.anyy &&
	has err "unknown event 'inst_retired.anyy' (not in the icelake table"
ok $? "-u: an unknown event, exit 64"
usage_case "-u describes an event: nothing else with it" -u cycles -p cycles true
usage_case "event 'cycles' is not available on this machine (no hardware PMU)" -p cycles true
usage_case "bad CPU list '4' (CPUs 0-3, or '*')" -c 4 -s cpu-clock true
usage_case "bad CPU list '1-0'" -c 1-0 -s cpu-clock true
usage_case "bad CPU list 'a'" -c a -s cpu-clock true
usage_case "bad CPU list '0,'" -c 0, -s cpu-clock true
# a bad specifier is found before the module is needed
run 64 env HWPMC_DEVICE=/nonexistent "$STAT" -p cyclez true && has err "unknown event 'cyclez'"
ok $? "bad specifier without a module: 64, named"

run 0 "$STAT" -h && has out "usage:" && has out "--csv" && [ ! -s "$T/err" ]
ok $? "-h: usage on stdout, status 0"

# no module: pmc_init's message, exit 1
run 1 env HWPMC_DEVICE=/nonexistent "$STAT" -p cpu-clock true && has err "hwpmc-stat: /nonexistent:"
ok $? "no module: pmc_init_message(), status 1"

# a command: exit status passed through, counts on stderr
run 7 fake "$STAT" -p cpu-clock -p page-faults sh -c 'exit 7' &&
	has err "#          p/cpu-clock        p/page-faults" && [ ! -s "$T/out" ]
ok $? "command's exit status (7) passed through, pmcstat's header on stderr"
run 143 fake "$STAT" -p cpu-clock sh -c 'kill -TERM $$'
ok $? "command killed by SIGTERM: 143"
run 127 fake "$STAT" -p cpu-clock /no/such/command && has err "/no/such/command"
ok $? "command not found: 127"
run 3 fake "$STAT" -p cpu-clock -o "$T/file" sh -c 'echo child; exit 3' &&
	has out child && [ ! -s "$T/err" ] && grep -q 'p/cpu-clock' "$T/file"
ok $? "-o file: the counts go there, the command's output stays"
run 0 fake "$STAT" -q -p cpu-clock true && hasnt err "#" && has err "0"
ok $? "-q: no header"

# machine-readable
run 0 fake "$STAT" --csv -p 'cpu-clock,os' -p cpu-clock:u true &&
	has err 'time,event,scope,cpu,value' &&
	has err 'total,"cpu-clock,os",process,,0' && has err 'total,cpu-clock:u,process,,0'
ok $? "--csv: header, total rows, a specifier with a comma quoted"
run 4 fake "$STAT" --json -p cpu-clock sh -c 'exit 4' &&
	has err '{"time":' && has err '"final":true,"counters":[{"event":"cpu-clock","scope":"process","cpu":null,"value":0}],"exit_status":4}'
ok $? "--json: one object, the exit status"
run 0 fake "$STAT" --json -c 0 -s cpu-clock -w 0.1 sleep 0.35 &&
	[ "$(grep -c '"final":false' "$T/err")" -ge 2 ] &&
	has err '{"event":"cpu-clock","scope":"system","cpu":0,"value":1000}'
ok $? "--json -w: one object per interval, then the total"
run 0 fake "$STAT" --csv -c 3 -s cpu-clock -w 0.1 sleep 0.35 &&
	grep -q '^0\.[0-9]*,cpu-clock,system,3,1000,,$' "$T/err" && grep -q '^total,cpu-clock,system,3,' "$T/err"
ok $? "--csv -w: timed rows, then the totals"

# --metrics: metrics of the pmu-events tables, their events counted as -p's.
# The fake counts 1000 a read for every PMC: equal counts, so Skylake-X's
# tma_retiring = UOPS_RETIRED.RETIRE_SLOTS / (4 * core_clks), core_clks
# (SMT off, #core_wide 0) = THREAD / 2 * (1 + ONE_THREAD_ACTIVE /
# REF_XCLK) = N: 25 %; tma_info_thread_ipc = INST_RETIRED.ANY /
# CPU_CLK_UNHALTED.THREAD = 1.00
mkdir -p "$T/sys/devices/system/cpu/smt" && echo 0 > "$T/sys/devices/system/cpu/smt/active"
mfake() { env HWPMC_DEVICE=/dev/null LD_PRELOAD="$FAKE" FAKE_HWPMC_PMU=1 HWPMC_SYSFS="$T/sys" "$@"; }
HWPMC_CPUID=GenuineIntel-6-55-4 run 0 mfake "$STAT" --metrics tma_retiring,tma_info_thread_ipc -w 0.1 sleep 0.35 &&
	has err "Performance counter stats for 'sleep 0.35':" &&
	grep -q '^ *[1-9][0-9]*  *uops_retired.retire_slots *$' "$T/err" &&
	grep -q '^ *25\.00 %  *tma_retiring *$' "$T/err" &&
	grep -q '^ *1\.00  *tma_info_thread_ipc *$' "$T/err" && has err "seconds time elapsed"
ok $? "--metrics: Skylake-X tma_retiring 25.00 %, tma_info_thread_ipc 1.00 from the fake's counts"
HWPMC_CPUID=GenuineIntel-6-55-4 run 0 mfake "$STAT" --csv --metrics tma_retiring -w 0.1 sleep 0.25 &&
	has err 'time,event,scope,cpu,value,enabled,running,unit' && has err 'total,cpu_clk_unhalted.thread,process,,' &&
	has err 'total,tma_retiring,metric,,25,,,%' && grep -q '^0\.[0-9]*,tma_retiring,metric,,25,,,%$' "$T/err"
ok $? "--metrics --csv: metric rows (value, unit) per interval and total"
HWPMC_CPUID=GenuineIntel-6-55-4 run 0 mfake "$STAT" --json --metrics tma_retiring -w 0.1 sleep 0.25 &&
	has err '"final":true' && has err '"metrics":[{"metric":"tma_retiring","value":25,"unit":"%"}]'
ok $? "--metrics --json: the metrics' values and units"
HWPMC_CPUID=GenuineIntel-6-55-4 run 0 mfake "$STAT" -q --metrics tma_info_thread_ipc -w 0.1 sleep 0.25 &&
	hasnt err "Performance counter stats" && grep -q '^# *1\.00  tma_info_thread_ipc$' "$T/err"
ok $? "--metrics -q: pmcstat's rows, then the metric"
HWPMC_CPUID=GenuineIntel-6-55-4 run 0 mfake "$STAT" --metrics tma_retiring sleep 0.1 &&
	grep -q '^ *n/a  *tma_retiring *# division by zero$' "$T/err"
ok $? "--metrics: counts of 0 (no -w: the fake's stopped PMCs read 0): n/a, division by zero"
HWPMC_CPUID=GenuineIntel-6-55-4 run 0 mfake "$STAT" --metrics llc_data_read_demand_plus_prefetch_miss_latency,tma_retiring -w 0.1 sleep 0.25 &&
	has err "metric llc_data_read_demand_plus_prefetch_miss_latency is not supported: event 'cha@" &&
	grep -q "^ *n/a  *llc_data_read_demand_plus_prefetch_miss_latency *# not supported: .*PMU 'cha'" "$T/err" &&
	grep -q '^ *25\.00 %  *tma_retiring *$' "$T/err"
ok $? "--metrics: an uncore metric is reported not supported, with the reason; the others counted"
HWPMC_CPUID=GenuineIntel-6-55-4 run 1 mfake "$STAT" --metrics llc_data_read_demand_plus_prefetch_miss_latency true &&
	has err "nothing to count: no metric of --metrics is supported"
ok $? "--metrics: no supported metric, nothing else: status 1"
# arm64: Neoverse N1's ipc = INST_RETIRED / CPU_CYCLES, branch_mpki =
# BR_MIS_PRED_RETIRED / INST_RETIRED * 1000 (ScaleUnit 1MPKI)
HWPMC_CPUID=0x00000000410fd0c0 run 0 mfake "$STAT" --metrics ipc,branch_mpki -w 0.1 sleep 0.25 &&
	grep -q '^ *1\.00 per cycle  *ipc *$' "$T/err" && grep -q '^ *1000\.00 MPKI  *branch_mpki *$' "$T/err" &&
	grep -q '^ *[1-9][0-9]*  *cpu_cycles *$' "$T/err"
ok $? "--metrics: Neoverse N1 ipc 1.00 per cycle, branch_mpki 1000.00 MPKI"
HWPMC_CPUID=GenuineIntel-6-55-4 usage_case "unknown metric or metric group 'no_such_metric' for skylakex" --metrics no_such_metric true
HWPMC_CPUID=GenuineIntel-6-55-4 usage_case "unknown metric or metric group 'IPC' for skylakex (hwpmc-stat --list-metrics; did you mean tma_info_thread_ipc, " --metrics IPC true
HWPMC_CPUID=0x00000000410fd070 usage_case "--metrics: no metrics for CPU 0x00000000410fd070 (its pmu-events model has none)" --metrics ipc true
HWPMC_CPUID=GenuineIntel-6-55-4 usage_case "--metrics needs a command or -t pid" --metrics tma_retiring
HWPMC_CPUID=0x00000000410fd0c0 run 0 env HWPMC_DEVICE=/nonexistent "$STAT" --list-metrics General &&
	has out "ipc [General] per cycle" && hasnt out "branch_mpki"
ok $? "--list-metrics group: the group's metrics, no module needed"
# --summary: perf stat's layout for a person (pmcstat's columns stay the default)
# (the fake's task-clock counts 0.1 s a read: CPUs utilized is
# task-clock / elapsed, as perf stat's)
FAKE_HWPMC_TICK=100000000 FAKE_HWPMC_PMU=2 run 0 fake "$STAT" --summary -p task-clock -p instructions -p cycles -w 0.1 sleep 0.25 &&
	grep -q '^ *[1-9]00\.00 msec task-clock  *# *[0-9.]* CPUs utilized$' "$T/err" &&
	grep -q '^ *[1-9]00000000  *instructions  *# *1\.00  insn per cycle$' "$T/err" &&
	grep -q '^ *0\.[0-9]\{9\} seconds time elapsed$' "$T/err" &&
	awk '/msec task-clock/ { ms = $1; cpus = $(NF - 2) } /seconds time elapsed/ { el = $1 }
	     END { want = ms / 1000 / el; exit !(el > 0 && cpus > 0 && (cpus - want) ^ 2 < 1e-6) }' "$T/err"
ok $? "--summary: msec and CPUs utilized, insn per cycle, seconds elapsed"
HWPMC_CPUID=GenuineIntel-6-55-4 run 0 mfake "$STAT" -p cpu_clk_unhalted.thread --metrics tma_info_thread_ipc -w 0.1 sleep 0.25 &&
	[ "$(grep -c 'cpu_clk_unhalted.thread' "$T/err")" = 2 ] &&
	grep -q '^ *1\.00  *tma_info_thread_ipc *$' "$T/err"
ok $? "--metrics: an event also given to -p is counted once (header and summary name it)"

# system scope: one PMC per CPU of -c, offline CPUs skipped for '*'
run 0 fake "$STAT" -s cpu-clock -w 0.1 sleep 0.35 &&
	has err "s/00/cpu-clock" && has err "s/01/cpu-clock" && hasnt err "s/02/" && has err "s/03/cpu-clock"
ok $? "-s with '*': every online CPU"
run 0 fake "$STAT" -c 1 -s cpu-clock -c 0,3 -s page-faults -w 0.1 sleep 0.25 &&
	has err "s/01/cpu-clock" && has err "s/00/page-faults" && has err "s/03/page-faults" && hasnt err "s/00/cpu-clock"
ok $? "-c applies to the following -s"
run 1 fake "$STAT" -c 2 -s cpu-clock true && has err "CPU 2 is offline"
ok $? "an offline CPU named: error"
run 0 fake "$STAT" -c 0 -s cpu-clock -w 0.1 sleep 0.45 &&
	[ "$(grep -c '^ *1000$' "$T/err")" -ge 3 ]
ok $? "-w: rows per interval (the fake counts 1000 a read)"
run 0 fake "$STAT" -C -c 0 -s cpu-clock -w 0.1 sleep 0.45 &&
	has err "   1000" && has err "   2000" && has err "   3000"
ok $? "-C: cumulative rows"

# -w on a terminal: text rows at most once a second (a note says so);
# machine-readable rows, files and pipes down to 0.1 s (above)
if [ -n "$PTY" ]; then
	run 0 fake "$PTY" "$STAT" -c 0 -s cpu-clock -w 0.1 sleep 2.2 &&
		tr -d '\r' < "$T/out" > "$T/tty" &&
		has tty "note: -w 0.1 raised to 1 s: text on a terminal is printed at most once a second" &&
		rows=$(grep -c '^ *1000$' "$T/tty") && [ "$rows" -ge 1 ] && [ "$rows" -le 3 ]
	ok $? "-w 0.1, text on a terminal: raised to 1 s, noted (${rows:-?} rows in 2.2 s)"
	run 0 fake "$PTY" "$STAT" -q -c 0 -s cpu-clock -w 0.2 sleep 1.3 &&
		tr -d '\r' < "$T/out" > "$T/tty" && hasnt tty "note:" &&
		rows=$(grep -c '^ *1000$' "$T/tty") && [ "$rows" -le 2 ]
	ok $? "-q -w 0.2 on a terminal: raised without a note (${rows:-?} rows in 1.3 s)"
	run 0 fake "$PTY" "$STAT" --csv -c 0 -s cpu-clock -w 0.1 sleep 0.55 &&
		tr -d '\r' < "$T/out" > "$T/tty" && hasnt tty "note:" &&
		[ "$(grep -c '^0\.[0-9]*,cpu-clock,system,0,1000,,$' "$T/tty")" -ge 3 ]
	ok $? "--csv -w 0.1 on a terminal: every 0.1 s, no note"
	run 0 fake "$PTY" "$STAT" -c 0 -s cpu-clock -w 2 sleep 0.3 &&
		tr -d '\r' < "$T/out" > "$T/tty" && hasnt tty "note:"
	ok $? "-w 2 on a terminal: as asked, no note"
else
	for w in "-w on a terminal" "-q -w on a terminal" "--csv -w on a terminal" "-w 2 on a terminal"; do
		echo "ok $((n = n + 1)) - $w # SKIP no pty_run"
	done
fi
run 0 fake "$STAT" -c 0 -s cpu-clock -w 0.1 sleep 0.25 && hasnt err "note:"
ok $? "-w 0.1, text to a file: as asked, no note"

# -t pid
sleep 0.4 & sp=$!
run 0 fake "$STAT" -p cpu-clock -t $sp && has err "p/cpu-clock"
ok $? "-t pid: counts until the process exits"
wait

# a counter perf could not always schedule (PMCRW: ENODATA)
run 0 fake env FAKE_HWPMC_NODATA=2 "$STAT" -p cpu-clock -p page-faults true &&
	[ "$(grep -o "<not counted>" "$T/err" | wc -l)" = 1 ] &&
	grep -q -E '^ +[0-9]+ +<not counted>$' "$T/err"
ok $? "ENODATA: <not counted> for it, a number for the other"
run 0 fake env FAKE_HWPMC_NODATA=1 "$STAT" --csv -p cpu-clock true &&
	has err "total,cpu-clock,process,,<not counted>"
ok $? "ENODATA: --csv says <not counted>"
run 0 fake env FAKE_HWPMC_NODATA=1 "$STAT" --json -p cpu-clock true &&
	has err '"value":null,"counted":false'
ok $? "ENODATA: --json value null, counted false"
# the times of a count (PMCRW_TIMES): whole, partial, not counted, unknown
FAKE_HWPMC_TICK=1000 run 0 fake env FAKE_HWPMC_TIMES=0,2000,2000 "$STAT" --summary -p page-faults -w 0.1 sleep 0.25 &&
	grep -q '^ *2000  *page-faults *$' "$T/err" && hasnt err '%)'
ok $? "times, whole: the count, no share"
FAKE_HWPMC_TICK=1000 run 0 fake env FAKE_HWPMC_TIMES=1,2000,500 "$STAT" --summary -p page-faults -p cpu-clock -w 0.1 sleep 0.25 &&
	grep -q '^ *8000  *page-faults  *(25\.00%)$' "$T/err" &&
	grep -q '^ *~4000  *1000$' "$T/err" &&
	[ "$(grep -c '%)' "$T/err")" = 1 ]
ok $? "times, partial: scaled as perf stat, its share; ~ in columns"
run 0 fake env FAKE_HWPMC_TIMES=2,2000,0 "$STAT" --summary -p cpu-clock -p page-faults true &&
	grep -q '^ *<not counted> *page-faults *$' "$T/err" &&
	[ "$(grep -c '<not counted>' "$T/err")" = 1 ]
ok $? "times, running 0: <not counted>"
run 0 fake env FAKE_HWPMC_TIMES=1,2000,500 "$STAT" --csv -p cpu-clock -p page-faults true &&
	has err 'time,event,scope,cpu,value,enabled,running' &&
	has err 'total,cpu-clock,process,,0,2000,500' && has err 'total,page-faults,process,,0,,'
ok $? "times: --csv enabled and running, empty when unknown"
run 0 fake env FAKE_HWPMC_TIMES=1,2000,500 "$STAT" --json -p cpu-clock -p page-faults true &&
	has err '"value":0,"enabled_ns":2000,"running_ns":500}' &&
	has err '"event":"page-faults","scope":"process","cpu":null,"value":0}'
ok $? "times: --json enabled_ns and running_ns, none when unknown"
run 0 fake env FAKE_HWPMC_TIMES=0,2000,0 FAKE_HWPMC_NOTIMES=1 "$STAT" --summary -p page-faults true &&
	hasnt err '<not counted>' && hasnt err '%)' && grep -q '^ *0  *page-faults *$' "$T/err"
ok $? "a module without PMCRW_TIMES: the counts as before"
# -t process-spec: several, and regular expressions of command names
cp "$(command -v sleep)" "$T/utslpA"; cp "$(command -v sleep)" "$T/utslpB"
"$T/utslpA" 0.3 & sa=$!
"$T/utslpB" 1.2 & sb=$!
t0=$(date +%s%N)
run 0 fake "$STAT" -v -p cpu-clock -t '^utslp[AB]$' && has err "p/cpu-clock" &&
	has err "-t '^utslp[AB]\$': pid $sa (utslpA)" && has err "-t '^utslp[AB]\$': pid $sb (utslpB)" &&
	t=$((($(date +%s%N) - t0) / 1000000)) && [ "$t" -ge 900 ]
ok $? "-t regex: every process so named (-v lists them), until the last ends (${t:-?} ms)"
wait
"$T/utslpA" 0.2 & sa=$!
sleep 1 & sb=$!
t0=$(date +%s%N)
run 0 fake "$STAT" -p cpu-clock -t $sa -t $sb -t $sa && has err "p/cpu-clock" &&
	t=$((($(date +%s%N) - t0) / 1000000)) && [ "$t" -ge 700 ]
ok $? "-t pid -t pid: both, the run ends with the last (${t:-?} ms)"
wait
"$T/utslpA" 30 & sa=$!
run 0 fake "$STAT" -l 0.3 -p cpu-clock -t utslpA -t "$sa" && has err "p/cpu-clock"
ok $? "-t a name and its pid: attached once"
kill $sa; wait
run 1 fake "$STAT" -p cpu-clock -t '^nosuch-command$' &&
	has err "-t '^nosuch-command\$': no running process has a command name that matches"
ok $? "-t a regex that matches nothing: exit 1, said"
"$T/utslpA" 30 & sa=$!
run 1 fake "$STAT" -p cpu-clock -t '^utslpA$' -t 1 &&
	has err "cannot attach to pid 1: Operation not permitted" && kill -0 $sa
ok $? "-t: a process that cannot be attached to ends the run before it starts"
kill $sa; wait

# -L: the events, without the module
run 0 env HWPMC_DEVICE=/nonexistent "$STAT" -L && has out "	cpu-clock" &&
	has out "	instructions" && has out "	L1-dcache-load-misses"
ok $? "-L: the generic events"
HWPMC_CPUID=GenuineIntel-6-7E-5 run 0 env HWPMC_DEVICE=/nonexistent "$STAT" -L &&
	has out "	frontend_retired.itlb_miss"
ok $? "-L: the CPU's vendor events"
usage_case "-L lists the events: nothing else with it" -L -p cpu-clock true

# -l secs: the run ends after secs (the command gets SIGINT; -t's process
# is left alone); a command that ends first gives its own status
t0=$(date +%s)
run 0 fake "$STAT" -l 0.3 -p cpu-clock sleep 30 && has err "p/cpu-clock" &&
	[ $(($(date +%s) - t0)) -lt 10 ]
ok $? "-l 0.3: the command is ended, status 0"
run 3 fake "$STAT" -l 30 -p cpu-clock sh -c 'exit 3'
ok $? "-l: a command that ends first gives its status"
sleep 30 & sp=$!
t0=$(date +%s)
run 0 fake "$STAT" -l 0.3 -p cpu-clock -t $sp && has err "p/cpu-clock" &&
	[ $(($(date +%s) - t0)) -lt 10 ] && kill -0 $sp
ok $? "-l 0.3 -t pid: ends, the process runs on"
kill $sp; wait
t0=$(date +%s)
run 0 fake "$STAT" -l 0.3 -c 0 -s cpu-clock && has err "s/00/cpu-clock" &&
	[ $(($(date +%s) - t0)) -lt 10 ]
ok $? "-l 0.3 -s with no command: ends"
run 1 fake "$STAT" -p cpu-clock -t 1 &&
	has err "cannot attach to pid 1: Operation not permitted (need the same user, or CAP_SYS_PTRACE)"
ok $? "-t another user's pid: EPERM explained"
run 1 fake "$STAT" -p cpu-clock -t 999999 && has err "cannot attach to pid 999999: No such process"
ok $? "-t a pid that does not exist"

# permissions
FAKE_HWPMC_UNPRIV=1 run 1 fake "$STAT" -c 0 -s cpu-clock true && has err "CAP_PERFMON"
ok $? "unprivileged -s: needs CAP_PERFMON"
FAKE_HWPMC_PMU=2 FAKE_HWPMC_UNPRIV=1 run 0 fake "$STAT" -v -p instructions -p r1c2 -p page-faults true &&
	has err "instructions: counting user mode only" && has err "r1c2: counting user mode only" &&
	hasnt err "page-faults: counting"
ok $? "unprivileged PMU events fall back to user mode (-v says so); SOFT ones do not"
FAKE_HWPMC_PMU=2 FAKE_HWPMC_UNPRIV=1 run 1 fake "$STAT" -p instructions,os true &&
	has err "counting kernel mode needs CAP_PERFMON"
ok $? "unprivileged ',os' on a PMU event: refused, explained"

# wait_handler PID: until PID is hwpmc-stat and catches SIGINT (a
# background job starts with SIGINT ignored: a signal sent before the
# handler would be lost). Before its exec, PID is a copy of this shell,
# which catches SIGINT too: a signal it took there was lost with it.
# Up to 30 s: an ASan build starting on a loaded machine took over 5 s.
wait_handler() {
	i=0
	while [ $i -lt 600 ]; do
		cgt=
		[ "$(cat "/proc/$1/comm" 2>/dev/null)" = hwpmc-stat ] &&
			cgt=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
		[ -n "$cgt" ] && [ $((0x$cgt & 2)) != 0 ] && return 0
		sleep 0.05; i=$((i + 1))
	done
	return 1
}

# (background jobs run env directly: $! must be hwpmc-stat itself)
# SIGINT: forwarded to the command, totals printed, 130
env HWPMC_DEVICE=/dev/null LD_PRELOAD="$FAKE" "$STAT" -p cpu-clock sleep 5 > "$T/out" 2> "$T/err" &
sp=$!
wait_handler $sp
sleep 0.2
kill -INT $sp
wait $sp
rc=$?
[ "$rc" = 130 ] && has err "p/cpu-clock"
ok $? "SIGINT: forwarded, totals printed, 130 (got $rc)"
# SIGINT ends system counting with no command
env HWPMC_DEVICE=/dev/null LD_PRELOAD="$FAKE" "$STAT" -c 0 -s cpu-clock > "$T/out" 2> "$T/err" &
sp=$!
wait_handler $sp
kill -INT $sp
wait $sp
rc=$?
[ "$rc" = 0 ] && has err "s/00/cpu-clock"
ok $? "SIGINT ends system counting without a command (got $rc)"

# --kernel-profiles: a log with no PMC of the run's own; refusals named
run 0 fake "$STAT" -O "$T/kprof.log" --kernel-profiles true && test -s "$T/kprof.log"
ok $? "--kernel-profiles alone: the log is written"
run 1 env FAKE_HWPMC_KPROF=1 HWPMC_DEVICE=/dev/null LD_PRELOAD="$FAKE" \
	"$STAT" -O "$T/kprof.log" --kernel-profiles true &&
	has err 'not for you: CAP_PERFMON is needed'
ok $? "--kernel-profiles refused (EPERM): explained"
run 1 env FAKE_HWPMC_KPROF=16 HWPMC_DEVICE=/dev/null LD_PRELOAD="$FAKE" \
	"$STAT" -O "$T/kprof.log" --kernel-profiles -S cpu-clock true &&
	has err "another log takes the kernel's profiles"
ok $? "--kernel-profiles taken (EBUSY): explained"
usage_case "-R reads a log" -R /dev/null --kernel-profiles

echo "1..$n"
