#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run the pmclog(3) fuzz target for a bounded time; TAP.
#   run_fuzz.sh FUZZER SEEDGEN CORPUS_DIR SECONDS
# The corpus directory keeps what the fuzzer found between runs; the seeds
# are written into it again each time.  A crash leaves its input in
# CORPUS_DIR/../ (crash-*, leak-*, timeout-*): run FUZZER on it to replay.
set -u
FUZZER=$1 SEEDGEN=$2 CORPUS=$3 SECS=$4
out=$(dirname "$CORPUS")

if [ "$SECS" = 0 ]; then
	echo "ok 1 # SKIP FUZZ_TIME=0"
	echo "1..1"
	exit 0
fi
if [ ! -x "$FUZZER" ]; then
	echo "ok 1 # SKIP no fuzz target: clang and libclang-rt-14-dev not installed (scripts/deps.sh)"
	echo "1..1"
	exit 0
fi
mkdir -p "$CORPUS"
"$SEEDGEN" "$CORPUS" || { echo "not ok 1 - seed corpus"; echo "1..1"; exit 1; }
nseed=$(ls "$CORPUS" | wc -l)
"$FUZZER" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 -artifact_prefix="$out/" "$CORPUS" > "$out/fuzz.log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz.log")
cov=$(grep -o 'cov: [0-9]*' "$out/fuzz.log" | tail -n 1)
if [ $rc = 0 ] && [ -n "$runs" ] && [ "$runs" -gt 0 ]; then
	echo "ok 1 - pmclog fuzzed ${SECS}s: $runs inputs, $cov, corpus $nseed -> $(ls "$CORPUS" | wc -l) inputs, no crash"
else
	tail -n 40 "$out/fuzz.log" | sed 's/^/# /'
	echo "not ok 1 - pmclog fuzzed ${SECS}s: status $rc (log $out/fuzz.log; inputs $out/crash-*)"
fi
echo "1..1"
[ $rc = 0 ]
