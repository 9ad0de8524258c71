#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: build everything, load hwpmc.ko and show what it sees.
#
#   sudo scripts/demo.sh            (or: sudo make demo)
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
# context switches; instructions and cycles where the PMU has them), and
# hwpmc-control -s (driver statistics).

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
		PATH=$HWPMC_B/bin:$PATH sh -c "$(demo_script)"
		exit
	fi
fi

kver=${HWPMC_DEMO_KERNEL:-$(vm_kernels | sed -n 1p)}
log "the running kernel cannot be used ($why): demo in a QEMU guest with Debian's $kver"
cmd=$(mktemp)
trap 'rm -f "$cmd"' EXIT
demo_script > "$cmd"
if ! "$HWPMC_TOP/scripts/vm/run.sh" --cmd "$cmd" "$kver"; then
	echo "the guest run failed; serial log: $HWPMC_VMDIR/$kver.log" >&2
	exit 1
fi
echo "---- output of the demo in the guest ($kver) ----"
sed -n '/^# tests$/,/^# vm: /p' "$HWPMC_VMDIR/$kver/result.tap" | sed '1d;$d'
