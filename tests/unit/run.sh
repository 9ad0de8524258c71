#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run the host unit tests; print one TAP stream and a final line
# "N passed, N failed".  Environment: UT (build dir of the tests), SRC
# (source tree), CC, CXX (the symbol tests), CPPFLAGS (for the -m32/-m64
# ABI objects), LIBSO (the shared library, for the exported-symbols check;
# optional), CPCSO (libcpc's, the same; optional), FUZZER, SEEDGEN,
# FUZZ_CORPUS, FUZZ_TIME (the pmclog(3) fuzz run; optional),
# COMPAT_CXX (the C++ source-compatibility test; empty: skipped),
# PFM_TSV (libpfm4's events as gen_pfm_events listed them; empty: built
# without libpfm4, test_pmu skips its libpfm4 checks).
set -u
: "${UT:?}" "${SRC:?}"
# hwpmc-stat's symbols: no debuginfod (no network in the tests)
unset DEBUGINFOD_URLS
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"

out=$UT/results
mkdir -p "$out"
passed=0; failed=0; skipped=0; n=0

# run_tap NAME CMD...: renumber CMD's TAP into ours
run_tap() {
	name=$1; shift
	echo "# $name"
	"$@" > "$out/$name.out" 2> "$out/$name.err"
	rc=$?
	plan=; mine=0; myfail=0
	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*)
			n=$((n + 1)); mine=$((mine + 1))
			case $line in
			"not ok "*)
				st="not ok"; desc=${line#not ok }
				failed=$((failed + 1)); myfail=$((myfail + 1)) ;;
			*)
				st="ok"; desc=${line#ok }
				case $desc in
				*"# SKIP"*) skipped=$((skipped + 1)) ;;
				*) passed=$((passed + 1)) ;;
				esac ;;
			esac
			desc=${desc#* }		# drop the program's own number
			desc=${desc#- }
			echo "$st $n $name: $desc" ;;
		1..*)	plan=${line#1..} ;;
		*)	echo "$line" ;;
		esac
	done < "$out/$name.out"
	why=
	if [ -z "$plan" ]; then
		why="no TAP plan (crashed?)"
	elif [ "$plan" != "$mine" ]; then
		why="planned $plan tests, ran $mine"
	elif [ "$rc" != 0 ] && [ "$myfail" = 0 ]; then
		why="exited with status $rc"
	fi
	if [ -n "$why" ] || [ "$myfail" != 0 ]; then
		sed 's/^/# stderr: /' "$out/$name.err" | head -80
	fi
	if [ -n "$why" ]; then
		n=$((n + 1)); failed=$((failed + 1))
		echo "not ok $n $name: $why"
	fi
}

run_tap names "$UT/test_names"
run_tap lib "$UT/test_lib"
run_tap spec "$UT/test_spec"
run_tap pmu "$UT/test_pmu"
run_tap perf "$UT/test_perf"
run_tap count "$UT/test_count"
run_tap allocate "$UT/test_allocate"
run_tap cpc "$UT/test_cpc"
run_tap cpc-example sh "$SRC/tests/unit/test_cpc_example.sh" "$UT/cpc_example"
run_tap metric "$UT/test_metric"
run_tap pmclog "$UT/test_pmclog"
run_tap compat "$UT/test_compat"
if [ -n "${COMPAT_CXX:-}" ]; then
	run_tap compat-c++ "$COMPAT_CXX"
else
	n=$((n + 1)); skipped=$((skipped + 1))
	echo "ok $n compat-c++: # SKIP no C++ compiler (CXX)"
fi
run_tap abi-rules "$UT/abi_layout"
run_tap abi-m32 sh "$SRC/tests/unit/abi_check.sh" "$SRC" "$UT/abi" "$UT/abi_layout"
run_tap cputrack sh "$SRC/tests/unit/test_cputrack.sh" "$UT/hwpmc-cputrack" "$UT/hwpmc-cpustat" "$UT/fake_hwpmc.so"
run_tap control sh "$SRC/tests/unit/test_control.sh" "$UT/hwpmc-control" "$UT/fake_hwpmc.so"
run_tap stat sh "$SRC/tests/unit/test_stat.sh" "$UT/hwpmc-stat" "$UT/fake_hwpmc.so" "$UT/pty_run"
run_tap report sh "$SRC/tests/unit/test_report.sh" "$UT/hwpmc-stat" "$UT/mklog" "$UT/fake_hwpmc.so" "$UT/pty_run"
run_tap pmcstat sh "$SRC/tests/unit/test_pmcstat.sh" "$UT/hwpmc-stat" "$UT/mklog" "$UT/fake_hwpmc.so" "$UT/pty_run"
run_tap stacks sh "$SRC/tests/unit/test_stacks.sh" "$UT/hwpmc-stat" "$UT/mklog" "$UT/pprof_read" \
	"$UT/report_bench" "$UT/rb"
run_tap unwind sh "$SRC/tests/unit/test_unwind.sh" "$UT/hwpmc-stat" "$UT/unwind_prog"
run_tap symbols env CC="${CC:-cc}" CXX="${CXX:-c++}" sh "$SRC/tests/unit/test_symbols.sh" "$UT/hwpmc-stat" "$UT/mklog" "$SRC/tests/unit"
run_tap annotate env CC="${CC:-cc}" CXX="${CXX:-c++}" sh "$SRC/tests/unit/test_annotate.sh" "$UT/hwpmc-stat" "$UT/mklog" "$SRC/tests/unit"
run_tap report-bench sh "$SRC/tests/unit/test_report_bench.sh" "$UT/report_bench" "$UT/hwpmc-stat" "$UT/rb"
if [ -n "${FUZZER:-}" ]; then
	run_tap fuzz sh "$SRC/tests/fuzz/run_fuzz.sh" "$FUZZER" "$SEEDGEN" \
		"$FUZZ_CORPUS" "${FUZZ_TIME:-60}"
fi
if [ -n "${LIBSO:-}" ]; then
	run_tap exports sh "$SRC/tests/unit/test_exports.sh" "$LIBSO" "$SRC/libhwpmc/pmc.h" "$SRC/libhwpmc/pmclog.h"
fi
if [ -n "${CPCSO:-}" ]; then
	run_tap cpc-exports sh "$SRC/tests/unit/test_cpc_exports.sh" "$CPCSO" "$SRC/libcpc/libcpc.h" "$SRC/libcpc/libpctx.h"
fi

echo "1..$n"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
