#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hwpmc for Linux: boot one Debian kernel under QEMU with hwpmc.ko, the
# tools and the selftests in an initramfs, and judge the run.
#
#   scripts/vm/run.sh [--shell | --cmd FILE] [--no-build] KVER
#
#   KVER        e.g. 6.1.0-56-amd64, 6.12.117+deb12-amd64, 6.1.0-56-arm64,
#               or "debug": the x86-64 debug kernel (lockdep, KASAN,
#               kmemleak...) scripts/vm/debug-kernel.sh builds from
#               linux-source-6.12; its log is build/vm/debug.log
#   --shell     boot to an interactive shell (module loaded; Ctrl-A x quits)
#   --cmd FILE  run the sh script FILE in the guest instead of the selftests
#   --no-build  do not run make for the userland (use what is in build/)
#
# amd64: the module is built and installed by DKMS exactly as on a user's
# machine (dkms add/build/install, against /lib/modules/KVER/build), only
# into a sandbox (--dkmstree/--sourcetree/--installtree under build/vm/);
# "depmod -b" then turns that tree into the guest's /lib/modules, and the
# guest loads the module with "modprobe hwpmc".
# arm64: there is no arm64 DKMS host, so the module is cross-built with
# Kbuild (ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-) against Debian's arm64
# headers and installed under /lib/modules/KVER/extra; modprobe as well.
# debug: built with Kbuild against the debug kernel's build tree, the same
# way; at the end the guest has kmemleak scan, and any leak fails the run.
#
# Result: build/vm/KVER.log (serial console), build/vm/KVER.result
# ("PASS FAIL SKIP"), exit status 0 only if the run passed: every TAP line
# ok, the selftests' final "N passed, N failed, N skipped" line present, no
# kernel WARNING/BUG/Oops/Call Trace/lockdep/KASAN/GPF in the log, no timeout.
#
# Environment: see scripts/vm/lib.sh; also HWPMC_VM_TIMEOUT (seconds,
# default 1200 under TCG, 1800 for the debug guest, 2400 for arm64, 300 under KVM), HWPMC_VM_QEMU_OPTS (extra options),
# V=1 (copy the serial console to the terminal).

set -euo pipefail
. "$(dirname "$0")/lib.sh"

mode=test cmdfile='' build=1
while [ $# -gt 0 ]; do
	case $1 in
	--shell) mode=shell ;;
	--cmd) mode=cmd; cmdfile=$(realpath "$2"); shift ;;
	--no-build) build=0 ;;
	-h|--help) sed -n '3,30p' "$0"; exit 0 ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
	shift
done
[ $# -eq 1 ] || die "usage: $0 [--shell | --cmd FILE] [--no-build] KVER"
kver=$1
arch=$(kver_arch "$kver")
krel=$kver	# the guest's uname -r: /lib/modules/$krel
debug=0
if [ "$kver" = debug ]; then
	debug=1
	kbuild=$("$HWPMC_TOP/scripts/vm/debug-kernel.sh") || die "debug: the debug kernel did not build"
	krel=$(cat "$kbuild/kernelrelease")
fi
version=$(hwpmc_version)
work=$HWPMC_VMDIR/$kver
logf=$HWPMC_VMDIR/$kver.log
resf=$HWPMC_VMDIR/$kver.result
MAKE=${MAKE:-make}
mkdir -p "$HWPMC_VMDIR"
# one run per kernel at a time (they share build/vm/KVER)
exec 9> "$HWPMC_VMDIR/$kver.lock"
if ! flock -n 9; then
	log "$kver: another run of this kernel is in progress; waiting"
	flock 9
fi
rm -f "$resf"
t_start=$(date +%s)

# ---- the module's sources, as DKMS and Kbuild see them ----
module_sources() {	# DEST
	local d=$1
	rm -rf "$d" && mkdir -p "$d"
	cp -a "$HWPMC_TOP/Kbuild" "$HWPMC_TOP/dkms.conf" "$HWPMC_TOP/udev" "$d/"
	(cd "$HWPMC_TOP" && find kmod include -type f \( -name '*.[ch]' -o -name Kbuild \
		-o -name Makefile -o -name '*.mk' \) -print0 | cpio -0 -pdm --quiet "$d")
	sed -i "s/^PACKAGE_VERSION=.*/PACKAGE_VERSION=\"$version\"/" "$d/dkms.conf"
}

# ---- copy an ELF file into the initramfs with its shared libraries ----
copy_elf() {	# FILE DESTPATH ROOT
	local f=$1 dst=$2 root=$3 lib
	mkdir -p "$root$(dirname "$dst")"
	cp -L "$f" "$root$dst"
	# static binaries: ldd says "not a dynamic executable" (exit 1)
	{ ldd "$f" 2>/dev/null || true; } | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (0x.*/\1/p' |
	while read -r lib; do
		case $lib in "$HWPMC_B"/*) continue ;; esac	# our own libhwpmc: in /opt/hwpmc/lib
		[ -e "$root$lib" ] && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}

# ---- 1. userland: tools, library, selftests ----
if [ "$arch" = amd64 ]; then
	ub=$HWPMC_B
	umake=()
else
	ub=$HWPMC_B/arm64
	# KSFT_DIR: the kselftest headers the host build already extracted
	umake=(CC=aarch64-linux-gnu-gcc STATIC=1 WITH_KMOD=0 "B=$ub" "KSFT_DIR=$HWPMC_B/ksft")
	# hwpmc-stat with Debian's arm64 libdw and libiberty, static: its
	# symbols, demangling and --call-graph dwarf in the guest
	dw=$(fetch_arm64_dw)
	umake+=(WITH_DW=1 WITH_IBERTY=1 "PKG_CONFIG=env PKG_CONFIG_LIBDIR=$dw/usr/lib/aarch64-linux-gnu/pkgconfig pkg-config"
		"EXTRA_CFLAGS=-isystem $dw/usr/include" "EXTRA_LDFLAGS=-L$dw/usr/lib/aarch64-linux-gnu")
fi
if [ $build = 1 ]; then
	log "$kver: make lib tools selftests ${umake[*]}"
	if ! (cd "$HWPMC_TOP" && $MAKE -s lib tools selftests bench "${umake[@]}") > "$work.make.log" 2>&1; then
		tail -n 30 "$work.make.log" >&2
		if [ "$arch" = amd64 ]; then
			die "$kver: userland build failed (log: $work.make.log)"
		fi
		log "$kver: WARNING: the arm64 userland did not build (log: $work.make.log); the guest reports what is missing"
	fi
	# until the top-level Makefile has a "selftests" recipe: selftests/Makefile
	if [ ! -x "$ub/selftests/run_tests.sh" ] && [ -f "$HWPMC_TOP/selftests/Makefile" ]; then
		log "$kver: make -C selftests ${umake[*]}"
		(cd "$HWPMC_TOP" && $MAKE -s -C selftests "B=$ub" "${umake[@]}") >> "$work.make.log" 2>&1 ||
			{ tail -n 30 "$work.make.log" >&2; log "$kver: WARNING: the selftests did not build"; }
	fi
fi

# ---- 2. the module, installed into a staging /lib/modules ----
stage=$work/stage
rm -rf "$work" && mkdir -p "$work" "$stage/lib/modules/$krel"
if [ $debug = 1 ]; then
	vmlinuz=$kbuild/arch/x86/boot/bzImage
	cp "$kbuild"/modules.builtin* "$kbuild/modules.order" "$stage/lib/modules/$krel/" 2>/dev/null || true
else
	kdir=$(fetch_kernel "$kver")
	vmlinuz=$kdir/vmlinuz-$kver
	cp "$kdir"/modules.builtin* "$kdir/modules.order" "$stage/lib/modules/$kver/" 2>/dev/null || true
fi

if [ $debug = 1 ]; then
	src=$work/mod
	module_sources "$src"
	log "debug: building the module against $kbuild ($krel)"
	$MAKE -C "$kbuild" M="$src" KCFLAGS=-Werror modules > "$work/kbuild.log" 2>&1 || {
		tail -n 40 "$work/kbuild.log" >&2
		die "debug: module build failed (log: $work/kbuild.log)"
	}
	if grep -E 'warning:|WARNING:' "$work/kbuild.log" >&2; then
		die "debug: the module builds with warnings against the debug kernel (log: $work/kbuild.log)"
	fi
	mkdir -p "$stage/lib/modules/$krel/extra"
	cp "$src/hwpmc.ko" "$stage/lib/modules/$krel/extra/"
	ko=$stage/lib/modules/$krel/extra/hwpmc.ko
	"$src/udev/hwpmc-udev-setup.sh" "$stage/lib/modules" > "$work/udev-setup.log" 2>&1 ||
		{ cat "$work/udev-setup.log" >&2; die "$kver: udev/hwpmc-udev-setup.sh failed"; }
elif [ "$arch" = amd64 ]; then
	[ -f "/lib/modules/$kver/build/Makefile" ] ||
		die "$kver: no /lib/modules/$kver/build: apt-get install linux-headers-$kver"
	dk=$work/dkms
	module_sources "$dk/src/hwpmc-$version"
	mkdir -p "$dk/tree"
	dkms_args=(-m hwpmc -v "$version" --dkmstree "$dk/tree" --sourcetree "$dk/src"
		--installtree "$stage/lib/modules" -k "$kver")
	log "$kver: dkms add/build/install (sandbox $dk)"
	{
		dkms add "${dkms_args[@]}" &&
		dkms build "${dkms_args[@]}" &&
		dkms install --no-depmod "${dkms_args[@]}"
	} > "$work/dkms.log" 2>&1 || {
		cat "$work/dkms.log" >&2
		f=$dk/tree/hwpmc/$version/build/make.log
		if [ -f "$f" ]; then tail -n 40 "$f" >&2; fi
		die "$kver: DKMS failed (log: $work/dkms.log)"
	}
	ko=$(find "$stage/lib/modules/$kver" -name 'hwpmc.ko*' -print -quit)
	[ -n "$ko" ] || die "$kver: dkms install put no hwpmc.ko into $stage"
else
	hdr=$(fetch_arm64_headers "$kver")
	src=$work/mod
	module_sources "$src"
	log "$kver: cross-building the module against $hdr"
	$MAKE -C "$hdr" M="$src" KCFLAGS=-Werror ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- modules \
		> "$work/kbuild.log" 2>&1 || {
		tail -n 40 "$work/kbuild.log" >&2
		die "$kver: module cross-build failed (log: $work/kbuild.log)"
	}
	mkdir -p "$stage/lib/modules/$kver/extra"
	cp "$src/hwpmc.ko" "$stage/lib/modules/$kver/extra/"
	ko=$stage/lib/modules/$kver/extra/hwpmc.ko
	# what DKMS's POST_INSTALL does on amd64: the udev rule, group hwpmc
	"$src/udev/hwpmc-udev-setup.sh" "$stage/lib/modules" > "$work/udev-setup.log" 2>&1 ||
		{ cat "$work/udev-setup.log" >&2; die "$kver: udev/hwpmc-udev-setup.sh failed"; }
fi

# ---- 2b. the sample modules (samples/: pmc(9)'s, the test PMU) ----
# Built with Kbuild on its own, as a module author builds one: against
# hwpmc's Module.symvers (KBUILD_EXTRA_SYMBOLS) and its headers.  DKMS
# cleans its build area, so on amd64 hwpmc is built once more with Kbuild
# for that file (the same sources and compiler: the same symbol CRCs).
if [ $debug = 1 ]; then
	skdir=$kbuild; sargs=()
elif [ "$arch" = amd64 ]; then
	skdir=/lib/modules/$kver/build; sargs=()
	src=$work/mod
	module_sources "$src"
	log "$kver: building hwpmc with Kbuild for its Module.symvers"
	$MAKE -C "$skdir" M="$src" KCFLAGS=-Werror modules > "$work/kbuild.log" 2>&1 || {
		tail -n 40 "$work/kbuild.log" >&2
		die "$kver: module build failed (log: $work/kbuild.log)"
	}
else
	skdir=$hdr; sargs=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
fi
# samples/hwpmc_hetero_pmu: a test-only perf PMU (selftests/hwpmc_hetero.sh)
for sname in hwpmc_pmc9_sample hwpmc_hetero_pmu; do
	sdir=$work/sample-$sname
	rm -rf "$sdir" && cp -a "$HWPMC_TOP/samples/$sname" "$sdir"
	rm -f "$sdir"/*.o "$sdir"/*.ko "$sdir"/*.mod* "$sdir"/Module.symvers "$sdir"/modules.order
	log "$kver: building samples/$sname"
	$MAKE -C "$skdir" M="$sdir" KCFLAGS=-Werror "${sargs[@]}" \
		KBUILD_EXTRA_SYMBOLS="$src/Module.symvers" HWPMC_INCLUDE="$src/include/kernel $src/include/uapi" modules \
		> "$work/sample.log" 2>&1 || {
		tail -n 40 "$work/sample.log" >&2
		die "$kver: the sample module $sname did not build (log: $work/sample.log)"
	}
	if grep -E 'warning:|WARNING:' "$work/sample.log" >&2; then
		die "$kver: the sample module $sname builds with warnings (log: $work/sample.log)"
	fi
	mkdir -p "$stage/lib/modules/$krel/extra"
	cp "$sdir/$sname.ko" "$stage/lib/modules/$krel/extra/"
done
depmod -b "$stage" "$krel" 2> "$work/depmod.log" || { cat "$work/depmod.log" >&2; die "$kver: depmod failed"; }
log "$kver: module ${ko#$stage}"

# ---- 3. the initramfs ----
ir=$work/initramfs
mkdir -p "$ir"/{bin,sbin,usr/bin,usr/sbin,etc,lib,opt/hwpmc,hwpmc,proc,sys,dev,tmp,run,root}
cp -a "$stage/lib/modules" "$ir/lib/"
cp "$(fetch_busybox "$arch")" "$ir/bin/busybox"
ln -s busybox "$ir/bin/sh"
if [ "$arch" = amd64 ]; then
	copy_elf "$(command -v kmod)" /bin/kmod "$ir"
	for t in modprobe insmod rmmod lsmod depmod modinfo; do ln -s ../bin/kmod "$ir/sbin/$t"; done
	# the dynamic loader under its ABI path too
	copy_elf /lib64/ld-linux-x86-64.so.2 /lib64/ld-linux-x86-64.so.2 "$ir"
	# perf, to compare counts with in the same guest (linux-perf)
	if [ -x /usr/bin/perf ] && file -b /usr/bin/perf | grep -q '^ELF'; then
		copy_elf /usr/bin/perf /usr/bin/perf "$ir"
	fi
	# systemd-udevd (udevadm under that name), to apply the installed rule
	if [ -x /bin/udevadm ]; then
		copy_elf /bin/udevadm /bin/udevadm "$ir"
		mkdir -p "$ir/lib/systemd"
		ln -s /bin/udevadm "$ir/lib/systemd/systemd-udevd"
	else
		log "$kver: WARNING: no /bin/udevadm (apt-get install udev): no udevd in the guest"
	fi
else
	# no arm64 kmod binary here: busybox's modprobe/rmmod read the same modules.dep
	for t in modprobe insmod rmmod lsmod depmod modinfo; do ln -s ../bin/busybox "$ir/sbin/$t"; done
	# Debian's arm64 systemd-udevd, with its libraries and loader
	ud=$(fetch_arm64_udev)
	mkdir -p "$ir/lib/aarch64-linux-gnu" "$ir/usr/lib/aarch64-linux-gnu" "$ir/lib/systemd"
	cp -L "$ud/bin/udevadm" "$ir/bin/udevadm"
	while read -r f; do cp -L "$ud/$f" "$ir/$f"; done < "$ud/needed"
	ln -s aarch64-linux-gnu/ld-linux-aarch64.so.1 "$ir/lib/ld-linux-aarch64.so.1"
	ln -s /bin/udevadm "$ir/lib/systemd/systemd-udevd"
fi
for d in bin lib selftests bench; do
	[ -d "$ub/$d" ] || continue
	mkdir -p "$ir/opt/hwpmc/$d"
	find "$ub/$d" -maxdepth 1 \( -type f -o -type l \) | while read -r f; do
		case $f in *.a|*.pc) continue ;; esac
		if [ -L "$f" ]; then
			cp -a "$f" "$ir/opt/hwpmc/$d/"
		elif file -b "$f" | grep -q '^ELF'; then
			copy_elf "$f" "/opt/hwpmc/$d/${f##*/}" "$ir"
		else
			cp -a "$f" "$ir/opt/hwpmc/$d/"
		fi
	done
done
if [ "$arch" = arm64 ]; then
	# the shared libraries of the dynamic arm64 programs (the selftests'
	# C++ program, its library found by its rpath): Debian's arm64 libc6
	# of udevadm's root (the loader's own), else the cross toolchain's
	# (libstdc++6-arm64-cross, libgcc-s1-arm64-cross), with what they need
	todo=$(find "$ir/opt/hwpmc" -type f) done_libs=
	while [ -n "$todo" ]; do
		next=
		for f in $todo; do
			for lib in $(aarch64-linux-gnu-readelf -d "$f" 2>/dev/null |
				     sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
				case " $done_libs " in *" $lib "*) continue ;; esac
				done_libs="$done_libs $lib"
				# ours: by their rpath ($ORIGIN, $ORIGIN/../lib)
				[ -e "$ir/opt/hwpmc/selftests/$lib" ] && continue
				[ -e "$ir/opt/hwpmc/lib/$lib" ] && continue
				dst=$ir/lib/aarch64-linux-gnu/$lib
				if [ ! -e "$dst" ] && [ ! -e "$ir/usr/lib/aarch64-linux-gnu/$lib" ]; then
					src=
					for d in "$ud/lib/aarch64-linux-gnu" "$ud/usr/lib/aarch64-linux-gnu" \
						 /usr/aarch64-linux-gnu/lib; do
						[ -e "$d/$lib" ] && { src=$d/$lib; break; }
					done
					if [ -z "$src" ]; then
						log "$kver: WARNING: no arm64 $lib for ${f#"$ir"}"
						continue
					fi
					cp -L "$src" "$dst"
				fi
				next="$next $dst"
			done
		done
		todo=$next
	done
fi
missing=
[ -x "$ir/opt/hwpmc/bin/hwpmc-control" ] || missing="$missing hwpmc-control"
[ -x "$ir/opt/hwpmc/selftests/run_tests.sh" ] || missing="$missing selftests"
[ -z "$missing" ] || log "$kver: WARNING: missing from $ub:$missing"
cp "$HWPMC_TOP/scripts/vm/init.sh" "$ir/init"
chmod 755 "$ir/init"
require=
[ "$arch" = arm64 ] && require="cycles instructions"
cat > "$ir/etc/hwpmc-vm.conf" <<EOF
VM_MODE=$mode
VM_REQUIRE_EVENTS="$require"
VM_KMEMLEAK=$debug
VM_CSW_FALLBACK=$(case $kver in 6.1.*-amd64) echo 1 ;; *) echo 0 ;; esac)
VM_POWEROFF=$([ $debug = 1 ] && echo reboot || echo poweroff)
EOF
[ "$mode" = cmd ] && cp "$cmdfile" "$ir/hwpmc/cmd"
echo "root:x:0:0:root:/root:/bin/sh" > "$ir/etc/passwd"
echo "root:x:0:" > "$ir/etc/group"
# the udev rule and group hwpmc, as the module's installation left them
if [ -d "$stage/etc/udev" ]; then cp -a "$stage/etc/udev" "$ir/etc/"; fi
if [ -f "$stage/etc/group" ]; then grep -v '^root:' "$stage/etc/group" >> "$ir/etc/group" || true; fi
(cd "$ir" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initramfs.cpio.gz"
log "$kver: initramfs $(du -h "$work/initramfs.cpio.gz" | cut -f1)"

# ---- 4. boot ----
append="panic=-1 panic_on_warn=1 oops=panic"
if [ "$arch" = amd64 ]; then
	accel=$(vm_accel "$vmlinuz")
	# Multi-threaded TCG lets a vCPU run a stale translation of kernel
	# text another vCPU is live-patching (static keys, text_poke_bp): the
	# 6.12 guest then dies of "Oops: int3" in a page fault (seen 3 times
	# in ~12 runs, always at a perf software-event key flip).  One TCG
	# thread for all vCPUs keeps code modification coherent.
	accel_opt=$accel
	[ "$accel" = tcg ] && accel_opt="tcg,thread=${HWPMC_VM_TCG_THREAD:-single}"
	qemu=(qemu-system-x86_64 -accel "$accel_opt" -m 1024 -smp 2)
	append="console=ttyS0 $append"
else
	accel=tcg
	# PMUv3 with exact cycles and instructions (1 insn = 1 ns): see
	# docs of the emulated PMU (arm64-pmu-under-qemu); -cpu max is 3x slower.
	# HWPMC_VM_ICOUNT_SHIFT=N makes an instruction 2^N ns.  Tried with 3
	# (2026-11-27): tests busy for a time ran 5x faster, but a 10 us
	# cpu-clock period left the fuzzer 1250 instructions per interrupt
	# (RCU stalls, soft lockups) and fixed work took 8x the samples
	# (bench_smoke's log filled the guest's tmpfs).  So 0.
	qemu=(qemu-system-aarch64 -M virt -cpu cortex-a57 -icount "shift=${HWPMC_VM_ICOUNT_SHIFT:-0}" -m 1024 -smp 2)
	append="console=ttyAMA0 $append"
fi
qemu+=(-nographic -nodefaults -no-reboot -kernel "$vmlinuz" -initrd "$work/initramfs.cpio.gz"
	-append "$append")
# shellcheck disable=SC2206
qemu+=(${HWPMC_VM_QEMU_OPTS:-})
# A hang detector, not a speed test: the arm64 guest takes 450-770 s under
# TCG on two cores, depending on what else the host runs (554, 764 and
# 638 s for the same tree on 2026-11-24).
if [ "$accel" = kvm ]; then tmo=${HWPMC_VM_TIMEOUT:-300}; else tmo=${HWPMC_VM_TIMEOUT:-1200}; fi
# KASAN and lockdep make the debug guest slower (about 510 s)
[ $debug = 0 ] || tmo=${HWPMC_VM_TIMEOUT:-1800}
# arm64: -icount runs both vCPUs in one host thread, and the suite with
# a PMU runs every hardware test; it outgrew 1200 s (ca. 25 min at 0954d51)
# and 2400 s once (e54232d, with three other guests beside it)
[ "$arch" != arm64 ] || [ "$accel" = kvm ] || tmo=${HWPMC_VM_TIMEOUT:-3600}

if [ "$mode" = shell ]; then
	log "$kver: interactive boot ($accel); Ctrl-A x quits QEMU"
	exec "${qemu[@]}" -serial mon:stdio
fi

log "$kver: booting ($accel, timeout ${tmo}s), serial log $logf"
t_boot=$(date +%s)
set +e
if [ "${V:-0}" = 1 ]; then
	timeout --foreground -k 10 "$tmo" "${qemu[@]}" -monitor none -serial stdio < /dev/null 2>&1 | tee "$logf"
	qrc=${PIPESTATUS[0]}
else
	timeout -k 10 "$tmo" "${qemu[@]}" -monitor none -serial stdio < /dev/null > "$logf" 2>&1
	qrc=$?
fi
set -e
t_end=$(date +%s)

# ---- 5. judge ----
clean=$work/console.txt
tr -d '\r' < "$logf" > "$clean"
block=$work/result.tap
sed -n '/^HWPMC-RESULT-BEGIN$/,/^HWPMC-RESULT-END/p' "$clean" | sed '1d;$d' > "$block"
problems=()
pass=0 fail=0 skip=0

if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	problems+=("timed out after ${tmo}s")
elif [ "$qrc" != 0 ]; then
	problems+=("qemu exited with status $qrc")
fi
if ! grep -q '^HWPMC-RESULT-END' "$clean"; then
	problems+=("no result from the guest (crash, panic or hang; see the log)")
else
	read -r p f s < <(awk '
		/^ok [0-9]+ vm: .*# SKIP/ { s++; next }
		/^ok [0-9]+ vm: / { p++; next }
		/^not ok [0-9]+ vm: / { f++ }
		END { print p + 0, f + 0, s + 0 }' "$block")
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	[ "$f" = 0 ] || problems+=("$f VM check(s) failed")
	if [ "$mode" = test ]; then
		final=$(grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$block" | tail -n 1 || true)
		if [ -z "$final" ]; then
			problems+=("the selftests printed no final 'N passed, N failed, N skipped' line")
			fail=$((fail + 1))
		else
			read -r p f s < <(echo "$final" | sed -E 's/^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?$/\1 \2 \4/')
			s=${s:-0}
			pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
			[ "$f" = 0 ] || problems+=("selftests: $final")
			# cross-check the runner's arithmetic with the programs' own totals
			tp=$(sed -n 's/^[[:space:]]*# Totals: pass:\([0-9]*\) .*/\1/p' "$block" | awk '{ s += $1 } END { print s + 0 }')
			if [ "$p" -lt "$tp" ]; then
				problems+=("the runner's '$final' disagrees with the tests' '# Totals:' lines ($tp passed)")
				fail=$((fail + 1))
			fi
		fi
		nok=$(grep -Ec '^[[:space:]]*not ok' "$block" || true)
		vmnok=$(grep -Ec '^not ok [0-9]+ vm: ' "$block" || true)
		if [ "$nok" -gt "$vmnok" ] && [ -n "$final" ] && [ "$f" = 0 ]; then
			problems+=("'not ok' lines in the TAP although the summary says 0 failed")
			fail=$((fail + 1))
		fi
	fi
fi
# kernel splats anywhere in the console (live part and the dmesg dump)
splat='(WARNING:|BUG:|Oops|Call Trace|general protection|KASAN|lockdep|possible recursive locking|possible circular locking|Kernel panic|cut here)'
# (not the debug kernel's banner "RCU lockdep checking is enabled.")
if grep -aE "\[ *[0-9]+\.[0-9]+\].*$splat" "$clean" |
   grep -av 'RCU lockdep checking is enabled' > "$work/splats.txt"; then
	problems+=("kernel splat in the log: $(head -n 1 "$work/splats.txt" | sed -E 's/.*\[ *[0-9]+\.[0-9]+\] //')")
	fail=$((fail + 1))
fi
[ "$mode" != test ] || [ -s "$block" ] || [ ${#problems[@]} -gt 0 ] || problems+=("empty result")
if [ ${#problems[@]} -gt 0 ] && [ "$fail" = 0 ]; then
	fail=1
fi

echo "$pass $fail $skip" > "$resf"
boot_s=$((t_end - t_boot)) all_s=$((t_end - t_start))
if [ ${#problems[@]} -eq 0 ]; then
	log "$kver: PASS ($pass passed, $fail failed, $skip skipped; boot+tests ${boot_s}s, total ${all_s}s, $accel)"
	exit 0
fi
log "$kver: FAIL ($pass passed, $fail failed, $skip skipped; boot+tests ${boot_s}s, $accel)"
for p in "${problems[@]}"; do echo "  - $p" >&2; done
grep -E '^[[:space:]]*not ok' "$block" 2>/dev/null | head -n 20 | sed 's/^/    /' >&2 || true
[ -s "$work/splats.txt" ] && head -n 10 "$work/splats.txt" | sed 's/^/    /' >&2
echo "  serial log: $logf" >&2
exit 1
