#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: build everything, load hwpmc.ko and show what it sees.
#
#   scripts/demo.sh                 as root (or: sudo scripts/demo.sh,
#                                   sudo make demo)
#
# When the running kernel can take the module (root, headers for
# $(uname -r) installed, module loading allowed), the module is built for
# it, insmod'ed, the tools run, and the module is removed again (unless it
# was already loaded).  Otherwise the same happens in a QEMU guest running
# Debian's kernel (scripts/vm/run.sh): HWPMC_DEMO_KERNEL picks it, default
# the Debian 6.1 amd64 kernel; HWPMC_DEMO_KERNEL=6.1.0-56-arm64 boots the
# arm64 guest, whose emulated PMU has real cycles and instructions.
#
# What runs: hwpmc-control -L (events), hwpmc-control -l (counters per CPU),
# hwpmc-stat counting a small shell workload (task-clock, page faults,
# context switches; instructions and cycles where the PMU has them),
# hwpmc-stat sampling a program (perl running a loop, where there is perl;
# in the guest, the selftests' hwpmc_hot): its flat profile, the top of its
# call graph and a flame graph, left in HWPMC_DEMO_OUT (default
# ./hwpmc-demo), and hwpmc-control -s (driver statistics).

set -euo pipefail
"$(dirname "$0")/deps.sh"	# packages (HWPMC_SKIP_DEPS=1 to skip)
. "$(dirname "$0")/vm/lib.sh"
MAKE=${MAKE:-make}
cd "$HWPMC_TOP"

demo_script() {	# the commands, as a POSIX sh script (host or guest)
	cat <<'EOF'
set -x
hwpmc-control -V || true
hwpmc-control -L
hwpmc-control -l | head -n 12
hwpmc-stat -p task-clock -p page-faults -p context-switches \
	sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done; ls / >/dev/null'
if hwpmc-control -L | grep -qx '	instructions'; then
	hwpmc-stat -p instructions,usr -p cycles,usr \
		sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done'
fi
set +x
# sampling a real program: flat profile, call graph, flame graph
if command -v perl > /dev/null 2>&1; then
	set -- perl -e '$s = 0; for $i (1 .. 20000000) { $s += $i * $i } print "$s\n"'
elif [ -x /opt/hwpmc/selftests/hwpmc_hot ]; then
	set -- /opt/hwpmc/selftests/hwpmc_hot 2
else
	set -- sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done'
fi
out=${HWPMC_DEMO_OUT:-/tmp/hwpmc-demo}
mkdir -p "$out"
set -x
hwpmc-stat -P cpu-clock --graph "$out/callgraph.txt" --flamegraph "$out/flame.svg" "$@"
head -n 25 "$out/callgraph.txt"
set +x
echo "flame graph: $out/flame.svg"
if [ -n "${HWPMC_DEMO_GUEST:-}" ] && [ -s "$out/flame.svg" ]; then
	echo HWPMC-DEMO-SVG-BEGIN
	base64 < "$out/flame.svg"
	echo HWPMC-DEMO-SVG-END
fi
set -x
hwpmc-control -s
EOF
}

host_can_load() {
	local k
	k=$(uname -r)
	[ "$(id -u)" = 0 ] || { echo "not root"; return 1; }
	[ -f "/lib/modules/$k/build/Makefile" ] || { echo "no headers for the running kernel $k"; return 1; }
	[ "$(cat /proc/sys/kernel/modules_disabled 2>/dev/null || echo 0)" = 0 ] ||
		{ echo "module loading is disabled"; return 1; }
	return 0
}

outdir=${HWPMC_DEMO_OUT:-$PWD/hwpmc-demo}
case $outdir in /*) ;; *) outdir=$PWD/$outdir ;; esac

if why=$(host_can_load); then
	log "building for the running kernel $(uname -r)"
	$MAKE -s module lib tools KDIR="/lib/modules/$(uname -r)/build"
	loaded=0
	if ! grep -q '^hwpmc ' /proc/modules; then
		if insmod ./hwpmc.ko; then
			loaded=1
		else
			log "insmod failed (Secure Boot? see dmesg); falling back to a VM"
			why="insmod failed"
		fi
	fi
	if [ -c /dev/hwpmc ]; then
		trap '[ $loaded = 0 ] || rmmod hwpmc' EXIT
		mkdir -p "$outdir"
		PATH=$HWPMC_B/bin:$PATH HWPMC_DEMO_OUT=$outdir sh -c "$(demo_script)"
		exit
	fi
fi

kver=${HWPMC_DEMO_KERNEL:-$(vm_kernels | sed -n 1p)}
log "the running kernel cannot be used ($why): demo in a QEMU guest with Debian's $kver"
cmd=$(mktemp)
trap 'rm -f "$cmd"' EXIT
{ echo "HWPMC_DEMO_GUEST=1; export HWPMC_DEMO_GUEST"; demo_script; } > "$cmd"
if ! "$HWPMC_TOP/scripts/vm/run.sh" --cmd "$cmd" "$kver"; then
	echo "the guest run failed; serial log: $HWPMC_VMDIR/$kver.log" >&2
	exit 1
fi
res=$HWPMC_VMDIR/$kver/result.tap
echo "---- output of the demo in the guest ($kver) ----"
sed -n '/^# tests$/,/^# vm: /p' "$res" | sed '1d;$d' |
	sed '/^HWPMC-DEMO-SVG-BEGIN$/,/^HWPMC-DEMO-SVG-END$/d'
# the guest's flame graph, carried out in the serial log
mkdir -p "$outdir"
if sed -n '/^HWPMC-DEMO-SVG-BEGIN$/,/^HWPMC-DEMO-SVG-END$/p' "$res" | sed '1d;$d' |
   base64 -d > "$outdir/flame.svg" 2> /dev/null && [ -s "$outdir/flame.svg" ]; then
	echo "the guest's flame graph: $outdir/flame.svg (open it in a browser)"
else
	rm -f "$outdir/flame.svg"
	echo "the guest wrote no flame graph (see $HWPMC_VMDIR/$kver.log)" >&2
	exit 1
fi
