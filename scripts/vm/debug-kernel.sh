#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: build (once) a small x86-64 debug kernel from Debian's
# linux-source-6.12 with lockdep, KASAN, kmemleak, DEBUG_ATOMIC_SLEEP,
# DEBUG_LIST and UBSAN, for scripts/vm/run.sh's "debug" guest.
#
#   scripts/vm/debug-kernel.sh      build if needed; print the build tree
#
# The build tree (O=) holds arch/x86/boot/bzImage, Module.symvers and the
# file "kernelrelease"; out-of-tree modules build against it with
# "make -C <tree> M=<dir> modules".  It is cached under
# $HWPMC_VM_CACHE/debug-kernel/<key>, the key being the source package's
# version and a hash of the configuration below, so re-runs cost nothing;
# a change of either builds a new one.
#
# Configuration: tinyconfig plus what the guests and the module need
# (serial console, initramfs, modules, perf events, kprobes, tracepoints,
# preempt notifiers -- only KVM selects them --, UNIX sockets and netlink
# for udevd, ACPI for two CPUs and poweroff) plus the detectors.  See
# /work/shared/reference/debug-kernel.md for the measurements behind it.
# Timings: ~1-1.5 min to unpack the source, ~7 min "make -j2" on 2 cores.
#
# Environment: see scripts/vm/lib.sh; HWPMC_DEBUG_JOBS (default nproc).

set -euo pipefail
. "$(dirname "$0")/lib.sh"

tarball=/usr/src/linux-source-6.12.tar.xz
[ -f "$tarball" ] || die "no $tarball: apt-get install linux-source-6.12"
for t in flex bison bc; do
	command -v $t >/dev/null || die "$t is missing: apt-get install flex bison bc (scripts/deps.sh)"
done

# scripts/config arguments, in order
CONFIG=(
	# base
	-d SLUB_TINY -e SLUB -e CC_OPTIMIZE_FOR_PERFORMANCE -d CC_OPTIMIZE_FOR_SIZE
	-e KERNEL_GZIP -e 64BIT -e SMP --set-val NR_CPUS 8
	-d PREEMPT_NONE -d PREEMPT_VOLUNTARY -e PREEMPT
	-e PRINTK -e PRINTK_TIME -e EARLY_PRINTK -e BUG -e TTY -e SERIAL_8250 -e SERIAL_8250_CONSOLE
	-e BLK_DEV_INITRD -e RD_GZIP -e DEVTMPFS -e DEVTMPFS_MOUNT -e UNIX98_PTYS
	-e PROC_FS -e PROC_SYSCTL -e SYSFS -e DEBUG_FS -e TMPFS -e SHMEM
	-e MULTIUSER -e FUTEX -e EPOLL -e SIGNALFD -e TIMERFD -e EVENTFD -e INOTIFY_USER -e FHANDLE
	-e POSIX_TIMERS -e FILE_LOCKING -e BINFMT_ELF -e BINFMT_SCRIPT -e HIGH_RES_TIMERS -e NO_HZ_IDLE
	-e ACPI -e HPET_TIMER -e RTC_CLASS
	# i386 programs (the ABI tests through compat_ptr_ioctl); file
	# capabilities on /tmp (the security tests)
	-e IA32_EMULATION -e COMPAT_32BIT_TIME -e TMPFS_XATTR
	# user and pid namespaces (the attach rule across user namespaces,
	# records in the owner's pid namespace); failslab and fail-nth (no
	# allocation failure may lose a record silently)
	-e NAMESPACES -e USER_NS -e PID_NS
	-e FAULT_INJECTION -e FAILSLAB -e FAULT_INJECTION_DEBUG_FS
	# UNIX sockets (the log to a socket) and netlink uevents (systemd-udevd)
	-e NET -e UNIX -d INET -d IPV6 -d WIRELESS -d WLAN -d ETHERNET -d NETDEVICES
	# the module
	-e PERF_EVENTS -e MODULES -e MODULE_UNLOAD -d MODVERSIONS -d MODULE_SIG
	-e FTRACE -e ENABLE_DEFAULT_TRACERS -d FUNCTION_TRACER -e KPROBES
	-e VIRTUALIZATION -e KVM -e KVM_INTEL -e KVM_AMD
	-e KALLSYMS -e STACKTRACE -e UNWINDER_ORC -e IRQ_WORK
	# the detectors
	-e DEBUG_KERNEL -e DEBUG_PREEMPT -e PROVE_LOCKING -e DEBUG_ATOMIC_SLEEP -e DEBUG_LIST
	-e KASAN -e KASAN_GENERIC -e KASAN_INLINE -e DEBUG_KMEMLEAK -d DEBUG_KMEMLEAK_DEFAULT_OFF
	-e UBSAN -e UBSAN_BOUNDS
	# no debug info
	-e DEBUG_INFO_NONE -d DEBUG_INFO -d DEBUG_INFO_BTF --set-val FRAME_WARN 2048
	--set-str LOCALVERSION "-hwpmc-debug" -d LOCALVERSION_AUTO
)
# must be =y after olddefconfig (it silently drops what lacks a dependency)
REQUIRED="PROVE_LOCKING DEBUG_ATOMIC_SLEEP DEBUG_LIST KASAN DEBUG_KMEMLEAK TRACEPOINTS
	PREEMPT_NOTIFIERS PERF_EVENTS MODULE_UNLOAD KPROBES IRQ_WORK UNIX SERIAL_8250_CONSOLE
	BLK_DEV_INITRD DEVTMPFS ACPI SMP PREEMPT IA32_EMULATION COMPAT_32BIT_TIME TMPFS_XATTR
	USER_NS PID_NS FAILSLAB FAULT_INJECTION_DEBUG_FS"

srcver=$(dpkg-query -W -f '${Version}' linux-source-6.12 2>/dev/null || stat -c %Y "$tarball")
key=$(printf '%s\n' "$srcver" "${CONFIG[@]}" | sha256sum | cut -c1-12)
top=$HWPMC_VM_CACHE/debug-kernel
dir=$top/$key
out=$dir/build
if [ -f "$out/.hwpmc-done" ]; then
	echo "$out"
	exit 0
fi
mkdir -p "$top"
exec 8> "$top/lock"
flock 8
if [ -f "$out/.hwpmc-done" ]; then echo "$out"; exit 0; fi

jobs=${HWPMC_DEBUG_JOBS:-$(nproc)}
t0=$(date +%s)
if [ ! -f "$dir/src/Makefile" ]; then
	log "debug kernel: unpacking $tarball ($srcver)"
	rm -rf "$dir/src.tmp" && mkdir -p "$dir/src.tmp"
	tar -xJf "$tarball" -C "$dir/src.tmp" --strip-components=1
	rm -rf "$dir/src" && mv "$dir/src.tmp" "$dir/src"
fi
t1=$(date +%s)
rm -rf "$out" && mkdir -p "$out"
log "debug kernel: configuring (tinyconfig + ${#CONFIG[@]} scripts/config words)"
make -s -C "$dir/src" O="$out" tinyconfig > "$out/config.log" 2>&1 || { cat "$out/config.log" >&2; die "make tinyconfig failed"; }
"$dir/src/scripts/config" --file "$out/.config" "${CONFIG[@]}"
make -s -C "$dir/src" O="$out" olddefconfig >> "$out/config.log" 2>&1 || { cat "$out/config.log" >&2; die "make olddefconfig failed"; }
# twice: options whose dependency the first pass turned on (KVM_INTEL after KVM)
"$dir/src/scripts/config" --file "$out/.config" "${CONFIG[@]}"
make -s -C "$dir/src" O="$out" olddefconfig >> "$out/config.log" 2>&1 || { cat "$out/config.log" >&2; die "make olddefconfig failed"; }
missing=
for c in $REQUIRED; do
	grep -q "^CONFIG_$c=y" "$out/.config" || missing="$missing $c"
done
[ -z "$missing" ] || die "debug kernel: olddefconfig dropped:$missing (see $out/.config)"
log "debug kernel: make -j$jobs bzImage modules_prepare modules (~7 min on 2 cores)"
if ! make -C "$dir/src" O="$out" -j"$jobs" bzImage modules_prepare > "$out/build.log" 2>&1 ||
   ! make -C "$dir/src" O="$out" -j"$jobs" modules >> "$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log" >&2
	die "debug kernel: build failed (log: $out/build.log)"
fi
make -s -C "$dir/src" O="$out" kernelrelease > "$out/kernelrelease"
t2=$(date +%s)
log "debug kernel $(cat "$out/kernelrelease"): unpack $((t1 - t0))s, build $((t2 - t1))s"
echo "unpack $((t1 - t0)) build $((t2 - t1))" > "$out/.hwpmc-times"
touch "$out/.hwpmc-done"
# older builds: keep only this one (each is ~2 GB)
find "$top" -mindepth 1 -maxdepth 1 -type d ! -name "$key" -exec rm -rf {} +
echo "$out"
