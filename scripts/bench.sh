#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: the benchmark suite against perf, in guests (make
# bench-vm).  Each guest boots once and runs bench/suite.sh, which runs
# every benchmark with hwpmc and perf alternately in that boot.
#
#   scripts/bench.sh [--quick] [KVER ...]
#
#   --quick  the short variant (a smoke test: a few repetitions)
#   KVER     guest kernels (default: every guest of scripts/vm/lib.sh)
#   HWPMC_BENCH_ONLY="csw sample": only those benchmarks (hwpmc_bench's names)
#   HWPMC_BENCH_PROFILE="read-hwpmc sample-hwpmc ..." also profiles those
#            operations after the suite (bench/profile.sh; in the VM log)
#
# Results: build/bench-results/KVER.txt (the suite's output), and on stdout.
# Exit status 1 when a guest failed or a benchmark reported a failure.
# Only one VM at a time on a shared machine: run it under
# flock /tmp/hwpmc-vm.lock.

set -uo pipefail
. "$(dirname "$0")/vm/lib.sh"

quick=
[ "${1:-}" = --quick ] && { quick=-q; shift; }
if [ $# -gt 0 ]; then kernels=("$@"); else mapfile -t kernels < <(vm_kernels); fi
out=$HWPMC_B/bench-results
mkdir -p "$out"
cmd=$out/cmd.sh
cat > "$cmd" <<EOC
#!/bin/sh
/opt/hwpmc/bench/suite.sh $quick ${HWPMC_BENCH_ONLY:-}
EOC
# HWPMC_BENCH_PROFILE="OP ...": then bench/profile.sh of those operations
if [ -n "${HWPMC_BENCH_PROFILE:-}" ]; then
	echo "PROFILE_OPS='$HWPMC_BENCH_PROFILE' sh /opt/hwpmc/bench/profile.sh" >> "$cmd"
fi
# the full suite takes several minutes under TCG
[ -n "$quick" ] || export HWPMC_VM_TIMEOUT=${HWPMC_VM_TIMEOUT:-1800}
rc=0
for k in "${kernels[@]}"; do
	"$HWPMC_TOP/scripts/vm/run.sh" --cmd "$cmd" "$k" || rc=1
	res=$out/$k.txt
	# the copy in the guest's clean result block (no console interleaving)
	tr -d '\r' < "$HWPMC_VMDIR/$k.log" |
		sed -n '/^HWPMC-RESULT-BEGIN$/,/^HWPMC-RESULT-END/p' |
		sed -n '/^BENCH-BEGIN$/,/^BENCH-END/p' > "$res"
	echo "== $k ($(cat "$HWPMC_VMDIR/accel" 2>/dev/null || echo '?'))"
	if ! grep -q '^BENCH-END rc=0' "$res"; then
		log "$k: the suite did not finish cleanly (log: $HWPMC_VMDIR/$k.log)"
		rc=1
	fi
	grep -v '^BENCH-' "$res"
done
exit $rc
