#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: the whole test suite (make check / make check-vm).
#
#   scripts/vm/check.sh [--unit] [KVER ...]
#
#   --unit   first run the host unit tests (make check-unit)
#   --unit-only  the host unit tests and no guest (.ci/run)
#   KVER     guest kernels (default: scripts/vm/lib.sh vm_kernels: Debian
#            6.1 and 6.12 on x86-64, 6.1 on arm64 with the emulated PMU)
#
# Every guest runs even when an earlier one failed; the last line is the
# total over everything: "N passed, N failed, N skipped".  Exit status 1
# when anything failed.

set -uo pipefail
. "$(dirname "$0")/lib.sh"

unit=0 kernels=()
case ${1:-} in
--unit) unit=1; shift; [ $# -gt 0 ] || mapfile -t kernels < <(vm_kernels) ;;
--unit-only) unit=1; shift ;;
*) [ $# -gt 0 ] || mapfile -t kernels < <(vm_kernels) ;;
esac
[ $# -eq 0 ] || kernels=("$@")
MAKE=${MAKE:-make}
mkdir -p "$HWPMC_VMDIR"
P=0 F=0 S=0
summary=()
t0=$(date +%s)

add() {	# NAME PASS FAIL SKIP SECONDS
	P=$((P + $2)) F=$((F + $3)) S=$((S + $4))
	local verdict=PASS
	[ "$3" = 0 ] || verdict=FAIL
	summary+=("$(printf '  %-6s %-26s %4s passed, %s failed, %s skipped  (%ss)' \
		"$verdict" "$1" "$2" "$3" "$4" "$5")")
}

if [ $unit = 1 ]; then
	log "unit tests: make check-unit"
	t=$(date +%s)
	ulog=$HWPMC_B/check-unit.log
	(cd "$HWPMC_TOP" && $MAKE check-unit) 2>&1 | tee "$ulog"
	urc=${PIPESTATUS[0]}
	final=$(tr -d '\r' < "$ulog" | grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' | tail -n 1)
	if [ -n "$final" ]; then
		read -r p f s < <(echo "$final" | sed -E 's/^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?$/\1 \2 \4/')
	else
		p=0 f=1 s=0
		log "unit tests: no final 'N passed, N failed' line"
	fi
	[ "$urc" = 0 ] || [ "$f" != 0 ] || f=1
	add unit "$p" "$f" "${s:-0}" $(( $(date +%s) - t ))
fi

for k in ${kernels[@]+"${kernels[@]}"}; do
	t=$(date +%s)
	"$HWPMC_TOP/scripts/vm/run.sh" "$k"
	rc=$?
	if [ -s "$HWPMC_VMDIR/$k.result" ]; then
		read -r p f s < "$HWPMC_VMDIR/$k.result"
	else
		p=0 f=1 s=0	# the harness itself failed before booting (build, DKMS)
	fi
	[ "$rc" = 0 ] || [ "$f" != 0 ] || f=1
	add "vm $k" "$p" "$f" "$s" $(( $(date +%s) - t ))
done

echo
echo "hwpmc check summary ($(( $(date +%s) - t0 ))s, accel $(cat "$HWPMC_VMDIR/accel" 2>/dev/null || echo n/a)):"
printf '%s\n' "${summary[@]}"
[ "$F" = 0 ] || echo "logs: $HWPMC_VMDIR/<kernel>.log"
echo "$P passed, $F failed, $S skipped"
[ "$F" = 0 ]
