#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc-control: usage errors, no module, and the fake module (preloaded).
#   test_control.sh <hwpmc-control> <fake_hwpmc.so>
set -u
CTL=$1; FAKE=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/hwpmc-ctl.XXXXXX")
trap 'rm -rf "$T"' EXIT
# the ASan runtime need not come first: the fake interposes ioctl()
export ASAN_OPTIONS="verify_asan_link_order=0:${ASAN_OPTIONS:-}"
unset FAKE_HWPMC_PMU FAKE_HWPMC_EPERM FAKE_HWPMC_VERSION FAKE_HWPMC_GROW HWPMC_SYSFS
# no vendor events unless a case names a CPU: the output is this machine's
export HWPMC_CPUID=NoSuchVendor-0-0-0
HAS_GREP=-F
. "$(dirname "$0")/tap.sh"


# run EXPECTED-STATUS ARGS...: runs the tool, keeps stdout/stderr
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
	# sanitizer reports go to stderr
	if grep -q -e 'Sanitizer' -e 'runtime error' "$T/err"; then
		sed 's/^/# err: /' "$T/err" | head -40
		return 1
	fi
	return 0
}

# usage errors: exit 64, message naming the problem
usage_case() { # expected-message args...
	msg=$1; shift
	run 64 "$CTL" "$@" && has err "$msg" && has err "usage:"
	ok $? "usage error for '$*': $msg"
}
usage_case "no operation given"
usage_case "unknown option -x" -x
usage_case "option -e needs an argument" -e
usage_case "bad CPU 'foo'" -c foo -e 0
usage_case "bad CPU '-1'" -c -1 -e 0
usage_case "bad CPU '4096'" -c 4096 -e 0
usage_case "bad PMC '99999'" -e 99999
usage_case "bad PMC '-3'" -d -3
usage_case "bad PMC '1x'" -e 1x
usage_case "bad PMC ''" -e ''
usage_case "-c needs a following -e or -d" -c 0
usage_case "cannot be combined" -l -s
usage_case "cannot be combined" -e 0 -L
usage_case "unexpected argument 'extra'" -l extra
usage_case "-v goes with -L" -v -l

run 0 "$CTL" -h && has out "usage:" && [ ! -s "$T/err" ]; ok $? "-h: usage on stdout, status 0"

# no module
HWPMC_DEVICE=/nonexistent/hwpmc run 1 "$CTL" -l &&
	has err "hwpmc-control: cannot initialise: " && has err "modprobe hwpmc"
ok $? "no module: status 1, says modprobe"
HWPMC_DEVICE=/nonexistent/hwpmc run 0 "$CTL" -V && has out "library ABI 0x01040000" &&
	has out "not available"
ok $? "-V without a module"

# the fake module
export HWPMC_DEVICE=/dev/null
fake() { LD_PRELOAD="$FAKE${LD_PRELOAD:+ $LD_PRELOAD}" "$@"; }

run 0 fake "$CTL" -l && has out "4 GENERIC CPUs present, with 4 PMCs per CPU" &&
	has out "#CPU 0:" && has out "CPU 2: offline" && has out "#CPU 3:" &&
	has out " 0  SOFT0            SOFT   ENABLED  FREE      " &&
	has out "(pid 42) cpu-clock" && has out "(reload count 10000)"
ok $? "-l lists CPUs, rows, owners, offline CPUs"

FAKE_HWPMC_PMU=1 run 0 fake "$CTL" -l && has out "4 LINUX_X86 CPUs present, with 6 PMCs per CPU" &&
	has out " 4  PMU0             PMU    ENABLED  FREE"
ok $? "-l with a PMU class"
HWPMC_CPUID=GenuineIntel-6-7E-5 FAKE_HWPMC_PMU=1 run 0 fake "$CTL" -l &&
	has out "4 INTEL_ICELAKE CPUs present, with 6 PMCs per CPU"
ok $? "-l: FreeBSD's CPU type of the CPU's model"

FAKE_HWPMC_PMU=1 run 0 fake "$CTL" -L &&
	printf 'SOFT\n\tcpu-clock\n\ttask-clock\n\tpage-faults\n\tfake-event\nPMU\n\tcycles\n\tinstructions\n\traw\n' > "$T/want" &&
	cmp -s "$T/want" "$T/out"
ok $? "-L: class lines, tab-indented events"
has err "no vendor event table for CPU NoSuchVendor-0-0-0, from HWPMC_CPUID"
ok $? "-L: an unknown CPU is named on stderr"

# vendor events of the pmu-events tables, after the module's PMU events,
# by topic as perf list groups them: a "topic:" line, then its events
TAB=$(printf '\t')
heads() { grep -v "^$TAB" "$T/out" | paste -sd '|' -; }
topic_of() { awk -v e="$1" '/:$/ { t = $0 } $0 == "\t" e { print t }' "$T/out"; }
after() { awk -v e="$1" -v k="$2" 'n && !--n; $0 == "\t" e { n = k }' "$T/out"; }
HWPMC_CPUID=GenuineIntel-6-55-4 FAKE_HWPMC_PMU=1 run 0 fake "$CTL" -L &&
	[ ! -s "$T/err" ] &&
	[ "$(heads)" = "SOFT|PMU|cache:|floating point:|frontend:|memory:|other:|pipeline:|virtual memory:" ] &&
	[ "$(grep -A 1 -x "${TAB}raw" "$T/out" | paste -sd '|' -)" = "${TAB}raw|cache:" ] &&
	[ "$(topic_of inst_retired.any)" = "pipeline:" ] &&
	[ "$(topic_of arith.divider_active)" = "pipeline:" ] &&
	[ "$(topic_of fp_arith_inst_retired.scalar_double)" = "floating point:" ] &&
	[ "$(topic_of dtlb_load_misses.walk_completed)" = "virtual memory:" ]
ok $? "-L: Skylake-X's vendor events follow the PMU class's, by topic"
grep -c "^$TAB[a-z]" "$T/out" > "$T/n1"
HWPMC_CPUID=GenuineIntel-6-55-4 FAKE_HWPMC_PMU=1 run 0 fake "$CTL" -L -v &&
	[ "$(after inst_retired.any 1)" = "$TAB${TAB}Counts the number of instructions retired from execution. For instructions that consist of multiple micro-ops, Counts the retirement of the last micro-op of the instruction. Counting continues during hardware interrupts, traps, and inside interrupt handlers. Notes: INST_RETIRED.ANY is counted by a designated fixed counter, leaving the four (eight when Hyperthreading is disabled) programmable counters available for other events. INST_RETIRED.ANY_P is counted by a programmable counter and it is an architectural performance event. Counting: Faulting executions of GETSEC/VM entry/VM Exit/MWait will not count as retired instructions." ] &&
	[ "$(after inst_retired.any 2)" = "$TAB$TAB[pipeline, event=0x0,umask=0x1]" ] &&
	[ "$(after uops_issued.stall_cycles 1)" = "$TAB${TAB}Counts cycles during which the Resource Allocation Table (RAT) does not issue any Uops to the reservation station (RS) for the current thread." ] &&
	[ "$(topic_of uops_issued.stall_cycles)" = "pipeline:" ] &&
	[ "$(grep -c "^$TAB[a-z]" "$T/out")" = "$(cat "$T/n1")" ]
ok $? "-L -v: perf's long descriptions (PublicDescription), the same events"
# libpfm4's name in the bracket (decision 32), where the build has libpfm4
if [ -n "${PFM_TSV:-}" ]; then
	HWPMC_CPUID=GenuineIntel-6-55-4 FAKE_HWPMC_PMU=1 run 0 fake "$CTL" -L -v &&
		[ "$(after inst_retired.any_p 2)" = "$TAB$TAB[pipeline, event=0xc0, libpfm4 INST_RETIRED:ANY_P]" ] &&
		[ "$(after uops_issued.stall_cycles 2)" = "$TAB$TAB[pipeline, event=0xe,umask=0x1,cmask=0x1,inv, libpfm4 UOPS_ISSUED:STALL_CYCLES]" ]
	ok $? "-L -v: the libpfm4 names of Skylake-X's events"
else
	skip "-L -v: the libpfm4 names of Skylake-X's events" "built without libpfm4 (no libpfm4-dev)"
fi
HWPMC_CPUID=GenuineIntel-6-55-4 run 0 fake "$CTL" -L &&
	! grep -q inst_retired "$T/out"
ok $? "-L: no vendor events without a PMU (no raw events)"
run 0 fake "$CTL" -L && [ ! -s "$T/err" ]
ok $? "-L: no note about vendor tables without a PMU"
HWPMC_CPUID=0x00000000410fd070 FAKE_HWPMC_PMU=1 run 0 fake "$CTL" -L -v &&
	has out "# vendor events: arm/cortex-a57-a72, CPU 0x00000000410fd070, from HWPMC_CPUID" &&
	[ "$(after inst_retired 1)" = "$TAB${TAB}Instruction architecturally executed" ] &&
	[ "$(after inst_retired 2)" = "$TAB$TAB[instruction, event=0x8]" ] &&
	[ "$(topic_of inst_retired)" = "instruction:" ]
ok $? "-L -v: Cortex-A57's descriptions (brief: no long one) and encodings"
# the arm64 guest's emulated PMU (r1p0): the same table, CPU_CYCLES listed
HWPMC_CPUID=0x00000000411fd070 FAKE_HWPMC_PMU=1 run 0 fake "$CTL" -L -v &&
	has out "# vendor events: arm/cortex-a57-a72, CPU 0x00000000411fd070" &&
	[ "$(heads)" = "# vendor events: arm/cortex-a57-a72, CPU 0x00000000411fd070, from HWPMC_CPUID|SOFT|PMU|branch:|bus:|cache:|exception:|instruction:|memory:" ] &&
	[ "$(topic_of cpu_cycles)" = "bus:" ] && [ "$(after cpu_cycles 2)" = "$TAB$TAB[bus, event=0x11]" ]
ok $? "-L -v: the arm64 guest's MIDR 0x411fd070 has Cortex-A57's table"

# without the module: every known event, and the CPU's
HWPMC_DEVICE=/nonexistent/hwpmc HWPMC_CPUID=AuthenticAMD-25-1-1 run 0 "$CTL" -L &&
	has err "note: " && has err "listing every event hwpmc knows" &&
	has out "$(printf 'SOFT\n\tcpu-clock')" && has out "$(printf '\n\tcycles\n')" &&
	has out "$(printf '\tL1-dcache-load-misses\n')" && has out "$(printf '\tex_ret_instr\n')" &&
	[ "$(heads)" = "SOFT|PMU|branch:|cache:|core:|floating point:|memory:|other:|recommended:|PERF" ] &&
	[ "$(grep -A 1 -x "${TAB}raw" "$T/out" | paste -sd '|' -)" = "${TAB}raw|branch:" ] &&
	[ "$(topic_of ex_ret_instr)" = "core:" ]
ok $? "-L without a module: known events and Zen 3's, by topic"

run 0 fake "$CTL" -s && [ "$(wc -l < "$T/out")" = 14 ] &&
	has out "interrupts processed:                    2" &&
	has out "non-PMC interrupts:                      5" &&
	has out "log write errors:                        12" &&
	has out "process exits and execs handled:         13" &&
	has out "user stack copies lost:                  14"
ok $? "-s: 14 statistics lines"

run 0 fake "$CTL" -c 0 -e 0 -d 2 -c '*' -e 3 && [ ! -s "$T/out" ]
ok $? "-c 0 -e 0 -d 2 -c * -e 3: silent success (offline CPU skipped)"

run 0 fake "$CTL" -e '*' -c 1 -d '*'
ok $? "-e * -c 1 -d *"

run 1 fake "$CTL" -d '*' && has err "disabling PMC 1 on CPU 0: Device or resource busy (the PMC is in use)" &&
	[ "$(wc -l < "$T/err")" = 1 ]
ok $? "-d *: the busy row is reported, the others done, status 1"

FAKE_HWPMC_EPERM=1 run 1 fake "$CTL" -c 0 -e 3 &&
	has err "hwpmc-control: enabling PMC 3 on CPU 0: Operation not permitted (needs CAP_SYS_ADMIN)"
ok $? "EPERM: names the PMC, CPU and the capability"

run 1 fake "$CTL" -c 0 -d 1 && has err "disabling PMC 1 on CPU 0: Device or resource busy (the PMC is in use)"
ok $? "EBUSY: the PMC is in use"

run 1 fake "$CTL" -c 2 -e 0 && has err "enabling PMC 0 on CPU 2: No such device or address (the CPU is offline)"
ok $? "explicit offline CPU: error"

run 1 fake "$CTL" -c 9 -e 0 && has err "CPU 9 does not exist (4 CPUs)"
ok $? "CPU out of range"

run 1 fake "$CTL" -e 7 && has err "PMC 7 does not exist (4 PMCs per CPU)"
ok $? "PMC out of range"

run 0 fake "$CTL" -V && has out "hwpmc module ABI 0x01040000"
ok $? "-V with the module"

FAKE_HWPMC_VERSION=0x02000000 run 1 fake "$CTL" -l &&
	has err "cannot initialise: ABI mismatch: library 0x01040000 module 0x02000000"
ok $? "ABI mismatch reported"

echo "1..$n"
exit $fail
